#include "sim/session.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "asm/cpu.h"
#include "asm/invlpgb.h"
#include "asm/microcode.h"
#include "asm/paging.h"
#include "asm/probe.h"
#include "asm/tlb.h"
#include "asm/trap.h"
#include "core/machine/emulate.h"
#include "core/run/hw_policy.h"
#include "core/machine/ipi.h"
#include "core/run/method.h"
#include "core/report/report.h"
#include "core/run/runner.h"
#include "core/machine/shootdown.h"
#include "core/machine/takeover.h"
#include "core/machine/testmem.h"
#include "core/machine/timing.h"
#include "sim/aps.h"
#include "sim/hostmem.h"
#include "sim/report_files.h"

/* The profile's CPUID, with the INVLPGB maximum count changed when asked. */
struct cpuid_view {
    const struct sim_profile *profile;
    uint32_t invlpgb_max_pages;
    bool no_invpcid;
};

struct sim_session {
    struct run *run;
    struct sim_machine mach;
    struct cpuid_view view;
    struct tool_env env;
    struct takeover takeover;
    struct smp smp;
    struct pt_ctx pt;
    struct testmem tm;
    bool aps_running;
    uint32_t errata;           /* TLBM_ERR_*: asked for, and the profile's with its microcode */
};

/* ---- the platform's part: clock, console ---- */

static void host_clock(struct firmware_info *fw)
{
    time_t now = time(NULL);
    struct tm t;
    localtime_r(&now, &t);
    fw->start_time.year = (uint16_t)(t.tm_year + 1900);
    fw->start_time.month = (uint8_t)(t.tm_mon + 1);
    fw->start_time.day = (uint8_t)t.tm_mday;
    fw->start_time.hour = (uint8_t)t.tm_hour;
    fw->start_time.minute = (uint8_t)t.tm_min;
    fw->start_time.second = (uint8_t)t.tm_sec;
    fw->start_time.valid = true;
    fw->rtc_plausible = rtc_looks_plausible(&fw->start_time);
}

/*
 * The runner measures in the tool's state: the BSP taken over as
 * efi/session.c does it, interrupts off first as RaiseTPL(TPL_HIGH_LEVEL)
 * turns them off, and on again after, as RestoreTPL does: a tool vector
 * still pending then reaches the firmware's IDT (a violation).
 */
static void enter_tool(void *ctx)
{
    struct sim_session *s = ctx;
    irq_disable();
    takeover_bsp_enter(&s->takeover);
}

static void leave_tool(void *ctx)
{
    struct sim_session *s = ctx;
    takeover_bsp_leave(&s->takeover);
    irq_enable();
}

static void print_hook(void *ctx, const char *text)
{
    (void)ctx;
    fputs(text, stdout);
    fflush(stdout);
}

/* ---- the run ---- */

static void view_cpuid(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    const struct cpuid_view *v = ctx;
    sim_profile_cpuid((void *)v->profile, leaf, subleaf, regs);
    if (leaf == 0x80000008 && v->invlpgb_max_pages)
        regs[3] = (regs[3] & 0xffff0000u) | ((v->invlpgb_max_pages - 1) & 0xffffu);
    if (leaf == 7 && subleaf == 0 && v->no_invpcid)
        regs[1] &= ~(1u << 10);
}

/* The modelled CPUs' microcode: --microcode, else what the profile's dump recorded. */
static void choose_microcode(struct run *r, const struct sim_options *o)
{
    struct simulation_info *si = &r->sim;
    static char source[96];
    if (o->microcode_set) {
        si->microcode_known = true;
        si->microcode = o->microcode;
        si->microcode_source = "--microcode";
    } else if (o->profile->has_microcode) {
        si->microcode_known = true;
        si->microcode = o->profile->microcode;
        fmt_into(source, sizeof(source), "the profile (MSR 0x8B recorded in %s)",
                 o->profile->source);
        si->microcode_source = source;
    } else {
        si->microcode_source = "none: the profile's dump recorded no MSR 0x8B";
    }
}

