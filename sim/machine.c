#include "sim/machine.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "asm/cpu.h"
#include "asm/trap.h"
#include "sim/hostcpu.h"
#include "sim/hostdesc.h"
#include "sim/storebuf.h"

/* the modelled firmware's GDT, with OVMF's selectors: 64-bit code at 0x38, data at 0x30 */
static const uint64_t fw_gdt[8] = { 0, 0x00cf92000000ffffull, 0x00cf9a000000ffffull, 0, 0,
                                    0, 0x00cf93000000ffffull, 0x00af9b000000ffffull };

bool sim_machine_init(struct sim_machine *m, uint32_t n, const struct tlbm_config *cfg,
                      uint32_t threads, uint32_t cores)
{
    struct sim_lapic_config apic = { true, false, false };
    uint32_t i;
    memset(m, 0, sizeof(*m));
    if (n == 0 || n > TLBM_MAX_CPUS || !tlbm_init(&m->model, cfg, n))
        return false;
    if (threads == 0)
        threads = 1;
    if (cores == 0)
        cores = n;
    m->ncpus = n;
    m->topo.count = n;
    m->topo.cpus = m->infos;
    memcpy(m->firmware_gdt, fw_gdt, sizeof(fw_gdt));
    sim_firmware_idt(m->firmware_idt, SIM_FIRMWARE_CS);
    m->pic_mask[0] = SIM_FIRMWARE_PIC_MASTER;
    m->pic_mask[1] = SIM_FIRMWARE_PIC_SLAVE;
    for (i = 0; i < n; i++) {
        struct cpu_info *c = &m->infos[i];
        struct sim_cpu_regs *r = &m->regs[i];
        c->index = i;
        c->apic_id = i;
        c->thread = i % threads;
        c->core = (i / threads) % cores;
        c->package = i / (threads * cores);
        c->bsp = i == 0;
        c->numa_node = -1;
        c->state = CPU_OK;
        r->gdtr = (struct desc_ptr){ sizeof(m->firmware_gdt) - 1,
                                     (uint64_t)(uintptr_t)m->firmware_gdt };
        r->idtr = (struct desc_ptr){ sizeof(m->firmware_idt) - 1,
                                     (uint64_t)(uintptr_t)m->firmware_idt };
        r->cs = SIM_FIRMWARE_CS;
        r->ds = r->es = r->ss = SIM_FIRMWARE_DS;
    }
    lapic_reset_all(m, &apic, cfg->seed);
    return true;
}

bool sim_machine_shape(struct sim_machine *m, const struct sim_shape *sh)
{
    uint32_t i, per_l3, per_pkg, per_node = 0;
    if (!sh->packages || !sh->l3s || !sh->cores_per_l3 || !sh->threads ||
        (uint64_t)sh->packages * sh->l3s * sh->cores_per_l3 * sh->threads != m->ncpus)
        return false;
    per_l3 = sh->cores_per_l3 * sh->threads;
    per_pkg = sh->l3s * per_l3;
    /* more nodes than packages: sub-NUMA nodes (SNC2/4, NPS2/4), each a run of whole cores */
    if (sh->nodes > sh->packages) {
        if (sh->nodes % sh->packages || (per_pkg / sh->threads) % (sh->nodes / sh->packages))
            return false;
        per_node = per_pkg / (sh->nodes / sh->packages);
    } else if (sh->nodes && sh->packages % sh->nodes) {
        return false;
    }
    for (i = 0; i < m->ncpus; i++) {
        struct cpu_info *c = &m->infos[i];
        c->thread = i % sh->threads;
        c->core = (i % per_pkg) / sh->threads;
        c->package = i / per_pkg;
        c->l3 = i / per_l3;
        c->l3_known = true;
        if (per_node)
            c->numa_node = (int32_t)(i / per_node);
        else
            c->numa_node = sh->nodes ? (int32_t)(c->package / (sh->packages / sh->nodes)) : -1;
    }
    return true;
}

bool sim_shape_parse(const char *s, struct sim_shape *out)
{
    uint32_t v[4], i;
    for (i = 0; i < 4; i++) {
        char *end;
        unsigned long n = strtoul(s, &end, 10);
        if (end == s || n == 0 || n > TLBM_MAX_CPUS || (i < 3 ? *end != 'x' : *end != 0))
            return false;
        v[i] = (uint32_t)n;
        s = end + 1;
    }
    out->packages = v[0];
    out->l3s = v[1];
    out->cores_per_l3 = v[2];
    out->threads = v[3];
    out->nodes = v[0]; /* one node per package, as a 2-socket server in NPS1 / without SNC */
    return true;
}

void sim_machine_free(struct sim_machine *m)
{
    sim_sb_reset();
    tlbm_free(&m->model);
}

void sim_machine_set_apic(struct sim_machine *m, const struct sim_lapic_config *cfg, uint64_t seed)
{
    lapic_reset_all(m, cfg, seed);
}

void sim_machine_set_cpuid(struct sim_machine *m, sim_cpuid_fn fn, void *ctx)
{
    m->cpuid = fn;
    m->cpuid_ctx = ctx;
}

