#include "model/running_moments.hpp"

namespace troupe::model {

void running_moments::update(const float* rows, std::int64_t row_count) {
  if (row_count <= 0) return;
  // The batch's own moments, in two passes, then merged.
  const size_t d = mean.size();
  running_moments batch(dim());
  batch.count = double(row_count);
  for (size_t j = 0; j < d; ++j) {
    double sum = 0;
    for (std::int64_t i = 0; i < row_count; ++i) sum += rows[size_t(i) * d + j];
    const double m = sum / batch.count;
    double squares = 0;
    for (std::int64_t i = 0; i < row_count; ++i) {
      const double x = rows[size_t(i) * d + j] - m;
      squares += x * x;
    }
    batch.mean[j] = m;
    batch.var[j] = squares / batch.count;
  }
  merge(batch);
}

void running_moments::merge(const running_moments& other) {
  if (other.count <= 0) return;
  const double total = count + other.count;
  for (size_t j = 0; j < mean.size(); ++j) {
    const double delta = other.mean[j] - mean[j];
    // Sums of squared deviations; while count is 0 only the other's count.
    const double m2 = var[j] * count + other.var[j] * other.count +
                      delta * delta * count * other.count / total;
    mean[j] += delta * other.count / total;
    var[j] = m2 / total;
  }
  count = total;
}

}  // namespace troupe::model
