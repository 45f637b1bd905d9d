//===- LargeProgramFileTest.cpp - A program file over 2 GiB round-trips ---===//
//
// Format 2 kept weights inside the protobuf message, which cannot exceed
// 2 GiB. This writes a program whose constants total 2.25 GiB (16 tsp-v1
// nodes holding 144 MiB each), reads it back (mapped) and compares every
// byte. The sections view one 144 MiB pattern at 16 different shifts, so the
// test needs about 150 MiB of memory besides the page cache. Exit 77
// (skipped) when the temporary folder has less than 6 GB free; about 10 s
// where the disk is fast.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/Program.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <cstdio>
#include <cstring>

using namespace lpx::isa;

namespace {

constexpr uint32_t kNodes = 16;
constexpr uint64_t kSection = 144ull << 20;

int failTest(const std::string &why) {
  std::fprintf(stderr, "FAIL: %s\n", why.c_str());
  return 1;
}

} // namespace

int main() {
  llvm::SmallString<128> dir;
  llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, dir);
  auto space = llvm::sys::fs::disk_space(dir);
  if (!space || space->available < 6'000'000'000ull) {
    std::printf("skipped: less than 6 GB free in %s\n", dir.c_str());
    return 77;
  }
  auto chip = loadChipSpec("tsp-v1");
  if (!chip)
    return failTest(llvm::toString(chip.takeError()));
  pb::Program p;
  p.set_chip_yaml(printChipSpec(*chip));
  p.set_chip_hash(hashText(p.chip_yaml()));
  p.set_num_nodes(kNodes);
  // Node n's constant is pattern[n, n + kSection): every section differs.
  std::string pattern(kSection + kNodes, '\0');
  for (size_t i = 0; i < pattern.size(); ++i)
    pattern[i] = char((i * 2654435761u) >> 13);
  ConstantData data;
  for (uint32_t n = 0; n < kNodes; ++n) {
    pb::Buffer *b = p.add_buffers();
    b->set_name("w" + std::to_string(n));
    b->set_node(n);
    b->set_bytes(kSection);
    b->set_dtype(uint32_t(DType::U8));
    b->add_shape(int64_t(kSection));
    b->set_kind(pb::CONSTANT);
    data.addView(p, n, llvm::ArrayRef<char>(pattern.data() + n, kSection));
  }
  llvm::SmallString<128> path;
  llvm::sys::fs::createUniquePath("lpx-large-program-%%%%%%.lpxb", path,
                                  /*MakeAbsolute=*/true);
  if (llvm::Error e = writeProgramFile(p, data, path))
    return failTest(llvm::toString(std::move(e)));
  uint64_t size = 0;
  llvm::sys::fs::file_size(path, size);
  int rc = 0;
  if (size <= (2ull << 30))
    rc = failTest("file of " + std::to_string(size) + " bytes, not over 2 GiB");
  auto loaded = readProgramFile(path);
  if (!loaded)
    rc = failTest(llvm::toString(loaded.takeError()));
  else
    for (uint32_t n = 0; n < kNodes && rc == 0; ++n) {
      llvm::ArrayRef<char> got = loaded->data()[n];
      if (got.size() != kSection ||
          std::memcmp(got.data(), pattern.data() + n, kSection) != 0)
        rc = failTest("constant w" + std::to_string(n) + " differs");
    }
  llvm::sys::fs::remove(path);
  if (rc == 0)
    std::printf("ok: %llu-byte program written and read back byte-exact\n",
                (unsigned long long)size);
  return rc;
}
