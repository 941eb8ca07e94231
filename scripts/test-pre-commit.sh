#!/usr/bin/env bash
# Runs this repository's pre-commit hook the way a user would, with
# `pre-commit try-repo`, on two scratch git repositories: one with a conflicting kernel
# (the hook must fail and print the finding) and one with clean kernels (it must pass).
# pre-commit builds bankcheck with `cargo install`, which takes a few minutes.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check pre-commit
pre_commit="$work/venv/bin/pre-commit"
export PRE_COMMIT_HOME="$work/cache"
export GIT_AUTHOR_NAME=bankcheck GIT_AUTHOR_EMAIL=bankcheck@localhost
export GIT_COMMITTER_NAME=bankcheck GIT_COMMITTER_EMAIL=bankcheck@localhost

# Makes a git repository under $work/$1 holding the fixtures named after it.
make_project() {
    local name="$1"
    shift
    mkdir -p "$work/$name/kernels"
    for fixture in "$@"; do
        cp "$repo/tests/fixtures/cli/$fixture" "$work/$name/kernels/"
    done
    git -C "$work/$name" init --quiet
    git -C "$work/$name" add .
    git -C "$work/$name" commit --quiet -m "kernels"
}

make_project conflicting conflict.cu clean.cu
make_project clean clean.cu clean.hlsl
# pre-commit has no type for .fx; the hook's `files` pattern must still pick it up.
cp "$repo/tests/fixtures/cli/clean.hlsl" "$work/clean/kernels/effect.fx"
git -C "$work/clean" add . && git -C "$work/clean" commit --quiet -m "effect"

status=0
(cd "$work/conflicting" && "$pre_commit" try-repo "$repo" bankcheck --all-files --verbose) >"$work/conflicting.log" 2>&1 || status=$?
if [[ $status -eq 0 ]]; then
    cat "$work/conflicting.log"
    echo "FAIL: the hook passed on a conflicting kernel" >&2
    exit 1
fi
if ! grep -q "32-way bank conflict on load of \`tile\`" "$work/conflicting.log"; then
    cat "$work/conflicting.log"
    echo "FAIL: the hook's output lacks the diagnostic" >&2
    exit 1
fi
echo "ok: the hook fails on the conflicting kernel and shows the finding"

status=0
(cd "$work/clean" && "$pre_commit" try-repo "$repo" bankcheck --all-files --verbose) >"$work/clean.log" 2>&1 || status=$?
if [[ $status -ne 0 ]]; then
    cat "$work/clean.log"
    echo "FAIL: the hook failed on clean kernels" >&2
    exit 1
fi
if ! grep -q "No problems found in 3 files" "$work/clean.log"; then
    cat "$work/clean.log"
    echo "FAIL: the hook did not check the three clean files (.cu, .hlsl, .fx)" >&2
    exit 1
fi
echo "ok: the hook passes on clean kernels, .fx included"
echo "pre-commit hook: 2 passed, 0 failed"
