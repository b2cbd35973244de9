#pragma once
// Troupe's own errors, as CAF error codes of category "troupe": what one
// actor answers another (also across the cluster) when it will not or cannot
// do what was asked. The receiver decides by the code, never by the words;
// the words (the error's context) say the details to a person.
#include <cstdint>
#include <string>

#include <caf/error.hpp>
#include <caf/make_message.hpp>
#include <caf/message.hpp>

namespace troupe::actors {

enum class errc : std::uint8_t {
  none = 0,
  malformed,          // a message failed validation: shapes, numbers, ids, counts
  not_joined,         // a cluster message from a node that has not joined the run
  refused,            // a worker with a wrong or missing cluster token
  protocol_mismatch,  // a worker that speaks another cluster protocol version
  run_ended,          // the run is over: nothing more is taken
  not_local,          // a message only actors of this process may send
  environment_failed, // an agent's environment threw
  cannot_render,      // the environment cannot draw itself
  busy,               // too many requests are waiting already
  failed,             // the work itself failed (a checkpoint that could not be written, ...)
};

// The exit code of a process the other side refused (a wrong token): a
// worker (troupe join) or a viewer (troupe view --connect).
constexpr int exit_refused = 3;

// "malformed", "refused", ...
std::string to_string(errc code);

// An error of category "troupe" with `detail` as its context.
caf::error make_error(errc code, std::string detail);

// The code of a Troupe error; errc::none for any other error.
errc code_of(const caf::error& err);

// The words an error carries (its context), without CAF's wrapping.
std::string detail_of(const caf::error& err);

}  // namespace troupe::actors

CAF_ERROR_CODE_ENUM(troupe::actors::errc, "troupe")