static void describe(struct run *r, const struct sim_options *o, uint32_t errata)
{
    uint32_t bit;
    struct simulation_info *si = &r->sim;
    si->simulated = true;
    si->model = TLBM_MODEL_NAME;
    si->model_version = TLBM_MODEL_VERSION;
    si->profile = o->profile->name;
    si->profile_cpu = o->profile->what;
    si->seed = o->seed;
    si->tlb_sets = o->model.sets;
    si->tlb_ways = o->model.ways;
    for (bit = 1; bit <= TLBM_ERRATA_ALL && si->errata_count < SIM_MAX_ERRATA; bit <<= 1)
        if (errata & bit)
            si->errata[si->errata_count++] = tlbm_erratum_name(bit);
    si->la57 = o->la57;
    str_copy(r->fw.vendor, sizeof(r->fw.vendor), "tlbscope-sim (modelled machine, no firmware)");
    r->fw.secure_boot = SB_UNKNOWN;
    host_clock(&r->fw);
}

/* The machine-wide test injections of efi/mp.c, as the model's firmware would show them. */
static bool mp_services(struct run *r)
{
    /* the model has MP services only: no trampoline, no INIT-SIPI (efi/ap_boot.c) */
    if (r->cfg.mp_mode != MP_AUTO || config_mp_partial(&r->cfg))
        msg_add(&r->warnings, "mp", "simulated machine: the model starts CPUs only as MP services "
                "would; mp=%s and inject=mp_partial are not modelled (no INIT-SIPI)",
                mp_mode_name(r->cfg.mp_mode));
    if (config_injects(&r->cfg, INJECT_NO_MP)) {
        fmt_into(r->mp_note, sizeof(r->mp_note),
                 "EFI_MP_SERVICES_PROTOCOL not found (injected: inject=no_mp): running on the BSP "
                 "alone");
        return false;
    }
    if (config_injects(&r->cfg, INJECT_MP_FAIL)) {
        fmt_into(r->mp_note, sizeof(r->mp_note),
                 "StartupAllAPs failed (injected by inject=mp_fail): running on the BSP alone");
        return false;
    }
    if (r->topo.count == 1) {
        fmt_into(r->mp_note, sizeof(r->mp_note), "only one CPU: nothing to take over");
        return false;
    }
    return true;
}

