// troupe bench inference --net mlp|cnn --agents 1,4,16,64 --seconds S [--json FILE]
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <thread>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <caf/all.hpp>

#include "bench/inference_bench.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/messages/atoms.hpp"
#include "app/commands.hpp"
#include "run/config_loader.hpp"
#include "model/compute_runtime.hpp"

namespace troupe::app {

namespace {

struct bench_inference_options {
  bench::inference_bench_config bench;
  std::string json_path;
  int threads = 1;
};

void bench_inference(const bench_inference_options& opts) {
  model::set_compute_threads(opts.threads);
  const int reply_threads = opts.bench.batching.reply_threads_here();
  std::cout << "troupe bench inference: net " << opts.bench.net << " on " << opts.bench.device
            << ", " << opts.bench.rows << " observation(s) per request, " << opts.bench.seconds
            << " s per mode; agent threads "
            << (opts.bench.batch_scheduling ? "SCHED_BATCH" : "under the default policy")
            << "; " << reply_threads << " reply thread(s); " << model::describe_compute_runtime()
            << "\n";
  const bench::serving_floor floor = bench::measure_floor(opts.bench);
  std::printf("floor on this machine: thread wake-up round trip %.1f us (%.1f us of CPU); one "
              "request's forward pass (%d row%s) %.1f us\n",
              floor.wake_round_trip_us, floor.wake_round_trip_cpu_us, opts.bench.rows,
              opts.bench.rows == 1 ? "" : "s", floor.forward_one_request_us);
  std::printf("%-10s %7s %16s %10s %10s %10s %12s %8s %7s %7s %10s %11s\n", "mode", "agents",
              "predictions/s", "mean batch", "p50 us", "p99 us", "model bytes", "GPU %", "fwd %",
              "reply %", "fwd@mean", "cpu us/pred");
  caf::actor_system_config cfg;
  actors::configure_actor_system(cfg);
  caf::actor_system sys{cfg};
  const auto results = bench::run_inference_bench(sys, opts.bench, [](const auto& r) {
    if (!r.failed.empty()) {
      std::printf("%-10s %7d failed: %s\n", r.mode.c_str(), r.agents, r.failed.c_str());
      std::fflush(stdout);
      return;
    }
    auto percent = [](double x) { return x < 0 ? std::string("-") : std::to_string(int(x * 100 + 0.5)); };
    const std::string forward =
        r.forward_at_mean_batch_us < 0 ? "-" : std::to_string(int(r.forward_at_mean_batch_us + 0.5)) + " us";
    std::printf("%-10s %7d %16.0f %10.1f %10.1f %10.1f %12lld %8s %7s %7s %10s %11.1f\n", r.mode.c_str(),
                r.agents, r.predictions_per_s, r.mean_batch, r.p50_us, r.p99_us,
                static_cast<long long>(r.model_bytes),
                r.gpu_utilisation < 0 ? "-" : std::to_string(int(r.gpu_utilisation)).c_str(),
                percent(r.owner_forward_share).c_str(), percent(r.owner_reply_share).c_str(),
                forward.c_str(), r.cpu_us_per_prediction);
    std::fflush(stdout);
  });
  nlohmann::json j;
  j["net"] = opts.bench.net;
  j["seconds"] = opts.bench.seconds;
  j["device"] = opts.bench.device;
  j["agent_scheduling"] = opts.bench.batch_scheduling ? "batch" : "normal";
  j["rows_per_request"] = opts.bench.rows;
  j["reply_threads"] = reply_threads;
  j["max_batch"] = opts.bench.batching.max_batch;
  j["floor"] = {{"wake_round_trip_us", floor.wake_round_trip_us},
                {"wake_round_trip_cpu_us", floor.wake_round_trip_cpu_us},
                {"forward_one_request_us", floor.forward_one_request_us}};
  j["compute"] = model::describe_compute_runtime();
  j["cores"] = std::thread::hardware_concurrency();  // what the CPU cost per prediction divides
  j["results"] = nlohmann::json::array();
  for (const auto& r : results)
    j["results"].push_back({{"mode", r.mode},
                            {"agents", r.agents},
                            {"predictions_per_s", r.predictions_per_s},
                            {"requests_per_s", r.requests_per_s},
                            {"failed", r.failed.empty() ? nlohmann::json() : nlohmann::json(r.failed)},
                            {"forward_at_mean_batch_us", r.forward_at_mean_batch_us < 0
                                                             ? nlohmann::json()
                                                             : nlohmann::json(r.forward_at_mean_batch_us)},
                            {"mean_batch", r.mean_batch},
                            {"cpu_us_per_prediction", r.cpu_us_per_prediction},
                            {"p50_us", r.p50_us},
                            {"p99_us", r.p99_us},
                            {"model_bytes", r.model_bytes},
                            // null on the CPU, or without nvidia-smi
                            {"gpu_utilisation_percent", r.gpu_utilisation < 0
                                                            ? nlohmann::json()
                                                            : nlohmann::json(r.gpu_utilisation)},
                            // null outside the model-owner modes
                            {"owner_forward_share", r.owner_forward_share < 0
                                                        ? nlohmann::json()
                                                        : nlohmann::json(r.owner_forward_share)},
                            {"owner_reply_share", r.owner_reply_share < 0
                                                      ? nlohmann::json()
                                                      : nlohmann::json(r.owner_reply_share)}});
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << j.dump(2) << "\n";
    if (!out) throw config_error(opts.json_path + ": cannot be written");
  }
}

}  // namespace

