"""PettingZoo games for Troupe's tests of its game bridge
(bridges/python/troupe_games.py), written without PettingZoo, with rewards known
by hand. AEC: each move gives its mover 0.1 and the other agent 0.01 (a
reward on the opponent's move), and the move that ends the count gives the
mover 1 and the other -1 besides; agents that are done leave through
PettingZoo's dead step (stepped with None when selected). Parallel: three
rounds of simultaneous moves whose rewards say which actions they came from.
Elimination: an AEC game of three agents who may leave one by one.
And games whose two agents have spaces of their own: a signalling game (AEC)
and a lopsided Parallel one; and a signalling game of three agents, a
policy each (AEC)."""
import os

import numpy as np

from tictactoe import Box, Discrete


class Countdown:
    """Two agents take 1 or 2 (actions 0 and 1) from a count; whoever brings
    it to 0 or below wins. Each observes [count, its own index]."""

    def __init__(self, start=4, cumulative=True, raise_on_move=0, die_on_move=0, agents=("first", "second")):
        self.possible_agents = list(agents)
        self.start = start
        self.cumulative = cumulative  # False: no _cumulative_rewards, its rewards dict alone
        self.raise_on_move = raise_on_move
        self.die_on_move = die_on_move
        self.moves = 0

    def observation_space(self, agent):
        return Box(0, 100, (2,), np.float32)

    def action_space(self, agent):
        return Discrete(2)

    def reset(self, seed=None, options=None):
        # The seed picks the starting count: start + seed % 3, so a test can
        # tell resets apart.
        self.count = self.start + (int(seed) % 3 if seed is not None else 0)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        if self.cumulative:
            self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent):
        return np.array([self.count, self.possible_agents.index(agent)], np.float32)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("a dead step takes None, not %r" % (action,))
            for d in (self.terminations, self.truncations, self.rewards, self.infos):
                del d[agent]
            if self.cumulative:
                del self._cumulative_rewards[agent]
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.moves += 1
        if self.raise_on_move and self.moves == self.raise_on_move:
            raise ValueError("move %d: the test's countdown raises" % self.moves)
        if self.die_on_move and self.moves == self.die_on_move:
            os._exit(3)
        if action not in (0, 1):
            raise ValueError("action %r is not 0 or 1" % (action,))
        other = self.possible_agents[1 - self.possible_agents.index(agent)]
        if self.cumulative:
            self._cumulative_rewards[agent] = 0.0
        self.count -= action + 1
        self.rewards = {agent: 0.1, other: 0.01}
        if self.count <= 0:
            self.rewards[agent] += 1.0
            self.rewards[other] -= 1.0
            self.terminations = {a: True for a in self.agents}
        if self.cumulative:
            for a in self.agents:
                self._cumulative_rewards[a] += self.rewards[a]
        self.agent_selection = other


def countdown(**kwargs):
    return Countdown(**kwargs)


