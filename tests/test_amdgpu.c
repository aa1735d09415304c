/* The AMDGPU backend: hsaco for three real kernels and three chips, checked with
   llvm-readelf / llvm-objdump; equal to llvm-link + opt + llc + ld.lld;
   flags, ABI, wave size and target IDs; device-library search and hand-defined controls;
   errors; the metadata-note reader on damaged input. CPU only. */
#include "test.h"
#include "gpucompile_amdgpu.h"
#include <unistd.h>
#include <sys/stat.h>

#define BITCODE "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"

static char tmpdir[256], cwd[4096];
static int have_libs;

static const char *kernel_path(const char *k) {
    static char p[256];
    snprintf(p, sizeof p, "examples/kernels/%s_amdgpu.ll", k);
    return p;
}

static gpucompile_target amd(const char *chip) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    t.chip = chip;
    return t;
}

/* Compiles a kernel of examples/kernels with opts (zero: defaults); the logger is l's. */
static gpucompile_result compile(const char *kernel, const gpucompile_target *t, gpucompile_options *opts, t_log *l,
                                 gpucompile_object **o) {
    gpucompile_options zero;
    if (!opts) {
        memset(&zero, 0, sizeof zero);
        opts = &zero;
    }
    opts->logger = t_logger(l);
    return gpucompile_compile_file(kernel_path(kernel), t, opts, o);
}

static void save(const char *name, const gpucompile_object *o, char *path, size_t size) {
    t_save(tmpdir, name, o->data, o->size, path, size);
}

static char *sh(int *status, const char *fmt, const char *a, const char *b) {
    char cmd[8192];
    snprintf(cmd, sizeof cmd, fmt, a, b);
    return t_sh(cmd, status);
}

/* No gpucompile-* temp file is left in TMPDIR (= tmpdir). */
static int no_temp_files(void) {
    int st;
    char *out = sh(&st, "ls %s | grep -c '^gpucompile-'%s", tmpdir, "");
    int none = out && atoi(out) == 0;
    free(out);
    return none;
}

/* The integer after "key:" in llvm-readelf's YAML (first match from p), or -1. */
static int yaml_int(const char *p, const char *key) {
    const char *s = p ? strstr(p, key) : NULL;
    return s ? atoi(s + strlen(key) + 1) : -1;
}

static void test_three_kernels_three_chips(void) {
    static const char *const chips[] = {"gfx90a", "gfx1100", "gfx942"};
    static const char *const kernels[] = {"saxpy", "math", "reduce"};
    size_t c, k;
    if (!have_libs) SKIP("no ROCm device libraries in " BITCODE);
    for (c = 0; c < 3; c++) {
        for (k = 0; k < 3; k++) {
            gpucompile_target t = amd(chips[c]);
            gpucompile_object *o = NULL;
            t_log l;
            char path[512], name[64], target[128];
            char *notes, *dis, *dyn, *kern;
            int st;
            const gpucompile_kernel *kk;
            CHECK_MSG(compile(kernels[k], &t, NULL, &l, &o) == GPUCOMPILE_OK, "%s %s: %s", kernels[k], chips[c], l.text);
            if (!o) continue;
            CHECK(o->size > 64 && memcmp(o->data, "\177ELF", 4) == 0);
            CHECK(o->data[16] == 3 && o->data[17] == 0); /* e_type ET_DYN */
            CHECK(o->data[18] == 224);                   /* e_machine EM_AMDGPU */
            CHECK(o->data[7] == 64 && o->data[8] == 3);  /* ELFOSABI_AMDGPU_HSA, code object v5 */
            snprintf(name, sizeof name, "%s_%s.hsaco", kernels[k], chips[c]);
            save(name, o, path, sizeof path);
            notes = sh(&st, "llvm-readelf --notes %s%s", path, "");
            CHECK(st == 0);
            snprintf(target, sizeof target, "amdhsa.target:   amdgcn-amd-amdhsa--%s", chips[c]);
            CHECK_MSG(notes && strstr(notes, target), "%s", notes ? notes : "");
            snprintf(target, sizeof target, ".name:           %s\n", kernels[k]);
            kern = notes ? strstr(notes, target) : NULL;
            CHECK_MSG(kern != NULL, "%s", notes ? notes : "");
            dis = sh(&st, "llvm-objdump -d %s%s", path, "");
            CHECK(st == 0 && dis && strstr(dis, "s_endpgm") && strstr(dis, kernels[k]));
            dyn = sh(&st, "llvm-readelf --dyn-syms %s | grep -c ' UND [^ ]'%s", path, "");
            CHECK_MSG(dyn && atoi(dyn) == 0, "undefined dynamic symbols in %s", path);
            CHECK(o->num_kernels == 1);
            kk = o->num_kernels ? &o->kernels[0] : NULL;
            if (kk && notes) { /* the object's metadata is the note's */
                const char *entry = strstr(notes, "amdhsa.kernels:");
                CHECK_STR(kk->name, kernels[k]);
                CHECK(kk->sgprs > 0 && kk->sgprs == yaml_int(entry, ".sgpr_count"));
                CHECK(kk->vgprs > 0 && kk->vgprs == yaml_int(entry, ".vgpr_count"));
                CHECK(kk->shared_bytes == yaml_int(entry, ".group_segment_fixed_size"));
                CHECK(kk->private_bytes == yaml_int(entry, ".private_segment_fixed_size"));
                CHECK(kk->kernarg_bytes == yaml_int(entry, ".kernarg_segment_size") && kk->kernarg_bytes > 0);
                CHECK(kk->max_threads == yaml_int(entry, ".max_flat_workgroup_size"));
                CHECK(kk->wavefront_size == (c == 1 ? 32 : 64));
                if (k == 2) CHECK(kk->shared_bytes == 1024); /* 256 floats of LDS */
                if (k != 0) CHECK(kk->max_threads == 256);
            }
            free(notes);
            free(dis);
            free(dyn);
            gpucompile_object_free(o);
        }
    }
    CHECK(no_temp_files());
}

