/* 09_vulkan_engine.c - an engine that owns its Vulkan device compiles a kernel and records it.

   What it shows: the other way to run kernels on Vulkan (examples/08_vulkan_runtime.c lets the
   mgpu* runtime start a device of its own). The engine here has its Vulkan headers and loader and
   makes its instance, device, queue, buffers, command buffer and pipeline cache itself, as a game
   engine does. At load time it compiles an ordinary OpenCL-style kernel (pointer and scalar
   parameters, LLVM IR as clang writes it for spirv64) for #gpu.vulkan: its pointers become
   storage buffers, its scalars a push-constant block, and the module records the parameters'
   order. gpucompile_vulkan_program_create makes the shader module, set layouts, pipeline layout
   and pipeline on the engine's device; the engine maps its arguments, in the kernel's own order,
   onto bindings and push-constant bytes from the reflection (gpucompile_vulkan_kernel.params);
   gpucompile_vulkan_record binds and dispatches into the engine's command buffer; the engine
   submits it, waits on its fence and checks the answer against the host's. No mgpu* device is
   started. The buffers go through push descriptors where the device has VK_KHR_push_descriptor;
   with the argument "sets" (or without the extension) the engine binds a descriptor set of its
   own, made with the program's layout. An engine that ships without LLVM loads modules the CLI
   compiled (gpucompile -t '#gpu.vulkan' -f bin k.ll -o k.spv) and calls the same functions from
   gpucompile_vulkan_program_create on: they need GPUCOMPILE_VULKAN_RUNTIME alone.

   Build: cc -std=c11 examples/09_vulkan_engine.c -I. $(llvm-config-22 --cflags --ldflags --libs) -lvulkan -ldl -lpthread -o ex09
   Run:   ./ex09 [sets]   (exit 0: every answer right; 77: no SPIR-V target in this LLVM, or no
          Vulkan device; 1: a wrong answer or a failure, said on stderr) */
#define GPUCOMPILE_IMPLEMENTATION  /* the compiler, with the Vulkan backend */
#define GPUCOMPILE_VULKAN_RUNTIME  /* the program API: gpucompile_vulkan_program_create, _record */
#include "gpucompile.h"
#include "gpucompile_vulkan.h"
#include <vulkan/vulkan.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* y = a * x + y for i < n: what clang -target spirv64 -O2 writes for OpenCL C's
   kernel __attribute__((reqd_work_group_size(64, 1, 1)))
   void saxpy(float a, global const float *x, global float *y, int n) */
static const char kernel_ir[] =
    "declare spir_func i64 @_Z13get_global_idj(i32)\n"
    "define spir_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) !reqd_work_group_size !0 {\n"
    "entry:\n"
    "  %gid = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
    "  %i = trunc i64 %gid to i32\n"
    "  %in = icmp slt i32 %i, %n\n"
    "  br i1 %in, label %body, label %done\n"
    "body:\n"
    "  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %gid\n"
    "  %vx = load float, ptr addrspace(1) %px\n"
    "  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %gid\n"
    "  %vy = load float, ptr addrspace(1) %py\n"
    "  %m = fmul float %a, %vx\n"
    "  %s = fadd float %m, %vy\n"
    "  store float %s, ptr addrspace(1) %py\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "!0 = !{i32 64, i32 1, i32 1}\n";

static int failures;

static void on_compile_message(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity != GPUCOMPILE_SEVERITY_NOTE) fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}
/* The program API reports each failure here (a Vulkan result, a refused record); it never aborts. */
static void on_runtime_error(const char *call, int code, const char *message, void *user_data) {
    (void)user_data;
    fprintf(stderr, "vulkan: %s failed (%d): %s\n", call, code, message);
    failures++;
}

/* ---- the engine's own Vulkan: a device with one compute queue ---- */
typedef struct engine {
    VkInstance instance;
    VkPhysicalDevice physical;
    VkDevice device;
    VkQueue queue;
    uint32_t family;
    int push_descriptors; /* VK_KHR_push_descriptor enabled */
    VkPipelineCache cache;
    VkCommandPool pool;
} engine;

