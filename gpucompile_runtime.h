/* gpucompile_runtime.h - the mgpu* runtime of gpucompile: loads and launches the kernels that
   gpucompile_embed_binary / `gpucompile --host` embedded, with no LLVM and no compiler.

   What it is
       MLIR's GPU runtime ABI (mgpuModuleLoad, mgpuLaunchKernel, ...: what MLIR's and our host
       code call), run-time object selection (gpucompile_runtime_load_offload_binary reads an
       LLVM offload binary and loads the object that suits the device present), and the table
       a vendor runtime fills in (gpucompile_runtime_vendor). The vendor runtimes are in the
       backend headers: the CUDA driver in gpucompile_nvptx.h (GPUCOMPILE_NVPTX_RUNTIME), HIP in
       gpucompile_amdgpu.h (GPUCOMPILE_AMDGPU_RUNTIME), OpenCL in gpucompile_spirv.h
       (GPUCOMPILE_SPIRV_RUNTIME); each opens its library at run time.

   Do this, in *one* C or C++ file of a program that loads and launches:
       #define GPUCOMPILE_NVPTX_RUNTIME           // or _AMDGPU_ / _SPIRV_: one per program
       #include "gpucompile_nvptx.h"              // includes this file with its implementation
   or, for a vendor runtime of your own (gpucompile_runtime_set_vendor):
       #define GPUCOMPILE_RUNTIME_IMPLEMENTATION
       #include "gpucompile_runtime.h"
   Every other file includes this header plainly. gpucompile.h (the compiler) includes it too,
   and may be in the same program, file or not.

   Linking: libdl and threads, nothing else: no LLVM headers or libraries, no compiler:
       cc prog.c host.o -ldl -lpthread            (Windows: no -ldl; LoadLibraryA is used)
   Off by default because MLIR's runtime wrappers (libmlir_cuda_runtime, libmlir_rocm_runtime, ...)
   define the same mgpu* symbols: link one of those or this.

   Usage (host.o from `gpucompile --host`, which defines <binary>_<kernel>_launch)
       gpucompile_runtime_set_error_callback(on_error, NULL); // default: a line on stderr
       if (!gpucompile_runtime_available()) return 1;        // no driver, no device: said once
       printf("%s\n", gpucompile_runtime_device_arch());     // "sm_90", "gfx90a:sramecc+:xnack-"
       x = mgpuMemAlloc(n * 4, NULL, false);
       saxpy_saxpy_launch(1, 1, 1, 32, 1, 1, 0, NULL, args);  // NULL stream: synchronous

   A vendor runtime of your own: fill a gpucompile_runtime_vendor (open the library, start the
   device, load a module, get a function, launch, streams, memory; each entry reports its own
   failures with gpucompile_runtime_report) and call gpucompile_runtime_set_vendor before the
   first mgpu* call (the backend headers do so with GPUCOMPILE_RUNTIME_VENDOR_DEFINE), defining
   GPUCOMPILE_RUNTIME_VENDOR before including this file so that a second vendor runtime in the
   file stops at [section: one vendor runtime]. The
   helpers of [section: shared] are there for it: gpucompile_lock / gpucompile_unlock,
   gpucompile_dlopen / gpucompile_dlsym / gpucompile_dlfn, gpucompile_in_list, gpucompile_triple_in.

   Guarantees: no abort, no exit; a failed call returns NULL or does nothing, and is reported
   through the error callback (default: MLIR's line "'call' failed with 'message'" on
   stderr). A missing library or device is reported once and remembered.
   Threads: opening is guarded by a lock; the vendor's calls are as thread-safe as the vendor.
*/
/* A vendor runtime (GPUCOMPILE_RUNTIME_VENDOR: [section: one vendor runtime]) is this file's
   implementation with a vendor behind it. */
#if defined(GPUCOMPILE_RUNTIME_VENDOR) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#ifndef GPUCOMPILE_RUNTIME_H
#define GPUCOMPILE_RUNTIME_H

#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION) || defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)) && \
    !defined(_WIN32) && !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L /* before any system header: mkdtemp, strdup, posix_spawn, ... */
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h> /* mgpuMemAlloc's bool, as MLIR declares it */

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the runtime ABI (MLIR's runtime wrappers, LLVM 19-22: the same calls) ----
   Implemented by MLIR's libmlir_cuda_runtime / libmlir_rocm_runtime, or by this file's
   implementation over a vendor runtime. Never static. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
    intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream);
void mgpuSetDefaultDevice(int32_t device);
/* An image, as OpenCL describes one: type is OpenCL's cl_mem_object_type (0x10F1 CL_MEM_OBJECT_IMAGE2D,
   0x10F2 IMAGE3D, 0x10F3 IMAGE2D_ARRAY, 0x10F4 IMAGE1D, 0x10F5 IMAGE1D_ARRAY, 0x10F6 IMAGE1D_BUFFER),
   order and dataType OpenCL's cl_channel_order / cl_channel_type values (CL_RGBA 0x10B5, CL_R 0x10B0,
   CL_UNORM_INT8 0x10D2, CL_FLOAT 0x10DE, CL_UNSIGNED_INT32 0x10DC, ...); height, depth, layers 0 or 1 where
   the type has none. NULL (and the runtime's report) on failure. */
void *mgpuImageCreate(int32_t type, int32_t order, int32_t dataType, intptr_t width, intptr_t height,
                      intptr_t depth, intptr_t layers, void *stream);
/* whole image, tightly packed rows (width * pixel size), slices, then layers */
void mgpuImageWrite(void *image, const void *src, void *stream);
void mgpuImageRead(void *dst, void *image, void *stream);
void mgpuImageFree(void *image, void *stream);

/* ---- images (our addition; OpenCL's image objects, for kernels with image parameters) ----
   An image, as OpenCL describes one: type is OpenCL's cl_mem_object_type (0x10F1 CL_MEM_OBJECT_IMAGE2D,
   0x10F2 IMAGE3D, 0x10F3 IMAGE2D_ARRAY, 0x10F4 IMAGE1D, 0x10F5 IMAGE1D_ARRAY, 0x10F6 IMAGE1D_BUFFER),
   order and dataType OpenCL's cl_channel_order / cl_channel_type values (CL_RGBA 0x10B5, CL_R 0x10B0,
   CL_UNORM_INT8 0x10D2, CL_FLOAT 0x10DE, CL_UNSIGNED_INT32 0x10DC, ...); height, depth, layers 0 or 1 where
   the type has none. NULL (and the runtime's report) on failure. A kernel's image argument is passed
   as a buffer's: params[i] points to the void * from mgpuImageCreate; a sampler_t argument: params[i]
   points to an int32_t of OpenCL's sampler bits (CLK_NORMALIZED_COORDS_TRUE 1; CLK_ADDRESS_NONE 0,
   CLAMP_TO_EDGE 2, CLAMP 4, REPEAT 6, MIRRORED_REPEAT 8; CLK_FILTER_NEAREST 0x10, LINEAR 0x20). */
void *mgpuImageCreate(int32_t type, int32_t order, int32_t dataType, intptr_t width, intptr_t height,
                      intptr_t depth, intptr_t layers, void *stream);
/* whole image, tightly packed rows (width * pixel size), slices, then layers */
void mgpuImageWrite(void *image, const void *src, void *stream);
void mgpuImageRead(void *dst, void *image, void *stream);
void mgpuImageFree(void *image, void *stream);

/* ---- our runtime's own additions ---- */
/* Every failure of the runtime goes here (call: the vendor function or "dlopen", code: the
   vendor's error code or -1). Default (func NULL): one line on stderr, as MLIR's wrappers print.
   The runtime never aborts: a failed call returns NULL / does nothing. */
typedef void (*gpucompile_runtime_error_func)(const char *call, int code, const char *message, void *user_data);
void gpucompile_runtime_set_error_callback(gpucompile_runtime_error_func func, void *user_data);
/* Reports one failure as the runtime does (for a vendor runtime's entries). */
void gpucompile_runtime_report(const char *call, int code, const char *message);
/* The vendor library to open instead of the vendor's default (libcuda.so.1, libamdhip64.so,
   libOpenCL.so.1; also the vendor's environment variable, GPUCOMPILE_LIBCUDA, GPUCOMPILE_LIBHIP,
   GPUCOMPILE_LIBOPENCL); takes effect before the first call only. */
