/* libFuzzer target: gpucompile_object_deserialize (the cache's entries, the isolated
   compiler's answer). Inputs starting with 'G' are read as they are; any other first byte is
   dropped and a valid header and checksum go around the rest, so that the fuzzer reaches the
   payload reader behind the checksum. */
#include "fuzz.h"
#include <llvm-c/blake3.h>

static int fuzz_object(const uint8_t *data, size_t size) {
    gpucompile_object *o = NULL, *o2 = NULL;
    unsigned char *wrapped = NULL, *bytes = NULL;
    size_t n = 0;
    if (size > 0 && data[0] != 'G') { /* "GPUOBJ02", u64 payload size, blake3(payload), payload */
        llvm_blake3_hasher h;
        uint64_t len = size - 1;
        wrapped = (unsigned char *)malloc(48 + len + 1);
        if (!wrapped) return 0;
        memcpy(wrapped, "GPUOBJ02", 8);
        memcpy(wrapped + 8, &len, 8);
        llvm_blake3_hasher_init(&h);
        llvm_blake3_hasher_update(&h, data + 1, (size_t)len);
        llvm_blake3_hasher_finalize(&h, wrapped + 16, 32);
        memcpy(wrapped + 48, data + 1, (size_t)len);
        data = wrapped;
        size = 48 + (size_t)len;
    }
    if (gpucompile_object_deserialize(data, size, NULL, &o) == GPUCOMPILE_OK) {
        if (gpucompile_object_serialize(o, NULL, &bytes, &n) != GPUCOMPILE_OK) FUZZ_FAIL("cannot serialize what was read");
        else if (gpucompile_object_deserialize(bytes, n, NULL, &o2) != GPUCOMPILE_OK) FUZZ_FAIL("serialized object does not read");
        else if (o2->size != o->size || o2->num_kernels != o->num_kernels || (o->size && memcmp(o2->data, o->data, o->size) != 0))
            FUZZ_FAIL("round trip changed the object");
    } else if (o) {
        FUZZ_FAIL("deserialize failed but returned an object");
    }
    gpucompile_free(NULL, bytes);
    gpucompile_object_free(o);
    gpucompile_object_free(o2);
    free(wrapped);
    return 0;
}
