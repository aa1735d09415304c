/* gpucompile_nvptx.h - the NVPTX backend of gpucompile: #gpu.nvptx / #nvvm.target to PTX,
   cubin and fatbin (libdevice, NVVMReflect flags, PTX versions, nvJitLink / ptxas / driver).

   Include gpucompile.h first, except for the mgpu* runtime alone (GPUCOMPILE_NVPTX_RUNTIME: the CUDA driver behind
   gpucompile_runtime.h), which needs this header only, no LLVM: cc prog.c host.o -ldl -lpthread.
   The implementation is compiled where GPUCOMPILE_IMPLEMENTATION or GPUCOMPILE_NVPTX_IMPLEMENTATION
   is defined (gpucompile.h's "Do this": which files, and linking that object); it registers
   itself at start-up, so #gpu.nvptx targets compile with no further call.

   Linking: nothing beyond the core's line (LLVM's C API, -ldl -lpthread). nvJitLink and the
   CUDA driver are opened at run time (libnvJitLink.so.13 / .so.12 / .so, libcuda.so.1; Windows:
   nvJitLink_130_0.dll, nvJitLink_120_0.dll, nvcuda.dll); ptxas and fatbinary run as child
   processes. No GPU and no driver are needed but for bin_method "driver" and the runtime.
   Configuration: GPUCOMPILE_DEFAULT_CUDA_PATH (the last toolkit root tried, "/usr/local/cuda");
   GPUCOMPILE_NVPTX_PTXAS_FROM (PTX bytes from which ptxas, not nvJitLink, goes first; 512 KiB);
   GPUCOMPILE_NVPTX_RUNTIME (the mgpu* runtime over the CUDA driver, see its section).

   Usage
       gpucompile_target *t = NULL;
       gpucompile_options o;
       gpucompile_object *cubin = NULL;
       memset(&o, 0, sizeof o);
       gpucompile_target_parse("#gpu.nvptx<chip = \"sm_90\", flags = {fast}>", (size_t)-1,
                               NULL, NULL, &t);
       o.bin_method = "ptxas";                    // NULL: by size, nvJitLink or ptxas, then the other
       if (t && gpucompile_compile_file("k.ll", t, &o, &cubin) == GPUCOMPILE_OK)
           printf("%s: %d registers\n", cubin->kernels[0].name, cubin->kernels[0].registers);
       gpucompile_object_free(cubin);
       gpucompile_target_free(t);

   Threads: compiles run in parallel; nvJitLink and libcuda are opened once per process under
   the core's lock, and a failure to open them is remembered. Ownership and guarantees: the
   core's (no abort, no exit, no output without a logger; temp files always removed).
   Supported: LLVM 19 to 22, each with the chips its llc lists (19: sm_20 ... sm_90a, newer
   chips through sm_90 PTX, below; 20: sm_100/101/120 and their "a" forms; 21: sm_103,
   sm_121 and the "f" forms; 22: sm_88, sm_110) and the PTX versions it emits (up to 8.5, 8.7,
   8.8, 9.0); CUDA 12 and 13.

   CUDA toolkit
       Found from options.toolkit_path (an error naming it when it does not exist), then the
       first existing directory of $CUDA_PATH, $CUDA_HOME, $CUDA_ROOT, then the directory above
       the `nvcc` found on $PATH, then GPUCOMPILE_DEFAULT_CUDA_PATH (define it at build time;
       default "/usr/local/cuda"). libdevice (<root>/nvvm/libdevice/libdevice.10.bc) is linked
       only when the module declares a __nv_* function. Tools: <root>/bin/ptxas and fatbinary,
       else $PATH; options.tools may name "ptxas", "fatbinary", "nvJitLink" (a library path)
       and "libcuda" (a library path).

   Flags
       ftz:  module flag nvvm-reflect-ftz = 1 (replacing any value) and
             "denormal-fp-math-f32"="preserve-sign,preserve-sign" on every function, libdevice's
             included: .ftz instruction forms.
       fast: fast-math flags on the module's own floating-point instructions, the unsafe/
             approximate function attributes on every function (div.approx, sqrt.approx), and
             libdevice's __nv_fast_* for sinf, cosf, tanf, expf, exp10f, logf, log2f, log10f,
             powf, sincosf (sin.approx, ex2.approx, lg2.approx), and tanhf on LLVM 22 (tanh.approx),
             like nvcc -use_fast_math.
             Library code keeps its instructions' flags (its range reductions rely on exact
             arithmetic), as nvcc's -use_fast_math does.
       __nvvm_reflect("__CUDA_PREC_SQRT"), which LLVM 19's NVVMReflect leaves at 0, is resolved
       here: 1 (sqrt.rn, CUDA's default) unless `fast`.

   PTX version
       The highest of: the chip's minimum (LLVM's table), the target's +ptxNN (#gpu.nvptx's
       default +ptx60 too: sm_90 gives PTX 7.8), and the highest +ptxNN in the module's
       functions' "target-features" (clang writes "+ptx85,+sm_80" on every function: the PTX
       its CUDA headers and inline asm need, which the stripped attribute would otherwise lose).
       The module's ask is capped at what this LLVM emits and, for bin and fatbin, what the
       toolchain reads (nvJitLink's version, else `ptxas --version`, read once per process),
       with a warning. A target that sets its own +ptxNN (features other than the default)
       below what a function asks for is an error naming both and the function. An explicit
       +ptxNN this LLVM cannot emit, `ptxNN` without the '+', a malformed one, or a target's
       or chip's version the toolchain cannot read is an error before code generation (not
       ptxas' "Unsupported .version"). The choice and its reasons are a note (-v).

   Chips LLVM 19 lacks (sm_100, sm_101, sm_103, sm_110, sm_120, sm_121, with or without the
   a/f suffix), on LLVM 19 only: PTX for sm_90, then assembled for the requested chip by nvJitLink or ptxas (the
   driver's JIT path runs that PTX on newer GPUs too). format isa gives that sm_90 PTX; a fatbin
   holds the cubin for the chip and the PTX as sm_90.

   cubin (format bin): nvJitLink (dlopen, no link-time dependency), the toolkit's ptxas (a
   subprocess, temp files removed), or the CUDA driver's cuLink* (dlopen libcuda.so.1, primary
   context: needs a GPU). Without options.bin_method the PTX's size picks the first: nvJitLink
   below GPUCOMPILE_NVPTX_PTXAS_FROM (512 KiB; a macro), ptxas from there: on real modules of
   1-10 MB of PTX nvJitLink took 1-1.4x (darktable's) to 6-16x (hashcat's) ptxas' time, and
   it refuses a register-capped kernel that calls a function needing more registers, which
   ptxas compiles; below, it saves ptxas' process and temp files (numbers and the rule at
   gpucompile_nvptx__cubin).
   If the first is not available, or rejects the PTX, the other is tried: its messages then
   come as warnings, and a warning names the method that made the cubin. The driver comes
   last, only when neither is available. bin_method ("nvjitlink", "ptxas", "driver") forces
   one, with no fallback. The log says which method made the cubin.
   fatbin: the toolkit's `fatbinary` packs the cubin and the PTX.

   Kernel metadata (bin, fatbin): registers, private (local) bytes and max threads (from
   .maxntid / reqntid) from the cubin's ELF (.nv.info); shared memory from the tool's info log
   ("N bytes smem"), else the size of .nv.shared.<kernel> (which on sm_90 also counts 1 KiB
   the toolchain reserves). CUDA's `extern __shared__` (an external addrspace(3) global)
   stays external: the PTX declares `.extern .shared .align N .b8 name[];` as llc does; an
   unsized one is dynamic shared memory, sized at launch, and kernel.dynamic_shared marks the
   kernels that reach it.
*/
#ifndef GPUCOMPILE_NVPTX_H
#define GPUCOMPILE_NVPTX_H
#if defined(GPUCOMPILE_H)
#ifdef __cplusplus
extern "C" {
#endif

/* The backend table (also registered automatically). */
GPUCOMPILE_API const gpucompile_backend *gpucompile_nvptx_backend(void);

#ifdef __cplusplus
}
#endif
#elif !defined(GPUCOMPILE_NVPTX_RUNTIME)
#error "gpucompile_nvptx.h: include gpucompile.h first (or define GPUCOMPILE_NVPTX_RUNTIME for the runtime alone)"
#endif
#endif /* GPUCOMPILE_NVPTX_H */

/* ==== [section: the CUDA driver and selection] ===========================================
   What the backend and the runtime share, with no LLVM: the driver's entry points and error
   names (the compiler's cuLink* path and the runtime: one loader, one table), and the rules
   that pick an object for a device. */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_NVPTX_IMPLEMENTATION) || defined(GPUCOMPILE_NVPTX_RUNTIME)) && \
    !defined(GPUCOMPILE_NVPTX__DRIVER_IMPLEMENTED)
#define GPUCOMPILE_NVPTX__DRIVER_IMPLEMENTED
#if defined(GPUCOMPILE_NVPTX_RUNTIME) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_NVPTX_IMPLEMENTATION)) && !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif
#if defined(_WIN32)
#define GPUCOMPILE_NVPTX__LIBCUDA "nvcuda.dll"
#else
#define GPUCOMPILE_NVPTX__LIBCUDA "libcuda.so.1"
#endif

/* X(field, symbol, who, (params)): who is 'C' for the compiler's cuLink* path, 'R' for the
   runtime, 'B' for both; each returns a CUresult (cuda.h's values). */
#define GPUCOMPILE_NVPTX__CU_FUNCTIONS(X) \
    X(cuInit, "cuInit", 'B', (unsigned flags)) \
    X(cuDeviceGet, "cuDeviceGet", 'B', (int *dev, int ordinal)) \
    X(cuDeviceGetAttribute, "cuDeviceGetAttribute", 'R', (int *value, int attribute, int dev)) \
    X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", 'B', (void **ctx, int dev)) \
    X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", 'C', (int dev)) \
    X(cuCtxPushCurrent, "cuCtxPushCurrent_v2", 'B', (void *ctx)) \
    X(cuCtxPopCurrent, "cuCtxPopCurrent_v2", 'B', (void **ctx)) \
    X(cuLinkCreate, "cuLinkCreate_v2", 'C', (unsigned n, int *opts, void **values, void **state)) \
    X(cuLinkAddData, "cuLinkAddData_v2", 'C', (void *state, int type, void *data, size_t size, const char *name, unsigned n, \
                                               int *opts, void **values)) \
    X(cuLinkComplete, "cuLinkComplete", 'C', (void *state, void **cubin, size_t *size)) \
    X(cuLinkDestroy, "cuLinkDestroy", 'C', (void *state)) \
    X(cuModuleLoadData, "cuModuleLoadData", 'R', (void **module, const void *image)) \
    X(cuModuleLoadDataEx, "cuModuleLoadDataEx", 'R', (void **module, const void *image, unsigned n, int *options, void **values)) \
    X(cuModuleUnload, "cuModuleUnload", 'R', (void *module)) \
    X(cuModuleGetFunction, "cuModuleGetFunction", 'R', (void **fn, void *module, const char *name)) \
    X(cuFuncSetAttribute, "cuFuncSetAttribute", 'R', (void *fn, int attribute, int value)) \
    X(cuLaunchKernel, "cuLaunchKernel", 'R', (void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, \
                                              unsigned bz, unsigned smem, void *stream, void **params, void **extra)) \
    X(cuStreamCreate, "cuStreamCreate", 'R', (void **stream, unsigned flags)) \
    X(cuStreamSynchronize, "cuStreamSynchronize", 'R', (void *stream)) \
    X(cuStreamDestroy, "cuStreamDestroy_v2", 'R', (void *stream)) \
    X(cuMemAlloc, "cuMemAlloc_v2", 'R', (unsigned long long *p, size_t size)) \
    X(cuMemAllocManaged, "cuMemAllocManaged", 'R', (unsigned long long *p, size_t size, unsigned flags)) \
    X(cuMemFree, "cuMemFree_v2", 'R', (unsigned long long p)) \
    X(cuMemcpyAsync, "cuMemcpyAsync", 'R', (unsigned long long dst, unsigned long long src, size_t n, void *stream)) \
    X(cuMemsetD32Async, "cuMemsetD32Async", 'R', (unsigned long long dst, unsigned value, size_t n, void *stream))

#define GPUCOMPILE_NVPTX__CU_FIELD(fn, sym, who, params) int (*fn) params;
typedef struct gpucompile_nvptx__driver {
    int (*cuGetErrorName)(int code, const char **name); /* optional: the toolkit's stub has it, names unknown codes */
    GPUCOMPILE_NVPTX__CU_FUNCTIONS(GPUCOMPILE_NVPTX__CU_FIELD)
} gpucompile_nvptx__driver;
#undef GPUCOMPILE_NVPTX__CU_FIELD

/* The entry points one user ('C' or 'R') needs, from lib into *d: the first one missing, or NULL. */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__cu_load(void *lib, gpucompile_nvptx__driver *d, char user) {
    const char *missing = NULL;
    gpucompile_dlfn(lib, "cuGetErrorName", &d->cuGetErrorName);
#define GPUCOMPILE_NVPTX__CU_LOAD(fn, sym, who, params) \
    if ((who == 'B' || who == user) && !gpucompile_dlfn(lib, sym, &d->fn) && !missing) missing = sym;
    GPUCOMPILE_NVPTX__CU_FUNCTIONS(GPUCOMPILE_NVPTX__CU_LOAD)
#undef GPUCOMPILE_NVPTX__CU_LOAD
    return missing;
}

