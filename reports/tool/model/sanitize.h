/*
 * Text from a report (or a file name) must never drive the reader's
 * terminal: a CPU brand holding ESC[2J clears the screen, an OSC sequence
 * sets the window title, a newline forges an output line. Every string a
 * view prints goes through here first: control characters (C0, DEL and the
 * C1 range U+0080..U+009F) become visible escapes such as "\x1b" and "\u009b".
 */
#ifndef TLBSCOPE_REPORT_SANITIZE_H
#define TLBSCOPE_REPORT_SANITIZE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* A malloc'd escaped copy, or NULL when `s` has nothing to escape (or out of memory). */
char *sanitize_text(const char *s);
/* Escapes every string and object key of the document in place. False when out of memory. */
bool sanitize_json(json_t *root);
/* fputs with the escapes. */
void sanitize_fputs(const char *s, FILE *out);

#endif
