/* Binaries: the model and its verifier, MLIR's text form, LLVM's offload binary (written and
   read, with clang-offload-packager as the reference), parallel compiles, device selection. */
#include "test.h"
#include <llvm-c/IRReader.h>
#include <pthread.h>

/* A counting allocator: every test that frees must come back to zero live blocks. Locked:
   parallel compiles allocate from their worker threads. */
typedef struct counter { long live, total; } counter;
static pthread_mutex_t c_lock = PTHREAD_MUTEX_INITIALIZER;
static void c_count(void *u, int d) {
    pthread_mutex_lock(&c_lock);
    ((counter *)u)->live += d;
    if (d > 0) ((counter *)u)->total++;
    pthread_mutex_unlock(&c_lock);
}
static void *c_alloc(size_t n, void *u) { c_count(u, 1); return malloc(n); }
static void *c_realloc(void *p, size_t n, void *u) { if (!p) c_count(u, 1); return realloc(p, n); }
static void c_free(void *p, void *u) { if (p) c_count(u, -1); free(p); }
static gpucompile_allocator c_allocator(counter *c) {
    gpucompile_allocator a;
    memset(c, 0, sizeof *c);
    a.alloc = c_alloc; a.realloc = c_realloc; a.free = c_free; a.user_data = c;
    return a;
}

static gpucompile_object *obj(const char *target, gpucompile_format f, const char *bytes, size_t n, const gpucompile_allocator *a) {
    gpucompile_object *o = NULL;
    gpucompile_result r = gpucompile_object_create(target, f, bytes, n, a, &o);
    CHECK_MSG(r == GPUCOMPILE_OK, "object_create(%s): %s", target, gpucompile_result_string(r));
    return o;
}

static char *print_binary(const gpucompile_binary *b) {
    size_t n = gpucompile_binary_print(b, NULL, 0);
    char *s = (char *)malloc(n + 1);
    gpucompile_binary_print(b, s, n + 1);
    return s;
}

/* Objects equal: target, format, bytes, kernel names. */
static char *print_binary(const gpucompile_binary *b);

/* The same objects; a target may have come back in MLIR's spelling (the forms print it so):
   the same as MLIR reads it, the binaries' text. */
static int same_objects(const gpucompile_binary *a, const gpucompile_binary *b) {
    int i, k, same;
    char *ta, *tb;
    if (a->num_objects != b->num_objects || strcmp(a->name, b->name) != 0 || a->handler.kind != b->handler.kind) return 0;
    ta = print_binary(a);
    tb = print_binary(b);
    same = strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    if (!same) return 0;
    for (i = 0; i < a->num_objects; i++) {
        const gpucompile_object *x = a->objects[i], *y = b->objects[i];
        if (x->format != y->format || x->size != y->size || x->kind != y->kind) return 0;
        if (x->size && memcmp(x->data, y->data, x->size)) return 0;
        if (strcmp(x->chip, y->chip) || strcmp(x->triple, y->triple) || x->num_kernels != y->num_kernels) return 0;
        for (k = 0; k < x->num_kernels; k++)
            if (strcmp(x->kernels[k].name, y->kernels[k].name)) return 0;
    }
    return 1;
}

static void test_model_and_verify(void) {
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    gpucompile_binary *b = NULL, *b2 = NULL;
    t_log log;
    gpucompile_logger lg = t_logger(&log);
    CHECK(gpucompile_binary_create("kernels", &a, &b) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "an array of GPU object attributes with at least 1 elements");
    CHECK(gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "\x7F" "ELF", 4, &a)) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_create("other", &a, &b2) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_add(b2, obj("#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "hsaco", 5, &a)) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_add(b2, obj("#nvvm.target<chip = \"sm_80\">", GPUCOMPILE_FORMAT_ISA, ".version", 8, &a)) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_merge(b, b2) == GPUCOMPILE_OK);
    CHECK(b->num_objects == 3);
    CHECK_STR(b->objects[1]->chip, "gfx90a");
    CHECK(b->objects[1]->kind == GPUCOMPILE_TARGET_AMDGPU);
    CHECK_STR(b->objects[2]->triple, "nvptx64-nvidia-cuda");
    /* handlers */
    lg = t_logger(&log);
    b->handler.kind = (gpucompile_handler_kind)42;
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "invalid kind of attribute specified");
    CHECK(gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_INDEX, -1, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "the object index must be positive");
    CHECK(gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_INDEX, 3, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "out of bounds");
    CHECK(gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, "\"not a target\"") == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "the target attribute must be a GPU Target attribute");
    CHECK(gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, "#gpu.amdgpu<chip = \"gfx90a\">") == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_verify(b, NULL) == GPUCOMPILE_OK);
    /* an object whose target does not verify */
    lg = t_logger(&log);
    gpucompile_free(&a, b->objects[0]->target);
    b->objects[0]->target = (char *)c_alloc(64, &c);
    strcpy(b->objects[0]->target, "#gpu.nvptx<O = 7>");
    CHECK(gpucompile_binary_verify(b, &lg) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "object 0: invalid target");
    gpucompile_binary_free(b);
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
}

/* The kernel table in name order (kernels of unknown type take any arguments); LLVM 19: names.
   #gpu.nvptx objects are printed in MLIR's spelling with what differs from its defaults
   (#nvvm.target's features are "" on MLIR 22, "+ptx60" as #gpu.nvptx's on 19) and the format
   keyword MLIR needs (bin: no keyword reads as a fatbin there). */
#if LLVM_VERSION_MAJOR >= 22
#define T_SEED "#nvvm.target<chip = \"sm_80\", features = \"+ptx60\">"
#else
#define T_SEED "#nvvm.target<chip = \"sm_80\">"
#endif
#if LLVM_VERSION_MAJOR >= 20
#define T_KERNELS \
                 "#gpu.object<" T_SEED ", kernels = <[#gpu.kernel_metadata<\"odd\\22name\", !llvm.func<void (...)>>, " \
                 "#gpu.kernel_metadata<\"saxpy\", !llvm.func<void (...)>>]>, bin = \"cubin\">, "
