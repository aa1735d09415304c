/* Targets: defaults, verification messages, chip tables (checked against llc -mcpu=help),
   flag queries, canonical printing, parsing, round trips and malformed texts. */
#include "test.h"
#include <llvm/Config/llvm-config.h>

#define T_STR2(x) #x
#define T_STR(x) T_STR2(x)
#define LLVM_V "LLVM " T_STR(LLVM_VERSION_MAJOR)

/* A logger that also remembers the stage and result of the last diagnostic. */
typedef struct s_log { t_log log; gpucompile_stage stage; gpucompile_result result; int count; } s_log;
static void s_log_func(const gpucompile_diagnostic *d, void *u) {
    s_log *l = (s_log *)u;
    l->stage = d->stage;
    l->result = d->result;
    l->count++;
    t_log_func(d, &l->log);
}
static gpucompile_logger s_logger(s_log *l) {
    gpucompile_logger g = t_logger(&l->log);
    memset(l, 0, sizeof *l);
    g.func = s_log_func;
    g.user_data = l;
    return g;
}

/* The canonical print of t, in a static buffer. */
static const char *pr(const gpucompile_target *t) {
    static char buf[4096];
    gpucompile_target_print(t, buf, sizeof buf);
    return buf;
}

/* verify(t) must fail with exactly this one message, from the target stage. */
static void expect_invalid(const gpucompile_target *t, const char *message) {
    s_log l;
    gpucompile_logger g = s_logger(&l);
    char want[600];
    CHECK(gpucompile_target_verify(t, &g) == GPUCOMPILE_ERROR_INVALID_TARGET);
    snprintf(want, sizeof want, "error: gpucompile: %s\n", message);
    CHECK_STR(l.log.text, want);
    CHECK(l.count == 1 && l.stage == GPUCOMPILE_STAGE_TARGET && l.result == GPUCOMPILE_ERROR_INVALID_TARGET);
}

static void expect_valid(const gpucompile_target *t) {
    s_log l;
    gpucompile_logger g = s_logger(&l);
    CHECK_MSG(gpucompile_target_verify(t, &g) == GPUCOMPILE_OK, "%s: %s", pr(t), l.log.text);
    CHECK(l.count == 0);
}

static gpucompile_target *parse_ok(const char *text) {
    s_log l;
    gpucompile_logger g = s_logger(&l);
    gpucompile_target *t = NULL;
    gpucompile_result r = gpucompile_target_parse(text, (size_t)-1, NULL, &g, &t);
    CHECK_MSG(r == GPUCOMPILE_OK && t, "%s: %s", text, l.log.text);
    CHECK(l.count == 0);
    return t;
}

/* parse must fail with one message containing needle. */
static void parse_bad_n(const char *text, size_t len, const char *needle) {
    s_log l;
    gpucompile_logger g = s_logger(&l);
    gpucompile_target *t = (gpucompile_target *)&l; /* must be reset to NULL */
    gpucompile_result r = gpucompile_target_parse(text, len, NULL, &g, &t);
    CHECK_MSG(r == GPUCOMPILE_ERROR_PARSE, "'%.*s' gave %s", (int)len, text, gpucompile_result_string(r));
    CHECK(t == NULL);
    CHECK_MSG(l.count == 1 && l.stage == GPUCOMPILE_STAGE_TARGET && l.result == GPUCOMPILE_ERROR_PARSE, "'%.*s': %d messages", (int)len, text, l.count);
    CHECK_MSG(strstr(l.log.text, needle) != NULL, "'%.*s': log lacks \"%s\"; log: %s", (int)len, text, needle, l.log.text);
    CHECK_MSG(strncmp(l.log.text, "error: gpucompile: column ", 26) == 0, "no column: %s", l.log.text);
}
static void parse_bad(const char *text, const char *needle) { parse_bad_n(text, strlen(text), needle); }

static int same_str(const char *a, const char *b) { return (!a && !b) || (a && b && strcmp(a, b) == 0); }

/* Do a and b mean the same target (after defaults; flags as sets)? */
static int same_target(const gpucompile_target *a, const gpucompile_target *b) {
    int i;
    if (a->kind != b->kind || a->upstream != b->upstream || a->O != b->O || a->num_link != b->num_link) return 0;
    if (strcmp(gpucompile_target_triple(a), gpucompile_target_triple(b)) || strcmp(gpucompile_target_chip(a), gpucompile_target_chip(b)) ||
        strcmp(gpucompile_target_features(a), gpucompile_target_features(b)) || strcmp(gpucompile_target_abi(a), gpucompile_target_abi(b)))
        return 0;
    for (i = 0; i < a->num_flags; i++) if (!gpucompile_target_has_flag(b, a->flags[i])) return 0;
    for (i = 0; i < b->num_flags; i++) if (!gpucompile_target_has_flag(a, b->flags[i])) return 0;
    for (i = 0; i < a->num_link; i++) if (!same_str(a->link[i], b->link[i])) return 0;
    return 1;
}

static void test_defaults(void) {
    gpucompile_target n = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    CHECK(n.kind == GPUCOMPILE_TARGET_NVPTX && n.O == 2 && !n.upstream && n.num_flags == 0 && n.num_link == 0);
    CHECK_STR(gpucompile_target_triple(&n), "nvptx64-nvidia-cuda");
    CHECK_STR(gpucompile_target_chip(&n), "sm_50");
    CHECK_STR(gpucompile_target_features(&n), "+ptx60");
    CHECK(a.kind == GPUCOMPILE_TARGET_AMDGPU && a.O == 2);
    CHECK_STR(gpucompile_target_triple(&a), "amdgcn-amd-amdhsa");
    CHECK_STR(gpucompile_target_chip(&a), "gfx900");
    CHECK_STR(gpucompile_target_features(&a), "");
    CHECK_STR(gpucompile_target_abi(&a), "500");
    CHECK_STR(pr(&n), "#gpu.nvptx");
    CHECK_STR(pr(&a), "#gpu.amdgpu");
    n.upstream = a.upstream = 1;
    CHECK_STR(pr(&n), "#nvvm.target");
    CHECK_STR(pr(&a), "#rocdl.target");
    expect_valid(&n);
    expect_valid(&a);
    /* a parameter set to its default value is still left out */
    n.O = 2; n.triple = "nvptx64-nvidia-cuda"; n.chip = "sm_50"; n.features = LLVM_VERSION_MAJOR >= 22 ? "" : "+ptx60";
    CHECK_STR(pr(&n), "#nvvm.target");
    a.triple = "amdgcn-amd-amdhsa"; a.chip = "gfx900"; a.features = ""; a.abi = LLVM_VERSION_MAJOR >= 22 ? "600" : "500";
    CHECK_STR(pr(&a), "#rocdl.target");
    /* the upstream spellings take MLIR's defaults of the same LLVM; #gpu.nvptx / #gpu.amdgpu keep
       +ptx60 and abi 500 on every LLVM (docs/formats.md) */
    n.features = "+ptx60"; a.abi = "500";
    CHECK_STR(pr(&n), LLVM_VERSION_MAJOR >= 22 ? "#nvvm.target<features = \"+ptx60\">" : "#nvvm.target");
    CHECK_STR(pr(&a), LLVM_VERSION_MAJOR >= 22 ? "#rocdl.target<abi = \"500\">" : "#rocdl.target");
    n.upstream = a.upstream = 0;
    CHECK_STR(pr(&n), "#gpu.nvptx");
    CHECK_STR(pr(&a), "#gpu.amdgpu");
}

