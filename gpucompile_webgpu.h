/* gpucompile_webgpu.h - the WebGPU backend of gpucompile: #gpu.webgpu to a SPIR-V compute module
   that WebGPU implementations' SPIR-V readers take (wgpu's naga, Dawn's Tint), within what WGSL
   can express, with the kernels' reflection in their metadata (readable without LLVM); and an mgpu*
   runtime over webgpu.h (wgpu-native or Dawn, opened at run time), which on users' machines runs
   on D3D12, Metal or Vulkan (docs/webgpu.md).

   Include gpucompile.h first for the backend. Its implementation is compiled where
   GPUCOMPILE_IMPLEMENTATION (with the core's) or GPUCOMPILE_WEBGPU_IMPLEMENTATION (in a file of its
   own; not with GPUCOMPILE_STATIC) is defined; it registers itself at start-up. It compiles through
   the Vulkan backend (gpucompile_vulkan.h, which this header includes, and its pointer-kernel
   lowering, gpucompile_lower.h): that backend's table does the work, on a Vulkan target that
   allows only what WGSL has; this header refuses what WebGPU cannot express before code
   generation and reshapes the module for WebGPU's readers after it. The reflection reader
   (gpucompile_webgpu_reflect) and the runtime need neither LLVM nor gpucompile.h:
   GPUCOMPILE_WEBGPU_RUNTIME compiles them alone ([section: selection and reflection],
   [section: runtime]). One vendor runtime per program, as the family's others.

   Target: #gpu.webgpu<O, triple, chip, features, flags> (ours). triple:
   "spirv1.6-unknown-vulkan1.3-compute" (the default; "spirv1.5-unknown-vulkan1.2-compute" too);
   chip "webgpu" (the adapter is chosen at run time); features: WebGPU feature names, +name
   (shader-f16: f16 arithmetic and f16 in buffers); flags as the Vulkan target's for pointer kernels
   (workgroup_size = "X,Y,Z", local_memory = "BYTES") and WebGPU's limits where a device has more
   than the defaults (max_invocations = "N", 256; max_workgroup_memory = "BYTES", 16384;
   max_storage_buffers = "N", 8 per entry point).
   What the module may hold is what WGSL has: 32-bit integers and floats (f16 with shader-f16),
   bool, vectors of them, storage buffers (read-only or read-write per binding), one uniform block
   for the scalars, workgroup memory, barriers, 32-bit integer atomics. Refused before code
   generation, naming the function and the instruction: 64-bit integers, double, 8- and 16-bit
   integers, half without shader-f16, float atomics, signed atomic min and max, fences; an entry
   point whose name WGSL does not take, whose workgroup size exceeds 256 invocations (x, y <= 256,
   z <= 64), whose workgroup memory exceeds 16 KiB, or that has more than 8 storage buffers.

   Before code generation: pointer kernels lowered with 32-bit addresses (the lowering's
   index_bits; it computes 64-bit indices and comparisons of 32-bit values in 32 bits);
   llvm.smax/smin/abs written as a comparison and a select (naga reads GLSL.std.450's SMax on
   LLVM's unsigned types as unsigned). After it, on the module's words: SPIR-V 1.3 (the newest
   Dawn's reader of Chromium 133 takes), no memory-access operands on loads and stores (naga
   refuses `Aligned`), the push-constant block becomes a uniform buffer (set 0, the binding after
   the module's last; WebGPU has no push constants: wgpu's "immediates" are native-only), a
   read-only storage buffer says NonWritable on its variable too (naga reads that one), each entry
   point its own built-in input variables (Dawn refuses entry points that share several) and an
   interface of only what it uses, no debug names, no dead declarations (LLVM 22's resource-name
   strings, with the Int8 capability they need).

   Formats: llvm (bitcode), bin (the SPIR-V module; spirv-dis reads it). Kernel metadata as
   #gpu.vulkan's (workgroup_size, bindings, parameters, workgroup_memory_bytes) with the uniform
   block as uniform_binding = N, uniform_bytes = N, uniforms = [{offset, size}].

   Input: what #gpu.vulkan takes (Vulkan-shaped IR: "hlsl.shader"="compute" entry points, its
   storage buffers, its push-constant block, which here becomes the uniform block) and pointer
   kernels (OpenCL C, CUDA-style), lowered as for Vulkan (32-bit sizes: WGSL has no 64-bit size_t).
*/
#ifndef GPUCOMPILE_WEBGPU_H
#define GPUCOMPILE_WEBGPU_H
#include <stddef.h>
#include <stdint.h>
#if defined(GPUCOMPILE_H)
#include "gpucompile_vulkan.h" /* the backend it compiles through */
#ifdef __cplusplus
extern "C" {
#endif
GPUCOMPILE_API const gpucompile_backend *gpucompile_webgpu_backend(void);
#ifdef __cplusplus
}
#endif
#endif
#endif /* GPUCOMPILE_WEBGPU_H */

#ifndef GPUCOMPILE_WEBGPU_RUNTIME_API
#define GPUCOMPILE_WEBGPU_RUNTIME_API
#include "gpucompile_vulkan.h" /* the reflection's types (LLVM-free) */
#define GPUCOMPILE_WEBGPU__API GPUCOMPILE_VULKAN__API /* the same rule: static with GPUCOMPILE_STATIC */
#ifdef __cplusplus
extern "C" {
#endif

/* ---- reflection ----
   One entry point of a #gpu.webgpu module: Vulkan's reflection (gpucompile_vulkan_kernel: the
   storage buffers as bindings, the parameters' order) with the uniform block where Vulkan has
   its push constants: k.push / k.push_size are the block's members and size, and it sits at
   (uniform_set, uniform_binding) when has_uniforms. */
typedef struct gpucompile_webgpu_kernel {
    gpucompile_vulkan_kernel k;
    int has_uniforms;
    uint32_t uniform_set, uniform_binding;
} gpucompile_webgpu_kernel;
/* Every GLCompute entry point (as gpucompile_vulkan_reflect): the number found, -1 if the bytes are
   not a SPIR-V module. The uniform block is the one the module's OpModuleProcessed
   "gpucompile.uniforms SET BINDING" names (the backend writes it); without one a uniform
   buffer is an ordinary binding (descriptor_type 6). Untrusted input is fine. */
GPUCOMPILE_WEBGPU__API int gpucompile_webgpu_reflect(const void *spirv, size_t size, gpucompile_webgpu_kernel *out, int max);

/* ---- the runtime's own additions (GPUCOMPILE_WEBGPU_RUNTIME) ---- */
typedef struct gpucompile_webgpu_runtime_info {
    char implementation[32];  /* "wgpu-native", "Dawn" */
    char abi[64];             /* which webgpu.h revision the library has: "webgpu.h", "Dawn (Chromium 133: *2 entry points)" */
    uint32_t version;         /* wgpuGetVersion (wgpu-native), else 0 */
    char adapter[256];        /* the adapter's description ("llvmpipe (LLVM 15.0.6, 256 bits)") */
    char backend[16];         /* what it runs on: "Vulkan", "D3D12", "Metal", ... */
    uint32_t vendor_id, device_id;
    int shader_f16;           /* the device has shader-f16 (enabled when the adapter has it) */
} gpucompile_webgpu_runtime_info;
/* 1 and *out filled when the device is up (it starts it), else 0. */
int gpucompile_webgpu_runtime_info_get(gpucompile_webgpu_runtime_info *out);
/* The reflection of a function from mgpuModuleGetFunction (NULL for NULL). */
const gpucompile_webgpu_kernel *gpucompile_webgpu_function_kernel(void *function);

/* ---- for engines that own their WGPUDevice (GPUCOMPILE_WEBGPU_RUNTIME) ----
   A program is a module made on the engine's device: its shader module and, per entry point, its
   bind group layouts, pipeline layout and compute pipeline, owned by the program. A launch is
   recorded into the engine's compute pass encoder (gpucompile_webgpu_record): the pipeline, bind
   groups made of the engine's buffers and, for the scalars, a uniform buffer the call makes and
   fills through the device's queue (wgpuQueueWriteBuffer: the data reach the GPU before the
   engine's next submit). The mgpu* device is never started by these calls. Errors go to
   gpucompile_runtime_report; the device's own errors are the engine's (its callbacks). */
typedef struct gpucompile_webgpu_engine {
    void *device;          /* WGPUDevice */
    const char *library;   /* the webgpu.h library the engine uses: a path or file name; NULL: the runtime's rule */
} gpucompile_webgpu_engine;
typedef struct gpucompile_webgpu_program gpucompile_webgpu_program;
gpucompile_webgpu_program *gpucompile_webgpu_program_create(const gpucompile_webgpu_engine *engine, const void *spirv, size_t size);
void gpucompile_webgpu_program_destroy(gpucompile_webgpu_program *program);
/* One entry point's objects: its reflection, WGPUComputePipeline, WGPUBindGroupLayouts (bind
   groups 0 .. num_groups-1). 1, or 0 without such an entry point. */
typedef struct gpucompile_webgpu_entry {
    const gpucompile_webgpu_kernel *kernel;
    void *pipeline;
    void *bind_group_layouts[4];
    uint32_t num_groups;
} gpucompile_webgpu_entry;
int gpucompile_webgpu_program_entry(const gpucompile_webgpu_program *program, const char *name, gpucompile_webgpu_entry *out);
/* A WGPUBuffer, an offset into it (a multiple of 256), a size (0: the rest; a multiple of 4). */
typedef struct gpucompile_webgpu_buffer { void *buffer; uint64_t offset, size; } gpucompile_webgpu_buffer;
/* Records entry point name into pass (a WGPUComputePassEncoder): the pipeline, its buffers (one
   per binding in the reflection's order; the uniform block not among them), the uniform block's
   bytes (uniforms, size >= the block's), dispatchWorkgroups(groups). 0, or -1 (reported). */
int gpucompile_webgpu_record(const gpucompile_webgpu_program *program, const char *name, void *pass, const uint32_t groups[3],
                             const gpucompile_webgpu_buffer *buffers, int num_buffers, const void *uniforms, uint32_t size);

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_WEBGPU_RUNTIME_API */

/* ==== [section: selection and reflection] ==============================================
   Without LLVM and without gpucompile.h. Compiled where GPUCOMPILE_IMPLEMENTATION or
   GPUCOMPILE_WEBGPU_IMPLEMENTATION is defined (the backend's file) and in the runtime's file
   (GPUCOMPILE_WEBGPU_RUNTIME); the public gpucompile_webgpu_reflect in the first, or in the
   runtime's when that file does not include gpucompile.h. Vulkan's reader does the reading
   (gpucompile_vulkan.h's private copy, GPUCOMPILE_VULKAN_REFLECTION). */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_WEBGPU_IMPLEMENTATION) || defined(GPUCOMPILE_WEBGPU_RUNTIME)) && \
    !defined(GPUCOMPILE_WEBGPU__REFLECT_IMPLEMENTED)
#define GPUCOMPILE_WEBGPU__REFLECT_IMPLEMENTED
#if !defined(GPUCOMPILE_VULKAN_REFLECTION)
#define GPUCOMPILE_VULKAN_REFLECTION
#endif
/* Vulkan's reader walks the words with gpucompile_runtime.h's shared helpers: this file's */
#if defined(GPUCOMPILE_WEBGPU_RUNTIME) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_WEBGPU_IMPLEMENTATION)) && !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION
#endif
#include "gpucompile_vulkan.h"
#include <stdlib.h>
#include <string.h>
#ifdef __cplusplus
extern "C" {
#endif

GPUCOMPILE_PRIVATE int gpucompile_webgpu__reflect(const void *spirv, size_t size, gpucompile_webgpu_kernel *out, int max) {
    gpucompile_vulkan_kernel *ks = NULL;
    int found, i;
    if (max > 0 && out) ks = (gpucompile_vulkan_kernel *)malloc((size_t)max * sizeof *ks);
    found = gpucompile_vulkan__reflect(spirv, size, ks, ks ? max : 0);
    for (i = 0; ks && i < found && i < max; i++) {
        memset(&out[i], 0, sizeof out[i]);
        out[i].k = ks[i];
        out[i].has_uniforms = ks[i].has_uniforms;
        out[i].uniform_set = ks[i].uniform_set;
        out[i].uniform_binding = ks[i].uniform_binding;
    }
    free(ks);
    return found;
}

/* Run-time selection, one rule for the compile side (gpucompile_binary_select) and the runtime:
   the device "webgpu" (this header's runtime) takes a #gpu.webgpu module: format bin, chip
   "webgpu" (a Vulkan module's chip is "vulkan": its scalars are push constants, which WebGPU has
   not); -2 for another device. */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__score(const char *triple, const char *chip, const char *format, const char *features,
                                                const char *device, const char **why) {
    (void)features;
    (void)triple;
    if (!device || strcmp(device, "webgpu") != 0) return -2;
    if (!format || strcmp(format, "bin") != 0 || !chip || strcmp(chip, "webgpu") != 0) return -1;
    *why = "SPIR-V module for WebGPU";
    return 1;
}

#if defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_WEBGPU_IMPLEMENTATION) || (defined(GPUCOMPILE_WEBGPU_RUNTIME) && !defined(GPUCOMPILE_H))
GPUCOMPILE_WEBGPU__API int gpucompile_webgpu_reflect(const void *spirv, size_t size, gpucompile_webgpu_kernel *out, int max) {
    return gpucompile_webgpu__reflect(spirv, size, out, max);
}
#endif
#ifdef __cplusplus
}
#endif
#endif /* reflection */

/* ==== [section: backend] ================================================================= */

#if defined(GPUCOMPILE_WEBGPU_IMPLEMENTATION) && !defined(GPUCOMPILE_H)
#error "gpucompile_webgpu.h: the backend needs gpucompile.h included first (GPUCOMPILE_WEBGPU_RUNTIME alone needs neither)"
#endif

#if defined(GPUCOMPILE_H) && (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_WEBGPU_IMPLEMENTATION)) && \
    !defined(GPUCOMPILE_WEBGPU_IMPLEMENTED)
#define GPUCOMPILE_WEBGPU_IMPLEMENTED
#if !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION
#endif
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ==== [section: webgpu target] ===========================================================
   What WebGPU has, as the Vulkan target that compiles it: the capabilities bare #gpu.vulkan
   allows that WGSL has no type or operation for are taken away. */
#define GPUCOMPILE_WEBGPU__NOT_WGSL \
    "-Int16,-Int64,-Float64,-Int64Atomics,-StorageBuffer8BitAccess,-UniformAndStorageBuffer8BitAccess,-StoragePushConstant8," \
    "-StoragePushConstant16,-AtomicFloat32AddEXT,-SPV_KHR_8bit_storage,-SPV_EXT_shader_atomic_float_add,-GroupNonUniform," \
    "-GroupNonUniformVote,-GroupNonUniformArithmetic,-GroupNonUniformBallot,-GroupNonUniformShuffle,-GroupNonUniformShuffleRelative," \
    "-GroupNonUniformClustered,-GroupNonUniformQuad"
#define GPUCOMPILE_WEBGPU__NO_F16 ",-Float16,-StorageBuffer16BitAccess,-UniformAndStorageBuffer16BitAccess,-SPV_KHR_16bit_storage"
#define GPUCOMPILE_WEBGPU__FEATURES "shader-f16"

/* The WGSL words an entry point's name must not be (keywords, reserved words). */
static const char *const gpucompile_webgpu__reserved =
    "alias,break,case,const,const_assert,continue,continuing,default,diagnostic,discard,else,enable,false,fn,for,if,let,loop,override,"
    "requires,return,struct,switch,true,var,while,NULL,Self,abstract,active,alignas,alignof,as,asm,asm_fragment,async,attribute,auto,"
    "await,become,binding_array,cast,catch,class,co_await,co_return,co_yield,coherent,column_major,common,compile,compile_fragment,"
    "concept,const_cast,consteval,constexpr,constinit,crate,debugger,decltype,delete,demote,demote_to_helper,do,dynamic_cast,enum,"
    "explicit,export,extends,extern,external,fallthrough,filter,final,finally,friend,from,fxgroup,get,goto,groupshared,highp,impl,"
    "implements,import,inline,instanceof,interface,layout,lowp,macro,macro_rules,match,mediump,meta,mod,module,move,mut,mutable,"
    "namespace,new,nil,noexcept,noinline,nointerpolation,noperspective,null,nullptr,of,operator,package,packoffset,partition,pass,"
    "patch,pixelfragment,precise,precision,premerge,priv,protected,pub,public,readonly,ref,regardless,register,reinterpret_cast,"
    "require,resource,restrict,self,set,shared,sizeof,smooth,snorm,static,static_assert,static_cast,std,subroutine,super,target,"
    "template,this,thread_local,throw,trait,try,type,typedef,typeid,typename,typeof,union,unless,unorm,unsafe,unsized,use,using,"
    "varying,virtual,volatile,wgsl,where,with,writeonly,yield";

GPUCOMPILE_PRIVATE int gpucompile_webgpu__f16(const gpucompile_target *t) {
    const char *f = gpucompile_target_features(t);
    return f && strstr(f, "+shader-f16") != NULL;
}

/* A flag's unsigned value ("N" or N), def when absent; -1 when malformed. */
GPUCOMPILE_PRIVATE long gpucompile_webgpu__flag_u(const gpucompile_target *t, const char *name, long def) {
    const char *v = gpucompile_target_flag_value(t, name);
    char *e;
    long n;
    if (!v) return def;
    if (*v == '"') v++;
    n = strtol(v, &e, 10);
    return e == v || n < 0 || (*e && *e != '"' && *e != ' ') ? -1 : n;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t), *f = gpucompile_target_features(t);
    if (strcmp(triple, "spirv1.6-unknown-vulkan1.3-compute") != 0 && strcmp(triple, "spirv1.5-unknown-vulkan1.2-compute") != 0)
        return gpucompile_log_target(logger, "The target triple of #gpu.webgpu is spirv1.6-unknown-vulkan1.3-compute (the default) or "
                                     "spirv1.5-unknown-vulkan1.2-compute, not '%.200s' (WebGPU's readers take Vulkan's SPIR-V).", triple);
    if (strcmp(gpucompile_target_chip(t), "webgpu") != 0)
        return gpucompile_log_target(logger, "The chip of a WebGPU target is \"webgpu\" (the adapter is chosen at run time), not '%.100s'.",
                                     gpucompile_target_chip(t));
    while (f && *f) {
        size_t w = strcspn(f, ",");
        if (w < 2 || f[0] != '+' || !gpucompile_in_list(GPUCOMPILE_WEBGPU__FEATURES, f + 1, w - 1))
            return gpucompile_log_target(logger, "The feature '%.*s' is not +NAME of a WebGPU feature gpucompile compiles for (%s).",
                                         (int)(w < 100 ? w : 100), f, GPUCOMPILE_WEBGPU__FEATURES);
        f += w + (f[w] == ',');
    }
    if (gpucompile_webgpu__flag_u(t, "max_invocations", 256) < 1 || gpucompile_webgpu__flag_u(t, "max_workgroup_memory", 16384) < 0 ||
        gpucompile_webgpu__flag_u(t, "max_storage_buffers", 8) < 1)
        return gpucompile_log_target(logger, "The flags max_invocations, max_workgroup_memory and max_storage_buffers are numbers "
                                             "(\"256\", \"16384\", \"8\").");
    if (!gpucompile_vulkan_available())
        return gpucompile_log_target(logger, "LLVM %d here has no SPIR-V code generator (the SPIRV target; LLVM 22 has it).", LLVM_VERSION_MAJOR);
    return GPUCOMPILE_OK;
}

