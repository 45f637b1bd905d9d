//===- ProgramFileTest.cpp - Program file header, versions, verification --===//
#include "lpx/isa/Bindings.h"
#include "lpx/isa/Program.h"
#include "lpx/isa/Version.h"

#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <limits>
#include <type_traits>

using namespace lpx::isa;
using ::testing::HasSubstr;

namespace {

/// A one-node program: out = neg(in), 4 f32 each.
pb::Program tinyProgram() {
  auto chip = loadChipSpec("tsp-v1");
  pb::Program p;
  p.set_chip_yaml(printChipSpec(*chip));
  p.set_chip_hash(hashText(p.chip_yaml()));
  p.set_num_nodes(1);
  for (int i = 0; i < 2; ++i) {
    pb::Buffer *b = p.add_buffers();
    b->set_name(i ? "out" : "in");
    b->set_addr(i * 64);
    b->set_bytes(16);
    b->set_dtype(uint32_t(DType::F32));
    b->add_shape(4);
    b->set_kind(i ? pb::OUTPUT : pb::INPUT);
  }
  pb::Instruction *inst = p.add_instructions();
  inst->set_opcode(uint32_t(Opcode::Neg));
  inst->add_operands(0);
  inst->set_result(1);
  return p;
}

// Only the verifier makes a VerifiedProgram.
static_assert(!std::is_default_constructible_v<VerifiedProgram>);
static_assert(!std::is_constructible_v<VerifiedProgram, pb::Program, ChipSpec>);

std::string errorOf(llvm::Expected<VerifiedProgram> p) {
  return p ? "" : llvm::toString(p.takeError());
}

/// The verifier's message for `p` on tsp-v1 ("" when it passes).
std::string check(const pb::Program &p) {
  auto chip = loadChipSpec("tsp-v1");
  llvm::Error e = verifyProgram(p, *chip);
  return e ? llvm::toString(std::move(e)) : std::string();
}

TEST(ProgramFile, RoundTrip) {
  std::string bytes = serializeProgram(tinyProgram());
  ASSERT_EQ(bytes.substr(0, 4), "LPXB");
  auto loaded = parseProgram(bytes, "tiny");
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->program().instructions_size(), 1);
  EXPECT_EQ(loaded->chip().name, "tsp-v1");
}

TEST(ProgramFile, NumberFormatsRoundTripAndUnknownOnesAreRejected) {
  // Format 3.3: the formats the compile held values in.
  pb::Program p = tinyProgram();
  p.set_weights_format("int8");
  p.set_activations_format("fp16");
  EXPECT_EQ(check(p), "");
  auto loaded = parseProgram(serializeProgram(p), "tiny");
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  EXPECT_EQ(loaded->program().weights_format(), "int8");
  EXPECT_EQ(loaded->program().activations_format(), "fp16");
  p.set_weights_format("fp12");
  EXPECT_THAT(check(p), HasSubstr("unknown number format (weights 'fp12'"));
  // int8 holds weights only.
  p.set_weights_format("");
  p.set_activations_format("int8");
  EXPECT_THAT(check(p), HasSubstr("unknown number format"));
}

TEST(ProgramFile, RejectsWrongMagicTruncationAndNewerVersions) {
  std::string bytes = serializeProgram(tinyProgram());
  EXPECT_THAT(errorOf(parseProgram("ONNX" + bytes.substr(4), "f")),
              HasSubstr("not an lpx program"));
  EXPECT_THAT(errorOf(parseProgram(bytes.substr(0, bytes.size() - 3), "f")),
              HasSubstr("truncated"));
  EXPECT_THAT(errorOf(parseProgram(bytes.substr(0, 10), "f")),
              HasSubstr("not an lpx program"));
  std::string newer = bytes;
  newer[6] = char(kFormatMinor + 1); // minor version, little-endian
  EXPECT_THAT(errorOf(parseProgram(newer, "f")),
              HasSubstr("this tool reads"));
  std::string otherMajor = bytes;
  otherMajor[4] = char(kFormatMajor + 1);
  EXPECT_THAT(errorOf(parseProgram(otherMajor, "f")),
              HasSubstr("this tool reads"));
}

