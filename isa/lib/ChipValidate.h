//===- ChipValidate.h - The checks of each section of a chip -*- C++ -*-===//
//
// One function per section, each returning the message for the first
// impossible value or "" (and filling the optional keys' defaults). The YAML
// parser calls them from its section hooks, so a file's error names its line;
// validateChipSpec (ChipSpec.h) calls them in the same order for a spec that
// was edited in memory (`--set`).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_LIB_CHIPVALIDATE_H
#define LPX_ISA_LIB_CHIPVALIDATE_H

#include "lpx/isa/ChipSpec.h"
#include "lpx/isa/Opcode.h"
#include <string>

namespace lpx::isa::validate {

std::string sram(SramSpec &s);
std::string vector(VectorSpec &s);
std::string mxm(MxmSpec &s);
std::string streamUnit(const char *unitKey, Unit unit, const StreamUnitSpec &s);
std::string vxm(VxmSpec &s);
std::string link(LinkSpec &s);
std::string topology(TopologySpec &s);
std::string host(HostSpec &s);
std::string formats(FormatsSpec &s);
/// What spans sections (run last): clock, sxm and mem, stream registers,
/// the SRAM against one vector.
std::string chip(ChipSpec &s);

} // namespace lpx::isa::validate

#endif