void gpucompile_runtime_set_library(const char *path);
/* Opens the library and the device (once; a failure is reported once and remembered):
   1 when kernels can run, 0 otherwise. */
int gpucompile_runtime_available(void);
/* The device's architecture ("sm_90", "gfx90a:sramecc+:xnack-", "spirv"); "" when none. */
const char *gpucompile_runtime_device_arch(void);
/* Loads the object of an LLVM offload binary that suits the device (the RUNTIME handler's
   loader): the vendor's score picks it (the backend header's rule, as gpucompile_binary_select
   applies it: gpucompile.h), assembly text goes through the vendor's JIT at its O. NULL on
   failure, reported with what the binary holds. */
void *gpucompile_runtime_load_offload_binary(const void *data, size_t size);

/* A vendor runtime: the library, bringing the device up, and the calls behind mgpu*. Entries
   that return a vendor error code return 0 for success; the others report their own failures
   (gpucompile_runtime_report) and return NULL / nothing. load and start run once, with the
   runtime's lock held and the library open; the rest only after start succeeded. */
typedef struct gpucompile_runtime_vendor {
    const char *name;           /* "CUDA", "HIP", "OpenCL": in messages */
    const char *launch_call;    /* the vendor's launch function: "cuLaunchKernel", named when sizes are refused */
    const char *env;            /* the variable naming the library to open: "GPUCOMPILE_LIBCUDA" */
    const char *library;        /* default names, comma-separated, tried in order */
    const char *what, *hint;    /* "cannot open <what> '<path>': <why> (<hint>)" */
    const char *kind;           /* "'<path>' has no '<symbol>': not <kind>" */
    const char *(*load)(void *lib);                /* resolve entry points: the first one missing, or NULL */
    int (*start)(int *device, char *arch, size_t arch_size, const char **call); /* *device: the ordinal in, the
                                                      vendor's handle out; arch: "sm_90"; else the error and *call */
    void (*check)(int code, const char *call);     /* reports a vendor error code (nothing for 0) */
    int (*score)(const char *object_triple, const char *object_chip, const char *format, const char *features,
                 const char *device_arch, const char **why); /* how well an object serves the device: < 0 not at
                                                      all (an object of another triple among them) */
    /* the format ("bin", "isa", "fatbin") of an entry that does not name it, by its image kind or
       bytes; NULL (or returning NULL): LLVM's generic kinds, then the bytes (ELF, bitcode), else isa */
    const char *(*image_format)(int image_kind, const unsigned char *image, size_t size);
    void (*enter)(void), (*leave)(void);           /* around each call (a context made current); may be NULL */
    void *(*module_load)(const void *data, size_t size);
    void *(*module_load_jit)(const void *text, int opt_level);  /* NULL: the vendor loads binaries only */
    void (*module_unload)(void *module);
    void *(*get_function)(void *module, const char *name);
    void (*launch)(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem, void *stream,
                   void **params, void **extra);
    void *(*stream_create)(void);
    void (*stream_synchronize)(void *stream);
    void (*stream_destroy)(void *stream);
    void *(*mem_alloc)(uint64_t size, int host_shared);
    void (*mem_free)(void *ptr);
    void (*mem_copy)(void *dst, const void *src, size_t size, void *stream);
    void (*mem_set32)(void *dst, unsigned value, size_t count, void *stream);
    /* 1: the vendor's NULL stream does not wait for its work (CUDA's and HIP's legacy stream, which
       the non-blocking streams do not wait for either): mgpu* synchronizes it after each launch,
       copy and fill on it, so that the NULL stream is synchronous with every vendor */
    int null_stream_async;
    /* images (mgpuImageCreate's arguments checked: extent is width, height, depth, layers, each at
       least 1; pixel the bytes of one; what names the image in messages, "an image2d of 4x4x1 pixels,
       1 layer(s), CL_RGBA / CL_UNORM_INT8"); copy writes host to the image (to_image 1) or reads it. NULL: no images */
    void *(*image_create)(int32_t type, int32_t order, int32_t data_type, const size_t extent[4], size_t pixel,
                          const char *what, void *stream);
    void (*image_copy)(void *image, void *host, int to_image, void *stream);
    void (*image_free)(void *image, void *stream);
} gpucompile_runtime_vendor;
/* The vendor behind mgpu* (before the first call only). */
void gpucompile_runtime_set_vendor(const gpucompile_runtime_vendor *vendor);
/* A vendor runtime whose functions are named <prefix>load, <prefix>start, ...: its table, set as
   the vendor before main (a constructor runs once). The entries every vendor has come from those
   names; the function this macro begins, <prefix>vendor(v), fills in the rest (the names, the
   optional entries). The backend headers' runtimes are defined so. */
#define GPUCOMPILE_RUNTIME_VENDOR_DEFINE(prefix) \
    static void prefix##vendor(gpucompile_runtime_vendor *v); \
    GPUCOMPILE_CONSTRUCTOR(prefix##vendor_register) { \
        static gpucompile_runtime_vendor v; \
        v.load = prefix##load; v.start = prefix##start; v.check = prefix##check; v.launch = prefix##launch; \
        v.module_load = prefix##module_load; v.module_unload = prefix##module_unload; v.get_function = prefix##get_function; \
        v.stream_create = prefix##stream_create; v.stream_synchronize = prefix##stream_synchronize; \
        v.stream_destroy = prefix##stream_destroy; v.mem_alloc = prefix##mem_alloc; v.mem_free = prefix##mem_free; \
        v.mem_copy = prefix##mem_copy; v.mem_set32 = prefix##mem_set32; \
        prefix##vendor(&v); \
        gpucompile_runtime_set_vendor(&v); \
    } \
    static void prefix##vendor(gpucompile_runtime_vendor *v)

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_RUNTIME_H */

/* ==== [section: shared] ==================================================================
   What the compiler (gpucompile.h's implementation), its backends and the runtime use, compiled
   once into each file that holds any of them: the lock, the shared-library loader, start-up
   functions, little-endian reads, word lists (these five are the backend helpers of gpucompile.h's
   [section: backend helpers]), the LLVM offload binary's entry reader. (The rules that pick an
   object for a device are each backend's, in an LLVM-free part of its header.) All static, so
   that a program may hold several in one file or in many: the lock is one per such file.
   GPUCOMPILE_BACKEND_IMPLEMENTATION asks for this section in a file that holds a backend's
   implementation without the core's (the backend headers define it themselves). */
#if defined(GPUCOMPILE_BACKEND_IMPLEMENTATION) && defined(GPUCOMPILE_STATIC) && !defined(GPUCOMPILE_IMPLEMENTED)
#error "gpucompile: with GPUCOMPILE_STATIC a backend's (or gpucompile_lower.h's) implementation goes in the core's file (GPUCOMPILE_IMPLEMENTATION)"
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION) || defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)) && \
    !defined(GPUCOMPILE__SHARED_IMPLEMENTED)
#define GPUCOMPILE__SHARED_IMPLEMENTED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_WIN32)
#include <windows.h>
#else
#include <dlfcn.h>
#include <pthread.h>
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* Helpers private to a file: some go unused in a given configuration (a backend left out). */
#if defined(__GNUC__)
#define GPUCOMPILE_PRIVATE static __attribute__((unused))
#else
#define GPUCOMPILE_PRIVATE static
#endif

/* The backend helpers below (gpucompile_lock ... gpucompile_triple_in) have public names: the
   backends use them, see gpucompile.h [section: backend helpers]. The lock is this file's: it
   guards the lazily opened state of the code in this file; not recursive.
   GPUCOMPILE_LOCK_DEFINE(mutex, lock, unlock) defines a static mutex and its two functions: the
   file's lock, and any other a vendor runtime keeps apart from it. */
#if defined(_WIN32)
#define GPUCOMPILE_LOCK_DEFINE(mutex, lock, unlock)                             \
    static SRWLOCK mutex = SRWLOCK_INIT;                                        \
    GPUCOMPILE_PRIVATE void lock(void) { AcquireSRWLockExclusive(&mutex); }     \
    GPUCOMPILE_PRIVATE void unlock(void) { ReleaseSRWLockExclusive(&mutex); }
