// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @bad_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+2 {{operand shapes (2x3, 4) cannot be broadcast together}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The written result type must be the one the op infers.
func.func @wrong_broadcast_result(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<2x3xf32>' are incompatible with return type(s) of operation 'tensor<3x3xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.mul %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @bad_matmul(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+2 {{reduction dimensions differ: 3 vs 4}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @bad_reshape(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{changes the element count}}
  %0 = lpx_graph.reshape %a : tensor<2x3xf32> to tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @bad_perm(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{perm is not a permutation}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.transpose %a {perm = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @slice_out_of_bounds(%a: tensor<4xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{dim 0 reads outside the input}}
  %0 = lpx_graph.slice %a {starts = array<i64: 2>, steps = array<i64: 1>} : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @bad_gather(%a: tensor<4x2xf32>, %i: tensor<3xi64>) -> tensor<2x2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xf32>' are incompatible with return type(s) of operation 'tensor<2x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.gather %a, %i {axis = 0 : i64} : (tensor<4x2xf32>, tensor<3xi64>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @bad_softmax_axis(%a: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{axis 2 out of range for rank 2}}
  %0 = lpx_graph.softmax %a {axis = 2 : i64} : tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @bad_where(%c: tensor<2xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{condition must be a tensor of i1}}
  %0 = lpx_graph.where %c, %a, %a : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
