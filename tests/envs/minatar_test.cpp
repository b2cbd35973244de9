#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/minatar/minatar_env.hpp"
#include "envs/policy_rollout.hpp"
#include "tests/reference_data.hpp"

using troupe::envs::minatar_env;
using game = troupe::envs::minatar_env::game;
namespace minatar = troupe::envs::minatar;

namespace {
// The reference's name of each game, as games.json and trajectories.json key them.
const std::vector<std::pair<std::string, game>> minatar_games = {
    {"asterix", game::asterix},
    {"breakout", game::breakout},
    {"freeway", game::freeway},
    {"seaquest", game::seaquest},
    {"space_invaders", game::space_invaders}};

const nlohmann::json& games_json() {
  static const nlohmann::json ref = troupe::tests::load_reference("minatar/games.json");
  return ref;
}
const nlohmann::json& trajectories_json() {
  static const nlohmann::json ref = troupe::tests::load_reference("minatar/trajectories.json");
  return ref;
}

// numpy.packbits of the [y][x][c] board, first element in the most significant bit.
std::vector<float> decode_board(const std::string& hex, int channels) {
  std::vector<float> cells(size_t(100 * channels), 0.f);
  for (size_t i = 0; i < cells.size(); ++i) {
    const int byte = std::stoi(hex.substr(2 * (i / 8), 2), nullptr, 16);
    cells[i] = (byte >> (7 - i % 8)) & 1 ? 1.f : 0.f;
  }
  return cells;
}

// The cells set in one channel, as [y, x] pairs.
std::set<std::array<int, 2>> cells_of(const std::vector<float>& obs, int channels, int channel) {
  std::set<std::array<int, 2>> cells;
  for (int y = 0; y < 10; ++y)
    for (int x = 0; x < 10; ++x)
      if (obs[size_t((y * 10 + x) * channels + channel)] != 0.f) cells.insert({y, x});
  return cells;
}

troupe::envs::minatar_options options(double sticky, bool full_set, bool ramping) {
  troupe::envs::minatar_options o;
  o.sticky_action_prob = sticky;
  o.full_action_set = full_set;
  o.difficulty_ramping = ramping;
  return o;
}

// Plays one recorded episode on `env` (already reset) and checks every frame;
// returns the number of mismatching frames.
int replay_episode(minatar_env& env, const nlohmann::json& episode, bool check_ramp) {
  const int c = env.channels();
  std::vector<float> obs(size_t(100 * c));
  int mismatches = 0;
  for (size_t t = 0; t < episode["actions"].size(); ++t) {
    const float action = episode["actions"][t].get<int>();
    const auto r = env.step(&action, obs.data());
    const bool same = env.last_action() == episode["effective_actions"][t].get<int>() &&
                      r.reward == episode["rewards"][t].get<double>() &&
                      r.terminated == episode["terminal"][t].get<bool>() && !r.truncated &&
                      obs == decode_board(episode["obs_hex"][t].get<std::string>(), c);
    if (!same) {
      ++mismatches;
      if (mismatches == 1) MESSAGE("first mismatch at step " << t);
      break;  // later frames follow from a wrong state; one report is enough
    }
  }
  if (check_ramp) {
    const auto& ramp = episode["difficulty_ramp_at_end"];
    CHECK(env.ramp_index() == (ramp.is_null() ? -1 : ramp.get<int>()));
  }
  return mismatches;
}
}  // namespace

