#include "model/policy_export.hpp"

#include <cstdio>
#include <map>
#include <sstream>
#include <stdexcept>
#include <variant>

#include <nlohmann/json.hpp>
#include <torch/script.h>

#include "model/shared_model_impl.hpp"

namespace troupe::model {

namespace {

// A parameter's name as a TorchScript attribute: "trunk.0.weight" ->
// "trunk_0_weight".
std::string attribute_name(std::string dotted) {
  for (char& c : dotted)
    if (c == '.') c = '_';
  return dotted;
}

std::string number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  std::string text = s.str();
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";  // a float literal
  return text;
}

// TorchScript lines applying the layers of a Sequential (`prefix` its
// name among the network's modules) to variable `x`, in order. Every layer
// kind Troupe's networks use is known; any other is refused.
// Python that makes rows of `image`'s values N x C x H x W, as
// model/actor_critic.cpp's as_image does.
std::string as_image(const image_input& image) {
  const auto& d = image.shape;
  const std::string shape = ".reshape(-1, " + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " +
                            std::to_string(d[2]) + ")";
  return image.channels_first ? shape : shape + ".permute(0, 3, 1, 2)";
}

void emit_layers(std::ostream& out, const std::shared_ptr<torch::nn::Module>& sequential,
                 const std::string& prefix, const std::string& x) {
  for (const auto& item : sequential->named_children()) {
    const std::string p = "self." + attribute_name(prefix + "." + item.key() + ".");
    const auto& layer = item.value();
    out << "    " << x << " = ";
    if (layer->as<torch::nn::Linear>()) {
      out << "torch.linear(" << x << ", " << p << "weight, " << p << "bias)\n";
    } else if (const auto* conv = layer->as<torch::nn::Conv2d>()) {
      const auto& o = conv->options;
      // Explicit padding is the variant's first alternative (c10::variant in
      // LibTorch 1.13, std::variant in 2.x: `get` found by argument lookup).
      using std::get;
      if (o.padding().index() != 0 || o.groups() != 1 || o.padding_mode().index() != 0)
        throw std::invalid_argument("cannot export a convolution with this padding or grouping");
      const auto& padding = *get<0>(o.padding());
      out << "torch.conv2d(" << x << ", " << p << "weight, " << p << "bias, [" << (*o.stride())[0]
          << ", " << (*o.stride())[1] << "], [" << padding[0] << ", " << padding[1] << "], ["
          << (*o.dilation())[0] << ", " << (*o.dilation())[1] << "])\n";
    } else if (layer->as<torch::nn::ReLU>()) {
      out << "torch.relu(" << x << ")\n";
    } else if (layer->as<torch::nn::Tanh>()) {
      out << "torch.tanh(" << x << ")\n";
    } else if (layer->as<torch::nn::Flatten>()) {
      out << x << ".flatten(1)\n";
    } else {
      throw std::invalid_argument("cannot export layer '" + prefix + "." + item.key() + "' (" +
                                  layer->name() + ")");
    }
  }
}

// A string literal of TorchScript.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

// What a masked action's logit becomes: algo::masked_logit (this floor
// cannot include algo/; tests/model/policy_export_test.cpp checks they agree).
constexpr double algo_masked_logit = -1e9;

// The forward method's TorchScript source for the network of `spec`.
std::string forward_source(const ActorCriticImpl& net, const net_spec& spec, const policy_metadata& meta,
                           bool select) {
  std::shared_ptr<torch::nn::Module> trunk, value_trunk;
  std::map<std::string, std::shared_ptr<torch::nn::Module>> children;
  for (const auto& item : net.named_children()) {
    if (item.key() == "trunk") trunk = item.value();
    if (item.key() == "value_trunk") value_trunk = item.value();
    children[item.key()] = item.value();
  }
  const bool recurrent = spec.recurrent.enabled();
  const bool structured = !meta.inputs.empty();
  std::ostringstream out;
  out << "def forward(self, obs: " << (structured ? "Dict[str, Tensor]" : "Tensor")
      << (recurrent ? ", state: Tensor" : "") << ", mask: Optional[Tensor] = None) -> Tuple[Tensor, Tensor"
      << (recurrent ? ", Tensor" : "") << "]:\n";
  if (!structured) {
    out << "    x = obs.float().reshape(obs.size(0), -1)\n";
  } else {
    // Each leaf as training encoded it: values as they are, discrete
    // elements one-hot (a scatter at each element's offset minus its start).
    out << "    b = obs[" << quoted(meta.inputs.front().key) << "].size(0)\n";
    std::string parts;
    for (size_t i = 0; i < meta.inputs.size(); ++i) {
      const observation_input& in = meta.inputs[i];
      const std::string value = "obs[" + quoted(in.key) + "]", name = "p" + std::to_string(i);
      if (in.kind == "box" || in.kind == "multi_binary")
        out << "    " << name << " = " << value << ".float().reshape(b, -1)\n";
      else
        out << "    " << name << " = torch.zeros([b, " << in.size << "]).scatter(1, " << value
            << ".long().reshape(b, -1) + self.one_hot_shift_" << i << ", 1.0)\n";
      parts += (i ? ", " : "") + name;
    }
    out << "    x = torch.cat([" << parts << "], 1)\n";
    if (!meta.mask_key.empty())
      out << "    if mask is None:\n        mask = obs[" << quoted(meta.mask_key) << "]\n";
  }
  if (select) out << "    x = x.index_select(1, self.observe)\n";
  if (spec.normalize.observation) {
    const std::string clip = number(spec.normalize.clip_observation);
    out << "    x = torch.clamp((x - self.obs_mean) * self.obs_scale, -" << clip << ", " << clip << ")\n";
  }
  // A structured observation's images: each through its own convolution,
  // after the row's other values (model/actor_critic.cpp's `encoded`).
  if (!spec.image_inputs.empty()) {
    std::string parts = "x.index_select(1, self.flat_columns)";
    for (size_t i = 0; i < spec.image_inputs.size(); ++i) {
      const image_input& in = spec.image_inputs[i];
      const std::string name = "e" + std::to_string(i), module = "encoder_" + std::to_string(i);
      out << "    " << name << " = x.narrow(1, " << in.offset << ", " << in.size() << ")" << as_image(in) << "\n";
      emit_layers(out, children.at(module), module, name);
      parts += ", " + name;
    }
    out << "    x = torch.cat([" << parts << "], 1)\n";
  }
  // A CNN reads each row as one image.
  const std::string image = spec.kind == "cnn" && spec.image_inputs.empty() ? as_image(spec.whole_image()) : "";
  out << "    h = x" << image << "\n";
  emit_layers(out, trunk, "trunk", "h");
  if (value_trunk) {
    out << "    v = x" << image << "\n";
    emit_layers(out, value_trunk, "value_trunk", "v");
  }
  if (spec.recurrent.kind == "lstm") {
    const int n = spec.recurrent.size;
    out << "    hc = torch.lstm_cell(h, [state[:, 0:" << n << "], state[:, " << n << ":" << 2 * n
        << "]], self.core_weight_ih, self.core_weight_hh, self.core_bias_ih, self.core_bias_hh)\n"
        << "    h = hc[0]\n"
        << "    next_state = torch.cat([hc[0], hc[1]], 1)\n";
  } else if (spec.recurrent.kind == "gru") {
    out << "    h = torch.gru_cell(h, state, self.core_weight_ih, self.core_weight_hh, self.core_bias_ih, "
           "self.core_bias_hh)\n"
        << "    next_state = h\n";
  }
  if (!value_trunk) out << "    v = h\n";
  out << "    policy = torch.linear(h, self.policy_head_weight, self.policy_head_bias)\n"
      << "    value = torch.linear(v, self.value_head_weight, self.value_head_bias).squeeze(-1)\n";
  if (!spec.continuous) {
    // The mask covers the logits; a hybrid policy's Gaussian means after them stay.
    const std::string logits = std::to_string(spec.logit_count());
    const std::string fill = "masked_fill(mask.reshape(policy.size(0), -1) == 0, " + number(algo_masked_logit) + ")";
    out << "    if mask is not None:\n        policy = "
        << (spec.hybrid() ? "torch.cat([policy.narrow(1, 0, " + logits + ")." + fill + ", policy.narrow(1, " + logits +
                                ", " + std::to_string(spec.gaussian_size) + ")], 1)"
                          : "policy." + fill)
        << "\n";
  }
  out << (recurrent ? "    return (policy, value, next_state)\n" : "    return (policy, value)\n");
  return out.str();
}

// What the module's action_space attribute says of the policy.
std::string action_space_name(const net_spec& spec) {
  return spec.continuous ? "box" : spec.hybrid() ? "hybrid" : "discrete";
}

c10::List<int64_t> int_list(const std::vector<int>& values) {
  c10::List<int64_t> out;
  for (int v : values) out.push_back(v);
  return out;
}

std::vector<std::string> keys_of(const policy_metadata& meta) {
  std::vector<std::string> keys;
  for (const observation_input& in : meta.inputs) keys.push_back(in.key);
  if (!meta.mask_key.empty()) keys.push_back(meta.mask_key);
  return keys;
}

}  // namespace

