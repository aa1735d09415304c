/* gpucompile_vulkan.h without a device: the SPIR-V reflection reader on modules from llc (the
   Vulkan-shaped IR of tests/run/vulkan/) and glslangValidator (SPIR-V 1.0 and 1.6, uniform and
   storage blocks, spec-constant workgroup sizes), big-endian words, truncated and mutated
   modules (never a crash), run-time selection's rule, and the runtime's own Vulkan declarations
   against <vulkan/vulkan.h> (sizes and offsets). */
#define GPUCOMPILE_VULKAN_RUNTIME
#include "test.h"
#include "gpucompile_vulkan.h"
#include <llvm-c/Support.h>
#include <stddef.h>
#if defined(__has_include)
#if __has_include(<vulkan/vulkan.h>)
#include <vulkan/vulkan.h>
#define HAVE_VULKAN_H 1
#endif
#endif

static char dir[256];

/* Compiles tests/run/vulkan/<name> (.ll with llc, .comp with glslangValidator and env) into a
   module: its words, or NULL (the tool's output printed). */
static unsigned char *module(const char *name, const char *env, size_t *size) {
    char cmd[2048], out[512];
    const char *dot = strrchr(name, '.');
    snprintf(out, sizeof out, "%s/%s.%s.spv", dir, name, env ? env : "llc");
    if (dot && strcmp(dot, ".ll") == 0)
        snprintf(cmd, sizeof cmd, "llc -O2 -mtriple=spirv1.6-unknown-vulkan1.3-compute -filetype=obj tests/run/vulkan/%s -o '%s' 2>&1", name, out);
    else
        snprintf(cmd, sizeof cmd, "glslangValidator -V --target-env %s tests/run/vulkan/%s -o '%s' 2>&1 >/dev/null", env, name, out);
    if (!t_sh_ok(cmd)) return NULL;
    return (unsigned char *)t_read(out, size);
}

/* GLSL of the test's own into a module. */
static unsigned char *glsl(const char *name, const char *text, const char *env, size_t *size) {
    char path[512], cmd[2048], out[512];
    snprintf(out, sizeof out, "%s/%s.%s.spv", dir, name, env);
    if (!t_save(dir, name, text, strlen(text), path, sizeof path)) return NULL;
    snprintf(cmd, sizeof cmd, "glslangValidator -V --target-env %s '%s' -o '%s' 2>&1 >/dev/null", env, path, out);
    if (!t_sh_ok(cmd)) return NULL;
    return (unsigned char *)t_read(out, size);
}

static int have_llc, have_glslang;

static void test_llc_saxpy(void) {
    gpucompile_vulkan_kernel k[2];
    size_t size;
    unsigned char *m;
    if (!have_llc) SKIP("no llc with the SPIR-V target");
    CHECK((m = module("saxpy.ll", NULL, &size)) != NULL);
    if (!m) return;
    CHECK(gpucompile_vulkan_reflect(m, size, k, 2) == 1);
    CHECK_STR(k[0].name, "saxpy");
    CHECK(k[0].local_size[0] == 64 && k[0].local_size[1] == 1 && k[0].local_size[2] == 1);
    CHECK(k[0].num_bindings == 2);
    CHECK(k[0].bindings[0].set == 0 && k[0].bindings[0].binding == 0 && k[0].bindings[0].stride == 4 && k[0].bindings[0].read_only);
    CHECK(k[0].bindings[1].set == 0 && k[0].bindings[1].binding == 1 && k[0].bindings[1].stride == 4 && !k[0].bindings[1].read_only);
    CHECK(k[0].bindings[0].descriptor_type == 7 && k[0].bindings[0].count == 1);
    CHECK(k[0].num_push == 2 && k[0].push[0].offset == 0 && k[0].push[0].size == 4 && k[0].push[1].offset == 4 && k[0].push[1].size == 4);
    CHECK(k[0].push_size == 8 && k[0].workgroup_bytes == 0);
    CHECK(gpucompile_vulkan_reflect(m, size, NULL, 0) == 1);
    free(m);
}

static void test_llc_two_entries(void) {
    gpucompile_vulkan_kernel k[2];
    size_t size;
    unsigned char *m;
    if (!have_llc) SKIP("no llc with the SPIR-V target");
    CHECK((m = module("two_entries.ll", NULL, &size)) != NULL);
    if (!m) return;
    memset(k, 0x7f, sizeof k);
    CHECK(gpucompile_vulkan_reflect(m, size, k, 1) == 2); /* the number found; one filled */
    CHECK_STR(k[0].name, "fill");
    CHECK(k[1].name[0] == 0x7f);
    CHECK(gpucompile_vulkan_reflect(m, size, k, 2) == 2);
    CHECK_STR(k[1].name, "twice");
    CHECK(k[1].local_size[0] == 32 && k[1].num_bindings == 1 && k[1].num_push == 1 && k[1].push_size == 4);
    free(m);
}

static void test_llc_workgroup_memory(void) {
    gpucompile_vulkan_kernel k;
    size_t size;
    unsigned char *m;
    if (!have_llc) SKIP("no llc with the SPIR-V target");
    CHECK((m = module("tile.ll", NULL, &size)) != NULL);
    if (!m) return;
    CHECK(gpucompile_vulkan_reflect(m, size, &k, 1) == 1);
    CHECK_MSG(k.workgroup_bytes == 256, "%u", k.workgroup_bytes);
    CHECK(k.num_bindings == 1 && !k.bindings[0].read_only && k.num_push == 0);
    free(m);
}

/* The reduction's module from SPIR-V 1.6 (interfaces list every global) and 1.0 (the functions
   are read): the same answer. */
static void test_glsl_reduce_both_versions(void) {
    static const char *const envs[] = {"vulkan1.3", "vulkan1.0"};
    int e;
    if (!have_glslang) SKIP("no glslangValidator");
    for (e = 0; e < 2; e++) {
        gpucompile_vulkan_kernel k;
        size_t size;
        unsigned char *m = module("reduce.comp", envs[e], &size);
        CHECK(m != NULL);
        if (!m) continue;
        CHECK(gpucompile_vulkan_reflect(m, size, &k, 1) == 1);
        CHECK_STR(k.name, "main");
        CHECK(k.local_size[0] == 256 && k.local_size[1] == 1);
        CHECK_MSG(k.workgroup_bytes == 1024, "%s: %u", envs[e], k.workgroup_bytes);
        CHECK(k.num_bindings == 2 && k.bindings[0].read_only && !k.bindings[1].read_only && k.bindings[0].stride == 4);
        /* SPIR-V 1.0 buffers are Uniform + BufferBlock: still storage buffers */
        CHECK_MSG(k.bindings[0].descriptor_type == 7 && k.bindings[1].descriptor_type == 7, "%s", envs[e]);
        CHECK(k.num_push == 0 && k.push_size == 0);
        free(m);
    }
}

