#!/usr/bin/env python3
"""One row of docs/decode.md's table from an `lpx decode --json` run.

Usage: decode_row.py JSON MODEL CHIP RC [SECS MIB WHY]
With SECS and MIB (tools/bench/decode.sh) the last column ends with the
run's wall time and peak memory; without them (compare-behaviour.sh) the
row holds only what lpx computed.
"""
import json
import sys

path, model, chip, rc = sys.argv[1:5]
secs, mib, why = (sys.argv[5:8] + ["", "", ""])[:3]
run = f" ({secs} s, {mib} MiB)" if secs else ""
if rc != "0":
    took = f" ({secs} s)" if secs else ""
    print(f"| {model} | {chip} | | | | | | | | | | {why or 'exit ' + rc}{took} |")
    sys.exit(0)
r = json.load(open(path))
s = r["sram_bytes_per_chip"]
mesh = f" ({r['tp']} x {r['pp']})" if r["tp"] else ""
print(f"| {model} | {chip} | {r['chips']}{mesh} | {r['context']} | {r['prompt']} "
      f"| {r['ttft_compute_us']:.1f} + {r['ttft_host_io_us']:.1f} "
      f"| {r['tpot_compute_us']:.1f} + {r['tpot_host_io_us']:.1f} "
      f"| {r['tokens_per_second_per_user']:.1f} | {r['physical_bound_us']:.2f} "
      f"| {r['efficiency']:.4f} | {s['weights'] / 1e6:.0f} / {s['kv_cache'] / 1e6:.0f} / "
      f"{s['activations'] / 1e6:.0f} | {r['bottleneck']}{run} |")
