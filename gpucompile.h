/* gpucompile.h - compile LLVM IR GPU kernels to PTX, cubin, fatbin and hsaco, without MLIR.

   Do this:
       #define GPUCOMPILE_IMPLEMENTATION
   before you include this file (and gpucompile_nvptx.h / gpucompile_amdgpu.h) in *one* C or
   C++ file to create the implementation. Every other file includes the headers plainly.

       #include ...
       #define GPUCOMPILE_IMPLEMENTATION
       #include "gpucompile.h"
       #include "gpucompile_nvptx.h"
       #include "gpucompile_amdgpu.h"

   Linking: LLVM's C API and libdl, nothing else (vendor libraries are opened with dlopen):
       cc app.c $(llvm-config-19 --cflags) $(llvm-config-19 --ldflags --libs) -ldl -lpthread

   What it is
       MLIR's GPU "target attribute" model for C: a target (#gpu.nvptx<...>, #gpu.amdgpu<...>,
       or MLIR's upstream #nvvm.target<...> / #rocdl.target<...>) is a struct with MLIR's
       defaults, verified, parsed and printed in MLIR's syntax. A target plus options turns an
       LLVM module into an object (bitcode, ISA text, cubin/hsaco, fatbin) through one pipeline
       with hooks; backends plug in through a table of functions (gpucompile_backend).

   Configuration macros (define before including the implementation)
       GPUCOMPILE_STATIC            every function static (implementation and users in one file)
       GPUCOMPILE_MALLOC(sz,u) GPUCOMPILE_REALLOC(p,sz,u) GPUCOMPILE_FREE(p,u)
                                    compile-time default allocator: all three or none
       GPUCOMPILE_NVPTX_NO_RUNTIME / GPUCOMPILE_AMDGPU_NO_RUNTIME
                                    (backends) leave out the mgpu* runtime functions

   Ownership
       Everything passed in is borrowed and never modified (targets, options, a caller's
       LLVMModuleRef: it is copied into a private context through bitcode). Everything returned
       is the caller's and has exactly one free function (gpucompile_object_free, ...), which
       uses the allocator that made it.

   Threads
       Each compile owns a private LLVMContext and target machine: compiles on different
       threads share nothing but LLVM's one-time target initialisation and the lazily opened
       vendor libraries (both guarded). A caller's LLVMModuleRef must not be used by another
       thread while it is being copied. Targets, options and objects are read-only to us and
       may be shared between threads.

   Guarantees
       No abort, no exit, no output on stdout/stderr unless the caller installs a logger.
       Inputs known to crash LLVM 19 (unknown chips, invalid IR, foreign intrinsics) are refused
       before LLVM sees them. Results are gpucompile_result codes; details go to the logger.

   Supported LLVM: 19 (the chip tables follow LLVM's version; 18-20 compile).

   Licence: see the end of the file.
*/
#ifndef GPUCOMPILE_H
#define GPUCOMPILE_H

/* The implementation needs POSIX declarations even under -std=c11 (llvm-config's flags also
   define _GNU_SOURCE); this only helps when gpucompile.h is the first include. */
#if defined(GPUCOMPILE_IMPLEMENTATION) && !defined(_WIN32) && !defined(_POSIX_C_SOURCE) && !defined(_GNU_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GPUCOMPILE_STATIC)
#define GPUCOMPILE_API static
#else
#define GPUCOMPILE_API extern
#endif

#define GPUCOMPILE_VERSION_STRING "0.1.0"

/* ---- results ------------------------------------------------------------------------- */
#define GPUCOMPILE_RESULTS(X) \
    X(OK, "success") \
    X(ERROR_INVALID_ARGUMENT, "invalid argument") \
    X(ERROR_OUT_OF_MEMORY, "out of memory") \
    X(ERROR_PARSE, "syntax error") \
    X(ERROR_INVALID_TARGET, "invalid target") \
    X(ERROR_INVALID_INPUT, "invalid input module") \
    X(ERROR_IO, "file input/output failed") \
    X(ERROR_TOOLKIT_NOT_FOUND, "toolkit or device libraries not found") \
    X(ERROR_LLVM, "LLVM reported an error") \
    X(ERROR_LINK, "linking failed") \
    X(ERROR_UNRESOLVED, "unresolved symbols") \
    X(ERROR_UNSUPPORTED, "unsupported by this target or toolchain") \
    X(ERROR_TOOL, "external tool failed") \
    X(ERROR_TIMEOUT, "external tool timed out") \
    X(ERROR_HOOK, "stopped by a hook") \
    X(ERROR_INVALID_BINARY, "invalid binary") \
    X(ERROR_NO_OBJECT, "no object for this device") \
    X(ERROR_RUNTIME, "GPU runtime error")

typedef enum gpucompile_result {
#define GPUCOMPILE__ENUM(name, text) GPUCOMPILE_##name,
    GPUCOMPILE_RESULTS(GPUCOMPILE__ENUM)
#undef GPUCOMPILE__ENUM
    GPUCOMPILE_RESULT_COUNT
} gpucompile_result;

/* Never NULL. */
GPUCOMPILE_API const char *gpucompile_result_string(gpucompile_result r);

/* ---- diagnostics ----------------------------------------------------------------------- */
typedef enum gpucompile_severity {
    GPUCOMPILE_SEVERITY_ERROR,
    GPUCOMPILE_SEVERITY_WARNING,
    GPUCOMPILE_SEVERITY_REMARK,
    GPUCOMPILE_SEVERITY_NOTE   /* informational: timings, tool command lines */
} gpucompile_severity;

/* Pipeline stages, in data-flow order; also the index of gpucompile_object.stage_ms. */
#define GPUCOMPILE_STAGES(X) \
    X(NONE, "none") X(TARGET, "target") X(PARSE, "parse") X(SETUP, "setup") \
    X(VERIFY, "verify") X(PRELINK, "pre-link") X(LINK, "link") X(POSTLINK, "post-link") \
    X(OPTIMIZE, "optimize") X(EMIT, "emit") X(BINARY, "binary") X(EMBED, "embed") \
    X(RUNTIME, "runtime")

typedef enum gpucompile_stage {
#define GPUCOMPILE__ENUM(name, text) GPUCOMPILE_STAGE_##name,
    GPUCOMPILE_STAGES(GPUCOMPILE__ENUM)
#undef GPUCOMPILE__ENUM
    GPUCOMPILE_STAGE_COUNT
} gpucompile_stage;

GPUCOMPILE_API const char *gpucompile_stage_string(gpucompile_stage s);
GPUCOMPILE_API const char *gpucompile_severity_string(gpucompile_severity s);

typedef struct gpucompile_diagnostic {
    gpucompile_severity severity;
    gpucompile_result result;   /* GPUCOMPILE_OK for warnings and notes */
    gpucompile_stage stage;
    const char *origin;         /* "gpucompile", "llvm", "ptxas", "nvJitLink", "ld.lld", ... */
    const char *message;        /* valid during the callback only */
} gpucompile_diagnostic;

typedef struct gpucompile_logger {
    void (*func)(const gpucompile_diagnostic *diag, void *user_data);
    void *user_data;
} gpucompile_logger;

/* ---- allocator: all or none; zero means the default (malloc or GPUCOMPILE_MALLOC) ------- */
typedef struct gpucompile_allocator {
    void *(*alloc)(size_t size, void *user_data);
    void *(*realloc)(void *ptr, size_t size, void *user_data);
    void (*free)(void *ptr, void *user_data);
    void *user_data;
} gpucompile_allocator;

/* ---- targets ------------------------------------------------------------------------------ */
typedef enum gpucompile_target_kind {
    GPUCOMPILE_TARGET_NONE = 0,
    GPUCOMPILE_TARGET_NVPTX,    /* #gpu.nvptx<O, triple, chip, features, flags, link> */
    GPUCOMPILE_TARGET_AMDGPU,   /* #gpu.amdgpu<O, triple, chip, features, abi, flags, link> */
    GPUCOMPILE_TARGET_CUSTOM    /* compiled by target.backend (see gpucompile_backend) */
} gpucompile_target_kind;

typedef struct gpucompile_backend gpucompile_backend;

/* A target. Start from gpucompile_target_defaults(kind); NULL strings mean the default.
   Strings are borrowed (a parsed target owns its own: free it with gpucompile_target_free). */
typedef struct gpucompile_target {
    gpucompile_target_kind kind;
    int upstream;              /* 1: spelled #nvvm.target / #rocdl.target, 0: #gpu.nvptx / #gpu.amdgpu */
    int O;                     /* optimization level 0-3 (MLIR default 2) */
    const char *triple;        /* NULL: "nvptx64-nvidia-cuda" / "amdgcn-amd-amdhsa" */
    const char *chip;          /* NULL: "sm_50" / "gfx900" */
    const char *features;      /* NULL: "+ptx60" / "" */
    const char *abi;           /* AMDGPU only; NULL: "500" */
    const char *const *flags;  /* set of flag names (fast, ftz, wave64, no_wave64, daz, ...) */
    int num_flags;
    const char *const *link;   /* bitcode files linked into the module */
    int num_link;
    const gpucompile_backend *backend; /* GPUCOMPILE_TARGET_CUSTOM: the table that compiles it */
    const char *custom_name;   /* GPUCOMPILE_TARGET_CUSTOM: printed as #<custom_name><...> */
} gpucompile_target;

/* MLIR's defaults for kind. */
GPUCOMPILE_API gpucompile_target gpucompile_target_defaults(gpucompile_target_kind kind);
/* The value of each parameter after defaults (never NULL for NVPTX/AMDGPU). */
GPUCOMPILE_API const char *gpucompile_target_triple(const gpucompile_target *t);
GPUCOMPILE_API const char *gpucompile_target_chip(const gpucompile_target *t);
GPUCOMPILE_API const char *gpucompile_target_features(const gpucompile_target *t);
GPUCOMPILE_API const char *gpucompile_target_abi(const gpucompile_target *t);

