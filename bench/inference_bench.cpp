#include "bench/inference_bench.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include <sys/resource.h>

#include "actors/agent_thread.hpp"
#include "actors/errors.hpp"
#include "actors/model_owner.hpp"
#include "actors/predict_client.hpp"
#include "model/gpu_monitor.hpp"

namespace troupe::bench {

using namespace actors;

namespace {

using clock_type = std::chrono::steady_clock;

// CPU seconds this process has used, user and kernel, on all its threads:
// the cost of a mode's predictions wherever it lands (wake-ups, messages,
// forward passes), where throughput alone hides CPU left idle.
double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

clock_type::duration seconds_of(double seconds) {
  return std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(seconds));
}

// What one requester measured.
struct requester_log {
  std::int64_t answered = 0;
  std::vector<float> latency_us;
};

// Microseconds per call of `f`: the median of 5 timings of `calls` calls.
template <class F>
double time_calls(int calls, F f) {
  std::vector<double> us;
  for (int rep = 0; rep < 5; ++rep) {
    const auto start = clock_type::now();
    for (int i = 0; i < calls; ++i) f();
    us.push_back(std::chrono::duration<double, std::micro>(clock_type::now() - start).count() / calls);
  }
  std::sort(us.begin(), us.end());
  return us[2];
}

std::vector<float> random_observation(int size, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(0.f, 1.f);
  std::vector<float> obs(size);
  for (float& x : obs) x = u(rng) < 0.5f ? 0.f : 1.f;  // binary, like MinAtar boards
  return obs;
}

inference_result summarise(const std::string& mode, int agents, const inference_bench_config& config,
                           std::vector<requester_log>& logs, double cpu_seconds) {
  inference_result r;
  r.mode = mode;
  r.agents = agents;
  std::vector<float> all;
  for (auto& log : logs) {
    r.requests_per_s += log.answered;
    all.insert(all.end(), log.latency_us.begin(), log.latency_us.end());
  }
  r.requests_per_s /= config.seconds;
  r.predictions_per_s = r.requests_per_s * config.rows;
  if (r.predictions_per_s > 0)
    r.cpu_us_per_prediction = cpu_seconds * 1e6 / (r.predictions_per_s * config.seconds);
  if (!all.empty()) {
    auto at = [&](double q) {
      auto it = all.begin() + static_cast<std::ptrdiff_t>(q * (all.size() - 1));
      std::nth_element(all.begin(), it, all.end());
      return double(*it);
    };
    r.p50_us = at(0.50);
    r.p99_us = at(0.99);
  }
  return r;
}

// Closed loop on plain threads: `predict_once(thread)` answers one request.
// Returns the CPU seconds the process used meanwhile.
template <class Predict>
double run_threads(int agents, const inference_bench_config& config,
                   std::vector<requester_log>& logs, Predict predict_once) {
  const double cpu_before = process_cpu_seconds();
  const double seconds = config.seconds;
  const clock_type::time_point deadline = clock_type::now() + seconds_of(seconds);
  // A thread whose prediction fails (a GPU out of memory for this many
  // copies) stops them all; the caller gets its exception.
  std::mutex failure_mutex;
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < agents; ++t)
    threads.emplace_back([&, t] {
      if (config.batch_scheduling) schedule_this_thread_as_batch();
      auto& log = logs[t];
      try {
        while (!failed.load()) {
          const auto start = clock_type::now();
          if (start >= deadline) break;
          predict_once(t);
          log.latency_us.push_back(
              std::chrono::duration<float, std::micro>(clock_type::now() - start).count());
          ++log.answered;
        }
      } catch (...) {
        std::lock_guard<std::mutex> lock(failure_mutex);
        if (!failure) failure = std::current_exception();
        failed = true;
      }
    });
  for (auto& t : threads) t.join();
  if (failure) std::rethrow_exception(failure);
  return process_cpu_seconds() - cpu_before;
}

// A requester actor: detached like an agent, one request in flight, asking
// through the owner's lane as agents do, or by messages when it has none.
struct requester_state {
  predict_client owner;
  bool asking = false;  // ask_until_deadline() is looping
  bool done = false;
  clock_type::time_point deadline, sent;
  requester_log* log = nullptr;
  static inline const char* name = "bench_requester";
};

