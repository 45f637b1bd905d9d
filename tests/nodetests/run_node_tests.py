#!/usr/bin/python3
"""Runs ONNX backend node tests end to end through lpx and checks the outcome
of each against an explicit expectation list.

For every listed test: compile for each node count (--nodes), simulate (no
hazards allowed), run every test_data_set_* on the CPU runtime and compare
with the expected outputs shipped with the test. A test passes only if all of
that succeeds. The run fails when any test's outcome differs from the list,
in either direction, so the list always tells the truth.

Usage: run_node_tests.py --lpx build/bin/lpx [--expect FILE] [--jobs 2]

--dir runs another folder of tests in the same layout (tests/data/opset18plus,
with expectations_opset18plus.txt) instead of ONNX's node tests.

With --activations FMT (fp16, bf16, ...) it runs again every test the list
says passes in fp32 and whose inputs or outputs hold floats, compiled with --activations FMT and compared with the
tolerances of that format (`lpx run --tolerance-of FMT`, whose one table is
rt::defaultTolerance in runtime/lib/Compare.cpp). The tests that do not pass
in FMT are listed with their reasons in --format-expect (only failures are
listed there; every other test must pass).
"""
import argparse
import json
import concurrent.futures
import os
import subprocess
import sys
import tempfile

import onnx

NODE_DIR = "/usr/share/libonnx-testdata/data/node"

# Operands the compiler needs as constants (shapes, axes, slice bounds,
# an If's condition), by op type. The node tests give them as graph inputs;
# they are folded in with --const-input from the test's own data, as
# onnx-mlir's "constant inputs" variant does. The importer's unit test reads
# the same file. An operand computed from graph inputs by the arithmetic
# ops listed under "$through" (a function expansion's Cast / Sub / Div of a
# size, say) needs those inputs folded instead; the importer then folds the
# arithmetic.
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "const_operands.json")) as _f:
    CONST_OPERANDS = json.load(_f)
THROUGH = set(CONST_OPERANDS.pop("$through", []))


