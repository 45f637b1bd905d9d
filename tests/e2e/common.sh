# Shared preamble of the e2e test scripts (source it with the lpx binary as
# $1): testlib.sh (the repository root, a scratch folder removed on exit,
# ok/fail counting, die, sim_cycles) plus $lpx and check (a condition).
set -uo pipefail
lpx="$1"
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# Prints the counts; succeeds when nothing failed and something passed.
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; }
