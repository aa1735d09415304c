/* The one entry point of every fuzz target: built with -DFUZZ_FILE='"fuzz_NAME.c"' and
   -DFUZZ_FN=fuzz_NAME (the Makefile's fuzz rule does). Under libFuzzer (-fsanitize=fuzzer) it is
   LLVMFuzzerTestOneInput; with -DFUZZ_MAIN it is also a main that runs each file named on the
   command line once (a crash found by `make fuzz`, replayed under a debugger). */
#include "fuzz.h"
#include FUZZ_FILE

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) { return FUZZ_FN(data, size); }

#if defined(FUZZ_MAIN)
#include <stdio.h>
int main(int argc, char **argv) {
    int i;
    for (i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        unsigned char *data = NULL, *d;
        size_t n = 0, cap = 0;
        if (!f) { fprintf(stderr, "cannot read %s\n", argv[i]); return 1; }
        while (!feof(f) && !ferror(f)) {
            if (n == cap) {
                if (!(d = (unsigned char *)realloc(data, cap = cap * 2 + 4096))) { free(data); fclose(f); return 1; }
                data = d;
            }
            n += fread(data + n, 1, cap - n, f);
        }
        fclose(f);
        LLVMFuzzerTestOneInput(data, n);
        free(data);
    }
    return 0;
}
#endif
