#include "bench/learner_bench.hpp"

#include <chrono>
#include <random>
#include <sstream>
#include <stdexcept>

#include <torch/torch.h>

#include "algo/act_from_policy.hpp"
#include "algo/learner.hpp"
#include "bench/env_bench.hpp"
#include "catalog/registry.hpp"
#include "model/compute_runtime.hpp"
#include "model/shared_model_impl.hpp"
#include "run/component_configs.hpp"

namespace troupe::bench {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// What a bench case trains: the network and learner of `config` for its environment.
struct bench_case {
  envs::env_spec env;
  model::net_spec net;
};

bench_case case_of(const run::run_config& config) {
  bench_case c;
  c.env = catalog::spec_of(config.env);
  c.net = run::net_spec_for(config, c.env);
  return c;
}

double macs_of(const bench_case& c, const model::shared_model& m) {
  double macs = 0;
  for (const auto& item : m.net->named_parameters()) {
    const std::string& name = item.key();
    const torch::Tensor& w = item.value();
    const bool weight = name.size() >= 6 && (name.compare(name.size() - 6, 6, "weight") == 0 ||
                                             name.find("weight_ih") != std::string::npos ||
                                             name.find("weight_hh") != std::string::npos);
    if (!weight) continue;
    if (w.dim() == 2) {
      macs += double(w.numel());  // a linear layer or a recurrent cell's gates
    } else if (w.dim() == 4) {
      // A 3x3 valid convolution: every weight once per output position.
      model::image_input image = c.net.whole_image();
      if (name.rfind("encoder_", 0) == 0) image = c.net.image_inputs.at(std::stoul(name.substr(8)));
      macs += double(w.numel()) * (image.height() - w.size(2) + 1) * (image.width() - w.size(3) + 1);
    }
  }
  return macs;
}

std::string describe(const model::net_spec& net) {
  std::ostringstream out;
  out << net.kind;
  if (net.kind == "cnn") out << " " << net.conv_channels << "ch";
  for (size_t i = 0; i < net.hidden.size(); ++i) out << (i || net.kind == "cnn" ? "-" : " ") << net.hidden[i];
  if (net.recurrent.enabled()) out << " + " << net.recurrent.kind << " " << net.recurrent.size;
  out << (net.shared_trunk ? ", shared trunk" : ", own value trunk");
  return out.str();
}

// A rollout of the config's shapes: random observations, actions that fit
// the action space, no episode ends (a learner's cost does not depend on
// the numbers).
algo::rollout synthetic_rollout(const run::run_config& config, const bench_case& c, std::uint32_t agent,
                                std::mt19937_64& rng) {
  algo::rollout r;
  r.agent_id = agent;
  r.n_steps = config.algo.n_steps;
  r.n_envs = config.env.envs_per_agent;
  r.obs_size = c.net.obs_size;
  r.action_size = algo::action_width(c.net);
  r.state_size = c.net.state_size();
  const std::int64_t n = r.samples();
  std::normal_distribution<float> normal;
  r.observations.resize(size_t(n + r.n_envs) * r.obs_size);
  for (float& o : r.observations) o = normal(rng);
  r.initial_states.assign(size_t(r.n_envs) * r.state_size, 0.f);
  const std::vector<int> heads = c.net.continuous ? std::vector<int>{} : c.net.heads();
  for (std::int64_t i = 0; i < n; ++i)
    for (int j = 0; j < r.action_size; ++j)
      r.actions.push_back(size_t(j) < heads.size()
                              ? float(std::uniform_int_distribution<int>(0, heads[size_t(j)] - 1)(rng))
                              : normal(rng));
  r.rewards.assign(size_t(n), 1.f);
  r.terminated.assign(size_t(n), 0);
  r.truncated.assign(size_t(n), 0);
  r.behaviour_logp.assign(size_t(n), -1.f);
  r.behaviour_version.assign(size_t(n), 0);
  return r;
}

}  // namespace

double forward_macs_per_sample(const run::run_config& config) {
  const bench_case c = case_of(config);
  return macs_of(c, *model::make_shared_model(c.net, 1));
}

