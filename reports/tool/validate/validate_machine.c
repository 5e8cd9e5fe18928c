/* The machine's description: cpu, topology and method. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/model/jget.h"
#include "reports/tool/model/model.h"
#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/model/vocab.h"

static void validate_features(struct vctx *c, const json_t *cpu)
{
    static const char *const flags[] = { "x2apic", "x2apic_enabled_by_firmware", "pcid",
                                         "invpcid", "invlpgb", "la57", "invariant_tsc", "pge",
                                         "pdpe1gb", "hybrid", NULL };
    size_t mark, i;
    bool invlpgb = false, have_invlpgb;
    long long max_pages = 0;
    const json_t *fe = vc_enter(c, cpu, "features", 0, &mark);
    if (!fe)
        return;
    for (i = 0; flags[i]; i++)
        vc_bool(c, fe, flags[i], 0, NULL);
    have_invlpgb = vc_bool(c, fe, "invlpgb", 0, &invlpgb);
    /* CPUID 0x80000008 EDX[15:0] + 1 when INVLPGB exists, else 0 (arch/x86/include/asm/cpuid.h) */
    if (vc_int(c, fe, "invlpgb_max_pages", 0, 65536, 0, &max_pages) && have_invlpgb &&
        (invlpgb ? max_pages == 0 : max_pages != 0))
        vc_warn(c, "invlpgb_max_pages", "%lld does not fit invlpgb=%s (expected %s)", max_pages,
                invlpgb ? "true" : "false", invlpgb ? "1..65536" : "0");
    vc_leave(c, mark);
}

static void validate_cpuid(struct vctx *c, const json_t *cpu)
{
    static const char *const leaves[] = { "max_basic_leaf", "max_extended_leaf", "1.eax",
                                          "1.ecx", "1.edx", "7.0.ebx", "7.0.ecx", "7.0.edx",
                                          "80000007.edx", "80000008.ebx", "80000008.edx", NULL };
    size_t mark, i;
    const char *key;
    const json_t *v, *ids = vc_enter(c, cpu, "cpuid", 0, &mark);
    if (!ids)
        return;
    for (i = 0; leaves[i]; i++)
        vc_hex(c, ids, leaves[i], 0);
    /* later writers may record more leaves: they must be registers too */
    json_object_foreach((json_t *)ids, key, v) {
        if (vocab_index(leaves, key) < 0)
            vc_hex(c, ids, key, 0);
    }
    vc_leave(c, mark);
}

void validate_cpu(struct vctx *c, const json_t *root)
{
    size_t mark, m;
    long long hz = 0;
    const json_t *mc, *cpu = vc_enter(c, root, "cpu", 0, &mark);
    if (!cpu)
        return;
    vc_string(c, cpu, "vendor", 0);
    vc_string(c, cpu, "brand", VF_NULLABLE);
    vc_int(c, cpu, "family", 0, LLONG_MAX, 0, NULL);
    vc_int(c, cpu, "model", 0, LLONG_MAX, 0, NULL);
    vc_int(c, cpu, "stepping", 0, LLONG_MAX, 0, NULL);
    vc_hex(c, cpu, "signature", 0);
    if ((mc = vc_enter(c, cpu, "microcode", 0, &m))) {
        vc_hex(c, mc, "revision", VF_NULLABLE);
        vc_bool(c, mc, "uniform", 0, NULL);
        vc_leave(c, m);
    }
    validate_features(c, cpu);
    validate_cpuid(c, cpu);
    vc_string(c, cpu, "hypervisor", VF_NULLABLE);
    if (vc_int(c, cpu, "tsc_hz", 0, LLONG_MAX, 0, &hz) && hz == 0)
        vc_warn(c, "tsc_hz", "0: the TSC frequency is unknown, times can only be shown in ticks");
    else if (hz > 0 && (hz < TSC_HZ_PLAUSIBLE_MIN || hz > TSC_HZ_PLAUSIBLE_MAX))
        vc_warn(c, "tsc_hz", "%lld Hz is not a plausible TSC rate (100 MHz to 10 GHz): times in ns "
                "are wrong by the same factor; the ticks are as measured", hz);
    vc_word(c, cpu, "tsc_source", vocab_tsc_sources, 0);
    vc_int(c, cpu, "phys_addr_bits", 0, 64, 0, NULL);
    vc_leave(c, mark);
}