/* A CUresult as text: the CUDA_ERROR_* names we can explain, else the driver's own name (the
   stub has none), else "CUDA error". */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__cu_error(const gpucompile_nvptx__driver *d, int code) {
    static const struct { int code; const char *text; } known[] = {
        {1, "CUDA_ERROR_INVALID_VALUE"}, {2, "CUDA_ERROR_OUT_OF_MEMORY"}, {3, "CUDA_ERROR_NOT_INITIALIZED"},
        {4, "CUDA_ERROR_DEINITIALIZED"},
        {34, "CUDA_ERROR_STUB_LIBRARY: this libcuda is the CUDA toolkit's stub, not a driver (no NVIDIA driver installed?)"},
        {35, "CUDA_ERROR_INSUFFICIENT_DRIVER: the NVIDIA driver is older than this code needs"},
        {100, "CUDA_ERROR_NO_DEVICE: no CUDA-capable GPU"}, {101, "CUDA_ERROR_INVALID_DEVICE"},
        {200, "CUDA_ERROR_INVALID_IMAGE"}, {209, "CUDA_ERROR_NO_BINARY_FOR_GPU: the object was built for another GPU"},
        {218, "CUDA_ERROR_INVALID_PTX"}, {222, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION: the driver is older than the PTX"},
        {400, "CUDA_ERROR_INVALID_HANDLE"}, {500, "CUDA_ERROR_NOT_FOUND"}, {700, "CUDA_ERROR_ILLEGAL_ADDRESS"},
        {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"}, {999, "CUDA_ERROR_UNKNOWN"}};
    const char *name = NULL;
    size_t i;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (known[i].code == code) return known[i].text;
    if (d && d->cuGetErrorName && d->cuGetErrorName(code, &name) != 0) name = NULL;
    return name ? name : "CUDA error";
}

/* ---- selection rules (the backend's select_score and the runtime's) ---- */
#define GPUCOMPILE_NVPTX__TRIPLES "nvptx,nvptx64" /* the triples' architectures */

/* "sm_90", "sm_90a", "compute_90", "90": the compute capability; *specific 1 for an 'a' chip, 2
   for an 'f' one (code for either runs on that chip only), else 0. 0 when not such a name. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__device(const char *s, int *cc, int *specific) {
    const char *d;
    char *end;
    long v;
    *cc = *specific = 0;
    if (!s || !(strncmp(s, "sm_", 3) == 0 || strncmp(s, "compute_", 8) == 0 || (*s >= '0' && *s <= '9'))) return 0;
    d = strchr(s, '_') ? strchr(s, '_') + 1 : s;
    v = strtol(d, &end, 10);
    if (end == d || v <= 0 || v > 10000) return 0;
    if (*end == 'a' || *end == 'f') *specific = *end++ == 'a' ? 1 : 2;
    if (*end) return 0;
    *cc = (int)v;
    return 1;
}

/* How well an object (its triple, chip and format: "bin", "isa", "fatbin", "llvm"; NULL: none)
   serves device: -2 when device is not NVIDIA's, -1 not at all (another triple's object among
   them), higher is better. A cubin runs on its own chip and later ones of the same major
   architecture; PTX (alone or in a fatbin) on its own and later chips, compiled by the driver:
   the closer the better. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__score(const char *triple, const char *chip, const char *format, const char *features,
                                                const char *device, const char **why) {
    int d, dspec, c, cspec, same, major, older;
    (void)features;
    if (!gpucompile_nvptx__device(device, &d, &dspec)) return -2;
    if (!format || !gpucompile_triple_in(GPUCOMPILE_NVPTX__TRIPLES, triple) || !gpucompile_nvptx__device(chip, &c, &cspec)) return -1;
    same = c == d, major = c / 10 == d / 10 && c <= d, older = c <= d;
    if (cspec && !same) return -1; /* sm_90a code runs on sm_90 only */
    if (strcmp(format, "bin") == 0) {
        if (same) { *why = "exact cubin"; return 6000 + c; }
        if (major) { *why = "cubin of the same major architecture"; return 4000 + c; }
        return -1;
    }
    if (strcmp(format, "fatbin") == 0) {
        if (same) { *why = "fatbin with an exact cubin"; return 5000 + c; }
        if (major) { *why = "fatbin with a cubin of the same major architecture"; return 3000 + c; }
        if (older) { *why = "fatbin with PTX the driver compiles"; return 2000 + c; }
        return -1;
    }
    if (strcmp(format, "isa") == 0 && older) { *why = "PTX the driver compiles"; return 1000 + c; }
    return -1;
}

/* ---- LLVM offload binary image kinds (llvm/Object/OffloadBinary.h) ---- */
#define GPUCOMPILE_NVPTX__IMG_CUBIN 3
#define GPUCOMPILE_NVPTX__IMG_FATBIN 4
#define GPUCOMPILE_NVPTX__IMG_PTX 5

/* The format of an entry's image that does not name it: by NVIDIA's image kinds, else a fatbin
   by its magic (where the kind says neither object nor bitcode); NULL: not NVIDIA's to say. */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__image_format(int kind, const unsigned char *image, size_t size) {
    if (kind == GPUCOMPILE_NVPTX__IMG_CUBIN) return "bin";
    if (kind == GPUCOMPILE_NVPTX__IMG_FATBIN) return "fatbin";
    if (kind == GPUCOMPILE_NVPTX__IMG_PTX) return "isa";
    if (kind != GPUCOMPILE_IMG_OBJECT && kind != GPUCOMPILE_IMG_BITCODE && size >= 4 && memcmp(image, "\x50\xED\x55\xBA", 4) == 0)
        return "fatbin";
    return NULL;
}

#ifdef __cplusplus
}
#endif
#endif /* the CUDA driver and selection */

/* ==== [section: backend] ================================================================= */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_NVPTX_IMPLEMENTATION)) && !defined(GPUCOMPILE_NVPTX_IMPLEMENTED)
#define GPUCOMPILE_NVPTX_IMPLEMENTED
#ifndef GPUCOMPILE_DEFAULT_CUDA_PATH
#define GPUCOMPILE_DEFAULT_CUDA_PATH "/usr/local/cuda"
#endif
#ifdef __cplusplus
extern "C" {
#endif

#include <limits.h>

#define GPUCOMPILE_NVPTX__PATH 4096

/* ---- chips and PTX versions ---------------------------------------------------------- */
/* The chips: the names LLVM_VERSION_MAJOR's NVPTX backend accepts (llc -mcpu=help; LLVM 19 and
   22 measured, tests/test_target.c compares them with llc of the same LLVM both ways; 20 and
   21 from their NVPTX.td) with LLVM's minimum PTX version for each (the .version llc-19 and
   llc-22 emit for +ptx32). */
#define GPUCOMPILE_NVPTX__FORWARD 1 /* LLVM 19: a newer chip reached through sm_90 PTX */
typedef struct gpucompile_nvptx__chip {
    const char *name;
    int ptx;  /* 0: forward (this LLVM lacks the chip) */
    int bits;
} gpucompile_nvptx__chip;

static const gpucompile_nvptx__chip gpucompile_nvptx__chips[] = {
    {"sm_20", 32, 0}, {"sm_21", 32, 0}, {"sm_30", 32, 0}, {"sm_32", 40, 0}, {"sm_35", 32, 0}, {"sm_37", 41, 0},
    {"sm_50", 40, 0}, {"sm_52", 41, 0}, {"sm_53", 42, 0}, {"sm_60", 50, 0}, {"sm_61", 50, 0}, {"sm_62", 50, 0},
    {"sm_70", 60, 0}, {"sm_72", 61, 0}, {"sm_75", 63, 0}, {"sm_80", 70, 0}, {"sm_86", 71, 0}, {"sm_87", 74, 0},
    {"sm_89", 78, 0}, {"sm_90", 78, 0}, {"sm_90a", 80, 0},
#if LLVM_VERSION_MAJOR >= 20
    {"sm_100", 86, 0}, {"sm_100a", 86, 0}, {"sm_101", 86, 0}, {"sm_101a", 86, 0}, {"sm_120", 87, 0}, {"sm_120a", 87, 0},
#endif
#if LLVM_VERSION_MAJOR >= 21
    {"sm_100f", 88, 0}, {"sm_101f", 88, 0}, {"sm_103", 88, 0}, {"sm_103a", 88, 0}, {"sm_103f", 88, 0}, {"sm_120f", 88, 0},
    {"sm_121", 88, 0}, {"sm_121a", 88, 0}, {"sm_121f", 88, 0},
#endif
#if LLVM_VERSION_MAJOR >= 22
    {"sm_88", 90, 0}, {"sm_110", 90, 0}, {"sm_110a", 90, 0}, {"sm_110f", 90, 0},
#endif
#if LLVM_VERSION_MAJOR == 19
    /* newer than this LLVM: the NVPTX backend emits sm_90 PTX and has nvJitLink / ptxas
       assemble it for the chip (forward compatible PTX); newer LLVMs emit for the chip */
    {"sm_100", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_100a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_100f", 0, GPUCOMPILE_NVPTX__FORWARD},
    {"sm_101", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_101a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_101f", 0, GPUCOMPILE_NVPTX__FORWARD},
    {"sm_103", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_103a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_103f", 0, GPUCOMPILE_NVPTX__FORWARD},
    {"sm_110", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_110a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_110f", 0, GPUCOMPILE_NVPTX__FORWARD},
    {"sm_120", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_120a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_120f", 0, GPUCOMPILE_NVPTX__FORWARD},
    {"sm_121", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_121a", 0, GPUCOMPILE_NVPTX__FORWARD}, {"sm_121f", 0, GPUCOMPILE_NVPTX__FORWARD},
#endif
    {NULL, 0, 0}};

/* The highest +ptxNN this LLVM emits: 19 has up to ptx85, 20 adds ptx86/87 (Blackwell), 21
   ptx88, 22 ptx90 (there is no ptx89). */
#if LLVM_VERSION_MAJOR >= 22
#define GPUCOMPILE_NVPTX__PTX_MAX 90
#elif LLVM_VERSION_MAJOR == 21
#define GPUCOMPILE_NVPTX__PTX_MAX 88
#elif LLVM_VERSION_MAJOR == 20
#define GPUCOMPILE_NVPTX__PTX_MAX 87
#else
#define GPUCOMPILE_NVPTX__PTX_MAX 85
#endif

/* The PTX versions (+ptxNN features) this LLVM knows. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__llvm_knows_ptx(int v) {
    if (v == 32 || (v >= 40 && v <= 43) || v == 50 || (v >= 60 && v <= 65) || (v >= 70 && v <= 78)) return 1;
    return v >= 80 && v <= GPUCOMPILE_NVPTX__PTX_MAX && v != 89;
}

/* The highest PTX version this LLVM emits. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__llvm_max_ptx(void) {
    int v = 99;
    while (v > 32 && !gpucompile_nvptx__llvm_knows_ptx(v)) v--;
    return v;
}

GPUCOMPILE_PRIVATE const gpucompile_nvptx__chip *gpucompile_nvptx__chip_of(const char *chip) {
    const gpucompile_nvptx__chip *c;
    for (c = gpucompile_nvptx__chips; c->name; c++)
        if (strcmp(chip, c->name) == 0) return c;
    return NULL;
}

GPUCOMPILE_PRIVATE int gpucompile_nvptx__chip_min_ptx(const char *chip) {
    const gpucompile_nvptx__chip *c = gpucompile_nvptx__chip_of(chip);
    return c ? c->ptx : 0;
}

/* sm_100, sm_100a, sm_100f, ...: chips the table accepts that this LLVM lacks. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__newer_chip(const char *chip) {
    const gpucompile_nvptx__chip *c = gpucompile_nvptx__chip_of(chip);
    return c && (c->bits & GPUCOMPILE_NVPTX__FORWARD);
}

/* The highest PTX version a CUDA release's ptxas / nvJitLink reads. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__cuda_ptx_max(int major, int minor) {
    if (major >= 13) return 90 + minor;
    if (major == 12) return minor <= 5 ? 80 + minor : minor == 6 ? 85 : 79 + minor; /* 12.8: 8.7, 12.9: 8.8 */
    if (major == 11) return 70 + minor;
    if (major == 10) return 63 + minor;
    if (major == 9) return 60 + minor;
    return 50;
}

/* ---- files, toolkit and tools ------------------------------------------------------- */
/* Searches $PATH for name (the core's search, .exe added on Windows); the full path in buf. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__on_path(const char *name, char *buf, size_t size) {
    return gpucompile_which(name, buf, size) && gpucompile_file_exists(buf, 'f');
}

/* The CUDA toolkit root into buf. GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND (logged) when the given
   path does not exist; when nothing is found, OK with buf empty. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__toolkit(gpucompile_job *job, char *buf, size_t size) {
    static const char *const vars[] = {"CUDA_PATH", "CUDA_HOME", "CUDA_ROOT"};
    const char *given = job->options->toolkit_path;
    char nvcc[GPUCOMPILE_NVPTX__PATH];
    size_t i;
    buf[0] = 0;
    if (given && *given) {
        if (!gpucompile_file_exists(given, 'd'))
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND,
                                       "the CUDA toolkit path '%s' does not exist", given);
        snprintf(buf, size, "%s", given);
        return GPUCOMPILE_OK;
    }
    for (i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v && gpucompile_file_exists(v, 'd')) {
            snprintf(buf, size, "%s", v);
            return GPUCOMPILE_OK;
        }
    }
    if (gpucompile_nvptx__on_path("nvcc", nvcc, sizeof nvcc)) {
        char *slash;
#if !defined(_WIN32)
        char real[PATH_MAX];
        if (realpath(nvcc, real)) snprintf(nvcc, sizeof nvcc, "%s", real);
#endif
        /* <root>/bin/nvcc -> <root> (Windows paths may use either separator) */
#if defined(_WIN32)
        for (slash = nvcc; *slash; slash++)
            if (*slash == '\\') *slash = '/';
#endif
        if ((slash = strrchr(nvcc, '/')) != NULL) *slash = 0;
        if ((slash = strrchr(nvcc, '/')) != NULL) {
            *slash = 0;
            if (gpucompile_file_exists(nvcc, 'd')) {
                snprintf(buf, size, "%s", nvcc);
                return GPUCOMPILE_OK;
            }
        }
    }
    if (gpucompile_file_exists(GPUCOMPILE_DEFAULT_CUDA_PATH, 'd')) snprintf(buf, size, "%s", GPUCOMPILE_DEFAULT_CUDA_PATH);
    return GPUCOMPILE_OK;
}

/* An executable tool: the options' path (must exist), else <toolkit>/bin/name, else $PATH. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__find_tool(gpucompile_job *job, const char *name, char *buf, size_t size) {
    const char *given = gpucompile_job_tool_path(job, name);
    char root[GPUCOMPILE_NVPTX__PATH];
    if (given) {
        snprintf(buf, size, "%s", given);
        return gpucompile_file_exists(given, 'f');
    }
    if (gpucompile_nvptx__toolkit(job, root, sizeof root) != GPUCOMPILE_OK) return 0;
    if (root[0] && (size_t)snprintf(buf, size, "%s/bin/%s%s", root, name, GPUCOMPILE_EXE_SUFFIX) < size &&
        gpucompile_file_exists(buf, 'f'))
        return 1;
    return gpucompile_nvptx__on_path(name, buf, size);
}

/* nvJitLink's few types, declared here (nvJitLink.h). */
typedef struct gpucompile_nvptx__jl_handle *gpucompile_nvptx__jl_h;
typedef struct gpucompile_nvptx__jitlink {
    int (*create)(gpucompile_nvptx__jl_h *h, uint32_t n, const char **opts);
    int (*destroy)(gpucompile_nvptx__jl_h *h);
    int (*add_data)(gpucompile_nvptx__jl_h h, int type, const void *data, size_t size, const char *name);
    int (*complete)(gpucompile_nvptx__jl_h h);
    int (*cubin_size)(gpucompile_nvptx__jl_h h, size_t *size);
    int (*cubin)(gpucompile_nvptx__jl_h h, void *out);
    int (*error_log_size)(gpucompile_nvptx__jl_h h, size_t *size);
    int (*error_log)(gpucompile_nvptx__jl_h h, char *log);
    int (*info_log_size)(gpucompile_nvptx__jl_h h, size_t *size);
    int (*info_log)(gpucompile_nvptx__jl_h h, char *log);
    int (*version)(unsigned *major, unsigned *minor);
    unsigned major, minor;
} gpucompile_nvptx__jitlink;

/* Opened libraries, by path ("" for the default search): opened once, a failure remembered. */
#define GPUCOMPILE_NVPTX__MAX_LIBS 8
typedef struct gpucompile_nvptx__lib {
    int kind;            /* 1 nvJitLink, 2 driver */
    char key[GPUCOMPILE_NVPTX__PATH];
    char path[GPUCOMPILE_NVPTX__PATH]; /* what was opened */
    int ok;
    gpucompile_nvptx__jitlink jl;
    gpucompile_nvptx__driver cu;
} gpucompile_nvptx__lib;
static gpucompile_nvptx__lib gpucompile_nvptx__libs[GPUCOMPILE_NVPTX__MAX_LIBS];
static int gpucompile_nvptx__num_libs;

GPUCOMPILE_PRIVATE int gpucompile_nvptx__load_jitlink(gpucompile_nvptx__lib *l, void *dl) {
    static const char *const names[] = {"Create", "Destroy", "AddData", "Complete", "GetLinkedCubinSize", "GetLinkedCubin",
                                        "GetErrorLogSize", "GetErrorLog", "GetInfoLogSize", "GetInfoLog"};
    void *slots[10];
    char name[96];
    size_t i;
    slots[0] = &l->jl.create; slots[1] = &l->jl.destroy; slots[2] = &l->jl.add_data; slots[3] = &l->jl.complete;
    slots[4] = &l->jl.cubin_size; slots[5] = &l->jl.cubin; slots[6] = &l->jl.error_log_size; slots[7] = &l->jl.error_log;
    slots[8] = &l->jl.info_log_size; slots[9] = &l->jl.info_log;
    if (!gpucompile_dlfn(dl, "nvJitLinkVersion", &l->jl.version) || l->jl.version(&l->jl.major, &l->jl.minor) != 0) return 0;
    for (i = 0; i < 10; i++) {
        /* The headers call versioned names (__nvJitLinkCreate_13_0); the plain ones exist too. */
        snprintf(name, sizeof name, "__nvJitLink%s_%u_0", names[i], l->jl.major);
        if (!gpucompile_dlfn(dl, name, slots[i])) {
            snprintf(name, sizeof name, "nvJitLink%s", names[i]);
            if (!gpucompile_dlfn(dl, name, slots[i])) return 0;
        }
    }
    return 1;
}

/* Opens nvJitLink (kind 1) or the driver (kind 2) once per process per path; NULL if unavailable.
   The libraries stay loaded: their handles are process-wide and cheap to keep. */
GPUCOMPILE_PRIVATE const gpucompile_nvptx__lib *gpucompile_nvptx__open(gpucompile_job *job, int kind) {
    const char *given = gpucompile_job_tool_path(job, kind == 1 ? "nvJitLink" : "libcuda");
    char root[GPUCOMPILE_NVPTX__PATH], cands[4][GPUCOMPILE_NVPTX__PATH];
    gpucompile_nvptx__lib *l = NULL;
    int i, n = 0;
    gpucompile_lock();
    for (i = 0; i < gpucompile_nvptx__num_libs; i++)
        if (gpucompile_nvptx__libs[i].kind == kind && strcmp(gpucompile_nvptx__libs[i].key, given ? given : "") == 0) {
            l = &gpucompile_nvptx__libs[i];
            gpucompile_unlock();
            return l->ok ? l : NULL;
        }
    gpucompile_unlock();
    if (given) snprintf(cands[n++], sizeof cands[0], "%s", given);
    else if (kind == 1) {
        if (gpucompile_nvptx__toolkit(job, root, sizeof root) == GPUCOMPILE_OK && root[0]) {
#if defined(_WIN32) /* CUDA 13 keeps its DLLs in bin/x64, CUDA 12 in bin; the name has the version */
            if ((size_t)snprintf(cands[n], sizeof cands[0], "%s/bin/x64/nvJitLink_130_0.dll", root) < sizeof cands[0]) n++;
            if ((size_t)snprintf(cands[n], sizeof cands[0], "%s/bin/nvJitLink_120_0.dll", root) < sizeof cands[0]) n++;
#else
            if ((size_t)snprintf(cands[n], sizeof cands[0], "%s/lib64/libnvJitLink.so", root) < sizeof cands[0]) n++;
#endif
        }
#if defined(_WIN32)
        snprintf(cands[n++], sizeof cands[0], "nvJitLink_130_0.dll");
        snprintf(cands[n++], sizeof cands[0], "nvJitLink_120_0.dll");
#else
        snprintf(cands[n++], sizeof cands[0], "libnvJitLink.so.13");
        snprintf(cands[n++], sizeof cands[0], "libnvJitLink.so.12");
        snprintf(cands[n++], sizeof cands[0], "libnvJitLink.so");
#endif
    } else {
        snprintf(cands[n++], sizeof cands[0], "%s", GPUCOMPILE_NVPTX__LIBCUDA);
    }
    gpucompile_lock();
    for (i = 0; i < gpucompile_nvptx__num_libs; i++) /* another thread may have got here first */
        if (gpucompile_nvptx__libs[i].kind == kind && strcmp(gpucompile_nvptx__libs[i].key, given ? given : "") == 0) break;
    if (i < gpucompile_nvptx__num_libs) l = &gpucompile_nvptx__libs[i];
    else if (gpucompile_nvptx__num_libs < GPUCOMPILE_NVPTX__MAX_LIBS) {
        l = &gpucompile_nvptx__libs[gpucompile_nvptx__num_libs++];
        memset(l, 0, sizeof *l);
        l->kind = kind;
        snprintf(l->key, sizeof l->key, "%s", given ? given : "");
        for (i = 0; i < n && !l->ok; i++) {
            void *dl = gpucompile_dlopen(cands[i]);
            if (!dl) continue;
            l->ok = kind == 1 ? gpucompile_nvptx__load_jitlink(l, dl) : !gpucompile_nvptx__cu_load(dl, &l->cu, 'C');
            if (l->ok) memcpy(l->path, cands[i], sizeof l->path);
            else {
                memset(&l->jl, 0, sizeof l->jl);
                memset(&l->cu, 0, sizeof l->cu);
            }
        }
    }
    gpucompile_unlock();
    return l && l->ok ? l : NULL;
}

/* ---- the toolchain's PTX limit --------------------------------------------------------- */
/* `ptxas --version` once per process per path: "release 13.0" -> major, minor. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__ptxas_version(gpucompile_job *job, const char *ptxas, int *major, int *minor) {
    static struct { char path[GPUCOMPILE_NVPTX__PATH]; int major, minor; } cache[8];
    static int num;
    const char *argv[3];
    char *out = NULL;
    const char *rel;
    int i, st = -1, ok = 0;
    gpucompile_lock();
    for (i = 0; i < num; i++)
        if (strcmp(cache[i].path, ptxas) == 0) {
            *major = cache[i].major;
            *minor = cache[i].minor;
            gpucompile_unlock();
            return *major > 0;
        }
    gpucompile_unlock();
    argv[0] = ptxas;
    argv[1] = "--version";
    argv[2] = NULL;
    *major = *minor = 0;
    if (gpucompile_job_run_tool(job, argv, job->options->tool_timeout_s < 30.0 ? job->options->tool_timeout_s : 30.0,
                                &st, &out, NULL) == GPUCOMPILE_OK && st == 0 && out &&
        (rel = strstr(out, "release ")) != NULL)
        ok = sscanf(rel + 8, "%d.%d", major, minor) == 2;
    gpucompile_job_free(job, out);
    if (!ok) *major = *minor = 0;
    gpucompile_lock();
    if (num < 8) {
        snprintf(cache[num].path, sizeof cache[num].path, "%s", ptxas);
        cache[num].major = *major;
        cache[num].minor = *minor;
        num++;
    }
    gpucompile_unlock();
    return ok;
}

/* The highest PTX version the cubin makers that may run read (without bin_method both nvJitLink
   and ptxas may: the size of the PTX picks the first, the other is the fallback), and the name of
   the one that reads least; 0 when unknown. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__tool_ptx_max(gpucompile_job *job, char *what, size_t size) {
    const char *m = job->options->bin_method;
    char ptxas[GPUCOMPILE_NVPTX__PATH];
    int major, minor, cap = 0, v;
    if (!m || !*m || strcmp(m, "nvjitlink") == 0) {
        const gpucompile_nvptx__lib *l = gpucompile_nvptx__open(job, 1);
        if (l) {
            snprintf(what, size, "nvJitLink %u.%u", l->jl.major, l->jl.minor);
            cap = gpucompile_nvptx__cuda_ptx_max((int)l->jl.major, (int)l->jl.minor);
        }
    }
    if ((!m || !*m || strcmp(m, "ptxas") == 0) && gpucompile_nvptx__find_tool(job, "ptxas", ptxas, sizeof ptxas) &&
        gpucompile_nvptx__ptxas_version(job, ptxas, &major, &minor) && (v = gpucompile_nvptx__cuda_ptx_max(major, minor)) &&
        (!cap || v < cap)) {
        snprintf(what, size, "ptxas %d.%d", major, minor);
        cap = v;
    }
    return cap;
}

/* nvJitLink's result codes by name (nvJitLink.h's order). */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__jl_name(int rc) {
    static const char *const names[] = {
        "NVJITLINK_SUCCESS", "NVJITLINK_ERROR_UNRECOGNIZED_OPTION", "NVJITLINK_ERROR_MISSING_ARCH",
        "NVJITLINK_ERROR_INVALID_INPUT", "NVJITLINK_ERROR_PTX_COMPILE", "NVJITLINK_ERROR_NVVM_COMPILE",
        "NVJITLINK_ERROR_INTERNAL", "NVJITLINK_ERROR_THREADPOOL", "NVJITLINK_ERROR_UNRECOGNIZED_INPUT",
        "NVJITLINK_ERROR_FINALIZE", "NVJITLINK_ERROR_NULL_INPUT", "NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS",
        "NVJITLINK_ERROR_INCORRECT_INPUT_TYPE", "NVJITLINK_ERROR_ARCH_MISMATCH", "NVJITLINK_ERROR_OUTDATED_LIBRARY",
        "NVJITLINK_ERROR_MISSING_FATBIN", "NVJITLINK_ERROR_UNRECOGNIZED_ARCH", "NVJITLINK_ERROR_UNSUPPORTED_ARCH",
        "NVJITLINK_ERROR_LTO_NOT_ENABLED"};
    return rc >= 0 && rc < (int)(sizeof names / sizeof names[0]) ? names[rc] : "an nvJitLink error unknown here";
}

/* ---- the toolkit's chips ---------------------------------------------------------------- */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__chip_cmp(const void *a, const void *b) {
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    int d = atoi(x + 3) - atoi(y + 3);
    return d ? d : strcmp(x, y);
}

/* ptxas --help's gpu-name values that are chips ("sm_75, sm_80, ..."), once per process per
   path; 0 when it does not say. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__ptxas_chips(gpucompile_job *job, const char *ptxas, char *list, size_t size) {
    static struct { char path[GPUCOMPILE_NVPTX__PATH], list[1024]; } cache[8];
    static int num;
    const char *argv[3], *names[128];
    char *out = NULL, *p, *end;
    int i, n = 0, st = -1;
    gpucompile_lock();
    for (i = 0; i < num; i++)
        if (strcmp(cache[i].path, ptxas) == 0) {
            snprintf(list, size, "%s", cache[i].list);
            gpucompile_unlock();
            return list[0] != 0;
        }
    gpucompile_unlock();
    argv[0] = ptxas;
    argv[1] = "--help";
    argv[2] = NULL;
    list[0] = 0;
    if (gpucompile_job_run_tool(job, argv, job->options->tool_timeout_s < 30.0 ? job->options->tool_timeout_s : 30.0,
                                &st, &out, NULL) == GPUCOMPILE_OK && st == 0 && out &&
        (p = strstr(out, "--gpu-name")) != NULL && (p = strstr(p, "Allowed values for this option:")) != NULL) {
        if ((end = strstr(p, "Default value")) != NULL) *end = 0;
        for (; (p = strstr(p, "'sm_")) != NULL && n < 128; p = end) {
            names[n++] = ++p;
            if (!(end = strchr(p, '\''))) break;
            *end++ = 0;
        }
        qsort((void *)names, (size_t)n, sizeof names[0], gpucompile_nvptx__chip_cmp);
        for (i = 0; i < n; i++) {
            size_t at = strlen(list);
            snprintf(list + at, size - at, "%s%s", i ? ", " : "", names[i]);
        }
    }
    gpucompile_job_free(job, out);
    gpucompile_lock();
    if (num < 8) {
        snprintf(cache[num].path, sizeof cache[num].path, "%s", ptxas);
        snprintf(cache[num].list, sizeof cache[num].list, "%s", list);
        num++;
    }
    gpucompile_unlock();
    return list[0] != 0;
}

/* Before any codegen for a cubin or fatbin: does the installed toolkit take the chip? (CUDA 13
   starts at sm_75, MLIR's default is sm_50.) nvJitLink is asked with a handle it makes and
   drops, ptxas by its list of gpu-name values. The driver, a GPU's own, is not asked. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__toolkit_chip(gpucompile_job *job, const char *chip) {
    const char *m = job->options->bin_method;
    char ptxas[GPUCOMPILE_NVPTX__PATH], list[1024], arch[64], jl[128] = "";
    int asked = 0;
    if (m && strcmp(m, "driver") == 0) return GPUCOMPILE_OK;
    list[0] = 0;
    if (!m || strcmp(m, "nvjitlink") == 0) {
        static struct { const gpucompile_nvptx__lib *lib; char chip[32]; int rc; } seen[32]; /* once per process */
        static int num_seen;
        const gpucompile_nvptx__lib *l = gpucompile_nvptx__open(job, 1);
        if (l) {
            gpucompile_nvptx__jl_h h = NULL;
            const char *opt = arch;
            int rc = -1, i;
            gpucompile_lock();
            for (i = 0; i < num_seen; i++)
                if (seen[i].lib == l && strcmp(seen[i].chip, chip) == 0) rc = seen[i].rc;
            gpucompile_unlock();
            if (rc < 0) {
                snprintf(arch, sizeof arch, "-arch=%s", chip);
                if ((rc = l->jl.create(&h, 1, &opt)) == 0) l->jl.destroy(&h);
                gpucompile_lock();
                if (num_seen < 32 && strlen(chip) < sizeof seen[0].chip) {
                    seen[num_seen].lib = l;
                    strcpy(seen[num_seen].chip, chip);
                    seen[num_seen++].rc = rc;
                }
                gpucompile_unlock();
            }
            if (rc == 0) return GPUCOMPILE_OK;
            snprintf(jl, sizeof jl, "nvJitLink %u.%u: %s", l->jl.major, l->jl.minor, gpucompile_nvptx__jl_name(rc));
            asked = 1;
        }
    }
    if ((!m || strcmp(m, "ptxas") == 0) && gpucompile_nvptx__find_tool(job, "ptxas", ptxas, sizeof ptxas) &&
        gpucompile_nvptx__ptxas_chips(job, ptxas, list, sizeof list)) {
        size_t n = strlen(chip);
        const char *p;
        for (p = list; (p = strstr(p, chip)) != NULL; p += n)
            if ((p == list || p[-1] == ' ') && (p[n] == ',' || p[n] == 0)) return GPUCOMPILE_OK;
        asked = 1;
    }
    if (!asked) return GPUCOMPILE_OK; /* nothing to ask: the cubin step says what is missing */
    return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED,
                               "the installed CUDA toolkit cannot make a %s for %s (%s%s%s%s); choose a chip it takes with "
                               "-t '#gpu.nvptx<chip = \"%.*s\">' (the target's chip), or -f isa for PTX only",
                               job->format == GPUCOMPILE_FORMAT_FATBIN ? "fatbin" : "cubin", chip, jl, jl[0] && list[0] ? "; " : "",
                               list[0] ? "ptxas takes " : "", list, list[0] ? (int)strcspn(list, ",") : 5, list[0] ? list : "sm_NN");
}

/* ---- configure: chip and PTX version before the target machine exists ------------------ */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__bad_features(gpucompile_job *job, const char *item, const char *why) {
    return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "'%s' in features \"%s\": %s", item, job->features, why);
}

