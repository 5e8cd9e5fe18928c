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

/* Selectors of the tool's GDT: null, 64-bit code, data (then asm/ring3.h's user ones and TSS). */
#define TOOL_CS 0x08
#define TOOL_DS 0x10

struct seg_state {
    struct desc_ptr gdtr, idtr;
    uint16_t cs, ds, es, ss;
};

/*
 * The descriptor-table and segment-register instructions. On the host they
 * act on the modelled CPU the calling thread plays (sim/hostdesc.c).
 */
#ifdef TLBSCOPE_HOST
void store_gdtr(struct desc_ptr *p);
void store_idtr(struct desc_ptr *p);
void load_idtr(const struct desc_ptr *p);
uint16_t read_cs(void);
uint16_t read_ds(void);
uint16_t read_es(void);
uint16_t read_ss(void);
void write_es(uint16_t sel);
void write_ss(uint16_t sel);
#else
static inline void store_gdtr(struct desc_ptr *p) { __asm__ volatile("sgdt %0" : "=m"(*p)); }
static inline void store_idtr(struct desc_ptr *p) { __asm__ volatile("sidt %0" : "=m"(*p)); }
static inline void load_idtr(const struct desc_ptr *p)
{
    __asm__ volatile("lidt %0" ::"m"(*p) : "memory");
}
#define SEG_READER(name, reg)                                                                      \
    static inline uint16_t name(void)                                                              \
    {                                                                                              \
        uint16_t v;                                                                                \
        __asm__ volatile("mov %%" reg ", %0" : "=r"(v));                                           \
        return v;                                                                                  \
    }
SEG_READER(read_cs, "cs")
SEG_READER(read_ds, "ds")
SEG_READER(read_es, "es")
SEG_READER(read_ss, "ss")
#undef SEG_READER
static inline void write_es(uint16_t sel) { __asm__ volatile("mov %0, %%es" ::"r"((uint64_t)sel)); }
static inline void write_ss(uint16_t sel) { __asm__ volatile("mov %0, %%ss" ::"r"((uint64_t)sel)); }
#endif

/* Fills the tool's IDT (all 256 vectors go through entry.S stubs). Once. */
void desc_init(void);
void desc_save(struct seg_state *s);
/* Loads the tool's GDT (reloading CS/DS/ES/SS) and IDT. FS and GS are not
 * touched: loading GS would clear the GS base that points at the per-CPU block. */
void desc_load_tool(void);
void desc_restore(const struct seg_state *s);
/* The tool GDT's TSS descriptor (asm/ring3.h): set available at base/limit; busy bit cleared. */
void desc_set_tss(uint64_t base, uint32_t limit);
void desc_tss_available(void);

/* entry.S (on the host: sim/hostdesc.c) */
void gdt_switch(const struct desc_ptr *gdtr, uint64_t cs, uint64_t ds);
extern char trap_stubs[];
#define TRAP_STUB_SIZE 16

#endif
