//===- VectorTiming.cpp - The vector check's own model of an instruction --===//
//
// Written from the chip description, vector by vector, without the cost
// model (isa/lib/Timing.cpp, isa/lib/cost/): where the two agree a schedule
// passes both checks, and where they do not the vector check reports the
// schedule that the cost model let through. Shared with the cost model are
// only description data: the rates and depths of ChipSpec, the ALU passes of
// the elementwise functions (ElementwiseFunctions.def) and the names of the
// latency tables (UnitOps.h).
//
//===----------------------------------------------------------------------===//
#include "VectorTiming.h"

#include "lpx/isa/Attributes.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "lpx/isa/Opcode.h"
#include "lpx/isa/Topology.h"
#include "lpx/isa/UnitOps.h"

#include <algorithm>
#include <cmath>
#include <vector>

using namespace lpx;
using namespace lpx::sim;
using isa::Opcode;

namespace {

uint64_t divUp(uint64_t a, uint64_t b) { return b == 0 ? a : (a + b - 1) / b; }

uint64_t dim(int64_t d) { return uint64_t(std::max<int64_t>(d, 0)); }

/// Product of shape[from, to).
uint64_t extent(const isa::pb::Buffer &b, int from, int to) {
  uint64_t n = 1;
  for (int i = std::max(from, 0); i < to && i < b.shape_size(); ++i)
    n *= dim(b.shape(i));
  return n;
}

uint64_t elementsOf(const isa::pb::Buffer &b) {
  return extent(b, 0, b.shape_size());
}

uint64_t widthOf(const isa::pb::Buffer &b) {
  return isa::dtypeBytes(static_cast<isa::DType>(b.dtype()));
}

/// The tensors an instruction streams, as the check sees them.
struct Streams {
  const isa::ChipSpec &chip;
  const isa::pb::Program &p;
  const isa::pb::Instruction &inst;
  Opcode op;
  std::vector<const isa::pb::Buffer *> in; // operands, each once
  std::vector<uint64_t> inBytes;           // what is read of each
  const isa::pb::Buffer *out;              // what the unit writes

  Streams(const isa::ChipSpec &chip, const isa::pb::Program &p,
          const isa::pb::Instruction &inst)
      : chip(chip), p(p), inst(inst), op(isa::opcodeOf(inst)),
        out(&p.buffers(int(inst.result()))) {
    for (int i = 0; i < inst.operands_size(); ++i) {
      const isa::pb::Buffer *b = &p.buffers(int(inst.operands(i)));
      if (std::find(in.begin(), in.end(), b) == in.end()) {
        in.push_back(b);
        inBytes.push_back(b->bytes());
      }
    }
    if (op == Opcode::Gather && in.size() == 2)
      inBytes.front() = gatheredBytes(*in[0], *in[1]);
    if (op == Opcode::Slice && in.size() == 1)
      inBytes.front() = slicedBytes(*in[0]);
    // A state write streams the update into place, not the whole state.
    if (op == Opcode::StateWrite && !in.empty())
      out = in.front();
  }

