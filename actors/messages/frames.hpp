#pragma once
// The viewer's protocol (actors/frames/): one rendered frame of an agent's
// environment with its panel's information.
#include <cstdint>
#include <string>
#include <vector>

#include <caf/meta/type_name.hpp>
#include <caf/type_id.hpp>

#include "actors/byte_vector_field.hpp"
#include "actors/messages/atoms.hpp"
#include "actors/messages/type_id_ranges.hpp"
#include "envs/render.hpp"
#include "viewer/overlay_info.hpp"  // a plain struct: no SDL, nothing to link

namespace troupe::actors {

// One frame of an agent's environment, rendered because a viewer asked for
// it (see actors/frames/frame_hub.hpp), with what the viewer's panel shows beside it.
struct env_frame {
  std::uint32_t agent_id = 0;
  std::int32_t agent_count = 1;  // agents there are to watch (the hub fills it in)
  std::uint64_t sequence = 0;    // the hub's numbering: later frames, larger numbers
  envs::rgb_frame image;
  bool pixel_art = false;        // a grid game: scale by nearest neighbour
  viewer::overlay_info info;
};

template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, env_frame& x) {
  return f(caf::meta::type_name("env_frame"), x.agent_id, x.agent_count, x.sequence, x.image,
           x.pixel_art, x.info);
}

}  // namespace troupe::actors

namespace troupe::envs {
template <class Inspector>
typename Inspector::result_type inspect(Inspector& f, rgb_frame& x) {
  actors::byte_vector_field pixels{x.pixels};
  return f(caf::meta::type_name("rgb_frame"), x.width, x.height, pixels);
}
}  // namespace troupe::envs

CAF_BEGIN_TYPE_ID_BLOCK(troupe_frames, troupe::actors::type_id_ranges::frames)
  CAF_ADD_TYPE_ID(troupe_frames, (troupe::actors::env_frame))
CAF_END_TYPE_ID_BLOCK(troupe_frames)
