//===- HostTensor.h - A tensor in host memory -------------------*- C++ -*-===//
//
// The value type of the runtime's interface: model inputs, outputs and test
// data. Elements are raw little-endian bytes in row-major order; the element
// type uses ONNX numbering (isa::DType) so it compares directly with buffers.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_RUNTIME_HOSTTENSOR_H
#define LPX_RUNTIME_HOSTTENSOR_H

#include "lpx/isa/DType.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>
#include <vector>

namespace lpx::rt {

struct HostTensor {
  std::string name;
  isa::DType dtype = isa::DType::Undefined;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;

  /// Product of the dimensions (1 for a scalar).
  uint64_t elements() const {
    uint64_t n = 1;
    for (int64_t d : shape)
      n *= static_cast<uint64_t>(d);
    return n;
  }
};

/// `t` with its elements converted to `to` (rounded to nearest even; see
/// the runtime's cast). The host's side of a program whose inputs and
/// outputs are in a reduced format: fp32 data in, results widened back.
llvm::Expected<HostTensor> convertTensor(const HostTensor &t, isa::DType to);

} // namespace lpx::rt

#endif
