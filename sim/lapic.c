#include "sim/lapic.h"

#include <string.h>

#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/mutant.h"
#include "sim/lapic_timer.h"
#include "sim/machine.h"
#include "sim/storebuf.h"

/* core/lib/atomic.h's view of this thread's store buffer (its CPU's) */
_Thread_local unsigned char sim_stores_pending;

#define BASE_ADDR 0x000ffffffffff000ull /* bits 51:12 (MAXPHYADDR 52) */
#define BASE_RESERVED (~(BASE_ADDR | APIC_BASE_BSP | APIC_BASE_EXTD | APIC_BASE_ENABLE))
#define XAPIC_DEFAULT_BASE 0xfee00000ull
#define X2APIC_FIRST_MSR 0x800u
#define X2APIC_LAST_MSR 0x8ffu
#define LAPIC_VERSION 0x00060014u /* integrated APIC, 7 LVT entries (max LVT 6) */
#define LVT_MASKED (1u << 16)
#define ICR_LOGICAL (1u << 11)
#define ICR_BUSY APIC_ICR_BUSY
#define ESR_SEND_ILLEGAL_VECTOR (1u << 5)

enum lapic_mode { MODE_OFF, MODE_XAPIC, MODE_X2APIC, MODE_INVALID };

static const char *const mode_names[] = { "disabled", "xAPIC", "x2APIC", "invalid" };

static enum lapic_mode mode_of(uint64_t base)
{
    bool en = (base & APIC_BASE_ENABLE) != 0, extd = (base & APIC_BASE_EXTD) != 0;
    return en ? (extd ? MODE_X2APIC : MODE_XAPIC) : (extd ? MODE_INVALID : MODE_OFF);
}

static uint64_t base_of(const struct sim_lapic *l)
{
    return __atomic_load_n(&l->base, __ATOMIC_ACQUIRE);
}

/* LVT index of a register offset, or -1 */
static int lvt_index(uint32_t off)
{
    if (off == 0x2f0)
        return 0;
    if (off >= 0x320 && off <= 0x370)
        return (int)((off - 0x320) >> 4) + 1;
    return -1;
}

/* The bits software may set in each LVT (SDM vol. 3A, figure 11-8); bit 12,
 * the delivery status, and bit 14, the remote IRR, are read-only. */
static const uint32_t lvt_writable[LAPIC_LVTS] = {
    0x107ff, /* CMCI: vector, delivery mode, mask */
    0x700ff, /* timer: vector, mask, mode (one-shot, periodic, TSC-deadline) */
    0x107ff, /* thermal */
    0x107ff, /* performance counters */
    0x1a7ff, /* LINT0: vector, delivery mode, polarity, trigger, mask */
    0x1a7ff, /* LINT1 */
    0x100ff, /* error: vector, mask */
};

/* ---- power-up and the firmware's hand-over ---- */

static void power_up(struct sim_lapic *l)
{
    unsigned i;
    for (i = 0; i < 8; i++) {
        __atomic_store_n(&l->irr[i], 0, __ATOMIC_RELAXED);
        l->isr[i] = 0;
    }
    l->tpr = 0;
    l->ldr = 0;
    l->dfr = 0xffffffffu;
    l->svr = 0xff; /* software-disabled */
    l->esr = 0;
    l->icr_lo = l->icr_hi = 0;
    l->timer_init = l->timer_div = 0;
    for (i = 0; i < LAPIC_LVTS; i++)
        l->lvt[i] = LVT_MASKED;
    l->busy_reads = 0;
    l->timer_due_ns = l->timer_period_ns = 0;
}

