#!/usr/bin/env python3
"""Structure-aware mutation fuzzing of the bankcheck binary (stable toolchain only).

Seeds are the bundled examples and the tests' fixtures. Each case is a seed mutated
one to eight times at the level of C tokens: deletions and duplications of token runs,
swapped operators, extreme numbers, unbalanced or deeply nested brackets, macro
chains that double at each level, dereference chains, loops whose step is unknown or
zero, tokens spliced from another seed, and bytes of other encodings (UTF-16, Latin-1,
invalid UTF-8, NUL, CR-only line ends). Case `i` of seed `S` is a pure function of
`(S, i)`: a fixed-seed run is deterministic (its verdicts on time and memory aside).

Each case runs the binary on one file and is flagged when it
  * crashes: killed by a signal, an exit status other than 0, 1 or 2, a panic
    message, or an `internal-error` finding (a caught panic or a worker that died);
  * is slow: over --max-seconds (10) of CPU time on an input under 100 KB (CPU time,
    not wall time, so that other work on the machine does not flag a case; a case
    still running after three times that of wall time, at least 30 s, is killed and
    flagged as a hang);
  * grows: a peak resident size over --max-mb (500).
Flagged inputs are written to --out (default fuzz-out/) and the script exits 1.

    python3 scripts/fuzz.py --bin target/release/bankcheck --cases 400 --seed 1
    python3 scripts/fuzz.py --bin target/release/bankcheck --minutes 30 --seed 7
"""

import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXTS = (".cu", ".cuh", ".hlsl", ".hlsli", ".fx", ".h")

