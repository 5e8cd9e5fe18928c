/*
 * APIC ID -> package/core/thread (arch/x86/topology.c) on ten real CPUID
 * dumps (../shared/data/cpuid). The truth is each dump's "All CPUs"
 * summary (package, core, thread of every logical CPU, as AIDA64 computed
 * them on the machine) and the "allcpu:" line of each kept CPU section.
 * AIDA64 numbers Intel cores densely (0, 1, ... skipping APIC ID gaps), so
 * cores are compared as a partition: two CPUs share a core in the decode
 * exactly when they share one in the dump.
 *
 * Data: InstLatx64/InstLatx64 (instlatx64.atw.hu, AIDA64 CPUID dumps; no
 * licence file, used as third-party reference data). The tests skip when
 * the shared data folder is missing.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "asm/cpuid.h"
#include "asm/topology.h"
#include "tests/host/support_cpuid_dump.h"
#include "tests/host/support_host.h"

struct expect {
    const char *file;
    enum topo_source source;
    uint32_t smt_shift, package_shift;
    uint32_t packages; /* in the summary, or in the dump's sections */
    /*
     * The L3's APIC ID block (issue 21): log2 of CPUID 4 / 8000001Dh sub-leaf 3
     * EAX[25:14] + 1, read off the dump's own line: a CCX of 4 cores x 2 on Zen
     * 1/2 (3), a CCD of 8 on Zen 3 without SMT (3) and with it (4), the whole
     * package's block on Intel (the package shift).
     */
    uint32_t l3_shift;
};

static const struct expect expected[] = {
    { "amd-epyc7763.txt", TOPO_SRC_LEAF_0B, 0, 6, 2, 3 },
    { "amd-epyc7763-smt-x2apic.txt", TOPO_SRC_LEAF_0B, 1, 7, 2, 4 },
    { "amd-epyc9654.txt", TOPO_SRC_LEAF_0B, 1, 8, 2, 4 },
    { "amd-epyc7742.txt", TOPO_SRC_LEAF_0B, 1, 7, 2, 3 },
    { "amd-epyc7551p.txt", TOPO_SRC_AMD_EXT, 1, 6, 1, 3 }, /* no leaf 0Bh on Zen 1 */
    { "intel-xeon8180.txt", TOPO_SRC_LEAF_0B, 1, 6, 2, 6 },
    { "intel-xeon6130.txt", TOPO_SRC_LEAF_0B, 1, 5, 2, 5 },
    { "intel-xeon6330.txt", TOPO_SRC_LEAF_0B, 1, 7, 2, 7 },
    { "intel-xeonw9-3475x.txt", TOPO_SRC_LEAF_1F, 1, 7, 1, 7 },
    { "intel-i9-12900k.txt", TOPO_SRC_LEAF_1F, 1, 7, 1, 7 },
};

static void decode_section(const struct cpuid_section *s, struct cpu_features *f,
                           struct topo_shifts *t)
{
    cpuid_decode(cpuid_dump_fn, (void *)s, f);
    topology_decode(cpuid_dump_fn, (void *)s, f, t);
}

/* The APIC ID a CPU reads for itself: the x2APIC ID when enumerated, else the 8-bit one. */
static uint32_t own_apic_id(const struct cpu_features *f)
{
    return f->has_x2apic_id_leaf ? f->x2apic_id : f->initial_apic_id8;
}

/* Every CPU of the "All CPUs" summary against the shifts decoded on CPU #0. */
static void check_summary(const struct cpuid_dump *d, const struct topo_shifts *t,
                          const char *file)
{
    uint32_t i, j, max_pkg = 0;
    uint32_t pkg[512], core[512], thr[512];
    assert_true(d->nsummary <= 512);
    for (i = 0; i < d->nsummary; i++) {
        const struct cpuid_summary_cpu *c = &d->summary[i];
        topology_split(t, c->apic_id, &pkg[i], &core[i], &thr[i]);
        if (pkg[i] != c->package || thr[i] != c->thread)
            fail_msg("%s CPU %u (APIC ID %u): decoded package %u thread %u, dump says %u/%u",
                     file, c->cpu, c->apic_id, pkg[i], thr[i], c->package, c->thread);
        if (c->package > max_pkg)
            max_pkg = c->package;
    }
    for (i = 0; i < d->nsummary; i++) {
        for (j = i + 1; j < d->nsummary; j++) {
            bool same_dump = d->summary[i].package == d->summary[j].package &&
                             d->summary[i].core == d->summary[j].core;
            bool same_ours = pkg[i] == pkg[j] && core[i] == core[j];
            if (same_dump != same_ours)
                fail_msg("%s: CPUs %u and %u share a core in the %s only", file,
                         d->summary[i].cpu, d->summary[j].cpu, same_dump ? "dump" : "decode");
        }
    }
}

