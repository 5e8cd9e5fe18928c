/*
 * The strict TLB model (sim/tlb_model.h) on its own, against the semantics
 * its header states (Intel SDM vol. 3A 4.10, AMD APM vol. 3 INVLPGB/TLBSYNC).
 *
 * Everything the simulator concludes about a protocol rests on this model
 * keeping exactly what hardware may keep and dropping exactly what an
 * invalidation guarantees to drop; a model that drops too much hides missing
 * flushes, one that drops too little reports protocols that are correct. So
 * each test asserts exact frames, entry counts and violation counts.
 *
 * Single-threaded: the model only needs each CPU's operations to come from
 * one thread at a time, so the test thread plays CPUs 0..n-1 in turn. Page
 * tables come from arch/x86/include/asm/paging.h; a "physical" address is a host pointer
 * (sim/hostmem.h), so a read through the model returns the word of the frame
 * the translation names, which tells exactly which translation was used.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "asm/cpu.h"
#include "asm/invlpgb.h"
#include "asm/paging.h"
#include "asm/tlb.h"
#include "sim/tlb_model.h"
#include "tests/host/support_host.h"

/* ---- the world: a model, page tables and marked frames ---- */

#define NSMALL 8u                 /* non-global 4 KiB pages VA(0..7) -> frames 0..7 */
#define FRAME_G 8u                /* the global page's frame */
#define FRAME_BIG 9u              /* the 2 MiB frame */
#define NFRAMES 10u
#define MAX_TABLES 64u

#define BASE_VA 0x40000000ull     /* VA(i): 4 KiB, non-global */
#define VA(i) (BASE_VA + (uint64_t)(i) * PAGE_4K)
#define GLOBAL_VA 0x50000000ull   /* 4 KiB, G set */
#define BIG_VA 0x80000000ull      /* one 2 MiB PS mapping */
#define UNMAPPED_VA 0x60000000ull /* nothing maps it */
#define STRIDE_VA 0x100000000ull  /* the 2 MiB-stride layout (test_invlpgb_2m_stride) */

/* Each word of frame f says which frame and which word it is. */
#define MARK(f, word) (0x5a00000000000000ull | ((uint64_t)(f) << 32) | (uint64_t)(word))

struct world {
    struct tlb_model m;
    struct pt_ctx pt;              /* CR3's tables */
    uint64_t *frame[NFRAMES];
    void *tables[MAX_TABLES];      /* every table of every pt_ctx, freed at the end */
    uint32_t ntables;
};

/* Allocator for pt_init/pt_map that remembers its tables so the test can free them. */
static void *track_table(void *ctx)
{
    struct world *w = ctx;
    void *t;
    if (w->ntables == MAX_TABLES)
        return NULL;
    t = host_alloc_table(NULL);
    if (t)
        w->tables[w->ntables++] = t;
    return t;
}

static uint64_t frame_pa(const struct world *w, unsigned f) { return (uint64_t)(uintptr_t)w->frame[f]; }
static uint64_t root_of(const struct pt_ctx *pt) { return (uint64_t)(uintptr_t)pt->root; }
static uint64_t root(const struct world *w) { return root_of(&w->pt); }

/*
 * Every feature on, no speculation and no splintering: a test sees only the
 * fills its own reads cause, and the random stream is spent only on
 * replacement and INVLPGB delays, so every run of a test makes the same
 * choices.
 */
static struct tlbm_config quiet_config(void)
{
    struct tlbm_config cfg;
    tlbm_config_defaults(&cfg);
    cfg.spec_per_65536 = 0;
    cfg.pte_spec_per_65536 = 0;
    cfg.splinter_per_65536 = 0;
    cfg.feat.pge = cfg.feat.pcid = cfg.feat.invpcid = cfg.feat.invlpgb = true;
    cfg.feat.invlpgb_max_extra = 7;
    return cfg;
}

/* Builds the standard tables (VA(i), GLOBAL_VA, BIG_VA) and points every CPU's CR3 at them. */
static void world_init(struct world *w, const struct tlbm_config *cfg, uint32_t ncpus)
{
    unsigned f;
    uint64_t i, words;
    uint32_t c;
    memset(w, 0, sizeof(*w));
    assert_true(tlbm_init(&w->m, cfg, ncpus));
    for (f = 0; f < NFRAMES; f++) {
        uint64_t bytes = f == FRAME_BIG ? PAGE_2M : PAGE_4K;
        w->frame[f] = host_alloc_frames(NULL, bytes, bytes);
        assert_non_null(w->frame[f]);
        words = bytes / 8;
        for (i = 0; i < words; i++)
            w->frame[f][i] = MARK(f, i);
    }
    assert_true(pt_init(&w->pt, 4, false, track_table, w));
    for (f = 0; f < NSMALL; f++)
        assert_true(pt_map(&w->pt, VA(f), frame_pa(w, f), PAGE_4K, PTE_RW, false));
    assert_true(pt_map(&w->pt, GLOBAL_VA, frame_pa(w, FRAME_G), PAGE_4K, PTE_RW | PTE_G, false));
    assert_true(pt_map(&w->pt, BIG_VA, frame_pa(w, FRAME_BIG), PAGE_2M, PTE_RW, true));
    assert_int_equal(w->pt.leaves_2m, 1);
    for (c = 0; c < ncpus; c++)
        tlbm_write_cr3(&w->m, c, root(w));
    assert_int_equal(w->m.violations, 0);
}

static void world_free(struct world *w)
{
    unsigned f;
    uint32_t t;
    tlbm_free(&w->m);
    for (f = 0; f < NFRAMES; f++)
        free(w->frame[f]);
    for (t = 0; t < w->ntables; t++)
        free(w->tables[t]);
}

/* A second set of tables mapping VA(i) to frame (i + shift) % NSMALL: "another address space". */
static void other_tables(struct world *w, struct pt_ctx *pt, unsigned shift)
{
    unsigned i;
    assert_true(pt_init(pt, 4, false, track_table, w));
    for (i = 0; i < NSMALL; i++)
        assert_true(pt_map(pt, VA(i), frame_pa(w, (i + shift) % NSMALL), PAGE_4K, PTE_RW, false));
}

/* Rewrites the leaf that maps va to point at frame f, as an initiator's remap would. */
static void remap(struct world *w, uint64_t va, unsigned f)
{
    uint64_t *pte = pt_leaf(&w->pt, va, NULL);
    assert_non_null(pte);
    *pte = (*pte & ~PTE_ADDR_MASK) | frame_pa(w, f);
}

/* A read on CPU c at va must succeed and return the word of frame f at va's offset. */
static void expect_read(struct world *w, uint32_t c, uint64_t va, unsigned f)
{
    uint64_t v = 0, mask = f == FRAME_BIG ? PAGE_2M - 1 : PAGE_4K - 1;
    assert_true(tlbm_read64(&w->m, c, va, &v));
    assert_true(v == MARK(f, (va & mask) / 8));
}

/* CPU c holds a translation of va usable now, to frame f. */
static void expect_held(struct world *w, uint32_t c, uint64_t va, unsigned f)
{
    uint64_t pa = 0, mask = f == FRAME_BIG ? PAGE_2M - 1 : PAGE_4K - 1;
    assert_true(tlbm_holds(&w->m, c, va, &pa));
    assert_true(pa == frame_pa(w, f) + (va & mask));
}

static void expect_violation(struct world *w, uint32_t count, const char *text)
{
    assert_int_equal(w->m.violations, count);
    if (text && count <= TLBM_MAX_VIOLATIONS)
        assert_non_null(strstr(w->m.violation[count - 1], text));
}

static void enable_pcid(struct world *w, uint32_t c, uint32_t pcid)
{
    /* setting PCIDE needs CR3[11:0] = 0: world_init left CR3 = root */
    tlbm_write_cr4(&w->m, c, w->m.cpu[c]->cr4 | CR4_PCIDE);
    assert_true(w->m.cpu[c]->cr4 & CR4_PCIDE);
    tlbm_write_cr3(&w->m, c, root(w) | pcid);
}

static uint32_t held_count(struct world *w, uint32_t c, uint32_t pages)
{
    uint32_t i, n = 0;
    for (i = 0; i < pages; i++)
        n += tlbm_holds(&w->m, c, VA(i), NULL) ? 1 : 0;
    return n;
}

/* ---- fills ---- */

/* Entries come only from walks of CR3's tables; a missing or not-present leaf is a #PF. */
static void test_fills_only_from_walks(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint64_t v = 1, *pte;
    (void)state;
    world_init(&w, &cfg, 2);
    /* mapped but never read: nothing cached */
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 0), 0);

    assert_false(tlbm_read64(&w.m, 0, UNMAPPED_VA, &v));
    assert_true(v == 0);
    expect_violation(&w, 1, "#PF");
    assert_non_null(strstr(w.m.violation[0], "CPU 0:"));
    assert_false(tlbm_holds(&w.m, 0, UNMAPPED_VA, NULL));

    /* P clear in the leaf: not present, even though the rest of the entry names a frame */
    pte = pt_leaf(&w.pt, VA(7), NULL);
    assert_non_null(pte);
    *pte &= ~PTE_P;
    assert_false(tlbm_read64(&w.m, 1, VA(7), &v));
    expect_violation(&w, 2, "#PF");
    assert_non_null(strstr(w.m.violation[1], "CPU 1:"));
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(7), 0), 0);

    /* a read fills exactly one entry, on the reading CPU only */
    expect_read(&w, 0, VA(3) + 0x18, 3);
    expect_held(&w, 0, VA(3), 3);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(3), 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(3), -1), 0);
    assert_false(tlbm_holds(&w.m, 1, VA(3), NULL));
    assert_int_equal(w.m.cpu[0]->n.misses, 1);
    expect_read(&w, 0, VA(3) + 0xff8, 3);
    assert_int_equal(w.m.cpu[0]->n.misses, 1); /* a hit */
    assert_int_equal(w.m.cpu[0]->n.reads, 3);
    expect_violation(&w, 2, NULL);
    world_free(&w);
}

