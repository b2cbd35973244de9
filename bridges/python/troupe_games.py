"""troupe_games: the games of several agents and the scripted players that
troupe_env_host.py serves, beside the Gymnasium-style environments.

A game is a PettingZoo AEC environment, read by duck typing (PettingZoo need
not be installed): possible_agents, agents, agent_selection,
observation_space(agent) and action_space(agent) (or the older
observation_spaces / action_spaces dicts), reset(seed=, options=),
observe(agent), step(action), rewards, _cumulative_rewards, terminations,
truncations, infos. What PettingZoo's agent_iter() and last() would give a
player is what Troupe's seat gets:

- an agent's reward is what its _cumulative_rewards gathered from its move to
  its next (PettingZoo clears an agent's entry when it acts); Troupe is told
  each move's share for every agent, so a loss on the opponent's move reaches
  the loser. An environment without _cumulative_rewards gives its rewards dict
  per move;
- an agent that is terminated or truncated is stepped with None when it is
  selected (the dead step), here, never by Troupe; the game is over when no
  agent is left. In a game of more than two agents one may leave while the
  others play on (an elimination): Troupe is told at the move where its
  termination or truncation appeared, and never asks it to move again;
- the mover's legal actions are its observation's "action_mask" (PettingZoo's
  classic games) or its infos' "action_mask".

Moves arrive in batches of listed games (one command for all), and the answer
is every listed game's state after its move: whose move, each agent's view
and mask (the mover's; the others' are zeros), what the move gave each
agent, and the end. Both kinds of games speak this one record, and one host
class (GameHost) serves both, its rules (AecTurns, ParallelSteps) what the
two APIs differ in.

The built-in searching player (alphabeta:DEPTH) of a Python game looks
ahead here, in copies of the game (its class's clone() where it has one,
else a copy of its state and its wrappers', state_copy): a minimax search
with alpha-beta pruning of the mover's own rewards over DEPTH moves, ties
among the best moves broken at random. A table of the positions it has
valued, kept across the host's searches, spares it most of its copies
(AecTurns.value). With more than two agents every other agent is taken to
play against the searching one (a "paranoid" search).

A simultaneous-move game is a PettingZoo Parallel environment (possible_agents
without observe()): reset(seed=) gives every agent's observation and info,
step({agent: action}) every agent's observation, reward, termination,
truncation and info. Two or more agents play at every step until one is
terminated or truncated: that agent has left (Troupe is told), the others
play on, stepped with their own actions only, and the game is over when no
agent is left. A departed agent's view stays its last.
Masks come from an observation's "action_mask" or the info's.

A scripted player (`python:MODULE:CALLABLE` as an opponent) is a function of
one position as its mover sees it: player(observation, action_mask) -> action,
the observation flat as the network sees it (float32), the mask an array of
0/1 per choice (None without masks).
"""
import copy
import random
import struct

from troupe_spaces import Refused
import troupe_spaces as spaces

# A game's state in an answer: to_move (i32, -1 when over; a Parallel game
# says 0 while it goes on), terminated and truncated (u8), each agent's own
# end at this move or step (u8 per agent: 0 plays on, 1 terminated, 2
# truncated: agents may leave one by one); then rewards (f64 per agent),
# observations (f32, per agent in turn), masks (u8 per choice, per agent in
# turn; in an AEC game those of agents other than the mover are zeros).
PLAYS_ON, TERMINATED, TRUNCATED = 0, 1, 2


def state_head(agents):
    """The fixed part of a state record, for `agents` agents."""
    return struct.Struct("<iBB%dB" % agents)


def is_aec(env):
    """PettingZoo's AEC API: agents take turns through agent_selection.
    (agent_selection itself may not be readable before the first reset.)"""
    return (hasattr(env, "possible_agents") and callable(getattr(env, "observe", None))
            and callable(getattr(env, "step", None)) and callable(getattr(env, "reset", None)))


def is_parallel(env):
    """PettingZoo's Parallel API: possible_agents, but no observe()."""
    return hasattr(env, "possible_agents") and not callable(getattr(env, "observe", None))