static void check_dump(const struct expect *e)
{
    struct cpuid_dump d;
    struct cpu_features f0, f;
    struct topo_shifts t0, t;
    uint32_t i, max_pkg = 0;
    LOAD_DUMP(&d, e->file);
    decode_section(cpuid_dump_cpu(&d, 0), &f0, &t0);
    assert_int_equal(t0.source, e->source);
    assert_int_equal(t0.smt_shift, e->smt_shift);
    assert_int_equal(t0.package_shift, e->package_shift);
    assert_int_equal(t0.threads_per_core, 1u << e->smt_shift);
    assert_true(t0.has_l3);
    assert_int_equal(t0.l3_shift, e->l3_shift);
    assert_string_equal(t0.l3_source,
                        strncmp(e->file, "amd", 3) == 0 ? "leaf_8000001d" : "leaf_4");
    if (d.nsummary)
        check_summary(&d, &t0, e->file);

    /* every kept section: same shifts, and its own APIC ID splits to its "allcpu:" line */
    for (i = 0; i < d.nsections; i++) {
        const struct cpuid_section *s = &d.sections[i];
        uint32_t pkg, core, thr;
        decode_section(s, &f, &t);
        assert_int_equal(t.package_shift, t0.package_shift);
        assert_int_equal(t.smt_shift, t0.smt_shift);
        assert_int_equal(t.core_shift, t0.core_shift);
        topology_split(&t0, own_apic_id(&f), &pkg, &core, &thr);
        if (s->has_allcpu && (pkg != s->package || thr != s->thread))
            fail_msg("%s CPU #%u: decoded %u/%u, allcpu line says package %u thread %u",
                     e->file, s->cpu, pkg, thr, s->package, s->thread);
        if (pkg > max_pkg)
            max_pkg = pkg;
    }
    if (d.nsummary)
        for (i = 0; i < d.nsummary; i++)
            if (d.summary[i].package > max_pkg)
                max_pkg = d.summary[i].package;
    assert_int_equal(max_pkg + 1, e->packages);
    cpuid_dump_free(&d);
}

static void test_epyc7763(void **state) { (void)state; check_dump(&expected[0]); }
static void test_epyc7763_smt(void **state) { (void)state; check_dump(&expected[1]); }
static void test_epyc9654(void **state) { (void)state; check_dump(&expected[2]); }
static void test_epyc7742(void **state) { (void)state; check_dump(&expected[3]); }
static void test_epyc7551p(void **state) { (void)state; check_dump(&expected[4]); }
static void test_xeon8180(void **state) { (void)state; check_dump(&expected[5]); }
static void test_xeon6130(void **state) { (void)state; check_dump(&expected[6]); }
static void test_xeon6330(void **state) { (void)state; check_dump(&expected[7]); }
static void test_xeonw9(void **state) { (void)state; check_dump(&expected[8]); }
static void test_i9_12900k(void **state) { (void)state; check_dump(&expected[9]); }