/*
 * A load from a non-canonical address faults (#GP, SDM vol. 1 3.3.7.1)
 * before any walk: bits 63:48 must copy bit 47 with 4-level paging. Without
 * the check the walk, which indexes only bits 47:12, would alias the address
 * to a mapped page and return its data.
 */
static void test_non_canonical_read_faults(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    const uint64_t alias = 0xffff000000000000ull | VA(0); /* bit 47 clear, 63:48 set */
    uint64_t v = 1;
    (void)state;
    world_init(&w, &cfg, 1);
    assert_false(tlbm_read64(&w.m, 0, alias, &v));
    assert_true(v == 0);
    expect_violation(&w, 1, "#GP");
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    assert_int_equal(tlbm_count_entries(&w.m, 0, alias, 0), 0);
    /* the canonical high half is an ordinary (here unmapped) address: #PF */
    assert_false(tlbm_read64(&w.m, 0, 0xffff800000000000ull | VA(0), &v));
    expect_violation(&w, 2, "#PF");
    expect_read(&w, 0, VA(0), 0);
    world_free(&w);
}

/*
 * CR4.LA57, set by the firmware: 5-level walks, and canonical means bits
 * 63:56 equal (an address with bit 47 set and 63:48 clear, non-canonical
 * under 4 levels, is an ordinary one); the paging mode cannot change.
 */
static void test_la57_walks_five_levels(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    const uint64_t high = 0x0001800040000000ull; /* PML5 slot 1, bit 47 set */
    uint64_t v = 1;
    (void)state;
    memset(&w, 0, sizeof(w));
    cfg.la57 = true;
    assert_false(tlbm_init(&w.m, &cfg, 1)); /* not on a CPU without LA57 */
    cfg.feat.la57 = true;
    assert_true(tlbm_init(&w.m, &cfg, 1));
    assert_true(w.m.cpu[0]->cr4 & CR4_LA57);
    w.frame[0] = host_alloc_frames(NULL, PAGE_4K, PAGE_4K);
    w.frame[1] = host_alloc_frames(NULL, PAGE_4K, PAGE_4K);
    w.frame[0][0] = MARK(0, 0);
    w.frame[1][0] = MARK(1, 0);
    assert_true(pt_init(&w.pt, 5, false, track_table, &w));
    assert_true(pt_map(&w.pt, VA(0), frame_pa(&w, 0), PAGE_4K, PTE_RW, false));
    assert_true(pt_map(&w.pt, high, frame_pa(&w, 1), PAGE_4K, PTE_RW, false));
    tlbm_write_cr3(&w.m, 0, root(&w));
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, high, 1);
    assert_int_equal(w.m.violations, 0);
    /* bit 56 set, 63:57 clear: non-canonical with 57 bits too */
    assert_false(tlbm_read64(&w.m, 0, 0x0100000000000000ull, &v));
    expect_violation(&w, 1, "#GP");
    /* the canonical high half of 57 bits: an ordinary, here unmapped, address */
    assert_false(tlbm_read64(&w.m, 0, 0xff00000000000000ull, &v));
    expect_violation(&w, 2, "#PF");
    /* the mode is the firmware's: clearing LA57 faults and changes nothing */
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 & ~CR4_LA57);
    expect_violation(&w, 3, "#GP: MOV to CR4 changing CR4.LA57");
    assert_true(w.m.cpu[0]->cr4 & CR4_LA57);
    expect_read(&w, 0, high, 1);
    /* PCIDE on and off around it is fine */
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 | CR4_PCIDE);
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 & ~CR4_PCIDE);
    assert_int_equal(w.m.violations, 3);
    world_free(&w);
    /* under 4 levels the same address is non-canonical, and setting LA57 faults */
    cfg = quiet_config();
    world_init(&w, &cfg, 1);
    assert_false(tlbm_read64(&w.m, 0, high, &v));
    expect_violation(&w, 1, "#GP: read of non-canonical");
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 | CR4_LA57);
    expect_violation(&w, 2, "#GP: MOV to CR4 changing CR4.LA57");
    world_free(&w);
}

/* A PS=1 PDE makes one 2 MiB entry that serves the whole page. */
static void test_2m_mapping_fills_a_2m_entry(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    expect_read(&w, 0, BIG_VA + 0x123458, FRAME_BIG);
    assert_int_equal(w.m.cpu[0]->n.misses, 1);
    /* only an entry spanning 2 MiB contains an address 1 MiB away from the read */
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA, 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA + 0x1ff000, 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA + PAGE_2M, 0), 0);
    expect_held(&w, 0, BIG_VA + 0x1ff008, FRAME_BIG);
    expect_read(&w, 0, BIG_VA + 0x1ff008, FRAME_BIG);
    assert_int_equal(w.m.cpu[0]->n.misses, 1);
    /* INVLPG of any address inside the page drops the 2 MiB entry */
    tlbm_invlpg(&w.m, 0, BIG_VA + 0x100000);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA, 0), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/*
 * A PS=1 PDPTE makes one 1 GiB entry. The frame is never dereferenced: a
 * speculative walk fills the entry without a load, so a made-up 1 GiB-aligned
 * physical address will do (a real 1 GiB host allocation would not).
 */
static void test_1g_mapping_fills_a_1g_entry(void **state)
{
    struct world w;
    struct pt_ctx big;
    struct tlbm_config cfg = quiet_config();
    const uint64_t va = 0x8000000000ull, pa = 0x4000000000ull; /* 512 GiB, 256 GiB */
    uint64_t got = 0;
    (void)state;
    cfg.spec_per_65536 = 65536;
    world_init(&w, &cfg, 1);
    assert_true(pt_init(&big, 4, true, track_table, &w));
    assert_true(pt_map(&big, va, pa, PAGE_1G, PTE_RW, true));
    assert_int_equal(big.leaves_1g, 1);
    tlbm_write_cr3(&w.m, 0, root_of(&big));
    tlbm_add_spec_range(&w.m, va + 0x12345000, 1, PAGE_4K);
    tlbm_tick(&w.m, 0);
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, va, 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, va + PAGE_1G - PAGE_4K, 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, va + PAGE_1G, 0), 0);
    assert_true(tlbm_holds(&w.m, 0, va + 0x3ffff008, &got));
    assert_true(got == pa + 0x3ffff008);
    w.m.cfg.spec_per_65536 = 0; /* or the walk after INVLPG refills it */
    tlbm_invlpg(&w.m, 0, va + 0x20000000);
    assert_int_equal(tlbm_count_entries(&w.m, 0, va, 0), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* G makes a global entry only while CR4.PGE is set (SDM 4.10.2.4). */
static void test_global_needs_pge(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    assert_true(w.m.cpu[0]->cr4 & CR4_PGE); /* firmware state: PGE on */
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, 0), 0);
    world_free(&w);

    cfg.feat.pge = false; /* a CPU without PGE starts with it clear */
    world_init(&w, &cfg, 1);
    assert_false(w.m.cpu[0]->cr4 & CR4_PGE);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, 0), 1);
    /* not global, so MOV CR3 drops it */
    tlbm_write_cr3(&w.m, 0, root(&w));
    assert_false(tlbm_holds(&w.m, 0, GLOBAL_VA, NULL));
    /* and CR4.PGE cannot be set without the feature */
    tlbm_write_cr4(&w.m, 0, CR4_PGE);
    expect_violation(&w, 1, "#GP");
    assert_false(w.m.cpu[0]->cr4 & CR4_PGE);
    world_free(&w);
}

/* A cached translation outlives the PTE it came from until it is invalidated. */
static void test_stale_until_invalidated(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 2);
    expect_read(&w, 0, VA(2), 2);
    expect_read(&w, 1, VA(2), 2);
    remap(&w, VA(2), 5);
    /* both CPUs still use the old frame, however often they read */
    expect_read(&w, 0, VA(2) + 8, 2);
    expect_read(&w, 1, VA(2) + 8, 2);
    expect_read(&w, 0, VA(2), 2);
    /* INVLPG is local: CPU 0 sees the new frame, CPU 1 keeps the old one */
    tlbm_invlpg(&w.m, 0, VA(2));
    expect_read(&w, 0, VA(2), 5);
    expect_read(&w, 1, VA(2), 2);
    tlbm_invlpg(&w.m, 1, VA(2) + 0x800); /* any address in the page */
    expect_read(&w, 1, VA(2), 5);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* ---- INVLPG ---- */

/*
 * SDM 4.10.4.1: INVLPG drops the current PCID's entries for the page and
 * global entries for it whatever PCID they were filled under; other PCIDs'
 * non-global entries may stay, and the strict model keeps them.
 */
static void test_invlpg_pcid_and_global(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    enable_pcid(&w, 0, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G); /* global, filled under PCID 1 */
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, 1), 0);

    remap(&w, VA(0), 4);
    tlbm_invlpg(&w.m, 0, VA(0));
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    expect_read(&w, 0, VA(0), 4);                 /* PCID 2 walks again */
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    expect_read(&w, 0, VA(0), 0);                 /* PCID 1 kept its old entry */

    /* back in PCID 2: the global entry goes although PCID 1 filled it */
    tlbm_write_cr3(&w.m, 0, root(&w) | 2 | CR3_NOFLUSH);
    tlbm_invlpg(&w.m, 0, GLOBAL_VA);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    assert_false(tlbm_holds(&w.m, 0, GLOBAL_VA, NULL));
    /* and only the global page: the PCID 1 entry for VA(0) is untouched */
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(w.m.cpu[0]->n.invlpg, 2);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* Without PCIDs: INVLPG drops the page, global or not, and nothing else. */
static void test_invlpg_without_pcid(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, VA(1), 1);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_invlpg(&w.m, 0, VA(0));
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    expect_held(&w, 0, VA(1), 1);
    expect_held(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_invlpg(&w.m, 0, GLOBAL_VA);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    expect_held(&w, 0, VA(1), 1);
    world_free(&w);
}

