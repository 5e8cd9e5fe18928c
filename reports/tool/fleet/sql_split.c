#include "reports/tool/fleet/sql_split.h"

#include <ctype.h>
#include <string.h>

static bool ident_char(char c)
{
    return isalnum((unsigned char)c) || c == '_' || (unsigned char)c >= 0x80;
}

/* Past a quoted run that opened at s[0] and closes with `close` (doubled: an escaped one). */
static size_t skip_quoted(const char *s, char close, bool backslash_escapes)
{
    size_t i = 1;
    while (s[i]) {
        if (backslash_escapes && s[i] == '\\' && s[i + 1]) {
            i += 2;
        } else if (s[i] == close) {
            if (s[i + 1] != close || close == ']')
                return i + 1;
            i += 2;
        } else {
            i++;
        }
    }
    return i;
}

/* $tag$ ... $tag$ (the tag may be empty); 0 when s is not the start of one. */
static size_t skip_dollar(const char *s)
{
    size_t tag = 1, i;
    while (s[tag] && (isalpha((unsigned char)s[tag]) || s[tag] == '_' ||
                      (tag > 1 && isdigit((unsigned char)s[tag]))))
        tag++;
    if (s[tag] != '$')
        return 0;
    tag++; /* the opening tag is s[0, tag) */
    for (i = tag; s[i]; i++)
        if (strncmp(s + i, s, tag) == 0)
            return i + tag;
    return i;
}

/* Past a comment at s, or 0 when s does not start one. */
static size_t skip_comment(const char *s)
{
    const char *end;
    if (s[0] == '-' && s[1] == '-') {
        end = strchr(s, '\n');
        return end ? (size_t)(end - s) + 1 : strlen(s);
    }
    if (s[0] == '/' && s[1] == '*') {
        end = strstr(s + 2, "*/");
        return end ? (size_t)(end - s) + 2 : strlen(s);
    }
    return 0;
}

size_t sql_statement_end(const char *sql)
{
    size_t i = 0, n;
    while (sql[i]) {
        char c = sql[i];
        bool word_before = i > 0 && ident_char(sql[i - 1]);
        if ((n = skip_comment(sql + i))) {
            i += n;
        } else if (c == '\'') {
            /* E'...': backslash escapes (PostgreSQL), when the E is a word of its own */
            bool e = i > 0 && (sql[i - 1] == 'E' || sql[i - 1] == 'e') &&
                     !(i > 1 && ident_char(sql[i - 2]));
            i += skip_quoted(sql + i, '\'', e);
        } else if (c == '"' || c == '`') {
            i += skip_quoted(sql + i, c, false);
        } else if (c == '[') {
            i += skip_quoted(sql + i, ']', false);
        } else if (c == '$' && !word_before && (n = skip_dollar(sql + i))) {
            i += n;
        } else if (c == ';') {
            return i + 1;
        } else {
            i++;
        }
    }
    return i;
}

bool sql_is_blank(const char *sql)
{
    size_t i = 0, n;
    while (sql[i]) {
        if (isspace((unsigned char)sql[i]) || sql[i] == ';')
            i++;
        else if ((n = skip_comment(sql + i)))
            i += n;
        else
            return false;
    }
    return true;
}
