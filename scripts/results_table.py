#!/usr/bin/env python3
"""The table of docs/results.md from a results directory of scripts/results.sh.

    scripts/results_table.py DIR

Reads DIR/runs/<name>-s<seed>/{summary.json,eval.json,metrics.csv}, groups the
seeds of each name, and writes DIR/results.json (every number), DIR/results.md
(the tables) and DIR/curves_*.png (scripts/plot.py: the seeds of a setting
as a band). Exit status 2
when DIR holds no runs.
"""

import csv
import json
import os
import re
import statistics
import subprocess
import sys

# Final returns of the MinAtar paper's agents after 5M frames (Young & Tian,
# 2019, arXiv:1903.03176), read from the learning-curve figure in the MinAtar
# repository's README (img/learning_curves.gif at commit 4241f24: moving
# average over 100 episodes, mean of 30 runs, full action set). Read off a
# figure, so about +-1 return (+-5 on Space Invaders's 0-200 axis).
PUBLISHED = {
    "asterix": {"DQN": 17, "AC(0.8)": 19, "AC(0)": 20},
    "breakout": {"DQN": 10, "AC(0.8)": 17.5, "AC(0)": 15},
    "freeway": {"DQN": 50, "AC(0.8)": 47, "AC(0)": 47},
    "seaquest": {"DQN": 20, "AC(0.8)": 15, "AC(0)": 7},
    "space_invaders": {"DQN": 43, "AC(0.8)": 185, "AC(0)": 145},
}
GAMES = ["asterix", "breakout", "freeway", "seaquest", "space_invaders"]

# Published PPO on MinAtar, the numbers issue #31 set its bars by:
# gymnax-blines' PPO after 10M frames (printed as numbers) and pgx's MinAtar
# PPO example after 20M frames (read off its learning-curve plots, so about
# +-2). None where that source shows no number for the game.
PUBLISHED_PPO = {
    "asterix": {"gymnax 10M": None, "pgx 20M": "22-25"},
    "breakout": {"gymnax 10M": 28, "pgx 20M": 50},
    "freeway": {"gymnax 10M": None, "pgx 20M": 63},
    "seaquest": {"gymnax 10M": None, "pgx 20M": 54},
    "space_invaders": {"gymnax 10M": 131, "pgx 20M": 145},
}
# Published PPO on Gymnasium's MuJoCo v4 tasks, the anchors of issue #32:
# CleanRL's ppo_continuous_action after 1M env steps (mean ± std over its 3
# seeds, as its documentation prints them) and Sample Factory's APPO after
# 10M. None where that source gives no number.
PUBLISHED_MUJOCO = {
    "halfcheetah": {"CleanRL PPO 1M": "1442.6 ± 46.0", "Sample Factory APPO 10M": "6262.6"},
    "hopper": {"CleanRL PPO 1M": "2382.9 ± 271.7", "Sample Factory APPO 10M": "2793.4"},
    "walker2d": {"CleanRL PPO 1M": "2288.0 ± 571.8", "Sample Factory APPO 10M": None},
    "ant": {"CleanRL PPO 1M": None, "Sample Factory APPO 10M": None},
}
MUJOCO_TASKS = ["halfcheetah", "hopper", "walker2d", "ant"]

# Issue #31's bars for PPO at 10M frames (eval over 100 episodes, median of
# seeds 1-3).
PPO_BARS = {"asterix": 30, "breakout": 40, "freeway": 62, "seaquest": 60, "space_invaders": 150}


