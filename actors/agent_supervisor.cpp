#include "actors/agent_supervisor.hpp"

#include <iostream>
#include <stdexcept>

namespace troupe::actors {

agent_supervisor::agent_supervisor(caf::actor_system& sys, caf::scoped_actor& self,
                                   std::vector<agent_config> agents, std::vector<wiring> wires,
                                   int max_restarts, seed_of seeds, on_started started)
    : sys_(sys),
      self_(self),
      configs_(std::move(agents)),
      wires_(std::move(wires)),
      running_(configs_.size()),
      max_restarts_(max_restarts),
      seeds_(std::move(seeds)),
      started_(std::move(started)) {
  if (wires_.size() != configs_.size())
    throw std::invalid_argument("agent_supervisor: one wiring per agent");
}

void agent_supervisor::start_all() {
  for (size_t i = 0; i < configs_.size(); ++i) start(i, 0);
}

void agent_supervisor::start(size_t i, std::uint64_t incarnation) {
  agent_config config = configs_[i];
  config.seed = seeds_(i, incarnation);
  const wiring& w = wires_[i];
  running_[i] = spawn_agent(sys_, config, w.owner, w.lane, w.learner, w.metrics, w.opponents);
  self_->monitor(running_[i]);
  if (started_) started_(i, running_[i]);
  self_->send(running_[i], start_atom_v);
}

bool agent_supervisor::on_down(const caf::down_msg& down) {
  for (size_t i = 0; i < running_.size(); ++i) {
    if (!running_[i] || running_[i].address() != down.source) continue;
    last_failure_ = sys_.render(down.reason);
    if (++failures_ > max_restarts_) {
      running_[i] = nullptr;
      return true;
    }
    std::cerr << "troupe: agent " << configs_[i].id << " failed (" << last_failure_
              << "); restarting it\n";
    start(i, std::uint64_t(failures_));
    return true;
  }
  return false;
}

std::vector<std::int64_t> agent_supervisor::stop_all(std::chrono::seconds timeout) {
  std::vector<std::int64_t> dropped(running_.size(), 0);
  for (size_t i = 0; i < running_.size(); ++i) {
    agent_actor& a = running_[i];
    if (!a) continue;  // failed beyond the restart budget
    self_->demonitor(a.address());
    self_->request(a, timeout, stop_atom_v)
        .receive([&](const agent_final& f) { dropped[i] = f.samples_dropped; },
                 [&](caf::error& err) {
                   // It failed just now: its unsent steps were never reported.
                   last_failure_ = sys_.render(err);
                 });
    self_->send_exit(a, caf::exit_reason::user_shutdown);
    a = nullptr;
  }
  return dropped;
}

}  // namespace troupe::actors