static bool build_machine(struct sim_session *s, const struct sim_options *o)
{
    struct run *r = s->run;
    struct tlbm_config cfg = o->model;
    struct sim_lapic_config apic;
    uint32_t smt = o->profile->smt ? o->profile->smt : 1, packages;
    cfg.seed = o->seed;
    cfg.errata = s->errata;
    cfg.la57 = o->la57;
    sim_profile_features(&r->cpu, &cfg.feat);
    packages = o->cpus >= 8 && o->cpus % (2 * smt) == 0 ? 2 : 1;
    if (!sim_machine_init(&s->mach, o->cpus, &cfg, smt, o->cpus / smt / packages)) {
        fprintf(stderr, "tlbscope-sim: cannot set up a machine of %u CPUs\n", o->cpus);
        return false;
    }
    /* the firmware hands over in x2APIC mode when the CPU has it (as the profile's servers' do) */
    r->firmware_x2apic = r->cpu.x2apic;
    apic.x2apic = r->cpu.x2apic;
    apic.firmware_x2apic = r->firmware_x2apic;
    apic.x2apic_serialising = r->cpu.vendor_id == VENDOR_AMD || r->cpu.vendor_id == VENDOR_HYGON;
    sim_machine_set_apic(&s->mach, &apic, o->seed);
    sim_machine_set_cpuid(&s->mach, view_cpuid, &s->view);
    r->topo = s->mach.topo;
    r->topology_source = "simulated";
    r->l3_source = "none";
    if (o->shape_given) {
        struct sim_shape sh = o->shape;
        if (o->numa_given)
            sh.nodes = (uint32_t)o->numa_nodes;
        if (!sim_machine_shape(&s->mach, &sh)) {
            fprintf(stderr, "tlbscope-sim: --shape %ux%ux%ux%u (%u NUMA nodes) does not describe "
                            "%u CPUs (or the nodes do not divide the packages, or the\n"
                            "packages' cores, for more nodes than packages)\n",
                    sh.packages, sh.l3s, sh.cores_per_l3, sh.threads, sh.nodes, o->cpus);
            return false;
        }
        r->l3_source = "simulated";
    }
    s->mach.microcode_valid = r->sim.microcode_known;
    s->mach.microcode = r->sim.microcode;
    s->mach.features = &r->cpu;
    /* the firmware's paging mode, as efi/memmap.c reads it from the BSP's CR4 */
    if (!pt_init(&s->pt, method_paging_levels(s->mach.model.cpu[0]->cr4), false, host_alloc_table,
                 NULL) ||
        !testmem_init(&s->tm, &s->pt, host_alloc_frames, NULL)) {
        fprintf(stderr, "tlbscope-sim: out of memory for the page tables\n");
        return false;
    }
    if (r->cfg.global_pages)
        testmem_set_global(&s->tm, true);
    /* hardware may walk any present test page at any time: let the model do it too */
    tlbm_add_spec_range(&s->mach.model, TEST_VA_BASE, TEST_PAGES, PAGE_4K);
    if (s->tm.has_2m)
        tlbm_add_spec_range(&s->mach.model, TEST_2M_VA_BASE, TEST_2M_PAGES, PAGE_2M);
    s->env.cr3 = (uint64_t)(uintptr_t)s->pt.root; /* PCID decided later: choose_pcids() */
    r->method.cr3_root = s->env.cr3;
    r->method.paging_levels = s->pt.levels;
    r->method.test_pages = TEST_PAGES;
    r->method.page_flush = "invlpg";
    r->method.firmware_apic_mode = r->firmware_x2apic ? "x2apic" : "xapic";
    /* the machine's decisions (core/run/hw_policy.c), as efi/session.c makes them */
    {
        static struct apic_choice c;
        uint32_t i, max_id = 0;
        for (i = 0; i < r->topo.count; i++)
            max_id = r->topo.cpus[i].apic_id > max_id ? r->topo.cpus[i].apic_id : max_id;
        hw_choose_apic_mode(r->cfg.apic, r->cpu.x2apic, r->firmware_x2apic, max_id, &c);
        if (c.request_refused)
            msg_add(&r->warnings, "apic", "%s", c.why);
        s->env.apic_mode = c.mode;
        r->method.apic_mode = apic_mode_name(c.mode);
        r->method.apic_mode_reason = c.why;
    }
    s->env.xapic_base = s->mach.lapic[0].base & ~0xfffull; /* the BSP's IA32_APIC_BASE */
    apic_set_icr_fence(hw_icr_fence_needed(r->cpu.vendor_id, s->env.apic_mode));
    r->method.icr_fence = apic_icr_fence() ? "mfence;lfence" : "none";
    return true;
}

/* The probes of efi/session.c, executed on the model: a fault would be a violation. */
static void probe_instructions(struct sim_session *s)
{
    struct run *r = s->run;
    uint32_t before = s->mach.model.violations;
    uint32_t invpcid_ok = PROBE_OK, invlpgb_ok = PROBE_OK;
    if (r->cpu.invpcid) {
        invpcid(INVPCID_ALL_NON_GLOBAL, 0, 0);
        invpcid_ok = s->mach.model.violations == before ? PROBE_OK : PROBE_FAULTED(13);
    }
    if (r->cpu.invlpgb) {
        struct invlpgb_op op = invlpgb_encode_range(testmem_va(0), 1, false, 0, false);
        before = s->mach.model.violations;
        invlpgb_raw(op.rax, op.ecx, op.edx);
        tlbsync();
        invlpgb_ok = s->mach.model.violations == before ? PROBE_OK : PROBE_FAULTED(6);
    }
    method_apply_probes(r, invpcid_ok, invlpgb_ok, PROBE_OK);
}

/*
 * PCID on or off before any AP enters the tool's state, as efi/session.c
 * decides it (core/run/method.c): where the INVLPG/global erratum needs the BSP's
 * microcode revision, the BSP enters once without PCID (takeover_bsp_enter
 * reads it), then the choice is made.
 */
