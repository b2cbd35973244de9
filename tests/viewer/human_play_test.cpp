// A person against the trained policy (troupe play --human,
// app/human_play.hpp): the window queues clicks on the picture and digit
// keys, a click maps to the column under it, a move that is not one is
// ignored, the policy replies in the same step and its probabilities reach
// the panel; the command shows the board with the policy's opening move when
// the person sits second. In a simultaneous game (Duel Pong) the game does
// not wait: each step takes the direction keys held then, or the last digit
// where the game's actions have no directions.
#include <doctest/doctest.h>

#include <memory>
#include <regex>
#include <string>
#include <vector>

#include "agents/league/match.hpp"
#include "app/human_play.hpp"
#include "envs/env_vector.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "games/builtin/duel_pong.hpp"
#include "games/seat_vector.hpp"
#include "games/seat_vector.hpp"
#include "model/shared_model.hpp"
#include "tests/viewer/headless.hpp"
#include "tests/viewer/sdl_events.hpp"
#include "viewer/overlay_panel.hpp"
#include "viewer/viewer_window.hpp"

using namespace troupe;

namespace {

envs::rgb_frame square_frame() {
  envs::rgb_frame f;
  f.resize(10, 10);
  return f;
}

// The trained side of one game: `model`'s moves, each counted in `replies`
// and shown to `person` once it is set.
std::unique_ptr<games::opponents> replying_policy(std::shared_ptr<model::shared_model> model, const envs::env_spec& spec,
                                                 int& replies, app::human_policy*& person) {
  return agents::model_opponents(std::move(model), 1, spec, false,
                                 [&replies, &person](const float* p, const float* a, const std::uint8_t* legal) {
                                   ++replies;
                                   if (person) person->policy_moved(p, a, legal);
                                 });
}

// Three actions without names, one step an episode; the picture one pixel.
class three_actions final : public envs::env, public envs::renderable {
 public:
  three_actions() : spec_{"ThreeActions", envs::space::box_space({1}, {0}, {1}), envs::space::discrete_space(3), 0} {}
  const envs::env_spec& spec() const override { return spec_; }
  void reset(std::uint64_t, float* observation) override { observation[0] = 0; }
  envs::step_result step(const float*, float* observation) override {
    observation[0] = 0;
    return {};
  }
  void render(envs::rgb_frame& frame) const override { frame.resize(1, 1); }

 private:
  envs::env_spec spec_;
};

}  // namespace

