#include "asm/topology.h"

#define BIT(v, n) (((v) >> (n)) & 1u)

/* Extended topology level types, ECX[15:8] of CPUID 0Bh/1Fh (Intel SDM vol. 2A, CPUID) */
#define LEVEL_INVALID 0
#define LEVEL_SMT 1
#define LEVEL_CORE 2
#define LEVEL_MODULE 3
#define LEVEL_TILE 4
#define LEVEL_DIE 5
#define LEVEL_TYPES 8
#define MAX_SUBLEAVES 8 /* six level types are defined; more means a broken leaf */

#define AMD_TOPOEXT 22  /* 80000001h ECX[22] TopologyExtensions: 8000001Eh is valid */
#define LEAF1_HTT 28    /* 1:EDX[28]: EBX[23:16] is valid */

static uint32_t ceil_log2(uint32_t n)
{
    uint32_t s = 0;
    while (s < 32 && (1ull << s) < n)
        s++;
    return s;
}

/* Bits [hi-1:lo] of id; 0 for an empty field. Shifts may reach 32 (a 32-bit package field). */
static uint32_t field(uint32_t id, uint32_t lo, uint32_t hi)
{
    uint32_t v, width;
    if (lo >= 32 || hi <= lo)
        return 0;
    v = id >> lo;
    width = hi - lo;
    return width >= 32 ? v : v & ((1u << width) - 1);
}

/*
 * CPUID 0Bh or 1Fh: sub-leaf n describes one level; EAX[4:0] is the number
 * of APIC ID bits below the next level up, ECX[15:8] the level type, and
 * the list ends at type 0. The last level's shift is the package's.
 */
static bool decode_extended(cpuid_fn fn, void *ctx, uint32_t leaf, struct topo_shifts *s)
{
    uint32_t shift_of[LEVEL_TYPES] = { 0 };
    bool have[LEVEL_TYPES] = { false };
    uint32_t r[4], sub, last_shift = 0, smt_count = 1;
    for (sub = 0; sub < MAX_SUBLEAVES; sub++) {
        uint32_t type, shift;
        fn(ctx, leaf, sub, r);
        type = (r[2] >> 8) & 0xff;
        shift = r[0] & 0x1f;
        if (type == LEVEL_INVALID)
            break;
        /* EBX[15:0] = 0 in sub-leaf 0 means the leaf is not implemented */
        if (sub == 0 && (r[1] & 0xffff) == 0)
            return false;
        if (shift < last_shift)
            return false; /* levels go up; a smaller shift is a broken leaf */
        if (type < LEVEL_TYPES) {
            if (have[type])
                return false;
            have[type] = true;
            shift_of[type] = shift;
            if (type == LEVEL_SMT)
                smt_count = r[1] & 0xffff;
        }
        last_shift = shift;
    }
    if (sub == 0 || sub == MAX_SUBLEAVES)
        return false;
    s->smt_shift = have[LEVEL_SMT] ? shift_of[LEVEL_SMT] : 0;
    s->core_shift = have[LEVEL_CORE] ? shift_of[LEVEL_CORE] : s->smt_shift;
    s->module_shift = have[LEVEL_MODULE] ? shift_of[LEVEL_MODULE] : s->core_shift;
    s->tile_shift = have[LEVEL_TILE] ? shift_of[LEVEL_TILE] : s->module_shift;
    s->die_shift = have[LEVEL_DIE] ? shift_of[LEVEL_DIE] : s->tile_shift;
    s->package_shift = last_shift;
    s->has_module = have[LEVEL_MODULE];
    s->has_tile = have[LEVEL_TILE];
    s->has_die = have[LEVEL_DIE];
    s->threads_per_core = smt_count ? smt_count : 1;
    return true;
}

/*
 * AMD without leaf 0Bh (family 17h model 01h "Naples", older families):
 * 80000008h ECX[15:12] ApicIdCoreIdSize is the width of the in-package ID
 * (0: use NC, ECX[7:0] + 1 threads); 8000001Eh EBX[15:8] + 1 threads per
 * core (family 15h/16h: cores per compute unit, which Linux treats as
 * siblings too). AMD APM vol. 3, E.4.7 and E.4.15.
 */
static bool decode_amd_ext(cpuid_fn fn, void *ctx, const struct cpu_features *f,
                           struct topo_shifts *s)
{
    uint32_t r[4], core_id_size, nc;
    if (f->max_ext_leaf < 0x80000008u)
        return false;
    fn(ctx, 0x80000008u, 0, r);
    core_id_size = (r[2] >> 12) & 0xf;
    nc = (r[2] & 0xff) + 1;
    s->package_shift = core_id_size ? core_id_size : ceil_log2(nc);
    s->threads_per_core = 1;
    if (f->max_ext_leaf >= 0x8000001eu && BIT(f->evidence.ext1_ecx, AMD_TOPOEXT)) {
        fn(ctx, 0x8000001eu, 0, r);
        s->threads_per_core = ((r[1] >> 8) & 0xff) + 1;
    }
    s->smt_shift = ceil_log2(s->threads_per_core);
    return true;
}

/*
 * The legacy method (Intel SDM vol. 3A, 9.9 "Identifying topology"): 1:EBX[23:16]
 * addressable logical IDs per package when 1:EDX[28] (HTT) is set, and on
 * Intel 4.0:EAX[31:26] + 1 addressable core IDs per package.
 */
