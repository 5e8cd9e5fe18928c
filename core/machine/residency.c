#include "core/machine/residency.h"

#include <stdbool.h>

#include "asm/probe.h"
#include "core/mutant.h"
#include "core/lib/strbuf.h"

const uint32_t residency_msr[RC_COUNT] = { 0x3fc, 0x3fd, 0x3fe, 0x60d, 0x3f8, 0x3f9, 0x3fa };

static const uint32_t core_states[RC_CORE_COUNT] = { 3, 6, 7 };

const char *residency_verdict_name(enum residency_verdict v)
{
    switch (v) {
    case RESIDENCY_REACHED:
        return "reached";
    case RESIDENCY_DEMOTED:
        return "demoted";
    case RESIDENCY_NOT_REACHED:
        return "not_reached";
    case RESIDENCY_PARTLY_REACHED:
        return "partly_reached";
    default:
        return "unverified";
    }
}

static uint32_t permille(uint64_t part, uint64_t whole)
{
    if (!whole)
        return 0;
    if (part >= whole)
        return 1000;
    return (uint32_t)(part * 1000 / whole);
}

void residency_judge(uint32_t core_cstate, const char *why_none,
                     const struct residency_reading *before, const struct residency_reading *after,
                     uint64_t expected, struct residency_result *out)
{
    uint64_t elapsed = after->tsc - before->tsc, deeper = 0, shallower = 0;
    uint32_t i, wanted = RC_CORE_COUNT, lighter = RC_CORE_COUNT;
    bool readable[RC_COUNT];
    for (i = 0; i < RC_COUNT; i++) {
        readable[i] = before->probe[i] == PROBE_OK && after->probe[i] == PROBE_OK;
        /* a counter that went backwards was reset or wrapped: no growth we can trust */
        out->delta[i] = readable[i] && after->value[i] >= before->value[i]
                            ? after->value[i] - before->value[i]
                            : 0;
    }
    out->permille = 0;
    out->expected_permille = permille(expected, elapsed);
    for (i = 0; i < RC_CORE_COUNT; i++)
        if (core_states[i] == core_cstate)
            wanted = i;
    if (wanted == RC_CORE_COUNT) {
        out->verdict = RESIDENCY_UNVERIFIED;
        fmt_into(out->reason, sizeof(out->reason), "%s", why_none ? why_none : "no counter");
        return;
    }
    if (!readable[wanted]) {
        uint32_t p = before->probe[wanted] != PROBE_OK ? before->probe[wanted] : after->probe[wanted];
        out->verdict = RESIDENCY_UNVERIFIED;
        fmt_into(out->reason, sizeof(out->reason),
                 "MSR 0x%x (core C%u residency) not readable: exception %u", residency_msr[wanted],
                 core_cstate, p - 1);
        return;
    }
    for (i = wanted; i < RC_CORE_COUNT; i++)
        if (readable[i])
            deeper += out->delta[i];
    for (i = 0; i < wanted; i++) {
        if (readable[i] && out->delta[i]) {
            shallower += out->delta[i];
            lighter = i;
        }
    }
    if ((deeper + shallower > elapsed || !elapsed) && !MUTANT(residency_beyond_elapsed)) {
        /* the core counters count at the TSC's rate, one core state at a time */
        out->verdict = RESIDENCY_UNVERIFIED;
        fmt_into(out->reason, sizeof(out->reason),
                 "core residency counters grew by %llu ticks in %llu elapsed (MSR 0x%x +%llu): "
                 "more than the time that passed proves nothing",
                 (unsigned long long)(deeper + shallower), (unsigned long long)elapsed,
                 residency_msr[wanted], (unsigned long long)out->delta[wanted]);
        return;
    }
    if (deeper || (MUTANT(residency_demoted_as_reached) && shallower)) {
        bool full;
        out->permille = permille(deeper + (deeper ? 0 : shallower), elapsed);
        /* compared in ticks: permilles of a long interval round a short expected time to 0 */
        full = (deeper + (deeper ? 0 : shallower)) * 1000 >= expected * RESIDENCY_REACHED_SHARE ||
               MUTANT(residency_any_growth_reached);
        out->verdict = full ? RESIDENCY_REACHED : RESIDENCY_PARTLY_REACHED;
        fmt_into(out->reason, sizeof(out->reason),
                 "MSR 0x%x +%llu ticks of %llu (core C%u or deeper: %u permille; expected at "
                 "least %llu ticks, %u permille, in the state)%s",
                 residency_msr[wanted], (unsigned long long)out->delta[wanted],
                 (unsigned long long)elapsed, core_cstate, out->permille,
                 (unsigned long long)expected, out->expected_permille,
                 full ? "" : ": less than 0.8 of it");
        return;
    }
    if (shallower) {
        out->verdict = RESIDENCY_DEMOTED;
        out->permille = permille(shallower, elapsed);
        fmt_into(out->reason, sizeof(out->reason),
                 "core C%u: MSR 0x%x +0; core C%u: MSR 0x%x +%llu ticks of %llu",
                 core_cstate, residency_msr[wanted], core_states[lighter], residency_msr[lighter],
                 (unsigned long long)out->delta[lighter], (unsigned long long)elapsed);
        return;
    }
    out->verdict = RESIDENCY_NOT_REACHED;
    fmt_into(out->reason, sizeof(out->reason),
             "no core residency counter grew in %llu ticks (MSR 0x%x +0): the core stayed in "
             "C0/C1/C1E",
             (unsigned long long)elapsed, residency_msr[wanted]);
}

void residency_describe_cst_config(uint64_t v, char *buf, size_t cap)
{
    /* SDM vol. 4: bits 3:0 package C-state limit, 15 lock, 25 C3 and 26 C1 auto-demotion */
    fmt_into(buf, cap, "package C-state limit %llu, C1 auto-demotion %s, C3 auto-demotion %s%s",
             (unsigned long long)(v & 0xf), (v >> 26) & 1 ? "on" : "off",
             (v >> 25) & 1 ? "on" : "off", (v >> 15) & 1 ? ", locked" : "");
}
