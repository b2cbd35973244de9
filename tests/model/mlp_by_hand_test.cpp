// The hand-written MLP passes (model/mlp_by_hand.hpp) against LibTorch's
// ActorCritic and its autograd, on the network shapes the passes claim.
#include <doctest/doctest.h>

#include <random>

#include "model/mlp_by_hand.hpp"
#include "model/shared_model_impl.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;

namespace {

struct shape {
  const char* name;
  std::vector<int> hidden;
  const char* activation;
  bool shared_trunk;
  bool continuous;
  bool normalize;
};

model::net_spec spec_of(const shape& s) {
  model::net_spec spec = model::mlp_spec(5, 3, s.hidden);
  spec.activation = s.activation;
  spec.shared_trunk = s.shared_trunk;
  spec.continuous = s.continuous;
  spec.log_std_init = -0.3;
  spec.normalize.observation = s.normalize;
  spec.normalize.clip_observation = 2.5;  // some inputs beyond it
  return spec;
}

// Parameters and normalisation made far from their initial values, so
// every entry matters (biases and log-stds start at 0 or one value).
void scramble(model::shared_model& m, std::uint64_t seed) {
  torch::NoGradGuard no_grad;
  torch::manual_seed(seed);
  m.flat.copy_(torch::randn_like(m.flat) * 0.5);
  if (m.net->obs_mean.defined()) {
    m.net->obs_mean.copy_(torch::randn_like(m.net->obs_mean));
    m.net->obs_scale.copy_(torch::rand_like(m.net->obs_scale) + 0.5);
  }
}

const shape shapes[] = {
    {"tanh 64-64, own value trunk, Gaussian, normalised", {64, 64}, "tanh", false, true, true},
    {"relu 16-8, shared trunk, categorical", {16, 8}, "relu", true, false, false},
    {"tanh 7, shared, Gaussian", {7}, "tanh", true, true, false},
    {"relu 9, own value trunk, categorical, normalised", {9}, "relu", false, false, true},
    {"no hidden layer, categorical", {}, "tanh", true, false, false},
};

}  // namespace

TEST_SUITE("model") {
TEST_CASE("mlp by hand: the forward pass and every parameter's gradient are LibTorch's, to 1e-5") {
  for (const shape& s : shapes) {
    CAPTURE(s.name);
    auto m = model::make_shared_model(spec_of(s), 7);
    scramble(*m, 11);
    const std::optional<model::mlp_layout> layout = model::mlp_layout_of(*m);
    REQUIRE(layout.has_value());
    const int n = 37;
    torch::manual_seed(5);
    const torch::Tensor rows = torch::randn({n, 5}) * 3;  // some clipped when normalised
    const torch::Tensor d_policy = torch::randn({n, 3});
    const torch::Tensor d_values = torch::randn({n});

    const model::actor_critic_output out = m->net->forward(rows);
    const torch::Tensor objective = (out.policy * d_policy).sum() + (out.values * d_values).sum();
    const torch::Tensor expected = model::flat_gradient(*m, objective);

    model::mlp_pass pass(*layout);
    const float* params = m->flat.data_ptr<float>();
    pass.forward(params, s.normalize ? m->net->obs_mean.data_ptr<float>() : nullptr,
                 s.normalize ? m->net->obs_scale.data_ptr<float>() : nullptr, rows.data_ptr<float>(), n);
    const torch::Tensor policy = torch::from_blob(const_cast<float*>(pass.policy()), {n, 3});
    const torch::Tensor values = torch::from_blob(const_cast<float*>(pass.values()), {n});
    CHECK(torch::allclose(policy, out.policy.detach(), 1e-5, 1e-5));
    CHECK(torch::allclose(values, out.values.detach(), 1e-5, 1e-5));

    std::vector<float> gradient(size_t(layout->parameter_count), 99.0f);
    pass.backward(params, d_policy.data_ptr<float>(), d_values.data_ptr<float>(), gradient.data());
    torch::Tensor mine = torch::from_blob(gradient.data(), {layout->parameter_count}).clone();
    if (layout->log_std >= 0) {
      // The log-stds are not the layers' outputs: the passes leave them 0
      // and the objective above does not read them either.
      CHECK(mine.slice(0, layout->log_std, layout->log_std + layout->log_std_size).abs().max().item<float>() == 0);
    }
    CHECK(torch::allclose(mine, expected, 1e-5, 1e-5));
  }
}

TEST_CASE("mlp by hand: predict by hand gives LibTorch's policy, log-stds and values, to 1e-5") {
  for (const shape& s : shapes) {
    CAPTURE(s.name);
    model::net_spec torch_spec = spec_of(s);
    torch_spec.by_hand = false;
    auto by_hand = model::make_shared_model(spec_of(s), 7);
    auto reference = model::make_shared_model(torch_spec, 7);
    REQUIRE(by_hand->by_hand.has_value());
    REQUIRE_FALSE(reference->by_hand.has_value());
    scramble(*by_hand, 11);
    scramble(*reference, 11);
    by_hand->version = reference->version = 42;
    torch::manual_seed(6);
    const torch::Tensor rows = torch::randn({9, 5}) * 3;
    model::prediction mine, theirs;
    model::predict(*by_hand, rows.data_ptr<float>(), nullptr, 9, mine);
    model::predict(*reference, rows.data_ptr<float>(), nullptr, 9, theirs);
    CHECK(mine.version == 42);
    REQUIRE(mine.policy.size() == theirs.policy.size());
    REQUIRE(mine.values.size() == theirs.values.size());
    REQUIRE(mine.log_std.size() == theirs.log_std.size());
    CHECK(mine.log_std.size() == (s.continuous ? 3u : 0u));
    for (size_t i = 0; i < mine.policy.size(); ++i) CHECK(mine.policy[i] == doctest::Approx(theirs.policy[i]).epsilon(1e-5));
    for (size_t i = 0; i < mine.values.size(); ++i) CHECK(mine.values[i] == doctest::Approx(theirs.values[i]).epsilon(1e-5));
    for (size_t i = 0; i < mine.log_std.size(); ++i) CHECK(mine.log_std[i] == theirs.log_std[i]);
  }
}

TEST_CASE("mlp by hand: networks the passes do not compute are declined") {
  model::net_spec cnn = model::mlp_spec(5 * 5 * 2, 3, {8});
  cnn.kind = "cnn";
  cnn.obs_shape = {5, 5, 2};
  CHECK_FALSE(model::mlp_layout_of(*model::make_shared_model(cnn, 1)).has_value());
  model::net_spec lstm = model::mlp_spec(4, 2, {8});
  lstm.recurrent.kind = "lstm";
  lstm.recurrent.size = 4;
  CHECK_FALSE(model::mlp_layout_of(*model::make_shared_model(lstm, 1)).has_value());
  CHECK(model::mlp_layout_of(*model::make_shared_model(model::mlp_spec(4, 2, {8}), 1)).has_value());
}
}
