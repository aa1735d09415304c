/* The persistent compile cache: hits, misses, corrupt entries, stale dependencies, eviction,
   entries tagged under a cache secret. */
#include "test.h"
#include <sys/stat.h>
#include <unistd.h>
#include <dirent.h>
#include <utime.h>
#include <time.h>

static char dir[256];

static gpucompile_result compile(const char *path, gpucompile_options *opts, gpucompile_object **o) {
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    t_log l;
    t.chip = "sm_80";
    opts->logger = t_logger(&l);
    return gpucompile_compile_file(path, &t, opts, o);
}

static int count_entries(char *first, size_t n) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int c = 0;
    if (!d) return 0;
    while ((e = readdir(d)) != NULL)
        if (strlen(e->d_name) == 64) { if (c++ == 0 && first) snprintf(first, n, "%s/%s", dir, e->d_name); }
    closedir(d);
    return c;
}

static void test_hit_and_miss(void) {
    gpucompile_options opts;
    gpucompile_object *a = NULL, *b = NULL;
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = dir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &b) == GPUCOMPILE_OK);
    if (a && b) {
        CHECK(!a->from_cache && b->from_cache);
        CHECK(a->size == b->size && memcmp(a->data, b->data, a->size) == 0 && b->data[b->size] == 0);
        CHECK(b->num_kernels == 1 && strcmp(b->kernels[0].name, "saxpy") == 0 && b->kernels[0].num_params == 4);
        CHECK_STR(a->target, b->target);
        CHECK(b->format == GPUCOMPILE_FORMAT_ISA);
    }
    gpucompile_object_free(a);
    gpucompile_object_free(b);
    /* another format, another chip: other entries */
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(count_entries(NULL, 0) == 2);
}

static void test_corrupt_entry_is_replaced(void) {
    gpucompile_options opts;
    gpucompile_object *a = NULL;
    char path[512];
    size_t n;
    char *d;
    FILE *f;
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = dir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    free(t_sh("rm -rf tests-cache-unused", NULL));
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    gpucompile_object_free(a);
    {   /* find the entry that was just written: the newest */
        char cmd[600];
        char *out;
        snprintf(cmd, sizeof cmd, "ls -t %s | head -1", dir);
        out = t_sh(cmd, NULL);
        out[strcspn(out, "\n")] = 0;
        snprintf(path, sizeof path, "%s/%s", dir, out);
        free(out);
    }
    d = t_read(path, &n);
    CHECK(d != NULL && n > 100);
    if (!d) return;
    /* truncated: a miss, then replaced */
    f = fopen(path, "wb"); fwrite(d, 1, n / 2, f); fclose(f);
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache);
    gpucompile_object_free(a);
    /* a flipped byte in the payload: the checksum catches it */
    d[n - 10] ^= 0x55;
    f = fopen(path, "wb"); fwrite(d, 1, n, f); fclose(f);
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache && strstr((char *)a->data, ".entry sum") != NULL);
    gpucompile_object_free(a);
    /* garbage of any size */
    f = fopen(path, "wb"); fwrite("GPUCC001", 1, 8, f); fclose(f);
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    free(d);
}

