// troupe eval RUN_DIR|CHECKPOINT [--best] --episodes N [--greedy] [--seed S] [--json FILE]
//             [--opponent random|builtin:NAME|python:MODULE:CALLABLE|snapshot:ID|OTHER_RUN [--seat each|first|second|third|...]]
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "agents/evaluate.hpp"
#include "agents/league/league.hpp"
#include "agents/league/match.hpp"
#include "app/commands.hpp"
#include "app/policy_flags.hpp"
#include "catalog/games.hpp"
#include "catalog/registry.hpp"
#include "catalog/players.hpp"
#include "model/checkpoint_file.hpp"
#include "model/compute_runtime.hpp"
#include "run/config_loader.hpp"
#include "run/trained_model.hpp"

namespace troupe::app {

namespace {

struct eval_options {
  std::string target, json_path;
  int episodes = 100;
  bool greedy = false;
  bool best = false;  // checkpoints/best.pt, not the newest
  policy_flags which;  // --policy, --member
  std::uint64_t seed = 12345;
  std::string opponent;      // empty: the environment as configured
  std::string seat = "each";
};

// Which snapshots a run's league holds, said for a user who named another.
std::string pool_said(const std::string& run_dir) {
  const std::string file = run_dir + "/selfplay/league.json";
  if (!std::filesystem::exists(file)) return "the run took no snapshots (they are taken with selfplay.enabled)";
  agents::league::state league;
  try {
    league = agents::league_from_json(model::read_checkpoint_file(file), file);
  } catch (const std::exception& e) {
    return e.what();
  }
  std::string ids;
  for (const auto& s : league.pool) ids += (ids.empty() ? "" : ", ") + std::to_string(s.id);
  return "the pool holds " + (ids.empty() ? std::string("none yet") : ids) + " (" + file +
         "); a snapshot leaves it, and the disk, once selfplay.pool_size newer ones are taken";
}

// The folder of the run (or, with policies:, of the policy) `trained` is
// from, whose selfplay/snapshots/ a snapshot:ID names; empty for a
// checkpoint file given alone.
std::string own_run_dir(const eval_options& opts, const run::trained_model& trained) {
  if (!std::filesystem::is_directory(opts.target)) return "";
  return std::filesystem::path(trained.checkpoint).parent_path().parent_path().string();  // DIR/checkpoints/X.pt
}

// What --opponent names, as a maker of the other seat's players (`spec`: that
// seat's spaces, named `seat_name`); `source` says what was loaded, for the
// report. `run_dir`: the trained policy's folder (own_run_dir).
agents::opponents_factory opponent_named(const eval_options& opts, const std::string& run_dir, const envs::env_config& env,
                                         const envs::env_spec& spec, const std::string& seat_name,
                                         std::string& source) {
  const std::string& o = opts.opponent;
  const std::string builtin = "builtin:", snapshot = "snapshot:", python = "python:";
  if (o == "random" || o.compare(0, builtin.size(), builtin) == 0 || o.compare(0, python.size(), python) == 0) {
    const std::string name = o.compare(0, builtin.size(), builtin) == 0 ? o.substr(builtin.size()) : o;
    try {  // refused here, before any game
      catalog::check_opponent_name(name, spec.id, "--opponent");
    } catch (const std::invalid_argument& e) {
      throw config_error(e.what());
    }
    source = name.compare(0, python.size(), python) == 0 ? name : "builtin:" + name;
    return [name, env](int games, const envs::env_spec& s) {
      return catalog::builtin_opponents(name, games, env, s, "--opponent");
    };
  }
  std::string path = o;
  if (o.compare(0, snapshot.size(), snapshot) == 0) {
    const std::string id = o.substr(snapshot.size());
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
      throw config_error("--opponent " + o + ": a snapshot's id is a number (RUN/selfplay/league.json lists them)");
    if (run_dir.empty())
      throw config_error("--opponent " + o + ": a snapshot belongs to a run directory; " + opts.target + " is not one");
    path = run_dir + "/selfplay/snapshots/" + id + ".pt";
    if (!std::filesystem::exists(path)) throw config_error("--opponent " + o + ": no " + path + ": " + pool_said(run_dir));
  }
  run::trained_model other = run::load_trained_model(path);
  const envs::env_spec other_spec = catalog::spec_of(other.config.env);
  if (other_spec.observation.describe() != spec.observation.describe() ||
      other_spec.action.describe() != spec.action.describe())
    throw config_error("--opponent " + o + ": it was trained on " + other.config.env.id.text() + " (" +
                       other_spec.observation.describe() + " -> " + other_spec.action.describe() +
                       "), not the spaces of the seat it would play (" + seat_name + ": " +
                       spec.observation.describe() + " -> " + spec.action.describe() + ")");
  source = other.checkpoint;
  auto model = other.model;
  return [model](int games, const envs::env_spec& s) { return agents::model_opponents(model, games, s); };
}

// Whether --seat asks for every seat.
bool every_seat(const std::string& seat) { return seat == "each" || seat == "both"; }

// The seats a policy was trained from: its fixed seat, or those its seat
// was drawn among (env.team, every agent when it names none).
std::vector<int> trained_seats(const envs::env_config& env, const std::vector<std::string>& names) {
  const games::seat_choice seat = games::parse_seat(env.versus.seat);
  if (seat != games::seat_choice::alternate) return {games::seat_agent(seat)};
  return catalog::team_agents(env, names);
}

// The trained policy against --opponent, from each seat it was trained
// from (--seat each) or the one seat asked for; in a game of more than two
// agents the opponent plays every seat but the policy's.
nlohmann::json match(const eval_options& opts, const run::trained_model& trained) {
  const run::run_config& config = trained.config;
  if (!catalog::is_versus_game(config.env.id))
    throw config_error("--opponent: " + config.env.id.text() + " is not a game played from a seat (those are: " +
                       catalog::versus_games() + ")");
  // A game whose agents' spaces differ is played from the policy's own seat
  // only; the other seats' spaces are what the opponent must play.
  const catalog::game_agents agents = catalog::game_agents_of(config.env);
  if (agents.names.size() < 2)
    throw config_error("--opponent: " + config.env.id.text() + " made no game of several agents (those are: " +
                       catalog::versus_games() + ")");
  const int seat_count = int(agents.names.size());
  const bool own_seat_only = agents.spaces_differ();
  const std::string own_seat = config.env.versus.seat;
  const games::seat_choice own = own_seat_only ? games::parse_seat(own_seat) : games::seat_choice::first;
  const games::side_specs sides = games::specs_of_side(agents.spec_list(), agents.names, own);
  int other_agent = 0;
  while (other_agent == games::seat_agent(own) || &agents.specs[size_t(other_agent)] != sides.other) ++other_agent;
  std::string source;
  const agents::opponents_factory others =
      opponent_named(opts, own_run_dir(opts, trained), config.env, *sides.other, agents.names[size_t(other_agent)], source);
  if (!every_seat(opts.seat) && games::seat_agent(games::parse_seat(opts.seat)) >= seat_count)
    throw config_error("--seat " + opts.seat + ": " + config.env.id.text() + " has " + std::to_string(seat_count) +
                       " seats (" + agents.names.front() + " to " + agents.names.back() + ")");
  const std::vector<int> trained_from = trained_seats(config.env, agents.names);
  std::vector<std::string> trained_names;
  for (int a : trained_from) trained_names.push_back(games::seat_name(a));
  nlohmann::json seats = nlohmann::json::object();
  for (int agent = 0; agent < seat_count; ++agent) {
    const std::string seat = games::seat_name(agent);
    const bool trained_seat = std::find(trained_from.begin(), trained_from.end(), agent) != trained_from.end();
    if (every_seat(opts.seat) ? !trained_seat : opts.seat != seat) continue;
    if (own_seat_only && seat != own_seat) {
      if (opts.seat == seat)
        throw config_error("--seat " + seat + ": " + config.env.id.text() + "'s agents have different spaces and this policy "
                           "plays " + own_seat + " (" + agents.names[size_t(games::seat_agent(own))] + ") only");
      continue;
    }
    const agents::seat_record r = agents::play_seat(*trained.model, config.env, games::seat_at(agent), others,
                                                    opts.episodes, opts.greedy, opts.seed);
    const auto [lo, hi] = agents::wilson_interval(r.wins, r.games());
    seats[seat] = {{"agent", agents.names[size_t(agent)]},
                   {"trained_seat", trained_seat},
                   {"wins", r.wins},
                   {"draws", r.draws},
                   {"losses", r.losses},
                   {"win_rate", double(r.wins) / r.games()},
                   {"win_rate_95", {lo, hi}},
                   {"mean_return", r.mean_return()},
                   {"length_mean", r.length_mean}};
  }
  return {{"checkpoint", trained.checkpoint}, {"env", config.env.id.text()},     {"version", trained.meta.version},
          {"opponent", opts.opponent},        {"opponent_source", source}, {"greedy", opts.greedy},
          {"seed", opts.seed},                {"episodes_per_seat", opts.episodes}, {"trained_seats", trained_names},
          {"seats", seats}};
}

// A team (env.seat all) against --opponent, which plays every agent of the
// game outside the team: the mean return an agent, and each agent's episode
// counted a win (a return above 0), a draw or a loss.
nlohmann::json team_match(const eval_options& opts, const run::trained_model& trained) {
  const run::run_config& config = trained.config;
  if (!every_seat(opts.seat))
    throw config_error("--seat " + opts.seat + ": a team plays its own agents (env.team); --seat is for a policy that plays one seat");
  const catalog::game_agents agents = catalog::game_agents_of(config.env);
  const std::vector<int> team = catalog::team_agents(config.env, agents.names);
  if (team.size() == agents.names.size())
    throw config_error("--opponent: this policy plays every agent of " + config.env.id.text() +
                       " (env.seat all); no agent is left for an opponent");
  std::vector<const envs::env_spec*> specs;
  for (const auto& s : agents.specs) specs.push_back(&s);
  const games::side_specs sides = games::specs_of_side(specs, agents.names, games::seat_choice::all, team);
  size_t outside = 0;
  while (std::count(team.begin(), team.end(), int(outside))) ++outside;
  std::string source;
  const agents::opponents_factory others = opponent_named(opts, own_run_dir(opts, trained), config.env, *sides.other, agents.names[outside], source);
  const int games = std::clamp(opts.episodes, 1, 64);
  auto vector = catalog::make_game_side(config.env, games, games::seat_choice::all,
                                     [&](const envs::env_spec& s) { return others(games, s); });
  const agents::evaluation result = agents::evaluate(*trained.model, *vector, opts.episodes, opts.greedy, opts.seed);
  int wins = 0, draws = 0, losses = 0;
  for (double r : result.returns) ++(r > 0 ? wins : r < 0 ? losses : draws);
  std::vector<std::string> team_names;
  for (int a : team) team_names.push_back(agents.names[size_t(a)]);
  return {{"checkpoint", trained.checkpoint}, {"env", config.env.id.text()},       {"version", trained.meta.version},
          {"team", team_names},               {"opponent", opts.opponent},  {"opponent_source", source},
          {"greedy", opts.greedy},            {"seed", opts.seed},          {"episodes", opts.episodes},
          {"return_mean", result.return_mean}, {"return_std", result.return_std},
          {"wins", wins},                     {"draws", draws},             {"losses", losses}};
}

void eval(const eval_options& opts) {
  model::set_compute_threads(1);
  const run::trained_model trained = run::load_trained_model(
      opts.target, opts.best ? run::which_checkpoint::best : run::which_checkpoint::newest, opts.which.chosen());
  const std::string& path = trained.checkpoint;
  const model::checkpoint_meta& meta = trained.meta;
  const run::run_config& config = trained.config;
  auto& model = trained.model;
  nlohmann::json j;
  if (!opts.opponent.empty() && config.env.versus.seat == "all") {
    j = team_match(opts, trained);
  } else if (!opts.opponent.empty()) {
    j = match(opts, trained);
  } else {
    const agents::evaluation result =
        agents::evaluate(*model, config.env, opts.episodes, opts.greedy, opts.seed);
    j = {{"checkpoint", path},          {"env", config.env.id.text()},
         {"version", meta.version},     {"greedy", opts.greedy},
         {"seed", opts.seed},           {"episodes", opts.episodes},
         {"return_mean", result.return_mean}, {"return_std", result.return_std},
         {"length_mean", result.length_mean}};
  }
  std::cout << j.dump(2) << std::endl;
  if (!opts.json_path.empty()) {
    std::ofstream out(opts.json_path);
    out << j.dump(2) << "\n";
    if (!out) throw config_error(opts.json_path + ": cannot be written");
  }
}

}  // namespace

void add_eval_command(CLI::App& cli, int& exit_code) {
  auto opts = std::make_shared<eval_options>();
  auto* cmd = cli.add_subcommand("eval", "evaluate a trained policy from a run or checkpoint");
  cmd->add_option("target", opts->target, "run directory or checkpoint file")->required();
  cmd->add_flag("--best", opts->best, "the run's best policy (checkpoints/best.pt: the one whose fresh episodes scored highest) instead of its newest checkpoint");
  add_policy_flags(*cmd, opts->which);
  cmd->add_option("--episodes", opts->episodes, "episodes to play")->check(CLI::Range(1, 10000000));
  cmd->add_flag("--greedy", opts->greedy, "take the most likely action (the mean for Gaussians)");
  cmd->add_option("--seed", opts->seed, "seeds the environments and action sampling");
  cmd->add_option("--json", opts->json_path, "also write the result to FILE");
  cmd->add_option("--opponent", opts->opponent,
                  "games played from a seat: play against random, builtin:NAME (builtin:alphabeta:4), "
                  "python:MODULE:CALLABLE (a scripted player), snapshot:ID "
                  "(a self-play snapshot of this run) or another run or checkpoint, and report wins, draws and "
                  "losses per seat with a 95% interval (--episodes games from each seat; the opponent plays every other "
                  "seat, both others of Nim3-v0); a team (env.seat all): "
                  "the same names play every agent outside it (another run: the other team's policy), and the "
                  "report is the mean return an agent, each agent's episode a win, draw or loss");
  cmd->add_option("--seat", opts->seat, "with --opponent: each (every seat the policy was trained from, in turn: its env.seat, or the seats "
                  "env.seat alternate draws among; both is the same), or one seat by name, trained from or not: first, "
                  "second, third, ...")
      ->check(CLI::IsMember({"each", "both", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"}));
  cmd->callback([opts, &exit_code] {
    eval(*opts);
    exit_code = 0;
  });
}

}  // namespace troupe::app
