#!/usr/bin/env python3
"""troupe_env_host: one process that steps a share of a Troupe agent's Python
environments. Troupe starts it (bridges/python/host_process.cpp); it is not meant
to be run by hand.

    troupe_env_host.py PARENT_PID ENV_ID [PYTHON_PATH_DIR...]

(the id and the directories only name the process for ps; the settings
arrive as the first message). fd 3 is a stream socket to Troupe, fd 4 a
shared-memory file. The process makes its environments, reads their spaces
once and sends them back, then
answers one command at a time: Troupe writes the actions (and the reset seeds)
into shared memory, sends "step", and this process steps every environment it
holds and writes observations, rewards and flags back before it answers. So
one step of all its environments is one round trip of a few bytes.

It never outlives Troupe: it asks the kernel for SIGKILL when the thread that
started it ends (PR_SET_PDEATHSIG), and it exits when its socket closes.

The message formats below are mirrored in bridges/python/host_protocol.hpp.
"""
import os
import signal
import struct
import sys
from array import array

import troupe_games as games
import troupe_spaces as spaces
from troupe_spaces import Refused

SOCKET_FD = 3
MEMORY_FD = 4

# A command: op (u8), 3 bytes padding, argument (u32), payload length (u32).
COMMAND = struct.Struct("<BxxxII")
# An answer: status (u8), 3 bytes padding, payload length (u32), payload.
ANSWER = struct.Struct("<BxxxI")
(OP_MAP, OP_RESET, OP_RESET_ONE, OP_STEP, OP_RENDER, OP_BENCH, OP_CLOSE, OP_START,
 OP_CPU_TIME, OP_GAME_RESET, OP_GAME_STEP, OP_ACT, OP_GAME_SEARCH) = range(1, 14)
# host_status in bridges/python/host_protocol.hpp
STATUS_OK, STATUS_FAILED, STATUS_NO_NUMPY, STATUS_IMPORT_FAILED = 0, 1, 2, 3


def die_with_parent(parent_pid):
    """SIGKILL this process when Troupe's spawning thread ends, SIGKILL of
    Troupe included. The parent is checked before and after: had it died
    already, the request would come too late to fire."""
    if os.getppid() != parent_pid:
        os._exit(0)
    import ctypes

    PR_SET_PDEATHSIG = 1
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG)")
    if os.getppid() != parent_pid:
        os._exit(0)


def read_exactly(n):
    """n bytes from the socket; exits quietly at its end (Troupe is gone or
    done with us)."""
    data = os.read(SOCKET_FD, n)
    if len(data) == n:
        return data
    if not data:
        os._exit(0)
    chunks = [data]
    n -= len(data)
    while n:
        chunk = os.read(SOCKET_FD, n)
        if not chunk:
            os._exit(0)
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def answer(status, payload=b""):
    data = ANSWER.pack(status, len(payload)) + payload
    try:
        if os.write(SOCKET_FD, data) == len(data):
            return
    except BrokenPipeError:
        os._exit(0)
    view = memoryview(data)
    while view:
        try:
            written = os.write(SOCKET_FD, view)
        except BrokenPipeError:
            os._exit(0)
        view = view[written:]


def load_callable(settings):
    """MODULE:CALLABLE of python:MODULE:CALLABLE, or Refused saying why not."""
    import importlib

    module_name, callable_name = settings["target"]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name and (module_name == e.name or module_name.startswith(e.name + ".")):
            raise Refused("cannot import module '%s': ModuleNotFoundError: %s" % (module_name, e),
                          STATUS_IMPORT_FAILED)
        raise
    made = module
    for part in callable_name.split("."):
        made = getattr(made, part, None)
    if made is None:
        raise Refused("module '%s' (%s) has no attribute '%s'"
                      % (module_name, getattr(module, "__file__", "?"), callable_name))
    if not callable(made):
        raise Refused("'%s.%s' is not callable" % (module_name, callable_name))
    return made


def make_factory(settings):
    """The callable that makes one environment, or Refused saying why not."""
    import importlib

    kwargs = settings["kwargs"]
    if settings["kind"] == "gymnasium":
        env_id = settings["target"]
        try:
            gymnasium = importlib.import_module("gymnasium")
        except ImportError as e:
            raise Refused("cannot import gymnasium: %s: %s (gymnasium:ENV_ID needs the gymnasium "
                          "package for the interpreter, or its directory on env.python_path)"
                          % (type(e).__name__, e), STATUS_IMPORT_FAILED)
        return lambda: gymnasium.make(env_id, **kwargs)
    make = load_callable(settings)
    return lambda: make(**kwargs)