/* fault.registers: every member a 64-bit value as a hex string */
static void validate_fault_registers(struct vctx *c, const json_t *fault)
{
    size_t mark;
    const char *key;
    json_t *value;
    const json_t *regs = vc_enter(c, fault, "registers", 0, &mark);
    if (!regs)
        return;
    json_object_foreach((json_t *)regs, key, value)
        vc_hex(c, regs, key, 0);
    (void)value;
    vc_leave(c, mark);
}

static void validate_fault(struct vctx *c, const json_t *entry)
{
    size_t mark;
    const json_t *f = vc_enter(c, entry, "fault", VF_OPTIONAL, &mark);
    if (!f)
        return;
    vc_int(c, f, "vector", 0, 255, 0, NULL);
    vc_hex(c, f, "error_code", 0);
    vc_hex(c, f, "rip", 0);
    vc_hex(c, f, "cr2", 0);
    vc_string(c, f, "last_command", 0);
    validate_fault_registers(c, f);
    vc_leave(c, mark);
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return x < y ? -1 : x > y;
}

/* One CPU entry; returns its state (index in vocab_cpu_states) or -1. */
static int validate_cpu_entry(struct vctx *c, const json_t *e, size_t pos, long long *apic_id,
                              bool *bsp, int *bring_up)
{
    long long index;
    int state;
    vc_int(c, e, "apic_id", 0, 0xffffffffll, 0, apic_id);
    if (vc_int(c, e, "index", 0, LLONG_MAX, 0, &index) && index != (long long)pos)
        vc_error(c, "index", "%lld at position %zu: CPU indices are dense, cpus[i].index == i",
                 index, pos);
    vc_int(c, e, "package", 0, LLONG_MAX, 0, NULL);
    vc_int(c, e, "core", 0, LLONG_MAX, 0, NULL);
    vc_int(c, e, "thread", 0, LLONG_MAX, 0, NULL);
    vc_int(c, e, "numa_node", 0, LLONG_MAX, VF_NULLABLE, NULL);
    vc_int(c, e, "l3", 0, LLONG_MAX, VF_NULLABLE | VF_OPTIONAL, NULL); /* issue 21 */
    vc_bool(c, e, "bsp", 0, bsp);
    state = vc_word(c, e, "state", vocab_cpu_states, 0);
    vc_hex(c, e, "microcode", VF_NULLABLE);
    /* the writer explains every CPU that is not "ok" */
    vc_string(c, e, "note", state > 0 ? 0 : VF_OPTIONAL);
    /* issue 20: answers past a deadline kept under a hypervisor; absent when none */
    vc_int(c, e, "late_answers", 1, LLONG_MAX, VF_OPTIONAL, NULL);
    vc_int(c, e, "late_max_ms", 0, LLONG_MAX, VF_OPTIONAL, NULL);
    validate_fault(c, e);
    /* issue 25: how the CPU came up (vocab_bring_up); null when it never started */
    *bring_up = vc_word(c, e, "bring_up", vocab_bring_up, VF_NULLABLE | VF_OPTIONAL);
    if (*bsp && json_object_get(e, "bring_up") && *bring_up != 0)
        vc_error(c, "bring_up", "the BSP is brought up as \"bsp\"");
    if (!*bsp && *bring_up == 0)
        vc_error(c, "bring_up", "\"bsp\" on a CPU that is not the BSP");
    if (state == 0 && !*bsp && json_object_get(e, "bring_up") && *bring_up < 1)
        vc_error(c, "bring_up", "an \"ok\" AP came up through mp_services or init_sipi");
    return state;
}

/*
 * topology.init_sipi (issue 25): null unless the tool's own INIT-SIPI
 * bring-up ran; its `arrived` must be the CPUs whose bring_up says so.
 */
