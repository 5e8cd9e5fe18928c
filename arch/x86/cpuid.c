#include "asm/cpuid.h"
#include "asm/tlb_info.h"
#include "asm/cpu.h"

#define BIT(v, n) (((v) >> (n)) & 1u)

void cpuid_live(void *ctx, uint32_t leaf, uint32_t subleaf, uint32_t regs[4])
{
    (void)ctx;
    cpuid_raw(leaf, subleaf, regs);
}

static void copy_regs_as_string(char *dst, const uint32_t *words, int count)
{
    int i, b;
    for (i = 0; i < count; i++)
        for (b = 0; b < 4; b++)
            dst[i * 4 + b] = (char)(words[i] >> (8 * b));
    dst[count * 4] = 0;
}

/* Brand strings are padded with leading and trailing spaces on many parts. */
static void trim_spaces(char *s)
{
    char *start = s, *end;
    while (*start == ' ')
        start++;
    end = start;
    while (*end)
        end++;
    while (end > start && end[-1] == ' ')
        end--;
    *end = 0;
    if (start != s) {
        char *d = s;
        while ((*d++ = *start++))
            ;
    }
}

static bool vendor_is(const char *v, const char *want)
{
    int i;
    for (i = 0; i < 12; i++)
        if (v[i] != want[i])
            return false;
    return true;
}

