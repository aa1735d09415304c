/* An engine that owns its WGPUDevice (the real webgpu.h: wgpu-native's header, linked against
   its library): a program made on that device by gpucompile_webgpu_program_create, a dispatch
   recorded into the engine's own compute pass by gpucompile_webgpu_record, submitted and read
   back by the engine. No mgpu* device is started. Usage: engine_webgpu DIR (DIR/saxpy.spv, the
   #gpu.webgpu module of examples/kernels/saxpy_vulkan.ll); one line per test and
   "run-webgpu-engine: N passed, M failed"; skips with one line when no adapter is there. */
#define GPUCOMPILE_WEBGPU_RUNTIME
#include "gpucompile_webgpu.h"
#include <webgpu.h>
#include <wgpu.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_adapter(WGPURequestAdapterStatus status, WGPUAdapter adapter, WGPUStringView message, void *u1, void *u2) {
    (void)message; (void)u2;
    *(WGPUAdapter *)u1 = status == WGPURequestAdapterStatus_Success ? adapter : NULL;
}
static void on_device(WGPURequestDeviceStatus status, WGPUDevice device, WGPUStringView message, void *u1, void *u2) {
    (void)message; (void)u2;
    *(WGPUDevice *)u1 = status == WGPURequestDeviceStatus_Success ? device : NULL;
}
static void on_map(WGPUMapAsyncStatus status, WGPUStringView message, void *u1, void *u2) {
    (void)message; (void)u2;
    *(int *)u1 = status == WGPUMapAsyncStatus_Success ? 1 : -1;
}
static int errors;
static void on_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    printf("  runtime: %s (%d): %s\n", call, code, message);
    errors++;
}

static WGPUBuffer buffer(WGPUDevice d, uint64_t size, WGPUBufferUsage usage) {
    WGPUBufferDescriptor bd = WGPU_BUFFER_DESCRIPTOR_INIT;
    bd.size = size;
    bd.usage = usage;
    return wgpuDeviceCreateBuffer(d, &bd);
}

