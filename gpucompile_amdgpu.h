/* gpucompile_amdgpu.h - the AMDGPU backend of gpucompile: #gpu.amdgpu / #rocdl.target to an
   HSA code object (ROCm device libraries chosen by flags, chip and ABI; object, then ld.lld).

   Include gpucompile.h first, except for the mgpu* runtime alone (GPUCOMPILE_AMDGPU_RUNTIME: the HIP behind
   gpucompile_runtime.h), which needs this header only, no LLVM: cc prog.c host.o -ldl -lpthread.
   The implementation is compiled where GPUCOMPILE_IMPLEMENTATION or GPUCOMPILE_AMDGPU_IMPLEMENTATION
   is defined (gpucompile.h's "Do this": which files, and linking that object); it registers
   itself at start-up, so #gpu.amdgpu targets compile with no further call.

   Linking: nothing beyond the core's line (LLVM's C API, -ldl -lpthread). ld.lld runs as a
   child process; the HIP runtime (only for GPUCOMPILE_AMDGPU_RUNTIME) is opened at run time
   (libamdhip64.so; Windows: amdhip64.dll). No GPU is needed to compile.
   Configuration: GPUCOMPILE_DEFAULT_ROCM_PATH (a ROCm root tried after the environment);
   GPUCOMPILE_AMDGPU_RUNTIME (the mgpu* runtime over HIP, see its section).

   Usage
       static const char *const flags[] = {"daz"};
       gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
       gpucompile_options o;
       gpucompile_object *hsaco = NULL;
       memset(&o, 0, sizeof o);
       t.chip = "gfx90a:xnack-";                  // a target ID: features after the chip
       t.flags = flags;
       t.num_flags = 1;
       if (gpucompile_compile_file("k.ll", &t, &o, &hsaco) == GPUCOMPILE_OK)
           printf("%s: %d VGPRs, wave%d\n", hsaco->kernels[0].name, hsaco->kernels[0].vgprs,
                  hsaco->kernels[0].wavefront_size);
       gpucompile_object_free(hsaco);

   Threads, ownership, guarantees: the core's (each compile has its own context and machine;
   ld.lld's temp files are always removed). Supported: LLVM 19 to 22 (the chips each one's
   llc lists: gfx600 ... gfx1201 and the generic targets on 19; gfx950, gfx9-4-generic,
   gfx1153 from 20; gfx1250 from 21, gfx1251 on 22; gfx940/941 up to 20); ROCm device libraries
   5.2 (Debian's rocm-device-libs) and newer layouts.

   What a compile does
       chip     "gfx90a:xnack+" or "gfx942:sramecc-:xnack+": the target-ID features become
                target features (+xnack, -sramecc); the target machine gets the bare chip.
       wave     gfx10 and newer run wave32 or wave64: wave32 unless the flag `wave64` (or the
                feature +wavefrontsize64) asks for 64; the feature +wavefrontsize32/64 is always
                set, so the code generator and oclc_wavefrontsize64 agree. gfx9 and older are
                wave64 only: `no_wave64` (or +wavefrontsize32) is an error there. (MLIR's
                hasWave64, gpucompile_target_wave64, says 64 unless no_wave64: that only
                picks the library, and on gfx10+ disagrees with LLVM's wave32 code.)
       fn attrs "target-features" on functions are dropped (they would override the
                target machine); one that contradicts the target is an error naming the
                function: a wave size other than the target's (+wavefrontsize32 for gfx90a),
                xnack or sramecc on where the target says off or the reverse (+xnack for
                gfx90a:xnack-). Agreeing ones, and xnack/sramecc where the target leaves the
                mode open, are fine.
       abi      "400", "500" or "600": module flag amdhsa_code_object_version (code object v4,
                v5 or v6, replacing a value the input has) and __oclc_ABI_version, the same value.
                The default is "500", but "600" for #rocdl.target on LLVM 22+ (as in MLIR 22).
                The generic targets (gfx9-generic, gfx11-generic, ...) need "600". A v6 object
                needs a runtime that loads code object v6: ROCm 6.3 or newer (older HIP
                runtimes refuse it). ROCm device libraries before 6.3 (Debian's 5.2) have no
                oclc_abi_version_600.bc: the variable is defined instead, as below.
       libs     only when the module calls __ocml_* / __ockl_*: ocml, ockl, then the oclc
                control libraries: daz_opt (flag daz), unsafe_math (unsafe_math or fast),
                finite_only (finite_only or fast), correctly_rounded_sqrt (on unless
                unsafe_sqrt), wavefrontsize64 (as above), isa_version_<chip>,
                abi_version_<abi>. A control file that the installation lacks is replaced by
                the variable it would define (a remark says so).
       bin      the ELF object from LLVM, made the hsaco `ld.lld -shared --no-undefined` would
                make: written in-process, byte for byte lld's, when the object holds only what
                the writer knows (else, or with bin_method "lld", ld.lld runs; "elf": the writer
                only); kernel resources are read from its NT_AMDGPU_METADATA note.
       LDS      HIP's `extern __shared__` (an external addrspace(3) global) stays external
                until LLVM lays it out after the static LDS (as llc does), so the hsaco links
                with --no-undefined; an unsized one is dynamic LDS: code object v5 kernels that
                reach it get the hidden_dynamic_lds_size argument, and kernel.dynamic_shared
                says which.

   Where the device libraries are looked for (the first directory holding ocml.bc)
       roots: options.toolkit_path alone when given; else $ROCM_PATH, $ROCM_HOME, $ROCM_ROOT,
       GPUCOMPILE_DEFAULT_ROCM_PATH (a macro, when defined at build time), /opt/rocm, /usr.
       In each root: amdgcn/bitcode, lib/llvm/amdgcn/bitcode, lib/llvm/lib/clang/<v>/lib/amdgcn/bitcode,
       lib/<multiarch>/amdgcn/bitcode (Debian's rocm-device-libs).
   ld.lld: options.tools "ld.lld"; else <root>/llvm/bin/ld.lld or <root>/lib/llvm/bin/ld.lld for
       the roots above (but /usr); /usr/lib/llvm-<LLVM major>/bin/ld.lld; ld.lld-<major>, then
       ld.lld on PATH.

   Known difference from MLIR: MLIR erases the named metadata llvm.ident and opencl.ocl.version
   from each device library before linking. LLVM's C API cannot erase named metadata, so they
   are linked as llvm-link links them: llvm.ident only adds strings to .comment; because of
   opencl.ocl.version, kernels that call the device libraries are labelled ".language: OpenCL C"
   (version 2.0) in the metadata note; the code is the same as llvm-link's.
*/
#ifndef GPUCOMPILE_AMDGPU_H
#define GPUCOMPILE_AMDGPU_H
#if defined(GPUCOMPILE_H)
#ifdef __cplusplus
extern "C" {
#endif

/* The backend table (also registered automatically). */
GPUCOMPILE_API const gpucompile_backend *gpucompile_amdgpu_backend(void);

/* Reads one kernel's resources from an hsaco's AMDGPU metadata note (msgpack): fills sgprs,
   vgprs, shared_bytes (group segment), private_bytes, wavefront_size, kernarg_bytes and
   max_threads (max flat workgroup size) of *k, -1 where the note has no value; other fields
   are left alone. GPUCOMPILE_ERROR_INVALID_BINARY when data is not a 64-bit ELF with that note
   or the note has no kernel of that name. Never reads outside data[0, size). */
GPUCOMPILE_API gpucompile_result gpucompile_amdgpu_kernel_metadata(const void *data, size_t size, const char *name,
                                                                   gpucompile_kernel *k);

#ifdef __cplusplus
}
#endif
#elif !defined(GPUCOMPILE_AMDGPU_RUNTIME)
#error "gpucompile_amdgpu.h: include gpucompile.h first (or define GPUCOMPILE_AMDGPU_RUNTIME for the runtime alone)"
#endif
#endif /* GPUCOMPILE_AMDGPU_H */

/* ==== [section: selection] ===============================================================
   What the backend and the runtime share, with no LLVM: the rules that pick an object for a
   device. */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_AMDGPU_IMPLEMENTATION) || defined(GPUCOMPILE_AMDGPU_RUNTIME)) && \
    !defined(GPUCOMPILE_AMDGPU__SELECTION_IMPLEMENTED)
#define GPUCOMPILE_AMDGPU__SELECTION_IMPLEMENTED
#if defined(GPUCOMPILE_AMDGPU_RUNTIME) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_AMDGPU_IMPLEMENTATION)) && !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif
/* A device as selection sees it: the processor, its xnack / sramecc settings (0 unset, 1 on,
   -1 off). */
typedef struct gpucompile_amdgpu__device {
    char name[32];
    int xnack, sramecc;
} gpucompile_amdgpu__device;

/* A target ID split: the chip is id[0, chip_len); xnack / sramecc are 0 when not given, 1 for
   "+", -1 for "-"; features holds them as LLVM features, in the ID's order ("-sramecc", "+xnack"). */
typedef struct gpucompile_amdgpu__id {
    size_t chip_len;
    int xnack, sramecc;
    const char *features[3];
} gpucompile_amdgpu__id;

/* The one reader of target IDs (LLVM's form: "gfx90a:sramecc-:xnack+", "gfx9-4-generic:xnack-"):
   NULL when every part after the chip is xnack or sramecc with its sign, each at most once; else
   the first part that is not (empty, without + or -, another feature, or given twice). Whether
   the chip exists, and has the feature, is for the caller to say. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__split_id(const char *id, gpucompile_amdgpu__id *out) {
    static const char *const names[2][2] = {{"+xnack", "-xnack"}, {"+sramecc", "-sramecc"}};
    const char *p;
    int n = 0;
    memset(out, 0, sizeof *out);
    out->chip_len = strcspn(id, ":");
    for (p = id + out->chip_len; *p; n++) {
        const char *f = p + 1;
        size_t len = strcspn(f, ":");
        int which = len == 6 && strncmp(f, "xnack", 5) == 0 ? 0 : len == 8 && strncmp(f, "sramecc", 7) == 0 ? 1 : -1;
        int *mode = which == 0 ? &out->xnack : &out->sramecc;
        if (which < 0 || (f[len - 1] != '+' && f[len - 1] != '-') || *mode) return f;
        *mode = f[len - 1] == '+' ? 1 : -1;
        out->features[n] = names[which][*mode < 0];
        p = f + len;
    }
    return NULL;
}

/* "gfx90a", "gfx90a:xnack+:sramecc-"; 0 when not such a name. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__device_of(const char *s, gpucompile_amdgpu__device *c) {
    gpucompile_amdgpu__id id;
    memset(c, 0, sizeof *c);
    if (!s || strncmp(s, "gfx", 3) != 0 || gpucompile_amdgpu__split_id(s, &id) || id.chip_len >= sizeof c->name) return 0;
    memcpy(c->name, s, id.chip_len);
    c->name[id.chip_len] = 0;
    c->xnack = id.xnack;
    c->sramecc = id.sramecc;
    return 1;
}

/* +1 / -1 when a comma-separated list has +name / -name (the last one wins), else 0. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__feature_sign(const char *list, size_t len, const char *name) {
    size_t n = strlen(name), i = 0;
    int sign = 0;
    while (i < len) {
        size_t e = i;
        while (e < len && list[e] != ',') e++;
        if (e - i == n + 1 && (list[i] == '+' || list[i] == '-') && memcmp(list + i + 1, name, n) == 0) sign = list[i] == '+' ? 1 : -1;
        i = e + 1;
    }
    return sign;
}

/* LLVM's generic targets and the chips each runs on. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__generic_covers(const char *generic, const char *chip) {
    static const char *const table[][2] = {
        {"gfx9-generic", "gfx900,gfx902,gfx904,gfx906,gfx909,gfx90c"},
        {"gfx10-1-generic", "gfx1010,gfx1011,gfx1012,gfx1013"},
        {"gfx10-3-generic", "gfx1030,gfx1031,gfx1032,gfx1033,gfx1034,gfx1035,gfx1036"},
        {"gfx11-generic", "gfx1100,gfx1101,gfx1102,gfx1103,gfx1150,gfx1151,gfx1152"},
        {"gfx12-generic", "gfx1200,gfx1201"}};
    size_t i;
    for (i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(generic, table[i][0]) == 0) return gpucompile_in_list(table[i][1], chip, strlen(chip));
    return 0;
}

#define GPUCOMPILE_AMDGPU__TRIPLES "amdgcn" /* the triples' architecture */

/* How well an object (its triple, chip, format "bin", "isa", ...; NULL: none, and its target's
   features) serves device: -2 when device is not AMD's, -1 not at all (another triple's object
   among them), higher is better. An hsaco for the processor beats one for a generic target that
   covers it; xnack / sramecc (in the chip's target ID or the features, "+xnack") must not
   contradict the device's. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__score(const char *triple, const char *chip, const char *format, const char *features,
                                                 const char *device, const char **why) {
    gpucompile_amdgpu__device d, c;
    int score;
    if (!gpucompile_amdgpu__device_of(device, &d)) return -2;
    if (!format || !gpucompile_triple_in(GPUCOMPILE_AMDGPU__TRIPLES, triple) || !gpucompile_amdgpu__device_of(chip, &c)) return -1;
    if (strcmp(format, "bin") != 0) return -1;
    if (strcmp(c.name, d.name) == 0) { score = 100; *why = "hsaco for the processor"; }
    else if (gpucompile_amdgpu__generic_covers(c.name, d.name)) { score = 50; *why = "hsaco for a generic target"; }
    else return -1;
    if (features) { /* read as the compile reads them */
        if (!c.xnack) c.xnack = gpucompile_amdgpu__feature_sign(features, strlen(features), "xnack");
        if (!c.sramecc) c.sramecc = gpucompile_amdgpu__feature_sign(features, strlen(features), "sramecc");
    }
    if ((c.xnack && d.xnack && c.xnack != d.xnack) || (c.sramecc && d.sramecc && c.sramecc != d.sramecc)) return -1;
    /* both set and equal beats unset on the object, which beats set on the object only */
    score += (c.xnack ? (d.xnack ? 4 : 0) : 2) + (c.sramecc ? (d.sramecc ? 4 : 0) : 2);
    return score;
}
#ifdef __cplusplus
}
#endif
#endif /* selection */

/* ==== [section: backend] ================================================================= */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_AMDGPU_IMPLEMENTATION)) && !defined(GPUCOMPILE_AMDGPU_IMPLEMENTED)
#define GPUCOMPILE_AMDGPU_IMPLEMENTED
#include <limits.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Debian's multiarch directory name, where rocm-device-libs puts the bitcode. */
#if defined(__x86_64__)
#define GPUCOMPILE_AMDGPU__MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define GPUCOMPILE_AMDGPU__MULTIARCH "aarch64-linux-gnu"
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define GPUCOMPILE_AMDGPU__MULTIARCH "powerpc64le-linux-gnu"
#endif

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__initialize(void) {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
}

GPUCOMPILE_PRIVATE int gpucompile_amdgpu__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    (void)job;
    unsigned cc = LLVMGetFunctionCallConv(fn);
    return cc == 91 /* amdgpu_kernel */ || cc == 76 /* spir_kernel, which LLVM treats as one */;
}

/* ---- what the target asks for ---------------------------------------------------------- */
/* Everything derived from the target, computed once per job (init) into job->backend_data. */
typedef struct gpucompile_amdgpu__config {
    int valid;              /* the target passed; else configure says why */
    char chip[64];          /* gfx90a: the chip without target-ID features */
    const char *isa;        /* "90a": chip + 3, names oclc_isa_version_<isa>.bc */
    int isa_version;        /* __oclc_ISA_version: 1000 * major + 100 * minor + stepping */
    int major;
    int wave64;
    int abi;                /* 400, 500, 600 */
    char features[512];     /* the target's features + target-ID features + wave size */
} gpucompile_amdgpu__config;