#else
#define GPUCOMPILE_LOCK_DEFINE(mutex, lock, unlock)                             \
    static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;                   \
    GPUCOMPILE_PRIVATE void lock(void) { pthread_mutex_lock(&mutex); }          \
    GPUCOMPILE_PRIVATE void unlock(void) { pthread_mutex_unlock(&mutex); }
#endif
GPUCOMPILE_LOCK_DEFINE(gpucompile__mutex, gpucompile_lock, gpucompile_unlock)

/* Milliseconds from an arbitrary start, for durations; 0 when there is no clock. C11's clock
   off Windows: no POSIX feature macro is needed where system headers came first. */
GPUCOMPILE_PRIVATE double gpucompile_clock_ms(void) {
#if defined(_WIN32)
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return 1000.0 * (double)c.QuadPart / (double)f.QuadPart;
#else
    struct timespec t;
    if (!timespec_get(&t, TIME_UTC)) return 0;
    return 1000.0 * (double)t.tv_sec + (double)t.tv_nsec / 1e6;
#endif
}

/* Shared libraries opened at run time (vendor libraries are never linked). dlopen: NULL when
   missing, and dlerror then describes why (this thread's last failure). dlfn stores a function
   into the function pointer at fnptr (ISO C has no cast between data and function pointers). */
#if defined(_WIN32)
GPUCOMPILE_PRIVATE void *gpucompile_dlopen(const char *path) { return (void *)LoadLibraryA(path); }
GPUCOMPILE_PRIVATE void *gpucompile_dlsym(void *lib, const char *name) {
    FARPROC f = GetProcAddress((HMODULE)lib, name);
    void *p;
    memcpy(&p, &f, sizeof p);
    return p;
}
GPUCOMPILE_PRIVATE void gpucompile_dlclose(void *lib) { if (lib) FreeLibrary((HMODULE)lib); }
GPUCOMPILE_PRIVATE const char *gpucompile__dlerror(char *buf, size_t size) {
    DWORD e = GetLastError();
    size_t n;
    if (!size) return "";
    if (!FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS, NULL, e, 0, buf, (DWORD)size, NULL))
        snprintf(buf, size, "error %lu", (unsigned long)e);
    for (n = strlen(buf); n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '); n--) buf[n - 1] = 0;
    return buf;
}
#else
GPUCOMPILE_PRIVATE void *gpucompile_dlopen(const char *path) { return dlopen(path, RTLD_NOW | RTLD_LOCAL); }
GPUCOMPILE_PRIVATE void *gpucompile_dlsym(void *lib, const char *name) { return dlsym(lib, name); }
GPUCOMPILE_PRIVATE void gpucompile_dlclose(void *lib) { if (lib) dlclose(lib); }
GPUCOMPILE_PRIVATE const char *gpucompile__dlerror(char *buf, size_t size) {
    const char *e = dlerror();
    if (size) snprintf(buf, size, "%s", e ? e : "unknown error");
    return size ? buf : "";
}
#endif
GPUCOMPILE_PRIVATE int gpucompile_dlfn(void *lib, const char *name, void *fnptr) {
    void *s = lib ? gpucompile_dlsym(lib, name) : NULL;
    if (s) memcpy(fnptr, &s, sizeof s);
    return s != NULL;
}

/* What a program's file name ends with. */
#if defined(_WIN32)
#define GPUCOMPILE_EXE_SUFFIX ".exe"
#else
#define GPUCOMPILE_EXE_SUFFIX ""
#endif

