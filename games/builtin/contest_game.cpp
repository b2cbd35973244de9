#include "games/builtin/contest_game.hpp"

#include <random>
#include <stdexcept>
#include <vector>

#include "envs/draw.hpp"

namespace troupe::games {

namespace {

int team_of_agent(int agent) { return agent / 2; }
}  // namespace

contest_game::contest_game() : spec_(grid::game_spec(id, observation_size, step_limit)) {}

std::string contest_game::agent_name(int agent) const {
  return std::string(team_of_agent(agent) == 0 ? "red_" : "blue_") + std::to_string(agent % 2);
}

void contest_game::reset(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  s_ = {};
  grid::draw_distinct(rng, side, s_.landmark.data(), landmarks);
  grid::draw_distinct(rng, side, s_.agent.data(), agents);
}

void contest_game::observe(int agent, float* o) const {
  const cell me = s_.agent.at(size_t(agent));
  const auto offset = [&](cell c) {
    *o++ = float(c.x - me.x) / view_scale;
    *o++ = float(c.y - me.y) / view_scale;
  };
  *o++ = float(me.x) / view_scale;
  *o++ = float(me.y) / view_scale;
  for (const cell& l : s_.landmark) offset(l);
  const int mate = agent ^ 1, first_other = 2 * (1 - team_of_agent(agent));
  offset(s_.agent[size_t(mate)]);
  offset(s_.agent[size_t(first_other)]);
  offset(s_.agent[size_t(first_other + 1)]);
  *o++ = agent % 2 == 0 ? 1.f : 0.f;
  *o++ = agent % 2 == 1 ? 1.f : 0.f;
}

int contest_game::holder(int l) const {
  int on[2] = {0, 0};
  for (int a = 0; a < agents; ++a)
    if (grid::same(s_.agent[size_t(a)], s_.landmark[size_t(l)])) ++on[team_of_agent(a)];
  return on[0] > 0 && on[1] == 0 ? 0 : on[1] > 0 && on[0] == 0 ? 1 : -1;
}

joint_result contest_game::step(const float* actions) {
  if (s_.steps >= step_limit) throw std::logic_error(std::string(id) + ": stepped after its end");
  int moves[agents];
  for (int a = 0; a < agents; ++a) moves[a] = grid::move_of(actions[a], id, agent_name(a));
  for (int a = 0; a < agents; ++a) s_.agent[size_t(a)] = grid::moved(s_.agent[size_t(a)], moves[a], side);
  int red_lead = 0;
  for (int l = 0; l < landmarks; ++l) red_lead += holder(l) == 0 ? 1 : holder(l) == 1 ? -1 : 0;
  joint_result r;
  for (int a = 0; a < agents; ++a) r.rewards.push_back(hold_reward * red_lead * (team_of_agent(a) == 0 ? 1 : -1));
  r.truncated = ++s_.steps >= step_limit;
  return r;
}

void contest_game::render(rgb_frame& frame) const {
  constexpr int cell_px = 24;
  constexpr envs::draw::color free_mark{110, 110, 120};
  constexpr envs::draw::color teams[2] = {{235, 80, 70}, {80, 140, 245}}, held[2] = {{120, 45, 40}, {40, 70, 130}};
  grid::draw_floor(frame, side, cell_px);
  for (int l = 0; l < landmarks; ++l) {
    const cell c = s_.landmark[size_t(l)];
    const int h = holder(l);
    envs::draw::fill_rect(frame, c.x * cell_px + 2, c.y * cell_px + 2, (c.x + 1) * cell_px - 1, (c.y + 1) * cell_px - 1,
                    h < 0 ? free_mark : held[h]);
  }
  for (int a = 0; a < agents; ++a) {
    const cell c = s_.agent[size_t(a)];
    // Teammates side by side on a shared cell stay visible: agent 1 of a team a little lower.
    const double shift = (a % 2) * 4.0 - 2.0;
    envs::draw::fill_circle(frame, {(c.x + 0.5) * cell_px + shift, (c.y + 0.5) * cell_px + shift}, cell_px * 0.28,
                      teams[team_of_agent(a)]);
  }
}

}  // namespace troupe::games
