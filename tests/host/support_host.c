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

void write_cr3(uint64_t v)
{
    if (current_cpu) {
        current_cpu->cr3 = v;
        __atomic_add_fetch(&current_cpu->full_flushes, 1, __ATOMIC_RELAXED);
    }
}

uint64_t read_cr4(void) { return current_cpu ? current_cpu->cr4 : 0; }
void write_cr4(uint64_t v)
{
    if (current_cpu)
        current_cpu->cr4 = v;
}

void invlpg(const volatile void *va)
{
    struct fake_cpu *c = current_cpu;
    if (!c)
        return;
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
void apic_arm_heartbeat(uint8_t vector) { (void)vector; }
void apic_disarm_heartbeat(void) {}
int arch_setjmp(struct arch_jmpbuf *jb)
{
    (void)jb;
    return 0; /* host tests never resume at a recovery point */
}
void trap_resume_at_recovery(struct trap_frame *f) { (void)f; }
const char *exception_name(uint32_t vector) { return vector < 32 ? "exception" : "interrupt"; }
void arch_raise_exception(uint32_t vector) { (void)vector; }
