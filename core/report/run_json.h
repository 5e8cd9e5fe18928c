/*
 * The report's `run` section for every architecture: the run's identity,
 * its configuration (every key, with core/run/config.c's writer: the same
 * keys and meanings on x86 and aarch64), where it came from, how it booted
 * (`network`), and the run's errors and warnings. Identifying values and free
 * text are shown through the run's redaction (report_redact.h: as they are
 * when redact is off).
 */
#ifndef TLBSCOPE_CORE_REPORT_RUN_JSON_H
#define TLBSCOPE_CORE_REPORT_RUN_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include "core/lib/json.h"
#include "core/lib/msglist.h"
#include "core/report/report_common.h"
#include "core/report/report_redact.h"
#include "core/run/config.h"
#include "core/run/netinfo.h"

struct run_section {
    const char *id;
    uint32_t counter;             /* the stick's run counter (0: not writable) */
    const char *start_time;       /* "YYYY-MM-DDTHH:MM:SS", NULL when the clock is not plausible */
    bool rtc_plausible;
    uint64_t duration_ms;
    bool partial;
    const char *args;             /* the load options' text as given (masked here) */
    bool config_file;             /* a tlbscope.cfg was read */
    const char *config_source;    /* core/run/netinfo.h config_source_name() */
    const struct config *cfg;     /* finalized */
    const struct net_info *net;   /* how it booted (efi/netboot.c) */
    const struct upload_outcome *upload;
    const struct redaction *red;  /* redaction_prepare*(): "off" shows every value as it is */
    const struct msg_list *errors, *warnings;
};

void report_write_run(struct json_writer *w, const struct run_section *s);
#endif
