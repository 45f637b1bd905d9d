#!/usr/bin/env bash
# Number formats: the MLP compiled with fp16 and with fp8 weights still
# matches onnxruntime's float32 outputs within the formats' precision, and
# the narrower formats take fewer simulated cycles (weights load faster).
set -uo pipefail
lpx="$1"
root="$(cd "$(dirname "$0")/../.." && pwd)"
model="$root/models/mlp"
check() { if eval "$2"; then echo "ok   $1"; passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }
source "$root/tests/e2e/testlib.sh"

"$lpx" compile "$model/model.onnx" -o "$tmp/f32.lpxb" >/dev/null || die "compile f32"
"$lpx" compile "$model/model.onnx" --weights fp16 --activations fp16 -o "$tmp/f16.lpxb" >/dev/null || die "compile fp16"
"$lpx" compile "$model/model.onnx" --weights fp8e4m3 --activations fp16 -o "$tmp/f8.lpxb" >/dev/null || die "compile fp8"
"$lpx" compile "$model/model.onnx" --weights int8 --activations fp16 --nodes 2 -o "$tmp/i8.lpxb" >/dev/null || die "compile int8"
c32=$(sim_cycles "$tmp/f32.lpxb") || exit 1
c16=$(sim_cycles "$tmp/f16.lpxb") || exit 1
c8=$(sim_cycles "$tmp/f8.lpxb") || exit 1
sim_cycles "$tmp/i8.lpxb" >/dev/null || exit 1
echo "cycles: f32 $c32, fp16 $c16, fp8 weights $c8"
# fp16 keeps 11 significant bits: about 1e-3 relative per value.
check "fp16 matches within 1e-2" \
  "'$lpx' run '$tmp/f16.lpxb' --data '$model/test_data_set_0' --rtol 1e-2 --atol 3e-3 >/dev/null"
# e4m3 keeps 4 significant bits: weights move by up to 1/16 of their size.
check "fp8 weights match within 0.15" \
  "'$lpx' run '$tmp/f8.lpxb' --data '$model/test_data_set_0' --rtol 0.15 --atol 0.1 >/dev/null"
check "fp8 weights are not exact (the conversion happened)" \
  "! '$lpx' run '$tmp/f8.lpxb' --data '$model/test_data_set_0' --tolerance-of fp32 >/dev/null"
# Unless told otherwise, lpx run compares with the tolerances of the formats
# the program was compiled with (recorded in it) and says so: the fp16 MLP
# against onnxruntime's float32 outputs passes with fp16's rtol 4 eps =
# 2^-8, atol eps = 2^-10, where fp32's 1e-3 / 1e-7 would fail it.
"$lpx" run "$tmp/f16.lpxb" --data "$model/test_data_set_0" >"$tmp/run16" 2>&1
rc=$?
check "fp16 program passes with the fp16 tolerance it records" \
  "[ $rc -eq 0 ] && grep -q '^tolerance: fp16 (rtol 0.00390625, atol 0.0009765625) for floating-point outputs, the program.s formats: weights fp16, activations fp16$' '$tmp/run16'"
check "fp16 program fails at the fp32 tolerance (the default changed something)" \
  "! '$lpx' run '$tmp/f16.lpxb' --data '$model/test_data_set_0' --tolerance-of fp32 >/dev/null"
# fp8 weights with fp16 activations: the coarser format, e4m3, is named.
"$lpx" run "$tmp/f8.lpxb" --data "$model/test_data_set_0" >"$tmp/run8" 2>&1
check "fp8-weight program names the fp8e4m3 tolerance" \
  "grep -q '^tolerance: fp8e4m3 (rtol 0.125, atol 0.015625) for floating-point outputs, the program.s formats: weights fp8e4m3, activations fp16$' '$tmp/run8'"
"$lpx" run "$tmp/f32.lpxb" --data "$model/test_data_set_0" >"$tmp/run32" 2>&1
check "a program with the model's own formats says so" \
  "grep -q \"^tolerance: each output's own type (the program keeps the model's formats)$\" '$tmp/run32'"
# int8 with one scale per tensor: each weight moves by at most s/2 = max|w|/254.
check "int8 weights (2 chips) match within 0.05" \
  "'$lpx' run '$tmp/i8.lpxb' --data '$model/test_data_set_0' --rtol 0.05 --atol 0.02 >/dev/null"
check "fp16 takes fewer cycles than f32" "[ '$c16' -lt '$c32' ]"
check "fp8 weights take fewer cycles than fp16" "[ '$c8' -lt '$c16' ]"
"$lpx" compile "$model/model.onnx" --weights fp12 -o "$tmp/x.lpxb" 2>"$tmp/err"
rc=$?
check "unknown format is a clear error" \
  "[ $rc -eq 2 ] && grep -q 'unknown number format .fp12.' '$tmp/err' && [ ! -e '$tmp/x.lpxb' ]"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
