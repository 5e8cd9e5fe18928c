/*
 * The sections of an aarch64 report (reports/SCHEMA.md "aarch64 reports", contract A of
 * issue 27): run.config, firmware, cpu, topology, method, and what an aarch64 experiment
 * must say beyond the x86 checks. As strict as the x86 sections where a rule applies:
 * dense CPU indices, exactly one BSP, cpus_ok counted, stale reads a FAILURE.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/mutant.h"
#include "reports/tool/model/jget.h"
#include "reports/tool/model/vocab.h"
#include "reports/tool/validate/validate_sections.h"

const char *const vocab_architectures[] = { "x86_64", "aarch64", NULL };

/* The experiments an aarch64 run has (core/exp/arm64/); the first two, flush_ceiling and
 * pti_double_invalidation are x86's too (the last two answer x86's question with TLBIs);
 * shootdown_lazy and invlpgb_range are x86's questions, SKIP here with the reason (older
 * aarch64 reports have no invlpgb_range). */
const char *const vocab_arm64_experiments[] = { "ipi_roundtrip",  "ipi_broadcast",
                                                "stale_detector_control",
                                                "tlbi_broadcast_vs_ipi", "tlbi_range",
                                                "tlbi_concurrent", "flush_ceiling",
                                                "pti_double_invalidation",
                                                "shootdown_lazy", "invlpgb_range", NULL };

static const char *const arm_cpu_states[] = { "ok", "absent", "hung", "faulted", "disabled",
                                              NULL };
static const char *const arm_bring_up[] = { "bsp", "psci", NULL };
static const char *const psci_conduits[] = { "hvc", "smc", NULL };
static const char *const tlbi_els[] = { "el1", "el2", NULL };
/* method.ipi, index i: GIC version i + 2 */
static const char *const gic_ipis[] = { "gicv2_sgi", "gicv3_sgi", NULL };
static const char *const hypervisor_sources[] = { "smbios", "acpi_oem_id", NULL };
/* method.target_wait: the target waits in WFI and takes each SGI through its IRQ vector;
 * poll_iar (reports before that): it polled the GIC's acknowledge register, IRQs masked */
static const char *const target_waits[] = { "wfi_irq", "poll_iar", NULL };

/* obj[key] must be exactly `want` (a fixed word of contract A). */
static void vc_fixed(struct vctx *c, const json_t *obj, const char *key, const char *want)
{
    const char *got = vc_string(c, obj, key, 0);
    if (got && strcmp(got, want) != 0)
        vc_error(c, key, "\"%.40s\", but an aarch64 report has \"%s\"", got, want);
}

/* obj[key], where present and not null, must be exactly `want` */
static void vc_fixed_optional(struct vctx *c, const json_t *obj, const char *key, const char *want)
{
    const json_t *v = json_object_get(obj, key);
    if (v && !json_is_null(v))
        vc_fixed(c, obj, key, want);
}

void validate_arm64_firmware(struct vctx *c, const json_t *root)
{
    size_t mark, m, m2;
    const json_t *fw = vc_enter(c, root, "firmware", 0, &mark), *o, *sys;
    if (!fw)
        return;
    if ((o = vc_enter(c, fw, "uefi", 0, &m))) {
        vc_string(c, o, "vendor", 0);
        vc_string(c, o, "revision", 0);
        vc_leave(c, m);
    }
    /* Version 3: x86's word, absent from earlier aarch64 reports */
    if (MUTANT(arm_secure_boot_unchecked))
        vc_string(c, fw, "secure_boot", VF_OPTIONAL);
    else
        vc_word(c, fw, "secure_boot", vocab_secure_boot, VF_OPTIONAL);
    if ((o = vc_enter(c, fw, "acpi", 0, &m))) {
        vc_string(c, o, "oem_id", 0);
        vc_bool(c, o, "madt", 0, NULL);
        vc_hex(c, o, "fadt_arm_boot_flags", 0);
        vc_leave(c, m);
    }
    if ((o = vc_enter(c, fw, "smbios", VF_NULLABLE, &m))) {
        if ((sys = vc_enter(c, o, "system", 0, &m2))) {
            vc_string(c, sys, "manufacturer", VF_NULLABLE);
            vc_string(c, sys, "product", VF_NULLABLE);
            vc_leave(c, m2);
        }
        vc_leave(c, m);
    }
    vc_leave(c, mark);
}