#else
#define T_KERNELS \
                 "#gpu.object<" T_SEED ", properties = {kernels = [\"saxpy\", \"odd\\22name\"]}, bin = \"cubin\">, "
#endif

static void test_text_print(void) {
    gpucompile_binary *b = NULL;
    char *s;
    gpucompile_binary_create("k", NULL, &b);
    gpucompile_binary_add(b, obj("#nvvm.target<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "\x7F" "ELF\"\\a\n\xE9", 9, NULL));
    gpucompile_binary_add(b, obj("#nvvm.target", GPUCOMPILE_FORMAT_ISA, "ptx", 3, NULL));
    gpucompile_binary_add(b, obj("#rocdl.target<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_LLVM, "BC", 2, NULL));
    gpucompile_binary_add(b, obj("#nvvm.target", GPUCOMPILE_FORMAT_FATBIN, "fat", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_BIN, "cubin", 5, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_FATBIN, "fat", 3, NULL));
    gpucompile_object_add_kernel(b->objects[4], "saxpy");
    gpucompile_object_add_kernel(b->objects[4], "odd\"name");
    s = print_binary(b);
    CHECK_STR(s, "gpu.binary @k  [#gpu.object<#nvvm.target<chip = \"sm_90\">, bin = \"\\7FELF\\22\\\\a\\0A\\E9\">, "
                 "#gpu.object<#nvvm.target, assembly = \"ptx\">, #gpu.object<#rocdl.target<chip = \"gfx90a\">, offload = \"BC\">, "
                 "#gpu.object<#nvvm.target, \"fat\">, "
                 T_KERNELS
                 "#gpu.object<" T_SEED ", \"fat\">]");
    free(s);
    gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_INDEX, 1, NULL);
    s = print_binary(b);
    CHECK(strncmp(s, "gpu.binary @k <#gpu.select_object<1 : i64>> [", 45) == 0);
    free(s);
    gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_TARGET, 0, "#nvvm.target");
    s = print_binary(b);
    CHECK(strncmp(s, "gpu.binary @k <#gpu.select_object<#nvvm.target>> [", 50) == 0);
    free(s);
    free(b->name);
    b->name = (char *)malloc(16);
    strcpy(b->name, "9 lives");
    s = print_binary(b);
    CHECK(strncmp(s, "gpu.binary @\"9 lives\" <", 23) == 0);
    free(s);
    gpucompile_binary_free(b);
}

static void test_text_round_trip(void) {
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    unsigned char all[256];
    gpucompile_binary *b = NULL, *back = NULL;
    char *s, *s2;
    int i;
    t_log log;
    gpucompile_logger lg = t_logger(&log);
    for (i = 0; i < 256; i++) all[i] = (unsigned char)i;
    gpucompile_binary_create("round.trip", &a, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\", O = 3>", GPUCOMPILE_FORMAT_BIN, (const char *)all, 256, &a));
    gpucompile_binary_add(b, obj("#rocdl.target<chip = \"gfx90a:xnack+\">", GPUCOMPILE_FORMAT_BIN, "", 0, &a));
    gpucompile_binary_add(b, obj("#nvvm.target<chip = \"sm_80\">", GPUCOMPILE_FORMAT_FATBIN, "f", 1, &a));
    gpucompile_object_add_kernel(b->objects[1], "k1");
    gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_RUNTIME, 0, NULL);
    s = print_binary(b);
    CHECK(gpucompile_binary_parse(s, (size_t)-1, &a, &lg, &back) == GPUCOMPILE_OK);
    CHECK_MSG(back && same_objects(b, back), "round trip differs:\n%s\nlog: %s", s, log.text);
    if (back) {
        s2 = print_binary(back);
        CHECK_STR(s2, s);
        free(s2);
        gpucompile_binary_free(back);
    }
    /* mlir-opt's spelling: a module around it, two spaces, comments, \n escapes */
    {
        const char *m = "// from mlir-opt\nmodule attributes {gpu.container_module} {\n  gpu.binary @m  <#gpu.select_object<0 : i64>> "
                        "[#gpu.object<#nvvm.target<chip = \"sm_90\">, properties = {O = 2 : i32, kernels = [\"a\"]}, bin = \"x\\n\\t\\\"y\\5c\">]\n}\n";
        CHECK(gpucompile_binary_parse(m, (size_t)-1, &a, &lg, &back) == GPUCOMPILE_OK);
        if (back) {
            CHECK_STR(back->name, "m");
            CHECK(back->handler.kind == GPUCOMPILE_HANDLER_SELECT_INDEX && back->handler.index == 0);
            CHECK(back->objects[0]->size == 6 && memcmp(back->objects[0]->data, "x\n\t\"y\\", 6) == 0);
            CHECK(back->objects[0]->num_kernels == 1 && strcmp(back->objects[0]->kernels[0].name, "a") == 0);
            gpucompile_binary_free(back);
        }
    }
    free(s);
    gpucompile_binary_free(b);
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
}