/* Verify with MLIR's messages (to the logger; NULL logger: silent). GPUCOMPILE_OK or
   GPUCOMPILE_ERROR_INVALID_TARGET. Also refuses chips the LLVM in use cannot compile for. */
GPUCOMPILE_API gpucompile_result gpucompile_target_verify(const gpucompile_target *t, const gpucompile_logger *logger);

/* Flag queries. */
GPUCOMPILE_API int gpucompile_target_has_flag(const gpucompile_target *t, const char *name);
GPUCOMPILE_API int gpucompile_target_fast(const gpucompile_target *t);         /* fast */
GPUCOMPILE_API int gpucompile_target_ftz(const gpucompile_target *t);          /* ftz (NVPTX) */
GPUCOMPILE_API int gpucompile_target_wave64(const gpucompile_target *t);       /* AMDGPU: wave64, or not no_wave64 */
GPUCOMPILE_API int gpucompile_target_daz(const gpucompile_target *t);
GPUCOMPILE_API int gpucompile_target_finite_only(const gpucompile_target *t);
GPUCOMPILE_API int gpucompile_target_unsafe_math(const gpucompile_target *t);
GPUCOMPILE_API int gpucompile_target_correct_sqrt(const gpucompile_target *t); /* not unsafe_sqrt */

/* Canonical MLIR text. snprintf-style: returns the length needed (without the NUL), writes at
   most size bytes, always NUL-terminated when size > 0. */
GPUCOMPILE_API size_t gpucompile_target_print(const gpucompile_target *t, char *buf, size_t size);

/* Parse MLIR text (len may be (size_t)-1 for a NUL-terminated string). Errors name the column
   and what was expected. The result owns its strings; free it with gpucompile_target_free. */
GPUCOMPILE_API gpucompile_result gpucompile_target_parse(const char *text, size_t len,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_target **out);
GPUCOMPILE_API void gpucompile_target_free(gpucompile_target *t);

/* Is chip one the LLVM in use compiles for (kind NVPTX or AMDGPU; AMDGPU target-ID suffixes
   like ":xnack+" are accepted)? */
GPUCOMPILE_API int gpucompile_chip_supported(gpucompile_target_kind kind, const char *chip);

/* ---- options --------------------------------------------------------------------------- */
typedef enum gpucompile_format {
    GPUCOMPILE_FORMAT_DEFAULT = 0, /* = BIN */
    GPUCOMPILE_FORMAT_LLVM,        /* "llvm" / "offloading": bitcode after linking and optimization */
    GPUCOMPILE_FORMAT_ISA,         /* "isa" / "assembly": PTX or AMDGCN assembly text */
    GPUCOMPILE_FORMAT_BIN,         /* "bin" / "binary": cubin or hsaco */
    GPUCOMPILE_FORMAT_FATBIN       /* "fatbin" / "fatbinary": NVPTX only */
} gpucompile_format;

GPUCOMPILE_API const char *gpucompile_format_string(gpucompile_format f); /* "llvm", ... */
/* Accepts our names and MLIR's; returns GPUCOMPILE_FORMAT_DEFAULT when unknown. */
GPUCOMPILE_API gpucompile_format gpucompile_format_from_string(const char *name);

typedef struct gpucompile_job gpucompile_job;

/* Pipeline hooks (MLIR's ModuleToObject virtuals and callbacks). All optional. A hook that
   returns anything but GPUCOMPILE_OK stops the compile with that result. */
typedef struct gpucompile_hooks {
    void *user_data;
    /* after parsing and setting the triple and data layout (MLIR's initialLlvmIRCallback) */
    gpucompile_result (*initial_ir)(gpucompile_job *job, LLVMModuleRef module, void *user_data);
    /* before the libraries are linked (handleModulePreLink) */
    gpucompile_result (*pre_link)(gpucompile_job *job, LLVMModuleRef module, void *user_data);
    /* replaces the default list of libraries (loadBitcodeFiles): call gpucompile_job_add_library */
    gpucompile_result (*load_bitcode_files)(gpucompile_job *job, void *user_data);
    /* each library once loaded, before linking (handleBitcodeFile) */
    gpucompile_result (*bitcode_file)(gpucompile_job *job, LLVMModuleRef library, const char *path, void *user_data);
    /* after linking and internalizing (handleModulePostLink, linkedLlvmIRCallback) */
    gpucompile_result (*post_link)(gpucompile_job *job, LLVMModuleRef module, void *user_data);
    /* after optimization (optimizedLlvmIRCallback) */
    gpucompile_result (*optimized_ir)(gpucompile_job *job, LLVMModuleRef module, void *user_data);
    /* the ISA text (isaCallback); for format bin it is emitted in addition only when set */
    gpucompile_result (*isa)(gpucompile_job *job, const char *text, size_t size, void *user_data);
} gpucompile_hooks;

/* A path for an external tool or vendor library, by name: "ptxas", "fatbinary", "nvJitLink",
   "libcuda", "ld.lld", ... (a path that does not exist makes that tool unavailable). */
typedef struct gpucompile_tool_path {
    const char *name;
    const char *path;
} gpucompile_tool_path;

/* Compile options (MLIR's TargetOptions and more). Zero-initialise; zero means default. */
typedef struct gpucompile_options {
    const char *toolkit_path;          /* CUDA or ROCm root; NULL: environment, then defaults */
    const char *const *link;           /* extra bitcode files */
    int num_link;
    gpucompile_format format;          /* default: GPUCOMPILE_FORMAT_BIN */
    const gpucompile_hooks *hooks;
    gpucompile_logger logger;
    gpucompile_allocator allocator;
    const char *bin_method;            /* NVPTX: "nvjitlink", "ptxas" or "driver"; NULL: first that works */
    const gpucompile_tool_path *tools; /* overrides for external tools and vendor libraries */
    int num_tools;
    double tool_timeout_s;             /* external tools are killed after this; 0: 300 s */
    int debug;                         /* keep debug info (and ", debug" in PTX) */
    int remarks;                       /* pass LLVM remarks to the logger */
} gpucompile_options;

/* ---- objects ------------------------------------------------------------------------------ */
typedef struct gpucompile_kernel {
    char *name;
    int num_params;             /* -1 when unknown */
    int registers;              /* NVPTX registers per thread; -1 when unknown */
    int shared_bytes;           /* static shared (LDS / group segment) memory */
    int max_threads;            /* NVPTX max threads per block */
    int sgprs, vgprs;           /* AMDGPU */
    int private_bytes;          /* AMDGPU private segment / NVPTX local memory */
    int wavefront_size;         /* AMDGPU */
    int kernarg_bytes;          /* AMDGPU */
} gpucompile_kernel;

typedef struct gpucompile_object {
    char *target;               /* canonical target text */
    gpucompile_target_kind kind;
    char *triple;
    char *chip;
    gpucompile_format format;
    unsigned char *data;        /* the bytes; text formats are NUL-terminated (not counted in size) */
    size_t size;
    gpucompile_kernel *kernels;
    int num_kernels;
    double stage_ms[GPUCOMPILE_STAGE_COUNT];
    gpucompile_allocator allocator; /* the one that made it */
} gpucompile_object;

GPUCOMPILE_API void gpucompile_object_free(gpucompile_object *obj);

/* ---- compiling ------------------------------------------------------------------------ */
/* The module is borrowed and not modified: it is copied into the job's private context. */
GPUCOMPILE_API gpucompile_result gpucompile_compile_module(LLVMModuleRef module,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out);
/* LLVM IR text or bitcode (detected) from memory; name is used in messages (may be NULL). */
GPUCOMPILE_API gpucompile_result gpucompile_compile_ir(const void *data, size_t size, const char *name,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out);
GPUCOMPILE_API gpucompile_result gpucompile_compile_file(const char *path,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out);

/* ---- backends ----------------------------------------------------------------------------- */
/* A backend compiles one target kind. The core runs the pipeline and calls these; each entry is
   optional. A custom target sets target.kind = GPUCOMPILE_TARGET_CUSTOM and target.backend. */
struct gpucompile_backend {
    const char *name;                   /* "nvptx", "amdgpu", ... */
    gpucompile_target_kind kind;
    const char *intrinsic_prefixes;     /* comma-separated own intrinsic prefixes: "nvvm" */
    const char *allowed_undefined;      /* comma-separated symbols allowed to stay undefined */
    void (*initialize)(void);           /* LLVMInitialize* for this target; called once */
    /* before the target machine exists: may replace job->cpu / job->features */
    gpucompile_result (*configure)(gpucompile_job *job);
    /* pre-link: module flags, control variables, attributes */
    gpucompile_result (*prepare)(gpucompile_job *job);
    /* the backend's device libraries (gpucompile_job_add_library), given what is referenced */
    gpucompile_result (*libraries)(gpucompile_job *job);
    int (*is_kernel)(gpucompile_job *job, LLVMValueRef fn); /* NULL: the calling convention says */
    /* what `bin` and `fatbin` are made from: LLVMAssemblyFile or LLVMObjectFile */
    LLVMCodeGenFileType bin_from;
    /* turn the emitted ISA/object (job->emitted) into format; set job->result_data/size
       (allocated with gpucompile_job_alloc) and fill kernel metadata on job->object */
    gpucompile_result (*finish)(gpucompile_job *job, gpucompile_format format);
    /* replaces the whole pipeline after the target check (serializeToObject) */
    gpucompile_result (*serialize)(gpucompile_job *job, LLVMModuleRef module);
    void *user_data;
};

/* The backend registered for a kind (the backend headers register themselves when their
   implementation is compiled in; others may be registered by the caller, before any compile). */
