#pragma once
// Population-based training's protocol (actors/league/pbt_driver.hpp): the
// driver's step for a member's learner, the hyperparameters it shows a
// member's metrics, and the driver's final state.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/messages/atoms.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/type_id_ranges.hpp"

namespace troupe::actors {

// The driver's decision for one member's learner: adopt `state`, member
// `source`'s learned state as its learner answered a snapshot_atom (source
// -1: no copy, `state` empty), then set each key's value
// (algo/hyperparameters.hpp). The answer is the learner's parameter version
// after it.
struct pbt_step {
  std::int32_t source = -1;
  algo::learned_state state;
  std::vector<std::string> keys;
  std::vector<double> values;
};

// What the population-based training driver answers its stop with: the
// population's state (RUN/pbt.json's text) and why the driver failed (empty:
// it did not).
struct pbt_final {
  std::string state_json;
  std::string failure;
};

// Population-based training: a member's hyperparameters as they are now,
// sent by the driver to the member's metrics actor, which shows them in
// every row it writes (TensorBoard's hyperparams/KEY).
struct member_hyperparams {
  std::vector<std::string> keys;
  std::vector<double> values;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pbt_step& x) {
  return f(caf::meta::type_name("pbt_step"), x.source, x.state, x.keys, x.values);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, pbt_final& x) {
  return f(caf::meta::type_name("pbt_final"), x.state_json, x.failure);
}
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, member_hyperparams& x) {
  return f(caf::meta::type_name("member_hyperparams"), x.keys, x.values);
}

}  // namespace troupe::actors

CAF_BEGIN_TYPE_ID_BLOCK(troupe_pbt, troupe::actors::type_id_ranges::pbt)
  CAF_ADD_TYPE_ID(troupe_pbt, (troupe::actors::pbt_step))
  CAF_ADD_TYPE_ID(troupe_pbt, (troupe::actors::pbt_final))
  CAF_ADD_TYPE_ID(troupe_pbt, (troupe::actors::member_hyperparams))
CAF_END_TYPE_ID_BLOCK(troupe_pbt)
