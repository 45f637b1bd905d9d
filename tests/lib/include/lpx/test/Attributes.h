//===- Attributes.h - Typed instruction attributes in one line --*- C++ -*-===//
//
// Builders of pb::Attributes for tests that write instructions by hand, one
// per attribute message of program.proto.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_TEST_ATTRIBUTES_H
#define LPX_TEST_ATTRIBUTES_H

#include "lpx/isa/Attributes.h"
#include "lpx/isa/ElementwiseFunctions.h"
#include "gtest/gtest.h"
#include "llvm/ADT/bit.h"

#include <algorithm>
#include <vector>

namespace lpx::test {
namespace pb = lpx::isa::pb;
using Ints = std::vector<int64_t>;

inline void fill(google::protobuf::RepeatedField<int64_t> *to, const Ints &v) {
  to->Add(v.begin(), v.end());
}

inline pb::Attributes axisAttrs(int64_t axis) {
  pb::Attributes a;
  a.mutable_axis()->set_axis(axis);
  return a;
}
inline pb::Attributes axesAttrs(const Ints &axes) {
  pb::Attributes a;
  fill(a.mutable_axes()->mutable_axes(), axes);
  return a;
}
inline pb::Attributes transposeAttrs(const Ints &perm) {
  pb::Attributes a;
  fill(a.mutable_transpose()->mutable_perm(), perm);
  return a;
}
inline pb::Attributes sliceAttrs(const Ints &starts, const Ints &steps) {
  pb::Attributes a;
  fill(a.mutable_slice()->mutable_starts(), starts);
  fill(a.mutable_slice()->mutable_steps(), steps);
  return a;
}
inline pb::Attributes unaryAttrs(isa::UnaryFn fn,
                                 const std::vector<double> &params = {}) {
  pb::Attributes a;
  a.mutable_unary()->set_fn(uint32_t(fn));
  for (double p : params)
    a.mutable_unary()->add_params(p);
  return a;
}
inline pb::Attributes binaryAttrs(isa::BinaryFn fn) {
  pb::Attributes a;
  a.mutable_binary()->set_fn(uint32_t(fn));
  return a;
}
inline pb::Attributes reduceAttrs(isa::ReduceFn fn, const Ints &axes) {
  pb::Attributes a;
  a.mutable_reduce()->set_fn(uint32_t(fn));
  fill(a.mutable_reduce()->mutable_axes(), axes);
  return a;
}
inline pb::Attributes argReduceAttrs(isa::ArgReduceFn fn, int64_t axis,
                                     bool selectLast) {
  pb::Attributes a;
  a.mutable_arg_reduce()->set_fn(uint32_t(fn));
  a.mutable_arg_reduce()->set_axis(axis);
  a.mutable_arg_reduce()->set_select_last_index(selectLast);
  return a;
}
inline pb::Attributes cumSumAttrs(int64_t axis, bool exclusive, bool reverse) {
  pb::Attributes a;
  a.mutable_cumsum()->set_axis(axis);
  a.mutable_cumsum()->set_exclusive(exclusive);
  a.mutable_cumsum()->set_reverse(reverse);
  return a;
}
inline pb::Attributes padAttrs(pb::PadMode mode, double value,
                               const Ints &begin, const Ints &end) {
  pb::Attributes a;
  a.mutable_pad()->set_mode(mode);
  a.mutable_pad()->set_value(value);
  fill(a.mutable_pad()->mutable_begin(), begin);
  fill(a.mutable_pad()->mutable_end(), end);
  return a;
}
/// conv and conv_transpose (output_padding only for conv_transpose).
inline pb::Attributes convAttrs(int64_t group, const Ints &strides,
                                const Ints &dilations, const Ints &padsBegin,
                                const Ints &padsEnd,
                                const Ints &outputPadding = {}) {
  pb::Attributes a;
  pb::ConvAttrs *c = a.mutable_conv();
  c->set_group(group);
  fill(c->mutable_strides(), strides);
  fill(c->mutable_dilations(), dilations);
  fill(c->mutable_pads_begin(), padsBegin);
  fill(c->mutable_pads_end(), padsEnd);
  fill(c->mutable_output_padding(), outputPadding);
  return a;
}
inline pb::Attributes poolAttrs(pb::PoolKind kind, bool countIncludePad,
                                const Ints &kernel, const Ints &strides,
                                const Ints &dilations, const Ints &padsBegin,
                                const Ints &padsEnd) {
  pb::Attributes a;
  pb::PoolAttrs *p = a.mutable_pool();
  p->set_kind(kind);
  p->set_count_include_pad(countIncludePad);
  fill(p->mutable_kernel(), kernel);
  fill(p->mutable_strides(), strides);
  fill(p->mutable_dilations(), dilations);
  fill(p->mutable_pads_begin(), padsBegin);
  fill(p->mutable_pads_end(), padsEnd);
  return a;
}
inline pb::Attributes topKAttrs(int64_t axis, int64_t k, bool largest,
                                bool sorted) {
  pb::Attributes a;
  pb::TopKAttrs *t = a.mutable_top_k();
  t->set_axis(axis);
  t->set_k(k);
  t->set_largest(largest);
  t->set_sorted(sorted);
  return a;
}
/// scatter_elements (scatter_nd: axis 0).
inline pb::Attributes scatterAttrs(int64_t axis, pb::ScatterReduction r) {
  pb::Attributes a;
  a.mutable_scatter()->set_axis(axis);
  a.mutable_scatter()->set_reduction(r);
  return a;
}
inline pb::Attributes gridSampleAttrs(pb::GridSampleMode mode,
                                      pb::GridSamplePadding padding,
                                      bool alignCorners) {
  pb::Attributes a;
  pb::GridSampleAttrs *g = a.mutable_grid_sample();
  g->set_mode(mode);
  g->set_padding(padding);
  g->set_align_corners(alignCorners);
  return a;
}

/// Test shorthand: the attributes of `op` from a flat list of their fields
/// in program.proto's declaration order. A scalar takes one value (a double
/// its IEEE-754 bit pattern, see bits()); the repeated fields share what is
/// left equally (scatter_nd's list has no axis, conv's no output_padding).
/// An empty list gives the message with its defaults. Fails the test on a list that does not fit.
inline pb::Attributes attributesFromList(isa::Opcode op, const Ints &flat) {
  using google::protobuf::FieldDescriptor;
  pb::Attributes a;
  const auto kind = isa::attributesCaseOf(op);
  if (kind == pb::Attributes::KIND_NOT_SET) {
    EXPECT_TRUE(flat.empty()) << isa::mnemonic(op) << " takes no attributes";
    return a;
  }
  const FieldDescriptor *which =
      pb::Attributes::descriptor()->FindFieldByNumber(int(kind));
  google::protobuf::Message *m =
      a.GetReflection()->MutableMessage(&a, which);
  const auto *desc = m->GetDescriptor();
  const auto *refl = m->GetReflection();
  if (flat.empty()) // the message with every field at its default
    return a;
  // scatter_nd has no axis and conv no output_padding.
  const int first = op == isa::Opcode::ScatterND ? 1 : 0;
  const int end = desc->field_count() - (op == isa::Opcode::Conv ? 1 : 0);
  size_t scalars = 0, lists = 0;
  for (int f = first; f < end; ++f)
    (desc->field(f)->is_repeated() ? lists : scalars) += 1;
  const size_t left = flat.size() - std::min(flat.size(), scalars);
  const size_t perList = lists ? left / lists : 0;
  EXPECT_EQ(perList * lists + scalars, flat.size())
      << isa::mnemonic(op) << ": attribute list does not fit";
  size_t next = 0;
  auto take = [&]() { return next < flat.size() ? flat[next++] : 0; };
  for (int f = first; f < end; ++f) {
    const FieldDescriptor *fd = desc->field(f);
    const size_t n = fd->is_repeated() ? perList : 1;
    for (size_t i = 0; i < n; ++i) {
      int64_t v = take();
      double d = llvm::bit_cast<double>(static_cast<uint64_t>(v));
      switch (fd->cpp_type()) {
      case FieldDescriptor::CPPTYPE_INT64:
        fd->is_repeated() ? refl->AddInt64(m, fd, v) : refl->SetInt64(m, fd, v);
        break;
      case FieldDescriptor::CPPTYPE_UINT32:
        refl->SetUInt32(m, fd, uint32_t(v));
        break;
      case FieldDescriptor::CPPTYPE_BOOL:
        refl->SetBool(m, fd, v != 0);
        break;
      case FieldDescriptor::CPPTYPE_ENUM:
        refl->SetEnumValue(m, fd, int(v));
        break;
      case FieldDescriptor::CPPTYPE_DOUBLE:
        fd->is_repeated() ? refl->AddDouble(m, fd, d) : refl->SetDouble(m, fd, d);
        break;
      default:
        ADD_FAILURE() << "unexpected attribute field type";
      }
    }
  }
  return a;
}

} // namespace lpx::test

#endif
