/* Each backend's implementation in a translation unit of its own (core.c, nvptx.c, amdgpu.c,
   spirv.c, vulkan.c, and the CUDA runtime in cuda_runtime.c), linked into one program: the backends
   register themselves from their own files, compile through the public API and its backend
   helpers, and give the bytes the one-file build (the CLI, $GPUCOMPILE) gives. */
#include "../test.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include "gpucompile_spirv.h"
#include "gpucompile_vulkan.h"
#include "gpucompile_webgpu.h"

#define T_DIR "/tmp"

static void test_registered(void) {
    CHECK(gpucompile_find_backend(GPUCOMPILE_TARGET_NVPTX) == gpucompile_nvptx_backend());
    CHECK(gpucompile_find_backend(GPUCOMPILE_TARGET_AMDGPU) == gpucompile_amdgpu_backend());
    CHECK(gpucompile_find_backend_named("gpu.nvptx", (size_t)-1, NULL) == gpucompile_nvptx_backend());
    CHECK(gpucompile_find_backend_named("rocdl.target", (size_t)-1, NULL) == gpucompile_amdgpu_backend());
    CHECK(gpucompile_find_backend_named("xevm.target", (size_t)-1, NULL) == gpucompile_spirv_backend());
    CHECK(gpucompile_find_backend_named("spirv.target_env", (size_t)-1, NULL) == gpucompile_vulkan_backend());
    CHECK(gpucompile_find_backend_named("gpu.webgpu", (size_t)-1, NULL) == gpucompile_webgpu_backend());
}

static const char *self; /* this program, run again to compile in a fresh process */

/* This program's build in a process of its own (main's --compile INPUT ATTR FORMAT BIN_METHOD OUT):
   the object's bytes to OUT. 0 on success. */