static void test_text_errors(void) {
    static const struct { const char *text, *message; } cases[] = {
        {"gpu.binary @binary []", "an array of GPU object attributes with at least 1 elements"},
        {"gpu.binary @binary <1> [#gpu.object<#nvvm.target, \"\">]", "invalid kind of attribute specified"},
        {"gpu.binary @binary <#gpu.object<#nvvm.target, \"\">> [#gpu.object<#nvvm.target, \"\">]", "invalid kind of attribute specified"},
        {"gpu.binary @binary <#gpu.select_object<-1>> [#gpu.object<#nvvm.target, \"\">]", "the object index must be positive"},
        {"gpu.binary @binary <#gpu.select_object<\"x\">> [#gpu.object<#nvvm.target, \"\">]", "must be a GPU Target attribute"},
        {"gpu.binary @binary [#gpu.object<#nvvm.target<O = 4>, \"\">]", "invalid target"},
        {"gpu.binary @binary [#gpu.object<#nvvm.target, wat = \"\">]", "unknown object format 'wat'"},
        {"gpu.binary @binary [#gpu.object<#nvvm.target, \"abc>]", "1:53: expected '\"' to close the string that starts at 1:47 (the text ends there)"},
        {"gpu.binary @binary [#gpu.object<#nvvm.target, \"\\zz\">]", "unknown escape"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, \"a\vb\">]", "1:44: expected '\"' to close the string that starts at 1:42 (found byte 0x0B)"},
        {"gpu.binary @b [#gpu.object<#nvvm.target<chip = \"a\nb\">, \"\">]", "1:50: expected '\"' to close the string"},
        {"gpu.binary binary [#gpu.object<#nvvm.target, \"\">]", "1:12: expected '@'"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, \"\">] }", "1:47: unexpected '}'"},
        {"gpu.module @b []", "no gpu.binary in the text"},
        {"module {\n  func.func @f() { return }\n", "expected '}' to close the module"},
        {"module { func.func @f() { \"a}\" ", "unbalanced brackets"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, kernels = <[#gpu.kernel_metadata<\"k\", !llvm.func<void ()>, wat = 1>]>, \"\">]",
         "unknown #gpu.kernel_metadata parameter"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, properties = {O = }, \"\">]", "expected an attribute value"},
        /* a value's brackets nest, each closed by its own kind (the rule of the target's link too) */
        {"gpu.binary @b [#gpu.object<#nvvm.target, properties = {O = [1)}, \"\">]", "unbalanced ')' in the attribute value"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, properties = {O = (1}, \"\">]", "unbalanced '}' in the attribute value"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, properties = {O = %x}, \"\">]", "unexpected character in the attribute value"},
        {"gpu.binary @b [#gpu.object<#nvvm.target, \"\">", "expected ','"},
    };
    size_t i;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        t_log log;
        gpucompile_logger lg = t_logger(&log);
        gpucompile_binary *b = (gpucompile_binary *)1;
        gpucompile_result r = gpucompile_binary_parse(cases[i].text, (size_t)-1, NULL, &lg, &b);
        CHECK_MSG(r != GPUCOMPILE_OK && b == NULL, "accepted: %s", cases[i].text);
        CHECK_MSG(strstr(log.text, cases[i].message) != NULL, "%s: log lacks \"%s\":\n%s", cases[i].text, cases[i].message, log.text);
    }
}

static gpucompile_binary *sample(const gpucompile_allocator *a) {
    gpucompile_binary *b = NULL;
    gpucompile_binary_create("sample", a, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "\x7F" "ELFcubin90", 10, a));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_ISA, ".version 7.0", 12, a));
    gpucompile_binary_add(b, obj("#rocdl.target<chip = \"gfx90a:xnack+\">", GPUCOMPILE_FORMAT_BIN, "\x7F" "ELFhsaco", 8, a));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_75\">", GPUCOMPILE_FORMAT_LLVM, "BC\xC0\xDE", 4, a));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_75\">", GPUCOMPILE_FORMAT_FATBIN, "\x50\xED\x55\xBA", 4, a));
    gpucompile_object_add_kernel(b->objects[0], "saxpy");
    gpucompile_object_add_kernel(b->objects[0], "scale");
    gpucompile_binary_set_handler(b, GPUCOMPILE_HANDLER_SELECT_INDEX, 2, NULL);
    return b;
}

/* MLIR 22's object form: properties and the kernel table read into the model, kept, and printed
   in MLIR's order; the kernel table needs MLIR 20+ (LLVM 19 prints kernel names in properties). */
