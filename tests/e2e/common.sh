# Shared by the e2e scripts (sourced after setting $lpx): a scratch folder
# $tmp removed on exit, the pass/fail counters, and helpers. Every command's
# exit code is checked: a failing step fails the test.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# Prints FAIL and stops the whole test.
die() { echo "FAIL $*"; exit 1; }

# Prints the total cycles of a hazard-free simulation of program $1; a hazard
# (exit 1), an error or a report without the figure stops the test.
sim_cycles() {
  "$lpx" simulate --json "$1" >"$tmp/sim.json" || die "simulate $1 (exit $?)"
  grep -o '"total_cycles": *[0-9]*' "$tmp/sim.json" | grep -o '[0-9]*$' ||
    die "no total_cycles in the report of $1"
}
