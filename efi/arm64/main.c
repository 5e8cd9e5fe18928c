/*
 * tlbscope for aarch64: the UEFI entry point and the order of a run.
 *
 * identify the CPU and the firmware (ACPI, SMBIOS) -> PSCI conduit -> our
 * page tables for the test region, installed on the BSP before any CPU
 * starts (so every CPU runs on them) -> GICv3 -> PSCI CPU_ON of every MADT
 * GICC CPU, check-in within 1 s -> the experiments (core/exp/arm64/) -> the
 * report (core/report/report_arm64.c) on the boot volume, \tlbscope\reports\, and
 * its summary on the console -> PSCI SYSTEM_OFF under an emulator (QEMU
 * exits), back to the firmware on hardware. Whatever fails on the way is
 * recorded and the run goes on: the report is always written.
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
#include "core/run/run_arm64.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/report/report_arm64.h"
#include "efi/arm64/acpi.h"
#include "efi/arm64/config_a64.h"
#include "efi/arm64/console.h"
#include "efi/arm64/uefi.h"
#include "efi/arm64/volume.h"

#define REPORT_DIR "\\tlbscope\\reports"
#define CHECKIN_MS 1000

static efi_boot_services *bs;
static struct arm64_run run;
static struct fw_tables fw;
static char json_buf[512 * 1024], text_buf[64 * 1024];

static void *pool_alloc(size_t n)
{
    void *p = 0;
    return EFI_ERROR(bs->allocate_pool(EFI_LOADER_DATA, n, &p)) ? 0 : p;
}

static void pool_free(void *p)
{
    bs->free_pool(p);
}

static const struct mem_ops efi_mem = { pool_alloc, pool_free };

/* zeroed, identity-mapped pages for the page tables and the frame pools */
static uint64_t alloc_pages(uint64_t n)
{
    uint64_t a = 0;
    if (EFI_ERROR(bs->allocate_pages(EFI_ALLOCATE_ANY_PAGES, EFI_LOADER_DATA, n, &a)))
        return 0;
    mem_zero((void *)a, n * 4096);
    return a;
}

static uint64_t irq_mask(void)
{
    return bs->raise_tpl(TPL_HIGH_LEVEL);
}

static void irq_restore(uint64_t tpl)
{
    bs->restore_tpl(tpl);
}

static void identify(efi_system_table *st)
{
    unsigned i;
    efi_time t;
    arm64_cpu_identify(&run.cpu);
    run.counter_hz = tick_freq();
    for (i = 0; st->firmware_vendor && st->firmware_vendor[i] && i + 1 < sizeof(run.uefi_vendor); i++)
        run.uefi_vendor[i] = st->firmware_vendor[i] < 0x7f ? (char)st->firmware_vendor[i] : '?';
    fmt_into(run.uefi_revision, sizeof(run.uefi_revision), "%u.%u", st->firmware_revision >> 16,
             st->firmware_revision & 0xffff);
    if (!EFI_ERROR(st->runtime_services->get_time(&t, 0)) && t.year >= 2020 && t.year < 2100) {
        run.rtc_plausible = true;
        fmt_into(run.start_time, sizeof(run.start_time), "%04u-%02u-%02uT%02u:%02u:%02u", t.year, t.month, t.day,
                 t.hour, t.minute, t.second);
        fmt_into(run.id, sizeof(run.id), "%04u%02u%02u-%02u%02u%02u", t.year, t.month, t.day, t.hour, t.minute,
                 t.second);
    } else {
        str_copy(run.id, sizeof(run.id), "nodate");
    }
    /*
     * The x86 app's shape (core/run/run.c run_report_basename): time, two names, a 4-digit
     * count, which the collector's and recover-report.sh's name pattern requires; one run
     * per boot, so the count is 1 (a name taken on the stick gets a suffix below).
     */
    fmt_into(run.id + str_len(run.id), sizeof(run.id) - str_len(run.id), "-aarch64-i%02xp%03x-0001",
             run.cpu.implementer, run.cpu.part);

    fw_tables_read(st, &fw);
    str_copy(run.acpi_oem_id, sizeof(run.acpi_oem_id), fw.oem_id);
    run.madt = fw.have_madt;
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
        msg_add(&run.warnings, "acpi", "%u MADT CPUs beyond the %u this build handles are left out",
                fw.ncpus_dropped, ACPI_MAX_CPUS);
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
    v = psci_call(PSCI_VERSION, 0, 0, 0);
    fmt_into(run.psci_version, sizeof(run.psci_version), "%lld.%lld", (long long)(v >> 16),
             (long long)(v & 0xffff));
    if (v < 0x10000)
        msg_add(&run.warnings, "psci", "PSCI_VERSION returned %lld", (long long)v);
}

