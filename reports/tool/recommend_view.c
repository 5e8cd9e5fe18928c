#include "reports/tool/recommend_view.h"

#include <string.h>

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

static const json_t *entries(const struct m_report *r)
{
    return json_object_get(json_object_get(r->root, "recommendations"), "entries");
}

/* One entry in a line: verdict, confidence or why, Linux's default, label. */
static void entry_line(const json_t *e, FILE *out)
{
    const char *env = str(e, "environment");
    bool enough = strcmp(str(e, "status"), "recommended") == 0;
    fprintf(out, "%s", str(e, "verdict"));
    if (enough)
        fprintf(out, " [confidence %s]", str(e, "confidence"));
    else
        fprintf(out, " (%s)", str(e, "why"));
    if (json_is_string(json_object_get(e, "linux_default")))
        fprintf(out, "; Linux: %s", str(e, "linux_default"));
    if (*env && strcmp(env, "hardware") != 0)
        fprintf(out, " [%s: does not describe hardware]", env);
    fputc('\n', out);
}

void recommend_view_show(const struct m_report *r, FILE *out)
{
    const json_t *list = entries(r), *e;
    const json_t *recs = json_object_get(r->root, "recommendations");
    size_t i;
    if (!json_is_array(list))
        return;
    fprintf(out, "\nWhat this machine suggests");
    if (json_is_string(json_object_get(recs, "note")))
        fprintf(out, " [%s]", str(recs, "note"));
    fprintf(out, ":\n");
    json_array_foreach(list, i, e) {
        fprintf(out, "  %-16s ", str(e, "id"));
        entry_line(e, out);
    }
}

static const json_t *entry(const struct m_report *r, const char *id)
{
    const json_t *list = entries(r), *e;
    size_t i;
    json_array_foreach(list, i, e)
        if (strcmp(str(e, "id"), id) == 0)
            return e;
    return NULL;
}

void recommend_view_compare(struct m_report *const *reports, size_t n, FILE *out)
{
    static const char *const ids[] = { "flush_ceiling", "invlpgb_vs_ipi", "shootdown_order",
                                       "lazy_skip", "pti_user_flush", NULL };
    size_t i, k, any = 0;
    for (i = 0; i < n; i++)
        any += json_is_array(entries(reports[i]));
    if (!any)
        return;
    fprintf(out, "\nRecommendations, side by side:\n");
    for (k = 0; ids[k]; k++) {
        fprintf(out, "  %s\n", ids[k]);
        for (i = 0; i < n; i++) {
            const json_t *e = entry(reports[i], ids[k]);
            fprintf(out, "    %s: ", reports[i]->label);
            if (!e)
                fprintf(out, "not in this report (schema version %s)\n",
                        json_is_array(entries(reports[i])) ? "2" : "1: no recommendations");
            else
                entry_line(e, out);
        }
    }
}