/* cpu.platform (optional): what the app ran on; an emulator is the one cpu.hypervisor names */
static void validate_arm64_platform(struct vctx *c, const json_t *cpu)
{
    static const char *const kinds[] = { "bare_metal", "virtualised", "emulated", NULL };
    const json_t *p = json_object_get(cpu, "platform");
    size_t m;
    int kind;
    if (!p)
        return;
    m = jpath_push_key(&c->path, "platform");
    if (!json_is_object(p)) {
        vc_error(c, "platform", "must be an object");
    } else {
        kind = vc_word(c, p, "kind", kinds, 0);
        vc_string(c, p, "hypervisor", VF_NULLABLE);
        vc_string(c, p, "evidence", 0);
        if (kind >= 0 && (kind == 2) != c->hypervisor)
            vc_error(c, "kind", "\"%s\", but cpu.hypervisor %s: an emulator is the one it names", kinds[kind],
                     c->hypervisor ? "names one" : "is null");
        if (kind == 0 && !json_is_null(json_object_get(p, "hypervisor")))
            vc_error(c, "hypervisor", "must be null on bare_metal");
    }
    jpath_pop(&c->path, m);
}

/*
 * cpu.features decoded from a register of cpu.id_regs (arch/arm64/cpu.c arm64_cpu_decode):
 * the 4-bit field at [shift+3:shift]; a boolean is the field >= min, a number (min 0) the
 * field itself. Each member is checked where the report has it and the register.
 */
static const struct decoded_feature {
    const char *key, *reg;
    unsigned shift, min;
} decoded_features[] = {
    { "tlbi_os", "ID_AA64ISAR0_EL1", 56, 1 }, { "tlbi_range", "ID_AA64ISAR0_EL1", 56, 2 },
    { "cnp", "ID_AA64MMFR2_EL1", 0, 1 },      { "ttl", "ID_AA64MMFR2_EL1", 48, 1 },
    { "bbm", "ID_AA64MMFR2_EL1", 52, 0 },     { "e0pd", "ID_AA64MMFR2_EL1", 60, 1 },
    { "ntlbpa", "ID_AA64MMFR1_EL1", 48, 1 },  { "vhe", "ID_AA64MMFR1_EL1", 8, 1 },
};

/* features[f->key] against the register's field, when both are there */
static void check_decoded(struct vctx *c, const json_t *regs, const json_t *features,
                          const struct decoded_feature *f)
{
    const char *hex = json_string_value(json_object_get(regs, f->reg));
    const json_t *v = json_object_get(features, f->key);
    unsigned field;
    if (!hex || !v)
        return;
    field = (unsigned)((strtoull(hex, NULL, 16) >> f->shift) & 0xf);
    if (f->min == 0 && json_is_integer(v) && json_integer_value(v) != (json_int_t)field)
        vc_error(c, f->key, "%lld, but %s [%u:%u] is %u", (long long)json_integer_value(v), f->reg,
                 f->shift + 3, f->shift, field);
    else if (f->min > 0 && json_is_boolean(v) && json_is_true(v) != (field >= f->min))
        vc_error(c, f->key, "%s, but %s [%u:%u] is %u", json_is_true(v) ? "true" : "false", f->reg,
                 f->shift + 3, f->shift, field);
}

