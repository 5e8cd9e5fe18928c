/*
 * INIT-SIPI-SIPI bring-up of the APs by the tool itself (efi/ap_boot.h).
 *
 * Method, after the SDM's MP initialisation protocol (vol. 3A, 9.4.4.1,
 * "Typical BSP Initialization Sequence") and what kvm-unit-tests and
 * memtest86+ do:
 *   - the trampoline (arch/x86/ap_trampoline.S) is copied to a page the
 *     firmware gives at a fixed address below 1 MiB (AllocatePages,
 *     AllocateAddress: the page is then ours, not the firmware's own AP
 *     wake-up buffer); the STARTUP vector is its page number;
 *   - every AP to start gets INIT, then after 10 ms a STARTUP, after 200 us
 *     a second one (a STARTUP reaching an AP that already runs is ignored);
 *     all APs at once, so the 10 ms are spent once, not once per AP;
 *   - each AP switches to long mode on the tool's page tables, takes a stack
 *     slot, and enters takeover_ap_main_own(), which loads the tool's GDT
 *     and IDT and checks in like an AP started by MP services;
 *   - the BSP waits for the check-ins until a deadline (the MP services
 *     window): an AP that does not answer is marked absent and named.
 * Everything the BSP does here runs in the tool's state (its APIC mode):
 * the INIT and STARTUP messages are ICR writes in that mode.
 */
#include "efi/ap_boot.h"
#include "efi/platform.h"

#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/trampoline.h"
#include "core/lib/atomic.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

#define EFER_KEEP ((1u << 0) | (1u << 8) | (1u << 11)) /* SCE, LME, NXE; LMA is read-only */
#define EFER_LME (1u << 8)
#define CR0_PE (1u << 0)
#define CR0_NW (1u << 29)
#define CR0_CD (1u << 30)
#define CR0_PG (1u << 31)
/* CR4 bits the AP must not take from the BSP before the tool sets them up
 * itself: PCIDE (set by enter_cpu with CR3[11:0] = 0), VMXE, SMXE, OSXSAVE
 * (needs XSETBV), PKE, CET, PKS (need their MSRs or registers first). */
#define CR4_NOT_COPIED ((1u << 13) | (1u << 14) | (1u << 17) | (1u << 18) | (1u << 22) | \
                        (1u << 23) | (1u << 24))
#define CR4_PAE (1u << 5)
#define AP_STACK_BYTES (32u * 1024u) /* as OVMF's PcdCpuApStackSize */
#define INIT_DELAY_US 10000          /* SDM 9.4.4.1: 10 ms after INIT */
#define SIPI_DELAY_US 200            /* and 200 us between the STARTUP IPIs */

static struct trampoline_params *params;
static uint8_t sipi_vector;
static uint8_t *targeted; /* by dense index: sent INIT-SIPI-SIPI (parked with INIT at the end) */

static void ap_entry(void *arg)
{
    takeover_ap_main_own(arg);
}

/* APs whose check-in is open: the ones to start (inject=absent ones included, counted
 * as sent: their SIPI is skipped, which stands for an AP that never answers) */
static uint32_t count_targets(struct smp *s)
{
    uint32_t i, n = 0;
    for (i = 1; i < s->count; i++)
        if (s->cpu[i] && load_acquire(&s->cpu[i]->checkin) == CHECKIN_WAITING)
            n++;
    return n;
}

/* The first free page from 4 KiB up (page 0 is the real-mode IVT; SIPI vector 0 is unusable). */
static uint64_t reserve_low_page(void)
{
    uint64_t phys;
    for (phys = 0x1000; phys < 0xa0000; phys += 0x1000)
        if (platform_alloc_pages_at(phys, 1))
            return phys;
    return 0;
}

