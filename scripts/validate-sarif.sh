#!/usr/bin/env bash
# Validates bankcheck's SARIF output with Microsoft's SARIF Multitool, using the SARIF
# and GitHub rule sets (the checks GitHub code scanning applies on upload). Fails when
# the tool reports any error-level result or cannot run.
#
# Usage: scripts/validate-sarif.sh [BANKCHECK_BINARY]
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${1:-}"
if [[ -z "$bin" ]]; then
    cargo build --quiet --manifest-path "$repo/Cargo.toml"
    bin="${CARGO_TARGET_DIR:-$repo/target}/debug/bankcheck"
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# The npm package ships a self-contained executable; its postinstall (a chmod) may be
# skipped by npm's script policy, so the script makes it executable itself.
npm install --silent --no-audit --no-fund --prefix "$work" @microsoft/sarif-multitool-linux@5 >/dev/null
tool="$work/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
chmod u+x "$tool"
export DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1

# One report with findings, suppressions and every rule in the driver; the status is 1
# because the fixtures conflict.
(cd "$repo" && "$bin" --format sarif --isolated examples tests/fixtures/cli >"$work/bankcheck.sarif") || [[ $? -eq 1 ]]
python3 - "$work/bankcheck.sarif" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert results, "the SARIF report has results to validate"
PY

"$tool" validate "$work/bankcheck.sarif" --rule-kind "Sarif;Gh" --output "$work/validation.sarif"

python3 - "$work/validation.sarif" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0].get("results", [])
errors = 0
for r in results:
    level = r.get("level", "warning")
    text = r.get("message", {}).get("text") or " ".join(r.get("message", {}).get("arguments", []))
    print(f"{level}: {r.get('ruleId')}: {text}")
    errors += level == "error"
if errors:
    sys.exit(f"SARIF validation: {errors} error-level result(s)")
print(f"SARIF validation passed ({len(results)} non-error result(s))")
PY
