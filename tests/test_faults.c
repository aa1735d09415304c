/* Under faults the library keeps its word: a compile that makes LLVM abort ends a worker (or
   the isolated process), not us, and its error is LLVM's own line; reads are bounded; writes
   are all or none; temporary files of dead processes are swept; foreign triples warn. */
#include "test.h"
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[256];
static gpucompile_workers *workers;
static const char *saxpy = "examples/kernels/saxpy_nvptx.ll";
/* LLVM 19 and 22 both abort in instruction selection: redux.sync needs sm_80 */
static const char *redux =
    "target triple = \"nvptx64-nvidia-cuda\"\n"
    "declare i32 @llvm.nvvm.redux.sync.add(i32, i32)\n"
    "define ptx_kernel void @k(ptr addrspace(1) %p) {\n"
    "  %v = load i32, ptr addrspace(1) %p\n"
    "  %r = call i32 @llvm.nvvm.redux.sync.add(i32 %v, i32 -1)\n"
    "  store i32 %r, ptr addrspace(1) %p\n"
    "  ret void\n}\n";

static gpucompile_target nvptx(const char *chip) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    t.chip = chip;
    return t;
}

static gpucompile_result compile(const char *ir, const char *chip, gpucompile_options *o, t_log *l, gpucompile_object **obj) {
    gpucompile_target t = nvptx(chip);
    o->format = GPUCOMPILE_FORMAT_ISA;
    o->logger = t_logger(l);
    return gpucompile_compile_ir(ir, strlen(ir), "k.ll", &t, o, obj);
}

static int count_files(const char *dir, const char *prefix) {
    char cmd[512], *out;
    int n;
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c '^%s'", dir, prefix);
    out = t_sh(cmd, NULL);
    n = out ? atoi(out) : -1;
    free(out);
    return n;
}

/* A file named for a dead process goes at the first temporary file; a living one's stays. */
static void test_sweep_dead_temps(void) {
    char dead[512], alive[512], other[512];
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    t_log l;
    pid_t pid = fork();
    FILE *f;
    if (pid == 0) _exit(0);
    waitpid(pid, NULL, 0); /* its PID is gone now */
    snprintf(dead, sizeof dead, "%s/gpucompile-%ld-abcdef.ptx", tmpdir, (long)pid);
    snprintf(alive, sizeof alive, "%s/gpucompile-%ld-abcdef.ptx", tmpdir, (long)getppid());
    snprintf(other, sizeof other, "%s/gpucompile-notapid.ptx", tmpdir);
    f = fopen(dead, "w"); if (f) fclose(f);
    f = fopen(alive, "w"); if (f) fclose(f);
    f = fopen(other, "w"); if (f) fclose(f);
    memset(&o, 0, sizeof o);
    o.isolate = t_gpucompile(); /* its request file is this process's first temporary */
    CHECK(compile(redux, "sm_80", &o, &l, &obj) == GPUCOMPILE_OK);
    gpucompile_object_free(obj);
    CHECK(access(dead, F_OK) != 0);
    CHECK(access(alive, F_OK) == 0);
    CHECK(access(other, F_OK) == 0);
    remove(alive);
    remove(other);
    CHECK(count_files(tmpdir, "gpucompile-") == 0);
}

/* Workers: the same object as in process; an abort is that compile's error with LLVM's line,
   and the next compile gets a new worker. */
