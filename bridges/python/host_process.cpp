#include "bridges/python/host_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>
#include <vector>

#include "envs/env_error.hpp"

extern char** environ;

namespace troupe::bridges::python {

using envs::env_key_error;

namespace {

using clock_type = std::chrono::steady_clock;

// A copy of `fd` numbered 10 or more, close-on-exec: so that mapping it to
// fd 3 or 4 in the child is a real dup2, which clears close-on-exec there.
int high_copy(int fd) {
  const int copy = fcntl(fd, F_DUPFD_CLOEXEC, 10);
  if (copy < 0) throw env_key_error("env.id", std::string("cannot start a Python host: fcntl: ") + std::strerror(errno));
  return copy;
}

// How long poll() waits before it looks whether the host is still alive:
// a host whose socket end leaked elsewhere would not be seen by EOF alone.
constexpr std::chrono::milliseconds liveness_check{250};
// A host that does not read its commands for this long is stuck.
constexpr std::chrono::seconds send_timeout{300};

}  // namespace

host_process::host_process(const std::string& interpreter, const std::string& script,
                           const std::vector<std::string>& label, const std::string& settings_json,
                           int memory_fd, std::string name)
    : name_(std::move(name)) {
  int pair[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0)
    throw env_key_error("env.id", std::string("cannot start a Python host: socketpair: ") + std::strerror(errno));
  socket_ = pair[0];
  const int child_socket = high_copy(pair[1]);
  close(pair[1]);
  const int child_memory = high_copy(memory_fd);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, child_socket, host_socket_fd);
  posix_spawn_file_actions_adddup2(&actions, child_memory, host_memory_fd);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
  // Everything is opened close-on-exec here; this also covers descriptors
  // that libraries opened without it.
  posix_spawn_file_actions_addclosefrom_np(&actions, host_memory_fd + 1);
#endif
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);
  posix_spawnattr_setpgroup(&attributes, 0);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP);

  const std::string parent = std::to_string(getpid());
  std::vector<std::string> args{interpreter, script, parent};
  args.insert(args.end(), label.begin(), label.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const int rc = posix_spawnp(&pid_, interpreter.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  close(child_socket);
  close(child_memory);
  if (rc != 0) {
    close(socket_);
    pid_ = -1;
    throw env_key_error("env.python", "env.python '" + interpreter + "': cannot start it: " + std::strerror(rc));
  }
  // Written into the socket's buffer at once; a host that dies before it
  // reads it is seen by the first receive().
  try {
    send(host_op::start, 0, settings_json);
  } catch (const std::runtime_error&) {
  }
}

host_process::~host_process() {
  if (socket_ >= 0) close(socket_);  // the host exits at the end of its socket
  if (pid_ <= 0) return;
  if (!reap(std::chrono::milliseconds(200))) {
    kill(pid_, SIGKILL);
    reap(std::chrono::hours(1));
  }
}

bool host_process::reap(std::chrono::milliseconds wait) {
  if (reaped_) return true;
  const auto deadline = clock_type::now() + wait;
  for (;;) {
    const pid_t r = waitpid(pid_, &status_, WNOHANG);
    if (r == pid_ || (r < 0 && errno == ECHILD)) {
      reaped_ = true;
      return true;
    }
    if (clock_type::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

std::string host_process::exit_description() const {
  if (!reaped_) return "stopped answering";
  if (WIFEXITED(status_)) return "exited with code " + std::to_string(WEXITSTATUS(status_));
  if (WIFSIGNALED(status_)) {
    const int sig = WTERMSIG(status_);
    return "was killed by signal " + std::to_string(sig) + " (" + strsignal(sig) + ")";
  }
  return "ended";
}

void host_process::fail_dead(const std::string& how) {
  reap(std::chrono::seconds(1));
  throw std::runtime_error("the Python environment host for " + name_ + " (pid " +
                           std::to_string(pid_) + ") " + (reaped_ ? exit_description() : how));
}

void host_process::send(host_op op, std::uint32_t argument, const std::string& payload) {
  host_command command;
  command.op = static_cast<std::uint8_t>(op);
  command.argument = argument;
  command.payload_bytes = static_cast<std::uint32_t>(payload.size());
  std::string bytes(reinterpret_cast<const char*>(&command), sizeof command);
  bytes += payload;
  const auto deadline = clock_type::now() + send_timeout;
  size_t sent = 0;
  while (sent < bytes.size()) {
    // MSG_NOSIGNAL: a dead host is an error to report, not a SIGPIPE.
    const ssize_t n =
        ::send(socket_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n >= 0) {
      sent += size_t(n);
      continue;
    }
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
      fail_dead(std::string("could not be sent a command: ") + std::strerror(errno));
    // A full socket (a large payload): wait until the host reads, or dies.
    wait_for(POLLOUT, deadline);
  }
}

void host_process::wait_for(short events, clock_type::time_point deadline) {
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock_type::now());
    if (left.count() <= 0) {
      kill(pid_, SIGKILL);
      fail_dead("did not answer within the time limit and was killed");
    }
    pollfd p{socket_, events, 0};
    const int ready = poll(&p, 1, int(std::min(left, liveness_check).count()));
    if (ready > 0) return;
    if (ready < 0 && errno != EINTR) fail_dead(std::string("poll: ") + std::strerror(errno));
    if (ready == 0 && reap(std::chrono::milliseconds(0))) fail_dead("ended");
  }
}

void host_process::read_exactly(char* into, std::size_t bytes, clock_type::time_point deadline) {
  while (bytes > 0) {
    wait_for(POLLIN, deadline);
    const ssize_t n = ::recv(socket_, into, bytes, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail_dead("closed its socket");
    into += n;
    bytes -= size_t(n);
  }
}

host_reply host_process::receive(std::chrono::milliseconds timeout) {
  const auto deadline = clock_type::now() + timeout;
  host_answer answer;
  read_exactly(reinterpret_cast<char*>(&answer), sizeof answer, deadline);
  host_reply reply;
  reply.status = static_cast<host_status>(answer.status);
  reply.payload.resize(answer.payload_bytes);
  read_exactly(reply.payload.data(), reply.payload.size(), deadline);
  return reply;
}

}  // namespace troupe::bridges::python
