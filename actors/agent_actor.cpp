#include "actors/agent_actor.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <random>
#include <vector>

#include "actors/agent_thread.hpp"
#include "actors/errors.hpp"
#include "actors/frames/policy_overlay.hpp"
#include "envs/registry.hpp"

namespace troupe::actors {

namespace {

struct agent_state {
  agent_config config;
  predict_client owner;       // asks through the owner's lane, or by messages
  bool asking = false;        // request_actions() is looping
  bool act_queued = false;    // an act_atom waits in the mailbox
  rollout_sink learner;
  report_sink metrics;
  std::unique_ptr<envs::env_vector> envs;
  std::mt19937_64 seeds;  // draws a fresh seed for every episode's reset
  std::vector<std::uint64_t> next_seeds;  // env e's next reset, should its episode end
  int obs_size = 0;
  int action_size = 1;            // floats per action
  std::vector<double> low, high;  // Box bounds: actions are clipped to them
  std::vector<float> clipped;     // the actions the environments get
  std::vector<envs::step_result> results;  // of the last step
  std::vector<float> final_obs;            // rows of envs whose episode ended
  // A recurrent policy's state of each environment, before its current
  // observation: it comes back with every reply and is zeroed when the
  // environment's episode ends. Empty for a feed-forward policy.
  int state_size = 0;
  std::vector<float> states;
  algo::rollout current;  // the rollout being filled
  int step = 0;             // steps recorded in `current`
  std::vector<float> episode_return;
  std::vector<std::int32_t> episode_length;
  episode_report report;    // progress since the last report
  int in_flight = 0;        // rollouts sent, not yet acknowledged
  bool waiting_for_learner = false;
  bool stopped = false;
  std::int64_t collected = 0;
  std::int64_t dropped = 0;
  std::uint64_t next_sequence = 0;
  // Watching: env 0 is drawn for a viewer's pending render request.
  bool can_render = false;
  std::vector<std::string> action_labels;
  bool continuous = false;
  int policy_size = 0;  // the policy head's outputs: logits, or a Gaussian's means
  bool frame_wanted = false;
  caf::typed_response_promise<env_frame> frame_promise;
  std::int64_t env0_episodes = 0;  // finished by env 0
  static inline const char* name = "agent";
};

// act_atom brings an agent that asks through the lane back to acting once
// the messages that arrived meanwhile are read. It is no part of the public
// protocol.
using agent_impl = agent_actor::extend<caf::reacts_to<act_atom>>;
using agent_pointer = agent_impl::stateful_pointer<agent_state>;

float* obs_row(agent_state& st, int t) {
  return st.current.observations.data() + size_t(t) * st.config.envs * st.obs_size;
}

void start_rollout(agent_state& st) {
  auto& r = st.current;
  const int k = st.config.envs, n = st.config.n_steps;
  r.agent_id = st.config.id;
  r.sequence = st.next_sequence++;
  r.n_steps = n;
  r.n_envs = k;
  r.obs_size = st.obs_size;
  r.action_size = st.action_size;
  r.state_size = st.state_size;
  r.initial_states = st.states;  // where training unrolls the core from
  r.observations.resize(size_t(n + 1) * k * st.obs_size);
  r.actions.clear();
  r.rewards.clear();
  r.terminated.clear();
  r.truncated.clear();
  r.behaviour_logp.clear();
  r.behaviour_version.clear();
  r.truncation_observations.clear();
  st.step = 0;
}

void request_actions(agent_pointer self);

void send_rollout(agent_pointer self) {
  auto& st = self->state;
  algo::rollout done = std::move(st.current);
  st.current = algo::rollout{};
  start_rollout(st);
  // The new rollout starts where the old one ended.
  const size_t row = size_t(st.config.envs) * st.obs_size;
  std::copy(done.observations.end() - row, done.observations.end(), obs_row(st, 0));
  const std::int64_t samples = done.samples();
  ++st.in_flight;
  self->request(st.learner, caf::infinite, std::move(done))
      .then(
          [=](const train_ack&) {
            auto& st = self->state;
            --st.in_flight;
            if (st.waiting_for_learner && !st.stopped) {
              st.waiting_for_learner = false;
              request_actions(self);
            }
          },
          [=](caf::error&) {
            // The learner is gone: this rollout will never be trained.
            self->state.dropped += samples;
            --self->state.in_flight;
          });
  if (st.metrics) self->send(st.metrics, std::move(st.report));
  st.report = episode_report{};
  st.report.agent_id = st.config.id;
}

void act(agent_pointer self, const predict_reply& reply);

// An environment that throws ends this agent with an error that says why; the
// coordinator, which monitors agents, replaces it with a fresh one.
void on_actions(agent_pointer self, const predict_reply& reply) {
  try {
    act(self, reply);
  } catch (const std::exception& e) {
    auto& st = self->state;
    st.stopped = true;
    self->quit(make_error(errc::environment_failed, "agent " + std::to_string(st.config.id) +
                                                        ": environment " + st.config.env.id +
                                                        " failed: " + e.what()));
  }
}

// Env 0 as the policy sees it now, with what the policy made of it: answers
// the pending render request. Before the step, so the frame and the action
// probabilities belong together.
void deliver_frame(agent_state& st, const predict_reply& reply) {
  env_frame frame;
  frame.agent_id = st.config.id;
  st.envs->render(0, frame.image);
  frame.pixel_art = st.envs->pixel_art();
  viewer::overlay_info& info = frame.info;
  info.title = st.config.env.id;
  info.episode = st.env0_episodes + 1;
  info.episode_return = st.episode_return[0];
  info.step = st.episode_length[0];
  info.parameter_version = static_cast<std::int64_t>(reply.version);
  // The action env 0 is given: clipped to a Box's bounds, as in act().
  std::vector<float> applied(reply.actions.begin(), reply.actions.begin() + st.action_size);
  for (size_t j = 0; j < st.low.size(); ++j)
    applied[j] = static_cast<float>(std::clamp<double>(applied[j], st.low[j], st.high[j]));
  show_policy(info, reply.row_policy.data(), st.policy_size, st.continuous, applied.data(),
              st.action_labels);
  st.frame_wanted = false;
  st.frame_promise.deliver(std::move(frame));
}

void act(agent_pointer self, const predict_reply& reply) {
  auto& st = self->state;
  if (st.stopped) return;
  if (st.frame_wanted && reply.row_policy.size() >= size_t(st.policy_size)) deliver_frame(st, reply);
  const int k = st.config.envs;
  auto& r = st.current;
  float* next = obs_row(st, st.step + 1);
  const int width = st.action_size;
  // The rollout keeps the sampled actions (their log-probabilities are what
  // trains); the environments get them clipped to the action bounds.
  const float* applied = reply.actions.data();
  if (!st.low.empty()) {
    for (int e = 0; e < k; ++e)
      for (int j = 0; j < width; ++j)
        st.clipped[size_t(e) * width + j] = static_cast<float>(
            std::clamp<double>(reply.actions[size_t(e) * width + j], st.low[j], st.high[j]));
    applied = st.clipped.data();
  }
  // One step of every environment; those whose episode ends start the next
  // (row e of `next` is then its first observation).
  st.envs->step(applied, st.next_seeds.data(), next, st.results.data(), st.final_obs.data());
  st.states = reply.states;
  for (int e = 0; e < k; ++e) {
    const float* action = &reply.actions[size_t(e) * width];
    const envs::step_result& res = st.results[size_t(e)];
    r.actions.insert(r.actions.end(), action, action + width);
    r.rewards.push_back(static_cast<float>(res.reward));
    r.terminated.push_back(res.terminated);
    r.truncated.push_back(res.truncated);
    r.behaviour_logp.push_back(reply.logp[e]);
    r.behaviour_version.push_back(reply.version);
    st.episode_return[e] += static_cast<float>(res.reward);
    ++st.episode_length[e];
    if (res.terminated || res.truncated) {
      if (e == 0) ++st.env0_episodes;
      if (res.truncated) {
        const float* last = &st.final_obs[size_t(e) * st.obs_size];
        r.truncation_observations.insert(r.truncation_observations.end(), last,
                                         last + st.obs_size);
      }
      st.report.returns.push_back(st.episode_return[e]);
      st.report.lengths.push_back(st.episode_length[e]);
      st.episode_return[e] = 0;
      st.episode_length[e] = 0;
      st.next_seeds[size_t(e)] = st.seeds();
      std::fill_n(st.states.begin() + size_t(e) * st.state_size, st.state_size, 0.f);
    }
  }
  ++st.step;
  st.collected += k;
  st.report.env_steps += k;
  if (st.step == st.config.n_steps) send_rollout(self);
  if (st.in_flight >= st.config.max_rollouts_in_flight)
    st.waiting_for_learner = true;  // resumes when the learner acknowledges
  else
    request_actions(self);
}

// The request for the current step's actions, into `req`.
void fill_request(agent_state& st, predict_request& req) {
  const float* obs = obs_row(st, st.step);
  req.agent_id = st.config.id;
  req.rows = st.config.envs;
  req.observations.assign(obs, obs + size_t(st.config.envs) * st.obs_size);
  req.states = st.states;
  req.policy_row = st.frame_wanted ? 0 : -1;
}

void count_predict(agent_state& st, std::chrono::steady_clock::time_point sent) {
  st.report.predict_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  ++st.report.predicts;
}

// Asks for the current step's actions and acts on them, step after step,
// until the agent must wait (for the learner, or a stop). Through the
// owner's lane the answers come on this thread, so it loops here, taking at
// least one step a pass, and leaves the loop when mail waits (a rollout's
// acknowledgement, a stop, a render request), with an act_atom queued
// behind it to come back. By message each answer arrives as a message, and
// act() asks again.
void request_actions(agent_pointer self) {
  auto& st = self->state;
  if (st.asking || st.act_queued) return;  // the loop below goes on, or act_atom will
  st.asking = true;
  for (bool answered_here = true; answered_here && !st.stopped && !st.waiting_for_learner;) {
    fill_request(st, st.owner.request());
    const auto sent = std::chrono::steady_clock::now();
    answered_here = st.owner.ask(
        self,
        [=](const predict_reply& reply) {
          count_predict(self->state, sent);
          on_actions(self, reply);  // its own request_actions() returns at once
        },
        [=](const caf::error& err) {
          if (self->state.stopped) return;
          self->state.stopped = true;
          self->quit(err);  // no model-owner: nothing left to do
        });
    if (answered_here && !st.stopped && !st.waiting_for_learner && !self->mailbox().empty()) {
      st.act_queued = true;
      self->send(self, act_atom_v);
      break;
    }
  }
  st.asking = false;
}

agent_impl::behavior_type agent(agent_pointer self, agent_config config, predict_service owner,
                                std::shared_ptr<predict_lane> lane, rollout_sink learner,
                                report_sink metrics) {
  auto& st = self->state;
  st.config = config;
  st.owner = predict_client(std::move(owner), std::move(lane));
  st.learner = std::move(learner);
  st.metrics = std::move(metrics);
  st.seeds.seed(config.seed);
  st.envs = envs::make_env_vector(config.env, config.envs);
  const envs::env_spec& spec = st.envs->spec();
  st.obs_size = spec.observation.flat_size();
  st.action_size = spec.action.flat_size();
  st.can_render = st.envs->can_render();
  st.action_labels = st.envs->action_labels();
  st.continuous = spec.action.type == envs::space::kind::box;
  st.policy_size = st.continuous ? spec.action.flat_size() : spec.action.n;
  if (spec.action.type == envs::space::kind::box) {
    st.low = spec.action.low;
    st.high = spec.action.high;
    st.clipped.resize(size_t(config.envs) * st.action_size);
  }
  st.results.resize(size_t(config.envs));
  st.state_size = config.state_size;
  st.states.assign(size_t(config.envs) * config.state_size, 0.f);
  st.final_obs.resize(size_t(config.envs) * st.obs_size);
  st.episode_return.assign(config.envs, 0.0f);
  st.episode_length.assign(config.envs, 0);
  st.report.agent_id = config.id;
  start_rollout(st);
  std::vector<std::uint64_t> first(size_t(config.envs));
  for (auto& s : first) s = st.seeds();
  st.envs->reset(first.data(), obs_row(st, 0));
  st.next_seeds.resize(size_t(config.envs));
  for (auto& s : st.next_seeds) s = st.seeds();
  return {
      [=](start_atom) {
        // This handler runs on the agent's own thread (it is detached).
        if (self->state.config.batch_scheduling) schedule_this_thread_as_batch();
        request_actions(self);
      },
      [=](act_atom) {
        self->state.act_queued = false;
        request_actions(self);
      },
      [=](stop_atom) {
        auto& st = self->state;
        st.stopped = true;
        // Steps of the unfinished rollout are never sent: count them dropped.
        const std::int64_t partial = std::int64_t(st.step) * st.config.envs;
        st.dropped += partial;
        if (st.metrics) self->send(st.metrics, std::move(st.report));
        agent_final final{st.config.id, st.collected, st.dropped, st.next_sequence - 1};
        self->quit();
        return final;
      },
      [=](render_atom) -> caf::typed_response_promise<env_frame> {
        auto& st = self->state;
        // A newer request replaces an unanswered one (whose asker gave up).
        st.frame_promise = self->make_response_promise<env_frame>();
        if (!st.can_render)
          st.frame_promise.deliver(
              make_error(errc::cannot_render, st.config.env.id + " cannot render itself"));
        else
          st.frame_wanted = true;
        return st.frame_promise;
      },
  };
}

}  // namespace

agent_config agent_config_for(const run_config& config, std::uint32_t id, std::uint64_t seed) {
  agent_config a;
  a.id = id;
  a.env = config.env;
  a.envs = config.env.envs_per_agent;
  a.n_steps = config.algo.n_steps;
  a.max_rollouts_in_flight = config.algo.max_rollouts_in_flight;
  a.state_size = config.model.recurrent.state_size();
  a.seed = seed;
  a.batch_scheduling = config.agents.batch_scheduling;
  return a;
}

agent_actor spawn_agent(caf::actor_system& sys, const agent_config& config,
                        predict_service owner, std::shared_ptr<predict_lane> lane,
                        rollout_sink learner, report_sink metrics) {
  return caf::actor_cast<agent_actor>(sys.spawn<caf::detached>(
      agent, config, std::move(owner), std::move(lane), std::move(learner), std::move(metrics)));
}

}  // namespace troupe::actors