static void validate_init_sipi(struct vctx *c, const json_t *topo, size_t init_sipi_cpus)
{
    size_t mark;
    long long requested = -1, arrived = -1;
    const json_t *o = vc_enter(c, topo, "init_sipi", VF_NULLABLE | VF_OPTIONAL, &mark);
    static const char *const exits[] = { "shutdown", "reset", NULL };
    if (!o) {
        if (init_sipi_cpus)
            vc_error(c, "init_sipi", "null, but %zu CPUs came up through init_sipi", init_sipi_cpus);
        return;
    }
    vc_string(c, o, "reason", 0);
    vc_hex(c, o, "trampoline", VF_NULLABLE);
    vc_int(c, o, "requested", 0, LLONG_MAX, 0, &requested);
    vc_int(c, o, "arrived", 0, LLONG_MAX, 0, &arrived);
    vc_int(c, o, "reached_64bit", 0, LLONG_MAX, 0, NULL);
    vc_word(c, o, "exit", exits, 0);
    if (requested >= 0 && arrived > requested)
        vc_error(c, "arrived", "%lld of %lld requested", arrived, requested);
    if (arrived >= 0 && arrived != (long long)init_sipi_cpus)
        vc_error(c, "arrived", "%lld, but %zu CPUs have bring_up \"init_sipi\"", arrived,
                 init_sipi_cpus);
    vc_leave(c, mark);
}

void validate_topology(struct vctx *c, const json_t *root, struct vfacts *f)
{
    size_t mark, m, i, n, ok = 0, bsps = 0, init_sipi_cpus = 0;
    long long cpu_count = -1, cpus_ok = -1, *apic_ids;
    const json_t *cpus, *topo = vc_enter(c, root, "topology", 0, &mark);
    if (!topo)
        return;
    vc_int(c, topo, "cpu_count", 0, LLONG_MAX, 0, &cpu_count);
    vc_int(c, topo, "cpus_ok", 0, LLONG_MAX, 0, &cpus_ok);
    vc_bool(c, topo, "mp_services", 0, NULL);
    vc_string(c, topo, "mp_note", VF_NULLABLE);
    /* added while version 1 was current: absent from the earliest reports */
    vc_string(c, topo, "source", VF_NULLABLE | VF_OPTIONAL);
    vc_word(c, topo, "mp_mode", vocab_mp_modes, VF_OPTIONAL); /* issue 25 */
    cpus = vc_member(c, topo, "cpus", VT_ARRAY, 0);
    if (!cpus) {
        vc_leave(c, mark);
        return;
    }
    n = json_array_size(cpus);
    c->cpu_count = (long long)n;
    if (cpu_count >= 0 && cpu_count != (long long)n)
        vc_error(c, "cpu_count", "%lld, but cpus has %zu entries", cpu_count, n);
    apic_ids = calloc(n ? n : 1, sizeof(*apic_ids));
    m = jpath_push_key(&c->path, "cpus");
    for (i = 0; i < n; i++) {
        const json_t *e = json_array_get(cpus, i);
        size_t m2 = jpath_push_index(&c->path, i);
        long long apic = -1;
        bool bsp = false;
        int state, bring_up = -1;
        if (!json_is_object(e)) {
            vc_error(c, NULL, "expected an object, found %s", jget_type_word(e));
        } else {
            state = validate_cpu_entry(c, e, i, &apic, &bsp, &bring_up);
            init_sipi_cpus += bring_up == 2;
            ok += state == 0;
            bsps += bsp;
            /* absent, hung, faulted, slow: the CPU dropped out (core/run/run.c run_conclude) */
            if (state >= 1 && state <= 4 && f->troubled_cpu < 0)
                f->troubled_cpu = (long long)i;
        }
        if (apic_ids)
            apic_ids[i] = apic;
        jpath_pop(&c->path, m2);
    }
    if (n && bsps != 1)
        vc_error(c, NULL, "%zu CPUs are marked bsp, expected exactly one", bsps);
    if (apic_ids) {
        qsort(apic_ids, n, sizeof(*apic_ids), cmp_ll);
        for (i = 1; i < n; i++) {
            if (apic_ids[i] >= 0 && apic_ids[i] == apic_ids[i - 1]) {
                vc_error(c, NULL, "APIC ID %lld appears more than once", apic_ids[i]);
                break;
            }
        }
        free(apic_ids);
    }
    jpath_pop(&c->path, m);
    validate_init_sipi(c, topo, init_sipi_cpus);
    validate_topology_classes(c, topo, cpus);
    if (cpus_ok >= 0 && cpus_ok != (long long)ok)
        vc_error(c, "cpus_ok", "%lld, but %zu entries of cpus have state \"ok\"", cpus_ok, ok);
    vc_leave(c, mark);
}