GPUCOMPILE_API gpucompile_result gpucompile_register_backend(const gpucompile_backend *backend);
GPUCOMPILE_API const gpucompile_backend *gpucompile_find_backend(gpucompile_target_kind kind);

/* One compile in progress: what hooks and backends see. */
struct gpucompile_job {
    const gpucompile_target *target;    /* as given */
    const gpucompile_options *options;  /* resolved copy (allocator, logger, format filled) */
    const gpucompile_backend *backend;
    LLVMContextRef context;
    LLVMModuleRef module;
    LLVMTargetMachineRef machine;
    char *cpu;                          /* chip for the target machine (backend may replace) */
    char *features;                     /* features for the target machine */
    gpucompile_format format;
    LLVMMemoryBufferRef emitted;        /* the ISA text or object emitted by LLVM */
    unsigned char *result_data;         /* what finish() produced */
    size_t result_size;
    gpucompile_object *object;          /* being filled: kernels, stage times */
    void *backend_data;                 /* free for the backend */
    int failed;                         /* an error diagnostic was reported */
    gpucompile_stage stage;
};

/* Backend and hook support. */
GPUCOMPILE_API void gpucompile_job_log(gpucompile_job *job, gpucompile_severity sev, gpucompile_result res,
    const char *origin, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
GPUCOMPILE_API void *gpucompile_job_alloc(gpucompile_job *job, size_t size);
GPUCOMPILE_API void gpucompile_job_free(gpucompile_job *job, void *ptr);
GPUCOMPILE_API char *gpucompile_job_strdup(gpucompile_job *job, const char *s);
/* Queue a bitcode library for lazy, only-needed linking (after the module's own). */
GPUCOMPILE_API gpucompile_result gpucompile_job_add_library(gpucompile_job *job, const char *path);
/* Does the module reference (declare, undefined) a function or global whose name starts with prefix? */
GPUCOMPILE_API int gpucompile_job_references(gpucompile_job *job, const char *prefix);
/* Path of a tool from options->tools, or NULL. */
GPUCOMPILE_API const char *gpucompile_job_tool_path(gpucompile_job *job, const char *name);

/* Run an external program: argv[0] is the path, no shell. Captures stdout+stderr into *output
   (NUL-terminated, allocated with the job's allocator; may be NULL). Exit status in *status.
   Kills it after timeout_s (GPUCOMPILE_ERROR_TIMEOUT). */
GPUCOMPILE_API gpucompile_result gpucompile_job_run_tool(gpucompile_job *job, const char *const *argv,
    double timeout_s, int *status, char **output, size_t *output_size);
/* A new empty file in $TMPDIR (mode 0600) named gpucompile-XXXXXX<suffix>; path written to buf. */
GPUCOMPILE_API gpucompile_result gpucompile_job_temp_file(gpucompile_job *job, const char *suffix,
    char *buf, size_t size);
/* Read / write a whole file (write: to a temporary name, then renamed into place). */
GPUCOMPILE_API gpucompile_result gpucompile_read_file(const char *path, const gpucompile_allocator *a,
    unsigned char **data, size_t *size);
GPUCOMPILE_API gpucompile_result gpucompile_write_file(const char *path, const void *data, size_t size);
GPUCOMPILE_API void gpucompile_free(const gpucompile_allocator *a, void *ptr);

/* ---- binaries (declarations) ---------------------------------------------------------- */

/* ---- end of binaries (declarations) ---------------------------------------------------- */

/* ---- host embedding (declarations) ----------------------------------------------------- */

/* ---- end of host embedding (declarations) ---------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_H */

/* ======================================================================================== */
#if defined(GPUCOMPILE_IMPLEMENTATION) && !defined(GPUCOMPILE_IMPLEMENTED)
#define GPUCOMPILE_IMPLEMENTED

#if defined(GPUCOMPILE_MALLOC) || defined(GPUCOMPILE_REALLOC) || defined(GPUCOMPILE_FREE)
#if !defined(GPUCOMPILE_MALLOC) || !defined(GPUCOMPILE_REALLOC) || !defined(GPUCOMPILE_FREE)
#error "gpucompile: define all of GPUCOMPILE_MALLOC, GPUCOMPILE_REALLOC and GPUCOMPILE_FREE, or none"
#endif
#else
#include <stdlib.h>
#define GPUCOMPILE_MALLOC(sz, u) ((void)(u), malloc(sz))
#define GPUCOMPILE_REALLOC(p, sz, u) ((void)(u), realloc((p), (sz)))
#define GPUCOMPILE_FREE(p, u) ((void)(u), free(p))
#endif

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#if defined(_WIN32)
#include <windows.h>
#include <process.h>
#include <io.h>
#else
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <dlfcn.h>
extern char **environ;
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GPUCOMPILE_STATIC)
#define GPUCOMPILE_DEF static
#else
#define GPUCOMPILE_DEF
#endif
/* Private helpers: some go unused in a given configuration (a backend left out). */
#if defined(__GNUC__)
#define GPUCOMPILE__PRIVATE static __attribute__((unused))
#else
#define GPUCOMPILE__PRIVATE static
#endif

/* ==== [section: core utilities] ========================================================== */
GPUCOMPILE_DEF const char *gpucompile_result_string(gpucompile_result r) {
    static const char *const texts[] = {
#define GPUCOMPILE__TEXT(name, text) text,
        GPUCOMPILE_RESULTS(GPUCOMPILE__TEXT)
#undef GPUCOMPILE__TEXT
    };
    return ((unsigned)r < (unsigned)GPUCOMPILE_RESULT_COUNT) ? texts[r] : "unknown result";
}

GPUCOMPILE_DEF const char *gpucompile_stage_string(gpucompile_stage s) {
    static const char *const texts[] = {
#define GPUCOMPILE__TEXT(name, text) text,
        GPUCOMPILE_STAGES(GPUCOMPILE__TEXT)
#undef GPUCOMPILE__TEXT
    };
    return ((unsigned)s < (unsigned)GPUCOMPILE_STAGE_COUNT) ? texts[s] : "unknown stage";
}

GPUCOMPILE_DEF const char *gpucompile_severity_string(gpucompile_severity s) {
    switch (s) {
    case GPUCOMPILE_SEVERITY_ERROR: return "error";
    case GPUCOMPILE_SEVERITY_WARNING: return "warning";
    case GPUCOMPILE_SEVERITY_REMARK: return "remark";
    default: return "note";
    }
}

GPUCOMPILE__PRIVATE void *gpucompile__alloc(const gpucompile_allocator *a, size_t size) {
    if (size == 0) size = 1;
    if (a && a->alloc) return a->alloc(size, a->user_data);
    return GPUCOMPILE_MALLOC(size, a ? a->user_data : NULL);
}

GPUCOMPILE__PRIVATE void *gpucompile__realloc(const gpucompile_allocator *a, void *p, size_t size) {
    if (size == 0) size = 1;
    if (a && a->realloc) return a->realloc(p, size, a->user_data);
    return GPUCOMPILE_REALLOC(p, size, a ? a->user_data : NULL);
}

GPUCOMPILE_DEF void gpucompile_free(const gpucompile_allocator *a, void *p) {
    if (!p) return;
    if (a && a->free) a->free(p, a->user_data);
    else GPUCOMPILE_FREE(p, a ? a->user_data : NULL);
}

GPUCOMPILE__PRIVATE char *gpucompile__strndup(const gpucompile_allocator *a, const char *s, size_t n) {
    char *r = (char *)gpucompile__alloc(a, n + 1);
    if (!r) return NULL;
    if (n) memcpy(r, s, n);
    r[n] = 0;
    return r;
}

GPUCOMPILE__PRIVATE char *gpucompile__strdup(const gpucompile_allocator *a, const char *s) {
    return s ? gpucompile__strndup(a, s, strlen(s)) : NULL;
}

/* A growable byte buffer. */
typedef struct gpucompile__buf {
    char *data;
    size_t len, cap;
    int oom;
    const gpucompile_allocator *a;
} gpucompile__buf;

GPUCOMPILE__PRIVATE void gpucompile__buf_add(gpucompile__buf *b, const void *p, size_t n) {
    if (b->oom) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        char *d;
        while (cap < b->len + n + 1) cap *= 2;
        d = (char *)gpucompile__realloc(b->a, b->data, cap);
        if (!d) { b->oom = 1; return; }
        b->data = d;
        b->cap = cap;
    }
    if (n) memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = 0;
}

GPUCOMPILE__PRIVATE void gpucompile__buf_str(gpucompile__buf *b, const char *s) { gpucompile__buf_add(b, s, strlen(s)); }

GPUCOMPILE__PRIVATE void gpucompile__buf_printf(gpucompile__buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { gpucompile__buf_add(b, small, (size_t)n); return; }
    gpucompile__buf_add(b, NULL, 0);
    {
        char *big = (char *)gpucompile__alloc(b->a, (size_t)n + 1);
        if (!big) { b->oom = 1; return; }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        gpucompile__buf_add(b, big, (size_t)n);
        gpucompile_free(b->a, big);
    }
}

GPUCOMPILE__PRIVATE void gpucompile__log(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                         gpucompile_stage stage, const char *origin, const char *message) {
    gpucompile_diagnostic d;
    if (!l || !l->func) return;
    d.severity = sev;
    d.result = res;
    d.stage = stage;
    d.origin = origin ? origin : "gpucompile";
    d.message = message;
    l->func(&d, l->user_data);
}

