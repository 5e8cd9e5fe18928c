#include "efi/report_out.h"
#include "efi/console.h"

#include "core/lib/crc.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/run/report_files.h"

#define COUNTER_FILE "\\tlbscope\\counter"
#define DUMP_LINE 76

uint32_t report_next_counter(struct volume *v)
{
    char *data = NULL;
    size_t len = 0, i;
    uint32_t counter = 0;
    char buf[16];
    if (!v->root)
        return 0;
    if (!EFI_ERROR(volume_read(v, COUNTER_FILE, 64, &data, &len))) {
        for (i = 0; i < len && data[i] >= '0' && data[i] <= '9'; i++)
            counter = counter * 10 + (uint32_t)(data[i] - '0');
        mem_free(data);
    }
    counter++;
    /* fixed width so rewriting in place never leaves stale digits behind */
    fmt_into(buf, sizeof(buf), "%010u\n", counter);
    if (EFI_ERROR(volume_mkdir(v, "\\tlbscope")) ||
        EFI_ERROR(volume_rewrite(v, COUNTER_FILE, buf, 11)))
        return 0;
    return counter;
}

/* The stick as core/run/report_files.h sees it. */
static bool stick_exists(void *ctx, const char *path) { return volume_exists(ctx, path); }
static uint64_t stick_write_new(void *ctx, const char *path, const void *data, size_t len)
{
    return volume_write_new(ctx, path, data, len);
}
static uint64_t stick_rename(void *ctx, const char *path, const char *leaf)
{
    return volume_rename(ctx, path, leaf);
}
static uint64_t stick_remove(void *ctx, const char *path) { return volume_delete(ctx, path); }

static struct report_fs stick_of(struct volume *v)
{
    struct report_fs fs = { v, stick_exists, stick_write_new, stick_rename, stick_remove };
    return fs;
}

/* One file through its .partial name and a rename: an error of the run when it fails. */
static bool commit(struct msg_list *errors, struct volume *v, const char *path, const char *data,
                   size_t len, bool replace)
{
    struct report_fs fs = stick_of(v);
    EFI_STATUS st = report_file_commit(&fs, path, data, len, replace);
    if (EFI_ERROR(st))
        msg_add(errors, "report", "writing %s failed: %s", path, efi_status_name(st));
    return !EFI_ERROR(st);
}

bool report_save(struct msg_list *errors, struct volume *v, const char *base, const char *json,
                 size_t json_len, const char *text, size_t text_len, char *saved_base,
                 size_t base_cap)
{
    struct report_fs fs = stick_of(v);
    char path[REPORT_PATH_MAX];
    EFI_STATUS st;
    saved_base[0] = 0;
    if (!v->root) {
        msg_add(errors, "report", "the boot volume could not be opened");
        return false;
    }
    st = volume_mkdir(v, "\\tlbscope");
    if (!EFI_ERROR(st))
        st = volume_mkdir(v, REPORT_DIR);
    if (EFI_ERROR(st)) {
        msg_add(errors, "report", "cannot create %s: %s", REPORT_DIR, efi_status_name(st));
        return false;
    }
    /* a wrong RTC and a reset counter can repeat a name: add a suffix, never overwrite */
    if (!report_file_pick(&fs, base, saved_base, base_cap)) {
        msg_add(errors, "report", "no free name for %s in %s (-1 to -%u taken too)", base,
                REPORT_DIR, REPORT_NAME_TRIES - 1);
        return false;
    }
    report_file_path(saved_base, 0, ".json", path, sizeof(path));
    if (!commit(errors, v, path, json, json_len, false))
        return false;
    report_file_path(saved_base, 0, ".txt", path, sizeof(path));
    return commit(errors, v, path, text, text_len, false);
}

bool report_save_outcome(struct msg_list *errors, struct volume *v, const char *base,
                         const char *text, size_t len)
{
    char path[REPORT_PATH_MAX];
    if (!v->root || !base[0] || !report_file_path(base, 0, REPORT_OUTCOME_EXT, path, sizeof(path)))
        return false;
    return commit(errors, v, path, text, len, true);
}

/*
 * Each JSON line becomes "J:<text>"; a line longer than DUMP_LINE continues
 * on "J+<text>" lines. Short lines survive terminals that wrap at 80
 * columns, and the END line carries the length and POSIX cksum so the
 * recovery script can prove the copy is whole.
 */
void report_dump_console(const char *name, const char *json, size_t len)
{
    size_t pos = 0;
    con_printf("TLBSCOPE-JSON-BEGIN %s\n", name);
    while (pos < len) {
        size_t end = pos, chunk;
        bool first = true;
        while (end < len && json[end] != '\n')
            end++;
        do {
            chunk = end - pos > DUMP_LINE ? DUMP_LINE : end - pos;
            con_write(first ? "J:" : "J+");
            con_writen(json + pos, chunk);
            con_write("\n");
            pos += chunk;
            first = false;
        } while (pos < end);
        if (pos < len)
            pos++; /* the newline */
    }
    con_printf("TLBSCOPE-JSON-END bytes=%llu cksum=%u\n", (unsigned long long)len,
               posix_cksum(json, len));
}

bool report_deliver(const struct report_delivery *d, char *saved_base, size_t base_cap)
{
    char path[REPORT_PATH_MAX];
    bool saved_ok = false;
    saved_base[0] = 0;
    /* first the stick: nothing on the network runs before the report is safe (issue 35) */
    if (!d->netboot_only)
        saved_ok = report_save(d->errors, d->volume, d->name, d->json->data, d->json->len,
                               d->text->data, d->text->len, saved_base, base_cap);
    if (!saved_ok && !d->netboot_only)
        /* the errors list changed: rebuild both so the console copy says why */
        d->rewrite(d->json, d->text, d->ctx);
    /* then the console: the summary, and the whole JSON wherever another copy may be wanted */
    con_write("\n");
    con_writen(d->text->data, d->text->len);
    if (saved_ok) {
        report_file_path(saved_base, 0, ".json", path, sizeof(path));
        con_printf("Report saved: %s (and .txt)\n", path);
    } else if (!d->netboot_only) {
        con_printf("ERROR: the report could not be saved on the boot volume; "
                   "the whole JSON follows on the console\n");
    }
    /* an upload's copy is checked against this one; a network boot has only this one */
    if (!saved_ok || d->json_on_console)
        report_dump_console(d->name, d->json->data, d->json->len);
    return saved_ok;
}
