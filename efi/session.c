#include "efi/session.h"
#include "efi/console.h"
#include "efi/efi_util.h"
#include "efi/memmap.h"
#include "efi/mp.h"
#include "efi/ap_boot.h"

#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/invlpgb.h"
#include "asm/probe.h"
#include "asm/tlb.h"
#include "core/lib/atomic.h"
#include "core/machine/emulate.h"
#include "core/run/hw_policy.h"
#include "core/machine/ipi.h"
#include "core/run/method.h"
#include "core/machine/shootdown.h"
#include "core/lib/strbuf.h"
#include "core/run/runner.h"
#include "asm/trap.h"
#include "core/machine/takeover.h"
#include "core/machine/timing.h"

struct session {
    struct run *run;
    struct tool_tables tables;
    struct takeover takeover;
    struct smp smp;
    EFI_TPL saved_tpl;
};

/*
 * Measurements run at TPL_HIGH_LEVEL (interrupts off, no firmware event can
 * run) in the tool's state; printing needs the firmware back, at its TPL.
 */
static void enter_tool(void *ctx)
{
    struct session *s = ctx;
    s->saved_tpl = uefi_call_wrapper(BS->RaiseTPL, 1, TPL_HIGH_LEVEL);
    takeover_bsp_enter(&s->takeover);
}

static void leave_tool(void *ctx)
{
    struct session *s = ctx;
    takeover_bsp_leave(&s->takeover);
    uefi_call_wrapper(BS->RestoreTPL, 1, s->saved_tpl);
}

static void print_hook(void *ctx, const char *text)
{
    (void)ctx;
    con_write(text);
}

/* apic=: core/run/hw_policy.c decides (Linux's choice by default); the warning names a refused request */
static enum apic_mode choose_apic_mode(struct run *r)
{
    static struct apic_choice c;
    uint32_t i, max_id = 0;
    for (i = 0; i < r->topo.count; i++)
        if (r->topo.cpus[i].apic_id > max_id)
            max_id = r->topo.cpus[i].apic_id;
    hw_choose_apic_mode(r->cfg.apic, r->cpu.x2apic, r->firmware_x2apic, max_id, &c);
    hw_apic_for_emulator(r->cfg.emulator, r->cfg.apic, r->firmware_x2apic, &c);
    if (c.request_refused)
        msg_add(&r->warnings, "apic", "%s", c.why);
    r->method.apic_mode_reason = c.why;
    return c.mode;
}

/*
 * CPUID can be wrong under a hypervisor (or hidden by firmware settings):
 * run each instruction once where a fault is harmless before trusting it.
 */
static void probe_instructions(struct run *r)
{
    struct invpcid_descriptor d = { 0, 0 };
    uint32_t invpcid = PROBE_OK, invlpgb = PROBE_OK, tlbsync = PROBE_OK;
    if (r->cpu.invpcid)
        invpcid = arch_probe_invpcid(INVPCID_ALL_NON_GLOBAL, &d);
    if (r->cpu.invlpgb) {
        struct invlpgb_op op = invlpgb_encode_range(testmem_va(0), 1, false, 0, false);
        invlpgb = arch_probe_invlpgb(op.rax, op.ecx, op.edx);
        if (invlpgb == PROBE_OK)
            tlbsync = arch_probe_tlbsync();
    }
    method_apply_probes(r, invpcid, invlpgb, tlbsync);
}

/* NMIs the tool's handler took: recorded as NMIs, never as a CPU fault (arch/x86/trap.c) */
static void collect_nmis(struct run *r, struct smp *smp)
{
    uint32_t i;
    for (i = 0; i < smp->count; i++) {
        struct percpu *pc = smp->cpu[i];
        if (pc && pc->arch.nmi_count)
            msg_add(&r->warnings, "nmi", "CPU %u took %llu NMI%s during the run (counted by the "
                                         "tool's NMI handler; the CPU carried on)",
                    i, (unsigned long long)pc->arch.nmi_count, pc->arch.nmi_count == 1 ? "" : "s");
    }
}

/*
 * PCID on or off (core/run/method.c) before any AP enters the tool's state. On a
 * model of the INVLPG/global erratum the decision needs the BSP's microcode
 * revision, read through a probe that needs the tool's IDT: the BSP enters
 * once without PCID (takeover_bsp_enter reads it), then the choice is made.
 */
