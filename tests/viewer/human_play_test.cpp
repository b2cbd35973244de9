// A person against the trained policy (troupe play --human,
// app/human_play.hpp): the window queues clicks on the picture and digit
// keys, a click maps to the column under it, a move that is not one is
// ignored, the policy replies in the same step and its probabilities reach
// the panel; the command shows the board with the policy's opening move when
// the person sits second.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "agents/match.hpp"
#include "app/human_play.hpp"
#include "envs/env_vector.hpp"
#include "envs/games/connect_four_game.hpp"
#include "envs/seat_vector.hpp"
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

TEST_CASE("a person's moves against a policy: digits and clicks, illegal ones ignored, the reply in the panel") {
  troupe::tests::dummy_video video;
  std::vector<std::unique_ptr<envs::turn_based_env>> games;
  games.push_back(std::make_unique<envs::games::connect_four_game>());
  const envs::env_spec spec = games.front()->spec();
  auto model = model::make_shared_model(model::mlp_spec(84, 7, {16}), 3);
  int replies = 0;
  app::human_policy* person = nullptr;
  auto policy = agents::model_opponents(model, 1, spec, false,
                                        [&](const float* p, const float* a, const std::uint8_t* legal) {
                                          ++replies;
                                          if (person) person->policy_moved(p, a, legal);
                                        });
  envs::vector_as_env seat(
      std::make_unique<envs::seat_vector>(std::move(games), envs::seat_choice::first, std::move(policy)));
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
}
