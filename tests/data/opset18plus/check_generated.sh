#!/bin/sh
# The committed models and inputs are generate.py's: regenerated into a
# temporary folder, every model.onnx and input_N.pb is byte-identical and
# every test has its onnxruntime output_N.pb committed. The folder checked is
# this one, or the one given (tests/data/ifconversion), with its generate.py.
set -u
here=$(cd "${1:-$(dirname "$0")}" && pwd) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lpx-opset18plus.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
/usr/bin/python3 "$here/generate.py" "$tmp" || exit 1
status=0
for d in "$tmp"/*/; do
  name=$(basename "$d")
  for f in model.onnx test_data_set_0/input_*.pb; do
    for g in "$d"$f; do
      rel=${g#"$d"}
      cmp -s "$g" "$here/$name/$rel" || { echo "FAIL $name/$rel differs from generate.py's"; status=1; }
    done
  done
  ls "$here/$name/test_data_set_0"/output_*.pb >/dev/null 2>&1 ||
    { echo "FAIL $name has no expected outputs (run models/reference/expected.mjs)"; status=1; }
done
[ "$(ls "$tmp" | wc -l)" = "$(ls -d "$here"/*/ | wc -l)" ] ||
  { echo "FAIL the committed tests are not the generated set"; status=1; }
[ $status -eq 0 ] && echo "$(ls "$tmp" | wc -l) tests as generated"
exit $status
