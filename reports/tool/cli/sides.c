#include "reports/tool/cli/sides.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/tool/cli/commands.h"
#include "reports/tool/model/inputs.h"
#include "reports/tool/model/jget.h"

#define PREFIX "tlbscope-report: "
#define OWN_SIDE ((size_t)-1) /* a report of a plain FILE or DIR operand: a side of its own */

struct loading {
    struct m_report **all;
    size_t *pool; /* operand pool number: reports of one A=... operand share it */
    size_t n, cap;
};

static bool push(struct loading *l, struct m_report *r, size_t pool)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        struct m_report **a = realloc(l->all, cap * sizeof(*a));
        size_t *p;
        if (!a)
            return false;
        l->all = a;
        if (!(p = realloc(l->pool, cap * sizeof(*p))))
            return false;
        l->pool = p;
        l->cap = cap;
    }
    l->all[l->n] = r;
    l->pool[l->n++] = pool;
    return true;
}

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One FILE or DIR: a named file must load; a directory's bad files are skipped. */
static int load_path(char *path, size_t pool, struct loading *l, FILE *err)
{
    struct input_list in;
    bool dir = is_dir(path);
    size_t i, before = l->n;
    if (!inputs_expand(&path, 1, true, &in, err)) {
        inputs_free(&in);
        return EXIT_INVALID;
    }
    for (i = 0; i < in.n; i++) {
        struct m_report *r = commands_load_report(in.paths[i], err);
        if (!r && !dir) {
            inputs_free(&in);
            return EXIT_INVALID;
        }
        if (!r) {
            fprintf(err, PREFIX "%s: skipped (not a readable report); the rest of %s is used\n",
                    in.paths[i], path);
            continue;
        }
        if (!push(l, r, pool)) {
            model_free(r);
            inputs_free(&in);
            fprintf(err, PREFIX "out of memory\n");
            return EXIT_INVALID;
        }
    }
    inputs_free(&in);
    if (l->n == before) {
        fprintf(err, PREFIX "%s: no readable report in it\n", path);
        return EXIT_INVALID;
    }
    return EXIT_VALID;
}

/* "A=f1,f2": the list after '=' when `arg` is not an existing path; else NULL. */
static const char *pool_list(const char *arg)
{
    const char *eq = strchr(arg, '=');
    struct stat st;
    if (!eq || eq == arg || stat(arg, &st) == 0)
        return NULL;
    return eq + 1;
}

static int load_operand(const char *arg, size_t pool, struct loading *l, FILE *err)
{
    const char *list = pool_list(arg);
    char *copy, *save = NULL, *tok;
    int rc = EXIT_VALID;
    if (!list)
        return load_path((char *)arg, OWN_SIDE, l, err);
    if (!*list || strspn(list, ",") == strlen(list)) {
        fprintf(err, PREFIX "%s: no files after '=' (A=a1.json,a2.json pools runs)\n", arg);
        return EXIT_USAGE;
    }
    if (!(copy = strdup(list)))
        return EXIT_INVALID;
    for (tok = strtok_r(copy, ",", &save); tok && rc == EXIT_VALID;
         tok = strtok_r(NULL, ",", &save))
        rc = load_path(tok, pool, l, err);
    free(copy);
    return rc;
}

void sides_group_key(const struct m_report *r, char *buf, size_t cap)
{
    char name[200];
    const json_t *samples = jget_path(r->root, "method.samples");
    snprintf(buf, cap, "%s|%s|%s|%lld|%s|%lld|%s|%s|%s",
             r->machine_key ? r->machine_key : model_machine_name(r, name, sizeof(name)),
             r->brand ? r->brand : "", r->hypervisor ? r->hypervisor : "", r->cpu_count,
             r->profile ? r->profile : "", samples ? (long long)json_number_value(samples) : -1,
             r->apic_mode ? r->apic_mode : "", r->full_flush ? r->full_flush : "",
             r->simulated ? (r->sim.profile ? r->sim.profile : "sim") : "");
}

static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (strcmp(a, b) == 0)
        return true;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* Sides from pools (or --group keys), numbered in order of first appearance. */