/* The same kernel through the LLVM tools: llvm-link --only-needed with the
   same libraries in the same order, opt -O2, llc, ld.lld -shared. */
static void reference(const char *kernel, const char *chip, const char *mattr, const char *libs, const char *out) {
    char cmd[8192];
    int st;
    char *o;
    snprintf(cmd, sizeof cmd,
             "set -e; cd %s; cp %s/%s %s.ll; "
             "printf '!llvm.module.flags = !{!900}\\n!900 = !{i32 1, !\"amdhsa_code_object_version\", i32 500}\\n' >> %s.ll; "
             "llvm-link --only-needed -S %s.ll %s -o %s.linked.ll; "
             "opt -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s %s.linked.ll -o %s.opt.bc; "
             "llc -O2 -mtriple=amdgcn-amd-amdhsa -mcpu=%s %s -filetype=obj %s.opt.bc -o %s.o; "
             "ld.lld -shared --no-undefined %s.o -o %s 2>&1",
             tmpdir, cwd, kernel_path(kernel), out, out, out, libs, out, chip, mattr, out, out, chip, mattr, out, out, out, out);
    o = t_sh(cmd, &st);
    CHECK_MSG(st == 0, "reference pipeline failed: %s\n%s", cmd, o ? o : "");
    free(o);
}

static int same_file(const char *a, const char *b) {
    size_t na = 0, nb = 0;
    char *da = t_read(a, &na), *db = t_read(b, &nb);
    int same = da && db && na == nb && memcmp(da, db, na) == 0;
    free(da);
    free(db);
    return same;
}

static void test_equals_llvm_tools(void) {
    static const char *const ctl =
        BITCODE "/oclc_daz_opt_off.bc " BITCODE "/oclc_unsafe_math_off.bc " BITCODE "/oclc_finite_only_off.bc "
        BITCODE "/oclc_correctly_rounded_sqrt_on.bc ";
    char libs90a[2048], libs1100[2048], ours[512], ref[512];
    struct { const char *kernel, *chip, *mattr, *libs; } cases[5];
    size_t i;
    FILE *f;
    if (!have_libs) SKIP("no ROCm device libraries in " BITCODE);
    snprintf(libs90a, sizeof libs90a, BITCODE "/ocml.bc %s" BITCODE "/oclc_wavefrontsize64_on.bc " BITCODE
             "/oclc_isa_version_90a.bc " BITCODE "/oclc_abi_version_500.bc", ctl);
    /* ROCm 5.2 has no gfx1100 ISA file: the reference defines the variable like we do. */
    snprintf(ours, sizeof ours, "%s/isa1100.ll", tmpdir);
    f = fopen(ours, "w");
    if (f) {
        fputs("target datalayout = \"e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128-"
              "p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-"
              "n32:64-S32-A5-G1-ni:7:8:9\"\n"
              "target triple = \"amdgcn-amd-amdhsa\"\n"
              "@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 11000, align 4\n", f);
        fclose(f);
    }
    snprintf(libs1100, sizeof libs1100, BITCODE "/ocml.bc %s" BITCODE "/oclc_wavefrontsize64_off.bc isa1100.ll " BITCODE
             "/oclc_abi_version_500.bc", ctl);
    cases[0].kernel = "saxpy"; cases[0].chip = "gfx90a"; cases[0].mattr = ""; cases[0].libs = "";
    cases[1].kernel = "reduce"; cases[1].chip = "gfx90a"; cases[1].mattr = ""; cases[1].libs = "";
    cases[2].kernel = "math"; cases[2].chip = "gfx90a"; cases[2].mattr = ""; cases[2].libs = libs90a;
    cases[3].kernel = "math"; cases[3].chip = "gfx1100"; cases[3].mattr = "-mattr=+wavefrontsize32"; cases[3].libs = libs1100;
    cases[4].kernel = "reduce"; cases[4].chip = "gfx1100"; cases[4].mattr = "-mattr=+wavefrontsize32"; cases[4].libs = "";
    for (i = 0; i < 5; i++) {
        gpucompile_target t = amd(cases[i].chip);
        gpucompile_object *o = NULL;
        t_log l;
        char name[64];
        CHECK(compile(cases[i].kernel, &t, NULL, &l, &o) == GPUCOMPILE_OK);
        if (!o) continue;
        snprintf(name, sizeof name, "ours_%s_%s.hsaco", cases[i].kernel, cases[i].chip);
        save(name, o, ours, sizeof ours);
        snprintf(name, sizeof name, "ref_%s_%s", cases[i].kernel, cases[i].chip);
        reference(cases[i].kernel, cases[i].chip, cases[i].mattr, cases[i].libs, name);
        snprintf(ref, sizeof ref, "%s/%s", tmpdir, name);
        CHECK_MSG(same_file(ours, ref), "%s differs from %s", ours, ref);
        gpucompile_object_free(o);
    }
}