static void test_kernel_table_and_properties(void) {
    static const char text[] =
        "module attributes {gpu.container_module} {\n"
        "  func.func @host(%a: i32) -> i32 attributes {s = \"]}\"} { return %a : i32 } // }\n"
        "  gpu.binary @\"k-2\"  [#gpu.object<#rocdl.target<chip = \"gfx90a\">, properties = {section = \".s\", O = 3 : i32}, "
        "kernels = <[#gpu.kernel_metadata<\"a\", !llvm.func<void (f32, ptr<1>)>, arg_attrs = [{llvm.noalias}, {}], metadata = "
        "{sgpr_count = 10 : i64, agpr_count = 0 : i64, reqd_workgroup_size = array<i32: -1, -1, -1>}>, "
        "#gpu.kernel_metadata<\"b\", !llvm.func<void ()>>]>, bin = \"\\7FELF\">]\n"
        "  llvm.func @g() -> !llvm.ptr\n"
        "}\n";
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    gpucompile_binary *b = NULL, **all = NULL;
    gpucompile_object *o, *back = NULL;
    unsigned char *ser = NULL;
    size_t n;
    char v[64], *s;
    int num = 0;
    CHECK(gpucompile_binary_parse(text, (size_t)-1, &a, NULL, &b) == GPUCOMPILE_OK && b);
    if (!b) return;
    CHECK_STR(b->name, "k-2");
    o = b->objects[0];
    CHECK_STR(o->properties, "O = 3 : i32, section = \".s\"");
    CHECK(gpucompile_object_property(o, "O", v, sizeof v) == 7 && strcmp(v, "3 : i32") == 0);
    CHECK(gpucompile_object_property(o, "section", v, sizeof v) && strcmp(v, "\".s\"") == 0);
    CHECK(gpucompile_object_property(o, "none", v, sizeof v) == 0 && v[0] == 0);
    CHECK(o->num_kernels == 2);
    if (o->num_kernels == 2) {
        CHECK_STR(o->kernels[0].name, "a");
        CHECK_STR(o->kernels[0].type, "!llvm.func<void (f32, ptr<1>)>");
        CHECK(o->kernels[0].num_params == 2 && o->kernels[0].sgprs == 10 && o->kernels[0].vgprs == -1);
        CHECK_STR(o->kernels[0].arg_attrs, "[{llvm.noalias}, {}]");
        CHECK_STR(o->kernels[0].metadata, "agpr_count = 0 : i64, reqd_workgroup_size = array<i32: -1, -1, -1>");
        CHECK(o->kernels[1].num_params == 0 && !o->kernels[1].metadata && !o->kernels[1].arg_attrs);
    }
    s = print_binary(b);
#if LLVM_VERSION_MAJOR >= 20
    CHECK_STR(s, "gpu.binary @\"k-2\"  [#gpu.object<#rocdl.target<chip = \"gfx90a\">, properties = {O = 3 : i32, section = \".s\"}, "
                 "kernels = <[#gpu.kernel_metadata<\"a\", !llvm.func<void (f32, ptr<1>)>, arg_attrs = [{llvm.noalias}, {}], metadata = "
                 "{agpr_count = 0 : i64, reqd_workgroup_size = array<i32: -1, -1, -1>, sgpr_count = 10 : i64}>, "
                 "#gpu.kernel_metadata<\"b\", !llvm.func<void ()>>]>, bin = \"\\7FELF\">]");
#else
    CHECK_STR(s, "gpu.binary @\"k-2\"  [#gpu.object<#rocdl.target<chip = \"gfx90a\">, properties = {O = 3 : i32, kernels = [\"a\", \"b\"], "
                 "section = \".s\"}, bin = \"\\7FELF\">]");
#endif
    free(s);
    /* the cache's serialization keeps all of it */
    CHECK(gpucompile_object_serialize(o, &a, &ser, &n) == GPUCOMPILE_OK);
    CHECK(gpucompile_object_deserialize(ser, n, &a, &back) == GPUCOMPILE_OK && back);
    if (back) {
        CHECK_STR(back->properties, o->properties);
        CHECK(back->num_kernels == 2 && back->kernels[0].sgprs == 10);
        if (back->num_kernels == 2) {
            CHECK_STR(back->kernels[0].metadata, o->kernels[0].metadata);
            CHECK_STR(back->kernels[0].arg_attrs, o->kernels[0].arg_attrs);
            CHECK(back->kernels[1].metadata == NULL && back->kernels[1].type && strcmp(back->kernels[1].type, "!llvm.func<void ()>") == 0);
        }
    }
    gpucompile_object_free(back);
    gpucompile_free(&a, ser);
    /* the offload binary keeps it too */
    {
        unsigned char *ob = NULL;
        gpucompile_binary *b2 = NULL;
        CHECK(gpucompile_binary_write_offload(b, &ob, &n) == GPUCOMPILE_OK);
        CHECK(gpucompile_binary_read_offload(ob, n, NULL, &a, NULL, &b2) == GPUCOMPILE_OK && b2);
        if (b2) {
            char *s1 = print_binary(b), *s2 = print_binary(b2);
            CHECK_STR(s2, s1);
            CHECK(b2->objects[0]->num_kernels == 2 && b2->objects[0]->kernels[0].sgprs == 10);
            free(s1);
            free(s2);
        }
        gpucompile_binary_free(b2);
        gpucompile_free(&a, ob);
    }
    gpucompile_binary_free(b);
    /* several binaries: each, in order; parse merges them */
    {
        static const char two[] = "module {\n  gpu.binary @x [#gpu.object<#nvvm.target, \"1\">]\n  module @m {\n"
                                  "    gpu.binary @y <#gpu.select_object<0>> attributes {z} [#gpu.object<#nvvm.target, \"2\">]\n  }\n}\n";
        CHECK(gpucompile_binary_parse_all(two, (size_t)-1, &a, NULL, &all, &num) == GPUCOMPILE_OK && num == 2);
        if (num == 2) {
            CHECK_STR(all[0]->name, "x");
            CHECK_STR(all[1]->name, "y");
            CHECK(all[1]->handler.kind == GPUCOMPILE_HANDLER_SELECT_INDEX);
            gpucompile_binary_free(all[0]);
            gpucompile_binary_free(all[1]);
        }
        gpucompile_free(&a, all);
        CHECK(gpucompile_binary_parse(two, (size_t)-1, &a, NULL, &b) == GPUCOMPILE_OK && b && b->num_objects == 2);
        if (b) CHECK_STR(b->name, "x");
        gpucompile_binary_free(b);
    }
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
}

/* Objects from elsewhere: the backends find their kernels in the bytes. */
/* Every form of MLIR's kernel table: the long #gpu.kernel_table<[...]> of MLIR's own tests, an
   element without its #gpu.kernel_metadata, function types and arg_attrs as given, and the empty
   table (<> and #gpu.kernel_table<>), which MLIR 22's mlir-opt prints as <> and which is kept through
   the text and the offload binary; <[]> is refused where it refuses it (1:73). */
