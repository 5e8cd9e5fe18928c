#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/mutant.h"

#define X2APIC_MSR(reg) (0x800u + ((reg) >> 4))
#define X2APIC_ICR 0x830u

static enum apic_mode mode;
static volatile uint32_t *xapic_mmio = (volatile uint32_t *)(uintptr_t)0xfee00000u;
static bool icr_fence;

enum apic_mode apic_hw_mode(void)
{
    return (rdmsr(MSR_IA32_APIC_BASE) & APIC_BASE_EXTD) ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
}

void apic_use_mode(enum apic_mode m, uint64_t xapic_phys_base)
{
    mode = m;
    if (xapic_phys_base)
        xapic_mmio = (volatile uint32_t *)(uintptr_t)(xapic_phys_base & ~0xfffull);
}

enum apic_mode apic_current_mode(void) { return mode; }
const char *apic_mode_name(enum apic_mode m) { return m == APIC_MODE_X2APIC ? "x2apic" : "xapic"; }
void apic_set_icr_fence(bool fence) { icr_fence = fence; }
bool apic_icr_fence(void) { return icr_fence; }

/* Explicit-mode access: takeover and release run while CPUs switch modes. */
static uint32_t read_in(enum apic_mode m, uint32_t reg)
{
    if (m == APIC_MODE_X2APIC)
        return (uint32_t)rdmsr(X2APIC_MSR(reg));
    return mmio_read32(&xapic_mmio[reg / 4]);
}

static void write_in(enum apic_mode m, uint32_t reg, uint32_t value)
{
    if (m == APIC_MODE_X2APIC)
        wrmsr(X2APIC_MSR(reg), value);
    else
        mmio_write32(&xapic_mmio[reg / 4], value);
}

uint32_t apic_read(uint32_t reg) { return read_in(mode, reg); }
void apic_write(uint32_t reg, uint32_t value) { write_in(mode, reg, value); }

uint32_t apic_id(void)
{
    /* x2APIC: the full 32-bit ID; xAPIC: bits 31:24 of the ID register */
    return mode == APIC_MODE_X2APIC ? apic_read(APIC_REG_ID) : apic_read(APIC_REG_ID) >> 24;
}

void apic_eoi(void)
{
    apic_write(APIC_REG_EOI, 0);
}

/*
 * xAPIC: an ICR write while the previous IPI is still being delivered is
 * lost, so wait for the delivery-status bit first (as Linux
 * __xapic_wait_icr_idle does). Bounded: a stuck bit fails the send.
 */
static bool xapic_wait_idle(void)
{
    uint32_t spins;
    for (spins = 0; spins < 1000000u; spins++) {
        if (!(mmio_read32(&xapic_mmio[APIC_REG_ICR_LO / 4]) & APIC_ICR_BUSY))
            return true;
        cpu_relax();
    }
    return false;
}

/*
 * x2APIC ICR writes are not serialising: the WRMSR may pass earlier stores,
 * so a target could take the IPI before it can see the request it is about
 * to read. Linux weak_wrmsr_fence() puts MFENCE;LFENCE before them on every
 * vendor but AMD and Hygon (init_amd() and init_hygon() clear
 * X86_FEATURE_APIC_MSRS_FENCE); hw_icr_fence_needed() decides the same.
 * Once per send, however many ICR writes follow: the fence orders all of
 * them after the stores before it (Linux __x2apic_send_IPI_mask() fences
 * once per mask too). xAPIC's ICR is an uncached store, ordered after
 * earlier stores by itself.
 */
static void order_icr_after_stores(void)
{
    if (mode == APIC_MODE_X2APIC && icr_fence && !MUTANT(icr_fence_missing))
        weak_wrmsr_fence();
}

/* One ICR write (two in xAPIC mode), ordered by the caller. */
static bool write_icr(uint32_t dest, uint32_t low)
{
    if (mode == APIC_MODE_X2APIC) {
        wrmsr(X2APIC_ICR, ((uint64_t)dest << 32) | low);
        return true;
    }
    if (!xapic_wait_idle())
        return false;
    mmio_write32(&xapic_mmio[APIC_REG_ICR_HI / 4], dest << 24);
    mmio_write32(&xapic_mmio[APIC_REG_ICR_LO / 4], low); /* this write sends */
    return true;
}

bool apic_send_ipi(uint32_t dest_apic_id, uint8_t vector)
{
    order_icr_after_stores();
    return write_icr(dest_apic_id, APIC_ICR_LEVEL_ASSERT | vector);
}

bool apic_send_ipi_mask(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                        uint32_t except, uint8_t vector)
{
    uint32_t i;
    bool all = true;
    order_icr_after_stores();
    for (i = 0; i < n; i++)
        if (cpus[i] != except)
            all &= write_icr(apic_id_of[cpus[i]], APIC_ICR_LEVEL_ASSERT | vector);
    return all;
}