GPUCOMPILE_PRIVATE int gpucompile_amdgpu__hex(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

/* ISA version of a chip name: gfx<major><minor><stepping>, the last two one hex digit each
   (gfx90a = 9.0.10 -> 9010, gfx1100 -> 11000); generic targets gfx<N>[-<M>]-generic -> N.M.0. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__isa_version(const char *chip, int *major) {
    const char *d = chip + 3;
    size_t n = strlen(chip), i;
    int maj = 0, minor, step;
    if (n < 6 || strncmp(chip, "gfx", 3) != 0) return -1;
    if (strstr(chip, "-generic")) {
        char *end;
        long a = strtol(d, &end, 10), b = 0;
        if (end == d || a <= 0 || a > 99) return -1;
        if (*end == '-' && end[1] >= '0' && end[1] <= '9') b = strtol(end + 1, &end, 10);
        if (strcmp(end, "-generic") != 0 || b > 9) return -1;
        *major = (int)a;
        return (int)(a * 1000 + b * 100);
    }
    for (i = 0; i + 2 < n - 3; i++) {
        if (d[i] < '0' || d[i] > '9') return -1;
        maj = maj * 10 + (d[i] - '0');
    }
    minor = gpucompile_amdgpu__hex(d[n - 5]);
    step = gpucompile_amdgpu__hex(d[n - 4]);
    if (maj <= 0 || maj > 99 || minor < 0 || step < 0) return -1;
    *major = maj;
    return maj * 1000 + minor * 100 + step;
}

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__add_feature(char *list, size_t size, const char *f) {
    size_t n = strlen(list);
    if (!*f || gpucompile_in_list(list, f, strlen(f))) return;
    snprintf(list + n, size - n, "%s%s", n ? "," : "", f);
}

/* Reads the target; on a refusal logs why (when log is set) and returns an error. */
/* The features a user may set: LLVM 19 prints unknown ones on stderr and dies on some real
   ones (-flat-address-space, -fp64, +requires-cov6 on gfx900), so only these pass. */
static const char gpucompile_amdgpu__features[] = "xnack,sramecc,wavefrontsize32,wavefrontsize64,cumode,tgsplit";

/* The first entry of a comma-separated feature list that is not +/- an allowed feature (xnack
   and sramecc: only on chips that have them; LLVM warns on stderr otherwise), or NULL. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__bad_feature(const char *chip, const char *list) {
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        char id[96]; /* chip (< 64) + ":" + feature + sign */
        if (n < 2 || (p[0] != '+' && p[0] != '-') || !gpucompile_in_list(gpucompile_amdgpu__features, p + 1, n - 1)) return p;
        if ((n == 6 || n == 8) && (strncmp(p + 1, "xnack", 5) == 0 || strncmp(p + 1, "sramecc", 7) == 0)) {
            snprintf(id, sizeof id, "%s:%.*s%c", chip, (int)n - 1, p + 1, p[0]);
            if (!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, id)) return p;
        }
        p += n;
        if (*p) p++;
    }
    return NULL;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__configure_from(gpucompile_job *job, int log, gpucompile_amdgpu__config *c) {
    const gpucompile_target *t = job->target;
    const char *chip = gpucompile_target_chip(t);
    const char *user = gpucompile_target_features(t), *abi = gpucompile_target_abi(t);
    gpucompile_amdgpu__id id;
    const char *bad = gpucompile_amdgpu__split_id(chip, &id);
    size_t base = id.chip_len, i;
    int want64 = gpucompile_target_has_flag(t, "wave64") || gpucompile_in_list(user, "+wavefrontsize64", 16);
    int want32 = gpucompile_target_has_flag(t, "no_wave64") || gpucompile_in_list(user, "+wavefrontsize32", 16);
    const char *why = NULL;
    memset(c, 0, sizeof *c);
    if (base >= sizeof c->chip || strlen(user) + strlen(chip) + 40 >= sizeof c->features) why = "the chip or features are too long";
    else {
        memcpy(c->chip, chip, base);
        c->isa = c->chip + 3;
        c->isa_version = gpucompile_amdgpu__isa_version(c->chip, &c->major);
        if (c->isa_version < 0) why = "not an AMDGPU chip name (gfx...)";
    }
    if (why) {
        if (log) gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "chip '%s': %s", chip, why);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    if ((why = gpucompile_amdgpu__bad_feature(c->chip, user)) != NULL) {
        int n = (int)strcspn(why, ",");
        if (log && n > 1 && gpucompile_in_list(gpucompile_amdgpu__features, why + 1, (size_t)n - 1))
            gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "feature '%.*s' is not available on %s", n, why, c->chip);
        else if (log)
            gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "feature '%.*s' is not supported for AMDGPU targets (allowed: +/- %s)",
                             n, why, gpucompile_amdgpu__features);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    snprintf(c->features, sizeof c->features, "%s", user);
    /* Target-ID features: ":xnack+" -> "+xnack", ":sramecc-" -> "-sramecc". */
    if (bad) {
        if (log) gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                  "chip '%s': '%.*s' is not a target-ID feature (xnack+, xnack-, sramecc+, sramecc-), or is repeated", chip,
                                  (int)strcspn(bad, ":"), bad);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    for (i = 0; id.features[i]; i++) gpucompile_amdgpu__add_feature(c->features, sizeof c->features, id.features[i]);
    if (want64 && want32) why = "wave64 and no_wave64 (or +wavefrontsize64 and +wavefrontsize32) contradict each other";
    else if (c->major < 10 && want32) why = "this chip runs wave64 only: no_wave64 / +wavefrontsize32 is not possible";
    if (why) {
        if (log) gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "chip '%s': %s", chip, why);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    /* gfx10+ defaults to wave32, as LLVM does; the feature makes the choice explicit. */
    c->wave64 = c->major < 10 || want64;
    if (c->major >= 10)
        gpucompile_amdgpu__add_feature(c->features, sizeof c->features, c->wave64 ? "+wavefrontsize64" : "+wavefrontsize32");
    c->abi = strcmp(abi, "400") == 0 ? 400 : strcmp(abi, "500") == 0 ? 500 : strcmp(abi, "600") == 0 ? 600 : 0;
    if (!c->abi) {
        if (log) gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET, "abi '%s': expected \"400\", \"500\" or \"600\" (code object v4, v5 or v6)", abi);
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    return GPUCOMPILE_OK;
}

/* The per-function "target-features" are stripped (they would override the target machine);
   those that contradict the target are an error, never a silent override: a wave size other
   than the target's, xnack or sramecc on where the target says off, or the reverse. Features
   that agree, or that the target leaves open (no xnack+/- in it), are fine. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__check_functions(gpucompile_job *job, const gpucompile_amdgpu__config *c) {
    static const char *const modes[] = {"xnack", "sramecc"};
    size_t tlen = strlen(c->features);
    LLVMValueRef fn;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-features", 15);
        unsigned len = 0;
        const char *f = a ? LLVMGetStringAttributeValue(a, &len) : NULL, *bad;
        int w32, w64, i;
        if (!f) continue;
        w32 = gpucompile_amdgpu__feature_sign(f, len, "wavefrontsize32");
        w64 = gpucompile_amdgpu__feature_sign(f, len, "wavefrontsize64");
        if (c->wave64) bad = w32 > 0 ? "+wavefrontsize32" : w64 < 0 ? "-wavefrontsize64" : NULL;
        else bad = w64 > 0 ? "+wavefrontsize64" : w32 < 0 ? "-wavefrontsize32" : NULL;
        if (bad)
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                    "function '%s' is compiled for wave%d ('%s' in its target-features), but the target %s runs wave%d",
                                    gpucompile_value_name(fn), c->wave64 ? 32 : 64, bad, gpucompile_target_chip(job->target), c->wave64 ? 64 : 32);
        for (i = 0; i < 2; i++) {
            int want = gpucompile_amdgpu__feature_sign(f, len, modes[i]);
            int have = gpucompile_amdgpu__feature_sign(c->features, tlen, modes[i]);
            if (want && have && want != have)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_TARGET,
                                        "function '%s' is compiled with %s%s (in its target-features), but the target %s says %s%s",
                                        gpucompile_value_name(fn), want > 0 ? "+" : "-", modes[i], gpucompile_target_chip(job->target),
                                        modes[i], have > 0 ? "+" : "-");
        }
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__init(gpucompile_job *job) {
    gpucompile_amdgpu__config *c = (gpucompile_amdgpu__config *)gpucompile_job_alloc(job, sizeof *c);
    if (!c) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    /* silent here: a refusal is reported by configure, in the pipeline's order */
    c->valid = gpucompile_amdgpu__configure_from(job, 0, c) == GPUCOMPILE_OK;
    job->backend_data = c;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__release(gpucompile_job *job) {
    gpucompile_job_free(job, job->backend_data);
    job->backend_data = NULL;
}

/* The job's configuration, NULL when the target was refused. */
GPUCOMPILE_PRIVATE const gpucompile_amdgpu__config *gpucompile_amdgpu__config_of(gpucompile_job *job) {
    const gpucompile_amdgpu__config *c = (const gpucompile_amdgpu__config *)job->backend_data;
    return c && c->valid ? c : NULL;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__configure(gpucompile_job *job) {
    const gpucompile_amdgpu__config *c = gpucompile_amdgpu__config_of(job);
    char *cpu, *features;
    gpucompile_result r;
    if (!c) { /* say why */
        gpucompile_amdgpu__config why;
        r = gpucompile_amdgpu__configure_from(job, 1, &why);
        return r != GPUCOMPILE_OK ? r : GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    if ((r = gpucompile_amdgpu__check_functions(job, c)) != GPUCOMPILE_OK) return r;
    cpu = gpucompile_job_strdup(job, c->chip);
    features = gpucompile_job_strdup(job, c->features);
    if (!cpu || !features) {
        gpucompile_job_free(job, cpu);
        gpucompile_job_free(job, features);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    gpucompile_job_free(job, job->cpu);
    gpucompile_job_free(job, job->features);
    job->cpu = cpu;
    job->features = features;
    return GPUCOMPILE_OK;
}

/* ---- pre-link: the code object version ------------------------------------------------- */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__prepare(gpucompile_job *job) {
    const gpucompile_amdgpu__config *c = gpucompile_amdgpu__config_of(job);
    if (!c) return GPUCOMPILE_ERROR_INVALID_TARGET;
    gpucompile_job_set_module_flag(job, LLVMModuleFlagBehaviorError, "amdhsa_code_object_version", c->abi);
    return GPUCOMPILE_OK;
}

/* ---- finding files --------------------------------------------------------------------- */
/* The ROCm roots to search, in order; with_usr adds /usr (Debian's packages). */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__roots(gpucompile_job *job, const char **roots, int with_usr) {
    static const char *const envs[] = {"ROCM_PATH", "ROCM_HOME", "ROCM_ROOT"};
    const char *tk = job->options->toolkit_path;
    int n = 0;
    size_t i;
    if (tk && *tk) {
        roots[n++] = tk;
        return n;
    }
    for (i = 0; i < sizeof envs / sizeof envs[0]; i++) {
        const char *e = getenv(envs[i]);
        if (e && *e) roots[n++] = e;
    }
#ifdef GPUCOMPILE_DEFAULT_ROCM_PATH
    roots[n++] = GPUCOMPILE_DEFAULT_ROCM_PATH;
#endif
    roots[n++] = "/opt/rocm";
    if (with_usr) roots[n++] = "/usr";
    return n;
}

/* <root>/lib/llvm/lib/clang/<version>/lib/amdgcn/bitcode holding ocml.bc, highest version. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__clang_dir(const char *root, char *out, size_t size) {
    char base[4096], cand[4096];
    const char *name;
    long best = -1;
    gpucompile_dir *d;
    snprintf(base, sizeof base, "%s/lib/llvm/lib/clang", root);
    if (!(d = gpucompile_dir_open(base))) return 0;
    while ((name = gpucompile_dir_next(d)) != NULL)
        if (name[0] >= '0' && name[0] <= '9' && atol(name) > best &&
            (size_t)snprintf(cand, sizeof cand, "%s/%s/lib/amdgcn/bitcode/ocml.bc", base, name) < sizeof cand &&
            gpucompile_file_exists(cand, 'f') && (size_t)snprintf(out, size, "%s/%s/lib/amdgcn/bitcode", base, name) < size)
            best = atol(name);
    gpucompile_dir_close(d);
    return best >= 0;
}

/* The device-library directory; an error naming every place searched when there is none. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__bitcode_dir(gpucompile_job *job, char *dir, size_t size) {
    static const char *const layouts[] = {"amdgcn/bitcode", "lib/llvm/amdgcn/bitcode", "lib/llvm/lib/clang/*/lib/amdgcn/bitcode",
#ifdef GPUCOMPILE_AMDGPU__MULTIARCH
                                          "lib/" GPUCOMPILE_AMDGPU__MULTIARCH "/amdgcn/bitcode"
#endif
    };
    const char *roots[8];
    int n = gpucompile_amdgpu__roots(job, roots, 1), i;
    size_t l;
    gpucompile_buf searched;
    char path[4096];
    memset(&searched, 0, sizeof searched);
    searched.a = &job->options->allocator;
    for (i = 0; i < n; i++) {
        for (l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
            int found;
            if (strchr(layouts[l], '*')) found = gpucompile_amdgpu__clang_dir(roots[i], dir, size);
            else found = (size_t)snprintf(path, sizeof path, "%s/%s/ocml.bc", roots[i], layouts[l]) < sizeof path &&
                         gpucompile_file_exists(path, 'f') && (size_t)snprintf(dir, size, "%s/%s", roots[i], layouts[l]) < size;
            if (found) {
                gpucompile_free(searched.a, searched.data);
                return GPUCOMPILE_OK;
            }
            gpucompile_buf_printf(&searched, "%s%s/%s", searched.len ? ", " : "", roots[i], layouts[l]);
        }
    }
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND, NULL,
                       "the module calls the ROCm device libraries, but no directory with ocml.bc was found; searched: %s "
                       "(set the toolkit path or ROCM_PATH, or install rocm-device-libs)",
                       searched.data ? searched.data : "");
    gpucompile_free(searched.a, searched.data);
    return GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND;
}

/* ---- libraries ------------------------------------------------------------------------- */
/* Defines a control variable as its oclc library would: linkonce_odr protected constant in
   addrspace(4). A definition the module already has stands. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__define(gpucompile_job *job, const char *name, unsigned bits, int value) {
    LLVMTypeRef t = LLVMIntTypeInContext(job->context, bits);
    LLVMValueRef g = LLVMGetNamedGlobal(job->module, name);
    if (g && !LLVMIsDeclaration(g)) return GPUCOMPILE_OK;
    if (g && (LLVMGlobalGetValueType(g) != t || LLVMGetPointerAddressSpace(LLVMTypeOf(g)) != 4))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "the module declares '%s' with another type than i%u addrspace(4)", name, bits);
    if (!g) g = LLVMAddGlobalInAddressSpace(job->module, t, name, 4);
    LLVMSetInitializer(g, LLVMConstInt(t, (unsigned long long)(long long)value, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMLinkOnceODRLinkage);
    LLVMSetVisibility(g, LLVMProtectedVisibility);
    LLVMSetUnnamedAddress(g, LLVMLocalUnnamedAddr);
    LLVMSetAlignment(g, bits / 8);
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__libraries(gpucompile_job *job) {
    const gpucompile_target *t = job->target;
    int ocml = gpucompile_job_references(job, "__ocml_"), ockl = gpucompile_job_references(job, "__ockl_");
    int fast = gpucompile_target_fast(t);
    const gpucompile_amdgpu__config *c = gpucompile_amdgpu__config_of(job);
    char dir[4096], file[64], path[4200];
    gpucompile_result r;
    struct { const char *file; int on; const char *var; unsigned bits; int value; } ctl[7];
    int i;
    if (!ocml && !ockl) return GPUCOMPILE_OK; /* nothing calls into the device libraries */
    if (!c) return GPUCOMPILE_ERROR_INVALID_TARGET;
    if ((r = gpucompile_amdgpu__bitcode_dir(job, dir, sizeof dir)) != GPUCOMPILE_OK) return r;
    /* The oclc control libraries come after ocml/ockl: lazy linking takes a definition only
       when something already linked references it. */
    ctl[0].file = "oclc_daz_opt"; ctl[0].on = gpucompile_target_daz(t); ctl[0].var = "__oclc_daz_opt";
    ctl[1].file = "oclc_unsafe_math"; ctl[1].on = gpucompile_target_unsafe_math(t) || fast; ctl[1].var = "__oclc_unsafe_math_opt";
    ctl[2].file = "oclc_finite_only"; ctl[2].on = gpucompile_target_finite_only(t) || fast; ctl[2].var = "__oclc_finite_only_opt";
    ctl[3].file = "oclc_correctly_rounded_sqrt"; ctl[3].on = gpucompile_target_correct_sqrt(t); ctl[3].var = "__oclc_correctly_rounded_sqrt32";
    ctl[4].file = "oclc_wavefrontsize64"; ctl[4].on = c->wave64; ctl[4].var = "__oclc_wavefrontsize64";
    for (i = 0; i < 5; i++) { ctl[i].bits = 8; ctl[i].value = ctl[i].on; }
    ctl[5].file = "oclc_isa_version_"; ctl[5].var = "__oclc_ISA_version"; ctl[5].bits = 32; ctl[5].value = c->isa_version;
    ctl[6].file = "oclc_abi_version_"; ctl[6].var = "__oclc_ABI_version"; ctl[6].bits = 32; ctl[6].value = c->abi;
    if (ocml) { snprintf(path, sizeof path, "%s/ocml.bc", dir); if ((r = gpucompile_job_add_library(job, path)) != GPUCOMPILE_OK) return r; }
    if (ockl) { snprintf(path, sizeof path, "%s/ockl.bc", dir); if ((r = gpucompile_job_add_library(job, path)) != GPUCOMPILE_OK) return r; }
    for (i = 0; i < 7; i++) {
        if (i < 5) snprintf(file, sizeof file, "%s_%s", ctl[i].file, ctl[i].on ? "on" : "off");
        else if (i == 5) snprintf(file, sizeof file, "%s%s", ctl[i].file, c->isa);
        else snprintf(file, sizeof file, "%s%d", ctl[i].file, c->abi);
        snprintf(path, sizeof path, "%s/%s.bc", dir, file);
        if (gpucompile_file_exists(path, 'f')) r = gpucompile_job_add_library(job, path);
        else {
            /* Old ROCm lacks gfx11+ ISA files, new ROCm drops some controls: same value, by hand. */
            r = gpucompile_amdgpu__define(job, ctl[i].var, ctl[i].bits, ctl[i].value);
            if (r == GPUCOMPILE_OK)
                gpucompile_job_log(job, GPUCOMPILE_SEVERITY_REMARK, GPUCOMPILE_OK, NULL,
                                   "%s is missing: defined %s = %d in the module instead", path, ctl[i].var, ctl[i].value);
        }
        if (r != GPUCOMPILE_OK) return r;
    }
    return GPUCOMPILE_OK;
}

/* ---- the hsaco's metadata note (ELF note "AMDGPU", type 32, msgpack) -------------------- */
typedef struct gpucompile_amdgpu__mp { const unsigned char *p, *end; int bad; } gpucompile_amdgpu__mp;
/* One msgpack item: kind 'i' integer, 's' string (s, n), 'm' map / 'a' array (n entries
   follow), 'o' anything else (nil, bool, float, bin, ext: already skipped). */
typedef struct gpucompile_amdgpu__mpv { char kind; long long i; const unsigned char *s; unsigned long long n; } gpucompile_amdgpu__mpv;

GPUCOMPILE_PRIVATE const unsigned char *gpucompile_amdgpu__take(gpucompile_amdgpu__mp *m, unsigned long long n) {
    const unsigned char *r = m->p;
    if (m->bad || (unsigned long long)(m->end - m->p) < n) { m->bad = 1; return NULL; }
    m->p += n;
    return r;
}

