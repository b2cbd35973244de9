"""CartPole-v1 in pure Python (numpy only), written from its dynamics: the
same equations, constants and order of operations as Troupe's own
envs/classic/cartpole.cpp (Gymnasium's CartPole-v1, explicit Euler), so that the two
step identically from the same state (tests/bridges/python/python_env_vector_test.cpp
checks it). An example of an environment Troupe trains through its Python
bridge:

    env:
      id: python:cartpole_py:make
      python_path: [examples/python_env]

Any object with the Gymnasium API works the same way: reset(seed=...) ->
(observation, info), step(action) -> (observation, reward, terminated,
truncated, info), and observation_space / action_space of type Box or
Discrete. This file defines two small stand-ins for gymnasium.spaces.Box and
Discrete so that it needs nothing but numpy; with gymnasium installed, its
own spaces (or gymnasium.make) do as well.
"""
import math
from math import cos, sin

import numpy as np
from numpy import array, float32


class Box:
    """A stand-in for gymnasium.spaces.Box: bounds, shape and dtype."""

    def __init__(self, low, high, shape=None, dtype=np.float32):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape) if shape is not None else np.shape(low)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape)
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape)

    def __repr__(self):
        return "Box(%s, %s)" % (self.shape, self.dtype)


class Discrete:
    """A stand-in for gymnasium.spaces.Discrete: actions start .. start + n - 1."""

    def __init__(self, n, start=0):
        self.n = int(n)
        self.start = int(start)

    def __repr__(self):
        return "Discrete(%d)" % self.n


class Spec:
    """What Troupe reads of gymnasium's EnvSpec: the episode limit."""

    def __init__(self, id, max_episode_steps):
        self.id = id
        self.max_episode_steps = max_episode_steps


# The constants of Gymnasium's CartPole-v1 (and envs/classic/cartpole.hpp).
GRAVITY = 9.8
MASSCART = 1.0
MASSPOLE = 0.1
TOTAL_MASS = MASSCART + MASSPOLE
LENGTH = 0.5  # half the pole's length
POLEMASS_LENGTH = MASSPOLE * LENGTH
FORCE_MAG = 10.0
TAU = 0.02
THETA_THRESHOLD = 12.0 * 2.0 * 3.14159265358979323846 / 360.0
X_THRESHOLD = 2.4
MAX_STEPS = 500


class CartPole:
    def __init__(self, render_mode=None, initial_states=None):
        """render_mode="rgb_array" makes render() return the picture.
        initial_states (for tests): episode reset with seed k starts in
        initial_states[k] instead of a random state."""
        inf = float("inf")
        x_high, theta_high = X_THRESHOLD * 2, THETA_THRESHOLD * 2
        high = np.array([x_high, inf, theta_high, inf], dtype=np.float32)
        self.observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = Discrete(2)
        self.spec = Spec("CartPole-py", MAX_STEPS)
        self.render_mode = render_mode
        self.initial_states = initial_states
        self.state = (0.0, 0.0, 0.0, 0.0)
        self.steps = 0

    def reset(self, seed=None, options=None):
        if self.initial_states is not None:
            self.state = tuple(float(v) for v in self.initial_states[seed])
        else:
            self.state = initial_state(seed if seed is not None else 0)
        self.steps = 0
        return array(self.state, float32), {}

    def step(self, action):
        # Explicit Euler, in envs/classic/cartpole.cpp's order of operations, so that
        # both round alike.
        x, x_dot, theta, theta_dot = self.state
        force = FORCE_MAG if action == 1 else -FORCE_MAG
        costheta = cos(theta)
        sintheta = sin(theta)
        temp = (force + POLEMASS_LENGTH * theta_dot * theta_dot * sintheta) / TOTAL_MASS
        thetaacc = (GRAVITY * sintheta - costheta * temp) / (
            LENGTH * (4.0 / 3.0 - MASSPOLE * costheta * costheta / TOTAL_MASS))
        xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS
        x, x_dot = x + TAU * x_dot, x_dot + TAU * xacc
        theta, theta_dot = theta + TAU * theta_dot, theta_dot + TAU * thetaacc
        self.state = state = (x, x_dot, theta, theta_dot)
        self.steps += 1
        terminated = (x < -X_THRESHOLD or x > X_THRESHOLD
                      or theta < -THETA_THRESHOLD or theta > THETA_THRESHOLD)
        truncated = not terminated and self.steps >= MAX_STEPS
        return array(state, float32), 1.0, terminated, truncated, {}

    def render(self):
        """Gymnasium's picture, 600 x 400: a black cart on a track, a tan pole."""
        width, height = 600, 400
        scale = width / (X_THRESHOLD * 2)
        frame = np.full((height, width, 3), 255, dtype=np.uint8)
        track_y = height - 100
        frame[track_y, :] = 0
        cart_x = self.state[0] * scale + width / 2.0
        left, right = int(cart_x - 25), int(cart_x + 25)
        frame[track_y - 15:track_y + 15, max(left, 0):max(min(right, width), 0)] = 0
        # The pole: every pixel within 5 of the segment from the axle upwards.
        axle = np.array([cart_x, track_y - 7.5])
        tip = axle + scale * 2 * LENGTH * np.array([math.sin(self.state[2]),
                                                          -math.cos(self.state[2])])
        ys, xs = np.mgrid[0:height, 0:width]
        d = tip - axle
        t = np.clip(((xs - axle[0]) * d[0] + (ys - axle[1]) * d[1]) / d.dot(d), 0, 1)
        near = (xs - axle[0] - t * d[0]) ** 2 + (ys - axle[1] - t * d[1]) ** 2 <= 25
        frame[near] = (202, 152, 101)
        return frame


def initial_state(seed):
    """Four uniform numbers in [-0.05, 0.05) from splitmix64 of `seed`: cheap
    (numpy's default_rng takes ~30 us to make, many steps' worth), and the
    same for the same seed. Not envs/classic/cartpole's std::mt19937_64 stream: the
    test that compares the two sets their states itself."""
    mask = (1 << 64) - 1
    values = []
    for _ in range(4):
        seed = (seed + 0x9E3779B97F4A7C15) & mask
        z = ((seed ^ (seed >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        values.append((z >> 11) * (0.1 / (1 << 53)) - 0.05)
    return tuple(values)


def make(**kwargs):
    """Troupe calls this (env.id python:cartpole_py:make) with env.kwargs."""
    return CartPole(**kwargs)
