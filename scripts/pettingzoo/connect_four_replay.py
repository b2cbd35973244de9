"""A scripted Connect Four player (troupe eval --opponent
python:connect_four_replay:player) that replays every game it is shown in
PettingZoo's own connect_four_v3 and checks, at each of its moves, that the
observation and action mask Troupe's native ConnectFour-v0 gave it are
PettingZoo's for the same moves (scripts/check_pettingzoo.sh runs it).

It learns the other side's move from the one new piece of plane 1 between
its turns (a column, whatever the rows' order) and plays that column in
PettingZoo, so a difference in the rows' order, the planes, the gravity or
the mask shows as a position that differs. One line of JSON per position
goes to $REPLAY_LOG. One game at a time: troupe eval --episodes 1."""
import json
import os
import random

import numpy as np
from pettingzoo.classic import connect_four_v3

ROWS, COLUMNS = 6, 7
game = {"env": None, "theirs": None, "rng": random.Random(int(os.environ.get("REPLAY_SEED", "1")))}


def new_game():
    env = connect_four_v3.env()
    env.reset(seed=0)
    game["env"] = env
    game["theirs"] = np.zeros((ROWS, COLUMNS), np.float32)


def player(observation, action_mask):
    seen = np.asarray(observation, np.float32).reshape(ROWS, COLUMNS, 2)
    mask = np.asarray(action_mask, np.int8)
    if game["env"] is None or (seen[:, :, 0].sum() == 0 and seen[:, :, 1].sum() <= 1):
        new_game()
    env = game["env"]
    # Plane 1 is the other side's pieces: the one not in our last view is its move.
    added = np.argwhere(seen[:, :, 1] - game["theirs"] > 0)
    if len(added) == 1:
        env.step(int(added[0][1]))
    pettingzoo_view = env.observe(env.agent_selection)  # PettingZoo's, for the mover
    record = {
        "pieces": int(seen.sum()),
        "full_columns": int(COLUMNS - mask.sum()),
        "other_moves_seen": len(added),
        "observation_equal": bool(np.array_equal(pettingzoo_view["observation"].astype(np.float32), seen)),
        "mask_equal": bool(np.array_equal(pettingzoo_view["action_mask"].astype(np.int8), mask)),
    }
    with open(os.environ["REPLAY_LOG"], "a") as log:
        log.write(json.dumps(record) + "\n")
    # Half the time the leftmost legal column, so that columns fill up and
    # full ones are masked; otherwise any legal one.
    legal = [a for a in range(COLUMNS) if mask[a]]
    action = legal[0] if game["rng"].random() < 0.5 else game["rng"].choice(legal)
    env.step(action)
    game["theirs"] = seen[:, :, 1].copy()
    return action