GPUCOMPILE_PRIVATE unsigned long long gpucompile_amdgpu__be(gpucompile_amdgpu__mp *m, int bytes) {
    const unsigned char *p = gpucompile_amdgpu__take(m, (unsigned long long)bytes);
    unsigned long long v = 0;
    int k;
    for (k = 0; p && k < bytes; k++) v = v << 8 | p[k];
    return v;
}

GPUCOMPILE_PRIVATE gpucompile_amdgpu__mpv gpucompile_amdgpu__mp_read(gpucompile_amdgpu__mp *m) {
    static const int size_of[4] = {1, 2, 4, 8};
    gpucompile_amdgpu__mpv v;
    unsigned c = (unsigned)gpucompile_amdgpu__be(m, 1);
    memset(&v, 0, sizeof v);
    v.kind = 'o';
    if (m->bad) return v;
    if (c <= 0x7f || c >= 0xe0) { v.kind = 'i'; v.i = c <= 0x7f ? (long long)c : (long long)c - 256; }
    else if (c <= 0x8f) { v.kind = 'm'; v.n = c & 0x0f; }
    else if (c <= 0x9f) { v.kind = 'a'; v.n = c & 0x0f; }
    else if (c <= 0xbf) { v.kind = 's'; v.n = c & 0x1f; }
    else if (c >= 0xc4 && c <= 0xc6) gpucompile_amdgpu__take(m, gpucompile_amdgpu__be(m, size_of[c - 0xc4]));      /* bin */
    else if (c >= 0xc7 && c <= 0xc9) gpucompile_amdgpu__take(m, gpucompile_amdgpu__be(m, size_of[c - 0xc7]) + 1);  /* ext */
    else if (c == 0xca || c == 0xcb) gpucompile_amdgpu__take(m, c == 0xca ? 4 : 8);                                  /* float */
    else if (c >= 0xcc && c <= 0xcf) {                                                                              /* uint */
        unsigned long long u = gpucompile_amdgpu__be(m, size_of[c - 0xcc]);
        v.kind = 'i';
        v.i = u > (unsigned long long)LLONG_MAX ? LLONG_MAX : (long long)u;
    } else if (c >= 0xd0 && c <= 0xd3) {                                                                            /* int */
        int bytes = size_of[c - 0xd0];
        unsigned long long u = gpucompile_amdgpu__be(m, bytes);
        v.kind = 'i';
        if (bytes < 8 && (u >> (bytes * 8 - 1)) & 1) v.i = (long long)u - (long long)(1ULL << (bytes * 8));
        else v.i = (long long)u;
    } else if (c >= 0xd4 && c <= 0xd8) gpucompile_amdgpu__take(m, 1 + (1ULL << (c - 0xd4)));                     /* fixext */
    else if (c >= 0xd9 && c <= 0xdb) { v.kind = 's'; v.n = gpucompile_amdgpu__be(m, size_of[c - 0xd9]); }
    else if (c == 0xdc || c == 0xdd) { v.kind = 'a'; v.n = gpucompile_amdgpu__be(m, c == 0xdc ? 2 : 4); }
    else if (c == 0xde || c == 0xdf) { v.kind = 'm'; v.n = gpucompile_amdgpu__be(m, c == 0xde ? 2 : 4); }
    else if (c == 0xc1) m->bad = 1; /* never used */
    if (v.kind == 's') v.s = gpucompile_amdgpu__take(m, v.n);
    if (m->bad) v.kind = 'o';
    return v;
}

/* Skips what a map or array item holds (depth-limited: the input is untrusted). */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__mp_skip(gpucompile_amdgpu__mp *m, const gpucompile_amdgpu__mpv *v, int depth) {
    unsigned long long k, count;
    if (v->kind != 'm' && v->kind != 'a') return;
    if (depth > 32) { m->bad = 1; return; }
    count = v->kind == 'm' ? v->n * 2 : v->n;
    for (k = 0; k < count && !m->bad; k++) {
        gpucompile_amdgpu__mpv c = gpucompile_amdgpu__mp_read(m);
        gpucompile_amdgpu__mp_skip(m, &c, depth + 1);
    }
}

GPUCOMPILE_PRIVATE int gpucompile_amdgpu__mp_is(const gpucompile_amdgpu__mpv *v, const char *s) {
    return v->kind == 's' && v->n == strlen(s) && memcmp(v->s, s, (size_t)v->n) == 0;
}

/* A map's entries in turn (the root map's, a kernel's): *left is how many remain, the map's n at
   first. Each call reads the next key, skipping what a key holds (the note's keys are strings),
   and the header of its value (*at, may be NULL: where that header starts); the caller reads or
   skips what the value holds. 0 after the last entry or once the input is bad. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__mp_entry(gpucompile_amdgpu__mp *m, unsigned long long *left, gpucompile_amdgpu__mpv *key,
                                                    gpucompile_amdgpu__mpv *val, const unsigned char **at) {
    if (!*left || m->bad) return 0;
    --*left;
    *key = gpucompile_amdgpu__mp_read(m);
    gpucompile_amdgpu__mp_skip(m, key, 1);
    if (at) *at = m->p;
    *val = gpucompile_amdgpu__mp_read(m);
    return 1;
}

/* m over a note's descriptor (desc, size bytes), and how many entries its root map has (0 when
   the root is no map). */
GPUCOMPILE_PRIVATE unsigned long long gpucompile_amdgpu__mp_root(gpucompile_amdgpu__mp *m, const unsigned char *desc, size_t size) {
    gpucompile_amdgpu__mpv root;
    m->p = desc;
    m->end = desc + size;
    m->bad = 0;
    root = gpucompile_amdgpu__mp_read(m);
    return root.kind == 'm' ? root.n : 0;
}

/* One kernel's map: fills *k; *name (n bytes) is its .name (NULL when it has none). extra (may be
   NULL) gets the entries MLIR's ROCDL target also reads from the note, in its text and order:
   agpr_count, reqd_workgroup_size, sgpr_spill_count, vgpr_spill_count, workgroup_size_hint (the
   two arrays -1, -1, -1 when the note has none, as MLIR writes them). */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__mp_kernel(gpucompile_amdgpu__mp *m, unsigned long long pairs, gpucompile_kernel *k,
                                                      const unsigned char **name, size_t *n, gpucompile_buf *extra) {
    static const char *const keys[] = {".sgpr_count", ".vgpr_count", ".group_segment_fixed_size", ".private_segment_fixed_size",
                                       ".wavefront_size", ".kernarg_segment_size", ".max_flat_workgroup_size"};
    static const char *const counts[] = {".agpr_count", ".sgpr_spill_count", ".vgpr_spill_count"};
    int *fields[7];
    long long count[3] = {-1, -1, -1}, dims[2][3] = {{-1, -1, -1}, {-1, -1, -1}};
    gpucompile_amdgpu__mpv key, val;
    unsigned long long d;
    size_t f;
    fields[0] = &k->sgprs; fields[1] = &k->vgprs; fields[2] = &k->shared_bytes; fields[3] = &k->private_bytes;
    fields[4] = &k->wavefront_size; fields[5] = &k->kernarg_bytes; fields[6] = &k->max_threads;
    for (f = 0; f < 7; f++) *fields[f] = -1;
    *name = NULL;
    *n = 0;
    while (gpucompile_amdgpu__mp_entry(m, &pairs, &key, &val, NULL)) {
        int dim = gpucompile_amdgpu__mp_is(&key, ".reqd_workgroup_size") ? 0 : gpucompile_amdgpu__mp_is(&key, ".workgroup_size_hint") ? 1 : -1;
        if (dim >= 0 && val.kind == 'a' && val.n == 3) {
            for (d = 0; d < 3; d++) {
                gpucompile_amdgpu__mpv e = gpucompile_amdgpu__mp_read(m);
                gpucompile_amdgpu__mp_skip(m, &e, 2);
                if (e.kind == 'i') dims[dim][d] = e.i;
            }
            continue;
        }
        gpucompile_amdgpu__mp_skip(m, &val, 1);
        if (gpucompile_amdgpu__mp_is(&key, ".name") && val.kind == 's') { *name = val.s; *n = (size_t)val.n; }
        for (f = 0; f < 7 && val.kind == 'i'; f++)
            if (gpucompile_amdgpu__mp_is(&key, keys[f])) *fields[f] = val.i < 0 ? -1 : val.i > INT_MAX ? INT_MAX : (int)val.i;
        for (f = 0; f < 3 && val.kind == 'i'; f++)
            if (gpucompile_amdgpu__mp_is(&key, counts[f])) count[f] = val.i;
    }
    if (m->bad) *name = NULL;
    if (!extra || !*name) return;
    if (count[0] >= 0) gpucompile_buf_printf(extra, "agpr_count = %lld : i64, ", count[0]);
    gpucompile_buf_printf(extra, "reqd_workgroup_size = array<i32: %lld, %lld, %lld>, ", dims[0][0], dims[0][1], dims[0][2]);
    if (count[1] >= 0) gpucompile_buf_printf(extra, "sgpr_spill_count = %lld : i64, ", count[1]);
    if (count[2] >= 0) gpucompile_buf_printf(extra, "vgpr_spill_count = %lld : i64, ", count[2]);
    gpucompile_buf_printf(extra, "workgroup_size_hint = array<i32: %lld, %lld, %lld>", dims[1][0], dims[1][1], dims[1][2]);
}

/* The descriptor of the NT_AMDGPU_METADATA note, from the section headers; *sec (may be NULL):
   the section that holds it. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__note(const unsigned char *d, size_t size, const unsigned char **desc, size_t *desc_size,
                                                gpucompile_elf_section *sec) {
    gpucompile_elf_section s;
    unsigned i, n = gpucompile_elf_sections(d, size, NULL);
    for (i = 0; i < n; i++) {
        const unsigned char *p, *end;
        (void)gpucompile_elf_read_section(d, size, i, &s);
        if (s.type != 7 /* SHT_NOTE */ || !s.data) continue;
        for (p = s.data, end = p + s.size; end - p >= 12;) {
            unsigned long long namesz = gpucompile_read_le(p, 4), descsz = gpucompile_read_le(p + 4, 4);
            unsigned long long type = gpucompile_read_le(p + 8, 4);
            const unsigned char *name = p + 12;
            p += 12;
            if (((namesz + 3) & ~3ULL) > (unsigned long long)(end - p)) break;
            p += (namesz + 3) & ~3ULL;
            if (descsz > (unsigned long long)(end - p)) break;
            if (type == 32 && namesz == 7 && memcmp(name, "AMDGPU", 7) == 0) {
                *desc = p;
                *desc_size = (size_t)descsz;
                if (sec) *sec = s;
                return 1;
            }
            if (((descsz + 3) & ~3ULL) > (unsigned long long)(end - p)) break;
            p += (descsz + 3) & ~3ULL;
        }
    }
    return 0;
}

/* The note's kernels: the one called name into *k (name set), or every one added to all; a
   (may be NULL) allocates the kernels' MLIR metadata text. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__note_kernels(const void *data, size_t size, const char *name, gpucompile_kernel *k,
                                                                      gpucompile_object *all, const gpucompile_allocator *a) {
    gpucompile_amdgpu__mp m;
    gpucompile_amdgpu__mpv key, val;
    const unsigned char *desc, *found;
    size_t desc_size, n;
    unsigned long long left, j;
    if (!gpucompile_amdgpu__note((const unsigned char *)data, size, &desc, &desc_size, NULL)) return GPUCOMPILE_ERROR_INVALID_BINARY;
    left = gpucompile_amdgpu__mp_root(&m, desc, desc_size);
    while (gpucompile_amdgpu__mp_entry(&m, &left, &key, &val, NULL)) {
        if (!gpucompile_amdgpu__mp_is(&key, "amdhsa.kernels") || val.kind != 'a') {
            gpucompile_amdgpu__mp_skip(&m, &val, 1);
            continue;
        }
        for (j = 0; j < val.n && !m.bad; j++) {
            gpucompile_amdgpu__mpv kern = gpucompile_amdgpu__mp_read(&m);
            gpucompile_kernel one, *d = NULL;
            gpucompile_buf extra;
            if (kern.kind != 'm') { gpucompile_amdgpu__mp_skip(&m, &kern, 2); continue; }
            memset(&one, 0, sizeof one);
            memset(&extra, 0, sizeof extra);
            extra.a = a;
            gpucompile_amdgpu__mp_kernel(&m, kern.n, &one, &found, &n, a ? &extra : NULL);
            if (found && name && n == strlen(name) && memcmp(found, name, n) == 0) d = k;
            else if (found && !name && gpucompile_object_add_kernel_n(all, (const char *)found, n) == GPUCOMPILE_OK) d = &all->kernels[all->num_kernels - 1];
            else if (found && !name) extra.oom = 1;
            if (extra.oom) { gpucompile_free(a, extra.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
            if (!d) { gpucompile_free(a, extra.data); continue; }
            d->sgprs = one.sgprs; d->vgprs = one.vgprs; d->shared_bytes = one.shared_bytes; d->private_bytes = one.private_bytes;
            d->wavefront_size = one.wavefront_size; d->kernarg_bytes = one.kernarg_bytes; d->max_threads = one.max_threads;
            if (a) { gpucompile_free(a, d->metadata); d->metadata = extra.data; }
            if (name) return GPUCOMPILE_OK;
        }
    }
    return name ? GPUCOMPILE_ERROR_INVALID_BINARY : GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_amdgpu_kernel_metadata(const void *data, size_t size, const char *name, gpucompile_kernel *k) {
    if (!data || !name || !k) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile_amdgpu__note_kernels(data, size, name, k, NULL, NULL);
}

/* The backend's find_kernels: the hsaco's metadata note; AMDGPU assembly's .amdhsa_kernel lines. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__find_kernels(gpucompile_object *o) {
    gpucompile_result r = GPUCOMPILE_OK;
    if (o->format == GPUCOMPILE_FORMAT_BIN) {
        if (gpucompile_amdgpu__note_kernels(o->data, o->size, NULL, NULL, o, &o->allocator) == GPUCOMPILE_ERROR_OUT_OF_MEMORY) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    } else if (o->format == GPUCOMPILE_FORMAT_ISA) {
        const char *p = (const char *)o->data, *end = p + o->size;
        static const char kw[] = ".amdhsa_kernel ";
        while (r == GPUCOMPILE_OK && (size_t)(end - p) > sizeof kw && (p = strstr(p, kw)) != NULL) {
            const char *q = p + sizeof kw - 1, *e = q;
            while (e < end && *e != '\n' && *e != ' ' && *e != '\r') e++;
            if (e > q) r = gpucompile_object_add_kernel_n(o, q, (size_t)(e - q));
            p = e;
        }
    }
    if (o->num_kernels > 1) qsort(o->kernels, (size_t)o->num_kernels, sizeof *o->kernels, gpucompile_kernel_cmp);
    return r;
}

/* ---- object to hsaco ------------------------------------------------------------------- */
/* ld.lld: the options' path; next to a ROCm root; the LLVM in use's; PATH. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__find_lld(gpucompile_job *job, char *out, size_t size) {
    static const char *const beside[] = {"llvm/bin/ld.lld", "lib/llvm/bin/ld.lld"};
    const char *roots[8], *given = gpucompile_job_tool_path(job, "ld.lld");
    char versioned[32];
    int n = gpucompile_amdgpu__roots(job, roots, 0), i;
    size_t b;
    if (given) return (size_t)snprintf(out, size, "%s", given) < size && gpucompile_file_exists(given, 'x');
    for (i = 0; i < n; i++)
        for (b = 0; b < 2; b++)
            if ((size_t)snprintf(out, size, "%s/%s" GPUCOMPILE_EXE_SUFFIX, roots[i], beside[b]) < size && gpucompile_file_exists(out, 'x'))
                return 1;
    if ((size_t)snprintf(out, size, "/usr/lib/llvm-%d/bin/ld.lld", LLVM_VERSION_MAJOR) < size && gpucompile_file_exists(out, 'x')) return 1;
    snprintf(versioned, sizeof versioned, "ld.lld-%d" GPUCOMPILE_EXE_SUFFIX, LLVM_VERSION_MAJOR);
    return (gpucompile_which(versioned, out, size) && gpucompile_file_exists(out, 'x')) ||
           (gpucompile_which("ld.lld" GPUCOMPILE_EXE_SUFFIX, out, size) && gpucompile_file_exists(out, 'x'));
}

/* ld.lld -shared of the objects (one, or the partitions'). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__link_hsaco(gpucompile_job *job, const unsigned char *const *objs, const size_t *sizes,
                                                                    int num_objs) {
    char obj[4096], out[4096], lld[4096], extra[4096], *output = NULL;
    const char **argv;
    unsigned char *data = NULL;
    size_t size = 0, out_size = 0;
    int status = -1, i, n, made = 0;
    gpucompile_result r = GPUCOMPILE_OK;
    if (!gpucompile_amdgpu__find_lld(job, lld, sizeof lld)) {
        const char *given = gpucompile_job_tool_path(job, "ld.lld");
        if (given) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "ld.lld: '%s' (from the options) is not an executable file", given);
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL,
                                "ld.lld was not found (looked next to the ROCm roots, in /usr/lib/llvm-%d/bin and on PATH); "
                                "install lld-%d or give its path as tool \"ld.lld\"", LLVM_VERSION_MAJOR, LLVM_VERSION_MAJOR);
    }
    if ((r = gpucompile_job_temp_file(job, ".hsaco", out, sizeof out)) != GPUCOMPILE_OK) return r;
    if (!(argv = (const char **)gpucompile_job_alloc(job, (size_t)(num_objs + 6 + 32) * sizeof *argv))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    argv[0] = lld; argv[1] = "-shared"; argv[2] = "--no-undefined";
    if ((n = gpucompile_job_tool_options(job, extra, sizeof extra, argv + 3, 32)) < 0) r = GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    for (made = 0; r == GPUCOMPILE_OK && made < num_objs; made++) {
        if ((r = gpucompile_job_temp_file(job, ".o", obj, sizeof obj)) != GPUCOMPILE_OK) break;
        if (!(argv[3 + n + made] = gpucompile_job_strdup(job, obj))) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        else r = gpucompile_job_write_temp(job, obj, objs[made], sizes[made]);
    }
    if (r == GPUCOMPILE_OK) {
        argv[3 + n + num_objs] = "-o"; argv[4 + n + num_objs] = out; argv[5 + n + num_objs] = NULL;
        r = gpucompile_job_run_tool(job, argv, 0, &status, &output, &out_size);
    }
    for (i = 0; n >= 0 && i < made; i++) gpucompile_job_free(job, (void *)argv[3 + n + i]);
    gpucompile_job_free(job, (void *)argv);
    if (r != GPUCOMPILE_OK) {
        gpucompile_job_free(job, output);
        return r;
    }
    /* lld's messages become diagnostics (without the trailing newline). */
    for (i = (int)out_size; i > 0 && (output[i - 1] == '\n' || output[i - 1] == '\r'); i--) output[i - 1] = 0;
    if (status != 0) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "ld.lld failed (exit %d): %s", status, output ? output : "");
    else if (output && *output) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, "ld.lld", "%s", output);
    gpucompile_job_free(job, output);
    if (r != GPUCOMPILE_OK) return r;
    if (gpucompile_read_file(out, &job->options->allocator, &data, &size) != GPUCOMPILE_OK || size == 0) {
        gpucompile_job_free(job, data);
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_IO, "cannot read the hsaco that ld.lld wrote ('%s')", out);
    }
    job->result_data = data;
    job->result_size = size;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__link_emitted(gpucompile_job *job) {
    const unsigned char *obj = (const unsigned char *)LLVMGetBufferStart(job->emitted);
    size_t size = LLVMGetBufferSize(job->emitted);
    return gpucompile_amdgpu__link_hsaco(job, &obj, &size, 1);
}

