/* The aarch64 app's configuration from its text: see a64_config.h. */
#include "core/exp/arm64/a64_config.h"

#include "core/exp/arm64/experiments.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/bootstrap.h"
#include "core/run/config.h"
#include "core/run/config_keys.h"

/* the keys this app acts on; the rest are x86's */
static const char *const honoured[] = { "profile",     "samples",     "budget_s",          "run_budget_s",
                                        "timeout_ms",  "experiments", "exit",              "order_seed",
                                        "upload",      "upload_attempts", "upload_deadline_s", "console_json",
                                        "redact",      "redact_key",  "ipi_pairs",         0 };

static bool is_honoured(const char *key)
{
    for (unsigned i = 0; honoured[i]; i++)
        if (str_eq(honoured[i], key))
            return true;
    return false;
}

void a64_config_apply(struct arm64_run *run, const char *file, size_t file_len)
{
    config_defaults(&run->cfg);
    if (file)
        config_parse(&run->cfg, file, file_len, CONFIG_SOURCE_STICK, &run->warnings);
    if (run->args[0])
        config_parse(&run->cfg, run->args, str_len(run->args), CONFIG_SOURCE_LOAD_OPTIONS, &run->warnings);
    a64_config_finish(run);
}

void a64_config_finish(struct arm64_run *run)
{
    struct config *cfg = &run->cfg;
    unsigned i;
    config_finalize(cfg);
    config_take_errors(cfg, &run->errors); /* a refused redact_key, as on x86 */

    for (i = 0; i < config_key_count; i++)
        if (config_is_set(cfg, config_keys[i].name) && !is_honoured(config_keys[i].name))
            msg_add(&run->warnings, "config", "key '%s' has no effect on aarch64; ignored", config_keys[i].name);

    run->profile = profile_name(cfg->profile);
    /* x86's profiles and budgets (core/run/config_keys.c config_finalize): samples per point,
     * each experiment's limit and the run's, which the experiments share (a64_pace.h) */
    run->samples = cfg->samples;
    run->budget_s = cfg->budget_s;
    run->run_budget_s = cfg->run_budget_s;
    run->warmup = 0; /* the experiments take no warm-up samples (a given warmup= is warned about above) */
    run->timeout_ms = cfg->timeout_ms;
    /* the intervals' seed, as x86's runner draws it (core/run/runner.c resolve_order_seed) */
    run->order_seed = config_is_set(cfg, "order_seed") ? cfg->order_seed : boot_seed_from(run->start_ticks);
    /* exit: x86's meaning, back to the firmware (shell) unless given (scripts/qemu-run-aarch64.sh
     * writes exit=shutdown, as scripts/qemu-run.sh does for x86) */
    run->exit_word = exit_mode_name(cfg->exit_mode);
    /* experiments=: the loop both apps run checks the names (core/run/exp_loop.h) */
}
