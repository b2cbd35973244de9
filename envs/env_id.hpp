#pragma once
// What an env.id names: an environment compiled into Troupe (the registry's
// table), a Python environment (python:MODULE:CALLABLE or gymnasium:ENV_ID)
// or a compiled plugin (plugin:PATH.so). The id is read once, where it is
// set (the config loader, a test, a checkpoint's spec); every user asks the
// parts rather than decoding the prefix again.
#include <iosfwd>
#include <string>

namespace troupe::envs {

enum class env_source { registered, python, gymnasium, plugin };

class env_id {
 public:
  // The parts of `text` by its prefix (no prefix: registered). Throws
  // env_key_error when a prefixed id is malformed. Implicit, so that an id
  // is written as the text a config holds: env.id = "CartPole-v1".
  env_id(std::string text);
  env_id(const char* text) : env_id(std::string(text)) {}

  // As the config wrote it.
  const std::string& text() const { return text_; }
  env_source source() const { return source_; }
  const std::string& module() const { return module_; }      // python: the module to import (dotted)
  const std::string& callable() const { return callable_; }  // python: its attribute that makes an environment
  const std::string& target() const { return target_; }      // gymnasium: the id for gymnasium.make; plugin: the file

  friend bool operator==(const env_id& a, const env_id& b) { return a.text_ == b.text_; }
  friend bool operator!=(const env_id& a, const env_id& b) { return a.text_ != b.text_; }

 private:
  std::string text_;
  env_source source_ = env_source::registered;
  std::string module_;
  std::string callable_;
  std::string target_;
};

std::ostream& operator<<(std::ostream& out, const env_id& id);

}  // namespace troupe::envs