/* ---- hsaco without a process: the shared object `ld.lld -shared --no-undefined` writes --------
   For the one object every compile has, when it holds only what LLVM's AMDGPU code generator
   puts there for kernels and device functions (.text, .rodata with the kernel descriptors, the
   metadata .note, non-allocated sections without relocations, .comment) and its relocations
   are PC-relative to symbols that cannot be preempted. The layout is lld's: ELF header,
   program headers, .note/.dynsym/.gnu.hash/.hash/.dynstr/.rodata in the read-only segment,
   .text in the next page, .dynamic and its relro padding in the next, then the non-allocated
   sections, .comment, .symtab, .shstrtab, .strtab and the section headers. Anything else is
   left to ld.lld, and the reason is given. */
#define GPUCOMPILE_AMDGPU__PAGE 0x1000u
typedef struct gpucompile_amdgpu__sec {
    gpucompile_elf_section in; /* the input section */
    uint64_t addr, off;
    uint32_t out; /* output section index, 0 when dropped */
    int merged;   /* a mergeable section: its pieces are copied */
} gpucompile_amdgpu__sec;

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__wr(unsigned char *p, uint64_t v, int n) {
    int i;
    for (i = 0; i < n; i++, v >>= 8) p[i] = (unsigned char)v;
}
GPUCOMPILE_PRIVATE uint64_t gpucompile_amdgpu__up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) & ~(a - 1) : v; }

/* lld's .comment pieces go to 32 shards by the low bits of LLVM's xxh3_64bits, then shard by
   shard: the function comes from the LLVM library this process runs (absent: ld.lld). */
typedef uint64_t (*gpucompile_amdgpu__xxh3_fn)(const unsigned char *, size_t);
GPUCOMPILE_PRIVATE gpucompile_amdgpu__xxh3_fn gpucompile_amdgpu__xxh3(void) {
#if defined(_WIN32)
    return NULL;
#else
    /* uint64_t llvm::xxh3_64bits(llvm::ArrayRef<uint8_t>): the two words of the ArrayRef arrive
       as two arguments on the ELF platforms' calling conventions. */
    static void *fn;
    static int looked;
    gpucompile_amdgpu__xxh3_fn f;
    gpucompile_lock();
    if (!looked) { /* the process's global scope, where a linked libLLVM is */
        fn = gpucompile_dlsym(gpucompile_dlopen(NULL), "_ZN4llvm11xxh3_64bitsENS_8ArrayRefIhEE");
        looked = 1;
    }
    gpucompile_unlock();
    memcpy(&f, &fn, sizeof f);
    return fn ? f : NULL;
#endif
}

/* The merged .comment: lld's "Linker: ..." then the object's strings, deduplicated, by shard. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__comment(gpucompile_buf *out, const char *linker, const unsigned char *in, size_t n) {
    const char *piece[64];
    size_t len[64];
    int count = 0, shard, i, j;
    size_t at = 0;
    gpucompile_amdgpu__xxh3_fn h = n ? gpucompile_amdgpu__xxh3() : NULL;
    if (n && !h) return "the object's .comment (no xxh3_64bits in this LLVM library)";
    if (n && in[n - 1]) return "a .comment without its terminating NUL";
    piece[count] = linker; len[count++] = strlen(linker);
    while (at < n) {
        size_t l = strlen((const char *)in + at);
        if (count == 64) return "more than 64 .comment strings";
        for (j = 0; j < count && !(len[j] == l && !memcmp(piece[j], in + at, l)); j++) {}
        if (j == count) { piece[count] = (const char *)in + at; len[count++] = l; }
        at += l + 1;
    }
    for (shard = 0; shard < 32; shard++)
        for (i = 0; i < count; i++)
            if (count == 1 ? shard == 0 : (int)((uint32_t)h((const unsigned char *)piece[i], len[i]) >> 27) == shard)
                gpucompile_buf_add(out, piece[i], len[i] + 1);
    return NULL;
}

GPUCOMPILE_PRIVATE uint32_t gpucompile_amdgpu__gnu_hash(const char *s) {
    uint32_t h = 5381;
    while (*s) h = h * 33 + (unsigned char)*s++;
    return h;
}
GPUCOMPILE_PRIVATE uint32_t gpucompile_amdgpu__sysv_hash(const char *s) {
    uint32_t h = 0, g;
    while (*s) {
        h = (h << 4) + (unsigned char)*s++;
        g = h & 0xf0000000u;
        if (g) h ^= g >> 24;
        h &= ~g;
    }
    return h;
}

/* The offset of name in a string table of b (it is there). */
GPUCOMPILE_PRIVATE uint32_t gpucompile_amdgpu__strat(const gpucompile_buf *b, const char *name) {
    size_t at = 0;
    while (at < b->len && strcmp(b->data + at, name)) at += strlen(b->data + at) + 1;
    return (uint32_t)at;
}

typedef struct gpucompile_amdgpu__dsym {
    uint32_t sym, name, hash, bucket; /* input symbol index, .dynstr offset, GNU hash, bucket */
} gpucompile_amdgpu__dsym;

GPUCOMPILE_PRIVATE int gpucompile_amdgpu__dsym_cmp(const void *a, const void *b) {
    const gpucompile_amdgpu__dsym *x = (const gpucompile_amdgpu__dsym *)a, *y = (const gpucompile_amdgpu__dsym *)b;
    if (x->bucket != y->bucket) return x->bucket < y->bucket ? -1 : 1;
    return x->name < y->name ? -1 : x->name > y->name;
}

/* The mergeable .rodata.* sections (constants, strings) after .rodata, each of its own kind: lld
   appends their pieces, deduplicated, shard by shard as for .comment, to the output .rodata. */
#define GPUCOMPILE_AMDGPU__MERGES 8
typedef struct gpucompile_amdgpu__merge {
    uint32_t sec;           /* the input section; 0: none */
    uint64_t start, n;      /* its place in the output .rodata; the number of pieces */
    uint64_t *in, *out;     /* each piece's input offset, and output offset from start */
    gpucompile_buf data;   /* the merged bytes */
} gpucompile_amdgpu__merge;

GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__merge_pieces(gpucompile_amdgpu__merge *m, const unsigned char *p, uint64_t size,
                                                                uint64_t flags, uint64_t ent, uint64_t align) {
    gpucompile_amdgpu__xxh3_fn h = gpucompile_amdgpu__xxh3();
    uint64_t at = 0, k, j, *len;
    uint32_t shard;
    if (!ent || (flags & 0x20 && ent != 1) || (!(flags & 0x20) && size % ent) || (flags & 0x20 && size && p[size - 1]))
        return "a mergeable section lld would split otherwise";
    while (at < size) { at += flags & 0x20 ? strlen((const char *)p + at) + 1 : ent; m->n++; }
    if (m->n > 4096) return "a mergeable section of more than 4096 pieces";
    m->in = (uint64_t *)gpucompile_alloc(m->data.a, (size_t)(3 * m->n + 1) * sizeof(uint64_t));
    if (!m->in) return "out of memory";
    m->out = m->in + m->n; len = m->out + m->n;
    for (k = 0, at = 0; k < m->n; k++) { m->in[k] = at; len[k] = flags & 0x20 ? strlen((const char *)p + at) + 1 : ent; at += len[k]; }
    if (m->n > 1 && !h) return "a mergeable section (no xxh3_64bits in this LLVM library)";
    for (k = 0; k < m->n; k++) m->out[k] = (uint64_t)-1;
    at = 0;
    for (shard = 0; shard < 32; shard++)
        for (k = 0; k < m->n; k++) {
            uint64_t l = len[k], hl = flags & 0x20 ? l - 1 : l;
            if (m->out[k] != (uint64_t)-1 || (m->n > 1 && (uint32_t)h(p + m->in[k], (size_t)hl) >> 27 != shard) || (m->n == 1 && shard)) continue;
            at = gpucompile_amdgpu__up(at, align);
            for (j = k; j < m->n; j++) /* this piece and its copies */
                if (m->out[j] == (uint64_t)-1 && len[j] == l && !memcmp(p + m->in[j], p + m->in[k], (size_t)l)) m->out[j] = at;
            while (m->data.len < at) gpucompile_buf_add(&m->data, "", 1);
            gpucompile_buf_add(&m->data, p + m->in[k], (size_t)l);
            at += l;
        }
    return m->data.oom ? "out of memory" : NULL;
}

/* The output address of offset off in input section i (m: the merged sections, a zeroed one last). */
GPUCOMPILE_PRIVATE uint64_t gpucompile_amdgpu__va(const gpucompile_amdgpu__sec *s, const gpucompile_amdgpu__merge *m, uint32_t i, uint64_t off) {
    uint64_t lo = 0, hi;
    while (m->sec && m->sec != i) m++;
    if (!m->sec || !m->n) return s[i].addr + off;
    hi = m->n;
    while (hi - lo > 1) { uint64_t mid = (lo + hi) / 2; if (m->in[mid] <= off) lo = mid; else hi = mid; }
    return s[i].addr + m->out[lo] + (off - m->in[lo]);
}

/* Whether lld keeps symbol y in .symtab: no section symbols, no .L locals of a mergeable section. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__kept(const unsigned char *y, const unsigned char *strtab, const gpucompile_amdgpu__merge *m) {
    const char *n = (const char *)strtab + gpucompile_read_le(y, 4);
    if ((y[4] & 15) == 3) return 0;
    while (m->sec && m->sec != gpucompile_read_le(y + 6, 2)) m++;
    return !(m->sec && y[4] >> 4 == 0 && n[0] == '.' && n[1] == 'L');
}

/* The sections lld makes (the .note, .rodata and .text are the input's), in their order in the
   output: name, type, flags, entry size. */
#define GPUCOMPILE_AMDGPU__SYNTHETIC(X)                                                                      \
    X(NOTE, ".note", 7, 2, 0) X(DYNSYM, ".dynsym", 11, 2, 24) X(GNUHASH, ".gnu.hash", 0x6ffffff6, 2, 0)    \
    X(HASH, ".hash", 5, 2, 4) X(DYNSTR, ".dynstr", 3, 2, 0) X(RODATA, ".rodata", 1, 2, 0) X(TEXT, ".text", 1, 6, 0) \
    X(DYNAMIC, ".dynamic", 6, 3, 16) X(PADDING, ".relro_padding", 8, 3, 0)
#define GPUCOMPILE_AMDGPU__SYN_ID(id, name, type, flags, ent) GPUCOMPILE_AMDGPU__##id,
#define GPUCOMPILE_AMDGPU__SYN_NAME(id, name, type, flags, ent) name,
#define GPUCOMPILE_AMDGPU__SYN_TYPE(id, name, type, flags, ent) type,
#define GPUCOMPILE_AMDGPU__SYN_FLAGS(id, name, type, flags, ent) flags,
#define GPUCOMPILE_AMDGPU__SYN_ENT(id, name, type, flags, ent) ent,
enum { GPUCOMPILE_AMDGPU__SYNTHETIC(GPUCOMPILE_AMDGPU__SYN_ID) GPUCOMPILE_AMDGPU__NSYN };
static const char *const gpucompile_amdgpu__synname[GPUCOMPILE_AMDGPU__NSYN] = {GPUCOMPILE_AMDGPU__SYNTHETIC(GPUCOMPILE_AMDGPU__SYN_NAME)};

/* One shared object's making: what the stages of gpucompile_amdgpu__write_so hand on. */
typedef struct gpucompile_amdgpu__so {
    const unsigned char *e;     /* the relocatable object */
    size_t size;
    const char *linker;         /* the .comment's "Linker: ..." string */
    const gpucompile_allocator *a;
    /* the input: its sections, symbol table, .comment and non-allocated sections */
    gpucompile_amdgpu__sec *s;
    uint32_t shnum, comment_in, extra[64], nextra;
    const unsigned char *symtab, *strtab;
    uint64_t nsym, symstr;
    gpucompile_amdgpu__merge mg[GPUCOMPILE_AMDGPU__MERGES + 1]; /* the mergeable sections, a zeroed one last */
    /* the symbols: the dynamic ones, their hash tables; locals (hidden globals among them) */
    gpucompile_amdgpu__dsym *dyn;
    uint32_t ndyn, nloc, nbuckets, maskwords, *sym_out; /* sym_out: each symbol's name in .strtab */
    gpucompile_buf comment, shstr, str, dstr;
    /* the layout: lld's sections (syn_index 0: absent), then the rest from off */
    uint64_t syn_addr[GPUCOMPILE_AMDGPU__NSYN], syn_off[GPUCOMPILE_AMDGPU__NSYN], syn_size[GPUCOMPILE_AMDGPU__NSYN];
    uint64_t syn_align[GPUCOMPILE_AMDGPU__NSYN], off;
    uint32_t syn_index[GPUCOMPILE_AMDGPU__NSYN], nout, nph;
    /* the tail: .comment, .symtab, .shstrtab, .strtab, the section headers */
    uint64_t coff, yoff, ysz, ssoff, stroff, shoff;
    uint32_t firstglob, str_out;
    unsigned char *o;           /* the output */
    size_t total;
} gpucompile_amdgpu__so;

/* The input's sections: each kept, dropped or refused; the symbol table; the mergeable
   .rodata.* sections merged. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_sections(gpucompile_amdgpu__so *so) {
    const char *why = NULL;
    uint32_t i, j;
    if (so->size < 64 || memcmp(so->e, "\177ELF\2\1\1", 7) || gpucompile_read_le(so->e + 16, 2) != 1 || gpucompile_read_le(so->e + 18, 2) != 224)
        return "not a relocatable AMDGPU ELF64 object";
    if (!(so->shnum = gpucompile_elf_sections(so->e, so->size, &why))) return why;
    if (so->shnum > 4096) return "bad section headers";
    so->s = (gpucompile_amdgpu__sec *)gpucompile_alloc(so->a, so->shnum * sizeof *so->s);
    if (!so->s) return "out of memory";
    memset(so->s, 0, so->shnum * sizeof *so->s);
    for (i = 0; i < so->shnum; i++) {
        uint32_t type;
        uint64_t flags;
        if ((why = gpucompile_elf_read_section(so->e, so->size, i, &so->s[i].in)) != NULL) return why;
        type = so->s[i].in.type; flags = so->s[i].in.flags;
        if (i == 0) continue;
        if (type == 2) {
            gpucompile_elf_section l;
            if (so->symtab || gpucompile_elf_read_section(so->e, so->size, so->s[i].in.link % so->shnum, &l) || !l.data || l.size == 0 ||
                l.data[l.size - 1])
                return "bad symbol table";
            so->symtab = so->s[i].in.data; so->nsym = so->s[i].in.size / 24; so->strtab = l.data; so->symstr = l.size;
            continue;
        }
        if (type == 3) continue; /* .strtab, .shstrtab: rebuilt */
        if (type == 4) {           /* RELA: for .text and .rodata only, checked below */
            uint32_t t = so->s[i].in.info;
            if (t >= so->shnum || (strcmp(so->s[t].in.name, ".text") && strcmp(so->s[t].in.name, ".rodata")))
                return "relocations outside .text and .rodata";
            continue;
        }
        if (!strcmp(so->s[i].in.name, ".note.GNU-stack") && !(flags & 2)) continue;
        if (!strcmp(so->s[i].in.name, ".comment") && type == 1 && flags == 0x30) { so->comment_in = i; continue; }
        if ((flags & 2) && !strncmp(so->s[i].in.name, ".rodata.", 8) && type == 1 && (flags & ~(uint64_t)0x20) == 0x12) {
            for (j = 0; so->mg[j].sec && (so->s[so->mg[j].sec].in.flags != flags || so->s[so->mg[j].sec].in.align != so->s[i].in.align); j++) {}
            if (so->mg[j].sec || j == GPUCOMPILE_AMDGPU__MERGES || !so->syn_index[GPUCOMPILE_AMDGPU__RODATA])
                return "mergeable sections of one kind, or before .rodata";
            so->mg[j].sec = i;
            so->s[i].merged = 1;
            continue;
        }
        if (flags & 2) {
            int k = !strcmp(so->s[i].in.name, ".text") && type == 1 && flags == 6 ? GPUCOMPILE_AMDGPU__TEXT
                  : !strcmp(so->s[i].in.name, ".rodata") && type == 1 && flags == 2 ? GPUCOMPILE_AMDGPU__RODATA
                  : !strcmp(so->s[i].in.name, ".note") && type == 7 && flags == 2 ? GPUCOMPILE_AMDGPU__NOTE : -1;
            if (k < 0 || so->syn_index[k]) return "an allocated section other than .text, .rodata and .note";
            so->syn_index[k] = i; /* the input section, for now */
            continue;
        }
        if (type != 1 || so->nextra == 64) return "a non-allocated section of an unknown kind";
        so->extra[so->nextra++] = i;
    }
    if (!so->symtab || !so->syn_index[GPUCOMPILE_AMDGPU__TEXT]) return "no symbol table or no .text";
    for (j = 0; so->mg[j].sec; j++) {
        const gpucompile_elf_section *in = &so->s[so->mg[j].sec].in;
        if ((why = gpucompile_amdgpu__merge_pieces(&so->mg[j], in->data, in->size, in->flags, in->entsize, in->align)) != NULL)
            return why;
    }
    return NULL;
}