std::string policy_metadata_json(const shared_model& model, const policy_metadata& meta) {
  const net_spec& spec = model.spec;
  nlohmann::json j{{"format", "troupe policy 1"},
                   {"env_id", meta.env_id},
                   {"observation_shape", meta.observation_shape},
                   {"observe", meta.observe},
                   {"action_space", action_space_name(spec)},
                   {"observation_keys", keys_of(meta)},
                   {"mask_key", meta.mask_key},
                   {"action_count", spec.action_size},
                   {"action_heads", spec.continuous ? std::vector<int>{} : spec.heads()},
                   {"action_low", meta.action_low},
                   {"action_high", meta.action_high},
                   {"action_labels", meta.action_labels},
                   {"recurrent", spec.recurrent.enabled() ? spec.recurrent.kind : "none"},
                   {"state_size", spec.state_size()},
                   {"normalizes_observations", spec.normalize.observation},
                   {"parameter_version", meta.parameter_version},
                   {"troupe_version", meta.troupe_version}};
  return j.dump(2);
}

void export_torchscript(shared_model& model, const policy_metadata& meta, const std::string& path) {
  const net_spec& spec = model.spec;
  torch::jit::Module module("TroupePolicy");
  // One consistent version of every tensor, on the host.
  model.params.run_shared([&] {
    for (const auto& item : model.net->named_parameters())
      module.register_parameter(attribute_name(item.key()),
                                item.value().detach().to(torch::kCPU).clone(), /*is_buffer=*/false);
    for (const auto& item : model.net->named_buffers())
      module.register_buffer(attribute_name(item.key()), item.value().detach().to(torch::kCPU).clone());
  });
  const bool select = !meta.observe.empty();
  if (select) {
    std::vector<int64_t> kept(meta.observe.begin(), meta.observe.end());
    module.register_buffer("observe", torch::tensor(kept, torch::kInt64));
  }
  module.register_attribute("env_id", c10::StringType::get(), meta.env_id);
  module.register_attribute("observation_shape", c10::ListType::ofInts(), int_list(meta.observation_shape));
  module.register_attribute("action_space", c10::StringType::get(),
                            action_space_name(spec));
  module.register_attribute("action_count", c10::IntType::get(), int64_t(spec.action_size));
  module.register_attribute("action_low", c10::ListType::ofFloats(), c10::List<double>(meta.action_low));
  module.register_attribute("action_high", c10::ListType::ofFloats(), c10::List<double>(meta.action_high));
  module.register_attribute("action_labels", c10::ListType::ofStrings(),
                            c10::List<std::string>(meta.action_labels));
  module.register_attribute("recurrent", c10::StringType::get(),
                            spec.recurrent.enabled() ? spec.recurrent.kind : std::string("none"));
  module.register_attribute("state_size", c10::IntType::get(), int64_t(spec.state_size()));
  module.register_attribute("parameter_version", c10::IntType::get(), int64_t(meta.parameter_version));
  module.register_attribute("troupe_version", c10::StringType::get(), meta.troupe_version);
  for (size_t i = 0; i < meta.inputs.size(); ++i) {
    const observation_input& in = meta.inputs[i];
    if (in.kind != "discrete" && in.kind != "multi_discrete") continue;
    // Element j's one-hot row begins at the sum of the choices before it.
    std::vector<int64_t> shift;
    int64_t begin = 0;
    for (size_t j = 0; j < in.nvec.size(); ++j) {
      shift.push_back(begin - in.start[j]);
      begin += in.nvec[j];
    }
    module.register_buffer("one_hot_shift_" + std::to_string(i),
                           torch::tensor(shift, torch::kInt64).reshape({1, -1}));
  }
  module.register_attribute("observation_keys", c10::ListType::ofStrings(),
                            c10::List<std::string>(keys_of(meta)));
  module.register_attribute("mask_key", c10::StringType::get(), meta.mask_key);
  module.register_attribute("action_heads", c10::ListType::ofInts(),
                            int_list(spec.continuous ? std::vector<int>{} : spec.heads()));
  module.define(forward_source(*model.net, spec, meta, select));
  module.define("def initial_state(self, batch: int) -> Tensor:\n"
                "    return torch.zeros([batch, " + std::to_string(spec.state_size()) + "])\n");
  module.eval();
  const std::string temporary = path + ".partial";
  try {
    module.save(temporary, {{"troupe.json", policy_metadata_json(model, meta)}});
  } catch (const c10::Error& e) {
    std::remove(temporary.c_str());
    throw std::runtime_error(path + ": cannot be written (" + e.what_without_backtrace() + ")");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw std::runtime_error(path + ": cannot be written (renaming " + temporary + " failed)");
  }
}

}  // namespace troupe::model