int main(int argc, char **argv) {
    WGPUInstance instance = wgpuCreateInstance(NULL);
    WGPUAdapter adapter = NULL;
    WGPUDevice device = NULL;
    WGPURequestAdapterCallbackInfo ac = WGPU_REQUEST_ADAPTER_CALLBACK_INFO_INIT;
    WGPURequestDeviceCallbackInfo dc = WGPU_REQUEST_DEVICE_CALLBACK_INFO_INIT;
    WGPUBufferMapCallbackInfo mc = WGPU_BUFFER_MAP_CALLBACK_INFO_INIT;
    gpucompile_webgpu_engine engine;
    gpucompile_webgpu_program *program;
    gpucompile_webgpu_entry entry;
    gpucompile_webgpu_buffer bufs[2];
    struct { float a; uint32_t n; } uniforms = {3.0f, 200};
    uint32_t groups[3] = {4, 1, 1};
    float host[256];
    char path[1024];
    FILE *f;
    long size;
    void *spirv;
    int i, bad = 0, mapped = 0, passed = 0, failed = 0, ok;
    snprintf(path, sizeof path, "%s/saxpy.spv", argc > 1 ? argv[1] : ".");
    if (!(f = fopen(path, "rb")) || fseek(f, 0, SEEK_END) || (size = ftell(f)) <= 0 || fseek(f, 0, SEEK_SET) || !(spirv = malloc((size_t)size)) ||
        fread(spirv, 1, (size_t)size, f) != (size_t)size)
        return printf("cannot read %s\n", path), 1;
    fclose(f);
    gpucompile_runtime_set_error_callback(on_error, NULL);
    ac.mode = dc.mode = mc.mode = WGPUCallbackMode_AllowProcessEvents;
    ac.callback = on_adapter; ac.userdata1 = &adapter;
    if (instance) wgpuInstanceRequestAdapter(instance, NULL, ac);
    if (instance) wgpuInstanceProcessEvents(instance);
    if (!adapter) return printf("SKIP run-webgpu-engine: no adapter\n"), 0;
    dc.callback = on_device; dc.userdata1 = &device;
    wgpuAdapterRequestDevice(adapter, NULL, dc);
    wgpuInstanceProcessEvents(instance);
    if (!device) return printf("SKIP run-webgpu-engine: no device\n"), 0;
    /* the engine's buffers: x = i, y = 0.5 */
    {
        WGPUQueue q = wgpuDeviceGetQueue(device);
        WGPUBuffer x = buffer(device, sizeof host, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst);
        WGPUBuffer y = buffer(device, sizeof host, WGPUBufferUsage_Storage | WGPUBufferUsage_CopyDst | WGPUBufferUsage_CopySrc);
        WGPUBuffer rb = buffer(device, sizeof host, WGPUBufferUsage_MapRead | WGPUBufferUsage_CopyDst);
        WGPUCommandEncoder enc;
        WGPUComputePassEncoder pass;
        WGPUCommandBuffer cb;
        const float *r;
        for (i = 0; i < 256; i++) host[i] = (float)i;
        wgpuQueueWriteBuffer(q, x, 0, host, sizeof host);
        for (i = 0; i < 256; i++) host[i] = 0.5f;
        wgpuQueueWriteBuffer(q, y, 0, host, sizeof host);
        memset(&engine, 0, sizeof engine);
        engine.device = device;
        ok = (program = gpucompile_webgpu_program_create(&engine, spirv, (size_t)size)) != NULL &&
             gpucompile_webgpu_program_entry(program, "saxpy", &entry) && entry.pipeline && entry.num_groups == 1 && entry.kernel->has_uniforms;
        printf("%s the program made on the engine's device: its pipeline and bind group layout\n", ok ? "ok  " : "FAIL");
        ok ? passed++ : failed++;
        if (!program) return printf("run-webgpu-engine: %d passed, %d failed\n", passed, failed + 1), 1;
        enc = wgpuDeviceCreateCommandEncoder(device, NULL);
        pass = wgpuCommandEncoderBeginComputePass(enc, NULL);
        bufs[0].buffer = x; bufs[0].offset = 0; bufs[0].size = 0;
        bufs[1].buffer = y; bufs[1].offset = 0; bufs[1].size = 0;
        ok = gpucompile_webgpu_record(program, "saxpy", pass, groups, bufs, 2, &uniforms, sizeof uniforms) == 0;
        wgpuComputePassEncoderEnd(pass);
        wgpuComputePassEncoderRelease(pass);
        wgpuCommandEncoderCopyBufferToBuffer(enc, y, 0, rb, 0, sizeof host);
        cb = wgpuCommandEncoderFinish(enc, NULL);
        wgpuQueueSubmit(q, 1, &cb);
        mc.callback = on_map; mc.userdata1 = &mapped;
        wgpuBufferMapAsync(rb, WGPUMapMode_Read, 0, sizeof host, mc);
        while (!mapped) {
            wgpuDevicePoll(device, 1, NULL);
            wgpuInstanceProcessEvents(instance);
        }
        r = mapped > 0 ? (const float *)wgpuBufferGetConstMappedRange(rb, 0, sizeof host) : NULL;
        for (i = 0; r && i < 256; i++) bad += r[i] != (i < 200 ? 3.0f * (float)i + 0.5f : 0.5f);
        ok = ok && r && bad == 0 && errors == 0;
        printf("%s a dispatch recorded into the engine's compute pass: y = 3 x + 0.5 for i < 200\n", ok ? "ok  " : "FAIL");
        ok ? passed++ : failed++;
        if (r) wgpuBufferUnmap(rb);
        errors = 0;
        ok = gpucompile_webgpu_record(program, "saxpy", pass, groups, bufs, 1, &uniforms, sizeof uniforms) == -1 && errors == 1;
        printf("%s a record with the wrong number of buffers refused and reported\n", ok ? "ok  " : "FAIL");
        ok ? passed++ : failed++;
        gpucompile_webgpu_program_destroy(program);
        wgpuCommandBufferRelease(cb);
        wgpuCommandEncoderRelease(enc);
        wgpuBufferRelease(x); wgpuBufferRelease(y); wgpuBufferRelease(rb);
        wgpuQueueRelease(q);
    }
    wgpuDeviceRelease(device);
    wgpuAdapterRelease(adapter);
    wgpuInstanceRelease(instance);
    free(spirv);
    printf("run-webgpu-engine: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