static void test_workers(void) {
    gpucompile_options o;
    gpucompile_object *a = NULL, *b = NULL;
    t_log l;
    int i;
    char *ir = t_read(saxpy, NULL);
    if (!workers) SKIP("no worker processes here");
    if (!ir) { CHECK(ir != NULL); return; }
    memset(&o, 0, sizeof o);
    CHECK(compile(ir, "sm_80", &o, &l, &a) == GPUCOMPILE_OK);
    o.workers = workers;
    CHECK(compile(ir, "sm_80", &o, &l, &b) == GPUCOMPILE_OK);
    if (a && b) {
        CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0);
        CHECK(b->num_kernels == 1 && strcmp(b->kernels[0].name, "saxpy") == 0 && b->kernels[0].num_params == 4);
        CHECK(b->stage_ms[GPUCOMPILE_STAGE_EMIT] > 0);
        CHECK_STR(a->target, b->target);
    }
    gpucompile_object_free(a);
    gpucompile_object_free(b);
    for (i = 0; i < 3; i++) { /* more deaths than workers: each is replaced */
        CHECK(compile(redux, "sm_50", &o, &l, &a) == GPUCOMPILE_ERROR_LLVM);
        CHECK(a == NULL);
        CHECK_LOG(&l, "error: gpucompile: LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.redux.sync.add");
        CHECK_LOG(&l, "died with signal 6");
    }
    CHECK(compile(ir, "sm_80", &o, &l, &a) == GPUCOMPILE_OK);
    gpucompile_object_free(a);
    /* an error in the worker keeps its result code, stage and origin */
    CHECK(compile("define void @f( {", "sm_80", &o, &l, &a) == GPUCOMPILE_ERROR_INVALID_INPUT);
    CHECK_LOG(&l, "invalid LLVM IR");
    free(ir);
}

/* options.isolate: the same error text as a worker's. */
static void test_isolate_error_text(void) {
    gpucompile_options o;
    gpucompile_object *a = NULL;
    t_log l;
    memset(&o, 0, sizeof o);
    o.isolate = t_gpucompile();
    CHECK(compile(redux, "sm_50", &o, &l, &a) == GPUCOMPILE_ERROR_LLVM);
    CHECK_LOG(&l, "LLVM ERROR: Cannot select: intrinsic %llvm.nvvm.redux.sync.add (the compiler process died with signal 6)");
    CHECK(count_files(tmpdir, "gpucompile-") == 0);
}

/* Through the cache: the entry written after a worker's compile is used, and only a regular
   file is: a symlink to /dev/zero is a miss, not a hang. */