static void choose_pcids(struct session *s)
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

/*
 * mp=auto|own: the tool's own INIT-SIPI for the APs MP services did not
 * deliver (all of them when they are absent or failed, or under mp=own).
 * APs that MP services started but that never checked in are opened for
 * check-in again; an MP services latecomer then leaves (takeover.mp_closed).
 */
static void start_own(struct run *r, struct session *s, bool aps_running, uint32_t arrived,
                      uint64_t window_ms)
{
    uint32_t missing, total;
    if (r->cfg.mp_mode == MP_FIRMWARE || r->topo.count < 2)
        return;
    if (aps_running) {
        if (arrived == s->takeover.expected_aps)
            return;
        store_release(&s->takeover.mp_closed, 1);
        missing = smp_reopen_absent(&s->smp);
        if (!missing)
            return;
        r->init_sipi.used = true;
        fmt_into(r->init_sipi.reason, sizeof(r->init_sipi.reason),
                 "%u APs did not check in through MP services StartupAllAPs%s", missing,
                 s->takeover.mp_partial ? " (injected: inject=mp_partial)" : "");
    } else if (!r->init_sipi.used) {
        /* MP services listed the CPUs, but StartupAllAPs failed: their APIC IDs are known */
        r->init_sipi.used = true;
        str_copy(r->init_sipi.reason, sizeof(r->init_sipi.reason), r->mp_note);
        r->mp_note[0] = 0;
    }
    con_printf("CPUs: starting the APs with the tool's own INIT-SIPI: %s\n", r->init_sipi.reason);
    if (!ap_boot_prepare(r, &s->takeover, (uint64_t)(uintptr_t)s->tables.pt.root)) {
        for (uint32_t i = 1; i < r->topo.count; i++)
            if (s->smp.cpu[i] && load_acquire(&s->smp.cpu[i]->checkin) == CHECKIN_WAITING)
                cpu_mark(&r->topo.cpus[i], CPU_ABSENT, "not started: the tool's own INIT-SIPI "
                         "could not be prepared (run.errors)");
        smp_wait_checkins(&s->smp, 0, 0, 0, BRING_UP_INIT_SIPI); /* closes check-in */
        return;
    }
    enter_tool(s);
    total = ap_boot_start(r, &s->takeover, window_ms);
    leave_tool(s);
    con_printf("CPUs: %u of %u APs answered INIT-SIPI (trampoline at 0x%llx, %u reached 64-bit "
               "code); %u APs checked in in all\n", r->init_sipi.arrived, r->init_sipi.requested,
               (unsigned long long)r->init_sipi.trampoline, r->init_sipi.reached_64bit, total);
}

