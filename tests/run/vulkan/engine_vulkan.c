/* A plain C "engine" that owns its Vulkan device, queue and submission (the real Vulkan headers
   and loader, as an engine has them) and runs saxpy.spv through gpucompile_vulkan.h's program
   API: the program is made on the engine's device, its launch recorded into the engine's
   command buffer, which the engine submits; then sizes.spv, whose workgroup size and shared
   array are set at launch, recorded at several sizes (a pipeline each, made at the first and kept);
   then many.spv (tests/data/vulkan_many_scalars.cl: 41 scalars, 164 bytes, a uniform block),
   recorded twice into one command buffer with the engine's uniform buffer, other values each time.
   Usage: engine_vulkan DIR (saxpy.spv, sizes.spv and many.spv in DIR). */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "gpucompile_vulkan.h"
#include <vulkan/vulkan.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failed, errors;
static char last_error[1024];

static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    snprintf(last_error, sizeof last_error, "%s (%d): %s", call, code, message);
    errors++;
}
#define CHECK(c) do { if (!(c)) { failed = 1; printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)

static void *read_file(const char *dir, const char *name, size_t *size) {
    char path[1024];
    FILE *f;
    void *p;
    long n;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (!(f = fopen(path, "rb"))) return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    p = malloc((size_t)n);
    if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
        free(p);
        p = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return p;
}

static uint32_t memory_type(VkPhysicalDevice pd) {
    VkPhysicalDeviceMemoryProperties mp;
    uint32_t i;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    for (i = 0; i < mp.memoryTypeCount; i++)
        if ((mp.memoryTypes[i].propertyFlags & (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)) ==
            (VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT))
            return i;
    return 0;
}

