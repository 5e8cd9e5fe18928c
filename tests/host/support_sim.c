#include "tests/host/support_sim.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "arch/x86/cpu.h"
#include "arch/x86/trap.h"
#include "core/atomic.h"
#include "core/ipi.h"
#include "core/shootdown.h"
#include "core/timing.h"

void sim_init_model(struct sim *m, uint32_t n, uint32_t timeout_ms, const struct tlbm_config *cfg)
{
    memset(m, 0, sizeof(*m));
    host_init();
    m->ncpus = n;
    config_defaults(&m->cfg);
    if (!sim_machine_init(&m->mach, n, cfg, 2, n)) /* pairs of SMT siblings, one package */
        abort();
    timing_set_tsc_hz(sim_calibrate_tsc());
    smp_init(&m->smp, &m->mach.topo, &m->cfg, ms_to_ticks(timeout_ms));
    m->smp.run_deadline = tsc_now() + ms_to_ticks(60000);
    ipi_install_handlers();
    shootdown_install_handlers();
    trap_set_exception_hook(smp_record_fault);
    pt_init(&m->pt, 4, false, host_alloc_table, NULL);
    testmem_init(&m->tm, &m->pt, host_alloc_frames, NULL);
    tlbm_add_spec_range(&m->mach.model, TEST_VA_BASE, TEST_PAGES, PAGE_4K);
    tlbm_add_spec_range(&m->mach.model, TEST_2M_VA_BASE, TEST_2M_PAGES, PAGE_2M);
    m->mach.env.cr3_root = (uint64_t)(uintptr_t)m->pt.root;
    m->mach.env.pcide = cfg->feat.pcid;
    m->mach.env.kernel_pcid = cfg->feat.pcid ? 1 : 0;
    sim_bind(&m->mach, 0, &m->smp.cpu[0]->arch);
    sim_enter_env(&m->mach.env);
    irq_enable();
}

void sim_init(struct sim *m, uint32_t n, uint32_t timeout_ms)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    sim_init_model(m, n, timeout_ms, &cfg);
}

void sim_start(struct sim *m, uint32_t i)
{
    if (!sim_start_ap(&m->mach, &m->smp, i))
        abort();
    while (load_acquire(&m->smp.cpu[i]->checkin) != CHECKIN_DONE)
        sched_yield();
}

void sim_shutdown(struct sim *m)
{
    smp_release_aps(&m->smp, tsc_now() + 2 * m->smp.timeout_ticks + ms_to_ticks(100));
    sim_join_all(&m->mach);
    sim_leave_env(&m->mach.env);
    sim_unbind();
    smp_release_memory(&m->smp);
    sim_machine_free(&m->mach);
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
    b->sd.cr3_root = b->m.mach.env.cr3_root;
    if (cfg->feat.pcid) {
        /* Linux's numbering, as core/method.c picks it */
        b->sd.kernel_pcid = b->m.mach.env.kernel_pcid;
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
    uint32_t violations = b->m.mach.model.violations;
    memset(rec, 0, sizeof(*rec));
    target_set_stop(&b->r, &b->ts);
    shootdown_collect(&b->sd, rec);
    target_set_release(&b->ts);
    shootdown_release(&b->sd);
    sim_shutdown(&b->m);
    return violations;
}
