/*
 * The aarch64 strict model (sim/arm64/) and the real protocols of
 * core/exp/arm64/tlbi_flush.c on it (issue 27).
 *
 * First the model's rules, one instruction at a time on one thread (the
 * a64m_* calls name the CPU): a broadcast TLBI completes on the others only
 * at its issuer's DSB ISH, a local one only on its CPU, descriptor stores
 * stay invisible to walks until a DSB ISH(ST); a TLBI takes effect on each
 * CPU anywhere from its issue to its DSB, so stores not visible before it
 * ("store, TLBI, DSB ISH", "TLBI, store") leave stale entries; a TTL hint of
 * one level leaves the walk cache and the other level's leaves (a table
 * replaced, a block split, under last-level TLBIs). Then the protocols in the
 * app's shapes over seeded runs, 2..8 CPUs and 1..512 pages: no stale read
 * in any, and stale reads in the control (no TLBI), so the verifier works;
 * likewise the outer-shareable (VAE1OS + DSB OSH) and by-ASID (ASIDE1IS on
 * non-global pages) forms, each with its control: VAE1OS completed by DSB
 * ISH only, ASIDE1IS on global pages; and the two misorders of stores and
 * TLBIs, controls that must show stale reads.
 * Break-before-make: another frame or a flipped nG written over a live descriptor is a
 * model error, the break (invalid, TLBI, DSB ISH) before the new one is not, and a read
 * through the invalid descriptor with no entry faults, recovered only inside the abort
 * window (asm/abort.h, the control's reads); the protocols above remap that way, the
 * control stops after the break. The rules tests rewrite a live descriptor through an
 * invalid one (rewrite()) to keep the old entries for the TLBI rules.
 * Between them, the TLBI operands: the model decodes each operand's bits
 * (VA, ASID, TTL, a range's BaseADDR/NUM/SCALE/TG) as hardware does, and
 * tlbi_flush.c's flushes, with asm/tlbi.h's encoders, must drop exactly
 * their pages on exactly their CPUs.
 * The mutants arm_dsb_missing and arm_local_not_broadcast (core/mutant.h)
 * fail test_broadcast_has_no_stale_reads and test_concurrent_has_no_stale_reads;
 * the encoding mutants arm_range_num_off_by_one, arm_asid_bit32 and
 * arm_vae1_not_is fail test_range_flush_covers_exactly_its_pages,
 * test_asid_flush_keeps_other_asids_entries and
 * test_broadcast_flush_reaches_every_cpu; flush_ceiling's full flushes,
 * arm_flush_all_dsb_missing (VMALLE1IS without its DSB ISH) and
 * arm_asid_flush_wrong_asid (ASIDE1IS of ASID 0), fail
 * test_full_has_no_stale_reads and test_asid_flush_keeps_other_asids_entries
 * (tests/sim/mutants.sh); KPTI's second TLBI of the kernel ASID
 * (arm_user_tlbi_kernel_asid) fails test_kpti_flush_drops_both_asids, and
 * E0PD read from the wrong field (arm_e0pd_wrong_field)
 * test_e0pd_decoded_from_mmfr2. A
 * `# SUMMARY:` line says what ran.
 *
 * Built with arm64's asm/ headers (sim/arm64/arm64.mk), not x86's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "asm/tlbi.h"
#include "core/exp/arm64/linux_tlbi.h"
#include "core/exp/arm64/tlbi_flush.h"
#include "asm/cpu.h"
#include "sim/arm64/harness.h"
#include "sim/arm64/profiles.h"
#include "sim/arm64/tlbi_model.h"

/* ---- the model's rules, instruction by instruction ---- */

/*
 * CPU c rewrites page p's descriptor: an invalid one first, and no TLBI between: the old
 * entries stay for the TLBI rules these tests are about. The make over entries still held is
 * a break-before-make breach (tested on its own at the end), which these tests make on
 * purpose: each error it adds is checked to be that one and taken back, so the tests' own
 * count of errors stays about their rules.
 */
static void rewrite(struct a64_model *mm, uint32_t c, uint32_t p, uint64_t value)
{
    uint32_t before = mm->violations;
    a64m_pte_store(mm, c, a64m_pte_ptr(mm, p), 0);
    a64m_pte_store(mm, c, a64m_pte_ptr(mm, p), value);
    for (uint32_t k = before; k < mm->violations && k < A64M_MAX_VIOLATIONS; k++)
        assert_non_null(strstr(mm->violation[k], "break-before-make"));
    mm->violations = before;
}

#define BASE 0x10000000ull

static struct a64_model m;

static int model_setup(void **state)
{
    struct a64m_config cfg;
    a64m_config_defaults(&cfg);
    cfg.seed = 7;
    /* every TLBI takes effect at its DSB, the latest moment it may: "until then a CPU keeps its
     * entry" holds every time (test_a_tlbi_takes_effect_between_issue_and_dsb: the earlier ones) */
    cfg.early_per_65536 = 0;
    if (!a64m_init(&m, &cfg, 3, 8, 16, BASE))
        return -1;
    for (uint32_t p = 0; p < 8; p++)
        a64m_map_initial(&m, p, p);
    /* every CPU holds every translation */
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t p = 0; p < 8; p++)
            if (a64m_read(&m, c, a64m_va(&m, p)) != a64m_tag(p))
                return -1;
    return 0;
}

static int model_teardown(void **state)
{
    a64m_free(&m);
    return 0;
}

/*
 * CPU c's TLBIs, with operands built by asm/tlbi.h's encoders (this file is
 * never built as a mutant, so these are the intended encodings).
 */
