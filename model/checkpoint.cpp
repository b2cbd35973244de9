#include "model/checkpoint.hpp"

#include <optional>
#include <sstream>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "model/checkpoint_file.hpp"
#include "model/shared_model_impl.hpp"
#include "model/tensor_bundle.hpp"

namespace troupe::model {

namespace {

using nlohmann::json;

json meta_to_json(const checkpoint_meta& m) {
  json j = {{"version", m.version},         {"env_steps", m.env_steps},
            {"episodes", m.episodes},       {"updates", m.updates},
            {"samples_trained", m.samples_trained},
            {"wall_seconds", m.wall_seconds}, {"segment", m.segment},
            {"config_yaml", m.config_yaml}};
  if (m.evaluated_episodes > 0)
    j["evaluated"] = {{"episodes", m.evaluated_episodes}, {"return_mean", m.evaluated_return}};
  return j;
}

checkpoint_meta meta_from_json(const json& j) {
  checkpoint_meta m;
  m.version = j.at("version").get<std::uint64_t>();
  m.env_steps = j.at("env_steps").get<std::int64_t>();
  m.episodes = j.at("episodes").get<std::int64_t>();
  m.updates = j.at("updates").get<std::int64_t>();
  m.samples_trained = j.at("samples_trained").get<std::int64_t>();
  m.wall_seconds = j.at("wall_seconds").get<double>();
  m.segment = j.at("segment").get<std::uint64_t>();
  m.config_yaml = j.at("config_yaml").get<std::string>();
  if (j.contains("evaluated")) {  // only a best.pt has it
    m.evaluated_episodes = j.at("evaluated").at("episodes").get<std::int32_t>();
    m.evaluated_return = j.at("evaluated").at("return_mean").get<double>();
  }
  return m;
}

// Where an optimiser keeps a parameter's state: LibTorch 1.x keys its map by
// the text of the parameter's TensorImpl address, 2.x by the address itself.
template <class Key>
Key state_key(const torch::Tensor& parameter) {
  if constexpr (std::is_same_v<Key, std::string>) {
    std::ostringstream text;
    text << parameter.unsafeGetTensorImpl();
    return text.str();
  } else {
    return static_cast<Key>(parameter.unsafeGetTensorImpl());
  }
}

template <class Optimizer>
auto state_key_for(Optimizer& optimizer, const torch::Tensor& parameter) {
  using key = typename std::decay_t<decltype(optimizer.state())>::key_type;
  return state_key<key>(parameter);
}

// The optimiser states Troupe's optimisers keep (algo/optimizer.cpp): their
// kind's name and, for a parameter's state, its step and tensors by name.
struct state_view {
  std::int64_t step = 0;
  std::vector<std::pair<std::string, torch::Tensor>> tensors;
};

std::string optimizer_kind(torch::optim::Optimizer& optimizer) {
  if (dynamic_cast<torch::optim::RMSprop*>(&optimizer)) return "rmsprop";
  if (dynamic_cast<torch::optim::Adam*>(&optimizer)) return "adam";
  throw checkpoint_error("checkpoints hold the state of RMSprop and Adam only");
}

std::optional<state_view> view_state(torch::optim::OptimizerParamState& state) {
  if (auto* s = dynamic_cast<torch::optim::RMSpropParamState*>(&state))
    return state_view{s->step(), {{"square_avg", s->square_avg()},
                                  {"momentum_buffer", s->momentum_buffer()},
                                  {"grad_avg", s->grad_avg()}}};
  if (auto* a = dynamic_cast<torch::optim::AdamParamState*>(&state))
    return state_view{a->step(), {{"exp_avg", a->exp_avg()},
                                  {"exp_avg_sq", a->exp_avg_sq()},
                                  {"max_exp_avg_sq", a->max_exp_avg_sq()}}};
  return std::nullopt;
}

bundle_tensor to_bundle(const std::string& name, const torch::Tensor& t) {
  const torch::Tensor host = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
  bundle_tensor out{name, host.sizes().vec(), {}};
  out.values.assign(host.data_ptr<float>(), host.data_ptr<float>() + host.numel());
  return out;
}

torch::Tensor from_bundle(const bundle_tensor& t, torch::Device device) {
  return torch::from_blob(const_cast<float*>(t.values.data()), t.shape, torch::kFloat32)
      .clone()
      .to(device);
}

// The optimiser's state as a bundle holds it (a slice per parameter, as if
// each parameter had a state of its own), checked against `model`: the same
// kind of optimiser, every parameter's state, tensors of their shapes; one
// state for model.flat, or null when no step has been taken. Built outside
// the critical section; installing it is a swap.
std::unique_ptr<torch::optim::OptimizerParamState> read_optimizer_state(
    const tensor_bundle& bundle, const std::string& path, shared_model& model,
    torch::optim::Optimizer& optimizer) {
  const auto fail = [&](const std::string& why) { return checkpoint_error(path + ": " + why); };
  const json& saved = bundle.info.at("optimizer");
  if (saved.at("kind").get<std::string>() != optimizer_kind(optimizer))
    throw fail("the checkpoint holds the state of " + saved.at("kind").get<std::string>() +
               ", not of this run's " + optimizer_kind(optimizer) + " (algo.optimizer)");
  const json& steps = saved.at("steps");
  if (steps.empty()) return nullptr;  // no step taken yet
  const auto parameters = model.net->named_parameters();
  std::optional<std::int64_t> step;
  for (const auto& item : parameters) {
    if (!steps.contains(item.key())) throw fail("no optimiser state for parameter '" + item.key() + "'");
    const std::int64_t s = steps.at(item.key()).get<std::int64_t>();
    if (step && *step != s) throw fail("the parameters' optimiser states have taken different numbers of steps");
    step = s;
  }
  // A field of the state: every parameter's slice of it, or none.
  auto tensor = [&](const std::string& field) -> torch::Tensor {
    std::vector<torch::Tensor> slices;
    for (const auto& item : parameters) {
      const bundle_tensor* t = bundle.find("optimizer/" + item.key() + "/" + field);
      if (!t) continue;
      if (t->shape != item.value().sizes().vec())
        throw fail("optimiser state '" + field + "' of parameter '" + item.key() + "' is of another shape");
      slices.push_back(from_bundle(*t, model.device).reshape({-1}));
    }
    if (slices.empty()) return {};
    if (slices.size() != parameters.size())
      throw fail("optimiser state '" + field + "' is missing for some parameters");
    return torch::cat(slices);
  };
  if (dynamic_cast<torch::optim::RMSprop*>(&optimizer)) {
    auto r = std::make_unique<torch::optim::RMSpropParamState>();
    r->step(*step).square_avg(tensor("square_avg")).momentum_buffer(tensor("momentum_buffer"));
    r->grad_avg(tensor("grad_avg"));
    if (!r->square_avg().defined()) throw fail("RMSprop state without square_avg");
    return r;
  }
  auto a = std::make_unique<torch::optim::AdamParamState>();
  a->step(*step).exp_avg(tensor("exp_avg")).exp_avg_sq(tensor("exp_avg_sq"));
  a->max_exp_avg_sq(tensor("max_exp_avg_sq"));
  if (!a->exp_avg().defined() || !a->exp_avg_sq().defined())
    throw fail("Adam state without exp_avg or exp_avg_sq");
  return a;
}

// Reads a whole checkpoint: its checksum first, then its bundle.
tensor_bundle read_bundle(const std::string& path) {
  const std::string file = read_checkpoint_file(path);
  return read_tensor_bundle(unseal_checkpoint(file, path), path);
}

checkpoint_meta read_meta(const tensor_bundle& bundle, const std::string& path) {
  try {
    return meta_from_json(bundle.info.at("meta"));
  } catch (const json::exception& e) {
    throw checkpoint_error(path + ": corrupt checkpoint metadata: " + e.what());
  }
}

json moments_to_json(const running_moments& m) {
  return {{"mean", m.mean}, {"var", m.var}, {"count", m.count}};
}

// The normalisation statistics a checkpoint holds for `model`, checked
// against it: present exactly when the model normalises, of its size.
// `key` is "observation" or "return".
running_moments read_moments(const tensor_bundle& bundle, const std::string& path,
                             const running_moments& expected, const std::string& key) {
  const json* saved = nullptr;
  if (bundle.info.contains("normalization") && bundle.info.at("normalization").contains(key))
    saved = &bundle.info.at("normalization").at(key);
  const std::string setting = key == "observation" ? "env.normalize.observation" : "env.normalize.reward";
  if (!saved && expected.dim() == 0) return expected;
  if (!saved)
    throw checkpoint_error(path + ": the checkpoint holds no " + key +
                           " statistics, but this run normalises them (" + setting +
                           "): it was trained without");
  if (expected.dim() == 0)
    throw checkpoint_error(path + ": the checkpoint was trained with " + setting +
                           ", which this run does not set");
  running_moments m;
  try {
    m.mean = saved->at("mean").get<std::vector<double>>();
    m.var = saved->at("var").get<std::vector<double>>();
    m.count = saved->at("count").get<double>();
  } catch (const json::exception& e) {
    throw checkpoint_error(path + ": corrupt " + key + " statistics: " + e.what());
  }
  if (m.dim() != expected.dim() || m.var.size() != m.mean.size() || !(m.count >= 0))
    throw checkpoint_error(path + ": the " + key + " statistics are of another size than this model's");
  return m;
}

}  // namespace

std::uint64_t save_checkpoint(const std::string& path, shared_model& model,
                     torch::optim::Optimizer* optimizer, checkpoint_meta meta) {
  tensor_bundle bundle;
  model.params.run([&] {
    meta.version = model.version;
    for (const auto& item : model.net->named_parameters())
      bundle.tensors.push_back(to_bundle("parameters/" + item.key(), item.value()));
    if (optimizer) {
      // The state of model.flat, saved in a slice per parameter.
      json steps = json::object();
      auto it = optimizer->state().find(state_key_for(*optimizer, model.flat));
      if (it != optimizer->state().end()) {
        const std::optional<state_view> state = view_state(*it->second);
        if (!state) throw checkpoint_error(path + ": an optimiser state checkpoints cannot hold");
        std::int64_t offset = 0;
        for (const auto& item : model.net->named_parameters()) {
          const std::int64_t n = item.value().numel();
          steps[item.key()] = state->step;
          for (const auto& [field, tensor] : state->tensors)
            if (tensor.defined())
              bundle.tensors.push_back(to_bundle("optimizer/" + item.key() + "/" + field,
                                                 tensor.reshape({-1}).slice(0, offset, offset + n).view(item.value().sizes())));
          offset += n;
        }
      }
      bundle.info["optimizer"] = {{"kind", optimizer_kind(*optimizer)}, {"steps", steps}};
    }
    bundle.info["meta"] = meta_to_json(meta);
    json normalization = json::object();
    if (model.obs_moments.dim() > 0) normalization["observation"] = moments_to_json(model.obs_moments);
    if (model.return_moments.dim() > 0) normalization["return"] = moments_to_json(model.return_moments);
    if (!normalization.empty()) bundle.info["normalization"] = normalization;
  });
  // Written outside the section: the disk never holds up predictions.
  write_file_atomically(path, seal_checkpoint(write_tensor_bundle(bundle)));
  return meta.version;
}

checkpoint_meta read_checkpoint_meta(const std::string& path) {
  return read_meta(read_bundle(path), path);
}

checkpoint_meta load_checkpoint(const std::string& path, shared_model& model,
                                torch::optim::Optimizer* optimizer) {
  const tensor_bundle bundle = read_bundle(path);
  checkpoint_meta meta = read_meta(bundle, path);
  // Every parameter's name and shape first: nothing is installed from a
  // checkpoint of another architecture.
  const auto parameters = model.net->named_parameters();
  size_t stored = 0;
  for (const auto& t : bundle.tensors) stored += t.name.rfind("parameters/", 0) == 0 ? 1 : 0;
  for (const auto& item : parameters) {
    const bundle_tensor* t = bundle.find("parameters/" + item.key());
    if (!t || t->shape != item.value().sizes().vec())
      throw checkpoint_error(path + ": the checkpoint does not fit this model (parameter '" +
                             item.key() + "' is " + (t ? "of another shape" : "missing") +
                             "; another architecture?)");
  }
  if (stored != parameters.size())
    throw checkpoint_error(path + ": the checkpoint does not fit this model (it holds " +
                           std::to_string(stored) + " parameters, the model " +
                           std::to_string(parameters.size()) + "; another architecture?)");
  // Everything is read and checked before the section; inside it, only
  // copies and a swap, so predictions wait no longer than they must.
  std::vector<torch::Tensor> values;
  for (const auto& item : parameters)
    values.push_back(from_bundle(*bundle.find("parameters/" + item.key()), model.device));
  const bool with_optimizer = optimizer && bundle.info.contains("optimizer");
  std::unique_ptr<torch::optim::OptimizerParamState> state;
  if (with_optimizer) {
    try {
      state = read_optimizer_state(bundle, path, model, *optimizer);
    } catch (const json::exception& e) {
      throw checkpoint_error(path + ": corrupt optimiser state: " + e.what());
    }
  }
  running_moments obs_moments = read_moments(bundle, path, model.obs_moments, "observation");
  running_moments return_moments = read_moments(bundle, path, model.return_moments, "return");
  model.params.run([&] {
    model.obs_moments = std::move(obs_moments);
    model.return_moments = std::move(return_moments);
    install_observation_statistics(model);
    if (with_optimizer) {
      optimizer->state().clear();
      if (state) optimizer->state()[state_key_for(*optimizer, model.flat)] = std::move(state);
    }
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < parameters.size(); ++i) parameters[i].value().copy_(values[i]);
    model.version = meta.version;
  });
  return meta;
}

}  // namespace troupe::model
