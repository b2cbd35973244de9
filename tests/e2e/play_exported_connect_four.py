#!/usr/bin/env python3
"""Plays Connect Four (tests/e2e/connect_four_rules.py) with a policy
exported by `troupe export`, in PyTorch alone: the module takes the mover's
(6, 7, 2) observation and the 7 legal columns as its mask, and its greedy
move is the argmax of its logits.

    play_exported_connect_four.py POLICY.pt random GAMES
        GAMES games from each seat against a player of uniformly random
        legal moves (numpy seed 7); prints "SEAT wins W draws D losses L".
    play_exported_connect_four.py POLICY.pt steady
        one game from each seat against connect_four_rules.steady; prints
        "SEAT result R moves M" (R: win, draw or loss; M: the policy's moves).

Exits 1 when the policy picks a full column (the board raises)."""
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from connect_four_rules import Board, steady  # noqa: E402


def greedy(module, board):
    obs = torch.tensor(board.observation()).unsqueeze(0)
    mask = torch.tensor(board.legal()).unsqueeze(0)
    with torch.no_grad():
        logits, _ = module(obs, mask)
    return int(logits[0].argmax())


def play(module, seat, opponent):
    """One game, the policy moving first (seat 0) or second (seat 1):
    1 a win, 0 a draw, -1 a loss, and the policy's moves in it."""
    board = Board()
    while not board.full():
        policy_moves = board.moves % 2 == seat
        column = greedy(module, board) if policy_moves else opponent(board)
        if board.play(column):
            return (1 if policy_moves else -1), (board.moves + 1 - seat) // 2
    return 0, (board.moves + 1 - seat) // 2


def main():
    module = torch.jit.load(sys.argv[1])
    seats = ("first", "second")
    if sys.argv[2] == "steady":
        for seat in (0, 1):
            result, moves = play(module, seat, lambda b: steady(b.observation().ravel(), b.legal()))
            print(f"{seats[seat]} result {('loss', 'draw', 'win')[result + 1]} moves {moves}")
        return
    rng = np.random.default_rng(7)
    games = int(sys.argv[3])
    for seat in (0, 1):
        counts = {1: 0, 0: 0, -1: 0}
        for _ in range(games):
            result, _ = play(module, seat, lambda b: int(rng.choice(np.flatnonzero(b.legal()))))
            counts[result] += 1
        print(f"{seats[seat]} wins {counts[1]} draws {counts[0]} losses {counts[-1]}")


if __name__ == "__main__":
    try:
        main()
    except ValueError as e:
        print(e)
        sys.exit(1)
