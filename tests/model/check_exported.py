#!/usr/bin/env python3
"""Loads a policy exported by `troupe export` with PyTorch alone and checks
its outputs against those Troupe recorded for the same inputs.

    check_exported.py POLICY.pt RECORDED.json

RECORDED.json: {"steps": [{"obs": [...], "policy": [...], "value": [...]}] (each
flat, row after row; a structured observation's step has "obs_dict": {key:
{"values": [...], "shape": [...], "integer": bool}} instead of "obs", and a
step may have "mask": [...] to pass as the module's mask),
"log_std": [...] or null}; a recurrent policy's state starts from
initial_state and is carried from step to step. Exit 0 when every output is
within 1e-5, 1 otherwise (saying where)."""

import json
import sys

import torch


def main():
    module = torch.jit.load(sys.argv[1])
    with open(sys.argv[2]) as f:
        recorded = json.load(f)
    state = None
    for t, step in enumerate(recorded["steps"]):
        if "obs_dict" in step:
            obs = {key: torch.tensor(leaf["values"], dtype=torch.int64 if leaf["integer"] else torch.float32)
                   .reshape(leaf["shape"]) for key, leaf in step["obs_dict"].items()}
            rows = next(iter(obs.values())).shape[0]
        else:
            obs = torch.tensor(step["obs"], dtype=torch.float32).reshape([-1] + list(module.observation_shape))
            rows = obs.shape[0]
        mask = torch.tensor(step["mask"], dtype=torch.uint8).reshape(rows, -1) if "mask" in step else None
        if module.state_size > 0:
            if state is None:
                state = module.initial_state(rows)
            policy, value, state = module(obs, state, mask)
        else:
            policy, value = module(obs, mask)
        for name, got in (("policy", policy), ("value", value)):
            want = torch.tensor(step[name], dtype=torch.float32)  # flat, row after row
            if got.numel() != want.numel():
                print("step %d: %s has %d values, Troupe's %d" % (t, name, got.numel(), want.numel()))
                return 1
            want = want.reshape(got.shape)
            if not torch.allclose(got, want, rtol=0, atol=1e-5):
                print("step %d: %s differs by %g" % (t, name, (got - want).abs().max().item()))
                return 1
    if recorded.get("log_std") is not None:
        if not torch.allclose(module.log_std, torch.tensor(recorded["log_std"]), rtol=0, atol=1e-6):
            print("log_std differs")
            return 1
    print("ok: %d steps of %s" % (len(recorded["steps"]), module.env_id))
    return 0


if __name__ == "__main__":
    sys.exit(main())