/* ---- the job: the Vulkan backend's, on a Vulkan target made of ours ---- */
typedef struct gpucompile_webgpu__job {
    const gpucompile_target *target;      /* ours, as the job was given it */
    gpucompile_target vk;                 /* what the Vulkan backend compiles */
    char features[512];
    void *vk_data;                        /* the Vulkan backend's job->backend_data */
} gpucompile_webgpu__job;

#define GPUCOMPILE_WEBGPU__VK() (gpucompile_vulkan_backend())

/* Runs a hook of the Vulkan backend's table with its own backend_data in the job. */
#define GPUCOMPILE_WEBGPU__CALL_VK(job, st, call) \
    do { (job)->backend_data = (st)->vk_data; r = (call); (st)->vk_data = (job)->backend_data; (job)->backend_data = (st); } while (0)

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__init(gpucompile_job *job) {
    const gpucompile_backend *vk = GPUCOMPILE_WEBGPU__VK();
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)gpucompile_job_alloc(job, sizeof *st);
    gpucompile_result r = GPUCOMPILE_OK;
    if (!st) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memset(st, 0, sizeof *st);
    st->target = job->target;
    st->vk = *job->target;
    st->vk.backend = vk;
    st->vk.custom_name = "gpu.vulkan";
    st->vk.upstream = 0;
    st->vk.chip = "vulkan";
    snprintf(st->features, sizeof st->features, "%s%s", GPUCOMPILE_WEBGPU__NOT_WGSL, gpucompile_webgpu__f16(job->target) ? "" : GPUCOMPILE_WEBGPU__NO_F16);
    st->vk.features = st->features;
    job->target = &st->vk;
    job->backend_data = st;
    if (vk->init) GPUCOMPILE_WEBGPU__CALL_VK(job, st, vk->init(job));
    return r;
}

GPUCOMPILE_PRIVATE void gpucompile_webgpu__release(gpucompile_job *job) {
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)job->backend_data;
    const gpucompile_backend *vk = GPUCOMPILE_WEBGPU__VK();
    if (!st) return;
    job->backend_data = st->vk_data;
    if (vk->release) vk->release(job);
    job->target = st->target;
    job->backend_data = NULL;
    gpucompile_job_free(job, st);
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__configure(gpucompile_job *job) {
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)job->backend_data;
    gpucompile_result r = GPUCOMPILE_OK;
    gpucompile_job_free(job, job->features); /* the Vulkan target's words are not LLVM's features */
    if (!(job->features = gpucompile_job_strdup(job, ""))) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (GPUCOMPILE_WEBGPU__VK()->configure) GPUCOMPILE_WEBGPU__CALL_VK(job, st, GPUCOMPILE_WEBGPU__VK()->configure(job));
    return r;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__prepare(gpucompile_job *job) {
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)job->backend_data;
    gpucompile_result r = GPUCOMPILE_OK;
    if (GPUCOMPILE_WEBGPU__VK()->prepare) GPUCOMPILE_WEBGPU__CALL_VK(job, st, GPUCOMPILE_WEBGPU__VK()->prepare(job));
    return r;
}

/* ---- what WGSL cannot express, refused before code generation ---- */
/* Why type t is not WGSL's (NULL when it is). */
GPUCOMPILE_PRIVATE const char *gpucompile_webgpu__bad_type(LLVMTypeRef t, int f16, int depth) {
    if (!t || depth > 8) return NULL;
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        if (w == 1 || w == 32) return NULL;
        return w == 64 ? "a 64-bit integer (WGSL has i32 and u32 only; OpenCL C: clang -target spirv32, whose size_t is 32-bit)" : w == 8 ? "an 8-bit integer (WGSL has none, in memory or not)" :
               w == 16 ? "a 16-bit integer (WGSL has none)" : "an integer of a width WGSL does not have";
    }
    case LLVMDoubleTypeKind: return "a double (WGSL has no f64)";
    case LLVMHalfTypeKind: return f16 ? NULL : "a half (f16 needs the target feature +shader-f16)";
    case LLVMFloatTypeKind: case LLVMPointerTypeKind: case LLVMVoidTypeKind: case LLVMLabelTypeKind: case LLVMMetadataTypeKind:
    case LLVMTokenTypeKind: return NULL;
    case LLVMTargetExtTypeKind: { /* buffers yes; images and samplers: not WebGPU's kind of them (yet) */
        char *text = LLVMPrintTypeToString(t);
        int image = text && (strstr(text, "spirv.Image") || strstr(text, "spirv.Sampler") || strstr(text, "spirv.SampledImage"));
        if (text) LLVMDisposeMessage(text);
        return image ? "an image or a sampler (WebGPU's textures and samplers are not compiled for #gpu.webgpu)" : NULL;
    }
    case LLVMVectorTypeKind: {
        unsigned n = LLVMGetVectorSize(t);
        if (n > 4) return "a vector of more than 4 elements (WGSL has vec2, vec3, vec4)";
        return gpucompile_webgpu__bad_type(LLVMGetElementType(t), f16, depth + 1);
    }
    case LLVMArrayTypeKind: return gpucompile_webgpu__bad_type(LLVMGetElementType(t), f16, depth + 1);
    case LLVMStructTypeKind: {
        unsigned i, n = LLVMCountStructElementTypes(t);
        for (i = 0; i < n; i++) {
            const char *why = gpucompile_webgpu__bad_type(LLVMStructGetTypeAtIndex(t, i), f16, depth + 1);
            if (why) return why;
        }
        return NULL;
    }
    default: return "a type WGSL does not have";
    }
}

/* Why instruction in is not WGSL's, NULL when it is. */
GPUCOMPILE_PRIVATE const char *gpucompile_webgpu__bad_instruction(LLVMValueRef in, int f16) {
    const char *why = gpucompile_webgpu__bad_type(LLVMTypeOf(in), f16, 0);
    int i, n = LLVMGetNumOperands(in);
    if (why) return why;
    if (LLVMIsAAllocaInst(in) && (why = gpucompile_webgpu__bad_type(LLVMGetAllocatedType(in), f16, 0)) != NULL) return why;
    if (LLVMIsAGetElementPtrInst(in) && (why = gpucompile_webgpu__bad_type(LLVMGetGEPSourceElementType(in), f16, 0)) != NULL) return why;
    for (i = 0; i < n; i++) {
        LLVMValueRef op = LLVMGetOperand(in, (unsigned)i);
        if (op && !LLVMIsABasicBlock(op) && !LLVMIsAFunction(op) && (why = gpucompile_webgpu__bad_type(LLVMTypeOf(op), f16, 0)) != NULL) return why;
    }
    if (LLVMGetInstructionOpcode(in) == LLVMAtomicRMW) {
        LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(in));
        LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(in);
        if (k == LLVMFloatTypeKind || k == LLVMHalfTypeKind) return "a float atomic (WGSL's atomics are on i32 and u32)";
        if (op == LLVMAtomicRMWBinOpMin || op == LLVMAtomicRMWBinOpMax) /* naga's and Dawn's readers: -5 was above 1 */
            return "a signed atomic min or max (LLVM types the integers unsigned, and WebGPU's readers make it atomicMin/atomicMax of u32)";
    }
    return NULL;
}

GPUCOMPILE_PRIVATE int gpucompile_webgpu__wgsl_name(const char *s) {
    size_t i, n = strlen(s);
    if (!n || (s[0] >= '0' && s[0] <= '9') || (n == 1 && s[0] == '_') || (n >= 2 && s[0] == '_' && s[1] == '_')) return 0;
    for (i = 0; i < n; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) return 0;
    return !gpucompile_in_list(gpucompile_webgpu__reserved, s, n);
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__refuse(gpucompile_job *job, LLVMValueRef in, const char *why) {
    char where[512];
    return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "%s: WebGPU cannot express %s", gpucompile_instruction_where(in, where, sizeof where), why);
}

/* After the Vulkan backend's rewrites (the pointer kernels lowered): every instruction, every
   entry point's name, workgroup size and workgroup memory against what WebGPU has. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__check_module(gpucompile_job *job, const gpucompile_target *t) {
    LLVMValueRef fn, in, g;
    LLVMBasicBlockRef bb;
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(job->module);
    int f16 = gpucompile_webgpu__f16(t);
    long max_inv = gpucompile_webgpu__flag_u(t, "max_invocations", 256), max_mem = gpucompile_webgpu__flag_u(t, "max_workgroup_memory", 16384);
    unsigned long long shared = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = gpucompile_value_name(fn);
        LLVMAttributeRef a;
        if (LLVMIsDeclaration(fn)) continue;
        for (bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                const char *why = gpucompile_webgpu__bad_instruction(in, f16);
                if (why) return gpucompile_webgpu__refuse(job, in, why);
            }
        if ((a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, "hlsl.numthreads", 15)) != NULL) {
            unsigned len = 0, x = 1, y = 1, z = 1;
            const char *v = LLVMGetStringAttributeValue(a, &len);
            char buf[64];
            snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), v);
            sscanf(buf, "%u,%u,%u", &x, &y, &z);
            if (!gpucompile_webgpu__wgsl_name(name))
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': WGSL does not take that name for an entry point "
                                           "(an identifier: letters, digits, '_', not starting with a digit or '__', not a keyword or reserved word)", name);
            if (x > 256 || y > 256 || z > 64 || (unsigned long long)x * y * z > (unsigned long long)max_inv)
                return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': workgroup size %u,%u,%u: WebGPU's limits are %ld "
                                           "invocations, x and y <= 256, z <= 64 (flag max_invocations for a device with more)", name, x, y, z, max_inv);
        }
    }
    for (g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && LLVMGetFirstUse(g)) {
            const char *why = gpucompile_webgpu__bad_type(LLVMGlobalGetValueType(g), f16, 0);
            if (why) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "global '%s': WebGPU cannot express %s", gpucompile_value_name(g), why);
            shared += LLVMABISizeOfType(dl, LLVMGlobalGetValueType(g));
        }
    if (shared > (unsigned long long)max_mem)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "%llu bytes of workgroup memory: WebGPU's limit is %ld "
                                   "(maxComputeWorkgroupStorageSize; flag max_workgroup_memory for a device with more)", shared, max_mem);
    return GPUCOMPILE_OK;
}

/* An infinite or NaN float constant (a scalar, or a vector holding one), or none. */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__nonfinite(LLVMValueRef c) {
    LLVMTypeRef t = LLVMTypeOf(c);
    unsigned i, n;
    if (LLVMIsAConstantFP(c)) {
        LLVMBool loses;
        double d = LLVMConstRealGetDouble(c, &loses);
        return d != d || d - d != 0.0;
    }
    if (LLVMGetTypeKind(t) != LLVMVectorTypeKind || !(LLVMIsAConstantDataVector(c) || LLVMIsAConstantVector(c))) return 0;
    for (i = 0, n = LLVMGetVectorSize(t); i < n; i++)
        if (gpucompile_webgpu__nonfinite(LLVMGetAggregateElement(c, i))) return 1;
    return 0;
}

/* Constant c (a float, or a vector of them) made at b from its bits, each infinite or NaN
   element stored in a function variable, loaded and bitcast. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_webgpu__made_at_run_time(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef c) {
    LLVMTypeRef t = LLVMTypeOf(c), st = LLVMGetTypeKind(t) == LLVMVectorTypeKind ? LLVMGetElementType(t) : t;
    LLVMTypeRef it = LLVMIntTypeInContext(job->context, (unsigned)LLVMSizeOfTypeInBits(LLVMGetModuleDataLayout(job->module), st));
    LLVMValueRef elems[16], v;
    unsigned e, n = st == t ? 1 : LLVMGetVectorSize(t);
    if (n > 16) return c; /* Vulkan's vectors have at most 4 elements: refused later */
    for (e = 0; e < n; e++) {
        elems[e] = st == t ? c : LLVMGetAggregateElement(c, e);
        if (gpucompile_webgpu__nonfinite(elems[e])) elems[e] = LLVMConstNull(st);
    }
    v = st == t ? NULL : LLVMConstVector(elems, n);
    for (e = 0; e < n; e++) {
        LLVMValueRef x = st == t ? c : LLVMGetAggregateElement(c, e), var, bits;
        if (!gpucompile_webgpu__nonfinite(x)) continue;
        var = LLVMBuildAlloca(b, it, "");
        LLVMSetVolatile(LLVMBuildStore(b, LLVMConstBitCast(x, it), var), 1);
        bits = LLVMBuildLoad2(b, it, var, "");
        LLVMSetVolatile(bits, 1); /* kept by the code generator; the reshape drops the Volatile operand */
        bits = LLVMBuildBitCast(b, bits, st, "");
        v = st == t ? bits : LLVMBuildInsertElement(b, v, bits, LLVMConstInt(LLVMInt32TypeInContext(job->context), e, 0), "");
    }
    return v;
}

/* The constants WGSL cannot take, in every function. WGSL has no literal for an infinite or NaN float: naga refuses such a constant ("Float
   literal is infinite") and Dawn's reader of Chromium 133 crashes on it, and OpenCL's math
   (log(0), pow's special cases, INFINITY, isinf) makes them. Each operand that is one becomes,
   in its function, the float's bits stored in a function variable, loaded and bitcast: a value
   made at run time, which neither reader folds back into a literal (the code generator runs
   unoptimized). Its count, or -1 after a failure (logged): a global's initializer holding one.
   A 64-bit constant index of a vector element (clang writes them) becomes a 32-bit one. */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__constants(gpucompile_job *job) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(job->context);
    LLVMValueRef fn, in, g;
    int count = 0;
    for (g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef init = LLVMGetInitializer(g);
        unsigned i, n = init && LLVMGetTypeKind(LLVMTypeOf(init)) == LLVMArrayTypeKind ? LLVMGetArrayLength(LLVMTypeOf(init)) : 0;
        int bad = init && gpucompile_webgpu__nonfinite(init);
        for (i = 0; i < n && !bad; i++) bad = gpucompile_webgpu__nonfinite(LLVMGetAggregateElement(init, i));
        if (bad) {
            LLVMDisposeBuilder(b);
            gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "global '%s': WebGPU cannot express an infinite or NaN float in a "
                                "constant's value (WGSL has no literal for one)", gpucompile_value_name(g));
            return -1;
        }
    }
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        LLVMValueRef made[64][2]; /* a constant, its value made in this function */
        LLVMBasicBlockRef bb, entry = LLVMIsDeclaration(fn) ? NULL : LLVMGetEntryBasicBlock(fn);
        int nmade = 0, k;
        for (bb = entry; bb; bb = LLVMGetNextBasicBlock(bb))
            for (in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
                int i, n = LLVMIsACallInst(in) ? (int)LLVMGetNumArgOperands(in) : LLVMGetNumOperands(in);
                for (i = 0; i < n; i++) {
                    LLVMValueRef c = LLVMGetOperand(in, (unsigned)i), v = NULL;
                    if (i == n - 1 && (LLVMIsAInsertElementInst(in) || LLVMIsAExtractElementInst(in)) && LLVMIsAConstantInt(c) &&
                        LLVMGetIntTypeWidth(LLVMTypeOf(c)) == 64) /* clang's vector index: WGSL has no 64-bit integer */
                        LLVMSetOperand(in, (unsigned)i, LLVMConstInt(LLVMInt32TypeInContext(job->context), LLVMConstIntGetZExtValue(c), 0));
                    if (!LLVMIsAConstant(c) || !gpucompile_webgpu__nonfinite(c)) continue;
                    for (k = 0; k < nmade && !v; k++)
                        if (made[k][0] == c) v = made[k][1];
                    if (!v && nmade == 64) {
                        LLVMDisposeBuilder(b);
                        gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': more than 64 infinite or NaN constants, which WebGPU "
                                            "cannot express as literals", gpucompile_value_name(fn));
                        return -1;
                    }
                    if (!v) {
                        LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(entry));
                        v = gpucompile_webgpu__made_at_run_time(job, b, c);
                        made[nmade][0] = c;
                        made[nmade++][1] = v;
                    }
                    LLVMSetOperand(in, (unsigned)i, v);
                    count++;
                }
            }
    }
    LLVMDisposeBuilder(b);
    return count;
}