static void test_glsl_push_block(void) {
    gpucompile_vulkan_kernel k;
    size_t size;
    unsigned char *m;
    if (!have_glslang) SKIP("no glslangValidator");
    CHECK((m = module("push.comp", "vulkan1.3", &size)) != NULL);
    if (!m) return;
    CHECK(gpucompile_vulkan_reflect(m, size, &k, 1) == 1);
    CHECK(k.num_push == 6 && k.push_size == 36);
    CHECK(k.push[0].offset == 0 && k.push[0].size == 4 && k.push[1].offset == 4 && k.push[2].offset == 8);
    CHECK(k.push[3].offset == 16 && k.push[3].size == 8 && k.push[4].offset == 24 && k.push[4].size == 8);
    CHECK(k.push[5].offset == 32 && k.push[5].size == 4);
    free(m);
}

/* Uniform blocks, several sets (sorted), arrays in blocks, matrices and a spec-constant
   workgroup size (the WorkgroupSize built-in, which wins over LocalSize). */
static void test_glsl_sets_uniforms_spec_size(void) {
    static const char *const src =
        "#version 450\n"
        "layout(local_size_x_id = 0, local_size_y = 2) in;\n"
        "layout(set = 1, binding = 3) uniform U { mat4 m; vec4 v[4]; } u;\n"
        "layout(set = 0, binding = 5) buffer B { vec4 head; vec2 tail[]; } b;\n"
        "layout(set = 0, binding = 1) readonly buffer R { float r[]; } ro;\n"
        "layout(set = 2, binding = 0) buffer Unused { float x[]; } unused;\n"
        "shared vec4 tile[16]; shared float extra[3];\n"
        "void main() { tile[gl_LocalInvocationIndex % 16] = u.m[0] + u.v[1]; extra[0] = ro.r[0]; barrier();\n"
        "  b.tail[gl_GlobalInvocationID.x] = tile[0].xy + vec2(extra[0]); }\n";
    gpucompile_vulkan_kernel k;
    size_t size;
    unsigned char *m;
    if (!have_glslang) SKIP("no glslangValidator");
    CHECK((m = glsl("sets.comp", src, "vulkan1.3", &size)) != NULL);
    if (!m) return;
    CHECK(gpucompile_vulkan_reflect(m, size, &k, 1) == 1);
    CHECK_MSG(k.local_size[0] == 1 && k.local_size[1] == 2 && k.local_size[2] == 1, "%u %u %u", k.local_size[0], k.local_size[1], k.local_size[2]);
    CHECK_MSG(k.num_bindings == 3, "%d (the unused block is not the entry point's)", k.num_bindings);
    CHECK(k.bindings[0].set == 0 && k.bindings[0].binding == 1 && k.bindings[0].read_only && k.bindings[0].stride == 4);
    CHECK(k.bindings[1].set == 0 && k.bindings[1].binding == 5 && !k.bindings[1].read_only && k.bindings[1].stride == 8);
    CHECK(k.bindings[2].set == 1 && k.bindings[2].binding == 3 && k.bindings[2].read_only && k.bindings[2].descriptor_type == 6);
    CHECK(k.bindings[2].stride == 16); /* v[4]: its ArrayStride */
    CHECK_MSG(k.workgroup_bytes == 16 * 16 + 3 * 4, "%u", k.workgroup_bytes);
    /* the size set at launch: x, SpecId 0 (y is compiled in) */
    CHECK_MSG(k.num_launch == 1 && k.launch[0].kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE && k.launch[0].arg == 0 && k.launch[0].spec_id == 0 &&
              k.launch[0].value == 1, "%d sizes set at launch", k.num_launch);
    free(m);
}

/* A workgroup array whose length is a specialization constant (what the backend makes of local
   pointer parameters and extern __shared__ arrays): a size set at launch, whatever wrote it. */
static void test_glsl_spec_length(void) {
    static const char *const src =
        "#version 450\n"
        "layout(local_size_x = 32, local_size_y_id = 7) in;\n"
        "layout(constant_id = 5) const uint N = 8;\n"
        "layout(set = 0, binding = 0) buffer B { float x[]; } b;\n"
        "shared vec2 s[N]; shared float fixed_one[4];\n"
        "void main() { s[gl_LocalInvocationIndex % N] = vec2(b.x[0]); fixed_one[0] = 1.0; barrier(); b.x[1] = s[0].y + fixed_one[0]; }\n";
    const char *const envs[] = {"vulkan1.3", "vulkan1.1"};
    int e;
    if (!have_glslang) SKIP("no glslangValidator");
    for (e = 0; e < 2; e++) { /* LocalSizeId (SPIR-V 1.6) and the WorkgroupSize built-in (1.3) */
        gpucompile_vulkan_kernel k;
        size_t size;
        unsigned char *m = glsl("speclen.comp", src, envs[e], &size);
        CHECK(m != NULL);
        if (!m) continue;
        CHECK(gpucompile_vulkan_reflect(m, size, &k, 1) == 1);
        CHECK_MSG(k.num_launch == 2, "%s: %d", envs[e], k.num_launch);
        CHECK(k.launch[0].kind == GPUCOMPILE_VULKAN_LAUNCH_LOCAL_SIZE && k.launch[0].arg == 1 && k.launch[0].spec_id == 7 && k.launch[0].value == 1);
        CHECK(k.launch[1].kind == GPUCOMPILE_VULKAN_LAUNCH_SHARED && k.launch[1].spec_id == 5 && k.launch[1].arg == 8 && k.launch[1].value == 8);
        CHECK(k.local_size[0] == 32 && k.local_size[1] == 1 && k.workgroup_bytes == 8 * 8 + 16);
        free(m);
    }
}

/* The module's words byte-swapped: the same reflection. */
static void test_big_endian(void) {
    gpucompile_vulkan_kernel a, b;
    size_t size, i;
    unsigned char *m;
    if (!have_glslang) SKIP("no glslangValidator");
    CHECK((m = module("grid2d.comp", "vulkan1.3", &size)) != NULL);
    if (!m) return;
    CHECK(gpucompile_vulkan_reflect(m, size, &a, 1) == 1);
    for (i = 0; i + 4 <= size; i += 4) {
        unsigned char t = m[i];
        m[i] = m[i + 3];
        m[i + 3] = t;
        t = m[i + 1];
        m[i + 1] = m[i + 2];
        m[i + 2] = t;
    }
    CHECK(gpucompile_vulkan_reflect(m, size, &b, 1) == 1);
    CHECK(memcmp(&a, &b, sizeof a) == 0);
    CHECK(a.local_size[0] == 8 && a.local_size[1] == 8 && a.num_push == 2 && a.num_bindings == 1);
    free(m);
}

/* Untrusted bytes: nothing, short, odd sizes, other magic, a word count of 0, every prefix of
   a real module, and 20000 mutations of it: an answer (-1 or a count), never a crash. */
