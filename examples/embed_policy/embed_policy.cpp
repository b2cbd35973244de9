// Runs a policy exported by `troupe export` outside Troupe: plays CartPole
// episodes with it in a loop of its own, or times it.
//
//   embed_policy POLICY.pt [--episodes N] [--seed S] [--sample]
//   embed_policy POLICY.pt --latency CALLS
//
// Playing needs a CartPole-v1 policy (the loop below is CartPole's physics,
// as Gymnasium's CartPole-v1 defines them); --latency takes any policy and
// prints the microseconds one act() takes for one observation (batch 1).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <troupe/policy.hpp>

namespace {

// CartPole-v1: a pole on a cart, pushed left or right; +1 a step until the
// pole falls past 12 degrees or the cart leaves [-2.4, 2.4], at most 500.
class cartpole {
 public:
  explicit cartpole(std::uint64_t seed) : rng_(seed) {}

  std::vector<float> reset() {
    std::uniform_real_distribution<double> start(-0.05, 0.05);
    for (double& v : s_) v = start(rng_);
    steps_ = 0;
    return observation();
  }

  // Pushes (action 1: right, 0: left); returns whether the episode ended.
  bool step(int action) {
    const double gravity = 9.8, cart_mass = 1.0, pole_mass = 0.1, half_length = 0.5;
    const double total_mass = cart_mass + pole_mass, pole_moment = pole_mass * half_length;
    const double force = action == 1 ? 10.0 : -10.0, tau = 0.02;
    const double x = s_[0], x_dot = s_[1], theta = s_[2], theta_dot = s_[3];
    const double cos_t = std::cos(theta), sin_t = std::sin(theta);
    const double temp = (force + pole_moment * theta_dot * theta_dot * sin_t) / total_mass;
    const double theta_acc = (gravity * sin_t - cos_t * temp) /
                             (half_length * (4.0 / 3.0 - pole_mass * cos_t * cos_t / total_mass));
    const double x_acc = temp - pole_moment * theta_acc * cos_t / total_mass;
    s_ = {x + tau * x_dot, x_dot + tau * x_acc, theta + tau * theta_dot, theta_dot + tau * theta_acc};
    ++steps_;
    const double limit = 12 * 2 * M_PI / 360;
    return std::abs(s_[0]) > 2.4 || std::abs(s_[2]) > limit || steps_ >= 500;
  }

  std::vector<float> observation() const { return {float(s_[0]), float(s_[1]), float(s_[2]), float(s_[3])}; }

 private:
  std::mt19937_64 rng_;
  std::vector<double> s_ = std::vector<double>(4, 0.0);
  int steps_ = 0;
};

int usage(const std::string& why) {
  std::cerr << "embed_policy: " << why
            << "\nusage: embed_policy POLICY.pt [--episodes N] [--seed S] [--sample] | --latency CALLS\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage("give the exported policy's file");
  int episodes = 20, latency_calls = 0;
  std::uint64_t seed = 1;
  bool sample = false;
  for (int i = 2; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--sample") {
      sample = true;
    } else if (i + 1 < argc && (flag == "--episodes" || flag == "--seed" || flag == "--latency")) {
      const long value = std::strtol(argv[++i], nullptr, 10);
      if (value < 1) return usage(flag + " needs a positive number");
      if (flag == "--episodes") episodes = static_cast<int>(value);
      if (flag == "--latency") latency_calls = static_cast<int>(value);
      if (flag == "--seed") seed = static_cast<std::uint64_t>(value);
    } else {
      return usage("unknown argument '" + flag + "'");
    }
  }
  try {
    troupe::policy pi(argv[1], seed);
    std::cout << "policy for " << pi.env_id() << ": " << pi.observation_size() << " observation floats, "
              << (pi.discrete() ? "Discrete(" : "Box(") << pi.action_count() << ")"
              << (pi.recurrent() ? ", recurrent" : "") << ", parameter version " << pi.parameter_version()
              << "\n";
    if (latency_calls > 0) {
      // Five timings of CALLS calls at batch 1; the median, in microseconds.
      const std::vector<float> observation(static_cast<size_t>(pi.observation_size()), 0.1f);
      std::vector<double> per_call;
      for (int repeat = 0; repeat < 5; ++repeat) {
        const auto start = std::chrono::steady_clock::now();
        for (int c = 0; c < latency_calls; ++c) pi.act(observation);
        per_call.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                               .count() / latency_calls);
      }
      std::sort(per_call.begin(), per_call.end());
      std::cout << "latency_us min " << per_call.front() << " median " << per_call[2] << " max "
                << per_call.back() << "\n";
      return 0;
    }
    if (pi.env_id() != "CartPole-v1") return usage("playing needs a CartPole-v1 policy, not " + pi.env_id());
    double total = 0;
    cartpole env(seed);
    for (int e = 0; e < episodes; ++e) {
      std::vector<float> observation = env.reset();
      pi.reset();
      double episode_return = 0;
      for (bool done = false; !done;) {
        const int action = static_cast<int>(pi.act(observation, !sample)[0]);
        done = env.step(action);
        episode_return += 1;
        observation = env.observation();
      }
      total += episode_return;
    }
    std::cout << "episodes " << episodes << " mean_return " << total / episodes << "\n";
  } catch (const std::exception& e) {
    std::cerr << "embed_policy: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