static void va_is(struct a64_model *mm, uint32_t c, uint64_t va)
{
    a64m_tlbi(mm, c, TLBI_VAE1IS, tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}
static void va_local(struct a64_model *mm, uint32_t c, uint64_t va)
{
    a64m_tlbi(mm, c, TLBI_VAE1, tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}
static void va_os(struct a64_model *mm, uint32_t c, uint64_t va)
{
    a64m_tlbi(mm, c, TLBI_VAE1OS, tlbi_va_operand(va, 0, TLBI_TTL_NONE));
}

/* CPU c reads page p: the frame it sees */
static uint64_t seen(uint32_t c, uint32_t p) { return a64m_read(&m, c, a64m_va(&m, p)); }
static uint64_t seen_in(struct a64_model *mm, uint32_t c, uint32_t p)
{
    return a64m_read(mm, c, a64m_va(mm, p));
}

static void remap(uint32_t c, uint32_t p, uint32_t frame)
{
    rewrite(&m, c, p, a64m_pte(frame));
    a64m_dsb_ishst(&m, c);
}

static void test_broadcast_completes_at_the_issuers_dsb_ish(void **state)
{
    remap(0, 1, 9);
    va_is(&m, 0, a64m_va(&m, 1));
    /* issued, not complete: every CPU, the issuer too, may still use the old entry */
    for (uint32_t c = 0; c < 3; c++)
        assert_int_equal(seen(c, 1), a64m_tag(1));
    assert_int_equal(a64m_pending(&m, 2), 1);
    /* another CPU's DSB ISH, or the issuer's DSB NSH or ISHST, completes nothing of it */
    a64m_dsb_ish(&m, 1);
    a64m_dsb_nsh(&m, 0);
    a64m_dsb_ishst(&m, 0);
    assert_int_equal(seen(2, 1), a64m_tag(1));
    a64m_dsb_ish(&m, 0);
    for (uint32_t c = 0; c < 3; c++) {
        assert_int_equal(a64m_pending(&m, c), 0);
        assert_int_equal(seen(c, 1), a64m_tag(9));
    }
}

static void test_local_tlbi_reaches_its_cpu_only(void **state)
{
    remap(0, 2, 10);
    va_local(&m, 0, a64m_va(&m, 2));
    assert_int_equal(seen(0, 2), a64m_tag(2)); /* not complete before its DSB */
    a64m_dsb_nsh(&m, 0);
    assert_int_equal(seen(0, 2), a64m_tag(10));
    /* the others keep the old entry whatever CPU 0 does next */
    a64m_dsb_ish(&m, 0);
    assert_int_equal(seen(1, 2), a64m_tag(2));
    assert_int_equal(seen(2, 2), a64m_tag(2));
    va_local(&m, 1, a64m_va(&m, 2));
    a64m_dsb_ish(&m, 1); /* a DSB ISH completes the CPU's local TLBIs too */
    assert_int_equal(seen(1, 2), a64m_tag(10));
    assert_int_equal(seen(2, 2), a64m_tag(2));
}

static void test_stores_reach_walks_at_a_dsb_ish_only(void **state)
{
    rewrite(&m, 0, 3, a64m_pte(11));
    va_local(&m, 0, a64m_va(&m, 3));
    a64m_dsb_nsh(&m, 0);
    /* CPU 0's entry is gone, its store not visible: its own walk finds the old descriptor */
    assert_int_equal(seen(0, 3), a64m_tag(3));
    a64m_dsb_ish(&m, 0); /* visible now, too late for the entry CPU 0 refilled */
    assert_int_equal(seen(0, 3), a64m_tag(3));
    va_is(&m, 0, a64m_va(&m, 3));
    a64m_dsb_ish(&m, 0);
    assert_int_equal(seen(0, 3), a64m_tag(11));
    assert_int_equal(seen(2, 3), a64m_tag(11));
}

/*
 * Why the initiator's DSB ISHST comes before its request: a target that
 * flushes while the store is still invisible walks the old descriptor again
 * and keeps it after the store lands (here page 0, CPU 1's own flush).
 */
static void test_a_flush_before_the_store_is_visible_keeps_the_old_entry(void **state)
{
    /* CPU 2 holds page 0 (the tests before may have flushed everything) */
    assert_int_equal(seen(2, 0), a64m_tag(0));
    rewrite(&m, 0, 0, a64m_pte(8));
    va_local(&m, 1, a64m_va(&m, 0));
    a64m_dsb_nsh(&m, 1);
    assert_int_equal(seen(1, 0), a64m_tag(0));
    a64m_dsb_ishst(&m, 0);
    assert_int_equal(seen(1, 0), a64m_tag(0)); /* stale: the flush came too early */
    assert_int_equal(seen(2, 0), a64m_tag(0)); /* never flushed at all */
    va_is(&m, 0, a64m_va(&m, 0));
    a64m_dsb_ish(&m, 0);
    assert_int_equal(seen(1, 0), a64m_tag(8));
    assert_int_equal(seen(2, 0), a64m_tag(8));
}

static void test_range_and_all_are_broadcasts(void **state)
{
    for (uint32_t p = 4; p < 8; p++)
        remap(1, p, 8 + p);
    a64m_tlbi(&m, 1, TLBI_RVAE1IS, tlbi_range_operand(a64m_va(&m, 4), 0, 0, 0)); /* 2 pages */
    a64m_dsb_ish(&m, 1);
    assert_int_equal(seen(0, 4), a64m_tag(12));
    assert_int_equal(seen(2, 5), a64m_tag(13));
    assert_int_equal(seen(2, 6), a64m_tag(6)); /* outside the range */
    a64m_tlbi(&m, 2, TLBI_VMALLE1IS, 0);
    assert_int_equal(seen(0, 7), a64m_tag(7));
    a64m_dsb_ish(&m, 2);
    assert_int_equal(seen(0, 7), a64m_tag(15));
    assert_int_equal(seen(1, 6), a64m_tag(14));
}

/*
 * A TLBI takes effect on each CPU at a moment of its own, from its issue to its DSB: always
 * early here, every entry is gone within A64M_EFFECT_WINDOW steps, the TLBI still pending
 * (complete only at the DSB); no walk refills them (no speculation, no fills at stores).
 */
static void test_a_tlbi_takes_effect_between_issue_and_dsb(void **state)
{
    struct a64_model mm;
    struct a64m_config cfg;
    struct a64m_counts n;
    a64m_config_defaults(&cfg);
    cfg.seed = 17;
    cfg.early_per_65536 = 65536;
    cfg.spec_per_65536 = cfg.pte_fill_per_65536 = 0;
    assert_true(a64m_init(&mm, &cfg, 3, 4, 8, BASE));
    for (uint32_t p = 0; p < 4; p++)
        a64m_map_initial(&mm, p, p);
    for (uint32_t c = 0; c < 3; c++)
        assert_int_equal(seen_in(&mm, c, 1), a64m_tag(1));
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), a64m_pte(5));
    a64m_dsb_ishst(&mm, 0);
    va_is(&mm, 0, a64m_va(&mm, 1));
    for (uint32_t k = 0; k < A64M_EFFECT_WINDOW; k++)
        a64m_tick(&mm, 2);
    for (uint32_t c = 0; c < 3; c++) {
        assert_int_equal(a64m_entry(&mm, c, 1), 0);
        assert_int_equal(a64m_pending(&mm, c), 1);
    }
    a64m_sum_counts(&mm, &n);
    assert_int_equal(n.early, 3);
    assert_int_equal(seen_in(&mm, 1, 1), a64m_tag(5)); /* the store was visible first */
    a64m_dsb_ish(&mm, 0);
    for (uint32_t c = 0; c < 3; c++)
        assert_int_equal(a64m_pending(&mm, c), 0);
    a64m_free(&mm);
}

/* The orders of a remap of `pages` pages and its broadcast TLBIs by CPU 0 */
enum remap_order { STORE_ISHST_TLBI, STORE_TLBI, TLBI_STORE };

/* On a fresh warm model (defaults, `seed`): the CPUs and pages left reading the old frame. */
static uint32_t stale_after(enum remap_order order, uint64_t seed)
{
    struct a64_model mm;
    struct a64m_config cfg;
    uint32_t stale = 0;
    const uint32_t cpus = 4, pages = 16;
    a64m_config_defaults(&cfg);
    cfg.seed = seed;
    assert_true(a64m_init(&mm, &cfg, cpus, pages, 2 * pages, BASE));
    for (uint32_t p = 0; p < pages; p++)
        a64m_map_initial(&mm, p, p);
    for (uint32_t c = 0; c < cpus; c++)
        for (uint32_t p = 0; p < pages; p++)
            assert_int_equal(seen_in(&mm, c, p), a64m_tag(p));
    for (uint32_t p = 0; p < pages && order == TLBI_STORE; p++)
        va_is(&mm, 0, a64m_va(&mm, p));
    for (uint32_t p = 0; p < pages; p++) /* through an invalid one: break-before-make's rule aside */
        rewrite(&mm, 0, p, a64m_pte(pages + p));
    if (order != STORE_TLBI)
        a64m_dsb_ishst(&mm, 0);
    for (uint32_t p = 0; p < pages && order != TLBI_STORE; p++)
        va_is(&mm, 0, a64m_va(&mm, p));
    a64m_dsb_ish(&mm, 0);
    for (uint32_t c = 0; c < cpus; c++)
        for (uint32_t p = 0; p < pages; p++)
            stale += seen_in(&mm, c, p) != a64m_tag(pages + p);
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
    return stale;
}

/*
 * A TLBI invalidates for the stores made visible before it: "store, DSB ISHST, TLBI, DSB ISH"
 * leaves no stale entry; "store, TLBI, DSB ISH" and "TLBI, store, DSB ISHST, DSB ISH" leave
 * some, where the TLBI took effect before the store landed and a walk refilled the old one.
 */
static void test_a_tlbi_before_its_store_is_visible_leaves_stale_entries(void **state)
{
    for (uint64_t seed = 1; seed <= 3; seed++) {
        assert_int_equal(stale_after(STORE_ISHST_TLBI, seed), 0);
        assert_in_range(stale_after(STORE_TLBI, seed), 1, 64);
        assert_in_range(stale_after(TLBI_STORE, seed), 1, 64);
    }
}

/*
 * Stale entries made likely, not only possible: on cold TLBs, a descriptor
 * store leaves most other CPUs holding the translation it replaces (they may
 * have walked it just before), so a protocol that misses a CPU is caught
 * without a warm-up read.
 */
static void test_a_store_leaves_old_entries_behind(void **state)
{
    struct a64_model cold;
    struct a64m_config cfg;
    uint32_t old = 0;
    a64m_config_defaults(&cfg);
    cfg.seed = 11;
    assert_true(a64m_init(&cold, &cfg, 2, 64, 128, BASE));
    for (uint32_t p = 0; p < 64; p++)
        a64m_map_initial(&cold, p, p);
    for (uint32_t p = 0; p < 64; p++)
        rewrite(&cold, 0, p, a64m_pte(64 + p));
    a64m_dsb_ish(&cold, 0);
    for (uint32_t p = 0; p < 64; p++)
        old += a64m_entry(&cold, 1, p) == a64m_pte(p);
    /* three in four by default: well over a quarter */
    assert_in_range(old, 16, 64);
    a64m_free(&cold);
}