/* A fake ROCm root whose bitcode directory (at layout) has only ocml.bc and ockl.bc. */
static void fake_root(const char *root, const char *layout) {
    char cmd[2048];
    int st;
    char *o;
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/%s && ln -s " BITCODE "/ocml.bc " BITCODE "/ockl.bc %s/%s/",
             root, root, layout, root, layout);
    o = t_sh(cmd, &st);
    CHECK(st == 0);
    free(o);
}

/* Without any oclc file every control variable is defined by hand: the hsaco is the same. */
static void test_defined_controls_equal_files(void) {
    static const char *const chips[] = {"gfx90a", "gfx1030"};
    char root[512];
    size_t c;
    if (!have_libs) SKIP("no ROCm device libraries in " BITCODE);
    snprintf(root, sizeof root, "%s/fakerocm", tmpdir);
    fake_root(root, "amdgcn/bitcode");
    for (c = 0; c < 2; c++) {
        gpucompile_target t = amd(chips[c]);
        gpucompile_options opts;
        gpucompile_object *real = NULL, *byhand = NULL;
        t_log l;
        char needle[128];
        CHECK(compile("math", &t, NULL, &l, &real) == GPUCOMPILE_OK);
        CHECK(l.remarks == 0); /* every file exists for these chips */
        memset(&opts, 0, sizeof opts);
        opts.toolkit_path = root;
        CHECK(compile("math", &t, &opts, &l, &byhand) == GPUCOMPILE_OK);
        snprintf(needle, sizeof needle, "defined __oclc_ISA_version = %s in the module", c == 0 ? "9010" : "10300");
        CHECK_LOG(&l, needle);
        CHECK_LOG(&l, "oclc_isa_version_");
        CHECK_LOG(&l, "defined __oclc_daz_opt = 0");
        CHECK_LOG(&l, "defined __oclc_correctly_rounded_sqrt32 = 1");
        CHECK_LOG(&l, "defined __oclc_ABI_version = 500");
        CHECK(l.remarks == 7);
        CHECK(real && byhand && real->size == byhand->size && memcmp(real->data, byhand->data, real->size) == 0);
        gpucompile_object_free(real);
        gpucompile_object_free(byhand);
    }
}

/* The other layouts and the environment. */
static void test_library_search(void) {
    char root[512];
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    static const char *const layouts[] = {"lib/llvm/amdgcn/bitcode", "lib/llvm/lib/clang/19/lib/amdgcn/bitcode",
                                          "lib/x86_64-linux-gnu/amdgcn/bitcode"};
    size_t i;
    if (!have_libs) SKIP("no ROCm device libraries in " BITCODE);
    snprintf(root, sizeof root, "%s/fakerocm2", tmpdir);
    for (i = 0; i < 3; i++) {
        char needle[1024];
        fake_root(root, layouts[i]);
        memset(&opts, 0, sizeof opts);
        opts.toolkit_path = root;
        CHECK(compile("math", &t, &opts, &l, &o) == GPUCOMPILE_OK);
        snprintf(needle, sizeof needle, "%s/%s/oclc_isa_version_90a.bc is missing", root, layouts[i]);
        CHECK_LOG(&l, needle);
        gpucompile_object_free(o);
        o = NULL;
    }
    /* ROCM_PATH is used when no toolkit path is given */
    setenv("ROCM_PATH", root, 1);
    CHECK(compile("math", &t, NULL, &l, &o) == GPUCOMPILE_OK);
    CHECK_LOG(&l, "fakerocm2/lib/x86_64-linux-gnu/amdgcn/bitcode/oclc_daz_opt_off.bc is missing");
    gpucompile_object_free(o);
    o = NULL;
    /* ROCM_PATH without libraries: the next places (Debian's) are searched */
    setenv("ROCM_PATH", "/nonexistent-rocm-path", 1);
    CHECK(compile("math", &t, NULL, &l, &o) == GPUCOMPILE_OK);
    CHECK(l.remarks == 0);
    gpucompile_object_free(o);
    unsetenv("ROCM_PATH");
}