def copy_of(env):
    """A copy of the game to look ahead in: its class's clone() (a wrapper
    forwarding attributes does not count), else a deep copy of its state.

    Of its state, not of what pickling keeps: a game that pickles as its
    constructor's arguments (Gymnasium's EzPickle, which PettingZoo's
    classic games use) would come back new, before its first reset. So the
    game and the wrappers around it (each layer's `env`) are copied
    attribute by attribute, and what they hold is deep-copied (state_copy);
    a layer whose class has its own __deepcopy__ is copied by it. Their spaces
    (objects with sample() and contains(), alone or in a dict or list) are
    shared: a move does not change them, and copying them took two thirds of
    a PettingZoo game's copy."""
    clone = getattr(type(env), "clone", None)
    if callable(clone):
        return env.clone()
    layers, layer = [], env
    while (layer is not None and isinstance(getattr(layer, "__dict__", None), dict)
           and getattr(type(layer), "__deepcopy__", None) is None):
        layers.append(layer)
        layer = vars(layer).get("env")
    if not layers:
        return copy.deepcopy(env)
    memo = {}
    copies = []
    for layer in layers:
        cls = type(layer)
        copies.append(cls.__new__(cls))
        memo[id(layer)] = copies[-1]
        for value in vars(layer).values():
            inner = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
            for held in [value, *inner]:
                if is_space(held):
                    memo[id(held)] = held
    for layer, copied in zip(layers, copies):
        vars(copied).update(state_copy(vars(layer), memo))
    return copies[0]


# Values a copy shares: they cannot change.
ATOMIC = frozenset((int, float, bool, complex, str, bytes, type(None), range, type))


def state_copy(value, memo):
    """A deep copy of a game's `value`, as copy.deepcopy's (one copy of
    each object however often it is held, `memo` by id), at a fraction of
    its cost for what games hold: scalars are shared, lists, dicts and
    tuples copied here, numpy arrays by their copy(), and plain objects
    (no __slots__, no copy or pickling methods of their own) attribute by
    attribute. Anything else is copy.deepcopy's."""
    kind = type(value)
    if kind in ATOMIC:
        return value
    made = memo.get(id(value))
    if made is not None:
        return made
    if kind is list:
        made = []
        memo[id(value)] = made
        made.extend([held if type(held) in ATOMIC else state_copy(held, memo) for held in value])
    elif kind is dict:
        made = {}
        memo[id(value)] = made
        for key, held in value.items():
            made[key if type(key) in ATOMIC else state_copy(key, memo)] = (
                held if type(held) in ATOMIC else state_copy(held, memo))
    elif kind is tuple:
        parts = [held if type(held) in ATOMIC else state_copy(held, memo) for held in value]
        made = value if all(a is b for a, b in zip(parts, value)) else tuple(parts)
        memo[id(value)] = made
    elif kind.__module__ == "numpy" and kind.__name__ == "ndarray" and value.dtype != object:
        made = value.copy()
        memo[id(value)] = made
    elif is_plain(kind):
        made = kind.__new__(kind)
        memo[id(value)] = made
        vars(made).update(state_copy(vars(value), memo))
    else:
        made = copy.deepcopy(value, memo)
    return made


def is_plain(kind):
    """Whether objects of `kind` copy as their attributes: they have a
    __dict__, no __slots__, and neither they nor their bases (but object)
    say how to make, copy or pickle them. Asked once a kind."""
    plain = plain_kinds.get(kind)
    if plain is None:
        plain = (kind.__new__ is object.__new__ and "__dict__" in dir(kind)
                 and not any("__slots__" in vars(base) or any(name in vars(base) for name in COPY_METHODS)
                             for base in kind.__mro__[:-1]))
        plain_kinds[kind] = plain
    return plain


plain_kinds = {}  # kind: is_plain(kind)
COPY_METHODS = ("__deepcopy__", "__copy__", "__reduce__", "__reduce_ex__", "__getstate__", "__setstate__",
                "__getnewargs__", "__getnewargs_ex__")


