/* Reads a Vulkan shader module's reflection with gpucompile_vulkan.h alone (no LLVM, no
   gpucompile.h), as an engine builds its descriptor set layouts: one line per entry point. */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    static gpucompile_vulkan_kernel k[8];
    static unsigned char data[1 << 20];
    FILE *f = argc > 1 ? fopen(argv[1], "rb") : NULL;
    size_t n;
    int i, j, count;
    if (!f) return 2;
    n = fread(data, 1, sizeof data, f);
    fclose(f);
    count = gpucompile_vulkan_reflect(data, n, k, 8);
    if (count < 0) { printf("not a SPIR-V module\n"); return 1; }
    for (i = 0; i < count && i < 8; i++) {
        printf("%s: local %u,%u,%u; workgroup %u bytes; push %u bytes", k[i].name, (unsigned)k[i].local_size[0], (unsigned)k[i].local_size[1],
               (unsigned)k[i].local_size[2], (unsigned)k[i].workgroup_bytes, (unsigned)k[i].push_size);
        for (j = 0; j < k[i].num_push; j++) printf(" [%u+%u]", (unsigned)k[i].push[j].offset, (unsigned)k[i].push[j].size);
        printf(";");
        for (j = 0; j < k[i].num_bindings; j++)
            printf(" set %u binding %u stride %u %s", (unsigned)k[i].bindings[j].set, (unsigned)k[i].bindings[j].binding,
                   (unsigned)k[i].bindings[j].stride, k[i].bindings[j].read_only ? "ro" : "rw");
        printf("\n");
    }
    return 0;
}
