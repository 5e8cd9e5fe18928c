/*
 * One HTTP exchange through the firmware's own HTTP protocol
 * (EFI_HTTP_SERVICE_BINDING -> EFI_HTTP_PROTOCOL): a fresh child per
 * exchange, so a failed attempt leaves no half-open connection behind for
 * the next. Every wait is bounded by a firmware timer event (the TSC is not
 * calibrated yet when the configuration is fetched).
 *
 * The network stack runs on the firmware's timer: call this only at the
 * firmware's TPL with the machine handed back, never during the takeover.
 */
#ifndef TLBSCOPE_EFI_HTTP_CLIENT_H
#define TLBSCOPE_EFI_HTTP_CLIENT_H

#include "efi/efi_util.h"

/* Which NIC and which local address: from the network boot, or the firmware's default. */
struct http_route {
    EFI_HANDLE nic;            /* the controller with the HTTP service binding; NULL: the first */
    bool have_local;           /* use this address (netboot), else the NIC's default (DHCP) */
    EFI_IPv4_ADDRESS local, subnet;
};

struct http_answer {
    uint32_t status;           /* 200, 201, 503 ...; 0 when no answer came */
    size_t body_len;           /* bytes of the body kept (at most the caller's capacity) */
    char why[128];             /* what failed, when no answer came */
};

enum http_method_kind { HTTP_GET, HTTP_PUT };

/*
 * GET url into body (cap bytes), or PUT body (len bytes) to url. Returns
 * true when an answer came (any status); false with answer->why otherwise.
 */
bool http_exchange(const struct http_route *route, enum http_method_kind method, const char *url,
                   const char *content_type, char *body, size_t len, size_t cap,
                   uint32_t timeout_ms, struct http_answer *answer);

/*
 * The IPv4 address and MAC address the NIC has by default (after DHCP if it
 * had to be started): "" when unknown. Fills route->nic when it was NULL.
 */
bool http_default_address(struct http_route *route, uint32_t timeout_ms, char ip[16],
                          char mac[18], char *why, size_t why_cap);

#endif
