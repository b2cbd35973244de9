#pragma once
// The definition of shared_model, for the LibTorch files that train it.
#include "model/actor_critic.hpp"
#include "model/critical_section.hpp"
#include "model/shared_model.hpp"

namespace troupe::model {

struct shared_model {
  explicit shared_model(const net_spec& s) : spec(s), net(s) {}
  net_spec spec;
  ActorCritic net;
  // Guards net's parameters and version: updates run exclusively, forward
  // passes shared.
  critical_section params{"parameters"};
  std::uint64_t version = 0;
};

}  // namespace troupe::model
