/* The aarch64 run's own bookkeeping: see run_arm64.h. */
#include "core/run/run_arm64.h"

enum result a64_run_result(const struct arm64_run *run)
{
    enum result r = RESULT_SUCCESS;
    uint32_t i;
    for (i = 0; i < run->nexp; i++)
        r = result_worst(r, run->exps[i].status);
    if (run->partial || run->errors.count)
        r = result_worst(r, RESULT_ERROR);
    return r;
}

const char *a64_cpu_state_name(enum a64_cpu_state s)
{
    static const char *const names[] = { "ok", "absent", "hung", "faulted", "disabled" };
    return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "unknown";
}
