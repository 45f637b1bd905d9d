//===- TraceTest.cpp - Trace formats, errors and sessions -----------------===//

#include "ServeTestUtil.h"

#include "lpx/serve/TraceReader.h"

using namespace lpx::serve;
using namespace lpx::serve::test;

namespace {

std::vector<TraceRow> readAll(const std::string &name, const std::string &text,
                              TraceFormat expect) {
  auto r = TraceReader::open(writeFile(name, text));
  EXPECT_TRUE(bool(r)) << (r ? "" : llvm::toString(r.takeError()));
  EXPECT_EQ((*r)->format(), expect);
  std::vector<TraceRow> rows;
  while (true) {
    auto row = (*r)->next();
    EXPECT_TRUE(bool(row)) << (row ? "" : llvm::toString(row.takeError()));
    if (!*row)
      break;
    rows.push_back(**row);
  }
  return rows;
}

std::string firstError(const std::string &name, const std::string &text) {
  auto r = TraceReader::open(writeFile(name, text));
  if (!r)
    return llvm::toString(r.takeError());
  while (true) {
    auto row = (*r)->next();
    if (!row)
      return llvm::toString(row.takeError());
    if (!*row)
      return "";
  }
}

/// A trace of each format and the rows it holds, read off its text by hand.
struct FormatCase {
  const char *file;
  const char *text;
  TraceFormat format;
  std::vector<TraceRow> rows;
};

TEST(Trace, EachFormatReadsItsRows) {
  const FormatCase cases[] = {
      // Sessions and tool times; a blank line is skipped, empty fields are
      // none.
      {"lpx.csv",
       "arrival_ms,prompt_tokens,output_tokens,session,tool_ms\n"
       "0,100,10,a,50\n"
       "\n"
       "1.5,200,20,,\n",
       TraceFormat::LpxCsv,
       {{0, 100, 10, "a", 50 * kNanosPerMs},
        {1500 * kNanosPerUs, 200, 20, "", 0}}},
      // A numeric session is its text; absent keys are none.
      {"t.jsonl",
       "{\"arrival_s\": 0.5, \"prompt_tokens\": 7, "
       "\"output_tokens\": 3, \"session\": 12, \"tool_us\": 40}\n"
       "{\"arrival_s\": 0.75, \"prompt_tokens\": 8, "
       "\"output_tokens\": 4}\n",
       TraceFormat::Jsonl,
       {{500 * kNanosPerMs, 7, 3, "12", 40 * kNanosPerUs},
        {750 * kNanosPerMs, 8, 4, "", 0}}},
      // The header and timestamp form of Azure's AzurePublicDataset LLM
      // traces; arrivals relative to the first row, across midnight.
      {"azure.csv",
       "TIMESTAMP,ContextTokens,GeneratedTokens\n"
       "2023-11-16 23:59:59.9000000,4808,10\n"
       "2023-11-17 00:00:00.1500000,3180,8\n",
       TraceFormat::AzureCsv,
       {{0, 4808, 10, "", 0}, {250 * kNanosPerMs, 3180, 8, "", 0}}},
      // Vidur's processed traces: arrived_at (seconds), num_prefill_tokens,
      // num_decode_tokens, sometimes more columns.
      {"vidur.csv",
       "arrived_at,num_prefill_tokens,num_decode_tokens,"
       "num_total_tokens\n"
       "0.0,374,44,418\n"
       "4.314579,396,109,505\n",
       TraceFormat::VidurCsv,
       {{0, 374, 44, "", 0}, {4314579 * kNanosPerUs, 396, 109, "", 0}}},
  };
  for (const FormatCase &c : cases) {
    SCOPED_TRACE(c.file);
    std::vector<TraceRow> rows = readAll(c.file, c.text, c.format);
    ASSERT_EQ(rows.size(), c.rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      EXPECT_EQ(rows[i].arrival, c.rows[i].arrival) << "row " << i;
      EXPECT_EQ(rows[i].prompt, c.rows[i].prompt) << "row " << i;
      EXPECT_EQ(rows[i].output, c.rows[i].output) << "row " << i;
      EXPECT_EQ(rows[i].session, c.rows[i].session) << "row " << i;
      EXPECT_EQ(rows[i].tool, c.rows[i].tool) << "row " << i;
    }
  }
}

TEST(Trace, AzureTimestamps) {
  EXPECT_EQ(*parseTimestamp("1970-01-02 00:00:01.5"),
            (86400 + 1) * kNanosPerS + 500 * kNanosPerMs);
  // Years that 64-bit nanoseconds since 1970 cannot hold are no timestamp
  // (found by fuzz-trace: year 1011 overflowed).
  EXPECT_FALSE(parseTimestamp("1011-11-16 18:15:46.6805900"));
  EXPECT_FALSE(parseTimestamp("2262-04-12 00:00:00"));
  EXPECT_TRUE(parseTimestamp("2261-12-31 23:59:59"));
}

TEST(Trace, BadLinesNameTheLine) {
  auto has = [](const std::string &text, const char *what) {
    std::string e = firstError("bad.csv", text);
    EXPECT_NE(e.find(what), std::string::npos) << e;
  };
  const std::string head = "arrival_us,prompt_tokens,output_tokens\n";
  has(head + "0,10,1\n5,ten,1\n", "bad.csv:3: prompt tokens 'ten'");
  has(head + "0,10,1\n5,10\n", ":3: 2 fields, the header has 3");
  has(head + "5,10,1\n4,10,1\n", ":3: arrival time goes back");
  has(head + "-5,10,1\n", ":2: negative arrival time");
  has(head + "0,0,1\n", "prompt tokens must be at least 1");
  has("when,prompt_tokens,output_tokens\n", "unknown column 'when'");
  has("arrival_us,prompt_tokens\n", "needs arrival");
  has("TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 7pm,1,1\n",
      "is not YYYY-MM-DD");
  has("{\"arrival_s\": 1, \"prompt_tokens\": 2}\n", ":1: needs arrival");
  has("{\"arrival_s\": 1, \"prompt_tokens\": 2, \"output_tokens\": 1, "
      "\"colour\": 3}\n",
      "unknown key 'colour'");
  has("{\"arrival_s\": 1,\n", ":1: not a JSON object");
  has("", "is empty");
  EXPECT_NE(firstError("missing", "").find("is empty"), std::string::npos);
}

TEST(Trace, SessionCallsWaitForTheirPredecessorAndTool) {
  // Session s, call 0 at 0: prefill 0..50. The lone request (at 30, batch 2)
  // joins at 50, so call 0's step shares the iteration 50..110 with its
  // prefill (10 + 50): call 0 ends at 110, the lone request too (1 token).
  // The session's next row arrives at 10 but waits for call 0 and its tool
  // of 100 us: sent at 210, prefill 210..260, step 260..270 (E2E 60).
  // Session E2E 270 = 110 + 100 + 60.
  Recorder rec;
  EngineConfig cfg;
  cfg.maxBatch = 2;
  run(handTable(),
      "trace:" + writeFile("sess.csv",
                           "arrival_us,prompt_tokens,output_tokens,session,"
                           "tool_us\n"
                           "0,100,2,s,100\n"
                           "10,100,2,s,0\n"
                           "30,100,1,,\n"),
      cfg, rec);
  ASSERT_EQ(rec.requests.size(), 3u);
  ASSERT_EQ(rec.sessions.size(), 1u);
  EXPECT_EQ(rec.sessions[0].e2e(), fromUs(270));
  EXPECT_EQ(rec.sessions[0].waits, fromUs(100));
  for (const RequestRecord &r : rec.requests) {
    if (r.call == 1) {
      EXPECT_EQ(r.arrival, fromUs(210));
    }
  }
}

TEST(Trace, BadLineStopsTheRun) {
  ServiceModel m = model(handTable());
  auto spec = parseWorkload(
      "trace:" + writeFile("mid.csv", "arrival_us,prompt_tokens,output_tokens\n"
                                      "0,10,1\n9,10,1\n3,10,1\n"));
  auto source = makeRequestSource(*spec, 1);
  ASSERT_TRUE(bool(source));
  Recorder rec;
  EngineConfig cfg;
  std::string e = errorOf(runServing(m, **source, cfg, rec));
  EXPECT_NE(e.find("mid.csv:4: arrival time goes back"), std::string::npos)
      << e;
}

} // namespace
