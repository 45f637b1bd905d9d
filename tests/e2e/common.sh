# Shared preamble of the e2e test scripts (source it with the lpx binary as
# $1): the repository root, a scratch folder removed on exit, and
# pass/fail counting with check (a condition), ok and fail (messages).
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# Prints the counts; succeeds when nothing failed and something passed.
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; }
