/* gpucompile: the command-line tool (`gpucompile --help`; README.md). Exit 0 on success, 1 on
   an invalid target / input / failed compile (message on stderr, no output file), 2 on a usage
   error, 128+N after SIGINT, SIGTERM or SIGHUP. Compiles run in worker processes (this program
   with --worker), so that LLVM aborting is one input's error. It knows its backends only
   through the includes below: --help's targets, the batch's file extensions and the default
   target (the first registered) come from the backend table. */
#define GPUCOMPILE_IMPLEMENTATION
#include "gpucompile.h"
#include "gpucompile_nvptx.h"
#include "gpucompile_amdgpu.h"
#include "gpucompile_spirv.h"
#include "gpucompile_vulkan.h"
#include "gpucompile_webgpu.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(_WIN32)
#include <fcntl.h>
#include <io.h>
#include <process.h>
#else
#include <unistd.h>
#endif

#define MAX_ITEMS 64
#define MAX_INPUTS 4096

static const char *usage_text =
    "usage: gpucompile [OPTIONS] INPUT             (.ll text or .bc bitcode; - reads stdin)\n"
    "       gpucompile [OPTIONS] INPUT... [-o DIR]  (a batch: one process, one output per input)\n"
    "       gpucompile --merge [OPTIONS] BINARY...  (combine .gpubin or gpu.binary text files)\n"
    "       gpucompile --list BINARY [--select DEVICE]\n"
    "\n"
    "  -t, --target ATTR    a target attribute (see Targets below; default: the first there)\n"
    "  -f, --format FMT     llvm | isa | bin | fatbin (or MLIR's offloading, assembly, binary, fatbinary)\n"
    "  -o, --output PATH    the object; an LLVM offload binary (several targets); a directory (batch)\n"
    "  --emit-text PATH     also write the binary as MLIR text: gpu.binary @NAME [#gpu.object<...>]\n"
    "  --name NAME          the binary's name (default: the input file's stem); with MLIR text that\n"
    "                       holds several gpu.binary ops: the one to take (else they are merged)\n"
    "  --section NAME       the ELF section the host module puts the binary in (MLIR's section)\n"
    "  --opts OPTIONS       options for the binary step's tool (MLIR's opts; see Targets)\n"
    "  --handler H          for --host: #gpu.select_object<N | TARGET> (default first) or runtime\n"
    "  --host PATH          also write a host LLVM module with NAME_KERNEL_launch() per kernel\n"
    "  -j, --jobs N         compile up to N targets, or N inputs of a batch, at once (default 1);\n"
    "                       what is left over goes inside each module (code generation in parts)\n"
    "  --merge              the inputs are binaries (offload or text), combined in order into one\n"
    "  --list BINARY        print a binary's objects (target, format, size) and kernels\n"
    "  --select DEVICE      with --list: the object a device would load (devices: see Targets)\n"
    "  --toolkit PATH       the vendor's toolkit root (see Targets)\n"
    "  -l, --link FILE      extra bitcode library, linked where needed; repeatable\n"
    ;
static const char *usage_cache = /* ISO C's longest literal is 4095 */
    "  --cache-dir DIR      compile cache (default $XDG_CACHE_HOME/gpucompile or ~/.cache/gpucompile)\n"
    "  --no-cache           do not read or write the compile cache\n"
    "  --cache-remote URL   redis://[[USER:]PASSWORD@]HOST[:PORT][/DB], a shared store behind the\n"
    "                       cache directory (else $GPUCOMPILE_CACHE_REMOTE; its problems are one\n"
    "                       warning)\n"
    "  --cache-remote-password-file FILE\n"
    "                       the store's password, its first line, when the URL has none (else\n"
    "                       $GPUCOMPILE_CACHE_REMOTE_PASSWORD_FILE); the URL may name the user\n"
    "  --cache-secret-file FILE\n"
    "                       the team's cache secret (else $GPUCOMPILE_CACHE_SECRET_FILE): entries\n"
    "                       written carry a tag keyed by it; entries without a valid one are refused\n"
    "  --cache-stats        after the run: the cache's entries and bytes, this run's hits and\n"
    "                       misses (stdout without an input, else stderr)\n"
    "  --cache-clear        remove the cache directory's entries first (alone: only that)\n"
    "  --save-temps DIR     every stage per target in DIR/STEM.CHIP.FORMAT/ (input, linked and\n"
    "                       optimized IR, ISA, binary, tool logs, repro.sh); bypasses the cache\n"
    "  --bin-method M       how the binary step runs, no fallback (see Targets)\n"
    "  --tool NAME=PATH     a tool or library the binary step uses (see Targets)\n"
    "  --tool-timeout S     kill an external tool after S seconds (default 300)\n"
    "  --debug              keep debug information\n"
    "  --isolate            a new compiler process for each compile (default: -j N reused workers)\n"
    "  --in-process         compile in this process (to measure the workers: an LLVM abort ends it)\n"
    "  --max-input BYTES    refuse inputs larger than this (K, M, G suffixes; default 1G)\n"
    "  --object-out PATH    also write the object with its kernel metadata (serialized)\n"
    "  --print-target ATTR  parse and verify ATTR only; print its canonical text\n"
    "  -v, --verbose        kernel metadata, stage timings and tool command lines (shell-quoted)\n"
    "  --version            print the version\n"
    "  -h, --help           this text\n";
