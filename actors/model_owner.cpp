#include "actors/model_owner.hpp"

#include <algorithm>
#include <chrono>
#include <thread>
#include <random>
#include <unordered_map>

#include "actors/errors.hpp"
#include "actors/net/network_facing.hpp"
#include "actors/reply_courier.hpp"
#include "algo/act_from_policy.hpp"
#include "algo/action_mask.hpp"
#include "agents/random_streams.hpp"

namespace troupe::actors {

namespace {

// A request in the batch being collected, and where its answer goes.
struct pending_request {
  reply_target target;
  int rows;
  int policy_row;  // its row a viewer watches, or -1
  long mask_at;    // where its action masks start in the batch's masks; -1: it gave none
  std::uint32_t agent_id;
};

struct model_owner_state {
  std::shared_ptr<model::shared_model> model;
  run::batching_config config;
  std::shared_ptr<predict_lane> lane;  // null: messages only
  std::uint64_t seed = 0;
  std::mt19937_64 rng;
  // Deterministic: each request is a forward pass of its own (a row's
  // numbers never depend on its company) and each agent's actions come from
  // its own stream, so neither depends on the order requests arrive in.
  bool deterministic = false;
  std::unordered_map<std::uint32_t, std::mt19937_64> agent_rngs;
  model::net_spec net;
  int state_size = 0;  // recurrent state floats per row (0: feed-forward)
  std::vector<float> batch;   // the queued requests' observations, back to back
  std::vector<float> states;  // and their rows' recurrent states, in the same order
  // and the action masks of the requests that gave some, back to back
  std::vector<std::uint8_t> masks;
  std::vector<pending_request> pending;
  int pending_rows = 0;
  std::vector<predict_slot*> arrived;  // taken from the lane, not yet queued
  model::prediction out;
  model::input_staging_ptr staging;  // on a GPU: this owner's way onto it
  batch_stats stats;
  std::uint64_t batch_number = 0;  // of the batch being collected
  bool timer_armed = false;
  std::vector<reply_target> replies;  // of the batch being answered
  std::unique_ptr<reply_courier> courier;
  static inline const char* name = "model_owner";

