#include "actors/agent_actor.hpp"

#include <algorithm>
#include <chrono>
#include <memory>
#include <optional>
#include <random>
#include <vector>

#include "actors/agent_thread.hpp"
#include "actors/errors.hpp"
#include "agents/collector.hpp"
#include "agents/policy_overlay.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "games/seat_vector.hpp"

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
  std::optional<agents::collector> collector;  // steps envs: episodes and rollouts
  std::mt19937_64 seeds;    // draws a fresh seed for every episode's reset
  episode_report report;    // progress since the last report
  int in_flight = 0;        // rollouts sent, not yet acknowledged
  bool waiting_for_learner = false;
  bool stopped = false;
  std::int64_t collected = 0;
  std::int64_t dropped = 0;
  std::uint64_t rollouts_sent = 0;
  // Watching: env 0 is drawn for a viewer's pending render request.
  bool can_render = false;
  bool frame_wanted = false;
  caf::typed_response_promise<env_frame> frame_promise;
  static inline const char* name = "agent";
};

// act_atom brings an agent that asks through the lane back to acting once
// the messages that arrived meanwhile are read. It is no part of the public
// protocol.
using agent_impl = agent_actor::extend<caf::reacts_to<act_atom>>;
using agent_pointer = agent_impl::stateful_pointer<agent_state>;

void request_actions(agent_pointer self);

void send_rollout(agent_pointer self, algo::rollout&& done) {
  auto& st = self->state;
  const std::int64_t samples = done.samples();
  st.report.rollout = done.sequence;
  ++st.in_flight;
  ++st.rollouts_sent;
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
                                                        ": environment " + st.config.env.id.text() +
                                                        " failed: " + e.what()));
  }
}

// Env 0 as the policy sees it now, with what the policy made of it: answers
// the pending render request. Before the step, so the frame and the action
// probabilities belong together.
void deliver_frame(agent_state& st, const predict_reply& reply) {
  agents::collector& c = *st.collector;
  const envs::space& action_space = c.spec().action;
  env_frame frame;
  frame.agent_id = st.config.id;
  c.environments().render(0, frame.image);
  frame.pixel_art = c.spec().pixel_art;
  viewer::overlay_info& info = frame.info;
  info.title = st.config.env.id.text();
  info.episode = c.episodes_finished(0) + 1;
  info.episode_return = static_cast<float>(c.episode_return(0));
  info.step = static_cast<std::int32_t>(c.episode_length(0));
  info.parameter_version = static_cast<std::int64_t>(reply.version);
  // The action env 0 is given: as the environments get it.
  const int width = action_space.flat_size();
  std::vector<float> applied(reply.actions.begin(), reply.actions.begin() + width);
  agents::clip_to_space(action_space, applied.data(), 1);
  agents::show_policy(info, action_space, reply.row_policy.data(), applied.data(),
                      c.spec().action_labels, c.action_masks());
  envs::other_seat_view other;
  if (c.environments().other_seat(0, other)) agents::show_other_seat(info, other);
  st.frame_wanted = false;
  st.frame_promise.deliver(std::move(frame));
}

void act(agent_pointer self, const predict_reply& reply) {
  auto& st = self->state;
  if (st.stopped) return;
  agents::collector& c = *st.collector;
  const envs::space& action_space = c.spec().action;
  const size_t policy_size = size_t(action_space.policy_size());
  if (st.frame_wanted && reply.row_policy.size() >= policy_size) deliver_frame(st, reply);
  std::optional<algo::rollout> done =
      c.step(reply.actions.data(), reply.logp.data(), reply.version, reply.states);
  for (const agents::finished_episode& f : c.finished()) {
    st.report.returns.push_back(static_cast<float>(f.episode_return));
    st.report.lengths.push_back(static_cast<std::int32_t>(f.length));
  }
  st.collected += c.size();
  st.report.env_steps += c.size();
  if (done) send_rollout(self, std::move(*done));
  if (st.in_flight >= st.config.max_rollouts_in_flight)
    st.waiting_for_learner = true;  // resumes when the learner acknowledges
  else
    request_actions(self);
}

