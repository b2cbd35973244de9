// The frame stream's protection: a token, a hub that never leaves its
// process, and a gate that what a peer sends besides its protocol cannot
// stop.
#include <doctest/doctest.h>

#include <chrono>

#include <caf/io/all.hpp>

#include "actors/net/network_setup.hpp"
#include "actors/errors.hpp"
#include "actors/frames/frame_hub.hpp"
#include "actors/frames/frame_stream.hpp"
#include "tests/actors/network_system.hpp"

using namespace troupe;
using troupe::tests::network_system;
using namespace std::chrono_literals;

namespace {

// A hub-shaped actor that answers every request with a 2x2 frame.
actors::frame_hub_actor spawn_still_hub(caf::actor_system& sys) {
  return sys.spawn([]() -> actors::frame_hub_actor::behavior_type {
    return {
        [](actors::next_frame_atom, std::int32_t i) {
          actors::env_frame f;
          f.agent_id = std::uint32_t(i);
          f.image.resize(2, 2);
          return f;
        },
        [](actors::agent_atom, std::int32_t, actors::agent_actor) {},
        [](actors::metrics_atom, actors::metrics_actor) {},
    };
  });
}

// What the gate saw, asked by an actor of its own process.
actors::stream_final final_of(caf::actor_system& sys, const actors::frame_stream_control& gate) {
  caf::scoped_actor self{sys};
  actors::stream_final out;
  self->request(gate, 5s, actors::stop_atom_v)
      .receive([&](const actors::stream_final& f) { out = f; },
               [&](caf::error& err) { FAIL(caf::to_string(err)); });
  return out;
}

// Asks `source` for agent 0's frame: the frame, or the error.
caf::expected<actors::env_frame> ask(caf::actor_system& sys, const actors::frame_source& source) {
  caf::scoped_actor self{sys};
  caf::expected<actors::env_frame> out{caf::sec::none};
  self->request(source, 5s, actors::next_frame_atom_v, std::int32_t{0})
      .receive([&](actors::env_frame& f) { out = std::move(f); },
               [&](caf::error& err) { out = std::move(err); });
  return out;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("a frame stream refuses a wrong or missing token within 5 s, and serves the right one") {
  network_system run, viewer;
  auto hub = spawn_still_hub(*run.sys);
  auto port = actors::publish_frame_stream(*run.sys, hub, {0, "127.0.0.1", "right-token", {}});
  REQUIRE(port);
  for (const std::string token : {"wrong-token", "", "right-toke", "right-tokenX"}) {
    CAPTURE(token);
    const auto start = std::chrono::steady_clock::now();
    auto refused = actors::connect_frame_stream(*viewer.sys, "127.0.0.1", port->port, token);
    REQUIRE_FALSE(refused);
    CHECK(actors::code_of(refused.error()) == actors::errc::refused);
    CHECK(std::chrono::steady_clock::now() - start < 5s);
  }
  // A node that never presented the token gets no frame through the gate.
  auto gate = viewer.sys->middleman().remote_actor<actors::frame_stream_actor>("127.0.0.1", port->port);
  REQUIRE(gate);
  auto unwatched = ask(*viewer.sys, *gate);
  REQUIRE_FALSE(unwatched);
  CHECK(actors::code_of(unwatched.error()) == actors::errc::not_joined);

  auto source = actors::connect_frame_stream(*viewer.sys, "127.0.0.1", port->port, "right-token");
  REQUIRE(source);
  auto frame = ask(*viewer.sys, *source);
  REQUIRE(frame);
  CHECK(frame->image.width == 2);
  // The hub answered the gate, not the viewer: no peer can name it.
  CHECK(run.sys->registry().get(hub.id()) == nullptr);
  const auto seen = final_of(*run.sys, port->gate);
  CHECK(seen.viewers_refused == 4);
  CHECK(seen.viewers_admitted == 1);
  CHECK(seen.requests_refused == 1);
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
}

TEST_CASE("a peer cannot stop the gate with exit, error or foreign messages") {
  network_system run, peer;
  auto hub = spawn_still_hub(*run.sys);
  auto port = actors::publish_frame_stream(*run.sys, hub, {0, "127.0.0.1", "t", {}});
  REQUIRE(port);
  auto gate = peer.sys->middleman().remote_actor<actors::frame_stream_actor>("127.0.0.1", port->port);
  REQUIRE(gate);
  {
    caf::scoped_actor self{*peer.sys};
    auto untyped = caf::actor_cast<caf::actor>(*gate);
    self->send_exit(untyped, caf::exit_reason::kill);            // fatal in CAF 0.17, unless dropped
    self->send_exit(untyped, caf::exit_reason::user_shutdown);
    caf::anon_send_exit(untyped, caf::exit_reason::kill);
    self->send(untyped, caf::make_error(caf::sec::runtime_error));  // ends an actor by default
    self->send(untyped, actors::agent_atom_v, std::int32_t{0}, actors::agent_actor{});
    self->send(untyped, std::string("garbage"), 42);
  }
  std::this_thread::sleep_for(300ms);
  auto source = actors::connect_frame_stream(*peer.sys, "127.0.0.1", port->port, "t");
  REQUIRE(source);
  CHECK(ask(*peer.sys, *source));
  CHECK(final_of(*run.sys, port->gate).dropped_at_door == 6);
  // Nor can a peer stop it the way its owner does.
  {
    caf::scoped_actor self{*peer.sys};
    bool refused = false;
    self->request(caf::actor_cast<caf::actor>(*gate), 5s, actors::stop_atom_v)
        .receive([](const actors::stream_final&) {}, [&](caf::error&) { refused = true; });
    CHECK(refused);
  }
  CHECK(ask(*peer.sys, *source));
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
}
}
