//===- SweepShard.cpp - One of N disjoint parts of a sweep ----------------===//
#include "lpx/deploy/SweepShard.h"
#include "lpx/deploy/DeployError.h"

#include <algorithm>

#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace lpx::deploy;
using llvm::StringRef;

namespace {

constexpr StringRef kPrefix = "# lpx sweep part ";

} // namespace

llvm::Expected<Shard> lpx::deploy::parseShard(StringRef text) {
  auto [i, n] = text.split('/');
  size_t index, count;
  if (i.trim().getAsInteger(10, index) || n.trim().getAsInteger(10, count) ||
      count == 0 || index == 0 || index > count)
    return error("--shard '" + text +
                 "': expected I/N with 1 <= I <= N, e.g. 3/8");
  return Shard{index - 1, count};
}

std::vector<size_t> lpx::deploy::shardPoints(size_t total, Shard shard,
                                             size_t run) {
  run = std::max<size_t>(run, 1);
  std::vector<size_t> out;
  for (size_t p = 0; p < total; ++p)
    if ((p / run) % shard.count == shard.index)
      out.push_back(p);
  return out;
}

std::string lpx::deploy::partLine(const PartInfo &info) {
  llvm::json::Array axes;
  for (const Axis &a : info.axes) {
    llvm::json::Array values;
    for (const std::string &v : a.values)
      values.push_back(v);
    axes.push_back(llvm::json::Object{{"key", a.key},
                                      {"values", std::move(values)}});
  }
  llvm::json::Object o{{"model", info.model},
                       {"chip", info.chip},
                       {"shard", int64_t(info.shard.index + 1)},
                       {"shards", int64_t(info.shard.count)},
                       {"axes", std::move(axes)}};
  if (!info.kind.empty()) {
    o["kind"] = info.kind;
    o["base"] = info.base;
  }
  return (kPrefix + llvm::formatv("{0}", llvm::json::Value(std::move(o))).str() +
          "\n")
      .str();
}

llvm::Expected<PartInfo> lpx::deploy::parsePartLine(StringRef line) {
  if (!line.consume_front(kPrefix))
    return error("it does not start with '" + kPrefix.rtrim() +
                 "': not written by `lpx sweep --shard`");
  auto value = llvm::json::parse(line.rtrim("\r\n"));
  if (!value)
    return error("its first line is not valid: " +
                 llvm::toString(value.takeError()));
  PartInfo info;
  const llvm::json::Object *o = value->getAsObject();
  std::optional<int64_t> shard, shards;
  const llvm::json::Array *axes = nullptr;
  if (o) {
    shard = o->getInteger("shard");
    shards = o->getInteger("shards");
    axes = o->getArray("axes");
    if (auto m = o->getString("model"))
      info.model = m->str();
    if (auto c = o->getString("chip"))
      info.chip = c->str();
    if (auto k = o->getString("kind"))
      info.kind = k->str();
    if (auto b = o->getString("base"))
      info.base = b->str();
  }
  if (!shard || !shards || !axes || *shards < 1 || *shard < 1 ||
      *shard > *shards)
    return error("its first line lacks the shard, shard count or axes");
  info.shard = Shard{size_t(*shard - 1), size_t(*shards)};
  for (const llvm::json::Value &a : *axes) {
    const llvm::json::Object *ao = a.getAsObject();
    const llvm::json::Array *values = ao ? ao->getArray("values") : nullptr;
    std::optional<StringRef> key = ao ? ao->getString("key") : std::nullopt;
    if (!key || !values || values->empty())
      return error("its first line has an axis without a key or values");
    Axis axis{key->str(), {}};
    for (const llvm::json::Value &v : *values) {
      std::optional<StringRef> s = v.getAsString();
      if (!s)
        return error("axis " + *key + " has a value that is not a string");
      axis.values.push_back(s->str());
    }
    info.axes.push_back(std::move(axis));
  }
  return info;
}
