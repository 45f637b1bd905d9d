#!/usr/bin/env bash
# `lpx sweep` end to end: a 12-point grid writes 12 CSV rows in point order
# and an SVG, the same CSV whatever the number of threads; a point that does
# not fit is a row, not a failure; bad --set values are one-line errors with
# exit 2 and no output; `--set` on compile and chip show changes the chip;
# `chip keys` lists the keys.
set -uo pipefail
lpx="$1"
source "$(dirname "$0")/testlib.sh"
model="$root/models/llama_step/model.onnx"

# 1. The 12-point sweep, timed.
start=$(date +%s.%N)
if "$lpx" sweep "$model" --set link.latency=108,216,432 --set nodes=1,2,4,8 \
     -o "$tmp/a.csv" --plot "$tmp/a.svg" >"$tmp/log" 2>&1; then
  end=$(date +%s.%N)
  rows=$(($(wc -l <"$tmp/a.csv") - 1))
  okrows=$(grep -c ',ok,' "$tmp/a.csv")
  if [ "$rows" -ne 12 ] || [ "$okrows" -ne 12 ]; then
    fail "12-point sweep" "$rows rows, $okrows ok"; cat "$tmp/a.csv"
  elif ! head -c 4 "$tmp/a.svg" | grep -q '^<svg'; then
    fail "12-point sweep" "the plot does not start with <svg"
  elif [ "$(head -1 "$tmp/a.csv" | cut -d, -f1-3)" != "link.latency,nodes,status" ]; then
    fail "12-point sweep" "header: $(head -1 "$tmp/a.csv")"
  elif [ "$(sed -n '2p;5p;13p' "$tmp/a.csv" | cut -d, -f1,2 | tr '\n' ' ')" != "108,1 108,8 432,8 " ]; then
    fail "12-point sweep" "rows are not in point order"; cat "$tmp/a.csv"
  else
    ok "12-point sweep: $(awk "BEGIN { printf \"%.1f\", $end - $start }") s on this machine"
  fi
else
  fail "12-point sweep" "$(head -3 "$tmp/log")"
fi

# 2. The same CSV on one thread: output order does not depend on timing.
if "$lpx" sweep "$model" --set link.latency=108,216,432 --set nodes=1,2,4,8 \
     -o "$tmp/b.csv" --jobs 1 >/dev/null 2>&1 && cmp -s "$tmp/a.csv" "$tmp/b.csv"; then
  ok "one thread gives the identical CSV"
else
  fail "determinism" "--jobs 1 gives a different CSV"
fi

# 3. Lower link latency is faster on 2 nodes (rows 3 and 7: 108 vs 216).
c108=$(sed -n 3p "$tmp/a.csv" | cut -d, -f4)
c216=$(sed -n 7p "$tmp/a.csv" | cut -d, -f4)
if [ -n "$c108" ] && [ -n "$c216" ] && [ "$c108" -lt "$c216" ]; then
  ok "link.latency 108 beats 216 on 2 nodes ($c108 < $c216 cycles)"
else
  fail "link latency" "108: '$c108' cycles, 216: '$c216' cycles"
fi

# 4. A point that does not fit is a row with a status and a message.
if "$lpx" sweep "$model" --set sram.bytes=64KiB,220MiB -o "$tmp/c.csv" \
     >"$tmp/log" 2>&1 && grep -q '^64KiB,1,compile-error,.*,' "$tmp/c.csv" &&
   grep -q '^220MiB,1,ok,' "$tmp/c.csv"; then
  ok "a model too big for the chip is a compile-error row"
else
  fail "failing point" "$(cat "$tmp/log" "$tmp/c.csv" 2>/dev/null | head -5)"
fi

# 5. Bad --set values: exit 2, one line, no output file.
expect_error() {
  local name="$1" pattern="$2"; shift 2
  rm -f "$tmp/e.csv"
  "$lpx" sweep "$model" -o "$tmp/e.csv" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then
    fail "$name" "exit code $rc, expected 2"
  elif [ "$(wc -l <"$tmp/stderr")" -ne 1 ] || ! grep -qE "^lpx sweep: error: .*$pattern" "$tmp/stderr"; then
    fail "$name" "error is not one line matching /$pattern/: $(head -3 "$tmp/stderr")"
  elif [ -e "$tmp/e.csv" ]; then
    fail "$name" "left an output file behind"
  else
    ok "$name: $(cat "$tmp/stderr")"
  fi
}
expect_error "unknown key" "unknown chip parameter 'mxm.plane'.*planes" --set mxm.plane=8
expect_error "unknown section" "unknown chip section 'foo'" --set foo.bar=1
expect_error "bad value" "invalid value 'lots' for chip parameter 'mxm.planes'" --set mxm.planes=lots
expect_error "impossible value" "mxm.planes must be positive" --set mxm.planes=0,4
expect_error "empty list" "empty list" --set mxm.planes=
expect_error "empty element" "empty value" --set mxm.planes=4,,8
expect_error "empty range" "is empty" --set link.latency=400..100:50
expect_error "bad node count" "not a positive node count" --set nodes=0,2
expect_error "unknown metric" "unknown metric" --metric speed

