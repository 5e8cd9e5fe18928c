/*
 * Where the first SQL statement of a text ends, for `query`'s rule of one
 * statement: a second one is refused and named, on both engines alike
 * (SQLite would silently run only the first, PostgreSQL's simple protocol
 * all of them). A small lexer over what either engine's SQL may hold:
 * '...' strings (E'...' with backslash escapes), "...", `...` and [...]
 * identifiers, -- and slash-star comments, and PostgreSQL's $tag$ quotes.
 */
#ifndef TLBSCOPE_FLEET_SQL_SPLIT_H
#define TLBSCOPE_FLEET_SQL_SPLIT_H

#include <stdbool.h>
#include <stddef.h>

/* The offset just past the first statement's ';', or the text's length when it has none. */
size_t sql_statement_end(const char *sql);
/* Only whitespace, semicolons and comments. */
bool sql_is_blank(const char *sql);

#endif