/* The README's named cases, one by one. */
static void test_named_cpus(void **state)
{
    struct cpuid_dump d;
    struct cpu_features f;
    struct topo_shifts t;
    uint32_t pkg, core, thr, pkg1, core1, thr1;
    (void)state;

    /* 7763 with SMT: CPU #0 and #1 are siblings of one core; CPU #128 opens package 1 */
    LOAD_DUMP(&d, "amd-epyc7763-smt-x2apic.txt");
    decode_section(cpuid_dump_cpu(&d, 0), &f, &t);
    topology_split(&t, own_apic_id(&f), &pkg, &core, &thr);
    decode_section(cpuid_dump_cpu(&d, 1), &f, &t);
    topology_split(&t, own_apic_id(&f), &pkg1, &core1, &thr1);
    assert_int_equal(pkg, pkg1);
    assert_int_equal(core, core1);
    assert_int_equal(thr, 0);
    assert_int_equal(thr1, 1);
    decode_section(cpuid_dump_cpu(&d, 128), &f, &t);
    topology_split(&t, own_apic_id(&f), &pkg, &core, &thr);
    assert_int_equal(pkg, 1);
    assert_int_equal(core, 0);
    cpuid_dump_free(&d);

    /* 9654 CPU #192: x2APIC ID 256 (8-bit ID 0) is package 1, not package 0 */
    LOAD_DUMP(&d, "amd-epyc9654.txt");
    decode_section(cpuid_dump_cpu(&d, 192), &f, &t);
    assert_int_equal(f.initial_apic_id8, 0);
    topology_split(&t, own_apic_id(&f), &pkg, &core, &thr);
    assert_int_equal(pkg, 1);
    assert_int_equal(core, 0);
    assert_int_equal(thr, 0);
    assert_int_equal(t.amd_node_id, 1);
    assert_int_equal(t.amd_nodes_per_package, 1);
    cpuid_dump_free(&d);

    /* 7763 without SMT: CPU #0 and #1 are different cores; CPU #64 opens package 1 */
    LOAD_DUMP(&d, "amd-epyc7763.txt");
    decode_section(cpuid_dump_cpu(&d, 1), &f, &t);
    topology_split(&t, own_apic_id(&f), &pkg, &core, &thr);
    assert_int_equal(core, 1);
    assert_int_equal(thr, 0);
    decode_section(cpuid_dump_cpu(&d, 64), &f, &t);
    topology_split(&t, own_apic_id(&f), &pkg, NULL, NULL);
    assert_int_equal(pkg, 1);
    cpuid_dump_free(&d);

    /* Alder Lake: E-core CPU #16 (APIC ID 64) has no sibling; the shifts are the P-cores' */
    LOAD_DUMP(&d, "intel-i9-12900k.txt");
    decode_section(cpuid_dump_cpu(&d, 16), &f, &t);
    assert_int_equal(own_apic_id(&f), 64);
    assert_int_equal(t.threads_per_core, 1); /* what this E-core reports for itself */
    assert_int_equal(t.smt_shift, 1);
    topology_split(&t, 64, &pkg, &core, &thr);
    assert_int_equal(core, 32);
    assert_int_equal(thr, 0);
    cpuid_dump_free(&d);
}

/* The fallbacks give the same answer as leaf 0Bh on parts that have both. */
static void test_fallbacks_agree(void **state)
{
    static const char *const files[] = { "intel-xeon8180.txt", "amd-epyc7742.txt",
                                         "amd-epyc9654.txt", "amd-epyc7763.txt" };
    (void)state;
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        struct cpuid_dump d;
        struct cpu_features f;
        struct topo_shifts ext, old;
        LOAD_DUMP(&d, files[i]);
        decode_section(cpuid_dump_cpu(&d, 0), &f, &ext);
        f.max_basic_leaf = 4; /* hide leaf 0Bh */
        topology_decode(cpuid_dump_fn, (void *)cpuid_dump_cpu(&d, 0), &f, &old);
        assert_int_equal(old.source, f.vendor_id == VENDOR_AMD ? TOPO_SRC_AMD_EXT : TOPO_SRC_LEGACY);
        assert_int_equal(old.package_shift, ext.package_shift);
        assert_int_equal(old.smt_shift, ext.smt_shift);
        check_summary(&d, &old, files[i]);
        cpuid_dump_free(&d);
    }
}

/* ---- synthetic leaves ---- */

struct fake_levels {
    uint32_t leaf1_ebx, leaf1_edx, leaf4_eax;
    uint32_t max_basic;
    uint32_t levels[8][2]; /* per sub-leaf of 1Fh: shift, type */
};

static void fake_fn(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    const struct fake_levels *fl = ctx;
    memset(regs, 0, 16);
    if (leaf == 0) {
        regs[0] = fl->max_basic;
        memcpy(&regs[1], "Genu", 4);
        memcpy(&regs[3], "ineI", 4);
        memcpy(&regs[2], "ntel", 4);
    } else if (leaf == 1) {
        regs[0] = 0x000806f8;
        regs[1] = fl->leaf1_ebx;
        regs[3] = fl->leaf1_edx;
    } else if (leaf == 4 && subleaf == 0) {
        regs[0] = fl->leaf4_eax;
    } else if ((leaf == 0x1f || leaf == 0xb) && subleaf < 8 && fl->levels[subleaf][1]) {
        regs[0] = fl->levels[subleaf][0];
        regs[1] = 1;
        regs[2] = fl->levels[subleaf][1] << 8 | subleaf;
    }
}

