#!/usr/bin/env bash
# The commands of the bankcheck GitHub Action (action.yml), kept in one script so that
# scripts/test-action.sh runs exactly what the action runs.
#
#   action.sh install   builds bankcheck from $GITHUB_ACTION_PATH, or installs
#                       $BANKCHECK_VERSION from crates.io, and puts it on the PATH
#   action.sh run       checks $BANKCHECK_PATHS with --format github (annotations and the
#                       step summary), optionally writes $BANKCHECK_SARIF_FILE, and exits
#                       with bankcheck's status
set -euo pipefail

install_root="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/bankcheck-action"

case "${1:-}" in
install)
    if [[ -n "${BANKCHECK_VERSION:-}" ]]; then
        cargo install --locked --quiet --root "$install_root" bankcheck --version "$BANKCHECK_VERSION"
    else
        cargo install --locked --quiet --root "$install_root" --path "$GITHUB_ACTION_PATH"
    fi
    if [[ -n "${GITHUB_PATH:-}" ]]; then
        echo "$install_root/bin" >>"$GITHUB_PATH"
    fi
    "$install_root/bin/bankcheck" --version
    ;;
run)
    bankcheck="$install_root/bin/bankcheck"
    [[ -x "$bankcheck" ]] || bankcheck=bankcheck
    # Word-split the inputs without letting the shell expand globs: bankcheck does that.
    set -f
    read -r -a paths <<<"${BANKCHECK_PATHS:-.}"
    read -r -a extra <<<"${BANKCHECK_ARGS:-}"
    set +f
    options=("${extra[@]}")
    if [[ -n "${BANKCHECK_FAIL_ON:-}" ]]; then
        options+=(--fail-on "$BANKCHECK_FAIL_ON")
    fi
    status=0
    "$bankcheck" --format github "${options[@]}" "${paths[@]}" || status=$?
    if [[ -n "${BANKCHECK_SARIF_FILE:-}" ]]; then
        # The SARIF run repeats the check; its status is the same and already known.
        "$bankcheck" --format sarif --output "$BANKCHECK_SARIF_FILE" "${options[@]}" "${paths[@]}" 2>/dev/null || true
    fi
    if [[ -n "${GITHUB_OUTPUT:-}" ]]; then
        echo "exit-code=$status" >>"$GITHUB_OUTPUT"
    fi
    exit "$status"
    ;;
*)
    echo "usage: $0 install|run" >&2
    exit 2
    ;;
esac
