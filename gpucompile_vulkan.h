/* gpucompile_vulkan.h - the Vulkan backend of gpucompile: #gpu.vulkan / MLIR's #spirv.target_env
   to a Vulkan compute shader module (SPIR-V, GLCompute; LLVM's SPIR-V code generator, LLVM 22),
   with the kernels' reflection (workgroup size, bindings, push constants, workgroup memory) in
   their metadata, readable without LLVM.

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (with the core's) or GPUCOMPILE_VULKAN_IMPLEMENTATION (in a file of its own; not with
   GPUCOMPILE_STATIC) is defined; it registers itself at start-up. The reflection reader
   (gpucompile_vulkan_reflect, at the end of this file) needs neither LLVM nor gpucompile.h:
   GPUCOMPILE_VULKAN_RUNTIME compiles it alone.

   Targets:
   - #gpu.vulkan<O, triple, chip, features, flags> (ours). triple: "spirv1.6-unknown-vulkan1.3-
     compute" (default) or "spirv1.5-unknown-vulkan1.2-compute"; chip "vulkan" (the device is
     chosen at run time). features: what the target allows besides the default set, as +Name /
     -Name words, Name a SPIR-V capability (Int64, AtomicFloat32MinMaxEXT, ...) or extension
     (SPV_KHR_16bit_storage, ...). The default set is what Mesa's lavapipe and current desktop
     drivers have: Shader, Int8, Int16, Int64, Float16, Float64, Int64Atomics, the GroupNonUniform
     family, 8- and 16-bit storage, AtomicFloat32AddEXT (with their extensions).
   - #spirv.target_env<#spirv.vce<v1.6, [Shader, ...], [SPV_...]>, api=Vulkan, VENDOR:TYPE:ID,
     #spirv.resource_limits<...>> (MLIR 22's, read and printed as mlir-opt-22 does). The lists
     are all the target allows: nothing is added to them. SPIR-V 1.5 and 1.6 are compiled (as
     Vulkan 1.2 and 1.3). cooperative_matrix_properties_* are read only as [].
   A module that needs a capability or extension the target does not allow is refused, naming it.

   Inputs: LLVM IR in the shape LLVM's SPIR-V backend takes for Vulkan (clang's HLSL output):
   an entry point is `define void @k()` with "hlsl.shader"="compute" and "hlsl.numthreads"="X,Y,Z";
   a storage buffer a target("spirv.VulkanBuffer", [0 x T], 12, RW) handle from
   llvm.spv.resource.handlefrombinding(set, binding, 1, 0, ptr @name), its elements from
   llvm.spv.resource.getpointer(handle, index) (addrspace 11); scalars in one push-constant block
   (a global in addrspace 13, shared by the module's entry points: Mesa refuses a module with two);
   workgroup memory in addrspace 3; llvm.spv.* builtins and barriers; atomicrmw (float add and
   min/max too). Before LLVM: shapes LLVM 22 crashes on are rewritten (what the optimizer makes
   of workgroup memory addresses: byte-offset getelementptr chains, constant ones outside the
   entry block; push-constant loads outside the entry block) or refused naming the function and
   the instruction (a getelementptr on a getpointer result, a null resource name, a fence, two
   element types on one binding, an entry point without a workgroup size, a call to a function
   the module does not define). Addresses keep 32-bit indices where the optimizer widened them
   (a 64-bit index declares Int64, which a target may not allow). After LLVM, on the module's words: the barrier gets the WorkgroupMemory
   semantics LLVM 22 leaves out, atomics' null constants (monotonic ordering) become constants,
   and the resource names' dead string variables go (with the Int8 capability they force); -v
   says what changed.

   Formats: llvm (bitcode), isa (SPIR-V assembly text, as spirv-as reads it), bin (the module).
   Kernel metadata (MLIR's #gpu.kernel_metadata): workgroup_size = array<i32: X, Y, Z>, bindings =
   [{binding, read_only, set, stride}], push_constants = [{offset, size}], push_constant_bytes,
   workgroup_memory_bytes. On an LLVM without the SPIRV target (Debian's LLVM 19) the target
   fails verification, saying so.

   LLVM's SPIR-V code generator takes its extensions from a process-wide option: the backend
   turns on SPV_EXT_shader_atomic_float_add and SPV_EXT_shader_atomic_float_min_max once (without
   them a float atomic aborts inside LLVM); the target's lists decide whether the module that
   uses them is kept. A program that passes -spirv-ext to LLVM itself conflicts with it (LLVM
   exits on the option's second occurrence). */
#ifndef GPUCOMPILE_VULKAN_H
#define GPUCOMPILE_VULKAN_H
#include <stddef.h>
#include <stdint.h>
#if defined(GPUCOMPILE_H) /* the backend; the reflection reader alone needs neither LLVM nor gpucompile.h */
#ifdef __cplusplus
extern "C" {
#endif
GPUCOMPILE_API const gpucompile_backend *gpucompile_vulkan_backend(void);
/* 1 when the LLVM in use has the SPIR-V code generator. */
GPUCOMPILE_API int gpucompile_vulkan_available(void);
#ifdef __cplusplus
}
#endif
#endif

