// The Python bridge's searching player (alphabeta:DEPTH of a Python game):
// its copies of a game and the table of positions it keeps across searches
// choose the moves a plain minimax chooses. The checks are Python's, in
// tests/bridges/python/search_check.py, run here by the interpreter the
// bridge itself would run.
#include <doctest/doctest.h>

#include <string>

#include "bridges/python/interpreter.hpp"

using namespace troupe::bridges::python;

TEST_SUITE("bridges") {
TEST_CASE("Python alpha-beta: its copies of a game are deep, and with its table it finds the moves a plain minimax finds") {
  const std::string source = TROUPE_SOURCE_DIR;
  const int code = run_program({host_interpreter(""), source + "/tests/bridges/python/search_check.py",
                                source + "/bridges/python", source + "/examples/python_game"},
                               false);
  CHECK(code == 0);
}
}
