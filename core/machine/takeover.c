#include "core/machine/takeover.h"
#include "core/machine/amd_boot.h"
#include "asm/cpu.h"
#include "asm/cpuid.h"
#include "asm/microcode.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

#define PIC_MASTER_DATA 0x21
#define PIC_SLAVE_DATA 0xa1
#define RFLAGS_IF (1ull << 9)

bool takeover_init(struct takeover *t, struct smp *s, const struct tool_env *env,
                   const struct cpu_features *features)
{
    uint32_t i;
    mem_zero(t, sizeof(*t));
    t->smp = s;
    t->features = features;
    t->env = *env;
    t->fw = mem_zalloc((size_t)s->count * sizeof(*t->fw));
    if (!t->fw)
        return false;
    for (i = 1; i < s->count; i++)
        if (s->cpu[i])
            t->expected_aps++;
    desc_init();
    apic_use_mode(env->apic_mode, env->xapic_base);
    trap_set_exception_hook(smp_record_fault);
    return true;
}

void takeover_set_pcid(struct takeover *t, bool pcide, uint32_t kernel_pcid)
{
    t->env.pcide = pcide;
    t->env.kernel_pcid = kernel_pcid;
}

static void enter_cpu(struct takeover *t, struct percpu *pc, struct cpu_fw_env *fw, bool bsp)
{
    fw->rflags = read_rflags();
    irq_disable();
    fw->gs_base = rdmsr(MSR_GS_BASE);
    fw->cr3 = read_cr3();
    fw->cr4 = read_cr4();
    desc_save(&fw->seg);
    /* GS first: from the moment the tool's IDT is loaded, handlers need it */
    wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)pc);
    desc_load_tool();
    /* EFER.TCE and DE_CFG[1] as Linux sets them; the DE_CFG probe needs the tool's IDT and GS */
    amd_boot_enter(t->features, pc, &fw->amd, bsp);
    write_cr3(t->env.cr3);
    if (t->env.pcide) {
        /* PCIDE may only be set while CR3[11:0] == 0 (SDM vol. 3A, 4.10.1) */
        write_cr4(fw->cr4 | CR4_PCIDE);
        write_cr3(t->env.cr3 | t->env.kernel_pcid);
    }
    if (bsp) {
        /* the 8259 delivers through LINT0 as ExtINT, which TPR does not block */
        fw->pic_mask_master = inb(PIC_MASTER_DATA);
        fw->pic_mask_slave = inb(PIC_SLAVE_DATA);
        outb(PIC_MASTER_DATA, 0xff);
        outb(PIC_SLAVE_DATA, 0xff);
    }
    apic_takeover(&fw->apic, t->env.apic_mode, TOOL_TPR, !bsp);
    /* a vector left in service (a stray interrupt the firmware never EOId)
     * would block the tool's whole priority class */
    apic_clear_in_service();
    fw->entered = true;
}

/*
 * Lets interrupts already sent to this CPU at the tool's vectors run through
 * the tool's handlers (which EOI them) before the firmware's IDT is back.
 * Bounded: a few thousand short interrupt windows at most.
 */
static void drain_tool_vectors(void)
{
    uint32_t tries;
    for (tries = 0; tries < 4096 && apic_vectors_pending(VEC_WAKE); tries++) {
        irq_enable();
        __asm__ volatile("nop; nop" ::: "memory");
        irq_disable();
    }
    apic_clear_in_service();
}

static void leave_cpu(struct takeover *t, struct cpu_fw_env *fw, bool bsp)
{
    if (!fw->entered)
        return;
    irq_disable();
    apic_disarm_heartbeat();
    drain_tool_vectors();
    apic_release(&fw->apic);
    if (bsp) {
        outb(PIC_SLAVE_DATA, fw->pic_mask_slave);
        outb(PIC_MASTER_DATA, fw->pic_mask_master);
    }
    if (t->env.pcide) {
        write_cr3(t->env.cr3); /* PCID 0 before PCIDE goes away */
        write_cr4(fw->cr4);
    }
    write_cr3(fw->cr3);
    /*
     * A CR3 write keeps global translations, and the tool's identity map
     * (and global_pages=on test pages) has them: toggling CR4.PGE drops
     * every one, in every PCID (SDM vol. 3A, 4.10.4.1), so none survives
     * into the firmware (Linux __native_tlb_flush_global does the same).
     */
    {
        uint64_t cr4 = read_cr4();
        if (cr4 & CR4_PGE) {
            write_cr4(cr4 & ~CR4_PGE);
            write_cr4(cr4);
        }
    }
    amd_boot_leave(&fw->amd);
    if (!MUTANT(leave_keeps_tool_idt))
        desc_restore(&fw->seg);
    wrmsr(MSR_GS_BASE, fw->gs_base);
    fw->entered = false;
    if (fw->rflags & RFLAGS_IF)
        irq_enable();
}

