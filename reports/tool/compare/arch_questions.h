/*
 * The questions both architectures answer (compare across architectures):
 * for each, per architecture, the experiment that answers it, the parameter
 * filter that selects the path Linux takes there, how its parameters map onto
 * the question's, the mechanism it times and what Linux does. Data only
 * (arch_questions.c): a third architecture adds a side to each row it
 * answers, no code. compare_questions.h lines the reports up by them.
 */
#ifndef TLBSCOPE_REPORT_ARCH_QUESTIONS_H
#define TLBSCOPE_REPORT_ARCH_QUESTIONS_H

#include <stddef.h>

#define AQ_MAX_FILTERS 6
#define AQ_MAX_MAPS 3
#define AQ_MAX_WORDS 4
#define AQ_MAX_DETAILS 3
#define AQ_MAX_ARCHES 2
#define AQ_MAX_KEYS 3

/*
 * A point passes when its parameter `key` reads `value` (as model_param_text
 * writes it), or lacks the key when value is "-". One of several values:
 * "invlpg|cr3_reload".
 */
struct aq_filter {
    const char *key, *value;
};

/*
 * The question's parameter `canon` is the side's parameter `key`; with `from`
 * (NULL-terminated), its word from[i] reads as to[i] and any other word
 * leaves the point out; without, the value as it is.
 */
struct aq_map {
    const char *canon, *key;
    const char *from[AQ_MAX_WORDS + 1], *to[AQ_MAX_WORDS];
};

struct aq_side {
    const char *arch;       /* "x86_64", "aarch64": m_report.architecture */
    const char *experiment; /* its id in that architecture's reports */
    struct aq_filter filter[AQ_MAX_FILTERS]; /* all must hold; key NULL ends */
    struct aq_map map[AQ_MAX_MAPS];          /* canon NULL ends */
    /* a parameter that tells the row's mechanism apart (x86's flush: INVLPG or a CR3 write) */
    const char *shown;
    const char *how;       /* the mechanism in a row's few words ("IPIs", "TLBI VAE1IS") */
    const char *mechanism;               /* what the timed window holds */
    const char *details[AQ_MAX_DETAILS]; /* keys of the report's method named with it (apic_mode) */
    const char *linux_does;              /* what Linux does for this question here */
    /* a path Linux takes instead where the report measured it (INVLPGB on 6.15+) */
    const char *instead_experiment, *instead;
    /* the side of reports written before this path was measured (none of their points passes
     * `filter`): what they answered the question with then; NULL: none */
    const struct aq_side *before;
};

struct aq_question {
    const char *id, *title;
    /* pooled over all pairs (ipi_roundtrip: topology classes of two architectures differ) */
    int all_pairs;
    const char *align[AQ_MAX_KEYS]; /* question parameters a row's sides share exactly */
    /* question parameters matched to the nearest value the other sides have (each side's
     * value is shown in the row): a grid that meets the other nowhere still lines up */
    const char *nearest[AQ_MAX_KEYS];
    struct aq_side sides[AQ_MAX_ARCHES];
};

extern const struct aq_question aq_questions[];
extern const size_t aq_nquestions;

/* The question's side for an architecture, or NULL where it has none. */
const struct aq_side *aq_side_of(const struct aq_question *q, const char *arch);
/* The question whose side on some architecture runs experiment `id`, from `from` on; or NULL. */
const struct aq_question *aq_answered_by(const char *id, size_t *from);

#endif
