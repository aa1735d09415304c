/* libFuzzer target: the LLVM offload-binary reader (and gpucompile_binary_read, which picks
   the form). What reads writes back and reads again with the same objects and bytes. */
#include "fuzz.h"

static int fuzz_offload(const uint8_t *data, size_t size) {
    gpucompile_binary *b = NULL, *b2 = NULL, *b3 = NULL;
    unsigned char *off = NULL;
    size_t off_size = 0;
    int i;
    if (gpucompile_binary_read(data, size, "fuzz", NULL, NULL, &b3) != GPUCOMPILE_OK && b3) FUZZ_FAIL("read failed but returned a binary");
    gpucompile_binary_free(b3);
    if (gpucompile_binary_read_offload(data, size, "fuzz", NULL, NULL, &b) != GPUCOMPILE_OK) {
        if (b) FUZZ_FAIL("read failed but returned a binary");
        return 0;
    }
    if (gpucompile_binary_write_offload(b, &off, &off_size) != GPUCOMPILE_OK) FUZZ_FAIL("cannot write what was read");
    else if (gpucompile_binary_read_offload(off, off_size, "fuzz", NULL, NULL, &b2) != GPUCOMPILE_OK) FUZZ_FAIL("rewritten binary does not read");
    else if (b2->num_objects != b->num_objects) FUZZ_FAIL("round trip changed the number of objects");
    else
        for (i = 0; i < b->num_objects; i++)
            if (b2->objects[i]->size != b->objects[i]->size || memcmp(b2->objects[i]->data, b->objects[i]->data, b->objects[i]->size) != 0)
                FUZZ_FAIL("round trip changed an object's bytes");
    {
        char *text = NULL;
        FUZZ_PRINT(gpucompile_binary_print, b, text);
        free(text);
    }
    gpucompile_free(NULL, off);
    gpucompile_binary_free(b);
    gpucompile_binary_free(b2);
    return 0;
}