/* The reflection of a Vulkan shader module, per GLCompute entry point (no LLVM needed). */
#ifndef GPUCOMPILE_VULKAN_KERNEL_DEFINED
#define GPUCOMPILE_VULKAN_KERNEL_DEFINED
typedef struct gpucompile_vulkan_binding { uint32_t set, binding, stride; int read_only; } gpucompile_vulkan_binding;
typedef struct gpucompile_vulkan_push_field { uint32_t offset, size; } gpucompile_vulkan_push_field;
typedef struct gpucompile_vulkan_kernel {
    char name[128]; uint32_t local_size[3];
    int num_bindings; gpucompile_vulkan_binding bindings[32];
    int num_push; gpucompile_vulkan_push_field push[32]; uint32_t push_size;
    uint32_t workgroup_bytes;
} gpucompile_vulkan_kernel;
#endif
#ifdef __cplusplus
extern "C" {
#endif
/* Reads every GLCompute entry point of a SPIR-V module: the number found (<= max filled), -1 if not a SPIR-V module. */
#if defined(GPUCOMPILE_H)
GPUCOMPILE_API
#endif
int gpucompile_vulkan_reflect(const void *spirv, size_t size, gpucompile_vulkan_kernel *out, int max);
#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_VULKAN_H */

#if defined(GPUCOMPILE_VULKAN_IMPLEMENTATION) && !defined(GPUCOMPILE_H)
#error "gpucompile_vulkan.h: the backend needs gpucompile.h included first (GPUCOMPILE_VULKAN_RUNTIME alone needs neither)"
#endif

#if defined(GPUCOMPILE_H) && (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION)) && \
    !defined(GPUCOMPILE_VULKAN_IMPLEMENTED)
#define GPUCOMPILE_VULKAN_IMPLEMENTED
#if defined(GPUCOMPILE_STATIC) && !defined(GPUCOMPILE_IMPLEMENTED)
#error "gpucompile_vulkan.h: with GPUCOMPILE_STATIC the backend's implementation goes in the core's file (GPUCOMPILE_IMPLEMENTATION)"
#endif
#if !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif

/* ==== [section: vulkan target] ===========================================================
   The two spellings, the capability and extension names, what a target allows. */

/* SPIR-V capabilities by name and number (the names MLIR's #spirv.vce takes). */
typedef struct gpucompile_vulkan__cap { const char *name; uint32_t id; } gpucompile_vulkan__cap;
static const gpucompile_vulkan__cap gpucompile_vulkan__caps[] = {
    {"Matrix", 0}, {"Shader", 1}, {"Geometry", 2}, {"Tessellation", 3}, {"Addresses", 4}, {"Linkage", 5}, {"Kernel", 6},
    {"Float16", 9}, {"Float64", 10}, {"Int64", 11}, {"Int64Atomics", 12}, {"Groups", 18}, {"Int16", 22},
    {"ImageGatherExtended", 25}, {"UniformBufferArrayDynamicIndexing", 28}, {"SampledImageArrayDynamicIndexing", 29},
    {"StorageBufferArrayDynamicIndexing", 30}, {"StorageImageArrayDynamicIndexing", 31}, {"Int8", 39}, {"Sampled1D", 43},
    {"Image1D", 44}, {"SampledBuffer", 46}, {"ImageBuffer", 47}, {"StorageImageExtendedFormats", 49}, {"ImageQuery", 50},
    {"DerivativeControl", 51}, {"StorageImageReadWithoutFormat", 55}, {"StorageImageWriteWithoutFormat", 56},
    {"GroupNonUniform", 61}, {"GroupNonUniformVote", 62}, {"GroupNonUniformArithmetic", 63}, {"GroupNonUniformBallot", 64},
    {"GroupNonUniformShuffle", 65}, {"GroupNonUniformShuffleRelative", 66}, {"GroupNonUniformClustered", 67},
    {"GroupNonUniformQuad", 68}, {"SubgroupBallotKHR", 4423}, {"SubgroupVoteKHR", 4431}, {"StorageBuffer16BitAccess", 4433},
    {"UniformAndStorageBuffer16BitAccess", 4434}, {"StoragePushConstant16", 4435}, {"VariablePointersStorageBuffer", 4441},
    {"VariablePointers", 4442}, {"StorageBuffer8BitAccess", 4448}, {"UniformAndStorageBuffer8BitAccess", 4449},
    {"StoragePushConstant8", 4450}, {"DenormPreserve", 4464}, {"DenormFlushToZero", 4465}, {"SignedZeroInfNanPreserve", 4466},
    {"RoundingModeRTE", 4467}, {"RoundingModeRTZ", 4468}, {"Int64ImageEXT", 5016}, {"ShaderClockKHR", 5055},
    {"ShaderNonUniform", 5301}, {"RuntimeDescriptorArray", 5302}, {"VulkanMemoryModel", 5345},
    {"VulkanMemoryModelDeviceScope", 5346}, {"PhysicalStorageBufferAddresses", 5347}, {"DemoteToHelperInvocation", 5379},
    {"AtomicFloat32MinMaxEXT", 5612}, {"AtomicFloat64MinMaxEXT", 5613}, {"AtomicFloat16MinMaxEXT", 5616},
    {"ExpectAssumeKHR", 5629}, {"DotProductInputAll", 6016}, {"DotProductInput4x8Bit", 6017},
    {"DotProductInput4x8BitPacked", 6018}, {"DotProduct", 6019}, {"CooperativeMatrixKHR", 6022},
    {"GroupNonUniformRotateKHR", 6026}, {"AtomicFloat32AddEXT", 6033}, {"AtomicFloat64AddEXT", 6034},
    {"AtomicFloat16AddEXT", 6095}};

/* SPIR-V extensions by name (those MLIR's #spirv.vce takes that a compute shader may use). */
static const char *const gpucompile_vulkan__exts[] = {
    "SPV_KHR_16bit_storage", "SPV_KHR_8bit_storage", "SPV_KHR_device_group", "SPV_KHR_float_controls",
    "SPV_KHR_physical_storage_buffer", "SPV_KHR_multiview", "SPV_KHR_no_integer_wrap_decoration",
    "SPV_KHR_post_depth_coverage", "SPV_KHR_shader_atomic_counter_ops", "SPV_KHR_shader_ballot", "SPV_KHR_shader_clock",
    "SPV_KHR_shader_draw_parameters", "SPV_KHR_storage_buffer_storage_class", "SPV_KHR_subgroup_vote",
    "SPV_KHR_variable_pointers", "SPV_KHR_vulkan_memory_model", "SPV_KHR_expect_assume", "SPV_KHR_integer_dot_product",
    "SPV_KHR_cooperative_matrix", "SPV_KHR_non_semantic_info", "SPV_KHR_terminate_invocation", "SPV_KHR_subgroup_rotate",
    "SPV_KHR_subgroup_uniform_control_flow", "SPV_EXT_demote_to_helper_invocation", "SPV_EXT_descriptor_indexing",
    "SPV_EXT_physical_storage_buffer", "SPV_EXT_shader_atomic_float_add", "SPV_EXT_shader_atomic_float_min_max",
    "SPV_EXT_shader_atomic_float16_add", "SPV_EXT_shader_image_int64", "SPV_NV_cooperative_matrix"};

/* What bare #gpu.vulkan allows (lavapipe and current desktop drivers have all of it). */
#define GPUCOMPILE_VULKAN__DEFAULT_SET \
    "Shader,Matrix,Int8,Int16,Int64,Float16,Float64,Int64Atomics,GroupNonUniform,GroupNonUniformVote," \
    "GroupNonUniformArithmetic,GroupNonUniformBallot,GroupNonUniformShuffle,GroupNonUniformShuffleRelative," \
    "GroupNonUniformClustered,GroupNonUniformQuad,StorageBuffer8BitAccess,UniformAndStorageBuffer8BitAccess," \
    "StoragePushConstant8,StorageBuffer16BitAccess,UniformAndStorageBuffer16BitAccess,StoragePushConstant16," \
    "AtomicFloat32AddEXT,SPV_KHR_8bit_storage,SPV_KHR_16bit_storage,SPV_KHR_storage_buffer_storage_class," \
    "SPV_EXT_shader_atomic_float_add"
/* What a capability brings along (a module declares both; a target lists the first). */
static const char *const gpucompile_vulkan__implied[][2] = {
    {"Shader", "Matrix"}, {"UniformAndStorageBuffer8BitAccess", "StorageBuffer8BitAccess"},
    {"UniformAndStorageBuffer16BitAccess", "StorageBuffer16BitAccess"}, {"GroupNonUniformVote", "GroupNonUniform"},
    {"GroupNonUniformArithmetic", "GroupNonUniform"}, {"GroupNonUniformBallot", "GroupNonUniform"},
    {"GroupNonUniformShuffle", "GroupNonUniform"}, {"GroupNonUniformShuffleRelative", "GroupNonUniform"},
    {"GroupNonUniformClustered", "GroupNonUniform"}, {"GroupNonUniformQuad", "GroupNonUniform"}};

GPUCOMPILE__PRIVATE const char *gpucompile_vulkan__cap_name(uint32_t id) {
    size_t i;
    for (i = 0; i < sizeof gpucompile_vulkan__caps / sizeof gpucompile_vulkan__caps[0]; i++)
        if (gpucompile_vulkan__caps[i].id == id) return gpucompile_vulkan__caps[i].name;
    return NULL;
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__known(const char *name, size_t n) {
    size_t i;
    for (i = 0; i < sizeof gpucompile_vulkan__caps / sizeof gpucompile_vulkan__caps[0]; i++)
        if (strlen(gpucompile_vulkan__caps[i].name) == n && strncmp(gpucompile_vulkan__caps[i].name, name, n) == 0) return 1;
    for (i = 0; i < sizeof gpucompile_vulkan__exts / sizeof gpucompile_vulkan__exts[0]; i++)
        if (strlen(gpucompile_vulkan__exts[i]) == n && strncmp(gpucompile_vulkan__exts[i], name, n) == 0) return 1;
    return 0;
}

/* Does the target allow the capability or extension name? #gpu.vulkan: the default set with
   its features' +Name / -Name; #spirv.target_env: exactly its lists (features "+A,+B"). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__allows_1(const gpucompile_target *t, const char *name) {
    const char *f = gpucompile_target_features(t);
    size_t n = strlen(name);
    int yes = !t->upstream && gpucompile_in_list(GPUCOMPILE_VULKAN__DEFAULT_SET, name, n);
    while (*f) {
        size_t w = strcspn(f, ",");
        if (w == n + 1 && strncmp(f + 1, name, n) == 0) yes = f[0] == '+';
        f += w + (f[w] == ',');
    }
    return yes;
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__allows(const gpucompile_target *t, const char *name) {
    size_t i;
    if (gpucompile_vulkan__allows_1(t, name)) return 1;
    for (i = 0; i < sizeof gpucompile_vulkan__implied / sizeof gpucompile_vulkan__implied[0]; i++)
        if (strcmp(gpucompile_vulkan__implied[i][1], name) == 0 && gpucompile_vulkan__allows_1(t, gpucompile_vulkan__implied[i][0])) return 1;
    return 0;
}

/* The versions a triple "spirv1.S-unknown-vulkan1.V-compute" names: 1 when it is one that LLVM
   writes Vulkan shaders for (SPIR-V 1.5 / Vulkan 1.2, SPIR-V 1.6 / Vulkan 1.3). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__versions(const char *triple, int *spirv, int *vulkan) {
    int s = -1, v = -1;
    char tail[16];
    if (sscanf(triple, "spirv1.%d-unknown-vulkan1.%d%15s", &s, &v, tail) != 3 || strcmp(tail, "-compute") != 0) return 0;
    if (spirv) *spirv = s;
    if (vulkan) *vulkan = v;
    return (s == 5 && v == 2) || (s == 6 && v == 3);
}

/* ---- MLIR's #spirv.target_env text (positional, so the backend reads it: parse_text) ----
   <#spirv.vce<vX.Y, [caps], [exts]>, [api=API,] [VENDOR[:TYPE[:ID]],] #spirv.resource_limits<...>>
   It becomes parameters: triple (from the SPIR-V version), features "+Cap,...,+SPV_ext,..." (the
   capabilities first, each list in its order), flags {api, device, limits}: strings holding
   their canonical text. Printing turns them back, as mlir-opt-22 prints. */
typedef struct gpucompile_vulkan__rd {
    const char *s;
    size_t n, pos, column;
    const gpucompile_logger *logger;
    int failed;
} gpucompile_vulkan__rd;

GPUCOMPILE__PRIVATE int gpucompile_vulkan__err(gpucompile_vulkan__rd *r, size_t at, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(GPUCOMPILE__PRINTF, 3, 4)))
#endif
    ;
GPUCOMPILE__PRIVATE int gpucompile_vulkan__err(gpucompile_vulkan__rd *r, size_t at, const char *fmt, ...) {
    char msg[512];
    va_list ap;
    if (r->failed++) return 0;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    gpucompile_log_target(r->logger, "column %lu: %s%s", (unsigned long)(r->column + at + 1), msg,
                          at >= r->n ? " (the text ends there)" : "");
    return 0;
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__ws(gpucompile_vulkan__rd *r) {
    for (;;) {
        while (r->pos < r->n && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' || r->s[r->pos] == '\r')) r->pos++;
        if (r->pos + 1 < r->n && r->s[r->pos] == '/' && r->s[r->pos + 1] == '/')
            while (r->pos < r->n && r->s[r->pos] != '\n') r->pos++;
        else return r->pos < r->n ? (unsigned char)r->s[r->pos] : -1;
    }
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__eat(gpucompile_vulkan__rd *r, int c) {
    if (gpucompile_vulkan__ws(r) != c) return 0;
    r->pos++;
    return 1;
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__expect(gpucompile_vulkan__rd *r, int c) {
    return gpucompile_vulkan__eat(r, c) || gpucompile_vulkan__err(r, r->pos, "expected '%c'", c);
}

/* A bare word (MLIR's keyword: [A-Za-z_][A-Za-z0-9_$.]*) at the cursor: its length, 0 if none. */
GPUCOMPILE__PRIVATE size_t gpucompile_vulkan__word(gpucompile_vulkan__rd *r, const char **w) {
    size_t at;
    int c = gpucompile_vulkan__ws(r);
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_')) return 0;
    at = r->pos;
    while (r->pos < r->n) {
        c = (unsigned char)r->s[r->pos];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c == '.')) break;
        r->pos++;
    }
    *w = r->s + at;
    return r->pos - at;
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__is(const char *w, size_t n, const char *s) { return strlen(s) == n && strncmp(w, s, n) == 0; }

/* An integer: decimal or 0x hex, optionally negative, within [lo, hi]. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__int(gpucompile_vulkan__rd *r, long long lo, long long hi, long long *v, const char *what) {
    size_t at;
    int neg = 0, any = 0, base = 10;
    unsigned long long x = 0;
    gpucompile_vulkan__ws(r);
    at = r->pos;
    if (r->pos < r->n && r->s[r->pos] == '-') { neg = 1; r->pos++; }
    if (r->pos + 1 < r->n && r->s[r->pos] == '0' && (r->s[r->pos + 1] == 'x' || r->s[r->pos + 1] == 'X')) { base = 16; r->pos += 2; }
    while (r->pos < r->n) {
        int c = (unsigned char)r->s[r->pos], d = c >= '0' && c <= '9' ? c - '0' : base == 16 && c >= 'a' && c <= 'f' ? c - 'a' + 10 :
                                                 base == 16 && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) break;
        if (x > 0xFFFFFFFFFull) return gpucompile_vulkan__err(r, at, "integer too large for %s", what);
        x = x * (unsigned)base + (unsigned)d;
        any = 1;
        r->pos++;
    }
    if (!any) return gpucompile_vulkan__err(r, at, "expected an integer for %s", what);
    *v = neg ? -(long long)x : (long long)x;
    if (*v < lo || *v > hi) return gpucompile_vulkan__err(r, at, "integer out of range for %s", what);
    return 1;
}

/* [w, w, ...] of known names into out as "+w" words (prefix: nothing; errors name kind). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__names(gpucompile_vulkan__rd *r, gpucompile_buf *out, int exts) {
    const char *w;
    size_t n, at;
    if (!gpucompile_vulkan__expect(r, '[')) return 0;
    if (gpucompile_vulkan__eat(r, ']')) return 1;
    for (;;) {
        gpucompile_vulkan__ws(r);
        at = r->pos;
        n = gpucompile_vulkan__word(r, &w);
        if (!n) return gpucompile_vulkan__err(r, at, "expected a %s name", exts ? "extension" : "capability");
        if (!gpucompile_vulkan__known(w, n) || (strncmp(w, "SPV_", 4) == 0) != exts)
            return gpucompile_vulkan__err(r, at, "unknown %s: %.*s", exts ? "extension" : "capability", (int)(n < 80 ? n : 80), w);
        gpucompile_buf_printf(out, "%s+%.*s", out->len ? "," : "", (int)n, w);
        if (gpucompile_vulkan__eat(r, ',')) continue;
        return gpucompile_vulkan__expect(r, ']');
    }
}

/* One of the words of list (comma-separated), or an error "unknown WHAT: w". */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__enum(gpucompile_vulkan__rd *r, const char *list, const char *what, const char **w, size_t *n) {
    size_t at;
    gpucompile_vulkan__ws(r);
    at = r->pos;
    *n = gpucompile_vulkan__word(r, w);
    if (!*n) return gpucompile_vulkan__err(r, at, "expected a %s", what);
    if (!gpucompile_in_list(list, *w, *n)) return gpucompile_vulkan__err(r, at, "unknown %s: %.*s", what, (int)(*n < 80 ? *n : 80), *w);
    return 1;
}

/* #spirv.resource_limits<...>'s parameters, in any order, printed in declaration order and
   without those equal to their defaults (as MLIR's struct(params) printer). */
static const char *const gpucompile_vulkan__limits[8] = {
    "max_compute_shared_memory_size", "max_compute_workgroup_invocations", "max_compute_workgroup_size", "subgroup_size",
    "min_subgroup_size", "max_subgroup_size", "cooperative_matrix_properties_khr", "cooperative_matrix_properties_nv"};

GPUCOMPILE__PRIVATE int gpucompile_vulkan__plimits(gpucompile_vulkan__rd *r, gpucompile_buf *out) {
    static const long long defaults[4] = {16384, 128, -1, 32};
    char value[8][256];
    int seen[8] = {0}, i;
    const char *w;
    size_t n, at;
    if (!gpucompile_vulkan__expect(r, '#')) return 0;
    at = r->pos;
    n = gpucompile_vulkan__word(r, &w);
    if (!gpucompile_vulkan__is(w, n, "spirv.resource_limits")) return gpucompile_vulkan__err(r, at, "expected #spirv.resource_limits<...>");
    if (!gpucompile_vulkan__expect(r, '<')) return 0;
    if (!gpucompile_vulkan__eat(r, '>'))
        for (;;) {
            long long v;
            gpucompile_vulkan__ws(r);
            at = r->pos;
            n = gpucompile_vulkan__word(r, &w);
            for (i = 0; i < 8 && !gpucompile_vulkan__is(w, n, gpucompile_vulkan__limits[i]); i++) {}
            if (!n || i == 8 || seen[i])
                return gpucompile_vulkan__err(r, at, "duplicate or unknown struct parameter name: %.*s", (int)(n < 80 ? n : 80), w);
            seen[i] = 1;
            value[i][0] = 0;
            if (!gpucompile_vulkan__expect(r, '=')) return 0;
            if (i == 2) { /* an array of integers, each "N" (i64) or "N : iK" */
                int all_default = 1, k = 0;
                size_t len = 0;
                static const long long want[3] = {128, 128, 64};
                if (!gpucompile_vulkan__expect(r, '[')) return 0;
                len += (size_t)snprintf(value[i], sizeof value[i], "[");
                if (!gpucompile_vulkan__eat(r, ']')) for (;; k++) {
                    long long bits = 64;
                    if (!gpucompile_vulkan__int(r, -2147483647LL - 1, 2147483647LL, &v, gpucompile_vulkan__limits[i])) return 0;
                    if (gpucompile_vulkan__eat(r, ':')) {
                        gpucompile_vulkan__ws(r);
                        at = r->pos;
                        if (r->pos >= r->n || r->s[r->pos] != 'i') return gpucompile_vulkan__err(r, at, "expected an integer type");
                        r->pos++;
                        if (!gpucompile_vulkan__int(r, 1, 64, &bits, "an integer type")) return 0;
                    }
                    if (len < sizeof value[i])
                        len += (size_t)snprintf(value[i] + len, sizeof value[i] - len, bits == 64 ? "%s%lld" : "%s%lld : i%lld", k ? ", " : "", v, bits);
                    if (k >= 3 || bits != 32 || v != want[k]) all_default = 0;
                    if (gpucompile_vulkan__eat(r, ',')) continue;
                    if (!gpucompile_vulkan__expect(r, ']')) return 0;
                    break;
                }
                if (k != 2) all_default = 0;
                if (len < sizeof value[i]) snprintf(value[i] + len, sizeof value[i] - len, "]");
                if (len + 1 >= sizeof value[i]) return gpucompile_vulkan__err(r, at, "max_compute_workgroup_size is too long");
                if (all_default) seen[i] = 0;
            } else if (i >= 6) { /* the cooperative matrix tables: only empty ones are read */
                at = r->pos;
                if (!gpucompile_vulkan__eat(r, '[') || !gpucompile_vulkan__eat(r, ']'))
                    return gpucompile_vulkan__err(r, at, "gpucompile reads %s only as []", gpucompile_vulkan__limits[i]);
                snprintf(value[i], sizeof value[i], "[]");
            } else {
                if (!gpucompile_vulkan__int(r, -2147483647LL - 1, 2147483647LL, &v, gpucompile_vulkan__limits[i])) return 0;
                snprintf(value[i], sizeof value[i], "%lld", v);
                if (i < 4 && v == defaults[i]) seen[i] = 0;
            }
            if (gpucompile_vulkan__eat(r, ',')) continue;
            if (!gpucompile_vulkan__expect(r, '>')) return 0;
            break;
        }
    for (i = 0; i < 8; i++)
        if (seen[i]) gpucompile_buf_printf(out, "%s%s = %s", out->len ? ", " : "", gpucompile_vulkan__limits[i], value[i]);
    return 1;
}

GPUCOMPILE__PRIVATE size_t gpucompile_vulkan__parse_env(const char *text, size_t n, size_t column, const gpucompile_logger *logger,
                                                        char *params, size_t size) {
    static const char *const vendors = "AMD,Apple,ARM,Imagination,Intel,NVIDIA,Qualcomm,SwiftShader,Unknown";
    static const char *const types = "DiscreteGPU,IntegratedGPU,CPU,VirtualGPU,Other,Unknown";
    gpucompile_vulkan__rd r;
    gpucompile_buf caps, exts, limits;
    char api[32] = "", device[96] = "";
    const char *w;
    size_t wn, at;
    int minor = -1, ok = 0;
    memset(&r, 0, sizeof r);
    memset(&caps, 0, sizeof caps);
    memset(&exts, 0, sizeof exts);
    memset(&limits, 0, sizeof limits);
    r.s = text;
    r.n = n;
    r.column = column;
    r.logger = logger;
    do {
        if (!gpucompile_vulkan__expect(&r, '<') || !gpucompile_vulkan__expect(&r, '#')) break;
        at = r.pos;
        wn = gpucompile_vulkan__word(&r, &w);
        if (!gpucompile_vulkan__is(w, wn, "spirv.vce")) { gpucompile_vulkan__err(&r, at, "expected #spirv.vce<...>"); break; }
        if (!gpucompile_vulkan__expect(&r, '<')) break;
        gpucompile_vulkan__ws(&r);
        at = r.pos;
        wn = gpucompile_vulkan__word(&r, &w);
        if (wn != 4 || strncmp(w, "v1.", 3) != 0 || w[3] < '0' || w[3] > '6') {
            gpucompile_vulkan__err(&r, at, "unknown version: %.*s", (int)(wn < 40 ? wn : 40), w);
            break;
        }
        minor = w[3] - '0';
        if (!gpucompile_vulkan__expect(&r, ',') || !gpucompile_vulkan__names(&r, &caps, 0) || !gpucompile_vulkan__expect(&r, ',') ||
            !gpucompile_vulkan__names(&r, &exts, 1) || !gpucompile_vulkan__expect(&r, '>') || !gpucompile_vulkan__expect(&r, ','))
            break;
        at = r.pos;
        if (gpucompile_vulkan__word(&r, &w) == 3 && strncmp(w, "api", 3) == 0) {
            if (!gpucompile_vulkan__expect(&r, '=') || !gpucompile_vulkan__enum(&r, "Metal,OpenCL,Vulkan,WebGPU,Unknown", "client API", &w, &wn) ||
                !gpucompile_vulkan__expect(&r, ','))
                break;
            if (!gpucompile_vulkan__is(w, wn, "Unknown")) snprintf(api, sizeof api, "%.*s", (int)wn, w);
        } else r.pos = at;
        if (gpucompile_vulkan__ws(&r) != '#') {
            char vendor[32];
            long long id = 0x7FFFFFFF;
            if (!gpucompile_vulkan__enum(&r, vendors, "vendor", &w, &wn)) break;
            snprintf(vendor, sizeof vendor, "%.*s", (int)wn, w);
            if (strcmp(vendor, "Unknown") != 0) snprintf(device, sizeof device, "%s", vendor);
            if (gpucompile_vulkan__eat(&r, ':')) {
                if (!gpucompile_vulkan__enum(&r, types, "device type", &w, &wn)) break;
                if (*device && !gpucompile_vulkan__is(w, wn, "Unknown")) {
                    snprintf(device + strlen(device), sizeof device - strlen(device), ":%.*s", (int)wn, w);
                    if (gpucompile_vulkan__eat(&r, ':')) {
                        if (!gpucompile_vulkan__int(&r, 0, 0xFFFFFFFFLL, &id, "the device id")) break;
                        if (id != 0x7FFFFFFF) snprintf(device + strlen(device), sizeof device - strlen(device), ":%lld", id);
                    }
                } else if (gpucompile_vulkan__eat(&r, ':') && !gpucompile_vulkan__int(&r, 0, 0xFFFFFFFFLL, &id, "the device id")) break;
            }
            if (!gpucompile_vulkan__expect(&r, ',')) break;
        }
        if (!gpucompile_vulkan__plimits(&r, &limits) || !gpucompile_vulkan__expect(&r, '>')) break;
        ok = 1;
    } while (0);
    if (ok && (caps.oom || exts.oom || limits.oom)) ok = gpucompile_vulkan__err(&r, 0, "out of memory");
    if (ok) { /* SPIR-V 1.6: Vulkan 1.3, 1.4-1.5: 1.2, 1.1-1.3: 1.1, 1.0: 1.0 */
        gpucompile_buf p;
        const char *sep = "";
        memset(&p, 0, sizeof p);
        gpucompile_buf_printf(&p, "triple = \"spirv1.%d-unknown-vulkan1.%d-compute\"", minor, minor >= 6 ? 3 : minor >= 4 ? 2 : minor >= 1 ? 1 : 0);
        if (caps.len || exts.len)
            gpucompile_buf_printf(&p, ", features = \"%s%s%s\"", caps.len ? caps.data : "", caps.len && exts.len ? "," : "", exts.len ? exts.data : "");
        if (*api || *device || limits.len) { /* no quote or backslash in any of them */
            gpucompile_buf_str(&p, ", flags = {");
            if (*api) { gpucompile_buf_printf(&p, "api = \"%s\"", api); sep = ", "; }
            if (*device) { gpucompile_buf_printf(&p, "%sdevice = \"%s\"", sep, device); sep = ", "; }
            if (limits.len) gpucompile_buf_printf(&p, "%slimits = \"%s\"", sep, limits.data);
            gpucompile_buf_str(&p, "}");
        }
        if (p.oom || p.len >= size) ok = gpucompile_vulkan__err(&r, 0, "the target text is too long");
        else memcpy(params, p.data, p.len + 1);
        gpucompile_free(p.a, p.data);
    }
    gpucompile_free(caps.a, caps.data);
    gpucompile_free(exts.a, exts.data);
    gpucompile_free(limits.a, limits.data);
    return ok ? r.pos : 0;
}

/* A flag's string value without its quotes (the limits and names hold no escapes); "" if none. */
GPUCOMPILE__PRIVATE void gpucompile_vulkan__flag_string(const gpucompile_target *t, const char *name, char *buf, size_t size) {
    const char *v = gpucompile_target_flag_value(t, name);
    size_t n = v ? strlen(v) : 0;
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') snprintf(buf, size, "%.*s", (int)(n - 2), v + 1);
    else snprintf(buf, size, "%s", "");
}

GPUCOMPILE__PRIVATE size_t gpucompile_vulkan__print_env(const gpucompile_target *t, char *buf, size_t size) {
    gpucompile_buf b;
    char api[64], device[128], limits[4096];
    const char *f = gpucompile_target_features(t);
    int spirv = 6, pass, first;
    size_t len;
    memset(&b, 0, sizeof b);
    gpucompile_vulkan__versions(gpucompile_target_triple(t), &spirv, NULL);
    if (spirv < 0 || spirv > 6) spirv = 6;
    gpucompile_buf_printf(&b, "#spirv.target_env<#spirv.vce<v1.%d, [", spirv);
    for (pass = 0; pass < 2; pass++) { /* capabilities, then extensions */
        const char *p = f;
        first = 1;
        if (pass) gpucompile_buf_str(&b, "], [");
        while (*p) {
            size_t w = strcspn(p, ",");
            const char *name = p + (*p == '+');
            size_t nl = w - (size_t)(name - p);
            if (nl && (strncmp(name, "SPV_", 4) == 0) == pass) {
                gpucompile_buf_printf(&b, "%s%.*s", first ? "" : ", ", (int)nl, name);
                first = 0;
            }
            p += w + (p[w] == ',');
        }
    }
    gpucompile_buf_str(&b, "]>");
    gpucompile_vulkan__flag_string(t, "api", api, sizeof api);
    gpucompile_vulkan__flag_string(t, "device", device, sizeof device);
    gpucompile_vulkan__flag_string(t, "limits", limits, sizeof limits);
    if (*api) gpucompile_buf_printf(&b, ", api=%s", api);
    if (*device) gpucompile_buf_printf(&b, ", %s", device);
    gpucompile_buf_printf(&b, ", #spirv.resource_limits<%s>>", limits);
    len = b.oom ? 0 : b.len;
    if (size) snprintf(buf, size, "%s", b.oom ? "" : b.data);
    gpucompile_free(b.a, b.data);
    return len;
}

/* ---- LLVM's SPIR-V target ---- */
/* Its initialisers, looked up at run time: an LLVM built without the target (Debian's LLVM 19)
   has none of them, and the program must still link. */
typedef struct gpucompile_vulkan__llvm {
    int state; /* 0 not looked up, 1 found, -1 absent */
    void (*init[4])(void);
    void (*parse_options)(int, const char *const *, const char *);
} gpucompile_vulkan__llvm;
static gpucompile_vulkan__llvm gpucompile_vulkan__targets;

GPUCOMPILE_DEF int gpucompile_vulkan_available(void) {
    static const char *const names[4] = {"LLVMInitializeSPIRVTargetInfo", "LLVMInitializeSPIRVTarget",
                                         "LLVMInitializeSPIRVTargetMC", "LLVMInitializeSPIRVAsmPrinter"};
    gpucompile_vulkan__llvm *s = &gpucompile_vulkan__targets;
    int i, ok;
    gpucompile_lock();
    if (s->state == 0) {
        void *self = gpucompile_dlopen(NULL);
        s->state = 1;
        for (i = 0; i < 4; i++)
            if (!gpucompile_dlfn(self, names[i], &s->init[i])) s->state = -1;
        if (!gpucompile_dlfn(self, "LLVMParseCommandLineOptions", &s->parse_options)) s->state = -1;
    }
    ok = s->state == 1;
    gpucompile_unlock();
    return ok;
}

/* Under the core's lock, once. The float atomics' extensions are a process-wide option of
   LLVM's SPIR-V code generator: without them a float atomic aborts inside LLVM. */
GPUCOMPILE__PRIVATE void gpucompile_vulkan__initialize(void) {
    static const char *const argv[2] = {"gpucompile", "-spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max"};
    int i;
    if (gpucompile_vulkan__targets.state != 1) return;
    for (i = 0; i < 4; i++) gpucompile_vulkan__targets.init[i]();
    gpucompile_vulkan__targets.parse_options(2, argv, "");
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t), *f = gpucompile_target_features(t);
    char api[64];
    int s = -1, v = -1;
    if (!gpucompile_vulkan__versions(triple, &s, &v)) {
        if (s >= 0 && v >= 0)
            return gpucompile_log_target(logger, "SPIR-V 1.%d (Vulkan 1.%d) is not compiled: LLVM writes Vulkan shaders as SPIR-V 1.5 (Vulkan 1.2) or 1.6 (Vulkan 1.3).", s, v);
        return gpucompile_log_target(logger, "The target triple '%.200s' is not a Vulkan compute triple (spirv1.6-unknown-vulkan1.3-compute or spirv1.5-unknown-vulkan1.2-compute).", triple);
    }
    if (strcmp(gpucompile_target_chip(t), "vulkan") != 0)
        return gpucompile_log_target(logger, "The chip of a Vulkan target is \"vulkan\" (the device is chosen at run time), not '%.100s'.", gpucompile_target_chip(t));
    while (*f) {
        size_t w = strcspn(f, ",");
        if (w < 2 || (f[0] != '+' && f[0] != '-') || !gpucompile_vulkan__known(f + 1, w - 1))
            return gpucompile_log_target(logger, "The feature '%.*s' is not +Name or -Name of a SPIR-V capability or extension that gpucompile knows.", (int)(w < 100 ? w : 100), f);
        f += w + (f[w] == ',');
    }
    gpucompile_vulkan__flag_string(t, "api", api, sizeof api);
    if (*api && strcmp(api, "Vulkan") != 0)
        return gpucompile_log_target(logger, "The Vulkan backend compiles for api=Vulkan, not api=%s.", api);
    if (!gpucompile_vulkan_available())
        return gpucompile_log_target(logger, "LLVM %d here has no SPIR-V code generator (the SPIRV target; LLVM 22 has it).", LLVM_VERSION_MAJOR);
    return GPUCOMPILE_OK;
}

/* ==== [section: vulkan input] ============================================================
   The IR LLVM 22's SPIR-V code generator takes for Vulkan: refused where it crashes or writes an
   invalid module, rewritten where the optimizer made a shape it crashes on. */

/* The value of fn's string attribute name; NULL when it has none. */
GPUCOMPILE__PRIVATE const char *gpucompile_vulkan__fn_attr(LLVMValueRef fn, const char *name, unsigned *len) {
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, name, (unsigned)strlen(name));
    *len = 0;
    return a ? LLVMGetStringAttributeValue(a, len) : NULL;
}

/* An entry point: "hlsl.shader"="compute" (what clang's HLSL front end writes). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    unsigned n;
    const char *v = gpucompile_vulkan__fn_attr(fn, "hlsl.shader", &n);
    (void)job;
    return v && !LLVMIsDeclaration(fn) && n == 7 && strncmp(v, "compute", 7) == 0;
}

/* The called function's name, "" when the call is indirect or in is no call. */
GPUCOMPILE__PRIVATE const char *gpucompile_vulkan__callee(LLVMValueRef in) {
    LLVMValueRef f;
    if (!LLVMIsACallInst(in)) return "";
    f = LLVMGetCalledValue(in);
    return f && LLVMIsAFunction(f) ? gpucompile_value_name(f) : "";
}

GPUCOMPILE__PRIVATE int gpucompile_vulkan__calls(LLVMValueRef in, const char *prefix) {
    return strncmp(gpucompile_vulkan__callee(in), prefix, strlen(prefix)) == 0;
}

/* Fails the compile naming the function and the instruction. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__refuse(gpucompile_job *job, LLVMValueRef in, const char *why) {
    LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(in));
    char *text = LLVMPrintValueToString(in);
    const char *t = text ? text : "";
    gpucompile_result r;
    while (*t == ' ') t++;
    r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': `%.300s`: %s", gpucompile_value_name(fn), t, why);
    if (text) LLVMDisposeMessage(text);
    return r;
}

/* Why LLVM 22 cannot take instruction in (crash or invalid module), NULL when it can. */
GPUCOMPILE__PRIVATE const char *gpucompile_vulkan__bad_instruction(LLVMValueRef in) {
    if (LLVMGetInstructionOpcode(in) == LLVMFence)
        return "LLVM 22 writes an invalid OpMemoryBarrier for a fence; use llvm.spv.group.memory.barrier.with.group.sync";
    if (LLVMIsAGetElementPtrInst(in) && gpucompile_vulkan__calls(LLVMGetOperand(in, 0), "llvm.spv.resource.getpointer"))
        return "LLVM 22's code generator crashes on a getelementptr on llvm.spv.resource.getpointer's result: give getpointer the element's index";
    if (gpucompile_vulkan__calls(in, "llvm.spv.resource.handlefrombinding")) {
        LLVMValueRef name = LLVMGetNumArgOperands(in) >= 5 ? LLVMGetOperand(in, 4) : NULL;
        if (!name || !LLVMIsAGlobalVariable(name))
            return "a resource's name must be a private constant string (LLVM 22's code generator crashes on a null or poison one)";
        if (LLVMGetNumArgOperands(in) < 4 || !LLVMIsAConstantInt(LLVMGetOperand(in, 0)) || !LLVMIsAConstantInt(LLVMGetOperand(in, 1)))
            return "a resource's set and binding must be constants";
    }
    if (gpucompile_vulkan__calls(in, "llvm.spv.workgroup.size"))
        return "LLVM 22 writes an invalid module for llvm.spv.workgroup.size: use the constant (hlsl.numthreads)";
    return NULL;
}

/* "X,Y,Z" of hlsl.numthreads, each at least 1: 1 when so. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__numthreads(LLVMValueRef fn, unsigned size[3]) {
    unsigned n;
    const char *v = gpucompile_vulkan__fn_attr(fn, "hlsl.numthreads", &n);
    char buf[64], tail;
    if (!v || n >= sizeof buf) return 0;
    memcpy(buf, v, n);
    buf[n] = 0;
    return sscanf(buf, "%u,%u,%u%c", &size[0], &size[1], &size[2], &tail) == 3 && size[0] && size[1] && size[2];
}

/* The module as LLVM 22 takes it, before optimization: entry points, resources, globals, calls. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__prepare(gpucompile_job *job) {
    LLVMValueRef fn, g, in, pc = NULL, calls[64];
    LLVMBasicBlockRef bb;
    int ncalls = 0, i, zeroed = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = gpucompile_value_name(fn), *v;
        unsigned n, size[3];
        if (LLVMIsDeclaration(fn)) {
            if (LLVMGetFirstUse(fn) && strncmp(name, "llvm.", 5) != 0)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNRESOLVED, "undefined function '%s': a Vulkan shader module links nothing "
                                           "(LLVM 22 would import it, which needs the Linkage capability)", name);
            continue;
        }
        if ((v = gpucompile_vulkan__fn_attr(fn, "hlsl.shader", &n)) != NULL) {
            if (n != 7 || strncmp(v, "compute", 7) != 0)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': \"hlsl.shader\"=\"%.*s\": only compute shaders are compiled",
                                           name, (int)(n < 40 ? n : 40), v);
            if (!gpucompile_vulkan__numthreads(fn, size))
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': a compute entry point needs \"hlsl.numthreads\"=\"X,Y,Z\" "
                                           "(its workgroup size; without it LLVM 22 writes a module with no LocalSize)", name);
            if (LLVMCountParams(fn) != 0)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': an entry point takes no parameters (buffers come from "
                                           "llvm.spv.resource.handlefrombinding, scalars from the push-constant block)", name);
        }
        for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                const char *why = gpucompile_vulkan__bad_instruction(in);
                if (why) return gpucompile_vulkan__refuse(job, in, why);
                if (!gpucompile_vulkan__calls(in, "llvm.spv.resource.handlefrombinding")) continue;
                /* LLVM 22 merges two element types on one binding into one invalid variable */
                for (i = 0; i < ncalls; i++)
                    if (LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 0)) == LLVMConstIntGetZExtValue(LLVMGetOperand(in, 0)) &&
                        LLVMConstIntGetZExtValue(LLVMGetOperand(calls[i], 1)) == LLVMConstIntGetZExtValue(LLVMGetOperand(in, 1)) &&
                        LLVMTypeOf(calls[i]) != LLVMTypeOf(in))
                        return gpucompile_vulkan__refuse(job, in, "a binding is used with two types (LLVM 22 merges them into one invalid variable)");
                if (ncalls < 64) calls[ncalls++] = in;
            }
    }
    for (g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g)) {
        unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
        if (!LLVMGetFirstUse(g)) continue;
        if (as == 13) {
            if (pc)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "globals '%s' and '%s': two push-constant blocks in one module "
                                           "(Mesa's Vulkan driver refuses the pipeline); let the entry points share one block",
                                           gpucompile_value_name(pc), gpucompile_value_name(g));
            pc = g;
        } else if (LLVMIsDeclaration(g))
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNRESOLVED, "undefined global '%s'%s", gpucompile_value_name(g),
                                       as == 3 ? ": workgroup memory is a definition with a size" : "");
        else if (as == 3 && LLVMGetInitializer(g) && !LLVMIsUndef(LLVMGetInitializer(g))) {
            /* clang gives HLSL's groupshared arrays a zero initializer, which in SPIR-V needs the
               shaderZeroInitializeWorkgroupMemory feature; workgroup memory starts undefined in
               HLSL, CUDA and OpenCL alike, so none is written (other values cannot be) */
            if (!LLVMIsNull(LLVMGetInitializer(g)))
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "global '%s': workgroup memory cannot be given initial values in Vulkan",
                                           gpucompile_value_name(g));
            LLVMSetInitializer(g, LLVMGetPoison(LLVMGlobalGetValueType(g)));
            zeroed++;
        }
    }
    if (zeroed)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d workgroup variable%s written without %s zero initializer "
                           "(workgroup memory starts undefined; one would need shaderZeroInitializeWorkgroupMemory)", zeroed,
                           zeroed == 1 ? "" : "s", zeroed == 1 ? "its" : "their");
    return GPUCOMPILE_OK;
}

