#!/usr/bin/env python3
"""Straightforward line-by-line regex parser of one core's VF dumps: the comparison baseline for
vf_bench. Prints the same VF window as vf_bench."""
import os
import re
import sys
import time

LINE = re.compile(
    r"^(?:\[info\]\s*)?\[(\d+)\]\s*\(PC:\s*0x([0-9a-fA-F]+)\)\s*(\w+)\s*:\s*"
    r"\(Binary:\s*0x([0-9a-fA-F]+)\)\s*(?:\(ID:\s*(\d+)\)\s*)?([A-Za-z_]\w*)\s*(.*)$")
EXEC = re.compile(r"\bvf_execute_time:\s*(\d+)")
VF_FAMILY = {"VF", "VFI", "VF_RU", "VF_BC", "VF_PREFETCH", "VF_SIMT"}


def vf_cycles(path):
    cycles, execs, malformed = [], [], 0
    with open(path, "r", errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\r\n"))
            if not m:
                malformed += line.strip() != ""
                continue
            if m.group(3) == "PUSHQ" and m.group(6) in VF_FAMILY:
                cycles.append(int(m.group(1)))
                e = EXEC.search(m.group(7))
                if e:
                    execs.append(int(e.group(1)))
    return cycles, execs, malformed


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: parse_vf_baseline.py STARTS.instr_popped_log.dump ENDS.instr_log.dump")
    t0 = time.monotonic()
    starts, _, bad_s = vf_cycles(sys.argv[1])
    ends, execs, bad_e = vf_cycles(sys.argv[2])
    secs = time.monotonic() - t0
    size = sum(os.path.getsize(p) for p in sys.argv[1:])
    print(f"bytes {size} seconds {secs:.3f} MB/s {size / secs / 1e6:.1f}")
    print(f"vf_total_cycles {max(ends) - min(starts)} vf_count {len(ends)} "
          f"vf_exec_sum {sum(execs)} malformed {bad_s + bad_e}")


if __name__ == "__main__":
    main()
