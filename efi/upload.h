/*
 * upload=URL: the JSON and text reports go to URL/<report name>.json and
 * .txt by HTTP PUT through the firmware's HTTP protocol (efi/http_client.h),
 * after the run has handed the machine back and after the report is on the
 * stick and the console (issue 35: a hang in the network stack, a power cut
 * or a pulled stick during the upload loses no copy). Retries, waits and the
 * deadline follow core/run/upload.h; the outcome lands in run->upload, which
 * the console and the outcome file beside the report (efi/report_out.h) show.
 */
#ifndef TLBSCOPE_EFI_UPLOAD_H
#define TLBSCOPE_EFI_UPLOAD_H

#include "core/run/run.h"
#include "efi/netboot.h"

/*
 * Before the reports are written: the URL the JSON will have, or why there
 * will be no upload (an AP still running). The network is not touched.
 */
void upload_prepare(struct run *r, struct netboot *nb, bool released);
/*
 * Sends both files (the address first: DHCP on a stick boot), when
 * upload_prepare() left the upload pending; run->upload says how it went.
 */
void upload_send(struct run *r, struct netboot *nb, const char *json, size_t json_len,
                 const char *text, size_t text_len);

#endif
