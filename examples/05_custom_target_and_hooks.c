/* 05_custom_target_and_hooks.c - a backend of your own (05_host_backend.h, out of tree), and
   the pipeline hooks that show the IR after each stage.

   What it shows: gpucompile's pipeline (parse, verify, link, optimize, emit) is not tied to
   NVIDIA or AMD. 05_host_backend.h registers #example.host, a target for the host CPU (x86-64,
   AArch64, ...: whatever LLVM's native target is), whose `bin` is an ordinary ELF/COFF/Mach-O
   relocatable file. This program parses, prints and verifies such a target, compiles for it
   with hooks (MLIR's initialLlvmIRCallback, linkedLlvmIRCallback, optimizedLlvmIRCallback,
   isaCallback and the pre-link step) that print the module after each stage, to stderr or into
   a directory (a hook may also change the module or stop the compile), compiles again through
   the cache, puts the object into one binary with an NVPTX and an AMDGPU object, writes and
   reads that binary in both forms (LLVM offload binary, MLIR text) and selects an object for
   the devices "host", "sm_80" and "gfx90a".

   Build: cc -std=c11 examples/05_custom_target_and_hooks.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex05
   Run:   ./ex05 [DUMP_DIR [OBJECT_OUT]]
          (DUMP_DIR: write 1-initial_ir.ll ... 5-isa.s there instead of stderr, and keep the
          compile cache in DUMP_DIR/cache; OBJECT_OUT: the object)
*/
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include "05_host_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A CPU version of saxpy: the host target sees a plain function, not a GPU kernel. */
static const char source[] =
    "define void @saxpy(float %a, ptr %x, ptr %y, i32 %n) {\n"
    "entry:\n"
    "  %any = icmp sgt i32 %n, 0\n"
    "  br i1 %any, label %loop, label %exit\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %entry ], [ %next, %loop ]\n"
    "  %px = getelementptr float, ptr %x, i32 %i\n"
    "  %py = getelementptr float, ptr %y, i32 %i\n"
    "  %vx = load float, ptr %px\n"
    "  %vy = load float, ptr %py\n"
    "  %ax = fmul float %a, %vx\n"
    "  %s = fadd float %ax, %vy\n"
    "  store float %s, ptr %py\n"
    "  %next = add i32 %i, 1\n"
    "  %more = icmp slt i32 %next, %n\n"
    "  br i1 %more, label %loop, label %exit\n"
    "exit:\n"
    "  ret void\n"
    "}\n";

/* ---- hooks: one dump per stage --------------------------------------------------------- */
typedef struct dump_state {
    const char *dir; /* NULL: stderr */
    int count;
} dump_state;

static void dump(dump_state *s, const char *stage, const char *ext, const char *text, size_t size) {
    char path[4096];
    FILE *f = stderr;
    s->count++;
    if (s->dir) {
        snprintf(path, sizeof path, "%s/%d-%s%s", s->dir, s->count, stage, ext);
        if (!(f = fopen(path, "w"))) {
            fprintf(stderr, "cannot write %s\n", path);
            return;
        }
    } else {
        fprintf(stderr, "=== %s ===\n", stage);
    }
    fwrite(text, 1, size, f);
    if (f != stderr) fclose(f);
}

static gpucompile_result dump_module(void *user_data, const char *stage, LLVMModuleRef m) {
    char *text = LLVMPrintModuleToString(m);
    dump((dump_state *)user_data, stage, ".ll", text, strlen(text));
    LLVMDisposeMessage(text);
    return GPUCOMPILE_OK; /* anything else stops the compile with that result */
}

static gpucompile_result on_initial(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; return dump_module(u, "initial_ir", m); }
static gpucompile_result on_pre_link(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; return dump_module(u, "pre_link", m); }
static gpucompile_result on_post_link(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; return dump_module(u, "post_link", m); }
static gpucompile_result on_optimized(gpucompile_job *j, LLVMModuleRef m, void *u) { (void)j; return dump_module(u, "optimized_ir", m); }
static gpucompile_result on_isa(gpucompile_job *j, const char *text, size_t size, void *u) {
    (void)j;
    dump((dump_state *)u, "isa", ".s", text, size);
    return GPUCOMPILE_OK;
}

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity != GPUCOMPILE_SEVERITY_NOTE)
        fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

