#include "envs/seat_vector.hpp"

#include <random>
#include <stdexcept>

namespace troupe::envs {

seat_choice parse_seat(const std::string& text) {
  if (text == "alternate") return seat_choice::alternate;
  if (text == "first") return seat_choice::first;
  if (text == "second") return seat_choice::second;
  throw std::invalid_argument("env.seat: '" + text + "' is not a seat (expected alternate, first or second)");
}

seat_vector::seat_vector(std::vector<std::unique_ptr<turn_based_env>> games, seat_choice seats,
                         std::unique_ptr<opponents> others)
    : games_(std::move(games)), choice_(seats), others_(std::move(others)) {
  if (games_.empty() || !others_) throw std::invalid_argument("seat_vector: games and their opponents expected");
  for (const auto& g : games_)
    if (g->agent_count() != 2 || g->spec().id != spec().id)
      throw std::invalid_argument("seat_vector: two-agent games of one kind expected (" + g->spec().id + ")");
  const env_spec& s = spec();
  obs_size_ = s.observation.flat_size();
  action_size_ = s.action.flat_size();
  mask_size_ = s.has_action_mask ? s.action.choice_count() : 0;
  const size_t k = games_.size();
  seats_.assign(k, 0);
  pending_.assign(k, 0.0);
  returns_.assign(k, 0.0);
  over_.assign(k, 0);
  truncated_.assign(k, 0);
}

void seat_vector::begin(int g, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint64_t seat_draw = rng();
  seats_[size_t(g)] = choice_ == seat_choice::first ? 0 : choice_ == seat_choice::second ? 1 : int(seat_draw % 2);
  games_[size_t(g)]->reset(seed);
  others_->start_episode(g, rng());
  pending_[size_t(g)] = returns_[size_t(g)] = 0.0;
  over_[size_t(g)] = truncated_[size_t(g)] = 0;
}

void seat_vector::take(int g, const turn_result& result) {
  const double r = result.rewards.at(size_t(seats_[size_t(g)]));
  pending_[size_t(g)] += r;
  returns_[size_t(g)] += r;
  if (result.terminated || result.truncated) {
    over_[size_t(g)] = 1;
    truncated_[size_t(g)] = !result.terminated;
  }
}

void seat_vector::play_others(const std::vector<int>& games) {
  for (;;) {
    movers_.clear();
    for (int g : games)
      if (!over_[size_t(g)] && games_[size_t(g)]->to_move() != seats_[size_t(g)]) movers_.push_back(g);
    if (movers_.empty()) return;
    const size_t rows = movers_.size();
    batch_obs_.resize(rows * obs_size_);
    batch_masks_.resize(rows * mask_size_);
    batch_actions_.resize(rows * action_size_);
    for (size_t r = 0; r < rows; ++r) {
      const turn_based_env& game = *games_[size_t(movers_[r])];
      game.observe(game.to_move(), &batch_obs_[r * obs_size_]);
      if (mask_size_ > 0) game.action_mask(&batch_masks_[r * mask_size_]);
    }
    others_->act(movers_.data(), int(rows), batch_obs_.data(), mask_size_ > 0 ? batch_masks_.data() : nullptr,
                 batch_actions_.data());
    for (size_t r = 0; r < rows; ++r)
      take(movers_[r], games_[size_t(movers_[r])]->step(&batch_actions_[r * action_size_]));
  }
}

void seat_vector::reset(const std::uint64_t* seeds, float* observations) {
  std::vector<int> all;
  for (int g = 0; g < size(); ++g) {
    begin(g, seeds[g]);
    all.push_back(g);
  }
  play_others(all);
  for (int g = 0; g < size(); ++g) games_[size_t(g)]->observe(seats_[size_t(g)], observations + size_t(g) * obs_size_);
}

void seat_vector::reset_one(int i, std::uint64_t seed, float* observation) {
  begin(i, seed);
  play_others({i});
  games_[size_t(i)]->observe(seats_[size_t(i)], observation);
}

void seat_vector::step(const float* actions, const std::uint64_t* reset_seeds, float* observations,
                       step_result* results, float* final_observations) {
  std::vector<int> playing;
  for (int g = 0; g < size(); ++g) {
    if (over_[size_t(g)])
      throw std::logic_error(spec().id + ": game " + std::to_string(g) + " stepped after its end without a reset");
    take(g, games_[size_t(g)]->step(actions + size_t(g) * action_size_));
    if (!over_[size_t(g)]) playing.push_back(g);
  }
  play_others(playing);
  std::vector<int> restarted;
  for (int g = 0; g < size(); ++g) {
    step_result& out = results[g];
    out.reward = pending_[size_t(g)];
    out.truncated = over_[size_t(g)] && truncated_[size_t(g)];
    out.terminated = over_[size_t(g)] && !truncated_[size_t(g)];
    pending_[size_t(g)] = 0.0;
    if (!over_[size_t(g)]) continue;
    games_[size_t(g)]->observe(seats_[size_t(g)], final_observations + size_t(g) * obs_size_);
    others_->end_episode(g, returns_[size_t(g)]);
    if (reset_seeds) {
      begin(g, reset_seeds[g]);
      restarted.push_back(g);
    }
  }
  play_others(restarted);
  for (int g = 0; g < size(); ++g) games_[size_t(g)]->observe(seats_[size_t(g)], observations + size_t(g) * obs_size_);
}

void seat_vector::action_masks(std::uint8_t* masks) const {
  for (int g = 0; g < size(); ++g) games_[size_t(g)]->action_mask(masks + size_t(g) * mask_size_);
}

bool seat_vector::can_render() const {
  const auto* r = dynamic_cast<const renderable*>(games_.front().get());
  return r && r->can_render();
}

bool seat_vector::render(int i, rgb_frame& frame) {
  const auto* r = dynamic_cast<const renderable*>(games_[size_t(i)].get());
  if (!r || !r->can_render()) return false;
  r->render(frame);
  return true;
}

}  // namespace troupe::envs
