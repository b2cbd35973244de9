#pragma once
#include <string>

#include "actors/coordinator.hpp"

namespace troupe::app {

// summary.json's content for a finished run.
std::string summary_json(const actors::run_outcome& outcome, double target_return);

}  // namespace troupe::app