static void test_verify_messages(void) {
    static const char *const empty_link[] = {"a.bc", ""};
    static const char *const null_link[] = {NULL};
    static const char *const bad_flags[] = {"fast", ""};
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_target c;
    t.O = -1; expect_invalid(&t, "The optimization level must be a number between 0 and 3.");
    t.O = 4; expect_invalid(&t, "The optimization level must be a number between 0 and 3.");
    t.O = 0; expect_valid(&t);
    t.O = 3; expect_valid(&t);
    /* only the first failure is reported, as in MLIR */
    t.O = 7; t.triple = ""; expect_invalid(&t, "The optimization level must be a number between 0 and 3.");
    t.O = 2; expect_invalid(&t, "The target triple cannot be empty.");
    t.triple = NULL; t.chip = ""; expect_invalid(&t, "The target chip cannot be empty.");
    t.chip = "sm_90";
    t.link = empty_link; t.num_link = 2; expect_invalid(&t, "All the elements in the `link` array must be strings.");
    t.link = null_link; t.num_link = 1; expect_invalid(&t, "All the elements in the `link` array must be strings.");
    t.link = NULL; t.num_link = 1; expect_invalid(&t, "All the elements in the `link` array must be strings.");
    t.link = empty_link; t.num_link = 1; expect_valid(&t);
    t.flags = bad_flags; t.num_flags = 2; expect_invalid(&t, "Flag names cannot be empty.");
    t.num_flags = 1; expect_valid(&t);
    t.chip = "sm_999"; expect_invalid(&t, "The chip 'sm_999' is not supported by " LLVM_V " (NVPTX).");
    t.chip = "gfx90a"; expect_invalid(&t, "The chip 'gfx90a' is not supported by " LLVM_V " (NVPTX).");
    t.chip = "sm_90"; t.triple = "amdgcn-amd-amdhsa";
    expect_invalid(&t, "The target triple 'amdgcn-amd-amdhsa' is not an NVPTX triple (nvptx64-... or nvptx-...).");
    t.triple = "nvptx-nvidia-cuda"; expect_valid(&t);
    a.abi = "700"; expect_invalid(&a, "Invalid ABI version, it must be `400`, `500` or '600'.");
    a.abi = ""; expect_invalid(&a, "Invalid ABI version, it must be `400`, `500` or '600'.");
    a.abi = "600"; expect_valid(&a);
    a.abi = "400"; expect_valid(&a);
    a.chip = "gfx9999"; expect_invalid(&a, "The chip 'gfx9999' is not supported by " LLVM_V " (AMDGPU).");
    a.chip = "gfx90a:xnack"; expect_invalid(&a, "The chip 'gfx90a:xnack' is not supported by " LLVM_V " (AMDGPU).");
    a.chip = "gfx90a:sramecc-:xnack+"; expect_valid(&a);
    a.chip = "gfx9-generic";
    expect_invalid(&a, "The chip 'gfx9-generic' needs code object version 6: abi = \"600\".");
    a.abi = "600"; expect_valid(&a);
    a.abi = NULL; a.upstream = 1; /* #rocdl.target's default abi is MLIR's of the same LLVM: "600" from 22 */
    CHECK_STR(gpucompile_target_abi(&a), LLVM_VERSION_MAJOR >= 22 ? "600" : "500");
    CHECK((gpucompile_target_verify(&a, NULL) == GPUCOMPILE_OK) == (LLVM_VERSION_MAJOR >= 22));
    a.upstream = 0; a.abi = "400";
    a.chip = "gfx1100"; a.triple = "nvptx64-nvidia-cuda";
    expect_invalid(&a, "The target triple 'nvptx64-nvidia-cuda' is not an AMDGPU triple (amdgcn-...).");
    /* the ABI check is AMDGPU's only */
    t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    t.abi = "600"; expect_valid(&t);
    /* custom: MLIR's generic checks; chips and triples are the backend's business */
    c = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    expect_invalid(&c, "The target triple cannot be empty.");
    c.triple = "spirv64-unknown-unknown"; expect_invalid(&c, "The target chip cannot be empty.");
    c.chip = "anything-goes"; expect_valid(&c);
    c.O = 5; expect_invalid(&c, "The optimization level must be a number between 0 and 3.");
    c = gpucompile_target_defaults(GPUCOMPILE_TARGET_NONE);
    expect_invalid(&c, "The target kind must be NVPTX, AMDGPU or custom.");
    CHECK(gpucompile_target_verify(NULL, NULL) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
    t.O = 9;
    CHECK(gpucompile_target_verify(&t, NULL) == GPUCOMPILE_ERROR_INVALID_TARGET); /* silent without a logger */
}

static void test_chip_tables(void) {
    static const char *const nv19[] = {"sm_20", "sm_21", "sm_30", "sm_32", "sm_35", "sm_37", "sm_50", "sm_52", "sm_53", "sm_60",
        "sm_61", "sm_62", "sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_90a"};
    static const char *const amd19[] = {"gfx600", "gfx700", "gfx801", "gfx900", "gfx906", "gfx908", "gfx90a", "gfx90c",
        "gfx942", "gfx1010", "gfx1030", "gfx1036", "gfx1100", "gfx1103", "gfx1150", "gfx1152", "gfx1200", "gfx1201",
        "gfx9-generic", "gfx10-1-generic", "gfx10-3-generic", "gfx11-generic", "gfx12-generic",
        "gfx90a:xnack+", "gfx90a:xnack-", "gfx90a:sramecc+", "gfx942:sramecc-:xnack+", "gfx942:xnack+:sramecc-",
        "gfx900:xnack-", "gfx1010:xnack+"};
    static const char *const amd_bad[] = {"", "gfx", "gfx9999", "gfx90a:", "gfx90a:xnack", "gfx90a:xnack*", "gfx90a:foo+",
        "gfx90a:xnack+:xnack-", "gfx900:sramecc+", "gfx1100:xnack+", "gfx90a::xnack+", "GFX90A", "gfx90a ", " gfx90a",
        "tahiti", "generic", "sm_90", ":xnack+", "gfx90a:+", "gfx90a:-"};
    size_t i;
    for (i = 0; i < sizeof nv19 / sizeof nv19[0]; i++) CHECK_MSG(gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, nv19[i]), "%s", nv19[i]);
    for (i = 0; i < sizeof amd19 / sizeof amd19[0]; i++) CHECK_MSG(gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, amd19[i]), "%s", amd19[i]);
    for (i = 0; i < sizeof amd_bad / sizeof amd_bad[0]; i++)
        CHECK_MSG(!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, amd_bad[i]), "'%s'", amd_bad[i]);
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_999"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_9"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_90b"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "gfx900"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, ""));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, NULL));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NONE, "sm_90"));
    CHECK(gpucompile_chip_supported(GPUCOMPILE_TARGET_CUSTOM, "whatever"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_CUSTOM, ""));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_100b"));
    CHECK(gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, "gfx940") == (LLVM_VERSION_MAJOR <= 20));
#if LLVM_VERSION_MAJOR == 19
    /* newer NVIDIA chips: accepted, compiled as sm_90 PTX that the toolchain assembles */
    CHECK(gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_100"));
    CHECK(gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_120a"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, "sm_88"));
    CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, "gfx950"));
