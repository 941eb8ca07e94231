#!/usr/bin/env bash
# Runs the GitHub Action's own commands (scripts/action.sh, as action.yml calls it) in a
# scratch workspace with the variables a runner sets, and checks the annotations, the
# step summary, the SARIF file, the exit-code output and the step's status.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

export GITHUB_ACTION_PATH="$repo"
export GITHUB_WORKSPACE="$work/workspace"
export GITHUB_STEP_SUMMARY="$work/step-summary.md"
export GITHUB_OUTPUT="$work/output"
export GITHUB_PATH="$work/path"
export RUNNER_TEMP="$work/runner"
mkdir -p "$GITHUB_WORKSPACE/kernels" "$RUNNER_TEMP"
touch "$GITHUB_STEP_SUMMARY" "$GITHUB_OUTPUT" "$GITHUB_PATH"
cp "$repo/tests/fixtures/cli/conflict.cu" "$repo/tests/fixtures/cli/clean.cu" "$GITHUB_WORKSPACE/kernels/"
cp "$repo/tests/fixtures/cli/clean.hlsl" "$GITHUB_WORKSPACE/kernels/"

passed=0
fail() {
    echo "FAIL: $*" >&2
    exit 1
}
expect_in() { # FILE TEXT
    grep -qF -- "$2" "$1" || { cat "$1"; fail "$1 lacks: $2"; }
    passed=$((passed + 1))
}

BANKCHECK_VERSION="" bash "$repo/scripts/action.sh" install >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "install"; }
expect_in "$GITHUB_PATH" "$RUNNER_TEMP/bankcheck-action/bin"

# 1. Findings: annotations, summary, SARIF, exit-code output, failing status.
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels kernels/*.hlsl" BANKCHECK_SARIF_FILE=results.sarif \
    bash "$repo/scripts/action.sh" run) >"$work/run1.out" 2>"$work/run1.err" || status=$?
[[ $status -eq 1 ]] || { cat "$work/run1.out" "$work/run1.err"; fail "expected status 1, got $status"; }
passed=$((passed + 1))
expect_in "$work/run1.out" "::warning file=kernels/conflict.cu,line=7,endLine=7,col=24,endColumn=44,title=bankcheck bank-conflict::32-way bank conflict on load of \`tile\` (32 wavefronts, ideal 1)"
if grep -qv '^::' "$work/run1.out" || grep -q 'clean' "$work/run1.out"; then
    cat "$work/run1.out"
    fail "every stdout line is an annotation, none for the clean files"
fi
passed=$((passed + 1))
expect_in "$GITHUB_STEP_SUMMARY" "## bankcheck"
expect_in "$GITHUB_STEP_SUMMARY" "(1 warning) in 1 of 3 files"
expect_in "$GITHUB_STEP_SUMMARY" "### \`kernels/conflict.cu\`"
expect_in "$GITHUB_STEP_SUMMARY" "| 7 | warning | \`bank-conflict\` | 32 | 31 |"
expect_in "$GITHUB_OUTPUT" "exit-code=1"
python3 - "$GITHUB_WORKSPACE/results.sarif" <<'PY' || fail "SARIF file"
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
[result] = [r for r in run["results"] if r["locations"][0]["physicalLocation"]["region"]["startLine"] == 7]
assert result["ruleId"] == "bank-conflict", result
assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "kernels/conflict.cu", result
assert result["properties"]["conflict_factor"] == 32, result
PY
passed=$((passed + 1))

# 2. fail-on error: the warning is still annotated but the step passes.
: >"$GITHUB_OUTPUT"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels" BANKCHECK_FAIL_ON=error bash "$repo/scripts/action.sh" run) \
    >"$work/run2.out" 2>&1 || status=$?
[[ $status -eq 0 ]] || { cat "$work/run2.out"; fail "fail-on error: expected status 0, got $status"; }
passed=$((passed + 1))
expect_in "$work/run2.out" "::warning file=kernels/conflict.cu"
expect_in "$GITHUB_OUTPUT" "exit-code=0"

# 3. Clean kernels only: no annotation, status 0.
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels/clean.cu kernels/clean.hlsl" bash "$repo/scripts/action.sh" run) \
    >"$work/run3.out" 2>&1 || status=$?
[[ $status -eq 0 && ! -s "$work/run3.out" ]] || { cat "$work/run3.out"; fail "clean run: status $status"; }
passed=$((passed + 1))

# 4. A path that does not exist: status 2, the error on stderr.
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="missing.cu" bash "$repo/scripts/action.sh" run) >"$work/run4.out" 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat "$work/run4.out"; fail "missing path: expected status 2, got $status"; }
passed=$((passed + 1))
expect_in "$work/run4.out" "missing.cu: no such file or directory"

# 5. The documented example's inputs, verbatim: quoted globs, a quoted argument, and the
#    ready-to-copy workflow's fail-on, sarif-file and html-file.
mkdir -p "$GITHUB_WORKSPACE/shaders" "$GITHUB_WORKSPACE/src/deep/er"
cp "$repo/tests/fixtures/cli/clean.hlsl" "$GITHUB_WORKSPACE/shaders/"
cp "$repo/tests/fixtures/cli/conflict.cu" "$GITHUB_WORKSPACE/src/deep/er/tr.cuh"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels shaders 'src/**/*.cuh'" BANKCHECK_ARGS="--block 'tr=32,8'" \
    BANKCHECK_FAIL_ON=warning BANKCHECK_SARIF_FILE=bankcheck.sarif BANKCHECK_HTML_FILE=bankcheck-report.html \
    bash "$repo/scripts/action.sh" run) >"$work/run5.out" 2>"$work/run5.err" || status=$?
