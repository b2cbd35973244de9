#!/usr/bin/env python3
"""Plays one of tests/bridges/python/test_envs.py's masked environments with a
policy exported by `troupe export`, in PyTorch alone: the module takes the
environment's Dict observation as it is (its "action_mask" key included)
and masks the logits inside; the greedy action is read from its outputs.

    play_exported.py routing|aim POLICY.pt EPISODES

routing: MultiDiscrete([4 3]) actions, each component's logits in turn.
aim: a hybrid action, Tuple(Dict{aim: Box(1)}, Discrete(3)): the choice's
logits, then the aim's mean, clipped to the module's bounds.

Prints "mean_return X"; exits 1 when the policy chose a masked action (or
an aim out of bounds): the environments raise on either."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bridges", "python"))
from test_envs import Aim, Routing  # noqa: E402


def row(values):
    return torch.tensor(values).reshape(1, -1)


def routing_action(module, obs):
    policy = module({"target": torch.tensor([obs["target"]]), "flags": row(obs["flags"]),
                     "noise": row(obs["noise"]), "action_mask": row(obs["action_mask"])})[0][0]
    return np.array([int(part.argmax()) for part in torch.split(policy, list(module.action_heads))])


def aim_action(module, obs):
    assert module.action_space == "hybrid", module.action_space
    policy = module({"target": torch.tensor([obs["target"]]), "echo": row(obs["echo"]),
                     "action_mask": row(obs["action_mask"])})[0][0]
    (choices,) = list(module.action_heads)
    aim = np.clip(policy[choices:].numpy(), module.action_low[0], module.action_high[0])
    return {"aim": aim.astype(np.float32)}, int(policy[:choices].argmax())


GAMES = {"routing": (Routing, routing_action), "aim": (Aim, aim_action)}


def main():
    make, act = GAMES[sys.argv[1]]
    module = torch.jit.load(sys.argv[2])
    env = make()
    returns = []
    for episode in range(int(sys.argv[3])):
        obs, _ = env.reset(seed=1000 + episode)
        total, done = 0.0, False
        while not done:
            with torch.no_grad():
                action = act(module, obs)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += reward
            done = terminated or truncated
        returns.append(total)
    print("mean_return %.4f" % (sum(returns) / len(returns)))


if __name__ == "__main__":
    main()