#endif
#if LLVM_VERSION_MAJOR >= 22
    {
        static const char *const nv22[] = {"sm_88", "sm_100f", "sm_101", "sm_103a", "sm_110", "sm_110f", "sm_120f", "sm_121a"};
        static const char *const amd22[] = {"gfx950", "gfx950:xnack+", "gfx9-4-generic", "gfx9-4-generic:sramecc-", "gfx1153",
                                            "gfx1250", "gfx1250:xnack-", "gfx1251"};
        for (i = 0; i < sizeof nv22 / sizeof nv22[0]; i++) CHECK_MSG(gpucompile_chip_supported(GPUCOMPILE_TARGET_NVPTX, nv22[i]), "%s", nv22[i]);
        for (i = 0; i < sizeof amd22 / sizeof amd22[0]; i++) CHECK_MSG(gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, amd22[i]), "%s", amd22[i]);
        CHECK(!gpucompile_chip_supported(GPUCOMPILE_TARGET_AMDGPU, "gfx1250:sramecc+"));
    }
#endif
}

/* Our tables against what llc of the same LLVM lists, both ways: every sm_/gfx chip it lists
   is ours, and every chip of ours is listed (but LLVM 19's chips reached through sm_90 PTX). */
static void check_against_llc(const char *march, gpucompile_target_kind kind, const char *prefix) {
    char cmd[256], *out, *line, *save = NULL;
    const char *name;
    int st, listed = 0, in_cpus = 0, i, native, forward = 0;
    snprintf(cmd, sizeof cmd, "llc -march=%s -mcpu=help 2>&1 </dev/null", march);
    out = t_sh(cmd, &st);
    for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char chip[64];
        if (strstr(line, "Available CPUs")) { in_cpus = 1; continue; }
        if (strstr(line, "Available features")) break;
        if (!in_cpus || sscanf(line, " %63s", chip) != 1 || strncmp(chip, prefix, strlen(prefix)) != 0) continue;
        listed++;
        CHECK_MSG(gpucompile_chip_supported(kind, chip), "llc lists %s, our table lacks it", chip);
    }
    CHECK_MSG(listed > 15, "llc listed only %d %s chips", listed, prefix);
    free(out); /* strtok cut it up: read it again */
    out = t_sh(cmd, &st);
    for (i = 0; (name = gpucompile_chip_name(kind, i, &native)) != NULL; i++) {
        char needle[64];
        snprintf(needle, sizeof needle, "\n  %s ", name);
        if (!native) { forward++; continue; }
        CHECK_MSG(strstr(out, needle) != NULL, "our %s is not in llc's list", name);
    }
    CHECK_MSG(i - forward == listed, "%d chips of ours for LLVM %d, llc lists %d", i - forward, LLVM_VERSION_MAJOR, listed);
    CHECK(LLVM_VERSION_MAJOR == 19 || forward == 0); /* sm_90 PTX for newer chips: LLVM 19 only */
    free(out);
}

static void test_chips_vs_llc(void) {
    int st;
    char *v = t_sh("llc --version >/dev/null 2>&1", &st);
    free(v);
    if (st != 0) SKIP("llc of LLVM %d not found", LLVM_VERSION_MAJOR);
    v = t_sh("llc --version", &st);
    CHECK_MSG(v && strstr(v, "LLVM version " LLVM_VERSION_STRING), "llc is not LLVM %s's: %s", LLVM_VERSION_STRING, v ? v : "");
    free(v);
    check_against_llc("nvptx64", GPUCOMPILE_TARGET_NVPTX, "sm_");
    check_against_llc("amdgcn", GPUCOMPILE_TARGET_AMDGPU, "gfx");
}

static void test_flag_queries(void) {
    static const char *const all[] = {"fast", "ftz", "daz", "finite_only", "unsafe_math", "unsafe_sqrt", "no_wave64"};
    static const char *const both[] = {"no_wave64", "wave64"};
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    CHECK(!gpucompile_target_fast(&t) && !gpucompile_target_ftz(&t) && !gpucompile_target_daz(&t));
    CHECK(!gpucompile_target_finite_only(&t) && !gpucompile_target_unsafe_math(&t));
    CHECK(gpucompile_target_wave64(&t) && gpucompile_target_correct_sqrt(&t));
    CHECK(!gpucompile_target_has_flag(&t, "fast"));
    t.flags = all;
    t.num_flags = 7;
    CHECK(gpucompile_target_fast(&t) && gpucompile_target_ftz(&t) && gpucompile_target_daz(&t));
    CHECK(gpucompile_target_finite_only(&t) && gpucompile_target_unsafe_math(&t));
    CHECK(!gpucompile_target_wave64(&t) && !gpucompile_target_correct_sqrt(&t));
    CHECK(gpucompile_target_has_flag(&t, "unsafe_sqrt") && !gpucompile_target_has_flag(&t, "wave64"));
    t.num_flags = 2; /* only fast, ftz */
    CHECK(gpucompile_target_fast(&t) && !gpucompile_target_daz(&t) && gpucompile_target_wave64(&t));
    t.flags = both; /* wave64 forces it even next to no_wave64 */
    CHECK(gpucompile_target_wave64(&t));
    t.num_flags = 1;
    CHECK(!gpucompile_target_wave64(&t));
    t.flags = NULL; t.num_flags = 3; /* inconsistent: no crash, no flags */
    CHECK(!gpucompile_target_has_flag(&t, "fast") && gpucompile_target_wave64(&t));
    CHECK(!gpucompile_target_has_flag(NULL, "fast"));
    {
        gpucompile_target *p = parse_ok("#gpu.amdgpu<flags = {unsafe_sqrt, daz, no_wave64, finite_only}>");
        if (p) {
            CHECK(gpucompile_target_daz(p) && gpucompile_target_finite_only(p) && !gpucompile_target_wave64(p));
            CHECK(!gpucompile_target_correct_sqrt(p) && !gpucompile_target_fast(p) && !gpucompile_target_unsafe_math(p));
        }
        gpucompile_target_free(p);
        p = parse_ok("#nvvm.target<flags = {ftz, fast}>");
        if (p) CHECK(gpucompile_target_fast(p) && gpucompile_target_ftz(p) && !gpucompile_target_daz(p) && !p->flag_values);
        gpucompile_target_free(p);
        /* values: MLIR 22's ptxas-cmd-options, kept as canonical text; a bare name has none */
        p = parse_ok("#nvvm.target<flags = {\"ptxas-cmd-options\" = [ \"-v\" ,\"-O3\"], fast, n = 0x1F, u = unit}>");
        if (p) {
            CHECK(p->num_flags == 4 && p->flag_values);
            CHECK_STR(gpucompile_target_flag_value(p, "ptxas-cmd-options"), "[\"-v\", \"-O3\"]");
            CHECK_STR(gpucompile_target_flag_value(p, "n"), "31 : i64");
            CHECK(!gpucompile_target_flag_value(p, "fast") && gpucompile_target_fast(p));
            CHECK(!gpucompile_target_flag_value(p, "u") && gpucompile_target_has_flag(p, "u"));
            CHECK(!gpucompile_target_flag_value(p, "absent"));
        }
        gpucompile_target_free(p);
    }
    { /* values given through the API are printed as they are */
        static const char *const names[] = {"ptxas-cmd-options", "ftz"};
        static const char *const values[] = {"[\"-v\"]", NULL};
        gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
        t.flags = names; t.num_flags = 2; t.flag_values = values;
        CHECK_STR(pr(&t), "#gpu.nvptx<flags = {ftz, \"ptxas-cmd-options\" = [\"-v\"]}>");
        CHECK_STR(gpucompile_target_flag_value(&t, "ptxas-cmd-options"), "[\"-v\"]");
    }
}

