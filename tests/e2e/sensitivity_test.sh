#!/usr/bin/env bash
# `lpx sweep --sensitivity` end to end on the MLP and tsp-v1: one CSV row per
# ranged assumption of the preset; the base point is `lpx simulate` of the
# same compile, every end is `lpx sweep --set key=value` of its value (same
# cycles); the band brackets the base; a longer MXM pipeline is never faster;
# the tornado is an SVG, the page (--report) holds the band and the rows;
# the same CSV on one thread; bad input (unknown chip,
# a description whose range is malformed, --set beside --sensitivity) is one
# line, exit 2 and no output file; lpx chip validate refuses the bad range.
# `lpx simulate --sensitivity` of the MLP compiled for lpx3: the keys the
# compiler does not read re-simulated, its cycles unmoved.
set -uo pipefail
lpx="$1"
source "$(dirname "$0")/testlib.sh"
model="$root/models/mlp/model.onnx"

# 1. The study.
"$lpx" sweep "$model" --sensitivity -o "$tmp/band.csv" --plot "$tmp/tornado.svg" \
  --report "$tmp/band.html" >"$tmp/out" 2>"$tmp/err" || die "sweep --sensitivity (exit $?): $(head -3 "$tmp/err")"
ranges=$("$lpx" chip keys --json | grep -c '"low":')
rows=$(($(wc -l <"$tmp/band.csv") - 1))
if [ "$ranges" -ge 20 ] && [ "$rows" -eq "$ranges" ] &&
   [ "$(head -1 "$tmp/band.csv" | cut -d, -f1-6)" = "key,low,high,base_status,base_cycles,base_seconds" ]; then
  ok "one row per ranged assumption ($rows)"
else
  fail "rows" "$rows rows for $ranges ranges: $(head -2 "$tmp/band.csv")"
fi

# The page (--report) states the printed band and has a row per CSV row.
band=$(tail -1 "$tmp/out" | sed 's/ -> .*//')
trs=$(grep -o '<tr>' "$tmp/band.html" | wc -l)
if grep -qF "$band" "$tmp/band.html" && [ "$trs" -eq $((rows + 1)) ]; then
  ok "the page states the band and every row"
else
  fail "page" "$trs table rows for $rows; band '$band'"
fi

# 2. The base is the preset as described: lpx simulate of lpx compile.
"$lpx" compile "$model" -o "$tmp/base.lpxb" >/dev/null || die "compile"
sim=$(sim_cycles "$tmp/base.lpxb")
bases=$(tail -n +2 "$tmp/band.csv" | cut -d, -f4,5 | sort -u)
if [ "$bases" = "ok,$sim" ]; then
  ok "base = lpx simulate of the same compile ($sim cycles)"
else
  fail "base" "CSV gives '$bases', lpx simulate $sim cycles"
fi

# 3. Every end = `lpx sweep --set key=low,high` (columns 2, 3: the values;
# 8 and 11: the cycles at each).
mismatch=0
while IFS=, read -r key low high _ _ _ _ lc _ _ hc _; do
  values="$low,$high"
  [ "$low" = "$high" ] && values="$low" # a range of one value: one point
  "$lpx" sweep "$model" --set "$key=$values" -o "$tmp/one.csv" >/dev/null 2>&1 ||
    { fail "sweep --set $key=$values" "exit $?"; mismatch=1; continue; }
  got="$(sed -n 2p "$tmp/one.csv" | cut -d, -f4) $(sed -n "$([ "$low" = "$high" ] && echo 2 || echo 3)p" "$tmp/one.csv" | cut -d, -f4)"
  if [ "$got" != "$lc $hc" ]; then
    fail "$key" "sensitivity $lc/$hc cycles, sweep --set $got"; mismatch=1
  fi
done < <(tail -n +2 "$tmp/band.csv")
[ $mismatch -eq 0 ] && ok "every low and high end = lpx sweep --set of that value"

# 4. The band brackets the base and every end.
line=$(grep '^seconds ' "$tmp/out")
read -r blo bhi < <(echo "$line" | sed -E 's/.*cycles [0-9]+ \(band ([0-9]+)-([0-9]+)\).*/\1 \2/')
ends=$(tail -n +2 "$tmp/band.csv" | awk -F, '{print $8; print $11}' | sort -n)
if [ -n "$blo" ] && [ "$blo" -le "$sim" ] && [ "$sim" -le "$bhi" ] &&
   [ "$(echo "$ends" | head -1)" -eq "$blo" ] && [ "$(echo "$ends" | tail -1)" -eq "$bhi" ] &&
   [ "$blo" -lt "$bhi" ] && echo "$line" | grep -qE "over $ranges assumptions"; then
  ok "$line"
else
  fail "band" "'$line' against base $sim and ends $(echo $ends | head -c 80)"
fi

# 5. Direction: a deeper MXM pipeline never lowers the cycles, and this
# model's matrix products feel it.
read -r lc bc hc < <(grep '^mxm.latency,' "$tmp/band.csv" | awk -F, '{print $8, $5, $11}')
if [ -n "$lc" ] && [ "$lc" -le "$bc" ] && [ "$bc" -le "$hc" ] && [ "$lc" -lt "$hc" ]; then
  ok "mxm.latency: low end $lc <= base $bc <= high end $hc cycles"