static const char *usage_notes =
    "\n"
    "Host symbols are NAME_..., with every character of NAME (and of a kernel's name) outside\n"
    "[A-Za-z0-9_] made '_' (and '_' before a leading digit): --name saxpy-v2 gives saxpy_v2_K_launch.\n"
    "Several -t give one object per target. Batch: each input gives DIR/STEM.EXT, EXT by target and\n"
    "format (see Targets), or .gpubin for several targets; a failed input leaves no file and the\n"
    "others go on (exit 1). To combine per-vendor IR, compile each (with --emit-text or -o) and\n"
    "--merge the results. A compile needs an output: -o PATH (- is stdout,\n"
    "/dev/null only checks), --emit-text, --host or --object-out. Compiles run in worker\n"
    "processes: LLVM aborting on one input is that input's error. Exit: 0 ok, 1 failed (message\n"
    "on stderr, no output left behind), 2 usage error, 128+N after signal N (SIGINT, SIGTERM,\n"
    "SIGHUP: children ended, temporary files removed).\n";

typedef struct cli {
    const char *targets[MAX_ITEMS];
    int num_targets;
    const char *links[MAX_ITEMS];
    int num_links;
    const char *input, *output, *format, *toolkit, *print_target, *cache_dir, *bin_method, *object_out;
    gpucompile_tool_path tools[MAX_ITEMS];
    int num_tools, no_cache, debug, isolate, in_process;
    double tool_timeout;
    unsigned long long max_input;
    int verbose;
    const char *inputs[MAX_INPUTS];     /* every positional argument (--merge and batches take several) */
    int num_inputs, merge, jobs;
    const char *emit_text, *name, *list, *select, *handler;
    const char *host;                   /* --host: the host LLVM module (.ll) */
    const char *section, *tool_options; /* --section, --opts */
    const char *cache_remote, *save_temps, *cache_password_file, *cache_secret_file;
    int cache_stats, cache_clear;
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

/* --help: the options, then the targets this program has (the registered backends). */
static int help(void) {
    size_t n = gpucompile_targets_help(NULL, 0);
    char *targets = (char *)malloc(n + 1);
    fputs(usage_text, stdout);
    fputs(usage_cache, stdout);
    fputs(usage_notes, stdout);
    if (targets) {
        gpucompile_targets_help(targets, n + 1);
        printf("\nTargets (-t), with the formats they make and their file extensions:\n%s", targets);
    }
    free(targets);
    return 0;
}

/* The target without -t: the first backend registered's defaults. */
static gpucompile_target default_target(void) {
    const gpucompile_backend *b = gpucompile_backend_at(0);
    gpucompile_target t = gpucompile_target_defaults(b ? b->kind : GPUCOMPILE_TARGET_CUSTOM);
    t.backend = b;
    return t;
}

/* Parses argv into c; returns -1 to go on, or an exit code. */
static int parse_args(int argc, char **argv, cli *c) {
    int i;
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES(s, l) ((strcmp(a, s) == 0 || strcmp(a, l) == 0) ? (v ? (i++, 1) : (usage_error("missing value for", a), -1)) : 0)
        int t;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) return help();
        if (strcmp(a, "--version") == 0) {
            unsigned ver[3];
            LLVMGetVersion(&ver[0], &ver[1], &ver[2]); /* the libLLVM run on, which may be newer than the headers */
            printf("gpucompile %s (LLVM %u.%u.%u, built with %s)\n", GPUCOMPILE_VERSION_STRING, ver[0], ver[1], ver[2], LLVM_VERSION_STRING);
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
        if ((t = TAKES("--cache-remote", "--cache-remote")) != 0) { if (t < 0) return 2; c->cache_remote = v; continue; }
        if ((t = TAKES("--cache-remote-password-file", "--cache-remote-password-file")) != 0) { if (t < 0) return 2; c->cache_password_file = v; continue; }
        if ((t = TAKES("--cache-secret-file", "--cache-secret-file")) != 0) { if (t < 0) return 2; c->cache_secret_file = v; continue; }
        if (strcmp(a, "--cache-stats") == 0) { c->cache_stats = 1; continue; }
        if (strcmp(a, "--cache-clear") == 0) { c->cache_clear = 1; continue; }
        if ((t = TAKES("--save-temps", "--save-temps")) != 0) { if (t < 0) return 2; c->save_temps = v; continue; }
        if (strcmp(a, "--debug") == 0) { c->debug = 1; continue; }
        if (strcmp(a, "--isolate") == 0) { c->isolate = 1; continue; }
        if (strcmp(a, "--in-process") == 0) { c->in_process = 1; continue; }
        if ((t = TAKES("--bin-method", "--bin-method")) != 0) { if (t < 0) return 2; c->bin_method = v; continue; }
        if ((t = TAKES("--object-out", "--object-out")) != 0) { if (t < 0) return 2; c->object_out = v; continue; }
        if ((t = TAKES("--tool-timeout", "--tool-timeout")) != 0) {
            char *end;
            if (t < 0) return 2;
            c->tool_timeout = strtod(v, &end);
            if (*end || c->tool_timeout <= 0) return usage_error("bad --tool-timeout", v);
            continue;
        }
        if ((t = TAKES("--max-input", "--max-input")) != 0) {
            char *end;
            if (t < 0) return 2;
            c->max_input = strtoull(v, &end, 10);
            if (*end == 'K' || *end == 'k') { c->max_input <<= 10; end++; }
            else if (*end == 'M' || *end == 'm') { c->max_input <<= 20; end++; }
            else if (*end == 'G' || *end == 'g') { c->max_input <<= 30; end++; }
            if (*end || !c->max_input || v[0] == '-') return usage_error("bad --max-input", v);
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
        if ((t = TAKES("--emit-text", "--emit-text")) != 0) { if (t < 0) return 2; c->emit_text = v; continue; }
        if ((t = TAKES("--handler", "--handler")) != 0) {
            if (t < 0) return 2;
            if (gpucompile_handler_parse(v, NULL, NULL) != GPUCOMPILE_OK) return usage_error("--handler wants runtime, #gpu.select_object<N> or #gpu.select_object<TARGET>", v);
            c->handler = v;
            continue;
        }
        if ((t = TAKES("--name", "--name")) != 0) { if (t < 0) return 2; c->name = v; continue; }
        if ((t = TAKES("--host", "--host")) != 0) { if (t < 0) return 2; c->host = v; continue; }
        if ((t = TAKES("--section", "--section")) != 0) { if (t < 0) return 2; c->section = v; continue; }
        if ((t = TAKES("--opts", "--opts")) != 0) { if (t < 0) return 2; c->tool_options = v; continue; }
        if ((t = TAKES("--list", "--list")) != 0) { if (t < 0) return 2; c->list = v; continue; }
        if ((t = TAKES("--select", "--select")) != 0) { if (t < 0) return 2; c->select = v; continue; }
        if (strcmp(a, "--merge") == 0) { c->merge = 1; continue; }
        if ((t = TAKES("-j", "--jobs")) != 0) {
            char *end;
            if (t < 0) return 2;
            c->jobs = (int)strtol(v, &end, 10);
            if (*end || c->jobs < 1 || c->jobs > 1024) return usage_error("bad -j", v);
            continue;
        }
#undef TAKES
        if (a[0] == '-' && a[1] != 0) return usage_error("unknown option", a);
        if (c->num_inputs == MAX_INPUTS) return usage_error("too many inputs", a);
        c->inputs[c->num_inputs++] = a;
        if (!c->input) c->input = a;
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
    char *buf;
    size_t n;
    if (gpucompile_target_parse(text, (size_t)-1, NULL, logger, &t) != GPUCOMPILE_OK) return 1;
    if (gpucompile_target_verify(t, logger) != GPUCOMPILE_OK) { gpucompile_target_free(t); return 1; }
    n = gpucompile_target_print(t, NULL, 0); /* any length: long link lists are not cut */
    buf = (char *)malloc(n + 1);
    if (!buf) { gpucompile_target_free(t); fprintf(stderr, "gpucompile: error: out of memory\n"); return 1; }
    gpucompile_target_print(t, buf, n + 1);
    printf("%s\n", buf);
    free(buf);
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
        if (k->dynamic_shared > 0) fprintf(stderr, ", dynamic shared memory (sized at launch)");
        if (k->metadata) fprintf(stderr, "\n    %s", k->metadata);
        fprintf(stderr, "\n");
    }
    fprintf(stderr, "  stages (ms):");
    for (s = GPUCOMPILE_STAGE_PARSE; s < GPUCOMPILE_STAGE_COUNT; s++)
        if (o->stage_ms[s] > 0) fprintf(stderr, " %s %.2f", gpucompile_stage_string((gpucompile_stage)s), o->stage_ms[s]);
    fprintf(stderr, "\n");
}

/* ---- several targets and binaries --------------------------------------------------------- */
/* The input's file name without directory and extension: the default binary name. */
static void stem(const char *path, char *buf, size_t size) {
    const char *b = path, *p, *dot;
    for (p = path; *p; p++)
        if (*p == '/' || *p == '\\') b = p + 1;
    dot = strchr(b, '.');
    if (strcmp(path, "-") == 0 || b == dot || !*b) { snprintf(buf, size, "binary"); return; }
    snprintf(buf, size, "%.*s", (int)(dot ? (size_t)(dot - b) : strlen(b)), b);
}

/* Writes each (path, bytes) pair, all or none: a failure replaces no existing file. */
static int write_outputs(const char *const *paths, const unsigned char *const *data, const size_t *sizes, int n,
                         const char *const *what) {
    int failed = -1;
    if (gpucompile_write_files(n, paths, (const void *const *)data, sizes, &failed) == GPUCOMPILE_OK) return 0;
    fprintf(stderr, "gpucompile: error: cannot write the %s '%s': %s\n", failed >= 0 ? what[failed] : "output",
            failed >= 0 && paths[failed] ? paths[failed] : "?", strerror(errno));
    return 1;
}

/* -o (offload binary, or the one object's bytes), --emit-text, --object-out and --host (the
   host module for this machine's triple embedding b) of a binary, all written or none; when
   only the host module is refused, the others are still written (exit 1). */
static int write_binary(const cli *c, const gpucompile_binary *b, int raw_object, const gpucompile_logger *logger) {
    const char *paths[4];
    const unsigned char *data[4];
    size_t sizes[4];
    unsigned char *offload = NULL, *serial = NULL;
    char *text = NULL, *host = NULL;
    int rc = 1, refused = 0;
    memset((void *)paths, 0, sizeof paths);
    memset((void *)data, 0, sizeof data);
    memset(sizes, 0, sizeof sizes);
    if (c->output) {
        paths[0] = c->output;
        if (raw_object) { data[0] = b->objects[0]->data; sizes[0] = b->objects[0]->size; }
        else if (gpucompile_binary_write_offload(b, &offload, &sizes[0]) != GPUCOMPILE_OK) goto oom;
        else data[0] = offload;
    }
    if (c->emit_text) {
        size_t n = gpucompile_binary_print(b, NULL, 0);
        if (!(text = (char *)malloc(n + 2))) goto oom;
        gpucompile_binary_print(b, text, n + 1);
        text[n] = '\n';
        paths[1] = c->emit_text; data[1] = (const unsigned char *)text; sizes[1] = n + 1;
    }
    if (c->object_out) {
        if (b->num_objects != 1) { fprintf(stderr, "gpucompile: error: --object-out takes one target\n"); goto done; }
        if (gpucompile_object_serialize(b->objects[0], NULL, &serial, &sizes[2]) != GPUCOMPILE_OK) goto oom;
        paths[2] = c->object_out; data[2] = serial;
    }
    if (c->host) {
        gpucompile_embed_options eo;
        memset(&eo, 0, sizeof eo);
        eo.logger = *logger;
        if (gpucompile_print_host_module(b, NULL, &eo, &host, &sizes[3]) == GPUCOMPILE_OK) {
            paths[3] = c->host; data[3] = (const unsigned char *)host;
        } else {
            refused = 1;
            fprintf(stderr, "gpucompile: error: the host module '%s' is not written%s\n", c->host,
                    c->output || c->emit_text || c->object_out ? "; the other outputs are" : "");
        }
    }
    {
        static const char *const what[4] = {"output", "--emit-text file", "--object-out file", "host module"};
        rc = write_outputs(paths, data, sizes, 4, what) || refused;
    }
    goto done;
oom:
    fprintf(stderr, "gpucompile: error: out of memory\n");
done:
    gpucompile_free(NULL, offload);
    gpucompile_free(NULL, serial);
    gpucompile_free(NULL, host);
    free(text);
    return rc;
}

/* -t into t[] (tp[i] points at each, or tp[0] at the default d); a target given twice (the
   same canonical text) gets a warning: its object would only be there twice. */
static int parse_targets(const cli *c, const gpucompile_logger *logger, gpucompile_target **t, const gpucompile_target **tp,
                         const gpucompile_target *d) {
    char a[4096], b[4096];
    int i, j;
    memset((void *)t, 0, MAX_ITEMS * sizeof *t);
    tp[0] = d;
    for (i = 0; i < c->num_targets; i++) {
        if (gpucompile_target_parse(c->targets[i], (size_t)-1, NULL, logger, &t[i]) != GPUCOMPILE_OK) return 1;
        tp[i] = t[i];
        gpucompile_target_print(t[i], a, sizeof a);
        for (j = 0; j < i; j++) {
            gpucompile_target_print(t[j], b, sizeof b);
            if (strcmp(a, b) == 0) {
                fprintf(stderr, "gpucompile: warning: the target %s is given twice: the binary gets the same object twice\n", a);
                break;
            }
        }
    }
    return 0;
}

static int compile_binary(const cli *c, gpucompile_options *opts) {
    gpucompile_target *t[MAX_ITEMS];
    const gpucompile_target *tp[MAX_ITEMS];
    gpucompile_target d = default_target();
    gpucompile_binary *b = NULL;
    unsigned char *data = NULL;
    size_t size;
    char name[256];
    gpucompile_result r;
    int i, n = c->num_targets ? c->num_targets : 1, rc = 1;
    if (parse_targets(c, &opts->logger, t, tp, &d) != 0) goto done;
    if ((r = gpucompile_read_file_max(c->input, NULL, c->max_input, &data, &size)) != GPUCOMPILE_OK) {
        fprintf(stderr, "gpucompile: error: cannot read '%s': %s\n", c->input, gpucompile_read_file_error(r));
        goto done;
    }
    stem(c->input, name, sizeof name);
    if (gpucompile_compile_binary(data, size, c->input, tp, n, opts, c->jobs, c->name ? c->name : name, &b) != GPUCOMPILE_OK)
        goto done;
    if (c->verbose)
        for (i = 0; i < b->num_objects; i++) print_object(b->objects[i]);
    if (c->handler && (gpucompile_handler_parse(c->handler, b, &opts->logger) != GPUCOMPILE_OK ||
                       gpucompile_binary_verify(b, &opts->logger) != GPUCOMPILE_OK)) goto done;
    rc = write_binary(c, b, n == 1, &opts->logger);
done:
    gpucompile_binary_free(b);
    gpucompile_free(NULL, data);
    for (i = 0; i < c->num_targets; i++) gpucompile_target_free(t[i]);
    return rc;
}

/* Every binary in path: an offload binary is one; MLIR text may hold several. */
static int read_binaries(const char *path, gpucompile_logger *logger, gpucompile_binary ***out, int *n) {
    unsigned char *data;
    size_t size;
    char name[256];
    gpucompile_result r;
    *out = NULL;
    *n = 0;
    if ((r = gpucompile_read_file(path, NULL, &data, &size)) != GPUCOMPILE_OK) {
        fprintf(stderr, "gpucompile: error: cannot read '%s': %s\n", path, gpucompile_read_file_error(r));
        return 1;
    }
    stem(path, name, sizeof name);
    r = gpucompile_binary_read_all(data, size, name, NULL, logger, out, n);
    if (r != GPUCOMPILE_OK) fprintf(stderr, "gpucompile: error: '%s' is not a valid binary\n", path);
    gpucompile_free(NULL, data);
    return r != GPUCOMPILE_OK;
}

static void free_binaries(gpucompile_binary **b, int n) {
    int i;
    for (i = 0; i < n; i++) gpucompile_binary_free(b[i]);
    gpucompile_free(NULL, b);
}

/* One binary from path: with several (MLIR text), the one called want, else all merged. */
static gpucompile_binary *read_binary(const char *path, const char *want, gpucompile_logger *logger) {
    gpucompile_binary **all, *b = NULL;
    int n, i;
    if (read_binaries(path, logger, &all, &n) != 0) return NULL;
    if (n > 1 && want) {
        for (i = 0; i < n && !b; i++)
            if (strcmp(all[i]->name, want) == 0) { b = all[i]; all[i] = NULL; }
        if (!b) {
            fprintf(stderr, "gpucompile: error: '%s' has no gpu.binary @%s; it holds", path, want);
            for (i = 0; i < n; i++) fprintf(stderr, " @%s", all[i]->name);
            fprintf(stderr, "\n");
        }
    } else {
        b = all[0];
        for (i = 1; i < n && b; i++)
            if (gpucompile_binary_merge(b, all[i]) == GPUCOMPILE_OK) all[i] = NULL;
            else { gpucompile_binary_free(b); b = NULL; }
        all[0] = NULL;
    }
    free_binaries(all, n);
    return b;
}

static int merge_binaries(const cli *c, gpucompile_logger *logger) {
    gpucompile_binary *all = NULL;
    int i, rc = 1;
    if (!c->num_inputs) return usage_error("--merge wants binaries to merge", NULL);
    if (c->num_targets) return usage_error("--merge takes binaries, not targets", NULL);
    for (i = 0; i < c->num_inputs; i++) {
        gpucompile_binary *b = read_binary(c->inputs[i], c->name, logger);
        if (!b) goto done;
        if (!all) all = b;
        else if (gpucompile_binary_merge(all, b) != GPUCOMPILE_OK) { gpucompile_binary_free(b); goto done; }
    }
    if (c->name) {
        char *n = (char *)malloc(strlen(c->name) + 1);
        if (!n) goto done;
        strcpy(n, c->name);
        gpucompile_free(&all->allocator, all->name);
        all->name = n;
    }
    if (c->handler && gpucompile_handler_parse(c->handler, all, logger) != GPUCOMPILE_OK) goto done;
    if (gpucompile_binary_verify(all, logger) != GPUCOMPILE_OK) goto done;
    rc = write_binary(c, all, 0, logger);
done:
    gpucompile_binary_free(all);
    return rc;
}

static void list_one(const gpucompile_binary *b) {
    int i, k;
    printf("gpu.binary @%s: %d object%s", b->name, b->num_objects, b->num_objects == 1 ? "" : "s");
    if (b->handler.kind == GPUCOMPILE_HANDLER_SELECT_INDEX) printf(", handler #gpu.select_object<%lld>", (long long)b->handler.index);
    if (b->handler.kind == GPUCOMPILE_HANDLER_SELECT_TARGET) printf(", handler #gpu.select_object<%s>", b->handler.target);
    if (b->handler.kind == GPUCOMPILE_HANDLER_RUNTIME) printf(", handler #gpucompile.runtime_select");
    printf("\n");
    for (i = 0; i < b->num_objects; i++) {
        const gpucompile_object *o = b->objects[i];
        printf("  [%d] %s: %s, %zu bytes\n", i, o->target, gpucompile_format_string(o->format), o->size);
        if (o->properties) printf("      properties: %s\n", o->properties);
        for (k = 0; k < o->num_kernels; k++) {
            printf("      kernel: %s\n", o->kernels[k].name);
            if (o->kernels[k].metadata) printf("        metadata: {%s}\n", o->kernels[k].metadata);
        }
    }
}

/* --list: each binary of the file (--name: that one); --select: the object a device takes. */
static int list_binary(const cli *c, gpucompile_logger *logger) {
    gpucompile_binary **all = NULL, *b;
    int i, n = 0, shown = 0;
    if (read_binaries(c->list, logger, &all, &n) != 0) return 1;
    for (i = 0; i < n; i++)
        if (!c->name || n == 1 || strcmp(all[i]->name, c->name) == 0) { list_one(all[i]); shown++; }
    if (!shown) {
        fprintf(stderr, "gpucompile: error: '%s' has no gpu.binary @%s\n", c->list, c->name);
        free_binaries(all, n);
        return 1;
    }
    if (c->select) {
        gpucompile_device d;
        int index = -1;
        if (n > 1 && !c->name) {
            fprintf(stderr, "gpucompile: error: --select: '%s' holds %d binaries; say which with --name\n", c->list, n);
            free_binaries(all, n);
            return 1;
        }
        for (b = all[0], i = 0; i < n; i++) if (c->name && strcmp(all[i]->name, c->name) == 0) b = all[i];
        d.arch = c->select;
        d.compute_capability = 0;
        if (gpucompile_binary_select(b, &d, logger, &index) != GPUCOMPILE_OK) { free_binaries(all, n); return 1; }
        printf("device %s: [%d] %s %s\n", c->select, index, b->objects[index]->target,
               gpucompile_format_string(b->objects[index]->format));
    }
    free_binaries(all, n);
    return 0;
}

/* ---- batch: several inputs in one process -------------------------------------------------- */
/* One process for many modules keeps LLVM's target set-up, the vendor libraries and the core's
   library index warm; -j N compiles N inputs at once, each on its own thread and LLVM context. */
#if defined(_WIN32)
#include <direct.h>
static int batch_tty(void) { return _isatty(_fileno(stderr)); }
static int batch_mkdir(const char *d) { return _mkdir(d) == 0 || errno == EEXIST; }
#else
#include <sys/stat.h>
static int batch_tty(void) { return isatty(2); }
static int batch_mkdir(const char *d) { return mkdir(d, 0777) == 0 || errno == EEXIST; }
#endif

typedef struct batch {
    const cli *c;
    const gpucompile_options *opts;
    const gpucompile_target *const *targets;
    int num_targets, target_jobs;
    int done, failed, progress;
    const char *ext;
} batch;

typedef struct batch_input { batch *b; gpucompile_parallel *pool; const char *path; } batch_input;

/* The progress line is redrawn after each message; callers hold the pool's lock. */
static void batch_show(batch *b, const char *current) {
    if (!b->progress) return;
    fprintf(stderr, "\r\033[K");
    if (current) fprintf(stderr, "[%d/%d] %s", b->done, b->c->num_inputs, current);
    fflush(stderr);
}

/* Diagnostics name their input: messages of parallel jobs interleave line by line. */
static void batch_log(const gpucompile_diagnostic *d, void *user) {
    const batch_input *in = (const batch_input *)user;
    if (!in->b->c->verbose && d->severity != GPUCOMPILE_SEVERITY_ERROR && d->severity != GPUCOMPILE_SEVERITY_WARNING) return;
    gpucompile_parallel_lock(in->pool);
    batch_show(in->b, NULL);
    fprintf(stderr, "gpucompile: %s: %s: %s%s%s\n", gpucompile_severity_string(d->severity), in->path,
            strcmp(d->origin, "gpucompile") ? d->origin : "", strcmp(d->origin, "gpucompile") ? ": " : "", d->message);
    gpucompile_parallel_unlock(in->pool);
}

static int batch_one(batch *b, gpucompile_parallel *pool, const char *path) {
    gpucompile_options o = *b->opts;
    batch_input in;
    gpucompile_binary *bin = NULL;
    unsigned char *data = NULL, *offload = NULL;
    size_t size = 0;
    char name[256], out[4096];
    gpucompile_result r;
    int i, rc = 1;
    in.b = b;
    in.pool = pool;
    in.path = path;
    o.logger.func = batch_log;
    o.logger.user_data = &in;
    stem(path, name, sizeof name);
    if ((r = gpucompile_read_file_max(path, NULL, b->c->max_input, &data, &size)) != GPUCOMPILE_OK) {
        char msg[512];
        gpucompile_diagnostic d;
        memset(&d, 0, sizeof d);
        snprintf(msg, sizeof msg, "cannot read the file: %s", gpucompile_read_file_error(r));
        d.origin = "gpucompile";
        d.message = msg;
        batch_log(&d, &in);
        return 1;
    }
    if (gpucompile_compile_binary(data, size, path, b->targets, b->num_targets, &o, b->target_jobs, name, &bin) == GPUCOMPILE_OK) {
        rc = 0;
        if (b->c->verbose) {
            gpucompile_parallel_lock(pool);
            batch_show(b, NULL);
            fprintf(stderr, "gpucompile: %s:\n", path);
            for (i = 0; i < bin->num_objects; i++) print_object(bin->objects[i]);
            gpucompile_parallel_unlock(pool);
        }
        if (b->c->output) {
            const void *bytes = bin->objects[0]->data;
            size_t n = bin->objects[0]->size;
            snprintf(out, sizeof out, "%s/%s.%s", b->c->output, name, b->ext);
            if (bin->num_objects > 1 && gpucompile_binary_write_offload(bin, &offload, &n) == GPUCOMPILE_OK) bytes = offload;
            else if (bin->num_objects > 1) rc = 1;
            if (rc == 0 && gpucompile_write_file(out, bytes, n) != GPUCOMPILE_OK) {
                char msg[4200];
                gpucompile_diagnostic d;
                memset(&d, 0, sizeof d);
                snprintf(msg, sizeof msg, "cannot write '%s': %s", out, strerror(errno));
                d.origin = "gpucompile";
                d.message = msg;
                batch_log(&d, &in);
                rc = 1;
            }
        }
    }
    gpucompile_free(NULL, offload);
    gpucompile_binary_free(bin);
    gpucompile_free(NULL, data);
    return rc;
}

/* One input on one of the core's pool threads; a failed input does not stop the others. */
static int batch_work(gpucompile_parallel *pool, int i, void *user) {
    batch *b = (batch *)user;
    int rc;
    gpucompile_parallel_lock(pool);
    batch_show(b, b->c->inputs[i]);
    gpucompile_parallel_unlock(pool);
    rc = batch_one(b, pool, b->c->inputs[i]);
    gpucompile_parallel_lock(pool);
    b->done++;
    b->failed += rc != 0;
    batch_show(b, b->c->inputs[i]);
    gpucompile_parallel_unlock(pool);
    return 0;
}

/* Several inputs: each gets <-o DIR>/<stem>.<ext>; a failed input leaves no file and the
   others go on; exit 1 when any failed. */
static int compile_batch(const cli *c, const gpucompile_options *opts) {
    gpucompile_target *t[MAX_ITEMS];
    const gpucompile_target *tp[MAX_ITEMS];
    gpucompile_target d = default_target();
    batch b;
    char si[256], sj[256];
    int i, j, jobs = c->jobs > 0 ? c->jobs : 1, rc = 1;
    if (c->emit_text || c->object_out || c->name || c->host)
        return usage_error("--emit-text, --object-out, --name and --host take one input", NULL);
    if (c->output && strcmp(c->output, "-") == 0) return usage_error("several inputs want -o DIR", NULL);
    for (i = 0; i < c->num_inputs; i++) {
        if (strcmp(c->inputs[i], "-") == 0) return usage_error("stdin cannot be one of several inputs", NULL);
        stem(c->inputs[i], si, sizeof si);
        for (j = 0; j < i; j++) { /* two inputs must not write one output */
            stem(c->inputs[j], sj, sizeof sj);
            if (strcmp(si, sj) == 0) return usage_error("two inputs have the same name (outputs would collide)", c->inputs[i]);
        }
    }
    if (c->output && !batch_mkdir(c->output)) {
        fprintf(stderr, "gpucompile: error: cannot create the directory '%s'\n", c->output);
        return 1;
    }
    if (parse_targets(c, &opts->logger, t, tp, &d) != 0) goto done;
    memset(&b, 0, sizeof b);
    b.c = c;
    b.opts = opts;
    b.targets = tp;
    b.num_targets = c->num_targets ? c->num_targets : 1;
    b.ext = b.num_targets > 1 ? "gpubin" : gpucompile_format_ext(tp[0], opts->format); /* see --help */
    b.progress = batch_tty();
    if (jobs > c->num_inputs) jobs = c->num_inputs;
    if (jobs > 64) jobs = 64;
    b.target_jobs = c->jobs > jobs ? c->jobs / jobs : 1; /* threads left over go to the targets */
    gpucompile_run_parallel(NULL, c->num_inputs, jobs, batch_work, &b);
    batch_show(&b, NULL);
    if (b.progress) fflush(stderr);
    if (b.failed) fprintf(stderr, "gpucompile: error: %d of %d inputs failed\n", b.failed, c->num_inputs);
    rc = b.failed ? 1 : 0;
done:
    for (i = 0; i < c->num_targets; i++) gpucompile_target_free(t[i]);
    return rc;
}

/* SIGINT, SIGTERM, SIGHUP: end the children, remove the temporary files (a half-written output
   is one: outputs are renamed into place only when complete), exit 128+N. */
static void on_signal(int sig) {
    gpucompile_signal_cleanup();
    _exit(128 + sig);
}

static void catch_signals(void) {
#if defined(_WIN32)
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
#else
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN); /* a closed stdout is a write error (exit 1), not a death */
#endif
}

