#!/usr/bin/env python3
"""Runs vf_bench and parse_vf_baseline.py alternately on the same pair of dumps and reports the
median parse rates (wall clock and CPU time) and their ratio. Every run must report the same
vf_total_cycles, vf_count, vf_exec_sum and malformed count, or the comparison is refused.
--preload is passed to both: the files are read into memory first and only the parse is timed."""
import argparse
import os
import statistics
import subprocess
import sys

BASELINE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "parse_vf_baseline.py")
CHECKED = ("vf_total_cycles", "vf_count", "vf_exec_sum", "malformed")


def run(argv):
    out = subprocess.run(argv, check=True, capture_output=True, text=True).stdout.split()
    fields = dict(zip(out[::2], out[1::2]))
    return {k: float(fields[k]) for k in ("MB/s", "cpu_MB/s")}, {k: fields[k] for k in CHECKED}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("vf_bench")
    ap.add_argument("starts")
    ap.add_argument("ends")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--preload", action="store_true")
    a = ap.parse_args()
    mode = ["--preload"] if a.preload else []
    tools = {"c": [a.vf_bench, *mode, a.starts, a.ends],
             "python": [sys.executable, BASELINE, *mode, a.starts, a.ends]}
    rates = {name: {"MB/s": [], "cpu_MB/s": []} for name in tools}
    answers = set()
    for r in range(a.rounds):
        for name, argv in tools.items():
            rate, answer = run(argv)
            answers.add(tuple(sorted(answer.items())))
            for k, v in rate.items():
                rates[name][k].append(v)
            print(f"round {r + 1} {name:6} wall {rate['MB/s']:8.1f} MB/s  "
                  f"cpu {rate['cpu_MB/s']:8.1f} MB/s")
    if len(answers) != 1:
        sys.exit(f"the parsers disagree: {sorted(answers)}")
    print("answers " + " ".join(f"{k} {v}" for k, v in sorted(answers.pop())))
    for k in ("MB/s", "cpu_MB/s"):
        c, py = statistics.median(rates["c"][k]), statistics.median(rates["python"][k])
        paired = statistics.median(x / y for x, y in zip(rates["c"][k], rates["python"][k]))
        print(f"median {k:9} c {c:8.1f}  python {py:6.1f}  ratio {c / py:5.1f}  "
              f"(median of paired ratios {paired:.1f})")


if __name__ == "__main__":
    main()
