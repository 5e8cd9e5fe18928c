/*
 * INVLPGB operands (AMD APM vol. 3, INVLPGB; Linux arch/x86/include/asm/tlb.h):
 *
 *   rAX[0] VA valid, [1] PCID valid, [2] ASID valid, [3] include global,
 *      [4] final translation only, [5] include nested; rAX[63:12] the VA
 *   ECX[15:0] extra pages after the first (at most CPUID 8000_0008 EDX[15:0]),
 *      ECX[31] stride 2 MiB instead of 4 KiB
 *   EDX[31:16] PCID, EDX[15:0] ASID (0 on the host)
 *
 * What Linux (6.15+) issues: its helpers pass PCID | VA for a range
 * (invlpgb_flush_user_nr_nosync()) and PCID alone for a whole PCID
 * (invlpgb_flush_single_pcid_nosync()), and __invlpgb() adds ASID valid to
 * every INVLPGB ("x86/mm: Always set the ASID valid bit for the INVLPGB
 * instruction", merged with INVLPGB support): on a host EDX[15:0] = 0 then
 * keeps guests' entries out of the flush. So the operands are VA | PCID |
 * ASID (rAX[2:0] = 7) and PCID | ASID (6), ASID 0; the tool issues exactly
 * these (tests/host/test_invlpgb.c).
 *
 * Pure encoding, decoding and range chunking, tested on the host.
 */
#ifndef TLBSCOPE_ARCH_X86_INVLPGB_H
#define TLBSCOPE_ARCH_X86_INVLPGB_H

#include <stdbool.h>
#include <stdint.h>

#define INVLPGB_FLAG_VA (1u << 0)
#define INVLPGB_FLAG_PCID (1u << 1)
#define INVLPGB_FLAG_ASID (1u << 2)
#define INVLPGB_FLAG_INCLUDE_GLOBAL (1u << 3)
#define INVLPGB_FLAG_FINAL_ONLY (1u << 4)
#define INVLPGB_FLAG_INCLUDE_NESTED (1u << 5)
#define INVLPGB_STRIDE_2M (1u << 31)

struct invlpgb_op {
    uint64_t rax;
    uint32_t ecx;
    uint32_t edx;
};

struct invlpgb_decoded {
    uint32_t flags;       /* INVLPGB_FLAG_* */
    uint64_t va;          /* when FLAG_VA */
    uint32_t pages;       /* ECX[15:0] + 1 */
    bool stride_2m;
    uint16_t pcid, asid;
};

/* One INVLPGB for `pages` pages (1..max) from `va`: VA | PCID (when use_pcid) | ASID, ASID 0. */
struct invlpgb_op invlpgb_encode_range(uint64_t va, uint32_t pages, bool stride_2m, uint16_t pcid,
                                       bool use_pcid);
/* The "whole PCID" form: every non-global translation of one PCID (PCID | ASID, ASID 0). */
struct invlpgb_op invlpgb_encode_pcid(uint16_t pcid);
void invlpgb_decode(const struct invlpgb_op *op, struct invlpgb_decoded *out);
/*
 * A range [start, start + pages * stride) as INVLPGBs of at most max_pages
 * each, issued one after the other until the whole range is covered (Linux
 * broadcast_tlb_flush() loops the same way: clamp, issue, advance). There is
 * no bound on the number of operations: a range is never cut short.
 */
struct invlpgb_range {
    uint64_t next_va;
    uint32_t left;         /* pages not yet covered */
    uint32_t max_pages;    /* CPUID 8000_0008 EDX[15:0] + 1; 0: no INVLPGB */
    bool stride_2m;
    uint16_t pcid;
    bool use_pcid;
    bool whole_pcid;       /* one whole-PCID INVLPGB instead of the range */
};

void invlpgb_range_init(struct invlpgb_range *r, uint64_t start, uint32_t pages, bool stride_2m,
                        uint32_t max_pages, uint16_t pcid, bool use_pcid);
/*
 * What Linux issues for a flush of `pages` pages (of the stride) with
 * tlb_single_page_flush_ceiling `ceiling` (6.15+): get_flush_tlb_info()
 * turns more than `ceiling` pages into a full flush (TLB_FLUSH_ALL), for
 * which broadcast_tlb_flush() issues one INVLPGB of the whole PCID
 * (invlpgb_flush_single_pcid_nosync()); up to the ceiling, the range in
 * chunks as invlpgb_range_init() does. Either is followed by one TLBSYNC.
 */
void invlpgb_flush_init(struct invlpgb_range *r, uint64_t start, uint32_t pages, bool stride_2m,
                        uint32_t max_pages, uint32_t ceiling, uint16_t pcid, bool use_pcid);
/* The next operation of the range; false once it is covered (or when max_pages is 0). */
bool invlpgb_range_next(struct invlpgb_range *r, struct invlpgb_op *op);

#endif
