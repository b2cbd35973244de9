#include "envs/mujoco/task_options.hpp"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "envs/env_error.hpp"

namespace troupe::envs::mujoco {

kwarg number(std::string name, double value, std::string meaning) {
  return {std::move(name), kwarg::kind::number, {value}, "", std::move(meaning)};
}

kwarg flag(std::string name, bool value, std::string meaning) {
  return {std::move(name), kwarg::kind::flag, {value ? 1.0 : 0.0}, "", std::move(meaning)};
}

kwarg range(std::string name, double low, double high, std::string meaning) {
  return {std::move(name), kwarg::kind::range, {low, high}, "", std::move(meaning)};
}

kwarg model_file(std::string file_name) {
  return {"xml_file", kwarg::kind::file, {}, std::move(file_name),
          "the MJCF model: a file of Troupe's MuJoCo models (share/troupe/mujoco) or a path"};
}

namespace {

// A YAML scalar as a number: what YAML 1.2 reads as a float, .inf included.
bool parse_number(const std::string& text, double& out) {
  if (text == ".inf" || text == ".Inf" || text == ".INF" || text == "+.inf" || text == "+.Inf") {
    out = std::numeric_limits<double>::infinity();
    return true;
  }
  if (text == "-.inf" || text == "-.Inf" || text == "-.INF") {
    out = -std::numeric_limits<double>::infinity();
    return true;
  }
  if (text.empty()) return false;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  in >> out;
  return !in.fail() && in.peek() == std::char_traits<char>::eof() && !std::isnan(out);
}

bool parse_flag(const std::string& text, bool& out) {
  if (text == "true" || text == "True" || text == "TRUE") {
    out = true;
    return true;
  }
  if (text == "false" || text == "False" || text == "FALSE") {
    out = false;
    return true;
  }
  return false;
}

std::string shown(const mujoco_setting& s) {
  if (!s.list) return s.scalars.empty() ? "nothing" : "'" + s.scalars.front() + "'";
  std::string out = "[";
  for (size_t i = 0; i < s.scalars.size(); ++i) out += (i ? ", " : "") + s.scalars[i];
  return out + "]";
}

std::string number_text(double v) {
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  std::ostringstream out;
  out.imbue(std::locale::classic());
  out << v;
  return out.str();
}

const char* type_name(kwarg::kind type) {
  switch (type) {
    case kwarg::kind::number: return "number";
    case kwarg::kind::flag: return "bool";
    case kwarg::kind::range: return "range [low, high]";
    case kwarg::kind::file: return "file";
  }
  return "";
}

// The value `setting` gives `k`, or why it cannot.
std::string read(const kwarg& k, const mujoco_setting& s, kwarg& out) {
  out = k;
  const std::string got = ", got " + shown(s);
  switch (k.type) {
    case kwarg::kind::number:
      if (s.list || s.scalars.size() != 1 || !parse_number(s.scalars[0], out.value[0]) ||
          !std::isfinite(out.value[0]))
        return "expected a finite number" + got;
      return "";
    case kwarg::kind::flag: {
      bool b = false;
      if (s.list || s.scalars.size() != 1 || !parse_flag(s.scalars[0], b)) return "expected true or false" + got;
      out.value[0] = b ? 1.0 : 0.0;
      return "";
    }
    case kwarg::kind::range:
      if (!s.list || s.scalars.size() != 2 || !parse_number(s.scalars[0], out.value[0]) ||
          !parse_number(s.scalars[1], out.value[1]))
        return "expected a list of two numbers [low, high] (.inf for none)" + got;
      if (!(out.value[0] <= out.value[1])) return "expected low <= high" + got;
      return "";
    case kwarg::kind::file:
      if (s.list || s.scalars.size() != 1 || s.scalars[0].empty()) return "expected a file name" + got;
      out.text = s.scalars[0];
      return "";
  }
  return "";
}

}  // namespace

std::string setting_problem(const std::string& task, const std::vector<kwarg>& table,
                            const std::string& name, const mujoco_setting& setting) {
  for (const kwarg& k : table) {
    if (k.name != name) continue;
    kwarg value;
    return read(k, setting, value);
  }
  std::string names;
  for (const kwarg& k : table) names += (names.empty() ? "" : ", ") + k.name;
  return task + " has no keyword argument '" + name + "'" +
         (names.empty() ? " (it takes none)" : " (it takes " + names + ")");
}

std::string describe(const std::vector<kwarg>& table) {
  std::ostringstream out;
  for (const kwarg& k : table) {
    out << "env.mujoco." << k.name << "  " << type_name(k.type) << ", default ";
    switch (k.type) {
      case kwarg::kind::number: out << number_text(k.value[0]); break;
      case kwarg::kind::flag: out << (k.value[0] != 0 ? "true" : "false"); break;
      case kwarg::kind::range: out << "[" << number_text(k.value[0]) << ", " << number_text(k.value[1]) << "]"; break;
      case kwarg::kind::file: out << k.text; break;
    }
    out << ": " << k.meaning << "\n";
  }
  return out.str();
}

task_options::task_options(const std::string& task, std::vector<kwarg> table,
                           const std::map<std::string, mujoco_setting>& given)
    : table_(std::move(table)) {
  for (const auto& [name, setting] : given) {
    if (const std::string why = setting_problem(task, table_, name, setting); !why.empty())
      throw env_key_error("env.mujoco." + name, why);
    for (kwarg& k : table_)
      if (k.name == name) read(k, setting, k);
    given_.push_back(name);
  }
}

const kwarg& task_options::find(const std::string& name, kwarg::kind type) const {
  for (const kwarg& k : table_)
    if (k.name == name && k.type == type) return k;
  throw std::logic_error("a MuJoCo task asked for the argument '" + name + "' it does not declare");
}

double task_options::number(const std::string& name) const { return find(name, kwarg::kind::number).value[0]; }
bool task_options::flag(const std::string& name) const { return find(name, kwarg::kind::flag).value[0] != 0; }
std::pair<double, double> task_options::range(const std::string& name) const {
  const kwarg& k = find(name, kwarg::kind::range);
  return {k.value[0], k.value[1]};
}
const std::string& task_options::file(const std::string& name) const { return find(name, kwarg::kind::file).text; }
bool task_options::given(const std::string& name) const {
  for (const auto& g : given_)
    if (g == name) return true;
  return false;
}

}  // namespace troupe::envs::mujoco