/*
 * method.pcid_erratum (added during version 1): the INVLPG/global erratum's
 * verdict on a CPU of its table, null elsewhere. Its parts must agree (the
 * microcode below the fix, or unknown, is affected) and so must PCID: on an
 * affected CPU the tool runs without it, or its own choice would read as a
 * stale TLB entry of the CPU.
 */
static void validate_pcid_erratum(struct vctx *c, const json_t *m, bool pcid)
{
    size_t mark;
    bool affected = false, have_affected;
    const char *id, *ucode, *fixed;
    const json_t *e = vc_enter(c, m, "pcid_erratum", VF_NULLABLE | VF_OPTIONAL, &mark);
    if (!e)
        return;
    id = vc_string(c, e, "id", 0);
    if (id && strcmp(id, "invlpg_global_pcid") != 0)
        vc_error(c, "id", "\"%s\": expected \"invlpg_global_pcid\"", id);
    vc_string(c, e, "cpu", 0);
    vc_string(c, e, "model_name", VF_NULLABLE);
    vc_hex(c, e, "microcode", VF_NULLABLE);
    vc_hex(c, e, "fixed_microcode", 0);
    have_affected = vc_bool(c, e, "affected", 0, &affected);
    vc_string(c, e, "source", VF_OPTIONAL | VF_NULLABLE);
    ucode = jget_string(e, "microcode");
    fixed = jget_string(e, "fixed_microcode");
    if (have_affected && fixed) {
        bool below = !ucode || strtoull(ucode, NULL, 16) < strtoull(fixed, NULL, 16);
        if (below != affected)
            vc_error(c, "affected", "%s, but the microcode %s is %s the fix %s", affected ? "true"
                     : "false", ucode ? ucode : "(unknown)", below ? "below" : "at or above",
                     fixed);
    }
    vc_leave(c, mark);
    if (have_affected && affected && pcid)
        vc_error(c, "pcid_enabled", "true on a CPU with erratum invlpg_global_pcid at this "
                 "microcode (pcid_erratum.affected): its INVLPG may keep global translations, "
                 "so a stale read would be the tool's choice, not a finding");
}

/*
 * issue 32 item 5: EFER.TCE as found and as used; optional (absent from
 * earlier reports). TCE can only be set where CPUID enumerates it, and the
 * counts must say what found and used claim.
 */
static void validate_efer_tce(struct vctx *c, const json_t *m)
{
    size_t mark;
    bool supported = false, found = false, used = false;
    long long cpus = 0, cpus_found = 0, cpus_used = 0;
    bool ok;
    const json_t *t = vc_enter(c, m, "efer_tce", VF_OPTIONAL, &mark);
    if (!t)
        return;
    ok = vc_bool(c, t, "supported", 0, &supported);
    ok = vc_bool(c, t, "found", 0, &found) && ok;
    ok = vc_bool(c, t, "used", 0, &used) && ok;
    ok = vc_int(c, t, "cpus", 0, LLONG_MAX, 0, &cpus) && ok;
    ok = vc_int(c, t, "cpus_found", 0, LLONG_MAX, 0, &cpus_found) && ok;
    ok = vc_int(c, t, "cpus_used", 0, LLONG_MAX, 0, &cpus_used) && ok;
    if (ok && !supported && (found || used || cpus_found || cpus_used))
        vc_error(c, "supported", "false (CPUID 8000_0001 ECX[17] = 0), but TCE found or used");
    else if (ok && (cpus_found > cpus || cpus_used > cpus))
        vc_error(c, "cpus", "%lld, fewer than cpus_found %lld or cpus_used %lld", cpus,
                 cpus_found, cpus_used);
    else if (ok && supported && (found != (cpus && cpus_found == cpus) ||
                                 used != (cpus && cpus_used == cpus)))
        vc_error(c, "used", "found/used must say whether every one of the %lld CPUs had TCE "
                 "(%lld found, %lld used)", cpus, cpus_found, cpus_used);
    vc_leave(c, mark);
}

