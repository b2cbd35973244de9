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
  turn_based_ = hosts_.kind == "aec";
  const host_hello described = read_hello(config.id.text(), hosts_.hello);
  agents_ = described.agents;
  can_render_ = described.can_render;
  if (agents_.size() < 2)
    throw env_key_error("env.id", "'" + config.id.text() + "': a game of two or more agents expected, its host names " +
                                      std::to_string(agents_.size()));
  specs_ = described.agent_specs.empty() ? std::vector<env_spec>(agents_.size(), described.spec)
                                         : described.agent_specs;
  for (const env_spec& s : specs_) {
    view_offsets_.push_back(views_per_game_);
    view_sizes_.push_back(size_t(s.observation.flat_size()));
    views_per_game_ += view_sizes_.back();
    mask_offsets_.push_back(masks_per_game_);
    mask_sizes_.push_back(s.has_action_mask ? size_t(s.action.choice_count()) : 0);
    masks_per_game_ += mask_sizes_.back();
    action_offsets_.push_back(row_width_);
    row_width_ += size_t(s.action.flat_size());
  }
  to_move_.assign(size_t(count_), -1);
  views_.assign(size_t(count_) * views_per_game_, 0.f);
  masks_.assign(size_t(count_) * masks_per_game_, 0);
}

python_game_vector::~python_game_vector() = default;

void python_game_vector::exchange(host_op op, const char* what, const int* games, int n_games, const void* extra,
                                  size_t extra_bytes, game_result* results) {
  // A record: its head (host_protocol.hpp), each agent's reward (f64
  // each), the views, the masks.
  const size_t n = agents_.size(), view_bytes = views_per_game_ * sizeof(float), mask_bytes = masks_per_game_;
  const size_t head_bytes = game_state_head::bytes(n);
  const size_t record = head_bytes + n * sizeof(double) + view_bytes + mask_bytes;
  hosts_.exchange_records(op, what, games, n_games, extra, extra_bytes, record, [&](int i, const char* at) {
    const size_t g = size_t(games[i]);
    game_state_head head = read_state_head(at, n);
    at += head_bytes;
    game_result r;
    r.rewards.resize(n);
    std::memcpy(r.rewards.data(), at, n * sizeof(double));
    at += n * sizeof(double);
    // An empty buffer (a game without masks) has no element to point at.
    if (view_bytes > 0) std::memcpy(views_.data() + g * views_per_game_, at, view_bytes);
    at += view_bytes;
    if (mask_bytes > 0) std::memcpy(masks_.data() + g * masks_per_game_, at, mask_bytes);
    if (head.to_move >= int(n) || (!turn_based_ && head.to_move > 0))
      throw std::runtime_error("the Python game host named mover " + std::to_string(head.to_move));
    to_move_[g] = head.to_move;
    r.terminated = head.to_move < 0 && head.terminated;
    r.truncated = head.to_move < 0 && !head.terminated;
    r.left = std::move(head.left);
    if (results) results[i] = std::move(r);
  });
}

void python_game_vector::check_going(const int* games, int n, const char* doing) const {
  for (int i = 0; i < n; ++i)
    if (to_move_.at(size_t(games[i])) < 0)
      throw std::logic_error(spec().id + ": game " + std::to_string(games[i]) + " " + doing + " after its end");
}

void python_game_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  exchange(host_op::game_reset, "resetting", games, n, seeds, sizeof(std::uint64_t), nullptr);
  for (int i = 0; i < n; ++i)
    if (to_move_[size_t(games[i])] < 0)
      throw std::runtime_error(spec().id + ": game " + std::to_string(games[i]) + " was over at its reset");
}

void python_game_vector::step(const int* games, int n, const float* actions, game_result* results) {
  check_going(games, n, "moved");
  if (n < 1) return;
  if (turn_based_) {
    // The host reads every agent's place in a row: the mover's action goes
    // to its own, the others' stay zero.
    rows_.assign(size_t(n) * row_width_, 0.f);
    for (int i = 0; i < n; ++i) {
      const size_t width = step_width(games[i]);
      std::copy_n(actions, width, &rows_[size_t(i) * row_width_ + action_offsets_[size_t(to_move_[size_t(games[i])])]]);
      actions += width;
    }
    actions = rows_.data();
  }
  exchange(host_op::game_step, "stepping", games, n, actions, row_width_ * sizeof(float), results);
}

void python_game_vector::search_moves(const int* games, int n, int depth, const std::uint64_t* seeds,
                                      float* actions) {
  if (!turn_based_) game_vector::search_moves(games, n, depth, seeds, actions);
  check_going(games, n, "searched");
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
      std::memcpy(actions + size_t(rows[p][r]) * width, answer.data() + r * sizeof(float), sizeof(float));
  });
}

void python_game_vector::observe(int game, int agent, float* observation) const {
  const size_t at = size_t(game) * views_per_game_ + view_offsets_.at(size_t(agent));
  std::memcpy(observation, &views_.at(at), view_sizes_[size_t(agent)] * sizeof(float));
}

void python_game_vector::action_mask(int game, int agent, std::uint8_t* legal) const {
  const size_t size = mask_sizes_.at(size_t(agent));
  if (size > 0) std::memcpy(legal, &masks_.at(size_t(game) * masks_per_game_ + mask_offsets_[size_t(agent)]), size);
}

bool python_game_vector::render(int game, rgb_frame& frame) {
  if (!can_render_) return false;
  hosts_.render(game, frame);
  return true;
}

}  // namespace troupe::bridges::python