static void test_print(void) {
    static const char *const flags[] = {"ftz", "fast"};
    static const char *const link[] = {"libm.bc"};
    static const char *const aflags[] = {"no_wave64", "daz", "daz"};
    static const char *const odd_flags[] = {"a-b", "9x", "a.b$c", "_x", "say \"hi\""};
    static const char *const odd_link[] = {"a\"b\\c\nd\t\x7f\xc3\xa9", NULL, ""};
    gpucompile_target t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    gpucompile_target a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    gpucompile_target c = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    char small[8];
    t.O = 3; t.chip = "sm_90"; t.features = "+ptx80"; t.flags = flags; t.num_flags = 2; t.link = link; t.num_link = 1;
    CHECK_STR(pr(&t), "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\"]>");
    t.upstream = 1;
    CHECK_STR(pr(&t), "#nvvm.target<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\"]>");
    t.triple = "nvptx-nvidia-cuda"; t.O = 0; t.features = ""; t.num_flags = 0; t.num_link = 0; t.upstream = 0;
    CHECK_STR(pr(&t), "#gpu.nvptx<O = 0, triple = \"nvptx-nvidia-cuda\", chip = \"sm_90\", features = \"\">");
    t.abi = "400"; /* not an NVPTX parameter: never printed */
    CHECK_STR(pr(&t), "#gpu.nvptx<O = 0, triple = \"nvptx-nvidia-cuda\", chip = \"sm_90\", features = \"\">");
    t.upstream = 1;
    a.chip = "gfx90a"; a.abi = "400"; a.flags = aflags; a.num_flags = 3; /* repeats printed once */
    CHECK_STR(pr(&a), "#gpu.amdgpu<chip = \"gfx90a\", abi = \"400\", flags = {daz, no_wave64}>");
    a.features = "+wavefrontsize64"; a.O = 1; a.triple = "amdgcn-amd-amdpal";
    CHECK_STR(pr(&a), "#gpu.amdgpu<O = 1, triple = \"amdgcn-amd-amdpal\", chip = \"gfx90a\", features = \"+wavefrontsize64\", abi = \"400\", flags = {daz, no_wave64}>");
    a = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
    a.O = -12; a.flags = odd_flags; a.num_flags = 5; a.link = odd_link; a.num_link = 3;
    CHECK_STR(pr(&a), "#gpu.amdgpu<O = -12, flags = {\"9x\", _x, \"a-b\", a.b$c, \"say \\22hi\\22\"}, "
                      "link = [\"a\\22b\\\\c\\0Ad\\09\\7F\\C3\\A9\", unit, \"\"]>");
    c.custom_name = "spirv.target"; c.triple = "spirv64"; c.chip = "v1.5"; c.abi = "x";
    CHECK_STR(pr(&c), "#spirv.target<triple = \"spirv64\", chip = \"v1.5\", abi = \"x\">");
    c = gpucompile_target_defaults(GPUCOMPILE_TARGET_CUSTOM);
    CHECK_STR(pr(&c), "#custom");
    /* snprintf semantics */
    t = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
    t.chip = "sm_90";
    CHECK(gpucompile_target_print(&t, NULL, 0) == strlen("#gpu.nvptx<chip = \"sm_90\">"));
    memset(small, 'x', sizeof small);
    CHECK(gpucompile_target_print(&t, small, 0) == 26 && small[0] == 'x');
    CHECK(gpucompile_target_print(&t, small, 1) == 26 && small[0] == 0 && small[1] == 'x');
    CHECK(gpucompile_target_print(&t, small, sizeof small) == 26);
    CHECK_STR(small, "#gpu.nv");
    {
        char exact[27];
        CHECK(gpucompile_target_print(&t, exact, 26) == 26);
        CHECK_STR(exact, "#gpu.nvptx<chip = \"sm_90\"");
        CHECK(gpucompile_target_print(&t, exact, 27) == 26);
        CHECK_STR(exact, "#gpu.nvptx<chip = \"sm_90\">");
    }
}

static void test_parse_values(void) {
    gpucompile_target *t = parse_ok("#gpu.nvptx<O = 3, triple = \"nvptx-nvidia-cuda\", chip = \"sm_90\", features = \"+ptx80\", "
                                    "flags = {fast, ftz}, link = [\"libm.bc\", \"b.bc\"]>");
    if (t) {
        CHECK(t->kind == GPUCOMPILE_TARGET_NVPTX && !t->upstream && t->O == 3);
        CHECK_STR(t->triple, "nvptx-nvidia-cuda");
        CHECK_STR(t->chip, "sm_90");
        CHECK_STR(t->features, "+ptx80");
        CHECK(t->abi == NULL && t->backend == NULL && t->custom_name == NULL);
        CHECK(t->num_flags == 2 && t->num_link == 2);
        if (t->num_flags == 2) { CHECK_STR(t->flags[0], "fast"); CHECK_STR(t->flags[1], "ftz"); }
        if (t->num_link == 2) { CHECK_STR(t->link[0], "libm.bc"); CHECK_STR(t->link[1], "b.bc"); }
        expect_valid(t);
    }
    gpucompile_target_free(t);
    /* parameters not written are the defaults (NULL strings) */
    t = parse_ok("#rocdl.target<abi = \"400\">");
    if (t) {
        CHECK(t->kind == GPUCOMPILE_TARGET_AMDGPU && t->upstream && t->O == 2 && !t->triple && !t->chip && !t->features);
        CHECK(t->num_flags == 0 && t->flags == NULL && t->num_link == 0 && t->link == NULL);
        CHECK_STR(t->abi, "400");
        CHECK_STR(gpucompile_target_chip(t), "gfx900");
    }
    gpucompile_target_free(t);
    /* whitespace anywhere between tokens, any order, empty <> {} [] */
    t = parse_ok(" \t\n#gpu.amdgpu \n< link=[ ] ,flags={ }, abi\t=\r\n\"500\" , O =\n0 , chip=\"gfx1100\" >\n ");
    if (t) {
        CHECK(t->O == 0 && t->num_link == 0 && t->num_flags == 0);
        CHECK_STR(pr(t), "#gpu.amdgpu<O = 0, chip = \"gfx1100\">");
    }
    gpucompile_target_free(t);
    t = parse_ok("#gpu.nvptx<>");
    if (t) CHECK_STR(pr(t), "#gpu.nvptx");
    gpucompile_target_free(t);
    /* integers: decimal, hex, negative (MLIR accepts "- 1"), the int range's ends */
    {
        static const struct { const char *text; int O; } ints[] = {
            {"#gpu.nvptx<O = 0x3>", 3}, {"#gpu.nvptx<O = 0X1>", 1}, {"#gpu.nvptx<O = -1>", -1}, {"#gpu.nvptx<O = - 1>", -1},
            {"#gpu.nvptx<O = 007>", 7}, {"#gpu.nvptx<O = 2147483647>", 2147483647}, {"#gpu.nvptx<O = -2147483648>", -2147483647 - 1},
            {"#gpu.nvptx<O = 0x7fffffff>", 2147483647}};
        size_t i;
        for (i = 0; i < sizeof ints / sizeof ints[0]; i++) {
            t = parse_ok(ints[i].text);
            if (t) CHECK_MSG(t->O == ints[i].O, "%s gave %d", ints[i].text, t->O);
            gpucompile_target_free(t);
        }
    }
    /* string escapes */
    t = parse_ok("#gpu.nvptx<chip = \"a\\\"b\\\\c\\nd\\te\\41\\7f\\C3\\a9\", flags = {\"x y\", \"\\22\"}>");
    if (t) {
        CHECK_STR(t->chip, "a\"b\\c\nd\teA\x7f\xc3\xa9");
        CHECK(t->num_flags == 2);
        if (t->num_flags == 2) { CHECK_STR(t->flags[0], "x y"); CHECK_STR(t->flags[1], "\""); }
        CHECK_STR(pr(t), "#gpu.nvptx<chip = \"a\\22b\\\\c\\0Ad\\09eA\\7F\\C3\\A9\", flags = {\"\\22\", \"x y\"}>");
    }
    gpucompile_target_free(t);
    /* raw bytes above 0x7F inside strings are kept as they are */
    t = parse_ok("#gpu.nvptx<link = [\"caf\xc3\xa9.bc\"]>");
    if (t && t->num_link == 1) CHECK_STR(t->link[0], "caf\xc3\xa9.bc");
    gpucompile_target_free(t);
    /* len shorter than the string: only that much is read */
    {
        gpucompile_target *p = NULL;
        const char *text = "#gpu.nvptx<O = 1>garbage";
        CHECK(gpucompile_target_parse(text, 17, NULL, NULL, &p) == GPUCOMPILE_OK && p && p->O == 1);
        gpucompile_target_free(p);
        p = NULL;
        CHECK(gpucompile_target_parse(text, 10, NULL, NULL, &p) == GPUCOMPILE_OK && p && p->O == 2);
        gpucompile_target_free(p);
    }
    /* bad arguments */
    {
        gpucompile_target *p = NULL;
        CHECK(gpucompile_target_parse(NULL, 0, NULL, NULL, &p) == GPUCOMPILE_ERROR_INVALID_ARGUMENT && !p);
        CHECK(gpucompile_target_parse("#gpu.nvptx", (size_t)-1, NULL, NULL, NULL) == GPUCOMPILE_ERROR_INVALID_ARGUMENT);
        gpucompile_target_free(NULL);
    }
}

