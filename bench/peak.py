#!/usr/bin/env python3
"""Runs a command and writes "WALL_SECONDS PEAK_MIB" to OUT:  peak.py OUT COMMAND...
The peak is the largest, over samples every 50 ms, of the memory of the command and every
process below it (workers, ptxas, ld.lld): their anonymous resident memory added up, plus the
largest file-backed resident part among them (libLLVM's code, mapped by several, counts
once). /proc/PID/statm is cheap to read: the sampling takes well under 1% of a core. Exit:
the command's status."""
import os
import subprocess
import sys
import time

PAGE = os.sysconf("SC_PAGE_SIZE")


def tree(pid):
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            for t in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    todo += [int(c) for c in f.read().split()]
        except OSError:  # gone
            pass
    return pids


def memory(pid):
    anon, files = 0, 0
    for p in tree(pid):
        try:
            with open("/proc/%d/statm" % p) as f:
                resident, shared = (int(x) for x in f.read().split()[1:3])
        except (OSError, ValueError):
            continue
        anon += resident - shared
        files = max(files, shared)
    return (anon + files) * PAGE


out, cmd = sys.argv[1], sys.argv[2:]
start = time.monotonic()
child = subprocess.Popen(cmd)
peak = 0
while child.poll() is None:
    peak = max(peak, memory(child.pid))
    time.sleep(0.05)
wall = time.monotonic() - start
with open(out, "w") as f:
    f.write("%.3f %.1f\n" % (wall, peak / 2**20))
sys.exit(child.returncode)