/// tinyProgram whose input is written into a state "cache" f32 [1, 2] at
/// position "pos" i64 [1, 1] (a one-entry state_write), with no state
/// binding.
pb::Program withUnboundState() {
  pb::Program p = tinyProgram();
  auto add = [&](const char *name, uint64_t addr, DType t,
                 std::vector<int64_t> shape, pb::BufferKind kind) {
    pb::Buffer *b = p.add_buffers();
    b->set_name(name);
    b->set_addr(addr);
    b->set_dtype(uint32_t(t));
    uint64_t n = 1;
    for (int64_t d : shape)
      b->add_shape(d), n *= uint64_t(d);
    b->set_bytes(n * dtypeBytes(t));
    b->set_kind(kind);
    return uint32_t(p.buffers_size() - 1);
  };
  uint32_t update = add("k", 256, DType::F32, {1, 1}, pb::INPUT);
  uint32_t pos = add("pos", 320, DType::I64, {1, 1}, pb::INPUT);
  uint32_t state = add("cache", 4096, DType::F32, {1, 2}, pb::STATE);
  for (auto [name, id] : {std::pair{"k", update}, std::pair{"pos", pos}}) {
    pb::Binding *b = p.add_inputs();
    b->set_name(name);
    b->set_buffer(id);
  }
  pb::Instruction *w = p.add_instructions();
  w->set_opcode(uint32_t(Opcode::StateWrite));
  w->add_operands(update);
  w->add_operands(pos);
  w->set_result(state);
  w->mutable_attributes()->mutable_axis()->set_axis(1);
  return p;
}

TEST(ProgramFile, StateBindingsRequiredFrom32AndImpliedBefore) {
  pb::Program p = withUnboundState();
  EXPECT_THAT(check(p), HasSubstr("state buffer cache has no state binding"));
  // A 3.1 file had no state bindings: its state buffers are bound whole.
  std::string old = serializeProgram(p);
  old[6] = char(1); // minor version, little-endian
  auto loaded = parseProgram(old, "f");
  ASSERT_TRUE(bool(loaded)) << llvm::toString(loaded.takeError());
  ASSERT_EQ(loaded->program().states_size(), 1);
  EXPECT_EQ(loaded->program().states(0).name(), "cache");
  // Bound as state, the same program is a 3.2 one.
  *p.add_states() = loaded->program().states(0);
  EXPECT_EQ(check(p), "");
  pb::Binding *twice = p.add_states(); // the same buffer as another state
  *twice = p.states(0);
  twice->set_name("cache2");
  EXPECT_THAT(check(p), HasSubstr("buffer cache is bound twice"));
}

/// tinyProgram with two 16-byte f32 constants "w1" and "w2" (values 1..4
/// and 5..8) in `data`.
pb::Program withConstants(ConstantData &data) {
  pb::Program p = tinyProgram();
  for (int i = 0; i < 2; ++i) {
    pb::Buffer *b = p.add_buffers();
    b->set_name("w" + std::to_string(i + 1));
    b->set_addr(128 + 64 * i);
    b->set_bytes(16);
    b->set_dtype(uint32_t(DType::F32));
    b->add_shape(4);
    b->set_kind(pb::CONSTANT);
    float v[4] = {1.f + 4 * i, 2.f + 4 * i, 3.f + 4 * i, 4.f + 4 * i};
    data.addOwned(p, uint32_t(p.buffers_size() - 1),
                  std::string(reinterpret_cast<char *>(v), sizeof v));
  }
  return p;
}

/// A file made by hand: header, `p` as payload, padding to 64, `region`.
std::string fileOf(const pb::Program &p, const std::string &region) {
  std::string payload = p.SerializeAsString();
  std::string out = serializeProgram(tinyProgram()).substr(0, kHeaderBytes);
  llvm::support::endian::write64le(&out[8], payload.size());
  out += payload;
  out.resize((out.size() + 63) / 64 * 64, '\0');
  return out + region;
}

TEST(ProgramFile, ConstantDataLiesInAlignedSectionsAfterThePayload) {
  ConstantData data;
  pb::Program p = withConstants(data);
  EXPECT_EQ(p.constants(0).offset(), 0u);
  EXPECT_EQ(p.constants(1).offset(), 64u); // 16 bytes, then padding
  EXPECT_EQ(p.constants(1).size(), 16u);
  std::string bytes = serializeProgram(p, data);
  const size_t payload = llvm::support::endian::read64le(&bytes[8]);
  const size_t start = (kHeaderBytes + payload + 63) / 64 * 64;
  ASSERT_EQ(bytes.size(), start + 64 + 16);
  EXPECT_EQ(bytes.substr(start + 64), std::string(data[1].data(), 16));
  auto loaded = parseProgram(bytes, "f");
  ASSERT_TRUE(bool(loaded)) << errorOf(std::move(loaded));
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(std::string(loaded->data()[i].data(), 16),
              std::string(data[i].data(), 16));
  // The payload holds offsets and sizes, never the bytes.
  for (size_t i = 0; i < 2; ++i)
    EXPECT_EQ(bytes.substr(0, start).find(std::string(data[i].data(), 16)),
              std::string::npos);
}

