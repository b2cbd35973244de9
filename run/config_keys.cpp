#include "run/config_keys.hpp"

#include <limits>

namespace troupe::run {

using namespace fields;

namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

// run: its name, seed and when it stops
std::vector<field> run_keys(run_config& c) {
  return {
    file_name("run.name", c.run.name, "name of the run; the run directory is runs/<name>-<timestamp>"),
    integer("run.seed", c.run.seed, 0, std::numeric_limits<int>::max(), "seeds the network, the environments and action sampling"),
    number("run.stop.mean_return", c.run.stop.mean_return, -inf, inf, false, "stop when the mean return of the last run.stop.window episodes reaches this"),
    integer("run.stop.window", c.run.stop.window, 1, 100000, "episodes in the mean-return window"),
    integer("run.stop.confirm_episodes", c.run.stop.confirm_episodes, 0, 100000, "0: the window's mean decides; N: once it reaches mean_return, N fresh episodes of the current parameters must score it too (the window mixes older versions)"),
    integer("run.stop.env_steps", c.run.stop.env_steps, 0, std::numeric_limits<long long>::max(), "stop after this many env steps (0: no limit)"),
    number("run.stop.wall_seconds", c.run.stop.wall_seconds, 0, inf, false, "stop after this many seconds (0: no limit)"),
    boolean("run.deterministic", c.run.deterministic, "a run is a function of its config and seed on one machine and build: agents act in rounds (each waits for its rollout's round to train), a round trains in agent order once whole, each agent samples its actions from its own seeded stream, and metrics.csv rows go by env steps; costs speed (docs/determinism.md); not with several devices or cluster workers, and an agent that fails ends the run"),
  };
}

// env: the environments and how observations and rewards are normalised
std::vector<field> env_keys(run_config& c) {
  return {
    env_id("env.id", c.env.id, "the environment to train on: a registered id (troupe envs), a Python environment (python:MODULE:CALLABLE calls MODULE.CALLABLE(**env.kwargs); gymnasium:ENV_ID calls gymnasium.make(ENV_ID, **env.kwargs)) or a compiled plugin (plugin:PATH.so, see include/troupe/env_plugin.h)"),
    integer("env.envs_per_agent", c.env.envs_per_agent, 1, 4096, "environments each agent steps; one predict request covers all of them"),
    optional_text("env.python", c.env.python, "Python environments: the interpreter their processes run (empty: python3 on PATH if it has numpy, else /usr/bin/python3)"),
    text_list("env.python_path", c.env.python_path, "Python environments: directories put before sys.path (relative ones from the current directory)"),
    json_mapping("env.kwargs", c.env.kwargs, "Python environments: keyword arguments of the callable or gymnasium.make (render_mode: rgb_array lets troupe view and --view draw it); plugins: their options, as a JSON object"),
    text("env.action_mask", c.env.action_mask, {"auto", "observation", "info", "none"}, "Python environments whose actions have discrete parts (Discrete, MultiDiscrete, a Tuple or Dict of them, a hybrid action's choices): where the legal actions of each state come from: auto (a Dict observation's \"action_mask\" key, as PettingZoo gives it, else info[\"action_mask\"] when the info of a reset has it, as Gymnasium's Taxi-v3 gives it), observation or info (it must be there), none (every action is legal); native environments declare their own masks"),
    integer("env.processes_per_agent", c.env.processes_per_agent, 1, 64, "Python environments: processes each agent's environments are spread over, stepped concurrently"),
    int_list("env.observe", c.env.observe, 0, 1 << 24, "keep only these elements (flat indices, in this order) of a Box observation, for partial observability ([]: all of it)", /*may_be_empty=*/false),
    number("env.minatar.sticky_action_prob", c.env.minatar.sticky_action_prob, 0, 1, false, "MinAtar: probability that the previous action repeats"),
    boolean("env.minatar.full_action_set", c.env.minatar.full_action_set, "MinAtar: all six actions instead of the game's minimal set"),
    boolean("env.minatar.difficulty_ramping", c.env.minatar.difficulty_ramping, "MinAtar: games speed up as they go on"),
    text("env.opponent", c.env.versus.opponent, {}, "games of several agents (ConnectFour-v0, DuelPong-v0, Spread-v0, a python: PettingZoo AEC or Parallel game): who plays the seats the policy does not: random (a legal move at random), alphabeta:DEPTH (turn-based games: a search DEPTH moves deep, 1-8, ties broken at random), track (DuelPong-v0: the paddle follows the ball), split (Contest-v0: a team whose agents take a landmark each) or python:MODULE:CALLABLE (a scripted player: CALLABLE(observation, action_mask) -> action)"),
    text_list("env.team", c.env.versus.team, "with env.seat all: the game's agents the policy plays, by id or pattern with * (red_*); with alternate: the agents whose seats it draws among; the others are played by env.opponent, or by the other policies (policies: sets it for each); [] (the default): every agent"),
    text("env.seat", c.env.versus.seat, {"alternate", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth", "all"}, "games of several agents: the agent's seat: first (agent 0, moves first), second (agent 1), third (agent 2), ... tenth, alternate (one agent drawn per episode from its reset's seed; only where the game's agents have the same spaces), or all (simultaneous games: the policy plays every agent of each game, each a row of its own, a team sharing its parameters; Spread-v0)"),
    mujoco_settings("env.mujoco", c.env.mujoco, "MuJoCo tasks (HalfCheetah-v4, ...): Gymnasium v4's keyword arguments by name, e.g. env.mujoco.ctrl_cost_weight: 0.2 or env.mujoco.healthy_z_range: [0.7, .inf]; each task takes its own, with v4's defaults (troupe envs --describe TASK lists them)"),
    boolean("env.normalize.observation", c.normalize.observation, "normalise observations by their running mean and variance (kept with the parameters, updated from the samples trained on, saved in checkpoints; eval, play, the viewer and workers use them) and clip them to +-env.normalize.clip_observation; not with several devices"),
    boolean("env.normalize.reward", c.normalize.reward, "for learning, divide rewards by the running standard deviation of the discounted return (algo.gamma) and clip them to +-env.normalize.clip_reward; the metrics keep the true returns"),
    number("env.normalize.clip_observation", c.normalize.clip_observation, 0, inf, true, "normalised observations are clipped to +-this"),
    number("env.normalize.clip_reward", c.normalize.clip_reward, 0, inf, true, "normalised rewards are clipped to +-this"),
    number("env.normalize.epsilon", c.normalize.epsilon, 0, 1, true, "added to a variance before its square root"),
  };
}

// agents: the agent actors of the learner's node
std::vector<field> agents_keys(run_config& c) {
  return {
    integer("agents.count", c.agents.count, 0, 1024, "agent actors on the learner's node, each on its own thread (0 only with troupe serve: workers do all the acting)"),
    integer("agents.max_restarts", c.agents.max_restarts, 0, 1000000, "agent failures (an environment that throws, say) survived by restarting the agent; one more stops the run with an error"),
    boolean("agents.batch_scheduling", c.agents.batch_scheduling, "agent threads under SCHED_BATCH: an agent woken by a reply does not preempt the model-owner or learner that woke it (faster; replies wait up to a scheduler tick longer)"),
  };
}

// algo: the learning algorithm (A3C or PPO) and its hyperparameters
std::vector<field> algo_keys(run_config& c) {
  return {
    choice("algo.kind", c.algo.kind, {{"a3c", algo::algo_kind::a3c}, {"ppo", algo::algo_kind::ppo}}, "a3c: each batch of rollouts trains once, in one update; ppo: each batch trains for algo.ppo.epochs epochs of algo.ppo.minibatches clipped updates (asynchronous PPO: the ratio is taken against the policy that acted)"),
    number("algo.gamma", c.algo.gamma, 0, 1, false, "discount factor"),
    integer("algo.n_steps", c.algo.n_steps, 1, 10000, "env steps per rollout and environment (the n of n-step returns)"),
    integer("algo.batch_rollouts", c.algo.batch_rollouts, 1, 65536, "rollouts the learner gathers (from any agents, in arrival order) and trains as one batch; a rollout is acknowledged when its batch has trained, so agents.count x algo.max_rollouts_in_flight (per device) must reach it"),
    number("algo.lr", c.algo.lr, 0, 1, true, "learning rate"),
    choice("algo.lr_schedule", c.algo.lr_schedule, {{"constant", algo::lr_schedule_kind::constant}, {"linear", algo::lr_schedule_kind::linear}}, "constant, or linear: annealed from algo.lr to algo.lr_final over algo.lr_schedule_env_steps env steps (0: over run.stop.env_steps, which must then be set), and held at algo.lr_final after"),
    integer("algo.lr_schedule_env_steps", c.algo.lr_schedule_env_steps, 0, std::int64_t(1) << 50, "algo.lr_schedule linear: the env steps trained over which the learning rate falls to algo.lr_final (0: run.stop.env_steps)"),
    number("algo.lr_final", c.algo.lr_final, 0, 1, false, "algo.lr_schedule linear: the learning rate at the schedule's end, and after it (at most algo.lr)"),
    choice("algo.optimizer", c.algo.optimizer, {{"rmsprop", algo::optimizer_kind::rmsprop}, {"adam", algo::optimizer_kind::adam}}, "optimiser (default: rmsprop for a3c, adam for ppo)"),
    number("algo.entropy_coef", c.algo.entropy_coef, 0, inf, false, "weight of the entropy bonus"),
    number("algo.value_coef", c.algo.value_coef, 0, inf, false, "weight of the value loss"),
    number("algo.bounds_coef", c.algo.bounds_coef, 0, inf, false, "hybrid actions (a Tuple or Dict of discrete and Box parts): weight of a penalty on the Box part's Gaussian means beyond its bounds, the squared excess summed over its values; one mean serves every discrete choice, so choices whose best value is a bound push it past, where clipping hides it from the policy gradient (0: none; a Box action alone has none)"),
    number("algo.max_grad_norm", c.algo.max_grad_norm, 0, inf, false, "clip the gradient's global norm to this (0: no clipping)"),
    number("algo.rmsprop_alpha", c.algo.rmsprop_alpha, 0, 1, true, "RMSprop smoothing constant"),
    number("algo.optimizer_eps", c.algo.optimizer_eps, 0, 1, true, "optimiser epsilon: the gradient scale below which RMSprop and Adam do not scale a gradient up (configs/cartpole.yaml says why it uses 0.01)"),
    integer("algo.max_rollouts_in_flight", c.algo.max_rollouts_in_flight, 1, 1024, "per agent: rollouts sent but not yet trained before the agent pauses; bounds the policy lag"),
    integer("algo.rollout_budget", c.algo.rollout_budget, 0, 1 << 20, "rollouts in flight at once (being collected, or waiting to train), all agents of a learner together, local and cluster workers': agents beyond it wait their turn, so the policy lag does not grow with agents.count (0: 2 x algo.batch_rollouts, at least 4)"),
    integer("algo.max_policy_lag", c.algo.max_policy_lag, 0, 1 << 30, "a rollout whose oldest step is more than this many parameter versions behind when its turn to train comes is dropped (counted in samples_dropped and summary.json's learner.samples_stale; 0: 8 batches' updates, i.e. 8 for a3c, 8 x algo.ppo.epochs x algo.ppo.minibatches for ppo)"),
    choice("algo.correction", c.algo.correction, {{"none", algo::correction_kind::none}, {"vtrace", algo::correction_kind::vtrace}}, "off-policy correction for the policy lag (default: vtrace for a3c, unless algo.gae_lambda < 1 asks for GAE)"),
    number("algo.vtrace.rho_bar", c.algo.vtrace_rho_bar, 0, inf, true, "V-trace: clip of the importance weight of each TD error"),
    number("algo.vtrace.c_bar", c.algo.vtrace_c_bar, 0, inf, true, "V-trace: clip of the trace coefficients"),
    number("algo.gae_lambda", c.algo.gae_lambda, 0, 1, false, "generalised advantage estimation's lambda (1: plain n-step returns; ignored with vtrace)"),
    integer("algo.ppo.epochs", c.algo.ppo.epochs, 1, 1000, "PPO: passes over each batch"),
    integer("algo.ppo.minibatches", c.algo.ppo.minibatches, 1, 1 << 20, "PPO: minibatches per epoch, each one update (a recurrent policy's are of whole environment sequences, so at most algo.batch_rollouts x env.envs_per_agent)"),
    number("algo.ppo.clip", c.algo.ppo.clip, 0, 10, true, "PPO: the probability ratio's clip range, [1 - clip, 1 + clip]"),
    number("algo.ppo.value_clip", c.algo.ppo.value_clip, 0, inf, false, "PPO: > 0 clips the value's change from the batch's start to +-this in the value loss (0: no value clipping)"),
    number("algo.ppo.target_kl", c.algo.ppo.target_kl, 0, inf, false, "PPO: > 0 ends a batch's epochs early once an epoch's mean approximate KL from the acting policy exceeds this (0: all epochs)"),
    choice("algo.ppo.targets", c.algo.ppo.targets, {{"gae", algo::ppo_targets_kind::gae}, {"vtrace", algo::ppo_targets_kind::vtrace}}, "PPO: advantages and value targets by GAE (algo.gae_lambda), or by V-trace, which corrects them for the policy lag (algo.vtrace.*)"),
    boolean("algo.ppo.normalize_advantages", c.algo.ppo.normalize_advantages, "PPO: normalise the advantages of each minibatch to mean 0 and standard deviation 1"),
    boolean("algo.ppo.recompute_advantages", c.algo.ppo.recompute_advantages, "PPO: compute the advantages and value targets again with the current network before every epoch after the first (false: once per batch, from the network as the batch began training)"),
    number("algo.reward_scale", c.algo.reward_scale, 0, inf, true, "rewards are multiplied by this for learning (metrics show the true return)"),
  };
}

// model: the network
std::vector<field> model_keys(run_config& c) {
  return {
    text("model.kind", c.model.kind, {"mlp", "cnn"}, "network kind: an MLP (model.activation), or a 3x3 convolution (model.conv_channels) then ReLU layers for image observations (H x W x C or C x H x W: model.image_layout)"),
    boolean("model.by_hand", c.model.by_hand, "a feed-forward mlp on the CPU (one categorical or a Gaussian policy for PPO's steps) runs its forward passes (the agents' predictions, eval, play) and PPO's minibatch steps on Troupe's own passes over BLAS (model/mlp_by_hand.cpp) rather than LibTorch's operations: the same arithmetic, equal within float rounding, several times faster for small networks (docs/benchmarks.md); false: LibTorch's"),
    boolean("model.shared_trunk", c.model.shared_trunk, "policy and value heads share one trunk (false: the value head gets its own)"),
    number("model.log_std_init", c.model.log_std_init, -20, 5, false, "Gaussian policies: initial log standard deviation of the actions"),
    int_list("model.hidden", c.model.hidden, 1, 65536, "widths of the hidden layers"),
    integer("model.conv_channels", c.model.conv_channels, 1, 1024, "cnn (and cnn encoders of structured observations): channels of the 3x3 convolution"),
    text("model.image_layout", c.model.image_layout, {"auto", "hwc", "chw"}, "how an image's values lie (a rank-3 Box: the observation of a cnn, or a cnn-encoded leaf): hwc (H x W x C, channels last, as Gymnasium's Atari and MinAtar), chw (C x H x W, channels first, as PyTorch's), or auto: chw when the first dimension is at most 4 and the last more than 4, else hwc"),
    name_map("model.encoders", c.model.encoders, {"cnn", "flat"}, "a structured observation's leaves (Dict keys and Tuple indices joined by '.', as troupe envs --describe names them): how the network reads each, cnn (a 3x3 convolution of its own, then the dense layers; the default for an image, a rank-3 Box) or flat (its values, one-hot for a discrete leaf; the default for the others); e.g. model.encoders.view: flat"),
    text("model.activation", c.model.activation, {"tanh", "relu"}, "activation of an mlp's hidden layers (a cnn's are ReLU); relu is several times cheaper to compute on a CPU"),
    text("model.recurrent.kind", c.model.recurrent.kind, {"none", "lstm", "gru"}, "a recurrent core between the trunk and the heads (one state per environment, reset at every episode start; trained by backpropagation through each rollout); needs model.shared_trunk: true"),
    integer("model.recurrent.size", c.model.recurrent.size, 1, 4096, "units of the recurrent core"),
  };
}

// batching: how the model-owner batches predict requests
std::vector<field> batching_keys(run_config& c) {
  return {
    integer("batching.max_batch", c.batching.max_batch, 1, 1 << 20, "observations per forward pass at most"),
    integer("batching.max_wait_us", c.batching.max_wait_us, 0, 1000000, "a batch that is not full waits this long for more requests (0: flush as soon as none is waiting)"),
    integer("batching.reply_threads", c.batching.reply_threads, 0, 64, "threads that help the model-owner send replies (each reply wakes an agent's thread); 0: " + batching_config::automatic_reply_threads()),
    boolean("batching.lane", c.batching.lane, "agents in the model-owner's process ask it through its lane (a slot per agent, one futex wake per reply) rather than by an actor message each way; false: by messages, as a cluster worker's agents do"),
  };
}

// devices and replicas: one parameter replica per device
std::vector<field> devices_keys(run_config& c) {
  return {
    device_list("devices", c.devices, "one parameter replica (model-owner and learner) per entry; agents are spread over them round-robin; [cpu, cpu] runs two replicas on the CPU"),
    integer("replicas.max_lag", c.replicas.max_lag, 1, 1000000, "with several devices: no replica is ever more than this many of another replica's own updates behind it (a replica that would get further ahead waits)"),
  };
}

// checkpoint: checkpoints and the best policy
std::vector<field> checkpoint_keys(run_config& c) {
  return {
    number("checkpoint.every_seconds", c.checkpoint.every_seconds, 0, inf, false, "seconds between checkpoints (0: only at the end)"),
    integer("checkpoint.keep", c.checkpoint.keep, 1, 1000, "newest checkpoints kept in the run directory"),
    integer("checkpoint.best.episodes", c.checkpoint.best.episodes, 0, 100000, "the run keeps its best policy in RUN/checkpoints/best.pt: now and then this many fresh episodes of the current parameters are played (sampled actions), and parameters that score at least as well as every evaluation before replace it (a target's confirmation counts too); eval, play and export take --best (0: no best.pt)"),
    number("checkpoint.best.time_share", c.checkpoint.best.time_share, 0, 1, true, "at most this share of the run's wall time goes to the evaluations of checkpoint.best.episodes (run.deterministic: of the episodes played, evaluations' against training's)"),
  };
}

// log: progress lines, metrics and plots
std::vector<field> log_keys(run_config& c) {
  return {
    boolean("log.progress", c.log.progress, "print a progress line"),
    number("log.progress_seconds", c.log.progress_seconds, 0.05, 3600, false, "seconds between progress lines and metrics.csv rows"),
    integer("log.progress_env_steps", c.log.progress_env_steps, 0, std::numeric_limits<long long>::max(), "> 0: a progress line and metrics.csv row every this many env steps instead of every log.progress_seconds (0: by time; a run.deterministic run then writes one every 10000 env steps)"),
    boolean("log.tensorboard", c.log.tensorboard, "write RUN_DIR/tensorboard/ (tensorboard --logdir RUN_DIR/tensorboard): each metrics.csv row as TensorBoard scalars against env steps (episode/return_mean, episode/length_mean, loss/*, policy/entropy, policy/approx_kl, policy/clip_fraction, train/lr, train/policy_lag_*, perf/*), handed to the system row by row"),
    boolean("log.plot", c.log.plot, "after the run, draw RUN_DIR/curves.png with scripts/plot.py (needs python3 with matplotlib)"),
  };
}

// cluster: the cluster port and the frame stream
std::vector<field> cluster_keys(run_config& c) {
  return {
    optional_text("cluster.token", c.cluster.token, "troupe serve: the shared secret workers must present (else --token, or TROUPE_CLUSTER_TOKEN; else a random one is printed); also the frame stream's (--view-port) unless --view-token says otherwise; never sent to workers nor written to the run directory"),
    optional_text("cluster.tls.certificate", c.cluster.tls.certificate, "troupe serve, and the frame stream (--view-port): PEM certificate of this node; with key and ca, workers and viewers connect over TLS"),
    optional_text("cluster.tls.key", c.cluster.tls.key, "troupe serve: PEM private key of cluster.tls.certificate"),
    optional_text("cluster.tls.ca", c.cluster.tls.ca, "troupe serve: PEM CA certificate that workers' certificates must be signed by"),
    integer("cluster.max_connections", c.cluster.limits.max_connections, 1, 1000000, "connections the cluster port (and the frame stream, each) keeps at once; more are closed at once"),
    integer("cluster.max_connections_per_host", c.cluster.limits.max_connections_per_host, 1, 1000000, "of those, from one address"),
    number("cluster.handshake_timeout_s", c.cluster.limits.handshake_timeout_s, 0, 3600, true, "a connection that has not completed its handshake by then is closed"),
    number("cluster.idle_timeout_s", c.cluster.limits.idle_timeout_s, 10, 86400, false, "a connection silent this long, or holding a message begun this long ago, is closed (Troupe's peers send a heartbeat every 5 s)"),
    integer("cluster.max_message_bytes", c.cluster.limits.max_message_bytes, 1024, 4294967295LL, "a peer's message larger than this closes its connection before it is read (CAF would allocate its size up front)"),
  };
}

// selfplay: a game against the learner's own snapshots
std::vector<field> selfplay_keys(run_config& c) {
  return {
    boolean("selfplay.enabled", c.selfplay.enabled, "the learning policy plays a game from a seat (ConnectFour-v0, DuelPong-v0, Nim3-v0, a PettingZoo AEC game in Python) against itself and a pool of its frozen snapshots (one drawn per episode plays every other seat), each served by a model-owner of its own, and the run keeps Elo ratings of the learner and every snapshot (docs/multiagent.md); env.opponent is then unused, env.seat still says which seat the learner takes; with two policies (policies:), each plays a league of the other's snapshots"),
    integer("selfplay.snapshot_every_updates", c.selfplay.snapshot_every_updates, 1, 100000000, "a frozen snapshot of the learning policy joins the pool every this many updates"),
    integer("selfplay.pool_size", c.selfplay.pool_size, 1, 64, "snapshots kept in the pool (the oldest leaves first); each is a model-owner of its own"),
    text_list("selfplay.builtin", c.selfplay.builtin, "built-in players that join the league beside the snapshots, rated like them (random; turn-based games: alphabeta:1 to alphabeta:8; DuelPong-v0: track; python:MODULE:CALLABLE, a scripted player); [] none"),
    number("selfplay.builtin_probability", c.selfplay.builtin_probability, 0, 1, false, "the share of episodes played against a built-in player of selfplay.builtin (drawn uniformly among them)"),
    number("selfplay.latest_probability", c.selfplay.latest_probability, 0, 1, false, "of the episodes not against a built-in player, the share played against the learning policy itself (the rest against a snapshot drawn from the pool; all of them while the pool is empty)"),
    text("selfplay.sampling", c.selfplay.sampling, {"uniform", "pfsp"}, "how a snapshot is drawn: uniform, or pfsp (prioritised fictitious self-play: weight (1 - p)^2, p the learner's mean score against it, so the snapshots it beats least are drawn most)"),
    number("selfplay.elo_k", c.selfplay.elo_k, 0, 1000, true, "Elo's step per game, for the learner's and the snapshots' ratings"),
    number("selfplay.random_opening.probability", c.selfplay.random_opening.probability, 0, 1, false, "turn-based games (a simultaneous game ignores it, so one config serves both): the share of training episodes that begin with random moves (1 to selfplay.random_opening.max_moves of them, drawn uniformly, each a legal move drawn uniformly for whoever is to move), so the learner meets positions its own openings never lead to, from either seat and against players that have met them too; the moves are no one's steps and count in no return; evaluation (troupe eval, the run's evaluator, troupe play) starts every game from the beginning; 0: none"),
    integer("selfplay.random_opening.max_moves", c.selfplay.random_opening.max_moves, 1, 1000, "turn-based games: the most random moves an opening of selfplay.random_opening.probability has (its count is drawn uniformly from 1 to this)"),
  };
}

// pbt: population-based training
std::vector<field> pbt_keys(run_config& c) {
  return {
    integer("pbt.population", c.pbt.population, 0, 64, "population-based training (docs/pbt.md): this many members (at least 2), each the run's config as a policy of its own (model-owner, learner, optimiser state, normalisers, metrics and checkpoints in RUN/members/I/, agents.count agents), all training side by side; run.stop.env_steps counts every member's steps; 0: none"),
    integer("pbt.interval_env_steps", c.pbt.interval_env_steps, 1, std::numeric_limits<long long>::max(), "a member's own env steps between its decisions (exploit, then explore)"),
    number("pbt.truncation", c.pbt.truncation, 0, 0.5, true, "at a decision, a member ranked in the bottom fraction (by pbt.objective) copies a member of the top fraction that scores better: its parameters, optimiser state and normalisers, then explores"),
    number_list("pbt.perturb", c.pbt.perturb, 0, inf, true, "explore: each hyperparameter is multiplied by one of these factors, drawn uniformly (then clipped to its range)"),
    number("pbt.resample_probability", c.pbt.resample_probability, 0, 1, false, "explore: the chance that a hyperparameter is drawn afresh from its range (on its scale) instead of perturbed"),
    text("pbt.objective", c.pbt.objective, {"mean_return"}, "what ranks the members: the mean return of their last run.stop.window episodes"),
    hyperparam_ranges("pbt.hyperparams", c.pbt.hyperparams, "the hyperparameters explored, each algo.KEY: {min, max, scale: log | linear, init: [lo, hi]} (init: where members start, drawn on the scale; default [min, max]); only keys every update reads afresh: algo.lr, algo.entropy_coef, algo.value_coef, algo.gamma, algo.gae_lambda, algo.ppo.clip, algo.max_grad_norm, algo.bounds_coef"),
  };
}

}  // namespace

std::vector<field> fields_of(run_config& c) {
  std::vector<field> all;
  for (auto section : {run_keys, env_keys, agents_keys, algo_keys, model_keys, batching_keys,
                       devices_keys, checkpoint_keys, log_keys, cluster_keys, selfplay_keys, pbt_keys})
    for (field& f : section(c)) all.push_back(std::move(f));
  return all;
}

}  // namespace troupe::run