// The request for the current step's actions, into `req`.
void fill_request(agent_state& st, predict_request& req) {
  const agents::collector& c = *st.collector;
  const float* obs = c.observations();
  req.agent_id = st.config.id;
  req.rows = c.size();
  req.observations.assign(obs, obs + size_t(c.size()) * c.spec().observation.flat_size());
  req.states = c.states();
  req.policy_row = st.frame_wanted ? 0 : -1;
  if (const std::uint8_t* masks = c.action_masks())
    req.action_masks.assign(masks, masks + size_t(c.size()) * c.spec().action.choice_count());
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

// The environments an agent steps: its config's, or one seat of its game
// against what `opponents` makes.
std::unique_ptr<envs::env_vector> environments_of(caf::actor_system& sys, const agent_config& config,
                                                  const opponent_source& opponents) {
  if (!opponents) return catalog::make_env_vector(config.env, config.envs);
  return catalog::make_game_side(
      config.env, config.envs, games::parse_seat(config.env.versus.seat),
      [&](const envs::env_spec& spec) { return opponents(sys, config.envs, config.env, spec); }, config.opening);
}

agent_impl::behavior_type agent(agent_pointer self, agent_config config, predict_service owner,
                                std::shared_ptr<predict_lane> lane, rollout_sink learner,
                                report_sink metrics, opponent_source opponents) {
  auto& st = self->state;
  st.config = config;
  st.owner = predict_client(std::move(owner), std::move(lane));
  st.learner = std::move(learner);
  st.metrics = std::move(metrics);
  st.seeds.seed(config.seed);
  agents::collector_config cc;
  cc.agent_id = config.id;
  cc.n_steps = config.n_steps;
  cc.state_size = config.state_size;
  st.envs = environments_of(self->system(), config, opponents);
  st.collector.emplace(*st.envs, cc, [self](int) { return self->state.seeds(); });
  st.can_render = st.collector->environments().can_render();
  st.report.agent_id = config.id;
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
        const std::int64_t partial = std::int64_t(st.collector->rollout_steps()) * st.collector->size();
        st.dropped += partial;
        st.report.rollout = st.rollouts_sent;  // the one under way
        if (st.metrics) self->send(st.metrics, std::move(st.report));
        agent_final final{st.config.id, st.collected, st.dropped, st.rollouts_sent};
        self->quit();
        return final;
      },
      [=](render_atom) -> caf::typed_response_promise<env_frame> {
        auto& st = self->state;
        // A newer request replaces an unanswered one (whose asker gave up).
        st.frame_promise = self->make_response_promise<env_frame>();
        if (!st.can_render)
          st.frame_promise.deliver(
              make_error(errc::cannot_render, st.config.env.id.text() + " cannot render itself"));
        else
          st.frame_wanted = true;
        return st.frame_promise;
      },
  };
}

}  // namespace

agent_config agent_config_for(const run::run_config& config, std::uint32_t id, std::uint64_t seed) {
  agent_config a;
  a.id = id;
  a.env = config.env;
  a.envs = config.env.envs_per_agent;
  a.n_steps = config.algo.n_steps;
  // A deterministic run's agents wait for each round to train before they act
  // on: no prediction races an update.
  a.max_rollouts_in_flight = config.run.deterministic ? 1 : config.algo.max_rollouts_in_flight;
  a.state_size = config.model.recurrent.state_size();
  a.seed = seed;
  a.batch_scheduling = config.agents.batch_scheduling;
  if (config.selfplay.enabled) a.opening = config.selfplay.random_opening;
  return a;
}

agent_actor spawn_agent(caf::actor_system& sys, const agent_config& config,
                        predict_service owner, std::shared_ptr<predict_lane> lane,
                        rollout_sink learner, report_sink metrics,
                        opponent_source opponents) {
  return caf::actor_cast<agent_actor>(sys.spawn<caf::detached>(agent, config, std::move(owner), std::move(lane),
                                                               std::move(learner), std::move(metrics),
                                                               std::move(opponents)));
}

}  // namespace troupe::actors
