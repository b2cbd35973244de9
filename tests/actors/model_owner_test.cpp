#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "actors/errors.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/model_owner.hpp"
#include "actors/predict_client.hpp"
#include "actors/reply_courier.hpp"

using namespace troupe;

namespace {

// Agent `a`'s request, answered: through the owner's lane for even agents
// (as a run's agents ask), by message for odd ones (as requests relayed by
// the cluster gateway come), so both kinds share the owner's batches.
// Empty when an error came back instead.
std::optional<actors::predict_reply> ask_owner(actors::predict_client& client, caf::scoped_actor& self,
                                               const actors::predict_request& req) {
  client.request() = req;
  std::optional<actors::predict_reply> answer;
  client.ask_and_wait(self, std::chrono::seconds(30),
                      [&](const actors::predict_reply& reply) { answer = reply; },
                      [](const caf::error&) {});
  return answer;
}

// Agent `a`'s client of `owner`: half of them through its lane.
actors::predict_client client_of(int a, const actors::model_owner_actor& owner,
                                 const std::shared_ptr<actors::predict_lane>& lane) {
  return actors::predict_client(caf::actor_cast<actors::predict_service>(owner),
                                a % 2 == 0 ? lane : nullptr);
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("the model-owner answers every concurrent request with its own rows") {
  const int requesters = 16, requests_each = 40, rows = 3, obs_size = 4, max_batch = 32;
  auto model = model::make_shared_model(model::mlp_spec(obs_size, 2, {16}), 3);
  model::warm_up(*model, max_batch);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto owner = actors::spawn_model_owner(sys, model, {max_batch}, 5);

  // Each request's observations are unique, so a reply routed to the wrong
  // requester, or rows shuffled inside a batch, shows up as wrong values.
  std::vector<int> wrong(requesters, 0), answered(requesters, 0);
  std::vector<std::thread> threads;
  for (int r = 0; r < requesters; ++r)
    threads.emplace_back([&, r] {
      caf::scoped_actor self{sys};
      model::prediction direct;
      for (int q = 0; q < requests_each; ++q) {
        actors::predict_request req{std::uint32_t(r), rows, {}};
        for (int i = 0; i < rows * obs_size; ++i)
          req.observations.push_back(std::sin(0.1f * (r * 1000 + q * 10 + i)));
        model::predict(*model, req.observations.data(), nullptr, rows, direct);
        self->request(owner, caf::infinite, req)
            .receive(
                [&](const actors::predict_reply& reply) {
                  ++answered[r];
                  bool ok = reply.values.size() == size_t(rows) &&
                            reply.actions.size() == size_t(rows) && reply.version == 0;
                  for (int i = 0; ok && i < rows; ++i)
                    ok = std::abs(reply.values[i] - direct.values[i]) < 1e-4f &&
                         (reply.actions[i] == 0.f || reply.actions[i] == 1.f) &&
                         reply.logp[i] <= 0.f;
                  wrong[r] += ok ? 0 : 1;
                },
                [&](caf::error&) { ++wrong[r]; });
      }
    });
  for (auto& t : threads) t.join();
  for (int r = 0; r < requesters; ++r) {
    CHECK(answered[r] == requests_each);
    CHECK(wrong[r] == 0);
  }
  caf::scoped_actor self{sys};
  self->request(owner, caf::infinite, actors::stats_atom_v)
      .receive(
          [&](const actors::batch_stats& s) {
            CHECK(s.requests == requesters * requests_each);
            CHECK(s.observations == requesters * requests_each * rows);
            CHECK(s.largest_batch <= max_batch + rows - 1);
            CHECK(s.forward_passes <= s.requests);
          },
          [&](caf::error&) { FAIL("no stats"); });
  self->send_exit(owner, caf::exit_reason::user_shutdown);
}

TEST_CASE("64 one-row agents: replies shared with the courier reach each agent once, right (20 rounds)") {
  // Batches of 8 requests or more are sent partly by the reply courier's
  // thread: a lost, misrouted or stuck reply fails or hangs this test. Half
  // the agents ask through the lane, half by message, into the same batches.
  const int agents = 64, requests_each = 50, obs_size = 4;
  auto model = model::make_shared_model(model::mlp_spec(obs_size, 2, {16}), 3);
  model::warm_up(*model, 256);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  int shared_rounds = 0;  // rounds with a batch large enough to share
  for (int round = 0; round < 20; ++round) {
    CAPTURE(round);
    auto lane = std::make_shared<actors::predict_lane>();
    auto owner = actors::spawn_model_owner(sys, model, {256}, std::uint64_t(round), lane);
    std::vector<int> wrong(agents, 0), answered(agents, 0);
    std::vector<std::thread> threads;
    for (int a = 0; a < agents; ++a)
      threads.emplace_back([&, a] {
        caf::scoped_actor self{sys};
        actors::predict_client client = client_of(a, owner, lane);
        model::prediction direct;
        for (int q = 0; q < requests_each; ++q) {
          actors::predict_request req{std::uint32_t(a), 1, {}};
          for (int i = 0; i < obs_size; ++i)
            req.observations.push_back(std::cos(0.01f * float(a * 997 + q * 13 + i)));
          model::predict(*model, req.observations.data(), nullptr, 1, direct);
          const auto reply = ask_owner(client, self, req);
          if (!reply) {
            ++wrong[a];
            continue;
          }
          ++answered[a];
          if (reply->values.size() != 1 || std::abs(reply->values[0] - direct.values[0]) > 1e-4f)
            ++wrong[a];
        }
      });
    for (auto& t : threads) t.join();
    for (int a = 0; a < agents; ++a) {
      REQUIRE(answered[a] == requests_each);
      REQUIRE(wrong[a] == 0);
    }
    caf::scoped_actor self{sys};
    self->request(owner, caf::infinite, actors::stats_atom_v)
        .receive(
            [&](const actors::batch_stats& s) {
              REQUIRE(s.requests == agents * requests_each);
              if (size_t(s.largest_batch) >= actors::reply_courier::min_shared_batch) ++shared_rounds;
            },
            [&](caf::error&) { FAIL("no stats"); });
    self->send_exit(owner, caf::exit_reason::user_shutdown);
  }
  CHECK(shared_rounds > 0);
}

TEST_CASE("recurrent: each agent's states come back as its own rows lead them, batched with others (10 rounds)") {
  // Every agent carries its rows' LSTM states from reply to reply, and zeroes
  // some (episodes that start again). Its own single-agent forward pass
  // says what each reply must hold: a state given to another agent's row,
  // rows reordered in a batch, or a stale state fed back shows as a mismatch,
  // and every later step of that agent inherits it.
  const int agents = 12, requests_each = 30, rows = 2, obs_size = 4;
  model::net_spec spec = model::mlp_spec(obs_size, 3, {16});
  spec.recurrent = {"lstm", 8};
  const int s = spec.state_size();
  auto model = model::make_shared_model(spec, 7);
  model::warm_up(*model, 64);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  int batched_rounds = 0;  // rounds in which some forward pass served several requests
  for (int round = 0; round < 10; ++round) {
    CAPTURE(round);
    auto lane = std::make_shared<actors::predict_lane>();
    auto owner = actors::spawn_model_owner(sys, model, {64}, std::uint64_t(round), lane);
    std::vector<int> wrong(agents, 0), answered(agents, 0);
    std::vector<std::thread> threads;
    for (int a = 0; a < agents; ++a)
      threads.emplace_back([&, a] {
        caf::scoped_actor self{sys};
        actors::predict_client client = client_of(a, owner, lane);
        std::vector<float> states(size_t(rows) * s, 0.f);
        model::prediction direct;
        for (int q = 0; q < requests_each; ++q) {
          actors::predict_request req{std::uint32_t(a), rows, {}};
          for (int i = 0; i < rows * obs_size; ++i)
            req.observations.push_back(std::sin(0.37f * float(a * 1009 + q * 17 + i)));
          req.states = states;
          model::predict(*model, req.observations.data(), states.data(), rows, direct);
          const auto reply = ask_owner(client, self, req);
          if (!reply) {
            ++wrong[a];
            states = direct.states;
          } else {
            ++answered[a];
            bool ok = reply->states.size() == direct.states.size() &&
                      reply->values.size() == size_t(rows);
            for (size_t i = 0; ok && i < reply->states.size(); ++i)
              ok = std::abs(reply->states[i] - direct.states[i]) <= 1e-5f;
            for (int i = 0; ok && i < rows; ++i)
              ok = std::abs(reply->values[i] - direct.values[i]) <= 1e-5f;
            wrong[a] += ok ? 0 : 1;
            states = reply->states.size() == states.size() ? reply->states : direct.states;
          }
          if ((a + q) % 7 == 0) std::fill_n(states.begin(), s, 0.f);  // row 0's episode restarts
        }
      });
    for (auto& t : threads) t.join();
    for (int a = 0; a < agents; ++a) {
      REQUIRE(answered[a] == requests_each);
      REQUIRE(wrong[a] == 0);
    }
    caf::scoped_actor self{sys};
    self->request(owner, caf::infinite, actors::stats_atom_v)
        .receive(
            [&](const actors::batch_stats& st) {
              if (st.forward_passes < st.requests) ++batched_rounds;
            },
            [&](caf::error&) { FAIL("no stats"); });
    self->send_exit(owner, caf::exit_reason::user_shutdown);
  }
  CHECK(batched_rounds > 0);  // agents' rows did share forward passes
}

TEST_CASE("the model-owner rejects a malformed request with an error, not a crash") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto owner = actors::spawn_model_owner(sys, model, {8}, 1);
  caf::scoped_actor self{sys};
  bool got_error = false;
  self->request(owner, caf::infinite, actors::predict_request{0, 2, {1.f, 2.f, 3.f}})
      .receive([&](const actors::predict_reply&) {}, [&](caf::error&) { got_error = true; });
  CHECK(got_error);
  self->send_exit(owner, caf::exit_reason::user_shutdown);
}

TEST_CASE("action masks: the model-owner samples legal actions only, masked and unmasked requests sharing batches; bad masks are refused") {
  const int actions = 6, rows = 4, obs_size = 3;
  auto model = model::make_shared_model(model::mlp_spec(obs_size, actions, {16}), 2);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto lane = std::make_shared<actors::predict_lane>();
  auto owner = actors::spawn_model_owner(sys, model, {64}, 9, lane);
  const int askers = 6, requests_each = 300;
  std::vector<int> illegal(askers, 0), unanswered(askers, 0), seen_all(askers, 0);
  std::vector<std::thread> threads;
  for (int a = 0; a < askers; ++a)
    threads.emplace_back([&, a] {
      caf::scoped_actor self{sys};
      actors::predict_client client = client_of(a, owner, lane);
      std::mt19937_64 rng(100 + a);
      std::vector<int> taken(actions, 0);
      for (int q = 0; q < requests_each; ++q) {
        actors::predict_request req{std::uint32_t(a), rows, std::vector<float>(rows * obs_size, 0.1f * q)};
        const bool masked = a != 0;  // asker 0 sends none: every action is its to take
        if (masked) {
          req.action_masks.resize(size_t(rows) * actions);
          for (auto& m : req.action_masks) m = std::uint8_t(rng() % 2);
          for (int r = 0; r < rows; ++r) req.action_masks[size_t(r) * actions + rng() % actions] = 1;
        }
        const auto reply = ask_owner(client, self, req);
        if (!reply) {
          ++unanswered[a];
          continue;
        }
        for (int r = 0; r < rows; ++r) {
          const int act = int(reply->actions[size_t(r)]);
          ++taken[size_t(act)];
          if (masked && !req.action_masks[size_t(r) * actions + act]) ++illegal[a];
        }
      }
      seen_all[a] = std::count_if(taken.begin(), taken.end(), [](int n) { return n > 0; });
    });
  for (auto& t : threads) t.join();
  for (int a = 0; a < askers; ++a) {
    CAPTURE(a);
    CHECK(unanswered[a] == 0);
    CHECK(illegal[a] == 0);
    CHECK(seen_all[a] == actions);  // masks take actions away per row, not for good
  }
  // A mask of the wrong length, a row without a legal action, a byte that is
  // neither 0 nor 1: each fails alone, through the lane and by message.
  caf::scoped_actor self{sys};
  for (int kind = 0; kind < 3; ++kind) {
    actors::predict_request bad{0, 1, std::vector<float>(obs_size, 0.f)};
    bad.action_masks.assign(size_t(actions), 1);
    if (kind == 0) bad.action_masks.pop_back();
    if (kind == 1) bad.action_masks.assign(size_t(actions), 0);
    if (kind == 2) bad.action_masks[2] = 7;
    CAPTURE(kind);
    actors::predict_slot slot;
    slot.request = bad;
    CHECK_FALSE(lane->ask(slot));
    CHECK(actors::code_of(slot.error) == actors::errc::malformed);
    bool got_error = false;
    self->request(owner, caf::infinite, bad)
        .receive([&](const actors::predict_reply&) {}, [&](caf::error&) { got_error = true; });
    CHECK(got_error);
  }
  self->send_exit(owner, caf::exit_reason::user_shutdown);
}

TEST_CASE("action masks: a MultiDiscrete model-owner answers one legal index per component, and refuses a component without a legal choice") {
  model::net_spec spec = model::mlp_spec(3, 6, {16});
  spec.action_heads = {2, 4};
  auto model = model::make_shared_model(spec, 4);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto lane = std::make_shared<actors::predict_lane>();
  auto owner = actors::spawn_model_owner(sys, model, {64}, 9, lane);
  caf::scoped_actor self{sys};
  actors::predict_client client = client_of(0, owner, lane);
  std::mt19937_64 rng(8);
  int illegal = 0;
  for (int q = 0; q < 200; ++q) {
    actors::predict_request req{0, 2, std::vector<float>(6, 0.05f * q)};
    req.action_masks.resize(12);
    for (auto& m : req.action_masks) m = std::uint8_t(rng() % 2);
    for (int r = 0; r < 2; ++r) {
      req.action_masks[size_t(r) * 6 + rng() % 2] = 1;      // component 0: choices 0-1
      req.action_masks[size_t(r) * 6 + 2 + rng() % 4] = 1;  // component 1: choices 2-5
    }
    const auto reply = ask_owner(client, self, req);
    REQUIRE(reply);
    REQUIRE(reply->actions.size() == 4);
    for (int r = 0; r < 2; ++r) {
      const int first = int(reply->actions[size_t(r) * 2]), second = int(reply->actions[size_t(r) * 2 + 1]);
      if (!req.action_masks[size_t(r) * 6 + first] || !req.action_masks[size_t(r) * 6 + 2 + second]) ++illegal;
    }
  }
  CHECK(illegal == 0);
  // Legal choices in the row, none in component 1: as one Discrete(6) mask it
  // would pass; here it is malformed.
  actors::predict_request bad{0, 1, std::vector<float>(3, 0.f)};
  bad.action_masks = {1, 1, 0, 0, 0, 0};
  actors::predict_slot slot;
  slot.request = bad;
  CHECK_FALSE(lane->ask(slot));
  CHECK(actors::code_of(slot.error) == actors::errc::malformed);
  self->send_exit(owner, caf::exit_reason::user_shutdown);
}

TEST_CASE("the model-owner's lane: a malformed request fails alone; when the owner stops, waiting agents fail, never hang") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  // A large max_wait keeps well-formed requests waiting in the owner's batch
  // when it is told to stop: they must fail, as must every ask after.
  run::batching_config batching;
  batching.max_batch = 64;
  batching.max_wait_us = 10'000'000;
  auto lane = std::make_shared<actors::predict_lane>();
  auto owner = actors::spawn_model_owner(sys, model, batching, 1, lane);