# 5b. --shard I/N and merge: three parts, merged in any order, give the
# unsharded CSV and plot byte for byte; so do the failing rows of the SRAM
# sweep (quoted messages with commas). Parts that do not add up are refused
# and nothing is written.
for i in 1 2 3; do
  "$lpx" sweep "$model" --set link.latency=108,216,432 --set nodes=1,2,4,8 \
    --shard $i/3 -o "$tmp/part$i.csv" >/dev/null 2>&1 || fail "shard $i/3" "exit $?"
done
if "$lpx" sweep merge "$tmp/part3.csv" "$tmp/part1.csv" "$tmp/part2.csv" \
     -o "$tmp/merged.csv" --plot "$tmp/merged.svg" >/dev/null 2>"$tmp/stderr" &&
   cmp -s "$tmp/a.csv" "$tmp/merged.csv" && cmp -s "$tmp/a.svg" "$tmp/merged.svg"; then
  ok "3 shards merged = the unsharded CSV and SVG"
else
  fail "shard merge" "$(head -2 "$tmp/stderr"; diff "$tmp/a.csv" "$tmp/merged.csv" | head -5)"
fi
rows=$(( $(grep -vc '^#' "$tmp/part1.csv") - 1 ))
[ "$rows" -eq 4 ] && ok "shard 1/3 holds 4 of the 12 points" || fail "shard size" "$rows rows"
for i in 1 2; do
  "$lpx" sweep "$model" --set sram.bytes=64KiB,220MiB --shard $i/2 -o "$tmp/s$i.csv" >/dev/null 2>&1
done
if "$lpx" sweep merge "$tmp/s2.csv" "$tmp/s1.csv" -o "$tmp/smerged.csv" >/dev/null 2>&1 &&
   cmp -s "$tmp/c.csv" "$tmp/smerged.csv"; then
  ok "failing rows survive the merge unchanged"
else
  fail "merge of failing rows" "$(diff "$tmp/c.csv" "$tmp/smerged.csv" | head -5)"
fi
expect_merge_error() {
  local name="$1" pattern="$2"; shift 2
  rm -f "$tmp/m.csv"
  "$lpx" sweep merge "$@" -o "$tmp/m.csv" >/dev/null 2>"$tmp/stderr"
  local rc=$?
  if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/stderr")" -eq 1 ] &&
     grep -qE "^lpx sweep merge: error: .*$pattern" "$tmp/stderr" && [ ! -e "$tmp/m.csv" ]; then
    ok "$name: $(cat "$tmp/stderr")"
  else
    fail "$name" "exit $rc: $(head -2 "$tmp/stderr")"
  fi
}
expect_merge_error "a missing part" "part\(s\) 2/3 of the sweep are missing" "$tmp/part1.csv" "$tmp/part3.csv"
expect_merge_error "a part twice" "both part 1/3" "$tmp/part1.csv" "$tmp/part1.csv"
expect_merge_error "a part of another sweep" "different sweep" "$tmp/part1.csv" "$tmp/s2.csv"
expect_merge_error "a plain CSV" "not written by .lpx sweep --shard." "$tmp/a.csv"
expect_error "bad shard" "expected I/N" --shard 4/3
expect_error "plot of one shard" "--plot draws the whole grid" --shard 1/2 --plot "$tmp/e.svg"

# 6. --set on compile: the program carries the modified chip.
if "$lpx" compile "$model" --nodes 2 -o "$tmp/base.lpxb" >/dev/null &&
   "$lpx" compile "$model" --nodes 2 --set link.latency=108 -o "$tmp/fast.lpxb" >/dev/null; then
  base=$(sim_cycles "$tmp/base.lpxb") || exit 1
  fast=$(sim_cycles "$tmp/fast.lpxb") || exit 1
  # The chip description is embedded as text in the program file.
  if [ -n "$base" ] && [ -n "$fast" ] && [ "$fast" -lt "$base" ] &&
     grep -qa 'modified: link.latency=108' "$tmp/fast.lpxb"; then
    ok "compile --set link.latency=108: $base -> $fast cycles, recorded in the program"
  else
    fail "compile --set" "base '$base' cycles, modified '$fast' cycles"
  fi
else
  fail "compile --set" "compile failed"
fi

# 7. chip show --set prints the modified description.
if "$lpx" chip show tsp-v1 --set sram.bytes=128MiB >"$tmp/chip.yaml" &&
   grep -q '^  bytes: *134217728$' "$tmp/chip.yaml" &&
   grep -q 'modified: sram.bytes=128MiB' "$tmp/chip.yaml"; then
  ok "chip show --set sram.bytes=128MiB"
else
  fail "chip show --set" "$(head -5 "$tmp/chip.yaml")"
fi

# 8. chip keys lists every key --set takes, with the chip's value: lpx3's
# 500 MB (its file's "500MB") and 96 links, per-op entries it does not list
# as "-"; --json is a list of objects.
if "$lpx" chip keys --chip lpx3 >"$tmp/keys.txt" &&
   grep -qE '^sram\.bytes +bytes +bytes +500000000 ' "$tmp/keys.txt" &&
   grep -qE '^link\.per_chip +integer +96 ' "$tmp/keys.txt" &&
   grep -qE '^vxm\.latencies\.add +integer +cycles +- ' "$tmp/keys.txt" &&
   "$lpx" chip keys --json >"$tmp/keys.json" &&
   grep -q '"key": "topology.rack.size"' "$tmp/keys.json"; then
  ok "chip keys: $(wc -l <"$tmp/keys.txt") keys"
else
  fail "chip keys" "$(head -5 "$tmp/keys.txt")"
fi

finish
