//===- KeyValueSpec.cpp - Comma-separated key=value items -----------------===//

#include "KeyValueSpec.h"

#include "llvm/ADT/SmallVector.h"

namespace lpx::serve {

llvm::Error KeyValueSpec::forEach(
    llvm::function_ref<llvm::Error(llvm::StringRef, llvm::StringRef,
                                   llvm::StringRef)>
        each) const {
  llvm::SmallVector<llvm::StringRef> items;
  text_.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    if (!item.contains('='))
      return fail("'" + item.str() + "' is not " + form_.str());
    auto [key, value] = item.split('=');
    if (llvm::Error e = each(item, key.trim(), value))
      return e;
  }
  return llvm::Error::success();
}

} // namespace lpx::serve
