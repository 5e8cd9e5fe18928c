/*
 * The configuration's keys: one table (core/run/config_keys.h), and what is
 * generated from it: the defaults, `tlbscope help`, the stick's tlbscope.cfg.
 */
#include "core/run/config_keys.h"
#include "core/lib/mem.h"
#include "core/mutant.h"

static const char *const exit_choices[] = { "shell", "shutdown", "reset", NULL };
static const char *const mp_choices[] = { "auto", "firmware", "own", NULL };
static const char *const apic_choices[] = { "auto", "xapic", "x2apic", NULL };
static const char *const profile_choices[] = { "default", "quick", "full", NULL };
static const char *const target_wait_choices[] = { "auto", "spin", "halt", NULL };
static const char *const emulator_choices[] = { "none", "bochs", NULL };

#define OFF(field) offsetof(struct config, field)

/* Profile defaults for samples/warmup/budget live in config_finalize(). */
const struct key_spec config_keys[] = {
    { "exit", K_ENUM, 0, 0, exit_choices, OFF(exit_mode), "shell",
      "after the run: return to the UEFI shell, power the machine off, or reset it; CPUs "
      "started by the tool's own INIT-SIPI cannot be handed back, so shell then resets" },
    { "mp", K_ENUM, 0, 0, mp_choices, OFF(mp_mode), "auto",
      "who starts the APs: firmware (MP services only), own (the tool's INIT-SIPI from the "
      "MADT), auto (MP services, then INIT-SIPI for the APs they did not deliver)" },
    { "target_wait", K_ENUM, 0, 0, target_wait_choices, OFF(target_wait), "auto",
      "how waiting CPUs wait: spin (busy, like CPUs running the mm), halt; auto = spin on "
      "hardware, halt under a hypervisor" },
    { "apic", K_ENUM, 0, 0, apic_choices, OFF(apic), "auto",
      "APIC mode for the measurements (auto: x2APIC when the CPU has it, as Linux; restored at exit)" },
    { "profile", K_ENUM, 0, 0, profile_choices, OFF(profile), "default",
      "sample counts and budgets: quick (tests), default, full" },
    { "samples", K_UINT, 10, 1000000, NULL, OFF(samples), "by profile (1000)",
      "samples per parameter point, after warm-up" },
    { "warmup", K_UINT, 0, 100000, NULL, OFF(warmup), "by profile (100)",
      "unrecorded iterations before each parameter point" },
    { "ceiling", K_UINT, 1, 4096, NULL, OFF(ceiling), "33",
      "pages flushed one by one before a full flush (Linux tlb_single_page_flush_ceiling)" },
    { "ipi_pairs", K_UINT, 1, 1000000, NULL, OFF(ipi_pairs), "by profile (256)",
      "IPI round-trip pairs measured exhaustively before sampling by topology class" },
    { "timeout_ms", K_UINT, 1, 600000, NULL, OFF(timeout_ms), "1000 (x5 under a hypervisor)",
      "deadline for one CPU to answer one request" },
    { "budget_s", K_UINT, 1, 86400, NULL, OFF(budget_s), "by profile (120)",
      "time budget of one experiment; it is aborted as ERROR when exceeded" },
    { "run_budget_s", K_UINT, 0, 86400, NULL, OFF(run_budget_s), "by profile (60; quick 30, full 1800)",
      "seconds of measuring for the whole run: each experiment times a few warm-up iterations "
      "and cuts samples (to 50 at least), then target or page counts, to fit its share; 0: no "
      "planning, every experiment as configured" },
    { "contention_window_ms", K_UINT, 1, 60000, NULL, OFF(contention_window_ms),
      "from the plan (100 unplanned)",
      "shootdown_contention's steady-state window: each initiator shoots down in a loop, with no "
      "check, for this long (will-it-scale tlb_flush2); by default the plan sets it from the "
      "experiment's share" },
    { "initiator", K_UINT, 0, 65535, NULL, OFF(initiator), "0",
      "dense CPU index that initiates shootdowns" },
    { "order_seed", K_UINT, 0, 4294967295u, NULL, OFF(order_seed), "the run's own (printed)",
      "seed of the random order in which each iteration runs its variants (seq/conc, INVLPG or "
      "full flush, INVLPGB or IPIs) and of the bootstrap intervals; give a report's "
      "method.order_seed to measure in the same order again" },
    { "progress", K_BOOL, 0, 0, NULL, OFF(progress), "on", "print progress while measuring" },
    { "console_json", K_BOOL, 0, 0, NULL, OFF(console_json), "off",
      "also print the JSON report on the console between markers" },
    { "global_pages", K_BOOL, 0, 0, NULL, OFF(global_pages), "off",
      "map the test pages global, as kernel mappings are without PTI (flush_tlb_kernel_range): "
      "INVLPG must drop global entries, full flushes are global; pti, lazy and INVLPGB "
      "experiments (user mappings) are skipped" },
    { "pti", K_BOOL, 0, 0, NULL, OFF(pti), "off",
      "invlpgb_range: invalidate the user PCID too, as Linux does under page-table isolation "
      "(needs PCID; pti_double_invalidation measures both anyway)" },
    { "keep_samples", K_BOOL, 0, 0, NULL, OFF(keep_samples), "off",
      "write each metric's samples into the report, in the order measured (its p50's 95% "
      "interval is there either way); about 8 bytes of memory and 7 of report a sample" },
    { "redact", K_BOOL, 0, 0, NULL, OFF(redact), "off",
      "write the report with its identifying fields (system serial number, UUID) replaced by "
      "tokens, for sticks that travel; tokens are keyed by redact_key, else random per report" },
    { "redact_key", K_SECRET, 1, CONFIG_REDACT_KEY_MAX, NULL, OFF(redact_key), "none",
      "with redact=on: the HMAC-SHA-256 key of the tokens, so the same machine gets the same "
      "token in every report (as tlbscope-report redact --key); never written to the report" },
    { "upload", K_URL, 1, CONFIG_URL_MAX, NULL, OFF(upload), "none",
      "after the run, HTTP PUT the JSON and text reports to URL/<report name>.json and .txt with "
      "the firmware's HTTP protocol (a WebDAV server: reports/collector/); the reports still go to "
      "the boot volume and the console" },
    { "upload_attempts", K_UINT, 1, 20, NULL, OFF(upload_attempts), "5",
      "upload: attempts per file, waiting 1 s, 2 s, 4 s ... (at most 16 s) between them" },
    { "upload_deadline_s", K_UINT, 1, 3600, NULL, OFF(upload_deadline_s), "60",
      "upload: no attempt starts after this many seconds from the first" },
    { "config_sha256", K_SHA256, CONFIG_SHA256_HEX, CONFIG_SHA256_HEX, NULL, OFF(config_sha256),
      "none",
      "in the load options of a network boot: the SHA-256 (sha256sum) the boot server's "
      "tlbscope.cfg must have, which is otherwise unauthenticated; a file that differs, or none, "
      "is not used and the run reports an error" },
    { "cpus", K_CPULIST, 0, 0, NULL, 0, "all",
      "CPUs that take part, e.g. 0-7,16 (CPU 0, the BSP, always does)" },
    { "experiments", K_NAMELIST, 0, 0, NULL, 0, "all",
      "comma-separated experiment ids to run" },
    { "emulate", K_EMULATE, 0, 0, NULL, 0, "none",
      "TEST ONLY: emulate invlpgb,invpcid on #UD; results are labelled emulated" },
    { "emulator", K_ENUM, 0, 0, emulator_choices, OFF(emulator), "none",
      "the machine is this emulator (bochs), which CPUID does not show: the report records it "
      "and every output marks the run emulated (scripts/bochs-run.sh sets it)" },
    { "inject", K_INJECT, 0, 0, NULL, 0, "none",
      "TEST ONLY: hang:CPU, slow:CPU, late:CPU, absent:CPU, fault:CPU:VECTOR (CPU 0: the BSP, inside the first "
      "experiment with busy targets), no_mp, mp_fail, mp_partial:N" },
};

