/* gpucompile_webgpu.h's reflection read from the bytes (no LLVM, no compiler), and with
   $GPUCOMPILE_LIBWEBGPU set, each module made by that library's SPIR-V reader (shader module and
   pipelines through mgpuModuleLoad). Usage: webgpu_check FILE.spv...: per entry point one line
   "NAME local=X,Y,Z bindings=B:ro|rw,... uniform=SET:BINDING:BYTES params=N wg=BYTES", then
   "load ok" or "load FAILED: message" when a library is named. Exit 1 when a file cannot be read
   or a load fails. */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char last[2048];
static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last, sizeof last, "%s (%d): %s", call, code, message);
}

int main(int argc, char **argv) {
    int i, rc = 0, lib = getenv("GPUCOMPILE_LIBWEBGPU") != NULL;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        long size = -1;
        unsigned char *d = NULL;
        gpucompile_webgpu_kernel ks[16];
        int n, k, b;
        if (f && fseek(f, 0, SEEK_END) == 0) size = ftell(f);
        if (size > 0 && fseek(f, 0, SEEK_SET) == 0 && (d = (unsigned char *)malloc((size_t)size)) != NULL && fread(d, 1, (size_t)size, f) != (size_t)size) {
            free(d);
            d = NULL;
        }
        if (f) fclose(f);
        if (!d) {
            printf("%s: cannot read\n", argv[i]);
            rc = 1;
            continue;
        }
        n = gpucompile_webgpu_reflect(d, (size_t)size, ks, 16);
        printf("%s: %d entry points\n", argv[i], n);
        for (k = 0; k < n && k < 16; k++) {
            const gpucompile_vulkan_kernel *v = &ks[k].k;
            printf("  %s local=%u,%u,%u bindings=", v->name, (unsigned)v->local_size[0], (unsigned)v->local_size[1], (unsigned)v->local_size[2]);
            for (b = 0; b < v->num_bindings; b++) printf("%s%u:%s", b ? "," : "", (unsigned)v->bindings[b].binding, v->bindings[b].read_only ? "ro" : "rw");
            if (ks[k].has_uniforms) printf(" uniform=%u:%u:%u", (unsigned)ks[k].uniform_set, (unsigned)ks[k].uniform_binding, (unsigned)v->push_size);
            printf(" params=%d wg=%u\n", v->num_params, (unsigned)v->workgroup_bytes);
        }
        if (lib) {
            void *m;
            last[0] = 0;
            m = mgpuModuleLoad(d, (size_t)size);
            printf("  load %s%s\n", m ? "ok" : "FAILED: ", m ? "" : last);
            if (!m) rc = 1;
            else mgpuModuleUnload(m);
        }
        free(d);
    }
    return rc;
}