static void test_kernel_table_forms(void) {
    static const char text[] =
        "gpu.binary @t [#gpu.object<#rocdl.target<chip = \"gfx90a\">, kernels = #gpu.kernel_table<["
        "<\"k0\", (i32, f32) -> (), metadata = {sgpr_count = 255}>, "
        "#gpu.kernel_metadata<\"k1\", (i32) -> (), arg_attrs = [{llvm.read_only}]>]>, bin = \"B\">, "
        "#gpu.object<#rocdl.target<chip = \"gfx90a\">, kernels = #gpu.kernel_table<>, bin = \"\\7FELF\">, "
        "#gpu.object<#rocdl.target, kernels = <>, \"F\">]";
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    gpucompile_binary *b = NULL, *back = NULL;
    gpucompile_object *o;
    unsigned char *ob = NULL;
    size_t n = 0;
    char *s, *s2;
    CHECK(gpucompile_binary_parse(text, (size_t)-1, &a, NULL, &b) == GPUCOMPILE_OK && b && b->num_objects == 3);
    if (!b || b->num_objects != 3) return;
    o = b->objects[0];
    CHECK(o->kernel_table == 1 && o->num_kernels == 2);
    if (o->num_kernels == 2) {
        CHECK_STR(o->kernels[1].name, "k1");
        CHECK_STR(o->kernels[1].type, "(i32) -> ()");
        CHECK_STR(o->kernels[1].arg_attrs, "[{llvm.read_only}]");
        CHECK(o->kernels[1].num_params == 1 && o->kernels[0].num_params == 2 && o->kernels[0].sgprs == 255);
    }
    CHECK(b->objects[1]->kernel_table == 1 && b->objects[1]->num_kernels == 0); /* not searched in the bytes */
    CHECK(b->objects[2]->kernel_table == 1 && b->objects[2]->num_kernels == 0);
    s = print_binary(b);
#if LLVM_VERSION_MAJOR >= 20
    CHECK_STR(s, "gpu.binary @t  [#gpu.object<#rocdl.target<chip = \"gfx90a\">, kernels = <[#gpu.kernel_metadata<\"k0\", (i32, f32) -> (), "
                 "metadata = {sgpr_count = 255 : i64}>, #gpu.kernel_metadata<\"k1\", (i32) -> (), arg_attrs = [{llvm.read_only}]>]>, bin = \"B\">, "
                 "#gpu.object<#rocdl.target<chip = \"gfx90a\">, kernels = <>, bin = \"\\7FELF\">, #gpu.object<#rocdl.target, kernels = <>, \"F\">]");
#else /* MLIR 19: no kernel table, names in the properties; an empty table says nothing */
    CHECK_STR(s, "gpu.binary @t  [#gpu.object<#rocdl.target<chip = \"gfx90a\">, properties = {kernels = [\"k0\", \"k1\"]}, bin = \"B\">, "
                 "#gpu.object<#rocdl.target<chip = \"gfx90a\">, bin = \"\\7FELF\">, #gpu.object<#rocdl.target, \"F\">]");
#endif
    /* the offload binary keeps the empty table too */
    CHECK(gpucompile_binary_write_offload(b, &ob, &n) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_read_offload(ob, n, NULL, &a, NULL, &back) == GPUCOMPILE_OK && back);
    if (back) {
        s2 = print_binary(back);
        CHECK_STR(s2, s);
        free(s2);
        gpucompile_binary_free(back);
    }
    gpucompile_free(&a, ob);
    free(s);
    gpucompile_binary_free(b);
    b = NULL;
    CHECK(gpucompile_binary_parse("gpu.binary @e [#gpu.object<#rocdl.target<chip = \"gfx90a\">, kernels = <[]>, \"B\">]", (size_t)-1,
                                  &a, NULL, &b) == GPUCOMPILE_ERROR_PARSE && !b);
    CHECK(c.live == 0);
}

static void test_find_kernels(void) {
    static const char ptx[] = ".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry b_k(\n.param .u64 p\n)\n{\nret;\n}\n"
                              ".func f()\n{\nret;\n}\n.entry a_k()\n{\nret;\n}\n";
    static const char isa[] = "\t.amdhsa_code_object_version 5\n\t.amdhsa_kernel saxpy\n\t\t.amdhsa_group_segment_fixed_size 0\n\t.end_amdhsa_kernel\n";
    gpucompile_object *o = obj("#nvvm.target<chip = \"sm_80\">", GPUCOMPILE_FORMAT_ISA, ptx, sizeof ptx - 1, NULL);
    CHECK(o && gpucompile_object_find_kernels(o) == GPUCOMPILE_OK && o->num_kernels == 2);
    if (o && o->num_kernels == 2) {
        CHECK_STR(o->kernels[0].name, "a_k");
        CHECK_STR(o->kernels[1].name, "b_k");
        CHECK(o->kernels[0].num_params == 0 && o->kernels[1].num_params == 1);
    }
    gpucompile_object_free(o);
    o = obj("#rocdl.target<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_ISA, isa, sizeof isa - 1, NULL);
    CHECK(o && gpucompile_object_find_kernels(o) == GPUCOMPILE_OK && o->num_kernels == 1 && strcmp(o->kernels[0].name, "saxpy") == 0);
    gpucompile_object_free(o);
    o = obj("#nvvm.target<chip = \"sm_80\">", GPUCOMPILE_FORMAT_BIN, "\x7F" "ELF", 4, NULL);
    CHECK(o && gpucompile_object_find_kernels(o) == GPUCOMPILE_OK && o->num_kernels == 0); /* too short: nothing, no error */
    gpucompile_object_free(o);
}

static void test_offload_round_trip(void) {
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    gpucompile_binary *b = sample(&a), *back = NULL;
    unsigned char *data = NULL;
    size_t size = 0;
    t_log log;
    gpucompile_logger lg = t_logger(&log);
    CHECK(gpucompile_binary_write_offload(b, &data, &size) == GPUCOMPILE_OK);
    CHECK(size % 8 == 0 && size > 5 * 72);
    CHECK(data && memcmp(data, "\x10\xFF\x10\xAD\x01\x00\x00\x00", 8) == 0);
    CHECK(gpucompile_binary_read(data, size, "unnamed", &a, &lg, &back) == GPUCOMPILE_OK);
    CHECK_MSG(back && same_objects(b, back), "offload round trip differs; log: %s", log.text);
    if (back) CHECK(back->handler.kind == GPUCOMPILE_HANDLER_SELECT_INDEX && back->handler.index == 2);
    gpucompile_binary_free(back);
    gpucompile_free(&a, data);
    gpucompile_binary_free(b);
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
}

static unsigned long rng_state = 12345;
static unsigned rnd(void) { rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL; return (unsigned)(rng_state >> 33); }

static void test_offload_garbage(void) {
    counter c;
    gpucompile_allocator a = c_allocator(&c);
    gpucompile_binary *b = sample(&a), *back = NULL;
    unsigned char *data = NULL, *copy;
    size_t size = 0, i;
    int n, accepted = 0;
    t_log log;
    gpucompile_logger lg = t_logger(&log);
    gpucompile_binary_write_offload(b, &data, &size);
    copy = (unsigned char *)malloc(size);
    /* every truncation but the entry boundaries is refused */
    for (i = 0; i < size; i++) {
        gpucompile_result r = gpucompile_binary_read_offload(data, i, NULL, &a, NULL, &back);
        if (r == GPUCOMPILE_OK) { accepted++; gpucompile_binary_free(back); }
        else CHECK(r == GPUCOMPILE_ERROR_INVALID_BINARY && back == NULL);
    }
    /* (the handler selects object 2: a cut after 1 or 2 entries fails verification) */
    CHECK_MSG(accepted == 2, "%d truncations accepted (expected the boundaries after 3 and 4 entries)", accepted);
    /* specific faults, with their messages */
    memcpy(copy, data, size); copy[0] = 0;
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "no offload binary magic");
    memcpy(copy, data, size); copy[4] = 2;
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "version 2 is not supported");
    memcpy(copy, data, size); copy[15] = 0x80;
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "does not fit");
    memcpy(copy, data, size); copy[32 + 8 + 7] = 0x7F;   /* string offset */
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "string table out of bounds");
    memcpy(copy, data, size); copy[32 + 32 + 4] = 0x7F;  /* image size */
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "image out of bounds");
    memcpy(copy, data, size); copy[72 + 7] = 0x7F;       /* first key offset */
    CHECK(gpucompile_binary_read_offload(copy, size, NULL, &a, &lg, &back) == GPUCOMPILE_ERROR_INVALID_BINARY);
    CHECK_LOG(&log, "out of bounds");
    /* random corruption: never a crash, either refused or a valid binary */
    for (n = 0; n < 3000; n++) {
        int k, flips = 1 + (int)(rnd() % 4);
        gpucompile_result r;
        memcpy(copy, data, size);
        for (k = 0; k < flips; k++) copy[rnd() % size] = (unsigned char)rnd();
        r = gpucompile_binary_read(copy, size, NULL, &a, NULL, &back);
        CHECK(r == GPUCOMPILE_OK || r == GPUCOMPILE_ERROR_INVALID_BINARY || r == GPUCOMPILE_ERROR_PARSE);
        if (r == GPUCOMPILE_OK) CHECK(gpucompile_binary_verify(back, NULL) == GPUCOMPILE_OK);
        gpucompile_binary_free(back);
    }
    free(copy);
    gpucompile_free(&a, data);
    gpucompile_binary_free(b);
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
}