  /// A gather reads the slices its indices pick (the dims after its axis,
  /// once per index and outer position), each as whole vectors, and no
  /// more than the table.
  uint64_t gatheredBytes(const isa::pb::Buffer &table,
                         const isa::pb::Buffer &indices) const {
    const int axis = int(inst.attributes().axis().axis());
    if (axis < 0 || axis >= table.shape_size())
      return table.bytes();
    const uint64_t slice = extent(table, axis + 1, table.shape_size()) *
                           widthOf(table);
    const uint64_t picked = extent(table, 0, axis) * elementsOf(indices) *
                            divUp(slice, chip.vector.bytes) * chip.vector.bytes;
    return std::min<uint64_t>(picked, table.bytes());
  }
  /// A slice reads the vectors that hold what it selects. Walking the
  /// source's axes from the innermost, those the slice takes whole (step 1)
  /// join one contiguous run; the first it does not take whole ends it
  /// (with its selected extent inside the run at step 1, outside it
  /// otherwise). Each run is read as whole vectors, one more where the
  /// runs do not all start on a vector boundary; never more than the
  /// source.
  uint64_t slicedBytes(const isa::pb::Buffer &src) const {
    const isa::pb::SliceAttrs &a = inst.attributes().slice();
    const int rank = src.shape_size();
    if (out->shape_size() != rank || a.starts_size() != rank ||
        a.steps_size() != rank)
      return src.bytes();
    const uint64_t v = chip.vector.bytes;
    uint64_t run = widthOf(src), runs = 1, start = 0, stride = widthOf(src);
    bool open = true, aligned = true;
    for (int d = rank - 1; d >= 0; --d) {
      const uint64_t picked = dim(out->shape(d));
      const uint64_t step = uint64_t(std::max<int64_t>(a.steps(d), 1));
      const bool whole = picked == dim(src.shape(d)) && step == 1;
      start += uint64_t(std::max<int64_t>(a.starts(d), 0)) * stride;
      if (open && (whole || step == 1)) {
        run *= picked;
        open = whole;
      } else {
        open = false;
        runs *= picked;
        aligned = aligned && (picked < 2 || (stride * step) % v == 0);
      }
      stride *= dim(src.shape(d));
    }
    if (open)
      return src.bytes();
    aligned = aligned && run % v == 0 && start % v == 0;
    const uint64_t read = runs * (divUp(run, v) + (aligned ? 0 : 1)) * v;
    return std::min<uint64_t>(read, divUp(src.bytes(), v) * v);
  }
  uint64_t vectors(const isa::pb::Buffer &b) const {
    return std::max<uint64_t>(divUp(b.bytes(), chip.vector.bytes), 1);
  }
  /// Vectors of the longest stream (an operand as read, or the result).
  uint64_t longest() const {
    uint64_t v = vectors(*out);
    for (uint64_t bytes : inBytes)
      v = std::max(v, std::max<uint64_t>(divUp(bytes, chip.vector.bytes), 1));
    return v;
  }
  /// The VXM computes one element per lane, a wide element on several
  /// lanes: lane-vectors of a tensor.
  uint64_t laneVectors(const isa::pb::Buffer &b) const {
    const uint64_t lanes = std::max<uint32_t>(chip.vector.lanes, 1);
    if (widthOf(b) * lanes >= chip.vector.bytes) // at least a lane each
      return std::max<uint64_t>(divUp(b.bytes(), chip.vector.bytes), 1);
    return std::max<uint64_t>(divUp(elementsOf(b), lanes), 1);
  }
  uint64_t longestLanes() const {
    uint64_t v = laneVectors(*out);
    for (const isa::pb::Buffer *b : in)
      v = std::max(v, laneVectors(*b));
    return v;
  }
  /// Every byte read or written passes some bank port: the node's banks
  /// together bound any one instruction.
  uint64_t sramCycles() const {
    uint64_t bytes = out->bytes();
    for (uint64_t read : inBytes)
      bytes += read;
    return divUp(bytes, std::max<uint64_t>(chip.sramBytesPerCycle(), 1));
  }
  uint64_t atLeast(uint64_t cycles) const {
    return std::max({uint64_t(1), sramCycles(), cycles});
  }
};

// ---- stream units: MEM, SXM, VXM ----------------------------------------

/// `work` vectors through a queue taking `perCycle` of them a cycle.
uint64_t throughQueue(const Streams &s, uint64_t work, uint32_t perCycle) {
  return s.atLeast(divUp(work, std::max<uint32_t>(perCycle, 1)));
}

/// Lane-vectors through the VXM, each through `passes` of a lane's ALUs: the
/// queue takes vectors_per_cycle a cycle, the ALUs alus_per_lane / passes.
uint64_t throughAlus(const Streams &s, uint64_t passes) {
  const isa::VxmSpec &v = s.chip.vxm;
  const uint64_t lanes = s.longestLanes();
  return s.atLeast(std::max(divUp(lanes, std::max<uint32_t>(v.vectorsPerCycle, 1)),
                            divUp(lanes * passes,
                                  std::max<uint32_t>(v.alusPerLane, 1))));
}

uint64_t functionPasses(const Streams &s) {
  const int64_t id = isa::functionIdOf(s.inst.attributes());
  const isa::FnInfo *fn = s.op == Opcode::Unary    ? isa::unaryFnInfo(id)
                          : s.op == Opcode::Binary ? isa::binaryFnInfo(id)
                          : s.op == Opcode::Reduce ? isa::reduceFnInfo(id)
                                                   : isa::argReduceFnInfo(id);
  if (!fn)
    return 1;
  return fn->passes == isa::kTranscendentalPasses
             ? s.chip.vxm.transcendentalPasses
             : fn->passes;
}

/// ALU passes per lane-vector of the VXM opcodes priced by passes; 0 for
/// those priced by their streams (pool, top_k).
uint64_t vxmPasses(const Streams &s) {
  const uint64_t tp = s.chip.vxm.transcendentalPasses;
  switch (s.op) {
  case Opcode::Div: case Opcode::Pow: case Opcode::Sqrt:
  case Opcode::Sigmoid: case Opcode::Tanh:
    return tp;
  case Opcode::Softmax: return 3 + tp;        // max, sub+exp, sum, scale
  case Opcode::LogSoftmax: return 3 + 2 * tp; // ... and a log
  case Opcode::ReduceMean: case Opcode::Hardmax:
    return 2;
  case Opcode::Unary: case Opcode::Binary: case Opcode::Reduce:
  case Opcode::ArgReduce:
    return functionPasses(s);
  case Opcode::Det: { // elimination: n steps of pivot, divide, update
    const isa::pb::Buffer &a = *s.in.front();
    return 3 * std::max<uint64_t>(
                   a.shape_size() >= 2 ? dim(a.shape(a.shape_size() - 1)) : 1,
                   1);
  }
  case Opcode::Pool: case Opcode::TopK:
    return 0;
  default:
    return 1;
  }
}

/// Pool: every result vector gathers its window, but the input passes once.
uint64_t poolSpan(const Streams &s) {
  const int spatial = std::max(s.out->shape_size() - 2, 0);
  const auto &kernel = s.inst.attributes().pool().kernel();
  uint64_t window = 1;
  for (int i = 0; i < spatial && i < kernel.size(); ++i)
    window *= uint64_t(std::max<int64_t>(kernel[i], 1));
  return throughQueue(s, std::max(s.vectors(*s.in.front()),
                                  s.vectors(*s.out) * window),
                      s.chip.vxm.vectorsPerCycle);
}

/// Top-k: k passes of max-and-mask or a bitonic network, whichever is
/// fewer, each over the longest stream.
uint64_t topKSpan(const Streams &s) {
  const isa::pb::TopKAttrs &a = s.inst.attributes().top_k();
  const isa::pb::Buffer &x = *s.in.front();
  uint64_t len = a.axis() >= 0 && a.axis() < x.shape_size()
                     ? std::max<uint64_t>(dim(x.shape(int(a.axis()))), 1)
                     : 1;
  uint64_t stages = 0;
  while ((uint64_t(1) << stages) < len)
    ++stages;
  const uint64_t passes = std::max<uint64_t>(
      1, std::min<uint64_t>(std::max<int64_t>(a.k(), 1),
                            stages * (stages + 1) / 2));
  return throughQueue(s, s.longest() * passes, s.chip.vxm.vectorsPerCycle);
}

/// SXM vectors beyond one pass: scatters stream data, indices and updates
/// (a reduction reads the old values too); grid_sample gathers its taps.
uint64_t sxmWork(const Streams &s) {
  const isa::pb::Attributes &a = s.inst.attributes();
  if (s.op == Opcode::ScatterElements || s.op == Opcode::ScatterND) {
    uint64_t work = 0;
    for (int i = 0; i < s.inst.operands_size(); ++i)
      work += s.vectors(s.p.buffers(int(s.inst.operands(i))));
    if (a.scatter().reduction() != isa::pb::SCATTER_NONE &&
        s.inst.operands_size() == 3)
      work += s.vectors(s.p.buffers(int(s.inst.operands(2))));
    return work;
  }
  if (s.op == Opcode::GridSample) {
    const uint64_t taps = a.grid_sample().mode() == isa::pb::GRID_SAMPLE_NEAREST ? 1
                          : a.grid_sample().mode() == isa::pb::GRID_SAMPLE_BICUBIC
                              ? 16
                              : 4;
    return s.vectors(*s.out) * (taps + 1) +
           (s.inst.operands_size() == 2
                ? s.vectors(s.p.buffers(int(s.inst.operands(1))))
                : 0);
  }
  return s.longest();
}

// ---- the matrix unit ------------------------------------------------------

/// `count` products [stream x k] x [k x out], the second operand installed
/// in the planes as tiles of rows x cols.
struct Product {
  uint64_t count = 1, stream = 1, k = 1, out = 1;
};

/// Tiles dealt to the planes. A plane streams one tile's vectors at
/// `perVector` cycles each while it installs the next, so per plane the
/// first install is exposed and the last tile streams alone. With fewer
/// tiles than planes the spare planes hold copies and split the vectors.
uint64_t planeSpan(const isa::MxmSpec &m, const Product &pr, uint64_t perVector,
                   uint64_t install) {
  const uint64_t k = std::max<uint64_t>(pr.k, 1), out = std::max<uint64_t>(pr.out, 1);
  // A small tile is placed several times on the diagonal; each copy takes
  // its own row of the vector.
  const uint64_t copies =
      k <= m.rows && out <= m.cols
          ? std::max<uint64_t>(std::min(m.rows / k, m.cols / out), 1)
          : 1;
  const uint64_t tiles = pr.count * divUp(k, m.rows) * divUp(out, m.cols);
  const uint64_t vectors = divUp(std::max<uint64_t>(pr.stream, 1), copies);
  const uint64_t planes = std::max<uint64_t>(m.planes / std::max(m.queues, 1u), 1);
  if (tiles >= planes) {
    const uint64_t perPlane = divUp(tiles, planes);
    const uint64_t stream = vectors * perVector;
    return install + (perPlane - 1) * std::max(install, stream) + stream;
  }
  return install + divUp(vectors, planes / tiles) * perVector;
}

/// The faster of the two mappings the description allows, and its first
/// install (`fill`).
uint64_t mxmSpan(const Streams &s, const isa::pb::Buffer &a,
                 const isa::pb::Buffer &b, const Product &weights,
                 const Product &activations, uint64_t &fill) {
  const isa::MxmSpec &m = s.chip.mxm;
  const uint64_t width = std::max(widthOf(a), widthOf(b));
  auto isFp8 = [](const isa::pb::Buffer &t) {
    auto d = static_cast<isa::DType>(t.dtype());
    return d == isa::DType::F8E4M3 || d == isa::DType::F8E5M2;
  };
  const uint64_t perVector = width <= 1 ? (isFp8(a) || isFp8(b)
                                               ? m.cyclesPerVectorFp8
                                               : m.cyclesPerVectorInt8)
                             : width == 2 ? m.cyclesPerVector16
                                          : m.cyclesPerVector32;
  auto install = [&](const isa::pb::Buffer &t) {
    return uint64_t(m.weightLoadCycles) * std::max<uint64_t>(widthOf(t), 1);
  };
  uint64_t span = planeSpan(m, weights, perVector, install(b));
  fill = install(b);
  if (m.eitherOperandStationary) {
    const uint64_t other = planeSpan(m, activations, perVector, install(a));
    if (other < span)
      span = other, fill = install(a);
  }
  return s.atLeast(span);
}

/// [.., M, K] x [.., K, N]: the weights stationary stream A's rows, the
/// activations stationary (A^T installed) stream B's columns; a stationary
/// operand shared by every batch streams all their rows.
uint64_t matmulSpan(const Streams &s, uint64_t &fill) {
  const isa::pb::Buffer &a = s.p.buffers(int(s.inst.operands(0)));
  const isa::pb::Buffer &b = s.p.buffers(int(s.inst.operands(1)));
  const int ra = a.shape_size(), rb = b.shape_size(), rr = s.out->shape_size();
  const uint64_t M = ra >= 2 ? dim(a.shape(ra - 2)) : 1;
  const uint64_t K = ra >= 1 ? dim(a.shape(ra - 1)) : 1;
  const uint64_t N = rb >= 2 ? dim(b.shape(rb - 1)) : 1;
  const uint64_t batchA = ra > 2 ? extent(a, 0, ra - 2) : 1;
  const uint64_t batchB = rb > 2 ? extent(b, 0, rb - 2) : 1;
  const uint64_t batch =
      rr > 2 ? extent(*s.out, 0, rr - 2) : std::max(batchA, batchB);
  const Product weights = batchB <= 1 ? Product{1, batch * M, K, N}
                                      : Product{batch, M, K, N};
  const Product activations = batchA <= 1 ? Product{1, batch * N, K, M}
                                          : Product{batch, N, K, M};
  return mxmSpan(s, a, b, weights, activations, fill);
}

/// A convolution is its im2col product per group: [N * out positions,
/// C/g * kernel] x [C/g * kernel, M/g]; a transposed one multiplies every
/// input position by W^T, [N * in positions, C/g] x [C/g, M/g * kernel].
uint64_t convSpan(const Streams &s, uint64_t &fill) {
  const isa::pb::Buffer &x = s.p.buffers(int(s.inst.operands(0)));
  const isa::pb::Buffer &w = s.p.buffers(int(s.inst.operands(1)));
  const int rank = x.shape_size();
  if (rank < 3 || w.shape_size() != rank || s.out->shape_size() != rank)
    return s.atLeast(1);
  uint64_t group, rows, k, m;
  if (s.op == Opcode::Conv) {
    group = w.shape(0) > 0 && x.shape(1) > 0 && w.shape(1) > 0
                ? std::max<uint64_t>(dim(x.shape(1)) / dim(w.shape(1)), 1)
                : 1;
    rows = dim(s.out->shape(0)) * extent(*s.out, 2, rank);
    k = extent(w, 1, rank);
    m = std::max<uint64_t>(dim(w.shape(0)) / group, 1);
  } else {
    group = uint64_t(std::max<int64_t>(s.inst.attributes().conv().group(), 1));
    rows = dim(x.shape(0)) * extent(x, 2, rank);
    k = std::max<uint64_t>(dim(w.shape(0)) / group, 1);
    m = extent(w, 1, rank);
  }
  return mxmSpan(s, x, w, Product{group, rows, k, m},
                 Product{group, m, k, rows}, fill);
}

uint64_t mxmInstructionSpan(const Streams &s, uint64_t &fill) {
  if (s.inst.operands_size() != 2)
    return 1;
  return s.op == Opcode::MatMul ? matmulSpan(s, fill) : convSpan(s, fill);
}

/// Result vector i from operand vectors i alone, on the stream units.
bool elementwiseOp(Opcode op) {
  switch (op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div:
  case Opcode::Pow: case Opcode::Where: case Opcode::Sqrt: case Opcode::Neg:
  case Opcode::Relu: case Opcode::Sigmoid: case Opcode::Tanh:
  case Opcode::Cast: case Opcode::Unary: case Opcode::Binary:
  case Opcode::Copy:
    return true;
  default:
    return false;
  }
}

} // namespace