/* link = [1]: parsed (MLIR's parser takes any attribute there), refused by verify with MLIR's words. */
static void test_link_non_string(void) {
    static const char *const texts[] = {"#gpu.nvptx<link = [1]>", "#gpu.nvptx<link = [\"a.bc\", 1 : i64]>",
        "#gpu.nvptx<link = [[\"a.bc\"]]>", "#gpu.nvptx<link = [@f, true, unit]>", "#gpu.nvptx<link = [{a = \"b\"}, -2.5e3]>",
        "#gpu.nvptx<link = [#gpu.nvptx<chip = \"sm_90\">, (i32) -> i32]>", "#gpu.nvptx<link = [\"\"]>"};
    size_t i;
    for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        gpucompile_target *t = parse_ok(texts[i]);
        if (!t) continue;
        expect_invalid(t, "All the elements in the `link` array must be strings.");
        gpucompile_target_free(t);
    }
    {
        gpucompile_target *t = parse_ok("#gpu.nvptx<link = [\"a.bc\", 1, \"b.bc\"]>");
        if (t) {
            CHECK(t->num_link == 3 && t->link[1] == NULL);
            CHECK_STR(t->link[2], "b.bc");
            /* a non-string element prints as unit, which reads back as a non-string element */
            CHECK_STR(pr(t), "#gpu.nvptx<link = [\"a.bc\", unit, \"b.bc\"]>");
        }
        gpucompile_target_free(t);
    }
}

static void test_round_trips(void) {
    static const char *const canon[] = {
        "#gpu.nvptx", "#nvvm.target", "#gpu.amdgpu", "#rocdl.target",
        "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\"]>",
        "#gpu.amdgpu<chip = \"gfx90a\", abi = \"400\", flags = {daz, no_wave64}>",
        "#gpu.nvptx<O = 0, triple = \"nvptx-nvidia-cuda\", chip = \"sm_90a\", features = \"\">",
        "#nvvm.target<chip = \"sm_90\", flags = {fast, \"ptxas-cmd-options\" = [\"-v\", \"a\\22b\"], w = 1 : i32, x = [1, [true]], y = -3 : i64}>",
        "#rocdl.target<O = 1, triple = \"amdgcn-amd-amdpal\", chip = \"gfx942:sramecc-:xnack+\", features = \"+wavefrontsize64\", abi = \"400\", flags = {correct_sqrt, wave64}, link = [\"a.bc\", \"b c.bc\"]>",
        "#gpu.nvptx<O = -7, chip = \"\\22q\\22\\\\\\0A\\C3\\A9\", flags = {\"9x\", _x, \"a-b\", a.b$c}>",
        "#gpu.nvptx<O = 2147483647>", "#gpu.nvptx<O = -2147483648>",
        "#gpu.nvptx<link = [\"a.bc\", unit, \"\"]>", "#gpu.amdgpu<features = \"\\09\">", "#gpu.amdgpu<triple = \"\">"};
    size_t i;
    for (i = 0; i < sizeof canon / sizeof canon[0]; i++) {
        gpucompile_target *t = parse_ok(canon[i]), *u;
        char buf[1024];
        size_t n;
        if (!t) continue;
        n = gpucompile_target_print(t, buf, sizeof buf);
        CHECK(n == strlen(canon[i]));
        CHECK_STR(buf, canon[i]);
        u = parse_ok(buf);
        if (u) CHECK_MSG(same_target(t, u), "%s", canon[i]);
        gpucompile_target_free(u);
        gpucompile_target_free(t);
    }
    /* parse(print(t)) equals t for targets built in code */
    {
        static const char *const fl[] = {"ftz", "fast", "a-b", "z"};
        static const char *const ln[] = {"/x/libdevice.10.bc", "we\"ird\\path\n.bc"};
        gpucompile_target ts[4];
        ts[0] = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
        ts[0].O = 1; ts[0].chip = "sm_80"; ts[0].flags = fl; ts[0].num_flags = 4; ts[0].link = ln; ts[0].num_link = 2;
        ts[1] = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
        ts[1].upstream = 1; ts[1].abi = "400"; ts[1].features = "+xnack"; ts[1].flags = fl; ts[1].num_flags = 1;
        ts[2] = gpucompile_target_defaults(GPUCOMPILE_TARGET_AMDGPU);
        ts[3] = gpucompile_target_defaults(GPUCOMPILE_TARGET_NVPTX);
        ts[3].upstream = 1; ts[3].triple = "nvptx64-nvidia-cuda"; ts[3].O = 3; ts[3].features = "+ptx85";
        for (i = 0; i < 4; i++) {
            gpucompile_target *u = parse_ok(pr(&ts[i]));
            if (u) CHECK_MSG(same_target(&ts[i], u), "%s", pr(&ts[i]));
            gpucompile_target_free(u);
        }
    }
}

/* MLIR's lexical rules, shared with the gpu.binary reader: comments are white space, a raw CR
   or control byte inside a string is kept, a raw VT or FF ends it with an error. */
