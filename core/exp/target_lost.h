/*
 * The time an IPI target loses, from its own loop's clock reads
 * (ipi_target_state). Pure, so the attribution is host-tested with a fake
 * clock (tests/host/test_target_lost.c).
 *
 * The loop reads its TSC at the end of every pass and then loads the
 * handler's counter. An interrupt can land between those two: the counter
 * has moved, but the pass's clock read came before the handler ran, so the
 * pass looks uninterrupted (lost time about 0). The handler's own entry
 * timestamp tells the two apart: entry after the pass's last read means
 * the interruption is in the gap that ends at the next pass's read, and
 * the record waits for that pass.
 */
#ifndef TLBSCOPE_CORE_EXP_TARGET_LOST_H
#define TLBSCOPE_CORE_EXP_TARGET_LOST_H

#include <stdbool.h>
#include <stdint.h>

enum lost_kind {
    LOST_GAP,    /* pause, busy: the pass's gap minus the shortest uninterrupted pass */
    LOST_WINDOW, /* irqoff: the one-instruction window's gap minus the shortest empty one */
    LOST_WAKE,   /* hlt, mwait: handler entry to the loop running again */
};

enum lost_verdict {
    LOST_QUIET,     /* no interrupt in this pass: a candidate for the shortest pass */
    LOST_RECORDED,  /* *lost holds the interrupt's cost */
    LOST_NEXT_PASS, /* the handler ran after the pass's last clock read: see the next pass */
};

/*
 * One pass from `from` to `now` (the target's TSC); `handled`: the handler's
 * counter moved since the last record; `entry`: the handler's TSC at its
 * entry. `reread` is called (with `ctx`) when an idle pass needs a clock
 * read after the handler. *shortest is the shortest quiet pass so far
 * (UINT64_MAX before the first) and is updated on LOST_QUIET.
 */
enum lost_verdict target_lost_account(enum lost_kind kind, uint64_t from, uint64_t now,
                                      bool handled, uint64_t entry, uint64_t *shortest,
                                      uint64_t (*reread)(void *ctx), void *ctx, uint64_t *lost);

#endif