/* What clang-offload-packager writes, we read: kinds from the file extension, no strings of ours
   (an unknown extension: no kind, a fatbin known by its magic). */
static void test_read_clang_packager(void) {
    char cmd[2048], dir[] = "/tmp/gpucompile-test-XXXXXX";
    gpucompile_binary *b = NULL;
    unsigned char *data = NULL;
    size_t size = 0;
    int st;
    char *out;
    t_log log;
    gpucompile_logger lg = t_logger(&log);
    if (!t_have("clang-offload-packager")) SKIP("clang-offload-packager is not installed");
    if (!mkdtemp(dir)) SKIP("no temporary directory");
    snprintf(cmd, sizeof cmd, "cd %s && printf 'CUBIN' > a.cubin && printf '.version 8.0' > b.s && printf 'HSACO' > c.o && "
             "printf 'FAT' > d.fatbin && printf '\\120\\355\\125\\272FAT' > e.img && clang-offload-packager -o p.bin "
             "--image=file=a.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90,kind=cuda "
             "--image=file=b.s,triple=nvptx64-nvidia-cuda,arch=sm_80,kind=cuda "
             "--image=file=c.o,triple=amdgcn-amd-amdhsa,arch=gfx90a:xnack-,kind=hip "
             "--image=file=d.fatbin,triple=nvptx64-nvidia-cuda,arch=sm_75,kind=cuda "
             "--image=file=e.img,triple=nvptx64-nvidia-cuda,arch=sm_75,kind=cuda 2>&1", dir);
    out = t_sh(cmd, &st);
    free(out);
    CHECK_MSG(st == 0, "clang-offload-packager failed (status %d)", st);
    snprintf(cmd, sizeof cmd, "%s/p.bin", dir);
    CHECK(gpucompile_read_file(cmd, NULL, &data, &size) == GPUCOMPILE_OK);
    CHECK(gpucompile_binary_read(data, size, "packed", NULL, &lg, &b) == GPUCOMPILE_OK);
    CHECK_MSG(b && b->num_objects == 5, "log: %s", log.text);
    if (b && b->num_objects == 5) {
        CHECK_STR(b->name, "packed");
        CHECK_STR(b->objects[0]->target, "#nvvm.target<chip = \"sm_90\">"); /* no spelling came with it: MLIR's */
        CHECK(b->objects[0]->format == GPUCOMPILE_FORMAT_BIN && b->objects[0]->size == 5 && memcmp(b->objects[0]->data, "CUBIN", 5) == 0);
        CHECK(b->objects[1]->format == GPUCOMPILE_FORMAT_ISA);
        CHECK_STR(b->objects[2]->chip, "gfx90a:xnack-");
        CHECK(b->objects[2]->kind == GPUCOMPILE_TARGET_AMDGPU && b->objects[2]->format == GPUCOMPILE_FORMAT_BIN);
        CHECK(b->objects[3]->format == GPUCOMPILE_FORMAT_FATBIN);
        CHECK(b->objects[4]->format == GPUCOMPILE_FORMAT_FATBIN && b->objects[4]->size == 7);
    }
    gpucompile_binary_free(b);
    gpucompile_free(NULL, data);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    free(t_sh(cmd, NULL));
}

