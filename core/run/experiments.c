#include "core/run/experiments.h"

/*
 * Run order: the IPI floor first; then the negative control, whose verdict
 * says whether the verification counts of the shootdown experiments mean
 * anything on this machine; then the four effects. The report keeps this
 * order; an experiment whose findings another uses runs just before it
 * (struct experiment.runs_before: ipi_target_state before shootdown_lazy).
 */
const struct experiment *const experiment_table[] = {
    &exp_ipi_roundtrip,
    &exp_ipi_broadcast,
    &exp_stale_control,
    &exp_shootdown_seq_vs_conc,
    &exp_shootdown_lazy,
    &exp_pti,
    &exp_invlpgb,
    &exp_flush_ceiling,
    &exp_shootdown_contention,
    &exp_ipi_target_state,
};
const uint32_t experiment_count = sizeof(experiment_table) / sizeof(experiment_table[0]);
