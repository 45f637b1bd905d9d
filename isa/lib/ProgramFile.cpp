//===- ProgramFile.cpp - The program file: header, payload, data sections -===//
//
// Layout (format 3): 16-byte header (Version.h); the pb::Program payload,
// which holds no weight bytes; zero padding to a multiple of kSectionAlign;
// the data region, one section per constant with data at the offset its
// pb::Constant names. The message stays small whatever the weights weigh,
// so protobuf's 2 GiB cap applies only to the instructions and buffers.
//
//===----------------------------------------------------------------------===//
#include "lpx/isa/AtomicFile.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Version.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <climits>
#include <cstring>

using namespace lpx::isa;

template <typename... Ts>
static llvm::Error fail(const char *fmt, Ts... args) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), fmt, args...);
}

namespace {

/// Format 3.0 and 3.1 had no state bindings: every state buffer was one
/// whole state named by its buffer.
void bindStatesWhole(pb::Program &p) {
  for (int i = 0; i < p.buffers_size(); ++i)
    if (p.buffers(i).kind() == pb::STATE) {
      pb::Binding *b = p.add_states();
      b->set_name(p.buffers(i).name());
      b->set_buffer(uint32_t(i));
    }
}

uint64_t dataRegionStart(uint64_t payloadBytes) {
  return llvm::alignTo(kHeaderBytes + payloadBytes, kSectionAlign);
}

/// Sections in constant order, aligned, not overlapping, inside a region of
/// `regionBytes`; returns the end of the last one. `what` names the file.
llvm::Expected<uint64_t> checkSections(const pb::Program &p,
                                       uint64_t regionBytes,
                                       const std::string &what) {
  uint64_t end = 0;
  for (int i = 0; i < p.constants_size(); ++i) {
    const pb::Constant &c = p.constants(i);
    if (c.size() == 0)
      continue;
    std::string name = c.buffer() < uint32_t(p.buffers_size())
                           ? p.buffers(int(c.buffer())).name()
                           : "#" + std::to_string(c.buffer());
    if (c.offset() % kSectionAlign != 0)
      return fail("%s: data section of constant '%s' at offset %llu is not "
                  "%llu-byte aligned",
                  what.c_str(), name.c_str(), (unsigned long long)c.offset(),
                  (unsigned long long)kSectionAlign);
    if (c.offset() < end)
      return fail("%s: data section of constant '%s' at offset %llu overlaps "
                  "the previous one (which ends at %llu)",
                  what.c_str(), name.c_str(), (unsigned long long)c.offset(),
                  (unsigned long long)end);
    if (c.offset() > regionBytes || c.size() > regionBytes - c.offset())
      return fail("%s: truncated program file (data section of constant '%s' "
                  "ends at byte %llu of the data region, which has %llu)",
                  what.c_str(), name.c_str(),
                  (unsigned long long)(c.offset() + c.size()),
                  (unsigned long long)regionBytes);
    end = c.offset() + c.size();
  }
  return end;
}

/// Writes `n` zero bytes.
void pad(llvm::raw_ostream &os, uint64_t n) {
  static const char zeros[kSectionAlign] = {};
  os.write(zeros, n);
}

/// The whole file to `os`; the caller checks the stream for write errors.
llvm::Error writeProgram(llvm::raw_ostream &os, const pb::Program &p,
                         const ConstantData &data, const std::string &what) {
  if (llvm::Error e = checkConstantData(p, data))
    return fail("cannot write '%s': %s", what.c_str(),
                llvm::toString(std::move(e)).c_str());
  auto end = checkSections(p, UINT64_MAX, "cannot write '" + what + "'");
  if (!end)
    return end.takeError();
  // protobuf refuses messages of 2 GiB or more; without the weights only an
  // enormous instruction stream gets there.
  if (size_t size = p.ByteSizeLong(); size > size_t(INT_MAX))
    return fail("cannot write '%s': the program message (instructions and "
                "buffers, without constant data) is %zu bytes, over "
                "protobuf's 2 GiB limit",
                what.c_str(), size);
  std::string payload;
  if (!p.SerializeToString(&payload))
    return fail("cannot write '%s': protobuf could not serialize the program",
                what.c_str());
  char header[kHeaderBytes];
  std::memcpy(header, kMagic, 4);
  llvm::support::endian::write16le(header + 4, kFormatMajor);
  llvm::support::endian::write16le(header + 6, kFormatMinor);
  llvm::support::endian::write64le(header + 8, payload.size());
  os.write(header, kHeaderBytes);
  os << payload;
  if (*end == 0)
    return llvm::Error::success();
  uint64_t at = kHeaderBytes + payload.size(); // bytes written so far
  const uint64_t start = dataRegionStart(payload.size());
  for (int i = 0; i < p.constants_size(); ++i) {
    const pb::Constant &c = p.constants(i);
    if (c.size() == 0)
      continue;
    pad(os, start + c.offset() - at);
    llvm::ArrayRef<char> bytes = data[size_t(i)];
    os.write(bytes.data(), bytes.size());
    at = start + c.offset() + c.size();
  }
  return llvm::Error::success();
}

/// Parses a whole file. With `owner`, the constant data is viewed in `bytes`
/// and `owner` kept alive; without, it is copied once.
llvm::Expected<VerifiedProgram>
parseFile(llvm::StringRef bytes, const std::string &nm,
          std::shared_ptr<const void> owner) {
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, 4) != 0)
    return fail("%s: not an lpx program file (bad header)", nm.c_str());
  uint16_t major = llvm::support::endian::read16le(bytes.data() + 4);
  uint16_t minor = llvm::support::endian::read16le(bytes.data() + 6);
  uint64_t size = llvm::support::endian::read64le(bytes.data() + 8);
  if (major != kFormatMajor || minor > kFormatMinor)
    return fail("%s: program format %u.%u, this tool reads %u.%u", nm.c_str(),
                major, minor, kFormatMajor, kFormatMinor);
  const uint64_t present = bytes.size() - kHeaderBytes;
  if (size > present)
    return fail("%s: truncated program file (%llu payload bytes expected, "
                "%llu present)",
                nm.c_str(), (unsigned long long)size,
                (unsigned long long)present);
  if (size > uint64_t(INT_MAX))
    return fail("%s: payload of %llu bytes is over protobuf's 2 GiB limit",
                nm.c_str(), (unsigned long long)size);
  pb::Program p;
  if (!p.ParseFromArray(bytes.data() + kHeaderBytes, static_cast<int>(size)))
    return fail("%s: corrupt program payload", nm.c_str());
  if (minor < 2)
    bindStatesWhole(p);
  const uint64_t start = dataRegionStart(size);
  const uint64_t region = bytes.size() > start ? bytes.size() - start : 0;
  auto end = checkSections(p, region, nm);
  if (!end)
    return end.takeError();
  // The file ends with the payload, or with the last data section.
  uint64_t fileEnd = *end ? start + *end : kHeaderBytes + size;
  if (bytes.size() != fileEnd)
    return fail("%s: %llu bytes after the end of the program (%llu bytes "
                "expected)",
                nm.c_str(), (unsigned long long)(bytes.size() - fileEnd),
                (unsigned long long)fileEnd);
  // Before the description is parsed: an edited one fails here, once.
  if (llvm::Error e = checkChipHash(p))
    return fail("%s: %s", nm.c_str(), llvm::toString(std::move(e)).c_str());
  auto chip = parseChipSpec(p.chip_yaml(), "embedded chip description");
  if (!chip)
    return chip.takeError();
  ConstantData data;
  const char *base = bytes.data() + start;
  if (*end && !owner) {
    auto copy = std::make_shared<const std::string>(base, *end);
    base = copy->data();
    owner = std::move(copy);
  }
  for (const pb::Constant &c : p.constants())
    data.append(c.size() ? llvm::ArrayRef<char>(base + c.offset(), c.size())
                         : llvm::ArrayRef<char>());
  if (*end) // a shape-only program keeps no file bytes alive
    data.keepAlive(std::move(owner));
  auto verified =
      VerifiedProgram::verify(std::move(p), std::move(*chip), std::move(data));
  if (!verified)
    return fail("%s: %s", nm.c_str(),
                llvm::toString(verified.takeError()).c_str());
  return verified;
}

} // namespace

