/*
 * "verdict" (core/run/verdict.h): optional, since reports of tool version 0.1.0
 * before issue 23 lack it. When present, every count and the line must be
 * what the experiments, CPUs and errors of the same report give, and the word
 * must follow the result (SUCCESS and SKIP: COMPLETE). A hand-edited verdict
 * that calls an ERROR run COMPLETE is named here.
 */
#include <string.h>

#include "reports/tool/validate/validate_sections.h"
#include "reports/tool/views/verdict_view.h"

static const char *const verdict_words[] = { "COMPLETE", "ERROR", "FAILURE", NULL };

static void check_count(struct vctx *c, const json_t *obj, const char *key, uint32_t want)
{
    long long got;
    if (vc_int(c, obj, key, 0, 1000000, 0, &got) && got != (long long)want)
        vc_error(c, key, "%lld, but the report's experiments, CPUs and errors give %u", got, want);
}

void validate_verdict(struct vctx *c, const json_t *root)
{
    size_t mark;
    struct verdict want;
    char line[256];
    int word;
    const char *got_line;
    const json_t *v = vc_enter(c, root, "verdict", VF_OPTIONAL, &mark);
    if (!v)
        return;
    word = vc_word(c, v, "word", verdict_words, 0);
    got_line = vc_string(c, v, "line", 0);
    if (verdict_of_report(root, &want)) {
        if (word >= 0 && word != (int)want.word)
            vc_error(c, "word", "%s, but result %s makes it %s", verdict_words[word],
                     json_string_value(json_object_get(root, "result")),
                     verdict_word_name(want.word));
        check_count(c, v, "measured", want.measured);
        check_count(c, v, "not_applicable", want.not_applicable);
        check_count(c, v, "inconclusive", want.inconclusive);
        check_count(c, v, "in_error", want.in_error);
        check_count(c, v, "failed", want.failed);
        check_count(c, v, "cpus_dropped", want.cpus_dropped);
        check_count(c, v, "run_errors", want.run_errors);
        verdict_line(&want, 80, line, sizeof(line));
        if (got_line && strcmp(got_line, line) != 0)
            vc_error(c, "line", "\"%s\", but the counts say \"%s\"", got_line, line);
    }
    vc_leave(c, mark);
}
