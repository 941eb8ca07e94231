#!/usr/bin/env python3
"""Size of the JSON report and peak memory for one array with many accesses.

Generates (into a temporary directory, nothing is committed) one CUDA kernel per count
of --counts whose shared tile has that many accesses, each a conflict that the verified
fix repairs: `padding`, rows read down a column (`tile[tx][c]`, fixed by padding), and
`swizzle`, a 16x32 tile read by columns (`tile[t % 16][t / 16]`, fixed by an XOR swizzle
that rewrites every subscript: one edit per access). Each access gets a diagnostic that carries
the array's fix. Runs `bankcheck --format json` on each with `/usr/bin/time -v` and
prints a Markdown table of the report's size, the rows of `after` tables and the edits
it holds, peak resident memory and wall time. The figures are recorded in
docs/performance.md ("One array with many accesses").

    cargo build --release
    python3 benches/many_accesses.py [--bin target/release/bankcheck] [--counts 100,300,672,1344]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def kernel(kind, count):
    """A kernel whose one shared array has `count` accesses, half stores, half loads."""
    if kind == "padding":
        lines = [
            "__global__ void many(float* out, const float* in) {",
            "    __shared__ float tile[32][32];",
            "    int tx = threadIdx.x;",
            "    float acc = 0.0f;",
        ]
        for i in range(count):
            if i % 2 == 0:
                lines.append(f"    tile[tx][{i % 32}] = in[{i}];")
            else:
                lines.append(f"    acc += tile[tx][{(i * 7) % 32}];")
        lines += ["    out[tx] = acc;", "}", "",
                  "void launch(float* o, const float* i) { many<<<1, 32>>>(o, i); }"]
    else:
        lines = [
            "__global__ void many(float* out, const float* in) {",
            "    __shared__ float tile[16][32];",
            "    int t = threadIdx.x;",
            "    float acc = 0.0f;",
        ]
        for i in range(count):
            if i % 2 == 0:
                lines.append(f"    tile[t % 16][t / 16] = in[{i}];")
            else:
                lines.append("    acc += tile[t % 16][t / 16];")
        lines += ["    out[t] = acc;", "}", "",
                  "void launch(float* o, const float* i) { many<<<1, 256>>>(o, i); }"]
    return "\n".join(lines) + "\n"


def measure(binary, path):
    """Report bytes, rows of `after` tables, edits, diagnostics, peak KB, wall seconds."""
    start = time.monotonic()
    proc = subprocess.run(
        ["/usr/bin/time", "-v", binary, "--format", "json", path],
        capture_output=True,
        text=True,
    )
    wall = time.monotonic() - start
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
    report = json.loads(proc.stdout)
    rows = edits = 0
    for d in report["diagnostics"]:
        s = d.get("suggestion") or {}
        rows += len(s.get("after", []))
        edits += len(s.get("edits", []))
    for f in report.get("fixes", []):
        rows += len(f.get("after", []))
        edits += len(f.get("edits", []))
    return (len(proc.stdout.encode()), rows, edits, len(report["diagnostics"]),
            int(peak.group(1)) if peak else 0, wall)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default="target/release/bankcheck")
    ap.add_argument("--counts", default="100,300,672,1344")
    ap.add_argument("--kinds", default="padding,swizzle")
    args = ap.parse_args()
    binary = os.path.abspath(args.bin)
    print("| fix | accesses | diagnostics | JSON bytes | rows of `after` | edits | peak RSS | wall |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kinds.split(","):
            for count in [int(c) for c in args.counts.split(",")]:
                path = os.path.join(tmp, f"{kind}_{count}.cu")
                with open(path, "w") as f:
                    f.write(kernel(kind, count))
                size, rows, edits, diags, peak, wall = measure(binary, path)
                print(f"| {kind} | {count} | {diags} | {size:,} | {rows:,} | {edits:,} "
                      f"| {peak / 1024:.1f} MB | {wall:.2f} s |")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
