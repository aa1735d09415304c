/* libFuzzer target: gpu.binary text. parse; what parses verifies, prints to text that parses
   again and prints the same, and survives the offload-binary form. */
#include "fuzz.h"

static int fuzz_binary_text(const uint8_t *data, size_t size) {
    gpucompile_binary *b = NULL, *b2 = NULL, *b3 = NULL;
    char *p1 = NULL, *p2 = NULL;
    unsigned char *off = NULL;
    size_t off_size = 0;
    if (gpucompile_binary_parse((const char *)data, size, NULL, NULL, &b) != GPUCOMPILE_OK) {
        if (b) FUZZ_FAIL("parse failed but returned a binary");
        return 0;
    }
    (void)gpucompile_binary_verify(b, NULL);
    FUZZ_PRINT(gpucompile_binary_print, b, p1);
    if (p1) {
        if (gpucompile_binary_parse(p1, (size_t)-1, NULL, NULL, &b2) != GPUCOMPILE_OK) FUZZ_FAIL("printed text does not parse");
        else {
            FUZZ_PRINT(gpucompile_binary_print, b2, p2);
            if (p2 && strcmp(p1, p2) != 0) FUZZ_FAIL("print(parse(print(b))) != print(b)");
        }
    }
    if (gpucompile_binary_write_offload(b, &off, &off_size) == GPUCOMPILE_OK) {
        if (gpucompile_binary_read_offload(off, off_size, b->name, NULL, NULL, &b3) != GPUCOMPILE_OK)
            FUZZ_FAIL("our own offload binary does not read back");
        else if (b3->num_objects != b->num_objects) FUZZ_FAIL("offload round trip lost objects");
    }
    gpucompile_free(NULL, off);
    free(p1);
    free(p2);
    gpucompile_binary_free(b);
    gpucompile_binary_free(b2);
    gpucompile_binary_free(b3);
    return 0;
}
