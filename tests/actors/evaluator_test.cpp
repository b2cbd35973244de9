// The evaluator's best policy: what it writes to best.pt, and when, with a
// real model, environments and file. And the other side of a game of two
// policies: played in every evaluation by the other policy's parameters as
// they are when it starts.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "actors/evaluator.hpp"
#include "actors/actor_system_setup.hpp"
#include "model/checkpoint.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;
using namespace troupe::actors;

namespace fs = std::filesystem;

namespace {

evaluation_report ask(caf::scoped_actor& self, const evaluator_actor& e, std::uint64_t seed,
                      std::int64_t env_steps) {
  model::checkpoint_meta meta;
  meta.env_steps = env_steps;
  evaluation_report report;
  self->request(e, std::chrono::seconds(60), best_atom_v, std::int32_t(4), seed, meta)
      .receive([&](const evaluation_report& r) { report = r; },
               [&](caf::error& err) { FAIL("no report: " << caf::to_string(err)); });
  return report;
}

// A one-hot code by hand: the trunk passes each input through (3·x, then
// tanh), and the policy head gives action code[i] a logit of 20 for input
// i, every other action 0. Sampled, such a policy takes code[i] but for a
// chance of about e^-19.
void set_code(model::shared_model& m, const std::vector<int>& code) {
  torch::NoGradGuard no_grad;
  for (auto& item : m.net->named_parameters()) {
    const std::string& name = item.key();
    torch::Tensor& p = item.value();
    p.zero_();
    if (name == "trunk.0.weight")
      for (int i = 0; i < p.size(0); ++i) p[i][i] = 3.0f;
    if (name == "policy_head.weight")
      for (int i = 0; i < int(code.size()); ++i) p[code[size_t(i)]][i] = 20.0f;
  }
}

evaluation_report judge(caf::scoped_actor& self, const evaluator_actor& e, std::int32_t episodes, std::uint64_t seed) {
  evaluation_report report;
  self->request(e, std::chrono::seconds(60), evaluate_atom_v, episodes, seed, model::checkpoint_meta{})
      .receive([&](const evaluation_report& r) { report = r; },
               [&](caf::error& err) { FAIL("no report: " << caf::to_string(err)); });
  return report;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("best.pt: kept when an evaluation scores at least the best so far, never replaced by a worse one, "
          "and a resumed run starts from the score on disk") {
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  const fs::path dir = fs::temp_directory_path() / "troupe_evaluator_best";
  fs::remove_all(dir);
  const std::string best = (dir / "checkpoints" / "best.pt").string();
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {16}), 3);
  envs::env_config env;
  env.id = "CartPole-v1";
  evaluator_config ec{env, 500.0, best, 7, "run: {name: x}\n"};

  // A fresh run: the first evaluation is the best so far.
  auto e = spawn_evaluator(sys, model, ec);
  const evaluation_report first = ask(self, e, 1, 1000);
  REQUIRE(first.best);
  REQUIRE(fs::exists(best));
  model::checkpoint_meta on_disk = model::read_checkpoint_meta(best);
  CHECK(on_disk.evaluated_episodes == 4);
  CHECK(on_disk.evaluated_return == doctest::Approx(first.return_mean));
  CHECK(on_disk.env_steps == 1000);
  CHECK(on_disk.segment == 7);
  CHECK(on_disk.config_yaml == ec.config_yaml);
  CHECK(on_disk.version == first.version);
  // The same parameters again, other episodes: kept only if not worse.
  for (std::uint64_t seed = 2; seed < 8; ++seed) {
    const double before = model::read_checkpoint_meta(best).evaluated_return;
    const evaluation_report r = ask(self, e, seed, 1000 + std::int64_t(seed));
    const model::checkpoint_meta now = model::read_checkpoint_meta(best);
    CHECK(r.best == (r.return_mean >= before));
    CHECK(now.evaluated_return == doctest::Approx(std::max(before, r.return_mean)));
    if (!r.best) CHECK(now.env_steps != 1000 + std::int64_t(seed));
  }
  self->send_exit(e, caf::exit_reason::user_shutdown);

