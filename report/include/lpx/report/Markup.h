//===- Markup.h - Text inside HTML and SVG ----------------------*- C++ -*-===//
#ifndef LPX_REPORT_MARKUP_H
#define LPX_REPORT_MARKUP_H

#include "llvm/ADT/StringRef.h"
#include <string>

namespace lpx::report {

/// `s` with <, >, & and " replaced by entities: safe as element text and as
/// a double-quoted attribute value in HTML and SVG.
std::string escapeMarkup(llvm::StringRef s);

} // namespace lpx::report

#endif
