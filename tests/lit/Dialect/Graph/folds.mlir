// RUN: lpx-opt %s -canonicalize -split-input-file | FileCheck %s
// The lpx_graph fold() methods (GraphFolds.cpp): ops on constants evaluate
// at compile time, in the element type's precision; what the run-time op
// defines differently (division by zero, NaN in max/min, out-of-range casts)
// stays an op.

// An exporter's shape path: Shape (a constant) -> Gather -> Cast ->
// Concat -> used as a reshape target.
// CHECK-LABEL: func.func @shape_path
// CHECK-NEXT: %[[C:.*]] = lpx_graph.constant dense<[3, -1]> : tensor<2xi64>
// CHECK-NEXT: return %[[C]]
func.func @shape_path() -> tensor<2xi64> {
  %shape = lpx_graph.constant dense<[2, 3, 4]> : tensor<3xi64>
  %idx = lpx_graph.constant dense<1> : tensor<1xi64>
  %dim = lpx_graph.gather %shape, %idx {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %f = lpx_graph.cast %dim : tensor<1xi64> to tensor<1xf32>
  %i = lpx_graph.cast %f : tensor<1xf32> to tensor<1xi64>
  %m = lpx_graph.constant dense<-1> : tensor<1xi64>
  %cat = lpx_graph.concat %i, %m {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %cat : tensor<2xi64>
}

// -----

// Integer arithmetic with broadcasting; division truncates toward zero.
// CHECK-LABEL: func.func @int_arith
// CHECK-DAG: dense<[5, 6, 7]> : tensor<3xi64>
// CHECK-DAG: dense<[-7, 2, 3]> : tensor<3xi64>
// CHECK-DAG: dense<4> : tensor<3xi64>
// CHECK-DAG: dense<[true, false, false]> : tensor<3xi1>
// CHECK-NOT: lpx_graph.add
// CHECK-NOT: lpx_graph.div
// CHECK-NOT: lpx_graph.binary
func.func @int_arith() -> (tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi1>) {
  %a = lpx_graph.constant dense<[1, 2, 3]> : tensor<3xi64>
  %b = lpx_graph.constant dense<4> : tensor<1xi64>
  %c = lpx_graph.constant dense<[-7, 5, 9]> : tensor<3xi64>
  // -7 / 1, 5 / 2, 9 / 3
  %sum = lpx_graph.add %a, %b : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi64>
  %q = lpx_graph.div %c, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %mx = lpx_graph.binary "max" %a, %b : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi64>
  %mx2 = lpx_graph.binary "max" %mx, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %s2 = lpx_graph.add %mx2, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %s3 = lpx_graph.sub %s2, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi64>
  %eq = lpx_graph.binary "equal" %a, %a : (tensor<3xi64>, tensor<3xi64>) -> tensor<3xi1>
  %one = lpx_graph.constant dense<1> : tensor<1xi64>
  %e1 = lpx_graph.binary "equal" %a, %one : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi1>
  %n = lpx_graph.unary "not" %eq : (tensor<3xi1>) -> tensor<3xi1>
  %o = lpx_graph.binary "or" %n, %e1 : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  return %sum, %q, %s3, %o : tensor<3xi64>, tensor<3xi64>, tensor<3xi64>, tensor<3xi1>
}

// -----

// Where on shapes and an Expand (broadcast) of the result.
// CHECK-LABEL: func.func @where_expand
// CHECK-NEXT: lpx_graph.constant dense<{{\[}}[1, 7], [1, 7]]> : tensor<2x2xi64>
func.func @where_expand() -> tensor<2x2xi64> {
  %c = lpx_graph.constant dense<[true, false]> : tensor<2xi1>
  %x = lpx_graph.constant dense<1> : tensor<1xi64>
  %y = lpx_graph.constant dense<[5, 7]> : tensor<2xi64>
  %w = lpx_graph.where %c, %x, %y : (tensor<2xi1>, tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  %b = lpx_graph.broadcast %w : (tensor<2xi64>) -> tensor<2x2xi64>
  return %b : tensor<2x2xi64>
}

// -----

// Float arithmetic rounds in the element type: 0.1 + 0.2 in f16 is
// 0.2998046875: the exact sum 0.2999267578125 rounds to even in f16.
// CHECK-LABEL: func.func @float_precision
// CHECK-NEXT: lpx_graph.constant dense<2.998050e-01> : tensor<1xf16>
func.func @float_precision() -> tensor<1xf16> {
  %a = lpx_graph.constant dense<0.1> : tensor<1xf16>
  %b = lpx_graph.constant dense<0.2> : tensor<1xf16>
  %s = lpx_graph.add %a, %b : (tensor<1xf16>, tensor<1xf16>) -> tensor<1xf16>
  return %s : tensor<1xf16>
}

// -----

// Slice, transpose and reshape of constants.
// CHECK-LABEL: func.func @data_movement
// CHECK-NEXT: lpx_graph.constant dense<[5, 1]> : tensor<2xi32>
func.func @data_movement() -> tensor<2xi32> {
  %a = lpx_graph.constant dense<[[0, 1, 2], [3, 4, 5]]> : tensor<2x3xi32>
  %t = lpx_graph.transpose %a {perm = array<i64: 1, 0>} : (tensor<2x3xi32>) -> tensor<3x2xi32>
  %r = lpx_graph.reshape %t : tensor<3x2xi32> to tensor<6xi32>
  %s = lpx_graph.slice %r {starts = array<i64: 5>, steps = array<i64: -3>} : (tensor<6xi32>) -> tensor<2xi32>
  return %s : tensor<2xi32>
}

// -----

// Left to the run-time op: integer division by zero, NaN in max, and a
// float-to-int cast out of range.
// CHECK-LABEL: func.func @not_folded
// CHECK: lpx_graph.div
// CHECK: lpx_graph.binary "max"
// CHECK: lpx_graph.cast
func.func @not_folded() -> (tensor<1xi64>, tensor<1xf32>, tensor<1xi32>) {
  %a = lpx_graph.constant dense<1> : tensor<1xi64>
  %z = lpx_graph.constant dense<0> : tensor<1xi64>
  %q = lpx_graph.div %a, %z : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %n = lpx_graph.constant dense<0x7FC00000> : tensor<1xf32>
  %m = lpx_graph.binary "max" %n, %n : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %big = lpx_graph.constant dense<1.0e20> : tensor<1xf32>
  %c = lpx_graph.cast %big : tensor<1xf32> to tensor<1xi32>
  return %q, %m, %c : tensor<1xi64>, tensor<1xf32>, tensor<1xi32>
}

// -----

// Casts as ONNX defines them: bool widens to 0/1, unsigned values stay
// positive, int64 -> int32 wraps, float -> bool is "non-zero"; Mod takes the
// divisor's sign. A negative float cast to an unsigned type stays an op.
// CHECK-LABEL: func.func @casts_and_mod
// CHECK-DAG: dense<[2, 1]> : tensor<2xi64>
// CHECK-DAG: dense<[false, true]> : tensor<2xi1>
// CHECK-DAG: dense<1> : tensor<1xi32>
// CHECK-DAG: dense<[1, 0]> : tensor<2xi32>
// CHECK-DAG: dense<[2.000000e+02, 3.000000e+00]> : tensor<2xf32>
// CHECK-DAG: lpx_graph.cast %{{.*}} : tensor<1xf32> to tensor<1xui8>
func.func @casts_and_mod() -> (tensor<2xi32>, tensor<2xf32>, tensor<1xui8>, tensor<1xi32>, tensor<2xi1>, tensor<2xi64>) {
  %b = lpx_graph.constant dense<[true, false]> : tensor<2xi1>
  %c0 = lpx_graph.cast %b : tensor<2xi1> to tensor<2xi32>
  %u = lpx_graph.constant dense<[200, 3]> : tensor<2xui8>
  %c1 = lpx_graph.cast %u : tensor<2xui8> to tensor<2xf32>
  %n = lpx_graph.constant dense<-1.5> : tensor<1xf32>
  %c2 = lpx_graph.cast %n : tensor<1xf32> to tensor<1xui8>
  %big = lpx_graph.constant dense<4294967297> : tensor<1xi64>
  %c3 = lpx_graph.cast %big : tensor<1xi64> to tensor<1xi32>
  %f = lpx_graph.constant dense<[0.0, -2.5]> : tensor<2xf32>
  %c4 = lpx_graph.cast %f : tensor<2xf32> to tensor<2xi1>
  %m = lpx_graph.constant dense<[-7, 7]> : tensor<2xi64>
  %three = lpx_graph.constant dense<3> : tensor<1xi64>
  %mod = lpx_graph.binary "mod" %m, %three : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  return %c0, %c1, %c2, %c3, %c4, %mod : tensor<2xi32>, tensor<2xf32>, tensor<1xui8>, tensor<1xi32>, tensor<2xi1>, tensor<2xi64>
}
