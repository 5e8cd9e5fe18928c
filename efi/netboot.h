/*
 * Network boot: how the firmware loaded tlbscope (PXE/TFTP, UEFI HTTP boot
 * or a disk), read from the loaded image's device path and the PXE base
 * code's DHCP answer, and the configuration fetched from the boot server
 * when there is no file system to read it from: tlbscope.cfg next to the
 * binary, over TFTP or HTTP from the server the firmware booted from.
 */
#ifndef TLBSCOPE_EFI_NETBOOT_H
#define TLBSCOPE_EFI_NETBOOT_H

#include "core/run/netinfo.h"
#include "efi/http_client.h"

struct netboot {
    struct net_info info;        /* what goes into the report (core/run/netinfo.h) */
    struct http_route route;     /* the NIC and address the boot used, for the upload */
    EFI_PXE_BASE_CODE *pxe;      /* PXE/TFTP boot: the started PXE base code */
    EFI_IP_ADDRESS tftp_server;
    char boot_file[128];         /* the boot file's path on the TFTP server */
};

/* Reads how the image was loaded; info.boot stays BOOT_DISK when not over the network. */
void netboot_detect(EFI_HANDLE image, struct netboot *nb);
/*
 * tlbscope.cfg from the boot server (nb->info.boot must be a network boot):
 * a pool buffer in *data (the caller frees it) and true, or false with the
 * reason in why ("" when the server simply has no such file).
 */
bool netboot_fetch_config(struct netboot *nb, size_t max, char **data, size_t *len, char *why,
                          size_t why_cap);

#endif
