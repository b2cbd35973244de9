#include "games/seats.hpp"

#include <algorithm>
#include <stdexcept>

#include "envs/env_error.hpp"

namespace troupe::games {

using envs::env_key_error;
using envs::same_spaces;

namespace {
std::string spaces_text(const env_spec& s) {
  return s.observation.describe() + " -> " + s.action.describe() + (s.has_action_mask ? " (masked)" : "");
}
}  // namespace

side_sizes::side_sizes(const env_spec& s)
    : obs(s.observation.flat_size()),
      action(s.action.flat_size()),
      mask(s.has_action_mask ? s.action.choice_count() : 0) {}

side_specs specs_of_side(const std::vector<const env_spec*>& agents, const std::vector<std::string>& names,
                         seat_choice seats, const std::vector<int>& team) {
  const size_t n = agents.size();
  if (n < 2 || names.size() != n) throw std::invalid_argument("specs_of_side: two or more agents and their names expected");
  const env_spec& first = *agents[0];
  const auto described = [&](size_t a) { return names[a] + " (" + spaces_text(*agents[a]) + ")"; };
  // Which agents the side plays.
  std::vector<std::uint8_t> mine(n, 0);
  if (seats == seat_choice::all || seats == seat_choice::alternate) {
    // Every agent of the team (all of them, episode by episode, with alternate).
    for (size_t a = 0; a < n; ++a) mine[a] = team.empty();
    for (int a : team) mine.at(size_t(a)) = 1;
  } else {
    const size_t fixed = size_t(seat_agent(seats));
    if (fixed >= n)
      throw env_key_error("env.seat", first.id + " has " + std::to_string(n) + " agents (" + names[0] + " to " +
                                          names[n - 1] + "): it has no " + seat_name(int(fixed)) + " seat");
    mine[fixed] = 1;
  }
  // The side's agents share their spaces (one policy plays them), and so
  // do the others (one player plays them).
  const env_spec* own = nullptr;
  const env_spec* other = nullptr;
  size_t own_agent = 0, other_agent = 0;
  for (size_t a = 0; a < n; ++a) {
    const env_spec*& kept = mine[a] ? own : other;
    size_t& kept_agent = mine[a] ? own_agent : other_agent;
    if (!kept) {
      kept = agents[a], kept_agent = a;
      continue;
    }
    if (same_spaces(*kept, *agents[a])) continue;
    if (mine[a])
      throw env_key_error(
          "env.seat", first.id + ": the agents " + described(kept_agent) + " and " + described(a) +
                          " have different spaces, so one policy cannot " +
                          (seats == seat_choice::all ? "play them both (env.seat all)" : "alternate between their seats") +
                          ": set env.seat to first or second, or give each agent a policy of its own (policies:)");
    throw env_key_error("env.seat", first.id + ": the agents outside the learning side, " + described(kept_agent) +
                                        " and " + described(a) + ", have different spaces, and one player plays them all");
  }
  return {own, other ? other : own};
}

std::vector<int> checked_team(std::vector<int> team, int agents, seat_choice seats, const std::string& who) {
  if ((seats == seat_choice::all || seats == seat_choice::alternate) && team.empty())
    for (int a = 0; a < agents; ++a) team.push_back(a);
  for (size_t i = 0; i < team.size(); ++i)
    if (team[i] < 0 || team[i] >= agents || std::count(team.begin(), team.begin() + long(i), team[i]))
      throw std::invalid_argument(who + ": team agent " + std::to_string(team[i]) + " is not one of " +
                                  std::to_string(agents) + ", or is listed twice");
  return team;
}

namespace {
const char* const seat_names[] = {"first", "second", "third",   "fourth", "fifth",
                                  "sixth", "seventh", "eighth", "ninth",  "tenth"};
constexpr int named_seats = int(sizeof seat_names / sizeof seat_names[0]);
}  // namespace

seat_choice seat_at(int agent) {
  if (agent < 0) throw std::invalid_argument("seat_at: agent " + std::to_string(agent));
  return seat_choice(agent);
}

int seat_agent(seat_choice seat) { return int(seat) >= 0 ? int(seat) : -1; }

std::string seat_name(int agent) {
  return agent >= 0 && agent < named_seats ? seat_names[agent] : "seat " + std::to_string(agent);
}

seat_choice parse_seat(const std::string& text) {
  if (text == "alternate") return seat_choice::alternate;
  if (text == "all") return seat_choice::all;
  for (int a = 0; a < named_seats; ++a)
    if (text == seat_names[a]) return seat_at(a);
  throw std::invalid_argument("env.seat: '" + text +
                              "' is not a seat (expected alternate, all, or a seat: first, second, third, ... tenth)");
}

}  // namespace troupe::games
