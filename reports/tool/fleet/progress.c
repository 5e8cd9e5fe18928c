#include "reports/tool/fleet/progress.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/mutant.h"
#include "reports/tool/model/sanitize.h"

/* Between two updates, and before the first: a report done sooner shows none. */
#define PROGRESS_EVERY_S 0.2

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

void progress_start(struct progress *p, FILE *err, const char *name, size_t total)
{
    const char *base = strrchr(name, '/');
    size_t n;
    int fd = err ? fileno(err) : -1;
    memset(p, 0, sizeof(*p));
    /* on a terminal stderr is cli/wrap80.c's stream, which has no descriptor: fd 2's */
    if (fd < 0 && err == stderr)
        fd = STDERR_FILENO;
    if (!err || (!isatty(fd) && !MUTANT(fleet_progress_in_pipes)) || !total)
        return;
    p->out = err;
    p->total = total;
    p->phase = "reading";
    base = base ? base + 1 : name;
    n = strlen(base);
    if (n > 30) {
        /* the end of a long name says more (run ids, dates) than its start; whole characters */
        const char *tail = base + n - 27;
        while ((*tail & 0xc0) == 0x80)
            tail++;
        snprintf(p->name, sizeof(p->name), "...%s", tail);
    } else {
        snprintf(p->name, sizeof(p->name), "%s", base);
    }
    clock_gettime(CLOCK_MONOTONIC, &p->start);
    p->last = p->start;
}

void progress_phase(struct progress *p, const char *phase)
{
    p->phase = phase;
}

void progress_tick(struct progress *p, size_t done)
{
    struct timespec now;
    unsigned pct;
    if (!p->out)
        return;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (since(&p->start, &now) < PROGRESS_EVERY_S || (p->shown && since(&p->last, &now) <
                                                                      PROGRESS_EVERY_S))
        return;
    p->last = now;
    p->shown = true;
    pct = (unsigned)(done >= p->total ? 100 : 100 * done / p->total);
    fputs("\rimporting ", p->out);
    sanitize_fputs(p->name, p->out);
    fprintf(p->out, ": %s %3u%% of %zu points\033[K", p->phase, pct, p->total);
    fflush(p->out);
}

void progress_end(struct progress *p)
{
    if (p->out && p->shown) {
        fputs("\r\033[K", p->out);
        fflush(p->out);
    }
    p->out = NULL;
}