/* A float comparison that holds for NaN (fcmp uno, and the unordered ueq, une, ult, ...; ord
   its negation) written with a NaN test on the bits, or NULL for an ordered one: naga reads
   every float comparison as an ordered one (isnan's x != x was false for a NaN, and OpenCL's math
   took NaN for a number: log(NaN) 89.1). A NaN's bits without the sign are above the
   infinity's. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_webgpu__unordered(LLVMBuilderRef b, LLVMValueRef in) {
    static const LLVMRealPredicate ordered[16] = {LLVMRealPredicateFalse, LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE, LLVMRealOLT, LLVMRealOLE,
                                                  LLVMRealONE, LLVMRealORD, LLVMRealUNO, LLVMRealOEQ, LLVMRealOGT, LLVMRealOGE,
                                                  LLVMRealOLT, LLVMRealOLE, LLVMRealONE, LLVMRealPredicateTrue};
    LLVMRealPredicate p = LLVMGetFCmpPredicate(in);
    LLVMValueRef x[2], nan = NULL, r;
    LLVMTypeRef ft = LLVMTypeOf(LLVMGetOperand(in, 0)), et = LLVMGetTypeKind(ft) == LLVMVectorTypeKind ? LLVMGetElementType(ft) : ft;
    unsigned bits = LLVMGetTypeKind(et) == LLVMHalfTypeKind ? 16 : 32, n = et == ft ? 1 : LLVMGetVectorSize(ft), i, k;
    LLVMTypeRef it = LLVMIntTypeInContext(LLVMGetTypeContext(ft), bits), vt = n > 1 ? LLVMVectorType(it, n) : it;
    LLVMValueRef mask[16], inf[16];
    if (p < LLVMRealORD || p == LLVMRealPredicateTrue || n > 16 || (LLVMGetTypeKind(et) != LLVMFloatTypeKind && LLVMGetTypeKind(et) != LLVMHalfTypeKind))
        return NULL;
    for (i = 0; i < n; i++) {
        mask[i] = LLVMConstInt(it, bits == 16 ? 0x7fffu : 0x7fffffffu, 0);
        inf[i] = LLVMConstInt(it, bits == 16 ? 0x7c00u : 0x7f800000u, 0);
    }
    LLVMPositionBuilderBefore(b, in);
    for (k = 0; k < 2; k++) {
        LLVMValueRef v = LLVMBuildAnd(b, LLVMBuildBitCast(b, LLVMGetOperand(in, k), vt, ""), n > 1 ? LLVMConstVector(mask, n) : mask[0], "");
        x[k] = LLVMBuildICmp(b, LLVMIntUGT, v, n > 1 ? LLVMConstVector(inf, n) : inf[0], "");
        nan = nan ? LLVMBuildOr(b, nan, x[k], "") : x[k];
    }
    if (p == LLVMRealORD) return LLVMBuildNot(b, nan, "");
    if (p == LLVMRealUNO) return nan;
    r = LLVMBuildFCmp(b, ordered[p], LLVMGetOperand(in, 0), LLVMGetOperand(in, 1), "");
    return LLVMBuildOr(b, nan, r, "");
}

/* The signed operations that naga reads as unsigned ones: LLVM types every 32-bit integer
   unsigned in SPIR-V, and naga takes the signedness of GLSL.std.450's SMax, SMin, SAbs and of
   OpSDiv, OpSRem, OpShiftRightArithmetic, OpConvertSToF and OpConvertFToS from their operands'
   or result's type (-1 / 2 became 2147483647, (float)-1 4294967296, (int)-2.0f 0; Dawn's reader
   is right); only its comparisons it reads with their own signedness. Each written with
   comparisons, selects and the unsigned operation on magnitudes, as a 32-bit integer or a vector
   of them: arith 0, llvm.smax, smin and abs (after the lowering, whose clamp, min and max they
   are, before the Vulkan backend narrows 64-bit ones); arith 1, the instructions (after it: its
   repairs write some). */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__signed_ops(gpucompile_job *job, int arith) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(job->context);
    LLVMValueRef in, next;
    int count = 0;
    for (in = gpucompile_next_instruction(job->module, NULL); in; in = next) {
        LLVMOpcode op = LLVMGetInstructionOpcode(in);
        LLVMValueRef callee, a, c, r, na, neg_a, zero;
        LLVMTypeRef it;
        const char *name;
        int kind = 0;
        next = gpucompile_next_instruction(job->module, in);
        if (!arith && LLVMIsACallInst(in) && (callee = LLVMGetCalledValue(in)) != NULL && LLVMIsAFunction(callee)) {
            name = gpucompile_value_name(callee);
            kind = strncmp(name, "llvm.smax.", 10) == 0 ? 1 : strncmp(name, "llvm.smin.", 10) == 0 ? 2 : strncmp(name, "llvm.abs.", 9) == 0 ? 3 : 0;
        } else if (arith && op == LLVMFCmp) {
            if ((r = gpucompile_webgpu__unordered(b, in)) != NULL) {
                LLVMReplaceAllUsesWith(in, r);
                LLVMInstructionEraseFromParent(in);
                count++;
            }
            continue;
        } else if (arith && (op == LLVMSDiv || op == LLVMSRem || op == LLVMAShr || op == LLVMSIToFP || op == LLVMFPToSI)) {
            it = LLVMTypeOf(op == LLVMSIToFP ? LLVMGetOperand(in, 0) : in);
            if (LLVMGetTypeKind(it) == LLVMVectorTypeKind) it = LLVMGetElementType(it);
            kind = LLVMGetTypeKind(it) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(it) == 32 ? 4 : 0;
        }
        if (!kind) continue;
        LLVMPositionBuilderBefore(b, in);
        a = LLVMGetOperand(in, 0);
        if (op == LLVMFPToSI) { /* the magnitude's conversion, negated back; "not below zero", as "below" LLVM 22 makes FaceForward of and crashes */
            LLVMValueRef nn = LLVMBuildFCmp(b, LLVMRealUGE, a, LLVMConstNull(LLVMTypeOf(a)), "");
            LLVMValueRef u = LLVMBuildFPToUI(b, LLVMBuildSelect(b, nn, a, LLVMBuildFNeg(b, a, ""), ""), LLVMTypeOf(in), "");
            r = LLVMBuildSelect(b, nn, u, LLVMBuildNeg(b, u, ""), "");
        } else {
            zero = LLVMConstNull(LLVMTypeOf(a));
            na = LLVMBuildICmp(b, LLVMIntSLT, a, zero, "");
            neg_a = LLVMBuildNeg(b, a, "");
            c = LLVMGetNumOperands(in) > 1 ? LLVMGetOperand(in, 1) : NULL;
            if (kind == 1 || kind == 2) {
                r = LLVMBuildSelect(b, LLVMBuildICmp(b, kind == 1 ? LLVMIntSGT : LLVMIntSLT, a, c, ""), a, c, "");
            } else if (kind == 3) {
                r = LLVMBuildSelect(b, na, neg_a, a, "");
            } else if (op == LLVMAShr) { /* a negative one: the complement of its complement shifted */
                LLVMValueRef ones = LLVMConstAllOnes(LLVMTypeOf(a));
                r = LLVMBuildSelect(b, na, LLVMBuildXor(b, LLVMBuildLShr(b, LLVMBuildXor(b, a, ones, ""), c, ""), ones, ""), LLVMBuildLShr(b, a, c, ""), "");
            } else if (op == LLVMSIToFP) {
                LLVMValueRef u = LLVMBuildUIToFP(b, LLVMBuildSelect(b, na, neg_a, a, ""), LLVMTypeOf(in), "");
                r = LLVMBuildSelect(b, na, LLVMBuildFNeg(b, u, ""), u, "");
            } else { /* sdiv, srem: on the magnitudes (INT_MIN's is 2^31 unsigned), the sign after */
                LLVMValueRef nc = LLVMBuildICmp(b, LLVMIntSLT, c, zero, ""), m = LLVMBuildSelect(b, na, neg_a, a, "");
                LLVMValueRef q = op == LLVMSDiv ? LLVMBuildUDiv(b, m, LLVMBuildSelect(b, nc, LLVMBuildNeg(b, c, ""), c, ""), "")
                                                : LLVMBuildURem(b, m, LLVMBuildSelect(b, nc, LLVMBuildNeg(b, c, ""), c, ""), "");
                r = LLVMBuildSelect(b, op == LLVMSDiv ? LLVMBuildXor(b, na, nc, "") : na, LLVMBuildNeg(b, q, ""), q, "");
            }
        }
        LLVMReplaceAllUsesWith(in, r);
        LLVMInstructionEraseFromParent(in);
        count++;
    }
    LLVMDisposeBuilder(b);
    return count;
}

/* The lowering's target: Vulkan's (the same code generator takes the result), with 32-bit
   addresses (WebGPU's buffers are below 2 GiB: maxBufferSize). */
GPUCOMPILE_PRIVATE const gpucompile_lower_target *gpucompile_webgpu__lower_target(void) {
    static gpucompile_lower_target t;
    if (!t.name) {
        gpucompile_lower_target v = *gpucompile_vulkan_lower_target();
        v.name = "webgpu";
        v.api = "WebGPU";
        v.index_bits = 32;
        v.spec_constant = NULL; /* the runtime makes each pipeline once: every size compiled in */
        v.image_type = NULL;    /* no images yet: refused by name */
        memset(v.subgroup, 0, sizeof v.subgroup); /* WebGPU's core has no sub-groups: refused by name */
        gpucompile_lock();
        if (!t.name) t = v;
        gpucompile_unlock();
    }
    return &t;
}

/* Pointer kernels into the Vulkan shape with the lowering's WebGPU target, then the Vulkan
   backend's input rules on what it made (its pre_emit then finds no kernel to lower). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__lower(gpucompile_job *job, gpucompile_webgpu__job *st) {
    gpucompile_lower_options o;
    gpucompile_result r;
    int n = 0;
    if ((r = gpucompile_lower_flags(job, st->target, &o)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_lower_kernels(job, job->module, gpucompile_webgpu__lower_target(), &o, NULL, &n)) != GPUCOMPILE_OK) return r;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "%d kernel%s rewritten into the binding model (buffers at the "
                       "parameters' bindings, scalars in the uniform block, the parameters' order recorded)", n, n == 1 ? "" : "s");
    if (GPUCOMPILE_WEBGPU__VK()->prepare) GPUCOMPILE_WEBGPU__CALL_VK(job, st, GPUCOMPILE_WEBGPU__VK()->prepare(job));
    return r;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__pre_emit(gpucompile_job *job) {
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)job->backend_data;
    gpucompile_result r = GPUCOMPILE_OK;
    int narrowed;
    if (gpucompile_has_pointer_kernels(job->module)) { /* double and half first: the lowering splits them into integers */
        LLVMValueRef in;
        int f16 = gpucompile_webgpu__f16(st->target);
        for (in = gpucompile_next_instruction(job->module, NULL); in; in = gpucompile_next_instruction(job->module, in)) {
            const char *why = gpucompile_webgpu__bad_instruction(in, f16);
            if (why && (strncmp(why, "a double", 8) == 0 || strncmp(why, "a half", 6) == 0)) return gpucompile_webgpu__refuse(job, in, why);
        }
        if ((r = gpucompile_webgpu__lower(job, st)) != GPUCOMPILE_OK) return r;
    }
    narrowed = gpucompile_webgpu__signed_ops(job, 0);
    if (GPUCOMPILE_WEBGPU__VK()->pre_emit) GPUCOMPILE_WEBGPU__CALL_VK(job, st, GPUCOMPILE_WEBGPU__VK()->pre_emit(job));
    if (r != GPUCOMPILE_OK) return r;
    if ((narrowed += gpucompile_webgpu__signed_ops(job, 1)) > 0)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "%d signed operation%s (min, max, abs, division, remainder, "
                           "shift, conversion) written on magnitudes (naga reads them on LLVM's unsigned types as unsigned)", narrowed, narrowed == 1 ? "" : "s");
    if ((narrowed = gpucompile_webgpu__constants(job)) < 0) return GPUCOMPILE_ERROR_UNSUPPORTED;
    if (narrowed)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "%d use%s of an infinite or NaN constant made at run time "
                           "(WGSL has no literal for one)", narrowed, narrowed == 1 ? "" : "s");
    return gpucompile_webgpu__check_module(job, st->target);
}

/* ==== [section: webgpu words] ============================================================
   The Vulkan module reshaped for WebGPU's readers. */
typedef struct gpucompile_webgpu__spv {
    const uint32_t *w;
    size_t n;
    size_t *at;       /* each instruction's first word */
    size_t count;
} gpucompile_webgpu__spv;

#define GPUCOMPILE_WEBGPU__OP(s, i) ((s)->w[(s)->at[i]] & 0xffffu)
#define GPUCOMPILE_WEBGPU__WC(s, i) ((s)->w[(s)->at[i]] >> 16)
#define GPUCOMPILE_WEBGPU__W(s, i, k) ((s)->w[(s)->at[i] + (k)])

GPUCOMPILE_PRIVATE int gpucompile_webgpu__literal(uint32_t op, size_t k);

/* Marks the global variables fn and its callees name (a word equal to a variable's id). */
GPUCOMPILE_PRIVATE void gpucompile_webgpu__uses(const gpucompile_webgpu__spv *s, const unsigned char *is_var, size_t bound, uint32_t fn,
                                                unsigned char *used, unsigned char *seen, int depth) {
    size_t i, k;
    if (fn >= bound || seen[fn] || depth > 64) return;
    seen[fn] = 1;
    for (i = 0; i < s->count; i++)
        if (GPUCOMPILE_WEBGPU__OP(s, i) == 54 && GPUCOMPILE_WEBGPU__WC(s, i) >= 3 && GPUCOMPILE_WEBGPU__W(s, i, 2) == fn) break; /* OpFunction */
    for (i++; i < s->count && GPUCOMPILE_WEBGPU__OP(s, i) != 56; i++) { /* until OpFunctionEnd */
        uint32_t op = GPUCOMPILE_WEBGPU__OP(s, i);
        for (k = 1; k < GPUCOMPILE_WEBGPU__WC(s, i); k++) {
            uint32_t v = GPUCOMPILE_WEBGPU__W(s, i, k);
            if (gpucompile_webgpu__literal(op, k)) continue;
            if (v < bound && is_var[v]) used[v] = 1;
        }
        if (GPUCOMPILE_WEBGPU__OP(s, i) == 57 && GPUCOMPILE_WEBGPU__WC(s, i) >= 4) /* OpFunctionCall */
            gpucompile_webgpu__uses(s, is_var, bound, GPUCOMPILE_WEBGPU__W(s, i, 3), used, seen, depth + 1);
    }
}

/* The result id of instruction i when it is a declaration that may go unused (a function
   variable, a constant, an array, pointer or integer type), else 0. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_webgpu__decl(const gpucompile_webgpu__spv *s, size_t i) {
    uint32_t op = GPUCOMPILE_WEBGPU__OP(s, i), wc = GPUCOMPILE_WEBGPU__WC(s, i);
    if ((op == 21 || op == 28 || op == 32) && wc >= 2) return GPUCOMPILE_WEBGPU__W(s, i, 1);   /* OpTypeInt, OpTypeArray, OpTypePointer */
    if ((op == 43 || op == 44 || op == 46) && wc >= 3) return GPUCOMPILE_WEBGPU__W(s, i, 2);   /* OpConstant, OpConstantComposite, OpConstantNull */
    if (op == 59 && wc >= 4 && GPUCOMPILE_WEBGPU__W(s, i, 3) == 7) return GPUCOMPILE_WEBGPU__W(s, i, 2); /* OpVariable Function */
    return 0;
}

/* Marks (*dead, per instruction) the declarations nothing uses, until none is left: LLVM 22's
   resource-name strings in function variables, and the 8-bit types and constants they alone
   need. Decorations and names are not uses. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__dead(gpucompile_job *job, const gpucompile_webgpu__spv *s, size_t bound, unsigned char **dead) {
    uint32_t *refs = (uint32_t *)gpucompile_job_alloc(job, (bound + 1) * sizeof *refs);
    size_t i, k;
    int changed = 1;
    *dead = (unsigned char *)gpucompile_job_alloc(job, s->count + 1);
    if (!refs || !*dead) {
        gpucompile_job_free(job, refs);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    memset(*dead, 0, s->count + 1);
    while (changed) {
        changed = 0;
        memset(refs, 0, (bound + 1) * sizeof *refs);
        for (i = 0; i < s->count; i++) {
            uint32_t op = GPUCOMPILE_WEBGPU__OP(s, i), self = gpucompile_webgpu__decl(s, i);
            uint32_t wc = GPUCOMPILE_WEBGPU__WC(s, i), last = wc;
            if ((*dead)[i] || op == 5 || op == 6 || op == 71 || op == 72 || op == 3 || op == 7 || op == 10 || op == 11 || op == 14 || op == 16 ||
                op == 17 || op == 330 || op == 21 || op == 22)
                continue; /* names, decorations, literals only */
            if (op == 43 || op == 23) last = op == 43 ? 2 : 3; /* OpConstant's value, OpTypeVector's count: literals */
            for (k = 1; k < last; k++) {
                uint32_t v = GPUCOMPILE_WEBGPU__W(s, i, k);
                if (op == 12 && k == 4) continue;  /* OpExtInst's instruction number */
                if (op == 15 && k >= 3) {         /* OpEntryPoint: the interface after the name */
                    const char *name = (const char *)(s->w + s->at[i] + 3);
                    size_t len = 0, max = (size_t)(wc - 3) * 4;
                    while (len < max && name[len]) len++;
                    if (k < 3 + len / 4 + 1) continue;
                }
                if (v < bound && !(self && v == self)) refs[v]++;
            }
        }
        for (i = 0; i < s->count; i++) {
            uint32_t id = gpucompile_webgpu__decl(s, i);
            if (!(*dead)[i] && id && id < bound && !refs[id]) {
                (*dead)[i] = 1;
                changed = 1;
            }
        }
    }
    gpucompile_job_free(job, refs);
    return GPUCOMPILE_OK;
}

/* Is id declared by an instruction marked dead? */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__dead_id(const unsigned char *dead, const gpucompile_webgpu__spv *s, uint32_t id) {
    size_t i;
    for (i = 0; i < s->count; i++)
        if (dead[i] && gpucompile_webgpu__decl(s, i) == id) return 1;
    return 0;
}

/* Is word k of an instruction of opcode op (inside a function) a literal, not an id: memory
   operands, composite indices, merge and loop controls, branch weights, switch cases, an
   extended instruction's number? */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__literal(uint32_t op, size_t k) {
    return (op == 61 && k >= 4) || (op == 62 && k >= 3) || (op == 81 && k >= 4) || (op == 82 && k >= 5) || (op == 79 && k >= 5) ||
           (op == 247 && k >= 2) || (op == 246 && k >= 3) || (op == 250 && k >= 4) || (op == 251 && k >= 3 && (k - 3) % 2 == 0) ||
           (op == 12 && k == 4);
}