/* The run of targets from cpus[*i] on in one cluster: its logical destination; *i moves past it. */
static uint32_t next_cluster_run(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                                 uint32_t except, uint32_t *i)
{
    uint32_t dest = 0, cluster = 0;
    for (; *i < n; (*i)++) {
        uint32_t id;
        if (cpus[*i] == except)
            continue;
        id = apic_id_of[cpus[*i]];
        if (dest && id >> 4 != cluster)
            break;
        cluster = id >> 4;
        dest |= apic_x2_logical_dest(id);
    }
    return dest;
}

bool apic_send_ipi_cluster(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                           uint32_t except, uint8_t vector)
{
    uint32_t i = 0, dest;
    if (mode != APIC_MODE_X2APIC)
        return false;
    order_icr_after_stores();
    while ((dest = next_cluster_run(cpus, n, apic_id_of, except, &i)) != 0)
        write_icr(dest, (MUTANT(cluster_ipis_physical) ? 0 : APIC_ICR_LOGICAL) |
                            APIC_ICR_LEVEL_ASSERT | vector);
    return true;
}

uint32_t apic_cluster_writes(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                             uint32_t except)
{
    uint32_t i = 0, writes = 0;
    while (next_cluster_run(cpus, n, apic_id_of, except, &i) != 0)
        writes++;
    return writes;
}

bool apic_send_ipi_all_but_self(uint8_t vector)
{
    order_icr_after_stores();
    return write_icr(0, APIC_ICR_ALL_BUT_SELF | APIC_ICR_LEVEL_ASSERT | vector);
}

/*
 * The MP initialisation protocol's IPIs (SDM vol. 3A, 9.4.4.1 and 11.6.1):
 * INIT is level-triggered with Level = assert; in xAPIC mode the
 * de-assert that older processors needed follows (Linux still sends it; in
 * x2APIC mode the ICR has no such message: SDM 11.12.9). STARTUP carries the
 * page number of the real-mode entry as its vector.
 */
#define ICR_DM_INIT (5u << 8)
#define ICR_DM_STARTUP (6u << 8)
#define ICR_TRIGGER_LEVEL (1u << 15)

bool apic_send_init(uint32_t dest_apic_id)
{
    bool ok;
    order_icr_after_stores();
    ok = write_icr(dest_apic_id, ICR_DM_INIT | ICR_TRIGGER_LEVEL | APIC_ICR_LEVEL_ASSERT);
    if (mode == APIC_MODE_XAPIC)
        ok &= write_icr(dest_apic_id, ICR_DM_INIT | ICR_TRIGGER_LEVEL);
    return ok;
}

bool apic_send_startup(uint32_t dest_apic_id, uint8_t page)
{
    order_icr_after_stores();
    return write_icr(dest_apic_id, ICR_DM_STARTUP | page);
}

static void save_regs(enum apic_mode m, struct apic_saved *s)
{
    s->tpr = read_in(m, APIC_REG_TPR);
    s->svr = read_in(m, APIC_REG_SVR);
    s->lvt_timer = read_in(m, APIC_REG_LVT_TIMER);
    s->lvt_lint0 = read_in(m, APIC_REG_LVT_LINT0);
    s->lvt_lint1 = read_in(m, APIC_REG_LVT_LINT1);
    s->lvt_error = read_in(m, APIC_REG_LVT_ERROR);
    s->timer_init = read_in(m, APIC_REG_TIMER_INIT);
    s->timer_div = read_in(m, APIC_REG_TIMER_DIV);
}

/* LVT bit 12 is the read-only delivery status; x2APIC WRMSR may #GP on it. */
#define LVT_WRITABLE(v) ((v) & ~(1u << 12))

static void restore_regs(enum apic_mode m, const struct apic_saved *s)
{
    write_in(m, APIC_REG_SVR, s->svr);
    write_in(m, APIC_REG_TIMER_DIV, s->timer_div);
    write_in(m, APIC_REG_LVT_TIMER, LVT_WRITABLE(s->lvt_timer));
    write_in(m, APIC_REG_LVT_LINT0, LVT_WRITABLE(s->lvt_lint0));
    write_in(m, APIC_REG_LVT_LINT1, LVT_WRITABLE(s->lvt_lint1));
    write_in(m, APIC_REG_LVT_ERROR, LVT_WRITABLE(s->lvt_error));
    /* writing the initial count restarts the timer: only if it was running */
    if (s->timer_init)
        write_in(m, APIC_REG_TIMER_INIT, s->timer_init);
    write_in(m, APIC_REG_TPR, s->tpr);
}

