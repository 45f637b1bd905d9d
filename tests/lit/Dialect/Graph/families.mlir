// RUN: lpx-opt %s | lpx-opt | FileCheck %s
// The generic op families (functions from isa/include/lpx/isa/
// ElementwiseFunctions.def) and the data-movement ops added with them.

// CHECK-LABEL: func.func @unary_family
func.func @unary_family(%a: tensor<2x3xf32>, %i: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi32>) {
  // CHECK: lpx_graph.unary "exp" %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = lpx_graph.unary "exp" %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.unary "elu" %{{.*}} {params = array<f64: 1.000000e+00>}
  %1 = lpx_graph.unary "elu" %0 {params = array<f64: 1.0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.unary "isinf" %{{.*}} {params = array<f64: 1.000000e+00, 0.000000e+00>} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  %2 = lpx_graph.unary "isinf" %1 {params = array<f64: 1.0, 0.0>} : (tensor<2x3xf32>) -> tensor<2x3xi1>
  // CHECK: lpx_graph.unary "clip" %{{.*}} : (tensor<4xi32>) -> tensor<4xi32>
  %3 = lpx_graph.unary "clip" %i {params = array<f64: -2.0, 2.0>} : (tensor<4xi32>) -> tensor<4xi32>
  return %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<4xi32>
}

// CHECK-LABEL: func.func @binary_family
func.func @binary_family(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<3xi1>,
                         %u: tensor<3xui8>) -> (tensor<2x3xf32>, tensor<2x3xi1>, tensor<3xi1>, tensor<3xui8>) {
  // CHECK: lpx_graph.binary "max" %{{.*}}, %{{.*}} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = lpx_graph.binary "max" %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: lpx_graph.binary "less_equal"
  %1 = lpx_graph.binary "less_equal" %0, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: lpx_graph.binary "xor"
  %2 = lpx_graph.binary "xor" %c, %c : (tensor<3xi1>, tensor<3xi1>) -> tensor<3xi1>
  // CHECK: lpx_graph.binary "shift_left"
  %3 = lpx_graph.binary "shift_left" %u, %u : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xi1>, tensor<3xi1>, tensor<3xui8>
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%a: tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<1x1x1xf32>, tensor<2x1x4xi64>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  // CHECK: lpx_graph.reduce "sum" %{{.*}} {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %0 = lpx_graph.reduce "sum" %a {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  // CHECK: lpx_graph.reduce "log_sum_exp"
  %1 = lpx_graph.reduce "log_sum_exp" %a {axes = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  // CHECK: lpx_graph.arg_reduce "max" %{{.*}} {axis = 1 : i64, select_last_index = true}
  %2 = lpx_graph.arg_reduce "max" %a {axis = 1 : i64, select_last_index = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  // CHECK: lpx_graph.log_softmax %{{.*}} {axis = 2 : i64} : tensor<2x3x4xf32>
  %3 = lpx_graph.log_softmax %a {axis = 2 : i64} : tensor<2x3x4xf32>
  // CHECK: lpx_graph.hardmax
  %4 = lpx_graph.hardmax %a {axis = 0 : i64} : tensor<2x3x4xf32>
  // CHECK: lpx_graph.cumsum %{{.*}} {axis = 1 : i64, exclusive = true, reverse = true}
  %5 = lpx_graph.cumsum %a {axis = 1 : i64, exclusive = true, reverse = true} : tensor<2x3x4xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<2x4xf32>, tensor<1x1x1xf32>, tensor<2x1x4xi64>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// CHECK-LABEL: func.func @data_movement
func.func @data_movement(%a: tensor<3x1xf32>, %i: tensor<3x1xi64>) -> (tensor<2x3x4xf32>, tensor<4x2xf32>, tensor<3x1xf32>) {
  // CHECK: lpx_graph.broadcast %{{.*}} : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %0 = lpx_graph.broadcast %a : (tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // CHECK: lpx_graph.pad %{{.*}} {mode = #lpx_graph.pad_mode<reflect>, pads = array<i64: 0, 1, 1, 0>}
  %1 = lpx_graph.pad %a {mode = #lpx_graph.pad_mode<reflect>, pads = array<i64: 0, 1, 1, 0>} : (tensor<3x1xf32>) -> tensor<4x2xf32>
  // CHECK: lpx_graph.gather_elements %{{.*}}, %{{.*}} {axis = 0 : i64}
  %2 = lpx_graph.gather_elements %a, %i {axis = 0 : i64} : (tensor<3x1xf32>, tensor<3x1xi64>) -> tensor<3x1xf32>
  return %0, %1, %2 : tensor<2x3x4xf32>, tensor<4x2xf32>, tensor<3x1xf32>
}

// CHECK-LABEL: func.func @conv_pool
func.func @conv_pool(%x: tensor<1x2x5x5xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>, %v: tensor<1x2x4xf32>, %k: tensor<2x2x2xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x2x2xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>) {
  // CHECK: lpx_graph.conv %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  %0 = lpx_graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  // CHECK: lpx_graph.conv %{{.*}}, %{{.*}} {dilations = array<i64: 2>, pads = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x2x4xf32>, tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
  %1 = lpx_graph.conv %v, %k {dilations = array<i64: 2>, pads = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x2x4xf32>, tensor<2x2x2xf32>) -> tensor<1x2x2xf32>
  // CHECK: lpx_graph.pool %{{.*}} {dilations = array<i64: 1, 1>, kernel_shape = array<i64: 2, 2>, kind = #lpx_graph.pool_kind<max>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  %2 = lpx_graph.pool %x {kind = #lpx_graph.pool_kind<max>, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  // CHECK: lpx_graph.pool %{{.*}} {count_include_pad = true, dilations = array<i64: 1, 1>, kernel_shape = array<i64: 3, 3>, kind = #lpx_graph.pool_kind<avg>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
  %3 = lpx_graph.pool %x {kind = #lpx_graph.pool_kind<avg>, count_include_pad = true, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32>
  return %0, %1, %2, %3 : tensor<1x4x3x3xf32>, tensor<1x2x2xf32>, tensor<1x2x3x3xf32>, tensor<1x2x3x3xf32>
}

// CHECK-LABEL: func.func @conv_transpose
func.func @conv_transpose(%x: tensor<1x2x3x3xf32>, %w: tensor<2x3x3x3xf32>, %b: tensor<6xf32>, %v: tensor<1x1x3xf32>, %k: tensor<1x1x2xf32>) -> (tensor<1x6x8x7xf32>, tensor<1x1x6xf32>) {
  // Rows: 3*(3-1) + 3 + 1 - 1 - 1 = 8; cols: 2*(3-1) + 3 - 0 - 0 = 7; M = 3 * group 2.
  // CHECK: lpx_graph.conv_transpose %{{.*}}, %{{.*}}, %{{.*}} {dilations = array<i64: 1, 1>, group = 2 : i64, output_padding = array<i64: 1, 0>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 3, 2>} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x7xf32>
  %0 = lpx_graph.conv_transpose %x, %w, %b {dilations = array<i64: 1, 1>, group = 2 : i64, output_padding = array<i64: 1, 0>, pads = array<i64: 1, 0, 1, 0>, strides = array<i64: 3, 2>} : (tensor<1x2x3x3xf32>, tensor<2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x8x7xf32>
  // Dilation 2 and a negative begin pad: 1*(3-1) + 2*(2-1) + 1 + 0 - (-1) - 0 = 6.
  // CHECK: lpx_graph.conv_transpose %{{.*}}, %{{.*}} {dilations = array<i64: 2>, output_padding = array<i64: 0>, pads = array<i64: -1, 0>, strides = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<1x1x6xf32>
  %1 = lpx_graph.conv_transpose %v, %k {dilations = array<i64: 2>, output_padding = array<i64: 0>, pads = array<i64: -1, 0>, strides = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x1x2xf32>) -> tensor<1x1x6xf32>
  return %0, %1 : tensor<1x6x8x7xf32>, tensor<1x1x6xf32>
}

// Integer matrix ops: i32 operands give i32; i8 operands may accumulate into
// i32 (the matrix unit's integer mode).
// CHECK-LABEL: func.func @integer_matrix_ops
func.func @integer_matrix_ops(%x: tensor<1x1x3x3xi32>, %w: tensor<1x1x2x2xi32>, %b: tensor<1xi32>, %x8: tensor<1x1x3x3xi8>, %w8: tensor<1x1x2x2xi8>, %a8: tensor<2x3xi8>, %m8: tensor<3x4xi8>) -> (tensor<1x1x2x2xi32>, tensor<1x1x2x2xi32>, tensor<2x4xi32>) {
  // CHECK: lpx_graph.conv %{{.*}}, %{{.*}}, %{{.*}} {{.*}} : (tensor<1x1x3x3xi32>, tensor<1x1x2x2xi32>, tensor<1xi32>) -> tensor<1x1x2x2xi32>
  %0 = lpx_graph.conv %x, %w, %b {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xi32>, tensor<1x1x2x2xi32>, tensor<1xi32>) -> tensor<1x1x2x2xi32>
  // CHECK: lpx_graph.conv %{{.*}}, %{{.*}} {{.*}} : (tensor<1x1x3x3xi8>, tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi32>
  %1 = lpx_graph.conv %x8, %w8 {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xi8>, tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi32>
  // CHECK: lpx_graph.matmul %{{.*}}, %{{.*}} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  %2 = lpx_graph.matmul %a8, %m8 : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0, %1, %2 : tensor<1x1x2x2xi32>, tensor<1x1x2x2xi32>, tensor<2x4xi32>
}
