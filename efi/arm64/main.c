/*
 * tlbscope for aarch64: the UEFI entry point and the order of a run.
 *
 * identify the CPU and the firmware (ACPI, SMBIOS) -> PSCI conduit and the
 * functions the bring-up needs (else the BSP alone) -> our
 * page tables for the test region, installed on the BSP before any CPU
 * starts (so every CPU runs on them) -> GICv3 -> PSCI CPU_ON of every MADT
 * GICC CPU, check-in within 1 s -> the experiments (core/exp/arm64/) -> the
 * hand-back (every secondary off with PSCI CPU_OFF; the GIC, TTBR0, VBAR and
 * every page given back) -> the report (core/report/report_arm64.c) on the boot volume, \tlbscope\reports\, and
 * its summary on the console -> PSCI SYSTEM_OFF under an emulator (QEMU
 * exits), back to the firmware on hardware. Whatever fails on the way is
 * recorded and the run goes on: the report is always written.
 *
 * The UEFI glue that is not about the ISA is x86's (efi/shared.mk), compiled
 * against this app's own UEFI definitions (efi/arm64/include/efi.h): the
 * volume, the console, how the image came (efi/netboot.c: a stick, PXE/TFTP
 * or HTTP boot), the configuration from the stick or the boot server and the
 * load options (efi/config_file.c), the report's delivery with the stick's run
 * counter, .partial names, read-back and the console copy (efi/report_out.c),
 * the upload (efi/upload.c), the Secure Boot state and random bytes.
 */
#include "asm/cpu.h"
#include "asm/gic.h"
#include "asm/paging.h"
#include "asm/psci.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "asm/tlbi.h"
#include "asm/uart.h"
#include "core/exp/arm64/experiments.h"
#include "core/run/bringup_arm64.h"
#include "core/run/run_arm64.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/report/report_arm64.h"
#include "core/run/report_files.h"
#include "efi/arm64/acpi.h"
#include "efi/arm64/config_a64.h"
#include "efi/arm64/pages.h"
#include "core/run/upload.h"
#include "efi/console.h"
#include "efi/efi_util.h"
#include "efi/random.h"
#include "efi/report_out.h"
#include "efi/secure_boot.h"
#include "efi/upload.h"
#include "efi/volume.h"

#define CHECKIN_MS 1000

static struct arm64_run run;
static uint64_t fw_vbar; /* the BSP's VBAR as the firmware had it, given back at the end */
static struct fw_tables fw;
static struct netboot nb; /* how the image came (efi/netboot.c): a disk, PXE/TFTP or HTTP boot */
static char json_buf[512 * 1024], text_buf[64 * 1024];

static uint64_t irq_mask(void)
{
    return BS->RaiseTPL(TPL_HIGH_LEVEL);
}

static void irq_restore(uint64_t tpl)
{
    BS->RestoreTPL(tpl);
}

/* the experiments' progress lines, between experiments (at the firmware's TPL) */
static void print_line(const char *text)
{
    con_printf("%s", text);
}

