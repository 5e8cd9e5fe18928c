/* The SMI counter of one CPU around an experiment (core/run/conditions.h; core/run/conditions_smi.c). */
#ifndef TLBSCOPE_CORE_CONDITIONS_SMI_H
#define TLBSCOPE_CORE_CONDITIONS_SMI_H

#include <stdbool.h>

#include "core/run/conditions.h"

/* On the calling CPU: reads MSR 0x34, or programs a free PMC with LsSmiRx (ext_core: the
 * six-counter layout). The outcome is in s->smi_failure. */
void smi_counter_start(enum smi_method m, bool ext_core, struct cond_cpu_sample *s);
/* Reads the counter `start` set up and gives the PMC back as it was found. */
void smi_counter_stop(enum smi_method m, bool ext_core, const struct cond_cpu_sample *start,
                      struct cond_cpu_sample *s);

#endif