/* A pointer into workgroup memory as its global plus sum(index * scale) plus bytes. */
typedef struct gpucompile_vulkan__addr {
    LLVMValueRef global, index[8];
    long long scale[8], bytes;
    int n;
} gpucompile_vulkan__addr;

GPUCOMPILE__PRIVATE int gpucompile_vulkan__decompose(LLVMTargetDataRef dl, LLVMValueRef p, gpucompile_vulkan__addr *a, int depth) {
    LLVMTypeRef t;
    int k, n;
    if (LLVMIsAGlobalVariable(p)) { a->global = p; return 1; }
    if (depth > 8 || !(LLVMIsAGetElementPtrInst(p) || (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))) return 0;
    t = LLVMGetGEPSourceElementType(p);
    n = LLVMGetNumOperands(p);
    for (k = 1; k < n; k++) {
        LLVMValueRef ix = LLVMGetOperand(p, (unsigned)k);
        long long stride;
        if (k > 1) {
            if (LLVMGetTypeKind(t) != LLVMArrayTypeKind) return 0; /* into a struct: not rebuilt */
            t = LLVMGetElementType(t);
        }
        stride = (long long)LLVMABISizeOfType(dl, t);
        if (LLVMIsAConstantInt(ix)) a->bytes += LLVMConstIntGetSExtValue(ix) * stride;
        else {
            if (a->n == 8) return 0;
            a->index[a->n] = ix;
            a->scale[a->n++] = stride;
        }
    }
    return gpucompile_vulkan__decompose(dl, LLVMGetOperand(p, 0), a, depth + 1);
}

