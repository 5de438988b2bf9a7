#!/usr/bin/env python3
"""Whole-process wall time of a command, alone or interleaved with a baseline (A B A B ...).

    ab_wall.py [--runs N] [--warmup W] -- CMD...                 one command
    ab_wall.py [--runs N] [--warmup W] --vs 'BASE CMD' -- CMD...   candidate A against baseline B

Each run is one fresh process, timed from start to exit with a monotonic clock; its output is
discarded and a non-zero exit stops the benchmark. Prints min, median and max wall per command
and, with --vs, the median of the per-pair ratios A/B: pairing keeps the ratio meaningful while
the machine's speed drifts.
"""
import argparse
import shlex
import statistics
import subprocess
import sys
import time


def once(cmd):
    t0 = time.perf_counter()
    rc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    t = time.perf_counter() - t0
    if rc != 0:
        sys.exit(f"ab_wall: {shlex.join(cmd)} exited {rc}")
    return t


def line(name, xs, unit=1e3, suffix="ms"):
    return (f"{name}: min {min(xs) * unit:.1f} {suffix}, median {statistics.median(xs) * unit:.1f} "
            f"{suffix}, max {max(xs) * unit:.1f} {suffix} (n={len(xs)})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--vs", help="baseline command, one string split as a shell splits words")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    if not cmd:
        ap.error("no command")
    base = shlex.split(a.vs) if a.vs else None
    for _ in range(a.warmup):
        once(cmd)
        if base:
            once(base)
    ta, tb = [], []
    for _ in range(a.runs):
        ta.append(once(cmd))
        if base:
            tb.append(once(base))
    print(line("A", ta))
    if base:
        print(line("B", tb))
        ratios = [x / y for x, y in zip(ta, tb)]
        print(f"A/B: median of per-pair ratios {statistics.median(ratios):.3f} "
              f"(min {min(ratios):.3f}, max {max(ratios):.3f})")


if __name__ == "__main__":
    main()
