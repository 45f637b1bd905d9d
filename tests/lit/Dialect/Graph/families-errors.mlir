// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @unknown_unary(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{unknown unary function 'frobnicate'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.unary "frobnicate" %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unary_params(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{function 'elu' takes 1 parameters, got 0}}
  %0 = lpx_graph.unary "elu" %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unary_domain(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{function 'exp' is not defined for element type 'i32'}}
  %0 = lpx_graph.unary "exp" %a : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @test_result(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<2xi1>' are incompatible with return type(s) of operation 'tensor<2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.unary "isnan" %a : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @binary_bool(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{function 'and' is not defined for element type 'f32'}}
  %0 = lpx_graph.binary "and" %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @binary_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{operand shapes (2x3, 4) cannot be broadcast together}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.binary "max" %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_kind(%a: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{unknown reduction 'median'}}
  %0 = lpx_graph.reduce "median" %a {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_shape(%a: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{result shape 3 does not match the reduction}}
  %0 = lpx_graph.reduce "sum" %a {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @arg_reduce_type(%a: tensor<2x3xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{result element type must be i64}}
  %0 = lpx_graph.arg_reduce "max" %a {axis = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @log_softmax_axis(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis 2 out of range for rank 2}}
  %0 = lpx_graph.log_softmax %a {axis = 2 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_axis(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{axis -1 out of range for rank 2}}
  %0 = lpx_graph.cumsum %a {axis = -1 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @bad_broadcast(%a: tensor<3x2xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{operand shape 3x2 does not broadcast to 3x4}}
  %0 = lpx_graph.broadcast %a : (tensor<3x2xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @bad_pad(%a: tensor<3xf32>) -> tensor<4xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<5xf32>' are incompatible with return type(s) of operation 'tensor<4xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.pad %a {mode = "constant", pads = array<i64: 1, 1>} : (tensor<3xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @bad_pad_mode(%a: tensor<3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{unknown mode 'wrap'}}
  %0 = lpx_graph.pad %a {mode = "wrap", pads = array<i64: 1, 1>} : (tensor<3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @bad_gather_elements(%a: tensor<3x2xf32>, %i: tensor<3xi64>) -> tensor<3xf32> {
  // expected-error @+2 {{indices must have the data's rank}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.gather_elements %a, %i {axis = 0 : i64} : (tensor<3x2xf32>, tensor<3xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @bad_conv_transpose_extent(%x: tensor<1x1x3xf32>, %w: tensor<1x2x2xf32>) -> tensor<1x2x5xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<1x2x4xf32>' are incompatible with return type(s) of operation 'tensor<1x2x5xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.conv_transpose %x, %w {dilations = array<i64: 1>, output_padding = array<i64: 0>, pads = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x1x3xf32>, tensor<1x2x2xf32>) -> tensor<1x2x5xf32>
  return %0 : tensor<1x2x5xf32>
}

// -----

func.func @conv_uint8(%x: tensor<1x1x3x3xui8>, %w: tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xi32> {
  // expected-error @+2 {{conv needs a floating-point or i32 type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xui8>, tensor<1x1x2x2xui8>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

func.func @bad_conv_transpose_channels(%x: tensor<1x2x3xf32>, %w: tensor<1x2x2xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+2 {{the weight must be [C, M/group, kernel...] for group 1}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.conv_transpose %x, %w {dilations = array<i64: 1>, output_padding = array<i64: 0>, pads = array<i64: 0, 0>, strides = array<i64: 1>} : (tensor<1x2x3xf32>, tensor<1x2x2xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @conv_i64(%x: tensor<1x1x3x3xi64>, %w: tensor<1x1x2x2xi64>) -> tensor<1x1x2x2xi64> {
  // expected-error @+2 {{conv needs a floating-point or i32 type}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.conv %x, %w {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>} : (tensor<1x1x3x3xi64>, tensor<1x1x2x2xi64>) -> tensor<1x1x2x2xi64>
  return %0 : tensor<1x1x2x2xi64>
}

// -----

func.func @matmul_uint8_to_i32(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>) -> tensor<2x4xi32> {
  // expected-error @+1 {{integer result must have the operands' type (or i32 for i8 operands)}}
  %0 = lpx_graph.matmul %a, %b : (tensor<2x3xui8>, tensor<3x4xui8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}
