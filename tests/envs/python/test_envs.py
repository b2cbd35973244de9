"""Small environments for Troupe's tests of its Python bridge: one that is
easy to learn, and ones that fail on purpose (raise, die, offer spaces
Troupe cannot take). numpy only; the spaces are stand-ins named as
gymnasium's (Troupe reads spaces by their type's name)."""
import os
import signal
import sys

import numpy as np

# The stand-ins for gymnasium's Box and Discrete that the example CartPole
# defines (examples/python_env/cartpole_py.py).
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                             "examples", "python_env"))
from cartpole_py import Box, Discrete, Spec  # noqa: E402


class Dict:
    def __init__(self, spaces):
        self.spaces = spaces

    def __repr__(self):
        return "Dict(%s)" % ", ".join("%r: %r" % item for item in self.spaces.items())


class MultiDiscrete:
    def __init__(self, nvec):
        self.nvec = list(nvec)

    def __repr__(self):
        return "MultiDiscrete(%s)" % self.nvec


class Signal:
    """Which way is the goal: the observation says (one-hot of 2), the right
    action (the side it shows, offset by the action space's start) earns 1,
    the wrong one 0; episodes last `length` steps. A policy learns it at
    once, so the run is short; `fail` decides how it breaks."""

    def __init__(self, length=10, start=0, fail=None, after=30, flag_file=None, scale=1.0):
        self.observation_space = Box(0.0, 1.0, (2,))
        self.action_space = Discrete(2, start)
        self.spec = Spec("Signal", length)
        self.length, self.start, self.scale = length, start, scale
        self.fail, self.after, self.flag_file = fail, after, flag_file
        self.rng = np.random.default_rng(0)
        self.steps_alive = 0

    def _observe(self):
        obs = np.zeros(2, dtype=np.float32)
        obs[self.goal] = self.scale
        return obs

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.goal = int(self.rng.integers(2))
        self.t = 0
        return self._observe(), {}

    def step(self, action):
        self.steps_alive += 1
        if self.fail and self.steps_alive == self.after:
            self._break()
        reward = 1.0 if int(action) - self.start == self.goal else 0.0
        self.t += 1
        self.goal = int(self.rng.integers(2))
        return self._observe(), reward, False, self.t >= self.length, {}

    def _break(self):
        # With a flag file, only the first environment to get here breaks:
        # the run then finishes on restarted agents.
        if self.flag_file:
            if os.path.exists(self.flag_file):
                return
            open(self.flag_file, "w").close()
        if self.fail == "raise":
            raise RuntimeError("raised on purpose by the test environment")
        if self.fail == "exit":
            os._exit(3)
        if self.fail == "segfault":
            os.kill(os.getpid(), signal.SIGSEGV)
        if self.fail == "hang":
            signal.pause()


def signal_env(**kwargs):
    # A machine without what the environment needs (a cluster test's worker).
    if os.environ.get("TROUPE_TEST_NO_SIGNAL"):
        raise RuntimeError("this machine cannot make the Signal environment")
    return Signal(**kwargs)


def dict_observations():
    env = Signal()
    env.observation_space = Dict({"position": Box(0, 1, (2,)), "speed": Box(0, 1, (1,))})
    return env


def multi_discrete_actions():
    env = Signal()
    env.action_space = MultiDiscrete([2, 3])
    return env


def raising_constructor():
    raise ValueError("this constructor refuses on purpose")


not_callable = 42


class Echo:
    """Observes the last action it was given, as float64 (Troupe converts
    observations to float32); rewards its sum. Its action space is a 2 x 2
    Box of float64, so the actions arrive reshaped and cast."""

    def __init__(self):
        self.observation_space = Box(-10.0, 10.0, (4,), dtype=np.float64)
        self.action_space = Box(-1.0, 1.0, (2, 2), dtype=np.float64)
        self.last = np.zeros((2, 2))

    def reset(self, seed=None, options=None):
        self.last = np.full((2, 2), float(seed % 7))
        return self.last.ravel().copy(), {}

    def step(self, action):
        assert action.shape == (2, 2) and action.dtype == np.float64, (action.shape, action.dtype)
        self.last = np.array(action)
        return self.last.ravel().copy(), float(action.sum()), False, False, {}


class Rooms:
    """A Discrete observation (room start .. start + n - 1) that Troupe
    one-hot encodes; the action picks the next room directly."""

    def __init__(self, n=3, start=1):
        self.observation_space = Discrete(n, start)
        self.action_space = Discrete(n)
        self.n, self.start = n, start

    def reset(self, seed=None, options=None):
        self.room = self.start + seed % self.n
        return self.room, {}

    def step(self, action):
        self.room = self.start + int(action)
        return self.room, 0.0, False, False, {}


def echo():
    return Echo()


def rooms(**kwargs):
    return Rooms(**kwargs)


class LegalMoves:
    """Example/LegalMoves-v0 (envs/examples/legal_moves.hpp) in Python, its
    legal actions in info["action_mask"] as Gymnasium's Taxi-v3 gives them
    (an int8 array): 5 actions, a random non-empty set of them legal at each
    step and shown in the observation, +1 for the highest legal one, 20
    steps. An illegal action raises. `bad` breaks the mask at step 3 of an
    episode: "short" (4 values), "none_legal" (all 0), "two" (a 2 in it)."""

    def __init__(self, bad=None):
        self.observation_space = Box(0.0, 1.0, (5,))
        self.action_space = Discrete(5)
        self.spec = Spec("LegalMoves", 20)
        self.bad = bad

    def _draw(self):
        self.legal = int(self.rng.integers(1, 32))

    def _observe(self):
        return np.array([(self.legal >> a) & 1 for a in range(5)], dtype=np.float32)

    def _info(self):
        mask = self._observe().astype(np.int8)
        if self.bad and self.t == 3:
            mask = {"short": mask[:4], "none_legal": np.zeros(5, dtype=np.int8),
                    "two": np.full(5, 2, dtype=np.int8)}[self.bad]
        return {"action_mask": mask}

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.t = 0
        self._draw()
        return self._observe(), self._info()

    def step(self, action):
        a = int(action)
        if not (self.legal >> a) & 1:
            raise ValueError("action %d is not legal in this state" % a)
        reward = 1.0 if a == self.legal.bit_length() - 1 else 0.0
        self.t += 1
        self._draw()
        return self._observe(), reward, False, self.t >= 20, self._info()