static int compile_fresh(char **arg) {
    gpucompile_target *t = NULL;
    gpucompile_object *o = NULL;
    gpucompile_options opt;
    t_log l;
    FILE *fp = NULL;
    int ok;
    opt = t_options(&l, gpucompile_format_from_string(arg[2]));
    opt.bin_method = strcmp(arg[3], "-") ? arg[3] : NULL;
    ok = gpucompile_target_parse(arg[1], (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK && gpucompile_compile_file(arg[0], t, &opt, &o) == GPUCOMPILE_OK &&
         (fp = fopen(arg[4], "wb")) != NULL && fwrite(o->data, 1, o->size, fp) == o->size;
    if (fp && fclose(fp) != 0) ok = 0;
    gpucompile_object_free(o);
    gpucompile_target_free(t);
    return ok ? 0 : 1;
}

/* Compiles examples/kernels or tests/ file `input` for `attr` in format f with this program
   and with the CLI; both must succeed with the same bytes. The bytes compared are a fresh
   process's, as the CLI's are: LLVM 22's SPIR-V code generator keeps block ids of earlier
   compiles in a static (gpucompile_spirv_relabel), so a module's ids depend on what the process
   compiled before it. The object of a compile in this process goes to *out. */
static void compile_both(const char *input, const char *attr, gpucompile_format f, const char *bin_method, gpucompile_object **out) {
    gpucompile_target *t = NULL;
    gpucompile_object *o = NULL;
    gpucompile_options opt;
    t_log l;
    char path[256], fresh[256], cmd[1024], *cli = NULL, *lib = NULL;
    size_t n = 0, m = 0;
    *out = NULL;
    opt = t_options(&l, f);
    opt.bin_method = bin_method;
    CHECK(gpucompile_target_parse(attr, (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK);
    if (!t) return;
    CHECK_MSG(gpucompile_compile_file(input, t, &opt, &o) == GPUCOMPILE_OK, "%s for %s:\n%s", input, attr, l.text);
    snprintf(path, sizeof path, T_DIR "/gpucompile-split-%d.out", (int)getpid());
    snprintf(fresh, sizeof fresh, T_DIR "/gpucompile-split-%d.lib", (int)getpid());
    snprintf(cmd, sizeof cmd, "'%s' --no-cache -t '%s' -f %s %s%s %s -o %s", t_gpucompile(), attr, gpucompile_format_string(f),
             bin_method ? "--bin-method " : "", bin_method ? bin_method : "", input, path);
    CHECK(t_sh_ok(cmd));
    snprintf(cmd, sizeof cmd, "'%s' --compile %s '%s' %s %s %s", self, input, attr, gpucompile_format_string(f), bin_method ? bin_method : "-", fresh);
    CHECK(t_sh_ok(cmd));
    CHECK_MSG((cli = t_read(path, &n)) != NULL && (lib = t_read(fresh, &m)) != NULL && n == m && memcmp(cli, lib, n) == 0,
              "%s for %s: %zu bytes here, %zu from the CLI", input, attr, m, n);
    free(cli);
    free(lib);
    remove(path);
    remove(fresh);
    gpucompile_target_free(t);
    *out = o;
}

static void test_nvptx(void) {
    gpucompile_object *o;
    compile_both("examples/kernels/saxpy_nvptx.ll", "#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_ISA, NULL, &o);
    CHECK(o && strstr((const char *)o->data, ".entry saxpy") != NULL);
    CHECK(o && o->num_kernels == 1 && strcmp(o->kernels[0].name, "saxpy") == 0 && o->kernels[0].num_params == 4);
    gpucompile_object_free(o);
    if (!t_cuda()) SKIP("no CUDA toolkit (ptxas) for the cubin");
    compile_both("examples/kernels/saxpy_nvptx.ll", "#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_BIN, "ptxas", &o);
    CHECK(o && o->size > 64 && memcmp(o->data, "\177ELF", 4) == 0);
    /* read from the cubin's .nv.info by the backend (little-endian reads, kernels added) */
    CHECK(o && o->num_kernels == 1 && o->kernels[0].registers > 0);
    gpucompile_object_free(o);
}

static void test_amdgpu(void) {
    gpucompile_object *o;
    compile_both("examples/kernels/saxpy_amdgpu.ll", "#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_ISA, NULL, &o);
    CHECK(o && strstr((const char *)o->data, ".amdhsa_kernel saxpy") != NULL);
    gpucompile_object_free(o);
    /* the in-process hsaco writer: buffers, allocations, ELF reads, the metadata note */
    compile_both("examples/kernels/saxpy_amdgpu.ll", "#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "elf", &o);
    CHECK(o && o->size > 64 && memcmp(o->data, "\177ELF", 4) == 0);
    CHECK(o && o->num_kernels == 1 && strcmp(o->kernels[0].name, "saxpy") == 0 && o->kernels[0].sgprs > 0 && o->kernels[0].metadata);
    gpucompile_object_free(o);
}

/* A backend's error (gpucompile_job_fail in its own file) reaches the caller's logger. */
static void test_backend_error(void) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_object *o = NULL;
    t_log l;
    gpucompile_options opt = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    opt.bin_method = "nope";
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_amdgpu.ll", &t, &opt, &o) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    CHECK(o == NULL);
    CHECK_LOG(&l, "error: gpucompile: unknown bin_method 'nope' for AMDGPU (elf or lld)");
}

static void test_spirv(void) {
    gpucompile_object *o;
    if (!gpucompile_spirv_available()) SKIP("this LLVM has no SPIR-V target");
    compile_both("tests/run/saxpy_spirv.ll", "#gpu.spirv", GPUCOMPILE_FORMAT_BIN, NULL, &o);
    CHECK(o && o->size > 20 && memcmp(o->data, "\x03\x02\x23\x07", 4) == 0); /* SPIR-V magic, little-endian */
    CHECK(o && o->num_kernels == 1 && strcmp(o->kernels[0].name, "saxpy") == 0 && o->kernels[0].num_params == 4);
    gpucompile_object_free(o);
}

/* The WebGPU backend from its own file, through the Vulkan backend's from another: the uniform
   block in the reflection, the same bytes as the CLI's. */
static void test_webgpu(void) {
    gpucompile_object *o;
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    compile_both("examples/kernels/saxpy_vulkan.ll", "#gpu.webgpu", GPUCOMPILE_FORMAT_BIN, NULL, &o);
    CHECK(o && o->size > 20 && memcmp(o->data, "\x03\x02\x23\x07\x00\x03\x01\x00", 8) == 0); /* SPIR-V 1.3 */
    CHECK(o && o->num_kernels == 1 && o->kernels[0].metadata && strstr(o->kernels[0].metadata, "uniform_binding = 2 : i32, uniform_bytes = 8 : i32"));
    gpucompile_object_free(o);
}

/* The Vulkan backend from its own file: the repairs and the reflection in the kernel metadata. */
static void test_vulkan(void) {
    gpucompile_object *o;
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    compile_both("examples/kernels/reduce_vulkan.ll", "#gpu.vulkan", GPUCOMPILE_FORMAT_BIN, NULL, &o);
    CHECK(o && o->size > 20 && memcmp(o->data, "\x03\x02\x23\x07", 4) == 0);
    CHECK(o && o->num_kernels == 1 && strcmp(o->kernels[0].name, "reduce") == 0 && o->kernels[0].shared_bytes == 256);
    CHECK(o && o->kernels[0].metadata && strstr(o->kernels[0].metadata, "workgroup_size = array<i32: 64, 1, 1>"));
    gpucompile_object_free(o);
    compile_both("examples/kernels/saxpy_vulkan.ll", "#spirv.target_env<#spirv.vce<v1.6, [Shader], []>, #spirv.resource_limits<>>",
                 GPUCOMPILE_FORMAT_ISA, NULL, &o);
    CHECK(o && strstr((const char *)o->data, "OpEntryPoint GLCompute") && !strstr((const char *)o->data, "Int8"));
    gpucompile_object_free(o);
}

/* The CUDA runtime's vendor table, registered from its own file: without a driver the first
   call says why libcuda cannot be used, never that there is no vendor runtime. */
static char rt_message[1024];
static void rt_error(const char *call, int code, const char *message, void *u) {
    (void)code; (void)u;
    if (!rt_message[0]) snprintf(rt_message, sizeof rt_message, "%s: %s", call, message);
}
static void test_cuda_runtime(void) {
    int up;
    gpucompile_runtime_set_error_callback(rt_error, NULL);
    up = gpucompile_runtime_available();
    if (up) CHECK(gpucompile_runtime_device_arch()[0] == 's');
    else CHECK_MSG(rt_message[0] && !strstr(rt_message, "no vendor runtime") && strstr(rt_message, "libcuda"), "%s", rt_message);
}

int main(int argc, char **argv) {
    if (argc == 7 && strcmp(argv[1], "--compile") == 0) return compile_fresh(argv + 2);
    self = argv[0];
    RUN(test_registered);
    RUN(test_nvptx);
    RUN(test_amdgpu);
    RUN(test_backend_error);
    RUN(test_spirv);
    RUN(test_vulkan);
    RUN(test_webgpu);
    RUN(test_cuda_runtime);
    return TEST_END("test_split");
}
