/* 01_ptx_and_cubin.c - compile an LLVM IR file to PTX and to a cubin for one NVIDIA chip.

   What it shows: the whole library in one file (GPUCOMPILE_IMPLEMENTATION before the
   includes), a target parsed from MLIR's text (#gpu.nvptx<chip = "sm_80">), options left at
   zero (zero means default) but for the format and a logger that prints what LLVM and the CUDA
   tools say, and the kernel metadata of each result (name, parameters, registers, shared and
   local memory, max threads). The PTX needs LLVM only; the cubin needs the CUDA toolkit
   (nvJitLink or ptxas), not a GPU: without the toolkit the example says so and stops, with
   exit status 0, after the PTX.

   Build: cc -std=c11 examples/01_ptx_and_cubin.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex01
   Run:   ./ex01 [INPUT.ll [CHIP [OUT_PREFIX]]]
          (defaults: examples/kernels/saxpy_nvptx.ll, sm_80; OUT_PREFIX writes OUT_PREFIX.ptx
          and OUT_PREFIX.cubin)
*/
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"

#include <stdio.h>
#include <string.h>

/* Diagnostics arrive here; without a logger the library prints nothing. Notes (tool command
   lines, ptxas' info) are left out. */
static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity == GPUCOMPILE_SEVERITY_NOTE) return;
    fprintf(stderr, "%s: %s (%s, %s)\n", gpucompile_severity_string(d->severity), d->message,
            d->origin ? d->origin : "gpucompile", gpucompile_stage_string(d->stage));
}

/* One metadata value; -1 means "not known for this format" (PTX has no register count yet). */
static void print_value(const char *name, int value, const char *unit) {
    if (value >= 0) printf(", %s %d%s", name, value, unit);
}

static void print_kernels(const char *what, const gpucompile_object *obj) {
    int i;
    for (i = 0; i < obj->num_kernels; i++) {
        const gpucompile_kernel *k = &obj->kernels[i];
        printf("%s kernel %s", what, k->name);
        print_value("params", k->num_params, "");
        print_value("registers", k->registers, "");
        print_value("shared", k->shared_bytes, " bytes");
        print_value("local", k->private_bytes, " bytes");
        print_value("max threads", k->max_threads, "");
        printf("\n");
    }
}

/* Prints the PTX lines a reader looks for first: version, chip, kernel entries. */
static void print_ptx_header(const char *ptx) {
    const char *line = ptx;
    while (line && *line) {
        const char *end = strchr(line, '\n');
        int len = end ? (int)(end - line) : (int)strlen(line);
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (strncmp(s, ".version", 8) == 0 || strncmp(s, ".target", 7) == 0 || strncmp(s, ".visible .entry", 15) == 0 ||
            strncmp(s, ".entry", 6) == 0)
            printf("  %.*s\n", len - (int)(s - line), s);
        line = end ? end + 1 : NULL;
    }
}

static int write_out(const char *prefix, const char *ext, const gpucompile_object *obj) {
    char path[4096];
    snprintf(path, sizeof path, "%s%s", prefix, ext);
    if (gpucompile_write_file(path, obj->data, obj->size) != GPUCOMPILE_OK) {
        fprintf(stderr, "cannot write %s\n", path);
        return 0;
    }
    printf("wrote %s\n", path);
    return 1;
}

int main(int argc, char **argv) {
    const char *input = argc > 1 ? argv[1] : "examples/kernels/saxpy_nvptx.ll";
    const char *chip = argc > 2 ? argv[2] : "sm_80";
    const char *prefix = argc > 3 ? argv[3] : NULL;
    char text[256];
    gpucompile_target *target = NULL;
    gpucompile_options options;
    gpucompile_object *ptx = NULL, *cubin = NULL;
    gpucompile_result r;
    int status = 0;

    memset(&options, 0, sizeof options);
    options.logger.func = log_to_stderr;

    /* The target, as MLIR writes it; parse + verify refuse what LLVM would crash on. */
    snprintf(text, sizeof text, "#gpu.nvptx<chip = \"%s\">", chip);
    r = gpucompile_target_parse(text, (size_t)-1, NULL, &options.logger, &target);
    if (r == GPUCOMPILE_OK) r = gpucompile_target_verify(target, &options.logger);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "bad target %s: %s\n", text, gpucompile_result_string(r));
        gpucompile_target_free(target);
        return 1;
    }

    /* 1. PTX: LLVM alone. Text formats are NUL-terminated. */
    options.format = GPUCOMPILE_FORMAT_ISA;
    r = gpucompile_compile_file(input, target, &options, &ptx);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "%s: PTX failed: %s\n", input, gpucompile_result_string(r));
        gpucompile_target_free(target);
        return 1;
    }
    printf("target %s\n", ptx->target);
    printf("ptx: %zu bytes in %.1f ms\n", ptx->size, ptx->stage_ms[GPUCOMPILE_STAGE_EMIT]);
    print_ptx_header((const char *)ptx->data);
    print_kernels("ptx", ptx);
    if (prefix && !write_out(prefix, ".ptx", ptx)) status = 1;

    /* 2. cubin: the same module through nvJitLink (or ptxas); metadata read from the ELF. */
    options.format = GPUCOMPILE_FORMAT_BIN;
    r = gpucompile_compile_file(input, target, &options, &cubin);
    if (r == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND) {
        printf("cubin: skipped, no CUDA toolkit found (set CUDA_PATH or install it); the PTX above is complete\n");
    } else if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "%s: cubin failed: %s\n", input, gpucompile_result_string(r));
        status = 1;
    } else {
        printf("cubin: %zu bytes, ELF %s\n", cubin->size,
               cubin->size > 4 && memcmp(cubin->data, "\177ELF", 4) == 0 ? "yes" : "no");
        print_kernels("cubin", cubin);
        if (prefix && !write_out(prefix, ".cubin", cubin)) status = 1;
    }

    gpucompile_object_free(cubin);
    gpucompile_object_free(ptx);
    gpucompile_target_free(target);
    return status;
}