static void test_garbage(void) {
    static const unsigned char header[20] = {0x03, 0x02, 0x23, 0x07, 0, 6, 1, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    gpucompile_vulkan_kernel k[4];
    unsigned char buf[64], *m, *copy;
    size_t size, i;
    unsigned seed = 12345;
    int r, found = 0;
    CHECK(gpucompile_vulkan_reflect(NULL, 100, k, 4) == -1);
    CHECK(gpucompile_vulkan_reflect(header, 0, k, 4) == -1);
    CHECK(gpucompile_vulkan_reflect(header, 19, k, 4) == -1);
    CHECK(gpucompile_vulkan_reflect(header, 20, k, 4) == 0); /* a header alone; a huge id bound costs nothing */
    memset(buf, 0, sizeof buf);
    memcpy(buf, header, 20);
    CHECK(gpucompile_vulkan_reflect(buf, 24, k, 4) == -1); /* an instruction of 0 words */
    buf[22] = 9;                                            /* 9 words, 1 there */
    CHECK(gpucompile_vulkan_reflect(buf, 24, k, 4) == -1);
    buf[0] = 0x04;
    CHECK(gpucompile_vulkan_reflect(buf, 24, k, 4) == -1);
    if (!have_glslang) SKIP("no glslangValidator (the mutations need a real module)");
    CHECK((m = module("reduce.comp", "vulkan1.0", &size)) != NULL);
    if (!m) return;
    copy = (unsigned char *)malloc(size);
    for (i = 0; i <= size; i++) { /* every prefix, in a buffer of exactly that size (ASan sees overreads) */
        unsigned char *p = (unsigned char *)malloc(i ? i : 1);
        memcpy(p, m, i);
        r = gpucompile_vulkan_reflect(p, i, k, 4);
        CHECK(r >= -1 && r <= 4);
        found += r == 1;
        free(p);
    }
    CHECK(found >= 1); /* the whole module at least */
    for (i = 0; i < 20000; i++) {
        int flips = 1 + (int)(i % 4), f;
        memcpy(copy, m, size);
        for (f = 0; f < flips; f++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % size] ^= (unsigned char)(1u << ((seed >> 4) & 7));
            if (f == 3) { /* a whole word of garbage */
                seed = seed * 1103515245u + 12345u;
                memcpy(copy + 4 * ((seed >> 8) % (size / 4)), &seed, 4);
            }
        }
        r = gpucompile_vulkan_reflect(copy, size, k, 4);
        CHECK(r >= -1);
    }
    free(copy);
    free(m);
}

/* Run-time selection: the Vulkan runtime's device takes Vulkan SPIR-V only. */
static void test_selection_rule(void) {
    const char *why = NULL;
    CHECK(gpucompile_vulkan__score("spirv1.6-unknown-vulkan1.3-compute", "", "bin", "", "vulkan", &why) == 1 && why);
    CHECK(gpucompile_vulkan__score("spirv-unknown-vulkan1.3-compute", "", "bin", "", "vulkan", &why) == 1);
    CHECK(gpucompile_vulkan__score("spirv64-unknown-unknown", "bmg", "bin", "", "vulkan", &why) < 0);
    CHECK(gpucompile_vulkan__score("spirv1.6-unknown-vulkan1.3-compute", "", "isa", "", "vulkan", &why) < 0);
    CHECK(gpucompile_vulkan__score("nvptx64-nvidia-cuda", "sm_90", "bin", "", "vulkan", &why) < 0);
    CHECK(gpucompile_vulkan__score("", "sm_90", "bin", "", "vulkan", &why) < 0);
    CHECK(gpucompile_vulkan__score("spirv1.6-unknown-vulkan1.3-compute", "", "bin", "", "spirv", &why) == -2);
    CHECK(gpucompile_vulkan__score("spirv1.6-unknown-vulkan1.3-compute", "", "bin", "", "sm_90", &why) == -2);
}

/* One rule: the compile side (the backend's select_score: --select, gpucompile_binary_select)
   and the runtime's loader score every object alike, also without a triple. */
static void test_one_selection_rule(void) {
    static const struct { const char *triple, *chip; int score; } c[] = {
        {"spirv1.6-unknown-vulkan1.3-compute", "vulkan", 1}, {"", "vulkan", 1}, {NULL, "vulkan", 1}, {"x-unknown-vulkan1.3", "vulkan", -1},
        {"spirv64-unknown-unknown", "vulkan", -1}, {"", "bmg", -1}, {"spirv-unknown-vulkan1.3-compute", NULL, 1}};
    const gpucompile_backend *b = gpucompile_vulkan_backend();
    size_t i;
    int f;
    for (i = 0; i < sizeof c / sizeof c[0]; i++)
        for (f = GPUCOMPILE_FORMAT_LLVM; f <= GPUCOMPILE_FORMAT_BIN; f++) {
            gpucompile_object o;
            const char *w1 = NULL, *w2 = NULL;
            int compile_side, runtime_side;
            memset(&o, 0, sizeof o);
            o.format = (gpucompile_format)f;
            o.triple = (char *)c[i].triple;
            o.chip = (char *)c[i].chip;
            compile_side = b->select_score(&o, "vulkan", &w1);
            runtime_side = gpucompile_vulkan__score(c[i].triple, c[i].chip, gpucompile_format_string(o.format), NULL, "vulkan", &w2);
            CHECK_MSG(compile_side == runtime_side, "%s / %s / %s: %d on the compile side, %d at run time", c[i].triple ? c[i].triple : "(null)",
                      c[i].chip ? c[i].chip : "(null)", gpucompile_format_string(o.format), compile_side, runtime_side);
            CHECK(runtime_side == (f == GPUCOMPILE_FORMAT_BIN ? c[i].score : -1));
            CHECK(b->select_score(&o, "sm_90", &w1) == -2);
        }
}

/* LLVM's -spirv-ext, which float atomics need, is the program's to set: with
   GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE (before any Vulkan compile of this process) a float atomic
   is refused by name and an integer one compiles; a program that parses the option itself says
   so (HOST) and then compiles it. The mode SET is the one every other program here runs with. */
