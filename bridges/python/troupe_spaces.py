"""troupe_spaces: how troupe_env_host.py reads an environment's spaces and
moves their values through shared memory. Spaces are read by duck typing,
through the attributes Gymnasium's space classes have (gymnasium itself need
not be importable).

A space is first described as plain data (`describe`): leaves Discrete, Box,
MultiBinary and MultiDiscrete, containers Tuple and Dict (nested to any
depth). Then:

- an observation is what the network reads: a lone Box stays as it is, a
  lone Discrete becomes its one-hot row, anything else becomes one flat Box
  of its leaves in order (Discrete and MultiDiscrete as one-hot rows,
  MultiBinary as 0/1, Box as its values). A Dict's "action_mask" key is
  taken out when it is the run's mask source (PettingZoo's convention);
- an action is a Discrete or a Box alone, or a MultiDiscrete one of discrete
  components: a MultiDiscrete, a MultiBinary (two choices per element), or a
  Tuple or Dict whose leaves are these or Discrete; Troupe sends one index
  per component and `ActionDecoder` rebuilds the value the environment takes.
  A Tuple or Dict with Box leaves too is a hybrid action (the components'
  indices, then the Box leaves' values), or a Box when it has only Box leaves;
- an action mask is one 0/1 entry per choice, the components' in turn.
"""


class Refused(Exception):
    """The environment cannot be used as it is: the message says why."""

    def __init__(self, message, status=1):
        super().__init__(message)
        self.status = status


MASK_KEY = "action_mask"


def finite_list(values):
    """JSON has no infinities: they travel as the strings "inf" and "-inf"."""
    out = []
    for v in values:
        v = float(v)
        if v != v:
            raise Refused("a Box bound is NaN")
        out.append(v if abs(v) != float("inf") else ("inf" if v > 0 else "-inf"))
    return out


def describe(space, where):
    """The space as plain data; `where` names it in messages
    ("observation['pos'][1]")."""
    import numpy as np

    kind = type(space).__name__
    if kind == "Discrete" and hasattr(space, "n"):
        if int(space.n) < 1:
            raise Refused("%s: %r has no element" % (where, space))
        return {"kind": "discrete", "n": int(space.n), "start": int(getattr(space, "start", 0))}
    if kind == "Box" and hasattr(space, "shape") and hasattr(space, "low"):
        shape = [int(d) for d in space.shape] or [1]
        if any(d <= 0 for d in shape):
            raise Refused("unsupported space at %s: %r: a Box needs a positive size" % (where, space))
        low = np.broadcast_to(np.asarray(space.low, dtype=np.float64), space.shape).ravel()
        high = np.broadcast_to(np.asarray(space.high, dtype=np.float64), space.shape).ravel()
        return {"kind": "box", "shape": shape, "low": finite_list(low),
                "high": finite_list(high), "dtype": str(np.dtype(space.dtype))}
    if kind == "MultiBinary" and hasattr(space, "n"):
        shape = [int(d) for d in np.atleast_1d(np.asarray(space.n))]
        if any(d <= 0 for d in shape):
            raise Refused("unsupported space at %s: %r: a MultiBinary needs a positive size"
                          % (where, space))
        return {"kind": "multi_binary", "shape": shape}
    if kind == "MultiDiscrete" and hasattr(space, "nvec"):
        nvec = np.asarray(space.nvec, dtype=np.int64)
        start = np.broadcast_to(np.asarray(getattr(space, "start", 0), dtype=np.int64), nvec.shape)
        if nvec.size == 0 or (nvec < 1).any():
            raise Refused("unsupported space at %s: %r: every component of a MultiDiscrete needs "
                          "at least one choice" % (where, space))
        return {"kind": "multi_discrete", "shape": [int(d) for d in nvec.shape] or [1],
                "nvec": [int(n) for n in nvec.ravel()], "start": [int(s) for s in start.ravel()]}
    if kind == "Tuple" and hasattr(space, "spaces"):
        if not len(space.spaces):
            raise Refused("unsupported space at %s: an empty Tuple" % where)
        return {"kind": "tuple",
                "spaces": [describe(s, "%s[%d]" % (where, i)) for i, s in enumerate(space.spaces)]}
    if kind == "Dict" and hasattr(space, "spaces"):
        if not len(space.spaces):
            raise Refused("unsupported space at %s: an empty Dict" % where)
        return {"kind": "dict", "keys": list(space.spaces.keys()),
                "spaces": [describe(s, "%s[%r]" % (where, k)) for k, s in space.spaces.items()]}
    raise Refused("unsupported space at %s: %r: Troupe takes Box, Discrete, MultiDiscrete, "
                  "MultiBinary, and Dict or Tuple of these" % (where, space))