void lapic_reset_all(struct sim_machine *m, const struct sim_lapic_config *cfg, uint64_t seed)
{
    uint32_t i;
    m->apic_cfg = *cfg;
    for (i = 0; i < m->ncpus; i++) {
        struct sim_lapic *l = &m->lapic[i];
        memset(l, 0, sizeof(*l));
        power_up(l);
        l->id = i;
        l->rng = seed ^ ((uint64_t)(i + 1) * 0x9e3779b97f4a7c15ull);
        /* as OVMF leaves them: enabled, LINT0 ExtINT and LINT1 NMI on the BSP only */
        l->base = XAPIC_DEFAULT_BASE | APIC_BASE_ENABLE | (i == 0 ? APIC_BASE_BSP : 0) |
                  (cfg->firmware_x2apic ? APIC_BASE_EXTD : 0);
        l->svr = APIC_SVR_ENABLE | 0x0f;
        l->lvt[4] = 0x700 | (i == 0 ? 0 : LVT_MASKED);
        l->lvt[5] = 0x400 | (i == 0 ? 0 : LVT_MASKED);
        l->fw_base = l->base;
        l->fw_tpr = l->tpr;
        l->fw_svr = l->svr;
        memcpy(l->fw_lvt, l->lvt, sizeof(l->lvt));
    }
}

/* ---- priorities ---- */

static int highest_bit(const uint32_t *words, bool atomic)
{
    int w;
    for (w = 7; w >= 0; w--) {
        uint32_t v = atomic ? __atomic_load_n(&words[w], __ATOMIC_ACQUIRE) : words[w];
        if (v)
            return w * 32 + 31 - __builtin_clz(v);
    }
    return -1;
}

/* the lowest pending vector: what the simulator delivered before the APIC was modelled */
static int lowest_bit(const uint32_t *words)
{
    int w;
    for (w = 0; w < 8; w++) {
        uint32_t v = __atomic_load_n(&words[w], __ATOMIC_ACQUIRE);
        if (v)
            return w * 32 + __builtin_ctz(v);
    }
    return -1;
}

/* PPR (SDM vol. 3A, 11.8.3.1): the TPR, or the class of the highest in-service vector */
static uint32_t ppr_of(const struct sim_lapic *l)
{
    int isrv = highest_bit(l->isr, false);
    uint32_t isr_class = isrv < 0 ? 0 : (uint32_t)isrv & 0xf0;
    return (l->tpr & 0xf0) >= isr_class ? l->tpr & 0xff : isr_class;
}

static void eoi(struct sim_lapic *l)
{
    int v = highest_bit(l->isr, false);
    if (v >= 0)
        l->isr[v / 32] &= ~(1u << (v % 32));
    l->eois++;
}

/* ---- IPIs ---- */