/* A pointer into workgroup memory rebuilt before instruction at as one typed getelementptr off
   its global (`gep [64 x float], @tile, 0, i + 32`); NULL when it is not a whole number of the
   array's elements off the global. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile_vulkan__rebuild(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef at) {
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(job->module);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(job->context), i32 = LLVMInt32TypeInContext(job->context), it, gt;
    gpucompile_vulkan__addr a;
    LLVMValueRef idx[2], sum, narrow[8];
    long long es, c;
    int i, n32 = 1;
    memset(&a, 0, sizeof a);
    if (!gpucompile_vulkan__decompose(dl, p, &a, 0)) return NULL;
    gt = LLVMGlobalGetValueType(a.global);
    if (LLVMGetTypeKind(gt) != LLVMArrayTypeKind) return NULL;
    es = (long long)LLVMABISizeOfType(dl, LLVMGetElementType(gt));
    if (es <= 0 || a.bytes % es) return NULL;
    for (i = 0; i < a.n; i++) {
        LLVMValueRef v = a.index[i];
        if (a.scale[i] % es) return NULL;
        /* 32-bit indices where they were 32-bit before the optimizer widened them: a 64-bit
           index needs the Int64 capability, which a target may not allow */
        if (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v)) v = LLVMGetOperand(v, 0);
        narrow[i] = v;
        n32 &= LLVMTypeOf(v) == i32;
    }
    c = a.bytes / es;
    n32 &= c >= -2147483647LL && c <= 2147483647LL;
    it = n32 ? i32 : i64;
    LLVMPositionBuilderBefore(b, at);
    sum = LLVMConstInt(it, (unsigned long long)c, 1);
    for (i = 0; i < a.n; i++) {
        LLVMValueRef v = n32 ? narrow[i] : LLVMBuildIntCast2(b, a.index[i], i64, 1, "");
        if (a.scale[i] != es) v = LLVMBuildMul(b, v, LLVMConstInt(it, (unsigned long long)(a.scale[i] / es), 1), "");
        sum = i == 0 && a.bytes == 0 ? v : LLVMBuildAdd(b, sum, v, "");
    }
    /* all constant: frozen, or the builder folds the getelementptr into the constant it replaces */
    if (!a.n) sum = LLVMBuildFreeze(b, sum, "");
    idx[0] = LLVMConstInt(it, 0, 0);
    idx[1] = sum;
    return LLVMBuildGEP2(b, gt, a.global, idx, 2, "");
}

/* Does the getelementptr have a 64-bit index? */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__wide(LLVMValueRef g) {
    int k, n = LLVMGetNumOperands(g);
    for (k = 1; k < n; k++)
        if (LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(g, (unsigned)k))) > 32) return 1;
    return 0;
}

/* A constant address in the push-constant block (instcombine's `gep i8, @pc, i64 4`) as the
   typed field address `gep %Block, @pc, i32 0, i32 1`: LLVM 22 gives the byte form a 64-bit
   index, which needs the Int64 capability. NULL when it is not the start of a field. */
GPUCOMPILE__PRIVATE LLVMValueRef gpucompile_vulkan__push_field(gpucompile_job *job, LLVMValueRef p) {
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(job->module);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(job->context), st;
    gpucompile_vulkan__addr a;
    LLVMValueRef idx[2];
    unsigned f, nf;
    memset(&a, 0, sizeof a);
    if (!gpucompile_vulkan__decompose(dl, p, &a, 0) || a.n || !gpucompile_vulkan__wide(p)) return NULL;
    st = LLVMGlobalGetValueType(a.global);
    if (LLVMGetTypeKind(st) != LLVMStructTypeKind) return NULL;
    nf = LLVMCountStructElementTypes(st);
    for (f = 0; f < nf; f++)
        if ((long long)LLVMOffsetOfElement(dl, st, f) == a.bytes) break;
    if (f == nf) return NULL;
    idx[0] = LLVMConstInt(i32, 0, 0);
    idx[1] = LLVMConstInt(i32, f, 0);
    return LLVMConstInBoundsGEP2(st, a.global, idx, 2);
}

