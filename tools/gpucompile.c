/* gpucompile: the command-line tool. See ../shared/DESIGN.md's command-line contract and
   `gpucompile --help`. Exit 0 on success, 1 on an invalid target / input / failed compile
   (message on stderr, no output file), 2 on a usage error. */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <unistd.h>
#endif

#define MAX_ITEMS 64

static const char *usage_text =
    "usage: gpucompile [OPTIONS] INPUT\n"
    "Compile an LLVM IR module (.ll text or .bc bitcode; - reads stdin) for GPU targets.\n"
    "\n"
    "  -t, --target ATTR    target attribute text (#gpu.nvptx<...>, #gpu.amdgpu<...>, #nvvm.target<...>,\n"
    "                       #rocdl.target<...>); repeatable, one object per target (default: #gpu.nvptx)\n"
    "  -f, --format FMT     llvm | isa | bin | fatbin (also offloading, assembly, binary, fatbinary); default bin\n"
    "  -o, --output PATH    where the object's bytes go (- for stdout)\n"
    "  --toolkit PATH       CUDA or ROCm root (else CUDA_PATH/CUDA_HOME/CUDA_ROOT, ROCM_PATH/...)\n"
    "  --cache-dir DIR      compile cache (default $XDG_CACHE_HOME/gpucompile or ~/.cache/gpucompile)\n"
    "  --no-cache           do not read or write the compile cache\n"
    "  --bin-method M       NVPTX cubin: nvjitlink | ptxas | driver (default: the first that works)\n"
    "  --tool NAME=PATH     use PATH for an external tool or library (ptxas, fatbinary, nvJitLink, libcuda, ld.lld)\n"
    "  --tool-timeout S     kill an external tool after S seconds (default 300)\n"
    "  --debug              keep debug information\n"
    "  --isolate            compile in a child process: a crash inside LLVM becomes an error\n"
    "  --object-out PATH    also write the object with its kernel metadata (gpucompile_object_serialize)\n"
    "  -l, --link FILE      extra bitcode library, repeatable\n"
    "  --print-target ATTR  parse and verify ATTR only; print its canonical text\n"
    "  -v, --verbose        diagnostics, stage timings and external command lines on stderr\n"
    "  --version            print the version\n"
    "  -h, --help           this text\n";

typedef struct cli {
    const char *targets[MAX_ITEMS];
    int num_targets;
    const char *links[MAX_ITEMS];
    int num_links;
    const char *input, *output, *format, *toolkit, *print_target, *cache_dir, *bin_method, *object_out;
    gpucompile_tool_path tools[MAX_ITEMS];
    int num_tools, no_cache, debug, isolate;
    double tool_timeout;
    int verbose;
} cli;

static void log_stderr(const gpucompile_diagnostic *d, void *user) {
    int verbose = *(const int *)user;
    if (!verbose && d->severity != GPUCOMPILE_SEVERITY_ERROR && d->severity != GPUCOMPILE_SEVERITY_WARNING) return;
    fprintf(stderr, "gpucompile: %s: %s%s%s\n", gpucompile_severity_string(d->severity),
            strcmp(d->origin, "gpucompile") ? d->origin : "", strcmp(d->origin, "gpucompile") ? ": " : "", d->message);
}

static int usage_error(const char *msg, const char *arg) {
    fprintf(stderr, "gpucompile: %s%s%s\n%s", msg, arg ? ": " : "", arg ? arg : "", "try 'gpucompile --help'\n");
    return 2;
}

