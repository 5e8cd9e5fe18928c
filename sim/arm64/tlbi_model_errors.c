/*
 * The strict aarch64 model's errors (tlbi_model.h): an operation the rules refuse is kept as
 * text, the first A64M_MAX_VIOLATIONS of them, and counted. Its own file so that every part of
 * the model (tlbi_model.c, the stage-2 rules of tlbi_model_s2.c) reports through it without
 * calling each other back. Runs with m->lock held.
 */
#include "sim/arm64/tlbi_model_int.h"

#include <stdarg.h>
#include <stdio.h>

void a64m_violation(struct a64_model *m, uint32_t c, const char *fmt, ...)
{
    va_list ap;
    if (m->violations < A64M_MAX_VIOLATIONS) {
        char *out = m->violation[m->violations];
        int n = snprintf(out, sizeof(m->violation[0]), "CPU %u: ", c);
        va_start(ap, fmt);
        vsnprintf(out + n, sizeof(m->violation[0]) - (size_t)n, fmt, ap);
        va_end(ap);
    }
    m->violations++;
}