static void test_lexical_rules(void) {
    static const struct { const char *text, *printed; } good[] = {
        {"#gpu.nvptx<chip = \"sm_90\", // the chip\n O = 3> // done", "#gpu.nvptx<O = 3, chip = \"sm_90\">"},
        {"// first\n#gpu.nvptx", "#gpu.nvptx"},
        {"#gpu.nvptx<link = [\"a\rb\001\xc3\xa9\", \"//x\"]>", "#gpu.nvptx<link = [\"a\\0Db\\01\\C3\\A9\", \"//x\"]>"},
        {"#gpu.nvptx<features = \"\\7f\\c3\\A9\\22\">", "#gpu.nvptx<features = \"\\7F\\C3\\A9\\22\">"},
    };
    static const struct { const char *text, *needle; } bad[] = {
        {"#gpu.nvptx<chip = \"a\vb\">", "column 21: expected '\"' to close the string that starts at column 19 (found byte 0x0B)"},
        {"#gpu.nvptx<chip = \"a\fb\">", "column 21: expected '\"' to close the string that starts at column 19 (found byte 0x0C)"},
        {"#gpu.nvptx<chip = / \"a\">", "column 19: expected a string for 'chip'"},
    };
    size_t i;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        gpucompile_target *t = parse_ok(good[i].text);
        if (t) CHECK_STR(pr(t), good[i].printed);
        gpucompile_target_free(t);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_log log;
        gpucompile_logger lg = t_logger(&log);
        gpucompile_target *t = NULL;
        CHECK_MSG(gpucompile_target_parse(bad[i].text, (size_t)-1, NULL, &lg, &t) == GPUCOMPILE_ERROR_PARSE && !t, "%s", bad[i].text);
        CHECK_LOG(&log, bad[i].needle);
        gpucompile_target_free(t);
    }
}

static void test_parse_errors(void) {
    static const struct { const char *text, *needle; } bad[] = {
        {"", "column 1: expected '#' to start a target attribute (the text ends there)"},
        {"   ", "column 4: expected '#'"},
        {"gpu.nvptx", "column 1: expected '#'"},
        {"#", "column 1: unknown target attribute '#'"},
        {"#gpu.nvtpx<chip = \"sm_90\">", "column 1: unknown target attribute '#gpu.nvtpx'; expected #gpu.nvptx, #gpu.amdgpu, #gpu.spirv, #gpu.vulkan, #gpu.webgpu, #nvvm.target, #rocdl.target, #xevm.target or #spirv.target_env"},
        {"#gpu.nvptx<chip = \"sm_90\", chip = \"sm_80\">", "column 28: parameter 'chip' is repeated"},
        {"#gpu.nvptx<O = 1, O = 1>", "column 19: parameter 'O' is repeated"},
        {"#gpu.nvptx<foo = 1>", "column 12: unknown parameter 'foo' for #gpu.nvptx; expected one of O, triple, chip, features, flags, link, verifyTarget"},
        {"#nvvm.target<abi = \"400\">", "column 14: unknown parameter 'abi' for #nvvm.target; expected one of O, triple, chip, features, flags, link, verifyTarget"},
        {"#rocdl.target<Chip = \"x\">", "column 15: unknown parameter 'Chip' for #rocdl.target; expected one of O, triple, chip, features, abi, flags, link"},
        {"#gpu.nvptx<chip \"sm_90\">", "column 17: expected '=' after parameter name 'chip'"},
        {"#gpu.nvptx<chip = sm_90>", "column 19: expected a string for 'chip'"},
        {"#gpu.nvptx<chip = 90>", "column 19: expected a string for 'chip'"},
        {"#gpu.nvptx<O = \"3\">", "column 16: expected an integer for 'O'"},
        {"#gpu.nvptx<O = three>", "column 16: expected an integer for 'O'"},
        {"#gpu.nvptx<O = 1.5>", "column 17: expected an integer for 'O'"},
        {"#gpu.nvptx<O = 3x>", "column 17: expected an integer for 'O'"},
        {"#gpu.nvptx<O = +1>", "column 16: expected an integer for 'O'"},
        {"#gpu.nvptx<O = 0x>", "column 18: expected hex digits for 'O'"},
        {"#gpu.nvptx<O = 99999999999>", "column 16: integer value too large for 'O'"},
        {"#gpu.nvptx<O = 2147483648>", "integer value too large for 'O'"},
        {"#gpu.nvptx<O = -2147483649>", "integer value too large for 'O'"},
        {"#gpu.nvptx<O = 0x100000000>", "integer value too large for 'O'"},
        {"#gpu.nvptx<O = 999999999999999999999999999999999999999999999999>", "integer value too large for 'O'"},
        {"#gpu.nvptx<flags = [fast]>", "column 20: expected '{' for 'flags'"},
        {"#gpu.nvptx<flags = fast>", "expected '{' for 'flags'"},
        {"#gpu.nvptx<flags = {fast ftz}>", "column 26: expected ',' or '}' in 'flags'"},
        {"#gpu.nvptx<flags = {fast, fast}>", "column 27: flag 'fast' is repeated"},
        {"#gpu.nvptx<flags = {fast, \"fast\"}>", "flag 'fast' is repeated"},
        {"#gpu.nvptx<flags = {a = 1.0}>", "column 25: expected an integer in a flag's value (floats are not read)"},
        {"#gpu.nvptx<flags = {a = }>", "column 25: expected a flag value"},
        {"#gpu.nvptx<flags = {\"\"}>", "column 21: expected a non-empty flag name"},
        {"#gpu.nvptx<flags = {1}>", "column 21: expected a flag name in 'flags'"},
        {"#gpu.nvptx<flags = {fast,}>", "column 26: expected a flag name in 'flags'"},
        {"#gpu.nvptx<link = \"a.bc\">", "column 19: expected '[' for 'link'"},
        {"#gpu.nvptx<link = [\"a.bc\" \"b.bc\"]>", "column 27: expected ',' or ']' in 'link'"},
        {"#gpu.nvptx<link = [\"a.bc\",]>", "column 27: expected a value in 'link'"},
        {"#gpu.nvptx<link = [,]>", "expected a value in 'link'"},
        {"#gpu.nvptx<link = [(1]]>", "unbalanced ']' in 'link'"},
        {"#gpu.nvptx<link = [1)]>", "column 21: unbalanced ')' in 'link'"},
        {"#gpu.nvptx<link = [%x]>", "column 20: unexpected character in 'link'"},
        {"#gpu.nvptx<link = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]>", "'link' is nested too deeply"},
        {"#gpu.nvptx<chip = \"sm_90\",>", "column 27: expected a parameter name or '>'"},
        {"#gpu.nvptx<, chip = \"sm_90\">", "column 12: expected a parameter name or '>'"},
        {"#gpu.nvptx<chip = \"sm_90\" O = 1>", "column 27: expected ',' or '>' after the value of 'chip'"},
        {"#gpu.nvptx<chip = \"sm_90\">>", "column 27: unexpected text after the target attribute"},
        {"#gpu.nvptx<chip = \"sm_90\"> junk", "column 28: unexpected text after the target attribute"},
        {"#gpu.nvptx junk", "column 12: unexpected text after the target attribute"},
        {"#gpu.nvptx #gpu.nvptx", "unexpected text after the target attribute"},
        {"#gpu.nvptx(chip = \"sm_90\")", "column 11: unexpected text after the target attribute"},
        {"#gpu.nvptx<chip = \"a\\qb\">", "column 21: unknown escape in string"},
        {"#gpu.nvptx<chip = \"a\\4\">", "column 21: unknown escape in string"},
        {"#gpu.nvptx<chip = \"a\\4g\">", "column 21: unknown escape in string"},
        {"#gpu.nvptx<chip = \"a\\00b\">", "column 21: NUL bytes are not allowed in strings"},
        {"#gpu.nvptx<chip = \"a\nb\">", "column 21: expected '\"' to close the string that starts at column 19"},
        {"#gpu.nvptx<chip = \"a\\", "column 21: unknown escape in string"},
        /* truncated */
        {"#gpu.nvptx<", "column 12: expected a parameter name or '>' (the text ends there)"},
        {"#gpu.nvptx<chip", "column 16: expected '=' after parameter name 'chip' (the text ends there)"},
        {"#gpu.nvptx<chip =", "column 18: expected a string for 'chip' (the text ends there)"},
        {"#gpu.nvptx<chip = \"sm_", "column 23: expected '\"' to close the string that starts at column 19 (the text ends there)"},
        {"#gpu.nvptx<chip = \"sm_90\"", "column 26: expected ',' or '>' after the value of 'chip' (the text ends there)"},
        {"#gpu.nvptx<O = ", "column 16: expected an integer for 'O' (the text ends there)"},
        {"#gpu.nvptx<O = -", "expected an integer for 'O' (the text ends there)"},
        {"#gpu.nvptx<flags = {fast", "column 25: expected ',' or '}' in 'flags' (the text ends there)"},
        {"#gpu.nvptx<flags = {", "expected a flag name in 'flags' (the text ends there)"},
        {"#gpu.nvptx<link = [\"a.bc\"", "expected ',' or ']' in 'link' (the text ends there)"},
        {"#gpu.nvptx<link = [1", "expected ']' to close 'link' (the text ends there)"},
        {"#gpu.nvptx<link = [[1]", "expected ']' to close 'link' (the text ends there)"},
        /* unbalanced */
        {"#gpu.nvptx<flags = {fast]>", "column 25: expected ',' or '}' in 'flags'"},
        {"#gpu.nvptx<link = [\"a\"}>", "column 23: expected ',' or ']' in 'link'"},
        {"#gpu.nvptx<chip = \"sm_90\"]", "expected ',' or '>' after the value of 'chip'"},
        {"#gpu.nvptx>", "column 11: unexpected text after the target attribute"},
        /* bytes that are not text */
        {"#gpu.nvptx<chip = \"sm_90\">\x01", "column 27: unexpected text after the target attribute (found byte 0x01)"},
        {"#gpu.nvptx<\xff>", "column 12: expected a parameter name or '>' (found byte 0xFF)"},
    };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) parse_bad(bad[i].text, bad[i].needle);
    /* 1024 flags are fine, 1025 are too many */
    {
        static char big[16384];
        int k;
        size_t n = (size_t)snprintf(big, sizeof big, "#gpu.nvptx<flags = {f0");
        for (k = 1; k < 1025; k++) n += (size_t)snprintf(big + n, sizeof big - n, ", f%d", k);
        parse_bad(strcat(big, "}>"), "too many flags (at most 1024)");
        *strrchr(big, ',') = 0;
        {
            gpucompile_target *t = parse_ok(strcat(big, "}>"));
            if (t) CHECK(t->num_flags == 1024 && gpucompile_target_has_flag(t, "f1023") && !gpucompile_target_has_flag(t, "f1024"));
            gpucompile_target_free(t);
        }
    }
    /* without a logger: the same results, silently */
    {
        gpucompile_target *t = NULL;
        CHECK(gpucompile_target_parse("#gpu.nvptx<", (size_t)-1, NULL, NULL, &t) == GPUCOMPILE_ERROR_PARSE && !t);
    }
}

