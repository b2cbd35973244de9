// Writes the fuzz targets' seed inputs into tests/fuzz/corpus/TARGET/seed-*:
// well-formed inputs that each target takes all the way (but those named
// seed-refused-*), from which the fuzzer mutates. Skipped in the suite; scripts/fuzz.sh --write-seeds runs
// it. The seeds are kept in the tree, and the corpus test replays them.
#include <doctest/doctest.h>

#include <caf/all.hpp>
#include <caf/binary_serializer.hpp>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "actors/messages/frames.hpp"
#include "actors/messages/learning.hpp"
#include "actors/messages/metrics.hpp"
#include "actors/messages/network.hpp"
#include "actors/messages/predict.hpp"
#include "algo/learner.hpp"
#include "model/checkpoint_file.hpp"

namespace fs = std::filesystem;
using namespace troupe;

namespace {

const fs::path corpus = fs::path(TROUPE_SOURCE_DIR) / "tests" / "fuzz" / "corpus";

void write_seed(const std::string& target, const std::string& name, const std::string& bytes) {
  fs::create_directories(corpus / target);
  std::ofstream(corpus / target / ("seed-" + name), std::ios::binary) << bytes;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The messages target's input: kind, the run's shapes, then CAF's bytes.
template <class T>
std::string message_seed(std::uint8_t kind, int n_steps, int envs, int obs, int width, int state,
                         T message, int mask_size = 0) {
  std::vector<char> wire;
  caf::binary_serializer sink(nullptr, wire);
  REQUIRE_FALSE(sink(message));
  std::string out{char(kind), char(n_steps - 1), char(envs - 1), char(obs - 1),
                  char(width - 1 + 3 * mask_size), char(state)};
  return out + std::string(wire.begin(), wire.end());
}

std::string basp_frame(unsigned char operation, const std::string& payload) {
  std::string f(32, '\0');
  f[0] = char(operation);
  const auto n = std::uint32_t(payload.size());
  f[4] = char(n >> 24), f[5] = char(n >> 16), f[6] = char(n >> 8), f[7] = char(n);
  return f + payload;
}

algo::rollout seed_rollout(int n_steps, int envs, int obs, int state) {
  algo::rollout r;
  r.agent_id = 7;
  r.sequence = 3;
  r.n_steps = n_steps, r.n_envs = envs, r.obs_size = obs, r.action_size = 1, r.state_size = state;
  const size_t n = size_t(n_steps) * envs;
  r.observations.assign((n + envs) * obs, 0.25f);
  r.initial_states.assign(size_t(envs) * state, 0.1f);
  r.actions.assign(n, 1.0f);
  r.rewards.assign(n, 1.0f);
  r.terminated.assign(n, 0);
  r.truncated.assign(n, 0);
  r.terminated[1] = 1;
  r.truncated[2] = 1;
  r.truncation_observations.assign(obs, 0.5f);
  r.behaviour_logp.assign(n, -0.69f);
  r.behaviour_version.assign(n, 4);
  return r;
}

}  // namespace

TEST_SUITE("fuzz") {
TEST_CASE("fuzz: write the seed corpora" * doctest::skip()) {
  // config: every shipped config, and one with --set lines after it.
  for (const auto& entry : fs::directory_iterator(fs::path(TROUPE_SOURCE_DIR) / "configs"))
    write_seed("config", entry.path().filename().string(), read_bytes(entry.path()));
  write_seed("config", "with-set",
             read_bytes(fs::path(TROUPE_SOURCE_DIR) / "configs" / "cartpole.yaml") +
                 "\n#--set\nmodel.hidden=[32, 32]\nenv.kwargs={a: 1, b: [x, y]}\nrun.seed=7\n");

  // checkpoint: the loader's own architecture, as a file and as the content
  // inside one; and another architecture, which is refused.
  for (const auto& [name, hidden] : {std::pair<std::string, int>{"fits", 8}, {"refused-other-net", 16}}) {
    model::model_config config;
    config.hidden = {hidden};
    auto model = model::make_shared_model(model::make_net_spec(config, {4}, false, 2), 3);
    algo::learner learner(model, algo::algo_config{});
    const fs::path file = fs::temp_directory_path() / "troupe-seed.pt";
    model::checkpoint_meta meta;
    meta.env_steps = 1000;
    meta.config_yaml = "run: {name: seed}\n";
    learner.save_checkpoint(file.string(), meta);
    const std::string sealed = read_bytes(file);
    fs::remove(file);
    write_seed("checkpoint", name + ".pt", sealed);
    if (name == "fits")
      write_seed("checkpoint", name + ".content", sealed.substr(model::checkpoint_header_bytes));
  }

  // basp: a handshake, messages, a heartbeat, monitor and down frames.
  write_seed("basp", "session",
             std::string{'\x05', '\x40'} + basp_frame(1, std::string(60, 'h')) +
                 basp_frame(2, std::string(300, 'm')) + basp_frame(6, "") + basp_frame(4, "mon") +
                 basp_frame(5, "down") + basp_frame(2, std::string(4000, 'b')));
  write_seed("basp", "handshake-only", std::string{'\x20', '\x01'} + basp_frame(1, std::string(90, 'h')));

  // messages: one of each kind, in the shapes its header names.
  actors::predict_request request{7, 2, std::vector<float>(8, 0.5f), {}, 1};
  write_seed("messages", "predict-request", message_seed(0, 2, 2, 4, 1, 0, request));
  actors::predict_request recurrent{7, 2, std::vector<float>(8, 0.5f), std::vector<float>(6, 0.1f), -1};
  write_seed("messages", "predict-request-recurrent", message_seed(0, 2, 2, 4, 1, 3, recurrent));
  write_seed("messages", "rollout", message_seed(1, 3, 2, 4, 1, 0, seed_rollout(3, 2, 4, 0)));
  write_seed("messages", "rollout-recurrent", message_seed(1, 3, 2, 4, 1, 2, seed_rollout(3, 2, 4, 2)));
  // With action masks of 3 actions (the rollouts' actions are 1: legal).
  actors::predict_request masked{7, 2, std::vector<float>(8, 0.5f), {}, -1, {1, 0, 1, 0, 1, 1}};
  write_seed("messages", "predict-request-masked", message_seed(0, 2, 2, 4, 1, 0, masked, 3));
  algo::rollout masked_rollout = seed_rollout(3, 2, 4, 0);
  masked_rollout.mask_size = 3;
  for (int i = 0; i < 6; ++i) masked_rollout.action_masks.insert(masked_rollout.action_masks.end(), {0, 1, 1});
  write_seed("messages", "rollout-masked", message_seed(1, 3, 2, 4, 1, 0, masked_rollout, 3));
  actors::episode_report report{7, 100, {12.5f, 20.0f}, {12, 20}, 0.01, 40, "w1"};
  write_seed("messages", "episode-report", message_seed(2, 1, 1, 1, 1, 0, report));
  actors::join_request join{3, "token", "worker", 2};
  write_seed("messages", "join-request", message_seed(3, 1, 1, 1, 1, 0, join));
  actors::predict_reply reply{{1.0f, 0.0f}, {-0.7f, -0.7f}, {0.3f, 0.4f}, 9, {}, {0.2f, 0.8f}};
  write_seed("messages", "predict-reply", message_seed(4, 1, 1, 1, 1, 0, reply));
  actors::env_frame frame;
  frame.agent_id = 1;
  frame.agent_count = 3;
  frame.image.width = 4;
  frame.image.height = 3;
  frame.image.pixels.assign(4 * 3 * 3, 200);
  frame.info.title = "agent 1 - CartPole-v1";
  frame.info.episode = 5;
  frame.info.episode_return = 42.0;
  frame.info.action_probabilities = {0.25f, 0.75f};
  frame.info.action_names = {"left", "right"};
  frame.info.chosen_actions = {1};
  frame.info.legal_actions = {1, 1};
  write_seed("messages", "frame", message_seed(5, 1, 1, 1, 1, 0, frame));
  frame.info.seat = "second";
  frame.info.other_player = "snapshot 3";
  frame.info.other_probabilities = {0.4f, 0.6f};
  frame.info.other_chosen = {1};
  frame.info.other_legal = {1, 1};
  write_seed("messages", "frame-two-players", message_seed(5, 1, 1, 1, 1, 0, frame));
  actors::opponent_request other_seat;
  other_seat.agent_id = 7;
  other_seat.event_games = {0, 1};
  other_seat.event_ended = {1, 0};
  other_seat.event_seeds = {0, 99};
  other_seat.event_returns = {-1.0, 0.0};
  other_seat.games = {1};
  other_seat.agents = {1};
  other_seat.observations.assign(4, 0.5f);
  other_seat.action_masks = {0, 1, 1};
  write_seed("messages", "opponent-request", message_seed(6, 1, 2, 4, 1, 0, other_seat, 3));
}
}
