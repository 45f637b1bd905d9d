#!/usr/bin/env python3
"""`lpx simulate --trace`: the file is Chrome trace-event JSON with the
format's required fields, and its slices are the simulation's: one per
instruction, per-track busy time equal to the simulator's per-queue busy
cycles, the last completion equal to total_cycles. A program with a hazard
marks it on its slice (made with `lpx perturb`). Bad output paths and bad
perturb requests are one-line errors with no file. About 1 s.

usage: trace_test.py LPX"""
import json
import os
import subprocess
import sys
import tempfile

LPX = sys.argv[1]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODEL = os.path.join(ROOT, "models", "llama_step", "model.onnx")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def lpx(*args, expect=0):
    p = subprocess.run([LPX, *args], capture_output=True, text=True)
    if p.returncode != expect:
        sys.exit(f"lpx {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


# Required fields by phase (the Trace Event Format document): every event has
# ph, pid and name; X has tid, ts, dur; C has ts and numeric args; flow
# events have tid, ts, id and cat; M has args.
REQUIRED = {"X": ["tid", "ts", "dur"], "C": ["ts", "args"],
            "s": ["tid", "ts", "id", "cat"], "f": ["tid", "ts", "id", "cat"],
            "M": ["args"]}


def validate(trace):
    events = trace.get("traceEvents")
    check(isinstance(events, list) and events, "traceEvents is a non-empty list")
    bad = [e for e in events
           if not all(k in e for k in ["ph", "pid", "name"] + REQUIRED.get(e.get("ph"), ["?"]))]
    check(not bad, f"every event has the fields its phase requires ({len(bad)} do not)")
    bad = [e for e in events if e["ph"] in "XCsf" and
           not (isinstance(e["ts"], (int, float)) and e["ts"] >= 0)]
    check(not bad, "timestamps are non-negative numbers")
    bad = [e for e in events if e["ph"] == "X" and not e["dur"] > 0]
    check(not bad, "every slice has a positive duration")
    bad = [e for e in events if e["ph"] == "C" and
           not all(isinstance(v, (int, float)) for v in e["args"].values())]
    check(not bad, "counter values are numbers")
    return events


def against_simulation(events, sim, clock_mhz):
    slices = [e for e in events if e["ph"] == "X"]
    check(len(slices) == sim["instructions"],
          f"{len(slices)} slices for {sim['instructions']} instructions")
    check(sorted(s["args"]["instruction"] for s in slices) == list(range(sim["instructions"])),
          "one slice per instruction index")
    done = max(s["args"]["done_cycle"] for s in slices)
    check(done == sim["total_cycles"], f"last completion {done} = total_cycles {sim['total_cycles']}")
    off = [s for s in slices if abs(s["ts"] * clock_mhz - s["args"]["issue_cycle"]) > 1e-6
           or abs(s["dur"] * clock_mhz - s["args"]["busy_cycles"]) > 1e-6]
    check(not off, "ts and dur are the issue and busy cycles at the chip clock")

    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
             if e["ph"] == "M" and e["name"] == "thread_name"}
    busy = {}
    for s in slices:
        key = (s["pid"], names.get((s["pid"], s["tid"])))
        busy[key] = busy.get(key, 0) + s["args"]["busy_cycles"]
    queues = {(q["node"], q["queue"]): q["busy_cycles"] for q in sim["queues"]}
    used = {k: v for k, v in queues.items() if v}
    check(busy == used, f"busy cycles per track = the simulator's per queue ({len(used)} queues)")
    processes = {e["pid"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
    check(processes == set(range(sim["nodes"])), f"one process per chip ({len(processes)})")

    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    ends = {e["id"]: e for e in events if e["ph"] == "f"}
    sends = [s for s in slices if s["args"]["op"] == "send"]
    check(starts.keys() == ends.keys() and len(starts) >= len(sends) > 0,
          f"{len(starts)} flow arrows, each with both ends, for {len(sends)} sends")
    late = [i for i in starts if ends[i]["ts"] < starts[i]["ts"]]
    check(not late, "every arrow ends after it starts")

    counters = [e for e in events if e["ph"] == "C"]
    for node in range(sim["nodes"]):
        series = [c["args"]["bytes"] for c in counters if c["pid"] == node]
        check(series and max(series) > 0 and series[-1] == 0,
              f"chip {node}: SRAM in use rises above 0 and is released at the end")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "l2.lpxb")
        lpx("compile", MODEL, "--nodes", "2", "-o", prog)
        sim = json.loads(lpx("simulate", "--json", prog).stdout)
        trace_path = os.path.join(tmp, "l2.json")
        lpx("simulate", prog, "--trace", trace_path)
        with open(trace_path) as f:
            trace = json.load(f)
        events = validate(trace)
        check(trace["otherData"]["total_cycles"] == sim["total_cycles"], "otherData names the run")
        against_simulation(events, sim, sim["clock_mhz"])

        # A hazard shows on its slice: move one instruction a cycle early.
        early = os.path.join(tmp, "early.lpxb")
        lpx("perturb", prog, "--early", "1", "-o", early)  # issued when its operand completes
        lpx("simulate", early, "--trace", trace_path, expect=1)
        with open(trace_path) as f:
            marked = [e for e in json.load(f)["traceEvents"]
                      if e["ph"] == "X" and e["args"]["hazards"] > 0]
        check(len(marked) >= 1, f"{len(marked)} slice(s) carry the hazard")

        # An unwritable path: exit 2, one line, nothing written.
        bad = os.path.join(tmp, "no-such-dir", "t.json")
        p = lpx("simulate", prog, "--trace", bad, expect=2)
        check(p.stderr.count("\n") == 1 and "cannot write" in p.stderr and not os.path.exists(bad),
              "unwritable --trace: " + p.stderr.strip())

        # perturb: an instruction that does not exist or cannot move is a
        # one-line error and writes nothing.
        out = os.path.join(tmp, "moved.lpxb")
        for args, want in [(["--early", "100000"], "does not exist"),
                           (["--early", "0", "--by", "100000"], "cannot move")]:
            p = lpx("perturb", prog, *args, "-o", out, expect=2)
            check(p.stderr.count("\n") == 1 and want in p.stderr and not os.path.exists(out),
                  "perturb " + " ".join(args) + ": " + p.stderr.strip())
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
