//===- BankWindows.cpp - SRAM bank accesses still in progress -------------===//
#include "BankWindows.h"

using namespace lpx::sim;

const BankAccess *BankWindows::findConflict(const BankAccess &access,
                                            uint64_t now) {
  // Accesses are added in issue order and none starts before its issue, so
  // a window that ended at or before `now` can meet no later access and is
  // removed in the same pass. Windows may start after their issue (the
  // vector check's per-bank segments), so overlap is tested in full.
  const BankAccess *found = nullptr;
  size_t kept = 0;
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i].end <= now)
      continue;
    if (kept != i)
      live[kept] = live[i];
    const BankAccess &w = live[kept++];
    if (access.excludes(w) && w.start < access.end && access.start < w.end &&
        (found == nullptr || w.instruction < found->instruction))
      found = &w;
  }
  // `found` points into the kept prefix, which the resize does not move.
  live.resize(kept);
  return found;
}