/* The symbols: locals (no section symbols) as they are; globals defined, not weak, not hidden. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_symbols(gpucompile_amdgpu__so *so) {
    uint32_t i;
    so->sym_out = (uint32_t *)gpucompile_alloc(so->a, (size_t)(so->nsym + 1) * sizeof *so->sym_out);
    so->dyn = (gpucompile_amdgpu__dsym *)gpucompile_alloc(so->a, (size_t)(so->nsym + 1) * sizeof *so->dyn);
    if (!so->sym_out || !so->dyn) return "out of memory";
    for (i = 1; i < so->nsym; i++) {
        const unsigned char *y = so->symtab + 24 * i;
        unsigned bind = y[4] >> 4, vis = y[5] & 3;
        uint32_t shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
        if (gpucompile_read_le(y, 4) >= so->symstr) return "bad symbol name";
        if (!gpucompile_amdgpu__kept(y, so->strtab, so->mg)) continue;
        if (bind == 0) { so->nloc++; continue; }
        if ((bind != 1 && bind != 2) || shndx == 0 || shndx >= 0xff00) return "an undefined or common global symbol";
        if (vis == 1 || vis == 2) so->nloc++; /* hidden: local in the output, after the object's locals */
        else so->dyn[so->ndyn++].sym = i;
    }
    for (i = 0; i < so->nsym; i++) {
        uint32_t shndx = (uint32_t)gpucompile_read_le(so->symtab + 24 * i + 6, 2);
        if (shndx && shndx < 0xff00 && shndx >= so->shnum) return "a symbol in no section";
    }
    return NULL;
}

/* The dynamic symbols' strings in symbol order, then lld's GNU hash order; the .comment. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_dynstr(gpucompile_amdgpu__so *so) {
    uint32_t i;
    gpucompile_buf_add(&so->dstr, "", 1);
    for (i = 0; i < so->ndyn; i++) {
        const char *n = (const char *)so->strtab + gpucompile_read_le(so->symtab + 24 * so->dyn[i].sym, 4);
        so->dyn[i].name = (uint32_t)so->dstr.len;
        so->dyn[i].hash = gpucompile_amdgpu__gnu_hash(n);
        gpucompile_buf_add(&so->dstr, n, strlen(n) + 1);
    }
    so->nbuckets = so->ndyn / 4 > 1 ? so->ndyn / 4 : 1;
    for (i = 0; i < so->ndyn; i++) so->dyn[i].bucket = so->dyn[i].hash % so->nbuckets;
    qsort(so->dyn, so->ndyn, sizeof *so->dyn, gpucompile_amdgpu__dsym_cmp);
    for (so->maskwords = 1; so->maskwords <= so->ndyn * 12 / 64; so->maskwords <<= 1) {}
    return gpucompile_amdgpu__comment(&so->comment, so->linker, so->comment_in ? so->s[so->comment_in].in.data : NULL,
                                      so->comment_in ? (size_t)so->s[so->comment_in].in.size : 0);
}

/* The layout: addresses and offsets as lld assigns them. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_layout(gpucompile_amdgpu__so *so) {
    uint64_t *size = so->syn_size, *align = so->syn_align, dot;
    uint32_t *index = so->syn_index, i, j;
    const gpucompile_amdgpu__sec *note = &so->s[index[GPUCOMPILE_AMDGPU__NOTE]], *rodata = &so->s[index[GPUCOMPILE_AMDGPU__RODATA]];
    const gpucompile_amdgpu__sec *text = &so->s[index[GPUCOMPILE_AMDGPU__TEXT]];
    so->nph = index[GPUCOMPILE_AMDGPU__NOTE] ? 8 : 7;
    size[GPUCOMPILE_AMDGPU__NOTE] = index[GPUCOMPILE_AMDGPU__NOTE] ? note->in.size : 0;
    size[GPUCOMPILE_AMDGPU__DYNSYM] = 24 * (so->ndyn + 1);
    size[GPUCOMPILE_AMDGPU__GNUHASH] = 16 + 8 * so->maskwords + 4 * so->nbuckets + 4 * so->ndyn;
    size[GPUCOMPILE_AMDGPU__HASH] = 4 * (2 + 2 * (so->ndyn + 1));
    size[GPUCOMPILE_AMDGPU__DYNSTR] = so->dstr.len;
    size[GPUCOMPILE_AMDGPU__RODATA] = index[GPUCOMPILE_AMDGPU__RODATA] ? rodata->in.size : 0;
    size[GPUCOMPILE_AMDGPU__TEXT] = text->in.size;
    size[GPUCOMPILE_AMDGPU__DYNAMIC] = 7 * 16;
    align[GPUCOMPILE_AMDGPU__NOTE] = index[GPUCOMPILE_AMDGPU__NOTE] ? note->in.align : 1;
    align[GPUCOMPILE_AMDGPU__DYNSYM] = 8;
    align[GPUCOMPILE_AMDGPU__GNUHASH] = 8;
    align[GPUCOMPILE_AMDGPU__HASH] = 4;
    align[GPUCOMPILE_AMDGPU__DYNSTR] = 1;
    align[GPUCOMPILE_AMDGPU__RODATA] = index[GPUCOMPILE_AMDGPU__RODATA] ? rodata->in.align : 1;
    for (j = 0; so->mg[j].sec; j++) {
        uint64_t al = so->s[so->mg[j].sec].in.align;
        so->mg[j].start = gpucompile_amdgpu__up(size[GPUCOMPILE_AMDGPU__RODATA], al);
        size[GPUCOMPILE_AMDGPU__RODATA] = so->mg[j].start + so->mg[j].data.len;
        if (al > align[GPUCOMPILE_AMDGPU__RODATA]) align[GPUCOMPILE_AMDGPU__RODATA] = al;
    }
    align[GPUCOMPILE_AMDGPU__TEXT] = text->in.align;
    align[GPUCOMPILE_AMDGPU__DYNAMIC] = 8;
    align[GPUCOMPILE_AMDGPU__PADDING] = 1;
    for (i = 0; i < GPUCOMPILE_AMDGPU__NSYN; i++)
        if (align[i] & (align[i] - 1) || align[i] > GPUCOMPILE_AMDGPU__PAGE) return "an alignment lld would treat otherwise";
    so->off = dot = 64 + 56 * (uint64_t)so->nph;
    for (i = 0, so->nout = 1; i < GPUCOMPILE_AMDGPU__NSYN; i++) {
        int present = i == GPUCOMPILE_AMDGPU__NOTE || i == GPUCOMPILE_AMDGPU__RODATA ? index[i] != 0 : 1;
        if (!present) { index[i] = 0; continue; }
        if (i == GPUCOMPILE_AMDGPU__TEXT || i == GPUCOMPILE_AMDGPU__DYNAMIC) { /* a new segment: the next page, at the same offset in it */
            dot = gpucompile_amdgpu__up(gpucompile_amdgpu__up(dot, GPUCOMPILE_AMDGPU__PAGE) + dot % GPUCOMPILE_AMDGPU__PAGE, align[i]);
            so->off += (dot - so->off) & (GPUCOMPILE_AMDGPU__PAGE - 1);
        } else {
            dot = gpucompile_amdgpu__up(dot, align[i]);
            so->off = i == GPUCOMPILE_AMDGPU__PADDING ? so->off : gpucompile_amdgpu__up(so->off, align[i]);
        }
        if (i == GPUCOMPILE_AMDGPU__PADDING) size[i] = gpucompile_amdgpu__up(dot, GPUCOMPILE_AMDGPU__PAGE) - dot;
        if (i == GPUCOMPILE_AMDGPU__NOTE || i == GPUCOMPILE_AMDGPU__RODATA || i == GPUCOMPILE_AMDGPU__TEXT) {
            so->s[index[i]].addr = dot;
            so->s[index[i]].out = so->nout;
        }
        for (j = 0; i == GPUCOMPILE_AMDGPU__RODATA && so->mg[j].sec; j++) {
            so->s[so->mg[j].sec].addr = dot + so->mg[j].start;
            so->s[so->mg[j].sec].out = so->nout;
        }
        so->syn_addr[i] = dot;
        so->syn_off[i] = so->off;
        index[i] = so->nout++;
        dot += size[i];
        if (i != GPUCOMPILE_AMDGPU__PADDING) so->off += size[i];
    }
    for (i = 0; i < so->nextra; i++) {
        uint64_t al = so->s[so->extra[i]].in.align;
        so->s[so->extra[i]].out = so->nout++;
        so->s[so->extra[i]].off = so->off = gpucompile_amdgpu__up(so->off, al ? al : 1);
        so->off += so->s[so->extra[i]].in.size;
    }
    for (i = 1; i < so->nsym; i++) {
        uint32_t shndx = (uint32_t)gpucompile_read_le(so->symtab + 24 * i + 6, 2);
        if (gpucompile_amdgpu__kept(so->symtab + 24 * i, so->strtab, so->mg) && shndx && shndx < 0xff00 && !so->s[shndx].out)
            return "a symbol in a section lld drops";
    }
    return NULL;
}

/* The names of the output's sections and symbols (.shstrtab, .strtab), the places of the
   non-allocated sections at the end, and the output's buffer. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_names(gpucompile_amdgpu__so *so) {
    uint32_t i, j;
    gpucompile_buf_add(&so->shstr, "", 1);
    for (i = 0; i < GPUCOMPILE_AMDGPU__NSYN; i++)
        if (so->syn_index[i]) gpucompile_buf_add(&so->shstr, gpucompile_amdgpu__synname[i], strlen(gpucompile_amdgpu__synname[i]) + 1);
    for (i = 0; i < so->nextra; i++) {
        for (j = 0; j < i && strcmp(so->s[so->extra[j]].in.name, so->s[so->extra[i]].in.name); j++) {}
        if (j == i) gpucompile_buf_add(&so->shstr, so->s[so->extra[i]].in.name, strlen(so->s[so->extra[i]].in.name) + 1);
    }
    gpucompile_buf_add(&so->shstr, ".comment\0.symtab\0.shstrtab\0.strtab", 35);
    so->str_out = so->nout + 3;
    so->coff = so->off;
    so->yoff = gpucompile_amdgpu__up(so->coff + so->comment.len, 8);
    so->ysz = 24 * (1 + so->nloc + 1 + so->ndyn);
    so->ssoff = so->yoff + so->ysz;
    so->firstglob = 1 + so->nloc + 1; /* nloc: the hidden globals too */
    gpucompile_buf_add(&so->str, "", 1);
    for (i = 1; i < so->nsym; i++) /* local names, then globals', then _DYNAMIC's */
        if (gpucompile_amdgpu__kept(so->symtab + 24 * i, so->strtab, so->mg) && so->symtab[24 * i + 4] >> 4 == 0) {
            const char *n = (const char *)so->strtab + gpucompile_read_le(so->symtab + 24 * i, 4);
            so->sym_out[i] = (uint32_t)so->str.len; gpucompile_buf_add(&so->str, n, strlen(n) + 1);
        }
    for (i = 1; i < so->nsym; i++)
        if (gpucompile_amdgpu__kept(so->symtab + 24 * i, so->strtab, so->mg) && so->symtab[24 * i + 4] >> 4 != 0) {
            const char *n = (const char *)so->strtab + gpucompile_read_le(so->symtab + 24 * i, 4);
            so->sym_out[i] = (uint32_t)so->str.len; gpucompile_buf_add(&so->str, n, strlen(n) + 1);
        }
    so->sym_out[0] = (uint32_t)so->str.len; gpucompile_buf_add(&so->str, "_DYNAMIC", 9); /* sym_out[0]: _DYNAMIC's name */
    so->stroff = so->ssoff + so->shstr.len;
    so->shoff = gpucompile_amdgpu__up(so->stroff + so->str.len, 8);
    if (so->comment.oom || so->shstr.oom || so->str.oom || so->dstr.oom) return "out of memory";
    so->total = (size_t)(so->shoff + 64 * (uint64_t)(so->str_out + 1));
    so->o = (unsigned char *)gpucompile_alloc(so->a, so->total);
    if (!so->o) return "out of memory";
    memset(so->o, 0, so->total);
    return NULL;
}

/* The ELF header and the program headers: the read-only segment from the file's start, .text,
   .dynamic with its relro padding (and as PT_DYNAMIC, PT_GNU_RELRO), the stack, the .note. */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__so_headers(gpucompile_amdgpu__so *so) {
    const uint64_t *off = so->syn_off, *addr = so->syn_addr, *size = so->syn_size;
    const int text = GPUCOMPILE_AMDGPU__TEXT, dyn = GPUCOMPILE_AMDGPU__DYNAMIC, note = GPUCOMPILE_AMDGPU__NOTE;
    /* the read-only segment ends with .rodata, or .dynstr without one */
    const int ro = so->syn_index[GPUCOMPILE_AMDGPU__RODATA] ? GPUCOMPILE_AMDGPU__RODATA : GPUCOMPILE_AMDGPU__DYNSTR;
    uint64_t rw = size[dyn] + size[GPUCOMPILE_AMDGPU__PADDING];
    uint64_t row[8][6] = { /* flags << 32 | type, offset, address, file size, memory size, alignment */
        {0x400000006ull, 64, 64, 56 * (uint64_t)so->nph, 56 * (uint64_t)so->nph, 8},
        {0x400000001ull, 0, 0, off[ro] + size[ro], 0, 0x1000},
        {0x500000001ull, off[text], addr[text], size[text], size[text], 0x1000},
        {0x600000001ull, off[dyn], addr[dyn], size[dyn], rw, 0x1000},
        {0x600000002ull, off[dyn], addr[dyn], size[dyn], size[dyn], 8},
        {0x46474e552ull, off[dyn], addr[dyn], size[dyn], rw, 1},
        {0x66474e551ull, 0, 0, 0, 0, 0},
        {0x400000004ull, off[note], addr[note], size[note], size[note], so->syn_align[note]}};
    unsigned char *o = so->o;
    uint32_t i;
    memcpy(o, so->e, 16);
    gpucompile_amdgpu__wr(o + 16, 3, 2); gpucompile_amdgpu__wr(o + 18, 224, 2); gpucompile_amdgpu__wr(o + 20, 1, 4);
    gpucompile_amdgpu__wr(o + 32, 64, 8); gpucompile_amdgpu__wr(o + 40, so->shoff, 8);
    memcpy(o + 48, so->e + 48, 4); gpucompile_amdgpu__wr(o + 52, 64, 2); gpucompile_amdgpu__wr(o + 54, 56, 2);
    gpucompile_amdgpu__wr(o + 56, so->nph, 2); gpucompile_amdgpu__wr(o + 58, 64, 2); gpucompile_amdgpu__wr(o + 60, so->str_out + 1, 2);
    gpucompile_amdgpu__wr(o + 62, so->str_out - 1, 2);
    row[1][4] = row[1][3];
    for (i = 0; i < so->nph; i++) {
        unsigned char *p = o + 64 + 56 * i;
        gpucompile_amdgpu__wr(p, row[i][0] & 0xffffffffu, 4); gpucompile_amdgpu__wr(p + 4, row[i][0] >> 32, 4);
        gpucompile_amdgpu__wr(p + 8, row[i][1], 8); gpucompile_amdgpu__wr(p + 16, row[i][2], 8); gpucompile_amdgpu__wr(p + 24, row[i][2], 8);
        gpucompile_amdgpu__wr(p + 32, row[i][3], 8); gpucompile_amdgpu__wr(p + 40, row[i][4], 8); gpucompile_amdgpu__wr(p + 48, row[i][5], 8);
    }
}

