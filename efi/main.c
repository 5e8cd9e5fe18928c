/*
 * tlbscope entry point: one run from boot to report.
 *
 *   console, watchdog off -> arguments -> firmware and CPU facts -> TSC
 *   -> CPUs (MP services, else or also the tool's own INIT-SIPI) -> experiments
 *   -> CPUs handed back -> report on the stick, then on the console -> RESULT line
 *   -> upload (upload=URL: the same bytes, its outcome beside the stick's copy)
 *   -> the TLBSCOPE DONE sentinel
 *   -> shell, power-off or reset (always one of the last two after INIT-SIPI)
 *
 * Every step that can fail records why and the run goes on: the report is
 * always produced, on the stick or, failing that, on the console.
 */
#include "efi/args.h"
#include "efi/console.h"
#include "efi/efi_util.h"
#include "efi/fwinfo.h"
#include "efi/mp.h"
#include "efi/netboot.h"
#include "efi/platform.h"
#include "efi/random.h"
#include "efi/report_out.h"
#include "efi/session.h"
#include "efi/timebase.h"
#include "efi/upload.h"
#include "efi/volume.h"

#include "asm/cpu.h"
#include "asm/cpuid.h"
#include "core/lib/mem.h"
#include "core/report/report.h"
#include "core/report/report_redact.h"
#include "core/run/report_files.h"
#include "core/run/upload.h"
#include "core/machine/timing.h"

/* The run's messages so far, as the report will show them (redact=on: tokens for addresses). */
static void print_messages(const struct run *r, const char *label, const struct msg_list *l)
{
    static struct redaction red;
    char text[MSG_TEXT * 4];
    uint32_t i;
    redaction_prepare(r, &red);
    for (i = 0; i < l->count; i++) {
        redact_scrub(&red.pairs, l->items[i].text, str_len(l->items[i].text), text, sizeof(text));
        con_printf("%s: %s: %s\n", label, l->items[i].where, text);
    }
}

static void identify_cpu(struct run *r)
{
    cpuid_decode(cpuid_live, NULL, &r->cpu);
    tsc_use_rdtscp(r->cpu.rdtscp); /* the closing timestamp's instruction (asm/cpu.h) */
    r->firmware_x2apic = (rdmsr(MSR_IA32_APIC_BASE) >> 10) & 1;
    r->method.firmware_apic_mode = r->firmware_x2apic ? "x2apic" : "xapic";
    con_printf("CPU: %s \"%s\" family 0x%x model 0x%x stepping %u\n", r->cpu.vendor,
               r->cpu.brand, r->cpu.family, r->cpu.model, r->cpu.stepping);
    con_printf("CPU: x2apic=%s (firmware mode %s) pcid=%s invpcid=%s invlpgb=%s", 
               r->cpu.x2apic ? "yes" : "no", r->method.firmware_apic_mode,
               r->cpu.pcid ? "yes" : "no", r->cpu.invpcid ? "yes" : "no",
               r->cpu.invlpgb ? "yes" : "no");
    if (r->cpu.invlpgb)
        con_printf(" (max %u pages)", r->cpu.invlpgb_max_pages);
    con_printf(" la57=%s invariant_tsc=%s\n", r->cpu.la57 ? "yes" : "no",
               r->cpu.invariant_tsc ? "yes" : "no");
    if (r->cpu.hypervisor)
        con_printf("CPU: hypervisor \"%s\": timings are emulator/VM timings\n",
                   r->cpu.hypervisor_vendor);
}

/* CPUID cannot show an emulator without a hypervisor bit (Bochs): the harness names it */
static void note_emulator(const struct run *r)
{
    if (r->cfg.emulator != EMULATOR_NONE)
        con_printf("CPU: emulated machine (emulator=%s): timings are the emulator's\n",
                   emulator_name(r->cfg.emulator));
}

/* Both reports again: the run's messages changed (a failed save). */
static void rewrite_reports(struct strbuf *json, struct strbuf *text, void *ctx)
{
    struct run *r = ctx;
    run_conclude(r);
    sb_reset(json);
    report_write_json(r, json);
    sb_reset(text);
    report_write_text(r, text);
}

/* The summary's upload line as the report shows it (redact=on: the URL's token). */
static void upload_line(struct strbuf *sb, const void *ctx)
{
    report_write_upload(ctx, sb);
}

