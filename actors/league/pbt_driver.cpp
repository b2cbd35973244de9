#include "actors/league/pbt_driver.hpp"

#include <chrono>
#include <cmath>
#include <deque>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "actors/errors.hpp"
#include "model/checkpoint_file.hpp"

namespace troupe::actors {

namespace {

constexpr auto answer_timeout = std::chrono::seconds(60);
// How often the members' totals are read: a decision falls due at a
// member's env steps, so it comes at most this late (the coordinator's
// loop polled as often).
constexpr auto decide_period = std::chrono::milliseconds(20);

std::string state_file(const std::string& dir) { return dir + "/pbt.json"; }
std::string log_file(const std::string& dir) { return dir + "/pbt.csv"; }

pbt_step step_of(int source, const agents::hyperparams& values) {
  pbt_step step;
  step.source = source;
  for (const auto& [key, value] : values) {
    step.keys.push_back(key);
    step.values.push_back(value);
  }
  return step;
}

std::string number(double v) {
  if (std::isnan(v)) return "";
  std::ostringstream out;
  out.precision(9);
  out << v;
  return out.str();
}

// A decision made, waiting to be carried out, with what its row says.
struct pending_decision {
  agents::pbt_decision decision;
  double score = 0, source_score = 0;
  std::int64_t member_steps = 0, run_steps = 0;
};

// One reading of every member's totals.
struct totals_round {
  std::vector<double> scores;
  std::vector<std::int64_t> steps;
  size_t answered = 0;
};

struct pbt_driver_state {
  std::optional<agents::population> population;
  std::string dir;
  std::vector<pbt_member> members;
  run_control coordinator;
  agents::pbt_state state;
  bool started = false;
  bool stopping = false;
  bool busy = false;  // a reading or a decision is under way
  std::string failure;
  std::optional<totals_round> reading;
  std::deque<pending_decision> queue;  // made, not yet carried out, in order
  std::vector<caf::typed_response_promise<pbt_final>> stops;

