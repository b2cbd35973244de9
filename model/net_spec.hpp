#pragma once
#include <map>
#include <string>
#include <vector>

namespace troupe::model {

// A recurrent core between the trunk and the heads: none, an LSTM cell or a
// GRU cell of `size` units. Its state is one row per environment: h then c
// for an LSTM (2 x size floats), h for a GRU (size floats).
struct recurrent_config {
  std::string kind = "none";  // none | lstm | gru
  int size = 128;
  bool enabled() const { return kind != "none"; }
  int state_size() const { return kind == "lstm" ? 2 * size : kind == "gru" ? size : 0; }
};

// Normalisation, as MuJoCo-class tasks want it (the `env.normalize` keys):
// observations by their running mean and variance, inside the network, so
// that every forward pass (agents, eval, play, the viewer, cluster workers)
// reads them alike; rewards, for learning only, by the running standard
// deviation of the discounted return. The statistics live with the
// parameters (model/shared_model_impl.hpp) and are saved in checkpoints.
struct normalize_config {
  bool observation = false;
  bool reward = false;
  double clip_observation = 10.0;  // normalised observations are clipped to +-this
  double clip_reward = 10.0;       // normalised rewards are clipped to +-this
  double epsilon = 1e-8;           // added to variances before their square root
};

// The `model` section of a run config: what the user chooses of the network.
struct model_config {
  std::string kind = "mlp";            // mlp | cnn
  std::vector<int> hidden = {64, 64};
  std::string activation = "tanh";     // of an mlp's hidden layers: tanh | relu
  int conv_channels = 16;              // cnn: channels of the 3x3 convolution
  bool shared_trunk = true;
  double log_std_init = 0.0;
  recurrent_config recurrent;
  bool by_hand = true;  // forward passes and PPO's steps by hand where they apply
  // model.encoders: how a structured observation's leaf is read, by its key:
  // cnn (a 3x3 convolution; the default for an image, a rank-3 Box) or flat
  // (its values as they are; the default for every other leaf).
  std::map<std::string, std::string> encoders = {};
  // model.image_layout: how an image's values lie, hwc (channels last, as
  // Gymnasium's Atari and MinAtar give them), chw (channels first, as
  // PyTorch's), or auto: chw when its first dimension is at most 4 and its
  // last more than 4, else hwc (run/component_configs.cpp).
  std::string image_layout = "auto";
};

// An image in a row of observation values (a rank-3 Box at `offset`: a
// structured observation's leaf, or the whole row for a cnn), which a 3x3
// convolution (conv_channels, ReLU) reads.
struct image_input {
  int offset = 0;
  std::vector<int> shape;       // as the space gives it: H, W, C, or C, H, W when channels_first
  bool channels_first = false;
  int size() const { return shape[0] * shape[1] * shape[2]; }
  int height() const { return shape[channels_first ? 1 : 0]; }
  int width() const { return shape[channels_first ? 2 : 1]; }
  int channels() const { return shape[channels_first ? 0 : 2]; }
};

// What a network is built from: sizes come from the environment's spaces.
struct net_spec {
  std::string kind = "mlp";    // mlp | cnn (cnn reads observations as H x W x C)
  std::vector<int> obs_shape;  // e.g. {4} or {10, 10, 4}
  bool obs_channels_first = false;  // cnn: obs_shape is C x H x W
  int obs_size = 0;            // product of obs_shape
  bool continuous = false;     // Box actions: Gaussian head; else categorical
  int action_size = 0;         // the policy head's outputs: logits, then any Gaussian means
  // A categorical policy over several components (MultiDiscrete actions):
  // each one's number of choices, its logits in turn among the action_size;
  // empty: one component of action_size choices.
  std::vector<int> action_heads = {};
  // A hybrid policy (a Tuple or Dict action of discrete and Box parts): the
  // Box's dimensions, a Gaussian's means after the logits of action_heads
  // (which a hybrid policy always names); 0 for the others.
  int gaussian_size = 0;
  std::vector<int> hidden = {64, 64};  // mlp: hidden widths; cnn: widths after the conv
  std::string activation = "tanh";     // mlp: tanh | relu (a cnn's layers are ReLU)
  int conv_channels = 16;      // cnn: channels of the 3x3 convolution
  bool shared_trunk = true;    // false: the value head gets a trunk of its own
  // A feed-forward mlp on the CPU: forward passes and PPO's minibatch steps
  // by hand (model/mlp_by_hand.hpp) rather than by LibTorch's operations.
  bool by_hand = true;
  double log_std_init = 0.0;   // Gaussian head: initial log standard deviation
  recurrent_config recurrent;  // a recurrent core after the trunk (shared trunk only)
  normalize_config normalize;  // normalize.observation: the network normalises its inputs
  // The images of a structured observation, each encoded by a convolution of
  // its own; the dense layers read those features and the row's other
  // values, concatenated. Empty: the trunk reads the whole row (or image).
  std::vector<image_input> image_inputs = {};

  // Floats of recurrent state per observation row (0: feed-forward).
  int state_size() const { return recurrent.state_size(); }
  // A categorical or hybrid policy's components: action_heads, or the one of them all.
  std::vector<int> heads() const {
    return action_heads.empty() ? std::vector<int>{action_size} : action_heads;
  }
  bool hybrid() const { return gaussian_size > 0; }
  // Dimensions of the Gaussian part: a Box policy's all, a hybrid's Box part.
  int gaussian_dims() const { return continuous ? action_size : gaussian_size; }
  // A cnn's whole row as one image.
  image_input whole_image() const { return {0, obs_shape, obs_channels_first}; }
  // Logits over all components (the length of an action mask row); 0 for a Box policy.
  int logit_count() const { return continuous ? 0 : action_size - gaussian_size; }
};

// The network `config` asks for, over observations of `obs_shape` and with
// `action_size` actions (categorical) or action dimensions (continuous).
inline net_spec make_net_spec(const model_config& config, std::vector<int> obs_shape,
                              bool continuous, int action_size) {
  net_spec spec;
  spec.kind = config.kind;
  spec.obs_size = 1;
  for (int d : obs_shape) spec.obs_size *= d;
  spec.obs_shape = std::move(obs_shape);
  spec.continuous = continuous;
  spec.action_size = action_size;
  spec.hidden = config.hidden;
  spec.activation = config.activation;
  spec.conv_channels = config.conv_channels;
  spec.shared_trunk = config.shared_trunk;
  spec.log_std_init = config.log_std_init;
  spec.recurrent = config.recurrent;
  spec.by_hand = config.by_hand;
  return spec;
}

// A categorical-policy MLP over flat observations.
inline net_spec mlp_spec(int obs_size, int num_actions, std::vector<int> hidden) {
  net_spec spec;
  spec.obs_shape = {obs_size};
  spec.obs_size = obs_size;
  spec.action_size = num_actions;
  spec.hidden = std::move(hidden);
  return spec;
}

}  // namespace troupe::model