def is_space(value):
    """A Gymnasium space, by its methods; asked once a kind (a wrapper
    forwards what it lacks down to its game, which costs)."""
    kind = type(value)
    space = space_kinds.get(kind)
    if space is None:
        space = callable(getattr(value, "sample", None)) and callable(getattr(value, "contains", None))
        space_kinds[kind] = space
    return space


space_kinds = {}  # kind: whether is_space


def space_of(env, which, agent):
    """observation_space(agent) / action_space(agent), or the older dicts."""
    space = getattr(env, which + "_space", None)
    if callable(space):
        return space(agent)
    spaces_by_agent = getattr(env, which + "_spaces", None)
    if isinstance(spaces_by_agent, dict) and agent in spaces_by_agent:
        return spaces_by_agent[agent]
    raise Refused("the environment has neither %s_space(agent) nor %s_spaces[agent]" % (which, which))


def agents_of(first, kind):
    """The agents of a game of two or more agents and each one's
    observation and action spaces (described), or Refused saying why the
    game is not one."""
    agents = list(first.possible_agents)
    if len(agents) < 2:
        raise Refused("the %s environment has %d possible agents (%s); Troupe plays %s games of two or more agents"
                      % (kind, len(agents), ", ".join(map(str, agents)), kind))
    described = [(spaces.describe(space_of(first, "observation", agent), "observation"),
                  spaces.describe(space_of(first, "action", agent), "action")) for agent in agents]
    return agents, described


class AgentSpaces:
    """One agent's spaces as Troupe takes them: its observation encoder
    (its rows of observation_size floats), its action decoder (rows of
    action_width floats) and its mask's size (0 without masks)."""

    def __init__(self, agent, observation, action, mask_from, np):
        self.decoder = spaces.ActionDecoder(action, np)
        if mask_from == "observation" and not spaces.has_mask_key(observation):
            raise Refused("the first agent's observation has an 'action_mask' key, %s's (%s) has none"
                          % (agent, spaces.text(observation)))
        if mask_from and self.decoder.components is None:
            raise Refused("the game has action masks, but %s's action space %s is not discrete"
                          % (agent, spaces.text(action)))
        self.encoder = spaces.ObservationEncoder(observation, np, mask_from == "observation")
        self.obs_size = int(np.prod(self.encoder.shape))
        self.mask_size = sum(self.decoder.components) if mask_from else 0
        self.action_width = self.decoder.width()
        self.row = np.zeros((1, *self.encoder.shape), np.float32)  # the encoder writes [rows, *shape]

    def view(self, observation):
        """`observation` as its row's bytes."""
        self.encoder.write(self.row, 0, observation)
        return self.row.tobytes()


def mask_from_source(source, view, info, size, where, who, np):
    """An agent's mask as 0/1 values, from its view's "action_mask" (source
    "observation") or its info's; Refused, saying `where` and for `who`, when
    it is missing, of the wrong size, or allows nothing."""
    if source == "observation":
        name, mask = "observation of %s['action_mask']" % who, view[spaces.MASK_KEY]
    else:
        name = "infos[%r]['action_mask']" % who
        mask = info.get("action_mask") if isinstance(info, dict) else None
        if mask is None:
            raise Refused("%s: %s is missing (env.action_mask: none turns masks off)" % (where, name))
    values = spaces.mask_values(mask, np).astype(np.uint8)
    if values.shape != (size,) or not np.all(values <= 1):
        raise Refused("%s: %s is %r, expected %d values of 0 or 1" % (where, name, mask, size))
    if not values.any():
        raise Refused("%s: %s allows no action" % (where, name))
    return values