  actors::predict_slot bad;
  bad.request = actors::predict_request{0, 2, {1.f, 2.f, 3.f}};
  CHECK_FALSE(lane->ask(bad));
  CHECK(actors::code_of(bad.error) == actors::errc::malformed);

  const int waiting = 8;
  std::vector<int> failed(waiting, 0);
  std::vector<std::thread> threads;
  for (int a = 0; a < waiting; ++a)
    threads.emplace_back([&, a] {
      actors::predict_slot slot;
      slot.request = actors::predict_request{std::uint32_t(a), 1, {0.1f, 0.2f, 0.3f, 0.4f}};
      for (int q = 0; q < 3; ++q) failed[a] += lane->ask(slot) ? 0 : 1;
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));  // they are waiting in the batch
  caf::scoped_actor self{sys};
  self->send_exit(owner, caf::exit_reason::user_shutdown);
  for (auto& t : threads) t.join();  // hangs if an agent is left waiting
  for (int a = 0; a < waiting; ++a) CHECK(failed[a] == 3);
  actors::predict_slot late;
  late.request = actors::predict_request{0, 1, {0.1f, 0.2f, 0.3f, 0.4f}};
  CHECK_FALSE(lane->ask(late));
  CHECK(actors::code_of(late.error) == actors::errc::run_ended);
}
}

