//===- AtomicFileTest.cpp - Whole files, and devices left alone -----------===//
#include "lpx/isa/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace lpx::isa;
namespace fs = llvm::sys::fs;

namespace {

/// A fresh folder for one test, removed with everything in it.
struct TempDir {
  llvm::SmallString<128> path;
  TempDir() { EXPECT_FALSE(fs::createUniqueDirectory("lpx-atomic", path)); }
  ~TempDir() { fs::remove_directories(path); }
  std::string operator/(llvm::StringRef name) const {
    return (path + "/" + name).str();
  }
  /// The names in the folder (a leftover temporary file shows here).
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    std::error_code ec;
    for (fs::directory_iterator it(path, ec), end; it != end && !ec;
         it.increment(ec))
      out.push_back(llvm::sys::path::filename(it->path()).str());
    return out;
  }
};

std::string contentsOf(const std::string &path) {
  auto buf = llvm::MemoryBuffer::getFile(path);
  return buf ? (*buf)->getBuffer().str() : "<unreadable>";
}

TEST(AtomicFile, ReplacesARegularFileWhole) {
  TempDir dir;
  std::string path = dir / "out.txt";
  ASSERT_FALSE(bool(writeFileAtomically(path, "old")));
  ASSERT_FALSE(bool(writeFileAtomically(
      path, [](llvm::raw_ostream &os) { os << "new " << 42; })));
  EXPECT_EQ(contentsOf(path), "new 42");
  EXPECT_THAT(dir.names(), ::testing::ElementsAre("out.txt"));
}

TEST(AtomicFile, UncommittedLeavesTheTargetAndNoTemporary) {
  TempDir dir;
  std::string path = dir / "out.txt";
  ASSERT_FALSE(bool(writeFileAtomically(path, "old")));
  {
    auto f = AtomicFile::create(path);
    ASSERT_TRUE(bool(f));
    ASSERT_EQ(::write(f->fd(), "partial", 7), 7);
  } // destroyed without commit(): a failed writer
  EXPECT_EQ(contentsOf(path), "old");
  EXPECT_THAT(dir.names(), ::testing::ElementsAre("out.txt"));
}

TEST(AtomicFile, MissingFolderIsOneError) {
  llvm::Error e = writeFileAtomically("/nonexistent-lpx-dir/x.lpxb", "x");
  ASSERT_TRUE(bool(e));
  EXPECT_THAT(llvm::toString(std::move(e)),
              ::testing::StartsWith(
                  "cannot write '/nonexistent-lpx-dir/x.lpxb': "));
}

// Renaming a temporary file over /dev/null would, as root, replace the
// device with a regular file for every process on the machine (and fail
// for anyone else): a device is written in place.
TEST(AtomicFile, DevNullIsWrittenInPlaceAndStaysADevice) {
  ASSERT_FALSE(bool(writeFileAtomically("/dev/null", "a whole program")));
  fs::file_status st;
  ASSERT_FALSE(fs::status("/dev/null", st));
  EXPECT_EQ(st.type(), fs::file_type::character_file);
  EXPECT_EQ(contentsOf("/dev/null"), "");
  std::error_code ec;
  for (fs::directory_iterator it("/dev", ec), end; it != end && !ec;
       it.increment(ec))
    EXPECT_FALSE(llvm::StringRef(it->path()).starts_with("/dev/null.tmp"))
        << it->path();
}

TEST(AtomicFile, FifoIsWrittenInPlaceAndStaysAFifo) {
  TempDir dir;
  std::string path = dir / "pipe";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = contentsOf(path); });
  llvm::Error e = writeFileAtomically(path, "through the pipe");
  reader.join();
  ASSERT_FALSE(bool(e)) << llvm::toString(std::move(e));
  EXPECT_EQ(received, "through the pipe");
  fs::file_status st;
  ASSERT_FALSE(fs::status(path, st));
  EXPECT_EQ(st.type(), fs::file_type::fifo_file);
  EXPECT_THAT(dir.names(), ::testing::ElementsAre("pipe"));
}

} // namespace