/* The Alder/Raptor Lake erratum: with PCIDE=1 INVLPG leaves global entries; with PCIDE=0 it does not. */
static void test_invlpg_erratum_keeps_global_only_with_pcide(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    cfg.errata = TLBM_ERR_INVLPG_IGNORES_GLOBAL;
    world_init(&w, &cfg, 2);
    /* CPU 0: PCIDE = 0, the erratum does not apply */
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_invlpg(&w.m, 0, GLOBAL_VA);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    /* CPU 1: PCIDE = 1, the global entry survives, non-global ones still go */
    enable_pcid(&w, 1, 1);
    expect_read(&w, 1, GLOBAL_VA, FRAME_G);
    expect_read(&w, 1, VA(0), 0);
    remap(&w, GLOBAL_VA, 6);
    tlbm_invlpg(&w.m, 1, GLOBAL_VA);
    tlbm_invlpg(&w.m, 1, VA(0));
    assert_int_equal(tlbm_count_entries(&w.m, 1, GLOBAL_VA, -1), 1);
    expect_read(&w, 1, GLOBAL_VA, FRAME_G); /* stale */
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(0), 1), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* ---- MOV CR3 ---- */

static void test_cr3_without_pcide_drops_non_global(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, VA(1), 1);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    expect_read(&w, 0, BIG_VA, FRAME_BIG);
    tlbm_clear_counts(&w.m, 0);
    tlbm_write_cr3(&w.m, 0, root(&w));
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(1), 0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA, 0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 1);
    expect_held(&w, 0, GLOBAL_VA, FRAME_G);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 1);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/*
 * PCIDE=1: MOV CR3 drops the new PCID's non-global entries unless bit 63 is
 * set, and never touches other PCIDs' entries or global ones; bit 63 is not
 * stored.
 */
static void test_cr3_with_pcide(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    enable_pcid(&w, 0, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, VA(1), 1);
    tlbm_write_cr3(&w.m, 0, root(&w) | 3); /* to a third PCID: 1 and 2 untouched */
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(1), 2), 1);

    tlbm_clear_counts(&w.m, 0);
    tlbm_write_cr3(&w.m, 0, root(&w) | 2); /* into PCID 2 without bit 63: its entries go */
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(1), 2), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 1);

    /* with bit 63 entries survive a PTE rewrite: the reads prove they are used */
    expect_read(&w, 0, VA(0), 0);
    remap(&w, VA(0), 6);
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    assert_true(tlbm_read_cr3(&w.m, 0) == (root(&w) | 1));
    expect_read(&w, 0, VA(0), 0);
    tlbm_write_cr3(&w.m, 0, root(&w) | 2 | CR3_NOFLUSH);
    assert_true(tlbm_read_cr3(&w.m, 0) == (root(&w) | 2));
    expect_read(&w, 0, VA(0), 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 1); /* no-flush writes count no flush */
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(0), 6);
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    expect_read(&w, 0, VA(0), 0); /* PCID 1 still stale */
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* Bit 63 is reserved while PCIDE=0: #GP, CR3 unchanged, nothing dropped. */
static void test_cr3_noflush_without_pcide_faults(void **state)
{
    struct world w;
    struct pt_ctx other;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    other_tables(&w, &other, 1);
    expect_read(&w, 0, VA(0), 0);
    tlbm_clear_counts(&w.m, 0);
    tlbm_write_cr3(&w.m, 0, root_of(&other) | CR3_NOFLUSH);
    expect_violation(&w, 1, "#GP");
    assert_true(tlbm_read_cr3(&w.m, 0) == root(&w));
    expect_held(&w, 0, VA(0), 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 0);
    world_free(&w);
}

/* ---- MOV CR4 ---- */

static void test_cr4_pge_toggle_flushes_everything(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint64_t cr4;
    (void)state;
    world_init(&w, &cfg, 1);
    cr4 = w.m.cpu[0]->cr4;
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_clear_counts(&w.m, 0);
    /* rewriting the same value changes nothing */
    tlbm_write_cr4(&w.m, 0, cr4);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 1);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 0);
    /* PGE off: global entries go too */
    tlbm_write_cr4(&w.m, 0, cr4 & ~CR4_PGE);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 1);
    /* PGE on again: also a flush */
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, 0), 1); /* non-global without PGE */
    tlbm_write_cr4(&w.m, 0, cr4);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 0), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, 0), 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 2);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

static void test_cr4_pcide_off_flushes_everything(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    enable_pcid(&w, 0, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(1), 1);
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 & ~CR4_PCIDE);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(1), 2), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* Setting PCIDE needs CR3[11:0] = 0 and the PCID feature; otherwise #GP and CR4 keeps its value. */
static void test_cr4_pcide_preconditions(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint64_t cr4;
    (void)state;
    world_init(&w, &cfg, 1);
    cr4 = w.m.cpu[0]->cr4;
    /* PWT|PCD in CR3[4:3]: legal without PCIDE, but it blocks setting PCIDE */
    tlbm_write_cr3(&w.m, 0, root(&w) | PTE_PWT | PTE_PCD);
    expect_read(&w, 0, VA(0), 0);
    tlbm_clear_counts(&w.m, 0);
    tlbm_write_cr4(&w.m, 0, cr4 | CR4_PCIDE);
    expect_violation(&w, 1, "CR3[11:0]");
    assert_true(w.m.cpu[0]->cr4 == cr4);
    expect_held(&w, 0, VA(0), 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 0);
    tlbm_write_cr3(&w.m, 0, root(&w));
    tlbm_write_cr4(&w.m, 0, cr4 | CR4_PCIDE);
    expect_violation(&w, 1, NULL);
    assert_true(w.m.cpu[0]->cr4 == (cr4 | CR4_PCIDE));
    world_free(&w);

    cfg.feat.pcid = false;
    world_init(&w, &cfg, 1);
    cr4 = w.m.cpu[0]->cr4;
    tlbm_write_cr4(&w.m, 0, cr4 | CR4_PCIDE);
    expect_violation(&w, 1, "no PCID");
    assert_true(w.m.cpu[0]->cr4 == cr4);
    world_free(&w);
}

/* ---- INVPCID ---- */

/* PCID 1: VA(0), VA(1); PCID 2: VA(0); global GLOBAL_VA. CPU 0 ends in PCID 1. */
static void fill_two_pcids(struct world *w)
{
    tlbm_write_cr3(&w->m, 0, root(w) | 1 | CR3_NOFLUSH);
    expect_read(w, 0, VA(0), 0);
    expect_read(w, 0, VA(1), 1);
    expect_read(w, 0, GLOBAL_VA, FRAME_G);
    tlbm_write_cr3(&w->m, 0, root(w) | 2 | CR3_NOFLUSH);
    expect_read(w, 0, VA(0), 0);
    tlbm_write_cr3(&w->m, 0, root(w) | 1 | CR3_NOFLUSH);
}

static void expect_two_pcids(struct world *w, uint32_t a0_1, uint32_t a1_1, uint32_t a0_2, uint32_t g)
{
    assert_int_equal(tlbm_count_entries(&w->m, 0, VA(0), 1), a0_1);
    assert_int_equal(tlbm_count_entries(&w->m, 0, VA(1), 1), a1_1);
    assert_int_equal(tlbm_count_entries(&w->m, 0, VA(0), 2), a0_2);
    assert_int_equal(tlbm_count_entries(&w->m, 0, GLOBAL_VA, -1), g);
}

