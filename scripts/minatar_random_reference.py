#!/usr/bin/env python3
"""Random-policy returns and lengths of the reference MinAtar implementation.

Runs the reference code itself (github.com/kenjyoung/MinAtar; GPL, so it is
never copied into this repository, only imported from a checkout) and writes
the statistics that `troupe rollout MinAtar/<Game>-v1 --policy random` is
compared against (tests/data/minatar_random_reference.json).

What is measured is what `MinAtar/<Game>-v1` means in the reference's gym
registration: the game's minimal action set, sticky actions with probability
0.1 and difficulty ramping on (the Environment defaults). The policy picks an
index uniformly from the minimal set, as `troupe rollout --policy random`
does. An episode runs until the game signals terminal; neither side adds a
time limit (Freeway ends on its own 2500-frame clock).

The gym wrapper itself is not imported, because it needs gymnasium and adds
nothing here: its step() maps the index through the minimal action set and
calls Environment.act(), which is what this script does.

Like one gym environment used for many episodes, one Environment is seeded
once and reset between episodes, so its generator and previous executed
action carry over. (troupe rollout instead reseeds every episode and starts
each with the no-op as the previous action; that only changes the sticky
substitute on an episode's first frame, far below the noise of 1000 episodes.)

Usage (numpy is the only dependency; Debian: apt-get install python3-numpy):
  git clone https://github.com/kenjyoung/MinAtar /tmp/MinAtar
  git -C /tmp/MinAtar checkout 4241f24685622cfb52f843cab9bbcf385a53484a
  scripts/minatar_random_reference.py /tmp/MinAtar --out tests/data/minatar_random_reference.json
"""
import argparse
import json
import logging
import math
import subprocess
import sys
import time

GAMES = [
    # (reference module name, our environment id)
    ("asterix", "MinAtar/Asterix-v1"),
    ("breakout", "MinAtar/Breakout-v1"),
    ("freeway", "MinAtar/Freeway-v1"),
    ("seaquest", "MinAtar/Seaquest-v1"),
    ("space_invaders", "MinAtar/SpaceInvaders-v1"),
]


def stats(values):
    """Mean, population standard deviation, min and max (as troupe rollout reports them)."""
    n = len(values)
    mean = sum(values) / n
    std = math.sqrt(sum((v - mean) ** 2 for v in values) / n)
    return {"mean": mean, "std": std, "min": min(values), "max": max(values)}


def checkout_commit(path):
    """The commit of a git checkout, or None when `path` is not one (e.g. an archive)."""
    try:
        out = subprocess.run(["git", "-C", path, "rev-parse", "HEAD"], capture_output=True,
                             text=True, check=True)
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def run_game(environment_class, game, episodes, seed, sticky, ramping):
    import numpy as np

    env = environment_class(game, sticky_action_prob=sticky, difficulty_ramping=ramping)
    env.seed(seed)
    actions = env.minimal_action_set()
    # The policy's own generator, separate from the environment's, so the
    # environment's random stream is exactly what the game and wrapper draw.
    policy = np.random.RandomState(seed + 1)
    returns, lengths = [], []
    for _ in range(episodes):
        env.reset()
        total, length, terminal = 0.0, 0, False
        while not terminal:
            reward, terminal = env.act(actions[policy.randint(len(actions))])
            total += reward
            length += 1
        returns.append(total)
        lengths.append(length)
    return returns, lengths


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("minatar", help="path to a MinAtar checkout (the folder holding minatar/)")
    parser.add_argument("--episodes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--commit", help="the MinAtar commit, when the path is not a git checkout")
    parser.add_argument("--out", help="JSON file to write (default: stdout)")
    args = parser.parse_args()

    sys.path.insert(0, args.minatar)
    logging.disable(logging.WARNING)  # the reference warns when matplotlib is missing
    from minatar import Environment  # noqa: E402 (needs the path above)

    sticky, ramping = 0.1, True
    result = {
        "source": "github.com/kenjyoung/MinAtar",
        "commit": args.commit or checkout_commit(args.minatar),
        "produced_by": "scripts/minatar_random_reference.py",
        "policy": "uniform over the minimal action set",
        "sticky_action_prob": sticky,
        "difficulty_ramping": ramping,
        "episodes": args.episodes,
        "seed": args.seed,
        "std": "population standard deviation over episodes",
        "games": {},
    }
    for game, env_id in GAMES:
        started = time.time()
        returns, lengths = run_game(Environment, game, args.episodes, args.seed, sticky, ramping)
        r, l = stats(returns), stats(lengths)
        result["games"][env_id] = {
            "reference_game": game,
            "return_mean": r["mean"], "return_std": r["std"],
            "return_min": r["min"], "return_max": r["max"],
            "length_mean": l["mean"], "length_std": l["std"],
            "length_min": l["min"], "length_max": l["max"],
        }
        print(f"{env_id}: return {r['mean']:.3f} ± {r['std']:.3f}, length {l['mean']:.1f} "
              f"± {l['std']:.1f} ({time.time() - started:.0f} s)", file=sys.stderr)
    text = json.dumps(result, indent=2) + "\n"
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