/* The same kernel for the GPUs (the target sets triple and data layout). */
static const char gpu_source[] =
    "define %s void @scale(ptr addrspace(1) %%p, float %%a) {\n"
    "  %%v = load float, ptr addrspace(1) %%p\n"
    "  %%m = fmul float %%v, %%a\n"
    "  store float %%m, ptr addrspace(1) %%p\n"
    "  ret void\n"
    "}\n";

/* One object of gpu_source for target text (parsed as any target is). */
static gpucompile_object *compile_gpu(const char *text, const char *cc, gpucompile_format format, const gpucompile_options *base) {
    gpucompile_target *t = NULL;
    gpucompile_object *obj = NULL;
    gpucompile_options o = *base;
    char ir[512];
    o.hooks = NULL;
    o.format = format;
    snprintf(ir, sizeof ir, gpu_source, cc);
    if (gpucompile_target_parse(text, (size_t)-1, NULL, &o.logger, &t) == GPUCOMPILE_OK)
        gpucompile_compile_ir(ir, strlen(ir), "scale", t, &o, &obj);
    gpucompile_target_free(t);
    return obj;
}

/* Run-time choice: the object the device would load. */
static void select_for(const gpucompile_binary *bin, const char *what, const char *arch) {
    gpucompile_device d;
    int index = -1;
    memset(&d, 0, sizeof d);
    d.arch = arch;
    if (gpucompile_binary_select(bin, &d, NULL, &index) == GPUCOMPILE_OK)
        printf("%s: device %s loads object %d, %s\n", what, arch, index, bin->objects[index]->target);
    else printf("%s: device %s: no object\n", what, arch);
}