static int compile(cli *c, gpucompile_options *opts) {
    gpucompile_target *t = NULL;
    gpucompile_object *obj = NULL;
    gpucompile_result r;
    int rc;
    if (c->num_inputs > 1) return compile_batch(c, opts);
    if (c->num_targets > 1 || c->emit_text || c->jobs > 1 || c->host || c->handler) return compile_binary(c, opts);
    {
        gpucompile_target d = default_target();
        if (c->num_targets == 1 && gpucompile_target_parse(c->targets[0], (size_t)-1, NULL, &opts->logger, &t) != GPUCOMPILE_OK) return 1;
        r = gpucompile_compile_file(c->input, t ? t : &d, opts, &obj);
        gpucompile_target_free(t);
    }
    if (r != GPUCOMPILE_OK) return 1;
    if (c->verbose) print_object(obj);
    {   /* both outputs or neither */
        const char *paths[2];
        const unsigned char *data[2];
        size_t sizes[2];
        unsigned char *bytes = NULL;
        size_t n = 0;
        rc = 0;
        if (c->object_out && gpucompile_object_serialize(obj, NULL, &bytes, &n) != GPUCOMPILE_OK) {
            fprintf(stderr, "gpucompile: error: out of memory\n");
            rc = 1;
        }
        paths[0] = c->object_out; data[0] = bytes; sizes[0] = n;
        paths[1] = c->output; data[1] = obj->data; sizes[1] = obj->size;
        if (rc == 0) {
            static const char *const what[2] = {"--object-out file", "output"};
            rc = write_outputs(paths, data, sizes, 2, what);
        }
        gpucompile_free(NULL, bytes);
    }
    gpucompile_object_free(obj);
    return rc;
}

