// The cluster gateway checks everything that arrives before it reaches the
// model-owner, learner or metrics actor. Stand-ins for those three record
// what got through; a scoped actor plays the worker.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "actors/cluster/gateway.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/net/token.hpp"
#include "games/opponents.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct seen {
  std::atomic<int> predicts{0}, rollouts{0};
  std::atomic<long> reported_steps{0};
  std::uint64_t version = 7;  // what the owner's replies carry
};

model_owner_actor::behavior_type fake_owner(model_owner_actor::pointer, seen* s) {
  return {
      [=](predict_request& r) -> caf::result<predict_reply> {
        ++s->predicts;
        predict_reply reply;
        reply.actions.assign(r.rows, 0.0f);
        reply.logp.assign(r.rows, 0.0f);
        reply.values.assign(r.rows, 0.0f);
        reply.version = s->version;
        return reply;
      },
      [=](stats_atom) { return batch_stats{}; },
  };
}

learner_actor::behavior_type fake_learner(learner_actor::pointer, seen* s) {
  return {
      [=](const algo::rollout& r) {
        ++s->rollouts;
        return train_ack{r.sequence, true};
      },
      [=](drain_atom) { return learner_final{}; },
      [=](checkpoint_atom, const std::string&, const model::checkpoint_meta&) {
        return std::uint64_t{0};
      },
      [=](const replica_update&) { return std::uint64_t{0}; },
      [=](peers_atom, const std::vector<caf::strong_actor_ptr>&) {},
      [=](pbt_atom, const pbt_step&) { return std::uint64_t(0); },
      [=](snapshot_atom) { return algo::learned_state{}; },
  };
}

metrics_actor::behavior_type fake_metrics(metrics_actor::pointer, seen* s) {
  return {
      [=](const episode_report& r) { s->reported_steps += r.env_steps; },
      [=](const algo::train_result&) {},
      [=](const member_hyperparams&) {},
      [=](totals_atom) { return metrics_totals{}; },
      [=](final_atom) { return metrics_totals{}; },
      [=](round_atom, std::uint64_t) { return true; },  // deterministic runs only
  };
}

algo::rollout valid_rollout(std::uint32_t agent, const run_shapes& c) {
  algo::rollout r;
  r.agent_id = agent;
  r.n_steps = c.n_steps;
  r.n_envs = c.rows_per_agent;
  r.obs_size = c.obs_size;
  r.action_size = c.action_width;
  const size_t steps = size_t(c.n_steps) * c.rows_per_agent;
  r.observations.assign((c.n_steps + 1) * c.rows_per_agent * c.obs_size, 0.5f);
  r.actions.assign(steps * c.action_width, 1.0f);
  r.rewards.assign(steps, 1.0f);
  r.terminated.assign(steps, false);
  r.truncated.assign(steps, false);
  r.behaviour_logp.assign(steps, -0.7f);
  r.behaviour_version.assign(steps, 0);
  return r;
}

// Reply types of the gateway's requests, for the one check below.
template <class Message> struct reply_of;
template <> struct reply_of<predict_request> { using type = predict_reply; };
template <> struct reply_of<join_request> { using type = join_reply; };
template <> struct reply_of<algo::rollout> { using type = train_ack; };
template <> struct reply_of<opponent_request> { using type = opponent_reply; };

// Agents of 2 environments of 4 floats, a 1-float action (of `mask_size`
// choices, when masked), 3 steps a rollout.
run_shapes two_games_of_four(int mask_size = 0) {
  run_shapes shapes;
  shapes.rows_per_agent = 2;
  shapes.obs_size = 4;
  shapes.action_width = 1;
  shapes.n_steps = 3;
  shapes.mask_size = mask_size;
  return shapes;
}

