// The network a run builds for a structured observation: each image leaf
// gets a convolution of its own by default, model.encoders overrides a leaf
// by its key, and a key or an encoder that does not fit is refused naming it.
#include <doctest/doctest.h>

#include <string>

#include <torch/torch.h>

#include "model/shared_model_impl.hpp"
#include "run/component_configs.hpp"
#include "run/config_loader.hpp"

using namespace troupe;

namespace {

// A Dict(view: Box(5x5x2), clock: Discrete(4)) observation as the Python
// bridge encodes it: the image's 50 values, then the clock's one-hot 4.
envs::env_spec glimpse_spec() {
  envs::env_spec spec;
  spec.id = "python:test_envs:glimpse";
  spec.observation = envs::space::box_space({54}, std::vector<double>(54, 0.0), std::vector<double>(54, 1.0));
  spec.observation.declared = "Dict(view: Box(5x5x2), clock: Discrete(4))";
  spec.observation.leaves = {{"view", "box", {5, 5, 2}, {}, {}, 0, 50}, {"clock", "discrete", {}, {4}, {0}, 50, 4}};
  spec.action = envs::space::discrete_space(2);
  return spec;
}

run::run_config config_with(const std::string& encoders) {
  return run::load_config_text("run:\n  name: t\nenv:\n  id: CartPole-v1\nmodel:\n  hidden: [16]\n" + encoders, "test");
}

}  // namespace

TEST_SUITE("run") {
TEST_CASE("model.encoders: an image leaf gets a convolution by default; flat reads it as values; a misfit is named") {
  const envs::env_spec spec = glimpse_spec();
  const model::net_spec net = run::net_spec_for(config_with(""), spec);
  REQUIRE(net.image_inputs.size() == 1);
  CHECK(net.image_inputs[0].offset == 0);
  CHECK((net.image_inputs[0].shape == std::vector<int>{5, 5, 2}));
  CHECK(run::net_spec_for(config_with("  encoders:\n    view: flat\n"), spec).image_inputs.empty());
  CHECK_THROWS_WITH(run::net_spec_for(config_with("  encoders:\n    clock: cnn\n"), spec),
                    doctest::Contains("model.encoders.clock: cnn reads an image"));
  CHECK_THROWS_WITH(run::net_spec_for(config_with("  encoders:\n    views: flat\n"), spec),
                    doctest::Contains("has no leaf 'views' (its leaves: view, clock)"));
  // A flat observation has no leaves to name.
  envs::env_spec flat = spec;
  flat.observation.leaves.clear();
  CHECK_THROWS_WITH(run::net_spec_for(config_with("  encoders:\n    view: cnn\n"), flat),
                    doctest::Contains("is not structured"));
  // Values other than cnn and flat are the config's error, at its key.
  CHECK_THROWS_WITH(config_with("  encoders:\n    view: lstm\n"),
                    doctest::Contains("model.encoders.view"));
}

TEST_CASE("model.image_layout: an image is read channels first or last as its shape or the key says; one too small is refused naming it") {
  envs::env_spec spec = glimpse_spec();
  const auto layout_of = [&](const std::vector<int>& shape, const std::string& layout) {
    spec.observation.leaves[0].shape = shape;
    return run::net_spec_for(config_with(layout.empty() ? "" : "  image_layout: " + layout + "\n"), spec).image_inputs.at(0);
  };
  CHECK_FALSE(layout_of({5, 5, 2}, "").channels_first);  // H x W x C
  const model::image_input chw = layout_of({2, 5, 5}, "");  // C x H x W
  CHECK(chw.channels_first);
  CHECK(chw.channels() == 2);
  CHECK(chw.height() == 5);
  CHECK_FALSE(layout_of({4, 4, 4}, "").channels_first);  // ambiguous: channels last, as before
  CHECK(layout_of({4, 4, 4}, "chw").channels_first);
  spec.observation.leaves[0].shape = {2, 5, 5};
  CHECK_THROWS_WITH(run::net_spec_for(config_with("  image_layout: hwc\n"), spec),
                    doctest::Contains("model.encoders.view: CartPole-v1's observation 'view' is a 2 x 5 x 5 "
                                      "image, read as H x W x C (model.image_layout hwc)"));
  spec.observation.leaves[0].shape = {1, 2, 25};
  CHECK_THROWS_WITH(run::net_spec_for(config_with(""), spec),
                    doctest::Contains("set model.image_layout to hwc or chw"));
}

TEST_CASE("model.encoders: the image's convolution reads only the image; the other values reach the dense layers as they are") {
  const model::net_spec net = run::net_spec_for(config_with(""), glimpse_spec());
  auto m = model::make_shared_model(net, 3);
  const auto params = m->net->named_parameters();
  REQUIRE(params.contains("encoder_0.0.weight"));
  CHECK((params["encoder_0.0.weight"].sizes() == torch::IntArrayRef({16, 2, 3, 3})));
  // 4 clock values, then 16 channels x 3 x 3 of the image.
  CHECK(params["trunk.0.weight"].size(1) == 4 + 16 * 3 * 3);
  torch::NoGradGuard no_grad;
  const torch::Tensor rows = torch::rand({3, 54});
  const auto base = m->net->forward(rows);
  // The same image through the network's own convolution, by hand.
  const torch::Tensor image = rows.narrow(1, 0, 50).reshape({-1, 5, 5, 2}).permute({0, 3, 1, 2});
  const torch::Tensor conv = torch::relu(torch::conv2d(image, params["encoder_0.0.weight"], params["encoder_0.0.bias"]));
  const torch::Tensor input = torch::cat({rows.narrow(1, 50, 4), conv.flatten(1)}, 1);
  const torch::Tensor hidden = torch::tanh(torch::linear(input, params["trunk.0.weight"], params["trunk.0.bias"]));
  const torch::Tensor logits = torch::linear(hidden, params["policy_head.weight"], params["policy_head.bias"]);
  CHECK(torch::allclose(base.policy, logits, 0, 1e-5));
}
}