/* ---- the protocols, in the app's shapes ---- */

/* VAE1OS: pending everywhere, DSB ISH (even the issuer's) leaves it pending, DSB OSH completes it */
static void test_outer_shareable_completes_at_the_issuers_dsb_osh(void **state)
{
    /* a fresh model, every CPU holding every page (the tests above remapped some) */
    model_teardown(state);
    assert_int_equal(model_setup(state), 0);
    remap(0, 3, 11);
    va_os(&m, 0, a64m_va(&m, 3));
    a64m_dsb_ish(&m, 0);
    a64m_dsb_osh(&m, 1);
    for (uint32_t c = 0; c < 3; c++)
        assert_int_equal(seen(c, 3), a64m_tag(3));
    assert_int_equal(a64m_pending(&m, 2), 1);
    a64m_dsb_osh(&m, 0);
    for (uint32_t c = 0; c < 3; c++) {
        assert_int_equal(a64m_pending(&m, c), 0);
        assert_int_equal(seen(c, 3), a64m_tag(11));
    }
}

/* ASIDE1IS drops the non-global entries of its ASID at the issuer's DSB ISH; global ones
 * and other ASIDs' stay */
static void test_asid_invalidation_drops_only_its_non_global_entries(void **state)
{
    model_teardown(state);
    assert_int_equal(model_setup(state), 0);
    /* page 4 non-global under ASID 5 on CPUs 0 and 1 (CPU 2 stays on ASID 0) */
    rewrite(&m, 0, 4, a64m_pte(12) | A64M_PTE_NG);
    a64m_dsb_ish(&m, 0);
    va_is(&m, 0, a64m_va(&m, 4));
    a64m_dsb_ish(&m, 0);
    a64m_set_asid(&m, 0, 5);
    a64m_set_asid(&m, 1, 5);
    for (uint32_t c = 0; c < 3; c++)
        assert_int_equal(seen(c, 4), a64m_tag(12)); /* each fills its entry, tagged with its ASID */
    rewrite(&m, 0, 4, a64m_pte(13) | A64M_PTE_NG);
    rewrite(&m, 0, 5, a64m_pte(14)); /* page 5 global, remapped */
    a64m_dsb_ishst(&m, 0);
    a64m_tlbi(&m, 0, TLBI_ASIDE1IS, tlbi_asid_operand(5));
    assert_int_equal(seen(1, 4), a64m_tag(12)); /* not before the issuer's DSB */
    a64m_dsb_ish(&m, 0);
    assert_int_equal(seen(0, 4), a64m_tag(13));
    assert_int_equal(seen(1, 4), a64m_tag(13));
    assert_int_equal(seen(2, 4), a64m_tag(12)); /* ASID 0's entry: not ours to drop */
    assert_int_equal(seen(1, 5), a64m_tag(5));  /* global: an ASID invalidation keeps it */
    a64m_set_asid(&m, 0, 0);
    a64m_set_asid(&m, 1, 0);
}

/* ---- the operand's fields, decoded by the model as hardware does ---- */

/* A fresh model of `cpus` CPUs and `pages` pages (page p on frame p), every CPU holding every page. */
static void warm_model(struct a64_model *mm, uint32_t cpus, uint32_t pages)
{
    struct a64m_config cfg;
    a64m_config_defaults(&cfg);
    cfg.seed = 13;
    assert_true(a64m_init(mm, &cfg, cpus, pages, 2 * pages, BASE));
    for (uint32_t p = 0; p < pages; p++)
        a64m_map_initial(mm, p, p);
    for (uint32_t c = 0; c < cpus; c++)
        for (uint32_t p = 0; p < pages; p++)
            assert_int_equal(a64m_read(mm, c, a64m_va(mm, p)), a64m_tag(p));
}

/* pages [first, first + n) onto frames pages + p, non-global if `ng`, visible to walks */
static void remap_in(struct a64_model *mm, uint32_t c, uint32_t first, uint32_t n, bool ng)
{
    for (uint32_t p = first; p < first + n; p++)
        rewrite(mm, c, p, a64m_pte(mm->pages + p) | (ng ? A64M_PTE_NG : 0));
    a64m_dsb_ishst(mm, c);
}

/* A fresh model (warm_model) whose every page is non-global on frame pages + p, no CPU holding any */
static void nonglobal_model(struct a64_model *mm, uint32_t cpus, uint32_t pages)
{
    warm_model(mm, cpus, pages);
    remap_in(mm, 0, 0, pages, true);
    a64m_tlbi(mm, 0, TLBI_VMALLE1IS, 0);
    a64m_dsb_ish(mm, 0);
}