TEST_SUITE("envs") {
TEST_CASE("MinAtar replays every reference trajectory bit for bit") {
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    const auto& data = trajectories_json()["games"][name];
    REQUIRE(data["seed"].get<int>() == 0);
    minatar_env env(which, options(data["sticky_action_prob"].get<double>(), true,
                                   data["difficulty_ramping"].get<bool>()));
    REQUIRE(env.channels() == data["n_channels"].get<int>());
    env.seed(data["seed"].get<int>());
    std::vector<float> obs(size_t(100 * env.channels()));
    int episode_index = 0, frames = 0;
    for (const auto& episode : data["episodes"]) {
      CAPTURE(episode_index);
      env.reset(obs.data());  // the generator and the previous action carry over
      CHECK(obs == decode_board(episode["initial_obs_hex"].get<std::string>(), env.channels()));
      CHECK(replay_episode(env, episode, true) == 0);
      frames += static_cast<int>(episode["actions"].size());
      ++episode_index;
    }
    CHECK(episode_index == static_cast<int>(data["episodes"].size()));
    CHECK(frames > 0);
  }
}

TEST_CASE("MinAtar reset(seed) starts like a freshly built, seeded reference environment") {
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    const auto& episode = trajectories_json()["games"][name]["episodes"][0];
    minatar_env env(which, options(0.1, true, true));
    std::vector<float> obs(size_t(100 * env.channels()));
    // Play something else first: reset(seed) must forget the generator and the previous action.
    env.reset(99, obs.data());
    const float fire = 5;
    for (int t = 0; t < 7; ++t) env.step(&fire, obs.data());
    env.reset(0, obs.data());
    CHECK(obs == decode_board(episode["initial_obs_hex"].get<std::string>(), env.channels()));
    CHECK(replay_episode(env, episode, true) == 0);
  }
}

TEST_CASE("MinAtar shapes, channels and action sets follow games.json") {
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    const auto& ref = games_json()["games"][name];
    const std::string id =
        "MinAtar/" + games_json()["gym_ids"]["names"][name].get<std::string>() + "-v1";
    CHECK(minatar_env::id_of(which) == id);
    REQUIRE(troupe::catalog::is_registered(id));

    troupe::envs::env_config config;
    config.id = id;
    const auto made = troupe::catalog::make_env(config);
    const auto& spec = made->spec();
    CHECK(spec.id == id);
    CHECK(spec.observation.type == troupe::envs::space::kind::box);
    CHECK(spec.observation.shape == ref["observation_shape"].get<std::vector<int>>());
    CHECK(spec.observation.flat_size() == 100 * ref["n_channels"].get<int>());
    CHECK(spec.action.type == troupe::envs::space::kind::discrete);
    CHECK(spec.action.n == ref["minimal_action_set"]["n"].get<int>());
    CHECK(spec.max_episode_steps == 0);

    const auto* env = dynamic_cast<const minatar_env*>(made.get());
    REQUIRE(env != nullptr);
    CHECK(env->channel_names() == ref["channels"].get<std::vector<std::string>>());
    CHECK(env->action_set() == ref["minimal_action_set"]["indices"].get<std::vector<int>>());
    CHECK(env->ramp_index() == (ref["uses_difficulty_ramping"].get<bool>() ? 0 : -1));

    config.minatar.full_action_set = true;
    const auto full = troupe::catalog::make_env(config);
    CHECK(full->spec().action.n == 6);
    CHECK(dynamic_cast<const minatar_env&>(*full).action_set() ==
          ref["full_action_set"]["indices"].get<std::vector<int>>());
  }
}

TEST_CASE("MinAtar minimal action indices map onto the full set") {
  minatar_env env(game::breakout, options(0.0, false, true));
  std::vector<float> obs(400);
  env.reset(3, obs.data());
  for (int index = 0; index < 3; ++index) {
    const float action = index;
    env.step(&action, obs.data());
    CHECK(env.last_action() == std::array<int, 3>{0, 1, 3}[index]);
  }
  const float outside = 3;
  CHECK_THROWS_AS(env.step(&outside, obs.data()), std::out_of_range);
}