TEST_SUITE("actors") {
TEST_CASE("with max_wait_us a lone request is still answered, by the batch timer") {
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  auto owner = actors::spawn_model_owner(sys, model, {64, 2000}, 1);
  caf::scoped_actor self{sys};
  for (int i = 0; i < 20; ++i) {
    bool answered = false;
    self->request(owner, std::chrono::seconds(5), actors::predict_request{0, 1, {1, 2, 3, 4}})
        .receive([&](const actors::predict_reply& r) { answered = r.actions.size() == 1; },
                 [&](caf::error&) {});
    REQUIRE(answered);
  }
  self->request(owner, caf::infinite, actors::stats_atom_v)
      .receive(
          [&](const actors::batch_stats& s) {
            CHECK(s.forward_passes == 20);
            REQUIRE(s.size_histogram.size() == 1);  // every batch had size 1
            CHECK(s.size_histogram[0] == 20);
          },
          [&](caf::error&) { FAIL("no stats"); });
  self->send_exit(owner, caf::exit_reason::user_shutdown);
}

TEST_CASE("the batch-size histogram buckets by powers of two") {
  actors::batch_stats s;
  for (int rows : {1, 2, 3, 4, 5, 8, 9, 300}) s.add_batch(rows);
  CHECK(s.forward_passes == 8);
  CHECK(s.observations == 332);
  CHECK(s.largest_batch == 300);
  // buckets: 1 | 2 | 3-4 | 5-8 | 9-16 | ... | 257-512
  CHECK(s.size_histogram == std::vector<std::int64_t>{1, 1, 2, 2, 1, 0, 0, 0, 0, 1});
}
}
