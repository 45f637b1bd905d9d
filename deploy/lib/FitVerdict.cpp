//===- FitVerdict.cpp - Whether more chips may help a failed compile ------===//
#include "lpx/deploy/FitVerdict.h"

using namespace lpx;
using namespace lpx::deploy;

FitVerdict lpx::deploy::fitVerdict(const FitReport &fit, std::string message) {
  FitVerdict v;
  v.message = std::move(message);
  v.doesNotFit = fit.failure == FitFailure::ResidentData ||
                 fit.failure == FitFailure::NoChipCountHolds;
  v.outOfSram = !fit.fits(); // every fit check is about a chip's SRAM
  v.chipsHint = fit.chipsNeeded;
  return v;
}