static void test_invpcid_types(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    enable_pcid(&w, 0, 1);
    fill_two_pcids(&w);
    expect_two_pcids(&w, 1, 1, 1, 1);
    /* type 0: one address in one PCID; neither the other PCID nor a global entry */
    tlbm_invpcid(&w.m, 0, 0, 1, VA(0));
    expect_two_pcids(&w, 0, 1, 1, 1);
    tlbm_invpcid(&w.m, 0, 0, 2, GLOBAL_VA);
    expect_two_pcids(&w, 0, 1, 1, 1);
    /* type 1: one PCID's non-global entries (not the current one: that does not matter) */
    tlbm_invpcid(&w.m, 0, 1, 2, 0);
    expect_two_pcids(&w, 0, 1, 0, 1);
    /* type 3: every PCID, globals kept */
    fill_two_pcids(&w);
    tlbm_invpcid(&w.m, 0, 3, 0, 0);
    expect_two_pcids(&w, 0, 0, 0, 1);
    /* type 2: everything */
    fill_two_pcids(&w);
    tlbm_invpcid(&w.m, 0, 2, 0, 0);
    expect_two_pcids(&w, 0, 0, 0, 0);
    assert_int_equal(w.m.cpu[0]->n.invpcid, 5);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

static void test_invpcid_faults(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    world_init(&w, &cfg, 1);
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    tlbm_invpcid(&w.m, 0, 4, 0, 0);
    expect_violation(&w, 1, "type above 3");
    tlbm_invpcid(&w.m, 0, 2, 0x1000, 0);
    expect_violation(&w, 2, "bits 63:12");
    tlbm_invpcid(&w.m, 0, 0, 1, VA(0)); /* PCIDE = 0 */
    expect_violation(&w, 3, "PCIDE = 0");
    tlbm_invpcid(&w.m, 0, 1, 1, 0);
    expect_violation(&w, 4, "PCIDE = 0");
    tlbm_invpcid(&w.m, 0, 0, 0, 0x0000800000000000ull);
    expect_violation(&w, 5, "non-canonical");
    /* none of them did anything */
    assert_int_equal(w.m.cpu[0]->n.invpcid, 0);
    expect_held(&w, 0, VA(0), 0);
    expect_held(&w, 0, GLOBAL_VA, FRAME_G);
    /* PCID 0 and types 2/3 are fine while PCIDE = 0; a high canonical address too */
    tlbm_invpcid(&w.m, 0, 0, 0, 0xffff800000000000ull);
    tlbm_invpcid(&w.m, 0, 0, 0, VA(0));
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    tlbm_invpcid(&w.m, 0, 3, 5, 0); /* the PCID of types 2/3 is ignored */
    tlbm_invpcid(&w.m, 0, 2, 5, 0);
    assert_false(tlbm_holds(&w.m, 0, GLOBAL_VA, NULL));
    expect_violation(&w, 5, NULL);
    assert_int_equal(w.m.cpu[0]->n.invpcid, 4);
    world_free(&w);

    cfg.feat.invpcid = false;
    world_init(&w, &cfg, 1);
    expect_read(&w, 0, VA(0), 0);
    tlbm_invpcid(&w.m, 0, 2, 0, 0);
    expect_violation(&w, 1, "#UD");
    expect_held(&w, 0, VA(0), 0);
    world_free(&w);
}

/* ---- INVLPGB / TLBSYNC ---- */

#define IB_EDX(pcid, asid) (((uint32_t)(pcid) << 16) | (uint32_t)(asid))

/* Lands issuer's INVLPGBs with its TLBSYNC and checks nothing is left pending anywhere. */
static void sync_all(struct world *w, uint32_t issuer)
{
    uint32_t c;
    tlbm_tlbsync(&w->m, issuer);
    for (c = 0; c < w->m.ncpus; c++)
        assert_int_equal(tlbm_pending(&w->m, c), 0);
}

/* CPUs 0 and 1 in PCID 1 hold VA(0), VA(1), GLOBAL_VA; CPU 0 also VA(0) in PCID 2. */
static void fill_for_invlpgb(struct world *w)
{
    uint32_t c;
    for (c = 0; c < 2; c++) {
        tlbm_write_cr3(&w->m, c, root(w) | 1 | CR3_NOFLUSH);
        expect_read(w, c, VA(0), 0);
        expect_read(w, c, VA(1), 1);
        expect_read(w, c, GLOBAL_VA, FRAME_G);
    }
    tlbm_write_cr3(&w->m, 0, root(w) | 2 | CR3_NOFLUSH);
    expect_read(w, 0, VA(0), 0);
    tlbm_write_cr3(&w->m, 0, root(w) | 1 | CR3_NOFLUSH);
}

static struct tlbm_config invlpgb_config(void)
{
    struct tlbm_config cfg = quiet_config();
    /* nothing lands by itself during a test: only TLBSYNC completes it */
    cfg.invlpgb_max_delay = 1000000;
    return cfg;
}

/* VA form: PCID valid, ASID valid (0 = host, other = nothing here), include-global. */
static void test_invlpgb_operands(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    world_init(&w, &cfg, 2);
    enable_pcid(&w, 0, 1);
    enable_pcid(&w, 1, 1);
    fill_for_invlpgb(&w);

    /* PCID valid: only PCID 2's entry for VA(0) */
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID, 0, IB_EDX(2, 0));
    sync_all(&w, 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(0), 1), 1);

    /* ASID valid with a guest's ASID: the host's entries are not its */
    tlbm_invlpgb(&w.m, 1, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID | INVLPGB_FLAG_INCLUDE_GLOBAL,
                 0, IB_EDX(0, 5));
    tlbm_invlpgb(&w.m, 1, GLOBAL_VA | INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID |
                              INVLPGB_FLAG_INCLUDE_GLOBAL, 0, IB_EDX(0, 5));
    sync_all(&w, 1);
    for (c = 0; c < 2; c++) {
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(0), 1), 1);
        assert_int_equal(tlbm_count_entries(&w.m, c, GLOBAL_VA, -1), 1);
    }

    /* VA only (no PCID): VA(0) in every PCID on every CPU, not VA(1), not the global page */
    tlbm_invlpgb(&w.m, 1, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID, 0, IB_EDX(0, 0));
    tlbm_invlpgb(&w.m, 1, GLOBAL_VA | INVLPGB_FLAG_VA, 0, 0);
    sync_all(&w, 1);
    for (c = 0; c < 2; c++) {
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(0), 1), 0);
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(1), 1), 1);
        assert_int_equal(tlbm_count_entries(&w.m, c, GLOBAL_VA, -1), 1);
    }

    /* include-global with the host's ASID (Linux's form for kernel addresses) */
    tlbm_invlpgb(&w.m, 0, GLOBAL_VA | INVLPGB_FLAG_VA | INVLPGB_FLAG_ASID | INVLPGB_FLAG_INCLUDE_GLOBAL,
                 0, IB_EDX(0, 0));
    sync_all(&w, 0);
    for (c = 0; c < 2; c++) {
        assert_int_equal(tlbm_count_entries(&w.m, c, GLOBAL_VA, -1), 0);
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(1), 1), 1);
    }
    assert_int_equal(w.m.cpu[0]->n.invlpgb, 2);
    assert_int_equal(w.m.cpu[1]->n.invlpgb, 4);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* No VA: all non-global entries (of one PCID if PCID valid); include-global adds the globals. */
static void test_invlpgb_no_va_form(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    world_init(&w, &cfg, 2);
    enable_pcid(&w, 0, 1);
    enable_pcid(&w, 1, 1);
    fill_for_invlpgb(&w);
    tlbm_invlpgb(&w.m, 1, INVLPGB_FLAG_PCID, 0, IB_EDX(2, 0));
    sync_all(&w, 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 2), 0);
    for (c = 0; c < 2; c++) {
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(0), 1), 1);
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(1), 1), 1);
    }
    tlbm_invlpgb(&w.m, 0, 0, 0, 0);
    sync_all(&w, 0);
    for (c = 0; c < 2; c++) {
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(0), 1), 0);
        assert_int_equal(tlbm_count_entries(&w.m, c, VA(1), 1), 0);
        assert_int_equal(tlbm_count_entries(&w.m, c, GLOBAL_VA, -1), 1);
    }
    tlbm_invlpgb(&w.m, 0, INVLPGB_FLAG_INCLUDE_GLOBAL, 0, 0);
    sync_all(&w, 0);
    for (c = 0; c < 2; c++)
        assert_int_equal(tlbm_count_entries(&w.m, c, GLOBAL_VA, -1), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

static void fill_pages(struct world *w, uint32_t c, unsigned n)
{
    unsigned i;
    for (i = 0; i < n; i++)
        expect_read(w, c, VA(i), i);
}

/* ECX[15:0] extra pages: exactly pages first .. first + count - 1. */
static void test_invlpgb_count(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    world_init(&w, &cfg, 2);
    fill_pages(&w, 0, NSMALL);
    fill_pages(&w, 1, NSMALL);
    tlbm_invlpgb(&w.m, 1, VA(1) | INVLPGB_FLAG_VA, 2, 0); /* VA(1), VA(2), VA(3) */
    sync_all(&w, 1);
    for (c = 0; c < 2; c++) {
        expect_held(&w, c, VA(0), 0);
        assert_false(tlbm_holds(&w.m, c, VA(1), NULL));
        assert_false(tlbm_holds(&w.m, c, VA(2), NULL));
        assert_false(tlbm_holds(&w.m, c, VA(3), NULL));
        expect_held(&w, c, VA(4), 4);
        assert_int_equal(held_count(&w, c, NSMALL), NSMALL - 3);
    }
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* Above CPUID 8000_0008 EDX[15:0] is a violation that does nothing; without the feature, #UD. */
static void test_invlpgb_limits(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    cfg.feat.invlpgb_max_extra = 3;
    world_init(&w, &cfg, 2);
    fill_pages(&w, 0, NSMALL);
    fill_pages(&w, 1, NSMALL);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 4, 0);
    expect_violation(&w, 1, "above CPUID");
    for (c = 0; c < 2; c++)
        assert_int_equal(tlbm_pending(&w.m, c), 0);
    tlbm_tlbsync(&w.m, 0);
    for (c = 0; c < 2; c++)
        assert_int_equal(held_count(&w, c, NSMALL), NSMALL);
    assert_int_equal(w.m.cpu[0]->n.invlpgb, 0);
    /* the maximum itself is fine: 4 pages */
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 3, 0);
    expect_violation(&w, 1, NULL);
    sync_all(&w, 0);
    for (c = 0; c < 2; c++)
        assert_int_equal(held_count(&w, c, NSMALL), NSMALL - 4);
    world_free(&w);

    cfg.feat.invlpgb = false;
    world_init(&w, &cfg, 2);
    fill_pages(&w, 0, 2);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 0, 0);
    expect_violation(&w, 1, "#UD");
    tlbm_tlbsync(&w.m, 0);
    expect_violation(&w, 2, "#UD");
    assert_int_equal(tlbm_pending(&w.m, 0), 0);
    assert_int_equal(tlbm_pending(&w.m, 1), 0);
    assert_int_equal(held_count(&w, 0, 2), 2);
    world_free(&w);
}

