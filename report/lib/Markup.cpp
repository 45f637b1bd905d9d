//===- Markup.cpp - Text inside HTML and SVG ------------------------------===//
#include "lpx/report/Markup.h"

std::string lpx::report::escapeMarkup(llvm::StringRef s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
    case '<': out += "&lt;"; break;
    case '>': out += "&gt;"; break;
    case '&': out += "&amp;"; break;
    case '"': out += "&quot;"; break;
    default: out += c;
    }
  }
  return out;
}
