// judge_parameters: the judge sees the current parameters, no update lands
// while it runs, and a passing verdict refuses every later update.
// (REQUIRE only: LibTorch's logging headers define their own CHECK.)
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "model/shared_model_impl.hpp"

using namespace troupe::model;

namespace {
torch::Tensor ones_for(shared_model& m) {
  return torch::ones_like(m.flat);
}
}  // namespace

TEST_SUITE("model") {
TEST_CASE("judge_parameters: updates wait while judging; the copy is the current version") {
  for (int round = 0; round < 20; ++round) {
    auto model = make_shared_model(mlp_spec(4, 2, {8}), round + 1);
    auto sgd = std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{model->flat}, torch::optim::SGDOptions(0.01));
    const auto grads = ones_for(*model);
    std::atomic<bool> stop{false};
    std::atomic<long> applied{0};
    std::thread updater([&] {
      while (!stop.load()) {
        if (apply_gradients(*model, *sgd, grads)) ++applied;
      }
    });
    while (applied.load() < 5) std::this_thread::yield();
    const float obs[4] = {0.1f, -0.2f, 0.3f, 0.05f};
    std::uint64_t before = 0, after = 0, judged_version = 0;
    prediction judged;
    const bool verdict = judge_parameters(*model, [&](shared_model& copy) {
      // Read directly: this thread holds the section, and current_version
      // would enter it again.
      before = model->version;
      judged_version = current_version(copy);
      predict(copy, obs, nullptr, 1, judged);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      after = model->version;
      return false;
    });
    REQUIRE_FALSE(verdict);
    REQUIRE(after == before);  // no update landed while judging
    REQUIRE(judged_version == before);
    REQUIRE(judged.version == before);
    const long seen = applied.load();
    while (applied.load() < seen + 3) std::this_thread::yield();  // not frozen
    stop = true;
    updater.join();
    REQUIRE(current_version(*model) == std::uint64_t(applied.load()));
  }
}

TEST_CASE("judge_parameters: a passing verdict freezes the parameters it judged") {
  auto model = make_shared_model(mlp_spec(4, 2, {8}), 7);
  auto sgd = std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{model->flat}, torch::optim::SGDOptions(0.01));
  const auto grads = ones_for(*model);
  REQUIRE(apply_gradients(*model, *sgd, grads) == std::optional<std::uint64_t>(1));
  const float obs[4] = {0.3f, 0.1f, -0.4f, 0.2f};
  prediction judged, after;
  REQUIRE(judge_parameters(*model, [&](shared_model& copy) {
    predict(copy, obs, nullptr, 1, judged);
    return true;
  }));
  REQUIRE_FALSE(apply_gradients(*model, *sgd, grads).has_value());
  REQUIRE(current_version(*model) == 1);
  predict(*model, obs, nullptr, 1, after);
  REQUIRE(after.version == judged.version);
  REQUIRE(after.policy == judged.policy);
  REQUIRE(after.values == judged.values);
}
}