int main(int argc, char **argv) {
    gpucompile_target *target = NULL;
    gpucompile_hooks hooks;
    gpucompile_options options;
    gpucompile_object *obj = NULL, *again = NULL, *gpu[2] = {NULL, NULL};
    gpucompile_binary *bin = NULL, *back = NULL;
    dump_state state;
    gpucompile_result r;
    unsigned char *offload = NULL;
    char text[512], cache[4096], *mlir = NULL;
    size_t offload_size = 0, n;
    int i, status = 1;

    /* The backend, registered once before any compile; from now on its attribute parses. */
    if (host_backend_register() != GPUCOMPILE_OK) return fputs("cannot register the backend\n", stderr), 1;

    state.dir = argc > 1 ? argv[1] : NULL;
    state.count = 0;
    memset(&hooks, 0, sizeof hooks);
    hooks.user_data = &state;
    hooks.initial_ir = on_initial;
    hooks.pre_link = on_pre_link;
    hooks.post_link = on_post_link;
    hooks.optimized_ir = on_optimized;
    hooks.isa = on_isa; /* with format bin, the ISA text is emitted too only because this is set */

    memset(&options, 0, sizeof options);
    options.hooks = &hooks;
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_BIN;

    /* parse, print canonically (defaults left out), verify with the backend's own rules */
    if (gpucompile_target_parse("#example.host<O = 2, chip = \"generic\">", (size_t)-1, NULL, &options.logger, &target) != GPUCOMPILE_OK)
        goto done;
    gpucompile_target_print(target, text, sizeof text);
    printf("target %s\n", text);
    {
        gpucompile_target bad = *target;
        bad.chip = "pentium";
        printf("verify chip \"pentium\": %s\n", gpucompile_result_string(gpucompile_target_verify(&bad, NULL)));
    }

    r = gpucompile_compile_ir(source, sizeof source - 1, "saxpy_cpu", target, &options, &obj);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "compile failed: %s\n", gpucompile_result_string(r));
        goto done;
    }
    printf("stages dumped: %d%s%s\n", state.count, state.dir ? " into " : "", state.dir ? state.dir : "");
    printf("object: %zu bytes, %s, for %s\n", obj->size,
           obj->size > 4 && memcmp(obj->data, "\177ELF", 4) == 0 ? "ELF" : "not ELF", obj->triple);
    for (i = 0; i < obj->num_kernels; i++) printf("function %s\n", obj->kernels[i].name);
    for (i = 1; i < GPUCOMPILE_STAGE_COUNT; i++)
        if (obj->stage_ms[i] > 0) printf("  %-10s %6.2f ms\n", gpucompile_stage_string((gpucompile_stage)i), obj->stage_ms[i]);
    if (argc > 2 && gpucompile_write_file(argv[2], obj->data, obj->size) != GPUCOMPILE_OK) {
        fprintf(stderr, "cannot write %s\n", argv[2]);
        goto done;
    }

    /* the cache (the backend opted in with its cache_version; hooks would bypass it) */
    options.hooks = NULL;
    if (state.dir) {
        snprintf(cache, sizeof cache, "%s/cache", state.dir);
        options.cache_dir = cache;
        for (i = 0; i < 2; i++) {
            gpucompile_object_free(again);
            again = NULL;
            if (gpucompile_compile_ir(source, sizeof source - 1, "saxpy_cpu", target, &options, &again) != GPUCOMPILE_OK) goto done;
        }
        printf("cached compile: %s, %s\n", again->from_cache ? "from the cache" : "compiled",
               again->size == obj->size && memcmp(again->data, obj->data, obj->size) == 0 ? "same bytes" : "other bytes");
        options.cache_dir = NULL;
    }

    /* one binary: our object beside an NVPTX (PTX) and an AMDGPU (hsaco) one */
    gpu[0] = compile_gpu("#gpu.nvptx<chip = \"sm_80\">", "ptx_kernel", GPUCOMPILE_FORMAT_ISA, &options);
    gpu[1] = compile_gpu("#gpu.amdgpu<chip = \"gfx90a\">", "amdgpu_kernel", GPUCOMPILE_FORMAT_BIN, &options);
    if (!gpu[0] || !gpu[1] || gpucompile_binary_create("mixed", NULL, &bin) != GPUCOMPILE_OK) goto done;
    if (gpucompile_binary_add(bin, obj) != GPUCOMPILE_OK) goto done;
    obj = NULL; /* the binary's now */
    for (i = 0; i < 2; i++) {
        if (gpucompile_binary_add(bin, gpu[i]) != GPUCOMPILE_OK) goto done;
        gpu[i] = NULL;
    }
    if (gpucompile_binary_verify(bin, &options.logger) != GPUCOMPILE_OK) goto done;
    printf("binary @%s: %d objects\n", bin->name, bin->num_objects);
    select_for(bin, "binary", "host");
    select_for(bin, "binary", "sm_80");
    select_for(bin, "binary", "gfx90a");

    /* both forms, written and read back */
    if (gpucompile_binary_write_offload(bin, &offload, &offload_size) != GPUCOMPILE_OK) goto done;
    if (gpucompile_binary_read(offload, offload_size, "mixed", NULL, &options.logger, &back) != GPUCOMPILE_OK) goto done;
    printf("offload binary: %zu bytes, %d objects read back\n", offload_size, back->num_objects);
    select_for(back, "offload binary", "host");
    gpucompile_binary_free(back);
    back = NULL;
    n = gpucompile_binary_print(bin, NULL, 0);
    if (!(mlir = (char *)malloc(n + 1))) goto done;
    gpucompile_binary_print(bin, mlir, n + 1);
    if (gpucompile_binary_parse(mlir, n, NULL, &options.logger, &back) != GPUCOMPILE_OK) goto done;
    printf("MLIR text: %zu bytes, %d objects read back, first %s\n", n, back->num_objects, back->objects[0]->target);
    select_for(back, "MLIR text", "host");
    status = 0;
done:
    gpucompile_object_free(obj);
    gpucompile_object_free(again);
    gpucompile_object_free(gpu[0]);
    gpucompile_object_free(gpu[1]);
    gpucompile_binary_free(bin);
    gpucompile_binary_free(back);
    gpucompile_free(NULL, offload);
    free(mlir);
    gpucompile_target_free(target);
    return status;
}