/* Push-constant addresses with 64-bit indices as typed field addresses (push_field): 1 when
   one was rewritten. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__push(gpucompile_job *job, LLVMValueRef in) {
    LLVMValueRef f;
    int k, n = LLVMGetNumOperands(in), done = 0;
    if (LLVMIsAGetElementPtrInst(in)) {
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(in)) != 13 || !(f = gpucompile_vulkan__push_field(job, in))) return 0;
        LLVMReplaceAllUsesWith(in, f);
        LLVMInstructionEraseFromParent(in);
        return 1;
    }
    for (k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(in, (unsigned)k);
        if (!LLVMIsAConstantExpr(op) || LLVMGetConstOpcode(op) != LLVMGetElementPtr || LLVMGetPointerAddressSpace(LLVMTypeOf(op)) != 13) continue;
        if (!(f = gpucompile_vulkan__push_field(job, op))) continue;
        LLVMSetOperand(in, (unsigned)k, f);
        done = 1;
    }
    return done;
}

/* Workgroup memory addressed in a shape LLVM 22 crashes on ("SPIRV legalize bitcast"), rebuilt
   (rebuild): a getelementptr off another one (unrolling and instcombine make `gep i8, (gep
   float, @tile, i), 128`), and a constant getelementptr as an operand (instcombine's `load (gep
   i8, @tile, 4)`) outside the entry block. 1 rebuilt, 0 nothing to do, -1 cannot. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__workgroup(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef in, int in_entry) {
    LLVMValueRef base, ng = NULL;
    int k, n = LLVMGetNumOperands(in), done = 0;
    if (LLVMIsAGetElementPtrInst(in)) {
        base = LLVMGetOperand(in, 0);
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(in)) != 3 || (LLVMIsAGlobalVariable(base) && !gpucompile_vulkan__wide(in))) return 0;
        if (LLVMIsAGlobalVariable(base) && !(ng = gpucompile_vulkan__rebuild(job, b, in, in))) return 0; /* only narrower, if it can */
        if (!LLVMIsAGlobalVariable(base) && !(ng = gpucompile_vulkan__rebuild(job, b, in, in))) return -1;
        LLVMReplaceAllUsesWith(in, ng);
        LLVMInstructionEraseFromParent(in);
        while (LLVMIsAGetElementPtrInst(base) && !LLVMGetFirstUse(base)) { /* the chain's rest, now dead */
            LLVMValueRef next = LLVMGetOperand(base, 0);
            LLVMInstructionEraseFromParent(base);
            base = next;
        }
        return 1;
    }
    if (in_entry) return 0;
    for (k = 0; k < n; k++) {
        LLVMValueRef op = LLVMGetOperand(in, (unsigned)k);
        if (!LLVMIsAConstantExpr(op) || LLVMGetConstOpcode(op) != LLVMGetElementPtr || LLVMGetPointerAddressSpace(LLVMTypeOf(op)) != 3) continue;
        if (LLVMIsAPHINode(in) || !(ng = gpucompile_vulkan__rebuild(job, b, op, in))) return -1;
        LLVMSetOperand(in, (unsigned)k, ng);
        done = 1;
    }
    return done;
}

/* LLVM's diagnostics in object's private context: errors are the job's. */
typedef struct gpucompile_vulkan__diag { gpucompile_job *job; int failed; } gpucompile_vulkan__diag;
GPUCOMPILE__PRIVATE void gpucompile_vulkan__diag_handler(LLVMDiagnosticInfoRef di, void *user) {
    gpucompile_vulkan__diag *d = (gpucompile_vulkan__diag *)user;
    char *msg;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError) return;
    msg = LLVMGetDiagInfoDescription(di);
    gpucompile_job_log(d->job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_LLVM, "llvm", "%s", msg);
    LLVMDisposeMessage(msg);
    d->failed = 1;
}

/* The module's SPIR-V words beside the assembly text the core emits (format isa): from a copy
   in a context and target machine of its own, since LLVM 22's SPIR-V code generator, run twice
   in one context, crashes. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__object(gpucompile_job *job, LLVMMemoryBufferRef *out) {
    static const LLVMCodeGenOptLevel levels[4] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess, LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
    const char *triple = gpucompile_target_triple(job->target);
    LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(job->module);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = NULL;
    LLVMTargetRef t = NULL;
    LLVMTargetMachineRef tm = NULL;
    gpucompile_vulkan__diag d;
    gpucompile_result r = GPUCOMPILE_OK;
    char *msg = NULL;
    d.job = job;
    d.failed = 0;
    *out = NULL;
    LLVMContextSetDiagnosticHandler(ctx, gpucompile_vulkan__diag_handler, &d);
    if (!bc || LLVMParseBitcodeInContext2(ctx, bc, &mod)) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "the module cannot be copied");
    else if (LLVMGetTargetFromTriple(triple, &t, &msg)) r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "%s", msg ? msg : "no SPIR-V target");
    else if (!(tm = LLVMCreateTargetMachine(t, triple, "", job->features ? job->features : "", levels[job->target->O & 3], LLVMRelocDefault,
                                            LLVMCodeModelDefault)))
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "no target machine for %s", triple);
    else if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, LLVMObjectFile, &msg, out) || d.failed) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "code generation failed: %s", msg ? msg : "");
        if (*out) LLVMDisposeMemoryBuffer(*out);
        *out = NULL;
    }
    if (msg) LLVMDisposeMessage(msg);
    if (tm) LLVMDisposeTargetMachine(tm);
    if (mod) LLVMDisposeModule(mod);
    if (bc) LLVMDisposeMemoryBuffer(bc);
    LLVMContextDispose(ctx);
    return r;
}

/* After optimization: the rewrites, then the checks again on what the optimizer made. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__pre_emit(gpucompile_job *job) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(job->context);
    LLVMValueRef fn, in, next;
    LLVMBasicBlockRef bb;
    gpucompile_result r = GPUCOMPILE_OK;
    int flattened = 0, hoisted = 0, fields = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn && r == GPUCOMPILE_OK; fn = LLVMGetNextFunction(fn)) {
        LLVMBasicBlockRef entry = LLVMIsDeclaration(fn) ? NULL : LLVMGetEntryBasicBlock(fn);
        for (bb = entry; bb && r == GPUCOMPILE_OK; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in && r == GPUCOMPILE_OK; in = next) {
                next = LLVMGetNextInstruction(in);
                int f = gpucompile_vulkan__workgroup(job, b, in, bb == entry);
                if (f < 0) {
                    r = gpucompile_vulkan__refuse(job, in, "workgroup memory addressed in a shape LLVM 22's code generator crashes on (a "
                                                  "getelementptr off another one, or a constant one outside the entry block) that is not "
                                                  "a whole number of its array's elements");
                    break;
                }
                flattened += f > 0;
                if (f > 0) continue;
                if (LLVMIsAGetElementPtrInst(in)) {
                    fields += gpucompile_vulkan__push(job, in); /* erased when rewritten */
                    continue;
                }
                fields += gpucompile_vulkan__push(job, in);
                if (LLVMIsALoadInst(in) && bb != entry && LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0))) == 13) {
                    /* a push-constant load outside the entry block crashes LLVM 22 (-O1 and up):
                       it reads constant memory, so it moves there as it is */
                    LLVMValueRef p = LLVMGetOperand(in, 0);
                    int k, n = LLVMGetNumOperands(p), movable = LLVMIsAConstant(p) != NULL;
                    if (LLVMIsAGetElementPtrInst(p))
                        for (movable = 1, k = 0; k < n; k++) movable &= LLVMIsAConstant(LLVMGetOperand(p, (unsigned)k)) != NULL;
                    if (!movable) {
                        r = gpucompile_vulkan__refuse(job, in, "a push-constant load outside the entry block at a computed address (LLVM 22's "
                                                      "code generator crashes on it)");
                        break;
                    }
                    if (LLVMIsAGetElementPtrInst(p) && LLVMGetInstructionParent(p) != entry) {
                        if (p == next) next = LLVMGetNextInstruction(p);
                        LLVMInstructionRemoveFromParent(p);
                        LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
                        LLVMInsertIntoBuilder(b, p);
                    }
                    LLVMInstructionRemoveFromParent(in);
                    LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
                    LLVMInsertIntoBuilder(b, in);
                    hoisted++;
                }
            }
    }
    LLVMDisposeBuilder(b);
    if (r != GPUCOMPILE_OK) return r;
    if (flattened)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d address%s into workgroup memory rebuilt as one "
                           "typed getelementptr (LLVM 22 crashes on the optimizer's byte offsets and constant ones outside the entry block)", flattened, flattened == 1 ? "" : "es");
    if (fields)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d push-constant address%s written as typed field "
                           "addresses (the optimizer's byte offsets would need Int64)", fields, fields == 1 ? "" : "es");
    if (hoisted)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d push-constant load%s moved into the entry block "
                           "(LLVM 22 crashes on them elsewhere)", hoisted, hoisted == 1 ? "" : "s");
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn))
        for (bb = LLVMIsDeclaration(fn) ? NULL : LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                const char *why = gpucompile_vulkan__bad_instruction(in);
                if (why) return gpucompile_vulkan__refuse(job, in, why);
            }
    if (job->format == GPUCOMPILE_FORMAT_ISA) { /* isa: the module's words too, for finish's repairs */
        LLVMMemoryBufferRef obj = NULL;
        if ((r = gpucompile_vulkan__object(job, &obj)) != GPUCOMPILE_OK) return r;
        job->backend_data = obj;
    }
    return r;
}

/* ==== [section: vulkan repair] ===========================================================
   What LLVM 22 writes wrong, repaired on the module's words (no LLVM), and mirrored on its
   assembly text (format isa: LLVM's text has one line per instruction, in the same order). */
enum {
    GPUCOMPILE_VULKAN__OP_NAME = 5, GPUCOMPILE_VULKAN__OP_EXTENSION = 10, GPUCOMPILE_VULKAN__OP_CAPABILITY = 17,
    GPUCOMPILE_VULKAN__OP_TYPE_INT = 21, GPUCOMPILE_VULKAN__OP_TYPE_ARRAY = 28, GPUCOMPILE_VULKAN__OP_TYPE_POINTER = 32,
    GPUCOMPILE_VULKAN__OP_CONSTANT = 43, GPUCOMPILE_VULKAN__OP_CONSTANT_NULL = 46, GPUCOMPILE_VULKAN__OP_VARIABLE = 59,
    GPUCOMPILE_VULKAN__OP_CONTROL_BARRIER = 224
};

/* Where an instruction's result id is: 0 none, 1 word 1, 2 word 2 (word 1 its type). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__result(uint32_t op) {
    switch (op) {
    case 0: case 2: case 3: case 4: case 5: case 6: case 8: case 10: case 14: case 15: case 16: case 17: case 39: case 56: case 62:
    case 63: case 64: case 71: case 72: case 74: case 75: case 224: case 225: case 228: case 246: case 247: case 249: case 250:
    case 251: case 252: case 253: case 254: case 255: case 256: case 257: case 317: case 319: case 330: case 331: case 332:
    case 4416: case 5632: case 5633:
        return 0;
    case 7: case 11: case 73: case 248: case 322: case 327: case 4417: case 4456: case 4472: case 5341:
        return 1;
    default:
        return op >= 19 && op <= 38 ? 1 : 2;
    }
}

/* Annotations and names: they follow their target, they do not keep it alive. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__weak(uint32_t op) {
    return op == 5 || op == 6 || op == 71 || op == 72 || op == 332 || op == 5632 || op == 5633;
}

/* The words of instruction w[0..wc) that are ids it uses (its result id left out): exact for
   what LLVM writes in the module's header and type section, every word for the rest (a literal
   taken for an id keeps something alive: never the wrong way). Returns their positions. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__uses(const uint32_t *w, uint32_t wc, uint32_t pos[], int max) {
    uint32_t op = w[0] & 0xffff, i, from = 1, to = wc;
    int n = 0, rk = gpucompile_vulkan__result(op);
    switch (op) {
    case 3: case 4: case 7: case 10: case 11: case 14: case 16: case 17: case 21: case 22: case 330: case 8: case 317:
        return 0;
    case 15: /* OpEntryPoint: model, function, name, interface */
        if (wc > 2) pos[n++] = 2;
        for (from = 3; from < wc && (w[from] >> 24) != 0 && (w[from] & 0xff0000) && (w[from] & 0xff00) && (w[from] & 0xff); from++) {}
        from++;
        break;
    case 23: to = wc > 3 ? 3 : wc; break;                 /* OpTypeVector: component type, count */
    case 32: from = 3; break;                             /* OpTypePointer: storage class, type */
    case 59: to = wc > 3 ? 3 : wc; from = 1;              /* OpVariable: type, result, class, [init] */
        if (wc > 4 && n < max) pos[n++] = 4;
        break;
    case 43: to = wc > 2 ? 2 : wc; break;                 /* OpConstant: type, result, literal */
    case 61: to = wc > 4 ? 4 : wc; break;                 /* OpLoad: type, result, pointer, [access] */
    case 62: to = wc > 3 ? 3 : wc; break;                 /* OpStore: pointer, object, [access] */
    case 81: to = wc > 4 ? 4 : wc; break;                 /* OpCompositeExtract: literal indices */
    case 82: to = wc > 5 ? 5 : wc; break;                 /* OpCompositeInsert */
    case 79: to = wc > 5 ? 5 : wc; break;                 /* OpVectorShuffle: literal components */
    case 54: if (wc > 4) pos[n++] = 4; to = wc > 2 ? 2 : wc; break; /* OpFunction: control, type */
    case 247: to = wc > 2 ? 2 : wc; break;                /* OpSelectionMerge */
    case 246: to = wc > 3 ? 3 : wc; break;                /* OpLoopMerge */
    case 250: to = wc > 4 ? 4 : wc; break;                /* OpBranchConditional: weights */
    default: break;
    }
    for (i = from; i < to && n < max; i++)
        if (!((rk == 1 && i == 1) || (rk == 2 && i == 2))) pos[n++] = i;
    return n;
}

