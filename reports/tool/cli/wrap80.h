/*
 * The tool's messages on a terminal at 80 columns (the UEFI console and most serial
 * consoles of the lab machines are 80x25): stderr replaced by a stream that breaks each
 * line longer than 80 columns between words, continuing 2 columns further in. Only on a
 * terminal: a message redirected to a file or a pipe stays one line, for grep and scripts.
 */
#ifndef TLBSCOPE_REPORT_WRAP80_H
#define TLBSCOPE_REPORT_WRAP80_H

#include <stdio.h>

#define WRAP80_COLUMNS 80

/* A stream writing to `out`, wrapped; NULL when it cannot be made (then use `out`). */
FILE *wrap80_open(FILE *out);

/* Main's start: stderr wrapped when it is a terminal; flushed at exit. */
void wrap80_stderr_if_terminal(void);

#endif
