#include "app/stream_window.hpp"

#include <atomic>
#include <chrono>
#include <iostream>
#include <memory>
#include <mutex>
#include <thread>

#include "actors/frames/frame_subscriber.hpp"
#include "actors/net/flood_log.hpp"

namespace troupe::app {

namespace {

// What the subscriber's thread tells the window loop.
struct stream_news {
  std::atomic<bool> ended{false};
  std::atomic<long> rejected{0};
  std::mutex mutex;
  std::string why;  // guarded by mutex
};

// Stops the subscriber and waits until it has terminated, so that none of its
// callbacks (which use the window) runs after this returns.
void stop_and_wait(caf::actor_system& sys, const caf::actor& subscriber) {
  caf::scoped_actor self{sys};
  self->monitor(subscriber);
  self->send_exit(subscriber, caf::exit_reason::user_shutdown);
  self->receive([](const caf::down_msg&) {});
}

}  // namespace

stream_view_result watch_frame_stream(caf::actor_system& sys, actors::frame_source hub,
                                      const stream_view_options& opts) {
  auto window = open_window(opts.title, opts.window, opts.who);
  viewer::viewer_window* shown_in = window.get();
  auto news = std::make_shared<stream_news>();
  const std::string who = opts.who;
  const double fps = opts.fps;

  actors::frame_subscriber_config config;
  config.wants_frame = [shown_in] { return shown_in->wants_frame(); };
  config.selected_agent = [shown_in] { return shown_in->selected_agent(); };
  config.frames_per_second = [shown_in, fps] { return fps * shown_in->speed(); };
  config.on_frame = [shown_in](actors::env_frame&& frame) {
    shown_in->set_agent_count(frame.agent_count);
    shown_in->show(std::move(frame.image), std::move(frame.info), frame.pixel_art);
  };
  config.on_rejected = [news, who](const std::string& why) {
    const long n = ++news->rejected;
    if (actors::worth_logging(n))
      std::cerr << who << ": rejected frame " << n << " from the stream: " << why << std::endl;
  };
  config.on_end = [news](const std::string& why) {
    {
      std::lock_guard<std::mutex> lock(news->mutex);
      news->why = why;
    }
    news->ended = true;
  };
  const caf::actor subscriber = actors::spawn_frame_subscriber(sys, std::move(hub), config);

  while (window->poll_events()) {
    if (shown_enough(*window, opts.window) || opts.stop() || news->ended) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // as view and play poll
  }
  stop_and_wait(sys, subscriber);

  stream_view_result result;
  result.rejected = news->rejected;
  if (news->ended) {
    std::lock_guard<std::mutex> lock(news->mutex);
    result.ended = news->why;
    std::cout << who << ": " << result.ended << std::endl;
  }
  report_window(*window, opts.window, who,
                result.rejected > 0 ? ", " + std::to_string(result.rejected) + " rejected" : "");
  return result;
}

}  // namespace troupe::app
