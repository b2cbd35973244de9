#include "algo/collection_budget.hpp"

#include <algorithm>
#include <stdexcept>

namespace troupe::algo {

collection_budget::collection_budget(settings s) : settings_(s) {
  if (s.max_in_flight < 0) throw std::invalid_argument("collection_budget: max_in_flight < 0");
  if (s.per_agent_in_flight < 1)
    throw std::invalid_argument("collection_budget: per_agent_in_flight < 1");
}

int collection_budget::room(const agent_entry& a) const {
  return a.gone ? 0 : std::max(0, settings_.per_agent_in_flight - a.unacknowledged);
}

// Gone once silent for several of its own rollout times, and never sooner
// than idle_after: a slow agent is only a little late, a dead one never
// sends again. Misjudging a live agent costs one more agent collecting for
// a moment, never a wait.
bool collection_budget::idle(const agent_entry& a, clock::time_point now) const {
  return now - a.last_active > std::max(settings_.idle_after, 8 * a.gap);
}

void collection_budget::recount() {
  room_ = 0;
  for (const auto& [id, a] : agents_) room_ += room(a);
}

std::vector<std::uint64_t> collection_budget::on_arrival(std::uint32_t agent,
                                                         clock::time_point now) {
  auto [it, fresh] = agents_.try_emplace(agent);
  agent_entry& a = it->second;
  if (!fresh) {
    const clock::duration took = now - a.last_active;
    a.gap = a.gap == clock::duration::zero() ? took : (a.gap * 4 + took) / 5;
  }
  ++a.unacknowledged;
  ++waiting_;
  a.gone = false;
  a.last_active = now;
  return release_what_fits(now);
}

std::vector<std::uint64_t> collection_budget::on_ready(std::uint32_t agent, std::uint64_t ticket,
                                                       clock::time_point now) {
  held_.push_back({agent, ticket});
  waiting_ = std::max(0, waiting_ - 1);
  std::vector<std::uint64_t> out = release_what_fits(now);
  // Still there (the newest, as releases keep the order): held back.
  if (!held_.empty() && held_.back().ticket == ticket) ++held_total_;
  return out;
}

std::vector<std::uint64_t> collection_budget::on_tick(clock::time_point now) {
  return release_what_fits(now);
}

std::vector<std::uint64_t> collection_budget::release_all() {
  std::vector<std::uint64_t> out;
  for (const held_ticket& h : held_) {
    agent_entry& a = agents_[h.agent];
    a.unacknowledged = std::max(0, a.unacknowledged - 1);
    out.push_back(h.ticket);
  }
  held_.clear();
  recount();
  return out;
}

std::vector<std::uint64_t> collection_budget::release_what_fits(clock::time_point now) {
  for (auto& [id, a] : agents_)
    if (room(a) > 0 && idle(a, now)) a.gone = true;
  recount();
  const bool unlimited = settings_.max_in_flight == 0;
  std::vector<std::uint64_t> out;
  for (auto h = held_.begin(); h != held_.end();) {
    agent_entry& a = agents_[h->agent];
    // What letting it go adds to the rollouts in flight: one more the
    // agent may send, unless it is gone (or still owes more than M).
    agent_entry after = a;
    after.unacknowledged = std::max(0, a.unacknowledged - 1);
    const int more = room(after) - room(a);
    if (!unlimited && more > 0 && room_ + waiting_ + more > settings_.max_in_flight) {
      ++h;
      continue;
    }
    if (room(a) == 0 && room(after) > 0) after.last_active = now;  // its next rollout is timed from here
    a = after;
    room_ += more;
    out.push_back(h->ticket);
    h = held_.erase(h);
  }
  return out;
}
}  // namespace troupe::algo
