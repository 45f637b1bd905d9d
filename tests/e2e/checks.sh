# Sourced by the e2e test scripts: strict mode, a scratch folder removed on
# exit, and `check NAME CONDITION` counting passes and failures; `summary
# NAME` prints the counts and fails when anything failed.
set -uo pipefail
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
summary() { echo "$1: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; }
