//===- NumberFormats.h - The number formats a compile can hold values in -===//
//
// `lpx compile --weights/--activations` name formats ("fp16", "fp8e4m3",
// ...); a program records the ones it was compiled with
// (Program.weights_format / activations_format) so that `lpx run` can
// compare with their tolerances. This is the one table from those names to
// element types.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_NUMBERFORMATS_H
#define LPX_ISA_NUMBERFORMATS_H

#include "lpx/isa/DType.h"
#include <optional>
#include <string_view>

namespace lpx::isa {

/// The element type of a floating-point format name ("fp32", "fp16", "bf16",
/// "fp8e4m3", "fp8e5m2"); none for any other name (also "int8").
std::optional<DType> floatFormatType(std::string_view name);

/// Whether `name` may be recorded as a program's weight format (the float
/// formats and "int8") or, with `weights` false, activation format (the
/// float formats); empty (the model's own) always may.
bool isRecordableFormat(std::string_view name, bool weights);

} // namespace lpx::isa

#endif