def text(d):
    """The described space as people write it: "Tuple(Discrete(32), Box(2))"."""
    kind = d["kind"]
    shape = "x".join(str(n) for n in d.get("shape", []))
    if kind == "discrete":
        return "Discrete(%d%s)" % (d["n"], ", start=%d" % d["start"] if d["start"] else "")
    if kind == "box":
        return "Box(%s)" % shape
    if kind == "multi_binary":
        return "MultiBinary(%s)" % shape
    if kind == "multi_discrete":
        return "MultiDiscrete([%s])" % " ".join(str(n) for n in d["nvec"])
    if kind == "hybrid":  # as Troupe takes a Tuple or Dict action of discrete and Box parts
        return "MultiDiscrete([%s]) + Box(%d)" % (" ".join(str(n) for n in d["nvec"]), len(d["low"]))
    if kind == "tuple":
        return "Tuple(%s)" % ", ".join(text(s) for s in d["spaces"])
    return "Dict(%s)" % ", ".join("%s: %s" % (k, text(s)) for k, s in zip(d["keys"], d["spaces"]))


def leaves(d, path=()):
    """(path, leaf) of every leaf in order; a path is the keys and indices
    that reach it from the whole value."""
    if d["kind"] == "tuple":
        for i, s in enumerate(d["spaces"]):
            yield from leaves(s, path + (i,))
    elif d["kind"] == "dict":
        for k, s in zip(d["keys"], d["spaces"]):
            yield from leaves(s, path + (k,))
    else:
        yield path, d


def has_mask_key(d):
    return d["kind"] == "dict" and MASK_KEY in d["keys"]


def path_text(role, path):
    return role + "".join("[%r]" % p for p in path)


class ObservationEncoder:
    """Writes observations into float32 rows of shared memory, as the
    network reads them; `hello` is what Troupe is told of them."""

    def __init__(self, d, np, mask_in_observation):
        self.np = np
        self.direct = d["kind"] == "box"
        self.one_hot = d["kind"] == "discrete"
        if self.direct:
            self.shape, self.hello = d["shape"], d
            return
        if self.one_hot:
            self.start = d["start"]
            self.shape, self.hello = [d["n"]], d
            return
        self.leaves, low, high, offset, described = [], [], [], 0, []
        for path, leaf in leaves(d):
            if mask_in_observation and path == (MASK_KEY,):
                continue  # the mask, not an input
            kind = leaf["kind"]
            if kind == "box":
                size = int(np.prod(leaf["shape"]))
                low += leaf["low"]
                high += leaf["high"]
                self.leaves.append((path, kind, offset, size, None))
            elif kind == "multi_binary":
                size = int(np.prod(leaf["shape"]))
                self.leaves.append((path, kind, offset, size, None))
            else:  # one-hot rows: where each component's choices begin
                nvec = [leaf["n"]] if kind == "discrete" else leaf["nvec"]
                start = [leaf["start"]] if kind == "discrete" else leaf["start"]
                begin = np.cumsum([0] + nvec[:-1]).astype(np.int64)
                start = np.asarray(start, np.int64)
                size = int(sum(nvec))
                self.leaves.append((path, kind, offset, size,
                                    (begin - start, start, np.asarray(nvec), text(leaf))))
            if kind != "box":
                low += [0.0] * size
                high += [1.0] * size
            described.append({
                "key": ".".join(str(p) for p in path) if path else "obs", "kind": kind,
                "shape": [] if kind == "discrete" else list(leaf["shape"]),
                "nvec": [leaf["n"]] if kind == "discrete" else leaf.get("nvec", []),
                "start": [leaf["start"]] if kind == "discrete" else leaf.get("start", []),
                "offset": offset, "size": size})
            offset += size
        if offset == 0:
            raise Refused("the observation has nothing but its action mask")
        self.shape = [offset]
        self.hello = {"kind": "box", "shape": [offset], "low": low, "high": high,
                      "declared": text(d), "leaves": described}

    def write(self, target, i, value):
        """Observation `value` into row i of `target` ([rows, *shape])."""
        np = self.np
        if self.direct:
            target[i] = value
            return
        row = target[i]
        row[...] = 0.0
        if self.one_hot:
            row[int(value) - self.start] = 1.0
            return
        for path, kind, offset, size, codes in self.leaves:
            v = value
            for p in path:
                v = v[p]
            if codes is None:
                row[offset:offset + size] = np.asarray(v, dtype=np.float32).ravel()
            else:
                shift, start, nvec, space = codes
                chosen = np.asarray(v, dtype=np.int64).ravel()
                if chosen.shape != start.shape or ((chosen < start) | (chosen >= start + nvec)).any():
                    raise Refused("environment %d: %s is %r, not an element of %s"
                                  % (i, path_text("observation", path), v, space))
                row[offset + chosen + shift] = 1.0

    def write_all(self, target, values):
        for i, value in enumerate(values):
            self.write(target, i, value)


