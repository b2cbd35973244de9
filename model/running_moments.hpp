#pragma once
// Running mean and variance of a stream of vectors, merged a batch at a time
// (Chan, Golub and LeVeque's pairwise update), in double precision: the
// statistics behind observation and reward normalisation. Plain C++.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace troupe::model {

struct running_moments {
  std::vector<double> mean;  // per element
  std::vector<double> var;   // population variance per element
  double count = 0;          // vectors seen; 0: mean 0 and var 1 (no data yet)

  running_moments() = default;
  explicit running_moments(int dim) : mean(size_t(dim), 0.0), var(size_t(dim), 1.0) {}

  int dim() const { return static_cast<int>(mean.size()); }
  // Folds in `rows` vectors of dim() floats each (rows * dim() values).
  void update(const float* rows, std::int64_t row_count);
  // Folds in the moments of other vectors (of the same dim).
  void merge(const running_moments& other);
};

}  // namespace troupe::model
