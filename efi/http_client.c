#include "efi/http_client.h"
#include "efi/net_protocols.h"

#include "core/run/config.h"
#include "core/lib/http_length.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

static EFI_GUID http_sb_guid = TLBSCOPE_HTTP_SERVICE_BINDING_GUID;
static EFI_GUID http_guid = TLBSCOPE_HTTP_PROTOCOL_GUID;
static EFI_GUID ip4_config2_guid = TLBSCOPE_IP4_CONFIG2_GUID;
static EFI_GUID snp_guid = EFI_SIMPLE_NETWORK_PROTOCOL_GUID;

#define URL_CHARS (CONFIG_URL_MAX + 128)
#define POLL_STALL_US 200

/*
 * EFI_HTTP_STATUS_CODE is an enumeration, not the number: its order in the
 * UEFI specification (and EDK2's Http.h), 308 and 429 added at the end.
 */
unsigned net_http_status_number(UINT32 code)
{
    static const uint16_t numbers[] = {
        0,   100, 101, 200, 201, 202, 203, 204, 205, 206, 300, 301, 302, 303, 304,
        305, 307, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412,
        413, 414, 415, 416, 417, 500, 501, 502, 503, 504, 505, 308, 429,
    };
    return code < sizeof(numbers) / sizeof(numbers[0]) ? numbers[code] : 0;
}

/* A deadline as a firmware timer event; no event (out of resources) counts as passed. */
static EFI_EVENT deadline_start(uint32_t ms)
{
    EFI_EVENT ev = NULL;
    if (EFI_ERROR(uefi_call_wrapper(BS->CreateEvent, 5, EVT_TIMER, 0, NULL, NULL, &ev)))
        return NULL;
    if (EFI_ERROR(uefi_call_wrapper(BS->SetTimer, 3, ev, TimerRelative, (UINT64)ms * 10000))) {
        uefi_call_wrapper(BS->CloseEvent, 1, ev);
        return NULL;
    }
    return ev;
}

static bool deadline_passed(EFI_EVENT ev)
{
    return !ev || uefi_call_wrapper(BS->CheckEvent, 1, ev) == EFI_SUCCESS;
}

static void event_close(EFI_EVENT ev)
{
    if (ev)
        uefi_call_wrapper(BS->CloseEvent, 1, ev);
}

/* The firmware signals a token's event at TPL_CALLBACK: it calls this with its own ABI. */
static VOID MSABI mark_done(EFI_EVENT ev, VOID *ctx)
{
    (void)ev;
    *(volatile BOOLEAN *)ctx = TRUE;
}

/*
 * A stick boot may leave the network unconnected: OVMF, given a boot order,
 * connects only the boot device. Connect the NICs (first pass) or, when even
 * their drivers never started, every handle (as the shell's "connect -r"),
 * so the network stack binds.
 */
static void connect_nics(bool everything)
{
    EFI_HANDLE *h = NULL;
    UINTN n = 0, i;
    EFI_STATUS st = everything
                        ? uefi_call_wrapper(BS->LocateHandleBuffer, 5, AllHandles, NULL, NULL, &n, &h)
                        : uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &snp_guid, NULL,
                                            &n, &h);
    if (EFI_ERROR(st))
        return;
    for (i = 0; i < n; i++)
        uefi_call_wrapper(BS->ConnectController, 4, h[i], NULL, NULL, TRUE);
    uefi_call_wrapper(BS->FreePool, 1, h);
}

static struct net_service_binding *find_binding(struct http_route *route)
{
    struct net_service_binding *sb = NULL;
    EFI_HANDLE *h = NULL;
    UINTN n = 0;
    int pass;
    if (route->nic && !EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, route->nic,
                                                   &http_sb_guid, (void **)&sb)))
        return sb;
    for (pass = 0; pass < 3 && !sb; pass++) {
        if (pass)
            connect_nics(pass == 2);
        if (EFI_ERROR(uefi_call_wrapper(BS->LocateHandleBuffer, 5, ByProtocol, &http_sb_guid, NULL,
                                        &n, &h)))
            continue;
        if (n && !EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, h[0], &http_sb_guid,
                                              (void **)&sb)))
            route->nic = h[0];
        uefi_call_wrapper(BS->FreePool, 1, h);
    }
    return sb;
}

