/*
 * Local APIC access, xAPIC (MMIO) and x2APIC (MSR) behind one interface
 * (the kvm-unit-tests lib/x86/apic.c idea). The mode is per CPU hardware
 * state; the tool keeps every CPU in the same mode while it owns them.
 *
 * Register offsets are the xAPIC MMIO offsets (SDM vol. 3A, table 11-1);
 * x2APIC MSR = 0x800 + offset / 16 (SDM vol. 3A, 11.12.1.2).
 */
#ifndef TLBSCOPE_ARCH_X86_APIC_H
#define TLBSCOPE_ARCH_X86_APIC_H

#include <stdbool.h>
#include <stdint.h>

enum apic_mode { APIC_MODE_XAPIC = 0, APIC_MODE_X2APIC = 1 };

#define APIC_REG_ID 0x20
#define APIC_REG_VERSION 0x30
#define APIC_REG_TPR 0x80
#define APIC_REG_EOI 0xb0
#define APIC_REG_SVR 0xf0
#define APIC_REG_ISR0 0x100
#define APIC_REG_IRR0 0x200
#define APIC_REG_ESR 0x280
#define APIC_REG_ICR_LO 0x300
#define APIC_REG_ICR_HI 0x310
#define APIC_REG_LVT_TIMER 0x320
#define APIC_REG_LVT_LINT0 0x350
#define APIC_REG_LVT_LINT1 0x360
#define APIC_REG_LVT_ERROR 0x370
#define APIC_REG_TIMER_INIT 0x380
#define APIC_REG_TIMER_DIV 0x3e0

#define APIC_LVT_MASKED (1u << 16)
#define APIC_SVR_ENABLE (1u << 8)
#define APIC_ICR_BUSY (1u << 12) /* xAPIC delivery status */
#define APIC_ICR_LEVEL_ASSERT (1u << 14)
#define APIC_ICR_ALL_BUT_SELF (3u << 18)
#define APIC_BASE_BSP (1ull << 8)
#define APIC_BASE_EXTD (1ull << 10)
#define APIC_BASE_ENABLE (1ull << 11)

/* What a CPU's APIC looked like before the tool touched it. */
struct apic_saved {
    uint64_t base_msr;
    uint32_t tpr, svr, lvt_timer, lvt_lint0, lvt_lint1, lvt_error, timer_init, timer_div;
};

/* Mode of the calling CPU as the hardware says (IA32_APIC_BASE.EXTD). */
enum apic_mode apic_hw_mode(void);
/* Selects the access method for the mode the tool runs the CPUs in. */
void apic_use_mode(enum apic_mode mode, uint64_t xapic_phys_base);
enum apic_mode apic_current_mode(void);
const char *apic_mode_name(enum apic_mode m);
/* MFENCE;LFENCE before the x2APIC ICR writes of a send (apic.c; who needs it: hw_policy.h). */
void apic_set_icr_fence(bool fence);
bool apic_icr_fence(void);

uint32_t apic_read(uint32_t reg);
void apic_write(uint32_t reg, uint32_t value);
uint32_t apic_id(void);
void apic_eoi(void);
/* Fixed-vector IPI to one APIC ID. Returns false if an xAPIC ICR stayed busy. */
bool apic_send_ipi(uint32_t dest_apic_id, uint8_t vector);
/*
 * Fixed-vector IPI to each CPU of a set, one ICR write each (x2APIC
 * physical mode, as Linux __x2apic_send_IPI_mask()): CPU cpus[i] has APIC
 * ID apic_id_of[cpus[i]]; the CPU `except` (a dense index, or UINT32_MAX)
 * is skipped. One fence for the whole set, before the first write. Returns
 * false if an xAPIC ICR stayed busy for one of them (the others are sent).
 */
bool apic_send_ipi_mask(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                        uint32_t except, uint8_t vector);
/* INIT (assert, then de-assert in xAPIC mode) to one APIC ID: the AP waits for a SIPI. */
bool apic_send_init(uint32_t dest_apic_id);
/* STARTUP IPI: the AP starts in real mode at physical address page << 12. */
bool apic_send_startup(uint32_t dest_apic_id, uint8_t page);
/*
 * x2APIC cluster mode (issue 21; Linux's x2apic_cluster, the mode it picks
 * on most Intel x2APIC servers): the logical destination of APIC ID a is
 * cluster a >> 4 in bits 31:16 and the bit 1 << (a & 15) (Intel SDM vol.
 * 3A, 11.12.10.2: the x2APIC LDR is derived from the ID and read-only).
 * One ICR write, destination mode logical (ICR bit 11), interrupts every
 * CPU of a run of consecutive targets in one cluster; a set sorted by APIC
 * ID is one write per cluster, as Linux's __x2apic_send_IPI_mask() sends.
 * x2APIC mode only (false in xAPIC mode, nothing sent). One fence for the
 * set. apic_cluster_writes(): the writes such a send makes.
 */
#define APIC_ICR_LOGICAL (1u << 11)
static inline uint32_t apic_x2_logical_dest(uint32_t apic_id)
{
    return (apic_id >> 4) << 16 | 1u << (apic_id & 15);
}
bool apic_send_ipi_cluster(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                           uint32_t except, uint8_t vector);
uint32_t apic_cluster_writes(const uint32_t *cpus, uint32_t n, const uint32_t *apic_id_of,
                             uint32_t except);
/* Fixed-vector IPI to all CPUs but the caller (ICR shorthand 11b). */
bool apic_send_ipi_all_but_self(uint8_t vector);

/*
 * Takeover of the calling CPU's APIC: saves its state, switches to `mode`
 * (xAPIC <-> x2APIC), enables it with spurious vector 0xff, masks the LVT
 * timer and LINT0 (firmware tick sources), LINT1 too when `mask_lint1` (the
 * APs: Linux routes the platform's NMI line to the BSP only), and sets TPR
 * to `tpr`.
 */
void apic_takeover(struct apic_saved *save, enum apic_mode mode, uint32_t tpr, bool mask_lint1);
/* Restores what apic_takeover saved, including the hardware mode. */
void apic_release(const struct apic_saved *save);
/* EOIs every in-service vector (after a CPU faulted inside a handler). */
void apic_clear_in_service(void);
/*
 * Heartbeat: a one-shot APIC timer interrupt at `vector` after `counts`
 * APIC timer ticks (divide by 1; the rate is not calibrated: 1 GHz under
 * QEMU, tens of MHz on hardware), and its cancellation.
 */
#define HEARTBEAT_IDLE (1u << 26)  /* idle APs: 67 ms under QEMU, seconds on hardware */
#define HEARTBEAT_POLL (1u << 20)  /* a waiting BSP: 1 ms under QEMU */
void apic_arm_heartbeat(uint8_t vector, uint32_t counts);
/* The same, repeating every `counts` ticks until disarmed: armed once for a whole wait. */
void apic_arm_heartbeat_periodic(uint8_t vector, uint32_t counts);
void apic_disarm_heartbeat(void);
/*
 * True when a vector >= `lowest` is pending (IRR) or in service (ISR).
 * Before a CPU hands its IDT back to the firmware it lets such interrupts
 * run through the tool's handlers: one delivered to the firmware's IDT
 * would find a handler that never EOIs it, and the vector would stay in
 * service, blocking that priority class (seen: ISR 0xf0 stuck, PPR 0xf0).
 */
bool apic_vectors_pending(uint8_t lowest);

#endif
