#!/usr/bin/env python3
"""The tables of scripts/scaling.sh: reads DIR/runs/*/summary.json (and
eval_best.json), writes DIR/scaling.md and DIR/scaling.json.

    scripts/scaling_table.py DIR
"""
import json
import re
import statistics
import sys
from pathlib import Path


def spread(values, digits=1):
    """min / median / max, or '-' when there are none."""
    if not values:
        return "-"
    f = f"{{:.{digits}f}}"
    return " / ".join(f.format(v) for v in (min(values), statistics.median(values), max(values)))


def load(runs):
    found = {}
    for summary in sorted(runs.glob("*/summary.json")):
        name = summary.parent.name
        try:
            s = json.loads(summary.read_text())
        except json.JSONDecodeError:
            continue
        best = summary.parent / "eval_best.json"
        if best.exists():
            s["eval_best"] = json.loads(best.read_text())
        found[name] = s
    return found


def killed_mid_run(out, name):
    """Whether scaling.sh SIGKILLed a worker of run NAME while it still ran
    (it leaves NAME.killed beside the run then)."""
    return (out / "runs" / (name + ".killed")).exists()


def cartpole_rows(runs, out):
    """One row per (algorithm, agents or workers), over its seeds."""
    groups, killed = {}, {}
    for name, s in runs.items():
        m = re.fullmatch(r"cartpole-(a3c|ppo)-(a\d+|w\dx\d)-s(\d+)", name)
        if m:
            groups.setdefault((m.group(1), m.group(2)), []).append(s)
            if killed_mid_run(out, name):
                killed[(m.group(1), m.group(2))] = killed.get((m.group(1), m.group(2)), 0) + 1

    def order(key):
        kind, who = key
        return (kind, who[0] == "w", int(re.findall(r"\d+", who)[0]) * (int(who[-1]) if who[0] == "w" else 1))

    rows = []
    for key in sorted(groups, key=order):
        kind, who = key
        ss = groups[key]
        solved = [s for s in ss if s.get("solved")]
        rows.append({
            "algorithm": kind,
            "agents": (who[1:] + " (one machine)") if who[0] == "a" else
                      f"{who[1]} workers x {who[3]} (loopback" +
                      (f"; one SIGKILLed 4 s in if still running: in {killed.get(key, 0)} of {len(ss)}"
                       if who == "w2x4" else "") + ")",
            "solved": f"{len(solved)} of {len(ss)}",
            "env_steps_k": spread([s["env_steps_to_target"] / 1000 for s in solved], 0),
            "seconds": spread([s["seconds_to_target"] for s in solved], 2),
            "lag": spread([s["mean_policy_lag"] for s in ss], 1),
            "stale_share": spread([100.0 * s["learner"].get("samples_stale", 0) / max(1, s["samples_collected"]) for s in ss], 1),
        })
    return rows


def breakout_rows(runs):
    groups = {}
    for name, s in runs.items():
        m = re.fullmatch(r"breakout-(a3c|ppo)-a(\d+)-s(\d+)", name)
        if m:
            groups.setdefault((m.group(1), int(m.group(2))), []).append((int(m.group(3)), s))
    rows = []
    for (kind, n) in sorted(groups):
        ss = sorted(groups[(kind, n)], key=lambda x: x[0])
        rows.append({
            "algorithm": kind, "agents": n,
            "seeds": ", ".join(str(seed) for seed, _ in ss),
            "training_mean": spread([s["final_mean_return"] for _, s in ss], 1),
            "per_seed": ", ".join(f"{s['final_mean_return']:.1f}" for _, s in ss),
            "lag": spread([s["mean_policy_lag"] for _, s in ss], 1),
            "seconds": spread([s["wall_seconds"] for _, s in ss], 0),
            "frames": spread([s["env_steps"] / 1e6 for _, s in ss], 2),
        })
    return rows