/*
 * ECX[31]: the addresses are va + i * 2 MiB. Each entry containing one of
 * them goes, a 2 MiB entry included; a 4 KiB entry between them stays.
 *   STRIDE_VA + 0       4 KiB  stride address 0          dropped
 *   STRIDE_VA + 4 KiB   4 KiB  inside step 0, not listed kept
 *   STRIDE_VA + 2 MiB   4 KiB  stride address 1          dropped
 *   STRIDE_VA + 4 MiB   2 MiB  contains stride address 2 dropped
 *   STRIDE_VA + 6 MiB   4 KiB  beyond the count          kept
 */
static void test_invlpgb_2m_stride(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    const uint64_t small[] = { 0, PAGE_4K, PAGE_2M, 3 * PAGE_2M };
    unsigned i;
    (void)state;
    world_init(&w, &cfg, 1);
    for (i = 0; i < 4; i++)
        assert_true(pt_map(&w.pt, STRIDE_VA + small[i], frame_pa(&w, i), PAGE_4K, PTE_RW, false));
    assert_true(pt_map(&w.pt, STRIDE_VA + 2 * PAGE_2M, frame_pa(&w, FRAME_BIG), PAGE_2M, PTE_RW, true));
    assert_int_equal(w.pt.leaves_2m, 2);
    for (i = 0; i < 4; i++)
        expect_read(&w, 0, STRIDE_VA + small[i], i);
    expect_read(&w, 0, STRIDE_VA + 2 * PAGE_2M + 0x5008, FRAME_BIG);

    tlbm_invlpgb(&w.m, 0, STRIDE_VA | INVLPGB_FLAG_VA, INVLPGB_STRIDE_2M | 2, 0);
    sync_all(&w, 0);
    assert_false(tlbm_holds(&w.m, 0, STRIDE_VA, NULL));
    expect_held(&w, 0, STRIDE_VA + PAGE_4K, 1);
    assert_false(tlbm_holds(&w.m, 0, STRIDE_VA + PAGE_2M, NULL));
    assert_int_equal(tlbm_count_entries(&w.m, 0, STRIDE_VA + 2 * PAGE_2M, 0), 0);
    expect_held(&w, 0, STRIDE_VA + 3 * PAGE_2M, 3);

    /* a 4 KiB-stride INVLPGB inside the 2 MiB page drops the entry that contains it */
    expect_read(&w, 0, STRIDE_VA + 2 * PAGE_2M, FRAME_BIG);
    tlbm_invlpgb(&w.m, 0, (STRIDE_VA + 2 * PAGE_2M + 0x5000) | INVLPGB_FLAG_VA, 0, 0);
    sync_all(&w, 0);
    assert_int_equal(tlbm_count_entries(&w.m, 0, STRIDE_VA + 2 * PAGE_2M, 0), 0);
    expect_held(&w, 0, STRIDE_VA + PAGE_4K, 1);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/*
 * An INVLPGB is complete only when its issuer's TLBSYNC returns: until then
 * every CPU, the issuer included, may still use the old entry, and another
 * CPU's TLBSYNC does not wait for it (APM vol. 3, TLBSYNC).
 */
static void test_invlpgb_lands_at_issuers_tlbsync(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    world_init(&w, &cfg, 3);
    for (c = 0; c < 3; c++)
        fill_pages(&w, c, 2);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 0, 0);
    tlbm_invlpgb(&w.m, 1, VA(1) | INVLPGB_FLAG_VA, 0, 0);
    for (c = 0; c < 3; c++) {
        expect_held(&w, c, VA(0), 0);
        expect_held(&w, c, VA(1), 1);
        assert_int_equal(tlbm_pending(&w.m, c), 2);
    }
    expect_read(&w, 0, VA(0), 0); /* the issuer itself still reads through it */

    tlbm_tlbsync(&w.m, 2); /* a CPU that issued nothing */
    for (c = 0; c < 3; c++) {
        expect_held(&w, c, VA(0), 0);
        assert_int_equal(tlbm_pending(&w.m, c), 2);
    }
    tlbm_tlbsync(&w.m, 0); /* CPU 0's op everywhere, not CPU 1's */
    for (c = 0; c < 3; c++) {
        assert_false(tlbm_holds(&w.m, c, VA(0), NULL));
        expect_held(&w, c, VA(1), 1);
        assert_int_equal(tlbm_pending(&w.m, c), 1);
    }
    sync_all(&w, 1);
    for (c = 0; c < 3; c++)
        assert_false(tlbm_holds(&w.m, c, VA(1), NULL));
    assert_int_equal(w.m.cpu[0]->n.tlbsync, 1);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* TLBSYNC returning before remote completion: the entries survive it. */
static void test_tlbsync_early_erratum(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    cfg.errata = TLBM_ERR_TLBSYNC_EARLY;
    world_init(&w, &cfg, 2);
    for (c = 0; c < 2; c++)
        fill_pages(&w, c, 1);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 0, 0);
    tlbm_tlbsync(&w.m, 0);
    for (c = 0; c < 2; c++) {
        expect_held(&w, c, VA(0), 0);
        assert_int_equal(tlbm_pending(&w.m, c), 1);
    }
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* The count ignored: only the first page of a range goes. */
static void test_invlpgb_ignores_count_erratum(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint32_t c;
    (void)state;
    cfg.errata = TLBM_ERR_INVLPGB_IGNORES_COUNT;
    world_init(&w, &cfg, 2);
    for (c = 0; c < 2; c++)
        fill_pages(&w, c, 4);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 3, 0);
    sync_all(&w, 0);
    for (c = 0; c < 2; c++) {
        assert_false(tlbm_holds(&w.m, c, VA(0), NULL));
        expect_held(&w, c, VA(1), 1);
        expect_held(&w, c, VA(2), 2);
        expect_held(&w, c, VA(3), 3);
    }
    world_free(&w);
}

/* invlpgb_max_delay 0: each CPU applies the op at its own next model event. */
static void test_invlpgb_zero_delay_lands_at_next_event(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    cfg.invlpgb_max_delay = 0;
    world_init(&w, &cfg, 2);
    fill_pages(&w, 0, 1);
    fill_pages(&w, 1, 1);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA, 0, 0);
    expect_held(&w, 0, VA(0), 0);
    expect_held(&w, 1, VA(0), 0);
    assert_int_equal(tlbm_pending(&w.m, 0), 1);
    assert_int_equal(tlbm_pending(&w.m, 1), 1);
    tlbm_tick(&w.m, 1);
    assert_false(tlbm_holds(&w.m, 1, VA(0), NULL));
    assert_int_equal(tlbm_pending(&w.m, 1), 0);
    expect_held(&w, 0, VA(0), 0);
    assert_int_equal(tlbm_pending(&w.m, 0), 1);
    tlbm_tick(&w.m, 0);
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    assert_int_equal(tlbm_pending(&w.m, 0), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* ---- set-associative array ---- */

static void test_capacity_and_eviction(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    unsigned i;
    (void)state;
    cfg.sets = 1;
    cfg.ways = 2;
    world_init(&w, &cfg, 1);
    fill_pages(&w, 0, 2);
    assert_int_equal(held_count(&w, 0, NSMALL), 2);
    expect_read(&w, 0, VA(2), 2);
    assert_int_equal(held_count(&w, 0, NSMALL), 2); /* one of VA(0), VA(1) evicted */
    expect_held(&w, 0, VA(2), 2);
    for (i = 0; i < 3 * NSMALL; i++) {
        expect_read(&w, 0, VA(i % NSMALL), i % NSMALL);
        assert_int_equal(held_count(&w, 0, NSMALL), 2);
        expect_held(&w, 0, VA(i % NSMALL), i % NSMALL);
    }
    /* the 2 MiB and global entries share the same single set */
    expect_read(&w, 0, BIG_VA, FRAME_BIG);
    expect_read(&w, 0, GLOBAL_VA, FRAME_G);
    assert_int_equal(held_count(&w, 0, NSMALL) + tlbm_count_entries(&w.m, 0, BIG_VA, 0) +
                         tlbm_count_entries(&w.m, 0, GLOBAL_VA, -1),
                     2);
    world_free(&w);
}

/* Which pages one model holds after each of a fixed sequence of reads, as bit masks. */
static void replacement_trace(struct world *w, uint64_t seed, uint32_t *trace, unsigned n)
{
    struct tlbm_config cfg = quiet_config();
    struct tlb_model m;
    unsigned i, p;
    cfg.sets = 1;
    cfg.ways = 2;
    cfg.seed = seed;
    assert_true(tlbm_init(&m, &cfg, 1));
    tlbm_write_cr3(&m, 0, root(w));
    for (i = 0; i < n; i++) {
        uint64_t v = 0;
        assert_true(tlbm_read64(&m, 0, VA((i * 3) % NSMALL), &v));
        trace[i] = 0;
        for (p = 0; p < NSMALL; p++)
            trace[i] |= tlbm_holds(&m, 0, VA(p), NULL) ? 1u << p : 0;
    }
    assert_int_equal(m.violations, 0);
    tlbm_free(&m);
}

static void test_replacement_is_seeded(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint32_t a[64], b[64], other[64];
    struct tlb_model m;
    (void)state;
    world_init(&w, &cfg, 1);
    replacement_trace(&w, 42, a, 64);
    replacement_trace(&w, 42, b, 64);
    replacement_trace(&w, 43, other, 64);
    assert_memory_equal(a, b, sizeof(a));
    /* the seed is really used: 60-odd random choices do not all coincide */
    assert_memory_not_equal(a, other, sizeof(a));
    world_free(&w);

    /* the array shape is validated; any number of sets (Zen 4: 384) */
    cfg.sets = 3;
    assert_true(tlbm_init(&m, &cfg, 1));
    tlbm_free(&m);
    cfg.sets = 0;
    assert_false(tlbm_init(&m, &cfg, 1));
    cfg.sets = 4;
    cfg.ways = 0;
    assert_false(tlbm_init(&m, &cfg, 1));
    cfg.ways = 1;
    assert_false(tlbm_init(&m, &cfg, 0));
    assert_false(tlbm_init(&m, &cfg, TLBM_MAX_CPUS + 1));
    assert_true(tlbm_init(&m, &cfg, 1));
    tlbm_free(&m);
}

/* ---- speculation ---- */

static void test_speculation(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    unsigned i;
    (void)state;
    cfg.spec_per_65536 = 65536; /* a speculative walk at every event */
    world_init(&w, &cfg, 1);
    tlbm_add_spec_range(&w.m, VA(3), 1, PAGE_4K);
    assert_false(tlbm_holds(&w.m, 0, VA(3), NULL));
    tlbm_tick(&w.m, 0);
    expect_held(&w, 0, VA(3), 3);
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 1);
    assert_int_equal(w.m.cpu[0]->n.reads, 0);
    assert_int_equal(held_count(&w, 0, NSMALL), 1); /* nothing outside the range */
    tlbm_tick(&w.m, 0);
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 1); /* a held page is not walked again */
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(3), 0), 1);
    world_free(&w);

    /* an unmapped range: no fill and, unlike a read, no fault */
    world_init(&w, &cfg, 1);
    tlbm_add_spec_range(&w.m, UNMAPPED_VA, 4, PAGE_4K);
    for (i = 0; i < 100; i++)
        tlbm_tick(&w.m, 0);
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);

    cfg.spec_per_65536 = 0;
    world_init(&w, &cfg, 1);
    tlbm_add_spec_range(&w.m, VA(0), NSMALL, PAGE_4K);
    for (i = 0; i < 1000; i++)
        tlbm_tick(&w.m, 0);
    assert_int_equal(held_count(&w, 0, NSMALL), 0);
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 0);
    world_free(&w);
}