/* Parses argv into c; returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, cli *c) {
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES(s, l) ((strcmp(a, s) == 0 || strcmp(a, l) == 0) ? (v ? (i++, 1) : (usage_error("missing value for", a), -1)) : 0)
        int t;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) { fputs(usage_text, stdout); return 0; }
        if (strcmp(a, "--version") == 0) {
            printf("gpucompile %s (LLVM %d.%d.%d)\n", GPUCOMPILE_VERSION_STRING, LLVM_VERSION_MAJOR, LLVM_VERSION_MINOR, LLVM_VERSION_PATCH);
            return 0;
        }
        if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) { c->verbose = 1; continue; }
        if ((t = TAKES("-t", "--target")) != 0) {
            if (t < 0) return 2;
            if (c->num_targets == MAX_ITEMS) return usage_error("too many targets", NULL);
            c->targets[c->num_targets++] = v;
            continue;
        }
        if ((t = TAKES("-l", "--link")) != 0) {
            if (t < 0) return 2;
            if (c->num_links == MAX_ITEMS) return usage_error("too many libraries", NULL);
            c->links[c->num_links++] = v;
            continue;
        }
        if ((t = TAKES("-f", "--format")) != 0) { if (t < 0) return 2; c->format = v; continue; }
        if ((t = TAKES("-o", "--output")) != 0) { if (t < 0) return 2; c->output = v; continue; }
        if ((t = TAKES("--toolkit", "--toolkit")) != 0) { if (t < 0) return 2; c->toolkit = v; continue; }
        if ((t = TAKES("--cache-dir", "--cache-dir")) != 0) { if (t < 0) return 2; c->cache_dir = v; continue; }
        if (strcmp(a, "--no-cache") == 0) { c->no_cache = 1; continue; }
        if (strcmp(a, "--debug") == 0) { c->debug = 1; continue; }
        if (strcmp(a, "--isolate") == 0) { c->isolate = 1; continue; }
        if ((t = TAKES("--bin-method", "--bin-method")) != 0) { if (t < 0) return 2; c->bin_method = v; continue; }
        if ((t = TAKES("--object-out", "--object-out")) != 0) { if (t < 0) return 2; c->object_out = v; continue; }
        if ((t = TAKES("--tool-timeout", "--tool-timeout")) != 0) {
            char *end;
            if (t < 0) return 2;
            c->tool_timeout = strtod(v, &end);
            if (*end || c->tool_timeout <= 0) return usage_error("bad --tool-timeout", v);
            continue;
        }
        if ((t = TAKES("--tool", "--tool")) != 0) {
            const char *eq;
            if (t < 0) return 2;
            eq = strchr(v, '=');
            if (!eq || eq == v || c->num_tools == MAX_ITEMS) return usage_error("--tool wants NAME=PATH", v);
            c->tools[c->num_tools].name = v; /* cut at '=' below: argv strings are ours to change */
            c->tools[c->num_tools].path = eq + 1;
            argv[i][eq - v] = 0;
            c->num_tools++;
            continue;
        }
        if ((t = TAKES("--print-target", "--print-target")) != 0) { if (t < 0) return 2; c->print_target = v; continue; }
#undef TAKES
        if (a[0] == '-' && a[1] != 0) return usage_error("unknown option", a);
        if (c->input) return usage_error("more than one input", a);
        c->input = a;
    }
    return -1;
}

/* This program's own path, for --isolate. */
static const char *self_path(const char *argv0) {
    static char buf[4096];
#if defined(__linux__)
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) { buf[n] = 0; return buf; }
#endif
    snprintf(buf, sizeof buf, "%s", argv0);
    return buf;
}

static int print_target(const char *text, gpucompile_logger *logger) {
    gpucompile_target *t = NULL;
    char buf[8192];
    if (gpucompile_target_parse(text, (size_t)-1, NULL, logger, &t) != GPUCOMPILE_OK) return 1;
    if (gpucompile_target_verify(t, logger) != GPUCOMPILE_OK) { gpucompile_target_free(t); return 1; }
    gpucompile_target_print(t, buf, sizeof buf);
    printf("%s\n", buf);
    gpucompile_target_free(t);
    return 0;
}

