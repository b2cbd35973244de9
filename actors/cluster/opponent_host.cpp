#include "actors/cluster/opponent_host.hpp"

#include <exception>
#include <memory>
#include <set>
#include <string>

#include "actors/errors.hpp"
#include "games/opponents.hpp"

namespace troupe::actors {

namespace {

struct host_state {
  std::unique_ptr<games::opponents> players;  // made at the first request, on this actor's thread
  static inline const char* name = "opponent_host";
};

using host_pointer = opponent_host_actor::stateful_pointer<host_state>;

opponent_host_actor::behavior_type host_behavior(host_pointer self, opponents_maker make, int width,
                                                 cluster_gateway_actor gateway) {
  self->monitor(gateway);
  self->set_down_handler([self](caf::down_msg&) { self->quit(); });
  return {
      [=](opponent_request& req) -> caf::result<opponent_reply> {
        auto& st = self->state;
        try {
          if (!st.players) st.players = make(self->system());
          for (size_t k = 0; k < req.event_games.size(); ++k)
            if (req.event_ended[k])
              st.players->end_episode(req.event_games[k], req.event_returns[k]);
            else
              st.players->start_episode(req.event_games[k], req.event_seeds[k]);
          opponent_reply reply;
          // Each game's episode now running, if it began in this request
          // (its last event a start: earlier ones ended without a move here).
          std::set<std::int32_t> seen;
          for (size_t k = req.event_games.size(); k-- > 0;) {
            if (!seen.insert(req.event_games[k]).second || req.event_ended[k]) continue;
            if (const auto handed = st.players->handed_over_at_start(req.event_games[k])) {
              reply.local_games.push_back(req.event_games[k]);
              reply.local_players.push_back(handed->player);
              reply.local_seeds.push_back(handed->seed);
            }
          }
          const int rows = int(req.games.size());
          if (rows > 0) {
            reply.actions.assign(size_t(rows) * size_t(width), 0.0f);
            st.players->act(req.games.data(), req.agents.data(), rows, req.observations.data(),
                                req.action_masks.empty() ? nullptr : req.action_masks.data(),
                                reply.actions.data());
          }
          envs::other_seat_view watched;
          st.players->describe(games::opponents::watched_game, watched);
          reply.watched_who = std::move(watched.who);
          reply.watched_policy = std::move(watched.policy);
          return reply;
        } catch (const std::exception& e) {
          return make_error(errc::failed, std::string("the other seat could not move: ") + e.what());
        }
      },
  };
}

}  // namespace

opponent_host_actor spawn_opponent_host(caf::actor_system& sys, opponents_maker make, int action_width,
                                        const cluster_gateway_actor& gateway) {
  return sys.spawn<caf::detached>(host_behavior, std::move(make), action_width, gateway);
}

}  // namespace troupe::actors
