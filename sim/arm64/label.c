/*
 * The simulation labels (label.h). What the aarch64 writer must print for a
 * run with run->sim set, after which this file's rewriting finds nothing to
 * do (and can go):
 *   a64_verdict:        v->simulated = run->sim != 0 (the line ends [SIMULATED])
 *   a64_report_json:    "simulated": run->sim != 0, and "simulation": the object below
 *                       (null without run->sim)
 *   the recommendations: environment "simulated" when run->sim (before "virtualised"),
 *                       with report_environment_note's note
 */
#include "sim/arm64/label.h"

#include <stdio.h>
#include <string.h>

#include "core/report/arm64/report_a64.h"
#include "core/report/report_common.h"
#include "core/run/verdict.h"

#define VERDICT_WIDTH 80 /* the writer's (report_json_verdict, a64_report_text) */

static void put_str(struct strbuf *sb, const char *s)
{
    sb_puts(sb, "\"");
    for (; s && *s; s++)
        if (*s == '"' || *s == '\\')
            sb_printf(sb, "\\%c", *s);
        else if ((unsigned char)*s >= 0x20)
            sb_printf(sb, "%c", *s);
    sb_puts(sb, "\"");
}

static void simulation_object(const struct a64_simulation *s, struct strbuf *out)
{
    sb_puts(out, "\"simulation\": {\"model\": ");
    put_str(out, s->model);
    sb_printf(out, ", \"model_version\": %u, \"profile\": ", s->model_version);
    put_str(out, s->profile);
    sb_puts(out, ", \"profile_cpu\": ");
    put_str(out, s->profile_cpu);
    sb_printf(out, ", \"seed\": %llu, \"errata\": [], \"id_registers_source\": ", (unsigned long long)s->seed);
    put_str(out, s->id_source);
    sb_puts(out, "}");
}

/* the verdict line as the writer printed it (unlabelled) and as it must read */
static void verdict_lines(const struct arm64_run *run, char *was, char *is, size_t cap)
{
    struct verdict v;
    a64_verdict(run, &v);
    v.simulated = false;
    verdict_line(&v, VERDICT_WIDTH, was, cap);
    v.simulated = true;
    verdict_line(&v, VERDICT_WIDTH, is, cap);
}

struct edit {
    const char *from, *to; /* to NULL: the simulation object */
};

bool a64s_label_json(const struct arm64_run *run, const struct strbuf *in, struct strbuf *out)
{
    char was[REPORT_COMMON_VERDICT_LEN], is[REPORT_COMMON_VERDICT_LEN];
    char line_was[REPORT_COMMON_VERDICT_LEN + 16], line_is[REPORT_COMMON_VERDICT_LEN + 16];
    char note_is[256];
    const char *at = in->data;
    unsigned i;
    if (strstr(in->data, "\"simulated\": true")) { /* the writer labels it itself */
        sb_puts(out, in->data);
        return true;
    }
    verdict_lines(run, was, is, sizeof(was));
    snprintf(line_was, sizeof(line_was), "\"line\": \"%s\"", was);
    snprintf(line_is, sizeof(line_is), "\"line\": \"%s\"", is);
    snprintf(note_is, sizeof(note_is), "\"note\": \"%s\"", report_environment_note("simulated"));
    {
        /* in the order the writer prints them */
        const struct edit edits[] = {
            { line_was, line_is },
            { "\"simulated\": false", "\"simulated\": true" },
            { "\"simulation\": null", NULL },
            { "\"environment\": \"hardware\"", "\"environment\": \"simulated\"" },
            { "\"note\": null", note_is },
        };
        for (i = 0; i < sizeof(edits) / sizeof(edits[0]); i++) {
            const char *hit = strstr(at, edits[i].from);
            if (!hit)
                return false;
            sb_putn(out, at, (size_t)(hit - at));
            if (edits[i].to)
                sb_puts(out, edits[i].to);
            else
                simulation_object(run->sim, out);
            at = hit + strlen(edits[i].from);
        }
    }
    sb_puts(out, at);
    return true;
}

void a64s_label_text(const struct arm64_run *run, struct strbuf *text)
{
    char was[REPORT_COMMON_VERDICT_LEN], is[REPORT_COMMON_VERDICT_LEN];
    char *hit;
    struct strbuf out;
    verdict_lines(run, was, is, sizeof(was));
    hit = strstr(text->data, was);
    if (!hit || strstr(text->data, is) || !sb_init_dynamic(&out, text->len + 64))
        return;
    sb_putn(&out, text->data, (size_t)(hit - text->data));
    sb_puts(&out, is);
    sb_puts(&out, hit + strlen(was));
    sb_reset(text);
    sb_puts(text, out.data);
    sb_release(&out);
}
