//===- BankWindows.cpp - SRAM bank accesses still in progress -------------===//
#include "BankWindows.h"

using namespace lpx::sim;

const BankAccess *BankWindows::findConflict(const BankAccess &access,
                                            uint64_t now) {
  // Every live window started at or before `now` (program order is issue
  // order), so it overlaps the new access in time exactly when it ends after
  // `now`; the ones that do not are removed in the same pass.
  const BankAccess *found = nullptr;
  size_t kept = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i].end <= now)
      continue;
    if (kept != i)
      live[kept] = live[i];
    const BankAccess &w = live[kept++];
    if (access.excludes(w) &&
        (found == nullptr || w.instruction < found->instruction))
      found = &w;
  }
  // `found` points into the kept prefix, which the resize does not move.
  live.resize(kept);
  return found;
}
