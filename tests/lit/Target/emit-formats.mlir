// RUN: lpx-opt %s --lpx-compile="weights=fp8e4m3 activations=fp16 chip=%S/../Inputs/test-chip.yaml" | lpx-translate --emit-program-text | FileCheck %s
// RUN: lpx-opt %s --lpx-compile="chip=%S/../Inputs/test-chip.yaml" | lpx-translate --emit-program-text | FileCheck %s --check-prefix=OWN

// The formats lpx-convert-types was given travel to the program (format
// 3.3: Program.weights_format, activations_format), from which lpx run
// takes its tolerances; without them the program records none (the model's
// own formats) and the listing has no formats line.
// CHECK: for 1 node(s) of test-chip
// CHECK-NEXT: formats: weights fp8e4m3, activations fp16
// CHECK-NEXT: buffers:
// OWN: for 1 node(s) of test-chip
// OWN-NEXT: buffers:
func.func @mlp(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = lpx_graph.constant dense<[[0.1, 448.0], [1.0, -2.0]]> : tensor<2x2xf32>
  %b = lpx_graph.constant dense<[0.25, 1.0]> : tensor<2xf32>
  %0 = lpx_graph.matmul %x, %w : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %1 = lpx_graph.add %0, %b : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %1 : tensor<1x2xf32>
}