/* Each entry point its own Input variables: Dawn's reader of Chromium 133 refuses a module whose
   entry points share several built-in variables ("missing entry point IO attribute on
   parameter"), as LLVM writes them. A copy of the words w[0..n) with a new variable (and its
   decorations) for each entry point after the first that uses one, its function's uses renamed;
   an entry point that calls functions keeps the shared ones. Appended to out. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__split_inputs(gpucompile_job *job, const uint32_t *w, size_t n, gpucompile_buf *out) {
    gpucompile_webgpu__spv s;
    size_t i, at, k, bound = n > 5 ? w[3] : 0, e, ne = 0, nnew = 0;
    unsigned char *is_var = NULL, *used, *seen, *claimed;
    uint32_t *fresh = NULL; /* per entry index * bound: the new id of a variable, 0 none (entries <= 64) */
    uint32_t entries[64], next = (uint32_t)bound;
    gpucompile_result r = GPUCOMPILE_OK;
    memset(&s, 0, sizeof s);
    s.w = w;
    s.n = n;
    if (n < 5 || bound > 4u * n + 64) return GPUCOMPILE_ERROR_INVALID_BINARY;
    if (!(s.at = (size_t *)gpucompile_job_alloc(job, n * sizeof *s.at)) || !(is_var = (unsigned char *)gpucompile_job_alloc(job, 4 * (bound + 1)))) {
        r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    memset(is_var, 0, 4 * (bound + 1));
    used = is_var + bound + 1;
    seen = used + bound + 1;
    claimed = seen + bound + 1;
    for (at = 5; at < n; at += w[at] >> 16) {
        if (!(w[at] >> 16) || (w[at] >> 16) > n - at) { r = GPUCOMPILE_ERROR_INVALID_BINARY; goto done; }
        s.at[s.count++] = at;
    }
    for (i = 0; i < s.count; i++) {
        if (GPUCOMPILE_WEBGPU__OP(&s, i) == 59 && GPUCOMPILE_WEBGPU__WC(&s, i) >= 4 && GPUCOMPILE_WEBGPU__W(&s, i, 3) == 1 &&
            GPUCOMPILE_WEBGPU__W(&s, i, 2) < bound)
            is_var[GPUCOMPILE_WEBGPU__W(&s, i, 2)] = 1; /* Input */
        if (GPUCOMPILE_WEBGPU__OP(&s, i) == 15 && GPUCOMPILE_WEBGPU__WC(&s, i) >= 3 && ne < 64) entries[ne++] = GPUCOMPILE_WEBGPU__W(&s, i, 2);
    }
    if (ne < 2) { gpucompile_buf_add(out, w, n * 4); goto done; }
    if (!(fresh = (uint32_t *)gpucompile_job_alloc(job, ne * (bound + 1) * sizeof *fresh))) { r = GPUCOMPILE_ERROR_OUT_OF_MEMORY; goto done; }
    memset(fresh, 0, ne * (bound + 1) * sizeof *fresh);
    for (e = 0; e < ne; e++) {
        int calls = 0;
        memset(used, 0, bound + 1);
        memset(seen, 0, bound + 1);
        gpucompile_webgpu__uses(&s, is_var, bound, entries[e], used, seen, 0);
        for (k = 0; k < bound; k++) calls += seen[k] && k != entries[e];
        for (k = 0; k < bound; k++) {
            if (!used[k]) continue;
            if (claimed[k] && !calls) { fresh[e * (bound + 1) + k] = next++; nnew++; }
            claimed[k] = 1;
        }
    }
    { /* the header with the new bound */
        uint32_t head[5];
        memcpy(head, w, 20);
        head[3] = next;
        gpucompile_buf_add(out, head, 20);
    }
    for (i = 0, e = (size_t)-1; i < s.count; i++) {
        uint32_t op = GPUCOMPILE_WEBGPU__OP(&s, i), wc = GPUCOMPILE_WEBGPU__WC(&s, i), copy[64];
        const uint32_t *iw = w + s.at[i];
        size_t q;
        if (op == 54 && wc >= 3) { /* OpFunction: which entry point's body follows */
            for (e = (size_t)-1, q = 0; q < ne; q++)
                if (entries[q] == iw[2]) e = q;
        }
        if (op == 15 && wc >= 3 && wc <= 64) { /* its interface with its own variables */
            for (q = 0; q < ne && entries[q] != iw[2]; q++) {}
            memcpy(copy, iw, wc * 4);
            for (k = 3; q < ne && k < wc; k++)
                if (copy[k] < bound && fresh[q * (bound + 1) + copy[k]]) copy[k] = fresh[q * (bound + 1) + copy[k]];
            gpucompile_buf_add(out, copy, wc * 4);
            continue;
        }
        if (e != (size_t)-1 && wc <= 64 && op != 54) { /* inside an entry point's function */
            memcpy(copy, iw, wc * 4);
            for (k = 1; k < wc; k++)
                if (!gpucompile_webgpu__literal(op, k) && copy[k] < bound && fresh[e * (bound + 1) + copy[k]]) copy[k] = fresh[e * (bound + 1) + copy[k]];
            gpucompile_buf_add(out, copy, wc * 4);
            if (op == 56) e = (size_t)-1;
            continue;
        }
        gpucompile_buf_add(out, iw, (size_t)wc * 4);
        if ((op == 71 && wc >= 3 && wc <= 64 && iw[1] < bound && is_var[iw[1]]) || (op == 59 && wc == 4 && iw[2] < bound && is_var[iw[2]])) {
            size_t idpos = op == 71 ? 1 : 2; /* the copies' decorations, the copies */
            for (q = 0; q < ne; q++)
                if (fresh[q * (bound + 1) + iw[idpos]]) {
                    memcpy(copy, iw, wc * 4);
                    copy[idpos] = fresh[q * (bound + 1) + iw[idpos]];
                    gpucompile_buf_add(out, copy, wc * 4);
                }
        }
    }
    if (nnew) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "%lu built-in input variable%s given to one entry point each",
                                 (unsigned long)nnew, nnew == 1 ? "" : "s");
done:
    if (out->oom && r == GPUCOMPILE_OK) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    gpucompile_job_free(job, s.at);
    gpucompile_job_free(job, is_var);
    gpucompile_job_free(job, fresh);
    return r;
}

/* Is type a bool, integer, float or vector type (whose OpConstantNull is a zero)? */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__null_type(const gpucompile_webgpu__spv *s, uint32_t type) {
    size_t i;
    for (i = 0; i < s->count; i++) {
        uint32_t op = GPUCOMPILE_WEBGPU__OP(s, i);
        if (op >= 20 && op <= 23 && GPUCOMPILE_WEBGPU__WC(s, i) >= 2 && GPUCOMPILE_WEBGPU__W(s, i, 1) == type) return 1;
    }
    return 0;
}

/* The words w[0..n) (host order; the scalars' block already the uniform buffer) as WebGPU's
   readers take them, appended to out. A module-scope OpUndef of a scalar or vector becomes
   OpConstantNull: Dawn's reader of Chromium 133 cannot read an OpConstantComposite of OpUndef
   ("unhandled expression"), which LLVM writes for a shuffle of a 3-element vector; a zero is
   one of the values an undefined one may take. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__reshape(gpucompile_job *job, const uint32_t *w, size_t n, gpucompile_buf *out) {
    gpucompile_webgpu__spv s;
    size_t i, at, bound = n > 5 ? w[3] : 0, first_annotation = 0;
    unsigned char *nonwritable_var = NULL, *storage = NULL;
    uint32_t k;
    gpucompile_result r = GPUCOMPILE_OK;
    unsigned char *dead = NULL;
    int int8 = 0, in_function = 0;
    memset(&s, 0, sizeof s);
    if (n < 5 || w[0] != 0x07230203u || bound > 4u * n + 64) return GPUCOMPILE_ERROR_INVALID_BINARY;
    s.w = w;
    s.n = n;
    if (!(s.at = (size_t *)gpucompile_job_alloc(job, n * sizeof *s.at)) || !(nonwritable_var = (unsigned char *)gpucompile_job_alloc(job, bound * 2 + 2))) {
        r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    memset(nonwritable_var, 0, bound * 2 + 2);
    storage = nonwritable_var + bound + 1; /* each variable's storage class (below 256) */
    for (at = 5; at < n; at += w[at] >> 16) {
        if (!(w[at] >> 16) || (w[at] >> 16) > n - at) { r = GPUCOMPILE_ERROR_INVALID_BINARY; goto done; }
        s.at[s.count++] = at;
    }
    for (i = 0; i < s.count; i++) { /* variables, the annotations */
        uint32_t op = GPUCOMPILE_WEBGPU__OP(&s, i), wc = GPUCOMPILE_WEBGPU__WC(&s, i);
        if (op == 59 && wc >= 4 && GPUCOMPILE_WEBGPU__W(&s, i, 2) < bound && GPUCOMPILE_WEBGPU__W(&s, i, 3) != 7) /* OpVariable, not Function */
            storage[GPUCOMPILE_WEBGPU__W(&s, i, 2)] = (unsigned char)(GPUCOMPILE_WEBGPU__W(&s, i, 3) < 256 ? GPUCOMPILE_WEBGPU__W(&s, i, 3) : 255);
        if ((op == 71 || op == 72) && !first_annotation) first_annotation = i;
        if (op == 71 && wc >= 3 && GPUCOMPILE_WEBGPU__W(&s, i, 2) == 24 && GPUCOMPILE_WEBGPU__W(&s, i, 1) < bound) /* NonWritable */
            nonwritable_var[GPUCOMPILE_WEBGPU__W(&s, i, 1)] = 1;
    }
    if (!first_annotation) first_annotation = s.count;
    if ((r = gpucompile_webgpu__dead(job, &s, bound, &dead)) != GPUCOMPILE_OK) goto done;
    for (i = 0; i < s.count; i++) /* an 8-bit integer type still used */
        if (!dead[i] && GPUCOMPILE_WEBGPU__OP(&s, i) == 21 && GPUCOMPILE_WEBGPU__WC(&s, i) >= 3 && GPUCOMPILE_WEBGPU__W(&s, i, 2) == 8) int8 = 1;
    if (int8) {
        r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module uses 8-bit integers (the Int8 capability), which WGSL does not have");
        goto done;
    }
    { /* SPIR-V 1.3: the newest Dawn's reader of Chromium 133 takes (naga takes any) */
        uint32_t head[5];
        memcpy(head, w, 20);
        head[1] = 0x00010300u;
        gpucompile_buf_add(out, head, 20);
    }
    for (i = 0; i < s.count; i++) {
        uint32_t op = GPUCOMPILE_WEBGPU__OP(&s, i), wc = GPUCOMPILE_WEBGPU__WC(&s, i);
        const uint32_t *iw = w + s.at[i];
        if (i == first_annotation) { /* read-only buffers' NonWritable */
            for (k = 0; k < s.count; k++) { /* StorageBuffer variables whose block is all NonWritable */
                size_t j, q;
                uint32_t var, ptr_type, block = 0, members = 0, nw = 0;
                if (GPUCOMPILE_WEBGPU__OP(&s, k) != 59 || GPUCOMPILE_WEBGPU__WC(&s, k) < 4 || GPUCOMPILE_WEBGPU__W(&s, k, 3) != 12) continue;
                var = GPUCOMPILE_WEBGPU__W(&s, k, 2);
                ptr_type = GPUCOMPILE_WEBGPU__W(&s, k, 1);
                if (var >= bound || nonwritable_var[var]) continue;
                for (j = 0; j < s.count; j++)
                    if (GPUCOMPILE_WEBGPU__OP(&s, j) == 32 && GPUCOMPILE_WEBGPU__WC(&s, j) >= 4 && GPUCOMPILE_WEBGPU__W(&s, j, 1) == ptr_type)
                        block = GPUCOMPILE_WEBGPU__W(&s, j, 3);
                for (j = 0; block && j < s.count; j++)
                    if (GPUCOMPILE_WEBGPU__OP(&s, j) == 30 && GPUCOMPILE_WEBGPU__W(&s, j, 1) == block) members = GPUCOMPILE_WEBGPU__WC(&s, j) - 2;
                for (q = 0; q < s.count; q++)
                    if (GPUCOMPILE_WEBGPU__OP(&s, q) == 72 && GPUCOMPILE_WEBGPU__WC(&s, q) >= 4 && GPUCOMPILE_WEBGPU__W(&s, q, 1) == block &&
                        GPUCOMPILE_WEBGPU__W(&s, q, 3) == 24)
                        nw++;
                if (members && nw >= members) {
                    uint32_t d[3];
                    d[0] = 3u << 16 | 71u; d[1] = var; d[2] = 24; /* NonWritable */
                    gpucompile_buf_add(out, d, 12);
                }
            }
        }
        if (dead[i] || op == 5 || op == 6) continue; /* OpName, OpMemberName: LLVM's names are not WGSL's ("pc.1") */
        if ((op == 71 || op == 72) && wc >= 2 && iw[1] < bound && gpucompile_webgpu__dead_id(dead, &s, iw[1])) continue;
        if (op == 17 && wc == 2 && iw[1] == 39 && !int8) continue; /* Int8, of the names alone */
        if (op == 15 && wc >= 4) { /* OpEntryPoint: SPIR-V 1.3 lists the Input and Output variables only (the Vulkan backend left those its function uses) */
            const char *name = (const char *)(iw + 3);
            size_t max = (size_t)(wc - 3) * 4, len = 0, nw, j, kept = 0;
            uint32_t head;
            while (len < max && name[len]) len++;
            nw = len / 4 + 1;
            if (3 + nw > wc) { r = GPUCOMPILE_ERROR_INVALID_BINARY; goto done; }
            for (j = 3 + nw; j < wc; j++) kept += iw[j] < bound && (storage[iw[j]] == 1 || storage[iw[j]] == 3);
            head = (uint32_t)((3 + nw + kept) << 16 | 15u);
            gpucompile_buf_add(out, &head, 4);
            gpucompile_buf_add(out, iw + 1, (2 + nw) * 4);
            for (j = 3 + nw; j < wc; j++)
                if (iw[j] < bound && (storage[iw[j]] == 1 || storage[iw[j]] == 3)) gpucompile_buf_add(out, &iw[j], 4);
            continue;
        }
        if (op == 1 && wc == 3 && !in_function && gpucompile_webgpu__null_type(&s, iw[1])) { /* OpUndef: OpConstantNull */
            uint32_t null_first = 3u << 16 | 46u;
            gpucompile_buf_add(out, &null_first, 4);
            gpucompile_buf_add(out, iw + 1, 8);
            continue;
        }
        if (op == 54) in_function = 1;
        if ((op == 61 && wc > 4) || (op == 62 && wc > 3) || (op == 63 && wc > 3)) { /* OpLoad, OpStore, OpCopyMemory: no memory operands */
            uint32_t keep = op == 61 ? 4 : 3, head = keep << 16 | op;
            gpucompile_buf_add(out, &head, 4);
            gpucompile_buf_add(out, iw + 1, (keep - 1) * 4);
            continue;
        }
        gpucompile_buf_add(out, iw, (size_t)wc * 4);
    }
    if (out->oom) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
done:
    gpucompile_job_free(job, s.at);
    gpucompile_job_free(job, nonwritable_var);
    gpucompile_job_free(job, dead);
    return r;
}

/* Each entry point's storage buffers against WebGPU's per-stage limit (8, the default
   maxStorageBuffersPerShaderStage; the flag max_storage_buffers for a device with more): the
   device refuses a module above it when it makes the pipeline. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__check_bindings(gpucompile_job *job, const gpucompile_target *t) {
    long max = gpucompile_webgpu__flag_u(t, "max_storage_buffers", 8);
    int n = gpucompile_webgpu__reflect(job->result_data, job->result_size, NULL, 0), i;
    gpucompile_webgpu_kernel *ks = n > 0 ? (gpucompile_webgpu_kernel *)gpucompile_job_alloc(job, (size_t)n * sizeof *ks) : NULL;
    if (n > 0 && !ks) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if (ks) gpucompile_webgpu__reflect(job->result_data, job->result_size, ks, n);
    for (i = 0; ks && i < n; i++)
        if (ks[i].k.num_bindings > max) {
            gpucompile_result r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': %d storage buffers: WebGPU's limit is %ld "
                                                      "per shader stage (maxStorageBuffersPerShaderStage; flag max_storage_buffers for a device "
                                                      "with more)", ks[i].k.name, ks[i].k.num_bindings, max);
            gpucompile_job_free(job, ks);
            return r;
        }
    gpucompile_job_free(job, ks);
    return GPUCOMPILE_OK;
}

/* ==== [section: webgpu objects] ==========================================================
   The reshaped module, its kernels' reflection as MLIR kernel metadata, the backend table. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__finish(gpucompile_job *job, gpucompile_format format) {
    gpucompile_webgpu__job *st = (gpucompile_webgpu__job *)job->backend_data;
    gpucompile_result r = GPUCOMPILE_OK;
    gpucompile_buf out;
    int binding = -1;
    GPUCOMPILE_WEBGPU__CALL_VK(job, st, GPUCOMPILE_WEBGPU__VK()->finish(job, format));
    if (r != GPUCOMPILE_OK || format != GPUCOMPILE_FORMAT_BIN) return r;
    memset(&out, 0, sizeof out);
    out.a = &job->options->allocator;
    {
        gpucompile_buf split;
        uint32_t *uniform = NULL;
        size_t nu = 0;
        int u = 0;
        memset(&split, 0, sizeof split);
        split.a = &job->options->allocator;
        r = gpucompile_webgpu__split_inputs(job, (const uint32_t *)job->result_data, job->result_size / 4, &split);
        if (r == GPUCOMPILE_OK && (u = gpucompile_vulkan__uniform_block((const uint32_t *)split.data, split.len / 4, &uniform, &nu, &binding)) != 0)
            r = u == -1 ? GPUCOMPILE_ERROR_INVALID_BINARY : u == -3 ? GPUCOMPILE_ERROR_OUT_OF_MEMORY
              : gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module has a uniform buffer of the push-constant block's type: "
                                    "WebGPU's uniform block cannot be told apart from it");
        if (r == GPUCOMPILE_OK) r = gpucompile_webgpu__reshape(job, uniform, nu, &out);
        gpucompile_free(split.a, split.data);
        free(uniform);
    }
    if (r != GPUCOMPILE_OK) {
        gpucompile_free(out.a, out.data);
        return r == GPUCOMPILE_ERROR_INVALID_BINARY ? gpucompile_job_fail(job, r, "the Vulkan module cannot be read for WebGPU") : r;
    }
    gpucompile_job_free(job, job->result_data);
    job->result_data = (unsigned char *)out.data;
    job->result_size = out.len;
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "for WebGPU's readers: memory operands dropped, names dropped, "
                       "interfaces pruned%s", binding >= 0 ? ", the push-constant block made the uniform buffer at set 0" : "");
    if (binding >= 0) gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "webgpu", "uniform block: set 0, binding %d", binding);
    if ((r = gpucompile_vulkan_reflect_into(job->object, job->result_data, job->result_size, 0)) != GPUCOMPILE_OK)
        return r == GPUCOMPILE_ERROR_OUT_OF_MEMORY ? r : gpucompile_job_fail(job, r, "the WebGPU module cannot be read back");
    return gpucompile_webgpu__check_bindings(job, st->target);
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_webgpu__find_kernels(gpucompile_object *obj) {
    if (obj->num_kernels || obj->format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK;
    return gpucompile_vulkan_reflect_into(obj, obj->data, obj->size, 1);
}

/* The compile side of the one selection rule (gpucompile_webgpu__score). */
GPUCOMPILE_PRIVATE int gpucompile_webgpu__select_score(const gpucompile_object *o, const char *device, const char **why) {
    if (!o) return strcmp(device, "webgpu") == 0 ? -1 : -2;
    return gpucompile_webgpu__score(o->triple, o->chip, gpucompile_format_string(o->format), NULL, device, why);
}

GPUCOMPILE_PRIVATE void gpucompile_webgpu__fill(gpucompile_backend *t) {
    *t = *gpucompile_vulkan_backend();
    gpucompile_backend_names(t, GPUCOMPILE_TARGET_CUSTOM, "webgpu", "gpu.webgpu", NULL, "spirv1.6-unknown-vulkan1.3-compute", "webgpu");
    t->params[0] = "O,triple,chip,features,flags";
    t->params[1] = NULL;
    t->parse_text[1] = NULL;
    t->print_text[1] = NULL;
    t->init = gpucompile_webgpu__init;
    t->configure = gpucompile_webgpu__configure;
    t->release = gpucompile_webgpu__release;
    t->prepare = gpucompile_webgpu__prepare;
    t->pre_emit = gpucompile_webgpu__pre_emit;
    t->emitted_wrong = gpucompile_spirv_ids_wrong; /* the Vulkan backend's words */
    t->finish = gpucompile_webgpu__finish;
    t->find_kernels = gpucompile_webgpu__find_kernels;
    t->verify = gpucompile_webgpu__verify;
    t->select_score = gpucompile_webgpu__select_score;
    t->formats = 1u << GPUCOMPILE_FORMAT_LLVM | 1u << GPUCOMPILE_FORMAT_BIN;
    t->file_ext[GPUCOMPILE_FORMAT_ISA] = NULL;
    t->cache_version = "webgpu 8"; /* through the Vulkan backend's "vulkan 7" */
    t->device_help = "webgpu (a WebGPU adapter through wgpu-native or Dawn)";
    t->help = "WebGPU compute (an LLVM with the SPIRV target: 22): SPIR-V modules that wgpu's and\n"
              "Dawn's readers take, within WGSL's types and limits, with their reflection";
}