typedef struct gpucompile_vulkan__insert { size_t after; uint32_t w[4]; } gpucompile_vulkan__insert;

/* The module being repaired: its words (a copy), its instructions, and what changes. */
typedef struct gpucompile_vulkan__mod {
    gpucompile_job *job;
    uint32_t *w, *orig;      /* the words, and as LLVM wrote them */
    size_t n;                /* words */
    size_t *at;              /* where instruction i starts */
    size_t count;            /* instructions */
    unsigned char *del, *changed;
    size_t *def;             /* instruction defining id + 1 (0: none) */
    uint32_t *used;          /* per id: how many instructions use it (weak ones left out) */
    gpucompile_vulkan__insert ins[16];
    int nins;
} gpucompile_vulkan__mod;

#define GPUCOMPILE_VULKAN__OP(m, i) ((m)->w[(m)->at[i]] & 0xffff)
#define GPUCOMPILE_VULKAN__WC(m, i) ((m)->w[(m)->at[i]] >> 16)

GPUCOMPILE__PRIVATE void gpucompile_vulkan__count(gpucompile_vulkan__mod *m, size_t i, int delta) {
    uint32_t pos[64];
    const uint32_t *w = m->w + m->at[i];
    int k, n;
    if (gpucompile_vulkan__weak(w[0] & 0xffff)) return;
    n = gpucompile_vulkan__uses(w, w[0] >> 16, pos, 64);
    if (n == 64) { /* a long instruction: every word */
        for (k = 1; k < (int)(w[0] >> 16); k++)
            if (w[k] < m->w[3]) m->used[w[k]] += (uint32_t)delta;
        return;
    }
    for (k = 0; k < n; k++)
        if (w[pos[k]] < m->w[3]) m->used[w[pos[k]]] += (uint32_t)delta;
}

/* Reads the words: every instruction's word count fits, the header is SPIR-V's. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__read(gpucompile_vulkan__mod *m, const void *data, size_t size) {
    size_t i, bound, k = 0;
    gpucompile_job *job = m->job;
    if (size < 20 || size % 4) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote no SPIR-V module (%lu bytes)", (unsigned long)size);
    m->n = size / 4;
    m->w = (uint32_t *)gpucompile_job_alloc(job, size + 4 * 4 * 16);
    m->orig = (uint32_t *)gpucompile_job_alloc(job, size);
    if (!m->w || !m->orig) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memcpy(m->w, data, size);
    memcpy(m->orig, data, size);
    bound = m->w[3];
    if (m->w[0] != 0x07230203u || bound > 0x1000000) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote no SPIR-V module");
    for (i = 5; i < m->n; i += m->w[i] >> 16, k++)
        if ((m->w[i] >> 16) == 0 || i + (m->w[i] >> 16) > m->n) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote a malformed SPIR-V module");
    m->count = k;
    m->at = (size_t *)gpucompile_job_alloc(job, (k + 1) * sizeof *m->at);
    m->del = (unsigned char *)gpucompile_job_alloc(job, 2 * (k + 1));
    m->def = (size_t *)gpucompile_job_alloc(job, (bound + 32) * sizeof *m->def);
    m->used = (uint32_t *)gpucompile_job_alloc(job, (bound + 32) * sizeof *m->used);
    if (!m->at || !m->del || !m->def || !m->used) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    m->changed = m->del + k + 1;
    memset(m->del, 0, 2 * (k + 1));
    memset(m->def, 0, (bound + 32) * sizeof *m->def);
    memset(m->used, 0, (bound + 32) * sizeof *m->used);
    for (i = 5, k = 0; i < m->n; i += m->w[i] >> 16, k++) {
        int rk = gpucompile_vulkan__result(m->w[i] & 0xffff);
        m->at[k] = i;
        if (rk && (m->w[i] >> 16) > (uint32_t)rk && m->w[i + (size_t)rk] < bound) m->def[m->w[i + (size_t)rk]] = k + 1;
    }
    for (k = 0; k < m->count; k++) gpucompile_vulkan__count(m, k, 1);
    return GPUCOMPILE_OK;
}

/* The instruction that defines id, or (size_t)-1. */
GPUCOMPILE__PRIVATE size_t gpucompile_vulkan__def(const gpucompile_vulkan__mod *m, uint32_t id) {
    return id < m->w[3] && m->def[id] && !m->del[m->def[id] - 1] ? m->def[id] - 1 : (size_t)-1;
}

GPUCOMPILE__PRIVATE void gpucompile_vulkan__delete(gpucompile_vulkan__mod *m, size_t i) {
    if (m->del[i]) return;
    gpucompile_vulkan__count(m, i, -1);
    m->del[i] = 1;
}

/* An OpConstant of type type and value v: one already there, or a new one after instruction after. */
GPUCOMPILE__PRIVATE uint32_t gpucompile_vulkan__constant(gpucompile_vulkan__mod *m, uint32_t type, uint32_t v, size_t after) {
    size_t i;
    gpucompile_vulkan__insert *x;
    for (i = 0; i < m->count; i++)
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CONSTANT && GPUCOMPILE_VULKAN__WC(m, i) == 4 &&
            m->w[m->at[i] + 1] == type && m->w[m->at[i] + 3] == v)
            return m->w[m->at[i] + 2];
    for (i = 0; i < (size_t)m->nins; i++)
        if (m->ins[i].w[1] == type && m->ins[i].w[3] == v) return m->ins[i].w[2];
    if (m->nins == 16) return 0;
    x = &m->ins[m->nins++];
    x->after = after;
    x->w[0] = 4u << 16 | GPUCOMPILE_VULKAN__OP_CONSTANT;
    x->w[1] = type;
    x->w[2] = m->w[3]++; /* a new id */
    x->w[3] = v;
    return x->w[2];
}

/* Sets word k of instruction i to id (its old id's count goes down, the new one's up). */
GPUCOMPILE__PRIVATE void gpucompile_vulkan__set(gpucompile_vulkan__mod *m, size_t i, size_t k, uint32_t id) {
    gpucompile_vulkan__count(m, i, -1);
    m->w[m->at[i] + k] = id;
    gpucompile_vulkan__count(m, i, 1);
    m->changed[i] = 1;
}

/* OpControlBarrier's semantics without a storage class (LLVM 22 writes 0x10 for
   llvm.spv.group.memory.barrier.with.group.sync): AcquireRelease | UniformMemory |
   WorkgroupMemory (0x148), or workgroup memory is not made visible (wrong reductions). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__fix_barriers(gpucompile_vulkan__mod *m) {
    size_t i, d;
    int fixed = 0;
    for (i = 0; i < m->count; i++) {
        uint32_t id, v;
        if (m->del[i] || GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_CONTROL_BARRIER || GPUCOMPILE_VULKAN__WC(m, i) != 4) continue;
        d = gpucompile_vulkan__def(m, m->w[m->at[i] + 3]);
        if (d == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, d) != GPUCOMPILE_VULKAN__OP_CONSTANT || GPUCOMPILE_VULKAN__WC(m, d) != 4) continue;
        v = m->w[m->at[d] + 3];
        if (v & 0x1FC0u) continue; /* names a storage class: as written */
        if (!(id = gpucompile_vulkan__constant(m, m->w[m->at[d] + 1], 0x148, d))) continue;
        gpucompile_vulkan__set(m, i, 3, id);
        fixed++;
    }
    return fixed;
}

/* monotonic atomics: LLVM 22 writes a 32-bit OpConstantNull for the scope and semantics, and
   the access chain to the element then indexes a struct with it (spirv-val refuses). A
   struct index and semantics become the constant 0, a memory scope Device (1), an execution
   scope Workgroup (2). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__fix_nulls(gpucompile_vulkan__mod *m) {
    size_t i, k, d;
    int fixed = 0;
    for (i = 0; i < m->count; i++) {
        uint32_t op = GPUCOMPILE_VULKAN__OP(m, i), wc = GPUCOMPILE_VULKAN__WC(m, i), scope = 0, exec = 0, first = 0;
        int done = 0;
        if (m->del[i]) continue;
        if (op == 65 || op == 66 || op == 67) first = 4;                     /* access chains: the indices */
        else if ((op >= 227 && op <= 242 && op != 228) || op == 318 || op == 5614 || op == 5615 || op == 6035) { first = 4; scope = 4; }
        else if (op == 228 || op == 319) { first = 2; scope = 2; }            /* OpAtomicStore, OpAtomicFlagClear */
        else if (op == 224) { first = 1; exec = 1; scope = 2; }                /* OpControlBarrier */
        else if (op == 225) { first = 1; scope = 1; }                          /* OpMemoryBarrier */
        else continue;
        for (k = first; k < wc; k++) {
            uint32_t id, want;
            d = gpucompile_vulkan__def(m, m->w[m->at[i] + k]);
            if (d == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, d) != GPUCOMPILE_VULKAN__OP_CONSTANT_NULL) continue;
            {
                size_t t = gpucompile_vulkan__def(m, m->w[m->at[d] + 1]);
                if (t == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, t) != GPUCOMPILE_VULKAN__OP_TYPE_INT || m->w[m->at[t] + 2] != 32) continue;
            }
            want = k == exec && exec ? 2 : k == scope && scope ? 1 : 0;
            if (!(id = gpucompile_vulkan__constant(m, m->w[m->at[d] + 1], want, d))) continue;
            gpucompile_vulkan__set(m, i, k, id);
            done = 1;
        }
        fixed += done;
    }
    return fixed;
}

/* Every resource's name string (llvm.spv.resource.handlefrombinding's last argument) stays in
   the module as an unused Function variable of i8s, and declares Int8. They go, with the
   constants and types only they used, and Int8 when nothing else has an 8-bit integer. */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__fix_names(gpucompile_vulkan__mod *m, int *int8) {
    uint32_t *work, pos[64];
    size_t i, nwork = 0, cap = m->count + 1;
    int removed = 0, k, n;
    *int8 = 0;
    if (!(work = (uint32_t *)gpucompile_job_alloc(m->job, cap * 4 * sizeof *work))) return -1;
    for (i = 0; i < m->count; i++) {
        size_t p, a, e;
        const uint32_t *w = m->w + m->at[i];
        if (m->del[i] || (w[0] & 0xffff) != GPUCOMPILE_VULKAN__OP_VARIABLE || (w[0] >> 16) != 5 || w[3] != 7 || m->used[w[2]]) continue;
        p = gpucompile_vulkan__def(m, w[1]);
        a = p == (size_t)-1 ? p : gpucompile_vulkan__def(m, m->w[m->at[p] + 3]);
        e = a == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, a) != GPUCOMPILE_VULKAN__OP_TYPE_ARRAY ? (size_t)-1 : gpucompile_vulkan__def(m, m->w[m->at[a] + 2]);
        if (e == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, e) != GPUCOMPILE_VULKAN__OP_TYPE_INT || m->w[m->at[e] + 2] != 8) continue;
        gpucompile_vulkan__delete(m, i);
        removed++;
        work[nwork++] = w[1];
        work[nwork++] = w[4];
    }
    while (nwork) { /* what only they used */
        uint32_t id = work[--nwork];
        size_t d = gpucompile_vulkan__def(m, id);
        uint32_t op;
        if (d == (size_t)-1 || m->used[id]) continue;
        op = GPUCOMPILE_VULKAN__OP(m, d);
        if (!((op >= 19 && op <= 38) || (op >= 41 && op <= 46))) continue;
        gpucompile_vulkan__delete(m, d);
        n = gpucompile_vulkan__uses(m->w + m->at[d], GPUCOMPILE_VULKAN__WC(m, d), pos, 64);
        for (k = 0; k < n && nwork < cap * 4; k++) work[nwork++] = m->w[m->at[d] + pos[k]];
    }
    for (i = 0; i < m->count; i++) /* the names and decorations of what went */
        if (!m->del[i] && gpucompile_vulkan__weak(GPUCOMPILE_VULKAN__OP(m, i)) && GPUCOMPILE_VULKAN__WC(m, i) > 1) {
            uint32_t t = m->w[m->at[i] + 1];
            if (t < m->w[3] && m->def[t] && m->del[m->def[t] - 1]) m->del[i] = 1;
        }
    for (i = 0; i < m->count; i++)
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_TYPE_INT && m->w[m->at[i] + 2] == 8) *int8 = 1;
    if (!*int8 && removed)
        for (i = 0; i < m->count; i++)
            if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY && m->w[m->at[i] + 1] == 39) {
                m->del[i] = 1;
                *int8 = -1; /* removed */
            }
    gpucompile_job_free(m->job, work);
    return removed;
}

