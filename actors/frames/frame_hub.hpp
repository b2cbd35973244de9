#pragma once
// The frame hub: where viewers get frames of a training run, in the same
// process (`train --view`) or over the network (`--view-port`, see
// actors/frames/frame_stream.hpp).
//
// Frames are pulled, never pushed. A viewer asks for the next frame of agent
// i; the hub asks that agent to render (one render request out per agent, at
// most max_fps a second, and only while some viewer is waiting), then answers
// every viewer waiting for that agent with the same frame. So:
//   - with no viewer, no agent ever renders;
//   - a slow viewer simply asks less often: it is never sent a frame it did not
//     ask for, so nothing queues for it anywhere, and the frames it missed were
//     never drawn;
//   - a viewer may come, go or vanish at any time: the agents only ever see
//     render requests, at the same bounded rate.
//
// The coordinator tells the hub which actor is agent i (again after a
// restart) and where env steps are counted, for the panel's steps/s; in a
// cluster run the gateway names the workers' agents too, in the slots after
// the learner's own, and empties a slot when its worker leaves. A viewer
// waiting on an empty slot is served by the next agent that is there (the
// frame says which). Those messages count only when sent by an actor of this
// process (not anonymously, not from a peer of a published hub).
#include <cstdint>

#include "actors/handle_types.hpp"

namespace troupe::actors {

// Where a viewer gets frames: the hub itself, in its own process, or a
// frame stream's gate from another (actors/frames/frame_stream.hpp). The
// next frame of agent i (0-based), rendered after the request.
using frame_source = caf::typed_actor<caf::replies_to<next_frame_atom, std::int32_t>::with<env_frame>>;

using frame_hub_actor = frame_source::extend<
    // Coordinator or cluster gateway: agent i is this actor (perhaps on a
    // worker node); a null handle: agent i has left the run.
    caf::reacts_to<agent_atom, std::int32_t, agent_actor>,
    // Coordinator: the metrics actor, asked for the training's env steps.
    caf::reacts_to<metrics_atom, metrics_actor>>;

struct frame_hub_config {
  double max_fps = 60.0;          // render requests per second to one agent, at most
  int max_waiting = 64;           // viewer requests held per agent; more are refused
  int max_agents = 4096;          // a viewer asking for agent >= this is refused
  double render_timeout_s = 2.0;  // then the agent is asked again (it may have been replaced)
};

// Spawned on the scheduler: it only forwards frames, and stays light.
frame_hub_actor spawn_frame_hub(caf::actor_system& sys, const frame_hub_config& config = {});

}  // namespace troupe::actors