GPUCOMPILE_BACKEND_DEFINE(webgpu)

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_WEBGPU_IMPLEMENTATION */

/* ==== [section: runtime] =================================================================

   The runtime (GPUCOMPILE_WEBGPU_RUNTIME in one file; one vendor runtime per program)
       Library: $GPUCOMPILE_LIBWEBGPU or gpucompile_runtime_set_library(), else the first of
       wgpu-native's and Dawn's names that opens (Linux libwgpu_native.so, libwebgpu_dawn.so;
       Windows wgpu_native.dll, webgpu_dawn.dll; macOS libwgpu_native.dylib, libwebgpu_dawn.dylib).
       The few webgpu.h types it uses are declared here. Two revisions of webgpu.h's ABI are
       read, told apart by their entry points: webgpu.h as webgpu-headers has it (wgpu-native
       v25 and later, Dawn from 2025), and Dawn's of Chromium 133 (dawn-python 0.3.0:
       wgpuInstanceRequestAdapter2 and the other *2 entry points, BufferBindingType and
       FeatureName numbered without Undefined, WGPUBindGroupLayoutEntry without bindingArraySize,
       the queue's work-done callback without a message); tests/test_webgpu.c checks the layouts
       against wgpu-native's webgpu.h.
       Device: the mgpuSetDefaultDevice'th adapter (wgpuInstanceEnumerateAdapters where the
       library has it, wgpu-native's; else the one wgpuInstanceRequestAdapter gives, ordinal 0
       only) and a device with WebGPU's default limits (what #gpu.webgpu's checks assume) and
       shader-f16 when the adapter has it. gpucompile_runtime_device_arch() answers "webgpu".
       Its errors come through the runtime's error callback: the uncaptured-error callback
       ("WebGPU uncaptured error", its WGPUErrorType as the code), device loss ("WebGPU device
       lost": every later call is refused), and validation errors of module creation (the module
       is not made: mgpuModuleLoad returns NULL).
       Memory: WebGPU has no memory that shader and host share. mgpuMemAlloc makes a storage
       buffer (its size rounded up to 4 bytes) and returns the address of a host block of the same
       size, which only names it (every address inside is the buffer at that offset). The host
       must not read or write it but through mgpuMemcpy / mgpuMemset32, except when it was
       allocated isHostShared: then the block is the host's mirror of the buffer, copied to the
       buffer before a launch that uses it (unless a launch not yet synchronized wrote it) and
       back when the stream that launched is synchronized (a NULL-stream launch: when
       mgpuLaunchKernel returns).
       mgpuMemcpy: host -> buffer through wgpuQueueWriteBuffer (the host memory may be reused
       when the call returns); buffer -> host through a staging buffer mapped for reading: on the
       NULL stream the host memory holds the data when mgpuMemcpy returns, on a stream only after
       mgpuStreamSynchronize of that stream (until then it is not written); buffer -> buffer a
       copy in the stream's commands. Offsets and sizes into buffers are multiples of 4 (WebGPU's
       copies are made of whole words); a read may end anywhere. mgpuMemset32 writes through the
       queue.
       Module: mgpuModuleLoad(SPIR-V words of #gpu.webgpu) makes the shader module and, per
       GLCompute entry point, its bind group layouts (read-only storage buffers as
       read-only-storage, the uniform block as uniform), pipeline layout and compute pipeline,
       kept until mgpuModuleUnload. mgpuModuleGetFunction names an entry point.
       Arguments: as the Vulkan runtime's (gpucompile_vulkan.h): the bindings in (set, binding)
       order, then the uniform block's members in offset order; a pointer kernel's in its
       original order (the same --host launch code as CUDA, HIP, OpenCL and Vulkan). A pointer
       inside an allocation is that buffer from that offset, which must be a multiple of 256
       (minStorageBufferOffsetAlignment); the binding's size is the rest of the allocation, at
       most 128 MiB (maxStorageBufferBindingSize). The block size must equal the entry point's
       workgroup size; the grid at most 65535 groups a dimension; dynamic shared memory is
       refused but up to what a pointer kernel's local parameters were compiled with.
       Streams: a stream is a command encoder: launches (a compute pass each) and copies are
       recorded into it and submitted when the stream is synchronized, or before a queue write
       (mgpuMemcpy from the host, mgpuMemset32, a host-shared mirror's upload) so that the write
       lands after the commands recorded before it. The NULL stream submits and waits each time.
       Waits: a map or the queue's work-done callback, driven by wgpuDevicePoll (wgpu-native) or
       wgpuInstanceProcessEvents (Dawn), at most $GPUCOMPILE_WEBGPU_TIMEOUT_MS (60000) ms; a
       timeout is reported and the device is no longer used.
       One thread at a time: each mgpu* call holds the runtime's lock.
       Nothing aborts: every failure is reported through gpucompile_runtime_report.
*/
#if defined(GPUCOMPILE_WEBGPU_RUNTIME) && !defined(GPUCOMPILE_WEBGPU__RUNTIME_IMPLEMENTED)
#define GPUCOMPILE_WEBGPU__RUNTIME_IMPLEMENTED
#define GPUCOMPILE_RUNTIME_VENDOR /* gpucompile_runtime.h refuses a second vendor runtime */
#include "gpucompile_runtime.h"
#include <time.h>
#if !defined(_WIN32)
#include <sched.h>
#endif
#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define GPUCOMPILE_WEBGPU__LIBRARY "wgpu_native.dll,webgpu_dawn.dll,libwebgpu_dawn.dll"
#elif defined(__APPLE__)
#define GPUCOMPILE_WEBGPU__LIBRARY "libwgpu_native.dylib,libwebgpu_dawn.dylib"
#else
#define GPUCOMPILE_WEBGPU__LIBRARY "libwgpu_native.so,libwgpu_native-release.so,libwebgpu_dawn.so,libwebgpu_dawn_x86_64.so"
#endif

/* ---- webgpu.h's ABI, declared here (field for field, what is used) ---- */
typedef struct gpucompile_webgpu__sv { const char *data; size_t length; } gpucompile_webgpu__sv; /* WGPUStringView */
typedef struct gpucompile_webgpu__future { uint64_t id; } gpucompile_webgpu__future;
typedef struct gpucompile_webgpu__chain { const struct gpucompile_webgpu__chain *next; uint32_t stype; } gpucompile_webgpu__chain;
typedef void (*gpucompile_webgpu__fn)(void);
/* every WGPU*CallbackInfo but the uncaptured-error one */
typedef struct gpucompile_webgpu__cbinfo { const void *next; uint32_t mode; gpucompile_webgpu__fn callback; void *userdata1, *userdata2; } gpucompile_webgpu__cbinfo;
typedef struct gpucompile_webgpu__errinfo { const void *next; gpucompile_webgpu__fn callback; void *userdata1, *userdata2; } gpucompile_webgpu__errinfo;
typedef struct gpucompile_webgpu__labeled { const void *next; gpucompile_webgpu__sv label; } gpucompile_webgpu__labeled;
typedef struct gpucompile_webgpu__spirv { gpucompile_webgpu__chain chain; uint32_t code_size; const uint32_t *code; } gpucompile_webgpu__spirv;
typedef struct gpucompile_webgpu__buffer_desc {
    const void *next; gpucompile_webgpu__sv label; uint64_t usage, size; uint32_t mapped_at_creation;
} gpucompile_webgpu__buffer_desc;
typedef struct gpucompile_webgpu__buffer_layout { const void *next; uint32_t type, has_dynamic_offset; uint64_t min_binding_size; } gpucompile_webgpu__buffer_layout;
typedef struct gpucompile_webgpu__sampler_layout { const void *next; uint32_t type; } gpucompile_webgpu__sampler_layout;
typedef struct gpucompile_webgpu__texture_layout { const void *next; uint32_t a, b, c; } gpucompile_webgpu__texture_layout;
typedef struct gpucompile_webgpu__layout_entry { /* webgpu.h's WGPUBindGroupLayoutEntry */
    const void *next; uint32_t binding; uint64_t visibility; uint32_t binding_array_size;
    gpucompile_webgpu__buffer_layout buffer; gpucompile_webgpu__sampler_layout sampler;
    gpucompile_webgpu__texture_layout texture, storage_texture;
} gpucompile_webgpu__layout_entry;
typedef struct gpucompile_webgpu__layout_entry_133 { /* Dawn's of Chromium 133 */
    const void *next; uint32_t binding; uint64_t visibility;
    gpucompile_webgpu__buffer_layout buffer; gpucompile_webgpu__sampler_layout sampler;
    gpucompile_webgpu__texture_layout texture, storage_texture;
} gpucompile_webgpu__layout_entry_133;
typedef struct gpucompile_webgpu__list_desc { const void *next; gpucompile_webgpu__sv label; size_t count; const void *items; } gpucompile_webgpu__list_desc;
typedef struct gpucompile_webgpu__pl_desc {
    const void *next; gpucompile_webgpu__sv label; size_t count; void *const *layouts; uint32_t immediate_size;
} gpucompile_webgpu__pl_desc;
typedef struct gpucompile_webgpu__cp_desc {
    const void *next; gpucompile_webgpu__sv label; void *layout;
    const void *cnext; void *module; gpucompile_webgpu__sv entry_point; size_t constant_count; const void *constants; /* WGPUComputeState */
} gpucompile_webgpu__cp_desc;
typedef struct gpucompile_webgpu__bg_entry { const void *next; uint32_t binding; void *buffer; uint64_t offset, size; void *sampler, *view; } gpucompile_webgpu__bg_entry;
typedef struct gpucompile_webgpu__bg_desc { const void *next; gpucompile_webgpu__sv label; void *layout; size_t count; const gpucompile_webgpu__bg_entry *entries; } gpucompile_webgpu__bg_desc;
typedef struct gpucompile_webgpu__pass_desc { const void *next; gpucompile_webgpu__sv label; const void *timestamp_writes; } gpucompile_webgpu__pass_desc;
typedef struct gpucompile_webgpu__device_desc {
    const void *next; gpucompile_webgpu__sv label; size_t feature_count; const uint32_t *features; const void *limits;
    gpucompile_webgpu__labeled default_queue; gpucompile_webgpu__cbinfo lost; gpucompile_webgpu__errinfo uncaptured;
} gpucompile_webgpu__device_desc;
typedef struct gpucompile_webgpu__adapter_info {
    const void *next; gpucompile_webgpu__sv vendor, architecture, device, description;
    uint32_t backend_type, adapter_type, vendor_id, device_id, rest[2];
} gpucompile_webgpu__adapter_info;

enum {
    GPUCOMPILE_WEBGPU__STYPE_SPIRV = 1, GPUCOMPILE_WEBGPU__MODE_PROCESS_EVENTS = 2, GPUCOMPILE_WEBGPU__MODE_SPONTANEOUS = 3,
    GPUCOMPILE_WEBGPU__OK = 1 /* every *Status_Success */, GPUCOMPILE_WEBGPU__FILTER_VALIDATION = 1, GPUCOMPILE_WEBGPU__NO_ERROR = 1,
    GPUCOMPILE_WEBGPU__LOST_DESTROYED = 2, GPUCOMPILE_WEBGPU__LOST_INSTANCE_DROPPED = 3
};
#define GPUCOMPILE_WEBGPU__USAGE_MAP_READ 0x1u
#define GPUCOMPILE_WEBGPU__USAGE_COPY_SRC 0x4u
#define GPUCOMPILE_WEBGPU__USAGE_COPY_DST 0x8u
#define GPUCOMPILE_WEBGPU__USAGE_UNIFORM 0x40u
#define GPUCOMPILE_WEBGPU__USAGE_STORAGE 0x80u
#define GPUCOMPILE_WEBGPU__STAGE_COMPUTE 0x4u
#define GPUCOMPILE_WEBGPU__MAP_READ 0x1u
#define GPUCOMPILE_WEBGPU__ALIGN 256u                 /* minStorageBufferOffsetAlignment, WebGPU's default */
#define GPUCOMPILE_WEBGPU__MAX_BINDING (128u << 20)   /* maxStorageBufferBindingSize */
#define GPUCOMPILE_WEBGPU__MAX_GROUPS 65535u          /* maxComputeWorkgroupsPerDimension */

/* The webgpu.h functions used, in one list: X(ret, name, args, mark), the symbol wgpu<name>.
   mark: "*" where Dawn of Chromium 133 has it as wgpu<name>2 (the plain name is its older form
   there), "?" where it is optional (wgpu-native's wgpu.h). The table's fields and the names to
   resolve are made from it, in the same order. */
#define GPUCOMPILE_WEBGPU__FUNCTIONS(X) \
    X(void *, CreateInstance, (const void *), "") \
    X(void, InstanceProcessEvents, (void *), "") \
    X(gpucompile_webgpu__future, InstanceRequestAdapter, (void *, const void *, gpucompile_webgpu__cbinfo), "*") \
    X(gpucompile_webgpu__future, AdapterRequestDevice, (void *, const gpucompile_webgpu__device_desc *, gpucompile_webgpu__cbinfo), "*") \
    X(uint32_t, AdapterGetInfo, (void *, gpucompile_webgpu__adapter_info *), "") \
    X(void, AdapterInfoFreeMembers, (gpucompile_webgpu__adapter_info), "") \
    X(uint32_t, AdapterHasFeature, (void *, uint32_t), "") \
    X(void, AdapterRelease, (void *), "") \
    X(void *, DeviceGetQueue, (void *), "") \
    X(void *, DeviceCreateBuffer, (void *, const gpucompile_webgpu__buffer_desc *), "") \
    X(void, BufferRelease, (void *), "") \
    X(gpucompile_webgpu__future, BufferMapAsync, (void *, uint64_t, size_t, size_t, gpucompile_webgpu__cbinfo), "*") \
    X(const void *, BufferGetConstMappedRange, (void *, size_t, size_t), "") \
    X(void, BufferUnmap, (void *), "") \
    X(void *, DeviceCreateShaderModule, (void *, const gpucompile_webgpu__labeled *), "") \
    X(void, ShaderModuleRelease, (void *), "") \
    X(void *, DeviceCreateBindGroupLayout, (void *, const gpucompile_webgpu__list_desc *), "") \
    X(void, BindGroupLayoutRelease, (void *), "") \
    X(void *, DeviceCreatePipelineLayout, (void *, const gpucompile_webgpu__pl_desc *), "") \
    X(void, PipelineLayoutRelease, (void *), "") \
    X(void *, DeviceCreateComputePipeline, (void *, const gpucompile_webgpu__cp_desc *), "") \
    X(void, ComputePipelineRelease, (void *), "") \
    X(void *, DeviceCreateBindGroup, (void *, const gpucompile_webgpu__bg_desc *), "") \
    X(void, BindGroupRelease, (void *), "") \
    X(void *, DeviceCreateCommandEncoder, (void *, const gpucompile_webgpu__labeled *), "") \
    X(void, CommandEncoderRelease, (void *), "") \
    X(void *, CommandEncoderBeginComputePass, (void *, const gpucompile_webgpu__pass_desc *), "") \
    X(void, CommandEncoderCopyBufferToBuffer, (void *, void *, uint64_t, void *, uint64_t, uint64_t), "") \
    X(void *, CommandEncoderFinish, (void *, const gpucompile_webgpu__labeled *), "") \
    X(void, CommandBufferRelease, (void *), "") \
    X(void, ComputePassEncoderSetPipeline, (void *, void *), "") \
    X(void, ComputePassEncoderSetBindGroup, (void *, uint32_t, void *, size_t, const uint32_t *), "") \
    X(void, ComputePassEncoderDispatchWorkgroups, (void *, uint32_t, uint32_t, uint32_t), "") \
    X(void, ComputePassEncoderEnd, (void *), "") \
    X(void, ComputePassEncoderRelease, (void *), "") \
    X(void, QueueSubmit, (void *, size_t, void *const *), "") \
    X(void, QueueWriteBuffer, (void *, void *, uint64_t, const void *, size_t), "") \
    X(gpucompile_webgpu__future, QueueOnSubmittedWorkDone, (void *, gpucompile_webgpu__cbinfo), "*") \
    X(void, DevicePushErrorScope, (void *, uint32_t), "") \
    X(gpucompile_webgpu__future, DevicePopErrorScope, (void *, gpucompile_webgpu__cbinfo), "*") \
    X(size_t, InstanceEnumerateAdapters, (void *, const void *, void **), "?") \
    X(uint32_t, DevicePoll, (void *, uint32_t, const uint64_t *), "?") \
    X(uint32_t, GetVersion, (void), "?")
#define GPUCOMPILE_WEBGPU__FIELD(ret, name, args, mark) ret (*name) args;
typedef struct gpucompile_webgpu__api {
    GPUCOMPILE_WEBGPU__FUNCTIONS(GPUCOMPILE_WEBGPU__FIELD)
} gpucompile_webgpu__api;
#define GPUCOMPILE_WEBGPU__NAME(ret, name, args, mark) mark "wgpu" #name,
static const char *const gpucompile_webgpu__names[] = {GPUCOMPILE_WEBGPU__FUNCTIONS(GPUCOMPILE_WEBGPU__NAME)};

/* What differs between the two ABIs. */
typedef struct gpucompile_webgpu__abi {
    int dawn133;
    uint32_t uniform, storage, read_only; /* WGPUBufferBindingType */
    uint32_t shader_f16;                  /* WGPUFeatureName */
} gpucompile_webgpu__abi;

/* Resolves the table from lib: NULL, or the first name missing. */
static const char *gpucompile_webgpu__resolve(void *lib, gpucompile_webgpu__api *api, gpucompile_webgpu__abi *abi) {
    size_t i;
    char name[96];
    abi->dawn133 = gpucompile_dlsym(lib, "wgpuInstanceRequestAdapter2") != NULL;
    abi->uniform = abi->dawn133 ? 1 : 2;
    abi->storage = abi->dawn133 ? 2 : 3;
    abi->read_only = abi->dawn133 ? 3 : 4;
    abi->shader_f16 = abi->dawn133 ? 8 : 11;
    for (i = 0; i < sizeof gpucompile_webgpu__names / sizeof gpucompile_webgpu__names[0]; i++) {
        const char *n = gpucompile_webgpu__names[i];
        void *f;
        int optional = n[0] == '?';
        snprintf(name, sizeof name, "%s%s", n + (n[0] == '*' || optional), n[0] == '*' && abi->dawn133 ? "2" : "");
        f = gpucompile_dlsym(lib, name);
        if (!f && !optional) return gpucompile_webgpu__names[i] + (n[0] == '*');
        memcpy((char *)api + i * sizeof(gpucompile_webgpu__fn), &f, sizeof f);
    }
    return NULL;
}

