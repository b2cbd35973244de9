#!/usr/bin/env python3
"""Learning curves of Troupe runs.

    scripts/plot.py RUN_DIR... --out FILE.png [--title TEXT]

Each RUN_DIR is what `troupe train --run-dir RUN_DIR` wrote: metrics.csv (one
row per log.progress_seconds) and config.yaml. The figure has two rows:

  1. mean return against env steps (left) and against wall time (right);
  2. env steps/s (left) and policy lag, mean and max (right), against wall time.

Runs whose config.yaml files are equal except for what does not change
learning (run.seed, run.name, log.*, checkpoint.*) are one group: a group of
several runs is drawn as its mean, with a shaded band from its minimum to its
maximum (each run interpolated onto a common grid that ends where its shortest
run ends), and each run as a thin line beside it. A run on
its own is drawn as one line, labelled by its directory.

Exit status: 0 on success, 2 on bad input (a directory without metrics.csv, or
with no rows in it), 1 when matplotlib is missing.
"""

import argparse
import csv
import math
import os
import sys
import textwrap


def _import_matplotlib():
    """Imports matplotlib (headless); falls back to Debian's python3, which
    python3-matplotlib installs into, when another python3 comes first on PATH."""
    try:
        import matplotlib
    except ImportError:
        system_python = "/usr/bin/python3"
        if (os.path.exists(system_python)
                and os.path.realpath(sys.executable) != os.path.realpath(system_python)
                and not os.environ.get("TROUPE_PLOT_REEXEC")):
            os.environ["TROUPE_PLOT_REEXEC"] = "1"
            os.execv(system_python, [system_python] + sys.argv)
        sys.stderr.write("plot.py: error: matplotlib is not installed for %s "
                         "(apt-get install python3-matplotlib)\n" % sys.executable)
        sys.exit(1)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


class InputError(Exception):
    """A run directory that cannot be plotted: exit status 2."""


COLUMNS = ["wall_seconds", "env_steps", "env_steps_per_s", "episodes", "mean_return",
           "mean_predict_batch", "updates", "policy_lag_mean", "policy_lag_max", "policy_loss",
           "value_loss", "entropy", "approx_kl", "clip_fraction"]


def read_metrics(run_dir):
    path = os.path.join(run_dir, "metrics.csv")
    if not os.path.isdir(run_dir):
        raise InputError("%s: no such run directory" % run_dir)
    if not os.path.isfile(path):
        raise InputError("%s: no metrics.csv (is it a run directory of `troupe train`?)"
                         % run_dir)
    columns = {}
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        missing = [c for c in ("wall_seconds", "env_steps", "mean_return")
                   if c not in (reader.fieldnames or [])]
        if missing:
            raise InputError("%s: columns %s missing" % (path, ", ".join(missing)))
        for name in reader.fieldnames:
            columns[name] = []
        for line, row in enumerate(reader, start=2):
            for name in reader.fieldnames:
                text = (row.get(name) or "").strip()
                try:
                    columns[name].append(float(text) if text else math.nan)
                except ValueError:
                    raise InputError("%s:%d: %s is not a number: %r" % (path, line, name, text))
    if not columns["env_steps"]:
        raise InputError("%s: has no rows yet (the run ended before its first "
                         "log.progress_seconds)" % path)
    return columns


def flatten(node, prefix, out):
    if isinstance(node, dict):
        for key, value in node.items():
            flatten(value, prefix + "." + str(key) if prefix else str(key), out)
    else:
        out[prefix] = repr(node)
    return out