TEST_SUITE("viewer") {
TEST_CASE("the window queues a person's clicks on the picture and digit keys, not clicks on the panel") {
  troupe::tests::dummy_video video;
  // A 10 x 10 frame is drawn 36 times larger (360 x 360), the panel right of
  // it; the window is exactly the composed picture's size.
  const int k = viewer::frame_scale(10);
  REQUIRE(k * 10 == 360);
  viewer::viewer_options options;
  options.width = 360 + viewer::panel_layout::width;
  options.height = 360;
  viewer::viewer_window window(options);
  window.show(square_frame(), {}, true);
  REQUIRE(window.poll_events());
  CHECK_FALSE(window.take_input());
  troupe::tests::click(90, 180);   // a quarter across the frame, half down
  troupe::tests::click(500, 100);  // the panel: no move
  troupe::tests::press(SDLK_7);
  troupe::tests::press(SDLK_KP_0);
  troupe::tests::press(SDLK_a);  // not a move
  REQUIRE(window.poll_events());
  auto in = window.take_input();
  REQUIRE(in);
  CHECK(in->click);
  CHECK(in->u == doctest::Approx(0.25).epsilon(0.01));
  CHECK(in->v == doctest::Approx(0.5).epsilon(0.01));
  in = window.take_input();
  REQUIRE(in);
  CHECK_FALSE(in->click);
  CHECK(in->digit == 7);
  in = window.take_input();
  REQUIRE(in);
  CHECK(in->digit == 0);
  CHECK_FALSE(window.take_input());
}

TEST_CASE("the window tells which direction keys are held, until released or the keyboard is lost") {
  troupe::tests::dummy_video video;
  viewer::viewer_window window;
  window.show(square_frame(), {}, true);
  REQUIRE(window.poll_events());
  CHECK_FALSE(window.keys_held().up);
  CHECK_FALSE(window.keys_held().down);
  troupe::tests::press(SDLK_UP);
  REQUIRE(window.poll_events());
  CHECK(window.keys_held().up);
  CHECK_FALSE(window.keys_held().down);
  CHECK_FALSE(window.take_input());  // a held key is no queued move
  troupe::tests::release(SDLK_UP);
  troupe::tests::press(SDLK_s);
  REQUIRE(window.poll_events());
  CHECK_FALSE(window.keys_held().up);
  CHECK(window.keys_held().down);
  troupe::tests::press(SDLK_w);
  REQUIRE(window.poll_events());
  CHECK(window.keys_held().up);
  CHECK(window.keys_held().down);
  SDL_Event lost{};
  lost.type = SDL_WINDOWEVENT;
  lost.window.event = SDL_WINDOWEVENT_FOCUS_LOST;
  REQUIRE(SDL_PushEvent(&lost) == 1);
  REQUIRE(window.poll_events());
  CHECK_FALSE(window.keys_held().up);
  CHECK_FALSE(window.keys_held().down);
}

TEST_CASE("a person in Duel Pong: the game does not wait, each step takes the arrows held, the policy replies") {
  troupe::tests::dummy_video video;
  std::vector<std::unique_ptr<games::simultaneous_env>> games;
  games.push_back(std::make_unique<games::duel_pong>());
  const envs::env_spec spec = games.front()->spec();
  auto model = model::make_shared_model(model::mlp_spec(6, 3, {16}), 3);
  int replies = 0;
  app::human_policy* person = nullptr;
  auto policy = replying_policy(model, spec, replies, person);
  envs::vector_as_env side(
      std::make_unique<games::seat_vector>(std::move(games), games::seat_choice::first, std::move(policy)));
  app::human_policy you(side, 5, app::human_policy::pace::real_time);
  person = &you;
  CHECK(you.moves_by_arrows());
  viewer::viewer_window window;
  std::vector<float> obs(6), action(1, -1.f);
  side.reset(you.start_episode(0), obs.data());
  viewer::overlay_info info;
  const auto move = [&] {
    REQUIRE(window.poll_events());
    REQUIRE(you.ready(window, info));  // never waits
    you.act(obs.data(), action.data(), info);
    return int(action[0]);
  };
  CHECK(move() == 0);  // nothing held: stay
  troupe::tests::press(SDLK_DOWN);
  troupe::tests::press(SDLK_1);  // digits do not move a paddle the arrows move
  CHECK(move() == 2);
  const float start = obs[0];  // the person's paddle's y
  for (int i = 0; i < 5; ++i) {
    CHECK(move() == 2);  // held: down at every step
    side.step(action.data(), obs.data());
  }
  CHECK(obs[0] == doctest::Approx(start + 5 * games::duel_pong::paddle_speed));
  CHECK(replies == 5);  // the policy moved at every step, with the person
  CHECK(info.action_probabilities.size() == 3);
  troupe::tests::release(SDLK_DOWN);
  troupe::tests::press(SDLK_w);
  CHECK(move() == 1);
  troupe::tests::release(SDLK_w);
  CHECK(move() == 0);
}

TEST_CASE("a person in a simultaneous game without directions: the last digit pressed is kept") {
  troupe::tests::dummy_video video;
  three_actions game;
  app::human_policy you(game, 5, app::human_policy::pace::real_time);
  CHECK_FALSE(you.moves_by_arrows());
  viewer::viewer_window window;
  float obs = 0, action = -1;
  you.start_episode(0);
  viewer::overlay_info info;
  const auto move = [&] {
    REQUIRE(window.poll_events());
    REQUIRE(you.ready(window, info));
    you.act(&obs, &action, info);
    return int(action);
  };
  CHECK(move() == 0);
  troupe::tests::press(SDLK_3);
  CHECK(move() == 2);
  CHECK(move() == 2);  // kept
  troupe::tests::press(SDLK_9);  // no ninth action
  troupe::tests::press(SDLK_UP);  // no direction here
  CHECK(move() == 2);
  troupe::tests::press(SDLK_1);
  CHECK(move() == 0);
  you.start_episode(1);
  troupe::tests::press(SDLK_2);
  CHECK(move() == 1);
  you.start_episode(2);  // a new episode starts idle
  CHECK(move() == 0);
}

TEST_CASE("a person's moves against a policy: digits and clicks, illegal ones ignored, the reply in the panel") {
  troupe::tests::dummy_video video;
  std::vector<std::unique_ptr<games::turn_based_env>> games;
  games.push_back(std::make_unique<games::connect_four_game>());
  const envs::env_spec spec = games.front()->spec();
  auto model = model::make_shared_model(model::mlp_spec(84, 7, {16}), 3);
  int replies = 0;
  app::human_policy* person = nullptr;
  auto policy = replying_policy(model, spec, replies, person);
  envs::vector_as_env seat(
      std::make_unique<games::seat_vector>(std::move(games), games::seat_choice::first, std::move(policy)));
  app::human_policy you(seat, 5);
  person = &you;
  viewer::viewer_window window;
  std::vector<float> obs(84), action(1, -1.f);
  seat.reset(you.start_episode(0), obs.data());
  viewer::overlay_info info;
  CHECK_FALSE(you.ready(window, info));  // nothing chosen yet
  CHECK(info.title.find("your move") != std::string::npos);
  troupe::tests::press(SDLK_9);  // the ninth action: Connect Four has seven
  troupe::tests::press(SDLK_4);
  REQUIRE(window.poll_events());
  REQUIRE(you.ready(window, info));
  you.act(obs.data(), action.data(), info);
  CHECK(action[0] == 3);
  CHECK_FALSE(you.ready(window, info));  // act took the move
  seat.step(action.data(), obs.data());
  CHECK(replies == 1);  // the policy answered in the same step
  // The person's piece in column 3's bottom row (plane 0 is the mover's own),
  // and one piece of the policy's somewhere.
  CHECK(obs[size_t((5 * 7 + 3) * 2)] == 1);
  int theirs = 0;
  for (int c = 0; c < 42; ++c) theirs += obs[size_t(c * 2 + 1)] == 1;
  CHECK(theirs == 1);
  you.ready(window, info);
  CHECK(info.action_probabilities.size() == 7);  // the policy's reply, for the panel
  CHECK(info.chosen_actions.size() == 1);
  // A click on the picture: the column under it.
  const int column = static_cast<const envs::renderable&>(seat).action_at(6.5 / 7, 0.3);
  CHECK(column == 6);
  CHECK(static_cast<const envs::renderable&>(seat).action_at(1.2, 0.3) == -1);
}

TEST_CASE("troupe play --human shows the board, with the policy's opening move when the person sits second") {
  const std::string dir = troupe::tests::fresh_dir("human_play");
  auto r = troupe::tests::run_troupe("train " + std::string(TROUPE_SOURCE_DIR) +
                                     "/configs/connect_four_ppo.yaml --run-dir " + dir +
                                     " --set run.stop.env_steps=2000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const std::string seat : {"first", "second"}) {
    const std::string png = dir + "/" + seat + ".png";
    r = troupe::tests::troupe_headless("play " + dir + " --human --seat " + seat + " --frames 1 --screenshot " + png);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("you against") != std::string::npos);
    const auto counts = troupe::tests::colour_counts(troupe::tests::read_png(png));
    const long red = troupe::tests::count_of(counts, {220, 60, 50});      // the first seat's pieces
    const long yellow = troupe::tests::count_of(counts, {240, 210, 60});  // the second's
    CHECK(yellow == 0);
    if (seat == "first")
      CHECK(red == 0);  // the person moves first: an empty board
    else
      CHECK(red > 500);  // the policy's opening piece
  }
  r = troupe::tests::troupe_headless("play " + dir + " --human --seat middle --frames 1");
  CHECK(r.exit_code != 0);
}

