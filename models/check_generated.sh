#!/bin/sh
# Proves that the committed built-in models come from models/generate.py and
# that their committed expected outputs still match a numpy evaluation.
#
#   models/check_generated.sh            (PYTHON=... to override /usr/bin/python3)
#
# 1. regenerates every model into a temporary directory (the committed
#    output_<i>.pb files are copied there first so that generate.py --strict can
#    cross-check them against its numpy reference, tolerance 1e-4);
# 2. requires model.onnx and every input_<i>.pb to be byte-identical to the
#    committed files, and the set of models and input files to be the same.
# Exits non-zero with a message naming the first problem found.
set -u

PYTHON=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lpx-models.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

fail() {
  echo "check_generated: FAIL: $*" >&2
  echo "check_generated: regenerate with '$PYTHON models/generate.py' and refresh the expected" >&2
  echo "check_generated: outputs with 'node models/reference/expected.mjs models/<name>' (see models/README.md)" >&2
  exit 1
}

# Copy committed expected outputs so the generator's numpy cross-check sees them.
for d in "$here"/*/test_data_set_0; do
  [ -d "$d" ] || continue
  name=$(basename "$(dirname "$d")")
  mkdir -p "$tmp/$name/test_data_set_0"
  for f in "$d"/output_*.pb; do
    [ -f "$f" ] && cp "$f" "$tmp/$name/test_data_set_0/"
  done
done

if ! "$PYTHON" "$here/generate.py" --out "$tmp" --strict; then
  fail "generate.py failed or the committed expected outputs disagree with the numpy reference"
fi

# Same set of models.
for m in "$tmp"/*/model.onnx; do
  name=$(basename "$(dirname "$m")")
  [ -f "$here/$name/model.onnx" ] || fail "model '$name' is generated but models/$name/model.onnx is not committed"
done
for m in "$here"/*/model.onnx; do
  [ -f "$m" ] || continue
  name=$(basename "$(dirname "$m")")
  [ -f "$tmp/$name/model.onnx" ] || fail "models/$name/model.onnx is committed but generate.py does not produce it"
done

# Byte-identical model and inputs; same set of input files.
for m in "$tmp"/*/model.onnx; do
  name=$(basename "$(dirname "$m")")
  cmp -s "$m" "$here/$name/model.onnx" || fail "models/$name/model.onnx differs from the generator's output"
  for f in "$tmp/$name"/test_data_set_0/input_*.pb; do
    base=$(basename "$f")
    [ -f "$here/$name/test_data_set_0/$base" ] || fail "models/$name/test_data_set_0/$base is missing"
    cmp -s "$f" "$here/$name/test_data_set_0/$base" || fail "models/$name/test_data_set_0/$base differs from the generator's output"
  done
  for f in "$here/$name"/test_data_set_0/input_*.pb; do
    base=$(basename "$f")
    [ -f "$tmp/$name/test_data_set_0/$base" ] || fail "models/$name/test_data_set_0/$base is committed but not generated"
  done
  echo "check_generated: $name: model.onnx and inputs identical, expected outputs match numpy"
done
echo "check_generated: OK"