static void test_missing_libraries(void) {
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.toolkit_path = "/nonexistent-rocm";
    CHECK(compile("math", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_TOOLKIT_NOT_FOUND);
    CHECK(o == NULL);
    CHECK_LOG(&l, "/nonexistent-rocm/amdgcn/bitcode");
    CHECK_LOG(&l, "/nonexistent-rocm/lib/llvm/amdgcn/bitcode");
    CHECK_LOG(&l, "/nonexistent-rocm/lib/llvm/lib/clang/*/lib/amdgcn/bitcode");
    CHECK_LOG(&l, "/nonexistent-rocm/lib/x86_64-linux-gnu/amdgcn/bitcode");
    /* a kernel that calls no device library does not need them */
    memset(&opts, 0, sizeof opts);
    opts.toolkit_path = "/nonexistent-rocm";
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    CHECK(l.errors == 0);
    gpucompile_object_free(o);
    CHECK(no_temp_files());
}

/* Reads the control variables as linked (before optimization folds them away). */
typedef struct controls { int daz, unsafe, finite, sqrt, wave64, isa, abi; } controls;
static int read_control(LLVMModuleRef m, const char *name) {
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    LLVMValueRef init = g && !LLVMIsDeclaration(g) ? LLVMGetInitializer(g) : NULL;
    return init ? (int)LLVMConstIntGetSExtValue(init) : -1;
}
static gpucompile_result grab_controls(gpucompile_job *job, LLVMModuleRef m, void *user) {
    controls *c = (controls *)user;
    (void)job;
    c->daz = read_control(m, "__oclc_daz_opt");
    c->unsafe = read_control(m, "__oclc_unsafe_math_opt");
    c->finite = read_control(m, "__oclc_finite_only_opt");
    c->sqrt = read_control(m, "__oclc_correctly_rounded_sqrt32");
    c->wave64 = read_control(m, "__oclc_wavefrontsize64");
    c->isa = read_control(m, "__oclc_ISA_version");
    c->abi = read_control(m, "__oclc_ABI_version");
    return GPUCOMPILE_OK;
}

/* A kernel that reaches every control variable: ocml's exp (daz, unsafe math), sin (finite
   only), sqrt (correctly rounded sqrt), ockl's local size (ABI version) and active lane (wave size). */
static const char *controls_ir =
    "target triple = \"amdgcn-amd-amdhsa\"\n"
    "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n"
    "  %v = load float, ptr addrspace(1) %p\n"
    "  %e = call float @__ocml_exp_f32(float %v)\n"
    "  %q = call float @__ocml_sqrt_f32(float %e)\n"
    "  %w = call float @__ocml_sin_f32(float %q)\n"
    "  store float %w, ptr addrspace(1) %p\n"
    "  %n = call i64 @__ockl_get_local_size(i32 0)\n"
    "  %l = call i32 @__ockl_activelane_u32()\n"
    "  %n32 = trunc i64 %n to i32\n"
    "  %s = add i32 %n32, %l\n"
    "  %pi = getelementptr i32, ptr addrspace(1) %p, i64 1\n"
    "  store i32 %s, ptr addrspace(1) %pi\n"
    "  ret void\n}\n"
    "declare float @__ocml_exp_f32(float)\ndeclare float @__ocml_sqrt_f32(float)\ndeclare float @__ocml_sin_f32(float)\n"
    "declare i64 @__ockl_get_local_size(i32)\ndeclare i32 @__ockl_activelane_u32()\n";

/* Compiles controls_ir for chip with flags; returns the controls and the hsaco (caller frees). */
static gpucompile_object *math_with(const char *chip, const char *const *flags, int n, const char *abi, controls *c) {
    gpucompile_target t = amd(chip);
    gpucompile_options opts;
    gpucompile_hooks h;
    gpucompile_object *o = NULL;
    t_log l;
    t.flags = flags;
    t.num_flags = n;
    t.abi = abi;
    memset(&opts, 0, sizeof opts);
    memset(&h, 0, sizeof h);
    h.post_link = grab_controls;
    h.user_data = c;
    opts.hooks = &h;
    opts.logger = t_logger(&l);
    memset(c, 0, sizeof *c);
    CHECK_MSG(gpucompile_compile_ir(controls_ir, strlen(controls_ir), "controls.ll", &t, &opts, &o) == GPUCOMPILE_OK, "%s", l.text);
    return o;
}

static void test_flags_select_controls(void) {
    static const char *const daz[] = {"daz"}, *const fast[] = {"fast"}, *const unsafe_sqrt[] = {"unsafe_sqrt"};
    static const char *const wave64[] = {"wave64"}, *const finite[] = {"finite_only", "unsafe_math"};
    controls c;
    gpucompile_object *base, *o;
    if (!have_libs) SKIP("no ROCm device libraries in " BITCODE);
    base = math_with("gfx90a", NULL, 0, NULL, &c);
    CHECK_MSG(c.daz == 0 && c.unsafe == 0 && c.finite == 0 && c.sqrt == 1 && c.wave64 == 1 && c.isa == 9010 && c.abi == 500,
              "%d %d %d %d %d %d %d", c.daz, c.unsafe, c.finite, c.sqrt, c.wave64, c.isa, c.abi);
    o = math_with("gfx90a", daz, 1, NULL, &c);
    CHECK(c.daz == 1 && c.unsafe == 0 && c.finite == 0);
    CHECK(base && o && (base->size != o->size || memcmp(base->data, o->data, o->size) != 0)); /* daz changes the code */
    gpucompile_object_free(o);
    o = math_with("gfx90a", fast, 1, NULL, &c);
    CHECK(c.daz == 0 && c.unsafe == 1 && c.finite == 1 && c.sqrt == 1);
    CHECK(base && o && (base->size != o->size || memcmp(base->data, o->data, o->size) != 0));
    gpucompile_object_free(o);
    o = math_with("gfx90a", finite, 2, NULL, &c);
    CHECK(c.unsafe == 1 && c.finite == 1);
    gpucompile_object_free(o);
    o = math_with("gfx90a", unsafe_sqrt, 1, NULL, &c);
    CHECK(c.sqrt == 0);
    gpucompile_object_free(o);
    o = math_with("gfx1100", NULL, 0, NULL, &c);
    CHECK(c.wave64 == 0 && c.isa == 11000);
    CHECK(o && o->num_kernels == 1 && o->kernels[0].wavefront_size == 32);
    gpucompile_object_free(o);
    o = math_with("gfx1100", wave64, 1, "400", &c);
    CHECK(c.wave64 == 1 && c.abi == 400);
    CHECK(o && o->num_kernels == 1 && o->kernels[0].wavefront_size == 64);
    gpucompile_object_free(o);
    o = math_with("gfx942", NULL, 0, NULL, &c);
    CHECK(c.isa == 9402 && c.wave64 == 1);
    gpucompile_object_free(o);
    gpucompile_object_free(base);
}

/* wave64 on gfx1100 gives .wavefront_size: 64 (default 32); abi 400 gives code object v4. */
static void test_wave_and_abi(void) {
    static const char *const wave64[] = {"wave64"};
    struct { const char *chip; const char *const *flags; int n; const char *abi; int wave; int abiversion; const char *version; } cases[5];
    size_t i;
    cases[0].chip = "gfx1100"; cases[0].flags = NULL; cases[0].n = 0; cases[0].abi = NULL; cases[0].wave = 32;
    cases[1].chip = "gfx1100"; cases[1].flags = wave64; cases[1].n = 1; cases[1].abi = NULL; cases[1].wave = 64;
    cases[2].chip = "gfx90a"; cases[2].flags = wave64; cases[2].n = 1; cases[2].abi = "400"; cases[2].wave = 64;
    cases[3].chip = "gfx1030"; cases[3].flags = NULL; cases[3].n = 0; cases[3].abi = "500"; cases[3].wave = 32;
    cases[4].chip = "gfx11-generic"; cases[4].flags = NULL; cases[4].n = 0; cases[4].abi = "600"; cases[4].wave = 32;
    for (i = 0; i < 5; i++) {
        cases[i].abiversion = !cases[i].abi ? 3 : strcmp(cases[i].abi, "400") == 0 ? 2 : strcmp(cases[i].abi, "600") == 0 ? 4 : 3;
        cases[i].version = cases[i].abiversion == 2 ? "amdhsa.version:\n  - 1\n  - 1\n" : "amdhsa.version:\n  - 1\n  - 2\n";
    }
    for (i = 0; i < 5; i++) {
        gpucompile_target t = amd(cases[i].chip);
        gpucompile_object *o = NULL;
        t_log l;
        char path[512], *notes;
        int st;
        t.flags = cases[i].flags;
        t.num_flags = cases[i].n;
        t.abi = cases[i].abi;
        CHECK_MSG(compile("reduce", &t, NULL, &l, &o) == GPUCOMPILE_OK, "%s", l.text);
        if (!o) continue;
        CHECK(o->data[8] == cases[i].abiversion); /* EI_ABIVERSION: 2 = HSA v4, 3 = v5, 4 = v6 */
        save("wave.hsaco", o, path, sizeof path);
        notes = sh(&st, "llvm-readelf --notes %s%s", path, "");
        CHECK_MSG(notes && yaml_int(strstr(notes, "amdhsa.kernels"), ".wavefront_size") == cases[i].wave, "case %zu: %s", i, notes ? notes : "");
        CHECK_MSG(notes && strstr(notes, cases[i].version), "case %zu: %s", i, notes ? notes : "");
        CHECK(o->kernels && o->kernels[0].wavefront_size == cases[i].wave);
        free(notes);
        gpucompile_object_free(o);
    }
}

/* Every chip of the table (exactly llc's list, test_target checks) gives a code object that
   ld.lld links (the compile runs it, --no-undefined) and whose note names that chip; the
   generic targets with abi "600" (code object v6, ELF ABI version 4). */
static void test_every_chip(void) {
    const char *chip;
    int i;
    for (i = 0; (chip = gpucompile_chip_name(GPUCOMPILE_TARGET_AMDGPU, i, NULL)) != NULL; i++) {
        gpucompile_target t = amd(chip);
        gpucompile_object *o = NULL;
        t_log l;
        char path[512], want[96], *notes;
        int st, generic = strstr(chip, "-generic") != NULL;
        if (generic) t.abi = "600";
        CHECK_MSG(compile("reduce", &t, NULL, &l, &o) == GPUCOMPILE_OK, "%s: %s", chip, l.text);
        if (!o) continue;
        CHECK_MSG(o->data[8] == (generic ? 4 : 3), "%s: ELF ABI version %d", chip, o->data[8]);
        save("chip.hsaco", o, path, sizeof path);
        notes = sh(&st, "llvm-readelf --notes %s%s", path, "");
        snprintf(want, sizeof want, "amdgcn-amd-amdhsa--%s", chip);
        CHECK_MSG(notes && strstr(notes, want), "%s: the note lacks %s", chip, want);
        free(notes);
        gpucompile_object_free(o);
    }
    CHECK(i > 40);
}

/* An input that already says code object v4 gets the target's v5: the flag is replaced. */
static void test_existing_flag_replaced(void) {
    static const char *ir =
        "target triple = \"amdgcn-amd-amdhsa\"\n"
        "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n"
        "!llvm.module.flags = !{!0}\n!0 = !{i32 1, !\"amdhsa_code_object_version\", i32 400}\n";
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.logger = t_logger(&l);
    CHECK_MSG(gpucompile_compile_ir(ir, strlen(ir), "flag.ll", &t, &opts, &o) == GPUCOMPILE_OK, "%s", l.text);
    CHECK(o && o->data[8] == 3);
    gpucompile_object_free(o);
    o = NULL;
    t.abi = "400";
    CHECK(gpucompile_compile_ir(ir, strlen(ir), "flag.ll", &t, &opts, &o) == GPUCOMPILE_OK);
    CHECK(o && o->data[8] == 2);
    gpucompile_object_free(o);
}

/* Target IDs, one reader for three users: the chip check (target verification), run-time
   selection's device names, and the compile (the ID's features become target features, the
   note says the ID back in LLVM's order). Valid forms, both signs, both orders, a generic
   target; a repeated feature, an unknown one, no sign and empty parts are refused by all. */
static void test_target_ids(void) {
    static const struct { const char *id, *note; } ok[] = {
        {"gfx90a:xnack+", "gfx90a:xnack+"}, {"gfx90a:xnack-", "gfx90a:xnack-"}, {"gfx942:sramecc-:xnack+", "gfx942:sramecc-:xnack+"},
        {"gfx942:xnack+:sramecc-", "gfx942:sramecc-:xnack+"}, {"gfx90a:sramecc+", "gfx90a:sramecc+"},
        {"gfx9-generic:xnack-", "gfx9-generic:xnack-"}};
    static const char *const bad[] = {"gfx90a:xnack+:xnack-", "gfx90a:xnack+:xnack+", "gfx942:sramecc-:xnack+:sramecc-",
        "gfx90a:foo+", "gfx90a:xnack", "gfx90a:xnack*", "gfx90a:", "gfx90a::xnack+", "gfx90a:+", "gfx90a:xnack+:"};
    gpucompile_binary *bin = NULL;
    gpucompile_object *any = NULL;
    gpucompile_device d;
    size_t i;
    int index;
    CHECK(gpucompile_object_create("#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "x", 1, NULL, &any) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_create("ids", NULL, &bin) == GPUCOMPILE_OK && gpucompile_binary_add(bin, any) == GPUCOMPILE_OK);
    d.compute_capability = 0;
    for (i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        gpucompile_target t = amd(ok[i].id);
        gpucompile_object *o = NULL;
        gpucompile_result r;
        t_log l;
        char path[512], needle[128], *notes;
        int st;
        CHECK_MSG(gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, ok[i].id), "%s", ok[i].id);
        d.arch = ok[i].id;
        r = gpucompile_binary_select(bin, &d, NULL, &index);
        CHECK_MSG(r == GPUCOMPILE_OK || r == GPUCOMPILE_ERROR_NO_OBJECT, "device %s: %s", ok[i].id, gpucompile_result_string(r));
        if (strstr(ok[i].id, "-generic")) t.abi = "600";
        CHECK_MSG(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_OK, "%s: %s", ok[i].id, l.text);
        if (!o) continue;
        CHECK(l.warnings == 0);
        save("tid.hsaco", o, path, sizeof path);
        notes = sh(&st, "llvm-readelf --notes %s%s", path, "");
        snprintf(needle, sizeof needle, "amdhsa.target:   'amdgcn-amd-amdhsa--%s'\n", ok[i].note);
        CHECK_MSG(notes && strstr(notes, needle), "%s", notes ? notes : "");
        free(notes);
        gpucompile_object_free(o);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        gpucompile_target t = amd(bad[i]);
        gpucompile_object *o = NULL;
        t_log l;
        gpucompile_logger lg = t_logger(&l);
        CHECK_MSG(!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, bad[i]), "%s", bad[i]);
        d.arch = bad[i];
        CHECK_MSG(gpucompile_binary_select(bin, &d, &lg, &index) == GPUCOMPILE_ERROR_INVALID_ARGUMENT, "device %s", bad[i]);
        CHECK_LOG(&l, "unknown device");
        CHECK_MSG(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET && !o, "%s", bad[i]);
        CHECK_LOG(&l, "is not supported by");
    }
    /* the chip must have the feature (the chip table's say): on the device side any gfx name goes */
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, "gfx1100:xnack+"));
    d.arch = "gfx1100:xnack+";
    CHECK(gpucompile_binary_select(bin, &d, NULL, &index) == GPUCOMPILE_ERROR_NO_OBJECT);
    gpucompile_binary_free(bin);
}

