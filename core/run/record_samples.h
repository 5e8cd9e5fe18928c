/*
 * Each metric's own 95% interval of its p50 and, with keep_samples=on, its
 * samples (issue 31): what the run adds to every statistic an experiment
 * computes, through core/lib/stats.h's hook, set around one experiment.
 *
 * The interval is boot_median()'s (core/run/bootstrap.h): BOOT_REPLICATES
 * resamples of the metric's own samples, seeded with the run's
 * method.order_seed and the samples themselves. It runs where the
 * experiment computes the metric's statistics, after the point's last timed
 * window has closed, and costs about n/32 random words a replicate (n
 * samples): the run counts its intervals and the time they took
 * (method.bootstrap in the report).
 *
 * keep_samples=on copies each list of samples, in the order measured, into
 * room taken before the experiment (no allocation where it measures):
 * room for POINT_MAX_METRICS metrics of `samples` each on every point the
 * experiment reserved, at most RECORD_SAMPLES_MAX_BYTES; a metric whose
 * samples did not fit has none in the report, and the experiment a note.
 */
#ifndef TLBSCOPE_CORE_RECORD_SAMPLES_H
#define TLBSCOPE_CORE_RECORD_SAMPLES_H

#include "core/run/run.h"

#define RECORD_SAMPLES_MAX_BYTES (256ull << 20)

/* Before the experiment's measurements (after its prepare, which reserved its points). */
void record_samples_begin(struct run *run, struct experiment_record *rec);
/* After them: the hook is gone; notes what keep_samples could not keep. */
void record_samples_end(struct run *run, struct experiment_record *rec);

#endif
