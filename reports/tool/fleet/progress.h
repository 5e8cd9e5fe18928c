/*
 * How far the import of a large report has got, on a terminal: one line on
 * stderr, rewritten in place ("importing big.json: storing 45% of 185,000
 * points"), at most five times a second and only once a report has taken
 * longer than that, and erased at the end. Nothing when stderr is not a
 * terminal (a pipe, a log, the tests).
 */
#ifndef TLBSCOPE_FLEET_PROGRESS_H
#define TLBSCOPE_FLEET_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>

struct progress {
    FILE *out;         /* NULL: off */
    char name[40];     /* the file's name, shortened to fit 80 columns */
    const char *phase; /* "checking", "hashing", "storing" */
    size_t total;      /* points of the report */
    struct timespec start, last;
    bool shown;
};

/* On when `err` is a terminal. */
void progress_start(struct progress *p, FILE *err, const char *name, size_t total);
void progress_phase(struct progress *p, const char *phase);
/* `done` points of the phase. */
void progress_tick(struct progress *p, size_t done);
/* Erases the line, if one was shown. */
void progress_end(struct progress *p);

#endif
