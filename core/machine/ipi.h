/*
 * IPI primitives shared by the experiments: the handlers for the tool's
 * vectors, a "spin as an IPI target" command, and helpers to send to a set
 * of CPUs the way Linux does in x2APIC physical mode (one ICR write each).
 */
#ifndef TLBSCOPE_CORE_IPI_H
#define TLBSCOPE_CORE_IPI_H

#include "core/machine/smp.h"

static inline struct percpu *this_percpu(void)
{
    return (struct percpu *)(void *)this_arch_percpu();
}

void ipi_install_handlers(void);

/*
 * Busy targets: a CPU running this command spins with interrupts enabled
 * until *stop becomes non-zero (or the deadline passes), taking IPIs as a
 * CPU running user code would. The BSP plays the part itself when it is a
 * target (ipi_bsp_spin_until).
 */
/*
 * What a target does between requests: SPIN_AS_CONFIGURED spins (halts
 * under a hypervisor, s->halt_waits); SPIN_IDLE halts whatever target_wait
 * says, as a CPU in the idle loop (a lazy-TLB CPU: Linux switches to lazy
 * mode when a CPU goes idle), parked so initiators let it fall asleep;
 * SPIN_BUSY_WS runs a user-mode-like loop that reads and writes its own
 * working set (`ws`, SPIN_WS_BYTES per CPU, by CPU index), interrupts on.
 */
enum spin_mode { SPIN_AS_CONFIGURED = 0, SPIN_IDLE, SPIN_BUSY_WS };
#define SPIN_WS_BYTES (16u * 4096u) /* 16 pages: its TLB entries and lines stay hot */

struct spin_arg {
    volatile uint32_t *stop;
    uint64_t deadline;
    enum spin_mode mode;
    uint8_t *ws; /* SPIN_BUSY_WS: SPIN_WS_BYTES per CPU index */
    /* SPIN_IDLE: sleep in MONITOR/MWAIT with mwait_hint (monitoring *stop), not "sti; hlt" */
    bool idle_mwait;
    uint32_t mwait_hint;
};
int64_t ipi_spin_as_target(struct percpu *self, void *arg);
/* One step of SPIN_BUSY_WS's loop: a read-modify-write of one line of `ws`; the next line. */
uint32_t ipi_busy_ws_step(uint8_t *ws, uint32_t line);

/* Posts CMD_SPIN_TARGET to each AP in `cpus` (the BSP is skipped). */
void ipi_start_spinners(struct smp *s, const uint32_t *cpus, uint32_t n, struct spin_arg *arg);
/* Sets *stop and collects the spinners; CPUs that do not come back are marked. */
void ipi_stop_spinners(struct smp *s, const uint32_t *cpus, uint32_t n, struct spin_arg *arg);

/*
 * The target state of every timed IPI to halted waiters (s->halt_waits, or
 * a target idling as SPIN_IDLE; with spinning targets it returns at once):
 * each of `cpus` but the caller
 * has parked in "sti; hlt" since its last interrupt (smp_park()), then
 * IPI_SETTLE_US pass, so its vCPU (under a hypervisor) has gone to sleep as
 * well. Without it a back-to-back series finds the target still awake from
 * the previous request, and measures no wake-up at all: under QEMU 10 TCG
 * ipi_roundtrip's round trip came down to about 5 K ticks while a
 * shootdown, whose verification and remap leave its targets time to fall
 * asleep, paid the whole wake-up (issue 20). Returns false when a target
 * did not park in time (the IPI's own wait names a CPU that hangs).
 */
#define IPI_SETTLE_US 10
bool ipi_settle_targets(struct smp *s, const uint32_t *cpus, uint32_t n);

/* One ICR write per target, one fence before them all (Linux x2APIC physical mode does the same). */
void ipi_send_each(struct smp *s, const uint32_t *cpus, uint32_t n, uint8_t vector);
/*
 * x2APIC cluster mode (issue 21): one logical ICR write per run of targets
 * in one cluster (arch/x86/include/asm/apic.h, apic_send_ipi_cluster()). False in
 * xAPIC mode, where nothing is sent: callers measure it only in x2APIC.
 */
bool ipi_send_cluster(struct smp *s, const uint32_t *cpus, uint32_t n, uint8_t vector);
/*
 * Sorts a target set by APIC ID, so that ipi_send_cluster() writes once per
 * cluster (insertion sort: call it before a point, outside timed windows).
 */
void ipi_sort_by_apic(const struct smp *s, uint32_t *cpus, uint32_t n);
/* Whether cluster-mode IPIs can be sent now; else why not, into reason. */
bool ipi_cluster_available(char *reason, size_t cap);

#endif
