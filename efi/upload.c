#include "efi/upload.h"
#include "efi/clock.h"
#include "efi/console.h"

#include "efi/report_out.h"

#include "core/lib/mem.h"
#include "core/lib/sha256.h"
#include "core/lib/strbuf.h"
#include "core/run/upload.h"

#define ATTEMPT_TIMEOUT_MS 15000u /* one PUT of a report: connection, transfer and answer */
#define ADDRESS_TIMEOUT_MS 15000u /* DHCP on a stick boot */

static bool ready(const struct upload_job *job) { return job->outcome->state == UPLOAD_PENDING; }

/* The URL's host as a dotted IPv4 address; false for a name (or anything else). */
static bool url_ipv4(const char *url, uint8_t ip[4])
{
    const char *p = url;
    uint32_t part = 0, n = 0, digits = 0;
    while (*p && !(p[0] == ':' && p[1] == '/' && p[2] == '/'))
        p++;
    if (!*p)
        return false;
    for (p += 3;; p++) {
        if (*p >= '0' && *p <= '9') {
            part = part * 10 + (uint32_t)(*p - '0');
            if (++digits > 3 || part > 255)
                return false;
        } else if (digits && n < 4 && (*p == '.' || *p == ':' || *p == '/' || !*p)) {
            ip[n++] = (uint8_t)part;
            part = digits = 0;
            if (*p != '.')
                return n == 4;
        } else {
            return false;
        }
    }
}

/*
 * The address a network boot used has no gateway and no DNS server: it
 * reaches the collector only on its own subnet. A collector elsewhere, or
 * named, needs the NIC's default address (DHCP: mask, gateway, DNS).
 */
static bool reachable_from_boot_address(const struct http_route *route, const char *url)
{
    uint8_t ip[4];
    uint32_t i;
    if (!url_ipv4(url, ip))
        return false;
    for (i = 0; i < 4; i++)
        if ((ip[i] & route->subnet.Addr[i]) != (route->local.Addr[i] & route->subnet.Addr[i]))
            return false;
    return true;
}

/* A URL on the console: under redact=on the console shows no more than the report does. */
static const char *shown(const struct upload_job *job, const char *url)
{
    return job->cfg->redact ? "(the collector: redact=on)" : url;
}

void upload_prepare(struct upload_job *job, bool released)
{
    struct upload_outcome *u = job->outcome;
    struct http_route *route = job->route;
    mem_zero(u, sizeof(*u));
    if (!job->cfg->upload[0])
        return;
    u->state = UPLOAD_PENDING;
    if (!upload_object_url(job->cfg->upload, job->name, ".json", 1, u->url, sizeof(u->url))) {
        u->state = UPLOAD_FAILED;
        fmt_into(u->why, sizeof(u->why), "the report's URL is too long");
        return;
    }
    if (!released) {
        /* a CPU may still run the tool's code: leave the firmware's network stack alone */
        u->state = UPLOAD_FAILED;
        fmt_into(u->why, sizeof(u->why), "a CPU did not come back, so the network was not used");
        return;
    }
    if (route->have_local && !reachable_from_boot_address(route, job->cfg->upload)) {
        con_printf("Upload: the collector is not on the boot address's subnet; using the NIC's "
                   "default address\n");
        route->have_local = false;
    }
    /* nothing more here: the network is touched only once the report is safe (issue 35) */
}

/* A stick boot asked nothing of the network yet: the NIC's address, by DHCP if need be. */
static bool get_address(struct upload_job *job)
{
    struct upload_outcome *u = job->outcome;
    char ip[16], mac[18];
    if (job->route->have_local)
        return true;
    con_printf("Upload: asking the firmware for the NIC's IPv4 address (DHCP)\n");
    if (!http_default_address(job->route, ADDRESS_TIMEOUT_MS, ip, mac, u->why, sizeof(u->why)))
        return false;
    /* the report is written already: the address is for whoever watches the console */
    con_printf("Upload: the NIC's address is %s\n", job->cfg->redact ? "(redact=on)" : ip);
    return true;
}

static uint64_t elapsed_ms(uint64_t start) { return clock_ms() - start; }

/*
 * 409: the collector has this name already. Read it back: the same bytes are
 * this upload's own earlier attempt (its answer lost), anything else is not.
 */
static enum upload_verdict check_copy(struct upload_job *job, const char *url, const char *body,
                                      size_t len, uint32_t timeout)
{
    struct upload_outcome *u = job->outcome;
    struct http_answer a;
    enum upload_verdict v = UPLOAD_GIVE_UP;
    char *copy = mem_alloc(len + 1);
    if (!copy) {
        fmt_into(u->why, sizeof(u->why), "HTTP status 409, and no memory to read the copy back");
        return v;
    }
    /* one byte more than ours: a longer file there does not fit and is not ours */
    if (http_exchange(job->route, HTTP_GET, url, NULL, copy, 0, len + 1, timeout, &a))
        v = upload_judge_copy(a.status, body, len, copy, a.body_len);
    mem_free(copy);
    if (v == UPLOAD_DONE)
        fmt_into(u->why, sizeof(u->why), "already there: the same bytes (an earlier attempt)");
    else
        fmt_into(u->why, sizeof(u->why), "HTTP status 409: the collector holds another file "
                 "under this name");
    return v;
}

