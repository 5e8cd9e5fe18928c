/*
 * Loading one report for a view (show, compare, html and the sides they
 * compare, reports/tool/cli/sides.c): read, validate, sanitize and model it,
 * or say on `err` why not. In a file of its own so that commands.c and
 * sides.c both call it and neither calls the other back.
 */
#include "reports/tool/cli/load_report.h"

#include "core/mutant.h"

#include <stdlib.h>

#include "reports/tool/model/load.h"
#include "reports/tool/model/sanitize.h"
#include "reports/tool/validate/diag.h"
#include "reports/tool/validate/validate.h"

#define PREFIX "tlbscope-report: "

struct m_report *commands_load_report(const char *real_path, FILE *err)
{
    struct load_result lr;
    struct diag_list d;
    struct m_report *r;
    char *safe = sanitize_text(real_path);
    const char *path = safe ? safe : real_path; /* the name as printed */
    load_file(real_path, &lr);
    if (lr.status != LOAD_OK) {
        fprintf(err, PREFIX "%s: %s\n", path, lr.message);
        free(safe);
        return NULL;
    }
    diag_init(&d);
    if (validate_report(lr.root, &d)) {
        const struct diag *first = NULL;
        size_t i;
        for (i = 0; i < d.count && !first; i++)
            if (d.items[i].level == DIAG_ERROR)
                first = &d.items[i];
        /* exit status 1, as the help says: a view of a broken report ("-1 CPUs") misleads */
        bool go_on = MUTANT(invalid_report_shown);
        fprintf(err, PREFIX "%s%s: not a valid report (%zu error%s%s%s%s%s)%s (`tlbscope-report "
                "validate` lists every problem)\n", go_on ? "warning: " : "", path, d.errors,
                d.errors == 1 ? "" : "s", first ? ", first: " : "", first ? first->path : "",
                first && first->path[0] ? ": " : "", first ? first->text : "",
                go_on ? "; showing what can be read" : "");
        if (!go_on) {
            diag_free(&d);
            load_release(&lr);
            free(safe);
            return NULL;
        }
    }
    diag_free(&d);
    /* from here on the views print the document: no control character reaches a terminal */
    if (!lr.no_controls)
        sanitize_json(lr.root);
    r = model_build(lr.root, path); /* takes the document */
    if (!r)
        fprintf(err, PREFIX "%s: out of memory\n", path);
    free(safe);
    return r;
}