GPUCOMPILE__PRIVATE void gpucompile__logf(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                          gpucompile_stage stage, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
GPUCOMPILE__PRIVATE void gpucompile__logf(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                          gpucompile_stage stage, const char *fmt, ...) {
    char msg[2048];
    va_list ap;
    if (!l || !l->func) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile__log(l, sev, res, stage, "gpucompile", msg);
}

GPUCOMPILE__PRIVATE const char *gpucompile__name(LLVMValueRef v) {
    size_t n;
    return LLVMGetValueName2(v, &n);
}

GPUCOMPILE__PRIVATE int gpucompile__starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is name one of the comma-separated words in list? */
GPUCOMPILE__PRIVATE int gpucompile__in_list(const char *list, const char *name, size_t name_len) {
    const char *p = list;
    while (p && *p) {
        const char *e = strchr(p, ',');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if (n == name_len && strncmp(p, name, n) == 0) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* ==== [section: targets] ================================================================= */
/* (target defaults, verification, chip tables, flags, canonical text and its parser) */

GPUCOMPILE_DEF gpucompile_target gpucompile_target_defaults(gpucompile_target_kind kind) {
    gpucompile_target t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.O = 2;
    return t;
}

GPUCOMPILE_DEF const char *gpucompile_target_triple(const gpucompile_target *t) {
    if (t->triple) return t->triple;
    return t->kind == GPUCOMPILE_TARGET_NVPTX ? "nvptx64-nvidia-cuda" : t->kind == GPUCOMPILE_TARGET_AMDGPU ? "amdgcn-amd-amdhsa" : "";
}

GPUCOMPILE_DEF const char *gpucompile_target_chip(const gpucompile_target *t) {
    if (t->chip) return t->chip;
    return t->kind == GPUCOMPILE_TARGET_NVPTX ? "sm_50" : t->kind == GPUCOMPILE_TARGET_AMDGPU ? "gfx900" : "";
}

GPUCOMPILE_DEF const char *gpucompile_target_features(const gpucompile_target *t) {
    if (t->features) return t->features;
    return t->kind == GPUCOMPILE_TARGET_NVPTX ? "+ptx60" : "";
}

GPUCOMPILE_DEF const char *gpucompile_target_abi(const gpucompile_target *t) {
    if (t->abi) return t->abi;
    return t->kind == GPUCOMPILE_TARGET_AMDGPU ? "500" : "";
}

GPUCOMPILE_DEF int gpucompile_target_has_flag(const gpucompile_target *t, const char *name) {
    int i;
    for (i = 0; i < t->num_flags; i++)
        if (t->flags[i] && strcmp(t->flags[i], name) == 0) return 1;
    return 0;
}

GPUCOMPILE_DEF int gpucompile_target_fast(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "fast"); }
GPUCOMPILE_DEF int gpucompile_target_ftz(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "ftz"); }
GPUCOMPILE_DEF int gpucompile_target_wave64(const gpucompile_target *t) {
    return gpucompile_target_has_flag(t, "wave64") || !gpucompile_target_has_flag(t, "no_wave64");
}
GPUCOMPILE_DEF int gpucompile_target_daz(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "daz"); }
GPUCOMPILE_DEF int gpucompile_target_finite_only(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "finite_only"); }
GPUCOMPILE_DEF int gpucompile_target_unsafe_math(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "unsafe_math"); }
GPUCOMPILE_DEF int gpucompile_target_correct_sqrt(const gpucompile_target *t) { return !gpucompile_target_has_flag(t, "unsafe_sqrt"); }

/* PLACEHOLDER (the targets work replaces this): minimal chip check, print, verify, parse. */
GPUCOMPILE_DEF int gpucompile_chip_supported(gpucompile_target_kind kind, const char *chip) {
    (void)kind;
    return chip && *chip;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_target_verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    if (t->O < 0 || t->O > 3) {
        gpucompile__log(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_TARGET, GPUCOMPILE_STAGE_TARGET, NULL,
                        "The optimization level must be a number between 0 and 3.");
        return GPUCOMPILE_ERROR_INVALID_TARGET;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF size_t gpucompile_target_print(const gpucompile_target *t, char *buf, size_t size) {
    int n = snprintf(buf, size, "#%s<chip = \"%s\">",
                     t->kind == GPUCOMPILE_TARGET_NVPTX ? (t->upstream ? "nvvm.target" : "gpu.nvptx")
                     : t->kind == GPUCOMPILE_TARGET_AMDGPU ? (t->upstream ? "rocdl.target" : "gpu.amdgpu")
                     : (t->custom_name ? t->custom_name : "custom"),
                     gpucompile_target_chip(t));
    return n < 0 ? 0 : (size_t)n;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_target_parse(const char *text, size_t len,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_target **out) {
    (void)text; (void)len; (void)allocator;
    *out = NULL;
    gpucompile__log(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_PARSE, GPUCOMPILE_STAGE_TARGET, NULL, "not implemented");
    return GPUCOMPILE_ERROR_PARSE;
}

GPUCOMPILE_DEF void gpucompile_target_free(gpucompile_target *t) { (void)t; }

/* ==== [section: end of targets] ========================================================== */

/* ==== [section: formats] ================================================================= */
GPUCOMPILE_DEF const char *gpucompile_format_string(gpucompile_format f) {
    switch (f) {
    case GPUCOMPILE_FORMAT_LLVM: return "llvm";
    case GPUCOMPILE_FORMAT_ISA: return "isa";
    case GPUCOMPILE_FORMAT_FATBIN: return "fatbin";
    default: return "bin";
    }
}

GPUCOMPILE_DEF gpucompile_format gpucompile_format_from_string(const char *name) {
    static const struct { const char *name; gpucompile_format f; } names[] = {
        {"llvm", GPUCOMPILE_FORMAT_LLVM}, {"offloading", GPUCOMPILE_FORMAT_LLVM}, {"offload", GPUCOMPILE_FORMAT_LLVM},
        {"isa", GPUCOMPILE_FORMAT_ISA}, {"assembly", GPUCOMPILE_FORMAT_ISA},
        {"bin", GPUCOMPILE_FORMAT_BIN}, {"binary", GPUCOMPILE_FORMAT_BIN},
        {"fatbin", GPUCOMPILE_FORMAT_FATBIN}, {"fatbinary", GPUCOMPILE_FORMAT_FATBIN}};
    size_t i;
    for (i = 0; name && i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i].name) == 0) return names[i].f;
    return GPUCOMPILE_FORMAT_DEFAULT;
}

/* ==== [section: platform] ================================================================ */
/* One small part per concern: a global lock, a clock, files, temp files, running a tool. */
#if defined(_WIN32)
static SRWLOCK gpucompile__mutex = SRWLOCK_INIT;
GPUCOMPILE__PRIVATE void gpucompile__lock(void) { AcquireSRWLockExclusive(&gpucompile__mutex); }
GPUCOMPILE__PRIVATE void gpucompile__unlock(void) { ReleaseSRWLockExclusive(&gpucompile__mutex); }
GPUCOMPILE__PRIVATE double gpucompile__now_ms(void) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
}
GPUCOMPILE__PRIVATE unsigned long gpucompile__pid(void) { return (unsigned long)GetCurrentProcessId(); }
#else
static pthread_mutex_t gpucompile__mutex = PTHREAD_MUTEX_INITIALIZER;
GPUCOMPILE__PRIVATE void gpucompile__lock(void) { pthread_mutex_lock(&gpucompile__mutex); }
GPUCOMPILE__PRIVATE void gpucompile__unlock(void) { pthread_mutex_unlock(&gpucompile__mutex); }
GPUCOMPILE__PRIVATE double gpucompile__now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}
GPUCOMPILE__PRIVATE unsigned long gpucompile__pid(void) { return (unsigned long)getpid(); }
#endif

