#include "actors/league/selfplay_pool.hpp"

#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

#include "actors/league/seat_asker.hpp"
#include "actors/model_owner.hpp"
#include "agents/league/opponent_states.hpp"
#include "catalog/players.hpp"
#include "games/routed_opponents.hpp"
#include "model/checkpoint.hpp"
#include "model/checkpoint_file.hpp"
#include "run/config_loader.hpp"

namespace troupe::actors {

double game_score(double learner_return) { return learner_return > 0 ? 1.0 : learner_return < 0 ? 0.0 : 0.5; }

int rating_seats(const envs::opponent_options& versus, int game_agents) {
  return versus.seat == "all" ? 2 : std::max(2, game_agents);
}

selfplay_pool::server::~server() {
  if (owned && owner) caf::anon_send_exit(owner, caf::exit_reason::user_shutdown);
}

namespace {
agents::league_settings league_settings_of(const run::selfplay_config& c, int seats) {
  agents::league_settings s;
  s.seats = seats;
  s.pool_size = c.pool_size;
  s.builtins = c.builtin;
  s.builtin_probability = c.builtin_probability;
  s.latest_probability = c.latest_probability;
  s.prioritized = c.sampling == "pfsp";
  s.elo_k = c.elo_k;
  return s;
}
}  // namespace

selfplay_pool::selfplay_pool(caf::actor_system& sys, std::shared_ptr<model::shared_model> learning,
                             predict_service learning_owner, std::shared_ptr<predict_lane> learning_lane,
                             selfplay_setup setup)
    : sys_(sys),
      learning_(std::move(learning)),
      setup_(std::move(setup)),
      league_(std::make_shared<agents::league>(league_settings_of(setup_.selfplay, setup_.seats))) {
  latest_ = std::make_shared<server>();
  latest_->id = agents::league::latest;
  latest_->model = learning_;
  latest_->owner = std::move(learning_owner);
  latest_->lane = std::move(learning_lane);
}

std::string selfplay_pool::snapshot_file(std::uint64_t id) const {
  return setup_.dir + "/snapshots/" + std::to_string(id) + ".pt";
}

std::string selfplay_pool::league_file() const { return setup_.dir + "/league.json"; }

std::shared_ptr<selfplay_pool::server> selfplay_pool::serve(std::uint64_t id,
                                                            std::shared_ptr<model::shared_model> frozen) {
  model::warm_up(*frozen, setup_.batching.max_batch);
  auto s = std::make_shared<server>();
  s->id = id;
  s->model = frozen;
  s->lane = std::make_shared<predict_lane>();
  s->owner = spawn_model_owner(sys_, frozen, setup_.batching, setup_.seed + id, s->lane);
  s->owned = true;
  return s;
}

void selfplay_pool::on_updates(std::int64_t updates) {
  // A learner reports a batch's updates at once (PPO: epochs x
  // minibatches); what goes past the mark counts toward the next snapshot,
  // so that they come every snapshot_every_updates on average.
  since_snapshot_ += updates;
  const std::int64_t every = setup_.selfplay.snapshot_every_updates;
  if (since_snapshot_ < every) return;
  since_snapshot_ %= every;
  add_snapshot();
}

std::uint64_t selfplay_pool::add_snapshot() {
  auto frozen = model::make_shared_model(model::spec_of(*learning_), setup_.seed);
  model::copy_parameters(*learning_, *frozen);  // one version, read inside its section
  model::freeze(*frozen);
  const std::uint64_t version = model::current_version(*frozen);
  std::vector<std::uint64_t> evicted;
  // The id is the league's; the file and the server exist before any agent
  // can draw it.
  const std::uint64_t id = league_->saved().next_id;
  if (!setup_.dir.empty()) {
    std::filesystem::create_directories(setup_.dir + "/snapshots");
    model::checkpoint_meta meta;
    meta.version = version;
    meta.config_yaml = setup_.config_yaml;
    model::save_checkpoint(snapshot_file(id), *frozen, nullptr, meta);
  }
  std::shared_ptr<server> s = serve(id, frozen);
  {
    std::lock_guard<std::mutex> guard(lock_);
    servers_[id] = s;
  }
  const std::uint64_t added = league_->add(version, evicted);
  if (added != id) throw std::logic_error("selfplay: snapshots are added by the learner alone");
  {
    std::lock_guard<std::mutex> guard(lock_);
    for (std::uint64_t gone : evicted) servers_.erase(gone);  // stops once no game holds it
  }
  if (!setup_.dir.empty()) {
    // league.json names the pool as it is now before the files of the
    // snapshots that left it go: a resumed run finds every file it lists.
    save();
    for (std::uint64_t gone : evicted) {
      std::error_code ignored;
      std::filesystem::remove(snapshot_file(gone), ignored);
    }
  }
  return id;
}

int selfplay_pool::state_size() const { return model::spec_of(*learning_).recurrent.state_size(); }

std::shared_ptr<selfplay_pool::server> selfplay_pool::server_of(std::uint64_t id) const {
  if (id == agents::league::latest) return latest_;
  std::lock_guard<std::mutex> guard(lock_);
  auto it = servers_.find(id);
  return it == servers_.end() ? nullptr : it->second;
}

void selfplay_pool::stop() {
  std::lock_guard<std::mutex> guard(lock_);
  for (auto& [id, s] : servers_) caf::anon_send_exit(s->owner, caf::exit_reason::user_shutdown);
  servers_.clear();
}

void selfplay_pool::save() const {
  if (setup_.dir.empty()) return;
  // A checkpoint's thread and the thread that adds snapshots (another
  // policy's learner, with a league per policy) both write league.json.
  std::lock_guard<std::mutex> guard(file_lock_);
  std::filesystem::create_directories(setup_.dir);
  model::write_file_atomically(league_file(), agents::league_json(league_->saved()));
}

void selfplay_pool::restore() {
  if (setup_.dir.empty() || !std::filesystem::exists(league_file())) return;  // no snapshot was taken
  agents::league::state state;
  try {
    state = agents::league_from_json(model::read_checkpoint_file(league_file()), league_file());
  } catch (const std::exception& e) {
    throw run::config_error(e.what());
  }
  std::unordered_map<std::uint64_t, std::shared_ptr<server>> restored;
  for (const agents::league::snapshot& s : state.pool) {
    auto frozen = model::make_shared_model(model::spec_of(*learning_), setup_.seed);
    try {
      model::load_checkpoint(snapshot_file(s.id), *frozen, nullptr);
    } catch (const std::exception& e) {
      throw run::config_error(league_file() + " lists snapshot " + std::to_string(s.id) + ": " + e.what());
    }
    model::freeze(*frozen);
    restored[s.id] = serve(s.id, frozen);
  }
  league_->restore(state);
  std::lock_guard<std::mutex> guard(lock_);
  servers_ = std::move(restored);
}

namespace {

// The other seat of one agent's games, played by the league's opponents.
class pool_opponents final : public games::opponents {
 public:
  pool_opponents(caf::actor_system& sys, std::shared_ptr<selfplay_pool> pool, int games, const envs::env_config& env,
                 const envs::env_spec& spec)
      : self_(sys),
        pool_(std::move(pool)),
        env_(env),
        spec_(spec),
        playing_(size_t(games), agents::league::latest),
        share_(spec),
        states_(pool_->state_size()) {}

