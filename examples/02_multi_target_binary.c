/* 02_multi_target_binary.c - one kernel for several chips of both vendors, in one binary,
   written in both of its forms.

   What it shows: MLIR's gpu.binary (a name and one object per target) built from per-vendor
   inputs. The NVIDIA input (saxpy_nvptx.ll) is compiled for sm_80 and sm_90, the AMD input
   (saxpy_amdgpu.ll) for gfx90a and gfx1100, each call compiling its targets in parallel
   (jobs = 2: one thread and one LLVM context per target); the two binaries are merged and
   written as an LLVM offload binary (what clang-offload-packager and `llvm-objdump
   --offloading` read) and as MLIR text (`gpu.binary @saxpy [#gpu.object<#nvvm.target<...>,
   bin = "...">, ...]`, which mlir-opt parses). The offload binary is then read back and asked
   which object a device would load (gpucompile_binary_select). cubins need the CUDA toolkit
   (nvJitLink or ptxas); without it the NVIDIA objects are PTX, which the driver compiles when
   it loads them. hsaco needs ld.lld (Debian: the lld package of your LLVM, as make setup installs it).

   Build: cc -std=c11 examples/02_multi_target_binary.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex02
   Run:   ./ex02 [OUT_PREFIX]     (default "saxpy": writes saxpy.offload and saxpy.mlir;
          the inputs are read from examples/kernels, or from $KERNELS)
*/
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity != GPUCOMPILE_SEVERITY_NOTE)
        fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

/* One vendor's input for n targets given as MLIR text (the upstream spelling, so that
   mlir-opt reads the text form). */
static gpucompile_result compile_vendor(const char *file, const char *const *texts, int n, gpucompile_options *options,
                                        gpucompile_binary **out) {
    gpucompile_target *targets[4] = {NULL, NULL, NULL, NULL};
    unsigned char *data = NULL;
    size_t size = 0;
    gpucompile_result r = gpucompile_read_file(file, NULL, &data, &size);
    int i;
    if (r != GPUCOMPILE_OK) fprintf(stderr, "cannot read %s\n", file);
    for (i = 0; r == GPUCOMPILE_OK && i < n; i++) r = gpucompile_target_parse(texts[i], (size_t)-1, NULL, &options->logger, &targets[i]);
    if (r == GPUCOMPILE_OK)
        r = gpucompile_compile_binary(data, size, file, (const gpucompile_target *const *)targets, n, options, 2, "saxpy", out);
    for (i = 0; i < n; i++) gpucompile_target_free(targets[i]);
    gpucompile_free(NULL, data);
    return r;
}

static int write_both_forms(const gpucompile_binary *binary, const char *prefix) {
    char path[4096];
    unsigned char *offload = NULL;
    size_t size = 0, len = gpucompile_binary_print(binary, NULL, 0);
    char *text = (char *)malloc(len + 1);
    int ok = text != NULL;
    if (ok) gpucompile_binary_print(binary, text, len + 1);
    snprintf(path, sizeof path, "%s.mlir", prefix);
    ok = ok && gpucompile_write_file(path, text, len) == GPUCOMPILE_OK;
    if (ok) printf("wrote %s (%zu bytes of MLIR text)\n", path, len);
    snprintf(path, sizeof path, "%s.offload", prefix);
    ok = ok && gpucompile_binary_write_offload(binary, &offload, &size) == GPUCOMPILE_OK;
    ok = ok && gpucompile_write_file(path, offload, size) == GPUCOMPILE_OK;
    if (ok) printf("wrote %s (%zu bytes of LLVM offload binary)\n", path, size);
    gpucompile_free(&binary->allocator, offload);
    free(text);
    return ok;
}

/* Reads the offload binary back and asks which object each device would load. */
static int select_for_devices(const char *prefix, gpucompile_options *options) {
    static const char *const devices[] = {"sm_86", "sm_90", "gfx90a:xnack-", "gfx1100", "gfx942"};
    char path[4096];
    unsigned char *data = NULL;
    size_t size = 0, i;
    gpucompile_binary *back = NULL;
    gpucompile_logger quiet = {NULL, NULL}; /* "no object" is an answer here, not an error */
    snprintf(path, sizeof path, "%s.offload", prefix);
    if (gpucompile_read_file(path, NULL, &data, &size) != GPUCOMPILE_OK ||
        gpucompile_binary_read(data, size, NULL, NULL, &options->logger, &back) != GPUCOMPILE_OK) {
        gpucompile_free(NULL, data);
        return 0;
    }
    printf("read back: @%s with %d objects\n", back->name, back->num_objects);
    for (i = 0; i < sizeof devices / sizeof devices[0]; i++) {
        gpucompile_device dev;
        int index = -1;
        dev.arch = devices[i];
        dev.compute_capability = 0;
        if (gpucompile_binary_select(back, &dev, &quiet, &index) == GPUCOMPILE_OK)
            printf("  a %s GPU loads object %d (%s)\n", devices[i], index, back->objects[index]->target);
        else
            printf("  a %s GPU finds no object\n", devices[i]);
    }
    gpucompile_binary_free(back);
    gpucompile_free(NULL, data);
    return 1;
}

int main(int argc, char **argv) {
    static const char *const nvidia[] = {"#nvvm.target<chip = \"sm_80\">", "#nvvm.target<chip = \"sm_90\">"};
    static const char *const amd[] = {"#rocdl.target<chip = \"gfx90a\">", "#rocdl.target<chip = \"gfx1100\">"};
    const char *prefix = argc > 1 ? argv[1] : "saxpy";
    const char *dir = getenv("KERNELS") ? getenv("KERNELS") : "examples/kernels";
    char nv_file[4096], amd_file[4096];
    gpucompile_options options;
    gpucompile_binary *binary = NULL, *amd_binary = NULL;
    gpucompile_result r;
    int i, status = 1;

    snprintf(nv_file, sizeof nv_file, "%s/saxpy_nvptx.ll", dir);
    snprintf(amd_file, sizeof amd_file, "%s/saxpy_amdgpu.ll", dir);
    memset(&options, 0, sizeof options);
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_BIN;

    r = compile_vendor(nv_file, nvidia, 2, &options, &binary);
    if (r == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND) {
        printf("no CUDA toolkit: the NVIDIA objects are PTX\n");
        options.format = GPUCOMPILE_FORMAT_ISA;
        r = compile_vendor(nv_file, nvidia, 2, &options, &binary);
        options.format = GPUCOMPILE_FORMAT_BIN;
    }
    if (r == GPUCOMPILE_OK) r = compile_vendor(amd_file, amd, 2, &options, &amd_binary);
    if (r == GPUCOMPILE_OK) r = gpucompile_binary_merge(binary, amd_binary); /* frees amd_binary */
    if (r == GPUCOMPILE_OK) amd_binary = NULL;
    if (r == GPUCOMPILE_OK) r = gpucompile_binary_verify(binary, &options.logger);
    if (r != GPUCOMPILE_OK) {
        fprintf(stderr, "failed: %s\n", gpucompile_result_string(r));
        goto done;
    }

    printf("binary @%s: %d objects\n", binary->name, binary->num_objects);
    for (i = 0; i < binary->num_objects; i++) {
        const gpucompile_object *o = binary->objects[i];
        printf("  %-34s %-4s %6zu bytes, kernel %s\n", o->target, gpucompile_format_string(o->format), o->size,
               o->num_kernels ? o->kernels[0].name : "-");
    }
    if (write_both_forms(binary, prefix) && select_for_devices(prefix, &options)) status = 0;
done:
    gpucompile_binary_free(amd_binary);
    gpucompile_binary_free(binary);
    return status;
}
