#pragma once
// A MuJoCo task's keyword arguments. Every argument of a Gymnasium v4
// constructor is a config key env.mujoco.<name> with v4's default; a task
// declares its arguments once, as a table of kwarg, and reads the config's
// values through task_options, which checks them against that table.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "envs/env_config.hpp"

namespace troupe::envs::mujoco {

struct kwarg {
  enum class kind { number, flag, range, file };
  std::string name;
  kind type = kind::number;
  std::vector<double> value;  // number: one; flag: one (0 or 1); range: low and high
  std::string text;           // file: a model file's name
  std::string meaning;
};

kwarg number(std::string name, double value, std::string meaning);
kwarg flag(std::string name, bool value, std::string meaning);
kwarg range(std::string name, double low, double high, std::string meaning);
// xml_file: the model, a file of envs/mujoco/models (or any path).
kwarg model_file(std::string file_name);

// Why `setting` cannot be the argument `name` of `task` ("" when it can):
// a name the task does not take, or a value of the wrong type.
std::string setting_problem(const std::string& task, const std::vector<kwarg>& table,
                            const std::string& name, const mujoco_setting& setting);

// One line per argument: name, type, default, meaning.
std::string describe(const std::vector<kwarg>& table);

class task_options {
 public:
  // The table's defaults with `given` (env.mujoco) put over them; throws
  // env_key_error("env.mujoco.NAME", why) where setting_problem finds one.
  task_options(const std::string& task, std::vector<kwarg> table,
               const std::map<std::string, mujoco_setting>& given);

  double number(const std::string& name) const;
  bool flag(const std::string& name) const;
  std::pair<double, double> range(const std::string& name) const;
  const std::string& file(const std::string& name) const;
  // Whether the config set `name` (rather than leaving v4's default).
  bool given(const std::string& name) const;

 private:
  const kwarg& find(const std::string& name, kwarg::kind type) const;

  std::vector<kwarg> table_;
  std::vector<std::string> given_;
};

}  // namespace troupe::envs::mujoco
