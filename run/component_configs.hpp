#pragma once
// The configs of a run's components, derived from its run config in one
// place: the network (sized from the environments' spec) and the learner.
// The run builder starts actors with them; eval, play and export load a
// trained model with the same network.
#include <cstdint>

#include "algo/learner_config.hpp"
#include "envs/env.hpp"
#include "model/net_spec.hpp"
#include "run/run_config.hpp"

namespace troupe::run {

// The network a config asks for, sized from its environments' spec. Throws
// config_error when the two do not fit (a cnn on a vector, a model.encoders
// key the observation does not have), naming the key.
model::net_spec net_spec_for(const run_config& config, const envs::env_spec& env);

// What a replica's learner of a run with this config trains by;
// `seed`: its minibatch shuffles (agents::run_streams::learner).
algo::learner_config learner_config_for(const run_config& config, const envs::env_spec& env, std::uint64_t seed);

}  // namespace troupe::run
