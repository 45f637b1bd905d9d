#!/usr/bin/env bash
# Runs endpoint_clients.mjs (LPX MODE) with node; skipped (77) without node.
command -v node >/dev/null || { echo "no node"; exit 77; }
exec node "$(dirname "$0")/endpoint_clients.mjs" "$@"
