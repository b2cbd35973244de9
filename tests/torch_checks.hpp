#pragma once
// LibTorch's headers bring glog's CHECK, which takes one argument (a comma
// in a braced list breaks it) and aborts the whole test binary on failure.
// Included after them, this gives a suite doctest's CHECK back.
#include <doctest/doctest.h>

#undef CHECK
#define CHECK DOCTEST_CHECK
