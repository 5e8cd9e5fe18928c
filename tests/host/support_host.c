/*
 * Host stand-ins for what the UEFI build gets from firmware and hardware:
 * the allocator (malloc) and the privileged instructions of arch/x86/cpu.h.
 * The fakes record what the protocols asked for so tests can assert on it.
 */
#include "tests/host/support_host.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "core/mem.h"

static void *host_alloc(size_t n) { return malloc(n); }
static void host_free(void *p) { free(p); }
static const struct mem_ops host_ops = { host_alloc, host_free };

void host_init(void) { mem_set_ops(&host_ops); }

static _Thread_local struct fake_cpu *current_cpu;
static _Thread_local bool irq_on;

void fake_cpu_bind(struct fake_cpu *c) { current_cpu = c; }
struct fake_cpu *fake_cpu_current(void) { return current_cpu; }

void cpu_relax(void)
{
    if (current_cpu && current_cpu->poll && irq_on)
        current_cpu->poll(current_cpu);
    sched_yield();
}

void irq_disable(void) { irq_on = false; }
void irq_enable(void) { irq_on = true; }
bool irq_enabled(void) { return irq_on; }

void cpu_halt_until_irq(void)
{
    irq_on = true;
    cpu_relax();
}

uint64_t read_cr2(void) { return 0; }

uint64_t read_cr3(void) { return current_cpu ? current_cpu->cr3 : 0; }

static void tlb_drop_all(struct fake_cpu *c)
{
    for (unsigned i = 0; i < FAKE_TLB_ENTRIES; i++)
        c->tlb[i].valid = false;
}

void write_cr3(uint64_t v)
{
    if (current_cpu) {
        current_cpu->cr3 = v;
        if (!(v >> 63)) /* NOFLUSH keeps the entries */
            tlb_drop_all(current_cpu);
        __atomic_add_fetch(&current_cpu->full_flushes, 1, __ATOMIC_RELAXED);
    }
}

uint64_t read_cr4(void) { return current_cpu ? current_cpu->cr4 : 0; }
void write_cr4(uint64_t v)
{
    if (current_cpu)
        current_cpu->cr4 = v;
}

static void tlb_drop(struct fake_cpu *c, uint64_t va)
{
    struct fake_tlb_entry *e = &c->tlb[(va >> 12) % FAKE_TLB_ENTRIES];
    if (e->valid && e->va_page == (va >> 12))
        e->valid = false;
}

void invlpg(const volatile void *va)
{
    struct fake_cpu *c = current_cpu;
    if (!c)
        return;
    tlb_drop(c, (uint64_t)(uintptr_t)va);
    if (c->invlpg_count < FAKE_MAX_INVLPG)
        c->invlpg_log[c->invlpg_count] = (uint64_t)(uintptr_t)va;
    __atomic_add_fetch(&c->invlpg_count, 1, __ATOMIC_RELAXED);
}

uint64_t rdmsr(uint32_t msr)
{
    return current_cpu && msr < FAKE_MSRS ? current_cpu->msr[msr] : 0;
}

void wrmsr(uint32_t msr, uint64_t value)
{
    if (current_cpu && msr < FAKE_MSRS)
        current_cpu->msr[msr] = value;
}

/* ---- APIC, IDT and per-CPU stand-ins: IPIs become flags polled in cpu_relax() ---- */
#include "arch/x86/apic.h"
#include "arch/x86/fault.h"
#include "arch/x86/percpu.h"
#include "arch/x86/trap.h"

static _Thread_local struct arch_percpu *current_percpu;
static irq_handler fake_irq_handlers[256];
static fake_ipi_sink ipi_sink;

struct arch_percpu *this_arch_percpu(void) { return current_percpu; }
void set_arch_percpu(struct arch_percpu *p) { current_percpu = p; }
void fake_set_ipi_sink(fake_ipi_sink sink) { ipi_sink = sink; }
void trap_set_irq_handler(uint8_t vector, irq_handler h) { fake_irq_handlers[vector] = h; }
void fake_deliver_irq(uint8_t vector)
{
    struct trap_frame f = { 0 };
    f.vector = vector;
    if (fake_irq_handlers[vector])
        fake_irq_handlers[vector](&f);
}

bool apic_send_ipi(uint32_t dest, uint8_t vector)
{
    if (ipi_sink)
        ipi_sink(dest, vector);
    return true;
}

bool apic_send_ipi_all_but_self(uint8_t vector)
{
    if (ipi_sink)
        ipi_sink(UINT32_MAX, vector);
    return true;
}

void apic_eoi(void) {}
void apic_arm_heartbeat(uint8_t vector, uint32_t counts)
{
    (void)vector;
    (void)counts;
}
void apic_disarm_heartbeat(void) {}
int arch_setjmp(struct arch_jmpbuf *jb)
{
    (void)jb;
    return 0; /* host tests never resume at a recovery point */
}
void trap_resume_at_recovery(struct trap_frame *f) { (void)f; }
const char *exception_name(uint32_t vector) { return vector < 32 ? "exception" : "interrupt"; }
void arch_raise_exception(uint32_t vector) { (void)vector; }

/* ---- simulated TLB and TLB instructions ---- */
#include "arch/x86/paging.h"
#include "arch/x86/tlb.h"
#include "arch/x86/microcode.h"

static const struct pt_ctx *fake_tables;

void fake_tlb_use_tables(const struct pt_ctx *pt) { fake_tables = pt; }

uint64_t tlb_read64(uint64_t va)
{
    struct fake_cpu *c = current_cpu;
    struct fake_tlb_entry *e;
    uint64_t pa = 0;
    if (!c || !fake_tables)
        return 0;
    e = &c->tlb[(va >> 12) % FAKE_TLB_ENTRIES];
    if (!e->valid || e->va_page != (va >> 12)) {
        if (!pt_translate(fake_tables, va & ~0xfffull, &pa))
            return 0;
        /* the walk reads a PTE another thread may be rewriting: atomically */
        e->va_page = va >> 12;
        e->pa_page = pa >> 12;
        e->valid = true;
        c->tlb_misses++;
    }
    return __atomic_load_n((const uint64_t *)(uintptr_t)((e->pa_page << 12) | (va & 0xfff)),
                           __ATOMIC_ACQUIRE);
}

void flush_local_all(void)
{
    /* a CR3 rewrite, as on the machine */
    write_cr3(read_cr3() & ~(1ull << 63));
}

void invpcid(uint64_t type, uint64_t pcid, uint64_t address)
{
    (void)pcid;
    if (!current_cpu)
        return;
    if (type == INVPCID_ADDRESS) {
        tlb_drop(current_cpu, address);
    } else {
        tlb_drop_all(current_cpu);
        __atomic_add_fetch(&current_cpu->full_flushes, 1, __ATOMIC_RELAXED);
    }
}

static uint64_t invlpgb_calls;
void invlpgb_raw(uint64_t rax, uint32_t ecx, uint32_t edx)
{
    (void)rax;
    (void)ecx;
    (void)edx;
    __atomic_add_fetch(&invlpgb_calls, 1, __ATOMIC_RELAXED);
}
void tlbsync(void) {}

void trap_set_ud_hook(exception_hook h) { (void)h; }
void trap_set_exception_hook(exception_hook h) { (void)h; }
bool arch_read_microcode(const struct cpu_features *f, uint32_t *revision)
{
    (void)f;
    *revision = 0;
    return false;
}
