#include "envs/classic/classic_envs.hpp"

#include "envs/classic/acrobot.hpp"
#include "envs/classic/cartpole.hpp"
#include "envs/classic/mountain_car.hpp"
#include "envs/classic/mountain_car_continuous.hpp"
#include "envs/classic/pendulum.hpp"

namespace troupe::envs {

std::vector<env_entry> classic_envs() {
  return {entry_without_options<cartpole>("CartPole-v1"), entry_without_options<acrobot>("Acrobot-v1"),
          entry_without_options<mountain_car>("MountainCar-v0"), entry_without_options<pendulum>("Pendulum-v1"),
          entry_without_options<mountain_car_continuous>("MountainCarContinuous-v0")};
}

}  // namespace troupe::envs