/* A speculative walk uses the CR3 of the moment: its PCID and its tables. */
static void test_speculation_uses_current_pcid_and_tables(void **state)
{
    struct world w;
    struct pt_ctx other;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    cfg.spec_per_65536 = 65536;
    world_init(&w, &cfg, 2);
    other_tables(&w, &other, 2); /* VA(3) -> frame 5 there */
    tlbm_add_spec_range(&w.m, VA(3), 1, PAGE_4K);

    /* CPU 0 without PCIDs: after a switch the old root is not walked (the
     * walk right after the CR3 write, of the page it dropped, is of the new) */
    tlbm_tick(&w.m, 0);
    expect_held(&w, 0, VA(3), 3);
    tlbm_write_cr3(&w.m, 0, root_of(&other));
    expect_held(&w, 0, VA(3), 5);
    tlbm_tick(&w.m, 0);
    expect_held(&w, 0, VA(3), 5);

    /* CPU 1 with PCIDs: each fill is tagged with the PCID current at the tick */
    tlbm_write_cr4(&w.m, 1, w.m.cpu[1]->cr4 | CR4_PCIDE);
    tlbm_write_cr3(&w.m, 1, root(&w) | 3);
    tlbm_tick(&w.m, 1);
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(3), 3), 1);
    expect_held(&w, 1, VA(3), 3);
    tlbm_write_cr3(&w.m, 1, root_of(&other) | 4);
    tlbm_tick(&w.m, 1);
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(3), 4), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 1, VA(3), 3), 1);
    expect_held(&w, 1, VA(3), 5);
    tlbm_write_cr3(&w.m, 1, root(&w) | 3 | CR3_NOFLUSH);
    expect_held(&w, 1, VA(3), 3);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* ---- fills after an instruction, and at PTE stores ---- */

/*
 * After an instruction acts the CPU may walk again, preferring what it just
 * invalidated: with every speculation taken and no speculation range, the
 * page INVLPG dropped comes back at once, from the tables of the moment.
 * Speculating only before the instruction (the model's version 1) cannot.
 */
static void test_fills_after_acting_prefer_invalidated_pages(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    cfg.spec_per_65536 = 65536;
    world_init(&w, &cfg, 1);
    remap(&w, VA(2), 6);
    tlbm_invlpg(&w.m, 0, VA(2));
    expect_held(&w, 0, VA(2), 6); /* refilled after the INVLPG, with the new PTE */
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 1);
    world_free(&w);
    /* the remap after the INVLPG: the refill holds the old frame, stale from now on */
    world_init(&w, &cfg, 1);
    tlbm_invlpg(&w.m, 0, VA(3));
    remap(&w, VA(3), 7);
    expect_read(&w, 0, VA(3), 3);
    world_free(&w);

    cfg.spec_after = false;
    world_init(&w, &cfg, 1);
    tlbm_invlpg(&w.m, 0, VA(2));
    assert_false(tlbm_holds(&w.m, 0, VA(2), NULL));
    assert_int_equal(w.m.cpu[0]->n.spec_fills, 0);
    world_free(&w);
}

/*
 * A PTE store is a model event: the storing CPU may first cache the
 * translation the store replaces (pte_spec), so a remap after the last
 * invalidation is stale even for one page; the store itself lands, and is
 * logged.
 */
static void test_pte_store_may_cache_what_it_replaces(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    struct tlbm_event ev[4];
    uint64_t *pte;
    (void)state;
    cfg.pte_spec_per_65536 = 65536;
    world_init(&w, &cfg, 2);
    pte = pt_leaf(&w.pt, VA(3), NULL);
    tlbm_pte_store(&w.m, 0, pte, (*pte & ~PTE_ADDR_MASK) | frame_pa(&w, 6), VA(3));
    assert_true((*pte & PTE_ADDR_MASK) == frame_pa(&w, 6));
    expect_held(&w, 0, VA(3), 3); /* the old translation, cached just before the store */
    assert_false(tlbm_holds(&w.m, 1, VA(3), NULL)); /* only on the storing CPU */
    expect_read(&w, 1, VA(3), 6);
    assert_int_equal(w.m.cpu[0]->n.pte_stores, 1);
    assert_int_equal(w.m.cpu[0]->n.pte_fills, 1);
    tlbm_invlpg(&w.m, 0, VA(3));
    expect_read(&w, 0, VA(3), 6);
    assert_int_equal(tlbm_events(&w.m, 0, ev, 4), 3); /* world_init's CR3 write first */
    assert_int_equal(ev[1].kind, TLBM_EV_PTE);
    assert_true(ev[1].a == VA(3));
    assert_int_equal(ev[2].kind, TLBM_EV_INVLPG);
    /* a held translation is not walked again: nothing new to cache */
    pte = pt_leaf(&w.pt, VA(4), NULL);
    expect_read(&w, 0, VA(4), 4);
    tlbm_pte_store(&w.m, 0, pte, (*pte & ~PTE_ADDR_MASK) | frame_pa(&w, 7), VA(4));
    assert_int_equal(w.m.cpu[0]->n.pte_fills, 1);
    expect_read(&w, 0, VA(4), 4);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* ---- entries of several PCIDs for one address ---- */

/*
 * A fill replaces only an entry with its own tag: a global fill leaves
 * another PCID's non-global entry for the same page in place, and a fill in
 * one PCID leaves the global entry (SDM 4.10.2.4: a PCID's non-global entry
 * and a global one may both be cached).
 */
static void test_pcids_and_global_entries_coexist(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint64_t *pte;
    (void)state;
    cfg.sets = 1; /* one set: every entry competes for the same ways */
    world_init(&w, &cfg, 1);
    enable_pcid(&w, 0, 1);
    expect_read(&w, 0, VA(0), 0); /* PCID 1, non-global, frame 0 */
    pte = pt_leaf(&w.pt, VA(0), NULL);
    *pte = (*pte & ~PTE_ADDR_MASK) | frame_pa(&w, 4) | PTE_G;
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(0), 4); /* PCID 2 walks: a global entry, frame 4 */
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), -1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1); /* still there */
    /* a non-global fill of PCID 3 beside the global one (after INVPCID type 0 in 3) */
    *pte = (*pte & ~(PTE_ADDR_MASK | PTE_G)) | frame_pa(&w, 5);
    tlbm_write_cr3(&w.m, 0, root(&w) | 3);
    tlbm_invlpg(&w.m, 0, VA(0)); /* drops the global entry, and PCID 3's (none) */
    expect_read(&w, 0, VA(0), 5);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 3), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), 1), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, VA(0), -1), 0);
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    expect_read(&w, 0, VA(0), 0); /* PCID 1's entry outlived both fills */
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* Any number of sets (Zen 4: 3072 entries, 8-way, 384 sets): indexed by page number modulo sets. */
static void test_sets_need_not_be_a_power_of_two(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    (void)state;
    cfg.sets = 3;
    cfg.ways = 1;
    world_init(&w, &cfg, 1);
    fill_pages(&w, 0, 3); /* three consecutive pages: three different sets */
    assert_int_equal(held_count(&w, 0, NSMALL), 3);
    expect_read(&w, 0, VA(3), 3); /* VA(3)'s set is VA(0)'s */
    assert_int_equal(held_count(&w, 0, NSMALL), 3);
    assert_false(tlbm_holds(&w.m, 0, VA(0), NULL));
    expect_held(&w, 0, VA(1), 1);
    world_free(&w);
}

/* ---- splintered 2 MiB pages ---- */

/*
 * A 2 MiB page may be cached as 4 KiB entries, one per part accessed (SDM
 * 4.10.2.3); an invalidation of any address of the page drops all of them.
 * A stale part is invisible to a read of another part: after a remap of
 * the PDE the first part walks anew while part 5 keeps the old frame.
 */
