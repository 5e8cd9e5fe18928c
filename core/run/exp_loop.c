/* The experiment loop both apps run: see exp_loop.h. */
#include "core/run/exp_loop.h"

#include "core/lib/mem.h"
#include "core/lib/nearest.h"
#include "core/lib/strbuf.h"
#include "core/run/bootstrap.h"

/* one console line, built in `line` */
static void emit(struct exp_loop *l, struct strbuf *line)
{
    l->print(l->ctx, line->data);
}

void exp_loop_init_records(struct exp_loop *l)
{
    uint32_t i;
    for (i = 0; i < l->count; i++) {
        struct experiment_record *rec = &l->records[i];
        rec->id = l->descs[i].id;
        rec->title = l->descs[i].title;
        rec->x_axis = l->descs[i].x_axis;
        rec->series = l->descs[i].series;
    }
}

static bool known(const struct exp_loop *l, const char *id)
{
    uint32_t i;
    for (i = 0; i < l->count; i++)
        if (str_eq(l->descs[i].id, id))
            return true;
    return false;
}

void exp_loop_check_selection(struct exp_loop *l)
{
    const struct config *cfg = l->cfg;
    const char *ids[32], *near; /* the tables have 10 */
    char buf[512];
    struct strbuf line;
    uint32_t i, n = 0, found = 0;
    for (i = 0; i < l->count && n < ARRAY_SIZE(ids); i++)
        ids[n++] = l->descs[i].id;
    for (i = 0; i < cfg->experiment_count; i++) {
        const char *id = cfg->experiments[i];
        if (known(l, id)) {
            found++;
            continue;
        }
        near = nearest_name(id, ids, n);
        msg_add(l->warnings, "experiments", "no experiment '%s' on %s%s%s%s; ignored", id, l->arch,
                near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        sb_init_fixed(&line, buf, sizeof(buf));
        sb_printf(&line, "WARNING: experiments=: no experiment '%s' on %s%s%s%s; ignored\n", id, l->arch,
                  near ? " (did you mean " : "", near ? near : "", near ? "?)" : "");
        emit(l, &line);
    }
    if (cfg->experiment_count && !found) {
        msg_add(l->errors, "experiments",
                "experiments= names none of the %u experiments: nothing was measured", l->count);
        sb_init_fixed(&line, buf, sizeof(buf));
        sb_printf(&line, "ERROR: experiments= names none of the %u experiments (", l->count);
        for (i = 0; i < l->count; i++)
            sb_printf(&line, "%s%s", i ? ", " : "", l->descs[i].id);
        sb_puts(&line, "): nothing was measured\n");
        emit(l, &line);
    }
}

bool exp_loop_selected(const struct exp_loop *l, uint32_t index)
{
    return config_experiment_selected(l->cfg, l->descs[index].id);
}

static bool supported(const struct exp_loop *l, uint32_t index, char *reason, size_t cap,
                      bool *emulated)
{
    reason[0] = 0;
    *emulated = false;
    return !l->supported || l->supported(l->ctx, index, reason, cap, emulated);
}

uint32_t exp_loop_count_to_run(const struct exp_loop *l)
{
    uint32_t i, n = 0;
    for (i = 0; i < l->count; i++) {
        char reason[RECORD_REASON_LEN];
        bool emulated;
        n += exp_loop_selected(l, i) && supported(l, i, reason, sizeof(reason), &emulated);
    }
    return n;
}

static const char *labels(const struct exp_loop *l, bool emulated, char *buf, size_t cap)
{
    fmt_into(buf, cap, "%s%s", l->simulated ? " [SIMULATED]" : "",
             emulated || l->cfg->emulator != EMULATOR_NONE ? " [EMULATED]" : "");
    return buf;
}

void exp_loop_print_start(struct exp_loop *l, const struct experiment_record *rec, bool emulated)
{
    char tags[32], buf[RECORD_REASON_LEN + 96];
    struct strbuf line;
    sb_init_fixed(&line, buf, sizeof(buf));
    sb_printf(&line, "RUN:  %s: %s%s\n", rec->id, rec->title, labels(l, emulated, tags, sizeof(tags)));
    emit(l, &line);
}

static void print_result(struct exp_loop *l, const struct experiment_record *rec)
{
    char detail[RECORD_REASON_LEN + 96], tags[32], buf[RECORD_REASON_LEN + 192];
    struct strbuf sb, line;
    sb_init_fixed(&sb, detail, sizeof(detail));
    if (rec->status == RESULT_SKIP) {
        sb_printf(&sb, "(%s)", rec->reason);
    } else {
        sb_printf(&sb, "(%u points", rec->results.count);
        if (rec->verification.applicable)
            sb_printf(&sb, ", %llu checks, %llu stale reads",
                      (unsigned long long)rec->verification.checks,
                      (unsigned long long)rec->verification.stale_reads);
        sb_printf(&sb, ", %llu.%01llu s)", (unsigned long long)(rec->duration_ms / 1000),
                  (unsigned long long)(rec->duration_ms % 1000 / 100));
        if (rec->reason[0])
            sb_printf(&sb, ": %s", rec->reason);
    }
    sb_init_fixed(&line, buf, sizeof(buf));
    sb_printf(&line, "%s: %s%s%s %s\n", result_line_prefix(rec->status), rec->id,
              labels(l, rec->emulated, tags, sizeof(tags)), rec->partial ? " [PARTIAL]" : "", detail);
    emit(l, &line);
}

void exp_loop_conclude(struct experiment_record *rec, uint32_t usable, bool budget_exceeded,
                       uint32_t budget_s)
{
    if (rec->status == RESULT_SUCCESS && rec->results.count == 0)
        record_escalate(rec, RESULT_ERROR, "measured no point (%u CPUs usable)", usable);
    if (budget_exceeded) {
        rec->partial = true;
        record_escalate(rec, RESULT_ERROR, "time budget of %u s exceeded; experiment aborted",
                        budget_s);
    }
}

/* Experiment `index`, once, if selected: SKIP with the reason, or the app's measurement. */
static void run_one(struct exp_loop *l, uint32_t index)
{
    struct experiment_record *rec = &l->records[index];
    char reason[RECORD_REASON_LEN];
    bool emulated;
    if (rec->ran || !exp_loop_selected(l, index))
        return;
    rec->ran = true;
    if (!supported(l, index, reason, sizeof(reason), &emulated)) {
        record_set_status(rec, RESULT_SKIP, "%s", reason);
    } else {
        l->measure(l->ctx, index, rec, emulated);
        if (l->left)
            l->left--;
    }
    /* the report never holds a cut string without saying so: room too small is a bug to fix */
    if (rec->strings_cut)
        msg_add(l->warnings, rec->id,
                "%u of its notes or reasons did not fit their %u or %u characters and were cut "
                "(a tlbscope bug: please report it)",
                rec->strings_cut, RECORD_NOTE_LEN - 1, RECORD_REASON_LEN - 1);
    print_result(l, rec);
}

void exp_loop_run(struct exp_loop *l)
{
    uint32_t i, j;
    l->left = exp_loop_count_to_run(l);
    for (i = 0; i < l->count; i++) {
        /* an experiment later in the table whose findings this one uses runs first */
        for (j = i + 1; j < l->count; j++)
            if (l->descs[j].runs_before && str_eq(l->descs[j].runs_before, l->descs[i].id))
                run_one(l, j);
        run_one(l, i);
    }
}

uint64_t exp_loop_order_seed(const struct config *cfg, bool simulated, uint64_t sim_seed,
                             uint64_t start_ticks)
{
    if (config_is_set(cfg, "order_seed"))
        return cfg->order_seed;
    return boot_seed_from(simulated ? sim_seed : start_ticks);
}
