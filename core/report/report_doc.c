/* The report's skeleton for every architecture: see report_doc.h. */
#include "core/report/report_doc.h"

#include "core/report/experiment_json.h"
#include "core/run/version.h"

bool report_doc_write(const struct report_doc *d, struct strbuf *out)
{
    struct json_writer w;
    uint32_t i;
    jw_init(&w, out);
    jw_object_begin(&w);
    jw_kv_str(&w, "schema", REPORT_SCHEMA);
    jw_kv_u64(&w, "schema_version", REPORT_SCHEMA_VERSION);
    /* a report without the key was written before aarch64 and is x86_64 (reports/SCHEMA.md) */
    jw_kv_str(&w, "architecture", d->architecture);
    jw_key(&w, "generator");
    jw_object_begin_inline(&w);
    jw_kv_str(&w, "name", "tlbscope");
    jw_kv_str(&w, "version", TLBSCOPE_VERSION);
    jw_kv_str(&w, "commit", TLBSCOPE_COMMIT);
    jw_object_end(&w);
    jw_kv_str(&w, "result", result_name(d->result));
    /* the verdict beside the result: the word a technician reads, the counts it rests on and
     * its line as printed; tlbscope-report validate recomputes all of it */
    report_json_verdict(&w, d->verdict);
    d->write_head(&w, d->ctx);
    d->write_run(&w, d->ctx);
    d->write_machine(&w, d->ctx);
    jw_key(&w, "experiments");
    jw_array_begin(&w);
    for (i = 0; i < d->experiment_count; i++)
        if (d->experiments[i].ran)
            report_write_experiment(&w, &d->experiments[i], d->unit, d->show, d->show_ctx);
    jw_array_end(&w);
    d->write_recommendations(&w, d->ctx);
    jw_object_end(&w);
    sb_putc(out, '\n');
    return jw_finish(&w);
}
