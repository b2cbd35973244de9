#pragma once
// Malformed configs and what their error message must mention, shared by the
// loader's unit test and the command-line test.
#include <string>
#include <vector>

namespace troupe::tests {

struct bad_case {
  std::string content;
  std::vector<std::string> must_contain;
};

inline std::vector<bad_case> bad_configs() {
  const std::string head = "run:\n  name: t\nenv:\n  id: CartPole-v1\n";
  return {
      {"", {"is empty"}},
      {"- just\n- a list\n", {"mapping"}},
      {"run: [unclosed\n", {"YAML syntax error", ":1:"}},
      {"run:\n  name: t\n   bad_indent: 1\n", {"YAML syntax error", ":3:"}},
      {head + "algo:\n  gamma: abc\n", {":6:10", "algo.gamma", "expected a number"}},
      {head + "algo:\n  gamma: 1.5\n", {"algo.gamma", "[0, 1]", "1.5"}},
      {head + "algo:\n  gama: 0.9\n", {":6:3", "algo.gama", "unknown key", "did you mean 'algo.gamma'"}},
      {head + "algo:\n  n_steps: 2.5\n", {"algo.n_steps", "expected an integer", "2.5"}},
      {head + "algo:\n  n_steps: 0\n", {"algo.n_steps", "[1, 10000]"}},
      {head + "algo:\n  lr: 0\n", {"algo.lr", "(0, 1]"}},
      {head + "algo:\n  optimizer: sgd\n", {"algo.optimizer", "rmsprop | adam", "'sgd'"}},
      {head + "algo: 3\n", {"algo", "expected a mapping"}},
      {head + "agents:\n  count: -1\n", {"agents.count", "[0, 1024]"}},
      {head + "cluster:\n  tls:\n    certificate: a.pem\n", {"cluster.tls needs all of certificate, key and ca"}},
      {head + "cluster:\n  token: [a]\n", {"cluster.token", "expected a string"}},
      {head + "agents:\n  count: [1]\n", {"agents.count", "expected an integer, got a list"}},
      {head + "model:\n  hidden: 64\n", {"model.hidden", "list of integers"}},
      {head + "model:\n  hidden: [64, x]\n", {"model.hidden", "'x'"}},
      {head + "devices: cpu\n", {"devices", "list"}},
      {head + "devices: [gpu]\n", {"devices", "'gpu'"}},
      {head + "devices: []\n", {"devices", "non-empty list"}},
      {head + "devices: [cpu, cuda]\n", {"devices", "'cuda'"}},
      {head + "devices: [cuda:x]\n", {"devices", "'cuda:x'"}},
      {head + "devices: [cpu, {a: 1}]\n", {"devices", "a mapping"}},
      {head + "devices: [cuda:99]\n", {"devices", "cuda:99"}},
      {head + "replicas:\n  max_lag: 0\n", {"replicas.max_lag", "[1, 1000000]"}},
      {head + "log:\n  progress: maybe\n", {"log.progress", "true or false"}},
      {head + "colour: red\n", {"colour", "unknown key"}},
      {head + "run:\n  name: again\n", {"duplicate"}},
      {"env:\n  id: CartPole-v1\n", {"missing required key 'run.name'"}},
      {"run:\n  name: t\n", {"missing required key 'env.id'"}},
      {"run:\n  name: t\nenv:\n  id: Pong\n", {"env.id", "CartPole-v1", "'Pong'"}},
      {"run:\n  name: t\nenv:\n  id: python:only_module\n", {"env.id", "python:MODULE:CALLABLE"}},
      {"run:\n  name: t\nenv:\n  id: python:a-b:make\n", {"env.id", "python:MODULE:CALLABLE"}},
      {"run:\n  name: t\nenv:\n  id: plugin:/no/such/plugin.so\n", {"env.id", "no such plugin file /no/such/plugin.so"}},
      {"run:\n  name: t\nenv:\n  id: 'gymnasium:'\n", {"env.id", "gymnasium:ENV_ID"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  kwargs: [a, b]\n", {"env.kwargs", "expected a mapping", "a list"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  python_path: envs\n", {"env.python_path", "list of strings"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  python_path: [[a]]\n", {"env.python_path", "non-empty strings"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  processes_per_agent: 0\n", {"env.processes_per_agent", "[1, 64]"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  python: [a]\n", {"env.python", "expected a string"}},
      {"run:\n  name: t\n  stop:\n    env_steps: -5\nenv:\n  id: CartPole-v1\n", {":4:16", "run.stop.env_steps", "got -5"}},
      {std::string("run:\n  name: \0\x01\x02", 16), {"not a text file"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  kwargs: {a: \"\xff\"}\n", {":5:16", "not UTF-8", "255"}},
      {"run:\n  name: caf\xc3\n", {":2:12", "not UTF-8"}},
      // Found by fuzzing: a name with carriage returns changed on its way
      // through config.yaml; a control character or YAML line break in any
      // text value is refused.
      {"run:\n  name: cartpole\r\r\r\nenv:\n  id: CartPole-v1\n", {":2:9", "run.name", "control character", "byte 13"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  python: \"py\\x85thon\"\n", {"env.python", "control character"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  python_path: [\"a\\tb\"]\n", {"env.python_path", "control character", "byte 9"}},
      {head + "cluster:\n  token: \"a\\u2028b\"\n", {"cluster.token", "line break"}},
      {"run:\n  name: ../elsewhere\nenv:\n  id: CartPole-v1\n", {":2:9", "run.name", "without '/'", "'../elsewhere'"}},
      {"run:\n  name: .hidden\nenv:\n  id: CartPole-v1\n", {"run.name", "start with '.'"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  kwargs: {a: &a [1, 1], b: &b [*a, *a], c: &c [*b, *b], d: &d [*c, *c], e: &e [*d, *d], f: &f [*e, *e], g: &g [*f, *f], h: &h [*g, *g], i: &i [*h, *h], j: &j [*i, *i], k: &k [*j, *j], l: &l [*k, *k], m: &m [*l, *l], n: &n [*m, *m], o: &o [*n, *n], p: &p [*o, *o], q: [*p, *p]}\n", {"env.kwargs", "more than 100000 values"}},
      {head + "checkpoint:\n  keep: 0\n", {"checkpoint.keep", "[1, 1000]"}},
      {head + "batching:\n  max_batch: 0\n", {"batching.max_batch"}},
      {head + "model:\n  kind: rnn\n", {"model.kind", "mlp | cnn", "'rnn'"}},
      {head + "algo:\n  correction: retrace\n", {"algo.correction", "none | vtrace"}},
      {head + "env:\n  minatar:\n    sticky_action_prob: 2\n", {"duplicate"}},
      {"run:\n  name: t\n  seed: -1\nenv:\n  id: CartPole-v1\n", {":3:9", "run.seed"}},
      {head + "log:\n  progress_seconds: 0\n", {"log.progress_seconds", "[0.05, 3600]"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  minatar:\n    sticky_action_prob: 2\n", {"env.minatar.sticky_action_prob", "[0, 1]"}},
      // PPO and normalisation: each key checked, and the combinations that cannot run.
      {head + "algo:\n  kind: ppo2\n", {"algo.kind", "a3c | ppo", "'ppo2'"}},
      {head + "algo:\n  kind: ppo\n  ppo:\n    epochs: 0\n", {"algo.ppo.epochs", "[1, 1000]"}},
      {head + "algo:\n  kind: ppo\n  ppo:\n    clip: 0\n", {"algo.ppo.clip", "(0, 10]"}},
      {head + "algo:\n  kind: ppo\n  ppo:\n    targets: retrace\n", {"algo.ppo.targets", "gae | vtrace"}},
      {head + "algo:\n  kind: ppo\n  ppo:\n    epoch: 3\n", {"algo.ppo.epoch", "unknown key", "did you mean 'algo.ppo.epochs'"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  envs_per_agent: 2\nalgo:\n  kind: ppo\n  n_steps: 4\n  ppo:\n    minibatches: 9\n",
       {"algo.ppo.minibatches", "9 minibatches of a batch of 8 samples", "at most 8"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  envs_per_agent: 2\nalgo:\n  kind: ppo\n  ppo:\n    minibatches: 3\nmodel:\n  recurrent:\n    kind: gru\n",
       {"algo.ppo.minibatches", "of a batch of 2 environment sequences"}},
      {head + "algo:\n  lr_schedule: linear\n", {"algo.lr_schedule", "run.stop.env_steps", "set one"}},
      {head + "algo:\n  lr: 0.001\n  lr_final: 0.01\n", {"algo.lr_final", "above algo.lr"}},
      {head + "algo:\n  lr_schedule: cosine\n", {"algo.lr_schedule", "constant | linear"}},
      {head + "algo:\n  kind: ppo\n  correction: vtrace\n", {"algo.correction", "algo.ppo.targets: vtrace"}},
      {head + "algo:\n  batch_rollouts: 0\n", {"algo.batch_rollouts", "[1, 65536]"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  normalize:\n    observation: yes please\n", {"env.normalize.observation", "true or false"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  normalize:\n    clip_reward: 0\n", {"env.normalize.clip_reward", "(0, inf)"}},
      {"run:\n  name: t\nenv:\n  id: CartPole-v1\n  normalize:\n    observation: true\ndevices: [cpu, cpu]\n", {"env.normalize.observation", "use one device"}},
  };
}

}  // namespace troupe::tests
