#pragma once
// The signalling game (Lewis's): two agents whose spaces differ. The sender
// sees a secret, one of `secrets` (a one-hot Box(3)), and sends one of
// `signals` (Discrete(4): one more than it needs); the receiver sees only
// the signal (a one-hot Box(4)) and guesses the secret (Discrete(3)). Both
// get +1 when the guess is right and -1 when it is wrong, on the receiver's
// move, which ends the game. Neither can do better than a third right
// without a code both keep: each agent needs a policy of its own
// (policies:), and a seat of its own (env.seat first is the sender's).
#include <cstdint>
#include <string>

#include "envs/render.hpp"
#include "games/turn_based_env.hpp"

namespace troupe::games {

using envs::env_spec;
using envs::renderable;
using envs::rgb_frame;

class signal_game final : public turn_based_env, public renderable {
 public:
  static constexpr const char* id = "Signal-v0";
  static constexpr int secrets = 3, signals = 4;
  signal_game();

  const env_spec& spec() const override { return sender_; }
  const env_spec& agent_spec(int agent) const override { return agent == 0 ? sender_ : receiver_; }
  int agent_count() const override { return 2; }
  std::string agent_name(int agent) const override { return agent == 0 ? "sender" : "receiver"; }
  // The secret is drawn from `seed`.
  void reset(std::uint64_t seed) override;
  int to_move() const override { return signal_ < 0 ? 0 : 1; }
  void observe(int agent, float* observation) const override;
  // Throws std::invalid_argument on a signal or guess out of range.
  turn_result step(const float* action) override;
  // Three columns of cells: the secrets (the secret lit while the sender
  // moves and after the guess, never while the receiver thinks), the
  // signals (the one sent lit), the guesses (the guess lit: green when
  // right, red when wrong).
  void render(rgb_frame& frame) const override;
  // The mover's action at a click: a cell of its own column.
  int action_at(double u, double v) const override;

  int secret() const { return secret_; }

 private:
  env_spec sender_, receiver_;
  int secret_ = 0;
  int signal_ = -1;  // none sent yet
  int guess_ = -1;   // none made yet
};

}  // namespace troupe::games
