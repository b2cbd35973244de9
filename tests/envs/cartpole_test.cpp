#include <doctest/doctest.h>
#include "envs/cartpole.hpp"
TEST_SUITE("envs") {
TEST_CASE("placeholder") { CHECK(troupe::envs::cartpole().spec().action.n == 2); }
}
