//===- EinsumImporter.cpp - ONNX Einsum as transposes, matmuls, sums ------===//
//
// The equation is parsed into one label per dimension (Einsum.h). Each
// operand first loses its repeated labels (a diagonal: the two dims moved
// last, flattened, and sliced with step n + 1) and its size-1 dims that
// broadcast against a larger dim of the same label elsewhere. Then the
// operands are folded left to right: labels no later operand and not the
// output need are summed out, the rest is one batched matmul
// [batch, left, contracted] x [batch, contracted, right] (or a broadcasting
// multiply when nothing is contracted). The result is summed and transposed
// into the output's order.
//
//===----------------------------------------------------------------------===//
#include "Einsum.h"
#include "OpImporters.h"
#include "Tensors.h"

#include "lpx/Dialect/Graph/IR/GraphOps.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>

using namespace mlir;
using namespace lpx::graph;

namespace lpx::onnximport {

//===----------------------------------------------------------------------===//
// Equation parsing
//===----------------------------------------------------------------------===//

namespace {

llvm::Error parseError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// One term: the letters before and after its "..." (all of them in
/// `before` when there is none).
struct Term {
  std::vector<int> before, after;
  bool ellipsis = false;
  size_t letters() const { return before.size() + after.size(); }
};

llvm::Expected<Term> parseTerm(llvm::StringRef s) {
  Term t;
  for (size_t i = 0; i < s.size();) {
    if (s.substr(i).starts_with("...")) {
      if (t.ellipsis)
        return parseError("term '" + s + "' has more than one '...'");
      t.ellipsis = true;
      i += 3;
      continue;
    }
    char c = s[i];
    if (!std::isalpha(static_cast<unsigned char>(c)))
      return parseError("term '" + s + "': '" + llvm::Twine(c) +
                        "' is not a label (letters and '...' only)");
    (t.ellipsis ? t.after : t.before).push_back(c);
    ++i;
  }
  return t;
}

std::string labelName(int l) {
  if (l >= kEllipsisLabel)
    return "...[" + std::to_string(l - kEllipsisLabel) + "]";
  return std::string(1, char(l));
}

} // namespace

llvm::Expected<EinsumEquation>
parseEinsumEquation(llvm::StringRef equation, llvm::ArrayRef<int64_t> ranks) {
  std::string eq;
  for (char c : equation)
    if (!std::isspace(static_cast<unsigned char>(c)))
      eq.push_back(c);
  llvm::StringRef lhs = eq, rhs;
  bool explicitOutput = false;
  if (size_t arrow = lhs.find("->"); arrow != llvm::StringRef::npos) {
    rhs = lhs.substr(arrow + 2);
    lhs = lhs.substr(0, arrow);
    explicitOutput = true;
    if (rhs.contains("->"))
      return parseError("equation '" + equation + "' has more than one '->'");
  }
  llvm::SmallVector<llvm::StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return parseError("equation '" + equation + "' has " +
                      llvm::Twine(terms.size()) + " input terms for " +
                      llvm::Twine(ranks.size()) + " operands");
  std::vector<Term> parsed;
  int64_t widest = 0;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto t = parseTerm(terms[i]);
    if (!t)
      return t.takeError();
    int64_t letters = static_cast<int64_t>(t->letters());
    if (t->ellipsis ? letters > ranks[i] : letters != ranks[i])
      return parseError("term '" + terms[i] + "' has " + llvm::Twine(letters) +
                        " labels for operand " + llvm::Twine(i) + " of rank " +
                        llvm::Twine(ranks[i]));
    if (t->ellipsis)
      widest = std::max(widest, ranks[i] - letters);
    parsed.push_back(std::move(*t));
  }

  EinsumEquation r;
  std::map<int, int> uses;
  for (size_t i = 0; i < parsed.size(); ++i) {
    const Term &t = parsed[i];
    std::vector<int> labels = t.before;
    if (t.ellipsis) {
      int64_t e = ranks[i] - static_cast<int64_t>(t.letters());
      for (int64_t j = 0; j < e; ++j)
        labels.push_back(kEllipsisLabel + int(widest - e + j));
    }
    llvm::append_range(labels, t.after);
    for (int l : t.before)
      ++uses[l];
    for (int l : t.after)
      ++uses[l];
    r.inputs.push_back(std::move(labels));
  }
  auto ellipsisLabels = [&](std::vector<int> &out) {
    for (int64_t j = 0; j < widest; ++j)
      out.push_back(kEllipsisLabel + int(j));
  };
  if (!explicitOutput) {
    ellipsisLabels(r.output);
    for (auto [label, count] : uses) // std::map: sorted by character code
      if (count == 1)
        r.output.push_back(label);
    return r;
  }
  auto out = parseTerm(rhs);
  if (!out)
    return out.takeError();
  r.output = out->before;
  if (out->ellipsis)
    ellipsisLabels(r.output);
  llvm::append_range(r.output, out->after);
  std::set<int> seen;
  for (int l : r.output) {
    if (l < kEllipsisLabel && !uses.count(l))
      return parseError("output label '" + labelName(l) +
                        "' is in no input term");
    if (!seen.insert(l).second)
      return parseError("output label '" + labelName(l) + "' repeats");
  }
  return r;
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

namespace {

/// A value with one label per dimension.
struct Labeled {
  Value v;
  std::vector<int> labels;
};

class EinsumLowering {
public:
  explicit EinsumLowering(NodeContext &n) : n(n) {}