/* The contents of the input's sections, then their relocations resolved. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__so_contents(gpucompile_amdgpu__so *so) {
    uint32_t i, j;
    for (i = 0; i < so->shnum; i++)
        if (so->s[i].out && so->s[i].in.type != 8 && !so->s[i].merged) {
            int k = so->s[i].out == so->syn_index[GPUCOMPILE_AMDGPU__NOTE] ? GPUCOMPILE_AMDGPU__NOTE
                  : so->s[i].out == so->syn_index[GPUCOMPILE_AMDGPU__RODATA] ? GPUCOMPILE_AMDGPU__RODATA : GPUCOMPILE_AMDGPU__TEXT;
            uint64_t dst = so->s[i].addr ? so->syn_off[k] : so->s[i].off;
            so->s[i].off = dst;
            memcpy(so->o + dst, so->s[i].in.data, (size_t)so->s[i].in.size);
        }
    for (j = 0; so->mg[j].sec; j++)
        memcpy(so->o + so->syn_off[GPUCOMPILE_AMDGPU__RODATA] + so->mg[j].start, so->mg[j].data.data, so->mg[j].data.len);
    for (i = 1; i < so->shnum; i++) {
        uint32_t t = so->s[i].in.info;
        uint64_t r, n = so->s[i].in.size / 24;
        if (so->s[i].in.type != 4) continue;
        for (r = 0; r < n; r++) {
            const unsigned char *q = so->s[i].in.data + 24 * r, *y;
            uint64_t at = gpucompile_read_le(q, 8), info = gpucompile_read_le(q + 8, 8), sym = info >> 32, v;
            uint32_t type = (uint32_t)info, shndx;
            int64_t add = (int64_t)gpucompile_read_le(q + 16, 8);
            int width = type == 5 ? 8 : 4;
            if (sym == 0 || sym >= so->nsym) return "a relocation without a symbol";
            y = so->symtab + 24 * sym;
            shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
            if ((type != 5 && type != 10 && type != 11) || shndx == 0 || shndx >= so->shnum || !so->s[shndx].addr ||
                (y[4] >> 4 != 0 && (y[5] & 3) == 0))
                return "a relocation other than PC-relative to a symbol that cannot be preempted";
            if (at > so->s[t].in.size || so->s[t].in.size - at < (uint64_t)width) return "a relocation outside its section";
            v = (y[4] & 15) == 3 ? gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8) + (uint64_t)add)
                                 : gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8)) + (uint64_t)add;
            v -= so->s[t].addr + at;
            gpucompile_amdgpu__wr(so->o + so->s[t].off + at, type == 11 ? v >> 32 : v, width);
        }
    }
    return NULL;
}

/* .dynsym, .gnu.hash, .hash, .dynstr, .dynamic */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__so_dynamic(gpucompile_amdgpu__so *so) {
    uint32_t i;
    for (i = 0; i < so->ndyn; i++) {
        const unsigned char *y = so->symtab + 24 * so->dyn[i].sym;
        unsigned char *p = so->o + so->syn_off[GPUCOMPILE_AMDGPU__DYNSYM] + 24 * (i + 1);
        uint32_t shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
        gpucompile_amdgpu__wr(p, so->dyn[i].name, 4); p[4] = y[4]; p[5] = y[5];
        gpucompile_amdgpu__wr(p + 6, shndx < 0xff00 ? so->s[shndx].out : shndx, 2);
        gpucompile_amdgpu__wr(p + 8, shndx < 0xff00 ? gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8))
                                                    : gpucompile_read_le(y + 8, 8), 8);
        memcpy(p + 16, y + 16, 8);
    }
    {
        unsigned char *g = so->o + so->syn_off[GPUCOMPILE_AMDGPU__GNUHASH], *bl = g + 16, *bk = bl + 8 * so->maskwords, *hv = bk + 4 * so->nbuckets;
        unsigned char *hs = so->o + so->syn_off[GPUCOMPILE_AMDGPU__HASH];
        uint32_t nd = so->ndyn + 1;
        gpucompile_amdgpu__wr(g, so->nbuckets, 4); gpucompile_amdgpu__wr(g + 4, 1, 4); gpucompile_amdgpu__wr(g + 8, so->maskwords, 4);
        gpucompile_amdgpu__wr(g + 12, 26, 4);
        for (i = 0; i < so->ndyn; i++) {
            unsigned char *w = bl + 8 * ((so->dyn[i].hash / 64) & (so->maskwords - 1));
            uint64_t m = gpucompile_read_le(w, 8) | 1ull << (so->dyn[i].hash % 64) | 1ull << ((so->dyn[i].hash >> 26) % 64);
            int last = i + 1 == so->ndyn || so->dyn[i + 1].bucket != so->dyn[i].bucket;
            gpucompile_amdgpu__wr(w, m, 8);
            gpucompile_amdgpu__wr(hv + 4 * i, last ? so->dyn[i].hash | 1 : so->dyn[i].hash & ~1u, 4);
            if (i == 0 || so->dyn[i - 1].bucket != so->dyn[i].bucket) gpucompile_amdgpu__wr(bk + 4 * so->dyn[i].bucket, i + 1, 4);
        }
        gpucompile_amdgpu__wr(hs, nd, 4); gpucompile_amdgpu__wr(hs + 4, nd, 4);
        for (i = 0; i < so->ndyn; i++) {
            uint32_t hb = gpucompile_amdgpu__sysv_hash((const char *)so->dstr.data + so->dyn[i].name) % nd;
            memcpy(hs + 8 + 4 * nd + 4 * (i + 1), hs + 8 + 4 * hb, 4);
            gpucompile_amdgpu__wr(hs + 8 + 4 * hb, i + 1, 4);
        }
        memcpy(so->o + so->syn_off[GPUCOMPILE_AMDGPU__DYNSTR], so->dstr.data, so->dstr.len);
        {
            uint64_t d[7][2] = {{6, so->syn_addr[GPUCOMPILE_AMDGPU__DYNSYM]}, {11, 24}, {5, so->syn_addr[GPUCOMPILE_AMDGPU__DYNSTR]},
                                {10, so->dstr.len}, {0x6ffffef5, so->syn_addr[GPUCOMPILE_AMDGPU__GNUHASH]},
                                {4, so->syn_addr[GPUCOMPILE_AMDGPU__HASH]}, {0, 0}};
            for (i = 0; i < 7; i++) {
                gpucompile_amdgpu__wr(so->o + so->syn_off[GPUCOMPILE_AMDGPU__DYNAMIC] + 16 * i, d[i][0], 8);
                gpucompile_amdgpu__wr(so->o + so->syn_off[GPUCOMPILE_AMDGPU__DYNAMIC] + 16 * i + 8, d[i][1], 8);
            }
        }
    }
}

/* .comment, .symtab (locals, hidden globals as locals, _DYNAMIC, the other globals), .shstrtab,
   .strtab. */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__so_symtab(gpucompile_amdgpu__so *so) {
    uint32_t i, k = 1;
    memcpy(so->o + so->coff, so->comment.data, so->comment.len);
    for (i = 1; i < so->nsym; i++) {
        const unsigned char *y = so->symtab + 24 * i;
        uint32_t shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
        unsigned char *p;
        if (!gpucompile_amdgpu__kept(y, so->strtab, so->mg)) continue;
        if (y[4] >> 4 == 0) p = so->o + so->yoff + 24 * k++;
        else continue;
        gpucompile_amdgpu__wr(p, so->sym_out[i], 4); p[4] = y[4]; p[5] = y[5];
        gpucompile_amdgpu__wr(p + 6, shndx && shndx < 0xff00 ? so->s[shndx].out : shndx, 2);
        gpucompile_amdgpu__wr(p + 8, shndx && shndx < 0xff00 ? gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8))
                                                             : gpucompile_read_le(y + 8, 8), 8);
        memcpy(p + 16, y + 16, 8);
    }
    for (i = 1; i < so->nsym; i++) {
        const unsigned char *y = so->symtab + 24 * i;
        uint32_t shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
        unsigned char *p;
        if (!gpucompile_amdgpu__kept(y, so->strtab, so->mg) || y[4] >> 4 == 0 || ((y[5] & 3) != 1 && (y[5] & 3) != 2)) continue;
        p = so->o + so->yoff + 24 * k++;
        gpucompile_amdgpu__wr(p, so->sym_out[i], 4); p[4] = y[4] & 15; p[5] = y[5];
        gpucompile_amdgpu__wr(p + 6, so->s[shndx].out, 2);
        gpucompile_amdgpu__wr(p + 8, gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8)), 8);
        memcpy(p + 16, y + 16, 8);
    }
    {
        unsigned char *p = so->o + so->yoff + 24 * k++;
        gpucompile_amdgpu__wr(p, so->sym_out[0], 4); p[5] = 2;
        gpucompile_amdgpu__wr(p + 6, so->syn_index[GPUCOMPILE_AMDGPU__DYNAMIC], 2);
        gpucompile_amdgpu__wr(p + 8, so->syn_addr[GPUCOMPILE_AMDGPU__DYNAMIC], 8);
    }
    for (i = 1; i < so->nsym; i++) {
        const unsigned char *y = so->symtab + 24 * i;
        uint32_t shndx = (uint32_t)gpucompile_read_le(y + 6, 2);
        unsigned char *p;
        if (!gpucompile_amdgpu__kept(y, so->strtab, so->mg) || y[4] >> 4 == 0 || (y[5] & 3) == 1 || (y[5] & 3) == 2) continue;
        p = so->o + so->yoff + 24 * k++;
        gpucompile_amdgpu__wr(p, so->sym_out[i], 4); p[4] = y[4]; p[5] = y[5];
        gpucompile_amdgpu__wr(p + 6, so->s[shndx].out, 2);
        gpucompile_amdgpu__wr(p + 8, gpucompile_amdgpu__va(so->s, so->mg, shndx, gpucompile_read_le(y + 8, 8)), 8);
        memcpy(p + 16, y + 16, 8);
    }
    memcpy(so->o + so->ssoff, so->shstr.data, so->shstr.len);
    memcpy(so->o + so->stroff, so->str.data, so->str.len);
}

/* The section headers: lld's sections, the non-allocated ones, .comment, .symtab, .shstrtab, .strtab. */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__so_section_headers(gpucompile_amdgpu__so *so) {
    static const uint32_t type[GPUCOMPILE_AMDGPU__NSYN] = {GPUCOMPILE_AMDGPU__SYNTHETIC(GPUCOMPILE_AMDGPU__SYN_TYPE)};
    static const uint64_t flags[GPUCOMPILE_AMDGPU__NSYN] = {GPUCOMPILE_AMDGPU__SYNTHETIC(GPUCOMPILE_AMDGPU__SYN_FLAGS)};
    static const uint64_t ent[GPUCOMPILE_AMDGPU__NSYN] = {GPUCOMPILE_AMDGPU__SYNTHETIC(GPUCOMPILE_AMDGPU__SYN_ENT)};
    uint32_t i, j, at = 0, idx = 1;
    for (i = 0; i < GPUCOMPILE_AMDGPU__NSYN; i++) {
        unsigned char *p;
        uint64_t m;
        if (!so->syn_index[i]) continue;
        at = gpucompile_amdgpu__strat(&so->shstr, gpucompile_amdgpu__synname[i]);
        p = so->o + so->shoff + 64 * idx++;
        gpucompile_amdgpu__wr(p, at, 4); gpucompile_amdgpu__wr(p + 4, type[i], 4);
        for (j = 0, m = flags[i]; i == GPUCOMPILE_AMDGPU__RODATA && so->mg[j].sec; j++) m |= so->s[so->mg[j].sec].in.flags;
        gpucompile_amdgpu__wr(p + 8, m, 8);
        gpucompile_amdgpu__wr(p + 16, so->syn_addr[i], 8); gpucompile_amdgpu__wr(p + 24, so->syn_off[i], 8); gpucompile_amdgpu__wr(p + 32, so->syn_size[i], 8);
        if (i == GPUCOMPILE_AMDGPU__DYNSYM || i == GPUCOMPILE_AMDGPU__DYNAMIC) gpucompile_amdgpu__wr(p + 40, so->syn_index[GPUCOMPILE_AMDGPU__DYNSTR], 4);
        if (i == GPUCOMPILE_AMDGPU__GNUHASH || i == GPUCOMPILE_AMDGPU__HASH) gpucompile_amdgpu__wr(p + 40, so->syn_index[GPUCOMPILE_AMDGPU__DYNSYM], 4);
        if (i == GPUCOMPILE_AMDGPU__DYNSYM) gpucompile_amdgpu__wr(p + 44, 1, 4);
        gpucompile_amdgpu__wr(p + 48, so->syn_align[i], 8); gpucompile_amdgpu__wr(p + 56, ent[i], 8);
    }
    for (i = 0; i < so->nextra; i++) {
        const gpucompile_elf_section *in = &so->s[so->extra[i]].in;
        unsigned char *p = so->o + so->shoff + 64 * idx++;
        at = gpucompile_amdgpu__strat(&so->shstr, in->name);
        gpucompile_amdgpu__wr(p, at, 4); gpucompile_amdgpu__wr(p + 4, in->type, 4); gpucompile_amdgpu__wr(p + 8, in->flags, 8);
        gpucompile_amdgpu__wr(p + 24, so->s[so->extra[i]].off, 8); gpucompile_amdgpu__wr(p + 32, in->size, 8);
        gpucompile_amdgpu__wr(p + 48, in->align, 8); gpucompile_amdgpu__wr(p + 56, in->entsize, 8);
    }
    {
        uint64_t rows[4][7] = {{1, 0x30, so->coff, so->comment.len, 0, 0, 1}, {2, 0, so->yoff, so->ysz, so->str_out, so->firstglob, 8},
                               {3, 0, so->ssoff, so->shstr.len, 0, 0, 1}, {3, 0, so->stroff, so->str.len, 0, 0, 1}};
        static const char *const names[4] = {".comment", ".symtab", ".shstrtab", ".strtab"};
        for (i = 0; i < 4; i++) {
            unsigned char *p = so->o + so->shoff + 64 * idx++;
            at = gpucompile_amdgpu__strat(&so->shstr, names[i]);
            gpucompile_amdgpu__wr(p, at, 4); gpucompile_amdgpu__wr(p + 4, rows[i][0], 4); gpucompile_amdgpu__wr(p + 8, rows[i][1], 8);
            gpucompile_amdgpu__wr(p + 24, rows[i][2], 8); gpucompile_amdgpu__wr(p + 32, rows[i][3], 8);
            gpucompile_amdgpu__wr(p + 40, rows[i][4], 4); gpucompile_amdgpu__wr(p + 44, rows[i][5], 4);
            gpucompile_amdgpu__wr(p + 48, rows[i][6], 8); gpucompile_amdgpu__wr(p + 56, i == 0 ? 1 : i == 1 ? 24 : 0, 8);
        }
    }
}

/* Writes the shared object into *out (the caller's allocator); returns NULL, or why not (then
   nothing is allocated). linker: the .comment's "Linker: ..." string. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__write_so(const unsigned char *e, size_t size, const char *linker,
                                                           const gpucompile_allocator *a, unsigned char **out, size_t *out_size) {
    gpucompile_amdgpu__so so;
    const char *why;
    uint32_t j;
    memset(&so, 0, sizeof so);
    so.e = e;
    so.size = size;
    so.linker = linker;
    so.a = so.comment.a = so.shstr.a = so.str.a = so.dstr.a = a;
    for (j = 0; j <= GPUCOMPILE_AMDGPU__MERGES; j++) so.mg[j].data.a = a;
    why = gpucompile_amdgpu__so_sections(&so);
    if (!why) why = gpucompile_amdgpu__so_symbols(&so);
    if (!why) why = gpucompile_amdgpu__so_dynstr(&so);
    if (!why) why = gpucompile_amdgpu__so_layout(&so);
    if (!why) why = gpucompile_amdgpu__so_names(&so);
    if (!why) gpucompile_amdgpu__so_headers(&so);
    if (!why) why = gpucompile_amdgpu__so_contents(&so);
    if (!why) {
        gpucompile_amdgpu__so_dynamic(&so);
        gpucompile_amdgpu__so_symtab(&so);
        gpucompile_amdgpu__so_section_headers(&so);
        *out = so.o;
        *out_size = so.total;
        so.o = NULL;
    }
    gpucompile_free(a, so.o);
    gpucompile_free(a, so.s); gpucompile_free(a, so.dyn); gpucompile_free(a, so.sym_out);
    for (j = 0; j < GPUCOMPILE_AMDGPU__MERGES; j++) { gpucompile_free(a, so.mg[j].in); gpucompile_free(a, so.mg[j].data.data); }
    gpucompile_free(a, so.comment.data); gpucompile_free(a, so.shstr.data); gpucompile_free(a, so.str.data); gpucompile_free(a, so.dstr.data);
    return why;
}

/* "Linker: <the vendor's> LLD <version>", the .comment that the ld.lld found writes, when that
   ld.lld is this LLVM's (its version string is in its file); LLD of this LLVM when none is found.
   0: another ld.lld, which then runs. Read once per path and process. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__linker(gpucompile_job *job, char *linker, size_t size) {
    static char path[4096], found[128];
    static int known;
    static const char want[] = "LLD " LLVM_VERSION_STRING;
    char lld[4096];
    unsigned char *data = NULL;
    size_t n = 0, i, at;
    int ok;
    if (!gpucompile_amdgpu__find_lld(job, lld, sizeof lld)) return (size_t)snprintf(linker, size, "Linker: %s", want) < size;
    gpucompile_lock();
    ok = known && !strcmp(path, lld);
    if (ok) snprintf(linker, size, "%s", found);
    gpucompile_unlock();
    if (ok) return found[0] != 0;
    found[0] = 0;
    if (gpucompile_read_file(lld, &job->options->allocator, &data, &n) == GPUCOMPILE_OK)
        for (i = 0; i + sizeof want <= n; i++)
            if (data[i] == 'L' && !memcmp(data + i, want, sizeof want)) { /* the NUL too */
                for (at = i; at > 0 && at > i - 64 && data[at - 1] >= ' ' && data[at - 1] < 127; at--) {}
                gpucompile_lock();
                snprintf(found, sizeof found, "Linker: %s", (const char *)data + at);
                gpucompile_unlock();
                break;
            }
    gpucompile_job_free(job, data);
    gpucompile_lock();
    snprintf(path, sizeof path, "%s", lld);
    known = 1;
    ok = found[0] != 0;
    if (ok) snprintf(linker, size, "%s", found);
    gpucompile_unlock();
    return ok;
}

