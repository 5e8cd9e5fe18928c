#include "efi/netboot.h"

#include "efi/net_protocols.h"

#include "core/lib/mem.h"
#include "core/lib/strbuf.h"

#define CONFIG_NAME "tlbscope.cfg"
#define FETCH_TIMEOUT_MS 10000

static void format_ip(const EFI_IPv4_ADDRESS *a, char out[16])
{
    fmt_into(out, 16, "%u.%u.%u.%u", a->Addr[0], a->Addr[1], a->Addr[2], a->Addr[3]);
}

/* The MAC, IPv4 and URI nodes of the device path the image was loaded from. */
static void read_device_path(EFI_DEVICE_PATH *dp, struct netboot *nb)
{
    unsigned guard = 0;
    for (; dp && !IsDevicePathEnd(dp) && guard < 64; dp = NextDevicePathNode(dp), guard++) {
        size_t len = DevicePathNodeLength(dp);
        if (len < 4)
            break; /* a malformed node: stop rather than loop */
        if (DevicePathType(dp) != MESSAGING_DEVICE_PATH)
            continue;
        if (DevicePathSubType(dp) == MSG_MAC_ADDR_DP && len >= sizeof(MAC_ADDR_DEVICE_PATH)) {
            const UINT8 *m = ((MAC_ADDR_DEVICE_PATH *)dp)->MacAddress.Addr;
            fmt_into(nb->info.mac, sizeof(nb->info.mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0],
                     m[1], m[2], m[3], m[4], m[5]);
        } else if (DevicePathSubType(dp) == MSG_IPv4_DP && len >= 19) {
            IPv4_DEVICE_PATH *ip = (IPv4_DEVICE_PATH *)dp;
            if (ip->LocalIpAddress.Addr[0] | ip->LocalIpAddress.Addr[1] |
                ip->LocalIpAddress.Addr[2] | ip->LocalIpAddress.Addr[3]) {
                format_ip(&ip->LocalIpAddress, nb->info.ip);
                /*
                 * UEFI 2.0 added the gateway and the mask (27 bytes), but OVMF's
                 * HTTP boot leaves the mask zero: without one, the address is
                 * unusable for a connection of our own, and the NIC's default
                 * address (DHCP, with its mask and gateway) serves instead.
                 */
                if (len >= sizeof(IPv4_DEVICE_PATH) &&
                    (ip->SubnetMask.Addr[0] | ip->SubnetMask.Addr[1] | ip->SubnetMask.Addr[2] |
                     ip->SubnetMask.Addr[3])) {
                    nb->route.local = ip->LocalIpAddress;
                    nb->route.subnet = ip->SubnetMask;
                    nb->route.have_local = true;
                }
            }
        } else if (DevicePathSubType(dp) == MSG_URI_DP && len > 4) {
            size_t n = len - 4;
            if (n > sizeof(nb->info.boot_url) - 1)
                n = sizeof(nb->info.boot_url) - 1;
            mem_copy(nb->info.boot_url, ((URI_DEVICE_PATH *)dp)->Uri, n);
            nb->info.boot_url[n] = 0;
            nb->info.boot = BOOT_HTTP;
        }
    }
}

/* A PXE boot: the PXE base code that loaded us, started, with a DHCP answer. */
static void read_pxe(EFI_HANDLE device, EFI_DEVICE_PATH *dp, struct netboot *nb)
{
    EFI_PXE_BASE_CODE *pxe = NULL;
    EFI_PXE_BASE_CODE_DHCPV4_PACKET *p;
    EFI_HANDLE h = device;
    if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, device, &PxeBaseCodeProtocol,
                                    (void **)&pxe))) {
        pxe = NULL;
        if (dp && !EFI_ERROR(uefi_call_wrapper(BS->LocateDevicePath, 3, &PxeBaseCodeProtocol, &dp,
                                               &h)))
            uefi_call_wrapper(BS->HandleProtocol, 3, h, &PxeBaseCodeProtocol, (void **)&pxe);
    }
    if (!pxe || !pxe->Mode || !pxe->Mode->Started || !pxe->Mode->DhcpAckReceived ||
        pxe->Mode->UsingIpv6)
        return;
    /* a proxy DHCP offer, when there is one, names the boot server */
    p = pxe->Mode->ProxyOfferReceived ? &pxe->Mode->ProxyOffer.Dhcpv4 : &pxe->Mode->DhcpAck.Dhcpv4;
    if (!(p->BootpSiAddr[0] | p->BootpSiAddr[1] | p->BootpSiAddr[2] | p->BootpSiAddr[3]))
        p = &pxe->Mode->DhcpAck.Dhcpv4;
    nb->pxe = pxe;
    nb->info.boot = BOOT_PXE_TFTP;
    mem_zero(&nb->tftp_server, sizeof(nb->tftp_server));
    mem_copy(nb->tftp_server.v4.Addr, p->BootpSiAddr, 4);
    mem_copy(nb->boot_file, p->BootpBootFile, sizeof(nb->boot_file) - 1);
    nb->boot_file[sizeof(nb->boot_file) - 1] = 0;
    fmt_into(nb->info.boot_url, sizeof(nb->info.boot_url), "tftp://%u.%u.%u.%u/%s",
             p->BootpSiAddr[0], p->BootpSiAddr[1], p->BootpSiAddr[2], p->BootpSiAddr[3],
             nb->boot_file);
    nb->route.have_local = true;
    mem_copy(nb->route.local.Addr, pxe->Mode->StationIp.v4.Addr, 4);
    mem_copy(nb->route.subnet.Addr, pxe->Mode->SubnetMask.v4.Addr, 4);
    format_ip(&nb->route.local, nb->info.ip);
    if (!nb->route.nic)
        nb->route.nic = h;
}

