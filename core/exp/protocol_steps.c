#include "core/exp/protocol_steps.h"
#include "asm/apic.h"
#include "asm/cpu.h"
#include "core/lib/atomic.h"
#include "core/lib/stats.h"
#include "core/machine/ipi.h"
#include "core/machine/timing.h"

/* p50 and mean of n samples into step s (copied into `tmp` to sort: the caller's stay whole). */
static void summarise(struct protocol_steps *ps, enum protocol_step s, const uint64_t *v,
                      uint32_t n, uint64_t *tmp)
{
    uint64_t sum = 0;
    uint32_t i;
    for (i = 0; i < n; i++) {
        tmp[i] = v[i];
        sum += v[i];
    }
    sort_u64(tmp, n);
    ps->p50[s] = n ? percentile_sorted(tmp, n, 500) : 0;
    ps->mean[s] = n ? sum / n : 0;
}

/* The steps timed alone on the BSP's clock, n times each, into buf; summarised. */
static void alone_steps(struct protocol_steps *ps, volatile uint64_t *ack, uint32_t n,
                        uint64_t *buf, uint64_t *tmp)
{
    uint64_t seen = load_acquire(ack);
    uint32_t i;
    bool on = irq_enabled();
    irq_disable(); /* an EOI with nothing in service changes nothing (SDM vol. 3A, 11.8.5) */
    for (i = 0; i < n; i++) {
        uint64_t t0 = tsc_open();
        apic_eoi();
        buf[i] = tsc_close() - t0;
    }
    if (on)
        irq_enable();
    summarise(ps, PSTEP_EOI, buf, n, tmp);
    for (i = 0; i < n; i++) {
        uint64_t t0 = tsc_open();
        (void)wait_u64_ne(ack, seen - 1, t0 + 1000000);
        buf[i] = tsc_close() - t0;
    }
    summarise(ps, PSTEP_WAIT_EXIT, buf, n, tmp);
    for (i = 0; i < n; i++) {
        uint64_t t0 = tsc_open();
        buf[i] = tsc_close() - t0;
    }
    summarise(ps, PSTEP_TIMESTAMPS, buf, n, tmp);
}

bool protocol_steps_ipi(struct runner *r, uint32_t target, uint32_t warmup, uint32_t n,
                        uint64_t *buf)
{
    struct smp *s = r->smp;
    struct percpu *t = s->cpu[target];
    struct protocol_steps *ps = &r->run->method.protocol_steps;
    uint64_t *rt = buf, *icr = buf + n, *body = buf + 2 * n, *tmp = buf + 3 * n;
    volatile uint32_t stop = 0;
    struct spin_arg spin = { .stop = &stop, .deadline = 0 };
    uint64_t *settle = tmp; /* reused: summarised before tmp sorts anything */
    uint32_t i;
    bool ok = true;
    if (!n || !smp_usable(s, target) || target == 0)
        return false;
    spin.deadline = tsc_now() + ms_to_ticks((uint64_t)r->run->cfg.budget_s * 1000);
    store_release(&t->ping.timed, 1);
    ipi_start_spinners(s, &target, 1, &spin);
    for (i = 0; i < warmup + n && ok; i++) {
        uint64_t before, t0, sent, t1, s0 = tsc_open();
        ipi_settle_targets(s, &target, 1);
        s0 = tsc_close() - s0;
        before = load_acquire(&t->ping.count);
        t0 = tsc_open();
        apic_send_ipi(t->apic_id, VEC_PING);
        sent = tsc_close();
        ok = smp_wait_answer(s, target, &t->ping.count, ANSWER_NE, before, t0 + s->timeout_ticks);
        t1 = tsc_close();
        if (!ok || i < warmup)
            continue;
        rt[i - warmup] = t1 - t0;
        icr[i - warmup] = sent - t0;
        body[i - warmup] = load_acquire(&t->ping.body_ticks); /* stored before the ack */
        settle[i - warmup] = s0;
    }
    ipi_stop_spinners(s, &target, 1, &spin);
    store_release(&t->ping.timed, 0);
    if (!ok)
        return false;
    summarise(ps, PSTEP_SETTLE, settle, n, tmp); /* in place: settle is tmp */
    summarise(ps, PSTEP_ROUNDTRIP, rt, n, tmp);
    summarise(ps, PSTEP_ICR_WRITE, icr, n, tmp);
    summarise(ps, PSTEP_HANDLER, body, n, tmp);
    for (i = 0; i < n; i++) /* the rest, per sample: never below 0 */
        rt[i] = rt[i] > icr[i] + body[i] ? rt[i] - icr[i] - body[i] : 0;
    summarise(ps, PSTEP_REST, rt, n, tmp);
    alone_steps(ps, &t->ping.count, n, rt, tmp);
    ps->ipi = true;
    ps->initiator = 0;
    ps->target = target;
    ps->samples = n;
    return true;
}

void protocol_steps_shootdown(const struct runner *r, const uint64_t *lat, const uint64_t *send,
                              const uint64_t *handler, const uint64_t *rest, uint32_t n)
{
    struct protocol_steps *ps = &r->run->method.protocol_steps;
    uint64_t *tmp;
    if (!n || ps->shootdown || !(tmp = mem_alloc(n * sizeof(uint64_t))))
        return; /* the first such point of the run */
    summarise(ps, PSTEP_SD_LATENCY, lat, n, tmp);
    summarise(ps, PSTEP_SD_SEND, send, n, tmp);
    summarise(ps, PSTEP_SD_HANDLER, handler, n, tmp);
    summarise(ps, PSTEP_SD_REST, rest, n, tmp);
    mem_free(tmp);
    ps->shootdown = true;
    ps->sd_samples = n;
}