static void format_ip(const EFI_IPv4_ADDRESS *a, char out[16])
{
    fmt_into(out, 16, "%u.%u.%u.%u", a->Addr[0], a->Addr[1], a->Addr[2], a->Addr[3]);
}

static bool ip_is_zero(const EFI_IPv4_ADDRESS *a)
{
    return !(a->Addr[0] | a->Addr[1] | a->Addr[2] | a->Addr[3]);
}

/* The interface's facts; a pool buffer the caller frees (its route table follows it). */
static struct net_ip4_interface_info *interface_info(struct net_ip4_config2 *c2)
{
    UINTN size = 0;
    struct net_ip4_interface_info *info = NULL;
    EFI_STATUS st = c2->GetData(c2, NET_IP4_CONFIG2_INTERFACE_INFO, &size, NULL);
    if (st != EFI_BUFFER_TOO_SMALL || size < sizeof(*info) || !(info = mem_alloc(size)))
        return NULL;
    if (EFI_ERROR(c2->GetData(c2, NET_IP4_CONFIG2_INTERFACE_INFO, &size, info))) {
        mem_free(info);
        return NULL;
    }
    return info;
}

bool http_default_address(struct http_route *route, uint32_t timeout_ms, char ip[16],
                          char mac[18], char *why, size_t why_cap)
{
    struct net_ip4_config2 *c2 = NULL;
    struct net_ip4_interface_info *info;
    EFI_EVENT dl;
    UINT32 policy = NET_IP4_POLICY_STATIC;
    UINTN size = sizeof(policy);
    bool ok = false;
    ip[0] = mac[0] = 0;
    if (!find_binding(route)) {
        fmt_into(why, why_cap, "the firmware has no HTTP service (no network stack or no NIC)");
        return false;
    }
    if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, route->nic, &ip4_config2_guid,
                                    (void **)&c2))) {
        fmt_into(why, why_cap, "the NIC has no IPv4 configuration protocol");
        return false;
    }
    if (!(info = interface_info(c2))) {
        fmt_into(why, why_cap, "the NIC's IPv4 interface facts could not be read");
        return false;
    }
    fmt_into(mac, 18, "%02x:%02x:%02x:%02x:%02x:%02x", info->HwAddress.Addr[0],
             info->HwAddress.Addr[1], info->HwAddress.Addr[2], info->HwAddress.Addr[3],
             info->HwAddress.Addr[4], info->HwAddress.Addr[5]);
    if (!ip_is_zero(&info->StationAddress)) {
        format_ip(&info->StationAddress, ip);
        mem_free(info);
        return true;
    }
    mem_free(info);
    /*
     * No address yet (a stick boot: nothing asked for one). A static policy
     * without an address would never get one: ask for DHCP, as the UEFI
     * shell's "ifconfig -s eth0 dhcp" does. The firmware keeps the policy.
     */
    if (!EFI_ERROR(c2->GetData(c2, NET_IP4_CONFIG2_POLICY, &size, &policy)) &&
        policy != NET_IP4_POLICY_DHCP) {
        policy = NET_IP4_POLICY_DHCP;
        c2->SetData(c2, NET_IP4_CONFIG2_POLICY, sizeof(policy), &policy);
    }
    dl = deadline_start(timeout_ms);
    while (!ok) {
        if ((info = interface_info(c2))) {
            if (!ip_is_zero(&info->StationAddress)) {
                format_ip(&info->StationAddress, ip);
                ok = true;
            }
            mem_free(info);
        }
        if (ok || deadline_passed(dl))
            break;
        uefi_call_wrapper(BS->Stall, 1, 50000);
    }
    event_close(dl);
    if (!ok)
        fmt_into(why, why_cap, "no IPv4 address from DHCP within %u ms", timeout_ms);
    return ok;
}

/* Polls the HTTP instance until the token's event fired or the deadline passed. */
static bool wait_token(struct net_http *http, volatile BOOLEAN *done, EFI_EVENT dl)
{
    while (!*done && !deadline_passed(dl)) {
        http->Poll(http);
        uefi_call_wrapper(BS->Stall, 1, POLL_STALL_US);
    }
    return *done;
}