void validate_arm64_cpu(struct vctx *c, const json_t *root)
{
    /* MMFR1: schema 3 addition, the evidence of features.ntlbpa and vhe */
    static const char *const id_regs[] = { "ID_AA64ISAR0_EL1", "ID_AA64MMFR0_EL1",
                                           "ID_AA64MMFR2_EL1", NULL };
    size_t mark, m, i;
    const json_t *o, *regs = NULL, *cpu = vc_enter(c, root, "cpu", 0, &mark);
    const char *hyp;
    if (!cpu)
        return;
    vc_hex(c, cpu, "midr", 0);
    vc_hex(c, cpu, "implementer", 0);
    vc_string(c, cpu, "implementer_name", VF_NULLABLE);
    vc_hex(c, cpu, "part", 0);
    vc_int(c, cpu, "variant", 0, 15, 0, NULL);
    vc_int(c, cpu, "revision", 0, 15, 0, NULL);
    if ((regs = vc_enter(c, cpu, "id_regs", 0, &m))) {
        for (i = 0; id_regs[i]; i++)
            vc_hex(c, regs, id_regs[i], 0);
        vc_hex(c, regs, "ID_AA64MMFR1_EL1", VF_OPTIONAL);
        vc_leave(c, m);
    }
    if ((o = vc_enter(c, cpu, "features", 0, &m))) {
        vc_bool(c, o, "tlbi_os", 0, NULL);
        vc_bool(c, o, "tlbi_range", 0, NULL);
        /* schema 3 additions: FEAT_E0PD (Linux then runs without KPTI), and the fields of
         * MMFR2 and MMFR1 a TLB's behaviour depends on (reported, never decided on) */
        c->e0pd_known = vc_bool(c, o, "e0pd", VF_OPTIONAL, &c->e0pd);
        vc_bool(c, o, "cnp", VF_OPTIONAL, NULL);
        vc_bool(c, o, "ttl", VF_OPTIONAL, NULL);
        vc_int(c, o, "bbm", 0, 15, VF_OPTIONAL, NULL);
        vc_bool(c, o, "ntlbpa", VF_OPTIONAL, NULL);
        vc_bool(c, o, "vhe", VF_OPTIONAL, NULL);
        for (i = 0; regs && i < sizeof(decoded_features) / sizeof(decoded_features[0]); i++)
            check_decoded(c, regs, o, &decoded_features[i]);
        vc_leave(c, m);
    }
    vc_int(c, cpu, "exception_level", 1, 2, 0, NULL);
    hyp = vc_string(c, cpu, "hypervisor", VF_NULLABLE);
    c->hypervisor = hyp != NULL;
    /* no CPUID bit: the firmware's tables named QEMU, and the report says which */
    if (hyp)
        vc_word(c, cpu, "hypervisor_source", hypervisor_sources, 0);
    else if (!json_is_null(json_object_get(cpu, "hypervisor_source")))
        vc_error(c, "hypervisor_source", "must be null when hypervisor is null");
    validate_arm64_platform(c, cpu);
    vc_int(c, cpu, "counter_hz", 1, LLONG_MAX, 0, NULL);
    vc_fixed(c, cpu, "counter_source", "cntfrq_el0");
    vc_leave(c, mark);
}

static void validate_arm64_fault(struct vctx *c, const json_t *entry)
{
    size_t mark;
    const json_t *f = vc_enter(c, entry, "fault", VF_OPTIONAL, &mark);
    if (!f)
        return;
    vc_hex(c, f, "esr", 0);
    vc_hex(c, f, "far", 0);
    vc_hex(c, f, "elr", 0);
    vc_int(c, f, "vector", 0, 15, 0, NULL); /* VBAR's 16 entries */
    vc_leave(c, mark);
}

/* One CPU entry; returns its state (index in arm_cpu_states) or -1. */
static int validate_arm64_cpu_entry(struct vctx *c, const json_t *e, size_t pos, bool *bsp)
{
    long long index;
    int state, bring_up;
    if (vc_int(c, e, "index", 0, LLONG_MAX, 0, &index) && index != (long long)pos)
        vc_error(c, "index", "%lld at position %zu: CPU indices are dense, cpus[i].index == i",
                 index, pos);
    vc_hex(c, e, "mpidr", 0);
    vc_int(c, e, "uid", 0, 0xffffffffll, 0, NULL);
    vc_bool(c, e, "bsp", 0, bsp);
    if (*bsp && pos != 0)
        vc_error(c, "bsp", "true at position %zu: the BSP is cpus[0]", pos);
    state = vc_word(c, e, "state", arm_cpu_states, 0);
    vc_string(c, e, "note", state > 0 ? 0 : VF_OPTIONAL);
    bring_up = vc_word(c, e, "bring_up", arm_bring_up, VF_NULLABLE);
    if (*bsp && bring_up == 1)
        vc_error(c, "bring_up", "the BSP is brought up as \"bsp\"");
    if (!*bsp && bring_up == 0)
        vc_error(c, "bring_up", "\"bsp\" on a CPU that is not the BSP");
    if (state == 0 && !*bsp && bring_up != 1)
        vc_error(c, "bring_up", "an \"ok\" secondary CPU came up through PSCI CPU_ON (\"psci\")");
    validate_arm64_fault(c, e);
    return state;
}