  /// Moves the dims into the order of `order` (a permutation of labels).
  void permute(Labeled &x, const std::vector<int> &order) {
    if (order == x.labels)
      return;
    SmallVector<int64_t> perm;
    for (int l : order)
      perm.push_back(llvm::find(x.labels, l) - x.labels.begin());
    x.v = expr.build<TransposeOp>(x.v, x.v, perm);
    x.labels = order;
  }

  /// Sums over the dims whose label `drop` selects.
  template <typename Pred> void sumOut(Labeled &x, Pred drop) {
    SmallVector<int64_t> axes;
    std::vector<int> kept;
    for (size_t d = 0; d < x.labels.size(); ++d) {
      if (drop(x.labels[d]))
        axes.push_back(int64_t(d));
      else
        kept.push_back(x.labels[d]);
    }
    if (axes.empty())
      return;
    x.v = n.create<ReduceOp>(x.v, "sum", axes, /*keepdims=*/false);
    x.labels = std::move(kept);
  }

  /// Replaces every label that repeats within `x` by its diagonal.
  LogicalResult takeDiagonals(Labeled &x) {
    for (;;) {
      int label = -1;
      for (size_t i = 0; i < x.labels.size() && label < 0; ++i)
        if (llvm::count(x.labels, x.labels[i]) > 1)
          label = x.labels[i];
      if (label < 0)
        return success();
      ArrayRef<int64_t> in = n.typeOf(x.v).getShape();
      int64_t size = -1;
      for (size_t d = 0; d < x.labels.size(); ++d) {
        if (x.labels[d] != label)
          continue;
        if (size >= 0 && in[d] != size)
          return n.fail("label '" + labelName(label) + "' has sizes " +
                        llvm::Twine(size) + " and " + llvm::Twine(in[d]) +
                        " in one operand");
        size = in[d];
      }
      // Transpose needs distinct labels: move two occurrences last by
      // position, then flatten them and take every (size + 1)-th element.
      SmallVector<int64_t> perm, shape;
      int taken = 0;
      for (size_t d = 0; d < x.labels.size(); ++d)
        if (x.labels[d] != label || taken == 2)
          perm.push_back(int64_t(d));
        else
          ++taken;
      std::vector<int> rest;
      for (int64_t p : perm)
        rest.push_back(x.labels[p]);
      taken = 0;
      for (size_t d = 0; d < x.labels.size() && taken < 2; ++d)
        if (x.labels[d] == label) {
          perm.push_back(int64_t(d));
          ++taken;
        }
      for (int64_t p : perm)
        shape.push_back(in[p]);
      Type elt = n.typeOf(x.v).getElementType();
      Value v = x.v;
      if (!llvm::equal(perm, llvm::seq<int64_t>(0, int64_t(perm.size()))))
        v = expr.build<TransposeOp>(v, v, perm);
      SmallVector<int64_t> flat(shape.begin(), shape.end() - 2);
      flat.push_back(size * size);
      v = n.reshape(v, flat);
      SmallVector<int64_t> starts(flat.size(), 0), steps(flat.size(), 1);
      steps.back() = size + 1;
      SmallVector<int64_t> diag(flat.begin(), flat.end() - 1);
      diag.push_back(size);
      x.v = n.create<SliceOp>(n.tensorOf(diag, elt), v,
                              n.builder().getDenseI64ArrayAttr(starts),
                              n.builder().getDenseI64ArrayAttr(steps));
      rest.push_back(label);
      x.labels = std::move(rest);
    }
  }

  /// Drops size-1 dims whose label is larger elsewhere (numpy broadcasting:
  /// the operand is constant along that label).
  void dropBroadcastDims(Labeled &x, const std::map<int, int64_t> &sizes) {
    ArrayRef<int64_t> in = n.typeOf(x.v).getShape();
    SmallVector<int64_t> shape;
    std::vector<int> kept;
    for (size_t d = 0; d < x.labels.size(); ++d) {
      if (in[d] == 1 && sizes.at(x.labels[d]) > 1)
        continue;
      shape.push_back(in[d]);
      kept.push_back(x.labels[d]);
    }
    x.v = n.reshape(x.v, shape);
    x.labels = std::move(kept);
  }

  int64_t sizeOf(const Labeled &x, int label) {
    return n.typeOf(x.v).getDimSize(llvm::find(x.labels, label) -
                                    x.labels.begin());
  }

