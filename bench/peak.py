#!/usr/bin/env python3
"""Runs a command and writes "WALL_SECONDS PEAK_MIB" to OUT:  peak.py OUT COMMAND...
The peak is the largest sum, over the command and every process below it (workers, ptxas,
ld.lld), of their proportional set size, sampled every 20 ms: processes that run at the
same time add up, and a shared library mapped by several of them counts once. Exit: the
command's status."""
import os
import subprocess
import sys
import time


def pss(pid):
    try:
        with open("/proc/%d/smaps_rollup" % pid) as f:
            for line in f:
                if line.startswith("Pss:"):
                    return int(line.split()[1])
    except OSError:  # gone, or not ours to read
        pass
    return 0


def tree(pid):
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for t in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return pids


out, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
child = subprocess.Popen(cmd)
peak = 0
while child.poll() is None:
    peak = max(peak, sum(pss(p) for p in tree(child.pid)))
    time.sleep(0.02)
wall = time.monotonic() - start
with open(out, "w") as f:
    f.write("%.3f %.1f\n" % (wall, peak / 1024))
sys.exit(child.returncode)
