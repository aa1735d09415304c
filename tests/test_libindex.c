/* The per-process library index: a library's bytes and symbols are kept once per
   process, keyed by path, size and mtime. A rewritten library must be read again (its new code
   reaches the output), a library that defines nothing the module needs changes nothing, and
   threads compiling with one library at once all get the right code. Checked in the PTX. */
#include "test.h"
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <unistd.h>
#include <utime.h>

static const char *kernel =
    "target triple = \"nvptx64-nvidia-cuda\"\n"
    "declare i32 @lib_value()\n"
    "define ptx_kernel void @k(ptr addrspace(1) %p) {\n"
    "  %v = call i32 @lib_value()\n"
    "  store i32 %v, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}\n";

static char dir[256], lib[300], other[300];

/* Writes IR text as bitcode to path with the given mtime (seconds). */
static int write_bc(const char *path, const char *ir, long mtime) {
    LLVMContextRef c = LLVMContextCreate();
    LLVMMemoryBufferRef mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "lib");
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    struct utimbuf t;
    int ok = !LLVMParseIRInContext(c, mb, &m, &msg) && LLVMWriteBitcodeToFile(m, path) == 0;
    if (msg) LLVMDisposeMessage(msg);
    if (m) LLVMDisposeModule(m);
    LLVMContextDispose(c);
    t.actime = t.modtime = (time_t)mtime;
    return ok && utime(path, &t) == 0;
}

static int write_lib(const char *path, int value, long mtime) {
    char ir[512];
    snprintf(ir, sizeof ir,
             "target triple = \"nvptx64-nvidia-cuda\"\n"
             "define i32 @lib_value() { ret i32 %d }\n"
             "define i32 @lib_unused() { ret i32 7 }\n", value);
    return write_bc(path, ir, mtime);
}

static t_log last_log;

/* PTX of the kernel linked with the given libraries; NULL on failure (messages in last_log). */
static char *compile(const char *const *libs, int n, const char *chip) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    char *ptx = NULL;
    memset(&o, 0, sizeof o);
    o.logger = t_logger(&last_log);
    t.chip = chip;
    o.format = GPUCOMPILE_FORMAT_ISA;
    o.link = libs;
    o.num_link = n;
    if (gpucompile_compile_ir(kernel, strlen(kernel), "k.ll", &t, &o, &obj) == GPUCOMPILE_OK) {
        ptx = (char *)malloc(obj->size + 1);
        if (ptx) memcpy(ptx, obj->data, obj->size + 1);
    }
    gpucompile_object_free(obj);
    return ptx;
}

static void rewritten_library_is_read_again(void) {
    const char *libs[1];
    char *a, *b, *c;
    libs[0] = lib;
    CHECK(write_lib(lib, 123456789, 1000000000L));
    a = compile(libs, 1, "sm_80");
    CHECK(a && strstr(a, "123456789"));
    b = compile(libs, 1, "sm_80"); /* indexed now */
    free(b);
    b = compile(libs, 1, "sm_80"); /* from the index */
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(write_lib(lib, 987654321, 1000000100L)); /* same size, another mtime */
    free(compile(libs, 1, "sm_80")); /* a library is indexed on its second use */
    c = compile(libs, 1, "sm_80");
    CHECK_MSG(c && strstr(c, "987654321") && !strstr(c, "123456789"), "%s", c ? c : "(failed)");
    if (c) { /* and ptxas takes it, where there is one */
        char path[320], cmd[800], *out, *back;
        FILE *f;
        int st = -1;
        snprintf(path, sizeof path, "%s/k.ptx", dir);
        f = fopen(path, "wb");
        if (f) { fputs(c, f); fclose(f); }
        back = t_read(path, NULL);
        CHECK(back && strcmp(back, c) == 0);
        free(back);
        snprintf(cmd, sizeof cmd, "p=${CUDA_PATH:-/usr/local/cuda}/bin/ptxas; [ -x $p ] || exit 0; $p -arch=sm_80 %s -o %s/k.cubin 2>&1", path, dir);
        out = t_sh(cmd, &st);
        CHECK_MSG(st == 0, "ptxas: %s", out ? out : "");
        free(out);
        remove(path);
        snprintf(path, sizeof path, "%s/k.cubin", dir);
        remove(path);
    }
    free(a); free(b); free(c);
}

static void unneeded_library_changes_nothing(void) {
    const char *one[1], *two[2];
    char *a, *b;
    one[0] = lib;
    two[0] = other; /* defines nothing the kernel declares: skipped, and nothing leaks in */
    two[1] = lib;
    CHECK(write_bc(other, "target triple = \"nvptx64-nvidia-cuda\"\ndefine i32 @something_else() { ret i32 5 }\n", 1000000000L));
    a = compile(one, 1, "sm_80");
    b = compile(two, 2, "sm_80");
    CHECK(a && b && strcmp(a, b) == 0);
    CHECK(b && !strstr(b, "something_else"));
    free(a); free(b);
}

static void missing_and_invalid_libraries_still_fail(void) {
    const char *libs[1];
    char bad[320];
    FILE *f;
    snprintf(bad, sizeof bad, "%s/bad.bc", dir);
    f = fopen(bad, "wb");
    if (f) { fputs("BC not really", f); fclose(f); }
    libs[0] = bad;
    CHECK(compile(libs, 1, "sm_80") == NULL);
    CHECK_LOG(&last_log, "bad.bc");
    libs[0] = "/nonexistent/lib.bc";
    CHECK(compile(libs, 1, "sm_80") == NULL);
    CHECK_LOG(&last_log, "/nonexistent/lib.bc");
}

static void threads_share_the_index(void) {
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX), b = a;
    const gpucompile_target *t[2];
    const char *libs[1];
    gpucompile_options o;
    gpucompile_binary *bin = NULL;
    int i;
    CHECK(write_lib(lib, 555555555, 1000000200L));
    a.chip = "sm_80";
    b.chip = "sm_90";
    t[0] = &a;
    t[1] = &b;
    libs[0] = lib;
    memset(&o, 0, sizeof o);
    o.format = GPUCOMPILE_FORMAT_ISA;
    o.link = libs;
    o.num_link = 1;
    CHECK(gpucompile_compile_binary(kernel, strlen(kernel), "k.ll", t, 2, &o, 2, "k", &bin) == GPUCOMPILE_OK);
    for (i = 0; bin && i < bin->num_objects; i++) CHECK(strstr((const char *)bin->objects[i]->data, "555555555") != NULL);
    gpucompile_binary_free(bin);
}

int main(void) {
    char *made;
    const gpucompile_backend *nv = gpucompile_find_backend(GPUCOMPILE_TARGET_NVPTX);
    snprintf(dir, sizeof dir, "%s/gpucompile-libindex-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    made = mkdtemp(dir);
    snprintf(lib, sizeof lib, "%s/lib.bc", dir);
    snprintf(other, sizeof other, "%s/other.bc", dir);
    if (!made || !nv) {
        printf("SKIP libindex: %s\n", made ? "no NVPTX backend" : "no temporary directory");
        return TEST_END("libindex");
    }
    RUN(rewritten_library_is_read_again);
    RUN(unneeded_library_changes_nothing);
    RUN(missing_and_invalid_libraries_still_fail);
    RUN(threads_share_the_index);
    remove(lib);
    remove(other);
    {
        char bad[320];
        snprintf(bad, sizeof bad, "%s/bad.bc", dir);
        remove(bad);
    }
    rmdir(dir);
    return TEST_END("libindex");
}