  static inline const char* name = "pbt_driver";
};

using driver_pointer = pbt_driver_actor::stateful_pointer<pbt_driver_state>;

// RUN/pbt.json now; throws model::checkpoint_error when it cannot be written.
void save(const pbt_driver_state& st) {
  if (st.dir.empty()) return;
  model::write_file_atomically(state_file(st.dir), agents::population::state_json(st.state));
}

void append_row(const pbt_driver_state& st, const pending_decision& p) {
  if (st.dir.empty()) return;
  const agents::pbt_decision& d = p.decision;
  std::ostringstream row;
  row << d.index << ',' << p.run_steps << ',' << d.member << ',' << p.member_steps << ','
      << (d.exploit ? "exploit" : "keep") << ',' << (d.exploit ? std::to_string(d.source) : "") << ','
      << number(p.score) << ',' << number(p.source_score);
  for (const auto& [key, value] : d.before) row << ',' << number(value);
  for (const auto& [key, value] : d.after) row << ',' << number(value);
  std::ofstream out(log_file(st.dir), std::ios::app);
  out << row.str() << '\n';
}

pbt_final final_of(const pbt_driver_state& st) {
  return {agents::population::state_json(st.state), st.failure};
}

// Nothing is under way any more: a stop waiting for that is answered.
void settle(driver_pointer self) {
  auto& st = self->state;
  st.busy = false;
  if (!st.stopping) return;
  for (auto& p : st.stops) p.deliver(final_of(st));
  st.stops.clear();
}

// The driver stops deciding, and the run stops.
void fail(driver_pointer self, const std::string& why) {
  auto& st = self->state;
  if (!st.failure.empty()) return;
  st.failure = why;
  st.stopping = true;
  st.queue.clear();
  st.reading.reset();
  if (st.coordinator) self->send(st.coordinator, stop_request{run::stop_reason::pbt_failed});
  settle(self);
}

// Member `member`'s hyperparameters as they are now, to its metrics actor.
void show(driver_pointer self, int member) {
  const auto& st = self->state;
  member_hyperparams h;
  for (const auto& [key, value] : st.state.members[size_t(member)].values) {
    h.keys.push_back(key);
    h.values.push_back(value);
  }
  self->send(st.members[size_t(member)].metrics, std::move(h));
}

// The member's decision, carried out: its state, a row, pbt.json.
void record(driver_pointer self, const pending_decision& p) {
  auto& st = self->state;
  const agents::pbt_decision& d = p.decision;
  agents::pbt_member_state& m = st.state.members[size_t(d.member)];
  if (d.exploit) {
    ++st.state.exploits;
    m.lineage.push_back({d.index, p.member_steps, d.source});
  }
  m.values = d.after;
  m.env_steps = p.member_steps;
  m.score = p.score;
  const std::int64_t interval = st.population->config().interval_env_steps;
  while (m.next_decision_at <= p.member_steps) m.next_decision_at += interval;
  ++st.state.decisions;
  show(self, d.member);
  append_row(st, p);
  save(st);
}

// Carries out the oldest decision made, then the next, each once the one
// before it is done.
void carry_out_next(driver_pointer self) {
  auto& st = self->state;
  if (!st.failure.empty()) return;
  if (st.queue.empty()) return settle(self);
  const pending_decision p = st.queue.front();
  st.queue.pop_front();
  const auto done = [=] {
    try {
      record(self, p);
    } catch (const std::exception& e) {
      return fail(self, std::string("pbt: ") + e.what());
    }
    carry_out_next(self);
  };
  if (!p.decision.exploit) return done();
  const int member = p.decision.member, source = p.decision.source;
  const auto failed = [=](int who, const char* what) {
    return [=](caf::error& err) {
      fail(self, "pbt: member " + std::to_string(who) + "'s learner " + what + ": " + detail_of(err));
    };
  };
  self->request(st.members[size_t(source)].learner, answer_timeout, snapshot_atom_v)
      .then(
          [=](algo::learned_state& learned) {
            pbt_step step = step_of(source, p.decision.after);
            step.state = std::move(learned);
            self->request(self->state.members[size_t(member)].learner, answer_timeout, pbt_atom_v, step)
                .then([=](std::uint64_t) { done(); }, failed(member, "did not take its step"));
          },
          failed(source, "sent no snapshot"));
}

// Every member's totals are in: the decisions due, made in member order,
// then carried out.
void decide(driver_pointer self) {
  auto& st = self->state;
  totals_round r = std::move(*st.reading);
  st.reading.reset();
  if (st.stopping) return settle(self);  // no decision after the stop
  std::int64_t run_steps = 0;
  for (std::int64_t s : r.steps) run_steps += s;
  std::vector<agents::hyperparams> current;
  for (const auto& m : st.state.members) current.push_back(m.values);
  std::uint64_t index = st.state.decisions;
  for (int m = 0; m < int(st.members.size()); ++m) {
    if (r.steps[size_t(m)] < st.state.members[size_t(m)].next_decision_at) continue;
    const agents::pbt_decision d = st.population->decide(index++, m, r.scores, current);
    current[size_t(m)] = d.after;
    st.queue.push_back({d, r.scores[size_t(m)], d.exploit ? r.scores[size_t(d.source)] : std::nan(""),
                        r.steps[size_t(m)], run_steps});
  }
  carry_out_next(self);
}

// Reads every member's totals; the decisions follow when all have answered.
void read_totals(driver_pointer self) {
  auto& st = self->state;
  st.busy = true;
  const size_t n = st.members.size();
  st.reading = totals_round{std::vector<double>(n), std::vector<std::int64_t>(n), 0};
  for (size_t m = 0; m < n; ++m)
    self->request(st.members[m].metrics, answer_timeout, totals_atom_v)
        .then(
            [=](const metrics_totals& t) {
              auto& st = self->state;
              if (!st.reading) return;  // failed meanwhile
              st.reading->scores[m] = t.episodes > 0 ? t.final_mean_return : std::nan("");
              st.reading->steps[m] = t.env_steps;
              if (++st.reading->answered == st.reading->scores.size()) decide(self);
            },
            [=](caf::error& err) { fail(self, "pbt: member " + std::to_string(m) + "'s metrics did not answer: " + detail_of(err)); });
}

// A fresh run's state, or a resumed run's from pbt.json (throws
// std::invalid_argument naming a damaged file); pbt.csv as it goes on.
void open_files(pbt_driver_state& st, bool resumed) {
  st.state = st.population->first_state();
  const bool have_state = !st.dir.empty() && std::filesystem::exists(state_file(st.dir));
  if (resumed && have_state) {
    st.state = st.population->state_from_json(model::read_checkpoint_file(state_file(st.dir)), state_file(st.dir));
    // Rows past the decisions pbt.json lists were written after its last save.
    std::ifstream in(log_file(st.dir));
    std::string line, kept;
    for (std::uint64_t rows = 0; rows <= st.state.decisions && std::getline(in, line); ++rows) kept += line + "\n";
    model::write_file_atomically(log_file(st.dir), kept);
  } else if (!st.dir.empty()) {
    std::string header = "decision,run_env_steps,member,member_env_steps,action,source,score,source_score";
    for (const auto& [key, range] : st.population->config().hyperparams) header += ",before:" + key;
    for (const auto& [key, range] : st.population->config().hyperparams) header += ",after:" + key;
    model::write_file_atomically(log_file(st.dir), header + "\n");
  }
}

pbt_driver_actor::behavior_type pbt_driver(driver_pointer self, agents::population population, std::string dir,
                                           std::vector<pbt_member> members, run_control coordinator) {
  auto& st = self->state;
  st.population.emplace(std::move(population));
  st.dir = std::move(dir);
  st.members = std::move(members);
  st.coordinator = std::move(coordinator);
  return {
      [=](start_atom, bool resumed) -> caf::result<bool> {
        auto& st = self->state;
        if (st.started) return make_error(errc::malformed, "the pbt driver has started already");
        st.started = true;
        try {
          open_files(st, resumed);
          for (size_t m = 0; m < st.members.size(); ++m) show(self, int(m));
          save(st);
        } catch (const std::exception& e) {
          return make_error(errc::malformed, e.what());
        }
        self->delayed_send(self, decide_period, decide_atom_v);
        if (!resumed) return true;
        // Each member's learner takes its hyperparameters before any agent acts.
        auto promise = self->make_response_promise<bool>();
        auto left = std::make_shared<size_t>(st.members.size());
        if (*left == 0) return true;
        for (size_t m = 0; m < st.members.size(); ++m)
          self->request(st.members[m].learner, answer_timeout, pbt_atom_v, step_of(-1, st.state.members[m].values))
              .then(
                  [=](std::uint64_t) mutable {
                    if (--*left == 0) promise.deliver(true);
                  },
                  [=](caf::error& err) mutable {
                    promise.deliver(make_error(errc::failed, "pbt: member " + std::to_string(m) +
                                                                 "'s learner did not take its hyperparameters: " +
                                                                 detail_of(err)));
                  });
        return promise;
      },
      [=](checkpoint_atom) -> caf::result<bool> {
        try {
          save(self->state);
        } catch (const std::exception& e) {
          return make_error(errc::failed, e.what());
        }
        return true;
      },
      [=](stop_atom) -> caf::result<pbt_final> {
        auto& st = self->state;
        st.stopping = true;
        if (!st.busy) return final_of(st);
        st.stops.push_back(self->make_response_promise<pbt_final>());
        return st.stops.back();
      },
      [=](decide_atom) {
        auto& st = self->state;
        if (self->current_sender() != caf::actor_cast<caf::strong_actor_ptr>(self)) return;
        if (st.stopping) return;
        self->delayed_send(self, decide_period, decide_atom_v);
        if (!st.busy) read_totals(self);
      },
  };
}

}  // namespace

pbt_driver_actor spawn_pbt_driver(caf::actor_system& sys, agents::population population, std::string dir,
                                  std::vector<pbt_member> members, run_control coordinator) {
  return sys.spawn(pbt_driver, std::move(population), std::move(dir), std::move(members), std::move(coordinator));
}

}  // namespace troupe::actors
