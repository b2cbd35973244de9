// Watching a run: the frame hub renders only for waiting viewers and at a
// bounded rate, real agents answer with env 0 and their policy, frames cross
// CAF's network layer, and what arrives is checked before anything draws it.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/coordinator.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/frames/frame_hub.hpp"
#include "actors/frames/frame_stream.hpp"
#include "actors/frames/frame_subscriber.hpp"
#include "actors/net/network_setup.hpp"

using namespace troupe;
using namespace std::chrono_literals;

namespace {

actors::env_frame good_frame() {
  actors::env_frame f;
  f.agent_id = 1;
  f.agent_count = 2;
  f.image.resize(4, 3);
  f.image.set(1, 1, 200, 100, 50);
  f.info.title = "CartPole-v1";
  f.info.action_probabilities = {0.25f, 0.75f};
  return f;
}

// Stands in for an agent: answers every render request with a 2x2 frame and
// counts the requests.
caf::behavior counting_agent(caf::event_based_actor*, std::shared_ptr<std::atomic<int>> renders) {
  return {
      [=](actors::render_atom) {
        ++*renders;
        actors::env_frame f;
        f.image.resize(2, 2);
        f.info.title = "fake";
        return f;
      },
  };
}

struct system_fixture {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  explicit system_fixture(bool network = false) {
    actors::configure_actor_system(cfg);
    if (network) actors::configure_network(cfg, {});
    sys = std::make_unique<caf::actor_system>(cfg);
  }
};

// Asks `hub` for a frame of `agent`; the frame, or the error as text.
caf::expected<actors::env_frame> next_frame(caf::actor_system& sys, actors::frame_hub_actor hub,
                                            std::int32_t agent) {
  caf::scoped_actor self{sys};
  caf::expected<actors::env_frame> out{caf::sec::none};
  self->request(hub, 5s, actors::next_frame_atom_v, agent)
      .receive([&](actors::env_frame& f) { out = std::move(f); },
               [&](caf::error& err) { out = std::move(err); });
  return out;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("frame_problem passes a good frame and says what is wrong with a bad one") {
  CHECK(actors::frame_problem(good_frame()).empty());

  auto short_pixels = good_frame();
  short_pixels.image.pixels.pop_back();
  CHECK(actors::frame_problem(short_pixels) ==
        "a frame of 4x3 pixels carries 35 bytes, not 4*3*3 = 36");
  auto empty = good_frame();
  empty.image = {};
  CHECK(actors::frame_problem(empty).find("0x0 pixels") != std::string::npos);
  auto huge = good_frame();
  huge.image.width = 100000;  // the pixel count would be absurd: refused before it is computed
  CHECK(actors::frame_problem(huge).find("100000x3") != std::string::npos);
  auto negative = good_frame();
  negative.image.height = -3;
  CHECK_FALSE(actors::frame_problem(negative).empty());
  auto stranger = good_frame();
  stranger.agent_id = 2;
  CHECK(actors::frame_problem(stranger) == "agent 2 of 2 does not exist");
  auto chatty = good_frame();
  chatty.info.action_probabilities.assign(actors::max_frame_actions + 1, 0.f);
  CHECK(actors::frame_problem(chatty).find("action entries") != std::string::npos);
  auto long_title = good_frame();
  long_title.info.title.assign(1000, 'x');
  CHECK_FALSE(actors::frame_problem(long_title).empty());
}

TEST_CASE("a frame survives CAF's serialization, absent and non-finite reals included") {
  system_fixture fx;
  auto frame = good_frame();
  frame.info.episode_return = std::numeric_limits<double>::infinity();  // would never pack
  frame.info.action_values = {std::numeric_limits<float>::quiet_NaN(),
                              -std::numeric_limits<float>::infinity(), 0.5f};
  // steps_per_second stays absent (NaN)
  frame.info.seat = "second";
  frame.info.other_player = "policy yellow";
  frame.info.other_probabilities = {0.25f, std::numeric_limits<float>::quiet_NaN()};
  frame.info.other_chosen = {0};
  frame.info.other_legal = {1, 0};
  std::vector<char> buf;
  caf::binary_serializer sink{*fx.sys, buf};
  REQUIRE(!sink(frame));
  actors::env_frame back;
  caf::binary_deserializer source{*fx.sys, buf};
  REQUIRE(!source(back));
  CHECK(back.image.pixels == frame.image.pixels);
  CHECK(back.info.title == "CartPole-v1");
  CHECK(back.info.action_probabilities == frame.info.action_probabilities);
  CHECK(std::isnan(back.info.steps_per_second));  // still absent, so not drawn
  CHECK(back.info.episode_return == std::numeric_limits<double>::max());
  REQUIRE(back.info.action_values.size() == 3);
  CHECK(back.info.action_values[0] == 0.f);
  CHECK(back.info.action_values[1] == -std::numeric_limits<float>::max());
  CHECK(back.info.action_values[2] == 0.5f);
  CHECK(back.info.seat == "second");
  CHECK(back.info.other_player == "policy yellow");
  CHECK(back.info.other_probabilities == std::vector<float>{0.25f, 0.f});
  CHECK(back.info.other_chosen == std::vector<std::int32_t>{0});
  CHECK(back.info.other_legal == std::vector<std::uint8_t>{1, 0});
}

TEST_CASE("the hub renders only while a viewer waits, at most max_fps, one frame for all") {
  system_fixture fx;
  auto renders = std::make_shared<std::atomic<int>>(0);
  actors::frame_hub_config config;
  config.max_fps = 20;
  auto hub = actors::spawn_frame_hub(*fx.sys, config);
  auto agent = caf::actor_cast<actors::agent_actor>(fx.sys->spawn(counting_agent, renders));
  caf::scoped_actor coordinator{*fx.sys};
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{0}, agent);
  // Only an actor of this process names agents; an anonymous claim is ignored.
  caf::anon_send(hub, actors::agent_atom_v, std::int32_t{1}, agent);
  auto unnamed = next_frame(*fx.sys, hub, 1);
  REQUIRE_FALSE(unnamed);
  CHECK(fx.sys->render(unnamed.error()).find("there are 1") != std::string::npos);
  std::this_thread::sleep_for(200ms);
  CHECK(*renders == 0);  // nobody watches: nothing is drawn

  // A first frame; then three viewers who ask within the rate limit's wait
  // share the next one, drawn once.
  REQUIRE(next_frame(*fx.sys, hub, 0));
  CHECK(*renders == 1);
  {
    caf::scoped_actor self{*fx.sys};
    std::vector<std::uint64_t> sequences;
    auto a = self->request(hub, 5s, actors::next_frame_atom_v, std::int32_t{0});
    auto b = self->request(hub, 5s, actors::next_frame_atom_v, std::int32_t{0});
    auto c = self->request(hub, 5s, actors::next_frame_atom_v, std::int32_t{0});
    for (auto* h : {&a, &b, &c})
      h->receive([&](const actors::env_frame& f) { sequences.push_back(f.sequence); },
                 [&](const caf::error& err) { FAIL(caf::to_string(err)); });
    REQUIRE(sequences.size() == 3);
    CHECK(sequences[0] == sequences[1]);
    CHECK(sequences[1] == sequences[2]);
  }
  CHECK(*renders == 2);

  // A viewer pulling as fast as it can is held to max_fps.
  const int before = *renders;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t last = 0;
  int frames = 0;
  while (std::chrono::steady_clock::now() - start < 500ms) {
    auto f = next_frame(*fx.sys, hub, 0);
    REQUIRE(f);
    CHECK(f->sequence > last);  // always a new frame, never one seen before
    last = f->sequence;
    ++frames;
  }
  CHECK(frames >= 5);
  CHECK(*renders - before <= 12);  // 20 per second for half a second, plus the first
  std::this_thread::sleep_for(200ms);
  const int settled = *renders;
  std::this_thread::sleep_for(200ms);
  CHECK(*renders == settled);  // the viewer stopped asking: so did the hub

  // Agents that do not exist are refused with a reason.
  auto none = next_frame(*fx.sys, hub, 5);
  REQUIRE_FALSE(none);
  CHECK(fx.sys->render(none.error()).find("no agent 5") != std::string::npos);
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(agent, caf::exit_reason::user_shutdown);
}

TEST_CASE("a viewer of an agent that left is served by the next agent there, and waits for one") {
  system_fixture fx;
  auto hub = actors::spawn_frame_hub(*fx.sys);
  auto renders = std::make_shared<std::atomic<int>>(0);
  auto a = caf::actor_cast<actors::agent_actor>(fx.sys->spawn(counting_agent, renders));
  auto b = caf::actor_cast<actors::agent_actor>(fx.sys->spawn(counting_agent, renders));
  caf::scoped_actor coordinator{*fx.sys};
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{0}, a);
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{1}, b);
  auto from_b = next_frame(*fx.sys, hub, 1);
  REQUIRE(from_b);
  CHECK(from_b->agent_id == 1);
  CHECK(from_b->agent_count == 2);

  // Slot 1's agent leaves (its worker went away): its viewer sees slot 0's.
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{1}, actors::agent_actor{});
  auto moved = next_frame(*fx.sys, hub, 1);
  REQUIRE(moved);
  CHECK(moved->agent_id == 0);

  // With nobody there, the viewer waits, and the next agent named serves it.
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{0}, actors::agent_actor{});
  caf::scoped_actor viewer{*fx.sys};
  auto pending = viewer->request(hub, 5s, actors::next_frame_atom_v, std::int32_t{1});
  std::this_thread::sleep_for(100ms);
  const int before = *renders;
  auto c = caf::actor_cast<actors::agent_actor>(fx.sys->spawn(counting_agent, renders));
  coordinator->send(hub, actors::agent_atom_v, std::int32_t{1}, c);
  std::uint32_t served_by = 99;
  pending.receive([&](const actors::env_frame& f) { served_by = f.agent_id; },
                  [&](const caf::error& err) { FAIL(caf::to_string(err)); });
  CHECK(served_by == 1);
  CHECK(*renders == before + 1);  // drawn by c, once
  caf::anon_send_exit(hub, caf::exit_reason::user_shutdown);
  for (auto& actor : {a, b, c})
    caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
}

