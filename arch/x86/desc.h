/*
 * GDT and IDT: the tool's own descriptor tables, loaded on every CPU during
 * the measurement phase, and the firmware's, saved and restored around it.
 */
#ifndef TLBSCOPE_ARCH_X86_DESC_H
#define TLBSCOPE_ARCH_X86_DESC_H

#include <stdint.h>

struct __attribute__((packed)) desc_ptr {
    uint16_t limit;
    uint64_t base;
};

struct __attribute__((packed, aligned(16))) idt_gate {
    uint16_t offset_lo;
    uint16_t selector;
    uint8_t ist;
    uint8_t type_attr;
    uint16_t offset_mid;
    uint32_t offset_hi;
    uint32_t reserved;
};

/* Selectors of the tool's GDT: null, 64-bit code, data. */
#define TOOL_CS 0x08
#define TOOL_DS 0x10

struct seg_state {
    struct desc_ptr gdtr, idtr;
    uint16_t cs, ds, es, ss;
};

/* Fills the tool's IDT (all 256 vectors go through entry.S stubs). Once. */
void desc_init(void);
void desc_save(struct seg_state *s);
/* Loads the tool's GDT (reloading CS/DS/ES/SS) and IDT. FS and GS are not
 * touched: loading GS would clear the GS base that points at the per-CPU block. */
void desc_load_tool(void);
void desc_restore(const struct seg_state *s);

/* entry.S */
void gdt_switch(const struct desc_ptr *gdtr, uint64_t cs, uint64_t ds);
extern char trap_stubs[];
#define TRAP_STUB_SIZE 16

#endif
