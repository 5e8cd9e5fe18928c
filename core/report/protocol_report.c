#include "core/report/protocol_report.h"
#include "core/report/time_text.h"

/* enum protocol_step (core/run/run.h): how the report names each step, and on whose clock */
static const char *const names[PSTEP_COUNT] = {
    "roundtrip", "icr_write", "handler", "delivery_entry_ack", "eoi_write", "wait_exit",
    "timestamps", "settle", "shootdown", "shootdown_send", "shootdown_handler",
    "shootdown_delivery_entry_ack",
};
static const char *const clocks[PSTEP_COUNT] = {
    "initiator", "initiator", "target", "derived", "initiator", "initiator",
    "initiator", "initiator", "initiator", "initiator", "target", "derived",
};

static const char *protocol_step_name(enum protocol_step s) { return s < PSTEP_COUNT ? names[s] : "?"; }
static const char *protocol_step_clock(enum protocol_step s) { return s < PSTEP_COUNT ? clocks[s] : "?"; }


static void steps_json(struct json_writer *w, const struct run *r, enum protocol_step from,
                       enum protocol_step to)
{
    const struct protocol_steps *ps = &r->method.protocol_steps;
    enum protocol_step s;
    jw_key(w, "steps");
    jw_array_begin(w);
    for (s = from; s <= to; s++) {
        jw_object_begin_inline(w);
        jw_kv_str(w, "step", protocol_step_name(s));
        jw_kv_str(w, "clock", protocol_step_clock(s));
        jw_kv_u64(w, "p50_ticks", ps->p50[s]);
        jw_kv_u64(w, "p50_ns", ticks_to_ns(ps->p50[s], r->tsc_hz));
        jw_kv_u64(w, "mean_ticks", ps->mean[s]);
        jw_object_end(w);
    }
    jw_array_end(w);
}

void protocol_report_json(struct json_writer *w, const struct run *r)
{
    const struct protocol_steps *ps = &r->method.protocol_steps;
    if (!ps->ipi && !ps->shootdown)
        return;
    jw_key(w, "protocol_steps");
    jw_object_begin(w);
    if (ps->ipi) {
        jw_key(w, "ipi");
        jw_object_begin(w);
        jw_kv_u64(w, "initiator", ps->initiator);
        jw_kv_u64(w, "target", ps->target);
        jw_kv_u64(w, "samples", ps->samples);
        steps_json(w, r, PSTEP_ROUNDTRIP, PSTEP_SETTLE);
        jw_object_end(w);
    }
    if (ps->shootdown) {
        jw_key(w, "shootdown");
        jw_object_begin(w);
        jw_kv_u64(w, "samples", ps->sd_samples);
        steps_json(w, r, PSTEP_SD_LATENCY, PSTEP_SD_REST);
        jw_object_end(w);
    }
    jw_object_end(w);
}

/* "name 12.3 us" for steps from..to, p50s, on one line after `label`. */
static void steps_text(struct strbuf *sb, const struct run *r, const char *label,
                       enum protocol_step from, enum protocol_step to)
{
    const struct protocol_steps *ps = &r->method.protocol_steps;
    enum protocol_step s;
    uint32_t col = 10;
    sb_printf(sb, "%-10s", label);
    for (s = from; s <= to; s++) {
        char t[24], item[64];
        size_t len;
        time_text(ticks_to_ns(ps->p50[s], r->tsc_hz), t, sizeof(t));
        len = fmt_into(item, sizeof(item), "%s%s %s", s == from ? "" : ", ",
                       protocol_step_name(s), t);
        if (col + len > 78) {
            sb_puts(sb, "\n          ");
            col = 10;
            if (s != from)
                fmt_into(item, sizeof(item), "%s %s", protocol_step_name(s), t);
        }
        sb_puts(sb, item);
        col += (uint32_t)len;
    }
    sb_putc(sb, '\n');
}

void protocol_report_text(struct strbuf *sb, const struct run *r)
{
    const struct protocol_steps *ps = &r->method.protocol_steps;
    if (ps->ipi) {
        sb_printf(sb, "Protocol  IPI %u->%u, p50 of %u (handler on the target's clock, the rest\n"
                      "          derived; the last four timed alone):\n",
                  ps->initiator, ps->target, ps->samples);
        steps_text(sb, r, "", PSTEP_ROUNDTRIP, PSTEP_SETTLE);
    }
    if (ps->shootdown) {
        sb_printf(sb, "Protocol  1-page concurrent shootdown to one target, p50 of %u:\n",
                  ps->sd_samples);
        steps_text(sb, r, "", PSTEP_SD_LATENCY, PSTEP_SD_REST);
    }
}
