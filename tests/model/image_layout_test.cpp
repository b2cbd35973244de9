// An image read channels first (C x H x W) is the same image as its
// channels-last (H x W x C) transpose: with the same parameters, a network
// over each layout gives the same outputs for the same pixels, for a
// structured observation's image leaf and for a cnn's whole row. A network
// that read either layout as the other would not.
#include <doctest/doctest.h>

#include <torch/torch.h>

#include "model/shared_model_impl.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;
using namespace troupe::model;

namespace {

// Outputs of two networks with one set of parameters (b's copied from a's),
// for rows of a's layout and the same pixels in b's.
void check_same_outputs(const net_spec& a_spec, const net_spec& b_spec, const torch::Tensor& a_rows,
                        const torch::Tensor& b_rows) {
  auto a = make_shared_model(a_spec, 5), b = make_shared_model(b_spec, 6);
  torch::NoGradGuard no_grad;
  REQUIRE(a->flat.numel() == b->flat.numel());
  b->flat.copy_(a->flat);
  const auto out_a = a->net->forward(a_rows), out_b = b->net->forward(b_rows);
  CHECK(torch::allclose(out_a.policy, out_b.policy, 1e-5, 1e-6));
  CHECK(torch::allclose(out_a.values, out_b.values, 1e-5, 1e-6));
  // The same rows read in the wrong layout would give other outputs.
  CHECK_FALSE(torch::allclose(out_a.policy, b->net->forward(a_rows).policy, 1e-5, 1e-6));
}

}  // namespace

TEST_SUITE("model") {
TEST_CASE("image layouts: a channels-first image leaf gives what its channels-last transpose gives") {
  // 3 x 4 x 5 pixels of 3 channels (H 4, W 5), then 2 other values.
  net_spec hwc = mlp_spec(62, 3, {16});
  hwc.image_inputs = {{0, {4, 5, 3}, false}};
  net_spec chw = hwc;
  chw.image_inputs = {{0, {3, 4, 5}, true}};
  const torch::Tensor pixels = torch::rand({7, 4, 5, 3});
  const torch::Tensor other = torch::rand({7, 2});
  const torch::Tensor hwc_rows = torch::cat({pixels.reshape({7, -1}), other}, 1);
  const torch::Tensor chw_rows = torch::cat({pixels.permute({0, 3, 1, 2}).reshape({7, -1}), other}, 1);
  check_same_outputs(hwc, chw, hwc_rows, chw_rows);
}

TEST_CASE("image layouts: a cnn over a channels-first observation gives what it gives over the channels-last one") {
  net_spec hwc = mlp_spec(6 * 5 * 2, 3, {16});
  hwc.kind = "cnn";
  hwc.obs_shape = {6, 5, 2};
  net_spec chw = hwc;
  chw.obs_shape = {2, 6, 5};
  chw.obs_channels_first = true;
  const torch::Tensor pixels = torch::rand({4, 6, 5, 2});
  check_same_outputs(hwc, chw, pixels.reshape({4, -1}), pixels.permute({0, 3, 1, 2}).reshape({4, -1}));
}
}