TEST_CASE("troupe play --human in Duel Pong runs on without a key pressed, both paddles on screen") {
  const std::string dir = troupe::tests::fresh_dir("human_play_pong");
  auto r = troupe::tests::run_troupe("train " + std::string(TROUPE_SOURCE_DIR) +
                                     "/configs/connect_four_selfplay.yaml --run-dir " + dir +
                                     " --set env.id=DuelPong-v0 --set model.kind=mlp --set selfplay.builtin=[track]"
                                     " --set run.stop.env_steps=2000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  const std::string png = dir + "/pong.png";
  r = troupe::tests::troupe_headless("play " + dir + " --human --seat second --fps 200 --frames 30 --screenshot " +
                                     png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("hold up / down") != std::string::npos);
  // 30 frames shown, about a step each: the game did not wait for a key.
  std::smatch steps;
  REQUIRE(std::regex_search(r.output, steps, std::regex(", (\\d+) env steps")));
  CHECK(std::stol(steps[1]) >= 25);
  const auto counts = troupe::tests::colour_counts(troupe::tests::read_png(png));
  CHECK(troupe::tests::count_of(counts, {90, 200, 255}) > 100);  // the left paddle (games/builtin/duel_pong.cpp)
  CHECK(troupe::tests::count_of(counts, {255, 140, 60}) > 100);  // the right one: the person's
}

TEST_CASE("troupe play --human in Signal-v0 seats the person where the policy is not; each sees what its agent may") {
  const std::string dir = troupe::tests::fresh_dir("human_play_signal");
  auto r = troupe::tests::run_troupe("train " + std::string(TROUPE_SOURCE_DIR) + "/configs/signal_policies.yaml --run-dir " +
                                     dir + " --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  // The sender's policy: the person is the receiver, and sees the signal
  // the policy sent (the game's colours, games/builtin/signal_game.cpp).
  const std::string png = dir + "/signal.png";
  r = troupe::tests::troupe_headless("play " + dir + " --policy sender --human --frames 1 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("click the board or press 1-3") != std::string::npos);  // the receiver's three guesses
  const auto counts = troupe::tests::colour_counts(troupe::tests::read_png(png));
  CHECK(troupe::tests::count_of(counts, {80, 160, 230}) > 500);  // a signal sent
  CHECK(troupe::tests::count_of(counts, {230, 200, 60}) == 0);   // and the secret hidden from the receiver
  r = troupe::tests::troupe_headless("play " + dir + " --policy sender --human --seat first --frames 1");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("the policy plays sender (first)") != std::string::npos);
  // The receiver's policy: the person sends, and sees the secret to send.
  r = troupe::tests::troupe_headless("play " + dir + " --policy receiver --human --frames 1 --screenshot " + png);
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("press 1-4") != std::string::npos);
  const auto sending = troupe::tests::colour_counts(troupe::tests::read_png(png));
  CHECK(troupe::tests::count_of(sending, {230, 200, 60}) > 500);
  CHECK(troupe::tests::count_of(sending, {80, 160, 230}) == 0);  // nothing sent yet
}
TEST_CASE("troupe play --human in games of three agents: the policy plays both others of Nim, a Spread team beside you") {
  const std::string dir = troupe::tests::fresh_dir("human_play_nim");
  auto r = troupe::tests::run_troupe("train " + std::string(TROUPE_SOURCE_DIR) + "/configs/nim3.yaml --run-dir " +
                                     dir + " --set run.stop.env_steps=2000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  for (const std::string seat : {"first", "third"}) {
    const std::string png = dir + "/" + seat + ".png";
    r = troupe::tests::troupe_headless("play " + dir + " --human --seat " + seat + " --frames 1 --screenshot " + png);
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    CHECK(r.output.find("press 1-3") != std::string::npos);
    // Counters left and taken (games/builtin/nim_game.cpp's colours): in the
    // third seat the policy has made both others' opening moves.
    const auto counts = troupe::tests::colour_counts(troupe::tests::read_png(png));
    const long taken = troupe::tests::count_of(counts, {55, 55, 70});
    CHECK(troupe::tests::count_of(counts, {230, 200, 90}) > 500);
    if (seat == "first")
      CHECK(taken == 0);
    else
      CHECK(taken > 300);  // at least two counters
  }
  r = troupe::tests::troupe_headless("play " + dir + " --human --seat fourth --frames 1");
  CHECK(r.exit_code == 2);
  CHECK(r.output.find("no fourth seat") != std::string::npos);

  const std::string team = troupe::tests::fresh_dir("human_play_spread");
  r = troupe::tests::run_troupe("train " + std::string(TROUPE_SOURCE_DIR) + "/configs/spread.yaml --run-dir " + team +
                                " --set run.stop.env_steps=3000 --set log.progress=false");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  r = troupe::tests::troupe_headless("play " + team + " --human --seat second --fps 200 --frames 30");
  INFO(r.output);
  REQUIRE(r.exit_code == 0);
  CHECK(r.output.find("keys 1-5") != std::string::npos);
  std::smatch steps;
  REQUIRE(std::regex_search(r.output, steps, std::regex(", (\\d+) env steps")));
  CHECK(std::stol(steps[1]) >= 25);  // it ran on without a key pressed
}
}
