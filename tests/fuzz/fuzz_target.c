/* libFuzzer target: the target-attribute text. parse, then verify, then print; whatever
   parses must print to a text that parses again, prints the same and verifies the same. */
#include "fuzz.h"

static int fuzz_target(const uint8_t *data, size_t size) {
    gpucompile_target *t = NULL, *t2 = NULL;
    char *p1 = NULL, *p2 = NULL;
    gpucompile_result v;
    if (gpucompile_target_parse((const char *)data, size, NULL, NULL, &t) != GPUCOMPILE_OK) {
        if (t) FUZZ_FAIL("parse failed but returned a target");
        return 0;
    }
    v = gpucompile_target_verify(t, NULL);
    FUZZ_PRINT(gpucompile_target_print, t, p1);
    if (p1) {
        if (gpucompile_target_parse(p1, (size_t)-1, NULL, NULL, &t2) != GPUCOMPILE_OK) FUZZ_FAIL("printed text does not parse");
        else {
            FUZZ_PRINT(gpucompile_target_print, t2, p2);
            if (p2 && strcmp(p1, p2) != 0) FUZZ_FAIL("print(parse(print(t))) != print(t)");
            if (gpucompile_target_verify(t2, NULL) != v) FUZZ_FAIL("verify differs after the round trip");
        }
    }
    (void)gpucompile_target_has_flag(t, "fast");
    (void)gpucompile_target_wave64(t);
    (void)gpucompile_chip_supported(t->kind, gpucompile_target_chip(t));
    free(p1);
    free(p2);
    gpucompile_target_free(t);
    gpucompile_target_free(t2);
    return 0;
}