/* Runs fn once per process at start-up (before main) where the compiler allows it. */
#if defined(_MSC_VER) && !defined(__clang__)
#pragma section(".CRT$XCU", read)
#define GPUCOMPILE_CONSTRUCTOR(fn) \
    static void fn(void); \
    __declspec(allocate(".CRT$XCU")) void (*fn##_ptr)(void) = fn; \
    static void fn(void)
#else
#define GPUCOMPILE_CONSTRUCTOR(fn) __attribute__((constructor)) static void fn(void)
#endif

GPUCOMPILE_PRIVATE uint64_t gpucompile_read_le(const unsigned char *p, int bytes) {
    uint64_t v = 0;
    int i;
    for (i = bytes - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

/* Is name one of the comma-separated words in list? */
GPUCOMPILE_PRIVATE int gpucompile_in_list(const char *list, const char *name, size_t name_len) {
    const char *p = list;
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == name_len && strncmp(p, name, n) == 0) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Does the n bytes at s match the m bytes of glob pattern p ('*': any run of characters)? */
GPUCOMPILE_PRIVATE int gpucompile__glob(const char *p, size_t m, const char *s, size_t n) {
    if (!m) return !n;
    if (*p == '*') return gpucompile__glob(p + 1, m - 1, s, n) || (n && gpucompile__glob(p, m, s + 1, n - 1));
    return n && *p == *s && gpucompile__glob(p + 1, m - 1, s + 1, n - 1);
}

/* Does triple match the m bytes of pattern p, part by part (ARCH-VENDOR-OS-ENVIRONMENT)? A part
   the pattern leaves out matches anything; one the triple lacks reads "unknown", as LLVM's. */
GPUCOMPILE_PRIVATE int gpucompile__triple_match(const char *p, size_t m, const char *triple) {
    for (;;) {
        const char *dash = (const char *)memchr(p, '-', m);
        size_t pn = dash ? (size_t)(dash - p) : m, tn = strcspn(triple, "-");
        if (!(*triple ? gpucompile__glob(p, pn, triple, tn) : gpucompile__glob(p, pn, "unknown", 7))) return 0;
        if (!dash) return 1;
        p = dash + 1;
        m -= pn + 1;
        triple += tn + (triple[tn] == '-');
    }
}

/* Is an object's triple one of the comma-separated patterns (gpucompile_backend.triples:
   "aarch64,x86_64-*-linux*,!*-*-*-musl")? It is when a pattern matches and no "!" pattern
   does. An object without a triple (NULL or "") leaves it to its chip: 1. */
GPUCOMPILE_PRIVATE int gpucompile_triple_in(const char *patterns, const char *triple) {
    const char *p = patterns;
    int in = 0;
    if (!triple || !*triple) return 1;
    while (p && *p) {
        size_t n = strcspn(p, ",");
        if (*p == '!' && gpucompile__triple_match(p + 1, n - 1, triple)) return 0;
        if (*p != '!' && !in) in = gpucompile__triple_match(p, n, triple);
        p += n + (p[n] == ',');
    }
    return in;
}

/* ---- LLVM offload binary (llvm/Object/OffloadBinary.h, version 1): one entry ----
   Header: magic 10 FF 10 AD, u32 version, u64 size, u64 entry offset, u64 entry size (32 bytes).
   Entry: u16 image kind, u16 offload kind, u32 flags, u64 string offset, u64 string count,
   u64 image offset, u64 image size (40 bytes). Strings: (u64 key offset, u64 value offset)
   pairs, then the NUL-terminated strings. Image 8-aligned, total size 8-aligned. Little endian. */
/* Plain ints (a backend's image kind is one), so no enum type mixes with int. */
#define GPUCOMPILE__OB_MAGIC "\x10\xFF\x10\xAD" /* an offload binary's first 4 bytes */
#define GPUCOMPILE__OB_HEADER 32
#define GPUCOMPILE__OB_ENTRY 40
/* The image kinds of no one vendor (the others are the backends': gpucompile_backend.image_kind_*,
   image_format). */
#define GPUCOMPILE_IMG_NONE 0
#define GPUCOMPILE_IMG_OBJECT 1
#define GPUCOMPILE_IMG_BITCODE 2
typedef struct gpucompile__ob {
    const unsigned char *p;     /* the entry's first byte */
    uint64_t size;              /* its bytes: the next entry starts there */
    uint64_t strings, num_strings, image, image_size;
    int image_kind;
} gpucompile__ob;

/* A string at off inside [0, n): NULL unless NUL-terminated within bounds. *budget caps the bytes
   searched over all strings, so hostile offsets cannot make reading quadratic. */
GPUCOMPILE_PRIVATE const char *gpucompile__bin_cstr(const unsigned char *p, uint64_t n, uint64_t off, uint64_t *budget) {
    const unsigned char *z;
    uint64_t m;
    if (off >= n) return NULL;
    m = n - off < *budget ? n - off : *budget;
    if (!(z = (const unsigned char *)memchr(p + off, 0, (size_t)m))) return NULL;
    *budget -= (uint64_t)(z - (p + off)) + 1;
    return (const char *)p + off;
}

/* Reads the entry at p (n bytes left) into *e, every string checked: NULL, or why not (in why). */
GPUCOMPILE_PRIVATE const char *gpucompile__ob_read(const unsigned char *p, size_t n, gpucompile__ob *e, char *why, size_t why_size) {
    uint64_t eoff, esize, i, budget;
    const unsigned char *h;
    memset(e, 0, sizeof *e);
    if (n < GPUCOMPILE__OB_HEADER || memcmp(p, GPUCOMPILE__OB_MAGIC, 4) != 0) return "no offload binary magic (0x10FF10AD)";
    if (gpucompile_read_le(p + 4, 4) != 1) {
        snprintf(why, why_size, "version %u is not supported (LLVM 19 writes version 1)", (unsigned)gpucompile_read_le(p + 4, 4));
        return why;
    }
    e->p = p;
    e->size = gpucompile_read_le(p + 8, 8);
    eoff = gpucompile_read_le(p + 16, 8);
    esize = gpucompile_read_le(p + 24, 8);
    if (e->size < GPUCOMPILE__OB_HEADER + GPUCOMPILE__OB_ENTRY || e->size > n) {
        snprintf(why, why_size, "size %llu does not fit in the %llu bytes left", (unsigned long long)e->size, (unsigned long long)n);
        return why;
    }
    if (esize < GPUCOMPILE__OB_ENTRY || eoff < GPUCOMPILE__OB_HEADER || eoff > e->size || esize > e->size - eoff)
        return "entry out of bounds";
    h = p + eoff;
    e->image_kind = (int)gpucompile_read_le(h, 2);
    e->strings = gpucompile_read_le(h + 8, 8);
    e->num_strings = gpucompile_read_le(h + 16, 8);
    e->image = gpucompile_read_le(h + 24, 8);
    e->image_size = gpucompile_read_le(h + 32, 8);
    if (e->strings > e->size || e->num_strings > (e->size - e->strings) / 16) return "string table out of bounds";
    if (e->image > e->size || e->image_size > e->size - e->image) return "image out of bounds";
    budget = 4 * e->size + 65536;
    for (i = 0; i < e->num_strings; i++) {
        const char *k = gpucompile__bin_cstr(p, e->size, gpucompile_read_le(p + e->strings + 16 * i, 8), &budget);
        if (!k || !gpucompile__bin_cstr(p, e->size, gpucompile_read_le(p + e->strings + 16 * i + 8, 8), &budget)) {
            snprintf(why, why_size, "string %llu out of bounds or unterminated", (unsigned long long)i);
            return why;
        }
    }
    return NULL;
}

/* The value of key in a read entry (the last one, as a map built in order keeps), or NULL. */
GPUCOMPILE_PRIVATE const char *gpucompile__ob_string(const gpucompile__ob *e, const char *key) {
    const char *v = NULL;
    uint64_t i;
    for (i = 0; i < e->num_strings; i++)
        if (strcmp((const char *)e->p + gpucompile_read_le(e->p + e->strings + 16 * i, 8), key) == 0)
            v = (const char *)e->p + gpucompile_read_le(e->p + e->strings + 16 * i + 8, 8);
    return v;
}

/* The entry's format as gpucompile names it ("bin", "isa", "fatbin", "llvm"), when the entry
   does not say: the vendor's reading of its image kinds and bytes (vendor, may be NULL: a backend's
   or vendor runtime's image_format), else LLVM's object and bitcode kinds, else the image's magic
   (ELF, bitcode), else assembly text. */
typedef const char *(*gpucompile__image_format_fn)(int image_kind, const unsigned char *image, size_t size);
GPUCOMPILE_PRIVATE const char *gpucompile__ob_image_format(const gpucompile__ob *e, gpucompile__image_format_fn vendor) {
    const unsigned char *img = e->p + e->image;
    const char *f = vendor ? vendor(e->image_kind, img, (size_t)e->image_size) : NULL;
    if (f) return f;
    if (e->image_kind == GPUCOMPILE_IMG_OBJECT) return "bin";
    if (e->image_kind == GPUCOMPILE_IMG_BITCODE) return "llvm";
    if (e->image_size >= 4 && memcmp(img, "\x7F" "ELF", 4) == 0) return "bin";
    if (e->image_size >= 4 && (memcmp(img, "BC\xC0\xDE", 4) == 0 || memcmp(img, "\xDE\xC0\x17\x0B", 4) == 0)) return "llvm";
    return "isa";
}

/* gpucompile.format where written, else as above. */
GPUCOMPILE_PRIVATE const char *gpucompile__ob_format(const gpucompile__ob *e, gpucompile__image_format_fn vendor) {
    const char *f = gpucompile__ob_string(e, "gpucompile.format");
    return f && gpucompile_in_list("bin,isa,fatbin,llvm", f, strlen(f)) ? f : gpucompile__ob_image_format(e, vendor);
}

#ifdef __cplusplus
}
#endif
#endif /* shared */

/* ==== [section: SPIR-V words] =============================================================
   A SPIR-V module's instructions, for gpucompile_spirv.h and gpucompile_vulkan.h: their backends
   (the repair after llc, the kernels of an object), their runtimes and the Vulkan reflection
   reader alike, so no LLVM. Compiled where one of them is included (each defines
   GPUCOMPILE_SPIRV_WORDS) and asks for [section: shared]; not into the core, which knows no target's format (tests/cli_seam.sh).
   A module is 32-bit words: five of header (magic 0x07230203, version, generator, id bound,
   0), then instructions, each a first word (word count << 16 | opcode) and its operands. Words
   are read in the byte order the magic is written in, so the bytes as written and a copy in
   host order read the same. A walk reads nothing outside the module: a word count of 0 or one
   that runs past the end stops it. */
#if defined(GPUCOMPILE_SPIRV_WORDS) && defined(GPUCOMPILE__SHARED_IMPLEMENTED) && !defined(GPUCOMPILE__SPIRV_WORDS_IMPLEMENTED)
#define GPUCOMPILE__SPIRV_WORDS_IMPLEMENTED
#ifdef __cplusplus
extern "C" {
#endif
#define GPUCOMPILE_SPIRV_MAGIC 0x07230203u

/* An instruction's first word: its opcode, its word count, or made of them. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_spirv_opcode(uint32_t first) { return first & 0xffffu; }
GPUCOMPILE_PRIVATE uint32_t gpucompile_spirv_count(uint32_t first) { return first >> 16; }
GPUCOMPILE_PRIVATE uint32_t gpucompile_spirv_first(uint32_t opcode, uint32_t count) { return count << 16 | opcode; }

/* A walk over a module's instructions. at may be set to an instruction's first word (with wc 0)
   for the walk to go on from there. */
typedef struct gpucompile_spirv_inst {
    const unsigned char *d; /* the module */
    size_t n;               /* its words */
    int big;                /* in big-endian order */
    size_t at, wc;          /* the instruction: its first word and its word count */
    uint32_t op;            /* its opcode */
    int bad;                /* the walk stopped at a malformed instruction */
} gpucompile_spirv_inst;

/* Word i (< n) of the module. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_spirv_word(const gpucompile_spirv_inst *s, size_t i) {
    const unsigned char *p = s->d + 4 * i;
    return s->big ? (uint32_t)p[3] | (uint32_t)p[2] << 8 | (uint32_t)p[1] << 16 | (uint32_t)p[0] << 24
                  : (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* Word k of the instruction (0: its first word); 0 past its end. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_spirv_operand(const gpucompile_spirv_inst *s, size_t k) {
    return k < s->wc ? gpucompile_spirv_word(s, s->at + k) : 0;
}

/* A walk of the size bytes at module, before its first instruction: 1, or 0 (a walk over
   nothing) when they are no SPIR-V module (under five words, or no magic in either order). */
GPUCOMPILE_PRIVATE int gpucompile_spirv_begin(gpucompile_spirv_inst *s, const void *module, size_t size) {
    const unsigned char *d = (const unsigned char *)module;
    memset(s, 0, sizeof *s);
    s->d = d;
    s->at = 5;
    if (!d || size < 20) return 0;
    s->big = d[0] == 0x07 && d[1] == 0x23 && d[2] == 0x02 && d[3] == 0x03;
    if (gpucompile_spirv_word(s, 0) != GPUCOMPILE_SPIRV_MAGIC) return 0;
    s->n = size / 4;
    return 1;
}

/* The image_format (gpucompile_runtime_vendor) of a runtime that loads SPIR-V modules only:
   "bin" for bytes that start with the magic, in either byte order. */
GPUCOMPILE_PRIVATE const char *gpucompile_spirv_image_format(int image_kind, const unsigned char *image, size_t size) {
    (void)image_kind;
    return size >= 4 && (memcmp(image, "\x03\x02\x23\x07", 4) == 0 || memcmp(image, "\x07\x23\x02\x03", 4) == 0) ? "bin" : NULL;
}

/* To the next instruction: 1, or 0 at the end of the module or at a malformed one (bad). */
GPUCOMPILE_PRIVATE int gpucompile_spirv_next(gpucompile_spirv_inst *s) {
    uint32_t first;
    s->at += s->wc;
    s->wc = 0;
    if (s->bad || s->at >= s->n) return 0;
    first = gpucompile_spirv_word(s, s->at);
    s->op = gpucompile_spirv_opcode(first);
    s->wc = gpucompile_spirv_count(first);
    if (s->wc == 0 || s->wc > s->n - s->at) {
        s->wc = 0;
        s->bad = 1;
        return 0;
    }
    return 1;
}

/* Where an instruction's result id is: 0 none, 1 word 1, 2 word 2 (word 1 its type). */
GPUCOMPILE_PRIVATE int gpucompile_spirv_result(uint32_t op) {
    switch (op) {
    case 0: case 2: case 3: case 4: case 5: case 6: case 8: case 10: case 14: case 15: case 16: case 17: case 39: case 56: case 62:
    case 63: case 64: case 71: case 72: case 74: case 75: case 99: case 224: case 225: case 228: case 246: case 247: case 249: case 250:
    case 251: case 252: case 253: case 254: case 255: case 256: case 257: case 317: case 319: case 330: case 331: case 332:
    case 4416: case 5632: case 5633:
        return 0;
    case 7: case 11: case 73: case 248: case 322: case 327: case 4417: case 4456: case 4472: case 5341:
        return 1;
    default:
        return op >= 19 && op <= 38 ? 1 : 2;
    }
}

/* The word where id's result is (its instruction's first word + the result's place), 0: none. */
GPUCOMPILE_PRIVATE size_t gpucompile_spirv__def(const uint32_t *w, size_t n, uint32_t id) {
    gpucompile_spirv_inst it;
    for (gpucompile_spirv_begin(&it, w, n * 4); gpucompile_spirv_next(&it);) {
        int rk = gpucompile_spirv_result(it.op);
        if (rk && it.wc > (size_t)rk && w[it.at + (size_t)rk] == id) return it.at;
    }
    return 0;
}

/* Block ids, on the words w[0..n) as LLVM wrote them (host order). LLVM 22's SPIR-V code
   generator keeps the ids it gives basic blocks in a table that outlives each compile
   (SPIRVModuleAnalysis::MAI, a static, its BBNumToRegMap keyed by the MachineFunction's address
   and the block's number, never emptied): a later compile in the same process whose
   MachineFunction the heap puts where an earlier one was gets the earlier module's id for the
   block, an id this module gives something else as well ("Id N is defined more than once") or
   one past its bound. Another context, target machine or try does not help (the table is the
   process's, and fills up as it compiles). The block has that id at each of its uses, so the
   labels that clash get new ids (the bound grows) in their function: at the OpLabel and where a
   branch, merge, switch or phi names the block. Returns how many, or -1 when an id is defined
   twice and that cannot mend it (one not a label's, one label id twice in a function: its
   branches cannot tell which block), or no memory (GPUCOMPILE_SPIRV_RELABELED and _FAILED: the messages). */
/* *x by map's pairs (old, new). */
GPUCOMPILE_PRIVATE void gpucompile_spirv__remap(uint32_t *x, const uint32_t *map, uint32_t nmap) {
    uint32_t k;
    for (k = 0; k < nmap; k++)
        if (*x == map[2 * k]) {
            *x = map[2 * k + 1];
            return;
        }
}

#define GPUCOMPILE_SPIRV_RELABELED "%d block id(s) LLVM 22 kept from an earlier compile in this process replaced"
#define GPUCOMPILE_SPIRV_RELABEL_FAILED "LLVM 22's SPIR-V code generator defined an id twice (a block's id kept from an earlier compile in this process), and the module cannot be mended"
GPUCOMPILE_PRIVATE int gpucompile_spirv_relabel(uint32_t *w, size_t n) {
    gpucompile_spirv_inst it;
    uint32_t bound, top, *tag, *map = NULL, f = 0, nmap = 0, cap = 0, k; /* tag per id: 0 free, ~0 not a label, else the label's function */
    size_t fn = 0, p;
    int r = 0;
    if (!gpucompile_spirv_begin(&it, w, n * 4) || w[0] != GPUCOMPILE_SPIRV_MAGIC || (bound = w[3]) > 0x1000000u) return -1;
    if (!(tag = (uint32_t *)calloc((size_t)bound + 1, sizeof *tag))) return -1;
    for (top = bound; r >= 0 && gpucompile_spirv_next(&it);) { /* everything but labels; new ids from top, above any label's */
        int rk = gpucompile_spirv_result(it.op);
        uint32_t id = gpucompile_spirv_operand(&it, (size_t)rk);
        if (it.op == 248 && id >= top) top = id + 1;
        if (!rk || it.op == 248) continue;
        if (id >= bound || tag[id]) r = -1;
        else tag[id] = ~0u;
    }
    if (top > 0x1000000u) r = -1;
    for (gpucompile_spirv_begin(&it, w, n * 4); r >= 0 && gpucompile_spirv_next(&it);) {
        uint32_t id = gpucompile_spirv_operand(&it, 1);
        if (it.op == 54) fn = it.at, f++, nmap = 0; /* OpFunction */
        if (it.op == 248 && id < bound && !tag[id]) tag[id] = f;
        else if (it.op == 248) { /* OpLabel, its id already another's: a new one */
            for (k = 0; k < nmap && map[2 * k] != id; k++) {}
            if (k < nmap || (id < bound && tag[id] == f)) r = -1;
            else {
                uint32_t *m2 = nmap < cap ? map : (uint32_t *)realloc(map, (cap = 2 * cap + 8) * 2 * sizeof *map);
                if (!m2) r = -1;
                else map = m2, map[2 * nmap] = id, map[2 * nmap + 1] = top++, w[3] = top, nmap++, r++;
            }
        }
        if (it.op != 56 || !nmap || r < 0) continue; /* OpFunctionEnd: the function's blocks renamed */
        for (p = fn; p < it.at; p += gpucompile_spirv_count(w[p])) {
            uint32_t op = gpucompile_spirv_opcode(w[p]), wc = gpucompile_spirv_count(w[p]), from = 1, to = 0, step = 1, j;
            if (op == 248 || op == 249 || op == 247) to = 2; /* OpLabel, OpBranch, OpSelectionMerge */
            else if (op == 246) to = 3;                       /* OpLoopMerge: merge, continue */
            else if (op == 250) from = 2, to = 4;             /* OpBranchConditional */
            else if (op == 245) from = 4, to = wc, step = 2;  /* OpPhi: value, parent, ... */
            else if (op == 251 && wc > 2) {                   /* OpSwitch: selector, default, (literal, target)...: the literal as wide as the selector's type */
                size_t d = gpucompile_spirv__def(w, n, w[p + 1]), t = d ? gpucompile_spirv__def(w, n, w[d + 1]) : 0;
                step = t && gpucompile_spirv_opcode(w[t]) == 21 && w[t + 2] > 32 ? 3 : 2;
                from = 2, to = wc;
                for (j = 3 + step - 1; j < wc; j += step) gpucompile_spirv__remap(w + p + j, map, nmap);
                step = wc; /* the default, below */
            }
            for (j = from; j < to && j < wc; j += step) gpucompile_spirv__remap(w + p + j, map, nmap);
        }
    }
    free(tag);
    free(map);
    return r;
}

/* What is wrong with LLVM's words (size bytes at data) that gpucompile_spirv_relabel cannot
   mend: GPUCOMPILE_SPIRV_RELABEL_FAILED, or NULL (gpucompile_backend.emitted_wrong). */
GPUCOMPILE_PRIVATE const char *gpucompile_spirv_ids_wrong(const void *data, size_t size) {
    uint32_t *w = (uint32_t *)malloc(size ? size : 1);
    int r = w && size % 4 == 0 ? (memcpy(w, data, size), gpucompile_spirv_relabel(w, size / 4)) : -1;
    free(w);
    return r < 0 ? GPUCOMPILE_SPIRV_RELABEL_FAILED : NULL;
}
#ifdef __cplusplus
}
#endif
#endif /* SPIR-V words */

/* ==== [section: one vendor runtime] ======================================================
   A vendor runtime's section (GPUCOMPILE_NVPTX_RUNTIME, ..._AMDGPU_, ..._SPIRV_ in the backend
   headers; one of your own) defines GPUCOMPILE_RUNTIME_VENDOR and includes this file: a second
   one in the same file stops here (tests/cli_seam.sh). In two files the mgpu* functions would be
   defined twice, which the linker refuses. The entries every driver-style API shares follow. */
#if defined(GPUCOMPILE_RUNTIME_VENDOR)
#undef GPUCOMPILE_RUNTIME_VENDOR
#if defined(GPUCOMPILE__RUNTIME_VENDOR_DEFINED)
#error "gpucompile_runtime.h: a vendor runtime is already defined in this program (one GPUCOMPILE_<BACKEND>_RUNTIME per program)"
#endif
#define GPUCOMPILE__RUNTIME_VENDOR_DEFINED

/* The entries of a vendor runtime that are one call under every driver-style API (CUDA's
   driver API and HIP's module API: a call returns an error code, 0 for success, and gives its
   result through its first argument): prefix##module_load, module_unload, get_function,
   stream_synchronize and stream_destroy. call(Name, (arguments)) calls the vendor's <api>Name (cuModuleLoadData,
   hipModuleLoadData) and reports a failure under that name. */
#define GPUCOMPILE_RUNTIME_DRIVER_ENTRIES(prefix, call) \
    GPUCOMPILE_PRIVATE void *prefix##module_load(const void *data, size_t size) { \
        void *module = NULL; \
        (void)size; \
        call(ModuleLoadData, (&module, data)); \
        return module; \
    } \
    GPUCOMPILE_PRIVATE void prefix##module_unload(void *module) { call(ModuleUnload, (module)); } \
    GPUCOMPILE_PRIVATE void *prefix##get_function(void *module, const char *name) { \
        void *fn = NULL; \
        call(ModuleGetFunction, (&fn, module, name)); \
        return fn; \
    } \
    GPUCOMPILE_PRIVATE void prefix##stream_synchronize(void *stream) { call(StreamSynchronize, (stream)); } \
    GPUCOMPILE_PRIVATE void prefix##stream_destroy(void *stream) { call(StreamDestroy, (stream)); }
