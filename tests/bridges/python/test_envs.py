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
    def __init__(self, nvec, start=None):
        self.nvec = np.asarray(nvec, dtype=np.int64)
        if start is not None:
            self.start = np.asarray(start, dtype=np.int64)

    def __repr__(self):
        return "MultiDiscrete(%s)" % list(self.nvec)


class MultiBinary:
    def __init__(self, n):
        self.n = n

    def __repr__(self):
        return "MultiBinary(%s)" % (self.n,)


class Tuple:
    def __init__(self, spaces):
        self.spaces = tuple(spaces)

    def __repr__(self):
        return "Tuple(%s)" % ", ".join(map(repr, self.spaces))


class Text:
    """A space Troupe cannot take."""

    def __repr__(self):
        return "Text(8)"


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


def text_in_observation():
    env = Signal()
    env.observation_space = Dict({"position": Box(0, 1, (2,)), "name": Tuple([Discrete(2), Text()])})
    return env


class Spaces:
    """Every space kind Troupe takes, for the bridge's round trip. The
    observation is a Dict of a Tuple (Discrete(3, start=1), MultiBinary(2)),
    Boxes of int8, uint8 and float64, a MultiDiscrete([2 3], start [0 5]), and
    "echo": the last action as it arrived, flattened. The action is a Tuple
    (Discrete(2), MultiBinary(2), Dict{"x": MultiDiscrete([3 2])}); a value of
    the wrong type or out of its space raises. Observations follow the step
    count t (0 after a reset) so a test can write them down."""

    def __init__(self):
        self.observation_space = Dict({
            "a": Tuple([Discrete(3, start=1), MultiBinary(2)]),
            "i8": Box(-128, 127, (2,), dtype=np.int8),
            "u8": Box(0, 255, (1,), dtype=np.uint8),
            "f64": Box(-1.0, 1.0, (2,), dtype=np.float64),
            "md": MultiDiscrete([2, 3], start=[0, 5]),
            "echo": Box(-1.0, 3.0, (5,), dtype=np.float64),
        })
        self.action_space = Tuple([Discrete(2), MultiBinary(2), Dict({"x": MultiDiscrete([3, 2])})])
        self.spec = Spec("Spaces", 4)
        self.echo = np.full(5, -1.0)

    def _observe(self):
        t = self.t
        return {"a": (1 + t % 3, np.array([t % 2, 1], dtype=np.int8)),
                "i8": np.array([-t, t], dtype=np.int8),
                "u8": np.array([200], dtype=np.uint8),
                "f64": np.array([0.5, -0.25]),
                "md": np.array([t % 2, 5 + t % 3]),
                "echo": self.echo.copy()}

    def reset(self, seed=None, options=None):
        self.t = 0
        self.echo = np.full(5, -1.0)
        return self._observe(), {}

    def step(self, action):
        first, binary, rest = action
        x = rest["x"]
        if not isinstance(first, int) or first not in (0, 1):
            raise TypeError("action[0] %r is not an int of Discrete(2)" % (first,))
        if binary.dtype != np.int8 or binary.shape != (2,) or not np.isin(binary, (0, 1)).all():
            raise TypeError("action[1] %r is not a MultiBinary(2) value" % (binary,))
        if x.dtype != np.int64 or x.shape != (2,) or not (0 <= x[0] < 3 and 0 <= x[1] < 2):
            raise TypeError("action[2]['x'] %r is not a MultiDiscrete([3 2]) value" % (x,))
        self.echo = np.array([first, binary[0], binary[1], x[0], x[1]], dtype=np.float64)
        self.t += 1
        return self._observe(), 0.0, False, self.t >= 4, {}


def spaces_env():
    return Spaces()


class DrawnEachStep:
    """reset() for the environments below, which draw their state afresh at
    every step (_draw) and show it (_observe)."""

    def reset(self, seed=None, options=None):
        self.rng = np.random.default_rng(seed)
        self.t = 0
        self._draw()
        return self._observe(), {}


class Routing(DrawnEachStep):
    """A Dict observation with an "action_mask" key (PettingZoo's
    convention) and MultiDiscrete([4 3]) actions: each step shows a target
    (Discrete(4)), three flags (MultiBinary(3)) and noise (a Box); component
    0 earns 0.5 for choosing the target, component 1 earns 0.5 for choosing
    the number of set flags modulo 3. The mask allows the target and a
    random part of the other three for component 0, and hides one wrong
    choice of component 1; a masked choice raises. 10 steps: the best policy
    scores 10, a uniformly random legal one about 4.6. `bad` breaks the
    mask at step 3: "short" (6 values), "none_legal" (component 1 has no legal
    choice)."""

    def __init__(self, bad=None):
        self.observation_space = Dict({
            "target": Discrete(4),
            "flags": MultiBinary(3),
            "noise": Box(-1.0, 1.0, (2,)),
            "action_mask": MultiBinary(7),
        })
        self.action_space = MultiDiscrete([4, 3])
        self.spec = Spec("Routing", 10)
        self.bad = bad

    def _draw(self):
        self.target = int(self.rng.integers(4))
        self.flags = self.rng.integers(0, 2, 3).astype(np.int8)
        self.answer = int(self.flags.sum()) % 3
        first = self.rng.integers(0, 2, 4).astype(np.int8)
        first[self.target] = 1
        second = np.ones(3, dtype=np.int8)
        second[(self.answer + 1 + int(self.rng.integers(2))) % 3] = 0
        self.mask = np.concatenate([first, second])
        if self.bad and self.t == 3:
            self.mask = {"short": self.mask[:6],
                         "none_legal": np.concatenate([first, np.zeros(3, np.int8)])}[self.bad]

    def _observe(self):
        return {"target": self.target, "flags": self.flags.copy(),
                "noise": self.rng.uniform(-1, 1, 2).astype(np.float32), "action_mask": self.mask}

    def step(self, action):
        a = np.asarray(action)
        if a.shape != (2,) or not self.mask[a[0]] or not self.mask[4 + a[1]]:
            raise ValueError("action %r is not legal in this state (mask %r)" % (action, self.mask))
        reward = 0.5 * (a[0] == self.target) + 0.5 * (a[1] == self.answer)
        self.t += 1
        self._draw()
        return self._observe(), float(reward), False, self.t >= 10, {}