/* by VA: the ASID in [63:48] names whose non-global entries go; global ones go for any ASID */
static void test_by_va_tlbi_honours_its_asid(void **state)
{
    struct a64_model mm;
    warm_model(&mm, 2, 4);
    /* page 1 non-global under ASID 0x2a on both CPUs; page 2 stays global */
    remap_in(&mm, 0, 1, 1, true);
    va_is(&mm, 0, a64m_va(&mm, 1));
    a64m_dsb_ish(&mm, 0);
    a64m_set_asid(&mm, 0, 0x2a);
    a64m_set_asid(&mm, 1, 0x2a);
    assert_int_equal(seen_in(&mm, 1, 1), a64m_tag(5));
    rewrite(&mm, 0, 1, a64m_pte(7) | A64M_PTE_NG);
    rewrite(&mm, 0, 2, a64m_pte(6));
    a64m_dsb_ishst(&mm, 0);
    /* ASID 0: the global page 2 goes, ASID 0x2a's page 1 stays */
    a64m_tlbi(&mm, 0, TLBI_VAE1IS, tlbi_va_operand(a64m_va(&mm, 1), 0, TLBI_TTL_NONE));
    a64m_tlbi(&mm, 0, TLBI_VAE1IS, tlbi_va_operand(a64m_va(&mm, 2), 0, TLBI_TTL_NONE));
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(seen_in(&mm, 1, 1), a64m_tag(5));
    assert_int_equal(seen_in(&mm, 1, 2), a64m_tag(6));
    /* ASID 0x2a: now page 1 goes */
    a64m_tlbi(&mm, 0, TLBI_VAE1IS, tlbi_va_operand(a64m_va(&mm, 1), 0x2a, TLBI_TTL_NONE));
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(seen_in(&mm, 1, 1), a64m_tag(7));
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/*
 * TTL (FEAT_TTL) names the leaf's granule and level: 0b0111 (4 KiB, level 3) drops a page's
 * entry, 0b0110 (level 2) leaves it, 0b0010 and 0b0011 (granule 0b00) are no hint and drop it
 * (VALE1IS too: a page's entry is a leaf), a 16 KiB granule's names nothing the model holds.
 */
static void test_ttl_of_another_level_leaves_the_entry(void **state)
{
    struct a64_model mm;
    struct a64m_counts n;
    static const struct { enum tlbi_op op; unsigned ttl; bool goes; } want[] = {
        { TLBI_VAE1IS, TLBI_TTL_4K_L2, false }, { TLBI_VAE1IS, TLBI_TTL_4K_L3, true },
        { TLBI_VAE1IS, 0x2, true },              { TLBI_VAE1IS, 0xb, false },
        { TLBI_VALE1IS, 0x3, true },
    };
    warm_model(&mm, 2, 5);
    remap_in(&mm, 0, 0, 5, false);
    for (uint32_t p = 0; p < 5; p++)
        a64m_tlbi(&mm, 0, want[p].op, tlbi_va_operand(a64m_va(&mm, p), 0, want[p].ttl));
    a64m_dsb_ish(&mm, 0);
    for (uint32_t p = 0; p < 5; p++)
        assert_int_equal(seen_in(&mm, 1, p), a64m_tag(want[p].goes ? 5 + p : p));
    a64m_sum_counts(&mm, &n);
    assert_int_equal(n.tlbi_ttl_elsewhere, 1);
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/* Linux's repeat-TLBI dummy (TLBI VALE1IS, XZR) names nothing of the region: counted, no error */
static void test_vale1is_xzr_is_the_repeat_dummy(void **state)
{
    struct a64_model mm;
    struct a64m_counts n;
    warm_model(&mm, 2, 4);
    remap_in(&mm, 0, 0, 1, false);
    a64m_tlbi(&mm, 0, TLBI_VALE1IS, 0);
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(seen_in(&mm, 1, 0), a64m_tag(0));
    a64m_sum_counts(&mm, &n);
    assert_int_equal(n.tlbi_dummy, 1);
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/* CPU 0: TLBI `op` (by VA) of pages [0, n) with `ttl`, then DSB ISH */
static void flush_with_ttl(struct a64_model *mm, enum tlbi_op op, uint32_t n, unsigned ttl)
{
    for (uint32_t p = 0; p < n; p++)
        a64m_tlbi(mm, 0, op, tlbi_va_operand(a64m_va(mm, p), 0, ttl));
    a64m_dsb_ish(mm, 0);
}

/* each of `cpus` CPUs reads page p < n as frame frame0 + p */
static void expect_frames(struct a64_model *mm, uint32_t cpus, uint32_t n, uint32_t frame0)
{
    for (uint32_t c = 0; c < cpus; c++)
        for (uint32_t p = 0; p < n; p++)
            assert_int_equal(seen_in(mm, c, p), a64m_tag(frame0 + p));
}

/*
 * A table replaced under last-level TLBIs: the walk cache keeps the level-2 table descriptor
 * that VALE1IS and a TTL of level 3 do not name, so every walk still goes through the old
 * table; VAE1IS without a hint drops it (Linux passes no TTL, and uses no last-level form,
 * when it frees a table for that reason). The swap, a live table descriptor rewritten as
 * another, is itself a break-before-make breach (one model error).
 */
static void test_a_last_level_tlbi_leaves_the_walk_cache(void **state)
{
    /* each TLBI of the 8 pages, and the frames every CPU then reads: stale until the last */
    static const struct { enum tlbi_op op; unsigned ttl; uint32_t frame0; } step[] = {
        { TLBI_VALE1IS, TLBI_TTL_NONE, 0 },
        { TLBI_VAE1IS, TLBI_TTL_4K_L3, 0 },
        { TLBI_VAE1IS, TLBI_TTL_NONE, 8 },
    };
    struct a64_model mm;
    uint32_t spare;
    warm_model(&mm, 3, 8); /* every CPU's walk cache holds block 0's table descriptor */
    spare = mm.blocks;      /* the first spare level-3 table: pages onto frames 8 + p */
    for (uint32_t p = 0; p < 8; p++)
        a64m_pte_store(&mm, 0, a64m_table_ptr(&mm, spare, p), a64m_pte(8 + p));
    a64m_pte_store(&mm, 0, a64m_l2_ptr(&mm, 0), a64m_table_desc(spare));
    a64m_dsb_ishst(&mm, 0);
    for (unsigned k = 0; k < sizeof(step) / sizeof(step[0]); k++) {
        flush_with_ttl(&mm, step[k].op, 8, step[k].ttl);
        expect_frames(&mm, 3, 8, step[k].frame0);
    }
    assert_int_equal(mm.violations, 1);
    assert_non_null(strstr(mm.violation[0], "block 0's valid level-2 descriptor"));
    a64m_free(&mm);
}

/* A block's entries are level-2 leaves: a TTL of level 3 leaves them when the block is split
 * back into a table, one of level 2 drops them. A block over a live table, and a table over a
 * live block, each without the break: a break-before-make breach each ("changing the block
 * size" needs it too). */
static void test_a_last_level_tlbi_leaves_a_block_entry(void **state)
{
    struct a64_model mm;
    warm_model(&mm, 2, 8);
    a64m_pte_store(&mm, 0, a64m_l2_ptr(&mm, 0), a64m_block_desc(8)); /* pages onto frames 8 + p */
    a64m_dsb_ishst(&mm, 0);
    flush_with_ttl(&mm, TLBI_VAE1IS, 8, TLBI_TTL_NONE);
    expect_frames(&mm, 2, 8, 8);
    for (uint32_t p = 0; p < 8; p++)
        assert_true(a64m_entry(&mm, 1, p) & A64M_TLB_BLOCK);
    a64m_pte_store(&mm, 0, a64m_l2_ptr(&mm, 0), a64m_table_desc(0)); /* the region's table again */
    a64m_dsb_ishst(&mm, 0);
    flush_with_ttl(&mm, TLBI_VAE1IS, 8, TLBI_TTL_4K_L3);
    expect_frames(&mm, 2, 8, 8); /* stale: the block's entries */
    flush_with_ttl(&mm, TLBI_VAE1IS, 8, TLBI_TTL_4K_L2);
    expect_frames(&mm, 2, 8, 0);
    assert_int_equal(mm.violations, 2);
    assert_non_null(strstr(mm.violation[0], "rewritten as 0x8001"));
    assert_non_null(strstr(mm.violation[1], "rewritten as 0x3"));
    a64m_free(&mm);
}

/*
 * A table replaced by a block the way Linux does it (pmd_clear(), the flush, then the new
 * pmd): the level-2 descriptor invalid, DSB ISHST, TLBIs of every level (no TTL), DSB ISH,
 * then the block: clean. With a TTL of level 3 or 2 the walk cache keeps the old table
 * descriptor, so the block is made while a walk may still go through the table: a breach;
 * and a block over pages whose entries a TLBI left (ASIDE1IS leaves global ones) too.
 */
static void test_a_block_over_a_table_needs_the_break(void **state)
{
    static const struct {
        unsigned ttl;
        const char *breach; /* NULL: clean */
    } step[] = {
        { TLBI_TTL_NONE, NULL },
        { TLBI_TTL_4K_L3, "walk cache" },
        { TLBI_TTL_4K_L2, "walk cache" },
        { 99, "(in its TLB)" }, /* TLBI ASIDE1IS: the walk caches go, the global page entries stay */
    };
    (void)state;
    for (unsigned k = 0; k < sizeof(step) / sizeof(step[0]); k++) {
        struct a64_model mm;
        warm_model(&mm, 2, 8);
        a64m_pte_store(&mm, 0, a64m_l2_ptr(&mm, 0), 0);
        a64m_dsb_ishst(&mm, 0);
        if (step[k].ttl == 99) {
            a64m_tlbi(&mm, 0, TLBI_ASIDE1IS, 0);
            a64m_dsb_ish(&mm, 0);
        } else
            flush_with_ttl(&mm, TLBI_VAE1IS, 8, step[k].ttl);
        a64m_pte_store(&mm, 0, a64m_l2_ptr(&mm, 0), a64m_block_desc(8));
        a64m_dsb_ishst(&mm, 0);
        if (!step[k].breach) {
            expect_frames(&mm, 2, 8, 8);
            assert_int_equal(mm.violations, 0);
        } else {
            assert_int_equal(mm.violations, 1);
            assert_non_null(strstr(mm.violation[0], step[k].breach));
        }
        a64m_free(&mm);
    }
}

/* RVAE1IS: (NUM + 1) << (5 * SCALE + 1) pages from BaseADDR, no more; TG other than 4 KiB an error */
static void test_range_operand_covers_its_pages(void **state)
{
    struct a64_model mm;
    warm_model(&mm, 2, 80);
    remap_in(&mm, 0, 0, 80, false);
    /* SCALE 0, NUM 15: 32 pages from page 3 (3..34) */
    a64m_tlbi(&mm, 0, TLBI_RVAE1IS, tlbi_range_operand(a64m_va(&mm, 3), 0, 0, 15));
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(seen_in(&mm, 1, 2), a64m_tag(2));
    assert_int_equal(seen_in(&mm, 1, 3), a64m_tag(83));
    assert_int_equal(seen_in(&mm, 1, 34), a64m_tag(114));
    assert_int_equal(seen_in(&mm, 1, 35), a64m_tag(35));
    /* SCALE 1, NUM 0: 64 pages from page 10 (10..73) */
    a64m_tlbi(&mm, 0, TLBI_RVAE1IS, tlbi_range_operand(a64m_va(&mm, 10), 0, 1, 0));
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(seen_in(&mm, 1, 73), a64m_tag(153));
    assert_int_equal(seen_in(&mm, 1, 74), a64m_tag(74));
    assert_int_equal(mm.violations, 0);
    /* TG 0b10 (16 KiB): not the tool's granule, a model error and nothing dropped */
    a64m_tlbi(&mm, 0, TLBI_RVAE1IS,
              (tlbi_range_operand(a64m_va(&mm, 74), 0, 0, 0) & ~(3ull << 46)) | 2ull << 46);
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(mm.violations, 1);
    assert_int_equal(seen_in(&mm, 1, 74), a64m_tag(74));
    a64m_free(&mm);
}

/* ---- the protocols' encodings (asm/tlbi.h as tlbi_flush.c builds them) on the model ---- */

/*
 * tlbi_flush_range of 33 pages: one RVAE1IS of 32 and a VAE1IS for the odd
 * one. Every page of the range goes, the last included; the page after it
 * stays (its old entry is still read), so NUM off by one either way fails.
 */
static void test_range_flush_covers_exactly_its_pages(void **state)
{
    struct a64_model mm;
    warm_model(&mm, 3, 40);
    remap_in(&mm, 0, 0, 34, false);
    a64m_bind(&mm, 0);
    tlbi_flush_range(a64m_va(&mm, 0), 33);
    a64m_unbind();
    for (uint32_t c = 0; c < 3; c++) {
        for (uint32_t p = 0; p < 33; p++)
            assert_int_equal(seen_in(&mm, c, p), a64m_tag(40 + p));
        assert_int_equal(seen_in(&mm, c, 33), a64m_tag(33));
    }
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/* tlbi_flush_asid(0x2a): ASID 0x2a's non-global entries go, ASID 0's non-global ones stay */
static void test_asid_flush_keeps_other_asids_entries(void **state)
{
    struct a64_model mm;
    nonglobal_model(&mm, 3, 4);
    a64m_set_asid(&mm, 0, 0x2a);
    a64m_set_asid(&mm, 1, 0x2a);
    for (uint32_t c = 0; c < 3; c++) /* non-global entries: 0x2a's on CPUs 0, 1, ASID 0's on 2 */
        for (uint32_t p = 0; p < 4; p++)
            assert_int_equal(seen_in(&mm, c, p), a64m_tag(4 + p));
    for (uint32_t p = 0; p < 4; p++)
        rewrite(&mm, 0, p, a64m_pte(p) | A64M_PTE_NG);
    a64m_dsb_ishst(&mm, 0); /* visible before the TLBI, as every protocol does it */
    a64m_bind(&mm, 0);
    tlbi_flush_asid(0x2a);
    a64m_unbind();
    for (uint32_t p = 0; p < 4; p++) {
        assert_int_equal(seen_in(&mm, 0, p), a64m_tag(p));
        assert_int_equal(seen_in(&mm, 1, p), a64m_tag(p));
        assert_int_equal(seen_in(&mm, 2, p), a64m_tag(4 + p)); /* ASID 0: not flushed */
    }
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/* every CPU reads pages [0, n) under `asid`, and stays in it */
static void read_under(struct a64_model *mm, uint32_t cpus, uint16_t asid, uint32_t n, uint32_t frame0)
{
    for (uint32_t c = 0; c < cpus; c++) {
        a64m_set_asid(mm, c, asid);
        for (uint32_t p = 0; p < n; p++)
            assert_int_equal(seen_in(mm, c, p), a64m_tag(frame0 + p));
    }
}

/*
 * KPTI's two ASIDs: a CPU that reads a non-global page under the kernel's ASID (0x2a) and
 * the user's (0x2b) holds both entries; a by-VA TLBI of one ASID drops its own only.
 */
static void test_a_page_keeps_an_entry_per_asid(void **state)
{
    struct a64_model mm;
    nonglobal_model(&mm, 2, 4);
    read_under(&mm, 2, 0x2a, 4, 4);
    read_under(&mm, 2, 0x2b, 4, 4);
    for (uint32_t p = 0; p < 4; p++)
        rewrite(&mm, 0, p, a64m_pte(p) | A64M_PTE_NG);
    a64m_dsb_ishst(&mm, 0);
    a64m_tlbi(&mm, 0, TLBI_VAE1IS, tlbi_va_operand(a64m_va(&mm, 1), 0x2a, TLBI_TTL_NONE));
    a64m_dsb_ish(&mm, 0);
    for (uint32_t c = 0; c < 2; c++) {
        a64m_set_asid(&mm, c, 0x2b); /* the user ASID's entry outlives the kernel's TLBI */
        assert_int_equal(seen_in(&mm, c, 1), a64m_tag(5));
        a64m_set_asid(&mm, c, 0x2a);
        assert_int_equal(seen_in(&mm, c, 1), a64m_tag(1));
        assert_int_equal(seen_in(&mm, c, 2), a64m_tag(6)); /* not named: both entries stay */
    }
    a64m_tlbi(&mm, 0, TLBI_VAE1IS, tlbi_va_operand(a64m_va(&mm, 1), tlbi_user_asid(0x2a), TLBI_TTL_NONE));
    a64m_dsb_ish(&mm, 0);
    for (uint32_t c = 0; c < 2; c++) {
        a64m_set_asid(&mm, c, 0x2b);
        assert_int_equal(seen_in(&mm, c, 1), a64m_tag(1));
    }
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/*
 * tlbi_flush_broadcast_asid (pti_double_invalidation's flush): with `user` the pages go under
 * the kernel's ASID and the user's on every CPU; without (one TLBI a page, Linux without
 * KPTI) the user ASID's entries stay, which the experiment's no_kpti points never read.
 */
static void test_kpti_flush_drops_both_asids(void **state)
{
    for (int user = 1; user >= 0; user--) {
        struct a64_model mm;
        nonglobal_model(&mm, 3, 8);
        read_under(&mm, 3, 0x2b, 8, 8);
        read_under(&mm, 3, 0x2a, 8, 8);
        for (uint32_t p = 0; p < 6; p++) /* pages 0..5 back to frames 0..5 */
            rewrite(&mm, 0, p, a64m_pte(p) | A64M_PTE_NG);
        a64m_dsb_ishst(&mm, 0);
        a64m_bind(&mm, 0);
        tlbi_flush_broadcast_asid(a64m_va(&mm, 0), 6, 0x2a, user);
        a64m_unbind();
        for (uint32_t c = 0; c < 3; c++)
            for (uint32_t p = 0; p < 8; p++) {
                uint32_t fresh = p < 6 ? p : 8 + p;
                a64m_set_asid(&mm, c, 0x2a);
                assert_int_equal(seen_in(&mm, c, p), a64m_tag(fresh));
                a64m_set_asid(&mm, c, 0x2b);
                assert_int_equal(seen_in(&mm, c, p), a64m_tag(user || p >= 6 ? fresh : 8 + p));
            }
        assert_int_equal(mm.violations, 0);
        a64m_free(&mm);
    }
}

/*
 * Linux's unmap sequence (linux_tlbi_flush) on non-global pages of ASID 0x2a (and KPTI's
 * 0x2b): `n` of `pages` pages made invalid without the caller's DSB ISHST (the sequence has its
 * own), flushed, then remapped, and every CPU must see the new frames under each ASID. Returns the path taken.
 */
static enum linux_tlbi_path linux_flush_case(const struct linux_tlbi *l, uint32_t pages, uint32_t n,
                                             struct a64m_counts *counts)
{
    struct a64_model mm;
    enum linux_tlbi_path path;
    nonglobal_model(&mm, 3, pages);
    read_under(&mm, 3, 0x2a, pages, pages);
    if (l->kpti)
        read_under(&mm, 3, 0x2b, pages, pages);
    /* break-before-make, as ptep_clear_flush() then set_pte_at(): pages 0..n-1 invalid (the
     * sequence's own DSB ISHST makes that visible), the flush, then frames 0..n-1 */
    for (uint32_t p = 0; p < n; p++)
        a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, p), 0);
    a64m_bind(&mm, 0);
    path = linux_tlbi_flush(l, a64m_va(&mm, 0), n);
    a64m_unbind();
    for (uint32_t p = 0; p < n; p++)
        a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, p), a64m_pte(p) | A64M_PTE_NG);
    a64m_dsb_ishst(&mm, 0);
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t p = 0; p < pages; p++) {
            uint64_t want = a64m_tag(p < n ? p : pages + p);
            a64m_set_asid(&mm, c, 0x2a);
            assert_int_equal(seen_in(&mm, c, p), want);
            if (l->kpti) {
                a64m_set_asid(&mm, c, 0x2b);
                assert_int_equal(seen_in(&mm, c, p), want);
            }
        }
    assert_int_equal(mm.violations, 0);
    a64m_sum_counts(&mm, counts);
    a64m_free(&mm);
    return path;
}

/* per page with the level-3 hint (FEAT_TTL), KPTI's second TLBI; ranges by decreasing SCALE;
 * flush_tlb_mm past MAX_DVM_OPS without range TLBI */
static void test_linux_flush_paths(void **state)
{
    struct linux_tlbi l = { .ttl = true, .kpti = true, .asid = 0x2a };
    struct a64m_counts n;
    assert_int_equal(linux_flush_case(&l, 12, 9, &n), LINUX_TLBI_PER_PAGE);
    assert_int_equal(n.tlbi_is, 18); /* 9 pages, each under the kernel and the user ASID */
    assert_int_equal(n.tlbi_ttl_elsewhere, 0);
    l.kpti = false;
    l.range = true;
    /* 75 pages: SCALE 1 takes 64, SCALE 0 ten, the last alone by VALE1IS */
    assert_int_equal(linux_flush_case(&l, 80, 75, &n), LINUX_TLBI_RANGE);
    assert_int_equal(n.tlbi_range, 2);
    l.range = false;
    assert_int_equal(linux_flush_case(&l, LINUX_MAX_DVM_OPS, LINUX_MAX_DVM_OPS, &n), LINUX_TLBI_MM);
    assert_int_equal(n.tlbi_asid, 1);
}

/* the repeat-TLBI workaround: TLBI VALE1IS, XZR + DSB ISH on N1, V1, V2 (Linux's list), not A72 */
static void test_linux_repeat_tlbi_by_midr(void **state)
{
    static const struct {
        const char *profile;
        bool repeat;
    } want[] = { { "neoverse-n1", true }, { "neoverse-v1", true }, { "neoverse-v2", true }, { "cortex-a72", false } };
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        struct arm64_cpu_id id;
        struct linux_tlbi l;
        struct a64m_counts n;
        a64_profile_identify(a64_profile_find(want[i].profile), &id);
        linux_tlbi_choose(&id, 0x2a, &l);
        assert_int_equal(l.repeat, want[i].repeat);
        linux_flush_case(&l, 8, 4, &n);
        assert_int_equal(n.tlbi_dummy, want[i].repeat ? 1 : 0);
    }
}

