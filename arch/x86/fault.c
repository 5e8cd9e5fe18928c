#include "asm/fault.h"
#include "asm/trap.h"

bool arch_can_raise(uint32_t v)
{
    if (v >= 32 || v == 2 || v == 18)
        return false; /* NMI and #MC are not for tests */
    /* INT n pushes no error code: only vectors without one, or a real #GP/#PF */
    return !exception_has_error_code(v) || v == 13 || v == 14;
}

#ifndef TLBSCOPE_HOST
/* INT n needs an immediate: one stub per vector. */
#define INT_CASE(n)                                                                                \
    case n:                                                                                        \
        __asm__ volatile("int $" #n ::: "memory");                                                 \
        break;

void arch_raise_exception(uint32_t v)
{
    switch (v) {
    case 0: {
        volatile uint32_t zero = 0, one = 1;
        (void)(one / zero); /* a real #DE */
        break;
    }
    case 6:
        __asm__ volatile("ud2");
        break;
    case 13: {
        /* a non-canonical address: #GP(0) */
        volatile uint64_t *bad = (volatile uint64_t *)(uintptr_t)0x8000000000000000ull;
        (void)*bad;
        break;
    }
    case 14: {
        /* the tool's page tables leave the top of the lower half unmapped */
        volatile uint64_t *hole = (volatile uint64_t *)(uintptr_t)0x00007ffffffff000ull;
        (void)*hole;
        break;
    }
    INT_CASE(1) INT_CASE(3) INT_CASE(4) INT_CASE(5) INT_CASE(7) INT_CASE(9)
    INT_CASE(15) INT_CASE(16) INT_CASE(19) INT_CASE(20) INT_CASE(22) INT_CASE(23)
    INT_CASE(24) INT_CASE(25) INT_CASE(26) INT_CASE(27) INT_CASE(28) INT_CASE(31)
    default:
        break;
    }
}
#endif