void netboot_detect(EFI_HANDLE image, struct netboot *nb)
{
    static EFI_GUID http_sb_guid = TLBSCOPE_HTTP_SERVICE_BINDING_GUID;
    EFI_LOADED_IMAGE *loaded = NULL;
    EFI_DEVICE_PATH *dp = NULL, *walk;
    EFI_HANDLE nic = NULL;
    mem_zero(nb, sizeof(*nb));
    if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol,
                                    (void **)&loaded)) ||
        !loaded->DeviceHandle)
        return;
    if (EFI_ERROR(uefi_call_wrapper(BS->HandleProtocol, 3, loaded->DeviceHandle,
                                    &DevicePathProtocol, (void **)&dp)))
        dp = NULL;
    read_device_path(dp, nb);
    /* the NIC whose HTTP service the upload uses: on the path we came from */
    walk = dp;
    if (walk && !EFI_ERROR(uefi_call_wrapper(BS->LocateDevicePath, 3, &http_sb_guid, &walk, &nic)))
        nb->route.nic = nic;
    if (nb->info.boot != BOOT_HTTP)
        read_pxe(loaded->DeviceHandle, dp, nb);
}

/* The boot file's directory + tlbscope.cfg ("tlbscope/BOOTX64.EFI" -> "tlbscope/tlbscope.cfg"). */
static void sibling(const char *path, char *out, size_t cap)
{
    size_t n = str_len(path), cut = 0, i;
    for (i = 0; i < n; i++)
        if (path[i] == '/')
            cut = i + 1;
    fmt_into(out, cap, "%.*s%s", (int)cut, path, CONFIG_NAME);
}

static bool fetch_tftp(struct netboot *nb, size_t max, char **data, size_t *len, char *why,
                       size_t why_cap)
{
    char name[160];
    UINT64 size = max;
    char *buf = mem_alloc(max + 1);
    EFI_STATUS st;
    if (!buf) {
        fmt_into(why, why_cap, "out of memory");
        return false;
    }
    sibling(nb->boot_file, name, sizeof(name));
    st = uefi_call_wrapper(nb->pxe->Mtftp, 10, nb->pxe, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf,
                           FALSE, &size, NULL, &nb->tftp_server, (UINT8 *)name, NULL, FALSE);
    if (EFI_ERROR(st)) {
        mem_free(buf);
        if (st == EFI_BUFFER_TOO_SMALL)
            fmt_into(why, why_cap, "%s on the TFTP server is larger than %llu bytes", name,
                     (unsigned long long)max);
        else if (nb->pxe->Mode->TftpErrorReceived)
            why[0] = 0; /* the server answered with an error: no such file */
        else
            fmt_into(why, why_cap, "TFTP read of %s failed: %s", name, efi_status_name(st));
        return false;
    }
    buf[size] = 0;
    *data = buf;
    *len = (size_t)size;
    return true;
}

static bool fetch_http(struct netboot *nb, size_t max, char **data, size_t *len, char *why,
                       size_t why_cap)
{
    char url[NET_URL_MAX + 32];
    struct http_answer a;
    char *buf = mem_alloc(max + 1);
    if (!buf) {
        fmt_into(why, why_cap, "out of memory");
        return false;
    }
    sibling(nb->info.boot_url, url, sizeof(url));
    if (!http_exchange(&nb->route, HTTP_GET, url, NULL, buf, 0, max, FETCH_TIMEOUT_MS, &a)) {
        mem_free(buf);
        fmt_into(why, why_cap, "HTTP GET %s: %s", url, a.why);
        return false;
    }
    if (a.status != 200) {
        mem_free(buf);
        if (a.status == 404)
            why[0] = 0;
        else
            fmt_into(why, why_cap, "HTTP GET %s: status %u", url, a.status);
        return false;
    }
    buf[a.body_len] = 0;
    *data = buf;
    *len = a.body_len;
    return true;
}

bool netboot_fetch_config(struct netboot *nb, size_t max, char **data, size_t *len, char *why,
                          size_t why_cap)
{
    why[0] = 0;
    if (nb->info.boot == BOOT_PXE_TFTP && nb->pxe)
        return fetch_tftp(nb, max, data, len, why, why_cap);
    if (nb->info.boot == BOOT_HTTP)
        return fetch_http(nb, max, data, len, why, why_cap);
    fmt_into(why, why_cap, "not a network boot");
    return false;
}
