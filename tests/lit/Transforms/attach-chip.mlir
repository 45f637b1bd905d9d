// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" | FileCheck %s
// RUN: lpx-opt %s --lpx-attach-chip="chip=lpx3" | FileCheck %s --check-prefix=PRESET
// RUN: not lpx-opt %s --lpx-attach-chip="chip=no-such-chip" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not lpx-opt %s --lpx-partition="nodes=1" 2>&1 | FileCheck %s --check-prefix=NONE
// The attribute reads back as it was printed (parsed once, when read).
// RUN: lpx-opt %s --lpx-attach-chip="chip=%S/../Inputs/test-chip.yaml" | lpx-opt | FileCheck %s

// The parsed chip, printed as its resolved description (not the file name).
// CHECK: module attributes {lpx_part.chip = #lpx_part.chip<"---\0Aname:{{ +}}test-chip\0Adescription:{{ +}}small numbers
// PRESET: module attributes {lpx_part.chip = #lpx_part.chip<"---\0Aname:{{ +}}lpx3
// BAD: error: {{.*}}no-such-chip
// NONE: error: module has no chip description; run lpx-attach-chip first
module {
  func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
    return %a : tensor<4xf32>
  }
}
