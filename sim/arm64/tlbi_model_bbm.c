/*
 * The strict aarch64 model's break-before-make rule (tlbi_model.h): a store that turns a
 * valid descriptor into another valid one with a different output address, or with nG
 * flipped, while some CPU may hold the old entry, lets a CPU hold both (Arm ARM, "Using
 * break-before-make when updating translation table entries": a TLB conflict abort, or an
 * entry amalgamated from the two; Linux's pgattr_change_is_safe() refuses both changes).
 * "May hold" the conservative way: whenever the old descriptor is valid. The old one is
 * what the storing CPU last wrote there (its store buffer, newest first), else the visible
 * table. An invalid descriptor in between (the break) makes the next store safe here; the
 * TLBI that must come between them is the verifier's to check (an entry left over reads
 * stale). Its own file: tlbi_model.c asks it at each descriptor store.
 */
#include "sim/arm64/tlbi_model.h"

#include <stdio.h>

#define A64M_OA_MASK 0x0000fffffffff000ull /* the output address, [47:12] */

bool a64m_bbm_breach(const struct a64_model *m, uint32_t ci, uint32_t page, uint64_t value, char *why,
                     size_t cap)
{
    const struct a64m_cpu *c = &m->cpu[ci];
    uint64_t old = m->table[page];
    const char *what;
    for (uint32_t k = c->nsb; k-- > 0;)
        if (c->sb[k].page == page) {
            old = c->sb[k].value;
            break;
        }
    if ((old & A64M_PTE_VALID) != A64M_PTE_VALID || (value & A64M_PTE_VALID) != A64M_PTE_VALID)
        return false;
    if ((old & A64M_OA_MASK) != (value & A64M_OA_MASK))
        what = "another output address";
    else if ((old ^ value) & A64M_PTE_NG)
        what = "nG flipped";
    else
        return false;
    snprintf(why, cap, "break-before-make: page %u's valid descriptor 0x%llx rewritten as 0x%llx (%s) without an "
             "invalid one between", page, (unsigned long long)old, (unsigned long long)value, what);
    return true;
}
