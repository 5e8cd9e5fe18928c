/*
 * upload=URL: the JSON and text reports go to URL/<report name>.json and
 * .txt by HTTP PUT through the firmware's HTTP protocol (efi/http_client.h),
 * after the run has handed the machine back and after the report is on the
 * stick and the console (issue 35: a hang in the network stack, a power cut
 * or a pulled stick during the upload loses no copy). Retries, waits and the
 * deadline follow core/run/upload.h; the outcome lands in the run's outcome,
 * which the console and the outcome file beside the report (efi/report_out.h)
 * show. Both apps use it (efi/shared.mk).
 */
#ifndef TLBSCOPE_EFI_UPLOAD_H
#define TLBSCOPE_EFI_UPLOAD_H

#include "core/run/config.h"
#include "core/run/netinfo.h"
#include "core/lib/strbuf.h"
#include "efi/http_client.h"
#include "efi/volume.h"

/* One upload, of one run's report, on either app. */
struct upload_job {
    const struct config *cfg;        /* upload, upload_attempts, upload_deadline_s, redact */
    const char *name;                /* the report's name (core/run/run.h run_report_basename) */
    struct upload_outcome *outcome;  /* how it went (the run's, for the report and the console) */
    struct http_route *route;        /* the NIC and address: a network boot's, or the default */
};

/*
 * Before the reports are written: the URL the JSON will have, or why there
 * will be no upload (a CPU still running the tool's code). The network is
 * not touched.
 */
void upload_prepare(struct upload_job *job, bool released);
/*
 * Sends both files (the address first: DHCP on a stick boot), when
 * upload_prepare() left the upload pending; job->outcome says how it went.
 */
void upload_send(struct upload_job *job, const char *json, size_t json_len, const char *text,
                 size_t text_len);
/*
 * The whole upload once the report is safe, as both apps do it: the outcome
 * file beside the report saved as `base` (efi/report_out.h; "" when it was not
 * saved) says "started", then upload_send(), then the summary's upload line
 * on the console (status_line writes it as the report shows it), then the
 * outcome file again. A failure to write that file is added to `errors`.
 */
void upload_after_save(struct upload_job *job, struct volume *v, struct msg_list *errors,
                       const char *base, const char *json, size_t json_len, const char *text,
                       size_t text_len, void (*status_line)(struct strbuf *sb, const void *ctx),
                       const void *ctx);

#endif