static void test_cache_and_workers(void) {
    gpucompile_options o;
    gpucompile_object *a = NULL;
    t_log l;
    char dir[512], cmd[1024], *entry;
    char *ir = t_read(saxpy, NULL);
    if (!workers || !ir) { free(ir); SKIP("no worker processes here"); }
    snprintf(dir, sizeof dir, "%s/cache", tmpdir);
    memset(&o, 0, sizeof o);
    o.workers = workers;
    o.cache_dir = dir;
    CHECK(compile(ir, "sm_80", &o, &l, &a) == GPUCOMPILE_OK && a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(compile(ir, "sm_80", &o, &l, &a) == GPUCOMPILE_OK && a && a->from_cache);
    gpucompile_object_free(a);
    snprintf(cmd, sizeof cmd, "cd '%s' && for f in *; do rm \"$f\"; ln -s /dev/zero \"$f\"; echo \"$f\"; done", dir);
    entry = t_sh(cmd, NULL);
    CHECK(entry && strlen(entry) == 65);
    free(entry);
    CHECK(compile(ir, "sm_80", &o, &l, &a) == GPUCOMPILE_OK && a && !a->from_cache);
    gpucompile_object_free(a);
    free(ir);
}

static void test_bounded_reads(void) {
    unsigned char *d = NULL;
    size_t n = 7;
    gpucompile_options o;
    gpucompile_target t = nvptx("sm_80");
    gpucompile_object *obj = NULL;
    t_log l;
    CHECK(gpucompile_read_file("/dev/zero", NULL, &d, &n) == GPUCOMPILE_ERROR_IO && d == NULL && n == 0);
    CHECK_STR(gpucompile_read_file_error(GPUCOMPILE_ERROR_IO), "not a regular file or a pipe");
    CHECK(gpucompile_read_file(tmpdir, NULL, &d, &n) == GPUCOMPILE_ERROR_IO);
    CHECK(gpucompile_read_file_max(saxpy, NULL, 100, &d, &n) == GPUCOMPILE_ERROR_TOO_LARGE && d == NULL);
    CHECK(gpucompile_read_file_max(saxpy, NULL, 1 << 20, &d, &n) == GPUCOMPILE_OK && d && n > 100 && d[n] == 0);
    gpucompile_free(NULL, d);
    memset(&o, 0, sizeof o);
    o.max_input_bytes = 100;
    o.logger = t_logger(&l);
    CHECK(gpucompile_compile_file(saxpy, &t, &o, &obj) == GPUCOMPILE_ERROR_TOO_LARGE && !obj);
    CHECK_LOG(&l, "larger than the read limit");
    CHECK(gpucompile_compile_file("/dev/zero", &t, &o, &obj) == GPUCOMPILE_ERROR_IO && !obj);
    CHECK_LOG(&l, "not a regular file or a pipe");
}

static void test_write_files_all_or_none(void) {
    char a[512], b[512], bad[512], *text;
    const char *paths[2];
    const void *data[2];
    size_t sizes[2];
    int failed = 0;
    FILE *f;
    snprintf(a, sizeof a, "%s/a.out", tmpdir);
    snprintf(b, sizeof b, "%s/b.out", tmpdir);
    snprintf(bad, sizeof bad, "%s/no/such/dir/b.out", tmpdir);
    f = fopen(a, "w");
    if (f) { fputs("old", f); fclose(f); }
    paths[0] = a; data[0] = "new"; sizes[0] = 3;
    paths[1] = bad; data[1] = "x"; sizes[1] = 1;
    CHECK(gpucompile_write_files(2, paths, data, sizes, &failed) == GPUCOMPILE_ERROR_IO);
    CHECK(failed == 1 && errno == ENOENT);
    text = t_read(a, NULL);
    CHECK(text && strcmp(text, "old") == 0); /* not replaced */
    free(text);
    paths[1] = b;
    CHECK(gpucompile_write_files(2, paths, data, sizes, &failed) == GPUCOMPILE_OK && failed == -1);
    text = t_read(a, NULL);
    CHECK(text && strcmp(text, "new") == 0);
    free(text);
    CHECK(access(b, F_OK) == 0);
    remove(a);
    remove(b);
    CHECK(count_files(tmpdir, "a.out.tmp") == 0 && count_files(tmpdir, "b.out.tmp") == 0);
}

static void test_foreign_triple_warns(void) {
    gpucompile_options o;
    gpucompile_object *obj = NULL;
    t_log l;
    const char *x86 = "target triple = \"x86_64-pc-linux-gnu\"\ndefine ptx_kernel void @k() {\n  ret void\n}\n";
    memset(&o, 0, sizeof o);
    CHECK(compile(x86, "sm_80", &o, &l, &obj) == GPUCOMPILE_OK);
    CHECK_LOG(&l, "the module's triple 'x86_64-pc-linux-gnu' names another target than 'nvptx64-nvidia-cuda'");
    gpucompile_object_free(obj);
    CHECK(compile(redux, "sm_80", &o, &l, &obj) == GPUCOMPILE_OK && l.warnings == 0); /* its own triple: quiet */
    gpucompile_object_free(obj);
}

int main(void) {
    char *d, env[300];
    /* workers first: fork before any thread exists */
    if (access(t_gpucompile(), X_OK) == 0 && gpucompile_workers_create(2, t_gpucompile(), &workers) != GPUCOMPILE_OK)
        printf("  FAIL: gpucompile_workers_create\n");
    snprintf(tmpdir, sizeof tmpdir, "%s/gpucompile-faults-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    d = mkdtemp(tmpdir);
    if (!d) { printf("cannot create a temp dir\n"); return 1; }
    snprintf(env, sizeof env, "TMPDIR=%s", tmpdir); /* our temporary files, and nobody else's, here */
    putenv(env);
    if (access(t_gpucompile(), X_OK) != 0) printf("  SKIP: %s is not built: no isolation tests\n", t_gpucompile());
    else {
        RUN(test_sweep_dead_temps);
        RUN(test_workers);
        RUN(test_isolate_error_text);
        RUN(test_cache_and_workers);
    }
    RUN(test_bounded_reads);
    RUN(test_write_files_all_or_none);
    RUN(test_foreign_triple_warns);
    gpucompile_workers_free(workers);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
        free(t_sh(cmd, NULL));
    }
    return TEST_END("faults");
}
