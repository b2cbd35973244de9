#include "actors/evaluator.hpp"

#include <algorithm>
#include <iostream>
#include <limits>
#include <string>

#include "agents/evaluate.hpp"
#include "envs/registry.hpp"

namespace troupe::actors {

namespace {

struct evaluator_state {
  // Made at the first evaluation and kept: a Python environment's processes
  // start once per run, not once per confirmation.
  std::unique_ptr<envs::env_vector> envs;
  static inline const char* name = "evaluator";
};

// Episodes side by side, at most this many at a time.
constexpr int max_parallel = 64;

evaluator_actor::behavior_type evaluator(evaluator_actor::stateful_pointer<evaluator_state> self,
                                         std::shared_ptr<model::shared_model> model,
                                         envs::env_config env, double target,
                                         std::vector<std::shared_ptr<model::shared_model>> others) {
  return {
      [=](evaluate_atom, std::int32_t episodes, std::uint64_t seed) {
        auto& vector = self->state.envs;
        if (!vector) vector = envs::make_env_vector(env, std::clamp(episodes, 1, max_parallel));
        // Training pauses while the episodes play; a passing verdict freezes
        // the parameters, so the run ends with exactly the ones that passed.
        evaluation_report report{0, episodes, 0.0, false};
        std::string failure;
        report.passed = model::judge_parameters(*model, [&](model::shared_model& copy) {
          report.version = model::current_version(copy);
          try {
            report.return_mean =
                agents::evaluate(copy, *vector, episodes, /*greedy=*/false, seed).return_mean;
          } catch (const std::exception& e) {
            // An environment that failed (a Python process that died) fails
            // this verdict only: fresh environments judge the next one.
            failure = e.what();
            report.return_mean = std::numeric_limits<double>::quiet_NaN();
            return false;
          }
          return report.return_mean >= target;
        });
        if (!failure.empty()) {
          vector.reset();
          std::cerr << "troupe: the confirmation's environment failed (" << failure
                    << "); training goes on" << std::endl;
        }
        if (report.passed)
          for (const auto& m : others) model::freeze(*m);
        return report;
      },
  };
}

}  // namespace

evaluator_actor spawn_evaluator(caf::actor_system& sys, std::shared_ptr<model::shared_model> model,
                                const envs::env_config& env, double target,
                                std::vector<std::shared_ptr<model::shared_model>> other_replicas) {
  return sys.spawn<caf::detached>(evaluator, std::move(model), env, target,
                                  std::move(other_replicas));
}

}  // namespace troupe::actors
