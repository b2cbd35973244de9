// Population-based training's driver as an actor: it reads the members'
// totals from their metrics actors, and the member in the bottom fraction
// ends up holding the top member's learned state, copied by message, with
// one row per decision in pbt.csv and the lineage in its final state. A
// member whose learner refuses its snapshot stops the run: the coordinator
// is sent pbt_failed, and the driver's stop says which member and why.
#include <doctest/doctest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "actors/errors.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/league/pbt_driver.hpp"
#include "algo/learner.hpp"
#include "tests/actors/learner_snapshot.hpp"
#include "tests/algo/ppo_algo_config.hpp"
#include "tests/temp_files.hpp"

using namespace troupe;
using namespace troupe::actors;
using troupe::tests::snapshot_of;

namespace {

constexpr auto driver_answer = std::chrono::seconds(10);

run::pbt_config two_members() {
  run::pbt_config c;
  c.population = 2;
  c.interval_env_steps = 100;
  c.hyperparams["algo.lr"] = {1e-5, 0.01, true, 1e-4, 1e-3};
  return c;
}

// A member's metrics: `env_steps` stepped, scoring `score`.
metrics_actor::behavior_type fixed_metrics(metrics_actor::pointer, std::int64_t env_steps, double score) {
  const auto totals = [=] {
    metrics_totals t;
    t.env_steps = env_steps;
    t.episodes = 10;
    t.final_mean_return = score;
    return t;
  };
  return {
      [](const episode_report&) {},
      [](const algo::train_result&) {},
      [](const member_hyperparams&) {},
      [=](totals_atom) { return totals(); },
      [=](final_atom) { return totals(); },
      [](round_atom, std::uint64_t) { return true; },
  };
}

// A learner that takes steps but refuses to give its state away.
learner_actor::behavior_type refusing_learner(learner_actor::pointer) {
  return {
      [](const algo::rollout& r) { return train_ack{r.sequence, true}; },
      [](drain_atom) { return learner_final{}; },
      [](checkpoint_atom, const std::string&, const model::checkpoint_meta&) { return std::uint64_t{0}; },
      [](const replica_update&) { return std::uint64_t{0}; },
      [](peers_atom, const std::vector<caf::strong_actor_ptr>&) {},
      [](pbt_atom, const pbt_step&) { return std::uint64_t(0); },
      [](snapshot_atom) -> caf::result<algo::learned_state> { return make_error(errc::failed, "not today"); },
  };
}

std::string file_text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

std::vector<std::string> csv_lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// An actor system, and members' learners of one small network.
struct driver_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys{(configure_actor_system(cfg), cfg)};
  learner_actor learner(int seed) {
    return spawn_learner(sys, std::make_shared<algo::learner>(model::make_shared_model(model::mlp_spec(4, 2, {8}), seed),
                                                              tests::ppo_algo_config(2, 1)),
                         metrics_actor{});
  }
};

pbt_final stop_driver(caf::scoped_actor& self, const pbt_driver_actor& driver) {
  pbt_final out;
  self->request(driver, driver_answer, stop_atom_v)
      .receive([&](pbt_final& f) { out = std::move(f); }, [&](caf::error& e) { FAIL(caf::to_string(e)); });
  return out;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE_FIXTURE(driver_fixture, "pbt driver: the bottom member takes the top member's learned state by message; a row per decision, the lineage kept") {
  std::vector<learner_actor> learners;
  std::vector<pbt_member> members;
  for (int m = 0; m < 2; ++m) {
    learners.push_back(learner(1 + m));
    members.push_back({learners.back(), sys.spawn(fixed_metrics, 1000, m == 0 ? 100.0 : 10.0)});
  }
  caf::scoped_actor self{sys};
  REQUIRE(algo::learner::fingerprint(snapshot_of(self, learners[0])) !=
          algo::learner::fingerprint(snapshot_of(self, learners[1])));
  const std::string dir = std::filesystem::path(tests::temp_file("pbt_driver_test", "x")).parent_path().string();
  std::filesystem::remove(dir + "/pbt.json");
  const agents::population population(two_members(), 3);
  auto driver = spawn_pbt_driver(sys, population, dir, members, caf::actor_cast<run_control>(self));
  self->request(driver, driver_answer, start_atom_v, false)
      .receive([](bool) {}, [](caf::error& e) { FAIL(caf::to_string(e)); });

  // Both members are past their first decision: one row each (and the header).
  const auto deadline = std::chrono::steady_clock::now() + driver_answer;
  while (csv_lines(dir + "/pbt.csv").size() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const pbt_final final = stop_driver(self, driver);
  CHECK(final.failure.empty());
  const std::vector<std::string> rows = csv_lines(dir + "/pbt.csv");
  REQUIRE(rows.size() == 3);  // no decision more: the steps never move past the next one
  CHECK(rows[1].rfind("0,2000,0,1000,keep,", 0) == 0);
  CHECK(rows[2].rfind("1,2000,1,1000,exploit,0,10,100", 0) == 0);
  // Member 1 holds what member 0 has learned, parameters and all.
  CHECK(algo::learner::fingerprint(snapshot_of(self, learners[1])) ==
        algo::learner::fingerprint(snapshot_of(self, learners[0])));
  const agents::pbt_state state = population.state_from_json(final.state_json, "the driver's state");
  CHECK(state.decisions == 2);
  CHECK(state.exploits == 1);
  REQUIRE(state.members[1].lineage.size() == 1);
  CHECK(state.members[1].lineage[0].source == 0);
  CHECK(state.members[0].lineage.empty());
  CHECK(state.members[1].next_decision_at == 1100);
  CHECK(population.state_from_json(file_text_of(dir + "/pbt.json"), "pbt.json").exploits == 1);
  self->send_exit(driver, caf::exit_reason::user_shutdown);
  for (auto& l : learners) self->send_exit(l, caf::exit_reason::user_shutdown);
}

TEST_CASE_FIXTURE(driver_fixture, "pbt driver: a member whose learner gives no snapshot stops the run with pbt_failed, naming the member") {
  learner_actor refusing = sys.spawn(refusing_learner);
  learner_actor bottom = learner(2);
  std::vector<pbt_member> members{{refusing, sys.spawn(fixed_metrics, 1000, 100.0)},
                                  {bottom, sys.spawn(fixed_metrics, 1000, 10.0)}};
  caf::scoped_actor self{sys};
  auto driver = spawn_pbt_driver(sys, agents::population(two_members(), 3), "", members,
                                 caf::actor_cast<run_control>(self));
  self->request(driver, driver_answer, start_atom_v, false)
      .receive([](bool) {}, [](caf::error& e) { FAIL(caf::to_string(e)); });
  run::stop_reason reason = run::stop_reason::none;
  self->receive([&](const stop_request& s) { reason = s.reason; }, caf::after(driver_answer) >> [] {});
  CHECK(reason == run::stop_reason::pbt_failed);
  const pbt_final final = stop_driver(self, driver);
  CHECK(final.failure.find("member 0's learner sent no snapshot") != std::string::npos);
  CHECK(final.failure.find("not today") != std::string::npos);
  self->send_exit(driver, caf::exit_reason::user_shutdown);
  self->send_exit(bottom, caf::exit_reason::user_shutdown);
  self->send_exit(refusing, caf::exit_reason::user_shutdown);
}
}