/* topology.class_source, mpidr_mt and classes (written from this release on, so optional):
 * where ipi_roundtrip's classes come from, and the ordered pairs of distinct CPUs in each
 * (at most n x (n - 1): two CPUs of one MPIDR, a firmware's mistake, are in none) */
static void validate_arm64_classes(struct vctx *c, const json_t *topo, size_t ncpus)
{
    static const char *const sources[] = { "mpidr", "pptt", "mpidr+srat", "pptt+srat", NULL };
    const json_t *classes, *v;
    const char *key;
    long long sum = 0, n;
    size_t mark;
    vc_word(c, topo, "class_source", sources, VF_OPTIONAL);
    vc_bool(c, topo, "mpidr_mt", VF_OPTIONAL, NULL);
    if (!(classes = vc_enter(c, topo, "classes", VF_OPTIONAL, &mark)))
        return;
    json_object_foreach((json_t *)classes, key, v) {
        if (vocab_index(vocab_arm64_topo_classes, key) <= 0)
            vc_error(c, key, "not an aarch64 topology class (smt_sibling, same_cluster, same_package, "
                     "same_package_other_node, cross_package)");
        else if (vc_int(c, classes, key, 0, LLONG_MAX, 0, &n))
            sum += n;
    }
    if (ncpus && sum > (long long)(ncpus * (ncpus - 1)))
        vc_error(c, NULL, "%lld pairs, but %zu CPUs have %zu ordered pairs", sum, ncpus, ncpus * (ncpus - 1));
    vc_leave(c, mark);
}

void validate_arm64_topology(struct vctx *c, const json_t *root, struct vfacts *f)
{
    size_t mark, m, i, n, ok = 0, bsps = 0;
    long long cpu_count = -1, cpus_ok = -1;
    const json_t *cpus, *topo = vc_enter(c, root, "topology", 0, &mark);
    if (!topo)
        return;
    vc_int(c, topo, "cpu_count", 0, LLONG_MAX, 0, &cpu_count);
    vc_int(c, topo, "cpus_ok", 0, LLONG_MAX, 0, &cpus_ok);
    vc_fixed(c, topo, "source", "madt_gicc");
    cpus = vc_member(c, topo, "cpus", VT_ARRAY, 0);
    validate_arm64_classes(c, topo, json_array_size(cpus));
    if (!cpus) {
        vc_leave(c, mark);
        return;
    }
    n = json_array_size(cpus);
    c->cpu_count = (long long)n;
    if (cpu_count >= 0 && cpu_count != (long long)n)
        vc_error(c, "cpu_count", "%lld, but cpus has %zu entries", cpu_count, n);
    m = jpath_push_key(&c->path, "cpus");
    for (i = 0; i < n; i++) {
        const json_t *e = json_array_get(cpus, i);
        size_t m2 = jpath_push_index(&c->path, i);
        bool bsp = false;
        int state;
        if (!json_is_object(e)) {
            vc_error(c, NULL, "expected an object, found %s", jget_type_word(e));
        } else {
            state = validate_arm64_cpu_entry(c, e, i, &bsp);
            ok += state == 0;
            bsps += bsp;
            /* absent, hung, faulted: the CPU dropped out of the run (an ERROR) */
            if (state >= 1 && state <= 3 && f->troubled_cpu < 0)
                f->troubled_cpu = (long long)i;
        }
        jpath_pop(&c->path, m2);
    }
    if (n && bsps != 1)
        vc_error(c, NULL, "%zu CPUs are marked bsp, expected exactly one", bsps);
    jpath_pop(&c->path, m);
    if (cpus_ok >= 0 && cpus_ok != (long long)ok)
        vc_error(c, "cpus_ok", "%lld, but %zu entries of cpus have state \"ok\"", cpus_ok, ok);
    vc_leave(c, mark);
}

