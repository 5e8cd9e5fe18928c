/* Targets in a load/store loop during a shootdown window: see busy_targets.h. */
#include "core/exp/arm64/busy_targets.h"

#include "asm/percpu.h"
#include "asm/smp.h"
#include "asm/timer.h"
#include "core/exp/arm64/a64_exp.h"
#include "core/exp/arm64/experiments.h"

/* 4 KiB per CPU: lines of its own, hit in its L1, so the loop is the CPU's, not the fabric's;
 * on the CPU's own stack (16 KiB, asm/smp.h STACK_SIZE), so no table grows with MAX_CPUS */
#define BUSY_WORDS 512u

/*
 * A target's loop: arg0 the counter value past which it stops by itself (every loop has a
 * deadline), arg[3] set by the BSP to stop it; result1 = 1 once looping, result0 the stores.
 */
static void fn_busy(struct percpu *pc)
{
    /* volatile: every turn a real load and store, the loop is what the CPU does */
    volatile uint64_t w[BUSY_WORDS] __attribute__((aligned(64)));
    uint64_t n = 0;
    uint32_t i;
    for (i = 0; i < BUSY_WORDS; i++)
        w[i] = 0;
    i = 0;
    __atomic_store_n(&pc->result[1], 1, __ATOMIC_RELEASE);
    while (!__atomic_load_n(&pc->arg[3], __ATOMIC_ACQUIRE)) {
        w[i] = w[(i + 7) % BUSY_WORDS] + 1; /* a load and a store each turn */
        i = (i + 1) % BUSY_WORDS;
        if (++n % 1024 == 0 && ticks() > pc->arg[0])
            break;
    }
    pc->result[0] = n;
}

bool a64_busy_start(struct arm64_run *run, const unsigned *targets, unsigned k)
{
    uint64_t timeout = a64_timeout_ticks(run), end;
    unsigned i;
    bool ok = true;
    for (i = 0; i < k; i++) /* each stops by itself a timeout after it would be stopped */
        smp_post(targets[i], fn_busy, ticks() + 2 * timeout, 0, 0);
    end = ticks() + timeout;
    for (i = 0; i < k; i++) {
        while (!__atomic_load_n(&percpu[targets[i]].result[1], __ATOMIC_ACQUIRE) && ticks() < end)
            ;
        if (!__atomic_load_n(&percpu[targets[i]].result[1], __ATOMIC_ACQUIRE)) {
            a64_cpu_lost(run, targets[i], "starting a busy target");
            ok = false;
        }
    }
    return ok;
}

bool a64_busy_stop(struct arm64_run *run, const unsigned *targets, unsigned k)
{
    unsigned i;
    bool ok = true;
    for (i = 0; i < k; i++)
        __atomic_store_n(&percpu[targets[i]].arg[3], 1, __ATOMIC_RELEASE);
    for (i = 0; i < k; i++)
        if (smp_wait(targets[i], a64_timeout_ticks(run)) != 0) {
            a64_cpu_lost(run, targets[i], "stopping a busy target");
            ok = false;
        }
    return ok;
}