static void test_splintered_2m_pages(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    uint64_t *pde, *other, v = 0;
    (void)state;
    cfg.splinter_per_65536 = 65536;
    world_init(&w, &cfg, 1);
    other = host_alloc_frames(NULL, PAGE_2M, PAGE_2M);
    assert_non_null(other);
    memset(other, 0xee, PAGE_2M);
    expect_read(&w, 0, BIG_VA + 5 * PAGE_4K + 8, FRAME_BIG);
    expect_read(&w, 0, BIG_VA + 7 * PAGE_4K, FRAME_BIG);
    assert_int_equal(tlbm_count_splinters(&w.m, 0, BIG_VA, 0), 2);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA + 5 * PAGE_4K, 0), 1);
    assert_int_equal(tlbm_count_entries(&w.m, 0, BIG_VA, 0), 0); /* part 0 never accessed */
    assert_int_equal(w.m.cpu[0]->n.splinters, 2);

    pde = pt_leaf(&w.pt, BIG_VA, NULL);
    *pde = (*pde & ~PTE_ADDR_MASK) | (uint64_t)(uintptr_t)other;
    assert_true(tlbm_read64(&w.m, 0, BIG_VA, &v));
    assert_true(v == 0xeeeeeeeeeeeeeeeeull);                /* part 0: the new frame */
    expect_read(&w, 0, BIG_VA + 5 * PAGE_4K, FRAME_BIG);    /* part 5: stale */

    /* INVLPG of part 300 drops every part of the page */
    tlbm_invlpg(&w.m, 0, BIG_VA + 300 * PAGE_4K);
    assert_int_equal(tlbm_count_splinters(&w.m, 0, BIG_VA, 0), 0);
    assert_true(tlbm_read64(&w.m, 0, BIG_VA + 5 * PAGE_4K, &v));
    assert_true(v == 0xeeeeeeeeeeeeeeeeull);

    /* so do INVPCID type 0 and a 4 KiB-stride INVLPGB anywhere in the page */
    *pde = (*pde & ~PTE_ADDR_MASK) | frame_pa(&w, FRAME_BIG);
    tlbm_write_cr3(&w.m, 0, root(&w));
    expect_read(&w, 0, BIG_VA + 9 * PAGE_4K, FRAME_BIG);
    tlbm_invpcid(&w.m, 0, INVPCID_ADDRESS, 0, BIG_VA + 511 * PAGE_4K);
    assert_int_equal(tlbm_count_splinters(&w.m, 0, BIG_VA, 0), 0);
    expect_read(&w, 0, BIG_VA + 9 * PAGE_4K, FRAME_BIG);
    tlbm_invlpgb(&w.m, 0, (BIG_VA + 100 * PAGE_4K) | INVLPGB_FLAG_VA, 0, 0);
    sync_all(&w, 0);
    assert_int_equal(tlbm_count_splinters(&w.m, 0, BIG_VA, 0), 0);
    assert_int_equal(w.m.violations, 0);
    free(other);
    world_free(&w);
}

/* ---- paging-structure caches ---- */

/*
 * Replaces the page table of VA(0..511) with a copy in which VA(1) maps
 * frame `f`, by one store to the PDE; returns the old table.
 */
static uint64_t *replace_small_table(struct world *w, unsigned f)
{
    uint64_t *pde = pt_entry(&w->pt, VA(0), 2), *old, *fresh = track_table(w);
    assert_non_null(pde);
    assert_non_null(fresh);
    old = (uint64_t *)(uintptr_t)(*pde & PTE_ADDR_MASK);
    memcpy(fresh, old, PAGE_4K);
    fresh[1] = (fresh[1] & ~PTE_ADDR_MASK) | frame_pa(w, f);
    *pde = (*pde & ~PTE_ADDR_MASK) | (uint64_t)(uintptr_t)fresh;
    return old;
}

/*
 * A walk caches every non-leaf entry it reads (PML4E, PDPTE, PDE: not the
 * PS=1 PDE of a 2 MiB page, a leaf) and starts from the deepest one it
 * holds: after the page table is replaced, a page never read before still
 * walks the old table, until an invalidation drops the PDE entry.
 */
static void test_walks_use_paging_structure_caches(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    uint64_t *old;
    (void)state;
    world_init(&w, &cfg, 2);
    expect_read(&w, 0, VA(0), 0);
    assert_int_equal(tlbm_psc_count(&w.m, 0), 3); /* PML4E, PDPTE, PDE */
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 4, 0) != 0);
    expect_read(&w, 0, BIG_VA, FRAME_BIG); /* another PDPTE (other GiB), no PDE entry */
    assert_int_equal(tlbm_psc_count(&w.m, 0), 4);
    assert_int_equal(tlbm_psc_table(&w.m, 0, BIG_VA, 2, 0), 0);

    old = replace_small_table(&w, 6);
    assert_true(tlbm_psc_table(&w.m, 0, VA(1), 2, 0) == (uint64_t)(uintptr_t)old);
    expect_read(&w, 0, VA(1), 1); /* never cached in the TLB: walked through the old table */
    assert_true(w.m.cpu[0]->n.psc_walks >= 1);
    expect_read(&w, 1, VA(1), 6); /* CPU 1 had no entry: memory */
    /* INVLPG of one address drops the PDE entry of its region; VA(1) walks anew */
    tlbm_invlpg(&w.m, 0, VA(5));
    assert_int_equal(tlbm_psc_table(&w.m, 0, VA(1), 2, 0), 0);
    assert_true(tlbm_psc_table(&w.m, 0, BIG_VA, 3, 0) != 0); /* another region's stays */
    tlbm_invlpg(&w.m, 0, VA(1));
    expect_read(&w, 0, VA(1), 6);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/* What each invalidation does to the paging-structure caches (SDM 4.10.4.1, APM INVLPGB). */
static void test_paging_structure_cache_invalidation(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    (void)state;
    world_init(&w, &cfg, 2);
    enable_pcid(&w, 0, 1);
    enable_pcid(&w, 1, 1);
    /* CR4.PCIDE on flushed everything; now PCID 1 caches VA(0)'s walk, PCID 2 too */
    expect_read(&w, 0, VA(0), 0);
    tlbm_write_cr3(&w.m, 0, root(&w) | 2);
    expect_read(&w, 0, VA(0), 0);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 1) != 0);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 2) != 0);

    /* MOV CR3 with bit 63 keeps them; without it, the new PCID's go */
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 1) != 0);
    tlbm_write_cr3(&w.m, 0, root(&w) | 1);
    assert_int_equal(tlbm_psc_table(&w.m, 0, VA(0), 2, 1), 0);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 2) != 0);

    /* INVPCID type 0: the PCID's entries for that address; type 1: all of the PCID's */
    expect_read(&w, 0, VA(0), 0);
    tlbm_invpcid(&w.m, 0, INVPCID_ADDRESS, 2, BIG_VA);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 2) != 0);
    tlbm_invpcid(&w.m, 0, INVPCID_ADDRESS, 2, VA(7));
    assert_int_equal(tlbm_psc_table(&w.m, 0, VA(0), 2, 2), 0);
    assert_true(tlbm_psc_table(&w.m, 0, VA(0), 2, 1) != 0);
    tlbm_invpcid(&w.m, 0, INVPCID_SINGLE_CONTEXT, 1, 0);
    assert_int_equal(tlbm_psc_count(&w.m, 0), 0);
    /* types 2 and 3: every PCID's (paging-structure entries are never global) */
    expect_read(&w, 0, VA(0), 0);
    tlbm_invpcid(&w.m, 0, INVPCID_ALL_NON_GLOBAL, 0, 0);
    assert_int_equal(tlbm_psc_count(&w.m, 0), 0);
    expect_read(&w, 0, VA(0), 0);
    tlbm_invpcid(&w.m, 0, INVPCID_ALL_INCLUDING_GLOBAL, 0, 0);
    assert_int_equal(tlbm_psc_count(&w.m, 0), 0);
    /* a CR4.PGE toggle drops them all */
    expect_read(&w, 0, VA(0), 0);
    tlbm_write_cr4(&w.m, 0, w.m.cpu[0]->cr4 & ~CR4_PGE);
    assert_int_equal(tlbm_psc_count(&w.m, 0), 0);

    /* INVLPGB final-only (rAX[4]) keeps them; without it, the PCID's for the range go */
    expect_read(&w, 1, VA(0), 0);
    expect_read(&w, 1, BIG_VA, FRAME_BIG);
    tlbm_invlpgb(&w.m, 1, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID | INVLPGB_FLAG_FINAL_ONLY,
                 0, IB_EDX(1, 0));
    sync_all(&w, 1);
    assert_false(tlbm_holds(&w.m, 1, VA(0), NULL));
    assert_true(tlbm_psc_table(&w.m, 1, VA(0), 2, 1) != 0);
    tlbm_invlpgb(&w.m, 1, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID, 0, IB_EDX(2, 0));
    sync_all(&w, 1);
    assert_true(tlbm_psc_table(&w.m, 1, VA(0), 2, 1) != 0); /* another PCID's */
    tlbm_invlpgb(&w.m, 1, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID, 0, IB_EDX(1, 0));
    sync_all(&w, 1);
    assert_int_equal(tlbm_psc_table(&w.m, 1, VA(0), 2, 1), 0);
    assert_true(tlbm_psc_table(&w.m, 1, BIG_VA, 3, 1) != 0); /* outside the range */
    tlbm_invlpgb(&w.m, 1, INVLPGB_FLAG_PCID, 0, IB_EDX(1, 0)); /* no VA: the PCID's, all */
    sync_all(&w, 1);
    assert_int_equal(tlbm_psc_count(&w.m, 1), 0);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

