/*
 * The TLBSCOPE_HOST halves of asm/tlbi.h and asm/barrier.h (contract B of
 * issue 27): each primitive is executed by the modelled CPU the calling
 * thread plays (a64m_bind), on the strict model of tlbi_model.h. The
 * protocols of core/exp/arm64/ call these exactly as they call the
 * instructions on the target.
 */
#include <stdio.h>
#include <stdlib.h>

#include "asm/barrier.h"
#include "asm/tlbi.h"
#include "sim/arm64/tlbi_model.h"

static __thread struct a64_model *bound_model;
static __thread uint32_t bound_cpu;

void a64m_bind(struct a64_model *m, uint32_t cpu)
{
    bound_model = m;
    bound_cpu = cpu;
}

void a64m_unbind(void) { bound_model = NULL; }

/* A primitive on a thread that plays no CPU is a harness bug: stop loudly. */
static struct a64_model *model(const char *what)
{
    if (!bound_model) {
        fprintf(stderr, "sim/arm64: %s on a thread bound to no modelled CPU\n", what);
        abort();
    }
    return bound_model;
}

void tlbi_va_is(uint64_t va) { a64m_tlbi_va_is(model("TLBI VAE1IS"), bound_cpu, va); }
void tlbi_va_local(uint64_t va) { a64m_tlbi_va_local(model("TLBI VAE1"), bound_cpu, va); }
void tlbi_range_is(uint64_t va, uint32_t pages)
{
    a64m_tlbi_range_is(model("TLBI RVAE1IS"), bound_cpu, va, pages);
}
void tlbi_all_is(void) { a64m_tlbi_all_is(model("TLBI VMALLE1IS"), bound_cpu); }
void tlbi_va_os(uint64_t va) { a64m_tlbi_va_os(model("TLBI VAE1OS"), bound_cpu, va); }
void tlbi_asid_is(uint16_t asid) { a64m_tlbi_asid_is(model("TLBI ASIDE1IS"), bound_cpu, asid); }
uint64_t test_read(const volatile uint64_t *p)
{
    return a64m_read(model("a test read"), bound_cpu, (uint64_t)(uintptr_t)p);
}
void pte_store(volatile uint64_t *pte, uint64_t value)
{
    a64m_pte_store(model("a descriptor store"), bound_cpu, pte, value);
}
void dsb_ish(void) { a64m_dsb_ish(model("DSB ISH"), bound_cpu); }
void dsb_ishst(void) { a64m_dsb_ishst(model("DSB ISHST"), bound_cpu); }
void dsb_nsh(void) { a64m_dsb_nsh(model("DSB NSH"), bound_cpu); }
void dsb_osh(void) { a64m_dsb_osh(model("DSB OSH"), bound_cpu); }
void isb(void) { a64m_isb(model("ISB"), bound_cpu); }