TEST_CASE("MinAtar reset cells for seed 0 match the reference") {
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    const auto& ref = games_json()["games"][name];
    minatar_env env(which);
    std::vector<float> obs(size_t(100 * env.channels()));
    env.reset(0, obs.data());
    const auto names = env.channel_names();
    for (int c = 0; c < env.channels(); ++c) {
      CAPTURE(names[c]);
      std::set<std::array<int, 2>> expected;
      for (const auto& cell : ref["initial_state_cells_yx_seed0"][names[c]])
        expected.insert({cell[0].get<int>(), cell[1].get<int>()});
      CHECK(cells_of(obs, env.channels(), c) == expected);
    }
  }
}

TEST_CASE("MinAtar repeats the previous action with the sticky probability") {
  for (const double p : {0.1, 0.3}) {
    CAPTURE(p);
    minatar_env env(game::breakout, options(p, false, true));
    std::vector<float> obs(400);
    env.reset(11, obs.data());
    // Alternate left and right: whenever the request differs from the previous
    // executed action, the game repeating the old one reveals a sticky draw.
    int chances = 0, sticky = 0, previous = env.last_action();
    for (int t = 0; t < 20000; ++t) {
      const float action = 1 + t % 2;  // minimal indices 1, 2 = left, right
      const int requested = env.action_set()[static_cast<int>(action)];
      const auto r = env.step(&action, obs.data());
      if (requested != previous) {
        ++chances;
        sticky += env.last_action() == previous;
      }
      previous = env.last_action();
      if (r.terminated) env.reset(obs.data());
    }
    const double rate = double(sticky) / chances;
    const double sd = std::sqrt(p * (1 - p) / chances);
    CHECK(std::abs(rate - p) < 5 * sd);
  }
  minatar_env never(game::breakout, options(0.0, true, true));
  std::vector<float> obs(400);
  never.reset(1, obs.data());
  for (int t = 0; t < 2000; ++t) {
    const float action = t % 6;
    if (never.step(&action, obs.data()).terminated) never.reset(obs.data());
    REQUIRE(never.last_action() == t % 6);
  }
}

