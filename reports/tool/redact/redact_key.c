/* `redact`'s keys: given as text, read from a file, or drawn at random (redact.h). */
#include "reports/tool/redact/redact.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

static bool key_set(struct redact_key *k, const void *bytes, size_t len, bool keyed, char *why,
                    size_t cap)
{
    memset(k, 0, sizeof(*k));
    if (!len) {
        snprintf(why, cap, "the key is empty");
        return false;
    }
    if (!(k->bytes = malloc(len))) {
        snprintf(why, cap, "out of memory");
        return false;
    }
    memcpy(k->bytes, bytes, len);
    k->len = len;
    k->keyed = keyed;
    return true;
}

bool redact_key_from_text(const char *text, struct redact_key *k, char *why, size_t cap)
{
    return key_set(k, text, strlen(text), true, why, cap);
}

bool redact_key_from_file(const char *path, struct redact_key *k, char *why, size_t cap)
{
    unsigned char buf[REDACT_KEY_FILE_MAX + 1];
    size_t len = 0;
    struct stat st;
    FILE *f;
    bool ok;
    memset(k, 0, sizeof(*k));
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(why, cap, "is a directory, not a key file");
        return false;
    }
    if (!(f = fopen(path, "rb"))) {
        snprintf(why, cap, "cannot read the key file: %s", strerror(errno));
        return false;
    }
    len = fread(buf, 1, sizeof(buf), f);
    ok = !ferror(f);
    fclose(f);
    if (!ok) {
        snprintf(why, cap, "cannot read the key file: read error");
        return false;
    }
    if (len > REDACT_KEY_FILE_MAX) {
        snprintf(why, cap, "larger than %d bytes: not a key file", REDACT_KEY_FILE_MAX);
        return false;
    }
    /* an editor's final line end is not part of the key (`echo KEY > file` gives the same) */
    if (len && buf[len - 1] == '\n')
        len--;
    if (len && buf[len - 1] == '\r')
        len--;
    if (!len) {
        snprintf(why, cap, "the key file is empty");
        return false;
    }
    ok = key_set(k, buf, len, true, why, cap);
    memset(buf, 0, sizeof(buf));
    return ok;
}

bool redact_key_random(struct redact_key *k, char *why, size_t cap)
{
    unsigned char buf[REDACT_RANDOM_KEY_LEN];
    size_t got = 0;
    bool ok;
    while (got < sizeof(buf)) {
        ssize_t n = getrandom(buf + got, sizeof(buf) - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got < sizeof(buf)) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        got = 0;
        while (fd >= 0 && got < sizeof(buf)) {
            ssize_t n = read(fd, buf + got, sizeof(buf) - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        if (fd >= 0)
            close(fd);
    }
    if (got < sizeof(buf)) {
        memset(k, 0, sizeof(*k));
        snprintf(why, cap, "no random numbers from the system (getrandom, /dev/urandom); give "
                 "--key or --key-file");
        return false;
    }
    ok = key_set(k, buf, sizeof(buf), false, why, cap);
    memset(buf, 0, sizeof(buf));
    return ok;
}

void redact_key_free(struct redact_key *k)
{
    if (k->bytes) {
        memset(k->bytes, 0, k->len);
        free(k->bytes);
    }
    memset(k, 0, sizeof(*k));
}
