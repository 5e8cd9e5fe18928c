/*
 * libFuzzer target for tlbscope-report: bytes go through the code path the
 * CLI takes for a report file (load, schema check, model) and then through
 * every view built from it (show, compare in three formats, html), so a
 * crafted report on a USB stick can crash or leak none of them. Then redact:
 * its copy must load again, and redacting the copy must change no byte.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/tool/compare/report_json.h"
#include "reports/tool/compare/compare.h"
#include "reports/tool/compare/compare_csv.h"
#include "reports/tool/model/sanitize.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/html/html.h"
#include "reports/tool/model/json_fast.h"
#include "reports/tool/model/load.h"
#include "reports/tool/model/model.h"
#include "reports/tool/redact/redact.h"
#include "reports/tool/show/show.h"
#include "reports/tool/validate/validate.h"
#include "tests/host/json_same_tree.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink(void)
{
    static FILE *f;
    if (!f)
        f = fopen("/dev/null", "w");
    return f;
}

/* A redacted copy loads, and its own redaction is the same bytes (tokens are recognised). */
static void check_redaction(const uint8_t *data, size_t size, const json_t *root)
{
    static unsigned char key_bytes[] = "fuzz-key";
    struct redact_key key = { key_bytes, sizeof(key_bytes) - 1, true };
    struct redact_result once, twice;
    struct load_result again;
    if (!redact_report((const char *)data, size, root, &key, &once))
        abort(); /* only out of memory may fail, and the fuzzer's inputs are small */
    load_buffer(once.text, once.len, &again);
    if (again.status != LOAD_OK)
        abort();
    if (!redact_report(once.text, once.len, again.root, &key, &twice) || twice.changed ||
        twice.len != once.len || memcmp(twice.text, once.text, once.len) != 0)
        abort();
    redact_result_free(&twice);
    load_release(&again);
    redact_result_free(&once);
}

/* What the fast JSON path accepts, jansson accepts too, as the same document. */
static void check_fast_path(const uint8_t *data, size_t size)
{
    bool controls;
    json_t *fast = json_fast_parse((const char *)data, size, &controls);
    json_t *slow = fast ? json_loadb((const char *)data, size, JSON_REJECT_DUPLICATES, NULL) : NULL;
    if (fast && (!slow || !json_same_tree(fast, slow)))
        abort();
    /* none seen: sanitize_json, which the CLI then skips, would change nothing */
    if (fast && !controls && (!sanitize_json(slow) || !json_same_tree(fast, slow)))
        abort();
    json_decref(fast);
    json_decref(slow);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct load_result lr;
    struct diag_list d;
    struct m_report *r, *pair[2];
    struct cmp_model m;
    FILE *out = sink();
    if (!out)
        return 0;
    check_fast_path(data, size);
    load_buffer(data, size, &lr);
    if (lr.status != LOAD_OK)
        return 0;
    diag_init(&d);
    validate_report(lr.root, &d);
    diag_print(&d, "fuzz.json", out);
    diag_free(&d);
    check_redaction(data, size, lr.root);
    sanitize_json(lr.root); /* as commands_load_report does before any view */
    r = model_build(lr.root, "fuzz.json"); /* takes the document */
    if (!r)
        return 0;
    show_report(r, out);
    json_decref(report_json_show(r));
    /* the same report twice: compare aligns every point with itself */
    pair[0] = pair[1] = r;
    if (compare_build(pair, 2, &m)) {
        compare_print(&m, out, TABLE_TEXT);
        compare_print(&m, out, TABLE_CSV);
        compare_print(&m, out, TABLE_MARKDOWN);
        compare_free(&m);
    }
    /* pooled: the report as two runs of the baseline side and one of the other (spread, roles) */
    {
        struct m_report *three[3] = { r, r, r };
        static const size_t side_of[3] = { 0, 0, 1 };
        struct cmp_options opts = { .sort_ratio = true, .only_differences = true,
                                    .fail_if_slower = 5.0, .threshold = CMP_DEFAULT_THRESHOLD,
                                    .align_defaults = true };
        if (compare_build_pooled(three, side_of, 3, 2, &opts, &m)) {
            json_t *doc = report_json_compare(&m, compare_disjoint_pairs(&m, out, false), 0, 0);
            json_decref(doc);
            compare_print(&m, out, TABLE_TEXT);
            compare_csv_print(&m, out);
            compare_slower_points(&m, 5.0, out);
            compare_free(&m);
        }
    }
    html_render(out, pair, 2);
    model_free(r);
    return 0;
}
