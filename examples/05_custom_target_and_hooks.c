/* 05_custom_target_and_hooks.c - a target of your own through the backend table, and the
   pipeline hooks that show the IR after each stage.

   What it shows: gpucompile's pipeline (parse, verify, link, optimize, emit) is not tied to
   NVIDIA or AMD. A gpucompile_backend table names a target kind, how to initialise LLVM for it
   and what `bin` is made of; a target with kind GPUCOMPILE_TARGET_CUSTOM and .backend set to the
   table compiles through the same pipeline (MLIR's ModuleToObject with a new target attribute).
   Here the custom target is the host CPU (x86-64, AArch64, ...: whatever LLVM's native target
   is), so the object is an ordinary ELF/COFF/Mach-O relocatable file. The hooks (MLIR's
   initialLlvmIRCallback, linkedLlvmIRCallback, optimizedLlvmIRCallback, isaCallback and the
   pre-link step) print the module after each stage, here to stderr or into a directory; a hook
   may also change the module or stop the compile by returning an error.

   Build: cc -std=c11 examples/05_custom_target_and_hooks.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex05
   Run:   ./ex05 [DUMP_DIR [OBJECT_OUT]]
          (DUMP_DIR: write 1-initial_ir.ll ... 5-isa.s there instead of stderr; OBJECT_OUT: the object)
*/
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"

#include <llvm-c/Target.h>
#include <stdio.h>
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

/* The backend: LLVM's native target, initialised once by the core (under its lock). */
static void host_initialize(void) {
    LLVMInitializeNativeTarget();
    LLVMInitializeNativeAsmPrinter();
}

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

int main(int argc, char **argv) {
    gpucompile_backend backend;
    gpucompile_target target = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    gpucompile_hooks hooks;
    gpucompile_options options;
    gpucompile_object *obj = NULL;
    dump_state state;
    gpucompile_result r;
    char text[512];
    char *triple = LLVMGetDefaultTargetTriple();
    int i, status = 1;

    /* The table: every entry but these may stay NULL (the pipeline's defaults). */
    memset(&backend, 0, sizeof backend);
    backend.name = "host";
    backend.kind = GPUCOMPILE_TARGET_CUSTOM;
    backend.initialize = host_initialize;
    backend.bin_from = LLVMObjectFile; /* `bin` is the object LLVM emits, as it is */

    target.backend = &backend;
    target.custom_name = "example.host"; /* printed as #example.host<...> */
    target.triple = triple;
    target.chip = "generic";
    target.features = "";

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
    r = gpucompile_compile_ir(source, sizeof source - 1, "saxpy_cpu", &target, &options, &obj);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "compile failed: %s\n", gpucompile_result_string(r));
        goto done;
    }

    gpucompile_target_print(&target, text, sizeof text);
    printf("target %s\n", text);
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
    status = 0;
done:
    gpucompile_object_free(obj);
    LLVMDisposeMessage(triple);
    return status;
}
