/*
 * redact_key's line (issue 35): a mistyped redact_key must not carry the key
 * into the report. config.c asks config_find_secret() whether a line names
 * redact_key in any form (any case; '_', '-', '.', ':' or blanks inside the
 * name; a misspelling within two edits; any other redact_ key); such a line's
 * messages repeat no text of it, and a line that does not read as key=value
 * pairs of known keys refuses the key. The report's run.args is cut after
 * the first such name (config_mask_args()).
 */
#include "core/run/config_keys.h"
#include "core/lib/mem.h"
#include "core/mutant.h"

#define NAME_SCAN_MAX 40 /* a key name is at most CONFIG_NAME_LEN characters */

static char fold(char c) { return c >= 'A' && c <= 'Z' ? (char)(c + ('a' - 'A')) : c; }
static bool is_blank(char c) { return c == ' ' || c == '\t'; }
static bool is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '-';
}
/* what may stand between the letters of "redact" and "key" in a mistyped name */
static bool is_separator(char c) { return c == '_' || c == '-' || c == '.' || c == ':' || is_blank(c); }

/* The name at a token's start ("Redact-Kye" of "Redact-Kye=x"): a redact_ key or one within two edits. */
static bool name_is_secret(const char *s, size_t len, size_t *name_len)
{
    char name[NAME_SCAN_MAX + 1];
    size_t n = 0;
    while (n < len && n < NAME_SCAN_MAX && is_name_char(s[n])) {
        name[n] = s[n] == '-' ? '_' : fold(s[n]);
        n++;
    }
    name[n] = 0;
    *name_len = n;
    if (n >= 7 && mem_cmp(name, "redact_", 7) == 0)
        return true;
    return n && config_edit_distance(name, "redact_key") <= 2;
}

/* "redactkey" spelt from s on, in any case, with separators between its letters. */
static bool spells_redact_key(const char *s, size_t len, size_t *end)
{
    static const char word[] = "redactkey";
    size_t i = 0, k = 0;
    while (word[k]) {
        if (i < len && fold(s[i]) == word[k]) {
            i++;
            k++;
            continue;
        }
        if (k == 0 || i >= len || !is_separator(s[i]))
            return false;
        i++;
    }
    *end = i;
    return true;
}

bool config_find_secret(const char *text, size_t len, size_t *token_start, size_t *name_end)
{
    size_t i, start = 0, end;
    if (MUTANT(secret_line_echoed))
        return false;
    for (i = 0; i < len && text[i]; i++) {
        if (is_blank(text[i]))
            continue;
        if (i == 0 || is_blank(text[i - 1])) {
            start = i;
            if (name_is_secret(text + i, len - i, &end)) {
                *token_start = i;
                *name_end = i + end;
                return true;
            }
        }
        if (spells_redact_key(text + i, len - i, &end)) {
            *token_start = start;
            *name_end = i + end;
            return true;
        }
    }
    return false;
}

void config_mask_args(const char *args, char *out, size_t cap)
{
    size_t len = str_len(args), start, end;
    struct strbuf sb;
    sb_init_fixed(&sb, out, cap);
    if (!config_find_secret(args, len, &start, &end)) {
        sb_puts(&sb, args);
        return;
    }
    /* the name as typed, then nothing of what followed it: a key with a blank has two parts */
    sb_putn(&sb, args, end);
    sb_puts(&sb, args[end] == '=' ? "=*" : "*");
}