static void identify(EFI_SYSTEM_TABLE *st, uint32_t counter, bool tagged)
{
    EFI_TIME t;
    run.counter = counter;
    arm64_cpu_identify(&run.cpu);
    run.counter_hz = tick_freq();
    if (st->FirmwareVendor)
        ucs2_to_ascii(run.uefi_vendor, sizeof(run.uefi_vendor), st->FirmwareVendor, sizeof(run.uefi_vendor));
    fmt_into(run.uefi_revision, sizeof(run.uefi_revision), "%u.%u", st->FirmwareRevision >> 16,
             st->FirmwareRevision & 0xffff);
    run.secure_boot = efi_secure_boot_state();
    if (!EFI_ERROR(RT->GetTime(&t, 0)) && t.Year >= 2020 && t.Year < 2100) {
        run.rtc_plausible = true;
        fmt_into(run.start_time, sizeof(run.start_time), "%04u-%02u-%02uT%02u:%02u:%02u", t.Year, t.Month, t.Day,
                 t.Hour, t.Minute, t.Second);
        fmt_into(run.id, sizeof(run.id), "%04u%02u%02u-%02u%02u%02u", t.Year, t.Month, t.Day, t.Hour, t.Minute,
                 t.Second);
    } else {
        str_copy(run.id, sizeof(run.id), "nodate");
    }
    /*
     * The x86 app's shape (core/run/run.c run_report_basename): time, two names, the stick's
     * run counter (\tlbscope\counter, one for both apps) in 4 digits, which the collector's
     * and recover-report.sh's name pattern requires (a name taken on the stick still gets a
     * suffix: efi/report_out.c).
     */
    fmt_into(run.id + str_len(run.id), sizeof(run.id) - str_len(run.id), "-aarch64-i%02xp%03x-%04u",
             run.cpu.implementer, run.cpu.part, counter % 10000);
    if (tagged) {
        /* reports from many machines meet on one server: as on x86, 8 random hex digits end
         * the name when it is uploaded or there is no boot volume */
        uint8_t tag[4];
        efi_random(tag, sizeof(tag));
        fmt_into(run.id + str_len(run.id), sizeof(run.id) - str_len(run.id), "-%02x%02x%02x%02x", tag[0],
                 tag[1], tag[2], tag[3]);
    }

    fw_tables_read(st, &fw);
    str_copy(run.acpi_oem_id, sizeof(run.acpi_oem_id), fw.oem_id);
    run.madt = fw.have_madt;
    run.pptt = fw.pptt;
    run.srat = fw.srat;
    run.fadt_arm_boot_flags = fw.arm_boot_flags;
    run.smbios = fw.have_smbios;
    str_copy(run.sm_manufacturer, sizeof(run.sm_manufacturer), fw.sm_manufacturer);
    str_copy(run.sm_product, sizeof(run.sm_product), fw.sm_product);
    /* aarch64 has no CPUID hypervisor bit: QEMU is named by its tables */
    if (str_eq(fw.sm_manufacturer, "QEMU")) {
        run.hypervisor = "QEMU";
        run.hypervisor_source = "smbios";
    } else if (str_eq(fw.oem_id, "BOCHS ")) {
        run.hypervisor = "QEMU";
        run.hypervisor_source = "acpi_oem_id";
    }
    if (!fw.have_madt)
        msg_add(&run.errors, "acpi", "no MADT: only the BSP runs");
    if (fw.ncpus_dropped)
        msg_add(&run.warnings, "acpi", "the MADT lists %u CPUs, this build handles %u: %u left out",
                fw.ncpus + fw.ncpus_dropped, ACPI_MAX_CPUS, fw.ncpus_dropped);
    if (fw.ngicr_dropped)
        msg_add(&run.warnings, "acpi", "the MADT lists %u GICR ranges, this build handles %u: %u left out",
                fw.ngicr + fw.ngicr_dropped, GIC_MAX_REDIST_RANGES, fw.ngicr_dropped);
    uart_set_base(fw.uart_base);
}

/* PSCI conduit: the FADT says HVC or SMC; at EL2 an HVC would trap to
 * ourselves, so SMC is the only possibility there */
static void psci_setup(void)
{
    bool hvc = fw.have_fadt ? (fw.arm_boot_flags & ARM_BOOT_PSCI_USE_HVC) != 0 : arch_el == 1;
    int64_t v;
    if (arch_el == 2 && hvc) {
        msg_add(&run.warnings, "psci", "the FADT asks for HVC but the app runs at EL2: SMC used");
        hvc = false;
    }
    psci_init(hvc);
    run.psci_hvc = hvc;
    /* before any CPU_ON: PSCI compliant, 0.2 or later, CPU_ON, CPU_OFF and AFFINITY_INFO
     * there (asm/psci.h); otherwise the BSP runs alone and no absent function is called */
    run.psci_smp = psci_smp_check(fw.have_fadt && (fw.arm_boot_flags & ARM_BOOT_PSCI_COMPLIANT), &run.psci,
                                  run.psci_refusal, sizeof(run.psci_refusal));
    run.psci_checked = fw.have_fadt && (fw.arm_boot_flags & ARM_BOOT_PSCI_COMPLIANT);
    v = run.psci.version;
    if (!run.psci_checked)
        str_copy(run.psci_version, sizeof(run.psci_version), "unknown");
    else if (v < 0)
        fmt_into(run.psci_version, sizeof(run.psci_version), "%s", psci_strerror(v));
    else
        fmt_into(run.psci_version, sizeof(run.psci_version), "%lld.%lld", (long long)(v >> 16),
                 (long long)(v & 0xffff));
    if (!run.psci_smp)
        msg_add(&run.errors, "psci", "%s: CPU_ON not called, only the BSP runs", run.psci_refusal);
}