/* NUL bytes inside the given length are errors wherever they are. */
static void test_nul_bytes(void) {
    static const char text[] = "#gpu.nvptx<chip = \"sm_90\", flags = {fast}, link = [\"a.bc\", 1]>";
    size_t n = sizeof text - 1, i;
    char buf[sizeof text + 1];
    for (i = 0; i <= n; i++) {
        s_log l;
        gpucompile_logger g = s_logger(&l);
        gpucompile_target *t = NULL;
        gpucompile_result r;
        memcpy(buf, text, i);
        buf[i] = 0;
        memcpy(buf + i + 1, text + i, n - i);
        r = gpucompile_target_parse(buf, n + 1, NULL, &g, &t);
        CHECK_MSG(r == GPUCOMPILE_ERROR_PARSE && !t, "NUL at %lu accepted", (unsigned long)i);
        CHECK_MSG(strstr(l.log.text, "NUL") != NULL, "NUL at %lu: %s", (unsigned long)i, l.log.text);
        gpucompile_target_free(t);
    }
    parse_bad_n("#gpu.nvptx\0", 11, "column 11: unexpected NUL byte in the text");
    parse_bad_n("#gpu.nvptx<chip = \"a\0b\">", 24, "column 21: unexpected NUL byte in the text");
}

/* Every proper prefix of a canonical text fails, except the bare attribute name. */
static void test_truncation(void) {
    static const char *const texts[] = {
        "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\"]>",
        "#rocdl.target<O = 1, chip = \"gfx942:sramecc-:xnack+\", abi = \"400\", flags = {\"a-b\", daz}, link = [\"a\\22.bc\", 1]>"};
    size_t k, i;
    for (k = 0; k < 2; k++) {
        size_t n = strlen(texts[k]);
        for (i = 0; i < n; i++) {
            gpucompile_target *t = NULL;
            gpucompile_result r = gpucompile_target_parse(texts[k], i, NULL, NULL, &t);
            int name_only = (i == 10 && k == 0) || (i == 13 && k == 1);
            if (name_only) CHECK_MSG(r == GPUCOMPILE_OK && t, "prefix %lu", (unsigned long)i);
            else CHECK_MSG(r == GPUCOMPILE_ERROR_PARSE && !t, "prefix %lu of %s accepted", (unsigned long)i, texts[k]);
            gpucompile_target_free(t);
        }
    }
}

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(void) {
    rng_state ^= rng_state << 13; rng_state ^= rng_state >> 7; rng_state ^= rng_state << 17;
    return (unsigned)(rng_state >> 11);
}

/* Whatever parses prints to text that parses to the same target and prints the same. */
static void check_stable(const char *text, size_t len) {
    gpucompile_target *t = NULL, *u = NULL;
    char a[4096], b[4096];
    gpucompile_result r = gpucompile_target_parse(text, len, NULL, NULL, &t);
    CHECK(r == GPUCOMPILE_OK || r == GPUCOMPILE_ERROR_PARSE);
    CHECK((r == GPUCOMPILE_OK) == (t != NULL));
    if (!t) return;
    gpucompile_target_print(t, a, sizeof a);
    r = gpucompile_target_parse(a, (size_t)-1, NULL, NULL, &u);
    CHECK_MSG(r == GPUCOMPILE_OK, "reprint of '%.*s' does not parse: %s", (int)len, text, a);
    if (u) {
        CHECK(same_target(t, u));
        gpucompile_target_print(u, b, sizeof b);
        CHECK_STR(a, b);
    }
    gpucompile_target_free(u);
    gpucompile_target_free(t);
}

