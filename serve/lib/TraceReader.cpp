//===- TraceReader.cpp - Request traces, streamed -------------------------===//

#include "lpx/serve/TraceReader.h"
#include "Fail.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"

#include <cmath>
#include <fstream>
#include <sstream>

using llvm::Error;
using llvm::Expected;
using llvm::StringRef;

namespace lpx::serve {

Error TraceReader::lineError(const std::string &why) const {
  return failLine("trace " + path + ":" + std::to_string(lineNo) + ": " + why);
}

Expected<std::unique_ptr<TraceReader>> TraceReader::open(std::string path) {
  std::unique_ptr<TraceReader> r(new TraceReader());
  r->path = std::move(path);
  r->in = std::make_unique<std::ifstream>(r->path);
  if (!*r->in)
    return failLine("trace " + r->path + ": cannot be read");
  if (Error e = r->start())
    return std::move(e);
  return r;
}

Expected<std::unique_ptr<TraceReader>>
TraceReader::fromText(std::string text, std::string name) {
  std::unique_ptr<TraceReader> r(new TraceReader());
  r->path = std::move(name);
  r->in = std::make_unique<std::istringstream>(std::move(text));
  if (Error e = r->start())
    return std::move(e);
  return r;
}

/// Days since 1970-01-01 of a civil date (H. Hinnant's days_from_civil).
static int64_t daysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  int64_t era = (y >= 0 ? y : y - 399) / 400;
  int64_t yoe = y - era * 400;
  int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

std::optional<Nanos> parseTimestamp(StringRef text) {
  text = text.trim().trim('"');
  // YYYY-MM-DD HH:MM:SS
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' ||
      (text[10] != ' ' && text[10] != 'T') || text[13] != ':' ||
      text[16] != ':')
    return std::nullopt;
  auto num = [&](size_t at, size_t n, int64_t &out) {
    return !text.substr(at, n).getAsInteger(10, out) &&
           llvm::all_of(text.substr(at, n), llvm::isDigit);
  };
  int64_t y, mo, d, h, mi, s;
  if (!num(0, 4, y) || !num(5, 2, mo) || !num(8, 2, d) || !num(11, 2, h) ||
      !num(14, 2, mi) || !num(17, 2, s))
    return std::nullopt;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
    return std::nullopt;
  // Nanoseconds since 1970 in 64 bits reach 1677 to 2262: a year outside
  // them is no trace's, and would overflow.
  if (y < 1678 || y > 2261)
    return std::nullopt;
  Nanos frac = 0;
  StringRef rest = text.drop_front(19);
  if (!rest.empty()) {
    if (rest[0] != '.' || rest.size() < 2)
      return std::nullopt;
    StringRef digits = rest.drop_front(1);
    Nanos scale = kNanosPerS;
    for (char c : digits) {
      if (!llvm::isDigit(c))
        return std::nullopt;
      scale /= 10;
      frac += scale * (c - '0');
    }
  }
  int64_t days = daysFromCivil(y, mo, d);
  return ((days * 24 + h) * 60 + mi) * 60 * kNanosPerS + s * kNanosPerS + frac;
}

/// A column name with a unit suffix: `arrival_ms` -> (true, ms).
static bool unitColumn(StringRef name, StringRef stem, Nanos &unit) {
  if (!name.consume_front(stem) || !name.consume_front("_"))
    return false;
  if (name == "s")
    unit = kNanosPerS;
  else if (name == "ms")
    unit = kNanosPerMs;
  else if (name == "us")
    unit = kNanosPerUs;
  else
    return false;
  return true;
}

static void splitCsv(StringRef line, llvm::SmallVectorImpl<StringRef> &out) {
  out.clear();
  line.split(out, ',', -1, /*KeepEmpty=*/true);
  for (StringRef &f : out)
    f = f.trim().trim('"');
}

