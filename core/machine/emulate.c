#include "core/machine/emulate.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/insn.h"
#include "asm/invlpgb.h"
#include "asm/paging.h"
#include "asm/tlb.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/machine/ipi.h"
#include "core/mutant.h"
#include "core/machine/timing.h"

#define RING 64u /* outstanding emulated INVLPGBs before one must wait */

struct emu_request {
    uint64_t va;
    uint32_t pages;
    uint16_t pcid;
    uint8_t stride_2m;
    uint8_t whole;          /* no VA: every non-global translation */
    uint8_t pcid_valid;     /* rAX[1]: only `pcid`'s translations; else those of every PCID */
    uint8_t include_global; /* rAX[3] */
};

static struct {
    struct smp *smp;
    uint32_t mask;
    struct emu_request ring[RING];
    volatile uint64_t issued;   /* requests posted; ring[(g - 1) % RING] is number g */
    volatile uint64_t reserved; /* numbers taken: concurrent initiators each take their own */
    struct emulation_counts counts;
} emu;

/*
 * With CR4.PCIDE, INVLPG and a CR3 write act on the current PCID only; a
 * CPU with PCID but no INVPCID (common in VMs) reaches another PCID the
 * way Linux does without INVPCID: by running in it for a moment. The tool
 * maps the same tables under every PCID (the PTI user PCID shares the
 * root), so the code and stack of this handler stay mapped throughout;
 * the switch back sets bit 63 so that it flushes nothing.
 */
static void invlpg_in_pcid(uint64_t pcid, uint64_t va)
{
    uint64_t cr3 = read_cr3();
    if ((cr3 & CR3_PCID_MASK) == pcid) {
        invlpg((const volatile void *)(uintptr_t)va);
        return;
    }
    write_cr3((cr3 & ~CR3_PCID_MASK & ~CR3_NOFLUSH) | pcid | CR3_NOFLUSH);
    invlpg((const volatile void *)(uintptr_t)va);
    write_cr3((cr3 & ~CR3_NOFLUSH) | CR3_NOFLUSH);
}

/* Every non-global translation of one PCID: a CR3 write without bit 63 while in it. */
static void flush_pcid(uint64_t pcid)
{
    uint64_t cr3 = read_cr3();
    write_cr3((cr3 & ~CR3_PCID_MASK & ~CR3_NOFLUSH) | pcid);
    if ((cr3 & CR3_PCID_MASK) != pcid)
        write_cr3((cr3 & ~CR3_NOFLUSH) | CR3_NOFLUSH);
}

/* Every translation of every PCID, global ones too (SDM vol. 3A, 4.10.4.1): a CR4.PGE toggle. */
static void flush_everything(void)
{
    write_cr4(read_cr4() ^ CR4_PGE);
    write_cr4(read_cr4() ^ CR4_PGE);
}

/*
 * One INVLPGB on this CPU. With CR4.PCIDE a plain INVLPG or CR3 write
 * reaches only the current PCID, so the request's PCID is reached by
 * running in it for a moment (under PTI the second INVLPGB of a flush
 * names the user PCID, which no CPU is running in); a request for every
 * PCID, or one that includes globals without a VA, drops everything: more
 * than the instruction promises, which a CPU may always do.
 */
static void apply(const struct emu_request *q)
{
    /* the mutant acts in the current PCID only, as the emulation did before issue 32 */
    bool pcide = (read_cr4() & CR4_PCIDE) != 0 && !MUTANT(emulate_ignores_pcid);
    uint64_t stride = q->stride_2m && !MUTANT(emulate_2m_as_4k) ? PAGE_2M : PAGE_4K;
    bool one_pcid = pcide && q->pcid_valid;
    uint32_t i;
    if (q->whole) {
        if (q->include_global || (pcide && !one_pcid))
            flush_everything();
        else if (one_pcid)
            flush_pcid(q->pcid);
        else
            flush_local_all(); /* no PCIDs: PCID 0 is the only one */
        return;
    }
    if (pcide && !one_pcid) {
        flush_everything();
        return;
    }
    for (i = 0; i < q->pages; i++) {
        uint64_t va = q->va + (uint64_t)i * stride;
        if (one_pcid)
            invlpg_in_pcid(q->pcid, va);
        else
            invlpg((const volatile void *)(uintptr_t)va);
    }
}