/* The highest +ptxNN in the functions' "target-features" (clang writes there the PTX version
   its CUDA headers and inline asm need: "+ptx85,+sm_80"), and a function that asks for it. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__module_ptx(gpucompile_job *job, const char **who) {
    LLVMValueRef fn;
    int best = 0;
    *who = NULL;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-features", 15);
        unsigned len = 0;
        const char *f = a ? LLVMGetStringAttributeValue(a, &len) : NULL, *p = f;
        while (p && p < f + len) {
            size_t n = (size_t)(f + len - p), i;
            for (i = 0; i < n && p[i] != ','; i++) {}
            if (i == 6 && memcmp(p, "+ptx", 4) == 0 && p[4] >= '0' && p[4] <= '9' && p[5] >= '0' && p[5] <= '9' &&
                (p[4] - '0') * 10 + (p[5] - '0') > best) {
                best = (p[4] - '0') * 10 + (p[5] - '0');
                *who = gpucompile_value_name(fn);
            }
            p += i + 1;
        }
    }
    return best;
}

/* PTX version = max(the chip's minimum, the target's +ptxNN, the module's highest +ptxNN), where
   the module's ask is capped at what this LLVM emits and the toolchain reads (the code may then
   still need more: ptxas says so). A target that pins a +ptxNN below what a function asks for
   is an error: the code cannot be compiled at the version the user chose. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__choose_ptx(gpucompile_job *job, int min, int requested, int *chosen) {
    gpucompile_target d = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    const char *chip = job->cpu, *who;
    int pinned = requested && strcmp(gpucompile_target_features(job->target), gpucompile_target_features(&d)) != 0;
    int asked = gpucompile_nvptx__module_ptx(job, &who), llvm_max = gpucompile_nvptx__llvm_max_ptx(), cap = 0, use = asked;
    int base = requested > min ? requested : min;
    char what[64] = "", limit[160], mod[160], tgt[48];
    if (job->format == GPUCOMPILE_FORMAT_BIN || job->format == GPUCOMPILE_FORMAT_FATBIN)
        cap = gpucompile_nvptx__tool_ptx_max(job, what, sizeof what);
    snprintf(limit, sizeof limit, "LLVM %d emits up to %d.%d", LLVM_VERSION_MAJOR, llvm_max / 10, llvm_max % 10);
    if (use > llvm_max) use = llvm_max;
    if (cap && use > cap) {
        use = cap;
        snprintf(limit, sizeof limit, "%s reads up to %d.%d", what, cap / 10, cap % 10);
    }
    if (use < asked)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                           "function '%s' asks for PTX %d.%d (+ptx%d), but %s: PTX %d.%d is tried", who, asked / 10, asked % 10,
                           asked, limit, use / 10, use % 10);
    if (pinned && use > base && job->target->no_verify_target) /* verifyTarget = false: the pinned version stands */
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                           "function '%s' asks for PTX %d.%d (+ptx%d), but the target's features \"%s\" pin PTX %d.%d "
                           "(verifyTarget = false: PTX %d.%d is kept)", who, use / 10, use % 10, use, job->features,
                           base / 10, base % 10, base / 10, base % 10);
    else if (pinned && use > base)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                   "function '%s' asks for PTX %d.%d (+ptx%d), but the target's features \"%s\" pin PTX %d.%d: "
                                   "raise the target's +ptxNN or leave it out", who, use / 10, use % 10, use, job->features,
                                   base / 10, base % 10);
    *chosen = use > base && !(pinned && job->target->no_verify_target) ? use : base;
    if (cap && *chosen > cap)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED,
                                   "PTX %d.%d (%s %s) is newer than the installed %s reads (at most PTX %d.%d)", *chosen / 10, *chosen % 10,
                                   requested == *chosen ? "asked for by" : "the minimum for", requested == *chosen ? job->features : chip,
                                   what, cap / 10, cap % 10);
    if (asked) snprintf(mod, sizeof mod, "+ptx%d (function '%s')", asked, who);
    else snprintf(mod, sizeof mod, "none");
    if (requested) snprintf(tgt, sizeof tgt, "+ptx%d%s", requested, pinned ? "" : " (the default)");
    else snprintf(tgt, sizeof tgt, "none");
    snprintf(limit, sizeof limit, "LLVM %d emits up to %d.%d", LLVM_VERSION_MAJOR, llvm_max / 10, llvm_max % 10);
    if (cap) snprintf(limit + strlen(limit), sizeof limit - strlen(limit), ", %s reads up to %d.%d", what, cap / 10, cap % 10);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL,
                       "PTX %d.%d for %s: the highest of the chip's minimum %d.%d, the target's %s and the module's %s (%s)",
                       *chosen / 10, *chosen % 10, chip, min / 10, min % 10, tgt, mod, limit);
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__configure(gpucompile_job *job) {
    const char *chip = job->cpu, *p = job->features;
    gpucompile_buf out;
    char root[GPUCOMPILE_NVPTX__PATH];
    int requested = 0, min, chosen = 0;
    gpucompile_result r;
    if ((r = gpucompile_nvptx__toolkit(job, root, sizeof root)) != GPUCOMPILE_OK) return r;
    min = gpucompile_nvptx__chip_min_ptx(chip);
    if (!min && gpucompile_nvptx__newer_chip(chip)) min = gpucompile_nvptx__chip_min_ptx("sm_90");
    if (!min)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                   "'%s' is not an NVPTX chip LLVM %d compiles for", chip, LLVM_VERSION_MAJOR);
    /* Take the PTX version out of the features; keep the others as they are. */
    memset(&out, 0, sizeof out);
    out.a = &job->options->allocator;
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char item[64];
        const char *s;
        while (n && (*p == ' ' || *p == '\t')) { p++; n--; }
        while (n && (p[n - 1] == ' ' || p[n - 1] == '\t')) n--;
        snprintf(item, sizeof item, "%.*s", (int)(n < 63 ? n : 63), p);
        s = (item[0] == '+' || item[0] == '-') ? item + 1 : item;
        if (strncmp(s, "ptx", 3) == 0) {
            int v = 0, digits = 0;
            const char *d;
            for (d = s + 3; *d >= '0' && *d <= '9' && digits < 4; d++, digits++) v = v * 10 + (*d - '0');
            if (*d || digits != 2) r = gpucompile_nvptx__bad_features(job, item, "not a PTX version (+ptxNN, e.g. +ptx78)");
            else if (item[0] != '+') r = gpucompile_nvptx__bad_features(job, item, "a PTX version is chosen with '+ptxNN' (LLVM ignores it otherwise)");
            else if (requested) r = gpucompile_nvptx__bad_features(job, item, "more than one PTX version");
            else if (!gpucompile_nvptx__llvm_knows_ptx(v)) {
                r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                        "PTX version %d.%d ('%s') is not one LLVM %d can emit (the highest is +ptx%d)", v / 10, v % 10,
                                        item, LLVM_VERSION_MAJOR, GPUCOMPILE_NVPTX__PTX_MAX);
            } else requested = v;
        } else if (n && ((item[0] != '+' && item[0] != '-') || !gpucompile_nvptx__chip_min_ptx(s))) {
            /* LLVM's NVPTX features are ptxNN and sm_NN; it would print others on stderr and go on */
            r = gpucompile_nvptx__bad_features(job, item, "not an NVPTX feature LLVM knows (+ptxNN, +sm_NN)");
        } else if (n) {
            if (out.len) gpucompile_buf_str(&out, ",");
            gpucompile_buf_add(&out, p, n);
        }
        if (r != GPUCOMPILE_OK) break;
        p = e ? e + 1 : NULL;
    }
    if (r != GPUCOMPILE_OK || out.oom) {
        gpucompile_free(out.a, out.data);
        return r != GPUCOMPILE_OK ? r : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    if ((r = gpucompile_nvptx__choose_ptx(job, min, requested, &chosen)) != GPUCOMPILE_OK ||
        ((job->format == GPUCOMPILE_FORMAT_BIN || job->format == GPUCOMPILE_FORMAT_FATBIN) && !job->target->no_verify_target &&
         (r = gpucompile_nvptx__toolkit_chip(job, gpucompile_target_chip(job->target))) != GPUCOMPILE_OK)) {
        gpucompile_free(out.a, out.data);
        return r;
    }
    gpucompile_buf_printf(&out, "%s+ptx%d", out.len ? "," : "", chosen);
    if (out.oom) {
        gpucompile_free(out.a, out.data);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    gpucompile_job_free(job, job->features);
    job->features = out.data;
    if (gpucompile_nvptx__newer_chip(chip)) {
        char *cpu = gpucompile_job_strdup(job, "sm_90");
        if (!cpu) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL,
                           "LLVM %d lacks %s: PTX for sm_90, assembled for %s", LLVM_VERSION_MAJOR, chip, chip);
        gpucompile_job_free(job, job->cpu);
        job->cpu = cpu;
    }
    return GPUCOMPILE_OK;
}

/* ---- prepare, libraries, post-link ------------------------------------------------------ */
/* The function attributes for ftz / fast on every defined function. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__fn_attributes(gpucompile_job *job) {
    static const char *const fast[] = {
#if LLVM_VERSION_MAJOR < 22 /* LLVM 22 no longer reads "unsafe-fp-math": the instructions' fast-math flags say it */
        "unsafe-fp-math",
#endif
        "no-infs-fp-math", "no-nans-fp-math", "no-signed-zeros-fp-math", "approx-func-fp-math"};
    int ftz = gpucompile_target_ftz(job->target), fm = gpucompile_target_fast(job->target);
    LLVMValueRef fn;
    size_t i;
    if (!ftz && !fm) return;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn)) continue;
        if (ftz) {
            static const char k[] = "denormal-fp-math-f32", v[] = "preserve-sign,preserve-sign";
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(job->context, k, sizeof k - 1, v, sizeof v - 1));
        }
        for (i = 0; fm && i < sizeof fast / sizeof fast[0]; i++)
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(job->context, fast[i], (unsigned)strlen(fast[i]), "true", 4));
    }
}

