# lit configuration for the lpx IR tests.
import os
import lit.formats
from lit.llvm import llvm_config

config.name = "lpx"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
# .onnxtxt: ONNX models in the ONNX textual format, for lpx-translate.
config.suffixes = [".mlir", ".onnxtxt"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.lpx_obj_root, "tests", "lit")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs"]

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(["lpx-opt", "lpx-translate"],
                                   [config.lpx_tools_dir])
# Folded inputs of ONNX backend node tests (Debian libonnx-testdata).
config.substitutions.append(("%onnx_testdata", "/usr/share/libonnx-testdata"))
