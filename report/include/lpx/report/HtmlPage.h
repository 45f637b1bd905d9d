//===- HtmlPage.h - The frame of every self-contained report page -*- C++ -*-===//
//
// What the HTML reports (`lpx simulate --report`, `lpx serve --report`,
// `lpx decode --report`) share: the page's head with its inline style and
// an empty icon (so a browser asks for no other address), the sections, the
// closing script that marks the page ready for a headless browser, and the
// one colour per unit of the timelines.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_REPORT_HTMLPAGE_H
#define LPX_REPORT_HTMLPAGE_H

#include "lpx/isa/Opcode.h"
#include "llvm/ADT/StringRef.h"
#include <string>

namespace lpx::report {

/// From <!DOCTYPE html> to <body data-ready='0'>; `title` is escaped.
std::string htmlPageStart(llvm::StringRef title, llvm::StringRef style);

/// <section id='ID'><h2>TITLE</h2>BODY</section>; `body` is already markup.
std::string htmlSection(llvm::StringRef id, llvm::StringRef title,
                        llvm::StringRef body);

/// The script (which sets data-ready to '1' once it ran), then the end.
std::string htmlPageEnd(llvm::StringRef script);

/// One colour per unit (Okabe-Ito), so a chip's queues read at a glance.
const char *unitColor(isa::Unit u);

} // namespace lpx::report

#endif
