"""Connect Four by PettingZoo connect_four_v3's rules, written here apart
from Troupe's games/builtin/connect_four.*, so that a policy exported from a
native run and played on this board checks the export against rules that
share no code with the ones it was trained on.

The board is 6 x 7, row 0 the top; a piece falls to the highest free row
index of its column. The mover observes (6, 7, 2): plane 0 its own pieces,
plane 1 the opponent's; a column is legal while its top cell is empty.

`steady(observation, action_mask)` is a scripted player without chance
(`--opponent python:connect_four_rules:steady`): it wins at once if it
can, else blocks the opponent's win at once, else plays the legal column
nearest the centre. Without chance on either side a greedy policy's game
against it is one line, the same wherever the two are played."""
import numpy as np

ROWS, COLUMNS = 6, 7
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)


class Board:
    def __init__(self):
        self.cells = np.zeros((ROWS, COLUMNS), dtype=np.int8)  # 0 empty, else the player (1 or 2)
        self.mover = 1
        self.moves = 0

    def legal(self):
        return (self.cells[0] == 0).astype(np.float32)

    def observation(self):
        return np.stack([self.cells == self.mover, self.cells == 3 - self.mover], axis=-1).astype(np.float32)

    def play(self, column):
        """Drops the mover's piece; returns True when it wins. Raises on a
        full column (a masked move)."""
        if not self.cells[0, column] == 0:
            raise ValueError(f"column {column} is full: a masked move")
        row = int(np.flatnonzero(self.cells[:, column] == 0)[-1])
        self.cells[row, column] = self.mover
        self.moves += 1
        won = connects_four(self.cells, row, column)
        self.mover = 3 - self.mover
        return won

    def full(self):
        return bool((self.cells[0] != 0).all())


def connects_four(cells, row, column):
    """Whether the piece at (row, column) is part of four in a line."""
    who = cells[row, column]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        count = 1
        for sign in (1, -1):
            r, c = row + sign * dr, column + sign * dc
            while 0 <= r < ROWS and 0 <= c < COLUMNS and cells[r, c] == who:
                count += 1
                r, c = r + sign * dr, c + sign * dc
        if count >= 4:
            return True
    return False


def wins_with(cells, column, who):
    """Whether `who` dropping a piece into `column` (not full) wins."""
    trial = cells.copy()
    row = int(np.flatnonzero(trial[:, column] == 0)[-1])
    trial[row, column] = who
    return connects_four(trial, row, column)


def steady(observation, action_mask):
    planes = np.asarray(observation, np.float32).reshape(ROWS, COLUMNS, 2)
    cells = np.where(planes[..., 0] > 0, 1, np.where(planes[..., 1] > 0, 2, 0)).astype(np.int8)
    legal = [c for c in CENTRE_FIRST if action_mask[c]]
    for who in (1, 2):  # its own win first, then the block
        for c in legal:
            if wins_with(cells, c, who):
                return c
    return legal[0]