#endif

/* ==== [section: runtime] =================================================================
   The mgpu* functions over the vendor table, run-time selection, the error reporting. One
   per program (GPUCOMPILE_RUNTIME_IMPLEMENTATION, which GPUCOMPILE_RUNTIME_VENDOR implies). */
#if defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION) && !defined(GPUCOMPILE__RUNTIME_IMPLEMENTED)
#define GPUCOMPILE__RUNTIME_IMPLEMENTED
#include <limits.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct gpucompile__rt_state {
    int state;                  /* 0 not opened yet, 1 ready, -1 failed (reported once) */
    void *lib;
    int device;                 /* mgpuSetDefaultDevice's ordinal; the vendor's handle once started */
    char arch[64];              /* the device's: "sm_90", "gfx90a:sramecc+:xnack-" */
    char path[1024];
    const gpucompile_runtime_vendor *vendor;
    gpucompile_runtime_error_func error_func;
    void *error_user;
} gpucompile__rt_state;

static gpucompile__rt_state gpucompile__rt;

void gpucompile_runtime_report(const char *call, int code, const char *message) {
    gpucompile_runtime_error_func f;
    void *u;
    gpucompile_lock();
    f = gpucompile__rt.error_func;
    u = gpucompile__rt.error_user;
    gpucompile_unlock();
    if (f) f(call, code, message, u);
    else fprintf(stderr, "'%s' failed with '%s'\n", call, message); /* MLIR's wrappers' form */
}

