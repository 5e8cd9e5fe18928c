/*
 * tlbscope-sim's report files, as efi/volume.c writes them on the stick: the
 * folder made, the run counter from the reports already there, and the JSON
 * and text report written under the run's name, never over an existing one.
 */
#include "sim/report_files.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

uint32_t sim_report_next_counter(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    uint32_t n = 0;
    if (!d)
        return 1;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0)
            n++;
    }
    closedir(d);
    return n + 1;
}

bool sim_report_make_dirs(const char *path)
{
    char buf[1024];
    size_t i, len = strlen(path);
    if (len == 0 || len >= sizeof(buf))
        return false;
    memcpy(buf, path, len + 1);
    for (i = 1; i <= len; i++) {
        if (buf[i] == '/' || buf[i] == 0) {
            char c = buf[i];
            buf[i] = 0;
            if (mkdir(buf, 0777) != 0 && errno != EEXIST)
                return false;
            buf[i] = c;
        }
    }
    return true;
}

static bool write_file(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wx"); /* never overwrite a report */
    bool ok;
    if (!f)
        return false;
    ok = fwrite(data, 1, len, f) == len;
    ok &= fclose(f) == 0;
    return ok;
}

bool sim_report_save(const struct run *r, const char *dir, const struct strbuf *json,
                     const struct strbuf *text, char *json_path, size_t cap)
{
    char base[96], candidate[128], text_path[1200];
    struct stat st;
    unsigned attempt;
    run_report_basename(r, base, sizeof(base));
    for (attempt = 0; attempt < 100; attempt++) {
        if (attempt == 0)
            snprintf(candidate, sizeof(candidate), "%s", base);
        else
            snprintf(candidate, sizeof(candidate), "%s-%u", base, attempt);
        snprintf(json_path, cap, "%s/%s.json", dir, candidate);
        snprintf(text_path, sizeof(text_path), "%s/%s.txt", dir, candidate);
        if (stat(json_path, &st) != 0 && stat(text_path, &st) != 0)
            break;
    }
    if (!write_file(json_path, json->data, json->len)) {
        fprintf(stderr, "tlbscope-sim: cannot write %s: %s\n", json_path, strerror(errno));
        return false;
    }
    if (!write_file(text_path, text->data, text->len)) {
        fprintf(stderr, "tlbscope-sim: cannot write %s: %s\n", text_path, strerror(errno));
        return false;
    }
    printf("Report saved: %s\n              %s\n", json_path, text_path);
    return true;
}
