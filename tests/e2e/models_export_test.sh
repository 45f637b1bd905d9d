#!/usr/bin/env bash
# `lpx models export`: the files pass onnx.checker (full check) and have the
# interface of an optimum export; shape-only weights carry the documented
# marker; exports are deterministic; tiny models compile and simulate; bad
# options get one line, exit 2 and no file. About 5 s.
source "$(dirname "$0")/common.sh" "$1"
python=/usr/bin/python3

# export NAME FILE [options]: exit 0 expected.
export_ok() {
  local name="$1" file="$2"; shift 2
  if "$lpx" models export "$name" -o "$file" "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
    ok "export $name $*"
  else
    fail "export $name $*: $(head -1 "$tmp/stderr")"
  fi
}

export_ok tiny-llama "$tmp/tiny-llama.onnx"
export_ok tiny-gpt2 "$tmp/tiny-gpt2.onnx" --context 32 --batch 2
export_ok tiny-mixtral "$tmp/tiny-mixtral.onnx"
mkdir -p "$tmp/so"
export_ok llama2-70b "$tmp/so/llama2-70b.onnx" --shape-only --layers 2
export_ok llama3-8b "$tmp/so/llama3-8b.onnx" --shape-only --layers 1 --context 8192
export_ok mixtral-8x7b "$tmp/so/mixtral.onnx" --shape-only --layers 1
export_ok gpt2-xl "$tmp/so/gpt2-xl.onnx" --shape-only --layers 2 --batch 4
export_ok llama2-7b "$tmp/so/llama2-7b-full.onnx" --shape-only
# Prefill (the whole prompt, no past) and a chunk of 8 tokens after 24 past.
export_ok tiny-llama "$tmp/prefill-llama.onnx" --prompt 16 --context 16
export_ok tiny-gpt2 "$tmp/chunk-gpt2.onnx" --prompt 8 --context 32 --batch 2
export_ok tiny-mixtral "$tmp/prefill-mixtral.onnx" --prompt 16 --context 16

# Deterministic: a second export is byte-identical.
if "$lpx" models export tiny-llama -o "$tmp/again.onnx" >/dev/null 2>&1 &&
   cmp -s "$tmp/tiny-llama.onnx" "$tmp/again.onnx"; then ok "deterministic"; else fail "deterministic"; fi

# onnx.checker stats every external-data location: a shape-only export puts
# an empty file of the marker's name beside the model.
if [ -f "$tmp/so/lpx-shape-only" ] && [ ! -s "$tmp/so/lpx-shape-only" ]; then
  ok "empty marker file beside shape-only models"
else
  fail "no empty marker file beside shape-only models"
fi
if $python "$root/tests/e2e/check_exported_model.py" \
    "$tmp/tiny-llama.onnx:llama:1:64" "$tmp/tiny-gpt2.onnx:gpt2:2:32" \
    "$tmp/tiny-mixtral.onnx:mixtral:1:64" \
    "$tmp/so/llama2-70b.onnx:llama:1:4096" "$tmp/so/llama3-8b.onnx:llama:1:8192" \
    "$tmp/so/mixtral.onnx:mixtral:1:4096" "$tmp/so/gpt2-xl.onnx:gpt2:4:1024" \
    "$tmp/so/llama2-7b-full.onnx:llama:1:4096" \
    "$tmp/prefill-llama.onnx:llama:1:16:16" "$tmp/chunk-gpt2.onnx:gpt2:2:32:8" \
    "$tmp/prefill-mixtral.onnx:mixtral:1:16:16"; then
  ok "onnx.checker full check, interface, marker"
else
  fail "onnx.checker full check, interface, marker"
fi

# The tiny models compile and simulate (the runtime runs them in the decode tests).
for m in tiny-llama tiny-gpt2 tiny-mixtral; do
  if "$lpx" compile "$tmp/$m.onnx" -o "$tmp/$m.lpxb" --nodes 2 >/dev/null 2>"$tmp/stderr" &&
     "$lpx" simulate "$tmp/$m.lpxb" >"$tmp/sim" 2>>"$tmp/stderr" &&
     grep -q "hazards: *none" "$tmp/sim"; then
    ok "$m compiles and simulates on 2 chips"
  else
    fail "$m compiles and simulates: $(head -1 "$tmp/stderr")"
  fi
done

# expect_error NAME PATTERN -- args: exit 2, one line matching, no file.
expect_error() {
  local name="$1" pattern="$2"; shift 3
  rm -f "$tmp/bad.onnx"
  "$lpx" models export "$@" >"$tmp/stdout" 2>"$tmp/stderr"
  local rc=$? lines
  lines=$(wc -l <"$tmp/stderr")
  if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -qE -- "$pattern" "$tmp/stderr"; then
    fail "$name: exit $rc, $lines lines: $(head -2 "$tmp/stderr")"
  elif ls "$tmp" | grep -q "bad.onnx"; then
    fail "$name: left a file behind"
  else
    ok "$name: $(cat "$tmp/stderr")"
  fi
}
expect_error "unknown preset" "unknown model preset 'llama9-1t'" -- llama9-1t -o "$tmp/bad.onnx"
expect_error "zero layers" "--layers '0'" -- tiny-llama -o "$tmp/bad.onnx" --layers 0
expect_error "negative layers" "--layers -3 is not between 1 and 2" -- tiny-llama -o "$tmp/bad.onnx" --layers=-3
expect_error "too many layers" "--layers 81 is not between 1 and 80" -- llama2-70b -o "$tmp/bad.onnx" --layers 81
expect_error "layers not a number" "--layers 'two'" -- tiny-llama -o "$tmp/bad.onnx" --layers two
expect_error "context past int64" "--context '99999999999999999999999'" -- tiny-llama -o "$tmp/bad.onnx" --context 99999999999999999999999
expect_error "context past the model's" "--context 5000 is not between 2 .* and 4096" -- llama2-7b -o "$tmp/bad.onnx" --context 5000 --shape-only
expect_error "context 1" "--context 1 is not between 2" -- tiny-llama -o "$tmp/bad.onnx" --context 1
expect_error "batch overflow" "--batch 9223372036854775807 is not between 1 and 65536" -- tiny-llama -o "$tmp/bad.onnx" --batch 9223372036854775807
expect_error "zero batch" "--batch '0'" -- tiny-llama -o "$tmp/bad.onnx" --batch 0
expect_error "zero prompt" "--prompt '0'" -- tiny-llama -o "$tmp/bad.onnx" --prompt 0
expect_error "context below the prompt" "--context 8 is not between --prompt 16 and 256" -- tiny-llama -o "$tmp/bad.onnx" --prompt 16 --context 8
expect_error "a device as output" "not a regular file" -- tiny-llama -o /dev/null
expect_error "empty output name" "output file name is empty" -- tiny-llama -o ""
expect_error "missing folder" "folder '.*/missing' does not exist" -- tiny-llama -o "$tmp/missing/bad.onnx"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