TEST_CASE("MinAtar difficulty_ramping=false stops every ramp and changes nothing else") {
  std::vector<float> obs(1000);
  const float noop = 0, up = 2;
  // Asterix ramps on a timer: force the timer to expire.
  for (const bool ramping : {true, false}) {
    CAPTURE(ramping);
    minatar_env env(game::asterix, options(0.0, true, ramping));
    env.reset(0, obs.data());
    std::get<minatar::asterix>(env.state()).ramp_timer = -1;
    env.step(&noop, obs.data());
    const auto& a = std::get<minatar::asterix>(env.state());
    CHECK(a.ramp_index == (ramping ? 1 : 0));
    CHECK(a.spawn_interval == (ramping ? 9 : 10));
  }
  // Seaquest ramps when it surfaces with a diver.
  for (const bool ramping : {true, false}) {
    CAPTURE(ramping);
    minatar_env env(game::seaquest, options(0.0, true, ramping));
    env.reset(0, obs.data());
    auto& s = std::get<minatar::seaquest>(env.state());
    s.sub_y = 1, s.surfaced = false, s.diver_count = 1;
    const auto r = env.step(&up, obs.data());
    CHECK_FALSE(r.terminated);
    CHECK(s.oxygen == minatar::seaquest::max_oxygen);
    CHECK(s.ramp_index == (ramping ? 1 : 0));
    CHECK(s.spawn_interval == (ramping ? 19 : 20));
  }
  // Surfacing with six divers pays the oxygen bonus and leaves the count at -1.
  {
    minatar_env env(game::seaquest, options(0.0, true, true));
    env.reset(0, obs.data());
    auto& s = std::get<minatar::seaquest>(env.state());
    s.sub_y = 1, s.surfaced = false, s.diver_count = 6, s.oxygen = 150;
    const auto r = env.step(&up, obs.data());
    CHECK(r.reward == 7);  // floor(150 * 10 / 200)
    CHECK(s.diver_count == -1);
    CHECK(s.oxygen == minatar::seaquest::max_oxygen);
    CHECK(cells_of(obs, 10, 8).empty());  // a negative count draws no gauge
  }
  // Space Invaders ramps when a wave is cleared: shoot the last alien.
  for (const bool ramping : {true, false}) {
    CAPTURE(ramping);
    minatar_env env(game::space_invaders, options(0.0, true, ramping));
    env.reset(0, obs.data());
    auto& s = std::get<minatar::space_invaders>(env.state());
    s.aliens = {};
    s.aliens[3][0] = true;
    s.friendly_bullets[4][0] = true;
    const auto r = env.step(&noop, obs.data());
    CHECK(r.reward == 1);
    CHECK(s.alien_count() == 24);  // a fresh wave
    CHECK(s.ramp_index == (ramping ? 1 : 0));
    CHECK(s.move_interval == (ramping ? 11 : 12));
  }
  // Before the first ramp, Asterix plays the same with or without ramping.
  {
    minatar_env on(game::asterix, options(0.1, true, true));
    minatar_env off(game::asterix, options(0.1, true, false));
    std::vector<float> a(400), b(400);
    on.reset(4, a.data());
    off.reset(4, b.data());
    std::mt19937 policy(4);
    for (int t = 0; t < 101; ++t) {
      const float action = float(policy() % 6);
      const auto ra = on.step(&action, a.data());
      const auto rb = off.step(&action, b.data());
      REQUIRE(a == b);
      REQUIRE(ra.reward == rb.reward);
      if (ra.terminated) break;
    }
  }
  // Breakout and Freeway ignore the flag: their recordings replay with it off.
  for (const auto& [name, which] : {minatar_games[1], minatar_games[2]}) {
    CAPTURE(name);
    const auto& data = trajectories_json()["games"][name];
    minatar_env env(which, options(0.1, true, false));
    env.seed(0);
    for (const auto& episode : data["episodes"]) {
      env.reset(obs.data());
      CHECK(replay_episode(env, episode, true) == 0);
    }
  }
}

TEST_CASE("MinAtar episode lengths the reference states") {
  std::vector<float> obs(1000);
  // Freeway ends on its own clock: exactly 2501 frames, whatever the chicken does.
  {
    minatar_env env(game::freeway);
    env.reset(8, obs.data());
    const float up = 1;  // minimal index 1 = up
    int frames = 0;
    bool ended = false;
    while (!ended && frames < 3000) {
      ended = env.step(&up, obs.data()).terminated;
      ++frames;
    }
    CHECK(frames == 2501);
  }
  // Space Invaders with the always-no-op policy lasts exactly 17 frames.
  for (std::uint64_t seed : {0u, 1u, 2u}) {
    minatar_env env(game::space_invaders);
    env.reset(seed, obs.data());
    const float noop = 0;
    int frames = 0;
    while (frames < 100 && !env.step(&noop, obs.data()).terminated) ++frames;
    CHECK(frames + 1 == 17);
  }
  // Seaquest's always-no-op policy never terminates (the sub stays at the surface).
  {
    minatar_env env(game::seaquest);
    env.reset(3, obs.data());
    const float noop = 0;
    for (int t = 0; t < 1000; ++t) REQUIRE_FALSE(env.step(&noop, obs.data()).terminated);
  }
  // A Seaquest sub that dives on frame 1 and never comes back runs out of air on frame 201.
  {
    minatar_env env(game::seaquest, options(0.0, true, true));
    env.reset(0, obs.data());
    auto& s = std::get<minatar::seaquest>(env.state());
    s.spawn_timer = s.diver_spawn_timer = 1 << 20;  // an empty sea
    const float down = 4, noop = 0;
    int frames = 1;
    env.step(&down, obs.data());
    while (frames < 1000 && !env.step(&noop, obs.data()).terminated) ++frames;
    CHECK(frames + 1 == 201);
  }
  // Asterix ramps on frames 102, 204 and 306.
  {
    minatar_env env(game::asterix, options(0.0, true, true));
    env.reset(0, obs.data());
    auto& a = std::get<minatar::asterix>(env.state());
    const float noop = 0;
    std::vector<int> ramps;
    for (int frame = 1; frame <= 320; ++frame) {
      a.spawn_timer = 1 << 20;  // nobody spawns, so the player lives
      const int before = a.ramp_index;
      env.step(&noop, obs.data());
      if (a.ramp_index != before) ramps.push_back(frame);
    }
    CHECK(ramps == std::vector<int>{102, 204, 306});
    CHECK(a.spawn_interval == 7);
    CHECK(a.move_interval == 4);  // drops on the 2nd ramp only, so far
  }
  // Once terminal, a game stays terminal and gives nothing.
  {
    minatar_env env(game::space_invaders);
    env.reset(0, obs.data());
    const float noop = 0;
    while (!env.step(&noop, obs.data()).terminated) {
    }
    const auto before = obs;
    const auto r = env.step(&noop, obs.data());
    CHECK(r.terminated);
    CHECK(r.reward == 0);
    CHECK(obs == before);
  }
}

