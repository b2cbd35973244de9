#include "bridges/python/python_parallel_vector.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "bridges/python/host_hello.hpp"
#include "envs/env_error.hpp"

namespace troupe::bridges::python {

using envs::env_key_error;


python_parallel_vector::python_parallel_vector(const env_config& config, host_group hosts)
    : hosts_(std::move(hosts)) {
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
    mask_offsets_.push_back(masks_per_game_);
    mask_sizes_.push_back(s.has_action_mask ? size_t(s.action.choice_count()) : 0);
    masks_per_game_ += mask_sizes_.back();
    row_width_ += size_t(s.action.flat_size());
  }
  views_.assign(size_t(count_) * views_per_game_, 0.f);
  masks_.assign(size_t(count_) * masks_per_game_, 0);
}

python_parallel_vector::~python_parallel_vector() = default;

void python_parallel_vector::exchange(host_op op, const char* what, const int* games, int n_games,
                                      const void* extra, size_t extra_bytes, joint_result* results) {
  // A record: its head (host_protocol.hpp), each agent's reward (f64
  // each), the views, the masks.
  const size_t n = agents_.size(), view_bytes = views_per_game_ * sizeof(float), mask_bytes = masks_per_game_;
  const size_t head_bytes = game_state_head::bytes(n);
  const size_t record = head_bytes + n * sizeof(double) + view_bytes + mask_bytes;
  hosts_.exchange_records(op, what, games, n_games, extra, extra_bytes, record, [&](int i, const char* at) {
    const size_t g = size_t(games[i]);
    game_state_head head = read_state_head(at, n);
    at += head_bytes;
    joint_result r;
    r.rewards.resize(n);
    std::memcpy(r.rewards.data(), at, n * sizeof(double));
    at += n * sizeof(double);
    // An empty buffer (a game without masks) has no element to point at.
    if (view_bytes > 0) std::memcpy(views_.data() + g * views_per_game_, at, view_bytes);
    at += view_bytes;
    if (mask_bytes > 0) std::memcpy(masks_.data() + g * masks_per_game_, at, mask_bytes);
    r.terminated = head.to_move < 0 && head.terminated;
    r.truncated = head.to_move < 0 && !head.terminated;
    r.left = std::move(head.left);
    if (results) results[i] = std::move(r);
  });
}

void python_parallel_vector::reset(const int* games, int n, const std::uint64_t* seeds) {
  exchange(host_op::game_reset, "resetting", games, n, seeds, sizeof(std::uint64_t), nullptr);
}

void python_parallel_vector::step(const int* games, int n, const float* actions, joint_result* results) {
  exchange(host_op::game_step, "stepping", games, n, actions, row_width_ * sizeof(float), results);
}

void python_parallel_vector::observe(int game, int agent, float* observation) const {
  std::memcpy(observation, &views_.at(size_t(game) * views_per_game_ + view_offsets_.at(size_t(agent))),
              view_sizes_[size_t(agent)] * sizeof(float));
}

void python_parallel_vector::action_mask(int game, int agent, std::uint8_t* legal) const {
  const size_t size = mask_sizes_.at(size_t(agent));
  if (size > 0) std::memcpy(legal, &masks_.at(size_t(game) * masks_per_game_ + mask_offsets_[size_t(agent)]), size);
}

bool python_parallel_vector::render(int game, rgb_frame& frame) {
  if (!can_render_) return false;
  hosts_.render(game, frame);
  return true;
}

}  // namespace troupe::bridges::python
