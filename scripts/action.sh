#!/usr/bin/env bash
# The commands of the bankcheck GitHub Action (action.yml), kept in one script so that
# scripts/test-action.sh runs exactly what the action runs.
#
#   action.sh key       prints the cache key of the binary this checkout builds: the
#                       runner's OS and architecture and a hash of the sources
#   action.sh install   puts bankcheck on the PATH: the binary cached in
#                       $BANKCHECK_CACHE_DIR when its key matches (no build), else built
#                       from $GITHUB_ACTION_PATH (or $BANKCHECK_VERSION installed from
#                       crates.io) and stored in the cache directory for the next run
#   action.sh run       checks $BANKCHECK_PATHS with --format github (annotations and the
#                       step summary with its bank maps), optionally writes
#                       $BANKCHECK_SARIF_FILE and the HTML report $BANKCHECK_HTML_FILE (its
#                       absolute path then goes to the step output html-file, which
#                       action.yml uploads as an artifact), and exits with bankcheck's status
#
# Inputs are split the way a shell splits words (quotes group, globs are left to
# bankcheck); an input of several lines is one path per line instead.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
install_root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/bankcheck-action"
cache_dir="${BANKCHECK_CACHE_DIR:-}"

die() {
    echo "bankcheck action: $*" >&2
    exit 2
}