/* method.linux_tlbi (optional): "plain", or ttl, range, kpti, repeat joined by '+' in that order,
 * with linux_repeat_tlbi saying why, and `repeat` only where it names the list */
static void linux_tlbi_words(struct vctx *c, const json_t *m)
{
    static const char *const words[] = { "ttl", "range", "kpti", "repeat" };
    const char *v = jget_string(m, "linux_tlbi"), *why = jget_string(m, "linux_repeat_tlbi");
    char want[40] = "";
    size_t i, len = 0;
    if (!json_object_get(m, "linux_tlbi"))
        return;
    if (!v || !why) {
        vc_error(c, "linux_tlbi", "must be a string, with linux_repeat_tlbi a string beside it");
        return;
    }
    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        const char *at = strstr(v, words[i]);
        if (at && len + strlen(words[i]) + 2 < sizeof(want))
            len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s", len ? "+" : "", words[i]);
    }
    if (strcmp(v, len ? want : "plain") != 0)
        vc_error(c, "linux_tlbi", "\"%.40s\": not \"plain\" nor ttl, range, kpti, repeat joined by '+' in "
                 "that order", v);
    if ((strstr(v, "repeat") != NULL) != (strstr(why, " not in ") == NULL))
        vc_error(c, "linux_repeat_tlbi", "\"%.80s\" disagrees with linux_tlbi \"%.40s\" (repeat)", why, v);
}

/*
 * Version 3 additions to method, all optional: tick_ns (10^9 / counter_hz, to the ps), and
 * what the app set before measuring: cntvoff_el2_found (hex at EL2, where the app clears
 * CNTVOFF_EL2; null at EL1), ttbr0_cnp, ttbr1 and tcr_epd1 ("firmware" and a boolean at
 * EL1, null at EL2).
 */
static void validate_arm64_counter_tables(struct vctx *c, const json_t *m, long long el, long long hz)
{
    static const char *const cnp_words[] = { "cleared", "clear", NULL };
    const json_t *tick = vc_member(c, m, "tick_ns", VT_NUMBER, VF_OPTIONAL);
    const json_t *cntvoff = json_object_get(m, "cntvoff_el2_found");
    const json_t *ttbr1 = json_object_get(m, "ttbr1"), *epd1 = json_object_get(m, "tcr_epd1");
    if (tick && hz > 0 && fabs(json_number_value(tick) - 1e9 / (double)hz) > 0.0005 + 1e-9)
        vc_error(c, "tick_ns", "%.3f, but counter_hz %lld makes a tick %.3f ns", json_number_value(tick), hz,
                 1e9 / (double)hz);
    vc_hex(c, m, "cntvoff_el2_found", VF_OPTIONAL | VF_NULLABLE);
    vc_word(c, m, "ttbr0_cnp", cnp_words, VF_OPTIONAL);
    vc_fixed_optional(c, m, "ttbr1", "firmware");
    vc_bool(c, m, "tcr_epd1", VF_OPTIONAL | VF_NULLABLE, NULL);
    if (el == 1 && cntvoff && !json_is_null(cntvoff))
        vc_error(c, "cntvoff_el2_found", "must be null at EL1 (CNTVOFF_EL2 is EL2's)");
    if (el == 2 && cntvoff && json_is_null(cntvoff))
        vc_error(c, "cntvoff_el2_found", "null, but at EL2 the app clears CNTVOFF_EL2 and says what it found");
    if (el >= 1 && ttbr1 && json_is_null(ttbr1) != (el == 2))
        vc_error(c, "ttbr1", "must be \"firmware\" at EL1 and null at EL2");
    if (el >= 1 && epd1 && json_is_null(epd1) != (el == 2))
        vc_error(c, "tcr_epd1", "must be a boolean at EL1 and null at EL2");
}

