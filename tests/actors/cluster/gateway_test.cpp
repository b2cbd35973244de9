// The cluster gateway checks everything that arrives before it reaches the
// model-owner, learner or metrics actor. Stand-ins for those three record
// what got through; a scoped actor plays the worker.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "actors/cluster/gateway.hpp"
#include "actors/net/token.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace {

struct seen {
  std::atomic<int> predicts{0}, rollouts{0};
  std::atomic<long> reported_steps{0};
};

model_owner_actor::behavior_type fake_owner(model_owner_actor::pointer, seen* s) {
  return {
      [=](predict_request& r) -> caf::result<predict_reply> {
        ++s->predicts;
        predict_reply reply;
        reply.actions.assign(r.rows, 0.0f);
        reply.logp.assign(r.rows, 0.0f);
        reply.values.assign(r.rows, 0.0f);
        reply.version = 7;
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
  };
}

metrics_actor::behavior_type fake_metrics(metrics_actor::pointer, seen* s) {
  return {
      [=](const episode_report& r) { s->reported_steps += r.env_steps; },
      [=](const algo::train_result&) {},
      [=](totals_atom) { return metrics_totals{}; },
      [=](final_atom) { return metrics_totals{}; },
      [=](round_atom, std::uint64_t) { return true; },  // deterministic runs only
  };
}

algo::rollout valid_rollout(std::uint32_t agent, const run_shapes& c) {
  algo::rollout r;
  r.agent_id = agent;
  r.n_steps = c.n_steps;
  r.n_envs = c.envs_per_agent;
  r.obs_size = c.obs_size;
  r.action_size = c.action_width;
  const size_t steps = size_t(c.n_steps) * c.envs_per_agent;
  r.observations.assign((c.n_steps + 1) * c.envs_per_agent * c.obs_size, 0.5f);
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
  c.config_yaml = "run: {name: x}\n";
  c.shapes.envs_per_agent = 2;
  c.shapes.obs_size = 4;
  c.shapes.action_width = 1;
  c.shapes.n_steps = 3;
  auto metrics = sys.spawn(fake_metrics, &s);
  auto gw = spawn_gateway(sys, c, {sys.spawn(fake_owner, &s)}, {sys.spawn(fake_learner, &s)},
                          metrics);
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
  CHECK(reply.config_yaml == c.config_yaml);
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

  auto bad_shape = valid_rollout(reply.first_agent_id, c.shapes);
  bad_shape.rewards.pop_back();
  CHECK(refused(bad_shape));
  auto other_steps = valid_rollout(reply.first_agent_id, c.shapes);
  other_steps.n_steps = 4;
  CHECK(refused(other_steps));
  CHECK(refused(valid_rollout(reply.first_agent_id + 5, c.shapes)));
  CHECK(s.rollouts == 0);
  bool acked = false;
  worker->request(gw, timeout, valid_rollout(reply.first_agent_id, c.shapes))
      .receive([&](const train_ack& a) { acked = a.trained; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(acked);
  CHECK(s.rollouts == 1);
  // The same rollout again: a replay. One acted with a version no reply has
  // carried yet (the owner's replies carry 7): made up.
  CHECK(refused(valid_rollout(reply.first_agent_id, c.shapes)));
  auto future = valid_rollout(reply.first_agent_id, c.shapes);
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
  CHECK(refused(valid_rollout(reply.first_agent_id, c.shapes)));
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
  auto gw = spawn_gateway(sys, c, {sys.spawn(fake_owner, &s)}, {sys.spawn(fake_learner, &s)},
                          sys.spawn(fake_metrics, &s));
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

TEST_CASE("tokens_match: equal and non-empty only") {
  CHECK(tokens_match("abc", "abc"));
  CHECK_FALSE(tokens_match("abd", "abc"));
  CHECK_FALSE(tokens_match("ab", "abc"));
  CHECK_FALSE(tokens_match("abcd", "abc"));
  CHECK_FALSE(tokens_match("", ""));
}
}