using requester_actor = caf::typed_actor<caf::reacts_to<start_atom>>;
using requester_pointer = requester_actor::stateful_pointer<requester_state>;

void answered(requester_state& st, const predict_reply& reply) {
  st.owner.request().states = reply.states;  // a recurrent net carries its state on
  st.log->latency_us.push_back(
      std::chrono::duration<float, std::micro>(clock_type::now() - st.sent).count());
  ++st.log->answered;
}

// One request after another until the deadline: through the lane the
// answers come on this thread and it loops here; by message each answer
// comes as a message and asks again from its handler.
void ask_until_deadline(requester_pointer self) {
  auto& st = self->state;
  if (st.asking) return;
  st.asking = true;
  for (bool answered_here = true; answered_here && !st.done;) {
    st.sent = clock_type::now();
    if (st.sent >= st.deadline) {
      st.done = true;
      self->quit();
      break;
    }
    answered_here = st.owner.ask(
        self,
        [=](const predict_reply& reply) {
          answered(self->state, reply);
          ask_until_deadline(self);  // at once when the loop goes on
        },
        [=](const caf::error& err) {
          self->state.done = true;
          self->quit(err);
        });
  }
  st.asking = false;
}

requester_actor::behavior_type bench_requester(requester_pointer self, model_owner_actor owner,
                                               std::shared_ptr<predict_lane> lane,
                                               std::vector<float> obs, int obs_size,
                                               int state_size, requester_log* log,
                                               clock_type::time_point deadline,
                                               bool batch_scheduling) {
  self->state.owner = predict_client(caf::actor_cast<predict_service>(owner), std::move(lane));
  const int rows = int(obs.size()) / obs_size;
  self->state.owner.request() =
      predict_request{0, rows, std::move(obs), std::vector<float>(size_t(rows) * state_size)};
  self->state.log = log;
  self->state.deadline = deadline;
  return {[=](start_atom) {
    if (batch_scheduling) schedule_this_thread_as_batch();  // on its own thread
    ask_until_deadline(self);
  }};
}

// The "echo" mode's server: a detached actor that answers every request at
// once with a reply of the right size and no forward pass. What it reaches
// is the request path's own ceiling on this machine: the lane (or messages)
// and the wake-up of every requester, with nothing computed.
struct echo_state {
  std::shared_ptr<predict_lane> lane;
  std::vector<predict_slot*> arrived;
  static inline const char* name = "bench_echo";
};

void echo_into(const predict_request& req, int action_width, predict_reply& reply) {
  reply.actions.assign(size_t(req.rows) * action_width, 0.f);
  reply.logp.assign(size_t(req.rows), 0.f);
  reply.values.assign(size_t(req.rows), 0.f);
  reply.states = req.states;
}

caf::behavior echo_server(caf::stateful_actor<echo_state>* self, int action_width,
                          std::shared_ptr<predict_lane> lane) {
  self->state.lane = std::move(lane);
  self->attach_functor([lane = self->state.lane] {
    if (lane) lane->close(make_error(errc::run_ended, "the echo server has stopped"));
  });
  return {
      [=](const predict_request& req) {
        predict_reply reply;
        echo_into(req, action_width, reply);
        return reply;
      },
      [=](lane_atom) {
        auto& st = self->state;
        st.lane->take_announced(st.arrived);
        for (predict_slot* slot : st.arrived) {
          echo_into(slot->request, action_width, slot->reply);
          slot->answer();
        }
        st.arrived.clear();
      },
      [](stats_atom) { return batch_stats{}; },
  };
}

