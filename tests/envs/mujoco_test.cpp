// The MuJoCo tasks against Gymnasium 0.29.1's v4 definitions, written out
// here on their own: the sizes, bounds and step lengths v4 documents, the
// reward of each step recomputed from the logged state and action, the
// health rules applied to the logged state, and v4's reset noise.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <random>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "catalog/registry.hpp"
#include "envs/env_error.hpp"
#include "envs/mujoco/mujoco_task.hpp"
#include "envs/mujoco/tasks.hpp"
#include "run/config_loader.hpp"

using namespace troupe;
using envs::mujoco::mujoco_task;

namespace {

std::unique_ptr<envs::env> make(const std::string& id, std::map<std::string, envs::mujoco_setting> settings = {}) {
  envs::env_config c;
  c.id = id;
  c.mujoco = std::move(settings);
  return catalog::make_env(c);
}

mujoco_task& task(envs::env& e) {
  auto* t = dynamic_cast<mujoco_task*>(&e);
  REQUIRE(t != nullptr);
  return *t;
}

envs::mujoco_setting scalar(const std::string& text) { return {{text}, false}; }

std::vector<double> qpos(const mujoco_task& t) {
  return std::vector<double>(t.data().qpos, t.data().qpos + t.model().nq);
}
std::vector<double> qvel(const mujoco_task& t) {
  return std::vector<double>(t.data().qvel, t.data().qvel + t.model().nv);
}

std::vector<float> random_action(const envs::env_spec& spec, std::mt19937_64& rng) {
  std::vector<float> a(size_t(spec.action.flat_size()));
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = std::uniform_real_distribution<float>(float(spec.action.low[i]), float(spec.action.high[i]))(rng);
  return a;
}

double squared(const std::vector<float>& a) {
  double s = 0;
  for (float v : a) s += double(v) * double(v);
  return s;
}

struct facts {
  const char* id;
  int observations, actions;
  double low, high, dt;
  int limit;
};

// Gymnasium's documentation of the v4 tasks.
const facts all_facts[] = {
    {"HalfCheetah-v4", 17, 6, -1, 1, 0.05, 1000},
    {"Hopper-v4", 11, 3, -1, 1, 0.008, 1000},
    {"Walker2d-v4", 17, 6, -1, 1, 0.008, 1000},
    {"Ant-v4", 27, 8, -1, 1, 0.05, 1000},
    {"Humanoid-v4", 376, 17, -0.4, 0.4, 0.015, 1000},
    {"Swimmer-v4", 8, 2, -1, 1, 0.04, 1000},
    {"InvertedPendulum-v4", 4, 1, -3, 3, 0.04, 1000},
    {"InvertedDoublePendulum-v4", 11, 1, -1, 1, 0.05, 1000},
    {"Reacher-v4", 11, 2, -1, 1, 0.02, 50},
};

// v4's health rules, written from its source, on a logged state.
bool healthy(const std::string& id, const std::vector<double>& q, const std::vector<double>& v) {
  if (id == "Hopper-v4") {
    for (size_t i = 2; i < q.size(); ++i)
      if (!(-100 < q[i] && q[i] < 100)) return false;
    for (double x : v)
      if (!(-100 < x && x < 100)) return false;
    return 0.7 < q[1] && -0.2 < q[2] && q[2] < 0.2;
  }
  if (id == "Walker2d-v4") return 0.8 < q[1] && q[1] < 2.0 && -1 < q[2] && q[2] < 1;
  if (id == "Ant-v4") return 0.2 <= q[2] && q[2] <= 1.0;
  if (id == "Humanoid-v4") return 1.0 < q[2] && q[2] < 2.0;
  return true;
}

}  // namespace