/* ---- interrupts ---- */

/* Like an interrupt gate: the handler runs with interrupts off, never nested. */
void sim_poll_interrupts(void)
{
    struct sim_machine *m = sim_current_machine();
    uint32_t cpu = sim_current_cpu();
    int v;
    if (!m || sim_in_handler() || !irq_enabled())
        return;
    while ((v = lapic_accept(m, cpu)) >= 0) {
        sim_set_in_handler(true);
        sim_deliver_interrupt(m, cpu, (uint8_t)v);
        sim_set_in_handler(false);
    }
}

/* ---- threads ---- */

struct thread_start {
    void *(*fn)(void *);
    void *arg;
};

bool sim_start_thread(struct sim_machine *m, uint32_t cpu, void *(*fn)(void *), void *arg)
{
    if (cpu >= m->ncpus || m->started[cpu])
        return false;
    if (pthread_create(&m->threads[cpu], NULL, fn, arg) != 0)
        return false;
    m->started[cpu] = true;
    return true;
}

void sim_join_all(struct sim_machine *m)
{
    uint32_t i;
    __atomic_store_n(&m->stopping, 1, __ATOMIC_RELEASE);
    for (i = 0; i < m->ncpus; i++) {
        if (m->started[i]) {
            pthread_join(m->threads[i], NULL);
            m->started[i] = false;
        }
    }
    sim_sb_reset(); /* nothing the threads stored stays pending over memory that may go */
}

/* ---- the hand-back ---- */

static bool same_ptr(const struct desc_ptr *a, const struct desc_ptr *b)
{
    return a->limit == b->limit && a->base == b->base;
}

void sim_check_handback(struct sim_machine *m)
{
    struct desc_ptr fw_gdtr = { sizeof(m->firmware_gdt) - 1, (uint64_t)(uintptr_t)m->firmware_gdt };
    struct desc_ptr fw_idtr = { sizeof(m->firmware_idt) - 1, (uint64_t)(uintptr_t)m->firmware_idt };
    uint32_t c;
    for (c = 0; c < m->ncpus; c++) {
        const struct sim_cpu_regs *r = &m->regs[c];
        const struct tlbm_cpu *t = m->model.cpu[c];
        if (m->stopped[c])
            continue;
        if (!same_ptr(&r->gdtr, &fw_gdtr) || !same_ptr(&r->idtr, &fw_idtr))
            tlbm_violation(&m->model, c, "handed back with GDT 0x%llx, IDT 0x%llx loaded (not the "
                                         "firmware's)", (unsigned long long)r->gdtr.base,
                           (unsigned long long)r->idtr.base);
        if (r->cs != SIM_FIRMWARE_CS || r->ds != SIM_FIRMWARE_DS || r->es != SIM_FIRMWARE_DS ||
            r->ss != SIM_FIRMWARE_DS)
            tlbm_violation(&m->model, c, "handed back with CS 0x%x DS 0x%x ES 0x%x SS 0x%x",
                           r->cs, r->ds, r->es, r->ss);
        if (r->gs_base)
            tlbm_violation(&m->model, c, "handed back with GS base 0x%llx (the firmware's: 0)",
                           (unsigned long long)r->gs_base);
        /* the firmware's CR4 as tlbm_init() set it: PGE, and LA57 under a 5-level firmware */
        if (t->cr3 != 0 ||
            t->cr4 != ((m->model.cfg.feat.pge ? CR4_PGE : 0) | (m->model.cfg.la57 ? CR4_LA57 : 0)))
            tlbm_violation(&m->model, c, "handed back with CR3 0x%llx CR4 0x%llx",
                           (unsigned long long)t->cr3, (unsigned long long)t->cr4);
        if (t->efer != TLBM_EFER_FIRMWARE)
            tlbm_violation(&m->model, c, "handed back with EFER 0x%llx (the firmware's: 0x%llx)",
                           (unsigned long long)t->efer, (unsigned long long)TLBM_EFER_FIRMWARE);
        if (m->de_cfg[c] != 0)
            tlbm_violation(&m->model, c, "handed back with DE_CFG 0x%llx (the firmware's: 0)",
                           (unsigned long long)m->de_cfg[c]);
        lapic_check_handback(m, c);
    }
    if (m->pic_mask[0] != SIM_FIRMWARE_PIC_MASTER || m->pic_mask[1] != SIM_FIRMWARE_PIC_SLAVE)
        tlbm_violation(&m->model, 0, "handed back with 8259 masks 0x%02x 0x%02x", m->pic_mask[0],
                       m->pic_mask[1]);
}

/* ---- exceptions ---- */

void sim_raise_exception(uint32_t vector, uint64_t rip)
{
    struct trap_frame f;
    memset(&f, 0, sizeof(f));
    f.vector = vector;
    f.rip = rip;
    if (!sim_current_machine()) {
        fprintf(stderr, "tlbscope-sim: exception %u on a thread that plays no CPU\n", vector);
        exit(2);
    }
    sim_deliver_exception(sim_current_machine(), sim_current_cpu(), &f); /* returns when the handler let the code go on */
}