inference_result run_owner_mode(caf::actor_system& sys, const std::string& mode, int agents,
                                const inference_bench_config& config,
                                const model::net_spec& spec) {
  auto model = model::make_shared_model(spec, 1, config.device);
  run::batching_config batching = config.batching;
  if (mode == "unbatched") batching.max_batch = 1, batching.max_wait_us = 0;
  model::warm_up(*model, batching.max_batch);
  // Every mode but batched-messages asks through the lane, as agents do.
  auto lane = mode == "batched-messages" ? nullptr : std::make_shared<predict_lane>();
  model_owner_actor owner;
  if (mode == "echo") {
    auto echo = sys.spawn<caf::detached>(echo_server, spec.continuous ? spec.action_size : 1, lane);
    lane->serve_by(echo.address());
    owner = caf::actor_cast<model_owner_actor>(echo);
  } else {
    owner = spawn_model_owner(sys, model, batching, /*seed=*/1, lane);
  }
  std::vector<requester_log> logs(agents);
  caf::scoped_actor self{sys};
  const clock_type::time_point deadline = clock_type::now() + seconds_of(config.seconds);
  std::vector<requester_actor> requesters;
  for (int a = 0; a < agents; ++a) {
    requesters.push_back(sys.spawn<caf::detached>(
        bench_requester, owner, lane, random_observation(spec.obs_size * config.rows, a), spec.obs_size,
        spec.state_size(), &logs[a], deadline, config.batch_scheduling));
    self->monitor(requesters.back());
  }
  const double cpu_before = process_cpu_seconds();
  for (auto& r : requesters) self->send(r, start_atom_v);
  for (int a = 0; a < agents; ++a) self->receive([](const caf::down_msg&) {});
  inference_result result =
      summarise(mode, agents, config, logs, process_cpu_seconds() - cpu_before);
  if (mode != "echo")
    self->request(owner, caf::infinite, stats_atom_v)
        .receive(
            [&](const batch_stats& s) {
              result.mean_batch = s.forward_passes ? double(s.observations) / s.forward_passes : 0;
              result.owner_forward_share = s.forward_seconds / config.seconds;
              result.owner_reply_share = s.reply_seconds / config.seconds;
            },
            [](caf::error&) {});
  self->send_exit(owner, caf::exit_reason::user_shutdown);
  result.model_bytes = model::parameter_bytes(*model);
  if (mode == "echo") return result;
  // What one forward pass of the batches it made costs, alone.
  const int mean = std::max(1, int(result.mean_batch + 0.5));
  const std::vector<float> obs = random_observation(spec.obs_size * mean, 7);
  model::prediction out;
  result.forward_at_mean_batch_us =
      time_calls(50, [&] { model::predict(*model, obs.data(), nullptr, mean, out); });
  result.model_bytes = model::parameter_bytes(*model);
  return result;
}

// Each requester thread's observation, recurrent state (carried from one
// answer to the next) and output.
struct thread_inputs {
  thread_inputs(int agents, const model::net_spec& spec, int rows) : rows(rows), out(size_t(agents)) {
    for (int a = 0; a < agents; ++a) {
      obs.push_back(random_observation(spec.obs_size * rows, a));
      states.emplace_back(size_t(spec.state_size()) * rows, 0.f);
    }
  }
  void predict(model::shared_model& model, int t) {
    model::predict(model, obs[t].data(), states[t].empty() ? nullptr : states[t].data(), rows, out[t]);
    states[t].swap(out[t].states);
  }
  int rows;
  std::vector<std::vector<float>> obs, states;
  std::vector<model::prediction> out;
};

inference_result run_mutex_mode(int agents, const inference_bench_config& config,
                                const model::net_spec& spec) {
  auto model = model::make_shared_model(spec, 1, config.device);
  model::warm_up(*model, config.rows);
  std::mutex mutex;
  std::vector<requester_log> logs(agents);
  thread_inputs in(agents, spec, config.rows);
  const double cpu = run_threads(agents, config, logs, [&](int t) {
    std::lock_guard<std::mutex> lock(mutex);
    in.predict(*model, t);
  });
  inference_result result = summarise("mutex", agents, config, logs, cpu);
  result.model_bytes = model::parameter_bytes(*model);
  return result;
}

inference_result run_copies_mode(int agents, const inference_bench_config& config,
                                 const model::net_spec& spec) {
  std::vector<std::shared_ptr<model::shared_model>> copies;
  for (int a = 0; a < agents; ++a) {
    copies.push_back(model::make_shared_model(spec, 1, config.device));  // same seed: same parameters
    model::warm_up(*copies.back(), config.rows);
  }
  std::vector<requester_log> logs(agents);
  thread_inputs in(agents, spec, config.rows);
  const double cpu = run_threads(agents, config, logs, [&](int t) { in.predict(*copies[t], t); });
  inference_result result = summarise("copies", agents, config, logs, cpu);
  result.model_bytes = model::parameter_bytes(*copies.front()) * agents;
  return result;
}

}  // namespace

