"""CartPole-v1 in pure Python (numpy only), written from its dynamics: the
same equations, constants and order of operations as Troupe's own
envs/cartpole.cpp (Gymnasium's CartPole-v1, explicit Euler), so that the two
step identically from the same state (tests/envs/python_cartpole_test.cpp
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

import numpy as np


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


class CartPole:
    gravity = 9.8
    masscart = 1.0
    masspole = 0.1
    total_mass = masscart + masspole
    length = 0.5  # half the pole's length
    polemass_length = masspole * length
    force_mag = 10.0
    tau = 0.02
    theta_threshold = 12.0 * 2.0 * 3.14159265358979323846 / 360.0
    x_threshold = 2.4
    max_steps = 500

    def __init__(self, render_mode=None, initial_states=None):
        """render_mode="rgb_array" makes render() return the picture.
        initial_states (for tests): episode reset with seed k starts in
        initial_states[k] instead of a random state."""
        inf = float("inf")
        x_high, theta_high = self.x_threshold * 2, self.theta_threshold * 2
        high = np.array([x_high, inf, theta_high, inf], dtype=np.float32)
        self.observation_space = Box(-high, high, dtype=np.float32)
        self.action_space = Discrete(2)
        self.spec = Spec("CartPole-py", self.max_steps)
        self.render_mode = render_mode
        self.initial_states = initial_states
        self.state = (0.0, 0.0, 0.0, 0.0)
        self.steps = 0

    def reset(self, seed=None, options=None):
        if self.initial_states is not None:
            self.state = tuple(float(v) for v in self.initial_states[seed])
        else:
            rng = np.random.default_rng(seed)
            self.state = tuple(float(v) for v in rng.uniform(-0.05, 0.05, 4))
        self.steps = 0
        return np.array(self.state, dtype=np.float32), {}

    def step(self, action):
        x, x_dot, theta, theta_dot = self.state
        force = self.force_mag if action == 1 else -self.force_mag
        costheta = math.cos(theta)
        sintheta = math.sin(theta)
        temp = (force + self.polemass_length * theta_dot * theta_dot * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta * costheta / self.total_mass))
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass
        x, x_dot, theta, theta_dot = (x + self.tau * x_dot, x_dot + self.tau * xacc,
                                      theta + self.tau * theta_dot,
                                      theta_dot + self.tau * thetaacc)
        self.state = (x, x_dot, theta, theta_dot)
        self.steps += 1
        terminated = (x < -self.x_threshold or x > self.x_threshold
                      or theta < -self.theta_threshold or theta > self.theta_threshold)
        truncated = not terminated and self.steps >= self.max_steps
        return np.array(self.state, dtype=np.float32), 1.0, terminated, truncated, {}

    def render(self):
        """Gymnasium's picture, 600 x 400: a black cart on a track, a tan pole."""
        width, height = 600, 400
        scale = width / (self.x_threshold * 2)
        frame = np.full((height, width, 3), 255, dtype=np.uint8)
        track_y = height - 100
        frame[track_y, :] = 0
        cart_x = self.state[0] * scale + width / 2.0
        left, right = int(cart_x - 25), int(cart_x + 25)
        frame[track_y - 15:track_y + 15, max(left, 0):max(min(right, width), 0)] = 0
        # The pole: every pixel within 5 of the segment from the axle upwards.
        axle = np.array([cart_x, track_y - 7.5])
        tip = axle + scale * 2 * self.length * np.array([math.sin(self.state[2]),
                                                          -math.cos(self.state[2])])
        ys, xs = np.mgrid[0:height, 0:width]
        d = tip - axle
        t = np.clip(((xs - axle[0]) * d[0] + (ys - axle[1]) * d[1]) / d.dot(d), 0, 1)
        near = (xs - axle[0] - t * d[0]) ** 2 + (ys - axle[1] - t * d[1]) ** 2 <= 25
        frame[near] = (202, 152, 101)
        return frame


def make(**kwargs):
    """Troupe calls this (env.id python:cartpole_py:make) with env.kwargs."""
    return CartPole(**kwargs)
