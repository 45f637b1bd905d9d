//===- Perturb.h - Deliberately broken schedules ----------------*- C++ -*-===//
//
// Moving an instruction earlier than the compiler scheduled it is how one
// shows (`lpx perturb`, docs/tutorial.md) and tests (BrokenScheduleTest)
// that the simulator catches a schedule the chip could not run.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_ISA_PERTURB_H
#define LPX_ISA_PERTURB_H

#include "program.pb.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace lpx::isa {

/// Moves instruction `index` `cycles` earlier, a send's declared arrival
/// with it (the flight time stays what was declared), and keeps the list
/// sorted by issue cycle. Returns the instruction's new index. Requires
/// index < instructions_size() and issue >= cycles.
int moveEarlier(pb::Program &p, int index, uint64_t cycles);

/// moveEarlier with its requirements checked: an error names an
/// instruction that does not exist or issues before cycle `cycles`.
llvm::Expected<int> checkedMoveEarlier(pb::Program &p, uint64_t index,
                                       uint64_t cycles);

/// "moved instruction I (MNEMONIC[ ORIGIN], node N) from cycle F to T[, now
/// instruction A]": what checkedMoveEarlier did to instruction `index`,
/// moved `cycles` earlier and now at `at` of `p`.
std::string describeMove(const pb::Program &p, uint64_t index,
                         uint64_t cycles, int at);

} // namespace lpx::isa

#endif
