#include "core/experiments.h"

/* Run order: the IPI floor first, then what builds on it. */
const struct experiment *const experiment_table[] = {
    &exp_ipi_roundtrip,
    &exp_ipi_broadcast,
};
const uint32_t experiment_count = sizeof(experiment_table) / sizeof(experiment_table[0]);