TEST_CASE("MinAtar random play keeps the board and rewards well formed") {
  // Form only: the next test compares the random policy's statistics with the reference.
  std::mt19937 policy(17);
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    minatar_env env(which);
    const int n = env.spec().action.n;
    std::vector<float> obs(size_t(100 * env.channels()));
    env.reset(5, obs.data());
    int episodes = 0;
    for (int t = 0; t < 5000; ++t) {
      const float action = float(policy() % n);
      const auto r = env.step(&action, obs.data());
      REQUIRE(r.reward >= 0);
      REQUIRE(r.reward == std::floor(r.reward));
      REQUIRE(std::all_of(obs.begin(), obs.end(), [](float v) { return v == 0.f || v == 1.f; }));
      if (r.terminated) {
        ++episodes;
        env.reset(obs.data());
      }
    }
    if (which != game::seaquest) CHECK(episodes > 0);
  }
}

TEST_CASE("MinAtar random-policy return and length agree with the reference over 1000 episodes") {
  // tests/data/minatar_random_reference.json was made by running the reference
  // implementation itself (scripts/minatar_random_reference.py): 1000 episodes
  // per game, uniform over the minimal action set, sticky 0.1, ramping on.
  // Here `troupe rollout`'s own code path plays 1000 more with its own seeds.
  // Both are samples of one distribution if the rules agree, so the means may
  // differ only by noise: at most 4 standard errors of the difference
  // (a false alarm about once in 16,000 comparisons for normal means).
  const nlohmann::json reference = [] {
    std::ifstream in(std::string(TROUPE_SOURCE_DIR) + "/tests/data/minatar_random_reference.json");
    REQUIRE(in.good());
    return nlohmann::json::parse(in);
  }();
  REQUIRE(reference["sticky_action_prob"].get<double>() == 0.1);
  REQUIRE(reference["difficulty_ramping"].get<bool>());
  const int episodes = reference["episodes"].get<int>();
  REQUIRE(episodes == 1000);
  REQUIRE(reference["games"].size() == minatar_games.size());
  for (const auto& [name, which] : minatar_games) {
    const std::string id = minatar_env::id_of(which);
    CAPTURE(id);
    const auto& ref = reference["games"][id];
    REQUIRE(ref["reference_game"].get<std::string>() == name);
    const auto env = troupe::catalog::make_env(id);
    troupe::envs::rollout_options opts;
    opts.policy = troupe::envs::fixed_policy::random;
    opts.episodes = episodes;
    opts.seed = 1;
    const auto ours = troupe::envs::run_policy_rollout(*env, opts);
    REQUIRE(ours.episodes_cut == 0);  // every episode ended by the game's own rules
    auto agree = [&](const std::string& what, const troupe::envs::summary_stats& s,
                     const std::string& key) {
      const double ref_mean = ref[key + "_mean"].get<double>();
      const double ref_std = ref[key + "_std"].get<double>();
      const double standard_error =
          std::sqrt((s.std * s.std + ref_std * ref_std) / episodes);
      MESSAGE(id << " " << what << ": ours " << s.mean << " (std " << s.std << "), reference "
                 << ref_mean << " (std " << ref_std << ")");
      CHECK(std::abs(s.mean - ref_mean) <= 4 * standard_error);
    };
    agree("return", ours.return_stats, "return");
    agree("length", ours.length_stats, "length");
  }
}

