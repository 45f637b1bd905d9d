#!/usr/bin/python3
"""Deterministic generator for the lpx built-in ONNX models and their inputs.

Usage:
    /usr/bin/python3 models/generate.py [--out DIR] [--only NAME] [--strict]

For every built-in model NAME it writes

    DIR/NAME/model.onnx
    DIR/NAME/test_data_set_0/input_<i>.pb     (TensorProto, name = graph input name)

in the ONNX backend-test layout. Expected outputs (output_<i>.pb) are NOT
written here: they come from an independent implementation (onnxruntime, see
models/reference/expected.mjs). If output files are already present, this
script compares them with a plain numpy evaluation of the same model and prints
the largest absolute difference; with --strict a difference above the
tolerance (or a missing output file) is an error.

Everything is deterministic: numpy.random.default_rng with a fixed seed per
model, float32 data, fixed ir_version / opset / producer fields, so running the
script twice gives byte-identical files (models/check_generated.sh relies on
this).

Only these ONNX ops are used: MatMul, Gemm, Add, Sub, Mul, Div, Pow, Sqrt, Neg,
Relu, Sigmoid, Tanh, Softmax, ReduceMean, Reshape, Transpose, Concat, Slice,
Gather, Unsqueeze, Squeeze, Cast, Where, Constant (default domain, opset 13).
"""

import argparse
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 13
IR_VERSION = 7  # the IR version that goes with opset 13
PRODUCER = "lpx-models"
PRODUCER_VERSION = "1"
TOLERANCE = 1e-4  # numpy (float64) vs stored expected outputs (float32)

ALLOWED_OPS = {
    "MatMul", "Gemm", "Add", "Sub", "Mul", "Div", "Pow", "Sqrt", "Neg", "Relu",
    "Sigmoid", "Tanh", "Softmax", "ReduceMean", "Reshape", "Transpose",
    "Concat", "Slice", "Gather", "Unsqueeze", "Squeeze", "Cast", "Where",
    "Constant",
}


# --------------------------------------------------------------------------
# Small graph-building helper
# --------------------------------------------------------------------------
class GraphBuilder:
    def __init__(self, name):
        self.name = name
        self.nodes = []
        self.initializers = []
        self.inputs = []
        self.outputs = []
        self._counter = 0

    def fresh(self, hint):
        self._counter += 1
        return f"{hint}_{self._counter}"

    def input(self, name, shape):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        return name

    def output(self, name, shape):
        self.outputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))

    def const(self, name, array):
        """Adds an initializer (raw_data) and returns its name."""
        array = np.ascontiguousarray(array)
        self.initializers.append(numpy_helper.from_array(array, name))
        return name

    def i64(self, name, values):
        return self.const(name, np.asarray(values, dtype=np.int64))

    def f32(self, name, values):
        return self.const(name, np.asarray(values, dtype=np.float32))

    def op(self, op_type, inputs, hint=None, out=None, **attrs):
        assert op_type in ALLOWED_OPS, op_type
        out = out or self.fresh(hint or op_type.lower())
        self.nodes.append(helper.make_node(op_type, inputs, [out],
                                           name=f"{self.name}/{out}", **attrs))
        return out

    def model(self, doc):
        graph = helper.make_graph(self.nodes, self.name, self.inputs, self.outputs,
                                  initializer=self.initializers)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)],
                                  producer_name=PRODUCER,
                                  producer_version=PRODUCER_VERSION)
        model.ir_version = IR_VERSION
        model.doc_string = doc
        return model


# --------------------------------------------------------------------------
# (a) mlp
# --------------------------------------------------------------------------
MLP = dict(IN=64, HID=128, OUT=32, SEED=1001)


def mlp_weights():
    c = MLP
    rng = np.random.default_rng(c["SEED"])
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    w = {}
    w["fc1.weight"] = f(c["HID"], c["IN"], scale=1 / np.sqrt(c["IN"]))   # [out, in], Gemm transB=1
    w["fc1.bias"] = f(c["HID"], scale=0.1)
    w["fc2.weight"] = f(c["HID"], c["OUT"], scale=1 / np.sqrt(c["HID"]))  # [in, out], MatMul
    w["fc2.bias"] = f(c["OUT"], scale=0.1)
    inputs = {"x": f(1, c["IN"])}
    return w, inputs