static void test_formats(void) {
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile("reduce", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    if (o) {
        CHECK(o->data[o->size] == 0);
        CHECK(strstr((char *)o->data, ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a\"") != NULL);
        CHECK(strstr((char *)o->data, "s_barrier") != NULL && strstr((char *)o->data, "ds_write") != NULL);
        gpucompile_object_free(o);
    }
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    CHECK(o && o->size > 4 && o->data[0] == 'B' && o->data[1] == 'C');
    gpucompile_object_free(o);
    memset(&opts, 0, sizeof opts);
    opts.format = GPUCOMPILE_FORMAT_FATBIN;
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_UNSUPPORTED);
}

static void test_refusals(void) {
    static const char *const no64[] = {"no_wave64"}, *const both[] = {"wave64", "no_wave64"};
    gpucompile_target t = amd("gfx90a");
    gpucompile_object *o = NULL;
    t_log l;
    t.flags = no64;
    t.num_flags = 1;
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK_LOG(&l, "wave64 only");
    t = amd("gfx1100");
    t.flags = both;
    t.num_flags = 2;
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK_LOG(&l, "contradict");
    t = amd("gfx1100");
    t.flags = no64; /* fine on gfx10+: wave32 */
    t.num_flags = 1;
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_OK);
    CHECK(o && o->kernels[0].wavefront_size == 32);
    gpucompile_object_free(o);
    t = amd("gfx90a");
    t.abi = "300";
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK(strstr(l.text, "abi '300'") || strstr(l.text, "ABI version")); /* ours, or the target verification's */
    t = amd("gfx90a:xnack*");
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK(strstr(l.text, "not a target-ID feature") || strstr(l.text, "not supported"));
    CHECK(o == NULL);
}