static void test_changed_library_is_a_miss(void) {
    gpucompile_options opts;
    gpucompile_object *a = NULL;
    char lib[512], cmd[1024];
    const char *links[1];
    int st;
    struct utimbuf ut;
    snprintf(lib, sizeof lib, "%s-lib.bc", dir);
    snprintf(cmd, sizeof cmd, "llvm-as tests/data/mylib.ll -o %s", lib);
    if (!t_have("llvm-as")) SKIP("llvm-as is not installed");
    free(t_sh(cmd, &st));
    CHECK_MSG(st == 0, "llvm-as failed (status %d)", st);
    links[0] = lib;
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = dir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    opts.link = links;
    opts.num_link = 1;
    CHECK(compile("tests/data/uses_lib_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    gpucompile_object_free(a);
    CHECK(compile("tests/data/uses_lib_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache);
    gpucompile_object_free(a);
    ut.actime = ut.modtime = time(NULL) - 1000; /* touched, not changed: the contents are the key */
    utime(lib, &ut);
    CHECK(compile("tests/data/uses_lib_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache);
    gpucompile_object_free(a);
    snprintf(cmd, sizeof cmd, "sed 's/3\\.0/4.0/' tests/data/mylib.ll | llvm-as -o %s", lib); /* the library changed */
    free(t_sh(cmd, &st));
    CHECK(st == 0);
    CHECK(compile("tests/data/uses_lib_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    remove(lib);
}

static void test_hooks_bypass_the_cache(void) {
    gpucompile_options opts;
    gpucompile_hooks hooks;
    gpucompile_object *a = NULL;
    memset(&opts, 0, sizeof opts);
    memset(&hooks, 0, sizeof hooks);
    opts.cache_dir = dir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    opts.hooks = &hooks;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
}

static void test_eviction(void) {
    gpucompile_options opts;
    gpucompile_object *a = NULL;
    char first[600];
    int before;
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = dir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    { /* at least three entries of its own, so that it also runs alone (T_ONLY=eviction) */
        static const char *const kernels[] = {"saxpy", "math", "reduce"};
        char path[128];
        size_t i;
        for (i = 0; i < sizeof kernels / sizeof *kernels; i++) {
            snprintf(path, sizeof path, "examples/kernels/%s_nvptx.ll", kernels[i]);
            CHECK(compile(path, &opts, &a) == GPUCOMPILE_OK);
            gpucompile_object_free(a);
            a = NULL;
        }
    }
    before = count_entries(first, sizeof first);
    CHECK(before >= 3);
    opts.cache_max_bytes = 1500; /* room for about one entry */
    opts.format = GPUCOMPILE_FORMAT_LLVM;
    CHECK(compile("tests/data/cpu_attr_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    gpucompile_object_free(a);
    CHECK(count_entries(NULL, 0) <= 2 && count_entries(NULL, 0) < before); /* the new one + at most one under 90% */
    /* the newest survived: a hit */
    CHECK(compile("tests/data/cpu_attr_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache);
    gpucompile_object_free(a);
}

/* The newest entry of d into path; the number of entries there. */
static int newest_entry(const char *d, char *path, size_t n) {
    char cmd[600], *out;
    int c;
    snprintf(cmd, sizeof cmd, "ls %s | grep -c '^[0-9a-f]\\{64\\}$'", d);
    out = t_sh(cmd, NULL);
    c = atoi(out);
    free(out);
    snprintf(cmd, sizeof cmd, "ls -t %s | head -1", d);
    out = t_sh(cmd, NULL);
    out[strcspn(out, "\n")] = 0;
    snprintf(path, n, "%s/%s", d, out);
    free(out);
    return c;
}

static void put_file(const char *path, const void *d, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fwrite(d, 1, n, f);
    fclose(f);
}

/* options.cache_secret_file: tagged entries, other secrets (and none) see other keys, an entry
   copied under another key is refused with one warning per process, an unusable secret turns
   the cache off for that compile. */
static void test_secret(void) {
    gpucompile_options opts;
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_object *a = NULL;
    gpucompile_cache_stats st0, st;
    char sdir[300], s1[300], s2[300], victim[600], other[600];
    char *d, *o;
    size_t n, on;
    t_log l;
    t.chip = "sm_80";
    snprintf(sdir, sizeof sdir, "%s/secret", dir);
    snprintf(s1, sizeof s1, "%s/secret1.txt", dir);
    snprintf(s2, sizeof s2, "%s/secret2.txt", dir);
    put_file(s1, "one team's secret, long enough\n", strlen("one team's secret, long enough\n"));
    put_file(s2, "another team's secret, as long\n", strlen("another team's secret, as long\n"));
    memset(&opts, 0, sizeof opts);
    opts.cache_dir = sdir;
    opts.format = GPUCOMPILE_FORMAT_ISA;
    opts.cache_secret_file = s1;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(newest_entry(sdir, victim, sizeof victim) == 1);
    d = t_read(victim, &n);
    CHECK(d && n > 40 && memcmp(d + n - 40, "GPUTAG01", 8) == 0);
    free(d);
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache == 1);
    gpucompile_object_free(a);
    /* another secret, and none: their own keys, plain misses */
    opts.cache_secret_file = s2;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(newest_entry(sdir, other, sizeof other) == 2 && strcmp(other, victim) != 0);
    opts.cache_secret_file = NULL;
    CHECK(compile("examples/kernels/saxpy_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache);
    gpucompile_object_free(a);
    CHECK(newest_entry(sdir, other, sizeof other) == 3);
    d = t_read(other, &n);
    CHECK(d && n > 40 && memcmp(d + n - 40, "GPUTAG01", 8) != 0); /* without a secret: no tag */
    free(d);
    /* another kernel's entry, tagged with the same secret, copied under saxpy's key */
    opts.cache_secret_file = s1;
    CHECK(compile("tests/data/loop_nvptx.ll", &opts, &a) == GPUCOMPILE_OK);
    gpucompile_object_free(a);
    CHECK(newest_entry(sdir, other, sizeof other) == 4);
    o = t_read(other, &on);
    CHECK(o != NULL);
    if (!o) return;
    put_file(victim, o, on);
    gpucompile_cache_stats_get(sdir, &st0);
    opts.logger = t_logger(&l);
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_nvptx.ll", &t, &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache && strstr((char *)a->data, ".entry saxpy") && !strstr((char *)a->data, ".entry sum"));
    gpucompile_object_free(a);
    gpucompile_cache_stats_get(sdir, &st);
    CHECK(st.refused == st0.refused + 1 && st.misses == st0.misses + 1);
    CHECK_MSG(l.warnings == 1, "%d warnings:\n%s", l.warnings, l.text);
    CHECK_LOG(&l, "no valid tag");
    /* again: refused, but the warning was this process's one */
    put_file(victim, o, on);
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_nvptx.ll", &t, &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache && strstr((char *)a->data, ".entry saxpy"));
    gpucompile_object_free(a);
    gpucompile_cache_stats_get(sdir, &st);
    CHECK(st.refused == st0.refused + 2);
    CHECK_MSG(l.warnings == 1, "%d warnings:\n%s", l.warnings, l.text);
    /* rewritten: a hit that replays no refusal */
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_nvptx.ll", &t, &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && a->from_cache == 1);
    gpucompile_object_free(a);
    CHECK(l.warnings == 1);
    free(o);
    /* an unusable secret: a warning, no cache (nothing read, nothing written) */
    opts.cache_secret_file = "/nonexistent/secret";
    CHECK(gpucompile_compile_file("examples/kernels/saxpy_nvptx.ll", &t, &opts, &a) == GPUCOMPILE_OK);
    CHECK(a && !a->from_cache && strstr((char *)a->data, ".entry saxpy"));
    gpucompile_object_free(a);
    CHECK(l.warnings == 2);
    CHECK_LOG(&l, "/nonexistent/secret");
    CHECK(newest_entry(sdir, other, sizeof other) == 4);
}

static void test_default_dir(void) {
    char buf[512];
    setenv("XDG_CACHE_HOME", "/x/y", 1);
    CHECK(gpucompile_default_cache_dir(buf, sizeof buf) > 0);
    CHECK_STR(buf, "/x/y/gpucompile");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    gpucompile_default_cache_dir(buf, sizeof buf);
    CHECK_STR(buf, "/home/u/.cache/gpucompile");
}

int main(void) {
    snprintf(dir, sizeof dir, "%s/gpucompile-cachetest-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(dir)) return 1;
    RUN(test_hit_and_miss);
    RUN(test_corrupt_entry_is_replaced);
    RUN(test_changed_library_is_a_miss);
    RUN(test_hooks_bypass_the_cache);
    RUN(test_eviction);
    RUN(test_secret);
    RUN(test_default_dir);
    {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
        free(t_sh(cmd, NULL));
    }
    return TEST_END("cache");
}