TEST(ProgramFile, TruncatedMisalignedOrOverlappingSectionsAreRejected) {
  ConstantData data;
  pb::Program p = withConstants(data);
  std::string bytes = serializeProgram(p, data);
  EXPECT_EQ(errorOf(parseProgram(bytes.substr(0, bytes.size() - 1), "f")),
            "f: truncated program file (data section of constant 'w2' ends "
            "at byte 80 of the data region, which has 79)");
  EXPECT_EQ(errorOf(parseProgram(bytes + "x", "f")),
            "f: 1 bytes after the end of the program (" +
                std::to_string(bytes.size()) + " bytes expected)");
  std::string region(96, '\0');
  pb::Program misaligned = p;
  misaligned.mutable_constants(1)->set_offset(72);
  EXPECT_EQ(errorOf(parseProgram(fileOf(misaligned, region), "f")),
            "f: data section of constant 'w2' at offset 72 is not 64-byte "
            "aligned");
  pb::Program overlapping = p;
  overlapping.mutable_constants(1)->set_offset(0);
  EXPECT_EQ(errorOf(parseProgram(fileOf(overlapping, region), "f")),
            "f: data section of constant 'w2' at offset 0 overlaps the "
            "previous one (which ends at 16)");
  pb::Program wrongSize = p;
  wrongSize.mutable_constants(1)->set_size(8);
  EXPECT_THAT(errorOf(parseProgram(fileOf(wrongSize, region.substr(0, 72)),
                                   "f")),
              HasSubstr("constant w2: 8 bytes of data for a 16-byte buffer"));
}

TEST(ProgramFile, WriterChecksDataAgainstTheMessage) {
  ConstantData data;
  pb::Program p = withConstants(data);
  std::string path = ::testing::TempDir() + "/lpx-program-data-test.lpxb";
  llvm::Error e = writeProgramFile(p, ConstantData(), path);
  EXPECT_EQ(llvm::toString(std::move(e)),
            "cannot write '" + path +
                "': constant 0 (buffer 2): 0 bytes of data, 16 declared");
  EXPECT_FALSE(llvm::sys::fs::exists(path));
  EXPECT_FALSE(llvm::sys::fs::exists(path + ".tmp"));
  ASSERT_FALSE(bool(writeProgramFile(p, data, path)));
  auto loaded = readProgramFile(path); // mapped: data viewed in the file
  ASSERT_TRUE(bool(loaded)) << errorOf(std::move(loaded));
  EXPECT_EQ(std::string(loaded->data()[1].data(), 16),
            std::string(data[1].data(), 16));
  llvm::sys::fs::remove(path);
}

TEST(ProgramFile, ChipTextMustMatchItsHash) {
  pb::Program p = tinyProgram();
  p.set_chip_yaml(p.chip_yaml() + "# edited\n");
  EXPECT_THAT(errorOf(parseProgram(serializeProgram(p), "f")),
              HasSubstr("does not match its hash"));
}

// A description edited after compiling (here: more SRAM claimed than the
// program was compiled for) is one clear error, from the verifier as from
// the file reader, not a parse error or a later check's.
TEST(ProgramFile, VerifyChecksTheEmbeddedChipAgainstItsHash) {
  auto chip = loadChipSpec("tsp-v1");
  pb::Program p = tinyProgram();
  std::string yaml = p.chip_yaml();
  size_t at = yaml.find("bytes: ");
  ASSERT_NE(at, std::string::npos);
  yaml.insert(at + 7, "9");
  p.set_chip_yaml(yaml);
  EXPECT_EQ(errorOf(VerifiedProgram::verify(p, *chip)),
            "chip description does not match its hash");
  EXPECT_EQ(errorOf(parseProgram(serializeProgram(p), "f")),
            "f: chip description does not match its hash");
  p.set_chip_hash(hashText(yaml)); // the same text, hashed: verifies
  EXPECT_EQ(errorOf(VerifiedProgram::verify(p, *chip)), "");
}