/* options.bin_method: "elf" the in-process writer only, "lld" ld.lld only; NULL: the writer,
   ld.lld for what it does not handle, for a named ld.lld, tool options, save_temps (the
   repro.sh replays the tool lines that ran), or another LLD. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__hsaco(gpucompile_job *job) {
    const char *m = job->options->bin_method, *why;
    const char *opts = job->options->tool_options;
    char linker[128];
    unsigned char *data = NULL;
    size_t size = 0;
    if (m && strcmp(m, "lld") && strcmp(m, "elf"))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_ARGUMENT, "unknown bin_method '%s' for AMDGPU (elf or lld)", m);
    if (m && !strcmp(m, "lld")) return gpucompile_amdgpu__link_emitted(job);
    if (!m && gpucompile_job_tool_path(job, "ld.lld")) why = "an ld.lld named in the options";
    else if (!m && opts && *opts) why = "tool options";
    else if (!m && job->options->save_temps) why = "--save-temps (its repro.sh replays the ld.lld that ran)";
    else if (!gpucompile_amdgpu__linker(job, linker, sizeof linker)) why = "an ld.lld of another LLVM than " LLVM_VERSION_STRING;
    else why = gpucompile_amdgpu__write_so((const unsigned char *)LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted), linker,
                                           &job->options->allocator, &data, &size);
    if (!why) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "hsaco", "written in-process (%zu bytes, as ld.lld -shared)", size);
        job->result_data = data;
        job->result_size = size;
        return GPUCOMPILE_OK;
    }
    if (m) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "the in-process hsaco writer does not handle %s", why);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "hsaco", "ld.lld runs: the in-process writer does not handle %s", why);
    return gpucompile_amdgpu__link_emitted(job);
}

/* ---- partitions (gpucompile_backend.join): N objects into one hsaco ---------------------
   ld.lld links them (the in-process writer lays out one object) but would keep each object's
   metadata note, where the loader reads one. So the notes are merged: the first object's map
   with the kernels of all (in partition order; every other entry must be the same in each),
   written as one more object that holds only that note, and the objects' own note sections
   are marked SHF_EXCLUDE, which a final link drops. */

/* The AMDGPU metadata note of a relocatable object: its descriptor and its section (*sec),
   which must hold that note alone. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__obj_note(const unsigned char *d, size_t size, const unsigned char **desc, size_t *desc_size,
                                                    gpucompile_elf_section *sec) {
    return gpucompile_amdgpu__note(d, size, desc, desc_size, sec) &&
           sec->size == 12 + 8 + gpucompile_amdgpu__up(*desc_size, 4); /* "AMDGPU\0" padded to 8 */
}

/* A note's descriptor around its amdhsa.kernels array: *head bytes up to the array's header,
   then the kernels' maps (*items, *items_size bytes, *count of them), then the rest. */
typedef struct gpucompile_amdgpu__split { size_t head; const unsigned char *items; size_t items_size; unsigned long long count; } gpucompile_amdgpu__split;

GPUCOMPILE_PRIVATE int gpucompile_amdgpu__note_split(const unsigned char *desc, size_t size, gpucompile_amdgpu__split *sp) {
    gpucompile_amdgpu__mp m;
    gpucompile_amdgpu__mpv key, val;
    const unsigned char *at;
    unsigned long long left = gpucompile_amdgpu__mp_root(&m, desc, size);
    int found = 0;
    while (gpucompile_amdgpu__mp_entry(&m, &left, &key, &val, &at)) {
        if (!found && gpucompile_amdgpu__mp_is(&key, "amdhsa.kernels") && val.kind == 'a') {
            found = 1;
            sp->head = (size_t)(at - desc);
            sp->items = m.p;
            sp->count = val.n;
            gpucompile_amdgpu__mp_skip(&m, &val, 1);
            sp->items_size = (size_t)(m.p - sp->items);
        } else gpucompile_amdgpu__mp_skip(&m, &val, 1);
    }
    return found && !m.bad && m.p == m.end; /* found: the root is a map */
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__join(gpucompile_job *job, gpucompile_format format, const LLVMMemoryBufferRef *parts, int n) {
    const gpucompile_allocator *a = &job->options->allocator;
    const char *m = job->options->bin_method;
    unsigned char **objs = (unsigned char **)gpucompile_job_alloc(job, (size_t)(n + 1) * sizeof *objs);
    size_t *sizes = (size_t *)gpucompile_job_alloc(job, (size_t)(n + 1) * sizeof *sizes);
    gpucompile_buf desc, items, tail, note;
    gpucompile_amdgpu__split first;
    unsigned long long total = 0;
    gpucompile_result r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    int i, made = 0;
    (void)format;
    memset(&desc, 0, sizeof desc);
    memset(&items, 0, sizeof items);
    memset(&tail, 0, sizeof tail);
    memset(&first, 0, sizeof first);
    memset(&note, 0, sizeof note);
    desc.a = items.a = tail.a = note.a = a;
    if (m && strcmp(m, "lld")) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "the in-process hsaco writer links one object, and -j %d code generation made %d: "
                             "use bin_method lld or -j 1", job->options->jobs, n);
        goto done;
    }
    if (!objs || !sizes) goto done;
    for (i = 0; i < n; i++, made++) { /* objs[1..n]: the partitions' objects, their notes excluded */
        const unsigned char *d;
        size_t d_size;
        gpucompile_elf_section sec;
        gpucompile_amdgpu__split sp;
        sizes[i + 1] = LLVMGetBufferSize(parts[i]);
        if (!(objs[i + 1] = (unsigned char *)gpucompile_job_alloc(job, sizes[i + 1]))) goto done;
        memcpy(objs[i + 1], LLVMGetBufferStart(parts[i]), sizes[i + 1]);
        if (!gpucompile_amdgpu__obj_note(objs[i + 1], sizes[i + 1], &d, &d_size, &sec) || !gpucompile_amdgpu__note_split(d, d_size, &sp)) {
            made++;
            r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_BINARY, "partition %d's object has no metadata note in a section of its own", i + 1);
            goto done;
        }
        if (!i) { /* the merged descriptor: the first note's, its kernels' array to be completed */
            first = sp;
            gpucompile_buf_add(&desc, d, sp.head);
            gpucompile_buf_add(&tail, sp.items + sp.items_size, (size_t)(d + d_size - (sp.items + sp.items_size)));
        } else if (desc.oom || tail.oom) {
            made++;
            goto done;
        } else if (sp.head != first.head || memcmp(d, desc.data, sp.head) != 0 ||
                   (size_t)(d + d_size - (sp.items + sp.items_size)) != tail.len || memcmp(sp.items + sp.items_size, tail.data, tail.len) != 0) {
            made++;
            r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the partitions' metadata notes differ in more than their kernels: use -j 1");
            goto done;
        }
        gpucompile_buf_add(&items, sp.items, sp.items_size);
        total += sp.count;
        gpucompile_amdgpu__wr(objs[i + 1] + sec.header + 8, sec.flags | 0x80000000u, 8); /* SHF_EXCLUDE */
    }
    {
        unsigned char h[5];
        if (total < 16) { h[0] = (unsigned char)(0x90 | total); gpucompile_buf_add(&desc, h, 1); }
        else if (total < 65536) { h[0] = 0xdc; h[1] = (unsigned char)(total >> 8); h[2] = (unsigned char)total; gpucompile_buf_add(&desc, h, 3); }
        else {
            h[0] = 0xdd; h[1] = (unsigned char)(total >> 24); h[2] = (unsigned char)(total >> 16); h[3] = (unsigned char)(total >> 8);
            h[4] = (unsigned char)total;
            gpucompile_buf_add(&desc, h, 5);
        }
        gpucompile_buf_add(&desc, items.data, items.len);
        gpucompile_buf_add(&desc, tail.data, tail.len);
    }
    {   /* objs[0]: a relocatable object of the first one's kind holding .note alone */
        static const char shstr[] = "\0.note\0.shstrtab";
        unsigned char z[64];
        size_t note_size = 12 + 8 + (size_t)gpucompile_amdgpu__up(desc.len, 4), shoff = (size_t)gpucompile_amdgpu__up(64 + note_size + sizeof shstr, 8);
        memset(z, 0, sizeof z);
        memcpy(z, objs[1], 16);                  /* e_ident */
        gpucompile_amdgpu__wr(z + 16, 1, 2);     /* ET_REL */
        memcpy(z + 18, objs[1] + 18, 2);         /* e_machine */
        gpucompile_amdgpu__wr(z + 20, 1, 4);
        gpucompile_amdgpu__wr(z + 0x28, shoff, 8);
        memcpy(z + 0x30, objs[1] + 0x30, 4);     /* e_flags: the chip */
        gpucompile_amdgpu__wr(z + 0x34, 64, 2);
        gpucompile_amdgpu__wr(z + 0x3a, 64, 2);
        gpucompile_amdgpu__wr(z + 0x3c, 3, 2);
        gpucompile_amdgpu__wr(z + 0x3e, 2, 2);
        gpucompile_buf_add(&note, z, 64);
        memset(z, 0, sizeof z);
        gpucompile_amdgpu__wr(z, 7, 4);
        gpucompile_amdgpu__wr(z + 4, desc.len, 4);
        gpucompile_amdgpu__wr(z + 8, 32, 4); /* NT_AMDGPU_METADATA */
        memcpy(z + 12, "AMDGPU\0", 8);
        gpucompile_buf_add(&note, z, 20);
        gpucompile_buf_add(&note, desc.data, desc.len);
        memset(z, 0, sizeof z);
        gpucompile_buf_add(&note, z, note_size - 20 - desc.len);
        gpucompile_buf_add(&note, shstr, sizeof shstr);
        gpucompile_buf_add(&note, z, shoff - note.len);
        gpucompile_buf_add(&note, z, 64); /* the null section */
        gpucompile_amdgpu__wr(z, 1, 4);
        gpucompile_amdgpu__wr(z + 4, 7, 4);  /* SHT_NOTE */
        gpucompile_amdgpu__wr(z + 8, 2, 8);  /* SHF_ALLOC */
        gpucompile_amdgpu__wr(z + 24, 64, 8);
        gpucompile_amdgpu__wr(z + 32, note_size, 8);
        gpucompile_amdgpu__wr(z + 48, 4, 8);
        gpucompile_buf_add(&note, z, 64);
        memset(z, 0, sizeof z);
        gpucompile_amdgpu__wr(z, 7, 4);
        gpucompile_amdgpu__wr(z + 4, 3, 4);  /* SHT_STRTAB */
        gpucompile_amdgpu__wr(z + 24, 64 + note_size, 8);
        gpucompile_amdgpu__wr(z + 32, sizeof shstr, 8);
        gpucompile_amdgpu__wr(z + 48, 1, 8);
        gpucompile_buf_add(&note, z, 64);
    }
    if (desc.oom || items.oom || tail.oom || note.oom) goto done;
    objs[0] = (unsigned char *)note.data;
    sizes[0] = note.len;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "hsaco", "ld.lld runs: the in-process writer links one object, not %d", n);
    r = gpucompile_amdgpu__link_hsaco(job, (const unsigned char *const *)objs, sizes, n + 1);
done:
    for (i = 0; objs && i < made; i++) gpucompile_job_free(job, objs[i + 1]);
    gpucompile_job_free(job, objs);
    gpucompile_job_free(job, sizes);
    gpucompile_free(a, desc.data);
    gpucompile_free(a, items.data);
    gpucompile_free(a, tail.data);
    gpucompile_free(a, note.data);
    return r;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__finish(gpucompile_job *job, gpucompile_format format) {
    gpucompile_object *o = job->object;
    gpucompile_result r;
    int i;
    if (format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK; /* isa: the core keeps LLVM's text */
    if (!job->result_data && (r = gpucompile_amdgpu__hsaco(job)) != GPUCOMPILE_OK) return r; /* else join linked it */
    for (i = 0; i < o->num_kernels; i++)
        if (gpucompile_amdgpu__note_kernels(job->result_data, job->result_size, o->kernels[i].name, &o->kernels[i], NULL, &o->allocator) !=
            GPUCOMPILE_OK)
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                               "kernel '%s' is not in the hsaco's metadata note", o->kernels[i].name);
    return GPUCOMPILE_OK;
}

/* The ROCm roots searched, in order (the device libraries and ld.lld are found there). */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__cache_key(gpucompile_job *job, char *buf, size_t size) {
    const char *roots[8];
    int n = gpucompile_amdgpu__roots(job, roots, 1), i;
    size_t at = 0;
    buf[0] = 0;
    for (i = 0; i < n && at < size; i++) at += (size_t)snprintf(buf + at, size - at, "%s\n", roots[i]);
}

/* ---- module checks: valid IR that AMDGPU aborts or crashes on ---- */
/* LLVM 19 aborts ("Unsupported calling convention") or crashes on any but these (ptx_kernel,
   spir_func, x86 ones, tailcc, ...), and on the graphics ones (amdgpu_ps, amdgpu_gfx, ...)
   under amdhsa: c, fast, cold, amdgpu_kernel, spir_kernel. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__calling_convention_ok(unsigned cc) {
    return cc == 0 || cc == 8 || cc == 9 || cc == 91 || cc == 76;
}

GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__bad_address_space(unsigned as) {
    return as > 8 ? "an address space AMDGPU lacks" : NULL;
}

/* Casts only between 0, 1, 3, 4, 5, 6; no loads or stores through 2 or 8; no stack object of
   4 GiB. */
GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__bad_instruction(LLVMValueRef in) {
    LLVMOpcode op = LLVMGetInstructionOpcode(in);
    if (op == LLVMLoad || op == LLVMStore || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) {
        unsigned a = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, op == LLVMStore ? 1 : 0)));
        if (a == 2 || a == 8) return "memory access through address space 2 or 8";
    }
    if (op == LLVMAlloca && LLVMIsConstant(LLVMGetOperand(in, 0)) &&
        LLVMStoreSizeOfType(LLVMGetModuleDataLayout(LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(in)))),
                            LLVMGetAllocatedType(in)) >> 32)
        return "a stack object of 4 GiB or more";
    if (op == LLVMAddrSpaceCast) {
        unsigned a = LLVMGetPointerAddressSpace(LLVMTypeOf(in)), b = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0)));
        if (a == 2 || a > 6 || b == 2 || b > 6) return "an address space cast AMDGPU cannot select";
    }
    return NULL;
}

/* By-value aggregates: AMDGPU crashes from 64 KiB and takes minutes from 16 KiB. */
static const gpucompile_code_rules gpucompile_amdgpu__code_rules = { /* in gpucompile_code_rules' order */
    4096,                                 /* max_param_bytes */
    gpucompile_amdgpu__bad_address_space, /* bad_address_space */
    gpucompile_amdgpu__bad_instruction,   /* bad_instruction */
    NULL,                                 /* bad_global */
    NULL};                                /* bad_metadata */

/* ---- the chip table ---- */
/* The names LLVM_VERSION_MAJOR's AMDGPU backend accepts (llc -mcpu=help). LLVM 19 and 22 are
   measured (tests/test_target.c compares them with llc of the same LLVM both ways); 20 and 21
   follow the LLVM sources of those releases. Unknown chips abort inside LLVM, so a chip
   missing here is refused rather than risked. The legacy names (tahiti, ...) and "generic" are
   left out: the device libraries are keyed by gfx numbers. */
#define GPUCOMPILE_AMDGPU__XNACK 1   /* target ID may carry :xnack+/- */
#define GPUCOMPILE_AMDGPU__SRAMECC 2 /* target ID may carry :sramecc+/- */
#define GPUCOMPILE_AMDGPU__GENERIC 4 /* needs code object version 6 (LLVM ERROR below that) */
typedef struct gpucompile_amdgpu__chip_entry {
    const char *name;
    int bits;
} gpucompile_amdgpu__chip_entry;

static const gpucompile_amdgpu__chip_entry gpucompile_amdgpu__chips[] = {
    {"gfx600", 0}, {"gfx601", 0}, {"gfx602", 0}, {"gfx700", 0}, {"gfx701", 0}, {"gfx702", 0},
    {"gfx703", 0}, {"gfx704", 0}, {"gfx705", 0}, {"gfx801", GPUCOMPILE_AMDGPU__XNACK}, {"gfx802", 0},
    {"gfx803", 0}, {"gfx805", 0}, {"gfx810", GPUCOMPILE_AMDGPU__XNACK}, {"gfx900", GPUCOMPILE_AMDGPU__XNACK},
    {"gfx902", GPUCOMPILE_AMDGPU__XNACK}, {"gfx904", GPUCOMPILE_AMDGPU__XNACK},
    {"gfx906", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC}, {"gfx908", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC},
    {"gfx909", GPUCOMPILE_AMDGPU__XNACK}, {"gfx90a", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC},
    {"gfx90c", GPUCOMPILE_AMDGPU__XNACK},
#if LLVM_VERSION_MAJOR <= 20 /* removed in LLVM 21 (folded into gfx942) */
    {"gfx940", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC}, {"gfx941", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC},
#endif
    {"gfx942", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC},
    {"gfx1010", GPUCOMPILE_AMDGPU__XNACK}, {"gfx1011", GPUCOMPILE_AMDGPU__XNACK}, {"gfx1012", GPUCOMPILE_AMDGPU__XNACK},
    {"gfx1013", GPUCOMPILE_AMDGPU__XNACK}, {"gfx1030", 0}, {"gfx1031", 0}, {"gfx1032", 0}, {"gfx1033", 0},
    {"gfx1034", 0}, {"gfx1035", 0}, {"gfx1036", 0}, {"gfx1100", 0}, {"gfx1101", 0}, {"gfx1102", 0},
    {"gfx1103", 0}, {"gfx1150", 0}, {"gfx1151", 0}, {"gfx1152", 0}, {"gfx1200", 0}, {"gfx1201", 0},
    {"gfx9-generic", GPUCOMPILE_AMDGPU__GENERIC | GPUCOMPILE_AMDGPU__XNACK},
    {"gfx10-1-generic", GPUCOMPILE_AMDGPU__GENERIC | GPUCOMPILE_AMDGPU__XNACK}, {"gfx10-3-generic", GPUCOMPILE_AMDGPU__GENERIC},
    {"gfx11-generic", GPUCOMPILE_AMDGPU__GENERIC}, {"gfx12-generic", GPUCOMPILE_AMDGPU__GENERIC},
#if LLVM_VERSION_MAJOR >= 20
    {"gfx950", GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC}, {"gfx1153", 0},
    {"gfx9-4-generic", GPUCOMPILE_AMDGPU__GENERIC | GPUCOMPILE_AMDGPU__XNACK | GPUCOMPILE_AMDGPU__SRAMECC},
#endif
#if LLVM_VERSION_MAJOR >= 21
    {"gfx1250", GPUCOMPILE_AMDGPU__XNACK},
#endif
#if LLVM_VERSION_MAJOR >= 22
    {"gfx1251", GPUCOMPILE_AMDGPU__XNACK},
#endif
    {NULL, 0}};

