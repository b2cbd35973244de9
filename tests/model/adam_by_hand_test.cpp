// The Adam and RMSprop steps by hand (model/adam_by_hand.hpp,
// model/rmsprop_by_hand.hpp) against LibTorch's.
#include <doctest/doctest.h>

#include "model/adam_by_hand.hpp"
#include "model/rmsprop_by_hand.hpp"
#include "tests/torch_checks.hpp"

using namespace troupe;

TEST_SUITE("model") {
TEST_CASE("Adam by hand: 50 steps give LibTorch's parameters, moments and step count") {
  torch::manual_seed(2);
  const torch::Tensor start = torch::randn({1000});
  torch::Tensor mine = start.clone().requires_grad_(true), theirs = start.clone().requires_grad_(true);
  const auto options = torch::optim::AdamOptions(0.01).eps(1e-5).betas(std::make_tuple(0.8, 0.99));
  torch::optim::Adam mine_adam({mine}, options), their_adam({theirs}, options);
  int by_hand = 0;
  for (int step = 0; step < 50; ++step) {
    // Gradients of every scale, zeros among them.
    const torch::Tensor g = torch::randn({1000}) * std::pow(10.0, step % 5 - 3) * (torch::rand({1000}) > 0.1);
    mine.mutable_grad() = g.clone();
    theirs.mutable_grad() = g.clone();
    if (model::adam_step_by_hand(mine_adam, mine, mine.grad()))
      ++by_hand;
    else
      mine_adam.step();
    their_adam.step();
  }
  CHECK(by_hand == 49);  // the first step makes the state
  CHECK(torch::allclose(mine, theirs, 1e-6, 1e-7));
  auto& a = static_cast<torch::optim::AdamParamState&>(*mine_adam.state().begin()->second);
  auto& b = static_cast<torch::optim::AdamParamState&>(*their_adam.state().begin()->second);
  CHECK(a.step() == b.step());
  // Within rounding: LibTorch's vector loop may fuse a multiply and an add.
  CHECK(torch::allclose(a.exp_avg(), b.exp_avg(), 1e-5, 1e-6));
  CHECK(torch::allclose(a.exp_avg_sq(), b.exp_avg_sq(), 1e-5, 1e-6));
  CHECK_FALSE(torch::allclose(mine, start, 1e-3, 1e-3));
}

TEST_CASE("Adam by hand: declines what it leaves out, touching nothing") {
  torch::Tensor p = torch::ones({10}).requires_grad_(true);
  const torch::Tensor g = torch::ones({10});
  p.mutable_grad() = g;
  torch::optim::Adam amsgrad({p}, torch::optim::AdamOptions(0.1).amsgrad(true));
  amsgrad.step();
  torch::optim::Adam decay({p}, torch::optim::AdamOptions(0.1).weight_decay(0.01));
  decay.step();
  torch::optim::RMSprop rmsprop({p}, torch::optim::RMSpropOptions(0.1));
  rmsprop.step();
  const torch::Tensor before = p.detach().clone();
  CHECK_FALSE(model::adam_step_by_hand(amsgrad, p, g));
  CHECK_FALSE(model::adam_step_by_hand(decay, p, g));
  CHECK_FALSE(model::adam_step_by_hand(rmsprop, p, g));
  torch::optim::Adam fresh({p}, torch::optim::AdamOptions(0.1));
  CHECK_FALSE(model::adam_step_by_hand(fresh, p, g));  // no state yet
  CHECK(torch::equal(p.detach(), before));
}

TEST_CASE("RMSprop by hand: 50 steps give LibTorch's parameters, average of squares and step count") {
  torch::manual_seed(3);
  const torch::Tensor start = torch::randn({1000});
  torch::Tensor mine = start.clone().requires_grad_(true), theirs = start.clone().requires_grad_(true);
  const auto options = torch::optim::RMSpropOptions(0.004).alpha(0.97).eps(0.01);
  torch::optim::RMSprop mine_rms({mine}, options), their_rms({theirs}, options);
  int by_hand = 0;
  for (int step = 0; step < 50; ++step) {
    const torch::Tensor g = torch::randn({1000}) * std::pow(10.0, step % 5 - 3) * (torch::rand({1000}) > 0.1);
    mine.mutable_grad() = g.clone();
    theirs.mutable_grad() = g.clone();
    if (model::rmsprop_step_by_hand(mine_rms, mine, mine.grad()))
      ++by_hand;
    else
      mine_rms.step();
    their_rms.step();
  }
  CHECK(by_hand == 49);  // the first step makes the state
  CHECK(torch::allclose(mine, theirs, 1e-6, 1e-7));
  auto& a = static_cast<torch::optim::RMSpropParamState&>(*mine_rms.state().begin()->second);
  auto& b = static_cast<torch::optim::RMSpropParamState&>(*their_rms.state().begin()->second);
  CHECK(a.step() == b.step());
  CHECK(torch::allclose(a.square_avg(), b.square_avg(), 1e-5, 1e-9));
  CHECK_FALSE(torch::allclose(mine, start, 1e-3, 1e-3));
}

TEST_CASE("RMSprop by hand: declines what it leaves out, touching nothing") {
  torch::Tensor p = torch::ones({10}).requires_grad_(true);
  const torch::Tensor g = torch::ones({10});
  p.mutable_grad() = g;
  torch::optim::RMSprop momentum({p}, torch::optim::RMSpropOptions(0.1).momentum(0.9));
  momentum.step();
  torch::optim::RMSprop centered({p}, torch::optim::RMSpropOptions(0.1).centered(true));
  centered.step();
  torch::optim::Adam adam({p}, torch::optim::AdamOptions(0.1));
  adam.step();
  const torch::Tensor before = p.detach().clone();
  CHECK_FALSE(model::rmsprop_step_by_hand(momentum, p, g));
  CHECK_FALSE(model::rmsprop_step_by_hand(centered, p, g));
  CHECK_FALSE(model::rmsprop_step_by_hand(adam, p, g));
  torch::optim::RMSprop fresh({p}, torch::optim::RMSpropOptions(0.1));
  CHECK_FALSE(model::rmsprop_step_by_hand(fresh, p, g));  // no state yet
  CHECK(torch::equal(p.detach(), before));
}
}