static uint64_t next_random(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void put_in_irr(struct sim_machine *m, uint32_t sender, uint32_t target, uint8_t vector)
{
    struct sim_lapic *t = &m->lapic[target];
    if (mode_of(base_of(t)) == MODE_OFF || mode_of(base_of(t)) == MODE_INVALID) {
        m->lapic[sender].lost++;
        tlbm_violation(&m->model, sender, "IPI 0x%02x to CPU %u, whose APIC is disabled: lost",
                       vector, target);
        return;
    }
    __atomic_fetch_or(&t->irr[vector / 32], 1u << (vector % 32), __ATOMIC_RELEASE);
}

/*
 * Whether CPU i's APIC accepts a logical x2APIC destination: cluster
 * dest[31:16] equal to its own (ID >> 4) and its bit 1 << (ID & 15) set in
 * dest[15:0] (Intel SDM vol. 3A, 11.12.10.2; the x2APIC LDR is the ID's).
 */
static bool logical_hit(const struct sim_lapic *t, uint32_t dest)
{
    uint32_t ldr = ((t->id >> 4) << 16) | (1u << (t->id & 0xf));
    return (ldr >> 16) == (dest >> 16) && (ldr & dest & 0xffff) != 0;
}

/*
 * An ICR write that sends: fixed delivery, physical destination, a logical
 * x2APIC (cluster) destination, or a shorthand.
 */
static void send(struct sim_machine *m, uint32_t c, uint32_t low, uint32_t dest, bool x2)
{
    struct sim_lapic *l = &m->lapic[c];
    uint32_t vector = low & 0xff, shorthand = (low >> 18) & 3, i, hits = 0;
    bool logical = (low & ICR_LOGICAL) && shorthand == 0;
    bool broadcast = shorthand == 0 && dest == (x2 ? 0xffffffffu : 0xffu);
    l->icr_writes++;
    if ((low >> 8) & 7) {
        tlbm_violation(&m->model, c, "IPI delivery mode %u: not modelled (fixed only)",
                       (low >> 8) & 7);
        return;
    }
    if (logical && !x2) {
        tlbm_violation(&m->model, c, "xAPIC IPI with a logical destination: not modelled");
        return;
    }
    if (vector < 16) {
        /* the APIC sets ESR "send illegal vector" and sends nothing (SDM vol. 3A, 11.5.3) */
        l->esr |= ESR_SEND_ILLEGAL_VECTOR;
        tlbm_violation(&m->model, c, "IPI with the illegal vector 0x%02x: nothing is sent", vector);
        return;
    }
    tlbm_note_ipi(&m->model, c, shorthand == 3 || shorthand == 2 || broadcast ? UINT32_MAX
                                : shorthand == 1                              ? l->id
                                                                              : dest,
                  (uint8_t)vector);
    for (i = 0; i < m->ncpus; i++) {
        bool hit;
        switch (shorthand) {
        case 1: hit = i == c; break;
        case 2: hit = true; break;
        case 3: hit = i != c; break;
        default:
            hit = broadcast || (logical ? logical_hit(&m->lapic[i], dest)
                                : x2    ? m->lapic[i].id == dest
                                        : (m->lapic[i].id & 0xff) == dest);
        }
        if (hit) {
            put_in_irr(m, c, i, (uint8_t)vector);
            hits++;
        }
    }
    if (shorthand == 0 && !broadcast && hits == 0)
        tlbm_violation(&m->model, c, "IPI 0x%02x to %s 0x%x: no CPU has it", vector,
                       logical ? "logical destination" : "APIC ID", dest);
}

/* ---- register access (offsets as in the xAPIC page) ---- */

static void gp(struct sim_machine *m, uint32_t c, bool x2, const char *what, uint32_t off,
               const char *why)
{
    if (x2)
        tlbm_violation(&m->model, c, "#GP: %s x2APIC MSR 0x%x: %s", what,
                       X2APIC_FIRST_MSR + (off >> 4), why);
    else
        tlbm_violation(&m->model, c, "xAPIC %s of offset 0x%03x: %s", what, off, why);
}

static uint64_t reg_read(struct sim_machine *m, uint32_t c, uint32_t off, bool x2)
{
    struct sim_lapic *l = &m->lapic[c];
    int lvt = lvt_index(off);
    if (lvt >= 0)
        return l->lvt[lvt];
    if (off >= 0x100 && off <= 0x170)
        return l->isr[(off - 0x100) >> 4];
    if (off >= 0x180 && off <= 0x1f0)
        return 0; /* TMR: every modelled IPI is edge-triggered */
    if (off >= 0x200 && off <= 0x270)
        return __atomic_load_n(&l->irr[(off - 0x200) >> 4], __ATOMIC_ACQUIRE);
    switch (off) {
    case APIC_REG_ID: return x2 ? l->id : l->id << 24;
    case APIC_REG_VERSION: return LAPIC_VERSION;
    case APIC_REG_TPR: return l->tpr;
    case 0xa0: return ppr_of(l);
    case 0xd0: return x2 ? ((l->id >> 4) << 16) | (1u << (l->id & 0xf)) : l->ldr;
    case APIC_REG_SVR: return l->svr;
    case APIC_REG_ESR: return l->esr;
    case APIC_REG_TIMER_INIT: return l->timer_init;
    case 0x390: return lapic_timer_current(l);
    case APIC_REG_TIMER_DIV: return l->timer_div;
    case APIC_REG_ICR_LO:
        if (x2)
            return ((uint64_t)l->icr_hi << 32) | l->icr_lo;
        if (l->busy_reads) {
            l->busy_reads--;
            return l->icr_lo | ICR_BUSY;
        }
        return l->icr_lo;
    }
    if (!x2) {
        switch (off) {
        case APIC_REG_ICR_HI: return l->icr_hi;
        case 0x90: case 0xb0: case 0xc0: return 0; /* APR, EOI, RRD */
        case 0xe0: return l->dfr;
        }
    }
    gp(m, c, x2, "read of", off, x2 && (off == APIC_REG_EOI || off == 0x3f0)
                                     ? "a write-only register"
                                     : "no such register in this mode");
    return 0;
}

/* x2APIC: a WRMSR that sets a bit outside `writable` faults; xAPIC ignores such bits. */
static bool bits_ok(struct sim_machine *m, uint32_t c, bool x2, uint32_t off, uint64_t value,
                    uint64_t writable)
{
    if (!x2 || !(value & ~writable))
        return true;
    tlbm_violation(&m->model, c,
                   "#GP: WRMSR 0x%x = 0x%llx sets reserved or read-only bits 0x%llx (SDM vol. "
                   "3A, 11.12.1.2)",
                   X2APIC_FIRST_MSR + (off >> 4), (unsigned long long)value,
                   (unsigned long long)(value & ~writable));
    return false;
}

static void reg_write(struct sim_machine *m, uint32_t c, uint32_t off, uint64_t value, bool x2)
{
    struct sim_lapic *l = &m->lapic[c];
    int lvt = lvt_index(off);
    uint32_t v = (uint32_t)value;
    if ((value >> 32) && off != APIC_REG_ICR_LO) {
        /* only the x2APIC ICR is wider than 32 bits; an MMIO store never is */
        bits_ok(m, c, x2, off, value, 0xffffffffu);
        return;
    }
    if (lvt >= 0) {
        if (bits_ok(m, c, x2, off, value, lvt_writable[lvt]))
            l->lvt[lvt] = v & lvt_writable[lvt];
        return;
    }
    switch (off) {
    case APIC_REG_TPR:
        if (bits_ok(m, c, x2, off, value, 0xff))
            l->tpr = v & 0xff;
        return;
    case APIC_REG_EOI:
        if (bits_ok(m, c, x2, off, value, 0))
            eoi(l);
        return;
    case APIC_REG_SVR:
        if (bits_ok(m, c, x2, off, value, 0x11ff))
            l->svr = v & (x2 ? 0x11ff : 0x13ff);
        return;
    case APIC_REG_ESR:
        if (bits_ok(m, c, x2, off, value, 0))
            l->esr = 0; /* a write re-arms it; the next read shows the errors since */
        return;
    case APIC_REG_TIMER_INIT:
        lapic_timer_start(l, v);
        return;
    case APIC_REG_TIMER_DIV:
        if (bits_ok(m, c, x2, off, value, 0xb))
            l->timer_div = v & 0xb;
        return;
    case APIC_REG_ICR_LO:
        if (x2) {
            /* delivery status and the reserved bits of the low half fault (SDM 11.12.9) */
            if (!bits_ok(m, c, x2, off, value, 0xffffffff000ccfffull))
                return;
            l->icr_lo = v;
            l->icr_hi = (uint32_t)(value >> 32);
            send(m, c, v, l->icr_hi, true);
            return;
        }
        if (l->busy_reads) {
            /* Linux __xapic_wait_icr_idle() exists for this: the send is lost */
            l->lost++;
            tlbm_violation(&m->model, c,
                           "xAPIC ICR written while the previous IPI was still being sent "
                           "(delivery status 1): IPI 0x%02x lost", v & 0xff);
            return;
        }
        l->icr_lo = v & ~ICR_BUSY;
        send(m, c, v, l->icr_hi >> 24, false);
        l->busy_reads = (uint32_t)(next_random(&l->rng) % 3);
        return;
    case 0x3f0: /* SELF IPI */
        if (x2 && bits_ok(m, c, x2, off, value, 0xff)) {
            send(m, c, APIC_ICR_LEVEL_ASSERT | (v & 0xff) | (1u << 18), 0, true);
            return;
        }
        break;
    }
    if (!x2) {
        switch (off) {
        case APIC_REG_ICR_HI: l->icr_hi = v & 0xff000000u; return;
        case 0xd0: l->ldr = v & 0xff000000u; return;
        case 0xe0: l->dfr = v | 0x0fffffffu; return;
        }
    }
    gp(m, c, x2, "write of", off,
       off == APIC_REG_ID || off == APIC_REG_VERSION || off == 0xa0 || off == 0xd0 ||
               off == 0x390 || (off >= 0x100 && off <= 0x270)
           ? "a read-only register"
           : "no such register in this mode");
}

/* ---- the instructions ---- */

bool lapic_owns_msr(uint32_t msr)
{
    return msr == MSR_IA32_APIC_BASE || (msr >= X2APIC_FIRST_MSR && msr <= X2APIC_LAST_MSR);
}

void lapic_drain_stores(void)
{
    sim_stores_pending = 0;
    sim_sb_drain(); /* the CPU's store buffer (sim/storebuf.h) */
}

void lapic_fence(struct sim_machine *m, uint32_t c)
{
    m->lapic[c].fences++;
    lapic_drain_stores();
}

static void write_base(struct sim_machine *m, uint32_t c, uint64_t value)
{
    struct sim_lapic *l = &m->lapic[c];
    enum lapic_mode cur = mode_of(l->base), want = mode_of(value);
    const char *why = NULL;
    if (value & BASE_RESERVED)
        why = "reserved bits set";
    else if (want == MODE_INVALID)
        why = "EXTD without EN is an invalid state";
    else if ((value & APIC_BASE_EXTD) && !m->apic_cfg.x2apic)
        why = "EXTD on a CPU without x2APIC (CPUID.01H:ECX[21] = 0)";
    else if (cur == MODE_X2APIC && want == MODE_XAPIC)
        why = "x2APIC -> xAPIC must pass through disabled (SDM vol. 3A, figure 11-27)";
    else if (cur == MODE_OFF && want == MODE_X2APIC)
        why = "disabled -> x2APIC must pass through xAPIC (SDM vol. 3A, figure 11-27)";
    if (why) {
        tlbm_violation(&m->model, c, "#GP: WRMSR IA32_APIC_BASE = 0x%llx from %s mode: %s",
                       (unsigned long long)value, mode_names[cur], why);
        return;
    }
    if (want == MODE_OFF && cur != MODE_OFF)
        power_up(l); /* disabling resets the APIC: its registers come back at power-up values */
    __atomic_store_n(&l->base, value, __ATOMIC_RELEASE);
}

uint64_t lapic_rdmsr(struct sim_machine *m, uint32_t c, uint32_t msr)
{
    struct sim_lapic *l = &m->lapic[c];
    enum lapic_mode mode = mode_of(l->base);
    if (msr == MSR_IA32_APIC_BASE)
        return l->base;
    if (mode != MODE_X2APIC) {
        tlbm_violation(&m->model, c, "#GP: RDMSR 0x%x (an x2APIC register) in %s mode", msr,
                       mode_names[mode]);
        return 0;
    }
    return reg_read(m, c, (msr - X2APIC_FIRST_MSR) << 4, true);
}

void lapic_wrmsr(struct sim_machine *m, uint32_t c, uint32_t msr, uint64_t value)
{
    struct sim_lapic *l = &m->lapic[c];
    enum lapic_mode mode = mode_of(l->base);
    uint32_t off = (msr - X2APIC_FIRST_MSR) << 4;
    if (msr == MSR_IA32_APIC_BASE) {
        lapic_drain_stores(); /* not an x2APIC register: WRMSR serialises */
        write_base(m, c, value);
        return;
    }
    if (mode != MODE_X2APIC) {
        tlbm_violation(&m->model, c, "#GP: WRMSR 0x%x (an x2APIC register) in %s mode", msr,
                       mode_names[mode]);
        return;
    }
    if (off == APIC_REG_ICR_LO || off == 0x3f0) {
        if (m->apic_cfg.x2apic_serialising)
            lapic_drain_stores();
        else if (sim_stores_pending)
            tlbm_violation(&m->model, c,
                           "x2APIC ICR write (WRMSR 0x%x = 0x%llx) not ordered after earlier "
                           "stores: such WRMSRs do not serialise (SDM vol. 3A 11.12.3); no "
                           "MFENCE;LFENCE before it", msr, (unsigned long long)value);
    }
    reg_write(m, c, off, value, true);
}

/* An uncached access: issued only after the stores before it (SDM vol. 3A, 11.3 and 8.2.5). */
static bool mmio_decoded(struct sim_machine *m, uint32_t c, uint64_t addr, const char *what,
                         uint32_t *off)
{
    const struct sim_lapic *l = &m->lapic[c];
    uint64_t base = l->base & BASE_ADDR;
    lapic_drain_stores();
    if (mode_of(l->base) != MODE_XAPIC) {
        tlbm_violation(&m->model, c, "xAPIC MMIO %s of 0x%llx in %s mode: the page is not decoded",
                       what, (unsigned long long)addr, mode_names[mode_of(l->base)]);
        return false;
    }
    if (addr < base || addr >= base + 0x1000 || (addr & 0xf)) {
        tlbm_violation(&m->model, c,
                       "MMIO %s of 0x%llx: not a register of the xAPIC page at 0x%llx", what,
                       (unsigned long long)addr, (unsigned long long)base);
        return false;
    }
    *off = (uint32_t)(addr - base);
    return true;
}

uint32_t lapic_mmio_read(struct sim_machine *m, uint32_t c, uint64_t addr)
{
    uint32_t off;
    return mmio_decoded(m, c, addr, "read", &off) ? (uint32_t)reg_read(m, c, off, false)
                                                  : 0xffffffffu;
}

void lapic_mmio_write(struct sim_machine *m, uint32_t c, uint64_t addr, uint32_t value)
{
    uint32_t off;
    if (mmio_decoded(m, c, addr, "write", &off))
        reg_write(m, c, off, value, false);
}

/* ---- acceptance ---- */

int lapic_accept(struct sim_machine *m, uint32_t c)
{
    struct sim_lapic *l = &m->lapic[c];
    enum lapic_mode mode = mode_of(l->base);
    int v;
    if (mode != MODE_XAPIC && mode != MODE_X2APIC)
        return -1;
    lapic_timer_tick(l);
    if (!(l->svr & APIC_SVR_ENABLE))
        return -1; /* software-disabled: pending interrupts are held */
    v = MUTANT(lapic_lowest_first) ? lowest_bit(l->irr) : highest_bit(l->irr, true);
    if (v < 0 || ((uint32_t)v & 0xf0) <= (ppr_of(l) & 0xf0))
        return -1;
    __atomic_fetch_and(&l->irr[v / 32], ~(1u << (v % 32)), __ATOMIC_ACQ_REL);
    l->isr[v / 32] |= 1u << (v % 32);
    l->delivered++;
    return v;
}

bool lapic_vector_seen(const struct sim_lapic *l, uint8_t lowest)
{
    int v = highest_bit(l->irr, true), s = highest_bit(l->isr, false);
    return v >= lowest || s >= lowest;
}

void lapic_check_handback(struct sim_machine *m, uint32_t c)
{
    static const char *const lvt_names[LAPIC_LVTS] = { "CMCI", "timer", "thermal", "perf",
                                                       "LINT0", "LINT1", "error" };
    const struct sim_lapic *l = &m->lapic[c];
    int v;
    unsigned i;
    if (l->base != l->fw_base)
        tlbm_violation(&m->model, c,
                       "handed back with IA32_APIC_BASE 0x%llx (the firmware's: 0x%llx)",
                       (unsigned long long)l->base, (unsigned long long)l->fw_base);
    if (l->tpr != l->fw_tpr || l->svr != l->fw_svr)
        tlbm_violation(&m->model, c,
                       "handed back with TPR 0x%x, SVR 0x%x (the firmware's: 0x%x, 0x%x)", l->tpr,
                       l->svr, l->fw_tpr, l->fw_svr);
    for (i = 0; i < LAPIC_LVTS; i++)
        if (l->lvt[i] != l->fw_lvt[i])
            tlbm_violation(&m->model, c, "handed back with LVT %s 0x%x (the firmware's: 0x%x)",
                           lvt_names[i], l->lvt[i], l->fw_lvt[i]);
    if ((v = highest_bit(l->isr, false)) >= 0 || (v = highest_bit(l->irr, true)) >= 0)
        tlbm_violation(&m->model, c,
                       "handed back with vector 0x%02x %s: the firmware would take it through "
                       "its own IDT, whose handler never EOIs it",
                       v, highest_bit(l->isr, false) >= 0 ? "in service" : "pending");
}