/* gfx9999 would abort inside LLVM: it must be refused before (by the target's verification). */
static void test_unknown_chip(void) {
    gpucompile_target t = amd("gfx9999");
    gpucompile_object *o = NULL;
    t_log l;
    int known = gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, "gfx9999");
    CHECK_MSG(!known, "the chip table accepts gfx9999");
    if (known) return; /* compiling it would abort the process */
    CHECK(compile("saxpy", &t, NULL, &l, &o) == GPUCOMPILE_ERROR_INVALID_TARGET);
    CHECK(o == NULL && l.errors > 0);
    CHECK(gpucompile_target_verify(&t, NULL) == GPUCOMPILE_ERROR_INVALID_TARGET);
}

static void test_undefined_function(void) {
    static const char *ir =
        "target triple = \"amdgcn-amd-amdhsa\"\n"
        "declare float @my_missing_helper(float)\n"
        "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n"
        "  %v = load float, ptr addrspace(1) %p\n  %r = call float @my_missing_helper(float %v)\n"
        "  store float %r, ptr addrspace(1) %p\n  ret void\n}\n";
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_object *o = NULL;
    t_log l;
    memset(&opts, 0, sizeof opts);
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_ir(ir, strlen(ir), "undef.ll", &t, &opts, &o) == GPUCOMPILE_ERROR_UNRESOLVED);
    CHECK_LOG(&l, "my_missing_helper");
    CHECK(o == NULL);
}

