/*
 * The reports compare and html work on, loaded from the command line's
 * operands and arranged in sides (columns):
 *   FILE or DIR      each report its own side (a DIR: its *.json, sorted)
 *   A=f1.json,f2.json  one side pooling those runs (each may be a DIR)
 *   --group          reports of one machine and configuration pooled
 *   --baseline FILE  the side the ratios divide by (loaded, as the last side,
 *                    when not an operand); the sides keep the operands' order
 * Each side is named (side_names.h): NAME=..., else a short CPU name.
 * A file that fails to load is fatal when named; one inside a directory is
 * reported and skipped, so one bad file does not stop the rest.
 */
#ifndef TLBSCOPE_REPORT_SIDES_H
#define TLBSCOPE_REPORT_SIDES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "reports/tool/model/model.h"

struct side_set {
    struct m_report **all; /* labelled: the side's name, then "#2", "#3" from its second run */
    size_t *side_of;
    size_t nall, nsides;
    size_t baseline; /* the --baseline side (0 without it) */
};

/* The exit status (commands.h): EXIT_VALID, EXIT_INVALID or EXIT_USAGE; `out` empty unless VALID. */
int sides_load(char *const *args, size_t nargs, const char *baseline, bool group, size_t max_sides,
               struct side_set *out, FILE *err);
void sides_free(struct side_set *s);
/*
 * The loaded reports' sides made again, one per CPU model (vendor and brand, the MIDR on
 * aarch64; simulated apart from measured), as the atlas has a column per CPU model; in the
 * operands' order, named by the model's short CPU name (side_names.h), its reports NAME,
 * NAME#2, ...: html past HTML_MAX_REPORTS reports. EXIT_USAGE (said on `err`) when there
 * are more than max_sides models.
 */
int sides_pool_models(struct side_set *s, size_t max_sides, FILE *err);
/* What sides_pool_models pools by. */
void sides_model_key(const struct m_report *r, char *buf, size_t cap);
/* What pools reports under --group: machine identity (or its names) and configuration. */
void sides_group_key(const struct m_report *r, char *buf, size_t cap);

#endif
