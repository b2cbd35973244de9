// The gateway's checks of what a worker sends, for a recurrent run: states
// are data from outside, checked like observations (size and finite values)
// before any of it reaches the model-owner or the learner.
#include <doctest/doctest.h>

#include <limits>

#include "actors/cluster/message_checks.hpp"

using namespace troupe;

namespace {

const actors::run_shapes lstm_shapes{/*envs_per_agent=*/2, /*obs_size=*/3, /*action_width=*/1,
                                     /*state_size=*/4, /*n_steps=*/2};

actors::predict_request good_request() {
  actors::predict_request r;
  r.rows = 2;
  r.observations.assign(6, 0.5f);
  r.states.assign(8, -0.25f);
  return r;
}

algo::rollout good_rollout() {
  algo::rollout r;
  r.n_steps = 2;
  r.n_envs = 2;
  r.obs_size = 3;
  r.action_size = 1;
  r.state_size = 4;
  r.observations.assign((4 + 2) * 3, 0.1f);
  r.initial_states.assign(8, 0.3f);
  r.actions.assign(4, 1.f);
  r.rewards.assign(4, 1.f);
  r.terminated.assign(4, 0);
  r.truncated.assign(4, 0);
  r.behaviour_logp.assign(4, -0.7f);
  r.behaviour_version.assign(4, 1);
  return r;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("gateway checks: a recurrent predict request's states are sized and finite") {
  CHECK(actors::predict_request_problem(lstm_shapes, good_request()).empty());
  auto missing = good_request();
  missing.states.clear();  // a feed-forward worker in a recurrent run
  CHECK(actors::predict_request_problem(lstm_shapes, missing).find("states") != std::string::npos);
  auto short_one = good_request();
  short_one.states.pop_back();
  CHECK_FALSE(actors::predict_request_problem(lstm_shapes, short_one).empty());
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()}) {
    auto poisoned = good_request();
    poisoned.states[5] = bad;
    CHECK_FALSE(actors::predict_request_problem(lstm_shapes, poisoned).empty());
  }
  // States sent to a feed-forward run are refused too.
  actors::run_shapes ff = lstm_shapes;
  ff.state_size = 0;
  CHECK_FALSE(actors::predict_request_problem(ff, good_request()).empty());
}

TEST_CASE("gateway checks: a recurrent rollout's initial states are sized and finite") {
  CHECK(actors::rollout_problem(lstm_shapes, good_rollout()).empty());
  auto other_size = good_rollout();
  other_size.state_size = 8;
  other_size.initial_states.assign(16, 0.f);  // consistent in itself, not the run's
  CHECK(actors::rollout_problem(lstm_shapes, other_size).find("not the run's") != std::string::npos);
  auto short_one = good_rollout();
  short_one.initial_states.pop_back();
  CHECK(actors::rollout_problem(lstm_shapes, short_one).find("initial states") != std::string::npos);
  auto poisoned = good_rollout();
  poisoned.initial_states[0] = std::numeric_limits<float>::quiet_NaN();
  CHECK(actors::rollout_problem(lstm_shapes, poisoned).find("non-finite") != std::string::npos);
}

TEST_CASE("gateway checks: a reply's states must be finite to cross the wire") {
  actors::predict_reply reply;
  reply.states = {0.f, 1.f};
  CHECK(actors::predict_reply_problem(reply).empty());
  reply.states[1] = std::numeric_limits<float>::infinity();
  CHECK_FALSE(actors::predict_reply_problem(reply).empty());
}
}

TEST_SUITE("actors") {
TEST_CASE("gateway checks: a MultiDiscrete run's masks need a legal choice per component, and its actions one") {
  // Two components of 2 and 3 choices: 2 floats per action, 5 mask bytes.
  actors::run_shapes shapes{/*envs_per_agent=*/2, /*obs_size=*/3, /*action_width=*/2,
                            /*state_size=*/0, /*n_steps=*/2, /*mask_size=*/5, /*mask_heads=*/{2, 3}};
  algo::rollout r = good_rollout();
  r.action_size = 2;
  r.state_size = 0;
  r.initial_states.clear();
  r.actions = {1, 2, 0, 0, 1, 1, 0, 2};
  r.mask_size = 5;
  r.action_masks.assign(4 * 5, 1);
  CHECK(actors::rollout_problem(shapes, r).empty());
  auto none_legal = r;
  for (int a = 2; a < 5; ++a) none_legal.action_masks[size_t(5 + a)] = 0;  // sample 1, component 1
  CHECK(actors::rollout_problem(shapes, none_legal).find("no legal action for component 1") != std::string::npos);
  auto illegal = r;
  illegal.action_masks[size_t(3 * 5 + 2 + 2)] = 0;  // sample 3 took choice 2 of component 1
  CHECK(actors::rollout_problem(shapes, illegal).find("took an action its mask does not allow") !=
        std::string::npos);
  // As one Discrete(5) mask, the same bytes would pass.
  actors::predict_request req;
  req.rows = 2;
  req.observations.assign(6, 0.f);
  req.action_masks = {1, 1, 0, 0, 0, /**/ 1, 0, 1, 1, 1};
  CHECK_FALSE(actors::predict_request_problem(shapes, req).empty());
  req.action_masks[2] = 1;
  CHECK(actors::predict_request_problem(shapes, req).empty());
}

TEST_CASE("gateway checks: a hybrid run's taken choices must be legal, its Box values only finite") {
  // Discrete(3), then a Box(2): 3 floats per action, 3 mask bytes.
  actors::run_shapes shapes{/*envs_per_agent=*/2, /*obs_size=*/3, /*action_width=*/3,
                            /*state_size=*/0, /*n_steps=*/2, /*mask_size=*/3, /*mask_heads=*/{3}};
  algo::rollout r = good_rollout();
  r.action_size = 3;
  r.state_size = 0;
  r.initial_states.clear();
  // Box values that are no index (-7.5, 40) pass; each choice is legal.
  r.actions = {0, -7.5f, 40.f, /**/ 2, 0.f, 0.f, /**/ 1, 1.f, 1.f, /**/ 0, 0.f, 0.f};
  r.mask_size = 3;
  r.action_masks = {1, 0, 1, /**/ 0, 0, 1, /**/ 1, 1, 0, /**/ 1, 1, 1};
  CHECK(actors::rollout_problem(shapes, r).empty());
  auto illegal = r;
  illegal.action_masks[size_t(2 * 3 + 1)] = 0;  // sample 2 took choice 1
  illegal.action_masks[size_t(2 * 3 + 0)] = 1;
  CHECK(actors::rollout_problem(shapes, illegal).find("took an action its mask does not allow") !=
        std::string::npos);
  auto infinite = r;
  infinite.actions[2] = std::numeric_limits<float>::infinity();
  CHECK_FALSE(actors::rollout_problem(shapes, infinite).empty());
}
}
