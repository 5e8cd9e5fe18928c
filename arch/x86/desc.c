#include "asm/desc.h"
#include "asm/ring3.h"

/*
 * Flat 64-bit code and data descriptors (Intel SDM vol. 3A, 3.4.5 and 5.2.1):
 * code 0x00af9a000000ffff = present, DPL0, code exec/read, L=1;
 * data 0x00cf92000000ffff = present, DPL0, data read/write, 4 GiB limit;
 * the same at DPL3 (0x...fa..., 0x...f2...) for the CPL 3 loop (asm/ring3.h),
 * then its 16-byte TSS descriptor (SDM vol. 3A, 8.2.3), filled by desc_set_tss().
 */
static uint64_t tool_gdt[7] __attribute__((aligned(16))) = {
    0,
    0x00af9a000000ffffull,
    0x00cf92000000ffffull,
    0x00affa000000ffffull,
    0x00cff2000000ffffull,
    0,
    0,
};

#define TSS_SLOT (TOOL_TSS / 8)
#define TSS_TYPE_SHIFT 40

void desc_set_tss(uint64_t base, uint32_t limit)
{
    /* present, DPL0, type 9: available 64-bit TSS */
    tool_gdt[TSS_SLOT] = (limit & 0xffffull) | ((base & 0xffffffull) << 16) |
                         (0x89ull << TSS_TYPE_SHIFT) | ((uint64_t)((limit >> 16) & 0xf) << 48) |
                         (((base >> 24) & 0xffull) << 56);
    tool_gdt[TSS_SLOT + 1] = base >> 32;
}

void desc_tss_available(void) { tool_gdt[TSS_SLOT] &= ~(2ull << TSS_TYPE_SHIFT); }

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
        /* 0x8e: present, DPL0, 64-bit interrupt gate (IF cleared on entry); the
         * CPL 3 loop's way back is the one gate code at CPL 3 may INT (0xee: DPL3) */
        g->type_attr = v == RING3_EXIT_VECTOR ? 0xee : 0x8e;
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