Error TraceReader::start() {
  std::string first;
  while (std::getline(*in, first)) {
    ++lineNo;
    if (!StringRef(first).trim().empty())
      break;
  }
  StringRef head = StringRef(first).trim();
  if (head.empty())
    return failLine("trace " + path + ": is empty");
  if (head.starts_with("{")) {
    fmt = TraceFormat::Jsonl;
    pending = first;
    havePending = true;
    --lineNo;
    return Error::success();
  }
  llvm::SmallVector<StringRef> cols;
  splitCsv(head, cols);
  columns = cols.size();
  auto find = [&](StringRef name) {
    for (size_t i = 0; i < cols.size(); ++i)
      if (cols[i] == name)
        return int(i);
    return -1;
  };
  // The public formats, known by their arrival column.
  struct Public {
    TraceFormat format;
    const char *name, *arrival, *prompt, *output;
  };
  static const Public kPublic[] = {
      {TraceFormat::AzureCsv, "an Azure", "TIMESTAMP", "ContextTokens",
       "GeneratedTokens"},
      {TraceFormat::VidurCsv, "a Vidur", "arrived_at", "num_prefill_tokens",
       "num_decode_tokens"}};
  for (const Public &p : kPublic) {
    if (find(p.arrival) < 0)
      continue;
    fmt = p.format;
    arrivalCol = find(p.arrival);
    promptCol = find(p.prompt);
    outputCol = find(p.output);
    if (promptCol < 0 || outputCol < 0)
      return lineError(std::string(p.name) + " trace header needs " +
                       p.arrival + ", " + p.prompt + " and " + p.output);
    return Error::success();
  }
  fmt = TraceFormat::LpxCsv;
  for (size_t i = 0; i < cols.size(); ++i) {
    StringRef c = cols[i];
    Nanos unit = 0;
    if (unitColumn(c, "arrival", unit))
      arrivalCol = int(i), arrivalUnit = unit;
    else if (unitColumn(c, "tool", unit))
      toolCol = int(i), toolUnit = unit;
    else if (c == "prompt_tokens")
      promptCol = int(i);
    else if (c == "output_tokens")
      outputCol = int(i);
    else if (c == "session")
      sessionCol = int(i);
    else
      return lineError("unknown column '" + c.str() +
                       "' (known: arrival_{s,ms,us}, prompt_tokens, "
                       "output_tokens, session, tool_{s,ms,us}; or an Azure "
                       "or Vidur trace header)");
  }
  if (arrivalCol < 0 || promptCol < 0 || outputCol < 0)
    return lineError("the header needs arrival_{s,ms,us}, prompt_tokens and "
                     "output_tokens");
  return Error::success();
}

/// A time in `unit`s written as a decimal number, rounded to nanoseconds.
static std::optional<Nanos> timeIn(StringRef text, Nanos unit) {
  double v = 0;
  if (text.getAsDouble(v) || !std::isfinite(v) || std::fabs(v) > 9e18 / unit)
    return std::nullopt;
  return Nanos(std::llround(v * double(unit)));
}

static std::optional<int64_t> tokens(StringRef text) {
  int64_t v = 0;
  if (text.getAsInteger(10, v))
    return std::nullopt;
  return v;
}

