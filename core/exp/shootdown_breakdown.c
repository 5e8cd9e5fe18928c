#include "core/exp/shootdown_breakdown.h"
#include "core/lib/mem.h"

bool breakdown_alloc(struct breakdown *b, uint32_t samples)
{
    size_t n = samples ? samples : 1;
    b->send = mem_alloc(n * sizeof(uint64_t));
    b->local = mem_alloc(n * sizeof(uint64_t));
    b->handler = mem_alloc(n * sizeof(uint64_t));
    b->dack = mem_alloc(n * sizeof(uint64_t));
    b->last_cpu = mem_alloc(n * sizeof(uint32_t));
    return b->send && b->local && b->handler && b->dack && b->last_cpu;
}

void breakdown_free(struct breakdown *b)
{
    mem_free(b->send);
    mem_free(b->local);
    mem_free(b->handler);
    mem_free(b->dack);
    mem_free(b->last_cpu);
    b->send = b->local = b->handler = b->dack = NULL;
    b->last_cpu = NULL;
}

void breakdown_take(struct breakdown *b, uint32_t k, const struct shootdown_parts *p)
{
    b->send[k] = p->send;
    b->local[k] = p->local_flush;
    b->handler[k] = shootdown_handler_in_wait(p);
    b->dack[k] = shootdown_delivery_ack(p);
    b->last_cpu[k] = p->last_cpu;
}

static int64_t mean_milli(const uint64_t *v, uint32_t n)
{
    uint64_t sum = 0;
    uint32_t i;
    if (!n)
        return 0;
    for (i = 0; i < n; i++)
        sum += v[i];
    return (int64_t)((sum * 1000 + n / 2) / n);
}

void breakdown_means(const struct breakdown *b, uint32_t samples, struct breakdown_means *m)
{
    m->send = mean_milli(b->send, samples);
    m->local_flush = mean_milli(b->local, samples);
    m->handler = mean_milli(b->handler, samples);
    m->delivery_ack = mean_milli(b->dack, samples);
}

uint32_t breakdown_last_acker(const struct breakdown *b, uint32_t samples,
                              const uint32_t *targets, uint32_t k, uint32_t *times)
{
    uint32_t t, i, best = UINT32_MAX;
    *times = 0;
    for (t = 0; t < k; t++) {
        uint32_t n = 0;
        for (i = 0; i < samples; i++)
            n += b->last_cpu[i] == targets[t];
        if (n > *times) {
            *times = n;
            best = targets[t];
        }
    }
    return best;
}

void breakdown_add_values(struct result_point *pt, const struct breakdown *b, uint32_t samples,
                          const uint32_t *targets, uint32_t k)
{
    struct breakdown_means m;
    uint32_t times, cpu;
    breakdown_means(b, samples, &m);
    point_value(pt, "send_mean", m.send);
    point_value(pt, "local_flush_mean", m.local_flush);
    point_value(pt, "last_handler_mean", m.handler);
    point_value(pt, "delivery_ack_mean", m.delivery_ack);
    cpu = breakdown_last_acker(b, samples, targets, k, &times);
    if (cpu != UINT32_MAX && samples) {
        point_value(pt, "last_ack_cpu", (int64_t)cpu * 1000);
        point_value(pt, "last_ack_share", (int64_t)times * 1000 / samples);
    }
}
