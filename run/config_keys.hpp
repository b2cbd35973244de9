#pragma once
// Every key of a run config, by section, each bound to its place in a
// run_config: what the loader reads, to_yaml writes and `troupe config
// --describe` lists, in this order.
#include <vector>

#include "run/config_field.hpp"
#include "run/run_config.hpp"

namespace troupe::run {

// The keys of `c`; each field reads into and writes from `c`, which must
// outlive them.
std::vector<fields::field> fields_of(run_config& c);

}  // namespace troupe::run