def past_rows(runs):
    rows = []
    for name, s in sorted(runs.items(), key=lambda x: x[0]):
        m = re.fullmatch(r"past-a3c-s(\d+)", name)
        if not m:
            continue
        best = s.get("best") or {}
        rows.append({
            "seed": int(m.group(1)),
            "env_steps": s["env_steps"],
            "final_mean_return": s["final_mean_return"],
            "best_evaluated": best.get("return_mean"),
            "eval_best": s.get("eval_best", {}).get("return_mean"),
        })
    return sorted(rows, key=lambda r: r["seed"])


def cluster_tries(runs, out, pattern):
    """Tries of one kind: how many solved, and in how many a worker was
    killed while the run went on."""
    names = [name for name in runs if re.fullmatch(pattern, name)]
    tries = [runs[name] for name in names]
    killed = sum(1 for name in names if killed_mid_run(out, name))
    return {"tries": len(tries), "solved": sum(1 for s in tries if s.get("solved")), "killed": killed,
            "seconds": spread([s["seconds_to_target"] for s in tries if s.get("solved")], 2)}


def table(rows, columns):
    out = ["| " + " | ".join(title for title, _ in columns) + " |",
           "| " + " | ".join("---" for _ in columns) + " |"]
    for r in rows:
        out.append("| " + " | ".join(str(r[key]) if r[key] is not None else "-" for _, key in columns) + " |")
    return "\n".join(out)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    if not (out / "runs").is_dir():
        print(f"scaling_table: {out / 'runs'} is not a directory (scripts/scaling.sh --out {out} makes it)",
              file=sys.stderr)
        sys.exit(2)
    runs = load(out / "runs")
    result = {"cartpole": cartpole_rows(runs, out), "breakout": breakout_rows(runs),
              "past": past_rows(runs),
              "cluster_tries": cluster_tries(runs, out, r"cluster-try-\d+"),
              "cluster_tries_early": cluster_tries(runs, out, r"cluster-try-early-\d+")}
    md = []
    if result["cartpole"]:
        md += ["### CartPole-v1 (configs/cartpole.yaml, cartpole_ppo.yaml): to a confirmed 475", "",
               table(result["cartpole"], [("algorithm", "algorithm"), ("agents", "agents"), ("solved", "solved"),
                                          ("env steps (k; min / median / max)", "env_steps_k"),
                                          ("seconds", "seconds"), ("mean policy lag", "lag"),
                                          ("samples dropped as stale (%)", "stale_share")]), ""]
    if result["breakout"]:
        md += ["### MinAtar Breakout at 5M frames: the training mean (last 100 episodes)", "",
               table(result["breakout"], [("algorithm", "algorithm"), ("agents", "agents"), ("seeds", "seeds"),
                                          ("training mean (min / median / max)", "training_mean"),
                                          ("per seed", "per_seed"), ("mean policy lag", "lag"),
                                          ("wall seconds", "seconds")]), ""]
    if result["past"]:
        md += ["### CartPole A3C trained 3M env steps with no reachable target", "",
               table(result["past"], [("seed", "seed"), ("env steps", "env_steps"),
                                      ("final training mean", "final_mean_return"),
                                      ("best.pt's own evaluation", "best_evaluated"),
                                      ("troupe eval --best (100 episodes)", "eval_best")]), ""]
    for key, when in (("cluster_tries", "4 s"), ("cluster_tries_early", "1.5 s")):
        c = result[key]
        if c["tries"]:
            md += [f"Cluster tries, A3C (2 workers x 4 agents, one SIGKILLed {when} in): solved {c['solved']} "
                   f"of {c['tries']} (the worker was still running when killed in {c['killed']} of them), "
                   f"seconds to target {c['seconds']} (min / median / max).", ""]
    (out / "scaling.md").write_text("\n".join(md))
    (out / "scaling.json").write_text(json.dumps(result, indent=2))
    print("\n".join(md))


if __name__ == "__main__":
    main()
