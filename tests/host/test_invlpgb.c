/*
 * INVLPGB operands against the AMD APM semantics (rAX flags and VA, ECX extra
 * pages and the 2 MiB stride bit, EDX PCID/ASID), range chunking by the CPU's
 * maximum count, the ceiling rule, and decoding of the instructions the
 * emulation handles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "asm/insn.h"
#include "asm/invlpgb.h"
#include "core/exp/common.h"
#include "tests/host/support_host.h"

static void test_encode_range(void **state)
{
    struct invlpgb_op op = invlpgb_encode_range(0x7e0000003000ull, 8, false, 0x801, true);
    struct invlpgb_decoded d;
    (void)state;
    /* VA valid | PCID valid | ASID valid, VA in rAX[63:12] */
    assert_true(op.rax == (0x7e0000003000ull | 0x7));
    assert_int_equal(op.ecx, 7);                 /* extra pages after the first */
    assert_int_equal(op.edx, 0x801u << 16);      /* PCID in EDX[31:16], ASID 0 */
    invlpgb_decode(&op, &d);
    assert_int_equal(d.pages, 8);
    assert_false(d.stride_2m);
    assert_int_equal(d.pcid, 0x801);
    assert_int_equal(d.asid, 0);
    assert_true(d.va == 0x7e0000003000ull);
    assert_int_equal(d.flags, INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID | INVLPGB_FLAG_ASID);
}

static void test_encode_stride_and_pcid_form(void **state)
{
    struct invlpgb_op op = invlpgb_encode_range(0x7e0040000000ull, 3, true, 0, false);
    struct invlpgb_decoded d;
    (void)state;
    assert_true(op.ecx == (2u | INVLPGB_STRIDE_2M));
    invlpgb_decode(&op, &d);
    assert_true(d.stride_2m);
    assert_int_equal(d.pages, 3);
    assert_int_equal(d.flags & INVLPGB_FLAG_PCID, 0);
    op = invlpgb_encode_pcid(1);
    /* Linux's invlpgb_flush_single_pcid_nosync(): PCID, and ASID valid from __invlpgb() */
    assert_true(op.rax == (INVLPGB_FLAG_PCID | INVLPGB_FLAG_ASID));
    assert_int_equal(op.ecx, 0);
    assert_int_equal(op.edx, 1u << 16);
    invlpgb_decode(&op, &d);
    assert_int_equal(d.flags & INVLPGB_FLAG_VA, 0); /* no address: the whole PCID */
    assert_int_equal(d.flags & INVLPGB_FLAG_PCID, INVLPGB_FLAG_PCID);
    assert_int_equal(d.pcid, 1);
}

/* Issues a whole range; checks each operation's bound and returns the pages covered, in order. */
static uint32_t cover(uint64_t start, uint32_t pages, bool stride_2m, uint32_t max, uint32_t *ops)
{
    struct invlpgb_range r;
    struct invlpgb_op op;
    struct invlpgb_decoded d;
    uint64_t stride = stride_2m ? 2ull << 20 : 4096, expect_va = start;
    uint32_t total = 0;
    *ops = 0;
    invlpgb_range_init(&r, start, pages, stride_2m, max, 1, true);
    while (invlpgb_range_next(&r, &op)) {
        invlpgb_decode(&op, &d);
        assert_true(d.pages >= 1 && d.pages <= max);   /* never above CPUID's maximum */
        assert_true(d.va == expect_va);                 /* contiguous, no gap, no overlap */
        assert_int_equal(d.stride_2m, stride_2m);
        assert_int_equal(d.pcid, 1);
        expect_va += (uint64_t)d.pages * stride;
        total += d.pages;
        (*ops)++;
        assert_true(*ops <= pages);                     /* it ends */
    }
    return total;
}

