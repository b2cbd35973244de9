#include "model/checkpoint.hpp"

#include <string_view>

#include <nlohmann/json.hpp>

#include "model/checkpoint_file.hpp"
#include "model/shared_model_impl.hpp"

namespace troupe::model {

namespace {

std::string meta_to_json(const checkpoint_meta& m) {
  return nlohmann::json{{"version", m.version},         {"env_steps", m.env_steps},
                        {"episodes", m.episodes},       {"updates", m.updates},
                        {"samples_trained", m.samples_trained},
                        {"wall_seconds", m.wall_seconds}, {"segment", m.segment},
                        {"config_yaml", m.config_yaml}}
      .dump();
}

checkpoint_meta meta_from_json(const std::string& text) {
  const auto j = nlohmann::json::parse(text);
  checkpoint_meta m;
  m.version = j.at("version");
  m.env_steps = j.at("env_steps");
  m.episodes = j.at("episodes");
  m.updates = j.at("updates");
  m.samples_trained = j.at("samples_trained");
  m.wall_seconds = j.at("wall_seconds");
  m.segment = j.at("segment");
  m.config_yaml = j.at("config_yaml");
  return m;
}

// Opens a checkpoint archive once its file's checksum holds (see
// model/checkpoint_file.hpp), turning LibTorch's errors into ours.
void read_archive(const std::string& path, torch::serialize::InputArchive& archive) {
  const std::string file = read_checkpoint_file(path);
  const std::string_view bytes = unseal_checkpoint(file, path);
  try {
    // Tensors land on the host whatever device wrote them (a checkpoint from
    // a GPU run loads on a machine without one); load_checkpoint moves them.
    archive.load_from(bytes.data(), bytes.size(), torch::Device(torch::kCPU));
  } catch (const std::exception&) {
    throw checkpoint_error(path + ": corrupt checkpoint (its checksum holds, but LibTorch cannot read the archive inside)");
  }
}

checkpoint_meta read_meta(const std::string& path, torch::serialize::InputArchive& archive) {
  c10::IValue value;
  if (!archive.try_read("meta", value) || !value.isString())
    throw checkpoint_error(path + ": not a Troupe checkpoint (no metadata)");
  try {
    return meta_from_json(value.toStringRef());
  } catch (const std::exception& e) {
    throw checkpoint_error(path + ": corrupt checkpoint metadata: " + e.what());
  }
}

// Module::save nests each submodule's archive under its name: "trunk.0.weight"
// is tensor "weight" of archive "0" inside archive "trunk".
bool read_parameter(torch::serialize::InputArchive& archive, const std::string& key,
                    torch::Tensor& out) {
  const size_t dot = key.find('.');
  if (dot == std::string::npos) return archive.try_read(key, out);
  torch::serialize::InputArchive child;
  if (!archive.try_read(key.substr(0, dot), child)) return false;
  return read_parameter(child, key.substr(dot + 1), out);
}

// The optimiser's state loads onto the host with the archive; it must live
// where the parameters do, or the next step mixes devices.
void move_optimizer_state(torch::optim::Optimizer& optimizer, torch::Device device) {
  auto moved = [&](const torch::Tensor& t) { return t.defined() ? t.to(device) : t; };
  for (auto& item : optimizer.state()) {
    if (auto* s = dynamic_cast<torch::optim::RMSpropParamState*>(item.second.get())) {
      s->square_avg(moved(s->square_avg()));
      s->momentum_buffer(moved(s->momentum_buffer()));
      s->grad_avg(moved(s->grad_avg()));
    } else if (auto* a = dynamic_cast<torch::optim::AdamParamState*>(item.second.get())) {
      a->exp_avg(moved(a->exp_avg()));
      a->exp_avg_sq(moved(a->exp_avg_sq()));
      a->max_exp_avg_sq(moved(a->max_exp_avg_sq()));
    }
  }
}

}  // namespace

std::uint64_t save_checkpoint(const std::string& path, shared_model& model,
                     torch::optim::Optimizer* optimizer, checkpoint_meta meta) {
  std::string bytes;
  model.params.run([&] {
    meta.version = model.version;
    torch::serialize::OutputArchive archive;
    model.net->save(archive);
    if (optimizer) {
      torch::serialize::OutputArchive optimizer_archive;
      optimizer->save(optimizer_archive);
      archive.write("optimizer", optimizer_archive);
    }
    archive.write("meta", c10::IValue(meta_to_json(meta)));
    archive.save_to([&bytes](const void* data, size_t size) {
      bytes.append(static_cast<const char*>(data), size);
      return size;
    });
  });
  // Written outside the section: the disk never holds up predictions.
  write_file_atomically(path, seal_checkpoint(bytes));
  return meta.version;
}

checkpoint_meta read_checkpoint_meta(const std::string& path) {
  torch::serialize::InputArchive archive;
  read_archive(path, archive);
  return read_meta(path, archive);
}

checkpoint_meta load_checkpoint(const std::string& path, shared_model& model,
                                torch::optim::Optimizer* optimizer) {
  torch::serialize::InputArchive archive;
  read_archive(path, archive);
  checkpoint_meta meta = read_meta(path, archive);
  // LibTorch's Module::load replaces tensors of another shape without a word:
  // check every parameter's name and shape first.
  for (const auto& item : model.net->named_parameters()) {
    torch::Tensor stored;
    bool found = false;
    try {
      found = read_parameter(archive, item.key(), stored);
    } catch (const std::exception&) {
    }
    if (!found || stored.sizes() != item.value().sizes())
      throw checkpoint_error(path + ": the checkpoint does not fit this model (parameter '" +
                             item.key() + "' is " +
                             (found ? "of another shape" : "missing") +
                             "; another architecture?)");
  }
  model.params.run([&] {
    try {
      model.net->load(archive);
      if (!model.device.is_cpu()) model.net->to(model.device);
      if (optimizer) {
        torch::serialize::InputArchive optimizer_archive;
        if (archive.try_read("optimizer", optimizer_archive)) {
          optimizer->load(optimizer_archive);
          if (!model.device.is_cpu()) move_optimizer_state(*optimizer, model.device);
        }
      }
    } catch (const std::exception&) {
      throw checkpoint_error(path +
                             ": the checkpoint does not fit this model (another architecture?)");
    }
    model.version = meta.version;
  });
  return meta;
}

}  // namespace troupe::model