class CountdownByArguments(Countdown):
    """Countdown that pickles as its constructor's arguments, as Gymnasium's
    EzPickle makes PettingZoo's classic games do: a deep copy of it is a new
    game before its first reset, not the game in play."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.arguments = dict(kwargs)

    def __getstate__(self):
        return {"arguments": self.arguments}

    def __setstate__(self, state):
        self.__dict__.update(CountdownByArguments(**state["arguments"]).__dict__)


class Forwarding:
    """A wrapper as PettingZoo's: the game's attributes read through it, but
    not its private ones (_cumulative_rewards excepted), and no clone()."""

    def __init__(self, env):
        self.env = env

    def __getattr__(self, name):
        if name.startswith("_") and name != "_cumulative_rewards":
            raise AttributeError("private attribute %r" % name)
        return getattr(self.env, name)

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)

    def observe(self, agent):
        return self.env.observe(agent)

    def step(self, action):
        self.env.step(action)

    def observation_space(self, agent):
        return self.env.observation_space(agent)

    def action_space(self, agent):
        return self.env.action_space(agent)


def wrapped_countdown(**kwargs):
    return Forwarding(Forwarding(CountdownByArguments(**kwargs)))


def take_one(observation, action_mask):
    """A scripted player: always action 0 (take 1)."""
    return 0


def take_two(observation, action_mask):
    return 1


def wrong_player(observation, action_mask):
    return 7


class Pennies:
    """PettingZoo's Parallel API: three rounds, both agents act at once
    (actions 0-2). Each round gives an agent 0.1 x its action + 0.01 x the
    other's; the last gives "even" +1 if the actions matched, else "odd" +1
    (the other -1). Each observes [round, its index, the other's last
    action]; infos hold the masks: action 0 is illegal in the first round."""

    def __init__(self, agents=("even", "odd")):
        self.possible_agents = list(agents)

    def observation_space(self, agent):
        return Box(0, 3, (3,), np.float32)

    def action_space(self, agent):
        return Discrete(3)

    def views(self):
        a, b = self.possible_agents[0], self.possible_agents[1]
        return {a: np.array([self.round, 0, self.last[b]], np.float32),
                b: np.array([self.round, 1, self.last[a]], np.float32)}

    def infos(self):
        mask = np.array([0 if self.round == 0 else 1, 1, 1], np.int8)
        return {a: {"action_mask": mask} for a in self.agents}

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.round = 0
        self.last = {a: 0 for a in self.agents}
        return self.views(), self.infos()

    def step(self, actions):
        a, b = self.possible_agents[0], self.possible_agents[1]
        if self.round == 0 and (actions[a] == 0 or actions[b] == 0):
            raise ValueError("action 0 is masked in the first round")
        rewards = {a: 0.1 * actions[a] + 0.01 * actions[b], b: 0.1 * actions[b] + 0.01 * actions[a]}
        self.last = dict(actions)
        self.round += 1
        done = self.round == 3
        if done:
            winner, loser = (a, b) if actions[a] == actions[b] else (b, a)
            rewards[winner] += 1
            rewards[loser] -= 1
        terminations = {x: done for x in self.agents}
        truncations = {x: False for x in self.agents}
        observations, infos = self.views(), self.infos()
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, infos


def pennies():
    return Pennies()


class OneLeaves:
    """PettingZoo's Parallel API, agents leaving one by one: "leaves" ends
    after the first round with +1 (terminated) and is gone from `agents`;
    "stays" plays two more rounds alone and is cut after the third
    (truncated). A round gives each agent in it 0.1 x its action (0-2).
    Each observes [round, its index]; an action for an agent that has left
    is an error, as are observations asked of it."""

    def __init__(self):
        self.possible_agents = ["stays", "leaves"]

    def observation_space(self, agent):
        return Box(0, 3, (2,), np.float32)

    def action_space(self, agent):
        return Discrete(3)

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.round = 0
        return {a: self.view(a) for a in self.agents}, {a: {} for a in self.agents}

    def view(self, agent):
        return np.array([self.round, self.possible_agents.index(agent)], np.float32)

    def step(self, actions):
        if set(actions) != set(self.agents):
            raise ValueError("actions for %r, but the agents are %r" % (sorted(actions), self.agents))
        acting = list(self.agents)
        rewards = {a: 0.1 * actions[a] for a in acting}
        self.round += 1
        terminations = {a: False for a in acting}
        truncations = {a: False for a in acting}
        if self.round == 1:
            rewards["leaves"] += 1.0
            terminations["leaves"] = True
        if self.round == 3:
            truncations["stays"] = True
        observations = {a: self.view(a) for a in acting}
        infos = {a: {} for a in acting}
        self.agents = [a for a in acting if not (terminations[a] or truncations[a])]
        return observations, rewards, terminations, truncations, infos


def one_leaves():
    return OneLeaves()


def always_two(observation, action_mask):
    return 2


class Tally:
    """PettingZoo's Parallel API with three agents, as
    tests/games/team_test.cpp's native game: three rounds, each giving agent
    i 0.1 x its action (0-3) + 0.001 x (i + 1); each observes [round, i, the
    sum of the others' last actions]. With `leaver`, that agent ends after
    the first round (terminated) and the others play on; an action for it
    after that is an error."""

    def __init__(self, leaver=None):
        self.possible_agents = ["t0", "t1", "t2"]
        self.leaver = leaver

    def observation_space(self, agent):
        return Box(0, 9, (3,), np.float32)

    def action_space(self, agent):
        return Discrete(4)

    def view(self, agent):
        i = self.possible_agents.index(agent)
        others = sum(v for a, v in self.last.items() if a != agent)
        return np.array([self.round, i, others], np.float32)

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.round = 0
        self.last = {a: 0 for a in self.agents}
        return {a: self.view(a) for a in self.agents}, {a: {} for a in self.agents}

    def step(self, actions):
        if set(actions) != set(self.agents):
            raise ValueError("actions for %r, but the agents are %r" % (sorted(actions), self.agents))
        acting = list(self.agents)
        rewards = {a: 0.1 * int(actions[a]) + 0.001 * (self.possible_agents.index(a) + 1) for a in acting}
        self.last.update({a: int(actions[a]) for a in acting})
        self.round += 1
        done = self.round == 3
        terminations = {a: done or (a == self.leaver and self.round == 1) for a in acting}
        truncations = {a: False for a in acting}
        observations = {a: self.view(a) for a in acting}
        self.agents = [a for a in acting if not terminations[a]]
        return observations, rewards, terminations, truncations, {a: {} for a in acting}


def tally():
    return Tally()


def tally_leaving():
    return Tally(leaver="t1")


class TallyColumns(Tally):
    """Tally whose views are a Box of shape (3, 1), as PettingZoo's games
    often give a 2-D Box (knights_archers_zombies: (27, 5)): it arrives flat."""

    def observation_space(self, agent):
        return Box(0, 9, (3, 1), np.float32)

    def view(self, agent):
        return super().view(agent).reshape(3, 1)


def tally_columns():
    return TallyColumns()


class Elimination:
    """PettingZoo's AEC API with three agents who may leave one by one:
    "a", "b" and "c" move in turn (the ones still in), each observing
    [moves so far, its index, agents still in]. Action 0 stays: +0.1 to the
    mover and +0.01 to each other agent still in. Action 1 resigns: -1 to
    the mover, which is terminated and leaves at its dead step (selected at
    once, as PettingZoo's _deads_step_first does), and +0.5 to each other
    agent still in. When one agent is left it wins: +1 to it, and it is
    terminated too. The ninth move truncates every agent still in. A move
    asked of an agent that has left is an error."""

    def __init__(self):
        self.possible_agents = ["a", "b", "c"]

    def observation_space(self, agent):
        return Box(0, 9, (3,), np.float32)

    def action_space(self, agent):
        return Discrete(2)

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.moves = 0
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = "a"
        self.after = None  # who moves after the dead steps

    def observe(self, agent):
        return np.array([self.moves, self.possible_agents.index(agent), len(self.agents)], np.float32)

    def live(self):
        return [a for a in self.agents if not (self.terminations[a] or self.truncations[a])]

    def next_after(self, agent):
        order = self.possible_agents
        i = order.index(agent)
        for k in range(1, 4):
            candidate = order[(i + k) % 3]
            if candidate in self.live():
                return candidate
        return None

    def step(self, action):
        agent = self.agent_selection
        if agent not in self.agents:
            raise ValueError("%r has left the game" % agent)
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError("a dead step takes None, not %r" % (action,))
            for d in (self.terminations, self.truncations, self.rewards, self.infos, self._cumulative_rewards):
                del d[agent]
            self.agents.remove(agent)
            dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
            self.agent_selection = dead[0] if dead else (self.after if self.after in self.agents else None)
            return
        if action not in (0, 1):
            raise ValueError("action %r is not 0 or 1" % (action,))
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        others = [a for a in self.live() if a != agent]
        self.rewards = {a: 0.0 for a in self.agents}
        if action == 0:
            self.rewards[agent] = 0.1
            for a in others:
                self.rewards[a] = 0.01
        else:
            self.rewards[agent] = -1.0
            for a in others:
                self.rewards[a] = 0.5
            self.terminations[agent] = True
        if len(self.live()) == 1:
            winner = self.live()[0]
            self.rewards[winner] += 1.0
            self.terminations[winner] = True
        elif self.moves == 9:
            for a in self.live():
                self.truncations[a] = True
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        self.after = self.next_after(agent)
        dead = [a for a in self.agents if self.terminations[a] or self.truncations[a]]
        self.agent_selection = dead[0] if dead else self.after


def elimination():
    return Elimination()


def stays(observation, action_mask):
    return 0


def dead_step(game, agent, action):
    """PettingZoo's dead step of a game whose agents all end together: the
    ended agent, stepped with None, leaves, and the next one is selected."""
    if action is not None:
        raise ValueError("a dead step takes None, not %r" % (action,))
    for d in (game.terminations, game.truncations, game.rewards, game.infos, game._cumulative_rewards):
        del d[agent]
    game.agents.remove(agent)
    if game.agents:
        game.agent_selection = game.agents[0]


class SignalAEC:
    """Lewis's signalling game, PettingZoo's AEC API, agents of different
    spaces: "sender" observes the secret (one-hot of 3: the reset's seed
    modulo 3) and sends a signal (Discrete(5), signal 0 never legal: its
    infos' mask; four usable signals, as Signal-v0 has); "receiver"
    observes the signal (one-hot of 5) and guesses (Discrete(3), every
    guess legal), or with box_receiver plays a Box(2) whose first value
    picks the guess (below -1/3, below 1/3, else) and whose second must be
    0.5, and there are no masks. Both get +1 for a right guess, -1 for a
    wrong one, on the receiver's move. (A mask that depends on the secret
    would teach pooling: the secrets allowed a signal the others are not
    would share it.)"""

    def __init__(self, box_receiver=False):
        self.possible_agents = ["sender", "receiver"]
        self.box_receiver = box_receiver

    def observation_space(self, agent):
        return Box(0, 1, (3,) if agent == "sender" else (5,), np.float32)

    def action_space(self, agent):
        if agent == "sender":
            return Discrete(5)
        return Box(-1, 1, (2,), np.float32) if self.box_receiver else Discrete(3)

    def masks(self):
        if self.box_receiver:
            return {a: {} for a in self.agents}
        return {"sender": {"action_mask": np.array([0, 1, 1, 1, 1], np.int8)},
                "receiver": {"action_mask": np.array([1, 1, 1], np.int8)}}

    def reset(self, seed=None, options=None):
        self.secret = int(seed or 0) % 3
        self.signal = -1
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = self.masks()
        self.agent_selection = "sender"

    def observe(self, agent):
        view = np.zeros(3 if agent == "sender" else 5, np.float32)
        hot = self.secret if agent == "sender" else self.signal
        if hot >= 0:
            view[hot] = 1
        return view

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent]:
            dead_step(self, agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        if agent == "sender":
            if action not in (1, 2, 3, 4):
                raise ValueError("signal %r is not 1, 2, 3 or 4" % (action,))
            self.signal = action
            self.rewards = {a: 0.0 for a in self.agents}
            self.agent_selection = "receiver"
            return
        if self.box_receiver:
            action = np.asarray(action)
            if action.shape != (2,) or action[1] != 0.5:
                raise ValueError("the receiver's Box action is %r, not [x, 0.5]" % (action,))
            guess = 0 if action[0] < -1 / 3 else 1 if action[0] < 1 / 3 else 2
        else:
            if action not in (0, 1, 2):
                raise ValueError("guess %r is not 0, 1 or 2" % (action,))
            guess = action
        reward = 1.0 if guess == self.secret else -1.0
        self.rewards = {a: reward for a in self.agents}
        for a in self.agents:
            self._cumulative_rewards[a] += reward
        self.terminations = {a: True for a in self.agents}
        self.agent_selection = "sender"


def signal_aec(**kwargs):
    return SignalAEC(**kwargs)


class RelayAEC:
    """A signalling game of three agents, PettingZoo's AEC API, each of
    them with spaces Box(3) -> Discrete(3): "sender" observes the secret
    (one-hot: the reset's seed modulo 3) and sends a signal, "relay"
    observes that signal and sends one of its own, "receiver" observes the
    relay's and guesses the secret. All three get +1 for a right guess and
    -1 for a wrong one, on the receiver's move. Random play is right a third
    of the time; a code needs all three, each its part of it."""

    possible_agents = ["sender", "relay", "receiver"]

    def observation_space(self, agent):
        return Box(0, 1, (3,), np.float32)

    def action_space(self, agent):
        return Discrete(3)

    def reset(self, seed=None, options=None):
        self.heard = {"sender": int(seed or 0) % 3, "relay": -1, "receiver": -1}
        self.secret = self.heard["sender"]
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = "sender"

    def observe(self, agent):
        view = np.zeros(3, np.float32)
        if self.heard[agent] >= 0:
            view[self.heard[agent]] = 1
        return view

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent]:
            dead_step(self, agent, action)
            return
        if action not in (0, 1, 2):
            raise ValueError("%s's action %r is not 0, 1 or 2" % (agent, action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        if agent != "receiver":
            listener = "relay" if agent == "sender" else "receiver"
            self.heard[listener] = int(action)
            self.agent_selection = listener
            return
        reward = 1.0 if action == self.secret else -1.0
        self.rewards = {a: reward for a in self.agents}
        for a in self.agents:
            self._cumulative_rewards[a] += reward
        self.terminations = {a: True for a in self.agents}
        self.agent_selection = "sender"


def relay_aec():
    return RelayAEC()


class Lopsided:
    """PettingZoo's Parallel API, agents of different spaces: "small"
    observes [step, 0] and plays Discrete(3); "large" observes [step, 1, 2,
    3, 4] and plays a Box(2). Each step gives "small" a + 10 x b0 + 100 x b1
    for small's action a and large's (b0, b1), "large" the negative. Two
    steps."""

    def __init__(self):
        self.possible_agents = ["small", "large"]

    def observation_space(self, agent):
        return Box(0, 4, (2,) if agent == "small" else (5,), np.float32)

    def action_space(self, agent):
        return Discrete(3) if agent == "small" else Box(-1, 1, (2,), np.float32)

    def views(self):
        return {"small": np.array([self.steps, 0], np.float32),
                "large": np.array([self.steps, 1, 2, 3, 4], np.float32)}

    def reset(self, seed=None, options=None):
        self.agents = list(self.possible_agents)
        self.steps = 0
        return self.views(), {a: {} for a in self.agents}

    def step(self, actions):
        a = actions["small"]
        b = np.asarray(actions["large"], np.float64)
        if a not in (0, 1, 2) or b.shape != (2,):
            raise ValueError("actions %r" % (actions,))
        value = float(a + 10 * b[0] + 100 * b[1])
        self.steps += 1
        done = self.steps == 2
        rewards = {"small": value, "large": -value}
        terminations = {x: done for x in self.agents}
        truncations = {x: False for x in self.agents}
        observations = self.views()
        if done:
            self.agents = []
        return observations, rewards, terminations, truncations, {x: {} for x in self.possible_agents}


def lopsided():
    return Lopsided()


def half_quarter(observation, action_mask):
    """A scripted player of Lopsided's "large" agent: checks its five-float
    view and plays [0.5, -0.25]."""
    if len(observation) != 5 or observation[4] != 4:
        raise ValueError("the large agent's view is %r" % (observation,))
    return [0.5, -0.25]