static void choose_pcids(struct sim_session *s)
{
    struct run *r = s->run;
    struct percpu *bsp = s->smp.cpu[0];
    if (method_pcid_needs_microcode(r)) {
        enter_tool(s);
        leave_tool(s);
    }
    method_choose_pcids(r, bsp->microcode_valid, bsp->microcode);
    takeover_set_pcid(&s->takeover, r->method.pcid_enabled, r->method.kernel_pcid);
}

static uint32_t start_aps(struct sim_session *s, uint64_t window_ms)
{
    struct run *r = s->run;
    uint32_t i;
    /* inject=absent: the thread starts, and takeover_ap_main() never checks in */
    for (i = 1; i < s->smp.count; i++) {
        if (!s->smp.cpu[i])
            continue;
        if (!sim_start_ap(&s->mach, &s->takeover, i))
            msg_add(&r->errors, "sim", "could not start a thread for CPU %u", i);
    }
    return takeover_wait_checkins(&s->takeover, tsc_now() + ms_to_ticks(window_ms), window_ms);
}

static void report_violations(struct run *r, const struct tlb_model *m)
{
    uint32_t i;
    /* "CPU n: #GP: ..." is a fault; the APIC model's other findings say what goes wrong */
    for (i = 0; i < m->violations && i < TLBM_MAX_VIOLATIONS; i++)
        msg_add(&r->errors, "model", "%s%s", m->violation[i],
                strstr(m->violation[i], ": #") ? " (a fault on the machine)" : "");
    if (m->violations > TLBM_MAX_VIOLATIONS)
        msg_add(&r->errors, "model", "%u further architectural violations", 
                m->violations - TLBM_MAX_VIOLATIONS);
}

/*
 * Each modelled CPU is a host thread: with more of them than host cores they
 * take turns, so what CPUs do at the same time (contention rates, waits on
 * several targets) is the host's time-slicing, not the model's (issue 32).
 */
static void warn_oversubscribed(struct run *r)
{
    long host = sysconf(_SC_NPROCESSORS_ONLN);
    if (host <= 0 || r->topo.count <= (uint64_t)host)
        return;
    /* short: the text summary prints it on one line of 80 columns */
    msg_add(&r->warnings, "sim",
            "%u modelled CPUs, %ld host cores: concurrent timings are time-sliced",
            r->topo.count, host);
    printf("WARNING: sim: %u modelled CPUs, %ld host cores: concurrent timings are time-sliced\n",
           r->topo.count, host);
}

