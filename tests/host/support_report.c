#include "tests/host/support_report.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "core/report/report.h"
#include "core/lib/strbuf.h"

json_t *support_report_json(const struct run *r, char **text)
{
    struct strbuf sb;
    json_error_t err;
    json_t *root;
    assert_true(sb_init_dynamic(&sb, 4096));
    assert_true(report_write_json(r, &sb));
    root = json_loads(sb.data, 0, &err);
    if (!root)
        fail_msg("the report does not parse: %s", err.text);
    if (text)
        *text = strdup(sb.data);
    sb_release(&sb);
    return root;
}

char *support_report_text(const struct run *r)
{
    struct strbuf sb;
    char *t;
    assert_true(sb_init_dynamic(&sb, 4096));
    report_write_text(r, &sb);
    t = strdup(sb.data);
    sb_release(&sb);
    return t;
}