/* issue 32 item 8: LFENCE's serialisation; optional (absent from earlier reports) */
static void validate_lfence(struct vctx *c, const json_t *m)
{
    static const char *const sources[] = { "architectural", "cpuid_8000_0021", "de_cfg", NULL };
    size_t mark;
    bool found = false, used = false;
    long long cpus = 0, cpus_found = 0, cpus_used = 0;
    bool ok;
    const json_t *l = vc_enter(c, m, "lfence", VF_OPTIONAL, &mark);
    if (!l)
        return;
    ok = vc_word(c, l, "source", sources, 0) >= 0;
    ok = vc_bool(c, l, "found", 0, &found) && ok;
    ok = vc_bool(c, l, "used", 0, &used) && ok;
    ok = vc_int(c, l, "cpus", 0, LLONG_MAX, 0, &cpus) && ok;
    ok = vc_int(c, l, "cpus_found", 0, LLONG_MAX, 0, &cpus_found) && ok;
    ok = vc_int(c, l, "cpus_used", 0, LLONG_MAX, 0, &cpus_used) && ok;
    if (ok && (cpus_found > cpus || cpus_used > cpus))
        vc_error(c, "cpus", "%lld, fewer than cpus_found %lld or cpus_used %lld", cpus,
                 cpus_found, cpus_used);
    else if (ok && (found != (cpus && cpus_found == cpus) || used != (cpus && cpus_used == cpus)))
        vc_error(c, "used", "found/used must say whether every one of the %lld CPUs had it "
                 "(%lld found, %lld used)", cpus, cpus_found, cpus_used);
    vc_leave(c, mark);
}

/* method.protocol_steps (optional): per part, its steps' p50 and mean, on the clock each names */
static void validate_protocol_steps(struct vctx *c, const json_t *m)
{
    static const char *const parts[] = { "ipi", "shootdown", NULL };
    static const char *const clocks[] = { "initiator", "target", "derived", NULL };
    size_t mark, pmark, i, k;
    const json_t *ps = vc_enter(c, m, "protocol_steps", VF_OPTIONAL, &mark), *part, *steps, *s;
    if (!ps)
        return;
    for (i = 0; parts[i]; i++) {
        if (!(part = vc_enter(c, ps, parts[i], VF_OPTIONAL, &pmark)))
            continue;
        vc_int(c, part, "samples", 1, LLONG_MAX, 0, NULL);
        steps = vc_member(c, part, "steps", VT_ARRAY, 0);
        json_array_foreach(steps, k, s) {
            size_t smark = jpath_push_index(&c->path, k);
            if (vc_string(c, s, "step", 0))
                vc_word(c, s, "clock", clocks, 0);
            vc_int(c, s, "p50_ticks", 0, LLONG_MAX, 0, NULL);
            vc_int(c, s, "p50_ns", 0, LLONG_MAX, 0, NULL);
            vc_int(c, s, "mean_ticks", 0, LLONG_MAX, 0, NULL);
            jpath_pop(&c->path, smark);
        }
        vc_leave(c, pmark);
    }
    vc_leave(c, mark);
}

/*
 * method.lazy_idle and method.target_context (optional): the lazy CPUs' idle state
 * ("hlt" without a hint, "mwait_HH" with its hint) and why; the context of every target figure.
 */
