"""PettingZoo games for Troupe's tests of its game bridge
(envs/python/troupe_games.py), written without PettingZoo, with rewards known
by hand. AEC: each move gives its mover 0.1 and the other agent 0.01 (a
reward on the opponent's move), and the move that ends the count gives the
mover 1 and the other -1 besides; agents that are done leave through
PettingZoo's dead step (stepped with None when selected). Parallel: three
rounds of simultaneous moves whose rewards say which actions they came from."""
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


def three_agents():
    return Countdown(agents=("a", "b", "c"))


def three_parallel():
    return Pennies(agents=("a", "b", "c"))
