/* 06_run_on_cpu.c - compile a kernel and run it, with no GPU: SPIR-V through OpenCL.

   What it shows: the whole chain in one program. saxpy in LLVM IR for SPIR-V is compiled in
   memory (#gpu.spirv, format bin: a SPIR-V module), loaded with mgpuModuleLoad by the OpenCL
   runtime of gpucompile_spirv.h (clCreateProgramWithIL on the first OpenCL device that takes
   SPIR-V: Intel's CPU runtime here, which `make opencl` installs into build-deps/opencl) and
   launched with mgpuLaunchKernel on shared virtual memory; the answers are checked.

   Build: cc -std=c11 examples/06_run_on_cpu.c -I. $(llvm-config-22 --cflags --ldflags --libs) -ldl -lpthread -o ex06
   Run:   OCL_ICD_VENDORS=build-deps/opencl/vendors ./ex06     (exit 0: every answer right;
          77: no OpenCL device that takes SPIR-V, or an LLVM without SPIR-V) */
#define GPUCOMPILE_IMPLEMENTATION
#define GPUCOMPILE_SPIRV_RUNTIME
#include "gpucompile.h"
#include "gpucompile_spirv.h"

#include <stdio.h>
#include <string.h>

static const char source[] =
    "target triple = \"spirv64-unknown-unknown\"\n"
    "declare spir_func i64 @_Z13get_global_idj(i32)\n"
    "define spir_kernel void @saxpy(float %a, ptr addrspace(1) %x, ptr addrspace(1) %y, i32 %n) {\n"
    "entry:\n"
    "  %i = call spir_func i64 @_Z13get_global_idj(i32 0)\n"
    "  %i32 = trunc i64 %i to i32\n"
    "  %in = icmp slt i32 %i32, %n\n"
    "  br i1 %in, label %body, label %exit\n"
    "body:\n"
    "  %px = getelementptr float, ptr addrspace(1) %x, i64 %i\n"
    "  %py = getelementptr float, ptr addrspace(1) %y, i64 %i\n"
    "  %vx = load float, ptr addrspace(1) %px\n"
    "  %vy = load float, ptr addrspace(1) %py\n"
    "  %ax = fmul float %a, %vx\n"
    "  %s = fadd float %ax, %vy\n"
    "  store float %s, ptr addrspace(1) %py\n"
    "  br label %exit\n"
    "exit:\n"
    "  ret void\n"
    "}\n";

static void log_to_stderr(const gpucompile_diagnostic *d, void *user_data) {
    (void)user_data;
    if (d->severity == GPUCOMPILE_SEVERITY_ERROR || d->severity == GPUCOMPILE_SEVERITY_WARNING)
        fprintf(stderr, "%s: %s\n", gpucompile_severity_string(d->severity), d->message);
}

int main(void) {
    gpucompile_options options;
    gpucompile_target *target = NULL;
    gpucompile_object *obj = NULL;
    void *module = NULL, *fn = NULL, *args[4];
    float a = 2.0f, *x = NULL, *y = NULL;
    int n = 1000, i, wrong = 0, status = 1;
    memset(&options, 0, sizeof options);
    options.logger.func = log_to_stderr;
    options.format = GPUCOMPILE_FORMAT_BIN;
    if (gpucompile_target_parse("#gpu.spirv", (size_t)-1, NULL, &options.logger, &target) != GPUCOMPILE_OK ||
        gpucompile_target_verify(target, &options.logger) != GPUCOMPILE_OK) {
        status = 77;
        goto done;
    }
    if (gpucompile_compile_ir(source, sizeof source - 1, "saxpy", target, &options, &obj) != GPUCOMPILE_OK) goto done;
    printf("compiled: a SPIR-V module of %zu bytes, kernel %s (%d parameters)\n", obj->size, obj->kernels[0].name,
           obj->kernels[0].num_params);
    if (!gpucompile_runtime_available()) { /* said why on stderr */
        status = 77;
        goto done;
    }
    module = mgpuModuleLoad(obj->data, obj->size);
    if (!module || !(fn = mgpuModuleGetFunction(module, "saxpy"))) goto done;
    /* shared virtual memory: the host writes and reads it directly; padded past n */
    x = (float *)mgpuMemAlloc((uint64_t)(n + 256) * sizeof(float), NULL, true);
    y = (float *)mgpuMemAlloc((uint64_t)(n + 256) * sizeof(float), NULL, true);
    if (!x || !y) goto done;
    for (i = 0; i < n; i++) { x[i] = (float)i; y[i] = 1.0f; }
    args[0] = &a; args[1] = &x; args[2] = &y; args[3] = &n;
    mgpuLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL, 4); /* NULL stream: waits */
    for (i = 0; i < n; i++) wrong += y[i] != 2.0f * (float)i + 1.0f;
    printf("ran on %s: y = 2 x + 1 for %d elements, %d wrong (y[999] = %g)\n", gpucompile_runtime_device_arch(), n, wrong, y[n - 1]);
    status = wrong != 0;
done:
    mgpuMemFree(x, NULL);
    mgpuMemFree(y, NULL);
    mgpuModuleUnload(module);
    gpucompile_object_free(obj);
    gpucompile_target_free(target);
    return status;
}
