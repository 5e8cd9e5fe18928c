#include "core/lib/json.h"
#include "core/lib/mem.h"

void jw_init(struct json_writer *w, struct strbuf *sb)
{
    mem_zero(w, sizeof(*w));
    w->sb = sb;
}

static bool in_inline(const struct json_writer *w)
{
    return w->depth > 0 && w->is_inline[w->depth - 1];
}

static void newline_indent(struct json_writer *w)
{
    sb_putc(w->sb, '\n');
    sb_repeat(w->sb, ' ', (size_t)w->depth * 2);
}

/* Separator and indentation before a value or a key. */
static void before_item(struct json_writer *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (w->depth == 0)
        return;
    if (w->has_members[w->depth - 1])
        sb_putc(w->sb, ',');
    w->has_members[w->depth - 1] = true;
    if (in_inline(w))
        sb_putc(w->sb, ' ');
    else
        newline_indent(w);
}

static void open_container(struct json_writer *w, char c, bool inline_members)
{
    bool parent_inline = in_inline(w);
    before_item(w);
    if (w->depth >= JSON_MAX_DEPTH) {
        w->error = true;
        return;
    }
    sb_putc(w->sb, c);
    w->has_members[w->depth] = false;
    w->is_inline[w->depth] = inline_members || parent_inline;
    w->depth++;
}

static void close_container(struct json_writer *w, char c)
{
    bool had_members, was_inline;
    if (w->depth == 0 || w->after_key) {
        w->error = true;
        return;
    }
    w->depth--;
    had_members = w->has_members[w->depth];
    was_inline = w->is_inline[w->depth];
    if (had_members) {
        if (was_inline)
            sb_putc(w->sb, ' ');
        else
            newline_indent(w);
    }
    sb_putc(w->sb, c);
}

void jw_object_begin(struct json_writer *w) { open_container(w, '{', false); }
void jw_object_begin_inline(struct json_writer *w) { open_container(w, '{', true); }
void jw_object_end(struct json_writer *w) { close_container(w, '}'); }
void jw_array_begin(struct json_writer *w) { open_container(w, '[', false); }
void jw_array_begin_inline(struct json_writer *w) { open_container(w, '[', true); }
void jw_array_end(struct json_writer *w) { close_container(w, ']'); }

static void put_escaped(struct strbuf *sb, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t i;
    sb_putc(sb, '"');
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            sb_putc(sb, '\\');
            sb_putc(sb, (char)c);
        } else if (c == '\n') {
            sb_puts(sb, "\\n");
        } else if (c == '\t') {
            sb_puts(sb, "\\t");
        } else if (c < 0x20 || c >= 0x7f) {
            char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
            sb_putn(sb, esc, sizeof(esc));
        } else {
            sb_putc(sb, (char)c);
        }
    }
    sb_putc(sb, '"');
}

void jw_key(struct json_writer *w, const char *key)
{
    if (w->depth == 0 || w->after_key) {
        w->error = true;
        return;
    }
    before_item(w);
    put_escaped(w->sb, key, str_len(key));
    sb_puts(w->sb, ": ");
    w->after_key = true;
}

void jw_strn(struct json_writer *w, const char *s, size_t n)
{
    before_item(w);
    put_escaped(w->sb, s, n);
}

void jw_str(struct json_writer *w, const char *s)
{
    if (!s) {
        jw_null(w);
        return;
    }
    jw_strn(w, s, str_len(s));
}

void jw_u64(struct json_writer *w, uint64_t v)
{
    before_item(w);
    sb_printf(w->sb, "%llu", (unsigned long long)v);
}

void jw_i64(struct json_writer *w, int64_t v)
{
    before_item(w);
    sb_printf(w->sb, "%lld", (long long)v);
}

void jw_bool(struct json_writer *w, bool v)
{
    before_item(w);
    sb_puts(w->sb, v ? "true" : "false");
}

void jw_null(struct json_writer *w)
{
    before_item(w);
    sb_puts(w->sb, "null");
}

void jw_hex(struct json_writer *w, uint64_t v)
{
    before_item(w);
    sb_printf(w->sb, "\"0x%llx\"", (unsigned long long)v);
}

void jw_fixed(struct json_writer *w, int64_t value, unsigned decimals)
{
    before_item(w);
    sb_fixed(w->sb, value, decimals);
}

void jw_kv_str(struct json_writer *w, const char *key, const char *s)
{
    jw_key(w, key);
    jw_str(w, s);
}

void jw_kv_u64(struct json_writer *w, const char *key, uint64_t v)
{
    jw_key(w, key);
    jw_u64(w, v);
}

void jw_kv_i64(struct json_writer *w, const char *key, int64_t v)
{
    jw_key(w, key);
    jw_i64(w, v);
}

void jw_kv_bool(struct json_writer *w, const char *key, bool v)
{
    jw_key(w, key);
    jw_bool(w, v);
}

void jw_kv_null(struct json_writer *w, const char *key)
{
    jw_key(w, key);
    jw_null(w);
}

void jw_kv_hex(struct json_writer *w, const char *key, uint64_t v)
{
    jw_key(w, key);
    jw_hex(w, v);
}

void jw_kv_fixed(struct json_writer *w, const char *key, int64_t value, unsigned decimals)
{
    jw_key(w, key);
    jw_fixed(w, value, decimals);
}

bool jw_finish(struct json_writer *w)
{
    return !w->error && w->depth == 0 && !w->after_key && !w->sb->truncated;
}