/*
 * AMD's translation cache extension (APM vol. 2, 3.1.7): with EFER.TCE clear
 * on a CPU that has it, INVLPG, INVPCID and an INVLPGB landing empty the
 * whole page-walk cache; with it set, only the entries on the address's
 * path go. Setting TCE where CPUID lacks it, or another EFER bit, faults.
 */
static void test_efer_tce_decides_what_invalidations_drop(void **state)
{
    struct world w;
    struct tlbm_config cfg = invlpgb_config();
    (void)state;
    cfg.feat.tce = true;
    world_init(&w, &cfg, 2);
    assert_true(tlbm_read_efer(&w.m, 0) == TLBM_EFER_FIRMWARE); /* as the firmware hands over */
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, BIG_VA, FRAME_BIG);
    tlbm_invlpg(&w.m, 0, VA(5));
    assert_int_equal(tlbm_psc_count(&w.m, 0), 0); /* TCE clear: everything, BIG_VA's too */
    assert_int_equal(w.m.cpu[0]->n.psc_flush_all, 1);

    tlbm_write_efer(&w.m, 0, TLBM_EFER_FIRMWARE | EFER_TCE);
    tlbm_invlpg(&w.m, 0, BIG_VA); /* its TLB entry: the read below walks again */
    expect_read(&w, 0, VA(0), 0);
    expect_read(&w, 0, BIG_VA, FRAME_BIG);
    tlbm_invlpg(&w.m, 0, VA(5));
    assert_int_equal(tlbm_psc_table(&w.m, 0, VA(0), 2, 0), 0);
    assert_true(tlbm_psc_table(&w.m, 0, BIG_VA, 3, 0) != 0); /* off the path: kept */
    tlbm_invpcid(&w.m, 0, INVPCID_ADDRESS, 0, VA(5));
    assert_true(tlbm_psc_table(&w.m, 0, BIG_VA, 3, 0) != 0);
    assert_int_equal(w.m.cpu[0]->n.psc_flush_all, 1);

    /* an INVLPGB lands by each CPU's own EFER: CPU 1 (TCE clear) empties its cache */
    expect_read(&w, 1, VA(0), 0);
    expect_read(&w, 1, BIG_VA, FRAME_BIG);
    expect_read(&w, 0, VA(0), 0);
    tlbm_invlpgb(&w.m, 0, VA(0) | INVLPGB_FLAG_VA | INVLPGB_FLAG_PCID, 0, IB_EDX(0, 0));
    sync_all(&w, 0);
    assert_int_equal(tlbm_psc_count(&w.m, 1), 0);
    assert_true(tlbm_psc_table(&w.m, 0, BIG_VA, 3, 0) != 0);
    assert_int_equal(w.m.violations, 0);

    /* EFER's other bits are not the tool's to change */
    tlbm_write_efer(&w.m, 0, TLBM_EFER_FIRMWARE & ~1ull);
    assert_int_equal(w.m.violations, 1);
    world_free(&w);

    cfg.feat.tce = false; /* an Intel CPU: bit 15 is reserved */
    world_init(&w, &cfg, 1);
    tlbm_write_efer(&w.m, 0, TLBM_EFER_FIRMWARE | EFER_TCE);
    assert_int_equal(w.m.violations, 1);
    assert_true(tlbm_read_efer(&w.m, 0) == TLBM_EFER_FIRMWARE);
    world_free(&w);
}

/* ---- event log and counters ---- */

static void test_event_log(void **state)
{
    struct world w;
    struct tlbm_config cfg = quiet_config();
    struct tlbm_event ev[8], ev1[2];
    uint32_t n, i;
    (void)state;
    world_init(&w, &cfg, 2);
    enable_pcid(&w, 0, 1);
    tlbm_clear_counts(&w.m, 0);
    tlbm_clear_counts(&w.m, 1);
    assert_int_equal(tlbm_events(&w.m, 0, ev, 8), 0);

    tlbm_invlpg(&w.m, 0, VA(0));
    tlbm_invlpg(&w.m, 1, VA(1));
    tlbm_write_cr3(&w.m, 0, root(&w) | 1 | CR3_NOFLUSH);
    tlbm_note_ipi(&w.m, 0, UINT32_MAX, 0xf2);
    tlbm_note_ipi(&w.m, 0, 1, 0xf3);
    n = tlbm_events(&w.m, 0, ev, 8);
    assert_int_equal(n, 4);
    assert_int_equal(ev[0].kind, TLBM_EV_INVLPG);
    assert_true(ev[0].a == VA(0));
    assert_int_equal(ev[1].kind, TLBM_EV_CR3);
    assert_true(ev[1].a == (root(&w) | 1 | CR3_NOFLUSH)); /* as written, bit 63 included */
    assert_int_equal(ev[2].kind, TLBM_EV_IPI);
    assert_true(ev[2].a == UINT32_MAX);
    assert_int_equal(ev[2].b, 0xf2);
    assert_int_equal(ev[3].kind, TLBM_EV_IPI);
    assert_int_equal(ev[3].a, 1);
    assert_int_equal(ev[3].b, 0xf3);
    for (i = 1; i < n; i++)
        assert_true(ev[i].seq > ev[i - 1].seq);
    /* the sequence is global: CPU 1's INVLPG came between CPU 0's first two events */
    assert_int_equal(tlbm_events(&w.m, 1, ev1, 2), 1);
    assert_int_equal(ev1[0].kind, TLBM_EV_INVLPG);
    assert_true(ev1[0].a == VA(1));
    assert_true(ev1[0].seq > ev[0].seq && ev1[0].seq < ev[1].seq);
    assert_int_equal(tlbm_events(&w.m, 0, ev, 2), 2); /* cap respected: the oldest two */
    assert_int_equal(ev[1].kind, TLBM_EV_CR3);

    assert_int_equal(w.m.cpu[0]->n.invlpg, 1);
    assert_true(w.m.cpu[0]->invlpg_log[0] == VA(0));
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 0); /* the CR3 write had bit 63 */
    tlbm_write_cr3(&w.m, 0, root(&w) | 1);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 1);

    tlbm_clear_counts(&w.m, 0);
    assert_int_equal(tlbm_events(&w.m, 0, ev, 8), 0);
    assert_int_equal(w.m.cpu[0]->n.invlpg, 0);
    assert_int_equal(w.m.cpu[0]->n.full_flushes, 0);
    assert_int_equal(tlbm_events(&w.m, 1, ev1, 2), 1); /* CPU 1's log is its own */
    tlbm_invlpg(&w.m, 0, VA(5));
    assert_true(w.m.cpu[0]->invlpg_log[0] == VA(5));
    assert_int_equal(tlbm_events(&w.m, 0, ev, 8), 1);
    assert_int_equal(ev[0].kind, TLBM_EV_INVLPG);
    assert_true(ev[0].a == VA(5));
    assert_true(ev[0].seq > ev1[0].seq);
    assert_int_equal(w.m.violations, 0);
    world_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fills_only_from_walks),
        cmocka_unit_test(test_non_canonical_read_faults),
        cmocka_unit_test(test_la57_walks_five_levels),
        cmocka_unit_test(test_2m_mapping_fills_a_2m_entry),
        cmocka_unit_test(test_1g_mapping_fills_a_1g_entry),
        cmocka_unit_test(test_global_needs_pge),
        cmocka_unit_test(test_stale_until_invalidated),
        cmocka_unit_test(test_invlpg_pcid_and_global),
        cmocka_unit_test(test_invlpg_without_pcid),
        cmocka_unit_test(test_invlpg_erratum_keeps_global_only_with_pcide),
        cmocka_unit_test(test_cr3_without_pcide_drops_non_global),
        cmocka_unit_test(test_cr3_with_pcide),
        cmocka_unit_test(test_cr3_noflush_without_pcide_faults),
        cmocka_unit_test(test_cr4_pge_toggle_flushes_everything),
        cmocka_unit_test(test_cr4_pcide_off_flushes_everything),
        cmocka_unit_test(test_cr4_pcide_preconditions),
        cmocka_unit_test(test_invpcid_types),
        cmocka_unit_test(test_invpcid_faults),
        cmocka_unit_test(test_invlpgb_operands),
        cmocka_unit_test(test_invlpgb_no_va_form),
        cmocka_unit_test(test_invlpgb_count),
        cmocka_unit_test(test_invlpgb_limits),
        cmocka_unit_test(test_invlpgb_2m_stride),
        cmocka_unit_test(test_invlpgb_lands_at_issuers_tlbsync),
        cmocka_unit_test(test_efer_tce_decides_what_invalidations_drop),
        cmocka_unit_test(test_tlbsync_early_erratum),
        cmocka_unit_test(test_invlpgb_ignores_count_erratum),
        cmocka_unit_test(test_invlpgb_zero_delay_lands_at_next_event),
        cmocka_unit_test(test_capacity_and_eviction),
        cmocka_unit_test(test_replacement_is_seeded),
        cmocka_unit_test(test_speculation),
        cmocka_unit_test(test_speculation_uses_current_pcid_and_tables),
        cmocka_unit_test(test_fills_after_acting_prefer_invalidated_pages),
        cmocka_unit_test(test_pte_store_may_cache_what_it_replaces),
        cmocka_unit_test(test_pcids_and_global_entries_coexist),
        cmocka_unit_test(test_sets_need_not_be_a_power_of_two),
        cmocka_unit_test(test_splintered_2m_pages),
        cmocka_unit_test(test_walks_use_paging_structure_caches),
        cmocka_unit_test(test_paging_structure_cache_invalidation),
        cmocka_unit_test(test_event_log),
    };
    host_init();
    return cmocka_run_group_tests_name("tlb_model", tests, NULL, NULL);
}