/* The ld.lld override: a missing path, a failing tool, a tool that warns. */
static void test_lld_override(void) {
    gpucompile_target t = amd("gfx90a");
    gpucompile_options opts;
    gpucompile_tool_path tool;
    gpucompile_object *o = NULL;
    t_log l;
    char script[512];
    FILE *f;
    memset(&opts, 0, sizeof opts);
    tool.name = "ld.lld";
    tool.path = "/nonexistent/ld.lld";
    opts.tools = &tool;
    opts.num_tools = 1;
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_TOOL);
    CHECK_LOG(&l, "/nonexistent/ld.lld");
    tool.path = "/bin/false";
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_ERROR_TOOL);
    CHECK_LOG(&l, "ld.lld failed (exit 1)");
    snprintf(script, sizeof script, "%s/warn-lld.sh", tmpdir);
    f = fopen(script, "w");
    if (f) {
        fputs("#!/bin/sh\necho 'warning: a word from the linker' >&2\nexec ld.lld \"$@\"\n", f);
        fclose(f);
    }
    chmod(script, 0755);
    tool.path = script;
    CHECK(compile("saxpy", &t, &opts, &l, &o) == GPUCOMPILE_OK);
    CHECK_LOG(&l, "warning: ld.lld: warning: a word from the linker");
    CHECK(o && o->data[16] == 3);
    gpucompile_object_free(o);
    CHECK(no_temp_files());
}

/* The note reader on every prefix of a real hsaco and on damaged copies: no crash, no read
   outside the buffer (each copy is exactly its size, for the sanitizer build). */