static void test_leaf_1f_levels(void **state)
{
    /* SMT 1 bit, core 3 bits, module 1, die 2, package above bit 7 */
    struct fake_levels fl = { 0, 0, 0, 0x1f, { { 1, 1 }, { 4, 2 }, { 5, 3 }, { 7, 5 } } };
    struct cpu_features f;
    struct topo_shifts t;
    struct topo_ids ids;
    (void)state;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_LEAF_1F);
    assert_true(t.has_module && t.has_die && !t.has_tile);
    assert_int_equal(t.core_shift, 4);
    assert_int_equal(t.module_shift, 5);
    assert_int_equal(t.tile_shift, 5);
    assert_int_equal(t.die_shift, 7);
    assert_int_equal(t.package_shift, 7);
    /* APIC ID 0x1d7 = 0b11_10_1_011_1: package 3, die 2, module 1, core field 0b101011, thread 1 */
    topology_split_ids(&t, 0x1d7, &ids);
    assert_int_equal(ids.thread, 1);
    assert_int_equal(ids.module, 1);
    assert_int_equal(ids.die, 2);
    assert_int_equal(ids.package, 3);
    assert_int_equal(ids.core, (0x1d7 & 0x7f) >> 1);
    assert_string_equal(topo_source_name(t.source), "leaf_1f");

    /* a broken 1Fh (a level with a smaller shift than the one below) is not used; 0Bh
     * serves the same broken levels in this fake, so the legacy method answers */
    fl.levels[1][0] = 0;
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_LEGACY);
    /* a level type repeated is as broken */
    fl.levels[1][0] = 4, fl.levels[1][1] = 1;
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_LEGACY);
    /* 1Fh absent (sub-leaf 0 type 0), 0Bh present: 0Bh is used */
    fl.levels[1][1] = 2;
    fl.max_basic = 0xb;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_LEAF_0B);
    assert_string_equal(topo_source_name(t.source), "leaf_0b");
}

/* Shifts of 32 (the whole ID inside one package) must not shift by 32 (undefined in C). */
static void test_wide_fields(void **state)
{
    struct topo_shifts t;
    struct topo_ids ids;
    (void)state;
    memset(&t, 0, sizeof(t));
    t.smt_shift = 1;
    t.core_shift = t.module_shift = t.tile_shift = t.die_shift = t.package_shift = 32;
    topology_split_ids(&t, 0xffffffffu, &ids);
    assert_int_equal(ids.package, 0);
    assert_int_equal(ids.core, 0x7fffffffu);
    assert_int_equal(ids.thread, 1);
    t.smt_shift = 32;
    topology_split_ids(&t, 0xffffffffu, &ids);
    assert_int_equal(ids.core, 0);
    assert_int_equal(ids.thread, 0xffffffffu);
}

static void test_legacy_and_none(void **state)
{
    /* leaf 1: HTT, 16 logical IDs per package; leaf 4: 8 cores -> 1 SMT bit, 4 package bits */
    struct fake_levels fl = { 16u << 16, 1u << 28, (7u << 26) | 1, 4, { { 0 } } };
    struct cpu_features f;
    struct topo_shifts t;
    uint32_t pkg, core, thr;
    (void)state;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_LEGACY);
    assert_int_equal(t.smt_shift, 1);
    assert_int_equal(t.package_shift, 4);
    topology_split(&t, 0x13, &pkg, &core, &thr);
    assert_int_equal(pkg, 1);
    assert_int_equal(core, 1);
    assert_int_equal(thr, 1);
    /* no HTT: one logical CPU per package */
    fl.leaf1_edx = 0;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.package_shift, 0);
    topology_split(&t, 5, &pkg, &core, &thr);
    assert_int_equal(pkg, 5);
    assert_int_equal(core, 0);
    assert_int_equal(thr, 0);
    /* leaf 4 without a cache (type 0): cores unknown, every logical ID is a core */
    fl.leaf1_edx = 1u << 28;
    fl.leaf4_eax = 7u << 26;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.smt_shift, 0);
    assert_int_equal(t.package_shift, 4);
    /* nothing at all */
    fl.max_basic = 0;
    cpuid_decode(fake_fn, &fl, &f);
    topology_decode(fake_fn, &fl, &f, &t);
    assert_int_equal(t.source, TOPO_SRC_NONE);
    assert_string_equal(topo_source_name(t.source), "none");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_epyc7763),
        cmocka_unit_test(test_epyc7763_smt),
        cmocka_unit_test(test_epyc9654),
        cmocka_unit_test(test_epyc7742),
        cmocka_unit_test(test_epyc7551p),
        cmocka_unit_test(test_xeon8180),
        cmocka_unit_test(test_xeon6130),
        cmocka_unit_test(test_xeon6330),
        cmocka_unit_test(test_xeonw9),
        cmocka_unit_test(test_i9_12900k),
        cmocka_unit_test(test_named_cpus),
        cmocka_unit_test(test_fallbacks_agree),
        cmocka_unit_test(test_leaf_1f_levels),
        cmocka_unit_test(test_wide_fields),
        cmocka_unit_test(test_legacy_and_none),
    };
    host_init();
    return cmocka_run_group_tests_name("topology", tests, NULL, NULL);
}
