#include "actors/matchups.hpp"

#include "actors/league/policy_opponents.hpp"
#include "games/routed_opponents.hpp"
#include "run/config_loader.hpp"

namespace troupe::actors {

std::vector<size_t> rivals_of(const run::run_config& config, const run_parts& run, size_t index) {
  std::vector<size_t> rivals;
  if (config.policies.size() < 2) return rivals;  // (a population's members never meet)
  const bool alternates = run.policies[index].plan.config.env.versus.seat == "alternate";
  for (size_t q = 0; q < run.policies.size(); ++q)
    if (q != index || alternates) rivals.push_back(q);
  return rivals;
}

size_t league_source(const run::run_config& config, const run_parts& run, size_t index) {
  const std::vector<size_t> rivals = rivals_of(config, run, index);
  if (rivals.size() > 1) throw run::config_error("selfplay.enabled: a league of one policy's snapshots only");
  return rivals.empty() ? index : rivals.front();
}

opponent_source opponents_of(const run::run_config& config, const run_parts& run, size_t index) {
  const policy_parts& policy = run.policies[index];
  if (auto pool = policy.selfplay)
    return [pool](caf::actor_system& sys, int games, const envs::env_config& env, const envs::env_spec& spec) {
      return opponents_from(sys, pool, games, env, spec);
    };
  const std::vector<size_t> rivals = rivals_of(config, run, index);
  if (rivals.empty()) return {};
  // Each agent outside this policy's side is played by the policy that owns it.
  struct player {
    predict_service owner;
    std::shared_ptr<predict_lane> lane;
    std::string name;
    int state_size;
  };
  std::vector<player> players;
  std::vector<std::vector<int>> agents_of_player;
  for (size_t q : rivals) {
    const policy_parts& other = run.policies[q];
    players.push_back({other.owners[0], other.lanes[0], other.plan.name,
                       other.plan.config.model.recurrent.state_size()});
    agents_of_player.push_back(other.plan.agents);
  }
  return [players, agents_of_player](caf::actor_system& sys, int, const envs::env_config&,
                                      const envs::env_spec& spec) {
    std::vector<std::unique_ptr<games::opponents>> made;
    for (const player& p : players)
      made.push_back(policy_opponents(sys, p.owner, p.lane, spec, p.name, p.state_size));
    return games::route_by_agent(std::move(made), agents_of_player, spec);
  };
}

}  // namespace troupe::actors