learner_bench_result bench_learner(const run::run_config& config, const std::string& name, int batches,
                                   int repeats) {
  if (batches < 1 || repeats < 1) throw std::invalid_argument("batches and repeats must be at least 1");
  model::use_compute_threads_here();
  const bench_case c = case_of(config);
  learner_bench_result result;
  result.name = name;
  result.network = describe(c.net);
  result.algorithm = config.algo.kind == algo::algo_kind::ppo ? "ppo" : "a3c";
  const int rollouts = config.algo.batch_rollouts;
  const std::int64_t batch_samples = std::int64_t(rollouts) * config.algo.n_steps * config.env.envs_per_agent;
  const int minibatches = config.algo.kind == algo::algo_kind::ppo ? config.algo.ppo.minibatches : 1;
  // A recurrent network's minibatches are whole environment sequences.
  result.minibatch = int(batch_samples / minibatches);
  auto model = model::make_shared_model(c.net, config.run.seed);
  result.flops_per_sample = 6.0 * macs_of(c, *model);  // 2 per multiply-add; backward twice the forward
  algo::learner learner(model, run::learner_config_for(config, c.env, config.run.seed));
  result.passes = learner.trains_by_hand() ? "by hand" : "LibTorch";
  std::mt19937_64 rng(config.run.seed);
  std::vector<std::vector<algo::rollout>> prepared;
  for (int b = 0; b <= batches; ++b) {
    std::vector<algo::rollout> batch;
    for (int i = 0; i < rollouts; ++i) batch.push_back(synthetic_rollout(config, c, std::uint32_t(i), rng));
    prepared.push_back(std::move(batch));
  }
  learner.train(prepared[0]);  // warms the allocator and the optimiser's state
  for (int rep = 0; rep < repeats; ++rep) {
    std::int64_t steps = 0;
    const auto t0 = clock_type::now();
    for (int b = 1; b <= batches; ++b) steps += learner.train(prepared[size_t(b)]).updates;
    const double seconds = seconds_since(t0);
    if (steps == 0) throw std::runtime_error(name + ": the learner applied no update");
    result.repeat_us_per_step.push_back(1e6 * seconds / double(steps));
  }
  result.us_per_step = median(result.repeat_us_per_step);
  result.achieved_gflops = result.flops_per_sample * result.minibatch / (result.us_per_step * 1e3);

  // The same network, forward and backward at a large batch: what its layer
  // shapes allow on this machine once per-operation costs are amortised.
  result.large_batch = c.net.kind == "cnn" ? 1024 : 8192;
  torch::Tensor input = torch::randn({result.large_batch, c.net.obs_size});
  torch::Tensor states = torch::zeros({result.large_batch, c.net.state_size()});
  const auto pass = [&] {
    const model::actor_critic_output out = model->net->forward(input, states);
    (out.policy.sum() + out.values.sum()).backward();
  };
  pass();
  std::vector<double> gflops;
  for (int rep = 0; rep < repeats; ++rep) {
    int passes = 0;
    const auto t0 = clock_type::now();
    do {
      pass();
      ++passes;
    } while (seconds_since(t0) < 0.3);
    gflops.push_back(result.flops_per_sample * result.large_batch * passes / seconds_since(t0) / 1e9);
  }
  result.large_batch_gflops = median(gflops);
  return result;
}

double matmul_gflops(int n, double seconds, int repeats) {
  model::use_compute_threads_here();
  torch::NoGradGuard no_grad;
  const torch::Tensor a = torch::randn({n, n}), b = torch::randn({n, n});
  torch::Tensor c = torch::mm(a, b);
  std::vector<double> gflops;
  for (int rep = 0; rep < repeats; ++rep) {
    int products = 0;
    const auto t0 = clock_type::now();
    do {
      torch::mm_out(c, a, b);
      ++products;
    } while (seconds_since(t0) < seconds);
    gflops.push_back(2.0 * n * n * double(n) * products / seconds_since(t0) / 1e9);
  }
  return median(gflops);
}

}  // namespace troupe::bench
