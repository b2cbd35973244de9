#include "bridges/python/python_player.hpp"

#include <cmath>
#include <cstring>
#include <stdexcept>

#include "bridges/python/host_group.hpp"

namespace troupe::bridges::python {

namespace {

class scripted_player final : public opponents {
 public:
  scripted_player(host_group host, const env_spec& spec, std::string id)
      : host_(std::move(host)),
        id_(std::move(id)),
        obs_size_(spec.observation.flat_size()),
        mask_size_(spec.has_action_mask ? spec.action.choice_count() : 0),
        action_size_(spec.action.flat_size()),
        categories_(spec.action.categories()) {}

  void start_episode(int, std::uint64_t) override {}

  void act(const int*, const int*, int rows, const float* observations, const std::uint8_t* masks, float* actions) override {
    std::string payload;
    const std::uint32_t n = std::uint32_t(rows);
    payload.append(reinterpret_cast<const char*>(&n), sizeof n);
    payload.append(reinterpret_cast<const char*>(observations), size_t(rows) * size_t(obs_size_) * sizeof(float));
    if (mask_size_ > 0) payload.append(reinterpret_cast<const char*>(masks), size_t(rows) * size_t(mask_size_));
    host_share& s = host_.shares.front();
    s.process->send(host_op::act, 0, payload);
    const host_reply reply = s.process->receive(host_answer_timeout());
    if (!reply.ok()) throw std::runtime_error("the scripted player " + id_ + " raised an exception:\n" + reply.payload);
    if (reply.payload.size() != size_t(rows) * size_t(action_size_) * sizeof(float))
      throw std::runtime_error("the scripted player " + id_ + " answered with the wrong number of actions");
    std::memcpy(actions, reply.payload.data(), reply.payload.size());
    // A move the game cannot take is the player's fault: said with its name.
    for (int r = 0; r < rows; ++r)
      for (size_t c = 0; c < categories_.size(); ++c) {
        const float a = actions[size_t(r) * size_t(action_size_) + c];
        if (!(a >= 0 && a < float(categories_[c]) && a == std::floor(a)))
          throw std::runtime_error("the scripted player " + id_ + " chose " + std::to_string(a) +
                                   ", not an action index below " + std::to_string(categories_[c]));
        if (mask_size_ > 0 && categories_.size() == 1 && !masks[size_t(r) * size_t(mask_size_) + size_t(a)])
          throw std::runtime_error("the scripted player " + id_ + " chose the illegal action " +
                                   std::to_string(int(a)));
      }
  }

 private:
  host_group host_;
  std::string id_;
  int obs_size_, mask_size_, action_size_;
  std::vector<int> categories_;
};

}  // namespace

std::unique_ptr<opponents> python_player(const env_config& config, const std::string& id, const env_spec& spec,
                                         const std::string& key) {
  host_group host = start_player_host(config, id, spec.observation.flat_size(),
                                      spec.has_action_mask ? spec.action.choice_count() : 0,
                                      spec.action.flat_size(), key);
  return std::make_unique<scripted_player>(std::move(host), spec, id);
}

}  // namespace troupe::bridges::python
