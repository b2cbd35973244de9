#include "agents/league/population.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include <nlohmann/json.hpp>

#include "agents/random_streams.hpp"

namespace troupe::agents {

namespace {
// The streams of the population's draws, apart from the run's others.
constexpr std::uint64_t initial_draws = 1u << 26, decision_draws = (1u << 26) + (1u << 20);
}  // namespace

population::population(run::pbt_config config, std::uint64_t seed) : config_(std::move(config)), seed_(seed) {}

double population::draw(const run::hyperparam_range& r, double lo, double hi, std::mt19937_64& rng) const {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const double x = u(rng);
  if (r.log) return std::exp(std::log(lo) + x * (std::log(hi) - std::log(lo)));
  return lo + x * (hi - lo);
}

hyperparams population::initial(int member) const {
  std::mt19937_64 rng(stream_seed(seed_, initial_draws + std::uint64_t(member), 0));
  hyperparams out;
  for (const auto& [key, r] : config_.hyperparams) out[key] = draw(r, r.init_lo, r.init_hi, rng);
  return out;
}

population::ranking population::rank(const std::vector<double>& scores) const {
  const int n = int(scores.size());
  std::vector<int> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  const auto value = [&](int m) {
    const double s = scores[size_t(m)];
    return std::isnan(s) ? -std::numeric_limits<double>::infinity() : s;
  };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return value(a) > value(b); });
  const int k = std::clamp(int(std::lround(config_.truncation * n)), 1, n / 2);
  ranking r;
  r.top.assign(order.begin(), order.begin() + k);
  r.bottom.assign(order.end() - k, order.end());
  return r;
}

pbt_decision population::decide(std::uint64_t index, int member, const std::vector<double>& scores,
                                const std::vector<hyperparams>& current) const {
  pbt_decision d;
  d.index = index;
  d.member = member;
  d.before = current[size_t(member)];
  d.after = d.before;
  const ranking r = rank(scores);
  if (std::find(r.bottom.begin(), r.bottom.end(), member) == r.bottom.end()) return d;
  const double mine = scores[size_t(member)];
  std::vector<int> better;
  for (int t : r.top) {
    const double s = scores[size_t(t)];
    if (!std::isnan(s) && (std::isnan(mine) || s > mine)) better.push_back(t);
  }
  if (better.empty()) return d;
  std::mt19937_64 rng(stream_seed(seed_, decision_draws, index));
  d.exploit = true;
  d.source = better[std::uniform_int_distribution<size_t>(0, better.size() - 1)(rng)];
  d.after = explore(current[size_t(d.source)], rng);
  return d;
}

hyperparams population::explore(const hyperparams& from, std::mt19937_64& rng) const {
  hyperparams out = from;
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (auto& [key, value] : out) {
    const auto range = config_.hyperparams.find(key);
    if (range == config_.hyperparams.end()) continue;
    const run::hyperparam_range& r = range->second;
    if (u(rng) < config_.resample_probability) {
      value = draw(r, r.min, r.max, rng);
    } else {
      const auto& f = config_.perturb;
      value *= f[std::uniform_int_distribution<size_t>(0, f.size() - 1)(rng)];
    }
    value = std::clamp(value, r.min, r.max);
  }
  return out;
}

pbt_state population::first_state() const {
  pbt_state s;
  for (int m = 0; m < size(); ++m) {
    pbt_member_state member;
    member.values = initial(m);
    member.next_decision_at = config_.interval_env_steps;
    s.members.push_back(member);
  }
  return s;
}

std::string population::state_json(const pbt_state& state) {
  nlohmann::json j;
  j["decisions"] = state.decisions;
  j["exploits"] = state.exploits;
  j["members"] = nlohmann::json::array();
  for (size_t m = 0; m < state.members.size(); ++m) {
    const pbt_member_state& member = state.members[m];
    nlohmann::json lineage = nlohmann::json::array();
    for (const auto& e : member.lineage)
      lineage.push_back({{"decision", e.decision}, {"env_steps", e.env_steps}, {"source", e.source}});
    j["members"].push_back({{"id", m},
                            {"hyperparams", member.values},
                            {"next_decision_at", member.next_decision_at},
                            {"env_steps", member.env_steps},
                            {"score", std::isnan(member.score) ? nlohmann::json() : nlohmann::json(member.score)},
                            {"lineage", lineage}});
  }
  return j.dump(2) + "\n";
}

pbt_state population::state_from_json(const std::string& text, const std::string& where) const {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    pbt_state s;
    s.decisions = j.at("decisions").get<std::uint64_t>();
    s.exploits = j.at("exploits").get<std::int64_t>();
    const auto& members = j.at("members");
    if (int(members.size()) != size())
      throw std::runtime_error(std::to_string(members.size()) + " members, where pbt.population is " +
                               std::to_string(size()));
    for (const auto& m : members) {
      pbt_member_state member;
      member.values = m.at("hyperparams").get<hyperparams>();
      member.next_decision_at = m.at("next_decision_at").get<std::int64_t>();
      member.env_steps = m.at("env_steps").get<std::int64_t>();
      if (!m.at("score").is_null()) member.score = m.at("score").get<double>();
      for (const auto& e : m.at("lineage"))
        member.lineage.push_back(
            {e.at("decision").get<std::uint64_t>(), e.at("env_steps").get<std::int64_t>(), e.at("source").get<int>()});
      if (member.values.size() != config_.hyperparams.size())
        throw std::runtime_error("a member's hyperparameters are not pbt.hyperparams' keys");
      for (const auto& [key, value] : member.values) {
        const auto range = config_.hyperparams.find(key);
        if (range == config_.hyperparams.end()) throw std::runtime_error(key + " is not in pbt.hyperparams");
        if (!(value >= range->second.min && value <= range->second.max))
          throw std::runtime_error(key + " = " + std::to_string(value) + " is outside its range");
      }
      s.members.push_back(member);
    }
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(where + ": not a population's state: " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(where + ": " + e.what());
  }
}

}  // namespace troupe::agents