else
  fail "mxm.latency direction" "low '$lc', base '$bc', high '$hc'"
fi

# 6. The tornado: an SVG with a bar per end that moves the figure.
if head -c 4 "$tmp/tornado.svg" | grep -q '^<svg' &&
   grep -q '<title>mxm.latency = 16: ' "$tmp/tornado.svg"; then
  ok "tornado SVG"
else
  fail "tornado" "$(head -c 200 "$tmp/tornado.svg")"
fi

# 7. Threads do not change the table.
if "$lpx" sweep "$model" --sensitivity -j 1 -o "$tmp/one-thread.csv" >/dev/null 2>&1 &&
   cmp -s "$tmp/band.csv" "$tmp/one-thread.csv"; then
  ok "-j 1 gives the identical CSV"
else
  fail "determinism" "-j 1 gives a different CSV"
fi

# 8. Bad input: one line, exit 2, nothing written.
expect_error() {
  local name="$1" pattern="$2"; shift 2
  rm -f "$tmp/e.csv" "$tmp/e.svg"
  "$lpx" sweep "$model" --sensitivity -o "$tmp/e.csv" --plot "$tmp/e.svg" "$@" \
    >/dev/null 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] &&
     grep -qE "^lpx sweep: error: .*$pattern" "$tmp/stderr" &&
     [ ! -e "$tmp/e.csv" ] && [ ! -e "$tmp/e.svg" ]; then
    ok "$name: $(cat "$tmp/stderr")"
  else
    fail "$name" "exit $rc: $(head -2 "$tmp/stderr")"
  fi
}
expect_error "unknown chip" "cannot read chip description 'tsp-v9'" --chip tsp-v9
sed 's/ASSUMPTION range 2\.\.16: MXM/ASSUMPTION range 8..16: MXM/' \
  "$root/isa/chips/tsp-v1.yaml" >"$tmp/bad.yaml"
expect_error "a range beside the value" \
  "bad.yaml:[0-9]+: range of mxm.latency: 8..16 does not hold the chip's value 4" --chip "$tmp/bad.yaml"
# lpx chip validate checks the ranges too, with the same line.
"$lpx" chip validate "$tmp/bad.yaml" >/dev/null 2>"$tmp/stderr"
rc=$?
if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] &&
   grep -q "^lpx chip validate: error: .*bad.yaml:[0-9]*: range of mxm.latency" "$tmp/stderr" &&
   "$lpx" chip validate "$root/isa/chips/tsp-v1.yaml" | grep -q "($ranges assumption ranges)"; then
  ok "chip validate: $(cat "$tmp/stderr")"
else
  fail "chip validate" "exit $rc: $(head -2 "$tmp/stderr")"
fi
"$lpx" chip show tsp-v1 >"$tmp/bare.yaml"
expect_error "a description without ranges" "states no assumption ranges" --chip "$tmp/bare.yaml"
expect_error "--set beside --sensitivity" "--set, --shard and --metric are for grids" --set mxm.latency=8

# `lpx simulate --sensitivity` of the compiled program: the base is lpx
# simulate's cycles, only the clock and the host path are re-simulated (the
# compiler reads every other key) and the cycles never move.
# # tsp-v1 ranges none of those (its clock is public), lpx3 the clock and host.
"$lpx" compile "$model" --chip lpx3 -o "$tmp/lpx3.lpxb" >/dev/null || die "compile lpx3"
sim=$(sim_cycles "$tmp/lpx3.lpxb")
"$lpx" simulate "$tmp/lpx3.lpxb" --sensitivity -o "$tmp/prog.csv" >"$tmp/out" 2>"$tmp/err" ||
  die "simulate --sensitivity: $(head -2 "$tmp/err")"
keys=$(tail -n +2 "$tmp/prog.csv" | cut -d, -f1 | sort | tr '\n' ' ')
cycles=$(tail -n +2 "$tmp/prog.csv" | cut -d, -f5,8,11 | tr ',' '\n' | sort -u | tr '\n' ' ')
if [ -n "$keys" ] && ! grep -qE 'mxm|vxm|sxm|link|topology|sram' <<<"$keys" &&
   [ "$cycles" = "$sim " ] && grep -q "^base: $sim cycles" "$tmp/out" &&
   grep -q "not varied: [0-9]* assumption(s) the compiler reads" "$tmp/out"; then
  ok "simulate --sensitivity re-simulates $keys at $sim cycles"
else
  fail "simulate --sensitivity" "keys '$keys', cycles '$cycles': $(head -3 "$tmp/out")"
fi
"$lpx" simulate "$tmp/base.lpxb" -o "$tmp/x.csv" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 2 ] && [ ! -e "$tmp/x.csv" ] && grep -q "go with --sensitivity" "$tmp/err" &&
  ok "simulate -o without --sensitivity is refused" || fail "simulate -o" "exit $rc: $(cat "$tmp/err")"

finish