/* ---- the state ---- */
typedef struct gpucompile_webgpu__alloc {
    unsigned char *host;   /* the address handed out; the mirror when shared */
    uint64_t size, bytes;  /* asked for; the buffer's (rounded up to 4) */
    void *buffer;
    int shared;
    void *pending;         /* a stream that launched with it, not yet synchronized (shared only) */
} gpucompile_webgpu__alloc;

typedef struct gpucompile_webgpu__readback { void *staging; unsigned char *dst; size_t size, skip; } gpucompile_webgpu__readback;

typedef struct gpucompile_webgpu__stream {
    void *encoder;                        /* recording; NULL when nothing is */
    gpucompile_webgpu__readback *reads;
    size_t num_reads, cap_reads;
} gpucompile_webgpu__stream;

typedef struct gpucompile_webgpu__wait { volatile int done; uint32_t status, type; char message[1024]; } gpucompile_webgpu__wait;

/* A device: the runtime's own, or an engine's (instance NULL then: waits are the engine's). */
typedef struct gpucompile_webgpu__dev {
    gpucompile_webgpu__api fn;
    gpucompile_webgpu__abi abi;
    void *instance, *adapter, *device, *queue;
    int lost, stuck;
    double timeout_ms;
    gpucompile_webgpu__wait wait;
} gpucompile_webgpu__dev;

typedef struct gpucompile_webgpu__function {
    gpucompile_webgpu_kernel k;
    void *pipeline, *layout, *groups[4];
    uint32_t num_groups;
} gpucompile_webgpu__function;

typedef struct gpucompile_webgpu__module {
    void *shader;
    int num;
    gpucompile_webgpu__function *fns;
} gpucompile_webgpu__module;

typedef struct gpucompile_webgpu__state {
    gpucompile_webgpu__dev d;
    gpucompile_webgpu_runtime_info info;
    gpucompile_webgpu__alloc *allocs; /* sorted by host address */
    size_t num_allocs, cap_allocs;
    gpucompile_webgpu__stream null_stream;
} gpucompile_webgpu__state;
static gpucompile_webgpu__state gpucompile_webgpu__rt;

/* Between polls of a library that has no blocking wait (Dawn): the CPU to the threads that work. */
static void gpucompile_webgpu__pause(void) {
#if defined(_WIN32)
    Sleep(0);
#else
    sched_yield();
#endif
}

static void gpucompile_webgpu__report_sv(const char *call, int code, const char *what, gpucompile_webgpu__sv m) {
    char msg[1200];
    size_t n = m.data ? (m.length == (size_t)-1 ? strlen(m.data) : m.length) : 0;
    snprintf(msg, sizeof msg, "%s%s%.*s", what, n && *what ? ": " : "", (int)(n < 1100 ? n : 1100), m.data ? m.data : "");
    gpucompile_runtime_report(call, code, msg);
}

static void gpucompile_webgpu__sv_copy(char *out, size_t size, gpucompile_webgpu__sv m) {
    size_t n = m.data ? (m.length == (size_t)-1 ? strlen(m.data) : m.length) : 0;
    if (n >= size) n = size - 1;
    if (n) memcpy(out, m.data, n);
    out[n] = 0;
}

static gpucompile_webgpu__sv gpucompile_webgpu__str(const char *s) {
    gpucompile_webgpu__sv v;
    v.data = s;
    v.length = s ? strlen(s) : 0;
    return v;
}

/* ---- callbacks: each writes into the wait record its userdata1 names ---- */
static void gpucompile_webgpu__on_adapter(uint32_t status, void *adapter, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__wait *w = (gpucompile_webgpu__wait *)u1;
    *(void **)u2 = status == GPUCOMPILE_WEBGPU__OK ? adapter : NULL;
    w->status = status;
    gpucompile_webgpu__sv_copy(w->message, sizeof w->message, message);
    w->done = 1;
}
static void gpucompile_webgpu__on_device(uint32_t status, void *device, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__on_adapter(status, device, message, u1, u2);
}
static void gpucompile_webgpu__on_map(uint32_t status, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__wait *w = (gpucompile_webgpu__wait *)u1;
    (void)u2;
    w->status = status;
    gpucompile_webgpu__sv_copy(w->message, sizeof w->message, message);
    w->done = 1;
}
static void gpucompile_webgpu__on_done(uint32_t status, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__on_map(status, message, u1, u2);
}
static void gpucompile_webgpu__on_done_133(uint32_t status, void *u1, void *u2) {
    gpucompile_webgpu__sv none;
    none.data = NULL;
    none.length = 0;
    gpucompile_webgpu__on_map(status, none, u1, u2);
}
static void gpucompile_webgpu__on_pop(uint32_t status, uint32_t type, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__wait *w = (gpucompile_webgpu__wait *)u1;
    (void)u2;
    w->status = status;
    w->type = type;
    gpucompile_webgpu__sv_copy(w->message, sizeof w->message, message);
    w->done = 1;
}
static void gpucompile_webgpu__on_lost(void *const *device, uint32_t reason, gpucompile_webgpu__sv message, void *u1, void *u2) {
    gpucompile_webgpu__dev *d = (gpucompile_webgpu__dev *)u1;
    (void)device;
    (void)u2;
    d->lost = 1;
    if (reason != GPUCOMPILE_WEBGPU__LOST_DESTROYED && reason != GPUCOMPILE_WEBGPU__LOST_INSTANCE_DROPPED)
        gpucompile_webgpu__report_sv("WebGPU device lost", (int)reason, "the device is lost", message);
}
static void gpucompile_webgpu__on_error(void *const *device, uint32_t type, gpucompile_webgpu__sv message, void *u1, void *u2) {
    (void)device;
    (void)u1;
    (void)u2;
    gpucompile_webgpu__report_sv("WebGPU uncaptured error", (int)type, "", message);
}

static gpucompile_webgpu__cbinfo gpucompile_webgpu__cb(gpucompile_webgpu__fn f, void *u1, void *u2) {
    gpucompile_webgpu__cbinfo c;
    memset(&c, 0, sizeof c);
    c.mode = GPUCOMPILE_WEBGPU__MODE_PROCESS_EVENTS;
    c.callback = f;
    c.userdata1 = u1;
    c.userdata2 = u2;
    return c;
}
#define GPUCOMPILE_WEBGPU__CB(f, u1, u2) gpucompile_webgpu__cb((gpucompile_webgpu__fn)(f), u1, u2)

/* Drives the library until w->done: 1, or 0 when the device is lost or nothing answered in time
   (reported). */
static int gpucompile_webgpu__await(gpucompile_webgpu__dev *d, gpucompile_webgpu__wait *w, const char *call) {
    double t0 = gpucompile_clock_ms();
    unsigned spins = 0;
    while (!w->done) {
        if (d->fn.DevicePoll && d->device) d->fn.DevicePoll(d->device, 1, NULL);
        if (d->instance) d->fn.InstanceProcessEvents(d->instance);
        if (w->done) break;
        if (d->lost) {
            gpucompile_runtime_report(call, -1, "the WebGPU device is lost");
            return 0;
        }
        if (gpucompile_clock_ms() - t0 > d->timeout_ms) {
            char msg[160];
            snprintf(msg, sizeof msg, "no answer from the WebGPU library in %.0f ms ($GPUCOMPILE_WEBGPU_TIMEOUT_MS): the device is no longer used", d->timeout_ms);
            d->stuck = 1;
            gpucompile_runtime_report(call, -1, msg);
            return 0;
        }
        if (++spins > 64) gpucompile_webgpu__pause();
    }
    return 1;
}

static void gpucompile_webgpu__wait_reset(gpucompile_webgpu__wait *w) {
    w->done = 0;
    w->status = w->type = 0;
    w->message[0] = 0;
}

/* Waits for what the queue was given so far. */
static int gpucompile_webgpu__idle(gpucompile_webgpu__dev *d, const char *call) {
    gpucompile_webgpu__wait_reset(&d->wait);
    if (d->abi.dawn133) d->fn.QueueOnSubmittedWorkDone(d->queue, GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_done_133, &d->wait, NULL));
    else d->fn.QueueOnSubmittedWorkDone(d->queue, GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_done, &d->wait, NULL));
    if (!gpucompile_webgpu__await(d, &d->wait, call)) return 0;
    if (d->wait.status != GPUCOMPILE_WEBGPU__OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "the queue's work did not complete%s%s", d->wait.message[0] ? ": " : "", d->wait.message);
        gpucompile_runtime_report(call, (int)d->wait.status, msg);
        return 0;
    }
    return 1;
}

/* The error of what ran since the matching wgpuDevicePushErrorScope: 1 none, 0 one (reported). */
static int gpucompile_webgpu__pop(gpucompile_webgpu__dev *d, const char *call) {
    gpucompile_webgpu__wait_reset(&d->wait);
    d->fn.DevicePopErrorScope(d->device, GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_pop, &d->wait, NULL));
    if (d->instance && !gpucompile_webgpu__await(d, &d->wait, call)) return 0;
    if (!d->wait.done) return 1; /* an engine's device: its callbacks fire in its own event loop */
    if (d->wait.status == GPUCOMPILE_WEBGPU__OK && d->wait.type != GPUCOMPILE_WEBGPU__NO_ERROR) {
        gpucompile_runtime_report(call, (int)d->wait.type, d->wait.message[0] ? d->wait.message : "a WebGPU validation error");
        return 0;
    }
    return 1;
}

static const char *gpucompile_webgpu__load(void *lib) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    return gpucompile_webgpu__resolve(lib, &s->d.fn, &s->d.abi);
}

/* start's codes: 1000 no adapter at the ordinal, 1001 an ordinal > 0 without enumeration, 2000 +
   WGPURequestAdapterStatus, 3000 + WGPURequestDeviceStatus (the message in the wait record), -2
   reported already. */
static void gpucompile_webgpu__check(int code, const char *call) {
    gpucompile_webgpu__dev *d = &gpucompile_webgpu__rt.d;
    char msg[1200];
    if (!code || code == -2) return;
    if (code == 1000) snprintf(msg, sizeof msg, "no WebGPU adapter at mgpuSetDefaultDevice's ordinal");
    else if (code == 1001) snprintf(msg, sizeof msg, "this library has no wgpuInstanceEnumerateAdapters: only adapter 0 (the one wgpuInstanceRequestAdapter gives)");
    else if (code >= 2000) snprintf(msg, sizeof msg, "%s (status %d)%s%s", code >= 3000 ? "no device" : "no adapter", code % 1000,
                                    d->wait.message[0] ? ": " : "", d->wait.message);
    else snprintf(msg, sizeof msg, "the WebGPU library returned nothing");
    gpucompile_runtime_report(call, code, msg);
}

static const char *gpucompile_webgpu__backend_name(uint32_t t) {
    static const char *const names[] = {"undefined", "null", "WebGPU", "D3D11", "D3D12", "Metal", "Vulkan", "OpenGL", "OpenGLES"};
    return t < sizeof names / sizeof names[0] ? names[t] : "unknown";
}

static double gpucompile_webgpu__timeout(void) {
    const char *e = getenv("GPUCOMPILE_WEBGPU_TIMEOUT_MS");
    double v = e && *e ? atof(e) : 0.0;
    return v > 0 ? v : 60000.0;
}

static int gpucompile_webgpu__start(int *device, char *arch, size_t arch_size, const char **call) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__dev *d = &s->d;
    gpucompile_webgpu__device_desc dd;
    gpucompile_webgpu__adapter_info ai;
    uint32_t f16;
    int ordinal = *device;
    d->timeout_ms = gpucompile_webgpu__timeout();
    snprintf(s->info.implementation, sizeof s->info.implementation, "%s", d->fn.DevicePoll ? "wgpu-native" : "Dawn");
    snprintf(s->info.abi, sizeof s->info.abi, "%s", d->abi.dawn133 ? "Dawn (Chromium 133: *2 entry points)" : "webgpu.h");
    s->info.version = d->fn.GetVersion ? d->fn.GetVersion() : 0;
    *call = "wgpuCreateInstance";
    if (!(d->instance = d->fn.CreateInstance(NULL))) return -1;
    if (d->fn.InstanceEnumerateAdapters) {
        void *list[64];
        size_t n = d->fn.InstanceEnumerateAdapters(d->instance, NULL, NULL), i;
        *call = "wgpuInstanceEnumerateAdapters";
        if (n > 64) n = 64;
        if (ordinal < 0 || (size_t)ordinal >= n) return 1000;
        d->fn.InstanceEnumerateAdapters(d->instance, NULL, list);
        d->adapter = list[ordinal];
        for (i = 0; i < n; i++) /* the others are not ours to keep */
            if (i != (size_t)ordinal) d->fn.AdapterRelease(list[i]);
    } else {
        *call = "wgpuInstanceRequestAdapter";
        if (ordinal != 0) return 1001;
        gpucompile_webgpu__wait_reset(&d->wait);
        d->fn.InstanceRequestAdapter(d->instance, NULL, GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_adapter, &d->wait, &d->adapter));
        if (!gpucompile_webgpu__await(d, &d->wait, *call)) return -2;
        if (!d->adapter) return (int)(d->wait.status ? d->wait.status : 1002u) + 2000;
    }
    memset(&ai, 0, sizeof ai);
    if (d->fn.AdapterGetInfo(d->adapter, &ai) == GPUCOMPILE_WEBGPU__OK) {
        gpucompile_webgpu__sv_copy(s->info.adapter, sizeof s->info.adapter, ai.description.length || ai.description.data ? ai.description : ai.device);
        if (!s->info.adapter[0]) gpucompile_webgpu__sv_copy(s->info.adapter, sizeof s->info.adapter, ai.device);
        snprintf(s->info.backend, sizeof s->info.backend, "%s", gpucompile_webgpu__backend_name(ai.backend_type));
        s->info.vendor_id = ai.vendor_id;
        s->info.device_id = ai.device_id;
        d->fn.AdapterInfoFreeMembers(ai);
    }
    memset(&dd, 0, sizeof dd);
    f16 = d->abi.shader_f16;
    if (d->fn.AdapterHasFeature(d->adapter, f16)) {
        dd.feature_count = 1;
        dd.features = &f16;
        s->info.shader_f16 = 1;
    }
    dd.lost.mode = GPUCOMPILE_WEBGPU__MODE_SPONTANEOUS;
    dd.lost.callback = (gpucompile_webgpu__fn)gpucompile_webgpu__on_lost;
    dd.lost.userdata1 = d;
    dd.uncaptured.callback = (gpucompile_webgpu__fn)gpucompile_webgpu__on_error;
    *call = "wgpuAdapterRequestDevice";
    gpucompile_webgpu__wait_reset(&d->wait);
    d->fn.AdapterRequestDevice(d->adapter, &dd, GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_device, &d->wait, &d->device));
    if (!gpucompile_webgpu__await(d, &d->wait, *call)) return -2;
    if (!d->device) return (int)(d->wait.status ? d->wait.status : 1002u) + 3000;
    d->queue = d->fn.DeviceGetQueue(d->device);
    snprintf(arch, arch_size, "webgpu");
    *device = 0;
    return 0;
}

/* ---- memory ---- */
/* The allocation holding [p, p + n), or NULL. */
static gpucompile_webgpu__alloc *gpucompile_webgpu__find(gpucompile_webgpu__state *s, const void *p, uint64_t n) {
    size_t lo = 0, hi = s->num_allocs;
    const unsigned char *q = (const unsigned char *)p;
    while (lo < hi) { /* the last allocation starting at or below p */
        size_t mid = (lo + hi) / 2;
        if (s->allocs[mid].host <= q) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return NULL;
    {
        gpucompile_webgpu__alloc *a = &s->allocs[lo - 1];
        uint64_t off = (uint64_t)(q - a->host);
        return off < a->bytes && n <= a->bytes - off ? a : NULL;
    }
}

static void *gpucompile_webgpu__buffer(gpucompile_webgpu__dev *d, uint64_t size, uint64_t usage) {
    gpucompile_webgpu__buffer_desc bd;
    memset(&bd, 0, sizeof bd);
    bd.usage = usage;
    bd.size = size;
    return d->fn.DeviceCreateBuffer(d->device, &bd);
}

static void *gpucompile_webgpu__mem_alloc(uint64_t size, int host_shared) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__alloc a;
    size_t i;
    memset(&a, 0, sizeof a);
    a.size = size;
    a.bytes = size < 4 ? 4 : (size + 3) & ~(uint64_t)3;
    a.shared = host_shared;
    if (s->d.lost || s->d.stuck) {
        gpucompile_runtime_report("mgpuMemAlloc", -1, "the WebGPU device is lost");
        return NULL;
    }
    if (a.bytes != (size_t)a.bytes || !(a.host = (unsigned char *)(host_shared ? calloc(1, (size_t)a.bytes) : malloc((size_t)a.bytes)))) {
        gpucompile_runtime_report("mgpuMemAlloc", -1, "out of host memory (each allocation has a host block that names it)");
        return NULL;
    }
    if (!(a.buffer = gpucompile_webgpu__buffer(&s->d, a.bytes, GPUCOMPILE_WEBGPU__USAGE_STORAGE | GPUCOMPILE_WEBGPU__USAGE_COPY_SRC |
                                                                     GPUCOMPILE_WEBGPU__USAGE_COPY_DST))) {
        gpucompile_runtime_report("wgpuDeviceCreateBuffer", -1, "no buffer");
        free(a.host);
        return NULL;
    }
    if (s->num_allocs == s->cap_allocs) {
        size_t nc = s->cap_allocs ? 2 * s->cap_allocs : 64;
        gpucompile_webgpu__alloc *na = (gpucompile_webgpu__alloc *)realloc(s->allocs, nc * sizeof *na);
        if (!na) {
            s->d.fn.BufferRelease(a.buffer);
            free(a.host);
            gpucompile_runtime_report("mgpuMemAlloc", -1, "out of host memory");
            return NULL;
        }
        s->allocs = na;
        s->cap_allocs = nc;
    }
    for (i = s->num_allocs; i > 0 && s->allocs[i - 1].host > a.host; i--) s->allocs[i] = s->allocs[i - 1];
    s->allocs[i] = a;
    s->num_allocs++;
    return a.host;
}

static void gpucompile_webgpu__mem_free(void *ptr) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__alloc *a = ptr ? gpucompile_webgpu__find(s, ptr, 1) : NULL;
    size_t i;
    if (!ptr) return;
    if (!a || a->host != (unsigned char *)ptr) {
        gpucompile_runtime_report("mgpuMemFree", -1, "not an address mgpuMemAlloc returned");
        return;
    }
    s->d.fn.BufferRelease(a->buffer); /* commands that use it keep it alive */
    free(a->host);
    for (i = (size_t)(a - s->allocs); i + 1 < s->num_allocs; i++) s->allocs[i] = s->allocs[i + 1];
    s->num_allocs--;
}

