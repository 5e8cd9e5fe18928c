#include "core/exp/target_states.h"
#include "asm/power.h"
#include "asm/probe.h"
#include "core/machine/ipi.h"
#include "core/machine/residency.h"
#include "core/lib/strbuf.h"
#include "core/machine/testmem.h"
#include "asm/ring3.h"

bool ts_kind_is_idle(enum ts_kind kind)
{
    return kind == TS_HLT || kind == TS_MWAIT || kind == TS_IOPORT;
}

struct ts_def *ts_states_add(struct ts_states *st, enum ts_kind kind, uint32_t hint,
                             uint32_t window_us, const char *name)
{
    struct ts_def *d;
    if (st->n >= st->cap)
        return NULL;
    d = &st->defs[st->n++];
    mem_zero(d, sizeof(*d));
    d->kind = kind;
    d->hint = hint;
    d->window_us = window_us;
    d->settle.us = IPI_SETTLE_US;
    d->settle.source = "default";
    fmt_into(d->name, sizeof(d->name), "%s", name);
    if (kind == TS_HLT)
        fmt_into(d->why_none, sizeof(d->why_none), "HLT is C1: no core residency counter counts C1");
    return d;
}

/*
 * What proves an MWAIT hint's state on this CPU, and its settle time: the
 * model's C-state table (core/machine/idle_states.h) names the state and its core
 * counter; without an entry nothing says which core state the hint enters.
 */
static void describe_mwait(const struct cpu_features *f, struct ts_def *d, char *table,
                           size_t cap)
{
    struct idle_state_info info;
    size_t len = str_len(table);
    idle_settle_mwait(f, d->hint, &d->settle);
    if (f->vendor_id != VENDOR_INTEL) {
        fmt_into(d->why_none, sizeof(d->why_none),
                 "no core C-state residency MSR documented for this vendor (the tool knows none "
                 "for AMD CC6)");
        return;
    }
    if (!idle_state_lookup(f, d->hint, &info)) {
        fmt_into(d->why_none, sizeof(d->why_none),
                 "family %xh model 0x%x is not in the C-state table (core/machine/idle_states.c): the "
                 "core state hint 0x%02x enters is unknown",
                 f->family, f->model, d->hint);
        return;
    }
    d->core_cstate = info.core_cstate;
    if (!info.core_cstate)
        fmt_into(d->why_none, sizeof(d->why_none), "%s has no core residency counter", info.name);
    if (len < cap)
        fmt_into(table + len, cap - len, "%s %02x=%s %u/%u", len ? ";" : "", d->hint, info.name,
                 info.exit_latency_us, info.target_residency_us);
}

/* MWAIT hints: C1 wherever MONITOR exists, deeper ones as leaf 5 enumerates them. */
void ts_states_add_mwait(struct runner *r, struct experiment_record *rec, struct ts_states *st)
{
    const struct cpu_features *f = &r->run->cpu;
    const struct cpuid_evidence *ev = &f->evidence;
    uint32_t cstate, sub, more = 0;
    uint64_t limit = 0;
    uint32_t probe;
    char name[24], table[320] = "", cst[120]; /* table: 16 characters a hint, TS_MAX_STATES */
    struct ts_def *d;
    if (!f->monitor) {
        record_note(rec, "MWAIT states not measured: no MONITOR/MWAIT (CPUID.1:ECX[3] = 0, ECX = "
                         "0x%08x)",
                    ev->leaf1_ecx);
        return;
    }
    describe_mwait(f, ts_states_add(st, TS_MWAIT, 0x00, 0, "mwait_00"), table, sizeof(table));
    if (f->max_basic_leaf < 5 || !(ev->leaf5_ecx & 1u)) {
        record_note(rec, "MWAIT: C1 (hint 0x00) only; CPUID leaf 5 %s (max basic leaf 0x%x, "
                         "leaf 5 ECX = 0x%08x, EDX = 0x%08x)",
                    f->max_basic_leaf < 5 ? "absent" : "has no enumeration extension (ECX[0] = 0)",
                    f->max_basic_leaf, ev->leaf5_ecx, ev->leaf5_edx);
        return;
    }
    for (cstate = 1; cstate < 8; cstate++) {
        uint32_t subs = (ev->leaf5_edx >> (4 * cstate)) & 0xf;
        for (sub = 0; sub < subs; sub++) {
            uint32_t hint = ((cstate - 1) << 4) | sub;
            if (hint == 0)
                continue;
            more++;
            fmt_into(name, sizeof(name), "mwait_%02x", hint);
            d = ts_states_add(st, TS_MWAIT, hint, 0, name);
            if (d)
                describe_mwait(f, d, table, sizeof(table));
        }
    }
    if (table[0])
        record_note(rec, "C-states by MWAIT hint (Linux intel_idle, family 6 model 0x%x; exit "
                         "latency/target residency in us, the residency is each state's settle "
                         "time):%s",
                    f->model, table);
    probe = f->vendor_id == VENDOR_INTEL ? power_read_msr(MSR_PKG_CST_CONFIG, &limit) : 0;
    fmt_into(name, sizeof(name), "%u", more);
    if (f->vendor_id != VENDOR_INTEL)
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(ECX = 0x%08x, EDX = 0x%08x); no package C-state limit MSR on this "
                         "vendor",
                    name, ev->leaf5_ecx, ev->leaf5_edx);
    else if (probe == PROBE_OK) {
        residency_describe_cst_config(limit, cst, sizeof(cst));
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(EDX = 0x%08x); MSR 0xE2 = 0x%llx: %s",
                    name, ev->leaf5_edx, (unsigned long long)limit, cst);
    }
    else
        record_note(rec, "MWAIT: measured hint 0x00 (C1) and the %s more CPUID leaf 5 enumerates "
                         "(EDX = 0x%08x); MSR 0xE2 (package C-state limit) not readable: "
                         "exception %u",
                    name, ev->leaf5_edx, probe - 1);
}

