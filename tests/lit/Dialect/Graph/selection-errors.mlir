// RUN: lpx-opt %s -split-input-file -verify-diagnostics

func.func @top_k_big_k(%x: tensor<3x4xf32>) -> tensor<3x5xi64> {
  // expected-error @+2 {{k = 5 must be in [1, 4]}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.top_k %x {axis = 1 : i64, k = 5 : i64} : (tensor<3x4xf32>) -> tensor<3x5xi64>
  return %0 : tensor<3x5xi64>
}

// -----

func.func @top_k_values(%x: tensor<3x4xf32>) -> tensor<3x2xf32> {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xi64>' are incompatible with return type(s) of operation 'tensor<3x2xf32>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.top_k %x {axis = 1 : i64, k = 2 : i64} : (tensor<3x4xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @top_k_shape(%x: tensor<3x4xf32>) -> tensor<2x2xi64> {
  // expected-error @+2 {{inferred type(s) 'tensor<3x2xi64>' are incompatible with return type(s) of operation 'tensor<2x2xi64>'}}
  // expected-error @+1 {{failed to infer returned types}}
  %0 = lpx_graph.top_k %x {axis = 1 : i64, k = 2 : i64} : (tensor<3x4xf32>) -> tensor<2x2xi64>
  return %0 : tensor<2x2xi64>
}

// -----

func.func @scatter_reduction(%d: tensor<4xf32>, %i: tensor<2xi64>, %u: tensor<2xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown reduction 'avg'}}
  %0 = lpx_graph.scatter_elements %d, %i, %u {axis = 0 : i64, reduction = "avg"} : (tensor<4xf32>, tensor<2xi64>, tensor<2xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @scatter_shapes(%d: tensor<4x4xf32>, %i: tensor<2x4xi64>, %u: tensor<2x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{indices and updates must have one shape of the data's rank}}
  %0 = lpx_graph.scatter_elements %d, %i, %u {axis = 0 : i64} : (tensor<4x4xf32>, tensor<2x4xi64>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_updates(%d: tensor<4x4xf32>, %i: tensor<2x1xi64>, %u: tensor<2x3xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{updates shape should be 2x4}}
  %0 = lpx_graph.scatter_nd %d, %i, %u : (tensor<4x4xf32>, tensor<2x1xi64>, tensor<2x3xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @scatter_nd_tuple(%d: tensor<4x4xf32>, %i: tensor<2x3xi64>, %u: tensor<2xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{index tuples of length 3 do not fit data of rank 2}}
  %0 = lpx_graph.scatter_nd %d, %i, %u : (tensor<4x4xf32>, tensor<2x3xi64>, tensor<2xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