/* PUT one file with retries; true when the server took it. */
static bool put_file(struct upload_job *job, const char *url, const char *type, const char *body,
                     size_t len, uint64_t start, uint64_t deadline_ms, uint32_t *attempts)
{
    struct upload_outcome *u = job->outcome;
    uint32_t attempt, wait_ms;
    for (attempt = 1;; attempt++) {
        struct http_answer a;
        uint64_t now = elapsed_ms(start);
        uint64_t left = deadline_ms > now ? deadline_ms - now : 1;
        uint32_t timeout = left < ATTEMPT_TIMEOUT_MS ? (uint32_t)left : ATTEMPT_TIMEOUT_MS;
        bool answered = http_exchange(job->route, HTTP_PUT, url, type, (char *)body, len, len,
                                      timeout, &a);
        enum upload_verdict v = upload_judge(answered ? a.status : 0);
        *attempts = attempt;
        u->http_status = answered ? a.status : 0;
        if (answered)
            fmt_into(u->why, sizeof(u->why), "HTTP status %u", a.status);
        else
            fmt_into(u->why, sizeof(u->why), "%s", a.why);
        if (v == UPLOAD_CHECK) {
            v = check_copy(job, url, body, len, timeout);
            con_printf("Upload: PUT %s: HTTP 409; read back: %s\n", shown(job, url), u->why);
            if (v == UPLOAD_DONE)
                return true;
        }
        if (v == UPLOAD_DONE) {
            con_printf("Upload: PUT %s: HTTP %u (attempt %u)\n", shown(job, url), a.status, attempt);
            return true;
        }
        if (v == UPLOAD_GIVE_UP) {
            con_printf("Upload: PUT %s: %s; not retried\n", shown(job, url), u->why);
            return false;
        }
        if (!upload_next_attempt(attempt, job->cfg->upload_attempts, elapsed_ms(start), deadline_ms,
                                 &wait_ms)) {
            con_printf("Upload: PUT %s: %s (attempt %u); giving up (%s)\n", shown(job, url), u->why,
                       attempt,
                       attempt >= job->cfg->upload_attempts ? "no attempts left"
                                                         : "the deadline comes first");
            return false;
        }
        con_printf("Upload: PUT %s: %s (attempt %u); again in %u ms\n", shown(job, url), u->why,
                   attempt, wait_ms);
        uefi_call_wrapper(BS->Stall, 1, (UINTN)wait_ms * 1000);
    }
}

void upload_send(struct upload_job *job, const char *json, size_t json_len, const char *text,
                 size_t text_len)
{
    struct upload_outcome *u = job->outcome;
    uint64_t start, deadline_ms = (uint64_t)job->cfg->upload_deadline_s * 1000;
    char text_url[sizeof(u->url)];
    uint32_t text_attempts = 0;
    if (!ready(job))
        return;
    u->state = UPLOAD_FAILED;
    if (!get_address(job))
        return;
    /* upload_deadline_s counts from the first attempt, the DHCP wait (its own 15 s) apart */
    start = clock_ms();
    if (!put_file(job, u->url, "application/json", json, json_len, start, deadline_ms,
                  &u->attempts))
        return;
    u->state = UPLOAD_OK;
    upload_object_url(job->cfg->upload, job->name, ".txt", 1, text_url, sizeof(text_url));
    /* the JSON arrived: the text's failure is worth a mention, not a failed upload */
    u->text_sent = put_file(job, text_url, "text/plain; charset=utf-8", text, text_len, start,
                            deadline_ms, &text_attempts);
}

/* The upload's outcome beside the report (core/run/upload.h upload_outcome_text()). */
static void save_outcome(struct upload_job *job, struct volume *v, struct msg_list *errors,
                         const char *base, const char *sha, size_t json_len)
{
    char buf[768];
    struct strbuf sb;
    if (!base[0])
        return;
    sb_init_fixed(&sb, buf, sizeof(buf));
    upload_outcome_text(job->outcome, job->outcome->text_sent, base, sha, json_len, &sb);
    if (!report_save_outcome(errors, v, base, sb.data, sb.len))
        con_printf("Upload: the outcome could not be written beside the report\n");
}

/*
 * upload=: the same bytes as the stick's and the console's, sent after them
 * (issue 35): whatever the network does, and however long its retries take,
 * the copies are already safe. The stick's outcome file says "started" first,
 * so a power loss in between leaves that much said.
 */
void upload_after_save(struct upload_job *job, struct volume *v, struct msg_list *errors,
                       const char *base, const char *json, size_t json_len, const char *text,
                       size_t text_len, void (*status_line)(struct strbuf *sb, const void *ctx),
                       const void *ctx)
{
    uint8_t digest[SHA256_DIGEST_LEN];
    char sha[2 * SHA256_DIGEST_LEN + 1], line[512];
    struct strbuf sb;
    uint32_t i;
    sha256(json, json_len, digest);
    for (i = 0; i < SHA256_DIGEST_LEN; i++)
        fmt_into(sha + 2 * i, 3, "%02x", digest[i]);
    save_outcome(job, v, errors, base, sha, json_len);
    upload_send(job, json, json_len, text, text_len);
    sb_init_fixed(&sb, line, sizeof(line));
    status_line(&sb, ctx);
    con_writen(sb.data, sb.len);
    save_outcome(job, v, errors, base, sha, json_len);
}