  // A resumed run whose best.pt scored more than anything these parameters
  // can (500 is CartPole's most): nothing replaces it.
  {
    model::checkpoint_meta high;
    high.evaluated_episodes = 100;
    high.evaluated_return = 1e9;
    high.env_steps = 42;
    model::save_checkpoint(best, *model, nullptr, high);
  }
  auto resumed = spawn_evaluator(sys, model, ec);
  for (std::uint64_t seed = 10; seed < 13; ++seed) CHECK_FALSE(ask(self, resumed, seed, 5000).best);
  CHECK(model::read_checkpoint_meta(best).env_steps == 42);
  self->send_exit(resumed, caf::exit_reason::user_shutdown);

  // Once the run closes best.pt (before its summary reads it), no
  // evaluation replaces it, however well it scores.
  {
    model::checkpoint_meta low;
    low.evaluated_episodes = 100;
    low.evaluated_return = -1e9;
    low.env_steps = 43;
    model::save_checkpoint(best, *model, nullptr, low);
  }
  evaluator_config gated = ec;
  gated.best_gate = std::make_shared<best_file_gate>();
  gated.best_gate->close();
  auto closing = spawn_evaluator(sys, model, gated);
  CHECK_FALSE(ask(self, closing, 20, 6000).best);
  CHECK(model::read_checkpoint_meta(best).env_steps == 43);
  // The same evaluation with the gate open beats -1e9 and is kept.
  auto open = spawn_evaluator(sys, model, ec);
  CHECK(ask(self, open, 20, 7000).best);
  CHECK(model::read_checkpoint_meta(best).env_steps == 7000);
  self->send_exit(open, caf::exit_reason::user_shutdown);
  self->send_exit(closing, caf::exit_reason::user_shutdown);

  // No best path: nothing is written, nothing is claimed.
  fs::remove_all(dir);
  auto none = spawn_evaluator(sys, model, evaluator_config{env, 500.0, "", 0, ""});
  CHECK_FALSE(ask(self, none, 1, 1).best);
  CHECK_FALSE(fs::exists(best));
  self->send_exit(none, caf::exit_reason::user_shutdown);
  fs::remove_all(dir);
}

TEST_CASE("two policies: the evaluator plays the other side with the rival's parameters of the moment, "
          "and env.opponent without one") {
  // Signal-v0 from the receiver's seat: the sender (the rival) sees a
  // secret of 3 and sends one of 4 signals; the receiver guesses the
  // secret from the signal, +1 when right and -1 when wrong.
  caf::actor_system_config cfg;
  configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  caf::scoped_actor self{sys};
  auto sender = model::make_shared_model(model::mlp_spec(3, 4, {3}), 1);
  auto receiver = model::make_shared_model(model::mlp_spec(4, 3, {4}), 2);
  set_code(*sender, {0, 1, 2});        // secret i: signal i
  set_code(*receiver, {0, 1, 2});      // signal i: guess i; signal 3: any
  envs::env_config env;
  env.id = "Signal-v0";
  env.versus.seat = "second";
  evaluator_config ec{env, 0.9, "", 0, ""};
  ec.rivals = {{sender, {0}}};  // the sender is agent 0
  auto e = spawn_evaluator(sys, receiver, ec);
  // The two keep the same code: every guess is right.
  CHECK(ask(self, e, 1, 0).return_mean == doctest::Approx(1.0));
  // The rival's parameters change between evaluations (its learner goes on):
  // the next one plays the new ones. A code shifted by one is always wrong.
  set_code(*sender, {1, 2, 0});
  const evaluation_report wrong = judge(self, e, 50, 2);
  CHECK(wrong.return_mean == doctest::Approx(-1.0));
  CHECK_FALSE(wrong.passed);
  set_code(*sender, {0, 1, 2});
  const evaluation_report right = judge(self, e, 50, 3);
  CHECK(right.return_mean == doctest::Approx(1.0));
  CHECK(right.passed);
  self->send_exit(e, caf::exit_reason::user_shutdown);

  // Without a rival, env.opponent (random) sends: a signal of 0-2 names a
  // secret drawn apart from it, and signal 3 gets a uniform guess, so a
  // third of the guesses are right and the mean return is -1/3.
  auto unfrozen = model::make_shared_model(model::mlp_spec(4, 3, {4}), 2);
  set_code(*unfrozen, {0, 1, 2});
  auto alone = spawn_evaluator(sys, unfrozen, evaluator_config{env, 0.9, "", 0, ""});
  const evaluation_report random = judge(self, alone, 400, 4);
  CHECK(std::abs(random.return_mean + 1.0 / 3) < 0.15);  // 3 standard errors
  CHECK_FALSE(random.passed);
  self->send_exit(alone, caf::exit_reason::user_shutdown);
}
}
