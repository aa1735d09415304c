/* Shared by the fuzz targets in this directory. Each target file defines
   `static int fuzz_NAME(const uint8_t *data, size_t size)`; driver.c is the one entry point
   that calls it (libFuzzer's, or a main over files). tests/test_fuzz.c includes every target
   and replays the committed corpora and the regressions through them; there FUZZ_FAIL records a
   failure instead of aborting. The implementation comes from another
   translation unit (tests/impl.c). */
#ifndef GPUCOMPILE_FUZZ_H
#define GPUCOMPILE_FUZZ_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "gpucompile.h"

/* A broken invariant: a crash for libFuzzer, a failed check for the replay test. */
#ifndef FUZZ_FAIL
#define FUZZ_FAIL(what) abort()
#endif

#define FUZZ_PRINT_MAX (1u << 20)

/* buf = print(x) in a malloc'd buffer, sized by a first call (snprintf-style printers). */
#define FUZZ_PRINT(fn, x, out) do { \
        size_t fuzz__n = fn((x), NULL, 0); \
        (out) = fuzz__n < FUZZ_PRINT_MAX ? (char *)malloc(fuzz__n + 1) : NULL; \
        if ((out) && fn((x), (out), fuzz__n + 1) != fuzz__n) FUZZ_FAIL("print: two lengths"); \
    } while (0)
#endif
