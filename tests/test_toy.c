/* One backend more, with no edit outside its header: tests/toy_backend.h, included here and
   nowhere else, gets --help text (gpucompile_targets_help), file extensions, compiles in this
   program's own workers (gpucompile_worker_main below), owns the offload entries of its triples
   and is chosen at run time. Beside it: the one lookup of an object's backend, with several
   custom backends registered (SPIR-V, the toy, examples/05's host), and triple patterns. */
#include "test.h"
#include "gpucompile_spirv.h"
#include "gpucompile_vulkan.h"
#include "toy_backend.h"
#include "../examples/05_host_backend.h"

#define TOY "#toy.cpu<chip = \"generic\">"

static const char toy_ir[] =
    "define void @scale(ptr %x, float %a) {\n"
    "  %v = load float, ptr %x\n"
    "  %m = fmul float %v, %a\n"
    "  store float %m, ptr %x\n"
    "  ret void\n"
    "}\n";

static char self[4096];

static gpucompile_target *toy_target(void) {
    gpucompile_target *t = NULL;
    CHECK(gpucompile_target_parse(TOY, (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_OK);
    return t;
}

static void test_help_and_extensions(void) {
    char help[8192];
    gpucompile_target *t = toy_target();
    size_t n = gpucompile_targets_help(help, sizeof help);
    CHECK(n > 0 && n < sizeof help);
    CHECK_MSG(strstr(help, "#toy.cpu<...>") && strstr(help, "tests/toy_backend.h") && strstr(help, "bin (.toyo)"), "%s", help);
    CHECK_MSG(strstr(help, "#gpu.spirv<...>, #xevm.target<...>") && strstr(help, "#gpu.nvptx<...>, #nvvm.target<...>"), "%s", help);
    CHECK(gpucompile_targets_help(NULL, 0) == n);
    if (!t) return;
    CHECK_STR(gpucompile_format_ext(t, GPUCOMPILE_FORMAT_BIN), "toyo");
    CHECK_STR(gpucompile_format_ext(t, GPUCOMPILE_FORMAT_DEFAULT), "toyo");
    CHECK_STR(gpucompile_format_ext(t, GPUCOMPILE_FORMAT_ISA), "toys");
    CHECK_STR(gpucompile_format_ext(t, GPUCOMPILE_FORMAT_LLVM), "bc");
    gpucompile_target_free(t);
}

/* options.isolate (`self --worker` per compile) and options.workers: the worker is this program,
   which has the toy backend, so the isolated compile gives the in-process bytes. */
static void test_isolation(void) {
    gpucompile_target *t = toy_target();
    gpucompile_options o;
    gpucompile_object *in = NULL, *iso = NULL, *pooled = NULL;
    gpucompile_workers *w = NULL;
    t_log l;
    if (!t) return;
    memset(&o, 0, sizeof o);
    o.logger = t_logger(&l);
    o.format = GPUCOMPILE_FORMAT_BIN;
    CHECK_MSG(gpucompile_compile_ir(toy_ir, sizeof toy_ir - 1, "toy.ll", t, &o, &in) == GPUCOMPILE_OK, "%s", l.text);
    o.isolate = self;
    CHECK_MSG(gpucompile_compile_ir(toy_ir, sizeof toy_ir - 1, "toy.ll", t, &o, &iso) == GPUCOMPILE_OK, "%s", l.text);
    o.isolate = NULL;
    if (gpucompile_workers_create(1, self, &w) == GPUCOMPILE_OK) {
        o.workers = w;
        CHECK_MSG(gpucompile_compile_ir(toy_ir, sizeof toy_ir - 1, "toy.ll", t, &o, &pooled) == GPUCOMPILE_OK, "%s", l.text);
        gpucompile_workers_free(w);
    }
    CHECK(in && iso && in->size == iso->size && memcmp(in->data, iso->data, in->size) == 0);
    CHECK(!w || (pooled && in && pooled->size == in->size && memcmp(in->data, pooled->data, in->size) == 0));
    CHECK(in && in->num_kernels == 1 && strcmp(in->kernels[0].name, "scale") == 0);
    gpucompile_object_free(in);
    gpucompile_object_free(iso);
    gpucompile_object_free(pooled);
    gpucompile_target_free(t);
}

/* One offload entry without gpucompile's strings (another program's): triple, arch, image. */
static size_t foreign_entry(unsigned char *out, const char *triple, const char *arch, int kind, const void *image, size_t image_size) {
    size_t strings = 72, text = strings + 32, at = text, img, total, i;
    const char *s[4];
    uint64_t off[4];
    s[0] = "triple"; s[1] = triple; s[2] = "arch"; s[3] = arch;
    memset(out, 0, 4096);
    for (i = 0; i < 4; i++) { off[i] = at; memcpy(out + at, s[i], strlen(s[i]) + 1); at += strlen(s[i]) + 1; }
    img = (at + 7) & ~(size_t)7;
    memcpy(out + img, image, image_size);
    total = (img + image_size + 7) & ~(size_t)7;
#define PUT(p, v, n) do { uint64_t v_ = (v); int k_; for (k_ = 0; k_ < (n); k_++) (p)[k_] = (unsigned char)(v_ >> (8 * k_)); } while (0)
    memcpy(out, "\x10\xFF\x10\xAD", 4);
    PUT(out + 4, 1, 4);
    PUT(out + 8, total, 8);
    PUT(out + 16, 32, 8);
    PUT(out + 24, 40, 8);
    PUT(out + 32, kind, 2);
    PUT(out + 40, strings, 8);
    PUT(out + 48, 2, 8);
    PUT(out + 56, img, 8);
    PUT(out + 64, image_size, 8);
    for (i = 0; i < 4; i++) PUT(out + strings + 8 * i, off[i], 8);
#undef PUT
    return total;
}

/* A SPIR-V module with one OpEntryPoint Kernel "k": what gpucompile_spirv.h's find_kernels reads. */
static const unsigned char spirv_module[] = {
    0x03, 0x02, 0x23, 0x07, 0x00, 0x00, 0x01, 0x00, 0, 0, 0, 0, 0x10, 0, 0, 0, 0, 0, 0, 0,
    0x0F, 0x00, 0x04, 0x00, 0x06, 0, 0, 0, 0x01, 0, 0, 0, 'k', 0, 0, 0};

/* The backend of an object: a SPIR-V object from bytes is SPIR-V's, whichever custom backend
   was registered last (examples/05's host, in main), so its kernel is found. */
static void test_object_backend(void) {
    gpucompile_object *o = NULL;
    CHECK(gpucompile_object_create("#gpu.spirv", GPUCOMPILE_FORMAT_BIN, spirv_module, sizeof spirv_module, NULL, &o) == GPUCOMPILE_OK);
    CHECK(o && gpucompile_object_find_kernels(o) == GPUCOMPILE_OK && o->num_kernels == 1 && strcmp(o->kernels[0].name, "k") == 0);
    gpucompile_object_free(o);
}

/* Offload entries of another writer go to the backend whose triples hold theirs (the
   environment decides among one architecture's), and the device "toy" selects the toy's. */
static void test_triples_and_selection(void) {
    static unsigned char buf[3 * 4096];
    const gpucompile_backend *spirv = gpucompile_spirv_backend();
    gpucompile_binary *b = NULL;
    gpucompile_device d;
    char triple[160];
    const char *host_triple = gpucompile_find_backend_named("toy.cpu", (size_t)-1, NULL)->defaults[0].triple;
    size_t n;
    int index = -1, spirv_ok = gpucompile_spirv_available();
    CHECK(gpucompile_triple_in(spirv->triples, "spirv64-unknown-unknown") && gpucompile_triple_in(spirv->triples, "spirv64"));
    CHECK(!gpucompile_triple_in(spirv->triples, "spirv1.6-unknown-vulkan1.3-compute"));
    CHECK(!gpucompile_triple_in(spirv->triples, "spirv-unknown-vulkan1.3-compute"));
    CHECK(gpucompile_triple_in("*-*-*-toy", host_triple) && !gpucompile_triple_in("*-*-*-toy", "x86_64-unknown-linux-gnu"));
    CHECK(gpucompile_triple_in("nvptx,nvptx64", "nvptx64-nvidia-cuda") && !gpucompile_triple_in("nvptx", "nvptx64-nvidia-cuda"));
    CHECK(gpucompile_triple_in("spirv*-*-vulkan*-compute", "spirv1.6-unknown-vulkan1.3-compute"));
    /* a SPIR-V object verifies only where LLVM has the SPIRV target (not Debian's LLVM 19) */
    n = spirv_ok ? foreign_entry(buf, "spirv64-unknown-unknown", "bmg", 6, spirv_module, sizeof spirv_module) : 0;
    snprintf(triple, sizeof triple, "%s", host_triple);
    n += foreign_entry(buf + n, triple, "generic", GPUCOMPILE_IMG_OBJECT, "\x7F" "ELF", 4);
    CHECK(gpucompile_binary_read_offload(buf, n, "foreign", NULL, NULL, &b) == GPUCOMPILE_OK);
    CHECK(b && b->num_objects == 1 + spirv_ok);
    if (b && b->num_objects == 1 + spirv_ok) {
        CHECK_MSG(!spirv_ok || strncmp(b->objects[0]->target, "#xevm.target", 12) == 0, "%s", b->objects[0]->target); /* MLIR's spelling */
        CHECK_MSG(strncmp(b->objects[spirv_ok]->target, "#toy.cpu", 8) == 0, "%s", b->objects[spirv_ok]->target);
        d.arch = "toy";
        d.compute_capability = 0;
        CHECK(gpucompile_binary_select(b, &d, NULL, &index) == GPUCOMPILE_OK && index == spirv_ok);
    }
    gpucompile_binary_free(b);
    b = NULL;
    /* Vulkan's SPIR-V is not OpenCL's: the Vulkan backend (gpucompile_vulkan.h) takes it */
    n = foreign_entry(buf, "spirv1.6-unknown-vulkan1.3-compute", "vulkan", 6, spirv_module, sizeof spirv_module);
    if (!gpucompile_vulkan_available()) { /* its objects verify only where LLVM has the SPIRV target */
        CHECK(gpucompile_binary_read_offload(buf, n, "foreign", NULL, NULL, &b) != GPUCOMPILE_OK && !b);
        return;
    }
    CHECK(gpucompile_binary_read_offload(buf, n, "foreign", NULL, NULL, &b) == GPUCOMPILE_OK && b && b->num_objects == 1);
    if (b && b->num_objects == 1)
        CHECK_MSG(gpucompile_find_backend_named(b->objects[0]->target + 1, strcspn(b->objects[0]->target + 1, "<"), NULL) ==
                      gpucompile_vulkan_backend(), "%s", b->objects[0]->target);
    gpucompile_binary_free(b);
}

/* The library's handler parser and every binary of a file (what the CLI calls). */
static void test_handler_and_read_all(void) {
    gpucompile_binary *b = NULL, **all = NULL;
    gpucompile_object *o = NULL;
    unsigned char *off = NULL;
    size_t n = 0;
    int num = 0, i;
    t_log l;
    gpucompile_logger g = t_logger(&l);
    CHECK(gpucompile_binary_create("h", NULL, &b) == GPUCOMPILE_OK);
    CHECK(gpucompile_object_create(TOY, GPUCOMPILE_FORMAT_BIN, "\x7F" "ELF", 4, NULL, &o) == GPUCOMPILE_OK);
    CHECK(b && o && gpucompile_binary_add(b, o) == GPUCOMPILE_OK);
    if (!b) return;
    CHECK(gpucompile_handler_parse("runtime", b, NULL) == GPUCOMPILE_OK && b->handler.kind == GPUCOMPILE_HANDLER_RUNTIME);
    CHECK(gpucompile_handler_parse("#gpu.select_object<1 : i64>", b, NULL) == GPUCOMPILE_OK && b->handler.kind == GPUCOMPILE_HANDLER_SELECT_INDEX &&
          b->handler.index == 1);
    CHECK(gpucompile_handler_parse("#gpu.select_object<" TOY ">", b, NULL) == GPUCOMPILE_OK &&
          b->handler.kind == GPUCOMPILE_HANDLER_SELECT_TARGET && strcmp(b->handler.target, TOY) == 0);
    CHECK(gpucompile_handler_parse("#gpu.select_object<#no.such>", NULL, &g) != GPUCOMPILE_OK && l.errors);
    CHECK(gpucompile_handler_parse("#gpu.select_object<1> x", NULL, NULL) != GPUCOMPILE_OK);
    CHECK(gpucompile_handler_parse("#gpu.select_object<-1>", NULL, NULL) != GPUCOMPILE_OK);
    CHECK(gpucompile_handler_parse("#gpucompile.runtime_select", NULL, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_handler_parse("#gpu.select_object<0>", b, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_write_offload(b, &off, &n) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_read_all(off, n, "x", NULL, NULL, &all, &num) == GPUCOMPILE_OK && num == 1);
    for (i = 0; i < num; i++) gpucompile_binary_free(all[i]);
    gpucompile_free(NULL, all);
    {
        static const char text[] = "gpu.binary @a [#gpu.object<#toy.cpu, bin = \"\">]\ngpu.binary @b [#gpu.object<#toy.cpu, bin = \"\">]\n";
        CHECK(gpucompile_binary_read_all(text, sizeof text - 1, "x", NULL, NULL, &all, &num) == GPUCOMPILE_OK && num == 2);
        CHECK(num == 2 && strcmp(all[0]->name, "a") == 0 && strcmp(all[1]->name, "b") == 0);
        for (i = 0; i < num; i++) gpucompile_binary_free(all[i]);
        gpucompile_free(NULL, all);
    }
    gpucompile_free(&b->allocator, off);
    gpucompile_binary_free(b);
}

int main(int argc, char **argv) {
    ssize_t k;
    if (argc == 2 && strcmp(argv[1], "--worker") == 0) return gpucompile_worker_main();
    k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0) snprintf(self, sizeof self, "%s", argv[0]);
    else self[k] = 0;
    if (host_backend_register() != GPUCOMPILE_OK) return 1; /* the last custom backend registered */
    RUN(test_isolation); /* first: workers fork before any thread */
    RUN(test_help_and_extensions);
    RUN(test_object_backend);
    RUN(test_triples_and_selection);
    RUN(test_handler_and_read_all);
    return TEST_END("toy");
}
