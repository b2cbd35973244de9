#pragma once
// The model-owner's protocol (actors/model_owner.hpp): an agent's predict
// request and its reply, and the owner's batching statistics.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/byte_vector_field.hpp"
#include "actors/messages/atoms.hpp"
#include "actors/messages/type_id_ranges.hpp"

namespace troupe::actors {

// An agent's observations for all of its environments, one row each.
struct predict_request {
  std::uint32_t agent_id = 0;
  std::int32_t rows = 0;
  std::vector<float> observations;
  // A recurrent policy's state of each row before its observation (rows x
  // state_size: zeros at an episode's start); empty for a feed-forward one.
  std::vector<float> states;
  // A row whose policy outputs the reply should carry (a viewer is watching
  // it); -1: none, the usual case.
  std::int32_t policy_row = -1;
  // Each row's legal actions (rows x the action count; algo/action_mask.hpp):
  // the owner samples among them only. Empty: every action is legal.
  std::vector<std::uint8_t> action_masks;
};

struct predict_reply {
  std::vector<float> actions;  // per row: a discrete action's index, or a Box action's floats
  std::vector<float> logp;     // log-probability of each action
  std::vector<float> values;   // V of each row's observation
  std::uint64_t version = 0;   // the parameter version every row was computed with
  std::vector<float> states;   // each row's recurrent state after its observation; else empty
  // The request's policy_row: its logits, or its Gaussian mean then log-std;
  // empty when none was asked for.
  std::vector<float> row_policy;
};

struct batch_stats {
  std::int64_t forward_passes = 0;
  std::int64_t requests = 0;
  std::int64_t observations = 0;
  std::int32_t largest_batch = 0;
  // Forward passes by batch size: bucket b counts sizes in (2^(b-1), 2^b],
  // so bucket 0 is size 1, bucket 1 size 2, bucket 2 sizes 3-4, ...
  std::vector<std::int64_t> size_histogram;
  double forward_seconds = 0;  // in forward passes
  double reply_seconds = 0;    // sampling actions and answering requests
  // Messages refused because their sender was not an actor of this process
  // (only a leaked handle could bring one: see actors/net/network_facing.hpp).
  std::int64_t foreign_refused = 0;

  // Another model-owner's statistics added to these.
  void merge(const batch_stats& other) {
    forward_passes += other.forward_passes;
    requests += other.requests;
    observations += other.observations;
    largest_batch = std::max(largest_batch, other.largest_batch);
    if (size_histogram.size() < other.size_histogram.size())
      size_histogram.resize(other.size_histogram.size(), 0);
    for (size_t b = 0; b < other.size_histogram.size(); ++b) size_histogram[b] += other.size_histogram[b];
    forward_seconds += other.forward_seconds;
    reply_seconds += other.reply_seconds;
    foreign_refused += other.foreign_refused;
  }

  void add_batch(int rows) {
    ++forward_passes;
    observations += rows;
    largest_batch = std::max(largest_batch, std::int32_t(rows));
    size_t bucket = 0;
    while ((std::int64_t{1} << bucket) < rows) ++bucket;
    if (size_histogram.size() <= bucket) size_histogram.resize(bucket + 1, 0);
    ++size_histogram[bucket];
  }
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, predict_request& x) {
  byte_vector_field masks{x.action_masks};
  return f(caf::meta::type_name("predict_request"), x.agent_id, x.rows, x.observations,
           x.states, x.policy_row, masks);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, predict_reply& x) {
  return f(caf::meta::type_name("predict_reply"), x.actions, x.logp, x.values, x.version,
           x.states, x.row_policy);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, batch_stats& x) {
  return f(caf::meta::type_name("batch_stats"), x.forward_passes, x.requests,
           x.observations, x.largest_batch, x.size_histogram, x.forward_seconds,
           x.reply_seconds, x.foreign_refused);
}

}  // namespace troupe::actors

CAF_BEGIN_TYPE_ID_BLOCK(troupe_predict, troupe::actors::type_id_ranges::predict)
  CAF_ADD_TYPE_ID(troupe_predict, (troupe::actors::predict_request))
  CAF_ADD_TYPE_ID(troupe_predict, (troupe::actors::predict_reply))
  CAF_ADD_TYPE_ID(troupe_predict, (troupe::actors::batch_stats))
CAF_END_TYPE_ID_BLOCK(troupe_predict)
