/*
 * The TLBSCOPE_HOST halves of asm/tlbi.h, asm/barrier.h and asm/abort.h (contract B of
 * issue 27): each primitive is executed by the modelled CPU the calling
 * thread plays (a64m_bind), on the strict model of tlbi_model.h. The
 * protocols of core/exp/arm64/ call these exactly as they call the
 * instructions on the target; for a TLBI that is tlbi_issue with the operand
 * asm/tlbi.h's shared inline code built, so the encodings run here too.
 */
#include <stdio.h>
#include <stdlib.h>

#include "asm/abort.h"
#include "asm/barrier.h"
#include "asm/stage2.h"
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

/* asm/tlbi.h's one primitive: the operand as the protocol built it, decoded by the model */
void tlbi_issue(enum tlbi_op op, uint64_t operand)
{
    a64m_tlbi(model("a TLBI"), bound_cpu, op, operand);
}
/* asm/abort.h on the host: the calling thread's CPU's window and the faults it took */
static __thread bool abort_window;
static __thread uint32_t aborts;

void abort_window_open(void)
{
    abort_window = true;
    aborts = 0;
}

uint32_t abort_window_close(void)
{
    abort_window = false;
    return aborts;
}

uint64_t test_read(const volatile uint64_t *p)
{
    bool faulted;
    uint64_t v;
    if (!abort_window) /* a translation fault is a model error */
        return a64m_read(model("a test read"), bound_cpu, (uint64_t)(uintptr_t)p);
    /* inside the window the model's translation fault is the recoverable abort */
    v = a64m_read_recoverable(model("a test read"), bound_cpu, (uint64_t)(uintptr_t)p, &faulted);
    if (faulted) {
        aborts++;
        return TEST_READ_FAULTED;
    }
    return v;
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

/* asm/stage2.h on the host: the bound CPU's registers in the model, which checks the EL; the
 * root table an address past the region's frames (nothing walks it) */
uint64_t stage2_root_pa(void) { return (uint64_t)model("stage2_root_pa")->frames << 12; }
bool stage2_host_in_el20(void) { return false; }
void stage2_switch(uint64_t vtcr, uint64_t vttbr, struct stage2_regs *old)
{
    a64m_s2_switch(model("a VTTBR_EL2 write"), bound_cpu, vtcr, vttbr, &old->vtcr, &old->vttbr);
}
