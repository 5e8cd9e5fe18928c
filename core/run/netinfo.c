#include "core/run/netinfo.h"

const char *boot_kind_name(enum boot_kind b)
{
    switch (b) {
    case BOOT_PXE_TFTP: return "pxe_tftp";
    case BOOT_HTTP: return "http";
    case BOOT_DISK: break;
    }
    return "disk";
}

const char *config_source_name(enum config_source s)
{
    switch (s) {
    case CFG_SRC_VOLUME: return "boot_volume";
    case CFG_SRC_TFTP: return "tftp";
    case CFG_SRC_HTTP: return "http";
    case CFG_SRC_NONE: break;
    }
    return "none";
}