  // However the owner ends, no agent waits on it: the lane's slots and
  // those taken into the batch fail (their messages' promises break by
  // themselves).
  ~model_owner_state() {
    courier.reset();  // first, it sends what it holds
    if (!lane) return;
    const caf::error gone = make_error(errc::run_ended, "the model-owner has stopped");
    lane->close(gone);
    for (auto& p : pending)
      if (p.target.slot) p.target.fail(gone);
  }
};

// batch_timeout_atom is the owner's own timer (with the batch's number): it
// flushes a batch that waited batching.max_wait_us for company. lane_atom
// says that requests wait in the lane. Neither is part of the public protocol.
using model_owner_impl =
    model_owner_actor::extend<caf::reacts_to<batch_timeout_atom, std::uint64_t>,
                              caf::reacts_to<lane_atom>>;
using owner_pointer = model_owner_impl::stateful_pointer<model_owner_state>;

bool well_formed(const model_owner_state& st, const predict_request& req) {
  if (!(req.rows > 0 && req.observations.size() == size_t(req.rows) * size_t(st.net.obs_size) &&
        req.states.size() == size_t(req.rows) * size_t(st.state_size) && req.policy_row >= -1 &&
        req.policy_row < req.rows))
    return false;
  if (req.action_masks.empty()) return true;
  return !st.net.continuous &&
         req.action_masks.size() == size_t(req.rows) * size_t(st.net.logit_count()) &&
         algo::mask_problem(req.action_masks.data(), req.rows, st.net.heads()).empty();
}

const char* const malformed_text =
    "predict request with malformed observations, states, policy_row or action masks";

// The stream a request's actions are drawn from.
std::mt19937_64& rng_for(model_owner_state& st, std::uint32_t agent_id) {
  if (!st.deterministic) return st.rng;
  auto it = st.agent_rngs.find(agent_id);
  if (it == st.agent_rngs.end())
    it = st.agent_rngs.emplace(agent_id, std::mt19937_64(agents::stream_seed(st.seed, agent_id, 0))).first;
  return it->second;
}

// One forward pass for every queued request; each gets its own rows back.
void flush(model_owner_state& st) {
  if (st.pending.empty()) return;
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  model::predict(*st.model, st.batch.data(), st.state_size > 0 ? st.states.data() : nullptr,
                 st.pending_rows, st.out, st.staging.get());
  const auto t1 = clock::now();
  st.stats.forward_seconds += std::chrono::duration<double>(t1 - t0).count();
  st.stats.add_batch(st.pending_rows);
  ++st.batch_number;
  st.timer_armed = false;
  int row = 0;
  for (auto& p : st.pending) {
    predict_reply& reply = p.target.reply();
    reply.version = st.out.version;
    const int width = algo::action_width(st.net);
    reply.actions.resize(size_t(p.rows) * width);
    reply.logp.resize(p.rows);
    reply.values.assign(st.out.values.begin() + row, st.out.values.begin() + row + p.rows);
    if (st.state_size > 0)  // each row's own next state: rows never mix
      reply.states.assign(st.out.states.begin() + size_t(row) * st.state_size,
                          st.out.states.begin() + size_t(row + p.rows) * st.state_size);
    else
      reply.states.clear();
    std::mt19937_64& rng = rng_for(st, p.agent_id);
    for (int i = 0; i < p.rows; ++i, ++row) {
      const float* policy = &st.out.policy[size_t(row) * st.net.action_size];
      const std::uint8_t* legal =
          p.mask_at < 0 ? nullptr : &st.masks[size_t(p.mask_at) + size_t(i) * st.net.logit_count()];
      reply.logp[i] = algo::act_from_policy(st.net, policy, st.out.log_std.data(), false, rng,
                                            &reply.actions[size_t(i) * width], legal);
    }
    reply.row_policy.clear();
    if (p.policy_row >= 0) {
      const auto first = st.out.policy.begin() + (row - p.rows + p.policy_row) * st.net.action_size;
      reply.row_policy.assign(first, first + st.net.action_size);
      reply.row_policy.insert(reply.row_policy.end(), st.out.log_std.begin(), st.out.log_std.end());
    }
    st.replies.push_back(std::move(p.target));
  }
  st.courier->send(std::move(st.replies));
  st.pending.clear();
  st.batch.clear();
  st.states.clear();
  st.masks.clear();
  st.pending_rows = 0;
  st.stats.reply_seconds += std::chrono::duration<double>(clock::now() - t1).count();
}

// Queues a well-formed request's rows, to be answered to `target`; a full
// batch goes at once.
void queue(model_owner_state& st, const predict_request& req, reply_target target) {
  ++st.stats.requests;
  st.batch.insert(st.batch.end(), req.observations.begin(), req.observations.end());
  st.states.insert(st.states.end(), req.states.begin(), req.states.end());
  const long mask_at = req.action_masks.empty() ? -1 : long(st.masks.size());
  st.masks.insert(st.masks.end(), req.action_masks.begin(), req.action_masks.end());
  st.pending.push_back({std::move(target), req.rows, req.policy_row, mask_at, req.agent_id});
  st.pending_rows += req.rows;
  if (st.pending_rows >= st.config.max_batch || st.deterministic) flush(st);
}

// The slots in `arrived` into the batch.
void queue_arrived(model_owner_state& st) {
  for (predict_slot* slot : st.arrived) {
    const predict_request& req = slot->request;
    if (!well_formed(st, req)) {
      slot->fail(make_error(errc::malformed, malformed_text));
      continue;
    }
    queue(st, req, reply_target::to_slot(slot));
  }
  st.arrived.clear();
}

// After each message: flush when no further request is waiting, so a lone
// agent is never held back and concurrent agents share a pass. Requests
// waiting in the lane join before the pass.
void flush_when_idle(owner_pointer self) {
  auto& st = self->state;
  if (!self->mailbox().empty()) return;
  if (st.lane) {
    st.lane->take(st.arrived);
    queue_arrived(st);
  }
  if (st.pending.empty()) return;
  if (st.config.max_wait_us == 0) {
    flush(st);
  } else if (!st.timer_armed) {
    st.timer_armed = true;
    self->delayed_send(self, std::chrono::microseconds(st.config.max_wait_us),
                       batch_timeout_atom_v, st.batch_number);
  }
}

model_owner_impl::behavior_type model_owner(owner_pointer self,
                                            std::shared_ptr<model::shared_model> model,
                                            run::batching_config config, std::uint64_t seed,
                                            std::shared_ptr<predict_lane> lane, bool deterministic) {
  auto& st = self->state;
  st.seed = seed;
  st.deterministic = deterministic;
  st.model = std::move(model);
  st.config = config;
  st.lane = std::move(lane);
  st.rng.seed(seed);
  st.net = model::spec_of(*st.model);
  st.state_size = st.net.state_size();
  st.staging = model::make_input_staging(*st.model);
  st.courier = std::make_unique<reply_courier>(config.reply_threads_here(), self->address());
  return {
      [=](predict_request& req) -> caf::typed_response_promise<predict_reply> {
        auto& st = self->state;
        // Before the promise, which takes the sender out of the message.
        const bool local = sender_in_this_process(self->current_sender());
        auto promise = self->make_response_promise<predict_reply>();
        if (!local) {
          ++st.stats.foreign_refused;
          promise.deliver(make_error(errc::not_local, "predict request from outside this process"));
          return promise;
        }
        if (!well_formed(st, req)) {
          promise.deliver(make_error(errc::malformed, malformed_text));
          return promise;
        }
        queue(st, req, reply_target::to_promise(promise));
        flush_when_idle(self);
        return promise;
      },
      [=](lane_atom) {
        auto& st = self->state;
        if (!st.lane) return;
        st.lane->take_announced(st.arrived);
        queue_arrived(st);
        flush_when_idle(self);
      },
      [=](batch_timeout_atom, std::uint64_t number) {
        if (number == self->state.batch_number) flush(self->state);  // else: flushed already
      },
      [=](stats_atom) -> caf::result<batch_stats> {
        flush(self->state);  // never leave a partial batch behind another message
        if (!sender_in_this_process(self->current_sender())) {
          ++self->state.stats.foreign_refused;
          return make_error(errc::not_local, "stats asked from outside this process");
        }
        return self->state.stats;
      },
  };
}

}  // namespace

model_owner_actor spawn_model_owner(caf::actor_system& sys,
                                    std::shared_ptr<model::shared_model> model,
                                    const run::batching_config& batching, std::uint64_t seed,
                                    std::shared_ptr<predict_lane> lane, bool deterministic) {
  auto owner =
      sys.spawn<caf::detached>(model_owner, std::move(model), batching, seed, lane, deterministic);
  if (lane) lane->serve_by(owner.address());
  return caf::actor_cast<model_owner_actor>(owner);
}

}  // namespace troupe::actors