void add_bench_inference_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<bench_inference_options>();
  auto* cmd = bench_command(cli)->add_subcommand(
      "inference", "predictions/s of the model-owner against a mutex and per-thread copies");
  cmd->add_option("--net", opts->bench.net,
                  "mlp (CartPole-sized, LibTorch's forward pass), mlp-by-hand (the same by model.by_hand's pass, a run's default), cnn (MinAtar-sized) or lstm (the mlp with an LSTM core)")
      ->check(CLI::IsMember({"mlp", "mlp-by-hand", "cnn", "lstm"}));
  cmd->add_option("--agents", opts->bench.agents, "agent counts, e.g. 1,4,16,64")
      ->delimiter(',')
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--rows", opts->bench.rows,
                  "observations per request (an agent's environments); predictions/s counts them")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  cmd->add_option("--reply-threads", opts->bench.batching.reply_threads,
                  "batched mode: threads that help the model-owner reply (as "
                  "batching.reply_threads; 0: " + run::batching_config::automatic_reply_threads() + ")")
      ->check(CLI::Range(0, 64))
      ->capture_default_str();
  cmd->add_option("--seconds", opts->bench.seconds, "seconds per mode and agent count")
      ->check(CLI::Range(0.05, 3600.0));
  cmd->add_option("--modes", opts->bench.modes,
                  "subset of batched,unbatched,mutex,copies,echo,batched-messages (echo: answered "
                  "at once with no forward pass, the request path's own ceiling; "
                  "batched-messages: batched with requests and replies as actor messages, the "
                  "cluster gateway's path, where the others ask through the owner's lane)")
      ->delimiter(',')
      ->check(CLI::IsMember(
          {"batched", "unbatched", "mutex", "copies", "echo", "batched-messages"}));
  cmd->add_option("--max-batch", opts->bench.batching.max_batch, "batched mode: observations per pass")
      ->check(CLI::Range(1, 65536));
  cmd->add_option("--max-wait-us", opts->bench.batching.max_wait_us,
                  "batched mode: how long a batch that is not full waits for company (as "
                  "batching.max_wait_us; 0: not at all)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->add_option_function<std::string>(
         "--agent-scheduling",
         [opts](const std::string& s) { opts->bench.batch_scheduling = s == "batch"; },
         "the requesters' threads: batch (SCHED_BATCH, as agents.batch_scheduling) or normal")
      ->check(CLI::IsMember({"batch", "normal"}))
      ->default_str("batch");
  cmd->add_option("--device", opts->bench.device, "where the network runs: cpu or cuda:N")
      ->check([](const std::string& d) { return model::device_problem(d); });
  cmd->add_option("--json", opts->json_path, "write the results as JSON");
  cmd->add_option("--threads", opts->threads, "LibTorch intra-op threads (and OpenBLAS threads)")
      ->check(CLI::Range(1, 256));
  cmd->callback([opts, &exit_code] {
    bench_inference(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