static int has_extension(VkPhysicalDevice pd, const char *name) {
    VkExtensionProperties props[512];
    uint32_t i, n = 512;
    if (vkEnumerateDeviceExtensionProperties(pd, NULL, &n, props) < 0) return 0;
    for (i = 0; i < n; i++)
        if (strcmp(props[i].extensionName, name) == 0) return 1;
    return 0;
}

/* 1: up; 0: no Vulkan device (said on stderr). */
static int engine_start(engine *e, int want_push_descriptors) {
    VkApplicationInfo app;
    VkInstanceCreateInfo ii;
    VkQueueFamilyProperties families[16];
    VkPhysicalDeviceFeatures supported, features;
    VkDeviceQueueCreateInfo qi;
    VkDeviceCreateInfo di;
    VkPipelineCacheCreateInfo pci;
    VkCommandPoolCreateInfo cpi;
    const char *push_ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    float priority = 1.0f;
    uint32_t count = 1, nf = 16, i;
    memset(e, 0, sizeof *e);
    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.pEngineName = "examples/09_vulkan_engine.c";
    app.apiVersion = VK_API_VERSION_1_3; /* the SPIR-V 1.6 that #gpu.vulkan writes by default */
    memset(&ii, 0, sizeof ii);
    ii.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ii.pApplicationInfo = &app;
    if (vkCreateInstance(&ii, NULL, &e->instance) != VK_SUCCESS) return fprintf(stderr, "no Vulkan instance\n"), 0;
    if (vkEnumeratePhysicalDevices(e->instance, &count, &e->physical) < 0 || count == 0)
        return fprintf(stderr, "no Vulkan device\n"), 0; /* the first device (VK_INCOMPLETE is fine) */
    vkGetPhysicalDeviceQueueFamilyProperties(e->physical, &nf, families);
    for (i = 0; i < nf && !(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT); i++) {}
    if (i == nf) return fprintf(stderr, "no compute queue\n"), 0;
    e->family = i;
    /* the features the module declares: its 64-bit get_global_id makes it declare Int64 */
    vkGetPhysicalDeviceFeatures(e->physical, &supported);
    memset(&features, 0, sizeof features);
    features.shaderInt64 = supported.shaderInt64;
    e->push_descriptors = want_push_descriptors && has_extension(e->physical, push_ext);
    memset(&qi, 0, sizeof qi);
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = e->family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &priority;
    memset(&di, 0, sizeof di);
    di.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.pEnabledFeatures = &features;
    di.enabledExtensionCount = e->push_descriptors ? 1 : 0;
    di.ppEnabledExtensionNames = &push_ext;
    if (vkCreateDevice(e->physical, &di, NULL, &e->device) != VK_SUCCESS) return fprintf(stderr, "no Vulkan device made\n"), 0;
    vkGetDeviceQueue(e->device, e->family, 0, &e->queue);
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    memset(&cpi, 0, sizeof cpi);
    cpi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpi.queueFamilyIndex = e->family;
    return vkCreatePipelineCache(e->device, &pci, NULL, &e->cache) == VK_SUCCESS &&
           vkCreateCommandPool(e->device, &cpi, NULL, &e->pool) == VK_SUCCESS;
}

static void engine_stop(engine *e) {
    if (e->device) {
        vkDestroyCommandPool(e->device, e->pool, NULL);
        vkDestroyPipelineCache(e->device, e->cache, NULL);
        vkDestroyDevice(e->device, NULL);
    }
    if (e->instance) vkDestroyInstance(e->instance, NULL);
}

/* A storage buffer in host-visible, coherent memory, mapped (the host writes and reads it). */
typedef struct buffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    void *data;
} buffer;