static bool measure(struct sim_session *s, const struct sim_options *o)
{
    struct run *r = s->run;
    struct runner_hooks hooks = { enter_tool, leave_tool, print_hook, s };
    struct runner runner;
    uint64_t t_to = method_answer_timeout_ms(r), window_ms = 2000 + 10ull * r->topo.count;
    uint32_t i, arrived, missing;

    if (!build_machine(s, o))
        return false;
    config_check_cpus(&r->cfg, r->topo.count, &r->warnings);
    warn_oversubscribed(r);
    if (o->iommu) { /* the tables Linux reads for interrupt remapping (core/machine/linux_apic.h) */
        r->fw.acpi.has_dmar = r->cpu.vendor_id == VENDOR_INTEL;
        r->fw.acpi.dmar_flags = r->fw.acpi.has_dmar ? 1 : 0; /* INTR_REMAP */
        r->fw.acpi.has_ivrs = r->cpu.vendor_id != VENDOR_INTEL;
    }
    if (!smp_init(&s->smp, &r->topo, r->cfg.inject, r->cfg.inject_count, ms_to_ticks(t_to)) ||
        !takeover_init(&s->takeover, &s->smp, &s->env, &r->cpu)) {
        fprintf(stderr, "tlbscope-sim: out of memory for the per-CPU blocks\n");
        return false;
    }
    s->smp.halt_waits = r->cfg.target_wait == TARGET_WAIT_HALT ||
                        (r->cfg.target_wait == TARGET_WAIT_AUTO && r->cpu.hypervisor);
    r->method.target_wait = s->smp.halt_waits ? "hlt" : "spin";
    /* a vCPU can be descheduled past any deadline: answers within a grace count (core/machine/smp.h) */
    s->smp.late_grace_ticks = r->cpu.hypervisor ? SMP_LATE_GRACE * s->smp.timeout_ticks : 0;
    s->smp.run_deadline = tsc_now() + ms_to_ticks((uint64_t)r->cfg.budget_s * 1000 * 16 + 60000);
    ipi_install_handlers();
    shootdown_install_handlers();
    emulate_install(&s->smp, r->cfg.emulate);
    sim_bind(&s->mach, 0, NULL); /* the BSP, in the firmware's state until enter_tool() */
    irq_enable();                /* at TPL_APPLICATION */
    choose_pcids(s);

    r->mp_available = mp_services(r);
    if (r->mp_available) {
        arrived = start_aps(s, window_ms);
        s->aps_running = true;
        printf("CPUs: %u of %u APs checked in (modelled, APIC %s, ICR fence %s)\n", arrived,
               s->takeover.expected_aps, r->method.apic_mode, r->method.icr_fence);
    } else {
        if (r->topo.count > 1)
            printf("WARNING: %s\n", r->mp_note);
        for (i = 1; i < r->topo.count; i++)
            cpu_mark(&r->topo.cpus[i], CPU_ABSENT, "not started: %s", r->mp_note);
    }

    enter_tool(s);
    probe_instructions(s);
    leave_tool(s);
    method_collect_microcode(r, &s->smp);
    method_collect_cpu_settings(r, &s->smp);

    runner_init(&runner, r, &s->smp, &hooks);
    runner.mem = &s->tm;
    runner_run_all(&runner);

    if (s->aps_running) {
        enter_tool(s);
        missing = takeover_release(&s->takeover, tsc_now() + ms_to_ticks(t_to * 2 + 1000));
        leave_tool(s);
        if (missing)
            msg_add(&r->errors, "release", "%u APs did not return to the firmware", missing);
        else
            printf("CPUs: released\n");
    }
    sim_join_all(&s->mach);
    sim_check_handback(&s->mach);
    report_violations(r, &s->mach.model);
    return true;
}