void validate_arm64_method(struct vctx *c, const json_t *root)
{
    size_t mark;
    long long el = -1, hz = -1, gic = -1;
    const json_t *m = vc_enter(c, root, "method", 0, &mark);
    int tlbi_el, ipi;
    if (!m)
        return;
    ipi = vc_word(c, m, "ipi", gic_ipis, 0);
    if (vc_int(c, m, "gic_version", 2, 3, 0, &gic) && ipi >= 0 && ipi + 2 != gic)
        vc_error(c, "ipi", "\"%s\", but gic_version is %lld", gic_ipis[ipi], gic);
    /* a GICv2 names at most 8 CPU interfaces (GICD_ITARGETSR is 8 bits) */
    if (gic == 2 && jget_number(jget_object(root, "topology"), "cpus_ok", 0) > 8)
        vc_error(c, "gic_version", "2, but %.0f CPUs are ok: a GICv2 reaches at most 8",
                 jget_number(jget_object(root, "topology"), "cpus_ok", 0));
    validate_arm64_gic(c, m, gic); /* Version 3: sgis, gic_security */
    vc_word(c, m, "psci_conduit", psci_conduits, 0);
    vc_string(c, m, "psci_version", 0);
    vc_int(c, m, "exception_level", 1, 2, 0, &el);
    tlbi_el = vc_word(c, m, "tlbi_el", tlbi_els, 0);
    if (el >= 1 && tlbi_el >= 0 && tlbi_el + 1 != el)
        vc_error(c, "tlbi_el", "\"%s\", but the app runs at EL%lld (the TLBI forms of its own "
                 "level)", tlbi_els[tlbi_el], el);
    vc_word(c, m, "target_wait", target_waits, 0);
    linux_tlbi_words(c, m);
    validate_arm64_stage2(c, m, root, el); /* Version 3: stage2_kvm's block */
    vc_int(c, m, "page_size", 4096, 4096, 0, NULL);
    vc_int(c, m, "test_pages", 1, LLONG_MAX, 0, NULL);
    if (vc_int(c, m, "counter_hz", 1, LLONG_MAX, 0, &hz) &&
        jget_number(jget_object(root, "cpu"), "counter_hz", (double)hz) != (double)hz)
        vc_error(c, "counter_hz", "%lld, but cpu.counter_hz differs", hz);
    validate_arm64_counter_tables(c, m, el, hz);
    validate_bootstrap(c, m); /* the p50 intervals' seed, as on x86 */
    validate_arm64_handback(c, m, root);
    vc_leave(c, mark);
}

/* the methods of the experiments that compare them (params.method), and ipi_broadcast's
 * SGI modes (params.mode: not x86's ipi_broadcast modes, the GIC addresses CPUs otherwise) */
static const char *const broadcast_methods[] = { "broadcast", "ipi_local", "broadcast_linux",
                                                       "broadcast_linux_busy", "batch_linux",
                                                       "broadcast_os", "stage2_kvm", NULL };
static const char *const range_methods[] = { "per_page", "range", "asid", NULL };
static const char *const sgi_modes[] = { "unicast", "target_list", "all_but_self", NULL };
/* flush_ceiling: the single-page path (per_page, range) or the full flush (full_asid at EL1,
 * full_all at EL2) */
static const char *const ceiling_modes[] = { "per_page", "range", "full_asid", "full_all", NULL };
/* pti_double_invalidation: one TLBI a page (no_kpti) or the kernel's and the user's ASID (kpti);
 * its summary's `linux` the one Linux takes on the CPU (kpti without FEAT_E0PD) */
static const char *const kpti_variants[] = { "no_kpti", "kpti", NULL };
/* results[j].params[key] of an experiment with methods or modes: one of its words */
static void validate_arm64_methods(struct vctx *c, const json_t *e, const char *key,
                                   const char *const words[])
{
    const json_t *results = json_object_get(e, "results");
    size_t m = jpath_push_key(&c->path, "results"), j;
    for (j = 0; j < json_array_size(results); j++) {
        const json_t *params = jget_object(vc_point(c, results, "results", j), "params");
        size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "params");
        if (params)
            vc_word(c, params, key, words, 0);
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}