static void decode_legacy(cpuid_fn fn, void *ctx, const struct cpu_features *f,
                          struct topo_shifts *s)
{
    uint32_t r[4], logical, cores = 0, core_bits;
    s->threads_per_core = 1;
    if (!BIT(f->evidence.leaf1_edx, LEAF1_HTT))
        return; /* one logical CPU per package: all shifts 0 */
    logical = (f->evidence.leaf1_ebx >> 16) & 0xff;
    s->package_shift = ceil_log2(logical ? logical : 1);
    if (f->vendor_id == VENDOR_INTEL && f->max_basic_leaf >= 4) {
        fn(ctx, 4, 0, r);
        if (r[0] & 0x1f) /* cache type 0: no such cache, EAX[31:26] undefined */
            cores = ((r[0] >> 26) & 0x3f) + 1;
    }
    core_bits = ceil_log2(cores ? cores : logical);
    s->smt_shift = core_bits < s->package_shift ? s->package_shift - core_bits : 0;
    s->threads_per_core = 1u << s->smt_shift;
}

/*
 * Deterministic cache parameters: CPUID 4 (Intel SDM vol. 2A) and AMD's
 * 8000001Dh (APM vol. 3, E.4.14, valid with TopologyExtensions) share one
 * layout: sub-leaf n describes one cache, EAX[4:0] its type (0: no more),
 * EAX[7:5] its level, EAX[25:14] + 1 the logical-processor IDs sharing it.
 * The IDs sharing a cache are an aligned block of APIC IDs, so the L3 of a
 * CPU is its APIC ID with the low ceil(log2(sharing)) bits dropped (what
 * Linux's cacheinfo does for cpu_llc_id).
 */
static bool decode_l3(cpuid_fn fn, void *ctx, uint32_t leaf, struct topo_shifts *s)
{
    uint32_t r[4], sub;
    for (sub = 0; sub < MAX_SUBLEAVES; sub++) {
        fn(ctx, leaf, sub, r);
        if ((r[0] & 0x1f) == 0)
            return false;
        if (((r[0] >> 5) & 7) == 3) {
            s->l3_shift = ceil_log2(((r[0] >> 14) & 0xfff) + 1);
            s->has_l3 = true;
            return true;
        }
    }
    return false;
}

static void decode_l3_any(cpuid_fn fn, void *ctx, const struct cpu_features *f, bool amd,
                          struct topo_shifts *s)
{
    s->l3_source = "none";
    if (amd) {
        if (f->max_ext_leaf >= 0x8000001du && BIT(f->evidence.ext1_ecx, AMD_TOPOEXT) &&
            decode_l3(fn, ctx, 0x8000001du, s))
            s->l3_source = "leaf_8000001d";
    } else if (f->max_basic_leaf >= 4 && decode_l3(fn, ctx, 4, s)) {
        s->l3_source = "leaf_4";
    }
}

void topology_decode(cpuid_fn fn, void *ctx, const struct cpu_features *f, struct topo_shifts *out)
{
    struct topo_shifts s = { 0 };
    uint32_t r[4];
    bool amd = f->vendor_id == VENDOR_AMD || f->vendor_id == VENDOR_HYGON;
    /* the decoders write nothing unless they succeed, so each can fall through to the next */
    if (f->max_basic_leaf >= 0x1f && decode_extended(fn, ctx, 0x1f, &s)) {
        s.source = TOPO_SRC_LEAF_1F;
    } else if (f->max_basic_leaf >= 0xb && decode_extended(fn, ctx, 0xb, &s)) {
        s.source = TOPO_SRC_LEAF_0B;
    } else {
        if (amd && decode_amd_ext(fn, ctx, f, &s)) {
            s.source = TOPO_SRC_AMD_EXT;
        } else if (f->max_basic_leaf >= 1) {
            decode_legacy(fn, ctx, f, &s);
            s.source = TOPO_SRC_LEGACY;
        } else {
            s.threads_per_core = 1;
        }
        /* the levels between core and package are not enumerated by these */
        s.core_shift = s.module_shift = s.tile_shift = s.die_shift = s.package_shift;
    }
    if (s.smt_shift > s.package_shift)
        s.smt_shift = s.package_shift;
    if (amd && f->max_ext_leaf >= 0x8000001eu && BIT(f->evidence.ext1_ecx, AMD_TOPOEXT)) {
        fn(ctx, 0x8000001eu, 0, r);
        s.amd_nodes_per_package = ((r[2] >> 8) & 7) + 1;
        s.amd_node_id = r[2] & 0xff;
    }
    decode_l3_any(fn, ctx, f, amd, &s);
    *out = s;
}

void topology_split_ids(const struct topo_shifts *s, uint32_t apic_id, struct topo_ids *out)
{
    out->thread = field(apic_id, 0, s->smt_shift);
    out->core = field(apic_id, s->smt_shift, s->package_shift);
    out->module = s->has_module ? field(apic_id, s->core_shift, s->module_shift) : 0;
    out->die = s->has_die ? field(apic_id, s->tile_shift, s->die_shift) : 0;
    out->package = s->package_shift >= 32 ? 0 : apic_id >> s->package_shift;
    out->l3 = s->has_l3 && s->l3_shift < 32 ? apic_id >> s->l3_shift : 0;
}

void topology_split(const struct topo_shifts *s, uint32_t apic_id, uint32_t *package,
                    uint32_t *core, uint32_t *thread)
{
    struct topo_ids ids;
    topology_split_ids(s, apic_id, &ids);
    if (package)
        *package = ids.package;
    if (core)
        *core = ids.core;
    if (thread)
        *thread = ids.thread;
}

const char *topo_source_name(enum topo_source src)
{
    switch (src) {
    case TOPO_SRC_LEAF_1F:
        return "leaf_1f";
    case TOPO_SRC_LEAF_0B:
        return "leaf_0b";
    case TOPO_SRC_AMD_EXT:
        return "amd_ext";
    case TOPO_SRC_LEGACY:
        return "legacy";
    default:
        return "none";
    }
}
