#include "app/human_play.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

#include "agents/evaluate.hpp"
#include "agents/league/match.hpp"
#include "agents/policy_overlay.hpp"
#include "app/commands.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "envs/env_vector.hpp"
#include "games/seat_vector.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_loader.hpp"
#include "run/trained_model.hpp"

namespace troupe::app {

namespace {

// The action named `names` (any of them, in any case), or -1.
int action_named(const std::vector<std::string>& labels, std::initializer_list<const char*> names) {
  for (size_t a = 0; a < labels.size(); ++a) {
    std::string label = labels[a];
    std::transform(label.begin(), label.end(), label.begin(), [](unsigned char c) { return std::tolower(c); });
    for (const char* name : names)
      if (label == name) return int(a);
  }
  return -1;
}

}  // namespace

human_policy::human_policy(const envs::env& env, std::uint64_t seed, pace moves)
    : env_(env),
      picture_(envs::drawable(env)),
      choices_(env.spec().action.choice_count()),
      seed_(seed),
      pace_(moves) {
  const auto& labels = env.spec().action_labels;
  const int up = action_named(labels, {"up"}), down = action_named(labels, {"down"});
  const int idle = action_named(labels, {"stay", "noop", "none", "idle"});
  // The arrows move up and down only (left and right step a paused window):
  // a game that also moves sideways (Spread-v0) is played with the digits.
  const bool sideways = action_named(labels, {"left"}) >= 0 || action_named(labels, {"right"}) >= 0;
  if (moves == pace::real_time && up >= 0 && down >= 0 && idle >= 0 && !sideways)
    up_ = up, down_ = down, idle_ = idle;
}

std::string human_policy::how_to_move() const {
  if (pace_ == pace::turns) return "click, or keys 1-" + std::to_string(std::min(choices_, 10));
  if (moves_by_arrows()) return "hold up / down (or w / s)";
  return "keys 1-" + std::to_string(std::min(choices_, 10)) + ", each kept until the next";
}

std::uint64_t human_policy::start_episode(long episode) {
  pending_ = -1;
  kept_ = idle_ >= 0 ? idle_ : 0;
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
  return pace_ == pace::turns ? ready_in_turn(window, info) : ready_in_real_time(window, info);
}

bool human_policy::ready_in_real_time(viewer::viewer_window& window, viewer::overlay_info&) {
  while (const auto in = window.take_input()) {
    if (moves_by_arrows() || in->click) continue;
    const int a = action_of(*in);
    if (a >= 0 && legal(a)) kept_ = a;
  }
  pending_ = kept_;
  if (moves_by_arrows()) {
    const viewer::held_keys held = window.keys_held();
    pending_ = held.up == held.down ? idle_ : held.up ? up_ : down_;
  }
  if (!legal(pending_)) pending_ = idle_ >= 0 && legal(idle_) ? idle_ : pending_;
  return true;
}

bool human_policy::ready_in_turn(viewer::viewer_window& window, viewer::overlay_info& info) {
  if (pending_ >= 0) return true;
  info.title = "your move: " + how_to_move();
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
  const auto& labels = env_.spec().action_labels;
  const size_t a = size_t(action[0]);
  info.title = env_.spec().id + ": you play " + (a < labels.size() ? labels[a] : std::to_string(a + 1));
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
  const envs::env_spec& theirs = policy_seat_.id.empty() ? env_.spec() : policy_seat_;
  agents::show_policy(last_reply_, theirs.action, policy, action, theirs.action_labels, legal);
}

void play_against(const std::string& target, bool best, const std::string& policy, const human_play_options& opts) {
  if (opts.episodes < 0 || opts.fps < 0) throw config_error("play: --episodes and --fps must not be negative");
  model::set_compute_threads(1);
  const run::trained_model trained =
      run::load_trained_model(target, best ? run::which_checkpoint::best : run::which_checkpoint::newest, policy);
  // The person takes one seat; the policy plays every other agent, those of
  // its own team (env.seat all) included.
  envs::env_config env = trained.config.env;
  if (!catalog::is_game(env.id))
    throw config_error("play --human: " + env.id.text() + " is not a game of several agents (those are: " +
                       catalog::versus_games() + ", Spread-v0, Contest-v0)");
  env.versus.team.clear();
  if (env.versus.seat == "all") env.versus.seat = "alternate";
  games::seat_choice seat;
  try {
    seat = games::parse_seat(opts.seat);
  } catch (const std::invalid_argument& e) {
    throw config_error(std::string("play --human: ") + e.what());
  }
  human_policy* person = nullptr;  // the panel's receiver of the policy's moves, made below
  const auto tell_person = [&person](const float* p, const float* a, const std::uint8_t* legal) {
    if (person) person->policy_moved(p, a, legal);
  };
  std::unique_ptr<envs::env_vector> side;
  envs::env_spec policy_seat;
  try {
    // Where the agents' spaces differ, the person takes the seat the policy
    // was not trained for.
    const catalog::game_agents agents = catalog::game_agents_of(env);
    if (agents.names.size() == 2 && agents.spaces_differ()) {
      const bool policy_first = env.versus.seat != "second";
      const games::seat_choice yours = policy_first ? games::seat_choice::second : games::seat_choice::first;
      if (seat != games::seat_choice::alternate && seat != yours)
        throw config_error("play --human: --seat " + opts.seat + ": the policy plays " +
                           agents.names[policy_first ? 0 : 1] + " (" + (policy_first ? "first" : "second") +
                           "), whose spaces differ from " + agents.names[policy_first ? 1 : 0] +
                           "'s: you play that one (--seat " + (policy_first ? "second" : "first") + ")");
      seat = yours;
    }
    side = catalog::make_game_side(env, 1, seat, [&](const envs::env_spec& spec) {
      policy_seat = spec;
      return agents::model_opponents(trained.model, 1, spec, opts.greedy, tell_person);
    });
  } catch (const envs::env_key_error& e) {
    throw config_error("play --human: " + std::string(e.what()));
  }
  if (side->spec().action.type != envs::space::kind::discrete)
    throw config_error("play --human: a person plays games of one discrete action; " + env.id.text() + " has " +
                       side->spec().action.describe());
  // A simultaneous game does not wait for the person: it moves on at the
  // window's rate with the keys they hold.
  const auto* seats = dynamic_cast<const games::seat_vector*>(side.get());
  const bool real_time = seats && !seats->games().turn_based();
  envs::vector_as_env seat_env(std::move(side));
  human_policy you(seat_env, opts.seed, real_time ? human_policy::pace::real_time : human_policy::pace::turns);
  you.set_policy_seat(policy_seat);
  person = &you;
  std::cout << "troupe play: you against " << trained.checkpoint << " (version " << trained.meta.version << ", "
            << (opts.greedy ? "greedy" : "sampling") << ") at " << env.id << ", your seat " << opts.seat << "; "
            << (real_time ? you.how_to_move() : "click the board or press 1-" +
                                                    std::to_string(std::min(seat_env.spec().action.choice_count(), 10)))
            << " to move, space to pause, q to quit" << std::endl;
  playback_options playback;
  playback.who = "troupe play";
  playback.title = "troupe play - you against the policy - " + env.id.text();
  playback.episodes = opts.episodes;
  playback.fps = real_time ? opts.fps : 0;
  playback.hold_end_seconds = 2.0;
  playback.window = opts.window;
  play_in_window(seat_env, you, playback);
}

}  // namespace troupe::app
