// actors/league/selfplay_pool.hpp: snapshots are one version of the learner's
// parameters, frozen, served by owners of their own; the pool's files and
// ratings come back on resume.
#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <map>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "actors/model_owner.hpp"
#include "actors/actor_system_setup.hpp"
#include "actors/league/selfplay_pool.hpp"
#include "games/builtin/connect_four_game.hpp"
#include "run/config_loader.hpp"
#include "tests/temp_files.hpp"

using namespace troupe;

namespace {

double parameter_checksum(model::shared_model& m) {
  const std::vector<float> p = model::flat_parameters(m);
  double sum = 0;
  for (size_t i = 0; i < p.size(); ++i) sum += double(p[i]) * double(i % 97 + 1);
  return sum;
}

struct pool_fixture {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::shared_ptr<model::shared_model> learning;
  actors::model_owner_actor owner;
  std::shared_ptr<actors::predict_lane> lane = std::make_shared<actors::predict_lane>();
  actors::selfplay_setup setup;

  explicit pool_fixture(const std::string& dir, int pool_size = 8) {
    actors::configure_actor_system(cfg);
    sys = std::make_unique<caf::actor_system>(cfg);
    learning = model::make_shared_model(model::mlp_spec(84, 7, {32}), 3);
    model::warm_up(*learning, 64);
    owner = actors::spawn_model_owner(*sys, learning, {64}, 5, lane);
    setup.selfplay.pool_size = pool_size;
    setup.batching.max_batch = 64;
    setup.dir = dir;
    setup.config_yaml = "run:\n  name: test\n";
  }
  std::shared_ptr<actors::selfplay_pool> pool() {
    return std::make_shared<actors::selfplay_pool>(*sys, learning, owner, lane, setup);
  }
  ~pool_fixture() { caf::anon_send_exit(owner, caf::exit_reason::user_shutdown); }
};

// One update of the learner: every parameter moves.
void learner_step(model::shared_model& m, float by) {
  std::vector<float> delta(model::flat_parameters(m).size(), by);
  model::apply_delta(m, delta);
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("selfplay pool: a snapshot is one version of the learner, and stays frozen while learning goes on") {
  const std::string dir = tests::temp_file("selfplay_frozen", "run/selfplay");
  std::filesystem::remove_all(dir);
  pool_fixture f(dir, 64);
  auto pool = f.pool();
  // The learner's checksum at each version, recorded by the updating thread.
  std::mutex lock;
  std::map<std::uint64_t, double> at_version{{model::current_version(*f.learning), parameter_checksum(*f.learning)}};
  std::atomic<bool> done{false};
  std::thread learner([&] {
    for (int i = 1; !done; ++i) {
      learner_step(*f.learning, 1e-4f * float(i % 7 - 3));
      const double c = parameter_checksum(*f.learning);
      std::lock_guard<std::mutex> guard(lock);
      at_version[model::current_version(*f.learning)] = c;
    }
  });
  std::vector<std::pair<std::uint64_t, double>> taken;  // id, checksum when taken
  for (int round = 0; round < 40; ++round) {
    const std::uint64_t id = pool->add_snapshot();
    auto s = pool->server_of(id);
    REQUIRE(s);
    taken.emplace_back(id, parameter_checksum(*s->model));
  }
  done = true;
  learner.join();
  CHECK(model::current_version(*f.learning) > 40);  // learning went on meanwhile
  std::set<std::uint64_t> versions;
  for (const auto& [id, sum] : taken) {
    auto s = pool->server_of(id);
    // Frozen: the same parameters now as when taken, whatever the learner did since.
    CHECK(parameter_checksum(*s->model) == sum);
    const std::uint64_t v = model::current_version(*s->model);
    versions.insert(v);
    // One whole version of the learner's: the checksum it had at that version.
    std::lock_guard<std::mutex> guard(lock);
    REQUIRE(at_version.count(v));
    CHECK(at_version[v] == sum);
    learner_step(*s->model, 1.f);  // a frozen model refuses updates
    CHECK(parameter_checksum(*s->model) == sum);
  }
  CHECK(versions.size() > 1);
  pool->stop();
}

TEST_CASE("selfplay pool: opponents from it answer every game through the owners, masks honoured, results rated") {
  const std::string dir = tests::temp_file("selfplay_opponents", "run/selfplay");
  std::filesystem::remove_all(dir);
  pool_fixture f(dir);
  f.setup.selfplay.latest_probability = 0.5;
  auto pool = f.pool();
  pool->add_snapshot();
  pool->add_snapshot();
  const envs::env_spec spec = games::connect_four_game().spec();
  const int games = 12;
  envs::env_config env;
  env.id = "ConnectFour-v0";
  auto others = actors::opponents_from(*f.sys, pool, games, env, spec);
  std::vector<int> rows(games);
  std::iota(rows.begin(), rows.end(), 0);
  std::vector<float> obs(size_t(games) * 84, 0.f), actions(size_t(games), -1.f);
  std::vector<std::uint8_t> masks(size_t(games) * 7, 0);
  for (int round = 0; round < 30; ++round) {
    for (int g = 0; g < games; ++g) {
      others->start_episode(g, std::uint64_t(round * 100 + g));
      std::fill_n(masks.begin() + g * 7, 7, 0);
      masks[size_t(g * 7 + (g + round) % 7)] = 1;  // one legal column
    }
    others->act(rows.data(), std::vector<int>(size_t(games), 1).data(), games, obs.data(), masks.data(), actions.data());
    for (int g = 0; g < games; ++g) CHECK(actions[size_t(g)] == float((g + round) % 7));
    // A viewer of game 0 sees who played it and that policy's outputs there.
    envs::other_seat_view watched;
    others->describe(0, watched);
    CHECK((watched.who == "itself" || watched.who.rfind("snapshot ", 0) == 0));
    CHECK(watched.policy.size() == 7);
    envs::other_seat_view unwatched;
    others->describe(1, unwatched);
    CHECK(unwatched.policy.empty());

    for (int g = 0; g < games; ++g) others->end_episode(g, g % 3 == 0 ? 1.0 : -1.0);
  }
  const agents::league::state st = pool->league().saved();
  CHECK(st.games == 30 * games);
  CHECK(st.self_games > 100);  // about half of 360
  CHECK(st.self_games < 260);
  std::int64_t snapshot_games = 0;
  for (const auto& s : st.pool) snapshot_games += s.games;
  CHECK(snapshot_games == st.games - st.self_games);
  others.reset();
  pool->stop();
}

TEST_CASE("selfplay pool: a player that searches the game, drawn where the games are not, is handed over with its seed") {
  // The learner's node moving for a worker's games: no play_in. A Python
  // game's alphabeta:N searches the game's own state, so it is handed over;
  // Connect Four's reads the board from the observation, so it plays here.
  const std::string dir = tests::temp_file("selfplay_handed_over", "run/selfplay");
  std::filesystem::remove_all(dir);
  pool_fixture f(dir);
  f.setup.selfplay.builtin = {"alphabeta:2", "alphabeta:3"};
  f.setup.selfplay.builtin_probability = 1.0;
  auto pool = f.pool();
  const int games = 8;
  envs::env_spec python_game = games::connect_four_game().spec();
  python_game.id = "python:tictactoe:make";
  envs::env_config env;
  env.id = python_game.id;
  auto others = actors::opponents_from(*f.sys, pool, games, env, python_game);
  auto again = actors::opponents_from(*f.sys, pool, games, env, python_game);
  std::vector<int> rows(games), movers(size_t(games), 1);
  std::iota(rows.begin(), rows.end(), 0);
  std::vector<float> obs(size_t(games) * 84, 0.f);
  std::vector<std::uint8_t> masks(size_t(games) * 7, 1);
  std::set<std::string> drawn;
  for (int round = 0; round < 10; ++round) {
    for (int g = 0; g < games; ++g) {
      const std::uint64_t seed = std::uint64_t(round * 100 + g);
      others->start_episode(g, seed);
      again->start_episode(g, seed);
      const auto handed = others->handed_over_at_start(g);
      REQUIRE(handed.has_value());
      drawn.insert(handed->player);
      // The player and its seed follow from the episode's seed alone.
      CHECK(again->handed_over_at_start(g)->player == handed->player);
      CHECK(again->handed_over_at_start(g)->seed == handed->seed);
      envs::other_seat_view view;
      others->describe(g, view);
      CHECK(view.who == handed->player);
    }
    // Nothing here plays them: their rows are left as they were.
    std::vector<float> actions(size_t(games), -1.f);
    others->act(rows.data(), movers.data(), games, obs.data(), masks.data(), actions.data());
    for (float a : actions) CHECK(a == -1.f);
    for (int g = 0; g < games; ++g) others->end_episode(g, g % 2 ? 1.0 : -1.0);
  }
  CHECK(drawn == std::set<std::string>{"alphabeta:2", "alphabeta:3"});
  // The results were rated against the players the games were handed to.
  std::int64_t builtin_games = 0;
  for (const auto& b : pool->league().saved().builtins) builtin_games += b.games;
  CHECK(builtin_games == 10 * games);

  // Connect Four's own alphabeta:2 plays on the learner's node: nothing handed over, every row answered.
  const envs::env_spec native = games::connect_four_game().spec();
  envs::env_config c4;
  c4.id = native.id;
  auto here = actors::opponents_from(*f.sys, pool, games, c4, native);
  std::vector<float> actions(size_t(games), -1.f);
  for (int g = 0; g < games; ++g) {
    here->start_episode(g, std::uint64_t(g));
    CHECK_FALSE(here->handed_over_at_start(g).has_value());
  }
  here->act(rows.data(), movers.data(), games, obs.data(), masks.data(), actions.data());
  for (float a : actions) CHECK((a >= 0.f && a < 7.f));
  others.reset();
  again.reset();
  here.reset();
  pool->stop();
}

TEST_CASE("selfplay pool: snapshots leave the pool with their files; a resumed pool serves the same ones, rated as they were") {
  const std::string dir = tests::temp_file("selfplay_resume", "run/selfplay");
  std::filesystem::remove_all(dir);
  pool_fixture f(dir, 2);
  std::vector<float> before;
  {
    auto pool = f.pool();
    for (int i = 0; i < 4; ++i) {
      pool->add_snapshot();
      learner_step(*f.learning, 0.01f);
    }
    CHECK_FALSE(pool->server_of(1));
    CHECK_FALSE(pool->server_of(2));
    CHECK_FALSE(std::filesystem::exists(dir + "/snapshots/1.pt"));
    CHECK_FALSE(std::filesystem::exists(dir + "/snapshots/2.pt"));
    CHECK(std::filesystem::exists(dir + "/snapshots/4.pt"));
    pool->league().record(4, 1.0);
    pool->save();
    before = model::flat_parameters(*pool->server_of(4)->model);
    pool->stop();
  }
  auto resumed = f.pool();
  resumed->restore();
  REQUIRE(resumed->server_of(4));
  CHECK(model::flat_parameters(*resumed->server_of(4)->model) == before);
  CHECK(resumed->league().saved().games == 1);
  CHECK(resumed->league().saved().next_id == 5);
  CHECK(resumed->league().pool().size() == 2);
  resumed->stop();
  // A damaged snapshot file is refused, naming it.
  {
    std::ofstream damage(dir + "/snapshots/3.pt", std::ios::binary | std::ios::in | std::ios::out);
    damage.seekp(40);
    damage << "xx";
  }
  auto again = f.pool();
  CHECK_THROWS_WITH_AS(again->restore(), doctest::Contains("snapshot 3"), run::config_error);
}

TEST_CASE("selfplay pool: league.json saved at checkpoints while snapshots are added on another thread: every save lands") {
  // With two policies, a policy's checkpoint saves its league on its
  // learner's thread while the other policy's learner adds snapshots to it.
  const std::string dir = tests::temp_file("selfplay_saves", "run/selfplay");
  std::filesystem::remove_all(dir);
  pool_fixture f(dir, 3);
  auto pool = f.pool();
  std::atomic<bool> done{false};
  std::atomic<int> failed{0}, saves{0};
  std::thread checkpoints([&] {
    while (!done) try {
        pool->save();
        ++saves;
      } catch (const std::exception&) {
        ++failed;
      }
  });
  for (int i = 0; i < 60; ++i) try {
      pool->add_snapshot();  // saves league.json too
    } catch (const std::exception&) {
      ++failed;
    }
  done = true;
  checkpoints.join();
  CHECK(saves > 0);
  CHECK(failed == 0);
  pool->stop();
  auto resumed = f.pool();
  resumed->restore();
  CHECK(resumed->league().saved().next_id == 61);
  resumed->stop();
}

TEST_CASE("selfplay pool: updates reported a batch at a time take a snapshot every snapshot_every_updates on average") {
  pool_fixture f("", 8);
  f.setup.selfplay.snapshot_every_updates = 20;
  auto pool = f.pool();
  // 16 updates a batch: 160 updates are 8 snapshots (at 32, 48, 64, 80, 112, 128, 144, 160).
  for (int batch = 0; batch < 10; ++batch) pool->on_updates(16);
  CHECK(pool->league().saved().next_id == 9);
  pool->stop();
}

TEST_CASE("selfplay pool: a team's ratings count two sides, so a team even with its snapshots stays level with them") {
  envs::opponent_options team;
  team.seat = "all";
  team.team = {"red_*"};
  CHECK(actors::rating_seats(team, 4) == 2);  // Contest-v0: red's two against blue's two
  envs::opponent_options seat;
  seat.seat = "first";
  CHECK(actors::rating_seats(seat, 3) == 3);  // Nim3-v0: a seat against two played by one opponent
  seat.seat = "alternate";
  CHECK(actors::rating_seats(seat, 2) == 2);
  // A team that wins and loses in turn against a snapshot: level with it
  // when counted as two sides; counted as the game's four seats, an even
  // result would read as beating three to one odds, and its rating would climb.
  for (const int seats : {actors::rating_seats(team, 4), 4}) {
    agents::league_settings s;
    s.seats = seats;
    agents::league l(s);
    std::vector<std::uint64_t> evicted;
    const std::uint64_t id = l.add(1, evicted);
    for (int game = 0; game < 200; ++game) l.record(id, game % 2 ? 1.0 : 0.0);
    const double gap = l.learner_rating() - l.pool().front().rating;
    if (seats == 2)
      CHECK(std::abs(gap) < 20);
    else
      CHECK(gap > 150);
  }
}
}
