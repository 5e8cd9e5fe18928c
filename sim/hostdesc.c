#include "sim/hostdesc.h"

#include <string.h>

#include "asm/cpu.h"
#include "sim/hostcpu.h"
#include "sim/machine.h"

/*
 * The tool's IDT points every vector at entry.S's stubs; on the host only
 * their addresses exist, and a gate that points at stub v is the tool's
 * handler for v (trap_dispatch). The firmware's gates point at
 * firmware_handlers.
 */
char trap_stubs[256 * TRAP_STUB_SIZE];
static char firmware_handlers[256];

#define GATE_INTERRUPT 0x8e /* present, DPL0, 64-bit interrupt gate */
#define SEG_CODE64(d) (((d) >> 47 & 1) && ((d) >> 43 & 1) && ((d) >> 53 & 1)) /* P, code, L */

static struct sim_cpu_regs *regs(void)
{
    struct sim_machine *m = sim_current_machine();
    return m ? &m->regs[sim_current_cpu()] : NULL;
}

void sim_firmware_idt(struct idt_gate *idt, uint16_t cs)
{
    unsigned v;
    for (v = 0; v < 256; v++) {
        uint64_t h = (uint64_t)(uintptr_t)&firmware_handlers[v];
        idt[v] = (struct idt_gate){ (uint16_t)h, cs, 0, GATE_INTERRUPT, (uint16_t)(h >> 16),
                                    (uint32_t)(h >> 32), 0 };
    }
}

/* ---- the instructions of arch/x86/include/asm/desc.h ---- */

void store_gdtr(struct desc_ptr *p)
{
    struct sim_cpu_regs *r = regs();
    *p = r ? r->gdtr : (struct desc_ptr){ 0, 0 };
}

void store_idtr(struct desc_ptr *p)
{
    struct sim_cpu_regs *r = regs();
    *p = r ? r->idtr : (struct desc_ptr){ 0, 0 };
}

void load_idtr(const struct desc_ptr *p)
{
    struct sim_cpu_regs *r = regs();
    lapic_drain_stores(); /* LIDT serialises */
    if (r)
        r->idtr = *p;
}

uint16_t read_cs(void) { return regs() ? regs()->cs : 0; }
uint16_t read_ds(void) { return regs() ? regs()->ds : 0; }
uint16_t read_es(void) { return regs() ? regs()->es : 0; }
uint16_t read_ss(void) { return regs() ? regs()->ss : 0; }

void write_es(uint16_t sel)
{
    if (regs())
        regs()->es = sel;
}

void write_ss(uint16_t sel)
{
    if (regs())
        regs()->ss = sel;
}

/* entry.S: LGDT, a far return into `cs`, then DS, ES and SS */
void gdt_switch(const struct desc_ptr *gdtr, uint64_t cs, uint64_t ds)
{
    struct sim_machine *m = sim_current_machine();
    struct sim_cpu_regs *r = regs();
    lapic_drain_stores(); /* LGDT serialises */
    if (!r)
        return;
    r->gdtr = *gdtr;
    if ((cs & ~7ull) + 7 > gdtr->limit ||
        !SEG_CODE64(((const uint64_t *)(uintptr_t)gdtr->base)[cs >> 3]))
        tlbm_violation(&m->model, sim_current_cpu(),
                       "#GP: far return to CS 0x%llx, not a 64-bit code segment of the GDT at "
                       "0x%llx", (unsigned long long)cs, (unsigned long long)gdtr->base);
    r->cs = (uint16_t)cs;
    r->ds = r->es = r->ss = (uint16_t)ds;
}

/* ---- delivery through the IDT ---- */

enum gate_kind { GATE_TOOL, GATE_FIRMWARE, GATE_BROKEN };

static enum gate_kind gate_of(struct sim_machine *m, uint32_t c, uint8_t v)
{
    const struct sim_cpu_regs *r = &m->regs[c];
    const struct idt_gate *g;
    uint64_t handler, code;
    if ((uint32_t)v * 16 + 15 > r->idtr.limit || !r->idtr.base) {
        tlbm_violation(&m->model, c, "vector 0x%02x: beyond the IDT limit 0x%x (#GP, then a "
                                     "double fault)", v, r->idtr.limit);
        return GATE_BROKEN;
    }
    g = (const struct idt_gate *)(uintptr_t)(r->idtr.base + (uint64_t)v * 16);
    if (!(g->type_attr & 0x80)) {
        tlbm_violation(&m->model, c, "vector 0x%02x: its IDT gate is not present (#NP)", v);
        return GATE_BROKEN;
    }
    code = (g->selector & ~7u) + 7 <= r->gdtr.limit
               ? ((const uint64_t *)(uintptr_t)r->gdtr.base)[g->selector >> 3]
               : 0;
    if (!SEG_CODE64(code)) {
        tlbm_violation(&m->model, c, "vector 0x%02x: gate selector 0x%x is no 64-bit code "
                                     "segment of the loaded GDT (#GP)", v, g->selector);
        return GATE_BROKEN;
    }
    handler = g->offset_lo | (uint64_t)g->offset_mid << 16 | (uint64_t)g->offset_hi << 32;
    if (handler == (uint64_t)(uintptr_t)&trap_stubs[(uint32_t)v * TRAP_STUB_SIZE] &&
        g->type_attr == GATE_INTERRUPT)
        return GATE_TOOL;
    return GATE_FIRMWARE;
}

void sim_deliver_interrupt(struct sim_machine *m, uint32_t c, uint8_t v)
{
    struct trap_frame f;
    switch (gate_of(m, c, v)) {
    case GATE_TOOL:
        memset(&f, 0, sizeof(f));
        f.vector = v;
        f.cs = m->regs[c].cs;
        f.rflags = 0x202; /* interrupts were on */
        hostcpu_set_if(false);
        trap_dispatch(&f);
        lapic_drain_stores(); /* the iretq serialises */
        hostcpu_set_if(true); /* the iretq */
        return;
    case GATE_FIRMWARE:
        tlbm_violation(&m->model, c,
                       "vector 0x%02x delivered through the firmware's IDT: its handler never "
                       "EOIs it, the vector stays in service", v);
        return;
    case GATE_BROKEN:
        return;
    }
}

void sim_deliver_exception(struct sim_machine *m, uint32_t c, struct trap_frame *f)
{
    uint64_t rip = f->rip;
    bool was_on = irq_enabled();
    switch (gate_of(m, c, (uint8_t)f->vector)) {
    case GATE_TOOL:
        f->cs = m->regs[c].cs;
        f->rflags = 0x2 | (was_on ? 0x200 : 0);
        hostcpu_set_if(false);
        trap_dispatch(f); /* stops the CPU (cpu_stop) when nobody takes it */
        if (f->rip != rip)
            hostcpu_iret(f); /* resumes at the recovery point */
        lapic_drain_stores(); /* the iretq serialises */
        hostcpu_set_if(was_on);
        return;
    case GATE_FIRMWARE:
        tlbm_violation(&m->model, c, "exception %u taken through the firmware's IDT",
                       (unsigned)f->vector);
        sim_stop_cpu();
    case GATE_BROKEN:
        sim_stop_cpu();
    }
}

void sim_check_probe_context(struct sim_machine *m, uint32_t c, const char *what, uint32_t msr)
{
    if (gate_of(m, c, 13) != GATE_TOOL)
        tlbm_violation(&m->model, c,
                       "%s of MSR 0x%x probed outside the tool's state: a fault would be taken "
                       "through the firmware's IDT, and the recovery slot written through its GS",
                       what, (unsigned)msr);
}