/* Runs fn once per process at start-up (before main) where the compiler allows it. */
#if defined(_MSC_VER) && !defined(__clang__)
#pragma section(".CRT$XCU", read)
#define GPUCOMPILE__CONSTRUCTOR(fn) \
    static void fn(void); \
    __declspec(allocate(".CRT$XCU")) void (*fn##_ptr)(void) = fn; \
    static void fn(void)
#else
#define GPUCOMPILE__CONSTRUCTOR(fn) __attribute__((constructor)) static void fn(void)
#endif

GPUCOMPILE_DEF gpucompile_result gpucompile_read_file(const char *path, const gpucompile_allocator *a,
                                                      unsigned char **data, size_t *size) {
    FILE *f;
    gpucompile__buf b;
    char chunk[65536];
    size_t n;
    *data = NULL;
    *size = 0;
    if (!path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    f = (strcmp(path, "-") == 0) ? stdin : fopen(path, "rb");
    if (!f) return GPUCOMPILE_ERROR_IO;
    memset(&b, 0, sizeof b);
    b.a = a;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) gpucompile__buf_add(&b, chunk, n);
    gpucompile__buf_add(&b, NULL, 0);
    if (ferror(f) || b.oom) {
        if (f != stdin) fclose(f);
        gpucompile_free(a, b.data);
        return b.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : GPUCOMPILE_ERROR_IO;
    }
    if (f != stdin) fclose(f);
    *data = (unsigned char *)b.data;
    *size = b.len;
    return GPUCOMPILE_OK;
}

/* Creates a new file with a unique name: prefix + random + suffix, mode 0600, O_EXCL. */
GPUCOMPILE__PRIVATE FILE *gpucompile__create_unique(const char *prefix, const char *suffix, char *buf, size_t size) {
    static unsigned long counter;
    int attempt;
    for (attempt = 0; attempt < 100; attempt++) {
        unsigned long r;
        gpucompile__lock();
        r = ++counter;
        gpucompile__unlock();
        r = r * 2654435761u ^ (unsigned long)(gpucompile__now_ms() * 1000.0) ^ (gpucompile__pid() << 16);
        if ((size_t)snprintf(buf, size, "%s%06lx%lx%s", prefix, r & 0xffffff, gpucompile__pid(), suffix ? suffix : "") >= size)
            return NULL;
#if defined(_WIN32)
        {
            HANDLE h = CreateFileA(buf, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
            if (h != INVALID_HANDLE_VALUE) {
                int fd = _open_osfhandle((intptr_t)h, 0);
                if (fd >= 0) return _fdopen(fd, "wb");
                CloseHandle(h);
                return NULL;
            }
            if (GetLastError() != ERROR_FILE_EXISTS) return NULL;
        }
#else
        {
            int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
            if (fd >= 0) {
                FILE *f = fdopen(fd, "wb");
                if (!f) { close(fd); remove(buf); }
                return f;
            }
            if (errno != EEXIST) return NULL;
        }
#endif
    }
    return NULL;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_write_file(const char *path, const void *data, size_t size) {
    char tmp[4096];
    FILE *f;
    int bad;
    if (!path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (strcmp(path, "-") == 0) {
        return fwrite(data, 1, size, stdout) == size && fflush(stdout) == 0 ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_IO;
    }
    if (strlen(path) + 16 >= sizeof tmp) return GPUCOMPILE_ERROR_IO;
    {
        char prefix[4096];
        snprintf(prefix, sizeof prefix, "%s.tmp", path);
        f = gpucompile__create_unique(prefix, NULL, tmp, sizeof tmp);
    }
    if (!f) return GPUCOMPILE_ERROR_IO;
    bad = size && fwrite(data, 1, size, f) != size;
    bad |= fclose(f) != 0;
#if defined(_WIN32)
    if (!bad) bad = !MoveFileExA(tmp, path, MOVEFILE_REPLACE_EXISTING);
#else
    if (!bad) bad = rename(tmp, path) != 0;
#endif
    if (bad) {
        remove(tmp);
        return GPUCOMPILE_ERROR_IO;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE const char *gpucompile__tmpdir(void) {
    const char *d = getenv("TMPDIR");
#if defined(_WIN32)
    if (!d || !*d) d = getenv("TEMP");
    if (!d || !*d) d = ".";
#else
    if (!d || !*d) d = "/tmp";
#endif
    return d;
}

#if defined(_WIN32)
/* Quotes one argument for CommandLineToArgvW's rules. */
GPUCOMPILE__PRIVATE void gpucompile__quote_arg(gpucompile__buf *b, const char *a) {
    const char *p;
    if (*a && !strpbrk(a, " \t\n\v\"")) { gpucompile__buf_str(b, a); return; }
    gpucompile__buf_str(b, "\"");
    for (p = a;; p++) {
        size_t slashes = 0;
        while (*p == '\\') { p++; slashes++; }
        if (!*p) { while (slashes--) gpucompile__buf_str(b, "\\\\"); break; }
        if (*p == '"') { while (slashes--) gpucompile__buf_str(b, "\\\\"); gpucompile__buf_str(b, "\\\""); }
        else { while (slashes--) gpucompile__buf_str(b, "\\"); gpucompile__buf_add(b, p, 1); }
    }
    gpucompile__buf_str(b, "\"");
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__spawn(const gpucompile_allocator *a, const char *const *argv, double timeout_s,
                                                        int *status, gpucompile__buf *out) {
    gpucompile__buf cmd;
    wchar_t *wcmd;
    int i, n;
    HANDLE rd, wr;
    SECURITY_ATTRIBUTES sa;
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    DWORD code = 1, got;
    char chunk[4096];
    memset(&cmd, 0, sizeof cmd);
    cmd.a = a;
    for (i = 0; argv[i]; i++) {
        if (i) gpucompile__buf_str(&cmd, " ");
        gpucompile__quote_arg(&cmd, argv[i]);
    }
    if (cmd.oom) { gpucompile_free(a, cmd.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    n = MultiByteToWideChar(CP_UTF8, 0, cmd.data, -1, NULL, 0);
    wcmd = (wchar_t *)gpucompile__alloc(a, (size_t)n * sizeof(wchar_t));
    if (!wcmd) { gpucompile_free(a, cmd.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    MultiByteToWideChar(CP_UTF8, 0, cmd.data, -1, wcmd, n);
    gpucompile_free(a, cmd.data);
    memset(&sa, 0, sizeof sa);
    sa.nLength = sizeof sa;
    sa.bInheritHandle = TRUE;
    if (!CreatePipe(&rd, &wr, &sa, 0)) { gpucompile_free(a, wcmd); return GPUCOMPILE_ERROR_TOOL; }
    SetHandleInformation(rd, HANDLE_FLAG_INHERIT, 0);
    memset(&si, 0, sizeof si);
    si.cb = sizeof si;
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdOutput = wr;
    si.hStdError = wr;
    si.hStdInput = NULL;
    if (!CreateProcessW(NULL, wcmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, NULL, &si, &pi)) {
        CloseHandle(rd); CloseHandle(wr); gpucompile_free(a, wcmd);
        return GPUCOMPILE_ERROR_TOOL;
    }
    gpucompile_free(a, wcmd);
    CloseHandle(wr);
    while (ReadFile(rd, chunk, sizeof chunk, &got, NULL) && got > 0) gpucompile__buf_add(out, chunk, got);
    CloseHandle(rd);
    if (WaitForSingleObject(pi.hProcess, (DWORD)(timeout_s * 1000.0)) == WAIT_TIMEOUT) {
        TerminateProcess(pi.hProcess, 1);
        CloseHandle(pi.hProcess); CloseHandle(pi.hThread);
        return GPUCOMPILE_ERROR_TIMEOUT;
    }
    GetExitCodeProcess(pi.hProcess, &code);
    CloseHandle(pi.hProcess); CloseHandle(pi.hThread);
    *status = (int)code;
    return GPUCOMPILE_OK;
}
#else
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__spawn(const gpucompile_allocator *a, const char *const *argv, double timeout_s,
                                                        int *status, gpucompile__buf *out) {
    int fds[2], st = 0, timed_out = 0;
    pid_t pid;
    posix_spawn_file_actions_t fa;
    double deadline = gpucompile__now_ms() + timeout_s * 1000.0;
    (void)a;
    if (pipe(fds) != 0) return GPUCOMPILE_ERROR_TOOL;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
    if (posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ) != 0) {
        posix_spawn_file_actions_destroy(&fa);
        close(fds[0]);
        close(fds[1]);
        return GPUCOMPILE_ERROR_TOOL;
    }
    posix_spawn_file_actions_destroy(&fa);
    close(fds[1]);
    for (;;) {
        struct pollfd p;
        char chunk[4096];
        ssize_t n;
        int left = (int)(deadline - gpucompile__now_ms());
        if (left <= 0) { timed_out = 1; break; }
        p.fd = fds[0];
        p.events = POLLIN;
        p.revents = 0;
        if (poll(&p, 1, left) < 0) {
            if (errno == EINTR) continue;
            break;
        }
        if (!p.revents) continue;
        n = read(fds[0], chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        gpucompile__buf_add(out, chunk, (size_t)n);
    }
    close(fds[0]);
    if (timed_out) kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    if (timed_out) return GPUCOMPILE_ERROR_TIMEOUT;
    if (WIFEXITED(st)) *status = WEXITSTATUS(st);
    else *status = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return GPUCOMPILE_OK;
}
#endif

/* ==== [section: backends registry] ======================================================= */
#define GPUCOMPILE__MAX_BACKENDS 16
static const gpucompile_backend *gpucompile__backends[GPUCOMPILE__MAX_BACKENDS];
static const gpucompile_backend *gpucompile__initialized[GPUCOMPILE__MAX_BACKENDS * 2];

GPUCOMPILE_DEF gpucompile_result gpucompile_register_backend(const gpucompile_backend *backend) {
    int i;
    gpucompile_result r = GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!backend) return r;
    gpucompile__lock();
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS; i++) {
        if (!gpucompile__backends[i] || gpucompile__backends[i]->kind == backend->kind) {
            gpucompile__backends[i] = backend;
            r = GPUCOMPILE_OK;
            break;
        }
    }
    gpucompile__unlock();
    return r;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_find_backend(gpucompile_target_kind kind) {
    const gpucompile_backend *b = NULL;
    int i;
    gpucompile__lock();
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS && gpucompile__backends[i]; i++)
        if (gpucompile__backends[i]->kind == kind) b = gpucompile__backends[i];
    gpucompile__unlock();
    return b;
}

/* Runs backend->initialize once per process, under the lock (LLVM's target initialisation). */
GPUCOMPILE__PRIVATE void gpucompile__initialize(const gpucompile_backend *b) {
    int i;
    gpucompile__lock();
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS * 2; i++) {
        if (gpucompile__initialized[i] == b) break;
        if (!gpucompile__initialized[i]) {
            if (b->initialize) b->initialize();
            gpucompile__initialized[i] = b;
            break;
        }
    }
    gpucompile__unlock();
}

/* ==== [section: jobs] ==================================================================== */
typedef struct gpucompile__job {
    gpucompile_job pub;            /* first: a gpucompile_job* is a gpucompile__job* */
    gpucompile_options opts;       /* resolved copy */
    const gpucompile_logger *logger;
    char **libs;                   /* queued bitcode libraries */
    int num_libs, cap_libs;
    char **temps;                  /* temp files to remove */
    int num_temps, cap_temps;
    double stage_start;
} gpucompile__job;

GPUCOMPILE_DEF void gpucompile_job_log(gpucompile_job *job, gpucompile_severity sev, gpucompile_result res,
                                       const char *origin, const char *fmt, ...) {
    gpucompile__job *j = (gpucompile__job *)job;
    char msg[4096];
    va_list ap;
    if (sev == GPUCOMPILE_SEVERITY_ERROR) job->failed = 1;
    if (!j->logger || !j->logger->func) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile__log(j->logger, sev, res, job->stage, origin, msg);
}

GPUCOMPILE_DEF void *gpucompile_job_alloc(gpucompile_job *job, size_t size) {
    return gpucompile__alloc(&((gpucompile__job *)job)->opts.allocator, size);
}

GPUCOMPILE_DEF void gpucompile_job_free(gpucompile_job *job, void *ptr) {
    gpucompile_free(&((gpucompile__job *)job)->opts.allocator, ptr);
}

GPUCOMPILE_DEF char *gpucompile_job_strdup(gpucompile_job *job, const char *s) {
    return gpucompile__strdup(&((gpucompile__job *)job)->opts.allocator, s);
}

/* Appends a copy of s to a growable array of strings. */
GPUCOMPILE__PRIVATE int gpucompile__push_str(gpucompile__job *j, char ***arr, int *num, int *cap, const char *s) {
    if (*num == *cap) {
        int ncap = *cap ? *cap * 2 : 8;
        char **n = (char **)gpucompile__realloc(&j->opts.allocator, *arr, (size_t)ncap * sizeof(char *));
        if (!n) return 0;
        *arr = n;
        *cap = ncap;
    }
    (*arr)[*num] = gpucompile__strdup(&j->opts.allocator, s);
    if (!(*arr)[*num]) return 0;
    (*num)++;
    return 1;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_add_library(gpucompile_job *job, const char *path) {
    gpucompile__job *j = (gpucompile__job *)job;
    if (!path || !*path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile__push_str(j, &j->libs, &j->num_libs, &j->cap_libs, path) ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
}

GPUCOMPILE_DEF int gpucompile_job_references(gpucompile_job *job, const char *prefix) {
    LLVMValueRef v;
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v))
        if (LLVMIsDeclaration(v) && gpucompile__starts_with(gpucompile__name(v), prefix)) return 1;
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v))
        if (LLVMIsDeclaration(v) && gpucompile__starts_with(gpucompile__name(v), prefix)) return 1;
    return 0;
}

GPUCOMPILE_DEF const char *gpucompile_job_tool_path(gpucompile_job *job, const char *name) {
    const gpucompile_options *o = job->options;
    int i;
    for (i = 0; i < o->num_tools; i++)
        if (o->tools[i].name && o->tools[i].path && strcmp(o->tools[i].name, name) == 0) return o->tools[i].path;
    return NULL;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_temp_file(gpucompile_job *job, const char *suffix, char *buf, size_t size) {
    gpucompile__job *j = (gpucompile__job *)job;
    char prefix[4096];
    FILE *f;
    snprintf(prefix, sizeof prefix, "%s/gpucompile-", gpucompile__tmpdir());
    f = gpucompile__create_unique(prefix, suffix, buf, size);
    if (!f) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_IO, NULL,
                           "cannot create a temporary file in %s", gpucompile__tmpdir());
        return GPUCOMPILE_ERROR_IO;
    }
    fclose(f);
    if (!gpucompile__push_str(j, &j->temps, &j->num_temps, &j->cap_temps, buf)) {
        remove(buf);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_run_tool(gpucompile_job *job, const char *const *argv, double timeout_s,
                                                         int *status, char **output, size_t *output_size) {
    gpucompile__job *j = (gpucompile__job *)job;
    gpucompile__buf out, cmd;
    gpucompile_result r;
    int st = -1, i;
    if (output) *output = NULL;
    if (output_size) *output_size = 0;
    if (!argv || !argv[0]) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (timeout_s <= 0) timeout_s = j->opts.tool_timeout_s;
    memset(&out, 0, sizeof out);
    out.a = &j->opts.allocator;
    memset(&cmd, 0, sizeof cmd);
    cmd.a = &j->opts.allocator;
    for (i = 0; argv[i]; i++) {
        if (i) gpucompile__buf_str(&cmd, " ");
        gpucompile__buf_str(&cmd, argv[i]);
    }
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "running: %s", cmd.data ? cmd.data : "");
    r = gpucompile__spawn(&j->opts.allocator, argv, timeout_s, &st, &out);
    gpucompile__buf_add(&out, NULL, 0);
    if (r == GPUCOMPILE_ERROR_TIMEOUT)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, r, argv[0], "killed after %.0f s: %s", timeout_s, cmd.data ? cmd.data : "");
    else if (r != GPUCOMPILE_OK)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, r, argv[0], "cannot run %s", argv[0]);
    gpucompile_free(&j->opts.allocator, cmd.data);
    if (status) *status = st;
    if (output && !out.oom) {
        *output = out.data;
        if (output_size) *output_size = out.len;
    } else {
        gpucompile_free(&j->opts.allocator, out.data);
    }
    return out.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : r;
}

/* ==== [section: pipeline] ================================================================ */
GPUCOMPILE__PRIVATE void gpucompile__set_stage(gpucompile_job *job, gpucompile_stage s) {
    gpucompile__job *j = (gpucompile__job *)job;
    double now = gpucompile__now_ms();
    if (job->object) job->object->stage_ms[job->stage] += now - j->stage_start;
    j->stage_start = now;
    job->stage = s;
}

GPUCOMPILE__PRIVATE void gpucompile__diag_handler(LLVMDiagnosticInfoRef di, void *user) {
    gpucompile_job *job = (gpucompile_job *)user;
    char *msg = LLVMGetDiagInfoDescription(di);
    switch (LLVMGetDiagInfoSeverity(di)) {
    case LLVMDSError:
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_LLVM, "llvm", "%s", msg);
        break;
    case LLVMDSWarning:
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, "llvm", "%s", msg);
        break;
    case LLVMDSRemark:
        if (job->options->remarks) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_REMARK, GPUCOMPILE_OK, "llvm", "%s", msg);
        break;
    default:
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "llvm", "%s", msg);
        break;
    }
    LLVMDisposeMessage(msg);
}

