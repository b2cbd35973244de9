// troupe play RUN_DIR|CHECKPOINT [--best] [--episodes N] [--greedy] [--seed S]: watch a
// trained policy play in a live window, its action probabilities (or a
// Gaussian's means and the actions taken) beside the environment; with
// --human [--seat S], play a game against it, or beside it (app/human_play.hpp).
#include <iostream>
#include <memory>
#include <random>

#include <CLI/CLI.hpp>

#include "agents/evaluate.hpp"
#include "agents/policy_overlay.hpp"
#include "app/commands.hpp"
#include "app/human_play.hpp"
#include "app/local_playback.hpp"
#include "app/policy_flags.hpp"
#include "app/team_playback.hpp"
#include "catalog/registry.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_loader.hpp"
#include "run/trained_model.hpp"

namespace troupe::app {

namespace {

struct play_options {
  std::string target;
  long episodes = 0;  // 0: until quit
  bool greedy = false;
  bool best = false;  // checkpoints/best.pt, not the newest
  policy_flags which;  // --policy, --member
  std::uint64_t seed = 12345;  // eval's default: the same episodes
  double fps = 30.0;
  window_flags window;
  bool human = false;  // a person plays the policy
  std::string seat = "alternate";
};

// The trained policy, one observation at a time, seeded per episode exactly
// as agents::evaluate seeds its episodes.
class model_playback_policy final : public playback_policy {
 public:
  model_playback_policy(const run::trained_model& trained, const envs::env& env, bool greedy,
                        std::uint64_t seed)
      : trained_(trained),
        env_(env),
        action_space_(env.spec().action),
        labels_(env.spec().action_labels),
        greedy_(greedy),
        seed_(seed) {}

  std::uint64_t start_episode(long episode) override {
    rng_ = agents::episode_rng(seed_, static_cast<int>(episode));
    // A recurrent policy starts every episode from a zero state.
    state_.assign(size_t(model::spec_of(*trained_.model).state_size()), 0.f);
    return rng_();
  }

  void act(const float* observation, float* action, viewer::overlay_info& info) override {
    model::predict(*trained_.model, observation, state_.empty() ? nullptr : state_.data(), 1, out_);
    state_.swap(out_.states);  // carried to the next step
    const model::net_spec& net = model::spec_of(*trained_.model);
    const std::uint8_t* legal = nullptr;
    if (env_.spec().has_action_mask) {
      legal_.resize(size_t(action_space_.choice_count()));
      env_.action_mask(legal_.data());
      legal = legal_.data();
    }
    agents::choose_action(net, action_space_, out_.policy.data(), out_.log_std.data(), greedy_,
                          rng_, action, legal);
    agents::show_policy(info, action_space_, out_.policy.data(), action, labels_, legal);
    info.parameter_version = static_cast<std::int64_t>(out_.version);
  }

 private:
  const run::trained_model& trained_;
  const envs::env& env_;
  envs::space action_space_;
  std::vector<std::uint8_t> legal_;  // the current state's legal actions
  std::vector<std::string> labels_;
  bool greedy_;
  std::uint64_t seed_;
  std::mt19937_64 rng_;
  std::vector<float> state_;
  model::prediction out_;
};

// The run's environment as the window plays it: a team (env.seat all) as
// its first agent's game, its teammates moved by the same policy.
std::unique_ptr<envs::env> watched_env(const run::trained_model& trained, bool greedy, std::uint64_t seed) {
  const envs::env_config& env = trained.config.env;
  if (env.versus.seat != "all") return catalog::make_env(env);
  return std::make_unique<team_playback_env>(catalog::make_env_vector(env, 1), trained.model, greedy, seed);
}

void play(const play_options& opts) {
  if (opts.episodes < 0 || opts.fps < 0)
    throw config_error("play: --episodes and --fps must not be negative");
  if (opts.human) {
    human_play_options h;
    h.seat = opts.seat;
    h.greedy = opts.greedy;
    h.fps = opts.fps;
    h.seed = opts.seed;
    h.episodes = opts.episodes;
    h.window = opts.window;
    play_against(opts.target, opts.best, opts.which.chosen(), h);
    return;
  }
  model::set_compute_threads(1);
  const run::trained_model trained = run::load_trained_model(
      opts.target, opts.best ? run::which_checkpoint::best : run::which_checkpoint::newest, opts.which.chosen());
  const auto env = watched_env(trained, opts.greedy, opts.seed);
  std::cout << "troupe play: " << trained.checkpoint << " (version " << trained.meta.version
            << ", " << trained.meta.env_steps << " env steps), " << trained.config.env.id
            << (opts.greedy ? ", greedy" : ", sampling") << ", seed " << opts.seed << std::endl;
  model_playback_policy policy(trained, *env, opts.greedy, opts.seed);
  playback_options playback;
  playback.who = "troupe play";
  playback.title = "troupe play - " + trained.config.env.id.text();
  playback.episodes = opts.episodes;
  playback.fps = opts.fps;
  playback.window = opts.window;
  play_in_window(*env, policy, playback);
}

}  // namespace

void add_play_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<play_options>();
  auto* cmd = cli.add_subcommand("play", "watch a trained policy play in a live window");
  cmd->add_option("target", opts->target, "run directory (its newest checkpoint) or checkpoint file")
      ->required();
  cmd->add_flag("--best", opts->best, "the run's best policy (checkpoints/best.pt: the one whose fresh episodes scored highest) instead of its newest checkpoint");
  add_policy_flags(*cmd, opts->which);
  cmd->add_option("--episodes", opts->episodes, "stop after N episodes (0: until quit)");
  cmd->add_flag("--greedy", opts->greedy, "take the most likely action (the mean for Gaussians)");
  cmd->add_option("--seed", opts->seed,
                  "seeds the episodes as `troupe eval --seed` does (the same episodes)")
      ->capture_default_str();
  cmd->add_option("--fps", opts->fps, "frames per second at speed x1 (0: as fast as possible)")
      ->capture_default_str();
  cmd->add_flag("--human", opts->human,
                "games: play against the policy yourself, or beside it (it plays every other agent: click a column of "
                "Connect Four, or press 1-9 for the first nine actions, 0 for the tenth; in Duel Pong hold up / down, "
                "or w / s, at --fps; a simultaneous game moves on at --fps)");
  cmd->add_option("--seat", opts->seat, "with --human: your seat, first, second, third, ... or alternate (per game)")
      ->check(CLI::IsMember({"alternate", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}))
      ->capture_default_str();
  add_window_flags(*cmd, opts->window);
  cmd->footer(
      "Keys: space pause/resume, . or right arrow single step, +/- faster/slower, q or Esc quit.\n"
      "Headless: xvfb-run -a troupe play RUN_DIR --frames 30 --screenshot play.png");
  cmd->callback([opts, &exit_code] {
    play(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