const unsigned config_key_count = ARRAY_SIZE(config_keys);
_Static_assert(ARRAY_SIZE(config_keys) <= CONFIG_MAX_KEYS, "set_mask has 64 bits: one per key");

unsigned config_key_index(const char *name)
{
    unsigned i;
    for (i = 0; i < config_key_count; i++)
        if (str_eq(config_keys[i].name, name))
            return i;
    return config_key_count;
}

void config_defaults(struct config *cfg)
{
    mem_zero(cfg, sizeof(*cfg));
    cfg->exit_mode = EXIT_SHELL;
    cfg->apic = APIC_REQ_AUTO;
    cfg->profile = PROFILE_DEFAULT;
    cfg->ceiling = 33;
    cfg->timeout_ms = 1000;
    cfg->initiator = 0;
    cfg->progress = true;
    cfg->console_json = false;
    cfg->cpus.all = true;
    cfg->upload_attempts = 5;
    cfg->upload_deadline_s = 60;
    config_finalize(cfg);
}

void config_finalize(struct config *cfg)
{
    static const uint32_t samples[] = { 1000, 100, 10000 };
    static const uint32_t warmup[] = { 100, 10, 1000 };
    static const uint32_t pairs[] = { 256, 64, 4096 };
    static const uint32_t budget[] = { 120, 60, 1800 };
    /*
     * Every profile is planned (issue 20): quick in half the default's
     * time, full in half an hour. On a small machine each measures as
     * configured; on a big one or under an emulator it keeps within these
     * (run_budget_s=0: no planning, for exact grids).
     */
    static const uint32_t run_budget[] = { 60, 30, RUN_BUDGET_FULL_S };
    unsigned p = (unsigned)cfg->profile;
    if (p > 2)
        p = 0;
    if (!(cfg->set_mask & (1ull << config_key_index("samples"))))
        cfg->samples = samples[p];
    if (!(cfg->set_mask & (1ull << config_key_index("warmup"))))
        cfg->warmup = warmup[p];
    if (!(cfg->set_mask & (1ull << config_key_index("ipi_pairs"))))
        cfg->ipi_pairs = pairs[p];
    if (!(cfg->set_mask & (1ull << config_key_index("budget_s"))))
        cfg->budget_s = budget[p];
    /* the mutant plans only the default profile, as before issue 20 */
    if (!(cfg->set_mask & (1ull << config_key_index("run_budget_s"))))
        cfg->run_budget_s = MUTANT(profiles_unplanned) && p != PROFILE_DEFAULT ? 0 : run_budget[p];
}