/*
 * Mode changes (SDM vol. 3A, 11.12.5, figure 11-27): xAPIC -> x2APIC is a
 * direct write of EXTD; x2APIC -> xAPIC is illegal without passing through
 * "disabled", which resets the local APIC, so the registers are restored
 * afterwards.
 */
static void set_hw_mode(uint64_t base, enum apic_mode want)
{
    uint64_t cur = rdmsr(MSR_IA32_APIC_BASE);
    bool is_x2 = (cur & APIC_BASE_EXTD) != 0;
    if (want == APIC_MODE_X2APIC && !is_x2) {
        wrmsr(MSR_IA32_APIC_BASE, base | APIC_BASE_ENABLE | APIC_BASE_EXTD);
    } else if (want == APIC_MODE_XAPIC && is_x2) {
        if (!MUTANT(x2apic_to_xapic_direct))
            wrmsr(MSR_IA32_APIC_BASE, base & ~(APIC_BASE_ENABLE | APIC_BASE_EXTD));
        wrmsr(MSR_IA32_APIC_BASE, (base & ~APIC_BASE_EXTD) | APIC_BASE_ENABLE);
    }
}

void apic_takeover(struct apic_saved *save, enum apic_mode want, uint32_t tpr, bool mask_lint1)
{
    enum apic_mode fw;
    save->base_msr = rdmsr(MSR_IA32_APIC_BASE);
    fw = (save->base_msr & APIC_BASE_EXTD) ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
    save_regs(fw, save);
    if (fw != want) {
        set_hw_mode(save->base_msr & ~(APIC_BASE_EXTD | APIC_BASE_ENABLE), want);
        restore_regs(want, save); /* an x2APIC -> xAPIC switch cleared them */
    }
    write_in(want, APIC_REG_LVT_TIMER, LVT_WRITABLE(save->lvt_timer) | APIC_LVT_MASKED);
    write_in(want, APIC_REG_LVT_LINT0, LVT_WRITABLE(save->lvt_lint0) | APIC_LVT_MASKED);
    if (mask_lint1)
        write_in(want, APIC_REG_LVT_LINT1, LVT_WRITABLE(save->lvt_lint1) | APIC_LVT_MASKED);
    write_in(want, APIC_REG_SVR, (save->svr & ~0xffu) | APIC_SVR_ENABLE | 0xff);
    write_in(want, APIC_REG_TPR, tpr);
}

static void clear_in_service(enum apic_mode m)
{
    unsigned i;
    /* one EOI retires the highest in-service vector; at most 256 can be in service */
    for (i = 0; i < 256; i++) {
        unsigned word;
        bool any = false;
        for (word = 0; word < 8; word++)
            any |= read_in(m, APIC_REG_ISR0 + word * 0x10) != 0;
        if (!any)
            return;
        write_in(m, APIC_REG_EOI, 0);
    }
}

void apic_clear_in_service(void) { clear_in_service(mode); }

void apic_release(const struct apic_saved *save)
{
    enum apic_mode orig = (save->base_msr & APIC_BASE_EXTD) ? APIC_MODE_X2APIC : APIC_MODE_XAPIC;
    enum apic_mode cur = apic_hw_mode();
    clear_in_service(cur);
    if (orig != cur)
        set_hw_mode(save->base_msr & ~(APIC_BASE_EXTD | APIC_BASE_ENABLE), orig);
    restore_regs(orig, save);
}

void apic_arm_heartbeat(uint8_t vector, uint32_t counts)
{
    /* divide by 1 (DCR 1011b), one-shot mode (LVT bits 18:17 = 00) */
    apic_write(APIC_REG_TIMER_DIV, 0xb);
    apic_write(APIC_REG_LVT_TIMER, vector);
    apic_write(APIC_REG_TIMER_INIT, counts);
}

void apic_arm_heartbeat_periodic(uint8_t vector, uint32_t counts)
{
    /* LVT timer bits 18:17 = 01b: periodic (SDM vol. 3A, 11.5.4) */
    apic_write(APIC_REG_TIMER_DIV, 0xb);
    apic_write(APIC_REG_LVT_TIMER, (1u << 17) | vector);
    apic_write(APIC_REG_TIMER_INIT, counts);
}

bool apic_vectors_pending(uint8_t lowest)
{
    unsigned word;
    for (word = lowest / 32; word < 8; word++) {
        uint32_t mask = word == lowest / 32 ? ~0u << (lowest % 32) : ~0u;
        if ((apic_read(APIC_REG_IRR0 + word * 0x10) | apic_read(APIC_REG_ISR0 + word * 0x10)) &
            mask)
            return true;
    }
    return false;
}

void apic_disarm_heartbeat(void)
{
    apic_write(APIC_REG_TIMER_INIT, 0);
    apic_write(APIC_REG_LVT_TIMER, APIC_LVT_MASKED);
}
