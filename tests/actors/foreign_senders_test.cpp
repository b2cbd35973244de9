// The actors behind the gateway take messages only from actors of their own
// process. Their handles never leave it in a real run; here the test leaks
// them on purpose (publishes them) and sends from a second actor system
// connected over TCP, as a peer that somehow learnt them would.
#include <doctest/doctest.h>

#include <chrono>

#include <caf/io/all.hpp>

#include "actors/net/network_setup.hpp"
#include "actors/errors.hpp"
#include "actors/learner_actor.hpp"
#include "actors/metrics_actor.hpp"
#include "actors/model_owner.hpp"
#include "algo/learner.hpp"
#include "tests/actors/network_system.hpp"

using namespace troupe;
using troupe::tests::network_system;
using namespace troupe::actors;
using namespace std::chrono_literals;

namespace {

// `handle` as a peer on `peer` sees it, through a port `home` publishes it on.
template <class Handle>
Handle leaked(network_system& home, network_system& peer, const Handle& handle) {
  auto port = home.sys->middleman().publish(handle, 0, "127.0.0.1");
  REQUIRE(port);
  auto remote = peer.sys->middleman().remote_actor<Handle>("127.0.0.1", *port);
  REQUIRE(remote);
  return *remote;
}

// The error code a request got, or errc::none when it was answered with a `Reply`.
template <class Reply, class Handle, class... Ts>
errc refusal(caf::actor_system& sys, const Handle& to, Ts... message) {
  caf::scoped_actor self{sys};
  errc code = errc::none;
  self->request(to, 10s, std::move(message)...)
      .receive([](const Reply&) {}, [&](caf::error& err) { code = code_of(err); });
  return code;
}

}  // namespace

TEST_SUITE("actors") {
TEST_CASE("model-owner, learner, replicas and metrics refuse every sender from outside their process") {
  network_system home, peer;
  auto model = model::make_shared_model(model::mlp_spec(4, 2, {8}), 1);
  model::warm_up(*model, 8);
  auto owner = spawn_model_owner(*home.sys, model, {8}, 1);
  auto trainer = std::make_shared<algo::learner>(model, algo::algo_config{});
  metrics_config mc;
  mc.start = std::chrono::steady_clock::now();
  mc.log.progress = false;
  caf::scoped_actor coordinator{*home.sys};
  auto metrics = spawn_metrics(*home.sys, mc, owner, caf::actor_cast<run_control>(coordinator));
  auto learner = spawn_learner(*home.sys, trainer, metrics);
  const std::uint64_t version_before = model::current_version(*model);

  auto remote_owner = leaked(home, peer, owner);
  auto remote_learner = leaked(home, peer, learner);
  auto remote_metrics = leaked(home, peer, metrics);
  CHECK(refusal<predict_reply>(*peer.sys, remote_owner, predict_request{0, 1, {0.1f, 0.2f, 0.3f, 0.4f}}) ==
        errc::not_local);
  CHECK(refusal<batch_stats>(*peer.sys, remote_owner, stats_atom_v) == errc::not_local);
  algo::rollout r;
  r.n_steps = 1, r.n_envs = 1, r.obs_size = 4, r.action_size = 1;
  r.observations.assign(8, 0.5f);
  r.actions = {1};
  r.rewards = {1000};
  r.terminated = {false};
  r.truncated = {false};
  r.behaviour_logp = {-0.7f};
  r.behaviour_version = {0};
  CHECK(refusal<train_ack>(*peer.sys, remote_learner, r) == errc::not_local);
  CHECK(refusal<std::uint64_t>(*peer.sys, remote_learner, replica_update{1, 1, std::vector<float>(200, 1.0f)}) ==
        errc::not_local);
  CHECK(refusal<learner_final>(*peer.sys, remote_learner, drain_atom_v) == errc::not_local);
  CHECK(refusal<std::uint64_t>(*peer.sys, remote_learner, checkpoint_atom_v, std::string("/tmp/x.pt"),
                model::checkpoint_meta{}) == errc::not_local);
  {
    caf::scoped_actor stranger{*peer.sys};
    episode_report report;
    report.env_steps = 1000000;
    report.returns = {500};
    report.lengths = {500};
    stranger->send(remote_metrics, report);
  }
  // Over the same connection, so answered after the report was handled.
  CHECK(refusal<metrics_totals>(*peer.sys, remote_metrics, totals_atom_v) == errc::not_local);
  // A replica update from an actor of this process that is no peer replica.
  CHECK(refusal<std::uint64_t>(*home.sys, learner, replica_update{1, 1, std::vector<float>(200, 1.0f)}) ==
        errc::not_local);

  // Nothing of it reached the parameters; every refusal was counted.
  CHECK(model::current_version(*model) == version_before);
  caf::scoped_actor self{*home.sys};
  self->request(learner, 10s, drain_atom_v)
      .receive(
          [&](const learner_final& f) {
            CHECK(f.updates == 0);
            CHECK(f.foreign_refused == 3);  // the rollout, the drain, the checkpoint
            CHECK(f.foreign_replica_updates == 2);
          },
          [&](caf::error& err) { FAIL(caf::to_string(err)); });
  self->request(owner, 10s, stats_atom_v)
      .receive(
          [&](const batch_stats& b) {
            CHECK(b.requests == 0);
            CHECK(b.foreign_refused == 2);
          },
          [&](caf::error& err) { FAIL(caf::to_string(err)); });
  self->request(metrics, 10s, totals_atom_v)
      .receive(
          [&](const metrics_totals& t) {
            CHECK(t.env_steps == 0);
            CHECK(t.episodes == 0);
            CHECK(t.foreign_refused == 2);  // the totals request, the report
          },
          [&](caf::error& err) { FAIL(caf::to_string(err)); });
  for (const auto& a : {caf::actor_cast<caf::actor>(owner), caf::actor_cast<caf::actor>(learner),
                        caf::actor_cast<caf::actor>(metrics)})
    self->send_exit(a, caf::exit_reason::user_shutdown);
}
}
