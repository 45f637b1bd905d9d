//===- TraceReader.h - Request traces, streamed ---------------*- C++ -*-===//
//
// Reads a request trace one line at a time (bounded memory for any size).
// Formats, recognised by the first line:
//  - JSONL (a line starting with '{'): one object per line with the keys
//    `arrival_{s,ms,us}`, `prompt_tokens`, `output_tokens`, optional `session`
//    (string or integer) and `tool_{s,ms,us}` (the tool time after the call).
//  - lpx CSV: a header naming the same columns (the unit in the column name).
//  - Azure LLM inference trace CSV: `TIMESTAMP,ContextTokens,GeneratedTokens`,
//    TIMESTAMP a date and time (`2023-11-16 18:15:46.6805900`); arrivals are
//    taken relative to the first row.
//  - Vidur request trace CSV: `arrived_at,num_prefill_tokens,num_decode_tokens`
//    (arrived_at in seconds; further columns, as Vidur writes, are ignored).
// Times must be non-negative and not decrease; a malformed line is an error
// naming the file and line.
//
//===----------------------------------------------------------------------===//
#ifndef LPX_SERVE_TRACEREADER_H
#define LPX_SERVE_TRACEREADER_H

#include "lpx/serve/Units.h"

#include "llvm/Support/Error.h"

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lpx::serve {

struct TraceRow {
  Nanos arrival = 0;
  int64_t prompt = 0;
  int64_t output = 0;
  std::string session; ///< empty: a request alone
  Nanos tool = 0;      ///< tool time after this call, before the session's next
};

enum class TraceFormat { Jsonl, LpxCsv, AzureCsv, VidurCsv };

class TraceReader {
public:
  static llvm::Expected<std::unique_ptr<TraceReader>> open(std::string path);
  /// A trace held in memory (tests, the fuzz target); `name` for errors.
  static llvm::Expected<std::unique_ptr<TraceReader>>
  fromText(std::string text, std::string name);
  /// The next row; none at the end of the file.
  llvm::Expected<std::optional<TraceRow>> next();
  TraceFormat format() const { return fmt; }

private:
  TraceReader() = default;
  llvm::Error start();
  llvm::Error lineError(const std::string &why) const;
  llvm::Expected<TraceRow> parseCsv(llvm::StringRef line);
  llvm::Expected<TraceRow> parseJson(llvm::StringRef line);

  std::string path;
  std::unique_ptr<std::istream> in;
  std::string pending; ///< a JSONL first line, read to recognise the format
  bool havePending = false;
  int64_t lineNo = 0;
  TraceFormat fmt = TraceFormat::LpxCsv;
  // CSV columns, -1 when absent.
  int arrivalCol = -1, promptCol = -1, outputCol = -1, sessionCol = -1,
      toolCol = -1;
  size_t columns = 0;
  Nanos arrivalUnit = kNanosPerS, toolUnit = kNanosPerS;
  std::optional<Nanos> azureOrigin; ///< the first TIMESTAMP
  Nanos last = 0;
};

/// Nanoseconds since 1970-01-01 of `YYYY-MM-DD HH:MM:SS[.fraction]` (also with
/// a `T` between date and time; digits past the ninth of the fraction are
/// dropped), or none if malformed. Integer arithmetic: the same everywhere.
std::optional<Nanos> parseTimestamp(llvm::StringRef text);

} // namespace lpx::serve

#endif // LPX_SERVE_TRACEREADER_H
