//===- RecurrentUnroller.h - RNN, GRU and LSTM unrolled at import -*- C++ -*-===//
//
// The unroller of one recurrent node (RecurrentImporters.cpp has the
// equations and the unrolling; RecurrentInputs.cpp reads the node's inputs
// and attributes and prepares each direction's weights and states).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_IMPORT_ONNX_RECURRENTUNROLLER_H
#define LPX_IMPORT_ONNX_RECURRENTUNROLLER_H

#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include <map>
#include <string>
#include <vector>

namespace lpx::onnximport::recurrent {

// The unroller builds lpx_graph ops on MLIR values throughout (this header
// is private to the two files that define it).
using namespace mlir;
using namespace lpx::graph;

enum class Cell { RNN, GRU, LSTM };

/// One activation function with its parameters resolved.
struct Activation {
  std::string name; // canonical ONNX spelling
  double alpha = 0, beta = 0;
};

/// The recurrence of one direction, as the unrolled steps need it.
struct Direction {
  bool reverse = false;
  Value rt;  // R^T [hidden, gates*hidden] (GRU without lbr: z and r only)
  Value rhT; // GRU without linear_before_reset: Rh^T [hidden, hidden]
  Value rbh;                // GRU with linear_before_reset: Rbh [1, hidden]
  Value pi, po, pf;         // LSTM peepholes [1, hidden], null if absent
  Value h0, c0;             // initial states [batch, hidden]
  std::vector<Activation> acts; // f (, g (, h))
};

class Unroller {
public:
  Unroller(NodeContext &n, Cell cell) : n(n), cell(cell) {}
  LogicalResult run();

private:
  NodeContext &n;
  Cell cell;
  int64_t perDir = 1; // activations per direction
  std::string direction = "forward";
  Value x, w, r, bias, peep; // bias and peepholes may be null
  Value h0, c0;              // initial states as given; may be null
  std::vector<Activation> acts;
  /// The outputs by direction: Y [seq, 1, batch, hidden], Y_h and Y_c
  /// [batch, hidden].
  SmallVector<Value> ySeqs, hLast, cLast;

  // --- the steps of run() -------------------------------------------------
  LogicalResult readShapesAndAttributes();
  LogicalResult readSequenceLens();
  LogicalResult readOptionalInputs();
  FailureOr<Direction> prepareDirection(int64_t d, Value xs, Value &xw);
  void unrollDirection(const Direction &dir, Value xw, bool wantY);
  Value permuteSteps(Value v, ArrayRef<int64_t> perm, ArrayRef<int64_t> shape);
  void setOutputs(bool wantY);
  Type elt;
  int64_t seq = 0, batch = 0, inputSize = 0, hidden = 0, dirs = 1;
  int64_t gates = 1;
  bool layout1 = false, lbr = false, inputForget = false;
  std::optional<double> clip;
  std::vector<int64_t> lens; // per batch entry; all `seq` when absent

  // --- small builders -----------------------------------------------------
  Value splat(ArrayRef<int64_t> shape, double v) {
    auto t = n.tensorOf(shape, elt);
    return n.create<ConstantOp>(DenseElementsAttr::get(t, FloatAttr::get(elt, v)));
  }
  /// A scalar constant, built once per value.
  Value scalar(double v) {
    Value &c = scalars[v];
    if (!c)
      c = splat({}, v);
    return c;
  }
  std::map<double, Value> scalars;
  /// The cell equations read as expressions: run() fails when one of
  /// their ops was rejected.
  ExpressionBuilder expr{n};
  template <typename OpT, typename... Args>
  Value build(Value fallback, Args &&...args) {
    return expr.build<OpT>(fallback, std::forward<Args>(args)...);
  }
  Value binary(char op, Value a, Value b) {
    return op == '+'   ? build<AddOp>(a, a, b)
           : op == '-' ? build<SubOp>(a, a, b)
                       : build<MulOp>(a, a, b);
  }
  Value add(Value a, Value b) { return binary('+', a, b); }
  Value sub(Value a, Value b) { return binary('-', a, b); }
  Value mul(Value a, Value b) { return binary('*', a, b); }
  Value matmul(Value a, Value b) { return build<MatMulOp>(a, a, b); }
  /// Unit-step slice of `v` at `starts` with result shape `sizes`.
  Value slice(Value v, ArrayRef<int64_t> starts, ArrayRef<int64_t> sizes) {
    SmallVector<int64_t> steps(starts.size(), 1);
    auto t = n.typeOf(v);
    return n.create<SliceOp>(n.tensorOf(sizes, t.getElementType()), v,
                             n.builder().getDenseI64ArrayAttr(starts),
                             n.builder().getDenseI64ArrayAttr(steps));
  }
  /// Columns [start, start+count) of a 2-D value.
  Value cols(Value v, int64_t start, int64_t count) {
    return slice(v, {0, start}, {n.typeOf(v).getDimSize(0), count});
  }
  /// Row `d` of a 2-D [dirs, k] value, columns [start, start+count): [1, count].
  Value rowPart(Value v, int64_t d, int64_t start, int64_t count) {
    return slice(v, {d, start}, {1, count});
  }
  /// Direction `d` of a 3-D [dirs, batch, hidden] state: [batch, hidden].
  Value stateOf(Value v, int64_t d) {
    auto s = n.typeOf(v).getShape();
    return n.reshape(slice(v, {d, 0, 0}, {1, s[1], s[2]}), {s[1], s[2]});
  }
  Value transpose(Value v, ArrayRef<int64_t> perm) {
    return build<TransposeOp>(v, v, perm);
  }

  Value unary(Value x, llvm::StringRef fn, ArrayRef<double> params) {
    return n.create<UnaryFnOp>(x.getType(), x, n.builder().getStringAttr(fn),
                               n.builder().getDenseF64ArrayAttr(params));
  }
  /// `a` applied to `x`, after the clip when the node has one.
  Value activate(const Activation &a, Value x);

  // --- operands -------------------------------------------------------------
  FailureOr<std::vector<Activation>> activations(int64_t perDir);
  /// Rows [row, row+count) of direction `d` of weight input `i`
  /// ([dirs, gates*hidden, k]), transposed: [k, count]. A constant is
  /// transposed at compile time.
  FailureOr<Value> weightT(unsigned i, int64_t d, int64_t row, int64_t count);
  /// Input `i` as [dirs, batch, hidden] (layout 1 transposed), or null.
  FailureOr<Value> initialState(unsigned i);

  // --- the gate equations, one step each ------------------------------------
  /// Ht = f(Xt*Wi^T + Ht-1*Ri^T + Wbi + Rbi); `xw` holds the input part.
  Value rnnStep(const Direction &dir, Value xw, Value h);
  /// zt, rt, ht and Ht = (1 - zt) (.) ht + zt (.) Ht-1.
  Value gruStep(const Direction &dir, Value xw, Value h);
  /// it, ft, ct, Ct, ot and Ht = ot (.) h(Ct); returns {Ht, Ct}.
  std::pair<Value, Value> lstmStep(const Direction &dir, Value xw, Value h,
                                   Value c);

  /// Where batch entries are active at step `s` (s < len) keep `fresh`,
  /// elsewhere `old` (a null `old` means zero).
  Value masked(int64_t s, Value fresh, Value old);
};

} // namespace lpx::onnximport::recurrent

#endif