TEST_CASE("MinAtar renders one colour per channel on a dark board") {
  for (const auto& [name, which] : minatar_games) {
    CAPTURE(name);
    minatar_env env(which);
    CHECK(env.spec().pixel_art);
    std::vector<float> obs(size_t(100 * env.channels()));
    env.reset(0, obs.data());
    const float action = 0;
    for (int t = 0; t < 30; ++t)
      if (env.step(&action, obs.data()).terminated) break;

    // The palette: distinct colours, none the background's.
    std::set<std::array<std::uint8_t, 3>> palette;
    const auto bg = minatar_env::background;
    for (int c = 0; c < env.channels(); ++c) {
      const auto col = env.channel_colour(c);
      palette.insert({col.r, col.g, col.b});
    }
    palette.insert({bg.r, bg.g, bg.b});
    CHECK(palette.size() == size_t(env.channels() + 1));
    CHECK(int(bg.r) + bg.g + bg.b < 100);

    troupe::envs::rgb_frame frame;
    env.render(frame);
    REQUIRE(frame.width == 100);
    REQUIRE(frame.height == 100);
    // Every cell is filled with the colour of one of its channels, or the background.
    std::set<std::array<std::uint8_t, 3>> seen;
    for (int y = 0; y < 10; ++y)
      for (int x = 0; x < 10; ++x) {
        const size_t p = (size_t(y * 10 + 5) * 100 + x * 10 + 5) * 3;
        const std::array<std::uint8_t, 3> pixel{frame.pixels[p], frame.pixels[p + 1],
                                                frame.pixels[p + 2]};
        seen.insert(pixel);
        bool matches = false, any = false;
        for (int c = 0; c < env.channels(); ++c) {
          if (obs[size_t((y * 10 + x) * env.channels() + c)] == 0.f) continue;
          any = true;
          const auto col = env.channel_colour(c);
          matches = matches || pixel == std::array<std::uint8_t, 3>{col.r, col.g, col.b};
        }
        if (!any) matches = pixel == std::array<std::uint8_t, 3>{bg.r, bg.g, bg.b};
        CHECK(matches);
      }
    CHECK(seen.size() > 1);
  }
  // Breakout at reset: paddle, ball over its brick, bricks, an empty row.
  minatar_env env(game::breakout);
  std::vector<float> obs(400);
  env.reset(0, obs.data());
  troupe::envs::rgb_frame frame;
  env.render(frame);
  auto colour_at = [&](int cx, int cy) {
    const size_t p = (size_t(cy * 10 + 5) * 100 + cx * 10 + 5) * 3;
    return std::array<std::uint8_t, 3>{frame.pixels[p], frame.pixels[p + 1], frame.pixels[p + 2]};
  };
  auto rgb = [](minatar::colour c) { return std::array<std::uint8_t, 3>{c.r, c.g, c.b}; };
  CHECK(colour_at(4, 9) == rgb(env.channel_colour(0)));
  CHECK(colour_at(0, 3) == rgb(env.channel_colour(1)));
  CHECK(colour_at(5, 2) == rgb(env.channel_colour(3)));
  CHECK(colour_at(5, 6) == rgb(minatar_env::background));
}
}
