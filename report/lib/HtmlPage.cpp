//===- HtmlPage.cpp - The frame of every self-contained report page -------===//
#include "lpx/report/HtmlPage.h"
#include "lpx/report/Markup.h"

std::string lpx::report::htmlPageStart(llvm::StringRef title,
                                       llvm::StringRef style) {
  return "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
         "<link rel='icon' href='data:,'><title>" +
         escapeMarkup(title) + "</title><style>" + style.str() +
         "</style></head>\n<body data-ready='0'>\n";
}

std::string lpx::report::htmlSection(llvm::StringRef id, llvm::StringRef title,
                                     llvm::StringRef body) {
  return "<section id='" + escapeMarkup(id) + "'><h2>" + escapeMarkup(title) +
         "</h2>\n" + body.str() + "</section>\n";
}

std::string lpx::report::htmlPageEnd(llvm::StringRef script) {
  return "<script>" + script.str() + "</script>\n</body></html>\n";
}

const char *lpx::report::unitColor(isa::Unit u) {
  switch (u) {
  case isa::Unit::MEM: return "#56B4E9";
  case isa::Unit::VXM: return "#0072B2";
  case isa::Unit::MXM: return "#D55E00";
  case isa::Unit::SXM: return "#009E73";
  case isa::Unit::C2C: return "#CC79A7";
  }
  return "#999";
}