/* `fast` calls libdevice's approximate functions, as nvcc's -use_fast_math does (sinf -> __sinf).
   tanhf only from LLVM 22: the CUDA 13 __nv_fast_tanhf uses llvm.nvvm.tanh.approx.f32, which
   LLVM 19 does not know (its PTX then calls an undefined function). */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__fast_libdevice(gpucompile_job *job) {
    static const char *const names[] = {"sinf", "cosf", "tanf", "expf", "exp10f", "logf", "log2f", "log10f", "powf", "sincosf",
#if LLVM_VERSION_MAJOR >= 22
                                        "tanhf"
#endif
    };
    char slow[32], fast[32];
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        LLVMValueRef f, g;
        snprintf(slow, sizeof slow, "__nv_%s", names[i]);
        snprintf(fast, sizeof fast, "__nv_fast_%s", names[i]);
        if (!(f = LLVMGetNamedFunction(job->module, slow)) || !LLVMIsDeclaration(f)) continue;
        if (!(g = LLVMGetNamedFunction(job->module, fast))) g = LLVMAddFunction(job->module, fast, LLVMGlobalGetValueType(f));
        if (LLVMGlobalGetValueType(g) != LLVMGlobalGetValueType(f)) continue;
        LLVMReplaceAllUsesWith(f, g);
        LLVMDeleteFunction(f);
    }
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__prepare(gpucompile_job *job) {
    LLVMValueRef fn, inst;
    LLVMBasicBlockRef bb;
    if (gpucompile_target_ftz(job->target)) gpucompile_job_set_module_flag(job, LLVMModuleFlagBehaviorOverride, "nvvm-reflect-ftz", 1);
    if (gpucompile_target_fast(job->target)) {
        gpucompile_nvptx__fast_libdevice(job);
        for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn))
            for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
                for (inst = LLVMGetFirstInstruction(bb); inst; inst = LLVMGetNextInstruction(inst))
                    if (LLVMCanValueUseFastMathFlags(inst)) LLVMSetFastMathFlags(inst, LLVMFastMathAll);
    }
    gpucompile_nvptx__fn_attributes(job);
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__libraries(gpucompile_job *job) {
    char root[GPUCOMPILE_NVPTX__PATH], path[GPUCOMPILE_NVPTX__PATH + 64];
    gpucompile_result r;
    if (!gpucompile_job_references(job, "__nv_")) return GPUCOMPILE_OK;
    if ((r = gpucompile_nvptx__toolkit(job, root, sizeof root)) != GPUCOMPILE_OK) return r;
    if (!root[0])
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND,
                                   "the module calls libdevice (__nv_*) but no CUDA toolkit was found "
                                   "(set the toolkit path, CUDA_PATH or CUDA_HOME)");
    snprintf(path, sizeof path, "%s/nvvm/libdevice/libdevice.10.bc", root);
    if (!gpucompile_file_exists(path, 'f'))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND,
                                   "the module calls libdevice (__nv_*) but '%s' does not exist", path);
    return gpucompile_job_add_library(job, path);
}

/* Is v the address of a constant string equal to s (the argument of __nvvm_reflect)? */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__is_string(LLVMValueRef v, const char *s) {
    LLVMValueRef init;
    const char *str;
    size_t len = 0;
    while (v && LLVMIsAConstantExpr(v) && LLVMGetNumOperands(v) > 0) v = LLVMGetOperand(v, 0);
    if (!v || !LLVMIsAGlobalVariable(v) || !(init = LLVMGetInitializer(v)) || !LLVMIsAConstantDataSequential(init)) return 0;
    str = LLVMGetAsString(init, &len);
    return str && strlen(s) + 1 == len && memcmp(str, s, len) == 0;
}

/* LLVM 19's NVVMReflect knows __CUDA_FTZ and __CUDA_ARCH only: answer __CUDA_PREC_SQRT here
   (1 = sqrt.rn, CUDA's default; 0 = sqrt.approx with `fast`). */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__reflect_prec_sqrt(gpucompile_job *job) {
    LLVMValueRef reflect = LLVMGetNamedFunction(job->module, "__nvvm_reflect");
    LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(job->context), gpucompile_target_fast(job->target) ? 0 : 1, 0);
    LLVMUseRef u;
    if (!reflect) return;
    for (u = LLVMGetFirstUse(reflect); u;) {
        LLVMValueRef call = LLVMGetUser(u);
        u = LLVMGetNextUse(u);
        if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != reflect || LLVMGetNumArgOperands(call) != 1 ||
            !gpucompile_nvptx__is_string(LLVMGetOperand(call, 0), "__CUDA_PREC_SQRT"))
            continue;
        LLVMReplaceAllUsesWith(call, one);
        LLVMInstructionEraseFromParent(call);
    }
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__post_link(gpucompile_job *job) {
    gpucompile_nvptx__fn_attributes(job); /* again: libdevice came after prepare */
    gpucompile_nvptx__reflect_prec_sqrt(job);
    return GPUCOMPILE_OK;
}

/* ---- PTX text -------------------------------------------------------------------------- */
/* The emitted PTX, NUL-terminated, with ", debug" taken out of .target unless debugging. */
GPUCOMPILE_PRIVATE char *gpucompile_nvptx__ptx(gpucompile_job *job, size_t *size) {
    size_t n = LLVMGetBufferSize(job->emitted);
    char *ptx = (char *)gpucompile_job_alloc(job, n + 1), *t, *eol, *d;
    if (!ptx) return NULL;
    memcpy(ptx, LLVMGetBufferStart(job->emitted), n);
    ptx[n] = 0;
    if (!job->options->debug && (t = strstr(ptx, "\n.target ")) != NULL) {
        eol = strchr(t + 1, '\n');
        d = strstr(t, ", debug");
        if (d && (!eol || d < eol)) {
            memmove(d, d + 7, n - (size_t)(d + 7 - ptx) + 1);
            n -= 7;
        }
    }
    *size = n;
    return ptx;
}

/* The chip's number for tools: sm_90a -> "90a". */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__sm(const char *chip) { return strncmp(chip, "sm_", 3) == 0 ? chip + 3 : chip; }

/* ---- one PTX module from partitions -------------------------------------------------------- */
/* Code generated in N partitions gives N PTX modules: each keeps its own copies of the internal
   functions and variables its kernels reach and declares what another partition defines
   (.extern). ptxas, fatbinary and format isa take one module: one header; the declarations,
   then the variables, then the function definitions, each in partition order; one forward
   declaration per function, with its definition's linkage (ptxas refuses a definition after an
   .extern one); an internal symbol that an earlier partition has too is dropped when its text
   is the same (after renaming), else renamed NAME_$pK; a weak definition is kept once. */
typedef struct gpucompile_nvptx__item {
    const char *s, *rest, *name; /* the text [s, s + len); after its linkage word; its symbol (NULL: none) */
    size_t len, name_len;
    int part, next, target;      /* next: the next item of the same name; target: the one it duplicates */
    char kind, def, link, fate;  /* kind 'f' function, 'v' variable, 'o' other; link 'x' extern, 'v' visible,
                                    'w' weak, 'l' internal; fate 0 kept, 'd' dropped, 'r' renamed */
    char *renamed;
} gpucompile_nvptx__item;

/* One join's state: what the stages of gpucompile_nvptx__join_ptx hand on. */
typedef struct gpucompile_nvptx__ptxs {
    gpucompile_job *job;
    int parts;                     /* how many partitions */
    gpucompile_nvptx__item *items;
    int num, cap, *slots, **files, *num_files; /* files[part][N]: the joined number of its .file N */
    size_t num_slots;
    int callseq, prototype, prototype_out; /* the call sequences and prototypes written so far */
    long prototype_in;
    const char *body;              /* partition 0's text after its header */
    gpucompile_buf out, x, y;      /* the joined module; two items' texts compared */
} gpucompile_nvptx__ptxs;

GPUCOMPILE_PRIVATE int gpucompile_nvptx__idchar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '%' || c == '.';
}

/* The slot of a name in the table (open addressing, FNV-1a). */
GPUCOMPILE_PRIVATE int *gpucompile_nvptx__slot(gpucompile_nvptx__ptxs *j, const char *s, size_t n) {
    uint32_t h = 2166136261u;
    size_t i, k;
    for (i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 16777619u;
    for (k = h & (j->num_slots - 1);; k = (k + 1) & (j->num_slots - 1)) {
        int *slot = &j->slots[k];
        if (*slot < 0 || (j->items[*slot].name_len == n && memcmp(j->items[*slot].name, s, n) == 0)) return slot;
    }
}

/* After a directive word at p, the symbol: a function's name (after its return parameters), a
   variable's first word that is not a directive or a number. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__symbol(gpucompile_nvptx__item *it, const char *p, const char *e) {
    int depth = 0;
    while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
    if (it->kind == 'f' && p < e && *p == '(') {
        for (; p < e; p++)
            if (*p == '(') depth++;
            else if (*p == ')' && --depth == 0) break;
        p++;
    }
    for (;;) {
        const char *q;
        while (p < e && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
        for (q = p; q < e && gpucompile_nvptx__idchar(*q); q++) {}
        if (q == p) return;
        if (it->kind == 'f' || (*p != '.' && !(*p >= '0' && *p <= '9'))) {
            it->name = p;
            it->name_len = (size_t)(q - p);
            return;
        }
        for (p = q; p < e && *p == '('; p++) /* .attribute(.managed) */
            while (p < e && *p != ')') p++;
    }
}

/* The top-level statements of one partition's PTX after its header. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__items(gpucompile_job *job, gpucompile_nvptx__ptxs *j, int part,
                                                             const char *s, const char *e) {
    while (s < e) {
        gpucompile_nvptx__item *it;
        const char *p = s, *w;
        int paren = 0, brace = 0, done = 0;
        size_t n;
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') { s++; continue; }
        if (s + 1 < e && s[0] == '/' && s[1] == '/') {
            while (s < e && *s != '\n') s++;
            continue;
        }
        if (e - s > 6 && memcmp(s, ".file", 5) == 0 && (s[5] == ' ' || s[5] == '\t')) /* one line */
            for (done = 1; p < e && *p != '\n'; p++) {}
        for (; p < e && !done; p++) {
            if (p + 1 < e && p[0] == '/' && p[1] == '/') {
                while (p + 1 < e && p[1] != '\n') p++;
            } else if (p + 1 < e && p[0] == '/' && p[1] == '*') {
                for (p += 2; p + 1 < e && !(p[0] == '*' && p[1] == '/'); p++) {}
                p++;
            } else if (*p == '(') paren++;
            else if (*p == ')') paren--;
            else if (*p == '{') brace++;
            else if (*p == '}' && --brace == 0 && paren == 0) { /* a body ends here; an initializer goes on to ';' */
                for (w = p + 1; w < e && (*w == ' ' || *w == '\t' || *w == '\n' || *w == '\r'); w++) {}
                done = w >= e || *w != ';';
            } else if (*p == ';' && brace == 0 && paren == 0) done = 1;
        }
        if (!done)
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LINK, "partition %d's PTX ends inside a statement", part);
        if (j->num == j->cap) {
            int cap = j->cap ? 2 * j->cap : 256;
            gpucompile_nvptx__item *d = (gpucompile_nvptx__item *)gpucompile_job_alloc(job, (size_t)cap * sizeof *d);
            if (!d) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
            if (j->num) memcpy(d, j->items, (size_t)j->num * sizeof *d);
            gpucompile_job_free(job, j->items);
            j->items = d;
            j->cap = cap;
        }
        it = &j->items[j->num++];
        memset(it, 0, sizeof *it);
        it->s = s;
        it->len = (size_t)(p - s);
        it->part = part;
        it->next = it->target = -1;
        it->link = 'l';
        it->rest = s;
        for (w = s; w < p && gpucompile_nvptx__idchar(*w); w++) {}
        n = (size_t)(w - s);
        if ((n == 7 && memcmp(s, ".extern", 7) == 0) || (n == 8 && memcmp(s, ".visible", 8) == 0) ||
            (n == 5 && memcmp(s, ".weak", 5) == 0) || (n == 7 && memcmp(s, ".common", 7) == 0)) {
            it->link = s[1] == 'e' ? 'x' : s[1] == 'v' ? 'v' : 'w';
            for (it->rest = w; it->rest < p && (*it->rest == ' ' || *it->rest == '\t'); it->rest++) {}
            for (w = it->rest; w < p && gpucompile_nvptx__idchar(*w); w++) {}
            n = (size_t)(w - it->rest);
        }
        if ((n == 5 && memcmp(it->rest, ".func", 5) == 0) || (n == 6 && memcmp(it->rest, ".entry", 6) == 0)) {
            it->kind = 'f';
            it->def = memchr(s, '{', it->len) != NULL;
        } else if ((n == 7 && memcmp(it->rest, ".global", 7) == 0) || (n == 7 && memcmp(it->rest, ".shared", 7) == 0) ||
                   (n == 6 && memcmp(it->rest, ".const", 6) == 0)) {
            it->kind = 'v';
            it->def = it->link != 'x';
        } else {
            it->kind = n == 5 && memcmp(it->rest, ".file", 5) == 0 ? 'F' : n == 8 && memcmp(it->rest, ".section", 8) == 0 ? 'S' : 'o';
        }
        if (it->kind != 'o') gpucompile_nvptx__symbol(it, w, p);
        s = p;
    }
    return GPUCOMPILE_OK;
}

/* Item k's text, with its partition's renamed symbols. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__render(gpucompile_nvptx__ptxs *j, int k, const char *from, gpucompile_buf *b) {
    const gpucompile_nvptx__item *it = &j->items[k];
    const char *p = from, *run = from, *e = it->s + it->len;
    while (p < e) {
        const char *q = p;
        int i;
        if (*p == '/' && p + 1 < e && p[1] == '/') { /* a comment; "// callseq N" numbered in order */
            for (q = p + 2; q < e && (*q == ' ' || *q == '\t'); q++) {}
            if (e - q > 8 && memcmp(q, "callseq ", 8) == 0) {
                gpucompile_buf_add(b, run, (size_t)(q + 8 - run));
                for (run = q += 8; run < e && *run >= '0' && *run <= '9'; run++) {}
                if (run < e && *run == ',') j->callseq++; /* "{ // callseq N, 0" opens, "} // callseq N" closes */
                gpucompile_buf_printf(b, "%d", j->callseq);
            }
            for (p = q; p < e && *p != '\n'; p++) {}
            continue;
        }
        if (!gpucompile_nvptx__idchar(*p)) {
            p++;
            continue;
        }
        if (*p == '.' || *p == '%') { /* directives and registers are no symbols */
            for (q++; q < e && gpucompile_nvptx__idchar(*q); q++) {}
            if (q - p == 4 && memcmp(p, ".loc", 4) == 0 && j->files) { /* .loc FILE LINE COLUMN: the joined file */
                long f;
                for (; q < e && (*q == ' ' || *q == '\t'); q++) {}
                gpucompile_buf_add(b, run, (size_t)(q - run));
                for (f = 0; q < e && *q >= '0' && *q <= '9'; q++) f = f < 100000000 ? f * 10 + (*q - '0') : f;
                gpucompile_buf_printf(b, "%d", f < j->num_files[it->part] ? j->files[it->part][f] : 0);
                run = q;
            }
            p = q;
            continue;
        }
        for (; q < e && gpucompile_nvptx__idchar(*q); q++) {}
        if (q - p > 10 && memcmp(p, "prototype_", 10) == 0 && strspn(p + 10, "0123456789") == (size_t)(q - p - 10)) {
            /* call prototypes numbered in order: LLVM 19 counts them per process, across threads */
            const char *c = q;
            long num = strtol(p + 10, NULL, 10);
            for (; c < e && (*c == ' ' || *c == '\t'); c++) {}
            if (c < e && *c == ':') j->prototype_in = num, j->prototype_out = ++j->prototype;
            gpucompile_buf_add(b, run, (size_t)(p + 10 - run));
            gpucompile_buf_printf(b, "%ld", num == j->prototype_in ? (long)j->prototype_out : num);
            run = p = q;
            continue;
        }
        for (i = *gpucompile_nvptx__slot(j, p, (size_t)(q - p)); i >= 0 && !(j->items[i].part == it->part && j->items[i].renamed); i = j->items[i].next) {}
        if (i >= 0) {
            gpucompile_buf_add(b, run, (size_t)(p - run));
            gpucompile_buf_str(b, j->items[i].renamed);
            run = q;
        }
        p = q;
    }
    gpucompile_buf_add(b, run, (size_t)(e - run));
}

/* Skips white space and comments at *i: 1 if there were any. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__gap(const char *s, size_t *i, size_t n) {
    size_t from = *i;
    while (*i < n) {
        if (s[*i] == ' ' || s[*i] == '\t' || s[*i] == '\n' || s[*i] == '\r') ++*i;
        else if (s[*i] == '/' && *i + 1 < n && s[*i + 1] == '/')
            while (*i < n && s[*i] != '\n') ++*i;
        else break;
    }
    return *i > from;
}

/* Two texts the same but for comments and the numbers of labels ($L__BB12_3), local depots and
   call prototypes: LLVM counts those per module ("// callseq 156" too). */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__same(const char *a, size_t na, const char *b, size_t nb) {
    size_t i = 0, k = 0;
    while (i < na && k < nb) {
        if (gpucompile_nvptx__gap(a, &i, na) != gpucompile_nvptx__gap(b, &k, nb)) return 0;
        if (i == na || k == nb) break;
        if (a[i] != b[k]) return 0;
        if ((i == 0 || !gpucompile_nvptx__idchar(a[i - 1])) &&
            ((na - i > 3 && memcmp(a + i, "$L_", 3) == 0) || (na - i > 13 && memcmp(a + i, "__local_depot", 13) == 0) ||
             (na - i > 10 && memcmp(a + i, "prototype_", 10) == 0))) {
            while (i < na && k < nb && a[i] == b[k] && !(a[i] >= '0' && a[i] <= '9')) i++, k++;
            if (i < na && k < nb && a[i] >= '0' && a[i] <= '9' && b[k] >= '0' && b[k] <= '9') {
                while (i < na && a[i] >= '0' && a[i] <= '9') i++;
                while (k < nb && b[k] >= '0' && b[k] <= '9') k++;
            }
            continue;
        }
        i++, k++;
    }
    return i == na && k == nb;
}

