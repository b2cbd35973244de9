// Watching training and trained policies through the real binary, headless:
// `train --view`, `play`, and `view --connect` to `train --view-port` and to
// a cluster run's `serve --view-port`.
#include <doctest/doctest.h>

#include <signal.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/e2e/process.hpp"
#include "tests/e2e/test_files.hpp"
#include "tests/e2e/test_pki.hpp"
#include "tests/viewer/headless.hpp"
#include "viewer/overlay_panel.hpp"

namespace fs = std::filesystem;
using namespace troupe::tests;

namespace {

const std::string cartpole = std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole.yaml";
// A fixed number of steps, the target out of reach, no progress lines.
const std::string fixed_steps =
    " --set run.stop.mean_return=100000 --set run.stop.confirm_episodes=0 --set log.progress=false";

void check_accounts(const nlohmann::json& s) {
  CHECK(s["samples_collected"].get<long>() ==
        s["samples_trained"].get<long>() + s["samples_dropped"].get<long>());
  CHECK(s["samples_collected"] == s["env_steps"]);
  CHECK(s["updates"].get<long>() > 0);
}

// The window's panel: the title and the highlighted chosen action are drawn.
void check_panel(const troupe::envs::rgb_frame& shot) {
  const auto counts = colour_counts(shot);
  CHECK(count_of(counts, {126, 198, 250}) > 50);  // title text
  CHECK(count_of(counts, {238, 188, 72}) > 20);   // the chosen action's label
}

// The frame stream's port and, when the run made one up, its token, from
// the run's log ("" until it is there, for up to 15 s).
std::pair<std::string, std::string> published_stream(const std::string& log) {
  const std::regex published(
      R"(frame stream on 127\.0\.0\.1:(\d+)( \(TLS\))? \(watch it with: .* --token (\S+)[^)]*\))");
  for (int i = 0; i < 300; ++i) {
    std::smatch m;
    const std::string text = read_file(log);
    if (std::regex_search(text, m, published)) return {m[1], m[3]};
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return {"", ""};
}

// Sum and count of the "episode k return R" lines `play` prints.
std::vector<double> played_returns(const std::string& output) {
  std::vector<double> out;
  const std::regex line(R"(troupe play: episode \d+ return ([-0-9.e]+))");
  for (std::sregex_iterator it(output.begin(), output.end(), line), end; it != end; ++it)
    out.push_back(std::stod((*it)[1]));
  return out;
}

}  // namespace

TEST_SUITE("viewer") {
TEST_CASE("train --view shows CartPole live and the run still ends with a correct summary") {
  const fs::path dir = empty_dir("train_view");
  const std::string png = (dir / "train.png").string();
  const auto r = troupe_headless("train " + cartpole + " --run-dir " + (dir / "run").string() +
                                 fixed_steps + " --set run.stop.env_steps=600000" +
                                 " --view --frames 10 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("10 frames shown") != std::string::npos);
  CHECK(r.output.find("training goes on") != std::string::npos);  // --frames closed the view only
  const auto shot = read_png(png);
  CHECK(shot.width == 600 + troupe::viewer::panel_layout::width);
  CHECK(shot.height == 400);
  check_shows_cartpole(shot);
  check_panel(shot);
  const auto s = read_json(dir / "run" / "summary.json");
  CHECK(s["stop_reason"] == "env_steps");
  CHECK(s["env_steps"].get<long>() >= 600000);
  check_accounts(s);
}

TEST_CASE("train --view shows a Python environment drawn by its own render()") {
  const fs::path dir = empty_dir("train_view_python");
  const std::string png = (dir / "train.png").string();
  // A budget that outlasts 5 frames: a quiet machine ran 100k steps in 0.6 s and showed 4.
  const auto r = troupe_headless(
      "train " + std::string(TROUPE_SOURCE_DIR) + "/configs/cartpole_python.yaml --run-dir " +
      (dir / "run").string() + " --set env.python_path=[" + TROUPE_SOURCE_DIR +
      "/examples/python_env] --set 'env.kwargs={render_mode: rgb_array}'" + fixed_steps +
      " --set run.stop.env_steps=600000 --view --frames 5 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("5 frames shown") != std::string::npos);
  const auto shot = read_png(png);
  CHECK(shot.width == 600 + troupe::viewer::panel_layout::width);
  check_shows_cartpole(shot);  // cartpole_py.py draws Gymnasium's picture too
  check_panel(shot);
  check_accounts(read_json(dir / "run" / "summary.json"));
}

TEST_CASE("Ctrl-C stops a run being watched gracefully, window and all") {
  const fs::path dir = empty_dir("train_view_sigint");
  const std::string png = (dir / "shot.png").string(), log = (dir / "train.log").string();
  // SDL's dummy driver: the same window code, no X server to signal around
  // (and, unlike the offscreen driver, no EGL and Mesa loaded and unloaded,
  // whose lasting allocations LeakSanitizer cannot attribute once unloaded).
  setenv("SDL_VIDEODRIVER", "dummy", 1);
  child_process trainer({TROUPE_BINARY, "train", cartpole, "--run-dir", (dir / "run").string(),
                         "--set", "run.stop.mean_return=100000", "--set",
                         "run.stop.confirm_episodes=0", "--set", "run.stop.env_steps=0", "--set",
                         "algo.lr_schedule=constant", "--set",
                         "run.stop.wall_seconds=60", "--set", "log.progress=false", "--view",
                         "--screenshot", png},
                        log);
  unsetenv("SDL_VIDEODRIVER");
  std::this_thread::sleep_for(std::chrono::seconds(3));
  trainer.signal(SIGINT);
  CHECK(trainer.wait_exit(std::chrono::seconds(60)) == 0);
  INFO(read_file(log));
  CHECK(read_file(log).find("frames shown") != std::string::npos);
  check_shows_cartpole(read_png(png));
  const auto s = read_json(dir / "run" / "summary.json");
  CHECK(s["stop_reason"] == "interrupted");
  check_accounts(s);
}

TEST_CASE("the window flags need --view") {
  const auto r = run_command(std::string(TROUPE_BINARY) + " train " + cartpole + " --frames 5");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("add --view") != std::string::npos);
}

TEST_CASE("play shows a trained policy, and plays the episodes eval scores") {
  const fs::path dir = empty_dir("play");
  const std::string run_dir = (dir / "run").string();
  const auto trained = run_command(std::string(TROUPE_BINARY) + " train " + cartpole +
                                   " --run-dir " + run_dir + fixed_steps +
                                   " --set run.stop.env_steps=60000");
  INFO(trained.output);
  REQUIRE(trained.exit_code == 0);

  const std::string png = (dir / "play.png").string();
  const auto shown = troupe_headless("play " + run_dir + " --frames 20 --fps 0 --screenshot " + png);
  INFO(shown.output);
  REQUIRE(shown.exit_code == 0);
  CHECK(shown.output.find("20 frames shown") != std::string::npos);
  const auto shot = read_png(png);
  CHECK(shot.width == 600 + troupe::viewer::panel_layout::width);
  check_shows_cartpole(shot);
  check_panel(shot);

  // Same seed, same episodes: play's returns average to eval's return_mean.
  const auto played = troupe_headless("play " + run_dir + " --episodes 3 --greedy --fps 0 --seed 7");
  INFO(played.output);
  REQUIRE(played.exit_code == 0);
  const auto returns = played_returns(played.output);
  REQUIRE(returns.size() == 3);
  const std::string json = (dir / "eval.json").string();
  const auto scored = run_command(std::string(TROUPE_BINARY) + " eval " + run_dir +
                                  " --episodes 3 --greedy --seed 7 --json " + json);
  REQUIRE(scored.exit_code == 0);
  CHECK((returns[0] + returns[1] + returns[2]) / 3 ==
        doctest::Approx(read_json(json)["return_mean"].get<double>()));

  const auto missing = troupe_headless("play " + (dir / "nothing").string());
  CHECK(missing.exit_code == 2);
}

TEST_CASE("play shows a team (env.seat all): its agents moved by the trained policy, the others by env.opponent") {
  const fs::path dir = empty_dir("play_team");
  const std::string run_dir = (dir / "run").string();
  const auto trained = run_command(std::string(TROUPE_BINARY) + " train " + std::string(TROUPE_SOURCE_DIR) +
                                   "/configs/spread.yaml --run-dir " + run_dir + fixed_steps +
                                   " --set run.stop.env_steps=100000");
  INFO(trained.output);
  REQUIRE(trained.exit_code == 0);
  const std::string png = (dir / "team.png").string();
  const auto shown = troupe_headless("play " + run_dir + " --episodes 2 --greedy --fps 0 --screenshot " + png);
  INFO(shown.output);
  REQUIRE(shown.exit_code == 0);
  const auto returns = played_returns(shown.output);
  CHECK(returns.size() == 2);
  CHECK(shown.output.find("in 25 steps (time limit)") != std::string::npos);
  const auto counts = colour_counts(read_png(png));
  for (const auto& agent : {rgb{90, 200, 255}, rgb{255, 140, 60}, rgb{230, 90, 200}}) CHECK(count_of(counts, agent) > 50);
  check_panel(read_png(png));

  // One of two teams (Contest-v0's red): its teammate moved by the policy,
  // the blue team by env.opponent, both teams drawn.
  const std::string teams = (dir / "teams").string();
  const auto two = run_command(std::string(TROUPE_BINARY) + " train " + std::string(TROUPE_SOURCE_DIR) +
                               "/configs/contest_teams.yaml --run-dir " + teams +
                               " --set log.progress=false --set run.stop.env_steps=100000");
  INFO(two.output);
  REQUIRE(two.exit_code == 0);
  const std::string red_png = (dir / "red.png").string();
  const auto red = troupe_headless("play " + teams + " --policy red --episodes 1 --fps 0 --screenshot " + red_png);
  INFO(red.output);
  REQUIRE(red.exit_code == 0);
  CHECK(played_returns(red.output).size() == 1);
  const auto red_counts = colour_counts(read_png(red_png));
  CHECK(count_of(red_counts, {235, 80, 70}) > 50);   // red agents
  CHECK(count_of(red_counts, {80, 140, 245}) > 50);  // blue agents
}

TEST_CASE("play carries an LSTM's state from step to step, as eval does") {
  // The memory cue is answerable only from memory: a play that dropped or
  // mixed up the state would score near 0 where eval scores near 1.
  const fs::path dir = empty_dir("play_lstm");
  const std::string run_dir = (dir / "run").string();
  const auto trained = run_command(std::string(TROUPE_BINARY) + " train " + TROUPE_SOURCE_DIR +
                                   "/configs/memory_cue_lstm.yaml --run-dir " + run_dir +
                                   " --set run.stop.wall_seconds=90 --set log.progress=false");
  INFO(trained.output);
  REQUIRE(trained.exit_code == 0);
  REQUIRE(read_json(run_dir + "/summary.json")["solved"] == true);

  const int episodes = 40;
  const auto played = troupe_headless("play " + run_dir + " --episodes " + std::to_string(episodes) +
                                      " --greedy --fps 0 --seed 11");
  INFO(played.output);
  REQUIRE(played.exit_code == 0);
  const auto returns = played_returns(played.output);
  REQUIRE(returns.size() == size_t(episodes));
  double sum = 0;
  for (double r : returns) sum += r;
  const std::string json = (dir / "eval.json").string();
  const auto scored = run_command(std::string(TROUPE_BINARY) + " eval " + run_dir + " --episodes " +
                                  std::to_string(episodes) + " --greedy --seed 11 --json " + json);
  REQUIRE(scored.exit_code == 0);
  CHECK(sum / episodes == doctest::Approx(read_json(json)["return_mean"].get<double>()));
  CHECK(sum / episodes >= 0.9);
}

TEST_CASE("view --connect watches a run that publishes its frames; viewers come and go") {
  const fs::path dir = empty_dir("connect");
  const std::string log = (dir / "train.log").string();
  child_process trainer({TROUPE_BINARY, "train", cartpole, "--run-dir", (dir / "run").string(),
                         "--set", "run.stop.mean_return=100000", "--set",
                         "run.stop.confirm_episodes=0", "--set", "run.stop.env_steps=0", "--set",
                         "algo.lr_schedule=constant", "--set",
                         "run.stop.wall_seconds=60", "--set", "log.progress=false",
                         "--view-port", "0"},
                        log);
  // The port the system picked, and the token it made up, from the run's log.
  const auto [port, token] = published_stream(log);
  INFO(read_file(log));
  REQUIRE_FALSE(port.empty());
  REQUIRE(token.size() == 32);

  // A wrong token, or none: refused within 5 s, exit code 3, no window.
  for (const std::string& wrong : {std::string(" --token not-the-token"), std::string()}) {
    CAPTURE(wrong);
    const auto start = std::chrono::steady_clock::now();
    const auto r = troupe_headless("view --connect 127.0.0.1:" + port + wrong + " --frames 1", 30);
    INFO(r.output);
    if (wrong.empty()) {
      CHECK(r.exit_code == 2);  // said before connecting
      CHECK(r.output.find("no token") != std::string::npos);
    } else {
      CHECK(r.exit_code == 3);
      CHECK(r.output.find("refused this viewer: wrong or missing view token") != std::string::npos);
    }
    CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(5));
  }
  CHECK(read_file(log).find("refused a viewer") != std::string::npos);

  for (int viewer = 0; viewer < 2; ++viewer) {
    CAPTURE(viewer);
    const std::string png = (dir / ("connect" + std::to_string(viewer) + ".png")).string();
    const auto r = troupe_headless("view --connect 127.0.0.1:" + port + " --token " + token +
                                   " --frames 5 --screenshot " + png, 30);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("5 frames shown") != std::string::npos);
    const auto shot = read_png(png);
    CHECK(shot.width == 600 + troupe::viewer::panel_layout::width);
    check_shows_cartpole(shot);
    check_panel(shot);
  }

  trainer.signal(SIGINT);
  CHECK(trainer.wait_exit(std::chrono::seconds(60)) == 0);
  const auto s = read_json(dir / "run" / "summary.json");
  CHECK(s["stop_reason"] == "interrupted");
  check_accounts(s);
}

TEST_CASE("view --connect watches a cluster run: the frames come from a worker's agents") {
  const fs::path dir = empty_dir("cluster");
  const std::string learner_log = (dir / "learner.log").string();
  // The learner has no agents of its own: every frame must come from the worker.
  child_process learner({TROUPE_BINARY, "serve", cartpole, "--listen", "127.0.0.1:0", "--token",
                         "view-test", "--run-dir", (dir / "run").string(), "--set",
                         "agents.count=0", "--set", "run.stop.mean_return=100000", "--set",
                         "run.stop.confirm_episodes=0", "--set", "run.stop.env_steps=0", "--set",
                         "algo.lr_schedule=constant", "--set",
                         "run.stop.wall_seconds=60", "--set", "log.progress=false",
                         "--view-port", "0"},
                        learner_log);
  std::string workers_port, frames_port;
  const std::regex listening(R"(listening for workers on 127\.0\.0\.1:(\d+))");
  const std::regex published(R"(frame stream on 127\.0\.0\.1:(\d+))");
  for (int i = 0; i < 300 && (workers_port.empty() || frames_port.empty()); ++i) {
    std::smatch m;
    const std::string text = read_file(learner_log);
    if (std::regex_search(text, m, listening)) workers_port = m[1];
    if (std::regex_search(text, m, published)) frames_port = m[1];
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  INFO(read_file(learner_log));
  REQUIRE_FALSE(workers_port.empty());
  REQUIRE_FALSE(frames_port.empty());
  child_process worker({TROUPE_BINARY, "join", "127.0.0.1:" + workers_port, "--agents", "2",
                        "--token", "view-test", "--name", "w1"},
                       (dir / "worker.log").string());

  const std::string png = (dir / "cluster.png").string();
  // The cluster's token is the stream's too.
  const auto r = troupe_headless("view --connect 127.0.0.1:" + frames_port +
                                 " --token view-test --frames 5 --screenshot " + png, 30);
  INFO(r.output);
  INFO(read_file(dir / "worker.log"));
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("5 frames shown") != std::string::npos);
  const auto shot = read_png(png);
  check_shows_cartpole(shot);
  check_panel(shot);

  learner.signal(SIGINT);
  CHECK(learner.wait_exit(std::chrono::seconds(60)) == 0);
  CHECK(worker.wait_exit(std::chrono::seconds(30)) == 0);  // told the run ended
  const auto s = read_json(dir / "run" / "summary.json");
  check_accounts(s);
}

TEST_CASE("view --connect over TLS: a viewer with a certificate from the CA watches; others cannot") {
  // No step budget: the run lasts until the SIGINT at the end (CartPole's
  // 3M env steps took 8 s once A3C trained by hand, before the viewers had
  // connected).
  const fs::path dir = empty_dir("tls");
  const auto pki = make_test_pki((dir / "pki").string(), {"run", "viewer"});
  const std::string log = (dir / "train.log").string();
  std::vector<std::string> args{TROUPE_BINARY, "train", cartpole, "--run-dir", (dir / "run").string(),
                                "--set", "run.stop.mean_return=100000", "--set",
                                "run.stop.confirm_episodes=0", "--set", "run.stop.env_steps=0",
                                "--set", "algo.lr_schedule=constant", "--set", "run.stop.wall_seconds=60",
                                "--set", "log.progress=false", "--view-port", "0",
                                "--view-token", "tls-view-test"};
  for (const auto& a : pki.config("run")) args.push_back(a);
  child_process trainer(args, log);
  const auto [port, token] = published_stream(log);
  INFO(read_file(log));
  REQUIRE_FALSE(port.empty());
  CHECK(token == "<the");  // a token given is not printed
  CHECK(read_file(log).find("(TLS)") != std::string::npos);
  auto tls = [&](const std::string& name) {
    std::string flags;
    for (const auto& a : pki.flags(name)) flags += " " + a;
    return flags;
  };
  const std::string connect = "view --connect 127.0.0.1:" + port + " --token tls-view-test --frames 3";
  // Plain TCP, or a certificate the CA did not sign: no handshake, no frame.
  for (const std::string& flags : {std::string(), tls("rogue")}) {
    CAPTURE(flags);
    const auto r = troupe_headless(connect + flags, 30);
    INFO(r.output);
    CHECK(r.exit_code == 1);
    CHECK(r.output.find("cannot connect to a frame stream") != std::string::npos);
  }
  // The CA's certificate but a wrong token: refused.
  const auto wrong = troupe_headless("view --connect 127.0.0.1:" + port + " --token nope" + tls("viewer"), 30);
  CHECK(wrong.exit_code == 3);
  const std::string png = (dir / "tls.png").string();
  const auto r = troupe_headless(connect + tls("viewer") + " --screenshot " + png, 30);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("3 frames shown") != std::string::npos);
  check_shows_cartpole(read_png(png));
  trainer.signal(SIGINT);
  CHECK(trainer.wait_exit(std::chrono::seconds(60)) == 0);
}

TEST_CASE("view --connect says why it cannot connect") {
  const auto nobody = run_command(std::string(TROUPE_BINARY) + " view --connect 127.0.0.1:1 --token t");
  CHECK(nobody.exit_code == 1);
  CHECK(nobody.output.find("cannot connect to a frame stream at 127.0.0.1:1") != std::string::npos);
  const auto bad = run_command(std::string(TROUPE_BINARY) + " view --connect localhost");
  CHECK(bad.exit_code == 2);
  CHECK(bad.output.find("HOST:PORT") != std::string::npos);
  const auto neither = run_command(std::string(TROUPE_BINARY) + " view");
  CHECK(neither.exit_code == 2);
}
}