def parse_simple_yaml(text):
    """The block YAML that `troupe train` writes (mappings, scalars, block or
    flow lists of scalars), flattened to dotted keys. Used without PyYAML."""
    out, stack = {}, []  # stack of (indent, dotted key)
    last_key = None
    for raw in text.splitlines():
        line = raw.split(" #")[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        body = line.strip()
        if body.startswith("- "):
            if last_key is not None:
                out.setdefault(last_key, []).append(body[2:].strip())
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        key, _, value = body.partition(":")
        dotted = (stack[-1][1] + "." if stack else "") + key.strip()
        value = value.strip()
        if value:
            out[dotted] = value
        else:
            stack.append((indent, dotted))
        last_key = dotted
    return {k: repr(v) for k, v in out.items()}


def read_config(run_dir):
    path = os.path.join(run_dir, "config.yaml")
    if not os.path.isfile(path):
        return None
    with open(path) as f:
        text = f.read()
    try:
        import yaml
        return flatten(yaml.safe_load(text) or {}, "", {})
    except ImportError:
        return parse_simple_yaml(text)


def strip_quotes(value):
    return value.strip("'\"") if isinstance(value, str) else value


def ignored_for_grouping(key):
    """Keys in which runs of one experiment may differ: the seed, the name, and
    how the run logs and checkpoints."""
    return key in ("run.seed", "run.name") or key.startswith(("log.", "checkpoint."))


class Run:
    def __init__(self, run_dir):
        self.dir = run_dir
        self.name = os.path.basename(os.path.normpath(run_dir)) or run_dir
        self.metrics = read_metrics(run_dir)
        self.config = read_config(run_dir)

    def group_key(self):
        if self.config is None:
            return ("dir", self.dir)  # no config: a group of its own
        rest = {k: v for k, v in self.config.items() if not ignored_for_grouping(k)}
        return ("config", tuple(sorted(rest.items())))

    def setting(self, key, default="?"):
        if not self.config or key not in self.config:
            return default
        value = self.config[key]
        try:
            import ast
            return str(ast.literal_eval(value))
        except (ValueError, SyntaxError):
            return strip_quotes(value)


def group_runs(runs):
    groups, order = {}, []
    for run in runs:
        key = run.group_key()
        if key not in groups:
            groups[key] = []
            order.append(key)
        groups[key].append(run)
    return [groups[k] for k in order]


def distinguishing_keys(groups):
    """The config keys whose values differ between groups: what a reader needs to
    tell two groups of one environment apart (say model.recurrent.kind and algo.lr)."""
    configs = [g[0].config for g in groups if g[0].config is not None]
    keys = sorted(set().union(*configs)) if configs else []
    return [k for k in keys if not ignored_for_grouping(k)
            and len({c.get(k) for c in configs}) > 1]


def group_label(group, differing=()):
    first = group[0]
    if len(group) == 1:
        env = first.setting("env.id", "")
        label = first.name + (" (%s)" % env if env and env not in first.name else "")
    else:
        seeds = sorted(r.setting("run.seed") for r in group)
        label = "%s (%s): %d seeds (%s), mean to the shortest run's end, min-max band" % (
            first.setting("run.name"), first.setting("env.id"), len(group), ", ".join(seeds))
    # An A3C run's resolved config holds algo.ppo.* defaults it never reads.
    is_ppo = first.setting("algo.kind", "a3c") == "ppo"
    shown = [k for k in differing if k not in ("run.name", "env.id")
             and (is_ppo or not k.startswith("algo.ppo."))]
    if shown and first.config is not None:
        label += "; " + ", ".join("%s %s" % (k, first.setting(k, "-")) for k in shown)
    return "\n".join(textwrap.wrap(label, 150))


def valid_xy(run, x_name, y_name):
    xs, ys = run.metrics.get(x_name), run.metrics.get(y_name)
    if xs is None or ys is None:
        return [], []
    keep = [True] * len(xs)
    if y_name == "mean_return" and "episodes" in run.metrics:
        keep = [e > 0 for e in run.metrics["episodes"]]  # no return before the first episode
    pairs = [(x, y) for x, y, k in zip(xs, ys, keep) if k and not (math.isnan(x) or math.isnan(y))]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def draw(ax, group, x_name, y_name, color, label, style="-", band=True):
    """One line per run, or for a group the mean on a common grid with a
    min-max band and the runs as thin lines. Returns whether it drew anything."""
    import numpy as np
    curves = [valid_xy(r, x_name, y_name) for r in group]
    curves = [(x, y) for x, y in curves if x]
    if not curves:
        return False
    if len(curves) == 1:
        x, y = curves[0]
        ax.plot(x, y, style, color=color, label=label, linewidth=1.6)
        return True
    for x, y in curves:
        ax.plot(x, y, style, color=color, linewidth=0.6, alpha=0.35)
    start = max(min(x) for x, _ in curves)
    end = min(max(x) for x, _ in curves)
    if end <= start:
        return True
    grid = np.linspace(start, end, 200)
    ys = np.array([np.interp(grid, np.asarray(x), np.asarray(y)) for x, y in curves])
    if band:
        ax.fill_between(grid, ys.min(axis=0), ys.max(axis=0), color=color, alpha=0.2,
                        linewidth=0)
    ax.plot(grid, ys.mean(axis=0), style, color=color, label=label, linewidth=1.8)
    return True


def thousands(value, _pos=None):
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= scale:
            return ("%.1f" % (value / scale)).rstrip("0").rstrip(".") + suffix
    return "%g" % value


def plot(runs, out, title):
    plt = _import_matplotlib()
    from matplotlib.lines import Line2D
    from matplotlib.ticker import FuncFormatter

    groups = group_runs(runs)
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.5))
    (ret_steps, ret_time), (speed, lag) = axes

    targets = set()
    differing = distinguishing_keys(groups) if len(groups) > 1 else []
    for i, group in enumerate(groups):
        color = colors[i % len(colors)]
        label = group_label(group, differing)
        draw(ret_steps, group, "env_steps", "mean_return", color, label)
        draw(ret_time, group, "wall_seconds", "mean_return", color, label)
        draw(speed, group, "wall_seconds", "env_steps_per_s", color, label)
        draw(lag, group, "wall_seconds", "policy_lag_mean", color, label)
        draw(lag, group, "wall_seconds", "policy_lag_max", color, None, style=":", band=False)
        target = group[0].setting("run.stop.mean_return", None)
        if target is not None:
            try:
                targets.add(float(target))
            except ValueError:
                pass

    for ax in (ret_steps, ret_time):
        for t in targets:
            lo, hi = ax.get_ylim()
            if lo - 0.5 * (hi - lo) <= t <= hi + 0.5 * (hi - lo):
                ax.axhline(t, color="grey", linestyle="--", linewidth=0.8)
        ax.set_ylabel("mean return (last run.stop.window episodes)")
    ret_steps.set_xlabel("env steps")
    ret_steps.xaxis.set_major_formatter(FuncFormatter(thousands))
    ret_steps.set_title("mean return vs env steps")
    ret_time.set_xlabel("wall time (s)")
    ret_time.set_title("mean return vs wall time")
    speed.set_xlabel("wall time (s)")
    speed.set_ylabel("env steps/s")
    speed.yaxis.set_major_formatter(FuncFormatter(thousands))
    speed.set_title("throughput")
    speed.set_ylim(bottom=0)
    lag.set_xlabel("wall time (s)")
    lag.set_ylabel("policy lag (parameter versions)")
    lag.set_title("policy lag: mean (solid), max (dotted)")
    lag.set_ylim(bottom=0)
    for ax in axes.flat:
        ax.grid(True, alpha=0.3)

    handles, labels = ret_steps.get_legend_handles_labels()
    if any(len(g) > 1 for g in groups):
        handles.append(Line2D([], [], color="grey", linewidth=0.6, alpha=0.6))
        labels.append("single runs")
    if targets:
        handles.append(Line2D([], [], color="grey", linestyle="--", linewidth=0.8))
        labels.append("target (run.stop.mean_return)")
    # Long labels (groups told apart by their settings) get a row each, so that
    # none is cut at the figure's edge.
    columns = 1 if max(len(l) for l in labels) > 60 else min(3, len(labels))
    fig.legend(handles, labels, loc="lower center", ncol=columns, frameon=False, fontsize=9)
    fig.suptitle(title or ", ".join(sorted({g[0].setting("env.id", g[0].name) for g in groups})))
    rows = (sum(l.count("\n") + 1 for l in labels) if columns == 1
            else math.ceil(len(labels) / columns))
    fig.tight_layout(rect=(0, 0.035 * rows, 1, 1))
    out_dir = os.path.dirname(os.path.abspath(out))
    os.makedirs(out_dir, exist_ok=True)
    fig.savefig(out, dpi=100)
    plt.close(fig)


def main(argv):
    parser = argparse.ArgumentParser(
        prog="plot.py", description="Plot learning curves of Troupe run directories.")
    parser.add_argument("run_dirs", nargs="+", metavar="RUN_DIR",
                        help="a directory written by `troupe train --run-dir`")
    parser.add_argument("--out", required=True, metavar="FILE.png", help="the image to write")
    parser.add_argument("--title", help="figure title (default: the environment ids)")
    args = parser.parse_args(argv)
    try:
        runs = [Run(d) for d in args.run_dirs]
    except InputError as e:
        sys.stderr.write("plot.py: error: %s\n" % e)
        return 2
    plot(runs, args.out, args.title)
    print("plot.py: wrote %s (%d run%s)" % (args.out, len(runs), "" if len(runs) == 1 else "s"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