int sim_session_run(const struct sim_options *given)
{
    static struct sim_options opt; /* the options with the profile's TLB geometry filled in */
    const struct sim_options *o = &opt;
    static struct sim_session s;
    static char cpuid_override[160];
    struct run *r;
    struct strbuf json, text;
    char json_path[1100];
    bool saved;
    uint32_t i;

    host_init();
    opt = *given;
    memset(&s, 0, sizeof(s));
    r = mem_zalloc(sizeof(*r));
    if (!r) {
        fprintf(stderr, "tlbscope-sim: out of memory\n");
        return 2;
    }
    s.run = r;
    r->start_tsc = rdtsc_raw();
    config_defaults(&r->cfg);
    str_copy(r->args_text, sizeof(r->args_text), o->args);
    if (o->args[0])
        config_parse(&r->cfg, o->args, strlen(o->args), "command line", &r->warnings);
    config_finalize(&r->cfg);
    config_take_errors(&r->cfg, &r->errors);
    for (i = 0; i < r->warnings.count; i++)
        printf("WARNING: %s: %s\n", r->warnings.items[i].where, r->warnings.items[i].text);

    s.view.profile = o->profile;
    s.view.invlpgb_max_pages = o->invlpgb_max_pages;
    s.view.no_invpcid = o->no_invpcid;
    cpuid_decode(view_cpuid, &s.view, &r->cpu);
    tsc_use_rdtscp(r->cpu.rdtscp); /* the host executes it: every x86-64 host has it */
    if (opt.tlb_given) {
        r->sim.tlb_source = "--tlb";
    } else {
        struct sim_tlb_geometry g;
        sim_profile_tlb(opt.profile, &r->cpu, &g);
        opt.model.sets = g.sets;
        opt.model.ways = g.ways;
        r->sim.tlb_source = g.source;
    }
    choose_microcode(r, o);
    s.errata = o->model.errata |
               sim_profile_errata(o->profile, r->sim.microcode_known, r->sim.microcode);
    describe(r, o, s.errata);
    if (o->la57 && !r->cpu.la57) {
        fprintf(stderr, "tlbscope-sim: --la57: profile %s has no LA57 (CPUID.(07H,0):ECX[16] = "
                        "0, ECX = 0x%08x)\n", o->profile->name, r->cpu.evidence.leaf7_ecx);
        return 2;
    }
    if (o->invlpgb_max_pages) {
        if (!r->cpu.invlpgb) {
            fprintf(stderr, "tlbscope-sim: --invlpgb-max: profile %s has no INVLPGB (CPUID "
                            "8000_0008 EBX[3] = 0)\n", o->profile->name);
            return 2;
        }
        fmt_into(cpuid_override, sizeof(cpuid_override),
                 "80000008.edx[15:0] = %u (--invlpgb-max %u)", o->invlpgb_max_pages - 1,
                 o->invlpgb_max_pages);
        r->sim.cpuid_override = cpuid_override;
    }
    if (o->no_invpcid) {
        size_t used = strlen(cpuid_override);
        fmt_into(cpuid_override + used, sizeof(cpuid_override) - used, "%s07.0.ebx[10] = 0 (--no-invpcid)",
                 used ? "; " : "");
        r->sim.cpuid_override = cpuid_override;
    }
    r->tsc_hz = sim_calibrate_tsc();
    r->tsc_source = TSC_SRC_HOST_CLOCK;
    timing_set_tsc_hz(r->tsc_hz);
    r->method.timer_overhead_ticks = timing_measure_overhead();
    printf("\ntlbscope %s (commit %s) on tlbscope-sim: the %s, SIMULATED\n", TLBSCOPE_VERSION,
           TLBSCOPE_COMMIT, TLBM_MODEL_NAME);
    printf("Model: profile %s (%s), %u CPUs, seed %llu, TLB %u sets x %u ways (%s)%s%s\n",
           o->profile->name, o->profile->what, o->cpus, (unsigned long long)o->seed,
           o->model.sets, o->model.ways, r->sim.tlb_source, s.errata ? ", errata on" : "",
           o->la57 ? ", firmware with CR4.LA57" : "");
    if (r->sim.microcode_known)
        printf("Microcode: 0x%x, from %s%s\n", r->sim.microcode, r->sim.microcode_source,
               (s.errata & ~o->model.errata) ? "; below the fix of the CPU's INVLPG/global "
                                               "erratum, which the model shows" : "");
    printf("CPU: %s \"%s\" pcid=%s invpcid=%s invlpgb=%s", r->cpu.vendor, r->cpu.brand,
           r->cpu.pcid ? "yes" : "no", r->cpu.invpcid ? "yes" : "no", r->cpu.invlpgb ? "yes" : "no");
    if (r->cpu.invlpgb)
        printf(" (max %u pages)", r->cpu.invlpgb_max_pages);
    printf("\n");

    if (!sim_report_make_dirs(o->out_dir)) {
        fprintf(stderr, "tlbscope-sim: cannot create the report directory %s: %s\n", o->out_dir,
                strerror(errno));
        return 2;
    }
    r->run_counter = sim_report_next_counter(o->out_dir);
    run_report_basename(r, r->run_id, sizeof(r->run_id));

    if (!measure(&s, o))
        return 2;

    r->duration_ms = ticks_to_ms(tsc_now() - r->start_tsc);
    run_conclude(r);
    sb_init_dynamic(&json, 64 * 1024);
    sb_init_dynamic(&text, 16 * 1024);
    if (!report_write_json(r, &json)) {
        fprintf(stderr, "tlbscope-sim: the JSON report is incomplete (out of memory)\n");
        return 2;
    }
    report_write_text(r, &text);
    fputs("\n", stdout);
    fwrite(text.data, 1, text.len, stdout);
    saved = sim_report_save(r, o->out_dir, &json, &text, json_path, sizeof(json_path));
    {
        char line[REPORT_VERDICT_LEN];
        struct strbuf verdict;
        sb_init_fixed(&verdict, line, sizeof(line));
        report_write_verdict(r, &verdict);
        printf("RESULT: %s\n", line);
    }
    fflush(stdout);
    sb_release(&json);
    sb_release(&text);
    if (!saved)
        return 2;
    return r->result == RESULT_SUCCESS || r->result == RESULT_SKIP ? 0 : 1;
}