/* Ready to call the vendor? The first call opens the library (gpucompile_runtime_set_library's
   path, else $env, else the default) and the device; a failure is reported once (after the
   lock, so that the callback may call us) and remembered. Then the vendor's enter. */
static const gpucompile_runtime_vendor *gpucompile__rt_enter(void) {
    gpucompile__rt_state *s = &gpucompile__rt;
    const gpucompile_runtime_vendor *v;
    char msg[2048], why[512];
    const char *path, *missing, *call = NULL;
    int r = 0, ok;
    msg[0] = 0;
    gpucompile_lock();
    v = s->vendor;
    if (s->state == 0 && !v) {
        s->state = -1;
        call = "gpucompile_runtime";
        snprintf(msg, sizeof msg, "no vendor runtime: define a backend header's GPUCOMPILE_<BACKEND>_RUNTIME in one file "
                                  "(or call gpucompile_runtime_set_vendor)");
    } else if (s->state == 0) {
        path = s->path[0] ? s->path : getenv(v->env);
        s->state = -1;
        if (!path || !*path) { /* the default names, comma-separated, newest first */
            const char *p = v->library;
            char name[128];
            while (*p && !s->lib) {
                size_t n = strcspn(p, ",");
                snprintf(name, sizeof name, "%.*s", (int)n, p);
                s->lib = gpucompile_dlopen(name);
                p += n + (p[n] == ',');
            }
            path = v->library;
        } else {
            s->lib = gpucompile_dlopen(path);
        }
        if (!s->lib) {
            call = "dlopen";
            snprintf(msg, sizeof msg, "cannot open %s '%s': %s (%s)", v->what, path, gpucompile__dlerror(why, sizeof why), v->hint);
        } else if ((missing = v->load(s->lib)) != NULL) {
            call = "dlsym";
            snprintf(msg, sizeof msg, "'%s' has no '%s': not %s", path, missing, v->kind);
        } else if ((r = v->start(&s->device, s->arch, sizeof s->arch, &call)) == 0) {
            s->state = 1;
        }
    }
    ok = s->state == 1;
    gpucompile_unlock();
    if (msg[0]) gpucompile_runtime_report(call, -1, msg);
    else if (r != 0) v->check(r, call);
    if (!ok) return NULL;
    if (v->enter) v->enter();
    return v;
}

static void gpucompile__rt_leave(const gpucompile_runtime_vendor *v) {
    if (v->leave) v->leave();
}

void gpucompile_runtime_set_vendor(const gpucompile_runtime_vendor *vendor) {
    gpucompile_lock();
    if (gpucompile__rt.state == 0) gpucompile__rt.vendor = vendor;
    gpucompile_unlock();
}

void gpucompile_runtime_set_error_callback(gpucompile_runtime_error_func func, void *user_data) {
    gpucompile_lock();
    gpucompile__rt.error_func = func;
    gpucompile__rt.error_user = user_data;
    gpucompile_unlock();
}

void gpucompile_runtime_set_library(const char *path) {
    gpucompile_lock();
    if (gpucompile__rt.state == 0) snprintf(gpucompile__rt.path, sizeof gpucompile__rt.path, "%s", path ? path : "");
    gpucompile_unlock();
}