TEST_CASE("a training run's agents answer the hub with env 0 and their action probabilities") {
  system_fixture fx;
  actors::run_request request;
  request.config.env.id = "CartPole-v1";
  request.config.env.envs_per_agent = 4;
  request.config.agents.count = 2;
  request.config.run.stop.mean_return = 1e9;
  request.config.run.stop.wall_seconds = 30;
  request.config.log.progress = false;
  request.config.checkpoint.every_seconds = 0;
  request.frame_hub = actors::spawn_frame_hub(*fx.sys);
  std::atomic<bool> stop{false};
  actors::run_outcome outcome;
  std::thread trainer([&] { outcome = actors::coordinate(*fx.sys, request, stop); });

  // The hub counts the agents named so far, and the run names its agents
  // one after the other as it starts them: a frame from agent 0 can come
  // back before agent 1 is named ("agent 0 of 1"). Agent 1's first frame
  // says both are.
  const auto named_by = std::chrono::steady_clock::now() + 20s;
  while (!next_frame(*fx.sys, request.frame_hub, 1) && std::chrono::steady_clock::now() < named_by)
    std::this_thread::sleep_for(10ms);

  for (std::int32_t agent : {0, 1, 0}) {
    CAPTURE(agent);
    auto f = next_frame(*fx.sys, request.frame_hub, agent);
    REQUIRE(f);
    CHECK(actors::frame_problem(*f).empty());
    CHECK(f->agent_id == std::uint32_t(agent));
    CHECK(f->agent_count == 2);
    CHECK(f->image.width == 600);
    CHECK(f->image.height == 400);
    CHECK(f->info.title == "CartPole-v1");
    CHECK(f->info.episode >= 1);
    CHECK(f->info.step >= 0);
    CHECK(f->info.parameter_version >= 0);
    REQUIRE(f->info.action_probabilities.size() == 2);
    CHECK(f->info.action_probabilities[0] + f->info.action_probabilities[1] ==
          doctest::Approx(1.0));
    REQUIRE(f->info.chosen_actions.size() == 1);
    CHECK((f->info.chosen_actions[0] == 0 || f->info.chosen_actions[0] == 1));
    CHECK(f->info.action_names == std::vector<std::string>{"left", "right"});
  }
  // Long enough for the hub to have counted env steps: the panel's rate.
  std::this_thread::sleep_for(600ms);
  next_frame(*fx.sys, request.frame_hub, 0);
  auto f = next_frame(*fx.sys, request.frame_hub, 0);
  REQUIRE(f);
  CHECK(f->info.steps_per_second > 0);

  stop = true;
  trainer.join();
  CHECK(outcome.stop == run::stop_reason::interrupted);
  CHECK(outcome.samples_collected == outcome.learner.samples_trained + outcome.samples_dropped);
  caf::anon_send_exit(request.frame_hub, caf::exit_reason::user_shutdown);
}