static void test_llvm_options_the_programs(void) {
    static const char *const argv[2] = {"host", "-spirv-ext=+SPV_EXT_shader_atomic_float_add,+SPV_EXT_shader_atomic_float_min_max"};
    gpucompile_target *t = NULL;
    gpucompile_object *o = NULL;
    gpucompile_options opt;
    t_log l;
    char *ir;
    size_t n;
    CHECK(gpucompile_vulkan_set_llvm_options(GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE) == GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE);
    CHECK(gpucompile_vulkan_set_llvm_options(7) == GPUCOMPILE_VULKAN_LLVM_OPTIONS_NONE); /* not a mode: nothing changes */
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    CHECK((ir = t_read("tests/data/vulkan_atomics.ll", &n)) != NULL);
    CHECK(gpucompile_target_parse("#gpu.vulkan", (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK);
    if (!ir || !t) return;
    opt = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    CHECK(gpucompile_compile_ir(ir, n, "vulkan_atomics.ll", t, &opt, &o) == GPUCOMPILE_ERROR_UNSUPPORTED && !o);
    CHECK_LOG(&l, "atomicrmw fadd");
    CHECK_LOG(&l, "a float atomic: LLVM 22 aborts on it without its -spirv-ext option");
    gpucompile_object_free(o);
    o = NULL;
    LLVMParseCommandLineOptions(2, argv, "");
    CHECK(gpucompile_vulkan_set_llvm_options(GPUCOMPILE_VULKAN_LLVM_OPTIONS_HOST) == GPUCOMPILE_VULKAN_LLVM_OPTIONS_HOST);
    opt = t_options(&l, GPUCOMPILE_FORMAT_BIN);
    CHECK_MSG(gpucompile_compile_ir(ir, n, "vulkan_atomics.ll", t, &opt, &o) == GPUCOMPILE_OK && o, "%s", l.text);
    gpucompile_object_free(o);
    gpucompile_target_free(t);
    free(ir);
}

/* Many modules in one process, each different: LLVM 22's SPIR-V code generator keeps block ids
   from one compile to the next, and gives a block of a later module an id that module defines
   elsewhere (gpucompile_spirv_relabel). Each module, for Vulkan and for OpenCL, is taken through
   the library: no id defined twice, and spirv-val passes. */
static void test_many_modules(void) {
    static const char *const targets[2] = {"#gpu.vulkan", "#gpu.spirv"};
    static const char *const envs[2] = {"--target-env vulkan1.3", ""};
    gpucompile_target *t[2] = {NULL, NULL};
    char path[512], cmd[1024];
    int i, k, ok[2] = {0, 0}, again = 0, mended = 0;
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    for (k = 0; k < 2; k++) CHECK(gpucompile_target_parse(targets[k], (size_t)-1, NULL, NULL, &t[k]) == GPUCOMPILE_OK);
    for (i = 0; i < 50 && t[0] && t[1]; i++) {
        gpucompile_buf ir;
        int b, nb = 1 + i % 5;
        memset(&ir, 0, sizeof ir);
        gpucompile_buf_printf(&ir, "target triple = \"spirv64-unknown-unknown\"\n"
                              "define spir_kernel void @k%d(ptr addrspace(1) %%p, i32 %%n) {\nentry:\n  br label %%b0\n", i);
        for (b = 0; b < nb; b++) /* a loop of nb blocks (named, as a front end's may be) */
            gpucompile_buf_printf(&ir, "b%d:\n  %%x%d = add i32 %%n, %d\n  store i32 %%x%d, ptr addrspace(1) %%p\n  %%c%d = icmp slt i32 %%x%d, %d\n"
                                  "  br i1 %%c%d, label %%b%d, label %%out\n", b, b, b + i, b, b, b, 100 + i, b, (b + 1) % nb);
        gpucompile_buf_str(&ir, "out:\n  ret void\n}\n");
        for (k = 0; k < 2; k++) {
            gpucompile_object *o = NULL;
            t_log l;
            gpucompile_options opt = t_options(&l, GPUCOMPILE_FORMAT_BIN);
            uint32_t *w;
            FILE *f;
            CHECK_MSG(gpucompile_compile_ir(ir.data, ir.len, "many.ll", t[k], &opt, &o) == GPUCOMPILE_OK && o, "module %d for %s: %s", i, targets[k], l.text);
            again += strstr(l.text, "code generation again") != NULL;
            mended += strstr(l.text, "kept from an earlier compile in this process replaced") != NULL;
            if (!o) continue;
            CHECK((w = (uint32_t *)malloc(o->size)) != NULL);
            if (w) memcpy(w, o->data, o->size);
            CHECK_MSG(w && gpucompile_spirv_relabel(w, o->size / 4) == 0, "module %d for %s: an id defined twice", i, targets[k]);
            free(w);
            snprintf(path, sizeof path, "%s/many%d.spv", dir, k);
            if ((f = fopen(path, "wb")) != NULL) {
                fwrite(o->data, 1, o->size, f);
                fclose(f);
            }
            snprintf(cmd, sizeof cmd, "spirv-val %s '%s'", envs[k], path);
            if (!t_have("spirv-val") || t_sh_ok(cmd)) ok[k]++;
            else CHECK_MSG(0, "module %d for %s: spirv-val fails", i, targets[k]);
            gpucompile_object_free(o);
        }
        gpucompile_free(NULL, ir.data);
    }
    CHECK(ok[0] == 50 && ok[1] == 50);
    printf("  %d of 100 mended, %d compiled again\n", mended, again);
    gpucompile_target_free(t[0]);
    gpucompile_target_free(t[1]);
}

/* LLVM 22's SPIR-V code generator keeps process-wide state: targets compiled at once on threads
   (jobs > 1) would abort inside LLVM or corrupt the heap, so the core runs its code generation
   one at a time. Four SPIR-V targets, four threads, twenty binaries. */
static void test_parallel_targets(void) {
    static const char *const names[4] = {"#gpu.vulkan<O = 0>", "#gpu.spirv<O = 1>", "#gpu.vulkan<O = 2>", "#gpu.spirv<O = 3>"};
    gpucompile_target *t[4] = {NULL, NULL, NULL, NULL};
    gpucompile_buf ir;
    int i, k, b, made = 0, wrong = 0;
    if (!gpucompile_vulkan_available()) SKIP("this LLVM has no SPIR-V target");
    for (k = 0; k < 4; k++) CHECK(gpucompile_target_parse(names[k], (size_t)-1, NULL, NULL, &t[k]) == GPUCOMPILE_OK);
    memset(&ir, 0, sizeof ir);
    gpucompile_buf_str(&ir, "target triple = \"spirv64-unknown-unknown\"\n");
    for (k = 0; k < 6; k++) { /* six kernels of a loop of k + 2 blocks */
        gpucompile_buf_printf(&ir, "define spir_kernel void @k%d(ptr addrspace(1) %%p, i32 %%n) {\nentry:\n  br label %%b0\n", k);
        for (b = 0; b < k + 2; b++)
            gpucompile_buf_printf(&ir, "b%d:\n  %%x%d = mul i32 %%n, %d\n  store i32 %%x%d, ptr addrspace(1) %%p\n  %%c%d = icmp slt i32 %%x%d, %d\n"
                                  "  br i1 %%c%d, label %%b%d, label %%out\n", b, b, b + 3, b, b, b, 50 + k, b, (b + 1) % (k + 2));
        gpucompile_buf_str(&ir, "out:\n  ret void\n}\n");
    }
    for (i = 0; i < 20 && t[0] && t[1] && t[2] && t[3]; i++) {
        gpucompile_binary *bin = NULL;
        t_log l;
        gpucompile_options opt = t_options(&l, GPUCOMPILE_FORMAT_BIN);
        CHECK_MSG(gpucompile_compile_binary(ir.data, ir.len, "par.ll", (const gpucompile_target *const *)t, 4, &opt, 4, "par", &bin) == GPUCOMPILE_OK && bin,
                  "binary %d: %s", i, l.text);
        for (k = 0; bin && k < bin->num_objects; k++) {
            uint32_t *w = (uint32_t *)malloc(bin->objects[k]->size);
            if (w) memcpy(w, bin->objects[k]->data, bin->objects[k]->size);
            wrong += !w || gpucompile_spirv_relabel(w, bin->objects[k]->size / 4) != 0;
            made++;
            free(w);
        }
        gpucompile_binary_free(bin);
    }
    CHECK_MSG(made == 80 && wrong == 0, "%d objects made, %d with an id defined twice", made, wrong);
    gpucompile_free(NULL, ir.data);
    for (k = 0; k < 4; k++) gpucompile_target_free(t[k]);
}

/* Our declarations of the Vulkan ABI against the real header. */
static void test_abi_against_vulkan_h(void) {
#if !defined(HAVE_VULKAN_H)
    SKIP("no <vulkan/vulkan.h> (Debian: libvulkan-dev)");
#else
#define SAME(ours, theirs) CHECK_MSG(sizeof(ours) == sizeof(theirs), "sizeof %s %zu != %s %zu", #ours, sizeof(ours), #theirs, sizeof(theirs))
#define AT(ours, f, theirs, g) CHECK_MSG(offsetof(ours, f) == offsetof(theirs, g), "%s.%s at %zu, %s.%s at %zu", #ours, #f, offsetof(ours, f), #theirs, #g, offsetof(theirs, g))
    SAME(gpucompile_vulkan__app_info, VkApplicationInfo);
    AT(gpucompile_vulkan__app_info, api_version, VkApplicationInfo, apiVersion);
    SAME(gpucompile_vulkan__instance_info, VkInstanceCreateInfo);
    AT(gpucompile_vulkan__instance_info, exts, VkInstanceCreateInfo, ppEnabledExtensionNames);
    SAME(gpucompile_vulkan__queue_family, VkQueueFamilyProperties);
    SAME(gpucompile_vulkan__memory_properties, VkPhysicalDeviceMemoryProperties);
    AT(gpucompile_vulkan__memory_properties, heap_count, VkPhysicalDeviceMemoryProperties, memoryHeapCount);
    AT(gpucompile_vulkan__memory_properties, heaps, VkPhysicalDeviceMemoryProperties, memoryHeaps);
    SAME(gpucompile_vulkan__extension, VkExtensionProperties);
    SAME(gpucompile_vulkan__layer, VkLayerProperties);
    SAME(gpucompile_vulkan__queue_info, VkDeviceQueueCreateInfo);
    AT(gpucompile_vulkan__queue_info, priorities, VkDeviceQueueCreateInfo, pQueuePriorities);
    SAME(gpucompile_vulkan__device_info, VkDeviceCreateInfo);
    AT(gpucompile_vulkan__device_info, features, VkDeviceCreateInfo, pEnabledFeatures);
    SAME(gpucompile_vulkan__features, VkPhysicalDeviceFeatures2);
    AT(gpucompile_vulkan__features, f[39], VkPhysicalDeviceFeatures2, features.shaderFloat64);
    AT(gpucompile_vulkan__features, f[40], VkPhysicalDeviceFeatures2, features.shaderInt64);
    AT(gpucompile_vulkan__features, f[41], VkPhysicalDeviceFeatures2, features.shaderInt16);
    SAME(gpucompile_vulkan__subgroup_properties, VkPhysicalDeviceSubgroupProperties);
    AT(gpucompile_vulkan__subgroup_properties, operations, VkPhysicalDeviceSubgroupProperties, supportedOperations);
    SAME(gpucompile_vulkan__size_control, VkPhysicalDeviceSubgroupSizeControlProperties);
    AT(gpucompile_vulkan__size_control, stages, VkPhysicalDeviceSubgroupSizeControlProperties, requiredSubgroupSizeStages);
    SAME(gpucompile_vulkan__required_size, VkPipelineShaderStageRequiredSubgroupSizeCreateInfo);
    AT(gpucompile_vulkan__required_size, size, VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, requiredSubgroupSize);
    SAME(gpucompile_vulkan__features11, VkPhysicalDeviceVulkan11Features);
    AT(gpucompile_vulkan__features11, f[2], VkPhysicalDeviceVulkan11Features, storagePushConstant16);
    SAME(gpucompile_vulkan__features12, VkPhysicalDeviceVulkan12Features);
    AT(gpucompile_vulkan__features12, f[2], VkPhysicalDeviceVulkan12Features, storageBuffer8BitAccess);
    AT(gpucompile_vulkan__features12, f[5], VkPhysicalDeviceVulkan12Features, shaderBufferInt64Atomics);
    AT(gpucompile_vulkan__features12, f[7], VkPhysicalDeviceVulkan12Features, shaderFloat16);
    AT(gpucompile_vulkan__features12, f[8], VkPhysicalDeviceVulkan12Features, shaderInt8);
    AT(gpucompile_vulkan__features12, f[31], VkPhysicalDeviceVulkan12Features, scalarBlockLayout);
    AT(gpucompile_vulkan__features12, f[33], VkPhysicalDeviceVulkan12Features, uniformBufferStandardLayout);
    AT(gpucompile_vulkan__features12, f[34], VkPhysicalDeviceVulkan12Features, shaderSubgroupExtendedTypes);
    AT(gpucompile_vulkan__features12, f[41], VkPhysicalDeviceVulkan12Features, vulkanMemoryModel);
    AT(gpucompile_vulkan__features12, f[42], VkPhysicalDeviceVulkan12Features, vulkanMemoryModelDeviceScope);
    SAME(gpucompile_vulkan__features13, VkPhysicalDeviceVulkan13Features);
    AT(gpucompile_vulkan__features13, f[7], VkPhysicalDeviceVulkan13Features, subgroupSizeControl);
    AT(gpucompile_vulkan__features13, f[8], VkPhysicalDeviceVulkan13Features, computeFullSubgroups);
    AT(gpucompile_vulkan__features13, f[11], VkPhysicalDeviceVulkan13Features, shaderZeroInitializeWorkgroupMemory);
    AT(gpucompile_vulkan__features13, f[13], VkPhysicalDeviceVulkan13Features, shaderIntegerDotProduct);
    AT(gpucompile_vulkan__features13, f[14], VkPhysicalDeviceVulkan13Features, maintenance4);
    SAME(gpucompile_vulkan__atomic_float, VkPhysicalDeviceShaderAtomicFloatFeaturesEXT);
    AT(gpucompile_vulkan__atomic_float, f[0], VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, shaderBufferFloat32Atomics);
    AT(gpucompile_vulkan__atomic_float, f[7], VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, shaderSharedFloat64AtomicAdd);
    SAME(gpucompile_vulkan__buffer_info, VkBufferCreateInfo);
    AT(gpucompile_vulkan__buffer_info, size, VkBufferCreateInfo, size);
    AT(gpucompile_vulkan__buffer_info, families, VkBufferCreateInfo, pQueueFamilyIndices);
    SAME(gpucompile_vulkan__memory_requirements, VkMemoryRequirements);
    SAME(gpucompile_vulkan__allocate_info, VkMemoryAllocateInfo);
    AT(gpucompile_vulkan__allocate_info, type, VkMemoryAllocateInfo, memoryTypeIndex);
    SAME(gpucompile_vulkan__shader_info, VkShaderModuleCreateInfo);
    AT(gpucompile_vulkan__shader_info, code, VkShaderModuleCreateInfo, pCode);
    SAME(gpucompile_vulkan__set_binding, VkDescriptorSetLayoutBinding);
    SAME(gpucompile_vulkan__set_layout_info, VkDescriptorSetLayoutCreateInfo);
    SAME(gpucompile_vulkan__push_range, VkPushConstantRange);
    SAME(gpucompile_vulkan__layout_info, VkPipelineLayoutCreateInfo);
    AT(gpucompile_vulkan__layout_info, ranges, VkPipelineLayoutCreateInfo, pPushConstantRanges);
    SAME(gpucompile_vulkan__stage_info, VkPipelineShaderStageCreateInfo);
    AT(gpucompile_vulkan__stage_info, module, VkPipelineShaderStageCreateInfo, module);
    AT(gpucompile_vulkan__stage_info, name, VkPipelineShaderStageCreateInfo, pName);
    AT(gpucompile_vulkan__stage_info, specialization, VkPipelineShaderStageCreateInfo, pSpecializationInfo);
    SAME(gpucompile_vulkan__spec_entry, VkSpecializationMapEntry);
    AT(gpucompile_vulkan__spec_entry, offset, VkSpecializationMapEntry, offset);
    AT(gpucompile_vulkan__spec_entry, size, VkSpecializationMapEntry, size);
    SAME(gpucompile_vulkan__spec_info, VkSpecializationInfo);
    AT(gpucompile_vulkan__spec_info, entries, VkSpecializationInfo, pMapEntries);
    AT(gpucompile_vulkan__spec_info, size, VkSpecializationInfo, dataSize);
    AT(gpucompile_vulkan__spec_info, data, VkSpecializationInfo, pData);
    SAME(gpucompile_vulkan__pipeline_info, VkComputePipelineCreateInfo);
    AT(gpucompile_vulkan__pipeline_info, layout, VkComputePipelineCreateInfo, layout);
    AT(gpucompile_vulkan__pipeline_info, base_index, VkComputePipelineCreateInfo, basePipelineIndex);
    SAME(gpucompile_vulkan__cache_info, VkPipelineCacheCreateInfo);
    SAME(gpucompile_vulkan__feedback, VkPipelineCreationFeedback);
    SAME(gpucompile_vulkan__feedback_info, VkPipelineCreationFeedbackCreateInfo);
    AT(gpucompile_vulkan__feedback_info, stages, VkPipelineCreationFeedbackCreateInfo, pPipelineStageCreationFeedbacks);
    SAME(gpucompile_vulkan__pool_info, VkCommandPoolCreateInfo);
    SAME(gpucompile_vulkan__command_buffer_info, VkCommandBufferAllocateInfo);
    AT(gpucompile_vulkan__command_buffer_info, count, VkCommandBufferAllocateInfo, commandBufferCount);
    SAME(gpucompile_vulkan__begin_info, VkCommandBufferBeginInfo);
    SAME(gpucompile_vulkan__fence_info, VkFenceCreateInfo);
    SAME(gpucompile_vulkan__submit_info, VkSubmitInfo);
    AT(gpucompile_vulkan__submit_info, command_buffers, VkSubmitInfo, pCommandBuffers);
    AT(gpucompile_vulkan__submit_info, signals, VkSubmitInfo, pSignalSemaphores);
    SAME(gpucompile_vulkan__memory_barrier, VkMemoryBarrier);
    SAME(gpucompile_vulkan__buffer_desc, VkDescriptorBufferInfo);
    SAME(gpucompile_vulkan__write_set, VkWriteDescriptorSet);
    AT(gpucompile_vulkan__write_set, type, VkWriteDescriptorSet, descriptorType);
    AT(gpucompile_vulkan__write_set, buffers, VkWriteDescriptorSet, pBufferInfo);
    AT(gpucompile_vulkan__write_set, images, VkWriteDescriptorSet, pImageInfo);
    AT(gpucompile_vulkan__features, f[29], VkPhysicalDeviceFeatures2, features.shaderStorageImageExtendedFormats);
    AT(gpucompile_vulkan__features, f[31], VkPhysicalDeviceFeatures2, features.shaderStorageImageReadWithoutFormat);
    AT(gpucompile_vulkan__features, f[32], VkPhysicalDeviceFeatures2, features.shaderStorageImageWriteWithoutFormat);
    SAME(gpucompile_vulkan__image_info, VkImageCreateInfo);
    AT(gpucompile_vulkan__image_info, usage, VkImageCreateInfo, usage);
    AT(gpucompile_vulkan__image_info, families, VkImageCreateInfo, pQueueFamilyIndices);
    AT(gpucompile_vulkan__image_info, layout, VkImageCreateInfo, initialLayout);
    SAME(gpucompile_vulkan__view_info, VkImageViewCreateInfo);
    AT(gpucompile_vulkan__view_info, image, VkImageViewCreateInfo, image);
    AT(gpucompile_vulkan__view_info, aspect, VkImageViewCreateInfo, subresourceRange.aspectMask);
    AT(gpucompile_vulkan__view_info, layers, VkImageViewCreateInfo, subresourceRange.layerCount);
    SAME(gpucompile_vulkan__sampler_info, VkSamplerCreateInfo);
    AT(gpucompile_vulkan__sampler_info, bias, VkSamplerCreateInfo, mipLodBias);
    AT(gpucompile_vulkan__sampler_info, unnormalized, VkSamplerCreateInfo, unnormalizedCoordinates);
    SAME(gpucompile_vulkan__image_copy, VkBufferImageCopy);
    AT(gpucompile_vulkan__image_copy, at, VkBufferImageCopy, imageOffset);
    AT(gpucompile_vulkan__image_copy, extent, VkBufferImageCopy, imageExtent);
    SAME(gpucompile_vulkan__image_barrier, VkImageMemoryBarrier);
    AT(gpucompile_vulkan__image_barrier, image, VkImageMemoryBarrier, image);
    AT(gpucompile_vulkan__image_barrier, layers, VkImageMemoryBarrier, subresourceRange.layerCount);
    SAME(gpucompile_vulkan__image_desc, VkDescriptorImageInfo);
    SAME(gpucompile_vulkan__format_properties, VkFormatProperties);
    CHECK((int)GPUCOMPILE_VULKAN__ST_IMAGE == (int)VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO && (int)GPUCOMPILE_VULKAN__ST_IMAGE_VIEW == (int)VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO &&
          (int)GPUCOMPILE_VULKAN__ST_SAMPLER == (int)VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO && (int)GPUCOMPILE_VULKAN__ST_IMAGE_BARRIER == (int)VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
    CHECK(GPUCOMPILE_VULKAN__LAYOUT_GENERAL == VK_IMAGE_LAYOUT_GENERAL);
    SAME(gpucompile_vulkan__pool_size, VkDescriptorPoolSize);
    SAME(gpucompile_vulkan__descriptor_pool_info, VkDescriptorPoolCreateInfo);
    SAME(gpucompile_vulkan__set_allocate_info, VkDescriptorSetAllocateInfo);
    SAME(gpucompile_vulkan__buffer_copy, VkBufferCopy);
    AT(gpucompile_vulkan__message, message, VkDebugUtilsMessengerCallbackDataEXT, pMessage);
    AT(gpucompile_vulkan__message, id, VkDebugUtilsMessengerCallbackDataEXT, messageIdNumber);
    SAME(gpucompile_vulkan__messenger_info, VkDebugUtilsMessengerCreateInfoEXT);
    AT(gpucompile_vulkan__messenger_info, callback, VkDebugUtilsMessengerCreateInfoEXT, pfnUserCallback);
    CHECK(GPUCOMPILE_VULKAN__PROPS_SIZE == sizeof(VkPhysicalDeviceProperties));
    CHECK(GPUCOMPILE_VULKAN__P_API == offsetof(VkPhysicalDeviceProperties, apiVersion));
    CHECK(GPUCOMPILE_VULKAN__P_VENDOR == offsetof(VkPhysicalDeviceProperties, vendorID));
    CHECK(GPUCOMPILE_VULKAN__P_DEVICE == offsetof(VkPhysicalDeviceProperties, deviceID));
    CHECK(GPUCOMPILE_VULKAN__P_NAME == offsetof(VkPhysicalDeviceProperties, deviceName));
    CHECK(GPUCOMPILE_VULKAN__P_UUID == offsetof(VkPhysicalDeviceProperties, pipelineCacheUUID));
    CHECK(GPUCOMPILE_VULKAN__P_LIMITS == offsetof(VkPhysicalDeviceProperties, limits));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_UNIFORM_RANGE == offsetof(VkPhysicalDeviceLimits, maxUniformBufferRange));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_STORAGE_RANGE == offsetof(VkPhysicalDeviceLimits, maxStorageBufferRange));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_PUSH == offsetof(VkPhysicalDeviceLimits, maxPushConstantsSize));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_SETS == offsetof(VkPhysicalDeviceLimits, maxBoundDescriptorSets));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_SHARED == offsetof(VkPhysicalDeviceLimits, maxComputeSharedMemorySize));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_GROUPS == offsetof(VkPhysicalDeviceLimits, maxComputeWorkGroupCount));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_INVOCATIONS == offsetof(VkPhysicalDeviceLimits, maxComputeWorkGroupInvocations));
    CHECK(GPUCOMPILE_VULKAN__L_MAX_GROUP_SIZE == offsetof(VkPhysicalDeviceLimits, maxComputeWorkGroupSize));
    CHECK(GPUCOMPILE_VULKAN__L_MIN_UNIFORM_ALIGN == offsetof(VkPhysicalDeviceLimits, minUniformBufferOffsetAlignment));
    CHECK(GPUCOMPILE_VULKAN__L_MIN_STORAGE_ALIGN == offsetof(VkPhysicalDeviceLimits, minStorageBufferOffsetAlignment));
    CHECK((int)GPUCOMPILE_VULKAN__ST_FEATURES_2 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
    CHECK((int)GPUCOMPILE_VULKAN__ST_FEATURES_11 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
    CHECK((int)GPUCOMPILE_VULKAN__ST_PROPERTIES_2 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
    CHECK((int)GPUCOMPILE_VULKAN__ST_SUBGROUP_PROPERTIES == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
    CHECK((int)GPUCOMPILE_VULKAN__ST_SIZE_CONTROL == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES);
    CHECK((int)GPUCOMPILE_VULKAN__ST_REQUIRED_SIZE == (int)VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO);
    CHECK((int)GPUCOMPILE_VULKAN__ST_FEATURES_12 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
    CHECK((int)GPUCOMPILE_VULKAN__ST_FEATURES_13 == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
    CHECK((int)GPUCOMPILE_VULKAN__ST_ATOMIC_FLOAT == (int)VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
    CHECK((int)GPUCOMPILE_VULKAN__ST_CREATION_FEEDBACK == (int)VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO);
    CHECK((int)GPUCOMPILE_VULKAN__ST_MESSENGER == (int)VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
    CHECK((int)GPUCOMPILE_VULKAN__ST_COMPUTE_PIPELINE == (int)VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
    CHECK((int)GPUCOMPILE_VULKAN__ST_WRITE_SET == (int)VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    CHECK((int)GPUCOMPILE_VULKAN__ST_MEMORY_BARRIER == (int)VK_STRUCTURE_TYPE_MEMORY_BARRIER);
    CHECK((int)GPUCOMPILE_VULKAN__ST_COMMAND_BUFFER_BEGIN == (int)VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
    CHECK((int)GPUCOMPILE_VULKAN__ST_SET_ALLOCATE == (int)VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
    CHECK((int)GPUCOMPILE_VULKAN__ST_PIPELINE_CACHE == (int)VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
    CHECK(GPUCOMPILE_VULKAN__API_1_3 == VK_API_VERSION_1_3);
    CHECK(GPUCOMPILE_VULKAN__STAGES_WORK == (VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT));
    CHECK(GPUCOMPILE_VULKAN__ACCESS_WRITES == (VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT));
    CHECK(GPUCOMPILE_VULKAN__ACCESS_WORK == (VK_ACCESS_UNIFORM_READ_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                                             VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT));
    CHECK(GPUCOMPILE_VULKAN__ACCESS_HOST_READ == VK_ACCESS_HOST_READ_BIT && GPUCOMPILE_VULKAN__STAGE_HOST == VK_PIPELINE_STAGE_HOST_BIT);
    /* the entry points' table: one pointer per name, in order */
    CHECK(offsetof(gpucompile_vulkan__fns, CmdUpdateBuffer) - offsetof(gpucompile_vulkan__fns, GetDeviceQueue) ==
          (sizeof gpucompile_vulkan__device_names / sizeof gpucompile_vulkan__device_names[0] - 1) * sizeof(void (*)(void)));
    CHECK(offsetof(gpucompile_vulkan__fns, CreateDebugUtilsMessengerEXT) - offsetof(gpucompile_vulkan__fns, EnumeratePhysicalDevices) ==
          (sizeof gpucompile_vulkan__instance_names / sizeof gpucompile_vulkan__instance_names[0] - 1) * sizeof(void (*)(void)));
#endif
}

/* A literal that equals a variable's id is no use of it: kernel a's GLSL.std.450 NMax (instruction
   80) beside b's buffer %80, both entry points listing both buffers (as LLVM 22 writes them). Each
   kernel reflects the binding its function uses only (a's NMax was read as a use of %80, and the
   Vulkan backend's interfaces kept it: piglit's smoothstep). */
static void test_literal_not_a_use(void) {
    static const char text[] =
        "OpCapability Shader\n%1 = OpExtInstImport \"GLSL.std.450\"\nOpMemoryModel Logical GLSL450\n"
        "OpEntryPoint GLCompute %a \"a\" %80 %81\nOpEntryPoint GLCompute %b \"b\" %80 %81\n"
        "OpExecutionMode %a LocalSize 1 1 1\nOpExecutionMode %b LocalSize 1 1 1\n"
        "OpDecorate %rt ArrayStride 4\nOpMemberDecorate %st 0 Offset 0\nOpDecorate %st Block\n"
        "OpDecorate %80 DescriptorSet 0\nOpDecorate %80 Binding 0\nOpDecorate %81 DescriptorSet 0\nOpDecorate %81 Binding 1\n"
        "%void = OpTypeVoid\n%fn = OpTypeFunction %void\n%float = OpTypeFloat 32\n%uint = OpTypeInt 32 0\n"
        "%rt = OpTypeRuntimeArray %float\n%st = OpTypeStruct %rt\n%pst = OpTypePointer StorageBuffer %st\n"
        "%pf = OpTypePointer StorageBuffer %float\n%u0 = OpConstant %uint 0\n%f1 = OpConstant %float 1\n"
        "%80 = OpVariable %pst StorageBuffer\n%81 = OpVariable %pst StorageBuffer\n"
        "%a = OpFunction %void None %fn\n%la = OpLabel\n%pa = OpAccessChain %pf %81 %u0 %u0\n"
        "%x = OpExtInst %float %1 NMax %f1 %f1\nOpStore %pa %x\nOpReturn\nOpFunctionEnd\n"
        "%b = OpFunction %void None %fn\n%lb = OpLabel\n%pb = OpAccessChain %pf %80 %u0 %u0\nOpStore %pb %f1\nOpReturn\nOpFunctionEnd\n";
    char path[512], cmd[1200], out[512];
    gpucompile_vulkan_kernel k[2];
    unsigned char *m;
    size_t size = 0;
    int n, i;
    if (!t_save(dir, "literal.spvasm", text, strlen(text), path, sizeof path)) { CHECK(0); return; }
    snprintf(out, sizeof out, "%s/literal.spv", dir);
    snprintf(cmd, sizeof cmd, "spirv-as --preserve-numeric-ids --target-env vulkan1.3 '%s' -o '%s'", path, out);
    if (!t_sh_ok("command -v spirv-as >/dev/null 2>&1")) SKIP("no spirv-as");
    CHECK(t_sh_ok(cmd)); /* the text above is valid assembly: a failure here is the test's own */
    if (!(m = (unsigned char *)t_read(out, &size))) return;
    n = gpucompile_vulkan_reflect(m, size, k, 2);
    CHECK(n == 2);
    for (i = 0; i < n && i < 2; i++)
        CHECK_MSG(k[i].num_bindings == 1 && k[i].bindings[0].binding == (strcmp(k[i].name, "a") == 0 ? 1u : 0u), "%s: %d bindings", k[i].name, k[i].num_bindings);
    free(m);
}

/* gpucompile_runtime.h's walk over a module's instructions, which the reflection reader, the
   repair after llc and mark_params step with: the byte order read from the magic (the bytes
   as written either way, a copy in host order), and a malformed word count stops it inside
   the module. */
static void test_spirv_walk(void) {
    /* the header, OpCapability Shader, OpMemoryModel Logical GLSL450 */
    static const uint32_t words[10] = {0x07230203u, 0x00010600u, 0, 8, 0, 2u << 16 | 17, 1, 3u << 16 | 14, 0, 1};
    unsigned char le[40], be[40], cut[40];
    gpucompile_spirv_inst it;
    size_t i;
    int k;
    for (i = 0; i < 40; i++) {
        le[i] = (unsigned char)(words[i / 4] >> (8 * (i % 4)));
        be[i] = (unsigned char)(words[i / 4] >> (8 * (3 - i % 4)));
    }
    for (k = 0; k < 3; k++) {
        const void *m = k == 0 ? (const void *)le : k == 1 ? (const void *)be : (const void *)words;
        CHECK(gpucompile_spirv_begin(&it, m, 40));
        CHECK(k == 2 || it.big == (k == 1));
        CHECK(gpucompile_spirv_next(&it) && it.op == 17 && it.wc == 2 && it.at == 5);
        CHECK(gpucompile_spirv_operand(&it, 1) == 1 && gpucompile_spirv_operand(&it, 2) == 0); /* 0 past its end */
        CHECK(gpucompile_spirv_next(&it) && it.op == 14 && it.wc == 3 && gpucompile_spirv_operand(&it, 2) == 1);
        CHECK(!gpucompile_spirv_next(&it) && !it.bad && !gpucompile_spirv_next(&it));
    }
    CHECK(!gpucompile_spirv_begin(&it, le, 16) && !gpucompile_spirv_next(&it)); /* under five words */
    CHECK(!gpucompile_spirv_begin(&it, le + 4, 36));                            /* no magic */
    CHECK(!gpucompile_spirv_begin(&it, NULL, 40));
    memcpy(cut, le, sizeof cut);
    cut[4 * 5 + 2] = 0; /* OpCapability's word count 0 */
    CHECK(gpucompile_spirv_begin(&it, cut, 40));
    while (gpucompile_spirv_next(&it)) {}
    CHECK(it.bad && it.at == 5 && it.wc == 0);
    CHECK(gpucompile_spirv_begin(&it, le, 36)); /* OpMemoryModel runs past the end */
    while (gpucompile_spirv_next(&it)) {}
    CHECK(it.bad && it.at == 7 && it.wc == 0);
    CHECK(gpucompile_spirv_first(14, 3) == words[7] && gpucompile_spirv_opcode(words[7]) == 14 && gpucompile_spirv_count(words[7]) == 3);
}

int main(void) {
    int st;
    snprintf(dir, sizeof dir, "%s/gpucompile-vulkan-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) {
        printf("cannot make a scratch directory\n");
        return 1;
    }
    free(t_sh("llc --version 2>/dev/null | grep -q spirv", &st));
    have_llc = st == 0;
    have_glslang = t_have("glslangValidator");
    RUN(test_llvm_options_the_programs); /* first: before any Vulkan compile of this process */
    RUN(test_llc_saxpy);
    RUN(test_llc_two_entries);
    RUN(test_llc_workgroup_memory);
    RUN(test_glsl_reduce_both_versions);
    RUN(test_glsl_push_block);
    RUN(test_glsl_sets_uniforms_spec_size);
    RUN(test_glsl_spec_length);
    RUN(test_big_endian);
    RUN(test_garbage);
    RUN(test_spirv_walk);
    RUN(test_literal_not_a_use);
    RUN(test_many_modules);
    RUN(test_parallel_targets);
    RUN(test_selection_rule);
    RUN(test_one_selection_rule);
    RUN(test_abi_against_vulkan_h);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        free(t_sh(cmd, &st));
    }
    return TEST_END("vulkan");
}