/* A machine, a virtual machine or an emulator (core/run/platform_kind.h), once PSCI's conduit
 * is known: only an emulator's timings are labelled emulated; a hypervisor's are the CPUs'
 * (with its traps), labelled virtualised */
static void platform_setup(void)
{
    struct platform_evidence ev = { .el = arch_el, .psci_hvc = run.psci_hvc,
                                    .sm_manufacturer = fw.sm_manufacturer, .acpi_oem_id = fw.oem_id };
    ev.hyp_uid_answered = smccc_hyp_uid(arch_el, ev.hyp_uid, &ev.hyp_uid_asked);
    platform_classify(&ev, &run.platform);
    run.platform_known = true;
    if (run.platform.kind != PLATFORM_EMULATED) { /* the tables named QEMU, but KVM runs it */
        run.hypervisor = NULL;
        run.hypervisor_source = NULL;
    }
    con_printf("tlbscope: platform %s%s%s%s: %s\n", platform_kind_name(run.platform.kind),
               run.platform.hypervisor ? " (" : "", run.platform.hypervisor ? run.platform.hypervisor : "",
               run.platform.hypervisor ? ")" : "", run.platform.evidence);
}

/* The firmware's zeroed pages for n per-CPU slots: percpu[] and the secondaries' stacks,
 * sized from the MADT (core/run/bringup_arm64.h), before any CPU starts. Without them the
 * run goes on with the BSP alone, which needs no page. */
static struct percpu bsp_only __attribute__((aligned(PERCPU_ALIGN)));

static unsigned percpu_alloc(unsigned n, struct percpu **table, uint8_t **stacks)
{
    uint64_t table_pages = ((uint64_t)n * sizeof(struct percpu) + 4095) / 4096;
    uint64_t stack_pages = (uint64_t)n * STACK_SIZE / 4096;
    uint64_t t = pages_alloc(table_pages), st = t ? pages_alloc(stack_pages) : 0;
    if (!t || !st) {
        msg_add(&run.errors, "smp", "no memory from the firmware for %u CPUs' state and stacks (%llu KiB): "
                "only the BSP runs", n, (unsigned long long)(table_pages + stack_pages) * 4);
        *table = &bsp_only;
        *stacks = 0;
        return 1;
    }
    *table = (struct percpu *)t;
    *stacks = (uint8_t *)st;
    return n;
}

/* topology and the per-CPU slots: the BSP first, then the MADT's other usable CPUs in its
 * order, then the disabled ones, never started (core/run/bringup_arm64.c) */
static void topology_setup(void)
{
    static struct a64_madt_cpu madt[ACPI_MAX_CPUS];
    static uint64_t slot_mpidr[MAX_CPUS];
    uint64_t me = this_mpidr();
    unsigned i, slots, beyond;
    struct percpu *table;
    uint8_t *stacks;
    for (i = 0; i < fw.ncpus; i++)
        madt[i] = (struct a64_madt_cpu){ fw.cpu[i].mpidr, fw.cpu[i].uid, fw.cpu[i].flags };
    slots = a64_slots_needed(madt, fw.ncpus, me, MAX_CPUS, &beyond);
    if (beyond)
        msg_add(&run.warnings, "smp", "the MADT lists %u usable CPUs, this build handles %u: %u not started",
                slots + beyond, MAX_CPUS, beyond);
    slots = percpu_alloc(run.psci_smp ? slots : 1, &table, &stacks);
    /* without PSCI's SMP functions no other CPU is started: psci_setup said why */
    slots = a64_topology_build(&run, madt, fw.ncpus, me, slots, slot_mpidr, run.psci_smp ? NULL : run.psci_refusal);
    smp_setup(table, stacks, slot_mpidr, slots);
    for (i = 0; i < ncpus; i++) {
        unsigned j;
        for (j = 0; j < fw.ncpus; j++)
            if ((fw.cpu[j].mpidr & MPIDR_AFF_MASK) == percpu[i].mpidr)
                percpu[i].gicr = fw.cpu[j].gicr_base;
    }
}

