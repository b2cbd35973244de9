#pragma once
// SIGINT and SIGTERM for every command that runs until stopped (train, serve,
// join, and the windows of view and play): the first asks the command to stop
// gracefully (it says so on stderr), a second leaves at once with exit code 130.
#include <atomic>

namespace troupe::app {

// Installs the handlers; returns the flag the first signal sets. The command
// may set it too, to stop for a reason of its own.
std::atomic<bool>& catch_interrupts();

}  // namespace troupe::app