  void play_in(games::game_vector& games) override {
    games_ = &games;
    for (auto& [id, b] : builtins_) b->play_in(games);
  }

  void start_episode(int game, std::uint64_t seed) override {
    if (game == watched_game) watched_policy_.clear();
    states_.start(game);
    std::mt19937_64 rng(seed);
    std::uint64_t id = pool_->league().draw(rng);
    handed_over_.erase(game);
    if (agents::league::is_builtin(id)) {  // a built-in player: no owner to ask
      playing_[size_t(game)] = id;
      const std::uint64_t player_seed = rng();
      const std::string name = builtin_name(id);
      if (!games_ && catalog::searches_games(name, spec_.id))
        handed_over_[game] = {name, player_seed};  // the games are a worker's
      else
        builtin_player(id).start_episode(game, player_seed);
      release_unused();
      return;
    }
    std::shared_ptr<selfplay_pool::server> s = pool_->server_of(id);
    if (!s) {  // it left the pool between the draw and now
      id = agents::league::latest;
      s = pool_->server_of(id);
    }
    playing_[size_t(game)] = id;
    if (!players_.count(id)) players_.emplace(id, player{s, seat_asker(s->owner, s->lane, spec_), id});
    release_unused();
  }

  std::optional<handed_over> handed_over_at_start(int game) const override {
    const auto it = handed_over_.find(game);
    if (it == handed_over_.end()) return std::nullopt;
    return it->second;
  }

