/* gpucompile_vulkan.h - the Vulkan backend of gpucompile: #gpu.vulkan / MLIR's #spirv.target_env
   to a Vulkan compute shader module (SPIR-V, GLCompute; LLVM's SPIR-V code generator, LLVM 22),
   with the kernels' reflection (workgroup size, bindings, push constants, workgroup memory) in
   their metadata, readable without LLVM.

   Include gpucompile.h first. The implementation is compiled where GPUCOMPILE_IMPLEMENTATION
   (with the core's) or GPUCOMPILE_VULKAN_IMPLEMENTATION (in a file of its own, with
   GPUCOMPILE_LOWER_IMPLEMENTATION there or in another file: gpucompile_lower.h, which this header
   includes; not with GPUCOMPILE_STATIC) is defined; it registers itself at start-up. The reflection reader
   (gpucompile_vulkan_reflect) and the runtime need neither LLVM nor gpucompile.h:
   GPUCOMPILE_VULKAN_RUNTIME compiles them alone ([section: selection and reflection], [section: runtime]).

   Targets:
   - #gpu.vulkan<O, triple, chip, features, flags> (ours). triple: "spirv1.6-unknown-vulkan1.3-
     compute" (default) or "spirv1.5-unknown-vulkan1.2-compute"; chip: the class of device the
     module must load on (the device itself is chosen at run time), "vulkan" (default: what
     Mesa's lavapipe and current desktop drivers have: Shader, Int8, Int16, Int64, Float16,
     Float64, Int64Atomics, the GroupNonUniform family, 8- and 16-bit storage,
     AtomicFloat32AddEXT, with their extensions) or "android" (Khronos' Android baseline profile:
     Shader and GroupNonUniform only, no 64-, 16-, 8-bit integers, half, double or 8/16-bit
     storage; 16 KiB of workgroup memory, 128 bytes of push constants). features: what the target
     allows besides the chip's set, as +Name / -Name words, Name a SPIR-V capability (Int64,
     AtomicFloat32MinMaxEXT, ...) or extension (SPV_KHR_16bit_storage, ...).
   - #spirv.target_env<#spirv.vce<v1.6, [Shader, ...], [SPV_...]>, api=Vulkan, VENDOR:TYPE:ID,
     #spirv.resource_limits<...>> (MLIR 22's, read and printed as mlir-opt-22 does). The lists
     are all the target allows: nothing is added to them. SPIR-V 1.5 and 1.6 are compiled (as
     Vulkan 1.2 and 1.3). cooperative_matrix_properties_* are read only as [].
   A module that needs a capability or extension the target does not allow is refused, naming it:
   a value that needs one (a 64-bit integer without Int64, ...) before code generation, naming the
   function and the instruction, as is more workgroup memory in an entry point than the target's
   devices have (chip "android"; #spirv.resource_limits' max_compute_shared_memory_size).

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
   (a 64-bit index declares Int64, which a target may not allow), and 64-bit index arithmetic and
   comparisons of 32-bit values are computed in 32 bits (gpucompile_lower_narrow). After LLVM, on
   the module's words: the barrier gets the WorkgroupMemory
   semantics LLVM 22 leaves out, atomics' null constants (monotonic ordering) become constants,
   the resource names' dead string variables go (with the Int8 capability they force), and each
   entry point's interface lists only the variables it uses (LLVM 22 lists the module's all); -v
   says what changed.

   Also OpenCL/CUDA-style kernels (spir_kernel, ptx_kernel, amdgpu_kernel functions: pointer
   and scalar parameters, work-item builtins, local memory, barriers, atomics, OpenCL math): their
   helpers are inlined, and after optimization they are rewritten into the shape above
   ([section: lowering]): each pointer parameter a storage buffer, the scalars in the
   push-constant block, the parameters' order recorded in the module, so that the launch code
   --host writes for OpenCL runs them on Vulkan unchanged. Sizes are the launch's, as on the
   other APIs: a kernel without reqd_work_group_size takes its workgroup size from the launch's
   block (LocalSizeId of the specialization constants 0, 1, 2; default 64,1,1), a local pointer
   parameter and CUDA's extern __shared__ array their bytes from its sharedMemBytes (a workgroup
   array whose length is a specialization constant, SpecId 3 and up); the runtime makes a
   pipeline per size. Flags compile them in: workgroup_size = "X,Y,Z" (a kernel without
   reqd_work_group_size; the launch's block must equal it) and local_memory = "BYTES" (each local
   pointer parameter's workgroup array; the launch may ask for up to that); warp_size = "N" (the
   lanes of CUDA's warp for NVVM's warp functions, default 32: a kernel that calls them needs
   sub-groups of that size, which the runtime asks of the device or refuses at load). What Vulkan cannot
   express is refused before LLVM, naming the function and the instruction
   (docs/vulkan-pointer-kernels.md).

   Formats: llvm (bitcode), isa (SPIR-V assembly text, as spirv-as reads it), bin (the module).
   Kernel metadata (MLIR's #gpu.kernel_metadata): workgroup_size = array<i32: X, Y, Z>, bindings =
   [{binding, [dim, image,] read_only, set, stride}] (an image's dim "1D", "2D", "3D", "2DArray",
   ...; image "storage_image", "sampled_image", "image_sampler" or "sampler"), push_constants =
   [{offset, size}], push_constant_bytes, workgroup_memory_bytes, subgroup_size (a kernel with CUDA's
   warp functions: the sub-group size it needs); a pointer kernel's parameters =
   "TOKENS" (its parameters in order: bN, pOFFSET:SIZE, lBYTES (l0: set at launch), -, an image's
   bindings iB[:sJ|:kC][+B...] (through sampler parameter J, or the constant sampler of OpenCL's
   bits C), s a sampler); launch_sizes = "local_size_x=0 ...
   shared=3/4" where sizes are set at launch (their SpecIds; shared: a workgroup array of 4-byte
   elements); launch_values = "work_dim=65536 offset_x=65537 ... groups_x=65540" where the kernel
   reads the lowering's other launch values. On an LLVM without the SPIRV target (Debian's LLVM 19) the target
   fails verification, saying so.

   LLVM's SPIR-V code generator takes its extensions only from a process-wide LLVM option
   (-spirv-ext; LLVM 22 has no per-target-machine or per-module way in its C API), and a float
   atomic aborts inside LLVM without SPV_EXT_shader_atomic_float_add / _min_max. Who sets it is
   the program's choice (gpucompile_vulkan_set_llvm_options): by default the backend parses
   -spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max once, at its
   first compile; a program that owns LLVM's options says so and either passes that option itself
   or has float atomics refused by name before LLVM. The target's lists decide whether a module
   that uses them is kept. */
#ifndef GPUCOMPILE_VULKAN_H
#define GPUCOMPILE_VULKAN_H
#define GPUCOMPILE_SPIRV_WORDS /* gpucompile_runtime.h's walk over a module's instructions, for the implementation */
#include <stddef.h>
#include <stdint.h>
#if defined(GPUCOMPILE_H) /* the backend; the reflection reader alone needs neither LLVM nor gpucompile.h */
#include "gpucompile_lower.h" /* the pointer-kernel lowering the backend runs */
#ifdef __cplusplus
extern "C" {
#endif
GPUCOMPILE_API const gpucompile_backend *gpucompile_vulkan_backend(void);
/* 1 when the LLVM in use has the SPIR-V code generator. */
GPUCOMPILE_API int gpucompile_vulkan_available(void);
/* Who sets LLVM's process-wide -spirv-ext option, which float atomics need:
   GPUCOMPILE_VULKAN_LLVM_OPTIONS_SET (the default): the backend, once, with LLVMParseCommandLineOptions
   at its first compile; _HOST: the program, which parses LLVM's options itself and has passed
   -spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max (LLVM exits on
   a second -spirv-ext); _NONE: nobody, and float atomics are refused before LLVM, naming the
   instruction. The backend parses nothing unless the mode is SET at its first compile (call this
   first); after it parsed the option, the mode stays SET. Returns the mode in force. */
enum { GPUCOMPILE_VULKAN_LLVM_OPTIONS_SET = 0, GPUCOMPILE_VULKAN_LLVM_OPTIONS_HOST = 1, GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE = 2 };
GPUCOMPILE_API int gpucompile_vulkan_set_llvm_options(int mode);
/* The pointer-kernel lowering's target for Vulkan (gpucompile_lower.h): the names LLVM 22's SPIR-V
   code generator takes for a compute shader (the input section below), the limits every Vulkan
   device has. */
GPUCOMPILE_API const gpucompile_lower_target *gpucompile_vulkan_lower_target(void);
/* The lowering's names before gpucompile_lower.h (kept for a release). */
typedef gpucompile_lower_options gpucompile_vulkan_lower_options;
#define gpucompile_vulkan_lower_kernels(job, module, options, logger, lowered) \
    gpucompile_lower_kernels(job, module, gpucompile_vulkan_lower_target(), options, logger, lowered)
#define gpucompile_vulkan_is_pointer_kernel gpucompile_is_pointer_kernel
#define gpucompile_vulkan_has_pointer_kernels gpucompile_has_pointer_kernels
#define gpucompile_vulkan_inline_helpers gpucompile_inline_helpers
/* The SPIR-V module (size bytes, host byte order) code generation made of a lowered module,
   with module's gpucompile.vulkan.params strings added as OpModuleProcessed and the sizes the
   lowering left to the launch made specialization constants (a marked entry point's LocalSize
   becomes LocalSizeId of SpecIds 0, 1, 2; a marked workgroup array's length the SpecId its
   metadata names), appended to out (a zeroed gpucompile_buf; its data is the caller's), blocks
   LLVM 22 gave an earlier compile's id given their own (gpucompile_spirv_relabel in
   gpucompile_runtime.h). The words as they are when the module has none of these.
   GPUCOMPILE_ERROR_INVALID_INPUT when they are not a SPIR-V module, GPUCOMPILE_ERROR_LLVM when an
   id defined twice cannot be mended. */
GPUCOMPILE_API gpucompile_result gpucompile_vulkan_mark_params(LLVMModuleRef module, const void *spirv, size_t size, gpucompile_buf *out);
/* Each kernel gpucompile_vulkan_reflect finds in the words, its reflection as MLIR kernel
   metadata into o's kernel of that name (o's memory), or into a kernel added to o when add (an
   object read back): for a backend that compiles through this one. */
GPUCOMPILE_API gpucompile_result gpucompile_vulkan_reflect_into(gpucompile_object *o, const void *words, size_t size, int add);
#ifdef __cplusplus
}
#endif
#endif
#endif /* GPUCOMPILE_VULKAN_H */

#ifndef GPUCOMPILE_VULKAN_RUNTIME_API
#define GPUCOMPILE_VULKAN_RUNTIME_API
#include <stddef.h>
#include <stdint.h>
#if defined(GPUCOMPILE_STATIC)
#if defined(__GNUC__)
#define GPUCOMPILE_VULKAN__API static __attribute__((unused))
#else
#define GPUCOMPILE_VULKAN__API static
#endif
#else
#define GPUCOMPILE_VULKAN__API extern
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* ---- reflection ---- */
/* A buffer or image an entry point uses. descriptor_type is Vulkan's VkDescriptorType: 7 a
   storage buffer (StorageBuffer, or Uniform with BufferBlock), 6 a uniform buffer (Uniform with
   Block), 3 a storage image (OpTypeImage with Sampled 2), 2 a sampled image (Sampled 1), 1 an
   image and sampler (OpTypeSampledImage), 0 a sampler. stride: the ArrayStride of the block's
   last member when it is an array (the runtime array of an element type), else 0. read_only:
   NonWritable on the variable or on every member, a uniform buffer, or an image that is not a
   storage image. count: the descriptor count (1; an array of blocks: its length, 0 unsized).
   An image's: dim (SPIR-V's Dim: 0 1D, 1 2D, 2 3D, 5 a buffer), arrayed, format (SPIR-V's
   ImageFormat: 0 unknown, the view's own), integer (1: its texels are integers, 0 floats).
   param: the kernel's original parameter it holds (a kernel compiled from OpenCL C: see
   gpucompile_vulkan_param), -1 without one. An image and sampler's sampler: the parameter
   sampler_param (an int32_t of OpenCL's sampler bits), or the constant sampler_bits where
   sampler_param is -1 (OpenCL's CLK_* bits). */
typedef struct gpucompile_vulkan_binding {
    uint32_t set, binding, stride;
    int read_only;
    uint32_t descriptor_type, count;
    uint32_t dim, arrayed, format, integer;
    int32_t param, sampler_param;
    uint32_t sampler_bits;
} gpucompile_vulkan_binding;
/* One member of the push-constant block: its Offset and the size of its type. */
typedef struct gpucompile_vulkan_push_field { uint32_t offset, size; } gpucompile_vulkan_push_field;
/* One original parameter of a kernel compiled from pointer parameters. kind: BINDING (a
   pointer: the storage buffer at set 0, binding value), PUSH (size bytes copied to offset value
   of the push-constant block), LOCAL (local memory: the launch's sharedMemBytes may be up to
   value bytes, compiled in; 0: its array's length is set at launch, see launch below), UNUSED
   (the argument is not read), IMAGE (an image: the bindings whose param is its index, value the
   first of them; the argument as a buffer's, the image's handle; size 4 when the kernel asks for
   its channel order or data type: a uint32_t at push-constant offset push, order | data type <<
   16 (OpenCL's cl_channel_order and cl_channel_type values); size 20 when the kernel only asks
   about the image (no binding then): that word, then its width, height, depth and layers (1 where
   it has none); mgpuLaunchKernel writes them from the image's mgpuImageCreate, an engine into the
   push bytes it records), SAMPLER (a
   sampler_t: an int32_t of OpenCL's sampler bits, read by the image-and-sampler bindings that
   name it). */
#define GPUCOMPILE_VULKAN_MAX_PARAMS 64
enum { GPUCOMPILE_VULKAN_PARAM_UNUSED = 0, GPUCOMPILE_VULKAN_PARAM_BINDING = 1, GPUCOMPILE_VULKAN_PARAM_PUSH = 2, GPUCOMPILE_VULKAN_PARAM_LOCAL = 3,
       GPUCOMPILE_VULKAN_PARAM_IMAGE = 4, GPUCOMPILE_VULKAN_PARAM_SAMPLER = 5 };
typedef struct gpucompile_vulkan_param { uint32_t kind, value, size, push; } gpucompile_vulkan_param;
/* A size set at launch: a specialization constant (SpecId spec_id, a 32-bit integer) that the
   runtime gives when it makes the entry point's pipeline for a launch. kind LOCAL_SIZE:
   dimension arg (0..2) of the workgroup size (LocalSizeId's operand or the WorkgroupSize
   built-in's component), from the launch's block; SHARED: the length of a workgroup array of
   arg-byte elements (its OpTypeArray's length), from the launch's sharedMemBytes (divided by
   arg, rounded up; a launch without sharedMemBytes keeps the default). value: the module's
   default. In a module from the pointer-kernel lowering (one with gpucompile.params strings), the
   specialization constants with SpecId GPUCOMPILE_VULKAN_SPEC_LAUNCH + 0 .. 6 too: WORK_DIM (the
   launch's work dimension, 1 to 3; default 3), OFFSET (dimension arg of the global offset; default
   0) and GROUPS (dimension arg of the whole launch's workgroups when the runtime splits it into
   dispatches; default 0: not split). */
enum { GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE = 1, GPUCOMPILE_VULKAN_LAUNCH_SHARED = 2, GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM = 3,
       GPUCOMPILE_VULKAN_LAUNCH_OFFSET = 4, GPUCOMPILE_VULKAN_LAUNCH_GROUPS = 5 };
#define GPUCOMPILE_VULKAN_SPEC_LAUNCH 65536u /* far above the arrays' SpecIds (3 and up, one per array) */
typedef struct gpucompile_vulkan_launch_value { uint32_t kind, spec_id, arg, value; } gpucompile_vulkan_launch_value;
#define GPUCOMPILE_VULKAN_MAX_LAUNCH 24
/* One GLCompute entry point. name: as OpEntryPoint spells it (cut at 127 bytes). local_size:
   LocalSize, or LocalSizeId's constants, or the WorkgroupSize built-in constant (which wins);
   a specialization constant's default.
   bindings: sorted by (set, binding), at most 32; push: the block's members by offset, at most
   32; push_size: the end of its last member (0: no block). workgroup_bytes: the sizes of the
   Workgroup variables' types, added up (natural sizes, no padding). */
typedef struct gpucompile_vulkan_kernel {
    char name[128];
    uint32_t local_size[3];
    int num_bindings;
    gpucompile_vulkan_binding bindings[32];
    int num_push;
    gpucompile_vulkan_push_field push[32];
    uint32_t push_size;
    uint32_t workgroup_bytes;
    /* A kernel compiled from pointer parameters (gpucompile_lower_kernels): its original
       parameters in order, from the module's OpModuleProcessed "gpucompile.params" string; 0
       for a module without one (the launch then takes the bindings, then the push members). */
    int num_params;
    gpucompile_vulkan_param params[GPUCOMPILE_VULKAN_MAX_PARAMS];
    /* The sizes set at launch (none: all compiled in), local sizes first in dimension order, then
       the workgroup arrays; at most GPUCOMPILE_VULKAN_MAX_LAUNCH, one per SpecId. workgroup_bytes
       counts those arrays at their default lengths. */
    int num_launch;
    gpucompile_vulkan_launch_value launch[GPUCOMPILE_VULKAN_MAX_LAUNCH];
    /* has_uniforms: push / push_size are not push constants but a uniform buffer's bytes, at
       (uniform_set, uniform_binding), laid out alike: the scalars' block of a kernel that needs
       more than the 128 bytes of push constants every device has (or of a #gpu.webgpu module,
       which has no push constants); the module's OpModuleProcessed "gpucompile.uniforms SET
       BINDING" names it. Not among bindings. */
    int has_uniforms;
    uint32_t uniform_set, uniform_binding;
    /* The sub-group size the entry point needs (0: any): a kernel with CUDA's warp functions,
       whose lanes are a warp's (the module's OpModuleProcessed "gpucompile.subgroup_size NAME N").
       The runtime makes its pipeline with that size (Vulkan 1.3's subgroupSizeControl; full
       sub-groups where the workgroup's width is a multiple of it) or refuses to load it. */
    uint32_t subgroup_size;
} gpucompile_vulkan_kernel;
/* Reads every GLCompute entry point of a SPIR-V module (little- or big-endian words, any
   alignment): the number found (out[0 .. min(found, max)-1] filled), -1 if the bytes are not a
   well-formed SPIR-V module. The global variables an entry point uses: those its function and
   the functions it calls name (from SPIR-V 1.4 on, also listed in its interface). Untrusted
   input is fine: every word is bounds-checked. */
GPUCOMPILE_VULKAN__API int gpucompile_vulkan_reflect(const void *spirv, size_t size, gpucompile_vulkan_kernel *out, int max);

/* ---- the runtime's own additions (GPUCOMPILE_VULKAN_RUNTIME) ---- */
/* The pipeline cache file (before the first call; NULL: the default, "off": none). */
void gpucompile_vulkan_set_pipeline_cache(const char *path);
/* What the runtime started with and what its pipeline cache did. */
typedef struct gpucompile_vulkan_runtime_info {
    char device_name[256];
    uint32_t api_version, vendor_id, device_id;
    int push_descriptors, int8, int16, int64, float_atomics; /* enabled on the device */
    uint32_t subgroup_size, subgroup_operations; /* VkPhysicalDeviceSubgroupProperties: size, operations in compute shaders */
    uint32_t subgroup_min, subgroup_max; /* the sizes a kernel may need (subgroupSizeControl for compute shaders; else subgroup_size) */
    int validation;                    /* VK_LAYER_KHRONOS_validation enabled by us, its messages to the error callback */
    char pipeline_cache[1024];         /* the file; "" none */
    uint64_t cache_bytes_loaded, cache_bytes_saved;
    unsigned pipelines, cache_hits;    /* pipelines created; of them, found in the cache (the driver's feedback) */
    double pipeline_ms;                /* time spent creating them */
} gpucompile_vulkan_runtime_info;
/* 1 and *out filled when the device is up (it starts it), else 0. */
int gpucompile_vulkan_runtime_info_get(gpucompile_vulkan_runtime_info *out);
/* The reflection of a function from mgpuModuleGetFunction (NULL for NULL). */
const gpucompile_vulkan_kernel *gpucompile_vulkan_function_kernel(void *function);
/* What an OpenCL launch gives besides mgpuLaunchKernel's sizes (zero: the defaults). work_dim:
   1 to 3 (get_work_dim; 0: 3); offset: the global offset (get_global_offset, added to
   get_global_id), in the dimensions below work_dim; max_groups: for gpucompile_vulkan_record_launch
   only, the engine's device's maxComputeWorkGroupCount (0: 65535, every device's). A kernel reads
   them as specialization constants (GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM, ..._OFFSET): a launch with
   other values than the last one's costs a pipeline, made once and kept. */
typedef struct gpucompile_vulkan_launch_info {
    uint32_t work_dim, offset[3], max_groups[3];
} gpucompile_vulkan_launch_info;
/* mgpuLaunchKernel with info (NULL: the defaults, as mgpuLaunchKernel). Errors are reported as
   mgpuLaunchKernel's. */
void gpucompile_vulkan_launch_kernel(void *function, const gpucompile_vulkan_launch_info *info, const uint32_t grid[3], const uint32_t block[3],
                                     uint32_t shared_bytes, void *stream, void **params);

/* ---- for engines that own the device, the queue and submission (GPUCOMPILE_VULKAN_RUNTIME) ----
   A program is a SPIR-V module made on the engine's VkDevice: the shader module and, per entry
   point, its descriptor set layouts, pipeline layout and compute pipeline (through the engine's
   pipeline cache). The program owns them (destroyed with it) and shares none of them with the
   mgpu* runtime, which has a device of its own; the engine may use them in its own calls
   (gpucompile_vulkan_program_entry). Launches are recorded into the engine's command buffers,
   which it submits; barriers between launches are the engine's. The mgpu* device is never
   started by these calls. Errors go to gpucompile_runtime_report. Thread-safe per program as
   Vulkan is: recording into different command buffers from several threads is fine. */
#if defined(_WIN32)
#define GPUCOMPILE_VULKAN_CALL __stdcall /* VKAPI_CALL */
#else
#define GPUCOMPILE_VULKAN_CALL
#endif
typedef void(GPUCOMPILE_VULKAN_CALL *gpucompile_vulkan_void_fn)(void);
typedef struct gpucompile_vulkan_engine {
    void *device;                                     /* VkDevice */
    gpucompile_vulkan_void_fn(GPUCOMPILE_VULKAN_CALL *get_device_proc_addr)(void *device, const char *name); /* vkGetDeviceProcAddr */
    uint64_t pipeline_cache;                          /* VkPipelineCache; 0 none */
    int push_descriptors;                             /* the device has VK_KHR_push_descriptor enabled */
} gpucompile_vulkan_engine;
typedef struct gpucompile_vulkan_program gpucompile_vulkan_program;
/* NULL on failure (reported). */
gpucompile_vulkan_program *gpucompile_vulkan_program_create(const gpucompile_vulkan_engine *engine, const void *spirv, size_t size);
void gpucompile_vulkan_program_destroy(gpucompile_vulkan_program *program);
/* What was made for one entry point: its reflection, VkPipeline, VkPipelineLayout and
   VkDescriptorSetLayouts (sets 0 .. num_set_layouts-1; set 0 a push-descriptor set when
   push_descriptors). 1, or 0 when the program has no such entry point. */
typedef struct gpucompile_vulkan_entry {
    const gpucompile_vulkan_kernel *kernel;
    uint64_t pipeline, pipeline_layout, set_layouts[4];
    uint32_t num_set_layouts;
    int push_descriptors;
} gpucompile_vulkan_entry;
int gpucompile_vulkan_program_entry(const gpucompile_vulkan_program *program, const char *name, gpucompile_vulkan_entry *out);
/* VkDescriptorBufferInfo: a buffer, an offset into it, a range (~0: the rest). */
typedef struct gpucompile_vulkan_buffer { uint64_t buffer, offset, range; } gpucompile_vulkan_buffer;
/* Records entry point name into command_buffer (recording, a compute-capable queue's): binds its
   pipeline; its buffers, one per binding in the reflection's (set, binding) order, through
   push descriptors (buffers NULL: the engine bound its own sets with the entry's layouts; an
   image binding's entry: buffer its VkImageView, offset its VkSampler (an image and sampler,
   made by the engine from the binding's sampler_param argument or sampler_bits; else 0), range
   the VkImageLayout it is in (0: GENERAL, which a storage image needs; a sampled one may be
   SHADER_READ_ONLY_OPTIMAL)); the
   push-constant block's bytes (push, push_size >= the block's size); vkCmdDispatch(groups).
   An entry point whose kernel has_uniforms (scalars above the 128 bytes of push constants)
   takes one more buffer, last (num_buffers = num_bindings + 1): a buffer the engine made with
   VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, of at least push_size
   bytes from its offset (a multiple of 4 and of minUniformBufferOffsetAlignment); the call
   records the block's bytes (push) into it with vkCmdUpdateBuffer between pipeline barriers
   and binds it at (uniform_set, uniform_binding), so one such buffer serves every launch
   recorded for one queue. With buffers NULL the engine's own sets hold that uniform buffer and
   the engine writes the bytes there itself (push is not read).
   0, or -1 (reported) with nothing recorded. */
int gpucompile_vulkan_record(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                             const gpucompile_vulkan_buffer *buffers, int num_buffers, const void *push, uint32_t push_size);
/* Entry points with sizes set at launch (their kernel's num_launch): the pipeline for blocks of
   block[0..2] threads (NULL: the defaults) and shared_bytes of dynamic workgroup memory (each
   array set at launch that many bytes; 0: their defaults), made through the engine's pipeline
   cache at the first call with those sizes and kept by the program (thread-safe). 1 with *out
   filled as gpucompile_vulkan_program_entry fills it (pipeline: that one), 0 when the program has
   no such entry point, -1 (reported) when the sizes are refused (a workgroup size compiled in and
   not block, or a pipeline that cannot be made). The engine checks its device's limits: the
   program knows none of them. gpucompile_vulkan_program_entry and gpucompile_vulkan_record use the
   defaults. Where an entry point's workgroup size is set at launch (LocalSizeId), the engine's
   device needs the maintenance4 feature enabled (Vulkan 1.3 devices all have it). */
int gpucompile_vulkan_program_specialize(const gpucompile_vulkan_program *program, const char *name, const uint32_t block[3], uint32_t shared_bytes,
                                         gpucompile_vulkan_entry *out);
/* gpucompile_vulkan_record with the launch's sizes (block, shared_bytes as above). */
int gpucompile_vulkan_record_sized(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                                   const uint32_t block[3], uint32_t shared_bytes, const gpucompile_vulkan_buffer *buffers, int num_buffers,
                                   const void *push, uint32_t push_size);
/* gpucompile_vulkan_record_sized with info (NULL: the defaults): the work dimension and global
   offset, and groups above info->max_groups split into several vkCmdDispatchBase (an entry point
   from the pointer-kernel lowering, whose ids and get_num_groups are then those of one launch; the
   engine's device needs Vulkan 1.1). */
int gpucompile_vulkan_record_launch(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                                    const uint32_t block[3], uint32_t shared_bytes, const gpucompile_vulkan_launch_info *info,
                                    const gpucompile_vulkan_buffer *buffers, int num_buffers, const void *push, uint32_t push_size);

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_VULKAN_RUNTIME_API */

/* SPIR-V's numbers that the backend's repair and the reflection reader use (the SPIR-V
   specification, section 3): one list for both, compiled with either. */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_RUNTIME) || \
     defined(GPUCOMPILE_VULKAN_REFLECTION)) && !defined(GPUCOMPILE_VULKAN__OPS_DEFINED)
#define GPUCOMPILE_VULKAN__OPS_DEFINED
/* The scalars' block's largest size: 64 parameters of at most 64 bytes. Above the 128 bytes of
   push constants every device has it is a uniform buffer, whose range is at least 16384 bytes on
   every device. */
#define GPUCOMPILE_VULKAN__MAX_BLOCK 4096
enum {
    GPUCOMPILE_VULKAN__OP_NAME = 5, GPUCOMPILE_VULKAN__OP_EXTENSION = 10, GPUCOMPILE_VULKAN__OP_CAPABILITY = 17,
    GPUCOMPILE_VULKAN__OP_ENTRY_POINT = 15, GPUCOMPILE_VULKAN__OP_EXECUTION_MODE = 16, GPUCOMPILE_VULKAN__OP_TYPE_BOOL = 20,
    GPUCOMPILE_VULKAN__OP_TYPE_INT = 21, GPUCOMPILE_VULKAN__OP_TYPE_FLOAT = 22, GPUCOMPILE_VULKAN__OP_TYPE_VECTOR = 23,
    GPUCOMPILE_VULKAN__OP_TYPE_MATRIX = 24, GPUCOMPILE_VULKAN__OP_TYPE_ARRAY = 28, GPUCOMPILE_VULKAN__OP_TYPE_RUNTIME_ARRAY = 29,
    GPUCOMPILE_VULKAN__OP_TYPE_STRUCT = 30, GPUCOMPILE_VULKAN__OP_TYPE_POINTER = 32, GPUCOMPILE_VULKAN__OP_CONSTANT = 43,
    GPUCOMPILE_VULKAN__OP_CONSTANT_COMPOSITE = 44, GPUCOMPILE_VULKAN__OP_CONSTANT_NULL = 46, GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT = 50,
    GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT_COMPOSITE = 51, GPUCOMPILE_VULKAN__OP_FUNCTION = 54, GPUCOMPILE_VULKAN__OP_FUNCTION_END = 56,
    GPUCOMPILE_VULKAN__OP_FUNCTION_CALL = 57, GPUCOMPILE_VULKAN__OP_VARIABLE = 59, GPUCOMPILE_VULKAN__OP_DECORATE = 71,
    GPUCOMPILE_VULKAN__OP_MEMBER_DECORATE = 72, GPUCOMPILE_VULKAN__OP_CONTROL_BARRIER = 224, GPUCOMPILE_VULKAN__OP_EXECUTION_MODE_ID = 331,
    GPUCOMPILE_VULKAN__OP_COMPOSITE_INSERT = 82, GPUCOMPILE_VULKAN__OP_SELECT = 169, GPUCOMPILE_VULKAN__OP_IEQUAL = 170,
    GPUCOMPILE_VULKAN__OP_ATOMIC_COMPARE_EXCHANGE = 230, GPUCOMPILE_VULKAN__OP_TYPE_IMAGE = 25, GPUCOMPILE_VULKAN__OP_TYPE_SAMPLER = 26,
    GPUCOMPILE_VULKAN__OP_TYPE_SAMPLED_IMAGE = 27, GPUCOMPILE_VULKAN__OP_LOAD = 61, GPUCOMPILE_VULKAN__OP_IMAGE_FETCH = 95,
    GPUCOMPILE_VULKAN__OP_IMAGE_READ = 98, GPUCOMPILE_VULKAN__OP_IMAGE_WRITE = 99,
    GPUCOMPILE_VULKAN__OP_SOURCE_CONTINUED = 2, GPUCOMPILE_VULKAN__OP_SOURCE = 3, GPUCOMPILE_VULKAN__OP_SOURCE_EXTENSION = 4,
    GPUCOMPILE_VULKAN__OP_MEMBER_NAME = 6, GPUCOMPILE_VULKAN__OP_STRING = 7, GPUCOMPILE_VULKAN__OP_EXT_INST_IMPORT = 11,
    GPUCOMPILE_VULKAN__OP_MEMORY_MODEL = 14, GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED = 330,
    GPUCOMPILE_VULKAN__OP_PHI = 245, GPUCOMPILE_VULKAN__OP_LOOP_MERGE = 246, GPUCOMPILE_VULKAN__OP_SELECTION_MERGE = 247,
    GPUCOMPILE_VULKAN__OP_LABEL = 248, GPUCOMPILE_VULKAN__OP_BRANCH = 249, GPUCOMPILE_VULKAN__OP_BRANCH_CONDITIONAL = 250,
    GPUCOMPILE_VULKAN__MODEL_GLCOMPUTE = 5, GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE = 17, GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE_ID = 38,
    GPUCOMPILE_VULKAN__DEC_SPEC_ID = 1, GPUCOMPILE_VULKAN__DEC_BLOCK = 2, GPUCOMPILE_VULKAN__DEC_BUFFER_BLOCK = 3, GPUCOMPILE_VULKAN__DEC_ARRAY_STRIDE = 6,
    GPUCOMPILE_VULKAN__DEC_MATRIX_STRIDE = 7, GPUCOMPILE_VULKAN__DEC_BUILTIN = 11, GPUCOMPILE_VULKAN__DEC_NON_WRITABLE = 24,
    GPUCOMPILE_VULKAN__DEC_BINDING = 33, GPUCOMPILE_VULKAN__DEC_SET = 34, GPUCOMPILE_VULKAN__DEC_OFFSET = 35,
    GPUCOMPILE_VULKAN__BUILTIN_WORKGROUP_SIZE = 25, GPUCOMPILE_VULKAN__SC_UNIFORM = 2, GPUCOMPILE_VULKAN__SC_WORKGROUP = 4,
    GPUCOMPILE_VULKAN__SC_FUNCTION = 7, GPUCOMPILE_VULKAN__SC_UNIFORM_CONSTANT = 0, GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT = 9, GPUCOMPILE_VULKAN__SC_STORAGE_BUFFER = 12
};
#endif

/* ==== [section: selection and reflection] ==============================================
   Without LLVM and without gpucompile.h: a reader of the compute entry points of a SPIR-V
   module for Vulkan (reflection: what a program needs to build its descriptor set layouts,
   push-constant ranges and dispatches), and an mgpu* runtime over Vulkan 1.3.

   The reflection is compiled where GPUCOMPILE_IMPLEMENTATION or GPUCOMPILE_VULKAN_IMPLEMENTATION
   is defined (the backend's file), and in the runtime's file (GPUCOMPILE_VULKAN_RUNTIME) when that
   file does not include gpucompile.h (a program without the compiler); the runtime itself uses
   a private copy, so a program may link the compiler and the runtime from different files.
   GPUCOMPILE_VULKAN_REFLECTION asks for the private copy alone (gpucompile_vulkan__reflect and
   the selection rule, static, no public name): gpucompile_webgpu.h, which reads Vulkan-shaped
   SPIR-V for another runtime, defines it.
*/


/* ---- reflection: the implementation ----
   A private copy in every file that needs it (the runtime's, the backend's); the public name
   where the header's rules above put it. */
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_RUNTIME) || \
     defined(GPUCOMPILE_VULKAN_REFLECTION)) && !defined(GPUCOMPILE_VULKAN__REFLECT_IMPLEMENTED)
#define GPUCOMPILE_VULKAN__REFLECT_IMPLEMENTED
#include <stdlib.h>
#include <string.h>
#if defined(GPUCOMPILE_VULKAN_RUNTIME) && !defined(GPUCOMPILE_RUNTIME_IMPLEMENTATION)
#define GPUCOMPILE_RUNTIME_IMPLEMENTATION
#endif
#if (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION)) && !defined(GPUCOMPILE_BACKEND_IMPLEMENTATION)
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#endif
#include "gpucompile_runtime.h"
#ifdef __cplusplus
extern "C" {
#endif

/* What one id's decorations say. */
#define GPUCOMPILE_VULKAN__F_BLOCK 1u
#define GPUCOMPILE_VULKAN__F_BUFFER_BLOCK 2u
#define GPUCOMPILE_VULKAN__F_NON_WRITABLE 4u
#define GPUCOMPILE_VULKAN__F_SET 8u
#define GPUCOMPILE_VULKAN__F_BINDING 16u
#define GPUCOMPILE_VULKAN__F_STRIDE 32u
#define GPUCOMPILE_VULKAN__F_WORKGROUP_SIZE 64u
#define GPUCOMPILE_VULKAN__F_SPEC_ID 128u

typedef struct gpucompile_vulkan__id {
    uint32_t def;               /* the word index of the instruction that defines it; 0 none */
    uint32_t flags, set, binding, stride, spec_id;
    unsigned char used;         /* by the entry point being read */
} gpucompile_vulkan__id;

typedef struct gpucompile_vulkan__member { uint32_t type, member, offset, flags; } gpucompile_vulkan__member;

typedef struct gpucompile_vulkan__spv {
    uint32_t *w;                /* the words, in host order */
    size_t n;
    uint32_t cap;               /* ids below cap are tracked */
    gpucompile_vulkan__id *ids;
    gpucompile_vulkan__member *members; /* OpMemberDecorate Offset / NonWritable */
    size_t num_members;
    uint32_t wg_size_id;        /* the constant decorated BuiltIn WorkgroupSize, 0 none */
} gpucompile_vulkan__spv;

GPUCOMPILE_PRIVATE const uint32_t *gpucompile_vulkan__spv_def(const gpucompile_vulkan__spv *s, uint32_t id, uint32_t op, uint32_t min_wc) {
    const uint32_t *i;
    if (id >= s->cap || !s->ids[id].def) return NULL;
    i = s->w + s->ids[id].def;
    return (op == 0 || gpucompile_spirv_opcode(i[0]) == op) && gpucompile_spirv_count(i[0]) >= min_wc ? i : NULL;
}

/* The value of an OpConstant / OpSpecConstant (its low word), else def. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_vulkan__const(const gpucompile_vulkan__spv *s, uint32_t id, uint32_t def) {
    const uint32_t *i = gpucompile_vulkan__spv_def(s, id, 0, 4);
    if (!i || (gpucompile_spirv_opcode(i[0]) != GPUCOMPILE_VULKAN__OP_CONSTANT && gpucompile_spirv_opcode(i[0]) != GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT)) return def;
    return i[3];
}

/* The bytes of type id: in a block with explicit layout (Offset, ArrayStride) when explicit,
   else natural sizes without padding; 0 when unknown (or unsized). Depth-limited: hostile input
   may make types refer to each other. */
GPUCOMPILE_PRIVATE uint64_t gpucompile_vulkan__size(const gpucompile_vulkan__spv *s, uint32_t id, int explicit_layout, int depth) {
    const uint32_t *i = gpucompile_vulkan__spv_def(s, id, 0, 2);
    uint32_t wc, k;
    uint64_t size = 0, e;
    if (!i || depth > 16) return 0;
    wc = gpucompile_spirv_count(i[0]);
    switch (gpucompile_spirv_opcode(i[0])) {
    case GPUCOMPILE_VULKAN__OP_TYPE_BOOL: return 4;
    case GPUCOMPILE_VULKAN__OP_TYPE_INT:
    case GPUCOMPILE_VULKAN__OP_TYPE_FLOAT: return wc >= 3 ? i[2] / 8 : 0;
    case GPUCOMPILE_VULKAN__OP_TYPE_VECTOR:
    case GPUCOMPILE_VULKAN__OP_TYPE_MATRIX: return wc >= 4 ? gpucompile_vulkan__size(s, i[2], explicit_layout, depth + 1) * i[3] : 0;
    case GPUCOMPILE_VULKAN__OP_TYPE_ARRAY:
        if (wc < 4) return 0;
        e = explicit_layout && (s->ids[id].flags & GPUCOMPILE_VULKAN__F_STRIDE) ? s->ids[id].stride
                                                                               : gpucompile_vulkan__size(s, i[2], explicit_layout, depth + 1);
        return e * gpucompile_vulkan__const(s, i[3], 0);
    case GPUCOMPILE_VULKAN__OP_TYPE_STRUCT:
        for (k = 2; k < wc; k++) {
            uint64_t m = gpucompile_vulkan__size(s, i[k], explicit_layout, depth + 1), off = size;
            size_t j;
            if (explicit_layout)
                for (j = 0; j < s->num_members; j++)
                    if (s->members[j].type == id && s->members[j].member == k - 2 && (s->members[j].flags & 1u)) off = s->members[j].offset;
            if (explicit_layout ? off + m > size : 1) size = explicit_layout ? off + m : size + m;
        }
        return size;
    case GPUCOMPILE_VULKAN__OP_TYPE_POINTER: return 8;
    default: return 0;
    }
}

/* A walk over the words from the instruction at word at (5: the first). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__walk(const gpucompile_vulkan__spv *s, gpucompile_spirv_inst *it, size_t at) {
    gpucompile_spirv_begin(it, s->w, s->n * 4);
    it->at = at;
}

/* Marks the global variables that function fn and the functions it calls name. visited: per id. */
/* Whether word k of an instruction of opcode op in a function is a literal (not an id) among
   those LLVM 22 and the repairs write: a GLSL.std.450 instruction's number (NMax is 80, an id
   too), memory and image operand masks and their literals, composite indices, shuffle
   components, merge controls, a switch's case values, branch weights. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__literal(uint32_t op, size_t k) {
    switch (op) {
    case 12: return k == 4;                            /* OpExtInst: the set's instruction */
    case 61: return k >= 4;                            /* OpLoad: memory access */
    case 62: return k >= 3;                            /* OpStore */
    case 63: return k >= 3;                            /* OpCopyMemory */
    case 79: return k >= 5;                            /* OpVectorShuffle: components */
    case 81: return k >= 4;                            /* OpCompositeExtract: indices */
    case 82: return k >= 5;                            /* OpCompositeInsert */
    case 246: return k >= 3;                           /* OpLoopMerge: control */
    case 247: return k >= 2;                           /* OpSelectionMerge */
    case 250: return k >= 4;                           /* OpBranchConditional: weights */
    case 251: return k >= 3 && (k - 3) % 2 == 0;       /* OpSwitch: case values */
    case 99: return k == 4;                            /* OpImageWrite: the operands' mask */
    default: return (op >= 87 && op <= 98) && k == 5;  /* image samples, fetches, reads: the operands' mask */
    }
}

GPUCOMPILE_PRIVATE void gpucompile_vulkan__mark_uses(gpucompile_vulkan__spv *s, uint32_t fn, unsigned char *visited, int depth) {
    const uint32_t *f = gpucompile_vulkan__spv_def(s, fn, GPUCOMPILE_VULKAN__OP_FUNCTION, 5);
    gpucompile_spirv_inst it;
    if (!f || visited[fn] || depth > 64) return;
    visited[fn] = 1;
    for (gpucompile_vulkan__walk(s, &it, (size_t)(f - s->w)); gpucompile_spirv_next(&it);) {
        const uint32_t *i = s->w + it.at;
        size_t k;
        if (it.op == GPUCOMPILE_VULKAN__OP_FUNCTION_END) break;
        for (k = 1; k < it.wc; k++) {
            uint32_t v = i[k];
            const uint32_t *d = gpucompile_vulkan__literal(it.op, k) ? NULL : gpucompile_vulkan__spv_def(s, v, GPUCOMPILE_VULKAN__OP_VARIABLE, 4);
            if (d && d[3] != GPUCOMPILE_VULKAN__SC_FUNCTION) s->ids[v].used = 1;
        }
        if (it.op == GPUCOMPILE_VULKAN__OP_FUNCTION_CALL && it.wc >= 4) gpucompile_vulkan__mark_uses(s, i[3], visited, depth + 1);
    }
}

GPUCOMPILE_PRIVATE int gpucompile_vulkan__binding_less(const gpucompile_vulkan_binding *a, const gpucompile_vulkan_binding *b) {
    return a->set < b->set || (a->set == b->set && a->binding < b->binding);
}

/* b into k's bindings, sorted (32 at most), its parameter not known yet. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__add_binding(gpucompile_vulkan_kernel *k, gpucompile_vulkan_binding *b) {
    int q;
    if (k->num_bindings == 32) return;
    b->param = b->sampler_param = -1;
    q = k->num_bindings++;
    while (q > 0 && gpucompile_vulkan__binding_less(b, &k->bindings[q - 1])) {
        k->bindings[q] = k->bindings[q - 1];
        q--;
    }
    k->bindings[q] = *b;
}

/* One entry point (the OpEntryPoint at word e) into *k. */
/* The kernel's original parameters, from an OpModuleProcessed "gpucompile.params NAME T0 T1 ..."
   (written by gpucompile_vulkan_mark_params; see [section: lowering]): num_params stays
   0 without one, or when a token is malformed or names a binding or push-constant bytes the
   entry point does not have (the launch then takes the default convention). */
/* 1 when the module has k's parameter string (k from the pointer-kernel lowering), which fills k->params. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__params(const gpucompile_vulkan__spv *s, gpucompile_vulkan_kernel *k) {
    size_t nlen = strlen(k->name);
    gpucompile_spirv_inst it;
    for (gpucompile_vulkan__walk(s, &it, 5); gpucompile_spirv_next(&it);) {
        const char *t = (const char *)(s->w + it.at + 1), *end;
        size_t max = (it.wc - 1) * 4, len = 0;
        int n = 0, ok = 1;
        if (it.op != GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED || it.wc < 2) continue;
        while (len < max && t[len]) len++;
        if (len == max || len < 18 + nlen || memcmp(t, "gpucompile.params ", 18) != 0 || memcmp(t + 18, k->name, nlen) != 0 ||
            (t[18 + nlen] != ' ' && t[18 + nlen] != 0))
            continue;
        end = t + len;
        t += 18 + nlen;
        while (ok && t < end) {
            gpucompile_vulkan_param p;
            unsigned long a = 0, b = 0;
            char *e;
            int j;
            while (t < end && *t == ' ') t++;
            if (t == end) break;
            memset(&p, 0, sizeof p);
            if (*t == '-' || *t == 's') {
                p.kind = *t == 's' ? GPUCOMPILE_VULKAN_PARAM_SAMPLER : GPUCOMPILE_VULKAN_PARAM_UNUSED;
                t++;
            } else if (*t == 'i') { /* an image's bindings: B, B:sJ (through sampler parameter J), B:kC (constant sampler C), joined by +;
                                       then @O, its channel word's push-constant offset (alone: no binding) */
                p.kind = GPUCOMPILE_VULKAN_PARAM_IMAGE;
                int first = 1;
                if (t[1] == '@') t++;
                else do {
                    gpucompile_vulkan_binding *b = NULL;
                    a = strtoul(t + 1, &e, 10);
                    if (e == t + 1) ok = 0;
                    for (j = 0; ok && j < k->num_bindings; j++)
                        if (k->bindings[j].set == 0 && k->bindings[j].binding == a && k->bindings[j].descriptor_type <= 3) b = &k->bindings[j];
                    if (!b) ok = 0;
                    if (ok && first) p.value = (uint32_t)a;
                    if (ok) b->param = n;
                    first = 0;
                    t = e;
                    if (ok && *t == ':' && (t[1] == 's' || t[1] == 'k')) {
                        b->sampler_bits = (uint32_t)strtoul(t + 2, &e, 10);
                        b->sampler_param = t[1] == 's' ? (int32_t)b->sampler_bits : -1;
                        if (e == t + 2) ok = 0;
                        t = e;
                    }
                } while (ok && *t == '+');
                if (ok && *t == '@') {
                    p.push = (uint32_t)strtoul(t + 1, &e, 10);
                    p.size = first ? 20 : 4;
                    ok = e != t + 1 && (uint64_t)p.push + p.size <= k->push_size;
                    t = e;
                }
            } else if (*t == 'b' || *t == 'l' || *t == 'p') {
                char c = *t;
                a = strtoul(t + 1, &e, 10);
                if (e == t + 1) ok = 0;
                t = e;
                if (ok && c == 'p') {
                    if (*t != ':' || (b = strtoul(t + 1, &e, 10), e == t + 1)) ok = 0;
                    else t = e;
                }
                p.kind = c == 'b' ? GPUCOMPILE_VULKAN_PARAM_BINDING : c == 'p' ? GPUCOMPILE_VULKAN_PARAM_PUSH : GPUCOMPILE_VULKAN_PARAM_LOCAL;
                p.value = a > 0xffffffffu ? 0xffffffffu : (uint32_t)a;
                p.size = b > 0xffffffffu ? 0xffffffffu : (uint32_t)b;
            } else
                ok = 0;
            if (ok && t < end && *t != ' ') ok = 0;
            if (ok && p.kind == GPUCOMPILE_VULKAN_PARAM_BINDING) { /* a binding this entry point has */
                for (j = 0; j < k->num_bindings; j++)
                    if (k->bindings[j].set == 0 && k->bindings[j].binding == p.value) break;
                ok = j < k->num_bindings;
                if (ok) k->bindings[j].param = n;
            }
            if (ok && p.kind == GPUCOMPILE_VULKAN_PARAM_PUSH) ok = (uint64_t)p.value + p.size <= k->push_size && p.size > 0;
            if (ok && n == GPUCOMPILE_VULKAN_MAX_PARAMS) ok = 0;
            if (ok) k->params[n++] = p;
        }
        k->num_params = ok ? n : 0;
        return 1;
    }
    return 0;
}

/* The sub-group size k needs, from an OpModuleProcessed "gpucompile.subgroup_size NAME N" (the
   lowering's GPUCOMPILE_LOWER_SUBGROUP_SIZE: a kernel with CUDA's warp functions); 0 without one. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_vulkan__subgroup_size(const gpucompile_vulkan__spv *s, const gpucompile_vulkan_kernel *k) {
    static const char mark[] = "gpucompile.subgroup_size ";
    size_t nlen = strlen(k->name), pl = sizeof mark - 1;
    gpucompile_spirv_inst it;
    for (gpucompile_vulkan__walk(s, &it, 5); gpucompile_spirv_next(&it);) {
        const char *t = (const char *)(s->w + it.at + 1);
        size_t max = (it.wc - 1) * 4, len = 0;
        unsigned long n = 0;
        size_t i;
        if (it.op != GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED || it.wc < 2) continue;
        while (len < max && t[len]) len++;
        if (len == max || len < pl + nlen + 2 || memcmp(t, mark, pl) != 0 || memcmp(t + pl, k->name, nlen) != 0 || t[pl + nlen] != ' ') continue;
        for (i = pl + nlen + 1; i < len && t[i] >= '0' && t[i] <= '9' && n <= 128; i++) n = n * 10 + (unsigned long)(t[i] - '0');
        if (i == len && n && n <= 128 && !(n & (n - 1))) return (uint32_t)n;
    }
    return 0;
}

/* id, when it is a 32-bit OpSpecConstant with a SpecId not yet listed, as one of k's sizes set at launch. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__launch_value(const gpucompile_vulkan__spv *s, gpucompile_vulkan_kernel *k, uint32_t id, uint32_t kind, uint32_t arg) {
    const uint32_t *c = id ? gpucompile_vulkan__spv_def(s, id, GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT, 4) : NULL;
    const uint32_t *t = c ? gpucompile_vulkan__spv_def(s, c[1], GPUCOMPILE_VULKAN__OP_TYPE_INT, 3) : NULL;
    int i;
    if (!t || t[2] != 32 || !(s->ids[id].flags & GPUCOMPILE_VULKAN__F_SPEC_ID) || k->num_launch == GPUCOMPILE_VULKAN_MAX_LAUNCH) return;
    for (i = 0; i < k->num_launch; i++)
        if (k->launch[i].spec_id == s->ids[id].spec_id) return;
    k->launch[k->num_launch].kind = kind;
    k->launch[k->num_launch].spec_id = s->ids[id].spec_id;
    k->launch[k->num_launch].arg = arg;
    k->launch[k->num_launch++].value = c[3];
}

GPUCOMPILE_PRIVATE void gpucompile_vulkan__entry(gpucompile_vulkan__spv *s, size_t e, unsigned char *visited, gpucompile_vulkan_kernel *k) {
    const uint32_t *ep = s->w + e;
    uint32_t wc = gpucompile_spirv_count(ep[0]), fn = ep[2], name_words = 0, id, j, size_ids[3] = {0, 0, 0};
    gpucompile_spirv_inst it;
    int pc_done = 0;
    memset(k, 0, sizeof *k);
    { /* the name: a NUL-terminated literal inside the instruction */
        const char *name = (const char *)(ep + 3);
        size_t max = (size_t)(wc - 3) * 4, len = 0;
        while (len < max && name[len]) len++;
        memcpy(k->name, name, len < sizeof k->name ? len : sizeof k->name - 1);
        name_words = (uint32_t)(len / 4 + 1);
    }
    for (gpucompile_vulkan__walk(s, &it, 5); gpucompile_spirv_next(&it);) { /* LocalSize, LocalSizeId */
        const uint32_t *i = s->w + it.at;
        uint32_t op = it.op, iwc = (uint32_t)it.wc;
        if ((op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE || op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE_ID) && iwc >= 6 && i[1] == fn) {
            for (j = 0; j < 3; j++) {
                if (op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE && i[2] == GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE) k->local_size[j] = i[3 + j];
                if (op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE_ID && i[2] == GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE_ID) {
                    k->local_size[j] = gpucompile_vulkan__const(s, i[3 + j], 0);
                    size_ids[j] = i[3 + j];
                }
            }
        }
    }
    if (s->wg_size_id) {
        const uint32_t *c = gpucompile_vulkan__spv_def(s, s->wg_size_id, 0, 6);
        if (c && (gpucompile_spirv_opcode(c[0]) == GPUCOMPILE_VULKAN__OP_CONSTANT_COMPOSITE || gpucompile_spirv_opcode(c[0]) == GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT_COMPOSITE))
            for (j = 0; j < 3; j++) {
                k->local_size[j] = gpucompile_vulkan__const(s, c[3 + j], k->local_size[j]);
                size_ids[j] = c[3 + j];
            }
    }
    for (j = 0; j < 3; j++) gpucompile_vulkan__launch_value(s, k, size_ids[j], GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE, j);
    /* the global variables it uses: those its functions name (static use, as Vulkan's layout
       rules count it; glslang lists unused ones in SPIR-V 1.4+ interfaces), and from 1.4 on
       only those the interface lists too (a literal operand that equals a variable's id is not
       a use) */
    for (id = 0; id < s->cap; id++) s->ids[id].used = 0;
    memset(visited, 0, s->cap);
    gpucompile_vulkan__mark_uses(s, fn, visited, 0);
    if (s->w[1] >= 0x00010400u) {
        for (j = 3 + name_words; j < wc; j++)
            if (ep[j] < s->cap && s->ids[ep[j]].used == 1) s->ids[ep[j]].used = 2;
        for (id = 0; id < s->cap; id++) s->ids[id].used = s->ids[id].used == 2;
    }
    for (id = 1; id < s->cap; id++) {
        const uint32_t *v = s->ids[id].used ? gpucompile_vulkan__spv_def(s, id, GPUCOMPILE_VULKAN__OP_VARIABLE, 4) : NULL;
        const uint32_t *p = v ? gpucompile_vulkan__spv_def(s, v[1], GPUCOMPILE_VULKAN__OP_TYPE_POINTER, 4) : NULL;
        uint32_t sc, type;
        if (!p) continue;
        sc = v[3];
        type = p[3];
        if ((sc == GPUCOMPILE_VULKAN__SC_STORAGE_BUFFER || sc == GPUCOMPILE_VULKAN__SC_UNIFORM) &&
            (s->ids[id].flags & (GPUCOMPILE_VULKAN__F_SET | GPUCOMPILE_VULKAN__F_BINDING))) {
            gpucompile_vulkan_binding b;
            const uint32_t *t = gpucompile_vulkan__spv_def(s, type, 0, 2), *last;
            uint32_t count = 1, members, m, nonwritable = 0;
            memset(&b, 0, sizeof b);
            if (t && gpucompile_spirv_opcode(t[0]) == GPUCOMPILE_VULKAN__OP_TYPE_ARRAY && gpucompile_spirv_count(t[0]) >= 4) { /* an array of blocks */
                count = gpucompile_vulkan__const(s, t[3], 0);
                type = t[2];
            } else if (t && gpucompile_spirv_opcode(t[0]) == GPUCOMPILE_VULKAN__OP_TYPE_RUNTIME_ARRAY && gpucompile_spirv_count(t[0]) >= 3) {
                count = 0;
                type = t[2];
            }
            t = gpucompile_vulkan__spv_def(s, type, GPUCOMPILE_VULKAN__OP_TYPE_STRUCT, 2);
            b.set = s->ids[id].set;
            b.binding = s->ids[id].binding;
            b.count = count;
            b.descriptor_type = sc == GPUCOMPILE_VULKAN__SC_UNIFORM && !(t && (s->ids[type].flags & GPUCOMPILE_VULKAN__F_BUFFER_BLOCK)) ? 6 : 7;
            members = t ? gpucompile_spirv_count(t[0]) - 2 : 0;
            if (members) {
                last = gpucompile_vulkan__spv_def(s, t[1 + members], 0, 3);
                if (last && (gpucompile_spirv_opcode(last[0]) == GPUCOMPILE_VULKAN__OP_TYPE_ARRAY || gpucompile_spirv_opcode(last[0]) == GPUCOMPILE_VULKAN__OP_TYPE_RUNTIME_ARRAY) &&
                    (s->ids[t[1 + members]].flags & GPUCOMPILE_VULKAN__F_STRIDE))
                    b.stride = s->ids[t[1 + members]].stride;
                for (m = 0; m < members; m++) {
                    size_t q;
                    for (q = 0; q < s->num_members; q++)
                        if (s->members[q].type == type && s->members[q].member == m && (s->members[q].flags & 2u)) break;
                    nonwritable += q < s->num_members;
                }
            }
            b.read_only = (s->ids[id].flags & GPUCOMPILE_VULKAN__F_NON_WRITABLE) || (members && nonwritable == members) || b.descriptor_type == 6;
            gpucompile_vulkan__add_binding(k, &b);
        } else if (sc == GPUCOMPILE_VULKAN__SC_UNIFORM_CONSTANT && (s->ids[id].flags & (GPUCOMPILE_VULKAN__F_SET | GPUCOMPILE_VULKAN__F_BINDING))) {
            const uint32_t *t = gpucompile_vulkan__spv_def(s, type, 0, 2), *im = t;
            gpucompile_vulkan_binding b;
            memset(&b, 0, sizeof b);
            if (t && gpucompile_spirv_opcode(t[0]) == GPUCOMPILE_VULKAN__OP_TYPE_SAMPLED_IMAGE && gpucompile_spirv_count(t[0]) >= 3)
                im = gpucompile_vulkan__spv_def(s, t[2], GPUCOMPILE_VULKAN__OP_TYPE_IMAGE, 9);
            else if (!t || (gpucompile_spirv_opcode(t[0]) != GPUCOMPILE_VULKAN__OP_TYPE_IMAGE && gpucompile_spirv_opcode(t[0]) != GPUCOMPILE_VULKAN__OP_TYPE_SAMPLER))
                continue; /* an array of them: not yet */
            if (im && gpucompile_spirv_opcode(im[0]) == GPUCOMPILE_VULKAN__OP_TYPE_IMAGE && gpucompile_spirv_count(im[0]) >= 9) {
                const uint32_t *st = gpucompile_vulkan__spv_def(s, im[2], 0, 2);
                b.dim = im[3];
                b.arrayed = im[5];
                b.format = im[8];
                b.integer = st && gpucompile_spirv_opcode(st[0]) == GPUCOMPILE_VULKAN__OP_TYPE_INT;
            }
            b.set = s->ids[id].set;
            b.binding = s->ids[id].binding;
            b.count = 1;
            b.descriptor_type = gpucompile_spirv_opcode(t[0]) == GPUCOMPILE_VULKAN__OP_TYPE_SAMPLER ? 0 : gpucompile_spirv_opcode(t[0]) == GPUCOMPILE_VULKAN__OP_TYPE_SAMPLED_IMAGE ? 1
                                : im[7] == 2 ? 3 : 2;
            b.read_only = b.descriptor_type != 3 || (s->ids[id].flags & GPUCOMPILE_VULKAN__F_NON_WRITABLE);
            gpucompile_vulkan__add_binding(k, &b);
        } else if (sc == GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT && !pc_done) {
            const uint32_t *t = gpucompile_vulkan__spv_def(s, type, GPUCOMPILE_VULKAN__OP_TYPE_STRUCT, 2);
            uint32_t members = t ? gpucompile_spirv_count(t[0]) - 2 : 0, m;
            pc_done = 1;
            for (m = 0; m < members; m++) {
                gpucompile_vulkan_push_field f;
                size_t q;
                int at_q;
                f.offset = 0;
                for (q = 0; q < s->num_members; q++)
                    if (s->members[q].type == type && s->members[q].member == m && (s->members[q].flags & 1u)) f.offset = s->members[q].offset;
                {
                    uint64_t sz = gpucompile_vulkan__size(s, t[2 + m], 1, 0);
                    f.size = sz > 0xffffffffu ? 0xffffffffu : (uint32_t)sz;
                }
                if ((uint64_t)f.offset + f.size > k->push_size) {
                    uint64_t end = (uint64_t)f.offset + f.size;
                    k->push_size = end > 0xffffffffu ? 0xffffffffu : (uint32_t)end;
                }
                if (k->num_push >= 32) continue;
                at_q = k->num_push++;
                while (at_q > 0 && k->push[at_q - 1].offset > f.offset) {
                    k->push[at_q] = k->push[at_q - 1];
                    at_q--;
                }
                k->push[at_q] = f;
            }
        } else if (sc == GPUCOMPILE_VULKAN__SC_WORKGROUP) {
            uint64_t sz = k->workgroup_bytes + gpucompile_vulkan__size(s, type, 0, 0);
            const uint32_t *a = gpucompile_vulkan__spv_def(s, type, GPUCOMPILE_VULKAN__OP_TYPE_ARRAY, 4);
            k->workgroup_bytes = sz > 0xffffffffu ? 0xffffffffu : (uint32_t)sz;
            if (a) { /* a length set at launch */
                uint64_t es = gpucompile_vulkan__size(s, a[2], 0, 0);
                if (es && es <= 0xffffffffu) gpucompile_vulkan__launch_value(s, k, a[3], GPUCOMPILE_VULKAN_LAUNCH_SHARED, (uint32_t)es);
            }
        }
    }
    k->subgroup_size = gpucompile_vulkan__subgroup_size(s, k);
    if (gpucompile_vulkan__params(s, k)) /* the lowering's other launch values */
        for (id = 1; id < s->cap; id++) {
            uint32_t sid = s->ids[id].spec_id - GPUCOMPILE_VULKAN_SPEC_LAUNCH;
            if (!(s->ids[id].flags & GPUCOMPILE_VULKAN__F_SPEC_ID) || s->ids[id].spec_id < GPUCOMPILE_VULKAN_SPEC_LAUNCH || sid >= 7) continue;
            gpucompile_vulkan__launch_value(s, k, id, sid == 0 ? GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM : sid < 4 ? GPUCOMPILE_VULKAN_LAUNCH_OFFSET : GPUCOMPILE_VULKAN_LAUNCH_GROUPS,
                                            sid == 0 ? 0 : (sid - 1) % 3);
        }
}

#define GPUCOMPILE_VULKAN__UNIFORMS "gpucompile.uniforms " /* OpModuleProcessed: SET BINDING of the scalars' uniform block */

/* The (set, binding) an OpModuleProcessed "gpucompile.uniforms SET BINDING" names in the words
   w[0..n) (host order): 1, or 0 without one. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__uniform_mark(const uint32_t *w, size_t n, uint32_t *set, uint32_t *binding) {
    size_t at;
    for (at = 5; at < n && (w[at] >> 16);) {
        uint32_t wc = w[at] >> 16;
        if (wc > n - at) return 0;
        if ((w[at] & 0xffffu) == GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED && wc >= 2) {
            const char *t = (const char *)(w + at + 1);
            size_t max = (size_t)(wc - 1) * 4, len = 0, pl = strlen(GPUCOMPILE_VULKAN__UNIFORMS);
            unsigned long a, b;
            char buf[64], *e, *f;
            while (len < max && t[len]) len++;
            if (len < max && len > pl && len < sizeof buf && memcmp(t, GPUCOMPILE_VULKAN__UNIFORMS, pl) == 0) {
                memcpy(buf, t, len + 1);
                a = strtoul(buf + pl, &e, 10);
                if (e != buf + pl && *e == ' ' && (b = strtoul(e + 1, &f, 10), f != e + 1) && *f == 0 && a < 64 && b < 0x10000u) {
                    *set = (uint32_t)a;
                    *binding = (uint32_t)b;
                    return 1;
                }
            }
        }
        at += wc;
    }
    return 0;
}

/* The push-constant block made a uniform buffer (set 0, the binding after the module's last),
   named by OpModuleProcessed "gpucompile.uniforms 0 BINDING" (read back by the reflection):
   the words w[0..n) (host order) with PushConstant pointers and the block's variable in the
   Uniform storage class, StoragePushConstant8/16 dropped, into *out (malloc'd, *out_n words);
   *binding its binding, -1 (the words as they are) without a block. The block's layout stays (a
   struct of 32-bit words, as the lowering makes it, is laid out alike in both). Its size has no
   128-byte minimum limit there: every Vulkan device's maxUniformBufferRange is at least 16384
   bytes, WebGPU's maxUniformBufferBindingSize 65536. 0; -1 for words that are no module, -2
   where the module has a uniform buffer of the block's type (the reflection could not tell the
   two apart), -3 out of memory. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__uniform_block(const uint32_t *w, size_t n, uint32_t **out, size_t *out_n, int *binding) {
    size_t at, first_annotation = 0, bat, o = 0;
    uint32_t pc = 0, max_binding = 0, any_binding = 0, *d;
    *binding = -1;
    *out = NULL;
    *out_n = 0;
    if (n < 5) return -1;
    for (at = 5; at < n; at += w[at] >> 16) { /* the block's variable, the bindings */
        uint32_t op = w[at] & 0xffffu, wc = w[at] >> 16;
        if (!wc || wc > n - at) return -1;
        if (op == GPUCOMPILE_VULKAN__OP_VARIABLE && wc >= 4 && w[at + 3] == GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT) pc = w[at + 2];
        if ((op == GPUCOMPILE_VULKAN__OP_DECORATE || op == GPUCOMPILE_VULKAN__OP_MEMBER_DECORATE) && !first_annotation) first_annotation = at;
        if (op == GPUCOMPILE_VULKAN__OP_DECORATE && wc >= 4 && w[at + 2] == GPUCOMPILE_VULKAN__DEC_BINDING) {
            any_binding = 1;
            if (w[at + 3] > max_binding) max_binding = w[at + 3];
        }
    }
    for (at = 5; pc && at < n; at += w[at] >> 16) /* a Uniform pointer to the block's type */
        if ((w[at] & 0xffffu) == GPUCOMPILE_VULKAN__OP_TYPE_POINTER && (w[at] >> 16) >= 4 && w[at + 2] == GPUCOMPILE_VULKAN__SC_UNIFORM)
            for (bat = 5; bat < n; bat += w[bat] >> 16)
                if ((w[bat] & 0xffffu) == GPUCOMPILE_VULKAN__OP_TYPE_POINTER && (w[bat] >> 16) >= 4 && w[bat + 2] == GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT &&
                    w[bat + 3] == w[at + 3])
                    return -2;
    if (!(d = (uint32_t *)malloc((n + 32) * 4))) return -3;
    *out = d;
    memcpy(d, w, (pc ? 5 : n) * 4);
    *out_n = pc ? 5 : n;
    if (!pc) return 0;
    *binding = (int)(any_binding ? max_binding + 1 : 0);
    if (!first_annotation) first_annotation = n;
    for (o = 5, at = 5; at <= n; at += at < n ? w[at] >> 16 : 1) {
        uint32_t op = at < n ? w[at] & 0xffffu : 0, wc = at < n ? w[at] >> 16 : 0;
        if (at == first_annotation) { /* the mark (the debug section's last), then the variable's set and binding */
            char text[64];
            size_t len = (size_t)snprintf(text, sizeof text, "%s0 %d", GPUCOMPILE_VULKAN__UNIFORMS, *binding), words = len / 4 + 1;
            d[o] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED, (uint32_t)(1 + words));
            memset(d + o + 1, 0, words * 4);
            memcpy(d + o + 1, text, len);
            o += 1 + words;
            d[o] = d[o + 4] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_DECORATE, 4);
            d[o + 1] = d[o + 5] = pc;
            d[o + 2] = GPUCOMPILE_VULKAN__DEC_SET;
            d[o + 3] = 0;
            d[o + 6] = GPUCOMPILE_VULKAN__DEC_BINDING;
            d[o + 7] = (uint32_t)*binding;
            o += 8;
        }
        if (at == n) break;
        if (op == GPUCOMPILE_VULKAN__OP_CAPABILITY && wc == 2 && (w[at + 1] == 4435 || w[at + 1] == 4450)) continue; /* StoragePushConstant16/8 */
        memcpy(d + o, w + at, (size_t)wc * 4);
        if (op == GPUCOMPILE_VULKAN__OP_TYPE_POINTER && wc >= 4 && w[at + 2] == GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT) d[o + 2] = GPUCOMPILE_VULKAN__SC_UNIFORM;
        if (op == GPUCOMPILE_VULKAN__OP_VARIABLE && wc >= 4 && w[at + 3] == GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT) d[o + 3] = GPUCOMPILE_VULKAN__SC_UNIFORM;
        o += wc;
    }
    *out_n = o;
    return 0;
}

GPUCOMPILE_PRIVATE int gpucompile_vulkan__reflect(const void *spirv, size_t size, gpucompile_vulkan_kernel *out, int max) {
    gpucompile_vulkan__spv s;
    uint32_t uset = 0, ubinding = 0, uvar = 0;
    gpucompile_spirv_inst it;
    unsigned char *visited = NULL;
    size_t i, members_cap = 0;
    int found = -1;
    memset(&s, 0, sizeof s);
    if (size % 4 || !gpucompile_spirv_begin(&it, spirv, size)) return -1;
    s.n = size / 4;
    if (!(s.w = (uint32_t *)malloc(size))) return -1;
    for (i = 0; i < s.n; i++) s.w[i] = gpucompile_spirv_word(&it, i); /* in host order */
    /* ids are tracked below the bound, capped by what the words could define (a hostile bound
       must not cost memory; tools write compact ids) */
    s.cap = 4u * (uint32_t)(s.n < 0x3fffffu ? s.n : 0x3fffffu) + 64;
    if (s.w[3] < s.cap) s.cap = s.w[3];
    if (!(s.ids = (gpucompile_vulkan__id *)calloc(s.cap ? s.cap : 1, sizeof *s.ids)) || !(visited = (unsigned char *)calloc(s.cap ? s.cap : 1, 1)))
        goto done;
    for (gpucompile_vulkan__walk(&s, &it, 5); gpucompile_spirv_next(&it);) { /* definitions and decorations */
        const uint32_t *w = s.w + it.at;
        uint32_t op = it.op, wc = (uint32_t)it.wc, at = (uint32_t)it.at;
        if ((op >= GPUCOMPILE_VULKAN__OP_TYPE_BOOL && op <= GPUCOMPILE_VULKAN__OP_TYPE_POINTER) && wc >= 2 && w[1] < s.cap) {
            s.ids[w[1]].def = (uint32_t)at;
        } else if ((op == GPUCOMPILE_VULKAN__OP_CONSTANT || op == GPUCOMPILE_VULKAN__OP_CONSTANT_COMPOSITE || op == GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT ||
                    op == GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT_COMPOSITE || op == GPUCOMPILE_VULKAN__OP_VARIABLE) && wc >= 3 && w[2] < s.cap) {
            s.ids[w[2]].def = (uint32_t)at;
        } else if (op == GPUCOMPILE_VULKAN__OP_FUNCTION && wc >= 5 && w[2] < s.cap) {
            s.ids[w[2]].def = (uint32_t)at;
        } else if (op == GPUCOMPILE_VULKAN__OP_DECORATE && wc >= 3 && w[1] < s.cap) {
            gpucompile_vulkan__id *d = &s.ids[w[1]];
            switch (w[2]) {
            case GPUCOMPILE_VULKAN__DEC_BLOCK: d->flags |= GPUCOMPILE_VULKAN__F_BLOCK; break;
            case GPUCOMPILE_VULKAN__DEC_BUFFER_BLOCK: d->flags |= GPUCOMPILE_VULKAN__F_BUFFER_BLOCK; break;
            case GPUCOMPILE_VULKAN__DEC_NON_WRITABLE: d->flags |= GPUCOMPILE_VULKAN__F_NON_WRITABLE; break;
            case GPUCOMPILE_VULKAN__DEC_SET: if (wc >= 4) { d->flags |= GPUCOMPILE_VULKAN__F_SET; d->set = w[3]; } break;
            case GPUCOMPILE_VULKAN__DEC_BINDING: if (wc >= 4) { d->flags |= GPUCOMPILE_VULKAN__F_BINDING; d->binding = w[3]; } break;
            case GPUCOMPILE_VULKAN__DEC_ARRAY_STRIDE: if (wc >= 4) { d->flags |= GPUCOMPILE_VULKAN__F_STRIDE; d->stride = w[3]; } break;
            case GPUCOMPILE_VULKAN__DEC_BUILTIN: if (wc >= 4 && w[3] == GPUCOMPILE_VULKAN__BUILTIN_WORKGROUP_SIZE) s.wg_size_id = w[1]; break;
            case GPUCOMPILE_VULKAN__DEC_SPEC_ID: if (wc >= 4) { d->flags |= GPUCOMPILE_VULKAN__F_SPEC_ID; d->spec_id = w[3]; } break;
            default: break;
            }
        } else if (op == GPUCOMPILE_VULKAN__OP_MEMBER_DECORATE && wc >= 4 &&
                   (w[3] == GPUCOMPILE_VULKAN__DEC_NON_WRITABLE || (w[3] == GPUCOMPILE_VULKAN__DEC_OFFSET && wc >= 5))) {
            if (s.num_members == members_cap) {
                size_t nc = members_cap ? 2 * members_cap : 64;
                gpucompile_vulkan__member *m = (gpucompile_vulkan__member *)realloc(s.members, nc * sizeof *m);
                if (!m) goto done;
                s.members = m;
                members_cap = nc;
            }
            s.members[s.num_members].type = w[1];
            s.members[s.num_members].member = w[2];
            s.members[s.num_members].offset = w[3] == GPUCOMPILE_VULKAN__DEC_OFFSET ? w[4] : 0;
            s.members[s.num_members].flags = w[3] == GPUCOMPILE_VULKAN__DEC_OFFSET ? 1u : 2u;
            s.num_members++;
        }
    }
    if (it.bad) goto done; /* every instruction fits */
    if (gpucompile_vulkan__uniform_mark(s.w, s.n, &uset, &ubinding)) /* the scalars' uniform block: read as the push-constant block */
        for (i = 1; i < s.cap && !uvar; i++) {
            const uint32_t *v = gpucompile_vulkan__spv_def(&s, (uint32_t)i, GPUCOMPILE_VULKAN__OP_VARIABLE, 4);
            if (v && v[3] == GPUCOMPILE_VULKAN__SC_UNIFORM && (s.ids[i].flags & GPUCOMPILE_VULKAN__F_SET) && (s.ids[i].flags & GPUCOMPILE_VULKAN__F_BINDING) &&
                s.ids[i].set == uset && s.ids[i].binding == ubinding) {
                uvar = (uint32_t)i;
                s.w[s.ids[i].def + 3] = GPUCOMPILE_VULKAN__SC_PUSH_CONSTANT;
            }
        }
    found = 0;
    for (gpucompile_vulkan__walk(&s, &it, 5); gpucompile_spirv_next(&it);) {
        const uint32_t *w = s.w + it.at;
        if (it.op != GPUCOMPILE_VULKAN__OP_ENTRY_POINT || it.wc < 4 || w[1] != GPUCOMPILE_VULKAN__MODEL_GLCOMPUTE) continue;
        if (out && found < max) {
            gpucompile_vulkan_kernel *k = &out[found];
            gpucompile_vulkan__entry(&s, it.at, visited, k);
            k->has_uniforms = uvar && k->push_size > 0;
            k->uniform_set = k->has_uniforms ? uset : 0;
            k->uniform_binding = k->has_uniforms ? ubinding : 0;
        }
        found++;
    }
done:
    free(s.w);
    free(s.ids);
    free(s.members);
    free(visited);
    return found;
}

/* Each entry point's interface only the global variables its function and the functions it
   calls use: LLVM 22 lists every variable of the module in every entry point, so each kernel
   would name the others' buffers, push-constant block and built-ins (a driver may count them; a
   reader of the interface sees them). In place on the words w[0..*n) (host order), *n the count
   after; 0, or -1 (malformed, out of memory: unchanged). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__own_interfaces(uint32_t *w, size_t *n) {
    gpucompile_vulkan__spv s;
    gpucompile_spirv_inst it;
    unsigned char *visited = NULL;
    size_t out = 5;
    int r = -1;
    memset(&s, 0, sizeof s);
    if (*n < 5 || !gpucompile_spirv_begin(&it, w, *n * 4)) return -1;
    s.w = w;
    s.n = *n;
    s.cap = w[3] < 4u * (uint32_t)(*n < 0x3fffffu ? *n : 0x3fffffu) + 64 ? w[3] : 4u * (uint32_t)(*n < 0x3fffffu ? *n : 0x3fffffu) + 64;
    if (!(s.ids = (gpucompile_vulkan__id *)calloc(s.cap ? s.cap : 1, sizeof *s.ids)) || !(visited = (unsigned char *)calloc(s.cap ? s.cap : 1, 1)))
        goto done;
    for (gpucompile_vulkan__walk(&s, &it, 5); gpucompile_spirv_next(&it);) /* what mark_uses looks up: functions, variables */
        if (((it.op == GPUCOMPILE_VULKAN__OP_FUNCTION && it.wc >= 5) || (it.op == GPUCOMPILE_VULKAN__OP_VARIABLE && it.wc >= 4)) && w[it.at + 2] < s.cap)
            s.ids[w[it.at + 2]].def = (uint32_t)it.at;
    if (it.bad) goto done;
    for (gpucompile_vulkan__walk(&s, &it, 5); gpucompile_spirv_next(&it);) {
        const uint32_t *i = w + it.at;
        size_t wc = it.wc, k, name = 3, kept;
        if (it.op != GPUCOMPILE_VULKAN__OP_ENTRY_POINT || wc < 4) { /* moved down over what went */
            memmove(w + out, i, wc * 4);
            out += wc;
            continue;
        }
        while (name < wc && (i[name] >> 24)) name++; /* the name's last word (its NUL in the top byte or before) */
        memset(visited, 0, s.cap);
        for (k = 0; k < s.cap; k++) s.ids[k].used = 0;
        gpucompile_vulkan__mark_uses(&s, i[2], visited, 0);
        memmove(w + out, i, (name + 1 < wc ? name + 1 : wc) * 4);
        for (kept = name + 1, k = name + 1; k < wc; k++)
            if (i[k] < s.cap && s.ids[i[k]].used) w[out + kept++] = i[k];
        w[out] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_ENTRY_POINT, (uint32_t)kept);
        out += kept;
    }
    *n = out;
    r = 0;
done:
    free(s.ids);
    free(visited);
    return r;
}

/* Run-time selection, the one rule of the backend's select_score (gpucompile_binary_select,
   --select vulkan) and of the runtime's loader: the device "vulkan" takes a SPIR-V module
   (format bin) for Vulkan: a SPIR-V triple whose environment names Vulkan
   (spirv1.6-unknown-vulkan1.3-compute), never an OpenCL one (spirv64-unknown-unknown) nor another
   architecture's; -2 for another device. An object without a triple must say vulkan in its chip. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__score(const char *triple, const char *chip, const char *format, const char *features,
                                                const char *device, const char **why) {
    (void)features;
    if (strcmp(device, "vulkan") != 0) return -2;
    if (!format || strcmp(format, "bin") != 0) return -1;
    if (chip && strcmp(chip, "webgpu") == 0) return -1; /* gpucompile_webgpu.h's objects: scalars in a uniform block, not push constants */
    if (!triple || !*triple) {
        if (!chip || !strstr(chip, "vulkan")) return -1;
    } else if (strncmp(triple, "spirv", 5) != 0 || !strchr(triple, '-') || !strstr(strchr(triple, '-'), "vulkan")) {
        return -1;
    }
    *why = "SPIR-V module for Vulkan";
    return 1;
}

#if defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION) || (defined(GPUCOMPILE_VULKAN_RUNTIME) && !defined(GPUCOMPILE_H))
GPUCOMPILE_VULKAN__API int gpucompile_vulkan_reflect(const void *spirv, size_t size, gpucompile_vulkan_kernel *out, int max) {
    return gpucompile_vulkan__reflect(spirv, size, out, max);
}
#endif
#ifdef __cplusplus
}
#endif
#endif /* reflection */

/* ==== [section: backend] ================================================================= */

#if defined(GPUCOMPILE_VULKAN_IMPLEMENTATION) && !defined(GPUCOMPILE_H)
#error "gpucompile_vulkan.h: the backend needs gpucompile.h included first (GPUCOMPILE_VULKAN_RUNTIME alone needs neither)"
#endif

#if defined(GPUCOMPILE_H) && (defined(GPUCOMPILE_IMPLEMENTATION) || defined(GPUCOMPILE_VULKAN_IMPLEMENTATION)) && \
    !defined(GPUCOMPILE_VULKAN_IMPLEMENTED)
#define GPUCOMPILE_VULKAN_IMPLEMENTED
#define GPUCOMPILE_BACKEND_IMPLEMENTATION /* the backend helpers of gpucompile_runtime.h, also without the core */
#include "gpucompile_runtime.h"
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Transforms/PassBuilder.h> /* LLVMRunPasses: structured control flow (pre_emit) */
#include <stdarg.h>
#ifdef __cplusplus
extern "C" {
#endif

/* The function LLVM 22's SPIR-V code generator makes an OpSpecConstant decorated SpecId of
   (__spirv_SpecConstant(int id, int default), as the SPIR-V translator's builtins name it). */
#define GPUCOMPILE_VULKAN__SPEC_CONSTANT "_Z20__spirv_SpecConstantii"
#define GPUCOMPILE_VULKAN__INDEX_BITS "gpucompile.vulkan.index_bits" /* named metadata: the input was spirv32 (gpucompile_vulkan__configure) */

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
    "SPV_EXT_shader_atomic_float_add,ImageQuery,Image1D,Sampled1D,StorageImageReadWithoutFormat,StorageImageWriteWithoutFormat"
/* What chip = "android" allows: Khronos' Android baseline profile (VP_ANDROID_baseline_2021),
   what every Android device of 2021 on has: no 64-, 16- or 8-bit integers, no half or double, no
   8- or 16-bit storage; its limits: GPUCOMPILE_VULKAN__ANDROID_SHARED bytes of workgroup memory,
   128 bytes of push constants (gpucompile_vulkan__profile_limits). */
#define GPUCOMPILE_VULKAN__ANDROID_SET "Shader,Matrix,GroupNonUniform,SPV_KHR_storage_buffer_storage_class,ImageQuery,Image1D,Sampled1D"
#define GPUCOMPILE_VULKAN__ANDROID_SHARED 16384
#define GPUCOMPILE_VULKAN__ANDROID_PUSH 128
/* What a capability brings along (a module declares both; a target lists the first). */
static const char *const gpucompile_vulkan__implied[][2] = {
    {"Shader", "Matrix"}, {"UniformAndStorageBuffer8BitAccess", "StorageBuffer8BitAccess"},
    {"UniformAndStorageBuffer16BitAccess", "StorageBuffer16BitAccess"}, {"GroupNonUniformVote", "GroupNonUniform"},
    {"GroupNonUniformArithmetic", "GroupNonUniform"}, {"GroupNonUniformBallot", "GroupNonUniform"},
    {"GroupNonUniformShuffle", "GroupNonUniform"}, {"GroupNonUniformShuffleRelative", "GroupNonUniform"},
    {"GroupNonUniformClustered", "GroupNonUniform"}, {"GroupNonUniformQuad", "GroupNonUniform"}};

GPUCOMPILE_PRIVATE const char *gpucompile_vulkan__cap_name(uint32_t id) {
    size_t i;
    for (i = 0; i < sizeof gpucompile_vulkan__caps / sizeof gpucompile_vulkan__caps[0]; i++)
        if (gpucompile_vulkan__caps[i].id == id) return gpucompile_vulkan__caps[i].name;
    return NULL;
}

GPUCOMPILE_PRIVATE int gpucompile_vulkan__known(const char *name, size_t n) {
    size_t i;
    for (i = 0; i < sizeof gpucompile_vulkan__caps / sizeof gpucompile_vulkan__caps[0]; i++)
        if (strlen(gpucompile_vulkan__caps[i].name) == n && strncmp(gpucompile_vulkan__caps[i].name, name, n) == 0) return 1;
    for (i = 0; i < sizeof gpucompile_vulkan__exts / sizeof gpucompile_vulkan__exts[0]; i++)
        if (strlen(gpucompile_vulkan__exts[i]) == n && strncmp(gpucompile_vulkan__exts[i], name, n) == 0) return 1;
    return 0;
}

/* Does the target allow the capability or extension name? #gpu.vulkan: the default set with
   its features' +Name / -Name; #spirv.target_env: exactly its lists (features "+A,+B"). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__allows_1(const gpucompile_target *t, const char *name) {
    const char *f = gpucompile_target_features(t);
    size_t n = strlen(name);
    int android = strcmp(gpucompile_target_chip(t), "android") == 0;
    int yes = !t->upstream && gpucompile_in_list(android ? GPUCOMPILE_VULKAN__ANDROID_SET : GPUCOMPILE_VULKAN__DEFAULT_SET, name, n);
    while (*f) {
        size_t w = strcspn(f, ",");
        if (w == n + 1 && strncmp(f + 1, name, n) == 0) yes = f[0] == '+';
        f += w + (f[w] == ',');
    }
    return yes;
}

GPUCOMPILE_PRIVATE int gpucompile_vulkan__allows(const gpucompile_target *t, const char *name) {
    size_t i;
    if (gpucompile_vulkan__allows_1(t, name)) return 1;
    for (i = 0; i < sizeof gpucompile_vulkan__implied / sizeof gpucompile_vulkan__implied[0]; i++)
        if (strcmp(gpucompile_vulkan__implied[i][1], name) == 0 && gpucompile_vulkan__allows_1(t, gpucompile_vulkan__implied[i][0])) return 1;
    return 0;
}

/* The versions a triple "spirv1.S-unknown-vulkan1.V-compute" names: 1 when it is one that LLVM
   writes Vulkan shaders for (SPIR-V 1.5 / Vulkan 1.2, SPIR-V 1.6 / Vulkan 1.3). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__versions(const char *triple, int *spirv, int *vulkan) {
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
   their canonical text. Printing turns them back, as mlir-opt-22 prints. Read with the core's
   lexer (gpucompile_lexer). */
/* [w, w, ...] of known names into out as "+w" words (prefix: nothing; errors name kind). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__names(gpucompile_lexer *r, gpucompile_buf *out, int exts) {
    const char *w;
    size_t n, at;
    if (!gpucompile_lex_expect(r, '[', NULL)) return 0;
    if (gpucompile_lex_eat(r, ']')) return 1;
    for (;;) {
        gpucompile_lex_ws(r);
        at = r->pos;
        n = gpucompile_lex_word(r, &w, NULL);
        if (!n) return gpucompile_lex_error(r, at, "expected a %s name", exts ? "extension" : "capability");
        if (!gpucompile_vulkan__known(w, n) || (strncmp(w, "SPV_", 4) == 0) != exts)
            return gpucompile_lex_error(r, at, "unknown %s: %.*s", exts ? "extension" : "capability", (int)(n < 80 ? n : 80), w);
        gpucompile_buf_printf(out, "%s+%.*s", out->len ? "," : "", (int)n, w);
        if (gpucompile_lex_eat(r, ',')) continue;
        return gpucompile_lex_expect(r, ']', NULL);
    }
}

/* One of the words of list (comma-separated), or an error "unknown WHAT: w". */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__enum(gpucompile_lexer *r, const char *list, const char *what, const char **w, size_t *n) {
    size_t at;
    gpucompile_lex_ws(r);
    at = r->pos;
    *n = gpucompile_lex_word(r, w, NULL);
    if (!*n) return gpucompile_lex_error(r, at, "expected a %s", what);
    if (!gpucompile_in_list(list, *w, *n)) return gpucompile_lex_error(r, at, "unknown %s: %.*s", what, (int)(*n < 80 ? *n : 80), *w);
    return 1;
}

/* #spirv.resource_limits<...>'s parameters, in any order, printed in declaration order and
   without those equal to their defaults (as MLIR's struct(params) printer). */
static const char *const gpucompile_vulkan__limits[8] = {
    "max_compute_shared_memory_size", "max_compute_workgroup_invocations", "max_compute_workgroup_size", "subgroup_size",
    "min_subgroup_size", "max_subgroup_size", "cooperative_matrix_properties_khr", "cooperative_matrix_properties_nv"};

GPUCOMPILE_PRIVATE int gpucompile_vulkan__plimits(gpucompile_lexer *r, gpucompile_buf *out) {
    static const long long defaults[4] = {16384, 128, -1, 32};
    char value[8][256];
    int seen[8] = {0}, i;
    const char *w;
    size_t n, at;
    if (!gpucompile_lex_expect(r, '#', NULL)) return 0;
    at = r->pos;
    n = gpucompile_lex_word(r, &w, NULL);
    if (!gpucompile_in_list("spirv.resource_limits", w, n)) return gpucompile_lex_error(r, at, "expected #spirv.resource_limits<...>");
    if (!gpucompile_lex_expect(r, '<', NULL)) return 0;
    if (!gpucompile_lex_eat(r, '>'))
        for (;;) {
            long long v;
            gpucompile_lex_ws(r);
            at = r->pos;
            n = gpucompile_lex_word(r, &w, NULL);
            for (i = 0; i < 8 && !gpucompile_in_list(gpucompile_vulkan__limits[i], w, n); i++) {}
            if (!n || i == 8 || seen[i])
                return gpucompile_lex_error(r, at, "duplicate or unknown struct parameter name: %.*s", (int)(n < 80 ? n : 80), w);
            seen[i] = 1;
            value[i][0] = 0;
            if (!gpucompile_lex_expect(r, '=', NULL)) return 0;
            if (i == 2) { /* an array of integers, each "N" (i64) or "N : iK" */
                int all_default = 1, k = 0;
                size_t len = 0;
                static const long long want[3] = {128, 128, 64};
                if (!gpucompile_lex_expect(r, '[', NULL)) return 0;
                len += (size_t)snprintf(value[i], sizeof value[i], "[");
                if (!gpucompile_lex_eat(r, ']')) for (;; k++) {
                    long long bits = 64;
                    if (!gpucompile_lex_int(r, -2147483647LL - 1, 2147483647LL, &v, gpucompile_vulkan__limits[i])) return 0;
                    if (gpucompile_lex_eat(r, ':')) {
                        gpucompile_lex_ws(r);
                        at = r->pos;
                        if (r->pos >= r->n || r->s[r->pos] != 'i') return gpucompile_lex_error(r, at, "expected an integer type");
                        r->pos++;
                        if (!gpucompile_lex_int(r, 1, 64, &bits, "an integer type")) return 0;
                    }
                    if (len < sizeof value[i])
                        len += (size_t)snprintf(value[i] + len, sizeof value[i] - len, bits == 64 ? "%s%lld" : "%s%lld : i%lld", k ? ", " : "", v, bits);
                    if (k >= 3 || bits != 32 || v != want[k]) all_default = 0;
                    if (gpucompile_lex_eat(r, ',')) continue;
                    if (!gpucompile_lex_expect(r, ']', NULL)) return 0;
                    break;
                }
                if (k != 2) all_default = 0;
                if (len < sizeof value[i]) snprintf(value[i] + len, sizeof value[i] - len, "]");
                if (len + 1 >= sizeof value[i]) return gpucompile_lex_error(r, at, "max_compute_workgroup_size is too long");
                if (all_default) seen[i] = 0;
            } else if (i >= 6) { /* the cooperative matrix tables: only empty ones are read */
                at = r->pos;
                if (!gpucompile_lex_eat(r, '[') || !gpucompile_lex_eat(r, ']'))
                    return gpucompile_lex_error(r, at, "gpucompile reads %s only as []", gpucompile_vulkan__limits[i]);
                snprintf(value[i], sizeof value[i], "[]");
            } else {
                if (!gpucompile_lex_int(r, -2147483647LL - 1, 2147483647LL, &v, gpucompile_vulkan__limits[i])) return 0;
                snprintf(value[i], sizeof value[i], "%lld", v);
                if (i < 4 && v == defaults[i]) seen[i] = 0;
            }
            if (gpucompile_lex_eat(r, ',')) continue;
            if (!gpucompile_lex_expect(r, '>', NULL)) return 0;
            break;
        }
    for (i = 0; i < 8; i++)
        if (seen[i]) gpucompile_buf_printf(out, "%s%s = %s", out->len ? ", " : "", gpucompile_vulkan__limits[i], value[i]);
    return 1;
}

GPUCOMPILE_PRIVATE size_t gpucompile_vulkan__parse_env(const char *text, size_t n, size_t column, const gpucompile_logger *logger,
                                                        char *params, size_t size) {
    static const char *const vendors = "AMD,Apple,ARM,Imagination,Intel,NVIDIA,Qualcomm,SwiftShader,Unknown";
    static const char *const types = "DiscreteGPU,IntegratedGPU,CPU,VirtualGPU,Other,Unknown";
    gpucompile_lexer r;
    gpucompile_buf caps, exts, limits;
    char api[32] = "", device[96] = "";
    const char *w;
    size_t wn, at;
    int minor = -1, ok = 0;
    gpucompile_lex_init(&r, text, n, column, logger);
    memset(&caps, 0, sizeof caps);
    memset(&exts, 0, sizeof exts);
    memset(&limits, 0, sizeof limits);
    do {
        if (!gpucompile_lex_expect(&r, '<', NULL) || !gpucompile_lex_expect(&r, '#', NULL)) break;
        at = r.pos;
        wn = gpucompile_lex_word(&r, &w, NULL);
        if (!gpucompile_in_list("spirv.vce", w, wn)) { gpucompile_lex_error(&r, at, "expected #spirv.vce<...>"); break; }
        if (!gpucompile_lex_expect(&r, '<', NULL)) break;
        gpucompile_lex_ws(&r);
        at = r.pos;
        wn = gpucompile_lex_word(&r, &w, NULL);
        if (wn != 4 || strncmp(w, "v1.", 3) != 0 || w[3] < '0' || w[3] > '6') {
            gpucompile_lex_error(&r, at, "unknown version: %.*s", (int)(wn < 40 ? wn : 40), w);
            break;
        }
        minor = w[3] - '0';
        if (!gpucompile_lex_expect(&r, ',', NULL) || !gpucompile_vulkan__names(&r, &caps, 0) || !gpucompile_lex_expect(&r, ',', NULL) ||
            !gpucompile_vulkan__names(&r, &exts, 1) || !gpucompile_lex_expect(&r, '>', NULL) || !gpucompile_lex_expect(&r, ',', NULL))
            break;
        at = r.pos;
        if (gpucompile_lex_word(&r, &w, NULL) == 3 && strncmp(w, "api", 3) == 0) {
            if (!gpucompile_lex_expect(&r, '=', NULL) || !gpucompile_vulkan__enum(&r, "Metal,OpenCL,Vulkan,WebGPU,Unknown", "client API", &w, &wn) ||
                !gpucompile_lex_expect(&r, ',', NULL))
                break;
            if (!gpucompile_in_list("Unknown", w, wn)) snprintf(api, sizeof api, "%.*s", (int)wn, w);
        } else r.pos = at;
        if (gpucompile_lex_ws(&r) != '#') {
            char vendor[32];
            long long id = 0x7FFFFFFF;
            if (!gpucompile_vulkan__enum(&r, vendors, "vendor", &w, &wn)) break;
            snprintf(vendor, sizeof vendor, "%.*s", (int)wn, w);
            if (strcmp(vendor, "Unknown") != 0) snprintf(device, sizeof device, "%s", vendor);
            if (gpucompile_lex_eat(&r, ':')) {
                if (!gpucompile_vulkan__enum(&r, types, "device type", &w, &wn)) break;
                if (*device && !gpucompile_in_list("Unknown", w, wn)) {
                    snprintf(device + strlen(device), sizeof device - strlen(device), ":%.*s", (int)wn, w);
                    if (gpucompile_lex_eat(&r, ':')) {
                        if (!gpucompile_lex_int(&r, 0, 0xFFFFFFFFLL, &id, "the device id")) break;
                        if (id != 0x7FFFFFFF) snprintf(device + strlen(device), sizeof device - strlen(device), ":%lld", id);
                    }
                } else if (gpucompile_lex_eat(&r, ':') && !gpucompile_lex_int(&r, 0, 0xFFFFFFFFLL, &id, "the device id")) break;
            }
            if (!gpucompile_lex_expect(&r, ',', NULL)) break;
        }
        if (!gpucompile_vulkan__plimits(&r, &limits) || !gpucompile_lex_expect(&r, '>', NULL)) break;
        ok = 1;
    } while (0);
    if (ok && (caps.oom || exts.oom || limits.oom)) ok = gpucompile_lex_error(&r, 0, "out of memory");
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
        if (p.oom || p.len >= size) ok = gpucompile_lex_error(&r, 0, "the target text is too long");
        else memcpy(params, p.data, p.len + 1);
        gpucompile_free(p.a, p.data);
    }
    gpucompile_free(caps.a, caps.data);
    gpucompile_free(exts.a, exts.data);
    gpucompile_free(limits.a, limits.data);
    return ok ? r.pos : 0;
}

/* A flag's string value without its quotes (the limits and names hold no escapes); "" if none. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__flag_string(const gpucompile_target *t, const char *name, char *buf, size_t size) {
    const char *v = gpucompile_target_flag_value(t, name);
    size_t n = v ? strlen(v) : 0;
    if (n >= 2 && v[0] == '"' && v[n - 1] == '"') snprintf(buf, size, "%.*s", (int)(n - 2), v + 1);
    else snprintf(buf, size, "%s", "");
}

GPUCOMPILE_PRIVATE size_t gpucompile_vulkan__print_env(const gpucompile_target *t, char *buf, size_t size) {
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
/* Its initialisers are looked up at run time (gpucompile_llvm_target_available): an LLVM built
   without the target (Debian's LLVM 19) has none of them, and the program must still link. */
typedef struct gpucompile_vulkan__llvm {
    int state; /* 0 not looked up, 1 found, -1 absent */
    void (*parse_options)(int, const char *const *, const char *);
    int options, parsed; /* gpucompile_vulkan_set_llvm_options' mode; 1 once -spirv-ext was parsed */
} gpucompile_vulkan__llvm;
static gpucompile_vulkan__llvm gpucompile_vulkan__targets;

GPUCOMPILE_DEF int gpucompile_vulkan_available(void) {
    gpucompile_vulkan__llvm *s = &gpucompile_vulkan__targets;
    int found = gpucompile_llvm_target_available("SPIRV"), ok;
    gpucompile_lock();
    if (s->state == 0)
        s->state = found && gpucompile_dlfn(gpucompile_dlopen(NULL), "LLVMParseCommandLineOptions", &s->parse_options) ? 1 : -1;
    ok = s->state == 1;
    gpucompile_unlock();
    return ok;
}

GPUCOMPILE_DEF int gpucompile_vulkan_set_llvm_options(int mode) {
    int now;
    gpucompile_lock();
    if (!gpucompile_vulkan__targets.parsed && mode >= GPUCOMPILE_VULKAN_LLVM_OPTIONS_SET && mode <= GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE)
        gpucompile_vulkan__targets.options = mode;
    now = gpucompile_vulkan__targets.options;
    gpucompile_unlock();
    return now;
}

/* Under the core's lock, once. The float atomics' extensions are a process-wide option of
   LLVM's SPIR-V code generator (gpucompile_vulkan_set_llvm_options says who sets it). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__initialize(void) {
    static const char *const argv[2] = {"gpucompile", "-spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max"};
    gpucompile_vulkan__llvm *s = &gpucompile_vulkan__targets;
    if (s->state != 1 || !gpucompile_llvm_target_initialize("SPIRV")) return;
    if (s->options == GPUCOMPILE_VULKAN_LLVM_OPTIONS_SET) {
        s->parse_options(2, argv, "");
        s->parsed = 1;
    }
}

/* 1 when float atomics can reach LLVM: the -spirv-ext option is set (by the backend or the host). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__float_atomics(void) {
    int ok;
    gpucompile_lock();
    ok = gpucompile_vulkan__targets.options != GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE;
    gpucompile_unlock();
    return ok;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__verify(const gpucompile_target *t, const gpucompile_logger *logger) {
    const char *triple = gpucompile_target_triple(t), *f = gpucompile_target_features(t);
    char api[64];
    int s = -1, v = -1;
    if (!gpucompile_vulkan__versions(triple, &s, &v)) {
        if (s >= 0 && v >= 0)
            return gpucompile_log_target(logger, "SPIR-V 1.%d (Vulkan 1.%d) is not compiled: LLVM writes Vulkan shaders as SPIR-V 1.5 (Vulkan 1.2) or 1.6 (Vulkan 1.3).", s, v);
        return gpucompile_log_target(logger, "The target triple '%.200s' is not a Vulkan compute triple (spirv1.6-unknown-vulkan1.3-compute or spirv1.5-unknown-vulkan1.2-compute).", triple);
    }
    if (strcmp(gpucompile_target_chip(t), "vulkan") != 0 && strcmp(gpucompile_target_chip(t), "android") != 0)
        return gpucompile_log_target(logger, "The chip of a Vulkan target is \"vulkan\" (the device is chosen at run time) or \"android\" (Android's "
                                     "baseline profile: what every Android device has), not '%.100s'.", gpucompile_target_chip(t));
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
/* The functions the lowering's image reads and writes call for LLVM 22 (gpucompile_lower_target's
   image_coordinate and image_size), replaced in the module's words by gpucompile_vulkan__fix_images. */
#define GPUCOMPILE_VULKAN__IMAGE_PREFIX "gpucompile.image."
#define GPUCOMPILE_VULKAN__IMAGE_COORDINATE GPUCOMPILE_VULKAN__IMAGE_PREFIX "coordinate"
#define GPUCOMPILE_VULKAN__IMAGE_SIZE GPUCOMPILE_VULKAN__IMAGE_PREFIX "size"

GPUCOMPILE_PRIVATE const char *gpucompile_vulkan__fn_attr(LLVMValueRef fn, const char *name, unsigned *len) {
    LLVMAttributeRef a = LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, name, (unsigned)strlen(name));
    *len = 0;
    return a ? LLVMGetStringAttributeValue(a, len) : NULL;
}

/* An entry point: "hlsl.shader"="compute" (what clang's HLSL front end writes). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__is_kernel(gpucompile_job *job, LLVMValueRef fn) {
    unsigned n;
    const char *v = gpucompile_vulkan__fn_attr(fn, "hlsl.shader", &n);
    (void)job;
    return (v && !LLVMIsDeclaration(fn) && n == 7 && strncmp(v, "compute", 7) == 0) || gpucompile_is_pointer_kernel(fn);
}

/* The called function's name, "" when the call is indirect or in is no call. */
GPUCOMPILE_PRIVATE const char *gpucompile_vulkan__callee(LLVMValueRef in) {
    LLVMValueRef f;
    if (!LLVMIsACallInst(in)) return "";
    f = LLVMGetCalledValue(in);
    return f && LLVMIsAFunction(f) ? gpucompile_value_name(f) : "";
}

GPUCOMPILE_PRIVATE int gpucompile_vulkan__calls(LLVMValueRef in, const char *prefix) {
    return strncmp(gpucompile_vulkan__callee(in), prefix, strlen(prefix)) == 0;
}

/* Notes n repairs of one kind, when there are any: "<n> <what>", each %s of what the plural
   ending where n is not 1. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__note(gpucompile_job *job, long n, const char *what, const char *plural) {
    char text[512];
    const char *end = n == 1 ? "" : plural;
    if (n <= 0) return;
    snprintf(text, sizeof text, what, end, end);
    gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "%ld %s", n, text);
}

/* Fails the compile naming the function and the instruction. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__refuse(gpucompile_job *job, LLVMValueRef in, const char *why) {
    char where[512];
    return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "%s: %s", gpucompile_instruction_where(in, where, sizeof where), why);
}

/* 64-bit atomics: LLVM 22 never declares Int64Atomics for a shader and stops on them ('Unable to
   meet SPIR-V requirements'). Each is written as a volatile load of the old value and volatile
   stores of its operands at its address (cmpxchg: the comparator, then the value), which LLVM
   writes as they are, marked by their alignment: 2^(GPUCOMPILE_VULKAN__A64 + the operation's
   index in gpucompile_vulkan__a64_ops, LLVM's atomicrmw operations in their order, then cmpxchg's
   value and its comparator). gpucompile_vulkan__fix_atomic64 makes them the atomic instruction
   again on the words, and declares Int64Atomics. */
#define GPUCOMPILE_VULKAN__A64 16
#define GPUCOMPILE_VULKAN__A64_CAS 11 /* cmpxchg's value; its comparator is the one after */
static const uint32_t gpucompile_vulkan__a64_ops[] = {229, 234, 235, 240, 0 /* nand: none */, 241, 242, 238, 236, 239, 237, 230, 230};

/* The bits of a cmpxchg's value, 0 for another instruction. */
GPUCOMPILE_PRIVATE unsigned gpucompile_vulkan__cas_width(LLVMValueRef in) {
    LLVMTypeRef t = LLVMIsAAtomicCmpXchgInst(in) ? LLVMTypeOf(LLVMGetOperand(in, 2)) : NULL;
    return t && LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* 1 when cmpxchg in is one gpucompile_vulkan__rewrite_cas writes as llvm.spv.cmpxchg: of a 32-bit
   integer in a buffer (memory scope Device) or in workgroup memory (Workgroup); *scope (when
   not NULL) that. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__cas(LLVMValueRef in, unsigned *scope) {
    unsigned as;
    if (gpucompile_vulkan__cas_width(in) != 32) return 0;
    as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0)));
    if (as != 11 && as != 3) return 0;
    if (scope) *scope = as == 3 ? 2 : 1;
    return 1;
}

/* A 64-bit atomic in a buffer or workgroup memory that gpucompile_vulkan__rewrite_atomics writes
   as marked loads and stores: its index in gpucompile_vulkan__a64_ops + 1; else 0. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__atomic64(LLVMValueRef in) {
    unsigned as, op;
    int k;
    if (gpucompile_vulkan__cas_width(in) == 64) k = GPUCOMPILE_VULKAN__A64_CAS;
    else if (LLVMIsAAtomicRMWInst(in) && LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(in)) == 64 &&
             (op = (unsigned)LLVMGetAtomicRMWBinOp(in)) < GPUCOMPILE_VULKAN__A64_CAS && gpucompile_vulkan__a64_ops[op])
        k = (int)op;
    else return 0;
    as = LLVMGetPointerAddressSpace(LLVMTypeOf(LLVMGetOperand(in, 0)));
    return as == 11 || as == 3 ? k + 1 : 0;
}

/* Marks a load or store of gpucompile_vulkan__rewrite_atomics (the operation's index k). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__a64_mark(LLVMValueRef v, int k) {
    LLVMSetVolatile(v, 1);
    LLVMSetAlignment(v, 1u << (GPUCOMPILE_VULKAN__A64 + k));
}

/* Why LLVM 22 cannot take instruction in (crash or invalid module), NULL when it can. */
GPUCOMPILE_PRIVATE const char *gpucompile_vulkan__bad_instruction(LLVMValueRef in) {
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
    if (gpucompile_vulkan__calls(in, "llvm.nvvm."))
        return "an NVVM intrinsic the pointer-kernel lowering does not map (of CUDA-style IR it maps the thread and block ids and "
               "sizes, barrier0 and the warp functions): LLVM 22's SPIR-V code generator would stop on it";
    if (gpucompile_vulkan__calls(in, "llvm.spv.workgroup.size"))
        return "LLVM 22 writes an invalid module for llvm.spv.workgroup.size: use the constant (hlsl.numthreads)";
    if (LLVMIsAAtomicCmpXchgInst(in) && gpucompile_vulkan__cas_width(in) != 64 && !gpucompile_vulkan__cas(in, NULL))
        return "a compare-and-swap (OpenCL's atomic_cmpxchg, atom_cmpxchg) outside a buffer and workgroup memory, or not of a 32-bit "
               "integer: LLVM 22's code generator crashes on every cmpxchg for Vulkan (in \"SPIRV legalize bitcast\"), and gpucompile "
               "writes only these as llvm.spv.cmpxchg";
    if (((LLVMIsAAtomicRMWInst(in) && LLVMGetTypeKind(LLVMTypeOf(in)) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(LLVMTypeOf(in)) == 64) ||
         gpucompile_vulkan__cas_width(in) == 64) && !gpucompile_vulkan__atomic64(in))
        return "a 64-bit atomic outside a buffer and workgroup memory, or a nand: LLVM 22's code generator stops on 64-bit atomics for "
               "Vulkan ('Unable to meet SPIR-V requirements'), and gpucompile writes only the others (OpenCL's atom_* on long) itself";
    if (LLVMIsAAtomicRMWInst(in) && !gpucompile_vulkan__float_atomics()) {
        LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(in);
        if (op == LLVMAtomicRMWBinOpFAdd || op == LLVMAtomicRMWBinOpFSub || op == LLVMAtomicRMWBinOpFMax || op == LLVMAtomicRMWBinOpFMin)
            return "a float atomic: LLVM 22 aborts on it without its -spirv-ext option, which this program leaves unset "
                   "(gpucompile_vulkan_set_llvm_options(GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE))";
    }
    return NULL;
}

/* "X,Y,Z" of hlsl.numthreads, each at least 1: 1 when so. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__numthreads(LLVMValueRef fn, unsigned size[3]) {
    unsigned n;
    const char *v = gpucompile_vulkan__fn_attr(fn, "hlsl.numthreads", &n);
    char buf[64], tail;
    if (!v || n >= sizeof buf) return 0;
    memcpy(buf, v, n);
    buf[n] = 0;
    return sscanf(buf, "%u,%u,%u%c", &size[0], &size[1], &size[2], &tail) == 3 && size[0] && size[1] && size[2];
}

/* The module as LLVM 22 takes it, before optimization: entry points, resources, globals, calls. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__prepare(gpucompile_job *job) {
    LLVMValueRef fn, g, in, pc = NULL, calls[64];
    LLVMBasicBlockRef bb;
    int ncalls = 0, i, zeroed = 0;
    if (gpucompile_has_pointer_kernels(job->module)) {
        /* OpenCL/CUDA-style kernels: rewritten after optimization (pre_emit), where these rules
           then apply; their helpers inlined by the optimizer, so that no call passes a pointer */
        int n = gpucompile_inline_helpers(job->module);
        gpucompile_vulkan__note(job, n, "function%s marked alwaysinline (a Vulkan shader passes "
                                "no pointers between functions)", "s");
        return GPUCOMPILE_OK;
    }
    for (fn = LLVMGetFirstFunction(job->module); fn; fn = LLVMGetNextFunction(fn)) {
        const char *name = gpucompile_value_name(fn), *v;
        unsigned n, size[3];
        if (LLVMIsDeclaration(fn)) {
            if (LLVMGetFirstUse(fn) && strncmp(name, "llvm.", 5) != 0 && strcmp(name, GPUCOMPILE_VULKAN__SPEC_CONSTANT) != 0 &&
                strncmp(name, GPUCOMPILE_VULKAN__IMAGE_PREFIX, strlen(GPUCOMPILE_VULKAN__IMAGE_PREFIX)) != 0) /* the lowering's image functions: replaced after llc */
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

GPUCOMPILE_PRIVATE int gpucompile_vulkan__decompose(LLVMTargetDataRef dl, LLVMValueRef p, gpucompile_vulkan__addr *a, int depth) {
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
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_vulkan__rebuild(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef at) {
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
GPUCOMPILE_PRIVATE int gpucompile_vulkan__wide(LLVMValueRef g) {
    int k, n = LLVMGetNumOperands(g);
    for (k = 1; k < n; k++)
        if (LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(g, (unsigned)k))) > 32) return 1;
    return 0;
}

/* A constant address in the push-constant block (instcombine's `gep i8, @pc, i64 4`) as the
   typed field address `gep %Block, @pc, i32 0, i32 1`: LLVM 22 gives the byte form a 64-bit
   index, which needs the Int64 capability. NULL when it is not the start of a field. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_vulkan__push_field(gpucompile_job *job, LLVMValueRef p) {
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
GPUCOMPILE_PRIVATE int gpucompile_vulkan__push(gpucompile_job *job, LLVMValueRef in) {
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
GPUCOMPILE_PRIVATE int gpucompile_vulkan__workgroup(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef in, int in_entry) {
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

/* ---- what the target's devices lack, refused by name before code generation ----
   The capability an instruction's values need (64-, 16-, 8-bit integers, double, half; 8- and
   16-bit values in storage buffers and push constants) that the target does not allow: chip =
   "android", #spirv.vce's list, features = "-Int64". Else LLVM writes the capability and the
   backend refuses the module after code generation, naming neither function nor instruction. */
typedef struct gpucompile_vulkan__need { const char *cap, *what; } gpucompile_vulkan__need;

GPUCOMPILE_PRIVATE const gpucompile_vulkan__need *gpucompile_vulkan__type_lacks(const gpucompile_target *t, LLVMTypeRef ty, unsigned space, int depth) {
    static const gpucompile_vulkan__need needs[] = {
        {"Int64", "a 64-bit integer"}, {"Int16", "a 16-bit integer"}, {"Int8", "an 8-bit integer"}, {"Float64", "a double"},
        {"Float16", "a half"}, {"StorageBuffer16BitAccess", "a 16-bit value in a storage buffer"},
        {"StorageBuffer8BitAccess", "an 8-bit value in a storage buffer"}, {"StoragePushConstant16", "a 16-bit push constant"},
        {"StoragePushConstant8", "an 8-bit push constant"}};
    LLVMTypeKind k = LLVMGetTypeKind(ty);
    int i = -1, bits = 0;
    unsigned j, n;
    if (depth > 8) return NULL;
    if (k == LLVMVectorTypeKind || k == LLVMArrayTypeKind) return gpucompile_vulkan__type_lacks(t, LLVMGetElementType(ty), space, depth + 1);
    if (k == LLVMStructTypeKind) {
        for (j = 0, n = LLVMCountStructElementTypes(ty); j < n; j++) {
            const gpucompile_vulkan__need *x = gpucompile_vulkan__type_lacks(t, LLVMStructGetTypeAtIndex(ty, j), space, depth + 1);
            if (x) return x;
        }
        return NULL;
    }
    if (k == LLVMIntegerTypeKind) bits = (int)LLVMGetIntTypeWidth(ty);
    if (k == LLVMHalfTypeKind || k == LLVMBFloatTypeKind) bits = 16;
    if (bits == 64) i = 0;
    else if (bits == 16) i = k == LLVMIntegerTypeKind ? 1 : 4;
    else if (bits == 8) i = 2;
    else if (k == LLVMDoubleTypeKind) i = 3;
    if (i >= 0 && !gpucompile_vulkan__allows(t, needs[i].cap)) return &needs[i];
    if ((bits == 8 || bits == 16) && (space == 11 || space == 13)) { /* in memory: StorageBuffer, PushConstant */
        i = 5 + (bits == 8) + 2 * (space == 13);
        if (!gpucompile_vulkan__allows(t, needs[i].cap)) return &needs[i];
    }
    return NULL;
}

/* What instruction in needs that the target does not allow (its result, its operands, what it
   loads or stores), or NULL. */
GPUCOMPILE_PRIVATE const gpucompile_vulkan__need *gpucompile_vulkan__lacks(const gpucompile_target *t, LLVMValueRef in) {
    static const gpucompile_vulkan__need atomic64 = {"Int64Atomics", "a 64-bit atomic"};
    const gpucompile_vulkan__need *x;
    int k, n = LLVMGetNumOperands(in);
    if (LLVMIsACallInst(in) && strncmp(gpucompile_vulkan__callee(in), "llvm.lifetime.", 14) == 0) return NULL; /* no code */
    if (gpucompile_vulkan__atomic64(in) && !gpucompile_vulkan__allows(t, atomic64.cap)) return &atomic64;
    if ((x = gpucompile_vulkan__type_lacks(t, LLVMTypeOf(in), 0, 0)) != NULL) return x;
    for (k = 0; k < n; k++)
        if ((x = gpucompile_vulkan__type_lacks(t, LLVMTypeOf(LLVMGetOperand(in, (unsigned)k)), 0, 0)) != NULL) return x;
    if (LLVMIsALoadInst(in) || LLVMIsAStoreInst(in)) {
        LLVMValueRef p = LLVMGetOperand(in, LLVMIsALoadInst(in) ? 0 : 1);
        return gpucompile_vulkan__type_lacks(t, LLVMIsALoadInst(in) ? LLVMTypeOf(in) : LLVMTypeOf(LLVMGetOperand(in, 0)),
                                             LLVMGetPointerAddressSpace(LLVMTypeOf(p)), 0);
    }
    return NULL;
}

/* The bytes of workgroup memory the target's devices have: #spirv.resource_limits'
   max_compute_shared_memory_size (MLIR's default, 16384, where not given), chip = "android"'s;
   0: the device's, checked at launch (bare #gpu.vulkan). Push constants: chip = "android"'s 128,
   else 0 (the pointer-kernel lowering's block above 128 bytes, every device's minimum, becomes a
   uniform buffer: gpucompile_vulkan__large_block). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__profile_limits(const gpucompile_target *t, unsigned long *shared, unsigned long *push) {
    char limits[4096];
    const char *at;
    int android = strcmp(gpucompile_target_chip(t), "android") == 0;
    gpucompile_vulkan__flag_string(t, "limits", limits, sizeof limits);
    *shared = android ? GPUCOMPILE_VULKAN__ANDROID_SHARED : t->upstream ? 16384 : 0;
    *push = android ? GPUCOMPILE_VULKAN__ANDROID_PUSH : 0;
    if ((at = strstr(limits, "max_compute_shared_memory_size = ")) != NULL) *shared = strtoul(at + 33, NULL, 0);
}

/* Is v (a global, a constant expression off one) used in function fn? */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__used_in(LLVMValueRef v, LLVMValueRef fn, int depth) {
    LLVMUseRef u;
    for (u = LLVMGetFirstUse(v); u && depth < 4; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (LLVMIsAInstruction(user) ? LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)) == fn : gpucompile_vulkan__used_in(user, fn, depth + 1)) return 1;
    }
    return 0;
}

/* Refused before code generation, by name: what the target's devices lack (above). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__check_profile(gpucompile_job *job) {
    const gpucompile_target *t = job->target;
    const char *chip = gpucompile_target_chip(t);
    unsigned kind = LLVMGetMDKindIDInContext(job->context, GPUCOMPILE_LOWER_LAUNCH_LENGTH, (unsigned)strlen(GPUCOMPILE_LOWER_LAUNCH_LENGTH));
    unsigned long shared, push, bytes;
    LLVMTargetDataRef dl = LLVMGetModuleDataLayout(job->module);
    LLVMValueRef fn, in, g;
    char why[512];
    const char *hint = t->upstream ? "add it to #spirv.vce's capabilities" : strcmp(chip, "android") == 0 ? "chip \"android\": Android's baseline devices lack it" : "the target's features remove it";
    for (in = gpucompile_next_instruction(job->module, NULL); in; in = gpucompile_next_instruction(job->module, in)) {
        const gpucompile_vulkan__need *x = gpucompile_vulkan__lacks(t, in);
        if (!x) continue;
        snprintf(why, sizeof why, "%s needs the SPIR-V capability %s, which the target does not allow (%s)", x->what, x->cap, hint);
        return gpucompile_vulkan__refuse(job, in, why);
    }
    gpucompile_vulkan__profile_limits(t, &shared, &push);
    for (g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g))
        if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 13 && push && LLVMABISizeOfType(dl, LLVMGlobalGetValueType(g)) > push &&
            !LLVMGetNamedMetadataNumOperands(job->module, gpucompile_vulkan_lower_target()->params_metadata))
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "global '%s': a %lu-byte push-constant block; the target's devices have %lu bytes (chip \"%s\")",
                                       gpucompile_value_name(g), (unsigned long)LLVMABISizeOfType(dl, LLVMGlobalGetValueType(g)), push, chip);
    for (fn = shared ? LLVMGetFirstFunction(job->module) : NULL; fn; fn = LLVMGetNextFunction(fn)) { /* each entry point's (helpers are inlined) */
        if (!gpucompile_vulkan__is_kernel(job, fn)) continue;
        for (bytes = 0, g = LLVMGetFirstGlobal(job->module); g; g = LLVMGetNextGlobal(g))
            if (LLVMGetPointerAddressSpace(LLVMTypeOf(g)) == 3 && !LLVMGetMetadata(g, kind) && gpucompile_vulkan__used_in(g, fn, 0))
                bytes += (unsigned long)LLVMABISizeOfType(dl, LLVMGlobalGetValueType(g)); /* not the sizes set at launch: the runtime checks those */
        if (bytes > shared)
            return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "function '%s': %lu bytes of workgroup memory; the target's devices have %lu (%s)",
                                       gpucompile_value_name(fn), bytes, shared, t->upstream ? "#spirv.resource_limits' max_compute_shared_memory_size" : "chip \"android\"");
    }
    return GPUCOMPILE_OK;
}

/* LLVM's diagnostics in object's private context: errors are the job's. */
typedef struct gpucompile_vulkan__diag { gpucompile_job *job; int failed; } gpucompile_vulkan__diag;
GPUCOMPILE_PRIVATE void gpucompile_vulkan__diag_handler(LLVMDiagnosticInfoRef di, void *user) {
    gpucompile_vulkan__diag *d = (gpucompile_vulkan__diag *)user;
    char *msg;
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError) return;
    msg = LLVMGetDiagInfoDescription(di);
    gpucompile_job_log(d->job, GPUCOMPILE_SEVERITY_ERROR, GPUCOMPILE_ERROR_LLVM, "llvm", "%s", msg);
    LLVMDisposeMessage(msg);
    d->failed = 1;
}

/* After optimization: the rewrites, then the checks again on what the optimizer made. */
/* Pointer kernels into the Vulkan shape ([section: lowering]), then the input rules on
   what the rewrite made. Flags: workgroup_size = "X,Y,Z" (kernels without reqd_work_group_size;
   without it: set at launch), local_memory = "BYTES" (each local pointer parameter's; without
   it: set at launch), warp_size = "N" (CUDA's warp; 32). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__lower(gpucompile_job *job) {
    gpucompile_lower_options o;
    gpucompile_lower_target t;
    gpucompile_result r;
    int n = 0;
    if ((r = gpucompile_lower_flags(job, job->target, &o)) != GPUCOMPILE_OK) return r;
    t = *gpucompile_vulkan_lower_target();
    if (LLVMGetNamedMetadataNumOperands(job->module, GPUCOMPILE_VULKAN__INDEX_BITS)) t.index_bits = 32; /* spirv32: size_t and its arithmetic are 32-bit */
    if ((r = gpucompile_lower_kernels(job, job->module, &t, &o, NULL, &n)) != GPUCOMPILE_OK) return r;
    gpucompile_vulkan__note(job, n, "kernel%s rewritten into the Vulkan shape (buffers at the parameters' bindings, scalars in "
                            "push constants, the parameters' order recorded)", "s");
    return gpucompile_vulkan__prepare(job);
}

/* The marked load of the old value and stores of the operands that stand for 64-bit atomic in
   (gpucompile_vulkan__a64_ops' index k), at the builder: the old value. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_vulkan__rewrite_atomics(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef in, int k) {
    LLVMValueRef p = LLVMGetOperand(in, 0), old = LLVMBuildLoad2(b, LLVMInt64TypeInContext(job->context), p, "");
    gpucompile_vulkan__a64_mark(old, k);
    if (k == GPUCOMPILE_VULKAN__A64_CAS) gpucompile_vulkan__a64_mark(LLVMBuildStore(b, LLVMGetOperand(in, 1), p), k + 1);
    gpucompile_vulkan__a64_mark(LLVMBuildStore(b, LLVMGetOperand(in, k == GPUCOMPILE_VULKAN__A64_CAS ? 2 : 1), p), k);
    return old;
}

/* A cmpxchg gpucompile_vulkan__cas takes becomes the call llvm.spv.cmpxchg(pointer, comparator,
   value, scope, Equal, Unequal), and success old == comparator: LLVM 22 crashes on the
   instruction (in "SPIRV legalize bitcast") and selects the call as OpAtomicCompareExchange. It
   writes the call's result as a mistyped { old, success } that gpucompile_vulkan__fix_cas makes
   old again. The semantics are relaxed (0), as good as the other atomics' LLVM 22 writes (their
   SequentiallyConsistent names no storage class: it orders no memory in Vulkan), and lavapipe
   loses updates of a contended compare-exchange with any other (tests/data/vulkan_cas.cl).
   Returns the instruction after it. */
GPUCOMPILE_PRIVATE LLVMValueRef gpucompile_vulkan__rewrite_cas(gpucompile_job *job, LLVMBuilderRef b, LLVMValueRef in) {
    LLVMTypeRef i32 = LLVMInt32TypeInContext(job->context), pt = LLVMTypeOf(LLVMGetOperand(in, 0)), ft = LLVMFunctionType(i32, &pt, 1, 1);
    LLVMValueRef f, args[6], old, ok, agg, next = LLVMGetNextInstruction(in);
    LLVMUseRef u, un;
    unsigned scope = 0;
    char name[32];
    args[0] = LLVMGetOperand(in, 0);
    args[1] = LLVMGetOperand(in, 1);
    args[2] = LLVMGetOperand(in, 2);
    LLVMPositionBuilderBefore(b, in);
    if (gpucompile_vulkan__atomic64(in)) old = gpucompile_vulkan__rewrite_atomics(job, b, in, GPUCOMPILE_VULKAN__A64_CAS);
    else {
        gpucompile_vulkan__cas(in, &scope);
        snprintf(name, sizeof name, "llvm.spv.cmpxchg.p%u", LLVMGetPointerAddressSpace(pt));
        if (!(f = LLVMGetNamedFunction(job->module, name))) f = LLVMAddFunction(job->module, name, ft);
        args[3] = LLVMConstInt(i32, scope, 0);
        args[4] = args[5] = LLVMConstInt(i32, 0, 0);
        old = LLVMBuildCall2(b, ft, f, args, 6, "");
    }
    ok = LLVMBuildICmp(b, LLVMIntEQ, old, args[1], "");
    for (u = LLVMGetFirstUse(in); u; u = un) { /* the pair's extractvalues: old, ok */
        LLVMValueRef x = LLVMGetUser(u);
        un = LLVMGetNextUse(u);
        if (!LLVMIsAExtractValueInst(x) || LLVMGetNumIndices(x) != 1) continue;
        if (x == next) next = LLVMGetNextInstruction(x);
        LLVMReplaceAllUsesWith(x, LLVMGetIndices(x)[0] ? ok : old);
        LLVMInstructionEraseFromParent(x);
    }
    if (LLVMGetFirstUse(in)) { /* any other use: the pair itself */
        agg = LLVMBuildInsertValue(b, LLVMGetPoison(LLVMTypeOf(in)), old, 0, "");
        LLVMReplaceAllUsesWith(in, LLVMBuildInsertValue(b, agg, ok, 1, ""));
    }
    LLVMInstructionEraseFromParent(in);
    return next;
}

/* LLVM 22's SPIR-V code generator rewrites a select whose condition is a multiply compared with
   zero (fcmp olt or ult, ogt or ugt swapped) and whose operands are opposites into GLSL's
   FaceForward, for shaders at every level, and crashes in its pre-legalizer on what that leaves:
   OpenCL's round of a product (select(x < 0, -1.0, 1.0) of the lowering), pyFAI's separate.cl.
   The inverse comparison with the operands swapped is the same value and not that shape: any
   such select is written so, whatever its operands. 1 when in was. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__faceforward(LLVMBuilderRef b, LLVMValueRef in) {
    static const LLVMRealPredicate from[4] = {LLVMRealOLT, LLVMRealULT, LLVMRealOGT, LLVMRealUGT};
    static const LLVMRealPredicate to[4] = {LLVMRealUGE, LLVMRealOGE, LLVMRealULE, LLVMRealOLE};
    LLVMValueRef c = LLVMIsASelectInst(in) ? LLVMGetOperand(in, 0) : NULL, x, z, t;
    LLVMBool loses;
    int i = 0, k;
    if (!c || !LLVMIsAFCmpInst(c)) return 0;
    for (k = 0; k < 2; k++) { /* the multiply on either side, a zero on the other */
        x = LLVMGetOperand(c, (unsigned)k);
        z = LLVMGetOperand(c, (unsigned)(1 - k));
        if (LLVMIsAInstruction(x) && LLVMGetInstructionOpcode(x) == LLVMFMul && LLVMIsAConstantFP(z) && LLVMConstRealGetDouble(z, &loses) == 0.0)
            break;
    }
    while (i < 4 && from[i] != LLVMGetFCmpPredicate(c)) i++;
    if (k == 2 || i == 4) return 0;
    LLVMPositionBuilderBefore(b, in);
    t = LLVMGetOperand(in, 1);
    LLVMSetOperand(in, 0, LLVMBuildFCmp(b, to[i], LLVMGetOperand(c, 0), LLVMGetOperand(c, 1), ""));
    LLVMSetOperand(in, 1, LLVMGetOperand(in, 2));
    LLVMSetOperand(in, 2, t);
    if (!LLVMGetFirstUse(c)) LLVMInstructionEraseFromParent(c); /* it dominates in: never the walk's next */
    return 1;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__pre_emit(gpucompile_job *job) {
    LLVMBuilderRef b;
    LLVMValueRef fn, in, next;
    LLVMBasicBlockRef bb;
    gpucompile_result r = GPUCOMPILE_OK;
    int flattened = 0, hoisted = 0, fields = 0, wide = 0, inverted = 0;
    for (fn = LLVMGetFirstFunction(job->module); fn && !gpucompile_vulkan__is_kernel(job, fn); fn = LLVMGetNextFunction(fn)) {}
    if (!fn) /* else LLVM 22 writes a library module (Linkage), which no Vulkan device loads */
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "the module has no kernel (a compute shader module needs an entry point: "
                                   "a spir_kernel, ptx_kernel or amdgpu_kernel function, or \"hlsl.shader\"=\"compute\"); a library of helpers "
                                   "is compiled with the kernels that call it");
    if (gpucompile_has_pointer_kernels(job->module) && (r = gpucompile_vulkan__lower(job)) != GPUCOMPILE_OK) return r;
    b = LLVMCreateBuilderInContext(job->context);
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
    gpucompile_vulkan__note(job, flattened, "address%s into workgroup memory rebuilt as one "
                            "typed getelementptr (LLVM 22 crashes on the optimizer's byte offsets and constant ones outside the entry block)", "es");
    gpucompile_vulkan__note(job, fields, "push-constant address%s written as typed field "
                            "addresses (the optimizer's byte offsets would need Int64)", "es");
    gpucompile_vulkan__note(job, hoisted, "push-constant load%s moved into the entry block "
                            "(LLVM 22 crashes on them elsewhere)", "s");
    {   /* LLVM 22's SPIR-V structurizer writes merges spirv-val rejects for loops of several exits,
           a loop in a branch of a selection, and blocks its code generator's optimizations merge
           afterwards (darktable's dwt, silx's linalg and histogram, five of pyFAI's): its own
           passes first give it one exit per loop and regions of one entry and one exit, and the
           code generator runs unoptimized (emit_unoptimized): tests/corpus/vulkan.sh counts them.
           Switches become branches first: unify-loop-exits crashes on a switch in a loop, as
           LLVM 22's own structurizer does without it (tests/data/vulkan_cf_switch.cl) */
        LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
        LLVMErrorRef err = LLVMRunPasses(job->module, "lower-switch,fix-irreducible,unify-loop-exits,structurizecfg", NULL, pbo);
        LLVMDisposePassBuilderOptions(pbo);
        if (err) {
            char *msg = LLVMGetErrorMessage(err);
            r = gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM's passes for structured control flow: %s", msg);
            LLVMDisposeErrorMessage(msg);
            return r;
        }
    }
    /* Vulkan-shaped input too (the lowering did its own), and the comparisons lower-switch made */
    gpucompile_vulkan__note(job, gpucompile_lower_narrow(job->module), "64-bit index computation%s or comparison%s done in 32 bits "
                            "(no Int64 where nothing else needs it)", "s");
    gpucompile_vulkan__note(job, gpucompile_lower_expand(job->module), "call%s of llvm.ctlz, cttz, the saturating intrinsics or "
                            "copysign written as plain IR (LLVM 22 selects none of them for a shader)", "s");
    /* the WebGPU backend compiles through this one and refuses what WGSL lacks in its own words */
    if (job->backend == gpucompile_vulkan_backend() && (r = gpucompile_vulkan__check_profile(job)) != GPUCOMPILE_OK) return r;
    b = LLVMCreateBuilderInContext(job->context);
    fields = 0;
    for (in = gpucompile_next_instruction(job->module, NULL); in; in = next) {
        const char *why;
        int a64 = gpucompile_vulkan__atomic64(in);
        next = gpucompile_next_instruction(job->module, in);
        if (gpucompile_vulkan__cas(in, NULL) || (a64 && LLVMIsAAtomicCmpXchgInst(in))) {
            next = gpucompile_vulkan__rewrite_cas(job, b, in);
            if (a64) wide++;
            else fields++;
        } else if (a64) {
            LLVMPositionBuilderBefore(b, in);
            LLVMReplaceAllUsesWith(in, gpucompile_vulkan__rewrite_atomics(job, b, in, a64 - 1));
            LLVMInstructionEraseFromParent(in);
            wide++;
        } else if (gpucompile_vulkan__faceforward(b, in)) {
            inverted++;
        } else if ((why = gpucompile_vulkan__bad_instruction(in)) != NULL) {
            LLVMDisposeBuilder(b);
            return gpucompile_vulkan__refuse(job, in, why);
        }
    }
    LLVMDisposeBuilder(b);
    gpucompile_vulkan__note(job, fields, "cmpxchg%s written as llvm.spv.cmpxchg (LLVM 22 "
                            "crashes on the instruction)", "s");
    gpucompile_vulkan__note(job, wide, "64-bit atomic%s written as marked loads and stores, "
                            "made atomic again after code generation (LLVM 22 never declares Int64Atomics for a shader)", "s");
    gpucompile_vulkan__note(job, inverted, "select%s of a product compared with zero written "
                            "with the inverse comparison (LLVM 22 crashes on its FaceForward of them)", "s");
    if (job->format == GPUCOMPILE_FORMAT_ISA) { /* isa: the module as it is now, whose words finish emits for its repairs */
        if (!(job->backend_data = LLVMWriteBitcodeToMemoryBuffer(job->module))) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "the module cannot be copied");
    }
    return r;
}

/* ==== [section: vulkan repair] ===========================================================
   What LLVM 22 writes wrong, repaired on the module's words (no LLVM), and mirrored on its
   assembly text (format isa: LLVM's text has one line per instruction, in the same order). */

/* Annotations and names: they follow their target, they do not keep it alive. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__weak(uint32_t op) {
    return op == 5 || op == 6 || op == 71 || op == 72 || op == 332 || op == 5632 || op == 5633;
}

/* The words of instruction w[0..wc) that are ids it uses (its result id left out): exact for
   what LLVM writes in the module's header and type section, every word for the rest (a literal
   taken for an id keeps something alive: never the wrong way). Returns their positions. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__uses(const uint32_t *w, uint32_t wc, uint32_t pos[], int max) {
    uint32_t op = gpucompile_spirv_opcode(w[0]), i, from = 1, to = wc;
    int n = 0, rk = gpucompile_spirv_result(op);
    switch (op) {
    case 3: case 4: case 7: case 10: case 11: case 14: case 16: case 17: case 21: case 22: case 330: case 8: case 317:
        return 0;
    case 15: /* OpEntryPoint: model, function, name, interface */
        if (wc > 2) pos[n++] = 2;
        for (from = 3; from < wc && (w[from] >> 24) != 0 && (w[from] & 0xff0000) && (w[from] & 0xff00) && (w[from] & 0xff); from++) {}
        from++;
        break;
    case 12: /* OpExtInst: type, result, set, the instruction's number (a literal: GLSL.std.450's 80 kept %80 alive), operands */
        if (wc > 1) pos[n++] = 1;
        if (wc > 3) pos[n++] = 3;
        from = 5;
        break;
    case 23: to = wc > 3 ? 3 : wc; break;                 /* OpTypeVector: component type, count */
    case 32: from = 3; break;                             /* OpTypePointer: storage class, type */
    case 59: to = wc > 3 ? 3 : wc; from = 1;              /* OpVariable: type, result, class, [init] */
        if (wc > 4 && n < max) pos[n++] = 4;
        break;
    case 43: case 50: to = wc > 2 ? 2 : wc; break;        /* OpConstant, OpSpecConstant: type, result, literal */
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

/* An instruction put in after instruction `after` (its words, the first one's count at most 10). */
typedef struct gpucompile_vulkan__insert { size_t after; uint32_t w[10]; } gpucompile_vulkan__insert;
#define GPUCOMPILE_VULKAN__MAX_INSERTS 8192

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
    gpucompile_vulkan__insert *ins; /* GPUCOMPILE_VULKAN__MAX_INSERTS */
    int nins;
} gpucompile_vulkan__mod;

#define GPUCOMPILE_VULKAN__OP(m, i) gpucompile_spirv_opcode((m)->w[(m)->at[i]])
#define GPUCOMPILE_VULKAN__WC(m, i) gpucompile_spirv_count((m)->w[(m)->at[i]])

GPUCOMPILE_PRIVATE void gpucompile_vulkan__count(gpucompile_vulkan__mod *m, size_t i, int delta) {
    uint32_t pos[64];
    const uint32_t *w = m->w + m->at[i];
    int k, n;
    if (gpucompile_vulkan__weak(GPUCOMPILE_VULKAN__OP(m, i))) return;
    n = gpucompile_vulkan__uses(w, GPUCOMPILE_VULKAN__WC(m, i), pos, 64);
    if (n == 64) { /* a long instruction: every word */
        for (k = 1; k < (int)GPUCOMPILE_VULKAN__WC(m, i); k++)
            if (w[k] < m->w[3]) m->used[w[k]] += (uint32_t)delta;
        return;
    }
    for (k = 0; k < n; k++)
        if (w[pos[k]] < m->w[3]) m->used[w[pos[k]]] += (uint32_t)delta;
}

/* Reads the words: every instruction's word count fits, the header is SPIR-V's. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__read(gpucompile_vulkan__mod *m, const void *data, size_t size) {
    size_t bound, k = 0;
    int relabeled;
    gpucompile_spirv_inst it;
    gpucompile_job *job = m->job;
    if (size < 20 || size % 4) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote no SPIR-V module (%lu bytes)", (unsigned long)size);
    m->n = size / 4;
    m->w = (uint32_t *)gpucompile_job_alloc(job, size + 4 * 4 * 16);
    m->orig = (uint32_t *)gpucompile_job_alloc(job, size);
    if (!m->w || !m->orig) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memcpy(m->w, data, size);
    memcpy(m->orig, data, size);
    bound = m->w[3];
    if (m->w[0] != GPUCOMPILE_SPIRV_MAGIC || bound > 0x1000000) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote no SPIR-V module");
    if ((relabeled = gpucompile_spirv_relabel(m->w, m->n)) < 0) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, GPUCOMPILE_SPIRV_RELABEL_FAILED);
    if (relabeled)
        gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", GPUCOMPILE_SPIRV_RELABELED, relabeled);
    bound = m->w[3];
    for (gpucompile_spirv_begin(&it, m->w, size); gpucompile_spirv_next(&it);) k++;
    if (it.bad) return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM wrote a malformed SPIR-V module");
    m->count = k;
    m->at = (size_t *)gpucompile_job_alloc(job, (k + 1) * sizeof *m->at);
    m->del = (unsigned char *)gpucompile_job_alloc(job, 2 * (k + 1));
    m->def = (size_t *)gpucompile_job_alloc(job, (bound + 32) * sizeof *m->def);
    m->used = (uint32_t *)gpucompile_job_alloc(job, (bound + 32) * sizeof *m->used);
    m->ins = (gpucompile_vulkan__insert *)gpucompile_job_alloc(job, GPUCOMPILE_VULKAN__MAX_INSERTS * sizeof *m->ins);
    if (!m->at || !m->del || !m->def || !m->used || !m->ins) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    m->changed = m->del + k + 1;
    memset(m->del, 0, 2 * (k + 1));
    memset(m->def, 0, (bound + 32) * sizeof *m->def);
    memset(m->used, 0, (bound + 32) * sizeof *m->used);
    for (gpucompile_spirv_begin(&it, m->w, size), k = 0; gpucompile_spirv_next(&it); k++) {
        int rk = gpucompile_spirv_result(it.op);
        m->at[k] = it.at;
        if (rk && it.wc > (size_t)rk && m->w[it.at + (size_t)rk] < bound) m->def[m->w[it.at + (size_t)rk]] = k + 1;
    }
    for (k = 0; k < m->count; k++) gpucompile_vulkan__count(m, k, 1);
    return GPUCOMPILE_OK;
}

/* The instruction that defines id, or (size_t)-1. */
GPUCOMPILE_PRIVATE size_t gpucompile_vulkan__def(const gpucompile_vulkan__mod *m, uint32_t id) {
    return id < m->w[3] && m->def[id] && !m->del[m->def[id] - 1] ? m->def[id] - 1 : (size_t)-1;
}

GPUCOMPILE_PRIVATE void gpucompile_vulkan__delete(gpucompile_vulkan__mod *m, size_t i) {
    if (m->del[i]) return;
    gpucompile_vulkan__count(m, i, -1);
    m->del[i] = 1;
}

/* A new instruction after instruction `after` (its words to fill), or NULL when there are too many. */
GPUCOMPILE_PRIVATE gpucompile_vulkan__insert *gpucompile_vulkan__insert_at(gpucompile_vulkan__mod *m, size_t after) {
    gpucompile_vulkan__insert *x;
    if (m->nins == GPUCOMPILE_VULKAN__MAX_INSERTS) return NULL;
    x = &m->ins[m->nins++];
    memset(x, 0, sizeof *x);
    x->after = after;
    return x;
}

/* An OpConstant of type type and value v: one already there, or a new one after instruction after. */
GPUCOMPILE_PRIVATE uint32_t gpucompile_vulkan__constant(gpucompile_vulkan__mod *m, uint32_t type, uint32_t v, size_t after) {
    size_t i;
    gpucompile_vulkan__insert *x;
    for (i = 0; i < m->count; i++)
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CONSTANT && GPUCOMPILE_VULKAN__WC(m, i) == 4 &&
            m->w[m->at[i] + 1] == type && m->w[m->at[i] + 3] == v)
            return m->w[m->at[i] + 2];
    for (i = 0; i < (size_t)m->nins; i++)
        if (m->ins[i].w[0] == gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_CONSTANT, 4) && m->ins[i].w[1] == type && m->ins[i].w[3] == v) return m->ins[i].w[2];
    if (!(x = gpucompile_vulkan__insert_at(m, after))) return 0;
    x->w[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_CONSTANT, 4);
    x->w[1] = type;
    x->w[2] = m->w[3]++; /* a new id */
    x->w[3] = v;
    return x->w[2];
}

/* Sets word k of instruction i to id (its old id's count goes down, the new one's up). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__set(gpucompile_vulkan__mod *m, size_t i, size_t k, uint32_t id) {
    gpucompile_vulkan__count(m, i, -1);
    m->w[m->at[i] + k] = id;
    gpucompile_vulkan__count(m, i, 1);
    m->changed[i] = 1;
}

/* OpControlBarrier's semantics without a storage class (LLVM 22 writes 0x10 for
   llvm.spv.group.memory.barrier.with.group.sync): AcquireRelease | UniformMemory |
   WorkgroupMemory (0x148), or workgroup memory is not made visible (wrong reductions). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_barriers(gpucompile_vulkan__mod *m) {
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

/* How many branches and merges of the module name label id. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__label_refs(const gpucompile_vulkan__mod *m, uint32_t id) {
    size_t i;
    uint32_t k;
    int n = 0;
    for (i = 0; i < m->count; i++) {
        uint32_t op = GPUCOMPILE_VULKAN__OP(m, i);
        if (m->del[i] || op < GPUCOMPILE_VULKAN__OP_LOOP_MERGE || op > 251 /* OpSwitch */ || op == GPUCOMPILE_VULKAN__OP_LABEL) continue;
        for (k = 1; k < GPUCOMPILE_VULKAN__WC(m, i); k++) n += m->w[m->at[i] + k] == id;
    }
    return n;
}

/* A loop's exit taken beside its continue target: LLVM 22 ends a body block (B) whose one
   successor is the loop's continue target (C, a block of one OpBranch back to the header) with
   `OpBranchConditional %x Merge C`, as structurizecfg leaves every loop that breaks. Mesa's
   lavapipe (22.3) runs such a loop on past the break (a search by break finds nothing:
   tests/data/vulkan_cf_nested_break.cl); the same exit taken from the continue target, the
   do-while form, runs right. B then branches to C, and C takes B's condition back to the
   header; phis of the merge block name C for B. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_latches(gpucompile_vulkan__mod *m) {
    size_t i, c, b, h, p;
    int fixed = 0;
    for (i = 0; i < m->count; i++) {
        uint32_t merge, cont, head, from, k, *t;
        gpucompile_vulkan__insert *x, *y;
        if (m->del[i] || GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_LOOP_MERGE) continue;
        merge = m->w[m->at[i] + 1];
        cont = m->w[m->at[i] + 2];
        for (h = i; h > 0 && GPUCOMPILE_VULKAN__OP(m, h) != GPUCOMPILE_VULKAN__OP_LABEL; h--) {}
        head = m->w[m->at[h] + 1];
        c = gpucompile_vulkan__def(m, cont);
        if (c == (size_t)-1 || c + 1 >= m->count || GPUCOMPILE_VULKAN__OP(m, c + 1) != GPUCOMPILE_VULKAN__OP_BRANCH ||
            m->w[m->at[c + 1] + 1] != head || gpucompile_vulkan__label_refs(m, cont) != 2) /* the loop merge and B */
            continue;
        for (b = 0; b < m->count; b++) { /* B: the branch to C */
            t = m->w + m->at[b];
            if (!m->del[b] && GPUCOMPILE_VULKAN__OP(m, b) == GPUCOMPILE_VULKAN__OP_BRANCH_CONDITIONAL &&
                ((t[2] == merge && t[3] == cont) || (t[2] == cont && t[3] == merge)))
                break;
        }
        if (b == m->count || b <= h + 1 || GPUCOMPILE_VULKAN__OP(m, b - 1) == GPUCOMPILE_VULKAN__OP_SELECTION_MERGE ||
            GPUCOMPILE_VULKAN__OP(m, b - 1) == GPUCOMPILE_VULKAN__OP_LOOP_MERGE || m->nins + 2 > GPUCOMPILE_VULKAN__MAX_INSERTS)
            continue;
        x = gpucompile_vulkan__insert_at(m, b);
        y = gpucompile_vulkan__insert_at(m, c + 1);
        t = m->w + m->at[b];
        memcpy(y->w, t, GPUCOMPILE_VULKAN__WC(m, b) * 4); /* C: B's condition, weights and all, back to the header */
        y->w[t[2] == cont ? 2 : 3] = head;
        x->w[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_BRANCH, 2);
        x->w[1] = cont;
        for (p = b; p > 0 && GPUCOMPILE_VULKAN__OP(m, p) != GPUCOMPILE_VULKAN__OP_LABEL; p--) {}
        from = m->w[m->at[p] + 1];
        gpucompile_vulkan__delete(m, b);
        gpucompile_vulkan__delete(m, c + 1);
        for (p = gpucompile_vulkan__def(m, merge) + 1; p < m->count && GPUCOMPILE_VULKAN__OP(m, p) == GPUCOMPILE_VULKAN__OP_PHI; p++)
            for (k = 4; k < GPUCOMPILE_VULKAN__WC(m, p); k += 2)
                if (m->w[m->at[p] + k] == from) gpucompile_vulkan__set(m, p, k, cont);
        fixed++;
    }
    return fixed;
}

/* monotonic atomics: LLVM 22 writes a 32-bit OpConstantNull for the scope and semantics, and
   the access chain to the element then indexes a struct with it (spirv-val refuses). A
   struct index and semantics become the constant 0, a memory scope Device (1), an execution
   scope Workgroup (2). */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_nulls(gpucompile_vulkan__mod *m) {
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

/* Instruction i's words from w (as many as it has), its ids' counts kept. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__rewrite(gpucompile_vulkan__mod *m, size_t i, const uint32_t *w) {
    gpucompile_vulkan__count(m, i, -1);
    memcpy(m->w + m->at[i], w, GPUCOMPILE_VULKAN__WC(m, i) * sizeof *w);
    gpucompile_vulkan__count(m, i, 1);
    m->changed[i] = 1;
}

/* llvm.spv.cmpxchg (gpucompile_vulkan__rewrite_cas): LLVM 22 writes OpAtomicCompareExchange's old
   value, success = OpIEqual of it and the comparator, and then the call's result as two
   OpCompositeInsert of them typed as old's scalar type (spirv-val refuses). Each insert becomes
   OpSelect success old old: the result is old, as the IR reads it. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_cas(gpucompile_vulkan__mod *m) {
    size_t i, k;
    int fixed = 0;
    for (i = 0; i < m->count; i++) {
        const uint32_t *a = m->w + m->at[i];
        uint32_t eq = 0, old = a[2], w[6], index;
        if (m->del[i] || GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_ATOMIC_COMPARE_EXCHANGE || GPUCOMPILE_VULKAN__WC(m, i) != 9) continue;
        for (k = i + 1; k < m->count && GPUCOMPILE_VULKAN__OP(m, k) != GPUCOMPILE_VULKAN__OP_FUNCTION_END; k++) {
            const uint32_t *x = m->w + m->at[k];
            if (m->del[k]) continue;
            if (GPUCOMPILE_VULKAN__OP(m, k) == GPUCOMPILE_VULKAN__OP_IEQUAL && GPUCOMPILE_VULKAN__WC(m, k) == 5 && x[3] == a[2] && x[4] == a[8])
                eq = x[2];
            if (!eq || GPUCOMPILE_VULKAN__OP(m, k) != GPUCOMPILE_VULKAN__OP_COMPOSITE_INSERT || GPUCOMPILE_VULKAN__WC(m, k) != 6 || x[1] != a[1] ||
                (index = x[5]) > 1 || x[3 + index] != old)
                continue;
            w[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_SELECT, 6);
            w[1] = x[1];
            w[2] = x[2];
            w[3] = eq;
            w[4] = w[5] = old;
            old = x[2];
            gpucompile_vulkan__rewrite(m, k, w);
            if (index == 1) break; /* the second: done */
        }
        fixed += old != a[2];
    }
    return fixed;
}

/* gpucompile_vulkan__rewrite_atomics' marked loads and stores, the 64-bit atomics they stand for
   again: the load becomes the atomic (its result the old value; scope Device and semantics
   SequentiallyConsistent, as LLVM 22 writes its 32-bit ones; cmpxchg's relaxed, as
   gpucompile_vulkan__rewrite_cas'), its stores go, and the module declares Int64Atomics. The number
   made; -1 when a marked load has not its stores after it. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_atomic64(gpucompile_vulkan__mod *m) {
    size_t i, j, last_cap = 0;
    uint32_t uint_t = 0, has = 0, mark;
    int made = 0;
    for (i = 0; i < m->count; i++) {
        const uint32_t *a = m->w + m->at[i];
        if (GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY) {
            last_cap = i;
            has |= a[1] == 12; /* Int64Atomics */
        }
        if (GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_TYPE_INT && a[2] == 32 && a[3] == 0 && !uint_t) uint_t = a[1];
    }
    for (i = 0; i < m->count; i++) {
        const uint32_t *a = m->w + m->at[i];
        uint32_t k, val = 0, cmp = 0, scope, sem;
        gpucompile_vulkan__insert *x;
        if (m->del[i] || GPUCOMPILE_VULKAN__OP(m, i) != 61 || GPUCOMPILE_VULKAN__WC(m, i) != 6 || a[4] != 3) continue; /* OpLoad Volatile|Aligned */
        for (k = 0; k <= GPUCOMPILE_VULKAN__A64_CAS && a[5] != 1u << (GPUCOMPILE_VULKAN__A64 + k); k++) {}
        if (k > GPUCOMPILE_VULKAN__A64_CAS) continue;
        for (j = i + 1; j < m->count && GPUCOMPILE_VULKAN__OP(m, j) != GPUCOMPILE_VULKAN__OP_FUNCTION_END && !val; j++) {
            const uint32_t *st = m->w + m->at[j];
            if (m->del[j] || GPUCOMPILE_VULKAN__OP(m, j) != 62 || GPUCOMPILE_VULKAN__WC(m, j) != 5 || st[1] != a[3] || st[3] != 3) continue;
            mark = st[4];
            if (mark == 1u << (GPUCOMPILE_VULKAN__A64 + k)) val = st[2];
            else if (k == GPUCOMPILE_VULKAN__A64_CAS && mark == 1u << (GPUCOMPILE_VULKAN__A64 + k + 1)) cmp = st[2];
            else continue;
            gpucompile_vulkan__delete(m, j);
        }
        if (!val || (k == GPUCOMPILE_VULKAN__A64_CAS && !cmp) || !uint_t) return -1;
        scope = gpucompile_vulkan__constant(m, uint_t, 1, gpucompile_vulkan__def(m, uint_t));
        sem = gpucompile_vulkan__constant(m, uint_t, k == GPUCOMPILE_VULKAN__A64_CAS ? 0 : 16, gpucompile_vulkan__def(m, uint_t));
        if (!scope || !sem || !(x = gpucompile_vulkan__insert_at(m, i))) return -1;
        x->w[0] = gpucompile_spirv_first(gpucompile_vulkan__a64_ops[k], k == GPUCOMPILE_VULKAN__A64_CAS ? 9 : 7);
        x->w[1] = a[1];
        x->w[2] = a[2];
        x->w[3] = a[3];
        x->w[4] = scope;
        x->w[5] = x->w[6] = sem;
        if (k == GPUCOMPILE_VULKAN__A64_CAS) {
            x->w[7] = val;
            x->w[8] = cmp;
        } else x->w[6] = val;
        gpucompile_vulkan__delete(m, i);
        made++;
    }
    if (made && !has) {
        gpucompile_vulkan__insert *x = gpucompile_vulkan__insert_at(m, last_cap);
        if (!x) return -1;
        x->w[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_CAPABILITY, 2);
        x->w[1] = 12;
    }
    return made;
}

/* The names and decorations of what went. */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__drop_names(gpucompile_vulkan__mod *m) {
    size_t i;
    for (i = 0; i < m->count; i++)
        if (!m->del[i] && gpucompile_vulkan__weak(GPUCOMPILE_VULKAN__OP(m, i)) && GPUCOMPILE_VULKAN__WC(m, i) > 1) {
            uint32_t t = m->w[m->at[i] + 1];
            if (t < m->w[3] && m->def[t] && m->del[m->def[t] - 1]) m->del[i] = 1;
        }
}

/* Images (gpucompile_lower.h's image_* names): LLVM 22 reads and writes an image at an i32 index
   only and has no sampling or size query for a shader, so the lowering calls two functions it
   declares: GPUCOMPILE_VULKAN__IMAGE_COORDINATE (the coordinate vector) -> i32, whose result is
   the index, and GPUCOMPILE_VULKAN__IMAGE_SIZE (<N x i32> poison) -> i32, an index that makes the
   read a size query. LLVM writes them as OpFunctionCall of imported functions; here each
   OpImageRead / OpImageFetch / OpImageWrite gets its coordinate back, a read through an image
   and sampler (OpTypeSampledImage: LLVM's OpImageRead or OpImageFetch of it is invalid) becomes
   OpImageSampleExplicitLod at level 0, a size query OpImageQuerySize (a storage image) or
   OpImageQuerySizeLod of level 0, its N sizes the first lanes of the read's four; the calls and
   functions go, and Linkage, which only they needed (and StorageImageReadWithoutFormat where
   only size queries were reads). Returns the instructions made, -1 when
   there are more than the inserts hold. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_images(gpucompile_vulkan__mod *m) {
    uint32_t fns[16], kinds[16], *arg, *kind, imagequery = 0, uint_t = 0, v4uint = 0;
    int nfn = 0, made = 0, k;
    size_t i, j, first_cap = (size_t)-1;
    for (i = 0; i < m->count; i++) { /* the functions: by their LinkageAttributes (41) */
        const uint32_t *w = m->w + m->at[i];
        const char *name = (const char *)(w + 3);
        size_t pl = strlen(GPUCOMPILE_VULKAN__IMAGE_PREFIX);
        if (GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY && first_cap == (size_t)-1) first_cap = i;
        if (GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY && w[1] == 50) imagequery = 1;
        if (GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_DECORATE || GPUCOMPILE_VULKAN__WC(m, i) < 4 + pl / 4 || w[2] != 41 ||
            strncmp(name, GPUCOMPILE_VULKAN__IMAGE_PREFIX, pl) != 0 || nfn == 16)
            continue;
        fns[nfn] = w[1];
        kinds[nfn++] = strncmp(name, GPUCOMPILE_VULKAN__IMAGE_SIZE, strlen(GPUCOMPILE_VULKAN__IMAGE_SIZE)) == 0 ? 2 : 1;
    }
    if (!nfn) return 0;
    arg = (uint32_t *)gpucompile_job_alloc(m->job, 2 * (size_t)(m->w[3] + 1) * sizeof *arg);
    if (!arg) return -1;
    kind = arg + m->w[3] + 1;
    memset(arg, 0, 2 * (size_t)(m->w[3] + 1) * sizeof *arg);
    for (i = 0; i < m->count; i++) { /* the calls: result -> argument */
        const uint32_t *w = m->w + m->at[i];
        if (GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_FUNCTION_CALL || GPUCOMPILE_VULKAN__WC(m, i) != 5 || w[2] > m->w[3]) continue;
        for (k = 0; k < nfn && fns[k] != w[3]; k++) {}
        if (k == nfn) continue;
        arg[w[2]] = w[4];
        kind[w[2]] = kinds[k];
        uint_t = w[1]; /* the functions return a 32-bit integer */
        gpucompile_vulkan__delete(m, i);
    }
    for (i = 0; i < m->count; i++) /* four of them: a size query's lanes */
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_TYPE_VECTOR && m->w[m->at[i] + 2] == uint_t && m->w[m->at[i] + 3] == 4)
            v4uint = m->w[m->at[i] + 1];
    for (i = 0; i < m->count; i++) {
        const uint32_t *w = m->w + m->at[i];
        uint32_t op = GPUCOMPILE_VULKAN__OP(m, i), at = op == GPUCOMPILE_VULKAN__OP_IMAGE_WRITE ? 2 : 4, c, t = 0;
        size_t d, ti;
        gpucompile_vulkan__insert *x, *y;
        if (m->del[i] || (op != GPUCOMPILE_VULKAN__OP_IMAGE_READ && op != GPUCOMPILE_VULKAN__OP_IMAGE_FETCH && op != GPUCOMPILE_VULKAN__OP_IMAGE_WRITE) ||
            GPUCOMPILE_VULKAN__WC(m, i) <= at || (c = w[at]) > m->w[3] || !kind[c])
            continue;
        d = gpucompile_vulkan__def(m, w[at - 1]); /* the image: an OpLoad of its variable */
        ti = d == (size_t)-1 ? d : gpucompile_vulkan__def(m, m->w[m->at[d] + 1]);
        if (ti != (size_t)-1) t = GPUCOMPILE_VULKAN__OP(m, ti);
        if (kind[c] == 1 && !(op != GPUCOMPILE_VULKAN__OP_IMAGE_WRITE && t == GPUCOMPILE_VULKAN__OP_TYPE_SAMPLED_IMAGE)) {
            gpucompile_vulkan__set(m, i, at, arg[c]);
            continue;
        }
        if (op == GPUCOMPILE_VULKAN__OP_IMAGE_WRITE || ti == (size_t)-1) continue;
        if (!(x = gpucompile_vulkan__insert_at(m, i))) return -1;
        if (kind[c] == 1) { /* sampled: OpImageSampleExplicitLod type result sampled-image coordinate Lod 0.0 */
            size_t ct = gpucompile_vulkan__def(m, arg[c]), vt;
            uint32_t ft = ct == (size_t)-1 ? 0 : m->w[m->at[ct] + 1];
            vt = gpucompile_vulkan__def(m, ft);
            if (vt != (size_t)-1 && GPUCOMPILE_VULKAN__OP(m, vt) == GPUCOMPILE_VULKAN__OP_TYPE_VECTOR) ft = m->w[m->at[vt] + 2];
            x->w[0] = gpucompile_spirv_first(88, 7);
            x->w[1] = w[1];
            x->w[2] = w[2];
            x->w[3] = w[3];
            x->w[4] = arg[c];
            x->w[5] = 2; /* Lod */
            if (!(x->w[6] = gpucompile_vulkan__constant(m, ft, 0, gpucompile_vulkan__def(m, ft)))) return -1;
        } else { /* a size query: the first N lanes of the read's result (its bits, a float image's) */
            size_t at_def = gpucompile_vulkan__def(m, arg[c]);
            uint32_t vn = at_def == (size_t)-1 ? 0 : m->w[m->at[at_def] + 1], n = 1, q = m->w[3]++, lanes = w[1] == v4uint ? w[2] : m->w[3]++;
            size_t vd = gpucompile_vulkan__def(m, vn);
            if (vd != (size_t)-1 && GPUCOMPILE_VULKAN__OP(m, vd) == GPUCOMPILE_VULKAN__OP_TYPE_VECTOR) n = m->w[m->at[vd] + 3];
            if (t == GPUCOMPILE_VULKAN__OP_TYPE_SAMPLED_IMAGE || !v4uint) continue; /* the lowering queries images of their own, as integers */
            x->w[1] = vn;
            x->w[2] = q;
            x->w[3] = w[3];
            if (m->w[m->at[ti] + 7] == 2) x->w[0] = gpucompile_spirv_first(104, 4); /* a storage image */
            else {
                x->w[0] = gpucompile_spirv_first(103, 5);
                if (!(x->w[4] = gpucompile_vulkan__constant(m, uint_t, 0, gpucompile_vulkan__def(m, uint_t)))) return -1;
            }
            if (!(y = gpucompile_vulkan__insert_at(m, i))) return -1;
            y->w[1] = v4uint;
            y->w[2] = lanes;
            if (n == 1) {
                y->w[0] = gpucompile_spirv_first(80, 7); /* OpCompositeConstruct: q four times */
                for (j = 3; j < 7; j++) y->w[j] = q;
            } else {
                y->w[0] = gpucompile_spirv_first(79, 9); /* OpVectorShuffle q q: its lanes, then lane 0 */
                y->w[3] = y->w[4] = q;
                for (j = 0; j < 4; j++) y->w[5 + j] = j < n ? (uint32_t)j : 0;
            }
            if (lanes != w[2]) { /* as the read's type */
                if (!(y = gpucompile_vulkan__insert_at(m, i))) return -1;
                y->w[0] = gpucompile_spirv_first(124, 4); /* OpBitcast */
                y->w[1] = w[1];
                y->w[2] = w[2];
                y->w[3] = lanes;
            }
            if (!imagequery && first_cap != (size_t)-1) {
                gpucompile_vulkan__insert *cap = gpucompile_vulkan__insert_at(m, first_cap);
                if (!cap) return -1;
                cap->w[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_CAPABILITY, 2);
                cap->w[1] = 50; /* ImageQuery */
                imagequery = 1;
            }
        }
        gpucompile_vulkan__delete(m, i);
        made++;
    }
    for (i = 0; i < m->count; i++) { /* the functions */
        const uint32_t *w = m->w + m->at[i];
        if (GPUCOMPILE_VULKAN__OP(m, i) != GPUCOMPILE_VULKAN__OP_FUNCTION) continue;
        for (k = 0; k < nfn && fns[k] != w[2]; k++) {}
        if (k == nfn) continue;
        for (j = i; j < m->count; j++) {
            int end = GPUCOMPILE_VULKAN__OP(m, j) == GPUCOMPILE_VULKAN__OP_FUNCTION_END;
            gpucompile_vulkan__delete(m, j);
            if (end) break;
        }
    }
    gpucompile_vulkan__drop_names(m);
    for (k = 0, i = 0; i < m->count; i++) /* StorageImageReadWithoutFormat, when the reads LLVM wrote it for were size queries */
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_IMAGE_READ) k = 1;
    for (i = 0; i < m->count && !k; i++)
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY && m->w[m->at[i] + 1] == 55) m->del[i] = 1;
    for (k = 0, i = 0; i < m->count; i++) /* Linkage, when nothing else is linked */
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_DECORATE && m->w[m->at[i] + 2] == 41) k = 1;
    for (i = 0; i < m->count && !k; i++)
        if (!m->del[i] && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CAPABILITY && m->w[m->at[i] + 1] == 5) m->del[i] = 1;
    gpucompile_job_free(m->job, arg);
    return made + 1;
}

/* Every resource's name string (llvm.spv.resource.handlefrombinding's last argument) stays in
   the module as an unused Function variable of i8s, and declares Int8. They go, with the
   constants and types only they used, and Int8 when nothing else has an 8-bit integer. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__fix_names(gpucompile_vulkan__mod *m, int *int8) {
    uint32_t *work, pos[64];
    size_t i, nwork = 0, cap = m->count + 1;
    int removed = 0, k, n;
    *int8 = 0;
    if (!(work = (uint32_t *)gpucompile_job_alloc(m->job, cap * 4 * sizeof *work))) return -1;
    for (i = 0; i < m->count; i++) {
        size_t p, a, e;
        const uint32_t *w = m->w + m->at[i];
        /* an unused Function variable of i8s, or such a string alone (LLVM 22 leaves some without their variable) */
        int var = GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_VARIABLE && GPUCOMPILE_VULKAN__WC(m, i) == 5 && w[3] == GPUCOMPILE_VULKAN__SC_FUNCTION;
        int str = GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_CONSTANT_COMPOSITE && GPUCOMPILE_VULKAN__WC(m, i) >= 3;
        if (m->del[i] || !(var || str) || m->used[w[2]]) continue;
        p = var ? gpucompile_vulkan__def(m, w[1]) : (size_t)-1;
        a = var ? (p == (size_t)-1 ? p : gpucompile_vulkan__def(m, m->w[m->at[p] + 3])) : gpucompile_vulkan__def(m, w[1]);
        e = a == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, a) != GPUCOMPILE_VULKAN__OP_TYPE_ARRAY ? (size_t)-1 : gpucompile_vulkan__def(m, m->w[m->at[a] + 2]);
        if (e == (size_t)-1 || GPUCOMPILE_VULKAN__OP(m, e) != GPUCOMPILE_VULKAN__OP_TYPE_INT || m->w[m->at[e] + 2] != 8) continue;
        gpucompile_vulkan__delete(m, i);
        removed++;
        if (var) {
            work[nwork++] = w[1];
            work[nwork++] = w[4];
        } else {
            uint32_t k;
            for (k = 1; k < GPUCOMPILE_VULKAN__WC(m, i) && nwork < cap * 4; k++) if (k != 2) work[nwork++] = w[k];
        }
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
    gpucompile_vulkan__drop_names(m);
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
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__check_env(gpucompile_vulkan__mod *m) {
    size_t i;
    for (i = 0; i < m->count; i++) {
        const uint32_t *w = m->w + m->at[i];
        uint32_t op = GPUCOMPILE_VULKAN__OP(m, i), wc = GPUCOMPILE_VULKAN__WC(m, i);
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

/* The inserts in the order they go in: by the instruction they follow, those after one
   instruction in the order they were made (an insertion sort: most come in order). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__order_inserts(gpucompile_vulkan__mod *m) {
    int k, j;
    for (k = 1; k < m->nins; k++) {
        gpucompile_vulkan__insert x = m->ins[k];
        for (j = k; j > 0 && m->ins[j - 1].after > x.after; j--) m->ins[j] = m->ins[j - 1];
        m->ins[j] = x;
    }
}

/* The repaired words, header's bound updated, into *out (job memory). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__words(gpucompile_vulkan__mod *m, unsigned char **out, size_t *size) {
    uint32_t *o = (uint32_t *)gpucompile_job_alloc(m->job, (m->n + 10 * (size_t)m->nins) * 4);
    size_t i, n = 5;
    int k = 0;
    if (!o) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    memcpy(o, m->w, 5 * 4);
    gpucompile_vulkan__order_inserts(m);
    for (i = 0; i < m->count; i++) {
        if (!m->del[i]) {
            memcpy(o + n, m->w + m->at[i], GPUCOMPILE_VULKAN__WC(m, i) * 4);
            n += GPUCOMPILE_VULKAN__WC(m, i);
        }
        for (; k < m->nins && m->ins[k].after == i; k++) {
            memcpy(o + n, m->ins[k].w, gpucompile_spirv_count(m->ins[k].w[0]) * 4);
            n += gpucompile_spirv_count(m->ins[k].w[0]);
        }
    }
    *out = (unsigned char *)o;
    *size = n * 4;
    return GPUCOMPILE_OK;
}

/* An instruction the repairs put in, as assembly text (the few kinds they make). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__print(gpucompile_buf *b, const uint32_t *w) {
    static const struct { uint32_t op; const char *name; uint32_t literal; } ops[] = { /* literal: the first word that is no id */
        {229, "OpAtomicExchange", 99}, {230, "OpAtomicCompareExchange", 99}, {234, "OpAtomicIAdd", 99}, {235, "OpAtomicISub", 99},
        {236, "OpAtomicSMin", 99}, {237, "OpAtomicUMin", 99}, {238, "OpAtomicSMax", 99}, {239, "OpAtomicUMax", 99}, {240, "OpAtomicAnd", 99},
        {241, "OpAtomicOr", 99}, {242, "OpAtomicXor", 99}, {17, "OpCapability", 1}, {43, "OpConstant", 3}, {79, "OpVectorShuffle", 5}, {80, "OpCompositeConstruct", 99},
        {88, "OpImageSampleExplicitLod", 99}, {103, "OpImageQuerySizeLod", 99}, {104, "OpImageQuerySize", 99}, {124, "OpBitcast", 99},
        {249, "OpBranch", 99}, {250, "OpBranchConditional", 4}};
    uint32_t op = gpucompile_spirv_opcode(w[0]), wc = gpucompile_spirv_count(w[0]), j, k = 0;
    int rk = gpucompile_spirv_result(op);
    while (k + 1 < sizeof ops / sizeof ops[0] && ops[k].op != op) k++;
    gpucompile_buf_str(b, "\t");
    if (rk) gpucompile_buf_printf(b, "%%%u = ", w[rk]);
    gpucompile_buf_str(b, ops[k].name);
    for (j = 1; j < wc; j++) {
        if (rk && j == (uint32_t)rk) continue;
        if (op == 17) gpucompile_buf_printf(b, " %s", gpucompile_vulkan__cap_name(w[j]) ? gpucompile_vulkan__cap_name(w[j]) : "?");
        else if (op == 88 && j == 5) gpucompile_buf_str(b, " Lod");
        else gpucompile_buf_printf(b, j >= ops[k].literal ? " %u" : " %%%u", w[j]);
    }
    gpucompile_buf_str(b, "\n");
}

/* The assembly text with the same changes: LLVM's lines, one per instruction in order (comment
   and empty lines aside); a changed one is written again from its tokens, the changed ids put in. */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__text(gpucompile_vulkan__mod *m, const char *text, size_t len, unsigned char **out, size_t *size) {
    gpucompile_buf b;
    size_t i = 0, p = 0;
    int k = 0;
    memset(&b, 0, sizeof b);
    b.a = &m->job->options->allocator;
    gpucompile_vulkan__order_inserts(m);
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
                int rk = gpucompile_spirv_result(GPUCOMPILE_VULKAN__OP(m, i));
                uint32_t wc = GPUCOMPILE_VULKAN__WC(m, i), j, ntok = 0;
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
                for (j = 0; j < skip; j++)
                    if (j + 1 == skip && GPUCOMPILE_VULKAN__OP(m, i) == GPUCOMPILE_VULKAN__OP_SELECT && gpucompile_spirv_opcode(ow[0]) != GPUCOMPILE_VULKAN__OP_SELECT)
                        gpucompile_buf_str(&b, "OpSelect "); /* gpucompile_vulkan__fix_cas's */
                    else gpucompile_buf_printf(&b, "%.*s ", (int)tl[j], tok[j]);
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
            for (; k < m->nins && m->ins[k].after == i; k++) gpucompile_vulkan__print(&b, m->ins[k].w);
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

/* MLIR's metadata dictionary entries of a kernel (sorted by name, as the core prints them); the
   scalars as push constants, or as the uniform buffer (has_uniforms). */
GPUCOMPILE_PRIVATE void gpucompile_vulkan__metadata(const gpucompile_vulkan_kernel *k, gpucompile_buf *b) {
    int i;
    if (k->num_bindings) {
        gpucompile_buf_str(b, "bindings = [");
        for (i = 0; i < k->num_bindings; i++) {
            const gpucompile_vulkan_binding *x = &k->bindings[i];
            static const char *const kinds[] = {"sampler", "image_sampler", "sampled_image", "storage_image"}, *const dims[] = {"1D", "2D", "3D", "Cube", "Rect", "Buffer"};
            gpucompile_buf_printf(b, "%s{binding = %u : i32, ", i ? ", " : "", (unsigned)x->binding);
            if (x->descriptor_type <= 3) /* an image: its dimensionality and kind */
                gpucompile_buf_printf(b, "dim = \"%s%s\", image = \"%s\", ", x->dim < 6 ? dims[x->dim] : "?", x->arrayed ? "Array" : "", kinds[x->descriptor_type]);
            gpucompile_buf_printf(b, "read_only = %s, set = %u : i32, stride = %u : i32}", x->read_only ? "true" : "false", (unsigned)x->set, (unsigned)x->stride);
        }
        gpucompile_buf_str(b, "], ");
    }
    { /* what is set at launch, by SpecId: the sizes (local_size_x=0: the block's x; shared=3/4: an array of
         4-byte elements), then the lowering's other values (work_dim=65536, offset_x=..., groups_x=...) */
        int pass, n;
        for (pass = 0; pass < 2; pass++) {
            for (i = 0, n = 0; i < k->num_launch; i++) {
                const gpucompile_vulkan_launch_value *v = &k->launch[i];
                int size = v->kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE || v->kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED;
                if (size != !pass) continue;
                gpucompile_buf_str(b, n++ ? " " : pass ? "launch_values = \"" : "launch_sizes = \"");
                if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE) gpucompile_buf_printf(b, "local_size_%c=%u", "xyz"[v->arg % 3], (unsigned)v->spec_id);
                else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED) gpucompile_buf_printf(b, "shared=%u/%u", (unsigned)v->spec_id, (unsigned)v->arg);
                else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM) gpucompile_buf_printf(b, "work_dim=%u", (unsigned)v->spec_id);
                else gpucompile_buf_printf(b, "%s_%c=%u", v->kind == GPUCOMPILE_VULKAN_LAUNCH_OFFSET ? "offset" : "groups", "xyz"[v->arg % 3], (unsigned)v->spec_id);
            }
            if (n) gpucompile_buf_str(b, "\", ");
        }
    }
    if (k->num_params) { /* a pointer kernel's parameters in their order (the module's gpucompile.params tokens) */
        gpucompile_buf_str(b, "parameters = \"");
        for (i = 0; i < k->num_params; i++) {
            const gpucompile_vulkan_param *q = &k->params[i];
            if (i) gpucompile_buf_str(b, " ");
            if (q->kind == GPUCOMPILE_VULKAN_PARAM_BINDING) gpucompile_buf_printf(b, "b%u", (unsigned)q->value);
            else if (q->kind == GPUCOMPILE_VULKAN_PARAM_PUSH) gpucompile_buf_printf(b, "p%u:%u", (unsigned)q->value, (unsigned)q->size);
            else if (q->kind == GPUCOMPILE_VULKAN_PARAM_LOCAL) gpucompile_buf_printf(b, "l%u", (unsigned)q->value);
            else if (q->kind == GPUCOMPILE_VULKAN_PARAM_SAMPLER) gpucompile_buf_str(b, "s");
            else if (q->kind == GPUCOMPILE_VULKAN_PARAM_IMAGE) { /* its bindings, as the module's string has them */
                int j, n = 0;
                for (j = 0; j < k->num_bindings; j++) {
                    const gpucompile_vulkan_binding *x = &k->bindings[j];
                    if (x->param != i) continue;
                    gpucompile_buf_printf(b, "%s%u", n++ ? "+" : "i", (unsigned)x->binding);
                    if (x->descriptor_type == 1) gpucompile_buf_printf(b, x->sampler_param < 0 ? ":k%u" : ":s%u", (unsigned)x->sampler_bits);
                }
                if (q->size) gpucompile_buf_printf(b, "%s@%u", n ? "" : "i", (unsigned)q->push);
            } else gpucompile_buf_str(b, "-");
        }
        gpucompile_buf_str(b, "\", ");
    }
    if (k->subgroup_size && k->has_uniforms) gpucompile_buf_printf(b, "subgroup_size = %u : i32, ", (unsigned)k->subgroup_size); /* sorted by name: before uniform_* */
    if (k->num_push) {
        if (!k->has_uniforms) gpucompile_buf_printf(b, "push_constant_bytes = %u : i32, push_constants = [", (unsigned)k->push_size);
        else gpucompile_buf_printf(b, "uniform_binding = %u : i32, uniform_bytes = %u : i32, uniforms = [", (unsigned)k->uniform_binding, (unsigned)k->push_size);
        for (i = 0; i < k->num_push; i++)
            gpucompile_buf_printf(b, "%s{offset = %u : i32, size = %u : i32}", i ? ", " : "", (unsigned)k->push[i].offset, (unsigned)k->push[i].size);
        gpucompile_buf_str(b, "], ");
    }
    if (k->subgroup_size && !k->has_uniforms) gpucompile_buf_printf(b, "subgroup_size = %u : i32, ", (unsigned)k->subgroup_size); /* after push_* */
    gpucompile_buf_printf(b, "workgroup_size = array<i32: %u, %u, %u>", (unsigned)k->local_size[0], (unsigned)k->local_size[1],
                          (unsigned)k->local_size[2]);
}

GPUCOMPILE_DEF gpucompile_result gpucompile_vulkan_reflect_into(gpucompile_object *o, const void *words, size_t size, int add) {
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

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__finish_mod(gpucompile_job *job, gpucompile_format format, gpucompile_vulkan__mod *mp) {
    gpucompile_vulkan__mod m;
    LLVMMemoryBufferRef obj = NULL;
    gpucompile_result r;
    unsigned char *words = NULL;
    size_t nwords = 0;
    int barriers, nulls, names, int8, cas, wide, images, latches;
    if (format == GPUCOMPILE_FORMAT_ISA) { /* the words of the same module (pre_emit's copy), for the repairs: emitted after the
                                              text, from the copy in a context and target machine of its own (LLVM 22's SPIR-V code
                                              generator crashes run twice on one module), so that the text is its process's first
                                              code generation (a later one may reuse a block's id, which the words are mended of and
                                              the text is not) */
        LLVMMemoryBufferRef bc = (LLVMMemoryBufferRef)job->backend_data;
        gpucompile_result r2 = bc ? gpucompile_job_emit_copy(job, bc, LLVMObjectFile, gpucompile_spirv_ids_wrong, 8, &obj)
                                  : gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "no module words for the assembly text");
        if (bc) LLVMDisposeMemoryBuffer(bc);
        job->backend_data = obj;
        if (r2 != GPUCOMPILE_OK) return r2;
    }
    memset(&m, 0, sizeof m);
    m.job = job;
    r = gpucompile_vulkan__read(&m, LLVMGetBufferStart(obj ? obj : job->emitted), LLVMGetBufferSize(obj ? obj : job->emitted));
    *mp = m; /* what read allocated, for finish to free */
    if (r != GPUCOMPILE_OK) return r;
    barriers = gpucompile_vulkan__fix_barriers(&m);
    nulls = gpucompile_vulkan__fix_nulls(&m);
    cas = gpucompile_vulkan__fix_cas(&m);
    if ((images = gpucompile_vulkan__fix_images(&m)) < 0)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_UNSUPPORTED, "more than %d image instructions to write in one module", GPUCOMPILE_VULKAN__MAX_INSERTS / 2);
    if ((names = gpucompile_vulkan__fix_names(&m, &int8)) < 0) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    if ((wide = gpucompile_vulkan__fix_atomic64(&m)) < 0)
        return gpucompile_job_fail(job, GPUCOMPILE_ERROR_LLVM, "LLVM 22 did not write a 64-bit atomic's marked load and stores as they were");
    latches = gpucompile_vulkan__fix_latches(&m);
    gpucompile_vulkan__note(job, barriers, "OpControlBarrier%s given the WorkgroupMemory semantics "
                            "(0x148: AcquireRelease|UniformMemory|WorkgroupMemory; LLVM 22 writes none)", "s");
    gpucompile_vulkan__note(job, nulls, "instruction%s given constants for LLVM 22's "
                            "OpConstantNull (monotonic atomics: scope Device, semantics and struct index 0)", "s");
    gpucompile_vulkan__note(job, cas, "OpAtomicCompareExchange%s result%s made the old value "
                            "again (LLVM 22 writes it as a mistyped { old, success })", "s");
    gpucompile_vulkan__note(job, wide, "64-bit atomic%s made again of marked loads and stores, Int64Atomics declared", "s");
    gpucompile_vulkan__note(job, latches, "loop exit%s taken from the continue target "
                            "(lavapipe runs a loop on past a break beside it)", "s");
    gpucompile_vulkan__note(job, images - 1, "image sampling and size instruction%s written (LLVM 22 has none for shaders)", "s");
    gpucompile_vulkan__note(job, names, int8 < 0 ? "unused resource name string%s removed, and the Int8 capability they alone needed"
                                                 : "unused resource name string%s removed", "s");
    if ((r = gpucompile_vulkan__check_env(&m)) != GPUCOMPILE_OK) return r;
    if ((r = gpucompile_vulkan__words(&m, &words, &nwords)) != GPUCOMPILE_OK) return r;
    if (LLVMGetNamedMetadataNumOperands(job->module, "gpucompile.vulkan.params")) { /* pointer kernels: their parameters' order */
        gpucompile_buf pb;
        memset(&pb, 0, sizeof pb);
        pb.a = &job->options->allocator;
        r = gpucompile_vulkan_mark_params(job->module, words, nwords, &pb);
        gpucompile_job_free(job, words);
        if (r != GPUCOMPILE_OK) {
            gpucompile_free(pb.a, pb.data);
            return gpucompile_job_fail(job, r, r == GPUCOMPILE_ERROR_UNSUPPORTED ? "the scalars' block is above the 128 bytes of push constants every "
                                       "device has and cannot be made a uniform buffer (8- or 16-bit members, or a uniform buffer of its type)"
                                       : "the parameters' order cannot be recorded in the module");
        }
        words = (unsigned char *)pb.data;
        nwords = pb.len;
    } else { /* what gpucompile_vulkan_mark_params does for pointer kernels: each entry point's interface its own variables */
        size_t nw = nwords / 4;
        if (gpucompile_vulkan__own_interfaces((uint32_t *)(void *)words, &nw) != 0) {
            gpucompile_job_free(job, words);
            return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        }
        nwords = nw * 4;
    }
    {
        uint32_t set, binding;
        if (gpucompile_vulkan__uniform_mark((const uint32_t *)(void *)words, nwords / 4, &set, &binding))
            gpucompile_job_log(job, GPUCOMPILE_SEVERITY_NOTE, GPUCOMPILE_OK, "vulkan", "the scalars' block above the 128 bytes of push constants "
                               "every device has: the uniform buffer at set %u, binding %u", (unsigned)set, (unsigned)binding);
    }
    if ((r = gpucompile_vulkan_reflect_into(job->object, words, nwords, 0)) != GPUCOMPILE_OK) {
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

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__finish(gpucompile_job *job, gpucompile_format format) {
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
    gpucompile_job_free(job, m.ins);
    return r;
}

/* LLVM's SPIR-V code generator knows no processors (it would warn on stderr about "vulkan").
   A spirv32 module (OpenCL C's 32-bit size_t) is marked before its triple and data layout become
   Vulkan's (64-bit pointers), for the lowering's 32-bit index arithmetic (gpucompile_vulkan__lower). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__configure(gpucompile_job *job) {
    const char *triple = LLVMGetTarget(job->module);
    if (triple && strncmp(triple, "spirv32", 7) == 0 && gpucompile_has_pointer_kernels(job->module)) {
        LLVMValueRef s = LLVMMDStringInContext(job->context, "32", 2);
        LLVMAddNamedMetadataOperand(job->module, GPUCOMPILE_VULKAN__INDEX_BITS, LLVMMDNodeInContext(job->context, &s, 1));
    }
    gpucompile_job_free(job, job->cpu);
    job->cpu = gpucompile_job_strdup(job, "");
    return job->cpu ? GPUCOMPILE_OK : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
}

GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__init(gpucompile_job *job) {
    job->backend_data = NULL;
    return GPUCOMPILE_OK;
}

GPUCOMPILE_PRIVATE void gpucompile_vulkan__release(gpucompile_job *job) {
    if (job->backend_data) LLVMDisposeMemoryBuffer((LLVMMemoryBufferRef)job->backend_data);
    job->backend_data = NULL;
}

/* Kernels of a module that did not come from a compile here (read back from a binary). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__find_kernels(gpucompile_object *obj) {
    if (obj->num_kernels || obj->format != GPUCOMPILE_FORMAT_BIN) return GPUCOMPILE_OK;
    return gpucompile_vulkan_reflect_into(obj, obj->data, obj->size, 1);
}

/* c, fast, cold, spir_func; spir_kernel, ptx_kernel and amdgpu_kernel (pointer kernels, rewritten) */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__cc_ok(unsigned cc) {
    return cc == 0 || cc == 8 || cc == 9 || cc == 75 || cc == LLVMSPIRKERNELCallConv || cc == LLVMPTXKernelCallConv || cc == LLVMAMDGPUKERNELCallConv;
}

#define GPUCOMPILE_VULKAN__TRIPLES "spirv*-*-vulkan*" /* Vulkan's SPIR-V triples (OpenCL's are gpucompile_spirv.h's) */

/* Run-time selection: the rule is in [section: selection and reflection]. */
GPUCOMPILE_PRIVATE int gpucompile_vulkan__select_score(const gpucompile_object *o, const char *device, const char **why) {
    return gpucompile_vulkan__score(o ? o->triple : NULL, o ? o->chip : NULL, o ? gpucompile_format_string(o->format) : NULL, NULL,
                                    device, why);
}

GPUCOMPILE_PRIVATE void gpucompile_vulkan__fill(gpucompile_backend *t) {
    static const char *const kernel_metadata[8] = {NULL, "workgroup_memory_bytes", NULL, NULL, NULL, NULL, NULL, NULL};
    gpucompile_backend_names(t, GPUCOMPILE_TARGET_CUSTOM, "vulkan", "gpu.vulkan", "spirv.target_env", "spirv1.6-unknown-vulkan1.3-compute", "vulkan");
    t->params[0] = "O,triple,chip,features,flags";
    t->params[1] = "triple,features,flags"; /* what parse_text makes of MLIR's positional text */
    t->parse_text[1] = gpucompile_vulkan__parse_env;
    t->print_text[1] = gpucompile_vulkan__print_env;
    t->intrinsic_prefixes = "spv,nvvm"; /* nvvm: CUDA-style IR's ids, barrier and warp functions, which the lowering maps */
    t->allowed_undefined = "*"; /* the push-constant block is external; prepare checks the rest */
    t->initialize = gpucompile_vulkan__initialize;
    t->init = gpucompile_vulkan__init;
    t->configure = gpucompile_vulkan__configure;
    t->release = gpucompile_vulkan__release;
    t->prepare = gpucompile_vulkan__prepare;
    t->pre_emit = gpucompile_vulkan__pre_emit;
    t->emit_unoptimized = 1; /* LLVM 22's optimizations after its structurizer break the merges (pre_emit) */
    t->emitted_wrong = gpucompile_spirv_ids_wrong; /* LLVM 22 keeps its module analysis in a static: block ids of an earlier compile, one compile at a time */
    t->is_kernel = gpucompile_vulkan__is_kernel;
    t->bin_from = LLVMObjectFile;
    t->finish = gpucompile_vulkan__finish;
    t->find_kernels = gpucompile_vulkan__find_kernels;
    t->verify = gpucompile_vulkan__verify;
    t->calling_convention_ok = gpucompile_vulkan__cc_ok;
    t->select_score = gpucompile_vulkan__select_score;
    t->triples = GPUCOMPILE_VULKAN__TRIPLES;
    t->input_triples = "spirv,spirv32,spirv64,nvptx,nvptx64"; /* OpenCL C as clang writes it, CUDA-style IR: the pointer kernels' documented inputs */
    t->offload_kind = 8;   /* as the SPIR-V backend's: LLVM's offload model has no Vulkan kind */
    t->image_kind_bin = 6; /* IMG_SPIRV */
    t->kernel_metadata = kernel_metadata;
    t->cache_version = "vulkan 7"; /* loop counters, high words and bit counts of 64-bit indices narrowed */
    t->device_help = "vulkan (a Vulkan 1.2+ device with a compute queue)";
    t->file_ext[GPUCOMPILE_FORMAT_ISA] = "spvasm";
    t->file_ext[GPUCOMPILE_FORMAT_BIN] = "spv";
    t->help = "Vulkan compute (an LLVM with the SPIRV target: 22): SPIR-V assembly text and\n"
              "shader modules (GLCompute) with their reflection in the kernel metadata";
}

GPUCOMPILE_BACKEND_DEFINE(vulkan)

/* ---- the pointer kernels: the lowering's target, the parameter strings as OpModuleProcessed ---- */
GPUCOMPILE_DEF const gpucompile_lower_target *gpucompile_vulkan_lower_target(void) {
    static const gpucompile_lower_target t = {
        "vulkan", "Vulkan",
        {"llvm.spv.thread.id", "llvm.spv.thread.id.in.group", "llvm.spv.group.id", "llvm.spv.num.workgroups"},
        "llvm.spv.group.memory.barrier.with.group.sync",
        "spirv.VulkanBuffer", 12, /* StorageBuffer */
        "llvm.spv.resource.handlefrombinding", "llvm.spv.resource.getpointer",
        11, 13, 10, /* LLVM's SPIR-V address spaces for shaders: StorageBuffer, PushConstant, Private */
        "hlsl.shader", "compute", "hlsl.numthreads",
        "gpucompile.vulkan.params",
        GPUCOMPILE_VULKAN_MAX_PARAMS, /* the reflection's parameters */
        GPUCOMPILE_VULKAN__MAX_BLOCK, /* above 128 bytes (every device's push constants) the block is a uniform buffer (gpucompile_vulkan__large_block) */
        GPUCOMPILE_VULKAN__SPEC_CONSTANT, /* OpSpecConstant with SpecId (LLVM 22's SPIR-V builtins): sizes set at launch */
        GPUCOMPILE_VULKAN_SPEC_LAUNCH,    /* the work dimension, global offset, split launch's groups */
        0, /* 64-bit addresses */
        /* images: LLVM 22's typed-buffer reads and writes on image handles, the coordinate and
           size queries put in afterwards (gpucompile_vulkan__fix_images) */
        "spirv.Image", "spirv.SampledImage", "llvm.spv.resource.load.typedbuffer", "llvm.spv.resource.store.typedbuffer",
        GPUCOMPILE_VULKAN__IMAGE_COORDINATE, GPUCOMPILE_VULKAN__IMAGE_SIZE, "spirv.Sampler",
        /* sub-groups: the GroupNonUniform instructions (the device's supported operations are
           checked at load) */
        {"llvm.spv.subgroup.size", "llvm.spv.subgroup.local.invocation.id", "llvm.spv.subgroup.id", "llvm.spv.wave.reduce.sum",
         "llvm.spv.wave.reduce.min", "llvm.spv.wave.reduce.max", "llvm.spv.wave.reduce.umin", "llvm.spv.wave.reduce.umax",
         "llvm.spv.wave.all", "llvm.spv.wave.any", "llvm.spv.wave.readlane"}
    };
    return &t;
}

/* Sizes set at launch (gpucompile_lower.h: GPUCOMPILE_LOWER_LAUNCH_SIZE, _LENGTH) made so in the
   module's words: each such entry point's LocalSize becomes LocalSizeId of the specialization
   constants 0, 1, 2 (one of those LLVM wrote for its work-item sizes, else a new one, LocalSize's
   value its default): per entry point, unlike the WorkgroupSize built-in, which would size every
   entry point of the module; each such workgroup array gets a type of its own whose length is the
   specialization constant its metadata names (default 1), and its variable a pointer type to it.
   In b (its words replaced); GPUCOMPILE_OK with nothing to do. */
typedef struct gpucompile_vulkan__length { char name[256]; uint32_t spec, var; } gpucompile_vulkan__length;
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__launch_sizes(LLVMModuleRef module, gpucompile_buf *b) {
    enum { MAX = 64 };
    char entries[MAX][128];
    gpucompile_vulkan__length arrays[MAX];
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(module), GPUCOMPILE_LOWER_LAUNCH_LENGTH, (unsigned)strlen(GPUCOMPILE_LOWER_LAUNCH_LENGTH));
    int ne = 0, na = 0, i, d, found_types = 0;
    LLVMValueRef fn, g;
    uint32_t *w = (uint32_t *)(void *)b->data, bound, uint_id = 0, spec_wg[3] = {0, 0, 0}, def_wg[3] = {64, 1, 1}, next, new_uint = 0;
    uint32_t arr_spec[MAX], arr_type[MAX], arr_ptr[MAX], arr_elem[MAX];
    size_t n = b->len / 4, at, *def = NULL;
    gpucompile_spirv_inst it;
    uint32_t *specid = NULL;
    unsigned char *launch = NULL;
    gpucompile_buf o;
    for (fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        if (ne < MAX && LLVMGetStringAttributeAtIndex(fn, LLVMAttributeFunctionIndex, GPUCOMPILE_LOWER_LAUNCH_SIZE, (unsigned)strlen(GPUCOMPILE_LOWER_LAUNCH_SIZE)))
            snprintf(entries[ne++], sizeof entries[0], "%s", gpucompile_value_name(fn));
    for (g = LLVMGetFirstGlobal(module); g; g = LLVMGetNextGlobal(g)) {
        LLVMValueRef md = LLVMGetMetadata(g, kind), id;
        if (!md || na == MAX || LLVMGetMDNodeNumOperands(md) != 1) continue;
        LLVMGetMDNodeOperands(md, &id);
        if (!id || !LLVMIsAConstantInt(id)) continue;
        snprintf(arrays[na].name, sizeof arrays[na].name, "%s", gpucompile_value_name(g));
        arrays[na].spec = (uint32_t)LLVMConstIntGetZExtValue(id);
        arrays[na++].var = 0;
    }
    if ((!ne && !na) || n < 5) return GPUCOMPILE_OK;
    bound = w[3];
    def = (size_t *)calloc(bound + 1, sizeof *def);
    specid = (uint32_t *)calloc(bound + 1, sizeof *specid);
    launch = (unsigned char *)calloc(bound + 1, 1);
    if (!def || !specid || !launch) {
        free(def); free(specid); free(launch);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    /* what is where: definitions, SpecIds, the entry points and variables by name */
    for (gpucompile_spirv_begin(&it, w, n * 4); gpucompile_spirv_next(&it);) {
        uint32_t op = it.op, wc = (uint32_t)it.wc;
        int rk = gpucompile_spirv_result(op);
        at = it.at;
        if (rk && wc > (uint32_t)rk && w[at + (size_t)rk] < bound) def[w[at + (size_t)rk]] = at;
        if (op == GPUCOMPILE_VULKAN__OP_TYPE_INT && wc == 4 && w[at + 2] == 32 && w[at + 3] == 0 && !uint_id) uint_id = w[at + 1];
        if (op == GPUCOMPILE_VULKAN__OP_DECORATE && wc == 4 && w[at + 2] == 1 /* SpecId */ && w[at + 1] < bound) specid[w[at + 1]] = w[at + 3] + 1;
        if ((op == GPUCOMPILE_VULKAN__OP_ENTRY_POINT && wc >= 4) || (op == GPUCOMPILE_VULKAN__OP_NAME && wc >= 3)) {
            const char *name = (const char *)(w + at + (op == GPUCOMPILE_VULKAN__OP_NAME ? 2 : 3));
            uint32_t target = w[at + (op == GPUCOMPILE_VULKAN__OP_NAME ? 1 : 2)];
            size_t max = (size_t)(wc - (op == GPUCOMPILE_VULKAN__OP_NAME ? 2 : 3)) * 4;
            for (i = 0; op == GPUCOMPILE_VULKAN__OP_ENTRY_POINT && i < ne; i++)
                if (memchr(name, 0, max) && strcmp(name, entries[i]) == 0 && target < bound) launch[target] = 1;
            for (i = 0; op == GPUCOMPILE_VULKAN__OP_NAME && i < na; i++)
                if (memchr(name, 0, max) && strcmp(name, arrays[i].name) == 0 && target < bound && !arrays[i].var) arrays[i].var = target;
        }
        if (op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE && wc == 6 && w[at + 1] < bound && launch[w[at + 1]] && w[at + 2] == GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE)
            for (d = 0; d < 3; d++) def_wg[d] = w[at + 3 + d];
    }
    if (it.bad) { free(def); free(specid); free(launch); return GPUCOMPILE_ERROR_INVALID_INPUT; }
    for (gpucompile_spirv_begin(&it, w, n * 4); gpucompile_spirv_next(&it);) /* the work-item sizes' constants LLVM wrote */
        if (it.op == GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT && it.wc == 4 && w[it.at + 1] == uint_id && w[it.at + 2] < bound &&
            specid[w[it.at + 2]] >= 1 && specid[w[it.at + 2]] <= 3 && !spec_wg[specid[w[it.at + 2]] - 1])
            spec_wg[specid[w[it.at + 2]] - 1] = w[it.at + 2];
    next = bound;
    if (!uint_id) uint_id = new_uint = next++;
    for (d = 0; d < 3; d++)
        if (ne && !spec_wg[d]) spec_wg[d] = next++ | 0x80000000u; /* new: made below */
    for (i = 0; i < na; i++) { /* the variable, its pointer type, its array type */
        size_t v = arrays[i].var ? def[arrays[i].var] : 0, p, a;
        arr_type[i] = 0;
        if (!v || gpucompile_spirv_opcode(w[v]) != GPUCOMPILE_VULKAN__OP_VARIABLE || gpucompile_spirv_count(w[v]) < 4 || w[v + 3] != GPUCOMPILE_VULKAN__SC_WORKGROUP || w[v + 1] >= bound) continue;
        p = def[w[v + 1]];
        if (!p || gpucompile_spirv_opcode(w[p]) != GPUCOMPILE_VULKAN__OP_TYPE_POINTER || gpucompile_spirv_count(w[p]) != 4 || w[p + 3] >= bound) continue;
        a = def[w[p + 3]];
        if (!a || gpucompile_spirv_opcode(w[a]) != GPUCOMPILE_VULKAN__OP_TYPE_ARRAY || gpucompile_spirv_count(w[a]) != 4) continue;
        arr_elem[i] = w[a + 2];
        arr_spec[i] = next++;
        arr_type[i] = next++;
        arr_ptr[i] = next++;
    }
    memset(&o, 0, sizeof o);
    o.a = b->a;
    gpucompile_buf_add(&o, w, 5 * 4);
    for (gpucompile_spirv_begin(&it, w, n * 4); gpucompile_spirv_next(&it);) {
        uint32_t op = it.op, wc = (uint32_t)it.wc, x[6];
        int preamble; /* the sections before the types: capabilities ... debug, annotations */
        at = it.at;
        preamble = op == 17 || op == 10 || op == 11 || op == 14 || op == 15 || op == 16 || op == 331 || (op >= 2 && op <= 8) || op == 330 ||
                       (op >= 71 && op <= 75) || op == 332 || op == 5632 || op == 5633 || op == 317;
        if (!preamble && !found_types) { /* the end of the annotations: the new SpecIds; a 32-bit unsigned type if none */
            found_types = 1;
            for (d = 0; d < 3; d++)
                if (ne) {
                    x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_DECORATE, 4); x[1] = spec_wg[d] & 0x7fffffffu; x[2] = 1; x[3] = (uint32_t)d;
                    if (spec_wg[d] & 0x80000000u) gpucompile_buf_add(&o, x, 16);
                }
            for (i = 0; i < na; i++)
                if (arr_type[i]) {
                    x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_DECORATE, 4); x[1] = arr_spec[i]; x[2] = 1; x[3] = arrays[i].spec;
                    gpucompile_buf_add(&o, x, 16);
                }
            if (new_uint) {
                x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_TYPE_INT, 4); x[1] = new_uint; x[2] = 32; x[3] = 0;
                gpucompile_buf_add(&o, x, 16);
            }
        }
        if (op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE && wc == 6 && w[at + 1] < bound && launch[w[at + 1]] && w[at + 2] == GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE) {
            x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_EXECUTION_MODE_ID, 6); x[1] = w[at + 1]; x[2] = GPUCOMPILE_VULKAN__MODE_LOCAL_SIZE_ID;
            for (d = 0; d < 3; d++) x[3 + d] = spec_wg[d] & 0x7fffffffu;
            gpucompile_buf_add(&o, x, 24);
            continue;
        }
        if (op == GPUCOMPILE_VULKAN__OP_VARIABLE && wc >= 4) {
            for (i = 0; i < na && !(arr_type[i] && arrays[i].var == w[at + 2]); i++) {}
            if (i < na) {
                x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT, 4); x[1] = uint_id; x[2] = arr_spec[i]; x[3] = 1;
                gpucompile_buf_add(&o, x, 16);
                x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_TYPE_ARRAY, 4); x[1] = arr_type[i]; x[2] = arr_elem[i]; x[3] = arr_spec[i];
                gpucompile_buf_add(&o, x, 16);
                x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_TYPE_POINTER, 4); x[1] = arr_ptr[i]; x[2] = GPUCOMPILE_VULKAN__SC_WORKGROUP; x[3] = arr_type[i];
                gpucompile_buf_add(&o, x, 16);
                gpucompile_buf_add(&o, w + at, 4);
                gpucompile_buf_add(&o, &arr_ptr[i], 4);
                gpucompile_buf_add(&o, w + at + 2, (size_t)(wc - 2) * 4);
                continue;
            }
        }
        gpucompile_buf_add(&o, w + at, (size_t)wc * 4);
        if ((op == GPUCOMPILE_VULKAN__OP_TYPE_INT && w[at + 1] == uint_id) || (new_uint && found_types == 1)) { /* after the type: the work-item sizes' constants */
            found_types = 2;
            for (d = 0; d < 3; d++)
                if (ne && (spec_wg[d] & 0x80000000u)) {
                    x[0] = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_SPEC_CONSTANT, 4); x[1] = uint_id; x[2] = spec_wg[d] & 0x7fffffffu; x[3] = def_wg[d];
                    gpucompile_buf_add(&o, x, 16);
                }
        }
    }
    free(def);
    free(specid);
    free(launch);
    if (o.oom) {
        gpucompile_free(o.a, o.data);
        return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    ((uint32_t *)(void *)o.data)[3] = next;
    gpucompile_free(b->a, b->data);
    *b = o;
    return GPUCOMPILE_OK;
}

/* A push-constant block above the 128 bytes every device has (the lowering's, for a kernel's many
   scalars) made a uniform buffer (gpucompile_vulkan__uniform_block), in b (its words replaced).
   GPUCOMPILE_ERROR_UNSUPPORTED where it has 8- or 16-bit members (StoragePushConstant8/16: in a
   uniform buffer they would need other features). */
GPUCOMPILE_PRIVATE gpucompile_result gpucompile_vulkan__large_block(gpucompile_buf *b) {
    gpucompile_vulkan_kernel *ks = (gpucompile_vulkan_kernel *)malloc(64 * sizeof *ks);
    const uint32_t *w = (const uint32_t *)(void *)b->data;
    uint32_t bytes = 0, *d = NULL;
    size_t at, n = b->len / 4, dn = 0;
    int i, found, binding, r;
    if (!ks) return GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    found = gpucompile_vulkan_reflect(b->data, b->len, ks, 64);
    for (i = 0; i < found && i < 64; i++)
        if (!ks[i].has_uniforms && ks[i].push_size > bytes) bytes = ks[i].push_size;
    free(ks);
    if (bytes <= 128) return GPUCOMPILE_OK;
    for (at = 5; at < n && (w[at] >> 16) && (w[at] >> 16) <= n - at; at += w[at] >> 16)
        if ((w[at] & 0xffffu) == GPUCOMPILE_VULKAN__OP_CAPABILITY && (w[at] >> 16) == 2 && (w[at + 1] == 4435 || w[at + 1] == 4450))
            return GPUCOMPILE_ERROR_UNSUPPORTED;
    if ((r = gpucompile_vulkan__uniform_block(w, n, &d, &dn, &binding)) != 0) {
        free(d);
        return r == -1 ? GPUCOMPILE_ERROR_INVALID_INPUT : r == -2 ? GPUCOMPILE_ERROR_UNSUPPORTED : GPUCOMPILE_ERROR_OUT_OF_MEMORY;
    }
    b->len = 0; /* the words again, made longer */
    gpucompile_buf_add(b, d, dn * 4);
    free(d);
    return b->oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : GPUCOMPILE_OK;
}

GPUCOMPILE_DEF gpucompile_result gpucompile_vulkan_mark_params(LLVMModuleRef module, const void *spirv, size_t size, gpucompile_buf *out) {
    const unsigned char *w = (const unsigned char *)spirv;
    gpucompile_spirv_inst it;
    size_t at;
    unsigned k, count = module ? LLVMGetNamedMetadataNumOperands(module, gpucompile_vulkan_lower_target()->params_metadata) : 0;
    LLVMValueRef *ops = NULL;
    const uint32_t magic = GPUCOMPILE_SPIRV_MAGIC;
    gpucompile_buf t;
    gpucompile_result r;
    /* in host order, as the words added are */
    if (size % 4 || !gpucompile_spirv_begin(&it, spirv, size) || memcmp(spirv, &magic, 4) != 0) return GPUCOMPILE_ERROR_INVALID_INPUT;
    /* after the debug section's names (7b), before the annotations: where 7c is */
    while (gpucompile_spirv_next(&it)) {
        uint32_t op = it.op;
        if (!(op == GPUCOMPILE_VULKAN__OP_CAPABILITY || op == GPUCOMPILE_VULKAN__OP_EXTENSION || op == GPUCOMPILE_VULKAN__OP_EXT_INST_IMPORT ||
              op == GPUCOMPILE_VULKAN__OP_MEMORY_MODEL || op == GPUCOMPILE_VULKAN__OP_ENTRY_POINT || op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE ||
              op == GPUCOMPILE_VULKAN__OP_EXECUTION_MODE_ID || op == GPUCOMPILE_VULKAN__OP_STRING || op == GPUCOMPILE_VULKAN__OP_SOURCE_EXTENSION ||
              op == GPUCOMPILE_VULKAN__OP_SOURCE || op == GPUCOMPILE_VULKAN__OP_SOURCE_CONTINUED || op == GPUCOMPILE_VULKAN__OP_NAME ||
              op == GPUCOMPILE_VULKAN__OP_MEMBER_NAME || op == GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED))
            break;
    }
    if (it.bad) return GPUCOMPILE_ERROR_INVALID_INPUT;
    at = it.at;
    memset(&t, 0, sizeof t);
    t.a = out->a;
    gpucompile_buf_add(&t, w, at * 4);
    if (count && (ops = (LLVMValueRef *)malloc(count * sizeof *ops)) != NULL) {
        LLVMGetNamedMetadataOperands(module, gpucompile_vulkan_lower_target()->params_metadata, ops);
        for (k = 0; k < count; k++) {
            LLVMValueRef s = NULL;
            const char *text;
            unsigned len = 0;
            uint32_t first, zero = 0, words;
            if (LLVMGetMDNodeNumOperands(ops[k]) != 1) continue;
            LLVMGetMDNodeOperands(ops[k], &s);
            if (!s || !(text = LLVMGetMDString(s, &len))) continue;
            words = len / 4 + 1;
            first = gpucompile_spirv_first(GPUCOMPILE_VULKAN__OP_MODULE_PROCESSED, 1u + words);
            gpucompile_buf_add(&t, &first, 4);
            gpucompile_buf_add(&t, text, len);
            gpucompile_buf_add(&t, &zero, (size_t)words * 4 - len);
        }
        free(ops);
    }
    gpucompile_buf_add(&t, w + 4 * at, size - 4 * at);
    r = t.oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : gpucompile_spirv_relabel((uint32_t *)(void *)t.data, t.len / 4) < 0 ? GPUCOMPILE_ERROR_LLVM
        : module ? gpucompile_vulkan__launch_sizes(module, &t) : GPUCOMPILE_OK;
    if (r == GPUCOMPILE_OK && count) { /* the lowering's set per kernel (one variable per kernel's binding from LLVM 22): all set 0 */
        uint32_t *tw = (uint32_t *)(void *)t.data;
        for (gpucompile_spirv_begin(&it, tw, t.len); gpucompile_spirv_next(&it);)
            if (it.op == GPUCOMPILE_VULKAN__OP_DECORATE && it.wc == 4 && tw[it.at + 2] == GPUCOMPILE_VULKAN__DEC_SET) tw[it.at + 3] = 0;
    }
    if (r == GPUCOMPILE_OK) { /* each entry point's interface its own variables */
        size_t nw = t.len / 4;
        if (gpucompile_vulkan__own_interfaces((uint32_t *)(void *)t.data, &nw) != 0) r = GPUCOMPILE_ERROR_OUT_OF_MEMORY;
        t.len = nw * 4;
    }
    if (r == GPUCOMPILE_OK) r = gpucompile_vulkan__large_block(&t);
    if (r == GPUCOMPILE_OK) gpucompile_buf_add(out, t.data, t.len);
    gpucompile_free(t.a, t.data);
    return r != GPUCOMPILE_OK ? r : out->oom ? GPUCOMPILE_ERROR_OUT_OF_MEMORY : GPUCOMPILE_OK;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_VULKAN_IMPLEMENTATION */

/* ==== [section: runtime] =================================================================

   The runtime (GPUCOMPILE_VULKAN_RUNTIME in one file; one vendor runtime per program)
       libvulkan.so.1 (Windows: vulkan-1.dll) is opened at the first call, or
       gpucompile_runtime_set_library() / $GPUCOMPILE_LIBVULKAN. Our own declarations of the few
       Vulkan types and calls it uses: no Vulkan headers are needed to build it.
       Device: the mgpuSetDefaultDevice'th physical device (0: the first) with a compute queue; a
       Vulkan 1.3 instance and device. Features: the device is created once, before any module is
       known, so it is started with every one of these the device supports and nothing else:
       shaderInt8/Int16/Int64/Float16/Float64, 8- and 16-bit storage and push constants, 64-bit
       integer atomics, scalar block layout, the Vulkan memory model, maintenance4, zero-initialised
       workgroup memory, subgroup size control, integer dot products, storage images of the
       extended formats and without a format (read, write), and VK_EXT_shader_atomic_float
       (buffer and shared, 32 and 64 bit); VK_KHR_push_descriptor when present. A module that
       reads or writes storage images without a format is refused at load where the device
       lacks the feature.
       gpucompile_runtime_device_arch() answers "vulkan": run-time selection takes a SPIR-V module
       (format bin) whose triple names Vulkan (spirv1.6-unknown-vulkan1.3-compute), never an
       OpenCL one (spirv64-unknown-unknown).
       Memory: mgpuMemAlloc gives each allocation a VkBuffer of its own in host-visible, coherent
       memory, mapped for the allocation's life, and returns the mapped address: the host reads and
       writes it directly, and a table maps every address inside an allocation back to its buffer
       and offset. On lavapipe and integrated GPUs that memory is the device's; on a discrete GPU
       it is device-local memory the host can map (resizable BAR) where the device offers it, else
       system memory the GPU reads over PCIe (correct, slower: staging copies are not done).
       Images (mgpuImageCreate, gpucompile_runtime.h): a VkImage of optimal tiling and its view in
       device-local memory, in VK_IMAGE_LAYOUT_GENERAL from creation to end (storage, sampled and
       transfer use alike: no transitions between launches); written and read whole through a
       staging allocation, after the stream and before returning. A kernel's image argument is
       passed as a buffer's (params[i] points to the image), a sampler_t as an int32_t of
       OpenCL's bits; one VkSampler per mode, made at its first use and kept.
       Module: mgpuModuleLoad(SPIR-V words) makes the shader module and, per GLCompute entry
       point, its layouts and compute pipeline (through the pipeline cache). mgpuModuleGetFunction
       names an entry point.
       Arguments of mgpuLaunchKernel (params: MLIR's array, params[i] points to argument i): the
       entry point's bindings first, in (set, binding) order, one pointer each (an address from
       mgpuMemAlloc, or inside such an allocation: the descriptor then starts at that offset,
       which must be a multiple of minStorageBufferOffsetAlignment); then the fields of the
       push-constant block in increasing offset order, each copied with its reflected size from
       params[i] (a C value of the field's type; a member that is a struct or an array is one
       argument, its bytes laid out as the block's Offset/ArrayStride say). So a kernel with
       bindings x, y and a block { float a; uint n; } is launched with params = { &x, &y, &a, &n }.
       A kernel compiled from pointer parameters (gpucompile_lower_kernels: its module
       carries an OpModuleProcessed "gpucompile.params" string, the reflection's params) is
       launched in its own parameter order instead, as on every other backend: params[i] is
       the i-th parameter of the OpenCL/CUDA kernel (a pointer's address, a scalar's value, a
       local pointer's placeholder), each routed to its binding or push-constant offset.
       The runtime ABI does not pass the argument count to the vendor: it is taken from the
       reflection (bindings + block members, or params), never checked against paramsCount. `extra` is not
       used. A uniform buffer's descriptor covers at most maxUniformBufferRange bytes.
       Sizes set at launch (the reflection's launch[]: specialization constants): a workgroup size
       from LocalSizeId's or the WorkgroupSize built-in's specialization constants takes the
       launch's block, each workgroup array whose length is a specialization constant the launch's
       sharedMemBytes (CUDA's dynamic shared memory; every such array that many bytes, as every
       local parameter on OpenCL); the entry point's pipeline for those values is made at the
       first launch with them (through the pipeline cache) and kept with the function, beside
       the one made at load with the defaults: a repeated launch at a known size finds it. A
       workgroup size compiled in must equal the block (a mismatch is refused, naming both); the
       block must be within maxComputeWorkGroupSize and maxComputeWorkGroupInvocations, the
       workgroup memory (compiled in plus the arrays at the launch's size) within
       maxComputeSharedMemorySize; sharedMemBytes given to a kernel with no array set at launch
       is refused, or, where its local parameters were compiled with their size, above that.
       Not set at launch: a global offset (get_global_offset is 0). Bindings are set through push descriptors when every
       binding is in set 0 and the device has VK_KHR_push_descriptor, else through descriptor sets
       ($GPUCOMPILE_VULKAN_NO_PUSH_DESCRIPTORS=1 takes that path on any device).
       Streams: a stream is a command buffer that records launches, copies between allocations
       and fills, each after a barrier on the previous one; mgpuStreamSynchronize submits it with
       a fence and waits. A NULL stream runs each launch at once (submitted and waited for). A
       copy or fill that touches memory that is not an allocation (host memory) waits for the
       stream first and is done by the host. One thread at a time per stream; launches on the NULL
       stream may come from many threads (the queue is guarded).
       Pipeline cache: a VkPipelineCache read at start from a file and written back (whole, by a
       rename) after each module load that created pipelines, and at the unload of a module after
       pipelines were made at launches: $GPUCOMPILE_VULKAN_PIPELINE_CACHE or
       gpucompile_vulkan_set_pipeline_cache() (before the first call) names the file ("off":
       none); by default it lies beside gpucompile's compile cache: $XDG_CACHE_HOME/gpucompile
       (else $HOME/.cache/gpucompile; Windows %LOCALAPPDATA%\gpucompile), one file per device,
       vulkan-pipelines-<vendor id>-<device id>.bin. (Lavapipe's cache holds only its header: it
       compiles at the first dispatch, through Mesa's own shader cache; the file is still read and
       written, for the drivers whose cache holds the pipelines.)
       Validation: $GPUCOMPILE_VULKAN_VALIDATION=1 enables VK_LAYER_KHRONOS_validation; its
       warnings and errors (and those of any layer enabled through $VK_INSTANCE_LAYERS) come
       through the runtime's error callback (call "vkDebugUtilsMessengerEXT").
       Nothing aborts: every failure is reported through gpucompile_runtime_report.
       Engines that own their device and submission: gpucompile_vulkan_program_create and
       gpucompile_vulkan_record below (no mgpu* device is started for them).
       Windows: the same code through vulkan-1.dll; tested under Wine (whose vulkan-1.dll forwards
       to the host's loader) with the same results as natively.
*/
/* ---- the runtime (GPUCOMPILE_VULKAN_RUNTIME) ---- */
#if defined(GPUCOMPILE_VULKAN_RUNTIME) && !defined(GPUCOMPILE_VULKAN__RUNTIME_IMPLEMENTED)
#define GPUCOMPILE_VULKAN__RUNTIME_IMPLEMENTED
#define GPUCOMPILE_RUNTIME_VENDOR /* gpucompile_runtime.h refuses a second vendor runtime */
#include "gpucompile_runtime.h"
#include <errno.h>
#include <time.h>
#if defined(_WIN32)
#include <direct.h>
#define GPUCOMPILE_VULKAN__LIBRARY "vulkan-1.dll"
#define GPUCOMPILE_VULKAN__CALL __stdcall /* VKAPI_CALL: matters on 32-bit x86 only */
#else
#include <sys/stat.h>
#include <unistd.h>
#define GPUCOMPILE_VULKAN__LIBRARY "libvulkan.so.1,libvulkan.so"
#define GPUCOMPILE_VULKAN__CALL
#endif
#ifdef __cplusplus
extern "C" {
#endif

/* The Vulkan ABI we use, declared here (vulkan_core.h's layouts, field for field, for what is
   used; tests/test_vulkan.c checks sizes and offsets against the real header). Dispatchable
   handles are pointers, the others 64-bit integers on every platform. Values of VkStructureType
   and the flags as the specification numbers them. */
enum {
    GPUCOMPILE_VULKAN__ST_APPLICATION_INFO = 0, GPUCOMPILE_VULKAN__ST_INSTANCE = 1, GPUCOMPILE_VULKAN__ST_DEVICE_QUEUE = 2,
    GPUCOMPILE_VULKAN__ST_DEVICE = 3, GPUCOMPILE_VULKAN__ST_SUBMIT = 4, GPUCOMPILE_VULKAN__ST_MEMORY_ALLOCATE = 5,
    GPUCOMPILE_VULKAN__ST_FENCE = 8, GPUCOMPILE_VULKAN__ST_BUFFER = 12, GPUCOMPILE_VULKAN__ST_SHADER_MODULE = 16,
    GPUCOMPILE_VULKAN__ST_PIPELINE_CACHE = 17, GPUCOMPILE_VULKAN__ST_SHADER_STAGE = 18, GPUCOMPILE_VULKAN__ST_COMPUTE_PIPELINE = 29,
    GPUCOMPILE_VULKAN__ST_PIPELINE_LAYOUT = 30, GPUCOMPILE_VULKAN__ST_SET_LAYOUT = 32, GPUCOMPILE_VULKAN__ST_DESCRIPTOR_POOL = 33,
    GPUCOMPILE_VULKAN__ST_SET_ALLOCATE = 34, GPUCOMPILE_VULKAN__ST_WRITE_SET = 35, GPUCOMPILE_VULKAN__ST_COMMAND_POOL = 39,
    GPUCOMPILE_VULKAN__ST_COMMAND_BUFFER_ALLOCATE = 40, GPUCOMPILE_VULKAN__ST_COMMAND_BUFFER_BEGIN = 42,
    GPUCOMPILE_VULKAN__ST_MEMORY_BARRIER = 46, GPUCOMPILE_VULKAN__ST_FEATURES_2 = 1000059000, GPUCOMPILE_VULKAN__ST_FEATURES_11 = 49,
    GPUCOMPILE_VULKAN__ST_FEATURES_12 = 51, GPUCOMPILE_VULKAN__ST_FEATURES_13 = 53, GPUCOMPILE_VULKAN__ST_ATOMIC_FLOAT = 1000260000,
    GPUCOMPILE_VULKAN__ST_CREATION_FEEDBACK = 1000192000, GPUCOMPILE_VULKAN__ST_MESSENGER = 1000128004,
    GPUCOMPILE_VULKAN__ST_IMAGE = 14, GPUCOMPILE_VULKAN__ST_IMAGE_VIEW = 15, GPUCOMPILE_VULKAN__ST_SAMPLER = 31,
    GPUCOMPILE_VULKAN__ST_IMAGE_BARRIER = 45, GPUCOMPILE_VULKAN__ST_PROPERTIES_2 = 1000059001, GPUCOMPILE_VULKAN__ST_SUBGROUP_PROPERTIES = 1000094000,
    GPUCOMPILE_VULKAN__ST_SIZE_CONTROL = 1000225000, GPUCOMPILE_VULKAN__ST_REQUIRED_SIZE = 1000225001
};
#define GPUCOMPILE_VULKAN__LAYOUT_GENERAL 1u /* VK_IMAGE_LAYOUT_GENERAL: every image of the mgpu* runtime, always */
#define GPUCOMPILE_VULKAN__API_1_3 ((1u << 22) | (3u << 12))
#define GPUCOMPILE_VULKAN__WHOLE_SIZE (~(uint64_t)0)
#define GPUCOMPILE_VULKAN__COMPUTE_STAGE 0x20u             /* VK_SHADER_STAGE_COMPUTE_BIT */
#define GPUCOMPILE_VULKAN__STAGES_WORK 0x1800u            /* COMPUTE_SHADER | TRANSFER pipeline stages */
#define GPUCOMPILE_VULKAN__STAGE_HOST 0x4000u
#define GPUCOMPILE_VULKAN__ACCESS_WRITES 0x1040u           /* SHADER_WRITE | TRANSFER_WRITE (the host's writes: made visible by the submit) */
#define GPUCOMPILE_VULKAN__ACCESS_WORK 0x1868u             /* UNIFORM_READ | SHADER_READ | SHADER_WRITE | TRANSFER_READ | TRANSFER_WRITE */
#define GPUCOMPILE_VULKAN__ACCESS_HOST_READ 0x2000u

typedef struct gpucompile_vulkan__app_info { uint32_t sType; const void *pNext; const char *app; uint32_t app_version; const char *engine; uint32_t engine_version; uint32_t api_version; } gpucompile_vulkan__app_info;
typedef struct gpucompile_vulkan__instance_info { uint32_t sType; const void *pNext; uint32_t flags; const gpucompile_vulkan__app_info *app; uint32_t layer_count; const char *const *layers; uint32_t ext_count; const char *const *exts; } gpucompile_vulkan__instance_info;
typedef struct gpucompile_vulkan__queue_family { uint32_t flags, count, timestamp_bits, granularity[3]; } gpucompile_vulkan__queue_family;
typedef struct gpucompile_vulkan__memory_type { uint32_t flags, heap; } gpucompile_vulkan__memory_type;
typedef struct gpucompile_vulkan__memory_heap { uint64_t size; uint32_t flags; } gpucompile_vulkan__memory_heap;
typedef struct gpucompile_vulkan__memory_properties { uint32_t type_count; gpucompile_vulkan__memory_type types[32]; uint32_t heap_count; gpucompile_vulkan__memory_heap heaps[16]; } gpucompile_vulkan__memory_properties;
typedef struct gpucompile_vulkan__extension { char name[256]; uint32_t spec_version; } gpucompile_vulkan__extension;
typedef struct gpucompile_vulkan__layer { char name[256]; uint32_t spec_version, impl_version; char description[256]; } gpucompile_vulkan__layer;
typedef struct gpucompile_vulkan__queue_info { uint32_t sType; const void *pNext; uint32_t flags, family, count; const float *priorities; } gpucompile_vulkan__queue_info;
typedef struct gpucompile_vulkan__device_info { uint32_t sType; const void *pNext; uint32_t flags, queue_info_count; const gpucompile_vulkan__queue_info *queue_infos; uint32_t layer_count; const char *const *layers; uint32_t ext_count; const char *const *exts; const void *features; } gpucompile_vulkan__device_info;
/* VkPhysicalDeviceFeatures2 and the Vulkan 1.1 / 1.2 / 1.3 and atomic-float feature structs: VkBool32s by index */
typedef struct gpucompile_vulkan__features { uint32_t sType; void *pNext; uint32_t f[55]; } gpucompile_vulkan__features;
typedef struct gpucompile_vulkan__features11 { uint32_t sType; void *pNext; uint32_t f[12]; } gpucompile_vulkan__features11;
typedef struct gpucompile_vulkan__features12 { uint32_t sType; void *pNext; uint32_t f[47]; } gpucompile_vulkan__features12;
typedef struct gpucompile_vulkan__features13 { uint32_t sType; void *pNext; uint32_t f[15]; } gpucompile_vulkan__features13;
/* VkPhysicalDeviceSubgroupProperties: size, supportedStages, supportedOperations, quadOperationsInAllStages */
typedef struct gpucompile_vulkan__subgroup_properties { uint32_t sType; void *pNext; uint32_t size, stages, operations, quad; } gpucompile_vulkan__subgroup_properties;
/* VkPhysicalDeviceSubgroupSizeControlProperties: minSubgroupSize, maxSubgroupSize, maxComputeWorkgroupSubgroups, requiredSubgroupSizeStages */
typedef struct gpucompile_vulkan__size_control { uint32_t sType; void *pNext; uint32_t min, max, max_subgroups, stages; } gpucompile_vulkan__size_control;
/* VkPipelineShaderStageRequiredSubgroupSizeCreateInfo */
typedef struct gpucompile_vulkan__required_size { uint32_t sType; void *pNext; uint32_t size; } gpucompile_vulkan__required_size;
typedef struct gpucompile_vulkan__atomic_float { uint32_t sType; void *pNext; uint32_t f[12]; } gpucompile_vulkan__atomic_float;
typedef struct gpucompile_vulkan__buffer_info { uint32_t sType; const void *pNext; uint32_t flags; uint64_t size; uint32_t usage, sharing, family_count; const uint32_t *families; } gpucompile_vulkan__buffer_info;
typedef struct gpucompile_vulkan__memory_requirements { uint64_t size, alignment; uint32_t type_bits; } gpucompile_vulkan__memory_requirements;
typedef struct gpucompile_vulkan__allocate_info { uint32_t sType; const void *pNext; uint64_t size; uint32_t type; } gpucompile_vulkan__allocate_info;
typedef struct gpucompile_vulkan__shader_info { uint32_t sType; const void *pNext; uint32_t flags; size_t size; const uint32_t *code; } gpucompile_vulkan__shader_info;
typedef struct gpucompile_vulkan__set_binding { uint32_t binding, type, count, stages; const uint64_t *samplers; } gpucompile_vulkan__set_binding;
typedef struct gpucompile_vulkan__set_layout_info { uint32_t sType; const void *pNext; uint32_t flags, count; const gpucompile_vulkan__set_binding *bindings; } gpucompile_vulkan__set_layout_info;
typedef struct gpucompile_vulkan__push_range { uint32_t stages, offset, size; } gpucompile_vulkan__push_range;
typedef struct gpucompile_vulkan__layout_info { uint32_t sType; const void *pNext; uint32_t flags, set_count; const uint64_t *sets; uint32_t range_count; const gpucompile_vulkan__push_range *ranges; } gpucompile_vulkan__layout_info;
typedef struct gpucompile_vulkan__spec_entry { uint32_t id, offset; size_t size; } gpucompile_vulkan__spec_entry;
typedef struct gpucompile_vulkan__spec_info { uint32_t count; const gpucompile_vulkan__spec_entry *entries; size_t size; const void *data; } gpucompile_vulkan__spec_info;
typedef struct gpucompile_vulkan__stage_info { uint32_t sType; const void *pNext; uint32_t flags, stage; uint64_t module; const char *name; const gpucompile_vulkan__spec_info *specialization; } gpucompile_vulkan__stage_info;
typedef struct gpucompile_vulkan__pipeline_info { uint32_t sType; const void *pNext; uint32_t flags; gpucompile_vulkan__stage_info stage; uint64_t layout, base; int32_t base_index; } gpucompile_vulkan__pipeline_info;
typedef struct gpucompile_vulkan__cache_info { uint32_t sType; const void *pNext; uint32_t flags; size_t size; const void *data; } gpucompile_vulkan__cache_info;
typedef struct gpucompile_vulkan__feedback { uint32_t flags; uint64_t duration; } gpucompile_vulkan__feedback;
typedef struct gpucompile_vulkan__feedback_info { uint32_t sType; const void *pNext; gpucompile_vulkan__feedback *pipeline; uint32_t stage_count; gpucompile_vulkan__feedback *stages; } gpucompile_vulkan__feedback_info;
typedef struct gpucompile_vulkan__pool_info { uint32_t sType; const void *pNext; uint32_t flags, family; } gpucompile_vulkan__pool_info;
typedef struct gpucompile_vulkan__command_buffer_info { uint32_t sType; const void *pNext; uint64_t pool; uint32_t level, count; } gpucompile_vulkan__command_buffer_info;
typedef struct gpucompile_vulkan__begin_info { uint32_t sType; const void *pNext; uint32_t flags; const void *inheritance; } gpucompile_vulkan__begin_info;
typedef struct gpucompile_vulkan__fence_info { uint32_t sType; const void *pNext; uint32_t flags; } gpucompile_vulkan__fence_info;
typedef struct gpucompile_vulkan__submit_info { uint32_t sType; const void *pNext; uint32_t wait_count; const uint64_t *waits; const uint32_t *wait_stages; uint32_t command_buffer_count; void *const *command_buffers; uint32_t signal_count; const uint64_t *signals; } gpucompile_vulkan__submit_info;
typedef struct gpucompile_vulkan__memory_barrier { uint32_t sType; const void *pNext; uint32_t src, dst; } gpucompile_vulkan__memory_barrier;
typedef struct gpucompile_vulkan__buffer_desc { uint64_t buffer, offset, range; } gpucompile_vulkan__buffer_desc;
typedef struct gpucompile_vulkan__write_set { uint32_t sType; const void *pNext; uint64_t set; uint32_t binding, element, count, type; const void *images; const gpucompile_vulkan__buffer_desc *buffers; const uint64_t *views; } gpucompile_vulkan__write_set;
typedef struct gpucompile_vulkan__pool_size { uint32_t type, count; } gpucompile_vulkan__pool_size;
typedef struct gpucompile_vulkan__descriptor_pool_info { uint32_t sType; const void *pNext; uint32_t flags, max_sets, size_count; const gpucompile_vulkan__pool_size *sizes; } gpucompile_vulkan__descriptor_pool_info;
typedef struct gpucompile_vulkan__set_allocate_info { uint32_t sType; const void *pNext; uint64_t pool; uint32_t count; const uint64_t *layouts; } gpucompile_vulkan__set_allocate_info;
typedef struct gpucompile_vulkan__buffer_copy { uint64_t src, dst, size; } gpucompile_vulkan__buffer_copy;
typedef struct gpucompile_vulkan__image_info { uint32_t sType; const void *pNext; uint32_t flags, type, format, extent[3], mips, layers, samples, tiling, usage, sharing, family_count; const uint32_t *families; uint32_t layout; } gpucompile_vulkan__image_info;
typedef struct gpucompile_vulkan__view_info { uint32_t sType; const void *pNext; uint32_t flags; uint64_t image; uint32_t type, format, components[4], aspect, base_mip, mips, base_layer, layers; } gpucompile_vulkan__view_info;
typedef struct gpucompile_vulkan__sampler_info { uint32_t sType; const void *pNext; uint32_t flags, mag, min, mipmap, u, v, w; float bias; uint32_t anisotropy; float max_anisotropy; uint32_t compare, compare_op; float min_lod, max_lod; uint32_t border, unnormalized; } gpucompile_vulkan__sampler_info;
typedef struct gpucompile_vulkan__image_copy { uint64_t offset; uint32_t row_length, image_height, aspect, mip, base_layer, layers; int32_t at[3]; uint32_t extent[3]; } gpucompile_vulkan__image_copy;
typedef struct gpucompile_vulkan__image_barrier { uint32_t sType; const void *pNext; uint32_t src, dst, old_layout, new_layout, src_family, dst_family; uint64_t image; uint32_t aspect, base_mip, mips, base_layer, layers; } gpucompile_vulkan__image_barrier;
typedef struct gpucompile_vulkan__image_desc { uint64_t sampler, view; uint32_t layout; } gpucompile_vulkan__image_desc;
typedef struct gpucompile_vulkan__format_properties { uint32_t linear, optimal, buffer; } gpucompile_vulkan__format_properties;
/* VkDebugUtilsMessengerCallbackDataEXT up to the message (the part read) */
typedef struct gpucompile_vulkan__message { uint32_t sType; const void *pNext; uint32_t flags; const char *id_name; int32_t id; const char *message; } gpucompile_vulkan__message;
typedef uint32_t (GPUCOMPILE_VULKAN__CALL *gpucompile_vulkan__messenger_fn)(uint32_t severity, uint32_t types, const gpucompile_vulkan__message *data, void *user);
typedef struct gpucompile_vulkan__messenger_info { uint32_t sType; const void *pNext; uint32_t flags, severities, types; gpucompile_vulkan__messenger_fn callback; void *user; } gpucompile_vulkan__messenger_info;
/* VkPhysicalDeviceProperties is read as bytes at these offsets (its VkPhysicalDeviceLimits has
   over a hundred fields, few of them needed) */
#define GPUCOMPILE_VULKAN__PROPS_SIZE 824
#define GPUCOMPILE_VULKAN__P_API 0
#define GPUCOMPILE_VULKAN__P_VENDOR 8
#define GPUCOMPILE_VULKAN__P_DEVICE 12
#define GPUCOMPILE_VULKAN__P_NAME 20
#define GPUCOMPILE_VULKAN__P_UUID 276
#define GPUCOMPILE_VULKAN__P_LIMITS 296
#define GPUCOMPILE_VULKAN__L_MAX_UNIFORM_RANGE 24
#define GPUCOMPILE_VULKAN__L_MAX_STORAGE_RANGE 28
#define GPUCOMPILE_VULKAN__L_MAX_PUSH 32
#define GPUCOMPILE_VULKAN__L_MAX_SETS 64
#define GPUCOMPILE_VULKAN__L_MAX_SHARED 216
#define GPUCOMPILE_VULKAN__L_MAX_GROUPS 220
#define GPUCOMPILE_VULKAN__L_MAX_INVOCATIONS 232
#define GPUCOMPILE_VULKAN__L_MAX_GROUP_SIZE 236
#define GPUCOMPILE_VULKAN__L_MIN_UNIFORM_ALIGN 320
#define GPUCOMPILE_VULKAN__L_MIN_STORAGE_ALIGN 328

/* The entry points, looked up through vkGetInstanceProcAddr / vkGetDeviceProcAddr. */
#define GPUCOMPILE_VULKAN__FN(ret, name, args) ret(GPUCOMPILE_VULKAN__CALL *name) args
typedef void(GPUCOMPILE_VULKAN__CALL *gpucompile_vulkan__void_fn)(void);
typedef struct gpucompile_vulkan__fns {
    GPUCOMPILE_VULKAN__FN(gpucompile_vulkan__void_fn, GetInstanceProcAddr, (void *, const char *));
    GPUCOMPILE_VULKAN__FN(gpucompile_vulkan__void_fn, GetDeviceProcAddr, (void *, const char *));
    GPUCOMPILE_VULKAN__FN(int, CreateInstance, (const gpucompile_vulkan__instance_info *, const void *, void **));
    GPUCOMPILE_VULKAN__FN(int, EnumerateInstanceLayerProperties, (uint32_t *, gpucompile_vulkan__layer *));
    GPUCOMPILE_VULKAN__FN(int, EnumerateInstanceExtensionProperties, (const char *, uint32_t *, gpucompile_vulkan__extension *));
    GPUCOMPILE_VULKAN__FN(int, EnumeratePhysicalDevices, (void *, uint32_t *, void **));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceProperties, (void *, void *));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceQueueFamilyProperties, (void *, uint32_t *, gpucompile_vulkan__queue_family *));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceMemoryProperties, (void *, gpucompile_vulkan__memory_properties *));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceFeatures2, (void *, gpucompile_vulkan__features *));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceProperties2, (void *, void *));
    GPUCOMPILE_VULKAN__FN(int, EnumerateDeviceExtensionProperties, (void *, const char *, uint32_t *, gpucompile_vulkan__extension *));
    GPUCOMPILE_VULKAN__FN(int, CreateDevice, (void *, const gpucompile_vulkan__device_info *, const void *, void **));
    GPUCOMPILE_VULKAN__FN(void, GetPhysicalDeviceFormatProperties, (void *, uint32_t, gpucompile_vulkan__format_properties *));
    GPUCOMPILE_VULKAN__FN(int, CreateDebugUtilsMessengerEXT, (void *, const gpucompile_vulkan__messenger_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, GetDeviceQueue, (void *, uint32_t, uint32_t, void **));
    GPUCOMPILE_VULKAN__FN(int, CreateBuffer, (void *, const gpucompile_vulkan__buffer_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyBuffer, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, GetBufferMemoryRequirements, (void *, uint64_t, gpucompile_vulkan__memory_requirements *));
    GPUCOMPILE_VULKAN__FN(int, AllocateMemory, (void *, const gpucompile_vulkan__allocate_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, FreeMemory, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, BindBufferMemory, (void *, uint64_t, uint64_t, uint64_t));
    GPUCOMPILE_VULKAN__FN(int, MapMemory, (void *, uint64_t, uint64_t, uint64_t, uint32_t, void **));
    GPUCOMPILE_VULKAN__FN(int, CreateShaderModule, (void *, const gpucompile_vulkan__shader_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyShaderModule, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, CreateDescriptorSetLayout, (void *, const gpucompile_vulkan__set_layout_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyDescriptorSetLayout, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, CreatePipelineLayout, (void *, const gpucompile_vulkan__layout_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyPipelineLayout, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, CreateComputePipelines, (void *, uint64_t, uint32_t, const gpucompile_vulkan__pipeline_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyPipeline, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, CreatePipelineCache, (void *, const gpucompile_vulkan__cache_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(int, GetPipelineCacheData, (void *, uint64_t, size_t *, void *));
    GPUCOMPILE_VULKAN__FN(int, CreateCommandPool, (void *, const gpucompile_vulkan__pool_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyCommandPool, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, ResetCommandPool, (void *, uint64_t, uint32_t));
    GPUCOMPILE_VULKAN__FN(int, AllocateCommandBuffers, (void *, const gpucompile_vulkan__command_buffer_info *, void **));
    GPUCOMPILE_VULKAN__FN(int, BeginCommandBuffer, (void *, const gpucompile_vulkan__begin_info *));
    GPUCOMPILE_VULKAN__FN(int, EndCommandBuffer, (void *));
    GPUCOMPILE_VULKAN__FN(int, CreateFence, (void *, const gpucompile_vulkan__fence_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyFence, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, WaitForFences, (void *, uint32_t, const uint64_t *, uint32_t, uint64_t));
    GPUCOMPILE_VULKAN__FN(int, ResetFences, (void *, uint32_t, const uint64_t *));
    GPUCOMPILE_VULKAN__FN(int, QueueSubmit, (void *, uint32_t, const gpucompile_vulkan__submit_info *, uint64_t));
    GPUCOMPILE_VULKAN__FN(int, CreateDescriptorPool, (void *, const gpucompile_vulkan__descriptor_pool_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyDescriptorPool, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, ResetDescriptorPool, (void *, uint64_t, uint32_t));
    GPUCOMPILE_VULKAN__FN(int, AllocateDescriptorSets, (void *, const gpucompile_vulkan__set_allocate_info *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, UpdateDescriptorSets, (void *, uint32_t, const gpucompile_vulkan__write_set *, uint32_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, CmdBindPipeline, (void *, uint32_t, uint64_t));
    GPUCOMPILE_VULKAN__FN(void, CmdBindDescriptorSets, (void *, uint32_t, uint64_t, uint32_t, uint32_t, const uint64_t *, uint32_t, const uint32_t *));
    GPUCOMPILE_VULKAN__FN(void, CmdPushConstants, (void *, uint64_t, uint32_t, uint32_t, uint32_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, CmdPushDescriptorSetKHR, (void *, uint32_t, uint64_t, uint32_t, uint32_t, const gpucompile_vulkan__write_set *));
    GPUCOMPILE_VULKAN__FN(void, CmdDispatch, (void *, uint32_t, uint32_t, uint32_t));
    GPUCOMPILE_VULKAN__FN(void, CmdDispatchBase, (void *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t));
    GPUCOMPILE_VULKAN__FN(void, CmdPipelineBarrier, (void *, uint32_t, uint32_t, uint32_t, uint32_t, const gpucompile_vulkan__memory_barrier *, uint32_t, const void *, uint32_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, CmdCopyBuffer, (void *, uint64_t, uint64_t, uint32_t, const gpucompile_vulkan__buffer_copy *));
    GPUCOMPILE_VULKAN__FN(void, CmdFillBuffer, (void *, uint64_t, uint64_t, uint64_t, uint32_t));
    GPUCOMPILE_VULKAN__FN(int, CreateImage, (void *, const gpucompile_vulkan__image_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyImage, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, GetImageMemoryRequirements, (void *, uint64_t, gpucompile_vulkan__memory_requirements *));
    GPUCOMPILE_VULKAN__FN(int, BindImageMemory, (void *, uint64_t, uint64_t, uint64_t));
    GPUCOMPILE_VULKAN__FN(int, CreateImageView, (void *, const gpucompile_vulkan__view_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroyImageView, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(int, CreateSampler, (void *, const gpucompile_vulkan__sampler_info *, const void *, uint64_t *));
    GPUCOMPILE_VULKAN__FN(void, DestroySampler, (void *, uint64_t, const void *));
    GPUCOMPILE_VULKAN__FN(void, CmdCopyBufferToImage, (void *, uint64_t, uint64_t, uint32_t, uint32_t, const gpucompile_vulkan__image_copy *));
    GPUCOMPILE_VULKAN__FN(void, CmdCopyImageToBuffer, (void *, uint64_t, uint32_t, uint64_t, uint32_t, const gpucompile_vulkan__image_copy *));
    GPUCOMPILE_VULKAN__FN(void, CmdUpdateBuffer, (void *, uint64_t, uint64_t, uint64_t, const void *));
} gpucompile_vulkan__fns;

/* The instance-level and device-level entry points, by name, in gpucompile_vulkan__fns' order
   (after GetInstanceProcAddr, GetDeviceProcAddr); a leading '?' marks an optional one. */
static const char *const gpucompile_vulkan__global_names[] = {"vkCreateInstance", "vkEnumerateInstanceLayerProperties",
    "vkEnumerateInstanceExtensionProperties"};
static const char *const gpucompile_vulkan__instance_names[] = {"vkEnumeratePhysicalDevices", "vkGetPhysicalDeviceProperties",
    "vkGetPhysicalDeviceQueueFamilyProperties", "vkGetPhysicalDeviceMemoryProperties", "vkGetPhysicalDeviceFeatures2",
    "vkGetPhysicalDeviceProperties2", "vkEnumerateDeviceExtensionProperties", "vkCreateDevice", "vkGetPhysicalDeviceFormatProperties", "?vkCreateDebugUtilsMessengerEXT"};
static const char *const gpucompile_vulkan__device_names[] = {"vkGetDeviceQueue", "vkCreateBuffer", "vkDestroyBuffer",
    "vkGetBufferMemoryRequirements", "vkAllocateMemory", "vkFreeMemory", "vkBindBufferMemory", "vkMapMemory", "vkCreateShaderModule",
    "vkDestroyShaderModule", "vkCreateDescriptorSetLayout", "vkDestroyDescriptorSetLayout", "vkCreatePipelineLayout",
    "vkDestroyPipelineLayout", "vkCreateComputePipelines", "vkDestroyPipeline", "vkCreatePipelineCache", "vkGetPipelineCacheData",
    "vkCreateCommandPool", "vkDestroyCommandPool", "vkResetCommandPool", "vkAllocateCommandBuffers", "vkBeginCommandBuffer",
    "vkEndCommandBuffer", "vkCreateFence", "vkDestroyFence", "vkWaitForFences", "vkResetFences", "vkQueueSubmit",
    "vkCreateDescriptorPool", "vkDestroyDescriptorPool", "vkResetDescriptorPool", "vkAllocateDescriptorSets",
    "vkUpdateDescriptorSets", "vkCmdBindPipeline", "vkCmdBindDescriptorSets", "vkCmdPushConstants", "?vkCmdPushDescriptorSetKHR",
    "vkCmdDispatch", "?vkCmdDispatchBase", "vkCmdPipelineBarrier", "vkCmdCopyBuffer", "vkCmdFillBuffer", "vkCreateImage", "vkDestroyImage",
    "vkGetImageMemoryRequirements", "vkBindImageMemory", "vkCreateImageView", "vkDestroyImageView", "vkCreateSampler", "vkDestroySampler",
    "vkCmdCopyBufferToImage", "vkCmdCopyImageToBuffer", "vkCmdUpdateBuffer"};

/* An allocation: [base, base + size) of the host's address space, mapped from buffer's memory. */
typedef struct gpucompile_vulkan__alloc { uintptr_t base; uint64_t size, buffer, memory; } gpucompile_vulkan__alloc;

/* Where commands are recorded: a stream, or a NULL-stream launch's borrowed one. */
typedef struct gpucompile_vulkan__ctx {
    uint64_t pool, fence, descriptors; /* descriptors: a pool for devices without push descriptors, made on first use */
    void *cmd;
    int recording, ops;
    struct gpucompile_vulkan__ctx *next; /* the free list */
} gpucompile_vulkan__ctx;

struct gpucompile_vulkan__module;
/* A pipeline of an entry point with sizes set at launch: the values it was made with. */
typedef struct gpucompile_vulkan__variant { uint32_t values[GPUCOMPILE_VULKAN_MAX_LAUNCH]; uint64_t pipeline; } gpucompile_vulkan__variant;
/* A function: one entry point's reflection, layouts and pipeline (made with the defaults of the
   sizes set at launch); the pipelines made for other sizes (guarded by the runtime's lock). */
typedef struct gpucompile_vulkan__function {
    gpucompile_vulkan_kernel k;
    uint64_t sets[4], layout, pipeline, shader;
    uint32_t num_sets;
    int push_descriptors; /* its bindings go through vkCmdPushDescriptorSetKHR */
    void *uniforms;       /* the mgpu* runtime's uniform buffer of its scalars (k.has_uniforms), from mgpuMemAlloc's allocator */
    gpucompile_vulkan__variant *variants;
    int num_variants, cap_variants, last;
} gpucompile_vulkan__function;

typedef struct gpucompile_vulkan__module {
    uint64_t shader;
    int num_functions;
    gpucompile_vulkan__function *functions;
} gpucompile_vulkan__module;

/* An image of mgpuImageCreate: its VkImage (always in VK_IMAGE_LAYOUT_GENERAL), memory, view. */
typedef struct gpucompile_vulkan__image {
    uint64_t image, memory, view;
    uint32_t format, extent[3], layers, pixel, integer, channels; /* channels: order | data type << 16 */
    struct gpucompile_vulkan__image *next;
} gpucompile_vulkan__image;

typedef struct gpucompile_vulkan__state {
    gpucompile_vulkan__fns vk;
    void *instance, *physical, *device, *queue;
    uint32_t family, memory_type;
    uint64_t messenger, cache;
    uint64_t props_words[GPUCOMPILE_VULKAN__PROPS_SIZE / 8]; /* VkPhysicalDeviceProperties */
    uint32_t max_push, max_groups[3], max_invocations, max_uniform_range, max_group_size[3], max_shared;
    uint64_t storage_align, uniform_align;
    int push_descriptors, int8, int16, int64, float_atomics, starting;
    int read_without_format, write_without_format; /* shaderStorageImageRead/WriteWithoutFormat */
    int int64_atomics;                             /* shaderBufferInt64Atomics */
    uint32_t subgroup_ops;                         /* subgroupSupportedOperations in compute shaders */
    uint32_t subgroup_min, subgroup_max;           /* the sub-group sizes a compute pipeline may ask for (subgroupSizeControl) */
    int size_control, full_subgroups;              /* subgroupSizeControl for compute shaders, computeFullSubgroups: enabled */
    int unsaved; /* pipelines made at launches since the cache file was written (guarded by the lock) */
    char cache_path[1024];
    int cache_path_set;
    /* guarded by the lock below */
    gpucompile_vulkan__alloc *allocs; /* sorted by base */
    size_t num_allocs, cap_allocs;
    gpucompile_vulkan__ctx *free_ctx;
    struct gpucompile_vulkan__image *images;      /* mgpuImageCreate's */
    struct { uint32_t key; uint64_t sampler; } samplers[64]; /* one per OpenCL sampler mode (and texel kind), kept */
    int num_samplers;
    gpucompile_vulkan_runtime_info info;
    char deferred[1024];  /* validation messages during start (written then only), reported at the next call */
    unsigned num_deferred;
    int deferred_reported;
} gpucompile_vulkan__state;
static gpucompile_vulkan__state gpucompile_vulkan__rt;

/* Our own lock (the queue, the allocation table, the free commands, the counters): never held
   while reporting, and apart from gpucompile_lock, which the runtime holds while starting and
   the error callback takes (a validation message may come from inside any Vulkan call). */
GPUCOMPILE_LOCK_DEFINE(gpucompile_vulkan__mutex, gpucompile_vulkan__lock, gpucompile_vulkan__unlock)

static const char *gpucompile_vulkan__result_name(int r) {
    switch (r) {
    case 1: return "VK_NOT_READY";
    case 2: return "VK_TIMEOUT";
    case -1: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case -2: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case -3: return "VK_ERROR_INITIALIZATION_FAILED";
    case -4: return "VK_ERROR_DEVICE_LOST";
    case -5: return "VK_ERROR_MEMORY_MAP_FAILED";
    case -6: return "VK_ERROR_LAYER_NOT_PRESENT";
    case -7: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case -8: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case -9: return "VK_ERROR_INCOMPATIBLE_DRIVER: no Vulkan 1.3 driver (Debian: mesa-vulkan-drivers)";
    case -10: return "VK_ERROR_TOO_MANY_OBJECTS";
    case -13: return "VK_ERROR_UNKNOWN";
    case -1000012000: return "VK_ERROR_INVALID_SHADER_NV";
    case -1000069000: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default: return "Vulkan error";
    }
}

static void gpucompile_vulkan__vk_check(int r, const char *call) {
    char msg[160];
    if (r == 0) return;
    snprintf(msg, sizeof msg, "%s (%d)", gpucompile_vulkan__result_name(r), r);
    gpucompile_runtime_report(call, r, msg);
}

/* Validation messages (warnings and errors) to the error callback; during start (the runtime's
   lock is held) kept for the next call. */
static uint32_t GPUCOMPILE_VULKAN__CALL gpucompile_vulkan__on_message(uint32_t severity, uint32_t types, const gpucompile_vulkan__message *m,
                                                                       void *user) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    const char *text = m && m->message ? m->message : "(no message)";
    (void)types;
    (void)user;
    if (!(severity & 0x1100u)) return 0; /* WARNING | ERROR */
    if (s->starting) {
        if (!s->num_deferred++) snprintf(s->deferred, sizeof s->deferred, "%s", text);
        return 0;
    }
    gpucompile_runtime_report("vkDebugUtilsMessengerEXT", m ? m->id : 0, text);
    return 0;
}

static void gpucompile_vulkan__enter(void) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    char msg[1200];
    int first;
    if (!s->num_deferred) return; /* written during start only, which the runtime's lock ordered before */
    gpucompile_vulkan__lock();
    first = !s->deferred_reported;
    s->deferred_reported = 1;
    gpucompile_vulkan__unlock();
    if (!first) return;
    snprintf(msg, sizeof msg, "%s%s", s->deferred, s->num_deferred > 1 ? " (and more messages while starting)" : "");
    gpucompile_runtime_report("vkDebugUtilsMessengerEXT", -1, msg);
}

/* Resolves names[i] into the i-th pointer from first: NULL, or the first required one missing. */
static const char *gpucompile_vulkan__resolve(gpucompile_vulkan__state *s, void *owner, int device, const char *const *names, size_t count,
                                              void *first) {
    size_t i;
    for (i = 0; i < count; i++) {
        const char *name = names[i][0] == '?' ? names[i] + 1 : names[i];
        gpucompile_vulkan__void_fn f = device ? s->vk.GetDeviceProcAddr(owner, name) : s->vk.GetInstanceProcAddr(owner, name);
        if (!f && names[i][0] != '?') return name;
        memcpy((char *)first + i * sizeof f, &f, sizeof f);
    }
    return NULL;
}

static const char *gpucompile_vulkan__load(void *lib) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    if (!gpucompile_dlfn(lib, "vkGetInstanceProcAddr", &s->vk.GetInstanceProcAddr)) return "vkGetInstanceProcAddr";
    return gpucompile_vulkan__resolve(s, NULL, 0, gpucompile_vulkan__global_names, 3, &s->vk.CreateInstance);
}

#define GPUCOMPILE_VULKAN__NO_DEVICE 1000 /* our code: no device with a compute queue at the ordinal */

static void gpucompile_vulkan__check(int r, const char *call) {
    if (r == GPUCOMPILE_VULKAN__NO_DEVICE) gpucompile_runtime_report(call, r, "no Vulkan device with a compute queue (at mgpuSetDefaultDevice's ordinal)");
    else gpucompile_vulkan__vk_check(r, call);
}

static uint32_t gpucompile_vulkan__u32(const gpucompile_vulkan__state *s, size_t off) {
    uint32_t v;
    memcpy(&v, (const unsigned char *)s->props_words + off, 4);
    return v;
}

static int gpucompile_vulkan__has_ext(const gpucompile_vulkan__extension *e, uint32_t n, const char *name) {
    uint32_t i;
    for (i = 0; i < n; i++)
        if (strcmp(e[i].name, name) == 0) return 1;
    return 0;
}

/* mkdir -p of the directory part of path. */
static void gpucompile_vulkan__mkdirs(const char *path) {
    char p[1024];
    size_t i, n = strlen(path);
    if (n >= sizeof p) return;
    memcpy(p, path, n + 1);
    for (i = 1; i < n; i++) {
        if (p[i] != '/' && p[i] != '\\') continue;
        p[i] = 0;
#if defined(_WIN32)
        _mkdir(p);
#else
        mkdir(p, 0777);
#endif
        p[i] = path[i];
    }
}

/* The pipeline cache's file: the caller's, else $GPUCOMPILE_VULKAN_PIPELINE_CACHE, else beside
   gpucompile's compile cache; "" for none. */
static void gpucompile_vulkan__cache_file(gpucompile_vulkan__state *s, char *out, size_t size) {
    const char *e = getenv("GPUCOMPILE_VULKAN_PIPELINE_CACHE"), *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    char dir[900];
    out[0] = 0;
    dir[0] = 0;
    if (s->cache_path_set) snprintf(out, size, "%s", s->cache_path);
    else if (e && *e) snprintf(out, size, "%s", e);
    if (out[0]) {
        if (strcmp(out, "off") == 0) out[0] = 0;
        return;
    }
#if defined(_WIN32)
    {
        const char *l = getenv("LOCALAPPDATA");
        if (l && *l && !(x && *x)) snprintf(dir, sizeof dir, "%s\\gpucompile", l);
    }
#endif
    if (dir[0]) {
    } else if (x && *x) snprintf(dir, sizeof dir, "%s/gpucompile", x);
    else if (h && *h) snprintf(dir, sizeof dir, "%s/.cache/gpucompile", h);
    else return;
#if defined(_WIN32)
    snprintf(out, size, "%s\\vulkan-pipelines-%04x-%04x.bin", dir, (unsigned)gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_VENDOR),
             (unsigned)gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_DEVICE));
    if (x && *x) /* $XDG_CACHE_HOME's own separators */
#endif
    snprintf(out, size, "%s/vulkan-pipelines-%04x-%04x.bin", dir, (unsigned)gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_VENDOR),
             (unsigned)gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_DEVICE));
}

/* Creates the pipeline cache from its file (when the file is there and the driver takes it). */
static int gpucompile_vulkan__cache_open(gpucompile_vulkan__state *s) {
    gpucompile_vulkan__cache_info ci;
    void *data = NULL;
    long n = 0;
    FILE *f;
    int r;
    gpucompile_vulkan__cache_file(s, s->info.pipeline_cache, sizeof s->info.pipeline_cache);
    if (s->info.pipeline_cache[0] && (f = fopen(s->info.pipeline_cache, "rb")) != NULL) {
        if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && n < (1L << 30) && fseek(f, 0, SEEK_SET) == 0 &&
            (data = malloc((size_t)n)) != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
            free(data);
            data = NULL;
        }
        fclose(f);
    }
    memset(&ci, 0, sizeof ci);
    ci.sType = GPUCOMPILE_VULKAN__ST_PIPELINE_CACHE;
    ci.size = data ? (size_t)n : 0;
    ci.data = data;
    r = s->vk.CreatePipelineCache(s->device, &ci, NULL, &s->cache);
    if (r != 0 && data) { /* a file the driver refuses: start empty */
        ci.size = 0;
        ci.data = NULL;
        r = s->vk.CreatePipelineCache(s->device, &ci, NULL, &s->cache);
    } else if (data) {
        s->info.cache_bytes_loaded = (uint64_t)n;
    }
    free(data);
    return r;
}

/* Writes the pipeline cache to its file: a new file renamed over the old one, so a reader never
   sees half of it. */
static void gpucompile_vulkan__cache_save(gpucompile_vulkan__state *s) {
    size_t n = 0;
    void *data;
    char tmp[1100];
    FILE *f;
    int ok = 0;
    if (!s->info.pipeline_cache[0] || !s->cache || s->vk.GetPipelineCacheData(s->device, s->cache, &n, NULL) != 0 || !n) return;
    if (!(data = malloc(n))) return;
    if (s->vk.GetPipelineCacheData(s->device, s->cache, &n, data) == 0) {
#if defined(_WIN32)
        snprintf(tmp, sizeof tmp, "%s.%lu.tmp", s->info.pipeline_cache, (unsigned long)GetCurrentProcessId());
#else
        snprintf(tmp, sizeof tmp, "%s.%ld.tmp", s->info.pipeline_cache, (long)getpid());
#endif
        gpucompile_vulkan__mkdirs(s->info.pipeline_cache);
        if ((f = fopen(tmp, "wb")) != NULL) {
            ok = fwrite(data, 1, n, f) == n;
            ok = fclose(f) == 0 && ok;
#if defined(_WIN32)
            ok = ok && MoveFileExA(tmp, s->info.pipeline_cache, MOVEFILE_REPLACE_EXISTING);
#else
            ok = ok && rename(tmp, s->info.pipeline_cache) == 0;
#endif
            if (!ok) remove(tmp);
        }
    }
    free(data);
    if (ok) {
        gpucompile_vulkan__lock();
        s->info.cache_bytes_saved = n;
        gpucompile_vulkan__unlock();
    }
}

/* Instance (validation when asked), the ordinal'th device with a compute queue, a Vulkan 1.3
   device with the features it has among ours, the pipeline cache. Runs with the runtime's lock
   held: no report from here (validation messages wait for the next call). */
static int gpucompile_vulkan__start_locked(gpucompile_vulkan__state *s, int ordinal, const char **call) {
    gpucompile_vulkan__app_info app;
    gpucompile_vulkan__instance_info ii;
    gpucompile_vulkan__messenger_info mi;
    gpucompile_vulkan__device_info di;
    gpucompile_vulkan__queue_info qi;
    gpucompile_vulkan__features f, ef;
    gpucompile_vulkan__features11 f11, ef11;
    gpucompile_vulkan__features12 f12, ef12;
    gpucompile_vulkan__features13 f13, ef13;
    gpucompile_vulkan__atomic_float fa, efa;
    gpucompile_vulkan__memory_properties mp;
    gpucompile_vulkan__extension *exts = NULL;
    gpucompile_vulkan__layer *layers = NULL;
    const char *layer_names[1], *ext_names[4];
    void *devices[16];
    uint32_t n = 0, nl = 0, i, j, seen = 0, num_layers = 0, num_exts = 0;
    const char *v = getenv("GPUCOMPILE_VULKAN_VALIDATION"), *il = getenv("VK_INSTANCE_LAYERS");
    int r, want_validation = v && *v && strcmp(v, "0") != 0, debug_utils = 0, atomic_float = 0;
    static const float priority = 1.0f;
    static const int core[] = {29, 31, 32, 39, 40, 41}, v11[] = {0, 1, 2}, v12[] = {2, 3, 4, 5, 6, 7, 8, 31, 33, 34, 41, 42},
                     v13[] = {7, 8, 11, 13, 14}, vaf[] = {0, 1, 2, 3, 4, 5, 6, 7};
    /* instance: layers and extensions */
    if (want_validation) {
        if (s->vk.EnumerateInstanceLayerProperties(&nl, NULL) == 0 && nl &&
            (layers = (gpucompile_vulkan__layer *)calloc(nl, sizeof *layers)) != NULL &&
            s->vk.EnumerateInstanceLayerProperties(&nl, layers) >= 0)
            for (i = 0; i < nl; i++)
                if (strcmp(layers[i].name, "VK_LAYER_KHRONOS_validation") == 0) {
                    layer_names[0] = "VK_LAYER_KHRONOS_validation";
                    num_layers = 1;
                }
        free(layers);
        if (!num_layers && !s->num_deferred++)
            snprintf(s->deferred, sizeof s->deferred, "GPUCOMPILE_VULKAN_VALIDATION: VK_LAYER_KHRONOS_validation is not installed "
                                                      "(Debian: vulkan-validationlayers); running without it");
    }
    if (want_validation || (il && *il)) {
        n = 0;
        if (s->vk.EnumerateInstanceExtensionProperties(NULL, &n, NULL) == 0 && n &&
            (exts = (gpucompile_vulkan__extension *)calloc(n, sizeof *exts)) != NULL &&
            s->vk.EnumerateInstanceExtensionProperties(NULL, &n, exts) >= 0)
            debug_utils = gpucompile_vulkan__has_ext(exts, n, "VK_EXT_debug_utils");
        free(exts);
        exts = NULL;
    }
    memset(&app, 0, sizeof app);
    app.sType = GPUCOMPILE_VULKAN__ST_APPLICATION_INFO;
    app.engine = "gpucompile";
    app.api_version = GPUCOMPILE_VULKAN__API_1_3;
    memset(&mi, 0, sizeof mi);
    mi.sType = GPUCOMPILE_VULKAN__ST_MESSENGER;
    mi.severities = 0x1100u; /* WARNING | ERROR */
    mi.types = 3u;           /* GENERAL | VALIDATION (not PERFORMANCE: its advice on the GENERAL layout every image keeps is no error) */
    mi.callback = gpucompile_vulkan__on_message;
    memset(&ii, 0, sizeof ii);
    ii.sType = GPUCOMPILE_VULKAN__ST_INSTANCE;
    ii.pNext = debug_utils ? &mi : NULL;
    ii.app = &app;
    ii.layer_count = num_layers;
    ii.layers = layer_names;
    ext_names[0] = "VK_EXT_debug_utils";
    ii.ext_count = debug_utils ? 1 : 0;
    ii.exts = ext_names;
    *call = "vkCreateInstance";
    if ((r = s->vk.CreateInstance(&ii, NULL, &s->instance)) != 0) return r;
    *call = "vkGetInstanceProcAddr";
    {
        gpucompile_vulkan__void_fn gdpa = s->vk.GetInstanceProcAddr(s->instance, "vkGetDeviceProcAddr");
        memcpy(&s->vk.GetDeviceProcAddr, &gdpa, sizeof gdpa);
        if (!gdpa || gpucompile_vulkan__resolve(s, s->instance, 0, gpucompile_vulkan__instance_names,
                                             sizeof gpucompile_vulkan__instance_names / sizeof gpucompile_vulkan__instance_names[0], &s->vk.EnumeratePhysicalDevices)) return -3;
    }
    if (debug_utils && s->vk.CreateDebugUtilsMessengerEXT) s->vk.CreateDebugUtilsMessengerEXT(s->instance, &mi, NULL, &s->messenger);
    /* the device */
    *call = "vkEnumeratePhysicalDevices";
    n = 16;
    if ((r = s->vk.EnumeratePhysicalDevices(s->instance, &n, devices)) < 0) return r;
    for (i = 0; i < n && !s->physical; i++) {
        gpucompile_vulkan__queue_family qf[16];
        uint32_t nq = 16;
        s->vk.GetPhysicalDeviceQueueFamilyProperties(devices[i], &nq, qf);
        for (j = 0; j < nq && j < 16; j++)
            if (qf[j].flags & 2u) break; /* VK_QUEUE_COMPUTE_BIT */
        if (j < nq && j < 16 && seen++ == (uint32_t)ordinal) {
            s->physical = devices[i];
            s->family = j;
        }
    }
    if (!s->physical) return GPUCOMPILE_VULKAN__NO_DEVICE;
    s->vk.GetPhysicalDeviceProperties(s->physical, s->props_words);
    *call = "vkGetPhysicalDeviceProperties";
    if (gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_API) < GPUCOMPILE_VULKAN__API_1_3) return -9;
    n = 0;
    *call = "vkEnumerateDeviceExtensionProperties";
    if ((r = s->vk.EnumerateDeviceExtensionProperties(s->physical, NULL, &n, NULL)) != 0) return r;
    if (n && (!(exts = (gpucompile_vulkan__extension *)calloc(n, sizeof *exts)) || s->vk.EnumerateDeviceExtensionProperties(s->physical, NULL, &n, exts) < 0)) {
        free(exts);
        return -1;
    }
    v = getenv("GPUCOMPILE_VULKAN_NO_PUSH_DESCRIPTORS"); /* descriptor sets, as on a device without them (tests) */
    s->push_descriptors = gpucompile_vulkan__has_ext(exts, n, "VK_KHR_push_descriptor") && !(v && *v && strcmp(v, "0") != 0);
    atomic_float = gpucompile_vulkan__has_ext(exts, n, "VK_EXT_shader_atomic_float");
    free(exts);
    num_exts = 0;
    if (s->push_descriptors) ext_names[num_exts++] = "VK_KHR_push_descriptor";
    if (atomic_float) ext_names[num_exts++] = "VK_EXT_shader_atomic_float";
    /* features: what the device has among ours */
    memset(&f, 0, sizeof f);
    memset(&f11, 0, sizeof f11);
    memset(&f12, 0, sizeof f12);
    memset(&f13, 0, sizeof f13);
    memset(&fa, 0, sizeof fa);
    f.sType = GPUCOMPILE_VULKAN__ST_FEATURES_2;
    f11.sType = GPUCOMPILE_VULKAN__ST_FEATURES_11;
    f12.sType = GPUCOMPILE_VULKAN__ST_FEATURES_12;
    f13.sType = GPUCOMPILE_VULKAN__ST_FEATURES_13;
    fa.sType = GPUCOMPILE_VULKAN__ST_ATOMIC_FLOAT;
    f.pNext = &f11;
    f11.pNext = &f12;
    f12.pNext = &f13;
    f13.pNext = atomic_float ? &fa : NULL;
    s->vk.GetPhysicalDeviceFeatures2(s->physical, &f);
    ef = f;
    ef11 = f11;
    ef12 = f12;
    ef13 = f13;
    efa = fa;
    memset(ef.f, 0, sizeof ef.f);
    memset(ef11.f, 0, sizeof ef11.f);
    memset(ef12.f, 0, sizeof ef12.f);
    memset(ef13.f, 0, sizeof ef13.f);
    memset(efa.f, 0, sizeof efa.f);
    ef.pNext = &ef11;
    ef11.pNext = &ef12;
    ef12.pNext = &ef13;
    ef13.pNext = atomic_float ? &efa : NULL;
    for (i = 0; i < sizeof core / sizeof core[0]; i++) ef.f[core[i]] = f.f[core[i]] ? 1u : 0u;
    for (i = 0; i < sizeof v11 / sizeof v11[0]; i++) ef11.f[v11[i]] = f11.f[v11[i]] ? 1u : 0u;
    for (i = 0; i < sizeof v12 / sizeof v12[0]; i++) ef12.f[v12[i]] = f12.f[v12[i]] ? 1u : 0u;
    for (i = 0; i < sizeof v13 / sizeof v13[0]; i++) ef13.f[v13[i]] = f13.f[v13[i]] ? 1u : 0u;
    for (i = 0; i < sizeof vaf / sizeof vaf[0]; i++) efa.f[vaf[i]] = atomic_float && fa.f[vaf[i]] ? 1u : 0u;
    s->int8 = (int)ef12.f[8];
    s->int16 = (int)ef.f[41];
    s->int64 = (int)ef.f[40];
    s->read_without_format = (int)ef.f[31];
    s->write_without_format = (int)ef.f[32];
    s->int64_atomics = (int)ef12.f[5];
    s->float_atomics = (int)(efa.f[0] | efa.f[1]);
    { /* the sub-group operations of compute shaders (Vulkan 1.1 has at least the basic ones) */
        struct { uint32_t sType; void *pNext; uint64_t p[GPUCOMPILE_VULKAN__PROPS_SIZE / 8]; } p2;
        gpucompile_vulkan__subgroup_properties sp;
        gpucompile_vulkan__size_control sc;
        memset(&p2, 0, sizeof p2);
        memset(&sp, 0, sizeof sp);
        memset(&sc, 0, sizeof sc);
        p2.sType = GPUCOMPILE_VULKAN__ST_PROPERTIES_2;
        p2.pNext = &sp;
        sp.sType = GPUCOMPILE_VULKAN__ST_SUBGROUP_PROPERTIES;
        sp.pNext = &sc;
        sc.sType = GPUCOMPILE_VULKAN__ST_SIZE_CONTROL;
        s->vk.GetPhysicalDeviceProperties2(s->physical, &p2);
        s->subgroup_ops = sp.stages & 0x20 ? sp.operations : 0; /* VK_SHADER_STAGE_COMPUTE_BIT */
        s->size_control = ef13.f[7] && (sc.stages & 0x20) && sc.min && sc.min <= sc.max;
        s->full_subgroups = (int)ef13.f[8];
        s->subgroup_min = s->size_control ? sc.min : sp.size;
        s->subgroup_max = s->size_control ? sc.max : sp.size;
        s->info.subgroup_min = s->subgroup_min;
        s->info.subgroup_max = s->subgroup_max;
        s->info.subgroup_size = sp.size;
        s->info.subgroup_operations = s->subgroup_ops;
    }
    memset(&qi, 0, sizeof qi);
    qi.sType = GPUCOMPILE_VULKAN__ST_DEVICE_QUEUE;
    qi.family = s->family;
    qi.count = 1;
    qi.priorities = &priority;
    memset(&di, 0, sizeof di);
    di.sType = GPUCOMPILE_VULKAN__ST_DEVICE;
    di.pNext = &ef;
    di.queue_info_count = 1;
    di.queue_infos = &qi;
    di.ext_count = num_exts;
    di.exts = ext_names;
    *call = "vkCreateDevice";
    if ((r = s->vk.CreateDevice(s->physical, &di, NULL, &s->device)) != 0) return r;
    *call = "vkGetDeviceProcAddr";
    if (gpucompile_vulkan__resolve(s, s->device, 1, gpucompile_vulkan__device_names, sizeof gpucompile_vulkan__device_names / sizeof gpucompile_vulkan__device_names[0],
                                   &s->vk.GetDeviceQueue))
        return -3;
    if (!s->vk.CmdPushDescriptorSetKHR) s->push_descriptors = 0;
    s->vk.GetDeviceQueue(s->device, s->family, 0, &s->queue);
    /* memory: host-visible and coherent, device-local among them first */
    s->vk.GetPhysicalDeviceMemoryProperties(s->physical, &mp);
    s->memory_type = 32;
    for (j = 0; j < 2 && s->memory_type == 32; j++)
        for (i = 0; i < mp.type_count && i < 32 && s->memory_type == 32; i++)
            if ((mp.types[i].flags & 6u) == 6u && (j == 1 || (mp.types[i].flags & 1u))) s->memory_type = i;
    *call = "vkGetPhysicalDeviceMemoryProperties";
    if (s->memory_type == 32) return -2;
    s->max_uniform_range = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_UNIFORM_RANGE);
    s->max_push = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_PUSH);
    s->max_invocations = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_INVOCATIONS);
    s->max_shared = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_SHARED);
    for (i = 0; i < 3; i++) {
        s->max_groups[i] = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_GROUPS + 4 * i);
        s->max_group_size[i] = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MAX_GROUP_SIZE + 4 * i);
    }
    memcpy(&s->storage_align, (const unsigned char *)s->props_words + GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MIN_STORAGE_ALIGN, 8);
    memcpy(&s->uniform_align, (const unsigned char *)s->props_words + GPUCOMPILE_VULKAN__P_LIMITS + GPUCOMPILE_VULKAN__L_MIN_UNIFORM_ALIGN, 8);
    *call = "vkCreatePipelineCache";
    if ((r = gpucompile_vulkan__cache_open(s)) != 0) return r;
    /* what it started with */
    snprintf(s->info.device_name, sizeof s->info.device_name, "%.255s", (const char *)s->props_words + GPUCOMPILE_VULKAN__P_NAME);
    s->info.api_version = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_API);
    s->info.vendor_id = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_VENDOR);
    s->info.device_id = gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_DEVICE);
    s->info.push_descriptors = s->push_descriptors;
    s->info.int8 = s->int8;
    s->info.int16 = s->int16;
    s->info.int64 = s->int64;
    s->info.float_atomics = s->float_atomics;
    s->info.validation = num_layers == 1 && s->messenger; /* its messages reach the error callback */
    return 0;
}

static int gpucompile_vulkan__start(int *ordinal, char *arch, size_t arch_size, const char **call) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    int r;
    s->starting = 1;
    r = gpucompile_vulkan__start_locked(s, *ordinal, call);
    s->starting = 0;
    if (r == 0) snprintf(arch, arch_size, "vulkan");
    return r;
}

/* ---- modules and functions ---- */
static void gpucompile_vulkan__mem_free(void *ptr);
static void gpucompile_vulkan__function_free(gpucompile_vulkan__state *s, gpucompile_vulkan__function *f) {
    uint32_t i;
    int v;
    for (v = 0; v < f->num_variants; v++) s->vk.DestroyPipeline(s->device, f->variants[v].pipeline, NULL);
    free(f->variants);
    if (f->pipeline) s->vk.DestroyPipeline(s->device, f->pipeline, NULL);
    if (f->layout) s->vk.DestroyPipelineLayout(s->device, f->layout, NULL);
    if (f->uniforms) gpucompile_vulkan__mem_free(f->uniforms);
    for (i = 0; i < f->num_sets; i++)
        if (f->sets[i]) s->vk.DestroyDescriptorSetLayout(s->device, f->sets[i], NULL);
}

static int gpucompile_vulkan__pipeline_make(gpucompile_vulkan__state *s, const gpucompile_vulkan__function *f, const uint32_t *values, uint64_t *out,
                                            const char **call);

/* The layouts and the pipeline of one entry point (its sizes set at launch at their defaults):
   0, or a Vulkan error (*call) or -1 with why. */
static int gpucompile_vulkan__function_make(gpucompile_vulkan__state *s, uint64_t shader, gpucompile_vulkan__function *f, const char **call,
                                            char *why, size_t why_size) {
    const gpucompile_vulkan_kernel *k = &f->k;
    gpucompile_vulkan__set_binding b[32];
    gpucompile_vulkan__set_layout_info sl;
    gpucompile_vulkan__layout_info li;
    gpucompile_vulkan__push_range pr;
    uint64_t threads = (uint64_t)k->local_size[0] * k->local_size[1] * k->local_size[2];
    uint32_t set, nb, defaults[GPUCOMPILE_VULKAN_MAX_LAUNCH];
    int i, r;
    if (!threads || threads > s->max_invocations || k->local_size[0] > s->max_group_size[0] || k->local_size[1] > s->max_group_size[1] ||
        k->local_size[2] > s->max_group_size[2]) {
        snprintf(why, why_size, "entry point '%s': workgroup size %ux%ux%u (the device takes 1 to %u threads, at most %ux%ux%u)", k->name,
                 k->local_size[0], k->local_size[1], k->local_size[2], s->max_invocations, s->max_group_size[0], s->max_group_size[1],
                 s->max_group_size[2]);
        return -1;
    }
    if (k->workgroup_bytes > s->max_shared) {
        snprintf(why, why_size, "entry point '%s': %u bytes of workgroup memory (the device has %u)", k->name, k->workgroup_bytes, s->max_shared);
        return -1;
    }
    if (k->has_uniforms && k->uniform_set >= 4) {
        snprintf(why, why_size, "entry point '%s': its uniform block is in set %u (supported: sets 0 to 3)", k->name, k->uniform_set);
        return -1;
    }
    if (k->push_size > (k->has_uniforms ? s->max_uniform_range : s->max_push) || k->push_size > GPUCOMPILE_VULKAN__MAX_BLOCK) {
        snprintf(why, why_size, "entry point '%s': a %u-byte %s (the device takes %u)", k->name, k->push_size,
                 k->has_uniforms ? "uniform block" : "push-constant block", k->has_uniforms ? s->max_uniform_range : s->max_push);
        return -1;
    }
    f->num_sets = k->has_uniforms && k->uniform_set < 4 ? k->uniform_set + 1 : 0;
    for (i = 0; i < k->num_bindings; i++) {
        if (k->bindings[i].count != 1 || k->bindings[i].set >= 4) {
            snprintf(why, why_size, "entry point '%s': binding (set %u, binding %u) is %s (supported: one buffer per binding, sets 0 to 3)",
                     k->name, k->bindings[i].set, k->bindings[i].binding, k->bindings[i].set >= 4 ? "in a set above 3" : "an array of buffers");
            return -1;
        }
        if (k->bindings[i].set + 1 > f->num_sets) f->num_sets = k->bindings[i].set + 1;
    }
    f->push_descriptors = s->push_descriptors && f->num_sets == 1;
    *call = "vkCreateDescriptorSetLayout";
    for (set = 0; set < f->num_sets; set++) {
        for (nb = 0, i = 0; i < k->num_bindings; i++) {
            if (k->bindings[i].set != set) continue;
            b[nb].binding = k->bindings[i].binding;
            b[nb].type = k->bindings[i].descriptor_type;
            b[nb].count = 1;
            b[nb].stages = GPUCOMPILE_VULKAN__COMPUTE_STAGE;
            b[nb].samplers = NULL;
            nb++;
        }
        if (k->has_uniforms && k->uniform_set == set && nb < 32) { /* the scalars' uniform buffer */
            b[nb].binding = k->uniform_binding;
            b[nb].type = 6;
            b[nb].count = 1;
            b[nb].stages = GPUCOMPILE_VULKAN__COMPUTE_STAGE;
            b[nb].samplers = NULL;
            nb++;
        }
        memset(&sl, 0, sizeof sl);
        sl.sType = GPUCOMPILE_VULKAN__ST_SET_LAYOUT;
        sl.flags = f->push_descriptors ? 1u : 0u; /* VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR */
        sl.count = nb;
        sl.bindings = b;
        if ((r = s->vk.CreateDescriptorSetLayout(s->device, &sl, NULL, &f->sets[set])) != 0) return r;
    }
    memset(&li, 0, sizeof li);
    li.sType = GPUCOMPILE_VULKAN__ST_PIPELINE_LAYOUT;
    li.set_count = f->num_sets;
    li.sets = f->sets;
    pr.stages = GPUCOMPILE_VULKAN__COMPUTE_STAGE;
    pr.offset = 0;
    pr.size = (k->push_size + 3u) & ~3u;
    li.range_count = k->push_size && !k->has_uniforms ? 1u : 0u;
    li.ranges = &pr;
    *call = "vkCreatePipelineLayout";
    if ((r = s->vk.CreatePipelineLayout(s->device, &li, NULL, &f->layout)) != 0) return r;
    f->shader = shader;
    for (i = 0; i < k->num_launch; i++) defaults[i] = k->launch[i].value;
    return gpucompile_vulkan__pipeline_make(s, f, defaults, &f->pipeline, call);
}

/* f's compute pipeline with its sizes set at launch given values (through the pipeline cache). */
static int gpucompile_vulkan__pipeline_make(gpucompile_vulkan__state *s, const gpucompile_vulkan__function *f, const uint32_t *values, uint64_t *out,
                                            const char **call) {
    const gpucompile_vulkan_kernel *k = &f->k;
    gpucompile_vulkan__pipeline_info pi;
    gpucompile_vulkan__feedback fb;
    gpucompile_vulkan__feedback_info fi;
    gpucompile_vulkan__spec_entry se[GPUCOMPILE_VULKAN_MAX_LAUNCH];
    gpucompile_vulkan__spec_info sp;
    gpucompile_vulkan__required_size rs;
    uint32_t width = k->local_size[0];
    double t0;
    int i, r;
    for (i = 0; i < k->num_launch; i++) {
        if (k->launch[i].kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE && k->launch[i].arg == 0) width = values[i];
        se[i].id = k->launch[i].spec_id;
        se[i].offset = (uint32_t)(4 * i);
        se[i].size = 4;
    }
    sp.count = (uint32_t)k->num_launch;
    sp.entries = se;
    sp.size = (size_t)(4 * k->num_launch);
    sp.data = values;
    memset(&fb, 0, sizeof fb);
    memset(&fi, 0, sizeof fi);
    fi.sType = GPUCOMPILE_VULKAN__ST_CREATION_FEEDBACK;
    fi.pipeline = &fb;
    memset(&pi, 0, sizeof pi);
    pi.sType = GPUCOMPILE_VULKAN__ST_COMPUTE_PIPELINE;
    pi.pNext = &fi;
    pi.stage.sType = GPUCOMPILE_VULKAN__ST_SHADER_STAGE;
    pi.stage.stage = GPUCOMPILE_VULKAN__COMPUTE_STAGE;
    pi.stage.module = f->shader;
    pi.stage.name = k->name;
    pi.stage.specialization = k->num_launch ? &sp : NULL;
    pi.layout = f->layout;
    pi.base_index = -1;
    if (k->num_params && s->vk.CmdDispatchBase) pi.flags = 0x10u; /* DISPATCH_BASE: a lowered kernel's launch may be split */
    if (k->subgroup_size && s->size_control) { /* its size, and full sub-groups where the width allows (CUDA's warps of consecutive threads) */
        memset(&rs, 0, sizeof rs);
        rs.sType = GPUCOMPILE_VULKAN__ST_REQUIRED_SIZE;
        rs.size = k->subgroup_size;
        pi.stage.pNext = &rs;
        if (s->full_subgroups && width % k->subgroup_size == 0) pi.stage.flags = 2u; /* REQUIRE_FULL_SUBGROUPS */
    }
    *call = "vkCreateComputePipelines";
    t0 = gpucompile_clock_ms();
    r = s->vk.CreateComputePipelines(s->device, s->cache, 1, &pi, NULL, out);
    gpucompile_vulkan__lock();
    s->info.pipeline_ms += gpucompile_clock_ms() - t0;
    s->info.pipelines += r == 0;
    s->info.cache_hits += r == 0 && (fb.flags & 3u) == 3u; /* VALID | APPLICATION_PIPELINE_CACHE_HIT */
    gpucompile_vulkan__unlock();
    return r;
}

static void gpucompile_vulkan__module_free(gpucompile_vulkan__state *s, gpucompile_vulkan__module *m) {
    int i;
    for (i = 0; i < m->num_functions; i++) gpucompile_vulkan__function_free(s, &m->functions[i]);
    if (m->shader) s->vk.DestroyShaderModule(s->device, m->shader, NULL);
    free(m->functions);
    free(m);
}

static void gpucompile_vulkan__module_unload(void *module) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    int unsaved;
    gpucompile_vulkan__lock();
    unsaved = s->unsaved;
    s->unsaved = 0;
    gpucompile_vulkan__unlock();
    if (unsaved) gpucompile_vulkan__cache_save(s); /* the pipelines made at launches, for the next process */
    gpucompile_vulkan__module_free(s, (gpucompile_vulkan__module *)module);
}

/* The shader module, and per entry point its layouts and pipeline, on s's device. */
static gpucompile_vulkan__module *gpucompile_vulkan__module_make(gpucompile_vulkan__state *s, const void *data, size_t size) {
    gpucompile_vulkan__module *m;
    gpucompile_vulkan__shader_info si;
    gpucompile_vulkan_kernel *k = NULL;
    uint32_t *code = NULL;
    const char *call = "mgpuModuleLoad";
    char why[512];
    int n, i, r = -1;
    why[0] = 0;
    n = data && size >= 20 && memcmp(data, "\x03\x02\x23\x07", 4) == 0 ? gpucompile_vulkan__reflect(data, size, NULL, 0) : -1;
    if (n <= 0) {
        gpucompile_runtime_report("mgpuModuleLoad", -1, n < 0 ? "not a SPIR-V module (little-endian words, magic 0x07230203, every instruction within the bytes)"
                                                            : "the SPIR-V module has no GLCompute entry point");
        return NULL;
    }
    if (!(m = (gpucompile_vulkan__module *)calloc(1, sizeof *m)) || !(m->functions = (gpucompile_vulkan__function *)calloc((size_t)n, sizeof *m->functions)) ||
        !(k = (gpucompile_vulkan_kernel *)calloc((size_t)n, sizeof *k)) || !(code = (uint32_t *)malloc(size))) {
        if (m) free(m->functions);
        free(m);
        free(k);
        gpucompile_runtime_report("mgpuModuleLoad", -1, "out of host memory");
        return NULL;
    }
    gpucompile_vulkan__reflect(data, size, k, n);
    memcpy(code, data, size); /* words aligned for the driver */
    memset(&si, 0, sizeof si);
    si.sType = GPUCOMPILE_VULKAN__ST_SHADER_MODULE;
    si.size = size;
    si.code = code;
    call = "vkCreateShaderModule";
    { /* storage images without a format and 64-bit atomics need the device's features */
        gpucompile_spirv_inst it;
        for (gpucompile_spirv_begin(&it, code, size); r != 0 && !why[0] && gpucompile_spirv_next(&it);)
            if (it.op == GPUCOMPILE_VULKAN__OP_CAPABILITY && it.wc == 2 &&
                ((code[it.at + 1] == 55 && !s->read_without_format) || (code[it.at + 1] == 56 && !s->write_without_format)))
                snprintf(why, sizeof why, "the module %s storage images without a format (SPIR-V's StorageImage%sWithoutFormat); the device "
                         "lacks shaderStorageImage%sWithoutFormat", code[it.at + 1] == 55 ? "reads" : "writes", code[it.at + 1] == 55 ? "Read" : "Write",
                         code[it.at + 1] == 55 ? "Read" : "Write");
            else if (it.op == GPUCOMPILE_VULKAN__OP_CAPABILITY && it.wc == 2 && code[it.at + 1] == 12 && !s->int64_atomics)
                snprintf(why, sizeof why, "the module has 64-bit atomics (SPIR-V's Int64Atomics); the device lacks shaderBufferInt64Atomics");
            else if (it.op == GPUCOMPILE_VULKAN__OP_CAPABILITY && it.wc == 2 && code[it.at + 1] >= 61 && code[it.at + 1] <= 68 &&
                     !(s->subgroup_ops >> (code[it.at + 1] - 61) & 1)) { /* GroupNonUniform ... Quad: VkSubgroupFeatureFlagBits in order */
                static const char *const ops[] = {"BASIC", "VOTE", "ARITHMETIC", "BALLOT", "SHUFFLE", "SHUFFLE_RELATIVE", "CLUSTERED", "QUAD"};
                snprintf(why, sizeof why, "the module has sub-group operations the device lacks in compute shaders "
                         "(VK_SUBGROUP_FEATURE_%s_BIT: SPIR-V's capability %u)", ops[code[it.at + 1] - 61], (unsigned)code[it.at + 1]);
            }
    }
    for (i = 0; i < n && !why[0]; i++) /* CUDA's warp: a sub-group of its size, or wrong answers */
        if (k[i].subgroup_size && (k[i].subgroup_size < s->subgroup_min || k[i].subgroup_size > s->subgroup_max))
            snprintf(why, sizeof why, "entry point '%s' needs sub-groups of %u work-items (its warp's lanes); the device's are %u to %u%s", k[i].name,
                     (unsigned)k[i].subgroup_size, (unsigned)s->subgroup_min, (unsigned)s->subgroup_max,
                     s->size_control ? "" : " (no subgroupSizeControl for compute shaders)");
    if (!why[0] && (r = s->vk.CreateShaderModule(s->device, &si, NULL, &m->shader)) == 0) {
        for (i = 0; i < n && r == 0; i++) {
            m->functions[i].k = k[i];
            m->num_functions = i + 1;
            r = gpucompile_vulkan__function_make(s, m->shader, &m->functions[i], &call, why, sizeof why);
        }
    }
    free(code);
    free(k);
    if (r != 0) {
        if (why[0]) gpucompile_runtime_report("mgpuModuleLoad", -1, why);
        else gpucompile_vulkan__vk_check(r, call);
        gpucompile_vulkan__module_free(s, m);
        return NULL;
    }
    return m;
}

static void *gpucompile_vulkan__module_load(const void *data, size_t size) {
    gpucompile_vulkan__module *m = gpucompile_vulkan__module_make(&gpucompile_vulkan__rt, data, size);
    if (m) gpucompile_vulkan__cache_save(&gpucompile_vulkan__rt);
    return m;
}

static void *gpucompile_vulkan__get_function(void *module, const char *name) {
    gpucompile_vulkan__module *m = (gpucompile_vulkan__module *)module;
    char msg[1024];
    size_t len = 0;
    int i;
    if (!m || !name) return NULL;
    for (i = 0; i < m->num_functions; i++)
        if (strcmp(m->functions[i].k.name, name) == 0) return &m->functions[i];
    len = (size_t)snprintf(msg, sizeof msg, "no entry point '%.200s' in the module; it has:", name);
    for (i = 0; i < m->num_functions && len < sizeof msg; i++)
        len += (size_t)snprintf(msg + len, sizeof msg - len, " %s", m->functions[i].k.name);
    gpucompile_runtime_report("mgpuModuleGetFunction", -1, msg);
    return NULL;
}

/* ---- memory: the allocation table ---- */
/* The allocation holding [p, p + n) (n 0: p alone), or NULL. Call with the lock held. */
static gpucompile_vulkan__alloc *gpucompile_vulkan__find(gpucompile_vulkan__state *s, const void *p, uint64_t n) {
    uintptr_t a = (uintptr_t)p;
    size_t lo = 0, hi = s->num_allocs;
    while (lo < hi) { /* the first base above a */
        size_t mid = lo + (hi - lo) / 2;
        if (s->allocs[mid].base <= a) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return NULL;
    {
        gpucompile_vulkan__alloc *x = &s->allocs[lo - 1];
        uint64_t off = (uint64_t)(a - x->base);
        return off < x->size && n <= x->size - off ? x : NULL;
    }
}

static void *gpucompile_vulkan__mem_alloc(uint64_t size, int host_shared) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__buffer_info bi;
    gpucompile_vulkan__memory_requirements mr;
    gpucompile_vulkan__allocate_info ai;
    gpucompile_vulkan__alloc a;
    const char *call = "vkCreateBuffer";
    void *p = NULL;
    int r;
    size_t i;
    (void)host_shared; /* every allocation is host-visible */
    memset(&a, 0, sizeof a);
    memset(&bi, 0, sizeof bi);
    bi.sType = GPUCOMPILE_VULKAN__ST_BUFFER;
    bi.size = (size + 3u) & ~(uint64_t)3u; /* fills and copies go by 4 bytes */
    bi.usage = 0x33u;                       /* TRANSFER_SRC | TRANSFER_DST | UNIFORM_BUFFER | STORAGE_BUFFER */
    if ((r = s->vk.CreateBuffer(s->device, &bi, NULL, &a.buffer)) == 0) {
        s->vk.GetBufferMemoryRequirements(s->device, a.buffer, &mr);
        call = "vkAllocateMemory";
        memset(&ai, 0, sizeof ai);
        ai.sType = GPUCOMPILE_VULKAN__ST_MEMORY_ALLOCATE;
        ai.size = mr.size;
        ai.type = s->memory_type;
        if (!(mr.type_bits & (1u << s->memory_type))) r = -2;
        else if ((r = s->vk.AllocateMemory(s->device, &ai, NULL, &a.memory)) == 0) {
            call = "vkBindBufferMemory";
            if ((r = s->vk.BindBufferMemory(s->device, a.buffer, a.memory, 0)) == 0) {
                call = "vkMapMemory";
                r = s->vk.MapMemory(s->device, a.memory, 0, GPUCOMPILE_VULKAN__WHOLE_SIZE, 0, &p);
            }
        }
    }
    if (r == 0) {
        a.base = (uintptr_t)p;
        a.size = bi.size;
        gpucompile_vulkan__lock();
        if (s->num_allocs == s->cap_allocs) {
            size_t nc = s->cap_allocs ? 2 * s->cap_allocs : 64;
            gpucompile_vulkan__alloc *t = (gpucompile_vulkan__alloc *)realloc(s->allocs, nc * sizeof *t);
            if (t) {
                s->allocs = t;
                s->cap_allocs = nc;
            }
        }
        if (s->num_allocs < s->cap_allocs) {
            for (i = s->num_allocs; i > 0 && s->allocs[i - 1].base > a.base; i--) s->allocs[i] = s->allocs[i - 1];
            s->allocs[i] = a;
            s->num_allocs++;
        } else {
            r = -1;
            call = "mgpuMemAlloc";
        }
        gpucompile_vulkan__unlock();
    }
    if (r != 0) {
        if (a.memory) s->vk.FreeMemory(s->device, a.memory, NULL);
        if (a.buffer) s->vk.DestroyBuffer(s->device, a.buffer, NULL);
        gpucompile_vulkan__vk_check(r, call);
        return NULL;
    }
    return p;
}

static void gpucompile_vulkan__mem_free(void *ptr) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__alloc *x, a;
    int found = 0;
    gpucompile_vulkan__lock();
    x = gpucompile_vulkan__find(s, ptr, 0);
    if (x && x->base == (uintptr_t)ptr) {
        a = *x;
        memmove(x, x + 1, (size_t)(s->allocs + s->num_allocs - (x + 1)) * sizeof *x);
        s->num_allocs--;
        found = 1;
    }
    gpucompile_vulkan__unlock();
    if (!found) {
        gpucompile_runtime_report("mgpuMemFree", -1, "not an address that mgpuMemAlloc returned");
        return;
    }
    s->vk.DestroyBuffer(s->device, a.buffer, NULL);
    s->vk.FreeMemory(s->device, a.memory, NULL);
}

/* ---- command recording: streams and the NULL stream's borrowed contexts ---- */
static void gpucompile_vulkan__ctx_destroy(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c) {
    if (c->descriptors) s->vk.DestroyDescriptorPool(s->device, c->descriptors, NULL);
    if (c->fence) s->vk.DestroyFence(s->device, c->fence, NULL);
    if (c->pool) s->vk.DestroyCommandPool(s->device, c->pool, NULL); /* frees its command buffer */
    free(c);
}

static gpucompile_vulkan__ctx *gpucompile_vulkan__ctx_new(gpucompile_vulkan__state *s) {
    gpucompile_vulkan__ctx *c = (gpucompile_vulkan__ctx *)calloc(1, sizeof *c);
    gpucompile_vulkan__pool_info pi;
    gpucompile_vulkan__command_buffer_info ci;
    gpucompile_vulkan__fence_info fi;
    const char *call = "vkCreateCommandPool";
    int r;
    if (!c) {
        gpucompile_runtime_report("mgpuStreamCreate", -1, "out of host memory");
        return NULL;
    }
    memset(&pi, 0, sizeof pi);
    pi.sType = GPUCOMPILE_VULKAN__ST_COMMAND_POOL;
    pi.flags = 1u; /* TRANSIENT */
    pi.family = s->family;
    if ((r = s->vk.CreateCommandPool(s->device, &pi, NULL, &c->pool)) == 0) {
        memset(&ci, 0, sizeof ci);
        ci.sType = GPUCOMPILE_VULKAN__ST_COMMAND_BUFFER_ALLOCATE;
        ci.pool = c->pool;
        ci.count = 1;
        call = "vkAllocateCommandBuffers";
        if ((r = s->vk.AllocateCommandBuffers(s->device, &ci, &c->cmd)) == 0) {
            memset(&fi, 0, sizeof fi);
            fi.sType = GPUCOMPILE_VULKAN__ST_FENCE;
            call = "vkCreateFence";
            r = s->vk.CreateFence(s->device, &fi, NULL, &c->fence);
        }
    }
    if (r != 0) {
        gpucompile_vulkan__vk_check(r, call);
        gpucompile_vulkan__ctx_destroy(s, c);
        return NULL;
    }
    return c;
}

/* Before each command: the previous commands' writes (and the host's) are seen. */
static void gpucompile_vulkan__barrier(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c, uint32_t src_stages, uint32_t dst_stages,
                                       uint32_t dst_access) {
    gpucompile_vulkan__memory_barrier b;
    memset(&b, 0, sizeof b);
    b.sType = GPUCOMPILE_VULKAN__ST_MEMORY_BARRIER;
    b.src = GPUCOMPILE_VULKAN__ACCESS_WRITES;
    b.dst = dst_access;
    s->vk.CmdPipelineBarrier(c->cmd, src_stages, dst_stages, 0, 1, &b, 0, NULL, 0, NULL);
}

/* Starts recording where needed, and orders the next command after the recorded ones. */
static int gpucompile_vulkan__ctx_next(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c) {
    gpucompile_vulkan__begin_info bi;
    int r;
    if (!c->recording) {
        memset(&bi, 0, sizeof bi);
        bi.sType = GPUCOMPILE_VULKAN__ST_COMMAND_BUFFER_BEGIN;
        bi.flags = 1u; /* ONE_TIME_SUBMIT */
        if ((r = s->vk.BeginCommandBuffer(c->cmd, &bi)) != 0) {
            gpucompile_vulkan__vk_check(r, "vkBeginCommandBuffer");
            return r;
        }
        c->recording = 1;
        c->ops = 0;
    } else {
        gpucompile_vulkan__barrier(s, c, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__ACCESS_WORK);
    }
    c->ops++;
    return 0;
}

/* Submits what c recorded and waits for it; c is then empty again. */
static int gpucompile_vulkan__ctx_flush(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c) {
    gpucompile_vulkan__submit_info si;
    const char *call = "vkEndCommandBuffer";
    int r;
    if (!c->recording) return 0;
    gpucompile_vulkan__barrier(s, c, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__STAGE_HOST, GPUCOMPILE_VULKAN__ACCESS_HOST_READ);
    if ((r = s->vk.EndCommandBuffer(c->cmd)) == 0) {
        memset(&si, 0, sizeof si);
        si.sType = GPUCOMPILE_VULKAN__ST_SUBMIT;
        si.command_buffer_count = 1;
        si.command_buffers = &c->cmd;
        call = "vkQueueSubmit";
        gpucompile_vulkan__lock(); /* the queue is externally synchronized */
        r = s->vk.QueueSubmit(s->queue, 1, &si, c->fence);
        gpucompile_vulkan__unlock();
        if (r == 0) {
            call = "vkWaitForFences";
            if ((r = s->vk.WaitForFences(s->device, 1, &c->fence, 1, ~(uint64_t)0)) == 0) {
                call = "vkResetFences";
                r = s->vk.ResetFences(s->device, 1, &c->fence);
            }
        }
    }
    c->recording = 0;
    c->ops = 0;
    s->vk.ResetCommandPool(s->device, c->pool, 0);
    if (c->descriptors) s->vk.ResetDescriptorPool(s->device, c->descriptors, 0);
    gpucompile_vulkan__vk_check(r, call);
    return r;
}

static gpucompile_vulkan__ctx *gpucompile_vulkan__ctx_borrow(gpucompile_vulkan__state *s) {
    gpucompile_vulkan__ctx *c;
    gpucompile_vulkan__lock();
    if ((c = s->free_ctx) != NULL) s->free_ctx = c->next;
    gpucompile_vulkan__unlock();
    return c ? c : gpucompile_vulkan__ctx_new(s);
}

static void gpucompile_vulkan__ctx_return(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c) {
    gpucompile_vulkan__lock();
    c->next = s->free_ctx;
    s->free_ctx = c;
    gpucompile_vulkan__unlock();
}

static void *gpucompile_vulkan__stream_create(void) { return gpucompile_vulkan__ctx_new(&gpucompile_vulkan__rt); }

static void gpucompile_vulkan__stream_synchronize(void *stream) {
    if (stream) gpucompile_vulkan__ctx_flush(&gpucompile_vulkan__rt, (gpucompile_vulkan__ctx *)stream);
}

static void gpucompile_vulkan__stream_destroy(void *stream) {
    gpucompile_vulkan__ctx_flush(&gpucompile_vulkan__rt, (gpucompile_vulkan__ctx *)stream);
    gpucompile_vulkan__ctx_destroy(&gpucompile_vulkan__rt, (gpucompile_vulkan__ctx *)stream);
}

/* ---- images (mgpuImage*) ----
   Every image is a VkImage of optimal tiling in VK_IMAGE_LAYOUT_GENERAL from its creation to its
   end: GENERAL serves storage images, sampled images and transfers alike, so a kernel may write
   an image that the next one samples with no transition between launches (and none an engine
   must know of); on lavapipe and desktop GPUs it costs nothing measurable for compute. Usage:
   sampled, transfer, and storage where the format allows it. Transfers go through a staging
   allocation and wait for the stream first and for themselves after. */

/* The VkFormat of an OpenCL channel order and type (0: none), and its texel's bytes. A kernel's
   integer images are unsigned ones (LLVM 22 writes no signed integer type; Vulkan wants the view's
   numeric type to be the shader's), so each signed type is the unsigned format of the same bits:
   read_imagei sign-extends an 8- or 16-bit one's texels by the image's data type, which the
   launch gives (see gpucompile_vulkan_param). */
static uint32_t gpucompile_vulkan__format(int order, int type, uint32_t *pixel, uint32_t *integer) {
    /* per type: its bytes per channel, then the R, RG, RGBA formats (0: none) */
    static const struct { int type; uint32_t bytes, r, rg, rgba; } t[] = {
        {0x10D0, 1, 10, 17, 38}, {0x10D1, 2, 71, 78, 92}, {0x10D2, 1, 9, 16, 37}, {0x10D3, 2, 70, 77, 91},
        {0x10D7, 1, 13, 20, 41}, {0x10D8, 2, 74, 81, 95}, {0x10D9, 4, 98, 101, 107}, {0x10DA, 1, 13, 20, 41},
        {0x10DB, 2, 74, 81, 95}, {0x10DC, 4, 98, 101, 107}, {0x10DD, 2, 76, 83, 97}, {0x10DE, 4, 100, 103, 109}};
    size_t i;
    for (i = 0; i < sizeof t / sizeof t[0] && t[i].type != type; i++) {}
    if (i == sizeof t / sizeof t[0]) return 0;
    *integer = type >= 0x10D7 && type <= 0x10DC;
    switch (order) {
    case 0x10B0: *pixel = t[i].bytes; return t[i].r;      /* CL_R */
    case 0x10B2: *pixel = 2 * t[i].bytes; return t[i].rg; /* CL_RG */
    case 0x10B5: *pixel = 4 * t[i].bytes; return t[i].rgba; /* CL_RGBA */
    case 0x10B6: *pixel = 4; return type == 0x10D2 ? 44u : 0u; /* CL_BGRA: unorm8 only (B8G8R8A8_UNORM) */
    case 0x10BD: *pixel = t[i].bytes; return type == 0x10DE || type == 0x10D3 ? t[i].r : 0u; /* CL_DEPTH: of floats or 16-bit unorm, as CL_R (a depth image's kernel reads a colour one's first lane) */
    default: return 0;
    }
}

static gpucompile_vulkan__image *gpucompile_vulkan__image_find(gpucompile_vulkan__state *s, const void *p) {
    gpucompile_vulkan__image *x;
    gpucompile_vulkan__lock();
    for (x = s->images; x && x != p; x = x->next) {}
    gpucompile_vulkan__unlock();
    return x;
}

/* A borrowed context recording after everything before it (stream first waited for). */
static gpucompile_vulkan__ctx *gpucompile_vulkan__ctx_begin(gpucompile_vulkan__state *s, void *stream) {
    gpucompile_vulkan__ctx *c;
    if (stream) gpucompile_vulkan__ctx_flush(s, (gpucompile_vulkan__ctx *)stream);
    if (!(c = gpucompile_vulkan__ctx_borrow(s))) return NULL;
    if (gpucompile_vulkan__ctx_next(s, c) != 0) {
        gpucompile_vulkan__ctx_return(s, c);
        return NULL;
    }
    gpucompile_vulkan__barrier(s, c, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__ACCESS_WORK);
    return c;
}

static int gpucompile_vulkan__ctx_end(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c) {
    int r = gpucompile_vulkan__ctx_flush(s, c);
    gpucompile_vulkan__ctx_return(s, c);
    return r;
}

static void gpucompile_vulkan__image_destroy(gpucompile_vulkan__state *s, gpucompile_vulkan__image *x) {
    if (x->view) s->vk.DestroyImageView(s->device, x->view, NULL);
    if (x->image) s->vk.DestroyImage(s->device, x->image, NULL);
    if (x->memory) s->vk.FreeMemory(s->device, x->memory, NULL);
    free(x);
}

static void *gpucompile_vulkan__image_create(int32_t type, int32_t order, int32_t data_type, const size_t extent[4], size_t pixel_size,
                                             const char *what, void *stream) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__image *x;
    gpucompile_vulkan__image_info ii;
    gpucompile_vulkan__view_info vi;
    gpucompile_vulkan__memory_requirements mr;
    gpucompile_vulkan__memory_properties mp;
    gpucompile_vulkan__allocate_info ai;
    gpucompile_vulkan__format_properties fp;
    gpucompile_vulkan__image_barrier b;
    gpucompile_vulkan__ctx *c;
    /* per OpenCL type (0x10F1..): VkImageType, VkImageViewType */
    static const uint32_t itype[6] = {1, 2, 1, 0, 0, 0}, vtype[6] = {1, 2, 5, 0, 4, 0};
    const char *call = "vkCreateImage";
    uint32_t t, k, pixel = 0, integer = 0, format = gpucompile_vulkan__format(order, data_type, &pixel, &integer);
    char msg[384];
    int r;
    (void)pixel_size; /* the format's own */
    t = (uint32_t)(type - 0x10F1);
    /* an image1d_buffer is a 1D image (the kernel's handle is one: see the lowering's images), so
       it is as wide as the device's maxImageDimension1D allows (a texel buffer's
       maxTexelBufferElements is more) */
    if ((t == 5 && extent[0] > gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS)) || !format) {
        if (format)
            snprintf(msg, sizeof msg, "%s: wider than the device's maxImageDimension1D (%u; an image1d_buffer is a 1D image on Vulkan)", what,
                     gpucompile_vulkan__u32(s, GPUCOMPILE_VULKAN__P_LIMITS));
        else
            snprintf(msg, sizeof msg, "%s: no Vulkan format here (CL_R, CL_RG, CL_RGBA of the 8-, 16- and 32-bit types; CL_BGRA of CL_UNORM_INT8; CL_DEPTH of CL_FLOAT and CL_UNORM_INT16)", what);
        gpucompile_runtime_report("mgpuImageCreate", -1, msg);
        return NULL;
    }
    if (!(x = (gpucompile_vulkan__image *)calloc(1, sizeof *x))) {
        gpucompile_runtime_report("mgpuImageCreate", -1, "out of host memory");
        return NULL;
    }
    x->format = format;
    x->channels = (uint32_t)order | (uint32_t)data_type << 16;
    x->pixel = pixel;
    x->integer = integer;
    x->extent[0] = (uint32_t)extent[0];
    x->extent[1] = itype[t] >= 1 ? (uint32_t)extent[1] : 1;
    x->extent[2] = itype[t] == 2 ? (uint32_t)extent[2] : 1;
    x->layers = vtype[t] >= 4 ? (uint32_t)extent[3] : 1;
    s->vk.GetPhysicalDeviceFormatProperties(s->physical, format, &fp);
    memset(&ii, 0, sizeof ii);
    ii.sType = GPUCOMPILE_VULKAN__ST_IMAGE;
    ii.type = itype[t];
    ii.format = format;
    memcpy(ii.extent, x->extent, sizeof ii.extent);
    ii.mips = 1;
    ii.layers = x->layers;
    ii.samples = 1;
    ii.usage = 0x7u | (fp.optimal & 0x2u ? 0x8u : 0u); /* TRANSFER_SRC | TRANSFER_DST | SAMPLED, STORAGE where the format has STORAGE_IMAGE */
    if ((r = s->vk.CreateImage(s->device, &ii, NULL, &x->image)) == 0) {
        s->vk.GetImageMemoryRequirements(s->device, x->image, &mr);
        s->vk.GetPhysicalDeviceMemoryProperties(s->physical, &mp);
        for (k = 0; k < mp.type_count && !((mr.type_bits >> k & 1u) && (mp.types[k].flags & 1u)); k++) {} /* device-local */
        if (k == mp.type_count) for (k = 0; k < mp.type_count && !(mr.type_bits >> k & 1u); k++) {}
        memset(&ai, 0, sizeof ai);
        ai.sType = GPUCOMPILE_VULKAN__ST_MEMORY_ALLOCATE;
        ai.size = mr.size;
        ai.type = k;
        call = "vkAllocateMemory";
        if ((r = k == mp.type_count ? -2 : s->vk.AllocateMemory(s->device, &ai, NULL, &x->memory)) == 0) {
            call = "vkBindImageMemory";
            if ((r = s->vk.BindImageMemory(s->device, x->image, x->memory, 0)) == 0) {
                memset(&vi, 0, sizeof vi);
                vi.sType = GPUCOMPILE_VULKAN__ST_IMAGE_VIEW;
                vi.image = x->image;
                vi.type = vtype[t];
                vi.format = format;
                vi.aspect = 1u; /* COLOR */
                vi.mips = 1;
                vi.layers = x->layers;
                call = "vkCreateImageView";
                r = s->vk.CreateImageView(s->device, &vi, NULL, &x->view);
            }
        }
    }
    if (r == 0 && (c = gpucompile_vulkan__ctx_begin(s, stream)) != NULL) { /* into GENERAL, for good */
        memset(&b, 0, sizeof b);
        b.sType = GPUCOMPILE_VULKAN__ST_IMAGE_BARRIER;
        b.dst = GPUCOMPILE_VULKAN__ACCESS_WORK;
        b.new_layout = GPUCOMPILE_VULKAN__LAYOUT_GENERAL;
        b.src_family = b.dst_family = ~0u;
        b.image = x->image;
        b.aspect = 1u;
        b.mips = 1;
        b.layers = x->layers;
        s->vk.CmdPipelineBarrier(c->cmd, GPUCOMPILE_VULKAN__STAGES_WORK, GPUCOMPILE_VULKAN__STAGES_WORK, 0, 0, NULL, 0, NULL, 1, &b);
        r = gpucompile_vulkan__ctx_end(s, c);
        call = NULL; /* reported */
    } else if (r == 0)
        r = -1, call = NULL;
    if (r != 0) {
        if (call) gpucompile_vulkan__vk_check(r, call);
        gpucompile_vulkan__image_destroy(s, x);
        return NULL;
    }
    gpucompile_vulkan__lock();
    x->next = s->images;
    s->images = x;
    gpucompile_vulkan__unlock();
    return x;
}

/* The whole image from host memory p (to_image) or to it, through a staging allocation. */
static void gpucompile_vulkan__image_transfer(void *image, void *p, int to_image, void *stream) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__image *x = gpucompile_vulkan__image_find(s, image);
    gpucompile_vulkan__image_copy ic;
    gpucompile_vulkan__alloc *a;
    gpucompile_vulkan__ctx *c;
    uint64_t bytes;
    void *stage;
    int read = !to_image;
    if (!x) {
        gpucompile_runtime_report(read ? "mgpuImageRead" : "mgpuImageWrite", -1, "not an image from mgpuImageCreate");
        return;
    }
    bytes = (uint64_t)x->pixel * x->extent[0] * x->extent[1] * x->extent[2] * x->layers;
    if (!(stage = gpucompile_vulkan__mem_alloc(bytes, 0))) return;
    gpucompile_vulkan__lock();
    a = gpucompile_vulkan__find(s, stage, 0);
    gpucompile_vulkan__unlock();
    if (!read) memcpy(stage, p, (size_t)bytes);
    memset(&ic, 0, sizeof ic);
    ic.aspect = 1u;
    ic.layers = x->layers;
    memcpy(ic.extent, x->extent, sizeof ic.extent);
    if (a && (c = gpucompile_vulkan__ctx_begin(s, stream)) != NULL) {
        if (read) s->vk.CmdCopyImageToBuffer(c->cmd, x->image, GPUCOMPILE_VULKAN__LAYOUT_GENERAL, a->buffer, 1, &ic);
        else s->vk.CmdCopyBufferToImage(c->cmd, a->buffer, x->image, GPUCOMPILE_VULKAN__LAYOUT_GENERAL, 1, &ic);
        if (gpucompile_vulkan__ctx_end(s, c) == 0 && read) memcpy(p, stage, (size_t)bytes);
    }
    gpucompile_vulkan__mem_free(stage);
}

static void gpucompile_vulkan__image_free(void *image, void *stream) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__image **p, *x = NULL;
    (void)stream;
    gpucompile_vulkan__lock();
    for (p = &s->images; *p && *p != image; p = &(*p)->next) {}
    if (*p) {
        x = *p;
        *p = x->next;
    }
    gpucompile_vulkan__unlock();
    if (!x) gpucompile_runtime_report("mgpuImageFree", -1, "not an image from mgpuImageCreate");
    else gpucompile_vulkan__image_destroy(s, x);
}

/* The VkSampler of OpenCL's sampler bits for an image of integers or not (made once, kept):
   normalized coordinates (bit 0), the address mode (bits 1-3: none and clamp-to-edge as
   CLAMP_TO_EDGE, clamp as CLAMP_TO_BORDER with transparent black, repeat, mirrored repeat), the
   filter (0x10 nearest, 0x20 linear). Unnormalized coordinates take no repeat (OpenCL allows none,
   Vulkan neither): clamp to the edge. 0 when none can be made (reported). */
static uint64_t gpucompile_vulkan__sampler(gpucompile_vulkan__state *s, uint32_t bits, uint32_t integer) {
    static const uint32_t address[5] = {2, 2, 3, 0, 1}; /* CLK_ADDRESS_* / 2 -> VkSamplerAddressMode */
    gpucompile_vulkan__sampler_info si;
    uint32_t key = (bits & 0x3fu) | integer << 8, mode = (bits >> 1 & 7u) < 5 ? address[bits >> 1 & 7u] : 2u;
    uint64_t smp = 0;
    int i, r;
    gpucompile_vulkan__lock();
    for (i = 0; i < s->num_samplers; i++)
        if (s->samplers[i].key == key) smp = s->samplers[i].sampler;
    gpucompile_vulkan__unlock();
    if (smp) return smp;
    memset(&si, 0, sizeof si);
    si.sType = GPUCOMPILE_VULKAN__ST_SAMPLER;
    si.mag = si.min = (bits & 0x20u) ? 1u : 0u; /* LINEAR : NEAREST */
    si.unnormalized = !(bits & 1u);
    if (si.unnormalized && mode < 2) mode = 2;
    si.u = si.v = si.w = mode;
    si.border = integer; /* FLOAT_ / INT_TRANSPARENT_BLACK */
    if ((r = s->vk.CreateSampler(s->device, &si, NULL, &smp)) != 0) {
        gpucompile_vulkan__vk_check(r, "vkCreateSampler");
        return 0;
    }
    gpucompile_vulkan__lock();
    if (s->num_samplers < 64) {
        s->samplers[s->num_samplers].key = key;
        s->samplers[s->num_samplers++].sampler = smp;
    } else {
        gpucompile_vulkan__unlock();
        s->vk.DestroySampler(s->device, smp, NULL);
        gpucompile_runtime_report("mgpuLaunchKernel", -1, "more than 64 sampler modes");
        return 0;
    }
    gpucompile_vulkan__unlock();
    return smp;
}

/* Descriptor sets for f's bindings from c's pool (made on first use; when full, c is flushed
   and the pool reset once). */
static int gpucompile_vulkan__sets(gpucompile_vulkan__state *s, gpucompile_vulkan__ctx *c, const gpucompile_vulkan__function *f, uint64_t *sets,
                                   const char **call) {
    gpucompile_vulkan__set_allocate_info ai;
    int r, attempt;
    if (!c->descriptors) {
        gpucompile_vulkan__pool_size ps[5];
        gpucompile_vulkan__descriptor_pool_info pi;
        uint32_t t;
        for (t = 0; t < 5; t++) { /* storage buffers, uniform buffers; storage images, sampled images, images and samplers */
            ps[t].type = t < 2 ? 7 - t : 5 - t;
            ps[t].count = t ? 256 : 1024;
        }
        memset(&pi, 0, sizeof pi);
        pi.sType = GPUCOMPILE_VULKAN__ST_DESCRIPTOR_POOL;
        pi.max_sets = 256;
        pi.size_count = 5;
        pi.sizes = ps;
        *call = "vkCreateDescriptorPool";
        if ((r = s->vk.CreateDescriptorPool(s->device, &pi, NULL, &c->descriptors)) != 0) return r;
    }
    memset(&ai, 0, sizeof ai);
    ai.sType = GPUCOMPILE_VULKAN__ST_SET_ALLOCATE;
    ai.pool = c->descriptors;
    ai.count = f->num_sets;
    ai.layouts = f->sets;
    *call = "vkAllocateDescriptorSets";
    for (attempt = 0;; attempt++) {
        r = s->vk.AllocateDescriptorSets(s->device, &ai, sets);
        if (r == 0 || attempt || !c->recording || (r != -1000069000 && r != -12)) return r; /* OUT_OF_POOL_MEMORY, FRAGMENTED_POOL */
        if ((r = gpucompile_vulkan__ctx_flush(s, c)) != 0 || (r = gpucompile_vulkan__ctx_next(s, c)) != 0) return r;
    }
}

/* The values of f's sizes set at launch for a launch's block (NULL: the defaults) and
   sharedMemBytes, its info (NULL: the defaults) and its whole grid when it is split into dispatches
   (split; NULL: one dispatch), checked against what is compiled in and the device's limits: 0, or
   -1 with why. */
static int gpucompile_vulkan__sizes(const gpucompile_vulkan__state *s, const gpucompile_vulkan__function *f, const unsigned *block, unsigned smem,
                                    const gpucompile_vulkan_launch_info *info, const unsigned *split, uint32_t *values, char *msg, size_t size) {
    const gpucompile_vulkan_kernel *k = &f->k;
    uint32_t wg[3];
    uint64_t shared = k->workgroup_bytes, fixed = k->workgroup_bytes, threads;
    int i, at_launch[3] = {0, 0, 0}, arrays = 0;
    unsigned long long local = 0;
    memcpy(wg, k->local_size, sizeof wg);
    if (info && info->work_dim > 3) {
        snprintf(msg, size, "kernel '%s': work dimension %u (1 to 3)", k->name, info->work_dim);
        return -1;
    }
    for (i = 0; i < k->num_params; i++)
        if (k->params[i].kind == GPUCOMPILE_VULKAN_PARAM_LOCAL) local += k->params[i].value;
    for (i = 0; i < k->num_launch; i++) {
        const gpucompile_vulkan_launch_value *v = &k->launch[i];
        values[i] = v->value;
        if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE && v->arg < 3) {
            at_launch[v->arg] = 1;
            if (block) values[i] = wg[v->arg] = block[v->arg];
        } else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_WORK_DIM && info && info->work_dim) {
            values[i] = info->work_dim;
        } else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_OFFSET && info && v->arg < 3) {
            values[i] = v->arg < (info->work_dim ? info->work_dim : 3) ? info->offset[v->arg] : 0;
        } else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_GROUPS && split && v->arg < 3) {
            values[i] = split[v->arg];
        } else if (v->kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED) {
            arrays++;
            fixed -= (uint64_t)v->value * v->arg;
            if (smem) {
                values[i] = (smem + v->arg - 1) / v->arg;
                shared += (uint64_t)values[i] * v->arg - (uint64_t)v->value * v->arg;
            }
        }
    }
    if (block && ((!at_launch[0] && block[0] != wg[0]) || (!at_launch[1] && block[1] != wg[1]) || (!at_launch[2] && block[2] != wg[2]))) {
        snprintf(msg, size, "kernel '%s' has workgroup size %ux%ux%u, compiled in%s; the launch asks for blocks of %ux%ux%u", k->name, wg[0], wg[1], wg[2],
                 at_launch[0] || at_launch[1] || at_launch[2] ? " where not set at launch" : "", block[0], block[1], block[2]);
        return -1;
    }
    threads = (uint64_t)wg[0] * wg[1] * wg[2];
    if (!threads || threads > s->max_invocations || wg[0] > s->max_group_size[0] || wg[1] > s->max_group_size[1] || wg[2] > s->max_group_size[2]) {
        snprintf(msg, size, "kernel '%s': workgroup size %ux%ux%u (the device takes 1 to %u threads, at most %ux%ux%u)", k->name, wg[0], wg[1], wg[2],
                 s->max_invocations, s->max_group_size[0], s->max_group_size[1], s->max_group_size[2]);
        return -1;
    }
    if (smem && !arrays && !local) {
        snprintf(msg, size, "kernel '%s': %u bytes of dynamic workgroup memory asked; the kernel has none (no local pointer parameter or "
                 "extern __shared__ array whose size is set at launch)", k->name, smem);
        return -1;
    }
    if (smem && !arrays && smem > local) {
        snprintf(msg, size, "kernel '%s': %u bytes of local memory asked; its local parameters were compiled with %llu (compile it without "
                 "local_memory to set it at launch)", k->name, smem, local);
        return -1;
    }
    if (shared > s->max_shared) {
        snprintf(msg, size, "kernel '%s': %llu bytes of workgroup memory (sharedMemBytes %u for each of its %d array%s set at launch, %llu bytes "
                 "besides): above the device's maxComputeSharedMemorySize, %u", k->name, (unsigned long long)shared, smem, arrays,
                 arrays == 1 ? "" : "s", (unsigned long long)fixed, s->max_shared);
        return -1;
    }
    return 0;
}

/* f's pipeline for values: the one made with the defaults, else one made at an earlier launch with
   the same values, else made now and kept. 0, or a Vulkan error (*call). */
static int gpucompile_vulkan__pipeline_for(gpucompile_vulkan__state *s, gpucompile_vulkan__function *f, const uint32_t *values, uint64_t *out,
                                           const char **call) {
    size_t bytes = (size_t)f->k.num_launch * 4;
    uint64_t made = 0;
    int i, r, found = -1;
    for (i = 0; i < f->k.num_launch && values[i] == f->k.launch[i].value; i++) {}
    if (i == f->k.num_launch) { /* the defaults (and a kernel with every size compiled in) */
        *out = f->pipeline;
        return 0;
    }
    gpucompile_vulkan__lock();
    if (f->last >= 0 && f->last < f->num_variants && memcmp(f->variants[f->last].values, values, bytes) == 0) found = f->last;
    for (i = 0; i < f->num_variants && found < 0; i++)
        if (memcmp(f->variants[i].values, values, bytes) == 0) found = i;
    if (found >= 0) {
        f->last = found;
        *out = f->variants[found].pipeline;
    }
    gpucompile_vulkan__unlock();
    if (found >= 0) return 0;
    if ((r = gpucompile_vulkan__pipeline_make(s, f, values, &made, call)) != 0) return r; /* outside the lock: it compiles */
    gpucompile_vulkan__lock();
    for (i = 0; i < f->num_variants && found < 0; i++) /* another thread's, made meanwhile */
        if (memcmp(f->variants[i].values, values, bytes) == 0) found = i;
    if (found < 0 && f->num_variants == f->cap_variants) {
        int nc = f->cap_variants ? 2 * f->cap_variants : 4;
        gpucompile_vulkan__variant *nv = (gpucompile_vulkan__variant *)realloc(f->variants, (size_t)nc * sizeof *nv);
        if (nv) {
            f->variants = nv;
            f->cap_variants = nc;
        }
    }
    if (found < 0 && f->num_variants < f->cap_variants) {
        found = f->num_variants++;
        memset(&f->variants[found], 0, sizeof f->variants[found]);
        memcpy(f->variants[found].values, values, bytes);
        f->variants[found].pipeline = made;
        made = 0;
        s->unsaved++;
    }
    if (found >= 0) {
        f->last = found;
        *out = f->variants[found].pipeline;
    }
    gpucompile_vulkan__unlock();
    if (made) { /* not kept: another thread's is, or no memory (then this launch's alone) */
        if (found >= 0) s->vk.DestroyPipeline(s->device, made, NULL);
        else {
            *call = "mgpuLaunchKernel (out of host memory)";
            s->vk.DestroyPipeline(s->device, made, NULL);
            return -1;
        }
    }
    return 0;
}

/* Whether a launch of grid (blocks of block, or k's compiled size) is one dispatch under max: 0;
   split into dispatches: 1; neither: -1 with why. Split only where the kernel's ids and group
   counts then stay those of one launch: a lowered kernel (its number of groups a specialization
   constant), pipelines made with DISPATCH_BASE, and 32-bit global ids. */
static int gpucompile_vulkan__split(const gpucompile_vulkan__fns *vk, const gpucompile_vulkan_kernel *k, const unsigned grid[3], const unsigned *block,
                                    const uint32_t max[3], char *msg, size_t size) {
    int d;
    if (grid[0] <= max[0] && grid[1] <= max[1] && grid[2] <= max[2]) return 0;
    for (d = 0; d < 3; d++)
        if ((uint64_t)grid[d] * (block ? block[d] : k->local_size[d]) > 0xffffffffu) {
            snprintf(msg, size, "kernel '%s': grid %ux%ux%u: %c's global size is above 2^32 - 1 (Vulkan's ids are 32-bit)", k->name, grid[0], grid[1],
                     grid[2], "xyz"[d]);
            return -1;
        }
    if (!k->num_params || !vk->CmdDispatchBase) {
        snprintf(msg, size, "kernel '%s': grid %ux%ux%u is above the device's %ux%ux%u workgroups (%s)", k->name, grid[0], grid[1], grid[2], max[0],
                 max[1], max[2], !vk->CmdDispatchBase ? "no vkCmdDispatchBase to split it with" : "split only for kernels from pointer parameters, "
                 "whose number of workgroups the launch sets");
        return -1;
    }
    return 1;
}

/* vkCmdDispatch of grid, or (split) vkCmdDispatchBase of each piece of at most max groups. */
static void gpucompile_vulkan__dispatch(const gpucompile_vulkan__fns *vk, void *cmd, const unsigned grid[3], const uint32_t max[3], int split) {
    uint32_t b[3], n[3];
    if (!split) {
        vk->CmdDispatch(cmd, grid[0], grid[1], grid[2]);
        return;
    }
    for (b[2] = 0; b[2] < grid[2]; b[2] += n[2]) {
        n[2] = grid[2] - b[2] < max[2] ? grid[2] - b[2] : max[2];
        for (b[1] = 0; b[1] < grid[1]; b[1] += n[1]) {
            n[1] = grid[1] - b[1] < max[1] ? grid[1] - b[1] : max[1];
            for (b[0] = 0; b[0] < grid[0]; b[0] += n[0]) {
                n[0] = grid[0] - b[0] < max[0] ? grid[0] - b[0] : max[0];
                vk->CmdDispatchBase(cmd, b[0], b[1], b[2], n[0], n[1], n[2]);
            }
        }
    }
}

/* The scalars' uniform block (a kernel's has_uniforms) written into buffer at offset by the
   command buffer itself (vkCmdUpdateBuffer: the bytes are recorded, so a buffer serves every
   launch on one queue): after what earlier commands of the queue read or wrote there, before the
   dispatch reads it. */
static void gpucompile_vulkan__write_uniforms(const gpucompile_vulkan__fns *vk, void *cmd, uint64_t buffer, uint64_t offset, const void *bytes,
                                              uint32_t size) {
    gpucompile_vulkan__memory_barrier b;
    memset(&b, 0, sizeof b);
    b.sType = GPUCOMPILE_VULKAN__ST_MEMORY_BARRIER;
    b.src = GPUCOMPILE_VULKAN__ACCESS_WRITES;
    b.dst = 0x1000u; /* TRANSFER_WRITE */
    vk->CmdPipelineBarrier(cmd, GPUCOMPILE_VULKAN__STAGES_WORK, 0x1000u /* TRANSFER */, 0, 1, &b, 0, NULL, 0, NULL);
    vk->CmdUpdateBuffer(cmd, buffer, offset, (size + 3u) & ~3u, bytes);
    b.src = 0x1000u;
    b.dst = 0x8u; /* UNIFORM_READ */
    vk->CmdPipelineBarrier(cmd, 0x1000u, 0x800u /* COMPUTE_SHADER */, 0, 1, &b, 0, NULL, 0, NULL);
}

/* The launch: arguments checked before anything is recorded (see the top of this section). */
static void gpucompile_vulkan__launch_info(void *function, const gpucompile_vulkan_launch_info *info, const unsigned grid[3], const unsigned block[3],
                                           unsigned smem, void *stream, void **params) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__function *f = (gpucompile_vulkan__function *)function;
    const gpucompile_vulkan_kernel *k;
    gpucompile_vulkan__buffer_desc bufs[33];
    gpucompile_vulkan__image_desc imgs[32];
    gpucompile_vulkan__write_set ws[33];
    gpucompile_vulkan__ctx *c;
    uint64_t sets[4], pipeline = 0;
    unsigned char push[GPUCOMPILE_VULKAN__MAX_BLOCK];
    char msg[512];
    const char *call = "mgpuLaunchKernel";
    int i, r = 0, bad = -1, slot[32], nargs, split = 0, nw;
    uint32_t values[GPUCOMPILE_VULKAN_MAX_LAUNCH];
    msg[0] = 0;
    if (!f) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, "no function (mgpuModuleGetFunction failed?)");
        return;
    }
    k = &f->k;
    /* which argument each binding takes: by default the i-th; a kernel with its original
       parameters recorded (num_params) names them */
    nargs = k->num_params ? k->num_params : k->num_bindings + k->num_push;
    for (i = 0; i < k->num_bindings; i++) slot[i] = k->num_params ? k->bindings[i].param : i;
    for (i = 0; i < k->num_bindings && !msg[0]; i++)
        if (slot[i] < 0)
            snprintf(msg, sizeof msg, "kernel '%s': binding %u is none of its parameters", k->name, k->bindings[i].binding);
    if (msg[0]) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
        return;
    }
    if ((split = gpucompile_vulkan__split(&s->vk, k, grid, block, s->max_groups, msg, sizeof msg)) < 0) {}
    else if (gpucompile_vulkan__sizes(s, f, block, smem, info, split ? grid : NULL, values, msg, sizeof msg) != 0) {}
    else if (!params && nargs > 0)
        snprintf(msg, sizeof msg, "kernel '%s' takes %d arguments; params is NULL", k->name, nargs);
    if (msg[0]) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
        return;
    }
    /* images: argument i an image from mgpuImageCreate; an image and sampler's sampler made of
       the sampler argument's bits or the constant's */
    for (i = 0; i < k->num_bindings && !msg[0]; i++) {
        const gpucompile_vulkan_binding *x = &k->bindings[i];
        void *p = x->descriptor_type <= 3 && params[slot[i]] ? *(void **)params[slot[i]] : NULL;
        gpucompile_vulkan__image *im = p ? gpucompile_vulkan__image_find(s, p) : NULL;
        const int32_t *bits = x->sampler_param >= 0 && x->sampler_param < nargs ? (const int32_t *)params[x->sampler_param] : NULL;
        if (x->descriptor_type > 3) continue;
        memset(&imgs[i], 0, sizeof imgs[i]);
        imgs[i].layout = GPUCOMPILE_VULKAN__LAYOUT_GENERAL;
        if (!im || x->descriptor_type == 0)
            snprintf(msg, sizeof msg, "kernel '%s', argument %d (binding %u): %p is not an image from mgpuImageCreate", k->name, slot[i], x->binding, p);
        else if (im->integer != x->integer)
            snprintf(msg, sizeof msg, "kernel '%s', argument %d (binding %u): an image of %s read as %s", k->name, slot[i], x->binding,
                     im->integer ? "integers" : "floats", x->integer ? "integers (read_imagei/ui, write_imagei/ui)" : "floats (read_imagef, write_imagef)");
        else if (x->descriptor_type == 1 && x->sampler_param >= 0 && !bits)
            snprintf(msg, sizeof msg, "kernel '%s', argument %d (a sampler_t): NULL", k->name, x->sampler_param);
        else if (x->descriptor_type == 1 && !((bits ? (uint32_t)*bits : x->sampler_bits) & 1u) && (x->dim == 2 || x->arrayed))
            snprintf(msg, sizeof msg, "kernel '%s', binding %u: a sampler of unnormalized coordinates on a %s (Vulkan samples only 1D and 2D images "
                     "so)", k->name, x->binding, x->dim == 2 ? "3D image" : "image array");
        else if (x->descriptor_type == 1 && !(imgs[i].sampler = gpucompile_vulkan__sampler(s, bits ? (uint32_t)*bits : x->sampler_bits, x->integer)))
            return;
        imgs[i].view = im ? im->view : 0;
    }
    if (msg[0]) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
        return;
    }
    /* bindings: argument i is a pointer into an allocation */
    gpucompile_vulkan__lock();
    for (i = 0; i < k->num_bindings && bad < 0; i++) {
        void *p = k->bindings[i].descriptor_type > 3 && params[slot[i]] ? *(void **)params[slot[i]] : NULL;
        gpucompile_vulkan__alloc *a = p ? gpucompile_vulkan__find(s, p, 0) : NULL;
        if (k->bindings[i].descriptor_type <= 3) continue;
        uint64_t off = a ? (uint64_t)((uintptr_t)p - a->base) : 0, align = k->bindings[i].descriptor_type == 6 ? s->uniform_align : s->storage_align;
        if (!a || (align && off % align)) bad = i;
        else {
            bufs[i].buffer = a->buffer;
            bufs[i].offset = off;
            bufs[i].range = k->bindings[i].descriptor_type == 6 && a->size - off > s->max_uniform_range ? s->max_uniform_range : GPUCOMPILE_VULKAN__WHOLE_SIZE;
        }
    }
    gpucompile_vulkan__unlock();
    if (bad >= 0) {
        void *p = params[slot[bad]] ? *(void **)params[slot[bad]] : NULL;
        snprintf(msg, sizeof msg, "kernel '%s', argument %d (set %u, binding %u): %p is %s", k->name, slot[bad], k->bindings[bad].set,
                 k->bindings[bad].binding, p, !p ? "not an address from mgpuMemAlloc" : "not in an allocation from mgpuMemAlloc, or not at an offset the device aligns buffers to");
        gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
        return;
    }
    /* push constants: the remaining arguments, each its field's size */
    memset(push, 0, sizeof push);
    for (i = 0; i < k->num_params; i++) { /* the recorded parameters: each to its offset */
        const gpucompile_vulkan_param *q = &k->params[i];
        if (q->kind != GPUCOMPILE_VULKAN_PARAM_PUSH) continue;
        if (!params[i] || (uint64_t)q->value + q->size > sizeof push) {
            snprintf(msg, sizeof msg, "kernel '%s', argument %d (push constant at offset %u): %s", k->name, i, q->value, params[i] ? "outside the block" : "NULL");
            gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
            return;
        }
        memcpy(push + q->value, params[i], q->size);
    }
    for (i = 0; i < k->num_params; i++) { /* an image's channel order and data type, and sizes (see gpucompile_vulkan_param) */
        const gpucompile_vulkan__image *im;
        if (k->params[i].kind != GPUCOMPILE_VULKAN_PARAM_IMAGE || !k->params[i].size) continue;
        if (!(im = params[i] ? gpucompile_vulkan__image_find(s, *(void **)params[i]) : NULL)) {
            snprintf(msg, sizeof msg, "kernel '%s', argument %d: %p is not an image from mgpuImageCreate", k->name, i, params[i] ? *(void **)params[i] : NULL);
            gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
            return;
        }
        {
            uint32_t v[5];
            v[0] = im->channels;
            memcpy(v + 1, im->extent, sizeof im->extent);
            v[4] = im->layers;
            memcpy(push + k->params[i].push, v, k->params[i].size);
        }
    }
    for (i = 0; i < k->num_push && !k->num_params; i++) {
        const void *v = params[k->num_bindings + i];
        if (!v || k->push[i].offset + (uint64_t)k->push[i].size > sizeof push) {
            snprintf(msg, sizeof msg, "kernel '%s', argument %d (push constant at offset %u): %s", k->name, k->num_bindings + i, k->push[i].offset,
                     v ? "outside the block" : "NULL");
            gpucompile_runtime_report("mgpuLaunchKernel", -1, msg);
            return;
        }
        memcpy(push + k->push[i].offset, v, k->push[i].size);
    }
    for (i = 0; i < k->num_bindings; i++) {
        memset(&ws[i], 0, sizeof ws[i]);
        ws[i].sType = GPUCOMPILE_VULKAN__ST_WRITE_SET;
        ws[i].binding = k->bindings[i].binding;
        ws[i].count = 1; /* one write per binding: lavapipe mishandles several array elements in one push */
        ws[i].type = k->bindings[i].descriptor_type;
        if (ws[i].type <= 3) ws[i].images = &imgs[i];
        else ws[i].buffers = &bufs[i];
    }
    nw = k->num_bindings;
    if (k->has_uniforms) { /* the scalars' uniform buffer: the function's own, written by each launch's commands */
        void *u = f->uniforms ? NULL : gpucompile_vulkan__mem_alloc(k->push_size, 0);
        gpucompile_vulkan__alloc *a;
        gpucompile_vulkan__lock();
        if (!f->uniforms) f->uniforms = u, u = NULL;
        a = f->uniforms ? gpucompile_vulkan__find(s, f->uniforms, 0) : NULL;
        memset(&bufs[nw], 0, sizeof bufs[nw]);
        bufs[nw].buffer = a ? a->buffer : 0;
        bufs[nw].range = GPUCOMPILE_VULKAN__WHOLE_SIZE;
        gpucompile_vulkan__unlock();
        if (u) gpucompile_vulkan__mem_free(u);
        if (!a) return; /* reported by mgpuMemAlloc's allocator */
        memset(&ws[nw], 0, sizeof ws[nw]);
        ws[nw].sType = GPUCOMPILE_VULKAN__ST_WRITE_SET;
        ws[nw].binding = k->uniform_binding;
        ws[nw].count = 1;
        ws[nw].type = 6;
        ws[nw].buffers = &bufs[nw];
        nw++;
    }
    if ((r = gpucompile_vulkan__pipeline_for(s, f, values, &pipeline, &call)) != 0) {
        gpucompile_vulkan__vk_check(r, call);
        return;
    }
    if (!(c = stream ? (gpucompile_vulkan__ctx *)stream : gpucompile_vulkan__ctx_borrow(s))) return;
    if ((r = gpucompile_vulkan__ctx_next(s, c)) == 0) {
        if (f->num_sets && !f->push_descriptors && (r = gpucompile_vulkan__sets(s, c, f, sets, &call)) == 0) {
            for (i = 0; i < nw; i++) ws[i].set = sets[i < k->num_bindings ? k->bindings[i].set : k->uniform_set];
            s->vk.UpdateDescriptorSets(s->device, (uint32_t)nw, ws, 0, NULL);
        }
        if (r == 0) {
            if (k->has_uniforms) gpucompile_vulkan__write_uniforms(&s->vk, c->cmd, bufs[k->num_bindings].buffer, 0, push, k->push_size);
            s->vk.CmdBindPipeline(c->cmd, 1u /* COMPUTE */, pipeline);
            if (f->num_sets && f->push_descriptors) s->vk.CmdPushDescriptorSetKHR(c->cmd, 1u, f->layout, 0, (uint32_t)nw, ws);
            else if (f->num_sets) s->vk.CmdBindDescriptorSets(c->cmd, 1u, f->layout, 0, f->num_sets, sets, 0, NULL);
            if (k->push_size && !k->has_uniforms) s->vk.CmdPushConstants(c->cmd, f->layout, GPUCOMPILE_VULKAN__COMPUTE_STAGE, 0, (k->push_size + 3u) & ~3u, push);
            gpucompile_vulkan__dispatch(&s->vk, c->cmd, grid, s->max_groups, split);
        } else {
            gpucompile_vulkan__vk_check(r, call);
        }
    }
    if (!stream) {
        gpucompile_vulkan__ctx_flush(s, c);
        gpucompile_vulkan__ctx_return(s, c);
    }
}

static void gpucompile_vulkan__launch(void *function, const unsigned grid[3], const unsigned block[3], unsigned smem, void *stream,
                                      void **params, void **extra) {
    (void)extra;
    gpucompile_vulkan__launch_info(function, NULL, grid, block, smem, stream, params);
}

void gpucompile_vulkan_launch_kernel(void *function, const gpucompile_vulkan_launch_info *info, const uint32_t grid[3], const uint32_t block[3],
                                     uint32_t shared_bytes, void *stream, void **params) {
    unsigned g[3], b[3];
    int d;
    if (!grid || !block) {
        gpucompile_runtime_report("mgpuLaunchKernel", -1, "gpucompile_vulkan_launch_kernel: no grid or no block");
        return;
    }
    for (d = 0; d < 3; d++) {
        g[d] = grid[d];
        b[d] = block[d];
    }
    gpucompile_vulkan__launch_info(function, info, g, b, shared_bytes, stream, params);
}

/* Copies and fills: recorded on a stream when every byte is in allocations, else done by the
   host once the stream has finished (the host reaches every allocation). */
static void gpucompile_vulkan__mem_copy(void *dst, const void *src, size_t size, void *stream) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__ctx *c = (gpucompile_vulkan__ctx *)stream;
    if (!size) return;
    if (c) {
        gpucompile_vulkan__alloc *a, *b, da, sa;
        int both;
        gpucompile_vulkan__lock();
        a = gpucompile_vulkan__find(s, dst, size);
        b = gpucompile_vulkan__find(s, src, size);
        both = a && b;
        if (both) {
            da = *a;
            sa = *b;
        }
        gpucompile_vulkan__unlock();
        if (both && gpucompile_vulkan__ctx_next(s, c) == 0) {
            gpucompile_vulkan__buffer_copy bc;
            bc.src = (uint64_t)((uintptr_t)src - sa.base);
            bc.dst = (uint64_t)((uintptr_t)dst - da.base);
            bc.size = size;
            s->vk.CmdCopyBuffer(c->cmd, sa.buffer, da.buffer, 1, &bc);
            return;
        }
        if (gpucompile_vulkan__ctx_flush(s, c) != 0) return;
    }
    memmove(dst, src, size);
}

static void gpucompile_vulkan__mem_set32(void *dst, unsigned value, size_t count, void *stream) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__ctx *c = (gpucompile_vulkan__ctx *)stream;
    unsigned char *p = (unsigned char *)dst;
    size_t i;
    if (!count) return;
    if (c) {
        gpucompile_vulkan__alloc *a, da;
        int found;
        gpucompile_vulkan__lock();
        a = gpucompile_vulkan__find(s, dst, (uint64_t)count * 4);
        found = a && ((uintptr_t)dst - a->base) % 4 == 0;
        if (found) da = *a;
        gpucompile_vulkan__unlock();
        if (found && gpucompile_vulkan__ctx_next(s, c) == 0) {
            s->vk.CmdFillBuffer(c->cmd, da.buffer, (uint64_t)((uintptr_t)dst - da.base), (uint64_t)count * 4, value);
            return;
        }
        if (gpucompile_vulkan__ctx_flush(s, c) != 0) return;
    }
    for (i = 0; i < count; i++) memcpy(p + 4 * i, &value, 4);
}

/* The vendor behind mgpu*; left NULL: leave, module_load_jit (SPIR-V modules only). */
GPUCOMPILE_RUNTIME_VENDOR_DEFINE(gpucompile_vulkan__) {
    v->name = "Vulkan"; v->launch_call = "vkCmdDispatch"; v->kind = "a Vulkan loader";
    v->env = "GPUCOMPILE_LIBVULKAN"; v->library = GPUCOMPILE_VULKAN__LIBRARY;
    v->what = "the Vulkan loader"; v->hint = "no Vulkan loader installed? Debian: libvulkan1 mesa-vulkan-drivers";
    v->image_create = gpucompile_vulkan__image_create;
    v->image_copy = gpucompile_vulkan__image_transfer;
    v->image_free = gpucompile_vulkan__image_free;
    v->score = gpucompile_vulkan__score;
    v->image_format = gpucompile_spirv_image_format;
    v->enter = gpucompile_vulkan__enter;
}

void gpucompile_vulkan_set_pipeline_cache(const char *path) {
    gpucompile_vulkan__state *s = &gpucompile_vulkan__rt;
    gpucompile_vulkan__lock();
    s->cache_path_set = path != NULL;
    snprintf(s->cache_path, sizeof s->cache_path, "%s", path ? path : "");
    gpucompile_vulkan__unlock();
}

int gpucompile_vulkan_runtime_info_get(gpucompile_vulkan_runtime_info *out) {
    if (!gpucompile_runtime_available()) return 0;
    gpucompile_vulkan__lock();
    if (out) *out = gpucompile_vulkan__rt.info; /* NULL: only whether the device is up */
    gpucompile_vulkan__unlock();
    return 1;
}

const gpucompile_vulkan_kernel *gpucompile_vulkan_function_kernel(void *function) {
    return function ? &((const gpucompile_vulkan__function *)function)->k : NULL;
}

/* ---- engines ---- */
struct gpucompile_vulkan_program {
    gpucompile_vulkan__state dev; /* the engine's device: its entry points, its cache; no limits known */
    gpucompile_vulkan__module *module;
};

gpucompile_vulkan_program *gpucompile_vulkan_program_create(const gpucompile_vulkan_engine *engine, const void *spirv, size_t size) {
    gpucompile_vulkan_program *p;
    const char *missing;
    char msg[256];
    if (!engine || !engine->device || !engine->get_device_proc_addr) {
        gpucompile_runtime_report("gpucompile_vulkan_program_create", -1, "no engine device or vkGetDeviceProcAddr");
        return NULL;
    }
    if (!(p = (gpucompile_vulkan_program *)calloc(1, sizeof *p))) {
        gpucompile_runtime_report("gpucompile_vulkan_program_create", -1, "out of host memory");
        return NULL;
    }
    memcpy(&p->dev.vk.GetDeviceProcAddr, &engine->get_device_proc_addr, sizeof p->dev.vk.GetDeviceProcAddr);
    p->dev.device = engine->device;
    p->dev.cache = engine->pipeline_cache;
    p->dev.max_push = p->dev.max_invocations = p->dev.max_shared = p->dev.max_uniform_range = 0xffffffffu; /* the driver's to check */
    p->dev.max_group_size[0] = p->dev.max_group_size[1] = p->dev.max_group_size[2] = 0xffffffffu;
    p->dev.read_without_format = p->dev.write_without_format = p->dev.int64_atomics = 1; /* the features the engine enabled: the driver's too */
    p->dev.subgroup_ops = 0xffffffffu;
    p->dev.subgroup_min = 1; /* the engine enabled subgroupSizeControl and computeFullSubgroups for kernels that need a sub-group size */
    p->dev.subgroup_max = 128;
    p->dev.size_control = p->dev.full_subgroups = 1;
    if ((missing = gpucompile_vulkan__resolve(&p->dev, engine->device, 1, gpucompile_vulkan__device_names,
                                              sizeof gpucompile_vulkan__device_names / sizeof gpucompile_vulkan__device_names[0], &p->dev.vk.GetDeviceQueue)) != NULL) {
        snprintf(msg, sizeof msg, "the engine's device has no '%s'", missing);
        gpucompile_runtime_report("vkGetDeviceProcAddr", -1, msg);
        free(p);
        return NULL;
    }
    p->dev.push_descriptors = engine->push_descriptors && p->dev.vk.CmdPushDescriptorSetKHR;
    if (!(p->module = gpucompile_vulkan__module_make(&p->dev, spirv, size))) {
        free(p);
        return NULL;
    }
    return p;
}

void gpucompile_vulkan_program_destroy(gpucompile_vulkan_program *program) {
    if (!program) return;
    gpucompile_vulkan__module_free(&program->dev, program->module);
    free(program);
}

static gpucompile_vulkan__function *gpucompile_vulkan__program_function(const gpucompile_vulkan_program *program, const char *name) {
    int i;
    if (program && name)
        for (i = 0; i < program->module->num_functions; i++)
            if (strcmp(program->module->functions[i].k.name, name) == 0) return &program->module->functions[i];
    return NULL;
}

int gpucompile_vulkan_program_entry(const gpucompile_vulkan_program *program, const char *name, gpucompile_vulkan_entry *out) {
    gpucompile_vulkan__function *f = gpucompile_vulkan__program_function(program, name);
    if (!f) return 0;
    memset(out, 0, sizeof *out);
    out->kernel = &f->k;
    out->pipeline = f->pipeline;
    out->pipeline_layout = f->layout;
    memcpy(out->set_layouts, f->sets, sizeof out->set_layouts);
    out->num_set_layouts = f->num_sets;
    out->push_descriptors = f->push_descriptors;
    return 1;
}

/* The pipeline of f (a program's) for block and shared_bytes: 0, or -1 reported. */
static int gpucompile_vulkan__program_pipeline(const gpucompile_vulkan_program *program, gpucompile_vulkan__function *f, const uint32_t *block,
                                               uint32_t shared_bytes, const gpucompile_vulkan_launch_info *info, const unsigned *split,
                                               uint64_t *pipeline, const char *caller) {
    gpucompile_vulkan__state *s = (gpucompile_vulkan__state *)&program->dev; /* its pipelines' list and counters change */
    uint32_t values[GPUCOMPILE_VULKAN_MAX_LAUNCH];
    unsigned b[3];
    char msg[512];
    const char *call = "vkCreateComputePipelines";
    int r;
    if (block) {
        b[0] = block[0];
        b[1] = block[1];
        b[2] = block[2];
    }
    if (gpucompile_vulkan__sizes(s, f, block ? b : NULL, shared_bytes, info, split, values, msg, sizeof msg) != 0) {
        gpucompile_runtime_report(caller, -1, msg);
        return -1;
    }
    if ((r = gpucompile_vulkan__pipeline_for(s, f, values, pipeline, &call)) != 0) {
        gpucompile_vulkan__vk_check(r, call);
        return -1;
    }
    return 0;
}

int gpucompile_vulkan_program_specialize(const gpucompile_vulkan_program *program, const char *name, const uint32_t block[3], uint32_t shared_bytes,
                                         gpucompile_vulkan_entry *out) {
    gpucompile_vulkan__function *f = gpucompile_vulkan__program_function(program, name);
    uint64_t pipeline;
    if (!f) return 0;
    if (gpucompile_vulkan__program_pipeline(program, f, block, shared_bytes, NULL, NULL, &pipeline, "gpucompile_vulkan_program_specialize") != 0) return -1;
    gpucompile_vulkan_program_entry(program, name, out);
    out->pipeline = pipeline;
    return 1;
}

int gpucompile_vulkan_record(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                             const gpucompile_vulkan_buffer *buffers, int num_buffers, const void *push, uint32_t push_size) {
    return gpucompile_vulkan_record_sized(program, name, command_buffer, groups, NULL, 0, buffers, num_buffers, push, push_size);
}

int gpucompile_vulkan_record_sized(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                                   const uint32_t block_size[3], uint32_t shared_bytes, const gpucompile_vulkan_buffer *buffers, int num_buffers,
                                   const void *push, uint32_t push_size) {
    return gpucompile_vulkan_record_launch(program, name, command_buffer, groups, block_size, shared_bytes, NULL, buffers, num_buffers, push, push_size);
}

int gpucompile_vulkan_record_launch(const gpucompile_vulkan_program *program, const char *name, void *command_buffer, const uint32_t groups[3],
                                    const uint32_t block_size[3], uint32_t shared_bytes, const gpucompile_vulkan_launch_info *info,
                                    const gpucompile_vulkan_buffer *buffers, int num_buffers, const void *push, uint32_t push_size) {
    gpucompile_vulkan__function *f = gpucompile_vulkan__program_function(program, name);
    const gpucompile_vulkan__state *s = program ? &program->dev : NULL;
    gpucompile_vulkan__write_set ws[33];
    gpucompile_vulkan__image_desc imgs[32];
    unsigned char block[GPUCOMPILE_VULKAN__MAX_BLOCK];
    char msg[300];
    uint64_t pipeline = 0;
    uint32_t max[3];
    unsigned grid[3];
    int i, split = 0, nw = f ? f->k.num_bindings + f->k.has_uniforms : 0;
    msg[0] = 0;
    for (i = 0; i < 3; i++) {
        max[i] = info && info->max_groups[i] ? info->max_groups[i] : 65535u;
        grid[i] = groups ? groups[i] : 0;
    }
    if (!f) snprintf(msg, sizeof msg, "no entry point '%.200s' in the program", name ? name : "(null)");
    else if (!command_buffer || !groups) snprintf(msg, sizeof msg, "'%s': no command buffer or no group counts", f->k.name);
    else if (buffers && num_buffers != nw)
        snprintf(msg, sizeof msg, "'%s' has %d bindings%s; %d buffers given", f->k.name, f->k.num_bindings,
                 f->k.has_uniforms ? " and a uniform block" : "", num_buffers);
    else if (buffers && f->num_sets && !f->push_descriptors)
        snprintf(msg, sizeof msg, "'%s': buffers are pushed only with push descriptors in set 0; bind your own sets (gpucompile_vulkan_program_entry)", f->k.name);
    else if ((buffers || !f->k.has_uniforms) && (push_size < f->k.push_size || (f->k.push_size && !push) || f->k.push_size > sizeof block))
        snprintf(msg, sizeof msg, "'%s' has a %u-byte %s; %u bytes given", f->k.name, f->k.push_size,
                 f->k.has_uniforms ? "uniform block" : "push-constant block", push_size);
    else split = gpucompile_vulkan__split(&s->vk, &f->k, grid, block_size, max, msg, sizeof msg);
    if (msg[0]) {
        gpucompile_runtime_report("gpucompile_vulkan_record", -1, msg);
        return -1;
    }
    if (gpucompile_vulkan__program_pipeline(program, f, block_size, shared_bytes, info, split ? grid : NULL, &pipeline, "gpucompile_vulkan_record") != 0)
        return -1;
    if (buffers && f->k.has_uniforms)
        gpucompile_vulkan__write_uniforms(&s->vk, command_buffer, buffers[nw - 1].buffer, buffers[nw - 1].offset, push, f->k.push_size);
    s->vk.CmdBindPipeline(command_buffer, 1u, pipeline);
    if (buffers && f->num_sets) {
        for (i = 0; i < nw; i++) {
            memset(&ws[i], 0, sizeof ws[i]);
            ws[i].sType = GPUCOMPILE_VULKAN__ST_WRITE_SET;
            ws[i].binding = i < f->k.num_bindings ? f->k.bindings[i].binding : f->k.uniform_binding;
            ws[i].count = 1;
            ws[i].type = i < f->k.num_bindings ? f->k.bindings[i].descriptor_type : 6;
            if (ws[i].type <= 3) { /* an image: the view, the sampler, the layout (0: GENERAL) in the entry's three words */
                imgs[i].view = buffers[i].buffer;
                imgs[i].sampler = buffers[i].offset;
                imgs[i].layout = buffers[i].range ? (uint32_t)buffers[i].range : GPUCOMPILE_VULKAN__LAYOUT_GENERAL;
                ws[i].images = &imgs[i];
            } else
                ws[i].buffers = (const gpucompile_vulkan__buffer_desc *)(const void *)&buffers[i];
        }
        s->vk.CmdPushDescriptorSetKHR(command_buffer, 1u, f->layout, 0, (uint32_t)nw, ws);
    }
    if (f->k.push_size && !f->k.has_uniforms) { /* the range is whole words: the block's bytes, then zeros */
        memset(block, 0, sizeof block);
        memcpy(block, push, f->k.push_size);
        s->vk.CmdPushConstants(command_buffer, f->layout, GPUCOMPILE_VULKAN__COMPUTE_STAGE, 0, (f->k.push_size + 3u) & ~3u, block);
    }
    gpucompile_vulkan__dispatch(&s->vk, command_buffer, grid, max, split);
    return 0;
}

#ifdef __cplusplus
}
#endif
#endif /* GPUCOMPILE_VULKAN_RUNTIME */

/* ==== [section: end of reflection and runtime] ============================================== */
