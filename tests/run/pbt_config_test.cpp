// pbt: the population's keys read, written back and read again; what a
// population cannot explore or run with refused, naming the key and why.
#include <doctest/doctest.h>

#include <string>

#include "run/config_loader.hpp"
#include "tests/run/config_error_of.hpp"

namespace run = troupe::run;

namespace {

const std::string pbt_base_config = "run: {name: p}\nenv: {id: CartPole-v1}\nalgo: {kind: ppo}\n";

std::string pbt_error(const std::string& text, const std::vector<std::string>& overrides = {}) {
  return troupe::tests::config_error_of([&] { run::load_config_text(text, "p.yaml", overrides); });
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("pbt: the population's keys, their defaults, and the ranges written back") {
  const run::run_config c = run::load_config_text(pbt_base_config + R"(pbt:
  population: 4
  interval_env_steps: 20000
  hyperparams:
    algo.lr: {min: 0.000001, max: 0.1, scale: log, init: [0.000001, 0.000002]}
    algo.entropy_coef: {min: 0, max: 0.1}
)", "p.yaml");
  CHECK(c.pbt.enabled());
  CHECK(c.pbt.population == 4);
  CHECK(c.pbt.truncation == 0.25);
  CHECK(c.pbt.perturb == std::vector<double>{0.8, 1.2});
  CHECK(c.pbt.resample_probability == 0.25);
  CHECK(c.pbt.objective == "mean_return");
  REQUIRE(c.pbt.hyperparams.size() == 2);
  const auto& lr = c.pbt.hyperparams.at("algo.lr");
  CHECK(lr.log);
  CHECK(lr.min == 1e-6);
  CHECK(lr.init_hi == 2e-6);
  const auto& entropy = c.pbt.hyperparams.at("algo.entropy_coef");
  CHECK(!entropy.log);  // linear unless said
  CHECK(entropy.init_lo == 0.0);  // init: [min, max] unless said
  CHECK(entropy.init_hi == 0.1);
  const run::run_config back = run::load_config_text(run::to_yaml(c), "written");
  CHECK(back.pbt.hyperparams.at("algo.lr").init_hi == 2e-6);
  CHECK(back.pbt.hyperparams.at("algo.lr").log);
  CHECK(run::to_yaml(back) == run::to_yaml(c));
  // The members: the run's config each, named and foldered.
  const auto plans = run::plan_policies(c, "p.yaml");
  REQUIRE(plans.size() == 4);
  CHECK(plans[3].name == "member_3");
  CHECK(plans[3].folder == "members/3");
  CHECK(plans[3].config.agents.count == c.agents.count);
  CHECK(!plans[3].config.pbt.enabled());
}

TEST_CASE("pbt: keys that cannot change mid-run and combinations that cannot run are refused with the reason") {
  const std::string lr = "pbt: {population: 4, hyperparams: {algo.lr: {min: 0.0001, max: 0.1, scale: log}}}\n";
  CHECK(pbt_error(pbt_base_config + lr) == "");
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 4, hyperparams: {algo.n_steps: {min: 1, max: 5}}}\n")
            .find("key 'pbt.hyperparams.algo.n_steps': cannot change during a run: it shapes the rollouts") !=
        std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 4, hyperparams: {model.hidden: {min: 1, max: 5}}}\n")
            .find("the keys that can change: algo.lr, algo.entropy_coef") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 1, hyperparams: {algo.lr: {min: 0.1, max: 1}}}\n")
            .find("at least 2 members") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2}\n").find("names no hyperparameter") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2, hyperparams: {algo.lr: {min: 0, max: 1, scale: log}}}\n")
            .find("a log scale needs min above 0") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2, hyperparams: {algo.lr: {min: 0.1, max: 0.01}}}\n")
            .find("min must be below max") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2, hyperparams: {algo.lr: {min: 0.01, max: 0.1, init: [0.001, 0.05]}}}\n")
            .find("key 'pbt.hyperparams.algo.lr.init'") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2, hyperparams: {algo.lr: {min: 0.01, max: 0.1, step: 2}}}\n")
            .find("unknown key: a range has min, max, scale and init") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + "pbt: {population: 2, hyperparams: {algo.lr: {max: 0.1}}}\n").find("needs both min and max") !=
        std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"pbt.perturb=[0.8, -1]"}).find("key 'pbt.perturb'") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"pbt.truncation=0.75"}).find("key 'pbt.truncation'") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"pbt.objective=median"}).find("key 'pbt.objective'") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"run.deterministic=true"}).find("not with run.deterministic") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"devices=[cpu, cpu]"}).find("one device") != std::string::npos);
  CHECK(pbt_error(pbt_base_config + lr, {"algo.lr_schedule=linear", "run.stop.env_steps=1000"}).find("key 'algo.lr_schedule'") !=
        std::string::npos);
  CHECK(pbt_error("run: {name: p}\nenv: {id: CartPole-v1}\npbt: {population: 2, hyperparams: {algo.ppo.clip: {min: 0.1, max: 0.3}}}\n")
            .find("is PPO's; algo.kind is a3c") != std::string::npos);
}
}