static void finish(struct run *r, struct volume *v, struct netboot *nb, bool released)
{
    struct strbuf json, text, verdict;
    char base[96], name[96], verdict_text[REPORT_VERDICT_LEN];
    bool saved_ok, json_ok;
    struct upload_job job = { &r->cfg, r->run_id, &r->upload, &nb->route };
    struct report_delivery delivery = {
        .errors = &r->errors,
        .volume = v,
        .netboot_only = !v->root && nb->info.boot != BOOT_DISK,
        .json = &json,
        .text = &text,
        .json_on_console = r->cfg.console_json || r->cfg.upload[0],
        .rewrite = rewrite_reports,
        .ctx = r,
    };

    r->duration_ms = ticks_to_ms(tsc_now() - r->start_tsc);
    upload_prepare(&job, released);
    run_conclude(r);
    sb_init_dynamic(&json, 64 * 1024);
    sb_init_dynamic(&text, 16 * 1024);
    json_ok = report_write_json(r, &json);
    if (!json_ok) {
        msg_add(&r->errors, "report", "the JSON report is incomplete (out of memory)");
        run_conclude(r);
    }
    report_write_text(r, &text);
    run_report_basename(r, name, sizeof(name));
    delivery.name = name;
    saved_ok = report_deliver(&delivery, base, sizeof(base));
    /*
     * "RESULT: " + the verdict: COMPLETE, ERROR or FAILURE first (scripts/stick-lib.sh reads
     * it). A fixed buffer: the line must come even when the dynamic ones ran out of memory.
     */
    sb_init_fixed(&verdict, verdict_text, sizeof(verdict_text));
    report_write_verdict(r, &verdict);
    con_printf("RESULT: %s\n", verdict_text);
    /* last the upload of those same bytes; its outcome goes beside the stick's copy */
    if (r->upload.state == UPLOAD_PENDING)
        upload_after_save(&job, v, &r->errors, saved_ok ? base : "", json.data, json.len,
                          text.data, text.len, upload_line, r);
    con_write("TLBSCOPE DONE\n");
    sb_release(&json);
    sb_release(&text);
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab);
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
    struct run *r;
    struct volume vol;
    static struct netboot nb;
    EFI_STATUS st;
    enum exit_mode exit_mode;
    bool released;

    InitializeLib(image, systab);
    platform_init_memory();
    /* the firmware watchdog would reset the machine after 5 minutes */
    uefi_call_wrapper(BS->SetWatchdogTimer, 4, 0, 0, 0, NULL);
    /* not "bare metal": CPUID has not been read yet, and the hypervisor NOTE may follow */
    con_printf("\ntlbscope %s (commit %s): TLB shootdown costs, measured on this machine\n",
               TLBSCOPE_VERSION, TLBSCOPE_COMMIT);

    r = mem_zalloc(sizeof(*r));
    if (!r) {
        con_write("ERROR: out of memory at start\nRESULT: ERROR (incomplete): out of memory at start\n"
                  "TLBSCOPE DONE\n");
        return EFI_OUT_OF_RESOURCES;
    }
    r->start_tsc = rdtsc_raw();
    st = volume_open_boot(image, &vol);
    netboot_detect(image, &nb);
    /* a network boot has no file system: expected, not an error */
    if (EFI_ERROR(st) && nb.info.boot == BOOT_DISK)
        msg_add(&r->errors, "volume", "cannot open the boot volume: %s", efi_status_name(st));
    args_load(r, image, &vol, &nb);
    if (nb.info.boot != BOOT_DISK) /* the boot server's URL is identifying: as in the report */
        con_printf("Boot: %s from %s\n", boot_kind_name(nb.info.boot),
                   r->cfg.redact ? "(redacted)" : nb.info.boot_url[0] ? nb.info.boot_url
                                                                     : "an unnamed server");
    if (r->cfg.redact && !r->cfg.redact_key[0]) {
        /* random tokens: a key for this report alone, forgotten when the app exits */
        if (!efi_random(r->redact_random_key, sizeof(r->redact_random_key)))
            msg_add(&r->warnings, "redact", "no random number generator (EFI_RNG_PROTOCOL, "
                    "RDRAND): the random tokens rest on TSC timing jitter alone");
        r->redact_random_key_set = true;
    }
    print_messages(r, "ERROR", &r->errors); /* a refused redact_key, an unpinned file */
    print_messages(r, "WARNING", &r->warnings);

    fwinfo_collect(&r->fw, &r->warnings);
    identify_cpu(r);
    note_emulator(r);
    timebase_init(r);
    con_printf("TSC: %llu Hz (%s), timestamp overhead %llu ticks\n",
               (unsigned long long)r->tsc_hz, tsc_source_name(r->tsc_source),
               (unsigned long long)r->method.timer_overhead_ticks);

    mp_enumerate(r);
    config_check_cpus(&r->cfg, r->topo.count, &r->warnings);
    if (!r->mp_available && r->mp_note[0])
        con_printf("WARNING: %s\n", r->mp_note);
    if (r->init_sipi.used)
        con_printf("CPUs: %u listed enabled in the ACPI MADT, for the tool's own INIT-SIPI (%s)\n",
                   r->topo.count, r->init_sipi.reason);
    else
        con_printf("CPUs: %u reported by firmware\n", r->topo.count);

    r->run_counter = report_next_counter(&vol);
    if (r->cfg.upload[0] || !vol.root) {
        /* reports from many machines meet on one server: the name must not repeat there */
        uint8_t tag[4];
        efi_random(tag, sizeof(tag));
        fmt_into(r->name_tag, sizeof(r->name_tag), "%02x%02x%02x%02x", tag[0], tag[1], tag[2],
                 tag[3]);
    }
    run_report_basename(r, r->run_id, sizeof(r->run_id));

    released = session_run(r);
    /* CPUs the tool started by INIT-SIPI cannot go back to the firmware: reset or power off */
    exit_mode = run_exit_mode(r);
    finish(r, &vol, &nb, released);
    volume_close(&vol);
    if (exit_mode == EXIT_SHUTDOWN)
        uefi_call_wrapper(RT->ResetSystem, 4, EfiResetShutdown, EFI_SUCCESS, 0, NULL);
    if (exit_mode == EXIT_RESET && released) {
        if (r->cfg.exit_mode != EXIT_RESET)
            con_printf("CPUs started by the tool's own INIT-SIPI cannot be handed back to the "
                       "firmware: resetting the machine instead of returning to the shell (the "
                       "report is saved)\n");
        uefi_call_wrapper(BS->Stall, 1, 2000000);
        uefi_call_wrapper(RT->ResetSystem, 4, EfiResetWarm, EFI_SUCCESS, 0, NULL);
    }
    if (!released) {
        /*
         * An AP may still be executing this image: returning to the shell
         * would free the image under it. The report is saved; reset instead.
         */
        con_printf("ERROR: an AP did not come back; resetting the machine instead of returning "
                   "to the shell (the report is saved)\n");
        uefi_call_wrapper(BS->Stall, 1, 2000000);
        uefi_call_wrapper(RT->ResetSystem, 4, EfiResetWarm, EFI_ABORTED, 0, NULL);
    }
    return EFI_SUCCESS;
}