TEST_SUITE("envs") {
TEST_CASE("MuJoCo tasks: sizes, action bounds, step length and episode limit as v4 documents them") {
  for (const facts& f : all_facts) {
    CAPTURE(std::string(f.id));
    auto env = make(f.id);
    const auto& spec = env->spec();
    CHECK(spec.id == f.id);
    CHECK(spec.observation.flat_size() == f.observations);
    REQUIRE(spec.action.flat_size() == f.actions);
    // v4's Box holds its bounds as float32.
    for (int i = 0; i < f.actions; ++i) {
      CHECK(spec.action.low[size_t(i)] == double(float(f.low)));
      CHECK(spec.action.high[size_t(i)] == double(float(f.high)));
    }
    CHECK(task(*env).dt() == doctest::Approx(f.dt).epsilon(1e-12));
    CHECK(spec.max_episode_steps == f.limit);
    std::vector<float> obs(size_t(f.observations));
    env->reset(1, obs.data());
    for (float o : obs) CHECK(std::isfinite(o));
  }
}

TEST_CASE("MuJoCo tasks: the environments of a vector share one read-only model, each with data of its own") {
  envs::env_config c;
  c.id = "Hopper-v4";
  auto a = catalog::make_env(c), b = catalog::make_env(c);
  CHECK(&task(*a).model() == &task(*b).model());
  CHECK(&task(*a).data() != &task(*b).data());
}

TEST_CASE("MuJoCo tasks: with no reset noise and zero actions an episode repeats exactly, and ends where the health rule says") {
  for (const char* id : {"HalfCheetah-v4", "Hopper-v4", "Walker2d-v4", "Ant-v4", "Humanoid-v4", "Swimmer-v4"}) {
    CAPTURE(std::string(id));
    std::vector<std::vector<float>> runs[2];
    std::vector<int> ends;
    for (int run = 0; run < 2; ++run) {
      auto env = make(id, {{"reset_noise_scale", scalar("0")}});
      mujoco_task& t = task(*env);
      const auto& spec = env->spec();
      std::vector<float> obs(size_t(spec.observation.flat_size()));
      const std::vector<float> zero(size_t(spec.action.flat_size()), 0.f);
      env->reset(run == 0 ? 1 : 987654321, obs.data());  // the seed must not matter
      runs[run].push_back(obs);
      int end = -1;
      for (int step = 1; step <= spec.max_episode_steps; ++step) {
        const auto r = env->step(zero.data(), obs.data());
        runs[run].push_back(obs);
        const bool rule = healthy(id, qpos(t), qvel(t));
        REQUIRE(r.terminated == !rule);
        if (r.terminated || r.truncated) {
          CHECK(r.truncated == (!r.terminated && step == spec.max_episode_steps));
          end = step;
          break;
        }
      }
      ends.push_back(end);
    }
    CHECK(ends[0] == ends[1]);
    REQUIRE(runs[0].size() == runs[1].size());
    for (size_t i = 0; i < runs[0].size(); ++i) CHECK(runs[0][i] == runs[1][i]);
    // Falling: the humanoid without control collapses well within its limit.
    if (std::string(id) == "Humanoid-v4") CHECK(ends[0] < 1000);
  }
}

TEST_CASE("MuJoCo tasks: every reward of a random episode equals v4's terms recomputed from the logged state and action") {
  for (const facts& f : all_facts) {
    CAPTURE(std::string(f.id));
    const std::string id = f.id;
    auto env = make(id);
    mujoco_task& t = task(*env);
    const mjModel& m = t.model();
    const auto& spec = env->spec();
    std::mt19937_64 rng(7);
    std::vector<float> obs(size_t(spec.observation.flat_size()));
    env->reset(3, obs.data());
    const int torso = mj_name2id(&m, mjOBJ_BODY, "torso");
    const int fingertip = mj_name2id(&m, mjOBJ_BODY, "fingertip"), target = mj_name2id(&m, mjOBJ_BODY, "target");
    auto mass_centre_x = [&] {
      double mass = 0, sum = 0;
      for (int b = 0; b < m.nbody; ++b) mass += m.body_mass[b], sum += m.body_mass[b] * t.data().xipos[3 * b];
      return sum / mass;
    };
    auto position = [&] {
      if (id == "Ant-v4") return t.data().xpos[3 * torso];
      if (id == "Humanoid-v4") return mass_centre_x();
      return t.data().qpos[0];
    };
    int steps = 0;
    for (; steps < 200; ++steps) {
      const std::vector<float> a = random_action(spec, rng);
      const double x0 = position();
      double before_distance = 0;
      if (id == "Reacher-v4") {
        double s = 0;
        for (int k = 0; k < 3; ++k) {
          const double d = t.data().xpos[3 * fingertip + k] - t.data().xpos[3 * target + k];
          s += d * d;
        }
        before_distance = std::sqrt(s);
      }
      const auto r = env->step(a.data(), obs.data());
      const double velocity = (position() - x0) / t.dt();
      const bool alive = healthy(id, qpos(t), qvel(t));
      double expected = 0;
      if (id == "HalfCheetah-v4") expected = velocity - 0.1 * squared(a);
      if (id == "Hopper-v4" || id == "Walker2d-v4") expected = velocity + 1.0 - 1e-3 * squared(a);
      if (id == "Ant-v4") expected = velocity + 1.0 - 0.5 * squared(a);
      if (id == "Humanoid-v4") expected = 1.25 * velocity + 5.0 - 0.1 * squared(a);
      if (id == "Swimmer-v4") expected = velocity - 1e-4 * squared(a);
      if (id == "InvertedPendulum-v4") expected = 1.0;
      if (id == "InvertedDoublePendulum-v4") {
        const double x = t.data().site_xpos[0], y = t.data().site_xpos[2];
        const double v1 = t.data().qvel[1], v2 = t.data().qvel[2];
        expected = 10 - (0.01 * x * x + (y - 2) * (y - 2)) - (1e-3 * v1 * v1 + 5e-3 * v2 * v2);
        CHECK(r.terminated == (y <= 1));
      }
      if (id == "Reacher-v4") expected = -before_distance - squared(a);
      CHECK(r.reward == doctest::Approx(expected).epsilon(1e-9).scale(1));
      if (id == "InvertedPendulum-v4") CHECK(r.terminated == (std::abs(t.data().qpos[1]) > 0.2));
      else if (id != "InvertedDoublePendulum-v4") CHECK(r.terminated == !alive);
      if (r.terminated || r.truncated) break;
    }
    CHECK(steps > 0);
  }
}

TEST_CASE("MuJoCo tasks: a seed gives the same start, and the start noise has v4's distribution") {
  SUBCASE("the same seed, the same start; another seed, another start") {
    for (const facts& f : all_facts) {
      CAPTURE(std::string(f.id));
      auto a = make(f.id), b = make(f.id);
      std::vector<float> oa(size_t(f.observations)), ob(size_t(f.observations)), oc(size_t(f.observations));
      a->reset(42, oa.data());
      b->reset(42, ob.data());
      CHECK(oa == ob);
      b->reset(43, oc.data());
      CHECK(oa != oc);
    }
  }
  SUBCASE("uniform or normal, at each task's scale") {
    struct noise { const char* id; double position_scale; bool normal_velocity; double velocity_scale; };
    const noise cases[] = {
        {"HalfCheetah-v4", 0.1, true, 0.1},  {"Hopper-v4", 5e-3, false, 5e-3}, {"Walker2d-v4", 5e-3, false, 5e-3},
        {"Ant-v4", 0.1, true, 0.1},          {"Humanoid-v4", 1e-2, false, 1e-2}, {"Swimmer-v4", 0.1, false, 0.1},
        {"InvertedPendulum-v4", 0.01, false, 0.01}, {"InvertedDoublePendulum-v4", 0.1, true, 0.1},
    };
    for (const noise& n : cases) {
      CAPTURE(std::string(n.id));
      auto env = make(n.id);
      mujoco_task& t = task(*env);
      const mjModel& m = t.model();
      std::vector<float> obs(size_t(env->spec().observation.flat_size()));
      const int resets = 2000;
      double p_sum = 0, p_sq = 0, p_max = 0, v_sum = 0, v_sq = 0, v_max = 0;
      long p_count = 0, v_count = 0;
      for (int k = 0; k < resets; ++k) {
        env->reset(std::uint64_t(1000 + k), obs.data());
        for (int i = 0; i < m.nq; ++i) {
          if (m.jnt_type[0] == mjJNT_FREE && i >= 3 && i < 7) continue;  // a quaternion is normalised by MuJoCo
          const double e = t.data().qpos[i] - m.qpos0[i];
          p_sum += e, p_sq += e * e, p_max = std::max(p_max, std::abs(e)), ++p_count;
        }
        for (int i = 0; i < m.nv; ++i) {
          const double e = t.data().qvel[i];
          v_sum += e, v_sq += e * e, v_max = std::max(v_max, std::abs(e)), ++v_count;
        }
      }
      const double p_std = std::sqrt(p_sq / p_count), v_std = std::sqrt(v_sq / v_count);
      // Uniform in [-s, s]: mean 0, standard deviation s / sqrt(3), never past s.
      CHECK(std::abs(p_sum / p_count) < 0.05 * n.position_scale);
      CHECK(p_std == doctest::Approx(n.position_scale / std::sqrt(3.0)).epsilon(0.05));
      CHECK(p_max <= n.position_scale);
      CHECK(std::abs(v_sum / v_count) < 0.05 * n.velocity_scale);
      if (n.normal_velocity) {
        CHECK(v_std == doctest::Approx(n.velocity_scale).epsilon(0.05));
        CHECK(v_max > 2.5 * n.velocity_scale);  // a normal's tail; a uniform never passes its scale
      } else {
        CHECK(v_std == doctest::Approx(n.velocity_scale / std::sqrt(3.0)).epsilon(0.05));
        CHECK(v_max <= n.velocity_scale);
      }
    }
  }
  SUBCASE("Reacher's goal lies uniformly within 0.2 of the origin, its velocity starts at rest") {
    auto env = make("Reacher-v4");
    mujoco_task& t = task(*env);
    std::vector<float> obs(11);
    double far = 0;
    int left = 0;
    for (int k = 0; k < 2000; ++k) {
      env->reset(std::uint64_t(k), obs.data());
      const double gx = t.data().qpos[2], gy = t.data().qpos[3];
      CHECK(std::sqrt(gx * gx + gy * gy) < 0.2);
      far = std::max(far, std::sqrt(gx * gx + gy * gy));
      left += gx < 0;
      CHECK(t.data().qvel[2] == 0);
      CHECK(t.data().qvel[3] == 0);
      CHECK(obs[4] == float(gx));
      CHECK(obs[5] == float(gy));
    }
    CHECK(far > 0.19);
    CHECK(left > 900);
    CHECK(left < 1100);
  }
}

TEST_CASE("MuJoCo tasks: keyword arguments change what v4 says they change") {
  SUBCASE("observing the x position") {
    auto env = make("HalfCheetah-v4", {{"exclude_current_positions_from_observation", scalar("false")}});
    CHECK(env->spec().observation.flat_size() == 18);
    std::vector<float> obs(18);
    env->reset(5, obs.data());
    CHECK(obs[0] == float(task(*env).data().qpos[0]));
  }
  SUBCASE("Ant's contact forces: every body's six, clipped") {
    auto env = make("Ant-v4", {{"use_contact_forces", scalar("true")}});
    CHECK(env->spec().observation.flat_size() == 27 + 6 * task(*env).model().nbody);
    std::vector<float> obs(size_t(env->spec().observation.flat_size()));
    env->reset(5, obs.data());
    std::mt19937_64 rng(3);
    for (int s = 0; s < 30; ++s) env->step(random_action(env->spec(), rng).data(), obs.data());
    for (size_t i = 27; i < obs.size(); ++i) CHECK(std::abs(obs[i]) <= 1.0f);
  }
  SUBCASE("a hopper that may not stop keeps its healthy reward off when it falls") {
    auto env = make("Hopper-v4", {{"terminate_when_unhealthy", scalar("false")},
                                  {"healthy_z_range", {{"0.7", ".inf"}, true}}});
    std::vector<float> obs(11);
    env->reset(1, obs.data());
    const std::vector<float> push = {1.f, -1.f, 1.f};
    bool fell = false;
    for (int s = 0; s < 1000 && !fell; ++s) {
      const double x0 = task(*env).data().qpos[0];
      const auto r = env->step(push.data(), obs.data());
      CHECK_FALSE(r.terminated);
      if (!healthy("Hopper-v4", qpos(task(*env)), qvel(task(*env)))) {
        fell = true;
        const double velocity = (task(*env).data().qpos[0] - x0) / task(*env).dt();
        CHECK(r.reward == doctest::Approx(velocity - 1e-3 * 3).epsilon(1e-9).scale(1));
      }
    }
    CHECK(fell);
  }
}

TEST_CASE("MuJoCo tasks: a bad argument or model is refused with the key to blame") {
  auto refused = [](const std::string& id, std::map<std::string, envs::mujoco_setting> s, const std::string& key,
                    const std::string& words) {
    CAPTURE(id);
    CAPTURE(key);
    try {
      make(id, std::move(s));
      FAIL("accepted");
    } catch (const envs::env_key_error& e) {
      CHECK(e.key == key);
      CHECK(std::string(e.what()).find(words) != std::string::npos);
    }
  };
  refused("HalfCheetah-v4", {{"healthy_reward", scalar("1")}}, "env.mujoco.healthy_reward", "HalfCheetah-v4 has no keyword argument 'healthy_reward'");
  refused("Hopper-v4", {{"ctrl_cost_weight", scalar("abc")}}, "env.mujoco.ctrl_cost_weight", "expected a finite number, got 'abc'");
  refused("Hopper-v4", {{"healthy_z_range", scalar("0.7")}}, "env.mujoco.healthy_z_range", "expected a list of two numbers");
  refused("Hopper-v4", {{"healthy_z_range", {{"2", "1"}, true}}}, "env.mujoco.healthy_z_range", "low <= high");
  refused("Ant-v4", {{"use_contact_forces", scalar("yes please")}}, "env.mujoco.use_contact_forces", "expected true or false");
  refused("Reacher-v4", {{"reset_noise_scale", scalar("0")}}, "env.mujoco.reset_noise_scale", "it takes none");
  refused("Walker2d-v4", {{"xml_file", scalar("walker2d.xml")}}, "env.mujoco.xml_file", "no keyword argument 'xml_file'");
  refused("Ant-v4", {{"xml_file", scalar("/nonexistent/ant.xml")}}, "env.mujoco.xml_file", "is not a file");
  refused("Ant-v4", {{"xml_file", scalar("no_such_model.xml")}}, "env.mujoco.xml_file", "is missing");
  const std::string damaged = "/tmp/troupe_damaged_model.xml";
  std::ofstream(damaged) << "<mujoco><worldbody><body><geom type='capsule' size='oops'/></body></mujoco>";
  refused("Ant-v4", {{"xml_file", scalar(damaged)}}, "env.mujoco.xml_file", "does not load");
  // A model that loads but is not an ant's.
  refused("Ant-v4", {{"xml_file", scalar("inverted_pendulum.xml")}}, "env.mujoco.xml_file", "no body named 'torso'");
  std::remove(damaged.c_str());
}

TEST_CASE("MuJoCo tasks: the config names the file and line of a bad env.mujoco key") {
  const std::string yaml =
      "run:\n  name: t\nenv:\n  id: Hopper-v4\n  mujoco:\n    healthy_z_range: [0.7, .inf]\n    gear: 3\n";
  try {
    run::load_config_text(yaml, "cfg.yaml", {});
    FAIL("accepted");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("cfg.yaml:7") != std::string::npos);
    CHECK(std::string(e.what()).find("env.mujoco.gear") != std::string::npos);
  }
  const std::string good = "run:\n  name: t\nenv:\n  id: Hopper-v4\n  mujoco:\n    healthy_z_range: [0.7, .inf]\n";
  const auto ok = run::load_config_text(good, "cfg.yaml", {"env.mujoco.ctrl_cost_weight=0.2"});
  CHECK(ok.env.mujoco.at("ctrl_cost_weight").scalars == std::vector<std::string>{"0.2"});
  CHECK(ok.env.mujoco.at("healthy_z_range").list);
  try {
    run::load_config_text(good, "cfg.yaml", {"env.mujoco.ctrl_cost_weight=cheap"});
    FAIL("accepted");
  } catch (const std::exception& e) {
    CHECK(std::string(e.what()).find("--set env.mujoco.ctrl_cost_weight") != std::string::npos);
    CHECK(std::string(e.what()).find("expected a finite number") != std::string::npos);
  }
  // The resolved config (config.yaml of a run) reads back the same.
  const auto again = run::load_config_text(run::to_yaml(ok), "resolved.yaml", {});
  CHECK(again.env.mujoco.at("healthy_z_range").scalars == ok.env.mujoco.at("healthy_z_range").scalars);
  CHECK(again.env.mujoco.at("ctrl_cost_weight").scalars == std::vector<std::string>{"0.2"});
}

TEST_CASE("MuJoCo tasks draw themselves: the body shows, and the picture follows its motion") {
  auto env = make("HalfCheetah-v4");
  mujoco_task& t = task(*env);
  std::vector<float> obs(17);
  env->reset(1, obs.data());
  envs::rgb_frame first, later;
  t.render(first);
  CHECK(first.width == 640);
  CHECK(first.height == 360);
  std::set<std::array<int, 3>> colours;
  for (size_t i = 0; i < first.pixels.size(); i += 3)
    colours.insert({first.pixels[i], first.pixels[i + 1], first.pixels[i + 2]});
  CHECK(colours.size() >= 3);  // sky, ground, the cheetah
  for (const facts& f : all_facts) {
    auto e = make(f.id);
    std::vector<float> o(size_t(f.observations));
    e->reset(1, o.data());
    envs::rgb_frame frame;
    task(*e).render(frame);
    CHECK(frame.width > 0);
    CHECK(frame.pixels.size() == size_t(frame.width) * frame.height * 3);
  }
  std::mt19937_64 rng(1);
  for (int s = 0; s < 50; ++s) env->step(random_action(env->spec(), rng).data(), obs.data());
  t.render(later);
  CHECK(later.pixels != first.pixels);
}
}