static void cache_report(const char *dir, FILE *f) {
    gpucompile_cache_stats st;
    if (gpucompile_cache_stats_get(dir, &st) != GPUCOMPILE_OK) return;
    fprintf(f, "cache %s: %llu entries, %llu bytes; this run: %llu hits, %llu remote hits, %llu misses, %llu refused\n", dir,
            (unsigned long long)st.entries, (unsigned long long)st.bytes, (unsigned long long)st.hits,
            (unsigned long long)st.remote_hits, (unsigned long long)st.misses, (unsigned long long)st.refused);
}

/* --cache-clear / --cache-stats on dir (NULL: the one the options name); 1 when clearing failed. */
static int cache_command(const cli *c, const char *dir) {
    static char def[4096];
    if (!dir) dir = c->cache_dir;
    if (!dir && gpucompile_default_cache_dir(def, sizeof def) && strlen(def) < sizeof def - 1) dir = def;
    if (!dir) { fprintf(stderr, "gpucompile: error: no cache directory (give --cache-dir)\n"); return 1; }
    if (c->cache_clear && gpucompile_cache_clear(dir) != GPUCOMPILE_OK) {
        fprintf(stderr, "gpucompile: error: cannot remove every entry of '%s'\n", dir);
        return 1;
    }
    if (c->cache_stats && !c->input) cache_report(dir, stdout);
    return 0;
}