/* Apply every request this CPU has not seen yet, in order (interrupts off). */
static void drain(struct percpu *pc)
{
    uint64_t done = pc->flush.emu_ack, upto = load_acquire(&emu.issued);
    for (; done < upto; done++)
        apply(&emu.ring[done % RING]);
    store_release(&pc->flush.emu_ack, upto);
}

/* Target side. */
static void emu_flush_handler(struct trap_frame *f)
{
    (void)f;
    drain(this_percpu());
}

static bool wait_all_processed(uint64_t gen)
{
    struct smp *s = emu.smp;
    uint64_t deadline = tsc_now() + s->timeout_ticks;
    uint32_t i;
    bool ok = true;
    /* this CPU too: it drains itself below, before a ring entry it may still read is reused */
    for (i = 0; i < s->count; i++) {
        if (!smp_usable(s, i))
            continue;
        /*
         * Targets may already be past gen (they drain the whole ring per IPI).
         * Meanwhile this CPU answers the others itself: in the #UD handler its
         * interrupts are off, and two initiators emulating at once
         * (shootdown_contention) would otherwise wait for each other's IPIs.
         */
        while (load_acquire(&s->cpu[i]->flush.emu_ack) < gen) {
            drain(this_percpu());
            if (deadline_passed(deadline)) {
                if (load_acquire(&s->cpu[i]->flush.emu_ack) >= gen)
                    break;
                smp_mark_unanswered(s, i, "emulated INVLPGB", &s->cpu[i]->flush.emu_ack, gen);
                ok = false;
                break;
            }
            cpu_relax();
        }
    }
    return ok;
}

/*
 * VEC_EMU_FLUSH to every usable CPU but this one, as masks of up to 64
 * (one fence each, apic_send_ipi_mask): the list lives on this CPU's stack,
 * since several CPUs may emulate at once.
 */
static void send_to_usable(struct smp *s, uint32_t self)
{
    uint32_t chunk[64], n = 0, i;
    for (i = 0; i < s->count; i++) {
        if (i == self || !smp_usable(s, i))
            continue;
        chunk[n++] = i;
        if (n == ARRAY_SIZE(chunk)) {
            apic_send_ipi_mask(chunk, n, s->apic_id, UINT32_MAX, VEC_EMU_FLUSH);
            n = 0;
        }
    }
    if (n)
        apic_send_ipi_mask(chunk, n, s->apic_id, UINT32_MAX, VEC_EMU_FLUSH);
}

static bool emulate_invlpgb(struct trap_frame *f)
{
    struct invlpgb_op op = { f->rax, (uint32_t)f->rcx, (uint32_t)f->rdx };
    struct invlpgb_decoded d;
    struct emu_request q;
    struct smp *s = emu.smp;
    uint64_t gen;
    uint32_t self = this_percpu()->index;
    invlpgb_decode(&op, &d);
    /* the real instruction faults on a count above its maximum: do not paper over it */
    if ((d.flags & INVLPGB_FLAG_VA) && d.pages > EMULATED_INVLPGB_MAX_PAGES)
        return false;
    q.whole = !(d.flags & INVLPGB_FLAG_VA);
    q.va = d.va;
    q.pages = d.pages;
    q.stride_2m = d.stride_2m;
    q.pcid = d.pcid;
    q.pcid_valid = (d.flags & INVLPGB_FLAG_PCID) != 0;
    q.include_global = (d.flags & INVLPGB_FLAG_INCLUDE_GLOBAL) != 0;
    /*
     * Several CPUs may emulate at once: each takes its own number, fills its
     * ring entry once every CPU is past the entry's previous use, and
     * publishes in number order (`issued` only ever covers filled entries).
     */
    gen = add_fetch(&emu.reserved, 1);
    if (gen > RING)
        wait_all_processed(gen - RING);
    emu.ring[(gen - 1) % RING] = q;
    {
        uint64_t deadline = tsc_now() + s->timeout_ticks;
        while (load_acquire(&emu.issued) != gen - 1 && !deadline_passed(deadline)) {
            drain(this_percpu());
            cpu_relax();
        }
        if (load_acquire(&emu.issued) != gen - 1)
            return false; /* an earlier number was never published: report the #UD */
    }
    store_release(&emu.issued, gen);
    apply(&q);
    send_to_usable(s, self);
    add_fetch(&emu.counts.invlpgb, 1);
    return true;
}