bool session_run(struct run *r)
{
    static struct session s; /* one per run; the image is reloaded for the next */
    struct tool_env env;
    struct runner_hooks hooks = { enter_tool, leave_tool, print_hook, &s };
    struct runner runner;
    uint64_t window_ms, t_to;
    uint32_t arrived = 0, missing = 0;
    bool aps_running;

    mem_zero(&s, sizeof(s));
    s.run = r;
    mem_zero(&env, sizeof(env));
    env.apic_mode = choose_apic_mode(r);
    env.xapic_base = rdmsr(MSR_IA32_APIC_BASE) & ~0xfffull;
    if (!memmap_build_tables(r, &s.tables, env.xapic_base)) {
        /* measured nothing; the report says why (run->errors) */
        return true;
    }
    env.cr3 = (uint64_t)(uintptr_t)s.tables.pt.root;
    if (r->cfg.global_pages)
        testmem_set_global(&s.tables.mem, true);
    r->method.cr3_root = env.cr3;
    con_printf("Paging: %u-level tables, %u ranges identity-mapped (%llu MiB; %u x 1G, %u x 2M, "
               "%u x 4K pages, %u tables), %u test pages\n",
               s.tables.pt.levels, s.tables.ranges,
               (unsigned long long)(s.tables.mapped_bytes >> 20), s.tables.pt.leaves_1g,
               s.tables.pt.leaves_2m, s.tables.pt.leaves_4k, s.tables.pt.tables, TEST_PAGES);
    r->method.apic_mode = apic_mode_name(env.apic_mode);
    /* MFENCE;LFENCE before x2APIC ICR writes, except on AMD and Hygon (core/run/hw_policy.h) */
    apic_set_icr_fence(hw_icr_fence_needed(r->cpu.vendor_id, env.apic_mode));
    r->method.icr_fence = apic_icr_fence() ? "mfence;lfence" : "none";
    r->method.page_flush = "invlpg";

    t_to = method_answer_timeout_ms(r);
    if (!smp_init(&s.smp, &r->topo, r->cfg.inject, r->cfg.inject_count, ms_to_ticks(t_to)) ||
        !takeover_init(&s.takeover, &s.smp, &env, &r->cpu)) {
        msg_add(&r->errors, "session", "out of memory for the per-CPU blocks");
        return true;
    }
    choose_pcids(&s);
    s.smp.halt_waits = r->cfg.target_wait == TARGET_WAIT_HALT ||
                       (r->cfg.target_wait == TARGET_WAIT_AUTO && r->cpu.hypervisor);
    r->method.target_wait = s.smp.halt_waits ? "hlt" : "spin";
    /* a vCPU can be descheduled past any deadline: answers within a grace count (core/machine/smp.h) */
    s.smp.late_grace_ticks = r->cpu.hypervisor ? SMP_LATE_GRACE * s.smp.timeout_ticks : 0;
    /* an AP gives itself back if it hears nothing for this long */
    s.smp.run_deadline = tsc_now() + ms_to_ticks((uint64_t)r->cfg.budget_s * 1000 * 16 + 60000);
    ipi_install_handlers();
    shootdown_install_handlers();
    emulate_install(&s.smp, r->cfg.emulate);

    window_ms = r->cpu.hypervisor ? 5000 + 50ull * r->topo.count : 2000 + 10ull * r->topo.count;
    s.takeover.mp_partial = config_mp_partial(&r->cfg);
    aps_running = r->mp_available && mp_start_aps(r, &s.takeover);
    if (aps_running) {
        arrived = takeover_wait_checkins(&s.takeover, tsc_now() + ms_to_ticks(window_ms), window_ms);
        con_printf("CPUs: %u of %u APs checked in (APIC %s, ICR fence %s)\n", arrived,
                   s.takeover.expected_aps, r->method.apic_mode, r->method.icr_fence);
        if (s.smp.unknown_checkins)
            msg_add(&r->warnings, "mp", "%u APs checked in with APIC IDs the firmware did not list",
                    s.smp.unknown_checkins);
    }
    start_own(r, &s, aps_running, arrived, window_ms);
    if (!aps_running && !r->init_sipi.used && (r->topo.count > 1 || !r->mp_available)) {
        con_printf("WARNING: %s\n", r->mp_note);
        for (uint32_t i = 1; i < r->topo.count; i++)
            cpu_mark(&r->topo.cpus[i], CPU_ABSENT, "not started: %s", r->mp_note);
    }

    enter_tool(&s);
    probe_instructions(r);
    leave_tool(&s);
    method_collect_microcode(r, &s.smp);
    method_collect_cpu_settings(r, &s.smp);

    runner_init(&runner, r, &s.smp, &hooks);
    runner.mem = &s.tables.mem;
    runner_run_all(&runner);

    if (aps_running || r->init_sipi.requested) {
        enter_tool(&s);
        missing = takeover_release(&s.takeover, tsc_now() + ms_to_ticks(t_to * 2 + 1000));
        /* the tool's own APs acknowledged and halted: INIT leaves them waiting for a SIPI */
        ap_boot_park(r, &s.takeover);
        leave_tool(&s);
        if (aps_running && !mp_wait_aps_returned(t_to * 2 + 2000) && !missing)
            missing = 1;
        if (missing) {
            msg_add(&r->errors, "release", "%u APs did not return to the firmware", missing);
            return false;
        }
        if (aps_running)
            con_printf("CPUs: released, firmware state restored\n");
        if (r->init_sipi.requested)
            con_printf("CPUs: the %u APs sent INIT-SIPI are parked (INIT): they cannot be "
                       "handed back to the firmware; the machine %s after the report\n",
                       r->init_sipi.requested,
                       run_exit_mode(r) == EXIT_SHUTDOWN ? "powers off" : "resets");
    }
    collect_nmis(r, &s.smp);
    smp_release_memory(&s.smp);
    return true;
}