def mlp_build(w):
    c = MLP
    g = GraphBuilder("mlp")
    x = g.input("x", [1, c["IN"]])
    for k, v in w.items():
        g.const(k, v)
    h = g.op("Gemm", [x, "fc1.weight", "fc1.bias"], hint="fc1", transB=1)
    h = g.op("Relu", [h], hint="relu")
    h = g.op("MatMul", [h, "fc2.weight"], hint="fc2_matmul")
    g.op("Add", [h, "fc2.bias"], out="y")
    g.output("y", [1, c["OUT"]])
    return g.model("lpx built-in 2-layer MLP: y = (relu(x @ W1^T + b1)) @ W2 + b2")


def mlp_numpy(w, inputs):
    x = inputs["x"].astype(np.float64)
    h = np.maximum(x @ w["fc1.weight"].astype(np.float64).T + w["fc1.bias"], 0.0)
    y = h @ w["fc2.weight"].astype(np.float64) + w["fc2.bias"]
    return {"y": y}


# --------------------------------------------------------------------------
# (b) llama_step: one Llama decoder layer, one decode step with a KV cache
# --------------------------------------------------------------------------
LLAMA = dict(D=64, H=4, KVH=2, HD=16, T=15, F=128, EPS=1e-5, THETA=10000.0, SEED=2002)


def rope_tables(pos, hd, theta):
    """cos/sin tables [1,1,1,HD] for one position, HF Llama layout (halves repeated)."""
    inv_freq = 1.0 / (theta ** (np.arange(0, hd, 2, dtype=np.float64) / hd))
    ang = pos * inv_freq
    ang = np.concatenate([ang, ang])
    return (np.cos(ang).astype(np.float32).reshape(1, 1, 1, hd),
            np.sin(ang).astype(np.float32).reshape(1, 1, 1, hd))


def llama_weights():
    c = LLAMA
    D, H, KVH, HD, T, F = c["D"], c["H"], c["KVH"], c["HD"], c["T"], c["F"]
    rng = np.random.default_rng(c["SEED"])
    f = lambda *s, scale=1.0: (rng.standard_normal(s) * scale).astype(np.float32)
    w = {}
    w["attn_norm.weight"] = (1.0 + f(D, scale=0.1)).astype(np.float32)
    w["q_proj.weight"] = f(D, H * HD, scale=1 / np.sqrt(D))
    w["k_proj.weight"] = f(D, KVH * HD, scale=1 / np.sqrt(D))
    w["v_proj.weight"] = f(D, KVH * HD, scale=1 / np.sqrt(D))
    w["o_proj.weight"] = f(H * HD, D, scale=1 / np.sqrt(H * HD))
    w["mlp_norm.weight"] = (1.0 + f(D, scale=0.1)).astype(np.float32)
    w["gate_proj.weight"] = f(D, F, scale=1 / np.sqrt(D))
    w["up_proj.weight"] = f(D, F, scale=1 / np.sqrt(D))
    w["down_proj.weight"] = f(F, D, scale=1 / np.sqrt(F))
    cos, sin = rope_tables(T, HD, c["THETA"])
    inputs = {
        "x": f(1, 1, D),
        "past_k": f(1, KVH, T, HD),
        "past_v": f(1, KVH, T, HD),
        "cos": cos,
        "sin": sin,
    }
    return w, inputs


