// A recurrent network's rows never mix: many agents' environments batched in
// one forward pass, with episodes starting (zero states) in the middle of
// the batch, give what each row gives alone.
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <vector>

#include "model/checkpoint.hpp"
#include "model/shared_model.hpp"

using namespace troupe::model;

namespace {

net_spec recurrent_spec(const std::string& kind, const std::string& trunk = "mlp") {
  net_spec spec = mlp_spec(6, 3, {16});
  if (trunk == "cnn") {
    spec.kind = "cnn";
    spec.obs_shape = {4, 4, 2};
    spec.obs_size = 32;
  }
  spec.recurrent = {kind, 8};
  return spec;
}

std::vector<float> random_values(size_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

double max_difference(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  double d = 0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, double(std::abs(a[i] - b[i])));
  return d;
}

}  // namespace

TEST_SUITE("model") {
TEST_CASE("recurrent: batched rows of many agents equal one row at a time, resets mid-batch") {
  for (const auto& [kind, trunk] : {std::pair<std::string, std::string>{"lstm", "mlp"},
                                    {"gru", "mlp"}, {"lstm", "cnn"}}) {
    CAPTURE(kind);
    CAPTURE(trunk);
    const net_spec spec = recurrent_spec(kind, trunk);
    auto model = make_shared_model(spec, 5);
    const int s = spec.state_size(), obs = spec.obs_size;
    REQUIRE(s == (kind == "lstm" ? 16 : 8));
    // 3 agents x 4 environments, 12 steps: each agent acts alone, and all of
    // them in one shuffled batch per step. States carry on; some episodes
    // end (their state is zeroed) at random steps.
    const int agents = 3, envs = 4, rows = agents * envs;
    std::mt19937 rng(11);
    std::vector<float> alone_states(size_t(rows) * s, 0.f), batch_states = alone_states;
    for (int t = 0; t < 12; ++t) {
      const std::vector<float> observations = random_values(size_t(rows) * obs, rng);
      // Alone: agent by agent.
      std::vector<float> alone_policy(size_t(rows) * spec.action_size), alone_values(rows);
      for (int a = 0; a < agents; ++a) {
        prediction out;
        predict(*model, &observations[size_t(a) * envs * obs], &alone_states[size_t(a) * envs * s],
                envs, out);
        std::copy(out.policy.begin(), out.policy.end(),
                  alone_policy.begin() + a * envs * spec.action_size);
        std::copy(out.values.begin(), out.values.end(), alone_values.begin() + a * envs);
        std::copy(out.states.begin(), out.states.end(), alone_states.begin() + a * envs * s);
      }
      // Batched: every row at once, in a shuffled order.
      std::vector<int> order(rows);
      for (int i = 0; i < rows; ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng);
      std::vector<float> shuffled_obs, shuffled_states;
      for (int i : order) {
        shuffled_obs.insert(shuffled_obs.end(), &observations[size_t(i) * obs], &observations[size_t(i + 1) * obs]);
        shuffled_states.insert(shuffled_states.end(), &batch_states[size_t(i) * s], &batch_states[size_t(i + 1) * s]);
      }
      prediction batched;
      predict(*model, shuffled_obs.data(), shuffled_states.data(), rows, batched);
      std::vector<float> batch_policy(alone_policy.size()), batch_values(rows);
      for (int j = 0; j < rows; ++j) {
        const int i = order[j];
        std::copy_n(&batched.policy[size_t(j) * spec.action_size], spec.action_size, &batch_policy[size_t(i) * spec.action_size]);
        batch_values[i] = batched.values[j];
        std::copy_n(&batched.states[size_t(j) * s], s, &batch_states[size_t(i) * s]);
      }
      CHECK(max_difference(alone_policy, batch_policy) <= 1e-6);
      CHECK(max_difference(alone_values, batch_values) <= 1e-6);
      CHECK(max_difference(alone_states, batch_states) <= 1e-6);
      // Episodes that end: their environments start again from zero.
      for (int i = 0; i < rows; ++i)
        if (rng() % 4 == 0) {
          std::fill_n(&alone_states[size_t(i) * s], s, 0.f);
          std::fill_n(&batch_states[size_t(i) * s], s, 0.f);
        }
    }
  }
}

TEST_CASE("recurrent: a checkpoint round trip keeps what the states become") {
  const net_spec spec = recurrent_spec("lstm");
  auto original = make_shared_model(spec, 1);
  const auto path = (std::filesystem::temp_directory_path() / "troupe_recurrent.pt").string();
  save_checkpoint(path, *original, nullptr, {});
  auto restored = make_shared_model(spec, 99);  // other initial weights
  load_checkpoint(path, *restored, nullptr);
  std::mt19937 rng(3);
  std::vector<float> a(size_t(spec.state_size()), 0.f), b = a;
  for (int t = 0; t < 20; ++t) {
    const std::vector<float> observation = random_values(size_t(spec.obs_size), rng);
    prediction pa, pb;
    predict(*original, observation.data(), a.data(), 1, pa);
    predict(*restored, observation.data(), b.data(), 1, pb);
    REQUIRE(pa.policy == pb.policy);
    REQUIRE(pa.values == pb.values);
    REQUIRE(pa.states == pb.states);
    a = pa.states;
    b = pb.states;
  }
  // The state carries information: the same observation after a different
  // history gives another answer.
  prediction fresh, carried;
  const std::vector<float> observation = random_values(size_t(spec.obs_size), rng);
  predict(*original, observation.data(), nullptr, 1, fresh);
  predict(*original, observation.data(), a.data(), 1, carried);
  CHECK(fresh.values != carried.values);
}
}
