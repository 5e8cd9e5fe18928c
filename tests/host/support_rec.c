/* Records for the recommendation tests: tests/host/support_rec.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "tests/host/support_rec.h"

void spread_samples(uint64_t *out, uint64_t median, uint64_t spread, uint32_t perm)
{
    uint32_t i;
    for (i = 0; i < NS; i++) {
        int64_t k = (int64_t)((i * perm) % NS) - NS / 2;
        out[i] = (uint64_t)((int64_t)median + k * (int64_t)spread / (NS / 2));
    }
}

void keep(struct experiment_record *rec, struct result_point *pt, uint64_t p50,
                 uint64_t spread, uint32_t perm, uint32_t run)
{
    uint64_t v[NS];
    spread_samples(v, p50, spread, perm);
    point_keep_samples(rec, pt, v, NS, run);
}

void add_at(struct experiment_record *rec, uint32_t targets, const char *form,
                   const char *mode, uint32_t p, uint64_t p50, uint64_t spread, uint32_t run)
{
    struct result_point *pt = point_list_add(&rec->results);
    struct stats s = { .n = NS, .min = p50 - spread, .p50 = p50, .p90 = p50 + spread,
                       .p99 = p50 + spread, .max = p50 + spread, .mean = p50 };
    struct stats flat = { .n = NS, .min = 100, .p50 = 100, .p90 = 100, .p99 = 100, .max = 100,
                          .mean = 100 };
    point_param_str(pt, "kind", targets ? "shootdown" : "local");
    point_param_num(pt, "targets", targets);
    point_param_num(pt, "working_set", 512);
    point_param_str(pt, "working_set_form", form);
    point_param_num(pt, "pages", p);
    point_param_str(pt, "mode", mode);
    point_metric(pt, "latency", targets ? &flat : &s);
    point_value(pt, "p25", (int64_t)(targets ? 100 : p50 - spread) * 1000);
    point_value(pt, "p75", (int64_t)(targets ? 100 : p50 + spread) * 1000);
    if (targets) {
        point_metric(pt, "work", &s);
        point_value(pt, "work_p25", (int64_t)(p50 - spread) * 1000);
        point_value(pt, "work_p75", (int64_t)(p50 + spread) * 1000);
    }
    keep(rec, pt, p50, spread, str_eq(mode, "invlpg") ? 5 : 8, run);
}

void new_record(struct experiment_record *rec, const char *id, uint32_t points)
{
    memset(rec, 0, sizeof(*rec));
    rec->id = id;
    rec->ran = true;
    assert_true(point_list_reserve(&rec->results, points));
    assert_true(record_reserve_kept(rec, points, NS));
}

void release_record(struct experiment_record *rec)
{
    point_list_release(&rec->results);
    mem_free(rec->kept.values);
}

const struct recommendation *compute(struct experiment_record *rec,
                                            struct recommendations *recs, uint32_t which)
{
    static struct run run;
    uint32_t i;
    memset(&run, 0, sizeof(run));
    run.experiments = rec;
    run.experiment_count = 1;
    run.method.order_seed = 2026;
    recommend_compute(&run, recs);
    for (i = 0; i < recs->items[which].npoints; i++)
        assert_true(recs->items[which].points[i] < rec->results.count);
    return &recs->items[which];
}