# Splits $1 into the array named $2. Several non-empty lines: one word per line, trimmed,
# taken literally. One line: shell words (single and double quotes, backslashes), with
# no glob, variable or command expansion.
split_words() {
    local text="$1" __name="$2" line
    local -a words=()
    local lines
    lines=$(printf '%s\n' "$text" | grep -c '[^[:space:]]' || true)
    if ((lines > 1)); then
        while IFS= read -r line; do
            line="${line#"${line%%[![:space:]]*}"}"
            line="${line%"${line##*[![:space:]]}"}"
            [[ -n "$line" ]] && words+=("$line")
        done <<<"$text"
    elif [[ -n "${text//[[:space:]]/}" ]]; then
        local parsed
        parsed=$(printf '%s' "$text" | xargs printf '%s\0' 2>&1 >/dev/null) ||
            die "cannot split '$text': ${parsed:-unbalanced quotes}"
        while IFS= read -r -d '' line; do
            words+=("$line")
        done < <(printf '%s' "$text" | xargs printf '%s\0')
    fi
    eval "$__name=(\"\${words[@]}\")"
}

# The cache key of the binary built from this checkout.
cache_key() {
    local os arch sources
    os="${RUNNER_OS:-$(uname -s)}"
    arch="${RUNNER_ARCH:-$(uname -m)}"
    if [[ -n "${BANKCHECK_VERSION:-}" ]]; then
        sources="crates.io-$BANKCHECK_VERSION"
    else
        sources=$(cd "$action_path" && find Cargo.toml Cargo.lock src rules -type f -print0 |
            LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16)
    fi
    echo "bankcheck-$os-$arch-$sources"
}

# Prefixes workspace-relative paths to the paths bankcheck prints, so that annotations
# and SARIF URIs are relative to the repository even with a working-directory.
workspace_prefix() {
    local workspace here
    workspace="${GITHUB_WORKSPACE:-}"
    [[ -n "$workspace" ]] || return 0
    workspace=$(cd "$workspace" && pwd -P)
    here=$(pwd -P)
    case "$here/" in
    "$workspace/") ;;
    "$workspace"/*) printf '%s/' "${here#"$workspace"/}" ;;
    esac
}

case "${1:-}" in
key)
    cache_key
    ;;
install)
    key=$(cache_key)
    bin="$install_root/bin/bankcheck"
    mkdir -p "$install_root/bin"
    if [[ -n "$cache_dir" && -x "$cache_dir/bin/bankcheck" && "$(cat "$cache_dir/key" 2>/dev/null)" == "$key" ]]; then
        echo "bankcheck: cached binary $key"
        cp "$cache_dir/bin/bankcheck" "$bin"
    else
        if [[ -n "${BANKCHECK_VERSION:-}" ]]; then
            cargo install --locked --quiet --profile dist --root "$install_root" bankcheck --version "$BANKCHECK_VERSION" ||
                die "cannot install bankcheck $BANKCHECK_VERSION from crates.io; leave 'version' empty to build the action's own checkout"
        else
            cargo install --locked --quiet --profile dist --root "$install_root" --path "$action_path"
        fi
        if [[ -n "$cache_dir" ]]; then
            mkdir -p "$cache_dir/bin"
            cp "$bin" "$cache_dir/bin/bankcheck"
            echo "$key" >"$cache_dir/key"
        fi
    fi
    if [[ -n "${GITHUB_PATH:-}" ]]; then
        echo "$install_root/bin" >>"$GITHUB_PATH"
    fi
    "$bin" --version
    ;;
run)
    bankcheck="$install_root/bin/bankcheck"
    [[ -x "$bankcheck" ]] || bankcheck=bankcheck
    split_words "${BANKCHECK_PATHS:-.}" paths
    split_words "${BANKCHECK_ARGS:-}" extra
    ((${#paths[@]})) || paths=(.)
    options=("${extra[@]}")
    if [[ -n "${BANKCHECK_FAIL_ON:-}" ]]; then
        options+=(--fail-on "$BANKCHECK_FAIL_ON")
    fi
    prefix=$(workspace_prefix)
    set +e
    "$bankcheck" --format github "${options[@]}" -- "${paths[@]}" |
        awk -v prefix="$prefix" '
            prefix != "" && /^::[a-z]+ file=/ && $0 !~ /^::[a-z]+ file=\// {
                sub(/ file=/, " file=" prefix)
            }
            { print }'
    codes=("${PIPESTATUS[@]}")
    set -e
    status=${codes[0]}
    ((codes[1] == 0)) || die "cannot write the annotations"
    # Writes the report of format $1 to the file $2 and says whether it was written. The
    # run repeats the check: its diagnostics are already annotations, so only its errors
    # are shown (a write failure among them).
    report_file() {
        local format="$1" file="$2" err report_status=0
        mkdir -p "$(dirname -- "$file")" || true
        err=$(mktemp)
        "$bankcheck" --format "$format" --output "$file" "${options[@]}" -- "${paths[@]}" 2>"$err" ||
            report_status=$?
        if [[ ! -s "$file" ]] || ((report_status > 1 && status < 2)); then
            cat "$err" >&2
            rm -f "$err"
            echo "bankcheck action: the $format report $file was not written" >&2
            return 1
        fi
        rm -f "$err"
    }
    if [[ -n "${BANKCHECK_SARIF_FILE:-}" ]]; then
        report_file sarif "$BANKCHECK_SARIF_FILE" || status=2
        if [[ -n "$prefix" && -s "$BANKCHECK_SARIF_FILE" ]]; then
            python3 - "$BANKCHECK_SARIF_FILE" "$prefix" <<'PY' || { echo "bankcheck action: cannot rewrite SARIF paths" >&2; status=2; }
import json, sys
path, prefix = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    sarif = json.load(f)
def fix(location):
    artifact = location.get("physicalLocation", {}).get("artifactLocation")
    if artifact and "uri" in artifact and not artifact["uri"].startswith(("/", "file:")):
        artifact["uri"] = prefix + artifact["uri"]
for run in sarif.get("runs", []):
    for artifact in run.get("artifacts", []):
        fix({"physicalLocation": {"artifactLocation": artifact.get("location", {})}})
    for result in run.get("results", []):
        for location in result.get("locations", []) + result.get("relatedLocations", []):
            fix(location)
with open(path, "w", encoding="utf-8") as f:
    json.dump(sarif, f, indent=2)
PY
        fi
    fi
    html_written=""
    if [[ -n "${BANKCHECK_HTML_FILE:-}" ]]; then
        if report_file html "$BANKCHECK_HTML_FILE"; then
            html_written="$(cd "$(dirname -- "$BANKCHECK_HTML_FILE")" && pwd)/$(basename -- "$BANKCHECK_HTML_FILE")"
        else
            status=2
        fi
    fi
    if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
        echo "exit-code=$status" >>"$GITHUB_OUTPUT"
        if [[ -n "$html_written" ]]; then
            echo "html-file=$html_written" >>"$GITHUB_OUTPUT"
        fi
    fi
    exit "$status"
    ;;
*)
    echo "usage: $0 key|install|run" >&2
    exit 2
    ;;
esac