/* The answer's Content-Length, read strictly (core/lib/http_length.h): at most `max` bytes. */
static void content_length(const struct net_http_message *m, uint64_t max, struct http_length *l)
{
    size_t i;
    http_length_init(l, max);
    for (i = 0; m->Headers && i < m->HeaderCount; i++)
        http_length_header(l, (const char *)m->Headers[i].FieldName,
                           (const char *)m->Headers[i].FieldValue);
}

/* "http://HOST:PORT/..." -> "HOST:PORT", the Host header HTTP/1.1 requires. */
static void host_of(const char *url, char *out, size_t cap)
{
    const char *p = url, *end;
    while (*p && !(p[0] == ':' && p[1] == '/' && p[2] == '/'))
        p++;
    p = *p ? p + 3 : url;
    for (end = p; *end && *end != '/'; end++)
        ;
    fmt_into(out, cap, "%.*s", (int)(end - p), p);
}

struct exchange {
    struct net_http *http;
    EFI_EVENT dl;
    volatile BOOLEAN done;
    EFI_EVENT ev;
    struct net_http_token token;
};

static bool token_run(struct exchange *x, bool response, const char *what, struct http_answer *a)
{
    EFI_STATUS st;
    x->done = FALSE;
    x->token.Event = x->ev;
    x->token.Status = EFI_SUCCESS;
    st = response ? x->http->Response(x->http, &x->token) : x->http->Request(x->http, &x->token);
    if (EFI_ERROR(st)) {
        fmt_into(a->why, sizeof(a->why), "%s: %s", what, efi_status_name(st));
        return false;
    }
    if (!wait_token(x->http, &x->done, x->dl)) {
        x->http->Cancel(x->http, &x->token);
        fmt_into(a->why, sizeof(a->why), "%s: no completion before the deadline", what);
        return false;
    }
    /* EDK2 reports a 4xx or 5xx answer as EFI_HTTP_ERROR, its status code filled in */
    if (EFI_ERROR(x->token.Status) && !(response && x->token.Status == NET_EFI_HTTP_ERROR)) {
        fmt_into(a->why, sizeof(a->why), "%s: %s", what,
                 x->token.Status == NET_EFI_HTTP_ERROR ? "EFI_HTTP_ERROR"
                                                       : efi_status_name(x->token.Status));
        return false;
    }
    return true;
}

