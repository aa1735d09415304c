/* 05_host_backend.h - an out-of-tree backend: the host CPU as a target of its own, #example.host.

   How to write a backend: fill a gpucompile_backend table (every entry is optional; the core
   runs the pipeline and asks the table where a target differs) and register it with
   gpucompile_register_backend before the first compile. Registered under an attribute name, its
   targets then parse and print (#example.host<chip = "generic">), verify with its rules, compile,
   go into binaries (MLIR text and LLVM offload binaries, beside the NVPTX and AMDGPU objects),
   are cached when it gives a cache_version, and take part in run-time selection through its
   select_score. This one uses only the public API: it could sit in a project of its own.
   Include it after gpucompile.h (it defines static functions; one file of a program). A backend
   that a program gets by including its header alone registers from GPUCOMPILE_CONSTRUCTOR and
   fills help, file_ext and triples for --help, file names and other programs' offload entries:
   tests/toy_backend.h is this backend written so. */
#ifndef EXAMPLE_HOST_BACKEND_H
#define EXAMPLE_HOST_BACKEND_H

#include <llvm-c/Target.h>
#include <stdio.h>
#include <string.h>

/* LLVM's native target, initialised once by the core (under its lock). */
static void host_initialize(void) {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

/* One chip: "generic", the baseline of the host's architecture. */
static int host_chip_supported(const char *chip) { return strcmp(chip, "generic") == 0; }
static const char *host_chip_name(int index, int *native) {
    if (native) *native = 1;
    return index == 0 ? "generic" : NULL;
}

/* Runs after the core's checks (O, triple, chip, link, flags): our own rules, MLIR's style. */
static gpucompile_result host_verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    if (!host_chip_supported(gpucompile_target_chip(t)))
        return gpucompile_log_target(logger, "The chip '%.200s' is not one of #example.host's (generic).", gpucompile_target_chip(t));
    if (*gpucompile_target_features(t))
        return gpucompile_log_target(logger, "#example.host takes no features.");
    return GPUCOMPILE_OK;
}

/* Run-time selection: the device "host" takes the host's relocatable object. */
static int host_select_score(const gpucompile_object *o, const char *device, const char **why) {
    if (strcmp(device, "host") != 0) return -2; /* not one of ours */
    if (!o || o->format != GPUCOMPILE_FORMAT_BIN) return -1;
    *why = "object for the host CPU";
    return 1;
}

/* Registers #example.host; its default triple is the host's. */
static gpucompile_result host_backend_register(void) {
    static gpucompile_backend b;
    static char triple[128];
    char *host = LLVMGetDefaultTargetTriple();
    snprintf(triple, sizeof triple, "%s", host);
    LLVMDisposeMessage(host);
    memset(&b, 0, sizeof b);
    b.name = "host";
    b.kind = GPUCOMPILE_TARGET_CUSTOM;
    b.attribute[0] = "example.host";
    b.defaults[0].triple = triple;
    b.defaults[0].chip = "generic";
    b.params[0] = "O,triple,chip,features,flags,link";
    b.verify = host_verify;
    b.chip_supported = host_chip_supported;
    b.chip_name = host_chip_name;
    b.initialize = host_initialize;
    b.bin_from = LLVMObjectFile; /* `bin` is the object LLVM emits, as it is */
    b.formats = 1u << GPUCOMPILE_FORMAT_LLVM | 1u << GPUCOMPILE_FORMAT_ISA | 1u << GPUCOMPILE_FORMAT_BIN;
    b.image_kind_bin = 1; /* LLVM's IMG_Object in offload binaries */
    b.select_score = host_select_score;
    b.device_help = "host";
    b.cache_version = "example.host 1"; /* outputs follow from target, options and input */
    return gpucompile_register_backend(&b);
}

#endif /* EXAMPLE_HOST_BACKEND_H */
