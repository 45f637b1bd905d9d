# The presets and shapes of docs/decode.md's table; sourced by decode.sh and
# compare-behaviour.sh so that both measure the same rows.

# table_presets LPX: every preset, one a line.
table_presets() { "$1" models list | awk 'NR > 1 {print $1}'; }

# table_shape LPX MODEL: sets `context` (2048, or the preset's length when
# shorter) and `prompt` (128; 16 for the tiny presets).
table_shape() {
  local maxctx
  read -r maxctx < <("$1" models list | awk -v m="$2" '$1 == m {print $10}')
  context=$(( maxctx < 2048 ? maxctx : 2048 ))
  prompt=128
  case "$2" in tiny-*) prompt=16 ;; esac
}