/* The definition a non-internal name resolves to: the first visible one, else the first weak
   one; -1: none. *err: two visible ones. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__chosen(gpucompile_nvptx__ptxs *j, int head, int *err) {
    int i, weak = -1, vis = -1;
    for (i = head; i >= 0; i = j->items[i].next) {
        const gpucompile_nvptx__item *it = &j->items[i];
        if (!it->def || it->link == 'l' || it->link == 'x') continue;
        if (it->link == 'v' && vis >= 0) *err = i;
        if (it->link == 'v' && vis < 0) vis = i;
        if (it->link == 'w' && weak < 0) weak = i;
    }
    return vis >= 0 ? vis : weak;
}

/* The joined numbers of the partitions' .file directives, one per file name (in order of first
   appearance; the later ones dropped); an 'F' item's target is its own number. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__files(gpucompile_job *job, gpucompile_nvptx__ptxs *j, int n) {
    int i, k, p, joined = 0;
    if (!(j->files = (int **)gpucompile_job_alloc(job, (size_t)n * sizeof *j->files)) ||
        !(j->num_files = (int *)gpucompile_job_alloc(job, (size_t)n * sizeof *j->num_files)))
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(j->files, 0, (size_t)n * sizeof *j->files);
    memset(j->num_files, 0, (size_t)n * sizeof *j->num_files);
    for (i = 0; i < j->num; i++) {
        gpucompile_nvptx__item *it = &j->items[i];
        const char *q = it->rest + 5, *e = it->s + it->len;
        if (it->kind != 'F') continue;
        for (; q < e && (*q == ' ' || *q == '\t'); q++) {}
        for (it->target = 0; q < e && *q >= '0' && *q <= '9' && it->target < 1000000; q++) it->target = it->target * 10 + (*q - '0');
        for (; q < e && (*q == ' ' || *q == '\t'); q++) {}
        it->name = q; /* the file's name and what follows it; not a symbol (never in the table) */
        it->name_len = (size_t)(e - q);
        if (it->target >= j->num_files[it->part]) j->num_files[it->part] = it->target + 1;
    }
    for (p = 0; p < n; p++)
        if (j->num_files[p] && !(j->files[p] = (int *)gpucompile_job_alloc(job, (size_t)j->num_files[p] * sizeof **j->files))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        else if (j->num_files[p]) memset(j->files[p], 0, (size_t)j->num_files[p] * sizeof **j->files);
    for (i = 0; i < j->num; i++) {
        gpucompile_nvptx__item *it = &j->items[i];
        if (it->kind != 'F') continue;
        for (k = 0; k < i && !(j->items[k].kind == 'F' && !j->items[k].fate && j->items[k].name_len == it->name_len &&
                               memcmp(j->items[k].name, it->name, it->name_len) == 0); k++) {}
        if (k < i) {
            it->fate = 'd';
            j->files[it->part][it->target] = j->files[j->items[k].part][j->items[k].target];
        } else j->files[it->part][it->target] = ++joined;
    }
    return GPUCOMPILE_OK;
}

/* Each partition's header (.version, .target and .address_size, the same in each, in this
   order) and its items. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__read_parts(gpucompile_nvptx__ptxs *j, const char *const *ptx, const size_t *size) {
    static const char *const words[3] = {".version ", ".target ", ".address_size "};
    const char *header[3] = {NULL, NULL, NULL};
    size_t header_len[3] = {0, 0, 0};
    gpucompile_result r;
    int part, i, k;
    for (part = 0; part < j->parts; part++) {
        const char *at = ptx[part], *end = ptx[part] + size[part];
        for (k = 0; k < 3 && at < end;) {
            const char *eol = (const char *)memchr(at, '\n', (size_t)(end - at));
            size_t len = (size_t)((eol ? eol : end) - at), w = strlen(words[k]);
            if (len > w && memcmp(at, words[k], w) == 0) {
                if (part == 0) header[k] = at, header_len[k] = len;
                else if (len != header_len[k] || memcmp(at, header[k], len) != 0) break;
                k++;
            }
            at = eol ? eol + 1 : end;
        }
        if (k < 3)
            return gpucompile_job_fail(j->job, GPUCOMPILE_ERROR_LINK, "partition %d's PTX header (.version, .target, .address_size) %s",
                                       part, part ? "differs from partition 0's" : "is incomplete");
        if (part == 0) j->body = at;
        if ((r = gpucompile_nvptx__items(j->job, j, part, at, end)) != GPUCOMPILE_OK) return r;
    }
    for (i = 0, k = 0; i < j->num; i++) k += j->items[i].kind == 'S';
    if (k) /* each partition's DWARF describes its own labels and files (options.debug keeps one module) */
        gpucompile_job_log(j->job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "the partitions' DWARF sections are left out of the joined PTX (line numbers stay)");
    return GPUCOMPILE_OK;
}

/* The names: a table of the first item of each, the rest chained in order. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__index(gpucompile_nvptx__ptxs *j) {
    int i, k;
    for (j->num_slots = 64; j->num_slots < 2 * (size_t)j->num + 2; j->num_slots *= 2) {}
    if (!(j->slots = (int *)gpucompile_job_alloc(j->job, j->num_slots * sizeof *j->slots))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(j->slots, 0xff, j->num_slots * sizeof *j->slots);
    for (i = 0; i < j->num; i++) {
        int *slot;
        if (!j->items[i].name) continue;
        slot = gpucompile_nvptx__slot(j, j->items[i].name, j->items[i].name_len);
        if (*slot < 0) *slot = i;
        else {
            for (k = *slot; j->items[k].next >= 0; k = j->items[k].next) {}
            j->items[k].next = i;
        }
    }
    return GPUCOMPILE_OK;
}

/* An internal definition: the duplicate of the first earlier definition of its name (the core's
   copy of what an earlier partition defines), until their texts differ (gpucompile_nvptx__settle);
   renamed then, or where the name is another partition's external symbol. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__fates(gpucompile_nvptx__ptxs *j) {
    int i, k;
    for (i = 0; i < j->num; i++) {
        gpucompile_nvptx__item *it = &j->items[i];
        int external = 0, earlier = -1;
        if (!it->name || !it->def || it->link != 'l') continue;
        for (k = *gpucompile_nvptx__slot(j, it->name, it->name_len); k >= 0; k = j->items[k].next) {
            if (j->items[k].link != 'l' && j->items[k].def && j->items[k].part != it->part) external = 1;
            if (k < i && earlier < 0 && j->items[k].def && j->items[k].kind == it->kind && !j->items[k].fate) earlier = k;
        }
        if (earlier >= 0) it->fate = 'd', it->target = earlier;
        else if (external) it->fate = 'r';
    }
}

/* The renamed get their new names, and a duplicate whose text (with those names) differs from
   its original's is renamed too, until nothing changes. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__settle(gpucompile_nvptx__ptxs *j) {
    int i, changed;
    do {
        changed = 0;
        for (i = 0; i < j->num; i++) {
            gpucompile_nvptx__item *it = &j->items[i];
            if (it->kind == 'F') continue; /* its fate is the file table's */
            if (it->fate == 'r' && !it->renamed) {
                int c = 0;
                gpucompile_buf nb;
                memset(&nb, 0, sizeof nb);
                nb.a = j->out.a;
                do {
                    nb.len = 0;
                    gpucompile_buf_printf(&nb, c ? "%.*s_$p%d_%d" : "%.*s_$p%d", (int)it->name_len, it->name, it->part, c);
                    c++;
                } while (!nb.oom && *gpucompile_nvptx__slot(j, nb.data, nb.len) >= 0);
                it->renamed = nb.data;
                if (nb.oom) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
                changed = 1;
            } else if (it->fate == 'd') {
                j->x.len = j->y.len = 0;
                gpucompile_nvptx__render(j, i, it->rest, &j->x);
                gpucompile_nvptx__render(j, it->target, j->items[it->target].rest, &j->y);
                if (j->x.oom || j->y.oom) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
                if (!gpucompile_nvptx__same(j->x.data, j->x.len, j->y.data, j->y.len)) it->fate = 'r', changed = 1;
            }
        }
    } while (changed);
    return GPUCOMPILE_OK;
}

/* Item i into the module when pass is its own (0 function declarations, 1 variables, 2
   function definitions, 3 the rest), unless it is dropped or another item stands for it. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__write_item(gpucompile_nvptx__ptxs *j, int i, int pass) {
    gpucompile_nvptx__item *it = &j->items[i];
    int head = it->name && it->kind != 'F' ? *gpucompile_nvptx__slot(j, it->name, it->name_len) : -1, chosen = -1, err = -1, first = 1, local = 0, k;
    const char *from = it->s;
    if (pass != (it->kind == 'f' && !it->def ? 0 : it->kind == 'v' ? 1 : it->kind == 'f' ? 2 : 3)) return GPUCOMPILE_OK;
    if (head >= 0 && it->link != 'l') {
        chosen = gpucompile_nvptx__chosen(j, head, &err);
        if (err >= 0)
            return gpucompile_job_fail(j->job, GPUCOMPILE_ERROR_LINK, "'%.*s' is defined in partitions %d and %d", (int)it->name_len,
                                       it->name, j->items[chosen].part, j->items[err].part);
        for (k = head; k >= 0; k = j->items[k].next) {
            if (k < i && j->items[k].link != 'l' && j->items[k].kind == it->kind && j->items[k].def == it->def) first = 0;
            if (j->items[k].link == 'l' && j->items[k].def) local = 1;
        }
    }
    if (it->fate == 'd' || it->kind == 'S') return GPUCOMPILE_OK;
    if (it->kind == 'F') {
        gpucompile_buf_printf(&j->out, "\t.file\t%d %.*s\n", j->files[it->part][it->target], (int)it->name_len, it->name);
        return GPUCOMPILE_OK;
    }
    if (it->link == 'l' && it->name && !it->def) { /* an internal declaration goes with its definition */
        for (k = head; k >= 0 && !(j->items[k].part == it->part && j->items[k].def); k = j->items[k].next) {}
        if (k >= 0 && j->items[k].fate == 'd') return GPUCOMPILE_OK;
    } else if (it->link != 'l' && it->name && it->def) {
        if (chosen != i) return GPUCOMPILE_OK;
    } else if (it->link != 'l' && it->name) {
        /* the first declaration of its kind stands for all; one of what only a copy
           defines was left by code the core cut out */
        if (!first || (chosen < 0 && local)) return GPUCOMPILE_OK;
        /* defined: the core defines a variable in the first partition that reaches it, so
           the initializers that name it come after it (ptxas warns of an .extern one) */
        if (it->kind == 'v' && chosen >= 0) return GPUCOMPILE_OK;
        if (it->kind == 'f' && chosen >= 0) { /* the definition's linkage */
            gpucompile_buf_str(&j->out, j->items[chosen].link == 'v' ? ".visible " : ".weak ");
            from = it->rest;
        }
    } else if (!it->name) {
        for (k = 0; k < i && !(j->items[k].kind == 'o' && j->items[k].len == it->len && memcmp(j->items[k].s, it->s, it->len) == 0); k++) {}
        if (k < i) return GPUCOMPILE_OK;
    }
    gpucompile_nvptx__render(j, i, from, &j->out);
    gpucompile_buf_str(&j->out, pass == 2 ? "\n\n" : "\n");
    return GPUCOMPILE_OK;
}

/* The module: partition 0's header, then declarations, variables, function definitions, the rest. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__write(gpucompile_nvptx__ptxs *j, const char *ptx0) {
    gpucompile_result r = GPUCOMPILE_OK;
    int pass, i;
    j->callseq = j->prototype = j->prototype_out = 0;
    j->prototype_in = -1;
    gpucompile_buf_add(&j->out, ptx0, (size_t)(j->body - ptx0));
    gpucompile_buf_str(&j->out, "\n\n");
    for (pass = 0; pass < 4 && r == GPUCOMPILE_OK; pass++)
        for (i = 0; i < j->num && r == GPUCOMPILE_OK; i++) r = gpucompile_nvptx__write_item(j, i, pass);
    return r;
}

GPUCOMPILE_PRIVATE void gpucompile_nvptx__ptxs_free(gpucompile_nvptx__ptxs *j) {
    int i;
    for (i = 0; i < j->num; i++) gpucompile_free(j->out.a, j->items[i].renamed);
    for (i = 0; j->files && i < j->parts; i++) gpucompile_job_free(j->job, j->files[i]);
    gpucompile_job_free(j->job, j->files);
    gpucompile_job_free(j->job, j->num_files);
    gpucompile_job_free(j->job, j->items);
    gpucompile_job_free(j->job, j->slots);
    gpucompile_free(j->out.a, j->x.data);
    gpucompile_free(j->out.a, j->y.data);
}

/* Joins the PTX of n partitions into one module in *out (the job's allocator). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__join_ptx(gpucompile_job *job, const char *const *ptx, const size_t *size, int n,
                                                                char **out, size_t *out_size) {
    gpucompile_nvptx__ptxs j;
    gpucompile_result r;
    memset(&j, 0, sizeof j);
    j.job = job;
    j.parts = n;
    j.out.a = &job->options->allocator;
    j.x = j.y = j.out;
    *out = NULL;
    *out_size = 0;
    r = gpucompile_nvptx__read_parts(&j, ptx, size);
    if (r == GPUCOMPILE_OK) r = gpucompile_nvptx__index(&j);
    if (r == GPUCOMPILE_OK) r = gpucompile_nvptx__files(job, &j, n); /* after the table: file names are no symbols */
    if (r == GPUCOMPILE_OK) gpucompile_nvptx__fates(&j);
    if (r == GPUCOMPILE_OK) r = gpucompile_nvptx__settle(&j);
    if (r == GPUCOMPILE_OK) r = gpucompile_nvptx__write(&j, ptx[0]);
    gpucompile_nvptx__ptxs_free(&j);
    if (r == GPUCOMPILE_OK && j.out.oom) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (r != GPUCOMPILE_OK) {
        gpucompile_free(j.out.a, j.out.data);
        return r;
    }
    *out = j.out.data;
    *out_size = j.out.len;
    return GPUCOMPILE_OK;
}

/* The partitions' PTX (gpucompile_backend.join) as one module's, which finish takes as it
   comes: format isa that text; bin one ptxas (or nvJitLink) run on it, --split-compile N from
   options.jobs; fatbin that cubin and the text. ptxas takes the joined PTX in the time of the
   whole module's. Measured on 2 cores against it (Thrust's 64 kernels, Eigen's 43): ptxas -c of
   each part at once, then nvJitLink linking the relocatable cubins, took 0.71-0.79x but made
   cubins 6-22% larger (each part's helper copies compiled and kept); nvJitLink given the N
   texts compiles them one after the other. And isa and fatbin need the one text anyway. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__join(gpucompile_job *job, gpucompile_format format, const LLVMMemoryBufferRef *parts, int n) {
    const char **ptx = (const char **)gpucompile_job_alloc(job, (size_t)n * sizeof *ptx);
    size_t *size = (size_t *)gpucompile_job_alloc(job, (size_t)n * sizeof *size), out_size = 0;
    char *out = NULL;
    gpucompile_result r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    int i;
    (void)format;
    if (ptx && size) {
        for (i = 0; i < n; i++) {
            ptx[i] = LLVMGetBufferStart(parts[i]);
            size[i] = LLVMGetBufferSize(parts[i]);
        }
        r = gpucompile_nvptx__join_ptx(job, ptx, size, n, &out, &out_size);
    }
    if (r == GPUCOMPILE_OK) {
        if (job->emitted) LLVMDisposeMemoryBuffer(job->emitted);
        if ((job->emitted = LLVMCreateMemoryBufferWithMemoryRangeCopy(out, out_size, "gpucompile.ptx")) == NULL) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        else gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "the PTX of %d partitions joined into one module (%zu bytes)", n, out_size);
    }
    gpucompile_job_free(job, out);
    gpucompile_job_free(job, ptx);
    gpucompile_job_free(job, size);
    return r;
}

/* ---- kernel metadata -------------------------------------------------------------------- */
GPUCOMPILE_PRIVATE gpucompile_kernel *gpucompile_nvptx__kernel(gpucompile_object *o, const char *name, size_t len) {
    int i;
    for (i = 0; i < o->num_kernels; i++)
        if (strlen(o->kernels[i].name) == len && strncmp(o->kernels[i].name, name, len) == 0) return &o->kernels[i];
    return NULL;
}

/* A kernel's symbol index -> its metadata entry, by the symbol's name (sym: the symbol table,
   str: its strings; absent: data NULL). */
GPUCOMPILE_PRIVATE gpucompile_kernel *gpucompile_nvptx__kernel_by_symbol(gpucompile_object *o, const gpucompile_elf_section *sym,
                                                                          const gpucompile_elf_section *str, uint64_t index) {
    const char *name;
    uint64_t at;
    if (!sym->data || !str->data || (index + 1) * 24 > sym->size) return NULL;
    at = gpucompile_read_le(sym->data + index * 24, 4);
    if (at >= str->size) return NULL;
    name = (const char *)str->data + at;
    return gpucompile_nvptx__kernel(o, name, strnlen(name, (size_t)(str->size - at)));
}

/* Reads registers (EIATTR_REGCOUNT), local frame (EIATTR_FRAME_SIZE), max threads
   (EIATTR_MAX_THREADS) and shared memory (.nv.shared.<kernel>) from a cubin (ELF64 LE) into o's
   kernels; add: first adds each entry function (a .nv.info.<kernel> section) o lacks. 0 when
   d is no such ELF. A section that cannot be read has the name "" and no data: it is skipped. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__elf_metadata(gpucompile_object *o, const unsigned char *d, size_t size, int add) {
    gpucompile_elf_section s, sym, str;
    unsigned i, n = gpucompile_elf_sections(d, size, NULL);
    size_t len;
    if (!n) return 0;
    memset(&sym, 0, sizeof sym);
    memset(&str, 0, sizeof str);
    for (i = 0; i < n; i++) { /* the symbol table and its strings; the entry functions */
        (void)gpucompile_elf_read_section(d, size, i, &s);
        if (s.type == 2 /* SHT_SYMTAB */) {
            sym = s;
            (void)gpucompile_elf_read_section(d, size, s.link, &str);
        }
        len = strlen(s.name);
        if (add && len > 9 && strncmp(s.name, ".nv.info.", 9) == 0 && !gpucompile_nvptx__kernel(o, s.name + 9, len - 9) &&
            gpucompile_object_add_kernel_n(o, s.name + 9, len - 9) != GPUCOMPILE_OK)
            return 0;
    }
    for (i = 0; i < n; i++) {
        const unsigned char *a, *end;
        gpucompile_kernel *k;
        (void)gpucompile_elf_read_section(d, size, i, &s);
        len = strlen(s.name);
        if (len > 11 && strncmp(s.name, ".nv.shared.", 11) == 0 && (k = gpucompile_nvptx__kernel(o, s.name + 11, len - 11)) != NULL) {
            if (k->shared_bytes < 0) k->shared_bytes = (int)s.size;
            continue;
        }
        if (strncmp(s.name, ".nv.info", 8) != 0 || (s.name[8] != 0 && s.name[8] != '.') || !s.data) continue;
        k = s.name[8] == '.' ? gpucompile_nvptx__kernel(o, s.name + 9, len - 9) : NULL;
        for (a = s.data, end = s.data + s.size; end - a >= 4;) {
            unsigned fmt = a[0], attr = a[1], vlen = (unsigned)gpucompile_read_le(a + 2, 2);
            const unsigned char *v = a + 4;
            if (fmt != 4 /* EIFMT_SVAL */) { a += 4; continue; }
            if ((size_t)(end - v) < vlen) break;
            if (!s.name[8] && vlen == 8 && (attr == 0x2f /* REGCOUNT */ || attr == 0x11 /* FRAME_SIZE */)) {
                gpucompile_kernel *f = gpucompile_nvptx__kernel_by_symbol(o, &sym, &str, gpucompile_read_le(v, 4));
                if (f && attr == 0x2f) f->registers = (int)gpucompile_read_le(v + 4, 4);
                if (f && attr == 0x11) f->private_bytes = (int)gpucompile_read_le(v + 4, 4);
            }
            if (k && attr == 0x05 /* MAX_THREADS */ && vlen == 12)
                k->max_threads = (int)(gpucompile_read_le(v, 4) * gpucompile_read_le(v + 4, 4) * gpucompile_read_le(v + 8, 4));
            a = v + vlen;
        }
    }
    return 1;
}