def load(run_dir):
    with open(os.path.join(run_dir, "summary.json")) as f:
        summary = json.load(f)
    with open(os.path.join(run_dir, "eval.json")) as f:
        evaluation = json.load(f)
    best = summary["final_mean_return"]  # a short run may end before its first metrics row
    at_5m = None  # the training mean of the last row at or before 5M env steps
    with open(os.path.join(run_dir, "metrics.csv")) as f:
        for row in csv.DictReader(f):
            value = float(row["mean_return"])
            best = max(best, value)
            if int(row["env_steps"]) <= 5_000_000:
                at_5m = value
    return {"seed": None, "solved": summary["solved"], "seconds_to_target": summary["seconds_to_target"],
            "env_steps_to_target": summary["env_steps_to_target"], "training_mean_return_at_5m": at_5m,
            "wall_seconds": summary["wall_seconds"], "env_steps": summary["env_steps"],
            "env_steps_per_s": summary["fps"], "eval_return_mean": evaluation["return_mean"],
            "eval_return_std": evaluation["return_std"], "best_training_mean_return": best,
            "final_training_mean_return": summary["final_mean_return"]}


def spread(values):
    """mean +- std over seeds (population std of what was measured)."""
    if not values:
        return None
    mean = statistics.fmean(values)
    std = statistics.pstdev(values) if len(values) > 1 else 0.0
    return mean, std


def min_median_max(values, pattern="%.1f"):
    if not values:
        return "-"
    values = sorted(values)
    return " / ".join(pattern % v for v in (values[0], statistics.median(values), values[-1]))


def header(*cells):
    """A markdown table's first two lines."""
    return ["| " + " | ".join(cells) + " |", "|" + " --- |" * len(cells)]


def per_run(runs, key, pattern="%.0f"):
    """One value of each run (seed), comma-separated."""
    return ", ".join(pattern % r[key] for r in runs)


def fmt(pair, digits=1):
    if pair is None:
        return "-"
    return "%.*f ± %.*f" % (digits, pair[0], digits, pair[1])


