/* Run-time selection alone: reads an LLVM offload binary (argv[1]) and loads the object that
   gpucompile_runtime_load_offload_binary picks for the device, on gpucompile's CUDA runtime
   (-DHIP: HIP); the fake driver's trace says which. No LLVM, no compiler: plain `cc`. */
#if defined(HIP)
#define GPUCOMPILE_AMDGPU_RUNTIME
#include "gpucompile_amdgpu.h"
#else
#define GPUCOMPILE_NVPTX_RUNTIME
#include "gpucompile_nvptx.h"
#endif
#include <stdio.h>

static unsigned char data[1 << 16];

int main(int argc, char **argv) {
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n = f ? fread(data, 1, sizeof data, f) : 0;
    if (f) fclose(f);
    if (!n) {
        printf("cannot read %s\n", argc > 1 ? argv[1] : "(no file given)");
        return 1;
    }
    printf("module: %s\n", gpucompile_runtime_load_offload_binary(data, n) ? "loaded" : "none");
    return 0;
}