/*
 * AMD's I/O-port C-states: CStateBaseAddr (MSR C001_0073, bits 15:0) is
 * documented in the BKDGs of families 15h and 16h and the PPRs of 17h and
 * 19h; an IN from base + n (n = 0..2) takes the action CSTATE_CONFIG's
 * CCRn sets (MSR C001_0296 on 17h/19h: recorded, not interpreted further).
 * Settle: 2 x the FADT's C2 latency as Linux's acpi_idle, else the default.
 */
void ts_states_add_ioport(struct runner *r, struct experiment_record *rec, struct ts_states *st)
{
    const struct cpu_features *f = &r->run->cpu;
    uint64_t base = 0, config = 0;
    uint32_t probe, cprobe, n;
    char name[24];
    if (f->vendor_id != VENDOR_AMD)
        return;
    if (f->family < 0x15 || f->family > 0x19 || f->family == 0x18) {
        record_note(rec, "I/O-port C-states not measured: CStateBaseAddr (MSR C001_0073) is "
                         "documented for families 15h-17h and 19h, this is family %xh",
                    f->family);
        return;
    }
    probe = power_read_msr(MSR_AMD_CSTATE_BASE, &base);
    if (probe != PROBE_OK || !(base & 0xffff)) {
        if (probe != PROBE_OK)
            record_note(rec, "I/O-port C-states not measured: MSR C001_0073 (CStateBaseAddr) "
                             "not readable: exception %u%s",
                        probe - 1, f->hypervisor ? " (under a hypervisor)" : "");
        else
            record_note(rec, "I/O-port C-states not measured: MSR C001_0073 = 0x%llx, no I/O "
                             "C-state address (the core traps none)",
                        (unsigned long long)base);
        return;
    }
    cprobe = power_read_msr(MSR_AMD_CSTATE_CONFIG, &config);
    for (n = 0; n < 3; n++) {
        struct ts_def *d;
        fmt_into(name, sizeof(name), "ioport_%u", n);
        d = ts_states_add(st, TS_IOPORT, 0, 0, name);
        if (!d)
            return;
        d->port = (uint16_t)((base & 0xffff) + n);
        idle_settle_ioport(r->run->fw.acpi.p_lvl2_lat, &d->settle);
        fmt_into(d->why_none, sizeof(d->why_none),
                 "no core C-state residency MSR documented for AMD (the tool knows none for CC6)");
    }
    if (cprobe == PROBE_OK)
        record_note(rec, "I/O-port C-states: CStateBaseAddr 0x%llx (MSR C001_0073), ports 0x%llx-"
                         "0x%llx; CSTATE_CONFIG (MSR C001_0296) = 0x%llx; FADT P_LVL2_LAT %u us",
                    (unsigned long long)(base & 0xffff), (unsigned long long)(base & 0xffff),
                    (unsigned long long)((base & 0xffff) + 2), (unsigned long long)config,
                    r->run->fw.acpi.p_lvl2_lat);
    else
        record_note(rec, "I/O-port C-states: CStateBaseAddr 0x%llx (MSR C001_0073); CSTATE_CONFIG "
                         "(MSR C001_0296) not readable: exception %u; FADT P_LVL2_LAT %u us",
                    (unsigned long long)(base & 0xffff), cprobe - 1, r->run->fw.acpi.p_lvl2_lat);
}

void ts_states_add_ring3(struct runner *r, struct experiment_record *rec, struct ts_states *st)
{
    char why[200];
    /* past the test region's working sets (testmem.h): PML4 slot 252, 4 GiB in */
    if (!r->mem || !ring3_prepare(r->mem->pt, TEST_VA_BASE + 4 * PAGE_1G, why, sizeof(why))) {
        record_note(rec, "ring3_loop not measured: %s",
                    r->mem ? why : "no page tables of the tool's to map the CPL 3 loop in");
        return;
    }
    ts_states_add(st, TS_RING3, 0, 0, "ring3_loop");
    record_note(rec, "ring3_loop: the pause loop at CPL 3, its interrupts entering through an IDT "
                     "gate from CPL 3 (stack switch to TSS.RSP0) and leaving by IRETQ to CPL 3; "
                     "no entry mitigation (no CR3 switch, SWAPGS, VERW, IBRS/IBPB): its round "
                     "trip minus pause's is the privilege change alone");
}

/*
 * ring3_loop's evidence: every ping (warm-up included) interrupted CS RPL 3,
 * and the loop came back by its INT; else the point is no ring-3 figure.
 */
void ts_ring3_evidence(struct experiment_record *rec, struct result_point *pt, uint64_t cpl3,
                       uint32_t pings, const struct ring3_exit *x, bool ran_ok)
{
    point_param_str(pt, "target_context", "ring3_loop");
    point_value(pt, "interrupted_cpl3", (int64_t)cpl3 * 1000);
    point_value(pt, "pings", (int64_t)pings * 1000);
    if (cpl3 != pings)
        record_escalate(rec, RESULT_ERROR, "ring3_loop: %llu of %u pings found the target at "
                                           "CPL 3 (the interrupted CS's RPL): not a ring-3 figure",
                        (unsigned long long)cpl3, pings);
    if (x->fw_tr)
        record_note(rec, "ring3_loop: the target's TR was 0x%x (the firmware's) before the loop; "
                         "it is left on the tool's TSS",
                    x->fw_tr);
    if (!ran_ok)
        record_escalate(rec, RESULT_ERROR, "ring3_loop: the CPL 3 loop ended by vector %u at "
                                           "rip 0x%llx, not by its INT",
                        x->vector, (unsigned long long)x->rip);
}
