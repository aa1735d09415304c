/* A very small test harness: TEST functions, CHECK macros, a capturing logger, and a closing
   line "NAME: N passed, N failed, N skipped" that tests/run.sh adds up. A failed CHECK prints
   `FAIL file:line: expression`. T_ONLY=NAME in the environment runs only the tests whose
   function name holds NAME (`T_ONLY=eviction build/tests/test_cache`; with make:
   `make test T=test_cache T_ONLY=eviction`); a filter that matches none is a failure. */
#ifndef GPUCOMPILE_TEST_H
#define GPUCOMPILE_TEST_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpucompile.h"

/* Fixtures a test program may leave unused. */
#if defined(__GNUC__)
#define T_HELPER static __attribute__((unused))
#else
#define T_HELPER static
#endif

static int t__passed, t__failed, t__skipped, t__cur_failed, t__cur_skipped;
static const char *t__name;

#define CHECK(c) do { if (!(c)) { t__cur_failed = 1; \
    printf("  FAIL %s:%d: %s\n", __FILE__, __LINE__, #c); } } while (0)
#define CHECK_MSG(c, ...) do { if (!(c)) { t__cur_failed = 1; \
    printf("  FAIL %s:%d: %s: ", __FILE__, __LINE__, #c); printf(__VA_ARGS__); printf("\n"); } } while (0)
#define CHECK_STR(a, b) do { const char *t__a = (a), *t__b = (b); \
    if (!t__a || !t__b || strcmp(t__a, t__b) != 0) { t__cur_failed = 1; \
    printf("  FAIL %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, t__a ? t__a : "(null)", t__b ? t__b : "(null)"); } } while (0)
#define SKIP(...) do { t__cur_skipped = 1; printf("  SKIP %s: ", t__name); printf(__VA_ARGS__); printf("\n"); return; } while (0)
/* The T_ONLY filter: 1 when the test named name is to run. */
static int t__selected(const char *name) {
    const char *only = getenv("T_ONLY");
    return !only || !*only || strstr(name, only) != NULL;
}
#define RUN(fn) do { if (!t__selected(#fn)) break; \
    t__name = #fn; t__cur_failed = 0; t__cur_skipped = 0; fn(); \
    if (t__cur_failed) { t__failed++; printf("FAIL %s\n", #fn); } \
    else if (t__cur_skipped) { t__skipped++; } \
    else { t__passed++; printf("ok   %s\n", #fn); } \
    fflush(stdout); } while (0)
/* With a T_ONLY that matched no test, one failure that says so. */
static int t__end_filter(void) {
    if (t__passed + t__failed + t__skipped == 0 && getenv("T_ONLY") && *getenv("T_ONLY")) {
        printf("FAIL T_ONLY=%s: no test of this program has that in its name\n", getenv("T_ONLY"));
        t__failed++;
    }
    return 0;
}
#define TEST_END(suite) (t__end_filter(), printf("%s: %d passed, %d failed, %d skipped\n", suite, t__passed, t__failed, t__skipped), \
    t__failed ? 1 : 0)

/* A logger that keeps every message (one per line) and the last error. */
typedef struct t_log { char text[65536]; size_t len; int errors, warnings, remarks; } t_log;
static void t_log_func(const gpucompile_diagnostic *d, void *u) {
    t_log *l = (t_log *)u;
    int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s: %s: %s\n",
                     gpucompile_severity_string(d->severity), d->origin, d->message);
    if (n > 0) l->len += (size_t)n;
    if (l->len >= sizeof l->text) l->len = sizeof l->text - 1;
    if (d->severity == GPUCOMPILE_SEVERITY_ERROR) l->errors++;
    if (d->severity == GPUCOMPILE_SEVERITY_WARNING) l->warnings++;
    if (d->severity == GPUCOMPILE_SEVERITY_REMARK) l->remarks++;
}
static gpucompile_logger t_logger(t_log *l) {
    gpucompile_logger g;
    memset(l, 0, sizeof *l);
    g.func = t_log_func;
    g.user_data = l;
    return g;
}
#define CHECK_LOG(l, needle) CHECK_MSG(strstr((l)->text, (needle)) != NULL, "log lacks \"%s\"; log:\n%s", needle, (l)->text)

/* Read a whole file (test data); NULL when missing. */
static char *t_read(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    char *d; long n;
    if (!f) return NULL;
    fseek(f, 0, SEEK_END); n = ftell(f); fseek(f, 0, SEEK_SET);
    d = (char *)malloc((size_t)n + 1);
    if (d && fread(d, 1, (size_t)n, f) != (size_t)n) { free(d); d = NULL; }
    if (d) d[n] = 0;
    fclose(f);
    if (size) *size = (size_t)n;
    return d;
}

/* LLVM's tools (llc, opt, llvm-readelf, mlir-opt, ...) are called by their plain names: the
   bin directory of the LLVM the tests are built with goes first on PATH (llvm-config-N, N the
   major of these headers, else llvm-config), so each oracle is of the same LLVM. */
static void t__llvm_path(void) {
    static int done;
    char cmd[128], dir[1024], *path;
    const char *old = getenv("PATH");
    FILE *p;
    size_t n;
    if (done) return;
    done = 1;
    snprintf(cmd, sizeof cmd, "llvm-config-%d --bindir 2>/dev/null || llvm-config --bindir 2>/dev/null", LLVM_VERSION_MAJOR);
    if (!(p = popen(cmd, "r"))) return;
    n = fread(dir, 1, sizeof dir - 1, p);
    pclose(p);
    while (n && (dir[n - 1] == '\n' || dir[n - 1] == '\r')) n--;
    dir[n] = 0;
    if (!n || !(path = (char *)malloc(n + 2 + (old ? strlen(old) : 0)))) return;
    sprintf(path, "%s:%s", dir, old ? old : "");
    setenv("PATH", path, 1);
    free(path);
}

/* Run a shell command, return its stdout (malloc'd) and exit status. For checking our output
   with real tools (ptxas, llvm-readelf, ...), never used by the library. */
static char *t_sh(const char *cmd, int *status) {
    FILE *p;
    t__llvm_path();
    p = popen(cmd, "r");
    char *out = NULL; size_t len = 0, cap = 0; char chunk[4096]; size_t n;
    if (!p) { if (status) *status = -1; return NULL; }
    while ((n = fread(chunk, 1, sizeof chunk, p)) > 0) {
        if (len + n + 1 > cap) { cap = (len + n + 1) * 2; out = (char *)realloc(out, cap); }
        memcpy(out + len, chunk, n); len += n;
    }
    if (!out) { out = (char *)malloc(1); }
    out[len] = 0;
    { int st = pclose(p); if (status) *status = st; }
    return out;
}
/* Is the tool on PATH (LLVM's bin directory first)? For a skip that names the missing tool. */
T_HELPER int t_have(const char *tool) {
    char cmd[512];
    int st;
    snprintf(cmd, sizeof cmd, "command -v '%s' >/dev/null 2>&1", tool);
    free(t_sh(cmd, &st));
    return st == 0;
}

/* The CUDA toolkit's root ($CUDA_PATH, $CUDA_HOME, /usr/local/cuda: the first with bin/ptxas),
   or NULL. */
T_HELPER const char *t_cuda(void) {
    static char root[1024];
    static int done;
    const char *c;
    char ptxas[1100];
    if (!done) {
        done = 1;
        c = getenv("CUDA_PATH");
        if (!c || !*c) c = getenv("CUDA_HOME");
        if (!c || !*c) c = "/usr/local/cuda";
        snprintf(ptxas, sizeof ptxas, "%s/bin/ptxas", c);
        if (access(ptxas, X_OK) == 0) snprintf(root, sizeof root, "%s", c);
    }
    return root[0] ? root : NULL;
}
/* The command-line tool under test: $GPUCOMPILE (tests/run.sh and `make sanitize` set it, so a
   sanitized build tests its own), else build/gpucompile. */
T_HELPER const char *t_gpucompile(void) {
    const char *g = getenv("GPUCOMPILE");
    return g && *g ? g : "build/gpucompile";
}
/* Options of format f with a logger into l, the rest zero (the defaults). */
T_HELPER gpucompile_options t_options(t_log *l, gpucompile_format f) {
    gpucompile_options o;
    memset(&o, 0, sizeof o);
    o.format = f;
    o.logger = t_logger(l);
    return o;
}

/* Writes size bytes of data to dir/name; the path in path. 1 on success. */
T_HELPER int t_save(const char *dir, const char *name, const void *data, size_t size, char *path, size_t path_size) {
    FILE *f;
    int ok;
    snprintf(path, path_size, "%s/%s", dir, name);
    if (!(f = fopen(path, "wb"))) return 0;
    ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* examples/kernels/<name>, whole and NUL-terminated, or NULL. */
T_HELPER char *t_kernel(const char *name, size_t *size) {
    char path[512];
    snprintf(path, sizeof path, "examples/kernels/%s", name);
    return t_read(path, size);
}

/* Runs cmd: 1 when it succeeded, else 0 with the command and its output printed. */
T_HELPER int t_sh_ok(const char *cmd) {
    int st;
    char *out = t_sh(cmd, &st);
    if (st != 0) printf("  command failed (%d): %s\n%s\n", st, cmd, out ? out : "");
    free(out);
    return st == 0;
}

#if defined(GPUCOMPILE_VULKAN_RUNTIME)
/* The tests that run Vulkan kernels: the runtime's reports counted, the last kept, each printed
   (install with gpucompile_runtime_set_error_callback(t_on_runtime_error, NULL)), and their start. */
#include <llvm-c/Target.h>
static char t_runtime_error[1024];
static int t_runtime_errors; /* every report, validation messages among them */

T_HELPER void t_on_runtime_error(const char *call, int code, const char *message, void *user) {
    (void)user;
    t_runtime_errors++;
    snprintf(t_runtime_error, sizeof t_runtime_error, "%s (%d): %s", call, code, message);
    printf("  runtime: %s\n", t_runtime_error);
}

T_HELPER void t_llvm_targets(void) {
    LLVMInitializeAllTargetInfos();
    LLVMInitializeAllTargets();
    LLVMInitializeAllTargetMCs();
    LLVMInitializeAllAsmPrinters();
}

/* The end of such a program: its module unloaded, its scratch directory removed. */
T_HELPER void t_vulkan_end(const char *dir, void *module) {
    char cmd[512];
    if (module) mgpuModuleUnload(module);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    free(t_sh(cmd, NULL));
}

/* LLVM's targets; a scratch directory into dir (gpucompile-STEM-XXXXXX under $TMPDIR or /tmp);
   the Khronos validation layer on where it is installed (its messages are reports); 1 when clang,
   spirv-val and LLVM's SPIR-V target are there into *have_tools. 0 without a scratch directory. */
T_HELPER int t_vulkan_start(char *dir, size_t size, const char *stem, int *have_tools) {
    LLVMTargetRef t;
    char *msg = NULL;
    t_llvm_targets();
    snprintf(dir, size, "%s/gpucompile-%s-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", stem);
    if (!mkdtemp(dir)) {
        printf("cannot make a scratch directory\n");
        return 0;
    }
    if (!getenv("GPUCOMPILE_VULKAN_VALIDATION") && access("/usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json", R_OK) == 0)
        setenv("GPUCOMPILE_VULKAN_VALIDATION", "1", 1);
    *have_tools = t_sh_ok("command -v clang >/dev/null && command -v spirv-val >/dev/null") &&
                  !LLVMGetTargetFromTriple("spirv1.6-unknown-vulkan1.3-compute", &t, &msg);
    if (msg) LLVMDisposeMessage(msg);
    return 1;
}
#endif
#endif
