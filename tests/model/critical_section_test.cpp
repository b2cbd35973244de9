// The critical section's guarantees, each checked under many threads and
// repeated: a violation that shows up once in a hundred runs still fails.
#include <doctest/doctest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "model/critical_section.hpp"
#include "model/shared_model_impl.hpp"

using namespace troupe::model;

namespace {
template <class F>
void on_threads(int count, F f) {
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t) threads.emplace_back(f, t);
  for (auto& t : threads) t.join();
}
}  // namespace

TEST_SUITE("model") {
TEST_CASE("atomic counter: every value is handed out exactly once (100 rounds)") {
  const int threads = 8, increments = 500;
  for (int round = 0; round < 100; ++round) {
    long counter = 0;  // plain, not atomic: only the section protects it
    critical_section cs("counter", {&counter});
    std::vector<std::vector<long>> seen(threads);
    on_threads(threads, [&](int t) {
      for (int k = 0; k < increments; ++k) seen[t].push_back(cs.run([&] { return counter++; }));
    });
    REQUIRE(counter == threads * increments);
    std::vector<int> times(threads * increments, 0);
    for (const auto& values : seen)
      for (long v : values) {
        REQUIRE(v >= 0);
        REQUIRE(v < threads * increments);
        ++times[v];
      }
    for (int n : times) REQUIRE(n == 1);
  }
}

TEST_CASE("entering a held section again raises an error instead of deadlocking") {
  critical_section cs("outer");
  CHECK_THROWS_WITH_AS(cs.run([&] { return cs.run([] { return 1; }); }),
                       doctest::Contains("entered again"), std::logic_error);
  CHECK_THROWS_AS(cs.run([&] { return cs.run_shared([] { return 1; }); }), std::logic_error);
  CHECK_THROWS_AS(cs.run_shared([&] { return cs.run_shared([] { return 1; }); }), std::logic_error);
  // After the error the section is free again, and other sections nest fine.
  critical_section other("other");
  CHECK(cs.run([&] { return other.run([] { return 7; }); }) == 7);
  CHECK_FALSE(cs.held_by_this_thread());
}

TEST_CASE("two sections may not claim one resource exclusively") {
  int resource = 0;
  critical_section first("first", {&resource});
  CHECK_THROWS_WITH_AS(critical_section("second", {&resource}),
                       doctest::Contains("'first' and 'second'"), std::logic_error);
  CHECK_THROWS_AS(critical_section("reader", {&resource}, claim::shared), std::logic_error);
  int table = 0;
  critical_section reader_a("reader a", {&table}, claim::shared);
  critical_section reader_b("reader b", {&table}, claim::shared);  // shared claims overlap
  CHECK_THROWS_AS(critical_section("writer", {&table}), std::logic_error);
  {
    int scratch = 0;
    critical_section once("once", {&scratch});
  }
  int scratch_again = 0;
  critical_section fresh("fresh", {&scratch_again});  // a destroyed section releases its claim
  CHECK(fresh.name() == "fresh");
}

TEST_CASE("two shared models' sections guard different parameters") {
  auto a = make_shared_model(mlp_spec(4, 2, {8}), 1);
  auto b = make_shared_model(mlp_spec(4, 2, {8}), 1);
  CHECK(current_version(*a) == 0);
  CHECK(current_version(*b) == 0);
}

TEST_CASE("no torn reads: every prediction sees exactly one parameter version (100 rounds)") {
  // A linear net (no hidden layer) whose parameters all equal the version v:
  // on an all-ones observation every logit and the value are 5 v exactly.
  // A forward pass that overlapped an update would mix versions. Both
  // forward passes: LibTorch's, and the one by hand (model/mlp_by_hand.hpp).
  for (int round = 0; round < 100; ++round) {
    net_spec spec = mlp_spec(4, 2, {});
    spec.by_hand = round % 2 == 0;
    auto model = make_shared_model(spec, 1);
    REQUIRE(model->by_hand.has_value() == spec.by_hand);
    {
      torch::NoGradGuard no_grad;
      for (auto& p : model->net->parameters()) p.fill_(0.0);
    }
    std::atomic<bool> writing{true};
    std::atomic<int> torn{0}, reads{0};
    std::thread writer([&] {
      for (int v = 1; v <= 20; ++v) {
        model->params.run([&] {
          torch::NoGradGuard no_grad;
          for (auto& p : model->net->parameters()) {
            p.fill_(double(v));
            std::this_thread::yield();  // widen the window a torn read would need
          }
          ++model->version;
        });
      }
      writing = false;
    });
    on_threads(3, [&](int) {
      const float ones[4] = {1, 1, 1, 1};
      prediction out;
      while (writing) {
        predict(*model, ones, nullptr, 1, out);
        const float expected = 5.0f * out.version;
        if (out.values[0] != expected || out.policy[0] != expected || out.policy[1] != expected)
          ++torn;
        ++reads;
      }
    });
    writer.join();
    REQUIRE(torn == 0);
    REQUIRE(current_version(*model) == 20);
  }
}

TEST_CASE("no lost or double-applied update: SGD lands on init minus every step (100 rounds)") {
  const int threads = 8, updates_each = 25;
  for (int round = 0; round < 100; ++round) {
    auto model = make_shared_model(mlp_spec(3, 2, {4}), 1);
    std::vector<torch::Tensor> initial;
    for (const auto& p : model->net->parameters()) initial.push_back(p.detach().clone());
    auto sgd = std::make_unique<torch::optim::SGD>(std::vector<torch::Tensor>{model->flat}, torch::optim::SGDOptions(1.0));
    // Thread t always submits gradient (t + 1) * 2^-6 in every element: exact in float.
    on_threads(threads, [&](int t) {
      const torch::Tensor grads = torch::full_like(model->flat, (t + 1) / 64.0);
      for (int k = 0; k < updates_each; ++k) apply_gradients(*model, *sgd, grads);
    });
    REQUIRE(current_version(*model) == std::uint64_t(threads * updates_each));
    // Sum of all steps: updates_each * (1 + ... + threads) / 64 per element.
    const double total = updates_each * (threads * (threads + 1) / 2) / 64.0;
    const auto params = model->net->parameters();
    for (size_t i = 0; i < params.size(); ++i)
      REQUIRE(torch::allclose(params[i], initial[i] - total, 0.0, 1e-5));
  }
}
}