static int buffer_create(const engine *e, VkDeviceSize size, buffer *b) {
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    VkPhysicalDeviceMemoryProperties mp;
    VkBufferCreateInfo bi;
    VkMemoryAllocateInfo ai;
    VkMemoryRequirements mr;
    uint32_t t;
    memset(b, 0, sizeof *b);
    memset(&bi, 0, sizeof bi);
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    if (vkCreateBuffer(e->device, &bi, NULL, &b->buffer) != VK_SUCCESS) return 0;
    vkGetBufferMemoryRequirements(e->device, b->buffer, &mr);
    vkGetPhysicalDeviceMemoryProperties(e->physical, &mp);
    for (t = 0; t < mp.memoryTypeCount; t++)
        if ((mr.memoryTypeBits & (1u << t)) && (mp.memoryTypes[t].propertyFlags & want) == want) break;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = t;
    return t < mp.memoryTypeCount && vkAllocateMemory(e->device, &ai, NULL, &b->memory) == VK_SUCCESS &&
           vkBindBufferMemory(e->device, b->buffer, b->memory, 0) == VK_SUCCESS &&
           vkMapMemory(e->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->data) == VK_SUCCESS;
}

static void buffer_destroy(const engine *e, buffer *b) {
    vkDestroyBuffer(e->device, b->buffer, NULL);
    vkFreeMemory(e->device, b->memory, NULL); /* unmaps it */
}

/* ---- the kernel: compiled at load time, made into a program on the engine's device ---- */
static gpucompile_vulkan_program *load_kernel(const engine *e) {
    gpucompile_target *target = NULL;
    gpucompile_options options;
    gpucompile_object *obj = NULL;
    gpucompile_vulkan_engine desc;
    gpucompile_vulkan_program *program = NULL;
    memset(&options, 0, sizeof options); /* zero means default; a cache directory would keep the SPIR-V */
    options.logger.func = on_compile_message;
    options.format = GPUCOMPILE_FORMAT_BIN; /* the SPIR-V module vkCreateShaderModule takes */
    if (gpucompile_target_parse("#gpu.vulkan", (size_t)-1, NULL, &options.logger, &target) != GPUCOMPILE_OK ||
        gpucompile_compile_ir(kernel_ir, sizeof kernel_ir - 1, "saxpy", target, &options, &obj) != GPUCOMPILE_OK) {
        gpucompile_target_free(target);
        return NULL;
    }
    memset(&desc, 0, sizeof desc);
    desc.device = e->device;
    desc.get_device_proc_addr = (gpucompile_vulkan_void_fn(GPUCOMPILE_VULKAN_CALL *)(void *, const char *))vkGetDeviceProcAddr;
    desc.pipeline_cache = (uint64_t)e->cache;
    desc.push_descriptors = e->push_descriptors;
    program = gpucompile_vulkan_program_create(&desc, obj->data, obj->size); /* the module's bytes are copied */
    printf("compiled saxpy for %s: a SPIR-V module of %zu bytes, made into a program on the engine's device\n",
           "#gpu.vulkan", obj->size);
    gpucompile_object_free(obj);
    gpucompile_target_free(target);
    return program;
}

/* One argument in the kernel's own order: a buffer for a pointer parameter, else the bytes of a
   scalar. */
typedef struct arg {
    VkBuffer buffer;
    const void *value;
    size_t size;
} arg;

/* The dispatch's buffers (in the reflection's binding order) and push-constant bytes from the
   arguments, through the parameter list the module recorded. 0 when they do not fit the kernel. */
static int map_args(const gpucompile_vulkan_kernel *k, const arg *args, int nargs, gpucompile_vulkan_buffer *bufs,
                    unsigned char *push, size_t push_cap) {
    int i, j;
    if (nargs != k->num_params || k->push_size > push_cap) return 0;
    memset(push, 0, push_cap);
    for (i = 0; i < nargs; i++) {
        const gpucompile_vulkan_param *p = &k->params[i];
        if (p->kind == GPUCOMPILE_VULKAN_PARAM_BINDING) {
            for (j = 0; j < k->num_bindings && k->bindings[j].binding != p->value; j++) {}
            if (j == k->num_bindings || !args[i].buffer) return 0;
            bufs[j].buffer = (uint64_t)args[i].buffer;
            bufs[j].offset = 0;
            bufs[j].range = VK_WHOLE_SIZE;
        } else if (p->kind == GPUCOMPILE_VULKAN_PARAM_PUSH) {
            if (args[i].size != p->size || p->value + p->size > push_cap) return 0;
            memcpy(push + p->value, args[i].value, p->size);
        } else if (p->kind == GPUCOMPILE_VULKAN_PARAM_LOCAL) {
            return 0; /* local memory parameters: not in this engine */
        }
    }
    return 1;
}

