#!/usr/bin/env python3
"""Times `rigor report` on generated results files: wall and CPU time, max RSS, MB/s.

usage: bench/report/time_report.py RIGOR [--old OLD_RIGOR] [--samples 100000,1000000]
                                   [--repeat 3] [--shape fixture|stream] [--data DIR]

Each binary reports each file --repeat times; the fastest wall time is shown with its CPU time
(user + sys) and max RSS, both read with wait4 (getrusage of the child). MB/s is the file size
over that wall time, and over the CPU time (which a busy machine disturbs less). With --old the
two binaries' reports must be byte for byte the same. Files are written once into --data
(default: a temporary folder, removed at the end) by gen_results.py. Standard library only.
"""
import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def run_once(binary, path):
    """(wall s, cpu s, max RSS MiB, stdout) of one `binary report path`."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        proc = subprocess.Popen([binary, "report", path], stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        err = proc.stderr.read().decode(errors="replace")
        proc.stderr.close()
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit("%s report %s failed: %s" % (binary, path, err.strip()))
        out.seek(0)
        text = out.read()
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0, text


def best_of(binary, path, repeat):
    runs = [run_once(binary, path) for _ in range(repeat)]
    return min(runs, key=lambda r: r[0])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rigor", help="the rigor binary to time")
    ap.add_argument("--old", help="a second binary (e.g. an older build) to time side by side")
    ap.add_argument("--samples", default="100000,1000000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--shape", choices=("fixture", "stream"), default="fixture")
    ap.add_argument("--data", help="folder for the generated files (kept)")
    a = ap.parse_args()

    data = a.data or tempfile.mkdtemp(prefix="rigor-report-bench.")
    os.makedirs(data, exist_ok=True)
    binaries = [("new", a.rigor)] + ([("old", a.old)] if a.old else [])
    print("cpu: %s, %d CPUs; load average at start: %s" % (
        cpu_model(), os.cpu_count(), open("/proc/loadavg").read().split()[:3]))
    print("%-4s %9s %8s %8s %8s %9s %9s %9s" % (
        "bin", "samples", "file MB", "wall s", "cpu s", "MB/s wall", "MB/s cpu", "max RSS MiB"))
    try:
        for n in (int(x) for x in a.samples.split(",")):
            path = os.path.join(data, "%s-%d.jsonl" % (a.shape, n))
            if not os.path.exists(path):
                subprocess.run([sys.executable, os.path.join(HERE, "gen_results.py"),
                                "--shape", a.shape, "--samples", str(n), path], check=True)
            mb = os.path.getsize(path) / 1e6
            reports = {}
            for name, binary in binaries:
                wall, cpu, rss, text = best_of(binary, path, a.repeat)
                reports[name] = text
                print("%-4s %9d %8.1f %8.2f %8.2f %9.0f %9.0f %9.0f" % (
                    name, n, mb, wall, cpu, mb / wall, mb / cpu, rss))
            if a.old:
                print("     reports of new and old are %s" %
                      ("identical" if reports["new"] == reports["old"] else "DIFFERENT"))
    finally:
        if not a.data:
            shutil.rmtree(data)


if __name__ == "__main__":
    main()