/* ---- streams ---- */
static void *gpucompile_webgpu__encoder(gpucompile_webgpu__dev *d, gpucompile_webgpu__stream *st) {
    if (!st->encoder && !(st->encoder = d->fn.DeviceCreateCommandEncoder(d->device, NULL)))
        gpucompile_runtime_report("wgpuDeviceCreateCommandEncoder", -1, "no command encoder");
    return st->encoder;
}

/* Submits what the stream recorded. */
static int gpucompile_webgpu__flush(gpucompile_webgpu__dev *d, gpucompile_webgpu__stream *st) {
    void *cb;
    if (!st->encoder) return 1;
    cb = d->fn.CommandEncoderFinish(st->encoder, NULL);
    d->fn.CommandEncoderRelease(st->encoder);
    st->encoder = NULL;
    if (!cb) {
        gpucompile_runtime_report("wgpuCommandEncoderFinish", -1, "no command buffer");
        return 0;
    }
    d->fn.QueueSubmit(d->queue, 1, &cb);
    d->fn.CommandBufferRelease(cb);
    return 1;
}

/* Records a copy of [off, off + size) of buffer into a new staging buffer, read into dst when the
   stream is synchronized. */
static int gpucompile_webgpu__read_later(gpucompile_webgpu__dev *d, gpucompile_webgpu__stream *st, void *buffer, uint64_t off, size_t size,
                                         unsigned char *dst) {
    uint64_t start = off & ~(uint64_t)3, bytes = ((off + size + 3) & ~(uint64_t)3) - start;
    gpucompile_webgpu__readback r;
    void *enc;
    if (st->num_reads == st->cap_reads) {
        size_t nc = st->cap_reads ? 2 * st->cap_reads : 8;
        gpucompile_webgpu__readback *nr = (gpucompile_webgpu__readback *)realloc(st->reads, nc * sizeof *nr);
        if (!nr) {
            gpucompile_runtime_report("mgpuMemcpy", -1, "out of host memory");
            return 0;
        }
        st->reads = nr;
        st->cap_reads = nc;
    }
    if (!(enc = gpucompile_webgpu__encoder(d, st))) return 0;
    if (!(r.staging = gpucompile_webgpu__buffer(d, bytes, GPUCOMPILE_WEBGPU__USAGE_MAP_READ | GPUCOMPILE_WEBGPU__USAGE_COPY_DST))) {
        gpucompile_runtime_report("wgpuDeviceCreateBuffer", -1, "no staging buffer");
        return 0;
    }
    d->fn.CommandEncoderCopyBufferToBuffer(enc, buffer, start, r.staging, 0, bytes);
    r.dst = dst;
    r.size = size;
    r.skip = (size_t)(off - start);
    st->reads[st->num_reads++] = r;
    return 1;
}

/* Submits the stream and waits for it: the shared mirrors it wrote and its readbacks are then
   in host memory. */
static int gpucompile_webgpu__sync(gpucompile_webgpu__state *s, gpucompile_webgpu__stream *st, const char *call) {
    gpucompile_webgpu__dev *d = &s->d;
    size_t i;
    int ok = 1;
    for (i = 0; i < s->num_allocs; i++)
        if (s->allocs[i].pending == (void *)st) {
            s->allocs[i].pending = NULL;
            ok &= gpucompile_webgpu__read_later(d, st, s->allocs[i].buffer, 0, (size_t)s->allocs[i].size, s->allocs[i].host);
        }
    ok &= gpucompile_webgpu__flush(d, st);
    if (!st->num_reads) return ok && gpucompile_webgpu__idle(d, call);
    for (i = 0; i < st->num_reads; i++) {
        gpucompile_webgpu__readback *r = &st->reads[i];
        if (ok && !d->stuck) {
            const unsigned char *p;
            gpucompile_webgpu__wait_reset(&d->wait);
            d->fn.BufferMapAsync(r->staging, GPUCOMPILE_WEBGPU__MAP_READ, 0, (size_t)(((r->skip + r->size + 3) & ~(size_t)3)),
                                 GPUCOMPILE_WEBGPU__CB(gpucompile_webgpu__on_map, &d->wait, NULL));
            if (!gpucompile_webgpu__await(d, &d->wait, call)) ok = 0;
            else if (d->wait.status != GPUCOMPILE_WEBGPU__OK) {
                char msg[1200];
                snprintf(msg, sizeof msg, "a readback buffer could not be mapped%s%s", d->wait.message[0] ? ": " : "", d->wait.message);
                gpucompile_runtime_report("wgpuBufferMapAsync", (int)d->wait.status, msg);
                ok = 0;
            } else if (!(p = (const unsigned char *)d->fn.BufferGetConstMappedRange(r->staging, 0, (r->skip + r->size + 3) & ~(size_t)3))) {
                gpucompile_runtime_report("wgpuBufferGetConstMappedRange", -1, "no mapped range");
                d->fn.BufferUnmap(r->staging);
                ok = 0;
            } else {
                memcpy(r->dst, p + r->skip, r->size);
                d->fn.BufferUnmap(r->staging);
            }
        }
        d->fn.BufferRelease(r->staging);
    }
    st->num_reads = 0;
    return ok;
}

static gpucompile_webgpu__stream *gpucompile_webgpu__stream_of(void *stream) {
    return stream ? (gpucompile_webgpu__stream *)stream : &gpucompile_webgpu__rt.null_stream;
}

static void *gpucompile_webgpu__stream_create(void) {
    gpucompile_webgpu__stream *st = (gpucompile_webgpu__stream *)calloc(1, sizeof *st);
    if (!st) gpucompile_runtime_report("mgpuStreamCreate", -1, "out of host memory");
    return st;
}

static void gpucompile_webgpu__stream_synchronize(void *stream) {
    gpucompile_webgpu__sync(&gpucompile_webgpu__rt, gpucompile_webgpu__stream_of(stream), "mgpuStreamSynchronize");
}

static void gpucompile_webgpu__stream_destroy(void *stream) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__stream *st = (gpucompile_webgpu__stream *)stream;
    if (!st) return;
    gpucompile_webgpu__sync(s, st, "mgpuStreamDestroy"); /* its readbacks land, as CUDA's would */
    free(st->reads);
    free(st);
}

/* Submits the stream before a queue write, so that the write lands after what it recorded. */
static int gpucompile_webgpu__before_write(gpucompile_webgpu__dev *d, gpucompile_webgpu__stream *st) {
    return gpucompile_webgpu__flush(d, st);
}

static void gpucompile_webgpu__mem_copy(void *dst, const void *src, size_t size, void *stream) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__dev *d = &s->d;
    gpucompile_webgpu__stream *st = gpucompile_webgpu__stream_of(stream);
    gpucompile_webgpu__alloc *da = size ? gpucompile_webgpu__find(s, dst, size) : NULL, *sa = size ? gpucompile_webgpu__find(s, src, size) : NULL;
    uint64_t doff = da ? (uint64_t)((unsigned char *)dst - da->host) : 0, soff = sa ? (uint64_t)((const unsigned char *)src - sa->host) : 0;
    if (!size) return;
    if (d->lost || d->stuck) {
        gpucompile_runtime_report("mgpuMemcpy", -1, "the WebGPU device is lost");
        return;
    }
    if (da && (doff % 4 || (size % 4 && doff + size < da->size))) {
        gpucompile_runtime_report("mgpuMemcpy", -1, "a copy into a buffer starts and ends on 4-byte boundaries (WebGPU copies whole words)");
        return;
    }
    if (da && !sa) { /* host -> buffer */
        unsigned char tail[4] = {0, 0, 0, 0};
        size_t whole = size & ~(size_t)3;
        if (!gpucompile_webgpu__before_write(d, st)) return;
        if (whole) d->fn.QueueWriteBuffer(d->queue, da->buffer, doff, src, whole);
        if (whole < size) { /* the allocation's last bytes: its padding is the buffer's */
            memcpy(tail, (const unsigned char *)src + whole, size - whole);
            d->fn.QueueWriteBuffer(d->queue, da->buffer, doff + whole, tail, 4);
        }
        if (da->shared) memcpy(dst, src, size);
        if (!stream) gpucompile_webgpu__sync(s, st, "mgpuMemcpy");
    } else if (sa && !da) { /* buffer -> host */
        if (gpucompile_webgpu__read_later(d, st, sa->buffer, soff, size, (unsigned char *)dst) && !stream) gpucompile_webgpu__sync(s, st, "mgpuMemcpy");
    } else if (sa && da) {
        void *enc;
        if (soff % 4 || size % 4) {
            gpucompile_runtime_report("mgpuMemcpy", -1, "a copy between buffers starts and ends on 4-byte boundaries (WebGPU copies whole words)");
            return;
        }
        if (!(enc = gpucompile_webgpu__encoder(d, st))) return;
        d->fn.CommandEncoderCopyBufferToBuffer(enc, sa->buffer, soff, da->buffer, doff, size);
        if (!stream) gpucompile_webgpu__sync(s, st, "mgpuMemcpy");
    } else { /* host -> host, after what the stream does */
        if (stream) gpucompile_webgpu__sync(s, st, "mgpuMemcpy");
        memmove(dst, src, size);
    }
}

static void gpucompile_webgpu__mem_set32(void *dst, unsigned value, size_t count, void *stream) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__dev *d = &s->d;
    gpucompile_webgpu__stream *st = gpucompile_webgpu__stream_of(stream);
    gpucompile_webgpu__alloc *a = count ? gpucompile_webgpu__find(s, dst, (uint64_t)count * 4) : NULL;
    uint32_t *fill;
    size_t i;
    if (!count) return;
    if (!a || ((unsigned char *)dst - a->host) % 4) {
        gpucompile_runtime_report("mgpuMemset32", -1, "not 4-byte aligned words inside one mgpuMemAlloc allocation");
        return;
    }
    if (!(fill = (uint32_t *)malloc(count * 4))) {
        gpucompile_runtime_report("mgpuMemset32", -1, "out of host memory");
        return;
    }
    for (i = 0; i < count; i++) fill[i] = value;
    if (gpucompile_webgpu__before_write(d, st)) {
        d->fn.QueueWriteBuffer(d->queue, a->buffer, (uint64_t)((unsigned char *)dst - a->host), fill, count * 4);
        if (a->shared) memcpy(dst, fill, count * 4);
        if (!stream) gpucompile_webgpu__sync(s, st, "mgpuMemset32");
    }
    free(fill);
}

/* ---- modules ---- */
static void gpucompile_webgpu__function_free(gpucompile_webgpu__dev *d, gpucompile_webgpu__function *f) {
    uint32_t i;
    if (f->pipeline) d->fn.ComputePipelineRelease(f->pipeline);
    if (f->layout) d->fn.PipelineLayoutRelease(f->layout);
    for (i = 0; i < 4; i++)
        if (f->groups[i]) d->fn.BindGroupLayoutRelease(f->groups[i]);
    memset(f, 0, sizeof *f);
}

static void gpucompile_webgpu__module_free(gpucompile_webgpu__dev *d, gpucompile_webgpu__module *m) {
    int i;
    if (!m) return;
    for (i = 0; i < m->num; i++) gpucompile_webgpu__function_free(d, &m->fns[i]);
    if (m->shader) d->fn.ShaderModuleRelease(m->shader);
    free(m->fns);
    free(m);
}

/* One entry point's layouts and pipeline: 1, or 0 (the error scope then says why). */
static int gpucompile_webgpu__function_make(gpucompile_webgpu__dev *d, void *shader, gpucompile_webgpu__function *f) {
    const gpucompile_vulkan_kernel *k = &f->k.k;
    gpucompile_webgpu__layout_entry e[33];
    gpucompile_webgpu__layout_entry_133 e133[33];
    gpucompile_webgpu__pl_desc pd;
    gpucompile_webgpu__cp_desc cd;
    uint32_t set;
    int i;
    f->num_groups = f->k.has_uniforms ? f->k.uniform_set + 1 : 0;
    for (i = 0; i < k->num_bindings; i++) {
        if (k->bindings[i].set >= 4) return 0; /* reported by the caller: WebGPU has 4 bind groups */
        if (k->bindings[i].set + 1 > f->num_groups) f->num_groups = k->bindings[i].set + 1;
    }
    for (set = 0; set < f->num_groups; set++) {
        gpucompile_webgpu__list_desc ld;
        int n = 0;
        for (i = 0; i <= k->num_bindings; i++) {
            uint32_t binding, type;
            if (i < k->num_bindings) {
                if (k->bindings[i].set != set) continue;
                binding = k->bindings[i].binding;
                type = k->bindings[i].descriptor_type == 6 ? d->abi.uniform : k->bindings[i].read_only ? d->abi.read_only : d->abi.storage;
            } else {
                if (!f->k.has_uniforms || f->k.uniform_set != set) continue;
                binding = f->k.uniform_binding;
                type = d->abi.uniform;
            }
            memset(&e[n], 0, sizeof e[n]);
            memset(&e133[n], 0, sizeof e133[n]);
            e[n].binding = e133[n].binding = binding;
            e[n].visibility = e133[n].visibility = GPUCOMPILE_WEBGPU__STAGE_COMPUTE;
            e[n].buffer.type = e133[n].buffer.type = type;
            n++;
        }
        memset(&ld, 0, sizeof ld);
        ld.count = (size_t)n;
        ld.items = d->abi.dawn133 ? (const void *)e133 : (const void *)e;
        if (!(f->groups[set] = d->fn.DeviceCreateBindGroupLayout(d->device, &ld))) return 0;
    }
    memset(&pd, 0, sizeof pd);
    pd.count = f->num_groups;
    pd.layouts = f->groups;
    if (!(f->layout = d->fn.DeviceCreatePipelineLayout(d->device, &pd))) return 0;
    memset(&cd, 0, sizeof cd);
    cd.layout = f->layout;
    cd.module = shader;
    cd.entry_point = gpucompile_webgpu__str(k->name);
    return (f->pipeline = d->fn.DeviceCreateComputePipeline(d->device, &cd)) != NULL;
}

/* wgpu-native's shader translator (naga 29) aborts the process on a compare-exchange whose old
   value reaches a statement (a store of atomic_cmpxchg's result; "Expression is not cached"),
   or refuses the module: 1 when the size bytes at module have one. The old value followed through
   the comparisons and selects the Vulkan backend's repair leaves (unused ones naga drops); Dawn's
   reader runs them all. */
static int gpucompile_webgpu__old_value_used(const void *module, size_t size) {
    gpucompile_spirv_inst it, u;
    uint32_t ids[64];
    size_t k;
    int n, j;
    for (gpucompile_spirv_begin(&it, module, size); gpucompile_spirv_next(&it);) {
        if (it.op != 230 || it.wc < 3) continue; /* OpAtomicCompareExchange */
        ids[0] = gpucompile_spirv_operand(&it, 2);
        n = 1;
        for (u = it; gpucompile_spirv_next(&u) && u.op != 56;) /* until OpFunctionEnd */
            for (k = 1; k < u.wc; k++) {
                uint32_t w = gpucompile_spirv_operand(&u, k);
                for (j = 0; j < n && ids[j] != w; j++) {}
                if (j == n) continue;
                /* OpSelect, OpIEqual, OpINotEqual, OpCopyObject, OpBitcast: the value goes on */
                if ((u.op != 169 && u.op != 170 && u.op != 171 && u.op != 83 && u.op != 124) || n == 64) return 1;
                ids[n++] = gpucompile_spirv_operand(&u, 2);
                break;
            }
    }
    return 0;
}

static gpucompile_webgpu__module *gpucompile_webgpu__module_make(gpucompile_webgpu__dev *d, const void *data, size_t size) {
    gpucompile_webgpu__module *m;
    gpucompile_webgpu__labeled sd;
    gpucompile_webgpu__spirv src;
    gpucompile_webgpu_kernel *ks;
    uint32_t *words;
    int n, i, ok = 1;
    if (d->lost || d->stuck) {
        gpucompile_runtime_report("mgpuModuleLoad", -1, "the WebGPU device is lost");
        return NULL;
    }
    if ((n = gpucompile_webgpu__reflect(data, size, NULL, 0)) <= 0) {
        gpucompile_runtime_report("mgpuModuleLoad", -1, n < 0 ? "not a SPIR-V module" : "a SPIR-V module without a GLCompute entry point");
        return NULL;
    }
    if (d->fn.DevicePoll && gpucompile_webgpu__old_value_used(data, size)) { /* DevicePoll: wgpu-native's alone */
        gpucompile_runtime_report("mgpuModuleLoad", -1, "a compare-exchange whose old value is used (atomic_cmpxchg's result): "
                                  "wgpu-native's shader translator aborts the process on it (Dawn runs it)");
        return NULL;
    }
    m = (gpucompile_webgpu__module *)calloc(1, sizeof *m);
    ks = (gpucompile_webgpu_kernel *)calloc((size_t)n, sizeof *ks);
    words = (uint32_t *)malloc(size);
    if (!m || !ks || !words || !(m->fns = (gpucompile_webgpu__function *)calloc((size_t)n, sizeof *m->fns))) {
        gpucompile_runtime_report("mgpuModuleLoad", -1, "out of host memory");
        free(ks);
        free(words);
        if (m) free(m->fns);
        free(m);
        return NULL;
    }
    gpucompile_webgpu__reflect(data, size, ks, n);
    memcpy(words, data, size);
    if (words[0] == 0x03022307u) /* the other byte order: WebGPU takes host-order words */
        for (i = 0; (size_t)i < size / 4; i++)
            words[i] = words[i] >> 24 | (words[i] >> 8 & 0xff00u) | (words[i] << 8 & 0xff0000u) | words[i] << 24;
    m->num = n;
    d->fn.DevicePushErrorScope(d->device, GPUCOMPILE_WEBGPU__FILTER_VALIDATION);
    memset(&sd, 0, sizeof sd);
    memset(&src, 0, sizeof src);
    src.chain.stype = GPUCOMPILE_WEBGPU__STYPE_SPIRV;
    src.code_size = (uint32_t)(size / 4);
    src.code = words;
    sd.next = &src;
    m->shader = d->fn.DeviceCreateShaderModule(d->device, &sd);
    for (i = 0; i < n && m->shader; i++) {
        m->fns[i].k = ks[i];
        if (!gpucompile_webgpu__function_make(d, m->shader, &m->fns[i])) ok = 0;
    }
    if (!gpucompile_webgpu__pop(d, "wgpuDeviceCreateShaderModule") || !m->shader || !ok) {
        if (ok && m->shader) gpucompile_runtime_report("wgpuDeviceCreateComputePipeline", -1, "the module was not made");
        else if (!m->shader) gpucompile_runtime_report("wgpuDeviceCreateShaderModule", -1, "no shader module");
        else {
            for (i = 0; i < n; i++)
                if (ks[i].k.num_bindings && ks[i].k.bindings[ks[i].k.num_bindings - 1].set >= 4)
                    gpucompile_runtime_report("mgpuModuleLoad", -1, "a binding in descriptor set 4 or above (WebGPU has bind groups 0-3)");
        }
        gpucompile_webgpu__module_free(d, m);
        m = NULL;
    }
    free(ks);
    free(words);
    return m;
}