TEST(ProgramFile, VerifierNamesTheProblem) {
  auto chip = loadChipSpec("tsp-v1");
  pb::Program p = tinyProgram();
  p.mutable_instructions(0)->set_result(7);
  EXPECT_THAT(check(p), HasSubstr("result buffer 7 out of range"));
  p = tinyProgram();
  p.mutable_buffers(1)->set_bytes(15);
  EXPECT_THAT(check(p), HasSubstr("do not match its shape"));
  p = tinyProgram();
  p.mutable_buffers(1)->set_addr(chip->sram.bytes - 8);
  EXPECT_THAT(check(p), HasSubstr("outside node SRAM"));
  p = tinyProgram();
  p.mutable_instructions(0)->set_opcode(999);
  EXPECT_THAT(check(p), HasSubstr("unknown opcode"));
  p = tinyProgram();
  p.mutable_instructions(0)->add_operands(0);
  EXPECT_THAT(check(p), HasSubstr("expects 1 operands, has 2"));
  p = tinyProgram();
  *p.add_instructions() = p.instructions(0);
  p.mutable_instructions(0)->set_issue(5);
  EXPECT_THAT(check(p), HasSubstr("must be sorted"));
  p = tinyProgram();
  p.mutable_buffers(0)->set_node(3);
  EXPECT_THAT(check(p), HasSubstr("node 3 out of range"));
  p = tinyProgram();
  p.mutable_buffers(0)->set_dtype(8); // ONNX string
  EXPECT_THAT(check(p), HasSubstr("unknown element type"));
}

TEST(ProgramFile, VerifierChecksTheAttributeMessageOfEachOpcode) {
  // neg has no attributes.
  pb::Program p = tinyProgram();
  p.mutable_instructions(0)->mutable_attributes()->mutable_axis();
  EXPECT_THAT(check(p), HasSubstr("(neg): carries attributes of another"));
  // pad needs PadAttrs: one begin and one end per dimension, a known mode.
  p = tinyProgram();
  pb::Instruction *pad = p.mutable_instructions(0);
  pad->set_opcode(uint32_t(Opcode::Pad));
  EXPECT_THAT(check(p), HasSubstr("(pad): missing attributes"));
  pad->mutable_attributes()->mutable_axis()->set_axis(0);
  EXPECT_THAT(check(p), HasSubstr("(pad): carries attributes of another"));
  pb::PadAttrs *a = pad->mutable_attributes()->mutable_pad();
  a->add_begin(0);
  EXPECT_THAT(check(p), HasSubstr("(pad): expects 1 end pads, has 0"));
  a->add_end(0);
  EXPECT_EQ(check(p), "");
  a->set_mode(pb::PadMode(7)); // an enum value this format does not know
  EXPECT_THAT(check(p), HasSubstr("(pad): unknown mode 7"));
}

TEST(ProgramFile, FormatOneIsRejectedWithTheVersionMessage) {
  std::string bytes = serializeProgram(tinyProgram());
  bytes[4] = 1; // format 1.x: untyped integer attributes
  bytes[6] = 1;
  EXPECT_THAT(errorOf(parseProgram(bytes, "old.lpxb")),
              HasSubstr("old.lpxb: program format 1.1, this tool reads"));
}

TEST(ProgramFile, WriteIsAllOrNothing) {
  std::string dir = ::testing::TempDir();
  std::string path = dir + "/lpx-program-test.lpxb";
  ASSERT_FALSE(bool(writeProgramFile(tinyProgram(), {}, path)));
  auto loaded = readProgramFile(path);
  EXPECT_TRUE(bool(loaded)) << errorOf(std::move(loaded));
  llvm::Error e = writeProgramFile(tinyProgram(), {}, "/nonexistent-dir/x.lpxb");
  EXPECT_TRUE(bool(e));
  llvm::consumeError(std::move(e));
}

} // namespace

/// Two [2, 4] f32 input pieces of one [4, 4] tensor "x" (rows 0-1 and 2-3).
pb::Program piecesProgram(int64_t secondRow) {
  pb::Program p = tinyProgram();
  for (int i = 0; i < 2; ++i) {
    pb::Buffer *b = p.add_buffers();
    b->set_name("x" + std::to_string(i));
    b->set_addr(128 + 64 * i);
    b->set_bytes(32);
    b->set_dtype(uint32_t(DType::F32));
    b->add_shape(2);
    b->add_shape(4);
    b->set_kind(pb::INPUT);
    pb::Binding *bind = p.add_inputs();
    bind->set_name("x");
    bind->set_buffer(uint32_t(p.buffers_size() - 1));
    bind->add_offsets(i ? secondRow : 0);
    bind->add_offsets(0);
  }
  return p;
}

