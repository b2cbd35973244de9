#include "actors/pbt_driver.hpp"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "model/checkpoint_error.hpp"
#include "model/checkpoint_file.hpp"
#include "run/config_loader.hpp"

namespace troupe::actors {

namespace {

constexpr auto answer_timeout = std::chrono::seconds(60);

std::string state_file(const std::string& dir) { return dir + "/pbt.json"; }
std::string log_file(const std::string& dir) { return dir + "/pbt.csv"; }

// Sends member `learner` its step and waits for the version it answers.
std::uint64_t send_step(caf::scoped_actor& self, const learner_actor& learner, const pbt_step& step) {
  std::uint64_t version = 0;
  self->request(learner, answer_timeout, pbt_atom_v, step)
      .receive([&](std::uint64_t v) { version = v; },
               [&](caf::error& err) {
                 throw std::runtime_error("pbt: a member's learner did not take its step: " + caf::to_string(err));
               });
  return version;
}

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

}  // namespace

pbt_driver::pbt_driver(agents::population population, std::string dir, std::vector<pbt_member> members)
    : population_(std::move(population)), dir_(std::move(dir)), members_(std::move(members)) {}

void pbt_driver::start(caf::scoped_actor& self, bool resumed) {
  state_ = population_.first_state();
  const bool have_state = !dir_.empty() && std::filesystem::exists(state_file(dir_));
  if (resumed && have_state) {
    try {
      state_ = population_.state_from_json(model::read_checkpoint_file(state_file(dir_)), state_file(dir_));
    } catch (const std::exception& e) {
      throw run::config_error(e.what());
    }
    for (size_t m = 0; m < members_.size(); ++m) send_step(self, members_[m].learner, step_of(-1, state_.members[m].values));
    // Rows past the decisions pbt.json lists were written after its last save.
    std::ifstream in(log_file(dir_));
    std::string line, kept;
    for (std::uint64_t rows = 0; rows <= state_.decisions && std::getline(in, line); ++rows) kept += line + "\n";
    model::write_file_atomically(log_file(dir_), kept);
  } else if (!dir_.empty()) {
    std::string header = "decision,run_env_steps,member,member_env_steps,action,source,score,source_score";
    for (const auto& [key, range] : population_.config().hyperparams) header += ",before:" + key;
    for (const auto& [key, range] : population_.config().hyperparams) header += ",after:" + key;
    model::write_file_atomically(log_file(dir_), header + "\n");
  }
  for (size_t m = 0; m < members_.size(); ++m)
    if (members_[m].shown) members_[m].shown->set(state_.members[m].values);
  save();
}

void pbt_driver::poll(caf::scoped_actor& self) {
  std::vector<double> scores;
  std::vector<std::int64_t> steps;
  std::int64_t run_steps = 0;
  for (const auto& m : members_)
    self->request(m.metrics, answer_timeout, totals_atom_v)
        .receive(
            [&](const metrics_totals& t) {
              scores.push_back(t.episodes > 0 ? t.final_mean_return : std::nan(""));
              steps.push_back(t.env_steps);
              run_steps += t.env_steps;
            },
            [&](caf::error& err) {
              throw std::runtime_error("pbt: a member's metrics did not answer: " + caf::to_string(err));
            });
  std::vector<agents::hyperparams> current;
  for (const auto& m : state_.members) current.push_back(m.values);
  for (int m = 0; m < int(members_.size()); ++m) {
    if (steps[size_t(m)] < state_.members[size_t(m)].next_decision_at) continue;
    const agents::pbt_decision d = population_.decide(state_.decisions, m, scores, current);
    apply(self, m, d, scores, steps[size_t(m)], run_steps);
    current[size_t(m)] = d.after;
  }
}

void pbt_driver::apply(caf::scoped_actor& self, int member, const agents::pbt_decision& d,
                       const std::vector<double>& scores, std::int64_t member_steps, std::int64_t run_steps) {
  agents::pbt_member_state& m = state_.members[size_t(member)];
  if (d.exploit) {
    send_step(self, members_[size_t(member)].learner, step_of(d.source, d.after));
    ++state_.exploits;
    m.lineage.push_back({d.index, member_steps, d.source});
  }
  m.values = d.after;
  m.env_steps = member_steps;
  m.score = scores[size_t(member)];
  const std::int64_t interval = population_.config().interval_env_steps;
  while (m.next_decision_at <= member_steps) m.next_decision_at += interval;
  ++state_.decisions;
  if (members_[size_t(member)].shown) members_[size_t(member)].shown->set(m.values);
  append_row(d, scores[size_t(member)], d.exploit ? scores[size_t(d.source)] : std::nan(""), member_steps, run_steps);
  save();
}

void pbt_driver::append_row(const agents::pbt_decision& d, double score, double source_score,
                            std::int64_t member_steps, std::int64_t run_steps) const {
  if (dir_.empty()) return;
  std::ostringstream row;
  row << d.index << ',' << run_steps << ',' << d.member << ',' << member_steps << ','
      << (d.exploit ? "exploit" : "keep") << ',' << (d.exploit ? std::to_string(d.source) : "") << ','
      << number(score) << ',' << number(source_score);
  for (const auto& [key, value] : d.before) row << ',' << number(value);
  for (const auto& [key, value] : d.after) row << ',' << number(value);
  std::ofstream out(log_file(dir_), std::ios::app);
  out << row.str() << '\n';
}

void pbt_driver::save() const {
  if (dir_.empty()) return;
  model::write_file_atomically(state_file(dir_), agents::population::state_json(state_));
}

}  // namespace troupe::actors
