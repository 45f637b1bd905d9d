# Shared by the e2e shell tests: source it after `set -uo pipefail`.
# Gives $root (the repository), $tmp (removed on exit), ok/fail counters,
# finish, which prints the tally and fails when anything failed, and die and
# sim_cycles for steps whose exit code must stop the test ($lpx set first).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1${2:+: $2}"; failed=$((failed + 1)); }
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

# Prints FAIL and stops the whole test.
die() { echo "FAIL $*"; exit 1; }

# Prints the total cycles of a hazard-free simulation of program $1; a hazard
# (exit 1), an error or a report without the figure stops the test.
sim_cycles() {
  "$lpx" simulate --json "$1" >"$tmp/sim.json" || die "simulate $1 (exit $?)"
  grep -o '"total_cycles": *[0-9]*' "$tmp/sim.json" | grep -o '[0-9]*$' ||
    die "no total_cycles in the report of $1"
}