TEST(ProgramFile, InputPiecesTileTheWholeTensor) {
  auto chip = loadChipSpec("tsp-v1");
  ASSERT_TRUE(bool(chip));
  pb::Program good = piecesProgram(2);
  ASSERT_FALSE(bool(verifyProgram(good, *chip)));
  auto tensors = groupBindings(good, good.inputs());
  ASSERT_TRUE(bool(tensors));
  ASSERT_EQ(tensors->size(), 1u);
  EXPECT_EQ((*tensors)[0].shape, (std::vector<int64_t>{4, 4}));
  EXPECT_EQ((*tensors)[0].pieces.size(), 2u);
  // Row 1 again overlaps the first piece; row 3 leaves a gap at row 2.
  for (int64_t bad : {1, 3}) {
    llvm::Error e = verifyProgram(piecesProgram(bad), *chip);
    EXPECT_THAT(llvm::toString(std::move(e)), HasSubstr("gap or overlap"));
  }
}

/// Pieces of a [4, 4] tensor given as (shape, offsets) lists.
static std::optional<std::string>
gridOf(std::vector<std::pair<std::vector<int64_t>, std::vector<int64_t>>> ps,
       std::vector<int64_t> &whole) {
  std::vector<PieceBox> boxes;
  for (auto &[shape, offsets] : ps)
    boxes.push_back({shape, offsets});
  return tileGrid(boxes, whole);
}

TEST(ProgramFile, PiecesMayTileAGrid) {
  std::vector<int64_t> whole;
  // 2 x 2 blocks of [2, 2]: the rows and columns of a product split
  // across groups.
  EXPECT_EQ(gridOf({{{2, 2}, {0, 0}}, {{2, 2}, {0, 2}}, {{2, 2}, {2, 0}},
                    {{2, 2}, {2, 2}}},
                   whole),
            std::nullopt);
  EXPECT_EQ(whole, (std::vector<int64_t>{4, 4}));
  // Uneven blocks along each axis are a grid as long as they line up.
  EXPECT_EQ(gridOf({{{3, 1}, {0, 0}}, {{3, 3}, {0, 1}}, {{1, 1}, {3, 0}},
                    {{1, 3}, {3, 1}}},
                   whole),
            std::nullopt);
  // A block missing leaves a gap; one given twice overlaps; rows 0-1 whole
  // beside two blocks of rows 2-3 cover the tensor but are no grid (its
  // cuts make 4 cells for 3 pieces); an offset past int64 is refused.
  EXPECT_THAT(*gridOf({{{2, 2}, {0, 0}}, {{2, 2}, {0, 2}}, {{2, 2}, {2, 0}}},
                      whole),
              HasSubstr("gap"));
  EXPECT_THAT(*gridOf({{{2, 2}, {0, 0}}, {{2, 2}, {0, 0}}, {{2, 2}, {0, 2}},
                       {{2, 2}, {2, 0}}, {{2, 2}, {2, 2}}},
                      whole),
              HasSubstr("overlap"));
  EXPECT_THAT(*gridOf({{{2, 4}, {0, 0}}, {{2, 2}, {2, 0}}, {{2, 2}, {2, 2}}},
                      whole),
              HasSubstr("gap"));
  EXPECT_THAT(*gridOf({{{2, 4}, {0, 0}},
                       {{2, 4}, {std::numeric_limits<int64_t>::max() - 1, 0}}},
                      whole),
              HasSubstr("out of range"));
}

TEST(ProgramFile, CopyPieceMovesTheRightBlock) {
  pb::Program p = piecesProgram(2);
  std::vector<float> whole(16), piece(8, -1);
  for (int i = 0; i < 16; ++i)
    whole[i] = float(i);
  auto *w = reinterpret_cast<uint8_t *>(whole.data());
  auto *c = reinterpret_cast<uint8_t *>(piece.data());
  copyPiece(p, p.inputs(1), {4, 4}, w, c, /*toPiece=*/true);
  EXPECT_EQ(piece, (std::vector<float>{8, 9, 10, 11, 12, 13, 14, 15}));
}