def llama_build(w):
    c = LLAMA
    D, H, KVH, HD, T, F = c["D"], c["H"], c["KVH"], c["HD"], c["T"], c["F"]
    g = GraphBuilder("llama_step")
    x = g.input("x", [1, 1, D])
    g.input("past_k", [1, KVH, T, HD])
    g.input("past_v", [1, KVH, T, HD])
    cos = g.input("cos", [1, 1, 1, HD])
    sin = g.input("sin", [1, 1, 1, HD])
    for k, v in w.items():
        g.const(k, v)

    # scalar / shape constants
    g.f32("two", 2.0)
    g.f32("eps", c["EPS"])
    g.f32("attn_scale", np.sqrt(HD))
    g.f32("mask_fill", -1e9)
    g.i64("shape_q_heads", [1, 1, H, HD])
    g.i64("shape_kv_heads", [1, 1, KVH, HD])
    g.i64("shape_rep_heads", [1, H, T + 1, HD])
    g.i64("shape_merge", [1, 1, H * HD])
    g.i64("half_lo_start", [0])
    g.i64("half_lo_end", [HD // 2])
    g.i64("half_hi_start", [HD // 2])
    g.i64("half_hi_end", [HD])
    g.i64("last_axis", [-1])
    g.i64("unsq_axis", [2])
    g.i64("kv_head_index", [h // (H // KVH) for h in range(H)])  # [0,0,1,1]

    def rmsnorm(inp, weight, tag):
        sq = g.op("Pow", [inp, "two"], hint=f"{tag}_sq")
        ms = g.op("ReduceMean", [sq], hint=f"{tag}_mean", axes=[-1], keepdims=1)
        ms = g.op("Add", [ms, "eps"], hint=f"{tag}_add_eps")
        rms = g.op("Sqrt", [ms], hint=f"{tag}_rms")
        nrm = g.op("Div", [inp, rms], hint=f"{tag}_div")
        return g.op("Mul", [nrm, weight], hint=f"{tag}_scaled")

    def to_heads(t, shape, tag):
        t = g.op("Reshape", [t, shape], hint=f"{tag}_split")
        return g.op("Transpose", [t], hint=f"{tag}_heads", perm=[0, 2, 1, 3])

    def rotary(t, tag):
        # t * cos + rotate_half(t) * sin, rotate_half(t) = concat(-t[..., HD/2:], t[..., :HD/2])
        lo = g.op("Slice", [t, "half_lo_start", "half_lo_end", "last_axis"], hint=f"{tag}_lo")
        hi = g.op("Slice", [t, "half_hi_start", "half_hi_end", "last_axis"], hint=f"{tag}_hi")
        neg_hi = g.op("Neg", [hi], hint=f"{tag}_neg_hi")
        rot = g.op("Concat", [neg_hi, lo], hint=f"{tag}_rot", axis=-1)
        a = g.op("Mul", [t, cos], hint=f"{tag}_cos")
        b = g.op("Mul", [rot, sin], hint=f"{tag}_sin")
        return g.op("Add", [a, b], hint=f"{tag}_rope")

    # --- attention block ---
    h = rmsnorm(x, "attn_norm.weight", "attn_norm")
    q = g.op("MatMul", [h, "q_proj.weight"], hint="q_proj")          # [1,1,H*HD]
    k = g.op("MatMul", [h, "k_proj.weight"], hint="k_proj")          # [1,1,KVH*HD]
    v = g.op("MatMul", [h, "v_proj.weight"], hint="v_proj")          # [1,1,KVH*HD]
    q = to_heads(q, "shape_q_heads", "q")                            # [1,H,1,HD]
    k = to_heads(k, "shape_kv_heads", "k")                           # [1,KVH,1,HD]
    v = to_heads(v, "shape_kv_heads", "v")                           # [1,KVH,1,HD]
    q = rotary(q, "q")
    k = rotary(k, "k")
    present_k = g.op("Concat", ["past_k", k], out="present_k", axis=2)  # [1,KVH,T+1,HD]
    present_v = g.op("Concat", ["past_v", v], out="present_v", axis=2)

    # GQA: query head h uses KV head h // (H/KVH).
    # K: Unsqueeze + Concat + Reshape (repeat_kv as in HF Llama).
    ku = g.op("Unsqueeze", [present_k, "unsq_axis"], hint="k_unsq")  # [1,KVH,1,T+1,HD]
    krep = g.op("Concat", [ku] * (H // KVH), hint="k_repeat", axis=2)  # [1,KVH,H/KVH,T+1,HD]
    krep = g.op("Reshape", [krep, "shape_rep_heads"], hint="k_rep")   # [1,H,T+1,HD]
    # V: Gather on a head-index constant (same result, exercises Gather).
    vrep = g.op("Gather", [present_v, "kv_head_index"], hint="v_rep", axis=1)  # [1,H,T+1,HD]

    kt = g.op("Transpose", [krep], hint="k_t", perm=[0, 1, 3, 2])     # [1,H,HD,T+1]
    scores = g.op("MatMul", [q, kt], hint="scores")                   # [1,H,1,T+1]
    scores = g.op("Div", [scores, "attn_scale"], hint="scores_scaled")
    # decode step: every past position is visible; the all-true mask exercises Where
    g.const("attn_mask", np.ones((1, 1, 1, T + 1), dtype=bool))
    scores = g.op("Where", ["attn_mask", scores, "mask_fill"], hint="scores_masked")
    probs = g.op("Softmax", [scores], hint="probs", axis=-1)
    ctx = g.op("MatMul", [probs, vrep], hint="ctx")                   # [1,H,1,HD]
    ctx = g.op("Transpose", [ctx], hint="ctx_t", perm=[0, 2, 1, 3])   # [1,1,H,HD]
    ctx = g.op("Reshape", [ctx, "shape_merge"], hint="ctx_merged")    # [1,1,H*HD]
    attn = g.op("MatMul", [ctx, "o_proj.weight"], hint="o_proj")
    x1 = g.op("Add", [x, attn], hint="resid_attn")

    # --- SwiGLU MLP block ---
    h2 = rmsnorm(x1, "mlp_norm.weight", "mlp_norm")
    gate = g.op("MatMul", [h2, "gate_proj.weight"], hint="gate_proj")
    up = g.op("MatMul", [h2, "up_proj.weight"], hint="up_proj")
    sig = g.op("Sigmoid", [gate], hint="gate_sigmoid")
    silu = g.op("Mul", [sig, gate], hint="gate_silu")
    act = g.op("Mul", [silu, up], hint="swiglu")
    down = g.op("MatMul", [act, "down_proj.weight"], hint="down_proj")
    g.op("Add", [x1, down], out="y")

    g.output("y", [1, 1, D])
    g.output("present_k", [1, KVH, T + 1, HD])
    g.output("present_v", [1, KVH, T + 1, HD])
    return g.model("lpx built-in Llama-style decoder layer, one decode step with KV cache "
                   f"(D={D}, H={H}, KVH={KVH}, HD={HD}, T={T}, F={F}); cos/sin are inputs "
                   f"(the test data holds the tables for position {T})")


def llama_numpy(w, inputs):
    """Plain numpy (float64) evaluation written independently of the graph above."""
    c = LLAMA
    D, H, KVH, HD, T = c["D"], c["H"], c["KVH"], c["HD"], c["T"]
    W = {k: v.astype(np.float64) for k, v in w.items()}
    x = inputs["x"].astype(np.float64)[0, 0]            # [D]
    cos = inputs["cos"].astype(np.float64).reshape(HD)
    sin = inputs["sin"].astype(np.float64).reshape(HD)

    def rms(v, wt):
        return v / np.sqrt(np.mean(v * v) + c["EPS"]) * wt

    def rope(v):  # v: [heads, HD]
        half = HD // 2
        rotated = np.concatenate([-v[:, half:], v[:, :half]], axis=1)
        return v * cos + rotated * sin

    h = rms(x, W["attn_norm.weight"])
    q = rope((h @ W["q_proj.weight"]).reshape(H, HD))
    k = rope((h @ W["k_proj.weight"]).reshape(KVH, HD))
    v = (h @ W["v_proj.weight"]).reshape(KVH, HD)
    keys = np.concatenate([inputs["past_k"][0].astype(np.float64), k[:, None, :]], axis=1)
    vals = np.concatenate([inputs["past_v"][0].astype(np.float64), v[:, None, :]], axis=1)
    ctx = np.zeros((H, HD))
    for head in range(H):
        kvh = head * KVH // H
        s = keys[kvh] @ q[head] / np.sqrt(HD)           # [T+1]
        p = np.exp(s - s.max())
        p /= p.sum()
        ctx[head] = p @ vals[kvh]
    x1 = x + ctx.reshape(H * HD) @ W["o_proj.weight"]
    h2 = rms(x1, W["mlp_norm.weight"])
    gate = h2 @ W["gate_proj.weight"]
    up = h2 @ W["up_proj.weight"]
    y = x1 + (gate / (1.0 + np.exp(-gate)) * up) @ W["down_proj.weight"]
    return {"y": y.reshape(1, 1, D),
            "present_k": keys.reshape(1, KVH, T + 1, HD),
            "present_v": vals.reshape(1, KVH, T + 1, HD)}


MODELS = {
    "mlp": (mlp_weights, mlp_build, mlp_numpy),
    "llama_step": (llama_weights, llama_build, llama_numpy),
}


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------
def validate(model):
    onnx.checker.check_model(model, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    for n in model.graph.node:
        assert n.op_type in ALLOWED_OPS and n.domain == "", n.op_type
    # every value must have a fully static shape
    known = {vi.name: vi for vi in list(inferred.graph.value_info) + list(inferred.graph.output)
             + list(inferred.graph.input)}
    for n in model.graph.node:
        for o in n.output:
            vi = known.get(o)
            if vi is None:
                raise RuntimeError(f"shape inference gave no shape for '{o}'")
            dims = vi.type.tensor_type.shape.dim
            if not vi.type.tensor_type.HasField("shape") or any(not d.HasField("dim_value") for d in dims):
                raise RuntimeError(f"value '{o}' has a non-static shape")
    # declared output shapes must agree with the inferred ones
    for decl in model.graph.output:
        got = [d.dim_value for d in known[decl.name].type.tensor_type.shape.dim]
        want = [d.dim_value for d in decl.type.tensor_type.shape.dim]
        if got != want:
            raise RuntimeError(f"output '{decl.name}': inferred {got}, declared {want}")


def write_file(path, data):
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def generate(name, out_dir, strict):
    weights_fn, build_fn, numpy_fn = MODELS[name]
    w, inputs = weights_fn()
    model = build_fn(w)
    validate(model)

    model_dir = os.path.join(out_dir, name)
    data_dir = os.path.join(model_dir, "test_data_set_0")
    os.makedirs(data_dir, exist_ok=True)
    write_file(os.path.join(model_dir, "model.onnx"), model.SerializeToString())
    for i, vi in enumerate(model.graph.input):
        arr = inputs[vi.name]
        write_file(os.path.join(data_dir, f"input_{i}.pb"),
                   numpy_helper.from_array(arr, vi.name).SerializeToString())
    size = os.path.getsize(os.path.join(model_dir, "model.onnx"))
    print(f"{name}: wrote {model_dir} (model.onnx {size} bytes, {len(model.graph.input)} inputs, "
          f"{len(model.graph.node)} nodes)")

    # numpy cross-check against stored expected outputs, if present
    ref = numpy_fn(w, inputs)
    ok = True
    worst = 0.0
    for i, vi in enumerate(model.graph.output):
        path = os.path.join(data_dir, f"output_{i}.pb")
        if not os.path.exists(path):
            print(f"  {name}: {path} missing (run models/reference/expected.mjs)")
            ok = not strict and ok
            continue
        t = TensorProto()
        with open(path, "rb") as fh:
            t.ParseFromString(fh.read())
        got = numpy_helper.to_array(t)
        want = ref[vi.name]
        if t.name != vi.name or got.shape != want.shape:
            print(f"  {name}: output_{i}.pb is '{t.name}' {list(got.shape)}, expected "
                  f"'{vi.name}' {list(want.shape)}")
            ok = False
            continue
        diff = float(np.max(np.abs(got.astype(np.float64) - want)))
        worst = max(worst, diff)
        print(f"  {name}: numpy vs output_{i}.pb ('{vi.name}' {list(got.shape)}): "
              f"max abs diff {diff:.3e}")
        if diff > TOLERANCE:
            ok = False
    return ok, worst


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=here, help="output directory (default: the models/ folder)")
    ap.add_argument("--only", choices=sorted(MODELS), help="generate only this model")
    ap.add_argument("--llama-config", metavar="D=1024,F=2816,...",
                    help="override llama_step's sizes (keys: " + ", ".join(LLAMA) +
                         "), e.g. for a memory-bound layer in timing studies; such a "
                         "model has no stored expected outputs")
    ap.add_argument("--strict", action="store_true",
                    help="fail if expected outputs are missing or differ from numpy by more "
                         f"than {TOLERANCE}")
    args = ap.parse_args()
    if args.llama_config:
        for item in args.llama_config.split(","):
            key, _, value = item.partition("=")
            if key not in LLAMA or not value:
                ap.error(f"--llama-config: unknown or empty key '{key}'")
            LLAMA[key] = type(LLAMA[key])(float(value)) if isinstance(LLAMA[key], float) \
                else int(value)
        if LLAMA["H"] % LLAMA["KVH"]:
            ap.error("--llama-config: H must be a multiple of KVH")
    names = [args.only] if args.only else list(MODELS)
    all_ok = True
    for name in names:
        ok, _ = generate(name, args.out, args.strict)
        all_ok = all_ok and ok
    if not all_ok:
        if args.strict:
            print("error: numpy cross-check failed (see above)", file=sys.stderr)
            return 1
        print("warning: expected outputs missing or stale; refresh them with "
              "models/reference/expected.mjs (see models/README.md)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
