#include "asm/tlb_info.h"

/* Leaf 2 descriptors of second-level TLBs holding 4 KiB pages (SDM vol. 2A, table 3-12). */
static uint32_t leaf2_stlb_entries(uint8_t d, uint32_t *ways)
{
    switch (d) {
    case 0xC1: *ways = 8; return 1024; /* STLB 4K/2M, 8-way */
    case 0xC3: *ways = 6; return 1536; /* STLB 4K/2M, 6-way (+16 1G entries) */
    case 0xCA: *ways = 4; return 512;  /* STLB 4K, 4-way */
    default: return 0;
    }
}

/* AMD's L2 cache/TLB associativity field (APM vol. 3, E.4.5); 0: disabled or not here. */
static uint32_t amd_l2_ways(uint32_t code, uint32_t entries)
{
    static const uint32_t ways[16] = { 0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 96, 128, 0 };
    return code == 0xF ? entries : ways[code & 0xF];
}

static bool decode_leaf18(cpuid_fn fn, void *ctx, struct l2_tlb_info *out)
{
    uint32_t r[4], max, i, total = 0, all_ways = 0;
    fn(ctx, 0x18, 0, r);
    max = r[0];
    for (i = 0; i <= max && i < 64; i++) {
        uint32_t type, level, ways, sets;
        fn(ctx, 0x18, i, r);
        type = r[3] & 0x1f;
        level = (r[3] >> 5) & 7;
        if (level != 2 || (type != 1 && type != 3) || !(r[1] & 1))
            continue;
        ways = r[1] >> 16;
        sets = r[2];
        total += (r[3] & (1u << 8)) ? ways : ways * sets;
        all_ways += ways;
        out->evidence[0] = r[1];
        out->evidence[1] = r[2];
        out->evidence[2] = r[3];
    }
    if (!total)
        return false;
    out->entries_4k = total;
    out->ways_4k = all_ways;
    out->source = "cpuid_18h";
    return true;
}

/* Descriptor 0xFE ("use leaf 0x18") matches nothing here: the caller then reads leaf 0x18. */
static bool decode_leaf2(cpuid_fn fn, void *ctx, struct l2_tlb_info *out)
{
    uint32_t r[4], i, b;
    bool found = false;
    fn(ctx, 2, 0, r);
    for (i = 0; i < 4; i++) {
        if (r[i] & 0x80000000u)
            continue; /* bit 31 set: no valid descriptors in this register */
        for (b = (i == 0 ? 1 : 0); b < 4; b++) { /* AL is the iteration count, not a descriptor */
            uint8_t d = (uint8_t)(r[i] >> (8 * b));
            uint32_t ways = 0, n = leaf2_stlb_entries(d, &ways);
            if (n) {
                out->entries_4k = n;
                out->ways_4k = ways;
                out->source = "cpuid_02h";
                found = true;
            }
        }
    }
    if (found)
        for (i = 0; i < 4; i++)
            out->evidence[i] = r[i];
    return found;
}

void cpuid_decode_l2_tlb(cpuid_fn fn, void *ctx, enum cpu_vendor vendor, uint32_t max_basic,
                         uint32_t max_ext, struct l2_tlb_info *out)
{
    uint32_t r[4];
    out->entries_4k = 0;
    out->ways_4k = 0;
    out->source = "none";
    out->evidence[0] = out->evidence[1] = out->evidence[2] = out->evidence[3] = 0;
    if (vendor == VENDOR_INTEL) {
        if (max_basic >= 2 && decode_leaf2(fn, ctx, out))
            return;
        if (max_basic >= 0x18)
            decode_leaf18(fn, ctx, out);
        return;
    }
    if ((vendor == VENDOR_AMD || vendor == VENDOR_HYGON) && max_ext >= 0x80000006u) {
        fn(ctx, 0x80000006u, 0, r);
        out->entries_4k = (r[1] >> 16) & 0xfff;
        out->ways_4k = amd_l2_ways(r[1] >> 28, out->entries_4k);
        if (out->entries_4k) {
            out->source = "cpuid_80000006h";
            out->evidence[0] = r[1];
        }
    }
}
