#!/usr/bin/env python3
"""Plays tests/envs/python/test_envs.py's Routing with a policy exported by
`troupe export`, in PyTorch alone: the module takes Routing's Dict
observation as it is (its "action_mask" key included) and masks inside.

    play_routing.py POLICY.pt EPISODES

Prints "mean_return X"; exits 1 when the policy chose a masked action
(Routing raises on one)."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "envs", "python"))
from test_envs import Routing  # noqa: E402


def as_tensors(obs):
    return {"target": torch.tensor([obs["target"]]),
            "flags": torch.tensor(obs["flags"]).reshape(1, -1),
            "noise": torch.tensor(obs["noise"]).reshape(1, -1),
            "action_mask": torch.tensor(obs["action_mask"]).reshape(1, -1)}


def main():
    module = torch.jit.load(sys.argv[1])
    heads = list(module.action_heads)
    env = Routing()
    returns = []
    for episode in range(int(sys.argv[2])):
        obs, _ = env.reset(seed=1000 + episode)
        total, done = 0.0, False
        while not done:
            with torch.no_grad():
                logits = module(as_tensors(obs))[0][0]
            action = [int(part.argmax()) for part in torch.split(logits, heads)]
            obs, reward, terminated, truncated, _ = env.step(np.array(action))
            total += reward
            done = terminated or truncated
        returns.append(total)
    print("mean_return %.4f" % (sum(returns) / len(returns)))


if __name__ == "__main__":
    main()