  void describe(int game, envs::other_seat_view& view) const override {
    const std::uint64_t id = playing_[size_t(game)];
    if (const auto it = handed_over_.find(game); it != handed_over_.end()) {
      view.who = it->second.player;
      return;
    }
    if (agents::league::is_builtin(id)) {
      const auto it = builtins_.find(id);
      if (it != builtins_.end()) it->second->describe(game, view);
      return;
    }
    view.who = id == agents::league::latest ? "itself" : "snapshot " + std::to_string(id);
    if (game == watched_game) view.policy = watched_policy_;
  }

  // Opponents no game plays any more let their owners go.
  void release_unused() {
    for (auto it = players_.begin(); it != players_.end();) {
      bool used = false;
      for (std::uint64_t p : playing_) used = used || p == it->first;
      it = used ? std::next(it) : players_.erase(it);
    }
  }

  std::string builtin_name(std::uint64_t id) const {
    return pool_->league().settings().builtins.at(size_t(id - agents::league::first_builtin));
  }

  games::opponents& builtin_player(std::uint64_t id) {
    auto it = builtins_.find(id);
    if (it == builtins_.end()) {
      const std::string name = builtin_name(id);
      it = builtins_.emplace(id, catalog::builtin_opponents(name, int(playing_.size()), env_, spec_, "selfplay.builtin")).first;
      if (games_) it->second->play_in(*games_);
    }
    return *it->second;
  }

  void act(const int* games, const int* agents, int rows, const float* observations, const std::uint8_t* masks,
           float* actions) override {
    // Every opponent in play gets its rows in one request; those with a
    // lane all wait at their owners at once, so their forward passes run
    // side by side.
    for (auto& [id, b] : builtins_) {
      picked_.clear();
      for (int r = 0; r < rows; ++r)
        if (playing_[size_t(games[r])] == id) picked_.push_back(r);
      if (!picked_.empty()) share_.act(*b, picked_, games, agents, observations, masks, actions);
    }
    for (auto& [id, p] : players_) {
      picked_.clear();
      for (int r = 0; r < rows; ++r)
        if (playing_[size_t(games[r])] == id) picked_.push_back(r);
      p.asker.ask(games, agents, picked_, observations, masks, states_);
    }
    // Every owner asked is waited for before anything throws: it writes
    // into its asker's slot until it answers.
    std::string failure;
    for (auto& [id, p] : players_) {
      const std::string why =
          p.asker.answer(self_, std::chrono::seconds(60), games, agents, actions, states_, watched_policy_);
      if (!why.empty() && failure.empty()) failure = "self-play opponent " + std::to_string(id) + " " + why;
    }
    if (!failure.empty()) throw std::runtime_error(failure);
  }

  void end_episode(int game, double learner_return) override {
    pool_->league().record(playing_[size_t(game)], game_score(learner_return));
  }

 private:
  struct player {
    std::shared_ptr<selfplay_pool::server> server;
    seat_asker asker;
    std::uint64_t id = 0;
  };

  caf::scoped_actor self_;  // asks an owner without a lane
  std::shared_ptr<selfplay_pool> pool_;
  envs::env_config env_;  // a Python player's interpreter and path
  envs::env_spec spec_;
  games::game_vector* games_ = nullptr;  // what the built-in players search
  std::vector<std::uint64_t> playing_;  // each game's opponent
  std::map<int, handed_over> handed_over_;  // games whose drawn player searches them where they are
  std::map<std::uint64_t, player> players_;
  std::map<std::uint64_t, std::unique_ptr<games::opponents>> builtins_;  // built-in players, made when first drawn
  std::vector<int> picked_;  // one opponent's rows of a round
  games::row_share share_;
  std::vector<float> watched_policy_;  // the outputs of the watched game's last move by a policy
  agents::opponent_states states_;     // a recurrent league's, per game and agent
};

}  // namespace

std::unique_ptr<games::opponents> opponents_from(caf::actor_system& sys, std::shared_ptr<selfplay_pool> pool,
                                                int games, const envs::env_config& env, const envs::env_spec& spec) {
  return std::make_unique<pool_opponents>(sys, std::move(pool), games, env, spec);
}

}  // namespace troupe::actors
