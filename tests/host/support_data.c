#include "tests/host/support_data.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool readable(const char *path) { return access(path, R_OK) == 0; }

bool shared_data_may_skip(void)
{
    const char *v = getenv("TLBSCOPE_ALLOW_MISSING_DATA");
    return v && strcmp(v, "1") == 0;
}

bool shared_data_path(const char *rel, char *out, size_t cap)
{
    const char *env = getenv("TLBSCOPE_SHARED_DATA");
    char exe[4096];
    ssize_t n;
    int up;
    if (env && *env) {
        snprintf(out, cap, "%s/%s", env, rel);
        if (readable(out))
            return true;
    }
    snprintf(out, cap, "../shared/data/%s", rel);
    if (readable(out))
        return true;
    /* build/host/tests/test_x -> the repository root is three folders up */
    n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    if (n <= 0)
        return false;
    exe[n] = 0;
    for (up = 0; up < 4; up++) {
        char *slash = strrchr(exe, '/');
        if (!slash)
            return false;
        *slash = 0;
    }
    snprintf(out, cap, "%s/../shared/data/%s", exe, rel);
    return readable(out);
}

uint8_t *shared_data_load(const char *rel, size_t *len)
{
    char path[4096];
    FILE *f;
    uint8_t *buf;
    long size;
    *len = 0;
    if (!shared_data_path(rel, path, sizeof(path)))
        return NULL;
    f = fopen(path, "rb");
    if (!f)
        return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    buf = malloc((size_t)size + 1);
    if (buf && fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[size] = 0; /* text files can be used as C strings */
        *len = (size_t)size;
    }
    return buf;
}