static bool assign_sides(struct loading *l, bool group, size_t *side_of, size_t *nsides)
{
    char (*keys)[512] = NULL;
    size_t i, j;
    if (group && !(keys = calloc(l->n ? l->n : 1, sizeof(*keys))))
        return false;
    *nsides = 0;
    for (i = 0; i < l->n; i++) {
        if (group)
            sides_group_key(l->all[i], keys[i], sizeof(keys[i]));
        for (j = 0; j < i; j++)
            if (group ? strcmp(keys[i], keys[j]) == 0
                      : l->pool[i] != OWN_SIDE && l->pool[i] == l->pool[j])
                break;
        side_of[i] = j < i ? side_of[j] : (*nsides)++;
    }
    free(keys);
    return true;
}

/* Moves side `first` to the front: 0, and every side before it one up. */
static void baseline_first(size_t *side_of, size_t n, size_t first)
{
    size_t i;
    for (i = 0; i < n; i++)
        side_of[i] = side_of[i] == first ? 0 : side_of[i] < first ? side_of[i] + 1 : side_of[i];
}

static void label(struct side_set *s)
{
    size_t i, *runs = calloc(s->nsides ? s->nsides : 1, sizeof(*runs));
    for (i = 0; i < s->nall; i++) {
        size_t k = runs ? ++runs[s->side_of[i]] : 1;
        char letter = (char)('A' + (s->side_of[i] % 26));
        if (k == 1)
            snprintf(s->all[i]->label, sizeof(s->all[i]->label), "%c", letter);
        else
            snprintf(s->all[i]->label, sizeof(s->all[i]->label), "%c%zu", letter, k % 100);
    }
    free(runs);
}

/* Stable: reports keep input order within a side, sides ordered by number. */
static void order_by_side(struct side_set *s)
{
    size_t i, j;
    for (i = 1; i < s->nall; i++) {
        struct m_report *r = s->all[i];
        size_t side = s->side_of[i];
        for (j = i; j > 0 && s->side_of[j - 1] > side; j--) {
            s->all[j] = s->all[j - 1];
            s->side_of[j] = s->side_of[j - 1];
        }
        s->all[j] = r;
        s->side_of[j] = side;
    }
}

int sides_load(char *const *args, size_t nargs, const char *baseline, bool group, size_t max_sides,
               struct side_set *out, FILE *err)
{
    struct loading l = { 0 };
    size_t i, base = (size_t)-1;
    int rc = EXIT_VALID;
    memset(out, 0, sizeof(*out));
    for (i = 0; i < nargs && rc == EXIT_VALID; i++)
        rc = load_operand(args[i], i, &l, err);
    if (rc == EXIT_VALID && baseline) {
        for (i = 0; i < l.n && base == (size_t)-1; i++)
            if (same_file(l.all[i]->path, baseline))
                base = i;
        if (base == (size_t)-1) {
            struct m_report *r = commands_load_report(baseline, err);
            if (!r)
                rc = EXIT_INVALID;
            else if (!push(&l, r, OWN_SIDE))
                rc = EXIT_INVALID;
            else
                base = l.n - 1;
        }
    }
    if (rc == EXIT_VALID && !(out->side_of = calloc(l.n ? l.n : 1, sizeof(*out->side_of))))
        rc = EXIT_INVALID;
    if (rc == EXIT_VALID && !assign_sides(&l, group, out->side_of, &out->nsides))
        rc = EXIT_INVALID;
    out->all = l.all;
    out->nall = l.n;
    free(l.pool);
    if (rc != EXIT_VALID) {
        sides_free(out);
        return rc;
    }
    if (out->nsides > max_sides) {
        fprintf(err, PREFIX "%zu reports (or pooled sides) given; at most %zu can be shown "
                "together (pool runs of one machine with --group or A=a1.json,a2.json)\n",
                out->nsides, max_sides);
        sides_free(out);
        return EXIT_USAGE;
    }
    if (base != (size_t)-1)
        baseline_first(out->side_of, out->nall, out->side_of[base]);
    order_by_side(out);
    label(out);
    return EXIT_VALID;
}

void sides_free(struct side_set *s)
{
    size_t i;
    for (i = 0; i < s->nall; i++)
        model_free(s->all[i]);
    free(s->all);
    free(s->side_of);
    memset(s, 0, sizeof(*s));
}