[[ $status -eq 1 ]] || { cat "$work/run5.out" "$work/run5.err"; fail "documented paths: expected status 1, got $status"; }
passed=$((passed + 1))
expect_in "$work/run5.out" "file=src/deep/er/tr.cuh,line=7"
expect_in "$work/run5.out" "file=kernels/conflict.cu,line=7"
[[ -s "$GITHUB_WORKSPACE/bankcheck.sarif" && -s "$GITHUB_WORKSPACE/bankcheck-report.html" ]] ||
    fail "the documented workflow writes its SARIF and HTML reports"
passed=$((passed + 1))

# 6. One path per line (a YAML block), a path with a space; unbalanced quotes are an error.
mkdir -p "$GITHUB_WORKSPACE/with space"
cp "$repo/tests/fixtures/cli/conflict.cu" "$GITHUB_WORKSPACE/with space/k.cu"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS=$'with space/k.cu\n  kernels/clean.cu\n' bash "$repo/scripts/action.sh" run) \
    >"$work/run6.out" 2>&1 || status=$?
[[ $status -eq 1 ]] || { cat "$work/run6.out"; fail "paths per line: expected status 1, got $status"; }
passed=$((passed + 1))
expect_in "$work/run6.out" "file=with space/k.cu,line=7"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels 'src" bash "$repo/scripts/action.sh" run) >"$work/run6b.out" 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat "$work/run6b.out"; fail "unbalanced quote: expected status 2, got $status"; }
passed=$((passed + 1))
expect_in "$work/run6b.out" "cannot split"

# 7. working-directory: annotations and SARIF locations stay relative to the repository;
#    a SARIF file in a directory that does not exist yet is written.
mkdir -p "$GITHUB_WORKSPACE/sub/kernels"
cp "$repo/tests/fixtures/cli/conflict.cu" "$GITHUB_WORKSPACE/sub/kernels/"
status=0
(cd "$GITHUB_WORKSPACE/sub" && BANKCHECK_PATHS="kernels" BANKCHECK_SARIF_FILE=reports/out/bankcheck.sarif \
    bash "$repo/scripts/action.sh" run) >"$work/run7.out" 2>"$work/run7.err" || status=$?
[[ $status -eq 1 ]] || { cat "$work/run7.out" "$work/run7.err"; fail "working-directory: expected status 1, got $status"; }
passed=$((passed + 1))
expect_in "$work/run7.out" "::warning file=sub/kernels/conflict.cu,line=7"
python3 -c '
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]}
assert uris == {"sub/kernels/conflict.cu"}, uris
' "$GITHUB_WORKSPACE/sub/reports/out/bankcheck.sarif" || fail "SARIF under working-directory"
passed=$((passed + 1))

# 8. A SARIF path that cannot be written is an error, not a silent success.
touch "$GITHUB_WORKSPACE/blocker"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels/clean.cu" BANKCHECK_SARIF_FILE=blocker/x.sarif \
    bash "$repo/scripts/action.sh" run) >"$work/run8.out" 2>&1 || status=$?
[[ $status -ne 0 ]] || { cat "$work/run8.out"; fail "unwritable SARIF path: expected a failure"; }
passed=$((passed + 1))

# 9. The binary cache: a second install with the same key takes the cached binary and
#    never calls cargo (a cargo that fails stands in for it on the PATH).
cache="$work/cache"
BANKCHECK_CACHE_DIR="$cache" BANKCHECK_VERSION="" bash "$repo/scripts/action.sh" install >"$work/install2.log" 2>&1 ||
    { cat "$work/install2.log"; fail "install into the cache"; }
[[ -x "$cache/bin/bankcheck" && -s "$cache/key" ]] || fail "the cache holds no binary"
passed=$((passed + 1))
mkdir -p "$work/nocargo"
printf '#!/bin/sh\necho "cargo must not run on a cache hit" >&2\nexit 3\n' >"$work/nocargo/cargo"
chmod +x "$work/nocargo/cargo"
rm -rf "$RUNNER_TEMP/bankcheck-action"
started=$(date +%s)
PATH="$work/nocargo:$PATH" BANKCHECK_CACHE_DIR="$cache" BANKCHECK_VERSION="" bash "$repo/scripts/action.sh" install \
    >"$work/install3.log" 2>&1 || { cat "$work/install3.log"; fail "install from the cache"; }