/* Logs an error and returns r: the one way the pipeline fails. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__fail(gpucompile_job *job, gpucompile_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__fail(gpucompile_job *job, gpucompile_result r, const char *fmt, ...) {
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, r, NULL, "%s", msg);
    return r;
}

/* Parses IR text or bitcode into the job's context. Takes nothing from the caller. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__parse(gpucompile_job *job, const void *data, size_t size, const char *name) {
    LLVMMemoryBufferRef mb;
    char *msg = NULL;
    const unsigned char *d = (const unsigned char *)data;
    if (!data || size == 0) return gpucompile__fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: empty input", name);
    mb = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, name);
    /* LLVMParseIRInContext takes ownership of mb, whatever happens. */
    if (LLVMParseIRInContext(job->context, mb, &job->module, &msg)) {
        int bitcode = size >= 4 && ((d[0] == 'B' && d[1] == 'C') || (d[0] == 0xDE && d[1] == 0xC0));
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: %s: %s", name,
                                               bitcode ? "invalid or truncated bitcode" : "invalid LLVM IR", msg ? msg : "parse failed");
        if (msg) LLVMDisposeMessage(msg);
        job->module = NULL;
        return r;
    }
    if (job->failed) return gpucompile__fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: could not be read", name);
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__setup(gpucompile_job *job) {
    LLVMTargetRef t;
    char *msg = NULL;
    const char *triple = gpucompile_target_triple(job->target);
    LLVMCodeGenOptLevel levels[4] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
    LLVMTargetDataRef dl;
    char *dls;
    LLVMValueRef fn;
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "target triple '%s': %s", triple, msg ? msg : "unknown");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    job->machine = LLVMCreateTargetMachine(t, triple, job->cpu, job->features, levels[job->target->O & 3],
                                           LLVMRelocDefault, LLVMCodeModelDefault);
    if (!job->machine) return gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "cannot create a target machine for '%s'", triple);
    LLVMSetTarget(job->module, triple);
    dl = LLVMCreateTargetDataLayout(job->machine);
    dls = LLVMCopyStringRepOfTargetData(dl);
    LLVMSetDataLayout(job->module, dls);
    LLVMDisposeMessage(dls);
    LLVMDisposeTargetData(dl);
    /* Per-function CPU and features would silently override the target machine. */
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-cpu", 10);
        LLVMRemoveStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "target-features", 15);
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE int gpucompile__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    unsigned cc;
    if (LLVMIsDeclaration(fn)) return 0;
    if (job->backend->is_kernel) return job->backend->is_kernel(job, fn);
    cc = LLVMGetFunctionCallConv(fn);
    if (cc == 71 || cc == 91) return 1; /* ptx_kernel, amdgpu_kernel */
    return LLVMGetLinkage(fn) == LLVMExternalLinkage;
}

/* Intrinsics LLVM would abort on: unknown ones, and other targets' (llvm.<arch>.*). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__check_intrinsics(gpucompile_job *job) {
    static const char *const arches =
        "aarch64,amdgcn,arm,bpf,dx,hexagon,loongarch,mips,nvvm,ppc,r600,riscv,s390,spv,ve,wasm,x86,xcore";
    LLVMValueRef fn;
    int bad = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = gpucompile__name(fn), *dot;
        if (!gpucompile__starts_with(name, "llvm.")) continue;
        if (LLVMGetIntrinsicID(fn) == 0) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                               "unknown intrinsic '%s' (not known to LLVM %d)", name, LLVM_VERSION_MAJOR);
            bad = 1;
            continue;
        }
        dot = strchr(name + 5, '.');
        if (dot && gpucompile__in_list(arches, name + 5, (size_t)(dot - (name + 5))) &&
            !gpucompile__in_list(job->backend->intrinsic_prefixes, name + 5, (size_t)(dot - (name + 5)))) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                               "intrinsic '%s' belongs to another target than %s", name, gpucompile_target_triple(job->target));
            bad = 1;
        }
    }
    return bad ? GPUCOMPILE_ERROR_INVALID_INPUT : GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__verify(gpucompile_job *job) {
    char *msg = NULL;
    LLVMValueRef fn;
    int kernels = 0;
    if (LLVMVerifyModule(job->module, LLVMReturnStatusAction, &msg)) {
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "the module is not valid LLVM IR: %s", msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    if (msg) LLVMDisposeMessage(msg);
    if (gpucompile__check_intrinsics(job) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_INVALID_INPUT;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) kernels += gpucompile__is_kernel(job, fn);
    if (!kernels)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                           "the module defines no kernel (no %s calling convention)", job->backend->name);
    return GPUCOMPILE_OK;
}

/* Names of what the module defines before linking: everything else defined after linking
   came from a library and is internalized. */
