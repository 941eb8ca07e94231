#!/usr/bin/env python3
"""User CPU of `bankcheck --format json DIR` for several binaries, run alternately.

    python3 benches/corpus_cpu.py --runs 3 DIR OLD_BIN NEW_BIN [...]

Each round runs every binary once, in the order given, so that a change in the
machine's load falls on all of them alike; the load average is printed before each
run (the machine may be shared). Prints user CPU, wall time and peak memory of each
run, then per binary the mean user CPU, and whether every run's JSON report was the
same as the first binary's (a change meant to be faster only must not change it).
"""
import argparse
import os
import resource
import subprocess
import time


def run(binary, directory):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = subprocess.run(
        [binary, "--format", "json", directory],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        check=False,
    ).stdout
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    # ru_maxrss of the children is the largest so far, not this run's: a lower bound
    # only when an earlier run peaked higher.
    return after.ru_utime - before.ru_utime, wall, after.ru_maxrss / 1024, out


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("directory")
    p.add_argument("binaries", nargs="+")
    a = p.parse_args()
    user = {b: [] for b in a.binaries}
    reference = None
    same = True
    for r in range(a.runs):
        for b in a.binaries:
            load = os.getloadavg()[0]
            u, wall, peak, out = run(b, a.directory)
            if reference is None:
                reference = out
            same &= out == reference
            user[b].append(u)
            print(f"round {r + 1} {b}: load {load:.2f}, user {u:.2f} s, "
                  f"wall {wall:.2f} s, peak so far {peak:.0f} MB")
    for b in a.binaries:
        print(f"{b}: mean user {sum(user[b]) / len(user[b]):.2f} s "
              f"({', '.join(f'{u:.2f}' for u in user[b])})")
    print("reports identical" if same else "REPORTS DIFFER")


if __name__ == "__main__":
    main()
