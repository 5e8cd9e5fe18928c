/*
 * The report's `run` section for every architecture: the run's identity,
 * its configuration (every key, with core/run/config.c's writer: the same
 * keys and meanings on x86 and aarch64), where it came from, and the run's
 * errors and warnings, and how it booted (`network`, report_write_network()
 * from the caller's write_network). Free text is shown through the caller's
 * `show` (the redaction, report_redact.h).
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
    const char *cfg_upload;       /* upload= as shown (its token under redaction) */
    /* x86: run.network, written between config_origins and config; NULL: none */
    void (*write_network)(struct json_writer *w, const void *ctx);
    report_show_fn show;          /* free text as shown; NULL: as it is */
    const void *ctx;              /* for write_network and show */
    const struct msg_list *errors, *warnings;
};

void report_write_run(struct json_writer *w, const struct run_section *s);
/*
 * run.network: how the machine booted (disk, PXE/TFTP, HTTP), its addresses and the boot
 * URL (their tokens under redact=on), the JSON's upload URL as shown (NULL: no upload=),
 * the boot server's tlbscope.cfg's SHA-256 as it came.
 */
void report_write_network(struct json_writer *w, const struct net_info *net,
                          const char *upload_url, const struct redaction *red);

#endif
