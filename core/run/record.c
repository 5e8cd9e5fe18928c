#include "core/run/record.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/machine/placement.h"

bool point_list_reserve(struct point_list *l, uint32_t capacity)
{
    struct result_point *grown;
    if (capacity <= l->capacity)
        return true;
    grown = mem_zalloc((size_t)capacity * sizeof(*grown));
    if (!grown)
        return false;
    if (l->count)
        mem_copy(grown, l->items, (size_t)l->count * sizeof(*grown));
    mem_free(l->items);
    l->items = grown;
    l->capacity = capacity;
    return true;
}

void point_list_release(struct point_list *l)
{
    mem_free(l->items);
    l->items = NULL;
    l->count = l->capacity = 0;
}

struct result_point *point_list_add(struct point_list *l)
{
    struct result_point *p;
    if (l->count >= l->capacity)
        return NULL;
    p = &l->items[l->count++];
    mem_zero(p, sizeof(*p));
    return p;
}

bool record_reserve_kept(struct experiment_record *r, uint32_t points, uint32_t samples)
{
    uint64_t want = (uint64_t)points * (samples < RECORD_KEEP_MAX ? samples : RECORD_KEEP_MAX);
    if (want <= r->kept.capacity)
        return true;
    mem_free(r->kept.values);
    r->kept.used = r->kept.capacity = 0;
    r->kept.values = mem_alloc((size_t)(want ? want : 1) * sizeof(uint64_t));
    if (!r->kept.values)
        return false;
    r->kept.capacity = want;
    return true;
}

uint32_t record_paired_run(struct experiment_record *r)
{
    return ++r->kept.runs;
}

void point_keep_samples(struct experiment_record *r, struct result_point *p, const uint64_t *values,
                        uint32_t n, uint32_t paired_run)
{
    uint32_t keep = n < RECORD_KEEP_MAX ? n : RECORD_KEEP_MAX, i;
    uint64_t *dst;
    if (!p || !n || !r->kept.values || r->kept.capacity - r->kept.used < keep)
        return;
    dst = r->kept.values + r->kept.used;
    for (i = 0; i < keep; i++) /* evenly spaced iterations when there are more */
        dst[i] = values[(uint64_t)i * n / keep];
    r->kept.used += keep;
    p->kept = dst;
    p->nkept = keep;
    p->paired_run = paired_run;
}

bool points_paired(const struct result_point *a, const struct result_point *b)
{
    return a && b && a->kept && b->kept && a->paired_run && a->paired_run == b->paired_run &&
           a->nkept == b->nkept;
}

void point_param_num(struct result_point *p, const char *key, int64_t v)
{
    if (p->nparams < POINT_MAX_PARAMS) {
        p->params[p->nparams].key = key;
        p->params[p->nparams].str = NULL;
        p->params[p->nparams].num = v;
        p->nparams++;
    }
}

void point_param_str(struct result_point *p, const char *key, const char *v)
{
    if (p->nparams < POINT_MAX_PARAMS) {
        p->params[p->nparams].key = key;
        p->params[p->nparams].str = v;
        p->params[p->nparams].num = 0;
        p->nparams++;
    }
}

void point_metric(struct result_point *p, const char *name, const struct stats *st)
{
    if (p->nmetrics < POINT_MAX_METRICS) {
        p->metrics[p->nmetrics].name = name;
        p->metrics[p->nmetrics].st = *st;
        p->nmetrics++;
    }
}

void point_value(struct result_point *p, const char *key, int64_t milli)
{
    if (p->nvalues < POINT_MAX_VALUES) {
        p->values[p->nvalues].key = key;
        p->values[p->nvalues].milli = milli;
        p->nvalues++;
    }
}

const struct point_param *point_find_param(const struct result_point *p, const char *key)
{
    uint8_t i;
    for (i = 0; i < p->nparams; i++)
        if (str_eq(p->params[i].key, key))
            return &p->params[i];
    return NULL;
}

const struct stats *point_find_metric(const struct result_point *p, const char *name)
{
    uint8_t i;
    for (i = 0; i < p->nmetrics; i++)
        if (str_eq(p->metrics[i].name, name))
            return &p->metrics[i].st;
    return NULL;
}

bool point_find_value(const struct result_point *p, const char *key, int64_t *milli)
{
    uint8_t i;
    for (i = 0; i < p->nvalues; i++)
        if (str_eq(p->values[i].key, key)) {
            *milli = p->values[i].milli;
            return true;
        }
    return false;
}

static void set_reason(struct experiment_record *r, const char *fmt, va_list ap)
{
    struct strbuf sb;
    sb_init_fixed(&sb, r->reason, sizeof(r->reason));
    sb_vprintf(&sb, fmt, ap);
    r->strings_cut += sb.truncated;
}

void record_set_status(struct experiment_record *r, enum result status, const char *fmt, ...)
{
    va_list ap;
    r->status = status;
    va_start(ap, fmt);
    set_reason(r, fmt, ap);
    va_end(ap);
}

void record_escalate(struct experiment_record *r, enum result status, const char *fmt, ...)
{
    va_list ap;
    if (status <= r->status && r->reason[0])
        return;
    if (status < r->status)
        return;
    r->status = status;
    va_start(ap, fmt);
    set_reason(r, fmt, ap);
    va_end(ap);
}

void record_note(struct experiment_record *r, const char *fmt, ...)
{
    struct strbuf sb;
    va_list ap;
    if (r->nnotes >= RECORD_MAX_NOTES)
        return;
    sb_init_fixed(&sb, r->notes[r->nnotes++], RECORD_NOTE_LEN);
    va_start(ap, fmt);
    sb_vprintf(&sb, fmt, ap);
    va_end(ap);
    r->strings_cut += sb.truncated;
}

void record_stale(struct experiment_record *r, uint32_t cpu, uint64_t va, uint64_t expected,
                  uint64_t seen)
{
    struct verification *v = &r->verification;
    v->stale_reads++;
    if (v->recorded < RECORD_MAX_STALE) {
        v->first[v->recorded].cpu = cpu;
        v->first[v->recorded].va = va;
        v->first[v->recorded].expected = expected;
        v->first[v->recorded].seen = seen;
        v->recorded++;
    }
}

void point_class_mix(struct result_point *p, const struct cpu_table *t, uint32_t initiator,
                     const uint32_t *cpus, uint32_t n)
{
    uint32_t count[TOPO_CLASS_COUNT], c;
    if (!p)
        return;
    placement_count(t, initiator, cpus, n, count);
    for (c = 0; c < TOPO_CLASS_COUNT; c++)
        p->class_mix[c] = (uint16_t)count[c];
    p->has_class_mix = true;
}
