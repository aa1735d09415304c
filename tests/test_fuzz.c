/* The fuzz targets of tests/fuzz/ replayed without libFuzzer: every corpus input in
   tests/fuzz/corpus/<target>/ and every input that once broke something, kept in
   tests/fuzz/regressions/<target>/, goes through the same checks as under the fuzzer
   (round trips, no object on failure); under `make sanitize` also ASan/UBSan's. A crash found
   by `make fuzz` is added to regressions/ so that it stays fixed. */
#include <dirent.h>
#include <stdio.h>
static int fuzz__failures;
static const char *fuzz__input;
#define FUZZ_FAIL(what) (fuzz__failures++, printf("  FAIL %s: %s\n", fuzz__input, what))
#include "test.h"
#include "fuzz/fuzz_target.c"
#include "fuzz/fuzz_binary_text.c"
#include "fuzz/fuzz_offload.c"
#include "fuzz/fuzz_object.c"
#include "fuzz/fuzz_ir.c"

/* Runs fn on every file of dir; returns how many there were. */
static int replay(const char *dir, int (*fn)(const uint8_t *, size_t)) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL) {
        char path[1024];
        size_t size;
        char *data;
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        data = t_read(path, &size);
        if (!data) continue;
        fuzz__input = path;
        fn((const uint8_t *)data, size);
        free(data);
        n++;
    }
    closedir(d);
    return n;
}

static void run_target(const char *name, int (*fn)(const uint8_t *, size_t), int min_inputs) {
    char dir[256];
    int inputs, regressions;
    fuzz__failures = 0;
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    inputs = replay(dir, fn);
    snprintf(dir, sizeof dir, "tests/fuzz/regressions/%s", name);
    regressions = replay(dir, fn);
    CHECK_MSG(inputs >= min_inputs, "%s: %d inputs", name, inputs);
    CHECK_MSG(fuzz__failures == 0, "%s: %d failures", name, fuzz__failures);
    printf("  %s: %d inputs, %d regressions\n", name, inputs, regressions);
}

/* Each corpus input also cut at every 7th length and with one byte changed: cheap variations that
   reach the error paths of each reader. */
static int mutate_calls;
static int (*mutate_fn)(const uint8_t *, size_t);
static int mutated(const uint8_t *data, size_t size) {
    uint8_t *copy = (uint8_t *)malloc(size + 1);
    size_t i;
    if (!copy) return 0;
    for (i = 0; i < size; i += 7) {
        memcpy(copy, data, i);
        mutate_fn(copy, i); /* a prefix, exactly i bytes: ASan sees any read past it */
        mutate_calls++;
    }
    for (i = 0; i < size && i < 512; i += 13) {
        memcpy(copy, data, size);
        copy[i] ^= (uint8_t)(0x5a + i);
        mutate_fn(copy, size);
        mutate_calls++;
    }
    free(copy);
    return 0;
}

static void run_mutated(const char *name, int (*fn)(const uint8_t *, size_t)) {
    char dir[256];
    mutate_fn = fn;
    mutate_calls = 0;
    fuzz__failures = 0;
    snprintf(dir, sizeof dir, "tests/fuzz/corpus/%s", name);
    replay(dir, mutated);
    CHECK_MSG(fuzz__failures == 0, "%s (cut and flipped): %d failures", name, fuzz__failures);
    printf("  %s: %d cut or flipped inputs\n", name, mutate_calls);
}

static void test_fuzz_target(void) { run_target("target", fuzz_target, 5); run_mutated("target", fuzz_target); }
static void test_fuzz_binary_text(void) { run_target("binary_text", fuzz_binary_text, 3); run_mutated("binary_text", fuzz_binary_text); }
static void test_fuzz_offload(void) { run_target("offload", fuzz_offload, 2); run_mutated("offload", fuzz_offload); }
static void test_fuzz_object(void) { run_target("object", fuzz_object, 2); run_mutated("object", fuzz_object); }
static void test_fuzz_ir(void) { run_target("ir", fuzz_ir, 3); } /* a compile each: no mutations here */

int main(void) {
    (void)t_sh;
    (void)t_logger;
    RUN(test_fuzz_target);
    RUN(test_fuzz_binary_text);
    RUN(test_fuzz_offload);
    RUN(test_fuzz_object);
    RUN(test_fuzz_ir);
    return TEST_END("fuzz");
}