int main(int argc, char **argv) {
    cli c;
    gpucompile_options opts;
    gpucompile_workers *workers = NULL;
    const char *self;
    int rc;
    memset(&c, 0, sizeof c);
#if defined(_WIN32)
    _setmode(_fileno(stdin), _O_BINARY); /* objects and bitcode through - */
    _setmode(_fileno(stdout), _O_BINARY);
#endif
    if (argc == 2 && strcmp(argv[1], "--worker") == 0) return gpucompile_worker_main();
    if ((rc = parse_args(argc, argv, &c)) >= 0) return rc;
    memset(&opts, 0, sizeof opts);
    opts.logger.func = log_stderr;
    opts.logger.user_data = &c.verbose;
    if (c.print_target) return print_target(c.print_target, &opts.logger);
    if (c.list) return list_binary(&c, &opts.logger);
    if (c.merge) return merge_binaries(&c, &opts.logger);
    if (!c.input && (c.cache_stats || c.cache_clear)) return cache_command(&c, NULL);
    if (!c.input) return usage_error("no input file", NULL);
    if (!c.output && !c.emit_text && !c.host && !c.object_out)
        return usage_error("no output: give -o PATH (- for stdout, /dev/null to only check), --emit-text, --host or --object-out", NULL);
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
    opts.max_input_bytes = c.max_input;
    opts.section = c.section;
    opts.tool_options = c.tool_options;
    opts.save_temps = c.save_temps;
    {
        static char cache_dir[4096];
        if (c.cache_dir) opts.cache_dir = c.cache_dir;
        else if (gpucompile_default_cache_dir(cache_dir, sizeof cache_dir) && strlen(cache_dir) < sizeof cache_dir - 1)
            opts.cache_dir = cache_dir;
        if (c.no_cache) opts.cache_dir = NULL;
        opts.cache_remote = c.cache_remote ? c.cache_remote : getenv("GPUCOMPILE_CACHE_REMOTE");
        opts.cache_remote_password_file = c.cache_password_file ? c.cache_password_file : getenv("GPUCOMPILE_CACHE_REMOTE_PASSWORD_FILE");
        opts.cache_secret_file = c.cache_secret_file ? c.cache_secret_file : getenv("GPUCOMPILE_CACHE_SECRET_FILE");
        if (c.cache_clear && opts.cache_dir && cache_command(&c, opts.cache_dir) != 0) return 1;
    }
    opts.link = c.links;
    opts.num_link = c.num_links;
    /* Never compile here: LLVM may abort. Workers are forked now, before any thread exists;
       where there is no fork, or with --isolate, each compile gets a new process. */
    self = self_path(argv[0]);
    if (c.in_process) {
        if (c.isolate) return usage_error("--in-process and --isolate exclude each other", NULL);
    } else {
        /* one worker for each compile that can run at once: -j N, at most one per input and target */
        int n = c.jobs > 0 ? c.jobs : 1, most = c.num_inputs * (c.num_targets ? c.num_targets : 1);
        if (n > most) n = most;
        if (n > 64) n = 64;
        if (c.isolate || gpucompile_workers_create(n, self, &workers) != GPUCOMPILE_OK) opts.isolate = self;
    }
    opts.workers = workers;
    catch_signals();
    /* what a killed run left in $TMPDIR goes now, even if no compile of this run writes a
       temporary file of its own (most formats, and cache hits, make none) */
    gpucompile_sweep_temp_files();
    rc = compile(&c, &opts);
    gpucompile_workers_free(workers);
    if (c.cache_stats && opts.cache_dir) cache_report(opts.cache_dir, stderr);
    return rc;
}
