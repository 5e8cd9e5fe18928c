/*
 * The command line's allocator for jansson documents: a bump allocator whose
 * free does nothing, so a document costs no malloc per value while it is
 * built and no walk of its millions of values when it is dropped. A report of
 * 100 K points is about 4 M jansson allocations: this took 0.3 s off `show`
 * (issue 13, finding 5).
 *
 * For commands whose documents all live until the process exits (show,
 * compare, html: they keep every report they read), and for validate, which
 * reads its files one at a time and empties the arena after each
 * (json_arena_reset): building the document of a 20,000-experiment report
 * was 80% of its validation, most of it in malloc. redact does not install
 * it. What the arena holds is at most a small multiple of the documents' own
 * size (a value replaced or a hash table grown leaves its old bytes behind);
 * it is all returned at exit, or at the reset.
 *
 * Under the arena, what jansson hands out must not go to free(): json_dumps'
 * text is the one such case in the tool, and only redact calls it.
 */
#ifndef TLBSCOPE_REPORT_JSON_ARENA_H
#define TLBSCOPE_REPORT_JSON_ARENA_H

#include <stdbool.h>

/* Makes jansson allocate from the arena from now on (before any json_t exists). */
void json_arena_install(void);
/* Installed: dropping a document (model_free, load_release) leaves it to the process's exit
 * or the next reset. */
bool json_arena_installed(void);
/* Returns every chunk: only when no document built since the install (or the last reset) is
 * used again. */
void json_arena_reset(void);

#endif