def hello_of(kind, agents, sides, first, mask_from):
    """What Troupe is told of a share of games (bridges/python/host_hello.hpp):
    the first agent's spaces, and every agent's."""
    return {
        "kind": kind,
        "agents": [str(a) for a in agents],
        "observation": sides[0].encoder.hello,
        "action": sides[0].decoder.hello,
        "agent_spaces": [{"observation": side.encoder.hello, "action": side.decoder.hello} for side in sides],
        "max_episode_steps": 0,
        "can_render": getattr(first, "render_mode", None) == "rgb_array",
        "action_mask": mask_from is not None,
        "observation_mask_key": spaces.MASK_KEY if mask_from == "observation" else "",
    }


class GameHost:
    """A share of an agent's games, PettingZoo AEC or Parallel environments,
    served as one kind of thing (bridges/python/host_protocol.hpp): a
    command lists n games (u32 count, u32 indices), then per game a seed
    (u64) or its step's row (every agent's action in turn, `step_shape`
    float32s); the answer is each listed game's record: its head, every
    agent's reward, view and mask. What the two APIs differ in (whose turn
    it is, how a step is taken, when an agent leaves) is `rules`'s:
    AecTurns or ParallelSteps."""

    def __init__(self, settings, games, np):
        self.np = np
        self.games = games
        first = games[0]
        self.rules = (ParallelSteps if is_parallel(first) else AecTurns)(self)
        self.agents, described = agents_of(first, self.rules.api)
        observation, action = described[0]
        self.mask_from = self.mask_source(settings["action_mask"], first, observation, action)
        self.sides = [AgentSpaces(agent, o, a, self.mask_from, np) for agent, (o, a) in zip(self.agents, described)]
        widths = [side.action_width for side in self.sides]
        self.step_shape = (sum(widths),)
        self.action_at = [sum(widths[:i]) for i in range(len(widths))]
        self.hello = hello_of(self.rules.kind, self.agents, self.sides, first, self.mask_from)
        self.head = state_head(len(self.agents))
        self.gone = [set() for _ in games]  # agents that have left each game
        self.rules.start()

    def mask_source(self, setting, first, observation, action):
        """As Host.mask_source, from the first agent's spaces: the
        observation's "action_mask" key, the infos' "action_mask" after one
        reset (the mover's, in an AEC game), or none."""
        if setting == "none":
            return None
        discrete = spaces.ActionDecoder(action, self.np).components is not None
        if setting in ("auto", "observation") and spaces.has_mask_key(observation):
            if not discrete:
                raise Refused("the observation has an 'action_mask' key, but the action space is not "
                              "discrete (env.action_mask: none ignores it)")
            return "observation"
        if setting == "observation":
            raise Refused("env.action_mask is observation, but the observation space %s is not a Dict "
                          "with an 'action_mask' key" % spaces.text(observation))
        info = self.rules.first_info(first) if discrete else None
        has = isinstance(info, dict) and "action_mask" in info
        if setting == "info" and not has:
            raise Refused("env.action_mask is info, but %s after reset(seed=0) have no 'action_mask'"
                          % self.rules.info_name)
        return "info" if has else None

    def listed(self, payload):
        (n,) = struct.unpack_from("<I", payload)
        return struct.unpack_from("<%dI" % n, payload, 4), 4 + 4 * n

    def reset_games(self, payload):
        games, at = self.listed(payload)
        seeds = struct.unpack_from("<%dQ" % len(games), payload, at)
        out = []
        for g, seed in zip(games, seeds):
            self.gone[g] = set()
            out.append(self.rules.reset(g, int(seed)))
        return b"".join(out)

    def step_games(self, payload):
        np = self.np
        games, at = self.listed(payload)
        size = int(np.prod(self.step_shape))
        rows = np.frombuffer(payload, np.float32, len(games) * size, at).reshape(len(games), *self.step_shape)
        return b"".join(self.rules.step(g, rows[i]) for i, g in enumerate(games))

    def search_games(self, payload, depth):
        if not isinstance(self.rules, AecTurns):
            raise Refused("alphabeta searches turn-based (AEC) games; this one is a Parallel game")
        games, at = self.listed(payload)
        seeds = struct.unpack_from("<%dQ" % len(games), payload, at)
        moves = [self.rules.search(g, depth, seed) for g, seed in zip(games, seeds)]
        return self.np.asarray(moves, self.np.float32).tobytes()

    def action_of(self, i, row):
        """Agent i's action, decoded from its place in a step's row."""
        side = self.sides[i]
        at = self.action_at[i]
        return side.decoder.decode(row[at:at + side.action_width])

    def record(self, mover, terminated, truncated, left, rewards, views, masks):
        """A game's record: the head (`mover`: the agent to move, 0 for a
        Parallel game going on, -1 once over), every agent's reward, view
        and mask (None: no legal move, zeros)."""
        n = len(self.agents)
        parts = [self.head.pack(mover, bool(terminated), bool(truncated), *(left or [PLAYS_ON] * n)),
                 struct.pack("<%dd" % n, *(rewards or [0.0] * n))]
        parts.extend(side.view(view) for side, view in zip(self.sides, views))
        if self.mask_from:
            for side, mask in zip(self.sides, masks):
                parts.append((self.np.zeros(side.mask_size, self.np.uint8) if mask is None else mask).tobytes())
        return b"".join(parts)

    def mask_of(self, where, who, view, info):
        """Agent `who`'s mask from its view or its info (mask_from_source)."""
        size = self.sides[self.agents.index(who)].mask_size
        return mask_from_source(self.mask_from, view, info, size, where, who, self.np)

    def render(self, index):
        frame = self.games[index].render()
        np = self.np
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 or frame.dtype != np.uint8:
            raise Refused("render() did not return an H x W x 3 uint8 array")
        height, width = frame.shape[:2]
        return struct.pack("<II", width, height) + np.ascontiguousarray(frame).tobytes()