bool ap_boot_prepare(struct run *r, struct takeover *t, uint64_t cr3)
{
    struct trampoline_params in;
    const char *why = NULL;
    uint64_t phys;
    uint8_t *stacks;
    uint32_t aps = count_targets(t->smp);
    if (aps == 0)
        return true;
    phys = reserve_low_page();
    if (!phys) {
        msg_add(&r->errors, "init_sipi", "no free page below 640 KiB for the AP trampoline "
                "(AllocatePages AllocateAddress refused every one): the APs are not started");
        return false;
    }
    stacks = platform_alloc_pages((size_t)aps * AP_STACK_BYTES / 4096);
    if (!stacks) {
        msg_add(&r->errors, "init_sipi", "out of memory for %u AP stacks: the APs are not started",
                aps);
        return false;
    }
    mem_zero(&in, sizeof(in));
    in.cr4 = ((uint32_t)read_cr4() & ~CR4_NOT_COPIED) | CR4_PAE;
    in.efer = ((uint32_t)rdmsr(MSR_EFER) & EFER_KEEP) | EFER_LME;
    in.cr0 = (((uint32_t)read_cr0()) & ~(CR0_CD | CR0_NW)) | CR0_PE | CR0_PG;
    in.entry = (uint64_t)(uintptr_t)ap_entry;
    in.arg = (uint64_t)(uintptr_t)t;
    in.stack_base = (uint64_t)(uintptr_t)stacks;
    in.stack_size = AP_STACK_BYTES;
    params = trampoline_build((uint8_t *)(uintptr_t)phys, phys, cr3, &in, &why);
    if (!params) {
        msg_add(&r->errors, "init_sipi", "the AP trampoline cannot be used: %s", why);
        return false;
    }
    targeted = mem_zalloc(t->smp->count);
    if (!targeted) {
        params = NULL;
        msg_add(&r->errors, "init_sipi", "out of memory: the APs are not started");
        return false;
    }
    sipi_vector = trampoline_sipi_vector(phys);
    r->init_sipi.trampoline = phys;
    return true;
}

static void delay_us(uint64_t us)
{
    uint64_t end = tsc_now() + us_to_ticks(us);
    while (!deadline_passed(end))
        cpu_relax();
}

/* One message to every AP to start; inject=absent CPUs are skipped (an AP that never answers). */
static uint32_t send_all(struct smp *s, bool init)
{
    uint32_t i, failed = 0;
    for (i = 1; i < s->count; i++) {
        struct percpu *pc = s->cpu[i];
        bool ok;
        if (!pc || load_acquire(&pc->checkin) != CHECKIN_WAITING || pc->inject_kind == INJECT_ABSENT)
            continue;
        ok = init ? apic_send_init(pc->apic_id) : apic_send_startup(pc->apic_id, sipi_vector);
        failed += !ok;
        targeted[i] = 1;
    }
    return failed;
}

uint32_t ap_boot_start(struct run *r, struct takeover *t, uint64_t window_ms)
{
    struct smp *s = t->smp;
    uint32_t i, before = 0, targets, arrived, failed;
    if (!params)
        return 0;
    for (i = 1; i < s->count; i++)
        if (s->cpu[i] && load_acquire(&s->cpu[i]->checkin) == CHECKIN_DONE)
            before++;
    targets = count_targets(s);
    r->init_sipi.requested = targets;
    failed = send_all(s, true);
    delay_us(INIT_DELAY_US);
    failed += send_all(s, false);
    delay_us(SIPI_DELAY_US);
    failed += send_all(s, false);
    if (failed)
        msg_add(&r->warnings, "init_sipi", "%u INIT/STARTUP messages could not be sent (the xAPIC "
                "ICR stayed busy)", failed);
    arrived = smp_wait_checkins(s, before + targets, tsc_now() + ms_to_ticks(window_ms), window_ms,
                                BRING_UP_INIT_SIPI);
    r->init_sipi.arrived = arrived - before;
    r->init_sipi.reached_64bit = load_acquire(&params->arrived);
    return arrived;
}

void ap_boot_park(struct run *r, struct takeover *t)
{
    struct smp *s = t->smp;
    uint32_t i;
    (void)r;
    if (!targeted)
        return;
    /* the absent ones too: one may still be on its way through the trampoline */
    for (i = 1; i < s->count; i++)
        if (s->cpu[i] && targeted[i])
            apic_send_init(s->cpu[i]->apic_id);
}