void cpuid_decode(cpuid_fn fn, void *ctx, struct cpu_features *f)
{
    uint32_t r[4], words[12];
    struct cpuid_evidence *ev = &f->evidence;
    uint32_t base_family, base_model, i;
    char *p;

    for (p = (char *)f; p < (char *)(f + 1); p++)
        *p = 0;

    fn(ctx, 0, 0, r);
    f->max_basic_leaf = r[0];
    words[0] = r[1];
    words[1] = r[3];
    words[2] = r[2];
    copy_regs_as_string(f->vendor, words, 3);
    if (vendor_is(f->vendor, "GenuineIntel"))
        f->vendor_id = VENDOR_INTEL;
    else if (vendor_is(f->vendor, "AuthenticAMD"))
        f->vendor_id = VENDOR_AMD;
    else if (vendor_is(f->vendor, "HygonGenuine"))
        f->vendor_id = VENDOR_HYGON;

    if (f->max_basic_leaf >= 1) {
        fn(ctx, 1, 0, r);
        ev->leaf1_eax = r[0];
        ev->leaf1_ebx = r[1];
        ev->leaf1_ecx = r[2];
        ev->leaf1_edx = r[3];
    }
    f->signature = ev->leaf1_eax;
    f->stepping = ev->leaf1_eax & 0xf;
    base_model = (ev->leaf1_eax >> 4) & 0xf;
    base_family = (ev->leaf1_eax >> 8) & 0xf;
    f->family = base_family == 0xf ? base_family + ((ev->leaf1_eax >> 20) & 0xff) : base_family;
    f->model = (base_family == 0x6 || base_family == 0xf)
                   ? (((ev->leaf1_eax >> 16) & 0xf) << 4) | base_model
                   : base_model;
    f->initial_apic_id8 = ev->leaf1_ebx >> 24;
    f->pge = BIT(ev->leaf1_edx, 13);
    f->apic = BIT(ev->leaf1_edx, 9);
    f->pcid = BIT(ev->leaf1_ecx, 17);
    f->x2apic = BIT(ev->leaf1_ecx, 21);
    f->tsc_deadline = BIT(ev->leaf1_ecx, 24);
    f->hypervisor = BIT(ev->leaf1_ecx, 31);

    f->monitor = BIT(ev->leaf1_ecx, 3);
    if (f->max_basic_leaf >= 5) {
        fn(ctx, 5, 0, r);
        ev->leaf5_eax = r[0];
        ev->leaf5_ebx = r[1];
        ev->leaf5_ecx = r[2];
        ev->leaf5_edx = r[3];
    }
    if (f->max_basic_leaf >= 6) {
        fn(ctx, 6, 0, r);
        ev->leaf6_eax = r[0];
        ev->leaf6_ecx = r[2];
    }
    f->aperfmperf = BIT(ev->leaf6_ecx, 0);

    if (f->max_basic_leaf >= 7) {
        fn(ctx, 7, 0, r);
        ev->leaf7_ebx = r[1];
        ev->leaf7_ecx = r[2];
        ev->leaf7_edx = r[3];
    }
    f->invpcid = BIT(ev->leaf7_ebx, 10);
    f->la57 = BIT(ev->leaf7_ecx, 16);
    f->hybrid = BIT(ev->leaf7_edx, 15);

    if (f->max_basic_leaf >= 0xb) {
        fn(ctx, 0xb, 0, r);
        /* EBX = 0 means the leaf is not implemented (SDM: leaf 0BH). */
        if (r[1] != 0) {
            f->has_x2apic_id_leaf = true;
            f->x2apic_id = r[3];
        }
    }
    if (f->max_basic_leaf >= 0x15) {
        fn(ctx, 0x15, 0, r);
        ev->leaf15_eax = r[0];
        ev->leaf15_ebx = r[1];
        ev->leaf15_ecx = r[2];
    }
    if (f->max_basic_leaf >= 0x16) {
        fn(ctx, 0x16, 0, r);
        ev->leaf16_eax = r[0];
    }

    fn(ctx, 0x80000000u, 0, r);
    f->max_ext_leaf = (r[0] & 0xffff0000u) == 0x80000000u ? r[0] : 0;
    if (f->max_ext_leaf >= 0x80000001u) {
        fn(ctx, 0x80000001u, 0, r);
        ev->ext1_ecx = r[2];
        ev->ext1_edx = r[3];
    }
    f->pdpe1gb = BIT(ev->ext1_edx, 26);
    f->rdtscp = BIT(ev->ext1_edx, 27);
    f->tce = BIT(ev->ext1_ecx, 17);
    if (f->max_ext_leaf >= 0x80000004u) {
        for (i = 0; i < 3; i++) {
            fn(ctx, 0x80000002u + i, 0, r);
            words[i * 4 + 0] = r[0];
            words[i * 4 + 1] = r[1];
            words[i * 4 + 2] = r[2];
            words[i * 4 + 3] = r[3];
        }
        copy_regs_as_string(f->brand, words, 12);
        trim_spaces(f->brand);
    }
    if (f->max_ext_leaf >= 0x80000007u) {
        fn(ctx, 0x80000007u, 0, r);
        ev->ext7_edx = r[3];
    }
    f->invariant_tsc = BIT(ev->ext7_edx, 8);
    f->phys_addr_bits = 36;
    f->virt_addr_bits = 48;
    if (f->max_ext_leaf >= 0x80000008u) {
        fn(ctx, 0x80000008u, 0, r);
        ev->ext8_eax = r[0];
        ev->ext8_ebx = r[1];
        ev->ext8_edx = r[3];
        if (r[0] & 0xff) {
            f->phys_addr_bits = r[0] & 0xff;
            f->virt_addr_bits = (r[0] >> 8) & 0xff;
        }
    }
    /* Intel leaves 80000008:EBX bit 3 zero (reserved), so this is AMD-only in practice. */
    f->invlpgb = BIT(ev->ext8_ebx, 3);
    f->invlpgb_max_pages = f->invlpgb ? (ev->ext8_edx & 0xffff) + 1 : 0;
    if (f->max_ext_leaf >= 0x80000021u) {
        fn(ctx, 0x80000021u, 0, r);
        ev->ext21_eax = r[0];
    }
    f->lfence_always_serializing = BIT(ev->ext21_eax, 2);

    if (f->hypervisor) {
        fn(ctx, 0x40000000u, 0, r);
        words[0] = r[1];
        words[1] = r[2];
        words[2] = r[3];
        copy_regs_as_string(f->hypervisor_vendor, words, 3);
    }
    cpuid_decode_l2_tlb(fn, ctx, f->vendor_id, f->max_basic_leaf, f->max_ext_leaf, &f->l2_tlb);
}

const char *cpu_vendor_short(enum cpu_vendor v)
{
    switch (v) {
    case VENDOR_INTEL:
        return "intel";
    case VENDOR_AMD:
        return "amd";
    case VENDOR_HYGON:
        return "hygon";
    default:
        return "other";
    }
}

bool tsc_close_rdtscp;

void tsc_use_rdtscp(bool available) { tsc_close_rdtscp = available; }

const char *tsc_sequence(void)
{
    return tsc_close_rdtscp ? "lfence;rdtsc;lfence..rdtscp;lfence"
                            : "lfence;rdtsc;lfence..lfence;rdtsc;lfence";
}