def make_host(settings):
    """What this process serves: a scripted player, PettingZoo AEC or Parallel games
    (troupe_games.py), or Gymnasium-style environments."""
    try:
        import numpy as np
    except ImportError as e:
        raise Refused("%s: %s" % (type(e).__name__, e), STATUS_NO_NUMPY)
    if settings.get("role") == "player":
        return games.PlayerHost(settings, load_callable(settings), np)
    make = make_factory(settings)
    envs = [make() for _ in range(settings["count"])]
    parallel, aec = games.is_parallel(envs[0]), games.is_aec(envs[0])
    if (parallel or aec) and not settings.get("games"):
        raise Refused("%s made a PettingZoo %s environment (several agents), where a single-agent "
                      "environment was expected" % (settings["id"], "Parallel" if parallel else "AEC"))
    if parallel or aec:
        return games.GameHost(settings, envs, np)
    if settings.get("games") == "only":
        raise Refused("%s made a single-agent environment, not a PettingZoo game (AEC: possible_agents, "
                      "observe(agent), agent_selection; Parallel: possible_agents, step on dicts): "
                      "self-play and --opponent need one" % settings["id"])
    return Host(settings, envs, np)


class Host:
    def __init__(self, settings, envs, np):
        self.np = np
        self.envs = envs
        first = self.envs[0]
        self.observation = spaces.describe(first.observation_space, "observation")
        self.action = spaces.describe(first.action_space, "action")
        for env in self.envs[1:]:
            if (spaces.describe(env.observation_space, "observation") != self.observation
                    or spaces.describe(env.action_space, "action") != self.action):
                raise Refused("the environments made by %s differ in their spaces" % settings["id"])
        spec = getattr(first, "spec", None)
        limit = getattr(spec, "max_episode_steps", None) if spec is not None else None
        self.decoder = spaces.ActionDecoder(self.action, np)
        self.mask_from = self.mask_source(settings["action_mask"], first)
        self.masked = self.mask_from is not None
        self.encoder = spaces.ObservationEncoder(self.observation, np, self.mask_from == "observation")
        self.hello = {
            "observation": self.encoder.hello,
            "action": self.decoder.hello,
            "max_episode_steps": int(limit) if limit else 0,
            "can_render": getattr(first, "render_mode", None) == "rgb_array",
            "action_mask": self.masked,
            "observation_mask_key": spaces.MASK_KEY if self.mask_from == "observation" else "",
        }
        self.steps = [0] * len(self.envs)  # since each one's reset, for messages

    def mask_source(self, setting, first):
        """Where the legal actions come from (env.action_mask): "observation"
        (a Dict observation's "action_mask" key), "info" (info["action_mask"]),
        or None. auto takes the key when the observation has it, else looks
        at the info of one reset of the first environment (Troupe resets
        every environment again before its first step)."""
        if setting == "none":
            return None
        discrete = self.decoder.components is not None
        if setting in ("auto", "observation") and spaces.has_mask_key(self.observation):
            if not discrete:
                raise Refused("the observation has an 'action_mask' key, but the action space %s is "
                              "not discrete (env.action_mask: none ignores it)" % spaces.text(self.action))
            return "observation"
        if setting == "observation":
            raise Refused("env.action_mask is observation, but the observation space %s is not a "
                          "Dict with an 'action_mask' key" % spaces.text(self.observation))
        has = False
        if discrete:
            info = first.reset(seed=0)[1]
            has = isinstance(info, dict) and "action_mask" in info
        if setting == "info" and not has:
            raise Refused("env.action_mask is info, but %s"
                          % ("the action space is not discrete" if not discrete
                             else "the info of reset(seed=0) has no 'action_mask'"))
        return "info" if has else None

    def map_memory(self, layout):
        """Views of the shared memory Troupe laid out."""
        import mmap

        np = self.np
        m = len(self.envs)
        self.memory = mmap.mmap(MEMORY_FD, layout["size"])
        buf = self.memory

        def view(name, dtype, *shape):
            count = 1
            for d in shape:
                count *= d
            return np.frombuffer(buf, dtype, count, layout[name]).reshape(shape)

        a = self.action
        self.actions = view("actions", np.float32, m, self.decoder.width())
        self.seeds = view("seeds", np.uint64, m)
        obs_shape = self.encoder.shape
        self.obs_size = int(np.prod(obs_shape))
        self.observations = view("observations", np.float32, m, *obs_shape)
        self.final_observations = view("final_observations", np.float32, m, *obs_shape)
        self.rewards = view("rewards", np.float64, m)
        self.terminated = view("terminated", np.uint8, m)
        self.truncated = view("truncated", np.uint8, m)
        self.rows = np.arange(m)
        if self.masked:
            self.masks = view("action_masks", np.uint8, m, sum(self.decoder.components))
        self.discrete_actions = a["kind"] == "discrete"
        self.action_start = a.get("start", 0)
        # The step's hot path writes through memoryviews: per call, a few
        # copies of whole rows instead of one numpy conversion per element.
        whole = memoryview(buf)
        start = layout["observations"]
        self.observation_bytes = whole[start:start + m * self.obs_size * 4]
        start = layout["rewards"]
        self.reward_doubles = whole[start:start + m * 8].cast("d")

    def current_actions(self):
        """This step's actions as the environments take them: a Discrete
        action is a Python int (plus the space's start), a Box action an
        array of the space's shape and dtype, a structured one the values of
        its space (troupe_spaces.ActionDecoder)."""
        np = self.np
        if self.discrete_actions:
            indices = self.actions[:, 0].astype(np.int64)
            return (indices + self.action_start if self.action_start else indices).tolist()
        a = self.action
        if a["kind"] == "box":
            return list(self.actions.reshape(len(self.envs), *a["shape"]).astype(a["dtype"]))
        return [self.decoder.decode(row) for row in self.actions]

    def write_observations(self, values):
        """Every environment's observation into shared memory, as float32."""
        np = self.np
        if self.encoder.one_hot:
            self.observations[...] = 0.0
            self.observations[self.rows, np.asarray(values, dtype=np.int64) - self.observation["start"]] = 1.0
            return
        if not self.encoder.direct:
            self.encoder.write_all(self.observations, values)
            return
        first = values[0]
        if type(first) is np.ndarray and first.dtype == np.float32:
            # Arrays of the right type: their bytes, joined, are the rows.
            joined = b"".join(map(np.ndarray.tobytes, values))
            if len(joined) == len(self.observation_bytes):
                self.observation_bytes[:] = joined
                return
        self.observations[...] = values

    def write_row(self, target, i, value):
        self.encoder.write(target, i, value)

    def write_mask(self, i, info, observation):
        """Environment i's action mask (from its info or its observation)
        into shared memory: one 0 or 1 per choice, at least one 1 in each
        component; anything else is the environment's fault, said with
        where it happened."""
        if not self.masked:
            return
        np = self.np
        where = "environment %d, %s" % (i, "after its reset" if self.steps[i] == 0
                                        else "step %d of its episode" % self.steps[i])
        if self.mask_from == "observation":
            name, mask = "observation['action_mask']", observation[spaces.MASK_KEY]
        else:
            name = "info['action_mask']"
            mask = info.get("action_mask") if isinstance(info, dict) else None
            if mask is None:
                raise Refused("%s: the info has no 'action_mask' (env.action_mask: none turns masks "
                              "off)" % where)
        values = spaces.mask_values(mask, np)
        components = self.decoder.components
        n = sum(components)
        if values.shape != (n,) or not np.all((values == 0) | (values == 1)):
            raise Refused("%s: %s is %r, expected %d values of 0 or 1 (one per %s)"
                          % (where, name, mask, n, "action" if len(components) == 1
                             else "choice of each component of %s, in turn" % spaces.text(self.action)))
        at = 0
        for j, choices in enumerate(components):
            if not values[at:at + choices].any():
                raise Refused("%s: %s allows no action%s" % (
                    where, name, "" if len(components) == 1 else " for component %d" % j))
            at += choices
        self.masks[i] = values

    def reset(self, index=None):
        indices = range(len(self.envs)) if index is None else [index]
        for i in indices:
            obs, info = self.envs[i].reset(seed=int(self.seeds[i]))
            self.steps[i] = 0
            self.write_row(self.observations, i, obs)
            self.write_mask(i, info, obs)

    def step(self, auto_reset):
        actions = self.current_actions()
        observations, rewards, ended = [], [], []
        for i, env in enumerate(self.envs):
            obs, reward, term, trunc, info = env.step(actions[i])
            self.steps[i] += 1
            rewards.append(reward)
            if term or trunc:
                ended.append((i, term, trunc, obs))
                if auto_reset:
                    obs, info = env.reset(seed=int(self.seeds[i]))
                    self.steps[i] = 0
            self.write_mask(i, info, obs)
            observations.append(obs)
        self.write_observations(observations)
        try:
            self.reward_doubles[:] = array("d", rewards)
        except TypeError:
            self.rewards[:] = rewards
        self.terminated[:] = 0
        self.truncated[:] = 0
        for i, term, trunc, obs in ended:
            self.terminated[i] = bool(term)
            self.truncated[i] = bool(trunc)
            self.write_row(self.final_observations, i, obs)

    def render(self, index):
        np = self.np
        frame = self.envs[index].render()
        if not isinstance(frame, np.ndarray) or frame.ndim != 3 or frame.shape[2] != 3 \
                or frame.dtype != np.uint8:
            raise Refused("render() returned %s, expected an H x W x 3 uint8 array "
                          "(make the environment with render_mode='rgb_array')"
                          % (type(frame).__name__ if not isinstance(frame, np.ndarray)
                             else "an array of shape %s and dtype %s" % (frame.shape, frame.dtype)))
        height, width = frame.shape[:2]
        return struct.pack("<II", width, height) + np.ascontiguousarray(frame).tobytes()

    def bench(self, steps):
        """Wall and CPU seconds for `steps` steps of every environment by this
        process alone, with the actions and reset seeds now in shared memory:
        the environments' own cost, which the bridge's is measured against."""
        import time

        actions = self.current_actions()
        seeds = self.seeds.tolist()
        envs = self.envs
        start, start_cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            for i, env in enumerate(envs):
                _, _, term, trunc, _ = env.step(actions[i])
                if term or trunc:
                    env.reset(seed=seeds[i])
        return {"seconds": time.perf_counter() - start,
                "cpu_seconds": time.process_time() - start_cpu}


