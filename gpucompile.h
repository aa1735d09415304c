/* gpucompile.h - compile LLVM IR GPU kernels to PTX, cubin, fatbin, hsaco and SPIR-V, without MLIR.

   What it is
       MLIR's GPU "target attribute" model for C: a target (#gpu.nvptx<...>, #gpu.amdgpu<...>,
       #gpu.spirv<...>, #gpu.vulkan<...>, or MLIR's upstream #nvvm.target<...>, #rocdl.target<...>,
       #xevm.target<...>, #spirv.target_env<...>) is a struct with MLIR's defaults, verified,
       parsed and printed in MLIR's syntax. A target plus options turns an LLVM module (IR text,
       bitcode, or your LLVMModuleRef) into an object (bitcode, ISA text, cubin/hsaco/SPIR-V,
       fatbin) through one pipeline with hooks; several targets make one binary (MLIR's
       gpu.binary, as text or as an LLVM offload binary) that can be embedded into a host module
       with launch code. Backends plug in through a table of functions (gpucompile_backend):
       gpucompile_nvptx.h, gpucompile_amdgpu.h, gpucompile_spirv.h (OpenCL's SPIR-V, LLVM 20+)
       gpucompile_vulkan.h (Vulkan compute shaders, LLVM 22; with gpucompile_lower.h, the
       pointer-kernel lowering it runs) and gpucompile_webgpu.h (SPIR-V that WebGPU's readers
       take, run through wgpu-native or Dawn: D3D12, Metal, Vulkan), or your own.
       examples/01_*.c ... 10_*.c show one use each; tools/gpucompile.c is the command line.

   Sections (search for "[section: NAME]"). The declarations come first: results and
   diagnostics, targets, options, objects, backends, [section: backend helpers], binaries, host
   embedding. Then the implementation, in the order a compile runs (callees first):
       platform headers  the system headers behind platform, which alone includes them
       core utilities    results, allocation, buffers, logging, diagnostic records (replayed
                         by the cache, parallel compiles and isolation)
       platform          all of the implementation's Windows/POSIX code: clocks, files,
                         temporary files, processes, tools, directories, threads, worker
                         processes' descriptors, the remote cache's sockets; the other
                         sections are portable C calling it (tests/cli_seam.sh)
       thread pool       gpucompile_run_parallel (several targets, partitions, the CLI's batch)
       targets           defaults, verification, canonical text and its parser (all asking
                         the target's backend)
       formats           format names
       built-in backends the one part of the implementation that names a vendor: what the
                         public API keeps of the built-in kinds (tests/cli_seam.sh)
       backends registry gpucompile_register_backend, lookups by kind and by attribute name
       objects           create, kernels, free; kernel order; the ELF section reader
       jobs              the job a backend is handed and its functions (log, fail, tools,
                         temporary files, libraries, module flags)
       library index     bitcode libraries read once per process (the link stage's)
       pipeline          the stages in call order: parse, setup, module checks, verify, link,
                         undefined symbols, kernels, optimize, dynamic shared memory, emit,
                         finish; then code generation in partitions
       cache             the key, the dependencies' identities, an object as bytes
       remote cache      the Redis store behind the cache directory
       cache lookup      load, store, evict, stats, clear: the directory, then the remote store
       save-temps        options.save_temps: the stages as files and repro.sh
       isolation         a compile in another process: the request/reply protocol, a child
                         per compile (options.isolate), the worker pool's client side
       compile           the spine: gpucompile__run (the pipeline's driver), gpucompile__compile
                         (cache, isolation or the pipeline), the public compile functions
       workers           the worker's side: one request into one reply, the serving loop
       binaries          the binary model, several targets in parallel, MLIR's gpu.binary
                         text, LLVM's offload binary, run-time selection
       host embedding    a binary in a host module, with launch code over the mgpu* ABI
   The shared helpers (lock, libraries, start-up functions, little-endian reads, word lists,
   the offload entry reader) are gpucompile_runtime.h's [section: shared]. The vendors'
   knowledge (chip tables, defaults, verification, crash-avoidance rules, calling conventions,
   address spaces, metadata, offload kinds, selection scores, device libraries, tools,
   runtimes) is in the backend headers, each under its [section: backend].

   Writing a backend
       Fill a gpucompile_backend (every entry optional; see its comments) and register it with
       gpucompile_register_backend before the first compile. With attribute[0] = "my.target"
       and kind = GPUCOMPILE_TARGET_CUSTOM, "#my.target<...>" parses (defaults[], params[]),
       prints, verifies (verify_params, verify, chip_supported), compiles (initialize,
       configure ... finish; init/release own per-job state in job->backend_data), passes the
       module checks it asks for (calling_convention_ok, bad_symbol_name, code_rules), goes into
       binaries of both forms (offload_kind, image kinds and image_format, kernel_metadata), is
       cached when it sets cache_version, owns the offload entries of its triples (patterns of
       architecture and environment), is chosen at run time through select_score (which refuses
       an object of another triple), and shows in a program's --help (help, file_ext:
       gpucompile_targets_help, gpucompile_format_ext). A backend in a header of its own registers
       from GPUCOMPILE_CONSTRUCTOR, so that including it is all a program does (tests/
       toy_backend.h, tests/test_toy.c); the backend headers write gpucompile_<name>__fill and
       GPUCOMPILE_BACKEND_DEFINE(name), which makes the table once under the lock and registers
       it. The built-in kinds
       NVPTX and AMDGPU are the same tables registered under their kinds (the enum values stay
       for existing users: a kind names the backend registered for it). A backend's code
       calls the public API only: the job functions (gpucompile_job_log, _run_tool, _temp_file,
       ...) and the backend helpers (gpucompile_job_fail, gpucompile_buf_*, gpucompile_which,
       gpucompile_lock, gpucompile_dlopen, gpucompile_read_le, gpucompile_elf_sections and
       gpucompile_elf_read_section (an ELF file's sections), gpucompile_in_list, ...), so it
       compiles in a file of its own. examples/05_host_backend.h is such a backend in a header
       of its own; gpucompile_nvptx.h, gpucompile_amdgpu.h, gpucompile_spirv.h and
       gpucompile_vulkan.h are the full ones, each also compiled alone (tests/split), as is
       gpucompile_lower.h. Isolation (options.isolate, options.workers) runs `exe --worker`,
       which knows the backends that program registers: a program with a backend of its own
       passes itself as exe and calls gpucompile_worker_main for --worker.

   Do this:
       #define GPUCOMPILE_IMPLEMENTATION
   before you include this file (and the backend headers you want) in *one* C or
   C++ file to create the implementation. Every other file includes the headers plainly.

       #include ...
       #define GPUCOMPILE_IMPLEMENTATION
       #include "gpucompile.h"
       #include "gpucompile_nvptx.h"
       #include "gpucompile_amdgpu.h"

   Or each implementation in a file of its own (not with GPUCOMPILE_STATIC: one file then):
       core.c:   #define GPUCOMPILE_IMPLEMENTATION        (and no backend header)
                 #include "gpucompile.h"
       nvptx.c:  #include "gpucompile.h"
                 #define GPUCOMPILE_NVPTX_IMPLEMENTATION  (AMDGPU, SPIRV, VULKAN: the same; with
                 #include "gpucompile_nvptx.h"         VULKAN, LOWER too, here or in a file of its own)
   A backend registers itself at start-up from its own file (a constructor calling
   gpucompile_register_backend; the core names none of them): link its object, which a linker
   drops from a static archive when nothing references it (gpucompile_nvptx_backend() does).

   Linking: LLVM's C API, libdl and threads, nothing else (vendor libraries such as nvJitLink,
   libcuda, libamdhip64, libOpenCL and libvulkan, and hiredis for the remote cache, are opened at
   run time, never linked):
       cc app.c $(llvm-config-22 --cflags) $(llvm-config-22 --ldflags --libs) -ldl -lpthread
       (or llvm-config-19, -20, -21). A static LLVM needs these components (plus llvm-config
       --system-libs and -lstdc++; spirv for gpucompile_spirv.h and gpucompile_vulkan.h):
           core analysis bitreader bitwriter irreader linker passes target nvptx amdgpu spirv native
       CMake: find_package(LLVM) and an INTERFACE library, see examples/cmake/CMakeLists.txt.
       Windows: the same LLVM libraries; no -ldl (LoadLibraryA / GetProcAddress are used).
       A program that only loads and launches what was compiled needs none of this (no LLVM, no
       compiler): gpucompile_runtime.h, `cc prog.c host.o -ldl -lpthread`.

   Usage (error handling shortened)
       static void say(const gpucompile_diagnostic *d, void *u) { (void)u; fprintf(stderr, "%s\n", d->message); }
       ...
       gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
       gpucompile_options o;                      // zero means default, everywhere
       gpucompile_object *obj = NULL;
       gpucompile_result r;
       memset(&o, 0, sizeof o);
       t.chip = "sm_90";                          // or gpucompile_target_parse("#gpu.nvptx<...>")
       o.format = GPUCOMPILE_FORMAT_ISA;          // PTX; FORMAT_BIN: cubin (CUDA toolkit, no GPU)
       o.logger.func = say;                       // without a logger nothing is printed
       r = gpucompile_compile_file("saxpy.ll", &t, &o, &obj);
       if (r != GPUCOMPILE_OK) return puts(gpucompile_result_string(r)), 1;
       fwrite(obj->data, 1, obj->size, stdout);   // obj->kernels[i]: name, registers, ...
       gpucompile_object_free(obj);
   Your own module: gpucompile_compile_module. Many targets, one binary: gpucompile_compile_binary.

   Configuration macros (define before including the implementation)
       GPUCOMPILE_STATIC            every function static (implementation and users in one file)
       GPUCOMPILE_MALLOC(sz,u) GPUCOMPILE_REALLOC(p,sz,u) GPUCOMPILE_FREE(p,u)
                                    compile-time default allocator: all three or none (a
                                    run-time allocator goes in options.allocator)
       GPUCOMPILE_NVPTX_IMPLEMENTATION / GPUCOMPILE_AMDGPU_IMPLEMENTATION / GPUCOMPILE_SPIRV_IMPLEMENTATION
       / GPUCOMPILE_VULKAN_IMPLEMENTATION / GPUCOMPILE_WEBGPU_IMPLEMENTATION / GPUCOMPILE_LOWER_IMPLEMENTATION
                                    one backend's implementation (or the lowering's, which
                                    Vulkan's and WebGPU's call), next to the core's or in a file
                                    of its own
       GPUCOMPILE_BACKEND_IMPLEMENTATION
                                    your backend's implementation in a file without the core's:
                                    define it before including gpucompile.h (or, after it,
                                    before including gpucompile_runtime.h again, as tests/
                                    toy_backend.h does) for the helpers and macros of
                                    gpucompile_runtime.h (lock, libraries, GPUCOMPILE_CONSTRUCTOR)
       GPUCOMPILE_DEFAULT_CUDA_PATH / GPUCOMPILE_DEFAULT_ROCM_PATH
                                    toolkit roots tried after $CUDA_PATH, $ROCM_PATH, ...
       GPUCOMPILE_NVPTX_RUNTIME / GPUCOMPILE_AMDGPU_RUNTIME / GPUCOMPILE_SPIRV_RUNTIME
       / GPUCOMPILE_VULKAN_RUNTIME / GPUCOMPILE_WEBGPU_RUNTIME
                                    (backends) compile the mgpu* runtime for launch code (CUDA
                                    driver / HIP / OpenCL / Vulkan / webgpu.h; one per program):
                                    gpucompile_runtime.h, which needs no LLVM (a program that
                                    only loads and launches includes the backend header alone
                                    and links -ldl -lpthread); Vulkan's also records into an
                                    engine's own command buffers (examples/09_vulkan_engine.c)

   Target text
       Canonical text is MLIR's: parameters in declaration order, those equal to their default
       left out, flags sorted (a flag may carry a value, as MLIR's flags dictionary does:
       flags = {fast, "ptxas-cmd-options" = ["-v"]}). The defaults follow the spelling: the
       upstream #nvvm.target / #rocdl.target take those of MLIR of the same LLVM major as the
       LLVM built against (MLIR 22: #nvvm.target features "" and #rocdl.target abi "600";
       MLIR 19: "+ptx60" and "500"), so our text equals what that mlir-opt prints; gpucompile's
       own spellings #gpu.nvptx / #gpu.amdgpu keep "+ptx60" and ABI "500" on every LLVM
       (tests/test_target.c, test_defaults).
       Every parameter MLIR 22 has, in its order, and what each does here:
         #nvvm.target / #gpu.nvptx   O, triple, chip, features, flags, link, verifyTarget
         #rocdl.target / #gpu.amdgpu O, triple, chip, features, abi, flags, link
         #xevm.target                O, triple, chip, flags, linkFiles  (#gpu.spirv: features too,
                                     link for linkFiles)
       O: the optimization level of the pass pipeline and code generator (0-3). triple, chip:
       the target machine's (chips LLVM would abort on are refused). features: LLVM target
       features (NVPTX: +ptxNN, the PTX version, and +sm_NN). abi: the AMDGPU code object version
       ("400", "500", "600"; __oclc_ABI_version too). flags: a dictionary of options (fast, ftz,
       daz, finite_only, unsafe_math, unsafe_sqrt, wave64, no_wave64, "ptxas-cmd-options" =
       [...] given to ptxas and nvJitLink). link: bitcode files linked like device libraries.
       verifyTarget (a bool, MLIR 22, printed only when false): whether what the code asks of the
       chip is checked before codegen (gpucompile_target.no_verify_target).

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
       may be shared between threads. Register custom backends before the first compile.
       gpucompile_run_parallel is the thread pool gpucompile_compile_binary runs targets on;
       a caller with work of its own (the CLI's batch of inputs) may use it too.

   Guarantees
       No abort, no exit, no output on stdout/stderr unless the caller installs a logger (the
       mgpu* runtime alone prints a failed call's line, as MLIR's wrappers do, unless given an
       error callback). Inputs known to crash LLVM 19-22 (unknown chips and features, invalid IR,
       foreign intrinsics and calling conventions, types and address spaces a target lacks)
       are refused before LLVM sees them. Results are gpucompile_result codes; details go to
       the logger. Temporary files ($TMPDIR/gpucompile-PID-*) are removed on every return, and
       by gpucompile_signal_cleanup for a signal handler; those of a process killed outright
       are removed by a later compile once that PID is gone. External tools run with argv (no
       shell), in their own process group, with a timeout. Inputs are read up to
       options.max_input_bytes (1 GiB); devices such as /dev/zero are refused.
       Not preventable in-process: LLVM 19 aborts in instruction selection on an intrinsic the
       chosen chip lacks (llvm.nvvm.redux.sync.* below sm_80, llvm.amdgcn.mfma.* on gfx900, ...),
       and the C API cannot ask which intrinsics a chip has; LLVM 20+ segfaults while reading
       IR (text or bitcode) whose !nvvm.annotations entries are malformed (its auto-upgrade
       of them runs inside the reader); and LLVM's bitcode reader is not hardened against
       hostile bytes (a corrupt file can make it allocate gigabytes, which ends
       the process when memory runs out). For untrusted input set
       options.workers (gpucompile_workers_create: reused worker processes, what the CLI does)
       or options.isolate (a child gpucompile process per compile): a death there is that
       compile's error, with LLVM's last "LLVM ERROR:" line as its message. LLVM's diagnostics go through a handler on every context we make;
       what LLVM writes to stderr directly (it does so for unknown CPUs and features, which we
       refuse first) cannot be captured without redirecting the process's stderr, which a
       library must not do.

   Supported LLVM: 19, 20, 21 and 22 from one source (19 and 22 built and tested; the chip
   tables and PTX versions follow LLVM_VERSION_MAJOR; older is an #error, newer one too unless
   GPUCOMPILE_UNTESTED_LLVM is defined). LLVM's LLVMGetVersion names the LLVM run on (gpucompile
   --version prints it beside the one built with).
   Platforms: Linux is built and tested (gcc and clang, C11 and C++17); the Windows code paths
   (LoadLibraryA, CreateProcessW, SRWLOCK, ...) are compiled with mingw-w64, not run; macOS uses
   the POSIX paths, untested.

   Licence: see the end of the file.
*/
#ifndef GPUCOMPILE_H
#define GPUCOMPILE_H

/* First: the mgpu* runtime ABI, and the POSIX declarations the implementation needs even
   under -std=c11 (llvm-config's flags also define _GNU_SOURCE; this only helps when
   gpucompile.h is the first include). */
#include "gpucompile_runtime.h"

#include <stddef.h>
#include <stdint.h>
#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(GPUCOMPILE_STATIC) && defined(__GNUC__)
#define GPUCOMPILE_API static __attribute__((unused)) /* a user need not call every function */
#elif defined(GPUCOMPILE_STATIC)
#define GPUCOMPILE_API static
#else
#define GPUCOMPILE_API extern
#endif
/* What the implementations' definitions (the core's, the backends') carry. */
#if defined(GPUCOMPILE_STATIC)
#define GPUCOMPILE_DEF GPUCOMPILE_API
#else
#define GPUCOMPILE_DEF
#endif

/* The printf archetype of the format-checked functions: with GCC for mingw, "printf" means
   msvcrt's (no %zu), while mingw's stdio in C99/C++11 modes (what vsnprintf is there) has it. */
#if defined(__MINGW32__) && !defined(__clang__)
#define GPUCOMPILE__PRINTF gnu_printf
#else
#define GPUCOMPILE__PRINTF printf
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
    X(ERROR_RUNTIME, "GPU runtime error") \
    X(ERROR_TOO_LARGE, "input larger than the read limit")

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
    /* A kind is a short name for the backend registered with it: the built-in ones stay for
       existing users; a registered backend is found by its attribute name and needs no kind
       of its own (it uses CUSTOM, any number of them). */
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
    const char *features;      /* NULL: "+ptx60" / "" (#nvvm.target on LLVM 22+: "") */
    const char *abi;           /* AMDGPU only; NULL: "500", or "600" for #rocdl.target on LLVM 22+ */
    const char *const *flags;  /* set of flag names (fast, ftz, wave64, no_wave64, daz, ...) */
    int num_flags;
    const char *const *flag_values; /* NULL, or one per flag: NULL for a bare name, else the value
                                  in MLIR's canonical text: ["-v", "-O3"] for "ptxas-cmd-options"
                                  (NVPTX: arguments for ptxas / nvJitLink), "x", 1 : i64, true */
    const char *const *link;   /* bitcode files linked into the module */
    int num_link;
    const gpucompile_backend *backend; /* GPUCOMPILE_TARGET_CUSTOM: the table that compiles it */
    const char *custom_name;   /* GPUCOMPILE_TARGET_CUSTOM: printed as #<custom_name><...> */
    /* 1: MLIR 22's `verifyTarget = false` (NVPTX, both spellings; printed only then, last,
       also when built with LLVM 19, whose mlir-opt does not know it: it keeps the meaning).
       MLIR checks each NVVM op's required SM against the chip; an LLVM module has no such ops,
       so here it turns off the checks of what is asked of the chip before codegen that are not
       needed to keep LLVM alive: whether the installed CUDA toolkit takes the chip (ptxas or
       nvJitLink then says so) and a function's +ptxNN above the target's pinned one (a
       warning then, the pinned version kept). Unknown chips are refused all the same. */
    int no_verify_target;
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
/* A flag's value text (see flag_values), or NULL when the flag is absent or has no value. */
GPUCOMPILE_API const char *gpucompile_target_flag_value(const gpucompile_target *t, const char *name);
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
/* The index-th chip of kind's table (0, 1, ... until NULL); *native (when not NULL) is 0 for a
   chip this LLVM lacks but reaches through older PTX (LLVM 19: sm_100 and newer), else 1. */
GPUCOMPILE_API const char *gpucompile_chip_name(gpucompile_target_kind kind, int index, int *native);

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
typedef struct gpucompile_workers gpucompile_workers; /* worker processes: gpucompile_workers_create */

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
    const char *bin_method;            /* NVPTX: "nvjitlink", "ptxas" or "driver", no fallback; NULL: by
                                          the PTX's size, the other one if it fails (gpucompile_nvptx.h);
                                          AMDGPU: "elf" or "lld" (gpucompile_amdgpu.h) */
    const gpucompile_tool_path *tools; /* overrides for external tools and vendor libraries */
    int num_tools;
    double tool_timeout_s;             /* external tools are killed after this; 0: 300 s */
    int debug;                         /* keep debug info (and ", debug" in PTX) */
    int remarks;                       /* pass LLVM remarks to the logger */
    const char *cache_dir;             /* persistent compile cache; NULL: none (see gpucompile_default_cache_dir) */
    uint64_t cache_max_bytes;          /* least recently used entries go above this; 0: 1 GiB */
    /* Each stage on disk, per target in DIR/<input stem>.<chip>.<format>/ (input.ll, linked.ll,
       optimized.ll, isa.s, object.o, binary.*, tool logs, repro.sh redoing it with LLVM's tools),
       also when the compile fails; NULL: none. Such compiles bypass the cache. */
    const char *save_temps;
    /* "redis://[[USER:]PASSWORD@]HOST[:PORT][/DB]" (ccache's form; %XX escapes in USER and
       PASSWORD): a shared store behind cache_dir (hiredis, opened at run time); NULL: none. With
       a password it sends AUTH (USER: an ACL user, Redis 6+) before SELECT. Its problems are a
       warning, never a failed compile; no message repeats the password. */
    const char *cache_remote;
    /* The remote store's password from this file (its first line), so that it need not be on a
       command line, where other users see it; used when the URL has none, and then the URL's
       userinfo only names the ACL user (redis://USER@HOST). NULL: none. */
    const char *cache_remote_password_file;
    /* A file holding the team's cache secret (16 bytes to 4 KiB; trailing white space ignored):
       every entry written carries a tag keyed by it, over the entry and its key, and entries
       without a valid tag are refused (a miss, one warning per process), local or remote. It
       also keys the cache key, so other secrets, or none, see other entries. An unreadable
       secret turns the cache off for that compile (a warning). NULL: entries carry no tag. */
    const char *cache_secret_file;
    /* Path of a gpucompile executable: compile in that child process instead (argv, no shell),
       so that a crash inside LLVM becomes an error here. Not with hooks, nor with a custom
       backend that is not registered under its attribute (the child must find it by name). */
    const char *isolate;
    gpucompile_workers *workers;       /* compile in these worker processes (see gpucompile_workers_create) */
    uint64_t max_input_bytes;          /* inputs and cache entries above this are refused; 0: 1 GiB */
    /* MLIR's gpu-module-to-binary `section`: the ELF section the host embedding puts the binary's
       bytes in (recorded as the object's "section" property); NULL: LLVM's default. */
    const char *section;
    /* MLIR's gpu-module-to-binary `opts`: options for the binary step, split at white space and
       appended to the tool's command line: ptxas (and nvJitLink, as -Xptxas=...; the driver
       method takes none) for NVPTX cubins and fatbins, ld.lld for AMDGPU hsaco. NULL: none. */
    const char *tool_options;
    /* Threads one compile may use inside its module: code generation in up to N partitions
       (where the backend joins them: gpucompile_backend.join) and the binary step's own split
       (ptxas --split-compile N, nvJitLink -split-compile=N). 0, 1: one. gpucompile_compile_binary
       gives each target what its jobs leave over (never more than jobs in total). */
    int jobs;
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
    /* 1: uses dynamic shared memory (an unsized external global in the shared / LDS address
       space, CUDA/HIP `extern __shared__ T name[]`), directly or through the functions it
       calls: the launch gives its size (sharedMemBytes); 0: does not; -1: unknown (an object
       read back from a binary) */
    int dynamic_shared;
    /* MLIR's #gpu.kernel_metadata beyond the fields above (owned; NULL when unknown / none). */
    char *type;                 /* the function type: "!llvm.func<void (f32, ptr<1>)>" */
    char *arg_attrs;            /* MLIR's arg_attrs array, as text: "[{llvm.noalias}, {}]" */
    char *metadata;             /* metadata entries without a field above, sorted: "agpr_count = 0 : i64" */
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
    int from_cache;             /* 1: it came from options.cache_dir, 2: from options.cache_remote */
    gpucompile_allocator allocator; /* the one that made it */
    /* MLIR's object properties (owned; NULL: none): the dictionary's entries, sorted by name, as
       MLIR text: "O = 3 : i32, section = \"__nv_fatbin\"". A compile writes O on ISA objects (what
       a PTX JIT compiles at) and section when options.section is set, not MLIR's stage times
       (LLVMIRToISATimeInMs, ...: the same input gives the same text; stage_ms has them);
       entries read with an object (mlir-opt's stage times, ...) are kept as they are. */
    char *properties;
    /* Whether the text form prints MLIR's kernel table (kernels = <[...]>; MLIR 19: the names
       in the properties), so that an object is printed as it was read:
        0  when it has kernels (a compile's objects, hand-made ones);
        1  always, also empty (`kernels = <>`, as mlir-opt-22 writes it for a module without
           kernels): the text or offload binary it was read from gave one;
       -1  never: it came without one (mlir-opt's bin and assembly objects, clang's packager),
           its kernels, if any, were found in its bytes (still in kernels[], for --host). */
    int kernel_table;
} gpucompile_object;

GPUCOMPILE_API void gpucompile_object_free(gpucompile_object *obj);
/* The text of one property's value ("3 : i32", "\"__nv_fatbin\"") into buf (snprintf-style);
   0 when obj has no such property. */
GPUCOMPILE_API size_t gpucompile_object_property(const gpucompile_object *obj, const char *key, char *buf, size_t size);
/* Fills obj->kernels from the bytes themselves when it has none (an object that did not come
   from gpucompile: mlir-opt's, clang's): the backend of obj->kind reads PTX .entry lines, cubin
   entry functions and .nv.info, the hsaco's metadata note, AMDGPU assembly's .amdhsa_kernel.
   GPUCOMPILE_OK also when nothing was found (bitcode; a compressed fatbin). */
GPUCOMPILE_API gpucompile_result gpucompile_object_find_kernels(gpucompile_object *obj);
/* An object as bytes and back (checksummed; host byte order, for one machine: the cache's and
   the isolated compiler's format). Serialized bytes are freed with gpucompile_free(allocator). */
GPUCOMPILE_API gpucompile_result gpucompile_object_serialize(const gpucompile_object *obj,
    const gpucompile_allocator *allocator, unsigned char **data, size_t *size);
GPUCOMPILE_API gpucompile_result gpucompile_object_deserialize(const void *data, size_t size,
    const gpucompile_allocator *allocator, gpucompile_object **out);

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
/* Valid IR that a code generator aborts or crashes on, refused before LLVM sees it: the core
   walks the module (by-value parameters, globals, every instruction, the types they use: 128-
   and 80-bit floats, thread-local storage) and asks these; each may be NULL. */
typedef struct gpucompile_code_rules {
    unsigned long long max_param_bytes; /* by-value aggregate parameters; 0: no limit */
    const char *(*bad_address_space)(unsigned as);  /* a pointer type's: why not, or NULL */
    const char *(*bad_instruction)(LLVMValueRef in); /* after the type checks */
    const char *(*bad_global)(LLVMValueRef g);       /* after the type checks */
    /* module metadata the reader or code generator crashes on: log why, return nonzero */
    int (*bad_metadata)(gpucompile_job *job);
} gpucompile_code_rules;

/* A backend compiles the targets of one attribute (#gpu.nvptx / #nvvm.target, ...). The core
   runs the pipeline and asks these; each entry is optional. A target of a registered custom
   backend comes from gpucompile_target_parse; one made by hand sets target.kind =
   GPUCOMPILE_TARGET_CUSTOM and target.backend (registration is not needed for that). */
struct gpucompile_backend {
    const char *name;                   /* "nvptx", "amdgpu", ... */
    gpucompile_target_kind kind;
    const char *intrinsic_prefixes;     /* comma-separated own intrinsic prefixes: "nvvm" */
    const char *allowed_undefined;      /* comma-separated symbols allowed to stay undefined ("p*": names starting with p) */
    /* the shared-memory address space (NVPTX shared, AMDGPU LDS); 0: none. External globals in
       it (CUDA/HIP `extern __shared__`) may stay undefined; the kernels that reach an unsized
       one (dynamic shared memory, sized at launch) get gpucompile_kernel.dynamic_shared */
    unsigned shared_address_space;
    void (*initialize)(void);           /* LLVMInitialize* for this target; called once */
    /* before the target machine exists: may replace job->cpu / job->features */
    gpucompile_result (*configure)(gpucompile_job *job);
    /* pre-link: module flags, control variables, attributes */
    gpucompile_result (*prepare)(gpucompile_job *job);
    /* the backend's device libraries (gpucompile_job_add_library), given what is referenced */
    gpucompile_result (*libraries)(gpucompile_job *job);
    /* after linking, internalizing and the post_link hook: what must also reach library code */
    gpucompile_result (*post_link)(gpucompile_job *job);
    int (*is_kernel)(gpucompile_job *job, LLVMValueRef fn); /* NULL: the calling convention says */
    /* what `bin` and `fatbin` are made from: LLVMAssemblyFile or LLVMObjectFile */
    LLVMCodeGenFileType bin_from;
    /* turn the emitted ISA/object (job->emitted) into format; set job->result_data/size
       (allocated with gpucompile_job_alloc) and fill kernel metadata on job->object */
    gpucompile_result (*finish)(gpucompile_job *job, gpucompile_format format);
    /* replaces the whole pipeline after the target check (serializeToObject) */
    gpucompile_result (*serialize)(gpucompile_job *job, LLVMModuleRef module);
    void *user_data;
    /* kernel names and metadata from an object's own bytes (gpucompile_object_find_kernels) */
    gpucompile_result (*find_kernels)(gpucompile_object *obj);

    /* ---- what the core asks of a backend instead of knowing it (all optional) ---- */
    /* the attribute names: [0] parses with upstream = 0, [1] (NULL: none) with upstream = 1;
       the registry is keyed by them. A backend without any is reachable through target.backend. */
    const char *attribute[2];
    /* per spelling ([upstream]): the defaults of triple, chip, features, abi (NULL: "") */
    struct { const char *triple, *chip, *features, *abi; } defaults[2];
    /* per spelling ([upstream]): the parameters the attribute takes, comma-separated, in
       declaration order (a subset of O,triple,chip,features,abi,flags,link); NULL: [0]'s, and
       for [0] all seven */
    const char *params[2];
    /* target verification after the common checks. verify_params runs where MLIR checks the
       attribute's own parameters (after triple and chip are found not empty), verify after
       the flags: a triple of this backend, a chip it knows. Log through gpucompile_log_target. */
    gpucompile_result (*verify_params)(const gpucompile_target *t, const gpucompile_logger *logger);
    gpucompile_result (*verify)(const gpucompile_target *t, const gpucompile_logger *logger);
    /* the chips it compiles for (gpucompile_chip_supported / gpucompile_chip_name); NULL:
       every non-empty chip, none listed */
    int (*chip_supported)(const char *chip);
    const char *(*chip_name)(int index, int *native);
    /* the formats it makes, as bits (1u << GPUCOMPILE_FORMAT_...); 0: llvm, isa and bin */
    unsigned formats;
    /* per-job state: init runs once the job is set up (before the module is read), release when
       the job ends, whatever its outcome, if init succeeded; job->backend_data is theirs */
    gpucompile_result (*init)(gpucompile_job *job);
    void (*release)(gpucompile_job *job);
    /* module checks, before and after linking (the crash-avoidance rules): */
    int (*calling_convention_ok)(unsigned cc);      /* of defined functions; NULL: any */
    /* a visible symbol's name the code generator cannot emit: why not (a sentence), or NULL */
    const char *(*bad_symbol_name)(const char *name);
    const char *refused_intrinsics;     /* comma-separated prefixes refused when used */
    const gpucompile_code_rules *code_rules; /* NULL: no code checks */
    /* run-time choice (gpucompile_binary_select): how well object o (one of this backend's)
       serves the device named ("sm_90", "gfx90a:xnack+", ...): < 0 not at all, higher is
       better, *why a few words on what it is. With o NULL: -2 when the name is not one of this
       backend's devices, else -1. device_help: how its names look, for the error message. */
    int (*select_score)(const gpucompile_object *o, const char *device, const char **why);
    const char *device_help;
    /* binaries: */
    /* the triples that are this backend's (gpucompile_triple_in): comma-separated patterns
       ARCH[-VENDOR[-OS[-ENVIRONMENT]]], '*' in a part for any run of characters, a part left
       out matching anything, a part the triple lacks reading "unknown"; "!" before a pattern
       excludes what it matches. "nvptx,nvptx64"; "spirv,spirv32,spirv64,!*-*-vulkan*" (OpenCL's
       SPIR-V, not Vulkan's). An offload entry another program wrote (no gpucompile.target) goes
       to the first backend whose triples hold its triple. */
    const char *triples;
    /* the triples (the same patterns) of modules that are this backend's input as well as its
       own: compiled for the target's triple without the warning a module of another
       architecture gets. "spirv,spirv32,spirv64" (OpenCL C, the Vulkan backend's pointer kernels). */
    const char *input_triples;
    unsigned short offload_kind;        /* LLVM offload binary's offload kind; 0: none */
    /* LLVM offload binary's image kinds of isa, bin and fatbin objects (LLVM's numbers: 1
       object, 6 SPIR-V, ...); 0: none for isa and fatbin, object for bin */
    unsigned short image_kind_isa, image_kind_bin, image_kind_fatbin;
    /* reading an entry that does not name its format: the format ("bin", "isa", "fatbin") its
       image kind or bytes say, NULL where LLVM's generic reading holds (object, bitcode, ELF) */
    const char *(*image_format)(int image_kind, const unsigned char *image, size_t size);
    /* the names #gpu.kernel_metadata gives gpucompile_kernel's registers, shared_bytes,
       private_bytes, max_threads, sgprs, vgprs, wavefront_size and kernarg_bytes (8 entries,
       NULL where not carried); NULL: none */
    const char *const *kernel_metadata;
    /* for a program's --help (gpucompile_targets_help): what it compiles for and which options
       it reads (toolkit_path, tools, tool_options, bin_method); lines of at most 72 characters
       separated by '\n'. NULL: none */
    const char *help;
    /* the file name extension of each format's bytes, without the dot, indexed by
       gpucompile_format (gpucompile_format_ext); NULL entries: bc, s, bin, fatbin */
    const char *file_ext[GPUCOMPILE_FORMAT_FATBIN + 1];
    /* a custom backend's compiles are cached (options.cache_dir) only when this is set: a
       version string that goes into the key (change it when the backend's output changes) */
    const char *cache_version;
    /* What the environment chose for job, as text for the cache key (the toolkit root or the
       library roots found through CUDA_PATH, ROCM_PATH, PATH, ...); NULL: nothing. The files
       and tools a compile then uses are its dependencies (gpucompile_job_add_dependency). */
    void (*cache_key)(gpucompile_job *job, char *buf, size_t size);
    /* per spelling ([upstream]): the name of the link parameter; NULL: "link" (MLIR's
       #xevm.target calls it "linkFiles") */
    const char *link_name[2];
    /* Code generation in parallel inside one module: with options.jobs N > 1, a module of at
       least two kernels and a format in join_formats, the core splits the optimized module into
       min(N, kernels) partitions (see [section: pipeline], partitions, for what each holds),
       emits each on its own thread, context and target machine (as the single-module emit
       would: bin_from, assembly for isa) and hands their outputs here in partition order (the
       buffers stay the core's). join makes of them what finish takes: job->emitted, as one
       module's emit would have made it, or the format's bytes in job->result_data/size (finish
       then finds them set). Not taken with options.save_temps or an isa hook. NULL: always one
       module. */
    gpucompile_result (*join)(gpucompile_job *job, gpucompile_format format, const LLVMMemoryBufferRef *parts, int n);
    unsigned join_formats; /* the formats join takes, as bits (1u << GPUCOMPILE_FORMAT_...); 0: isa, bin and fatbin */
    /* After optimization, before code generation: what the code generator would crash on in the
       optimized module (the optimizer makes some of it), rewritten or refused (gpucompile_job_fail).
       NULL: nothing. */
    gpucompile_result (*pre_emit)(gpucompile_job *job);
    /* Nonzero: code generation at LLVM's level None whatever the target's O (the module is
       optimized at O before it): for a code generator whose optimizations make wrong output. */
    int emit_unoptimized;
    /* What is wrong with the object file code generation made (size bytes at data), NULL when
       nothing: for a code generator whose output depends on where the heap puts things. Where
       set, the core writes the module as bitcode before code generation and, when this says
       something, makes the object again from it (gpucompile_job_emit_copy, 8 tries); such a
       code generator runs one at a time in the process. NULL: none. */
    const char *(*emitted_wrong)(const void *data, size_t size);
    /* per spelling ([upstream]): an attribute whose text is not `key = value` parameters (MLIR's
       #spirv.target_env is positional). parse_text reads the text after the attribute's name (n
       bytes; column: where it starts in the whole text, for messages), writes the same target as
       this backend's parameters (`triple = "...", features = "..."`, NUL-terminated) into params
       (size bytes; the core reads them as if written inside <...>) and returns how many bytes of
       text it read, 0 after logging an error (gpucompile_log_target). print_text writes the text
       of a target of that spelling (snprintf-style, as gpucompile_target_print). NULL: the core's. */
    size_t (*parse_text[2])(const char *text, size_t n, size_t column, const gpucompile_logger *logger, char *params, size_t size);
    size_t (*print_text[2])(const gpucompile_target *t, char *buf, size_t size);
};

/* Registration (the backend headers register themselves when their implementation is compiled
   in; others may be registered by the caller, before any compile; at most 16). A table
   replaces the one registered with the same built-in kind, or (custom) the same attribute[0]
   (else name). The table must outlive every use: it is kept, not copied. */
GPUCOMPILE_API gpucompile_result gpucompile_register_backend(const gpucompile_backend *backend);
/* A backend header's table, made once: the first call fills a zeroed copy with fill and publishes
   it in *table under the library's lock (two threads may both fill; one table wins); later calls
   return table as it is. */
GPUCOMPILE_API const gpucompile_backend *gpucompile_backend_once(gpucompile_backend *table, void (*fill)(gpucompile_backend *t));
/* A table's names: its kind, name, attribute[0] (gpucompile's spelling) and [1] (MLIR's; may be
   NULL), and both spellings' default triple and chip. */
GPUCOMPILE_API void gpucompile_backend_names(gpucompile_backend *t, gpucompile_target_kind kind, const char *name, const char *attribute,
                                             const char *mlir_attribute, const char *triple, const char *chip);
/* A backend header's gpucompile_<name>_backend(): its table, filled once by the header's
   gpucompile_<name>__fill (gpucompile_backend_once), and registered before main. */
#define GPUCOMPILE_BACKEND_DEFINE(name) \
    GPUCOMPILE_DEF const gpucompile_backend *gpucompile_##name##_backend(void) { \
        static gpucompile_backend b; \
        return gpucompile_backend_once(&b, gpucompile_##name##__fill); \
    } \
    GPUCOMPILE_CONSTRUCTOR(gpucompile_##name##__register) { gpucompile_register_backend(gpucompile_##name##_backend()); }
GPUCOMPILE_API const gpucompile_backend *gpucompile_find_backend(gpucompile_target_kind kind);
/* The backend whose attribute[0] or attribute[1] is name (without '#'; n bytes, (size_t)-1:
   up to the NUL); *upstream (may be NULL) says which. NULL when none is registered. */
GPUCOMPILE_API const gpucompile_backend *gpucompile_find_backend_named(const char *name, size_t n, int *upstream);
/* The i-th registered backend (registration order, the built-in kinds first), NULL past the end. */
GPUCOMPILE_API const gpucompile_backend *gpucompile_backend_at(int i);
/* For a program's --help: a paragraph per registered backend with an attribute name: the
   names, the formats it makes with their file extensions, its devices (device_help), its help
   text (indented).
   snprintf-style: returns the length needed, writes at most size bytes. */
GPUCOMPILE_API size_t gpucompile_targets_help(char *buf, size_t size);
/* The extension (without the dot) of a file holding the bytes of target t's objects in format
   f: its backend's file_ext, else bc, s, bin or fatbin. */
GPUCOMPILE_API const char *gpucompile_format_ext(const gpucompile_target *t, gpucompile_format f);
/* For a backend's verify hooks: an INVALID_TARGET error with MLIR's wording, returned. */
GPUCOMPILE_API gpucompile_result gpucompile_log_target(const gpucompile_logger *logger, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 2, 3)))
#endif
    ;

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
    int failed;                         /* an error diagnostic was reported (by LLVM, a backend or a hook) */
    gpucompile_stage stage;
};

/* Backend and hook support. */
GPUCOMPILE_API void gpucompile_job_log(gpucompile_job *job, gpucompile_severity sev, gpucompile_result res,
    const char *origin, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 5, 6)))
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
/* With options.save_temps: the path a stage's file (e.g. "isa.s") is kept under, into buf, so
   that a backend's message about an in-process step can name it; 0 when temps are not kept. */
GPUCOMPILE_API int gpucompile_job_saved_path(gpucompile_job *job, const char *file, char *buf, size_t size);
/* With options.save_temps: a binary step the backend did in-process (nvJitLink), for repro.sh to
   redo: file (NULL: none) is saved under that name with data, and lines (shell text, run in the
   save directory, where repro.isa.s / repro.object.o are the emitted ISA / object) are added
   to repro.sh. Nothing without save_temps. */
GPUCOMPILE_API void gpucompile_job_repro_step(gpucompile_job *job, const char *file, const void *data, size_t size, const char *lines);
/* options->tool_options split at white space into words (copies in buf): their count, -1 when
   more than max or longer than size (logged as an error). */
GPUCOMPILE_API int gpucompile_job_tool_options(gpucompile_job *job, char *buf, size_t size, const char **words, int max);
/* The strings of the target flag's value, a string or an array of strings in MLIR's text
   (["-v", "-O3"] for NVPTX's "ptxas-cmd-options"): *list is one block (gpucompile_job_free it),
   NULL with *count 0 when the flag has no value. Any other value: an error, logged. */
GPUCOMPILE_API gpucompile_result gpucompile_job_flag_strings(gpucompile_job *job, const char *flag, char ***list, int *count);
/* A file the result depends on (a library, a tool): a cache entry is valid while it is unchanged.
   Linked libraries and tools run through gpucompile_job_run_tool are recorded automatically. */
GPUCOMPILE_API void gpucompile_job_add_dependency(gpucompile_job *job, const char *path);
/* Sets the i32 module flag key = value with the given behaviour, replacing the behaviour and
   value of one already there (LLVMAddModuleFlag appends, and a key twice makes the module invalid). */
GPUCOMPILE_API void gpucompile_job_set_module_flag(gpucompile_job *job, LLVMModuleFlagBehavior behavior, const char *key, int value);

/* Run an external program: argv[0] is the path, no shell. Captures stdout+stderr into *output
   (NUL-terminated, allocated with the job's allocator; may be NULL). Exit status in *status.
   Kills it, and what it started, after timeout_s (GPUCOMPILE_ERROR_TIMEOUT). The command line
   goes to the logger as a note, quoted for a POSIX shell. */
GPUCOMPILE_API gpucompile_result gpucompile_job_run_tool(gpucompile_job *job, const char *const *argv,
    double timeout_s, int *status, char **output, size_t *output_size);
/* The same in directory cwd (NULL: ours), for tools whose arguments cannot hold any path. */
GPUCOMPILE_API gpucompile_result gpucompile_job_run_tool_in(gpucompile_job *job, const char *cwd, const char *const *argv,
    double timeout_s, int *status, char **output, size_t *output_size);
/* A new empty file in $TMPDIR (mode 0600) named gpucompile-PID-XXXXXX<suffix>; path written to buf. */
GPUCOMPILE_API gpucompile_result gpucompile_job_temp_file(gpucompile_job *job, const char *suffix,
    char *buf, size_t size);

/* ==== [section: backend helpers] ==========================================================
   What a backend's implementation calls besides the job functions above: with these it
   compiles in a file of its own (the backend headers, gpucompile_lower.h and
   examples/05_host_backend.h use nothing else of the core; tests/cli_seam.sh checks each).
   Defined by the core's implementation, except the last group (gpucompile_runtime.h). */
/* A growable byte buffer. Zero it and set a (the allocator; NULL: the default). Each add
   appends and keeps data NUL-terminated; a failed allocation sets oom, after which adds do
   nothing. data belongs to whoever zeroed the buffer: gpucompile_free(b.a, b.data). */
typedef struct gpucompile_buf {
    char *data;
    size_t len, cap;
    int oom;
    const gpucompile_allocator *a;
} gpucompile_buf;
GPUCOMPILE_API void gpucompile_buf_add(gpucompile_buf *b, const void *p, size_t n);
GPUCOMPILE_API void gpucompile_buf_str(gpucompile_buf *b, const char *s);
GPUCOMPILE_API void gpucompile_buf_printf(gpucompile_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 2, 3)))
#endif
    ;
/* Appends a, a NUL-terminated string, as one word that a POSIX shell reads back as a: as it is
   when plain, else in single quotes (how repro.sh writes a tool's command line). */
GPUCOMPILE_API void gpucompile_buf_shell_quote(gpucompile_buf *b, const char *a);
/* size bytes (0 counts as 1) from a (NULL: the default allocator), or NULL; the caller frees
   them with gpucompile_free(a, .). */
GPUCOMPILE_API void *gpucompile_alloc(const gpucompile_allocator *a, size_t size);
/* Logs an error of result r on job (gpucompile_job_log, origin "gpucompile") and returns r:
   how a backend fails a compile. */
GPUCOMPILE_API gpucompile_result gpucompile_job_fail(gpucompile_job *job, gpucompile_result r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 3, 4)))
#endif
    ;
/* Code generation of bitcode (the module written before any code generation: that changes the
   module it runs on) in a context and target machine of its own: type's file in *out. Again,
   with the heap laid out otherwise, up to tries times in all while wrong (NULL: none) says what
   is wrong with what it made: for a code generator whose output depends on where the heap puts
   things (gpucompile_backend.emitted_wrong). GPUCOMPILE_ERROR_LLVM, logged, when no try is taken. */
GPUCOMPILE_API gpucompile_result gpucompile_job_emit_copy(gpucompile_job *job, LLVMMemoryBufferRef bitcode, LLVMCodeGenFileType type,
                                                          const char *(*wrong)(const void *data, size_t size), int tries, LLVMMemoryBufferRef *out);
/* Fills path, a file from gpucompile_job_temp_file, in place, so that it keeps its 0600 mode
   (and stays the job's, removed when the job ends); a failure is logged (GPUCOMPILE_ERROR_IO). */
GPUCOMPILE_API gpucompile_result gpucompile_job_write_temp(gpucompile_job *job, const char *path, const void *data, size_t size);
/* A program as gpucompile_job_run_tool would find it: a name with a directory as it is, else
   the first match on PATH. 1 with its path in out (size bytes), 0 when not found. */
GPUCOMPILE_API int gpucompile_which(const char *name, char *out, size_t size);
/* MLIR's lexical rules, as mlir-opt reads them: what a backend's parse_text reads its text with
   (the core reads the target and gpu.binary texts with the same). Between tokens: space, tab,
   LF, CR and // comments to the end of the line. gpucompile_lex_init sets a lexer over the n
   bytes at text, a part of a target text that starts at column (parse_text's column), so that
   messages say "column N: ..." of the whole text; positions (pos, at) count from text. Only the
   first error is logged (GPUCOMPILE_ERROR_PARSE, stage target), with what is found there when
   it cannot be seen (the end of the text, a byte that is not printable); result then says so.
   Every function below skips white space first, and returns 0 (or -1) without moving past what
   it did not read. */
typedef struct gpucompile_lexer {
    const char *s;
    size_t n, pos;             /* the text's length, the cursor */
    size_t column;             /* where the text starts in the whole target text */
    const gpucompile_logger *logger;
    gpucompile_stage stage;    /* GPUCOMPILE_STAGE_TARGET: positions as columns, else as LINE:COLUMN */
    gpucompile_result result;  /* GPUCOMPILE_ERROR_PARSE after the first error */
    const gpucompile_allocator *a; /* for what a reader on it keeps (NULL: the default) */
} gpucompile_lexer;
GPUCOMPILE_API void gpucompile_lex_init(gpucompile_lexer *lx, const char *text, size_t n, size_t column, const gpucompile_logger *logger);
/* Logs "column N: what" for the byte at (the first error only); returns 0. */
GPUCOMPILE_API int gpucompile_lex_error(gpucompile_lexer *lx, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 3, 4)))
#endif
    ;
/* The byte at the cursor after white space and comments; -1 at the end. */
GPUCOMPILE_API int gpucompile_lex_ws(gpucompile_lexer *lx);
/* eat: 1 and past c when c is next, else 0. expect: the same, else the error "expected 'c'"
   followed by where (NULL: nothing), e.g. "between dictionary entries". */
GPUCOMPILE_API int gpucompile_lex_eat(gpucompile_lexer *lx, int c);
GPUCOMPILE_API int gpucompile_lex_expect(gpucompile_lexer *lx, int c, const char *where);
/* A bare word [A-Za-z_][A-Za-z0-9_$.]* (also taking the characters of also, NULL: none): its
   length, the cursor past it and *word (may be NULL) at it; 0 when none (*word at the cursor). */
GPUCOMPILE_API size_t gpucompile_lex_word(gpucompile_lexer *lx, const char **word, const char *also);
/* An integer in [lo, hi] into *v: decimal or 0x hex, optionally negative ('-' right before it),
   of at most 40 bits. The errors name what: "expected an integer for WHAT", "integer too large
   for WHAT", "integer out of range for WHAT". */
GPUCOMPILE_API int gpucompile_lex_int(gpucompile_lexer *lx, long long lo, long long hi, long long *v, const char *what);
/* A string literal: "..." with the escapes \" \\ \n \t and \XX (two hex digits); a raw LF, VT
   or FF inside is an error. Its bytes are appended to out (NULL: only skipped). no_nul: a NUL
   byte, raw or \00, is an error (for a C string). */
GPUCOMPILE_API int gpucompile_lex_string(gpucompile_lexer *lx, gpucompile_buf *out, int no_nul);
/* An LLVM target that an LLVM may be built without (a program must link all the same), its
   name the one LLVM gives it ("SPIRV" for LLVMInitializeSPIRVTargetInfo, ...Target, ...TargetMC
   and ...AsmPrinter): available looks its initialisers up at run time, once per process (and
   takes the lock): 1 when it has all four. initialize runs them, for a backend's initialize
   (which the core calls under its lock, and so does not lock): 1, or 0 when available has not
   found them. */
GPUCOMPILE_API int gpucompile_llvm_target_available(const char *name);
GPUCOMPILE_API int gpucompile_llvm_target_initialize(const char *name);
/* An LLVM value's name (LLVM's string, valid while the value is; "" when it has none). */
GPUCOMPILE_API const char *gpucompile_value_name(LLVMValueRef v);
/* Where a refusal points: "function 'f': `instruction`" (its text cut at 300 characters; "?" for
   the function of a value that is not an instruction) into buf, size bytes; returns buf. */
GPUCOMPILE_API const char *gpucompile_instruction_where(LLVMValueRef in, char *buf, size_t size);
/* The instruction after in, in module order (each function's blocks, in turn); with in NULL the
   module's first; NULL after the last: `for (in = gpucompile_next_instruction(m, NULL); in; in =
   gpucompile_next_instruction(m, in))`. A walk that erases in takes the next one first. */
GPUCOMPILE_API LLVMValueRef gpucompile_next_instruction(LLVMModuleRef module, LLVMValueRef in);
/* Appends a kernel named by the len bytes at name (copied, with o's allocator) to o, its
   metadata fields -1 (unknown). gpucompile_object_add_kernel is the same for a C string. */
GPUCOMPILE_API gpucompile_result gpucompile_object_add_kernel_n(gpucompile_object *o, const char *name, size_t len);
/* qsort's comparison of two gpucompile_kernel by name: the order objects keep their kernels
   in (MLIR's kernel table). */
GPUCOMPILE_API int gpucompile_kernel_cmp(const void *a, const void *b);
/* A section of an ELF64 little-endian file (a cubin, an AMDGPU object), as
   gpucompile_elf_read_section reads it: the fields of its header, its name, its contents. */
typedef struct gpucompile_elf_section {
    const char *name;          /* from the section-name table (a C string there; "" if outside it) */
    const unsigned char *data; /* the contents, size bytes in the file; NULL for SHT_NOBITS */
    uint32_t type, link, info;
    uint64_t flags, addr, offset, size, align, entsize;
    size_t header; /* where the section's header is in the file (to patch a copy) */
} gpucompile_elf_section;
/* The number of sections of the ELF64 little-endian file at elf (size bytes): at least 1, their
   headers (64 bytes each) in the file and the section-name table in it, NUL-terminated. 0 when
   not, and *why (why may be NULL) says which: "not an ELF64 little-endian file", "bad section
   headers" or "bad section name table". */
GPUCOMPILE_API unsigned gpucompile_elf_sections(const void *elf, size_t size, const char **why);
/* Fills *s with section i of that file: NULL, or why the section cannot be used (s is filled
   all the same, as far as it can be): "no such section" (also a file gpucompile_elf_sections
   refuses: its why), "a section outside the file" (its contents; SHT_NOBITS has none, and its
   data is NULL) or "bad section name" (its name then ""). */
GPUCOMPILE_API const char *gpucompile_elf_read_section(const void *elf, size_t size, unsigned i, gpucompile_elf_section *s);
/* 1 when path exists and is a regular file (what 'f'), a directory ('d'), or a regular file this
   process may run ('x'). */
GPUCOMPILE_API int gpucompile_file_exists(const char *path, char what);
/* A directory's entries, "." and ".." among them: open (NULL when it cannot be read), next
   (NULL at the end; the name is valid until the next call), close. */
typedef struct gpucompile_dir gpucompile_dir;
GPUCOMPILE_API gpucompile_dir *gpucompile_dir_open(const char *path);
GPUCOMPILE_API const char *gpucompile_dir_next(gpucompile_dir *d);
GPUCOMPILE_API void gpucompile_dir_close(gpucompile_dir *d);
/* From gpucompile_runtime.h's [section: shared], which also the vendor runtimes use (no LLVM):
   static functions compiled into each file that holds an implementation (the core's, a
   backend's with GPUCOMPILE_BACKEND_IMPLEMENTATION, a runtime's):
       gpucompile_lock(), gpucompile_unlock()   that file's lock, for lazily opened state
                                                (not recursive; call nothing of the core in it)
       gpucompile_dlopen(path), gpucompile_dlsym(lib, name), gpucompile_dlfn(lib, name, &fnptr), gpucompile_dlclose(lib)
                                                shared libraries opened at run time
       gpucompile_read_le(p, bytes)             a little-endian unsigned integer of 1 to 8
                                                bytes (ELF files, offload binaries)
       gpucompile_in_list(list, name, len)      is name (len bytes) one of the words of the
                                                comma-separated list (a feature list, ...)?
       gpucompile_triple_in(patterns, triple)   is the triple one of the patterns (the form of
                                                gpucompile_backend.triples)? 1 for no triple
       gpucompile_clock_ms()                    milliseconds from an arbitrary start (durations)
   and its macros: GPUCOMPILE_PRIVATE before a helper function (static, unused without a
   warning), GPUCOMPILE_LOCK_DEFINE(mutex, lock, unlock) (a static lock of its own and its two
   functions), GPUCOMPILE_CONSTRUCTOR(fn) { ... } (fn runs at start-up: how a backend registers
   itself), GPUCOMPILE_IMG_NONE / _OBJECT / _BITCODE (LLVM's image kinds of no one vendor),
   GPUCOMPILE_EXE_SUFFIX (what a program's file name ends with: ".exe" on Windows, else ""). */
/* ==== [section: end of backend helpers] =================================================== */
/* Read / write a whole file (write: to a temporary name, then renamed into place). */
/* Inputs are read up to a limit: options.max_input_bytes, CLI --max-input; 0 means this. */
#define GPUCOMPILE_DEFAULT_MAX_INPUT ((uint64_t)1 << 30)
/* A file (or "-": stdin) into memory, NUL-terminated; at most limit bytes (0: the default),
   else GPUCOMPILE_ERROR_TOO_LARGE; a path that is neither a regular file nor a pipe is refused
   (GPUCOMPILE_ERROR_IO, errno EINVAL); a failed allocation ends it: ERROR_OUT_OF_MEMORY. */
GPUCOMPILE_API gpucompile_result gpucompile_read_file_max(const char *path, const gpucompile_allocator *a, uint64_t limit,
                                                          unsigned char **data, size_t *size);
GPUCOMPILE_API gpucompile_result gpucompile_read_file(const char *path, const gpucompile_allocator *a,
    unsigned char **data, size_t *size);
/* Why a read failed, for a message (right after the call: it may read errno). */
GPUCOMPILE_API const char *gpucompile_read_file_error(gpucompile_result r);
GPUCOMPILE_API gpucompile_result gpucompile_write_file(const char *path, const void *data, size_t size);
/* Several files, all or none: each is written to a temporary beside it, and only when every one
   is complete are they renamed into place ("-": stdout, written last). On failure no existing
   file was replaced, nothing is left, *failed (if given) is the index of the path at fault and
   errno says why. */
GPUCOMPILE_API gpucompile_result gpucompile_write_files(int n, const char *const *paths, const void *const *data,
                                                        const size_t *sizes, int *failed);
/* For a signal handler (async-signal-safe): ends the tools and compiler processes gpucompile
   started in this process (their process groups) and removes its temporary files, so that the
   program can _exit at once. Compiles still running then fail. Temporary files are named
   gpucompile-PID-*: those of a process that died without this (SIGKILL) are removed by a
   later process once that PID is gone: by the first compile of each process that writes a
   temporary file or runs a tool, or by gpucompile_sweep_temp_files. */
GPUCOMPILE_API void gpucompile_signal_cleanup(void);
/* Removes $TMPDIR/gpucompile-PID-* of processes that are gone, once per process (one read of
   the directory; later calls do nothing): for a program to call at its start, so that what a
   killed run left goes even when this run's compiles write no temporary file (PTX, nvJitLink
   cubins, hsaco, cache hits). The gpucompile CLI does. */
GPUCOMPILE_API void gpucompile_sweep_temp_files(void);

/* Worker processes (POSIX): compiles of options.workers run there, so that LLVM aborting on
   an input ends a worker and becomes that compile's error (GPUCOMPILE_ERROR_LLVM, with LLVM's
   last "LLVM ERROR:" line), not the end of the caller. gpucompile_workers_create fork()s n
   workers: call it before the program starts any thread. A dead worker is replaced by running
   exe --worker (a gpucompile executable; NULL: not replaced). The same request and reply go to
   options.isolate's process (exe --worker, one compile). GPUCOMPILE_ERROR_UNSUPPORTED where
   there is no fork (Windows: use options.isolate). */
GPUCOMPILE_API gpucompile_result gpucompile_workers_create(int n, const char *exe, gpucompile_workers **out);
GPUCOMPILE_API void gpucompile_workers_free(gpucompile_workers *workers);
/* The worker's side: compiles the requests read from in_fd, answering on out_fd, until end of
   input; returns the exit code for the process. It owns the process: it installs handlers for
   SIGINT, SIGTERM and SIGHUP that end its tools and remove its temporary files. */
GPUCOMPILE_API int gpucompile_worker_serve(int in_fd, int out_fd);
/* The whole of a worker process: gpucompile_worker_serve on its stdin and stdout (stdout then
   goes to stderr, so that what else writes there, LLVM may, cannot break the replies). What
   `exe --worker` must run: a program that registers a backend of its own passes itself as exe
   (to gpucompile_workers_create or options.isolate) and begins its main with
       if (argc == 2 && strcmp(argv[1], "--worker") == 0) return gpucompile_worker_main();
   (tools/gpucompile.c, tests/test_toy.c). */
GPUCOMPILE_API int gpucompile_worker_main(void);
GPUCOMPILE_API void gpucompile_free(const gpucompile_allocator *a, void *ptr);
/* The compile cache in dir (entries and bytes: gpucompile's entries only) and this process's
   lookups so far (hits from the directory and from the remote store, misses; refused: entries
   found without a valid tag for options.cache_secret_file, which counted as misses or were
   found again remotely). */
typedef struct gpucompile_cache_stats { uint64_t entries, bytes, hits, remote_hits, misses, refused; } gpucompile_cache_stats;
GPUCOMPILE_API gpucompile_result gpucompile_cache_stats_get(const char *dir, gpucompile_cache_stats *out);
/* Removes gpucompile's entries from dir, and its records of the tools' and libraries'
   identities (ident-*: what lets a new process's first hit run no tool: a tool's version and
   a library's hash, kept beside the file's path and stat and taken again when the stat
   changes); nothing else there; the remote store is left alone. */
GPUCOMPILE_API gpucompile_result gpucompile_cache_clear(const char *dir);

/* $XDG_CACHE_HOME/gpucompile, else $HOME/.cache/gpucompile (Windows: %LOCALAPPDATA%\gpucompile).
   snprintf-style; 0 when no location is known. */
GPUCOMPILE_API size_t gpucompile_default_cache_dir(char *buf, size_t size);

/* ---- binaries (declarations) ---------------------------------------------------------- */
/* MLIR's gpu.binary: a name, an optional offloading handler and >= 1 objects. Two forms:
   MLIR text (`gpu.binary @name <handler> [#gpu.object<target, "bytes">, ...]`) and LLVM's
   offload binary (one version-1 entry per object, concatenated, as clang-offload-packager
   writes them). */
typedef enum gpucompile_handler_kind {
    GPUCOMPILE_HANDLER_DEFAULT = 0,   /* MLIR's default #gpu.select_object (the first object); not printed */
    GPUCOMPILE_HANDLER_SELECT_INDEX,  /* #gpu.select_object<N : i64> */
    GPUCOMPILE_HANDLER_SELECT_TARGET, /* #gpu.select_object<#target<...>> */
    GPUCOMPILE_HANDLER_RUNTIME        /* #gpucompile.runtime_select: the loader calls gpucompile_binary_select */
} gpucompile_handler_kind;

typedef struct gpucompile_handler {
    gpucompile_handler_kind kind;
    int64_t index;      /* SELECT_INDEX */
    char *target;       /* SELECT_TARGET: target text (owned by the binary) */
} gpucompile_handler;

typedef struct gpucompile_binary {
    char *name;                     /* symbol name, without '@' */
    gpucompile_handler handler;
    gpucompile_object **objects;    /* owned; in target order */
    int num_objects;
    int cap_objects;                /* (capacity of objects) */
    gpucompile_allocator allocator; /* the one that made it */
} gpucompile_binary;

/* An empty binary (verify refuses it until an object is added). */
GPUCOMPILE_API gpucompile_result gpucompile_binary_create(const char *name, const gpucompile_allocator *allocator,
    gpucompile_binary **out);
/* Appends obj; on success the binary owns it (it keeps its own allocator). */
GPUCOMPILE_API gpucompile_result gpucompile_binary_add(gpucompile_binary *binary, gpucompile_object *obj);
/* Moves every object of src to the end of dst and frees src (on success only). */
GPUCOMPILE_API gpucompile_result gpucompile_binary_merge(gpucompile_binary *dst, gpucompile_binary *src);
/* Sets the handler; target (SELECT_TARGET) is copied. */
GPUCOMPILE_API gpucompile_result gpucompile_binary_set_handler(gpucompile_binary *binary, gpucompile_handler_kind kind,
    int64_t index, const char *target);
/* An offloading handler from its text onto binary (NULL: only check it): MLIR's
   #gpu.select_object, #gpu.select_object<N : i64> or #gpu.select_object<#target<...>> (the target
   must parse), or #gpucompile.runtime_select ("runtime" for short). Errors go to the logger.
   GPUCOMPILE_OK, GPUCOMPILE_ERROR_PARSE, or GPUCOMPILE_ERROR_OUT_OF_MEMORY. */
GPUCOMPILE_API gpucompile_result gpucompile_handler_parse(const char *text, gpucompile_binary *binary,
    const gpucompile_logger *logger);
/* Frees the binary, its handler and all its objects. NULL is fine. */
GPUCOMPILE_API void gpucompile_binary_free(gpucompile_binary *binary);

/* MLIR's rules and messages: >= 1 objects, a valid handler, each object's target parses and
   verifies. GPUCOMPILE_OK or GPUCOMPILE_ERROR_INVALID_BINARY. */
GPUCOMPILE_API gpucompile_result gpucompile_binary_verify(const gpucompile_binary *binary, const gpucompile_logger *logger);

/* An object from bytes (hand-made or read back): target text is parsed for kind, triple and
   chip and stored canonically; data is copied (and NUL-terminated). */
GPUCOMPILE_API gpucompile_result gpucompile_object_create(const char *target, gpucompile_format format,
    const void *data, size_t size, const gpucompile_allocator *allocator, gpucompile_object **out);
GPUCOMPILE_API gpucompile_result gpucompile_object_add_kernel(gpucompile_object *obj, const char *name);

/* The thread pool gpucompile_compile_binary runs its targets on, for callers with work of the
   same kind (the CLI's batch): work(pool, i, user) for i = 0 .. count-1 on up to `threads`
   threads at once, the calling thread among them (8 MiB stacks: LLVM recurses). Indexes are
   handed out in order; once a call returns nonzero no new one is (those running finish). A
   thread that cannot start leaves its share to the others. Returns how many were handed out. */
typedef struct gpucompile_parallel gpucompile_parallel;
GPUCOMPILE_API int gpucompile_run_parallel(const gpucompile_allocator *allocator, int count, int threads,
    int (*work)(gpucompile_parallel *pool, int index, void *user), void *user);
/* The pool's own lock, for what the calls share (counters, output); never held during work. */
GPUCOMPILE_API void gpucompile_parallel_lock(gpucompile_parallel *pool);
GPUCOMPILE_API void gpucompile_parallel_unlock(gpucompile_parallel *pool);

/* One input (IR text or bitcode) for num_targets targets: one object per target, in target
   order. jobs > 1 compiles up to that many targets at once, each on its own thread and LLVM
   context; their diagnostics reach the logger afterwards, on the calling thread, in target
   order; hooks and the allocator are called from the worker threads. If any target fails
   the call fails with the first failing target's result and returns nothing. name: the binary's
   name (NULL: "binary"). */
GPUCOMPILE_API gpucompile_result gpucompile_compile_binary(const void *data, size_t size, const char *input_name,
    const gpucompile_target *const *targets, int num_targets, const gpucompile_options *options, int jobs,
    const char *name, gpucompile_binary **out);
/* The same from a caller's module (copied once, then compiled as above). */
GPUCOMPILE_API gpucompile_result gpucompile_compile_binary_module(LLVMModuleRef module,
    const gpucompile_target *const *targets, int num_targets, const gpucompile_options *options, int jobs,
    const char *name, gpucompile_binary **out);

/* Text form: MLIR's gpu.binary op with #gpu.object attributes. print is snprintf-style (returns
   the length needed). The text is for mlir-opt of the same LLVM major, so every target is
   written in MLIR's spelling: #gpu.nvptx / #gpu.amdgpu / #gpu.spirv become #nvvm.target /
   #rocdl.target / #xevm.target with the same meaning (gpucompile's own defaults that differ from
   the upstream ones spelled out: MLIR 22's #nvvm.target<features = "+ptx60">, #rocdl.target<abi =
   "500">; a #gpu.spirv with features, which #xevm.target lacks, stays as it is), the offload
   binary's gpucompile.target likewise; gpucompile's own spellings remain input (and --print-target's
   echo). The format keyword is then MLIR's: left out for a fatbin only (MLIR reads no keyword as
   one; an object of gpucompile's own spelling read back without a keyword is a bin). The name is printed bare
   when MLIR reads it so ([A-Za-z_][A-Za-z0-9_$.]*), else quoted (@"saxpy-v2"). Each object:
       #gpu.object<TARGET, properties = {O = 3 : i32, ...}, kernels = <[#gpu.kernel_metadata<"k",
           !llvm.func<void (f32, ptr<1>)>, metadata = {sgpr_count = 10 : i64, ...}>]>, bin = "...">
   properties as gpucompile_object.properties holds them; the kernel table as MLIR 20+ writes it
   (sorted by name; a kernel of unknown type gets !llvm.func<void (...)>), metadata named as
   MLIR's ROCDL target names it for AMDGPU (sgpr_count, vgpr_count, group_segment_fixed_size,
   private_segment_fixed_size, wavefront_size, max_flat_workgroup_size, kernarg_segment_size),
   and, MLIR having none for NVPTX, by the CUDA driver's attribute names (num_regs,
   shared_size_bytes, local_size_bytes, max_threads_per_block); other metadata entries are kept in
   gpucompile_kernel.metadata (an hsaco's also get the rest of what MLIR's ROCDL target reads from
   the note: agpr_count, the spill counts, reqd_workgroup_size, workgroup_size_hint). Built with LLVM 19, whose MLIR has no kernel table, kernel names go
   in the properties instead: properties = {kernels = ["k"]}; both forms are read everywhere.
   The parser reads mlir-opt's output as it is: gpu.binary ops inside modules (nested too),
   other operations (func.func, llvm.func, gpu.module, ...) skipped; it verifies each binary as
   MLIR's parser does (errors name line:column). parse gives one binary: several in the text are
   merged in text order (the first's name and handler); parse_all gives each: *out is an array
   of *num binaries, freed with gpucompile_binary_free each and gpucompile_free(allocator, *out).
   An object without kernels gets them from its bytes (gpucompile_object_find_kernels), and is
   printed without a table, as mlir-opt prints it (gpucompile_object.kernel_table). Every form of
   MLIR's table is read: <[...]>, #gpu.kernel_table<[...]>, elements with or without their
   #gpu.kernel_metadata, function types as given ((i32, f32) -> () or !llvm.func<...>), arg_attrs,
   and the empty table <> (printed back as <>); the name is followed by two spaces when there is
   no handler, as mlir-opt 19 and 22 print it. */
GPUCOMPILE_API size_t gpucompile_binary_print(const gpucompile_binary *binary, char *buf, size_t size);
GPUCOMPILE_API gpucompile_result gpucompile_binary_parse(const char *text, size_t len, const gpucompile_allocator *allocator,
    const gpucompile_logger *logger, gpucompile_binary **out);
GPUCOMPILE_API gpucompile_result gpucompile_binary_parse_all(const char *text, size_t len, const gpucompile_allocator *allocator,
    const gpucompile_logger *logger, gpucompile_binary ***out, int *num);

/* LLVM offload binary form (version 1, LLVM 19). Strings per entry: triple, arch,
   gpucompile.target, gpucompile.format, gpucompile.binary (the name), gpucompile.handler,
   gpucompile.kernels (newline-separated names), gpucompile.kernel_table (MLIR's kernel table
   text, <[...]>) and gpucompile.properties (the object's) when there are any. Image and offload
   kinds: the backend's (gpucompile_backend.image_kind_*, offload_kind; bitcode for llvm): cubin,
   fatbinary, PTX and CUDA for NVPTX; object (hsaco) or none (AMDGPU assembly) and HIP for AMDGPU
   (2 and 3 up to LLVM 20, 2 and 4 from 21, as the LLVM in use numbers them); SPIR-V and SYCL for
   SPIR-V. The reader is bounds-checked (GPUCOMPILE_ERROR_INVALID_BINARY) and also reads entries
   without our strings (clang's): their triple names the backend (gpucompile_backend.triples). The
   written buffer is allocated with the binary's allocator: free it with gpucompile_free. */
GPUCOMPILE_API gpucompile_result gpucompile_binary_write_offload(const gpucompile_binary *binary,
    unsigned char **data, size_t *size);
GPUCOMPILE_API gpucompile_result gpucompile_binary_read_offload(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary **out);
/* Reads either form (offload binary by its magic, else text); name: used when the offload
   binary has no name of its own. */
GPUCOMPILE_API gpucompile_result gpucompile_binary_read(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary **out);
/* Every binary of either form, unmerged: an offload binary is one, MLIR text may hold several.
   *out is an array of *num, as gpucompile_binary_parse_all gives it. */
GPUCOMPILE_API gpucompile_result gpucompile_binary_read_all(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary ***out, int *num);

/* Runtime selection: each object's backend scores it for the device (its select_score; an
   object of another backend's triple scores nothing), the best wins; else
   GPUCOMPILE_ERROR_NO_OBJECT, with a message listing what the binary holds. Which objects a
   device takes and which it prefers is each backend's rule, written once, in its header's
   selection section (compiled into its runtime too):
   gpucompile_nvptx.h [section: the CUDA driver and selection],
   gpucompile_amdgpu.h and gpucompile_spirv.h [section: selection],
   gpucompile_vulkan.h [section: selection and reflection]. */
typedef struct gpucompile_device {
    const char *arch;           /* "sm_90", "90", "gfx90a:xnack+" ...; NULL: compute_capability */
    int compute_capability;     /* NVIDIA, when arch is NULL: 90 for 9.0 */
} gpucompile_device;

GPUCOMPILE_API gpucompile_result gpucompile_binary_select(const gpucompile_binary *binary, const gpucompile_device *device,
    const gpucompile_logger *logger, int *index);

/* ---- end of binaries (declarations) ---------------------------------------------------- */

/* ---- host embedding (declarations) ----------------------------------------------------- */
/* MLIR's offloading handler (#gpu.select_object, and our run-time selection) for an
   LLVMModuleRef the caller owns: the binary goes in as an internal constant `<name>_bin_cst`
   (align 8; PTX gets a NUL appended; in the object's "section" property's section when it has
   one, as MLIR places it), is loaded once, lazily, by the first launch (two threads
   launching first at the same time load it once: an atomic state word, the others wait) and
   unloaded at exit by a global destructor (llvm.global_dtors). Each kernel K gets
       void <name>_K_launch(intptr_t gridX, intptr_t gridY, intptr_t gridZ, intptr_t blockX,
                            intptr_t blockY, intptr_t blockZ, int32_t sharedMemBytes,
                            void *stream, void **args);
   args is cuLaunchKernel's array of pointers to the arguments; mgpuLaunchKernel gets K's
   parameter count (0 where the object does not know it, e.g. read back); stream NULL launches
   synchronously (create a stream, launch, synchronize, destroy, as MLIR does). The code calls
   the mgpu* runtime ABI (MLIR's, declared below): it links with MLIR's runtime wrappers or with
   ours (gpucompile_runtime.h: GPUCOMPILE_NVPTX_RUNTIME / GPUCOMPILE_AMDGPU_RUNTIME).
   Host symbols are C identifiers: in <name> and K every character outside [A-Za-z0-9_] becomes
   '_' and a leading digit gets a '_' before it (binary "saxpy-v2": saxpy_v2_K_launch); kernels
   are still looked up by their real names. Two names that map to one symbol are refused.
   Handlers (binary->handler): DEFAULT and SELECT_INDEX / SELECT_TARGET embed one object's bytes,
   as MLIR does (PTX loads with mgpuModuleLoadJIT(data, the object's O property, else the O of
   its target), others with
   mgpuModuleLoad(data, size)). RUNTIME embeds the whole LLVM offload binary and loads it with
   gpucompile_runtime_load_offload_binary, which picks the object for the device present at run
   time by gpucompile_binary_select's rules: that needs our runtime (gpucompile_runtime.h, no
   LLVM and no compiler in the program); no MLIR runtime offers it. */
typedef struct gpucompile_embed_options {
    int no_launch_functions;    /* 1: only the binary and its loader (launch with gpucompile_emit_launch) */
    gpucompile_logger logger;
} gpucompile_embed_options;

/* Embeds binary (verified first) into host, in host's context. Fails without changing host when
   the handler selects no object or a name is already taken. */
GPUCOMPILE_API gpucompile_result gpucompile_embed_binary(LLVMModuleRef host, const gpucompile_binary *binary,
    const gpucompile_embed_options *options);

/* Emits a launch of kernel of an embedded binary at builder's position (in host): the cached
   function (loading the binary the first time), then mgpuLaunchKernel(function, grid, block,
   shared_bytes, stream, args, NULL, num_params). grid and block: six integers of one type (i32,
   i64 or the pointer width; mixed types are refused), zero-extended to intptr_t (truncated on a
   32-bit host; MLIR 19 emits invalid IR for i32 sizes on a 64-bit one). shared_bytes: i32 or
   NULL (0). stream: a pointer or NULL for a synchronous launch (a stream created, synchronized and
   destroyed around it). args: a pointer to the array of argument pointers (NULL: none). */
GPUCOMPILE_API gpucompile_result gpucompile_emit_launch(LLVMBuilderRef builder, LLVMModuleRef host,
    const char *binary_name, const char *kernel, const LLVMValueRef grid[3], const LLVMValueRef block[3],
    LLVMValueRef shared_bytes, LLVMValueRef stream, LLVMValueRef args, int num_params, const gpucompile_logger *logger);

/* A host module in context: triple (NULL: LLVM's default, the machine's) and, where LLVM was
   built with that target, its data layout. Dispose with LLVMDisposeModule. */
GPUCOMPILE_API gpucompile_result gpucompile_host_module_create(LLVMContextRef context, const char *name,
    const char *triple, const gpucompile_logger *logger, LLVMModuleRef *out);

/* The whole step for tools: a host module for triple (NULL: default) with binary embedded,
   verified and written to path as LLVM IR text (nothing is left at path on failure). */
GPUCOMPILE_API gpucompile_result gpucompile_write_host_module(const gpucompile_binary *binary, const char *triple,
    const char *path, const gpucompile_embed_options *options);
/* The same module as LLVM IR text in memory (*text NUL-terminated, freed with gpucompile_free(NULL, .)). */
GPUCOMPILE_API gpucompile_result gpucompile_print_host_module(const gpucompile_binary *binary, const char *triple,
    const gpucompile_embed_options *options, char **text, size_t *size);

/* The runtime ABI (mgpu*) and our runtime's additions (gpucompile_runtime_*): gpucompile_runtime.h. */

/* ---- end of host embedding (declarations) ---------------------------------------------- */

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_H */


/* ======================================================================================== */
#if defined(GPUCOMPILE_IMPLEMENTATION) && !defined(GPUCOMPILE_IMPLEMENTED)
#define GPUCOMPILE_IMPLEMENTED
#include "gpucompile_runtime.h" /* its shared section: lock, libraries, start-up functions, offload entries */
#define GPUCOMPILE__PRIVATE GPUCOMPILE_PRIVATE /* the core's spelling of it */

#if defined(GPUCOMPILE_MALLOC) || defined(GPUCOMPILE_REALLOC) || defined(GPUCOMPILE_FREE)
#if !defined(GPUCOMPILE_MALLOC) || !defined(GPUCOMPILE_REALLOC) || !defined(GPUCOMPILE_FREE)
#error "gpucompile: define all of GPUCOMPILE_MALLOC, GPUCOMPILE_REALLOC and GPUCOMPILE_FREE, or none"
#endif
#else
#define GPUCOMPILE_MALLOC(sz, u) ((void)(u), malloc(sz))
#define GPUCOMPILE_REALLOC(p, sz, u) ((void)(u), realloc((p), (sz)))
#define GPUCOMPILE_FREE(p, u) ((void)(u), free(p))
#endif

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h> /* getenv, qsort, bsearch (and malloc when no allocator macros are given) */
#include <string.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Comdat.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>
/* Every C API function gpucompile calls exists with the same signature from LLVM 19 to 22
   (LLVMGetVersion since 16, LLVMSetFastMathFlags since 18, LLVMRunPasses since 13). What
   changes with the version is data, each behind #if LLVM_VERSION_MAJOR where it is kept (in
   the backends: chip tables, ISA versions, defaults that follow MLIR). An LLVM outside
   that range would compile with tables that may name chips it aborts on: refused here rather
   than guessed. */
#if LLVM_VERSION_MAJOR < 19
#error "gpucompile needs LLVM 19 or newer (llvm-config --version)"
#elif LLVM_VERSION_MAJOR > 22 && !defined(GPUCOMPILE_UNTESTED_LLVM)
#error "gpucompile knows LLVM 19 to 22: its chip tables for a newer LLVM are unknown (define GPUCOMPILE_UNTESTED_LLVM to use 22's)"
#endif

#include <errno.h>
#include <sys/stat.h>
/* ==== [section: platform headers] ======================================================== */
/* The system headers behind [section: platform], which alone calls them. */
#if defined(_WIN32)
#include <windows.h>
#include <process.h>
#include <io.h>
#include <fcntl.h>
#include <sys/utime.h>
#include <direct.h>
#else
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
#include <dirent.h>
#include <utime.h>
#include <sys/time.h>
#include <sys/socket.h>
#if !defined(MSG_NOSIGNAL)
#define MSG_NOSIGNAL 0 /* (macOS: SO_NOSIGPIPE is set on the socket instead) */
#endif
extern char **environ;
#endif
/* ==== [section: end of platform headers] ================================================= */

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [section: core utilities] ========================================================== */
/* The text of value i of an X-macro list's texts (n of them), else unknown: never NULL. */
#define GPUCOMPILE__TEXT(name, text) text,
GPUCOMPILE__PRIVATE const char *gpucompile__text(const char *const *texts, unsigned n, unsigned i, const char *unknown) {
    return i < n ? texts[i] : unknown;
}

GPUCOMPILE_DEF const char *gpucompile_result_string(gpucompile_result r) {
    static const char *const texts[] = {GPUCOMPILE_RESULTS(GPUCOMPILE__TEXT)};
    return gpucompile__text(texts, GPUCOMPILE_RESULT_COUNT, (unsigned)r, "unknown result");
}

GPUCOMPILE_DEF const char *gpucompile_stage_string(gpucompile_stage s) {
    static const char *const texts[] = {GPUCOMPILE_STAGES(GPUCOMPILE__TEXT)};
    return gpucompile__text(texts, GPUCOMPILE_STAGE_COUNT, (unsigned)s, "unknown stage");
}

GPUCOMPILE_DEF const char *gpucompile_severity_string(gpucompile_severity s) {
    switch (s) {
    case GPUCOMPILE_SEVERITY_ERROR: return "error";
    case GPUCOMPILE_SEVERITY_WARNING: return "warning";
    case GPUCOMPILE_SEVERITY_REMARK: return "remark";
    default: return "note";
    }
}

GPUCOMPILE_DEF void *gpucompile_alloc(const gpucompile_allocator *a, size_t size) {
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

/* Clears memory that held a secret (a password, a key); through a volatile pointer, so that
   the compiler cannot drop the stores as dead. */
GPUCOMPILE__PRIVATE void gpucompile__wipe(void *p, size_t n) {
    volatile unsigned char *v = (volatile unsigned char *)p;
    while (p && n--) *v++ = 0;
}

GPUCOMPILE__PRIVATE char *gpucompile__strndup(const gpucompile_allocator *a, const char *s, size_t n) {
    char *r = (char *)gpucompile_alloc(a, n + 1);
    if (!r) return NULL;
    if (n) memcpy(r, s, n);
    r[n] = 0;
    return r;
}

GPUCOMPILE__PRIVATE char *gpucompile__strdup(const gpucompile_allocator *a, const char *s) {
    return s ? gpucompile__strndup(a, s, strlen(s)) : NULL;
}

GPUCOMPILE_DEF void gpucompile_buf_add(gpucompile_buf *b, const void *p, size_t n) {
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

GPUCOMPILE_DEF void gpucompile_buf_str(gpucompile_buf *b, const char *s) { gpucompile_buf_add(b, s, strlen(s)); }

GPUCOMPILE_DEF void gpucompile_buf_printf(gpucompile_buf *b, const char *fmt, ...) {
    char small[512];
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof small) { gpucompile_buf_add(b, small, (size_t)n); return; }
    gpucompile_buf_add(b, NULL, 0);
    {
        char *big = (char *)gpucompile_alloc(b->a, (size_t)n + 1);
        if (!big) { b->oom = 1; return; }
        va_start(ap, fmt);
        vsnprintf(big, (size_t)n + 1, fmt, ap);
        va_end(ap);
        gpucompile_buf_add(b, big, (size_t)n);
        gpucompile_free(b->a, big);
    }
}

/* Bare when every character is one a shell leaves alone; else in '...', each ' as '\'' (the one
   character a quoted word cannot hold). */
GPUCOMPILE_DEF void gpucompile_buf_shell_quote(gpucompile_buf *b, const char *a) {
    const char *p;
    if (*a && strspn(a, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-./=:,+@%") == strlen(a)) {
        gpucompile_buf_str(b, a);
        return;
    }
    gpucompile_buf_str(b, "'");
    for (p = a; *p; p++) {
        if (*p == '\'') gpucompile_buf_str(b, "'\\''");
        else gpucompile_buf_add(b, p, 1);
    }
    gpucompile_buf_str(b, "'");
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

/* Logs fmt's message and returns res: the one log-and-return helper where there is no job
   (gpucompile_job_fail is the job's). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__logf(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                                       gpucompile_stage stage, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 5, 6)))
#endif
    ;
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__vlogf(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                                        gpucompile_stage stage, const char *fmt, va_list ap) {
    char msg[4096];
    if (!l || !l->func) return res;
    vsnprintf(msg, sizeof msg, fmt, ap);
    gpucompile__log(l, sev, res, stage, "gpucompile", msg);
    return res;
}
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__logf(const gpucompile_logger *l, gpucompile_severity sev, gpucompile_result res,
                                                       gpucompile_stage stage, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    gpucompile__vlogf(l, sev, res, stage, fmt, ap);
    va_end(ap);
    return res;
}

GPUCOMPILE_DEF const char *gpucompile_value_name(LLVMValueRef v) {
    size_t n;
    return LLVMGetValueName2(v, &n);
}

GPUCOMPILE_DEF const char *gpucompile_instruction_where(LLVMValueRef in, char *buf, size_t size) {
    LLVMValueRef fn = LLVMIsAInstruction(in) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(in)) : NULL;
    char *text = LLVMPrintValueToString(in);
    const char *t = text ? text : "";
    while (*t == ' ') t++;
    snprintf(buf, size, "function '%s': `%.300s`", fn ? gpucompile_value_name(fn) : "?", t);
    if (text) LLVMDisposeMessage(text);
    return buf;
}

GPUCOMPILE_DEF LLVMValueRef gpucompile_next_instruction(LLVMModuleRef module, LLVMValueRef in) {
    LLVMValueRef fn, next;
    LLVMBasicBlockRef bb;
    if (in) {
        if ((next = LLVMGetNextInstruction(in)) != NULL) return next;
        bb = LLVMGetInstructionParent(in);
        fn = LLVMGetBasicBlockParent(bb);
        bb = LLVMGetNextBasicBlock(bb);
    } else {
        fn = LLVMGetFirstFunction(module);
        bb = fn ? LLVMGetFirstBasicBlock(fn) : NULL; /* NULL for a declaration */
    }
    while (fn) {
        for (; bb; bb = LLVMGetNextBasicBlock(bb))
            if ((next = LLVMGetFirstInstruction(bb)) != NULL) return next;
        if ((fn = LLVMGetNextFunction(fn)) != NULL) bb = LLVMGetFirstBasicBlock(fn);
    }
    return NULL;
}

GPUCOMPILE__PRIVATE int gpucompile__starts_with(const char *s, const char *prefix) {
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Diagnostics as records (a parallel compile's replay, a worker's reply): header, origin\0,
   message\0. */
typedef struct gpucompile__diag_rec { int severity, result, stage; } gpucompile__diag_rec;

GPUCOMPILE__PRIVATE void gpucompile__record(const gpucompile_diagnostic *d, gpucompile_buf *log) {
    gpucompile__diag_rec h;
    h.severity = (int)d->severity;
    h.result = (int)d->result;
    h.stage = (int)d->stage;
    gpucompile_buf_add(log, &h, sizeof h);
    gpucompile_buf_add(log, d->origin, strlen(d->origin) + 1);
    gpucompile_buf_add(log, d->message, strlen(d->message) + 1);
}

GPUCOMPILE__PRIVATE void gpucompile__replay(const char *data, size_t len, const gpucompile_logger *l) {
    size_t at = 0;
    while (at + sizeof(gpucompile__diag_rec) < len) {
        gpucompile__diag_rec h;
        const char *origin = data + at + sizeof h, *msg, *end = data + len;
        memcpy(&h, data + at, sizeof h);
        msg = (const char *)memchr(origin, 0, (size_t)(end - origin));
        if (!msg) return; /* torn: stop */
        msg++;
        if (!memchr(msg, 0, (size_t)(end - msg))) return;
        at = (size_t)(msg + strlen(msg) + 1 - data);
        gpucompile__log(l, (gpucompile_severity)h.severity, (gpucompile_result)h.result, (gpucompile_stage)h.stage, origin, msg);
    }
}

/* ==== [section: platform] ================================================================ */
/* One small part per concern, each with one portable signature: a clock, files, temp files,
   running a tool, directories, threads, worker processes, the remote cache's sockets (the
   global lock and shared libraries: gpucompile_runtime.h's [section: shared]).
   The only place of the implementation that asks for _WIN32 (tests/cli_seam.sh). */
#if defined(_WIN32)
GPUCOMPILE__PRIVATE double gpucompile__now_ms(void) {
    LARGE_INTEGER f, c;
    QueryPerformanceFrequency(&f);
    QueryPerformanceCounter(&c);
    return (double)c.QuadPart * 1000.0 / (double)f.QuadPart;
}
GPUCOMPILE__PRIVATE unsigned long gpucompile__pid(void) { return (unsigned long)GetCurrentProcessId(); }
#else
GPUCOMPILE__PRIVATE double gpucompile__now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}
GPUCOMPILE__PRIVATE unsigned long gpucompile__pid(void) { return (unsigned long)getpid(); }
#endif

/* Reads at most limit bytes (0: the default); a named path must be a regular file or a pipe
   (regular_only: a regular file, no symlink), so that /dev/zero fails at once. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__read(const char *path, const gpucompile_allocator *a, uint64_t limit,
                                                       int regular_only, unsigned char **data, size_t *size) {
    FILE *f;
    gpucompile_buf b;
    char chunk[65536];
    size_t n;
    int fd, bad = 0;
    struct stat st;
    *data = NULL;
    *size = 0;
    if (!path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!limit) limit = GPUCOMPILE_DEFAULT_MAX_INPUT;
    f = (strcmp(path, "-") == 0) ? stdin : fopen(path, "rb");
    if (!f) return GPUCOMPILE_ERROR_IO;
    memset(&b, 0, sizeof b);
    b.a = a;
    fd = fileno(f);
#if defined(_WIN32)
    (void)regular_only; /* a named path must be a regular file there anyway */
    if (fstat(fd, &st) == 0 && f != stdin && (st.st_mode & S_IFMT) != S_IFREG) bad = 1;
#else
    if (regular_only) bad = lstat(path, &st) != 0 || !S_ISREG(st.st_mode);
    if (!bad && fstat(fd, &st) == 0 && f != stdin && !S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) bad = 1;
#endif
    if (bad) {
        if (f != stdin) fclose(f);
        errno = EINVAL;
        return GPUCOMPILE_ERROR_IO;
    }
    if ((st.st_mode & S_IFMT) == S_IFREG && (uint64_t)st.st_size > limit) {
        if (f != stdin) fclose(f);
        return GPUCOMPILE_ERROR_TOO_LARGE;
    }
    /* a regular file's size is known: one allocation, not a doubling series */
    if ((st.st_mode & S_IFMT) == S_IFREG && st.st_size > 0 && (uint64_t)st.st_size < (uint64_t)(size_t)-1 / 2) {
        b.data = (char *)gpucompile_alloc(a, (size_t)st.st_size + 1);
        if (b.data) b.cap = (size_t)st.st_size + 1;
        else b.oom = 1;
    }
    while (!b.oom && (uint64_t)b.len <= limit && (n = fread(chunk, 1, sizeof chunk, f)) > 0) gpucompile_buf_add(&b, chunk, n);
    gpucompile_buf_add(&b, NULL, 0);
    if (ferror(f) || b.oom || (uint64_t)b.len > limit) {
        gpucompile_result r = b.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : b.len > limit ? GPUCOMPILE_ERROR_TOO_LARGE : GPUCOMPILE_ERROR_IO;
        if (f != stdin) fclose(f);
        gpucompile_free(a, b.data);
        return r;
    }
    if (f != stdin) fclose(f);
    *data = (unsigned char *)b.data;
    *size = b.len;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_read_file_max(const char *path, const gpucompile_allocator *a, uint64_t limit,
                                                          unsigned char **data, size_t *size) {
    if (!data || !size) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile__read(path, a, limit, 0, data, size);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_read_file(const char *path, const gpucompile_allocator *a,
                                                      unsigned char **data, size_t *size) {
    return gpucompile_read_file_max(path, a, 0, data, size);
}

GPUCOMPILE_DEF const char *gpucompile_read_file_error(gpucompile_result r) {
    if (r == GPUCOMPILE_ERROR_TOO_LARGE) return "larger than the read limit (options.max_input_bytes, --max-input)";
    if (r == GPUCOMPILE_ERROR_OUT_OF_MEMORY) return "out of memory";
    if (r == GPUCOMPILE_ERROR_IO && errno == EINVAL) return "not a regular file or a pipe";
    if (r == GPUCOMPILE_ERROR_IO && errno) return strerror(errno);
    return gpucompile_result_string(r);
}

/* What gpucompile_signal_cleanup ends: live temporary files and child processes, in fixed
   tables a signal handler can read without locks (a slot holds a path or 0; a full table only
   means that file is left to the sweep by PID). Children are process-group leaders: kind 1 a
   tool (its group is killed), kind 2 a compiler process (asked to clean up first). */
#define GPUCOMPILE__LIVE_TEMPS 256
#define GPUCOMPILE__LIVE_PIDS 128
static char *volatile gpucompile__live_temps[GPUCOMPILE__LIVE_TEMPS];
static volatile long gpucompile__live_pids[GPUCOMPILE__LIVE_PIDS];
static volatile int gpucompile__live_kinds[GPUCOMPILE__LIVE_PIDS];

GPUCOMPILE__PRIVATE void gpucompile__track_temp(const char *path, int on) {
    int i;
    char *copy = on ? gpucompile__strdup(NULL, path) : NULL, *old = NULL;
    gpucompile_lock();
    for (i = 0; i < GPUCOMPILE__LIVE_TEMPS; i++) {
        char *p = gpucompile__live_temps[i];
        if (on && !p) { gpucompile__live_temps[i] = copy; copy = NULL; break; }
        if (!on && p && strcmp(p, path) == 0) { gpucompile__live_temps[i] = NULL; old = p; break; }
    }
    gpucompile_unlock();
    gpucompile_free(NULL, copy);
    gpucompile_free(NULL, old);
}

GPUCOMPILE__PRIVATE void gpucompile__track_pid(long pid, int kind) {
    int i;
    gpucompile_lock();
    for (i = 0; i < GPUCOMPILE__LIVE_PIDS; i++) {
        if (kind && !gpucompile__live_pids[i]) { gpucompile__live_kinds[i] = kind; gpucompile__live_pids[i] = pid; break; }
        if (!kind && gpucompile__live_pids[i] == pid) { gpucompile__live_pids[i] = 0; break; }
    }
    gpucompile_unlock();
}

/* A forked worker starts with none of its parent's (they are not its own). */
GPUCOMPILE__PRIVATE void gpucompile__track_forget(void) {
    int i;
    for (i = 0; i < GPUCOMPILE__LIVE_TEMPS; i++) gpucompile__live_temps[i] = NULL;
    for (i = 0; i < GPUCOMPILE__LIVE_PIDS; i++) gpucompile__live_pids[i] = 0;
}

GPUCOMPILE_DEF void gpucompile_signal_cleanup(void) {
    int i;
#if !defined(_WIN32)
    int left, tries;
    struct timespec ms10;
    ms10.tv_sec = 0;
    ms10.tv_nsec = 10000000;
    for (i = 0; i < GPUCOMPILE__LIVE_PIDS; i++) {
        long pid = gpucompile__live_pids[i];
        if (pid > 0 && gpucompile__live_kinds[i] == 1) {
            kill(-(pid_t)pid, SIGKILL);
            waitpid((pid_t)pid, NULL, 0); /* no zombie left behind */
        } else if (pid > 0) {
            kill((pid_t)pid, SIGTERM);
        }
    }
    /* compiler processes end their own tools and files: give them up to 2 s */
    for (tries = 0; tries < 200; tries++) {
        for (left = 0, i = 0; i < GPUCOMPILE__LIVE_PIDS; i++) {
            long pid = gpucompile__live_pids[i];
            if (pid > 0 && gpucompile__live_kinds[i] == 2) {
                if (waitpid((pid_t)pid, NULL, WNOHANG) == 0) left++;
                else gpucompile__live_pids[i] = 0;
            }
        }
        if (!left) break;
        nanosleep(&ms10, NULL);
    }
    for (i = 0; i < GPUCOMPILE__LIVE_PIDS; i++)
        if (gpucompile__live_pids[i] > 0 && gpucompile__live_kinds[i] == 2) {
            kill((pid_t)gpucompile__live_pids[i], SIGKILL);
            waitpid((pid_t)gpucompile__live_pids[i], NULL, 0);
        }
#endif
    for (i = 0; i < GPUCOMPILE__LIVE_TEMPS; i++) {
        char *p = gpucompile__live_temps[i];
#if defined(_WIN32)
        if (p) DeleteFileA(p);
#else
        if (p) unlink(p);
#endif
    }
}

/* Creates a new file with a unique name: prefix + PID + "-" + random + suffix, O_EXCL (mode:
   0600 for temporaries, 0666 less the umask for outputs); tracked until gpucompile__untemp. */
GPUCOMPILE__PRIVATE FILE *gpucompile__create_unique(const char *prefix, const char *suffix, char *buf, size_t size, int mode) {
    static unsigned long counter;
    int attempt;
    for (attempt = 0; attempt < 100; attempt++) {
        unsigned long r;
        gpucompile_lock();
        r = ++counter;
        gpucompile_unlock();
        r = r * 2654435761u ^ (unsigned long)(gpucompile__now_ms() * 1000.0);
        if ((size_t)snprintf(buf, size, "%s%lu-%06lx%s", prefix, gpucompile__pid(), r & 0xffffff, suffix ? suffix : "") >= size)
            return NULL;
#if defined(_WIN32)
        {
            HANDLE h = CreateFileA(buf, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
            (void)mode; /* ACLs, not mode bits, on Windows */
            if (h != INVALID_HANDLE_VALUE) {
                int fd = _open_osfhandle((intptr_t)h, _O_BINARY); /* no \n -> \r\n in objects */
                FILE *f = fd >= 0 ? _fdopen(fd, "wb") : NULL;
                if (!f) { if (fd < 0) CloseHandle(h); else _close(fd); DeleteFileA(buf); return NULL; }
                gpucompile__track_temp(buf, 1);
                return f;
            }
            if (GetLastError() != ERROR_FILE_EXISTS) return NULL;
        }
#else
        {
            int fd = open(buf, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, (mode_t)mode);
            if (fd >= 0) {
                FILE *f = fdopen(fd, "wb");
                if (!f) { close(fd); remove(buf); return NULL; }
                gpucompile__track_temp(buf, 1);
                return f;
            }
            if (errno != EEXIST) return NULL;
        }
#endif
    }
    return NULL;
}

/* Removes a tracked temporary (keep: it was renamed into place), errno kept. */
GPUCOMPILE__PRIVATE void gpucompile__untemp(const char *path, int keep) {
    int e = errno;
    if (!keep) remove(path);
    gpucompile__track_temp(path, 0);
    errno = e;
}

GPUCOMPILE__PRIVATE int gpucompile__rename(const char *from, const char *to) {
#if defined(_WIN32)
    return MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING) ? 0 : (errno = EACCES, -1);
#else
    return rename(from, to);
#endif
}

/* A device, a pipe or a link (/dev/null, /dev/stdout) is written through, never renamed over. */
GPUCOMPILE__PRIVATE int gpucompile__write_through(const char *path) {
#if defined(_WIN32)
    (void)path;
    return 0;
#else
    struct stat st;
    return lstat(path, &st) == 0 && !S_ISREG(st.st_mode);
#endif
}

GPUCOMPILE_DEF gpucompile_result gpucompile_write_files(int n, const char *const *paths, const void *const *data,
                                                        const size_t *sizes, int *failed) {
    char (*tmp)[4096];
    int i, j, at, bad = 0, std = -1;
    if (failed) *failed = -1;
    if (n <= 0) return GPUCOMPILE_OK;
    if (!paths || !data || !sizes) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    tmp = (char (*)[4096])gpucompile_alloc(NULL, (size_t)n * sizeof *tmp);
    if (!tmp) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++) tmp[i][0] = 0;
    for (i = 0; i < n && !bad; i++) {
        char prefix[4096];
        FILE *f;
        if (!paths[i]) continue;
        if (strcmp(paths[i], "-") == 0) { std = i; continue; }
        if (gpucompile__write_through(paths[i])) continue; /* after the renames, below */
        if ((size_t)snprintf(prefix, sizeof prefix, "%s.tmp", paths[i]) >= sizeof prefix - 32) { errno = ENAMETOOLONG; bad = 1; break; }
        if (!(f = gpucompile__create_unique(prefix, NULL, tmp[i], sizeof tmp[i], 0666))) { tmp[i][0] = 0; bad = 1; break; }
        bad = sizes[i] && fwrite(data[i], 1, sizes[i], f) != sizes[i];
        bad |= fclose(f) != 0;
        if (bad) break;
    }
    for (at = i, i = 0; i < n && !bad; i++) /* the renames: only once every file is complete */
        if (tmp[i][0] && gpucompile__rename(tmp[i], paths[i]) != 0) { bad = 1; at = i; }
    for (j = 0; j < n; j++)
        if (tmp[j][0]) gpucompile__untemp(tmp[j], !bad);
    for (i = 0; i < n && !bad; i++) {
        FILE *f;
        if (!paths[i] || i == std || tmp[i][0]) continue;
        if (!(f = fopen(paths[i], "wb"))) { bad = 1; at = i; break; }
        bad = sizes[i] && fwrite(data[i], 1, sizes[i], f) != sizes[i];
        bad |= fclose(f) != 0;
        if (bad) at = i;
    }
    if (!bad && std >= 0 && (fwrite(data[std], 1, sizes[std], stdout) != sizes[std] || fflush(stdout) != 0)) { bad = 1; at = std; }
    if (bad && failed) *failed = at;
    gpucompile_free(NULL, tmp);
    return bad ? GPUCOMPILE_ERROR_IO : GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_write_file(const char *path, const void *data, size_t size) {
    if (!path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile_write_files(1, &path, &data, &size, NULL);
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
GPUCOMPILE__PRIVATE void gpucompile__quote_arg(gpucompile_buf *b, const char *a) {
    const char *p;
    if (*a && !strpbrk(a, " \t\n\v\"")) { gpucompile_buf_str(b, a); return; }
    gpucompile_buf_str(b, "\"");
    for (p = a;; p++) {
        size_t slashes = 0;
        while (*p == '\\') { p++; slashes++; }
        if (!*p) { while (slashes--) gpucompile_buf_str(b, "\\\\"); break; }
        if (*p == '"') { while (slashes--) gpucompile_buf_str(b, "\\\\"); gpucompile_buf_str(b, "\\\""); }
        else { while (slashes--) gpucompile_buf_str(b, "\\"); gpucompile_buf_add(b, p, 1); }
    }
    gpucompile_buf_str(b, "\"");
}

GPUCOMPILE__PRIVATE HANDLE gpucompile__inherit_file(const char *path, int write) {
    SECURITY_ATTRIBUTES sa;
    memset(&sa, 0, sizeof sa);
    sa.nLength = sizeof sa;
    sa.bInheritHandle = TRUE;
    return CreateFileA(path, write ? GENERIC_WRITE : GENERIC_READ, FILE_SHARE_READ, &sa, write ? CREATE_ALWAYS : OPEN_EXISTING,
                       FILE_ATTRIBUTE_NORMAL, NULL);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__spawn(const gpucompile_allocator *a, const char *const *argv, double timeout_s,
                                                        int *status, gpucompile_buf *out, const char *cwd,
                                                        const char *in_path, const char *out_path, int kind) {
    gpucompile_buf cmd;
    wchar_t *wcmd, wcwd[4096];
    HANDLE hin = NULL, hout = NULL;
    int i, n;
    HANDLE rd, wr;
    SECURITY_ATTRIBUTES sa;
    STARTUPINFOW si;
    PROCESS_INFORMATION pi;
    DWORD code = 1, got;
    char chunk[4096];
    double deadline = gpucompile__now_ms() + timeout_s * 1000.0;
    memset(&cmd, 0, sizeof cmd);
    cmd.a = a;
    for (i = 0; argv[i]; i++) {
        if (i) gpucompile_buf_str(&cmd, " ");
        gpucompile__quote_arg(&cmd, argv[i]);
    }
    if (cmd.oom) { gpucompile_free(a, cmd.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    n = MultiByteToWideChar(CP_UTF8, 0, cmd.data, -1, NULL, 0);
    wcmd = (wchar_t *)gpucompile_alloc(a, (size_t)n * sizeof(wchar_t));
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
    (void)kind;
    if (in_path) hin = gpucompile__inherit_file(in_path, 0);
    if (out_path) hout = gpucompile__inherit_file(out_path, 1);
    if (cwd && !MultiByteToWideChar(CP_UTF8, 0, cwd, -1, wcwd, 4096)) cwd = NULL;
    si.hStdOutput = hout && hout != INVALID_HANDLE_VALUE ? hout : wr;
    si.hStdError = wr;
    si.hStdInput = hin && hin != INVALID_HANDLE_VALUE ? hin : NULL;
    if ((in_path && si.hStdInput == NULL) || (out_path && si.hStdOutput == wr) ||
        !CreateProcessW(NULL, wcmd, NULL, NULL, TRUE, CREATE_NO_WINDOW, NULL, cwd ? wcwd : NULL, &si, &pi)) {
        if (hin && hin != INVALID_HANDLE_VALUE) CloseHandle(hin);
        if (hout && hout != INVALID_HANDLE_VALUE) CloseHandle(hout);
        CloseHandle(rd); CloseHandle(wr); gpucompile_free(a, wcmd);
        return GPUCOMPILE_ERROR_TOOL;
    }
    if (hin && hin != INVALID_HANDLE_VALUE) CloseHandle(hin);
    if (hout && hout != INVALID_HANDLE_VALUE) CloseHandle(hout);
    gpucompile_free(a, wcmd);
    CloseHandle(wr);
    for (;;) { /* read what is there, without blocking past the deadline */
        DWORD avail = 0;
        if (!PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL)) break; /* closed: the tool is done */
        if (avail) {
            if (!ReadFile(rd, chunk, avail < sizeof chunk ? avail : (DWORD)sizeof chunk, &got, NULL) || !got) break;
            gpucompile_buf_add(out, chunk, got);
            continue;
        }
        if (gpucompile__now_ms() > deadline) break;
        if (WaitForSingleObject(pi.hProcess, 10) == WAIT_OBJECT_0) {
            while (PeekNamedPipe(rd, NULL, 0, NULL, &avail, NULL) && avail &&
                   ReadFile(rd, chunk, avail < sizeof chunk ? avail : (DWORD)sizeof chunk, &got, NULL) && got)
                gpucompile_buf_add(out, chunk, got);
            break;
        }
    }
    CloseHandle(rd);
    if (WaitForSingleObject(pi.hProcess, gpucompile__now_ms() > deadline ? 0 : (DWORD)(deadline - gpucompile__now_ms())) == WAIT_TIMEOUT) {
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
/* posix_spawn cannot change directory everywhere: where it cannot, a cwd is refused. */
#if (defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 29))) || defined(__APPLE__)
#define GPUCOMPILE__SPAWN_CHDIR(fa, dir) posix_spawn_file_actions_addchdir_np(fa, dir)
#else
#define GPUCOMPILE__SPAWN_CHDIR(fa, dir) ((void)(fa), (void)(dir), -1)
#endif

/* Runs argv (a tool: in its own process group, so that a kill ends it and what it started),
   stdin from in_path (NULL: /dev/null), stdout to out_path (NULL: with stderr into out), in
   cwd (NULL: ours); a process tracked for gpucompile_signal_cleanup (kind 1 tool, 2 compiler). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__spawn(const gpucompile_allocator *a, const char *const *argv, double timeout_s,
                                                        int *status, gpucompile_buf *out, const char *cwd,
                                                        const char *in_path, const char *out_path, int kind) {
    int fds[2], st = 0, timed_out = 0, bad;
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, dfl;
    double deadline = gpucompile__now_ms() + timeout_s * 1000.0;
    (void)a;
    if (pipe(fds) != 0) return GPUCOMPILE_ERROR_TOOL;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    posix_spawn_file_actions_init(&fa);
    posix_spawnattr_init(&attr);
    sigemptyset(&none);
    sigemptyset(&dfl); /* a tool starts with default signal handling, whatever ours is */
    sigaddset(&dfl, SIGINT);
    sigaddset(&dfl, SIGTERM);
    sigaddset(&dfl, SIGHUP);
    sigaddset(&dfl, SIGPIPE);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &dfl);
    posix_spawnattr_setpgroup(&attr, 0); /* a tool only: a compiler process stays in our group, where ^C reaches it */
    posix_spawnattr_setflags(&attr, (kind == 1 ? POSIX_SPAWN_SETPGROUP : 0) | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    bad = posix_spawn_file_actions_addopen(&fa, 0, in_path ? in_path : "/dev/null", O_RDONLY, 0) != 0;
    if (out_path) bad |= posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | O_TRUNC, 0600) != 0;
    else bad |= posix_spawn_file_actions_adddup2(&fa, fds[1], 1) != 0;
    bad |= posix_spawn_file_actions_adddup2(&fa, fds[1], 2) != 0;
    if (cwd) bad |= GPUCOMPILE__SPAWN_CHDIR(&fa, cwd) != 0;
    {   /* tracked before a signal can find it running untracked */
        sigset_t block, old;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigaddset(&block, SIGHUP);
        pthread_sigmask(SIG_BLOCK, &block, &old);
        bad = bad || posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv, environ) != 0;
        if (!bad) gpucompile__track_pid((long)pid, kind);
        pthread_sigmask(SIG_SETMASK, &old, NULL);
    }
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (bad) {
        close(fds[0]);
        close(fds[1]);
        return GPUCOMPILE_ERROR_TOOL;
    }
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
        gpucompile_buf_add(out, chunk, (size_t)n);
    }
    close(fds[0]);
    if (timed_out) kill(-pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    gpucompile__track_pid((long)pid, 0);
    if (timed_out) return GPUCOMPILE_ERROR_TIMEOUT;
    if (WIFEXITED(st)) *status = WEXITSTATUS(st);
    else *status = 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    return GPUCOMPILE_OK;
}
#endif

#include <llvm-c/blake3.h>

GPUCOMPILE__PRIVATE int gpucompile__stat(const char *path, uint64_t *size, int64_t *mtime_ns) {
#if defined(_WIN32)
    WIN32_FILE_ATTRIBUTE_DATA a;
    if (!GetFileAttributesExA(path, GetFileExInfoStandard, &a)) return 0;
    *size = ((uint64_t)a.nFileSizeHigh << 32) | a.nFileSizeLow;
    *mtime_ns = (int64_t)((((uint64_t)a.ftLastWriteTime.dwHighDateTime << 32) | a.ftLastWriteTime.dwLowDateTime) * 100);
#else
    struct stat st;
    if (stat(path, &st) != 0) return 0;
    *size = (uint64_t)st.st_size;
    *mtime_ns = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
#endif
    return 1;
}

/* What identifies a file without reading it: size, mtime, inode, device and ctime (which no
   one sets by hand: a file replaced or rewritten gets a new one). Windows: size, the write and
   creation times, and the volume and file index. */
typedef struct gpucompile__file_stat { uint64_t size, ino, dev; int64_t mtime, ctime; } gpucompile__file_stat;
GPUCOMPILE__PRIVATE int gpucompile__stat_file(const char *path, gpucompile__file_stat *s) {
    memset(s, 0, sizeof *s);
#if defined(_WIN32)
    {
        BY_HANDLE_FILE_INFORMATION i;
        HANDLE h = CreateFileA(path, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                               FILE_FLAG_BACKUP_SEMANTICS, NULL);
        int ok;
        if (h == INVALID_HANDLE_VALUE) return 0;
        ok = GetFileInformationByHandle(h, &i) != 0;
        CloseHandle(h);
        if (!ok) return 0;
        s->size = ((uint64_t)i.nFileSizeHigh << 32) | i.nFileSizeLow;
        s->mtime = (int64_t)(((uint64_t)i.ftLastWriteTime.dwHighDateTime << 32) | i.ftLastWriteTime.dwLowDateTime);
        s->ctime = (int64_t)(((uint64_t)i.ftCreationTime.dwHighDateTime << 32) | i.ftCreationTime.dwLowDateTime);
        s->ino = ((uint64_t)i.nFileIndexHigh << 32) | i.nFileIndexLow;
        s->dev = i.dwVolumeSerialNumber;
    }
#else
    {
        struct stat st;
        if (stat(path, &st) != 0) return 0;
        s->size = (uint64_t)st.st_size;
        s->mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
        s->ctime = (int64_t)st.st_ctim.tv_sec * 1000000000 + st.st_ctim.tv_nsec;
        s->ino = (uint64_t)st.st_ino;
        s->dev = (uint64_t)st.st_dev;
    }
#endif
    return 1;
}

GPUCOMPILE__PRIVATE int gpucompile__mkdir(const char *dir) {
#if defined(_WIN32)
    return _mkdir(dir) == 0 || errno == EEXIST;
#else
    return mkdir(dir, 0777) == 0 || errno == EEXIST;
#endif
}

/* mkdir -p */
GPUCOMPILE__PRIVATE int gpucompile__mkdirs(const char *dir) {
    char p[4096];
    size_t i, n = strlen(dir);
    if (n == 0 || n >= sizeof p) return 0;
    memcpy(p, dir, n + 1);
    for (i = 1; i < n; i++) {
        if (p[i] != '/' && p[i] != '\\') continue;
        p[i] = 0;
        gpucompile__mkdir(p);
        p[i] = dir[i];
    }
    return gpucompile__mkdir(p);
}

GPUCOMPILE_DEF size_t gpucompile_default_cache_dir(char *buf, size_t size) {
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    int n;
#if defined(_WIN32)
    const char *l = getenv("LOCALAPPDATA");
    if (l && *l && !(x && *x)) n = snprintf(buf, size, "%s\\gpucompile", l); else
#endif
    if (x && *x) n = snprintf(buf, size, "%s/gpucompile", x);
    else if (h && *h) n = snprintf(buf, size, "%s/.cache/gpucompile", h);
    else return 0;
    return n < 0 ? 0 : (size_t)n;
}

/* Finds a program on PATH the way posix_spawnp will (for recording it as a dependency). */
GPUCOMPILE_DEF int gpucompile_which(const char *name, char *out, size_t size) {
    const char *p = getenv("PATH");
    uint64_t sz;
    int64_t mt;
#if defined(_WIN32)
    const char sep = ';', *ext = strchr(name, '.') ? "" : GPUCOMPILE_EXE_SUFFIX; /* CreateProcessW adds it */
    if (strchr(name, '/') || strchr(name, '\\') || strchr(name, ':')) return (size_t)snprintf(out, size, "%s", name) < size;
#else
    const char sep = ':', *ext = "";
    if (strchr(name, '/')) return (size_t)snprintf(out, size, "%s", name) < size;
#endif
    while (p && *p) {
        const char *e = strchr(p, sep);
        size_t n = e ? (size_t)(e - p) : strlen(p);
        if ((size_t)snprintf(out, size, "%.*s/%s%s", (int)n, p, name, ext) < size && gpucompile__stat(out, &sz, &mt)) return 1;
        p = e ? e + 1 : NULL;
    }
    return 0;
}

/* Directories (the backend helpers gpucompile_dir_*), and files by kind. */
#if defined(_WIN32)
struct gpucompile_dir { HANDLE h; WIN32_FIND_DATAA fd; int first; };
GPUCOMPILE_DEF gpucompile_dir *gpucompile_dir_open(const char *dir) {
    gpucompile_dir *d = (gpucompile_dir *)gpucompile_alloc(NULL, sizeof *d);
    char path[4200];
    if (!d) return NULL;
    snprintf(path, sizeof path, "%s/*", dir);
    d->h = FindFirstFileA(path, &d->fd);
    d->first = 1;
    if (d->h == INVALID_HANDLE_VALUE) { gpucompile_free(NULL, d); return NULL; }
    return d;
}
GPUCOMPILE_DEF const char *gpucompile_dir_next(gpucompile_dir *d) {
    if (!d->first && !FindNextFileA(d->h, &d->fd)) return NULL;
    d->first = 0;
    return d->fd.cFileName;
}
GPUCOMPILE_DEF void gpucompile_dir_close(gpucompile_dir *d) {
    if (d) FindClose(d->h);
    gpucompile_free(NULL, d);
}
GPUCOMPILE_DEF int gpucompile_file_exists(const char *path, char what) {
    DWORD a = path && *path ? GetFileAttributesA(path) : INVALID_FILE_ATTRIBUTES;
    if (a == INVALID_FILE_ATTRIBUTES) return 0;
    return what == 'd' ? (a & FILE_ATTRIBUTE_DIRECTORY) != 0 : !(a & FILE_ATTRIBUTE_DIRECTORY);
}
/* Most recently used, for the cache's eviction order. */
GPUCOMPILE__PRIVATE void gpucompile__touch(const char *path) { _utime(path, NULL); }
#else
struct gpucompile_dir { DIR *d; };
GPUCOMPILE_DEF gpucompile_dir *gpucompile_dir_open(const char *dir) {
    gpucompile_dir *d = (gpucompile_dir *)gpucompile_alloc(NULL, sizeof *d);
    if (d && !(d->d = opendir(dir))) { gpucompile_free(NULL, d); d = NULL; }
    return d;
}
GPUCOMPILE_DEF const char *gpucompile_dir_next(gpucompile_dir *d) {
    struct dirent *de = readdir(d->d);
    return de ? de->d_name : NULL;
}
GPUCOMPILE_DEF void gpucompile_dir_close(gpucompile_dir *d) {
    if (d) closedir(d->d);
    gpucompile_free(NULL, d);
}
GPUCOMPILE_DEF int gpucompile_file_exists(const char *path, char what) {
    struct stat st;
    if (!path || !*path || stat(path, &st) != 0) return 0;
    if (what == 'd') return S_ISDIR(st.st_mode);
    return S_ISREG(st.st_mode) && (what != 'x' || access(path, X_OK) == 0);
}
GPUCOMPILE__PRIVATE void gpucompile__touch(const char *path) { utime(path, NULL); }
#endif

#if !defined(_WIN32)
/* A process that is gone (or a zombie: dead, not yet reaped). */
GPUCOMPILE__PRIVATE int gpucompile__pid_gone(long pid) {
    char path[64], stat[256];
    FILE *f;
    size_t n;
    const char *e;
    if (kill((pid_t)pid, 0) != 0) return errno == ESRCH;
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if (!(f = fopen(path, "r"))) return 0;
    n = fread(stat, 1, sizeof stat - 1, f);
    fclose(f);
    stat[n] = 0;
    e = strrchr(stat, ')'); /* "pid (name) S ..." */
    return e && e[1] == ' ' && e[2] == 'Z';
}
#endif

/* Removes $TMPDIR/gpucompile-PID-* files left by a process that died without cleaning up
   (SIGKILL): those of pid, or (pid 0) of every PID that is gone. Only regular files of ours. */
GPUCOMPILE__PRIVATE void gpucompile__sweep_temps(long pid) {
#if defined(_WIN32)
    (void)pid;
#else
    const char *dir = gpucompile__tmpdir();
    DIR *d = opendir(dir);
    struct dirent *de;
    if (!d) return;
    while ((de = readdir(d)) != NULL) {
        char path[4096], *end;
        long p;
        struct stat st;
        if (strncmp(de->d_name, "gpucompile-", 11) != 0) continue;
        p = strtol(de->d_name + 11, &end, 10);
        if (end == de->d_name + 11 || *end != '-' || p <= 0 || (pid ? p != pid : (p == (long)getpid() || !gpucompile__pid_gone(p))))
            continue;
        if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < sizeof path && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
            remove(path);
    }
    closedir(d);
#endif
}

GPUCOMPILE_DEF void gpucompile_sweep_temp_files(void) {
    static int swept;
    int sweep;
    gpucompile_lock();
    sweep = !swept;
    swept = 1;
    gpucompile_unlock();
    if (sweep) gpucompile__sweep_temps(0);
}

/* Threads (8 MiB stacks: LLVM recurses; a thread runs fn(arg) and is joined once) and a
   mutex with a condition variable. */
#if defined(_WIN32)
typedef struct gpucompile__thread { HANDLE h; void (*fn)(void *); void *arg; } gpucompile__thread;
typedef SRWLOCK gpucompile__mtx;
typedef CONDITION_VARIABLE gpucompile__cnd;
GPUCOMPILE__PRIVATE unsigned __stdcall gpucompile__thread_entry(void *p) {
    gpucompile__thread *t = (gpucompile__thread *)p;
    t->fn(t->arg);
    return 0;
}
GPUCOMPILE__PRIVATE int gpucompile__thread_start(gpucompile__thread *t, void (*fn)(void *), void *arg) {
    uintptr_t h;
    t->fn = fn;
    t->arg = arg;
    h = _beginthreadex(NULL, 8u << 20, gpucompile__thread_entry, t, 0, NULL);
    t->h = (HANDLE)h;
    return h != 0;
}
GPUCOMPILE__PRIVATE void gpucompile__thread_join(gpucompile__thread *t) {
    WaitForSingleObject(t->h, INFINITE);
    CloseHandle(t->h);
}
#define GPUCOMPILE__MTX_INIT SRWLOCK_INIT
GPUCOMPILE__PRIVATE void gpucompile__mtx_init(gpucompile__mtx *m) { InitializeSRWLock(m); }
GPUCOMPILE__PRIVATE void gpucompile__mtx_destroy(gpucompile__mtx *m) { (void)m; }
GPUCOMPILE__PRIVATE void gpucompile__mtx_lock(gpucompile__mtx *m) { AcquireSRWLockExclusive(m); }
GPUCOMPILE__PRIVATE void gpucompile__mtx_unlock(gpucompile__mtx *m) { ReleaseSRWLockExclusive(m); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_init(gpucompile__cnd *c) { InitializeConditionVariable(c); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_destroy(gpucompile__cnd *c) { (void)c; }
GPUCOMPILE__PRIVATE void gpucompile__cnd_wait(gpucompile__cnd *c, gpucompile__mtx *m) { SleepConditionVariableSRW(c, m, INFINITE, 0); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_broadcast(gpucompile__cnd *c) { WakeAllConditionVariable(c); }
#else
typedef struct gpucompile__thread { pthread_t h; void (*fn)(void *); void *arg; } gpucompile__thread;
typedef pthread_mutex_t gpucompile__mtx;
typedef pthread_cond_t gpucompile__cnd;
GPUCOMPILE__PRIVATE void *gpucompile__thread_entry(void *p) {
    gpucompile__thread *t = (gpucompile__thread *)p;
    t->fn(t->arg);
    return NULL;
}
GPUCOMPILE__PRIVATE int gpucompile__thread_start(gpucompile__thread *t, void (*fn)(void *), void *arg) {
    pthread_attr_t attr;
    int ok;
    t->fn = fn;
    t->arg = arg;
    if (pthread_attr_init(&attr) != 0) return 0;
    pthread_attr_setstacksize(&attr, (size_t)8 << 20);
    ok = pthread_create(&t->h, &attr, gpucompile__thread_entry, t) == 0;
    pthread_attr_destroy(&attr);
    return ok;
}
GPUCOMPILE__PRIVATE void gpucompile__thread_join(gpucompile__thread *t) { pthread_join(t->h, NULL); }
#define GPUCOMPILE__MTX_INIT PTHREAD_MUTEX_INITIALIZER
GPUCOMPILE__PRIVATE void gpucompile__mtx_init(gpucompile__mtx *m) { pthread_mutex_init(m, NULL); }
GPUCOMPILE__PRIVATE void gpucompile__mtx_destroy(gpucompile__mtx *m) { pthread_mutex_destroy(m); }
GPUCOMPILE__PRIVATE void gpucompile__mtx_lock(gpucompile__mtx *m) { pthread_mutex_lock(m); }
GPUCOMPILE__PRIVATE void gpucompile__mtx_unlock(gpucompile__mtx *m) { pthread_mutex_unlock(m); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_init(gpucompile__cnd *c) { pthread_cond_init(c, NULL); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_destroy(gpucompile__cnd *c) { pthread_cond_destroy(c); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_wait(gpucompile__cnd *c, gpucompile__mtx *m) { pthread_cond_wait(c, m); }
GPUCOMPILE__PRIVATE void gpucompile__cnd_broadcast(gpucompile__cnd *c) { pthread_cond_broadcast(c); }
#endif

/* Descriptors and child processes for the worker processes ([section: isolation]): a socket
   and a pipe per worker, fork, kill, wait (128+N for signal N). POSIX only: Windows has no
   fork(), so GPUCOMPILE__HAVE_FORK is 0 there and these fail (or do nothing); only reading and
   writing a descriptor (a worker's serving loop) work on both. */
#if defined(_WIN32)
#define GPUCOMPILE__HAVE_FORK 0
GPUCOMPILE__PRIVATE long gpucompile__fd_read(int fd, void *p, size_t n) { return (long)_read(fd, p, (unsigned)n); }
GPUCOMPILE__PRIVATE long gpucompile__fd_write(int fd, const void *p, size_t n) { return (long)_write(fd, p, (unsigned)n); }
GPUCOMPILE__PRIVATE void gpucompile__fd_close(int fd) { _close(fd); }
GPUCOMPILE__PRIVATE long gpucompile__fd_send(int fd, const void *p, size_t n) {
    (void)fd; (void)p; (void)n;
    errno = ENOSYS;
    return -1;
}
GPUCOMPILE__PRIVATE int gpucompile__fd_poll(int n, const int *fds, int *ready, int timeout_ms) {
    (void)n; (void)fds; (void)ready; (void)timeout_ms;
    errno = ENOSYS;
    return -1;
}
GPUCOMPILE__PRIVATE int gpucompile__worker_fds(int sv[2], int ep[2]) { (void)sv; (void)ep; return 0; }
GPUCOMPILE__PRIVATE long gpucompile__spawn_fds(char *const *argv, int in, int out, int err) {
    (void)argv; (void)in; (void)out; (void)err;
    return -1;
}
GPUCOMPILE__PRIVATE long gpucompile__fork(void) { errno = ENOSYS; return -1; }
GPUCOMPILE__PRIVATE void gpucompile__child_stdio(int out) { (void)out; }
GPUCOMPILE__PRIVATE void gpucompile__child_exit(int code) { _exit(code); }
GPUCOMPILE__PRIVATE void gpucompile__proc_kill(long pid) { (void)pid; }
GPUCOMPILE__PRIVATE int gpucompile__proc_wait(long pid) { (void)pid; return 1; }
GPUCOMPILE__PRIVATE void gpucompile__worker_signals(void) {}
GPUCOMPILE__PRIVATE int gpucompile__worker_stdio(int *in, int *out) {
    int nul = _open("NUL", _O_RDONLY);
    *in = _dup(0);
    *out = _dup(1);
    if (*in >= 0) _setmode(*in, _O_BINARY);
    if (*out >= 0) _setmode(*out, _O_BINARY);
    if (nul >= 0) { _dup2(nul, 0); _close(nul); }
    _dup2(2, 1);
    return *in >= 0 && *out >= 0;
}
#else
#define GPUCOMPILE__HAVE_FORK 1
GPUCOMPILE__PRIVATE long gpucompile__fd_read(int fd, void *p, size_t n) { return (long)read(fd, p, n); }
GPUCOMPILE__PRIVATE long gpucompile__fd_write(int fd, const void *p, size_t n) { return (long)write(fd, p, n); }
GPUCOMPILE__PRIVATE void gpucompile__fd_close(int fd) { close(fd); }
/* A peer gone raises no SIGPIPE: an error instead. */
GPUCOMPILE__PRIVATE long gpucompile__fd_send(int fd, const void *p, size_t n) { return (long)send(fd, p, n, MSG_NOSIGNAL); }
/* poll(): ready[i] is set when fds[i] (< 0: left out) can be read or has hung up. */
GPUCOMPILE__PRIVATE int gpucompile__fd_poll(int n, const int *fds, int *ready, int timeout_ms) {
    struct pollfd p[2];
    int i, k;
    if (n > 2) n = 2;
    for (i = 0; i < n; i++) {
        p[i].fd = fds[i];
        p[i].events = POLLIN;
        p[i].revents = 0;
    }
    k = poll(p, (nfds_t)n, timeout_ms);
    for (i = 0; i < n; i++) ready[i] = k > 0 && p[i].revents != 0;
    return k;
}

/* Both ends of a worker's socket and stderr pipe, close-on-exec (tools never hold them). */
GPUCOMPILE__PRIVATE int gpucompile__worker_fds(int sv[2], int ep[2]) {
    int i;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 0;
    if (pipe(ep) != 0) { close(sv[0]); close(sv[1]); return 0; }
    for (i = 0; i < 2; i++) {
        fcntl(sv[i], F_SETFD, FD_CLOEXEC);
        fcntl(ep[i], F_SETFD, FD_CLOEXEC);
    }
#if defined(SO_NOSIGPIPE)
    { int one = 1; setsockopt(sv[0], SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one); }
#endif
    return 1;
}

/* Runs argv (argv[0] a path, not searched) with in, out and err as its stdin, stdout and
   stderr, and no signal blocked; its PID, or -1. */
GPUCOMPILE__PRIVATE long gpucompile__spawn_fds(char *const *argv, int in, int out, int err) {
    int ok;
    pid_t pid;
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in, 0);
    posix_spawn_file_actions_adddup2(&fa, out, 1);
    posix_spawn_file_actions_adddup2(&fa, err, 2);
    posix_spawnattr_init(&attr);
    sigemptyset(&none);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
    ok = posix_spawn(&pid, argv[0], &fa, &attr, argv, environ) == 0;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    return ok ? (long)pid : -1;
}

GPUCOMPILE__PRIVATE long gpucompile__fork(void) { return (long)fork(); }

/* A forked child's stdin from /dev/null, its stdout and stderr into out. */
GPUCOMPILE__PRIVATE void gpucompile__child_stdio(int out) {
    int nul = open("/dev/null", O_RDONLY);
    if (nul >= 0) { dup2(nul, 0); close(nul); }
    dup2(out, 1);
    dup2(out, 2);
}

GPUCOMPILE__PRIVATE void gpucompile__child_exit(int code) { _exit(code); }
GPUCOMPILE__PRIVATE void gpucompile__proc_kill(long pid) { kill((pid_t)pid, SIGKILL); }

GPUCOMPILE__PRIVATE int gpucompile__proc_wait(long pid) {
    int st = 0;
    while (waitpid((pid_t)pid, &st, 0) < 0 && errno == EINTR) {}
    if (WIFSIGNALED(st)) return 128 + WTERMSIG(st);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void gpucompile__worker_signal(int sig) {
    gpucompile_signal_cleanup();
    _exit(128 + sig);
}

/* A worker ends its tools and files on SIGINT, SIGTERM or SIGHUP, whatever its parent blocked. */
GPUCOMPILE__PRIVATE void gpucompile__worker_signals(void) {
    struct sigaction sa;
    sigset_t set;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = gpucompile__worker_signal;
    sigemptyset(&sa.sa_mask);
    sigemptyset(&set);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
}

/* A worker's requests and replies: stdin and stdout, taken as new descriptors; stdin then reads
   /dev/null and stdout goes to stderr, so that whatever else writes to stdout (LLVM may) cannot
   break the replies. 0 when they cannot be taken. */
GPUCOMPILE__PRIVATE int gpucompile__worker_stdio(int *in, int *out) {
    int nul = open("/dev/null", O_RDONLY);
    *in = dup(0);
    *out = dup(1);
    if (nul >= 0) { dup2(nul, 0); close(nul); }
    dup2(2, 1);
    return *in >= 0 && *out >= 0;
}
#endif

/* The remote cache's ([section: remote cache]): hiredis's struct timeval, and SIGPIPE held
   back around a call that writes to a socket (hiredis uses write(): a server gone mid-request
   must not end the host; one it raised is taken). Windows: no remote cache here. */
#if defined(_WIN32)
#define GPUCOMPILE__HAVE_HIREDIS 0
typedef struct gpucompile__timeval { long tv_sec, tv_usec; } gpucompile__timeval; /* winsock's layout */
typedef struct gpucompile__sigpipe { int unused; } gpucompile__sigpipe;
GPUCOMPILE__PRIVATE void gpucompile__sigpipe_block(gpucompile__sigpipe *s) { (void)s; }
GPUCOMPILE__PRIVATE void gpucompile__sigpipe_unblock(gpucompile__sigpipe *s) { (void)s; }
#else
#define GPUCOMPILE__HAVE_HIREDIS 1
typedef struct timeval gpucompile__timeval;
typedef struct gpucompile__sigpipe { sigset_t old; } gpucompile__sigpipe;
GPUCOMPILE__PRIVATE void gpucompile__sigpipe_block(gpucompile__sigpipe *s) {
    sigset_t pipe_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &s->old);
}
GPUCOMPILE__PRIVATE void gpucompile__sigpipe_unblock(gpucompile__sigpipe *s) {
    sigset_t pipe_set, pending;
    int sig;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    if (!sigismember(&s->old, SIGPIPE) && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE))
        sigwait(&pipe_set, &sig); /* pending: returns at once */
    pthread_sigmask(SIG_SETMASK, &s->old, NULL);
}
#endif

/* ==== [section: thread pool] ============================================================= */
struct gpucompile_parallel {
    int (*work)(gpucompile_parallel *pool, int index, void *user);
    void *user;
    int count, next, stop;
    gpucompile__mtx mutex;
};

GPUCOMPILE__PRIVATE void gpucompile__parallel_work(gpucompile_parallel *p) {
    for (;;) {
        int i = -1;
        gpucompile_parallel_lock(p);
        if (p->next < p->count && !p->stop) i = p->next++;
        gpucompile_parallel_unlock(p);
        if (i < 0) return;
        if (p->work(p, i, p->user)) {
            gpucompile_parallel_lock(p);
            p->stop = 1;
            gpucompile_parallel_unlock(p);
        }
    }
}

GPUCOMPILE_DEF void gpucompile_parallel_lock(gpucompile_parallel *p) { gpucompile__mtx_lock(&p->mutex); }
GPUCOMPILE_DEF void gpucompile_parallel_unlock(gpucompile_parallel *p) { gpucompile__mtx_unlock(&p->mutex); }
GPUCOMPILE__PRIVATE void gpucompile__parallel_entry(void *p) { gpucompile__parallel_work((gpucompile_parallel *)p); }

GPUCOMPILE_DEF int gpucompile_run_parallel(const gpucompile_allocator *allocator, int count, int threads,
    int (*work)(gpucompile_parallel *pool, int index, void *user), void *user) {
    gpucompile_parallel p;
    gpucompile__thread *t = NULL;
    int i, started = 0, n = (threads < count ? threads : count) - 1; /* the calling thread works too */
    if (!work || count < 1) return 0;
    memset(&p, 0, sizeof p);
    p.work = work;
    p.user = user;
    p.count = count;
    gpucompile__mtx_init(&p.mutex);
    if (n > 0) t = (gpucompile__thread *)gpucompile_alloc(allocator, (size_t)n * sizeof *t);
    for (i = 0; t && i < n; i++)
        if (gpucompile__thread_start(&t[started], gpucompile__parallel_entry, &p)) started++;
    gpucompile__parallel_work(&p);
    for (i = 0; i < started; i++) gpucompile__thread_join(&t[i]);
    gpucompile_free(allocator, t);
    gpucompile__mtx_destroy(&p.mutex);
    return p.next;
}

/* ==== [section: targets] ================================================================= */
#define GPUCOMPILE__MAX_BACKENDS 16
/* (target defaults, verification, chip tables, flags, canonical text and its parser) */

GPUCOMPILE_DEF gpucompile_target gpucompile_target_defaults(gpucompile_target_kind kind) {
    gpucompile_target t;
    memset(&t, 0, sizeof t);
    t.kind = kind;
    t.O = 2;
    return t;
}

/* The backend of target text by its attribute's name, or NULL. */
GPUCOMPILE__PRIVATE const gpucompile_backend *gpucompile__backend_of_text(const char *t) {
    if (!t || *t != '#') return NULL;
    return gpucompile_find_backend_named(t + 1, strcspn(t + 1, "< \t\n"), NULL);
}

/* The backend of a target t, or of an object o (t NULL): the one registered for a built-in
   kind; else a custom target's own table; else the one registered under the attribute that the
   object's target text names (tests/test_toy.c: with several custom backends registered). */
GPUCOMPILE__PRIVATE const gpucompile_backend *gpucompile__backend_of(const gpucompile_target *t, const gpucompile_object *o) {
    gpucompile_target_kind kind = t ? t->kind : o ? o->kind : GPUCOMPILE_TARGET_CUSTOM;
    if (kind != GPUCOMPILE_TARGET_CUSTOM) return gpucompile_find_backend(kind);
    return t ? t->backend : o ? gpucompile__backend_of_text(o->target) : NULL;
}

/* gpucompile_target_<field>: the target's own, else the backend's default for the target's
   spelling; "" where it has none. */
#define GPUCOMPILE__TARGET_TEXT(field) \
    GPUCOMPILE_DEF const char *gpucompile_target_##field(const gpucompile_target *t) { \
        const gpucompile_backend *b; \
        const char *v; \
        if (t->field) return t->field; \
        b = gpucompile__backend_of(t, NULL); \
        v = b ? b->defaults[t->upstream ? 1 : 0].field : NULL; \
        return v ? v : ""; \
    }
GPUCOMPILE__TARGET_TEXT(triple)
GPUCOMPILE__TARGET_TEXT(chip)
GPUCOMPILE__TARGET_TEXT(features)
GPUCOMPILE__TARGET_TEXT(abi)
#undef GPUCOMPILE__TARGET_TEXT

GPUCOMPILE_DEF int gpucompile_target_has_flag(const gpucompile_target *t, const char *name) {
    int i;
    if (!t || !t->flags || !name) return 0;
    for (i = 0; i < t->num_flags; i++)
        if (t->flags[i] && strcmp(t->flags[i], name) == 0) return 1;
    return 0;
}

GPUCOMPILE_DEF const char *gpucompile_target_flag_value(const gpucompile_target *t, const char *name) {
    int i;
    if (!t || !t->flags || !t->flag_values || !name) return NULL;
    for (i = 0; i < t->num_flags; i++)
        if (t->flags[i] && strcmp(t->flags[i], name) == 0) return t->flag_values[i];
    return NULL;
}

GPUCOMPILE_DEF int gpucompile_target_fast(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "fast"); }
GPUCOMPILE_DEF int gpucompile_target_daz(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "daz"); }
GPUCOMPILE_DEF int gpucompile_target_finite_only(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "finite_only"); }
GPUCOMPILE_DEF int gpucompile_target_unsafe_math(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "unsafe_math"); }
GPUCOMPILE_DEF int gpucompile_target_correct_sqrt(const gpucompile_target *t) { return !gpucompile_target_has_flag(t, "unsafe_sqrt"); }

GPUCOMPILE_DEF int gpucompile_chip_supported(gpucompile_target_kind kind, const char *chip) {
    const gpucompile_backend *b = gpucompile_find_backend(kind);
    if (!chip || !*chip) return 0;
    if (kind == GPUCOMPILE_TARGET_CUSTOM) return 1; /* the custom backend judges its own chips */
    return b && (!b->chip_supported || b->chip_supported(chip));
}

GPUCOMPILE_DEF const char *gpucompile_chip_name(gpucompile_target_kind kind, int index, int *native) {
    const gpucompile_backend *b = kind == GPUCOMPILE_TARGET_CUSTOM ? NULL : gpucompile_find_backend(kind);
    return b && b->chip_name && index >= 0 ? b->chip_name(index, native) : NULL;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_log_target(const gpucompile_logger *logger, const char *fmt, ...) {
    va_list ap;
    gpucompile_result r;
    va_start(ap, fmt);
    r = gpucompile__vlogf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_TARGET, GPUCOMPILE_STAGE_TARGET, fmt, ap);
    va_end(ap);
    return r;
}

/* "The target kind must be A, B or custom.", A, B the registered kinds' backends. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bad_kind(const gpucompile_logger *logger) {
    char names[256] = "", *p = names;
    const gpucompile_backend *b;
    int i;
    for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++) {
        const char *c;
        if (b->kind == GPUCOMPILE_TARGET_CUSTOM || !b->name || (size_t)(p - names) + strlen(b->name) + 3 > sizeof names) continue;
        if (p != names) *p++ = ',', *p++ = ' ';
        for (c = b->name; *c; c++) *p++ = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        *p = 0;
    }
    return gpucompile_log_target(logger, "The target kind must be %s%scustom.", names, *names ? " or " : "");
}

/* MLIR's checks in MLIR's order and words (first failure only, as MLIR; the link check done
   right: a NULL or empty element is refused), then ours: flag names not empty; then the
   backend's own (a triple and chip it knows, ...). */
GPUCOMPILE_DEF gpucompile_result gpucompile_target_verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const gpucompile_backend *b;
    gpucompile_result r;
    int i;
    if (!t) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    b = gpucompile__backend_of(t, NULL);
    if (!b && t->kind != GPUCOMPILE_TARGET_CUSTOM) return gpucompile__bad_kind(logger);
    if (t->O < 0 || t->O > 3) return gpucompile_log_target(logger, "The optimization level must be a number between 0 and 3.");
    if (!*gpucompile_target_triple(t)) return gpucompile_log_target(logger, "The target triple cannot be empty.");
    if (!*gpucompile_target_chip(t)) return gpucompile_log_target(logger, "The target chip cannot be empty.");
    if (b && b->verify_params && (r = b->verify_params(t, logger)) != GPUCOMPILE_OK) return r;
    if (t->num_link < 0 || (t->num_link > 0 && !t->link))
        return gpucompile_log_target(logger, "All the elements in the `link` array must be strings.");
    for (i = 0; i < t->num_link; i++) /* a parsed non-string element is NULL */
        if (!t->link[i] || !*t->link[i]) return gpucompile_log_target(logger, "All the elements in the `link` array must be strings.");
    if (t->num_flags < 0 || (t->num_flags > 0 && !t->flags)) return gpucompile_log_target(logger, "Flag names cannot be empty.");
    for (i = 0; i < t->num_flags; i++)
        if (!t->flags[i] || !*t->flags[i]) return gpucompile_log_target(logger, "Flag names cannot be empty.");
    return b && b->verify ? b->verify(t, logger) : GPUCOMPILE_OK;
}

/* ---- canonical text ---- */
typedef struct gpucompile__out {
    char *buf;
    size_t size, len;
} gpucompile__out;

GPUCOMPILE__PRIVATE void gpucompile__out_add(gpucompile__out *o, const char *s, size_t n) {
    if (o->len + 1 < o->size) {
        size_t room = o->size - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
}

GPUCOMPILE__PRIVATE void gpucompile__out_str(gpucompile__out *o, const char *s) { gpucompile__out_add(o, s, strlen(s)); }

/* ---- MLIR's lexical rules (gpucompile_lexer, [section: backend helpers]), for the target text
   and the gpu.binary text alike, as mlir-opt reads and prints them ----
   - Names: attribute names and words after '#' also take '-'.
   - Strings are printed with llvm::printEscapedString's rule (gpucompile__escape).
   - Errors: "column N" in a target text, "LINE:COLUMN" in a gpu.binary text. */
GPUCOMPILE__PRIVATE int gpucompile__is_id_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
GPUCOMPILE__PRIVATE int gpucompile__is_id_char(int c) { return gpucompile__is_id_start(c) || (c >= '0' && c <= '9') || c == '$' || c == '.'; }

/* MLIR's printEscapedString for one byte: printable ASCII as is, '\' doubled, '"' and the
   rest as \XX. Returns the length written to e. */
GPUCOMPILE__PRIVATE size_t gpucompile__escape(unsigned char c, char e[3]) {
    static const char hex[] = "0123456789ABCDEF";
    if (c == '\\') { e[0] = e[1] = '\\'; return 2; }
    if (c >= 0x20 && c <= 0x7E && c != '"') { e[0] = (char)c; return 1; }
    e[0] = '\\'; e[1] = hex[c >> 4]; e[2] = hex[c & 15];
    return 3;
}

GPUCOMPILE__PRIVATE int gpucompile__hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

GPUCOMPILE_DEF void gpucompile_lex_init(gpucompile_lexer *lx, const char *text, size_t n, size_t column, const gpucompile_logger *logger) {
    memset(lx, 0, sizeof *lx);
    lx->s = text;
    lx->n = n;
    lx->column = column;
    lx->logger = logger;
    lx->stage = GPUCOMPILE_STAGE_TARGET;
}

/* Where byte at is, for a message: "column N" or "LINE:COLUMN" (both counting bytes from 1). */
GPUCOMPILE__PRIVATE void gpucompile__lex_where(const gpucompile_lexer *lx, size_t at, char *buf, size_t size) {
    size_t i, line = 1, col = 1;
    if (lx->stage == GPUCOMPILE_STAGE_TARGET) {
        snprintf(buf, size, "column %lu", (unsigned long)(lx->column + at + 1));
        return;
    }
    for (i = 0; i < at && i < lx->n; i++) {
        if (lx->s[i] == '\n') { line++; col = 1; } else col++;
    }
    snprintf(buf, size, "%lu:%lu", (unsigned long)line, (unsigned long)col);
}

/* "WHERE: what", plus what was found where that is not visible in the text (its end, a NUL
   byte, a non-printable byte). */
GPUCOMPILE_DEF int gpucompile_lex_error(gpucompile_lexer *lx, size_t at, const char *fmt, ...) {
    char msg[2048], where[48], found[48] = "";
    va_list ap;
    if (lx->result != GPUCOMPILE_OK) return 0;
    lx->result = GPUCOMPILE_ERROR_PARSE;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile__lex_where(lx, at, where, sizeof where);
    if (at >= lx->n) snprintf(found, sizeof found, " (the text ends there)");
    else if (lx->s[at] == 0 && !strstr(msg, "NUL")) snprintf(found, sizeof found, " (found a NUL byte)");
    else if ((unsigned char)lx->s[at] < 0x20 || (unsigned char)lx->s[at] > 0x7E)
        snprintf(found, sizeof found, " (found byte 0x%02X)", (unsigned)(unsigned char)lx->s[at]);
    gpucompile__logf(lx->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_PARSE, lx->stage, "%s: %s%s", where, msg, found);
    return 0;
}

GPUCOMPILE__PRIVATE int gpucompile__lex_peek(const gpucompile_lexer *lx) { return lx->pos < lx->n ? (unsigned char)lx->s[lx->pos] : -1; }

/* A comment at the cursor: skipped up to (not over) the end of its line. */
GPUCOMPILE__PRIVATE int gpucompile__lex_comment(gpucompile_lexer *lx) {
    if (lx->pos + 1 >= lx->n || lx->s[lx->pos] != '/' || lx->s[lx->pos + 1] != '/') return 0;
    while (lx->pos < lx->n && lx->s[lx->pos] != '\n') lx->pos++;
    return 1;
}

GPUCOMPILE_DEF int gpucompile_lex_ws(gpucompile_lexer *lx) {
    for (;;) {
        while (lx->pos < lx->n && (lx->s[lx->pos] == ' ' || lx->s[lx->pos] == '\t' || lx->s[lx->pos] == '\n' || lx->s[lx->pos] == '\r'))
            lx->pos++;
        if (!gpucompile__lex_comment(lx)) return gpucompile__lex_peek(lx);
    }
}

GPUCOMPILE_DEF int gpucompile_lex_eat(gpucompile_lexer *lx, int c) {
    if (gpucompile_lex_ws(lx) != c) return 0;
    lx->pos++;
    return 1;
}

GPUCOMPILE_DEF int gpucompile_lex_expect(gpucompile_lexer *lx, int c, const char *where) {
    return gpucompile_lex_eat(lx, c) || gpucompile_lex_error(lx, lx->pos, "expected '%c'%s%s", c, where ? " " : "", where ? where : "");
}

GPUCOMPILE_DEF size_t gpucompile_lex_word(gpucompile_lexer *lx, const char **word, const char *also) {
    size_t at;
    int c = gpucompile_lex_ws(lx);
    if (word) *word = lx->s + lx->pos;
    if (c < 0 || !gpucompile__is_id_start(c)) return 0;
    for (at = lx->pos++; (c = gpucompile__lex_peek(lx)) >= 0 && (gpucompile__is_id_char(c) || (c && also && strchr(also, c))); lx->pos++) {}
    if (word) *word = lx->s + at;
    return lx->pos - at;
}

/* Magnitudes are read up to 2^40: past what any range of 32-bit values holds, never wrapped. */
GPUCOMPILE_DEF int gpucompile_lex_int(gpucompile_lexer *lx, long long lo, long long hi, long long *v, const char *what) {
    size_t at;
    int neg = 0, any = 0, base = 10, d;
    unsigned long long x = 0;
    gpucompile_lex_ws(lx);
    at = lx->pos;
    if (gpucompile__lex_peek(lx) == '-') { neg = 1; lx->pos++; }
    if (lx->pos + 1 < lx->n && lx->s[lx->pos] == '0' && (lx->s[lx->pos + 1] == 'x' || lx->s[lx->pos + 1] == 'X')) { base = 16; lx->pos += 2; }
    while ((d = gpucompile__lex_peek(lx)) >= 0 && (d = gpucompile__hexval(d)) >= 0 && d < base) {
        if (x > 0xFFFFFFFFFull) return gpucompile_lex_error(lx, at, "integer too large for %s", what);
        x = x * (unsigned)base + (unsigned)d;
        any = 1;
        lx->pos++;
    }
    if (!any) return gpucompile_lex_error(lx, at, "expected an integer for %s", what);
    *v = neg ? -(long long)x : (long long)x;
    if (*v < lo || *v > hi) return gpucompile_lex_error(lx, at, "integer out of range for %s", what);
    return 1;
}

GPUCOMPILE_DEF int gpucompile_lex_string(gpucompile_lexer *lx, gpucompile_buf *out, int no_nul) {
    size_t start;
    char where[48];
    if (gpucompile_lex_ws(lx) != '"') return gpucompile_lex_error(lx, lx->pos, "expected a string literal");
    start = lx->pos++;
    for (;;) {
        int c = gpucompile__lex_peek(lx);
        char b;
        if (c < 0 || c == '\n' || c == '\v' || c == '\f') {
            gpucompile__lex_where(lx, start, where, sizeof where);
            return gpucompile_lex_error(lx, lx->pos, "expected '\"' to close the string that starts at %s", where);
        }
        if (c == 0 && no_nul) return gpucompile_lex_error(lx, lx->pos, "NUL bytes are not allowed in strings");
        if (c == '"') { lx->pos++; return 1; }
        if (c == '\\') {
            int e = lx->pos + 1 < lx->n ? (unsigned char)lx->s[lx->pos + 1] : -1;
            int h1 = gpucompile__hexval(e), h2 = lx->pos + 2 < lx->n ? gpucompile__hexval((unsigned char)lx->s[lx->pos + 2]) : -1;
            if (e == '"' || e == '\\') { b = (char)e; lx->pos += 2; }
            else if (e == 'n') { b = '\n'; lx->pos += 2; }
            else if (e == 't') { b = '\t'; lx->pos += 2; }
            else if (h1 >= 0 && h2 >= 0) {
                if (h1 == 0 && h2 == 0 && no_nul) return gpucompile_lex_error(lx, lx->pos, "NUL bytes are not allowed in strings");
                b = (char)(h1 * 16 + h2);
                lx->pos += 3;
            } else return gpucompile_lex_error(lx, lx->pos, "unknown escape in string (expected \\\", \\\\, \\n, \\t or two hex digits)");
        } else {
            b = (char)c;
            lx->pos++;
        }
        if (out) gpucompile_buf_add(out, &b, 1);
    }
}

/* Skips one attribute value or type, for both MLIR readers (a link element the target parser
   does not keep, a gpu.binary entry kept as text): a run of tokens whose brackets nest, each
   closed by its own kind ("->" is no bracket, strings are skipped), up to ',' or a closing
   bracket of ends at depth 0, or the end of the text (the caller says what it expected there).
   what names the value in errors ("'link'"). */
GPUCOMPILE__PRIVATE int gpucompile__lex_skip_value(gpucompile_lexer *lx, const char *ends, const char *what) {
    static const char open[] = "[{(<", close[] = "]})>";
    char stack[32];
    size_t depth = 0;
    for (;;) {
        int c = gpucompile_lex_ws(lx);
        if (c < 0) return depth == 0 || gpucompile_lex_error(lx, lx->pos, "expected '%c' to close %s", stack[depth - 1], what);
        if (depth == 0 && (c == ',' || (c && strchr(ends, c)))) return 1;
        if (c == '"') {
            if (!gpucompile_lex_string(lx, NULL, 0)) return 0;
        } else if (c == '-' && lx->pos + 1 < lx->n && lx->s[lx->pos + 1] == '>') {
            lx->pos += 2;
        } else if (c && strchr(open, c)) {
            if (depth == sizeof stack) return gpucompile_lex_error(lx, lx->pos, "%s is nested too deeply", what);
            stack[depth++] = close[strchr(open, c) - open];
            lx->pos++;
        } else if (c && strchr(close, c)) {
            if (depth == 0 || stack[depth - 1] != c) return gpucompile_lex_error(lx, lx->pos, "unbalanced '%c' in %s", c, what);
            depth--;
            lx->pos++;
        } else if (gpucompile__is_id_char(c) || (c && strchr("-+:=@#!*?,", c))) {
            lx->pos++;
        } else return gpucompile_lex_error(lx, lx->pos, "unexpected character in %s", what);
    }
}

GPUCOMPILE__PRIVATE void gpucompile__out_quoted(gpucompile__out *o, const char *s) {
    char e[3];
    gpucompile__out_add(o, "\"", 1);
    for (; *s; s++) gpucompile__out_add(o, e, gpucompile__escape((unsigned char)*s, e));
    gpucompile__out_add(o, "\"", 1);
}

/* A dictionary key: bare when it is an MLIR bare identifier, quoted otherwise. */
GPUCOMPILE__PRIVATE void gpucompile__out_key(gpucompile__out *o, const char *s) {
    const char *p = s;
    if (gpucompile__is_id_start((unsigned char)*p))
        while (gpucompile__is_id_char((unsigned char)*p)) p++;
    if (p != s && !*p) gpucompile__out_str(o, s);
    else gpucompile__out_quoted(o, s);
}

GPUCOMPILE__PRIVATE void gpucompile__out_param(gpucompile__out *o, int *first, const char *name) {
    gpucompile__out_str(o, *first ? "<" : ", ");
    *first = 0;
    gpucompile__out_str(o, name);
    gpucompile__out_str(o, " = ");
}

GPUCOMPILE__PRIVATE void gpucompile__out_string_param(gpucompile__out *o, int *first, const char *name, const char *value, const char *def) {
    if (strcmp(value, def) == 0) return;
    gpucompile__out_param(o, first, name);
    gpucompile__out_quoted(o, value);
}

/* The smallest flag name greater than prev (NULL: the smallest of all): flags sorted and
   without repeats, with no allocation. */
GPUCOMPILE__PRIVATE const char *gpucompile__next_flag(const gpucompile_target *t, const char *prev) {
    const char *best = NULL;
    int i;
    for (i = 0; t->flags && i < t->num_flags; i++) {
        const char *f = t->flags[i];
        if (!f || (prev && strcmp(f, prev) <= 0)) continue;
        if (!best || strcmp(f, best) < 0) best = f;
    }
    return best;
}

#define GPUCOMPILE__ALL_PARAMS "O,triple,chip,features,abi,flags,link"
/* Does the backend's attribute, in that spelling, take the parameter? (No backend: a custom
   target, all seven.) */
GPUCOMPILE__PRIVATE int gpucompile__takes_param(const gpucompile_backend *b, int upstream, const char *name) {
    const char *list = b && b->params[upstream ? 1 : 0] ? b->params[upstream ? 1 : 0] : b && b->params[0] ? b->params[0] : GPUCOMPILE__ALL_PARAMS;
    return gpucompile_in_list(list, name, strlen(name));
}

/* The link parameter's name for the spelling. */
GPUCOMPILE__PRIVATE const char *gpucompile__link_name(const gpucompile_backend *b, int upstream) {
    return b && b->link_name[upstream ? 1 : 0] ? b->link_name[upstream ? 1 : 0] : "link";
}

/* The attribute's name: the backend's for the spelling, else #<custom_name>. */
GPUCOMPILE__PRIVATE const char *gpucompile__target_name(const gpucompile_target *t) {
    const gpucompile_backend *b = gpucompile__backend_of(t, NULL);
    if (t->kind == GPUCOMPILE_TARGET_CUSTOM && t->custom_name && *t->custom_name) return t->custom_name;
    if (b && b->attribute[t->upstream ? 1 : 0]) return b->attribute[t->upstream ? 1 : 0];
    return t->kind == GPUCOMPILE_TARGET_CUSTOM ? "custom" : "none";
}

/* Declaration order O, triple, chip, features, [abi,] flags, link[, verifyTarget]; defaults left out. Custom
   targets take the same parameters, abi included, whose defaults are 2 and "". */

GPUCOMPILE_DEF size_t gpucompile_target_print(const gpucompile_target *t, char *buf, size_t size) {
    gpucompile__out o;
    gpucompile_target d;
    const gpucompile_backend *b;
    const char *f;
    char num[32];
    int first = 1, i;
    o.buf = buf;
    o.size = buf ? size : 0;
    o.len = 0;
    if (!t) {
        if (o.size) buf[0] = 0;
        return 0;
    }
    b = gpucompile__backend_of(t, NULL);
    if (b && b->print_text[t->upstream ? 1 : 0]) return b->print_text[t->upstream ? 1 : 0](t, buf, size);
    d = gpucompile_target_defaults(t->kind);
    d.upstream = t->upstream; /* the defaults follow the spelling, and the backend */
    d.backend = t->backend;
    gpucompile__out_str(&o, "#");
    gpucompile__out_str(&o, gpucompile__target_name(t));
    if (t->O != d.O) {
        gpucompile__out_param(&o, &first, "O");
        snprintf(num, sizeof num, "%d", t->O);
        gpucompile__out_str(&o, num);
    }
    gpucompile__out_string_param(&o, &first, "triple", gpucompile_target_triple(t), gpucompile_target_triple(&d));
    gpucompile__out_string_param(&o, &first, "chip", gpucompile_target_chip(t), gpucompile_target_chip(&d));
    gpucompile__out_string_param(&o, &first, "features", gpucompile_target_features(t), gpucompile_target_features(&d));
    if (gpucompile__takes_param(gpucompile__backend_of(t, NULL), t->upstream, "abi"))
        gpucompile__out_string_param(&o, &first, "abi", gpucompile_target_abi(t), gpucompile_target_abi(&d));
    if ((f = gpucompile__next_flag(t, NULL)) != NULL) {
        gpucompile__out_param(&o, &first, "flags");
        gpucompile__out_str(&o, "{");
        for (i = 0; f; f = gpucompile__next_flag(t, f), i++) {
            const char *v = gpucompile_target_flag_value(t, f);
            if (i) gpucompile__out_str(&o, ", ");
            gpucompile__out_key(&o, f);
            if (v) {
                gpucompile__out_str(&o, " = ");
                gpucompile__out_str(&o, v);
            }
        }
        gpucompile__out_str(&o, "}");
    }
    if (t->link && t->num_link > 0) {
        gpucompile__out_param(&o, &first, gpucompile__link_name(gpucompile__backend_of(t, NULL), t->upstream));
        gpucompile__out_str(&o, "[");
        for (i = 0; i < t->num_link; i++) {
            if (i) gpucompile__out_str(&o, ", ");
            /* a non-string element (NULL) reads back as one: MLIR's unit attribute */
            if (t->link[i]) gpucompile__out_quoted(&o, t->link[i]);
            else gpucompile__out_str(&o, "unit");
        }
        gpucompile__out_str(&o, "]");
    }
    if (t->no_verify_target && gpucompile__takes_param(gpucompile__backend_of(t, NULL), t->upstream, "verifyTarget")) {
        gpucompile__out_param(&o, &first, "verifyTarget");
        gpucompile__out_str(&o, "false");
    }
    if (!first) gpucompile__out_str(&o, ">");
    if (o.size) buf[o.len < o.size ? o.len : o.size - 1] = 0;
    return o.len;
}

/* ---- parser ----
   What it reads, where MLIR leaves a choice:
   - #NAME with or without <...> (<> too), NAME a registered backend's attribute (either
     spelling). A target with only custom_name set prints as #<custom_name><...> but does not
     parse: no registered backend names it.
   - Whitespace (space, tab, CR, LF) between any tokens, also before '<' (MLIR refuses that).
   - O: decimal or 0x integer, optionally negative. Outside int's range: a parse error (as in
     MLIR); in range but not 0-3: verify's error.
   - Strings: MLIR's escapes \" \\ \n \t \XX. \00 and raw NUL bytes are refused (a C string
     cannot hold them), as is a raw line break inside a string (as in MLIR).
   - flags: {a, "b-c", "tool-options" = ["-v"]}: names, some with a value (MLIR's flags
     are a dictionary): a string, an integer (decimal or 0x, optionally `: i8/i16/i32/i64`;
     printed as MLIR does: `1 : i64` when untyped, `1` in an array), true, false, or an array of these; `= unit`
     is the bare name. Floats and other attributes are refused. `flags = {}` and `link = []`
     parse as empty and print as left out (MLIR keeps them).
   - link: strings; any other element (MLIR takes any attribute: 1, [..], @f, ...) is skipped
     as a balanced run of tokens and kept as a NULL entry, which verify refuses with MLIR's
     message and print writes as `unit`.
   - Errors: the first one only, as "column N: expected ...", N counting bytes from 1. */
enum { GPUCOMPILE__P_O, GPUCOMPILE__P_TRIPLE, GPUCOMPILE__P_CHIP, GPUCOMPILE__P_FEATURES, GPUCOMPILE__P_ABI,
       GPUCOMPILE__P_FLAGS, GPUCOMPILE__P_LINK, GPUCOMPILE__P_VERIFY, GPUCOMPILE__P_COUNT };
static const char *const gpucompile__param_names[GPUCOMPILE__P_COUNT] = {"O", "triple", "chip", "features", "abi", "flags", "link",
                                                                         "verifyTarget"};
#define GPUCOMPILE__UNSET ((size_t)-1)

typedef struct gpucompile__parser {
    gpucompile_lexer lx;            /* the text, the cursor and the first error */
    gpucompile_buf strs;          /* decoded strings, each NUL-terminated */
    gpucompile_buf flags, links;  /* size_t offsets into strs (links: GPUCOMPILE__UNSET = not a string) */
    gpucompile_buf values, val;   /* per flag: offset of its value text or GPUCOMPILE__UNSET; a value being read */
    size_t str[GPUCOMPILE__P_COUNT]; /* offsets of triple, chip, features, abi */
    int seen[GPUCOMPILE__P_COUNT];
    int O;
    int no_verify;                 /* verifyTarget = false */
    int last;                      /* the parameter being read, for messages */
} gpucompile__parser;

/* A string literal at the cursor into p->strs, NUL-terminated (a NUL inside is refused); *off
   gets its offset. */
GPUCOMPILE__PRIVATE int gpucompile__pstring(gpucompile__parser *p, size_t *off) {
    *off = p->strs.len;
    if (!gpucompile_lex_string(&p->lx, &p->strs, 1)) return 0;
    gpucompile_buf_add(&p->strs, "", 1);
    return 1;
}

/* O: a decimal or 0x integer, optionally negative; out of int's range is a parse error (as in
   MLIR), in range but not 0-3 is verify's. */
GPUCOMPILE__PRIVATE int gpucompile__pint(gpucompile__parser *p, const char *name) {
    size_t start = p->lx.pos;
    int neg = 0, base = 10, any = 0;
    unsigned long long v = 0;
    if (gpucompile__lex_peek(&p->lx) == '-') { neg = 1; p->lx.pos++; gpucompile_lex_ws(&p->lx); }
    if (gpucompile__lex_peek(&p->lx) < '0' || gpucompile__lex_peek(&p->lx) > '9')
        return gpucompile_lex_error(&p->lx, p->lx.pos, "expected an integer for '%s'", name);
    if (p->lx.pos + 1 < p->lx.n && p->lx.s[p->lx.pos] == '0' && (p->lx.s[p->lx.pos + 1] == 'x' || p->lx.s[p->lx.pos + 1] == 'X'))
        { base = 16; p->lx.pos += 2; }
    for (;;) {
        int c = gpucompile__lex_peek(&p->lx), d = c < 0 ? -1 : gpucompile__hexval(c);
        if (d < 0 || d >= base) break;
        if (v <= 0x7FFFFFFFull) v = v * (unsigned)base + (unsigned)d; /* past that it is too large anyway */
        any = 1;
        p->lx.pos++;
    }
    if (!any) return gpucompile_lex_error(&p->lx, p->lx.pos, "expected hex digits for '%s'", name);
    if (gpucompile__is_id_char(gpucompile__lex_peek(&p->lx)))
        return gpucompile_lex_error(&p->lx, p->lx.pos, "expected an integer for '%s'", name);
    if (v > (neg ? 0x80000000ull : 0x7FFFFFFFull)) return gpucompile_lex_error(&p->lx, start, "integer value too large for '%s'", name);
    p->O = neg ? (int)(0 - (long long)v) : (int)v;
    return 1;
}

GPUCOMPILE__PRIVATE size_t gpucompile__off(const gpucompile_buf *b, size_t i) {
    size_t v;
    memcpy(&v, b->data + i * sizeof v, sizeof v);
    return v;
}

/* A flag's value (see the parser's notes), appended to p->val in MLIR's canonical text. */
GPUCOMPILE__PRIVATE int gpucompile__pvalue(gpucompile__parser *p, int depth) {
    int c = gpucompile_lex_ws(&p->lx);
    size_t at = p->lx.pos;
    if (c == '"') {
        size_t off, keep = p->strs.len, k;
        char e[3];
        if (!gpucompile__pstring(p, &off) || p->strs.oom) return 0;
        gpucompile_buf_add(&p->val, "\"", 1);
        for (k = off; p->strs.data[k]; k++) gpucompile_buf_add(&p->val, e, gpucompile__escape((unsigned char)p->strs.data[k], e));
        gpucompile_buf_add(&p->val, "\"", 1);
        p->strs.len = keep; /* only the value's text is kept */
        return 1;
    }
    if (c == '[') {
        if (depth == 8) return gpucompile_lex_error(&p->lx, at, "a flag's value is nested too deeply");
        p->lx.pos++;
        gpucompile_buf_add(&p->val, "[", 1);
        if (gpucompile_lex_ws(&p->lx) == ']') { p->lx.pos++; gpucompile_buf_add(&p->val, "]", 1); return 1; }
        for (;;) {
            if (!gpucompile__pvalue(p, depth + 1)) return 0;
            c = gpucompile_lex_ws(&p->lx);
            if (c != ',' && c != ']') return gpucompile_lex_error(&p->lx, p->lx.pos, "expected ',' or ']' in a flag's value");
            p->lx.pos++;
            gpucompile_buf_str(&p->val, c == ',' ? ", " : "]");
            if (c == ']') return 1;
        }
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        int neg = c == '-', base = 10, any = 0, bits = 64;
        unsigned long long v = 0;
        if (neg) { p->lx.pos++; gpucompile_lex_ws(&p->lx); }
        if (p->lx.pos + 1 < p->lx.n && p->lx.s[p->lx.pos] == '0' && (p->lx.s[p->lx.pos + 1] == 'x' || p->lx.s[p->lx.pos + 1] == 'X'))
            { base = 16; p->lx.pos += 2; }
        for (;;) {
            int d = gpucompile__lex_peek(&p->lx) < 0 ? -1 : gpucompile__hexval(gpucompile__lex_peek(&p->lx));
            if (d < 0 || d >= base) break;
            if (v > ((1ull << 63) - (unsigned)d) / (unsigned)base)
                return gpucompile_lex_error(&p->lx, at, "integer value too large in a flag's value");
            v = v * (unsigned)base + (unsigned)d;
            any = 1;
            p->lx.pos++;
        }
        if (!any || gpucompile__lex_peek(&p->lx) == '.' || gpucompile__is_id_char(gpucompile__lex_peek(&p->lx)))
            return gpucompile_lex_error(&p->lx, at, "expected an integer in a flag's value (floats are not read)");
        if (gpucompile_lex_ws(&p->lx) == ':') {
            size_t t;
            const char *w;
            p->lx.pos++;
            gpucompile_lex_ws(&p->lx);
            t = p->lx.pos;
            gpucompile_lex_word(&p->lx, NULL, NULL);
            w = p->lx.s + t;
            bits = p->lx.pos - t == 2 && strncmp(w, "i8", 2) == 0 ? 8 : p->lx.pos - t == 3 && strncmp(w, "i16", 3) == 0 ? 16
                 : p->lx.pos - t == 3 && strncmp(w, "i32", 3) == 0 ? 32 : p->lx.pos - t == 3 && strncmp(w, "i64", 3) == 0 ? 64 : 0;
            if (!bits) return gpucompile_lex_error(&p->lx, t, "expected i8, i16, i32 or i64 as an integer's type in a flag's value");
        }
        if (v > (1ull << (bits - 1)) - (neg ? 0 : 1))
            return gpucompile_lex_error(&p->lx, at, "integer value out of range for i%d in a flag's value", bits);
        gpucompile_buf_printf(&p->val, "%s%llu", neg && v ? "-" : "", v);
        if (bits != 64 || depth == 0) gpucompile_buf_printf(&p->val, " : i%d", bits); /* MLIR elides i64 inside arrays */
        return 1;
    }
    gpucompile_lex_word(&p->lx, NULL, NULL);
    if ((p->lx.pos - at == 4 && (strncmp(p->lx.s + at, "true", 4) == 0 || strncmp(p->lx.s + at, "unit", 4) == 0)) ||
        (p->lx.pos - at == 5 && strncmp(p->lx.s + at, "false", 5) == 0)) {
        gpucompile_buf_add(&p->val, p->lx.s + at, p->lx.pos - at);
        return 1;
    }
    return gpucompile_lex_error(&p->lx, at, "expected a flag value: a string, an integer, true, false, unit or [...]");
}

/* flags = {a, "b-c", "tool-options" = ["-v"]}: names (bare identifiers or strings), each
   at most once, some with a value. */
GPUCOMPILE__PRIVATE int gpucompile__pflags(gpucompile__parser *p) {
    if (gpucompile__lex_peek(&p->lx) != '{') return gpucompile_lex_error(&p->lx, p->lx.pos, "expected '{' for 'flags'");
    p->lx.pos++;
    if (gpucompile_lex_ws(&p->lx) == '}') { p->lx.pos++; return 1; }
    for (;;) {
        int c = gpucompile_lex_ws(&p->lx);
        size_t at = p->lx.pos, off = p->strs.len, i, n;
        if (c == '"') {
            if (!gpucompile__pstring(p, &off)) return 0;
        } else if (gpucompile_lex_word(&p->lx, NULL, NULL)) {
            gpucompile_buf_add(&p->strs, p->lx.s + at, p->lx.pos - at);
            gpucompile_buf_add(&p->strs, "", 1);
        } else return gpucompile_lex_error(&p->lx, at, "expected a flag name in 'flags'");
        if (p->strs.oom) return 0;
        if (!p->strs.data[off]) return gpucompile_lex_error(&p->lx, at, "expected a non-empty flag name");
        n = p->flags.len / sizeof(size_t);
        if (n == 1024) return gpucompile_lex_error(&p->lx, at, "too many flags (at most 1024)"); /* repeats are found in n^2 */
        for (i = 0; i < n; i++)
            if (strcmp(p->strs.data + gpucompile__off(&p->flags, i), p->strs.data + off) == 0)
                return gpucompile_lex_error(&p->lx, at, "flag '%.100s' is repeated", p->strs.data + off);
        gpucompile_buf_add(&p->flags, &off, sizeof off);
        off = GPUCOMPILE__UNSET;
        if ((c = gpucompile_lex_ws(&p->lx)) == '=') {
            p->lx.pos++;
            p->val.len = 0;
            if (!gpucompile__pvalue(p, 0) || p->val.oom) return 0;
            if (p->val.len != 4 || memcmp(p->val.data, "unit", 4) != 0) { /* `= unit` is the bare name, as MLIR prints it */
                off = p->strs.len;
                gpucompile_buf_add(&p->strs, p->val.data, p->val.len);
                gpucompile_buf_add(&p->strs, "", 1);
            }
            c = gpucompile_lex_ws(&p->lx);
        }
        gpucompile_buf_add(&p->values, &off, sizeof off);
        if (c != ',' && c != '}') return gpucompile_lex_error(&p->lx, p->lx.pos, "expected ',' or '}' in 'flags'");
        p->lx.pos++;
        if (c == '}') return 1;
    }
}

/* One non-string element of link (MLIR allows any attribute there: 1, [2], @f, #a<...>, ...):
   skipped; verify refuses it, as MLIR does. */
GPUCOMPILE__PRIVATE int gpucompile__pskip_attr(gpucompile__parser *p) {
    size_t start = p->lx.pos;
    if (!gpucompile__lex_skip_value(&p->lx, "]", "'link'")) return 0;
    if (gpucompile__lex_peek(&p->lx) < 0) return gpucompile_lex_error(&p->lx, p->lx.pos, "expected ']' to close 'link'");
    if (p->lx.pos == start) return gpucompile_lex_error(&p->lx, p->lx.pos, "expected a value in 'link'");
    return 1;
}

/* link = ["a.bc", "b.bc"]. */
GPUCOMPILE__PRIVATE int gpucompile__plink(gpucompile__parser *p) {
    if (gpucompile__lex_peek(&p->lx) != '[') return gpucompile_lex_error(&p->lx, p->lx.pos, "expected '[' for 'link'");
    p->lx.pos++;
    if (gpucompile_lex_ws(&p->lx) == ']') { p->lx.pos++; return 1; }
    for (;;) {
        size_t off = GPUCOMPILE__UNSET;
        int c = gpucompile_lex_ws(&p->lx);
        if (c == '"') {
            if (!gpucompile__pstring(p, &off)) return 0;
        } else if (!gpucompile__pskip_attr(p)) return 0;
        gpucompile_buf_add(&p->links, &off, sizeof off);
        c = gpucompile_lex_ws(&p->lx);
        if (c != ',' && c != ']') return gpucompile_lex_error(&p->lx, p->lx.pos, "expected ',' or ']' in 'link'");
        p->lx.pos++;
        if (c == ']') return 1;
    }
}

GPUCOMPILE__PRIVATE int gpucompile__pparam(gpucompile__parser *p, const gpucompile_backend *b, const char *attr) {
    size_t at = p->lx.pos, n;
    int id;
    char expected[128], *e;
    int upstream = b && b->attribute[1] && strcmp(attr, b->attribute[1]) == 0;
    const char *link = gpucompile__link_name(b, upstream);
    n = gpucompile_lex_word(&p->lx, NULL, NULL);
    for (id = 0; id < GPUCOMPILE__P_COUNT; id++)
        if (strlen(gpucompile__param_names[id]) == n && strncmp(gpucompile__param_names[id], p->lx.s + at, n) == 0) break;
    if (id == GPUCOMPILE__P_LINK && strcmp(link, "link") != 0) id = GPUCOMPILE__P_COUNT;
    if (strlen(link) == n && strncmp(link, p->lx.s + at, n) == 0) id = GPUCOMPILE__P_LINK;
    if (id < GPUCOMPILE__P_COUNT && !gpucompile__takes_param(b, upstream, gpucompile__param_names[id])) id = GPUCOMPILE__P_COUNT;
    if (id == GPUCOMPILE__P_COUNT) {
        for (e = expected, id = 0; id < GPUCOMPILE__P_COUNT; id++)
            if (gpucompile__takes_param(b, upstream, gpucompile__param_names[id]))
                e += snprintf(e, (size_t)(expected + sizeof expected - e), "%s%s", e == expected ? "" : ", ",
                              id == GPUCOMPILE__P_LINK ? link : gpucompile__param_names[id]);
        return gpucompile_lex_error(&p->lx, at, "unknown parameter '%.*s' for #%s; expected one of %s",
                                   (int)(n < 64 ? n : 64), p->lx.s + at, attr, expected);
    }
    if (p->seen[id]) return gpucompile_lex_error(&p->lx, at, "parameter '%s' is repeated", gpucompile__param_names[id]);
    p->seen[id] = 1;
    p->last = id;
    if (gpucompile_lex_ws(&p->lx) != '=')
        return gpucompile_lex_error(&p->lx, p->lx.pos, "expected '=' after parameter name '%s'", gpucompile__param_names[id]);
    p->lx.pos++;
    gpucompile_lex_ws(&p->lx);
    if (id == GPUCOMPILE__P_O) return gpucompile__pint(p, "O");
    if (id == GPUCOMPILE__P_FLAGS) return gpucompile__pflags(p);
    if (id == GPUCOMPILE__P_LINK) return gpucompile__plink(p);
    if (id == GPUCOMPILE__P_VERIFY) { /* a bool: true or false, as MLIR writes it */
        size_t w = p->lx.pos;
        gpucompile_lex_word(&p->lx, NULL, NULL);
        if (p->lx.pos - w == 4 && strncmp(p->lx.s + w, "true", 4) == 0) p->no_verify = 0;
        else if (p->lx.pos - w == 5 && strncmp(p->lx.s + w, "false", 5) == 0) p->no_verify = 1;
        else return gpucompile_lex_error(&p->lx, w, "expected true or false for 'verifyTarget'");
        return 1;
    }
    if (gpucompile__lex_peek(&p->lx) != '"')
        return gpucompile_lex_error(&p->lx, p->lx.pos, "expected a string for '%s'", gpucompile__param_names[id]);
    return gpucompile__pstring(p, &p->str[id]);
}

/* "#a, #b, #c or #d": the registered attribute names, ours first, then the upstream ones. */
GPUCOMPILE__PRIVATE void gpucompile__attribute_names(char *out, size_t size) {
    const char *names[2 * GPUCOMPILE__MAX_BACKENDS];
    const gpucompile_backend *b;
    size_t len = 0;
    int i, k, n = 0;
    for (k = 0; k < 2; k++)
        for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++)
            if (b->attribute[k]) names[n++] = b->attribute[k];
    out[0] = 0;
    for (i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s#%s", i == 0 ? "" : i == n - 1 ? " or " : ", ", names[i]);
}

/* #NAME<...>; fills p, returns NAME's backend (NULL after an error). */
GPUCOMPILE__PRIVATE const gpucompile_backend *gpucompile__pattr(gpucompile__parser *p, int *upstream, const char **attr) {
    const gpucompile_backend *b;
    size_t at, n;
    char names[512], text[8192];
    gpucompile_lexer real;
    int c;
    memset(&real, 0, sizeof real);
    if (gpucompile_lex_ws(&p->lx) != '#') { gpucompile_lex_error(&p->lx, p->lx.pos, "expected '#' to start a target attribute"); return NULL; }
    at = ++p->lx.pos;
    while (gpucompile__is_id_char(gpucompile__lex_peek(&p->lx)) || gpucompile__lex_peek(&p->lx) == '-') p->lx.pos++;
    n = p->lx.pos - at;
    b = n ? gpucompile_find_backend_named(p->lx.s + at, n, upstream) : NULL;
    if (!b) {
        gpucompile__attribute_names(names, sizeof names);
        gpucompile_lex_error(&p->lx, at - 1, "unknown target attribute '#%.*s'%s%s",
                            (int)(n < 64 ? n : 64), p->lx.s + at, *names ? "; expected " : "", names);
        return NULL;
    }
    *attr = b->attribute[*upstream];
    if (b->parse_text[*upstream]) { /* the backend's own syntax, read as its parameters */
        size_t used = b->parse_text[*upstream](p->lx.s + p->lx.pos, p->lx.n - p->lx.pos, p->lx.pos, p->lx.logger, text + 1, sizeof text - 2);
        if (!used) { p->lx.result = GPUCOMPILE_ERROR_PARSE; return NULL; }
        text[0] = '<';
        strcat(text, ">");
        real = p->lx; /* the parameters are read from text, then the cursor is after what it read */
        p->lx.s = text;
        p->lx.n = strlen(text);
        p->lx.pos = 0;
        real.pos += used;
    }
    if (gpucompile_lex_ws(&p->lx) == '<') {
        p->lx.pos++;
        c = gpucompile_lex_ws(&p->lx);
        if (c == '>') p->lx.pos++; /* <> as MLIR allows */
        else for (;;) {
            if (c < 0 || !gpucompile__is_id_start(c))
                { gpucompile_lex_error(&p->lx, p->lx.pos, "expected a parameter name or '>'"); return NULL; }
            if (!gpucompile__pparam(p, b, *attr)) return NULL;
            c = gpucompile_lex_ws(&p->lx);
            if (c == '>') { p->lx.pos++; break; }
            if (c != ',') {
                gpucompile_lex_error(&p->lx, p->lx.pos, "expected ',' or '>' after the value of '%s'", gpucompile__param_names[p->last]);
                return NULL;
            }
            p->lx.pos++;
            c = gpucompile_lex_ws(&p->lx);
        }
    }
    if (real.s) {
        real.result = p->lx.result;
        p->lx = real;
    }
    if (gpucompile_lex_ws(&p->lx) >= 0) { gpucompile_lex_error(&p->lx, p->lx.pos, "unexpected text after the target attribute"); return NULL; }
    return b;
}

/* A parsed target and its strings in one block; the allocator is kept for the free. */
typedef struct gpucompile__owned_target {
    gpucompile_target t;
    gpucompile_allocator a;
} gpucompile__owned_target;

GPUCOMPILE_DEF gpucompile_result gpucompile_target_parse(const char *text, size_t len,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_target **out) {
    gpucompile__parser p;
    gpucompile__owned_target *o = NULL;
    gpucompile_allocator a;
    const gpucompile_backend *b = NULL;
    const char *attr = "";
    int upstream = 0, i;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!text) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&a, 0, sizeof a);
    if (allocator) a = *allocator;
    memset(&p, 0, sizeof p);
    p.lx.s = text;
    p.lx.n = len == (size_t)-1 ? strlen(text) : len;
    p.lx.logger = logger;
    p.lx.stage = GPUCOMPILE_STAGE_TARGET;
    p.O = 2;
    p.strs.a = p.flags.a = p.links.a = p.values.a = p.val.a = &a;
    for (i = 0; i < GPUCOMPILE__P_COUNT; i++) p.str[i] = GPUCOMPILE__UNSET;
    if (memchr(text, 0, p.lx.n)) /* never valid: not whitespace, and strings cannot hold one */
        gpucompile_lex_error(&p.lx, (size_t)((const char *)memchr(text, 0, p.lx.n) - text), "unexpected NUL byte in the text");
    else b = gpucompile__pattr(&p, &upstream, &attr);
    if (p.strs.oom || p.flags.oom || p.links.oom || p.values.oom || p.val.oom) p.lx.result = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (p.lx.result == GPUCOMPILE_OK) {
        size_t nf = p.flags.len / sizeof(size_t), nl = p.links.len / sizeof(size_t);
        size_t head = sizeof(gpucompile__owned_target) + (2 * nf + nl) * sizeof(char *);
        o = (gpucompile__owned_target *)gpucompile_alloc(&a, head + p.strs.len);
        if (!o) p.lx.result = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        else {
            const char **flags = (const char **)(void *)(o + 1), **links = flags + nf, **values = links + nl;
            int any_value = 0;
            char *strs = (char *)o + head;
            size_t k;
            if (p.strs.len) memcpy(strs, p.strs.data, p.strs.len);
            o->t = gpucompile_target_defaults(b->kind);
            if (b->kind == GPUCOMPILE_TARGET_CUSTOM) o->t.backend = b; /* a registered custom backend */
            o->a = a;
            o->t.upstream = upstream;
            o->t.O = p.O;
            o->t.triple = p.str[GPUCOMPILE__P_TRIPLE] == GPUCOMPILE__UNSET ? NULL : strs + p.str[GPUCOMPILE__P_TRIPLE];
            o->t.chip = p.str[GPUCOMPILE__P_CHIP] == GPUCOMPILE__UNSET ? NULL : strs + p.str[GPUCOMPILE__P_CHIP];
            o->t.features = p.str[GPUCOMPILE__P_FEATURES] == GPUCOMPILE__UNSET ? NULL : strs + p.str[GPUCOMPILE__P_FEATURES];
            o->t.abi = p.str[GPUCOMPILE__P_ABI] == GPUCOMPILE__UNSET ? NULL : strs + p.str[GPUCOMPILE__P_ABI];
            for (k = 0; k < nf; k++) {
                size_t v = gpucompile__off(&p.values, k);
                flags[k] = strs + gpucompile__off(&p.flags, k);
                values[k] = v == GPUCOMPILE__UNSET ? NULL : strs + v;
                any_value |= v != GPUCOMPILE__UNSET;
            }
            for (k = 0; k < nl; k++) {
                size_t off = gpucompile__off(&p.links, k);
                links[k] = off == GPUCOMPILE__UNSET ? NULL : strs + off;
            }
            o->t.flags = nf ? flags : NULL;
            o->t.num_flags = (int)nf;
            o->t.flag_values = any_value ? values : NULL;
            o->t.link = nl ? links : NULL;
            o->t.num_link = (int)nl;
            o->t.no_verify_target = p.no_verify;
            *out = &o->t;
        }
    }
    if (p.lx.result == GPUCOMPILE_ERROR_OUT_OF_MEMORY)
        gpucompile__log(logger, GPUCOMPILE_SEVERITY_ERROR, p.lx.result, GPUCOMPILE_STAGE_TARGET, NULL, "out of memory while parsing a target");
    gpucompile_free(&a, p.strs.data);
    gpucompile_free(&a, p.flags.data);
    gpucompile_free(&a, p.links.data);
    gpucompile_free(&a, p.values.data);
    gpucompile_free(&a, p.val.data);
    return p.lx.result;
}

/* Only for targets made by gpucompile_target_parse. */
GPUCOMPILE_DEF void gpucompile_target_free(gpucompile_target *t) {
    gpucompile__owned_target *o = (gpucompile__owned_target *)(void *)t;
    gpucompile_allocator a;
    if (!t) return;
    a = o->a;
    gpucompile_free(&a, o);
}

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

/* ==== [section: built-in backends] ======================================================= */
/* The one place of the core's implementation that names the built-in backends (tests/
   cli_seam.sh checks it): what the public API keeps of them for existing users. Their code and
   knowledge are in gpucompile_nvptx.h and gpucompile_amdgpu.h, which register themselves with
   gpucompile_register_backend; a target kind other than GPUCOMPILE_TARGET_CUSTOM is only a
   short name for the backend registered with that kind. They register from the file that holds
   their implementation (a start-up function there), so the core refers to none of them: it is
   the same whether they are compiled in its file or each in one of their own. */
/* MLIR's flag queries of the built-in kinds, for users: NVVM's ftz (gpucompile_nvptx.h asks it
   too), and ROCDL's hasWave64, 64 unless no_wave64 (gpucompile_amdgpu.h decides the wave size by
   the chip and says why this rule is not it). */
GPUCOMPILE_DEF int gpucompile_target_ftz(const gpucompile_target *t) { return gpucompile_target_has_flag(t, "ftz"); }
GPUCOMPILE_DEF int gpucompile_target_wave64(const gpucompile_target *t) {
    return gpucompile_target_has_flag(t, "wave64") || !gpucompile_target_has_flag(t, "no_wave64");
}
/* gpucompile_device.compute_capability: an NVIDIA device named by its number (90: "sm_90"). */
GPUCOMPILE__PRIVATE void gpucompile__device_from_number(int compute_capability, char *out, size_t size) {
    snprintf(out, size, "sm_%d", compute_capability);
}
/* ==== [section: end of built-in backends] ================================================ */

/* ==== [section: backends registry] ======================================================= */
static const gpucompile_backend *gpucompile__backends[GPUCOMPILE__MAX_BACKENDS];
static const gpucompile_backend *gpucompile__initialized[GPUCOMPILE__MAX_BACKENDS * 2];

/* The key a registration replaces: a built-in kind, else the attribute name (else the name). */
GPUCOMPILE__PRIVATE int gpucompile__same_backend(const gpucompile_backend *a, const gpucompile_backend *b) {
    const char *x = a->attribute[0] ? a->attribute[0] : a->name, *y = b->attribute[0] ? b->attribute[0] : b->name;
    if (a->kind != GPUCOMPILE_TARGET_CUSTOM || b->kind != GPUCOMPILE_TARGET_CUSTOM) return a->kind == b->kind;
    return x && y && strcmp(x, y) == 0;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_backend_once(gpucompile_backend *table, void (*fill)(gpucompile_backend *t)) {
    gpucompile_backend t;
    gpucompile_lock();
    if (table->name) {
        gpucompile_unlock();
        return table;
    }
    gpucompile_unlock();
    memset(&t, 0, sizeof t);
    fill(&t); /* outside the lock: a fill may ask for another backend's table */
    gpucompile_lock();
    if (!table->name) *table = t;
    gpucompile_unlock();
    return table;
}

GPUCOMPILE_DEF void gpucompile_backend_names(gpucompile_backend *t, gpucompile_target_kind kind, const char *name, const char *attribute,
                                             const char *mlir_attribute, const char *triple, const char *chip) {
    int i;
    t->kind = kind;
    t->name = name;
    t->attribute[0] = attribute;
    t->attribute[1] = mlir_attribute;
    for (i = 0; i < 2; i++) {
        t->defaults[i].triple = triple;
        t->defaults[i].chip = chip;
    }
}

/* Kept in order: the built-in kinds by kind (so that listings do not depend on the order the
   constructors ran in), then the others as registered. */
GPUCOMPILE_DEF gpucompile_result gpucompile_register_backend(const gpucompile_backend *backend) {
    int i, n;
    gpucompile_result r = GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!backend) return r;
    gpucompile_lock();
    for (n = 0; n < GPUCOMPILE__MAX_BACKENDS && gpucompile__backends[n]; n++)
        if (gpucompile__same_backend(gpucompile__backends[n], backend)) break;
    if (n < GPUCOMPILE__MAX_BACKENDS && gpucompile__backends[n]) gpucompile__backends[n] = backend, r = GPUCOMPILE_OK;
    else if (n < GPUCOMPILE__MAX_BACKENDS) {
        for (i = n; i > 0 && backend->kind != GPUCOMPILE_TARGET_CUSTOM &&
                    (gpucompile__backends[i - 1]->kind == GPUCOMPILE_TARGET_CUSTOM || gpucompile__backends[i - 1]->kind > backend->kind); i--)
            gpucompile__backends[i] = gpucompile__backends[i - 1];
        gpucompile__backends[i] = backend;
        r = GPUCOMPILE_OK;
    }
    gpucompile_unlock();
    return r;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_find_backend(gpucompile_target_kind kind) {
    const gpucompile_backend *b = NULL;
    int i;
    gpucompile_lock();
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS && gpucompile__backends[i]; i++)
        if (gpucompile__backends[i]->kind == kind) b = gpucompile__backends[i];
    gpucompile_unlock();
    return b;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_find_backend_named(const char *name, size_t n, int *upstream) {
    const gpucompile_backend *b = NULL;
    int i, k;
    if (!name) return NULL;
    if (n == (size_t)-1) n = strlen(name);
    gpucompile_lock();
    for (i = 0; !b && i < GPUCOMPILE__MAX_BACKENDS && gpucompile__backends[i]; i++)
        for (k = 0; !b && k < 2; k++) {
            const char *a = gpucompile__backends[i]->attribute[k];
            if (a && strlen(a) == n && strncmp(a, name, n) == 0) {
                b = gpucompile__backends[i];
                if (upstream) *upstream = k;
            }
        }
    gpucompile_unlock();
    return b;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_backend_at(int i) {
    const gpucompile_backend *b;
    if (i < 0 || i >= GPUCOMPILE__MAX_BACKENDS) return NULL;
    gpucompile_lock();
    b = gpucompile__backends[i];
    gpucompile_unlock();
    return b;
}

/* The formats a backend makes (its table's bits; none given: llvm, isa and bin). */
GPUCOMPILE__PRIVATE unsigned gpucompile__formats(const gpucompile_backend *b) {
    return b->formats ? b->formats : 1u << GPUCOMPILE_FORMAT_LLVM | 1u << GPUCOMPILE_FORMAT_ISA | 1u << GPUCOMPILE_FORMAT_BIN;
}

GPUCOMPILE_DEF const char *gpucompile_format_ext(const gpucompile_target *t, gpucompile_format f) {
    static const char *const defaults[GPUCOMPILE_FORMAT_FATBIN + 1] = {"bin", "bc", "s", "bin", "fatbin"};
    const gpucompile_backend *b = t ? gpucompile__backend_of(t, NULL) : NULL;
    if ((unsigned)f > GPUCOMPILE_FORMAT_FATBIN) f = GPUCOMPILE_FORMAT_BIN;
    if (f == GPUCOMPILE_FORMAT_DEFAULT) f = GPUCOMPILE_FORMAT_BIN;
    return b && b->file_ext[f] ? b->file_ext[f] : defaults[f];
}

GPUCOMPILE_DEF size_t gpucompile_targets_help(char *buf, size_t size) {
    gpucompile_buf o;
    const gpucompile_backend *b;
    size_t n;
    int i, f;
    memset(&o, 0, sizeof o);
    for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++) {
        gpucompile_target t = gpucompile_target_defaults(b->kind);
        const char *h = b->help;
        if (!b->attribute[0]) continue;
        t.backend = b;
        gpucompile_buf_printf(&o, "  #%s<...>%s%s%s\n      formats:", b->attribute[0], b->attribute[1] ? ", #" : "",
                              b->attribute[1] ? b->attribute[1] : "", b->attribute[1] ? "<...>" : "");
        for (f = GPUCOMPILE_FORMAT_LLVM; f <= GPUCOMPILE_FORMAT_FATBIN; f++)
            if (gpucompile__formats(b) & 1u << f)
                gpucompile_buf_printf(&o, " %s (.%s)", gpucompile_format_string((gpucompile_format)f), gpucompile_format_ext(&t, (gpucompile_format)f));
        gpucompile_buf_printf(&o, "\n");
        if (b->select_score && b->device_help) gpucompile_buf_printf(&o, "      devices: %s\n", b->device_help);
        while (h && *h) {
            size_t len = strcspn(h, "\n");
            gpucompile_buf_printf(&o, "      %.*s\n", (int)len, h);
            h += len + (h[len] == '\n');
        }
    }
    n = o.len;
    if (size) snprintf(buf, size, "%s", o.data ? o.data : "");
    gpucompile_free(NULL, o.data);
    return n;
}

/* Runs backend->initialize once per process, under the lock (LLVM's target initialisation). */
GPUCOMPILE__PRIVATE void gpucompile__initialize(const gpucompile_backend *b) {
    int i;
    gpucompile_lock();
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS * 2; i++) {
        if (gpucompile__initialized[i] == b) break;
        if (!gpucompile__initialized[i]) {
            if (b->initialize) b->initialize();
            gpucompile__initialized[i] = b;
            break;
        }
    }
    gpucompile_unlock();
}

/* LLVM targets a backend looks up at run time (gpucompile_llvm_target_available): each one's
   four initialisers, found or not, remembered once per process. */
typedef struct gpucompile__llvm_target {
    char name[32];
    int found;
    void (*init[4])(void);
} gpucompile__llvm_target;
static gpucompile__llvm_target gpucompile__llvm_targets[GPUCOMPILE__MAX_BACKENDS];

/* The entry of name under the lock (NULL: the table is full). */
GPUCOMPILE__PRIVATE gpucompile__llvm_target *gpucompile__llvm_target_of(const char *name) {
    static const char *const parts[4] = {"TargetInfo", "Target", "TargetMC", "AsmPrinter"};
    gpucompile__llvm_target *t;
    char fn[96];
    int i, k;
    for (i = 0; i < GPUCOMPILE__MAX_BACKENDS; i++) {
        t = &gpucompile__llvm_targets[i];
        if (strcmp(t->name, name) == 0) return t;
        if (!t->name[0]) break;
    }
    if (i == GPUCOMPILE__MAX_BACKENDS || strlen(name) >= sizeof t->name) return NULL;
    snprintf(t->name, sizeof t->name, "%s", name);
    t->found = 1;
    for (k = 0; k < 4; k++) {
        snprintf(fn, sizeof fn, "LLVMInitialize%s%s", name, parts[k]);
        if (!gpucompile_dlfn(gpucompile_dlopen(NULL), fn, &t->init[k])) t->found = 0;
    }
    return t;
}

GPUCOMPILE_DEF int gpucompile_llvm_target_available(const char *name) {
    gpucompile__llvm_target *t;
    int found;
    if (!name || !*name) return 0;
    gpucompile_lock();
    t = gpucompile__llvm_target_of(name);
    found = t && t->found;
    gpucompile_unlock();
    return found;
}

GPUCOMPILE_DEF int gpucompile_llvm_target_initialize(const char *name) {
    int i, k;
    for (i = 0; name && i < GPUCOMPILE__MAX_BACKENDS && gpucompile__llvm_targets[i].name[0]; i++)
        if (strcmp(gpucompile__llvm_targets[i].name, name) == 0 && gpucompile__llvm_targets[i].found) {
            for (k = 0; k < 4; k++) gpucompile__llvm_targets[i].init[k]();
            return 1;
        }
    return 0;
}

/* ==== [section: objects] ================================================================= */
/* Is the target text spelled with MLIR's upstream attribute name (its backend's attribute[1])? */
GPUCOMPILE__PRIVATE int gpucompile__bin_upstream(const char *target) {
    int upstream = 0;
    if (!target || *target != '#') return 0;
    return gpucompile_find_backend_named(target + 1, strcspn(target + 1, "< \t\r\n"), &upstream) && upstream;
}

/* An empty object that remembers its allocator (NULL: malloc's); NULL when out of memory. */
GPUCOMPILE__PRIVATE gpucompile_object *gpucompile__object_alloc(const gpucompile_allocator *a) {
    gpucompile_object *o = (gpucompile_object *)gpucompile_alloc(a, sizeof *o);
    if (!o) return NULL;
    memset(o, 0, sizeof *o);
    if (a) o->allocator = *a;
    return o;
}

/* Parses target text (len bytes) and prints it canonically; kind, triple and chip come along. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_object_new(const char *target, size_t len, gpucompile_format format,
    const void *data, size_t size, const gpucompile_allocator *a, const gpucompile_logger *logger, gpucompile_object **out) {
    gpucompile_target *t = NULL;
    gpucompile_object *o;
    gpucompile_result r;
    char small[1024];
    size_t n;
    *out = NULL;
    if (!target || (!data && size)) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if ((r = gpucompile_target_parse(target, len, a, logger, &t)) != GPUCOMPILE_OK) return r;
    if (!(o = gpucompile__object_alloc(a))) { gpucompile_target_free(t); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    n = gpucompile_target_print(t, small, sizeof small);
    o->target = (char *)gpucompile_alloc(a, n + 1);
    if (o->target) gpucompile_target_print(t, o->target, n + 1);
    o->kind = t->kind;
    o->triple = gpucompile__strdup(a, gpucompile_target_triple(t));
    o->chip = gpucompile__strdup(a, gpucompile_target_chip(t));
    o->format = format ? format : GPUCOMPILE_FORMAT_BIN;
    o->data = (unsigned char *)gpucompile_alloc(a, size + 1);
    if (o->data) {
        if (size) memcpy(o->data, data, size);
        o->data[size] = 0;
        o->size = size;
    }
    gpucompile_target_free(t);
    if (!o->target || !o->triple || !o->chip || !o->data) { gpucompile_object_free(o); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    *out = o;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_create(const char *target, gpucompile_format format,
    const void *data, size_t size, const gpucompile_allocator *allocator, gpucompile_object **out) {
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile__bin_object_new(target, (size_t)-1, format, data, size, allocator, NULL, out);
}

/* gpucompile_kernel's int fields in their order: a new kernel's are -1 (unknown), and the cache
   stores them in this order. */
#define GPUCOMPILE__KERNEL_INTS(X) \
    X(num_params) X(registers) X(shared_bytes) X(max_threads) X(sgprs) X(vgprs) X(private_bytes) X(wavefront_size) \
    X(kernarg_bytes) X(dynamic_shared)
#define GPUCOMPILE__KERNEL_UNKNOWN(f) k->f = -1;
#define GPUCOMPILE__KERNEL_COUNT(f) +1

/* A kernel nothing is known of yet: no name, no text, every number -1. */
GPUCOMPILE__PRIVATE void gpucompile__kernel_init(gpucompile_kernel *k) {
    memset(k, 0, sizeof *k);
    GPUCOMPILE__KERNEL_INTS(GPUCOMPILE__KERNEL_UNKNOWN)
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_add_kernel_n(gpucompile_object *o, const char *name, size_t len) {
    gpucompile_kernel *k = (gpucompile_kernel *)gpucompile__realloc(&o->allocator, o->kernels, (size_t)(o->num_kernels + 1) * sizeof *k);
    if (!k) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    o->kernels = k;
    k += o->num_kernels;
    gpucompile__kernel_init(k);
    if (!(k->name = gpucompile__strndup(&o->allocator, name, len))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    o->num_kernels++;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_add_kernel(gpucompile_object *obj, const char *name) {
    if (!obj || !name) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return gpucompile_object_add_kernel_n(obj, name, strlen(name));
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_find_kernels(gpucompile_object *obj) {
    const gpucompile_backend *be;
    if (!obj) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (obj->num_kernels) return GPUCOMPILE_OK;
    be = gpucompile__backend_of(NULL, obj);
    return be && be->find_kernels ? be->find_kernels(obj) : GPUCOMPILE_OK;
}

GPUCOMPILE_DEF void gpucompile_object_free(gpucompile_object *obj) {
    gpucompile_allocator a;
    int i;
    if (!obj) return;
    a = obj->allocator;
    for (i = 0; i < obj->num_kernels; i++) {
        gpucompile_free(&a, obj->kernels[i].name);
        gpucompile_free(&a, obj->kernels[i].type);
        gpucompile_free(&a, obj->kernels[i].arg_attrs);
        gpucompile_free(&a, obj->kernels[i].metadata);
    }
    gpucompile_free(&a, obj->kernels);
    gpucompile_free(&a, obj->properties);
    gpucompile_free(&a, obj->target);
    gpucompile_free(&a, obj->triple);
    gpucompile_free(&a, obj->chip);
    gpucompile_free(&a, obj->data);
    gpucompile_free(&a, obj);
}

GPUCOMPILE_DEF int gpucompile_kernel_cmp(const void *a, const void *b) {
    return strcmp(((const gpucompile_kernel *)a)->name, ((const gpucompile_kernel *)b)->name);
}

GPUCOMPILE_DEF unsigned gpucompile_elf_sections(const void *elf, size_t size, const char **why) {
    const unsigned char *e = (const unsigned char *)elf, *h;
    uint64_t shoff, shnum, off, sz;
    const char *bad = "not an ELF64 little-endian file";
    if (size >= 64 && memcmp(e, "\177ELF\2\1", 6) == 0) {
        shoff = gpucompile_read_le(e + 40, 8);
        shnum = gpucompile_read_le(e + 60, 2);
        bad = "bad section headers";
        if (gpucompile_read_le(e + 58, 2) == 64 && shnum && shoff <= size && shnum * 64 <= size - shoff) {
            bad = "bad section name table";
            if (gpucompile_read_le(e + 62, 2) < shnum) {
                h = e + shoff + 64 * gpucompile_read_le(e + 62, 2);
                off = gpucompile_read_le(h + 24, 8);
                sz = gpucompile_read_le(h + 32, 8);
                if (off <= size && sz && sz <= size - off && e[off + sz - 1] == 0) return (unsigned)shnum;
            }
        }
    }
    if (why) *why = bad;
    return 0;
}

GPUCOMPILE_DEF const char *gpucompile_elf_read_section(const void *elf, size_t size, unsigned i, gpucompile_elf_section *s) {
    const unsigned char *e = (const unsigned char *)elf, *h, *names;
    const char *why = "no such section";
    uint64_t shoff, name, names_size;
    memset(s, 0, sizeof *s);
    s->name = "";
    if (i >= gpucompile_elf_sections(elf, size, &why)) return why; /* the checks that make the reads below safe */
    shoff = gpucompile_read_le(e + 40, 8);
    h = e + shoff + 64 * gpucompile_read_le(e + 62, 2);
    names = e + gpucompile_read_le(h + 24, 8);
    names_size = gpucompile_read_le(h + 32, 8);
    h = e + shoff + 64 * (uint64_t)i;
    s->header = (size_t)(h - e);
    name = gpucompile_read_le(h, 4);
    s->type = (uint32_t)gpucompile_read_le(h + 4, 4);
    s->flags = gpucompile_read_le(h + 8, 8);
    s->addr = gpucompile_read_le(h + 16, 8);
    s->offset = gpucompile_read_le(h + 24, 8);
    s->size = gpucompile_read_le(h + 32, 8);
    s->link = (uint32_t)gpucompile_read_le(h + 40, 4);
    s->info = (uint32_t)gpucompile_read_le(h + 44, 4);
    s->align = gpucompile_read_le(h + 48, 8);
    s->entsize = gpucompile_read_le(h + 56, 8);
    if (name < names_size) s->name = (const char *)names + name;
    if (s->type != 8 /* SHT_NOBITS */) {
        if (s->offset > size || s->size > size - s->offset) return "a section outside the file";
        s->data = e + s->offset;
    }
    return name < names_size ? NULL : "bad section name";
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
    char **deps;                   /* files the result depends on (for the cache) */
    int num_deps, cap_deps;
    int track_deps;                /* someone needs deps: the cache, or a worker's parent */
    double stage_start;
    char *save_dir;                /* options.save_temps: this job's directory ([section: save-temps]) */
    gpucompile_buf repro;         /* the binary step's tool lines for repro.sh */
    int tool_runs;
    gpucompile_result llvm_error;  /* the first error diagnostic of LLVM's (the context's handler) */
    /* options.cache_secret_file's keys ([section: cache]): the cache key's, then the entry
       tag's; wiped when the compile ends */
    unsigned char cache_keys[64];
    int keyed;
} gpucompile__job;

/* A dependency on a tool, by the name it was run as (the cache's identity for it). */
#define GPUCOMPILE__TOOL_DEP "\001tool "


/* LLVM echoes input lines in its messages: control bytes and invalid UTF-8 become '?' so that
   a logger printing them cannot be fed terminal escapes or mojibake. */
GPUCOMPILE__PRIVATE void gpucompile__printable(char *s) {
    unsigned char *p = (unsigned char *)s;
    while (*p) {
        int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 : (*p & 0xF8) == 0xF0 ? 3 : -1, k;
        for (k = 1; k <= n; k++)
            if ((p[k] & 0xC0) != 0x80) { n = -1; break; }
        if (n < 0 || (n == 0 && ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f))) { *p++ = '?'; continue; }
        p += n + 1;
    }
}

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
    gpucompile__printable(msg);
    gpucompile__log(j->logger, sev, res, job->stage, origin, msg);
}

GPUCOMPILE_DEF void *gpucompile_job_alloc(gpucompile_job *job, size_t size) {
    return gpucompile_alloc(&((gpucompile__job *)job)->opts.allocator, size);
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
        if (LLVMIsDeclaration(v) && gpucompile__starts_with(gpucompile_value_name(v), prefix)) return 1;
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v))
        if (LLVMIsDeclaration(v) && gpucompile__starts_with(gpucompile_value_name(v), prefix)) return 1;
    return 0;
}

GPUCOMPILE_DEF void gpucompile_job_set_module_flag(gpucompile_job *job, LLVMModuleFlagBehavior behavior, const char *key, int value) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(job->context);
    LLVMMetadataRef v = LLVMValueAsMetadata(LLVMConstInt(i32, (unsigned long long)value, 0));
    unsigned i, n = LLVMGetNamedMetadataNumOperands(job->module, "llvm.module.flags");
    size_t len = strlen(key);
    LLVMValueRef *ops;
    if (!n || !LLVMGetModuleFlag(job->module, key, len)) {
        LLVMAddModuleFlag(job->module, behavior, key, len, v);
        return;
    }
    if (!(ops = (LLVMValueRef *)gpucompile_job_alloc(job, n * sizeof *ops))) return;
    LLVMGetNamedMetadataOperands(job->module, "llvm.module.flags", ops);
    for (i = 0; i < n; i++) {
        LLVMValueRef name = LLVMGetNumOperands(ops[i]) == 3 ? LLVMGetOperand(ops[i], 1) : NULL;
        unsigned l = 0;
        const char *s = name && LLVMIsAMDString(name) ? LLVMGetMDString(name, &l) : NULL;
        if (s && l == len && memcmp(s, key, len) == 0) {
            /* the metadata numbers behaviours from 1, the C API's enum from 0 */
            LLVMReplaceMDNodeOperandWith(ops[i], 0, LLVMValueAsMetadata(LLVMConstInt(i32, (unsigned)behavior + 1, 0)));
            LLVMReplaceMDNodeOperandWith(ops[i], 2, v);
            break;
        }
    }
    gpucompile_job_free(job, ops);
}

GPUCOMPILE_DEF const char *gpucompile_job_tool_path(gpucompile_job *job, const char *name) {
    const gpucompile_options *o = job->options;
    int i;
    for (i = 0; i < o->num_tools; i++)
        if (o->tools[i].name && o->tools[i].path && strcmp(o->tools[i].name, name) == 0) return o->tools[i].path;
    return NULL;
}

GPUCOMPILE_DEF int gpucompile_job_tool_options(gpucompile_job *job, char *buf, size_t size, const char **words, int max) {
    const char *s = job->options->tool_options;
    size_t at = 0;
    int n = 0;
    while (s && *s) {
        size_t len = 0;
        while (*s == ' ' || *s == '\t' || *s == '\n') s++;
        while (s[len] && s[len] != ' ' && s[len] != '\t' && s[len] != '\n') len++;
        if (!len) break;
        if (n == max || at + len + 1 > size) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, NULL, "too many tool options: '%s'",
                               job->options->tool_options);
            return -1;
        }
        memcpy(buf + at, s, len);
        buf[at + len] = 0;
        words[n++] = buf + at;
        at += len + 1;
        s += len;
    }
    return n;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_flag_strings(gpucompile_job *job, const char *flag, char ***list, int *count) {
    const char *text = gpucompile_target_flag_value(job->target, flag);
    gpucompile__parser p;
    gpucompile_buf offs;
    size_t n, k;
    int c, array;
    *list = NULL;
    *count = 0;
    if (!text) return GPUCOMPILE_OK;
    memset(&p, 0, sizeof p);
    memset(&offs, 0, sizeof offs);
    p.lx.s = text;
    p.lx.n = strlen(text);
    p.lx.stage = GPUCOMPILE_STAGE_TARGET;
    p.strs.a = offs.a = &job->options->allocator;
    array = gpucompile_lex_ws(&p.lx) == '[';
    if (array) p.lx.pos++;
    for (c = gpucompile_lex_ws(&p.lx); p.lx.result == GPUCOMPILE_OK && !(array && c == ']' && !offs.len);) {
        size_t off;
        if (c != '"' || !gpucompile__pstring(&p, &off)) { p.lx.result = GPUCOMPILE_ERROR_PARSE; break; }
        gpucompile_buf_add(&offs, &off, sizeof off);
        c = gpucompile_lex_ws(&p.lx);
        if (!array || c == ']') break;
        if (c != ',') p.lx.result = GPUCOMPILE_ERROR_PARSE;
        p.lx.pos++;
        c = gpucompile_lex_ws(&p.lx);
    }
    if (array && p.lx.result == GPUCOMPILE_OK) p.lx.pos++; /* the ']' */
    n = offs.len / sizeof(size_t);
    if (p.lx.result != GPUCOMPILE_OK || gpucompile_lex_ws(&p.lx) >= 0 || n > 256) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_TARGET, NULL,
                           "flag '%s' = %.200s: expected a string or an array of at most 256 strings", flag, text);
        p.lx.result = GPUCOMPILE_ERROR_INVALID_TARGET;
    } else if (n && !p.strs.oom && !offs.oom && (*list = (char **)gpucompile_job_alloc(job, n * sizeof(char *) + p.strs.len)) != NULL) {
        char *strs = (char *)(*list + n);
        memcpy(strs, p.strs.data, p.strs.len);
        for (k = 0; k < n; k++) (*list)[k] = strs + gpucompile__off(&offs, k);
        *count = (int)n;
    } else if (n) p.lx.result = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    gpucompile_free(p.strs.a, p.strs.data);
    gpucompile_free(offs.a, offs.data);
    return p.lx.result;
}

GPUCOMPILE_DEF void gpucompile_job_add_dependency(gpucompile_job *job, const char *path) {
    gpucompile__job *j = (gpucompile__job *)job;
    int i;
    for (i = 0; i < j->num_deps; i++)
        if (strcmp(j->deps[i], path) == 0) return;
    gpucompile__push_str(j, &j->deps, &j->num_deps, &j->cap_deps, path);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_temp_file(gpucompile_job *job, const char *suffix, char *buf, size_t size) {
    gpucompile__job *j = (gpucompile__job *)job;
    char prefix[4096];
    FILE *f;
    gpucompile_sweep_temp_files(); /* the first compile that uses $TMPDIR (once per process) */
    snprintf(prefix, sizeof prefix, "%s/gpucompile-", gpucompile__tmpdir());
    f = gpucompile__create_unique(prefix, suffix, buf, size, 0600);
    if (!f) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_IO, NULL,
                           "cannot create a temporary file in %s", gpucompile__tmpdir());
        return GPUCOMPILE_ERROR_IO;
    }
    fclose(f);
    if (!gpucompile__push_str(j, &j->temps, &j->num_temps, &j->cap_temps, buf)) {
        gpucompile__untemp(buf, 0);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    return GPUCOMPILE_OK;
}

/* Fills a gpucompile_job_temp_file in place, so it keeps its 0600 mode (gpucompile_write_file
   would rename a new, umask-mode file over it). */
GPUCOMPILE_DEF gpucompile_result gpucompile_job_write_temp(gpucompile_job *job, const char *path, const void *data, size_t size) {
    FILE *f = fopen(path, "wb");
    int bad = !f || (size && fwrite(data, 1, size, f) != size);
    if (f) bad |= fclose(f) != 0;
    if (bad) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_IO, NULL, "cannot write '%s'", path);
    return bad ? GPUCOMPILE_ERROR_IO : GPUCOMPILE_OK;
}

/* A tool's argv as one shell line (cwd: "cd DIR && ..."; subshell: in parentheses, so that a
   script's later lines keep their directory). */
GPUCOMPILE__PRIVATE void gpucompile__command_line(gpucompile_buf *b, const char *cwd, const char *const *argv, int subshell) {
    int i;
    if (cwd) {
        gpucompile_buf_str(b, subshell ? "(cd " : "cd ");
        gpucompile_buf_shell_quote(b, cwd);
        gpucompile_buf_str(b, " && ");
    }
    for (i = 0; argv[i]; i++) {
        if (i) gpucompile_buf_str(b, " ");
        gpucompile_buf_shell_quote(b, argv[i]);
    }
    if (cwd && subshell) gpucompile_buf_str(b, ")");
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_run_tool(gpucompile_job *job, const char *const *argv, double timeout_s,
                                                         int *status, char **output, size_t *output_size) {
    return gpucompile_job_run_tool_in(job, NULL, argv, timeout_s, status, output, output_size);
}

GPUCOMPILE__PRIVATE void gpucompile__save_tool(gpucompile_job *job, const char *cwd, const char *const *argv, gpucompile_buf *out);
GPUCOMPILE_DEF gpucompile_result gpucompile_job_run_tool_in(gpucompile_job *job, const char *cwd, const char *const *argv,
                                                            double timeout_s, int *status, char **output, size_t *output_size) {
    gpucompile__job *j = (gpucompile__job *)job;
    gpucompile_buf out, cmd;
    gpucompile_result r;
    int st = -1;
    if (output) *output = NULL;
    if (output_size) *output_size = 0;
    if (!argv || !argv[0]) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile_sweep_temp_files(); /* a tool may write into $TMPDIR: the first compile running one sweeps */
    if (timeout_s <= 0) timeout_s = j->opts.tool_timeout_s;
    memset(&out, 0, sizeof out);
    out.a = &j->opts.allocator;
    memset(&cmd, 0, sizeof cmd);
    cmd.a = &j->opts.allocator;
    gpucompile__command_line(&cmd, cwd, argv, 0);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "running: %s", cmd.data ? cmd.data : "");
    if (j->track_deps && strlen(argv[0]) < 4000) { /* the cache knows a tool by its version */
        char dep[4096];
        snprintf(dep, sizeof dep, "%s%s", GPUCOMPILE__TOOL_DEP, argv[0]);
        gpucompile_job_add_dependency(job, dep);
    }
    r = gpucompile__spawn(&j->opts.allocator, argv, timeout_s, &st, &out, cwd, NULL, NULL, 1);
    gpucompile_buf_add(&out, NULL, 0);
    if (j->save_dir) gpucompile__save_tool(job, cwd, argv, &out);
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

/* Logs an error and returns r: the one way the pipeline fails. */
GPUCOMPILE_DEF gpucompile_result gpucompile_job_fail(gpucompile_job *job, gpucompile_result r, const char *fmt, ...) {
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, r, NULL, "%s", msg);
    return r;
}

/* ==== [section: library index] =========================================================== */
/* Each bitcode library once per process: its bytes in memory and the sorted names of what it
   defines, keyed by path, size and mtime (a changed file gets a new entry). A compile skips a
   library that defines nothing the module declares (lazy linking would take nothing from it:
   ~10 ms saved per compile for libclc) and parses the lazy module from memory. Entries live as
   long as the process: lazy modules point into their bytes, other threads may be reading them. */
typedef struct gpucompile__lib {
    struct gpucompile__lib *next;
    char *path;
    uint64_t size;
    int64_t mtime;
    unsigned char *data;
    char **names;  /* sorted */
    int num_names;
} gpucompile__lib;
static gpucompile__lib *gpucompile__libs;

GPUCOMPILE__PRIVATE int gpucompile__lib_cmp(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPUCOMPILE__PRIVATE void gpucompile__lib_quiet(LLVMDiagnosticInfoRef di, void *user) { (void)di; (void)user; }

GPUCOMPILE__PRIVATE void gpucompile__lib_free(gpucompile__lib *e) {
    int i;
    if (!e) return;
    for (i = 0; i < e->num_names; i++) gpucompile_free(NULL, e->names[i]);
    gpucompile_free(NULL, e->names);
    gpucompile_free(NULL, e->path);
    gpucompile_free(NULL, e->data);
    gpucompile_free(NULL, e);
}

/* Reads and indexes path; NULL when it is not readable bitcode (the caller then reports it). */
GPUCOMPILE__PRIVATE gpucompile__lib *gpucompile__lib_load(const char *path, uint64_t size, int64_t mtime) {
    gpucompile__lib *e = (gpucompile__lib *)gpucompile_alloc(NULL, sizeof *e);
    LLVMContextRef ctx;
    LLVMMemoryBufferRef mb;
    LLVMModuleRef m = NULL;
    LLVMValueRef v;
    size_t n = 0;
    int pass, ok = 1;
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->path = gpucompile__strdup(NULL, path);
    if (!e->path || gpucompile_read_file(path, NULL, &e->data, &n) != GPUCOMPILE_OK || n != size) {
        gpucompile__lib_free(e);
        return NULL;
    }
    e->size = size;
    e->mtime = mtime;
    ctx = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(ctx, gpucompile__lib_quiet, NULL); /* else LLVM exits on errors */
    mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)e->data, n, path, 0);
    if (LLVMGetBitcodeModuleInContext2(ctx, mb, &m) || !m) {
        LLVMDisposeMemoryBuffer(mb);
        LLVMContextDispose(ctx);
        gpucompile__lib_free(e);
        return NULL;
    }
    for (pass = 0; pass < 2 && ok; pass++) { /* count, then copy */
        int k = 0;
        for (v = LLVMGetFirstFunction(m); v; v = LLVMGetNextFunction(v)) {
            if (LLVMIsDeclaration(v) || LLVMGetLinkage(v) == LLVMInternalLinkage || LLVMGetLinkage(v) == LLVMPrivateLinkage) continue;
            if (pass && !(e->names[k] = gpucompile__strdup(NULL, gpucompile_value_name(v)))) ok = 0;
            k++;
        }
        for (v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v)) {
            if (LLVMIsDeclaration(v) || LLVMGetLinkage(v) == LLVMInternalLinkage || LLVMGetLinkage(v) == LLVMPrivateLinkage) continue;
            if (pass && !(e->names[k] = gpucompile__strdup(NULL, gpucompile_value_name(v)))) ok = 0;
            k++;
        }
        for (v = LLVMGetFirstGlobalAlias(m); v; v = LLVMGetNextGlobalAlias(v)) {
            if (pass && !(e->names[k] = gpucompile__strdup(NULL, gpucompile_value_name(v)))) ok = 0;
            k++;
        }
        if (!pass) {
            e->names = (char **)gpucompile_alloc(NULL, (size_t)(k ? k : 1) * sizeof(char *));
            if (!e->names) ok = 0;
            else { memset(e->names, 0, (size_t)(k ? k : 1) * sizeof(char *)); e->num_names = k; }
        }
    }
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    if (!ok) { gpucompile__lib_free(e); return NULL; }
    qsort(e->names, (size_t)e->num_names, sizeof(char *), gpucompile__lib_cmp);
    return e;
}

/* The index entry of path as it is now; NULL: read it the plain way. A library is indexed the
   second time a process links it: a single compile pays nothing for the index. */
GPUCOMPILE__PRIVATE const gpucompile__lib *gpucompile__lib_get(const char *path) {
    gpucompile__lib *e, *made = NULL;
    uint64_t size;
    int64_t mtime;
    if (!gpucompile__stat(path, &size, &mtime)) return NULL;
    gpucompile_lock();
    for (e = gpucompile__libs; e; e = e->next)
        if (e->size == size && e->mtime == mtime && strcmp(e->path, path) == 0) break;
    if (!e && (e = (gpucompile__lib *)gpucompile_alloc(NULL, sizeof *e)) != NULL) { /* first sight */
        memset(e, 0, sizeof *e);
        e->size = size;
        e->mtime = mtime;
        e->path = gpucompile__strdup(NULL, path);
        if (e->path) { e->next = gpucompile__libs; gpucompile__libs = e; }
        else gpucompile_free(NULL, e);
        e = NULL;
    } else if (e && !e->names) {
        made = e; /* seen before: index it, outside the lock (other compiles go on) */
        e = NULL;
    }
    gpucompile_unlock();
    if (!made) return e;
    e = made;
    made = gpucompile__lib_load(path, size, mtime);
    if (!made) return NULL;
    gpucompile_lock();
    if (!e->names) { /* another thread may have been quicker */
        e->data = made->data;
        e->names = made->names;
        e->num_names = made->num_names;
        made->data = NULL;
        made->names = NULL;
        made->num_names = 0;
    }
    gpucompile_unlock();
    gpucompile__lib_free(made);
    return e;
}

/* Does the module declare anything the library defines? */
GPUCOMPILE__PRIVATE int gpucompile__lib_needed(gpucompile_job *job, const gpucompile__lib *e) {
    LLVMValueRef v;
    int pass;
    for (pass = 0; pass < 2; pass++)
        for (v = pass ? LLVMGetFirstGlobal(job->module) : LLVMGetFirstFunction(job->module); v;
             v = pass ? LLVMGetNextGlobal(v) : LLVMGetNextFunction(v)) {
            const char *name;
            if (!LLVMIsDeclaration(v)) continue;
            name = gpucompile_value_name(v);
            if (bsearch(&name, e->names, (size_t)e->num_names, sizeof(char *), gpucompile__lib_cmp)) return 1;
        }
    return 0;
}

/* ==== [section: pipeline] ================================================================ */
GPUCOMPILE__PRIVATE void gpucompile__set_stage(gpucompile_job *job, gpucompile_stage s) {
    gpucompile__job *j = (gpucompile__job *)job;
    double now = gpucompile__now_ms();
    if (job->object) job->object->stage_ms[job->stage] += now - j->stage_start;
    j->stage_start = now;
    job->stage = s;
}

/* One of LLVM's diagnostics as the job's. */
GPUCOMPILE__PRIVATE void gpucompile__llvm_diag(gpucompile_job *job, LLVMDiagnosticSeverity severity, const char *msg) {
    switch (severity) {
    case LLVMDSError: /* LLVM may report it and still succeed: the step that ran checks */
        if (!((gpucompile__job *)job)->llvm_error) ((gpucompile__job *)job)->llvm_error = GPUCOMPILE_ERROR_LLVM;
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
}

GPUCOMPILE__PRIVATE void gpucompile__diag_handler(LLVMDiagnosticInfoRef di, void *user) {
    char *msg = LLVMGetDiagInfoDescription(di);
    gpucompile__llvm_diag((gpucompile_job *)user, LLVMGetDiagInfoSeverity(di), msg);
    LLVMDisposeMessage(msg);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__hook(gpucompile_job *job,
    gpucompile_result (*fn)(gpucompile_job *, LLVMModuleRef, void *), const char *name) {
    gpucompile_result r;
    if (!fn) return GPUCOMPILE_OK;
    r = fn(job, job->module, job->options->hooks->user_data);
    if (r != GPUCOMPILE_OK && !job->failed) gpucompile_job_fail(job, r, "the %s hook stopped the compile", name);
    return r;
}

/* Parses IR text or bitcode into the job's context. Takes nothing from the caller. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__parse(gpucompile_job *job, const void *data, size_t size, const char *name) {
    LLVMMemoryBufferRef mb;
    char *msg = NULL;
    const unsigned char *d = (const unsigned char *)data;
    if (!data || size == 0) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: empty input", name);
    mb = LLVMCreateMemoryBufferWithMemoryRangeCopy((const char *)data, size, name);
    /* LLVMParseIRInContext takes ownership of mb, whatever happens. */
    if (LLVMParseIRInContext(job->context, mb, &job->module, &msg)) {
        int bitcode = size >= 4 && ((d[0] == 'B' && d[1] == 'C') || (d[0] == 0xDE && d[1] == 0xC0));
        gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: %s: %s", name,
                                               bitcode ? "invalid or truncated bitcode" : "invalid LLVM IR", msg ? msg : "parse failed");
        if (msg) LLVMDisposeMessage(msg);
        job->module = NULL;
        return r;
    }
    if (((gpucompile__job *)job)->llvm_error) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: could not be read", name);
    return GPUCOMPILE_OK;
}

/* The job's target machine (one more for each partition's thread). */
GPUCOMPILE__PRIVATE LLVMTargetMachineRef gpucompile__machine(gpucompile_job *job, LLVMTargetRef t) {
    LLVMCodeGenOptLevel levels[4] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
    return LLVMCreateTargetMachine(t, gpucompile_target_triple(job->target), job->cpu, job->features,
                                   job->backend->emit_unoptimized ? LLVMCodeGenLevelNone : levels[job->target->O & 3],
                                   LLVMRelocDefault, LLVMCodeModelDefault);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__setup(gpucompile_job *job) {
    LLVMTargetRef t;
    char *msg = NULL;
    const char *triple = gpucompile_target_triple(job->target);
    LLVMTargetDataRef dl;
    char *dls;
    LLVMValueRef fn;
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "target triple '%s': %s", triple, msg ? msg : "unknown");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    job->machine = gpucompile__machine(job, t);
    if (!job->machine) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "cannot create a target machine for '%s'", triple);
    {   /* a module written for another architecture (an x86-64 module given to a GPU backend) */
        const char *had = LLVMGetTarget(job->module);
        size_t n = strcspn(triple, "-");
        const gpucompile_backend *b = gpucompile__backend_of(job->target, NULL);
        if (had && *had && (strncmp(had, triple, n) != 0 || (had[n] != '-' && had[n] != 0)) &&
            !(b && b->input_triples && gpucompile_triple_in(b->input_triples, had)))
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL,
                               "the module's triple '%s' names another target than '%s': compiled for '%s'", had, triple, triple);
    }
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
    if (cc == 71 || cc == 91) return 1; /* LLVM's two GPU kernel calling conventions */
    return LLVMGetLinkage(fn) == LLVMExternalLinkage;
}

/* A visible symbol's name the backend cannot emit (local ones LLVM renames itself): why. */
GPUCOMPILE__PRIVATE const char *gpucompile__bad_name(gpucompile_job *job, LLVMValueRef v) {
    LLVMLinkage l = LLVMGetLinkage(v);
    if (!job->backend->bad_symbol_name || l == LLVMInternalLinkage || l == LLVMPrivateLinkage) return NULL;
    if (LLVMIsDeclaration(v) && !LLVMGetFirstUse(v)) return NULL;
    return job->backend->bad_symbol_name(gpucompile_value_name(v));
}

/* Does name start with one of the comma-separated prefixes? */
GPUCOMPILE__PRIVATE int gpucompile__has_prefix(const char *list, const char *name) {
    const char *p = list;
    while (p && *p) {
        size_t n = strcspn(p, ",");
        if (n && strncmp(name, p, n) == 0) return 1;
        p += n;
        if (*p) p++;
    }
    return 0;
}

/* Valid IR that LLVM 19's code generators abort on (report_fatal_error, "Cannot select") or
   crash on, found by tests/cli_battery.sh and the fuzzers: a type (fp128, x86_fp80, ppc_fp128),
   and what the backend's rules add (address spaces, instructions). Returns a reason or NULL.
   Not exhaustive: options.isolate is the answer for untrusted input. */
GPUCOMPILE__PRIVATE const char *gpucompile__bad_type(const gpucompile_code_rules *rules, LLVMTypeRef t) {
    switch (LLVMGetTypeKind(t)) {
    case LLVMFP128TypeKind: case LLVMX86_FP80TypeKind: case LLVMPPC_FP128TypeKind:
        return "128-bit and 80-bit floating-point types";
    case LLVMVectorTypeKind: return gpucompile__bad_type(rules, LLVMGetElementType(t));
    case LLVMPointerTypeKind:
        return rules->bad_address_space ? rules->bad_address_space(LLVMGetPointerAddressSpace(t)) : NULL;
    default: return NULL;
    }
}

GPUCOMPILE__PRIVATE const char *gpucompile__bad_instruction(const gpucompile_code_rules *rules, LLVMValueRef in) {
    const char *why = gpucompile__bad_type(rules, LLVMTypeOf(in));
    int i, n = LLVMGetNumOperands(in);
    for (i = 0; i < n && !why; i++) why = gpucompile__bad_type(rules, LLVMTypeOf(LLVMGetOperand(in, (unsigned)i)));
    if (!why && rules->bad_instruction) why = rules->bad_instruction(in);
    return why;
}

GPUCOMPILE__PRIVATE int gpucompile__check_code(gpucompile_job *job) {
    const gpucompile_code_rules *rules = job->backend->code_rules;
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(job->module);
    unsigned long long max_param = rules ? rules->max_param_bytes : 0;
    LLVMValueRef fn, g, in;
    if (!rules) return 0;
    if (rules->bad_metadata && rules->bad_metadata(job)) return 1;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        unsigned i, n = LLVMIsDeclaration(fn) ? 0 : LLVMCountParams(fn);
        for (i = 0; i < n; i++) {
            LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
            LLVMTypeKind tk = LLVMGetTypeKind(t);
            if (max_param && (tk == LLVMStructTypeKind || tk == LLVMArrayTypeKind) && LLVMStoreSizeOfType(dl, t) > max_param) {
                gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNSUPPORTED, NULL,
                                   "function '%s': parameter %u passes %llu bytes by value (at most %llu for %s)", gpucompile_value_name(fn),
                                   i + 1, LLVMStoreSizeOfType(dl, t), max_param, gpucompile_target_triple(job->target));
                return 1;
            }
        }
    }
    for (g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g)) {
        const char *why = LLVMIsThreadLocal(g) && LLVMGetFirstUse(g) ? "thread-local storage" : gpucompile__bad_type(rules, LLVMTypeOf(g));
        if (!why) why = gpucompile__bad_type(rules, LLVMGlobalGetValueType(g));
        if (!why && rules->bad_global) why = rules->bad_global(g);
        if (why) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNSUPPORTED, NULL,
                               "global '%s': LLVM cannot compile it for %s: %s", gpucompile_value_name(g), gpucompile_target_triple(job->target), why);
            return 1;
        }
    }
    for (in = gpucompile_next_instruction(job->module, NULL); in; in = gpucompile_next_instruction(job->module, in)) {
        const char *why = gpucompile__bad_instruction(rules, in);
        if (why) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNSUPPORTED, NULL, "function '%s': LLVM cannot compile it for %s: %s",
                               gpucompile_value_name(LLVMGetBasicBlockParent(LLVMGetInstructionParent(in))), gpucompile_target_triple(job->target), why);
            return 1;
        }
    }
    return 0;
}

/* Is prefix an intrinsic prefix of some target: in list, or a registered backend's own? */
GPUCOMPILE__PRIVATE int gpucompile__foreign_prefix(const char *list, const char *prefix, size_t n) {
    const gpucompile_backend *b;
    int i;
    if (gpucompile_in_list(list, prefix, n)) return 1;
    for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++)
        if (gpucompile_in_list(b->intrinsic_prefixes, prefix, n)) return 1;
    return 0;
}

/* What LLVM would abort on, checked before linking (early errors) and after (the libraries' code):
   unknown intrinsics, other targets' (llvm.<arch>.*) and a few more;
   and calling conventions, symbol names and code it would abort on. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__check_module(gpucompile_job *job) {
    /* LLVM's other targets' intrinsic prefixes (the registered backends add theirs) */
    static const char *const arches = "aarch64,arm,bpf,dx,hexagon,loongarch,mips,ppc,riscv,s390,spv,ve,wasm,x86,xcore";
    LLVMValueRef fn;
    int bad = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = gpucompile_value_name(fn), *dot, *why;
        if ((why = gpucompile__bad_name(job, fn)) != NULL) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL, "function '%s': %s", name, why);
            bad = 1;
        }
        if (!LLVMIsDeclaration(fn) && job->backend->calling_convention_ok && !job->backend->calling_convention_ok(LLVMGetFunctionCallConv(fn))) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                               "function '%s': calling convention %u is not one %s compiles", name,
                               LLVMGetFunctionCallConv(fn), gpucompile_target_triple(job->target));
            bad = 1;
        }
        if (!gpucompile__starts_with(name, "llvm.")) continue;
        if (LLVMGetIntrinsicID(fn) == 0) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                               "unknown intrinsic '%s' (not known to LLVM %d)", name, LLVM_VERSION_MAJOR);
            bad = 1;
            continue;
        }
        if (LLVMGetFirstUse(fn) && (gpucompile__starts_with(name, "llvm.clear_cache") ||
                                    gpucompile__has_prefix(job->backend->refused_intrinsics, name))) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNSUPPORTED, NULL,
                               "intrinsic '%s' cannot be compiled for %s", name, gpucompile_target_triple(job->target));
            bad = 1;
        }
        dot = strchr(name + 5, '.');
        if (dot && gpucompile__foreign_prefix(arches, name + 5, (size_t)(dot - (name + 5))) &&
            !gpucompile_in_list(job->backend->intrinsic_prefixes, name + 5, (size_t)(dot - (name + 5)))) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL,
                               "intrinsic '%s' belongs to another target than %s", name, gpucompile_target_triple(job->target));
            bad = 1;
        }
    }
    for (fn = LLVMGetFirstGlobal(job->module); fn; fn = LLVMGetNextGlobal(fn)) {
        const char *why = gpucompile__bad_name(job, fn);
        if (why) {
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_INPUT, NULL, "global '%s': %s", gpucompile_value_name(fn), why);
            bad = 1;
        }
    }
    if (!bad && gpucompile__check_code(job)) return GPUCOMPILE_ERROR_UNSUPPORTED;
    return bad ? GPUCOMPILE_ERROR_INVALID_INPUT : GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__verify(gpucompile_job *job) {
    gpucompile_result r;
    char *msg = NULL;
    LLVMValueRef fn;
    int kernels = 0;
    if (LLVMVerifyModule(job->module, LLVMReturnStatusAction, &msg)) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "the module is not valid LLVM IR: %s", msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    if (msg) LLVMDisposeMessage(msg);
    if ((r = gpucompile__check_module(job)) != GPUCOMPILE_OK) return r;
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
    const gpucompile__lib *ix = gpucompile__lib_get(path); /* [library index] */
    if (ix && !(h && h->bitcode_file) && !gpucompile__lib_needed(job, ix)) {
        gpucompile_job_add_dependency(job, path);
        return GPUCOMPILE_OK;
    }
    if (ix) mb = LLVMCreateMemoryBufferWithMemoryRange((const char *)ix->data, (size_t)ix->size, path, 0);
    else if (LLVMCreateMemoryBufferWithContentsOfFile(path, &mb, &msg)) {
        gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_IO, "cannot read bitcode library '%s': %s", path, msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        return r;
    }
    gpucompile_job_add_dependency(job, path);
    /* Takes ownership of mb on success only. Lazy: only what is linked gets materialized. */
    if (LLVMGetBitcodeModuleInContext2(job->context, mb, &lib) || !lib) {
        LLVMDisposeMemoryBuffer(mb);
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "'%s' is not a valid LLVM bitcode library", path);
    }
    LLVMSetTarget(lib, LLVMGetTarget(job->module));
    LLVMSetDataLayout(lib, LLVMGetDataLayoutStr(job->module));
    if (h && h->bitcode_file) {
        gpucompile_result r = h->bitcode_file(job, lib, path, h->user_data);
        if (r != GPUCOMPILE_OK) {
            LLVMDisposeModule(lib);
            return gpucompile_job_fail(job, r, "the bitcode-file hook stopped the compile at '%s'", path);
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
        if (!LLVMIsDeclaration(v) && !gpucompile__starts_with(gpucompile_value_name(v), "llvm.") &&
            (l == LLVMExternalLinkage || l == LLVMWeakAnyLinkage || l == LLVMWeakODRLinkage || l == LLVMLinkOnceAnyLinkage ||
             l == LLVMCommonLinkage))
            LLVMSetLinkage(v, LLVMLinkOnceODRLinkage);
    }
    if (LLVMLinkModules2(job->module, lib) || ((gpucompile__job *)job)->llvm_error) /* consumes lib */
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LINK, "linking '%s' failed", path);
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
        if (!LLVMIsDeclaration(v) && !gpucompile__push_str(j, &own.v, &own.n, &own.cap, gpucompile_value_name(v)))
            r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    for (v = LLVMGetFirstGlobal(job->module); v && r == GPUCOMPILE_OK; v = LLVMGetNextGlobal(v))
        if (!LLVMIsDeclaration(v) && !gpucompile__push_str(j, &own.v, &own.n, &own.cap, gpucompile_value_name(v)))
            r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (r == GPUCOMPILE_OK && h && h->load_bitcode_files) {
        r = h->load_bitcode_files(job, h->user_data);
        if (r != GPUCOMPILE_OK) r = gpucompile_job_fail(job, r, "the load-bitcode-files hook stopped the compile");
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
            if (LLVMIsDeclaration(v) || gpucompile__has_name(&own, gpucompile_value_name(v))) continue;
            LLVMSetLinkage(v, LLVMInternalLinkage);
            LLVMSetVisibility(v, LLVMDefaultVisibility);
        }
        for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) {
            const char *name = gpucompile_value_name(v);
            if (LLVMIsDeclaration(v) || gpucompile__starts_with(name, "llvm.") || gpucompile__has_name(&own, name)) continue;
            LLVMSetLinkage(v, LLVMInternalLinkage);
            LLVMSetVisibility(v, LLVMDefaultVisibility);
        }
    }
    for (i = 0; i < own.n; i++) gpucompile_free(&j->opts.allocator, own.v[i]);
    gpucompile_free(&j->opts.allocator, own.v);
    return r;
}

/* `extern __shared__` of the GPU languages: an external global in the backend's shared address
   space, which LLVM keeps external (the backend lays it out, or the assembler does); unsized
   (`T name[]`, zero bytes) it is dynamic shared memory, whose size the launch gives. */
GPUCOMPILE__PRIVATE int gpucompile__extern_shared(gpucompile_job *job, LLVMValueRef g) {
    unsigned as = job->backend->shared_address_space;
    return as && LLVMIsDeclaration(g) && LLVMGetLinkage(g) == LLVMExternalLinkage && LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == as;
}

GPUCOMPILE__PRIVATE int gpucompile__allowed_undefined(gpucompile_job *job, const char *name) {
    const char *p = job->backend->allowed_undefined;
    while (p && *p) {
        size_t n = strcspn(p, ",");
        if (n && p[n - 1] == '*' ? strncmp(p, name, n - 1) == 0 : (strlen(name) == n && strncmp(p, name, n) == 0)) return 1;
        p += n + (p[n] == ',');
    }
    return 0;
}

/* What is still undefined after linking: an error naming each symbol. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__check_undefined(gpucompile_job *job) {
    LLVMValueRef v;
    int bad = 0;
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) {
        const char *name = gpucompile_value_name(v);
        if (!LLVMIsDeclaration(v) || gpucompile__starts_with(name, "llvm.") || !LLVMGetFirstUse(v)) continue;
        if (gpucompile__allowed_undefined(job, name)) continue;
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNRESOLVED, NULL, "undefined function '%s'", name);
        bad = 1;
    }
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) {
        const char *name = gpucompile_value_name(v);
        if (!LLVMIsDeclaration(v) || !LLVMGetFirstUse(v) || gpucompile__extern_shared(job, v)) continue;
        if (gpucompile__allowed_undefined(job, name)) continue;
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_UNRESOLVED, NULL, "undefined global '%s'", name);
        bad = 1;
    }
    if (bad) return GPUCOMPILE_ERROR_UNRESOLVED;
    return gpucompile__check_module(job);
}

/* An LLVM type in MLIR's LLVM dialect syntax as it appears inside !llvm.func<...> (f32, ptr<1>,
   struct<(i32, f32)>, array<4 x i8>, vector<4xf32>); 0 for a type it has no spelling for here. */
GPUCOMPILE__PRIVATE int gpucompile__mlir_type(gpucompile_buf *b, LLVMTypeRef t, int depth) {
    unsigned i, n;
    if (depth > 16) return 0;
    switch (LLVMGetTypeKind(t)) {
    case LLVMVoidTypeKind: gpucompile_buf_str(b, "void"); return 1;
    case LLVMHalfTypeKind: gpucompile_buf_str(b, "f16"); return 1;
    case LLVMBFloatTypeKind: gpucompile_buf_str(b, "bf16"); return 1;
    case LLVMFloatTypeKind: gpucompile_buf_str(b, "f32"); return 1;
    case LLVMDoubleTypeKind: gpucompile_buf_str(b, "f64"); return 1;
    case LLVMFP128TypeKind: gpucompile_buf_str(b, "f128"); return 1;
    case LLVMX86_FP80TypeKind: gpucompile_buf_str(b, "f80"); return 1;
    case LLVMIntegerTypeKind: gpucompile_buf_printf(b, "i%u", LLVMGetIntTypeWidth(t)); return 1;
    case LLVMPointerTypeKind:
        if (LLVMGetPointerAddressSpace(t)) gpucompile_buf_printf(b, "ptr<%u>", LLVMGetPointerAddressSpace(t));
        else gpucompile_buf_str(b, "ptr");
        return 1;
    case LLVMVectorTypeKind:
        if (LLVMGetTypeKind(LLVMGetElementType(t)) == LLVMPointerTypeKind) gpucompile_buf_printf(b, "vec<%u x ", LLVMGetVectorSize(t));
        else gpucompile_buf_printf(b, "vector<%ux", LLVMGetVectorSize(t));
        if (!gpucompile__mlir_type(b, LLVMGetElementType(t), depth + 1)) return 0;
        gpucompile_buf_str(b, ">");
        return 1;
    case LLVMArrayTypeKind:
        gpucompile_buf_printf(b, "array<%llu x ", (unsigned long long)LLVMGetArrayLength2(t));
        if (!gpucompile__mlir_type(b, LLVMGetElementType(t), depth + 1)) return 0;
        gpucompile_buf_str(b, ">");
        return 1;
    case LLVMStructTypeKind:
        if (LLVMGetStructName(t) || LLVMIsOpaqueStruct(t)) return 0; /* identified structs: by name in MLIR, skipped */
        gpucompile_buf_str(b, LLVMIsPackedStruct(t) ? "struct<packed (" : "struct<(");
        for (i = 0, n = LLVMCountStructElementTypes(t); i < n; i++) {
            if (i) gpucompile_buf_str(b, ", ");
            if (!gpucompile__mlir_type(b, LLVMStructGetTypeAtIndex(t, i), depth + 1)) return 0;
        }
        gpucompile_buf_str(b, ")>");
        return 1;
    default: return 0;
    }
}

/* A kernel's function type as MLIR writes it in #gpu.kernel_metadata; NULL where a parameter
   has no spelling (or out of memory). */
GPUCOMPILE__PRIVATE char *gpucompile__kernel_type(gpucompile_job *job, LLVMValueRef fn) {
    LLVMTypeRef ft = LLVMGlobalGetValueType(fn), params[64];
    unsigned i, n = LLVMCountParamTypes(ft);
    gpucompile_buf b;
    int ok = n <= 64 && !LLVMIsFunctionVarArg(ft);
    char *out = NULL;
    memset(&b, 0, sizeof b);
    b.a = &job->options->allocator;
    gpucompile_buf_str(&b, "!llvm.func<");
    ok = ok && gpucompile__mlir_type(&b, LLVMGetReturnType(ft), 0);
    gpucompile_buf_str(&b, " (");
    if (ok) LLVMGetParamTypes(ft, params);
    for (i = 0; ok && i < n; i++) {
        if (i) gpucompile_buf_str(&b, ", ");
        ok = gpucompile__mlir_type(&b, params[i], 0);
    }
    gpucompile_buf_str(&b, ")>");
    if (ok && !b.oom) out = gpucompile_job_strdup(job, b.data);
    gpucompile_job_free(job, b.data);
    return out;
}

/* Kernels in name order, as MLIR's #gpu.kernel_table keeps them. */
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
        gpucompile__kernel_init(k);
        k->name = gpucompile_job_strdup(job, gpucompile_value_name(fn));
        if (!k->name) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        o->num_kernels++;
        k->num_params = (int)LLVMCountParams(fn);
        k->type = gpucompile__kernel_type(job, fn);
    }
    qsort(o->kernels, (size_t)o->num_kernels, sizeof *o->kernels, gpucompile_kernel_cmp);
    return GPUCOMPILE_OK;
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
        gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "optimization failed: %s", msg);
        LLVMDisposeErrorMessage(msg);
        return r;
    }
    if (((gpucompile__job *)job)->llvm_error) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "optimization reported an error");
    return GPUCOMPILE_OK;
}

typedef struct gpucompile__fnset {
    LLVMValueRef *v;
    int n, cap;
} gpucompile__fnset;

/* Adds the functions that use v to s, looking through constants (a GEP or cast of a global, a
   table of pointers) a few levels deep. */
GPUCOMPILE__PRIVATE void gpucompile__add_users(gpucompile__fnset *s, LLVMValueRef v, int depth) {
    LLVMUseRef u;
    for (u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u), fn;
        int i;
        if (!LLVMIsAInstruction(user)) {
            if (depth < 8) gpucompile__add_users(s, user, depth + 1);
            continue;
        }
        fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
        for (i = 0; i < s->n && s->v[i] != fn; i++) {}
        if (i == s->n && s->n < s->cap) s->v[s->n++] = fn;
    }
}

/* kernel.dynamic_shared, after optimization (dead uses gone): the functions that use an unsized
   extern shared global, then whatever uses those (calls, or a function's address taken), up to
   the kernels. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__mark_dynamic_shared(gpucompile_job *job) {
    gpucompile_object *o = job->object;
    gpucompile__fnset s;
    LLVMValueRef v;
    int i, j;
    memset(&s, 0, sizeof s);
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) s.cap++;
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v))
        if (gpucompile__extern_shared(job, v) && LLVMGetFirstUse(v) &&
            LLVMABISizeOfType(LLVMGetModuleDataLayout(job->module), LLVMGlobalGetValueType(v)) == 0) {
            if (!s.v && !(s.v = (LLVMValueRef *)gpucompile_job_alloc(job, (size_t)(s.cap + 1) * sizeof *s.v)))
                return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
            gpucompile__add_users(&s, v, 0);
        }
    for (i = 0; i < s.n; i++) gpucompile__add_users(&s, s.v[i], 0); /* s grows while walked */
    for (i = 0; i < o->num_kernels; i++) {
        LLVMValueRef k = LLVMGetNamedFunction(job->module, o->kernels[i].name);
        o->kernels[i].dynamic_shared = 0;
        for (j = 0; j < s.n && !o->kernels[i].dynamic_shared; j++) o->kernels[i].dynamic_shared = s.v[j] == k;
    }
    gpucompile_job_free(job, s.v);
    return GPUCOMPILE_OK;
}

/* Code generation, one at a time in the process for a backend whose code generator keeps
   process-wide state (gpucompile_backend.emitted_wrong set, the backend says which): two such
   compiles on two threads (gpucompile_compile_binary with jobs > 1) abort inside LLVM or corrupt
   the heap. */
GPUCOMPILE__PRIVATE int gpucompile__emit_one(gpucompile_job *job, LLVMTargetMachineRef tm, LLVMModuleRef m, LLVMCodeGenFileType type,
                                             char **msg, LLVMMemoryBufferRef *out) {
    static gpucompile__mtx one = GPUCOMPILE__MTX_INIT;
    int failed;
    if (job->backend->emitted_wrong) gpucompile__mtx_lock(&one);
    failed = LLVMTargetMachineEmitToMemoryBuffer(tm, m, type, msg, out) != 0;
    if (job->backend->emitted_wrong) gpucompile__mtx_unlock(&one);
    return failed;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit_file(gpucompile_job *job, LLVMCodeGenFileType type, LLVMMemoryBufferRef *out) {
    char *msg = NULL;
    if (gpucompile__emit_one(job, job->machine, job->module, type, &msg, out)) {
        gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "code generation failed: %s", msg ? msg : "");
        if (msg) LLVMDisposeMessage(msg);
        *out = NULL;
        return r;
    }
    if (((gpucompile__job *)job)->llvm_error) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "code generation reported an error");
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_job_emit_copy(gpucompile_job *job, LLVMMemoryBufferRef bitcode, LLVMCodeGenFileType type,
                                                          const char *(*wrong)(const void *data, size_t size), int tries, LLVMMemoryBufferRef *out) {
    gpucompile_result r = GPUCOMPILE_ERROR_LLVM;
    const char *why = "code generation failed";
    int k, h;
    *out = NULL;
    for (k = 0; k < tries && r == GPUCOMPILE_ERROR_LLVM && !job->failed; k++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(LLVMGetBufferStart(bitcode), LLVMGetBufferSize(bitcode), "copy", 0);
        LLVMModuleRef m = NULL;
        LLVMTargetRef t;
        LLVMTargetMachineRef tm = NULL;
        char *msg = NULL;
        void *held[64]; /* from the second try: blocks of the sizes LLVM's objects take (from malloc, as they are), held while it runs, so that they land elsewhere */
        for (h = 0; h < 8 * k && h < 64; h++) held[h] = malloc((size_t)64 << (h % 8));
        LLVMContextSetDiagnosticHandler(ctx, gpucompile__diag_handler, job);
        if (LLVMParseBitcodeInContext2(ctx, mb, &m) || !m) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "the module cannot be copied");
        else if (LLVMGetTargetFromTriple(gpucompile_target_triple(job->target), &t, &msg) || !(tm = gpucompile__machine(job, t)))
            r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "no target machine: %s", msg ? msg : "");
        else if (gpucompile__emit_one(job, tm, m, type, &msg, out) || job->failed) {
            r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "code generation failed: %s", msg ? msg : "");
            if (*out) LLVMDisposeMemoryBuffer(*out);
            *out = NULL;
        } else if (wrong && (why = wrong(LLVMGetBufferStart(*out), LLVMGetBufferSize(*out))) != NULL) {
            LLVMDisposeMemoryBuffer(*out);
            *out = NULL;
        } else
            r = GPUCOMPILE_OK;
        while (h-- > 0) free(held[h]);
        if (msg) LLVMDisposeMessage(msg);
        if (tm) LLVMDisposeTargetMachine(tm);
        if (m) LLVMDisposeModule(m);
        LLVMDisposeMemoryBuffer(mb);
        LLVMContextDispose(ctx);
    }
    if (r != GPUCOMPILE_OK && !job->failed) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "%s (%d tries)", why, tries);
    return r;
}

/* The module's assembly text beside its object, made from a copy in a context and target machine
   of its own: code generation changes the module it runs on, and a code generator that runs
   unoptimized (a backend's emit_unoptimized) died generating code twice in one context and
   target machine (signal 11; tests/cli_save_temps.sh). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit_aside(gpucompile_job *job, LLVMMemoryBufferRef *out) {
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(job->module);
    gpucompile_result r;
    *out = NULL;
    if (!bc) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "cannot write bitcode");
    r = gpucompile_job_emit_copy(job, bc, LLVMAssemblyFile, NULL, 1, out);
    LLVMDisposeMemoryBuffer(bc);
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit(gpucompile_job *job) {
    const gpucompile_hooks *h = job->options->hooks;
    LLVMMemoryBufferRef bc = NULL;
    const char *why;
    gpucompile_result r = GPUCOMPILE_OK;
    LLVMCodeGenFileType type = job->format == GPUCOMPILE_FORMAT_ISA ? LLVMAssemblyFile : job->backend->bin_from;
    if (job->format == GPUCOMPILE_FORMAT_LLVM) {
        job->emitted = LLVMWriteBitcodeToMemoryBuffer(job->module);
        return job->emitted ? GPUCOMPILE_OK : gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "cannot write bitcode");
    }
    if (h && h->isa && type != LLVMAssemblyFile) { /* the ISA text as well, for the hook only */
        LLVMMemoryBufferRef isa = NULL;
        r = gpucompile__emit_aside(job, &isa);
        if (r == GPUCOMPILE_OK) r = h->isa(job, LLVMGetBufferStart(isa), LLVMGetBufferSize(isa), h->user_data);
        if (isa) LLVMDisposeMemoryBuffer(isa);
        if (r != GPUCOMPILE_OK) return job->failed ? r : gpucompile_job_fail(job, r, "the isa hook stopped the compile");
    }
    if (job->backend->emitted_wrong && type == LLVMObjectFile && !(bc = LLVMWriteBitcodeToMemoryBuffer(job->module)))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "cannot write bitcode");
    r = gpucompile__emit_file(job, type, &job->emitted);
    if (r == GPUCOMPILE_OK && bc && (why = job->backend->emitted_wrong(LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted))) != NULL) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, job->backend->name, "%s: code generation again, from a copy", why);
        LLVMDisposeMemoryBuffer(job->emitted);
        r = gpucompile_job_emit_copy(job, bc, type, job->backend->emitted_wrong, 8, &job->emitted);
    }
    if (bc) LLVMDisposeMemoryBuffer(bc);
    if (r == GPUCOMPILE_OK && h && h->isa && type == LLVMAssemblyFile) {
        r = h->isa(job, LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted), h->user_data);
        if (r != GPUCOMPILE_OK) return gpucompile_job_fail(job, r, "the isa hook stopped the compile");
    }
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__finish(gpucompile_job *job) {
    gpucompile_object *o = job->object;
    gpucompile_result r;
    if (job->format != GPUCOMPILE_FORMAT_LLVM && job->backend->finish) {
        r = job->backend->finish(job, job->format);
        if (r != GPUCOMPILE_OK) return job->failed ? r : gpucompile_job_fail(job, r, "the %s backend failed", job->backend->name);
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

/* ---- partitions: code generation in parallel inside one module (gpucompile_backend.join) ----
   The optimized module, written as bitcode once, is parsed again on each partition's thread
   (own context and target machine) and cut down to that partition. The plan is made here, once,
   for every function and variable in module order (each thread finds them by position):
   - kernels go to the partitions by size, the largest first, each to the lightest partition
     (the lower index on a tie), a kernel's size being the instructions of all it reaches: the
     same module and N give the same partitions. A kernel is defined in its partition only;
   - a device function, a constant and a variable of the shared address space (per workgroup:
     kernels share nothing through it) are copied into every partition that reaches them. Local
     and ODR ones (linkonce_odr, weak_odr: the linker keeps one) keep their linkage, so the code
     is the code of one module (an internal copy of a linkonce_odr function would change the
     registers its callers save); of another visible one the first partition that reaches it
     keeps the definition and the others get internal copies (it is defined once);
   - any other variable is defined once, in the first partition that reaches it, and declared
     in the others; an internal one reached from several partitions is made external and hidden
     there (the join resolves it; nothing outside the binary sees it), named
     __gpucompile_part_<index> when it had no name;
   - what no kernel reaches but is visible (llvm.used and such too) stays in partition 0;
   - an alias is in every partition, like a device function, and so is what it aliases (a
     function or a constant: a module where an alias names another variable, or with an ifunc,
     stays one module). */
enum { GPUCOMPILE__PART_OUT = 0, GPUCOMPILE__PART_KEEP = 1, GPUCOMPILE__PART_COPY = 2, GPUCOMPILE__PART_HIDE = 4 };

typedef struct gpucompile__part_map { LLVMValueRef v; int i; } gpucompile__part_map;

typedef struct gpucompile__part_plan {
    LLVMValueRef *v;           /* the functions, the variables, then the aliases, in module order */
    gpucompile__part_map *map; /* v sorted by address, for the index of a value */
    long *size;                /* a function's instructions */
    int *stack, nv;
} gpucompile__part_plan;

typedef struct gpucompile__part {
    gpucompile_job *job;       /* read only on the partition's thread */
    const char *bitcode;
    size_t bitcode_size;
    const unsigned char *plan; /* this partition's row */
    int nv;
    LLVMMemoryBufferRef out;
    gpucompile_buf log;       /* LLVM's diagnostics: severity byte, message, NUL */
    int failed;
} gpucompile__part;

GPUCOMPILE__PRIVATE int gpucompile__part_map_cmp(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const gpucompile__part_map *)a)->v, y = (uintptr_t)((const gpucompile__part_map *)b)->v;
    return x < y ? -1 : x > y;
}

GPUCOMPILE__PRIVATE int gpucompile__part_index(const gpucompile__part_plan *pl, LLVMValueRef v) {
    gpucompile__part_map key, *m;
    key.v = v;
    key.i = 0;
    m = (gpucompile__part_map *)bsearch(&key, pl->map, (size_t)pl->nv, sizeof key, gpucompile__part_map_cmp);
    return m ? m->i : -1;
}

/* Queues the functions and variables that c names, through constant expressions and aggregates. */
GPUCOMPILE__PRIVATE void gpucompile__part_scan(gpucompile__part_plan *pl, LLVMValueRef c, unsigned char *seen, int *top, int depth) {
    int i, n;
    if (LLVMIsAGlobalValue(c)) {
        i = gpucompile__part_index(pl, c);
        if (i >= 0 && !seen[i]) {
            seen[i] = 1;
            pl->stack[(*top)++] = i;
        }
        return;
    }
    if (!LLVMIsAConstant(c) || depth > 64) return;
    n = LLVMGetNumOperands(c);
    for (i = 0; i < n; i++) gpucompile__part_scan(pl, LLVMGetOperand(c, (unsigned)i), seen, top, depth + 1);
}

/* Marks in seen what root reaches (root too); returns the instructions of the functions newly marked. */
GPUCOMPILE__PRIVATE long gpucompile__part_reach(gpucompile__part_plan *pl, int root, unsigned char *seen) {
    int top = 0;
    long total = 0;
    if (!seen[root]) {
        seen[root] = 1;
        pl->stack[top++] = root;
    }
    while (top > 0) {
        int i = pl->stack[--top];
        LLVMValueRef v = pl->v[i], in;
        LLVMBasicBlockRef bb;
        if (LLVMIsAGlobalAlias(v)) {
            gpucompile__part_scan(pl, LLVMAliasGetAliasee(v), seen, &top, 0);
            continue;
        }
        if (!LLVMIsAFunction(v)) {
            if (LLVMGetInitializer(v)) gpucompile__part_scan(pl, LLVMGetInitializer(v), seen, &top, 0);
            continue;
        }
        total += pl->size[i];
        for (bb = LLVMGetFirstBasicBlock(v); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int k, n = LLVMGetNumOperands(in);
                for (k = 0; k < n; k++) gpucompile__part_scan(pl, LLVMGetOperand(in, (unsigned)k), seen, &top, 0);
            }
    }
    return total;
}

GPUCOMPILE__PRIVATE int gpucompile__part_local(LLVMValueRef v) {
    LLVMLinkage l = LLVMGetLinkage(v);
    return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

typedef struct gpucompile__part_kernel { long weight; int index; } gpucompile__part_kernel;

GPUCOMPILE__PRIVATE int gpucompile__part_kernel_cmp(const void *a, const void *b) {
    const gpucompile__part_kernel *x = (const gpucompile__part_kernel *)a, *y = (const gpucompile__part_kernel *)b;
    if (x->weight != y->weight) return x->weight > y->weight ? -1 : 1;
    return x->index - y->index;
}

/* The plan: n rows of nv decisions (GPUCOMPILE__PART_*), in *plan; *nv the values per row.
   counts[p]: the kernels of partition p. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__part_plan_make(gpucompile_job *job, int n, unsigned char **plan, int *nv, int *counts) {
    gpucompile__part_plan pl;
    gpucompile__part_kernel *ks = NULL;
    unsigned char *seen = NULL, *row = NULL;
    long *load = NULL;
    int *home = NULL, nk = 0, i, k, p;
    unsigned shared = job->backend->shared_address_space;
    LLVMValueRef v;
    gpucompile_result r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(&pl, 0, sizeof pl);
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) pl.nv++;
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) pl.nv++;
    for (v = LLVMGetFirstGlobalAlias(job->module); v; v = LLVMGetNextGlobalAlias(v)) pl.nv++;
    pl.v = (LLVMValueRef *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *pl.v);
    pl.map = (gpucompile__part_map *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *pl.map);
    pl.size = (long *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *pl.size);
    pl.stack = (int *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *pl.stack);
    home = (int *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *home);
    ks = (gpucompile__part_kernel *)gpucompile_job_alloc(job, (size_t)pl.nv * sizeof *ks);
    load = (long *)gpucompile_job_alloc(job, (size_t)n * sizeof *load);
    seen = (unsigned char *)gpucompile_job_alloc(job, (size_t)(n + 1) * (size_t)pl.nv);
    row = (unsigned char *)gpucompile_job_alloc(job, (size_t)n * (size_t)pl.nv);
    if (!pl.v || !pl.map || !pl.size || !pl.stack || !home || !ks || !load || !seen || !row) goto done;
    memset(seen, 0, (size_t)(n + 1) * (size_t)pl.nv);
    memset(load, 0, (size_t)n * sizeof *load);
    i = 0;
    for (v = LLVMGetFirstFunction(job->module); v; v = LLVMGetNextFunction(v)) pl.v[i++] = v;
    for (v = LLVMGetFirstGlobal(job->module); v; v = LLVMGetNextGlobal(v)) pl.v[i++] = v;
    for (v = LLVMGetFirstGlobalAlias(job->module); v; v = LLVMGetNextGlobalAlias(v)) pl.v[i++] = v;
    for (i = 0; i < pl.nv; i++) {
        LLVMBasicBlockRef bb;
        pl.map[i].v = pl.v[i];
        pl.map[i].i = i;
        pl.size[i] = 0;
        home[i] = -1;
        if (LLVMIsAFunction(pl.v[i]))
            for (bb = LLVMGetFirstBasicBlock(pl.v[i]); bb; bb = LLVMGetNextBasicBlock(bb))
                for (v = LLVMGetFirstInstruction(bb); v; v = LLVMGetNextInstruction(v)) pl.size[i]++;
    }
    qsort(pl.map, (size_t)pl.nv, sizeof *pl.map, gpucompile__part_map_cmp);
    /* each kernel's weight: what it reaches (seen row n is scratch) */
    for (i = 0; i < pl.nv; i++)
        if (LLVMIsAFunction(pl.v[i]) && gpucompile__is_kernel(job, pl.v[i])) {
            memset(seen + (size_t)n * (size_t)pl.nv, 0, (size_t)pl.nv);
            ks[nk].weight = 1 + gpucompile__part_reach(&pl, i, seen + (size_t)n * (size_t)pl.nv);
            ks[nk++].index = i;
        }
    qsort(ks, (size_t)nk, sizeof *ks, gpucompile__part_kernel_cmp);
    for (k = 0; k < nk; k++) {
        int best = 0;
        for (p = 1; p < n; p++)
            if (load[p] < load[best]) best = p;
        load[best] += ks[k].weight;
        home[ks[k].index] = best;
        counts[best]++;
    }
    for (i = 0; i < pl.nv; i++) /* in module order, so that "first" is the same for every N */
        if (home[i] >= 0) gpucompile__part_reach(&pl, i, seen + (size_t)home[i] * (size_t)pl.nv);
    for (i = 0; i < pl.nv; i++)
        for (p = 0; p < n && LLVMIsAGlobalAlias(pl.v[i]); p++) gpucompile__part_reach(&pl, i, seen + (size_t)p * (size_t)pl.nv);
    for (i = 0; i < pl.nv; i++) {
        int any = 0;
        for (p = 0; p < n && !any; p++) any = seen[(size_t)p * (size_t)pl.nv + (size_t)i];
        if (!any && !LLVMIsDeclaration(pl.v[i]) && !gpucompile__part_local(pl.v[i])) gpucompile__part_reach(&pl, i, seen);
    }
    for (i = 0; i < pl.nv; i++) {
        LLVMValueRef x = pl.v[i];
        int def = !LLVMIsDeclaration(x), local = gpucompile__part_local(x), first = -1, reached = 0;
        int odr = LLVMGetLinkage(x) == LLVMLinkOnceODRLinkage || LLVMGetLinkage(x) == LLVMWeakODRLinkage;
        int copy = LLVMIsAFunction(x) || LLVMIsAGlobalAlias(x) || LLVMIsGlobalConstant(x) || LLVMGetLinkage(x) == LLVMAppendingLinkage ||
                   (shared && LLVMGetPointerAddressSpace(LLVMTypeOf(x)) == shared);
        for (p = 0; p < n; p++)
            if (seen[(size_t)p * (size_t)pl.nv + (size_t)i]) {
                if (first < 0) first = p;
                reached++;
            }
        for (p = 0; p < n; p++) {
            unsigned char d;
            if (!seen[(size_t)p * (size_t)pl.nv + (size_t)i]) d = GPUCOMPILE__PART_OUT;
            else if (!def) d = GPUCOMPILE__PART_KEEP;
            else if (home[i] >= 0) d = home[i] == p ? GPUCOMPILE__PART_KEEP : GPUCOMPILE__PART_OUT;
            else if (copy) d = local || odr || p == first ? GPUCOMPILE__PART_KEEP : GPUCOMPILE__PART_COPY;
            else d = (p == first ? GPUCOMPILE__PART_KEEP : GPUCOMPILE__PART_OUT) | (local && reached > 1 ? GPUCOMPILE__PART_HIDE : 0);
            row[(size_t)p * (size_t)pl.nv + (size_t)i] = d;
        }
    }
    *plan = row;
    *nv = pl.nv;
    row = NULL;
    r = GPUCOMPILE_OK;
done:
    gpucompile_job_free(job, pl.v);
    gpucompile_job_free(job, pl.map);
    gpucompile_job_free(job, pl.size);
    gpucompile_job_free(job, pl.stack);
    gpucompile_job_free(job, home);
    gpucompile_job_free(job, ks);
    gpucompile_job_free(job, load);
    gpucompile_job_free(job, seen);
    gpucompile_job_free(job, row);
    return r;
}

/* An error of the partition (logged after the join). */
GPUCOMPILE__PRIVATE void gpucompile__part_note(gpucompile__part *pt, const char *msg) {
    char sev = (char)LLVMDSError;
    pt->failed = 1;
    gpucompile_buf_add(&pt->log, &sev, 1);
    gpucompile_buf_add(&pt->log, msg, strlen(msg) + 1);
}

/* v, defined here but not kept, as a declaration where it is still used (else deleted); the
   declaration or NULL. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__part_declare(gpucompile__part *pt, LLVMModuleRef m, LLVMValueRef v) {
    const gpucompile_allocator *a = &pt->job->options->allocator;
    LLVMValueRef d;
    size_t len = 0;
    const char *name = LLVMGetValueName2(v, &len);
    char *copy;
    int fn = LLVMIsAFunction(v) != NULL;
    if (!LLVMGetFirstUse(v)) {
        if (fn) LLVMDeleteFunction(v);
        else LLVMDeleteGlobal(v);
        return NULL;
    }
    if (!(copy = gpucompile__strndup(a, name, len))) {
        gpucompile__part_note(pt, "out of memory");
        return v;
    }
    if (fn) {
        d = LLVMAddFunction(m, "", LLVMGlobalGetValueType(v));
        LLVMSetFunctionCallConv(d, LLVMGetFunctionCallConv(v));
    } else {
        d = LLVMAddGlobalInAddressSpace(m, LLVMGlobalGetValueType(v), "", LLVMGetPointerAddressSpace(LLVMTypeOf(v)));
        LLVMSetGlobalConstant(d, LLVMIsGlobalConstant(v));
        LLVMSetExternallyInitialized(d, LLVMIsExternallyInitialized(v));
    }
    LLVMSetAlignment(d, LLVMGetAlignment(v));
    LLVMSetVisibility(d, gpucompile__part_local(v) ? LLVMDefaultVisibility : LLVMGetVisibility(v));
    LLVMSetUnnamedAddress(d, LLVMGetUnnamedAddress(v));
    LLVMReplaceAllUsesWith(v, d);
    if (fn) LLVMDeleteFunction(v);
    else LLVMDeleteGlobal(v);
    LLVMSetValueName2(d, copy, len);
    gpucompile_free(a, copy);
    return d;
}

/* Cuts module m down to the partition's plan row. */
GPUCOMPILE__PRIVATE int gpucompile__part_cut(gpucompile__part *pt, LLVMModuleRef m) {
    const gpucompile_allocator *a = &pt->job->options->allocator;
    LLVMValueRef *w = (LLVMValueRef *)gpucompile_alloc(a, (size_t)pt->nv * sizeof *w), v;
    int i = 0;
    if (!w) return 0;
    for (v = LLVMGetFirstFunction(m); v && i < pt->nv; v = LLVMGetNextFunction(v)) w[i++] = v;
    for (v = LLVMGetFirstGlobal(m); v && i < pt->nv; v = LLVMGetNextGlobal(v)) w[i++] = v;
    for (v = LLVMGetFirstGlobalAlias(m); v && i < pt->nv; v = LLVMGetNextGlobalAlias(v)) w[i++] = v;
    if (i != pt->nv) {
        gpucompile_free(a, w);
        return 0;
    }
    for (i = 0; i < pt->nv; i++) {
        unsigned char d = pt->plan[i];
        if (d & GPUCOMPILE__PART_HIDE) {
            char name[48];
            size_t len = 0;
            LLVMGetValueName2(w[i], &len);
            snprintf(name, sizeof name, "__gpucompile_part_%d", i);
            if (!len) LLVMSetValueName2(w[i], name, strlen(name));
            LLVMSetLinkage(w[i], LLVMExternalLinkage);
            LLVMSetVisibility(w[i], LLVMHiddenVisibility);
        }
        if ((d & 3) == GPUCOMPILE__PART_COPY) {
            LLVMSetLinkage(w[i], LLVMInternalLinkage);
            LLVMSetVisibility(w[i], LLVMDefaultVisibility);
            if (!LLVMIsAGlobalAlias(w[i])) LLVMSetComdat(w[i], NULL);
        }
    }
    for (i = 0; i < pt->nv; i++)
        if ((pt->plan[i] & 3) == GPUCOMPILE__PART_OUT && !LLVMIsDeclaration(w[i])) w[i] = gpucompile__part_declare(pt, m, w[i]);
    for (i = 0; i < pt->nv; i++) /* what only the dropped code used */
        if ((pt->plan[i] & 3) == GPUCOMPILE__PART_OUT && w[i] && LLVMIsDeclaration(w[i]) && !LLVMGetFirstUse(w[i])) {
            if (LLVMIsAFunction(w[i])) LLVMDeleteFunction(w[i]);
            else LLVMDeleteGlobal(w[i]);
        }
    gpucompile_free(a, w);
    return 1;
}

GPUCOMPILE__PRIVATE void gpucompile__part_diag(LLVMDiagnosticInfoRef di, void *user) {
    gpucompile__part *pt = (gpucompile__part *)user;
    char *msg = LLVMGetDiagInfoDescription(di);
    char sev = (char)LLVMGetDiagInfoSeverity(di);
    if (sev == (char)LLVMDSError) pt->failed = 1;
    gpucompile_buf_add(&pt->log, &sev, 1);
    gpucompile_buf_add(&pt->log, msg, strlen(msg) + 1);
    LLVMDisposeMessage(msg);
}

/* One partition, on its thread: parse, cut, emit. */
GPUCOMPILE__PRIVATE void gpucompile__part_run(gpucompile__part *pt) {
    gpucompile_job *job = pt->job;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRange(pt->bitcode, pt->bitcode_size, "partition", 0);
    LLVMModuleRef m = NULL;
    LLVMTargetMachineRef tm = NULL;
    LLVMTargetRef t;
    char *msg = NULL;
    LLVMContextSetDiagnosticHandler(ctx, gpucompile__part_diag, pt);
    if (LLVMParseBitcodeInContext2(ctx, mb, &m) || !m) gpucompile__part_note(pt, "cannot read the optimized module back");
    else if (!gpucompile__part_cut(pt, m)) gpucompile__part_note(pt, "cannot cut the module into partitions (out of memory?)");
    else if (LLVMGetTargetFromTriple(gpucompile_target_triple(job->target), &t, &msg) || !(tm = gpucompile__machine(job, t)))
        gpucompile__part_note(pt, "cannot create a target machine");
    else if (gpucompile__emit_one(job, tm, m, job->format == GPUCOMPILE_FORMAT_ISA ? LLVMAssemblyFile : job->backend->bin_from, &msg, &pt->out)) {
        gpucompile__part_note(pt, msg ? msg : "code generation failed");
        pt->out = NULL;
    }
    if (msg) LLVMDisposeMessage(msg);
    if (tm) LLVMDisposeTargetMachine(tm);
    if (m) LLVMDisposeModule(m);
    LLVMDisposeMemoryBuffer(mb);
    LLVMContextDispose(ctx);
}

/* Partition i, as gpucompile_run_parallel hands it out. */
GPUCOMPILE__PRIVATE int gpucompile__part_work(gpucompile_parallel *pool, int i, void *parts) {
    (void)pool;
    gpucompile__part_run((gpucompile__part *)parts + i);
    return 0;
}

/* How many partitions this compile's code generation takes: 1 where it stays one module. */
GPUCOMPILE__PRIVATE int gpucompile__part_count(gpucompile_job *job) {
    const gpucompile_backend *b = job->backend;
    const gpucompile_hooks *h = job->options->hooks;
    unsigned formats = b->join_formats ? b->join_formats
                                       : (1u << GPUCOMPILE_FORMAT_ISA) | (1u << GPUCOMPILE_FORMAT_BIN) | (1u << GPUCOMPILE_FORMAT_FATBIN);
    int n = job->options->jobs, k = job->object ? job->object->num_kernels : 0;
    const char *why = NULL;
    LLVMValueRef v;
    if (!b->join || n < 2 || k < 2 || !(formats & (1u << job->format))) return 1;
    if (((gpucompile__job *)job)->save_dir) why = "--save-temps keeps one module's files";
    else if (h && h->isa) why = "the isa hook takes one module's ISA";
    else if (job->options->debug) why = "debug information describes one module";
    else if (LLVMGetFirstGlobalIFunc(job->module)) why = "the module has ifuncs";
    for (v = LLVMGetFirstGlobalAlias(job->module); v && !why; v = LLVMGetNextGlobalAlias(v)) {
        LLVMValueRef to = LLVMAliasGetAliasee(v);
        while (LLVMIsAConstantExpr(to) && LLVMGetNumOperands(to) > 0) to = LLVMGetOperand(to, 0);
        if (!LLVMIsAFunction(to) && !(LLVMIsAGlobalVariable(to) && LLVMIsGlobalConstant(to))) why = "an alias names a variable";
    }
    if (why) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "code generation in one module: %s", why);
        return 1;
    }
    return n < k ? n : k;
}

/* Code generation in n partitions on n threads (this one among them), joined by the backend. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit_parts(gpucompile_job *job, int n) {
    const gpucompile_allocator *a = &job->options->allocator;
    gpucompile__part *parts = (gpucompile__part *)gpucompile_job_alloc(job, (size_t)n * sizeof *parts);
    LLVMMemoryBufferRef *outs = (LLVMMemoryBufferRef *)gpucompile_job_alloc(job, (size_t)n * sizeof *outs), bc = NULL;
    unsigned char *plan = NULL;
    int *counts = (int *)gpucompile_job_alloc(job, (size_t)n * sizeof *counts), nv = 0, i, failed = -1;
    gpucompile_buf note;
    gpucompile_result r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(&note, 0, sizeof note);
    note.a = a;
    if (!parts || !outs || !counts) goto done;
    memset(parts, 0, (size_t)n * sizeof *parts);
    memset(counts, 0, (size_t)n * sizeof *counts);
    if ((r = gpucompile__part_plan_make(job, n, &plan, &nv, counts)) != GPUCOMPILE_OK) goto done;
    if (!(bc = LLVMWriteBitcodeToMemoryBuffer(job->module))) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "cannot write bitcode");
        goto done;
    }
    gpucompile_buf_printf(&note, "code generation in %d partitions on %d threads (kernels:", n, n);
    for (i = 0; i < n; i++) gpucompile_buf_printf(&note, " %d", counts[i]);
    gpucompile_buf_str(&note, ")");
    if (!note.oom) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "%s", note.data);
    for (i = 0; i < n; i++) {
        parts[i].job = job;
        parts[i].bitcode = LLVMGetBufferStart(bc);
        parts[i].bitcode_size = LLVMGetBufferSize(bc);
        parts[i].plan = plan + (size_t)i * (size_t)nv;
        parts[i].nv = nv;
        parts[i].log.a = a;
    }
    gpucompile_run_parallel(a, n, n, gpucompile__part_work, parts);
    r = GPUCOMPILE_OK;
    for (i = 0; i < n; i++) { /* the partitions' diagnostics, in partition order */
        const char *p, *end;
        if (!parts[i].out && !parts[i].failed) gpucompile__part_note(&parts[i], "out of memory");
        for (p = parts[i].log.data, end = p + parts[i].log.len; p && p < end; p += strlen(p + 1) + 2)
            gpucompile__llvm_diag(job, (LLVMDiagnosticSeverity)p[0], p + 1);
        if (parts[i].log.oom) parts[i].failed = 1; /* its messages are lost: failed, to be safe */
        if (parts[i].failed && failed < 0) failed = i;
        outs[i] = parts[i].out;
    }
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_BINARY); /* the join is the binary step's first part */
    if (failed >= 0) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "code generation of partition %d of %d failed", failed + 1, n);
    else if ((r = job->backend->join(job, job->format, outs, n)) != GPUCOMPILE_OK && !job->failed)
        r = gpucompile_job_fail(job, r, "the %s backend could not join the %d partitions", job->backend->name, n);
done:
    for (i = 0; parts && i < n; i++) {
        if (parts[i].out) LLVMDisposeMemoryBuffer(parts[i].out);
        gpucompile_free(a, parts[i].log.data);
    }
    if (bc) LLVMDisposeMemoryBuffer(bc);
    gpucompile_free(a, note.data);
    gpucompile_job_free(job, plan);
    gpucompile_job_free(job, parts);
    gpucompile_job_free(job, outs);
    gpucompile_job_free(job, counts);
    return r;
}

/* ==== [section: cache] =================================================================== */
/* A persistent, content-addressed compile cache. The key covers what changes the output and is
   known before compiling: the input's bytes, the target's canonical text, the format, the
   options that reach the output (debug, toolkit, bin_method, tool_options, section, link files,
   tool overrides), gpucompile's version, LLVM's version (headers and the libLLVM run on), and
   what the environment chose (the backend's cache_key: the toolkit or library roots found).
   Nothing else of the environment: an unrelated variable or a PATH that finds the same tools
   hits. The entry lists what the compile used, each with an identity that is the same on every
   machine with the same file: a library (device libraries, -l files, a vendor library opened at
   run time) by its contents (above 8 MiB: its size and first and last MiB), a tool (the binary
   step's programs) by what its name finds on PATH now and that program's `--version` output. An entry is used only while
   every identity is unchanged; identities are computed once per process per file. The entry
   also keeps the compile's warnings and remarks, replayed on a hit. Entries are written to a
   temporary name and renamed; a checksum catches torn or corrupt entries, which are ignored and
   replaced. Hits refresh the mtime (least recently used goes). A remote store (options
   .cache_remote) sits behind the directory: see [section: remote cache].
   A checksum only tells torn from whole: whoever can write the directory or the store could
   put any object under a key, and keys follow from public inputs. options.cache_secret_file
   authenticates entries: two 32-byte keys are derived from the secret (BLAKE3's derive_key
   mode, one context each); the first keys the cache key (BLAKE3's keyed mode: other secrets,
   or none, look up other keys, and a key says nothing of the secret), the second keys a tag
   over the cache key and the whole entry, which every entry written carries and every reader
   checks, locally and remotely, before it believes a byte. */
/* A compile's logger while the cache is on: everything passes through, and the warnings and
   remarks are kept as records for the entry (a hit replays them). */
typedef struct gpucompile__capture { gpucompile_logger to; gpucompile_buf log; } gpucompile__capture;

GPUCOMPILE__PRIVATE void gpucompile__record(const gpucompile_diagnostic *d, gpucompile_buf *log);
GPUCOMPILE__PRIVATE void gpucompile__capture_fn(const gpucompile_diagnostic *d, void *user_data);

/* The cache's own warnings (the remote store, refused entries, the secret) go to the caller's
   logger past that capture: they tell of this process's cache, not of the compile, and a later
   hit must not replay them. */
GPUCOMPILE__PRIVATE void gpucompile__cache_warn(gpucompile_job *job, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 2, 3)))
#endif
    ;
GPUCOMPILE__PRIVATE void gpucompile__cache_warn(gpucompile_job *job, const char *fmt, ...) {
    const gpucompile_logger *l = &((gpucompile__job *)job)->opts.logger;
    char msg[4096];
    va_list ap;
    if (l->func == gpucompile__capture_fn) l = &((const gpucompile__capture *)l->user_data)->to;
    if (!l->func) return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile__printable(msg);
    gpucompile__log(l, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, job->stage, NULL, msg);
}

/* A small file that holds a secret (the cache secret, the remote store's password) into
   buf[size], unbuffered, so that no copy is left in a stdio buffer: its length, or -1 with
   errno set (E2BIG: it does not fit). */
GPUCOMPILE__PRIVATE long gpucompile__read_secret(const char *path, unsigned char *buf, size_t size) {
    FILE *f = fopen(path, "rb");
    size_t n = 0, k;
    int bad;
    if (!f) return -1;
    setvbuf(f, NULL, _IONBF, 0);
    while (n < size && (k = fread(buf + n, 1, size - n, f)) > 0) n += k;
    bad = ferror(f) || (n == size && fgetc(f) != EOF);
    if (!ferror(f) && bad) errno = E2BIG;
    fclose(f);
    return bad ? -1 : (long)n;
}

/* options.cache_secret_file into the job's keys. 0 after a warning (the first in this process)
   when it cannot be used: that compile then goes without the cache, never with entries it
   cannot authenticate. */
static int gpucompile__secret_warned;
GPUCOMPILE__PRIVATE int gpucompile__cache_secret(gpucompile_job *job) {
    gpucompile__job *j = (gpucompile__job *)job;
    const char *path = j->opts.cache_secret_file, *why;
    unsigned char data[4096];
    long got;
    size_t n;
    llvm_blake3_hasher h;
    int first;
    if (!path || !*path) return 1;
    got = gpucompile__read_secret(path, data, sizeof data);
    why = got < 0 ? (errno == E2BIG ? "larger than 4 KiB" : strerror(errno)) : NULL;
    for (n = got < 0 ? 0 : (size_t)got; n > 0 && (data[n - 1] == '\n' || data[n - 1] == '\r' || data[n - 1] == ' ' || data[n - 1] == '\t');)
        n--; /* an editor's newline is no part of it */
    if (!why && n >= 16) {
        llvm_blake3_hasher_init_derive_key(&h, "gpucompile cache 1: the cache key");
        llvm_blake3_hasher_update(&h, data, n);
        llvm_blake3_hasher_finalize(&h, j->cache_keys, 32);
        llvm_blake3_hasher_init_derive_key(&h, "gpucompile cache 1: the entry tag");
        llvm_blake3_hasher_update(&h, data, n);
        llvm_blake3_hasher_finalize(&h, j->cache_keys + 32, 32);
        gpucompile__wipe(&h, sizeof h);
        j->keyed = 1;
    }
    gpucompile__wipe(data, sizeof data);
    if (j->keyed) return 1;
    if (!why) why = "shorter than 16 bytes (make one with: head -c 32 /dev/urandom | base64)";
    gpucompile_lock();
    first = !gpucompile__secret_warned;
    gpucompile__secret_warned = 1;
    gpucompile_unlock();
    if (first)
        gpucompile__cache_warn(job, "the cache secret '%s' cannot be used (%s): compiling without the cache", path, why);
    return 0;
}

GPUCOMPILE__PRIVATE void gpucompile__hash_str(llvm_blake3_hasher *h, const char *s) {
    uint32_t n = s ? (uint32_t)strlen(s) : 0xffffffffu;
    llvm_blake3_hasher_update(h, &n, sizeof n);
    if (s) llvm_blake3_hasher_update(h, s, n);
}

GPUCOMPILE__PRIVATE void gpucompile__cache_key(gpucompile_job *job, const void *data, size_t size, char hex[65]) {
    const gpucompile_options *o = job->options;
    const gpucompile_target *t = job->target;
    llvm_blake3_hasher h;
    unsigned char d[32];
    char text[8192];
    int i, num[4];
    size_t k;
    if (((gpucompile__job *)job)->keyed) llvm_blake3_hasher_init_keyed(&h, ((gpucompile__job *)job)->cache_keys);
    else llvm_blake3_hasher_init(&h);
    gpucompile__hash_str(&h, "gpucompile-cache-3 " GPUCOMPILE_VERSION_STRING " LLVM " LLVM_VERSION_STRING);
    { /* the libLLVM run on may be a newer patch release than the headers */
        unsigned v[3];
        LLVMGetVersion(&v[0], &v[1], &v[2]);
        llvm_blake3_hasher_update(&h, v, sizeof v);
    }
    gpucompile_target_print(t, text, sizeof text);
    gpucompile__hash_str(&h, text);
    if (job->backend->cache_version) gpucompile__hash_str(&h, job->backend->cache_version);
    num[0] = (int)job->format;
    num[1] = o->debug;
    num[2] = o->num_link;
    num[3] = o->num_tools;
    llvm_blake3_hasher_update(&h, num, sizeof num);
    gpucompile__hash_str(&h, o->toolkit_path);
    gpucompile__hash_str(&h, o->bin_method);
    if (o->jobs > 1) { /* a split compile may lay the binary out otherwise */
        int j = o->jobs;
        llvm_blake3_hasher_update(&h, "jobs", 4);
        llvm_blake3_hasher_update(&h, &j, sizeof j);
    }
    gpucompile__hash_str(&h, o->tool_options);
    gpucompile__hash_str(&h, o->section);
    for (i = 0; i < o->num_link; i++) gpucompile__hash_str(&h, o->link[i]);
    for (i = 0; i < o->num_tools; i++) {
        gpucompile__hash_str(&h, o->tools[i].name);
        gpucompile__hash_str(&h, o->tools[i].path);
    }
    text[0] = 0;
    if (job->backend && job->backend->cache_key) job->backend->cache_key(job, text, sizeof text);
    gpucompile__hash_str(&h, text);
    llvm_blake3_hasher_update(&h, &size, sizeof size);
    llvm_blake3_hasher_update(&h, data, size);
    llvm_blake3_hasher_finalize(&h, d, sizeof d);
    gpucompile__wipe(&h, sizeof h); /* a keyed hasher holds the key */
    for (k = 0; k < 32; k++) snprintf(hex + 2 * k, 3, "%02x", d[k]);
}

/* Dependency identities, remembered per process by path and stat (gpucompile__file_stat). */
typedef struct gpucompile__ident { char path[1024]; gpucompile__file_stat st; unsigned char id[32]; } gpucompile__ident;
static gpucompile__ident gpucompile__idents[64];
static int gpucompile__num_idents, gpucompile__next_ident;

GPUCOMPILE__PRIVATE int gpucompile__hash_file(const char *path, uint64_t size, unsigned char id[32]) {
    const uint64_t big = (uint64_t)8 << 20, part = (uint64_t)1 << 20;
    llvm_blake3_hasher h;
    char chunk[65536];
    uint64_t at = 0, done;
    size_t n;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, &size, sizeof size);
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        llvm_blake3_hasher_update(&h, chunk, n);
        at += n;
        if (size > big && at >= part && at < size - part) { /* a big file: its head and tail */
            if (fseek(f, (long)(size - part), SEEK_SET) != 0) break;
            at = size - part;
        }
    }
    done = at;
    fclose(f);
    llvm_blake3_hasher_finalize(&h, id, 32);
    return done == size;
}

/* The identity records of a cache directory: <dir>/ident-<32 hex digits of the path's hash>,
   each "GCIDENT1", the stat fields, the 32-byte identity and the path. They carry an identity
   from the process that computed it to later ones, so that a first cache hit needs no tool run
   (a toolkit's `--version` costs 5-15 ms) and no hashing of a 100 MB library: the identity is taken
   again only when the file's stat differs from the one recorded beside it. The key is not
   weakened: the identity is the same one (a tool's version output, a file's hash); only its
   reuse is decided by the stat, as within a process. Not cache entries (the names differ):
   eviction and stats skip them, gpucompile_cache_clear removes them. */
#define GPUCOMPILE__IDENT_MAGIC "GCIDENT1"
GPUCOMPILE__PRIVATE void gpucompile__ident_path(const char *dir, const char *path, char *buf, size_t size) {
    llvm_blake3_hasher h;
    unsigned char d[16];
    char hex[33];
    int k;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, path, strlen(path));
    llvm_blake3_hasher_finalize(&h, d, sizeof d);
    for (k = 0; k < 16; k++) snprintf(hex + 2 * k, 3, "%02x", d[k]);
    snprintf(buf, size, "%s/ident-%s", dir, hex);
}

/* Host byte order, as the cache's entries: such bytes stay on one machine. */
GPUCOMPILE__PRIVATE void gpucompile__ident_put_stat(gpucompile_buf *b, const gpucompile__file_stat *st) {
    gpucompile_buf_add(b, &st->size, 8);
    gpucompile_buf_add(b, &st->mtime, 8);
    gpucompile_buf_add(b, &st->ino, 8);
    gpucompile_buf_add(b, &st->dev, 8);
    gpucompile_buf_add(b, &st->ctime, 8);
}

/* The recorded identity of path when its stat is still st. */
GPUCOMPILE__PRIVATE int gpucompile__ident_load(const char *dir, const char *path, const gpucompile__file_stat *st,
                                               const gpucompile_allocator *a, unsigned char id[32]) {
    char file[4200];
    unsigned char *data = NULL;
    size_t size = 0, n = strlen(path);
    uint32_t len = 0;
    gpucompile_buf want;
    int ok;
    gpucompile__ident_path(dir, path, file, sizeof file);
    if (gpucompile__read(file, a, 1 << 16, 1, &data, &size) != GPUCOMPILE_OK) return 0;
    memset(&want, 0, sizeof want);
    want.a = a;
    gpucompile_buf_add(&want, GPUCOMPILE__IDENT_MAGIC, 8);
    gpucompile__ident_put_stat(&want, st);
    ok = !want.oom && size == want.len + 32 + 4 + n && memcmp(data, want.data, want.len) == 0;
    if (ok) memcpy(&len, data + want.len + 32, 4);
    ok = ok && len == n && memcmp(data + want.len + 36, path, n) == 0;
    if (ok) memcpy(id, data + want.len, 32);
    gpucompile_free(a, want.data);
    gpucompile_free(a, data);
    return ok;
}

GPUCOMPILE__PRIVATE void gpucompile__ident_save(const char *dir, const char *path, const gpucompile__file_stat *st,
                                                const gpucompile_allocator *a, const unsigned char id[32]) {
    char file[4200];
    gpucompile_buf b;
    memset(&b, 0, sizeof b);
    b.a = a;
    gpucompile_buf_add(&b, GPUCOMPILE__IDENT_MAGIC, 8);
    gpucompile__ident_put_stat(&b, st);
    gpucompile_buf_add(&b, id, 32);
    {
        uint32_t n = (uint32_t)strlen(path);
        gpucompile_buf_add(&b, &n, 4);
        gpucompile_buf_add(&b, path, n);
    }
    gpucompile__ident_path(dir, path, file, sizeof file);
    if (!b.oom && gpucompile__mkdirs(dir)) gpucompile_write_file(file, b.data, b.len); /* a record lost is only a rerun */
    gpucompile_free(a, b.data);
}

/* path's identity (dep: a file, or GPUCOMPILE__TOOL_DEP and a tool's name); 0 when it is gone.
   Taken once per process and stat, or (dir, the cache directory) once per stat at all: see the
   identity records above. */
GPUCOMPILE__PRIVATE int gpucompile__dep_identity(const gpucompile_allocator *a, const char *dep, const char *dir, unsigned char id[32]) {
    int tool = gpucompile__starts_with(dep, GPUCOMPILE__TOOL_DEP), i, ok, st = -1;
    char path[4096];
    gpucompile__file_stat fs;
    if (tool ? !gpucompile_which(dep + strlen(GPUCOMPILE__TOOL_DEP), path, sizeof path)
             : (size_t)snprintf(path, sizeof path, "%s", dep) >= sizeof path)
        return 0;
    if (!gpucompile__stat_file(path, &fs)) return 0;
    gpucompile_lock();
    for (i = 0; i < gpucompile__num_idents; i++) {
        gpucompile__ident *e = &gpucompile__idents[i];
        if (memcmp(&e->st, &fs, sizeof fs) == 0 && strcmp(e->path, path) == 0) {
            memcpy(id, e->id, 32);
            gpucompile_unlock();
            return 1;
        }
    }
    gpucompile_unlock();
    if (dir && *dir && gpucompile__ident_load(dir, path, &fs, a, id)) ok = 1;
    else if (tool) {
        const char *argv[3];
        gpucompile_buf out;
        llvm_blake3_hasher h;
        argv[0] = path;
        argv[1] = "--version";
        argv[2] = NULL;
        memset(&out, 0, sizeof out);
        out.a = a;
        ok = gpucompile__spawn(a, argv, 30.0, &st, &out, NULL, NULL, NULL, 1) == GPUCOMPILE_OK && !out.oom;
        llvm_blake3_hasher_init(&h);
        llvm_blake3_hasher_update(&h, &st, sizeof st);
        if (out.data) llvm_blake3_hasher_update(&h, out.data, out.len);
        llvm_blake3_hasher_finalize(&h, id, 32);
        gpucompile_free(a, out.data);
        if (ok && dir && *dir) gpucompile__ident_save(dir, path, &fs, a, id);
    } else {
        ok = gpucompile__hash_file(path, fs.size, id);
        if (ok && dir && *dir) gpucompile__ident_save(dir, path, &fs, a, id);
    }
    if (!ok) return 0;
    gpucompile_lock();
    if (strlen(path) < sizeof gpucompile__idents[0].path) {
        gpucompile__ident *e = &gpucompile__idents[gpucompile__next_ident];
        gpucompile__next_ident = (gpucompile__next_ident + 1) % 64;
        if (gpucompile__num_idents < 64) gpucompile__num_idents++;
        memcpy(e->path, path, strlen(path) + 1);
        e->st = fs;
        memcpy(e->id, id, 32);
    }
    gpucompile_unlock();
    return 1;
}

/* An object as bytes (the cache's entries, the isolated compiler's answer): "GPUOBJ03", u64
   payload size, 32-byte blake3 of the payload, then the payload: dependencies (u32 count; each
   u32 length, path, 32-byte identity, zero in a worker's answer), u64 size + diagnostic records
   (the warnings and remarks a hit replays), target, triple, chip (u32 length + bytes each), u32
   kind, u32 format, u64 size + bytes, kernels (u32 count; each u32 length, name, 10 x i32, then
   type, arg_attrs, metadata), properties; the last four may be NULL (length 0xFFFFFFFF).
   Host byte order: such bytes stay on one machine. */
#define GPUCOMPILE__OBJ_MAGIC "GPUOBJ03"

GPUCOMPILE__PRIVATE void gpucompile__put32(gpucompile_buf *b, uint32_t v) { gpucompile_buf_add(b, &v, 4); }
GPUCOMPILE__PRIVATE void gpucompile__put64(gpucompile_buf *b, uint64_t v) { gpucompile_buf_add(b, &v, 8); }
GPUCOMPILE__PRIVATE void gpucompile__put_str(gpucompile_buf *b, const char *s) {
    gpucompile__put32(b, s ? (uint32_t)strlen(s) : 0);
    if (s) gpucompile_buf_str(b, s);
}

GPUCOMPILE__PRIVATE void gpucompile__put_opt(gpucompile_buf *b, const char *s) {
    if (s) gpucompile__put_str(b, s);
    else gpucompile__put32(b, 0xffffffffu);
}

typedef struct gpucompile__reader { const unsigned char *p, *end; int bad; } gpucompile__reader;

GPUCOMPILE__PRIVATE const unsigned char *gpucompile__take(gpucompile__reader *r, uint64_t n) {
    const unsigned char *p = r->p;
    if (r->bad || n > (uint64_t)(r->end - r->p)) { r->bad = 1; return NULL; }
    r->p += n;
    return p;
}

/* n bytes into v (left as it is past the end). */
GPUCOMPILE__PRIVATE void gpucompile__get(gpucompile__reader *r, void *v, size_t n) {
    const unsigned char *p = gpucompile__take(r, n);
    if (p) memcpy(v, p, n);
}

GPUCOMPILE__PRIVATE uint32_t gpucompile__get32(gpucompile__reader *r) {
    uint32_t v = 0;
    gpucompile__get(r, &v, 4);
    return v;
}

GPUCOMPILE__PRIVATE uint64_t gpucompile__get64(gpucompile__reader *r) {
    uint64_t v = 0;
    gpucompile__get(r, &v, 8);
    return v;
}

GPUCOMPILE__PRIVATE char *gpucompile__get_str(gpucompile__reader *r, const gpucompile_allocator *a) {
    uint32_t n = gpucompile__get32(r);
    const unsigned char *p = gpucompile__take(r, n);
    return p ? gpucompile__strndup(a, (const char *)p, n) : NULL;
}

/* A string that may be NULL: 1 when read (*out NULL or the copy), 0 when torn or out of memory. */
GPUCOMPILE__PRIVATE int gpucompile__get_opt(gpucompile__reader *r, const gpucompile_allocator *a, char **out) {
    const unsigned char *p = r->p;
    *out = NULL;
    if (gpucompile__get32(r) == 0xffffffffu && !r->bad) return 1;
    r->p = p;
    return (*out = gpucompile__get_str(r, a)) != NULL;
}

/* ids: with the dependencies' identities (0 when one is gone; ident_dir: where their records
   are, NULL: none); diags: records or NULL. */
GPUCOMPILE__PRIVATE int gpucompile__serialize(const gpucompile_object *o, char *const *deps, int num_deps, int ids,
                                              const gpucompile_buf *diags, gpucompile_buf *b, const char *ident_dir) {
    unsigned char sum[32];
    llvm_blake3_hasher h;
    uint64_t payload;
    int i;
    memset(sum, 0, sizeof sum);
    gpucompile_buf_add(b, GPUCOMPILE__OBJ_MAGIC, 8);
    gpucompile__put64(b, 0);
    gpucompile_buf_add(b, sum, 32);
    gpucompile__put32(b, (uint32_t)num_deps);
    for (i = 0; i < num_deps; i++) {
        unsigned char id[32];
        memset(id, 0, sizeof id);
        if (ids && !gpucompile__dep_identity(b->a, deps[i], ident_dir, id)) return 0;
        gpucompile__put_str(b, deps[i]);
        gpucompile_buf_add(b, id, sizeof id);
    }
    gpucompile__put64(b, diags ? diags->len : 0);
    if (diags) gpucompile_buf_add(b, diags->data, diags->len);
    gpucompile__put_str(b, o->target);
    gpucompile__put_str(b, o->triple);
    gpucompile__put_str(b, o->chip);
    gpucompile__put32(b, (uint32_t)o->kind);
    gpucompile__put32(b, (uint32_t)o->format);
    gpucompile__put64(b, o->size);
    gpucompile_buf_add(b, o->data, o->size);
    gpucompile__put32(b, (uint32_t)o->num_kernels);
    for (i = 0; i < o->num_kernels; i++) {
        const gpucompile_kernel *k = &o->kernels[i];
        int32_t v[0 GPUCOMPILE__KERNEL_INTS(GPUCOMPILE__KERNEL_COUNT)];
        int f = 0;
#define GPUCOMPILE__KERNEL_PUT(x) v[f++] = k->x;
        GPUCOMPILE__KERNEL_INTS(GPUCOMPILE__KERNEL_PUT)
        gpucompile__put_str(b, k->name);
        gpucompile_buf_add(b, v, sizeof v);
        gpucompile__put_opt(b, k->type);
        gpucompile__put_opt(b, k->arg_attrs);
        gpucompile__put_opt(b, k->metadata);
    }
    gpucompile__put_opt(b, o->properties);
    if (b->oom) return 0;
    payload = b->len - 48;
    memcpy(b->data + 8, &payload, 8);
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, b->data + 48, b->len - 48);
    llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
    memcpy(b->data + 16, sum, 32);
    return 1;
}

/* Are the bytes an object as a whole: magic, size and checksum? */
GPUCOMPILE__PRIVATE int gpucompile__entry_whole(const unsigned char *data, size_t size) {
    unsigned char sum[32];
    llvm_blake3_hasher h;
    uint64_t n;
    if (!data || size < 48 || memcmp(data, GPUCOMPILE__OBJ_MAGIC, 8) != 0) return 0;
    memcpy(&n, data + 8, 8);
    if (n != size - 48) return 0;
    llvm_blake3_hasher_init(&h);
    llvm_blake3_hasher_update(&h, data + 48, size - 48);
    llvm_blake3_hasher_finalize(&h, sum, sizeof sum);
    return memcmp(sum, data + 16, 32) == 0;
}

/* An entry under options.cache_secret_file is the object's bytes, then "GPUTAG01" and the tag:
   BLAKE3 keyed by the tag key over the cache key and those bytes, so that an entry copied
   under another key is refused as surely as one made without the secret. The object's bytes
   are unchanged (gpucompile_object_serialize's format); without a secret there is no tag. */
#define GPUCOMPILE__TAG_MAGIC "GPUTAG01"
#define GPUCOMPILE__TAG_SIZE 40

GPUCOMPILE__PRIVATE void gpucompile__entry_tag(const gpucompile__job *j, const char *key, const unsigned char *data, size_t size,
                                               unsigned char tag[32]) {
    llvm_blake3_hasher h;
    uint64_t n = size;
    llvm_blake3_hasher_init_keyed(&h, j->cache_keys + 32);
    gpucompile__hash_str(&h, key);
    llvm_blake3_hasher_update(&h, &n, sizeof n);
    llvm_blake3_hasher_update(&h, data, size);
    llvm_blake3_hasher_finalize(&h, tag, 32);
    gpucompile__wipe(&h, sizeof h);
}

/* Appends the tag to an entry being written (nothing without a secret). */
GPUCOMPILE__PRIVATE void gpucompile__entry_seal(gpucompile_job *job, const char *key, gpucompile_buf *b) {
    const gpucompile__job *j = (const gpucompile__job *)job;
    unsigned char tag[32];
    if (!j->keyed || b->oom) return;
    gpucompile__entry_tag(j, key, (const unsigned char *)b->data, b->len, tag);
    gpucompile_buf_add(b, GPUCOMPILE__TAG_MAGIC, 8);
    gpucompile_buf_add(b, tag, 32);
}

/* An entry as read: 1 and *object_size (the object's bytes, still to be checked whole) when
   there is no secret or the tag is valid; 0 when a secret is set and the tag is missing or
   wrong. The comparison takes the same time wherever the tags differ. */
GPUCOMPILE__PRIVATE int gpucompile__entry_open(gpucompile_job *job, const char *key, const unsigned char *data, size_t size,
                                               size_t *object_size) {
    const gpucompile__job *j = (const gpucompile__job *)job;
    unsigned char tag[32], diff = 0;
    size_t i;
    *object_size = size;
    if (!j->keyed) return 1;
    if (!data || size < GPUCOMPILE__TAG_SIZE || memcmp(data + size - GPUCOMPILE__TAG_SIZE, GPUCOMPILE__TAG_MAGIC, 8) != 0) return 0;
    gpucompile__entry_tag(j, key, data, size - GPUCOMPILE__TAG_SIZE, tag);
    for (i = 0; i < 32; i++) diff |= (unsigned char)(tag[i] ^ data[size - 32 + i]);
    *object_size = size - GPUCOMPILE__TAG_SIZE;
    return diff == 0;
}

/* Fills o (zeroed, allocator set) from bytes; 0 when they are torn, corrupt, or (check_deps) a
   dependency changed. Fields filled before a failure are left for the caller to free. *diags
   (when not NULL) points at the diagnostic records inside data. ident_dir: where the
   dependencies' identity records are (NULL: none). */
GPUCOMPILE__PRIVATE int gpucompile__deserialize(const unsigned char *data, size_t size, int check_deps, gpucompile_object *o,
                                                 gpucompile_job *deps_to, const char **diags, size_t *diags_len, const char *ident_dir) {
    const gpucompile_allocator *a = &o->allocator;
    gpucompile__reader r;
    uint32_t i, n;
    uint64_t len;
    const unsigned char *p;
    if (!gpucompile__entry_whole(data, size)) return 0;
    r.p = data + 48;
    r.end = data + size;
    r.bad = 0;
    n = gpucompile__get32(&r);
    for (i = 0; i < n && !r.bad; i++) {
        char *dep = gpucompile__get_str(&r, a);
        const unsigned char *want = gpucompile__take(&r, 32);
        unsigned char id[32];
        int same = dep && want && (!check_deps || (gpucompile__dep_identity(a, dep, ident_dir, id) && memcmp(id, want, 32) == 0));
        if (same && deps_to) gpucompile_job_add_dependency(deps_to, dep);
        gpucompile_free(a, dep);
        if (!same) return 0; /* stale */
    }
    len = gpucompile__get64(&r);
    p = gpucompile__take(&r, len);
    if (!p) return 0;
    if (diags) *diags = (const char *)p;
    if (diags_len) *diags_len = (size_t)len;
    o->target = gpucompile__get_str(&r, a);
    o->triple = gpucompile__get_str(&r, a);
    o->chip = gpucompile__get_str(&r, a);
    o->kind = (gpucompile_target_kind)gpucompile__get32(&r);
    o->format = (gpucompile_format)gpucompile__get32(&r);
    len = gpucompile__get64(&r);
    p = gpucompile__take(&r, len);
    if (r.bad || !o->target || !o->triple || !o->chip) return 0;
    o->data = (unsigned char *)gpucompile_alloc(a, (size_t)len + 1);
    if (!o->data) return 0;
    memcpy(o->data, p, (size_t)len);
    o->data[len] = 0;
    o->size = (size_t)len;
    n = gpucompile__get32(&r);
    if (r.bad || n > (uint32_t)(r.end - r.p) / 44) return 0;
    o->kernels = (gpucompile_kernel *)gpucompile_alloc(a, (n ? n : 1) * sizeof(gpucompile_kernel));
    if (!o->kernels) return 0;
    for (i = 0; i < n; i++) {
        gpucompile_kernel *k = &o->kernels[i];
        int32_t v[0 GPUCOMPILE__KERNEL_INTS(GPUCOMPILE__KERNEL_COUNT)];
        char *name = gpucompile__get_str(&r, a);
        const unsigned char *f = gpucompile__take(&r, sizeof v);
        int j = 0;
        if (!name || !f) { gpucompile_free(a, name); return 0; }
        memcpy(v, f, sizeof v);
        memset(k, 0, sizeof *k);
        k->name = name;
        o->num_kernels++;
#define GPUCOMPILE__KERNEL_GET(x) k->x = v[j++];
        GPUCOMPILE__KERNEL_INTS(GPUCOMPILE__KERNEL_GET)
        if (!gpucompile__get_opt(&r, a, &k->type) || !gpucompile__get_opt(&r, a, &k->arg_attrs) ||
            !gpucompile__get_opt(&r, a, &k->metadata))
            return 0;
    }
    if (!gpucompile__get_opt(&r, a, &o->properties)) return 0;
    return r.p == r.end;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_serialize(const gpucompile_object *obj, const gpucompile_allocator *allocator,
                                                             unsigned char **data, size_t *size) {
    gpucompile_buf b;
    if (!data || !size) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *data = NULL;
    *size = 0;
    if (!obj) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&b, 0, sizeof b);
    b.a = allocator;
    if (!gpucompile__serialize(obj, NULL, 0, 0, NULL, &b, NULL)) {
        gpucompile_free(allocator, b.data);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    *data = (unsigned char *)b.data;
    *size = b.len;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_object_deserialize(const void *data, size_t size, const gpucompile_allocator *allocator,
                                                               gpucompile_object **out) {
    gpucompile_object *o;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!(o = gpucompile__object_alloc(allocator))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (!gpucompile__deserialize((const unsigned char *)data, size, 0, o, NULL, NULL, NULL, NULL)) {
        gpucompile_object_free(o);
        return GPUCOMPILE_ERROR_INVALID_BINARY;
    }
    *out = o;
    return GPUCOMPILE_OK;
}

/* ==== [section: remote cache] ============================================================ */
/* A Redis server behind the cache directory (options.cache_remote =
   "redis://[[USER:]PASSWORD@]HOST[:PORT][/DB]"), through hiredis opened at run time
   (libhiredis.so.0.14 or 1.x; never linked). Each exchange connects, sends AUTH when there is a
   password (AUTH PASSWORD, or AUTH USER PASSWORD for an ACL user), SELECT when DB is not 0, then
   one GET or SET: an ACL user needs no more than ~gpucompile:* +get +set (+select with a DB).
   Values are the local entries' bytes under "gpucompile:" + key, checked like local ones
   before use (with options.cache_secret_file: their tags too). A remote problem (no hiredis,
   refused, a timeout, NOAUTH, WRONGPASS, NOPERM, an error reply such as a full server's) is one
   warning, and the remote store is then left alone for the rest of the process: compiles go on
   locally. A corrupt value is a warning and a miss (the fresh entry replaces it). Messages name
   the server without its userinfo; the password is wiped from our memory after each AUTH. */
typedef struct gpucompile__redis { int err; char errstr[128]; } gpucompile__redis; /* redisContext's head */
typedef struct gpucompile__redis_reply0 { int type; long long integer; size_t len; char *str; } gpucompile__redis_reply0;
typedef struct gpucompile__redis_reply1 { int type; long long integer; double dval; size_t len; char *str; } gpucompile__redis_reply1;
enum { GPUCOMPILE__REDIS_STRING = 1, GPUCOMPILE__REDIS_NIL = 4, GPUCOMPILE__REDIS_STATUS = 5, GPUCOMPILE__REDIS_ERROR = 6 };
static struct {
    int tried, v1, off; /* off: a problem was met (or hiredis is missing): no more remote calls */
    void *lib;
    gpucompile__redis *(*connect)(const char *ip, int port, gpucompile__timeval tv);
    int (*set_timeout)(gpucompile__redis *c, gpucompile__timeval tv);
    void *(*command)(gpucompile__redis *c, int argc, const char **argv, const size_t *argvlen);
    void (*free_reply)(void *reply);
    void (*free_ctx)(gpucompile__redis *c);
} gpucompile__hiredis;

/* options.cache_remote taken apart, as ccache reads it: the userinfo ends at the last '@' (a
   password may hold '@', ':' or '/'), USER at its first ':'; userinfo without ':' is the
   password, or the user when the password comes from options.cache_remote_password_file.
   %XX escapes are decoded. name: the address without the userinfo (but the user), for
   messages; filled first, also when the rest is refused. */
typedef struct gpucompile__redis_url {
    char host[256], user[256], pass[1024], name[600];
    long port, db;
} gpucompile__redis_url;

GPUCOMPILE__PRIVATE int gpucompile__hex_digit(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* s[0..n) with %XX decoded into out; 0 when it does not fit. */
GPUCOMPILE__PRIVATE int gpucompile__unescape(const char *s, size_t n, char *out, size_t size) {
    size_t i, k = 0;
    for (i = 0; i < n; i++, k++) {
        int v = (unsigned char)s[i];
        if (k + 1 >= size) return 0;
        if (v == '%' && i + 2 < n && gpucompile__hex_digit(s[i + 1]) >= 0 && gpucompile__hex_digit(s[i + 2]) >= 0) {
            v = gpucompile__hex_digit(s[i + 1]) * 16 + gpucompile__hex_digit(s[i + 2]);
            i += 2;
        }
        out[k] = (char)v;
    }
    out[k] = 0;
    return 1;
}

/* NULL when url is an address, else why not (never quoting the userinfo). */
GPUCOMPILE__PRIVATE const char *gpucompile__redis_parse(const char *url, int pass_from_file, gpucompile__redis_url *u) {
    static const char *const not_one = "not a redis://[[USER:]PASSWORD@]HOST[:PORT][/DB] address";
    const char *p, *at, *colon, *end, *slash, *scheme;
    char *stop;
    memset(u, 0, sizeof *u);
    u->port = 6379;
    if (!url) url = "";
    scheme = strstr(url, "://");
    p = scheme ? scheme + 3 : url;
    at = strrchr(p, '@');
    snprintf(u->name, sizeof u->name, "%.*s%.400s", (int)(p - url < 16 ? p - url : 0), url, at ? at + 1 : p);
    if (gpucompile__starts_with(url, "rediss://")) return "TLS (rediss://) is not supported: redis:// on a trusted network or a tunnel";
    if (!gpucompile__starts_with(url, "redis://")) return not_one;
    if (at) {
        colon = (const char *)memchr(p, ':', (size_t)(at - p));
        if (colon || pass_from_file) { /* USER:PASSWORD, :PASSWORD, USER: ; or USER with a file */
            const char *ue = colon ? colon : at;
            if (!gpucompile__unescape(p, (size_t)(ue - p), u->user, sizeof u->user)) return "the user name is too long";
            if (colon && !gpucompile__unescape(colon + 1, (size_t)(at - colon - 1), u->pass, sizeof u->pass))
                return "the password is too long";
        } else if (!gpucompile__unescape(p, (size_t)(at - p), u->pass, sizeof u->pass)) {
            return "the password is too long";
        }
        p = at + 1;
        if (u->user[0]) snprintf(u->name, sizeof u->name, "redis://%.100s@%.400s", u->user, p);
    }
    slash = strchr(p, '/');
    end = slash ? slash : p + strlen(p);
    colon = (const char *)memchr(p, ':', (size_t)(end - p));
    if ((size_t)((colon ? colon : end) - p) >= sizeof u->host) return "the host name is too long";
    memcpy(u->host, p, (size_t)((colon ? colon : end) - p));
    if (colon) {
        u->port = strtol(colon + 1, &stop, 10);
        if (stop != end || colon + 1 == end) u->port = 0;
    }
    if (slash) {
        u->db = strtol(slash + 1, &stop, 10);
        if (*stop || !slash[1]) u->db = -1;
    }
    if (!u->host[0] || u->port <= 0 || u->port > 65535 || u->db < 0) return not_one;
    return NULL;
}

/* What to do about a refusal, by the code the reply starts with. */
GPUCOMPILE__PRIVATE const char *gpucompile__redis_hint(const char *reply) {
    if (gpucompile__starts_with(reply, "NOAUTH"))
        return " (the server wants a password: redis://[[USER:]PASSWORD@]HOST or a password file)";
    if (gpucompile__starts_with(reply, "WRONGPASS")) return " (the user or the password is not the server's)";
    if (gpucompile__starts_with(reply, "NOPERM")) return " (the user needs ~gpucompile:* +get +set, and +select with a DB)";
    return "";
}

/* Once per process: turns the remote store off, with one warning: "what[: reply]". */
GPUCOMPILE__PRIVATE void gpucompile__remote_off(gpucompile_job *job, const char *what, const char *reply) {
    int first;
    gpucompile_lock();
    first = !gpucompile__hiredis.off;
    gpucompile__hiredis.off = 1;
    gpucompile_unlock();
    if (first) {
        gpucompile__redis_url u;
        const char *pf = job->options->cache_remote_password_file;
        gpucompile__redis_parse(job->options->cache_remote, pf && *pf, &u);
        gpucompile__cache_warn(job, "remote cache %s: %s%s%.300s%s; compiling without it", u.name, what, reply ? ": " : "",
                               reply ? reply : "", reply ? gpucompile__redis_hint(reply) : "");
        gpucompile__wipe(&u, sizeof u);
    }
}

GPUCOMPILE__PRIVATE int gpucompile__hiredis_open(void) {
    static const char *const names[] = {"libhiredis.so.0.14", "libhiredis.so.1.1.0", "libhiredis.so.1.0.0"};
    size_t i;
    gpucompile_lock();
    for (i = 0; !gpucompile__hiredis.tried && i < sizeof names / sizeof names[0]; i++) {
        void *lib = gpucompile_dlopen(names[i]);
        if (!lib) continue;
        if (gpucompile_dlfn(lib, "redisConnectWithTimeout", &gpucompile__hiredis.connect) &&
            gpucompile_dlfn(lib, "redisSetTimeout", &gpucompile__hiredis.set_timeout) &&
            gpucompile_dlfn(lib, "redisCommandArgv", &gpucompile__hiredis.command) &&
            gpucompile_dlfn(lib, "freeReplyObject", &gpucompile__hiredis.free_reply) &&
            gpucompile_dlfn(lib, "redisFree", &gpucompile__hiredis.free_ctx)) {
            gpucompile__hiredis.lib = lib;
            gpucompile__hiredis.v1 = i > 0; /* 1.x added a double before len */
            break;
        }
        gpucompile_dlclose(lib);
    }
    gpucompile__hiredis.tried = 1;
    i = gpucompile__hiredis.lib != NULL && !gpucompile__hiredis.off;
    gpucompile_unlock();
    return (int)i;
}

/* A reply's type and string (str/len NULL/0 when none). */
GPUCOMPILE__PRIVATE int gpucompile__redis_reply(void *reply, const char **str, size_t *len) {
    if (gpucompile__hiredis.v1) {
        gpucompile__redis_reply1 *r = (gpucompile__redis_reply1 *)reply;
        *str = r->str;
        *len = r->len;
        return r->type;
    } else {
        gpucompile__redis_reply0 *r = (gpucompile__redis_reply0 *)reply;
        *str = r->str;
        *len = r->len;
        return r->type;
    }
}

/* hiredis writes with write(): a server gone mid-request raises SIGPIPE, which must not end
   the host. The command runs with SIGPIPE blocked in this thread; one it raised is taken. */
GPUCOMPILE__PRIVATE void *gpucompile__redis_command(gpucompile__redis *c, int argc, const char **argv, const size_t *lens) {
    gpucompile__sigpipe s;
    void *r;
    gpucompile__sigpipe_block(&s);
    r = gpucompile__hiredis.command(c, argc, argv, lens);
    gpucompile__sigpipe_unblock(&s);
    return r;
}

/* options.cache_remote_password_file's first line into u->pass; 0 after a warning. */
GPUCOMPILE__PRIVATE int gpucompile__redis_password_file(gpucompile_job *job, gpucompile__redis_url *u) {
    const char *path = job->options->cache_remote_password_file;
    long got = gpucompile__read_secret(path, (unsigned char *)u->pass, sizeof u->pass - 1);
    size_t n = 0;
    char what[700];
    if (got > 0) {
        n = strcspn(u->pass, "\r\n");
        gpucompile__wipe(u->pass + n, sizeof u->pass - n); /* the first line only */
    }
    if (u->pass[0]) return 1;
    snprintf(what, sizeof what, "the password file '%.500s': %s", path,
             got >= 0 ? "its first line is empty" : errno == E2BIG ? "larger than 1 KiB" : strerror(errno));
    gpucompile__remote_off(job, what, NULL);
    return 0;
}

/* One command whose answer must be a status (AUTH, SELECT); 0 after a warning. */
GPUCOMPILE__PRIVATE int gpucompile__redis_status(gpucompile_job *job, gpucompile__redis *c, int argc, const char **argv,
                                                 const char *secret) {
    size_t lens[3], len;
    const char *str;
    void *r;
    int i, ok;
    for (i = 0; i < argc; i++) lens[i] = strlen(argv[i]);
    r = gpucompile__redis_command(c, argc, argv, lens);
    ok = r && gpucompile__redis_reply(r, &str, &len) == GPUCOMPILE__REDIS_STATUS;
    if (!ok) {
        const char *why = r ? str : c->errstr;
        if (secret && *secret && why && strstr(why, secret)) why = "(the reply quotes the password: withheld)";
        gpucompile__remote_off(job, argv[0], why ? why : "no reply");
    }
    if (r) gpucompile__hiredis.free_reply(r);
    return ok;
}

/* Connects, authenticates and selects the database for one exchange; NULL after a warning
   when it cannot. */
GPUCOMPILE__PRIVATE gpucompile__redis *gpucompile__redis_connect(gpucompile_job *job) {
    const char *pf = job->options->cache_remote_password_file, *bad, *argv[3];
    gpucompile__redis_url u;
    gpucompile__timeval connect_tv = {0, 500000}, io_tv = {2, 0};
    gpucompile__redis *c = NULL;
    char n[24];
    int ok = 1;
    if (!gpucompile__hiredis_open()) {
        if (!gpucompile__hiredis.lib) gpucompile__remote_off(job, "cannot open libhiredis.so.0.14 (Debian: libhiredis0.14)", NULL);
        return NULL;
    }
    if ((bad = gpucompile__redis_parse(job->options->cache_remote, pf && *pf, &u)) != NULL) {
        gpucompile__wipe(&u, sizeof u);
        gpucompile__remote_off(job, bad, NULL);
        return NULL;
    }
    if (!u.pass[0] && pf && *pf) ok = gpucompile__redis_password_file(job, &u);
    if (ok) {
        c = gpucompile__hiredis.connect(u.host, (int)u.port, connect_tv);
        if (!c || c->err) {
            gpucompile__remote_off(job, c ? c->errstr : "out of memory", NULL);
            ok = 0;
        }
    }
    if (ok) gpucompile__hiredis.set_timeout(c, io_tv);
    if (ok && u.pass[0]) {
        argv[0] = "AUTH";
        argv[1] = u.user[0] ? u.user : u.pass;
        argv[2] = u.pass;
        ok = gpucompile__redis_status(job, c, u.user[0] ? 3 : 2, argv, u.pass);
    }
    if (ok && u.db) {
        snprintf(n, sizeof n, "%ld", u.db);
        argv[0] = "SELECT";
        argv[1] = n;
        ok = gpucompile__redis_status(job, c, 2, argv, NULL);
    }
    gpucompile__wipe(&u, sizeof u);
    if (!ok && c) gpucompile__hiredis.free_ctx(c);
    return ok ? c : NULL;
}

/* One command (GET key or SET key value); the reply, or NULL after a warning. */
GPUCOMPILE__PRIVATE void *gpucompile__redis_call(gpucompile_job *job, gpucompile__redis **c, const char *key, const unsigned char *value, size_t size) {
    char name[80];
    const char *argv[3], *str;
    size_t lens[3], len;
    void *r;
    if ((*c = gpucompile__redis_connect(job)) == NULL) return NULL; /* (it asks whether the store is off) */
    snprintf(name, sizeof name, "gpucompile:%s", key);
    argv[0] = value ? "SET" : "GET"; argv[1] = name; argv[2] = (const char *)value;
    lens[0] = 3; lens[1] = strlen(name); lens[2] = size;
    r = gpucompile__redis_command(*c, value ? 3 : 2, argv, lens);
    if (!r || gpucompile__redis_reply(r, &str, &len) == GPUCOMPILE__REDIS_ERROR) {
        gpucompile__remote_off(job, value ? "SET" : "GET", r ? str : (*c)->errstr);
        if (r) gpucompile__hiredis.free_reply(r);
        gpucompile__hiredis.free_ctx(*c);
        *c = NULL;
        return NULL;
    }
    return r;
}

/* The remote entry's bytes (allocated): 1 when there is one that is whole (and, with a secret,
   carries a valid tag), -1 when one was refused for its tag, 0 otherwise. */
GPUCOMPILE__PRIVATE int gpucompile__remote_get(gpucompile_job *job, const char *key, unsigned char **data, size_t *size) {
    gpucompile__redis *c = NULL;
    const char *str;
    size_t len, n = 0;
    int type, ok = 0;
    void *r;
    if (!job->options->cache_remote || !*job->options->cache_remote) return 0;
    if (!GPUCOMPILE__HAVE_HIREDIS) {
        gpucompile__cache_warn(job, "the remote cache needs hiredis: not on Windows");
        return 0;
    }
    if ((r = gpucompile__redis_call(job, &c, key, NULL, 0)) == NULL) return 0;
    type = gpucompile__redis_reply(r, &str, &len);
    if (type == GPUCOMPILE__REDIS_STRING && !gpucompile__entry_open(job, key, (const unsigned char *)str, len, &n)) {
        ok = -1;
    } else if (type == GPUCOMPILE__REDIS_STRING && !gpucompile__entry_whole((const unsigned char *)str, n)) {
        gpucompile__redis_url u;
        const char *pf = job->options->cache_remote_password_file;
        gpucompile__redis_parse(job->options->cache_remote, pf && *pf, &u);
        gpucompile__cache_warn(job, "remote cache %s: the entry gpucompile:%s is corrupt or truncated (%zu bytes); compiling it again",
                               u.name, key, len);
        gpucompile__wipe(&u, sizeof u);
    } else if (type == GPUCOMPILE__REDIS_STRING && len <= (job->options->max_input_bytes ? job->options->max_input_bytes : GPUCOMPILE_DEFAULT_MAX_INPUT) &&
             (*data = (unsigned char *)gpucompile_job_alloc(job, len ? len : 1)) != NULL) {
        memcpy(*data, str, len);
        *size = len;
        ok = 1;
    }
    gpucompile__hiredis.free_reply(r);
    gpucompile__hiredis.free_ctx(c);
    return ok;
}

GPUCOMPILE__PRIVATE void gpucompile__remote_put(gpucompile_job *job, const char *key, const unsigned char *data, size_t size) {
    gpucompile__redis *c = NULL;
    void *r;
    if (!job->options->cache_remote || !*job->options->cache_remote || !GPUCOMPILE__HAVE_HIREDIS) return;
    if ((r = gpucompile__redis_call(job, &c, key, data, size)) == NULL) return;
    gpucompile__hiredis.free_reply(r);
    gpucompile__hiredis.free_ctx(c);
}

/* ==== [section: cache lookup] ============================================================ */
GPUCOMPILE__PRIVATE void gpucompile__cache_path(gpucompile_job *job, const char *key, char *buf, size_t size) {
    snprintf(buf, size, "%s/%s", job->options->cache_dir, key);
}

GPUCOMPILE__PRIVATE int gpucompile__reset_object(gpucompile_job *job);
GPUCOMPILE__PRIVATE void gpucompile__replay(const char *data, size_t len, const gpucompile_logger *l);
GPUCOMPILE__PRIVATE void gpucompile__cache_evict(gpucompile_job *job, const char *keep);
GPUCOMPILE__PRIVATE void gpucompile__count_lookup(int from);
static gpucompile_cache_stats gpucompile__lookups; /* hits, misses and refusals of this process */

/* An entry refused for its tag (options.cache_secret_file): counted, and the first one in this
   process is a warning (one stranger's entries must not flood the log of every compile). */
static int gpucompile__refusal_warned;
GPUCOMPILE__PRIVATE void gpucompile__cache_refused(gpucompile_job *job, const char *key, int remote) {
    int first;
    gpucompile_lock();
    first = !gpucompile__refusal_warned;
    gpucompile__refusal_warned = 1;
    gpucompile__lookups.refused++;
    gpucompile_unlock();
    if (first)
        gpucompile__cache_warn(job, "the cache entry %s %s has no valid tag for the cache secret: refused, compiled again (the "
                                    "first refusal in this process: --cache-stats counts the others)",
                               key, remote ? "in the remote store" : "in the cache directory");
}

/* An entry's bytes into job->object, its diagnostics replayed to l; 0 when unusable, -1 when
   refused for its tag (tagged: the caller checked the tag already). */
GPUCOMPILE__PRIVATE int gpucompile__cache_take(gpucompile_job *job, const char *key, const unsigned char *data, size_t size,
                                               int tagged, const gpucompile_logger *l) {
    const char *diags = NULL;
    size_t n = 0;
    if (tagged) size -= ((gpucompile__job *)job)->keyed ? GPUCOMPILE__TAG_SIZE : 0;
    else if (!gpucompile__entry_open(job, key, data, size, &size)) return -1;
    if (!gpucompile__reset_object(job) || !gpucompile__deserialize(data, size, 1, job->object, NULL, &diags, &n, job->options->cache_dir))
        return 0;
    gpucompile__replay(diags, n, l);
    return 1;
}

/* Reads the entry into job->object (the local directory, then the remote store, whose hit is
   also written locally); 0 on a miss of any kind (the caller clears the object). */
GPUCOMPILE__PRIVATE int gpucompile__cache_load(gpucompile_job *job, const char *key, const gpucompile_logger *l) {
    const gpucompile_allocator *a = &((gpucompile__job *)job)->opts.allocator;
    char path[4200];
    unsigned char *file;
    size_t size;
    int ok;
    gpucompile__cache_path(job, key, path, sizeof path);
    if (gpucompile__read(path, a, job->options->max_input_bytes, 1, &file, &size) == GPUCOMPILE_OK) { /* no symlink, no device */
        ok = gpucompile__cache_take(job, key, file, size, 0, l);
        gpucompile_free(a, file);
        if (ok < 0) gpucompile__cache_refused(job, key, 0);
        if (ok > 0) {
            job->object->from_cache = 1;
            gpucompile__touch(path); /* most recently used */
            gpucompile__count_lookup(1);
            return 1;
        }
    }
    if ((ok = gpucompile__remote_get(job, key, &file, &size)) <= 0) {
        if (ok < 0) gpucompile__cache_refused(job, key, 1);
        gpucompile__count_lookup(0);
        return 0;
    }
    ok = gpucompile__cache_take(job, key, file, size, 1, l) > 0;
    gpucompile__count_lookup(ok ? 2 : 0);
    if (ok) {
        job->object->from_cache = 2;
        gpucompile__mkdirs(job->options->cache_dir);
        if (gpucompile_write_file(path, file, size) == GPUCOMPILE_OK) gpucompile__cache_evict(job, key);
    }
    gpucompile_free(a, file);
    return ok;
}

typedef struct gpucompile__entry { char name[80]; uint64_t size; int64_t mtime; } gpucompile__entry;

/* gpucompile's entries in dir (but keep), allocated; 0 when dir cannot be read. */
GPUCOMPILE__PRIVATE int gpucompile__cache_list(const char *dir, const gpucompile_allocator *a, const char *keep,
                                               gpucompile__entry **out, size_t *num) {
    gpucompile__entry *e = NULL;
    size_t n = 0, cap = 0;
    char path[4200];
    const char *name;
    gpucompile_dir *d = gpucompile_dir_open(dir);
    if (!d) return 0;
    while ((name = gpucompile_dir_next(d)) != NULL) {
        uint64_t sz;
        int64_t mt;
        if (strlen(name) != 64 || strspn(name, "0123456789abcdef") != 64) continue; /* only ours */
        if (keep && strcmp(name, keep) == 0) continue; /* the entry just written stays */
        snprintf(path, sizeof path, "%s/%s", dir, name);
        if (!gpucompile__stat(path, &sz, &mt)) continue;
        if (n == cap) {
            gpucompile__entry *ne = (gpucompile__entry *)gpucompile__realloc(a, e, (cap = cap ? cap * 2 : 64) * sizeof *e);
            if (!ne) break;
            e = ne;
        }
        memcpy(e[n].name, name, 65);
        e[n].size = sz;
        e[n].mtime = mt;
        n++;
    }
    gpucompile_dir_close(d);
    *out = e;
    *num = n;
    return 1;
}

/* Removes the least recently used entries (but keep) until the others are under 90% of the limit. */
GPUCOMPILE__PRIVATE void gpucompile__cache_evict(gpucompile_job *job, const char *keep) {
    gpucompile__job *j = (gpucompile__job *)job;
    const gpucompile_allocator *a = &j->opts.allocator;
    uint64_t limit = j->opts.cache_max_bytes ? j->opts.cache_max_bytes : ((uint64_t)1 << 30), total = 0;
    gpucompile__entry *e = NULL;
    size_t n = 0, i;
    char path[4200];
    if (!gpucompile__cache_list(j->opts.cache_dir, a, keep, &e, &n)) return;
    for (i = 0; i < n; i++) total += e[i].size;
    while (total > limit - limit / 10 && n > 0) {
        size_t oldest = 0;
        for (i = 1; i < n; i++)
            if (e[i].mtime < e[oldest].mtime) oldest = i;
        gpucompile__cache_path(job, e[oldest].name, path, sizeof path);
        remove(path);
        total -= e[oldest].size;
        e[oldest] = e[--n];
    }
    gpucompile_free(a, e);
}

GPUCOMPILE__PRIVATE void gpucompile__count_lookup(int from) {
    gpucompile_lock();
    if (from == 1) gpucompile__lookups.hits++;
    else if (from == 2) gpucompile__lookups.remote_hits++;
    else gpucompile__lookups.misses++;
    gpucompile_unlock();
}

GPUCOMPILE_DEF gpucompile_result gpucompile_cache_stats_get(const char *dir, gpucompile_cache_stats *out) {
    gpucompile__entry *e = NULL;
    size_t n = 0, i;
    if (!dir || !out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile_lock();
    *out = gpucompile__lookups;
    gpucompile_unlock();
    out->entries = out->bytes = 0;
    if (!gpucompile__cache_list(dir, NULL, NULL, &e, &n)) return GPUCOMPILE_OK; /* no directory yet: empty */
    out->entries = n;
    for (i = 0; i < n; i++) out->bytes += e[i].size;
    gpucompile_free(NULL, e);
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_cache_clear(const char *dir) {
    gpucompile__entry *e = NULL;
    size_t n = 0, i;
    char path[4200];
    gpucompile_result r = GPUCOMPILE_OK;
    if (!dir) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!gpucompile__cache_list(dir, NULL, NULL, &e, &n)) return GPUCOMPILE_OK;
    for (i = 0; i < n; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, e[i].name);
        if (remove(path) != 0) r = GPUCOMPILE_ERROR_IO;
    }
    gpucompile_free(NULL, e);
    { /* the dependencies' identity records ([section: cache]) */
        gpucompile_dir *d = gpucompile_dir_open(dir);
        const char *name;
        if (d) {
            while ((name = gpucompile_dir_next(d)) != NULL)
                if (strlen(name) == 38 && strncmp(name, "ident-", 6) == 0 && strspn(name + 6, "0123456789abcdef") == 32) {
                    snprintf(path, sizeof path, "%s/%s", dir, name);
                    if (remove(path) != 0) r = GPUCOMPILE_ERROR_IO;
                }
            gpucompile_dir_close(d);
        }
    }
    return r;
}

GPUCOMPILE__PRIVATE void gpucompile__capture_fn(const gpucompile_diagnostic *d, void *user_data) {
    gpucompile__capture *c = (gpucompile__capture *)user_data;
    if (d->severity == GPUCOMPILE_SEVERITY_WARNING || d->severity == GPUCOMPILE_SEVERITY_REMARK) gpucompile__record(d, &c->log);
    if (c->to.func) c->to.func(d, c->to.user_data);
}

/* diags: the compile's warnings and remarks, as records. */
GPUCOMPILE__PRIVATE void gpucompile__cache_store(gpucompile_job *job, const char *key, const gpucompile_buf *diags) {
    gpucompile__job *j = (gpucompile__job *)job;
    gpucompile_buf b;
    char path[4200];
    int ok;
    memset(&b, 0, sizeof b);
    b.a = &j->opts.allocator;
    ok = gpucompile__serialize(job->object, j->deps, j->num_deps, 1, diags, &b, j->opts.cache_dir);
    if (ok) gpucompile__entry_seal(job, key, &b);
    if (ok && !b.oom) {
        gpucompile__mkdirs(j->opts.cache_dir);
        gpucompile__cache_path(job, key, path, sizeof path);
        if (gpucompile_write_file(path, b.data, b.len) != GPUCOMPILE_OK)
            gpucompile__cache_warn(job, "cannot write the cache entry '%s'", path);
        else
            gpucompile__cache_evict(job, key);
        gpucompile__remote_put(job, key, (const unsigned char *)b.data, b.len);
    }
    gpucompile_free(b.a, b.data);
}

/* ==== [section: save-temps] ============================================================== */
/* options.save_temps: the stages of one compile as files, and repro.sh, which redoes the
   compile from linked.ll with LLVM's own tools (the link itself, lazy and internalizing, is
   gpucompile's: the libraries it used are named in repro.sh) and then runs the binary step's
   tools as gpucompile ran them, their temporary files renamed repro.*; a step done in-process
   (a vendor library called in-process) is redone by what its backend writes
   (gpucompile_job_repro_step: a small program built with cc that makes the same call, for the
   same bytes). Tool output that names
   a temporary file names the saved copy instead (the ISA: isa.s, line for line). */
GPUCOMPILE_DEF int gpucompile_job_saved_path(gpucompile_job *job, const char *file, char *buf, size_t size) {
    const char *dir = ((gpucompile__job *)job)->save_dir;
    return dir && (size_t)snprintf(buf, size, "%s/%s", dir, file) < size;
}

GPUCOMPILE__PRIVATE void gpucompile__save(gpucompile_job *job, const char *file, const void *data, size_t size) {
    gpucompile__job *j = (gpucompile__job *)job;
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", j->save_dir, file);
    if (gpucompile_write_file(path, data, size) != GPUCOMPILE_OK)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL, "cannot write '%s'", path);
}

GPUCOMPILE_DEF void gpucompile_job_repro_step(gpucompile_job *job, const char *file, const void *data, size_t size, const char *lines) {
    gpucompile__job *j = (gpucompile__job *)job;
    if (!j->save_dir) return;
    if (file && !strpbrk(file, "/\\")) gpucompile__save(job, file, data, size);
    if (lines && *lines) {
        j->repro.a = &j->opts.allocator;
        gpucompile_buf_str(&j->repro, lines);
        if (lines[strlen(lines) - 1] != '\n') gpucompile_buf_str(&j->repro, "\n");
    }
}

GPUCOMPILE__PRIVATE void gpucompile__save_module(gpucompile_job *job, const char *file) {
    char *t;
    if (!((gpucompile__job *)job)->save_dir || !job->module) return;
    t = LLVMPrintModuleToString(job->module);
    if (t) gpucompile__save(job, file, t, strlen(t));
    LLVMDisposeMessage(t);
}

/* A file name of letters, digits, '.', '_' and '-' (others become '_'). */
GPUCOMPILE__PRIVATE void gpucompile__safe_name(char *s) {
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", *s)) *s = '_';
}

/* The job's directory: DIR/<stem of name>.<chip>.<format>, made now. */
GPUCOMPILE__PRIVATE void gpucompile__save_begin(gpucompile_job *job, const char *name) {
    gpucompile__job *j = (gpucompile__job *)job;
    const char *base = name, *p, *chip = gpucompile_target_chip(job->target);
    char dir[4200], text[4096];
    size_t n;
    if (!j->opts.save_temps || !*j->opts.save_temps) return;
    for (p = name; *p; p++)
        if (*p == '/' || *p == '\\') base = p + 1;
    n = strcspn(base, ".");
    if (!n || (!strcmp(base, "-") && (base = "stdin") != NULL)) n = strlen(base);
    snprintf(dir, sizeof dir, "%s/%.*s.%s.%s", j->opts.save_temps, (int)n, base, chip, gpucompile_format_string(job->format));
    gpucompile__safe_name(dir + strlen(j->opts.save_temps) + 1);
    if (!gpucompile__mkdirs(dir) || !(j->save_dir = gpucompile_job_strdup(job, dir))) {
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, NULL, "cannot make the save-temps directory '%s'", dir);
        return;
    }
    n = gpucompile_target_print(job->target, text, sizeof text - 1);
    text[n < sizeof text - 1 ? n : sizeof text - 2] = '\n';
    gpucompile__save(job, "target.txt", text, (n < sizeof text - 1 ? n : sizeof text - 2) + 1);
    j->repro.a = &j->opts.allocator;
}

/* Where an object is emitted, its assembly too (isa.s), before: from a copy of the module,
   since code generation changes the module it runs on. Silently: the object's code generation
   that follows says the same (an error of LLVM's would be printed twice), and what this one
   met is forgotten, so that the object's is judged on its own. */
GPUCOMPILE__PRIVATE void gpucompile__save_isa(gpucompile_job *job) {
    gpucompile__job *j = (gpucompile__job *)job;
    LLVMMemoryBufferRef isa = NULL;
    const gpucompile_logger *logger = j->logger;
    gpucompile_result llvm_error = j->llvm_error;
    int failed = job->failed;
    if (!j->save_dir || job->format == GPUCOMPILE_FORMAT_LLVM || job->format == GPUCOMPILE_FORMAT_ISA || job->backend->bin_from == LLVMAssemblyFile) return;
    j->logger = NULL;
    if (gpucompile__emit_aside(job, &isa) == GPUCOMPILE_OK) gpucompile__save(job, "isa.s", LLVMGetBufferStart(isa), LLVMGetBufferSize(isa));
    j->logger = logger;
    j->llvm_error = llvm_error;
    job->failed = failed;
    if (isa) LLVMDisposeMemoryBuffer(isa);
}

/* The emitted ISA or object, after emit. */
GPUCOMPILE__PRIVATE void gpucompile__save_emitted(gpucompile_job *job) {
    LLVMCodeGenFileType type = job->format == GPUCOMPILE_FORMAT_ISA ? LLVMAssemblyFile : job->backend->bin_from;
    if (!((gpucompile__job *)job)->save_dir || !job->emitted || job->format == GPUCOMPILE_FORMAT_LLVM) return;
    gpucompile__save(job, type == LLVMAssemblyFile ? "isa.s" : "object.o", LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted));
}

/* s with every from replaced by to, in place (b's bytes). */
GPUCOMPILE__PRIVATE void gpucompile__replace_all(gpucompile_buf *b, const char *from, const char *to) {
    gpucompile_buf o;
    const char *p, *q;
    size_t n = strlen(from);
    if (!b->data || !n || !strstr(b->data, from)) return;
    memset(&o, 0, sizeof o);
    o.a = b->a;
    for (p = b->data; (q = strstr(p, from)) != NULL; p = q + n) {
        gpucompile_buf_add(&o, p, (size_t)(q - p));
        gpucompile_buf_str(&o, to);
    }
    gpucompile_buf_add(&o, p, strlen(p) + 1);
    if (o.oom) { gpucompile_free(o.a, o.data); return; }
    gpucompile_free(b->a, b->data);
    o.len--; /* the NUL stays, outside len */
    *b = o;
}

/* A tool run: its log, its line for repro.sh, and its output naming the saved files. */
GPUCOMPILE__PRIVATE void gpucompile__save_tool(gpucompile_job *job, const char *cwd, const char *const *argv, gpucompile_buf *out) {
    gpucompile__job *j = (gpucompile__job *)job;
    gpucompile_buf line, log;
    char name[64], saved[4300];
    int k, touches = 0;
    memset(&line, 0, sizeof line);
    line.a = &j->opts.allocator;
    gpucompile__command_line(&line, cwd, argv, 1);
    gpucompile_buf_add(&line, "\n", 2);
    line.len--;
    /* temporary files become repro.* (the emitted ISA or object: llc's output in repro.sh) */
    for (k = 0; k < j->num_temps && !line.oom; k++) {
        const char *t = j->temps[k], *ext = strrchr(t, '.');
        unsigned char *data = NULL;
        size_t size = 0;
        int emitted = 0;
        if (job->emitted && gpucompile__read(t, line.a, 0, 1, &data, &size) == GPUCOMPILE_OK)
            emitted = size == LLVMGetBufferSize(job->emitted) && memcmp(data, LLVMGetBufferStart(job->emitted), size) == 0;
        gpucompile_free(line.a, data);
        if (emitted) snprintf(name, sizeof name, "%s", job->backend->bin_from == LLVMAssemblyFile || job->format == GPUCOMPILE_FORMAT_ISA ? "repro.isa.s" : "repro.object.o");
        else snprintf(name, sizeof name, "repro.t%d%s", k, ext && !strchr(ext, '/') ? ext : "");
        touches |= line.data && strstr(line.data, t) != NULL;
        gpucompile__replace_all(&line, t, name);
        if (emitted) snprintf(saved, sizeof saved, "%s/%s", j->save_dir,
                              job->backend->bin_from == LLVMAssemblyFile || job->format == GPUCOMPILE_FORMAT_ISA ? "isa.s" : "object.o");
        else snprintf(saved, sizeof saved, "%s/%s", j->save_dir, name);
        gpucompile__replace_all(out, t, saved);
    }
    if (!line.oom && touches) gpucompile_buf_add(&j->repro, line.data, line.len); /* a step of the compile, not a query */
    memset(&log, 0, sizeof log);
    log.a = line.a;
    gpucompile_buf_str(&log, "$ ");
    if (line.data) gpucompile_buf_str(&log, line.data);
    if (out->data) gpucompile_buf_add(&log, out->data, out->len ? out->len - 1 : 0);
    { /* tool-N-<program>.log */
        const char *base = argv[0], *p;
        for (p = argv[0]; *p; p++)
            if (*p == '/' || *p == '\\') base = p + 1;
        snprintf(name, sizeof name, "tool-%d-%.32s.log", ++j->tool_runs, base);
        gpucompile__safe_name(name);
    }
    if (!log.oom) gpucompile__save(job, name, log.data, log.len);
    gpucompile_free(line.a, line.data);
    gpucompile_free(log.a, log.data);
}

/* repro.sh's target for opt and llc: -mtriple=... -mcpu=... -mattr=..., each quoted. */
GPUCOMPILE__PRIVATE void gpucompile__repro_target(gpucompile_buf *b, const gpucompile_job *job, const char *triple) {
    gpucompile_buf_str(b, "-mtriple=");
    gpucompile_buf_shell_quote(b, triple);
    gpucompile_buf_str(b, " -mcpu=");
    gpucompile_buf_shell_quote(b, job->cpu ? job->cpu : gpucompile_target_chip(job->target));
    gpucompile_buf_str(b, " -mattr=");
    gpucompile_buf_shell_quote(b, job->features ? job->features : "");
}

/* repro.sh, at the end of the compile (also a failed one: it stops where the compile did). */
GPUCOMPILE__PRIVATE void gpucompile__save_repro(gpucompile_job *job) {
    gpucompile__job *j = (gpucompile__job *)job;
    const char *triple = gpucompile_target_triple(job->target);
    int obj = job->format != GPUCOMPILE_FORMAT_ISA && job->backend->bin_from == LLVMObjectFile, i;
    gpucompile_buf b;
    char line[1024];
    if (!j->save_dir) return;
    memset(&b, 0, sizeof b);
    b.a = &j->opts.allocator;
    gpucompile_buf_str(&b, "#!/bin/sh\n# Redoes this compile with LLVM " LLVM_VERSION_STRING "'s own tools: from linked.ll (the input, prepared\n"
                            "# and linked by gpucompile) through opt and llc to repro.isa.s");
    gpucompile_buf_str(&b, obj ? " and repro.object.o" : "");
    gpucompile_buf_str(&b, ", then the binary step's\n# tools as gpucompile ran them. LLVM_BIN=DIR picks the LLVM tools' directory.\n# Target: ");
    if (j->save_dir) {
        char text[4096];
        gpucompile_target_print(job->target, text, sizeof text);
        gpucompile_buf_str(&b, text);
    }
    gpucompile_buf_str(&b, "\n");
    for (i = 0; i < j->num_deps; i++) {
        if (gpucompile__starts_with(j->deps[i], GPUCOMPILE__TOOL_DEP)) continue;
        gpucompile_buf_str(&b, "# linked or used: ");
        gpucompile_buf_str(&b, j->deps[i]);
        gpucompile_buf_str(&b, "\n");
    }
    snprintf(line, sizeof line,
             "set -e\ncd \"$(dirname \"$0\")\"\n"
             "t() { if [ -n \"$LLVM_BIN\" ]; then echo \"$LLVM_BIN/$1\"; elif command -v \"$1-%d\" >/dev/null 2>&1; then echo \"$1-%d\"; else echo \"$1\"; fi; }\n",
             LLVM_VERSION_MAJOR, LLVM_VERSION_MAJOR);
    gpucompile_buf_str(&b, line);
    gpucompile_buf_str(&b, "\"$(t llvm-link)\" linked.ll -o repro.linked.bc\n");
    gpucompile_buf_str(&b, "\"$(t opt)\" ");
    gpucompile__repro_target(&b, job, triple);
    snprintf(line, sizeof line, " -passes='default<O%d>' repro.linked.bc -o repro.optimized.bc\n", job->target->O);
    gpucompile_buf_str(&b, line);
    for (i = 0; i < 1 + obj; i++) {
        gpucompile_buf_str(&b, "\"$(t llc)\" ");
        gpucompile__repro_target(&b, job, triple);
        snprintf(line, sizeof line, " -O%d %srepro.optimized.bc -o %s\n", job->backend->emit_unoptimized ? 0 : job->target->O, i ? "-filetype=obj " : "-asm-verbose=false ", i ? "repro.object.o" : "repro.isa.s");
        gpucompile_buf_str(&b, line);
    }
    if (j->repro.data) gpucompile_buf_add(&b, j->repro.data, j->repro.len);
    if (!b.oom) gpucompile__save(job, "repro.sh", b.data, b.len);
    gpucompile_free(b.a, b.data);
}

/* ==== [section: isolation] =============================================================== */
/* A compile in another process: options.isolate (one child per compile, request and reply in
   files) or options.workers (processes reused across compiles, over a socket). One protocol:
   request = "GPUREQ01", u64 payload size, then the target's text, u32 format, the options of
   GPUCOMPILE__REQUEST_OPTIONS in its order, u32 count + link paths, u32 count + (name, path)
   tools, input name, u64 size + input bytes; reply = "GPUREP01", u64 payload
   size, u32 result, u64 size + diagnostic records, u64 size + the object as the cache stores
   it (none when 0), f64 stage_ms[GPUCOMPILE_STAGE_COUNT]. Host byte order: one machine. The
   child's stderr is read too: when it dies, LLVM's last "LLVM ERROR:" line is the error. */
#define GPUCOMPILE__REQ_MAGIC "GPUREQ01"
#define GPUCOMPILE__REP_MAGIC "GPUREP01"
/* The scalar options a request forwards, each as a string (STR: NULL is sent as ""), a u32
   (INT) or an f64 (F64): the writer, the reader and its frees all expand this one list. */
#define GPUCOMPILE__REQUEST_OPTIONS(STR, INT, F64) \
    STR(toolkit_path) STR(bin_method) STR(section) STR(tool_options) STR(save_temps) \
    INT(debug) INT(remarks) INT(jobs) F64(tool_timeout_s)
#define GPUCOMPILE__NONE(f)

GPUCOMPILE__PRIVATE void gpucompile__put_f64(gpucompile_buf *b, double v) { gpucompile_buf_add(b, &v, 8); }
GPUCOMPILE__PRIVATE double gpucompile__get_f64(gpucompile__reader *r) {
    double v = 0;
    gpucompile__get(r, &v, 8);
    return v;
}
GPUCOMPILE__PRIVATE void gpucompile__frame_end(gpucompile_buf *b) {
    uint64_t n = b->len - 16;
    if (!b->oom) memcpy(b->data + 8, &n, 8);
}

GPUCOMPILE__PRIVATE int gpucompile__request(gpucompile_job *job, const void *data, size_t size, const char *name, gpucompile_buf *b) {
    const gpucompile_options *o = job->options;
    size_t n = gpucompile_target_print(job->target, NULL, 0);
    char *text = (char *)gpucompile_job_alloc(job, n + 1);
    int i;
    if (!text) return 0;
    gpucompile_target_print(job->target, text, n + 1);
    gpucompile_buf_add(b, GPUCOMPILE__REQ_MAGIC, 8);
    gpucompile__put64(b, 0);
    gpucompile__put_str(b, text);
    gpucompile_job_free(job, text);
    gpucompile__put32(b, (uint32_t)job->format);
#define GPUCOMPILE__PUT_STR(f) gpucompile__put_str(b, o->f);
#define GPUCOMPILE__PUT_INT(f) gpucompile__put32(b, (uint32_t)o->f);
#define GPUCOMPILE__PUT_F64(f) gpucompile__put_f64(b, o->f);
    GPUCOMPILE__REQUEST_OPTIONS(GPUCOMPILE__PUT_STR, GPUCOMPILE__PUT_INT, GPUCOMPILE__PUT_F64)
    gpucompile__put32(b, (uint32_t)o->num_link);
    for (i = 0; i < o->num_link; i++) gpucompile__put_str(b, o->link[i]);
    gpucompile__put32(b, (uint32_t)o->num_tools);
    for (i = 0; i < o->num_tools; i++) {
        gpucompile__put_str(b, o->tools[i].name);
        gpucompile__put_str(b, o->tools[i].path);
    }
    gpucompile__put_str(b, name);
    gpucompile__put64(b, size);
    gpucompile_buf_add(b, data, size);
    gpucompile__frame_end(b);
    return !b->oom;
}

/* A reply into job: its diagnostics replayed, its object (and the files it used, for the
   cache) taken. 0 when the bytes are not a whole reply. */
GPUCOMPILE__PRIVATE int gpucompile__answer(gpucompile_job *job, const unsigned char *data, size_t size, gpucompile_result *r) {
    gpucompile__reader rd;
    const unsigned char *log, *obj;
    uint64_t n;
    int s;
    if (size < 16 || memcmp(data, GPUCOMPILE__REP_MAGIC, 8) != 0) return 0;
    rd.p = data + 8;
    rd.end = data + size;
    rd.bad = 0;
    if (gpucompile__get64(&rd) != size - 16) return 0;
    *r = (gpucompile_result)gpucompile__get32(&rd);
    n = gpucompile__get64(&rd);
    if (!(log = gpucompile__take(&rd, n))) return 0;
    gpucompile__replay((const char *)log, (size_t)n, ((gpucompile__job *)job)->logger);
    n = gpucompile__get64(&rd);
    obj = gpucompile__take(&rd, n);
    if (rd.bad) return 0;
    if (*r == GPUCOMPILE_OK && !gpucompile__deserialize(obj, (size_t)n, 0, job->object, job, NULL, NULL, NULL)) return 0;
    for (s = 0; s < GPUCOMPILE_STAGE_COUNT; s++) job->object->stage_ms[s] = gpucompile__get_f64(&rd);
    ((gpucompile__job *)job)->stage_start = gpucompile__now_ms(); /* the wait is not a stage of ours */
    return !rd.bad && rd.p == rd.end;
}

/* The child's stderr: its last "LLVM ERROR:" line is the error when it died, the rest (a stack
   dump then) goes to the logger as notes; while it lives, as warnings. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__child_stderr(gpucompile_job *job, char *err, int died, int status) {
    char *line, *last = NULL, *e;
    for (line = err; died && line && *line; line = e ? e + 1 : NULL) {
        char *m;
        if ((e = strchr(line, '\n')) != NULL) *e = 0;
        if ((m = strstr(line, "LLVM ERROR: ")) != NULL) last = m;
        if (e) *e = '\n';
    }
    for (line = err; line && *line; line = e ? e + 1 : NULL) {
        if ((e = strchr(line, '\n')) != NULL) *e = 0;
        if (*line && !(last && last >= line && (!e || last < e)))
            gpucompile_job_log(job, died ? GPUCOMPILE_SEVERITY_NOTE : GPUCOMPILE_SEVERITY_WARNING, GPUCOMPILE_OK, "stderr", "%s", line);
    }
    if (!died) return GPUCOMPILE_OK;
    if (status >= 128 && last)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "%s (the compiler process died with signal %d)", last, status - 128);
    if (status >= 128) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "the compiler process died with signal %d", status - 128);
    if (last) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "%s (the compiler process exited with status %d)", last, status);
    return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "the compiler process exited with status %d without an answer", status);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__isolation_ok(gpucompile_job *job) {
    const gpucompile_backend *b = job->target->kind == GPUCOMPILE_TARGET_CUSTOM ? gpucompile__backend_of(job->target, NULL) : NULL;
    /* a custom backend registered by attribute name is one the worker (this program) has too,
       and its target's text names it */
    int registered = b && b->attribute[0] && gpucompile_find_backend_named(b->attribute[0], (size_t)-1, NULL) == b;
    if (job->options->hooks || (job->target->kind == GPUCOMPILE_TARGET_CUSTOM && !registered))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_ARGUMENT, "an isolated compile cannot run hooks or custom backends");
    return GPUCOMPILE_OK;
}

/* options.isolate: `isolate --worker` with the request on stdin and the reply on stdout. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_isolated(gpucompile_job *job, const void *data, size_t size, const char *name) {
    gpucompile__job *j = (gpucompile__job *)job;
    const gpucompile_options *o = job->options;
    const char *argv[3];
    char in[4096], out[4096];
    gpucompile_buf req, err;
    unsigned char *bytes = NULL;
    size_t n = 0;
    int st = -1;
    gpucompile_result r, answer = GPUCOMPILE_OK;
    if ((r = gpucompile__isolation_ok(job)) != GPUCOMPILE_OK) return r;
    memset(&req, 0, sizeof req);
    req.a = &j->opts.allocator;
    memset(&err, 0, sizeof err);
    err.a = &j->opts.allocator;
    if (!gpucompile__request(job, data, size, name, &req)) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (r == GPUCOMPILE_OK) r = gpucompile_job_temp_file(job, ".req", in, sizeof in);
    if (r == GPUCOMPILE_OK) r = gpucompile_job_temp_file(job, ".rep", out, sizeof out);
    if (r == GPUCOMPILE_OK) r = gpucompile_job_write_temp(job, in, req.data, req.len);
    gpucompile_free(req.a, req.data);
    if (r != GPUCOMPILE_OK) return r;
    argv[0] = o->isolate;
    argv[1] = "--worker";
    argv[2] = NULL;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, NULL, "running: %s --worker < %s > %s", o->isolate, in, out);
    r = gpucompile__spawn(&j->opts.allocator, argv, o->tool_timeout_s, &st, &err, NULL, in, out, 2);
    gpucompile_buf_add(&err, NULL, 0);
    if (r == GPUCOMPILE_ERROR_TIMEOUT)
        r = gpucompile_job_fail(job, r, "the isolated compiler was killed after %.0f s", o->tool_timeout_s);
    else if (r != GPUCOMPILE_OK)
        r = gpucompile_job_fail(job, r, "cannot run the isolated compiler '%s'", o->isolate);
    else if (st == 0 && gpucompile__read(out, &j->opts.allocator, 0, 1, &bytes, &n) == GPUCOMPILE_OK &&
             gpucompile__answer(job, bytes, n, &answer)) {
        gpucompile__child_stderr(job, err.data, 0, 0);
        r = answer;
    } else {
        r = gpucompile__child_stderr(job, err.data, 1, st);
        gpucompile__sweep_temps(0); /* what it left, as it died */
    }
    gpucompile_job_free(job, bytes);
    gpucompile_free(err.a, err.data);
    return r;
}

typedef struct gpucompile__worker { long pid; int fd, err, busy; } gpucompile__worker;
struct gpucompile_workers {
    gpucompile__mtx mutex;
    gpucompile__cnd idle;
    gpucompile__worker *w;
    int n;
    char *exe;
};

/* A replacement: exe --worker, the socket on its stdin and stdout. */
GPUCOMPILE__PRIVATE int gpucompile__worker_spawn(gpucompile_workers *ws, gpucompile__worker *w) {
    int sv[2], ep[2];
    long pid;
    char *argv[3];
    if (!ws->exe || !gpucompile__worker_fds(sv, ep)) return 0;
    argv[0] = ws->exe;
    argv[1] = (char *)"--worker";
    argv[2] = NULL;
    pid = gpucompile__spawn_fds(argv, sv[1], sv[1], ep[1]);
    gpucompile__fd_close(sv[1]);
    gpucompile__fd_close(ep[1]);
    if (pid < 0) { gpucompile__fd_close(sv[0]); gpucompile__fd_close(ep[0]); return 0; }
    gpucompile__track_pid(pid, 2);
    w->pid = pid;
    w->fd = sv[0];
    w->err = ep[0];
    return 1;
}

/* Sends the request and reads the reply, and the worker's stderr meanwhile. 0: it died. */
GPUCOMPILE__PRIVATE int gpucompile__worker_exchange(gpucompile__worker *w, const gpucompile_buf *req, gpucompile_buf *rep, gpucompile_buf *err) {
    size_t sent = 0;
    uint64_t want = 0;
    int err_open = 1;
    char chunk[65536];
    while (sent < req->len) {
        long k = gpucompile__fd_send(w->fd, req->data + sent, req->len - sent);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        sent += (size_t)k;
    }
    for (;;) {
        int fds[2], ready[2];
        long k;
        fds[0] = w->fd;
        fds[1] = err_open ? w->err : -1;
        if (gpucompile__fd_poll(2, fds, ready, -1) < 0) {
            if (errno == EINTR) continue;
            return 0;
        }
        if (ready[1]) {
            k = gpucompile__fd_read(w->err, chunk, sizeof chunk);
            if (k > 0 && err->len < ((size_t)1 << 20)) gpucompile_buf_add(err, chunk, (size_t)k);
            if (k == 0 || (k < 0 && errno != EINTR)) err_open = 0;
        }
        if (!ready[0]) continue;
        k = gpucompile__fd_read(w->fd, chunk, sizeof chunk);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return 0;
        gpucompile_buf_add(rep, chunk, (size_t)k);
        if (rep->oom) return 0;
        if (!want && rep->len >= 16) memcpy(&want, rep->data + 8, 8), want += 16;
        if (want && rep->len >= want) break;
    }
    while (err_open) { /* what it wrote before answering is in the pipe already */
        int ready;
        long k;
        if (gpucompile__fd_poll(1, &w->err, &ready, 0) <= 0 || (k = gpucompile__fd_read(w->err, chunk, sizeof chunk)) <= 0) break;
        if (err->len < ((size_t)1 << 20)) gpucompile_buf_add(err, chunk, (size_t)k);
    }
    return 1;
}

/* A dead worker: reaped, its stderr read to the end, its files removed; 128+N for a signal. */
GPUCOMPILE__PRIVATE int gpucompile__worker_bury(gpucompile__worker *w, gpucompile_buf *err) {
    int st;
    char chunk[4096];
    long k;
    gpucompile__fd_close(w->fd);
    gpucompile__proc_kill(w->pid); /* it may only have stopped answering */
    while ((k = gpucompile__fd_read(w->err, chunk, sizeof chunk)) > 0 || (k < 0 && errno == EINTR))
        if (k > 0 && err->len < ((size_t)1 << 20)) gpucompile_buf_add(err, chunk, (size_t)k);
    gpucompile__fd_close(w->err);
    st = gpucompile__proc_wait(w->pid);
    gpucompile__track_pid(w->pid, 0);
    gpucompile__sweep_temps(w->pid);
    w->pid = 0;
    return st;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_pooled(gpucompile_job *job, const void *data, size_t size, const char *name) {
    gpucompile__job *j = (gpucompile__job *)job;
    gpucompile_workers *ws = job->options->workers;
    gpucompile__worker *w = NULL;
    gpucompile_buf req, rep, err;
    gpucompile_result r;
    int i, usable;
    if ((r = gpucompile__isolation_ok(job)) != GPUCOMPILE_OK) return r;
    memset(&req, 0, sizeof req);
    memset(&rep, 0, sizeof rep);
    memset(&err, 0, sizeof err);
    req.a = rep.a = err.a = &j->opts.allocator;
    if (!gpucompile__request(job, data, size, name, &req)) { gpucompile_free(req.a, req.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    gpucompile__mtx_lock(&ws->mutex);
    for (;;) {
        for (usable = 0, i = 0; i < ws->n; i++) {
            if (ws->w[i].pid > 0 || ws->exe) usable++;
            if (!ws->w[i].busy && (ws->w[i].pid > 0 || ws->exe)) { w = &ws->w[i]; break; }
        }
        if (w || !usable) break;
        gpucompile__cnd_wait(&ws->idle, &ws->mutex);
    }
    if (w) w->busy = 1;
    gpucompile__mtx_unlock(&ws->mutex);
    if (!w) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "no worker process is left");
    else if (w->pid <= 0 && !gpucompile__worker_spawn(ws, w))
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_TOOL, "cannot start a worker process ('%s --worker')", ws->exe);
    else if (gpucompile__worker_exchange(w, &req, &rep, &err) && gpucompile__answer(job, (const unsigned char *)rep.data, rep.len, &r)) {
        gpucompile_buf_add(&err, NULL, 0);
        gpucompile__child_stderr(job, err.data, 0, 0);
    } else {
        int st = gpucompile__worker_bury(w, &err);
        gpucompile_buf_add(&err, NULL, 0);
        r = gpucompile__child_stderr(job, err.data, 1, st);
    }
    if (w) {
        gpucompile__mtx_lock(&ws->mutex);
        w->busy = 0;
        gpucompile__cnd_broadcast(&ws->idle);
        gpucompile__mtx_unlock(&ws->mutex);
    }
    gpucompile_free(req.a, req.data);
    gpucompile_free(rep.a, rep.data);
    gpucompile_free(err.a, err.data);
    return r;
}

/* ==== [section: compile] ================================================================= */
/* A fresh empty object (a failed cache load may have filled some of the old one). */
GPUCOMPILE__PRIVATE int gpucompile__reset_object(gpucompile_job *job) {
    gpucompile_object_free(job->object);
    job->object = (gpucompile_object *)gpucompile_job_alloc(job, sizeof(gpucompile_object));
    if (!job->object) return 0;
    memset(job->object, 0, sizeof *job->object);
    job->object->allocator = ((gpucompile__job *)job)->opts.allocator;
    return 1;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__run(gpucompile_job *job) {
    const gpucompile_hooks *h = job->options->hooks;
    gpucompile_result r;
    int parts;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_SETUP);
    gpucompile__save_module(job, "input.ll");
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
    if (job->backend->post_link && (r = job->backend->post_link(job)) != GPUCOMPILE_OK) return r;
    gpucompile__save_module(job, "linked.ll");
    if ((r = gpucompile__check_undefined(job)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile__collect_kernels(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_OPTIMIZE);
    if ((r = gpucompile__optimize(job)) != GPUCOMPILE_OK) return r;
    gpucompile__save_module(job, "optimized.ll");
    if (h && (r = gpucompile__hook(job, h->optimized_ir, "optimized-IR")) != GPUCOMPILE_OK) return r;
    if (job->backend->pre_emit && (r = job->backend->pre_emit(job)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile__mark_dynamic_shared(job)) != GPUCOMPILE_OK) return r;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_EMIT);
    parts = job->format == GPUCOMPILE_FORMAT_LLVM ? 1 : gpucompile__part_count(job);
    gpucompile__save_isa(job);
    if ((r = (parts > 1 ? gpucompile__emit_parts(job, parts) : gpucompile__emit(job))) != GPUCOMPILE_OK) return r;
    gpucompile__save_emitted(job);
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_BINARY);
    if ((r = gpucompile__finish(job)) == GPUCOMPILE_OK && ((gpucompile__job *)job)->save_dir) {
        char file[64];
        snprintf(file, sizeof file, "binary.%s", gpucompile_format_string(job->format));
        gpucompile__save(job, file, job->object->data, job->object->size);
    }
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_compile_properties(gpucompile_object *o, int O, const char *section);

/* One compile's state: its job and what the stages of gpucompile__compile hand on. */
typedef struct gpucompile__compiling {
    gpucompile__job j;
    const gpucompile_target *target;
    const void *data;              /* the input: the caller's bytes or its module as bitcode (bc) */
    size_t size;
    const char *name;
    LLVMMemoryBufferRef bc;
    gpucompile_buf *serial;        /* a worker's: the object as bytes too, with the files it used */
    int use_cache, inited;         /* inited: the backend's init ran, so its release is due */
    char key[65];                  /* the cache's */
    gpucompile__capture cap;       /* the warnings and remarks the cache keeps */
} gpucompile__compiling;

/* The options resolved, the target verified, its backend found, an empty object. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_setup(gpucompile__compiling *c, const gpucompile_options *options) {
    gpucompile__job *j = &c->j;
    gpucompile_job *job = &j->pub;
    const gpucompile_target *target = c->target;
    char text[4096];
    if (options) j->opts = *options;
    if (!j->opts.format) j->opts.format = GPUCOMPILE_FORMAT_BIN;
    if (j->opts.tool_timeout_s <= 0) j->opts.tool_timeout_s = 300.0;
    j->logger = &j->opts.logger;
    job->options = &j->opts;
    job->target = target;
    job->format = j->opts.format;
    job->stage = GPUCOMPILE_STAGE_TARGET;
    j->stage_start = gpucompile__now_ms();
    if (gpucompile_target_verify(target, j->logger) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_INVALID_TARGET;
    job->backend = gpucompile__backend_of(target, NULL);
    if (!job->backend) {
        gpucompile_target_print(target, text, sizeof text);
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "no backend is registered for %s", text);
    }
    if (!(gpucompile__formats(job->backend) & 1u << job->format))
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the %s backend does not produce %ss", job->backend->name,
                                gpucompile_format_string(job->format));
    job->object = (gpucompile_object *)gpucompile_job_alloc(job, sizeof(gpucompile_object));
    if (!job->object) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(job->object, 0, sizeof *job->object);
    job->object->allocator = j->opts.allocator;
    return GPUCOMPILE_OK;
}

/* The input as bytes (a module as bitcode) and whether the cache serves it, under which key. */
GPUCOMPILE__PRIVATE void gpucompile__compile_input(gpucompile__compiling *c, LLVMModuleRef module) {
    gpucompile__job *j = &c->j;
    gpucompile_job *job = &j->pub;
    gpucompile__set_stage(job, GPUCOMPILE_STAGE_PARSE);
    if (module) { /* the caller's module reaches us as bitcode: never touched, and hashable */
        c->bc = LLVMWriteBitcodeToMemoryBuffer(module);
        c->data = LLVMGetBufferStart(c->bc);
        c->size = LLVMGetBufferSize(c->bc);
    }
    /* Hooks run code we cannot hash: they bypass the cache, and so do custom backends but for
       one that opts in with its cache_version; so does --save-temps (its files come of a compile). */
    c->use_cache = j->opts.cache_dir && *j->opts.cache_dir && !j->opts.hooks && c->data &&
                   (c->target->kind != GPUCOMPILE_TARGET_CUSTOM || job->backend->cache_version) &&
                   !(j->opts.save_temps && *j->opts.save_temps);
    if (c->use_cache && !gpucompile__cache_secret(job)) c->use_cache = 0;
    c->cap.log.a = &j->opts.allocator;
    if (c->use_cache) {
        gpucompile__cache_key(job, c->data, c->size, c->key);
        c->cap.to = j->opts.logger;
        j->opts.logger.func = gpucompile__capture_fn;
        j->opts.logger.user_data = &c->cap;
    }
    j->track_deps = c->use_cache || c->serial;
}

/* In this process: a fresh LLVM context, the backend's per-job state, the pipeline. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_here(gpucompile__compiling *c) {
    gpucompile_job *job = &c->j.pub;
    gpucompile_result r;
    gpucompile__initialize(job->backend);
    job->context = LLVMContextCreate();
    LLVMContextSetDiagnosticHandler(job->context, gpucompile__diag_handler, job);
    r = job->backend->init ? job->backend->init(job) : GPUCOMPILE_OK;
    c->inited = r == GPUCOMPILE_OK;
    gpucompile__save_begin(job, c->name);
    if (r == GPUCOMPILE_OK) r = gpucompile__parse(job, c->data, c->size, c->name);
    if (r == GPUCOMPILE_OK) r = gpucompile__run(job);
    gpucompile__save_repro(job);
    if (r == GPUCOMPILE_OK && job->failed) r = GPUCOMPILE_ERROR_LLVM;
    return r;
}

/* The object: from the cache, or made by another process (options.isolate, options.workers) or
   this one, and then stored in the cache. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_make(gpucompile__compiling *c) {
    gpucompile__job *j = &c->j;
    gpucompile_job *job = &j->pub;
    gpucompile_result r;
    if (c->use_cache && gpucompile__cache_load(job, c->key, &c->cap.to)) return GPUCOMPILE_OK;
    if (!gpucompile__reset_object(job)) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (!(j->opts.isolate || j->opts.workers)) r = gpucompile__compile_here(c);
    else if (!c->data) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_INVALID_INPUT, "%s: empty input", c->name);
    else if (j->opts.workers) r = gpucompile__compile_pooled(job, c->data, c->size, c->name);
    else r = gpucompile__compile_isolated(job, c->data, c->size, c->name);
    if (r == GPUCOMPILE_OK && c->use_cache) gpucompile__cache_store(job, c->key, &c->cap.log);
    return r;
}

/* The object named for the target as the caller gave it (a cached one was stored under another
   spelling) and handed over in *out; a worker's also as bytes. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile_finish(gpucompile__compiling *c, gpucompile_object **out) {
    gpucompile_job *job = &c->j.pub;
    const gpucompile_target *target = c->target;
    gpucompile_object *o = job->object;
    char text[4096];
    size_t n = gpucompile_target_print(target, text, sizeof text);
    gpucompile_job_free(job, o->target); /* from the cache: made again from the target */
    gpucompile_job_free(job, o->triple);
    gpucompile_job_free(job, o->chip);
    o->target = (char *)gpucompile_job_alloc(job, n + 1);
    if (o->target) gpucompile_target_print(target, o->target, n + 1);
    o->kind = target->kind;
    o->triple = gpucompile_job_strdup(job, gpucompile_target_triple(target));
    o->chip = gpucompile_job_strdup(job, gpucompile_target_chip(target));
    o->format = job->format;
    if (!o->target || !o->triple || !o->chip) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (gpucompile__bin_compile_properties(o, target->O, c->j.opts.section) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (c->serial && !gpucompile__serialize(o, c->j.deps, c->j.num_deps, 0, NULL, c->serial, NULL)) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    *out = o;
    job->object = NULL;
    return GPUCOMPILE_OK;
}

/* Everything the job holds goes, on every path. */
GPUCOMPILE__PRIVATE void gpucompile__compile_release(gpucompile__compiling *c) {
    gpucompile__job *j = &c->j;
    gpucompile_job *job = &j->pub;
    int i;
    if (c->inited && job->backend->release) job->backend->release(job);
    gpucompile_object_free(job->object);
    gpucompile_job_free(job, job->result_data);
    if (job->emitted) LLVMDisposeMemoryBuffer(job->emitted);
    if (job->machine) LLVMDisposeTargetMachine(job->machine);
    if (job->module) LLVMDisposeModule(job->module);
    if (job->context) LLVMContextDispose(job->context);
    if (c->bc) LLVMDisposeMemoryBuffer(c->bc);
    gpucompile_job_free(job, job->cpu);
    gpucompile_job_free(job, job->features);
    for (i = 0; i < j->num_libs; i++) gpucompile_job_free(job, j->libs[i]);
    gpucompile_job_free(job, j->libs);
    for (i = 0; i < j->num_temps; i++) { gpucompile__untemp(j->temps[i], 0); gpucompile_job_free(job, j->temps[i]); }
    gpucompile_job_free(job, j->temps);
    for (i = 0; i < j->num_deps; i++) gpucompile_job_free(job, j->deps[i]);
    gpucompile_job_free(job, j->deps);
    gpucompile_free(c->cap.log.a, c->cap.log.data);
    gpucompile_job_free(job, j->save_dir);
    gpucompile_free(j->repro.a, j->repro.data);
    gpucompile__wipe(j->cache_keys, sizeof j->cache_keys);
}

/* The one entry point behind the three compile functions: exactly one of module / data.
   serial (a worker's): also the object as bytes, with the files it used. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__compile(LLVMModuleRef module, const void *data, size_t size, const char *name,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out, gpucompile_buf *serial) {
    gpucompile__compiling c;
    gpucompile_result r;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!target) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&c, 0, sizeof c);
    c.target = target;
    c.data = data;
    c.size = size;
    c.name = name ? name : "<input>";
    c.serial = serial;
    if ((r = gpucompile__compile_setup(&c, options)) != GPUCOMPILE_OK) return r; /* it holds nothing yet */
    gpucompile__compile_input(&c, module);
    r = gpucompile__compile_make(&c);
    gpucompile__set_stage(&c.j.pub, GPUCOMPILE_STAGE_NONE);
    if (r == GPUCOMPILE_OK) r = gpucompile__compile_finish(&c, out);
    gpucompile__compile_release(&c);
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_module(LLVMModuleRef module, const gpucompile_target *target,
                                                           const gpucompile_options *options, gpucompile_object **out) {
    size_t n;
    if (!module) {
        if (out) *out = NULL;
        return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    }
    return gpucompile__compile(module, NULL, 0, LLVMGetModuleIdentifier(module, &n), target, options, out, NULL);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_ir(const void *data, size_t size, const char *name,
    const gpucompile_target *target, const gpucompile_options *options, gpucompile_object **out) {
    return gpucompile__compile(NULL, data, size, name, target, options, out, NULL);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_file(const char *path, const gpucompile_target *target,
                                                         const gpucompile_options *options, gpucompile_object **out) {
    unsigned char *data;
    size_t size;
    const gpucompile_allocator *a = options ? &options->allocator : NULL;
    gpucompile_result r = gpucompile__read(path, a, options ? options->max_input_bytes : 0, 0, &data, &size);
    if (out) *out = NULL;
    if (r != GPUCOMPILE_OK) {
        gpucompile__logf(options ? &options->logger : NULL, GPUCOMPILE_SEVERITY_ERROR, r, GPUCOMPILE_STAGE_PARSE,
                         "cannot read '%s': %s", path ? path : "(null)", gpucompile_read_file_error(r));
        return r;
    }
    r = gpucompile_compile_ir(data, size, path, target, options, out);
    gpucompile_free(a, data);
    return r;
}

/* ==== [section: workers] ================================================================= */
/* ---- the worker's side ---- */
GPUCOMPILE__PRIVATE void gpucompile__worker_log(const gpucompile_diagnostic *d, void *user) { gpucompile__record(d, (gpucompile_buf *)user); }

/* One request into one reply (reply's data empty: out of memory). */
GPUCOMPILE__PRIVATE void gpucompile__work(const unsigned char *data, size_t size, gpucompile_buf *reply) {
    gpucompile__reader rd;
    gpucompile_options o;
    gpucompile_target *t = NULL;
    gpucompile_object *obj = NULL;
    gpucompile_buf log, serial;
    gpucompile_tool_path *tools = NULL;
    char *text, *name = NULL;
    const char **links = NULL;
    const unsigned char *input = NULL;
    uint64_t n = 0;
    uint32_t i, nl, nt;
    gpucompile_result r = GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    int s;
    memset(&o, 0, sizeof o);
    memset(&log, 0, sizeof log);
    memset(&serial, 0, sizeof serial);
    rd.p = data;
    rd.end = data + size;
    rd.bad = 0;
    text = gpucompile__get_str(&rd, NULL);
    o.format = (gpucompile_format)gpucompile__get32(&rd);
#define GPUCOMPILE__GET_STR(f) o.f = gpucompile__get_str(&rd, NULL);
#define GPUCOMPILE__GET_INT(f) o.f = (int)gpucompile__get32(&rd);
#define GPUCOMPILE__GET_F64(f) o.f = gpucompile__get_f64(&rd);
#define GPUCOMPILE__EMPTY_STR(f) if (o.f && !*o.f) { gpucompile_free(NULL, (void *)o.f); o.f = NULL; }
#define GPUCOMPILE__FREE_STR(f) gpucompile_free(NULL, (void *)o.f);
    GPUCOMPILE__REQUEST_OPTIONS(GPUCOMPILE__GET_STR, GPUCOMPILE__GET_INT, GPUCOMPILE__GET_F64)
    nl = gpucompile__get32(&rd);
    if (!rd.bad && nl < size) links = (const char **)gpucompile_alloc(NULL, (nl + 1) * sizeof *links);
    for (i = 0; links && i < nl; i++) links[i] = gpucompile__get_str(&rd, NULL);
    nt = links ? gpucompile__get32(&rd) : 0;
    if (!rd.bad && nt < size) tools = (gpucompile_tool_path *)gpucompile_alloc(NULL, (nt + 1) * sizeof *tools);
    for (i = 0; tools && i < nt; i++) {
        tools[i].name = gpucompile__get_str(&rd, NULL);
        tools[i].path = gpucompile__get_str(&rd, NULL);
    }
    name = gpucompile__get_str(&rd, NULL);
    n = gpucompile__get64(&rd);
    input = gpucompile__take(&rd, n);
    GPUCOMPILE__REQUEST_OPTIONS(GPUCOMPILE__EMPTY_STR, GPUCOMPILE__NONE, GPUCOMPILE__NONE) /* "" was NULL */
    o.link = links;
    o.num_link = (int)nl;
    o.tools = tools;
    o.num_tools = (int)nt;
    o.logger.func = gpucompile__worker_log;
    o.logger.user_data = &log;
    if (!rd.bad && links && tools && text && name && rd.p == rd.end &&
        (r = gpucompile_target_parse(text, (size_t)-1, NULL, &o.logger, &t)) == GPUCOMPILE_OK)
        r = gpucompile__compile(NULL, input, (size_t)n, name, t, &o, &obj, &serial);
    if (r == GPUCOMPILE_OK && !rd.bad && rd.p != rd.end) r = GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile_buf_add(reply, GPUCOMPILE__REP_MAGIC, 8);
    gpucompile__put64(reply, 0);
    gpucompile__put32(reply, (uint32_t)r);
    gpucompile__put64(reply, log.oom ? 0 : log.len);
    if (!log.oom) gpucompile_buf_add(reply, log.data, log.len);
    gpucompile__put64(reply, r == GPUCOMPILE_OK ? serial.len : 0);
    if (r == GPUCOMPILE_OK) gpucompile_buf_add(reply, serial.data, serial.len);
    for (s = 0; s < GPUCOMPILE_STAGE_COUNT; s++) gpucompile__put_f64(reply, obj ? obj->stage_ms[s] : 0.0);
    gpucompile__frame_end(reply);
    if (serial.oom) reply->oom = 1;
    gpucompile_object_free(obj);
    gpucompile_target_free(t);
    for (i = 0; links && i < nl; i++) gpucompile_free(NULL, (void *)links[i]);
    for (i = 0; tools && i < nt; i++) { gpucompile_free(NULL, (void *)tools[i].name); gpucompile_free(NULL, (void *)tools[i].path); }
    gpucompile_free(NULL, (void *)links);
    gpucompile_free(NULL, tools);
    gpucompile_free(NULL, text);
    gpucompile_free(NULL, name);
    GPUCOMPILE__REQUEST_OPTIONS(GPUCOMPILE__FREE_STR, GPUCOMPILE__NONE, GPUCOMPILE__NONE)
    gpucompile_free(NULL, log.data);
    gpucompile_free(NULL, serial.data);
}

/* n bytes, or fewer at the end of input */
GPUCOMPILE__PRIVATE size_t gpucompile__read_all(int fd, void *buf, size_t n) {
    size_t got = 0;
    while (got < n) {
        long k = gpucompile__fd_read(fd, (char *)buf + got, n - got);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += (size_t)k;
    }
    return got;
}

GPUCOMPILE_DEF int gpucompile_worker_serve(int in_fd, int out_fd) {
    gpucompile__worker_signals();
    for (;;) {
        unsigned char head[16], *req;
        uint64_t n;
        size_t got = gpucompile__read_all(in_fd, head, 16), at;
        gpucompile_buf reply;
        if (got == 0) return 0;
        if (got < 16 || memcmp(head, GPUCOMPILE__REQ_MAGIC, 8) != 0) return 1;
        memcpy(&n, head + 8, 8);
        if (n >= (uint64_t)((size_t)-1) || !(req = (unsigned char *)gpucompile_alloc(NULL, (size_t)n + 1))) return 1;
        if (gpucompile__read_all(in_fd, req, (size_t)n) != n) { gpucompile_free(NULL, req); return 1; }
        memset(&reply, 0, sizeof reply);
        gpucompile__work(req, (size_t)n, &reply);
        gpucompile_free(NULL, req);
        if (reply.oom) { gpucompile_free(NULL, reply.data); return 1; }
        for (at = 0; at < reply.len;) {
            long k = gpucompile__fd_write(out_fd, reply.data + at, reply.len - at);
            if (k < 0 && errno == EINTR) continue;
            if (k <= 0) { gpucompile_free(NULL, reply.data); return 1; }
            at += (size_t)k;
        }
        gpucompile_free(NULL, reply.data);
    }
}

GPUCOMPILE_DEF int gpucompile_worker_main(void) {
    int in, out;
    return gpucompile__worker_stdio(&in, &out) ? gpucompile_worker_serve(in, out) : 1;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_workers_create(int n, const char *exe, gpucompile_workers **out) {
    gpucompile_workers *ws;
    int i;
    if (!GPUCOMPILE__HAVE_FORK) { /* options.isolate instead */
        if (out) *out = NULL;
        return GPUCOMPILE_ERROR_UNSUPPORTED;
    }
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (n < 1) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    ws = (gpucompile_workers *)gpucompile_alloc(NULL, sizeof *ws);
    if (!ws) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(ws, 0, sizeof *ws);
    ws->w = (gpucompile__worker *)gpucompile_alloc(NULL, (size_t)n * sizeof *ws->w);
    ws->exe = exe ? gpucompile__strdup(NULL, exe) : NULL;
    if (!ws->w || (exe && !ws->exe)) { gpucompile_free(NULL, ws->w); gpucompile_free(NULL, ws->exe); gpucompile_free(NULL, ws); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    memset(ws->w, 0, (size_t)n * sizeof *ws->w);
    gpucompile__mtx_init(&ws->mutex);
    gpucompile__cnd_init(&ws->idle);
    fflush(NULL); /* no buffered output twice */
    for (i = 0; i < n; i++) {
        int sv[2], ep[2], k;
        long pid;
        if (!gpucompile__worker_fds(sv, ep)) break;
        pid = gpucompile__fork();
        if (pid == 0) { /* the worker: only its own ends, stdout into its stderr pipe */
            for (k = 0; k < i; k++) { gpucompile__fd_close(ws->w[k].fd); gpucompile__fd_close(ws->w[k].err); }
            gpucompile__fd_close(sv[0]);
            gpucompile__fd_close(ep[0]);
            gpucompile__track_forget();
            gpucompile__child_stdio(ep[1]);
            gpucompile__fd_close(ep[1]);
            gpucompile__child_exit(gpucompile_worker_serve(sv[1], sv[1]));
        }
        gpucompile__fd_close(sv[1]);
        gpucompile__fd_close(ep[1]);
        if (pid < 0) { gpucompile__fd_close(sv[0]); gpucompile__fd_close(ep[0]); break; }
        gpucompile__track_pid(pid, 2);
        ws->w[i].pid = pid;
        ws->w[i].fd = sv[0];
        ws->w[i].err = ep[0];
        ws->n++;
    }
    if (ws->n < n) { gpucompile_workers_free(ws); return GPUCOMPILE_ERROR_TOOL; }
    *out = ws;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF void gpucompile_workers_free(gpucompile_workers *ws) {
    int i;
    if (!ws) return;
    for (i = 0; i < ws->n; i++) { /* end of input: a worker exits */
        gpucompile__worker *w = &ws->w[i];
        if (w->pid <= 0) continue;
        gpucompile__fd_close(w->fd);
        gpucompile__fd_close(w->err);
        gpucompile__proc_wait(w->pid);
        gpucompile__track_pid(w->pid, 0);
    }
    gpucompile__mtx_destroy(&ws->mutex);
    gpucompile__cnd_destroy(&ws->idle);
    gpucompile_free(NULL, ws->w);
    gpucompile_free(NULL, ws->exe);
    gpucompile_free(NULL, ws);
}

/* ==== [section: binaries] ================================================================ */
/* Objects and binaries: the model, MLIR's gpu.binary text, LLVM's offload binary, parallel
   compiles and runtime selection. Private names here start with gpucompile__bin_. */

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_create(const char *name, const gpucompile_allocator *allocator,
                                                          gpucompile_binary **out) {
    gpucompile_binary *b;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    b = (gpucompile_binary *)gpucompile_alloc(allocator, sizeof *b);
    if (!b) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(b, 0, sizeof *b);
    if (allocator) b->allocator = *allocator;
    if (!(b->name = gpucompile__strdup(allocator, name ? name : "binary"))) {
        gpucompile_free(allocator, b);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    *out = b;
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_reserve(gpucompile_binary *b, int n) {
    gpucompile_object **p;
    int cap = b->cap_objects ? b->cap_objects : 4;
    if (n <= b->cap_objects) return GPUCOMPILE_OK;
    while (cap < n) cap *= 2;
    p = (gpucompile_object **)gpucompile__realloc(&b->allocator, b->objects, (size_t)cap * sizeof *p);
    if (!p) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    b->objects = p;
    b->cap_objects = cap;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_add(gpucompile_binary *binary, gpucompile_object *obj) {
    gpucompile_result r;
    if (!binary || !obj) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if ((r = gpucompile__bin_reserve(binary, binary->num_objects + 1)) != GPUCOMPILE_OK) return r;
    binary->objects[binary->num_objects++] = obj;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_merge(gpucompile_binary *dst, gpucompile_binary *src) {
    gpucompile_result r;
    if (!dst || !src || dst == src) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if ((r = gpucompile__bin_reserve(dst, dst->num_objects + src->num_objects)) != GPUCOMPILE_OK) return r;
    if (src->num_objects) memcpy(dst->objects + dst->num_objects, src->objects, (size_t)src->num_objects * sizeof *src->objects);
    dst->num_objects += src->num_objects;
    src->num_objects = 0;
    gpucompile_binary_free(src);
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_set_handler(gpucompile_binary *binary, gpucompile_handler_kind kind,
                                                               int64_t index, const char *target) {
    char *t = NULL;
    if (!binary || (kind == GPUCOMPILE_HANDLER_SELECT_TARGET && !target)) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (kind == GPUCOMPILE_HANDLER_SELECT_TARGET && !(t = gpucompile__strdup(&binary->allocator, target)))
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    gpucompile_free(&binary->allocator, binary->handler.target);
    binary->handler.kind = kind;
    binary->handler.index = kind == GPUCOMPILE_HANDLER_SELECT_INDEX ? index : 0;
    binary->handler.target = t;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF void gpucompile_binary_free(gpucompile_binary *binary) {
    gpucompile_allocator a;
    int i;
    if (!binary) return;
    a = binary->allocator;
    for (i = 0; i < binary->num_objects; i++) gpucompile_object_free(binary->objects[i]);
    gpucompile_free(&a, binary->objects);
    gpucompile_free(&a, binary->handler.target);
    gpucompile_free(&a, binary->name);
    gpucompile_free(&a, binary);
}

/* Parses and verifies target text; the canonical text goes to canon (may be NULL). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_check_target(const char *text, const gpucompile_logger *logger,
                                                                   char *canon, size_t canon_size) {
    gpucompile_target *t = NULL;
    gpucompile_result r = gpucompile_target_parse(text, (size_t)-1, NULL, logger, &t);
    if (r == GPUCOMPILE_OK) r = gpucompile_target_verify(t, logger);
    if (r == GPUCOMPILE_OK && canon) gpucompile_target_print(t, canon, canon_size);
    gpucompile_target_free(t);
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_verify(const gpucompile_binary *b, const gpucompile_logger *logger) {
    const gpucompile_result bad = GPUCOMPILE_ERROR_INVALID_BINARY;
    char canon[4096];
    int i;
    if (!b) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!b->name || !*b->name)
        return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, "a gpu.binary needs a name");
    if (b->num_objects < 1 || !b->objects)
        return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE,
                                "'gpu.binary' op attribute 'objects' failed to satisfy "
                                "constraint: an array of GPU object attributes with at least 1 elements");
    switch (b->handler.kind) {
    case GPUCOMPILE_HANDLER_DEFAULT: case GPUCOMPILE_HANDLER_RUNTIME: break;
    case GPUCOMPILE_HANDLER_SELECT_INDEX:
        if (b->handler.index < 0)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, "the object index must be positive");
        if (b->handler.index >= b->num_objects)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE,
                                    "the requested object index ('%lld') is out of bounds, "
                                    "the number of objects present is %d", (long long)b->handler.index, b->num_objects);
        break;
    case GPUCOMPILE_HANDLER_SELECT_TARGET:
        if (!b->handler.target || gpucompile__bin_check_target(b->handler.target, logger, canon, sizeof canon) != GPUCOMPILE_OK)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE,
                                    "the target attribute must be a GPU Target attribute");
        for (i = 0; i < b->num_objects; i++)
            if (b->objects[i] && b->objects[i]->target && strcmp(b->objects[i]->target, canon) == 0) break;
        if (i == b->num_objects)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE,
                                    "no object in the binary has the handler's target %s", canon);
        break;
    default: return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, "invalid kind of attribute specified");
    }
    for (i = 0; i < b->num_objects; i++) {
        const gpucompile_object *o = b->objects[i];
        if (!o || !o->target || (!o->data && o->size))
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, "object %d is not a GPU object", i);
        if (o->format < GPUCOMPILE_FORMAT_DEFAULT || o->format > GPUCOMPILE_FORMAT_FATBIN)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, "object %d has an invalid format", i);
        if (gpucompile__bin_check_target(o->target, logger, NULL, 0) != GPUCOMPILE_OK)
            return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE,
                                    "object %d: invalid target %s", i, o->target);
    }
    return GPUCOMPILE_OK;
}

/* ---- compiling for several targets, in parallel ----------------------------------------- */
/* Diagnostics of a parallel compile are recorded per target and replayed in target order. */
typedef struct gpucompile__bin_slot {
    const gpucompile_target *target;
    gpucompile_options opts;
    gpucompile_object *obj;
    gpucompile_result r;
    int ran;
    gpucompile_buf log;   /* records: header, origin\0, message\0 */
} gpucompile__bin_slot;

typedef struct gpucompile__bin_pool {
    const void *data;
    size_t size;
    const char *input_name;
    gpucompile__bin_slot *slots;
} gpucompile__bin_pool;

GPUCOMPILE__PRIVATE void gpucompile__bin_record(const gpucompile_diagnostic *d, void *user) {
    gpucompile__record(d, &((gpucompile__bin_slot *)user)->log);
}

GPUCOMPILE__PRIVATE void gpucompile__bin_replay(const gpucompile__bin_slot *s, const gpucompile_logger *l) {
    if (!s->log.oom) gpucompile__replay(s->log.data, s->log.len, l);
}

/* Targets are handed out in order and a failure stops the hand-out, so every target before
   the failing one runs to its end and the first failure is the same as in a serial compile. */
GPUCOMPILE__PRIVATE int gpucompile__bin_work(gpucompile_parallel *pool, int i, void *user) {
    gpucompile__bin_pool *p = (gpucompile__bin_pool *)user;
    gpucompile__bin_slot *s = &p->slots[i];
    (void)pool;
    s->r = gpucompile_compile_ir(p->data, p->size, p->input_name, s->target, &s->opts, &s->obj);
    s->ran = 1;
    return s->r != GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_binary(const void *data, size_t size, const char *input_name,
    const gpucompile_target *const *targets, int num_targets, const gpucompile_options *options, int jobs,
    const char *name, gpucompile_binary **out) {
    gpucompile_options base;
    gpucompile__bin_pool pool;
    gpucompile_binary *b = NULL;
    gpucompile_result r = GPUCOMPILE_OK;
    int i, failed = -1, parallel;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!targets || num_targets < 1) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    for (i = 0; i < num_targets; i++)
        if (!targets[i]) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&base, 0, sizeof base);
    if (options) base = *options;
    parallel = jobs > 1 && num_targets > 1;
    /* what the targets running at once leave over goes inside each module */
    if (base.jobs < 1 && jobs > 1) base.jobs = jobs / (jobs < num_targets ? jobs : num_targets);
    memset(&pool, 0, sizeof pool);
    pool.data = data;
    pool.size = size;
    pool.input_name = input_name;
    pool.slots = (gpucompile__bin_slot *)gpucompile_alloc(&base.allocator, (size_t)num_targets * sizeof *pool.slots);
    if (!pool.slots) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(pool.slots, 0, (size_t)num_targets * sizeof *pool.slots);
    for (i = 0; i < num_targets; i++) {
        gpucompile__bin_slot *s = &pool.slots[i];
        s->target = targets[i];
        s->opts = base;
        s->log.a = &base.allocator;
        if (parallel) {
            s->opts.logger.func = gpucompile__bin_record;
            s->opts.logger.user_data = s;
        }
    }
    gpucompile_run_parallel(&base.allocator, num_targets, parallel ? jobs : 1, gpucompile__bin_work, &pool);
    for (i = 0; i < num_targets && failed < 0; i++)
        if (pool.slots[i].ran && pool.slots[i].r != GPUCOMPILE_OK) failed = i;
    for (i = 0; i < num_targets; i++) {
        gpucompile__bin_slot *s = &pool.slots[i];
        if (parallel && (failed < 0 || i <= failed)) gpucompile__bin_replay(s, &base.logger);
        gpucompile_free(&base.allocator, s->log.data);
    }
    if (failed >= 0) {
        char text[4096];
        r = pool.slots[failed].r;
        gpucompile_target_print(targets[failed], text, sizeof text);
        gpucompile__logf(&base.logger, GPUCOMPILE_SEVERITY_ERROR, r, GPUCOMPILE_STAGE_NONE, "target %d of %d (%s) failed: %s", failed + 1,
                            num_targets, text, gpucompile_result_string(r));
    } else {
        r = gpucompile_binary_create(name, &base.allocator, &b);
        if (r == GPUCOMPILE_OK) r = gpucompile__bin_reserve(b, num_targets);
        for (i = 0; r == GPUCOMPILE_OK && i < num_targets; i++) {
            b->objects[b->num_objects++] = pool.slots[i].obj;
            pool.slots[i].obj = NULL;
        }
    }
    for (i = 0; i < num_targets; i++) gpucompile_object_free(pool.slots[i].obj);
    gpucompile_free(&base.allocator, pool.slots);
    if (r != GPUCOMPILE_OK) gpucompile_binary_free(b);
    else *out = b;
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_compile_binary_module(LLVMModuleRef module,
    const gpucompile_target *const *targets, int num_targets, const gpucompile_options *options, int jobs,
    const char *name, gpucompile_binary **out) {
    LLVMMemoryBufferRef bc;
    gpucompile_result r;
    size_t len;
    if (out) *out = NULL;
    if (!module) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    /* One copy in the calling thread: a module must not be read from several threads. */
    bc = LLVMWriteBitcodeToMemoryBuffer(module);
    if (!bc) return GPUCOMPILE_ERROR_LLVM;
    r = gpucompile_compile_binary(LLVMGetBufferStart(bc), LLVMGetBufferSize(bc), LLVMGetModuleIdentifier(module, &len),
                                  targets, num_targets, options, jobs, name, out);
    LLVMDisposeMemoryBuffer(bc);
    return r;
}

/* ---- text form -------------------------------------------------------------------------- */
/* Bytes escaped as MLIR prints them (gpucompile__escape). */
GPUCOMPILE__PRIVATE void gpucompile__bin_escape(gpucompile_buf *b, const unsigned char *s, size_t n) {
    size_t i;
    char e[3];
    for (i = 0; i < n; i++) gpucompile_buf_add(b, e, gpucompile__escape(s[i], e));
}

GPUCOMPILE__PRIVATE void gpucompile__bin_string(gpucompile_buf *b, const char *s, size_t n) {
    gpucompile_buf_add(b, "\"", 1);
    gpucompile__bin_escape(b, (const unsigned char *)s, n);
    gpucompile_buf_add(b, "\"", 1);
}

/* The reader's words also take '-' (a symbol name written bare by older gpucompile versions); the
   printer writes a symbol bare only when MLIR would read it so: [A-Za-z_][A-Za-z0-9_$.]*. */
GPUCOMPILE__PRIVATE int gpucompile__bin_id_char(int c) { return gpucompile__is_id_char(c) || c == '-'; }

GPUCOMPILE__PRIVATE void gpucompile__bin_symbol(gpucompile_buf *b, const char *name) {
    const char *p = name;
    int bare = gpucompile__is_id_start((unsigned char)*p);
    for (; bare && *p; p++) bare = gpucompile__is_id_char((unsigned char)*p);
    gpucompile_buf_add(b, "@", 1);
    if (bare) gpucompile_buf_str(b, name);
    else gpucompile__bin_string(b, name, strlen(name));
}

GPUCOMPILE__PRIVATE char *gpucompile__bin_upstream_target(const char *text, const gpucompile_allocator *a);
GPUCOMPILE__PRIVATE void gpucompile__bin_print_handler(gpucompile_buf *b, const gpucompile_handler *h) {
    switch (h->kind) {
    case GPUCOMPILE_HANDLER_SELECT_INDEX: gpucompile_buf_printf(b, "#gpu.select_object<%lld : i64>", (long long)h->index); break;
    case GPUCOMPILE_HANDLER_SELECT_TARGET: {
        char *up = gpucompile__bin_upstream_target(h->target, b->a);
        gpucompile_buf_printf(b, "#gpu.select_object<%s>", up ? up : h->target ? h->target : "");
        gpucompile_free(b->a, up);
        break;
    }
    case GPUCOMPILE_HANDLER_RUNTIME: gpucompile_buf_str(b, "#gpucompile.runtime_select"); break;
    default: gpucompile_buf_str(b, "#gpu.select_object"); break;
    }
}

/* MLIR's keyword for each format. */
GPUCOMPILE__PRIVATE const char *gpucompile__bin_keyword(gpucompile_format f) {
    switch (f) {
    case GPUCOMPILE_FORMAT_LLVM: return "offload";
    case GPUCOMPILE_FORMAT_ISA: return "assembly";
    case GPUCOMPILE_FORMAT_FATBIN: return "fatbin";
    default: return "bin";
    }
}

GPUCOMPILE__PRIVATE gpucompile_format gpucompile__bin_default_format(const char *target) {
    return gpucompile__bin_upstream(target) ? GPUCOMPILE_FORMAT_FATBIN : GPUCOMPILE_FORMAT_BIN;
}

/* Target text in MLIR's upstream spelling (the backend's attribute[1] for its attribute[0]),
   meaning the same: every parameter's value as gpucompile's own spelling resolves it, so that a
   default that differs between the spellings is written out (a features or abi default that
   MLIR 22 changed); what the text is meant for is mlir-opt, which knows only the upstream spelling.
   A new string (the caller frees it), or NULL to keep the text as it is: already upstream, a
   backend without an upstream attribute, a parameter the upstream one lacks (features, for
   one), not a target, out of memory. */
GPUCOMPILE__PRIVATE char *gpucompile__bin_upstream_target(const char *text, const gpucompile_allocator *a) {
    gpucompile_target *t = NULL, u;
    const gpucompile_backend *b;
    char *out = NULL;
    size_t n;
    if (!text || gpucompile__bin_upstream(text) || gpucompile_target_parse(text, (size_t)-1, a, NULL, &t) != GPUCOMPILE_OK) return NULL;
    b = gpucompile__backend_of(t, NULL);
    u = *t;
    u.upstream = 1;
    u.triple = gpucompile_target_triple(t);
    u.chip = gpucompile_target_chip(t);
    u.features = gpucompile_target_features(t);
    u.abi = gpucompile_target_abi(t);
    /* a backend that prints its upstream spelling itself (a positional one) gets no translation
       of parameters: the text keeps the spelling as written */
    if (b && b->attribute[1] && !b->print_text[1] && (gpucompile__takes_param(b, 1, "features") || !*u.features) &&
        (gpucompile__takes_param(b, 1, "abi") || !*u.abi || !gpucompile__takes_param(b, 0, "abi")) &&
        (!u.no_verify_target || gpucompile__takes_param(b, 1, "verifyTarget"))) {
        n = gpucompile_target_print(&u, NULL, 0);
        if ((out = (char *)gpucompile_alloc(a, n + 1)) != NULL) gpucompile_target_print(&u, out, n + 1);
    }
    gpucompile_target_free(t);
    return out;
}

/* The kernel fields that #gpu.kernel_metadata's metadata dictionary may carry, in the order of
   gpucompile_backend.kernel_metadata, which names them. */
static const size_t gpucompile__bin_fields[] = {
    offsetof(gpucompile_kernel, registers), offsetof(gpucompile_kernel, shared_bytes),
    offsetof(gpucompile_kernel, private_bytes), offsetof(gpucompile_kernel, max_threads),
    offsetof(gpucompile_kernel, sgprs), offsetof(gpucompile_kernel, vgprs),
    offsetof(gpucompile_kernel, wavefront_size), offsetof(gpucompile_kernel, kernarg_bytes)};

GPUCOMPILE__PRIVATE const char *gpucompile__bin_field_name(size_t f, const gpucompile_object *o) {
    const gpucompile_backend *b = gpucompile__backend_of(NULL, o);
    return b && b->kernel_metadata ? b->kernel_metadata[f] : NULL;
}

/* The parser: the lexer's cursor over the text (errors as LINE:COLUMN). */
typedef gpucompile_lexer gpucompile__bin_p;

/* A parser over the n bytes at s: errors to logger, what it keeps allocated with a (both may be
   NULL). */
GPUCOMPILE__PRIVATE void gpucompile__bin_reader(gpucompile__bin_p *p, const char *s, size_t n, const gpucompile_allocator *a,
                                                const gpucompile_logger *logger) {
    memset(p, 0, sizeof *p);
    p->s = s;
    p->n = n;
    p->a = a;
    p->logger = logger;
}

/* The length of the bare word at the cursor (after white space), '-' taken too (see
   gpucompile__bin_id_char); the cursor stays before it. */
GPUCOMPILE__PRIVATE size_t gpucompile__bin_word(gpucompile__bin_p *p) {
    size_t n = gpucompile_lex_word(p, NULL, "-");
    p->pos -= n;
    return n;
}

GPUCOMPILE__PRIVATE int gpucompile__bin_keyword_is(gpucompile__bin_p *p, const char *kw) {
    size_t n = gpucompile__bin_word(p);
    if (n != strlen(kw) || strncmp(p->s + p->pos, kw, n) != 0) return 0;
    p->pos += n;
    return 1;
}

/* A string literal (NUL bytes allowed: object bytes) into out (NULL: only skipped). */
GPUCOMPILE__PRIVATE int gpucompile__bin_pstring(gpucompile__bin_p *p, gpucompile_buf *out) {
    size_t start;
    gpucompile_lex_ws(p);
    start = p->pos;
    if (!gpucompile_lex_string(p, out, 0)) return 0;
    if (!out) return 1;
    gpucompile_buf_add(out, NULL, 0);
    return !out->oom || gpucompile_lex_error(p, start, "out of memory");
}

/* An attribute `#name` or `#name<...>` (balanced angles, strings skipped); its extent. */
GPUCOMPILE__PRIVATE int gpucompile__bin_attr(gpucompile__bin_p *p, size_t *start, size_t *len) {
    size_t e;
    int depth = 0;
    if (gpucompile_lex_ws(p) != '#') return gpucompile_lex_error(p, p->pos, "expected an attribute ('#...')");
    *start = p->pos;
    for (e = p->pos + 1; e < p->n && gpucompile__bin_id_char((unsigned char)p->s[e]); e++) {}
    if (e == p->pos + 1) return gpucompile_lex_error(p, p->pos, "expected an attribute name after '#'");
    if (e < p->n && p->s[e] == '<') {
        for (p->pos = e; p->pos < p->n;) {
            char c = p->s[p->pos];
            if (c == '"') {
                if (!gpucompile_lex_string(p, NULL, 0)) return 0;
                continue;
            }
            p->pos++;
            if (c == '<') depth++;
            else if (c == '>' && --depth == 0) break;
        }
        if (depth) return gpucompile_lex_error(p, *start, "unbalanced '<' in attribute");
        e = p->pos;
    }
    *len = e - *start;
    p->pos = e;
    return 1;
}

GPUCOMPILE__PRIVATE int gpucompile__bin_is(const gpucompile__bin_p *p, size_t start, size_t len, const char *name) {
    return len == strlen(name) && strncmp(p->s + start, name, len) == 0;
}

/* <handler> after the name: #gpu.select_object[<N [: type]> | <#target>] or ours. */
GPUCOMPILE__PRIVATE int gpucompile__bin_phandler(gpucompile__bin_p *p, gpucompile_binary *b) {
    size_t start, len, at = p->pos;
    gpucompile_result r = GPUCOMPILE_OK;
    if (gpucompile_lex_ws(p) != '#') return gpucompile_lex_error(p, at, "invalid kind of attribute specified");
    if (!gpucompile__bin_attr(p, &start, &len)) return 0;
    if (gpucompile__bin_is(p, start, len, "#gpucompile.runtime_select"))
        r = gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL);
    else if (gpucompile__bin_is(p, start, len, "#gpu.select_object") || gpucompile__bin_is(p, start, len, "#gpu.select_object<>"))
        r = gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_DEFAULT, 0, NULL);
    else if (len > 20 && strncmp(p->s + start, "#gpu.select_object<", 19) == 0) {
        gpucompile__bin_p q = *p; /* the parameter, parsed inside the attribute's extent */
        size_t ts, tl;
        int c;
        q.pos = start + 19;
        q.n = start + len - 1;
        c = gpucompile_lex_ws(&q);
        if (c == '-' || (c >= '0' && c <= '9')) {
            char num[32];
            size_t e = q.pos + 1, k;
            while (e < q.n && p->s[e] >= '0' && p->s[e] <= '9') e++;
            k = e - q.pos < sizeof num - 1 ? e - q.pos : sizeof num - 1;
            memcpy(num, p->s + q.pos, k);
            num[k] = 0;
            q.pos = e;
            if (gpucompile_lex_eat(&q, ':')) q.pos += gpucompile__bin_word(&q); /* ": i64" */
            if (gpucompile_lex_ws(&q) >= 0 || k < 1 || (num[0] == '-' && k < 2))
                return gpucompile_lex_error(p, q.pos, "expected an integer in #gpu.select_object");
            if (num[0] == '-') return gpucompile_lex_error(p, start + 19, "the object index must be positive");
            r = gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_INDEX, (int64_t)strtoll(num, NULL, 10), NULL);
        } else if (c == '#' && gpucompile__bin_attr(&q, &ts, &tl) && gpucompile_lex_ws(&q) < 0) {
            char *t = gpucompile__strndup(p->a, p->s + ts, tl);
            r = t ? gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, t) : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
            gpucompile_free(p->a, t);
        } else {
            return gpucompile_lex_error(p, start + 19, "the target attribute must be a GPU Target attribute");
        }
    } else return gpucompile_lex_error(p, at, "invalid kind of attribute specified");
    if (r != GPUCOMPILE_OK) return gpucompile_lex_error(p, at, "%s", gpucompile_result_string(r));
    return 1;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_handler_parse(const char *text, gpucompile_binary *binary, const gpucompile_logger *logger) {
    gpucompile__bin_p p;
    gpucompile_binary *h = NULL;
    gpucompile_target *t = NULL;
    gpucompile_result r;
    if (!text) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (strcmp(text, "runtime") == 0) text = "#gpucompile.runtime_select";
    if ((r = gpucompile_binary_create("handler", binary ? &binary->allocator : NULL, &h)) != GPUCOMPILE_OK) return r;
    gpucompile__bin_reader(&p, text, strlen(text), &h->allocator, logger);
    if (!gpucompile__bin_phandler(&p, h)) r = GPUCOMPILE_ERROR_PARSE;
    else if (gpucompile_lex_ws(&p) >= 0) r = (gpucompile_lex_error(&p, p.pos, "expected the end of the handler"), GPUCOMPILE_ERROR_PARSE);
    else if (h->handler.kind == GPUCOMPILE_HANDLER_SELECT_TARGET)
        r = gpucompile_target_parse(h->handler.target, (size_t)-1, NULL, logger, &t) == GPUCOMPILE_OK ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_PARSE;
    if (r == GPUCOMPILE_OK && binary) r = gpucompile_binary_set_handler(binary, h->handler.kind, h->handler.index, h->handler.target);
    gpucompile_target_free(t);
    gpucompile_binary_free(h);
    return r;
}

/* ---- dictionaries: entries kept as text, in MLIR's order (by name) ---- */
typedef struct gpucompile__bin_ent { const char *k, *v; size_t kn, vn; } gpucompile__bin_ent; /* vn 0: a unit entry */

GPUCOMPILE__PRIVATE int gpucompile__bin_ent_cmp(const void *a, const void *b) {
    const gpucompile__bin_ent *x = (const gpucompile__bin_ent *)a, *y = (const gpucompile__bin_ent *)b;
    const char *xs = x->k, *ys = y->k;
    size_t xn = x->kn, yn = y->kn;
    int c;
    if (xn >= 2 && *xs == '"') { xs++; xn -= 2; } /* a quoted name orders by its characters */
    if (yn >= 2 && *ys == '"') { ys++; yn -= 2; }
    c = memcmp(xs, ys, xn < yn ? xn : yn);
    return c ? c : (xn > yn) - (xn < yn);
}

/* Entries `key [= value], ...` up to close (eaten) or, close 0, the end of the text; appended to
   list (a buffer of gpucompile__bin_ent pointing into the text). */
GPUCOMPILE__PRIVATE int gpucompile__bin_pentries(gpucompile__bin_p *p, gpucompile_buf *list, int close) {
    if (close ? gpucompile_lex_eat(p, (char)close) : gpucompile_lex_ws(p) < 0) return 1;
    for (;;) {
        gpucompile__bin_ent e;
        size_t at;
        memset(&e, 0, sizeof e);
        gpucompile_lex_ws(p);
        at = p->pos;
        if (p->pos < p->n && p->s[p->pos] == '"') {
            if (!gpucompile__bin_pstring(p, NULL)) return 0;
        } else if (!(p->pos += gpucompile__bin_word(p), p->pos - at)) {
            return gpucompile_lex_error(p, p->pos, "expected an attribute name in the dictionary");
        }
        e.k = p->s + at;
        e.kn = p->pos - at;
        if (gpucompile_lex_eat(p, '=')) {
            gpucompile_lex_ws(p);
            at = p->pos;
            if (!gpucompile__lex_skip_value(p, "]})>", "the attribute value")) return 0;
            e.v = p->s + at;
            for (e.vn = p->pos - at; e.vn && (e.v[e.vn - 1] == ' ' || e.v[e.vn - 1] == '\n' || e.v[e.vn - 1] == '\t'); e.vn--) {}
            if (!e.vn) return gpucompile_lex_error(p, at, "expected an attribute value");
        }
        gpucompile_buf_add(list, &e, sizeof e);
        if (list->oom) return gpucompile_lex_error(p, at, "out of memory");
        if (close ? gpucompile_lex_eat(p, (char)close) : gpucompile_lex_ws(p) < 0) return 1;
        if (!gpucompile_lex_expect(p, ',', close ? "or '}' between dictionary entries" : "between dictionary entries")) return 0;
    }
}

/* Attribute text kept as text, as MLIR prints it: its string literals escaped the one way. */
GPUCOMPILE__PRIVATE void gpucompile__bin_put_text(gpucompile_buf *out, const char *s, size_t n) {
    gpucompile_lexer lx;
    gpucompile_buf str;
    memset(&lx, 0, sizeof lx);
    memset(&str, 0, sizeof str);
    lx.s = s;
    lx.n = n;
    str.a = out->a;
    while (lx.pos < n) {
        size_t at = lx.pos;
        if (s[at] != '"') {
            gpucompile_buf_add(out, s + at, 1);
            lx.pos++;
            continue;
        }
        str.len = 0;
        if (!gpucompile_lex_string(&lx, &str, 0)) { /* parsed before: cannot happen */
            gpucompile_buf_add(out, s + at, n - at);
            break;
        }
        gpucompile__bin_string(out, str.data, str.len);
    }
    if (str.oom) out->oom = 1;
    gpucompile_free(str.a, str.data);
}

/* Sorted entries as "k = v, ..." into out. */
GPUCOMPILE__PRIVATE void gpucompile__bin_put_entries(gpucompile_buf *out, gpucompile_buf *list) {
    gpucompile__bin_ent *e = (gpucompile__bin_ent *)list->data;
    size_t n = list->len / sizeof *e, i;
    if (n) qsort(e, n, sizeof *e, gpucompile__bin_ent_cmp);
    for (i = 0; i < n; i++) {
        if (i) gpucompile_buf_str(out, ", ");
        gpucompile__bin_put_text(out, e[i].k, e[i].kn);
        if (e[i].vn) { gpucompile_buf_str(out, " = "); gpucompile__bin_put_text(out, e[i].v, e[i].vn); }
    }
}

/* Entries text (ours: valid) printed sorted into out. */
GPUCOMPILE__PRIVATE void gpucompile__bin_put_sorted(gpucompile_buf *out, const char *text, size_t n) {
    gpucompile__bin_p q;
    gpucompile_buf list;
    gpucompile__bin_reader(&q, text, n, out->a, NULL);
    memset(&list, 0, sizeof list);
    list.a = out->a;
    if (gpucompile__bin_pentries(&q, &list, 0)) gpucompile__bin_put_entries(out, &list);
    else gpucompile_buf_add(out, text, n);
    if (list.oom) out->oom = 1;
    gpucompile_free(list.a, list.data);
}

/* The entries text gathered in d, when there is any, printed sorted between open and close; d
   is freed (its running out of memory is out's). */
GPUCOMPILE__PRIVATE void gpucompile__bin_put_dict(gpucompile_buf *out, gpucompile_buf *d, const char *open, const char *close) {
    if (d->len) {
        gpucompile_buf_str(out, open);
        gpucompile__bin_put_sorted(out, d->data, d->len);
        gpucompile_buf_str(out, close);
    }
    if (d->oom) out->oom = 1;
    gpucompile_free(d->a, d->data);
}

/* The list's entries joined and sorted, allocated (NULL: none, or *oom set). */
GPUCOMPILE__PRIVATE char *gpucompile__bin_join_entries(gpucompile_buf *list, const gpucompile_allocator *a, int *oom) {
    gpucompile_buf out;
    if (!list->len) return NULL;
    memset(&out, 0, sizeof out);
    out.a = a;
    gpucompile__bin_put_entries(&out, list);
    if (out.oom) { gpucompile_free(a, out.data); *oom = 1; return NULL; }
    return out.data;
}

/* An integer attribute "N", "N : i64" or "N : i32" that fits an int >= 0; -1 otherwise. */
GPUCOMPILE__PRIVATE int gpucompile__bin_int_value(const char *v, size_t n) {
    char buf[48], *end;
    long long x;
    if (n == 0 || n >= sizeof buf) return -1;
    memcpy(buf, v, n);
    buf[n] = 0;
    x = strtoll(buf, &end, 10);
    if (end == buf || x < 0 || x > INT_MAX) return -1;
    while (*end == ' ') end++;
    if (*end && strcmp(end, ": i64") != 0 && strcmp(end, ": i32") != 0) return -1;
    return (int)x;
}

GPUCOMPILE_DEF size_t gpucompile_object_property(const gpucompile_object *obj, const char *key, char *buf, size_t size) {
    gpucompile__bin_p q;
    gpucompile_buf list;
    size_t i, n = 0, found = 0;
    if (buf && size) buf[0] = 0;
    if (!obj || !key || !obj->properties) return 0;
    gpucompile__bin_reader(&q, obj->properties, strlen(obj->properties), NULL, NULL);
    memset(&list, 0, sizeof list);
    list.a = &obj->allocator;
    if (gpucompile__bin_pentries(&q, &list, 0))
        for (i = 0; i < list.len / sizeof(gpucompile__bin_ent) && !found; i++) {
            const gpucompile__bin_ent *e = (const gpucompile__bin_ent *)list.data + i;
            if (e->vn && e->kn == strlen(key) && strncmp(e->k, key, e->kn) == 0) {
                found = 1;
                n = e->vn;
                if (buf && size) {
                    size_t m = n < size - 1 ? n : size - 1;
                    memcpy(buf, e->v, m);
                    buf[m] = 0;
                }
            }
        }
    gpucompile_free(list.a, list.data);
    return n;
}

/* What a compile records (as MLIR's GPU targets write them): O on ISA objects, the section. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_compile_properties(gpucompile_object *o, int O, const char *section) {
    gpucompile_buf b;
    memset(&b, 0, sizeof b);
    b.a = &o->allocator;
    if (o->format == GPUCOMPILE_FORMAT_ISA) gpucompile_buf_printf(&b, "O = %d : i32", O);
    if (section) {
        if (b.len) gpucompile_buf_str(&b, ", ");
        gpucompile_buf_str(&b, "section = ");
        gpucompile__bin_string(&b, section, strlen(section));
    }
    if (b.oom) { gpucompile_free(b.a, b.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    gpucompile_free(&o->allocator, o->properties);
    o->properties = b.data; /* NULL when empty */
    return GPUCOMPILE_OK;
}

/* ---- printing ---- */
GPUCOMPILE__PRIVATE void gpucompile__bin_print_kernel(gpucompile_buf *b, const gpucompile_object *o, const gpucompile_kernel *k) {
    gpucompile_buf md;
    size_t f;
    memset(&md, 0, sizeof md);
    md.a = b->a;
    gpucompile_buf_str(b, "#gpu.kernel_metadata<");
    gpucompile__bin_string(b, k->name, strlen(k->name));
    gpucompile_buf_printf(b, ", %s", k->type ? k->type : "!llvm.func<void (...)>"); /* unknown: any arguments */
    if (k->arg_attrs) gpucompile_buf_printf(b, ", arg_attrs = %s", k->arg_attrs);
    for (f = 0; f < sizeof gpucompile__bin_fields / sizeof gpucompile__bin_fields[0]; f++) {
        const char *name = gpucompile__bin_field_name(f, o);
        int v = *(const int *)(const void *)((const char *)k + gpucompile__bin_fields[f]);
        if (name && v >= 0) gpucompile_buf_printf(&md, "%s%s = %d : i64", md.len ? ", " : "", name, v);
    }
    if (k->metadata && *k->metadata) gpucompile_buf_printf(&md, "%s%s", md.len ? ", " : "", k->metadata);
    gpucompile__bin_put_dict(b, &md, ", metadata = {", "}");
    gpucompile_buf_str(b, ">");
}

GPUCOMPILE__PRIVATE int gpucompile__bin_kernel_ptr_cmp(const void *a, const void *b) {
    return strcmp((*(const gpucompile_kernel *const *)a)->name, (*(const gpucompile_kernel *const *)b)->name);
}

/* <[#gpu.kernel_metadata<...>, ...]>, in name order as MLIR keeps the table; <> when empty. */
GPUCOMPILE__PRIVATE void gpucompile__bin_print_table(gpucompile_buf *b, const gpucompile_object *o) {
    const gpucompile_kernel **k = (const gpucompile_kernel **)gpucompile_alloc(b->a, (size_t)o->num_kernels * sizeof *k + 1);
    int i;
    if (!k) { b->oom = 1; return; }
    for (i = 0; i < o->num_kernels; i++) k[i] = &o->kernels[i];
    qsort((void *)k, (size_t)o->num_kernels, sizeof *k, gpucompile__bin_kernel_ptr_cmp);
    gpucompile_buf_str(b, o->num_kernels ? "<[" : "<"); /* MLIR's empty table is <> (it refuses <[]>) */
    for (i = 0; i < o->num_kernels; i++) {
        if (i) gpucompile_buf_str(b, ", ");
        gpucompile__bin_print_kernel(b, o, k[i]);
    }
    gpucompile_buf_str(b, o->num_kernels ? "]>" : ">");
    gpucompile_free(b->a, (void *)k);
}

/* #gpu.object<TARGET, [properties = {...},] [kernels = <[...]>,] [FORMAT =] "bytes">. The kernel
   table is MLIR's since LLVM 20; with LLVM 19 (whose MLIR has none) kernel names go in the
   properties as kernels = ["a", ...]. */
GPUCOMPILE__PRIVATE void gpucompile__bin_print_object(gpucompile_buf *b, const gpucompile_object *o) {
    gpucompile_format f = o->format ? o->format : GPUCOMPILE_FORMAT_BIN;
    gpucompile_buf props;
#if LLVM_VERSION_MAJOR < 20
    int k;
#endif
    char *up = gpucompile__bin_upstream_target(o->target, b->a); /* the text is for MLIR: its spelling */
    const char *target = up ? up : o->target;
    memset(&props, 0, sizeof props);
    props.a = b->a;
    gpucompile_buf_printf(b, "#gpu.object<%s, ", target);
    if (o->properties) gpucompile_buf_str(&props, o->properties);
#if LLVM_VERSION_MAJOR < 20
    for (k = 0; o->kernel_table >= 0 && k < o->num_kernels; k++) {
        gpucompile_buf_str(&props, k ? ", " : props.len ? ", kernels = [" : "kernels = [");
        gpucompile__bin_string(&props, o->kernels[k].name, strlen(o->kernels[k].name));
    }
    if (o->kernel_table >= 0 && o->num_kernels) gpucompile_buf_str(&props, "]");
#endif
    gpucompile__bin_put_dict(b, &props, "properties = {", "}, ");
#if LLVM_VERSION_MAJOR >= 20
    if ((o->num_kernels && o->kernel_table >= 0) || o->kernel_table > 0) {
        gpucompile_buf_str(b, "kernels = ");
        gpucompile__bin_print_table(b, o);
        gpucompile_buf_str(b, ", ");
    }
#endif
    if (f != gpucompile__bin_default_format(target)) gpucompile_buf_printf(b, "%s = ", gpucompile__bin_keyword(f));
    gpucompile_free(b->a, up);
    gpucompile__bin_string(b, (const char *)o->data, o->size);
    gpucompile_buf_str(b, ">");
}

GPUCOMPILE_DEF size_t gpucompile_binary_print(const gpucompile_binary *binary, char *buf, size_t size) {
    gpucompile_buf b;
    size_t n;
    int i;
    if (!binary) { if (buf && size) buf[0] = 0; return 0; }
    memset(&b, 0, sizeof b);
    b.a = &binary->allocator;
    gpucompile_buf_str(&b, "gpu.binary ");
    gpucompile__bin_symbol(&b, binary->name ? binary->name : "");
    /* mlir-opt (19 and 22) writes the space before the optional handler even without one:
       "@name  [" (two spaces), "@name <#gpu.select_object<1 : i64>> [" */
    gpucompile_buf_str(&b, " ");
    if (binary->handler.kind != GPUCOMPILE_HANDLER_DEFAULT) {
        gpucompile_buf_str(&b, "<");
        gpucompile__bin_print_handler(&b, &binary->handler);
        gpucompile_buf_str(&b, ">");
    }
    gpucompile_buf_str(&b, " ");
    gpucompile_buf_str(&b, "[");
    for (i = 0; i < binary->num_objects; i++) {
        if (i) gpucompile_buf_str(&b, ", ");
        if (binary->objects[i]) gpucompile__bin_print_object(&b, binary->objects[i]);
    }
    gpucompile_buf_str(&b, "]");
    if (b.oom) { gpucompile_free(b.a, b.data); if (buf && size) buf[0] = 0; return 0; }
    n = b.len;
    if (buf && size) {
        size_t m = n < size - 1 ? n : size - 1;
        memcpy(buf, b.data, m);
        buf[m] = 0;
    }
    gpucompile_free(b.a, b.data);
    return n;
}

/* ---- reading ---- */
/* The parameter count of an MLIR function type text: -1 for "(...)" or when it cannot tell. */
GPUCOMPILE__PRIVATE int gpucompile__bin_count_params(const char *type) {
    const char *p = type ? strchr(type, '(') : NULL;
    int depth = 0, n = 0, any = 0;
    if (!p || strstr(p, "...")) return -1;
    for (p++; *p; p++) {
        if (*p == '(' || *p == '<' || *p == '[' || *p == '{') depth++;
        else if (*p == ')' && depth == 0) return any ? n + 1 : 0;
        else if (*p == ')' || *p == '>' || *p == ']' || *p == '}') depth--;
        else if (*p == ',' && depth == 0) n++;
        else if (*p != ' ') any = 1;
    }
    return -1;
}

/* The start of a dictionary read: its '{' (what it opens, for the message) and its entries into
   list; rest, for the entries no field takes, empty. 0 on a parse error (reported). */
GPUCOMPILE__PRIVATE int gpucompile__bin_open_dict(gpucompile__bin_p *p, const char *what, gpucompile_buf *list, gpucompile_buf *rest) {
    memset(list, 0, sizeof *list);
    memset(rest, 0, sizeof *rest);
    list->a = rest->a = p->a;
    return gpucompile_lex_expect(p, '{', what) && gpucompile__bin_pentries(p, list, '}');
}

/* The end of a dictionary read: the entries no field took (rest) become *field's text; both
   lists are freed. */
GPUCOMPILE__PRIVATE int gpucompile__bin_keep_rest(gpucompile__bin_p *p, size_t at, int ok, gpucompile_buf *list,
                                                  gpucompile_buf *rest, char **field) {
    int oom = 0;
    if (ok) {
        gpucompile_free(p->a, *field);
        *field = gpucompile__bin_join_entries(rest, p->a, &oom);
        if (oom || rest->oom) ok = gpucompile_lex_error(p, at, "out of memory");
    }
    gpucompile_free(p->a, list->data);
    gpucompile_free(p->a, rest->data);
    return ok;
}

/* The metadata dictionary of kernel k: our fields by name, the rest kept as text. */
GPUCOMPILE__PRIVATE int gpucompile__bin_pmetadata(gpucompile__bin_p *p, const gpucompile_object *o, gpucompile_kernel *k) {
    gpucompile_buf list, rest;
    size_t i, f, at = p->pos;
    int ok = gpucompile__bin_open_dict(p, "to open the kernel metadata", &list, &rest);
    for (i = 0; ok && i < list.len / sizeof(gpucompile__bin_ent); i++) {
        const gpucompile__bin_ent *e = (const gpucompile__bin_ent *)list.data + i;
        int kept = 0;
        for (f = 0; f < sizeof gpucompile__bin_fields / sizeof gpucompile__bin_fields[0] && !kept; f++) {
            const char *name = gpucompile__bin_field_name(f, o);
            int v = gpucompile__bin_int_value(e->v, e->vn);
            if (name && v >= 0 && e->kn == strlen(name) && strncmp(e->k, name, e->kn) == 0) {
                *(int *)(void *)((char *)k + gpucompile__bin_fields[f]) = v;
                kept = 1;
            }
        }
        if (!kept) gpucompile_buf_add(&rest, e, sizeof *e);
    }
    return gpucompile__bin_keep_rest(p, at, ok, &list, &rest, &k->metadata);
}

/* A value's text (up to ',' or a closing bracket) into a new string at *out. */
GPUCOMPILE__PRIVATE int gpucompile__bin_pvalue_text(gpucompile__bin_p *p, char **out) {
    size_t at, n;
    gpucompile_lex_ws(p);
    at = p->pos;
    if (!gpucompile__lex_skip_value(p, "]})>", "the attribute value")) return 0;
    for (n = p->pos - at; n && (p->s[at + n - 1] == ' ' || p->s[at + n - 1] == '\n'); n--) {}
    if (!n) return gpucompile_lex_error(p, at, "expected a value");
    gpucompile_free(p->a, *out);
    if (!(*out = gpucompile__strndup(p->a, p->s + at, n))) return gpucompile_lex_error(p, at, "out of memory");
    return 1;
}

/* kernels = <[#gpu.kernel_metadata<"name", TYPE[, arg_attrs = [...]][, metadata = {...}]>, ...]>,
   MLIR's forms all: the short one it prints, the long #gpu.kernel_table<[...]> its tests write,
   an element without its #gpu.kernel_metadata (`<"k", (i32) -> ()>`) and the empty table <> or
   #gpu.kernel_table<> (MLIR refuses <[]>, and so do we). */
GPUCOMPILE__PRIVATE int gpucompile__bin_ptable(gpucompile__bin_p *p, gpucompile_object *o) {
    size_t at0;
    gpucompile_lex_ws(p);
    at0 = p->pos;
    if (gpucompile_lex_eat(p, '#') && !gpucompile__bin_keyword_is(p, "gpu.kernel_table"))
        return gpucompile_lex_error(p, at0, "expected the kernel table: <[...]> or #gpu.kernel_table<[...]>");
    if (!gpucompile_lex_expect(p, '<', "to open the kernel table")) return 0;
    o->kernel_table = 1;
    if (gpucompile_lex_eat(p, '>')) return 1; /* empty */
    if (!gpucompile_lex_expect(p, '[', "to open the kernel table's list")) return 0;
    for (;;) {
        gpucompile_buf name;
        gpucompile_kernel *k;
        size_t at;
        int ok;
        gpucompile_lex_ws(p);
        at = p->pos;
        if (gpucompile_lex_eat(p, '#') && !gpucompile__bin_keyword_is(p, "gpu.kernel_metadata"))
            return gpucompile_lex_error(p, at, "expected '#gpu.kernel_metadata<...>'");
        if (!gpucompile_lex_eat(p, '<')) return gpucompile_lex_error(p, p->pos, "expected '#gpu.kernel_metadata<...>' or '<'");
        memset(&name, 0, sizeof name);
        name.a = p->a;
        ok = gpucompile__bin_pstring(p, &name) &&
             (gpucompile_object_add_kernel_n(o, name.data, name.len) == GPUCOMPILE_OK || gpucompile_lex_error(p, at, "out of memory"));
        gpucompile_free(p->a, name.data);
        if (!ok) return 0;
        k = &o->kernels[o->num_kernels - 1];
        if (!gpucompile_lex_expect(p, ',', "after the kernel's name") || !gpucompile__bin_pvalue_text(p, &k->type)) return 0;
        k->num_params = gpucompile__bin_count_params(k->type);
        while (gpucompile_lex_eat(p, ',')) {
            size_t n = gpucompile__bin_word(p), w = p->pos;
            p->pos += n;
            if (!gpucompile_lex_expect(p, '=', "after the kernel parameter's name")) return 0;
            if (n == 8 && strncmp(p->s + w, "metadata", 8) == 0) ok = gpucompile__bin_pmetadata(p, o, k);
            else if (n == 9 && strncmp(p->s + w, "arg_attrs", 9) == 0) ok = gpucompile__bin_pvalue_text(p, &k->arg_attrs);
            else ok = gpucompile_lex_error(p, w, "unknown #gpu.kernel_metadata parameter; expected arg_attrs or metadata");
            if (!ok) return 0;
        }
        if (!gpucompile_lex_expect(p, '>', "to close #gpu.kernel_metadata")) return 0;
        if (gpucompile_lex_eat(p, ']')) break;
        if (!gpucompile_lex_expect(p, ',', "or ']' between kernels")) return 0;
    }
    return gpucompile_lex_expect(p, '>', "to close the kernel table");
}

/* properties = {...}: kept as text, except LLVM 19's kernels = ["a", ...] (kernel names). */
GPUCOMPILE__PRIVATE int gpucompile__bin_pprops(gpucompile__bin_p *p, gpucompile_object *o) {
    gpucompile_buf list, rest;
    size_t i, at = p->pos;
    int ok = gpucompile__bin_open_dict(p, "to open the properties", &list, &rest);
    for (i = 0; ok && i < list.len / sizeof(gpucompile__bin_ent); i++) {
        const gpucompile__bin_ent *e = (const gpucompile__bin_ent *)list.data + i;
        if (e->kn == 7 && strncmp(e->k, "kernels", 7) == 0 && e->vn && e->v[0] == '[') {
            gpucompile__bin_p q = *p; /* the names, inside the value's extent */
            q.pos = (size_t)(e->v - p->s) + 1;
            q.n = (size_t)(e->v - p->s) + e->vn - 1;
            while (ok && gpucompile_lex_ws(&q) >= 0) {
                gpucompile_buf name;
                memset(&name, 0, sizeof name);
                name.a = p->a;
                ok = gpucompile__bin_pstring(&q, &name) &&
                     (gpucompile_object_add_kernel_n(o, name.data, name.len) == GPUCOMPILE_OK || gpucompile_lex_error(&q, q.pos, "out of memory"));
                gpucompile_free(p->a, name.data);
                if (ok && gpucompile_lex_ws(&q) >= 0) ok = gpucompile_lex_expect(&q, ',', "between kernel names");
            }
            if (!ok) p->result = GPUCOMPILE_ERROR_PARSE; /* q reported it */
        } else gpucompile_buf_add(&rest, e, sizeof *e);
    }
    return gpucompile__bin_keep_rest(p, at, ok, &list, &rest, &o->properties);
}

/* #gpu.object<TARGET, [properties = {...},] [kernels = <[...]>,] [KEYWORD =] "bytes"> */
GPUCOMPILE__PRIVATE int gpucompile__bin_pobject(gpucompile__bin_p *p, gpucompile_binary *b) {
    size_t ts, tl, at = p->pos, props = 0, table = 0, n;
    gpucompile_format f = GPUCOMPILE_FORMAT_DEFAULT;
    gpucompile_buf bytes;
    gpucompile_object *o = NULL;
    gpucompile_result r;
    char *target;
    if (!gpucompile_lex_eat(p, '#') || !gpucompile__bin_keyword_is(p, "gpu.object") || p->pos >= p->n || p->s[p->pos] != '<')
        return gpucompile_lex_error(p, at, "expected '#gpu.object<...>'");
    p->pos++;
    if (!gpucompile__bin_attr(p, &ts, &tl)) return 0;
    if (!gpucompile_lex_expect(p, ',', "after the object's target")) return 0;
    while ((n = gpucompile__bin_word(p)) != 0) {
        size_t w = p->pos;
        char kw[32];
        p->pos += n;
        if (!gpucompile_lex_expect(p, '=', n == 10 || n == 7 ? "after the object parameter's name" : "after the object format")) return 0;
        if ((n == 10 && strncmp(p->s + w, "properties", 10) == 0) || (n == 7 && strncmp(p->s + w, "kernels", 7) == 0)) {
            *(n == 10 ? &props : &table) = p->pos;
            if (!gpucompile__lex_skip_value(p, "]})>", "the attribute value") || !gpucompile_lex_expect(p, ',', "after the object parameter")) return 0;
            continue;
        }
        snprintf(kw, sizeof kw, "%.*s", (int)(n < 31 ? n : 31), p->s + w);
        f = gpucompile_format_from_string(kw);
        if (!f) return gpucompile_lex_error(p, w, "unknown object format '%s'; expected offload, assembly, bin or fatbin", kw);
        break;
    }
    memset(&bytes, 0, sizeof bytes);
    bytes.a = p->a;
    if (!gpucompile__bin_pstring(p, &bytes) || !gpucompile_lex_expect(p, '>', "to close #gpu.object")) {
        gpucompile_free(p->a, bytes.data);
        return 0;
    }
    target = gpucompile__strndup(p->a, p->s + ts, tl);
    if (!target) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    else {
        if (!f) f = gpucompile__bin_default_format(target);
        r = gpucompile__bin_object_new(target, tl, f, bytes.data, bytes.len, p->a, p->logger, &o);
    }
    gpucompile_free(p->a, target);
    gpucompile_free(p->a, bytes.data);
    if (r != GPUCOMPILE_OK) return gpucompile_lex_error(p, ts, "invalid object target: %s", gpucompile_result_string(r));
    {
        size_t end = p->pos;
        int ok = 1;
        if (props) { p->pos = props; ok = gpucompile__bin_pprops(p, o); }
        if (ok && table) { p->pos = table; ok = gpucompile__bin_ptable(p, o); }
        p->pos = end;
        if (ok && !o->num_kernels && !o->kernel_table) {
            o->kernel_table = -1; /* none given: found in the bytes, not printed (mlir-opt prints none) */
            if (gpucompile_object_find_kernels(o) == GPUCOMPILE_ERROR_OUT_OF_MEMORY) ok = gpucompile_lex_error(p, at, "out of memory");
        }
        if (!ok) { gpucompile_object_free(o); return 0; }
    }
    if (gpucompile_binary_add(b, o) != GPUCOMPILE_OK) {
        gpucompile_object_free(o);
        return gpucompile_lex_error(p, at, "out of memory");
    }
    return 1;
}

/* A symbol name after '@' (bare or quoted) into a new string. */
GPUCOMPILE__PRIVATE char *gpucompile__bin_psymbol(gpucompile__bin_p *p) {
    size_t at, n;
    char *s;
    gpucompile_lex_ws(p);
    at = p->pos;
    if (!gpucompile_lex_eat(p, '@')) { gpucompile_lex_error(p, at, "expected '@' and a symbol name"); return NULL; }
    if (p->pos < p->n && p->s[p->pos] == '"') {
        gpucompile_buf name;
        memset(&name, 0, sizeof name);
        name.a = p->a;
        if (!gpucompile__bin_pstring(p, &name)) { gpucompile_free(p->a, name.data); return NULL; }
        return name.data ? name.data : gpucompile__strdup(p->a, "");
    }
    n = (p->pos < p->n && gpucompile__is_id_start((unsigned char)p->s[p->pos])) ? gpucompile__bin_word(p) : 0;
    if (!n) { gpucompile_lex_error(p, at, "expected a symbol name after '@'"); return NULL; }
    if (!(s = gpucompile__strndup(p->a, p->s + p->pos, n))) gpucompile_lex_error(p, at, "out of memory");
    p->pos += n;
    return s;
}

/* What follows `gpu.binary`: @name [<handler>] [attributes {...}] [objects]. */
GPUCOMPILE__PRIVATE int gpucompile__bin_pbinary(gpucompile__bin_p *p, gpucompile_binary *b) {
    char *name = gpucompile__bin_psymbol(p);
    if (!name) return 0;
    gpucompile_free(&b->allocator, b->name);
    b->name = name;
    if (gpucompile_lex_eat(p, '<')) {
        if (!gpucompile__bin_phandler(p, b) || !gpucompile_lex_expect(p, '>', "after the offloading handler")) return 0;
    }
    if (gpucompile__bin_keyword_is(p, "attributes")) { /* discardable attributes of the op: not kept */
        gpucompile_buf list;
        int ok;
        memset(&list, 0, sizeof list);
        list.a = p->a;
        ok = gpucompile_lex_expect(p, '{', "after 'attributes'") && gpucompile__bin_pentries(p, &list, '}');
        gpucompile_free(p->a, list.data);
        if (!ok) return 0;
    }
    if (!gpucompile_lex_expect(p, '[', "to open the object list")) return 0;
    if (gpucompile_lex_eat(p, ']')) return 1;
    for (;;) {
        if (!gpucompile__bin_pobject(p, b)) return 0;
        if (gpucompile_lex_eat(p, ']')) return 1;
        if (!gpucompile_lex_expect(p, ',', "or ']' between objects")) return 0;
    }
}

/* Skips an operation we do not read (func.func, llvm.func, gpu.module, an alias, ...): to the end
   of its line outside brackets, strings and comments; stops before a '}' closing the region. */
GPUCOMPILE__PRIVATE int gpucompile__bin_skip_op(gpucompile__bin_p *p) {
    size_t at = p->pos;
    int depth = 0;
    while (p->pos < p->n) {
        char c = p->s[p->pos];
        if (c == '"') {
            if (!gpucompile__bin_pstring(p, NULL)) return 0;
            continue;
        }
        if (gpucompile__lex_comment(p)) continue;
        if (c == '\n' && depth == 0) return 1;
        if (c == '(' || c == '[' || c == '{') depth++;
        else if (c == ')' || c == ']' || c == '}') {
            if (depth == 0) {
                if (p->pos == at) return gpucompile_lex_error(p, at, "unexpected '%c'", c);
                return 1;
            }
            depth--;
        }
        p->pos++;
    }
    return depth ? gpucompile_lex_error(p, at, "unbalanced brackets in this operation") : 1;
}

/* The operations of a region (close '}') or of the whole text (close 0): every gpu.binary read
   into list (a buffer of gpucompile_binary pointers), modules entered, the rest skipped. */
GPUCOMPILE__PRIVATE int gpucompile__bin_pregion(gpucompile__bin_p *p, gpucompile_buf *list, int close, int depth) {
    for (;;) {
        int c = gpucompile_lex_ws(p);
        if (c < 0) return close ? gpucompile_lex_error(p, p->pos, "expected '}' to close the module") : 1;
        if (c == '}' && close) { p->pos++; return 1; }
        if (gpucompile__bin_keyword_is(p, "gpu.binary")) {
            gpucompile_binary *b = NULL;
            if (gpucompile_binary_create(NULL, p->a, &b) != GPUCOMPILE_OK) return gpucompile_lex_error(p, p->pos, "out of memory");
            gpucompile_buf_add(list, &b, sizeof b);
            if (list->oom) { gpucompile_binary_free(b); return gpucompile_lex_error(p, p->pos, "out of memory"); }
            if (!gpucompile__bin_pbinary(p, b)) return 0;
        } else if (gpucompile__bin_keyword_is(p, "module") || gpucompile__bin_keyword_is(p, "builtin.module")) {
            gpucompile_buf attrs;
            int ok = depth < 32 || gpucompile_lex_error(p, p->pos, "modules nested too deeply");
            memset(&attrs, 0, sizeof attrs);
            attrs.a = p->a;
            if (ok && gpucompile_lex_ws(p) == '@') gpucompile_free(p->a, gpucompile__bin_psymbol(p));
            if (ok && gpucompile__bin_keyword_is(p, "attributes"))
                ok = gpucompile_lex_expect(p, '{', "after 'attributes'") && gpucompile__bin_pentries(p, &attrs, '}');
            gpucompile_free(p->a, attrs.data);
            if (p->result || !ok || !gpucompile_lex_expect(p, '{', "to open the module") || !gpucompile__bin_pregion(p, list, '}', depth + 1))
                return 0;
        } else if (!gpucompile__bin_skip_op(p)) return 0;
    }
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_parse_all(const char *text, size_t len, const gpucompile_allocator *allocator,
    const gpucompile_logger *logger, gpucompile_binary ***out, int *num) {
    gpucompile__bin_p p;
    gpucompile_buf list;
    gpucompile_binary **b;
    gpucompile_result r = GPUCOMPILE_OK;
    int i, n;
    if (!out || !num) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    *num = 0;
    if (!text) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile__bin_reader(&p, text, len == (size_t)-1 ? strlen(text) : len, allocator, logger);
    memset(&list, 0, sizeof list);
    list.a = allocator;
    if (memchr(text, 0, p.n)) { /* MLIR text has none; one inside must not end it silently */
        gpucompile_lex_error(&p, (size_t)((const char *)memchr(text, 0, p.n) - text), "a NUL byte in the text");
        return GPUCOMPILE_ERROR_PARSE;
    }
    if (!gpucompile__bin_pregion(&p, &list, 0, 0)) r = GPUCOMPILE_ERROR_PARSE;
    b = (gpucompile_binary **)(void *)list.data;
    n = (int)(list.len / sizeof *b);
    if (r == GPUCOMPILE_OK && !n) {
        gpucompile_lex_error(&p, 0, "no gpu.binary in the text");
        r = GPUCOMPILE_ERROR_PARSE;
    }
    for (i = 0; r == GPUCOMPILE_OK && i < n; i++) r = gpucompile_binary_verify(b[i], logger);
    if (r != GPUCOMPILE_OK) {
        for (i = 0; i < n; i++) gpucompile_binary_free(b[i]);
        gpucompile_free(allocator, list.data);
        return r;
    }
    *out = b;
    *num = n;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_parse(const char *text, size_t len, const gpucompile_allocator *allocator,
    const gpucompile_logger *logger, gpucompile_binary **out) {
    gpucompile_binary **all = NULL;
    gpucompile_result r;
    int n = 0, i;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if ((r = gpucompile_binary_parse_all(text, len, allocator, logger, &all, &n)) != GPUCOMPILE_OK) return r;
    for (i = 1; i < n && r == GPUCOMPILE_OK; i++) { /* several: one binary, in text order */
        r = gpucompile_binary_merge(all[0], all[i]);
        if (r == GPUCOMPILE_OK) all[i] = NULL;
    }
    for (i = 1; i < n; i++) gpucompile_binary_free(all[i]);
    if (r == GPUCOMPILE_OK) *out = all[0];
    else gpucompile_binary_free(all[0]);
    gpucompile_free(allocator, all);
    return r;
}

/* ---- LLVM offload binary (llvm/Object/OffloadBinary.h, version 1) ------------------------- */
/* The layout, the image kinds and the entry reader: gpucompile_runtime.h, [section: shared]. */

GPUCOMPILE__PRIVATE void gpucompile__bin_put(gpucompile_buf *b, uint64_t v, int bytes) {
    unsigned char le[8];
    int i;
    for (i = 0; i < bytes; i++) le[i] = (unsigned char)(v >> (8 * i));
    gpucompile_buf_add(b, le, (size_t)bytes);
}

GPUCOMPILE__PRIVATE int gpucompile__bin_image_kind(const gpucompile_object *o) {
    const gpucompile_backend *b = gpucompile__backend_of(NULL, o);
    switch (o->format) {
    case GPUCOMPILE_FORMAT_LLVM: return GPUCOMPILE_IMG_BITCODE;
    case GPUCOMPILE_FORMAT_ISA: return b ? (int)b->image_kind_isa : (int)GPUCOMPILE_IMG_NONE;
    case GPUCOMPILE_FORMAT_FATBIN: return b ? (int)b->image_kind_fatbin : (int)GPUCOMPILE_IMG_NONE;
    default: return b && b->image_kind_bin ? (int)b->image_kind_bin : (int)GPUCOMPILE_IMG_OBJECT;
    }
}

GPUCOMPILE__PRIVATE void gpucompile__bin_write_entry(gpucompile_buf *out, const gpucompile_binary *bin, const gpucompile_object *o) {
    const char *keys[10], *vals[10];
    char *up;
    gpucompile_buf handler, kernels, table;
    size_t nstr = 0, i, strtab, image_off, total, off, base = out->len;
    int k;
    memset(&handler, 0, sizeof handler);
    memset(&kernels, 0, sizeof kernels);
    memset(&table, 0, sizeof table);
    handler.a = kernels.a = table.a = &bin->allocator;
    keys[nstr] = "triple"; vals[nstr++] = o->triple ? o->triple : "";
    keys[nstr] = "arch"; vals[nstr++] = o->chip ? o->chip : "";
    up = gpucompile__bin_upstream_target(o->target, &bin->allocator); /* as in the text form */
    keys[nstr] = "gpucompile.target"; vals[nstr++] = up ? up : o->target;
    keys[nstr] = "gpucompile.format"; vals[nstr++] = gpucompile_format_string(o->format);
    keys[nstr] = "gpucompile.binary"; vals[nstr++] = bin->name ? bin->name : "";
    if (bin->handler.kind != GPUCOMPILE_HANDLER_DEFAULT) {
        gpucompile__bin_print_handler(&handler, &bin->handler);
        keys[nstr] = "gpucompile.handler"; vals[nstr++] = handler.data ? handler.data : "";
    }
    for (k = 0; k < o->num_kernels; k++) {
        if (k) gpucompile_buf_add(&kernels, "\n", 1);
        gpucompile_buf_str(&kernels, o->kernels[k].name);
    }
    if (o->num_kernels) { keys[nstr] = "gpucompile.kernels"; vals[nstr++] = kernels.data ? kernels.data : ""; }
    if (o->num_kernels || o->kernel_table > 0) {
        gpucompile__bin_print_table(&table, o);
        keys[nstr] = "gpucompile.kernel_table"; vals[nstr++] = table.data ? table.data : "";
    }
    if (o->properties) { keys[nstr] = "gpucompile.properties"; vals[nstr++] = o->properties; }
    strtab = 1; /* an empty string first, as LLVM's string table builder writes */
    for (i = 0; i < nstr; i++) strtab += strlen(keys[i]) + 1 + strlen(vals[i]) + 1;
    off = GPUCOMPILE__OB_HEADER + GPUCOMPILE__OB_ENTRY + 16 * nstr;
    image_off = (off + strtab + 7) & ~(size_t)7;
    total = (image_off + o->size + 7) & ~(size_t)7;
    gpucompile_buf_add(out, GPUCOMPILE__OB_MAGIC, 4);
    gpucompile__bin_put(out, 1, 4);
    gpucompile__bin_put(out, total, 8);
    gpucompile__bin_put(out, GPUCOMPILE__OB_HEADER, 8);
    gpucompile__bin_put(out, GPUCOMPILE__OB_ENTRY, 8);
    gpucompile__bin_put(out, (uint64_t)gpucompile__bin_image_kind(o), 2);
    gpucompile__bin_put(out, gpucompile__backend_of(NULL, o) ? gpucompile__backend_of(NULL, o)->offload_kind : 0, 2);
    gpucompile__bin_put(out, 0, 4);
    gpucompile__bin_put(out, GPUCOMPILE__OB_HEADER + GPUCOMPILE__OB_ENTRY, 8);
    gpucompile__bin_put(out, nstr, 8);
    gpucompile__bin_put(out, image_off, 8);
    gpucompile__bin_put(out, o->size, 8);
    {
        size_t at = off + 1;
        for (i = 0; i < nstr; i++) {
            gpucompile__bin_put(out, at, 8);
            at += strlen(keys[i]) + 1;
            gpucompile__bin_put(out, at, 8);
            at += strlen(vals[i]) + 1;
        }
    }
    gpucompile_buf_add(out, "", 1);
    for (i = 0; i < nstr; i++) {
        gpucompile_buf_add(out, keys[i], strlen(keys[i]) + 1);
        gpucompile_buf_add(out, vals[i], strlen(vals[i]) + 1);
    }
    while (out->len - base < image_off) gpucompile_buf_add(out, "", 1);
    gpucompile_buf_add(out, o->data, o->size);
    while (out->len - base < total) gpucompile_buf_add(out, "", 1);
    if (handler.oom || kernels.oom || table.oom) out->oom = 1;
    gpucompile_free(handler.a, handler.data);
    gpucompile_free(kernels.a, kernels.data);
    gpucompile_free(table.a, table.data);
    gpucompile_free(&bin->allocator, up);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_write_offload(const gpucompile_binary *binary, unsigned char **data, size_t *size) {
    gpucompile_buf out;
    int i;
    if (!data || !size) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *data = NULL;
    *size = 0;
    if (!binary || binary->num_objects < 1) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    memset(&out, 0, sizeof out);
    out.a = &binary->allocator;
    for (i = 0; i < binary->num_objects; i++) {
        if (!binary->objects[i] || !binary->objects[i]->target) { gpucompile_free(out.a, out.data); return GPUCOMPILE_ERROR_INVALID_ARGUMENT; }
        gpucompile__bin_write_entry(&out, binary, binary->objects[i]);
    }
    if (out.oom) { gpucompile_free(out.a, out.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    *data = (unsigned char *)out.data;
    *size = out.len;
    return GPUCOMPILE_OK;
}

/* One entry at p (n bytes left): its size in *used, its object appended to b. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__bin_read_entry(const unsigned char *p, size_t n, int index, gpucompile_binary *b,
    const gpucompile_logger *logger, size_t *used) {
    const gpucompile_result bad = GPUCOMPILE_ERROR_INVALID_BINARY;
    const char *triple, *arch, *target, *format, *name, *handler, *kernels, *table, *props, *why;
    gpucompile_format f = GPUCOMPILE_FORMAT_DEFAULT;
    gpucompile_object *o = NULL;
    gpucompile__ob e;
    gpucompile_result r;
    char text[1024];
#define GPUCOMPILE__BAD(...) return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, bad, GPUCOMPILE_STAGE_NONE, __VA_ARGS__)
    if ((why = gpucompile__ob_read(p, n, &e, text, sizeof text)) != NULL) GPUCOMPILE__BAD("offload binary entry %d: %s", index, why);
    triple = gpucompile__ob_string(&e, "triple");
    arch = gpucompile__ob_string(&e, "arch");
    target = gpucompile__ob_string(&e, "gpucompile.target");
    format = gpucompile__ob_string(&e, "gpucompile.format");
    name = gpucompile__ob_string(&e, "gpucompile.binary");
    handler = gpucompile__ob_string(&e, "gpucompile.handler");
    kernels = gpucompile__ob_string(&e, "gpucompile.kernels");
    table = gpucompile__ob_string(&e, "gpucompile.kernel_table");
    props = gpucompile__ob_string(&e, "gpucompile.properties");
    if (!target) { /* written by someone else: the target from triple and arch */
        gpucompile_target t;
        const gpucompile_backend *b = NULL;
        int i;
        if (!triple || !arch || !*arch) GPUCOMPILE__BAD("offload binary entry %d: no triple or arch", index);
        for (i = 0; !b && *triple && (b = gpucompile_backend_at(i)) != NULL; i++)
            if (!gpucompile_triple_in(b->triples, triple)) b = NULL;
        if (!b) GPUCOMPILE__BAD("offload binary entry %d: unsupported triple '%s'", index, triple);
        t = gpucompile_target_defaults(b->kind);
        t.backend = b;
        t.upstream = b->attribute[1] != NULL; /* no spelling came with it: MLIR's */
        t.chip = arch;
        if (strcmp(triple, gpucompile_target_triple(&t)) != 0) t.triple = triple;
        if (gpucompile_target_print(&t, text, sizeof text) >= sizeof text) GPUCOMPILE__BAD("offload binary entry %d: arch too long", index);
        target = text;
    }
    if (format) f = gpucompile_format_from_string(format);
    if (!f) {
        const gpucompile_backend *eb = gpucompile__backend_of_text(target);
        f = gpucompile_format_from_string(gpucompile__ob_image_format(&e, eb ? eb->image_format : NULL));
    }
    if ((r = gpucompile__bin_object_new(target, (size_t)-1, f, p + e.image, (size_t)e.image_size, &b->allocator, logger, &o)) != GPUCOMPILE_OK) {
        if (r == GPUCOMPILE_ERROR_OUT_OF_MEMORY) return r;
        GPUCOMPILE__BAD("offload binary entry %d: invalid target %s", index, target);
    }
    if (table && *table) { /* the kernel table, else the names alone */
        gpucompile__bin_p tp;
        gpucompile__bin_reader(&tp, table, strlen(table), &b->allocator, logger);
        if (!gpucompile__bin_ptable(&tp, o) || gpucompile_lex_ws(&tp) >= 0) {
            gpucompile_object_free(o);
            GPUCOMPILE__BAD("offload binary entry %d: invalid kernel table", index);
        }
        kernels = NULL;
    }
    while (kernels && *kernels && r == GPUCOMPILE_OK) {
        const char *nl = strchr(kernels, '\n');
        size_t len = nl ? (size_t)(nl - kernels) : strlen(kernels);
        r = gpucompile_object_add_kernel_n(o, kernels, len);
        kernels = nl ? nl + 1 : NULL;
    }
    if (r == GPUCOMPILE_OK && props && *props && !(o->properties = gpucompile__strdup(&b->allocator, props))) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (r == GPUCOMPILE_OK && !o->num_kernels && !o->kernel_table) {
        o->kernel_table = -1; /* none given: found in the bytes, not printed */
        r = gpucompile_object_find_kernels(o);
    }
    if (r == GPUCOMPILE_OK) r = gpucompile_binary_add(b, o);
    if (r != GPUCOMPILE_OK) { gpucompile_object_free(o); return r; }
    if (index == 0 && name && *name) {
        char *d = gpucompile__strdup(&b->allocator, name);
        if (!d) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        gpucompile_free(&b->allocator, b->name);
        b->name = d;
    }
    if (index == 0 && handler && *handler) {
        gpucompile__bin_p hp;
        gpucompile__bin_reader(&hp, handler, strlen(handler), &b->allocator, logger);
        if (!gpucompile__bin_phandler(&hp, b) || gpucompile_lex_ws(&hp) >= 0)
            GPUCOMPILE__BAD("offload binary entry %d: invalid handler '%s'", index, handler);
    }
    *used = (size_t)e.size;
    return GPUCOMPILE_OK;
#undef GPUCOMPILE__BAD
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_read_offload(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary **out) {
    const unsigned char *p = (const unsigned char *)data;
    gpucompile_binary *b = NULL;
    gpucompile_result r;
    size_t at = 0;
    int index = 0;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!data && size) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if ((r = gpucompile_binary_create(name, allocator, &b)) != GPUCOMPILE_OK) return r;
    if (size == 0) r = gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_BINARY, GPUCOMPILE_STAGE_NONE,
                                        "empty offload binary");
    while (r == GPUCOMPILE_OK && at < size) {
        size_t used = 0;
        r = gpucompile__bin_read_entry(p + at, size - at, index++, b, logger, &used);
        at += used;
    }
    if (r == GPUCOMPILE_OK) r = gpucompile_binary_verify(b, logger);
    if (r != GPUCOMPILE_OK) gpucompile_binary_free(b);
    else *out = b;
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_read(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary **out) {
    if (data && size >= 4 && memcmp(data, GPUCOMPILE__OB_MAGIC, 4) == 0)
        return gpucompile_binary_read_offload(data, size, name, allocator, logger, out);
    if (out) *out = NULL;
    if (!data) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (memchr(data, 0, size))
        return gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_BINARY, GPUCOMPILE_STAGE_NONE,
                                   "neither an offload binary (magic 0x10FF10AD) nor gpu.binary text");
    return gpucompile_binary_parse((const char *)data, size, allocator, logger, out);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_read_all(const void *data, size_t size, const char *name,
    const gpucompile_allocator *allocator, const gpucompile_logger *logger, gpucompile_binary ***out, int *num) {
    gpucompile_binary *one = NULL;
    gpucompile_result r;
    if (!out || !num) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    *num = 0;
    if (!data || !memchr(data, 0, size)) /* text has no NUL byte, an offload binary's header has */
        return gpucompile_binary_parse_all((const char *)data, size, allocator, logger, out, num);
    if ((r = gpucompile_binary_read(data, size, name, allocator, logger, &one)) != GPUCOMPILE_OK) return r;
    if (!(*out = (gpucompile_binary **)gpucompile_alloc(allocator, sizeof **out))) {
        gpucompile_binary_free(one);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    (*out)[0] = one;
    *num = 1;
    return GPUCOMPILE_OK;
}

/* ---- runtime selection ------------------------------------------------------------------- */
/* How well object o serves the device: its backend's score; < 0 not at all, higher is better. */
GPUCOMPILE__PRIVATE int gpucompile__bin_score(const gpucompile_object *o, const char *device, const char **why) {
    const gpucompile_backend *b = o ? gpucompile__backend_of(NULL, o) : NULL;
    int score = b && b->select_score ? b->select_score(o, device, why) : -1;
    return score < 0 ? -1 : score;
}

/* Does a registered backend know the device's name? Else the error lists what they take. */
GPUCOMPILE__PRIVATE int gpucompile__bin_known_device(const char *device, const gpucompile_logger *logger) {
    const gpucompile_backend *b;
    char help[512] = "";
    size_t len = 0;
    int i, n = 0;
    for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++)
        if (b->select_score && b->select_score(NULL, device, NULL) >= -1) return 1;
    for (i = 0; (b = gpucompile_backend_at(i)) != NULL; i++)
        if (b->select_score && b->device_help && len < sizeof help)
            len += (size_t)snprintf(help + len, sizeof help - len, "%s%s", n++ ? ", or " : "", b->device_help);
    gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_NONE,
                     "unknown device '%s'; expected %s", device, help);
    return 0;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_binary_select(const gpucompile_binary *binary, const gpucompile_device *device,
    const gpucompile_logger *logger, int *index) {
    char arch[64];
    const char *why = NULL;
    int i, best = -1, best_score = -1;
    if (index) *index = -1;
    if (!binary || !device || !index) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (device->arch) snprintf(arch, sizeof arch, "%s", device->arch);
    else gpucompile__device_from_number(device->compute_capability, arch, sizeof arch);
    if (!gpucompile__bin_known_device(arch, logger)) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    for (i = 0; i < binary->num_objects; i++) {
        const char *w = NULL;
        int s = gpucompile__bin_score(binary->objects[i], arch, &w);
        if (s > best_score) { best_score = s; best = i; why = w; }
    }
    if (best < 0) {
        gpucompile_buf b;
        memset(&b, 0, sizeof b);
        b.a = &binary->allocator;
        for (i = 0; i < binary->num_objects; i++) {
            const gpucompile_object *o = binary->objects[i];
            if (o) gpucompile_buf_printf(&b, "%s[%d] %s %s (%s)", i ? ", " : "", i, o->target, gpucompile_format_string(o->format),
                                          o->chip ? o->chip : "?");
        }
        gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_NO_OBJECT, GPUCOMPILE_STAGE_NONE,
                         "no object for device %s in binary @%s; "
                         "it holds: %s", arch, binary->name ? binary->name : "", b.data ? b.data : "nothing");
        gpucompile_free(b.a, b.data);
        return GPUCOMPILE_ERROR_NO_OBJECT;
    }
    gpucompile__logf(logger, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, GPUCOMPILE_STAGE_NONE, "device %s: object %d (%s), %s", arch, best,
                        binary->objects[best]->target, why);
    *index = best;
    return GPUCOMPILE_OK;
}

/* ==== [section: end of binaries] ========================================================= */

/* ==== [section: host embedding] ========================================================== */
/* The host module being written: its context, the types we use, the logger. */
typedef struct gpucompile__host {
    LLVMModuleRef m;
    LLVMContextRef c;
    LLVMTypeRef ptr, i32, iptr, vd;
    int iptr_bits;
    const gpucompile_logger *logger;
    gpucompile_buf *sym; /* the last symbol name made: names have no length limit */
} gpucompile__host;

GPUCOMPILE__PRIVATE void gpucompile__host_init(gpucompile__host *h, LLVMModuleRef m, const gpucompile_logger *logger, gpucompile_buf *sym) {
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    h->m = m;
    h->c = LLVMGetModuleContext(m);
    h->ptr = LLVMPointerTypeInContext(h->c, 0);
    h->i32 = LLVMInt32TypeInContext(h->c);
    h->iptr = LLVMIntPtrTypeInContext(h->c, td); /* intptr_t / size_t of the host */
    h->iptr_bits = (int)LLVMGetIntTypeWidth(h->iptr);
    h->vd = LLVMVoidTypeInContext(h->c);
    h->logger = logger;
    h->sym = sym;
    LLVMDisposeTargetData(td);
}

/* A runtime function, declared once; NULL (and an error) when the host declares it otherwise. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_decl(gpucompile__host *h, const char *name, LLVMTypeRef ret,
                                                       LLVMTypeRef *params, unsigned n) {
    LLVMTypeRef type = LLVMFunctionType(ret, params, n, 0);
    LLVMValueRef f = LLVMGetNamedFunction(h->m, name);
    if (!f) return LLVMAddFunction(h->m, name, type);
    if (LLVMGlobalGetValueType(f) != type) {
        gpucompile__logf(h->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                         "the host module declares '%s' with another type", name);
        return NULL;
    }
    return f;
}

GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_call(LLVMBuilderRef b, LLVMValueRef fn, LLVMValueRef *args, unsigned n) {
    return LLVMBuildCall2(b, LLVMGlobalGetValueType(fn), fn, args, n, "");
}

GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_load(LLVMBuilderRef b, LLVMTypeRef t, LLVMValueRef p, LLVMAtomicOrdering o, unsigned align) {
    LLVMValueRef v = LLVMBuildLoad2(b, t, p, "");
    LLVMSetAlignment(v, align);
    if (o != LLVMAtomicOrderingNotAtomic) LLVMSetOrdering(v, o);
    return v;
}

GPUCOMPILE__PRIVATE void gpucompile__host_store(LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef p, LLVMAtomicOrdering o, unsigned align) {
    LLVMValueRef s = LLVMBuildStore(b, v, p);
    LLVMSetAlignment(s, align);
    if (o != LLVMAtomicOrderingNotAtomic) LLVMSetOrdering(s, o);
}

GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_global(gpucompile__host *h, const char *name, LLVMTypeRef t, LLVMValueRef init,
                                                         LLVMLinkage linkage, unsigned align) {
    LLVMValueRef g = LLVMAddGlobal(h->m, t, name);
    LLVMSetInitializer(g, init);
    LLVMSetLinkage(g, linkage);
    LLVMSetAlignment(g, align);
    return g;
}

GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_function(gpucompile__host *h, const char *name, LLVMTypeRef ret,
                                                           LLVMTypeRef *params, unsigned n, LLVMLinkage linkage) {
    LLVMValueRef f = LLVMAddFunction(h->m, name, LLVMFunctionType(ret, params, n, 0));
    LLVMSetLinkage(f, linkage);
    return f;
}

/* f's n blocks, appended in order with their names (the first is the entry), and a builder at
   the end of the entry. */
GPUCOMPILE__PRIVATE LLVMBuilderRef gpucompile__host_blocks(gpucompile__host *h, LLVMValueRef f, LLVMBasicBlockRef *const *blocks,
                                                           const char *const *names, int n) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(h->c);
    int i;
    for (i = 0; i < n; i++) *blocks[i] = LLVMAppendBasicBlockInContext(h->c, f, names[i]);
    LLVMPositionBuilderAtEnd(b, *blocks[0]);
    return b;
}

/* a_b c or a c as a C identifier (in a and b every character outside [A-Za-z0-9_] becomes '_',
   and a leading digit gets a '_' before it), valid until the next call; NULL when out of memory. */
GPUCOMPILE__PRIVATE const char *gpucompile__host_name(gpucompile__host *h, const char *a, const char *b, const char *c) {
    size_t i, end;
    h->sym->len = 0;
    if (*a >= '0' && *a <= '9') gpucompile_buf_str(h->sym, "_");
    gpucompile_buf_str(h->sym, a);
    if (b) { gpucompile_buf_str(h->sym, "_"); gpucompile_buf_str(h->sym, b); }
    end = h->sym->len;
    gpucompile_buf_str(h->sym, c);
    if (h->sym->oom) return NULL;
    for (i = 0; i < end; i++) {
        char ch = h->sym->data[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) h->sym->data[i] = '_';
    }
    return h->sym->data;
}

/* Appends { 65535, fn, null } to llvm.global_dtors (rebuilt: an appending array cannot grow). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__host_add_dtor(gpucompile__host *h, LLVMValueRef fn) {
    LLVMValueRef old = LLVMGetNamedGlobal(h->m, "llvm.global_dtors");
    LLVMTypeRef fields[3];
    LLVMTypeRef st;
    LLVMValueRef *elems, vals[3], arr, g;
    unsigned n = 0, i;
    fields[0] = h->i32;
    fields[1] = h->ptr;
    fields[2] = h->ptr;
    st = LLVMStructTypeInContext(h->c, fields, 3, 0);
    if (old) {
        LLVMTypeRef at = LLVMGlobalGetValueType(old);
        if (LLVMGetTypeKind(at) != LLVMArrayTypeKind || LLVMGetElementType(at) != st || !LLVMGetInitializer(old))
            return gpucompile__logf(h->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                    "the host module's llvm.global_dtors has an unexpected form");
        n = LLVMGetArrayLength(at);
    }
    elems = (LLVMValueRef *)gpucompile_alloc(NULL, (n + 1) * sizeof(LLVMValueRef));
    if (!elems) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    for (i = 0; i < n; i++) elems[i] = LLVMGetAggregateElement(LLVMGetInitializer(old), i);
    vals[0] = LLVMConstInt(h->i32, 65535, 0);
    vals[1] = fn;
    vals[2] = LLVMConstPointerNull(h->ptr);
    elems[n] = LLVMConstStructInContext(h->c, vals, 3, 0);
    arr = LLVMConstArray(st, elems, n + 1);
    gpucompile_free(NULL, elems);
    if (old) LLVMSetValueName2(old, "", 0);
    g = LLVMAddGlobal(h->m, LLVMTypeOf(arr), "llvm.global_dtors");
    LLVMSetLinkage(g, LLVMAppendingLinkage);
    LLVMSetInitializer(g, arr);
    if (old) LLVMDeleteGlobal(old);
    return GPUCOMPILE_OK;
}

/* The optimization level for the driver's JIT: the object's O property, as MLIR passes it, else the
   O of its target (what it was compiled at). */
GPUCOMPILE__PRIVATE int gpucompile__object_opt_level(const gpucompile_object *o) {
    gpucompile_target *t = NULL;
    char v[64];
    int level = 2;
    if (gpucompile_object_property(o, "O", v, sizeof v) && (level = gpucompile__bin_int_value(v, strlen(v))) >= 0) return level;
    level = 2;
    if (o->target && gpucompile_target_parse(o->target, (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK && t) level = t->O;
    gpucompile_target_free(t);
    return level;
}

/* Do two target texts name the same target (canonical texts equal)? */
GPUCOMPILE__PRIVATE int gpucompile__same_target(const char *a, const char *b) {
    gpucompile_target *ta = NULL, *tb = NULL;
    char pa[2048], pb[2048];
    int same = 0;
    if (!a || !b) return 0;
    if (strcmp(a, b) == 0) return 1;
    if (gpucompile_target_parse(a, (size_t)-1, NULL, NULL, &ta) == GPUCOMPILE_OK &&
        gpucompile_target_parse(b, (size_t)-1, NULL, NULL, &tb) == GPUCOMPILE_OK && ta && tb) {
        gpucompile_target_print(ta, pa, sizeof pa);
        gpucompile_target_print(tb, pb, sizeof pb);
        same = strcmp(pa, pb) == 0;
    }
    gpucompile_target_free(ta);
    gpucompile_target_free(tb);
    return same;
}

/* <name>_load: returns the module, loading it the first time. State word: 0 not loaded,
   1 being loaded (others wait, yielding), 2 loaded. A failed load goes back to 0, so the next
   launch tries (and reports) again. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_loader(gpucompile__host *h, const char *name, LLVMValueRef load_fn,
                                                         LLVMValueRef *load_args, unsigned num_args,
                                                         LLVMValueRef state, LLVMValueRef module, LLVMValueRef yield) {
    const char *sym;
    LLVMValueRef f, s, m, pair, ok;
    LLVMBasicBlockRef entry, check, try_bb, load_bb, wait_bb, done_bb;
    LLVMBasicBlockRef *const blocks[] = {&entry, &check, &try_bb, &load_bb, &wait_bb, &done_bb};
    static const char *const names[] = {"entry", "check", "try", "load", "wait", "done"};
    LLVMBuilderRef b;
    if (!(sym = gpucompile__host_name(h, name, NULL, "_load"))) return NULL;
    f = gpucompile__host_function(h, sym, h->ptr, NULL, 0, LLVMInternalLinkage);
    b = gpucompile__host_blocks(h, f, blocks, names, 6);
    LLVMBuildBr(b, check);
    LLVMPositionBuilderAtEnd(b, check);
    s = gpucompile__host_load(b, h->i32, state, LLVMAtomicOrderingAcquire, 4);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, s, LLVMConstInt(h->i32, 2, 0), ""), done_bb, try_bb);
    LLVMPositionBuilderAtEnd(b, try_bb);
    pair = LLVMBuildAtomicCmpXchg(b, state, LLVMConstInt(h->i32, 0, 0), LLVMConstInt(h->i32, 1, 0),
                                  LLVMAtomicOrderingAcquireRelease, LLVMAtomicOrderingAcquire, 0);
    LLVMBuildCondBr(b, LLVMBuildExtractValue(b, pair, 1, ""), load_bb, wait_bb);
    LLVMPositionBuilderAtEnd(b, load_bb);
    m = gpucompile__host_call(b, load_fn, load_args, num_args);
    gpucompile__host_store(b, m, module, LLVMAtomicOrderingNotAtomic, 8);
    ok = LLVMBuildICmp(b, LLVMIntNE, m, LLVMConstPointerNull(h->ptr), "");
    gpucompile__host_store(b, LLVMBuildSelect(b, ok, LLVMConstInt(h->i32, 2, 0), LLVMConstInt(h->i32, 0, 0), ""), state,
                           LLVMAtomicOrderingRelease, 4);
    LLVMBuildRet(b, m);
    LLVMPositionBuilderAtEnd(b, wait_bb);
    gpucompile__host_call(b, yield, NULL, 0);
    LLVMBuildBr(b, check);
    LLVMPositionBuilderAtEnd(b, done_bb);
    LLVMBuildRet(b, gpucompile__host_load(b, h->ptr, module, LLVMAtomicOrderingNotAtomic, 8));
    LLVMDisposeBuilder(b);
    return f;
}

/* <name>_unload (a global destructor): unloads a loaded module once, forgets cached functions. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_unloader(gpucompile__host *h, const char *name, LLVMValueRef unload_fn,
                                                           LLVMValueRef state, LLVMValueRef module) {
    const char *sym;
    LLVMValueRef f, s, m;
    LLVMBasicBlockRef entry, unload_bb, done_bb;
    LLVMBasicBlockRef *const blocks[] = {&entry, &unload_bb, &done_bb};
    static const char *const names[] = {"entry", "unload", "done"};
    LLVMBuilderRef b;
    if (!(sym = gpucompile__host_name(h, name, NULL, "_unload"))) return NULL;
    f = gpucompile__host_function(h, sym, h->vd, NULL, 0, LLVMInternalLinkage);
    b = gpucompile__host_blocks(h, f, blocks, names, 3);
    s = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpXchg, state, LLVMConstInt(h->i32, 0, 0), LLVMAtomicOrderingAcquireRelease, 0);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, s, LLVMConstInt(h->i32, 2, 0), ""), unload_bb, done_bb);
    LLVMPositionBuilderAtEnd(b, unload_bb);
    m = gpucompile__host_load(b, h->ptr, module, LLVMAtomicOrderingNotAtomic, 8);
    gpucompile__host_store(b, LLVMConstPointerNull(h->ptr), module, LLVMAtomicOrderingNotAtomic, 8);
    gpucompile__host_call(b, unload_fn, &m, 1);
    LLVMBuildBr(b, done_bb);
    LLVMPositionBuilderAtEnd(b, done_bb);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return f;
}

/* <name>_<kernel>_get: the kernel's function, looked up once per loaded module (NULL when the
   binary did not load). Made on first need; the unloader forgets the cached value. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile__host_getter(gpucompile__host *h, const char *name, const char *kernel) {
    const char *sym;
    LLVMValueRef f, loader, get_fn, cache, kname, fp, m, args[2], unloader;
    LLVMBasicBlockRef entry, slow, get_bb, fail_bb, hit;
    LLVMBasicBlockRef *const blocks[] = {&entry, &hit, &slow, &get_bb, &fail_bb};
    static const char *const names[] = {"entry", "cached", "load", "get", "fail"};
    LLVMBuilderRef b;
    LLVMTypeRef pp[2];
    if (!(sym = gpucompile__host_name(h, name, kernel, "_get"))) return NULL;
    if ((f = LLVMGetNamedFunction(h->m, sym)) != NULL) return f;
    if (!(sym = gpucompile__host_name(h, name, NULL, "_load")) || !(loader = LLVMGetNamedFunction(h->m, sym))) return NULL;
    pp[0] = h->ptr;
    pp[1] = h->ptr;
    if (!(get_fn = gpucompile__host_decl(h, "mgpuModuleGetFunction", h->ptr, pp, 2))) return NULL;
    if (!(sym = gpucompile__host_name(h, name, kernel, "_function"))) return NULL;
    cache = gpucompile__host_global(h, sym, h->ptr, LLVMConstPointerNull(h->ptr), LLVMInternalLinkage, 8);
    if (!(sym = gpucompile__host_name(h, name, kernel, "_kernel_name"))) return NULL; /* MLIR's name for it */
    {
        LLVMValueRef str = LLVMConstStringInContext(h->c, kernel, (unsigned)strlen(kernel), 0);
        kname = gpucompile__host_global(h, sym, LLVMTypeOf(str), str, LLVMPrivateLinkage, 1);
        LLVMSetGlobalConstant(kname, 1);
        LLVMSetUnnamedAddress(kname, LLVMGlobalUnnamedAddr);
    }
    if (!(sym = gpucompile__host_name(h, name, kernel, "_get"))) return NULL;
    f = gpucompile__host_function(h, sym, h->ptr, NULL, 0, LLVMInternalLinkage);
    b = gpucompile__host_blocks(h, f, blocks, names, 5);
    fp = gpucompile__host_load(b, h->ptr, cache, LLVMAtomicOrderingAcquire, 8);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, fp, LLVMConstPointerNull(h->ptr), ""), hit, slow);
    LLVMPositionBuilderAtEnd(b, hit);
    LLVMBuildRet(b, fp);
    LLVMPositionBuilderAtEnd(b, slow);
    m = gpucompile__host_call(b, loader, NULL, 0);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, m, LLVMConstPointerNull(h->ptr), ""), get_bb, fail_bb);
    LLVMPositionBuilderAtEnd(b, get_bb);
    args[0] = m;
    args[1] = kname;
    fp = gpucompile__host_call(b, get_fn, args, 2);
    gpucompile__host_store(b, fp, cache, LLVMAtomicOrderingRelease, 8);
    LLVMBuildRet(b, fp);
    LLVMPositionBuilderAtEnd(b, fail_bb);
    LLVMBuildRet(b, LLVMConstPointerNull(h->ptr));
    /* the unloader forgets this function too */
    if ((sym = gpucompile__host_name(h, name, NULL, "_unload")) != NULL && (unloader = LLVMGetNamedFunction(h->m, sym)) != NULL) {
        LLVMBasicBlockRef last = LLVMGetLastBasicBlock(unloader);
        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(last));
        gpucompile__host_store(b, LLVMConstPointerNull(h->ptr), cache, LLVMAtomicOrderingRelease, 8);
    }
    LLVMDisposeBuilder(b);
    return f;
}

/* The launch itself at b's position: function, sizes as intptr, smem i32, stream (NULL: a
   synchronous launch on a stream of its own). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__host_launch(gpucompile__host *h, LLVMBuilderRef b, LLVMValueRef fn,
    LLVMValueRef *dims, LLVMValueRef smem, LLVMValueRef stream, LLVMValueRef args, int num_params) {
    LLVMTypeRef lp[12], one = h->ptr;
    LLVMValueRef launch, create, sync, destroy, a[12], s;
    int i;
    lp[0] = h->ptr;
    for (i = 1; i <= 6; i++) lp[i] = h->iptr;
    lp[7] = h->i32;
    lp[8] = lp[9] = lp[10] = h->ptr;
    lp[11] = h->iptr;
    if (!(launch = gpucompile__host_decl(h, "mgpuLaunchKernel", h->vd, lp, 12))) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    s = stream;
    if (!stream) {
        if (!(create = gpucompile__host_decl(h, "mgpuStreamCreate", h->ptr, NULL, 0)) ||
            !(sync = gpucompile__host_decl(h, "mgpuStreamSynchronize", h->vd, &one, 1)) ||
            !(destroy = gpucompile__host_decl(h, "mgpuStreamDestroy", h->vd, &one, 1)))
            return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
        s = gpucompile__host_call(b, create, NULL, 0);
    }
    a[0] = fn;
    for (i = 0; i < 6; i++) a[1 + i] = dims[i];
    a[7] = smem;
    a[8] = s;
    a[9] = args;
    a[10] = LLVMConstPointerNull(h->ptr);
    a[11] = LLVMConstInt(h->iptr, num_params > 0 ? (unsigned long long)num_params : 0, 0);
    gpucompile__host_call(b, launch, a, 12);
    if (!stream) {
        gpucompile__host_call(b, sync, &s, 1);
        gpucompile__host_call(b, destroy, &s, 1);
    }
    return GPUCOMPILE_OK;
}

/* <name>_<kernel>_launch(intptr_t x6, int32_t smem, void *stream, void **args). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__host_launch_function(gpucompile__host *h, const char *name,
                                                                       const gpucompile_kernel *k) {
    const char *sym;
    LLVMTypeRef params[9];
    LLVMValueRef f, getter, fn, dims[6], stream;
    LLVMBasicBlockRef entry, go, sync_bb, async_bb, out;
    LLVMBasicBlockRef *const blocks[] = {&entry, &go, &sync_bb, &async_bb, &out};
    static const char *const names[] = {"entry", "launch", "sync", "async", "out"};
    LLVMBuilderRef b;
    gpucompile_result r;
    int i;
    for (i = 0; i < 6; i++) params[i] = h->iptr;
    params[6] = h->i32;
    params[7] = params[8] = h->ptr;
    if (!(getter = gpucompile__host_getter(h, name, k->name))) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    if (!(sym = gpucompile__host_name(h, name, k->name, "_launch"))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    f = gpucompile__host_function(h, sym, h->vd, params, 9, LLVMExternalLinkage);
    {
        static const char *const param_names[9] = {"gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ", "sharedMemBytes", "stream", "args"};
        for (i = 0; i < 9; i++) LLVMSetValueName2(LLVMGetParam(f, (unsigned)i), param_names[i], strlen(param_names[i]));
    }
    b = gpucompile__host_blocks(h, f, blocks, names, 5);
    fn = gpucompile__host_call(b, getter, NULL, 0);
    /* no function: the runtime has reported why (load or lookup failed); launch nothing */
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, fn, LLVMConstPointerNull(h->ptr), ""), go, out);
    LLVMPositionBuilderAtEnd(b, go);
    stream = LLVMGetParam(f, 7);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, stream, LLVMConstPointerNull(h->ptr), ""), sync_bb, async_bb);
    for (i = 0; i < 6; i++) dims[i] = LLVMGetParam(f, (unsigned)i);
    LLVMPositionBuilderAtEnd(b, sync_bb);
    r = gpucompile__host_launch(h, b, fn, dims, LLVMGetParam(f, 6), NULL, LLVMGetParam(f, 8), k->num_params);
    LLVMBuildRetVoid(b);
    LLVMPositionBuilderAtEnd(b, async_bb);
    if (r == GPUCOMPILE_OK) r = gpucompile__host_launch(h, b, fn, dims, LLVMGetParam(f, 6), stream, LLVMGetParam(f, 8), k->num_params);
    LLVMBuildRetVoid(b);
    LLVMPositionBuilderAtEnd(b, out);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return r;
}

/* Is a symbol this embedding would create already in the host? */
GPUCOMPILE__PRIVATE int gpucompile__host_taken(gpucompile__host *h, const char *a, const char *b, const char *c) {
    const char *sym;
    if (!(sym = gpucompile__host_name(h, a, b, c))) {
        gpucompile__logf(h->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_OUT_OF_MEMORY, GPUCOMPILE_STAGE_EMBED, "out of memory");
        return 1;
    }
    if (LLVMGetNamedGlobal(h->m, sym) || LLVMGetNamedFunction(h->m, sym)) {
        gpucompile__logf(h->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                         "the host module already has a symbol '%s' (binary embedded twice?)", sym);
        return 1;
    }
    return 0;
}

/* The kernels to give launch functions: the selected object's, or (run-time selection) every
   object's, each name once. */
GPUCOMPILE__PRIVATE int gpucompile__host_kernels(const gpucompile_binary *bin, int selected, const gpucompile_kernel **out, int cap) {
    int n = 0, i, j, l;
    for (i = 0; i < bin->num_objects; i++) {
        const gpucompile_object *o = bin->objects[i];
        if (selected >= 0 && i != selected) continue;
        for (j = 0; j < o->num_kernels; j++) {
            for (l = 0; l < n; l++) if (strcmp(out[l]->name, o->kernels[j].name) == 0) break;
            if (l < n) {
                if (out[l]->num_params < 0) out[l] = &o->kernels[j];
                continue;
            }
            if (n == cap) return -1;
            out[n++] = &o->kernels[j];
        }
    }
    return n;
}

/* One embedding's state: what the stages of gpucompile__embed_binary hand on. */
typedef struct gpucompile__embedding {
    gpucompile_embed_options opts;
    gpucompile__host h;
    const gpucompile_binary *binary;
    const char *name;                  /* the binary's: every host symbol starts with it */
    int selected;                      /* the object embedded; -2: all of them (run-time selection) */
    const gpucompile_kernel **kernels; /* the kernels given host functions */
    int num_kernels;
    const gpucompile_object *obj;      /* the selected object; NULL: the offload binary of all */
    unsigned char *data;               /* the bytes embedded (owned when obj is NULL) */
    size_t size;
} gpucompile__embedding;

/* The object the binary's handler selects (MLIR's #gpu.select_object), or all of them. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_select(gpucompile__embedding *e) {
    const gpucompile_binary *binary = e->binary;
    int i;
    if (gpucompile_binary_verify(binary, &e->opts.logger) != GPUCOMPILE_OK) return GPUCOMPILE_ERROR_INVALID_BINARY;
    e->name = binary->name;
    if (!e->name || !*e->name)
        return gpucompile__logf(e->h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_BINARY, GPUCOMPILE_STAGE_EMBED,
                                "the binary has no name");
    switch (binary->handler.kind) {
    case GPUCOMPILE_HANDLER_SELECT_INDEX:
        e->selected = binary->handler.index < 0 || binary->handler.index >= binary->num_objects ? -1 : (int)binary->handler.index;
        break;
    case GPUCOMPILE_HANDLER_SELECT_TARGET: /* the first match, as MLIR takes it */
        for (e->selected = -1, i = 0; e->selected < 0 && i < binary->num_objects; i++)
            if (gpucompile__same_target(binary->handler.target, binary->objects[i]->target)) e->selected = i;
        break;
    case GPUCOMPILE_HANDLER_RUNTIME: e->selected = -2; break;
    default: e->selected = 0; break;
    }
    if (e->selected == -1)
        return gpucompile__logf(e->h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_NO_OBJECT, GPUCOMPILE_STAGE_EMBED,
                                "binary '%s': the requested target object couldn't be found", e->name);
    return GPUCOMPILE_OK;
}

/* The kernels to give host functions, and a refusal before anything is added to the host: a
   symbol it has already, or two kernel names that make one C identifier. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_kernels(gpucompile__embedding *e) {
    gpucompile__host *h = &e->h;
    const char *name = e->name;
    const gpucompile_kernel **kernels;
    int i, total = 1;
    for (i = 0; i < e->binary->num_objects; i++) total += e->binary->objects[i]->num_kernels;
    kernels = e->kernels = (const gpucompile_kernel **)gpucompile_alloc(NULL, (size_t)total * sizeof *kernels);
    if (!kernels) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    e->num_kernels = gpucompile__host_kernels(e->binary, e->selected >= 0 ? e->selected : -1, kernels, total);
    if (gpucompile__host_taken(h, name, NULL, "_bin_cst") || gpucompile__host_taken(h, name, NULL, "_load") ||
        gpucompile__host_taken(h, name, NULL, "_unload") || gpucompile__host_taken(h, name, NULL, "_module") ||
        gpucompile__host_taken(h, name, NULL, "_state"))
        return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    for (i = 0; i < e->num_kernels; i++) { /* two kernel names, one C identifier */
        const char *n = gpucompile__host_name(h, name, kernels[i]->name, "");
        char *si = n ? gpucompile__strdup(NULL, n) : NULL;
        gpucompile_result r = si ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        int j;
        for (j = 0; j < i && r == GPUCOMPILE_OK; j++)
            if ((n = gpucompile__host_name(h, name, kernels[j]->name, "")) != NULL && strcmp(si, n) == 0)
                r = gpucompile__logf(h->logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                     "kernels '%s' and '%s' would both have the host symbols %s_...",
                                     kernels[j]->name, kernels[i]->name, si);
        gpucompile_free(NULL, si);
        if (r != GPUCOMPILE_OK) return r;
    }
    for (i = 0; i < e->num_kernels; i++)
        if (gpucompile__host_taken(h, name, kernels[i]->name, "_function") || gpucompile__host_taken(h, name, kernels[i]->name, "_get") ||
            gpucompile__host_taken(h, name, kernels[i]->name, "_kernel_name") ||
            (!e->opts.no_launch_functions && gpucompile__host_taken(h, name, kernels[i]->name, "_launch")))
            return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    return GPUCOMPILE_OK;
}

/* The bytes to embed: the selected object's, or an offload binary of all of them. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_image(gpucompile__embedding *e) {
    gpucompile_result r;
    if (e->selected >= 0) {
        e->obj = e->binary->objects[e->selected];
        e->data = e->obj->data;
        e->size = e->obj->size;
    } else if ((r = gpucompile_binary_write_offload(e->binary, &e->data, &e->size)) != GPUCOMPILE_OK) {
        return gpucompile__logf(e->h.logger, GPUCOMPILE_SEVERITY_ERROR, r, GPUCOMPILE_STAGE_EMBED,
                                "binary '%s': cannot write the offload binary", e->name);
    }
    return GPUCOMPILE_OK;
}

/* The bytes as a constant, the module's state, its loader (on first use) and its unloader (at
   exit). The runtime functions are declared first: a conflicting declaration refuses before
   anything is added. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_loader(gpucompile__embedding *e) {
    gpucompile__host *h = &e->h;
    const gpucompile_object *obj = e->obj;
    const char *name = e->name, *sym, *triple = LLVMGetTarget(h->m);
    int jit = obj && obj->format == GPUCOMPILE_FORMAT_ISA; /* a driver's JIT reads a C string */
    LLVMTypeRef pp[2];
    LLVMValueRef cst, state, module, load_fn, unload_fn, yield, unloader, largs[2], str;
    pp[0] = h->ptr;
    pp[1] = h->iptr;
    if (jit) {
        pp[1] = h->i32;
        load_fn = gpucompile__host_decl(h, "mgpuModuleLoadJIT", h->ptr, pp, 2);
    } else {
        load_fn = gpucompile__host_decl(h, obj ? "mgpuModuleLoad" : "gpucompile_runtime_load_offload_binary", h->ptr, pp, 2);
    }
    unload_fn = gpucompile__host_decl(h, "mgpuModuleUnload", h->vd, pp, 1);
    yield = gpucompile__host_decl(h, triple && strstr(triple, "windows") ? "SwitchToThread" : "sched_yield", h->i32, NULL, 0);
    if (!load_fn || !unload_fn || !yield) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    str = LLVMConstStringInContext(h->c, (const char *)e->data, (unsigned)e->size, !jit);
    sym = gpucompile__host_name(h, name, NULL, "_bin_cst");
    cst = gpucompile__host_global(h, sym, LLVMTypeOf(str), str, LLVMInternalLinkage, 8);
    LLVMSetGlobalConstant(cst, 1);
    if (obj) { /* the object's section property, as MLIR's embedding places it */
        char section[1024];
        size_t n = gpucompile_object_property(obj, "section", section, sizeof section);
        gpucompile__bin_p q;
        gpucompile_buf sec;
        gpucompile__bin_reader(&q, section, n, NULL, NULL);
        memset(&sec, 0, sizeof sec);
        if (q.n && q.n < sizeof section && gpucompile__bin_pstring(&q, &sec) && sec.data) LLVMSetSection(cst, sec.data);
        gpucompile_free(NULL, sec.data);
    }
    sym = gpucompile__host_name(h, name, NULL, "_state");
    state = gpucompile__host_global(h, sym, h->i32, LLVMConstInt(h->i32, 0, 0), LLVMInternalLinkage, 4);
    sym = gpucompile__host_name(h, name, NULL, "_module");
    module = gpucompile__host_global(h, sym, h->ptr, LLVMConstPointerNull(h->ptr), LLVMInternalLinkage, 8);
    largs[0] = cst;
    largs[1] = jit ? LLVMConstInt(h->i32, (unsigned long long)gpucompile__object_opt_level(obj), 0)
                   : LLVMConstInt(h->iptr, (unsigned long long)e->size, 0);
    gpucompile__host_loader(h, name, load_fn, largs, 2, state, module, yield);
    unloader = gpucompile__host_unloader(h, name, unload_fn, state, module);
    return gpucompile__host_add_dtor(h, unloader);
}

/* Per kernel: its launch function, or (options.no_launch_functions) only its getter. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_functions(gpucompile__embedding *e) {
    gpucompile_result r = GPUCOMPILE_OK;
    int i;
    for (i = 0; r == GPUCOMPILE_OK && i < e->num_kernels; i++) {
        if (e->opts.no_launch_functions) r = gpucompile__host_getter(&e->h, e->name, e->kernels[i]->name) ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_INVALID_ARGUMENT;
        else r = gpucompile__host_launch_function(&e->h, e->name, e->kernels[i]);
    }
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__embed_binary(LLVMModuleRef host, const gpucompile_binary *binary,
                                                              const gpucompile_embed_options *options, gpucompile_buf *names) {
    gpucompile__embedding e;
    gpucompile_result r;
    memset(&e, 0, sizeof e);
    if (options) e.opts = *options;
    if (!host || !binary) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile__host_init(&e.h, host, &e.opts.logger, names);
    e.binary = binary;
    if ((r = gpucompile__embed_select(&e)) == GPUCOMPILE_OK && (r = gpucompile__embed_kernels(&e)) == GPUCOMPILE_OK &&
        (r = gpucompile__embed_image(&e)) == GPUCOMPILE_OK && (r = gpucompile__embed_loader(&e)) == GPUCOMPILE_OK)
        r = gpucompile__embed_functions(&e);
    if (!e.obj) gpucompile_free(&binary->allocator, e.data);
    gpucompile_free(NULL, e.kernels);
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_embed_binary(LLVMModuleRef host, const gpucompile_binary *binary,
                                                         const gpucompile_embed_options *options) {
    gpucompile_buf names;
    gpucompile_result r;
    memset(&names, 0, sizeof names);
    r = gpucompile__embed_binary(host, binary, options, &names);
    gpucompile_free(NULL, names.data);
    return r == GPUCOMPILE_OK && names.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile__emit_launch(LLVMBuilderRef builder, LLVMModuleRef host,
    const char *binary_name, const char *kernel, const LLVMValueRef grid[3], const LLVMValueRef block[3],
    LLVMValueRef shared_bytes, LLVMValueRef stream, LLVMValueRef args, int num_params, const gpucompile_logger *logger,
    gpucompile_buf *names) {
    gpucompile__host h;
    LLVMValueRef dims[6], getter, fn;
    LLVMTypeRef t0;
    const char *sym;
    int i, w;
    if (!builder || !host || !binary_name || !kernel || !grid || !block) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile__host_init(&h, host, logger, names);
    for (i = 0; i < 6; i++) {
        dims[i] = i < 3 ? grid[i] : block[i - 3];
        if (!dims[i]) return gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                              "launch of '%s': a grid or block size is missing", kernel);
    }
    t0 = LLVMTypeOf(dims[0]);
    w = LLVMGetTypeKind(t0) == LLVMIntegerTypeKind ? (int)LLVMGetIntTypeWidth(t0) : 0;
    if (w != 32 && w != 64 && w != h.iptr_bits)
        return gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                      "launch of '%s': grid and block sizes must be i32, i64 or the index type (i%d)", kernel, h.iptr_bits);
    for (i = 1; i < 6; i++) {
        LLVMTypeRef t = LLVMTypeOf(dims[i]);
        if (t != t0) {
            char *a = LLVMPrintTypeToString(t0), *b = LLVMPrintTypeToString(t);
            gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                   "launch of '%s': grid and block sizes must all have the same type (%s and %s)", kernel, a, b);
            LLVMDisposeMessage(a);
            LLVMDisposeMessage(b);
            return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
        }
    }
    if (shared_bytes && LLVMTypeOf(shared_bytes) != h.i32)
        return gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                "launch of '%s': the dynamic shared memory size must be i32", kernel);
    if ((stream && LLVMGetTypeKind(LLVMTypeOf(stream)) != LLVMPointerTypeKind) || (args && LLVMGetTypeKind(LLVMTypeOf(args)) != LLVMPointerTypeKind))
        return gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                "launch of '%s': stream and args must be pointers", kernel);
    if (!(sym = gpucompile__host_name(&h, binary_name, NULL, "_load")) || !LLVMGetNamedFunction(host, sym))
        return gpucompile__logf(h.logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_INVALID_ARGUMENT, GPUCOMPILE_STAGE_EMBED,
                                      "binary '%s' is not embedded in this host module (gpucompile_embed_binary first)", binary_name);
    if (!(getter = gpucompile__host_getter(&h, binary_name, kernel))) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    fn = gpucompile__host_call(builder, getter, NULL, 0);
    for (i = 0; i < 6; i++) /* sizes are unsigned: widen with zeros */
        if (w != h.iptr_bits) dims[i] = w < h.iptr_bits ? LLVMBuildZExt(builder, dims[i], h.iptr, "") : LLVMBuildTrunc(builder, dims[i], h.iptr, "");
    return gpucompile__host_launch(&h, builder, fn, dims, shared_bytes ? shared_bytes : LLVMConstInt(h.i32, 0, 0), stream,
                                   args ? args : LLVMConstPointerNull(h.ptr), num_params);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_emit_launch(LLVMBuilderRef builder, LLVMModuleRef host,
    const char *binary_name, const char *kernel, const LLVMValueRef grid[3], const LLVMValueRef block[3],
    LLVMValueRef shared_bytes, LLVMValueRef stream, LLVMValueRef args, int num_params, const gpucompile_logger *logger) {
    gpucompile_buf names;
    gpucompile_result r;
    memset(&names, 0, sizeof names);
    r = gpucompile__emit_launch(builder, host, binary_name, kernel, grid, block, shared_bytes, stream, args, num_params, logger, &names);
    gpucompile_free(NULL, names.data);
    return r == GPUCOMPILE_OK && names.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_host_module_create(LLVMContextRef context, const char *name,
    const char *triple, const gpucompile_logger *logger, LLVMModuleRef *out) {
    static int native_ok = -1;
    char *def = NULL, *err = NULL;
    LLVMTargetRef target;
    LLVMModuleRef m;
    if (!out) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *out = NULL;
    if (!context) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    gpucompile_lock();
    if (native_ok < 0) native_ok = LLVMInitializeNativeTarget() == 0;
    gpucompile_unlock();
    if (!triple) triple = def = LLVMGetDefaultTargetTriple();
    m = LLVMModuleCreateWithNameInContext(name ? name : "host", context);
    LLVMSetTarget(m, triple);
    if (LLVMGetTargetFromTriple(triple, &target, &err) == 0) {
        LLVMTargetMachineRef tm = LLVMCreateTargetMachine(target, triple, "", "", LLVMCodeGenLevelDefault, LLVMRelocPIC, LLVMCodeModelDefault);
        if (tm) {
            LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
            char *layout = LLVMCopyStringRepOfTargetData(td);
            LLVMSetDataLayout(m, layout);
            LLVMDisposeMessage(layout);
            LLVMDisposeTargetData(td);
            LLVMDisposeTargetMachine(tm);
        }
    } else {
        /* LLVM lacks that target here: the triple alone (llc fills in the layout) */
        gpucompile__logf(logger, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, GPUCOMPILE_STAGE_EMBED,
                         "host triple '%s': %s; no data layout set", triple, err ? err : "unknown target");
    }
    if (err) LLVMDisposeMessage(err);
    if (def) LLVMDisposeMessage(def);
    *out = m;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_print_host_module(const gpucompile_binary *binary, const char *triple,
    const gpucompile_embed_options *options, char **text, size_t *size) {
    const gpucompile_logger *logger = options ? &options->logger : NULL;
    LLVMContextRef ctx;
    LLVMModuleRef m = NULL;
    gpucompile_result r;
    char *msg = NULL;
    if (!text || !size) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    *text = NULL;
    *size = 0;
    if (!binary) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    ctx = LLVMContextCreate();
    r = gpucompile_host_module_create(ctx, binary->name, triple, logger, &m);
    if (r == GPUCOMPILE_OK) r = gpucompile_embed_binary(m, binary, options);
    if (r == GPUCOMPILE_OK && LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        gpucompile__logf(logger, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_LLVM, GPUCOMPILE_STAGE_EMBED,
                         "the host module does not verify: %s", msg ? msg : "");
        r = GPUCOMPILE_ERROR_LLVM;
    }
    if (msg) LLVMDisposeMessage(msg);
    if (r == GPUCOMPILE_OK) {
        char *t = LLVMPrintModuleToString(m);
        *size = strlen(t);
        if (!(*text = gpucompile__strndup(NULL, t, *size))) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        LLVMDisposeMessage(t);
    }
    if (m) LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    return r;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_write_host_module(const gpucompile_binary *binary, const char *triple,
    const char *path, const gpucompile_embed_options *options) {
    char *text = NULL;
    size_t n = 0;
    gpucompile_result r;
    if (!binary || !path) return GPUCOMPILE_ERROR_INVALID_ARGUMENT;
    r = gpucompile_print_host_module(binary, triple, options, &text, &n);
    if (r == GPUCOMPILE_OK && (r = gpucompile_write_file(path, text, n)) != GPUCOMPILE_OK)
        gpucompile__logf(options ? &options->logger : NULL, GPUCOMPILE_SEVERITY_ERROR, r, GPUCOMPILE_STAGE_EMBED,
                         "cannot write '%s': %s", path, strerror(errno));
    gpucompile_free(NULL, text);
    return r;
}

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
