/*
 * Run configuration: key=value pairs from \tlbscope\tlbscope.cfg and from the
 * command line (the command line wins).
 *
 * The parser never rejects a run: a bad line or value produces a message
 * naming the source, line and key, the default stays in force, and the run
 * goes on. Keys, types and ranges live in one table in config_keys.c, which is
 * also what `tlbscope help` and docs/configuration.md list.
 */
#ifndef TLBSCOPE_CORE_CONFIG_H
#define TLBSCOPE_CORE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/machine/inject.h"
#include "core/lib/msglist.h"

#define CONFIG_MAX_LINE 256
#define CONFIG_MAX_RANGES 16
#define CONFIG_MAX_EXPERIMENTS 16
#define CONFIG_NAME_LEN 32
#define CONFIG_REDACT_KEY_MAX 128 /* characters of redact_key */
#define CONFIG_URL_MAX 200        /* characters of upload= */
#define CONFIG_SHA256_HEX 64      /* config_sha256=: hex digits of a SHA-256 */
#define CONFIG_MAX_KEYS 64        /* set_mask has a bit per key */

/*
 * The sources of key=value text, as config_parse() names them in messages;
 * each key given explicitly records which one set it (run.config_origins).
 */
#define CONFIG_SOURCE_STICK "tlbscope.cfg"
#define CONFIG_SOURCE_BOOT_SERVER "tlbscope.cfg (boot server)"
#define CONFIG_SOURCE_LOAD_OPTIONS "command line"
enum config_origin { CFG_ORIGIN_NONE = 0, CFG_ORIGIN_STICK, CFG_ORIGIN_BOOT_SERVER,
                     CFG_ORIGIN_LOAD_OPTIONS, CFG_ORIGIN_OTHER };

enum exit_mode { EXIT_SHELL = 0, EXIT_SHUTDOWN, EXIT_RESET };
/*
 * Who starts the APs (issue 25): the firmware's MP services only, the
 * tool's own INIT-SIPI from the MADT only, or auto: MP services first and
 * INIT-SIPI for whatever they did not deliver.
 */
enum mp_mode { MP_AUTO = 0, MP_FIRMWARE, MP_OWN };
enum apic_request { APIC_REQ_AUTO = 0, APIC_REQ_XAPIC, APIC_REQ_X2APIC };
enum profile { PROFILE_DEFAULT = 0, PROFILE_QUICK, PROFILE_FULL };
/* profile=full's run_budget_s: what "or profile=full" offers a budget that was too small */
#define RUN_BUDGET_FULL_S 1800
enum target_wait { TARGET_WAIT_AUTO = 0, TARGET_WAIT_SPIN, TARGET_WAIT_HALT };
/*
 * The machine is an emulator that CPUID does not reveal (Bochs: no hypervisor
 * bit, a real Intel brand string), named by the harness that started it.
 */
enum emulator { EMULATOR_NONE = 0, EMULATOR_BOCHS };

struct cpu_range {
    uint32_t first, last;
};

struct cpu_list {
    bool all;
    uint32_t count;
    struct cpu_range ranges[CONFIG_MAX_RANGES];
};

struct config {
    enum exit_mode exit_mode;
    enum mp_mode mp_mode;
    enum apic_request apic;
    enum profile profile;
    enum target_wait target_wait;
    uint32_t samples;        /* per parameter point, after warm-up */
    uint32_t warmup;
    uint32_t ceiling;        /* INVLPG-per-page limit, as tlb_single_page_flush_ceiling */
    uint32_t ipi_pairs;      /* all pairs up to this many, then a stratified sample */
    uint32_t timeout_ms;     /* deadline for one answer from one CPU */
    uint32_t budget_s;       /* time budget of one experiment */
    uint32_t run_budget_s;   /* measuring time of the whole run, planned (core/run/plan.h); 0: off */
    uint32_t initiator;      /* CPU that initiates shootdowns */
    uint32_t order_seed;     /* variant order and bootstrap seed, when given (method.order_seed) */
    uint32_t contention_window_ms; /* shootdown_contention's steady window; 0: the plan's */
    uint32_t emulate;        /* EMULATE_* bits of core/machine/emulate.h (test-only) */
    enum emulator emulator;  /* the whole machine is this emulator (emulator=, from the harness) */
    bool progress;
    bool console_json;       /* also print the JSON report on the console */
    bool global_pages;       /* test pages global, as kernel mappings without PTI */
    bool pti;                /* invlpgb_range: the user PCID too, as under page-table isolation */
    bool redact;             /* serial number and UUID written as tokens (core/run/redact.h) */
    bool keep_samples;       /* each metric's samples in the report (core/run/record_samples.h) */
    char redact_key[CONFIG_REDACT_KEY_MAX + 1]; /* HMAC key of the tokens; "" for random ones */
    char upload[CONFIG_URL_MAX + 1]; /* HTTP PUT the reports under this URL; "" off (core/run/upload.h) */
    uint32_t upload_attempts;  /* at most this many attempts per file */
    uint32_t upload_deadline_s; /* the whole upload ends by then */
    /* the boot server's tlbscope.cfg must have this SHA-256 (lower-case hex); "" unpinned */
    char config_sha256[CONFIG_SHA256_HEX + 1];
    bool config_sha256_bad;    /* config_sha256= was given, but not as 64 hex digits */
    struct cpu_list cpus;    /* CPUs that take part; all by default */
    uint32_t experiment_count; /* 0: all experiments */
    char experiments[CONFIG_MAX_EXPERIMENTS][CONFIG_NAME_LEN];
    uint32_t inject_count;
    struct injection inject[CONFIG_MAX_INJECT];

