/*
 * What the aarch64 verifier makes of one read of a remapped test page (a64_exp.c's
 * region_verify): the new frame's tag is right; the old frame's tag is a stale read (a CPU
 * kept the old translation); TEST_READ_FAULTED a translation fault inside an abort window
 * (asm/abort.h: the control's CPUs that held no entry); anything else is neither frame: a
 * TLB conflict or an amalgamated entry, which break-before-make exists to prevent (Arm ARM,
 * "Using break-before-make when updating translation table entries"). The two wrong kinds
 * are counted apart: a stale read says an invalidation did not reach a CPU, a conflict
 * that the remap itself was unsafe.
 * Pure code over the tags, so the host tests check it alone (tests/host/test_a64_verify.c).
 */
#ifndef TLBSCOPE_CORE_EXP_ARM64_A64_VERIFY_H
#define TLBSCOPE_CORE_EXP_ARM64_A64_VERIFY_H

#include <stdint.h>

enum a64_read_kind { A64_READ_OK, A64_READ_STALE, A64_READ_FAULT, A64_READ_CONFLICT };

/* `seen` against the page's `expected` tag and its old frame's (`old`); TEST_READ_FAULTED
 * is FAULT even where a fault is what is expected (the control: the caller counts it) */
enum a64_read_kind a64_read_kind(uint64_t seen, uint64_t expected, uint64_t old);

/* One CPU's reads of a range: the wrong ones by kind, the first stale and conflicting one. */
struct a64_reads {
    uint32_t stale, conflicts, faults;
    uint32_t stale_at, conflict_at; /* pages */
    uint64_t stale_seen, conflict_seen;
};

void a64_reads_add(struct a64_reads *r, uint32_t page, uint64_t seen, uint64_t expected, uint64_t old);
/* through a CPU's four mailbox result words and back */
void a64_reads_pack(const struct a64_reads *r, volatile uint64_t out[4]);
void a64_reads_unpack(struct a64_reads *r, const volatile uint64_t in[4]);

#endif