def main():
    if len(sys.argv) != 2:
        sys.stderr.write("usage: results_table.py DIR\n")
        return 2
    top = sys.argv[1]
    runs_dir = os.path.join(top, "runs")
    groups = {}
    for name in sorted(os.listdir(runs_dir) if os.path.isdir(runs_dir) else []):
        m = re.fullmatch(r"(.+)-s(\d+)", name)
        path = os.path.join(runs_dir, name)
        if not m or not os.path.exists(os.path.join(path, "eval.json")):
            continue
        run = load(path)
        run["seed"] = int(m.group(2))
        groups.setdefault(m.group(1), []).append(run)
    if not groups:
        sys.stderr.write("results_table.py: %s holds no finished runs\n" % runs_dir)
        return 2

    lines = []
    minatar = [g for g in GAMES if "%s-ff" % g in groups or "%s-lstm" % g in groups]
    if minatar:
        # The eval columns score the final checkpoint; the training columns are
        # the mean of the run's last run.stop.window episodes, the measure of
        # the published curves.
        lines += ["| game | Troupe A3C feed-forward, eval | Troupe A3C LSTM, eval |"
                  " training at the end, FF / LSTM | wall time FF / LSTM (s) |"
                  " DQN | AC(0.8) | AC(0) |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
        for game in minatar:
            cells, training, times = [], [], []
            for variant in ("ff", "lstm"):
                runs = groups.get("%s-%s" % (game, variant), [])
                cells.append(fmt(spread([r["eval_return_mean"] for r in runs])) +
                             (" (%d seeds)" % len(runs) if runs and len(runs) != 3 else ""))
                training.append(fmt(spread([r["final_training_mean_return"] for r in runs])))
                times.append("%.0f" % statistics.fmean([r["wall_seconds"] for r in runs]) if runs else "-")
            p = PUBLISHED[game]
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                game, cells[0], cells[1], " / ".join(training), " / ".join(times),
                p["DQN"], p["AC(0.8)"], p["AC(0)"]))
        lines.append("")
    ppo_games = [g for g in GAMES if "%s-ppo" % g in groups]
    if ppo_games:
        # PPO at 10M frames against issue #31's bars and the published PPO.
        lines += header("game", "Troupe PPO, eval at 10M (min / median / max)", "seeds",
                        "training at 5M / at the end (mean over seeds)", "wall time per run (s)", "bar",
                        "gymnax PPO 10M", "pgx PPO 20M")
        for game in ppo_games:
            runs = groups["%s-ppo" % game]
            at_5m = [r["training_mean_return_at_5m"] for r in runs if r["training_mean_return_at_5m"] is not None]
            p = PUBLISHED_PPO[game]
            lines.append("| %s | %s | %s | %s / %s | %s | %s | %s | %s |" % (
                game, min_median_max([r["eval_return_mean"] for r in runs]),
                per_run(runs, "seed", "%d"),
                "%.1f" % statistics.fmean(at_5m) if at_5m else "-",
                "%.1f" % statistics.fmean([r["final_training_mean_return"] for r in runs]),
                per_run(runs, "wall_seconds"), PPO_BARS[game],
                "-" if p["gymnax 10M"] is None else p["gymnax 10M"], p["pgx 20M"]))
        lines.append("")
    mujoco = [t for t in MUJOCO_TASKS if "mujoco_%s-ppo" % t in groups]
    if mujoco:
        # PPO on the MuJoCo tasks at 1M env steps against issue #32's anchors.
        lines += header("task", "Troupe PPO, eval at 1M (10 episodes; min / median / max)", "seeds",
                        "training at the end (mean over seeds)", "wall time per run (s)", "env steps/s",
                        "CleanRL PPO 1M", "Sample Factory APPO 10M")
        for task in mujoco:
            runs = groups["mujoco_%s-ppo" % task]
            p = PUBLISHED_MUJOCO[task]
            lines.append("| %s | %s | %s | %.1f | %s | %s | %s | %s |" % (
                task, min_median_max([r["eval_return_mean"] for r in runs]),
                per_run(runs, "seed", "%d"),
                statistics.fmean([r["final_training_mean_return"] for r in runs]),
                per_run(runs, "wall_seconds"), per_run(runs, "env_steps_per_s"),
                p["CleanRL PPO 1M"] or "-", p["Sample Factory APPO 10M"] or "-"))
        lines.append("")
    gym_tasks = [(k, t, bar) for k, t, bar in
                 (("gymnasium_taxi-ppo", "Taxi-v3 (masks from info), configs/gymnasium_taxi_ppo.yaml", 7.0),
                  ("gymnasium_blackjack-ppo", "Blackjack-v1 (a Tuple observation), "
                   "configs/gymnasium_blackjack_ppo.yaml", -0.10)) if k in groups]
    if gym_tasks:
        # Issue #42's bars: greedy eval of the final checkpoint within 300 s.
        lines += header("task", "greedy eval (min / median / max)", "seeds", "bar",
                        "wall time per run (s)", "env steps per run")
        for key, title, bar in gym_tasks:
            runs = groups[key]
            lines.append("| %s | %s | %s | %s | %s | %s |" % (
                title, min_median_max([r["eval_return_mean"] for r in runs], "%.3f"),
                per_run(runs, "seed", "%d"), bar, per_run(runs, "wall_seconds", "%.1f"),
                per_run(runs, "env_steps", "%d")))
        lines.append("")
    long_runs = [(k, t) for k, t in (("breakout-a3c_20m", "A3C (configs/minatar_breakout.yaml)"),
                                     ("breakout-ppo_20m", "PPO (configs/minatar_breakout_ppo.yaml)"))
                 if k in groups]
    if long_runs:
        lines += ["| Breakout, 20M frames, seed 1 | training at 5M | training at the end | eval |"
                  " wall time (s) |", "| --- | --- | --- | --- | --- |"]
        for key, title in long_runs:
            r = groups[key][0]
            lines.append("| %s | %s | %.1f | %.1f | %.0f |" % (
                title, "-" if r["training_mean_return_at_5m"] is None else "%.1f" % r["training_mean_return_at_5m"],
                r["final_training_mean_return"], r["eval_return_mean"], r["wall_seconds"]))
        lines.append("")
    ppo_tasks = [(k, t) for k, t in (("cartpole-ppo", "CartPole-v1, configs/cartpole_ppo.yaml"),
                                     ("cartpole_pomdp-lstm_ppo",
                                      "CartPole-v1 seeing [x, θ], configs/cartpole_pomdp_lstm_ppo.yaml"))
                 if k in groups]
    if ppo_tasks:
        lines += ["| PPO task | solved (confirmed 475) | env steps to target (min / median / max) |"
                  " seconds to target (min / median / max) | eval return |",
                  "| --- | --- | --- | --- | --- |"]
        for key, title in ppo_tasks:
            runs = groups[key]
            solved = [r for r in runs if r["solved"]]
            lines.append("| %s | %d of %d | %s | %s | %s |" % (
                title, len(solved), len(runs),
                min_median_max([r["env_steps_to_target"] for r in solved], "%d"),
                min_median_max([r["seconds_to_target"] for r in solved], "%.2f"),
                fmt(spread([r["eval_return_mean"] for r in runs]))))
        lines.append("")
    classic = [("cartpole", "CartPole-v1", 475), ("acrobot", "Acrobot-v1", -100),
               ("pendulum", "Pendulum-v1", -300), ("cartpole_pomdp-lstm", "CartPole-v1 seeing [x, θ], LSTM", 475),
               ("cartpole_pomdp-ff", "CartPole-v1 seeing [x, θ], feed-forward", 475)]
    present = [c for c in classic if c[0] in groups]
    if present:
        lines += ["| task | target | solved | seconds to target (min / median / max) |"
                  " eval return (100 episodes, mean ± std over seeds) | best training mean return |",
                  "| --- | --- | --- | --- | --- | --- |"]
        for key, title, target in present:
            runs = groups[key]
            solved = [r for r in runs if r["solved"]]
            seconds = sorted(r["seconds_to_target"] for r in solved)
            timing = ("%.1f / %.1f / %.1f" % (seconds[0], statistics.median(seconds), seconds[-1])
                      if seconds else "-")
            lines.append("| %s | %s | %d of %d | %s | %s | %s |" % (
                title, target, len(solved), len(runs), timing,
                fmt(spread([r["eval_return_mean"] for r in runs])),
                fmt(spread([r["best_training_mean_return"] for r in runs]))))
        lines.append("")
    with open(os.path.join(top, "results.md"), "w") as f:
        f.write("\n".join(lines))
    with open(os.path.join(top, "results.json"), "w") as f:
        json.dump({"groups": groups, "published": PUBLISHED, "published_ppo": PUBLISHED_PPO,
                   "ppo_bars": PPO_BARS, "published_mujoco": PUBLISHED_MUJOCO}, f, indent=2)
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plot.py")
    figures = [(g, "MinAtar/%s-v1" % g) for g in minatar]
    if any(k.startswith("cartpole_pomdp-") for k in groups):
        figures.append(("cartpole_pomdp", "CartPole-v1 seeing [x, θ]"))
    figures = [(name, r"(ff|lstm)", "curves_%s.png" % name, "%s: feed-forward and LSTM, seeds as a band" % title)
               for name, title in figures]
    figures += [(g, r"ppo", "curves_%s_ppo.png" % g, "MinAtar/%s-v1: PPO, seeds as a band" % g) for g in ppo_games]
    figures += [("mujoco_" + t, r"ppo", "curves_mujoco_%s.png" % t, "%s: PPO, seeds as a band" % t) for t in mujoco]
    if long_runs:
        kinds = " and ".join(title.split(" ")[0] for _, title in long_runs)
        figures.append(("breakout", r"(a3c|ppo)_20m", "curves_breakout_20m.png",
                        "MinAtar/breakout-v1, 20M frames: %s, seed 1" % kinds))
    for name, variants, image, title in figures:
        dirs = [os.path.join(runs_dir, n) for n in sorted(os.listdir(runs_dir))
                if re.fullmatch(r"%s-%s-s\d+" % (name, variants), n)]
        if dirs:
            subprocess.run([sys.executable, plot, *dirs, "--out", os.path.join(top, image), "--title", title],
                           check=False)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