// A policy served by the stand-ins that record into `s`.
gateway_policy fake_policy(caf::actor_system& sys, seen& s, const run_shapes& shapes, std::string yaml,
                           metrics_actor metrics = {}) {
  gateway_policy p;
  p.owners = {sys.spawn(fake_owner, &s)};
  p.learners = {sys.spawn(fake_learner, &s)};
  p.metrics = metrics ? metrics : sys.spawn(fake_metrics, &s);
  p.config_yaml = std::move(yaml);
  p.shapes = shapes;
  p.opponent_shapes = shapes;
  p.opponent_shapes.game_agents = 2;
  return p;
}

template <class Message>
bool refused_by(caf::scoped_actor& worker, const cluster_gateway_actor& gw, Message message) {
  bool error = false;
  worker->request(gw, std::chrono::seconds(10), std::move(message))
      .receive([&](const typename reply_of<Message>::type&) {},
               [&](caf::error&) { error = true; });
  return error;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("gateway: only joined workers with the run's shapes get through") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor worker{sys};
  seen s;
  gateway_config c;
  c.token = "right";
  const run_shapes shapes = two_games_of_four();
  metrics_actor metrics = sys.spawn(fake_metrics, &s);
  auto gw = spawn_gateway(sys, c, {fake_policy(sys, s, shapes, "run: {name: x}\n", metrics)});
  const auto timeout = std::chrono::seconds(10);
  auto refused = [&](auto message) { return refused_by(worker, gw, std::move(message)); };
  predict_request good{0, 2, std::vector<float>(8, 0.1f)};

  CHECK(refused(good));  // not joined yet
  CHECK(refused(join_request{cluster_protocol_version, "wrong", "w", 1}));
  CHECK(refused(join_request{cluster_protocol_version, "", "w", 1}));
  CHECK(refused(join_request{cluster_protocol_version + 1, "right", "w", 1}));
  join_reply reply;
  worker->request(gw, timeout, join_request{cluster_protocol_version, "right", "w", 1})
      .receive([&](join_reply& r) { reply = r; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(reply.policy_configs == std::vector<std::string>{"run: {name: x}\n"});
  CHECK(reply.agent_policies == std::vector<std::int32_t>{0});
  CHECK(reply.policy_remote_opponents == std::vector<std::uint8_t>{0});
  opponent_request ask_other{reply.first_agent_id};
  CHECK(refused(ask_other));  // its policy plays no other seat here
  good.agent_id = reply.first_agent_id;

  auto foreign = good;
  foreign.agent_id = reply.first_agent_id + 1;
  CHECK(refused(foreign));
  auto short_obs = good;
  short_obs.observations.pop_back();
  CHECK(refused(short_obs));
  auto nan_obs = good;
  nan_obs.observations[3] = std::nanf("");
  CHECK(refused(nan_obs));
  CHECK(s.predicts == 0);
  std::uint64_t version = 0;
  worker->request(gw, timeout, good)
      .receive([&](const predict_reply& r) { version = r.version; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(version == 7);  // answered by the owner
  CHECK(s.predicts == 1);

  auto bad_shape = valid_rollout(reply.first_agent_id, shapes);
  bad_shape.rewards.pop_back();
  CHECK(refused(bad_shape));
  auto other_steps = valid_rollout(reply.first_agent_id, shapes);
  other_steps.n_steps = 4;
  CHECK(refused(other_steps));
  CHECK(refused(valid_rollout(reply.first_agent_id + 5, shapes)));
  CHECK(s.rollouts == 0);
  bool acked = false;
  worker->request(gw, timeout, valid_rollout(reply.first_agent_id, shapes))
      .receive([&](const train_ack& a) { acked = a.trained; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(acked);
  CHECK(s.rollouts == 1);
  // The same rollout again: a replay. One acted with a version no reply has
  // carried yet (the owner's replies carry 7): made up.
  CHECK(refused(valid_rollout(reply.first_agent_id, shapes)));
  auto future = valid_rollout(reply.first_agent_id, shapes);
  future.sequence = 1;
  future.behaviour_version.back() = 8;
  CHECK(refused(future));
  auto bad_row = good;
  bad_row.policy_row = 2;
  CHECK(refused(bad_row));
  CHECK(s.rollouts == 1);
  CHECK(s.predicts == 1);

  cluster_final final;
  worker->request(gw, timeout, stop_atom_v)
      .receive([&](const cluster_final& f) { final = f; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(final.workers_joined == 1);
  CHECK(final.workers_refused == 2);
  CHECK(final.messages_rejected >= 10);
  CHECK(final.predicts_relayed == 1);
  CHECK(final.rollouts_relayed == 1);
  // After the stop nothing more is collected.
  CHECK(refused(valid_rollout(reply.first_agent_id, shapes)));
  CHECK(s.rollouts == 1);
  // Counted where it arrived: the one rollout that got through. The gateway
  // sent that report before the rollout was acknowledged, so it is ahead of
  // this request in the metrics actor's mailbox.
  worker->request(metrics, timeout, totals_atom_v)
      .receive([](const metrics_totals&) {}, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(s.reported_steps == 6);
}

TEST_CASE("gateway: a worker names only its own agents to the frame hub; leaving empties them") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  // The hub records what it was told: slot -> named (true) or emptied.
  auto told = std::make_shared<std::vector<std::pair<std::int32_t, bool>>>();
  auto mutex = std::make_shared<std::mutex>();
  frame_hub_actor hub = sys.spawn([=](frame_hub_actor::pointer) -> frame_hub_actor::behavior_type {
    return {
        [](next_frame_atom, std::int32_t) { return env_frame{}; },
        [=](agent_atom, std::int32_t slot, agent_actor a) {
          std::lock_guard<std::mutex> lock(*mutex);
          told->emplace_back(slot, bool(a));
        },
        [](metrics_atom, metrics_actor) {},
    };
  });
  auto snapshot = [&] {
    std::lock_guard<std::mutex> lock(*mutex);
    return *told;
  };
  seen s;
  gateway_config c;
  c.token = "right";
  c.frame_hub = hub;
  c.first_view_slot = 3;  // the learner's own agents are 0..2
  auto gw = spawn_gateway(sys, c, {fake_policy(sys, s, run_shapes{}, "")});
  caf::scoped_actor stranger{sys};
  auto some_agent = sys.spawn(fake_metrics, &s);  // any actor will do as a handle
  stranger->send(gw, agent_atom_v, std::uint32_t{1u << 20}, caf::actor_cast<agent_actor>(some_agent));
  {
    caf::scoped_actor worker{sys};
    join_reply reply;
    worker->request(gw, std::chrono::seconds(10), join_request{cluster_protocol_version, "right", "w", 2})
        .receive([&](join_reply& r) { reply = r; }, [&](caf::error& e) { FAIL(sys.render(e)); });
    const auto handle = caf::actor_cast<agent_actor>(some_agent);
    worker->send(gw, agent_atom_v, reply.first_agent_id + 1, handle);
    worker->send(gw, agent_atom_v, reply.first_agent_id + 2, handle);  // not its agent
    worker->send(gw, agent_atom_v, reply.first_agent_id, agent_actor{});  // no actor
    worker->send(gw, agent_atom_v, reply.first_agent_id, handle);
    worker->send(gw, agent_atom_v, reply.first_agent_id + 1, handle);  // restarted: same slot
    for (int i = 0; i < 200 && snapshot().size() < 3; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const std::vector<std::pair<std::int32_t, bool>> named{{3, true}, {4, true}, {3, true}};
    CHECK(snapshot() == named);  // the stranger's and the bad claims never reached it
  }  // the worker goes away
  for (int i = 0; i < 200 && snapshot().size() < 5; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto after = snapshot();
  REQUIRE(after.size() == 5);
  std::sort(after.begin() + 3, after.end());
  CHECK(after[3] == std::make_pair(std::int32_t{3}, false));
  CHECK(after[4] == std::make_pair(std::int32_t{4}, false));
  caf::scoped_actor self{sys};
  cluster_final final;
  self->request(gw, std::chrono::seconds(10), stop_atom_v)
      .receive([&](const cluster_final& f) { final = f; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(final.messages_rejected == 3);
  for (auto& actor : {caf::actor_cast<caf::actor>(hub), caf::actor_cast<caf::actor>(gw),
                      caf::actor_cast<caf::actor>(some_agent)})
    caf::anon_send_exit(actor, caf::exit_reason::user_shutdown);
}

TEST_CASE("gateway: workers' agents are dealt to the policies in turn, each reaching its own policy's actors and opponent host") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor worker{sys};
  const run_shapes shapes = two_games_of_four(3);
  seen first, second;
  second.version = 11;
  // Policy 0's games have their other seat played here: each agent's
  // players log what they were told, and move game g's column g + 10 * k
  // (k: how many players were made before them).
  auto log = std::make_shared<std::vector<std::string>>();
  auto log_mutex = std::make_shared<std::mutex>();
  auto made = std::make_shared<std::atomic<int>>(0);
  struct logging_players final : games::opponents {
    std::shared_ptr<std::vector<std::string>> log;
    std::shared_ptr<std::mutex> mutex;
    int k = 0;
    void note(const std::string& line) {
      std::lock_guard<std::mutex> lock(*mutex);
      log->push_back(std::to_string(k) + " " + line);
    }
    void start_episode(int game, std::uint64_t seed) override {
      note("start " + std::to_string(game) + " " + std::to_string(seed));
    }
    void end_episode(int game, double learner_return) override {
      note("end " + std::to_string(game) + " " + std::to_string(int(learner_return)));
    }
    void act(const int* games, const int*, int rows, const float* observations, const std::uint8_t*, float* actions) override {
      for (int r = 0; r < rows; ++r) {
        note("move " + std::to_string(games[r]) + " " + std::to_string(int(observations[r * 4])));
        actions[r] = float(games[r] + 10 * k);
      }
    }
  };
  gateway_policy zero = fake_policy(sys, first, shapes, "zero");
  zero.opponents = [=](caf::actor_system&) {
    auto p = std::make_unique<logging_players>();
    p->log = log, p->mutex = log_mutex, p->k = (*made)++;
    return std::unique_ptr<games::opponents>(std::move(p));
  };
  gateway_config c;
  c.token = "right";
  gateway_policy one = fake_policy(sys, second, shapes, "one");
  auto gw = spawn_gateway(sys, c, {zero, one});
  auto refused = [&](auto message) { return refused_by(worker, gw, std::move(message)); };
  const auto timeout = std::chrono::seconds(10);
  join_reply reply;
  worker->request(gw, timeout, join_request{cluster_protocol_version, "right", "w", 3})
      .receive([&](join_reply& r) { reply = r; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(reply.agent_policies == std::vector<std::int32_t>{0, 1, 0});
  CHECK(reply.policy_configs == std::vector<std::string>{"zero", "one"});
  CHECK(reply.policy_remote_opponents == std::vector<std::uint8_t>{1, 0});
  const std::uint32_t a0 = reply.first_agent_id, a1 = a0 + 1, a2 = a0 + 2;

  // Predicts and rollouts reach the agent's own policy; a rollout may claim
  // only versions its own policy's replies carried.
  predict_request ask{a1, 2, std::vector<float>(8, 0.1f)};
  std::uint64_t version = 0;
  worker->request(gw, timeout, ask)
      .receive([&](const predict_reply& r) { version = r.version; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(version == 11);
  CHECK(second.predicts == 1);
  CHECK(first.predicts == 0);
  auto acted_at_11 = [&](std::uint32_t agent) {
    auto r = valid_rollout(agent, shapes);
    r.mask_size = 3;
    r.action_masks.assign(size_t(shapes.n_steps * shapes.rows_per_agent * 3), 1);
    r.behaviour_version.assign(r.behaviour_version.size(), 11);
    return r;
  };
  CHECK(refused(acted_at_11(a0)));  // policy 0 has carried no version 11
  bool acked = false;
  worker->request(gw, timeout, acted_at_11(a1))
      .receive([&](const train_ack& a) { acked = a.trained; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(acked);
  CHECK(second.rollouts == 1);
  CHECK(first.rollouts == 0);
  // The steps' report went ahead of the rollout: ahead of this request too.
  worker->request(one.metrics, timeout, totals_atom_v)
      .receive([](const metrics_totals&) {}, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(second.reported_steps == 6);
  CHECK(first.reported_steps == 0);

  // The other seat: events in order, then the moves, by a host per agent.
  opponent_request other{a0};
  other.event_games = {0, 1};
  other.event_ended = {0, 0};
  other.event_seeds = {5, 6};
  other.event_returns = {0, 0};
  other.games = {1, 0};
  other.agents = {1, 1};
  other.observations = {1, 0, 0, 0, 2, 0, 0, 0};
  other.action_masks = {1, 1, 0, 0, 1, 1};
  std::vector<float> moved;
  worker->request(gw, timeout, other)
      .receive([&](const opponent_reply& r) { moved = r.actions; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(moved == std::vector<float>{1, 0});
  opponent_request ended{a0};
  ended.event_games = {1};
  ended.event_ended = {1};
  ended.event_seeds = {0};
  ended.event_returns = {-1};
  worker->request(gw, timeout, ended)
      .receive([&](const opponent_reply& r) { CHECK(r.actions.empty()); }, [&](caf::error& e) { FAIL(sys.render(e)); });
  opponent_request third{a2};
  third.games = {1};
  third.agents = {0};
  third.observations = {3, 0, 0, 0};
  worker->request(gw, timeout, third)
      .receive([&](const opponent_reply& r) { moved = r.actions; }, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(moved == std::vector<float>{11});  // agent a2's own players, the second made
  {
    std::lock_guard<std::mutex> lock(*log_mutex);
    const std::vector<std::string> expected{"0 start 0 5", "0 start 1 6", "0 move 1 1", "0 move 0 2", "0 end 1 -1",
                                            "1 move 1 3"};
    CHECK(*log == expected);
  }
  CHECK(refused(opponent_request{a1}));  // policy 1 plays no other seat here
  auto off_board = other;
  off_board.games = {2, 0};
  CHECK(refused(off_board));
  // Each move names the agent it is for, one of the game's.
  auto no_agents = other;
  no_agents.agents.clear();
  CHECK(refused(no_agents));
  auto no_such_agent = other;
  no_such_agent.agents = {1, 2};
  CHECK(refused(no_such_agent));
  auto uneven = other;
  uneven.event_seeds.pop_back();
  CHECK(refused(uneven));
  auto no_legal_move = other;
  no_legal_move.action_masks = {0, 0, 0, 1, 1, 1};
  CHECK(refused(no_legal_move));
  auto foreign = other;
  foreign.agent_id = a0 + 7;
  CHECK(refused(foreign));
  CHECK(made->load() == 2);

  worker->request(gw, timeout, stop_atom_v)
      .receive([](const cluster_final&) {}, [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(refused(third));  // the run has ended
  CHECK(made->load() == 2);
  caf::anon_send_exit(gw, caf::exit_reason::user_shutdown);
}

TEST_CASE("tokens_match: equal and non-empty only") {
  CHECK(tokens_match("abc", "abc"));
  CHECK_FALSE(tokens_match("abd", "abc"));
  CHECK_FALSE(tokens_match("ab", "abc"));
  CHECK_FALSE(tokens_match("abcd", "abc"));
  CHECK_FALSE(tokens_match("", ""));
}
}
