// RUN: lpx-opt %s --lpx-convert-types="activations=fp12" -verify-diagnostics

// expected-error @+1 {{unknown number format 'fp12' (formats: fp32, fp16, bf16, fp8e4m3, fp8e5m2; weights also int8)}}
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  return %x : tensor<2xf32>
}
