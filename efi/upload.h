/*
 * upload=URL: the JSON and text reports go to URL/<report name>.json and
 * .txt by HTTP PUT through the firmware's HTTP protocol (efi/http_client.h),
 * after the run has handed the machine back. Retries, waits and the
 * deadline follow core/run/upload.h; the outcome lands in run->upload for the
 * text summary, and a failure becomes a warning in the report.
 */
#ifndef TLBSCOPE_EFI_UPLOAD_H
#define TLBSCOPE_EFI_UPLOAD_H

#include "core/run/run.h"
#include "efi/netboot.h"

/*
 * Before the reports are written: the URL the JSON will have, and the
 * network address (DHCP on a stick boot) so the report can name it.
 * Nothing when upload= is not set.
 */
void upload_prepare(struct run *r, struct netboot *nb, bool released);
/* Sends both files; true when it failed (a warning was added: rebuild the JSON). */
bool upload_send(struct run *r, struct netboot *nb, const char *json, size_t json_len,
                 const char *text, size_t text_len);

#endif
