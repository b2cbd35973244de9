#include "actors/cluster/render_relay.hpp"

#include <chrono>

#include "actors/errors.hpp"
#include "actors/frames/frame_subscriber.hpp"
#include "actors/net/network_facing.hpp"

namespace troupe::actors {

namespace {

// The hub asks again after its own render timeout; this only bounds a
// request to an agent that never answers.
constexpr auto render_timeout = std::chrono::seconds(10);

struct relay_state {
  agent_actor remote;
  static inline const char* name = "render_relay";
};

using relay_impl =
    network_facing<caf::stateful_actor<relay_state, agent_actor::base>, agent_actor>;

agent_actor::behavior_type relay(relay_impl* self, agent_actor remote) {
  self->state.remote = std::move(remote);
  self->monitor(self->state.remote);
  self->set_down_handler([=](caf::down_msg& down) {
    if (down.source == self->state.remote.address()) self->quit(down.reason);
  });
  auto local_only = [=] {
    return make_error(errc::not_local, "a render relay takes requests from its own process only");
  };
  return {
      [=](start_atom) {},  // the worker starts its agents itself
      [=](stop_atom) -> caf::result<agent_final> { return local_only(); },
      [=](render_atom) -> caf::result<env_frame> {
        if (!trusted_sender(self->current_sender())) return local_only();
        auto promise = self->make_response_promise<env_frame>();
        self->request(self->state.remote, render_timeout, render_atom_v)
            .then(
                [promise](env_frame& frame) mutable {
                  // Checked here, on the learner: a worker's frame is data
                  // from the network like any other. Which agent it shows and
                  // of how many the hub says (it numbers its slots itself).
                  frame.agent_id = 0;
                  frame.agent_count = 1;
                  if (const std::string problem = frame_problem(frame); !problem.empty())
                    promise.deliver(make_error(errc::malformed, problem));
                  else
                    promise.deliver(std::move(frame));
                },
                [promise](caf::error& err) mutable { promise.deliver(std::move(err)); });
        return promise;
      },
  };
}

}  // namespace

agent_actor spawn_render_relay(caf::actor_system& sys, agent_actor remote_agent) {
  return sys.spawn(relay, std::move(remote_agent));
}

}  // namespace troupe::actors
