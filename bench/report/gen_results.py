#!/usr/bin/env python3
"""Writes a rigor.result/1 file of N samples for timing `rigor report`.

Two shapes: "fixture" lays records out as tests/analysis/fixture.c does (short numbers, members
in declaration order); "stream" as `rigor run` writes them (17 significant digits, type first and
the run's stamp last, check details and per-iteration raw values). Runs follow a cyclic Latin
square over the variants; every run has `cycles` cycles of `points` points, then its run record.
Standard library only; the same seed writes the same file.
"""
import argparse
import json
import math
import random
import sys


def experiment_record(a, n_blocks):
    variants = [{"index": v, "label": f"v{v}", "axes": {"threads": v + 1},
                 "settings": {"plugin": "null", "params": {"n": 1},
                              "timing": {"iters": 20, "cycles": a.cycles},
                              "environment": {}, "gate": {"cv_max": 0.05, "min_samples": 5}}}
                for v in range(a.variants)]
    blocks = [[(b + j) % a.variants for j in range(a.variants)] for b in range(n_blocks)]
    return {"schema": "rigor.result/1", "type": "experiment", "experiment": a.name,
            "name": a.name, "hash": "00" * 32,
            "config": {"gate": {"cv_max": 0.05, "min_samples": 5}},
            "variants": variants,
            "schedule": {"design": "latin", "seed": 0, "replicates": n_blocks,
                         "randomize": False, "square_rows": a.variants, "incomplete": False,
                         "blocks": blocks},
            "plugin": {"name": "null", "version": "1.0", "sha256": "ab",
                       "metrics": [{"name": "vf_total_cycles", "unit": "cycles",
                                    "better": "lower"}]},
            "identity": {"hostname": "bench", "cpu": {"model": "bench"}, "kernel": "6.1"}}


def fixture_sample(a, run, v, c, p, t):
    size = 1024 << p
    line = ('{"schema":"rigor.result/1","type":"sample","experiment":"%s","run":%d,'
            '"attempt":1,"variant":%d,"cycle":%d,"point":%d,"point_label":"bytes=%d",'
            '"point_params":{"bytes":%d},"status":"ok","window":"wall","time_s":%.12g,'
            '"wall_s":%.12g,"cputime_s":%.12g,"iters":20,"agg":1,"bytes":%d,'
            '"flops":0,"bus_factor":1,"rates":{"bytes_per_s":%.12g,"flops_per_s":null,'
            '"busbw_bytes_per_s":%.12g},"check":{"checked":1,"wrong":0}'
            % (a.name, run, v, c, p, size, size, t, t, t, size, size / t, size / t))
    if a.metrics:
        line += ',"metrics":{%s}' % ",".join(
            '"m%d":%.12g' % (k, t * (k + 1) * 1e9) for k in range(a.metrics))
    if a.iterations:
        raw = [t * (1 + 0.01 * math.sin(i + c)) for i in range(a.iterations)]
        line += (',"iterations":{"n":%d,"min":%.12g,"max":%.12g,"p50":%.12g,"p95":%.12g,'
                 '"p99":%.12g,"mean":%.12g,"cv":0.01,"source":"host","raw":[%s]}'
                 % (len(raw), min(raw), max(raw), t, max(raw), max(raw), t,
                    ",".join("%.12g" % x for x in raw)))
    return line + "}\n"


def stream_sample(a, run, v, c, p, t):
    size = 1024 << p
    raw = [t * (1 + 0.01 * math.sin(i + c)) for i in range(a.iterations)]
    metrics = {"m%d" % k: t * (k + 1) * 1e9 for k in range(a.metrics)}
    rec = {"type": "sample", "cycle": c, "point": p, "point_label": "bytes=%d" % size,
           "point_params": {"bytes": size}, "status": "ok", "window": "wall", "time_s": t,
           "wall_s": t, "cputime_s": t * 0.999, "iters": 20, "agg": 1, "bytes": size,
           "flops": 0.0, "bus_factor": 1.0,
           "rates": {"bytes_per_s": size / t, "flops_per_s": None,
                     "busbw_bytes_per_s": size / t},
           "check": {"checked": size // 8, "wrong": 0, "max_abs_err": 0.0, "max_rel_err": 0.0,
                     "tolerance": 1e-13, "detail": None},
           "metrics": metrics,
           "iterations": ({"n": len(raw), "min": min(raw), "max": max(raw), "p50": t,
                           "p95": max(raw), "p99": max(raw), "mean": t, "cv": 0.01,
                           "source": "host", "raw": raw} if raw else None),
           "ranks": None, "schema": "rigor.result/1", "experiment": a.name, "run": run,
           "attempt": 1, "variant": v}
    return json.dumps(rec, separators=(",", ":"), allow_nan=False) + "\n"


def run_record(a, run, block, pos, v):
    return ('{"schema":"rigor.result/1","type":"run","experiment":"%s","run":%d,"attempt":1,'
            '"block":%d,"position":%d,"variant":%d,"label":"v%d","status":"ok","reason":null,'
            '"elapsed_s":0.5,"flags":[],"plugin_identity":{"driver":"1"}}\n'
            % (a.name, run, block, pos, v, v))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("output")
    ap.add_argument("--samples", type=int, default=100000, help="total samples (rounded up to whole runs)")
    ap.add_argument("--shape", choices=("fixture", "stream"), default="fixture")
    ap.add_argument("--variants", type=int, default=2)
    ap.add_argument("--points", type=int, default=4)
    ap.add_argument("--cycles", type=int, default=25)
    ap.add_argument("--metrics", type=int, default=1, help="plugin metrics per sample")
    ap.add_argument("--iterations", type=int, default=0,
                    help="raw per-iteration values per sample (0: no iterations member)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--name", default="bench")
    a = ap.parse_args()
    per_run = a.cycles * a.points
    n_runs = -(-a.samples // per_run)
    n_blocks = -(-n_runs // a.variants)
    rng = random.Random(a.seed)
    sample = fixture_sample if a.shape == "fixture" else stream_sample
    with open(a.output, "w") as out:
        out.write(json.dumps(experiment_record(a, n_blocks), separators=(",", ":")) + "\n")
        for run in range(n_runs):
            block, pos = divmod(run, a.variants)
            v = (block + pos) % a.variants
            lines = []
            for c in range(a.cycles):
                for p in range(a.points):
                    t = 100e-6 * (1 + p) * (1 + 0.02 * v) * (1 + 0.005 * rng.gauss(0, 1))
                    lines.append(sample(a, run, v, c, p, t))
            lines.append(run_record(a, run, block, pos, v))
            out.write("".join(lines))
    print("%s: %d samples in %d runs" % (a.output, n_runs * per_run, n_runs), file=sys.stderr)


if __name__ == "__main__":
    main()