/* PTX text: each `.entry NAME(...)` becomes a kernel of o, with its count of .param. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__ptx_entries(gpucompile_object *o, const char *ptx, size_t size) {
    const char *p = ptx, *end = ptx + size;
    while ((size_t)(end - p) > 7 && (p = (const char *)memchr(p, '.', (size_t)(end - p))) != NULL) {
        const char *q = p + 6, *e;
        if ((size_t)(end - p) <= 7 || strncmp(p, ".entry", 6) != 0 || (*q != ' ' && *q != '\t') || (p > ptx && p[-1] != ' ' && p[-1] != '\t' && p[-1] != '\n')) {
            p++;
            continue;
        }
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        for (e = q; e < end && *e != '(' && *e != ' ' && *e != '\t' && *e != '\n' && *e != '{'; e++) {}
        if (e > q && !gpucompile_nvptx__kernel(o, q, (size_t)(e - q))) {
            const char *c = e;
            if (gpucompile_object_add_kernel_n(o, q, (size_t)(e - q)) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
            while (c < end && (*c == ' ' || *c == '\t' || *c == '\n')) c++;
            if (c < end && *c == '(') {
                int params = 0;
                for (; c < end && *c != ')'; c++) params += (size_t)(end - c) > 6 && strncmp(c, ".param", 6) == 0;
                if (c < end) o->kernels[o->num_kernels - 1].num_params = params;
            }
        }
        p = e;
    }
    return GPUCOMPILE_OK;
}

/* The backend's find_kernels: PTX .entry lines; a cubin's entry functions; a fatbin's first
   uncompressed cubin, else its PTX. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__find_kernels(gpucompile_object *o) {
    gpucompile_result r = GPUCOMPILE_OK;
    size_t i;
    if (o->format == GPUCOMPILE_FORMAT_ISA) r = gpucompile_nvptx__ptx_entries(o, (const char *)o->data, o->size);
    else if (o->format == GPUCOMPILE_FORMAT_BIN) gpucompile_nvptx__elf_metadata(o, o->data, o->size, 1);
    else if (o->format == GPUCOMPILE_FORMAT_FATBIN) {
        for (i = 0; !o->num_kernels && i + 64 <= o->size; i++)
            if (memcmp(o->data + i, "\177ELF", 4) == 0) gpucompile_nvptx__elf_metadata(o, o->data + i, o->size - i, 1);
        if (!o->num_kernels) r = gpucompile_nvptx__ptx_entries(o, (const char *)o->data, o->size);
    }
    if (o->num_kernels > 1) qsort(o->kernels, (size_t)o->num_kernels, sizeof *o->kernels, gpucompile_kernel_cmp);
    return r;
}

/* ptxas-style info log: "Compiling entry function 'K'" ... "N bytes smem" gives shared memory. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__log_metadata(gpucompile_job *job, const char *log) {
    const char *p = log;
    gpucompile_kernel *k = NULL;
    while (p && *p) {
        const char *eol = strchr(p, '\n'), *q, *e;
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < 1023 ? n : 1023), p);
        if ((q = strstr(line, "entry function '")) != NULL && (e = strchr(q + 16, '\'')) != NULL)
            k = gpucompile_nvptx__kernel(job->object, q + 16, (size_t)(e - (q + 16)));
        else if (k && (q = strstr(line, "Used ")) != NULL) {
            const char *s = strstr(line, " bytes smem");
            if (s) {
                while (s > line && s[-1] >= '0' && s[-1] <= '9') s--;
                k->shared_bytes = atoi(s);
            } else {
                k->shared_bytes = 0;
            }
            k = NULL;
        }
        p = eol ? eol + 1 : NULL;
    }
}

/* Logs a tool's log, one diagnostic per line. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__log_lines(gpucompile_job *job, gpucompile_severity sev, gpucompile_result res,
                                                     const char *origin, const char *log) {
    const char *p = log;
    while (p && *p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        if (n && !(n == 1 && p[0] == '\r')) gpucompile_job_log(job, sev, res, origin, "%.*s", (int)n, p);
        p = eol ? eol + 1 : NULL;
    }
}

/* ---- PTX to cubin ------------------------------------------------------------------------ */
/* Each method: GPUCOMPILE_ERROR_UNSUPPORTED (not logged as an error) when it is not available,
   so the next is tried; GPUCOMPILE_ERROR_TOOL when it rejects the PTX, with its messages logged
   at sev (a warning when another method will be tried); any other failure is logged and final.
   On success, *cubin holds the bytes (job allocator) and *log the info log (job allocator, may
   be NULL). */
/* --save-temps: nvJitLink's step for repro.sh. No tool runs it from a shell, so repro.sh builds
   this small program (cc, -ldl) and makes the same call with the same options: the same cubin,
   byte for byte. (ptxas on the same PTX compiles the same code, but nvJitLink's cubin is ptxas
   -c plus its link step: another ELF; the equivalent ptxas line is written as a comment.) */
static const char gpucompile_nvptx__repro_jitlink_c[] =
    "/* Links one PTX file into a cubin with nvJitLink, as gpucompile did (written by gpucompile\n"
    "   --save-temps for repro.sh). Usage: repro.nvjitlink LIBNVJITLINK IN.ptx OUT.cubin OPTION... */\n"
    "#include <dlfcn.h>\n#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
    "typedef int (*create_fn)(void **, uint32_t, const char **);\n"
    "typedef int (*add_fn)(void *, int, const void *, size_t, const char *);\n"
    "typedef int (*handle_fn)(void *);\n"
    "typedef int (*size_fn)(void *, size_t *);\n"
    "typedef int (*get_fn)(void *, void *);\n"
    "typedef int (*destroy_fn)(void **);\n"
    "/* nvJitLink's entry points, resolved before the first call (a missing one: exit status 1) */\n"
    "enum { CREATE, ADD, COMPLETE, INFO_SIZE, INFO, ERROR_SIZE, ERROR, CUBIN_SIZE, CUBIN, DESTROY, N };\n"
    "static const char *const names[N] = {\"nvJitLinkCreate\", \"nvJitLinkAddData\", \"nvJitLinkComplete\",\n"
    "    \"nvJitLinkGetInfoLogSize\", \"nvJitLinkGetInfoLog\", \"nvJitLinkGetErrorLogSize\", \"nvJitLinkGetErrorLog\",\n"
    "    \"nvJitLinkGetLinkedCubinSize\", \"nvJitLinkGetLinkedCubin\", \"nvJitLinkDestroy\"};\n"
    "static void *fn[N];\n"
    "static void put_log(void *h, int size_fn_index, int get_fn_index, FILE *to) {\n"
    "    size_t n = 0;\n"
    "    char *log;\n"
    "    if (((size_fn)fn[size_fn_index])(h, &n) != 0 || n < 2 || !(log = (char *)calloc(n + 1, 1))) return;\n"
    "    if (((get_fn)fn[get_fn_index])(h, log) == 0) fputs(log, to);\n"
    "    free(log);\n"
    "}\n"
    "int main(int argc, char **argv) {\n"
    "    void *h = NULL, *cubin = NULL;\n"
    "    char *ptx;\n"
    "    size_t size = 0;\n"
    "    long n;\n"
    "    int rc;\n"
    "    FILE *f;\n"
    "    void *dl;\n"
    "    if (argc < 4) { fprintf(stderr, \"usage: %s LIBNVJITLINK IN.ptx OUT.cubin OPTION...\\n\", argv[0]); return 2; }\n"
    "    if (!(dl = dlopen(argv[1], RTLD_NOW))) { fprintf(stderr, \"%s\\n\", dlerror()); return 1; }\n"
    "    for (rc = 0; rc < N; rc++)\n"
    "        if (!(fn[rc] = dlsym(dl, names[rc]))) { fprintf(stderr, \"%s: not in the library\\n\", names[rc]); return 1; }\n"
    "    if (!(f = fopen(argv[2], \"rb\")) || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||\n"
    "        !(ptx = (char *)calloc((size_t)n + 1, 1)) || fread(ptx, 1, (size_t)n, f) != (size_t)n) {\n"
    "        fprintf(stderr, \"cannot read %s\\n\", argv[2]);\n"
    "        return 1;\n"
    "    }\n"
    "    fclose(f);\n"
    "    rc = ((create_fn)fn[CREATE])(&h, (uint32_t)(argc - 4), (const char **)(argv + 4));\n"
    "    if (rc) { fprintf(stderr, \"nvJitLinkCreate failed (%d)\\n\", rc); return 1; }\n"
    "    rc = ((add_fn)fn[ADD])(h, 2, ptx, (size_t)n + 1, \"gpucompile.ptx\"); /* 2: PTX, with its NUL */\n"
    "    if (!rc) rc = ((handle_fn)fn[COMPLETE])(h);\n"
    "    put_log(h, INFO_SIZE, INFO, stdout);\n"
    "    if (rc) { put_log(h, ERROR_SIZE, ERROR, stderr); fprintf(stderr, \"nvJitLink failed (%d)\\n\", rc); return 1; }\n"
    "    if (((size_fn)fn[CUBIN_SIZE])(h, &size) != 0 || !(cubin = malloc(size ? size : 1)) ||\n"
    "        ((get_fn)fn[CUBIN])(h, cubin) != 0) { fprintf(stderr, \"cannot read the cubin\\n\"); return 1; }\n"
    "    if (!(f = fopen(argv[3], \"wb\")) || fwrite(cubin, 1, size, f) != size || fclose(f) != 0) { fprintf(stderr, \"cannot write %s\\n\", argv[3]); return 1; }\n"
    "    ((destroy_fn)fn[DESTROY])(&h);\n"
    "    return 0;\n"
    "}\n";

/* repro.sh's lines for an nvJitLink cubin (into b, when saving): the program above with the
   options nvJitLink was given, and, as a comment, the ptxas line with the same options. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__repro_jitlink(gpucompile_job *job, const char *lib, const char *const *opts, int n,
                                                          gpucompile_buf *out) {
    gpucompile_buf b;
    char ptxas[GPUCOMPILE_NVPTX__PATH];
    int k;
    memset(out, 0, sizeof *out);
    out->a = &job->options->allocator;
    if (!gpucompile_job_saved_path(job, "", ptxas, sizeof ptxas)) return; /* not saving */
    b = *out;
    gpucompile_buf_str(&b, "# nvJitLink made the cubin in-process: the same call, from repro.nvjitlink.c\n"
                           "\"${CC:-cc}\" -o repro.nvjitlink repro.nvjitlink.c -ldl\n./repro.nvjitlink ");
    gpucompile_buf_shell_quote(&b, lib);
    gpucompile_buf_str(&b, " repro.isa.s repro.cubin");
    for (k = 0; k < n; k++) {
        gpucompile_buf_str(&b, " ");
        gpucompile_buf_shell_quote(&b, opts[k]);
    }
    gpucompile_buf_str(&b, "\n# the same code from ptxas (not the same bytes: nvJitLink links what ptxas -c makes):\n# ");
    gpucompile_buf_shell_quote(&b, gpucompile_nvptx__find_tool(job, "ptxas", ptxas, sizeof ptxas) ? ptxas : "ptxas");
    for (k = 0; k < n; k++) {
        const char *o = opts[k];
        if (strcmp(o, "-verbose") == 0) o = "-v";
        else if (strncmp(o, "-Xptxas=", 8) == 0) o += 8;
        else if (strncmp(o, "-split-compile=", 15) == 0) { gpucompile_buf_str(&b, " --split-compile"); o += 15; }
        gpucompile_buf_str(&b, " ");
        gpucompile_buf_shell_quote(&b, o);
    }
    gpucompile_buf_str(&b, " repro.isa.s -o repro.ptxas.cubin\n");
    *out = b;
}

