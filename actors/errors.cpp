#include "actors/errors.hpp"

#include <caf/all.hpp>

namespace troupe::actors {

std::string to_string(errc code) {
  switch (code) {
    case errc::none: return "none";
    case errc::malformed: return "malformed";
    case errc::not_joined: return "not_joined";
    case errc::refused: return "refused";
    case errc::protocol_mismatch: return "protocol_mismatch";
    case errc::run_ended: return "run_ended";
    case errc::not_local: return "not_local";
    case errc::environment_failed: return "environment_failed";
    case errc::cannot_render: return "cannot_render";
    case errc::busy: return "busy";
    case errc::failed: return "failed";
  }
  return "unknown";
}

caf::error make_error(errc code, std::string detail) {
  return caf::make_error(code, std::move(detail));
}

errc code_of(const caf::error& err) {
  if (err.category() != caf::atom("troupe")) return errc::none;
  return static_cast<errc>(err.code());
}

std::string detail_of(const caf::error& err) {
  const auto& ctx = err.context();
  if (ctx.match_elements<std::string>()) return ctx.get_as<std::string>(0);
  return caf::to_string(err);
}

}  // namespace troupe::actors
