/* The aarch64 app's configuration: see config_a64.h. */
#include "efi/arm64/config_a64.h"

#include "core/exp/arm64/experiments.h"
#include "core/lib/cmdline.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/config.h"
#include "core/run/bootstrap.h"
#include "core/run/config_keys.h"
#include "efi/arm64/volume.h"

#define CONFIG_PATH "\\tlbscope\\tlbscope.cfg"
#define CONFIG_MAX (64 * 1024)

/* the keys this app acts on; the rest are x86's */
static const char *const honoured[] = { "profile",     "samples", "budget_s",   "run_budget_s", "timeout_ms",
                                        "experiments", "exit",    "order_seed", 0 };

static char file_buf[CONFIG_MAX];

/* 9.1 EFI_LOADED_IMAGE_PROTOCOL_GUID */
static const efi_guid loaded_image_guid = { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };

/* the load options' key=value text (core/lib/cmdline.h), "" without */
static void load_options(efi_boot_services *bs, efi_handle image, char *out, size_t cap)
{
    efi_loaded_image *li = 0;
    out[0] = 0;
    if (EFI_ERROR(bs->handle_protocol(image, &loaded_image_guid, (void **)&li)) || !li || !li->load_options ||
        li->load_options_size < 2 || (li->load_options_size & 1))
        return;
    cmdline_from_ucs2(li->load_options, li->load_options_size / 2, out, cap);
}

static bool is_honoured(const char *key)
{
    for (unsigned i = 0; honoured[i]; i++)
        if (str_eq(honoured[i], key))
            return true;
    return false;
}

void a64_config_load(efi_boot_services *bs, efi_handle image, struct arm64_run *run)
{
    static struct config cfg;
    size_t len;
    unsigned i;
    config_defaults(&cfg);
    if (vol_open(bs, image) && (len = vol_read(CONFIG_PATH, file_buf, sizeof(file_buf))) > 0) {
        run->config_file = true;
        if (len + 1 >= sizeof(file_buf))
            msg_add(&run->warnings, "tlbscope.cfg", "file of %u bytes or more: only its first %u read",
                    (unsigned)sizeof(file_buf) - 1, (unsigned)sizeof(file_buf) - 1);
        config_parse(&cfg, file_buf, len, "tlbscope.cfg", &run->warnings);
    }
    load_options(bs, image, run->args, sizeof(run->args));
    if (run->args[0])
        config_parse(&cfg, run->args, str_len(run->args), "command line", &run->warnings);
    config_finalize(&cfg);

    for (i = 0; i < config_key_count; i++)
        if (config_is_set(&cfg, config_keys[i].name) && !is_honoured(config_keys[i].name))
            msg_add(&run->warnings, "config", "key '%s' has no effect on aarch64; ignored", config_keys[i].name);

    run->profile = profile_name(cfg.profile);
    /* x86's profiles and budgets (core/run/config_keys.c config_finalize): samples per point,
     * each experiment's limit and the run's, which the experiments share (a64_pace.h) */
    run->samples = cfg.samples;
    run->budget_s = cfg.budget_s;
    run->run_budget_s = cfg.run_budget_s;
    run->warmup = 0; /* the experiments take no warm-up samples (a given warmup= is warned about above) */
    run->timeout_ms = config_is_set(&cfg, "timeout_ms") ? cfg.timeout_ms : 1000;
    /* the intervals' seed, as x86's runner draws it (core/run/runner.c resolve_order_seed) */
    run->order_seed = config_is_set(&cfg, "order_seed") ? cfg.order_seed : boot_seed_from(run->start_ticks);
    /* exit: as given; otherwise off under an emulator (QEMU ends), back to the firmware on hardware */
    run->exit_word = config_is_set(&cfg, "exit") ? exit_mode_name(cfg.exit_mode) : 0;
    for (i = 0; i < cfg.experiment_count; i++) {
        if (!a64_experiment_known(cfg.experiments[i])) {
            msg_add(&run->warnings, "config", "experiments: '%s' is not an aarch64 experiment; ignored",
                    cfg.experiments[i]);
            continue;
        }
        if (run->nselected < sizeof(run->selected) / sizeof(run->selected[0]))
            str_copy(run->selected[run->nselected++], sizeof(run->selected[0]), cfg.experiments[i]);
    }
    if (cfg.experiment_count && !run->nselected)
        msg_add(&run->warnings, "config", "experiments: no aarch64 experiment named; all run");
}
