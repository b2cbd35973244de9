#pragma once
// Finding and running Python: the interpreter an environment host runs in,
// the host script, and short helper programs (such as scripts/plot.py).
#include <string>
#include <vector>

namespace troupe::bridges::python {

// Runs a program found on PATH without a shell (so nothing needs quoting);
// `quiet` sends its output to /dev/null. Its exit code, or -1 when it could
// not be started or did not exit normally.
int run_program(const std::vector<std::string>& args, bool quiet);

// `python3` on PATH when it can import `module`, else /usr/bin/python3 when
// that can: machines where another python3 (pyenv, a virtual environment)
// comes first on PATH without the module still work. "" when neither can.
std::string python_with(const std::string& module);

// env.python when set; else the first of python3 on PATH and /usr/bin/python3
// that has numpy (the host needs it), else python3 (whose error then says
// numpy is missing). Probed once per process.
std::string host_interpreter(const std::string& configured);

// troupe_env_host.py (and troupe_spaces.py beside it): installed beside the executable
// (<prefix>/share/troupe/python/), else in the source tree. Throws env_key_error
// when neither has it.
std::string host_script();

}  // namespace troupe::bridges::python
