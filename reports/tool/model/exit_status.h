/*
 * The exit statuses every command of tlbscope-report returns: 0 success, 1 an
 * input is not a valid report (or cannot be read or written), 2 bad usage.
 * Here, at the bottom of the tool's folders, because the commands of cli/ and
 * those of fleet/ (which cli/main.c dispatches to) return the same ones.
 */
#ifndef TLBSCOPE_REPORT_EXIT_STATUS_H
#define TLBSCOPE_REPORT_EXIT_STATUS_H

enum { EXIT_VALID = 0, EXIT_INVALID = 1, EXIT_USAGE = 2 };

#endif
