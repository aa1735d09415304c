/* toy_backend.h - one backend more, in one header: examples/05_host_backend.h under
   another attribute (#toy.cpu) and triple (the host's architecture, environment "toy"), which
   registers itself at start-up. Including it in the one file that holds the implementation (or
   beside it) is all a program does: the target then parses, compiles (in this program's own
   workers too), lists itself in gpucompile_targets_help, names its files (gpucompile_format_ext),
   owns offload entries of its triples and takes part in run-time selection (device "toy").
   tests/test_toy.c is such a program. Only the public API and backend helpers are used. */
#ifndef TOY_BACKEND_H
#define TOY_BACKEND_H
#if !defined(GPUCOMPILE_H)
#error "toy_backend.h: include gpucompile.h first"
#endif
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers' macros: GPUCOMPILE_CONSTRUCTOR */
#include "gpucompile_runtime.h"
#include <llvm-c/Target.h>
#include <stdio.h>
#include <string.h>

/* LLVM's native target, initialised once by the core (under its lock). */
GPUCOMPILE_PRIVATE void toy_initialize(void) {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

/* One chip: "generic", the baseline of the host's architecture. */
GPUCOMPILE_PRIVATE int toy_chip_supported(const char *chip) { return strcmp(chip, "generic") == 0; }
GPUCOMPILE_PRIVATE const char *toy_chip_name(int index, int *native) {
    if (native) *native = 1;
    return index == 0 ? "generic" : NULL;
}

#define TOY_TRIPLES "*-*-*-toy" /* any architecture, environment toy */

GPUCOMPILE_PRIVATE gpucompile_result toy_verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    if (!gpucompile_triple_in(TOY_TRIPLES, gpucompile_target_triple(t)))
        return gpucompile_log_target(logger, "The triple '%.200s' is not one of #toy.cpu's (ARCH-*-*-toy).", gpucompile_target_triple(t));
    if (!toy_chip_supported(gpucompile_target_chip(t)))
        return gpucompile_log_target(logger, "The chip '%.200s' is not one of #toy.cpu's (generic).", gpucompile_target_chip(t));
    return GPUCOMPILE_OK;
}

/* Run-time selection: the device "toy" takes an object of a toy triple. */
GPUCOMPILE_PRIVATE int toy_select_score(const gpucompile_object *o, const char *device, const char **why) {
    if (strcmp(device, "toy") != 0) return -2;
    if (!o || o->format != GPUCOMPILE_FORMAT_BIN || !gpucompile_triple_in(TOY_TRIPLES, o->triple)) return -1;
    *why = "object for the toy CPU";
    return 1;
}

GPUCOMPILE_CONSTRUCTOR(toy_register) {
    static gpucompile_backend b;
    static char triple[128];
    char *host = LLVMGetDefaultTargetTriple();
    snprintf(triple, sizeof triple, "%.*s-unknown-unknown-toy", (int)strcspn(host, "-"), host);
    LLVMDisposeMessage(host);
    b.name = "toy";
    b.kind = GPUCOMPILE_TARGET_CUSTOM;
    b.attribute[0] = "toy.cpu";
    b.defaults[0].triple = triple;
    b.defaults[0].chip = "generic";
    b.params[0] = "O,triple,chip,flags,link";
    b.verify = toy_verify;
    b.chip_supported = toy_chip_supported;
    b.chip_name = toy_chip_name;
    b.initialize = toy_initialize;
    b.bin_from = LLVMObjectFile;
    b.image_kind_bin = GPUCOMPILE_IMG_OBJECT;
    b.triples = TOY_TRIPLES;
    b.select_score = toy_select_score;
    b.device_help = "toy";
    b.help = "the host CPU under another name (tests/toy_backend.h)";
    b.file_ext[GPUCOMPILE_FORMAT_ISA] = "toys";
    b.file_ext[GPUCOMPILE_FORMAT_BIN] = "toyo";
    b.cache_version = "toy 1";
    gpucompile_register_backend(&b);
}

#endif /* TOY_BACKEND_H */
