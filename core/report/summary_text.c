/* The text summary's layout, both architectures': see summary_text.h. */
#include "core/report/summary_text.h"

#include "core/lib/mem.h"
#include "core/mutant.h"
#include "core/report/plan_report.h"

void summary_title(struct strbuf *sb, const char *run_id)
{
    sb_printf(sb, "tlbscope %s (%s)  run %s\n", TLBSCOPE_VERSION, TLBSCOPE_COMMIT, run_id);
}

void summary_line(struct strbuf *sb, const char *label, const char *text)
{
    char first[16];
    fmt_into(first, sizeof(first), "%-10s", label);
    sb_wrapped(sb, first, 10, text, 80);
}

void summary_simulated_head(struct strbuf *sb, const char *model, uint32_t version,
                            const char *profile, uint64_t seed)
{
    sb_printf(sb, "SIMULATED tlbscope-sim on the %s (version %u)\n", model, version);
    sb_printf(sb, "          profile %s, seed %llu", profile, (unsigned long long)seed);
}

/* Under its row, a cut grid (issue 32): "    SUCCESS (reduced: 5 of 22 page counts)". */
static void write_status_detail(struct strbuf *sb, const struct experiment_record *e)
{
    char detail[160], line[200];
    if (!plan_status_detail(&e->plan, detail, sizeof(detail)))
        return;
    fmt_into(line, sizeof(line), "%s (%s)", result_name(e->status), detail);
    sb_put_wrapped(sb, "    ", "      ", line, 80);
}

/* Which experiments run_budget_s made smaller, and to what (core/run/plan.h). */
static void write_plans(struct strbuf *sb, const struct experiment_record *exps, uint32_t count,
                        uint32_t run_budget_s)
{
    uint32_t i;
    bool any = false;
    for (i = 0; i < count; i++)
        any |= exps[i].ran && exps[i].plan.applied && exps[i].plan.reasons;
    if (!any)
        return;
    sb_printf(sb, "\nPlanned to fit run_budget_s=%u (measuring time of the whole run):\n",
              run_budget_s);
    for (i = 0; i < count; i++)
        if (exps[i].ran)
            plan_write_text(sb, exps[i].id, &exps[i].plan);
}

void summary_experiment_table(struct strbuf *sb, const struct experiment_record *exps,
                              uint32_t count, const struct summary_tags *tags,
                              uint32_t run_budget_s)
{
    uint32_t i;
    sb_printf(sb, "\n%-26s %-8s %6s %8s %6s  %s\n", "Experiment", "Status", "Points", "Checks",
              "Stale", "Reason / notes");
    for (i = 0; i < count; i++) {
        const struct experiment_record *e = &exps[i];
        if (!e->ran || (MUTANT(table_skips_skip_rows) && e->status == RESULT_SKIP))
            continue;
        const char *row_tags[3] = { tags->simulated ? "[SIMULATED]" : NULL,
                                    e->emulated || tags->emulated ? "[EMULATED]" : NULL,
                                    e->partial ? "[PARTIAL]" : NULL };
        const char *sep = "  ";
        uint32_t t;
        size_t row_start = sb->len;
        sb_printf(sb, "%-26s %-8s %6u %8llu %6llu", e->id, result_name(e->status),
                  e->results.count, (unsigned long long)e->verification.checks,
                  (unsigned long long)e->verification.stale_reads);
        for (t = 0; t < 3; t++) {
            if (row_tags[t]) {
                sb_printf(sb, "%s%s", sep, row_tags[t]);
                sep = " ";
            }
        }
        /* 80 columns (the UEFI console): a reason that does not fit goes below, wrapped */
        if (e->reason[0] && sb->len - row_start + str_len(sep) + str_len(e->reason) > 80) {
            sb_putc(sb, '\n');
            sb_put_wrapped(sb, "    ", "    ", e->reason, 80); /* ends the line */
        } else {
            if (e->reason[0])
                sb_printf(sb, "%s%s", sep, e->reason);
            sb_putc(sb, '\n');
        }
        write_status_detail(sb, e);
    }
    write_plans(sb, exps, count, run_budget_s);
}

void summary_experiment_head(struct strbuf *sb, const struct experiment_record *e,
                             const struct summary_tags *tags)
{
    char head[96];
    fmt_into(head, sizeof(head), "\n%s%s%s: ", e->id, tags->simulated ? " [SIMULATED]" : "",
             e->emulated || tags->emulated ? " [EMULATED]" : "");
    /* a long title wraps under it (the newline counts 1) */
    sb_put_wrapped(sb, head, "  ", e->title, 81);
}

static void write_msgs(struct strbuf *sb, const char *heading, const struct msg_list *l)
{
    uint32_t i;
    if (!l->count)
        return;
    sb_printf(sb, "\n%s:\n", heading);
    for (i = 0; i < l->count; i++)
        sb_printf(sb, "  %s: %s\n", l->items[i].where, l->items[i].text);
}

void summary_verdict(struct strbuf *sb, const struct verdict *v)
{
    char line[256]; /* the verdict with its not-applicable ids */
    verdict_line(v, 80, line, sizeof(line));
    sb_puts(sb, line);
}

void summary_end(struct strbuf *sb, const struct msg_list *errors, const struct msg_list *warnings,
                 bool partial, uint64_t duration_ms, const struct verdict *v)
{
    write_msgs(sb, "Errors", errors);
    write_msgs(sb, "Warnings", warnings);
    sb_printf(sb, "\nRun %s in %llu.%03llu s\n", partial ? "partial" : "complete",
              (unsigned long long)(duration_ms / 1000), (unsigned long long)(duration_ms % 1000));
    summary_verdict(sb, v);
    sb_putc(sb, '\n');
}