/* ipi_roundtrip's values.irq_entries (optional; with target_wait wfi_irq): the IRQ
 * exceptions the target took, at least one per round trip (latency.n) when every
 * ping came through its vector */
static void validate_arm64_irq_entries(struct vctx *c, const json_t *e)
{
    const json_t *results = json_object_get(e, "results");
    size_t m = jpath_push_key(&c->path, "results"), j;
    for (j = 0; j < json_array_size(results); j++) {
        const json_t *r = vc_point(c, results, "results", j);
        const json_t *values = jget_object(r, "values");
        const json_t *lat = jget_object(jget_object(r, "metrics"), "latency");
        size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "values");
        /* written as every value is, with three decimals (200.000) */
        const json_t *irqs = values ? vc_member(c, values, "irq_entries", VT_NUMBER, VF_OPTIONAL) : NULL;
        if (irqs && lat && json_number_value(irqs) < jget_number(lat, "n", 0))
            vc_error(c, "irq_entries", "%.0f, but latency.n is %.0f: a round trip without an IRQ "
                     "entry on the target", json_number_value(irqs), jget_number(lat, "n", 0));
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}

/* ipi_roundtrip's pairs (a class on each, optional: the BSP alone initiated before) and its
 * summary per class: the BSP is never a target of a classed pair (it keeps the firmware's
 * vectors), an initiator is not its own target */
static void validate_arm64_pairs(struct vctx *c, const json_t *e)
{
    static const char *const sections[] = { "results", "summary" };
    size_t s, j;
    for (s = 0; s < 2; s++) {
        const json_t *points = json_object_get(e, sections[s]);
        size_t m = jpath_push_key(&c->path, sections[s]);
        for (j = 0; j < json_array_size(points); j++) {
            const json_t *pt = vc_point(c, points, sections[s], j);
            const json_t *params = jget_object(pt, "params"), *values = jget_object(pt, "values");
            size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "params");
            if (params && vc_word(c, params, "class", vocab_arm64_topo_classes, s ? 0 : VF_OPTIONAL) == 0)
                vc_error(c, "class", "\"self\": a pair is two CPUs");
            /* with a class (this release's pairs; the contract's prototype pinged the BSP too) */
            if (params && s == 0 && json_object_get(params, "class") && jget_int(params, "target", -1) == 0)
                vc_error(c, "target", "0: the BSP is never a target (it keeps the firmware's vectors)");
            if (params && s == 0 && jget_int(params, "target", -1) == jget_int(params, "initiator", -2))
                vc_error(c, "initiator", "the target itself: a pair is two CPUs");
            jpath_pop(&c->path, m3);
            m3 = jpath_push_key(&c->path, "values");
            if (values && s == 1) {
                vc_member(c, values, "pairs", VT_NUMBER, 0);
                vc_member(c, values, "samples_per_pair", VT_NUMBER, 0);
            }
            jpath_pop(&c->path, m3);
            jpath_pop(&c->path, m2);
        }
        jpath_pop(&c->path, m);
    }
}

