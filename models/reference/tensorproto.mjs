import fs from "node:fs";
import path from "node:path";

// onnx.TensorProto reading and writing for the onnxruntime-node scripts
// (models/reference/expected.mjs, tools/bench/ort-time.mjs).

// ---- minimal protobuf reader/writer for onnx.TensorProto -------------------
// Field numbers (onnx.proto): 1 dims (int64, repeated), 2 data_type (int32),
// 4 float_data (packed float), 7 int64_data, 8 name (string), 9 raw_data (bytes).
const FLOAT = 1, INT64 = 7, BOOL = 9;

function readVarint(buf, pos) {
  let result = 0n, shift = 0n;
  for (;;) {
    const b = buf[pos.p++];
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return result;
    shift += 7n;
  }
}

export function parseTensor(buf) {
  const pos = { p: 0 };
  const t = { dims: [], dataType: 0, name: "", raw: null, floatData: [] };
  while (pos.p < buf.length) {
    const key = Number(readVarint(buf, pos));
    const field = key >>> 3, wire = key & 7;
    if (wire === 0) {
      const v = readVarint(buf, pos);
      if (field === 1) t.dims.push(Number(BigInt.asIntN(64, v)));
      else if (field === 2) t.dataType = Number(v);
    } else if (wire === 2) {
      const len = Number(readVarint(buf, pos));
      const bytes = buf.subarray(pos.p, pos.p + len);
      pos.p += len;
      if (field === 1) { // packed dims
        const q = { p: 0 };
        while (q.p < bytes.length) t.dims.push(Number(BigInt.asIntN(64, readVarint(bytes, q))));
      } else if (field === 8) t.name = Buffer.from(bytes).toString("utf8");
      else if (field === 9) t.raw = Buffer.from(bytes);
      else if (field === 4) {
        const c = Buffer.from(bytes);
        for (let i = 0; i < c.length; i += 4) t.floatData.push(c.readFloatLE(i));
      }
    } else if (wire === 5) pos.p += 4;
    else if (wire === 1) pos.p += 8;
    else throw new Error(`unsupported protobuf wire type ${wire}`);
  }
  return t;
}

export function toOrtTensor(ort, t, file) {
  const count = t.dims.reduce((a, b) => a * b, 1);
  if (t.dataType === FLOAT) {
    const data = new Float32Array(count);
    if (t.raw) for (let i = 0; i < count; i++) data[i] = t.raw.readFloatLE(4 * i);
    else data.set(t.floatData);
    return new ort.Tensor("float32", data, t.dims);
  }
  if (t.dataType === INT64 && t.raw) {
    const data = new BigInt64Array(count);
    for (let i = 0; i < count; i++) data[i] = t.raw.readBigInt64LE(8 * i);
    return new ort.Tensor("int64", data, t.dims);
  }
  if (t.dataType === BOOL && t.raw) {
    return new ort.Tensor("bool", Uint8Array.from(t.raw), t.dims);
  }
  throw new Error(`${file}: unsupported TensorProto (data_type ${t.dataType})`);
}

function varint(n) {
  let v = BigInt.asUintN(64, BigInt(n));
  const out = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return Buffer.from(out);
}

// Same field order and encoding as python onnx.numpy_helper.from_array(...).SerializeToString().
export function serializeFloatTensor(name, dims, data) {
  const parts = [];
  for (const d of dims) parts.push(varint((1 << 3) | 0), varint(d));
  parts.push(varint((2 << 3) | 0), varint(FLOAT));
  const nameBytes = Buffer.from(name, "utf8");
  parts.push(varint((8 << 3) | 2), varint(nameBytes.length), nameBytes);
  const raw = Buffer.alloc(4 * data.length);
  for (let i = 0; i < data.length; i++) raw.writeFloatLE(data[i], 4 * i);
  parts.push(varint((9 << 3) | 2), varint(raw.length), raw);
  return Buffer.concat(parts);
}

/// Every input_<i>.pb in dataDir as an onnxruntime feed, bound by its name.
export function readFeeds(ort, session, dataDir) {
  const feeds = {};
  const inputFiles = fs.readdirSync(dataDir).filter((f) => /^input_\d+\.pb$/.test(f));
  for (const f of inputFiles) {
    const t = parseTensor(fs.readFileSync(path.join(dataDir, f)));
    if (!session.inputNames.includes(t.name))
      throw new Error(`${f}: name '${t.name}' is not a graph input (${session.inputNames})`);
    feeds[t.name] = toOrtTensor(ort, t, f);
  }
  for (const n of session.inputNames)
    if (!(n in feeds)) throw new Error(`${dataDir}: no input file for graph input '${n}'`);
  return feeds;
}