def routing(**kwargs):
    return Routing(**kwargs)


class Aim(DrawnEachStep):
    """A hybrid action (a parameterised one): Tuple(Dict{"aim": Box(-1, 1,
    (1,))}, Discrete(3)), the Box before the choice. Each step shows a
    target (Discrete(3)) and a mask ("action_mask") that hides one wrong
    choice; choosing the target earns 1 - |aim - (-0.6, 0, 0.6)[target]|,
    another choice 0. "echo" is the last action as it arrived (choice, aim;
    -2 before the first). A masked choice, an aim outside [-1, 1] or not a
    float32 array of shape (1,), or a choice not an int raises. 10 steps:
    the best policy scores 10, a uniformly random legal one about 1.9."""

    CENTRES = (-0.6, 0.0, 0.6)

    def __init__(self):
        self.observation_space = Dict({
            "target": Discrete(3),
            "echo": Box(-2.0, 2.0, (2,)),
            "action_mask": MultiBinary(3),
        })
        self.action_space = Tuple([Dict({"aim": Box(-1.0, 1.0, (1,))}), Discrete(3)])
        self.spec = Spec("Aim", 10)
        self.echo = np.full(2, -2.0, dtype=np.float32)

    def _draw(self):
        self.target = int(self.rng.integers(3))
        self.mask = np.ones(3, dtype=np.int8)
        self.mask[(self.target + 1 + int(self.rng.integers(2))) % 3] = 0
        if self.t == 0:
            self.echo = np.full(2, -2.0, dtype=np.float32)

    def _observe(self):
        return {"target": self.target, "echo": self.echo.copy(), "action_mask": self.mask.copy()}

    def step(self, action):
        part, choice = action
        aim = part["aim"]
        if not isinstance(choice, int) or not 0 <= choice < 3 or not self.mask[choice]:
            raise ValueError("choice %r is not legal in this state (mask %r)" % (choice, self.mask))
        if (not isinstance(aim, np.ndarray) or aim.dtype != np.float32 or aim.shape != (1,)
                or not -1.0 <= aim[0] <= 1.0):
            raise ValueError("aim %r is not a float32 value of Box(-1, 1, (1,))" % (aim,))
        reward = 1.0 - abs(float(aim[0]) - self.CENTRES[self.target]) if choice == self.target else 0.0
        self.echo = np.array([choice, aim[0]], dtype=np.float32)
        self.t += 1
        self._draw()
        return self._observe(), reward, False, self.t >= 10, {}


def aim():
    return Aim()


class Glimpse(DrawnEachStep):
    """A Dict observation with an image: "view" is a 5 x 5 x 2 Box, dark but
    for one bright cell of channel 0 in column 0, 1, 3 or 4; "clock" a
    Discrete(11) of the step (0-10). Action 0 earns 1 when the cell is left of the
    middle, action 1 when it is right of it; 10 steps. A random policy
    scores 5, one that reads the image 10."""

    def __init__(self):
        self.observation_space = Dict({"view": Box(0.0, 1.0, (5, 5, 2)), "clock": Discrete(11)})
        self.action_space = Discrete(2)
        self.spec = Spec("Glimpse", 10)

    def _observe(self):
        view = np.zeros((5, 5, 2), dtype=np.float32)
        view[int(self.rng.integers(5)), self.column, 0] = 1.0
        view[:, :, 1] = 0.1
        return {"view": view, "clock": self.t}

    def _draw(self):
        self.column = int(self.rng.choice([0, 1, 3, 4]))

    def step(self, action):
        reward = 1.0 if int(action) == (1 if self.column > 2 else 0) else 0.0
        self.t += 1
        self._draw()
        return self._observe(), reward, False, self.t >= 10, {}


def glimpse():
    return Glimpse()


class GlimpseChannelsFirst(Glimpse):
    """Glimpse with its view in PyTorch's channels-first layout, a 2 x 5 x 5
    Box (channel, row, column)."""

    def __init__(self):
        super().__init__()
        self.observation_space = Dict({"view": Box(0.0, 1.0, (2, 5, 5)), "clock": Discrete(11)})

    def _observe(self):
        observed = super()._observe()
        observed["view"] = np.ascontiguousarray(observed["view"].transpose(2, 0, 1))
        return observed


def glimpse_channels_first():
    return GlimpseChannelsFirst()


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
