#include "core/run/verdict.h"
#include "core/mutant.h"

/* A bounded writer: the host tool and the app share this file, so no strbuf (core/lib/mem.h). */
struct line {
    char *buf;
    size_t cap, len;
};

static void put(struct line *l, const char *s)
{
    for (; *s; s++, l->len++)
        if (l->len + 1 < l->cap)
            l->buf[l->len] = *s;
    if (l->cap)
        l->buf[l->len < l->cap ? l->len : l->cap - 1] = 0;
}

static void put_u32(struct line *l, uint32_t n)
{
    char digits[11];
    unsigned i = sizeof(digits) - 1;
    digits[i] = 0;
    do {
        digits[--i] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    put(l, digits + i);
}

/* ", N what" (or "N what" first), only when N is not 0 */
static void put_count(struct line *l, bool *first, uint32_t n, const char *one, const char *many)
{
    if (!n)
        return;
    put(l, *first ? "" : ", ");
    *first = false;
    put_u32(l, n);
    put(l, " ");
    put(l, n == 1 ? one : many);
}

void verdict_init(struct verdict *v)
{
    struct verdict zero = { 0 };
    *v = zero;
}

void verdict_count(struct verdict *v, enum result status, bool has_points, const char *id)
{
    switch (status) {
    case RESULT_SUCCESS:
        v->measured++;
        break;
    case RESULT_SKIP:
        /* a SKIP after measuring is a check that could not conclude, not one that did not apply */
        if (has_points && !MUTANT(verdict_inconclusive_as_na)) {
            v->inconclusive++;
        } else {
            v->not_applicable++;
            if (id && v->named < VERDICT_MAX_NAMED)
                v->not_applicable_ids[v->named++] = id;
        }
        break;
    case RESULT_ERROR:
        v->in_error++;
        break;
    case RESULT_FAILURE:
        v->failed++;
        break;
    }
}

void verdict_conclude(struct verdict *v, enum result run_result)
{
    if (run_result == RESULT_FAILURE)
        v->word = VERDICT_FAILURE;
    else if (run_result == RESULT_ERROR && !MUTANT(verdict_error_complete))
        v->word = VERDICT_ERROR;
    else
        v->word = VERDICT_COMPLETE;
}

const char *verdict_word_name(enum verdict_word w)
{
    switch (w) {
    case VERDICT_COMPLETE:
        return "COMPLETE";
    case VERDICT_ERROR:
        return "ERROR";
    case VERDICT_FAILURE:
        return "FAILURE";
    }
    return "ERROR";
}

bool verdict_word_parse(const char *s, enum verdict_word *out)
{
    enum verdict_word w;
    for (w = VERDICT_COMPLETE; w <= VERDICT_FAILURE; w++) {
        const char *a = s, *b = verdict_word_name(w);
        while (*a && *a == *b)
            a++, b++;
        if (!*a && !*b) {
            *out = w;
            return true;
        }
    }
    return false;
}

static void put_body(struct line *l, const struct verdict *v, bool with_ids)
{
    bool first = true;
    uint32_t i;
    /* FAILURE leads with what failed: it is the finding the tool exists to report */
    if (v->word == VERDICT_FAILURE)
        put_count(l, &first, v->failed, "failed", "failed");
    if (v->measured || v->word == VERDICT_COMPLETE) {
        put(l, first ? "" : ", ");
        first = false;
        put_u32(l, v->measured);
        put(l, " measured");
    }
    if (v->not_applicable && !MUTANT(verdict_line_drops_na)) {
        put_count(l, &first, v->not_applicable, "not applicable", "not applicable");
        if (v->word == VERDICT_COMPLETE)
            put(l, " to this machine");
        if (with_ids && v->named == v->not_applicable) {
            put(l, " (");
            for (i = 0; i < v->named; i++) {
                put(l, i ? ", " : "");
                put(l, v->not_applicable_ids[i]);
            }
            put(l, ")");
        }
    }
    put_count(l, &first, v->inconclusive, "inconclusive", "inconclusive");
    put_count(l, &first, v->in_error, "in error", "in error");
    if (v->word != VERDICT_FAILURE)
        put_count(l, &first, v->failed, "failed", "failed");
    put_count(l, &first, v->cpus_dropped, "CPU dropped out", "CPUs dropped out");
    put_count(l, &first, v->run_errors, "run error", "run errors");
    /* as the experiment lines: a model's or an emulator's run never reads as a machine's */
    if (v->simulated)
        put(l, " [SIMULATED]");
    if (v->emulated)
        put(l, " [EMULATED]");
    else if (v->virtualised)
        put(l, " [VIRTUALISED]");
}

size_t verdict_line(const struct verdict *v, unsigned width, char *buf, size_t cap)
{
    struct line l = { buf, cap, 0 };
    size_t start;
    static const char *const lead[] = { "COMPLETE: ", "ERROR (incomplete): ",
                                        "FAILURE (a finding): " };
    put(&l, lead[v->word <= VERDICT_FAILURE ? v->word : VERDICT_ERROR]);
    start = l.len;
    put_body(&l, v, true);
    if (l.len > width) {
        /* the ids do not fit: the experiment table above names them */
        l.len = start;
        if (cap)
            buf[start < cap ? start : cap - 1] = 0;
        put_body(&l, v, false);
    }
    return l.len;
}
