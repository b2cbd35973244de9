#pragma once
// How the learner's frame hub watches a worker's agent without the hub's
// handle leaving the process: the gateway names, in the agent's viewer slot,
// a relay on the learner's node. The relay asks the remote agent for a frame
// when the hub asks it, checks the frame (actors::frame_problem) and answers
// the hub. Only actors of this process that the network cannot impersonate
// (actors/net/network_facing.hpp) may ask it; it is network-facing itself (the
// worker's node sees it as the sender of render requests). It quits when
// the remote agent does (the worker left, or replaced the agent).
#include "actors/agent_actor.hpp"

namespace troupe::actors {

agent_actor spawn_render_relay(caf::actor_system& sys, agent_actor remote_agent);

}  // namespace troupe::actors
