#include "efi/upload.h"
#include "efi/console.h"

#include "asm/cpu.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/machine/timing.h"
#include "core/run/upload.h"

#define ATTEMPT_TIMEOUT_MS 15000u /* one PUT of a report: connection, transfer and answer */
#define ADDRESS_TIMEOUT_MS 15000u /* DHCP on a stick boot */

static bool ready(const struct run *r) { return r->upload.state == UPLOAD_PENDING; }

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
static const char *shown(const struct run *r, const char *url)
{
    return r->cfg.redact ? "(the collector: redact=on)" : url;
}

void upload_prepare(struct run *r, struct netboot *nb, bool released)
{
    struct upload_outcome *u = &r->upload;
    mem_zero(u, sizeof(*u));
    if (!r->cfg.upload[0])
        return;
    u->state = UPLOAD_PENDING;
    if (!upload_object_url(r->cfg.upload, r->run_id, ".json", 1, u->url, sizeof(u->url))) {
        u->state = UPLOAD_FAILED;
        fmt_into(u->why, sizeof(u->why), "the report's URL is too long");
        return;
    }
    if (!released) {
        /* an AP may still run the tool's code: leave the firmware's network stack alone */
        u->state = UPLOAD_FAILED;
        fmt_into(u->why, sizeof(u->why), "an AP did not come back, so the network was not used");
        return;
    }
    if (nb->route.have_local && !reachable_from_boot_address(&nb->route, r->cfg.upload)) {
        con_printf("Upload: the collector is not on the boot address's subnet; using the NIC's "
                   "default address\n");
        nb->route.have_local = false;
    }
    /* nothing more here: the network is touched only once the report is safe (issue 35) */
}

/* A stick boot asked nothing of the network yet: the NIC's address, by DHCP if need be. */
static bool get_address(struct run *r, struct netboot *nb)
{
    struct upload_outcome *u = &r->upload;
    char ip[16], mac[18];
    if (nb->route.have_local)
        return true;
    con_printf("Upload: asking the firmware for the NIC's IPv4 address (DHCP)\n");
    if (!http_default_address(&nb->route, ADDRESS_TIMEOUT_MS, ip, mac, u->why, sizeof(u->why)))
        return false;
    /* the report is written already: the address is for whoever watches the console */
    con_printf("Upload: the NIC's address is %s\n", r->cfg.redact ? "(redact=on)" : ip);
    return true;
}

static uint64_t elapsed_ms(uint64_t start) { return ticks_to_ms(tsc_now() - start); }

/*
 * 409: the collector has this name already. Read it back: the same bytes are
 * this upload's own earlier attempt (its answer lost), anything else is not.
 */
static enum upload_verdict check_copy(struct run *r, struct netboot *nb, const char *url,
                                      const char *body, size_t len, uint32_t timeout)
{
    struct upload_outcome *u = &r->upload;
    struct http_answer a;
    enum upload_verdict v = UPLOAD_GIVE_UP;
    char *copy = mem_alloc(len + 1);
    if (!copy) {
        fmt_into(u->why, sizeof(u->why), "HTTP status 409, and no memory to read the copy back");
        return v;
    }
    /* one byte more than ours: a longer file there does not fit and is not ours */
    if (http_exchange(&nb->route, HTTP_GET, url, NULL, copy, 0, len + 1, timeout, &a))
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
static bool put_file(struct run *r, struct netboot *nb, const char *url, const char *type,
                     const char *body, size_t len, uint64_t start, uint64_t deadline_ms,
                     uint32_t *attempts)
{
    struct upload_outcome *u = &r->upload;
    uint32_t attempt, wait_ms;
    for (attempt = 1;; attempt++) {
        struct http_answer a;
        uint64_t now = elapsed_ms(start);
        uint64_t left = deadline_ms > now ? deadline_ms - now : 1;
        uint32_t timeout = left < ATTEMPT_TIMEOUT_MS ? (uint32_t)left : ATTEMPT_TIMEOUT_MS;
        bool answered = http_exchange(&nb->route, HTTP_PUT, url, type, (char *)body, len, len,
                                      timeout, &a);
        enum upload_verdict v = upload_judge(answered ? a.status : 0);
        *attempts = attempt;
        u->http_status = answered ? a.status : 0;
        if (answered)
            fmt_into(u->why, sizeof(u->why), "HTTP status %u", a.status);
        else
            fmt_into(u->why, sizeof(u->why), "%s", a.why);
        if (v == UPLOAD_CHECK) {
            v = check_copy(r, nb, url, body, len, timeout);
            con_printf("Upload: PUT %s: HTTP 409; read back: %s\n", shown(r, url), u->why);
            if (v == UPLOAD_DONE)
                return true;
        }
        if (v == UPLOAD_DONE) {
            con_printf("Upload: PUT %s: HTTP %u (attempt %u)\n", shown(r, url), a.status, attempt);
            return true;
        }
        if (v == UPLOAD_GIVE_UP) {
            con_printf("Upload: PUT %s: %s; not retried\n", shown(r, url), u->why);
            return false;
        }
        if (!upload_next_attempt(attempt, r->cfg.upload_attempts, elapsed_ms(start), deadline_ms,
                                 &wait_ms)) {
            con_printf("Upload: PUT %s: %s (attempt %u); giving up (%s)\n", shown(r, url), u->why,
                       attempt,
                       attempt >= r->cfg.upload_attempts ? "no attempts left"
                                                         : "the deadline comes first");
            return false;
        }
        con_printf("Upload: PUT %s: %s (attempt %u); again in %u ms\n", shown(r, url), u->why,
                   attempt, wait_ms);
        uefi_call_wrapper(BS->Stall, 1, (UINTN)wait_ms * 1000);
    }
}

void upload_send(struct run *r, struct netboot *nb, const char *json, size_t json_len,
                 const char *text, size_t text_len)
{
    struct upload_outcome *u = &r->upload;
    uint64_t start, deadline_ms = (uint64_t)r->cfg.upload_deadline_s * 1000;
    char text_url[sizeof(u->url)];
    uint32_t text_attempts = 0;
    if (!ready(r))
        return;
    u->state = UPLOAD_FAILED;
    if (!get_address(r, nb))
        return;
    /* upload_deadline_s counts from the first attempt, the DHCP wait (its own 15 s) apart */
    start = tsc_now();
    if (!put_file(r, nb, u->url, "application/json", json, json_len, start, deadline_ms,
                  &u->attempts))
        return;
    u->state = UPLOAD_OK;
    upload_object_url(r->cfg.upload, r->run_id, ".txt", 1, text_url, sizeof(text_url));
    /* the JSON arrived: the text's failure is worth a mention, not a failed upload */
    u->text_sent = put_file(r, nb, text_url, "text/plain; charset=utf-8", text, text_len, start,
                            deadline_ms, &text_attempts);
}
