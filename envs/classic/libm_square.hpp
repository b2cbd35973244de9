#pragma once
#include <cmath>

namespace troupe::envs {

// x squared as Gymnasium computes `x ** 2`: Python and numpy call libm's
// pow(), and glibc's pow is not always correctly rounded, so x * x can differ
// from it in the last bit (enough to break bit-exact reference rewards). The
// volatile exponent keeps the compiler from turning pow(x, 2) into x * x.
inline double libm_square(double x) {
  volatile double two = 2.0;
  return std::pow(x, two);
}

}  // namespace troupe::envs
