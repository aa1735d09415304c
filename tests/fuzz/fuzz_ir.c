/* libFuzzer target: IR text through the whole pipeline to PTX, in process.
   Slow per input (a compile each); the target is #gpu.nvptx<chip = "sm_80"> unless
   FUZZ_IR_TARGET names another (e.g. an AMDGPU one). A crash here is LLVM dying on input we
   let through: the fix is to refuse that input before LLVM.
   Bitcode is left out unless FUZZ_IR_BITCODE=1: LLVM 19's bitcode reader is not hardened
   against hostile bytes (seen: a 32 GB allocation from a corrupt attribute index, leaked
   forward references), which no check of ours can prevent before LLVM reads them; the header
   says so and points untrusted bitcode to options.isolate. */
#include "fuzz.h"

static int fuzz_ir(const uint8_t *data, size_t size) {
    static gpucompile_target *target;
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    gpucompile_result r;
    if (!target) {
        const char *text = getenv("FUZZ_IR_TARGET");
        if (gpucompile_target_parse(text ? text : "#gpu.nvptx<chip = \"sm_80\">", (size_t)-1, NULL, NULL, &target) != GPUCOMPILE_OK)
            abort(); /* a bad FUZZ_IR_TARGET: nothing to fuzz */
    }
    if (size >= 2 && ((data[0] == 'B' && data[1] == 'C') || (data[0] == 0xDE && data[1] == 0xC0)) && !getenv("FUZZ_IR_BITCODE"))
        return 0;
    memset(&opts, 0, sizeof opts);
    opts.format = size > 0 && (data[size - 1] & 1) ? GPUCOMPILE_FORMAT_LLVM : GPUCOMPILE_FORMAT_ISA;
    r = gpucompile_compile_ir(data, size, "fuzz.ll", target, &opts, &o);
    if (r == GPUCOMPILE_OK && (!o || !o->data)) FUZZ_FAIL("success without an object");
    if (r != GPUCOMPILE_OK && o) FUZZ_FAIL("failure with an object");
    gpucompile_object_free(o);
    return 0;
}