class ActionDecoder:
    """From one row of action floats to the value the environment takes.

    A structured action's row holds one index per discrete component first
    (Discrete, each MultiDiscrete element, each MultiBinary element; leaves
    in order), then the values of its Box leaves, each flattened, in order:
    the policy's categorical heads, then its Gaussian. With no discrete leaf
    it is a Box to Troupe, with no Box leaf a MultiDiscrete, else hybrid."""

    def __init__(self, d, np):
        self.np = np
        self.d = d
        kind = d["kind"]
        if kind in ("discrete", "box"):
            self.hello = d
            self.components = [d["n"]] if kind == "discrete" else None
            self.box_size = 0 if kind == "discrete" else int(np.prod(d["shape"]))
            return
        nvec, low, high = [], [], []
        for path, leaf in leaves(d):
            if leaf["kind"] == "box":
                low += leaf["low"]
                high += leaf["high"]
                continue
            nvec += (
                [leaf["n"]] if leaf["kind"] == "discrete"
                else leaf["nvec"] if leaf["kind"] == "multi_discrete"
                else [2] * int(np.prod(leaf["shape"])))
        self.box_size = len(low)
        self.components = nvec or None
        if not nvec:
            self.hello = {"kind": "box", "shape": [len(low)], "low": low, "high": high}
        elif not low:
            self.hello = {"kind": "multi_discrete", "nvec": nvec}
        else:
            self.hello = {"kind": "hybrid", "nvec": nvec, "low": low, "high": high}
        if text(d) != text(self.hello):  # e.g. a Tuple, not a MultiDiscrete alone
            self.hello["declared"] = text(d)

    def width(self):
        """Floats per action in shared memory."""
        return len(self.components or []) + self.box_size

    def decode(self, row):
        # Two cursors: the discrete components' indices, then the Box values.
        value, _, _ = self._build(self.d, row, 0, len(self.components or []))
        return value

    def _build(self, d, row, at, box_at):
        np = self.np
        kind = d["kind"]
        if kind == "discrete":
            return int(row[at]) + d["start"], at + 1, box_at
        if kind == "box":
            k = int(np.prod(d["shape"]))
            return row[box_at:box_at + k].astype(d["dtype"]).reshape(d["shape"]), at, box_at + k
        if kind == "multi_discrete":
            k = len(d["nvec"])
            values = row[at:at + k].astype(np.int64) + np.asarray(d["start"], np.int64)
            return values.reshape(d["shape"]), at + k, box_at
        if kind == "multi_binary":
            k = int(np.prod(d["shape"]))
            return row[at:at + k].astype(np.int8).reshape(d["shape"]), at + k, box_at
        if kind == "tuple":
            parts = []
            for s in d["spaces"]:
                part, at, box_at = self._build(s, row, at, box_at)
                parts.append(part)
            return tuple(parts), at, box_at
        parts = {}
        for key, s in zip(d["keys"], d["spaces"]):
            parts[key], at, box_at = self._build(s, row, at, box_at)
        return parts, at, box_at


def mask_values(mask, np):
    """An action mask as one flat array: a tuple of per-component masks (as
    Gymnasium's MultiDiscrete.sample takes them) is joined in order."""
    if isinstance(mask, (tuple, list)) and any(np.ndim(m) > 0 for m in mask):
        return np.concatenate([np.asarray(m).ravel() for m in mask])
    return np.asarray(mask).ravel()