def read_expectations(path):
    expect = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if parts[1] not in ("pass", "fail"):
                sys.exit(f"{path}:{lineno}: expected 'pass' or 'fail'")
            expect[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return expect


def read_tolerances(path):
    """test -> ["--rtol", r, "--atol", a] from tolerances.txt; every entry
    must give its reason after '#'."""
    tol = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            body, _, reason = line.partition("#")
            parts = body.split()
            if not parts:
                continue
            if not reason.strip():
                sys.exit(f"{path}:{lineno}: a loosened tolerance needs its reason")
            args = []
            for p in parts[1:]:
                key, _, value = p.partition("=")
                if key not in ("rtol", "atol"):
                    sys.exit(f"{path}:{lineno}: expected rtol=... atol=...")
                args += [f"--{key}", value]
            tol[parts[0]] = args
    return tol


# A process that died from a signal or a sanitizer report is a crash: a
# surprise whatever the expectation list says about the test.
def crashed(rc, out):
    return rc < 0 or rc > 2 or any("Sanitizer" in l or "runtime error:" in l
                                   for l in out)


def const_inputs(test_dir):
    model = onnx.load(os.path.join(test_dir, "model.onnx"), load_external_data=False)
    names = [i.name for i in model.graph.input]
    # A test_X_expanded model is test_X's op written as its function body,
    # with the same graph inputs: it pins the inputs test_X pins (Range's
    # expansion computes its Loop's trip count from them).
    models = [model]
    sibling = test_dir[:-len("_expanded")] if test_dir.endswith("_expanded") else None
    if sibling and os.path.exists(os.path.join(sibling, "model.onnx")):
        models.append(onnx.load(os.path.join(sibling, "model.onnx"),
                                load_external_data=False))
    wanted = set()
    for m in models:
        # Required constants, traced back through scalar arithmetic
        # (THROUGH) to the graph inputs they come from.
        producer = {out: node for node in m.graph.node for out in node.output}
        needed = [node.input[idx] for node in m.graph.node
                  for idx in CONST_OPERANDS.get(node.op_type, [])
                  if idx < len(node.input) and node.input[idx]]
        seen = set()
        while needed:
            name = needed.pop()
            if name in seen:
                continue
            seen.add(name)
            p = producer.get(name)
            if p is not None and p.op_type in THROUGH:
                needed.extend(i for i in p.input if i)
        wanted |= {n for n in seen if n in names}
    data = os.path.join(test_dir, "test_data_set_0")
    return [f"{n}={os.path.join(data, f'input_{names.index(n)}.pb')}"
            for n in sorted(wanted)]


# One-line reasons for the expectation list, most specific first: (pattern
# in the raw message, reason; "{0}" is the pattern's first group).
REASONS = [
    (r"op type '(\w+)' is not supported", "op {0} not supported"),
    (r"element type STRING|STRING is not supported", "string tensors"),
    (r"is not a tensor \(sequences", "sequence or optional types"),
    (r"\((\w+)\): data-dependent shape: ", "data-dependent shape ({0})"),
    (r"\((\w+)\): data-dependent control flow: ", "data-dependent control flow ({0})"),
    (r"imports no opset of the default ONNX domain",
     "training op (ai.onnx.preview.training domain)"),
    (r"training mode draws random numbers", "random generator (training-mode Dropout)"),
    (r"training mode \(running statistics\)", "training op (BatchNormalization training mode)"),
    (r"input '(\w+)' is \S+\[1\], the program expects",
     "test data inconsistent: input '{0}' is given as [1], the model declares another shape"),
    (r"\((\w+)\): input \d+ must be a compile-time constant",
     "{0} needs constant inputs computed at run time"),
]


def summarize(reason):
    """The expectation-list form of a failure: a short classified reason,
    or the raw message without paths and node names."""
    import re
    for pattern, text in REASONS:
        m = re.search(pattern, reason)
        if m:
            return text.format(*m.groups())
    reason = re.sub(r"lpx \w+: error: ", "", reason)
    reason = re.sub(r"\S*/model\.onnx: ", "", reason)
    return re.sub(r"node '[^']*' ", "node ", reason)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return p.returncode, (p.stderr.strip() or p.stdout.strip()).splitlines()


def has_float_values(name):
    """Whether a test's graph inputs or outputs hold floating-point values
    (the only ones --activations changes)."""
    model = onnx.load(os.path.join(NODE_DIR, name, "model.onnx"), load_external_data=False)
    floats = {onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16,
              onnx.TensorProto.DOUBLE, onnx.TensorProto.BFLOAT16}
    return any(v.type.tensor_type.elem_type in floats
               for v in list(model.graph.input) + list(model.graph.output))


def check_test(lpx, name, node_counts, tolerance, activations=None):
    """Returns (passed, reason); a reason starting "CRASH" is a crash.
    `tolerance`: this test's --rtol/--atol from tolerances.txt (fp32 run)."""
    test_dir = os.path.join(NODE_DIR, name)
    try:
        consts = const_inputs(test_dir)
    except Exception as e:  # a model the onnx package cannot read
        return False, f"onnx cannot load the model: {e}"
    data_sets = sorted(d for d in os.listdir(test_dir) if d.startswith("test_data_set_"))
    with tempfile.TemporaryDirectory() as tmp:
        for nodes in node_counts:
            prog = os.path.join(tmp, f"n{nodes}.lpxb")
            cmd = [lpx, "compile", os.path.join(test_dir, "model.onnx"),
                   "--nodes", str(nodes), "-o", prog]
            for c in consts:
                cmd += ["--const-input", c]
            if activations:
                cmd += ["--activations", activations]
            rc, out = run(cmd)
            if crashed(rc, out):
                return False, f"CRASH compile ({nodes} nodes, exit {rc}): {' '.join(out[:3])}"
            if rc != 0:
                return False, f"compile ({nodes} nodes): {out[0] if out else rc}"
            rc, out = run([lpx, "simulate", prog])
            if crashed(rc, out):
                return False, f"CRASH simulate ({nodes} nodes, exit {rc}): {' '.join(out[:3])}"
            if rc != 0:
                return False, f"simulate ({nodes} nodes): " + next(
                    (l for l in out if "hazard" in l or "error" in l), str(rc))
            for ds in data_sets:
                tol = ["--tolerance-of", activations] if activations else tolerance
                rc, out = run([lpx, "run", prog, "--data", os.path.join(test_dir, ds)] + tol)
                if crashed(rc, out):
                    return False, f"CRASH run ({nodes} nodes, exit {rc}): {' '.join(out[:3])}"
                if rc != 0:
                    bad = [l for l in out if "MISMATCH" in l or "error" in l]
                    return False, f"run ({nodes} nodes, {ds}): {(bad or out or [rc])[0]}"
    return True, ""


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lpx", required=True)
    ap.add_argument("--expect", default=os.path.join(here, "expectations.txt"))
    ap.add_argument("--nodes", default="1,4")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--tolerances", default=os.path.join(here, "tolerances.txt"))
    ap.add_argument("--only", help="run only tests whose name contains this")
    ap.add_argument("--sample", type=int, default=1,
                    help="run every N-th test of the list (the sanitizer build)")
    ap.add_argument("--write-expectations", action="store_true",
                    help="rewrite the list from this run's outcomes (review the diff!)")
    ap.add_argument("--activations", help="number format to compile the fp32-passing tests in")
    ap.add_argument("--format-expect", help="with --activations: the tests that fail in it")
    ap.add_argument("--dir", help="the folder of tests (default: ONNX's node tests)")
    args = ap.parse_args()
    if args.dir:
        global NODE_DIR
        NODE_DIR = os.path.abspath(args.dir)
    if not os.path.isdir(NODE_DIR):
        sys.exit(f"{NODE_DIR} is missing: install libonnx-testdata")

    expect = read_expectations(args.expect)
    tolerances = read_tolerances(args.tolerances)
    unknown = sorted(set(tolerances) - set(expect))
    if unknown:
        sys.exit(f"{args.tolerances}: not in the expectation list: {', '.join(unknown)}")
    out_file = args.expect
    if args.activations:
        if not args.format_expect:
            sys.exit("--activations needs --format-expect")
        known = (read_expectations(args.format_expect)
                 if os.path.exists(args.format_expect) else {})
        expect = {n: known.get(n, ("pass", "")) for n, (want, _) in expect.items()
                  if want == "pass" and has_float_values(n)}
        out_file = args.format_expect
    names = sorted(n for n in expect if not args.only or args.only in n)
    names = names[::args.sample]
    node_counts = [int(n) for n in args.nodes.split(",")]
    results = {}
    tty = sys.stdout.isatty()
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = {pool.submit(check_test, args.lpx, n, node_counts,
                               tolerances.get(n, []), args.activations): n
                   for n in names}
        for done, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            name = futures[fut]
            results[name] = fut.result()
            if tty:
                print(f"\r[{done}/{len(names)}] {name[:60]:<60}", end="", flush=True)
    if tty:
        print()

    passed = sum(1 for ok, _ in results.values() if ok)
    failed = len(results) - passed
    surprises = []
    for name in names:
        ok, reason = results[name]
        want = expect[name][0]
        if reason.startswith("CRASH"):
            surprises.append(f"  {name}: {reason}")
        elif (want == "pass") != ok:
            surprises.append(f"  {name}: expected {want}, got "
                             f"{'pass' if ok else 'fail: ' + reason}")
    if args.write_expectations:
        with open(out_file, "w") as f:
            if args.activations:
                f.write(f"# Node tests that pass in fp32 but not with --activations "
                        f"{args.activations} (run_node_tests.py --activations): "
                        f"<test> fail <reason>\n")
            else:
                f.write("# ONNX backend node tests run by run_node_tests.py: "
                        "<test> pass|fail [reason]\n")
            for name in names:
                ok, reason = results[name]
                if ok and not args.activations:
                    f.write(f"{name} pass\n")
                elif not ok:
                    f.write(f"{name} fail {summarize(reason)}\n")
    for name in names:
        ok, reason = results[name]
        if not ok and expect[name][0] == "fail":
            print(f"known failure {name}: {reason}")
    if surprises:
        print("outcomes that differ from the expectation list:")
        print("\n".join(surprises))
    print(f"{passed} passed, {failed} failed")
    return 1 if surprises else 0


if __name__ == "__main__":
    sys.exit(main())
