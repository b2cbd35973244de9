#pragma once
// Runs the troupe binary as a child process that a test can signal.
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace troupe::tests {

struct command_result {
  int exit_code;  // -1 when the command did not exit normally
  std::string output;
};

// Runs a shell command to completion and captures what it prints (stderr
// too, when `merge_stderr`). With TROUPE_TEST_COMMAND_TIMES=FILE set, each
// command's seconds are appended to FILE: where a slow test's time goes.
inline command_result run_command(const std::string& command, bool merge_stderr = true) {
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen((command + (merge_stderr ? " 2>&1" : "")).c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  std::string output;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, pipe)) output.append(buf, n);
  const int status = pclose(pipe);
  if (const char* times = std::getenv("TROUPE_TEST_COMMAND_TIMES")) {
    if (FILE* f = std::fopen(times, "a")) {
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      std::fprintf(f, "%.2f %s\n", took.count(), command.c_str());
      std::fclose(f);
    }
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

// `troupe ARGS` to completion (stderr dropped unless `merge_stderr`).
inline command_result run_troupe(const std::string& args, bool merge_stderr = true) {
  return run_command(std::string(TROUPE_BINARY) + " " + args + (merge_stderr ? "" : " 2>/dev/null"),
                     merge_stderr);
}

class child_process {
 public:
  // Output goes to `log_path`. Started with posix_spawn rather than fork():
  // fork() runs every pthread_atfork handler the test binary's libraries
  // registered (CUDA's LibTorch has some), and one of them crashed it.
  child_process(const std::vector<std::string>& args, const std::string& log_path) {
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const int rc = posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
  }
  ~child_process() {
    if (pid_ > 0 && !done_) {
      ::kill(pid_, SIGKILL);
      wait_exit();
    }
  }
  void signal(int sig) { ::kill(pid_, sig); }
  pid_t pid() const { return pid_; }
  // Still running (not exited, not reaped).
  bool running() {
    if (done_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      done_ = true;
      exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      return false;
    }
    return true;
  }
  // The exit code, or 128 + signal number; -1 if it did not end in time.
  int wait_exit(std::chrono::seconds timeout = std::chrono::seconds(120)) {
    if (done_) return exit_code_;
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    int status = 0;
    while (std::chrono::steady_clock::now() < deadline) {
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        done_ = true;
        exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return exit_code_;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return -1;
  }

 private:
  pid_t pid_ = -1;
  bool done_ = false;
  int exit_code_ = -1;
};

}  // namespace troupe::tests
