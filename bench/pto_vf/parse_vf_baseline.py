#!/usr/bin/env python3
"""Straightforward line-by-line regex parser of one core's VF dumps: the comparison baseline for
vf_bench. Prints the same VF window as vf_bench, and counts the same lines as malformed (a VF line
whose addr, instr_num, vf_execute_time or vf_real_execute_time key has an unparsable value is
malformed, as in the C parser). With --preload the files are read into lists of lines first and
only the parse is timed, as vf_bench --preload does."""
import os
import re
import sys
import time

LINE = re.compile(
    r"^\s*(?:\[info\]\s*)?\[(\d+)\]\s*\(PC:\s*0x([0-9a-fA-F]+)\)\s*(\w+)\s*:\s*"
    r"\(Binary:\s*0x([0-9a-fA-F]+)\)\s*(?:\(ID:\s*(\d+)\s*\)\s*)?([A-Za-z_]\w*)\s*(.*)$")
HEX_VALUE = re.compile(r"(?:0[xX])?[0-9a-fA-F]{1,16}")
DEC_VALUE = re.compile(r"[0-9]+")
VF_FIELDS = [(re.compile(r"\b" + key + r" *[:=][ \t]*(\w*)", re.ASCII), value)
             for key, value in (("addr", HEX_VALUE), ("instr_num", HEX_VALUE),
                                ("vf_execute_time", DEC_VALUE),
                                ("vf_real_execute_time", DEC_VALUE))]
VF_FAMILY = {"VF", "VFI", "VF_RU", "VF_BC", "VF_PREFETCH", "VF_SIMT"}


def vf_fields(operands):
    """Each present key's value, in VF_FIELDS order (None when absent); None when any is bad."""
    values = []
    for pattern, value in VF_FIELDS:
        m = pattern.search(operands)
        if not m:
            values.append(None)
            continue
        token = m.group(1)
        if not value.fullmatch(token) or (value is DEC_VALUE and int(token) >= 1 << 64):
            return None
        values.append(token)
    return values


def vf_cycles(lines):
    cycles, execs, malformed = [], [], 0
    for line in lines:
        m = LINE.match(line.rstrip("\r\n"))
        if not m:
            malformed += line.strip() != ""
            continue
        if m.group(3) == "PUSHQ" and m.group(6) in VF_FAMILY:
            fields = vf_fields(m.group(7))
            if fields is None:
                malformed += 1
                continue
            cycles.append(int(m.group(1)))
            if fields[2] is not None:
                execs.append(int(fields[2]))
    return cycles, execs, malformed


def main():
    args = sys.argv[1:]
    preload = args[:1] == ["--preload"]
    paths = args[1:] if preload else args
    if len(paths) != 2:
        sys.exit("usage: parse_vf_baseline.py [--preload] STARTS.instr_popped_log.dump "
                 "ENDS.instr_log.dump")
    files = [open(p, "r", errors="replace") for p in paths]
    sources = [f.readlines() for f in files] if preload else files
    t0, c0 = time.monotonic(), time.process_time()
    starts, _, bad_s = vf_cycles(sources[0])
    ends, execs, bad_e = vf_cycles(sources[1])
    secs, cpu = time.monotonic() - t0, time.process_time() - c0
    for f in files:
        f.close()
    size = sum(os.path.getsize(p) for p in paths)
    print(f"bytes {size} seconds {secs:.3f} MB/s {size / secs / 1e6:.1f} "
          f"cpu_seconds {cpu:.3f} cpu_MB/s {size / cpu / 1e6:.1f}")
    print(f"vf_total_cycles {max(ends) - min(starts)} vf_count {len(ends)} "
          f"vf_exec_sum {sum(execs)} malformed {bad_s + bad_e}")


if __name__ == "__main__":
    main()