static bool emulate_invpcid(struct trap_frame *f, const struct insn_decoded *d)
{
    uint64_t regs[16] = { f->rax, f->rcx, f->rdx, f->rbx, f->rsp, f->rbp, f->rsi, f->rdi,
                          f->r8,  f->r9,  f->r10, f->r11, f->r12, f->r13, f->r14, f->r15 };
    uint64_t type = regs[d->reg];
    const struct invpcid_descriptor *desc =
        (const struct invpcid_descriptor *)(uintptr_t)insn_effective_address(d, regs, f->rip);
    bool pcide = (read_cr4() & CR4_PCIDE) != 0;
    if (type > 3 || (desc->pcid >> 12) != 0)
        return false; /* #GP on the real CPU */
    if (type <= 1 && desc->pcid != 0 && !pcide)
        return false; /* #GP: only PCID 0 exists without CR4.PCIDE */
    switch (type) {
    case INVPCID_ADDRESS:
        if (pcide)
            invlpg_in_pcid(desc->pcid, desc->address);
        else
            invlpg((const volatile void *)(uintptr_t)desc->address);
        break;
    case INVPCID_SINGLE_CONTEXT:
        if (pcide)
            flush_pcid(desc->pcid);
        else
            flush_local_all(); /* PCID 0 is the only context */
        break;
    default:
        /*
         * Type 2, and type 3 (all non-global, every PCID): toggling CR4.PGE
         * drops every translation of every PCID (SDM vol. 3A, 4.10.4.1;
         * Linux __native_tlb_flush_global). For type 3 that also drops
         * global ones, which a CPU may always do: more, never less.
         */
        write_cr4(read_cr4() ^ CR4_PGE);
        write_cr4(read_cr4() ^ CR4_PGE);
        break;
    }
    emu.counts.invpcid++;
    return true;
}

static bool ud_hook(struct trap_frame *f)
{
    struct insn_decoded d;
    bool handled = false;
    if (!insn_decode((const uint8_t *)(uintptr_t)f->rip, 15, &d))
        return false;
    if (d.kind == INSN_INVLPGB && (emu.mask & EMULATE_INVLPGB)) {
        handled = emulate_invlpgb(f);
    } else if (d.kind == INSN_TLBSYNC && (emu.mask & EMULATE_INVLPGB)) {
        wait_all_processed(load_acquire(&emu.issued));
        add_fetch(&emu.counts.tlbsync, 1);
        handled = true;
    } else if (d.kind == INSN_INVPCID && (emu.mask & EMULATE_INVPCID)) {
        handled = emulate_invpcid(f, &d);
    }
    if (!handled) {
        emu.counts.rejected++;
        return false;
    }
    f->rip += d.length;
    return true;
}

void emulate_install(struct smp *s, uint32_t mask)
{
    mem_zero(&emu, sizeof(emu));
    emu.smp = s;
    emu.mask = mask;
    if (!mask)
        return;
    trap_set_irq_handler(VEC_EMU_FLUSH, emu_flush_handler);
    trap_set_ud_hook(ud_hook);
}

const struct emulation_counts *emulate_counts(void) { return &emu.counts; }