echo "cache hit: installed in $(($(date +%s) - started)) s"
expect_in "$work/install3.log" "cached binary"
[[ -x "$RUNNER_TEMP/bankcheck-action/bin/bankcheck" ]] || fail "cache hit left no binary"
passed=$((passed + 1))

# 10. action.yml itself: valid YAML whose run step passes every input the script reads and
#     runs in working-directory, and whose upload step takes the script's html-file output.
python3 - "$repo/action.yml" <<'PY' || fail "action.yml"
import sys, yaml
action = yaml.safe_load(open(sys.argv[1]))
inputs = action["inputs"]
steps = {s["name"]: s for s in action["runs"]["steps"]}
run = steps["Run bankcheck"]
assert run["working-directory"] == "${{ inputs.working-directory }}", run
for var, name in [("BANKCHECK_PATHS", "paths"), ("BANKCHECK_FAIL_ON", "fail-on"),
                  ("BANKCHECK_SARIF_FILE", "sarif-file"), ("BANKCHECK_HTML_FILE", "html-file"),
                  ("BANKCHECK_ARGS", "args")]:
    assert run["env"][var] == "${{ inputs.%s }}" % name, (var, run["env"])
    assert name in inputs, name
upload = steps["Upload the HTML report"]
assert upload["uses"].startswith("actions/upload-artifact@"), upload
assert upload["with"]["path"] == "${{ steps.check.outputs.html-file }}", upload
assert upload["with"]["name"] == "${{ inputs.html-artifact }}", upload
assert "steps.check.outputs.html-file != ''" in upload["if"], upload
PY
passed=$((passed + 1))

# 11. Bank maps: the step summary draws the worst conflicts' maps (at most five, saying
#     how many more there are), and html-file writes the HTML report, which the step
#     output names for the upload. The docs' example inputs, verbatim.
mkdir -p "$GITHUB_WORKSPACE/many"
{
    echo "// Seven arrays, each read with a stride of 2^k words: seven conflicts."
    for k in 1 2 3 4 5 6 7; do
        echo "__global__ void __launch_bounds__(32) s$k(float* out)"
        echo "{"
        echo "    __shared__ float a$k[4096];"
        echo "    out[threadIdx.x] = a$k[threadIdx.x * $((1 << k))];"
        echo "}"
    done
} >"$GITHUB_WORKSPACE/many/strides.cu"
: >"$GITHUB_STEP_SUMMARY"
: >"$GITHUB_OUTPUT"
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="many" BANKCHECK_HTML_FILE=bankcheck-report.html \
    bash "$repo/scripts/action.sh" run) >"$work/run11.out" 2>"$work/run11.err" || status=$?
[[ $status -eq 1 ]] || { cat "$work/run11.out" "$work/run11.err"; fail "bank maps: expected status 1, got $status"; }
passed=$((passed + 1))
expect_in "$GITHUB_STEP_SUMMARY" "### Bank maps"
[[ $(grep -c '^```text$' "$GITHUB_STEP_SUMMARY") -eq 5 ]] || { cat "$GITHUB_STEP_SUMMARY"; fail "five bank maps in the summary"; }
passed=$((passed + 1))
expect_in "$GITHUB_STEP_SUMMARY" "2 more bank maps not shown here"
# The worst first: a stride of 32 (and more) words puts every lane in bank 0.
expect_in "$GITHUB_STEP_SUMMARY" "  before  W...............................  32 wavefronts"
expect_in "$GITHUB_OUTPUT" "html-file=$GITHUB_WORKSPACE/bankcheck-report.html"
expect_in "$GITHUB_WORKSPACE/bankcheck-report.html" "<table class=\"findings\" id=\"findings\">"
[[ $(grep -o '<figure class="map before"' "$GITHUB_WORKSPACE/bankcheck-report.html" | wc -l) -eq 7 ]] ||
    fail "a bank map per conflict in the HTML report"
passed=$((passed + 1))
# An HTML path that cannot be written fails the step, as a SARIF path does.
status=0
(cd "$GITHUB_WORKSPACE" && BANKCHECK_PATHS="kernels/clean.cu" BANKCHECK_HTML_FILE=blocker/x.html \
    bash "$repo/scripts/action.sh" run) >"$work/run11b.out" 2>&1 || status=$?
[[ $status -eq 2 ]] || { cat "$work/run11b.out"; fail "unwritable HTML path: expected status 2, got $status"; }
passed=$((passed + 1))
expect_in "$work/run11b.out" "the html report blocker/x.html was not written"

echo "GitHub Action: $passed passed, 0 failed"