    /* which keys were given explicitly (profile defaults fill the rest), and by which source */
    uint64_t set_mask;
    uint8_t key_origin[CONFIG_MAX_KEYS]; /* enum config_origin per key of config_keys */
    /* a line naming redact_key that was not key=value pairs: the key was refused there */
    char secret_refused_at[MSG_WHERE];
};

/* Defaults, with profile-dependent values resolved for PROFILE_DEFAULT. */
void config_defaults(struct config *cfg);

/*
 * Parses one source (a file's contents or a command line). `source` names it
 * in messages ("tlbscope.cfg", "command line"). Pairs are separated by
 * whitespace or newlines; '#' starts a comment. Problems go to `msgs`.
 * Keys set by an earlier source may be overridden by a later one; a key
 * repeated within one source keeps its first value.
 */
void config_parse(struct config *cfg, const char *text, size_t len, const char *source,
                  struct msg_list *msgs);

/*
 * A line that names redact_key in any form (config_find_secret()) is read
 * quietly: its messages repeat none of its text. If it is not key=value
 * pairs of known keys (a key with a blank, "redact_key x", "redact_key:x", a
 * misspelt name), the key is refused: cleared, whatever an earlier source
 * gave, and config_take_errors() says so as an error of the run.
 */
void config_take_errors(const struct config *cfg, struct msg_list *errors);
/*
 * Whether `text` (up to len bytes or its NUL) names redact_key: its name in
 * any case, with '_', '-', '.', ':' or blanks inside it, within two edits
 * of it, or any key starting "redact_". On true, the start of the token
 * that does and the end of the name.
 */
bool config_find_secret(const char *text, size_t len, size_t *token_start, size_t *name_end);
/* run.args: the command line up to and including the first name of redact_key, then "=*". */
void config_mask_args(const char *args, char *out, size_t cap);

/* Applies profile defaults to keys not set explicitly. Call after parsing. */
void config_finalize(struct config *cfg);

/* Checks CPU indices against the real CPU count; bad ones fall back to defaults. */
void config_check_cpus(struct config *cfg, uint32_t cpu_count, struct msg_list *msgs);

bool cpu_list_contains(const struct cpu_list *l, uint32_t cpu);
/* True when a machine-wide injection of this kind was given. */
bool config_injects(const struct config *cfg, enum inject_kind kind);
/* True when `key` was given explicitly by some source (not a default). */
bool config_is_set(const struct config *cfg, const char *key);
const char *target_wait_name(enum target_wait w);
bool config_experiment_selected(const struct config *cfg, const char *id);
const char *profile_name(enum profile p);
const char *exit_mode_name(enum exit_mode m);
const char *mp_mode_name(enum mp_mode m);
/* inject=mp_partial:N's N; 0 without it. */
uint32_t config_mp_partial(const struct config *cfg);
const char *apic_request_name(enum apic_request a);
const char *emulator_name(enum emulator e);
const char *inject_kind_name(enum inject_kind k);

struct json_writer;
/* The resolved configuration as a JSON object (the report's run.config). redact_key is
 * written as a boolean (whether one was given): the key itself never leaves the stick. */
void config_write_json(const struct config *cfg, struct json_writer *w);
/* The same with upload= shown as `upload` (its token under redact=on; "" writes null). */
void config_write_json_shown(const struct config *cfg, struct json_writer *w,
                             const char *upload);
/* The source that set `key`; CFG_ORIGIN_NONE when none did (its default is in force). */
enum config_origin config_key_origin(const struct config *cfg, const char *key);
/* run.config_origins: each key given explicitly, and the source that set it. */
void config_write_origins(const struct config *cfg, struct json_writer *w);
const char *config_origin_name(enum config_origin o);

/*
 * config_sha256= pins the boot server's tlbscope.cfg (issue 35: that file is
 * unauthenticated, and could redirect upload= or turn redaction off). `pins`
 * holds what the load options said; the verdict on the fetched bytes, with
 * their SHA-256 in lower-case hex in sha_hex.
 */
enum config_pin { PIN_NONE = 0, PIN_MATCH, PIN_MISMATCH, PIN_UNREADABLE };
enum config_pin config_pin_verify(const struct config *pins, const void *data, size_t len,
                                  char sha_hex[CONFIG_SHA256_HEX + 1]);
/* Whether that file may be used (no pin, or the one it matches); else an error in `errors`. */
bool config_pin_accept(const struct config *pins, const void *data, size_t len,
                       char sha_hex[CONFIG_SHA256_HEX + 1], struct msg_list *errors);
/* Whether the load options' text `args` pins the boot server's file; `pins` gets what it says. */
bool config_pin_read(const char *args, struct config *pins);

/* Lists every key with its range and default (for `help`, docs/configuration.md). */
struct strbuf;
void config_write_help(struct strbuf *sb);
/* The stick's \\tlbscope\\tlbscope.cfg: every key commented out, with its values, default and
 * help (release/gen-cfg.c writes it at build time, so it never drifts from the table). */
void config_write_file(struct strbuf *sb);

#endif
