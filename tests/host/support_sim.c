#include "tests/host/support_sim.h"

#include <stdlib.h>
#include <string.h>

#include "core/atomic.h"
#include "core/ipi.h"
#include "core/shootdown.h"
#include "core/timing.h"

static struct sim *current_sim;
static _Thread_local bool in_handler;

/* IPI delivery: like an interrupt gate, the handler runs with "interrupts" off. */
static void poll_ipis(struct fake_cpu *c)
{
    struct sim *m = current_sim;
    uint32_t bits;
    if (in_handler || !m)
        return;
    bits = __atomic_exchange_n(&m->pending[c->index], 0, __ATOMIC_ACQUIRE);
    while (bits) {
        uint32_t b = (uint32_t)__builtin_ctz(bits);
        bits &= bits - 1;
        in_handler = true;
        irq_disable();
        fake_deliver_irq((uint8_t)(0xf0 + b));
        irq_enable();
        in_handler = false;
    }
}

static void sink(uint32_t dest, uint8_t vector)
{
    struct sim *m = current_sim;
    uint32_t i;
    if (vector < 0xf0)
        return;
    for (i = 0; i < m->ncpus; i++) {
        bool hit = dest == UINT32_MAX ? fake_cpu_current() != m->fake[i] : i == dest;
        if (hit)
            __atomic_fetch_or(&m->pending[i], 1u << (vector - 0xf0), __ATOMIC_SEQ_CST);
    }
}

static void *alloc_table(void *ctx)
{
    void *p = NULL;
    (void)ctx;
    if (posix_memalign(&p, 4096, 4096))
        return NULL;
    memset(p, 0, 4096);
    return p;
}

static void *alloc_frames(void *ctx, uint64_t bytes, uint64_t align)
{
    void *p = NULL;
    (void)ctx;
    if (posix_memalign(&p, align, bytes))
        return NULL;
    memset(p, 0, bytes);
    return p;
}

static void bind_cpu(struct sim *m, uint32_t i)
{
    fake_cpu_bind(m->fake[i]);
    set_arch_percpu(&m->smp.cpu[i]->arch);
    irq_enable();
}

void sim_init(struct sim *m, uint32_t n, uint32_t timeout_ms)
{
    uint32_t i;
    memset(m, 0, sizeof(*m));
    host_init();
    current_sim = m;
    m->ncpus = n;
    config_defaults(&m->cfg);
    m->topo.count = n;
    m->topo.cpus = m->infos;
    for (i = 0; i < n; i++) {
        m->infos[i].index = i;
        m->infos[i].apic_id = i;
        m->infos[i].core = i / 2; /* pairs of SMT siblings, one package */
        m->infos[i].thread = i % 2;
        m->infos[i].bsp = i == 0;
        m->infos[i].numa_node = -1;
        m->fake[i] = calloc(1, sizeof(struct fake_cpu));
        m->fake[i]->index = i;
        m->fake[i]->poll = poll_ipis;
    }
    timing_set_tsc_hz(1000000000ull);
    smp_init(&m->smp, &m->topo, &m->cfg, ms_to_ticks(timeout_ms));
    m->smp.run_deadline = tsc_now() + ms_to_ticks(60000);
    fake_set_ipi_sink(sink);
    ipi_install_handlers();
    shootdown_install_handlers();
    pt_init(&m->pt, 4, false, alloc_table, NULL);
    testmem_init(&m->tm, &m->pt, alloc_frames, NULL);
    fake_tlb_use_tables(&m->pt);
    bind_cpu(m, 0);
}

static void *ap_thread(void *arg)
{
    struct percpu *pc = arg;
    struct sim *m = current_sim;
    uint64_t release;
    bind_cpu(m, pc->index);
    if (!smp_checkin(pc))
        return NULL;
    release = smp_ap_loop(pc);
    if (release)
        store_release(&pc->ack.ack_seq, release);
    return NULL;
}

void sim_start_ap(struct sim *m, uint32_t i)
{
    pthread_create(&m->threads[i], NULL, ap_thread, m->smp.cpu[i]);
    m->started[i] = true;
    while (load_acquire(&m->smp.cpu[i]->checkin) != CHECKIN_DONE)
        sched_yield();
}

void sim_shutdown(struct sim *m)
{
    uint32_t i;
    store_release(&m->smp.releasing, 1);
    for (i = 1; i < m->ncpus; i++)
        if (m->started[i])
            smp_post(&m->smp, i, CMD_RELEASE, NULL, NULL);
    for (i = 1; i < m->ncpus; i++)
        if (m->started[i])
            pthread_join(m->threads[i], NULL);
    for (i = 0; i < m->ncpus; i++)
        free(m->fake[i]);
    fake_cpu_bind(NULL);
    current_sim = NULL;
}