/* Linux's whole arm64_repeat_tlbi_list by MIDR, the parts no profile plays: other implementers
 * (Azure Cobalt 100 is a Neoverse N2 under Microsoft's code, NVIDIA Olympus), the entries
 * bounded by variant and revision (Cortex-A510 to r1p1, Kryo4xx Gold rcpe-rfpe), Qualcomm's
 * Kryo by the part's top digit; Neoverse N3 and Cortex-A72 are not in it */
static void test_linux_repeat_tlbi_whole_list(void **state)
{
    static const struct {
        uint64_t midr;
        bool repeat;
    } want[] = {
        { 0x6d0fd490, true },  /* Microsoft Azure Cobalt 100 */
        { 0x4e0f0100, true },  /* NVIDIA Olympus */
        { 0x414fd0b1, true },  /* Cortex-A76 r4p1: 4118414, every revision */
        { 0x410fd050, true },  /* Cortex-A55 */
        { 0x411fd461, true },  /* Cortex-A510 r1p1 */
        { 0x411fd462, false }, /* Cortex-A510 r1p2: fixed */
        { 0x51df804e, true },  /* Kryo4xx Gold rdpe */
        { 0x51bf804e, false }, /* Kryo4xx Gold rbpe: before the range */
        { 0x510f2110, true },  /* a Kryo (part 0x211) */
        { 0x510f8000, true },  /* Falkor v1 r0p0 */
        { 0x510f8001, false }, /* Falkor v1 r0p1 */
        { 0x410fd8e0, false }, /* Neoverse N3 */
        { 0x410fd083, false }, /* Cortex-A72 */
        { 0x6d0fd080, false }, /* Microsoft's implementer, another part */
    };
    (void)state;
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        struct arm64_cpu_id id = { .midr = want[i].midr };
        struct linux_tlbi l;
        arm64_cpu_decode(&id);
        linux_tlbi_choose(&id, 0x2a, &l);
        if (l.repeat != want[i].repeat)
            fail_msg("MIDR 0x%llx: repeat %d, want %d", (unsigned long long)want[i].midr, l.repeat, want[i].repeat);
    }
}

