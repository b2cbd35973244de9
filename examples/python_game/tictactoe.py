"""Tic-tac-toe as a PettingZoo AEC environment, written without PettingZoo
(Troupe reads the API by duck typing), with PettingZoo's tictactoe_v3
conventions: agents "player_1" (X, moves first) and "player_2"; each
observes {"observation": 3 x 3 x 2 (plane 0 its own marks, plane 1 the
opponent's), "action_mask": 9 (the empty squares)}; action k marks square k
(row k // 3, column k % 3); +1 to the winner and -1 to the loser on the
winning move, 0 each for a draw.

Train it:   troupe train configs/connect_four_selfplay.yaml
                --set env.id=python:tictactoe:make --set env.python_path=[examples/python_game]
                --set model.kind=mlp
Play it:    `perfect` below is a scripted opponent: --opponent python:tictactoe:perfect
"""
import random

import numpy as np


class Box:
    """A stand-in for gymnasium.spaces.Box."""

    def __init__(self, low, high, shape, dtype=np.int8):
        self.dtype = np.dtype(dtype)
        self.shape = tuple(shape)
        self.low = np.broadcast_to(np.asarray(low, dtype=self.dtype), self.shape)
        self.high = np.broadcast_to(np.asarray(high, dtype=self.dtype), self.shape)


class Discrete:
    def __init__(self, n):
        self.n = int(n)
        self.start = 0


class Dict:
    def __init__(self, spaces):
        self.spaces = spaces


LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def winner(board):
    """1 or 2 when that player has three in a line, else 0."""
    for a, b, c in LINES:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return 0


class TicTacToe:
    metadata = {"name": "tictactoe"}

    def __init__(self, render_mode=None):
        self.possible_agents = ["player_1", "player_2"]
        self.render_mode = render_mode
        self._observation_space = Dict({"observation": Box(0, 1, (3, 3, 2)), "action_mask": Box(0, 1, (9,))})
        self._action_space = Discrete(9)

    def observation_space(self, agent):
        return self._observation_space

    def action_space(self, agent):
        return self._action_space

    def reset(self, seed=None, options=None):
        self.board = [0] * 9  # 0 empty, 1 player_1's mark, 2 player_2's
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0 for a in self.agents}
        self._cumulative_rewards = {a: 0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.agents[0]

    def observe(self, agent):
        me = self.possible_agents.index(agent) + 1
        board = np.asarray(self.board).reshape(3, 3)
        planes = np.stack([board == me, (board != 0) & (board != me)], axis=2).astype(np.int8)
        mask = np.array([1 if (v == 0 and agent == self.agent_selection) else 0 for v in self.board], np.int8)
        return {"observation": planes, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            # The dead step: the agent that is done leaves.
            del self.terminations[agent], self.truncations[agent], self.rewards[agent]
            del self._cumulative_rewards[agent], self.infos[agent]
            self.agents.remove(agent)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        if self.board[action] != 0:
            raise ValueError("square %d is taken" % action)
        self._cumulative_rewards[agent] = 0
        me = self.possible_agents.index(agent) + 1
        self.board[action] = me
        other = self.possible_agents[2 - me]
        self.rewards = {a: 0 for a in self.agents}
        if winner(self.board) == me:
            self.rewards[agent], self.rewards[other] = 1, -1
            self.terminations = {a: True for a in self.agents}
        elif all(self.board):
            self.terminations = {a: True for a in self.agents}
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]
        self.agent_selection = other

    def clone(self):
        """A copy to search in (Troupe's alphabeta opponent uses it when a
        game has one; copy.deepcopy otherwise, several times slower)."""
        other = TicTacToe.__new__(TicTacToe)
        other.possible_agents = self.possible_agents
        other.render_mode = self.render_mode
        other._observation_space, other._action_space = self._observation_space, self._action_space
        other.board = list(self.board)
        other.agents = list(self.agents)
        other.agent_selection = self.agent_selection
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations", "infos"):
            setattr(other, name, dict(getattr(self, name)))
        return other

    def render(self):
        frame = np.full((90, 90, 3), 255, np.uint8)
        for k, v in enumerate(self.board):
            if v:
                y, x = (k // 3) * 30, (k % 3) * 30
                frame[y + 5:y + 25, x + 5:x + 25] = (200, 30, 30) if v == 1 else (30, 30, 200)
        frame[29::30, :] = 0
        frame[:, 29::30] = 0
        return frame


def make(**kwargs):
    return TicTacToe(**kwargs)


# A perfect player: the game-theoretic value of every position, and a move
# drawn among those that keep the best value.
_values = {}


def value(board, me):
    """The value for `me` (to move) of `board`: 1 win, 0 draw, -1 loss."""
    key = (tuple(board), me)
    if key in _values:
        return _values[key]
    other = 3 - me
    if winner(board):
        result = -1  # the previous move won
    elif all(board):
        result = 0
    else:
        result = -1
        for k in range(9):
            if board[k] == 0:
                board[k] = me
                result = max(result, -value(board, other))
                board[k] = 0
    _values[key] = result
    return result


def optimal_moves(board, me):
    best, moves = -2, []
    for k in range(9):
        if board[k] == 0:
            board[k] = me
            v = -value(board, 3 - me)
            board[k] = 0
            if v > best:
                best, moves = v, [k]
            elif v == best:
                moves.append(k)
    return moves


def board_from(observation):
    """The board from the mover's flat observation (3 x 3 x 2 as Troupe
    passes it): the mover's marks are 1, the opponent's 2."""
    planes = np.asarray(observation, np.float32).reshape(3, 3, 2)
    return [1 if planes[k // 3, k % 3, 0] else 2 if planes[k // 3, k % 3, 1] else 0 for k in range(9)]


def perfect(observation, action_mask):
    """A scripted opponent (--opponent python:tictactoe:perfect): one of the
    optimal moves, drawn at random."""
    return random.choice(optimal_moves(board_from(observation), 1))