static void *gpucompile_webgpu__module_load(const void *data, size_t size) { return gpucompile_webgpu__module_make(&gpucompile_webgpu__rt.d, data, size); }
static void gpucompile_webgpu__module_unload(void *module) {
    gpucompile_webgpu__module_free(&gpucompile_webgpu__rt.d, (gpucompile_webgpu__module *)module);
}

static gpucompile_webgpu__function *gpucompile_webgpu__lookup(const gpucompile_webgpu__module *m, const char *name) {
    int i;
    for (i = 0; m && name && i < m->num; i++)
        if (strcmp(m->fns[i].k.k.name, name) == 0) return &m->fns[i];
    return NULL;
}

static void *gpucompile_webgpu__get_function(void *module, const char *name) {
    gpucompile_webgpu__function *f = gpucompile_webgpu__lookup((const gpucompile_webgpu__module *)module, name);
    if (!f) {
        char msg[200];
        snprintf(msg, sizeof msg, "the module has no entry point '%.120s'", name ? name : "(null)");
        gpucompile_runtime_report("mgpuModuleGetFunction", -1, msg);
    }
    return f;
}

/* ---- launches ---- */
/* Makes f's bind groups (groups[0 .. f->num_groups)) of the buffers (one per binding, in the
   reflection's order) and the uniform block's bytes (a uniform buffer written through the
   queue). 1, or 0 (reported); what was made is in groups and *ubuf either way. */
static int gpucompile_webgpu__bind(gpucompile_webgpu__dev *d, const gpucompile_webgpu__function *f, const gpucompile_webgpu_buffer *buffers,
                                   const void *uniforms, void *groups[4], void **ubuf) {
    const gpucompile_vulkan_kernel *k = &f->k.k;
    gpucompile_webgpu__bg_entry e[33];
    uint32_t set;
    int i;
    *ubuf = NULL;
    if (f->k.has_uniforms) {
        uint64_t bytes = ((uint64_t)k->push_size + 15) & ~(uint64_t)15;
        if (!(*ubuf = gpucompile_webgpu__buffer(d, bytes, GPUCOMPILE_WEBGPU__USAGE_UNIFORM | GPUCOMPILE_WEBGPU__USAGE_COPY_DST))) {
            gpucompile_runtime_report("wgpuDeviceCreateBuffer", -1, "no uniform buffer");
            return 0;
        }
        {
            unsigned char block[4096];
            memset(block, 0, sizeof block);
            memcpy(block, uniforms, k->push_size < sizeof block ? k->push_size : sizeof block);
            d->fn.QueueWriteBuffer(d->queue, *ubuf, 0, block, (size_t)(bytes < sizeof block ? bytes : sizeof block));
        }
    }
    for (set = 0; set < f->num_groups; set++) {
        gpucompile_webgpu__bg_desc bd;
        int n = 0;
        for (i = 0; i <= k->num_bindings; i++) {
            memset(&e[n], 0, sizeof e[n]);
            if (i < k->num_bindings) {
                if (k->bindings[i].set != set) continue;
                if (buffers[i].size && buffers[i].size < k->bindings[i].stride) { /* a validation error at submit: wgpu-native aborts */
                    char msg[320];
                    snprintf(msg, sizeof msg, "binding %u of '%s': %llu bytes, less than one element of its array (%u bytes)",
                             (unsigned)k->bindings[i].binding, k->name, (unsigned long long)buffers[i].size, (unsigned)k->bindings[i].stride);
                    gpucompile_runtime_report("wgpuDeviceCreateBindGroup", -1, msg);
                    return 0;
                }
                e[n].binding = k->bindings[i].binding;
                e[n].buffer = buffers[i].buffer;
                e[n].offset = buffers[i].offset;
                e[n].size = buffers[i].size ? buffers[i].size : ~(uint64_t)0; /* WGPU_WHOLE_SIZE: 0 would be invalid (wgpu-native panics) */
            } else {
                if (!f->k.has_uniforms || f->k.uniform_set != set) continue;
                e[n].binding = f->k.uniform_binding;
                e[n].buffer = *ubuf;
                e[n].size = ((uint64_t)k->push_size + 15) & ~(uint64_t)15;
            }
            n++;
        }
        memset(&bd, 0, sizeof bd);
        bd.layout = f->groups[set];
        bd.count = (size_t)n;
        bd.entries = e;
        if (!(groups[set] = d->fn.DeviceCreateBindGroup(d->device, &bd))) {
            gpucompile_runtime_report("wgpuDeviceCreateBindGroup", -1, "no bind group");
            return 0;
        }
    }
    return 1;
}

static void gpucompile_webgpu__encode(gpucompile_webgpu__dev *d, void *pass, const gpucompile_webgpu__function *f, void *const groups[4],
                                      const uint32_t g[3]) {
    uint32_t set;
    d->fn.ComputePassEncoderSetPipeline(pass, f->pipeline);
    for (set = 0; set < f->num_groups; set++) d->fn.ComputePassEncoderSetBindGroup(pass, set, groups[set], 0, NULL);
    d->fn.ComputePassEncoderDispatchWorkgroups(pass, g[0], g[1], g[2]);
}

static void gpucompile_webgpu__unbind(gpucompile_webgpu__dev *d, void *groups[4], void *ubuf) {
    int i;
    for (i = 0; i < 4; i++)
        if (groups[i]) d->fn.BindGroupRelease(groups[i]);
    if (ubuf) d->fn.BufferRelease(ubuf);
}

static void gpucompile_webgpu__launch(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem, void *stream, void **params,
                                      void **extra) {
    gpucompile_webgpu__state *s = &gpucompile_webgpu__rt;
    gpucompile_webgpu__dev *d = &s->d;
    gpucompile_webgpu__stream *st = gpucompile_webgpu__stream_of(stream);
    const gpucompile_webgpu__function *f = (const gpucompile_webgpu__function *)function;
    const gpucompile_vulkan_kernel *k = f ? &f->k.k : NULL;
    gpucompile_webgpu_buffer bufs[32];
    gpucompile_webgpu__alloc *used[32];
    unsigned char uniforms[4096];
    void *groups[4] = {NULL, NULL, NULL, NULL}, *ubuf = NULL, *enc, *pass;
    uint32_t g[3], local_max = 0;
    char msg[300];
    int i, nb = 0, ok = 1;
    (void)extra;
    if (!f) return;
    if (d->lost || d->stuck) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, "the WebGPU device is lost");
        return;
    }
    if (block[0] != k->local_size[0] || block[1] != k->local_size[1] || block[2] != k->local_size[2]) {
        snprintf(msg, sizeof msg, "the block %ux%ux%u is not the workgroup size %ux%ux%u compiled into '%s'", block[0], block[1], block[2],
                 (unsigned)k->local_size[0], (unsigned)k->local_size[1], (unsigned)k->local_size[2], k->name);
        gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
        return;
    }
    for (i = 0; i < 3; i++) {
        if (grid[i] > GPUCOMPILE_WEBGPU__MAX_GROUPS) {
            snprintf(msg, sizeof msg, "%u workgroups in dimension %d: WebGPU's maxComputeWorkgroupsPerDimension is 65535", grid[i], i);
            gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
            return;
        }
        g[i] = grid[i];
    }
    if (!g[0] || !g[1] || !g[2]) return;
    memset(uniforms, 0, sizeof uniforms);
    memset(bufs, 0, sizeof bufs);
    memset(used, 0, sizeof used);
    { /* the arguments: each binding's pointer, the uniform block's bytes */
        const void *ptrs[32];
        int p = 0;
        memset(ptrs, 0, sizeof ptrs);
        if (k->num_params) {
            for (i = 0; i < k->num_params; i++) {
                const gpucompile_vulkan_param *q = &k->params[i];
                if (q->kind == GPUCOMPILE_VULKAN_PARAM_BINDING) {
                    int j;
                    for (j = 0; j < k->num_bindings; j++)
                        if (k->bindings[j].set == 0 && k->bindings[j].binding == q->value) ptrs[j] = *(void *const *)params[i];
                } else if (q->kind == GPUCOMPILE_VULKAN_PARAM_PUSH && q->value + q->size <= sizeof uniforms) {
                    memcpy(uniforms + q->value, params[i], q->size);
                } else if (q->kind == GPUCOMPILE_VULKAN_PARAM_LOCAL && q->value > local_max) {
                    local_max = q->value;
                }
            }
        } else {
            for (i = 0; i < k->num_bindings; i++) ptrs[i] = *(void *const *)params[p++];
            for (i = 0; i < k->num_push; i++)
                if (k->push[i].offset + k->push[i].size <= sizeof uniforms) memcpy(uniforms + k->push[i].offset, params[p++], k->push[i].size);
        }
        if (smem > local_max) {
            snprintf(msg, sizeof msg, "%u bytes of dynamic shared memory: WebGPU has none (size workgroup memory in the kernel)%s", smem,
                     local_max ? "; more than its local parameters were compiled with" : "");
            gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
            return;
        }
        for (i = 0; i < k->num_bindings; i++) {
            gpucompile_webgpu__alloc *a = ptrs[i] ? gpucompile_webgpu__find(s, ptrs[i], 1) : NULL;
            uint64_t off;
            if (!a) {
                snprintf(msg, sizeof msg, "argument for binding %u of '%s' is not an address inside an mgpuMemAlloc allocation",
                         (unsigned)k->bindings[i].binding, k->name);
                gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
                return;
            }
            off = (uint64_t)((const unsigned char *)ptrs[i] - a->host);
            if (off % GPUCOMPILE_WEBGPU__ALIGN) {
                snprintf(msg, sizeof msg, "binding %u of '%s' starts %llu bytes into its buffer: WebGPU binds at multiples of 256 "
                         "(minStorageBufferOffsetAlignment)", (unsigned)k->bindings[i].binding, k->name, (unsigned long long)off);
                gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
                return;
            }
            bufs[i].buffer = a->buffer;
            bufs[i].offset = off;
            bufs[i].size = (a->bytes - off) & ~(uint64_t)3;
            if (bufs[i].size > GPUCOMPILE_WEBGPU__MAX_BINDING) bufs[i].size = GPUCOMPILE_WEBGPU__MAX_BINDING;
            if (a->shared) used[nb++] = a;
        }
    }
    if (!gpucompile_webgpu__before_write(d, st)) return; /* the uniform block and the mirrors land after what came before */
    for (i = 0; i < nb; i++)
        if (!used[i]->pending) d->fn.QueueWriteBuffer(d->queue, used[i]->buffer, 0, used[i]->host, (size_t)used[i]->bytes);
    if (gpucompile_webgpu__bind(d, f, bufs, uniforms, groups, &ubuf) && (enc = gpucompile_webgpu__encoder(d, st)) != NULL) {
        if ((pass = d->fn.CommandEncoderBeginComputePass(enc, NULL)) != NULL) {
            gpucompile_webgpu__encode(d, pass, f, groups, g);
            d->fn.ComputePassEncoderEnd(pass);
            d->fn.ComputePassEncoderRelease(pass);
            for (i = 0; i < nb; i++) used[i]->pending = st;
        } else {
            gpucompile_runtime_report("wgpuCommandEncoderBeginComputePass", -1, "no compute pass");
            ok = 0;
        }
    }
    gpucompile_webgpu__unbind(d, groups, ubuf);
    if (ok && !stream) gpucompile_webgpu__sync(s, st, "mgpuLaunchKernel");
}

/* One mgpu* call at a time: WebGPU's objects here (the streams' encoders, the wait record, the
   allocation table) are the runtime's, not each thread's. */
GPUCOMPILE_LOCK_DEFINE(gpucompile_webgpu__mutex, gpucompile_webgpu__enter, gpucompile_webgpu__leave)

/* The vendor behind mgpu*; left NULL: module_load_jit (SPIR-V modules only). */
GPUCOMPILE_RUNTIME_VENDOR_DEFINE(gpucompile_webgpu__) {
    v->name = "WebGPU"; v->launch_call = "wgpuComputePassEncoderDispatchWorkgroups"; v->kind = "a webgpu.h library (wgpu-native or Dawn)";
    v->env = "GPUCOMPILE_LIBWEBGPU"; v->library = GPUCOMPILE_WEBGPU__LIBRARY;
    v->what = "the WebGPU library";
    v->hint = "wgpu-native or Dawn: PyPI's wgpu wheel holds libwgpu_native-release.so, dawn-python libwebgpu_dawn_x86_64.so; set GPUCOMPILE_LIBWEBGPU";
    v->score = gpucompile_webgpu__score;
    v->image_format = gpucompile_spirv_image_format;
    v->enter = gpucompile_webgpu__enter;
    v->leave = gpucompile_webgpu__leave;
}

int gpucompile_webgpu_runtime_info_get(gpucompile_webgpu_runtime_info *out) {
    if (!gpucompile_runtime_available()) return 0;
    gpucompile_lock();
    *out = gpucompile_webgpu__rt.info;
    gpucompile_unlock();
    return 1;
}

const gpucompile_webgpu_kernel *gpucompile_webgpu_function_kernel(void *function) {
    return function ? &((const gpucompile_webgpu__function *)function)->k : NULL;
}

/* ---- engines ---- */
struct gpucompile_webgpu_program {
    gpucompile_webgpu__dev d; /* the engine's device, our table of its library */
    void *lib;
    gpucompile_webgpu__module *module;
};

gpucompile_webgpu_program *gpucompile_webgpu_program_create(const gpucompile_webgpu_engine *engine, const void *spirv, size_t size) {
    gpucompile_webgpu_program *p;
    const char *names, *missing = NULL;
    char msg[400], one[256];
    if (!engine || !engine->device) {
        gpucompile_runtime_report("gpucompile_webgpu_program_create", -1, "no engine device");
        return NULL;
    }
    if (!(p = (gpucompile_webgpu_program *)calloc(1, sizeof *p))) {
        gpucompile_runtime_report("gpucompile_webgpu_program_create", -1, "out of host memory");
        return NULL;
    }
    names = engine->library ? engine->library : getenv("GPUCOMPILE_LIBWEBGPU");
    if (!names || !*names) names = GPUCOMPILE_WEBGPU__LIBRARY;
    while (*names && !p->lib) { /* the engine's library is loaded already: this finds it */
        size_t n = strcspn(names, ",");
        snprintf(one, sizeof one, "%.*s", (int)n, names);
        p->lib = gpucompile_dlopen(one);
        names += n + (names[n] == ',');
    }
    if (!p->lib || (missing = gpucompile_webgpu__resolve(p->lib, &p->d.fn, &p->d.abi)) != NULL) {
        snprintf(msg, sizeof msg, missing ? "the WebGPU library has no '%s'" : "cannot open the WebGPU library%s", missing ? missing : "");
        gpucompile_runtime_report("gpucompile_webgpu_program_create", -1, msg);
        if (p->lib) gpucompile_dlclose(p->lib);
        free(p);
        return NULL;
    }
    p->d.device = engine->device;
    p->d.queue = p->d.fn.DeviceGetQueue(engine->device);
    p->d.timeout_ms = gpucompile_webgpu__timeout();
    if (!(p->module = gpucompile_webgpu__module_make(&p->d, spirv, size))) {
        gpucompile_dlclose(p->lib);
        free(p);
        return NULL;
    }
    return p;
}

void gpucompile_webgpu_program_destroy(gpucompile_webgpu_program *program) {
    if (!program) return;
    gpucompile_webgpu__module_free(&program->d, program->module);
    gpucompile_dlclose(program->lib);
    free(program);
}

int gpucompile_webgpu_program_entry(const gpucompile_webgpu_program *program, const char *name, gpucompile_webgpu_entry *out) {
    const gpucompile_webgpu__function *f = program ? gpucompile_webgpu__lookup(program->module, name) : NULL;
    uint32_t i;
    if (!f || !out) return 0;
    memset(out, 0, sizeof *out);
    out->kernel = &f->k;
    out->pipeline = f->pipeline;
    out->num_groups = f->num_groups;
    for (i = 0; i < 4; i++) out->bind_group_layouts[i] = f->groups[i];
    return 1;
}

int gpucompile_webgpu_record(const gpucompile_webgpu_program *program, const char *name, void *pass, const uint32_t groups[3],
                             const gpucompile_webgpu_buffer *buffers, int num_buffers, const void *uniforms, uint32_t size) {
    const gpucompile_webgpu__function *f = program ? gpucompile_webgpu__lookup(program->module, name) : NULL;
    gpucompile_webgpu__dev *d;
    void *bg[4] = {NULL, NULL, NULL, NULL}, *ubuf = NULL;
    char msg[300];
    int ok;
    if (!f || !pass || !groups) {
        snprintf(msg, sizeof msg, "no entry point '%.120s' in the program, or no pass", name ? name : "(null)");
        gpucompile_runtime_report("gpucompile_webgpu_record", -1, msg);
        return -1;
    }
    d = (gpucompile_webgpu__dev *)&program->d;
    if (num_buffers != f->k.k.num_bindings || (f->k.has_uniforms && (!uniforms || size < f->k.k.push_size))) {
        snprintf(msg, sizeof msg, "'%s' takes %d buffers and %u bytes of uniforms, not %d and %u", f->k.k.name, f->k.k.num_bindings,
                 f->k.has_uniforms ? (unsigned)f->k.k.push_size : 0u, num_buffers, (unsigned)size);
        gpucompile_runtime_report("gpucompile_webgpu_record", -1, msg);
        return -1;
    }
    for (ok = 0; ok < num_buffers; ok++) /* what the library would not survive: checked here (wgpu-native aborts on it) */
        if (!buffers[ok].buffer || buffers[ok].offset % GPUCOMPILE_WEBGPU__ALIGN) {
            snprintf(msg, sizeof msg, "buffer %d of '%s': %s", ok, f->k.k.name, buffers[ok].buffer ? "its offset is not a multiple of 256" : "NULL");
            gpucompile_runtime_report("gpucompile_webgpu_record", -1, msg);
            return -1;
        }
    if (groups[0] > GPUCOMPILE_WEBGPU__MAX_GROUPS || groups[1] > GPUCOMPILE_WEBGPU__MAX_GROUPS || groups[2] > GPUCOMPILE_WEBGPU__MAX_GROUPS) {
        gpucompile_runtime_report("gpucompile_webgpu_record", -1, "more than 65535 workgroups in a dimension (maxComputeWorkgroupsPerDimension)");
        return -1;
    }
    ok = gpucompile_webgpu__bind(d, f, buffers, uniforms, bg, &ubuf);
    if (ok) gpucompile_webgpu__encode(d, pass, f, bg, groups);
    gpucompile_webgpu__unbind(d, bg, ubuf);
    return ok ? 0 : -1;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_WEBGPU_RUNTIME */

/* ==== [section: end] ====================================================================== */
/*
   Licence: as the rest of gpucompile (see README.md).
*/