/* ID_AA64MMFR2_EL1.E0PD of the profiles (sim/arm64/profiles.c): N1, V1 and A72 lack it (Linux
 * runs KPTI there), V2 has it */
static void test_e0pd_decoded_from_mmfr2(void **state)
{
    struct arm64_cpu_id id;
    static const struct { const char *profile; bool e0pd; } want[] = {
        { "neoverse-n1", false }, { "neoverse-v1", false }, { "neoverse-v2", true }, { "cortex-a72", false },
    };
    for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
        const struct a64_profile *p = a64_profile_find(want[i].profile);
        assert_non_null(p);
        assert_int_equal(arm64_e0pd(p->mmfr2), want[i].e0pd);
        a64_profile_identify(p, &id);
        assert_int_equal(id.e0pd, want[i].e0pd);
    }
    assert_false(arm64_e0pd(0x0ull));
    assert_true(arm64_e0pd(1ull << 60));
    assert_false(arm64_e0pd(0x0fffffffffffffffull)); /* every other field set */
}

/* ---- break-before-make and the translation fault ---- */

/* a fresh model of 2 CPUs and 4 pages, each CPU holding every page's entry */
static void bbm_model(struct a64_model *mm)
{
    struct a64m_config cfg;
    a64m_config_defaults(&cfg);
    assert_true(a64m_init(mm, &cfg, 2, 4, 8, BASE));
    for (uint32_t p = 0; p < 4; p++)
        a64m_map_initial(mm, p, p);
    for (uint32_t c = 0; c < 2; c++)
        for (uint32_t p = 0; p < 4; p++)
            assert_int_equal(a64m_read(mm, c, a64m_va(mm, p)), a64m_tag(p));
}

/* A valid descriptor rewritten with another frame, or with nG flipped, over a live one: a
 * model error each; the same descriptor again, or a page mapped where none was, is not. */
static void test_a_live_descriptor_changed_without_a_break_is_an_error(void **state)
{
    struct a64_model mm;
    (void)state;
    bbm_model(&mm);
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 0), a64m_pte(0)); /* the same: harmless */
    assert_int_equal(mm.violations, 0);
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), a64m_pte(5)); /* another output address */
    assert_int_equal(mm.violations, 1);
    assert_non_null(strstr(mm.violation[0], "break-before-make"));
    assert_non_null(strstr(mm.violation[0], "another output address"));
    a64m_pte_store(&mm, 1, a64m_pte_ptr(&mm, 2), a64m_pte(2) | A64M_PTE_NG); /* nG flipped */
    assert_int_equal(mm.violations, 2);
    assert_non_null(strstr(mm.violation[1], "nG flipped"));
    /* the storing CPU's own buffered store is the old descriptor: a second valid one over
     * its first, before any DSB, is still a live change */
    a64m_pte_store(&mm, 1, a64m_pte_ptr(&mm, 3), 0);
    a64m_pte_store(&mm, 1, a64m_pte_ptr(&mm, 3), a64m_pte(7)); /* the make with no TLBI: entries held */
    assert_int_equal(mm.violations, 3);
    assert_non_null(strstr(mm.violation[2], "may hold 0x3003 (in its TLB)"));
    a64m_pte_store(&mm, 1, a64m_pte_ptr(&mm, 3), a64m_pte(6));
    assert_int_equal(mm.violations, 4);
    assert_non_null(strstr(mm.violation[3], "without an invalid one between"));
    a64m_free(&mm);
}

/*
 * The break's TLBI must be complete before the make (Arm ARM, "Using break-before-make when
 * updating translation table entries": invalid, DSB, TLBI, DSB, new): "invalid, make, TLBI"
 * and "invalid, TLBI with no DSB after it, make" are breaches, even where the TLBI happened
 * to take effect everywhere before the make (every TLBI early here); "invalid, DSB ISHST,
 * TLBI, DSB ISH, make" is clean.
 */