static VkBuffer buffer(VkDevice d, uint32_t type, VkDeviceSize size, void **map) {
    VkBufferCreateInfo bi;
    VkMemoryAllocateInfo ai;
    VkMemoryRequirements mr;
    VkBuffer b = VK_NULL_HANDLE;
    VkDeviceMemory m = VK_NULL_HANDLE;
    memset(&bi, 0, sizeof bi);
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    vkCreateBuffer(d, &bi, NULL, &b);
    vkGetBufferMemoryRequirements(d, b, &mr);
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = mr.size;
    ai.memoryTypeIndex = type;
    vkAllocateMemory(d, &ai, NULL, &m);
    vkBindBufferMemory(d, b, m, 0);
    vkMapMemory(d, m, 0, VK_WHOLE_SIZE, 0, map);
    return b; /* the memory lives until the device goes (a test) */
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : ".";
    char path[1024];
    FILE *f;
    void *spv = NULL;
    long n = 0;
    VkApplicationInfo app;
    VkInstanceCreateInfo ii;
    VkInstance inst;
    VkPhysicalDevice pd;
    uint32_t count = 1, family = 0, nq = 16, i, type;
    VkQueueFamilyProperties qf[16];
    VkPhysicalDeviceVulkan12Features f12;
    VkPhysicalDeviceVulkan13Features f13;
    VkDeviceQueueCreateInfo qi;
    VkDeviceCreateInfo di;
    const char *ext = VK_KHR_PUSH_DESCRIPTOR_EXTENSION_NAME;
    float prio = 1.0f, *x, *y, a = 3.0f;
    VkDevice dev;
    VkQueue queue;
    VkPipelineCacheCreateInfo pci;
    VkPipelineCache cache;
    VkCommandPoolCreateInfo cpi;
    VkCommandPool pool;
    VkCommandBufferAllocateInfo cai;
    VkCommandBuffer cmd;
    VkCommandBufferBeginInfo cbi;
    VkMemoryBarrier mb;
    VkSubmitInfo si;
    VkFenceCreateInfo fi;
    VkFence fence;
    gpucompile_vulkan_engine engine;
    gpucompile_vulkan_program *program;
    gpucompile_vulkan_entry entry;
    gpucompile_vulkan_buffer bufs[2];
    struct { float a; uint32_t n; } push;
    uint32_t groups[3] = {4, 1, 1}, bad = 0;
    gpucompile_runtime_set_error_callback(on_error, NULL);
    snprintf(path, sizeof path, "%s/saxpy.spv", dir);
    if (!(f = fopen(path, "rb"))) return printf("cannot read %s\n", path), 1;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    spv = malloc((size_t)n);
    if (fread(spv, 1, (size_t)n, f) != (size_t)n) return 1;
    fclose(f);
    memset(&app, 0, sizeof app);
    app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
    app.apiVersion = VK_API_VERSION_1_3;
    memset(&ii, 0, sizeof ii);
    ii.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
    ii.pApplicationInfo = &app;
    if (vkCreateInstance(&ii, NULL, &inst) != VK_SUCCESS || vkEnumeratePhysicalDevices(inst, &count, &pd) < 0 || !count) {
        printf("SKIP engine-vulkan: no Vulkan device\nengine-vulkan: 0 passed, 0 failed, 1 skipped\n");
        return 0;
    }
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nq, qf);
    for (i = 0; i < nq; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) { family = i; break; }
    memset(&f12, 0, sizeof f12);
    f12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    f12.shaderInt8 = VK_TRUE; /* llc's modules declare Int8 */
    f12.pNext = &f13;
    memset(&f13, 0, sizeof f13);
    f13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    f13.maintenance4 = VK_TRUE; /* LocalSizeId: a workgroup size set at launch */
    memset(&qi, 0, sizeof qi);
    qi.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    memset(&di, 0, sizeof di);
    di.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
    di.pNext = &f12;
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.enabledExtensionCount = 1;
    di.ppEnabledExtensionNames = &ext;
    CHECK(vkCreateDevice(pd, &di, NULL, &dev) == VK_SUCCESS);
    vkGetDeviceQueue(dev, family, 0, &queue);
    memset(&pci, 0, sizeof pci);
    pci.sType = VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO;
    vkCreatePipelineCache(dev, &pci, NULL, &cache);
    /* the program, on the engine's device */
    memset(&engine, 0, sizeof engine);
    engine.device = dev;
    engine.get_device_proc_addr = (gpucompile_vulkan_void_fn(GPUCOMPILE_VULKAN_CALL *)(void *, const char *))vkGetDeviceProcAddr;
    engine.pipeline_cache = (uint64_t)cache;
    engine.push_descriptors = 1;
    CHECK((program = gpucompile_vulkan_program_create(&engine, spv, (size_t)n)) != NULL);
    if (!program) return 1;
    CHECK(gpucompile_vulkan_program_entry(program, "saxpy", &entry) == 1);
    CHECK(entry.kernel->num_bindings == 2 && entry.pipeline && entry.pipeline_layout && entry.num_set_layouts == 1 && entry.push_descriptors);
    CHECK(gpucompile_vulkan_program_entry(program, "nothere", &entry) == 0);
    /* buffers and a command buffer of the engine's */
    type = memory_type(pd);
    bufs[0].buffer = (uint64_t)buffer(dev, type, 256 * 4, (void **)&x);
    bufs[1].buffer = (uint64_t)buffer(dev, type, 256 * 4, (void **)&y);
    bufs[0].offset = bufs[1].offset = 0;
    bufs[0].range = bufs[1].range = VK_WHOLE_SIZE;
    for (i = 0; i < 256; i++) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    memset(&cpi, 0, sizeof cpi);
    cpi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpi.queueFamilyIndex = family;
    vkCreateCommandPool(dev, &cpi, NULL, &pool);
    memset(&cai, 0, sizeof cai);
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = pool;
    cai.commandBufferCount = 1;
    vkAllocateCommandBuffers(dev, &cai, &cmd);
    memset(&cbi, 0, sizeof cbi);
    cbi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    vkBeginCommandBuffer(cmd, &cbi);
    push.a = a;
    push.n = 250;
    CHECK(gpucompile_vulkan_record(program, "saxpy", cmd, groups, bufs, 2, &push, sizeof push) == 0);
    CHECK(gpucompile_vulkan_record(program, "saxpy", cmd, groups, bufs, 1, &push, sizeof push) == -1); /* refused, nothing recorded */
    CHECK(errors == 1 && strstr(last_error, "2 bindings; 1 buffers given"));
    memset(&mb, 0, sizeof mb);
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
    vkEndCommandBuffer(cmd);
    memset(&fi, 0, sizeof fi);
    fi.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    vkCreateFence(dev, &fi, NULL, &fence);
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    CHECK(vkQueueSubmit(queue, 1, &si, fence) == VK_SUCCESS);
    CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, ~(uint64_t)0) == VK_SUCCESS);
    for (i = 0; i < 256; i++) bad += y[i] != (i < 250 ? a * (float)i + 1.0f : 1.0f);
    CHECK(bad == 0);
    gpucompile_vulkan_program_destroy(program);
    { /* sizes set at launch: blocks of 8, 64, 8 again, 256 threads, the shared array as long */
        static const uint32_t blocks[4] = {8, 64, 8, 256};
        size_t size = 0;
        void *sizes = read_file(dir, "sizes.spv", &size);
        gpucompile_vulkan_buffer out;
        uint32_t *o, k, one[3] = {1, 1, 1};
        gpucompile_vulkan_entry e8, e8b;
        CHECK(sizes != NULL);
        CHECK((program = sizes ? gpucompile_vulkan_program_create(&engine, sizes, size) : NULL) != NULL);
        if (!program) return 1;
        CHECK(gpucompile_vulkan_program_entry(program, "main", &entry) == 1 && entry.kernel->num_launch == 2);
        CHECK(gpucompile_vulkan_program_specialize(program, "main", (uint32_t[3]){8, 1, 1}, 32, &e8) == 1 && e8.pipeline && e8.pipeline != entry.pipeline);
        CHECK(gpucompile_vulkan_program_specialize(program, "main", (uint32_t[3]){8, 1, 1}, 32, &e8b) == 1 && e8b.pipeline == e8.pipeline); /* kept */
        out.buffer = (uint64_t)buffer(dev, type, 4 * 256 * 2, (void **)&o);
        out.offset = 0;
        out.range = VK_WHOLE_SIZE;
        for (k = 0; k < 4; k++) {
            memset(o, 0, 4 * 256 * 2);
            vkResetCommandPool(dev, pool, 0);
            vkBeginCommandBuffer(cmd, &cbi);
            groups[0] = 2;
            CHECK(gpucompile_vulkan_record_sized(program, "main", cmd, groups, (uint32_t[3]){blocks[k], 1, 1}, 4 * blocks[k], &out, 1, NULL, 0) == 0);
            vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
            vkEndCommandBuffer(cmd);
            vkResetFences(dev, 1, &fence);
            CHECK(vkQueueSubmit(queue, 1, &si, fence) == VK_SUCCESS);
            CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, ~(uint64_t)0) == VK_SUCCESS);
            for (bad = 0, i = 0; i < 2 * blocks[k]; i++) bad += o[i] != blocks[k] - 1 - i % blocks[k] + 1000 * blocks[k];
            CHECK(bad == 0);
            if (bad) printf("  blocks of %u: %u wrong; o[0] = %u\n", blocks[k], bad, o[0]);
        }
        errors = 0;
        CHECK(gpucompile_vulkan_record_sized(program, "main", cmd, groups, (uint32_t[3]){8, 2, 1}, 32, &out, 1, NULL, 0) == -1); /* y is compiled in */
        CHECK(errors == 1 && strstr(last_error, "compiled in where not set at launch"));
        CHECK(gpucompile_vulkan_program_specialize(program, "main", one, 0, &e8) == 1);
        gpucompile_vulkan_program_destroy(program);
        free(sizes);
    }
    { /* scalars above the 128 bytes of push constants: the engine's uniform buffer, the last of the buffers */
        size_t size = 0;
        void *many = read_file(dir, "many.spv", &size), *u;
        gpucompile_vulkan_buffer b[2][2];
        struct { float d; struct { int32_t i; float f; } v[20]; } args[2];
        float *o[2];
        int l, k;
        CHECK(many != NULL);
        CHECK((program = many ? gpucompile_vulkan_program_create(&engine, many, size) : NULL) != NULL);
        if (!program) return 1;
        CHECK(gpucompile_vulkan_program_entry(program, "many", &entry) == 1 && entry.kernel->has_uniforms && entry.kernel->push_size == 164 &&
              entry.kernel->num_bindings == 1);
        vkResetCommandPool(dev, pool, 0);
        vkBeginCommandBuffer(cmd, &cbi);
        groups[0] = 1;
        b[0][1].buffer = (uint64_t)buffer(dev, type, 256, &u); /* one uniform buffer for both launches */
        for (l = 0; l < 2; l++) {
            b[l][0].buffer = (uint64_t)buffer(dev, type, 40 * 4, (void **)&o[l]);
            b[l][0].offset = b[l][1].offset = 0;
            b[l][0].range = b[l][1].range = VK_WHOLE_SIZE;
            b[l][1].buffer = b[0][1].buffer;
            args[l].d = l ? -1.0f : 0.5f;
            for (k = 0; k < 20; k++) {
                args[l].v[k].i = (l ? -1000 : 1000) * k + 7;
                args[l].v[k].f = (l ? -0.25f : 0.75f) * (float)k;
            }
            CHECK(gpucompile_vulkan_record(program, "many", cmd, groups, b[l], 2, &args[l], sizeof args[l]) == 0);
        }
        errors = 0;
        CHECK(gpucompile_vulkan_record(program, "many", cmd, groups, b[0], 1, &args[0], sizeof args[0]) == -1);
        CHECK(errors == 1 && strstr(last_error, "1 bindings and a uniform block; 1 buffers given"));
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
        vkEndCommandBuffer(cmd);
        vkResetFences(dev, 1, &fence);
        CHECK(vkQueueSubmit(queue, 1, &si, fence) == VK_SUCCESS);
        CHECK(vkWaitForFences(dev, 1, &fence, VK_TRUE, ~(uint64_t)0) == VK_SUCCESS);
        for (bad = 0, l = 0; l < 2; l++)
            for (k = 0; k < 20; k++)
                bad += o[l][2 * k] != (float)args[l].v[k].i + args[l].d || o[l][2 * k + 1] != args[l].v[k].f + args[l].d;
        CHECK(bad == 0);
        if (bad) printf("  the uniform block: %u wrong; o[1][2] = %g\n", bad, (double)o[1][2]);
        gpucompile_vulkan_program_destroy(program);
        free(many);
    }
    vkDestroyFence(dev, fence, NULL);
    vkDestroyCommandPool(dev, pool, NULL);
    vkDestroyPipelineCache(dev, cache, NULL);
    free(spv);
    printf("%s engine: saxpy recorded into the engine's command buffer; a kernel recorded at four sizes set at launch; 41 scalars in the "
           "engine's uniform buffer, two launches\n", failed ? "FAIL" : "ok  ");
    printf("engine-vulkan: %d passed, %d failed, 0 skipped\n", !failed, failed);
    return failed;
}
