#pragma once
// One Python environment host process: started with posix_spawn (fork would
// run LibTorch's atfork handlers), talked to over a socket, and never left
// behind. It inherits only the socket (fd 3) and the shared memory (fd 4),
// runs in a process group of its own (a terminal's Ctrl-C is Troupe's to
// handle), and dies with the thread that started it (the script asks for
// PR_SET_PDEATHSIG) or when its socket closes.
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "bridges/python/host_protocol.hpp"

namespace troupe::bridges::python {

struct host_reply {
  host_status status = host_status::failed;
  std::string payload;  // ok: the command's result; else the host's error text
  bool ok() const { return status == host_status::ok; }
};

class host_process {
 public:
  // Starts `interpreter script <this pid> label...` and sends it the start
  // command with `settings_json` (which may be large; the label only names
  // the process for ps). `name` says which environments it holds, in
  // messages. Throws env_key_error when it cannot start.
  host_process(const std::string& interpreter, const std::string& script,
               const std::vector<std::string>& label, const std::string& settings_json,
               int memory_fd, std::string name);
  // Closes the socket, gives the host a moment to exit, then SIGKILLs it;
  // always reaps it.
  ~host_process();
  host_process(const host_process&) = delete;
  host_process& operator=(const host_process&) = delete;

  void send(host_op op, std::uint32_t argument = 0, const std::string& payload = "");
  // The next answer. A host that died (a crash, os._exit, SIGKILL) is seen at
  // once, by the end of its socket, and one that stops answering after
  // `timeout`: both throw std::runtime_error saying what happened.
  host_reply receive(std::chrono::milliseconds timeout);

  pid_t pid() const { return pid_; }
  const std::string& name() const { return name_; }

 private:
  void read_exactly(char* into, std::size_t bytes, std::chrono::steady_clock::time_point deadline);
  // Until the socket is ready for `events` (POLLIN, POLLOUT); throws when the
  // host dies first or `deadline` passes (then it is killed).
  void wait_for(short events, std::chrono::steady_clock::time_point deadline);
  [[noreturn]] void fail_dead(const std::string& how);
  bool reap(std::chrono::milliseconds wait);  // true once the process has been waited for
  std::string exit_description() const;

  std::string name_;
  pid_t pid_ = -1;
  int socket_ = -1;
  bool reaped_ = false;
  int status_ = 0;  // waitpid's, once reaped
};

}  // namespace troupe::bridges::python
