#include "tests/host/support_sim.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "asm/apic.h"
#include "asm/cpu.h"
#include "asm/trap.h"
#include "core/lib/atomic.h"
#include "core/run/verify_collect.h"
#include "core/machine/ipi.h"
#include "core/machine/shootdown.h"
#include "core/machine/timing.h"

void sim_init_apic(struct sim *m, uint32_t n, uint32_t timeout_ms, const struct tlbm_config *cfg,
                   const struct sim_lapic_config *apic, enum apic_mode mode, bool icr_fence)
{
    memset(m, 0, sizeof(*m));
    host_init();
    m->ncpus = n;
    config_defaults(&m->cfg);
    if (!sim_machine_init(&m->mach, n, cfg, 2, n)) /* pairs of SMT siblings, one package */
        abort();
    sim_machine_set_apic(&m->mach, apic, cfg->seed);
    timing_set_tsc_hz(sim_calibrate_tsc());
    smp_init(&m->smp, &m->mach.topo, m->cfg.inject, m->cfg.inject_count, ms_to_ticks(timeout_ms));
    m->smp.run_deadline = tsc_now() + ms_to_ticks(60000);
    pt_init(&m->pt, 4, false, host_alloc_table, NULL);
    testmem_init(&m->tm, &m->pt, host_alloc_frames, NULL);
    tlbm_add_spec_range(&m->mach.model, TEST_VA_BASE, TEST_PAGES, PAGE_4K);
    tlbm_add_spec_range(&m->mach.model, TEST_2M_VA_BASE, TEST_2M_PAGES, PAGE_2M);
    m->env.cr3 = (uint64_t)(uintptr_t)m->pt.root;
    m->env.pcide = cfg->feat.pcid;
    m->env.kernel_pcid = cfg->feat.pcid ? 1 : 0;
    m->env.apic_mode = mode;
    m->env.xapic_base = m->mach.lapic[0].base & ~0xfffull;
    apic_set_icr_fence(icr_fence);
    if (!takeover_init(&m->takeover, &m->smp, &m->env, NULL))
        abort();
    ipi_install_handlers();
    shootdown_install_handlers();
    sim_bind(&m->mach, 0, NULL);
    takeover_bsp_enter(&m->takeover);
    irq_enable();
}

void sim_init_model(struct sim *m, uint32_t n, uint32_t timeout_ms, const struct tlbm_config *cfg)
{
    /* Intel-like APICs handed over in xAPIC mode, the tool in x2APIC with the fence */
    const struct sim_lapic_config apic = { true, false, false };
    sim_init_apic(m, n, timeout_ms, cfg, &apic, APIC_MODE_X2APIC, true);
}

void sim_init(struct sim *m, uint32_t n, uint32_t timeout_ms)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    sim_init_model(m, n, timeout_ms, &cfg);
}

void sim_start(struct sim *m, uint32_t i)
{
    if (!sim_start_ap(&m->mach, &m->takeover, i))
        abort();
    while (load_acquire(&m->smp.cpu[i]->checkin) != CHECKIN_DONE)
        sched_yield();
}

uint32_t sim_shutdown(struct sim *m)
{
    uint32_t violations;
    takeover_release(&m->takeover, tsc_now() + 2 * m->smp.timeout_ticks + ms_to_ticks(100));
    sim_join_all(&m->mach);
    takeover_bsp_leave(&m->takeover);
    sim_check_handback(&m->mach);
    violations = m->mach.model.violations;
    sim_unbind();
    mem_free(m->takeover.fw);
    smp_release_memory(&m->smp);
    sim_machine_free(&m->mach);
    return violations;
}

const struct tlbm_counts *sim_counts(struct sim *m, uint32_t i) { return &m->mach.model.cpu[i]->n; }

uint64_t sim_reads_now(struct sim *m)
{
    uint64_t sum = 0;
    for (uint32_t i = 0; i < m->ncpus; i++) {
        struct tlbm_cpu *c = m->mach.model.cpu[i];
        pthread_mutex_lock(&c->lock); /* each CPU counts its reads under its own lock */
        sum += c->n.reads;
        pthread_mutex_unlock(&c->lock);
    }
    return sum;
}

void sim_clear_counts(struct sim *m)
{
    for (uint32_t i = 0; i < m->ncpus; i++)
        tlbm_clear_counts(&m->mach.model, i);
}

void sim_bench_start(struct sim_bench *b, uint32_t n, const struct tlbm_config *cfg,
                     uint32_t ceiling)
{
    uint32_t i;
    memset(b, 0, sizeof(*b));
    sim_init_model(&b->m, n, 2000, cfg);
    for (i = 1; i < n; i++)
        sim_start(&b->m, i);
    b->run.cfg = b->m.cfg;
    b->r.run = &b->run;
    b->r.smp = &b->m.smp;
    if (!shootdown_init(&b->sd, &b->m.smp, &b->m.tm, ceiling) || !target_set_init(&b->ts, n))
        abort();
    b->sd.cr3_root = b->m.env.cr3;
    if (cfg->feat.pcid) {
        /* Linux's numbering, as core/run/method.c picks it */
        b->sd.kernel_pcid = b->m.env.kernel_pcid;
        b->sd.user_pcid = b->sd.kernel_pcid | 0x800;
        b->sd.pcid_enabled = true;
    }
    for (i = 1; i < n; i++)
        b->ts.cpus[b->ts.n++] = i;
    if (!shootdown_sync_all(&b->sd))
        abort();
    target_set_start(&b->r, &b->ts);
}

uint32_t sim_bench_stop(struct sim_bench *b, struct experiment_record *rec)
{
    memset(rec, 0, sizeof(*rec));
    target_set_stop(&b->r, &b->ts);
    shootdown_collect(&b->sd, rec);
    target_set_release(&b->ts);
    shootdown_release(&b->sd);
    return sim_shutdown(&b->m);
}
