//===- ServiceTableJson.cpp - The service table as JSON -------------------===//
//
// The deploy layer writes the table to its cache and reads it back: every key
// is checked (type, presence, no unknown key) and the table validated, so a
// damaged file is an error and is rebuilt, never trusted.
//
//===----------------------------------------------------------------------===//

#include "lpx/serve/ServiceTable.h"
#include "Fail.h"

#include <set>

using llvm::Error;
using llvm::Expected;
namespace json = llvm::json;

namespace lpx::serve {

static constexpr const char *kFormat = "lpx-service-table";
static constexpr int64_t kVersion = 1;

namespace {

/// A point's keys: its integers, then its time "us". One list per kind of
/// point, for writing and for reading.
struct PointFields {
  std::vector<std::pair<const char *, int64_t *>> integers;
  double *us;
};
PointFields fieldsOf(DecodePoint &p) {
  return {{{"batch", &p.batch}, {"context", &p.context}}, &p.us};
}
PointFields fieldsOf(PrefillPoint &p) {
  return {{{"prompt", &p.prompt}, {"batch", &p.batch}, {"chunk", &p.chunk}},
          &p.us};
}

template <typename P> json::Array pointsJson(std::vector<P> points) {
  json::Array out;
  for (P &p : points) {
    PointFields f = fieldsOf(p);
    json::Object o{{"us", *f.us}};
    for (auto [key, value] : f.integers)
      o[key] = *value;
    out.push_back(std::move(o));
  }
  return out;
}

} // namespace

json::Value toJson(const ServiceTable &t) {
  json::Array decode = pointsJson(t.decode), prefill = pointsJson(t.prefill);
  json::Object o{{"format", kFormat},
                 {"version", kVersion},
                 {"deployment", t.deployment},
                 {"source", t.source},
                 {"cache_key", t.cacheKey},
                 {"interpolation", kInterpolation},
                 {"decode", std::move(decode)},
                 {"prefill", std::move(prefill)},
                 {"prefill_chunk", t.prefillChunk},
                 {"prefill_host_io_us", t.prefillHostIoUs},
                 {"step_host_io_us", t.stepHostIoUs},
                 {"stages", t.stages},
                 {"stage_share", json::Array(t.stageShare)},
                 {"max_sequences", t.maxSequences}};
  if (!t.prefillStageShare.empty())
    o["prefill_stage_share"] = json::Array(t.prefillStageShare);
  return o;
}

static Error fail(const std::string &msg) {
  return failAbout("service table", msg);
}

namespace {
/// Reads the keys of one object, each at most once and all of them known.
class Reader {
public:
  Reader(const json::Object &o, std::string where) : o(o), where(where) {}