const char *target_wait_name(enum target_wait w)
{
    return (unsigned)w < 3 ? target_wait_choices[w] : "auto";
}
const char *profile_name(enum profile p)
{
    return (unsigned)p < 3 ? profile_choices[p] : "default";
}

const char *exit_mode_name(enum exit_mode m) { return (unsigned)m < 3 ? exit_choices[m] : "shell"; }
const char *mp_mode_name(enum mp_mode m) { return (unsigned)m < 3 ? mp_choices[m] : "auto"; }
const char *apic_request_name(enum apic_request a)
{
    return (unsigned)a < 3 ? apic_choices[a] : "auto";
}

const char *emulator_name(enum emulator e)
{
    return (unsigned)e < 2 ? emulator_choices[e] : "none";
}

const char *inject_kind_name(enum inject_kind k)
{
    switch (k) {
    case INJECT_HANG:
        return "hang";
    case INJECT_FAULT:
        return "fault";
    case INJECT_SLOW:
        return "slow";
    case INJECT_LATE:
        return "late";
    case INJECT_ABSENT:
        return "absent";
    case INJECT_NO_MP:
        return "no_mp";
    case INJECT_MP_FAIL:
        return "mp_fail";
    case INJECT_MP_PARTIAL:
        return "mp_partial";
    default:
        return "none";
    }
}
/* The values a key takes, as `help` and the stick's tlbscope.cfg list them. */
static void describe_values(const struct key_spec *k, struct strbuf *sb)
{
    if (k->type == K_ENUM || k->type == K_UINT || k->type == K_BOOL)
        config_describe_expected(k, sb);
    else if (k->type == K_CPULIST)
        sb_puts(sb, "all | list of CPU ranges");
    else if (k->type == K_NAMELIST)
        sb_puts(sb, "all | list of experiment ids");
    else if (k->type == K_EMULATE)
        sb_puts(sb, "none | invlpgb,invpcid");
    else if (k->type == K_SECRET)
        sb_printf(sb, "text of %u..%u characters, no spaces", k->min, k->max);
    else if (k->type == K_URL)
        sb_printf(sb, "http://HOST[:PORT]/PATH (or https://), at most %u characters", k->max);
    else if (k->type == K_SHA256)
        sb_printf(sb, "%u hexadecimal digits", k->max);
    else
        sb_puts(sb, "none | list of hang:CPU, slow:CPU, late:CPU, absent:CPU, fault:CPU:VECTOR, no_mp, "
                    "mp_fail, mp_partial:N (comma-separated)");
}

void config_write_help(struct strbuf *sb)
{
    unsigned i;
    for (i = 0; i < config_key_count; i++) {
        sb_printf(sb, "  %-13s ", config_keys[i].name);
        describe_values(&config_keys[i], sb);
        sb_printf(sb, " (default %s)\n      %s\n", config_keys[i].default_text, config_keys[i].help);
    }
}

void config_write_file(struct strbuf *sb)
{
    unsigned i;
    sb_puts(sb, "# tlbscope configuration, read from \\tlbscope\\tlbscope.cfg on the stick.\n"
                "# One key=value per line, e.g. exit=shutdown; '#' starts a comment. Arguments\n"
                "# typed in the UEFI shell after the program name override these. Unknown keys\n"
                "# or bad values are reported and the default is used. Every key is listed\n"
                "# below, commented out: its values, its default, then what it does (generated\n"
                "# from the key table in core/run/config_keys.c by `make image`; do not edit\n"
                "# by hand).\n"
                "# Keys marked TEST ONLY are for the tool's own tests: leave them out on a\n"
                "# machine you measure.\n");
    for (i = 0; i < config_key_count; i++) {
        struct strbuf head;
        char line[256];
        /* "key: values; default D", wrapped like the help when the values are many (inject) */
        sb_init_fixed(&head, line, sizeof(line));
        sb_printf(&head, "%s: ", config_keys[i].name);
        describe_values(&config_keys[i], &head);
        sb_puts(sb, "#\n");
        /* "default D" is never split across lines: past 80 columns it gets its own */
        if (head.len + sizeof("# ; default ") - 1 + str_len(config_keys[i].default_text) <= 80) {
            sb_printf(&head, "; default %s", config_keys[i].default_text);
            sb_put_wrapped(sb, "# ", "#   ", line, 80);
        } else {
            sb_puts(&head, ";");
            sb_put_wrapped(sb, "# ", "#   ", line, 80);
            sb_printf(sb, "#   default %s\n", config_keys[i].default_text);
        }
        sb_put_wrapped(sb, "#     ", "#     ", config_keys[i].help, 80);
    }
}
