#pragma once
// Finds Python environment host processes by their command line, so that a
// test can check that none outlived what started it. Hosts are found by the
// script's name and a marker unique to the test (a directory it puts on
// env.python_path, which the host's command line shows).
#include <dirent.h>

#include <chrono>
#include <exception>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace troupe::tests {

// A file of /proc/PID/, or "" when the process is gone. One that exits
// between the open and the read fails the read with ESRCH, which
// basic_filebuf reports by throwing.
inline std::string proc_file(int pid, const std::string& name) {
  try {
    std::ifstream in("/proc/" + std::to_string(pid) + "/" + name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  } catch (const std::exception&) {
    return "";
  }
}

inline std::vector<int> host_processes(const std::string& marker) {
  std::vector<int> found;
  DIR* proc = opendir("/proc");
  if (!proc) return found;
  while (const dirent* entry = readdir(proc)) {
    const int pid = std::atoi(entry->d_name);
    if (pid <= 0) continue;
    const std::string cmdline = proc_file(pid, "cmdline");
    if (cmdline.find("troupe_env_host.py") != std::string::npos &&
        cmdline.find(marker) != std::string::npos)
      found.push_back(pid);
  }
  closedir(proc);
  return found;
}

// The hosts still there after waiting up to `timeout` for them to go.
inline std::vector<int> hosts_left(const std::string& marker,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(3)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  std::vector<int> left = host_processes(marker);
  while (!left.empty() && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    left = host_processes(marker);
  }
  return left;
}

// A marker for this test: a directory name no other test or run uses.
inline std::string host_marker(const std::string& test) {
  return "/tmp/troupe_host_marker_" + test + "_" + std::to_string(getpid());
}

}  // namespace troupe::tests
