/*
 * The key=value text of a UEFI image's load options. The UEFI shell passes
 * the whole command line as UCS-2, program name first; a boot entry may pass
 * binary optional data instead. Shared by the x86 app (efi/args.c) and the
 * aarch64 app (efi/arm64/config_a64.c), which both hand the result to
 * core/run/config.c.
 */
#ifndef TLBSCOPE_CORE_LIB_CMDLINE_H
#define TLBSCOPE_CORE_LIB_CMDLINE_H

#include <stddef.h>
#include <stdint.h>

/* `chars` UCS-2 characters (up to a NUL) into out as ASCII, without the
 * program name (a first word without '='); "" when any character is not
 * printable ASCII or a tab (binary data, ignored) */
void cmdline_from_ucs2(const uint16_t *opts, size_t chars, char *out, size_t cap);

#endif
