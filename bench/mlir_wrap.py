#!/usr/bin/env python3
"""Wraps an LLVM-dialect module (mlir-translate-N --import-llvm) in a gpu.module for
mlir-opt-N --gpu-module-to-binary (N = 19, 22):  mlir_wrap.py nvvm|rocdl CHIP LIB... < in.mlir > out.mlir
OpenCL kernels (spir_kernel on NVPTX) become nvvm.kernel functions; the module's data layout
attribute is dropped (the gpu.module's target sets it), the rest is kept as imported."""
import re
import sys

kind, chip, libs = sys.argv[1], sys.argv[2], sys.argv[3:]
text = sys.stdin.read()
# Attribute aliases (`#loop_annotation = ...`) come first and stay outside; then the line
# `module [attributes {...}] {`: the body is the rest, to the last brace.
start = re.search(r"^module", text, re.M).start()
aliases, body = text[:start], text[text.index("\n", start) + 1:text.rindex("}")]
if kind == "nvvm":
    # spir_kernel is what clang gives OpenCL kernels on NVPTX; NVVM wants nvvm.kernel.
    body = re.sub(r"llvm\.func spir_kernelcc (@[\w.$]+\(.*?\)) attributes \{",
                  r"llvm.func \1 attributes {nvvm.kernel, ", body)
link = ", ".join('"%s"' % l for l in libs)
# abi "500" on ROCDL: code object v5 on every MLIR (MLIR 22's default is v6), as gpucompile's
# #gpu.amdgpu and the oclc_abi_version_500 library of the link list
abi = ', abi = "500"' if kind == "rocdl" else ""
target = '#%s.target<chip = "%s"%s%s>' % (kind, chip, abi, ", link = [%s]" % link if libs else "")
sys.stdout.write(aliases + "module attributes {gpu.container_module} {\n  gpu.module @k [%s] {\n%s\n  }\n}\n" % (target, body))
