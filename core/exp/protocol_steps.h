/*
 * The tool's own protocol, step by step (method.protocol_steps): where an
 * IPI round trip and a 1-page shootdown to one target spend their time, so
 * that a floor above the kernel's shows where the extra goes.
 *
 * IPI (ipi_roundtrip, the BSP to its first usable other CPU, after the
 * pairs, the target waiting as in the pairs): the round trip with the
 * target's handler timing its body (C handler entry to the ack store, on
 * the target's clock: ping_slot.timed, so the measured pairs carry no extra
 * clock read); the ICR write inside it (with one closing timestamp); the
 * rest, derived per sample as round trip - ICR write - handler: delivery
 * (the wake-up of a halted target included), interrupt entry and EOI, the
 * ack line's way back and the wait loop's exit. Three of the rest's parts
 * timed alone on the initiator's clock: one EOI write, the wait loop's exit
 * on an ack already visible (with its closing timestamp), an opening and a
 * closing timestamp back to back; and the settle before each ping (outside
 * the window). Two CPUs' clock readings are never subtracted: each step is
 * a difference on one clock, the rest a difference of durations.
 * Shootdown (shootdown_seq_vs_conc, mode conc, 1 page, one target, Linux's
 * CR3 write above the ceiling): its per-sample parts (core/machine/shootdown.h,
 * struct shootdown_parts): send, the target's handler, and the rest.
 * Per step the p50 and the mean (means add up; p50s need not).
 */
#ifndef TLBSCOPE_CORE_EXP_PROTOCOL_STEPS_H
#define TLBSCOPE_CORE_EXP_PROTOCOL_STEPS_H

#include "core/run/runner.h"

/*
 * The IPI steps from the BSP to `target` (waiting as ipi_roundtrip's targets
 * do), `n` samples after `warmup`, in `buf` (4 x n scratch). False when the
 * target stopped answering (nothing recorded).
 */
bool protocol_steps_ipi(struct runner *r, uint32_t target, uint32_t warmup, uint32_t n,
                        uint64_t *buf);
/* The shootdown steps from the first such point's per-sample parts (n samples). */
void protocol_steps_shootdown(const struct runner *r, const uint64_t *lat, const uint64_t *send,
                              const uint64_t *handler, const uint64_t *rest, uint32_t n);

#endif
