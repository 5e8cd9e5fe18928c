/*
 * Where the run came from and where its report goes: how the machine booted
 * (stick, PXE/TFTP, UEFI HTTP boot), where the configuration was read, the
 * network addresses the firmware had, and the upload's outcome. The efi/
 * side fills it (efi/netboot.c, efi/upload.c); the report writers print it.
 *
 * The MAC and IP addresses and the boot server's URL name one machine in one
 * lab: under redact=on the report carries tokens for them, like the serial
 * number (core/run/redact.h, redact_fields).
 */
#ifndef TLBSCOPE_CORE_NETINFO_H
#define TLBSCOPE_CORE_NETINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/run/config.h"

enum boot_kind { BOOT_DISK = 0, BOOT_PXE_TFTP, BOOT_HTTP };
/* where tlbscope.cfg was read; load options (the command line) always come last */
enum config_source { CFG_SRC_NONE = 0, CFG_SRC_VOLUME, CFG_SRC_TFTP, CFG_SRC_HTTP };
enum upload_state { UPLOAD_OFF = 0, UPLOAD_PENDING, UPLOAD_OK, UPLOAD_FAILED };

#define NET_URL_MAX CONFIG_URL_MAX

struct net_info {
    enum boot_kind boot;
    enum config_source config_source;
    char boot_url[NET_URL_MAX + 1]; /* tftp://SERVER/FILE or the HTTP boot URI; "" unknown */
    char mac[18];                   /* "52:54:00:12:34:56"; "" unknown */
    char ip[16];                    /* the IPv4 address the firmware had or got; "" unknown */
    /* the SHA-256 of the tlbscope.cfg the boot server sent, used or not; "" none came */
    char config_sha256[CONFIG_SHA256_HEX + 1];
};

struct upload_outcome {
    enum upload_state state;
    uint32_t attempts;
    uint32_t http_status;           /* the last answer's status; 0: none came */
    bool text_sent;                 /* the .txt reached the server too */
    char url[NET_URL_MAX + 96];     /* the JSON report's URL on the server */
    char why[160];                  /* the last failure, when it failed */
};

const char *boot_kind_name(enum boot_kind b);
const char *config_source_name(enum config_source s);

#endif