serving_floor measure_floor(const inference_bench_config& config) {
  serving_floor floor;
  // Two threads hand a token back and forth through a condition variable,
  // each sleeping until the other wakes it: two wake-ups per round trip.
  {
    std::mutex mutex;
    std::condition_variable changed;
    int turn = 0;
    bool stop = false;
    std::thread other([&] {
      std::unique_lock<std::mutex> lock(mutex);
      while (true) {
        changed.wait(lock, [&] { return turn == 1 || stop; });
        if (stop) return;
        turn = 0;
        changed.notify_all();
      }
    });
    auto round_trip = [&] {
      std::unique_lock<std::mutex> lock(mutex);
      turn = 1;
      changed.notify_all();
      changed.wait(lock, [&] { return turn == 0; });
    };
    floor.wake_round_trip_us = time_calls(400, round_trip);
    // The CPU both threads spend per round trip, kernel included: what two
    // wake-ups cost the machine, whichever cores they land on.
    const int trips = 4000;
    const double cpu_before = process_cpu_seconds();
    for (int i = 0; i < trips; ++i) round_trip();
    floor.wake_round_trip_cpu_us = (process_cpu_seconds() - cpu_before) * 1e6 / trips;
    {
      std::lock_guard<std::mutex> lock(mutex);
      stop = true;
    }
    changed.notify_all();
    other.join();
  }
  const model::net_spec spec = bench_net_spec(config.net);
  auto model = model::make_shared_model(spec, 1, config.device);
  model::warm_up(*model, config.rows);
  const std::vector<float> obs = random_observation(spec.obs_size * config.rows, 3);
  model::prediction out;
  floor.forward_one_request_us =
      time_calls(200, [&] { model::predict(*model, obs.data(), nullptr, config.rows, out); });
  return floor;
}

model::net_spec bench_net_spec(const std::string& net) {
  // mlp: LibTorch's forward pass, the one docs/serving.md's figures were
  // measured with; mlp-by-hand: model/mlp_by_hand.hpp's, a run's default.
  if (net == "mlp" || net == "mlp-by-hand") {
    model::net_spec spec = model::mlp_spec(4, 2, {64, 64});
    spec.by_hand = net == "mlp-by-hand";
    return spec;
  }
  if (net == "cnn") {
    model::net_spec spec;
    spec.kind = "cnn";
    spec.obs_shape = {10, 10, 4};
    spec.obs_size = 400;
    spec.action_size = 6;
    spec.hidden = {128};
    return spec;
  }
  if (net == "lstm") {
    model::net_spec spec = bench_net_spec("mlp");
    spec.recurrent = {"lstm", 64};
    return spec;
  }
  throw std::invalid_argument("unknown bench net '" + net + "' (expected mlp, mlp-by-hand, cnn or lstm)");
}

std::vector<inference_result> run_inference_bench(
    caf::actor_system& sys, const inference_bench_config& config,
    const std::function<void(const inference_result&)>& on_result) {
  const model::net_spec spec = bench_net_spec(config.net);
  std::vector<inference_result> results;
  for (int agents : config.agents)
    for (const auto& mode : config.modes) {
      inference_result r;
      model::gpu_monitor gpu(config.device);
      try {
        if (mode == "batched" || mode == "batched-messages" || mode == "unbatched" ||
            mode == "echo")
          r = run_owner_mode(sys, mode, agents, config, spec);
        else if (mode == "mutex")
          r = run_mutex_mode(agents, config, spec);
        else if (mode == "copies")
          r = run_copies_mode(agents, config, spec);
        else
          throw std::invalid_argument("unknown bench mode '" + mode + "'");
      } catch (const std::invalid_argument&) {
        throw;
      } catch (const std::exception& e) {
        // A mode this machine cannot run at this size (1024 model copies on a
        // GPU ran out of memory): say so in its row and go on.
        r = inference_result{};
        r.mode = mode;
        r.agents = agents;
        r.failed = e.what();
        r.failed = r.failed.substr(0, r.failed.find('\n'));
      }
      r.gpu_utilisation = gpu.stop().value_or(-1.0);
      if (on_result) on_result(r);
      results.push_back(r);
    }
  return results;
}

}  // namespace troupe::bench
