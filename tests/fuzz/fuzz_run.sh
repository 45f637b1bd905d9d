#!/usr/bin/env bash
# One bounded libFuzzer run: replays the committed regression inputs of the
# target, builds its seed corpus, then fuzzes RUNS inputs with a fixed seed,
# so CI repeats the same run and cannot fail on a crash found by chance.
# With LPX_FUZZ_SECONDS set it fuzzes that long from a random seed instead:
# the long run that looks for new crashes (docs/reliability.md).
# LPX_FUZZ_FLAGS adds libFuzzer flags, e.g. "-fork=1 -ignore_crashes=1" so
# a long run goes on after a crash and reports every one it finds.
# Usage: fuzz_run.sh import|program|chip|coverage|trace FUZZER LPX RUNS
# Crash inputs land in $LPX_FUZZ_ARTIFACTS (default ./fuzz-artifacts/TARGET).
set -euo pipefail
target=$1 fuzzer=$2 lpx=$3 runs=$4
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
node=/usr/share/libonnx-testdata/data/node
artifacts="${LPX_FUZZ_ARTIFACTS:-$PWD/fuzz-artifacts}/$target"
mkdir -p "$artifacts"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/seeds" "$work/corpus"

# Every crash found so far, replayed once (fails on any sanitizer report).
if compgen -G "$here/regressions/$target/*" >/dev/null; then
  "$fuzzer" -runs=0 "$here"/regressions/"$target"/*
fi

# Every STRIDE-th node-test model, the built-in models and seeds/onnx.
onnx_seeds() {
  local stride=$1 i=0 d
  for d in "$node"/*/; do
    if (( i++ % stride == 0 )); then
      cp "$d/model.onnx" "$work/seeds/$(basename "$d").onnx"
    fi
  done
  for d in "$root"/models/*/; do
    [ -f "$d/model.onnx" ] && cp "$d/model.onnx" "$work/seeds/$(basename "$d").onnx"
  done
  # Models of opsets 18 to 23 (the node tests stop at 17).
  cp "$here"/seeds/onnx/*.onnx "$work/seeds/"
  return 0
}

case $target in
  import) onnx_seeds 1 ;;
  coverage) onnx_seeds 8 ;;
  chip)
    cp "$root"/isa/chips/*.yaml "$here"/seeds/chip/* "$work/seeds/" ;;
  trace)
    # Traces of every format, specs, and a service table (lpx-serve-bench table).
    cp "$here"/seeds/trace/* "$work/seeds/" ;;
  program)
    # Payloads (the file minus its 16-byte header) of real programs.
    for m in mlp llama_step; do
      for n in 1 2; do
        "$lpx" compile "$root/models/$m/model.onnx" --nodes $n -o "$work/p.lpxb"
        tail -c +17 "$work/p.lpxb" > "$work/seeds/$m-$n"
      done
    done
    for t in test_add test_matmul_2d test_softmax_axis_1 test_gather_0 test_conv_with_strides_padding; do
      "$lpx" compile "$node/$t/model.onnx" --nodes 2 -o "$work/p.lpxb"
      tail -c +17 "$work/p.lpxb" > "$work/seeds/$t"
    done ;;
  *) echo "fuzz_run.sh: unknown target '$target'" >&2; exit 2 ;;
esac

if [ -n "${LPX_FUZZ_SECONDS:-}" ]; then
  budget=(-max_total_time="$LPX_FUZZ_SECONDS")
else
  budget=(-runs="$runs" -seed=1)
fi
read -ra extra <<<"${LPX_FUZZ_FLAGS:-}"
"$fuzzer" "${budget[@]}" -timeout=30 -rss_limit_mb=3072 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${extra[@]}" \
  "$work/corpus" "$work/seeds"