/* The AMDGPU table entry for a target ID "gfx90a:sramecc-:xnack+" (each known feature at most
   once, with + or -, and only where the chip has it), or NULL. */
GPUCOMPILE_PRIVATE const gpucompile_amdgpu__chip_entry *gpucompile_amdgpu__chip(const char *id) {
    const gpucompile_amdgpu__chip_entry *c;
    gpucompile_amdgpu__id s;
    if (gpucompile_amdgpu__split_id(id, &s)) return NULL;
    for (c = gpucompile_amdgpu__chips; c->name; c++)
        if (strlen(c->name) == s.chip_len && strncmp(c->name, id, s.chip_len) == 0) break;
    if (!c->name || (s.xnack && !(c->bits & GPUCOMPILE_AMDGPU__XNACK)) || (s.sramecc && !(c->bits & GPUCOMPILE_AMDGPU__SRAMECC))) return NULL;
    return c;
}

/* ---- targets: chips, verification ---- */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__chip_supported(const char *chip) { return gpucompile_amdgpu__chip(chip) != NULL; }

GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__chip_name(int index, int *native) {
    int i;
    for (i = 0; gpucompile_amdgpu__chips[i].name; i++)
        if (i == index) {
            if (native) *native = 1; /* every entry is one this LLVM emits for */
            return gpucompile_amdgpu__chips[i].name;
        }
    return NULL;
}

/* MLIR's abi check (in MLIR's words, quotes as they are). ABI "600" is accepted on every
   supported LLVM (LLVM 19 has code object v6; MLIR 19's verifier did not know it yet). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__verify_params(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *abi = gpucompile_target_abi(t);
    if (!gpucompile_in_list("400,500,600", abi, strlen(abi)))
        return gpucompile_log_target(logger, "Invalid ABI version, it must be `400`, `500` or '600'.");
    return GPUCOMPILE_OK;
}

/* A triple of this backend, a chip this LLVM knows, and generic chips only with abi "600"
   (they need code object version 6). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_amdgpu__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t), *chip = gpucompile_target_chip(t);
    if (!gpucompile_triple_in(GPUCOMPILE_AMDGPU__TRIPLES, triple))
        return gpucompile_log_target(logger, "The target triple '%.200s' is not an AMDGPU triple (amdgcn-...).", triple);
    if (!gpucompile_amdgpu__chip_supported(chip))
        return gpucompile_log_target(logger, "The chip '%.200s' is not supported by LLVM %d (AMDGPU).", chip, LLVM_VERSION_MAJOR);
    if ((gpucompile_amdgpu__chip(chip)->bits & GPUCOMPILE_AMDGPU__GENERIC) && strcmp(gpucompile_target_abi(t), "600") != 0)
        return gpucompile_log_target(logger, "The chip '%.200s' needs code object version 6: abi = \"600\".", chip);
    return GPUCOMPILE_OK;
}

/* #gpu.kernel_metadata: the names MLIR's ROCDL target gives (the hsaco note's keys without the
   dot). */
static const char *const gpucompile_amdgpu__kernel_metadata[8] = {
    NULL, "group_segment_fixed_size", "private_segment_fixed_size", "max_flat_workgroup_size",
    "sgpr_count", "vgpr_count", "wavefront_size", "kernarg_segment_size"};

/* ---- run-time selection: the rules are in [section: selection] ---- */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__select_score(const gpucompile_object *o, const char *device, const char **why) {
    gpucompile_target *t = NULL;
    int score;
    if (o && gpucompile_target_parse(o->target, (size_t)-1, &o->allocator, NULL, &t) != GPUCOMPILE_OK) t = NULL;
    score = gpucompile_amdgpu__score(o ? o->triple : NULL, o ? o->chip : NULL, o ? gpucompile_format_string(o->format) : NULL,
                                     t ? gpucompile_target_features(t) : NULL, device, why);
    gpucompile_target_free(t);
    return score;
}

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__fill(gpucompile_backend *t) {
    gpucompile_backend_names(t, GPUCOMPILE_TARGET_AMDGPU, "amdgpu", "gpu.amdgpu", "rocdl.target", "amdgcn-amd-amdhsa", "gfx900");
    t->intrinsic_prefixes = "amdgcn,r600";
    t->shared_address_space = 3;
    t->initialize = gpucompile_amdgpu__initialize;
    t->init = gpucompile_amdgpu__init;
    t->release = gpucompile_amdgpu__release;
    t->configure = gpucompile_amdgpu__configure;
    t->prepare = gpucompile_amdgpu__prepare;
    t->libraries = gpucompile_amdgpu__libraries;
    t->is_kernel = gpucompile_amdgpu__is_kernel;
    t->bin_from = LLVMObjectFile;
    t->finish = gpucompile_amdgpu__finish;
    t->join = gpucompile_amdgpu__join;
    t->join_formats = 1u << GPUCOMPILE_FORMAT_BIN; /* isa: one module's text, as LLVM writes it */
    t->find_kernels = gpucompile_amdgpu__find_kernels;
    /* gpucompile's own spelling #gpu.amdgpu keeps code object v5 (ABI "500") on every LLVM
       (tests/test_target.c, test_defaults); MLIR 22's #rocdl.target defaults to v6 */
    t->defaults[0].abi = "500";
    t->defaults[1].abi = LLVM_VERSION_MAJOR >= 22 ? "600" : "500";
    t->verify_params = gpucompile_amdgpu__verify_params;
    t->verify = gpucompile_amdgpu__verify;
    t->calling_convention_ok = gpucompile_amdgpu__calling_convention_ok;
    t->refused_intrinsics = "llvm.frameaddress";
    t->code_rules = &gpucompile_amdgpu__code_rules;
    t->triples = GPUCOMPILE_AMDGPU__TRIPLES;
    t->select_score = gpucompile_amdgpu__select_score;
    t->device_help = "gfxNNN[:xnack+|-][:sramecc+|-]";
    /* LLVM 21 made the offload kinds bits (OpenMP 1, CUDA 2, HIP 4, SYCL 8); before, HIP was
       3: written as the LLVM in use numbers it, so its tools name the producer */
    t->offload_kind = LLVM_VERSION_MAJOR >= 21 ? 4 : 3;
    t->image_kind_bin = 1; /* IMG_Object */
    t->kernel_metadata = gpucompile_amdgpu__kernel_metadata;
    t->chip_supported = gpucompile_amdgpu__chip_supported;
    t->chip_name = gpucompile_amdgpu__chip_name;
    t->cache_key = gpucompile_amdgpu__cache_key;
    t->file_ext[GPUCOMPILE_FORMAT_BIN] = "hsaco";
    t->help = "AMD GPUs: AMDGCN assembly and hsaco code objects (no GPU needed)\n"
              "--toolkit: the ROCm root (else ROCM_PATH, ROCM_HOME, ROCM_ROOT)\n"
              "--bin-method elf (in-process) | lld, no fallback (default: in-process,\n"
              "  ld.lld for what the writer does not handle, said with -v)\n"
              "--opts: for ld.lld; --tool ld.lld";
}

GPUCOMPILE_BACKEND_DEFINE(amdgpu)

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_AMDGPU_IMPLEMENTATION */

/* ==== [section: runtime (host embedding)] ================================================
   HIP behind the mgpu* runtime (gpucompile_runtime.h), for host code made by
   gpucompile_embed_binary / `gpucompile --host`. Opt in: define GPUCOMPILE_AMDGPU_RUNTIME in one
   file (instead of linking MLIR's libmlir_rocm_runtime); it needs neither gpucompile.h nor
   LLVM: `cc prog.c host.o -ldl -lpthread`. libamdhip64.so (amdhip64.dll) is opened on first
   use, or the library named by gpucompile_runtime_set_library() / $GPUCOMPILE_LIBHIP; the
   device is mgpuSetDefaultDevice's (default 0), made current (hipSetDevice) in each call.
   A missing HIP runtime or no device is reported once, clearly, and remembered; every later
   call fails quietly (NULL / nothing). mgpuModuleLoadJIT reports an error: HIP loads code
   objects only (as in MLIR's wrappers). One vendor runtime per program. */
#if defined(GPUCOMPILE_AMDGPU_RUNTIME) && !defined(GPUCOMPILE_AMDGPU_RUNTIME_IMPLEMENTED)
#define GPUCOMPILE_AMDGPU_RUNTIME_IMPLEMENTED
#define GPUCOMPILE_RUNTIME_VENDOR /* gpucompile_runtime.h refuses a second vendor runtime */
#include "gpucompile_runtime.h"
/* gpucompile_runtime.h's implementation: included by [section: selection] */
#ifdef __cplusplus
extern "C" {
#endif

/* The few HIP entry points we use (hip_runtime_api.h's values), each loaded by its own name;
   each returns a hipError_t. */
#define GPUCOMPILE_AMDGPU__HIP_FUNCTIONS(X) \
    X(hipInit, (unsigned flags)) \
    X(hipGetDeviceCount, (int *count)) \
    X(hipSetDevice, (int dev)) \
    X(hipModuleLoadData, (void **module, const void *image)) \
    X(hipModuleUnload, (void *module)) \
    X(hipModuleGetFunction, (void **fn, void *module, const char *name)) \
    X(hipModuleLaunchKernel, (void *fn, unsigned gx, unsigned gy, unsigned gz, unsigned bx, \
                              unsigned by, unsigned bz, unsigned smem, void *stream, void **params, void **extra)) \
    X(hipStreamCreate, (void **stream)) \
    X(hipStreamSynchronize, (void *stream)) \
    X(hipStreamDestroy, (void *stream)) \
    X(hipMalloc, (void **p, size_t size)) \
    X(hipMallocManaged, (void **p, size_t size, unsigned flags)) \
    X(hipFree, (void *p)) \
    X(hipMemcpyAsync, (void *dst, const void *src, size_t n, int kind, void *stream)) \
    X(hipMemsetD32Async, (void *dst, int value, size_t n, void *stream))

#define GPUCOMPILE_AMDGPU__HIP_FIELD(fn, params) int (*fn) params;
static struct gpucompile_amdgpu__rt_hip {
    const char *(*hipGetErrorName)(int);
    int (*hipGetDeviceProperties)(void *props, int dev);
    int device;
    GPUCOMPILE_AMDGPU__HIP_FUNCTIONS(GPUCOMPILE_AMDGPU__HIP_FIELD)
} gpucompile_amdgpu__rt;
#undef GPUCOMPILE_AMDGPU__HIP_FIELD

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_check(int r, const char *call) {
    static const struct { int code; const char *text; } known[] = {
        {1, "hipErrorInvalidValue"}, {2, "hipErrorOutOfMemory"}, {3, "hipErrorNotInitialized"},
        {35, "hipErrorInsufficientDriver: the AMD GPU driver is too old or missing"},
        {100, "hipErrorNoDevice: no AMD GPU"}, {101, "hipErrorInvalidDevice"}, {200, "hipErrorInvalidImage"},
        {209, "hipErrorNoBinaryForGpu: the object was built for another GPU"}, {400, "hipErrorInvalidHandle"},
        {500, "hipErrorNotFound"}, {999, "hipErrorUnknown"}};
    const char *name = NULL;
    char msg[256];
    size_t i;
    /* 4, hipErrorDeinitialized: the process ends and the runtime has shut down before the host
       module's destructor unloads its modules (as CUDA's driver does): nothing left to do or say */
    if (r == 0 || r == 4) return;
    for (i = 0; i < sizeof known / sizeof known[0] && !name; i++)
        if (known[i].code == r) name = known[i].text;
    if (!name && gpucompile_amdgpu__rt.hipGetErrorName) name = gpucompile_amdgpu__rt.hipGetErrorName(r);
    snprintf(msg, sizeof msg, "%s (%d)", name ? name : "HIP error", r);
    gpucompile_runtime_report(call, r, msg);
}

GPUCOMPILE_PRIVATE const char *gpucompile_amdgpu__rt_load(void *lib) {
    struct gpucompile_amdgpu__rt_hip *tab = &gpucompile_amdgpu__rt;
    const char *missing = NULL;
    gpucompile_dlfn(lib, "hipGetErrorName", &tab->hipGetErrorName);
    /* ROCm 6 renamed the entry point that fills its (grown) hipDeviceProp_t */
    if (!gpucompile_dlfn(lib, "hipGetDevicePropertiesR0600", &tab->hipGetDeviceProperties))
        gpucompile_dlfn(lib, "hipGetDeviceProperties", &tab->hipGetDeviceProperties);
#define GPUCOMPILE_AMDGPU__HIP_LOAD(fn, params) if (!gpucompile_dlfn(lib, #fn, &tab->fn) && !missing) missing = #fn;
    GPUCOMPILE_AMDGPU__HIP_FUNCTIONS(GPUCOMPILE_AMDGPU__HIP_LOAD)
#undef GPUCOMPILE_AMDGPU__HIP_LOAD
    return missing;
}

/* The gfx name from hipDeviceProp_t, whose layout changed between ROCm versions: the first
   string after the marketing name that starts with "gfx" and a digit is gcnArchName. */
GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_arch(char *arch, size_t arch_size) {
    size_t size = 64 * 1024, i;
    unsigned char *props = (unsigned char *)calloc(1, size);
    if (!props) return;
    if (gpucompile_amdgpu__rt.hipGetDeviceProperties && gpucompile_amdgpu__rt.hipGetDeviceProperties(props, gpucompile_amdgpu__rt.device) == 0) {
        for (i = 256; i + 4 < size; i++) {
            if (props[i - 1] == 0 && props[i] == 'g' && props[i + 1] == 'f' && props[i + 2] == 'x' && props[i + 3] >= '0' && props[i + 3] <= '9') {
                snprintf(arch, arch_size, "%s", (const char *)props + i);
                break;
            }
        }
    }
    free(props);
}

/* HIP and a device, made current. */
GPUCOMPILE_PRIVATE int gpucompile_amdgpu__rt_start(int *device, char *arch, size_t arch_size, const char **call) {
    struct gpucompile_amdgpu__rt_hip *h = &gpucompile_amdgpu__rt;
    int count = 0, r;
    h->device = *device;
    *call = "hipInit";
    r = h->hipInit(0);
    if (r == 0) { *call = "hipGetDeviceCount"; r = h->hipGetDeviceCount(&count); }
    if (r == 0 && count <= h->device) r = 100; /* hipErrorNoDevice */
    if (r == 0) { *call = "hipSetDevice"; r = h->hipSetDevice(h->device); }
    if (r == 0) gpucompile_amdgpu__rt_arch(arch, arch_size);
    return r;
}

/* A HIP call, reported under the name of the function called. */
#define GPUCOMPILE_AMDGPU__HIP(name, args) gpucompile_amdgpu__rt_check(gpucompile_amdgpu__rt.hip##name args, "hip" #name)

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_enter(void) { GPUCOMPILE_AMDGPU__HIP(SetDevice, (gpucompile_amdgpu__rt.device)); }

GPUCOMPILE_RUNTIME_DRIVER_ENTRIES(gpucompile_amdgpu__rt_, GPUCOMPILE_AMDGPU__HIP)

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_launch(void *fn, const unsigned g[3], const unsigned b[3], unsigned smem, void *stream,
                                                      void **params, void **extra) {
    GPUCOMPILE_AMDGPU__HIP(ModuleLaunchKernel, (fn, g[0], g[1], g[2], b[0], b[1], b[2], smem, stream, params, extra));
}

GPUCOMPILE_PRIVATE void *gpucompile_amdgpu__rt_stream_create(void) {
    void *stream = NULL;
    GPUCOMPILE_AMDGPU__HIP(StreamCreate, (&stream));
    return stream;
}

GPUCOMPILE_PRIVATE void *gpucompile_amdgpu__rt_mem_alloc(uint64_t size, int host_shared) {
    void *p = NULL;
    if (host_shared) GPUCOMPILE_AMDGPU__HIP(MallocManaged, (&p, (size_t)size, 1));
    else GPUCOMPILE_AMDGPU__HIP(Malloc, (&p, (size_t)size));
    return p;
}

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_mem_free(void *ptr) { GPUCOMPILE_AMDGPU__HIP(Free, (ptr)); }

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_mem_copy(void *dst, const void *src, size_t n, void *stream) {
    GPUCOMPILE_AMDGPU__HIP(MemcpyAsync, (dst, src, n, 4 /* hipMemcpyDefault */, stream));
}

GPUCOMPILE_PRIVATE void gpucompile_amdgpu__rt_mem_set32(void *dst, unsigned value, size_t count, void *stream) {
    GPUCOMPILE_AMDGPU__HIP(MemsetD32Async, (dst, (int)value, count, stream));
}

#if defined(_WIN32)
#define GPUCOMPILE_AMDGPU__LIBHIP "amdhip64_7.dll,amdhip64_6.dll,amdhip64.dll"
#else
#define GPUCOMPILE_AMDGPU__LIBHIP "libamdhip64.so,libamdhip64.so.6,libamdhip64.so.5"
#endif
/* The vendor behind mgpu*; left NULL: image_format (the generic kinds), leave, module_load_jit. */
GPUCOMPILE_RUNTIME_VENDOR_DEFINE(gpucompile_amdgpu__rt_) {
    v->name = "HIP"; v->launch_call = "hipModuleLaunchKernel"; v->kind = "a HIP runtime library";
    v->env = "GPUCOMPILE_LIBHIP"; v->library = GPUCOMPILE_AMDGPU__LIBHIP;
    v->what = "the HIP runtime"; v->hint = "ROCm not installed?";
    v->score = gpucompile_amdgpu__score;
    v->enter = gpucompile_amdgpu__rt_enter;
    v->null_stream_async = 1;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_AMDGPU_RUNTIME */
