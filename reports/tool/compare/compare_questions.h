/*
 * compare across architectures by question (arch_questions.h): for each
 * question, each side's experiment on its own architecture, restricted to
 * Linux's path there, lined up by the question's parameters, each side's
 * p50 in ns from its own tick rate (tsc_hz, counter_hz). Built from a model
 * of reports that name two architectures (cmp_model.cross_arch) and know
 * their rates (in_ns); printed as text, Markdown and JSON
 * (compare_questions_print.c).
 */
#ifndef TLBSCOPE_REPORT_COMPARE_QUESTIONS_H
#define TLBSCOPE_REPORT_COMPARE_QUESTIONS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "reports/tool/compare/arch_questions.h"
#include "reports/tool/compare/compare.h"

struct cq_row {
    struct m_param align[AQ_MAX_KEYS]; /* the question's values (key NULL past the last) */
    struct m_param *nearest;           /* per side, AQ_MAX_KEYS each: its own value (NULL key: none) */
    const struct m_point **point;      /* per side: the point of its first run, or NULL */
    struct cmp_row row;                /* cells per side in ns; its base and band */
};

struct cq_answer {
    const struct aq_question *q;
    const struct aq_side **side;        /* per side: its architecture's answer, or NULL */
    const struct m_experiment **exp;    /* per side: its first run's experiment, or NULL */
    bool *instead;                      /* per side: the report measured aq_side.instead_experiment */
    size_t answering;                   /* sides with points on Linux's path */
    struct cq_row *rows;
    size_t nrows;
    size_t base;
    char reason[400]; /* why nothing is compared ("" when rows exist) */
};

struct cq_set {
    struct cq_answer *answers; /* per question of the table (those --experiment names), in order */
    size_t n;
    size_t nsides;
};

/* Empty (n 0) unless the model is cross-architecture and in ns. False when out of memory. */
bool compare_questions_build(const struct cmp_model *m, struct cq_set *out);
void compare_questions_free(struct cq_set *s);
/* Does experiment `id` answer a question the set compares (rows on two sides)? */
bool compare_questions_use(const struct cq_set *s, const char *id);
/* The row's mechanism on side i: aq_side.how with the point's shown parameter. */
const char *compare_questions_how(const struct cq_answer *a, const struct cq_row *r, size_t i,
                                  char *buf, size_t cap);
/* "apic_mode x2apic, target_wait hlt": the report's details of the side's mechanism. */
const char *compare_questions_details(const struct aq_side *sd, const struct m_report *r,
                                      char *buf, size_t cap);

/* The questions as text or Markdown, after the experiments' sections. */
void compare_questions_print(const struct cmp_model *m, FILE *out, bool markdown, int width);
/* compare --json: architectures.questions. */
json_t *compare_questions_json(const struct cmp_model *m);

#endif