int gpucompile_runtime_available(void) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    if (v) gpucompile__rt_leave(v);
    return v != NULL;
}

const char *gpucompile_runtime_device_arch(void) {
    return gpucompile_runtime_available() ? gpucompile__rt.arch : "";
}

void mgpuSetDefaultDevice(int32_t device) {
    gpucompile_lock();
    if (gpucompile__rt.state == 0) gpucompile__rt.device = device; /* before the first call only */
    gpucompile_unlock();
}

void *mgpuModuleLoad(void *data, size_t size) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    void *module = v ? v->module_load(data, size) : NULL;
    if (v) gpucompile__rt_leave(v);
    return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
    const gpucompile_runtime_vendor *v;
    void *module = NULL;
    char msg[128];
    gpucompile_lock();
    v = gpucompile__rt.vendor;
    gpucompile_unlock();
    if (v && !v->module_load_jit) {
        snprintf(msg, sizeof msg, "%s cannot load assembly text: embed a code object (format bin)", v->name);
        gpucompile_runtime_report("mgpuModuleLoadJIT", -1, msg);
        return NULL;
    }
    if ((v = gpucompile__rt_enter()) != NULL) {
        module = v->module_load_jit(data, optLevel < 0 ? 0 : optLevel > 4 ? 4 : optLevel);
        gpucompile__rt_leave(v);
    }
    return module;
}

void mgpuModuleUnload(void *module) {
    const gpucompile_runtime_vendor *v;
    if (!module || !(v = gpucompile__rt_enter())) return;
    v->module_unload(module);
    gpucompile__rt_leave(v);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    void *fn = v ? v->get_function(module, name) : NULL;
    if (v) gpucompile__rt_leave(v);
    return fn;
}

/* The end of an operation on stream: the NULL stream's work done (null_stream_async), the vendor left. */
static void gpucompile__rt_done(const gpucompile_runtime_vendor *v, void *stream) {
    if (!stream && v->null_stream_async) v->stream_synchronize(NULL);
    gpucompile__rt_leave(v);
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
    intptr_t blockY, intptr_t blockZ, int32_t smem, void *stream, void **params, void **extra, size_t paramsCount) {
    const gpucompile_runtime_vendor *v;
    intptr_t d[6];
    unsigned u[6];
    char call[64];
    int i;
    (void)paramsCount;
    d[0] = gridX; d[1] = gridY; d[2] = gridZ; d[3] = blockX; d[4] = blockY; d[5] = blockZ;
    /* MLIR's sizes are intptr_t, the vendors' unsigned */
    for (i = 0; i < 6; i++) {
        if (d[i] <= 0 || (unsigned long long)d[i] > UINT_MAX || smem < 0) {
            gpucompile_lock();
            snprintf(call, sizeof call, "%s", gpucompile__rt.vendor ? gpucompile__rt.vendor->launch_call : "mgpuLaunchKernel");
            gpucompile_unlock();
            gpucompile_runtime_report(call, 1, "grid and block sizes must be 1 to 2^32-1, shared memory >= 0");
            return;
        }
        u[i] = (unsigned)d[i];
    }
    if (!(v = gpucompile__rt_enter())) return;
    v->launch(function, u, u + 3, (unsigned)smem, stream, params, extra);
    gpucompile__rt_done(v, stream);
}

void *mgpuStreamCreate(void) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    void *stream = v ? v->stream_create() : NULL;
    if (v) gpucompile__rt_leave(v);
    return stream;
}

void mgpuStreamSynchronize(void *stream) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    if (!v) return;
    v->stream_synchronize(stream);
    gpucompile__rt_leave(v);
}

void mgpuStreamDestroy(void *stream) {
    const gpucompile_runtime_vendor *v;
    if (!stream || !(v = gpucompile__rt_enter())) return;
    v->stream_destroy(stream);
    gpucompile__rt_leave(v);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, bool isHostShared) {
    const gpucompile_runtime_vendor *v;
    void *p;
    (void)stream;
    if (sizeBytes == 0 || !(v = gpucompile__rt_enter())) return NULL;
    p = v->mem_alloc(sizeBytes, isHostShared);
    gpucompile__rt_leave(v);
    return p;
}

void mgpuMemFree(void *ptr, void *stream) {
    const gpucompile_runtime_vendor *v;
    (void)stream;
    if (!ptr || !(v = gpucompile__rt_enter())) return;
    v->mem_free(ptr);
    gpucompile__rt_leave(v);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    if (!v) return;
    v->mem_copy(dst, src, sizeBytes, stream);
    gpucompile__rt_done(v, stream);
}

void mgpuMemset32(void *dst, unsigned int value, size_t count, void *stream) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    if (!v) return;
    v->mem_set32(dst, value, count, stream);
    gpucompile__rt_done(v, stream);
}

/* An image's pixel: the bytes of one in format (OpenCL's channel order, from 0x10B0 CL_R, and
   channel type, from 0x10D0 CL_SNORM_INT8), and its name; 0 for a format OpenCL does not define.
   The packed types (565, 555, 101010, 24-bit) are a whole pixel. */
static size_t gpucompile__rt_pixel(int32_t order, int32_t type, char *name, size_t size) {
    static const char *const orders[20] = {"R", "A", "RG", "RA", "RGB", "RGBA", "BGRA", "ARGB", "INTENSITY", "LUMINANCE",
                                           "Rx", "RGx", "RGBx", "DEPTH", "DEPTH_STENCIL", "sRGB", "sRGBx", "sRGBA", "sBGRA", "ABGR"};
    static const unsigned char channels[20] = {1, 1, 2, 2, 3, 4, 4, 4, 1, 1, 2, 3, 4, 1, 2, 3, 4, 4, 4, 4};
    static const char *const types[17] = {"SNORM_INT8", "SNORM_INT16", "UNORM_INT8", "UNORM_INT16", "UNORM_SHORT_565",
                                          "UNORM_SHORT_555", "UNORM_INT_101010", "SIGNED_INT8", "SIGNED_INT16", "SIGNED_INT32",
                                          "UNSIGNED_INT8", "UNSIGNED_INT16", "UNSIGNED_INT32", "HALF_FLOAT", "FLOAT",
                                          "UNORM_INT24", "UNORM_INT_101010_2"};
    static const signed char bytes[17] = {1, 2, 1, 2, -2, -2, -4, 1, 2, 4, 1, 2, 4, 2, 4, -4, -4}; /* < 0: packed */
    unsigned o = (unsigned)order - 0x10B0u, t = (unsigned)type - 0x10D0u;
    if (o >= 20 || t >= 17) {
        snprintf(name, size, "channel order 0x%X / type 0x%X", (unsigned)order, (unsigned)type);
        return 0;
    }
    snprintf(name, size, "CL_%s / CL_%s", orders[o], types[t]);
    return bytes[t] < 0 ? (size_t)-bytes[t] : channels[o] * (size_t)bytes[t];
}

/* The vendor for an image call (entered), or NULL: not started, or a vendor without images (said). */
static const gpucompile_runtime_vendor *gpucompile__rt_enter_images(const char *call) {
    const gpucompile_runtime_vendor *v = gpucompile__rt_enter();
    char msg[128];
    if (!v || v->image_create) return v;
    gpucompile__rt_leave(v);
    snprintf(msg, sizeof msg, "the %s runtime has no images", v->name);
    gpucompile_runtime_report(call, -1, msg);
    return NULL;
}

