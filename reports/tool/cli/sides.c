#include "reports/tool/cli/sides.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "reports/tool/cli/load_report.h"
#include "reports/tool/model/exit_status.h"
#include "reports/tool/cli/side_names.h"
#include "reports/tool/model/inputs.h"
#include "reports/tool/model/jget.h"

#define PREFIX "tlbscope-report: "
#define OWN_SIDE ((size_t)-1) /* a report of a plain FILE or DIR operand: a side of its own */

struct loading {
    struct m_report **all;
    size_t *pool; /* operand pool number: reports of one A=... operand share it */
    char (*name)[SIDE_NAME_MAX + 1]; /* the NAME of its NAME=... operand, or "" */
    size_t n, cap;
    char cur_name[SIDE_NAME_MAX + 1]; /* the operand being loaded's */
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
        {
            char (*nm)[SIDE_NAME_MAX + 1] = realloc(l->name, cap * sizeof(*nm));
            if (!nm)
                return false;
            l->name = nm;
        }
        l->cap = cap;
    }
    l->all[l->n] = r;
    memcpy(l->name[l->n], l->cur_name, sizeof(l->cur_name));
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
    l->cur_name[0] = '\0';
    if (!list)
        return load_path((char *)arg, OWN_SIDE, l, err);
    if (!side_name_valid(arg, (size_t)(list - 1 - arg))) {
        fprintf(err, PREFIX "%s: a side's name (before '=') is 1 to %d letters, digits, '.', "
                "'_', '+' or '-'\n", arg, SIDE_NAME_MAX);
        return EXIT_USAGE;
    }
    memcpy(l->cur_name, arg, (size_t)(list - 1 - arg));
    l->cur_name[list - 1 - arg] = '\0';
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

/*
 * Each side's name (side_names.h): its operand's NAME, else the short CPU
 * name of its first report, else its letter; "_2", "_3" after a name an
 * earlier side has. `given` holds each report's NAME ("" for none).
 */
static void side_name(const struct side_set *s, char (*given)[SIDE_NAME_MAX + 1], size_t side,
                      char *buf, size_t cap)
{
    size_t r;
    buf[0] = '\0';
    for (r = 0; r < s->nall && !buf[0]; r++)
        if (s->side_of[r] == side && given[r][0])
            snprintf(buf, cap, "%s", given[r]);
    for (r = 0; r < s->nall && !buf[0]; r++)
        if (s->side_of[r] == side)
            side_cpu_name(s->all[r], buf, cap);
    if (!buf[0])
        snprintf(buf, cap, "%c", (char)('A' + side % 26));
}

static void label(struct side_set *s, char (*given)[SIDE_NAME_MAX + 1])
{
    size_t i, j, k, *runs = calloc(s->nsides ? s->nsides : 1, sizeof(*runs));
    char (*names)[SIDE_NAME_MAX + 5] = calloc(s->nsides ? s->nsides : 1, sizeof(*names));
    if (names) {
        for (i = 0; i < s->nsides; i++) {
            char base[SIDE_NAME_MAX + 1];
            bool taken = true;
            side_name(s, given, i, base, sizeof(base));
            snprintf(names[i], sizeof(names[i]), "%s", base);
            for (k = 2; taken && k < 100; k++) {
                for (j = 0, taken = false; j < i && !taken; j++)
                    taken = strcmp(names[j], names[i]) == 0;
                if (taken)
                    snprintf(names[i], sizeof(names[i]), "%s_%zu", base, k);
            }
        }
    }
    for (i = 0; i < s->nall; i++) {
        size_t side = s->side_of[i], n = runs ? ++runs[side] : 1;
        char letter[2] = { (char)('A' + side % 26), '\0' };
        const char *name = names ? names[side] : letter;
        if (n == 1)
            snprintf(s->all[i]->label, sizeof(s->all[i]->label), "%s", name);
        else
            snprintf(s->all[i]->label, sizeof(s->all[i]->label), "%s#%zu", name, n % 100);
    }
    free(names);
    free(runs);
}

/* Stable: reports keep input order within a side, sides ordered by number; `given` follows. */
static void order_by_side(struct side_set *s, char (*given)[SIDE_NAME_MAX + 1])
{
    size_t i, j;
    for (i = 1; i < s->nall; i++) {
        struct m_report *r = s->all[i];
        size_t side = s->side_of[i];
        char name[SIDE_NAME_MAX + 1];
        memcpy(name, given[i], sizeof(name));
        for (j = i; j > 0 && s->side_of[j - 1] > side; j--) {
            s->all[j] = s->all[j - 1];
            s->side_of[j] = s->side_of[j - 1];
            memcpy(given[j], given[j - 1], sizeof(name));
        }
        s->all[j] = r;
        s->side_of[j] = side;
        memcpy(given[j], name, sizeof(name));
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
        if (base == (size_t)-1) { /* not an operand: a side of its own, the last column */
            struct m_report *r = commands_load_report(baseline, err);
            l.cur_name[0] = '\0';
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
    if (rc == EXIT_VALID && out->nsides > max_sides) {
        fprintf(err, PREFIX "%zu reports (or pooled sides) given; at most %zu can be shown "
                "together (pool runs of one machine with --group or A=a1.json,a2.json)\n",
                out->nsides, max_sides);
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_VALID) {
        free(l.name);
        sides_free(out);
        return rc;
    }
    /* --baseline divides by that side; the columns keep the operands' order */
    out->baseline = base != (size_t)-1 ? out->side_of[base] : 0;
    order_by_side(out, l.name);
    label(out, l.name);
    free(l.name);
    return EXIT_VALID;
}

void sides_model_key(const struct m_report *r, char *buf, size_t cap)
{
    /* the CPU model as the atlas keys it: vendor and brand (aarch64: the MIDR), and whether
     * it was simulated (a model's numbers are never pooled with a machine's) */
    snprintf(buf, cap, "%s|%s|%s|%d", r->vendor ? r->vendor : "", r->brand ? r->brand : "",
             r->aarch64 && r->midr ? r->midr : "", r->simulated);
}

int sides_pool_models(struct side_set *s, size_t max_sides, FILE *err)
{
    char (*keys)[320] = calloc(s->nall ? s->nall : 1, sizeof(*keys));
    char (*given)[SIDE_NAME_MAX + 1] = calloc(s->nall ? s->nall : 1, sizeof(*given));
    size_t i, j;
    if (!keys || !given) {
        free(keys);
        free(given);
        fprintf(err, PREFIX "out of memory\n");
        return EXIT_INVALID;
    }
    /* in the operands' order: a model's side comes where its first report came */
    s->nsides = 0;
    for (i = 0; i < s->nall; i++) {
        sides_model_key(s->all[i], keys[i], sizeof(keys[i]));
        for (j = 0; j < i && strcmp(keys[i], keys[j]) != 0; j++)
            ;
        s->side_of[i] = j < i ? s->side_of[j] : s->nsides++;
    }
    free(keys);
    if (s->nsides > max_sides) {
        fprintf(err, PREFIX "%zu reports of %zu CPU models given; at most %zu models can be "
                "shown together\n", s->nall, s->nsides, max_sides);
        free(given);
        return EXIT_USAGE;
    }
    s->baseline = 0;
    order_by_side(s, given);
    label(s, given); /* each side the model's short CPU name; its runs NAME#2, NAME#3 */
    free(given);
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
