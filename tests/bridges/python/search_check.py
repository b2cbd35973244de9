"""Checks of the Python bridge's searching player (bridges/python/troupe_games.py),
run by tests/bridges/python/search_test.cpp:

    search_check.py BRIDGE_DIR GAME_DIR

- state_copy copies a game's state as copy.deepcopy would: nothing of the
  copy is the original's but what cannot change, an object held twice is
  copied once, and kinds that say how they copy keep their own way;
- AecTurns.best_moves, with the table that a host keeps across searches,
  finds the moves a plain minimax of the mover's rewards finds (no pruning,
  no table, copies by the game's own clone()), at every depth, in positions
  of many random games of tic-tac-toe (examples/python_game/tictactoe.py),
  and through a forwarding wrapper that has no clone(), which a search
  copies with state_copy.

Exits 1 with what differs, 0 when everything holds.
"""
import copy
import random
import sys

sys.path[:0] = sys.argv[1:3]
import numpy as np  # noqa: E402
import tictactoe  # noqa: E402
import troupe_games  # noqa: E402

failures = []


def check(holds, what):
    if not holds:
        failures.append(what)


# --- state_copy ---------------------------------------------------------


class Piece:
    def __init__(self, squares):
        self.squares = squares


class Pickled:
    """Says how it pickles: copied by copy.deepcopy, which calls these."""

    def __init__(self):
        self.calls = 0
        self.items = [1, 2]

    def __getstate__(self):
        return {"items": self.items, "calls": self.calls + 1}

    def __setstate__(self, state):
        vars(self).update(state)


shared = [1, 2, 3]
state = {"board": Piece(shared), "again": shared, "grid": np.zeros((2, 2)), "pair": (shared, "x"),
         "plain": (1, "a", None), "pickled": Pickled(), "nested": {"a": [{"b": [0]}]}}
made = troupe_games.state_copy(state, {})
check(made["again"] is made["board"].squares, "an object held twice is copied once")
check(made["again"] is not shared and made["again"] == shared, "a list is copied")
check(made["pair"][0] is made["again"], "a tuple's list is the one copy")
check(made["plain"] is state["plain"], "a tuple of scalars is shared")
check(made["grid"] is not state["grid"] and made["grid"].shape == (2, 2), "an array is copied")
check(made["pickled"].calls == 1, "a kind that says how it pickles is copied its way")
made["board"].squares.append(4)
made["grid"][0, 0] = 5
made["nested"]["a"][0]["b"].append(1)
check(shared == [1, 2, 3], "the copy's list changed the original's")
check(state["grid"][0, 0] == 0, "the copy's array changed the original's")
check(state["nested"] == {"a": [{"b": [0]}]}, "the copy's nested list changed the original's")


# --- best_moves against a plain minimax ---------------------------------


class Forwarding:
    """A wrapper as PettingZoo's are: it holds the game in `env` and
    forwards what it does not have. It has no clone() of its own."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.env, name)

    def step(self, action):
        self.env.step(action)

    def observe(self, agent):
        return self.env.observe(agent)

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)


def inner(env):
    return env.env if isinstance(env, Forwarding) else env


def legal(env):
    return [k for k, free in enumerate(env.observe(env.agent_selection)["action_mask"]) if free]


def minimax(env, depth, root):
    """The root's rewards over `depth` moves of `env`, its mover to play."""
    values = [line(env, k, depth, root) for k in legal(env)]
    return max(values) if env.agent_selection == root else min(values)


def line(env, action, depth, root):
    game = inner(env).clone()
    mover = game.agent_selection
    before = 0.0 if mover == root else float(game._cumulative_rewards.get(root, 0.0))
    game.step(action)
    gained = float(game._cumulative_rewards.get(root, 0.0)) - before
    selected = game.agent_selection
    if depth <= 1 or game.terminations.get(selected) or game.truncations.get(selected):
        return gained
    return gained + minimax(game, depth - 1, root)


def best_by_minimax(env, depth):
    root = env.agent_selection
    values = {k: line(env, k, depth, root) for k in legal(env)}
    top = max(values.values())
    return sorted(k for k, v in values.items() if v >= top - 1e-9)


for wrap in (lambda game: game, Forwarding):
    games = [wrap(tictactoe.make()) for _ in range(4)]
    for g, game in enumerate(games):
        game.reset(seed=g)
    host = troupe_games.GameHost({"action_mask": "auto"}, games, np)
    rng = random.Random(7)
    positions = 0
    for episode in range(10):
        g = episode % len(games)
        game = games[g]
        game.reset(seed=episode)
        while not (game.terminations.get(game.agent_selection) or game.truncations.get(game.agent_selection)):
            for depth in (1, 2, 3, 5):
                found = sorted(host.rules.best_moves(g, depth))
                expected = best_by_minimax(game, depth)
                check(found == expected, "%s, board %s, depth %d: best_moves %s, minimax %s"
                      % (type(game).__name__, inner(game).board, depth, found, expected))
            positions += 1
            game.step(rng.choice(legal(game)))
    check(positions > 60, "%d positions searched" % positions)
    check(len(host.rules.table) > 0, "the host's table kept no position")
    print("%s: %d positions, depths 1, 2, 3 and 5, the table holding %d" % (type(games[0]).__name__, positions,
                                                                  len(host.rules.table)))

for failure in failures[:20]:
    print("search_check: " + failure)
sys.exit(1 if failures else 0)
