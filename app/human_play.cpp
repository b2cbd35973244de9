#include "app/human_play.hpp"

#include <iostream>

#include "agents/evaluate.hpp"
#include "agents/match.hpp"
#include "agents/policy_overlay.hpp"
#include "app/commands.hpp"
#include "envs/env_vector.hpp"
#include "envs/registry.hpp"
#include "envs/seat_vector.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_loader.hpp"
#include "run/trained_model.hpp"

namespace troupe::app {

human_policy::human_policy(const envs::env& env, std::uint64_t seed)
    : env_(env), picture_(envs::drawable(env)), choices_(env.spec().action.choice_count()), seed_(seed) {}

std::uint64_t human_policy::start_episode(long episode) {
  pending_ = -1;
  last_reply_ = {};
  return agents::episode_rng(seed_, int(episode))();
}

int human_policy::action_of(const viewer::player_input& in) const {
  if (in.click) return picture_ ? picture_->action_at(in.u, in.v) : -1;
  const int a = in.digit == 0 ? 9 : in.digit - 1;  // keys 1-9, then 0
  return a < choices_ ? a : -1;
}

bool human_policy::legal(int action) const {
  if (!env_.spec().has_action_mask) return true;
  std::vector<std::uint8_t> mask(static_cast<size_t>(choices_));
  env_.action_mask(mask.data());
  return mask[size_t(action)] != 0;
}

bool human_policy::ready(viewer::viewer_window& window, viewer::overlay_info& info) {
  if (pending_ >= 0) return true;
  info.title = "your move: click, or keys 1-" + std::to_string(std::min(choices_, 10));
  show_reply(info);
  while (const auto in = window.take_input()) {
    const int a = action_of(*in);
    if (a < 0) continue;  // a click off the board
    if (!legal(a)) {
      std::cout << "troupe play: move " << a + 1 << " is not legal here" << std::endl;
      continue;
    }
    pending_ = a;
    return true;
  }
  return false;
}

void human_policy::act(const float*, float* action, viewer::overlay_info& info) {
  action[0] = float(pending_);
  pending_ = -1;
  info.title = env_.spec().id + ": you play " + std::to_string(int(action[0]) + 1);
  show_reply(info);
}

void human_policy::show_reply(viewer::overlay_info& info) const {
  info.action_probabilities = last_reply_.action_probabilities;
  info.action_names = last_reply_.action_names;
  info.chosen_actions = last_reply_.chosen_actions;
  info.legal_actions = last_reply_.legal_actions;
}

void human_policy::policy_moved(const float* policy, const float* action, const std::uint8_t* legal) {
  last_reply_ = {};
  agents::show_policy(last_reply_, env_.spec().action, policy, action, env_.spec().action_labels, legal);
}

void play_against(const std::string& target, bool best, const std::string& policy, const human_play_options& opts) {
  if (opts.episodes < 0) throw config_error("play: --episodes must not be negative");
  model::set_compute_threads(1);
  const run::trained_model trained =
      run::load_trained_model(target, best ? run::which_checkpoint::best : run::which_checkpoint::newest, policy);
  const envs::env_config& env = trained.config.env;
  if (!envs::is_turn_based_game(env.id))
    throw config_error("play --human: " + env.id + " is not a two-player turn-based game (those are: " +
                       envs::turn_based_games() + ")");
  envs::seat_choice seat;
  try {
    seat = envs::parse_seat(opts.seat);
  } catch (const std::invalid_argument& e) {
    throw config_error(std::string("play --human: ") + e.what());
  }
  std::unique_ptr<envs::turn_based_vector> games;
  try {
    games = envs::make_turn_based_vector(env, 1);
  } catch (const envs::env_key_error& e) {
    throw config_error("play --human: " + std::string(e.what()));
  }
  const envs::env_spec spec = games->spec();
  if (spec.action.type != envs::space::kind::discrete)
    throw config_error("play --human: a person plays games of one discrete action; " + env.id + " has " +
                       spec.action.describe());
  human_policy* person = nullptr;  // the panel's receiver of the policy's moves, made below
  auto trained_side = agents::model_opponents(trained.model, 1, spec, opts.greedy,
                                              [&person](const float* p, const float* a, const std::uint8_t* legal) {
                                                if (person) person->policy_moved(p, a, legal);
                                              });
  envs::vector_as_env seat_env(std::make_unique<envs::seat_vector>(std::move(games), seat, std::move(trained_side)));
  human_policy you(seat_env, opts.seed);
  person = &you;
  std::cout << "troupe play: you against " << trained.checkpoint << " (version " << trained.meta.version << ", "
            << (opts.greedy ? "greedy" : "sampling") << ") at " << env.id << ", your seat " << opts.seat
            << "; click the board or press 1-" << std::min(spec.action.choice_count(), 10)
            << " to move, q to quit" << std::endl;
  playback_options playback;
  playback.who = "troupe play";
  playback.title = "troupe play - you against the policy - " + env.id;
  playback.episodes = opts.episodes;
  playback.fps = 0;
  playback.hold_end_seconds = 2.0;
  playback.window = opts.window;
  play_in_window(seat_env, you, playback);
}

}  // namespace troupe::app