def user_traceback(error):
    """The traceback of `error` in the user's code: this script's frames and
    the import machinery's are left out, they would only hide where it
    happened."""
    import importlib
    import traceback

    hidden = (os.path.abspath(__file__), os.path.abspath(spaces.__file__), os.path.abspath(games.__file__),
              os.path.abspath(importlib.__file__))
    frames = [f for f in traceback.extract_tb(error.__traceback__)
              if os.path.abspath(f.filename) not in hidden and not f.filename.startswith("<frozen ")]
    text = "".join(traceback.format_exception_only(type(error), error))
    if frames:
        text = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames)) + text
    return text.rstrip("\n")


def serve(host):
    import json

    while True:
        op, arg, length = COMMAND.unpack(read_exactly(COMMAND.size))
        payload = read_exactly(length) if length else b""
        try:
            if op == OP_STEP:
                host.step(arg != 0)
                reply = b""
            elif op == OP_RESET:
                host.reset()
                reply = b""
            elif op == OP_RESET_ONE:
                host.reset(arg)
                reply = b""
            elif op == OP_GAME_STEP:
                reply = host.step_games(payload)
            elif op == OP_GAME_RESET:
                reply = host.reset_games(payload)
            elif op == OP_GAME_SEARCH:
                reply = host.search_games(payload, arg)
            elif op == OP_ACT:
                reply = host.act(payload)
            elif op == OP_RENDER:
                reply = host.render(arg)
            elif op == OP_MAP:
                host.map_memory(json.loads(payload))
                reply = b""
            elif op == OP_BENCH:
                reply = json.dumps(host.bench(arg)).encode()
            elif op == OP_CPU_TIME:
                import time

                reply = json.dumps({"cpu_seconds": time.process_time()}).encode()
            elif op == OP_CLOSE:
                answer(STATUS_OK)
                return
            else:
                raise Refused("unknown command %d" % op)
        except Refused as e:
            answer(e.status, str(e).encode("utf-8", "replace"))
            continue
        except Exception as e:
            answer(STATUS_FAILED, user_traceback(e).encode("utf-8", "replace"))
            continue
        answer(STATUS_OK, reply)


def main():
    # Ctrl-C is Troupe's to handle (it stops gracefully and closes us); the
    # process also runs in a process group of its own, so a terminal's
    # signals do not reach it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent(int(sys.argv[1]))
    import json

    op, _, length = COMMAND.unpack(read_exactly(COMMAND.size))
    if op != OP_START:
        answer(STATUS_FAILED, b"expected the start command first")
        return
    settings = json.loads(read_exactly(length))
    # Not this script's directory, but the user's: env.python_path first.
    sys.path[:1] = settings["python_path"]
    try:
        host = make_host(settings)
    except Refused as e:
        answer(e.status, str(e).encode("utf-8", "replace"))
        return
    except BaseException as e:
        reason = "%s: %s" % (type(e).__name__, e)
        answer(STATUS_FAILED, (reason + "\n" + user_traceback(e)).encode("utf-8", "replace"))
        return
    answer(STATUS_OK, json.dumps(host.hello).encode())
    serve(host)


if __name__ == "__main__":
    main()