static int pick(const gpucompile_binary *b, const char *arch, t_log *log) {
    gpucompile_device d;
    gpucompile_logger lg = t_logger(log);
    int index = -2;
    d.arch = arch;
    d.compute_capability = 0;
    if (gpucompile_binary_select(b, &d, &lg, &index) != GPUCOMPILE_OK) return -1;
    return index;
}

static void test_select(void) {
    gpucompile_binary *b = NULL;
    gpucompile_device d;
    t_log log;
    int i = -2;
    /* sm_90 device with sm_80 and sm_90 cubins picks sm_90; sm_86 takes sm_80 */
    gpucompile_binary_create("nv", NULL, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_BIN, "80", 2, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "90", 2, NULL));
    CHECK(pick(b, "sm_90", &log) == 1);
    CHECK_LOG(&log, "exact cubin");
    CHECK(pick(b, "sm_86", &log) == 0);
    CHECK(pick(b, "sm_80", &log) == 0);
    d.arch = NULL;
    d.compute_capability = 90;
    CHECK(gpucompile_binary_select(b, &d, NULL, &i) == GPUCOMPILE_OK && i == 1);
    /* sm_100: no PTX yet, so nothing; the message lists what the binary holds */
    CHECK(pick(b, "sm_100", &log) == -1);
    CHECK_LOG(&log, "no object for device sm_100 in binary @nv; it holds: [0] #gpu.nvptx<chip = \"sm_80\"> bin (sm_80), [1]");
    CHECK(pick(b, "sm_75", &log) == -1);
    gpucompile_binary_free(b);
    /* sm_100 device with an sm_90 cubin and PTX picks the PTX */
    gpucompile_binary_create("nv", NULL, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "90", 2, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_ISA, "ptx", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90a\">", GPUCOMPILE_FORMAT_ISA, "ptx", 3, NULL));
    CHECK(pick(b, "sm_100", &log) == 1);
    CHECK_LOG(&log, "PTX the driver compiles");
    CHECK(pick(b, "sm_90", &log) == 0);
    CHECK(pick(b, "sm_89", &log) == -1);
    gpucompile_binary_free(b);
    /* fatbins: exact beats PTX; an older fatbin JITs */
    gpucompile_binary_create("nv", NULL, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_70\">", GPUCOMPILE_FORMAT_ISA, "ptx", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_80\">", GPUCOMPILE_FORMAT_FATBIN, "fat", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_LLVM, "bc", 2, NULL));
    CHECK(pick(b, "sm_80", &log) == 1);
    CHECK(pick(b, "sm_90", &log) == 1);
    CHECK(pick(b, "sm_75", &log) == 0);
    CHECK(pick(b, "gfx90a", &log) == -1);
    CHECK(pick(b, "tpu_v4", &log) == -1);
    CHECK_LOG(&log, "unknown device 'tpu_v4'");
    gpucompile_binary_free(b);
    /* AMD: xnack+ / xnack- / unset, generic targets */
    gpucompile_binary_create("amd", NULL, &b);
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx90a:xnack+\">", GPUCOMPILE_FORMAT_BIN, "on", 2, NULL));
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx90a:xnack-\">", GPUCOMPILE_FORMAT_BIN, "off", 3, NULL));
    CHECK(pick(b, "gfx90a:xnack+", &log) == 0);
    CHECK(pick(b, "gfx90a:xnack-", &log) == 1);
    CHECK(pick(b, "gfx90a:sramecc+:xnack-", &log) == 1);
    CHECK(pick(b, "gfx908:xnack-", &log) == -1);
    CHECK_LOG(&log, "no object for device gfx908:xnack-");
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "any", 3, NULL));
    CHECK(pick(b, "gfx90a", &log) == 2);      /* the device's mode unknown: the object that runs in both */
    CHECK(pick(b, "gfx90a:xnack-", &log) == 1);
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx9-generic\">", GPUCOMPILE_FORMAT_BIN, "gen", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx906\">", GPUCOMPILE_FORMAT_ISA, "asm", 3, NULL));
    CHECK(pick(b, "gfx906", &log) == 3);
    CHECK(pick(b, "gfx1100", &log) == -1);
    CHECK(pick(b, "sm_90", &log) == -1);
    gpucompile_binary_free(b);
    /* NVPTX, AMDGPU and SPIR-V objects, each device kind takes its own: the score goes by the
       triple an object carries, so objects whose triple is another's (made by hand, not
       verified) come first and are passed over, and SPIR-V objects named like chips too */
    gpucompile_binary_create("all", NULL, &b);
    gpucompile_binary_add(b, obj("#gpu.nvptx<triple = \"amdgcn-amd-amdhsa\", chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "x", 1, NULL));
    gpucompile_binary_add(b, obj("#gpu.amdgpu<triple = \"nvptx64-nvidia-cuda\", chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "x", 1, NULL));
    gpucompile_binary_add(b, obj("#gpu.spirv<triple = \"amdgcn-amd-amdhsa\">", GPUCOMPILE_FORMAT_BIN, "x", 1, NULL));
    gpucompile_binary_add(b, obj("#gpu.spirv<chip = \"sm_90\">", GPUCOMPILE_FORMAT_ISA, "x", 1, NULL));
    gpucompile_binary_add(b, obj("#gpu.nvptx<chip = \"sm_90\">", GPUCOMPILE_FORMAT_BIN, "nv", 2, NULL));
    gpucompile_binary_add(b, obj("#gpu.amdgpu<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "amd", 3, NULL));
    gpucompile_binary_add(b, obj("#gpu.spirv<chip = \"gfx90a\">", GPUCOMPILE_FORMAT_BIN, "spv", 3, NULL));
    CHECK(pick(b, "sm_90", &log) == 4);
    CHECK_LOG(&log, "device sm_90: object 4 (#gpu.nvptx<chip = \"sm_90\">), exact cubin");
    CHECK(pick(b, "gfx90a", &log) == 5);
    CHECK(pick(b, "spirv", &log) == 6);
    CHECK_LOG(&log, "device spirv: object 6 (#gpu.spirv<chip = \"gfx90a\">), SPIR-V module");
    CHECK(pick(b, "sm_100", &log) == -1);
    gpucompile_binary_free(b);
}

static void test_compile_parallel(void) {
    static const char *const texts[] = {"#gpu.nvptx<chip = \"sm_75\">", "#gpu.nvptx<chip = \"sm_80\">",
                                        "#nvvm.target<chip = \"sm_90\", O = 3>", "#gpu.nvptx<chip = \"sm_86\", O = 1>"};
    gpucompile_target *t[4];
    const gpucompile_target *tp[4];
    gpucompile_binary *serial = NULL, *parallel = NULL;
    gpucompile_options o;
    counter c;
    size_t size;
    int i;
    char *ir = t_kernel("saxpy_nvptx.ll", &size);
    t_log log;
    if (!ir) SKIP("examples/kernels/saxpy_nvptx.ll missing");
    memset(&o, 0, sizeof o);
    o.format = GPUCOMPILE_FORMAT_ISA;
    o.allocator = c_allocator(&c);
    for (i = 0; i < 4; i++) {
        t[i] = NULL;
        CHECK(gpucompile_target_parse(texts[i], (size_t)-1, NULL, NULL, &t[i]) == GPUCOMPILE_OK);
        tp[i] = t[i];
    }
    CHECK(gpucompile_compile_binary(ir, size, "saxpy.ll", tp, 4, &o, 1, "saxpy", &serial) == GPUCOMPILE_OK);
    CHECK(gpucompile_compile_binary(ir, size, "saxpy.ll", tp, 4, &o, 4, "saxpy", &parallel) == GPUCOMPILE_OK);
    if (serial && parallel) {
        CHECK(same_objects(serial, parallel));
        CHECK_STR(serial->name, "saxpy");
        for (i = 0; i < 4; i++) CHECK(serial->objects[i]->num_kernels == 1 && strcmp(serial->objects[i]->kernels[0].name, "saxpy") == 0);
        CHECK(strstr((const char *)serial->objects[0]->data, ".target sm_75") != NULL);
        CHECK(strstr((const char *)parallel->objects[2]->data, ".target sm_90") != NULL);
        CHECK(strstr((const char *)parallel->objects[3]->data, ".target sm_86") != NULL);
    }
    gpucompile_binary_free(serial);
    gpucompile_binary_free(parallel);
    CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
    /* one bad target: the whole call fails with its error, in parallel as in serial */
    {
        gpucompile_target bad = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
        gpucompile_result rs, rp;
        bad.O = 9;
        tp[2] = &bad;
        o.logger = t_logger(&log);
        rs = gpucompile_compile_binary(ir, size, "saxpy.ll", tp, 4, &o, 1, "saxpy", &serial);
        CHECK(rs == GPUCOMPILE_ERROR_INVALID_TARGET && serial == NULL);
        CHECK_LOG(&log, "target 3 of 4");
        CHECK_LOG(&log, "The optimization level must be a number between 0 and 3.");
        o.logger = t_logger(&log);
        rp = gpucompile_compile_binary(ir, size, "saxpy.ll", tp, 4, &o, 3, "saxpy", &parallel);
        CHECK(rp == rs && parallel == NULL);
        CHECK_LOG(&log, "target 3 of 4");
        CHECK_MSG(c.live == 0, "%ld blocks leaked", c.live);
    }
    for (i = 0; i < 4; i++) gpucompile_target_free(t[i]);
    free(ir);
}

/* The whole thing from a caller's module, with bin when the backend makes cubins here. */
static void test_compile_module_offload(void) {
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMMemoryBufferRef mb;
    LLVMModuleRef m = NULL;
    char *msg = NULL, *ir;
    size_t size;
    gpucompile_target t80 = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX), t90 = t80;
    const gpucompile_target *tp[2];
    gpucompile_binary *b = NULL, *back = NULL;
    gpucompile_options o;
    unsigned char *data = NULL;
    t_log log;
    ir = t_kernel("saxpy_nvptx.ll", &size);
    if (!ir) { LLVMContextDispose(ctx); SKIP("saxpy_nvptx.ll missing"); }
    mb = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, size, "saxpy");
    free(ir);
    CHECK(LLVMParseIRInContext(ctx, mb, &m, &msg) == 0);
    t80.chip = "sm_80";
    t90.chip = "sm_90";
    tp[0] = &t80;
    tp[1] = &t90;
    memset(&o, 0, sizeof o);
    o.format = GPUCOMPILE_FORMAT_LLVM;
    o.logger = t_logger(&log);
    CHECK_MSG(gpucompile_compile_binary_module(m, tp, 2, &o, 2, "m", &b) == GPUCOMPILE_OK, "%s", log.text);
    if (b) {
        CHECK(b->num_objects == 2 && b->objects[0]->format == GPUCOMPILE_FORMAT_LLVM);
        CHECK(b->objects[1]->size > 4 && memcmp(b->objects[1]->data, "BC\xC0\xDE", 4) == 0);
        CHECK(gpucompile_binary_write_offload(b, &data, &size) == GPUCOMPILE_OK);
        CHECK(gpucompile_binary_read_offload(data, size, NULL, NULL, NULL, &back) == GPUCOMPILE_OK);
        CHECK(back && same_objects(b, back));
    }
    gpucompile_binary_free(back);
    gpucompile_binary_free(b);
    gpucompile_free(NULL, data);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

int main(void) {
    RUN(test_model_and_verify);
    RUN(test_text_print);
    RUN(test_text_round_trip);
    RUN(test_text_errors);
    RUN(test_kernel_table_and_properties);
    RUN(test_kernel_table_forms);
    RUN(test_find_kernels);
    RUN(test_offload_round_trip);
    RUN(test_offload_garbage);
    RUN(test_read_clang_packager);
    RUN(test_select);
    RUN(test_compile_parallel);
    RUN(test_compile_module_offload);
    return TEST_END("binary");
}