/* The step into repro.sh where the compile ends with it (its cubin, or its error; not a
   failure that another method follows), then the lines are freed. */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__repro_commit(gpucompile_job *job, gpucompile_buf *lines, int keep) {
    if (keep && lines->data && !lines->oom)
        gpucompile_job_repro_step(job, "repro.nvjitlink.c", gpucompile_nvptx__repro_jitlink_c, sizeof gpucompile_nvptx__repro_jitlink_c - 1,
                                  lines->data);
    gpucompile_free(lines->a, lines->data);
    memset(lines, 0, sizeof *lines);
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__by_nvjitlink(gpucompile_job *job, const char *ptx, size_t ptx_size,
    const char *chip, unsigned char **cubin, size_t *cubin_size, char **log, gpucompile_severity sev) {
    const gpucompile_nvptx__lib *l = gpucompile_nvptx__open(job, 1);
    gpucompile_nvptx__jl_h h = NULL;
    char arch[64], opt[32], extra[4096], split[32], **user = NULL, *xptxas = NULL;
    size_t total = 0;
    const char *opts[4 + 256 + 32];
    int rc, num_user = 0, nx, k;
    size_t n = 0;
    char *err = NULL;
    gpucompile_buf repro;
    gpucompile_result r;
    if (!l) {
        const char *given = gpucompile_job_tool_path(job, "nvJitLink");
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "nvJitLink is not available (%s)",
                           given ? given : "libnvJitLink.so not found");
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    snprintf(arch, sizeof arch, "-arch=sm_%s", gpucompile_nvptx__sm(chip));
    snprintf(opt, sizeof opt, "-Xptxas=-O%d", job->target->O); /* nvJitLink itself takes -O0 and -O3 only */
    opts[0] = arch;
    opts[1] = opt;
    opts[2] = "-verbose";
    /* the target's ptxas-cmd-options, then the binary step's tool options: ptxas inside
       nvJitLink takes each as -Xptxas=<option> */
    if ((r = gpucompile_job_flag_strings(job, "ptxas-cmd-options", &user, &num_user)) != GPUCOMPILE_OK) return r;
    if ((nx = gpucompile_job_tool_options(job, extra, sizeof extra, opts + 3 + num_user, 32)) < 0) {
        gpucompile_job_free(job, user);
        return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    }
    for (k = 0; k < num_user; k++) total += strlen(user[k]) + 9;
    for (k = 0; k < nx; k++) total += strlen(opts[3 + num_user + k]) + 9;
    if (num_user + nx && (xptxas = (char *)gpucompile_job_alloc(job, total)) == NULL) {
        gpucompile_job_free(job, user);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    for (k = 0, n = 0; k < num_user + nx; k++) {
        const char *o = k < num_user ? user[k] : opts[3 + k];
        opts[3 + k] = xptxas + n;
        n += (size_t)snprintf(xptxas + n, total - n, "-Xptxas=%s", o) + 1;
    }
    if (job->options->jobs > 1) { /* options.jobs: nvJitLink's own threads, last */
        snprintf(split, sizeof split, "-split-compile=%d", job->options->jobs);
        opts[3 + num_user + nx++] = split;
    }
    n = 0;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "nvJitLink %u.%u (%s): %s %s %s%s%s", l->jl.major, l->jl.minor,
                       l->path, arch, opt, opts[2], num_user + nx ? " " : "", num_user + nx ? opts[3] : "");
    if (strchr(l->path, '/')) gpucompile_job_add_dependency(job, l->path); /* a new nvJitLink: a new cubin */
    rc = l->jl.create(&h, (uint32_t)(3 + num_user + nx), opts);
    gpucompile_nvptx__repro_jitlink(job, l->path, opts, 3 + num_user + nx, &repro);
    gpucompile_job_free(job, user);
    gpucompile_job_free(job, xptxas);
    if (rc != 0) {
        gpucompile_nvptx__repro_commit(job, &repro, 0);
        /* A chip this nvJitLink does not know: another method may. */
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "nvJitLink", "nvJitLinkCreate(%s) failed: %s (%d)", arch, gpucompile_nvptx__jl_name(rc), rc);
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    /* 2 = NVJITLINK_INPUT_PTX; the PTX must end with its NUL. */
    rc = l->jl.add_data(h, 2, ptx, ptx_size + 1, "gpucompile.ptx");
    if (!rc) rc = l->jl.complete(h);
    if (l->jl.info_log_size(h, &n) == 0 && n > 1 && (*log = (char *)gpucompile_job_alloc(job, n + 1)) != NULL) {
        if (l->jl.info_log(h, *log) != 0) (*log)[0] = 0;
        (*log)[n] = 0;
    }
    if (rc) {
        char saved[4096];
        if (l->jl.error_log_size(h, &n) == 0 && n > 1 && (err = (char *)gpucompile_job_alloc(job, n + 1)) != NULL) {
            if (l->jl.error_log(h, err) != 0) err[0] = 0;
            err[n] = 0;
            gpucompile_nvptx__log_lines(job, sev, GPUCOMPILE_ERROR_TOOL, "nvJitLink", err);
            if (gpucompile_job_saved_path(job, "isa.s", saved, sizeof saved)) /* its "ptx input, line N" */
                gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_TOOL, "nvJitLink", "the PTX it read is kept as %s (the lines above are its lines)", saved);
            gpucompile_job_free(job, err);
        }
        l->jl.destroy(&h);
        gpucompile_nvptx__repro_commit(job, &repro, sev == GPUCOMPILE_SEVERITY_ERROR);
        gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_TOOL, "nvJitLink", "linking the PTX for %s failed: %s (%d)", chip, gpucompile_nvptx__jl_name(rc), rc);
        return GPUCOMPILE_ERROR_TOOL;
    }
    rc = l->jl.cubin_size(h, cubin_size);
    if (!rc && (*cubin = (unsigned char *)gpucompile_job_alloc(job, *cubin_size + 1)) == NULL) rc = -1;
    if (!rc) rc = l->jl.cubin(h, *cubin);
    l->jl.destroy(&h);
    gpucompile_nvptx__repro_commit(job, &repro, !rc || sev == GPUCOMPILE_SEVERITY_ERROR);
    if (rc) {
        gpucompile_job_free(job, *cubin);
        *cubin = NULL;
        gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_TOOL, "nvJitLink", "cannot read the linked cubin: %s (%d)", gpucompile_nvptx__jl_name(rc), rc);
        return GPUCOMPILE_ERROR_TOOL;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__by_ptxas(gpucompile_job *job, const char *ptx, size_t ptx_size,
    const char *chip, unsigned char **cubin, size_t *cubin_size, char **log, gpucompile_severity sev) {
    char ptxas[GPUCOMPILE_NVPTX__PATH], in[GPUCOMPILE_NVPTX__PATH], out[GPUCOMPILE_NVPTX__PATH], arch[64], opt[16], extra[4096], **user = NULL;
    const char *argv[10 + 256 + 32];
    char split[16];
    int st = -1, num_user = 0, k, n, argc = 0;
    gpucompile_result r;
    if (!gpucompile_nvptx__find_tool(job, "ptxas", ptxas, sizeof ptxas)) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "ptxas is not available (%s)",
                           gpucompile_job_tool_path(job, "ptxas") ? ptxas : "not in the toolkit nor on PATH");
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    if ((r = gpucompile_job_temp_file(job, ".ptx", in, sizeof in)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_job_temp_file(job, ".cubin", out, sizeof out)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_job_write_temp(job, in, ptx, ptx_size)) != GPUCOMPILE_OK) return r;
    snprintf(arch, sizeof arch, "-arch=sm_%s", gpucompile_nvptx__sm(chip));
    snprintf(opt, sizeof opt, "-O%d", job->target->O);
    if ((r = gpucompile_job_flag_strings(job, "ptxas-cmd-options", &user, &num_user)) != GPUCOMPILE_OK) return r;
    argv[argc++] = ptxas;
    argv[argc++] = arch;
    argv[argc++] = opt;
    argv[argc++] = "-v";
    if (job->options->jobs > 1) { /* options.jobs: ptxas's own threads */
        snprintf(split, sizeof split, "%d", job->options->jobs);
        argv[argc++] = "--split-compile";
        argv[argc++] = split;
    }
    for (k = 0; k < num_user; k++) argv[argc++] = user[k]; /* the target's ptxas-cmd-options, after ours as in MLIR */
    if ((n = gpucompile_job_tool_options(job, extra, sizeof extra, argv + argc, 32)) < 0) { /* then the binary step's */
        gpucompile_job_free(job, user);
        return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    }
    argc += n;
    argv[argc++] = in;
    argv[argc++] = "-o";
    argv[argc++] = out;
    argv[argc] = NULL;
    r = gpucompile_job_run_tool(job, argv, 0, &st, log, NULL);
    gpucompile_job_free(job, user);
    if (r != GPUCOMPILE_OK) return r;
    if (st != 0) {
        gpucompile_nvptx__log_lines(job, sev, GPUCOMPILE_ERROR_TOOL, "ptxas", *log);
        gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_TOOL, "ptxas", "ptxas exited with status %d", st);
        return GPUCOMPILE_ERROR_TOOL;
    }
    if (gpucompile_read_file(out, &job->options->allocator, cubin, cubin_size) != GPUCOMPILE_OK || !*cubin_size) {
        gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_TOOL, "ptxas", "ptxas wrote no cubin to '%s'", out);
        return GPUCOMPILE_ERROR_TOOL;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__by_driver(gpucompile_job *job, const char *ptx, size_t ptx_size,
    const char *chip, unsigned char **cubin, size_t *cubin_size, char **log, gpucompile_severity sev) {
    enum { INFO = 3, INFO_SIZE = 4, ERR = 5, ERR_SIZE = 6, OPT_LEVEL = 7, TARGET = 9, VERBOSE = 12 };
    const gpucompile_nvptx__lib *l = gpucompile_nvptx__open(job, 2);
    char info[16384], err[16384];
    int opts[7], dev = 0, rc, step = 0, target, i;
    void *vals[7], *ctx = NULL, *old = NULL, *state = NULL, *out = NULL;
    const char *sm = gpucompile_nvptx__sm(chip), *what = "cuInit";
    size_t n = 0;
    if (!l) {
        const char *given = gpucompile_job_tool_path(job, "libcuda");
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "the CUDA driver is not available (%s)",
                           given ? given : GPUCOMPILE_NVPTX__LIBCUDA " not found");
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    if (gpucompile_target_flag_value(job->target, "ptxas-cmd-options")) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "the CUDA driver's JIT takes no ptxas-cmd-options");
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    /* CUjit_target: 10 * major + minor; arch-specific "a" chips add 0x10000, "f" 0x20000. */
    if (!gpucompile_nvptx__device(chip, &target, &i)) target = i = 0;
    target += i * 0x10000;
    info[0] = err[0] = 0;
    opts[0] = INFO; vals[0] = info;
    opts[1] = INFO_SIZE; vals[1] = (void *)(uintptr_t)sizeof info;
    opts[2] = ERR; vals[2] = err;
    opts[3] = ERR_SIZE; vals[3] = (void *)(uintptr_t)sizeof err;
    opts[4] = VERBOSE; vals[4] = (void *)(uintptr_t)1;
    opts[5] = TARGET; vals[5] = (void *)(uintptr_t)target;
    opts[6] = OPT_LEVEL; vals[6] = (void *)(uintptr_t)(job->target->O > 3 ? 4 : job->target->O + 1);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "CUDA driver (%s): cuLink* for sm_%s", l->path, sm);
    rc = l->cu.cuInit(0);
    if (!rc) { what = "cuDeviceGet"; rc = l->cu.cuDeviceGet(&dev, 0); }
    if (!rc) { what = "cuDevicePrimaryCtxRetain"; rc = l->cu.cuDevicePrimaryCtxRetain(&ctx, dev); step = rc ? 0 : 1; }
    if (!rc) { what = "cuCtxPushCurrent"; rc = l->cu.cuCtxPushCurrent(ctx); step = rc ? 1 : 2; }
    if (!rc) { what = "cuLinkCreate"; rc = l->cu.cuLinkCreate(7, opts, vals, &state); }
    if (!rc) {
        what = "cuLinkAddData";
        /* 1 = CU_JIT_INPUT_PTX; the size counts the NUL. */
        rc = l->cu.cuLinkAddData(state, 1, (void *)ptx, ptx_size + 1, "gpucompile.ptx", 0, NULL, NULL);
    }
    if (!rc) { what = "cuLinkComplete"; rc = l->cu.cuLinkComplete(state, &out, &n); }
    if (!rc && (*cubin = (unsigned char *)gpucompile_job_alloc(job, n + 1)) != NULL) {
        memcpy(*cubin, out, n);
        *cubin_size = n;
    }
    if (state) l->cu.cuLinkDestroy(state);
    if (step >= 2) l->cu.cuCtxPopCurrent(&old);
    if (step >= 1) l->cu.cuDevicePrimaryCtxRelease(dev);
    info[sizeof info - 1] = err[sizeof err - 1] = 0;
    if (rc) {
        gpucompile_nvptx__log_lines(job, sev, GPUCOMPILE_ERROR_RUNTIME, "cuda", err);
        gpucompile_job_log(job, sev, GPUCOMPILE_ERROR_RUNTIME, "cuda", "%s failed: %s (%d)", what,
                           gpucompile_nvptx__cu_error(&l->cu, rc), rc);
        return GPUCOMPILE_ERROR_RUNTIME;
    }
    if (!*cubin) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    *log = gpucompile_job_strdup(job, info);
    return GPUCOMPILE_OK;
}

/* The cubin for chip; its info log in *log. options.bin_method forces one method, with no
   fallback. Otherwise the PTX's size picks the first: nvJitLink (in-process, no temp files)
   below GPUCOMPILE_NVPTX_PTXAS_FROM bytes, ptxas from there, and the other is tried next when
   the first is not available or rejects the PTX (its messages are then warnings, and a warning
   says so); the CUDA driver only when neither is available (it needs a GPU). The rule, measured
   with CUDA 13.0 on 2 cores (binary-step ms, nvJitLink / ptxas): darktable's modules, most
   functions inlined: 3-660 KB of PTX 10/17 ... 538/632, never slower (0.48-1.0); linked into
   1.3-3.2 MB 1125/1405 ... 6652/7126, even. hashcat's, whose library functions stay visible
   (.visible .func, mostly uncalled): 16 KB-79 KB even (84/86, 480/366), but 1 MB 1255/220,
   1.9 MB 2702/283, 3.8 MB 5066/899, 5.6 MB 7910/518, 7.8 MB 17504/1081, 9.8 MB 21988/3168:
   nvJitLink compiles what ptxas leaves out. nvJitLink also refuses a kernel with a register cap
   that calls a function needing more ("Entry function 'k' with max regcount of 128 calls
   function 'f' with regcount of ..."), which ptxas compiles. So ptxas from 512 KiB, where
   the worst case of either choice is ptxas' ~1.3x against nvJitLink's 6-16x. */
#ifndef GPUCOMPILE_NVPTX_PTXAS_FROM
#define GPUCOMPILE_NVPTX_PTXAS_FROM (512u * 1024u)
#endif
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__cubin(gpucompile_job *job, const char *ptx, size_t ptx_size, const char *chip,
    unsigned char **cubin, size_t *cubin_size, char **log) {
    typedef gpucompile_result (*method)(gpucompile_job *, const char *, size_t, const char *, unsigned char **, size_t *, char **,
                                        gpucompile_severity);
    static const char *const names[] = {"nvjitlink", "ptxas", "driver"}, *const origins[] = {"nvJitLink", "ptxas", "cuda"};
    method methods[3];
    const char *forced = job->options->bin_method;
    gpucompile_result r = GPUCOMPILE_ERROR_UNSUPPORTED;
    int order[3] = {0, 1, 2}, n = 3, k, rejected = -1;
    methods[0] = gpucompile_nvptx__by_nvjitlink;
    methods[1] = gpucompile_nvptx__by_ptxas;
    methods[2] = gpucompile_nvptx__by_driver;
    *cubin = NULL;
    *log = NULL;
    if (forced && *forced) {
        for (n = 0; n < 3 && strcmp(forced, names[n]) != 0; n++) {}
        if (n == 3)
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_ARGUMENT,
                                       "unknown bin_method '%s' (nvjitlink, ptxas or driver)", forced);
        order[0] = n;
        n = 1;
    } else if (ptx_size >= GPUCOMPILE_NVPTX_PTXAS_FROM) {
        order[0] = 1;
        order[1] = 0;
    }
    for (k = 0; k < n && r == GPUCOMPILE_ERROR_UNSUPPORTED && !(k == 2 && rejected >= 0); k++) {
        int i = order[k];
        r = methods[i](job, ptx, ptx_size, chip, cubin, cubin_size, log, n > 1 && k == 0 ? GPUCOMPILE_SEVERITY_WARNING : GPUCOMPILE_SEVERITY_ERROR);
        if (r == GPUCOMPILE_OK) {
            gpucompile_job_log(job, rejected >= 0 ? GPUCOMPILE_SEVERITY_WARNING : GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL,
                               "cubin for %s made by %s (%zu bytes)%s%s%s", chip, names[i], *cubin_size,
                               rejected >= 0 ? ", after " : "", rejected >= 0 ? origins[rejected] : "", rejected >= 0 ? " rejected the PTX" : "");
            gpucompile_nvptx__log_lines(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, origins[i], *log);
        } else if (r == GPUCOMPILE_ERROR_TOOL && n > 1 && k == 0) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                               "%s could not make the cubin (the warnings above): trying %s", origins[i], origins[order[1]]);
            gpucompile_job_free(job, *log);
            gpucompile_job_free(job, *cubin);
            *log = NULL;
            *cubin = NULL;
            rejected = i;
            r = GPUCOMPILE_ERROR_UNSUPPORTED;
        }
    }
    if (r == GPUCOMPILE_ERROR_UNSUPPORTED && rejected >= 0) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "%s rejected the PTX (the warnings above) and %s is not available",
                                origins[rejected], origins[order[1]]);
    } else if (r == GPUCOMPILE_ERROR_UNSUPPORTED) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND,
                                forced && *forced ? "bin_method '%s' is not available (see the notes above)"
                                : "no way to make a cubin: nvJitLink, ptxas and the CUDA driver are all unavailable%s",
                                forced && *forced ? forced : "");
    }
    if (r != GPUCOMPILE_OK) {
        gpucompile_job_free(job, *log);
        *log = NULL;
    }
    return r;
}

/* fatbinary -64 --create out --image3=kind=elf,sm=NN,file=cubin --image3=kind=ptx,sm=MM,file=ptx,
   run in the temporary directory with the files' own names: a path with ',' or '"' in it
   cannot be given in --image3's syntax. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__fatbin(gpucompile_job *job, const char *ptx, size_t ptx_size,
    const unsigned char *cubin, size_t cubin_size) {
    char tool[GPUCOMPILE_NVPTX__PATH], fptx[GPUCOMPILE_NVPTX__PATH], fcubin[GPUCOMPILE_NVPTX__PATH], fout[GPUCOMPILE_NVPTX__PATH];
    char create[GPUCOMPILE_NVPTX__PATH + 16], elf[GPUCOMPILE_NVPTX__PATH + 64], text[GPUCOMPILE_NVPTX__PATH + 64];
    const char *argv[6];
    char *out = NULL;
    int st = -1;
    gpucompile_result r;
    if (!gpucompile_nvptx__find_tool(job, "fatbinary", tool, sizeof tool))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND,
                                   "fatbinary not found (%s)", gpucompile_job_tool_path(job, "fatbinary") ? tool : "not in the toolkit nor on PATH");
    if ((r = gpucompile_job_temp_file(job, ".ptx", fptx, sizeof fptx)) != GPUCOMPILE_OK ||
        (r = gpucompile_job_temp_file(job, ".cubin", fcubin, sizeof fcubin)) != GPUCOMPILE_OK ||
        (r = gpucompile_job_temp_file(job, ".fatbin", fout, sizeof fout)) != GPUCOMPILE_OK ||
        (r = gpucompile_job_write_temp(job, fptx, ptx, ptx_size)) != GPUCOMPILE_OK ||
        (r = gpucompile_job_write_temp(job, fcubin, cubin, cubin_size)) != GPUCOMPILE_OK)
        return r;
#if !defined(_WIN32)
    if (tool[0] != '/' && strchr(tool, '/')) { /* a relative path would name another file there */
        char abs[PATH_MAX];
        if (realpath(tool, abs) && strlen(abs) < sizeof tool) strcpy(tool, abs);
    }
#endif
    snprintf(create, sizeof create, "--create=%s", strrchr(fout, '/') + 1);
    snprintf(elf, sizeof elf, "--image3=kind=elf,sm=%s,file=%s", gpucompile_nvptx__sm(gpucompile_target_chip(job->target)), strrchr(fcubin, '/') + 1);
    snprintf(text, sizeof text, "--image3=kind=ptx,sm=%s,file=%s", gpucompile_nvptx__sm(job->cpu), strrchr(fptx, '/') + 1);
    argv[0] = tool;
    argv[1] = "-64";
    argv[2] = create;
    argv[3] = elf;
    argv[4] = text;
    argv[5] = NULL;
    {
        char dir[GPUCOMPILE_NVPTX__PATH];
        snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(fout, '/') - fout), fout);
        if ((r = gpucompile_job_run_tool_in(job, dir, argv, 0, &st, &out, NULL)) != GPUCOMPILE_OK) return r;
    }
    if (st != 0) {
        gpucompile_nvptx__log_lines(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_TOOL, "fatbinary", out);
        gpucompile_job_free(job, out);
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_TOOL, "fatbinary", "fatbinary exited with status %d", st);
        return GPUCOMPILE_ERROR_TOOL;
    }
    gpucompile_nvptx__log_lines(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "fatbinary", out);
    gpucompile_job_free(job, out);
    if (gpucompile_read_file(fout, &job->options->allocator, &job->result_data, &job->result_size) != GPUCOMPILE_OK || !job->result_size) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_TOOL, "fatbinary", "fatbinary wrote nothing to '%s'", fout);
        return GPUCOMPILE_ERROR_TOOL;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__finish(gpucompile_job *job, gpucompile_format format) {
    const char *chip = gpucompile_target_chip(job->target);
    size_t ptx_size = 0, cubin_size = 0;
    char *ptx = gpucompile_nvptx__ptx(job, &ptx_size), *log = NULL;
    unsigned char *cubin = NULL;
    gpucompile_result r;
    if (!ptx) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (format == GPUCOMPILE_FORMAT_ISA) {
        job->result_data = (unsigned char *)ptx;
        job->result_size = ptx_size;
        return GPUCOMPILE_OK;
    }
    r = gpucompile_nvptx__cubin(job, ptx, ptx_size, chip, &cubin, &cubin_size, &log);
    if (r == GPUCOMPILE_OK) {
        if (log) gpucompile_nvptx__log_metadata(job, log);
        gpucompile_nvptx__elf_metadata(job->object, cubin, cubin_size, 0);
        if (format == GPUCOMPILE_FORMAT_FATBIN) r = gpucompile_nvptx__fatbin(job, ptx, ptx_size, cubin, cubin_size);
        else {
            job->result_data = cubin;
            job->result_size = cubin_size;
            cubin = NULL;
        }
    }
    gpucompile_job_free(job, cubin);
    gpucompile_job_free(job, log);
    gpucompile_job_free(job, ptx);
    return r;
}

/* ---- the backend ---------------------------------------------------------------------- */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__initialize(void) {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
}