  Error integer(llvm::StringRef key, int64_t &out) {
    const json::Value *v = need(key);
    if (!v)
      return missing(key);
    auto i = v->getAsInteger();
    if (!i)
      return fail(where + "'" + key.str() + "' is not an integer");
    out = *i;
    return Error::success();
  }
  Error number(llvm::StringRef key, double &out) {
    const json::Value *v = need(key);
    if (!v)
      return missing(key);
    auto d = v->getAsNumber();
    if (!d)
      return fail(where + "'" + key.str() + "' is not a number");
    out = *d;
    return Error::success();
  }
  Error string(llvm::StringRef key, std::string &out) {
    const json::Value *v = need(key);
    if (!v)
      return missing(key);
    auto s = v->getAsString();
    if (!s)
      return fail(where + "'" + key.str() + "' is not a string");
    out = s->str();
    return Error::success();
  }
  Expected<const json::Array *> array(llvm::StringRef key) {
    const json::Value *v = need(key);
    if (!v)
      return missing(key);
    const json::Array *a = v->getAsArray();
    if (!a)
      return fail(where + "'" + key.str() + "' is not an array");
    return a;
  }
  /// The array `key` of numbers.
  Error numbers(llvm::StringRef key, std::vector<double> &out) {
    auto a = array(key);
    if (!a)
      return a.takeError();
    out.clear();
    for (const json::Value &v : **a) {
      auto d = v.getAsNumber();
      if (!d)
        return fail(where + "a " + key.str() + " entry is not a number");
      out.push_back(*d);
    }
    return Error::success();
  }
  /// Whether the optional key `key` is there.
  bool has(llvm::StringRef key) const { return o.get(key) != nullptr; }
  /// Reads the array `key` of objects, each with `each(reader, index)`,
  /// which must read all of its object's keys.
  template <typename Fn> Error objects(llvm::StringRef key, Fn each) {
    auto a = array(key);
    if (!a)
      return a.takeError();
    for (size_t i = 0; i < (*a)->size(); ++i) {
      std::string at = key.str() + "[" + std::to_string(i) + "]: ";
      const json::Object *p = (**a)[i].getAsObject();
      if (!p)
        return fail(at + "not an object");
      Reader r(*p, at);
      if (Error e = each(r))
        return e;
      if (Error e = r.done())
        return e;
    }
    return Error::success();
  }
  /// Every key of the object was read.
  Error done() const {
    for (const auto &kv : o)
      if (!seen.count(kv.first.str()))
        return fail(where + "unknown key '" + kv.first.str() + "'");
    return Error::success();
  }

private:
  const json::Value *need(llvm::StringRef key) {
    seen.insert(key.str());
    return o.get(key);
  }
  Error missing(llvm::StringRef key) const {
    return fail(where + "'" + key.str() + "' is missing");
  }
  const json::Object &o;
  std::string where;
  std::set<std::string> seen;
};
/// The array `key` of points, each with exactly its kind's keys.
template <typename P>
Error readPoints(Reader &r, llvm::StringRef key, std::vector<P> &out) {
  return r.objects(key, [&](Reader &pr) -> Error {
    P p;
    PointFields f = fieldsOf(p);
    for (auto [name, value] : f.integers)
      if (Error e = pr.integer(name, *value))
        return e;
    if (Error e = pr.number("us", *f.us))
      return e;
    out.push_back(p);
    return Error::success();
  });
}

} // namespace

Expected<ServiceTable> serviceTableFromJson(const json::Value &v) {
  const json::Object *o = v.getAsObject();
  if (!o)
    return fail("not a JSON object");
  Reader r(*o, "");
  std::string format, interpolation;
  int64_t version = 0;
  if (Error e = r.string("format", format))
    return std::move(e);
  if (format != kFormat)
    return fail("format is '" + format + "', not '" + kFormat + "'");
  if (Error e = r.integer("version", version))
    return std::move(e);
  if (version != kVersion)
    return fail("version " + std::to_string(version) + " (this reader knows " +
                std::to_string(kVersion) + ")");
  if (Error e = r.string("interpolation", interpolation))
    return std::move(e);
  if (interpolation != kInterpolation)
    return fail("interpolation '" + interpolation + "' is not this model's ('" +
                kInterpolation + "')");
  ServiceTable t;
  if (Error e = r.string("deployment", t.deployment))
    return std::move(e);
  if (Error e = r.string("source", t.source))
    return std::move(e);
  if (Error e = r.string("cache_key", t.cacheKey))
    return std::move(e);
  if (Error e = readPoints(r, "decode", t.decode))
    return std::move(e);
  if (Error e = readPoints(r, "prefill", t.prefill))
    return std::move(e);
  if (Error e = r.integer("prefill_chunk", t.prefillChunk))
    return std::move(e);
  if (Error e = r.number("prefill_host_io_us", t.prefillHostIoUs))
    return std::move(e);
  if (Error e = r.number("step_host_io_us", t.stepHostIoUs))
    return std::move(e);
  if (Error e = r.integer("stages", t.stages))
    return std::move(e);
  if (Error e = r.numbers("stage_share", t.stageShare))
    return std::move(e);
  if (r.has("prefill_stage_share"))
    if (Error e = r.numbers("prefill_stage_share", t.prefillStageShare))
      return std::move(e);
  if (Error e = r.integer("max_sequences", t.maxSequences))
    return std::move(e);
  if (Error e = r.done())
    return std::move(e);
  if (Error e = validate(t))
    return std::move(e);
  return t;
}

Expected<ServiceTable> parseServiceTable(llvm::StringRef jsonText) {
  auto v = json::parse(jsonText);
  if (!v)
    return fail("not valid JSON: " + llvm::toString(v.takeError()));
  return serviceTableFromJson(*v);
}

} // namespace lpx::serve
