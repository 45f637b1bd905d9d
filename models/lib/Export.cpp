//===- Export.cpp - Writing a preset as an ONNX model ---------------------===//
#include "lpx/models/Export.h"

#include "DecoderGraph.h"
#include "WeightData.h"
#include "lpx/isa/AtomicFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <google/protobuf/io/zero_copy_stream_impl.h>

using namespace lpx::models;
using lpx::isa::AtomicFile;
namespace fs = llvm::sys::fs;
namespace path = llvm::sys::path;

static llvm::Error error(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg.str());
}

llvm::Error lpx::models::resolveOptions(const DecoderConfig &c,
                                        ExportOptions &o) {
  std::string name = c.name;
  if (o.layers == 0)
    o.layers = c.layers;
  else if (o.layers < 0 || o.layers > c.layers)
    return error("--layers " + llvm::Twine(o.layers) + " is not between 1 and " +
                 llvm::Twine(c.layers) + " (the layers of " + name + ")");
  if (o.context == 0)
    o.context = std::max(c.defaultContext, o.prompt);
  if (o.prompt < 1 || o.prompt > c.maxContext)
    return error("--prompt " + llvm::Twine(o.prompt) + " is not between 1 and " +
                 llvm::Twine(c.maxContext) + " (the context length of " + name +
                 ")");
  if (o.prompt > 1) {
    if (o.context < o.prompt || o.context > c.maxContext)
      return error("--context " + llvm::Twine(o.context) +
                   " is not between --prompt " + llvm::Twine(o.prompt) +
                   " and " + llvm::Twine(c.maxContext) +
                   " (the context length of " + name + ")");
  } else if (o.context < 2 || o.context > c.maxContext)
    return error("--context " + llvm::Twine(o.context) +
                 " is not between 2 (one past position and the new token) and " +
                 llvm::Twine(c.maxContext) + " (the context length of " + name +
                 ")");
  if (o.opset != 13 && o.opset != 23)
    return error("--opset " + llvm::Twine(o.opset) +
                 " is not 13 (primitive ops) or 23 (Attention, "
                 "RotaryEmbedding, RMSNormalization)");
  if (o.logitsAt < -1 || o.logitsAt >= o.prompt || (o.argmax && o.logitsAt < 0))
    return error("the logits position " + llvm::Twine(o.logitsAt) +
                 " is not a position of the " + llvm::Twine(o.prompt) +
                 " tokens of the step");
  if (o.batch < 1 || o.batch > kMaxBatch)
    return error("--batch " + llvm::Twine(o.batch) + " is not between 1 and " +
                 llvm::Twine(kMaxBatch));
  return llvm::Error::success();
}

static bool isShapeOnly(const Parameter &p, const ExportOptions &o) {
  return o.shapeOnly && p.elements() >= kShapeOnlyMinElements;
}

namespace {
/// The model proto of an export and its parameters (data not yet made).
struct Built {
  onnx::ModelProto model;
  std::vector<Parameter> params;
  uint64_t dataBytes = 0; // bytes of the parameters that carry data
};
} // namespace

static std::unique_ptr<Built> build(const DecoderConfig &c,
                                    const ExportOptions &o) {
  auto out = std::make_unique<Built>();
  onnx::ModelProto &m = out->model;
  m.set_ir_version(o.opset >= 23 ? 10 : 7);
  m.set_producer_name("lpx-models");
  m.set_producer_version("1");
  auto *opset = m.add_opset_import();
  opset->set_domain("");
  opset->set_version(o.opset);
  onnx::GraphProto &g = *m.mutable_graph();
  g.set_name(c.name);
  g.set_doc_string((o.prompt > 1 ? "step of " + std::to_string(o.prompt) +
                                        " tokens of "
                                  : std::string("decode step of ")) +
                   c.name + " (" + c.source +
                   "), " + std::to_string(o.layers) + " layers, context " +
                   std::to_string(o.context) + ", batch " +
                   std::to_string(o.batch) +
                   (c.randomWeights || !o.shapeOnly ? ", seeded random weights"
                                                    : ", shape-only weights"));
  GraphBuilder b(g);
  buildDecoderStep(c,
                   {o.layers, o.context, o.batch, o.prompt, o.opset >= 23,
                    o.logitsAt, o.argmax, o.ffnOnly},
                   b);
  out->params = std::move(b.parameters());
  for (const Parameter &p : out->params)
    if (!isShapeOnly(p, o))
      out->dataBytes += p.elements() * sizeof(float);
  return out;
}

ExportSummary lpx::models::summarize(const DecoderConfig &c,
                                     const ExportOptions &o) {
  auto built = build(c, o);
  ExportSummary s;
  s.nodes = uint64_t(built->model.graph().node_size());
  for (const Parameter &p : built->params) {
    s.parameters += p.elements();
    s.shapeOnlyTensors += isShapeOnly(p, o);
  }
  s.externalData = built->dataBytes > kInlineDataLimit;
  return s;
}

static void addExternalEntry(onnx::TensorProto &t, const char *key,
                             const std::string &value) {
  t.set_data_location(onnx::TensorProto::EXTERNAL);
  auto *kv = t.add_external_data();
  kv->set_key(key);
  kv->set_value(value);
}