static void test_random_and_mutated(void) {
    static const char *const texts[] = {
        "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\"]>",
        "#rocdl.target<O = 1, chip = \"gfx90a:xnack+\", abi = \"400\", flags = {\"a-b\", daz}, link = [\"a\\22.bc\", [1, {b}], @f]>",
        "#gpu.amdgpu<triple = \"amdgcn-amd-amdhsa\", O = 0x2, chip = \"gfx1100\", link = [ ] , flags = { }>"};
    static const char alphabet[] = "#<>{}[](),=\"\\ -_.:@0123456789abcxOnvptx\x00\xff\n";
    char buf[512];
    int i;
    for (i = 0; i < 20000; i++) {
        size_t n, j;
        if (i % 4 == 0) { /* random bytes */
            n = rnd() % 64;
            for (j = 0; j < n; j++) buf[j] = (char)(rnd() & 0xff);
        } else if (i % 4 == 1) { /* random tokens from the alphabet */
            n = rnd() % 80;
            for (j = 0; j < n; j++) buf[j] = alphabet[rnd() % (sizeof alphabet - 1)];
            if (n > 0) buf[0] = '#';
        } else { /* a canonical text with a few bytes changed, dropped or doubled */
            const char *s = texts[rnd() % 3];
            int edits = 1 + (int)(rnd() % 3), e;
            n = strlen(s);
            memcpy(buf, s, n);
            for (e = 0; e < edits && n > 1 && n < sizeof buf - 1; e++) {
                size_t at = rnd() % n;
                switch (rnd() % 3) {
                case 0: buf[at] = alphabet[rnd() % (sizeof alphabet - 1)]; break;
                case 1: memmove(buf + at, buf + at + 1, n - at - 1); n--; break;
                default: memmove(buf + at + 1, buf + at, n - at); n++; break;
                }
            }
        }
        check_stable(buf, n);
    }
}

/* A counting allocator, optionally failing after some number of allocations. */
typedef struct counting { int allocs, frees, fail_after; } counting;
static void *c_alloc(size_t size, void *u) {
    counting *c = (counting *)u;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return NULL;
    c->allocs++;
    return malloc(size);
}
static void *c_realloc(void *p, size_t size, void *u) {
    counting *c = (counting *)u;
    if (c->fail_after >= 0 && c->allocs >= c->fail_after) return NULL;
    if (!p) c->allocs++;
    return realloc(p, size);
}
static void c_free(void *p, void *u) {
    counting *c = (counting *)u;
    if (p) c->frees++;
    free(p);
}

static void test_allocator(void) {
    const char *text = "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\", \"b.bc\", 1]>";
    counting c;
    gpucompile_allocator a;
    gpucompile_target *t = NULL;
    int k, saw_oom = 0;
    a.alloc = c_alloc; a.realloc = c_realloc; a.free = c_free; a.user_data = &c;
    memset(&c, 0, sizeof c);
    c.fail_after = -1;
    CHECK(gpucompile_target_parse(text, (size_t)-1, &a, NULL, &t) == GPUCOMPILE_OK && t);
    CHECK(c.allocs > 0 && c.allocs == c.frees + 1); /* one block stays: the target */
    if (t) CHECK_STR(pr(t), "#gpu.nvptx<O = 3, chip = \"sm_90\", features = \"+ptx80\", flags = {fast, ftz}, link = [\"libm.bc\", \"b.bc\", unit]>");
    gpucompile_target_free(t);
    CHECK(c.allocs == c.frees);
    /* every allocation failing in turn: out of memory, nothing leaked, no target */
    for (k = 0; k < 10; k++) {
        s_log l;
        gpucompile_logger g = s_logger(&l);
        gpucompile_result r;
        memset(&c, 0, sizeof c);
        c.fail_after = k;
        t = NULL;
        r = gpucompile_target_parse(text, (size_t)-1, &a, &g, &t);
        if (r == GPUCOMPILE_OK) { CHECK(t != NULL); gpucompile_target_free(t); }
        else {
            saw_oom = 1;
            CHECK(r == GPUCOMPILE_ERROR_OUT_OF_MEMORY && !t);
            CHECK_LOG(&l.log, "out of memory");
        }
        CHECK_MSG(c.allocs == c.frees, "fail_after %d: %d allocs, %d frees", k, c.allocs, c.frees);
    }
    CHECK(saw_oom);
}

/* The lexer a backend's parse_text reads with (gpucompile_lex_*, as gpucompile_vulkan.h's
   #spirv.target_env reader does): positions as columns of the whole text, words, integers in a
   range, strings, expect's wording, the first error only. */
static void test_lexer_helpers(void) {
    static const char text[] = " // a comment\n  name.x-y = -0x1F, \"a\\tb\" [";
    s_log l;
    gpucompile_logger g = s_logger(&l);
    gpucompile_lexer lx;
    gpucompile_buf b;
    const char *w = NULL;
    long long v = 0;
    char want[128];
    memset(&b, 0, sizeof b);
    gpucompile_lex_init(&lx, text, strlen(text), 10, &g);
    CHECK(gpucompile_lex_word(&lx, &w, NULL) == 6 && strncmp(w, "name.x", 6) == 0);
    lx.pos -= 6;
    CHECK(gpucompile_lex_word(&lx, &w, "-") == 8 && strncmp(w, "name.x-y", 8) == 0);
    CHECK(!gpucompile_lex_eat(&lx, ':') && gpucompile_lex_eat(&lx, '='));
    CHECK(gpucompile_lex_word(&lx, &w, "-") == 0 && *w == '-'); /* no word starts with '-' */
    CHECK(gpucompile_lex_int(&lx, -100, 100, &v, "x") && v == -31);
    CHECK(gpucompile_lex_expect(&lx, ',', NULL));
    CHECK(gpucompile_lex_string(&lx, &b, 1) && b.len == 3 && memcmp(b.data, "a\tb", 3) == 0);
    CHECK(l.count == 0 && lx.result == GPUCOMPILE_OK);
    CHECK(!gpucompile_lex_expect(&lx, ']', "to close the list"));
    snprintf(want, sizeof want, "column %d: expected ']' to close the list\n", (int)(10 + strchr(text, '[') - text + 1));
    CHECK_LOG(&l.log, want);
    CHECK(l.count == 1 && l.result == GPUCOMPILE_ERROR_PARSE && l.stage == GPUCOMPILE_STAGE_TARGET && lx.result == GPUCOMPILE_ERROR_PARSE);
    CHECK(!gpucompile_lex_error(&lx, 0, "a second error") && l.count == 1); /* the first one only */
    gpucompile_free(b.a, b.data);

    g = s_logger(&l);
    gpucompile_lex_init(&lx, "300", 3, 0, &g);
    CHECK(!gpucompile_lex_int(&lx, 0, 255, &v, "a byte"));
    CHECK_LOG(&l.log, "column 1: integer out of range for a byte\n");
    g = s_logger(&l);
    gpucompile_lex_init(&lx, " 0x", 3, 4, &g);
    CHECK(!gpucompile_lex_int(&lx, 0, 255, &v, "a byte"));
    CHECK_LOG(&l.log, "column 6: expected an integer for a byte\n");
    g = s_logger(&l);
    gpucompile_lex_init(&lx, "0x10000000000", 13, 0, &g);
    CHECK(!gpucompile_lex_int(&lx, 0, 255, &v, "a byte"));
    CHECK_LOG(&l.log, "column 1: integer too large for a byte\n");
    g = s_logger(&l);
    gpucompile_lex_init(&lx, "  ", 2, 0, &g);
    CHECK(!gpucompile_lex_expect(&lx, '<', NULL) && gpucompile_lex_ws(&lx) == -1);
    CHECK_LOG(&l.log, "column 3: expected '<' (the text ends there)\n");
}

int main(void) {
    (void)t_read; /* test.h's file reader: not needed here */
    RUN(test_defaults);
    RUN(test_verify_messages);
    RUN(test_chip_tables);
    RUN(test_chips_vs_llc);
    RUN(test_flag_queries);
    RUN(test_print);
    RUN(test_parse_values);
    RUN(test_link_non_string);
    RUN(test_round_trips);
    RUN(test_lexical_rules);
    RUN(test_lexer_helpers);
    RUN(test_parse_errors);
    RUN(test_nul_bytes);
    RUN(test_truncation);
    RUN(test_random_and_mutated);
    RUN(test_allocator);
    return TEST_END("target");
}