VectorPlan lpx::sim::planInstruction(const isa::ChipSpec &chip,
                                     const isa::pb::Program &p,
                                     const isa::pb::Instruction &inst) {
  const Streams s(chip, p, inst);
  VectorPlan plan;
  plan.readsInStep = elementwiseOp(s.op);
  plan.streamsResult = plan.readsInStep;
  plan.unitBytes = chip.vector.bytes;
  plan.units = s.vectors(*s.out);
  const std::string &name = isa::unitOpName(s.op, inst.attributes());
  const uint64_t transport = chip.stream.transportCycles;
  switch (isa::unitOf(s.op)) {
  case isa::Unit::C2C: {
    // Flits dealt out over the pair's parallel links, each striped over
    // its lanes, then the hop's flight.
    const isa::LinkRate rate =
        isa::linkRate(chip, p.num_nodes(), inst.node(), inst.link());
    const uint64_t bytes = s.in.empty() ? s.out->bytes() : s.in.front()->bytes();
    plan.unitBytes = std::max<uint32_t>(chip.link.flitPayload, 1);
    plan.units = std::max<uint64_t>(divUp(bytes, plan.unitBytes), 1);
    const double wire =
        double(divUp(plan.units, std::max<uint32_t>(rate.links, 1))) *
        chip.link.flitBytes;
    plan.span = std::max<uint64_t>(
        uint64_t(std::ceil(wire / std::max(rate.bytesPerCycle, 1e-9))), 1);
    plan.depth = rate.latency;
    plan.streamsResult = true; // flit by flit
    return plan;
  }
  case isa::Unit::MXM:
    // ASSUMPTION (docs/simulator.md, "Chaining"): the tiles are ordered so
    // that result vectors leave the array in order at an even pace after
    // the first install.
    plan.span = mxmInstructionSpan(s, plan.fill);
    plan.fill = std::min(plan.fill, plan.span);
    plan.depth = chip.mxm.latency + transport;
    plan.streamsResult = true;
    return plan;
  case isa::Unit::MEM:
    plan.span = throughQueue(s, s.longest(), chip.mem.vectorsPerCycle);
    plan.depth = chip.mem.latencyOf(name) + transport;
    return plan;
  case isa::Unit::SXM:
    plan.span = throughQueue(s, sxmWork(s), chip.sxm.vectorsPerCycle);
    plan.depth = chip.sxm.latencyOf(name) + transport;
    return plan;
  case isa::Unit::VXM: {
    const uint64_t passes = vxmPasses(s);
    plan.passes = passes;
    plan.span = s.op == Opcode::Pool   ? poolSpan(s)
                : s.op == Opcode::TopK ? topKSpan(s)
                                       : throughAlus(s, passes);
    plan.depth = chip.vxm.latencyOf(name) + transport;
    return plan;
  }
  }
  return plan;
}

bool lpx::sim::readsOperandInStep(const isa::pb::Program &p,
                                  const isa::pb::Instruction &inst,
                                  const VectorPlan &plan, uint32_t operand) {
  return plan.readsInStep && elementsOf(p.buffers(int(operand))) ==
                                 elementsOf(p.buffers(int(inst.result())));
}