bool http_exchange(const struct http_route *route_in, enum http_method_kind method, const char *url,
                   const char *content_type, char *body, size_t len, size_t cap,
                   uint32_t timeout_ms, struct http_answer *a)
{
    static CHAR16 wurl[URL_CHARS];
    static char host[128], length[24];
    struct http_route route = *route_in;
    struct net_service_binding *sb;
    struct net_httpv4_access_point ap;
    struct net_http_config conf;
    struct net_http_request_data req;
    struct net_http_response_data resp;
    struct net_http_header hdr[3];
    struct net_http_message msg;
    struct exchange x;
    EFI_HANDLE child = NULL;
    EFI_STATUS st;
    bool answered = false;
    struct http_length framing;

    mem_zero(a, sizeof(*a));
    mem_zero(&x, sizeof(x));
    if (!(sb = find_binding(&route))) {
        fmt_into(a->why, sizeof(a->why), "the firmware has no HTTP service (no network stack or "
                                          "no NIC)");
        return false;
    }
    if (!route.have_local) {
        char ip[16], mac[18];
        if (!http_default_address(&route, timeout_ms, ip, mac, a->why, sizeof(a->why)))
            return false;
    }
    st = sb->CreateChild(sb, &child);
    if (!EFI_ERROR(st))
        st = uefi_call_wrapper(BS->HandleProtocol, 3, child, &http_guid, (void **)&x.http);
    if (EFI_ERROR(st)) {
        fmt_into(a->why, sizeof(a->why), "no HTTP instance: %s", efi_status_name(st));
        goto out;
    }
    mem_zero(&ap, sizeof(ap));
    ap.UseDefaultAddress = !route.have_local;
    ap.LocalAddress = route.local;
    ap.LocalSubnet = route.subnet;
    mem_zero(&conf, sizeof(conf));
    conf.HttpVersion = NET_HTTP_VERSION_11;
    conf.TimeOutMillisec = timeout_ms;
    conf.IPv4Node = &ap;
    st = x.http->Configure(x.http, &conf);
    if (EFI_ERROR(st)) {
        fmt_into(a->why, sizeof(a->why), "HTTP configure: %s", efi_status_name(st));
        goto out;
    }
    st = uefi_call_wrapper(BS->CreateEvent, 5, EVT_NOTIFY_SIGNAL, TPL_CALLBACK, mark_done,
                           (void *)&x.done, &x.ev);
    if (EFI_ERROR(st)) {
        fmt_into(a->why, sizeof(a->why), "no event: %s", efi_status_name(st));
        goto out;
    }
    x.dl = deadline_start(timeout_ms);

    ascii_to_ucs2(wurl, URL_CHARS, url);
    host_of(url, host, sizeof(host));
    req.Method = method == HTTP_PUT ? NET_HTTP_PUT : NET_HTTP_GET;
    req.Url = wurl;
    hdr[0].FieldName = (CHAR8 *)"Host";
    hdr[0].FieldValue = (CHAR8 *)host;
    if (method == HTTP_PUT) {
        fmt_into(length, sizeof(length), "%llu", (unsigned long long)len);
        hdr[1].FieldName = (CHAR8 *)"Content-Type";
        hdr[1].FieldValue = (CHAR8 *)content_type;
        hdr[2].FieldName = (CHAR8 *)"Content-Length";
        hdr[2].FieldValue = (CHAR8 *)length;
    } else {
        hdr[1].FieldName = (CHAR8 *)"Accept";
        hdr[1].FieldValue = (CHAR8 *)"*/*";
    }
    mem_zero(&msg, sizeof(msg));
    msg.Data = &req;
    msg.HeaderCount = method == HTTP_PUT ? 3 : 2;
    msg.Headers = hdr;
    msg.BodyLength = method == HTTP_PUT ? len : 0;
    msg.Body = method == HTTP_PUT ? body : NULL;
    x.token.Message = &msg;
    if (!token_run(&x, false, "sending", a))
        goto out;

    /*
     * The answer's status and headers first, with no body buffer: EDK2 completes
     * such a call once the headers are in (HTTP boot reads a file the same way);
     * with a buffer it would wait for a body a 201 does not have.
     */
    mem_zero(&resp, sizeof(resp));
    mem_zero(&msg, sizeof(msg));
    msg.Data = &resp;
    if (!token_run(&x, true, "waiting for the answer", a))
        goto out;
    answered = true;
    a->status = net_http_status_number(resp.StatusCode);
    if (!a->status)
        a->status = 599; /* an answer whose status the firmware does not name: a server error */
    content_length(&msg, cap, &framing);
    if (msg.Headers)
        uefi_call_wrapper(BS->FreePool, 1, msg.Headers);
    /* a GET's body, in as many pieces as it comes; a PUT's answer body is not needed */
    while (method == HTTP_GET && framing.state == HTTP_LENGTH_VALID &&
           a->body_len < framing.bytes) {
        mem_zero(&msg, sizeof(msg));
        msg.Body = body + a->body_len;
        msg.BodyLength = framing.bytes - a->body_len;
        if (!token_run(&x, true, "reading the body", a) || !msg.BodyLength)
            break;
        a->body_len += msg.BodyLength;
    }
    /* a body is whole only when exactly the bytes one valid Content-Length announced came */
    if (method == HTTP_GET && a->status == 200 &&
        (framing.state != HTTP_LENGTH_VALID || a->body_len != framing.bytes)) {
        if (framing.state == HTTP_LENGTH_ABSENT)
            fmt_into(a->why, sizeof(a->why), "no Content-Length in the answer");
        else if (framing.state == HTTP_LENGTH_INVALID)
            fmt_into(a->why, sizeof(a->why), "the answer's framing is invalid: %s (at most %llu "
                     "bytes taken)", framing.why, (unsigned long long)cap);
        else
            fmt_into(a->why, sizeof(a->why), "body cut short (%llu of %llu bytes)",
                     (unsigned long long)a->body_len, (unsigned long long)framing.bytes);
        a->status = 0;
        answered = false;
    }
out:
    if (x.http)
        x.http->Configure(x.http, NULL);
    if (child)
        sb->DestroyChild(sb, child);
    event_close(x.ev);
    event_close(x.dl);
    return answered;
}
