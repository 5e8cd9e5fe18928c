#include "arch/x86/cache_info.h"

/* Leaf 4 and 0x8000001D share a layout: the largest level's data or unified cache. */
static bool decode_deterministic(cpuid_fn fn, void *ctx, uint32_t leaf, const char *source,
                                 struct llc_info *out)
{
    uint32_t r[4], i;
    bool found = false;
    for (i = 0; i < 16; i++) {
        uint32_t type, level;
        uint64_t bytes;
        fn(ctx, leaf, i, r);
        type = r[0] & 0x1f;
        if (type == 0)
            break; /* no more caches */
        level = (r[0] >> 5) & 7;
        if ((type != 1 && type != 3) || level < out->level)
            continue;
        bytes = (uint64_t)((r[1] >> 22) + 1) * (((r[1] >> 12) & 0x3ff) + 1) *
                ((r[1] & 0xfff) + 1) * ((uint64_t)r[2] + 1);
        out->level = level;
        out->bytes = bytes;
        out->source = source;
        out->evidence[0] = r[0];
        out->evidence[1] = r[1];
        out->evidence[2] = r[2];
        found = true;
    }
    return found;
}

void cpuid_decode_llc(cpuid_fn fn, void *ctx, enum cpu_vendor vendor, uint32_t max_basic,
                      uint32_t max_ext, struct llc_info *out)
{
    uint32_t r[4];
    out->bytes = 0;
    out->level = 0;
    out->source = "none";
    out->evidence[0] = out->evidence[1] = out->evidence[2] = 0;
    if (vendor == VENDOR_AMD || vendor == VENDOR_HYGON) {
        if (max_ext >= 0x80000001u) {
            fn(ctx, 0x80000001u, 0, r);
            if (max_ext >= 0x8000001du && (r[2] & (1u << 22)) &&
                decode_deterministic(fn, ctx, 0x8000001du, "cpuid_8000001dh", out))
                return;
        }
        if (max_ext >= 0x80000006u) {
            fn(ctx, 0x80000006u, 0, r);
            if (r[3] >> 18) {
                out->bytes = (uint64_t)(r[3] >> 18) * 512 * 1024;
                out->level = 3;
                out->source = "cpuid_80000006h";
                out->evidence[0] = r[3];
            }
        }
        return;
    }
    if (max_basic >= 4)
        decode_deterministic(fn, ctx, 4, "cpuid_04h", out);
}