static void validate_lazy_idle(struct vctx *c, const json_t *m)
{
    static const char *const contexts[] = { "ring0_no_entry_mitigations", NULL };
    size_t mark;
    const char *state, *reason;
    const json_t *hint, *li;
    vc_word(c, m, "target_context", contexts, VF_OPTIONAL);
    li = vc_enter(c, m, "lazy_idle", VF_OPTIONAL, &mark);
    if (!li)
        return;
    state = vc_string(c, li, "state", 0);
    hint = json_object_get(li, "hint");
    vc_int(c, li, "settle_us", 1, LLONG_MAX, 0, NULL);
    reason = vc_string(c, li, "reason", 0);
    if (reason && !reason[0])
        vc_error(c, "reason", "the lazy CPUs' idle state needs its reason");
    if (state && strcmp(state, "hlt") == 0 && !json_is_null(hint))
        vc_error(c, "hint", "hlt has no MWAIT hint (expected null)");
    else if (state && strncmp(state, "mwait_", 6) == 0 && !json_is_integer(hint))
        vc_error(c, "hint", "%s needs its MWAIT hint (an integer)", state);
    else if (state && strcmp(state, "hlt") != 0 && strncmp(state, "mwait_", 6) != 0)
        vc_error(c, "state", "expected hlt or mwait_HH, found \"%.40s\"", state);
    vc_leave(c, mark);
}

void validate_method(struct vctx *c, const json_t *root)
{
    static const char *const mechanisms[] = { "apic_mode", "firmware_apic_mode", "icr_fence",
                                              "page_flush", "full_flush", NULL };
    static const char *const counts[] = { "flush_ceiling", "test_pages", "samples", "warmup",
                                          "timer_overhead_ticks", NULL };
    size_t mark, i;
    long long levels;
    bool pcid = false;
    const json_t *m = vc_enter(c, root, "method", 0, &mark);
    if (!m)
        return;
    /* null until the experiment that chooses the mechanism has run */
    for (i = 0; mechanisms[i]; i++)
        vc_string(c, m, mechanisms[i], VF_NULLABLE);
    /* added while version 1 was current: absent from the earliest reports */
    vc_string(c, m, "target_wait", VF_NULLABLE | VF_OPTIONAL);
    vc_string(c, m, "apic_mode_reason", VF_NULLABLE | VF_OPTIONAL);
    for (i = 0; counts[i]; i++)
        vc_int(c, m, counts[i], 0, LLONG_MAX, 0, NULL);
    vc_bool(c, m, "pcid_enabled", 0, &pcid);
    vc_hex(c, m, "kernel_pcid", pcid ? 0 : VF_OPTIONAL);
    vc_hex(c, m, "user_pcid", pcid ? 0 : VF_OPTIONAL);
    /* added while version 1 was current: absent from earlier reports */
    vc_string(c, m, "pcid_reason", VF_NULLABLE | VF_OPTIONAL);
    validate_pcid_erratum(c, m, pcid);
    validate_efer_tce(c, m);
    validate_lfence(c, m);
    validate_protocol_steps(c, m);
    if (vc_int(c, m, "paging_levels", 0, 5, 0, &levels) && levels != 0 && levels != 4 &&
        levels != 5)
        vc_error(c, "paging_levels", "%lld: expected 4 or 5 (0 before paging is set up)", levels);
    vc_word(c, m, "profile", vocab_profiles, 0);
    vc_string(c, m, "timestamp", 0);
    /* added while version 1 was current: absent from the earliest reports */
    vc_word(c, m, "test_mappings", vocab_test_mappings, VF_OPTIONAL);
    /* issue 20: absent from the reports written before it */
    vc_string(c, m, "invlpgb_above_ceiling", VF_OPTIONAL);
    vc_string(c, m, "flush_ceiling_refill", VF_OPTIONAL);
    vc_string(c, m, "flush_ceiling_metric", VF_OPTIONAL); /* issue 32 */
    validate_lazy_idle(c, m);
    validate_linux_ipi_mode(c, m);
    validate_bootstrap(c, m);
    vc_leave(c, mark);
}