  /// One batched matmul (or broadcasting multiply) of two operands; labels
  /// in `keep` survive, shared labels not in it are contracted.
  Labeled contract(Labeled a, Labeled b, const std::set<int> &keep) {
    auto in = [](const Labeled &x, int l) { return llvm::is_contained(x.labels, l); };
    sumOut(a, [&](int l) { return !in(b, l) && !keep.count(l); });
    sumOut(b, [&](int l) { return !in(a, l) && !keep.count(l); });
    std::vector<int> batch, left, summed, right;
    for (int l : a.labels) {
      if (!in(b, l))
        left.push_back(l);
      else if (keep.count(l))
        batch.push_back(l);
      else
        summed.push_back(l);
    }
    for (int l : b.labels)
      if (!in(a, l))
        right.push_back(l);
    auto sizes = [&](const Labeled &x, const std::vector<int> &ls) {
      SmallVector<int64_t> s;
      for (int l : ls)
        s.push_back(sizeOf(x, l));
      return s;
    };
    SmallVector<int64_t> bs = sizes(a, batch), ls = sizes(a, left),
                         ks = sizes(a, summed), rs = sizes(b, right);
    std::vector<int> aOrder = batch, bOrder = batch;
    llvm::append_range(aOrder, left);
    llvm::append_range(aOrder, summed);
    llvm::append_range(bOrder, summed);
    llvm::append_range(bOrder, right);
    permute(a, aOrder);
    permute(b, bOrder);
    int64_t B = product(bs), M = product(ls), K = product(ks), N = product(rs);
    Value product3;
    if (summed.empty()) {
      Value a3 = n.reshape(a.v, {B, M, 1}), b3 = n.reshape(b.v, {B, 1, N});
      product3 = expr.build<MulOp>(a3, a3, b3);
    } else {
      Value a3 = n.reshape(a.v, {B, M, K}), b3 = n.reshape(b.v, {B, K, N});
      product3 = expr.build<MatMulOp>(a3, a3, b3);
    }
    SmallVector<int64_t> shape(bs);
    shape.append(ls.begin(), ls.end());
    shape.append(rs.begin(), rs.end());
    std::vector<int> labels = batch;
    llvm::append_range(labels, left);
    llvm::append_range(labels, right);
    return {n.reshape(product3, shape), labels};
  }

  LogicalResult run() {
    auto operands = n.presentInputs();
    if (failed(operands))
      return failure();
    const onnx::AttributeProto *eqAttr = n.attr("equation");
    if (!eqAttr)
      return n.fail("attribute 'equation' is missing");
    SmallVector<int64_t> ranks;
    Type elt = n.typeOf((*operands)[0]).getElementType();
    for (Value v : *operands) {
      ranks.push_back(n.typeOf(v).getRank());
      if (n.typeOf(v).getElementType() != elt)
        return n.fail("operands have different element types");
    }
    if (elt.isInteger(1))
      return n.fail("bool operands are not supported");
    auto eq = parseEinsumEquation(eqAttr->s(), ranks);
    if (!eq)
      return n.fail("equation '" + eqAttr->s() +
                    "': " + llvm::toString(eq.takeError()));

    std::vector<Labeled> ops;
    for (size_t i = 0; i < operands->size(); ++i) {
      Labeled x{(*operands)[i], eq->inputs[i]};
      if (failed(takeDiagonals(x)) || expr.rejected())
        return failure();
      ops.push_back(std::move(x));
    }
    std::map<int, int64_t> sizes;
    for (const Labeled &x : ops)
      for (size_t d = 0; d < x.labels.size(); ++d) {
        int64_t s = n.typeOf(x.v).getDimSize(d);
        auto [it, fresh] = sizes.emplace(x.labels[d], s);
        if (!fresh && it->second != s && it->second != 1 && s != 1)
          return n.fail("label '" + labelName(x.labels[d]) + "' has sizes " +
                        llvm::Twine(it->second) + " and " + llvm::Twine(s));
        it->second = std::max(it->second, s);
      }
    for (Labeled &x : ops)
      dropBroadcastDims(x, sizes);

    std::set<int> outSet(eq->output.begin(), eq->output.end());
    Labeled acc = ops[0];
    for (size_t i = 1; i < ops.size(); ++i) {
      std::set<int> keep = outSet;
      for (size_t j = i + 1; j < ops.size(); ++j)
        keep.insert(ops[j].labels.begin(), ops[j].labels.end());
      acc = contract(acc, ops[i], keep);
      if (expr.rejected()) // acc's shape no longer matches its labels
        return failure();
    }
    sumOut(acc, [&](int l) { return !outSet.count(l); });
    permute(acc, eq->output);
    if (expr.rejected())
      return failure();
    n.setOutput(0, acc.v == (*operands)[0] ? n.copy(acc.v) : acc.v);
    return success();
  }

private:
  NodeContext &n;
  /// The contractions read as expressions: run() fails when one of their
  /// ops was rejected.
  ExpressionBuilder expr{n};
};

LogicalResult importEinsum(NodeContext &n) { return EinsumLowering(n).run(); }

} // namespace

void addEinsumImporter(llvm::StringMap<OpImporter> &table) {
  table["Einsum"] = importEinsum;
}

} // namespace lpx::onnximport