static void test_metadata_reader(void) {
    gpucompile_target t = amd("gfx90a");
    gpucompile_object *o = NULL;
    gpucompile_kernel k;
    t_log l;
    size_t n, i;
    unsigned seed = 12345;
    int ok = 0;
    CHECK(compile("reduce", &t, NULL, &l, &o) == GPUCOMPILE_OK);
    if (!o) return;
    CHECK(gpucompile_amdgpu_kernel_metadata(o->data, o->size, "reduce", &k) == GPUCOMPILE_OK);
    CHECK(k.shared_bytes == 1024 && k.wavefront_size == 64 && k.kernarg_bytes > 0 && k.vgprs > 0);
    CHECK(gpucompile_amdgpu_kernel_metadata(o->data, o->size, "nope", &k) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK(gpucompile_amdgpu_kernel_metadata(o->data, 10, "reduce", &k) == GPUCOMPILE_ERROR_INVALID_BINARY);
    for (n = 0; n < o->size; n++) {
        unsigned char *copy = (unsigned char *)malloc(n ? n : 1);
        memcpy(copy, o->data, n);
        ok += gpucompile_amdgpu_kernel_metadata(copy, n, "reduce", &k) == GPUCOMPILE_OK;
        free(copy);
    }
    CHECK(ok < (int)o->size); /* short prefixes fail */
    for (i = 0; i < 20000; i++) {
        unsigned char *copy = (unsigned char *)malloc(o->size);
        int flips = 1 + (int)(i % 4), f;
        memcpy(copy, o->data, o->size);
        for (f = 0; f < flips; f++) {
            seed = seed * 1103515245u + 12345u;
            copy[(seed >> 8) % o->size] = (unsigned char)(seed >> 3);
        }
        (void)gpucompile_amdgpu_kernel_metadata(copy, o->size, "reduce", &k);
        free(copy);
    }
    gpucompile_object_free(o);
}

/* The public ELF section reader on a real hsaco: llvm-readelf's sections, then a truncated
   copy and corrupt ones (each copy exactly its size, for the sanitizer build). */
static void test_elf_reader(void) {
    gpucompile_target t = amd("gfx90a");
    gpucompile_object *o = NULL;
    gpucompile_elf_section s;
    t_log l;
    char path[512], want[64], *sections, *count;
    const char *why = NULL;
    unsigned char *copy;
    unsigned n, i;
    int st, seen = 0;
    CHECK(compile("reduce", &t, NULL, &l, &o) == GPUCOMPILE_OK);
    if (!o) return;
    save("elf.hsaco", o, path, sizeof path);
    sections = sh(&st, "llvm-readelf -S -W %s%s", path, "");
    count = sh(&st, "llvm-readelf -h %s | sed -n 's/.*Number of section headers: *//p'%s", path, "");
    n = gpucompile_elf_sections(o->data, o->size, &why);
    CHECK_MSG(count && n > 5 && n == (unsigned)atoi(count), "%u sections, llvm-readelf: %s", n, count ? count : "");
    for (i = 1; i < n && sections; i++) { /* name, offset and size as llvm-readelf shows them */
        const char *line;
        CHECK(gpucompile_elf_read_section(o->data, o->size, i, &s) == NULL);
        snprintf(want, sizeof want, "] %s ", s.name);
        line = strstr(sections, want);
        snprintf(want, sizeof want, " %06llx %06llx ", (unsigned long long)s.offset, (unsigned long long)s.size);
        CHECK_MSG(line && strstr(line, want) && strstr(line, want) < strchr(line, '\n'), "section %u %s: no \"%s\"", i, s.name, want);
        CHECK(s.type == 8 ? s.data == NULL : s.data == o->data + s.offset);
        seen += !strcmp(s.name, ".text") && s.type == 1 && s.flags == 6;
    }
    CHECK(seen == 1);
    CHECK(gpucompile_elf_read_section(o->data, o->size, n, &s) != NULL && !strcmp(gpucompile_elf_read_section(o->data, o->size, n, &s), "no such section"));
    free(sections);
    free(count);
    /* truncated: the section headers are at the end */
    copy = (unsigned char *)malloc(o->size - 1);
    memcpy(copy, o->data, o->size - 1);
    CHECK(gpucompile_elf_sections(copy, o->size - 1, &why) == 0 && !strcmp(why, "bad section headers"));
    CHECK(gpucompile_elf_sections(copy, 63, &why) == 0 && !strcmp(why, "not an ELF64 little-endian file"));
    why = gpucompile_elf_read_section(copy, o->size - 1, 1, &s);
    CHECK(why && !strcmp(why, "bad section headers") && s.data == NULL && !strcmp(s.name, ""));
    free(copy);
    /* corrupt: the name table index, a section's offset and its name */
    copy = (unsigned char *)malloc(o->size);
    memcpy(copy, o->data, o->size);
    copy[62] = (unsigned char)n; copy[63] = (unsigned char)(n >> 8);
    CHECK(gpucompile_elf_sections(copy, o->size, &why) == 0 && !strcmp(why, "bad section name table"));
    memcpy(copy, o->data, o->size);
    {
        size_t h;
        CHECK(gpucompile_elf_read_section(copy, o->size, 1, &s) == NULL);
        h = s.header;
        memset(copy + h + 24, 0xff, 8); /* its offset */
        why = gpucompile_elf_read_section(copy, o->size, 1, &s);
        CHECK(why && !strcmp(why, "a section outside the file") && s.data == NULL && s.header == h && s.name[0] == '.');
        copy[h + 4] = 8; copy[h + 5] = copy[h + 6] = copy[h + 7] = 0; /* SHT_NOBITS: no contents to check */
        CHECK(gpucompile_elf_read_section(copy, o->size, 1, &s) == NULL && s.data == NULL && s.type == 8);
        memset(copy + h, 0xff, 4); /* its name */
        why = gpucompile_elf_read_section(copy, o->size, 1, &s);
        CHECK(why && !strcmp(why, "bad section name") && !strcmp(s.name, ""));
        CHECK(gpucompile_elf_read_section(copy, o->size, 2, &s) == NULL); /* the others stay readable */
    }
    free(copy);
    gpucompile_object_free(o);
}

int main(void) {
    struct stat sb;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gpucompile-test-amdgpu-XXXXXX");
    if (!mkdtemp(tmpdir) || !getcwd(cwd, sizeof cwd)) {
        printf("cannot create %s\n", tmpdir);
        return 1;
    }
    setenv("TMPDIR", tmpdir, 1); /* the library's temp files go here: checked to be removed */
    have_libs = stat(BITCODE "/ocml.bc", &sb) == 0;
    unsetenv("ROCM_PATH");
    unsetenv("ROCM_HOME");
    unsetenv("ROCM_ROOT");
    RUN(test_three_kernels_three_chips);
    RUN(test_equals_llvm_tools);
    RUN(test_defined_controls_equal_files);
    RUN(test_library_search);
    RUN(test_missing_libraries);
    RUN(test_flags_select_controls);
    RUN(test_wave_and_abi);
    RUN(test_every_chip);
    RUN(test_existing_flag_replaced);
    RUN(test_target_ids);
    RUN(test_formats);
    RUN(test_refusals);
    RUN(test_unknown_chip);
    RUN(test_undefined_function);
    RUN(test_lld_override);
    RUN(test_metadata_reader);
    RUN(test_elf_reader);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
        free(t_sh(cmd, NULL));
    }
    return TEST_END("amdgpu");
}