static void test_the_make_before_the_tlbi_completes_is_an_error(void **state)
{
    struct a64_model mm;
    struct a64m_config cfg;
    (void)state;
    for (int order = 0; order < 3; order++) {
        a64m_config_defaults(&cfg);
        cfg.early_per_65536 = 65536; /* each TLBI takes effect everywhere within a few steps */
        assert_true(a64m_init(&mm, &cfg, 2, 4, 8, BASE));
        for (uint32_t p = 0; p < 4; p++)
            a64m_map_initial(&mm, p, p);
        for (uint32_t c = 0; c < 2; c++)
            assert_int_equal(a64m_read(&mm, c, a64m_va(&mm, 1)), a64m_tag(1));
        a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), 0);
        a64m_dsb_ishst(&mm, 0);
        if (order == 0) /* the make, then its TLBI */
            a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), a64m_pte(5));
        va_is(&mm, 0, a64m_va(&mm, 1));
        for (unsigned k = 0; k < 2 * A64M_EFFECT_WINDOW; k++) /* the TLBI taken effect on both */
            a64m_tick(&mm, 1);
        if (order == 2)
            a64m_dsb_ish(&mm, 0);
        if (order != 0)
            a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), a64m_pte(5));
        a64m_dsb_ish(&mm, 0);
        if (order == 2) {
            for (uint32_t c = 0; c < 2; c++)
                assert_int_equal(a64m_read(&mm, c, a64m_va(&mm, 1)), a64m_tag(5));
            assert_int_equal(mm.violations, 0);
        } else {
            assert_int_equal(mm.violations, 1);
            assert_non_null(strstr(mm.violation[0], order == 0 ? "(in its TLB)" : "(its TLBI not complete by a DSB)"));
        }
        a64m_free(&mm);
    }
}

/* Linux's ptep_clear_flush() then set_pte_at(): invalid, DSB ISHST, TLBI, DSB ISH, the new
 * descriptor (the nG flip the same way): no model error, no stale read, and between the
 * flush and the new descriptor a CPU without an entry takes a translation fault, which
 * only the recoverable read takes without a model error. */
static void test_break_before_make_passes_and_the_gap_faults(void **state)
{
    struct a64_model mm;
    bool faulted = false;
    (void)state;
    bbm_model(&mm);
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), 0);
    a64m_dsb_ishst(&mm, 0);
    va_is(&mm, 0, a64m_va(&mm, 1));
    a64m_dsb_ish(&mm, 0);
    assert_int_equal(a64m_read_recoverable(&mm, 1, a64m_va(&mm, 1), &faulted), 0);
    assert_true(faulted);
    assert_int_equal(mm.violations, 0);
    a64m_read(&mm, 1, a64m_va(&mm, 1)); /* the same fault, not asked for as recoverable */
    assert_int_equal(mm.violations, 1);
    assert_non_null(strstr(mm.violation[0], "translation fault"));
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 1), a64m_pte(5) | A64M_PTE_NG);
    a64m_dsb_ishst(&mm, 0);
    for (uint32_t c = 0; c < 2; c++)
        assert_int_equal(a64m_read_recoverable(&mm, c, a64m_va(&mm, 1), &faulted), a64m_tag(5));
    assert_false(faulted);
    assert_int_equal(mm.violations, 1);
    a64m_free(&mm);
}

/* The control's read (asm/abort.h on the host, host_tlbi.c): with the descriptor invalid
 * and no TLBI, a CPU holding the entry reads the old frame, one without reads
 * TEST_READ_FAULTED inside its abort window, and the window counts it. */
