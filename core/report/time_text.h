/*
 * Times for the text summary: the report keeps TSC ticks, a reader wants
 * time. ns, us or ms rounded to the digit shown, and the run's prose (the
 * recommendations' verdicts, written in ticks) with each tick count given as
 * time, the ticks beside it, as tlbscope-report's views print them
 * (reports/tool/views/recommend_view.c).
 */
#ifndef TLBSCOPE_CORE_REPORT_TIME_TEXT_H
#define TLBSCOPE_CORE_REPORT_TIME_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "core/lib/strbuf.h"

/* Ticks to nanoseconds at tsc_hz (0: 0). */
uint64_t ticks_to_ns(uint64_t ticks, uint64_t tsc_hz);
/* "9999 ns", "34.9 us", "100 us", "12.3 ms", "1500 ms": one decimal below 100 of a unit. */
void time_text(uint64_t ns, char *buf, size_t cap);
/*
 * Appends `text` with every "N ticks" as "T (N ticks)" and every "A to B
 * ticks" as "TA to TB (A to B ticks)", a "/page" after "ticks" kept on both
 * ("T/page (N ticks/page)"). Without a TSC rate (0) the text as it is.
 */
void prose_ticks_as_time(struct strbuf *sb, const char *text, uint64_t tsc_hz);

#endif
