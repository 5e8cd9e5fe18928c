/*
 * One sample of the invlpgb experiment (core/exp/invlpgb.c, whose top
 * comment is the method): the INVLPGB side as Linux issues it or as the
 * whole range in chunks (per PCID under PTI, one TLBSYNC), a sample of one
 * method (remap, invalidate, verify), a point's samples of every method in
 * turn, and what the emulator handled for each.
 */
#include "core/exp/invlpgb_sample.h"

#include "asm/invlpgb.h"
#include "asm/tlb.h"
#include "core/machine/emulate.h"
#include "asm/cpu.h"
#include "asm/features.h"
#include "core/lib/atomic.h"
#include "core/exp/common.h"
#include "core/exp/invlpgb_busy.h"
#include "core/exp/invlpgb_summary.h"
#include "core/run/experiments.h"
#include "core/mutant.h"
#include "core/machine/placement.h"
#include "core/run/runner_plan.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"

/* The INVLPGB side of one sample: the path's INVLPGBs (per PCID under PTI), one TLBSYNC. */
void ib_flush(struct ib_state *st, enum form form, uint32_t count, bool pcid_on,
              enum path path)
{
    struct invlpgb_range range;
    struct invlpgb_op op;
    uint32_t pass;
    for (pass = 0; pass < (pcid_on && st->sd.pti != PTI_OFF ? 2u : 1u); pass++) {
        if (MUTANT(invlpgb_2m_user_pass_skipped) && pass == 1 && form == FORM_STRIDE_2M)
            continue; /* test-only: the 2 MiB form's user-PCID INVLPGB lost */
        uint16_t pcid = (uint16_t)(pass ? st->sd.user_pcid : st->sd.kernel_pcid);
        uint64_t start = form == FORM_STRIDE_2M ? testmem_va_2m(0) : testmem_va(0);
        if (form == FORM_PCID) {
            op = invlpgb_encode_pcid(pcid_on ? pcid : 0);
            invlpgb_raw(op.rax, op.ecx, op.edx);
            continue;
        }
        if (path == PATH_LINUX && !MUTANT(invlpgb_chunked_main))
            invlpgb_flush_init(&range, start, count, form == FORM_STRIDE_2M, st->max_pages,
                               st->sd.ceiling, pcid, pcid_on);
        else
            invlpgb_range_init(&range, start, count, form == FORM_STRIDE_2M, st->max_pages, pcid,
                               pcid_on);
        while (invlpgb_range_next(&range, &op)) {
            if (MUTANT(invlpgb_truncate) && range.left == 0 && count > st->max_pages &&
                !range.whole_pcid)
                break; /* the last chunk of a multi-chunk range is lost */
            invlpgb_raw(op.rax, op.ecx, op.edx);
        }
    }
    if (!MUTANT(skip_tlbsync))
        tlbsync(); /* waits only for this CPU's INVLPGBs: no migration in between */
}


/* One sample of one method: remap, invalidate, verify. 0: a CPU failed. */
uint64_t ib_sample_one(struct ib_state *st, enum form form, uint32_t count, enum method m,
                       bool pcid_on)
{
    struct shootdown *sd = &st->sd;
    bool large = form == FORM_STRIDE_2M;
    uint32_t verify_count = form == FORM_PCID ? 1 : count;
    uint64_t t0, t;
    if (large)
        testmem_flip_2m(sd->tm, 0, count);
    else
        testmem_flip(sd->tm, 0, verify_count);
    t0 = tsc_open();
    if (m != METHOD_IPI && !MUTANT(invlpgb_as_ipi)) {
        ib_flush(st, form, count, pcid_on, m == METHOD_CHUNKED ? PATH_CHUNKED : PATH_LINUX);
        t = tsc_close() - t0;
    } else if (form == FORM_PCID) {
        /* the IPI way to drop a whole PCID: a full flush on every CPU */
        t = shootdown_flush(sd, st->ts.cpus, st->ts.n, ORDER_CONCURRENT, 0, verify_count,
                            FLUSH_ALL);
    } else {
        /* INVLPG per page, of the form's stride (a full flush above the ceiling) */
        t = shootdown_flush(sd, st->ts.cpus, st->ts.n, ORDER_CONCURRENT, 0, count,
                            large ? FLUSH_STRIDE_2M : 0);
    }
    if (!t || !shootdown_verify_cpus(sd, st->ts.cpus, st->ts.n, 0, verify_count, large))
        return 0;
    return t;
}

/* The emulator's counts since `before`, added to m's. */
void ib_count_emulated(struct ib_method *m, const struct emulation_counts *before)
{
    m->emulated_invlpgb += emulate_counts()->invlpgb - before->invlpgb;
    m->emulated_tlbsync += emulate_counts()->tlbsync - before->tlbsync;
}

/*
 * The methods of `mask` (bit m: enum method m) on one range, each
 * iteration one sample of each in the iteration's order, then each
 * method's baseline. st->lat[m] keeps method m's samples in iteration order.
 */
bool ib_sample_point(struct runner *r, struct ib_state *st, enum form form, uint32_t count,
                     uint32_t mask, uint64_t salt, struct ib_method out[NMETHODS])
{
    struct shootdown *sd = &st->sd;
    uint32_t i, j, nm = 0, methods[NMETHODS], ord[NMETHODS];
    uint32_t samples = runner_samples(r), warmup = runner_warmup(r), nbase = exp_baseline_count(r);
    bool pcid_on = r->run->method.pcid_enabled;
    mem_zero(out, NMETHODS * sizeof(out[0]));
    for (j = 0; j < NMETHODS; j++)
        if (mask & (1u << j))
            methods[nm++] = j;
    for (i = 0; i < warmup + samples; i++) {
        exp_variant_order(r, salt, i, nm, ord);
        if (i >= warmup)
            out[methods[ord[0]]].first++;
        for (j = 0; j < nm; j++) {
            uint32_t m = methods[ord[j]];
            struct emulation_counts before = *emulate_counts();
            uint64_t t = ib_sample_one(st, form, count, (enum method)m, pcid_on);
            if (!t)
                return false;
            ib_count_emulated(&out[m], &before);
            if (i >= warmup)
                st->lat[m][i - warmup] = t;
        }
    }
    for (j = 0; j < nm; j++) {
        uint32_t m = methods[j];
        struct emulation_counts before = *emulate_counts();
        if (m == METHOD_IPI) {
            if (!exp_baseline(sd, st->ts.cpus, st->ts.n, 0, st->base, nbase, &out[m].base))
                return false;
        } else {
            /* INVLPGB's floor: a TLBSYNC with nothing outstanding */
            for (i = 0; i < nbase; i++) {
                uint64_t t0 = tsc_open();
                tlbsync();
                st->base[i] = tsc_close() - t0;
            }
            stats_from_array(st->base, nbase, &out[m].base);
        }
        ib_count_emulated(&out[m], &before);
    }
    return true;
}

/* Whether a range has the chunked alternative: a range form above the ceiling, on every CPU. */
bool ib_has_chunked(const struct ib_state *st, enum form form, uint32_t count, uint32_t ncpus)
{
    return form != FORM_PCID && count > st->sd.ceiling && ncpus == 0;
}
