#!/usr/bin/env python3
"""The table of a scripts/tune.sh search: per candidate, min / median / max
over its seeds of env steps and seconds to the target (solved runs), the
final training return and the evaluation's mean return. Writes DIR/tune.json
and prints the table as Markdown.

    scripts/tune_table.py DIR "SEEDS"
"""
import json
import statistics
import sys
from pathlib import Path


def spread(values, fmt):
    if not values:
        return "-"
    return " / ".join(fmt(v) for v in (min(values), statistics.median(values), max(values)))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    out = Path(sys.argv[1])
    seeds = sys.argv[2].split()
    rows = []
    for line in (out / "candidates.txt").read_text().splitlines():
        index, _, candidate = line.partition("\t")
        runs = []
        for seed in seeds:
            run = out / "runs" / f"c{index}-s{seed}"
            summary = json.loads((run / "summary.json").read_text())
            evaluation = run / "eval.json"
            runs.append({
                "seed": int(seed),
                "solved": bool(summary.get("solved")),
                "env_steps": summary.get("env_steps"),
                "env_steps_to_target": summary.get("env_steps_to_target"),
                "seconds_to_target": summary.get("seconds_to_target"),
                "final_mean_return": summary.get("final_mean_return"),
                "eval_mean_return": json.loads(evaluation.read_text()).get("return_mean")
                if evaluation.exists() else None,
            })
        rows.append({"candidate": candidate, "runs": runs})
    (out / "tune.json").write_text(json.dumps(rows, indent=2) + "\n")

    print(f"| candidate | solved | env steps to target (k) | seconds to target | final return | eval return |")
    print("| --- | --- | --- | --- | --- | --- |")
    for row in rows:
        runs = row["runs"]
        solved = [r for r in runs if r["solved"]]
        print("| {} | {} of {} | {} | {} | {} | {} |".format(
            row["candidate"] or "(as shipped)", len(solved), len(runs),
            spread([r["env_steps_to_target"] / 1000 for r in solved], lambda v: f"{v:.0f}"),
            spread([r["seconds_to_target"] for r in solved], lambda v: f"{v:.2f}"),
            spread([r["final_mean_return"] for r in runs if r["final_mean_return"] is not None], lambda v: f"{v:.1f}"),
            spread([r["eval_mean_return"] for r in runs if r["eval_mean_return"] is not None], lambda v: f"{v:.1f}")))
    print(f"tune: {out / 'tune.json'}")


if __name__ == "__main__":
    main()