static void test_the_controls_read_is_stale_or_a_recovered_fault(void **state)
{
    struct a64_model mm;
    struct a64m_config cfg;
    (void)state;
    a64m_config_defaults(&cfg);
    cfg.spec_per_65536 = cfg.pte_fill_per_65536 = 0; /* no walk but those the test makes */
    assert_true(a64m_init(&mm, &cfg, 2, 4, 8, BASE));
    a64m_map_initial(&mm, 0, 0);
    assert_int_equal(a64m_read(&mm, 0, a64m_va(&mm, 0)), a64m_tag(0)); /* CPU 0 holds it, CPU 1 not */
    a64m_pte_store(&mm, 0, a64m_pte_ptr(&mm, 0), 0);
    a64m_dsb_ishst(&mm, 0);
    a64m_bind(&mm, 0);
    abort_window_open();
    assert_int_equal(test_read((const volatile uint64_t *)(uintptr_t)a64m_va(&mm, 0)), a64m_tag(0));
    assert_int_equal(abort_window_close(), 0);
    a64m_bind(&mm, 1);
    abort_window_open();
    assert_int_equal(test_read((const volatile uint64_t *)(uintptr_t)a64m_va(&mm, 0)), TEST_READ_FAULTED);
    assert_int_equal(abort_window_close(), 1);
    a64m_unbind();
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

/* tlbi_flush_broadcast reaches every CPU; tlbi_flush_local only its own */
static void test_broadcast_flush_reaches_every_cpu(void **state)
{
    struct a64_model mm;
    struct a64m_counts n;
    warm_model(&mm, 3, 4);
    remap_in(&mm, 0, 0, 2, false);
    a64m_bind(&mm, 0);
    tlbi_flush_broadcast(a64m_va(&mm, 0), 2);
    a64m_unbind();
    for (uint32_t c = 0; c < 3; c++)
        for (uint32_t p = 0; p < 2; p++)
            assert_int_equal(seen_in(&mm, c, p), a64m_tag(4 + p));
    a64m_sum_counts(&mm, &n);
    assert_int_equal(n.tlbi_is, 2);
    assert_int_equal(n.tlbi_local, 0);
    remap_in(&mm, 0, 2, 1, false);
    a64m_bind(&mm, 1);
    tlbi_flush_local(a64m_va(&mm, 2), 1);
    a64m_unbind();
    assert_int_equal(seen_in(&mm, 1, 2), a64m_tag(6));
    assert_int_equal(seen_in(&mm, 2, 2), a64m_tag(2));
    assert_int_equal(mm.violations, 0);
    a64m_free(&mm);
}

static const uint32_t cpu_counts[] = { 2, 3, 5, 8 };
static const uint32_t page_counts[] = { 1, 2, 7, 64, 512 };
#define SEEDS 3u

static struct totals {
    uint32_t runs;
    uint64_t checks, stale;
    uint64_t control_checks, control_stale;
} total;

/* Every CPU count x page count x seed of one shape; the stale reads of all of them. A model
 * error fails it, but where `bbm` counts them: break-before-make breaches, which a wrong
 * protocol makes (its new descriptors stored over entries its flush left). */
static uint64_t run_matrix_bbm(enum a64h_shape shape, uint32_t initiators, uint64_t *checks_out, uint32_t *bbm)
{
    uint64_t stale = 0, checks = 0;
    for (size_t ci = 0; ci < sizeof(cpu_counts) / sizeof(cpu_counts[0]); ci++) {
        for (size_t pi = 0; pi < sizeof(page_counts) / sizeof(page_counts[0]); pi++) {
            for (uint32_t s = 0; s < SEEDS; s++) {
                struct a64h_params p;
                struct a64h_result r;
                uint32_t cpus = cpu_counts[ci], pages = page_counts[pi];
                a64h_params_defaults(&p, shape, cpus, pages, 1000 * ci + 10 * pi + s);
                if (initiators)
                    p.initiators = initiators;
                assert_true(a64h_run(&p, &r));
                if (bbm && r.violations && strstr(r.first_violation, "break-before-make")) {
                    (*bbm)++;
                    r.violations = 0;
                }
                if (r.timeouts || r.violations)
                    fail_msg("%s %u CPUs %u pages seed %u: %u timeouts, %u violations (%s)",
                             a64h_shape_name(shape), cpus, pages, s, r.timeouts, r.violations,
                             r.first_violation);
                /* every CPU checked every page in every round */
                assert_int_equal(r.checks, (uint64_t)cpus * pages * p.rounds);
                if (r.stale_reads && !stale)
                    printf("# %s, %u CPUs, %u pages, seed %u: %llu stale reads of %llu checks, "
                           "first on CPU %u at 0x%llx (expected 0x%llx, seen 0x%llx)\n",
                           a64h_shape_name(shape), cpus, pages, s,
                           (unsigned long long)r.stale_reads, (unsigned long long)r.checks,
                           r.stale_cpu, (unsigned long long)r.stale_va,
                           (unsigned long long)r.stale_expected, (unsigned long long)r.stale_seen);
                stale += r.stale_reads;
                checks += r.checks;
                total.runs++;
            }
        }
    }
    *checks_out = checks;
    return stale;
}

static uint64_t run_matrix(enum a64h_shape shape, uint32_t initiators, uint64_t *checks_out)
{
    return run_matrix_bbm(shape, initiators, checks_out, NULL);
}

static void expect_clean(enum a64h_shape shape, uint32_t initiators)
{
    uint64_t checks, stale = run_matrix(shape, initiators, &checks);
    total.checks += checks;
    total.stale += stale;
    if (stale)
        fail_msg("%s: %llu stale reads of %llu checks", a64h_shape_name(shape),
                 (unsigned long long)stale, (unsigned long long)checks);
}

static void test_broadcast_has_no_stale_reads(void **state) { expect_clean(A64H_BROADCAST, 0); }
static void test_ipi_local_has_no_stale_reads(void **state) { expect_clean(A64H_IPI_LOCAL, 0); }
static void test_range_has_no_stale_reads(void **state) { expect_clean(A64H_RANGE, 0); }
static void test_broadcast_os_has_no_stale_reads(void **state) { expect_clean(A64H_BROADCAST_OS, 0); }
static void test_asid_has_no_stale_reads(void **state) { expect_clean(A64H_ASID, 0); }
static void test_full_has_no_stale_reads(void **state) { expect_clean(A64H_FULL, 0); }
/* m = 2 initiators, and every CPU an initiator (clamped to the pages) */
static void test_concurrent_has_no_stale_reads(void **state)
{
    expect_clean(A64H_CONCURRENT, 2);
    expect_clean(A64H_CONCURRENT, 0);
}

/* A target that never acknowledges: the initiator's deadline ends the run, nothing hangs. */
static void test_a_silent_target_times_out(void **state)
{
    struct a64h_params p;
    struct a64h_result r;
    a64h_params_defaults(&p, A64H_IPI_LOCAL, 4, 8, 5);
    p.silent_target = 2;
    p.timeout_ms = 300;
    assert_true(a64h_run(&p, &r));
    assert_true(r.timeouts >= 1);
    assert_true(r.checks < (uint64_t)4 * 8 * p.rounds); /* the run stopped in its first round */
}

/* No invalidation at all: every shape above would pass a verifier that sees nothing. */
static void test_control_shows_stale_reads(void **state)
{
    uint64_t checks, stale;
    for (size_t ci = 0; ci < sizeof(cpu_counts) / sizeof(cpu_counts[0]); ci++) {
        for (size_t pi = 0; pi < sizeof(page_counts) / sizeof(page_counts[0]); pi++) {
            struct a64h_params p;
            struct a64h_result r;
            a64h_params_defaults(&p, A64H_CONTROL, cpu_counts[ci], page_counts[pi], 99 + ci);
            assert_true(a64h_run(&p, &r));
            assert_int_equal(r.timeouts, 0);
            /* each run on its own: stale reads on some CPU; every CPU warmed every page and
             * nothing invalidated it, so no read finds no entry (no recovered fault) */
            assert_int_equal(r.faults, 0);
            if (r.stale_reads == 0)
                fail_msg("control, %u CPUs, %u pages: no stale read in %llu checks",
                         cpu_counts[ci], page_counts[pi], (unsigned long long)r.checks);
            total.runs++;
            total.control_checks += r.checks;
            total.control_stale += r.stale_reads;
        }
    }
    stale = run_matrix(A64H_CONTROL, 0, &checks);
    total.control_checks += checks;
    total.control_stale += stale;
}

/* The wrong barrier, or an ASID invalidation of global entries: the strict rules leave
 * them stale, so broadcast_os and asid above pass for their barrier and their nG bit; and
 * their new descriptors are made over entries still held, a break-before-make breach. */
static void expect_stale(enum a64h_shape shape)
{
    uint32_t bbm = 0;
    uint64_t checks, stale = run_matrix_bbm(shape, 0, &checks, &bbm);
    total.control_checks += checks;
    total.control_stale += stale;
    if (!stale)
        fail_msg("%s: no stale read in %llu checks", a64h_shape_name(shape), (unsigned long long)checks);
    if (!bbm)
        fail_msg("%s: no break-before-make breach", a64h_shape_name(shape));
}
static void test_os_with_dsb_ish_shows_stale_reads(void **state) { expect_stale(A64H_OS_DSB_ISH); }
/* a TLBI takes effect anywhere from its issue to its DSB: stores not visible before it are late */
static void test_store_without_dsb_ishst_shows_stale_reads(void **state) { expect_stale(A64H_NO_ISHST); }
static void test_tlbi_before_store_shows_stale_reads(void **state) { expect_stale(A64H_TLBI_FIRST); }
static void test_asid_on_global_pages_shows_stale_reads(void **state) { expect_stale(A64H_ASID_GLOBAL); }

int main(void)
{
    const struct CMUnitTest rules[] = {
        cmocka_unit_test(test_broadcast_completes_at_the_issuers_dsb_ish),
        cmocka_unit_test(test_local_tlbi_reaches_its_cpu_only),
        cmocka_unit_test(test_stores_reach_walks_at_a_dsb_ish_only),
        cmocka_unit_test(test_range_and_all_are_broadcasts),
        cmocka_unit_test(test_a_flush_before_the_store_is_visible_keeps_the_old_entry),
        cmocka_unit_test(test_a_store_leaves_old_entries_behind),
        cmocka_unit_test(test_a_tlbi_takes_effect_between_issue_and_dsb),
        cmocka_unit_test(test_a_tlbi_before_its_store_is_visible_leaves_stale_entries),
        cmocka_unit_test(test_outer_shareable_completes_at_the_issuers_dsb_osh),
        cmocka_unit_test(test_asid_invalidation_drops_only_its_non_global_entries),
        cmocka_unit_test(test_by_va_tlbi_honours_its_asid),
        cmocka_unit_test(test_ttl_of_another_level_leaves_the_entry),
        cmocka_unit_test(test_vale1is_xzr_is_the_repeat_dummy),
        cmocka_unit_test(test_a_last_level_tlbi_leaves_the_walk_cache),
        cmocka_unit_test(test_a_last_level_tlbi_leaves_a_block_entry),
        cmocka_unit_test(test_a_block_over_a_table_needs_the_break),
        cmocka_unit_test(test_range_operand_covers_its_pages),
        cmocka_unit_test(test_range_flush_covers_exactly_its_pages),
        cmocka_unit_test(test_asid_flush_keeps_other_asids_entries),
        cmocka_unit_test(test_a_page_keeps_an_entry_per_asid),
        cmocka_unit_test(test_kpti_flush_drops_both_asids),
        cmocka_unit_test(test_linux_flush_paths),
        cmocka_unit_test(test_linux_repeat_tlbi_by_midr),
        cmocka_unit_test(test_linux_repeat_tlbi_whole_list),
        cmocka_unit_test(test_e0pd_decoded_from_mmfr2),
        cmocka_unit_test(test_broadcast_flush_reaches_every_cpu),
        cmocka_unit_test(test_a_live_descriptor_changed_without_a_break_is_an_error),
        cmocka_unit_test(test_the_make_before_the_tlbi_completes_is_an_error),
        cmocka_unit_test(test_break_before_make_passes_and_the_gap_faults),
        cmocka_unit_test(test_the_controls_read_is_stale_or_a_recovered_fault),
    };
    const struct CMUnitTest shapes[] = {
        cmocka_unit_test(test_broadcast_has_no_stale_reads),
        cmocka_unit_test(test_ipi_local_has_no_stale_reads),
        cmocka_unit_test(test_range_has_no_stale_reads),
        cmocka_unit_test(test_concurrent_has_no_stale_reads),
        cmocka_unit_test(test_control_shows_stale_reads),
        cmocka_unit_test(test_broadcast_os_has_no_stale_reads),
        cmocka_unit_test(test_asid_has_no_stale_reads),
        cmocka_unit_test(test_full_has_no_stale_reads),
        cmocka_unit_test(test_os_with_dsb_ish_shows_stale_reads),
        cmocka_unit_test(test_store_without_dsb_ishst_shows_stale_reads),
        cmocka_unit_test(test_tlbi_before_store_shows_stale_reads),
        cmocka_unit_test(test_asid_on_global_pages_shows_stale_reads),
        cmocka_unit_test(test_a_silent_target_times_out),
    };
    int failed = cmocka_run_group_tests_name("arm64_model_rules", rules, model_setup, model_teardown);
    failed += cmocka_run_group_tests_name("arm64_model_shapes", shapes, NULL, NULL);
    printf("# SUMMARY: simulated aarch64 (strict model): %u runs (%d shapes x %zu CPU counts "
           "2..8 x %zu page counts 1..512 x seeds), %llu checks, %llu stale reads; "
           "control: %llu stale of %llu checks\n",
           total.runs, (int)A64H_SHAPES, sizeof(cpu_counts) / sizeof(cpu_counts[0]),
           sizeof(page_counts) / sizeof(page_counts[0]), (unsigned long long)total.checks,
           (unsigned long long)total.stale, (unsigned long long)total.control_stale,
           (unsigned long long)total.control_checks);
    return failed;
}