/* Every capability and extension the module declares must be one the target allows. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__check_env(gpucompile_vulkan__mod *m) {
    size_t i;
    for (i = 0; i < m->count; i++) {
        const uint32_t *w = m->w + m->at[i];
        uint32_t op = w[0] & 0xffff, wc = w[0] >> 16;
        if (m->del[i] || wc < 2) continue;
        if (op == GPUCOMPILE_VULKAN__OP_CAPABILITY) {
            const char *name = gpucompile_vulkan__cap_name(w[1]);
            if (!name)
                return gpucompile_job_fail(m->job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module needs SPIR-V capability %u, which gpucompile does not know", w[1]);
            if (!gpucompile_vulkan__allows(m->job->target, name))
                return gpucompile_job_fail(m->job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module needs the SPIR-V capability %s, which the target does not allow%s",
                                           name, m->job->target->upstream ? " (add it to #spirv.vce's capabilities)" : " (features = \"+...\" allows more)");
        }
        if (op == GPUCOMPILE_VULKAN__OP_EXTENSION) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(4 * (wc - 1) < 127 ? 4 * (wc - 1) : 127), (const char *)(w + 1));
            if (!gpucompile_vulkan__allows(m->job->target, name))
                return gpucompile_job_fail(m->job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module needs the SPIR-V extension %s, which the target does not allow%s",
                                           name, m->job->target->upstream ? " (add it to #spirv.vce's extensions)" : " (features = \"+...\" allows more)");
        }
    }
    return GPUCOMPILE_OK;
}

/* The repaired words, header's bound updated, into *out (job memory). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__words(gpucompile_vulkan__mod *m, unsigned char **out, size_t *size) {
    uint32_t *o = (uint32_t *)gpucompile_job_alloc(m->job, (m->n + 4 * (size_t)m->nins) * 4);
    size_t i, n = 5;
    int k;
    if (!o) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memcpy(o, m->w, 5 * 4);
    for (i = 0; i < m->count; i++) {
        if (!m->del[i]) {
            memcpy(o + n, m->w + m->at[i], GPUCOMPILE_VULKAN__WC(m, i) * 4);
            n += GPUCOMPILE_VULKAN__WC(m, i);
        }
        for (k = 0; k < m->nins; k++)
            if (m->ins[k].after == i) { memcpy(o + n, m->ins[k].w, 16); n += 4; }
    }
    *out = (unsigned char *)o;
    *size = n * 4;
    return GPUCOMPILE_OK;
}

/* The assembly text with the same changes: LLVM's lines, one per instruction in order (comment
   and empty lines aside); a changed one is written again from its tokens, the changed ids put in. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__text(gpucompile_vulkan__mod *m, const char *text, size_t len, unsigned char **out, size_t *size) {
    gpucompile_buf b;
    size_t i = 0, p = 0;
    int k;
    memset(&b, 0, sizeof b);
    b.a = &m->job->options->allocator;
    while (p < len) {
        size_t e = p, s;
        while (e < len && text[e] != '\n') e++;
        for (s = p; s < e && (text[s] == ' ' || text[s] == '\t'); s++) {}
        if (s == e || text[s] == ';') { /* not an instruction: kept */
            gpucompile_buf_add(&b, text + p, e - p);
            gpucompile_buf_str(&b, "\n");
        } else {
            if (i >= m->count) break;
            if (m->changed[i] && !m->del[i]) {
                const uint32_t *w = m->w + m->at[i], *ow = m->orig + m->at[i];
                int rk = gpucompile_vulkan__result(w[0] & 0xffff);
                uint32_t wc = w[0] >> 16, j, ntok = 0;
                const char *tok[64];
                size_t tl[64], q = s, skip = rk ? 3 : 1; /* "%r = OpX" or "OpX" */
                size_t stop = e;
                for (q = s; q < e && text[q] != ';'; q++) {}
                stop = q;
                for (q = s; q < stop && ntok < 64;) {
                    while (q < stop && (text[q] == ' ' || text[q] == '\t')) q++;
                    if (q >= stop) break;
                    tok[ntok] = text + q;
                    while (q < stop && text[q] != ' ' && text[q] != '\t') q++;
                    tl[ntok] = (size_t)(text + q - tok[ntok]);
                    ntok++;
                }
                if (ntok != skip + wc - 1 - (rk ? 1 : 0)) {
                    gpucompile_free(b.a, b.data);
                    return gpucompile_job_fail(m->job, GPUCOMPILE_ERROR_LLVM, "the assembly text does not match the module (instruction %lu)", (unsigned long)i);
                }
                gpucompile_buf_str(&b, "\t");
                for (j = 0; j < skip; j++) gpucompile_buf_printf(&b, "%.*s ", (int)tl[j], tok[j]);
                for (j = 1; j < wc; j++) {
                    size_t t;
                    if (rk && j == (uint32_t)rk) continue; /* the result id: first in the text */
                    t = skip + j - 1 - (rk && j > (uint32_t)rk ? 1 : 0);
                    if (w[j] != ow[j]) gpucompile_buf_printf(&b, "%%%u", w[j]);
                    else gpucompile_buf_add(&b, tok[t], tl[t]);
                    if (j + 1 < wc) gpucompile_buf_str(&b, " ");
                }
                gpucompile_buf_str(&b, "\n");
            } else if (!m->del[i]) {
                gpucompile_buf_add(&b, text + p, e - p);
                gpucompile_buf_str(&b, "\n");
            }
            for (k = 0; k < m->nins; k++)
                if (m->ins[k].after == i) gpucompile_buf_printf(&b, "\t%%%u = OpConstant %%%u %u\n", m->ins[k].w[2], m->ins[k].w[1], m->ins[k].w[3]);
            i++;
        }
        p = e + 1;
    }
    if (i != m->count) {
        gpucompile_free(b.a, b.data);
        return gpucompile_job_fail(m->job, GPUCOMPILE_ERROR_LLVM, "the assembly text does not match the module (%lu of %lu instructions)",
                                   (unsigned long)i, (unsigned long)m->count);
    }
    if (b.oom) { gpucompile_free(b.a, b.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    *out = (unsigned char *)gpucompile_job_alloc(m->job, b.len + 1);
    if (!*out) { gpucompile_free(b.a, b.data); return GPUCOMPILE_ERROR_OUT_OF_MEMORY; }
    memcpy(*out, b.data, b.len + 1);
    *size = b.len;
    gpucompile_free(b.a, b.data);
    return GPUCOMPILE_OK;
}

/* ==== [section: vulkan objects] ==========================================================
   The repaired module, its kernels' reflection as MLIR kernel metadata, the backend table. */

/* MLIR's metadata dictionary entries of a kernel (sorted by name, as the core prints them). */
GPUCOMPILE__PRIVATE void gpucompile_vulkan__metadata(const gpucompile_vulkan_kernel *k, gpucompile_buf *b) {
    int i;
    if (k->num_bindings) {
        gpucompile_buf_str(b, "bindings = [");
        for (i = 0; i < k->num_bindings; i++)
            gpucompile_buf_printf(b, "%s{binding = %u : i32, read_only = %s, set = %u : i32, stride = %u : i32}", i ? ", " : "",
                                  (unsigned)k->bindings[i].binding, k->bindings[i].read_only ? "true" : "false", (unsigned)k->bindings[i].set,
                                  (unsigned)k->bindings[i].stride);
        gpucompile_buf_str(b, "], ");
    }
    if (k->num_push) {
        gpucompile_buf_printf(b, "push_constant_bytes = %u : i32, push_constants = [", (unsigned)k->push_size);
        for (i = 0; i < k->num_push; i++)
            gpucompile_buf_printf(b, "%s{offset = %u : i32, size = %u : i32}", i ? ", " : "", (unsigned)k->push[i].offset, (unsigned)k->push[i].size);
        gpucompile_buf_str(b, "], ");
    }
    gpucompile_buf_printf(b, "workgroup_size = array<i32: %u, %u, %u>", (unsigned)k->local_size[0], (unsigned)k->local_size[1],
                          (unsigned)k->local_size[2]);
}

/* Each kernel's reflection from the module's words into its metadata (a's memory). add: the
   kernels are added to o (an object read back) rather than looked up in it. */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__reflect_into(gpucompile_object *o, const void *words, size_t size, int add) {
    gpucompile_vulkan_kernel *ks;
    int n, i, j;
    gpucompile_result r = GPUCOMPILE_OK;
    ks = (gpucompile_vulkan_kernel *)gpucompile_alloc(&o->allocator, 64 * sizeof *ks);
    if (!ks) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    n = gpucompile_vulkan_reflect(words, size, ks, 64);
    if (n < 0) r = GPUCOMPILE_ERROR_INVALID_BINARY;
    if (n > 64) n = 64;
    for (i = 0; i < n && r == GPUCOMPILE_OK; i++) {
        gpucompile_kernel *k = NULL;
        gpucompile_buf b;
        if (add && (r = gpucompile_object_add_kernel(o, ks[i].name)) != GPUCOMPILE_OK) break;
        for (j = 0; j < o->num_kernels; j++)
            if (strcmp(o->kernels[j].name, ks[i].name) == 0) k = &o->kernels[j];
        if (!k) continue;
        memset(&b, 0, sizeof b);
        b.a = &o->allocator;
        gpucompile_vulkan__metadata(&ks[i], &b);
        if (b.oom) { r = GPUCOMPILE_ERROR_OUT_OF_MEMORY; break; }
        gpucompile_free(&o->allocator, k->metadata);
        k->metadata = b.data;
        k->shared_bytes = (int)ks[i].workgroup_bytes;
        if (add) k->num_params = 0;
    }
    gpucompile_free(&o->allocator, ks);
    if (add && r == GPUCOMPILE_OK) qsort(o->kernels, (size_t)o->num_kernels, sizeof *o->kernels, gpucompile_kernel_cmp);
    return r;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__finish_mod(gpucompile_job *job, gpucompile_format format, gpucompile_vulkan__mod *mp) {
    gpucompile_vulkan__mod m;
    LLVMMemoryBufferRef obj = NULL;
    gpucompile_result r;
    unsigned char *words = NULL;
    size_t nwords = 0;
    int barriers, nulls, names, int8;
    if (format == GPUCOMPILE_FORMAT_ISA) { /* the words of the same module (pre_emit), for the repairs */
        if (!(obj = (LLVMMemoryBufferRef)job->backend_data)) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "no module words for the assembly text");
    }
    memset(&m, 0, sizeof m);
    m.job = job;
    r = gpucompile_vulkan__read(&m, LLVMGetBufferStart(obj ? obj : job->emitted), LLVMGetBufferSize(obj ? obj : job->emitted));
    *mp = m; /* what read allocated, for finish to free */
    if (r != GPUCOMPILE_OK) return r;
    barriers = gpucompile_vulkan__fix_barriers(&m);
    nulls = gpucompile_vulkan__fix_nulls(&m);
    if ((names = gpucompile_vulkan__fix_names(&m, &int8)) < 0) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (barriers)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d OpControlBarrier%s given the WorkgroupMemory semantics "
                           "(0x148: AcquireRelease|UniformMemory|WorkgroupMemory; LLVM 22 writes none)", barriers, barriers == 1 ? "" : "s");
    if (nulls)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d instruction%s given constants for LLVM 22's "
                           "OpConstantNull (monotonic atomics: scope Device, semantics and struct index 0)", nulls, nulls == 1 ? "" : "s");
    if (names)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%d unused resource name string%s removed%s", names,
                           names == 1 ? "" : "s", int8 < 0 ? ", and the Int8 capability they alone needed" : "");
    if ((r = gpucompile_vulkan__check_env(&m)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_vulkan__words(&m, &words, &nwords)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_vulkan__reflect_into(job->object, words, nwords, 0)) != GPUCOMPILE_OK) {
        gpucompile_job_free(job, words);
        return r == GPUCOMPILE_ERROR_OUT_OF_MEMORY ? r : gpucompile_job_fail(job, r, "the repaired module cannot be read back");
    }
    if (format != GPUCOMPILE_FORMAT_ISA) {
        job->result_data = words;
        job->result_size = nwords;
        return GPUCOMPILE_OK;
    }
    gpucompile_job_free(job, words);
    return gpucompile_vulkan__text(&m, LLVMGetBufferStart(job->emitted), LLVMGetBufferSize(job->emitted), &job->result_data, &job->result_size);
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__finish(gpucompile_job *job, gpucompile_format format) {
    gpucompile_vulkan__mod m;
    gpucompile_result r;
    memset(&m, 0, sizeof m);
    r = gpucompile_vulkan__finish_mod(job, format, &m);
    gpucompile_job_free(job, m.w);
    gpucompile_job_free(job, m.orig);
    gpucompile_job_free(job, m.at);
    gpucompile_job_free(job, m.del);
    gpucompile_job_free(job, m.def);
    gpucompile_job_free(job, m.used);
    return r;
}

