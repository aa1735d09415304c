/* 07_vulkan.c - compile kernels for Vulkan: SPIR-V compute shaders with their reflection.

   What it shows: #gpu.vulkan (Vulkan 1.3, SPIR-V 1.6; MLIR's #spirv.target_env<...> works the
   same) compiling LLVM IR in the shape LLVM's SPIR-V backend takes for Vulkan (what clang's HLSL
   front end emits: entry points with "hlsl.numthreads", storage buffers from
   llvm.spv.resource.handlefrombinding, a push-constant block): examples/kernels/saxpy_vulkan.ll
   and reduce_vulkan.ll. The notes the backend logs say what it rewrote or repaired of LLVM 22's
   output. Each module is written as a .spv file (what vkCreateShaderModule takes), with its
   reflection printed twice: from the kernel metadata of the compile, and read back from the
   module's bytes by gpucompile_vulkan_reflect, which needs no LLVM (what an engine calls:
   examples/08_vulkan_runtime.c loads these files and runs them).

   Build: cc -std=c11 examples/07_vulkan.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex07
   Run:   ./ex07 [OUT_DIR]      (writes OUT_DIR/saxpy.spv and OUT_DIR/reduce.spv; default ".";
          exit 0: both compiled; 77: an LLVM without the SPIR-V target, such as LLVM 19) */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_vulkan.h"

#include <stdio.h>
#include <string.h>

/* Errors, warnings and the backend's notes (what it changed in the module or in LLVM's output). */
static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

/* What an engine builds its descriptor set layout, push-constant range and dispatch from. */
static void print_reflection(const gpucompile_vulkan_kernel *k) {
    int i;
    printf("  reflect %s: workgroup size %u x %u x %u, workgroup memory %u bytes\n", k->name, (unsigned)k->local_size[0],
           (unsigned)k->local_size[1], (unsigned)k->local_size[2], (unsigned)k->workgroup_bytes);
    for (i = 0; i < k->num_bindings; i++) {
        const gpucompile_vulkan_binding *b = &k->bindings[i];
        printf("    set %u binding %u: %s buffer, element stride %u, %s\n", (unsigned)b->set, (unsigned)b->binding,
               b->descriptor_type == 7 ? "storage" : "uniform", (unsigned)b->stride, b->read_only ? "read-only" : "read-write");
    }
    for (i = 0; i < k->num_push; i++)
        printf("    push constant %d: offset %u, %u bytes\n", i, (unsigned)k->push[i].offset, (unsigned)k->push[i].size);
}

static int compile(const gpucompile_target *target, const char *name, const char *out_dir) {
    gpucompile_options options;
    gpucompile_object *obj = NULL;
    gpucompile_vulkan_kernel found[4];
    char in[256], out[1024];
    FILE *f;
    int i, n, ok;
    memset(&options, 0, sizeof options); /* zero means default */
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_BIN;
    snprintf(in, sizeof in, "examples/kernels/%s_vulkan.ll", name);
    if (gpucompile_compile_file(in, target, &options, &obj) != GPUCOMPILE_OK) return 1;
    printf("%s: a SPIR-V module of %zu bytes\n", in, obj->size);
    for (i = 0; i < obj->num_kernels; i++) /* the compile's kernel table: MLIR's #gpu.kernel_metadata */
        printf("  kernel %s, workgroup memory %d bytes: %s\n", obj->kernels[i].name, obj->kernels[i].shared_bytes,
               obj->kernels[i].metadata ? obj->kernels[i].metadata : "");
    n = gpucompile_vulkan_reflect(obj->data, obj->size, found, 4); /* the same, from the bytes alone */
    for (i = 0; i < n && i < 4; i++) print_reflection(&found[i]);
    snprintf(out, sizeof out, "%s/%s.spv", out_dir, name);
    ok = n > 0 && (f = fopen(out, "wb")) != NULL;
    if (ok) {
        ok = fwrite(obj->data, 1, obj->size, f) == obj->size;
        ok = fclose(f) == 0 && ok;
    }
    printf("  %s %s\n", ok ? "wrote" : "could not write", out);
    gpucompile_object_free(obj);
    return !ok;
}

int main(int argc, char **argv) {
    const char *out_dir = argc > 1 ? argv[1] : ".";
    gpucompile_logger logger;
    gpucompile_target *target = NULL;
    char text[256];
    int status;
    memset(&logger, 0, sizeof logger);
    logger.func = log_to_stderr;
    /* the target: Vulkan 1.3 and what lavapipe and current desktop drivers support */
    if (gpucompile_target_parse("#gpu.vulkan", (size_t)-1, NULL, &logger, &target) != GPUCOMPILE_OK) return 1;
    if (gpucompile_target_verify(target, &logger) != GPUCOMPILE_OK) { /* said why: no SPIR-V in this LLVM */
        gpucompile_target_free(target);
        return 77;
    }
    gpucompile_target_print(target, text, sizeof text);
    printf("target %s\n", text);
    status = compile(target, "saxpy", out_dir) | compile(target, "reduce", out_dir);
    gpucompile_target_free(target);
    return status;
}
