/*
 * Where our exception vectors (entry.S) land on a secondary CPU (and on the BSP inside an
 * abort window, asm/abort.h).
 *
 * An IRQ (current EL, SP_ELx) goes to irq_handle (irq.c: acknowledge, count,
 * end; asm/irq.h). Anything else is a fault. One kind is recovered: a translation fault of
 * a load from the test region while the CPU's abort window is open (stale_detector_control
 * reads through descriptors it made invalid): fault_recoverable counts it and entry.S
 * returns past the load. Every other fault: record the vector (which of
 * current-EL SP0/SPx, lower-EL A64/A32 x sync/IRQ/FIQ/SError), ESR (EC =
 * [31:26]), FAR and ELR in the per-CPU block for the BSP (the report's
 * topology.cpus[].fault), print them on the serial port, and park the CPU
 * with everything masked: a fault is a bug to report, not to recover from.
 */
#include "asm/abort.h"
#include "asm/paging.h"
#include "asm/percpu.h"
#include "asm/uart.h"
#include "core/lib/strbuf.h"

__attribute__((noreturn)) void fault_report(uint64_t vec, uint64_t esr, uint64_t far, uint64_t elr);
int fault_recoverable(uint64_t vec, uint64_t esr, uint64_t far);

#define ESR_EC(esr) ((esr) >> 26)
#define EC_DABT_CUR 0x25u             /* a data abort taken without a change of EL */
#define DFSC_TRANSLATION(esr) (((esr) & 0x3c) == 0x04) /* ISS DFSC 0b0001LL: translation fault, level LL */
#define VEC_CUR_SP0_SYNC 0
#define VEC_CUR_SPX_SYNC 4

/* 1: entry.S steps over the faulting load and returns to it; 0: park */
int fault_recoverable(uint64_t vec, uint64_t esr, uint64_t far)
{
    struct percpu *pc = this_cpu();
    if (!pc || !pc->abort_window || (vec != VEC_CUR_SP0_SYNC && vec != VEC_CUR_SPX_SYNC))
        return 0;
    if (ESR_EC(esr) != EC_DABT_CUR || !DFSC_TRANSLATION(esr))
        return 0;
    if (far < rgn.va || far - rgn.va >= ((uint64_t)REGION_PAGES << PAGE_SHIFT))
        return 0;
    pc->aborts++;
    return 1;
}

/* The BSP's firmware state while it borrows our vectors (one window at a time). */
static uint64_t bsp_vbar, bsp_daif;
extern char exception_vectors[];

void abort_window_open(void)
{
    struct percpu *pc = this_cpu();
    pc->aborts = 0;
    if (pc->idx == 0) {
        bsp_daif = read_sysreg(DAIF);
        __asm__ volatile("msr daifset, #0xf" ::: "memory");
        bsp_vbar = EL_READ(VBAR);
        EL_WRITE(VBAR, (uint64_t)exception_vectors);
        __asm__ volatile("isb" ::: "memory");
    }
    __atomic_store_n(&pc->abort_window, 1, __ATOMIC_SEQ_CST);
}

uint32_t abort_window_close(void)
{
    struct percpu *pc = this_cpu();
    __atomic_store_n(&pc->abort_window, 0, __ATOMIC_SEQ_CST);
    if (pc->idx == 0) {
        EL_WRITE(VBAR, bsp_vbar);
        __asm__ volatile("isb" ::: "memory");
        write_sysreg(DAIF, bsp_daif);
    }
    return pc->aborts;
}

void fault_report(uint64_t vec, uint64_t esr, uint64_t far, uint64_t elr)
{
    static const char *const kind[4] = { "sync", "irq", "fiq", "serror" };
    struct percpu *pc = this_cpu();
    char line[160];
    fmt_into(line, sizeof(line), "FAULT cpu %u: vector %llu (%s), ESR 0x%llx FAR 0x%llx ELR 0x%llx: parked\n",
             pc ? pc->idx : 999u, (unsigned long long)vec, kind[vec & 3], (unsigned long long)esr,
             (unsigned long long)far, (unsigned long long)elr);
    uart_puts(line);
    if (pc) {
        pc->fault_esr = esr;
        pc->fault_far = far;
        pc->fault_elr = elr;
        pc->fault_vector = vec;
        __atomic_store_n(&pc->state, CPU_PARKED, __ATOMIC_RELEASE);
    }
    __asm__ volatile("msr daifset, #0xf");
    for (;;)
        __asm__ volatile("wfi");
}
