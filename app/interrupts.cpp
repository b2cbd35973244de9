#include "app/interrupts.hpp"

#include <unistd.h>

#include <csignal>

namespace troupe::app {

namespace {

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  if (interrupted.exchange(true)) _exit(130);
  // write(2): the only way to say something that is safe in a signal handler.
  static const char note[] =
      "\ntroupe: stopping gracefully (interrupt again to quit at once)\n";
  [[maybe_unused]] const auto written = write(STDERR_FILENO, note, sizeof note - 1);
}

}  // namespace

std::atomic<bool>& catch_interrupts() {
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  return interrupted;
}

}  // namespace troupe::app