static void bring_up(void)
{
    static int64_t rc[MAX_CPUS];
    unsigned i, online;
    struct gic_config gc = { fw.gic_version, fw.gicd_base, 0, 0, { { 0, 0 } } };
    struct pt_mmio gicr[GIC_MAX_REDIST_RANGES];
    int g;
    for (i = 0; i < fw.ngicr; i++)
        gicr[i] = (struct pt_mmio){ fw.gicr[i].base, fw.gicr[i].len };
    g = pt_build(pages_alloc, fw.gicd_base, gicr, fw.ngicr);
    run.region_ok = g == 0;
    run.ttbr0_cnp_found = (rgn.fw_ttbr0 & TTBR_CNP) != 0; /* pt_build cleared it in ours */
    /* EL1: TTBR1_EL1's tables stay the firmware's; TCR_EL1.EPD1 [23] as it set it */
    if (arch_el == 1)
        run.tcr_epd1 = (read_sysreg(TCR_EL1) >> 23) & 1;
    run.test_pages = run.region_ok ? REGION_PAGES : 0;
    if (run.region_ok)
        pt_install_local(rgn.ttbr0); /* before CPU_ON: every CPU copies the BSP's TTBR0 */
    else
        msg_add(&run.errors, "paging", "the test region's page tables could not be built (%d)", g);
    /* GICv2 or GICv3, as the MADT's GICD entry says; the GICv2 CPU
     * interface is one address for every CPU (banked): the BSP's GICC */
    /* a range neither the firmware's tables nor ours map would fault at its first read */
    for (i = 0; i < fw.ngicr; i++)
        if ((rgn.mmio_fw | (run.region_ok ? rgn.mmio_tool : 0)) & (1u << i))
            gc.range[gc.nranges++] = fw.gicr[i];
        else
            msg_add(&run.errors, "gic", "GICR range %u (0x%llx, %llu KiB) is mapped by neither the firmware nor "
                    "the tool: not searched", i, (unsigned long long)fw.gicr[i].base,
                    (unsigned long long)fw.gicr[i].len / 1024);
    for (i = 0; i < fw.ncpus; i++)
        if ((fw.cpu[i].mpidr & MPIDR_AFF_MASK) == percpu[0].mpidr)
            gc.gicc = fw.cpu[i].gicc_base;
    g = gic_init(&gc);
    a64_gicr_record(&run, fw.gicr, fw.ngicr, rgn.mmio_fw, run.region_ok ? rgn.mmio_tool : 0);
    a64_gic_record(&run, fw.gic_version, g, g == 0 ? gic_cpu_init(&percpu[0]) : 0);
    online = smp_boot_secondaries(tick_freq() / 1000 * CHECKIN_MS, rc);
    a64_gic_check_secondaries(&run);
    for (i = 0; i < run.ntopo; i++) {
        struct a64_topo_cpu *t = &run.topo[i];
        /* a row's slot is below ncpus (a64_topology_build), whatever the BSP's place */
        if (t->percpu <= 0 || (unsigned)t->percpu >= ncpus)
            continue;
        if (percpu_usable((unsigned)t->percpu))
            continue;
        t->state = A64_CPU_ABSENT;
        run.partial = true;
        if (rc[t->percpu] != PSCI_SUCCESS)
            fmt_into(t->note, sizeof(t->note), "PSCI CPU_ON returned %s (%lld)", psci_strerror(rc[t->percpu]),
                     (long long)rc[t->percpu]);
        else if (percpu[t->percpu].state == CPU_PARKED) {
            t->state = A64_CPU_FAULTED; /* ESR, FAR, ELR: a64_topology_settle */
            str_copy(t->note, sizeof(t->note), "faulted before it checked in");
        }
        else
            fmt_into(t->note, sizeof(t->note), "did not check in within %u ms of CPU_ON", CHECKIN_MS);
    }
    con_printf("tlbscope: %u of %u CPUs online (EL%u, PSCI %s via %s)\n", online, ncpus, arch_el, run.psci_version,
            run.psci_hvc ? "HVC" : "SMC");
}

/*
 * The machine back to the firmware as it came, before the report (which records it in
 * method.handback): the secondaries off (core/exp/arm64/handback.c), then the BSP's own
 * state: its SGIs and the distributor's enables (gic_pm.c), the firmware's TTBR0 and
 * VBAR, and every page the tool allocated. While a secondary is still on, it may still
 * walk the tool's tables: those pages are kept (pages_kept) rather than handed to the
 * firmware under it.
 */