static void test_ranges_are_covered_whole(void **state)
{
    uint32_t pages, max, ops;
    (void)state;
    /* Zen 3/4: EDX[15:0] = 7, so 8 pages per instruction; 33 pages -> 8+8+8+8+1 */
    assert_int_equal(cover(0x7e0000000000ull, 33, false, 8, &ops), 33);
    assert_int_equal(ops, 5);
    /* the case that used to stop at 80 operations: 512 pages, 5 per INVLPGB = 103 */
    assert_int_equal(cover(0x7e0000000000ull, 512, false, 5, &ops), 512);
    assert_int_equal(ops, 103);
    assert_int_equal(cover(0x7e0000000000ull, 512, false, 1, &ops), 512);
    assert_int_equal(ops, 512);
    /* 2 MiB stride advances by 2 MiB per page */
    assert_int_equal(cover(0x7e0040000000ull, 3, true, 2, &ops), 3);
    assert_int_equal(ops, 2);
    /* every range the experiments use, with every maximum a CPU could report up to 8 and 65536 */
    for (pages = 1; pages <= 512; pages++) {
        for (max = 1; max <= 8; max++) {
            assert_int_equal(cover(0x7e0000000000ull, pages, false, max, &ops), pages);
            assert_int_equal(ops, (pages + max - 1) / max);
        }
        assert_int_equal(cover(0x7e0000000000ull, pages, false, 65536, &ops), pages);
        assert_int_equal(ops, 1);
    }
    /* no INVLPGB (maximum 0): nothing may be issued */
    assert_int_equal(cover(0x1000, 4, false, 0, &ops), 0);
    assert_int_equal(ops, 0);
}

/*
 * Linux 6.15+: above tlb_single_page_flush_ceiling, get_flush_tlb_info()
 * makes the flush TLB_FLUSH_ALL and broadcast_tlb_flush() issues one
 * INVLPGB of the whole PCID; up to it, the range in chunks. The iterator
 * before issue 20 chunked every range (8 and 64 INVLPGBs at 64 and 512
 * pages).
 */
static void test_linux_flush_is_one_whole_pcid_invlpgb_above_the_ceiling(void **state)
{
    struct invlpgb_range r;
    struct invlpgb_op op;
    struct invlpgb_decoded d;
    uint32_t pages, ops, ceiling;
    (void)state;
    for (ceiling = 1; ceiling <= 64; ceiling += 31) {
        for (pages = 1; pages <= 512; pages++) {
            invlpgb_flush_init(&r, 0x7e0000000000ull, pages, false, 8, ceiling, 5, true);
            ops = 0;
            while (invlpgb_range_next(&r, &op)) {
                invlpgb_decode(&op, &d);
                assert_int_equal(d.pcid, 5);
                assert_int_equal(d.flags & INVLPGB_FLAG_PCID, INVLPGB_FLAG_PCID);
                /* above the ceiling no address: the whole PCID; at or below it the range */
                assert_int_equal((d.flags & INVLPGB_FLAG_VA) != 0, pages <= ceiling);
                assert_true(++ops <= pages);
            }
            assert_int_equal(ops, pages > ceiling ? 1 : (pages + 7) / 8);
        }
    }
    /* 33 pages is still a range (5 INVLPGBs), 34 the whole PCID; 2 MiB pages count the same */
    invlpgb_flush_init(&r, 0x7e0040000000ull, 4, true, 8, 2, 5, true);
    assert_true(invlpgb_range_next(&r, &op));
    invlpgb_decode(&op, &d);
    assert_int_equal(d.flags & INVLPGB_FLAG_VA, 0);
    assert_false(invlpgb_range_next(&r, &op));
    /* without PCIDs: PCID 0, and no INVLPGB at all without the instruction */
    invlpgb_flush_init(&r, 0x7e0000000000ull, 64, false, 8, 33, 5, false);
    assert_true(invlpgb_range_next(&r, &op));
    invlpgb_decode(&op, &d);
    assert_int_equal(d.pcid, 0);
    invlpgb_flush_init(&r, 0x7e0000000000ull, 64, false, 0, 33, 5, true);
    assert_false(invlpgb_range_next(&r, &op));
}

