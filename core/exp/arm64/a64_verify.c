/* The aarch64 verifier's reading of one read: see a64_verify.h. */
#include "core/exp/arm64/a64_verify.h"

#include "asm/abort.h"
#include "core/mutant.h"

enum a64_read_kind a64_read_kind(uint64_t seen, uint64_t expected, uint64_t old)
{
    if (seen == TEST_READ_FAULTED)
        return A64_READ_FAULT;
    if (seen == expected)
        return A64_READ_OK;
    /* the mutant takes every wrong value for the old frame's: a conflict reads as stale */
    if (seen == old || MUTANT(a64_conflict_as_stale))
        return A64_READ_STALE;
    return A64_READ_CONFLICT;
}

void a64_reads_add(struct a64_reads *r, uint32_t page, uint64_t seen, uint64_t expected, uint64_t old)
{
    switch (a64_read_kind(seen, expected, old)) {
    case A64_READ_OK:
        break;
    case A64_READ_FAULT:
        r->faults++;
        break;
    case A64_READ_STALE:
        if (!r->stale++) {
            r->stale_at = page;
            r->stale_seen = seen;
        }
        break;
    case A64_READ_CONFLICT:
        if (!r->conflicts++) {
            r->conflict_at = page;
            r->conflict_seen = seen;
        }
        break;
    }
}

/* word 0: the three counts (each at most a range's pages, below 2^20); word 1: the two
 * first pages; words 2, 3: what they read */
void a64_reads_pack(const struct a64_reads *r, volatile uint64_t out[4])
{
    out[0] = (uint64_t)r->stale | (uint64_t)r->conflicts << 20 | (uint64_t)r->faults << 40;
    out[1] = (uint64_t)r->stale_at | (uint64_t)r->conflict_at << 32;
    out[2] = r->stale_seen;
    out[3] = r->conflict_seen;
}

void a64_reads_unpack(struct a64_reads *r, const volatile uint64_t in[4])
{
    *r = (struct a64_reads){ 0 };
    r->stale = (uint32_t)(in[0] & 0xfffff);
    r->conflicts = (uint32_t)((in[0] >> 20) & 0xfffff);
    r->faults = (uint32_t)((in[0] >> 40) & 0xfffff);
    r->stale_at = (uint32_t)in[1];
    r->conflict_at = (uint32_t)(in[1] >> 32);
    r->stale_seen = in[2];
    r->conflict_seen = in[3];
}