TOKEN_RE = re.compile(
    rb"""
    (?P<pp>\#[^\n]*)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<num>0[xX][0-9a-fA-F]+[uUlL]*|[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?[uUlLfF]*)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*)
  | (?P<op><<=|>>=|<<<|>>>|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!~<>=?:]=?)
  | (?P<bracket>[()\[\]{}])
  | (?P<punct>[;,.])
  | (?P<ws>\s+)
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)

OPERATORS = [b"+", b"-", b"*", b"/", b"%", b"<<", b">>", b"&", b"|", b"^", b"<", b">",
             b"<=", b">=", b"==", b"!=", b"&&", b"||", b"=", b"+=", b"-=", b"*=", b"/=",
             b"<<=", b">>=", b"++", b"--", b"!", b"~", b"?", b":", b"->", b".", b","]
NUMBERS = [b"0", b"1", b"-1", b"2", b"31", b"32", b"33", b"64", b"1024", b"65535", b"65536",
           b"2147483647", b"2147483648", b"-2147483648", b"4294967295", b"4294967296",
           b"9223372036854775807", b"9223372036854775808", b"18446744073709551615",
           b"0x7fffffff", b"0xffffffffffffffff", b"1e308", b"1e-308", b"0.0", b"3.5f",
           b"99999999999999999999999999999999", b"0u", b"1ull", b"0b101", b"077"]
KEYWORDS = [b"__shared__", b"groupshared", b"__global__", b"__device__", b"template",
            b"typename", b"struct", b"typedef", b"extern", b"static", b"const", b"auto",
            b"for", b"while", b"do", b"if", b"else", b"switch", b"case", b"return", b"break",
            b"continue", b"threadIdx.x", b"threadIdx.y", b"blockDim.x", b"blockIdx.x",
            b"SV_GroupIndex", b"SV_GroupThreadID", b"[numthreads(32,32,1)]", b"float4",
            b"uint2", b"int", b"unsigned", b"sizeof", b"reinterpret_cast<float4*>",
            b"__syncthreads()", b"atomicAdd", b"<<<", b">>>", b"#if 0", b"#endif"]
ENCODINGS = [b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00", b"\xe9\xe8", b"\xc3\x28",
             b"\xf0\x28\x8c\xbc", b"\xed\xa0\x80", b"\r", b"\t", b"\x0c", b"\\\n", b"\x1b[0m"]


def tokens(data):
    return [m.group(0) for m in TOKEN_RE.finditer(data)]


def macro_chain(rng):
    n = rng.randint(8, 40)
    lines = [b"#define M0(x) ((x) + 1)"]
    for i in range(1, n + 1):
        lines.append(b"#define M%d(x) M%d(M%d(x))" % (i, i - 1, i - 1))
    lines.append(b"#define IDX M%d(threadIdx.x)" % n)
    return b"\n" + b"\n".join(lines) + b"\n"


def deref_chain(rng):
    return b"o[0] = " + b"*" * rng.randint(4, 64) + b"s;"


def nesting(rng):
    n = rng.choice([50, 200, 1000, 5000, 20000])
    kind = rng.choice([(b"(", b")"), (b"{", b"}"), (b"[", b"]"), (b"-", b""), (b"!", b""),
                       (b"*", b""), (b"if (threadIdx.x) ", b""), (b"s[", b"]"),
                       (b"f(", b")"), (b"a + ", b""), (b"(int)", b"")])
    return kind[0] * n + b"threadIdx.x" + kind[1] * n


def bad_loop(rng):
    step = rng.choice([b"t += C", b"t += 0", b"t -= 0", b"t *= 1", b"t <<= 0", b"t >>= 0",
                       b"t = t", b"t++, C++", b"t += blockIdx.x", b"t *= 2", b"t /= 0"])
    idx = rng.choice([b"t", b"t / 0", b"t % 0", b"t << 70", b"t >> -1", b"t * t * t",
                      b"(t & 31) ^ threadIdx.x"])
    return (b"for (int t = threadIdx.x; t < 1000000000; " + step + b") s[" + idx + b"] = 0;")


def mutate(rng, data, seeds):
    toks = tokens(data) or [b" "]
    ops = rng.randint(1, 8)
    for _ in range(ops):
        if not toks:
            toks = [b" "]
        i = rng.randrange(len(toks))
        kind = rng.randrange(16)
        if kind == 0:  # delete a run of tokens
            del toks[i:i + rng.randint(1, 12)]
        elif kind == 1:  # duplicate a run
            run = toks[i:i + rng.randint(1, 40)]
            toks[i:i] = run * rng.randint(1, 4)
        elif kind == 2:  # swap an operator
            ops_at = [k for k, t in enumerate(toks) if t in OPERATORS]
            if ops_at:
                toks[rng.choice(ops_at)] = rng.choice(OPERATORS)
        elif kind == 3:  # extreme number
            nums = [k for k, t in enumerate(toks) if t[:1].isdigit()]
            if nums:
                toks[rng.choice(nums)] = rng.choice(NUMBERS)
        elif kind == 4:  # unbalance brackets
            br = [k for k, t in enumerate(toks) if t in b"()[]{}" and len(t) == 1]
            if br and rng.random() < 0.5:
                del toks[rng.choice(br)]
            else:
                toks.insert(i, rng.choice([b"(", b")", b"[", b"]", b"{", b"}", b"<", b">"]))
        elif kind == 5:  # macro doubling chain, used as an index
            toks.insert(0, macro_chain(rng))
            ids = [k for k, t in enumerate(toks) if t == b"threadIdx"]
            if ids:
                k = rng.choice(ids)
                toks[k] = b"IDX"
                if k + 2 < len(toks) and toks[k + 1] == b".":
                    del toks[k + 1:k + 3]
        elif kind == 6:  # a dereference chain or deep nesting inside a body
            body = [k for k, t in enumerate(toks) if t == b"{"]
            if body:
                toks.insert(rng.choice(body) + 1,
                            rng.choice([deref_chain, nesting, bad_loop])(rng) + b";")
        elif kind == 7:  # bytes of other encodings
            toks.insert(i, rng.choice(ENCODINGS))
        elif kind == 8:  # CR-only line ends or a BOM
            if rng.random() < 0.5:
                toks = [t.replace(b"\n", b"\r") for t in toks]
            else:
                toks.insert(0, rng.choice(ENCODINGS[:3]))
        elif kind == 9:  # keyword or identifier replacement
            ids = [k for k, t in enumerate(toks) if t[:1].isalpha() or t[:1] == b"_"]
            if ids:
                choice = rng.choice(KEYWORDS + [toks[rng.choice(ids)]])
                toks[rng.choice(ids)] = choice
        elif kind == 10:  # splice from another seed
            other = tokens(rng.choice(seeds))
            if other:
                j = rng.randrange(len(other))
                toks[i:i] = other[j:j + rng.randint(1, 200)]
        elif kind == 11:  # repeat the whole file (growth), kept under 100 KB
            total = sum(len(t) for t in toks)
            if total and total < 50_000:
                toks = toks * max(1, min(rng.randint(2, 20), 100_000 // total))
        elif kind == 12:  # a bad loop
            body = [k for k, t in enumerate(toks) if t == b"{"]
            if body:
                toks.insert(rng.choice(body) + 1, bad_loop(rng))
        elif kind == 13:  # recursive or self-referential definitions
            toks.insert(0, rng.choice([
                b"#define A B\n#define B A\n",
                b"#define F(x) F(x)\n",
                b"#include __FILE__\n",
                b"struct R { R r[2]; int x; };\n",
                b"template<int N> struct T { static const int v = T<N - 1>::v + T<N - 2>::v; };\n",
                b"typedef T0 T1; typedef T1 T0;\n",
                b"__device__ int f(int x) { return f(x) + f(x + 1); }\n",
            ]))
        elif kind == 14:  # a keyword inserted
            toks.insert(i, b" " + rng.choice(KEYWORDS) + b" ")
        else:  # byte-level flips
            t = bytearray(toks[i])
            if t:
                t[rng.randrange(len(t))] = rng.randrange(256)
                toks[i] = bytes(t)
    return b"".join(toks)


def load_seeds():
    seeds = []
    for base in ("examples", "tests/fixtures"):
        for dirpath, _, files in sorted(os.walk(os.path.join(ROOT, base))):
            for f in sorted(files):
                if f.endswith(EXTS):
                    path = os.path.join(dirpath, f)
                    with open(path, "rb") as fh:
                        seeds.append((os.path.splitext(f)[1], fh.read()))
    return seeds


def case(seed, i, seeds):
    rng = random.Random(seed * 1_000_003 + i)
    ext, data = rng.choice(seeds)
    return ext, mutate(rng, data, [s[1] for s in seeds])


def run_measured(binary, path, kill_after):
    """Runs the binary: (status, stdout, stderr, wall s, CPU s, peak KB, killed)."""
    start = time.monotonic()
    out_f = tempfile.TemporaryFile()
    err_f = tempfile.TemporaryFile()
    proc = subprocess.Popen([binary, "--format", "json", "--isolated", path],
                            stdout=out_f, stderr=err_f, stdin=subprocess.DEVNULL)
    killed = threading.Event()

    def kill():
        killed.set()
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(kill_after, kill)
    timer.start()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.monotonic() - start
    out_f.seek(0)
    err_f.seek(0)
    cpu = usage.ru_utime + usage.ru_stime
    return (proc.returncode, out_f.read(), err_f.read(), elapsed, cpu, usage.ru_maxrss,
            killed.is_set())


def verdict(rc, out, err, secs, cpu, peak_kb, killed, size, args):
    problems = []
    if killed:
        problems.append("hang (killed after %.0f s)" % secs)
    elif rc < 0:
        problems.append("crash (signal %d)" % -rc)
    elif rc not in (0, 1, 2):
        problems.append("crash (exit %d)" % rc)
    if b"panicked" in err or b"stack overflow" in err or b"bankcheck failed" in err:
        problems.append("crash (%s)" % err.decode("utf-8", "replace").strip().splitlines()[-1][:120])
    if b'"internal-error"' in out:
        problems.append("crash (internal-error finding)")
    if rc in (0, 1, 2) and not killed and not out.strip().startswith(b"{"):
        problems.append("no report")
    if cpu > args.max_seconds and size < 100_000:
        problems.append("slow (%.1f s of CPU, %.1f s wall, on %d bytes)" % (cpu, secs, size))
    if peak_kb > args.max_mb * 1024:
        problems.append("memory (%d MB)" % (peak_kb // 1024))
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--bin", default=os.path.join(ROOT, "target/release/bankcheck"))
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=None, help="number of cases (fixed-seed run)")
    p.add_argument("--minutes", type=float, default=None, help="run this long instead")
    p.add_argument("--start", type=int, default=0, help="first case number")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--max-seconds", type=float, default=10.0)
    p.add_argument("--max-mb", type=int, default=500)
    p.add_argument("--out", default="fuzz-out")
    p.add_argument("--summary", default=None, help="write the counts as JSON here")
    args = p.parse_args()
    if args.cases is None and args.minutes is None:
        args.cases = 200
    seeds = load_seeds()
    if not seeds:
        sys.exit("no seeds found under examples/ and tests/fixtures/")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="bankcheck-fuzz-")
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else None
    lock = threading.Lock()
    counts = {"cases": 0, "crash": 0, "hang": 0, "slow": 0, "memory": 0, "bytes": 0,
              "max_seconds": 0.0, "max_cpu_seconds": 0.0, "max_mb": 0}
    flagged = []

    def one(i):
        if deadline and time.monotonic() > deadline:
            return
        ext, data = case(args.seed, i, seeds)
        path = os.path.join(work, "case%d%s" % (i, ext))
        with open(path, "wb") as fh:
            fh.write(data)
        rc, out, err, secs, cpu, peak, killed = run_measured(
            args.bin, path, max(30.0, args.max_seconds * 3))
        problems = verdict(rc, out, err, secs, cpu, peak, killed, len(data), args)
        os.unlink(path)
        with lock:
            counts["cases"] += 1
            counts["bytes"] += len(data)
            counts["max_seconds"] = max(counts["max_seconds"], round(secs, 2))
            counts["max_cpu_seconds"] = max(counts["max_cpu_seconds"], round(cpu, 2))
            counts["max_mb"] = max(counts["max_mb"], peak // 1024)
            for kind in ("crash", "hang", "slow", "memory"):
                if any(pr.startswith(kind) for pr in problems):
                    counts[kind] += 1
            if problems:
                name = os.path.join(args.out, "seed%d-case%d%s" % (args.seed, i, ext))
                with open(name, "wb") as fh:
                    fh.write(data)
                flagged.append((i, problems))
                print("case %d: %s -> %s" % (i, "; ".join(problems), name), flush=True)
            if counts["cases"] % 100 == 0:
                print("... %d cases, %d flagged" % (counts["cases"], len(flagged)), flush=True)

    started = time.monotonic()
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        if args.cases is not None:
            list(pool.map(one, range(args.start, args.start + args.cases)))
        else:
            i = args.start
            while time.monotonic() < deadline:
                batch = range(i, i + 50)
                list(pool.map(one, batch))
                i += 50
    counts["minutes"] = round((time.monotonic() - started) / 60, 1)
    counts["flagged"] = len(flagged)
    print(json.dumps(counts))
    if args.summary:
        with open(args.summary, "w") as fh:
            json.dump(counts, fh, indent=2)
    os.rmdir(work)
    sys.exit(1 if flagged else 0)


if __name__ == "__main__":
    main()
