// Where an ActorCritic's layers lie in the shared model's flat parameters,
// read from its named parameters (model/mlp_by_hand.hpp).
#include <string>

#include "model/mlp_by_hand.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::model {

std::optional<mlp_layout> mlp_layout_of(shared_model& model) {
  const net_spec& spec = model.spec;
  if (spec.kind != "mlp" || !spec.image_inputs.empty() || spec.recurrent.enabled() || !model.device.is_cpu() ||
      (spec.activation != "tanh" && spec.activation != "relu"))
    return std::nullopt;
  mlp_layout layout;
  layout.tanh = spec.activation == "tanh";
  layout.obs_size = spec.obs_size;
  layout.normalize = spec.normalize.observation;
  layout.clip = float(spec.normalize.clip_observation);
  layout.parameter_count = model.flat.numel();
  const float* base = model.flat.data_ptr<float>();
  // A layer's weight comes before its bias, and the layers in order.
  dense_layer* open = nullptr;
  for (const auto& item : model.net->named_parameters()) {
    const std::string& name = item.key();
    const torch::Tensor& p = item.value();
    if (p.scalar_type() != torch::kFloat32 || !p.is_contiguous()) return std::nullopt;
    const std::int64_t offset = p.data_ptr<float>() - base;
    if (offset < 0 || offset + p.numel() > layout.parameter_count) return std::nullopt;
    const std::string owner = name.substr(0, name.find('.'));
    const bool weight = name.size() > 7 && name.compare(name.size() - 7, 7, ".weight") == 0;
    const bool bias = name.size() > 5 && name.compare(name.size() - 5, 5, ".bias") == 0;
    if (name == "log_std") {
      layout.log_std = offset;
      layout.log_std_size = int(p.numel());
      continue;
    }
    if (weight && p.dim() == 2) {
      dense_layer layer{int(p.size(1)), int(p.size(0)), offset, -1};
      if (owner == "trunk")
        open = &layout.trunk.emplace_back(layer);
      else if (owner == "value_trunk")
        open = &layout.value_trunk.emplace_back(layer);
      else if (owner == "policy_head")
        open = &(layout.policy_head = layer);
      else if (owner == "value_head")
        open = &(layout.value_head = layer);
      else
        return std::nullopt;
    } else if (bias && open && open->bias < 0 && p.numel() == open->out) {
      open->bias = offset;
      open = nullptr;
    } else {
      return std::nullopt;
    }
  }
  // Every layer whole, each reading what the one before it gives.
  auto chained = [](const std::vector<dense_layer>& layers, int width) {
    for (const dense_layer& l : layers) {
      if (l.bias < 0 || l.in != width) return -1;
      width = l.out;
    }
    return width;
  };
  const int features = chained(layout.trunk, spec.obs_size);
  const int value_features = layout.value_trunk.empty() ? features : chained(layout.value_trunk, spec.obs_size);
  if (features < 0 || value_features < 0 || layout.policy_head.bias < 0 || layout.value_head.bias < 0 ||
      layout.policy_head.in != features || layout.policy_head.out != spec.action_size ||
      layout.value_head.in != value_features || layout.value_head.out != 1 ||
      layout.log_std_size != spec.gaussian_dims())
    return std::nullopt;
  return layout;
}

}  // namespace troupe::model
