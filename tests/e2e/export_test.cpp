// End-to-end: a trained policy taken out of Troupe. A solved CartPole run is
// exported with `troupe export`, examples/embed_policy is built against an
// installed Troupe (find_package(Troupe), Troupe::policy) and plays CartPole
// with it, in a loop of its own; bad targets and outputs exit 2 naming them.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/e2e/installed_troupe.hpp"
#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"

namespace fs = std::filesystem;
using namespace troupe::tests;

TEST_SUITE("e2e") {
TEST_CASE("export: a solved CartPole policy, run by the embed example against an installed Troupe, scores >= 475 (sampled)") {
  const std::string run_dir = fresh_dir("export_run");
  const auto train = run_troupe("train " + std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml --run-dir " + run_dir +
                                " --set log.progress=false");
  INFO(train.output);
  REQUIRE(train.exit_code == 0);
  REQUIRE(read_json(run_dir + "/summary.json")["solved"] == true);
  const std::string policy = fresh_dir("export_out") + ".pt";
  const auto exported = run_troupe("export " + run_dir + " --out " + policy);
  INFO(exported.output);
  REQUIRE(exported.exit_code == 0);
  CHECK(contains(exported.output, "TorchScript"));
  REQUIRE(fs::exists(policy));

  const std::string prefix = install_troupe("export_prefix");
  CHECK(fs::exists(prefix + "/include/troupe/policy.hpp"));
  const std::string build = build_example("embed_policy", prefix, "embed_build");

  // Actions drawn from the policy, as the run's confirmation episodes drew
  // them: the run stops at the first confirmed 475, and that checkpoint's
  // greedy policy may score less (one run: 499.7 sampled, 445.2 greedy over
  // 200 episodes of troupe eval), which this test of the export is not about.
  const auto played = run_command(build + "/embed_policy " + policy + " --episodes 20 --sample");
  INFO(played.output);
  REQUIRE(played.exit_code == 0);
  const size_t at = played.output.find("mean_return ");
  REQUIRE(at != std::string::npos);
  CHECK(std::stod(played.output.substr(at + 12)) >= 475.0);
  // Its spaces, as the module reports them.
  CHECK(contains(played.output, "policy for CartPole-v1: 4 observation floats, Discrete(2)"));
  const auto timed = run_command(build + "/embed_policy " + policy + " --latency 200");
  INFO(timed.output);
  CHECK(timed.exit_code == 0);
  CHECK(contains(timed.output, "latency_us min "));
}

TEST_CASE("export: a missing run, a damaged checkpoint or an unwritable output exits 2 naming it") {
  const std::string missing = fresh_dir("export_missing");
  auto r = run_troupe("export " + missing + " --out " + fresh_dir("export_x") + ".pt");
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, missing));

  // A checkpoint file of garbage.
  const std::string damaged = fresh_dir("export_damaged") + ".pt";
  std::ofstream(damaged) << "not a checkpoint at all";
  r = run_troupe("export " + damaged + " --out " + fresh_dir("export_y") + ".pt");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, damaged));

  const std::string run_dir = fresh_dir("export_short");
  const auto train = run_troupe("train " + std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml --run-dir " +
                                run_dir + " --set run.stop.env_steps=2000 --set log.progress=false");
  REQUIRE(train.exit_code == 0);
  r = run_troupe("export " + run_dir + " --out /nonexistent-dir/policy.pt");
  INFO(r.output);
  CHECK(r.exit_code == 2);
  CHECK(contains(r.output, "/nonexistent-dir/policy.pt"));
  CHECK(contains(r.output, "cannot be written"));
}
}
