#include "bridges/python/interpreter.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "envs/data_file.hpp"
#include "envs/env_error.hpp"

extern char** environ;

namespace troupe::bridges::python {

using envs::data_file;

namespace fs = std::filesystem;

int run_program(const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid;
  const int started = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string python_with(const std::string& module) {
  for (const std::string candidate : {"python3", "/usr/bin/python3"})
    if (run_program({candidate, "-c", "import " + module}, true) == 0) return candidate;
  return "";
}

std::string host_interpreter(const std::string& configured) {
  if (!configured.empty()) return configured;
  static const std::string probed = [] {
    const std::string found = python_with("numpy");
    return found.empty() ? std::string("python3") : found;
  }();
  return probed;
}

std::string host_script() {
  return data_file(fs::path("python") / "troupe_env_host.py", fs::path("bridges") / "python" / "troupe_env_host.py",
                   "env.id", "the Python environment host troupe_env_host.py");
}

}  // namespace troupe::bridges::python