static void print_object(const gpucompile_object *o) {
    int i, s;
    fprintf(stderr, "gpucompile: %s: %s, %zu bytes%s\n", o->target, gpucompile_format_string(o->format), o->size,
            o->from_cache ? " (from the cache)" : "");
    for (i = 0; i < o->num_kernels; i++) {
        const gpucompile_kernel *k = &o->kernels[i];
        fprintf(stderr, "  kernel %s: params %d", k->name, k->num_params);
        if (k->registers >= 0) fprintf(stderr, ", registers %d", k->registers);
        if (k->sgprs >= 0) fprintf(stderr, ", sgprs %d", k->sgprs);
        if (k->vgprs >= 0) fprintf(stderr, ", vgprs %d", k->vgprs);
        if (k->shared_bytes >= 0) fprintf(stderr, ", shared %d bytes", k->shared_bytes);
        if (k->private_bytes >= 0) fprintf(stderr, ", private %d bytes", k->private_bytes);
        if (k->max_threads >= 0) fprintf(stderr, ", max threads %d", k->max_threads);
        if (k->wavefront_size >= 0) fprintf(stderr, ", wavefront %d", k->wavefront_size);
        if (k->kernarg_bytes >= 0) fprintf(stderr, ", kernarg %d bytes", k->kernarg_bytes);
        fprintf(stderr, "\n");
    }
    fprintf(stderr, "  stages (ms):");
    for (s = GPUCOMPILE_STAGE_PARSE; s < GPUCOMPILE_STAGE_COUNT; s++)
        if (o->stage_ms[s] > 0) fprintf(stderr, " %s %.2f", gpucompile_stage_string((gpucompile_stage)s), o->stage_ms[s]);
    fprintf(stderr, "\n");
}

int main(int argc, char **argv) {
    cli c;
    gpucompile_options opts;
    gpucompile_target *t = NULL;
    gpucompile_object *obj = NULL;
    gpucompile_result r;
    int rc;
    memset(&c, 0, sizeof c);
    if ((rc = parse_args(argc, argv, &c)) >= 0) return rc;
    memset(&opts, 0, sizeof opts);
    opts.logger.func = log_stderr;
    opts.logger.user_data = &c.verbose;
    if (c.print_target) return print_target(c.print_target, &opts.logger);
    if (!c.input) return usage_error("no input file", NULL);
    if (c.format) {
        opts.format = gpucompile_format_from_string(c.format);
        if (!opts.format) return usage_error("unknown format", c.format);
    }
    opts.toolkit_path = c.toolkit;
    opts.bin_method = c.bin_method;
    opts.tools = c.tools;
    opts.num_tools = c.num_tools;
    opts.tool_timeout_s = c.tool_timeout;
    opts.debug = c.debug;
    if (c.isolate) opts.isolate = self_path(argv[0]);
    {
        static char cache_dir[4096];
        if (c.cache_dir) opts.cache_dir = c.cache_dir;
        else if (gpucompile_default_cache_dir(cache_dir, sizeof cache_dir) && strlen(cache_dir) < sizeof cache_dir - 1)
            opts.cache_dir = cache_dir;
        if (c.no_cache) opts.cache_dir = NULL;
    }
    opts.link = c.links;
    opts.num_link = c.num_links;
    if (c.num_targets > 1) return usage_error("several targets are not supported yet", NULL);
    if (c.num_targets == 1) {
        if (gpucompile_target_parse(c.targets[0], (size_t)-1, NULL, &opts.logger, &t) != GPUCOMPILE_OK) return 1;
    } else {
        gpucompile_target d = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
        r = gpucompile_compile_file(c.input, &d, &opts, &obj);
        goto done;
    }
    r = gpucompile_compile_file(c.input, t, &opts, &obj);
done:
    gpucompile_target_free(t);
    if (r != GPUCOMPILE_OK) return 1;
    if (c.verbose) print_object(obj);
    rc = 0;
    if (c.object_out) {
        unsigned char *bytes;
        size_t n;
        if (gpucompile_object_serialize(obj, NULL, &bytes, &n) != GPUCOMPILE_OK ||
            gpucompile_write_file(c.object_out, bytes, n) != GPUCOMPILE_OK) {
            fprintf(stderr, "gpucompile: error: cannot write '%s'\n", c.object_out);
            rc = 1;
        }
        gpucompile_free(NULL, bytes);
    }
    if (c.output && rc == 0) {
        if (gpucompile_write_file(c.output, obj->data, obj->size) != GPUCOMPILE_OK) {
            fprintf(stderr, "gpucompile: error: cannot write '%s'\n", c.output);
            rc = 1;
        }
    }
    gpucompile_object_free(obj);
    return rc;
}
