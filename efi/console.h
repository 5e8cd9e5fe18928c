/*
 * Console output through ConOut (OVMF mirrors it to the serial port, which is
 * what CI and `make run` read). Must not be called at TPL_HIGH_LEVEL.
 */
#ifndef TLBSCOPE_EFI_CONSOLE_H
#define TLBSCOPE_EFI_CONSOLE_H

#include <stdarg.h>
#include <stddef.h>

void con_write(const char *text);
void con_writen(const char *text, size_t n);
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void con_vprintf(const char *fmt, va_list ap);

#endif