TEST_CASE("frames cross the network to a subscriber; bad ones are rejected, not drawn") {
  // The sender: a hub-shaped actor serving a good frame, then a bad one.
  system_fixture server(true);
  auto served = std::make_shared<std::atomic<int>>(0);
  actors::frame_hub_actor fake_hub = server.sys->spawn(
      [served]() -> actors::frame_hub_actor::behavior_type {
        return {
            [served](actors::next_frame_atom, std::int32_t) {
              auto f = good_frame();
              f.sequence = std::uint64_t(++*served);
              if (*served % 2 == 0) f.image.pixels.resize(7);  // malformed
              return f;
            },
            [](actors::agent_atom, std::int32_t, actors::agent_actor) {},
            [](actors::metrics_atom, actors::metrics_actor) {},
        };
      });
  auto port = actors::publish_frame_stream(*server.sys, fake_hub, {0, "127.0.0.1", "secret", {}});
  REQUIRE(port);

  system_fixture viewer(true);
  auto hub = actors::connect_frame_stream(*viewer.sys, "127.0.0.1", port->port, "secret");
  REQUIRE(hub);
  std::mutex mutex;
  std::vector<actors::env_frame> shown;
  std::vector<std::string> rejected;
  std::atomic<bool> enough{false};
  actors::frame_subscriber_config config;
  config.frames_per_second = [] { return 0.0; };
  config.on_frame = [&](actors::env_frame&& f) {
    std::lock_guard<std::mutex> lock(mutex);
    shown.push_back(std::move(f));
    if (shown.size() >= 3) enough = true;
  };
  config.on_rejected = [&](const std::string& why) {
    std::lock_guard<std::mutex> lock(mutex);
    rejected.push_back(why);
  };
  auto subscriber = actors::spawn_frame_subscriber(*viewer.sys, *hub, config);
  for (int i = 0; i < 500 && !enough; ++i) std::this_thread::sleep_for(10ms);
  {
    // Until the subscriber has ended: its callbacks write into this test's
    // locals (a frame in flight may still be rejected after the exit is sent).
    caf::scoped_actor self{*viewer.sys};
    self->send_exit(subscriber, caf::exit_reason::user_shutdown);
    self->wait_for(subscriber);
  }
  std::lock_guard<std::mutex> lock(mutex);
  REQUIRE(shown.size() >= 3);
  CHECK(shown[0].image.pixels == good_frame().image.pixels);
  CHECK(shown[0].info.action_probabilities == std::vector<float>{0.25f, 0.75f});
  REQUIRE(rejected.size() >= 2);
  CHECK(rejected[0] == "a frame of 4x3 pixels carries 7 bytes, not 4*3*3 = 36");
  for (const auto& f : shown) CHECK(f.sequence % 2 == 1);  // only the good ones
  caf::anon_send_exit(fake_hub, caf::exit_reason::user_shutdown);
}
}
