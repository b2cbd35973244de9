#pragma once
// Which agents of a game the learning policy plays (env.seat, env.team),
// and the spaces of its side and of the others'.
#include <string>
#include <vector>

#include "envs/env.hpp"

namespace troupe::games {

using envs::env_spec;

// Which seat the learning policy plays: one drawn per episode from its
// seed (alternate, among all the game's agents), a fixed one (its agent's
// index: first is agent 0, the first mover, second agent 1, and so on,
// seat_at(k) for agent k), or, in a simultaneous game, every agent's at
// once (a team of one policy).
enum class seat_choice : int { alternate = -1, all = -2, first = 0, second = 1 };
// The fixed seat of agent `agent` (0 or more).
seat_choice seat_at(int agent);
// The agent a fixed seat plays, or -1 for alternate and all.
int seat_agent(seat_choice seat);
// A fixed seat's name: "first", "second", "third", ... "tenth".
std::string seat_name(int agent);
// "alternate", "all", or a fixed seat by name (seat_name's, "first" to
// "tenth"); throws std::invalid_argument naming env.seat.
seat_choice parse_seat(const std::string& text);

// The spaces of a game's sides as `seats` plays them (specs and names in
// agent order; agent 0 moves first): the learning side's and the other
// side's. The side's agents must share their spaces (one policy plays
// them), and so must the agents outside it (one player plays them); `all`
// leaves none outside (`other` is then the side's own). With `all`, `team`
// lists the agents the side plays, and with `alternate` those it draws
// among (empty: every agent). Throws
// env_key_error naming env.seat when spaces that must be alike differ, or
// the game has no such seat.
struct side_specs {
  const env_spec* own;
  const env_spec* other;
};
side_specs specs_of_side(const std::vector<const env_spec*>& agents, const std::vector<std::string>& names,
                         seat_choice seats, const std::vector<int>& team = {});

// The agents of a game of `agents` that a side's `team` lists: every agent
// when it lists none and `seats` is all or alternate (the team it plays,
// or the agents its seat is drawn among). Throws std::invalid_argument,
// naming `who`, for an agent out of range or listed twice.
std::vector<int> checked_team(std::vector<int> team, int agents, seat_choice seats, const std::string& who);

// What one side's rows hold: its view's floats, its action's, and its
// mask's choices (0 without a mask).
struct side_sizes {
  int obs = 0, action = 0, mask = 0;
  side_sizes() = default;
  explicit side_sizes(const env_spec& s);
};

}  // namespace troupe::games
