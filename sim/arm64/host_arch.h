/*
 * The aarch64 app's architecture interface (arch/arm64/include/asm/) on the
 * host, for tlbscope-sim --arch aarch64: host threads play the CPUs, each
 * bound to its CPU of the strict model (tlbi_model.h), which executes every
 * TLBI, barrier, descriptor store and test read (host_tlbi.c). What the app
 * calls from asm/ besides those:
 *   smp      percpu[], ncpus, this_cpu (smp_post / smp_wait / percpu_usable
 *            are the app's own, arch/arm64/mailbox.c); each CPU but the BSP runs the
 *            secondaries' service loop (arch/arm64/smp.c's: mailbox, else
 *            acknowledge an SGI, else wait for one)
 *   timer    ticks() / tick_freq() (host_cpu.c): the host's monotonic clock in
 *            ns (1 GHz); every number it gives is host time, labelled simulated
 *   paging   the test region is the model's: REGION_PAGES pages, frame pool
 *            p's page i is frame p * REGION_PAGES + i, its tag the model's
 *            (a64m_tag); region_set_pte is a descriptor store, nG per rgn.ng;
 *            every CPU translates under ASID A64S_ASID (pt_current_asid)
 *            until pt_set_asid switches it (KPTI's user ASID, A64S_ASID | 1)
 *   gic      host_gic.c: SGIs as per-CPU pending bits, EOImode 0's active
 *            state, the priority mask; irq_wait (WFI) waits for a pending
 *            SGI (with a deadline) and takes it through the app's own IRQ
 *            handler (arch/arm64/irq.c, irq_handle)
 */
#ifndef TLBSCOPE_SIM_ARM64_HOST_ARCH_H
#define TLBSCOPE_SIM_ARM64_HOST_ARCH_H

#include <stdbool.h>
#include <stdint.h>

#include "asm/percpu.h"
#include "sim/arm64/tlbi_model.h"

#define A64S_ASID 0x2a /* the ASID every modelled CPU translates under (never 0: a by-VA TLBI of ASID 0 must not reach its nG entries) */

/* Model, percpu[], the GIC and PSCI for n CPUs (the calling thread plays the BSP, CPU 0),
 * CPU i at mpidr[i] (its affinity fields), every other CPU off; false when the model could
 * not be set up. */
bool a64s_machine_start(const struct a64m_config *cfg, unsigned n, const uint64_t *mpidr);
/* One run's bring-up, as smp_boot_secondaries does it: each other CPU's percpu block as a
 * freshly loaded image has it, PSCI CPU_ON (psci_rc[i] its answer), then its check-in
 * within 1 s of host time. Returns the CPUs online. A run may follow another on the same
 * machine: what the first left ON, CPU_ON refuses. */
unsigned a64s_boot_secondaries(int64_t *psci_rc);
/* the other CPUs' threads stopped and joined; the model stays readable until a64s_machine_free */
void a64s_machine_stop(void);
void a64s_machine_free(void);

/* ---- host_cpu.c ---- */
struct a64_model *a64s_model(void);
/* the calling thread plays pc's CPU of the model (NULL: none), under ASID A64S_ASID */
void a64s_play(struct percpu *pc);
/* the modelled counter's rate, CNTFRQ_EL0 (default 1 GHz: ticks are host ns); a lower one
 * rounds the host clock down to its ticks, as a real server's 25-100 MHz counter would */
void a64s_set_counter_hz(uint64_t hz);
/* one wait iteration of the calling CPU: a model event (speculation) and the host CPU handed on */
void a64s_wait_step(void);
/* an idle CPU's WFI between its looks at the mailbox and the GIC: a model event, then a nap
 * of host time (an idle CPU must leave the host's cores to the busy ones) */
void a64s_idle(void);

/* ---- host_psci.c ---- */
#define A64S_PSCI_MAX_ERRORS 8
/* the PSCI the model offers: PSCI_VERSION's value and which functions PSCI_FEATURES names
 * (1.1 with all three unless a test says otherwise) */
void a64s_psci_configure(int64_t version, bool cpu_on, bool cpu_off, bool affinity_info);
/* the machine's CPUs as its firmware knows them (the modelled MADT's MPIDRs): CPU_ON of any
 * other MPIDR is INVALID_PARAMETERS, as on a machine, whatever the app's percpu[] holds */
void a64s_psci_machine(const uint64_t *mpidr, unsigned n);
/* every CPU but the BSP off, no refusals; CPU_ON starts a CPU's thread with start (false:
 * it could not be) */
void a64s_psci_reset(bool (*start)(unsigned idx));
/* the calls the model refused since the reset (model errors), and each one's text */
uint32_t a64s_psci_errors(void);
void a64s_psci_clear_errors(void);
const char *a64s_psci_error(uint32_t i);

/* ---- host_gic.c ---- */
void a64s_gic_reset(unsigned n);
/* the SGIs the modelled secure firmware keeps (bit i: SGI i; 0xff00, TF-A's, unless set before
 * the machine starts): the non-secure world's writes to them are ignored */
void a64s_gic_secure_sgis(uint32_t mask);
/* the range selector in the modelled distributor (GICD_TYPER.RSS) and CPU interfaces
 * (ICC_CTLR_EL1.RSS); both true unless set before the machine starts */
void a64s_gic_rss(bool gicd, bool icc);
/* how many times the app used an SGI of 8 or above (the secure firmware's), or sent one to an
 * Aff0 above 15 without the range selector; *first: the first */
unsigned a64s_gic_refusals(const char **first);
/* the calling CPU has an SGI the CPU interface would signal (pending, above the mask, none active) */
bool a64s_sgi_signalled(void);

#endif