/* topology: the BSP first, then the MADT's other usable CPUs in its order
 * (the percpu[] indices), then the disabled ones, never started */
static void topology_setup(void)
{
    uint64_t me = this_mpidr(), mpidr[ACPI_MAX_CPUS];
    unsigned i, n = 0;
    struct a64_topo_cpu *t = &run.topo[run.ntopo++];
    t->mpidr = me;
    t->percpu = 0;
    t->bring_up = "bsp";
    t->uid = 0;
    for (i = 0; i < fw.ncpus; i++)
        if ((fw.cpu[i].mpidr & MPIDR_AFF_MASK) == me)
            t->uid = fw.cpu[i].uid;
    for (i = 0; i < fw.ncpus; i++) {
        const struct acpi_gicc *c = &fw.cpu[i];
        /* GICC.Flags: Enabled, or Online Capable (may be brought up later) */
        if ((c->mpidr & MPIDR_AFF_MASK) == me || !(c->flags & (GICC_ENABLED | GICC_ONLINE_CAPABLE)))
            continue;
        t = &run.topo[run.ntopo++];
        t->mpidr = c->mpidr & MPIDR_AFF_MASK;
        t->uid = c->uid;
        t->percpu = (int)(n + 1);
        t->bring_up = "psci";
        mpidr[n++] = t->mpidr;
    }
    for (i = 0; i < fw.ncpus && run.ntopo < A64_MAX_TOPO; i++) {
        const struct acpi_gicc *c = &fw.cpu[i];
        if ((c->mpidr & MPIDR_AFF_MASK) == me || (c->flags & (GICC_ENABLED | GICC_ONLINE_CAPABLE)))
            continue;
        t = &run.topo[run.ntopo++];
        t->mpidr = c->mpidr & MPIDR_AFF_MASK;
        t->uid = c->uid;
        t->percpu = -1;
        t->state = A64_CPU_DISABLED;
        str_copy(t->note, sizeof(t->note), "MADT GICC neither enabled nor online capable");
    }
    smp_setup(mpidr, n);
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
    int g = pt_build(alloc_pages);
    run.region_ok = g == 0;
    run.test_pages = run.region_ok ? REGION_PAGES : 0;
    if (run.region_ok)
        pt_install_local(rgn.ttbr0); /* before CPU_ON: every CPU copies the BSP's TTBR0 */
    else
        msg_add(&run.errors, "paging", "the test region's page tables could not be built (%d)", g);
    /* GICv2 or GICv3, as the MADT's GICD entry says; the GICv2 CPU
     * interface is one address for every CPU (banked): the BSP's GICC */
    struct gic_config gc = {fw.gic_version, fw.gicd_base, 0, fw.gicr_range_base, fw.gicr_range_len};
    for (i = 0; i < fw.ncpus; i++)
        if ((fw.cpu[i].mpidr & MPIDR_AFF_MASK) == percpu[0].mpidr)
            gc.gicc = fw.cpu[i].gicc_base;
    g = gic_init(&gc);
    run.gic_version = gic_version;
    run.gic_ok = g == 0 && gic_cpu_init(&percpu[0]) == 0;
    if (!run.gic_ok)
        msg_add(&run.errors, "gic", "GICv%u not usable (MADT GICD version %u, rc %d): no SGIs",
                gic_version ? gic_version : fw.gic_version, fw.gic_version, g);
    online = smp_boot_secondaries(tick_freq() / 1000 * CHECKIN_MS, rc);
    for (i = 0; i < run.ntopo; i++) {
        struct a64_topo_cpu *t = &run.topo[i];
        if (t->percpu <= 0)
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
    kprintf("tlbscope: %u of %u CPUs online (EL%u, PSCI %s via %s)\n", online, ncpus, arch_el, run.psci_version,
            run.psci_hvc ? "HVC" : "SMC");
}

static void save_report(efi_handle image, const char *json, size_t jlen, const char *text, size_t tlen)
{
    char base[96], path[160];
    unsigned attempt;
    if (!vol_open(bs, image)) {
        kprintf("tlbscope: the boot volume could not be opened: no report file\n");
        return;
    }
    vol_mkdir("\\tlbscope");
    vol_mkdir(REPORT_DIR);
    /* a wrong clock can repeat a name: add a suffix, never overwrite */
    for (attempt = 0; attempt < 100; attempt++) {
        if (attempt == 0)
            str_copy(base, sizeof(base), run.id);
        else
            fmt_into(base, sizeof(base), "%s-%u", run.id, attempt);
        fmt_into(path, sizeof(path), "%s\\%s.json", REPORT_DIR, base);
        if (!vol_exists(path))
            break;
    }
    if (EFI_ERROR(vol_write(path, json, jlen))) {
        kprintf("tlbscope: writing %s failed\n", path);
        return;
    }
    kprintf("tlbscope: report saved as %s\n", path);
    fmt_into(path, sizeof(path), "%s\\%s.txt", REPORT_DIR, base);
    if (EFI_ERROR(vol_write(path, text, tlen)))
        kprintf("tlbscope: writing %s failed\n", path);
}

efi_status efi_main(efi_handle image, efi_system_table *st);
efi_status efi_main(efi_handle image, efi_system_table *st)
{
    struct strbuf json, text;
    bs = st->boot_services;
    con_init(st->con_out);
    mem_set_ops(&efi_mem);
    arch_el = cur_el();
    tlbi_el2 = arch_el == 2;
    bs->set_watchdog_timer(0, 0, 0, 0);
    run.start_ticks = ticks();
    run.el = arch_el;
    run.irq_mask = irq_mask;
    run.irq_restore = irq_restore;
    kprintf("\ntlbscope %s (%s) for aarch64\n", TLBSCOPE_VERSION, TLBSCOPE_COMMIT);
    a64_config_load(bs, image, &run);
    kprintf("tlbscope: configuration %s%s%s: profile %s, %u samples per point, timeout %u ms\n",
            run.config_file ? "\\tlbscope\\tlbscope.cfg" : "defaults", run.args[0] ? " + load options: " : "",
            run.args, run.profile, run.samples, run.timeout_ms);

    identify(st);
    kprintf("tlbscope: MIDR 0x%llx, EL%u, CNTFRQ %llu Hz, ID_AA64ISAR0_EL1 0x%llx%s%s\n",
            (unsigned long long)run.cpu.midr, arch_el, (unsigned long long)run.counter_hz,
            (unsigned long long)run.cpu.isar0, run.hypervisor ? ", emulator: " : "",
            run.hypervisor ? run.hypervisor : "");
    /* exit=: as configured; by default off under an emulator (QEMU exits), back to the firmware on
     * hardware (the report is on the stick either way) */
    if (!run.exit_word)
        run.exit_word = run.hypervisor ? "shutdown" : "shell";
    psci_setup();
    topology_setup();
    bring_up();
    a64_run_experiments(&run);
    a64_topology_settle(&run);
    if (run.region_ok)
        pt_install_local(rgn.fw_ttbr0); /* give the firmware its own tables back */
    run.duration_ms = ticks_to_ms(ticks() - run.start_ticks);

    sb_init_fixed(&json, json_buf, sizeof(json_buf));
    sb_init_fixed(&text, text_buf, sizeof(text_buf));
    if (!a64_report_json(&run, &json))
        kprintf("tlbscope: the JSON report did not fit its buffer\n");
    a64_report_text(&run, &text);
    con_puts(text.data);
    save_report(image, json.data, json.len, text.data, text.len);
    if (str_eq(run.exit_word, "shutdown")) {
        kprintf("tlbscope: PSCI SYSTEM_OFF\n");
        psci_system_off();
    }
    if (str_eq(run.exit_word, "reset")) {
        kprintf("tlbscope: PSCI SYSTEM_RESET\n");
        psci_system_reset();
    }
    return EFI_SUCCESS;
}
