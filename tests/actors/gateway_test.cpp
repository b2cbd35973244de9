// The cluster gateway checks everything that arrives before it reaches the
// model-owner, learner or metrics actor. Stand-ins for those three record
// what got through; a scoped actor plays the worker.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>

#include "actors/cluster_gateway.hpp"

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
      [=](batch_timeout_atom, std::uint64_t) {},
  };
}

learner_actor::behavior_type fake_learner(learner_actor::pointer, seen* s) {
  return {
      [=](const agents::rollout& r) {
        ++s->rollouts;
        return train_ack{r.sequence, true};
      },
      [=](drain_atom) { return learner_final{}; },
      [=](checkpoint_atom, const std::string&, const model::checkpoint_meta&) {
        return std::uint64_t{0};
      },
      [=](const replica_update&) { return std::uint64_t{0}; },
      [=](peers_atom, const std::vector<caf::strong_actor_ptr>&) {},
  };
}

metrics_actor::behavior_type fake_metrics(metrics_actor::pointer, seen* s) {
  return {
      [=](const episode_report& r) { s->reported_steps += r.env_steps; },
      [=](const agents::train_result&) {},
      [=](caf::tick_atom) {},
      [=](totals_atom) { return metrics_totals{}; },
  };
}

agents::rollout valid_rollout(std::uint32_t agent, const gateway_config& c) {
  agents::rollout r;
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
template <> struct reply_of<agents::rollout> { using type = train_ack; };

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
  c.envs_per_agent = 2;
  c.obs_size = 4;
  c.action_width = 1;
  c.n_steps = 3;
  auto gw = spawn_gateway(sys, c, {sys.spawn(fake_owner, &s)}, {sys.spawn(fake_learner, &s)},
                          sys.spawn(fake_metrics, &s));
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

  auto bad_shape = valid_rollout(reply.first_agent_id, c);
  bad_shape.rewards.pop_back();
  CHECK(refused(bad_shape));
  auto other_steps = valid_rollout(reply.first_agent_id, c);
  other_steps.n_steps = 4;
  CHECK(refused(other_steps));
  CHECK(refused(valid_rollout(reply.first_agent_id + 5, c)));
  CHECK(s.rollouts == 0);
  bool acked = false;
  worker->request(gw, timeout, valid_rollout(reply.first_agent_id, c))
      .receive([&](const train_ack& a) { acked = a.trained; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(acked);
  CHECK(s.rollouts == 1);

  cluster_final final;
  worker->request(gw, timeout, stop_atom_v)
      .receive([&](const cluster_final& f) { final = f; },
               [&](caf::error& e) { FAIL(sys.render(e)); });
  CHECK(final.workers_joined == 1);
  CHECK(final.workers_refused == 2);
  CHECK(final.messages_rejected >= 7);
  // After the stop nothing more is collected.
  CHECK(refused(valid_rollout(reply.first_agent_id, c)));
  CHECK(s.rollouts == 1);
  // Counted where it arrived: the one rollout that got through.
  CHECK(s.reported_steps == 6);
}

TEST_CASE("tokens_match: equal and non-empty only") {
  CHECK(tokens_match("abc", "abc"));
  CHECK_FALSE(tokens_match("abd", "abc"));
  CHECK_FALSE(tokens_match("ab", "abc"));
  CHECK_FALSE(tokens_match("abcd", "abc"));
  CHECK_FALSE(tokens_match("", ""));
}
}