typedef struct gpucompile__names { char **v; int n, cap; } gpucompile__names;

GPUCOMPILE__PRIVATE int gpucompile__has_name(const gpucompile__names *s, const char *name) {
    int i;
    for (i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0) return 1;
    return 0;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__link_one(gpucompile_job *job, const char *path) {
    LLVMMemoryBufferRef mb = NULL;
    LLVMModuleRef lib = NULL;
    char *msg = NULL;
    LLVMValueRef v;
    const gpucompile_hooks *h = job->options->hooks;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_IO, "cannot read bitcode library '%s': %s", path, msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    /* Takes ownership of mb, also on failure. Lazy: only what is linked gets materialized. */
    if (LLVMGetBitcodeModuleInContext2(job->context, mb, &lib) || !lib) {
        job->failed = 0;
        return gpucompile__fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "'%s' is not a valid LLVM bitcode library", path);
    }
    LLVMSetTarget(lib, LLVMGetTarget(job->module));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(job->module));
    if (h && h->bitcode_file) {
        gpucompile_result r = h->bitcode_file(job, lib, path, h->user_data);
        if (r != GPUCOMPILE_OK) {
            LLVMDisposeModule(lib);
            return gpucompile__fail(job, r, "the bitcode-file hook stopped the compile at '%s'", path);
        }
    }
    /* linkonce_odr: the linker then takes only what the module references (--only-needed). */
    for (v = LLVMGetFirstFunction(lib); v; v = LLVMGetNextFunction(v)) {
        LLVMLinkage l = LLVMGetLinkage(v);
        if (!LLVMIsDeclaration(v) && (l == LLVMExternalLinkage || l == LLVMWeakAnyLinkage || l == LLVMWeakODRLinkage ||
                                      l == LLVMLinkOnceAnyLinkage))
            LLVMSetLinkage(v, LLVMLinkOnceODRLinkage);
    }
    for (v = LLVMGetFirstGlobal(lib); v; v = LLVMGetNextGlobal(v)) {
        LLVMLinkage l = LLVMGetLinkage(v);
        if (!LLVMIsDeclaration(v) && !gpucompile__starts_with(gpucompile__name(v), "llvm.") &&
            (l == LLVMExternalLinkage || l == LLVMWeakAnyLinkage || l == LLVMWeakODRLinkage || l == LLVMLinkOnceAnyLinkage ||
             l == LLVMCommonLinkage))
            LLVMSetLinkage(v, LLVMLinkOnceODRLinkage);
    }
    if (LLVMLinkModules2(job->module, lib)) /* consumes lib */
        return gpucompile__fail(job, GPUCOMPILE_ERROR_LINK, "linking '%s' failed", path);
    if (job->failed) return gpucompile__fail(job, GPUCOMPILE_ERROR_LINK, "linking '%s' failed", path);
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__link_queued(gpucompile_job *job, int *next) {
    gpucompile__job *j = (gpucompile__job *)job;
    for (; *next < j->num_libs; (*next)++) {
        gpucompile_result r = gpucompile__link_one(job, j->libs[*next]);
        if (r != GPUCOMPILE_OK) return r;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__link(gpucompile_job *job) {
    gpucompile__job *j = (gpucompile__job *)job;
    const gpucompile_hooks *h = job->options->hooks;
    const gpucompile_target *t = job->target;
    gpucompile__names own;
    gpucompile_result r = GPUCOMPILE_OK;
    LLVMValueRef v;
    int i, next = 0;
    memset(&own, 0, sizeof own);
    for (v = LLVMGetFirstFunction(job->module); v && r == GPUCOMPILE_OK; v = LLVMGetNextFunction(v))
        if (!LLVMIsDeclaration(v) && !gpucompile__push_str(j, &own.v, &own.n, &own.cap, gpucompile__name(v)))
            r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    for (v = LLVMGetFirstGlobal(job->module); v && r == GPUCOMPILE_OK; v = LLVMGetNextGlobal(v))
        if (!LLVMIsDeclaration(v) && !gpucompile__push_str(j, &own.v, &own.n, &own.cap, gpucompile__name(v)))
            r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (r == GPUCOMPILE_OK && h && h->load_bitcode_files) {
        r = h->load_bitcode_files(job, h->user_data);
        if (r != GPUCOMPILE_OK) r = gpucompile__fail(job, r, "the load-bitcode-files hook stopped the compile");
        else r = gpucompile__link_queued(job, &next);
    } else if (r == GPUCOMPILE_OK) {
        /* The caller's libraries first (they may call into the device libraries), then the
           backend's, chosen from what the linked module now references. */
        for (i = 0; i < t->num_link && r == GPUCOMPILE_OK; i++) r = gpucompile_job_add_library(job, t->link[i]);
        for (i = 0; i < job->options->num_link && r == GPUCOMPILE_OK; i++) r = gpucompile_job_add_library(job, job->options->link[i]);
        if (r == GPUCOMPILE_OK) r = gpucompile__link_queued(job, &next);
        if (r == GPUCOMPILE_OK && job->backend->libraries) r = job->backend->libraries(job);
        if (r == GPUCOMPILE_OK) r = gpucompile__link_queued(job, &next);
    }
    /* Internalize what the libraries brought, so the optimizer can drop what is unused. */
    if (r == GPUCOMPILE_OK && next > 0) {
        for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) {
            if (LLVMIsDeclaration(v) || gpucompile__has_name(&own, gpucompile__name(v))) continue;
            LLVMSetLinkage(v, LLVMInternalLinkage);
            LLVMSetVisibility(v, LLVMDefaultVisibility);
        }
        for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) {
            const char *name = gpucompile__name(v);
            if (LLVMIsDeclaration(v) || gpucompile__starts_with(name, "llvm.") || gpucompile__has_name(&own, name)) continue;
            LLVMSetLinkage(v, LLVMInternalLinkage);
            LLVMSetVisibility(v, LLVMDefaultVisibility);
        }
    }
    for (i = 0; i < own.n; i++) gpucompile_free(&j->opts.allocator, own.v[i]);
    gpucompile_free(&j->opts.allocator, own.v);
    return r;
}