static void hand_back(void)
{
    struct a64_handback *h = &run.handback;
    a64_hand_back_cpus(&run);
    h->machine = true;
    if (run.gic_ok || gic_version) {
        bool cpu_ok = gic_cpu_restore(&percpu[0]) == 0;
        h->dist_restored = gic_dist_restore() == 0 && cpu_ok;
        if (!h->dist_restored)
            msg_add(&run.warnings, "handback", "the GIC's SGI or distributor state did not settle within 100 ms");
    }
    if (run.region_ok)
        pt_install_local(rgn.fw_ttbr0); /* give the firmware its own tables back */
    h->ttbr0_restored = EL_READ(TTBR0) == rgn.fw_ttbr0 || !run.region_ok;
    EL_WRITE(VBAR, fw_vbar);
    __asm__ volatile("isb" ::: "memory");
    h->vbar_restored = EL_READ(VBAR) == fw_vbar;
    pages_give_back(h->cpus_not_off != 0, &h->pages_freed, &h->pages_kept);
    con_printf("tlbscope: hand-back: %u of %u secondaries off (PSCI CPU_OFF), GIC %s, %u pages freed%s\n", h->cpus_off,
               ncpus ? ncpus - 1 : 0, h->dist_restored ? "restored" : "not restored", h->pages_freed,
               h->pages_kept ? " (some kept: a CPU is still on)" : "");
}

/*
 * The report on the stick as x86's (efi/report_out.c: never overwriting, through a .partial
 * name, read back), then the summary on the console; when the stick fails, the errors say
 * why and the whole JSON follows on the console for scripts/recover-report.sh.
 */
/* The summary's upload line, as the report shows it. */
static void upload_line(struct strbuf *sb, const void *ctx)
{
    static struct redaction red;
    const struct arm64_run *r = ctx;
    size_t start = sb->len;
    upload_status_text(&r->upload, r->cfg.upload, r->cfg.upload_attempts, sb);
    a64_prepare_redaction(r, &red); /* redact=on: the URL as the report shows it */
    redaction_scrub_buffer(&red, sb, start);
}

/* Whether the firmware may have the machine back: no CPU left running the tool's code unseen
 * (a CPU that stopped answering may; a faulted one is parked in the tool's vector) */
static bool cpus_quiet(void)
{
    for (unsigned i = 0; i < run.ntopo; i++)
        if (run.topo[i].state == A64_CPU_HUNG)
            return false;
    return true;
}

/* The stick failed: both texts again, its error in them (efi/report_out.h report_deliver) */
static void rewrite_reports(struct strbuf *json, struct strbuf *text, void *ctx)
{
    (void)ctx;
    sb_init_fixed(json, json_buf, sizeof(json_buf));
    sb_init_fixed(text, text_buf, sizeof(text_buf));
    a64_report_json(&run, json);
    a64_report_text(&run, text);
}

static void finish(struct volume *vol)
{
    struct strbuf json, text;
    char base[96];
    bool saved_ok;
    /* the network boot's NIC and address, else the NIC's default address (DHCP) */
    struct upload_job job = { &run.cfg, run.id, &run.upload, &nb.route };
    struct report_delivery delivery = {
        .errors = &run.errors,
        .volume = vol,
        .name = run.id,
        .json = &json,
        .text = &text,
        /* as on x86: an upload's copy is checked against this one; console_json=on asks for it */
        .json_on_console = run.cfg.console_json || run.cfg.upload[0],
        /* a network boot has no stick: the console (and the upload) carry the report, as on x86 */
        .netboot_only = !vol->root && nb.info.boot != BOOT_DISK,
        .rewrite = rewrite_reports,
    };
    upload_prepare(&job, cpus_quiet());
    sb_init_fixed(&json, json_buf, sizeof(json_buf));
    sb_init_fixed(&text, text_buf, sizeof(text_buf));
    if (!a64_report_json(&run, &json))
        msg_add(&run.errors, "report", "the JSON report did not fit its %u KiB buffer",
                (unsigned)(sizeof(json_buf) / 1024));
    a64_report_text(&run, &text);
    saved_ok = report_deliver(&delivery, base, sizeof(base));
    {
        /* "RESULT: " + the verdict, as x86's app says it (scripts/stick-lib.sh reads it); a
         * buffer of its own: the upload below sends the text's */
        char line[256];
        struct strbuf verdict;
        sb_init_fixed(&verdict, line, sizeof(line));
        a64_report_verdict(&run, &verdict);
        con_printf("RESULT: %s\n", line);
    }
    /* last the upload of those same bytes; its outcome goes beside the stick's copy */
    if (run.upload.state == UPLOAD_PENDING)
        upload_after_save(&job, vol, &run.errors, saved_ok ? base : "", json.data, json.len, text.data, text.len,
                          upload_line, &run);
    con_write("TLBSCOPE DONE\n");
}

EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st);
EFI_STATUS efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
    struct volume vol;
    EFI_STATUS vst;
    InitializeLib(image, st);
    arch_el = cur_el();
    tlbi_el2 = arch_el == 2;
    BS->SetWatchdogTimer(0, 0, 0, 0);
    /* before the first timestamp: from here on CNTVCT_EL0 = CNTPCT_EL0 at EL2 */
    run.cntvoff_cleared = arch_el == 2;
    if (run.cntvoff_cleared)
        run.cntvoff_found = counter_clear_voffset();
    run.start_ticks = ticks();
    fw_vbar = EL_READ(VBAR);
    run.el = arch_el;
    run.irq_mask = irq_mask;
    run.irq_restore = irq_restore;
    run.print = print_line;
    con_printf("\ntlbscope %s (%s) for aarch64\n", TLBSCOPE_VERSION, TLBSCOPE_COMMIT);
    vst = volume_open_boot(image, &vol);
    netboot_detect(image, &nb);
    /* a network boot has no file system: expected, not an error */
    if (EFI_ERROR(vst) && nb.info.boot == BOOT_DISK)
        msg_add(&run.errors, "volume", "cannot open the boot volume: %s", efi_status_name(vst));
    a64_config_load(image, &vol, &nb, &run);
    if (nb.info.boot != BOOT_DISK) /* the boot server's URL is identifying: as in the report */
        con_printf("Boot: %s from %s\n", boot_kind_name(nb.info.boot),
                   run.cfg.redact ? "(redacted)" : nb.info.boot_url[0] ? nb.info.boot_url : "an unnamed server");
    if (run.cfg.redact && !run.cfg.redact_key[0]) {
        /* random tokens: a key for this report alone, forgotten when the app exits (as on x86) */
        if (!efi_random(run.redact_random_key, sizeof(run.redact_random_key)))
            msg_add(&run.warnings, "redact", "no random number generator (EFI_RNG_PROTOCOL, RNDR): the "
                    "random tokens rest on counter timing jitter alone");
        run.redact_random_key_set = true;
    }
    /* redact=on: the load options may name the collector, which the report shows as a token */
    con_printf("tlbscope: configuration %s%s%s: profile %s, %u samples per point, timeout %u ms\n",
               !run.config_file                           ? "defaults"
               : run.net.config_source == CFG_SRC_VOLUME ? "\\tlbscope\\tlbscope.cfg"
                                                         : "tlbscope.cfg from the boot server", run.args[0] ? " + load options: " : "",
               !run.args[0] ? "" : run.cfg.redact ? "(redact=on)" : run.args, run.profile, run.samples,
               run.timeout_ms);

    identify(st, report_next_counter(&vol), run.cfg.upload[0] || !vol.root);
    con_printf("tlbscope: MIDR 0x%llx, EL%u, CNTFRQ %llu Hz, ID_AA64ISAR0_EL1 0x%llx%s%s\n",
            (unsigned long long)run.cpu.midr, arch_el, (unsigned long long)run.counter_hz,
            (unsigned long long)run.cpu.isar0, run.hypervisor ? ", emulator: " : "",
            run.hypervisor ? run.hypervisor : "");
    psci_setup();
    platform_setup();
    topology_setup();
    bring_up();
    a64_run_experiments(&run);
    a64_topology_settle(&run);
    hand_back();
    run.duration_ms = ticks_to_ms(ticks() - run.start_ticks);
    finish(&vol);
    volume_close(&vol);
    if (str_eq(run.exit_word, "shutdown")) {
        con_printf("tlbscope: PSCI SYSTEM_OFF\n");
        psci_system_off();
    }
    if (str_eq(run.exit_word, "reset")) {
        con_printf("tlbscope: PSCI SYSTEM_RESET\n");
        psci_system_reset();
    }
    return EFI_SUCCESS;
}
