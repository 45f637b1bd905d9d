//===- SignalMath.h - DFT matrices, windows, mel filterbanks ----*- C++ -*-===//
//
// The constant tensors of the ONNX signal-processing ops, computed at compile
// time in double precision: the real matrices that turn a DFT along one axis
// into one MatMul, the window functions (Hann, Hamming, Blackman) and the
// mel filterbank of MelWeightMatrix. No MLIR here, so each builder is
// unit-tested on its own (tests/unit/compiler/SignalMathTest.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef LPX_LIB_IMPORT_ONNX_SIGNALMATH_H
#define LPX_LIB_IMPORT_ONNX_SIGNALMATH_H

#include <cstdint>
#include <vector>

namespace lpx::onnximport {

/// cos and sin of 2*pi*num/den, with num reduced modulo den first and the
/// multiples of a quarter turn exact (0, +-1), so e.g. the imaginary part of
/// a real signal's Nyquist bin is exactly 0.
struct CosSin {
  double c, s;
};
CosSin unitRoot(int64_t num, int64_t den);

/// The DFT along one axis as a real matrix, row-major
/// [inLen * inComponents, bins * 2]. An input row vector holding the inLen
/// samples of the axis (interleaved re, im when inComponents is 2) times the
/// matrix gives the first `bins` frequencies interleaved (re, im):
///
///   X[k] = scale * sum_{n < min(inLen, dftLen)} x[n] * exp(-+2*pi*i*n*k/dftLen)
///
/// with the minus sign and scale 1 forward, plus and 1/dftLen inverse. Input
/// samples at n >= dftLen are dropped (their rows are zero); a shorter input
/// is zero-padded to dftLen (the missing rows would multiply zeros).
/// `window`, when not empty (inLen values), multiplies sample n first.
std::vector<double> dftMatrix(int64_t inLen, int64_t inComponents,
                              int64_t dftLen, int64_t bins, bool inverse,
                              const std::vector<double> &window = {});

enum class WindowKind { Hann, Hamming, Blackman };

/// The ONNX window functions (opset 17): with N = size when periodic and
/// size - 1 when symmetric, for n in [0, size):
///   Hann      0.5 - 0.5 cos(2 pi n / N)
///   Hamming   25/46 - 21/46 cos(2 pi n / N)
///   Blackman  0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)
/// A symmetric window of size 1 (N = 0) is [1].
std::vector<double> windowFunction(WindowKind kind, int64_t size,
                                   bool periodic);

/// MelWeightMatrix (opset 17), row-major [dftLength / 2 + 1, numMelBins],
/// as the ONNX reference computes it (onnx/backend/test/case/node/
/// melweightmatrix.py): numMelBins + 2 points equally spaced on the mel scale
/// mel(f) = 2595 log10(1 + f / 700) between the edges (the edges' mel values
/// in float32, as the reference computes them from float32 inputs), mapped
/// back to hertz and to the spectrogram bin floor((dftLength + 1) * f /
/// sampleRate); bin i's triangle rises from point i to point i + 1 (peak 1)
/// and falls to point i + 2. Empty when a bin index falls outside the
/// spectrogram (edges above the Nyquist frequency).
std::vector<double> melWeightMatrix(int64_t numMelBins, int64_t dftLength,
                                    int64_t sampleRate, float lowerEdgeHertz,
                                    float upperEdgeHertz);

} // namespace lpx::onnximport

#endif
