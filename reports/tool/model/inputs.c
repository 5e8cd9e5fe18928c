#include "reports/tool/model/inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool push(struct input_list *l, const char *dir, const char *name)
{
    size_t len = strlen(name) + (dir ? strlen(dir) + 1 : 0) + 1;
    char *p;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char **grown = realloc(l->paths, cap * sizeof(*grown));
        if (!grown)
            return false;
        l->paths = grown;
        l->cap = cap;
    }
    if (!(p = malloc(len)))
        return false;
    if (dir) {
        size_t dl = strlen(dir);
        bool slash = dl && dir[dl - 1] == '/';
        snprintf(p, len, "%s%s%s", dir, slash ? "" : "/", name);
    } else {
        snprintf(p, len, "%s", name);
    }
    l->paths[l->n++] = p;
    return true;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_json_name(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0 && name[0] != '.';
}

static bool expand_dir(const char *dir, bool skip_latest, struct input_list *out, FILE *err)
{
    DIR *d = opendir(dir);
    struct dirent *ent;
    size_t first = out->n;
    if (!d) {
        fprintf(err, "tlbscope-report: %s: cannot read directory: %s\n", dir, strerror(errno));
        return false;
    }
    while ((ent = readdir(d))) {
        if (!is_json_name(ent->d_name) || (skip_latest && strcmp(ent->d_name, "latest.json") == 0))
            continue;
        if (!push(out, dir, ent->d_name)) {
            closedir(d);
            fprintf(err, "tlbscope-report: out of memory\n");
            return false;
        }
    }
    closedir(d);
    if (out->n == first) {
        fprintf(err, "tlbscope-report: %s: no *.json reports in this directory\n", dir);
        return false;
    }
    qsort(out->paths + first, out->n - first, sizeof(*out->paths), cmp_str);
    return true;
}

bool inputs_expand(char *const *args, size_t nargs, bool skip_latest, struct input_list *out,
                   FILE *err)
{
    struct stat st;
    size_t i;
    bool ok = true;
    memset(out, 0, sizeof(*out));
    for (i = 0; i < nargs; i++) {
        if (stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            ok &= expand_dir(args[i], skip_latest, out, err);
        } else if (!push(out, NULL, args[i])) {
            fprintf(err, "tlbscope-report: out of memory\n");
            ok = false;
        }
    }
    return ok;
}

void inputs_free(struct input_list *l)
{
    size_t i;
    for (i = 0; i < l->n; i++)
        free(l->paths[i]);
    free(l->paths);
    memset(l, 0, sizeof(*l));
}