namespace {
/// Makes the parameters' data, a chunk at a time, reporting progress.
class DataWriter {
public:
  DataWriter(uint64_t total, const ProgressFn &progress)
      : total(total), progress(progress), chunk(size_t(1) << 20) {}
  /// Appends the values of `p` to `os`.
  void write(const Parameter &p, llvm::raw_ostream &os) {
    WeightStream values(p);
    for (uint64_t left = p.elements(); left > 0;) {
      uint64_t n = std::min<uint64_t>(left, chunk.size());
      values.next(chunk.data(), n);
      os.write(reinterpret_cast<const char *>(chunk.data()), n * sizeof(float));
      left -= n;
      advance(n * sizeof(float));
    }
  }
  void advance(uint64_t bytes) {
    done += bytes;
    if (progress)
      progress(done, total);
  }

private:
  uint64_t total, done = 0;
  const ProgressFn &progress;
  std::vector<float> chunk;
};
} // namespace

/// Fills in the initializers of the parameters: data inline, in `data`
/// (at `dataLocation`), or the shape-only marker.
static llvm::Error addParameters(Built &built, const ExportOptions &o,
                                 llvm::raw_fd_ostream *data,
                                 llvm::StringRef dataLocation,
                                 DataWriter &writer) {
  onnx::GraphProto &g = *built.model.mutable_graph();
  uint64_t offset = 0;
  for (const Parameter &p : built.params) {
    onnx::TensorProto &t = *g.add_initializer();
    t.set_name(p.name);
    t.set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : p.dims)
      t.add_dims(d);
    uint64_t bytes = p.elements() * sizeof(float);
    if (isShapeOnly(p, o)) {
      addExternalEntry(t, "location", kShapeOnlyLocation.str());
    } else if (data) {
      writer.write(p, *data);
      if (data->has_error())
        return llvm::createStringError(data->error(), "cannot write the weights to '" +
                                           dataLocation + "': " + data->error().message());
      addExternalEntry(t, "location", dataLocation.str());
      addExternalEntry(t, "offset", std::to_string(offset));
      addExternalEntry(t, "length", std::to_string(bytes));
      offset += bytes;
    } else {
      std::string raw;
      llvm::raw_string_ostream os(raw);
      writer.write(p, os);
      os.flush();
      t.set_raw_data(std::move(raw));
    }
  }
  return llvm::Error::success();
}

static llvm::Error checkFolder(llvm::StringRef file) {
  if (file.empty() || path::filename(file).empty())
    return error("the output file name is empty");
  // Renaming over a device (-o /dev/null) would replace it with a file.
  if (fs::exists(file) && !fs::is_regular_file(file) && !fs::is_directory(file))
    return error("cannot write '" + file + "': it exists and is not a regular file");
  llvm::StringRef dir = path::parent_path(file);
  if (dir.empty())
    dir = ".";
  if (!fs::is_directory(dir))
    return error("cannot write '" + file + "': folder '" + dir +
                 "' does not exist");
  if (fs::is_directory(file))
    return error("cannot write '" + file + "': it is a folder");
  return llvm::Error::success();
}

/// The empty file onnx.checker wants at the shape-only location (the
/// compiler never opens it).
static llvm::Error placeMarkerFile(llvm::StringRef model) {
  llvm::SmallString<256> marker = path::parent_path(model);
  path::append(marker, kShapeOnlyLocation);
  if (fs::exists(marker))
    return llvm::Error::success();
  auto f = AtomicFile::create(marker);
  if (!f)
    return f.takeError();
  return f->commit();
}

llvm::Expected<ExportSummary>
lpx::models::exportModel(const DecoderConfig &c, const ExportOptions &o,
                         llvm::StringRef file, const ProgressFn &progress) {
  if (llvm::Error e = checkFolder(file))
    return std::move(e);
  ExportSummary summary = summarize(c, o);
  auto built = build(c, o);
  DataWriter writer(built->dataBytes, progress);

  std::optional<AtomicFile> dataFile;
  std::string dataPath = (file + ".data").str();
  if (summary.externalData) {
    auto f = AtomicFile::create(dataPath);
    if (!f)
      return f.takeError();
    dataFile.emplace(std::move(*f));
    llvm::raw_fd_ostream os(dataFile->fd(), /*shouldClose=*/false);
    if (llvm::Error e = addParameters(*built, o, &os,
                                      path::filename(dataPath), writer))
      return std::move(e);
    os.flush();
    if (os.has_error()) {
      std::error_code ec = os.error();
      os.clear_error();
      return dataFile->fail(ec);
    }
  } else if (llvm::Error e = addParameters(*built, o, nullptr, "", writer)) {
    return std::move(e);
  }

  auto model = AtomicFile::create(file);
  if (!model)
    return model.takeError();
  {
    google::protobuf::io::FileOutputStream os(model->fd());
    bool ok = built->model.SerializeToZeroCopyStream(&os) && os.Flush();
    if (!ok)
      return error("cannot write '" + file + "': " +
                   std::error_code(os.GetErrno() ? os.GetErrno() : EIO,
                                   std::generic_category())
                       .message());
  }
  if (o.shapeOnly)
    if (llvm::Error e = placeMarkerFile(file))
      return std::move(e);
  if (dataFile)
    if (llvm::Error e = dataFile->commit())
      return std::move(e);
  if (llvm::Error e = model->commit()) {
    if (dataFile)
      fs::remove(dataPath);
    return std::move(e);
  }
  return summary;
}
