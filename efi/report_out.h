/*
 * Puts the report on the stick: \tlbscope\reports\<name>.json and .txt,
 * never overwriting, each read back and then renamed from <name>.json.partial
 * (core/run/report_files.h: a power loss never leaves a truncated report).
 * When the stick cannot take it, the whole JSON goes to the console between
 * TLBSCOPE-JSON-BEGIN/END markers (scripts/recover-report.sh rebuilds the file
 * from a serial log).
 */
#ifndef TLBSCOPE_EFI_REPORT_OUT_H
#define TLBSCOPE_EFI_REPORT_OUT_H

#include "core/lib/msglist.h"
#include "core/lib/strbuf.h"
#include "efi/volume.h"

/* Reads and bumps \tlbscope\counter; 0 when the stick is not writable. */
uint32_t report_next_counter(struct volume *v);
/*
 * Saves the report under `base` (core/run/run.h run_report_basename() on
 * x86, the same shape on aarch64), or base-1, base-2... when taken. Returns
 * true when both files were written, verified and renamed to their names
 * (core/run/report_files.h), with the base name they got in saved_base; what
 * failed is added to `errors` (the run's, so the report says it).
 */
bool report_save(struct msg_list *errors, struct volume *v, const char *base, const char *json,
                 size_t json_len, const char *text, size_t text_len, char *saved_base,
                 size_t base_cap);
/* The upload's outcome beside the report saved as `base` (replaced when there). */
bool report_save_outcome(struct msg_list *errors, struct volume *v, const char *base,
                         const char *text, size_t len);
/* Prints the JSON between markers, in short lines a serial console keeps intact. */
void report_dump_console(const char *name, const char *json, size_t len);

/*
 * Where a finished report goes, as both apps deliver it: first the stick (never on a network
 * boot, which has none), and when that fails, `rewrite` makes both texts again (the run's
 * errors now say why); then the console: the summary, where the report was saved or that it
 * was not, and the whole JSON when it was not saved or `json_on_console` (console_json=on,
 * an upload to check against it). Returns whether the stick has it, its name in saved_base.
 */
struct report_delivery {
    struct msg_list *errors;
    struct volume *volume;
    bool netboot_only;            /* no volume, booted over the network */
    const char *name;             /* the report's name (run_report_basename's shape) */
    struct strbuf *json, *text;
    bool json_on_console;
    void (*rewrite)(struct strbuf *json, struct strbuf *text, void *ctx);
    void *ctx;
};
bool report_deliver(const struct report_delivery *d, char *saved_base, size_t base_cap);

#endif