class AecTurns:
    """PettingZoo's AEC API as GameHost's rules: one agent, the one
    agent_selection names, moves at a time; each move's rewards are what
    every agent's _cumulative_rewards gained; agents that are done take
    their dead steps here; alphabeta searches copies of the game."""

    api, kind, info_name = "AEC", "aec", "the mover's infos"

    def __init__(self, host):
        self.host = host

    def start(self):
        n = len(self.host.games)
        self.seen = [[0.0] * len(self.host.agents) for _ in range(n)]  # each agent's _cumulative_rewards, credited
        self.moves = [0] * n  # since the reset, for messages
        self.table = {}  # positions' values, kept across searches: see value()

    def first_info(self, first):
        first.reset(seed=0)
        infos = getattr(first, "infos", None)
        return infos.get(first.agent_selection) if isinstance(infos, dict) else None

    def state(self, g, result=None):
        """Game g's record, after its reset (no result) or a move."""
        host = self.host
        env = host.games[g]
        n = len(host.agents)
        over = result is not None and result[2]
        mover = -1
        if not over:
            selected = env.agent_selection
            if selected not in host.agents:
                raise Refused("game %d: agent_selection is %r, not one of possible_agents %r"
                              % (g, selected, host.agents))
            mover = host.agents.index(selected)
            if selected in host.gone[g]:
                raise Refused("game %d: agent_selection is %r, which has left the game" % (g, selected))
        rewards = result[0] if result is not None else None
        term = bool(result is not None and result[3])
        left = result[4] if result is not None else None
        views = result[1] if over else [env.observe(a) for a in host.agents]
        masks = [None] * n
        if host.mask_from and not over:
            masks[mover] = self.mask_of(g, views[mover])
        return host.record(mover, term, over and not term, left, rewards, views, masks)

    def mask_of(self, g, view, env=None):
        """The mover's mask in game g (or in `env`, a copy of it being
        searched), from its view or its infos."""
        env = self.host.games[g] if env is None else env
        where = "game %d, %s" % (g, "after its reset" if self.moves[g] == 0 else "move %d" % self.moves[g])
        mover = env.agent_selection
        info = env.infos.get(mover) if isinstance(getattr(env, "infos", None), dict) else None
        return self.host.mask_of(where, mover, view, info)

    def credit(self, g):
        """What each agent's _cumulative_rewards gained since last asked."""
        env = self.host.games[g]
        seen = self.seen[g]
        cumulative = getattr(env, "_cumulative_rewards", None)
        out = [0.0] * len(self.host.agents)
        if not isinstance(cumulative, dict):
            return out
        for i, agent in enumerate(self.host.agents):
            if agent in cumulative:
                value = float(cumulative[agent])
                out[i] = value - seen[i]
                seen[i] = value
        return out

    def reset(self, g, seed):
        env = self.host.games[g]
        env.reset(seed=seed)
        self.moves[g] = 0
        self.seen[g] = [0.0] * len(self.host.agents)
        self.credit(g)
        if not env.agents:
            raise Refused("game %d: no agent is left after reset(seed=%d)" % (g, seed))
        return self.state(g)

    def step(self, g, row):
        """The mover of game g plays its place in `row`; then the dead steps
        of agents that are done. The move's rewards, the views at its end,
        and the end."""
        host = self.host
        env = host.games[g]
        mover = host.agents.index(env.agent_selection)
        action = host.action_of(mover, row)
        self.seen[g][mover] = 0.0  # PettingZoo clears the mover's cumulative reward
        env.step(action)
        self.moves[g] += 1
        rewards = self.credit(g)
        if not isinstance(getattr(env, "_cumulative_rewards", None), dict):
            step_rewards = getattr(env, "rewards", {}) or {}
            rewards = [float(step_rewards.get(a, 0.0)) for a in host.agents]
        views = None
        dead_steps = 0
        # Each agent's own end as its flags first show it: a dead step
        # deletes an agent's entries, so they are read before each.
        ends = {}
        self.note_ends(g, env, ends)
        while env.agents:
            selected = env.agent_selection
            done_t = bool(env.terminations.get(selected, False))
            done_u = bool(env.truncations.get(selected, False))
            if not (done_t or done_u):
                break
            if views is None:  # the end as each agent sees it, before agents leave
                views = [env.observe(a) for a in host.agents]
            env.step(None)
            extra = self.credit(g)
            rewards = [a + b for a, b in zip(rewards, extra)]
            self.note_ends(g, env, ends)
            dead_steps += 1
            if dead_steps > 4 * len(host.agents):
                raise Refused("game %d: agents %r are still there after %d dead steps"
                              % (g, list(env.agents), dead_steps))
        over = not env.agents
        if over and views is None:
            views = [env.observe(a) for a in host.agents]
        # The game ends terminated if an agent was, else truncated; an agent
        # that left with no flag set ends as the game does.
        terminated = TERMINATED in ends.values() or TRUNCATED not in ends.values()
        left = [PLAYS_ON] * len(host.agents)
        for i, agent in enumerate(host.agents):
            if agent in host.gone[g]:
                continue
            if agent in ends:
                left[i] = ends[agent]
            elif over or agent not in env.agents:
                left[i] = TERMINATED if terminated else TRUNCATED
            if left[i] != PLAYS_ON:
                host.gone[g].add(agent)
        return self.state(g, (rewards, views, over, terminated, left))

    def note_ends(self, g, env, ends):
        """Into `ends`, each agent of game g not yet gone whose termination
        or truncation is set now."""
        terms = getattr(env, "terminations", {}) or {}
        truncs = getattr(env, "truncations", {}) or {}
        for agent in self.host.agents:
            if agent in self.host.gone[g] or agent in ends:
                continue
            if terms.get(agent, False):
                ends[agent] = TERMINATED
            elif truncs.get(agent, False):
                ends[agent] = TRUNCATED

    def decoder_of(self, env):
        """The decoder of `env`'s mover's actions."""
        return self.host.sides[self.host.agents.index(env.agent_selection)].decoder

    def legal_moves(self, g, env, view=None):
        """The mover's legal actions (indices of a Discrete action); `view`:
        its observation when the caller has it."""
        decoder = self.decoder_of(env)
        if decoder.components is None or len(decoder.components) != 1:
            raise Refused("alphabeta searches games with one Discrete action; %s's is %s"
                          % (env.agent_selection, spaces.text(decoder.hello)))
        n = decoder.components[0]
        if not self.host.mask_from:
            return list(range(n))
        if view is None and self.host.mask_from == "observation":
            view = env.observe(env.agent_selection)
        mask = self.mask_of(g, view, env)
        return [k for k in range(n) if mask[k]]

    def search(self, g, depth, seed):
        """alphabeta:DEPTH's move in game g: one of best_moves, drawn with
        `seed`."""
        return random.Random(seed).choice(self.best_moves(g, depth))

    def best_moves(self, g, depth):
        """The moves of game g's mover that are best for it over `depth`
        moves (its own rewards summed; the search stops at the end)."""
        env = self.host.games[g]
        root = env.agent_selection
        start = self.decoder_of(env).hello.get("start", 0)
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        best, best_moves = float("-inf"), []
        for k in self.legal_moves(g, env):
            # Equal values must be told apart from worse ones: the window
            # starts just below the best found so far.
            value = self.line(g, copy_of(env), k + start, depth - 1, root, best - 1e-9, float("inf"))
            if value > best + 1e-9:
                best, best_moves = value, [k]
            elif value >= best - 1e-9:
                best_moves.append(k)
        return best_moves

    def line(self, g, env, action, depth, root, alpha, beta):
        """The root agent's rewards from `action` on in game copy `env`."""
        cumulative = getattr(env, "_cumulative_rewards", None)
        mover = env.agent_selection
        before = 0.0 if mover == root or not isinstance(cumulative, dict) else float(cumulative.get(root, 0.0))
        env.step(action)
        cumulative = getattr(env, "_cumulative_rewards", None)
        if isinstance(cumulative, dict):
            gained = float(cumulative.get(root, 0.0)) - before
        else:
            gained = float((getattr(env, "rewards", {}) or {}).get(root, 0.0))
        if not env.agents:
            return gained
        selected = env.agent_selection
        if depth <= 0 or env.terminations.get(selected) or env.truncations.get(selected):
            return gained
        return gained + self.value(g, env, depth, root, alpha - gained, beta - gained)

    def value(self, g, env, depth, root, alpha, beta):
        """The root agent's rewards over the next `depth` moves of game copy
        `env`, its mover to play, searched within (alpha, beta): exact inside
        the window, a bound at or beyond the side it fails on.

        Moves in another order reach one position, a search meets it again,
        and the next search of this host's games meets it too: the table
        keeps each position's value, by the agent searching, the mover,
        every agent's view of it and the depth left, for every search of
        this host (up to TABLE_LIMIT positions, then it starts again). Two
        positions that every agent sees alike are taken to be one, as they
        are in a game of perfect information whose moves decide what follows; a value found in a
        narrower window is kept as the bound it is, so a search chooses what
        it would without the table."""
        mover = env.agent_selection
        views = {agent: env.observe(agent) for agent in self.host.agents if agent in env.agents}
        key = (root, mover, depth,
               tuple(side.view(views[agent]) for side, agent in zip(self.host.sides, self.host.agents)
                     if agent in views))
        known = self.table.get(key)
        if known is not None:
            kept, kind = known
            if kind == EXACT or (kind == AT_LEAST and kept >= beta) or (kind == AT_MOST and kept <= alpha):
                return kept
            if kind == AT_LEAST:
                alpha = max(alpha, kept)
            else:
                beta = min(beta, kept)
        low, high = alpha, beta
        start = self.decoder_of(env).hello.get("start", 0)
        maximising = mover == root
        best = float("-inf") if maximising else float("inf")
        for k in self.legal_moves(g, env, views.get(mover)):
            found = self.line(g, copy_of(env), k + start, depth - 1, root, alpha, beta)
            if maximising:
                best = max(best, found)
                alpha = max(alpha, found)
            else:
                best = min(best, found)
                beta = min(beta, found)
            if alpha >= beta:
                break
        self.table[key] = (best, AT_MOST if best <= low else AT_LEAST if best >= high else EXACT)
        return best