void *mgpuImageCreate(int32_t type, int32_t order, int32_t dataType, intptr_t width, intptr_t height,
                      intptr_t depth, intptr_t layers, void *stream) {
    static const char *const types[6] = {"image2d", "image3d", "image2d_array", "image1d", "image1d_array", "image1d_buffer"};
    static const unsigned char has[6] = {3, 7, 11, 1, 9, 1}; /* per type: 1 width, 2 height, 4 depth, 8 layers */
    static const char *const dims[4] = {"width", "height", "depth", "layers"};
    const intptr_t given[4] = {width, height, depth, layers};
    const gpucompile_runtime_vendor *v;
    unsigned t = (unsigned)type - 0x10F1u, k;
    size_t extent[4], pixel;
    char format[96], what[192], msg[256];
    void *image = NULL;
    msg[0] = 0;
    pixel = gpucompile__rt_pixel(order, dataType, format, sizeof format);
    if (t >= 6) snprintf(msg, sizeof msg, "image type 0x%X is none of OpenCL's (0x10F1 CL_MEM_OBJECT_IMAGE2D ... 0x10F6 IMAGE1D_BUFFER)", (unsigned)type);
    else if (!pixel) snprintf(msg, sizeof msg, "%s is no OpenCL image format", format);
    for (k = 0; k < 4 && !msg[0]; k++) {
        if (has[t] >> k & 1 ? given[k] < 1 : given[k] < 0 || given[k] > 1)
            snprintf(msg, sizeof msg, has[t] >> k & 1 ? "an %s's %s must be at least 1 (%lld)" : "an %s has no %s: 0 or 1 (%lld)", types[t],
                     dims[k], (long long)given[k]);
        extent[k] = given[k] < 1 ? 1 : (size_t)given[k];
    }
    if (msg[0]) {
        gpucompile_runtime_report("mgpuImageCreate", -1, msg);
        return NULL;
    }
    snprintf(what, sizeof what, "an %s of %llux%llux%llu pixels, %llu layer(s), %s", types[t], (unsigned long long)extent[0],
             (unsigned long long)extent[1], (unsigned long long)extent[2], (unsigned long long)extent[3], format);
    if ((v = gpucompile__rt_enter_images("mgpuImageCreate")) != NULL) {
        image = v->image_create(type, order, dataType, extent, pixel, what, stream);
        gpucompile__rt_leave(v);
    }
    return image;
}

/* A whole image from host memory or to it. */
static void gpucompile__rt_image_copy(const char *call, void *image, void *host, int to_image, void *stream) {
    const gpucompile_runtime_vendor *v;
    if (!image || !host) {
        gpucompile_runtime_report(call, -1, !image ? "the image is NULL" : "the host memory is NULL");
        return;
    }
    if (!(v = gpucompile__rt_enter_images(call))) return;
    v->image_copy(image, host, to_image, stream);
    gpucompile__rt_leave(v);
}

void mgpuImageWrite(void *image, const void *src, void *stream) { gpucompile__rt_image_copy("mgpuImageWrite", image, (void *)src, 1, stream); }
void mgpuImageRead(void *dst, void *image, void *stream) { gpucompile__rt_image_copy("mgpuImageRead", image, dst, 0, stream); }

void mgpuImageFree(void *image, void *stream) {
    const gpucompile_runtime_vendor *v;
    if (!image) {
        gpucompile_runtime_report("mgpuImageFree", -1, "the image is NULL");
        return;
    }
    if (!(v = gpucompile__rt_enter_images("mgpuImageFree"))) return;
    v->image_free(image, stream);
    gpucompile__rt_leave(v);
}

/* The value of key in MLIR attribute text (a target's parameters, an object's properties):
   "O = 3" gives 3, "features = \"+xnack\"" gives +xnack; "" when absent. */
static const char *gpucompile__rt_param(const char *text, const char *key, char *buf, size_t size) {
    size_t n = strlen(key), i = 0;
    const char *p = text;
    buf[0] = 0;
    while (p && (p = strstr(p, key)) != NULL) {
        const char *q = p + n;
        int at_start = p == text || p[-1] == '<' || p[-1] == '{' || p[-1] == ' ' || p[-1] == ',';
        p = q;
        while (*q == ' ') q++;
        if (!at_start || *q != '=') continue;
        for (q++; *q == ' '; q++) {}
        if (*q == '"')
            for (q++; *q && *q != '"' && i + 1 < size; q++) buf[i++] = *q == '\\' && q[1] ? *++q : *q;
        else
            for (; *q && !strchr(",>} :", *q) && i + 1 < size; q++) buf[i++] = *q;
        buf[i] = 0;
        break;
    }
    return buf;
}

/* The entry that suits the device, as the vendor scores them; PTX through the JIT at the
   object's O property, else its target's O, else 2. */
void *gpucompile_runtime_load_offload_binary(const void *data, size_t size) {
    const unsigned char *p = (const unsigned char *)data;
    const gpucompile_runtime_vendor *v;
    gpucompile__ob e, best;
    const char *err = NULL, *name = NULL;
    char msg[4096], buf[512], reason[512], features[256];
    size_t at = 0, len = 0;
    int index = 0, best_score = -1;
    void *module = NULL;
    if (!gpucompile_runtime_available()) return NULL;
    v = gpucompile__rt.vendor;
    msg[0] = 0;
    memset(&best, 0, sizeof best);
    if (!data || !size) err = "empty offload binary";
    for (; !err && at < size; at += (size_t)e.size, index++) {
        const char *target, *w = NULL;
        int s;
        if ((err = gpucompile__ob_read(p + at, size - at, &e, reason, sizeof reason)) != NULL) break;
        target = gpucompile__ob_string(&e, "gpucompile.target");
        if (index == 0) name = gpucompile__ob_string(&e, "gpucompile.binary");
        s = v->score(gpucompile__ob_string(&e, "triple"), gpucompile__ob_string(&e, "arch"), gpucompile__ob_format(&e, v->image_format),
                     gpucompile__rt_param(target ? target : "", "features", features, sizeof features), gpucompile__rt.arch, &w);
        if (s > best_score) { best_score = s; best = e; }
        if (len < sizeof msg)
            len += (size_t)snprintf(msg + len, sizeof msg - len, "%s[%d] %s %s (%s)", index ? ", " : "",
                                    index, target ? target : gpucompile__ob_string(&e, "triple") ? gpucompile__ob_string(&e, "triple") : "?",
                                    gpucompile__ob_format(&e, v->image_format), gpucompile__ob_string(&e, "arch") ? gpucompile__ob_string(&e, "arch") : "?");
    }
    if (err) {
        snprintf(msg, sizeof msg, "offload binary entry %d: %s", index, err);
        gpucompile_runtime_report("gpucompile_runtime_load_offload_binary", -1, msg);
        return NULL;
    }
    if (best_score < 0) {
        char line[4608];
        snprintf(line, sizeof line, "no object for device %s in binary @%s; it holds: %s", gpucompile__rt.arch, name ? name : "",
                 msg[0] ? msg : "nothing");
        gpucompile_runtime_report("gpucompile_runtime_load_offload_binary", -1, line);
        return NULL;
    }
    if (strcmp(gpucompile__ob_format(&best, v->image_format), "isa") == 0) {
        /* text for the JIT: NUL-terminated, which the image need not be */
        char *text = (char *)malloc((size_t)best.image_size + 1);
        const char *props = gpucompile__ob_string(&best, "gpucompile.properties"), *target = gpucompile__ob_string(&best, "gpucompile.target");
        int level = 2;
        if (*gpucompile__rt_param(props ? props : "", "O", buf, sizeof buf)) level = atoi(buf);
        else if (*gpucompile__rt_param(target ? target : "", "O", buf, sizeof buf)) level = atoi(buf);
        if (!text) {
            gpucompile_runtime_report("gpucompile_runtime_load_offload_binary", -1, "out of memory");
            return NULL;
        }
        memcpy(text, best.p + best.image, (size_t)best.image_size);
        text[best.image_size] = 0;
        module = mgpuModuleLoadJIT(text, level);
        free(text);
    } else {
        module = mgpuModuleLoad((void *)(best.p + best.image), (size_t)best.image_size);
    }
    return module;
}

#ifdef __cplusplus
}
#endif
#endif /* runtime */

/*
------------------------------------------------------------------------------
This software is available under the MIT License.
Copyright (c) 2026 the gpucompile authors.
Permission is hereby granted, free of charge, to any person obtaining a copy of this software
and associated documentation files (the "Software"), to deal in the Software without
restriction, including without limitation the rights to use, copy, modify, merge, publish,
distribute, sublicense, and/or sell copies of the Software, and to permit persons to whom the
Software is furnished to do so, subject to the following conditions: The above copyright
notice and this permission notice shall be included in all copies or substantial portions of
the Software. THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND.
------------------------------------------------------------------------------
*/