/* LLVM's SPIR-V code generator knows no processors (it would warn on stderr about "vulkan"). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__configure(gpucompile_job *job) {
    gpucompile_job_free(job, job->cpu);
    job->cpu = gpucompile_job_strdup(job, "");
    return job->cpu ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
}

GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__init(gpucompile_job *job) {
    job->backend_data = NULL;
    return GPUCOMPILE_OK;
}

GPUCOMPILE__PRIVATE void gpucompile_vulkan__release(gpucompile_job *job) {
    if (job->backend_data) LLVMDisposeMemoryBuffer((LLVMMemoryBufferRef)job->backend_data);
    job->backend_data = NULL;
}

/* Kernels of a module that did not come from a compile here (read back from a binary). */
GPUCOMPILE__PRIVATE gpucompile_result gpucompile_vulkan__find_kernels(gpucompile_object *obj) {
    if (obj->num_kernels || obj->format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK;
    return gpucompile_vulkan__reflect_into(obj, obj->data, obj->size, 1);
}

/* c, fast, cold, spir_func */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__cc_ok(unsigned cc) { return cc == 0 || cc == 8 || cc == 9 || cc == 75; }

#define GPUCOMPILE_VULKAN__ARCHES "spirv1.5,spirv1.6" /* the triples' architectures */

/* Run-time selection: the device "vulkan" takes a Vulkan shader module (a triple whose
   environment is vulkan: an OpenCL SPIR-V module is not one). */
GPUCOMPILE__PRIVATE int gpucompile_vulkan__select_score(const gpucompile_object *o, const char *device, const char **why) {
    if (strcmp(device, "vulkan") != 0) return -2;
    if (!o || o->format != GPUCOMPILE_FORMAT_BIN || !o->triple || !strstr(o->triple, "-vulkan")) return -1;
    *why = "Vulkan shader module";
    return 1;
}

GPUCOMPILE_DEF const gpucompile_backend *gpucompile_vulkan_backend(void) {
    static gpucompile_backend b;
    static const char *const kernel_metadata[8] = {NULL, "workgroup_memory_bytes", NULL, NULL, NULL, NULL, NULL, NULL};
    if (!b.name) {
        gpucompile_backend t;
        int i;
        memset(&t, 0, sizeof t);
        t.name = "vulkan";
        t.kind = GPUCOMPILE_TARGET_CUSTOM;
        t.attribute[0] = "gpu.vulkan";
        t.attribute[1] = "spirv.target_env";
        for (i = 0; i < 2; i++) {
            t.defaults[i].triple = "spirv1.6-unknown-vulkan1.3-compute";
            t.defaults[i].chip = "vulkan";
        }
        t.params[0] = "O,triple,chip,features,flags";
        t.params[1] = "triple,features,flags"; /* what parse_text makes of MLIR's positional text */
        t.parse_text[1] = gpucompile_vulkan__parse_env;
        t.print_text[1] = gpucompile_vulkan__print_env;
        t.intrinsic_prefixes = "spv";
        t.allowed_undefined = "*"; /* the push-constant block is external; prepare checks the rest */
        t.initialize = gpucompile_vulkan__initialize;
        t.init = gpucompile_vulkan__init;
        t.configure = gpucompile_vulkan__configure;
        t.release = gpucompile_vulkan__release;
        t.prepare = gpucompile_vulkan__prepare;
        t.pre_emit = gpucompile_vulkan__pre_emit;
        t.is_kernel = gpucompile_vulkan__is_kernel;
        t.bin_from = LLVMObjectFile;
        t.finish = gpucompile_vulkan__finish;
        t.find_kernels = gpucompile_vulkan__find_kernels;
        t.verify = gpucompile_vulkan__verify;
        t.calling_convention_ok = gpucompile_vulkan__cc_ok;
        t.select_score = gpucompile_vulkan__select_score;
        t.device_help = "vulkan (a Vulkan device)";
        t.arches = GPUCOMPILE_VULKAN__ARCHES;
        t.offload_kind = 8;   /* as the SPIR-V backend's: LLVM's offload model has no Vulkan kind */
        t.image_kind_bin = 6; /* IMG_SPIRV */
        t.kernel_metadata = kernel_metadata;
        t.cache_version = "vulkan 1";
        gpucompile_lock();
        if (!b.name) b = t;
        gpucompile_unlock();
    }
    return &b;
}

GPUCOMPILE__CONSTRUCTOR(gpucompile_vulkan__register) { gpucompile_register_backend(gpucompile_vulkan_backend()); }

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_VULKAN_IMPLEMENTATION */

/* ==== [section: reflection and runtime] ==================================================
   No LLVM: what a program that loads the modules needs. */
#if (defined(GPUCOMPILE_VULKAN_RUNTIME) || defined(GPUCOMPILE_VULKAN_IMPLEMENTED)) && !defined(GPUCOMPILE_VULKAN__REFLECT_IMPLEMENTED)
#define GPUCOMPILE_VULKAN__REFLECT_IMPLEMENTED
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif
#if defined(GPUCOMPILE_H)
#define GPUCOMPILE_VULKAN__DEF GPUCOMPILE_DEF
#else
#define GPUCOMPILE_VULKAN__DEF
#endif

typedef struct gpucompile_vulkan__refl { const uint32_t *w; size_t n; } gpucompile_vulkan__refl;

/* The instruction defining id (its first word's index), 0 if none. */
static size_t gpucompile_vulkan__rdef(const gpucompile_vulkan__refl *r, uint32_t id) {
    size_t i;
    for (i = 5; i < r->n; i += r->w[i] >> 16) {
        uint32_t op = r->w[i] & 0xffff, wc = r->w[i] >> 16;
        if (op >= 19 && op <= 38 && wc > 1 && r->w[i + 1] == id) return i;
        if ((op == 43 || op == 59) && wc > 2 && r->w[i + 2] == id) return i;
    }
    return 0;
}

/* The value of decoration deco on id (member: -1 for OpDecorate, else OpMemberDecorate's), 1 for
   one without a value, -1 if absent. */
static long gpucompile_vulkan__rdeco(const gpucompile_vulkan__refl *r, uint32_t id, long member, uint32_t deco) {
    size_t i;
    for (i = 5; i < r->n; i += r->w[i] >> 16) {
        uint32_t op = r->w[i] & 0xffff, wc = r->w[i] >> 16;
        if (op == 71 && member < 0 && wc >= 3 && r->w[i + 1] == id && r->w[i + 2] == deco) return wc > 3 ? (long)r->w[i + 3] : 1;
        if (op == 72 && member >= 0 && wc >= 4 && r->w[i + 1] == id && r->w[i + 2] == (uint32_t)member && r->w[i + 3] == deco)
            return wc > 4 ? (long)r->w[i + 4] : 1;
    }
    return -1;
}

/* The size of a type in bytes (a struct: its last member's end; arrays by their stride). */
static uint32_t gpucompile_vulkan__rsize(const gpucompile_vulkan__refl *r, uint32_t type, int depth) {
    size_t d = gpucompile_vulkan__rdef(r, type), c;
    uint32_t op, wc, m, end = 0;
    long stride, off;
    if (!d || depth > 16) return 0;
    op = r->w[d] & 0xffff;
    wc = r->w[d] >> 16;
    switch (op) {
    case 20: return 4;                                                        /* bool */
    case 21: case 22: return wc > 2 ? r->w[d + 2] / 8 : 0;                    /* int, float */
    case 23: return wc > 3 ? r->w[d + 3] * gpucompile_vulkan__rsize(r, r->w[d + 2], depth + 1) : 0;
    case 28:                                                                  /* array */
        c = wc > 3 ? gpucompile_vulkan__rdef(r, r->w[d + 3]) : 0;
        if (!c || (r->w[c] & 0xffff) != 43) return 0;
        stride = gpucompile_vulkan__rdeco(r, type, -1, 6);
        return r->w[c + 3] * (stride > 0 ? (uint32_t)stride : gpucompile_vulkan__rsize(r, r->w[d + 2], depth + 1));
    case 30:                                                                  /* struct */
        for (m = 0; m + 2 < wc; m++) {
            uint32_t s = gpucompile_vulkan__rsize(r, r->w[d + 2 + m], depth + 1);
            off = gpucompile_vulkan__rdeco(r, type, (long)m, 35);
            if ((off >= 0 ? (uint32_t)off : end) + s > end) end = (off >= 0 ? (uint32_t)off : end) + s;
        }
        return end;
    case 32: return 8;
    default: return 0;
    }
}

static int gpucompile_vulkan__binding_cmp(const void *a, const void *b) {
    const gpucompile_vulkan_binding *x = (const gpucompile_vulkan_binding *)a, *y = (const gpucompile_vulkan_binding *)b;
    return x->set != y->set ? (x->set < y->set ? -1 : 1) : x->binding != y->binding ? (x->binding < y->binding ? -1 : 1) : 0;
}

/* One interface variable of an entry point into k. */
static void gpucompile_vulkan__rvar(const gpucompile_vulkan__refl *r, uint32_t var, gpucompile_vulkan_kernel *k) {
    size_t v = gpucompile_vulkan__rdef(r, var), p, s;
    uint32_t sc, pointee, m, wc;
    if (!v || (r->w[v] & 0xffff) != 59) return;
    sc = r->w[v + 3];
    p = gpucompile_vulkan__rdef(r, r->w[v + 1]);
    if (!p || (r->w[p] & 0xffff) != 32) return;
    pointee = r->w[p + 3];
    s = gpucompile_vulkan__rdef(r, pointee);
    if (sc == 4) k->workgroup_bytes += gpucompile_vulkan__rsize(r, pointee, 0);
    if (!s || (r->w[s] & 0xffff) != 30) return;
    wc = r->w[s] >> 16;
    if ((sc == 12 || sc == 2) && k->num_bindings < 32 && wc > 2) { /* a storage buffer */
        gpucompile_vulkan_binding *b = &k->bindings[k->num_bindings++];
        size_t e = gpucompile_vulkan__rdef(r, r->w[s + 2]);
        long stride = gpucompile_vulkan__rdeco(r, r->w[s + 2], -1, 6);
        b->set = (uint32_t)(gpucompile_vulkan__rdeco(r, var, -1, 34) > 0 ? gpucompile_vulkan__rdeco(r, var, -1, 34) : 0);
        b->binding = (uint32_t)(gpucompile_vulkan__rdeco(r, var, -1, 33) > 0 ? gpucompile_vulkan__rdeco(r, var, -1, 33) : 0);
        b->stride = stride > 0 ? (uint32_t)stride : e && ((r->w[e] & 0xffff) == 29 || (r->w[e] & 0xffff) == 28) ?
                    gpucompile_vulkan__rsize(r, r->w[e + 2], 0) : gpucompile_vulkan__rsize(r, r->w[s + 2], 0);
        b->read_only = gpucompile_vulkan__rdeco(r, pointee, 0, 24) > 0 || gpucompile_vulkan__rdeco(r, var, -1, 24) > 0;
    }
    if (sc == 9) /* the push-constant block */
        for (m = 0; m + 2 < wc && k->num_push < 32; m++) {
            long off = gpucompile_vulkan__rdeco(r, pointee, (long)m, 35);
            gpucompile_vulkan_push_field *f = &k->push[k->num_push++];
            f->offset = off > 0 ? (uint32_t)off : 0;
            f->size = gpucompile_vulkan__rsize(r, r->w[s + 2 + m], 0);
            if (f->offset + f->size > k->push_size) k->push_size = f->offset + f->size;
        }
}

GPUCOMPILE_VULKAN__DEF int gpucompile_vulkan_reflect(const void *spirv, size_t size, gpucompile_vulkan_kernel *out, int max) {
    gpucompile_vulkan__refl r;
    uint32_t *copy;
    size_t i, j;
    int found = 0;
    if (!spirv || size < 20 || size % 4) return -1;
    if (!(copy = (uint32_t *)malloc(size))) return -1;
    memcpy(copy, spirv, size); /* aligned, host order (the module is little-endian, as written) */
    r.w = copy;
    r.n = size / 4;
    if (copy[0] != 0x07230203u) { free(copy); return -1; }
    for (i = 5; i < r.n; i += copy[i] >> 16)
        if ((copy[i] >> 16) == 0 || i + (copy[i] >> 16) > r.n) { free(copy); return -1; }
    for (i = 5; i < r.n; i += copy[i] >> 16) {
        uint32_t wc = copy[i] >> 16, fn;
        const char *name;
        gpucompile_vulkan_kernel *k;
        if ((copy[i] & 0xffff) != 15 || wc < 4 || copy[i + 1] != 5) continue; /* OpEntryPoint GLCompute */
        if (found++ >= max || !out) continue;
        k = &out[found - 1];
        memset(k, 0, sizeof *k);
        fn = copy[i + 2];
        name = (const char *)&copy[i + 3];
        for (j = 3; j < wc && memchr(&copy[i + j], 0, 4) == NULL; j++) {}
        snprintf(k->name, sizeof k->name, "%.*s", (int)(4 * (j - 3 + 1)), name);
        for (j++; j < wc; j++) gpucompile_vulkan__rvar(&r, copy[i + j], k);
        qsort(k->bindings, (size_t)k->num_bindings, sizeof k->bindings[0], gpucompile_vulkan__binding_cmp);
        for (j = 5; j < r.n; j += copy[j] >> 16) /* OpExecutionMode fn LocalSize x y z */
            if ((copy[j] & 0xffff) == 16 && (copy[j] >> 16) >= 6 && copy[j + 1] == fn && copy[j + 2] == 17) {
                k->local_size[0] = copy[j + 3];
                k->local_size[1] = copy[j + 4];
                k->local_size[2] = copy[j + 5];
            }
    }
    free(copy);
    return found;
}
#undef GPUCOMPILE_VULKAN__DEF
#ifdef __cplusplus
}
#endif
#endif
/* ==== [section: end of reflection and runtime] =========================================== */
