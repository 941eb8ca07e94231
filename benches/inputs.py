#!/usr/bin/env python3
"""Peak memory and time of the command line on big trees and big files.

Generates (into a temporary directory, nothing is committed) a tree of N small CUDA
files for each N of --trees, and one CUDA file of M megabytes for each M of --files-mb,
each made of small kernels (one with a 32-way conflict, one clean, one launch), runs
`bankcheck --format json` on each with `/usr/bin/time -v`, and prints a Markdown table
of peak resident memory (`Maximum resident set size`) and wall time. The figures are
recorded in docs/performance.md ("Big trees and big files").

    cargo build --release
    python3 benches/inputs.py [--bin target/release/bankcheck] [--trees 1000,5000,20000]
                              [--files-mb 1,10,50] [--timeout 1800] [--threads N] [--keep DIR]
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# One unit: a conflicting transpose, a clean reduction and the host code that launches
# both. `{n}` makes every name unique, so a big file holds many distinct kernels.
UNIT = """\
#define TILE_{n} 32

__global__ void transpose_{n}(float* out, const float* in, int width) {{
    __shared__ float tile[TILE_{n}][TILE_{n}];
    int x = blockIdx.x * TILE_{n} + threadIdx.x;
    int y = blockIdx.y * TILE_{n} + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    out[x * width + y] = tile[threadIdx.x][threadIdx.y];
}}

__global__ void reduce_{n}(float* out, const float* in) {{
    __shared__ float partial[256];
    unsigned t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (unsigned s = 128; s > 0; s >>= 1) {{
        if (t < s) partial[t] += partial[t + s];
        __syncthreads();
    }}
    if (t == 0) out[blockIdx.x] = partial[0];
}}

void launch_{n}(float* out, const float* in, int width, cudaStream_t stream) {{
    // Host code: bankcheck scans it for launches and otherwise skips it.
    dim3 block(TILE_{n}, TILE_{n});
    dim3 grid(width / TILE_{n}, width / TILE_{n});
    transpose_{n}<<<grid, block, 0, stream>>>(out, in, width);
    reduce_{n}<<<width * width / 256, 256, 0, stream>>>(out, in);
}}

"""


def write_tree(root, files):
    """`files` files of one unit each, 100 to a directory."""
    for i in range(files):
        d = os.path.join(root, f"d{i // 100:04}")
        if i % 100 == 0:
            os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, f"k{i:05}.cu"), "w") as f:
            f.write(UNIT.format(n=i))


def write_big(path, megabytes):
    """One file of whole units, just over `megabytes` MB."""
    target = megabytes * 1_000_000
    size = 0
    n = 0
    with open(path, "w") as f:
        while size < target:
            unit = UNIT.format(n=n)
            f.write(unit)
            size += len(unit)
            n += 1
    return n


def measure(binary, target, threads, timeout):
    """(peak MB, wall s, CPU s, exit status, diagnostics) of one run (CPU: user and
    system time, which moves less than wall time on a shared machine); on a timeout the run is
    killed (`timeout` under `time`, so nothing is left running) and no figure is given."""
    cmd = ["/usr/bin/time", "-v", "timeout", "--signal=KILL", str(int(timeout)),
           binary, "--format", "json", "--isolated"]
    if threads:
        cmd += ["--threads", str(threads)]
    cmd.append(target)
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    peak = int(rss.group(1)) / 1024 if rss else None
    cpu = sum(float(m) for m in re.findall(r"(?:User|System) time \(seconds\): ([\d.]+)", done.stderr))
    if done.returncode == 137:
        return None, wall, cpu, "timeout", None
    diagnostics = done.stdout.count('"rule":')
    return peak, wall, cpu, done.returncode, diagnostics


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default="target/release/bankcheck")
    p.add_argument("--trees", default="1000,5000,20000")
    p.add_argument("--files-mb", default="1,10,50")
    p.add_argument("--timeout", type=float, default=1800)
    p.add_argument("--threads", type=int, default=0)
    p.add_argument("--keep", default=None, help="generate here and keep the inputs")
    args = p.parse_args()
    binary = os.path.abspath(args.bin)
    if not os.access(binary, os.X_OK):
        sys.exit(f"error: {binary} is not an executable; run `cargo build --release`")
    root = args.keep or tempfile.mkdtemp(prefix="bankcheck-inputs-")
    os.makedirs(root, exist_ok=True)
    rows = []
    try:
        for files in [int(x) for x in args.trees.split(",") if x]:
            tree = os.path.join(root, f"tree{files}")
            if not os.path.isdir(tree):
                write_tree(tree, files)
            size = sum(os.path.getsize(os.path.join(d, f))
                       for d, _, fs in os.walk(tree) for f in fs)
            rows.append((f"tree of {files:,} files", size, files * 2,
                         *measure(binary, tree, args.threads, args.timeout)))
            print(rows[-1], file=sys.stderr, flush=True)
        for mb in [int(x) for x in args.files_mb.split(",") if x]:
            big = os.path.join(root, f"big{mb}.cu")
            units = write_big(big, mb)
            rows.append((f"one file of {mb} MB", os.path.getsize(big), units * 2,
                         *measure(binary, big, args.threads, args.timeout)))
            print(rows[-1], file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    print("| input | bytes | kernels | peak RSS | peak bytes per byte | wall | CPU | CPU s per MB | exit | diagnostics |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, size, kernels, peak, wall, cpu, status, diags in rows:
        peak_text = f"{peak:.1f} MB" if peak is not None else "-"
        per_byte = f"{peak * 1024 * 1024 / size:.0f}" if peak is not None else "-"
        wall_text = f"{wall:.1f} s" if status != "timeout" else f"> {wall:.0f} s (stopped)"
        print(f"| {name} | {size:,} | {kernels:,} | {peak_text} | {per_byte} | {wall_text} | {cpu:.1f} s | {cpu / (size / 1e6):.2f} | {status} | {diags if diags is not None else '-'} |")


if __name__ == "__main__":
    main()
