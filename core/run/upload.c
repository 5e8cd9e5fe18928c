#include "core/run/upload.h"
#include "core/mutant.h"
#include "core/run/netinfo.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

enum upload_verdict upload_judge(uint32_t http_status)
{
    if (http_status >= 200 && http_status < 300)
        return UPLOAD_DONE;
    if (http_status == 409) /* the mutant: a taken name counted as this upload's copy */
        return MUTANT(conflict_taken_as_done) ? UPLOAD_DONE : UPLOAD_CHECK;
    if (MUTANT(upload_retry_client_errors) && http_status >= 400 && http_status < 500)
        return UPLOAD_RETRY;
    /* no answer, a timeout the server admits (408), throttling (429), a server-side failure */
    if (http_status == 0 || http_status == 408 || http_status == 429 || http_status >= 500)
        return UPLOAD_RETRY;
    return UPLOAD_GIVE_UP;
}

enum upload_verdict upload_judge_copy(uint32_t get_status, const void *sent, size_t len,
                                      const void *got, size_t got_len)
{
    if (get_status == 200 && got_len == len && mem_cmp(sent, got, len) == 0)
        return UPLOAD_DONE;
    /* another file under this name (or none readable): waiting will not change it */
    return UPLOAD_GIVE_UP;
}

uint32_t upload_backoff_ms(uint32_t attempt)
{
    uint32_t wait = UPLOAD_BACKOFF_FIRST_MS;
    if (MUTANT(upload_backoff_flat))
        return wait;
    while (attempt > 1 && wait < UPLOAD_BACKOFF_CAP_MS) {
        wait *= 2;
        attempt--;
    }
    return wait < UPLOAD_BACKOFF_CAP_MS ? wait : UPLOAD_BACKOFF_CAP_MS;
}

bool upload_next_attempt(uint32_t attempt, uint32_t max_attempts, uint64_t now_ms,
                         uint64_t deadline_ms, uint32_t *wait_ms)
{
    *wait_ms = 0;
    if (attempt >= max_attempts)
        return false;
    *wait_ms = upload_backoff_ms(attempt);
    if (MUTANT(upload_past_deadline))
        return true;
    return now_ms + *wait_ms < deadline_ms;
}

bool upload_object_url(const char *base, const char *name, const char *ext, uint32_t attempt,
                       char *out, size_t cap)
{
    size_t n = str_len(base);
    struct strbuf sb;
    while (n && base[n - 1] == '/')
        n--;
    sb_init_fixed(&sb, out, cap);
    sb_putn(&sb, base, n);
    sb_putc(&sb, '/');
    sb_puts(&sb, name);
    if (MUTANT(upload_name_per_attempt) && attempt > 1)
        sb_printf(&sb, "-%u", attempt);
    sb_puts(&sb, ext);
    return sb.len + 1 < cap;
}

static bool starts_with(const char *s, const char *prefix)
{
    while (*prefix)
        if (*s++ != *prefix++)
            return false;
    return true;
}

bool upload_url_valid(const char *url, const char **why)
{
    const char *p;
    size_t host = 0;
    if (starts_with(url, "http://"))
        p = url + 7;
    else if (starts_with(url, "https://"))
        p = url + 8;
    else {
        *why = "expected http://HOST[:PORT]/PATH or https://...";
        return false;
    }
    for (; *p && *p != '/' && *p != ':'; p++)
        host++;
    if (!host) {
        *why = "no host after the scheme";
        return false;
    }
    for (p = url; *p; p++) {
        if (*p <= ' ' || *p > '~') {
            *why = "blanks or non-ASCII characters in the URL";
            return false;
        }
        if (*p == '?' || *p == '#') {
            *why = "a query or fragment: the report's name is appended to the URL's path";
            return false;
        }
    }
    return true;
}

void upload_outcome_text(const struct upload_outcome *u, bool text_sent, const char *name,
                         const char *sha256_hex, size_t json_len, struct strbuf *sb)
{
    const char *state = u->state == UPLOAD_OK       ? (text_sent ? "succeeded" : "json-only")
                        : u->state == UPLOAD_FAILED ? "failed"
                                                    : "started";
    sb_printf(sb, "# tlbscope: the upload (upload=) of %s.json and .txt beside this file.\n"
                  "# state=started: the machine stopped during the upload; whether the\n"
                  "# collector has the report, only the collector can tell.\n",
              name);
    sb_printf(sb, "report=%s\njson_bytes=%llu\njson_sha256=%s\nstate=%s\nattempts=%u\n", name,
              (unsigned long long)json_len, sha256_hex, state, u->attempts);
    if (u->state != UPLOAD_PENDING) {
        sb_printf(sb, "http_status=%u\n", u->http_status);
        if (u->why[0] && (u->state == UPLOAD_FAILED || !text_sent))
            sb_printf(sb, "why=%s\n", u->why);
    }
}

void upload_status_text(const struct upload_outcome *u, const char *configured_url,
                        uint32_t attempts_max, struct strbuf *sb)
{
    const char *url = u->url[0] ? u->url : configured_url;
    switch (u->state) {
    case UPLOAD_OFF:
        break;
    case UPLOAD_PENDING:
        sb_printf(sb, "Upload    this copy goes to %s once the stick or the console has it;\n"
                      "          how that went: the console, and the .upload file beside it\n",
                  url);
        break;
    case UPLOAD_OK:
        sb_printf(sb, "Upload    succeeded: %s (HTTP %u, attempt %u of at most %u)\n", u->url,
                  u->http_status, u->attempts, attempts_max);
        if (!u->text_sent)
            sb_printf(sb, "          the .txt did not arrive: %s\n", u->why);
        break;
    case UPLOAD_FAILED:
        sb_printf(sb, "Upload    FAILED: %s ", url);
        if (u->attempts)
            sb_printf(sb, "after %u attempt%s", u->attempts, u->attempts == 1 ? "" : "s");
        else
            sb_puts(sb, "before any attempt");
        sb_printf(sb, ": %s; the report stays on the boot volume (when there is one) and on the "
                      "console\n", u->why);
        break;
    }
}
