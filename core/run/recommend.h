/*
 * What a run suggests for the kernel's tunables, each backed by the points
 * it came from: the `recommendations` section of the report
 * (reports/SCHEMA.md) and the "What this machine suggests" block of the
 * text summary. Pure: reads the run's records, writes nothing else;
 * host-tested (tests/host/test_crossover.c).
 *
 *   flush_ceiling   p* of flush_ceiling (full_cr3 as Linux does it) for the
 *                   working set nearest RECOMMEND_TYPICAL_WS, contiguous,
 *                   locally and for each shootdown's target count (its
 *                   work summed over CPUs: initiator and targets, flush
 *                   and refill), each with p*'s interval; the ceiling is
 *                   the smallest over the confident curves of the largest
 *                   count measured below p* (where INVLPG still won), and
 *                   where the grid measured nothing between that count and
 *                   p* a range up to p* - 1 (core/run/recommend_ceiling.c),
 *                   with the interval of the curve that sets it, against
 *                   Linux's 33; a curve with fewer than 3 page counts is
 *                   named not measured;
 *   invlpgb_vs_ipi  on the most CPUs, which page counts INVLPGB+TLBSYNC
 *                   (Linux's path: one whole-PCID INVLPGB above the
 *                   ceiling) beats the IPI shootdown at, which it loses
 *                   at, and where the two do not differ measurably; its
 *                   value the largest page count of the run of wins that
 *                   starts at the smallest win; and the smallest CPU
 *                   count from which it wins at one page, with that
 *                   count's interval (core/run/recommend_invlpgb.c);
 *   shootdown_order what the concurrent order saves at the most targets,
 *                   with its interval, "no difference" when the interval
 *                   contains zero, and per page count there, 1 page first
 *                   (the sum is mostly 512 pages' cost) (core/run/recommend_order.c);
 *   lazy_skip       what skipping k lazy CPUs saves, and their catch-up;
 *   pti_user_flush  immediate (INVPCID) vs deferred user-PCID flush per page.
 * Values are the report's medians, so anyone can recompute them from the
 * cited points. Intervals are 95% paired-bootstrap intervals from the
 * samples the experiments kept (core/run/bootstrap.h: the pairs are the
 * variants' samples of one iteration), and every entry's confidence
 * follows from its interval by the mapping written there. No evidence, a
 * failed verification or spread that hides the difference (confidence
 * low): "not enough evidence" and why. A virtualised, emulated or simulated run
 * labels every entry so: it does not describe hardware.
 */
#ifndef TLBSCOPE_CORE_RECOMMEND_H
#define TLBSCOPE_CORE_RECOMMEND_H

#include "core/run/crossover.h"
#include "core/run/recommendation.h"
#include "core/run/run.h"

#define RECOMMEND_TYPICAL_WS 512 /* pages: 2 MiB, one page table's worth */

void recommend_compute(const struct run *r, struct recommendations *out);

#endif
