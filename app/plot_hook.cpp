#include "app/plot_hook.hpp"

#include <cerrno>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <system_error>
#include <vector>

#include "actors/run_directory.hpp"

extern char** environ;

namespace troupe::app {

namespace {

namespace fs = std::filesystem;

// Runs a program found on PATH without a shell (so no quoting of run
// directories); `quiet` sends its output to /dev/null. Returns its exit code,
// or -1 when it could not be started or did not exit normally.
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

// `python3` first; Debian's own interpreter next, for machines where another
// python3 (pyenv, a virtual environment) comes first on PATH without matplotlib.
std::string python_with_matplotlib() {
  for (const std::string candidate : {"python3", "/usr/bin/python3"})
    if (run_program({candidate, "-c", "import matplotlib"}, true) == 0) return candidate;
  return "";
}

}  // namespace

std::string find_plot_script() {
  std::vector<fs::path> candidates;
#ifdef TROUPE_SOURCE_DIR
  candidates.push_back(fs::path(TROUPE_SOURCE_DIR) / "scripts" / "plot.py");
#endif
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path().parent_path() / "scripts" / "plot.py");
    candidates.push_back(exe.parent_path() / "scripts" / "plot.py");
  }
  for (const auto& c : candidates)
    if (fs::is_regular_file(c, ec)) return c.string();
  return "";
}

bool plot_run(const std::string& run_dir) {
  const std::string script = find_plot_script();
  if (script.empty()) {
    std::cout << "troupe: log.plot: skipped, scripts/plot.py not found beside the sources or "
                 "the executable"
              << std::endl;
    return false;
  }
  const std::string python = python_with_matplotlib();
  if (python.empty()) {
    std::cout << "troupe: log.plot: skipped, no python3 with matplotlib (install "
                 "python3-matplotlib)"
              << std::endl;
    return false;
  }
  const std::string out = actors::run_directory{run_dir}.curves_file();
  const int code = run_program({python, script, run_dir, "--out", out}, false);
  if (code != 0) {
    std::cout << "troupe: log.plot: " << script << " failed (exit " << code << "), no plot"
              << std::endl;
    return false;
  }
  std::cout << "troupe: curves in " << out << std::endl;
  return true;
}

}  // namespace troupe::app
