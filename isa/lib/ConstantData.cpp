//===- ConstantData.cpp - The bytes of a program's constants --------------===//
#include "lpx/isa/ConstantData.h"

#include "llvm/Support/MathExtras.h"

using namespace lpx::isa;

void ConstantData::addView(pb::Program &p, uint32_t buffer,
                           llvm::ArrayRef<char> bytes) {
  pb::Constant *c = p.add_constants();
  c->set_buffer(buffer);
  // Shape-only constants take no section (offset 0, size 0).
  if (!bytes.empty()) {
    uint64_t offset = llvm::alignTo(end, kSectionAlign);
    c->set_offset(offset);
    c->set_size(bytes.size());
    end = offset + bytes.size();
  }
  // One view per constant of `p`, whichever way earlier ones were added.
  views.resize(size_t(p.constants_size()) - 1);
  views.push_back(bytes);
}

void ConstantData::addOwned(pb::Program &p, uint32_t buffer,
                            std::string bytes) {
  auto owned = std::make_shared<const std::string>(std::move(bytes));
  addView(p, buffer, llvm::ArrayRef<char>(owned->data(), owned->size()));
  keepAlive(std::move(owned));
}
