#!/usr/bin/env python3
"""Loads a policy exported by `troupe export` with PyTorch alone and checks
its outputs against those Troupe recorded for the same inputs.

    check_exported.py POLICY.pt RECORDED.json [POLICY.pt RECORDED.json ...]

RECORDED.json: {"steps": [{"obs": [...], "policy": [...], "value": [...]}] (each
flat, row after row; a structured observation's step has "obs_dict": {key:
{"values": [...], "shape": [...], "integer": bool}} instead of "obs", and a
step may have "mask": [...] to pass as the module's mask),
"log_std": [...] or null}; a recurrent policy's state starts from
initial_state and is carried from step to step. Several pairs are checked in
one process (importing torch takes about 2 s). Exit 0 when every output of
every pair is within 1e-5, 1 otherwise (saying which policy and where)."""

import json
import sys

import torch


def check(policy_path, recorded_path):
    module = torch.jit.load(policy_path)
    with open(recorded_path) as f:
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
                print("%s, step %d: %s has %d values, Troupe's %d" % (policy_path, t, name, got.numel(), want.numel()))
                return 1
            want = want.reshape(got.shape)
            if not torch.allclose(got, want, rtol=0, atol=1e-5):
                print("%s, step %d: %s differs by %g" % (policy_path, t, name, (got - want).abs().max().item()))
                return 1
    if recorded.get("log_std") is not None:
        if not torch.allclose(module.log_std, torch.tensor(recorded["log_std"]), rtol=0, atol=1e-6):
            print("%s: log_std differs" % policy_path)
            return 1
    print("ok: %d steps of %s" % (len(recorded["steps"]), module.env_id))
    return 0


def main():
    pairs = sys.argv[1:]
    if not pairs or len(pairs) % 2:
        print("usage: check_exported.py POLICY.pt RECORDED.json [POLICY.pt RECORDED.json ...]")
        return 2
    for i in range(0, len(pairs), 2):
        if check(pairs[i], pairs[i + 1]):
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