GPUCOMPILE_PRIVATE int gpucompile_nvptx__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    /* clang 19 (OpenCL, CUDA) marks kernels with !nvvm.annotations {fn, !"kernel", i32 1}. */
    LLVMModuleRef m = LLVMGetGlobalParent(fn);
    unsigned i, n = LLVMGetNamedMetadataNumOperands(m, "nvvm.annotations");
    LLVMValueRef *nodes, ops[3];
    int found = 0;
    if (LLVMGetFunctionCallConv(fn) == 71 /* ptx_kernel */) return 1;
    if (!n || !(nodes = (LLVMValueRef *)gpucompile_job_alloc(job, n * sizeof *nodes))) return 0;
    LLVMGetNamedMetadataOperands(m, "nvvm.annotations", nodes);
    for (i = 0; i < n && !found; i++) {
        unsigned len;
        const char *s;
        if (LLVMGetMDNodeNumOperands(nodes[i]) != 3) continue;
        LLVMGetMDNodeOperands(nodes[i], ops);
        s = ops[1] && LLVMIsAMDString(ops[1]) ? LLVMGetMDString(ops[1], &len) : NULL;
        found = ops[0] == fn && s && len == 6 && memcmp(s, "kernel", 6) == 0;
    }
    gpucompile_job_free(job, nodes);
    return found;
}

/* The toolkit root the environment picks (a given one is in the key already). */
GPUCOMPILE_PRIVATE void gpucompile_nvptx__cache_key(gpucompile_job *job, char *buf, size_t size) {
    const char *given = job->options->toolkit_path;
    buf[0] = 0;
    if (!(given && *given)) gpucompile_nvptx__toolkit(job, buf, size);
}

/* ---- module checks: valid IR that NVPTX aborts or crashes on ---- */
/* NVPTX survives every calling convention but AMDGPU's own (87-105), refused as foreign. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__calling_convention_ok(unsigned cc) { return cc < 87 || cc > 105; }

/* "Symbol name with unsupported characters": anything but [A-Za-z0-9_$.] in a visible name. */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__bad_symbol_name(const char *p) {
    for (; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '$' || *p == '.'))
            return "PTX names may hold only letters, digits, '_', '$' and '.'";
    return NULL;
}

GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__bad_address_space(unsigned as) {
    return as != 0 && as != 1 && (as < 3 || as > 5) && as != 101 ? "an address space NVPTX lacks" : NULL;
}

/* Conversions between floats and integers wider than 128 bits cannot be selected. */
GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__bad_instruction(LLVMValueRef in) {
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    if (op == LLVMFPToSI || op == LLVMFPToUI || op == LLVMSIToFP || op == LLVMUIToFP) {
        LLVMTypeRef t = op == LLVMFPToSI || op == LLVMFPToUI ? LLVMTypeOf(in) : LLVMTypeOf(LLVMGetOperand(in, 0));
        if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) t = LLVMGetElementType(t);
        if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 128) return "conversions between floats and integers wider than 128 bits";
    }
    return NULL;
}

GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__bad_global(LLVMValueRef g) {
    LLVMValueRef init = LLVMIsDeclaration(g) ? NULL : LLVMGetInitializer(g);
    if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && init && !LLVMIsUndef(init))
        return "shared memory (address space 3) with an initial value";
    return NULL;
}

/* NVPTX segfaults on an !nvvm.annotations entry that is not {value, (!"name", integer)*}. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__annotations_ok(gpucompile_job *job) {
    LLVMModuleRef m = job->module;
    unsigned i, j, n = LLVMGetNamedMetadataNumOperands(m, "nvvm.annotations");
    LLVMValueRef *nodes, ops[64];
    int ok = 1;
    if (!n) return 1;
    nodes = (LLVMValueRef *)gpucompile_job_alloc(job, n * sizeof *nodes);
    if (!nodes) return 0;
    LLVMGetNamedMetadataOperands(m, "nvvm.annotations", nodes);
    for (i = 0; i < n && ok; i++) {
        unsigned k = (unsigned)LLVMGetMDNodeNumOperands(nodes[i]);
        if (k > 64 || k % 2 == 0) { ok = 0; break; }
        LLVMGetMDNodeOperands(nodes[i], ops);
        for (j = 1; j < k && ok; j += 2)
            ok = ops[j] && ops[j + 1] && LLVMIsAMDString(ops[j]) && LLVMIsAConstantInt(ops[j + 1]);
    }
    gpucompile_job_free(job, nodes);
    return ok;
}

GPUCOMPILE_PRIVATE int gpucompile_nvptx__bad_metadata(gpucompile_job *job) {
    if (gpucompile_nvptx__annotations_ok(job)) return 0;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                       "!nvvm.annotations: each entry must be {value, !\"name\", integer, ...}");
    return 1;
}

/* By-value aggregates: NVPTX aborts from 64 KiB; CUDA allows 32764 bytes of parameters. */
static const gpucompile_code_rules gpucompile_nvptx__code_rules = { /* in gpucompile_code_rules' order */
    32764,                               /* max_param_bytes */
    gpucompile_nvptx__bad_address_space, /* bad_address_space */
    gpucompile_nvptx__bad_instruction,   /* bad_instruction */
    gpucompile_nvptx__bad_global,        /* bad_global */
    gpucompile_nvptx__bad_metadata};     /* bad_metadata */

/* ---- targets: chips, verification ---- */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__chip_supported(const char *chip) { return gpucompile_nvptx__chip_of(chip) != NULL; }

GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__chip_name(int index, int *native) {
    int i;
    for (i = 0; gpucompile_nvptx__chips[i].name; i++)
        if (i == index) {
            if (native) *native = !(gpucompile_nvptx__chips[i].bits & GPUCOMPILE_NVPTX__FORWARD);
            return gpucompile_nvptx__chips[i].name;
        }
    return NULL;
}

/* A triple of this backend (another's would hand our chip name to that LLVM backend, which may
   abort on it) and a chip this LLVM knows. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_nvptx__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t), *chip = gpucompile_target_chip(t);
    if (!gpucompile_triple_in(GPUCOMPILE_NVPTX__TRIPLES, triple))
        return gpucompile_log_target(logger, "The target triple '%.200s' is not an NVPTX triple (nvptx64-... or nvptx-...).", triple);
    if (!gpucompile_nvptx__chip_supported(chip))
        return gpucompile_log_target(logger, "The chip '%.200s' is not supported by LLVM %d (NVPTX).", chip, LLVM_VERSION_MAJOR);
    return GPUCOMPILE_OK;
}

/* #gpu.kernel_metadata: MLIR's NVVM target gives none, so the CUDA driver's function attribute
   names (CU_FUNC_ATTRIBUTE_NUM_REGS -> num_regs). */
static const char *const gpucompile_nvptx__kernel_metadata[8] = {
    "num_regs", "shared_size_bytes", "local_size_bytes", "max_threads_per_block", NULL, NULL, NULL, NULL};

/* ---- run-time selection: the rules are in [section: the CUDA driver and selection] ---- */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__select_score(const gpucompile_object *o, const char *device, const char **why) {
    return gpucompile_nvptx__score(o ? o->triple : NULL, o ? o->chip : NULL, o ? gpucompile_format_string(o->format) : NULL, NULL, device, why);
}

GPUCOMPILE_PRIVATE void gpucompile_nvptx__fill(gpucompile_backend *t) {
    gpucompile_backend_names(t, GPUCOMPILE_TARGET_NVPTX, "nvptx", "gpu.nvptx", "nvvm.target", "nvptx64-nvidia-cuda", "sm_50");
    t->intrinsic_prefixes = "nvvm";
    /* The CUDA system calls that ptxas and nvJitLink resolve themselves (device printf,
       malloc/free, assert), beside the reflect call that the pipeline folds. */
    t->allowed_undefined = "__nvvm_reflect,vprintf,malloc,free,__assertfail";
    t->shared_address_space = 3;
    t->initialize = gpucompile_nvptx__initialize;
    t->configure = gpucompile_nvptx__configure;
    t->prepare = gpucompile_nvptx__prepare;
    t->libraries = gpucompile_nvptx__libraries;
    t->post_link = gpucompile_nvptx__post_link;
    t->is_kernel = gpucompile_nvptx__is_kernel;
    t->bin_from = LLVMAssemblyFile;
    t->finish = gpucompile_nvptx__finish;
    t->join = gpucompile_nvptx__join;
    t->find_kernels = gpucompile_nvptx__find_kernels;
    /* gpucompile's own spelling #gpu.nvptx keeps "+ptx60" on every LLVM (tests/test_target.c,
       test_defaults); MLIR 22's #nvvm.target has no default PTX
       version (the chip's minimum is taken then) */
    t->defaults[0].features = "+ptx60";
    t->defaults[1].features = LLVM_VERSION_MAJOR >= 22 ? "" : "+ptx60";
    /* MLIR 22's #nvvm.target parameters, all of them (verifyTarget: see
       gpucompile_target.no_verify_target), for both spellings */
    t->params[0] = "O,triple,chip,features,flags,link,verifyTarget";
    t->verify = gpucompile_nvptx__verify;
    t->chip_supported = gpucompile_nvptx__chip_supported;
    t->chip_name = gpucompile_nvptx__chip_name;
    t->calling_convention_ok = gpucompile_nvptx__calling_convention_ok;
    t->bad_symbol_name = gpucompile_nvptx__bad_symbol_name;
    t->code_rules = &gpucompile_nvptx__code_rules;
    t->triples = GPUCOMPILE_NVPTX__TRIPLES;
    t->select_score = gpucompile_nvptx__select_score;
    t->device_help = "sm_XY, a compute capability";
    t->offload_kind = 2;  /* LLVM's OFK_Cuda */
    t->image_kind_isa = GPUCOMPILE_NVPTX__IMG_PTX;
    t->image_kind_bin = GPUCOMPILE_NVPTX__IMG_CUBIN;
    t->image_kind_fatbin = GPUCOMPILE_NVPTX__IMG_FATBIN;
    t->image_format = gpucompile_nvptx__image_format;
    t->kernel_metadata = gpucompile_nvptx__kernel_metadata;
    t->formats = 1u << GPUCOMPILE_FORMAT_LLVM | 1u << GPUCOMPILE_FORMAT_ISA | 1u << GPUCOMPILE_FORMAT_BIN | 1u << GPUCOMPILE_FORMAT_FATBIN;
    t->cache_key = gpucompile_nvptx__cache_key;
    t->file_ext[GPUCOMPILE_FORMAT_ISA] = "ptx";
    t->file_ext[GPUCOMPILE_FORMAT_BIN] = "cubin";
    t->help = "NVIDIA GPUs: PTX, cubin (with the CUDA toolkit, no GPU needed) and fatbin\n"
              "--toolkit: the CUDA root (else CUDA_PATH, CUDA_HOME, CUDA_ROOT)\n"
              "--bin-method nvjitlink | ptxas | driver, no fallback (default: nvJitLink\n"
              "  below 512 KiB of PTX, else ptxas; the other when the first fails)\n"
              "--opts: for ptxas / nvJitLink; --tool ptxas, fatbinary, nvJitLink, libcuda";
}

GPUCOMPILE_BACKEND_DEFINE(nvptx)

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_NVPTX_IMPLEMENTATION */

/* ==== [section: runtime (host embedding)] ================================================
   The CUDA driver behind the mgpu* runtime (gpucompile_runtime.h), for host code made by
   gpucompile_embed_binary / `gpucompile --host`. Opt in: define GPUCOMPILE_NVPTX_RUNTIME in one
   file (instead of linking MLIR's libmlir_cuda_runtime); it needs neither gpucompile.h nor
   LLVM: `cc prog.c host.o -ldl -lpthread`. libcuda.so.1 (nvcuda.dll) is opened on first use,
   or the library named by gpucompile_runtime_set_library() / $GPUCOMPILE_LIBCUDA; the device
   is mgpuSetDefaultDevice's (default 0) and its primary context is made current around each
   call, as MLIR's wrappers do. A missing driver, the toolkit's stub libcuda
   (CUDA_ERROR_STUB_LIBRARY) or no device is reported once, clearly, and remembered; every
   later call fails quietly (NULL / nothing). One vendor runtime per program. */
#if defined(GPUCOMPILE_NVPTX_RUNTIME) && !defined(GPUCOMPILE_NVPTX_RUNTIME_IMPLEMENTED)
#define GPUCOMPILE_NVPTX_RUNTIME_IMPLEMENTED
#define GPUCOMPILE_RUNTIME_VENDOR /* gpucompile_runtime.h refuses a second vendor runtime */
#include "gpucompile_runtime.h"
/* gpucompile_runtime.h's implementation: included by [section: the CUDA driver and selection] */
#ifdef __cplusplus
extern "C" {
#endif

static gpucompile_nvptx__driver gpucompile_nvptx__cu; /* the runtime's driver */
static void *gpucompile_nvptx__rt_context;            /* the device's primary context */

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_check(int r, const char *call) {
    char msg[256];
    /* 4, CUDA_ERROR_DEINITIALIZED: the process ends and the driver has shut down before the host
       module's destructor unloads its modules (seen on an H200): nothing left to do or say */
    if (r == 0 || r == 4) return;
    snprintf(msg, sizeof msg, "%s (%d)", gpucompile_nvptx__cu_error(&gpucompile_nvptx__cu, r), r);
    gpucompile_runtime_report(call, r, msg);
}

GPUCOMPILE_PRIVATE const char *gpucompile_nvptx__rt_load(void *lib) { return gpucompile_nvptx__cu_load(lib, &gpucompile_nvptx__cu, 'R'); }

/* cuInit first (the stub answers it with CUDA_ERROR_STUB_LIBRARY), then the device's primary
   context and compute capability. */
GPUCOMPILE_PRIVATE int gpucompile_nvptx__rt_start(int *dev, char *arch, size_t arch_size, const char **call) {
    const gpucompile_nvptx__driver *d = &gpucompile_nvptx__cu;
    int major = 0, minor = 0, r;
    *call = "cuInit";
    r = d->cuInit(0);
    if (r == 0) { *call = "cuDeviceGet"; r = d->cuDeviceGet(dev, *dev); }
    if (r == 0) { *call = "cuDevicePrimaryCtxRetain"; r = d->cuDevicePrimaryCtxRetain(&gpucompile_nvptx__rt_context, *dev); }
    if (r == 0) { *call = "cuDeviceGetAttribute"; r = d->cuDeviceGetAttribute(&major, 75, *dev); }
    if (r == 0) r = d->cuDeviceGetAttribute(&minor, 76, *dev);
    if (r == 0) snprintf(arch, arch_size, "sm_%d%d", major, minor);
    return r;
}

/* A driver call, reported under the name of the function called. */
#define GPUCOMPILE_NVPTX__CU(name, args) gpucompile_nvptx__rt_check(gpucompile_nvptx__cu.cu##name args, "cu" #name)

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_enter(void) { GPUCOMPILE_NVPTX__CU(CtxPushCurrent, (gpucompile_nvptx__rt_context)); }

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_leave(void) {
    void *ctx;
    gpucompile_nvptx__cu.cuCtxPopCurrent(&ctx);
}

GPUCOMPILE_RUNTIME_DRIVER_ENTRIES(gpucompile_nvptx__rt_, GPUCOMPILE_NVPTX__CU)

GPUCOMPILE_PRIVATE void *gpucompile_nvptx__rt_module_load_jit(const void *data, int level) {
    void *module = NULL, *values[3];
    char log[4096];
    int options[3], r;
    log[0] = 0;
    options[0] = 5; /* CU_JIT_ERROR_LOG_BUFFER */
    values[0] = log;
    options[1] = 6; /* CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES */
    values[1] = (void *)(size_t)sizeof log;
    options[2] = 7; /* CU_JIT_OPTIMIZATION_LEVEL */
    values[2] = (void *)(size_t)level;
    r = gpucompile_nvptx__cu.cuModuleLoadDataEx(&module, data, 3, options, values);
    if (r != 0 && log[0]) gpucompile_runtime_report("cuModuleLoadDataEx", r, log); /* ptxas's words first */
    gpucompile_nvptx__rt_check(r, "cuModuleLoadDataEx");
    return module;
}

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_launch(void *fn, const unsigned g[3], const unsigned b[3], unsigned smem, void *stream,
                                                     void **params, void **extra) {
    if (smem > 48 * 1024) /* above 48 KiB the kernel must opt in, as MLIR's wrappers do */
        GPUCOMPILE_NVPTX__CU(FuncSetAttribute, (fn, 8 /* CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES */, (int)smem));
    GPUCOMPILE_NVPTX__CU(LaunchKernel, (fn, g[0], g[1], g[2], b[0], b[1], b[2], smem, stream, params, extra));
}

GPUCOMPILE_PRIVATE void *gpucompile_nvptx__rt_stream_create(void) {
    void *stream = NULL;
    GPUCOMPILE_NVPTX__CU(StreamCreate, (&stream, 1 /* CU_STREAM_NON_BLOCKING */));
    return stream;
}

/* CUDA's device pointers are integers (CUdeviceptr) */
GPUCOMPILE_PRIVATE void *gpucompile_nvptx__rt_mem_alloc(uint64_t size, int host_shared) {
    unsigned long long p = 0;
    if (host_shared) GPUCOMPILE_NVPTX__CU(MemAllocManaged, (&p, (size_t)size, 1));
    else GPUCOMPILE_NVPTX__CU(MemAlloc, (&p, (size_t)size));
    return (void *)(uintptr_t)p;
}

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_mem_free(void *ptr) { GPUCOMPILE_NVPTX__CU(MemFree, ((unsigned long long)(uintptr_t)ptr)); }

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_mem_copy(void *dst, const void *src, size_t n, void *stream) {
    GPUCOMPILE_NVPTX__CU(MemcpyAsync, ((unsigned long long)(uintptr_t)dst, (unsigned long long)(uintptr_t)src, n, stream));
}

GPUCOMPILE_PRIVATE void gpucompile_nvptx__rt_mem_set32(void *dst, unsigned value, size_t count, void *stream) {
    GPUCOMPILE_NVPTX__CU(MemsetD32Async, ((unsigned long long)(uintptr_t)dst, value, count, stream));
}

/* The vendor behind mgpu*. */
GPUCOMPILE_RUNTIME_VENDOR_DEFINE(gpucompile_nvptx__rt_) {
    v->name = "CUDA"; v->launch_call = "cuLaunchKernel"; v->kind = "a CUDA driver library";
    v->env = "GPUCOMPILE_LIBCUDA"; v->library = GPUCOMPILE_NVPTX__LIBCUDA;
    v->what = "the CUDA driver"; v->hint = "no NVIDIA driver installed?";
    v->score = gpucompile_nvptx__score;
    v->image_format = gpucompile_nvptx__image_format;
    v->enter = gpucompile_nvptx__rt_enter;
    v->leave = gpucompile_nvptx__rt_leave;
    v->module_load_jit = gpucompile_nvptx__rt_module_load_jit;
    v->null_stream_async = 1;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_NVPTX_RUNTIME */