# What a value in AecTurns' table is: the position's value, or a bound on it.
EXACT, AT_LEAST, AT_MOST = 0, 1, 2
# Positions a host's table keeps before it starts again (a few hundred
# bytes each).
TABLE_LIMIT = 200000


class ParallelSteps:
    """PettingZoo's Parallel API as GameHost's rules: every agent still in
    the game acts at each step, given its own action only; an agent that is
    terminated or truncated has left, its view staying its last."""

    api, kind, info_name = "Parallel", "parallel", "the infos"

    def __init__(self, host):
        self.host = host

    def start(self):
        n = len(self.host.games)
        self.steps = [0] * n
        self.views = [{} for _ in range(n)]  # each agent's last observation

    def first_info(self, first):
        _, infos = first.reset(seed=0)
        return infos.get(self.host.agents[0]) if isinstance(infos, dict) else None

    def state(self, g, observations, infos, rewards=None, over=False, terminated=False, left=None):
        """Game g's record: going (0) or over (-1), the end, each agent's own
        end at this step, rewards, each agent's view and mask (a departed
        agent's last view, and no legal move)."""
        host = self.host
        views = self.views[g]
        masks = []
        for agent in host.agents:
            if agent in observations:
                views[agent] = observations[agent]
            elif agent not in host.gone[g] or agent not in views:
                raise Refused("game %d, step %d: no observation for %r" % (g, self.steps[g], agent))
            info = infos.get(agent) if isinstance(infos, dict) else None
            masks.append(None if not host.mask_from or over or agent in host.gone[g] else
                         host.mask_of("game %d, step %d" % (g, self.steps[g]), agent, observations[agent], info))
        return host.record(-1 if over else 0, terminated, over and not terminated, left, rewards,
                           [views[a] for a in host.agents], masks)

    def reset(self, g, seed):
        observations, infos = self.host.games[g].reset(seed=seed)
        self.steps[g] = 0
        self.views[g] = {}
        return self.state(g, observations, infos)

    def step(self, g, row):
        host = self.host
        env = host.games[g]
        gone = host.gone[g]
        # Actions for the agents still in the game.
        actions = {agent: host.action_of(i, row) for i, agent in enumerate(host.agents) if agent not in gone}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        self.steps[g] += 1
        left = [PLAYS_ON] * len(host.agents)
        for i, agent in enumerate(host.agents):
            if agent in gone:
                continue
            if terminations.get(agent, False):
                left[i] = TERMINATED
            elif truncations.get(agent, False):
                left[i] = TRUNCATED
        ended = [agent for i, agent in enumerate(host.agents) if left[i] != PLAYS_ON]
        gone.update(ended)
        over = len(gone) == len(host.agents) or not getattr(env, "agents", host.agents)
        terminated = any(v == TERMINATED for v in left)
        gained = [0.0 if agent in gone and agent not in ended else float(rewards.get(agent, 0.0))
                  for agent in host.agents]
        return self.state(g, observations, infos, gained, over, terminated, left)


class PlayerHost:
    """A scripted player: player(observation, action_mask) -> action for
    each row of a batch."""

    def __init__(self, settings, player, np):
        self.np = np
        self.player = player
        self.obs_size = int(settings["observation_size"])
        self.mask_size = int(settings["mask_size"])
        self.action_width = int(settings["action_width"])
        self.hello = {"kind": "player"}

    def act(self, payload):
        np = self.np
        (n,) = struct.unpack_from("<I", payload)
        observations = np.frombuffer(payload, np.float32, n * self.obs_size, 4).reshape(n, self.obs_size)
        at = 4 + 4 * n * self.obs_size
        masks = None
        if self.mask_size:
            masks = np.frombuffer(payload, np.uint8, n * self.mask_size, at).reshape(n, self.mask_size)
        out = np.zeros((n, self.action_width), np.float32)
        for i in range(n):
            action = self.player(observations[i].copy(), None if masks is None else masks[i].copy())
            out[i] = np.asarray(action, np.float32).ravel()
        return out.tobytes()
