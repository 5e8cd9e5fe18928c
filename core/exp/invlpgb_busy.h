/*
 * invlpgb_range's busy_ws rows: what the other CPUs lose, not only what the
 * initiator waits (core/exp/invlpgb.c, method).
 *
 * Every other CPU runs a user-mode-like loop over its own working set
 * (busy_ws, core/machine/ipi.h), interrupts on, timing each of its passes
 * on its own clock. At one page, on all CPUs, two points measured together
 * (one sample of each per iteration, in a drawn order):
 *   ipi      one concurrent IPI shootdown; `target_lost` is the time the
 *            targets' loops lost to it, each on its own clock, summed over
 *            the targets (the pass that held the flush handler minus the
 *            shortest quiet pass: core/exp/target_lost.h, as ipi_target_state
 *            measures a busy target), per shootdown;
 *   invlpgb  the bystander row: the initiator runs IB_BUSY_OPS
 *            INVLPGB+TLBSYNC back to back while the others (bystanders: no
 *            interrupt reaches them) count their passes; then a quiet
 *            window as long, the initiator spinning. A bystander's loss is
 *            its loaded window minus its passes there at its quiet pass rate
 *            (at least 0), on its own clock; `bystander_lost` is that summed
 *            over the bystanders, per INVLPGB+TLBSYNC, and `latency` the
 *            initiator's loop over IB_BUSY_OPS (one INVLPGB+TLBSYNC's mean).
 * Windows open once every bystander has seen the start and close when it
 * sees the end: each loaded window lies inside the initiator's loop, give
 * or take one pass. Two CPUs' clock readings are never subtracted.
 */
#ifndef TLBSCOPE_CORE_EXP_INVLPGB_BUSY_H
#define TLBSCOPE_CORE_EXP_INVLPGB_BUSY_H

#include "core/exp/common.h"

#define IB_BUSY_OPS 8u /* INVLPGB+TLBSYNC per bystander window */

struct ib_busy_ctl;
struct ib_busy_line;

struct ib_busy {
    struct ib_busy_ctl *ctl;   /* written by the initiator */
    struct ib_busy_line *line; /* one per CPU index, written by that CPU */
    uint8_t *ws;               /* SPIN_WS_BYTES per CPU index */
    uint64_t *work;            /* scratch: 4 per CPU */
    uint64_t *lost[2];         /* per sample: bystander_lost (invlpgb), target_lost (ipi) */
    uint64_t ops;              /* INVLPGB+TLBSYNC run in loaded windows */
    uint32_t ncpus;
};

/* The INVLPGB side: one INVLPGB+TLBSYNC of the row's page (invlpgb.c). */
typedef void (*ib_busy_op)(void *ctx);

bool ib_busy_init(struct ib_busy *b, uint32_t ncpus, uint32_t samples);
void ib_busy_free(struct ib_busy *b);

/*
 * The two points of the rows, at one page on `ts` (every other CPU):
 * measured with `op` for the INVLPGB side, verified after every sample.
 * False only when the record is full; a CPU lost marks it partial.
 */
bool ib_busy_rows(struct runner *r, struct experiment_record *rec, struct ib_busy *b,
                  struct shootdown *sd, struct target_set *ts, ib_busy_op op, void *ctx,
                  uint64_t *lat[2]);

#endif