static void test_page_counts_include_the_ceiling(void **state)
{
    uint32_t out[16], n;
    (void)state;
    n = exp_page_counts(33, out, 16);
    assert_int_equal(n, 9);
    assert_int_equal(out[6], 33); /* the last count flushed page by page */
    assert_int_equal(out[7], 64); /* the first above it: a full flush */
    n = exp_page_counts(8, out, 16); /* a ceiling already in the list is not repeated */
    assert_int_equal(n, 8);
}

static void test_decode_invlpgb_tlbsync(void **state)
{
    const uint8_t invlpgb[] = { 0x0f, 0x01, 0xfe, 0x90 }, tlbsync[] = { 0x0f, 0x01, 0xff };
    const uint8_t other[] = { 0x0f, 0x01, 0xf9 }; /* RDTSCP */
    struct insn_decoded d;
    (void)state;
    assert_true(insn_decode(invlpgb, sizeof(invlpgb), &d));
    assert_int_equal(d.kind, INSN_INVLPGB);
    assert_int_equal(d.length, 3);
    assert_true(insn_decode(tlbsync, sizeof(tlbsync), &d));
    assert_int_equal(d.kind, INSN_TLBSYNC);
    assert_false(insn_decode(other, sizeof(other), &d));
    assert_false(insn_decode(invlpgb, 2, &d)); /* truncated */
}

static void test_decode_invpcid_operands(void **state)
{
    /* invpcid (%rcx),%rax as Linux hand-encodes it */
    const uint8_t linux_form[] = { 0x66, 0x0f, 0x38, 0x82, 0x01 };
    /* invpcid 0x10(%r12,%rbx,4),%r9: REX.R+B, SIB, disp8 */
    const uint8_t sib_form[] = { 0x66, 0x45, 0x0f, 0x38, 0x82, 0x4c, 0x9c, 0x10 };
    /* invpcid 0x100(%rip),%rdx */
    const uint8_t rip_form[] = { 0x66, 0x0f, 0x38, 0x82, 0x15, 0x00, 0x01, 0x00, 0x00 };
    /* register operand: not a valid INVPCID */
    const uint8_t reg_form[] = { 0x66, 0x0f, 0x38, 0x82, 0xc1 };
    uint64_t regs[16] = { 0 };
    struct insn_decoded d;
    (void)state;
    regs[1] = 0x1000;                          /* rcx */
    regs[3] = 3;                               /* rbx */
    regs[12] = 0x2000;                         /* r12 */
    assert_true(insn_decode(linux_form, sizeof(linux_form), &d));
    assert_int_equal(d.kind, INSN_INVPCID);
    assert_int_equal(d.length, 5);
    assert_int_equal(d.reg, 0);                /* rax holds the type */
    assert_true(insn_effective_address(&d, regs, 0) == 0x1000);

    assert_true(insn_decode(sib_form, sizeof(sib_form), &d));
    assert_int_equal(d.length, 8);
    assert_int_equal(d.reg, 9);
    assert_int_equal(d.base, 12);
    assert_int_equal(d.index, 3);
    assert_int_equal(d.scale, 4);
    assert_true(insn_effective_address(&d, regs, 0) == 0x2000 + 3 * 4 + 0x10);

    assert_true(insn_decode(rip_form, sizeof(rip_form), &d));
    assert_int_equal(d.base, INSN_REG_RIP);
    assert_true(insn_effective_address(&d, regs, 0x5000) == 0x5000 + 9 + 0x100);

    assert_false(insn_decode(reg_form, sizeof(reg_form), &d));
    assert_false(insn_decode(sib_form, 6, &d)); /* cut before the SIB/disp */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_range),
        cmocka_unit_test(test_encode_stride_and_pcid_form),
        cmocka_unit_test(test_ranges_are_covered_whole),
        cmocka_unit_test(test_linux_flush_is_one_whole_pcid_invlpgb_above_the_ceiling),
        cmocka_unit_test(test_page_counts_include_the_ceiling),
        cmocka_unit_test(test_decode_invlpgb_tlbsync),
        cmocka_unit_test(test_decode_invpcid_operands),
    };
    host_init();
    return cmocka_run_group_tests_name("invlpgb", tests, NULL, NULL);
}
