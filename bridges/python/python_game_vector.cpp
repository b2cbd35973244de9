#include "bridges/python/python_game_vector.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "bridges/python/host_hello.hpp"
#include "envs/env_error.hpp"

namespace troupe::bridges::python {

using envs::env_key_error;


python_game_vector::python_game_vector(const env_config& config, host_group hosts) : hosts_(std::move(hosts)) {
  for (const auto& s : hosts_.shares) count_ += s.count;
  const host_hello described = read_hello(config.id, hosts_.hello);
  agents_ = described.agents;
  can_render_ = described.can_render;
  if (agents_.size() < 2)
    throw env_key_error("env.id", "'" + config.id + "': a game of two or more agents expected, its host names " +
                                      std::to_string(agents_.size()));
  specs_ = described.agent_specs.empty() ? std::vector<env_spec>(agents_.size(), described.spec)
                                         : described.agent_specs;
  for (const env_spec& s : specs_) {
    view_offsets_.push_back(views_per_game_);
    view_sizes_.push_back(size_t(s.observation.flat_size()));
    views_per_game_ += view_sizes_.back();
    mask_sizes_.push_back(s.has_action_mask ? size_t(s.action.choice_count()) : 0);
    mask_room_ = std::max(mask_room_, mask_sizes_.back());
    step_width_ = std::max(step_width_, size_t(s.action.flat_size()));
  }
  to_move_.assign(size_t(count_), -1);
  views_.assign(size_t(count_) * views_per_game_, 0.f);
  masks_.assign(size_t(count_) * mask_room_, 0);
}

python_game_vector::~python_game_vector() = default;

size_t python_game_vector::record_bytes() const {
  return game_state_head::bytes(agents_.size()) + agents_.size() * sizeof(double) + views_per_game_ * sizeof(float) +
         mask_room_;
}

void python_game_vector::exchange(host_op op, const char* what, const int* games, int n, const void* extra,
                                  size_t extra_bytes, turn_result* results) {
  const size_t agents = agents_.size();
  hosts_.exchange_records(op, what, games, n, extra, extra_bytes, record_bytes(), [&](int i, const char* at) {
    const size_t g = size_t(games[i]);
    game_state_head head = read_state_head(at, agents);
    at += game_state_head::bytes(agents);
    turn_result r;
    r.rewards.resize(agents);
    std::memcpy(r.rewards.data(), at, agents * sizeof(double));
    at += agents * sizeof(double);
    // An empty buffer (a game without masks) has no element to point at.
    if (views_per_game_ > 0) std::memcpy(views_.data() + g * views_per_game_, at, views_per_game_ * sizeof(float));
    at += views_per_game_ * sizeof(float);
    if (mask_room_ > 0) std::memcpy(masks_.data() + g * mask_room_, at, mask_room_);
    if (head.to_move >= int(agents))
      throw std::runtime_error("the Python game host named mover " + std::to_string(head.to_move));
    to_move_[g] = head.to_move;
    r.terminated = head.to_move < 0 && head.terminated;
    r.truncated = head.to_move < 0 && !head.terminated;
    r.left = std::move(head.left);
    if (results) results[i] = std::move(r);
  });
}

void python_game_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  exchange(host_op::game_reset, "resetting", games, n, seeds, sizeof(std::uint64_t), nullptr);
  for (int i = 0; i < n; ++i)
    if (to_move_[size_t(games[i])] < 0)
      throw std::runtime_error(spec().id + ": game " + std::to_string(games[i]) + " was over at its reset");
}

void python_game_vector::step(const int* games, int n, const float* actions, turn_result* results) {
  for (int i = 0; i < n; ++i)
    if (to_move_.at(size_t(games[i])) < 0)
      throw std::logic_error(spec().id + ": game " + std::to_string(games[i]) + " moved after its end");
  if (n < 1) return;
  // The movers' rows, widened to the host's row where an agent's actions
  // are narrower than another's.
  const size_t width = size_t(agent_spec(to_move_[size_t(games[0])]).action.flat_size());
  if (width != step_width_) {
    padded_.assign(size_t(n) * step_width_, 0.f);
    for (int i = 0; i < n; ++i) std::copy_n(actions + size_t(i) * width, width, &padded_[size_t(i) * step_width_]);
    actions = padded_.data();
  }
  exchange(host_op::game_step, "stepping", games, n, actions, step_width_ * sizeof(float), results);
}

void python_game_vector::search_moves(const int* games, int n, int depth, const std::uint64_t* seeds,
                                      float* actions) {
  for (int i = 0; i < n; ++i)
    if (to_move_.at(size_t(games[i])) < 0)
      throw std::logic_error(spec().id + ": game " + std::to_string(games[i]) + " searched after its end");
  if (n < 1) return;
  const size_t width = size_t(agent_spec(to_move_[size_t(games[0])]).action.flat_size());
  const std::vector<std::vector<int>> rows = hosts_.rows_of(games, n);
  for (size_t p = 0; p < hosts_.shares.size(); ++p)
    hosts_.shares[p].process->send(host_op::game_search, std::uint32_t(depth),
                                   hosts_.batch_payload(p, rows[p], games, seeds, sizeof(std::uint64_t)));
  hosts_.collect("searching", [&](host_share& s, const std::string& answer) {
    const size_t p = size_t(&s - hosts_.shares.data());
    if (answer.size() != rows[p].size() * sizeof(float))
      throw std::runtime_error("the Python game host (" + s.process->name() + ") answered a search wrongly");
    for (size_t r = 0; r < rows[p].size(); ++r)
      std::memcpy(actions + size_t(rows[p][r]) * width, answer.data() + r * sizeof(float),
                  sizeof(float));
  });
}

void python_game_vector::observe(int game, int agent, float* observation) const {
  const size_t at = size_t(game) * views_per_game_ + view_offsets_.at(size_t(agent));
  std::memcpy(observation, &views_.at(at), view_sizes_[size_t(agent)] * sizeof(float));
}

void python_game_vector::action_mask(int game, std::uint8_t* legal) const {
  const int mover = to_move_.at(size_t(game));
  const size_t size = mover < 0 ? 0 : mask_sizes_[size_t(mover)];
  if (size > 0) std::memcpy(legal, &masks_.at(size_t(game) * mask_room_), size);
}

bool python_game_vector::render(int game, rgb_frame& frame) {
  if (!can_render_) return false;
  hosts_.render(game, frame);
  return true;
}

}  // namespace troupe::bridges::python