std::string lpx::isa::serializeProgram(const pb::Program &p,
                                       const ConstantData &data) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (llvm::Error e = writeProgram(os, p, data, "memory")) {
    llvm::consumeError(std::move(e));
    return {};
  }
  os.flush();
  return out;
}

llvm::Error lpx::isa::writeProgramFile(const pb::Program &p,
                                       const ConstantData &data,
                                       llvm::StringRef path) {
  // Through the one atomic writer: a failed write leaves no partial program.
  return writeFileAtomicallyChecked(path, [&](llvm::raw_ostream &os) {
    return writeProgram(os, p, data, path.str());
  });
}

llvm::Expected<VerifiedProgram> lpx::isa::parseProgram(llvm::StringRef bytes,
                                                       llvm::StringRef name) {
  return parseFile(bytes, name.str(), nullptr);
}

llvm::Expected<VerifiedProgram> lpx::isa::readProgramFile(llvm::StringRef path) {
  // Large files are mapped, not read: a section's pages are touched only by
  // a reader that needs them (the runtime), never by the simulator.
  auto file = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!file)
    return fail("cannot read '%s': %s", path.str().c_str(),
                file.getError().message().c_str());
  std::shared_ptr<const llvm::MemoryBuffer> buffer = std::move(*file);
  llvm::StringRef bytes = buffer->getBuffer();
  return parseFile(bytes, path.str(), std::move(buffer));
}
