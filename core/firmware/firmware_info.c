#include "core/firmware/firmware_info.h"

const char *secure_boot_name(enum secure_boot_state s)
{
    switch (s) {
    case SB_DISABLED:
        return "disabled";
    case SB_ENABLED:
        return "enabled";
    case SB_SETUP_MODE:
        return "setup_mode";
    default:
        return "unknown";
    }
}

bool rtc_looks_plausible(const struct rtc_time *t)
{
    return t->valid && t->year >= 2024 && t->year <= 2099 && t->month >= 1 && t->month <= 12 &&
           t->day >= 1 && t->day <= 31 && t->hour < 24 && t->minute < 60 && t->second < 60;
}