/* Without push descriptors: a descriptor set of the engine's, made with the program's set layout
   and bound at set 0 (then gpucompile_vulkan_record is given no buffers). */
static VkDescriptorPool bind_set(const engine *e, const gpucompile_vulkan_entry *entry, VkCommandBuffer cmd,
                                 const gpucompile_vulkan_buffer *bufs) {
    VkDescriptorPoolSize size;
    VkDescriptorPoolCreateInfo pi;
    VkDescriptorSetAllocateInfo ai;
    VkDescriptorSetLayout layout = (VkDescriptorSetLayout)entry->set_layouts[0];
    VkDescriptorBufferInfo info[32];
    VkWriteDescriptorSet writes[32];
    VkDescriptorPool pool = VK_NULL_HANDLE;
    VkDescriptorSet set;
    int i, n = entry->kernel->num_bindings;
    memset(&size, 0, sizeof size);
    size.type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    size.descriptorCount = (uint32_t)n;
    memset(&pi, 0, sizeof pi);
    pi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    pi.maxSets = 1;
    pi.poolSizeCount = 1;
    pi.pPoolSizes = &size;
    if (entry->num_set_layouts != 1 || vkCreateDescriptorPool(e->device, &pi, NULL, &pool) != VK_SUCCESS) return VK_NULL_HANDLE;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    ai.descriptorPool = pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &layout;
    if (vkAllocateDescriptorSets(e->device, &ai, &set) != VK_SUCCESS) {
        vkDestroyDescriptorPool(e->device, pool, NULL);
        return VK_NULL_HANDLE;
    }
    memset(writes, 0, sizeof writes);
    for (i = 0; i < n; i++) {
        info[i].buffer = (VkBuffer)bufs[i].buffer;
        info[i].offset = bufs[i].offset;
        info[i].range = bufs[i].range;
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = set;
        writes[i].dstBinding = entry->kernel->bindings[i].binding;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER; /* a pointer parameter's */
        writes[i].pBufferInfo = &info[i];
    }
    vkUpdateDescriptorSets(e->device, (uint32_t)n, writes, 0, NULL);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, (VkPipelineLayout)entry->pipeline_layout, 0, 1, &set, 0, NULL);
    return pool;
}