void takeover_bsp_enter(struct takeover *t)
{
    struct percpu *bsp = t->smp->cpu[0];
    enter_cpu(t, bsp, &t->fw[0], true);
    if (!bsp->microcode_valid)
        bsp->microcode_valid = arch_read_microcode(t->features, &bsp->microcode);
}

void takeover_bsp_leave(struct takeover *t)
{
    leave_cpu(t, &t->fw[0], true);
}

static uint32_t my_apic_id(void)
{
    uint32_t r[4];
    /* before the tool's APIC mode is set up, CPUID is the safe way to ask */
    cpuid_raw(0, 0, r);
    if (r[0] >= 0xb) {
        cpuid_raw(0xb, 0, r);
        if (r[1] != 0)
            return r[3];
    }
    cpuid_raw(1, 0, r);
    return r[1] >> 24;
}

/*
 * The AP's part once it runs the tool's code: its state in, check-in, the
 * command loop. Returns the sequence number of CMD_RELEASE to acknowledge
 * (0: none), with the CPU still in the tool's state; *checked_in false when
 * the BSP had already counted it absent.
 */
static uint64_t ap_session(struct takeover *t, struct percpu *pc, bool *checked_in)
{
    struct cpu_fw_env *fw = &t->fw[pc->index];
    uint64_t release_seq;
    enter_cpu(t, pc, fw, false);
    pc->microcode_valid = arch_read_microcode(t->features, &pc->microcode);
    *checked_in = smp_checkin(pc);
    if (!*checked_in)
        return 0; /* too late: the BSP already counted this CPU absent */
    /*
     * Recovery point: an unexpected exception (recorded by smp_record_fault)
     * lands here with a non-zero return; the CPU stays out of the run and
     * only waits to be released.
     */
    if (arch_setjmp(&pc->arch.recover) != 0)
        apic_clear_in_service(); /* it may have faulted inside a handler */
    store_relaxed(&pc->arch.recover_armed, 1);
    release_seq = smp_ap_loop(pc);
    if (release_seq)
        smp_ap_await_release_kick(pc);
    store_relaxed(&pc->arch.recover_armed, 0);
    return release_seq;
}

void takeover_ap_main(struct takeover *t)
{
    struct smp *s = t->smp;
    struct percpu *pc = smp_find_by_apic_id(s, my_apic_id());
    uint64_t release_seq;
    bool checked_in;
    if (!pc || pc->inject_kind == INJECT_ABSENT) /* inject=absent: never check in */
        return;
    /* inject=mp_partial:N: the last N APs return at once, as if never started */
    if (t->mp_partial && pc->index + t->mp_partial >= s->count)
        return;
    /* the BSP moved on to its own INIT-SIPI for the latecomers: this one is one of them */
    if (load_acquire(&t->mp_closed))
        return;
    release_seq = ap_session(t, pc, &checked_in);
    leave_cpu(t, &t->fw[pc->index], false);
    if (release_seq)
        store_release(&pc->ack.ack_seq, release_seq);
}

/*
 * An AP the tool started itself has no firmware to return to: after its
 * release it acknowledges and stays parked, interrupts off, until the BSP
 * sends it INIT (takeover_park_own()) or the machine resets. It keeps the
 * tool's state: nothing of the firmware's was ever loaded on it.
 */
void takeover_ap_main_own(struct takeover *t)
{
    struct smp *s = t->smp;
    struct percpu *pc = smp_find_by_apic_id(s, my_apic_id());
    uint64_t release_seq;
    bool checked_in;
    if (!pc)
        cpu_stop(); /* counted in s->unknown_checkins by the search */
    release_seq = ap_session(t, pc, &checked_in);
    irq_disable();
    apic_disarm_heartbeat();
    if (release_seq)
        store_release(&pc->ack.ack_seq, release_seq);
    cpu_stop();
}

uint32_t takeover_wait_checkins(struct takeover *t, uint64_t deadline, uint64_t window_ms)
{
    return smp_wait_checkins(t->smp, t->expected_aps, deadline, window_ms, BRING_UP_MP_SERVICES);
}

uint32_t takeover_release(struct takeover *t, uint64_t deadline)
{
    return smp_release_aps(t->smp, deadline);
}
