#include "asm/desc.h"

/*
 * Flat 64-bit code and data descriptors (Intel SDM vol. 3A, 3.4.5 and 5.2.1):
 * code 0x00af9a000000ffff = present, DPL0, code exec/read, L=1;
 * data 0x00cf92000000ffff = present, DPL0, data read/write, 4 GiB limit.
 */
static const uint64_t tool_gdt[3] __attribute__((aligned(16))) = {
    0,
    0x00af9a000000ffffull,
    0x00cf92000000ffffull,
};

static struct idt_gate tool_idt[256];

void desc_init(void)
{
    unsigned v;
    for (v = 0; v < 256; v++) {
        uint64_t handler = (uint64_t)(uintptr_t)trap_stubs + (uint64_t)v * TRAP_STUB_SIZE;
        struct idt_gate *g = &tool_idt[v];
        g->offset_lo = (uint16_t)handler;
        g->selector = TOOL_CS;
        g->ist = 0;
        /* 0x8e: present, DPL0, 64-bit interrupt gate (IF cleared on entry) */
        g->type_attr = 0x8e;
        g->offset_mid = (uint16_t)(handler >> 16);
        g->offset_hi = (uint32_t)(handler >> 32);
        g->reserved = 0;
    }
}

void desc_save(struct seg_state *s)
{
    store_gdtr(&s->gdtr);
    store_idtr(&s->idtr);
    s->cs = read_cs();
    s->ds = read_ds();
    s->es = read_es();
    s->ss = read_ss();
}

void desc_load_tool(void)
{
    struct desc_ptr gdtr = { sizeof(tool_gdt) - 1, (uint64_t)(uintptr_t)tool_gdt };
    struct desc_ptr idtr = { sizeof(tool_idt) - 1, (uint64_t)(uintptr_t)tool_idt };
    gdt_switch(&gdtr, TOOL_CS, TOOL_DS);
    load_idtr(&idtr);
}

void desc_restore(const struct seg_state *s)
{
    load_idtr(&s->idtr);
    gdt_switch(&s->gdtr, s->cs, s->ds);
    write_es(s->es);
    write_ss(s->ss);
}