int main(int argc, char **argv) {
    const int use_sets = argc > 1 && strcmp(argv[1], "sets") == 0;
    engine e;
    gpucompile_vulkan_program *program;
    gpucompile_vulkan_entry entry;
    gpucompile_vulkan_buffer bufs[32];
    unsigned char push[128];
    buffer x, y;
    arg args[4];
    float a = 3.0f, *xs, *ys;
    int n = 1000, i, wrong = 0;
    uint32_t groups[3] = {1, 1, 1};
    VkCommandBufferAllocateInfo cai;
    VkCommandBufferBeginInfo cbi;
    VkCommandBuffer cmd;
    VkMemoryBarrier to_host;
    VkFenceCreateInfo fi;
    VkFence fence;
    VkSubmitInfo si;
    VkDescriptorPool sets = VK_NULL_HANDLE;
    gpucompile_runtime_set_error_callback(on_runtime_error, NULL);
    if (!gpucompile_vulkan_available()) {
        fprintf(stderr, "this LLVM has no SPIR-V target (LLVM 22 has): nothing compiled\n");
        return 77;
    }
    if (!engine_start(&e, !use_sets)) {
        engine_stop(&e);
        return 77;
    }
    if (!(program = load_kernel(&e)) || gpucompile_vulkan_program_entry(program, "saxpy", &entry) != 1) {
        gpucompile_vulkan_program_destroy(program);
        engine_stop(&e);
        return 1;
    }
    printf("saxpy: workgroup %u x %u x %u, %d parameters, %d bindings, %u bytes of push constants, %s\n",
           (unsigned)entry.kernel->local_size[0], (unsigned)entry.kernel->local_size[1], (unsigned)entry.kernel->local_size[2],
           entry.kernel->num_params, entry.kernel->num_bindings, (unsigned)entry.kernel->push_size,
           entry.push_descriptors ? "push descriptors" : "a descriptor set of its own");

    /* the engine's buffers, filled by the host */
    if (!buffer_create(&e, (VkDeviceSize)n * sizeof(float), &x) || !buffer_create(&e, (VkDeviceSize)n * sizeof(float), &y)) return 1;
    xs = (float *)x.data;
    ys = (float *)y.data;
    for (i = 0; i < n; i++) {
        xs[i] = (float)i;
        ys[i] = 1.0f;
    }
    /* saxpy(a, x, y, n): the kernel's own parameter order */
    memset(args, 0, sizeof args);
    args[0].value = &a, args[0].size = sizeof a;
    args[1].buffer = x.buffer;
    args[2].buffer = y.buffer;
    args[3].value = &n, args[3].size = sizeof n;
    if (!map_args(entry.kernel, args, 4, bufs, push, sizeof push)) return fprintf(stderr, "saxpy takes other arguments\n"), 1;
    groups[0] = ((uint32_t)n + entry.kernel->local_size[0] - 1) / entry.kernel->local_size[0];

    /* recorded into the engine's command buffer, submitted by the engine */
    memset(&cai, 0, sizeof cai);
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = e.pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    memset(&cbi, 0, sizeof cbi);
    cbi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    cbi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if (vkAllocateCommandBuffers(e.device, &cai, &cmd) != VK_SUCCESS || vkBeginCommandBuffer(cmd, &cbi) != VK_SUCCESS) return 1;
    if (!entry.push_descriptors && !(sets = bind_set(&e, &entry, cmd, bufs))) return fprintf(stderr, "no descriptor set\n"), 1;
    if (gpucompile_vulkan_record(program, "saxpy", cmd, groups, entry.push_descriptors ? bufs : NULL, entry.kernel->num_bindings,
                                 push, entry.kernel->push_size) != 0)
        return 1; /* said through on_runtime_error */
    memset(&to_host, 0, sizeof to_host); /* the kernel's writes, visible to the host's reads */
    to_host.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
    memset(&fi, 0, sizeof fi);
    fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    if (vkEndCommandBuffer(cmd) != VK_SUCCESS || vkCreateFence(e.device, &fi, NULL, &fence) != VK_SUCCESS ||
        vkQueueSubmit(e.queue, 1, &si, fence) != VK_SUCCESS || vkWaitForFences(e.device, 1, &fence, VK_TRUE, ~(uint64_t)0) != VK_SUCCESS)
        return fprintf(stderr, "the submission failed\n"), 1;

    /* the answer, against the host's */
    for (i = 0; i < n; i++) wrong += ys[i] != a * (float)i + 1.0f;
    printf("saxpy: y = 3 x + 1 for %d elements in %u workgroups, %d wrong (y[999] = %g)\n", n, (unsigned)groups[0], wrong,
           (double)ys[n - 1]);

    vkDestroyFence(e.device, fence, NULL);
    if (sets) vkDestroyDescriptorPool(e.device, sets, NULL);
    buffer_destroy(&e, &x);
    buffer_destroy(&e, &y);
    gpucompile_vulkan_program_destroy(program); /* before the device it was made on */
    engine_stop(&e);
    printf("%s\n", wrong || failures ? "FAILED" : "every answer right");
    return wrong || failures;
}
