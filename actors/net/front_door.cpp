#include "actors/net/front_door.hpp"

#include <chrono>
#include <iostream>
#include <map>
#include <optional>
#include <vector>

#include <caf/io/all.hpp>

#include "actors/net/basp_frames.hpp"
#include "actors/net/flood_log.hpp"

namespace troupe::actors {

namespace {

using clock_type = std::chrono::steady_clock;
using caf::io::connection_handle;

constexpr auto check_period = std::chrono::milliseconds(500);
constexpr size_t read_chunk = 64 * 1024;
constexpr auto closing_delay = std::chrono::seconds(2);

struct door_connection {
  connection_handle client;
  std::optional<connection_handle> upstream;  // opened at the client's first byte
  std::string host;
  clock_type::time_point opened, last_heard, frame_began;
  std::optional<basp_frame_reader> frames;  // plain connections only
  std::vector<char> held;                   // the start of a frame not yet complete
  bool handshaken = false;
};

struct door_state {
  std::string what;
  std::uint16_t upstream_port = 0;
  run::connection_limits limits;
  bool parse_frames = true;
  std::map<connection_handle, door_connection> clients;
  std::map<connection_handle, connection_handle> client_of;  // upstream -> client
  std::map<std::string, int> per_host;
  door_counts counts;
  std::int64_t logged = 0;
  bool stopping = false;
};

using door_pointer = caf::stateful_actor<door_state, caf::io::broker>*;

void say(door_pointer self, const std::string& host, const std::string& why) {
  const auto n = ++self->state.logged;
  if (worth_logging(n))
    std::cerr << "troupe: " << self->state.what << ": dropped a connection from " << host << ": "
              << why << " (" << n << " so far)" << std::endl;
}

void drop(door_pointer self, connection_handle client, const std::string& why) {
  auto& st = self->state;
  auto it = st.clients.find(client);
  if (it == st.clients.end()) return;
  if (!why.empty()) say(self, it->second.host, why);
  if (it->second.upstream) {
    st.client_of.erase(*it->second.upstream);
    self->close(*it->second.upstream);
  }
  if (--st.per_host[it->second.host] <= 0) st.per_host.erase(it->second.host);
  self->close(client);
  st.clients.erase(it);
}

// Passes bytes on to the middleman, opening the connection to it first.
bool relay_up(door_pointer self, door_connection& c, const char* data, size_t size) {
  if (size == 0) return true;
  if (!c.upstream) {
    auto up = self->add_tcp_scribe("127.0.0.1", self->state.upstream_port);
    if (!up) return false;
    c.upstream = *up;
    self->state.client_of[*up] = c.client;
    self->configure_read(*up, caf::io::receive_policy::at_most(read_chunk));
  }
  self->write(*c.upstream, size, data);
  self->flush(*c.upstream);
  return true;
}

void from_client(door_pointer self, door_connection& c, std::vector<char>& buf) {
  auto& st = self->state;
  const auto now = clock_type::now();
  c.last_heard = now;
  if (!c.frames) {  // TLS: ciphertext, passed on as it comes
    c.handshaken = true;
    if (!relay_up(self, c, buf.data(), buf.size())) drop(self, c.client, "the middleman did not answer");
    return;
  }
  const bool was_mid_frame = c.frames->mid_frame();
  const size_t complete = c.frames->feed(buf.data(), buf.size());
  if (!c.frames->problem().empty()) {
    ++st.counts.bad_frames;
    drop(self, c.client, c.frames->problem());
    return;
  }
  if (!was_mid_frame && c.frames->mid_frame()) c.frame_began = now;
  if (complete > 0) {
    // The frames now complete: the bytes held before, and these up to `complete`.
    c.held.insert(c.held.end(), buf.begin(), buf.begin() + std::ptrdiff_t(complete));
    c.handshaken = true;
    if (c.frames->mid_frame()) c.frame_began = now;
    if (!relay_up(self, c, c.held.data(), c.held.size())) {
      drop(self, c.client, "the middleman did not answer");
      return;
    }
    c.held.assign(buf.begin() + std::ptrdiff_t(complete), buf.end());
  } else {
    c.held.insert(c.held.end(), buf.begin(), buf.end());
  }
}

void check_timeouts(door_pointer self) {
  auto& st = self->state;
  const auto now = clock_type::now();
  const auto seconds = [](double s) {
    return std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(s));
  };
  std::vector<std::pair<connection_handle, std::string>> late;
  for (auto& [handle, c] : st.clients) {
    if (!c.handshaken && now - c.opened > seconds(st.limits.handshake_timeout_s))
      late.emplace_back(handle, "no handshake within " + std::to_string(st.limits.handshake_timeout_s) +
                                    " s (cluster.handshake_timeout_s)");
    else if (now - c.last_heard > seconds(st.limits.idle_timeout_s))
      late.emplace_back(handle, "silent for " + std::to_string(st.limits.idle_timeout_s) +
                                    " s (cluster.idle_timeout_s)");
    else if (c.frames && c.frames->mid_frame() &&
             now - c.frame_began > seconds(st.limits.idle_timeout_s))
      late.emplace_back(handle, "a message left incomplete for " +
                                    std::to_string(st.limits.idle_timeout_s) + " s (cluster.idle_timeout_s)");
  }
  for (const auto& [handle, why] : late) {
    ++st.counts.timed_out;
    drop(self, handle, why);
  }
}

// Closes the door a moment from now (once what was said last has gone out).
void close_soon(door_pointer self) {
  auto& st = self->state;
  if (st.stopping) return;
  st.stopping = true;
  self->delayed_send(self, closing_delay, drain_atom_v);
}

caf::behavior door(door_pointer self, caf::io::doorman_ptr listener, std::uint16_t upstream_port,
                   run::connection_limits limits, bool parse_frames, std::string what,
                   caf::actor published) {
  auto& st = self->state;
  st.what = std::move(what);
  st.upstream_port = upstream_port;
  st.limits = limits;
  st.parse_frames = parse_frames;
  self->add_doorman(std::move(listener));
  self->delayed_send(self, check_period, caf::tick_atom_v);
  self->monitor(published);
  self->set_down_handler([=](caf::down_msg&) { close_soon(self); });
  return {
      [=](const caf::io::new_connection_msg& m) {
        auto& st = self->state;
        const std::string host = self->remote_addr(m.handle);
        if (st.stopping) {
          self->close(m.handle);
          return;
        }
        if (int(st.clients.size()) >= st.limits.max_connections ||
            st.per_host[host] >= st.limits.max_connections_per_host) {
          ++st.counts.refused;
          if (st.per_host[host] == 0) st.per_host.erase(host);
          say(self, host,
              int(st.clients.size()) >= st.limits.max_connections
                  ? "over cluster.max_connections (" + std::to_string(st.limits.max_connections) + ")"
                  : "over cluster.max_connections_per_host (" +
                        std::to_string(st.limits.max_connections_per_host) + ")");
          self->close(m.handle);
          return;
        }
        ++st.counts.accepted;
        ++st.per_host[host];
        door_connection c;
        c.client = m.handle;
        c.host = host;
        c.opened = c.last_heard = clock_type::now();
        if (st.parse_frames) c.frames.emplace(std::uint32_t(st.limits.max_message_bytes));
        st.clients.emplace(m.handle, std::move(c));
        self->configure_read(m.handle, caf::io::receive_policy::at_most(read_chunk));
      },
      [=](caf::io::new_data_msg& m) {
        auto& st = self->state;
        if (auto it = st.clients.find(m.handle); it != st.clients.end()) {
          from_client(self, it->second, m.buf);
          return;
        }
        if (auto up = st.client_of.find(m.handle); up != st.client_of.end()) {
          self->write(up->second, m.buf.size(), m.buf.data());
          self->flush(up->second);
        }
      },
      [=](const caf::io::connection_closed_msg& m) {
        auto& st = self->state;
        if (st.clients.count(m.handle)) {
          drop(self, m.handle, "");
        } else if (auto up = st.client_of.find(m.handle); up != st.client_of.end()) {
          drop(self, up->second, "");
        }
      },
      [=](const caf::io::acceptor_closed_msg&) {},
      [=](caf::tick_atom) {
        check_timeouts(self);
        self->delayed_send(self, check_period, caf::tick_atom_v);
      },
      // Its owner: the counts now; new connections are refused, and the
      // open ones are closed a little later, once what the run said last
      // (its end, to workers) has gone out.
      [=](stop_atom) {
        close_soon(self);
        return self->state.counts;
      },
      [=](drain_atom) {
        auto& st = self->state;
        std::vector<connection_handle> all;
        for (const auto& [handle, c] : st.clients) all.push_back(handle);
        for (const auto& handle : all) drop(self, handle, "");
        self->quit();
      },
  };
}

}  // namespace

caf::expected<front_door> open_front_door(caf::actor_system& sys, const std::string& host,
                                          std::uint16_t port, std::uint16_t upstream_port,
                                          const run::connection_limits& limits, bool frames,
                                          const std::string& what, caf::actor published) {
  // reuse: a port whose last connections linger in TIME_WAIT can be taken again.
  auto listener = sys.middleman().backend().new_tcp_doorman(port, host.c_str(), true);
  if (!listener) return listener.error();
  front_door out;
  out.port = (*listener)->port();
  out.broker = sys.middleman().spawn_broker(door, std::move(*listener), upstream_port, limits,
                                            frames, what, std::move(published));
  return out;
}

}  // namespace troupe::actors
