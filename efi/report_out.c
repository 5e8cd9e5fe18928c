#include "efi/report_out.h"
#include "efi/console.h"

#include "core/lib/crc.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

#define REPORT_DIR "\\tlbscope\\reports"
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

bool report_save(struct run *r, struct volume *v, const char *json, size_t json_len,
                 const char *text, size_t text_len, char *saved_as, size_t saved_cap)
{
    char base[96], path[160];
    EFI_STATUS st;
    unsigned attempt;
    saved_as[0] = 0;
    if (!v->root) {
        msg_add(&r->errors, "report", "the boot volume could not be opened");
        return false;
    }
    st = volume_mkdir(v, "\\tlbscope");
    if (!EFI_ERROR(st))
        st = volume_mkdir(v, REPORT_DIR);
    if (EFI_ERROR(st)) {
        msg_add(&r->errors, "report", "cannot create %s: %s", REPORT_DIR, efi_status_name(st));
        return false;
    }
    run_report_basename(r, base, sizeof(base));
    /* a wrong RTC and a reset counter can repeat a name: add a suffix, never overwrite */
    for (attempt = 0; attempt < 100; attempt++) {
        char candidate[96];
        if (attempt == 0)
            str_copy(candidate, sizeof(candidate), base);
        else
            fmt_into(candidate, sizeof(candidate), "%s-%u", base, attempt);
        fmt_into(path, sizeof(path), "%s\\%s.json", REPORT_DIR, candidate);
        if (volume_exists(v, path))
            continue;
        fmt_into(path, sizeof(path), "%s\\%s.txt", REPORT_DIR, candidate);
        if (volume_exists(v, path))
            continue;
        str_copy(base, sizeof(base), candidate);
        break;
    }
    fmt_into(path, sizeof(path), "%s\\%s.json", REPORT_DIR, base);
    st = volume_write_new(v, path, json, json_len);
    if (EFI_ERROR(st)) {
        msg_add(&r->errors, "report", "writing %s failed: %s", path, efi_status_name(st));
        return false;
    }
    fmt_into(saved_as, saved_cap, "%s", path);
    fmt_into(path, sizeof(path), "%s\\%s.txt", REPORT_DIR, base);
    st = volume_write_new(v, path, text, text_len);
    if (EFI_ERROR(st)) {
        msg_add(&r->errors, "report", "writing %s failed: %s", path, efi_status_name(st));
        return false;
    }
    return true;
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
