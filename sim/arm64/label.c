/*
 * The simulation labels (label.h). What the aarch64 writer must print for a
 * run with run->sim set, after which this file finds nothing to do (and can go):
 *   a64_verdict:  v->simulated = run->sim != 0 (the verdict line ends [SIMULATED],
 *                 in the JSON's verdict.line and the text's RESULT line)
 *   write_head:   the simulation object's "errata": [] (the aarch64 model has no
 *                 errata switch) and "id_registers_source": s->id_source
 */
#include "sim/arm64/label.h"

#include <stdio.h>
#include <string.h>

#include "core/report/report_arm64.h"
#include "core/report/report_common.h"
#include "core/run/verdict.h"

#define VERDICT_WIDTH 80 /* the writer's (report_json_verdict, a64_report_text) */

static void put_str(struct strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (; s && *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_putc(sb, '\\');
        if ((unsigned char)*s >= 0x20)
            sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
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

/* key occurs in [from, end) */
static bool has_key(const char *from, const char *end, const char *key)
{
    const char *k = strstr(from, key);
    return k && k < end;
}

/* out += [*at, hit), then `with`; *at past `len` characters of hit */
static void splice(struct strbuf *out, const char **at, const char *hit, size_t len, const char *with)
{
    sb_putn(out, *at, (size_t)(hit - *at));
    sb_puts(out, with);
    *at = hit + len;
}

bool a64s_label_json(const struct arm64_run *run, const struct strbuf *in, struct strbuf *out)
{
    char was[REPORT_COMMON_VERDICT_LEN], is[REPORT_COMMON_VERDICT_LEN];
    char line_was[REPORT_COMMON_VERDICT_LEN + 16], line_is[REPORT_COMMON_VERDICT_LEN + 16];
    const char *at = in->data, *hit, *sim, *end;
    struct strbuf add;
    verdict_lines(run, was, is, sizeof(was));
    snprintf(line_was, sizeof(line_was), "\"line\": \"%s\"", was);
    snprintf(line_is, sizeof(line_is), "\"line\": \"%s\"", is);
    /* the verdict comes first, the simulation object after it (report_doc.c's order) */
    hit = strstr(at, line_was);
    if (hit)
        splice(out, &at, hit, strlen(line_was), line_is);
    sim = strstr(at, "\"simulation\": {");
    end = sim ? strchr(sim, '}') : NULL; /* the object holds no nested object */
    if (!end)
        return false;
    if (!sb_init_dynamic(&add, 512))
        return false;
    if (!has_key(sim, end, "\"errata\""))
        sb_puts(&add, ",\n    \"errata\": []");
    if (!has_key(sim, end, "\"id_registers_source\"")) {
        sb_puts(&add, ",\n    \"id_registers_source\": ");
        put_str(&add, run->sim->id_source);
    }
    /* before the object's last line break, so the writer's layout stays */
    while (end > sim && (end[-1] == ' ' || end[-1] == '\n'))
        end--;
    splice(out, &at, end, 0, add.data);
    sb_release(&add);
    sb_puts(out, at);
    return true;
}

void a64s_label_text(const struct arm64_run *run, struct strbuf *text)
{
    char was[REPORT_COMMON_VERDICT_LEN], is[REPORT_COMMON_VERDICT_LEN];
    const char *at = text->data, *hit;
    struct strbuf out;
    verdict_lines(run, was, is, sizeof(was));
    hit = strstr(text->data, was);
    if (!hit || strstr(text->data, is) || !sb_init_dynamic(&out, text->len + 64))
        return;
    splice(&out, &at, hit, strlen(was), is);
    sb_puts(&out, at);
    sb_reset(text);
    sb_puts(text, out.data);
    sb_release(&out);
}
