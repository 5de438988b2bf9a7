#!/usr/bin/env python3
"""Reference values for tests/history/test_changepoint.c.

Runs Apache Otava's change-point detection (the Hunter method, Fleming et al., ICPE 2023) on
fixed series and prints them with the change points, p-values and relative changes it finds, as
C initialisers. rigor re-tests both neighbours of a weak change point that the merge step drops
(the paper's "adjacent change points"), where Otava 0.8.0 re-tests the next two; cases marked
"adjacent" are computed with Otava's statistics and that merge order, the others with Otava's
own compute_change_points unchanged (and both give the same there).

Usage, outside the repository:
  python3 -m venv /tmp/otava && /tmp/otava/bin/pip install apache-otava==0.8.0
  /tmp/otava/bin/python bench/history/reference_values.py > /tmp/cases.inc
"""
import random

import otava.analysis as oa

RELEASED_MERGE = oa.merge


def merge_adjacent(points, series, max_pvalue, min_magnitude):
    tester = oa.TTestSignificanceTester(max_pvalue)
    while points:
        drop = max(points, key=lambda c: c.stats.pvalue)
        if drop.stats.pvalue < max_pvalue:
            drop = min(points, key=lambda c: c.stats.change_magnitude())
            if drop.stats.change_magnitude() > min_magnitude:
                return points
        at = points.index(drop)
        points.pop(at)
        segments = tester.get_intervals(points)
        for k in (at - 1, at):
            if 0 <= k < len(points):
                points[k] = tester.change_point(points[k].to_candidate(), series, segments)
    return points


def series(rng, n, steps, sd):
    out, level = [], 100.0
    for i in range(n):
        for at, factor in steps:
            if i == at:
                level *= factor
        out.append(round(level * (1 + rng.gauss(0, sd)), 3))
    return out


def detect(x, p, magnitude, window, adjacent):
    oa.merge = merge_adjacent if adjacent else RELEASED_MERGE
    cps, _ = oa.compute_change_points(list(x), window_len=window, max_pvalue=p,
                                      min_magnitude=magnitude)
    return [(c.index, c.stats.pvalue, c.stats.forward_rel_change(), c.stats.change_magnitude())
            for c in cps]


def main():
    rng = random.Random(21)
    data = {
        "step60": series(rng, 60, [(30, 1.05)], 0.02),
        "flat60": series(rng, 60, [], 0.02),
        "two120": series(rng, 120, [(40, 1.10), (80, 0.95)], 0.02),
        "noisy200": series(rng, 200, [(50, 1.03), (120, 1.02), (150, 0.9)], 0.04),
        "last30": series(rng, 30, [(29, 1.3)], 0.02),
        "small10": [1.0, 1.1, 0.9, 1.0, 1.05, 2.0, 2.1, 1.9, 2.05, 2.0],
    }
    cases = [("small10", 0.001, 0.0, 50), ("step60", 0.001, 0.0, 50),
             ("flat60", 0.001, 0.0, 50), ("last30", 0.001, 0.0, 50),
             ("step60", 0.001, 0.06, 50), ("two120", 0.001, 0.0, 50),
             ("two120", 0.001, 0.0, 20), ("flat60", 0.05, 0.0, 10),
             ("noisy200", 0.001, 0.0, 50), ("noisy200", 0.01, 0.02, 30)]
    for name, x in data.items():
        print("static const double %s[] = {" % name)
        for k in range(0, len(x), 8):
            print("    " + ", ".join(repr(v) for v in x[k:k + 8]) + ",")
        print("};")
    print("static const ref_case_t cases[] = {")
    for name, p, magnitude, window in cases:
        released = detect(data[name], p, magnitude, window, False)
        adjacent = detect(data[name], p, magnitude, window, True)
        origin = "otava" if released == adjacent else "adjacent"
        points = ", ".join("{%d, %.9e, %.9e, %.9e}" % c for c in adjacent) or "{0}"
        print("    {\"%s\", %s, %d, %g, %g, %d, \"%s\", %d, {%s}}," %
              (name, name, len(data[name]), p, magnitude, window, origin, len(adjacent), points))
    print("};")


if __name__ == "__main__":
    main()
