#!/usr/bin/env python3
"""Measure how many shared-memory accesses bankcheck decides in a corpus of checkouts.

Usage:
    scripts/coverage.py CORPUS_DIR BANKCHECK_BINARY [--markdown] [--json OUT]
                        [--batch N] [--timeout SECONDS] [--top N] [--repo NAME ...]

CORPUS_DIR holds one subdirectory per repository. For each repository the script
collects the kernel sources (.cu .cuh .hlsl .hlsli .fx, plus .h .hpp .inl files that
mention `__shared__` or `groupshared`), runs

    bankcheck --format json --isolated FILE...

on them in batches, and counts, from the `accesses` array of the JSON report
(docs/coverage.md, and the contract in the bank model spec, section 2):

- files: kernel source files handed to bankcheck;
- arrays: distinct (file, array) pairs among the access sites;
- sites: access sites;
- decided: sites with status `ok` or `conflict`; conflicts are also counted apart;
- unknown: sites with status `unknown`, grouped by reason; reasons are normalised by
  replacing every identifier in backticks with `_` so that they group;
- time: wall-clock seconds spent in bankcheck.

Exit status 1 (diagnostics found) and 2 (some file could not be read or parsed) are
expected from bankcheck; the JSON on standard output is parsed either way. A batch that
times out, crashes, or prints no JSON is split and retried file by file, so that the
culprit is named in the "failures" list.

Only the Python 3 standard library is used.
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import time

KERNEL_EXTS = {".cu", ".cuh", ".hlsl", ".hlsli", ".fx"}
HEADER_EXTS = {".h", ".hpp", ".inl"}
CUDA_EXTS = {".cu", ".cuh"}
HLSL_EXTS = {".hlsl", ".hlsli", ".fx"}
SKIP_DIRS = {".git", ".github", "node_modules", "__pycache__"}

BACKTICKED = re.compile(r"`[^`]*`")


def normalise_reason(reason):
    """Strip identifiers in backticks so that reasons group: "`n` is unknown" -> "`_` is unknown"."""
    if reason is None:
        return "(no reason given)"
    return BACKTICKED.sub("`_`", reason).strip()


def read_head(path, limit=1 << 20):
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError:
        return b""


def language_of(path, text=None):
    """CUDA or HLSL by extension; headers by content."""
    ext = os.path.splitext(path)[1].lower()
    if ext in CUDA_EXTS:
        return "CUDA"
    if ext in HLSL_EXTS:
        return "HLSL"
    if text is None:
        text = read_head(path)
    if b"groupshared" in text and b"__shared__" not in text:
        return "HLSL"
    return "CUDA"


def kernel_files(repo_dir):
    """The files bankcheck is run on, sorted, as paths relative to repo_dir."""
    out = []
    for root, dirs, files in os.walk(repo_dir):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(files):
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            ext = os.path.splitext(name)[1].lower()
            if ext in KERNEL_EXTS:
                out.append(os.path.relpath(path, repo_dir))
            elif ext in HEADER_EXTS:
                text = read_head(path)
                if b"__shared__" in text or b"groupshared" in text:
                    out.append(os.path.relpath(path, repo_dir))
    return out


def batches(items, size):
    for i in range(0, len(items), size):
        yield items[i:i + size]


def run_bankcheck(binary, repo_dir, files, timeout):
    """Runs bankcheck on files (relative to repo_dir). Returns (report or None, seconds, error)."""
    cmd = [binary, "--format", "json", "--isolated", "--"] + files
    start = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=repo_dir, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return None, time.monotonic() - start, "timeout after %ss" % timeout
    elapsed = time.monotonic() - start
    if proc.returncode not in (0, 1, 2):
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
        return None, elapsed, "exit status %d %s" % (proc.returncode, detail[0][:200])
    try:
        report = json.loads(proc.stdout.decode("utf-8", "replace"))
    except ValueError as e:
        return None, elapsed, "no JSON on stdout (exit %d): %s" % (proc.returncode, e)
    if not isinstance(report, dict):
        return None, elapsed, "JSON is not an object"
    return report, elapsed, None


def check_repo(binary, repo_dir, files, batch_size, timeout):
    """All accesses of a repository; per-file fallback when a batch fails."""
    accesses = []
    failures = []
    files_checked = 0
    seconds = 0.0
    max_file_seconds = (0.0, None)
    for batch in batches(files, batch_size):
        report, elapsed, err = run_bankcheck(binary, repo_dir, batch, timeout)
        seconds += elapsed
        if report is None and len(batch) > 1:
            for f in batch:
                r, e1, err1 = run_bankcheck(binary, repo_dir, [f], timeout)
                seconds += e1
                if r is None:
                    failures.append((f, err1))
                    continue
                accesses.extend(r.get("accesses") or [])
                files_checked += int(r.get("files_checked", 1) or 0)
            continue
        if report is None:
            failures.append((batch[0], err))
            continue
        if len(batch) == 1 and elapsed > max_file_seconds[0]:
            max_file_seconds = (elapsed, batch[0])
        accesses.extend(report.get("accesses") or [])
        files_checked += int(report.get("files_checked", len(batch)) or 0)
    return accesses, failures, files_checked, seconds


class Tally:
    def __init__(self):
        self.files = 0
        self.arrays = set()
        self.sites = 0
        self.ok = 0
        self.conflict = 0
        self.unknown = 0
        # Accesses into opaque library storage (CUB TempStorage, CUTLASS SharedStorage):
        # counted apart, not as sites bankcheck failed to decide.
        self.opaque = 0
        self.reasons = collections.Counter()
        self.seconds = 0.0
        self.failures = []

    @property
    def decided(self):
        return self.ok + self.conflict

    def pct(self):
        return 100.0 * self.decided / self.sites if self.sites else 0.0

    def add_access(self, a, key_prefix=""):
        if (a.get("reason") or "").startswith("opaque library storage"):
            self.opaque += 1
            return
        self.sites += 1
        self.arrays.add((key_prefix, a.get("file"), a.get("array")))
        status = a.get("status")
        if status == "ok":
            self.ok += 1
        elif status == "conflict":
            self.conflict += 1
        else:
            self.unknown += 1
            self.reasons[normalise_reason(a.get("reason"))] += 1

    def merge(self, other):
        self.files += other.files
        self.arrays |= other.arrays
        self.sites += other.sites
        self.ok += other.ok
        self.conflict += other.conflict
        self.unknown += other.unknown
        self.opaque += other.opaque
        self.reasons.update(other.reasons)
        self.seconds += other.seconds
        self.failures += other.failures


def fmt_reasons(counter, limit=3):
    return "; ".join("%s (%d)" % (r, n) for r, n in counter.most_common(limit))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="directory with one checkout per subdirectory")
    ap.add_argument("binary", help="path of the bankcheck binary")
    ap.add_argument("--markdown", action="store_true", help="print markdown tables")
    ap.add_argument("--json", metavar="OUT", help="also write every access (with its repository) to OUT")
    ap.add_argument("--batch", type=int, default=64, help="files per bankcheck run (default 64)")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per bankcheck run (default 300)")
    ap.add_argument("--top", type=int, default=40, help="unknown reasons to list (default 40)")
    ap.add_argument("--repo", action="append", help="only these subdirectories (repeatable)")
    args = ap.parse_args(argv)

    binary = os.path.abspath(args.binary)
    repos = sorted(d for d in os.listdir(args.corpus)
                   if os.path.isdir(os.path.join(args.corpus, d)) and not d.startswith("."))
    if args.repo:
        repos = [r for r in repos if r in set(args.repo)]

    per_repo = {}
    per_lang = {"CUDA": Tally(), "HLSL": Tally()}
    all_accesses = []
    for repo in repos:
        repo_dir = os.path.join(args.corpus, repo)
        files = kernel_files(repo_dir)
        langs = {f: language_of(os.path.join(repo_dir, f)) for f in files}
        accesses, failures, _, seconds = check_repo(binary, repo_dir, files, args.batch, args.timeout)
        t = Tally()
        t.files = len(files)
        t.seconds = seconds
        t.failures = [(repo, f, e) for f, e in failures]
        for f in files:
            per_lang[langs[f]].files += 1
        for a in accesses:
            t.add_access(a, repo)
            lang = langs.get(a.get("file")) or language_of(os.path.join(repo_dir, a.get("file") or ""))
            per_lang[lang].add_access(a, repo)
            if args.json:
                all_accesses.append(dict(a, repo=repo))
        per_repo[repo] = t
        print("checked %s: %d files, %d sites, %.1fs" % (repo, t.files, t.sites, seconds), file=sys.stderr)

    total = Tally()
    for t in per_repo.values():
        total.merge(t)
    for lang in per_lang.values():
        lang.seconds = 0.0

    if args.json:
        with open(args.json, "w") as f:
            json.dump(all_accesses, f, indent=0)

    rows = [(name, t) for name, t in per_repo.items()]
    if args.markdown:
        print_markdown(rows, per_lang, total, args.top)
    else:
        print_text(rows, per_lang, total, args.top)
    return 0


def row_cells(t, with_time=True):
    cells = [str(t.files), str(len(t.arrays)), str(t.sites), str(t.decided), str(t.conflict),
             str(t.unknown), "%.1f%%" % t.pct() if t.sites else "n/a"]
    if with_time:
        cells.append("%.1f" % t.seconds)
    return cells


def print_markdown(rows, per_lang, total, top):
    print("| repository | files | shared arrays | access sites | decided | of which conflict | unknown | decided % | time (s) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, t in rows:
        print("| %s | %s |" % (name, " | ".join(row_cells(t))))
    print("| **total** | %s |" % " | ".join("**%s**" % c for c in row_cells(total)))
    print()
    print("| language | files | shared arrays | access sites | decided | of which conflict | unknown | decided % |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for lang, t in per_lang.items():
        print("| %s | %s |" % (lang, " | ".join(row_cells(t, with_time=False))))
    print()
    print("Decided: %d of %d access sites (%.1f%%); %d accesses into opaque library storage counted apart." % (total.decided, total.sites, total.pct(), total.opaque))
    print()
    print("| # | unknown reason (identifiers in backticks replaced by `_`) | sites |")
    print("|---:|---|---:|")
    for i, (reason, n) in enumerate(total.reasons.most_common(top), 1):
        print("| %d | %s | %d |" % (i, reason.replace("|", "\\|"), n))
    if len(total.reasons) > top:
        rest = sum(n for _, n in total.reasons.most_common()[top:])
        print("| | %d other reasons | %d |" % (len(total.reasons) - top, rest))
    print()
    for name, t in rows:
        if t.reasons:
            print("- %s: %s" % (name, fmt_reasons(t.reasons)))
    if total.failures:
        print()
        print("Runs that failed (timeout, crash, no JSON):")
        print()
        for repo, f, e in total.failures:
            print("- %s: `%s`: %s" % (repo, f, e))


def print_text(rows, per_lang, total, top):
    head = ["repository", "files", "arrays", "sites", "decided", "conflict", "unknown", "decided%", "time(s)"]
    table = [head] + [[name] + row_cells(t) for name, t in rows] + [["TOTAL"] + row_cells(total)]
    widths = [max(len(r[i]) for r in table) for i in range(len(head))]
    for r in table:
        print("  ".join(c.ljust(widths[i]) if i == 0 else c.rjust(widths[i]) for i, c in enumerate(r)))
    print()
    for lang, t in per_lang.items():
        print("%-5s files %d, arrays %d, sites %d, decided %d (%.1f%%), conflict %d, unknown %d"
              % (lang, t.files, len(t.arrays), t.sites, t.decided, t.pct(), t.conflict, t.unknown))
    print()
    print("decided: %d / %d = %.1f%%" % (total.decided, total.sites, total.pct()))
    print()
    print("unknown reasons by count:")
    for reason, n in total.reasons.most_common(top):
        print("%7d  %s" % (n, reason))
    print()
    for name, t in rows:
        if t.reasons:
            print("%s unknown: %s" % (name, fmt_reasons(t.reasons)))
    if total.failures:
        print()
        print("failed runs:")
        for repo, f, e in total.failures:
            print("  %s: %s: %s" % (repo, f, e))


if __name__ == "__main__":
    sys.exit(main())
