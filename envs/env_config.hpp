#pragma once
#include <map>
#include <string>
#include <vector>

#include "envs/env_id.hpp"

namespace troupe::envs {

// Options of the MinAtar games (ignored by other environments).
struct minatar_options {
  double sticky_action_prob = 0.1;  // repeat the previous action with this probability
  bool full_action_set = false;     // all six actions instead of the game's minimal set
  bool difficulty_ramping = true;
};

// A two-player game played as one agent against a built-in opponent
// (ConnectFour-v0; ignored by other environments).
struct opponent_options {
  std::string opponent = "random";  // random | alphabeta:DEPTH (1-8)
  std::string seat = "alternate";   // alternate (drawn per episode) | first | second | third ... | all
  // With seat all: the agents the policy plays, by name or pattern
  // (player_*); empty: every agent of the game.
  std::vector<std::string> team;
};

// Self-play's random openings (selfplay.random_opening): with `probability`
// a training episode of a turn-based game begins with 1 to `max_moves`
// (drawn uniformly) legal moves drawn uniformly at random, whoever is to
// move, before any player's first move. The policy then meets positions its
// own openings never lead to, against players that have met them too.
struct opening_options {
  double probability = 0;
  int max_moves = 2;
};

// One env.mujoco value as the config wrote it: a scalar, or a list of
// scalars (a range). The MuJoCo task it is for reads and checks it
// (envs/mujoco/task_options.hpp).
struct mujoco_setting {
  std::vector<std::string> scalars;
  bool list = false;
};

// The `env` section of a run config.
struct env_config {
  // A registered id, python:MODULE:CALLABLE, gymnasium:ENV_ID or plugin:PATH.so.
  env_id id = "CartPole-v1";
  int envs_per_agent = 8;
  minatar_options minatar;
  opponent_options versus;
  // MuJoCo tasks: Gymnasium v4's keyword arguments by name (env.mujoco.NAME).
  std::map<std::string, mujoco_setting> mujoco;
  // Keep only these elements of a Box observation (flat indices); empty: all.
  std::vector<int> observe;
  // Python and plugin environments (bridges/python/, bridges/plugin/):
  std::string python;                    // the interpreter; empty: python3 (see interpreter.hpp)
  std::vector<std::string> python_path;  // put before sys.path in the host
  std::string kwargs = "{}";             // a JSON object: keyword arguments, or a plugin's options
  int processes_per_agent = 1;           // Python processes each agent's environments share
  // Python environments: where their action masks come from: "auto" (a
  // Dict observation's "action_mask" key, else info["action_mask"] when
  // reset's info has one), "observation" or "info" (it must be there),
  // "none" (every action is legal).
  std::string action_mask = "auto";
};

}  // namespace troupe::envs
