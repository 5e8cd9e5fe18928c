/*
 * The mailbox side of asm/smp.h (asm/percpu.h says how a command travels):
 * plain C over percpu[], the GIC and the counter, apart from the PSCI
 * bring-up (smp.c), so the host build (tlbscope-sim --arch aarch64,
 * sim/arm64/) posts and waits with this same code.
 */
#include "asm/gic.h"
#include "asm/smp.h"
#include "asm/timer.h"

bool percpu_usable(unsigned cpu)
{
    return __atomic_load_n(&percpu[cpu].state, __ATOMIC_ACQUIRE) == CPU_ONLINE;
}

void smp_post(unsigned cpu, percpu_fn fn, uint64_t a0, uint64_t a1, uint64_t a2)
{
    struct percpu *pc = &percpu[cpu];
    pc->fn = fn;
    pc->arg[0] = a0;
    pc->arg[1] = a1;
    pc->arg[2] = a2;
    pc->arg[3] = 0;
    pc->result[0] = pc->result[1] = pc->result[2] = pc->result[3] = 0;
    __atomic_store_n(&pc->cmd_seq, pc->cmd_seq + 1, __ATOMIC_RELEASE);
    if (pc->gic_ok)
        gic_send_sgi(pc->mpidr, SGI_CMD); /* has the DSB the SGI needs */
}

int smp_wait(unsigned cpu, uint64_t timeout_ticks)
{
    struct percpu *pc = &percpu[cpu];
    uint64_t end = ticks() + timeout_ticks;
    while (__atomic_load_n(&pc->ack_seq, __ATOMIC_ACQUIRE) != pc->cmd_seq) {
        if (!percpu_usable(cpu) || ticks() > end)
            return -1;
    }
    return 0;
}
