# Shared preamble of the e2e test scripts (source it with the lpx binary as
# $1): testlib.sh (the repository root, a scratch folder removed on exit,
# ok/fail counting, die, sim_cycles) plus $lpx and check (a condition).
set -uo pipefail
lpx="$1"
source "$(dirname "${BASH_SOURCE[0]}")/testlib.sh"
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
# serve NAME [options]: `lpx serve "${base[@]}" options` (the script sets
# base), stdout into $tmp/NAME.out; a failure counts with stderr's first line.
serve() {
  local name="$1"; shift
  if "$lpx" serve "${base[@]}" "$@" >"$tmp/$name.out" 2>"$tmp/stderr"; then
    return 0
  fi
  fail "serve $*" "$(head -1 "$tmp/stderr")"
  return 1
}
# Prints the counts; succeeds when nothing failed and something passed.
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]; }

# Succeeds when every mxm instruction of program $1 reads i8 buffers (from
# `lpx inspect`): the qdq tests' int8 matrix work.
mxm_int8() {
  "$lpx" inspect "$1" | /usr/bin/python3 -c '
import re, sys
dtype, ops = {}, []
for line in sys.stdin:
    b = re.match(r"\s+%(\d+)\s+node \d+ @\d+\s+\w+\s+\S*?x?([a-z]+\d+)\s", line)
    if b:
        dtype[b.group(1)] = b.group(2)
    i = re.match(r"\s+\d+ mxm\s+\w+\s+%\d+ <- %(\d+) %(\d+)", line)
    if i:
        ops.append(i.groups())
bad = [o for o in ops if dtype.get(o[0]) != "i8" or dtype.get(o[1]) != "i8"]
sys.exit(0 if ops and not bad else 1)'
}
