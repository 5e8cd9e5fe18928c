#include "reports/tool/validate/diag.h"
#include "reports/tool/model/sanitize.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

void diag_init(struct diag_list *l) { memset(l, 0, sizeof(*l)); }

void diag_free(struct diag_list *l)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        free(l->items[i].path);
        free(l->items[i].text);
    }
    free(l->items);
    diag_init(l);
}

void diag_add(struct diag_list *l, enum diag_level level, const char *path, const char *fmt, ...)
{
    char text[512];
    va_list ap;
    struct diag *d;
    if (level == DIAG_ERROR)
        l->errors++;
    else
        l->warnings++;
    if (l->count >= DIAG_MAX_KEPT) {
        l->dropped++;
        return;
    }
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        struct diag *grown = realloc(l->items, cap * sizeof(*grown));
        if (!grown) {
            l->dropped++;
            return;
        }
        l->items = grown;
        l->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(text, sizeof(text), fmt, ap);
    va_end(ap);
    d = &l->items[l->count];
    d->level = level;
    d->path = strdup(path ? path : "");
    d->text = strdup(text);
    if (!d->path || !d->text) {
        free(d->path);
        free(d->text);
        l->dropped++;
        return;
    }
    l->count++;
}

bool diag_has(const struct diag_list *l, const char *path, const char *needle)
{
    size_t i;
    for (i = 0; i < l->count; i++)
        if ((!path || strcmp(l->items[i].path, path) == 0) && strstr(l->items[i].text, needle))
            return true;
    return false;
}

void diag_print(const struct diag_list *l, const char *file, FILE *out)
{
    size_t i;
    for (i = 0; i < l->count; i++) {
        const struct diag *d = &l->items[i];
        /* paths and messages quote the report (keys, values): escaped, like every view */
        sanitize_fputs(file, out);
        fprintf(out, ": %s", d->level == DIAG_WARNING ? "warning: " : "");
        sanitize_fputs(d->path, out);
        fputs(d->path[0] ? ": " : "", out);
        sanitize_fputs(d->text, out);
        fputc('\n', out);
    }
    if (l->dropped)
        fprintf(out, "%s: ... %zu further problems not shown\n", file, l->dropped);
}