/* flush_ceiling's points: the flush, the initiator's refill and the two together, each a metric */
static void validate_arm64_ceiling_metrics(struct vctx *c, const json_t *e)
{
    static const char *const names[] = { "latency", "initiator_refill", "with_refill" };
    const json_t *results = json_object_get(e, "results");
    size_t m = jpath_push_key(&c->path, "results"), j, k;
    for (j = 0; j < json_array_size(results); j++) {
        const json_t *metrics = jget_object(vc_point(c, results, "results", j), "metrics");
        size_t m2 = jpath_push_index(&c->path, j), m3 = jpath_push_key(&c->path, "metrics");
        for (k = 0; metrics && k < sizeof(names) / sizeof(names[0]); k++)
            vc_member(c, metrics, names[k], VT_OBJECT, 0);
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}

/* pti_double_invalidation's summary: per page count the second TLBI's cost (extra, ratio,
 * extra_per_page) and `linux`, which must agree with cpu.features.e0pd where the report has it */
static void validate_arm64_kpti_summary(struct vctx *c, const json_t *e)
{
    static const char *const values[] = { "extra", "ratio", "extra_per_page" };
    const json_t *summary = json_object_get(e, "summary");
    size_t m = jpath_push_key(&c->path, "summary"), j, k;
    for (j = 0; j < json_array_size(summary); j++) {
        const json_t *s = json_array_get(summary, j);
        const json_t *params = jget_object(s, "params"), *vals = jget_object(s, "values");
        size_t m2 = jpath_push_index(&c->path, j), m3;
        int linux_path;
        m3 = jpath_push_key(&c->path, "params");
        linux_path = params ? vc_word(c, params, "linux", kpti_variants, 0) : -1;
        if (linux_path >= 0 && c->e0pd_known && (linux_path == 0) != c->e0pd)
            vc_error(c, "linux", "\"%s\", but cpu.features.e0pd is %s (Linux runs KPTI exactly where "
                     "FEAT_E0PD is absent)", kpti_variants[linux_path], c->e0pd ? "true" : "false");
        jpath_pop(&c->path, m3);
        m3 = jpath_push_key(&c->path, "values");
        for (k = 0; vals && k < sizeof(values) / sizeof(values[0]); k++)
            vc_member(c, vals, values[k], VT_NUMBER, 0);
        jpath_pop(&c->path, m3);
        jpath_pop(&c->path, m2);
    }
    jpath_pop(&c->path, m);
}

/* Called inside experiments[i]: what an aarch64 experiment must say beyond x86's rules. */
void validate_arm64_experiment(struct vctx *c, const json_t *e, int status)
{
    const char *id = jget_string(e, "id");
    const json_t *v = jget_object(e, "verification");
    double stale = jget_number(v, "stale_reads", 0);
    bool control = id && strcmp(id, "stale_detector_control") == 0;
    if (id && vocab_index(vocab_arm64_experiments, id) < 0)
        vc_error(c, "id", "\"%.60s\" is not an aarch64 experiment", id);
    /* the verifier read a stale translation after the protocol said done: the finding */
    if (!control && stale > 0 && status >= 0 && strcmp(vocab_results[status], "FAILURE") != 0)
        vc_error(c, "status", "%s, but verification.stale_reads is %.0f (a stale read is a "
                 "FAILURE)", vocab_results[status], stale);
    if (c->hypervisor && json_is_false(json_object_get(e, "emulated")))
        vc_error(c, "emulated", "false, but cpu.hypervisor names one: a report with a "
                 "hypervisor has no hardware timings");
    if (id && strcmp(id, "tlbi_broadcast_vs_ipi") == 0) {
        validate_arm64_methods(c, e, "method", broadcast_methods);
        validate_arm64_lower_bound(c, e);
    }
    if (id && strcmp(id, "tlbi_range") == 0)
        validate_arm64_methods(c, e, "method", range_methods);
    if (id && strcmp(id, "ipi_broadcast") == 0)
        validate_arm64_methods(c, e, "mode", sgi_modes);
    if (id && strcmp(id, "ipi_roundtrip") == 0) {
        validate_arm64_irq_entries(c, e);
        validate_arm64_pairs(c, e);
    }
    if (id && strcmp(id, "flush_ceiling") == 0) {
        validate_arm64_methods(c, e, "mode", ceiling_modes);
        validate_arm64_ceiling_metrics(c, e);
    }
    if (id && strcmp(id, "pti_double_invalidation") == 0) {
        validate_arm64_methods(c, e, "variant", kpti_variants);
        validate_arm64_kpti_summary(c, e);
    }
    if (id && (strcmp(id, "tlbi_broadcast_vs_ipi") == 0 || strcmp(id, "tlbi_range") == 0 ||
               strcmp(id, "pti_double_invalidation") == 0 || strcmp(id, "flush_ceiling") == 0))
        validate_arm64_reps(c, e);
    /* x86's questions with no aarch64 mechanism (core/exp/arm64/experiments.c) */
    if (id && (strcmp(id, "shootdown_lazy") == 0 || strcmp(id, "invlpgb_range") == 0) && status >= 0 &&
        strcmp(vocab_results[status], "SKIP") != 0)
        vc_error(c, "status", "%s, but %s does not apply on aarch64 (SKIP)", vocab_results[status], id);
}
