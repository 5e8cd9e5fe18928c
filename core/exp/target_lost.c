#include "core/exp/target_lost.h"
#include "core/mutant.h"

enum lost_verdict target_lost_account(enum lost_kind kind, uint64_t from, uint64_t now,
                                      bool handled, uint64_t entry, uint64_t *shortest,
                                      uint64_t (*reread)(void *ctx), void *ctx, uint64_t *lost)
{
    *lost = 0;
    if (!handled) {
        if (kind != LOST_WAKE && now - from < *shortest)
            *shortest = now - from;
        return LOST_QUIET;
    }
    if (kind == LOST_WAKE) {
        /*
         * Woken first by the heartbeat or a monitor write, the CPU can take
         * the ping after the pass's last read: the handler ran on this CPU
         * before its counter moved, so a read now is after its entry.
         */
        if (entry > now)
            now = reread(ctx);
        *lost = now - entry;
        return LOST_RECORDED;
    }
    if (entry > now && !MUTANT(late_ping_charged))
        return LOST_NEXT_PASS;
    if (*shortest != UINT64_MAX && now - from > *shortest)
        *lost = now - from - *shortest;
    return LOST_RECORDED;
}