/* What is still undefined after linking: an error naming each symbol. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__check_undefined(gpucompile_job *job) {
    LLVMValueRef v;
    int bad = 0;
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) {
        const char *name = gpucompile__name(v);
        if (!LLVMIsDeclaration(v) || gpucompile__starts_with(name, "llvm.") || !LLVMGetFirstUse(v)) continue;
        if (gpucompile__in_list(job->backend->allowed_undefined, name, strlen(name))) continue;
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNRESOLVED, NULL, "undefined function '%s'", name);
        bad = 1;
    }
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) {
        const char *name = gpucompile__name(v);
        if (!LLVMIsDeclaration(v) || !LLVMGetFirstUse(v)) continue;
        if (gpucompile__in_list(job->backend->allowed_undefined, name, strlen(name))) continue;
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNRESOLVED, NULL, "undefined global '%s'", name);
        bad = 1;
    }
    if (bad) return GPUCOMPILE_ERROR_UNRESOLVED;
    return gpucompile__check_intrinsics(job);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__optimize(gpucompile_job *job) {
    char pipeline[32];
    LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err;
    snprintf(pipeline, sizeof pipeline, "default<O%d>", job->target->O);
    err = LLVMRunPasses(job->module, pipeline, job->machine, pbo);
    LLVMDisposePassBuilderOptions(pbo);
    if (err) {
        char *msg = LLVMGetErrorMessage(err);
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "optimization failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return r;
    }
    if (job->failed) return gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "optimization reported an error");
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit_file(gpucompile_job *job, LLVMCodeGenFileType type, LLVMMemoryBufferRef *out) {
    char *msg = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(job->machine, job->module, type, &msg, out)) {
        gpucompile_result r = gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "code generation failed: %s", msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        *out = NULL;
        return r;
    }
    if (job->failed) return gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "code generation reported an error");
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit(gpucompile_job *job) {
    const gpucompile_hooks *h = job->options->hooks;
    gpucompile_result r = GPUCOMPILE_OK;
    LLVMCodeGenFileType type = job->format == GPUCOMPILE_FORMAT_ISA ? LLVMAssemblyFile : job->backend->bin_from;
    if (job->format == GPUCOMPILE_FORMAT_LLVM) {
        job->emitted = LLVMWriteBitcodeToMemoryBuffer(job->module);
        return job->emitted ? GPUCOMPILE_OK : gpucompile__fail(job, GPUCOMPILE_ERROR_LLVM, "cannot write bitcode");
    }
    if (h && h->isa && type != LLVMAssemblyFile) { /* the ISA text as well, for the hook only */
        LLVMMemoryBufferRef isa = NULL;
        r = gpucompile__emit_file(job, LLVMAssemblyFile, &isa);
        if (r == GPUCOMPILE_OK) r = h->isa(job, LLVMGetBufferStart(isa), LLVMGetBufferSize(isa), h->user_data);
        if (isa) LLVMDisposeMemoryBuffer(isa);
        if (r != GPUCOMPILE_OK) return job->failed ? r : gpucompile__fail(job, r, "the isa hook stopped the compile");
    }
    r = gpucompile__emit_file(job, type, &job->emitted);
    if (r == GPUCOMPILE_OK && h && h->isa && type == LLVMAssemblyFile) {
        r = h->isa(job, LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted), h->user_data);
        if (r != GPUCOMPILE_OK) return gpucompile__fail(job, r, "the isa hook stopped the compile");
    }
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__collect_kernels(gpucompile_job *job) {
    gpucompile_object *o = job->object;
    LLVMValueRef fn;
    int n = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) n += gpucompile__is_kernel(job, fn);
    if (!n) return GPUCOMPILE_OK;
    o->kernels = (gpucompile_kernel *)gpucompile_job_alloc(job, (size_t)n * sizeof(gpucompile_kernel));
    if (!o->kernels) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        gpucompile_kernel *k;
        if (!gpucompile__is_kernel(job, fn)) continue;
        k = &o->kernels[o->num_kernels];
        memset(k, 0, sizeof *k);
        k->name = gpucompile_job_strdup(job, gpucompile__name(fn));
        if (!k->name) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        o->num_kernels++;
        k->num_params = (int)LLVMCountParams(fn);
        k->registers = k->shared_bytes = k->max_threads = k->sgprs = k->vgprs = -1;
        k->private_bytes = k->wavefront_size = k->kernarg_bytes = -1;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__finish(gpucompile_job *job) {
    gpucompile_object *o = job->object;
    gpucompile_result r;
    if (job->format != GPUCOMPILE_FORMAT_LLVM && job->backend->finish) {
        r = job->backend->finish(job, job->format);
        if (r != GPUCOMPILE_OK) return job->failed ? r : gpucompile__fail(job, r, "the %s backend failed", job->backend->name);
    }
    if (job->result_data) {
        o->data = job->result_data;
        o->size = job->result_size;
        job->result_data = NULL;
    } else {
        size_t n = LLVMGetBufferSize(job->emitted);
        o->data = (unsigned char *)gpucompile_job_alloc(job, n + 1);
        if (!o->data) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        memcpy(o->data, LLVMGetBufferStart(job->emitted), n);
        o->data[n] = 0;
        o->size = n;
    }
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__hook(gpucompile_job *job,
    gpucompile_result (*fn)(gpucompile_job *, LLVMModuleRef, void *), const char *name) {
    gpucompile_result r;
    if (!fn) return GPUCOMPILE_OK;
    r = fn(job, job->module, job->options->hooks->user_data);
    if (r != GPUCOMPILE_OK && !job->failed) gpucompile__fail(job, r, "the %s hook stopped the compile", name);
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__run(gpucompile_job *job) {
    const gpucompile_hooks *h = job->options->hooks;
    gpucompile_result r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_SETUP);
    job->cpu = gpucompile_job_strdup(job, gpucompile_target_chip(job->target));
    job->features = gpucompile_job_strdup(job, gpucompile_target_features(job->target));
    if (!job->cpu || !job->features) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (job->backend->serialize) return job->backend->serialize(job, job->module);
    if (job->backend->configure && (r = job->backend->configure(job)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile__setup(job)) != GPUCOMPILE_OK) return r;
    if (h && (r = gpucompile__hook(job, h->initial_ir, "initial-IR")) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_VERIFY);
    if ((r = gpucompile__verify(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_PRELINK);
    if (h && (r = gpucompile__hook(job, h->pre_link, "pre-link")) != GPUCOMPILE_OK) return r;
    if (job->backend->prepare && (r = job->backend->prepare(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_LINK);
    if ((r = gpucompile__link(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_POSTLINK);
    if (h && (r = gpucompile__hook(job, h->post_link, "post-link")) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile__check_undefined(job)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile__collect_kernels(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_OPTIMIZE);
    if ((r = gpucompile__optimize(job)) != GPUCOMPILE_OK) return r;
    if (h && (r = gpucompile__hook(job, h->optimized_ir, "optimized-IR")) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_EMIT);
    if ((r = gpucompile__emit(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_BINARY);
    return gpucompile__finish(job);
}

GPUCOMPILE_DEF void gpucompile_object_free(gpucompile_object *obj) {
    gpucompile_allocator a;
    int i;
    if (!obj) return;
    a = obj->allocator;
    for (i = 0; i < obj->num_kernels; i++) gpucompile_free(&a, obj->kernels[i].name);
    gpucompile_free(&a, obj->kernels);
    gpucompile_free(&a, obj->target);
    gpucompile_free(&a, obj->triple);
    gpucompile_free(&a, obj->chip);
    gpucompile_free(&a, obj->data);
    gpucompile_free(&a, obj);
}

/* The one entry point behind the three compile functions: exactly one of module / data. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile(LLVMModuleRef module, const void *data, size_t size, const char *name,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out) {
    gpucompile__job j;
    gpucompile_job *job = &j.pub;
    gpucompile_result r;
    int i;
    char text[4096];
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!target) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&j, 0, sizeof j);
    if (options) j.opts = *options;
    if (!j.opts.format) j.opts.format = GPUCOMPILE_FORMAT_BIN;
    if (j.opts.tool_timeout_s <= 0) j.opts.tool_timeout_s = 300.0;
    j.logger = &j.opts.logger;
    job->options = &j.opts;
    job->target = target;
    job->format = j.opts.format;
    job->stage = GPUCOMPILE_STAGE_TARGET;
    j.stage_start = gpucompile__now_ms();
    if (!name) name = "<input>";
    if (gpucompile_target_verify(target, j.logger) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_INVALID_TARGET;
    job->backend = target->kind == GPUCOMPILE_TARGET_CUSTOM ? target->backend : gpucompile_find_backend(target->kind);
    if (!job->backend) {
        gpucompile_target_print(target, text, sizeof text);
        return gpucompile__fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "no backend is registered for %s", text);
    }
    if (job->format == GPUCOMPILE_FORMAT_FATBIN && target->kind != GPUCOMPILE_TARGET_NVPTX)
        return gpucompile__fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the %s backend does not produce fatbins", job->backend->name);
    job->object = (gpucompile_object *)gpucompile_job_alloc(job, sizeof(gpucompile_object));
    if (!job->object) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(job->object, 0, sizeof *job->object);
    job->object->allocator = j.opts.allocator;
    gpucompile__initialize(job->backend);
    job->context = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(job->context, gpucompile__diag_handler, job);
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_PARSE);
    if (module) {
        LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(module);
        r = gpucompile__parse(job, LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), name);
        LLVMDisposeMemoryBuffer(bc);
    } else {
        r = gpucompile__parse(job, data, size, name);
    }
    if (r == GPUCOMPILE_OK) r = gpucompile__run(job);
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_NONE);
    if (r == GPUCOMPILE_OK && job->failed) r = GPUCOMPILE_ERROR_LLVM;
    if (r == GPUCOMPILE_OK) {
        gpucompile_object *o = job->object;
        size_t n = gpucompile_target_print(target, text, sizeof text);
        o->target = (char *)gpucompile_job_alloc(job, n + 1);
        if (o->target) gpucompile_target_print(target, o->target, n + 1);
        o->kind = target->kind;
        o->triple = gpucompile_job_strdup(job, gpucompile_target_triple(target));
        o->chip = gpucompile_job_strdup(job, gpucompile_target_chip(target));
        o->format = job->format;
        if (!o->target || !o->triple || !o->chip) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        else { *out = o; job->object = NULL; }
    }
    /* Everything the job holds goes, on every path. */
    gpucompile_object_free(job->object);
    gpucompile_job_free(job, job->result_data);
    if (job->emitted) LLVMDisposeMemoryBuffer(job->emitted);
    if (job->machine) LLVMDisposeTargetMachine(job->machine);
    if (job->module) LLVMDisposeModule(job->module);
    if (job->context) LLVMContextDispose(job->context);
    gpucompile_job_free(job, job->cpu);
    gpucompile_job_free(job, job->features);
    for (i = 0; i < j.num_libs; i++) gpucompile_job_free(job, j.libs[i]);
    gpucompile_job_free(job, j.libs);
    for (i = 0; i < j.num_temps; i++) { remove(j.temps[i]); gpucompile_job_free(job, j.temps[i]); }
    gpucompile_job_free(job, j.temps);
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_module(LLVMModuleRef module, const gpucompile_target *target,
                                                           const gpucompile_options *options, gpucompile_object **out) {
    size_t n;
    if (!module) {
        if (out) *out = NULL;
        return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    }
    return gpucompile__compile(module, NULL, 0, LLVMGetModuleIdentifier(module, &n), target, options, out);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_ir(const void *data, size_t size, const char *name,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out) {
    return gpucompile__compile(NULL, data, size, name, target, options, out);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_file(const char *path, const gpucompile_target *target,
                                                         const gpucompile_options *options, gpucompile_object **out) {
    unsigned char *data;
    size_t size;
    const gpucompile_allocator *a = options ? &options->allocator : NULL;
    gpucompile_result r = gpucompile_read_file(path, a, &data, &size);
    if (out) *out = NULL;
    if (r != GPUCOMPILE_OK) {
        gpucompile__logf(options ? &options->logger : NULL, GPUCOMPILE_SEVERITY_ERROR, r, GPUCOMPILE_STAGE_PARSE,
                         "cannot read '%s'", path ? path : "(null)");
        return r;
    }
    r = gpucompile_compile_ir(data, size, path, target, options, out);
    gpucompile_free(a, data);
    return r;
}

/* ==== [section: binaries] ================================================================ */

/* ==== [section: end of binaries] ========================================================= */

/* ==== [section: host embedding] ========================================================== */

/* ==== [section: end of host embedding] =================================================== */

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_IMPLEMENTATION */

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
