#include "actors/cluster/message_checks.hpp"

#include <algorithm>
#include <cmath>

#include "algo/action_mask.hpp"

namespace troupe::actors {

namespace {

bool all_finite(const std::vector<float>& v) {
  return std::all_of(v.begin(), v.end(), [](float x) { return std::isfinite(x); });
}

}  // namespace

std::string predict_request_problem(const run_shapes& shapes, const predict_request& request) {
  if (request.rows != shapes.rows_per_agent ||
      request.observations.size() != size_t(request.rows) * size_t(shapes.obs_size) ||
      request.states.size() != size_t(request.rows) * size_t(shapes.state_size) ||
      !all_finite(request.observations) || !all_finite(request.states))
    return "predict request with malformed observations or states";
  if (request.policy_row < -1 || request.policy_row >= request.rows)
    return "predict request for a row it does not have";
  if (!request.action_masks.empty() &&
      (request.action_masks.size() != size_t(request.rows) * size_t(shapes.mask_size) ||
       !algo::mask_problem(request.action_masks.data(), request.rows, shapes.heads()).empty()))
    return "predict request with malformed action masks";
  return "";
}

std::string opponent_request_problem(const run_shapes& shapes, const opponent_request& request) {
  const size_t events = request.event_games.size();
  if (request.event_ended.size() != events || request.event_seeds.size() != events ||
      request.event_returns.size() != events ||
      events > max_opponent_events(shapes))
    return "opponent request with malformed episode events";
  const auto foreign = [&](std::int32_t game) { return game < 0 || game >= shapes.rows_per_agent; };
  if (std::any_of(request.event_games.begin(), request.event_games.end(), foreign) ||
      std::any_of(request.event_ended.begin(), request.event_ended.end(), [](std::uint8_t e) { return e > 1; }) ||
      !std::all_of(request.event_returns.begin(), request.event_returns.end(),
                   [](double v) { return std::isfinite(v); }))
    return "opponent request with malformed episode events";
  const size_t rows = request.games.size();
  if (rows > size_t(shapes.rows_per_agent) * size_t(shapes.movers_per_game) ||
      std::any_of(request.games.begin(), request.games.end(), foreign) ||
      request.observations.size() != rows * size_t(shapes.obs_size) || !all_finite(request.observations))
    return "opponent request with malformed positions";
  if (request.agents.size() != rows ||
      std::any_of(request.agents.begin(), request.agents.end(),
                  [&](std::int32_t a) { return a < 0 || a >= shapes.game_agents; }))
    return "opponent request with malformed agents";
  if (!request.action_masks.empty() &&
      (request.action_masks.size() != rows * size_t(shapes.mask_size) ||
       !algo::mask_problem(request.action_masks.data(), int(rows), shapes.heads()).empty()))
    return "opponent request with malformed action masks";
  return "";
}

std::string rollout_problem(const run_shapes& shapes, const algo::rollout& r) {
  if (r.n_steps != shapes.n_steps || r.n_envs != shapes.rows_per_agent ||
      r.obs_size != shapes.obs_size || r.action_size != shapes.action_width ||
      r.state_size != shapes.state_size || r.mask_size != shapes.mask_size)
    return "rollout shape (" + std::to_string(r.n_steps) + " steps x " +
           std::to_string(r.n_envs) + " envs) is not the run's";
  if (const std::string error = algo::rollout_shape_error(r); !error.empty())
    return "rollout: " + error;
  // One component alone rollout_shape_error checked; the others split as the run's heads say.
  if (r.mask_size > 0 && r.action_size > 1)
    if (const std::string error = algo::rollout_mask_error(r, shapes.heads()); !error.empty())
      return "rollout: " + error;
  if (!all_finite(r.observations) || !all_finite(r.rewards) || !all_finite(r.actions) ||
      !all_finite(r.initial_states) || !all_finite(r.behaviour_logp) ||
      !all_finite(r.truncation_observations))
    return "rollout holds non-finite numbers";
  return "";
}

std::string episode_report_problem(const episode_report& report) {
  if (report.returns.size() != report.lengths.size() || !all_finite(report.returns) ||
      !std::isfinite(report.predict_seconds) || report.predict_seconds < 0 ||
      report.predicts < 0 ||
      std::any_of(report.lengths.begin(), report.lengths.end(), [](std::int32_t n) { return n < 0; }))
    return "malformed episode report";
  return "";
}

std::string predict_reply_problem(const predict_reply& reply) {
  if (!all_finite(reply.actions) || !all_finite(reply.logp) || !all_finite(reply.values) ||
      !all_finite(reply.row_policy) || !all_finite(reply.states))
    return "the model's outputs are not finite";
  return "";
}

}  // namespace troupe::actors