Expected<TraceRow> TraceReader::parseCsv(StringRef line) {
  llvm::SmallVector<StringRef> f;
  splitCsv(line, f);
  if (f.size() != columns)
    return lineError(std::to_string(f.size()) + " fields, the header has " +
                     std::to_string(columns));
  TraceRow row;
  if (fmt == TraceFormat::AzureCsv) {
    auto t = parseTimestamp(f[arrivalCol]);
    if (!t)
      return lineError("TIMESTAMP '" + f[arrivalCol].str() +
                       "' is not YYYY-MM-DD HH:MM:SS[.fraction]");
    if (!azureOrigin)
      azureOrigin = *t;
    row.arrival = *t - *azureOrigin;
  } else {
    auto t = timeIn(f[arrivalCol],
                    fmt == TraceFormat::VidurCsv ? kNanosPerS : arrivalUnit);
    if (!t)
      return lineError("arrival '" + f[arrivalCol].str() + "' is not a number");
    row.arrival = *t;
  }
  auto p = tokens(f[promptCol]);
  auto o = tokens(f[outputCol]);
  if (!p)
    return lineError("prompt tokens '" + f[promptCol].str() +
                     "' are not a whole number");
  if (!o)
    return lineError("output tokens '" + f[outputCol].str() +
                     "' are not a whole number");
  row.prompt = *p;
  row.output = *o;
  if (sessionCol >= 0)
    row.session = f[sessionCol].str();
  if (toolCol >= 0 && !f[toolCol].empty()) {
    auto t = timeIn(f[toolCol], toolUnit);
    if (!t)
      return lineError("tool time '" + f[toolCol].str() + "' is not a number");
    row.tool = *t;
  }
  return row;
}

Expected<TraceRow> TraceReader::parseJson(StringRef line) {
  auto v = llvm::json::parse(line);
  if (!v)
    return lineError("not a JSON object: " + llvm::toString(v.takeError()));
  const llvm::json::Object *o = v->getAsObject();
  if (!o)
    return lineError("not a JSON object");
  TraceRow row;
  bool haveArrival = false, havePrompt = false, haveOutput = false;
  for (const auto &kv : *o) {
    StringRef key = kv.first;
    Nanos unit = 0;
    auto number = kv.second.getAsNumber();
    if (unitColumn(key, "arrival", unit) || unitColumn(key, "tool", unit)) {
      if (!number || !std::isfinite(*number) ||
          std::fabs(*number) > 9e18 / unit)
        return lineError("'" + key.str() + "' is not a number");
      Nanos t = Nanos(std::llround(*number * double(unit)));
      if (key.starts_with("arrival"))
        row.arrival = t, haveArrival = true;
      else
        row.tool = t;
    } else if (key == "prompt_tokens" || key == "output_tokens") {
      auto i = kv.second.getAsInteger();
      if (!i)
        return lineError("'" + key.str() + "' is not a whole number");
      (key == "prompt_tokens" ? row.prompt : row.output) = *i;
      (key == "prompt_tokens" ? havePrompt : haveOutput) = true;
    } else if (key == "session") {
      if (auto s = kv.second.getAsString())
        row.session = s->str();
      else if (auto i = kv.second.getAsInteger())
        row.session = std::to_string(*i);
      else
        return lineError("'session' is neither a string nor an integer");
    } else {
      return lineError("unknown key '" + key.str() + "'");
    }
  }
  if (!haveArrival || !havePrompt || !haveOutput)
    return lineError("needs arrival_{s,ms,us}, prompt_tokens and "
                     "output_tokens");
  return row;
}

Expected<std::optional<TraceRow>> TraceReader::next() {
  std::string line;
  while (true) {
    if (havePending) {
      line = std::move(pending);
      havePending = false;
    } else if (!std::getline(*in, line)) {
      if (in->bad())
        return lineError("read failed");
      return std::nullopt;
    }
    ++lineNo;
    if (!StringRef(line).trim().empty())
      break;
  }
  StringRef text = StringRef(line).trim();
  auto row = fmt == TraceFormat::Jsonl ? parseJson(text) : parseCsv(text);
  if (!row)
    return row.takeError();
  if (row->arrival < 0)
    return lineError("negative arrival time");
  if (row->arrival < last)
    return lineError("arrival time goes back (" +
                     std::to_string(toUs(row->arrival)) + " us after " +
                     std::to_string(toUs(last)) + " us)");
  if (row->tool < 0)
    return lineError("negative tool time");
  if (row->prompt < 1)
    return lineError("prompt tokens must be at least 1");
  if (row->output < 1)
    return lineError("output tokens must be at least 1");
  last = row->arrival;
  return std::optional<TraceRow>(std::move(*row));
}

} // namespace lpx::serve
