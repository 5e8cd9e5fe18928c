/* The report's files on the stick: see report_files.h. */
#include "core/run/report_files.h"
#include "core/lib/mem.h"
#include "core/lib/strbuf.h"
#include "core/mutant.h"

static const char *const report_exts[] = { ".json", ".txt", REPORT_OUTCOME_EXT };

bool report_file_path(const char *base, unsigned attempt, const char *ext, char *out,
                      size_t cap)
{
    struct strbuf sb;
    sb_init_fixed(&sb, out, cap);
    sb_printf(&sb, "%s\\%s", REPORT_DIR, base);
    if (attempt)
        sb_printf(&sb, "-%u", attempt);
    sb_puts(&sb, ext);
    return !sb.truncated;
}

static bool taken(const struct report_fs *fs, const char *base, unsigned attempt)
{
    char path[REPORT_PATH_MAX];
    unsigned i;
    for (i = 0; i < ARRAY_SIZE(report_exts); i++) {
        if (!report_file_path(base, attempt, report_exts[i], path, sizeof(path) - 8))
            return true;
        if (fs->exists(fs->ctx, path))
            return true;
        /* a power loss's leftover keeps its name: it may be all that is left of that run */
        str_copy(path + str_len(path), 9, REPORT_PARTIAL_EXT);
        if (fs->exists(fs->ctx, path))
            return true;
    }
    return false;
}

bool report_file_pick(const struct report_fs *fs, const char *base, char *out, size_t cap)
{
    unsigned attempt;
    for (attempt = 0; attempt < REPORT_NAME_TRIES; attempt++) {
        if (taken(fs, base, attempt))
            continue;
        if (attempt)
            fmt_into(out, cap, "%s-%u", base, attempt);
        else
            str_copy(out, cap, base);
        return str_len(out) + 1 < cap;
    }
    return false;
}

static const char *leaf_of(const char *path)
{
    const char *leaf = path;
    for (; *path; path++)
        if (*path == '\\')
            leaf = path + 1;
    return leaf;
}

uint64_t report_file_commit(const struct report_fs *fs, const char *path, const void *data,
                            size_t len, bool replace)
{
    char partial[REPORT_PATH_MAX];
    uint64_t st;
    if (MUTANT(report_written_in_place)) /* the writing before issue 35 */
        return fs->write_new(fs->ctx, path, data, len);
    fmt_into(partial, sizeof(partial), "%s%s", path, REPORT_PARTIAL_EXT);
    if (fs->exists(fs->ctx, partial) && (st = fs->remove(fs->ctx, partial)))
        return st;
    if ((st = fs->write_new(fs->ctx, partial, data, len))) {
        if (fs->exists(fs->ctx, partial))
            fs->remove(fs->ctx, partial);
        return st;
    }
    /* the outcome file is replaced: between these two steps only its complete .partial exists */
    if (replace && fs->exists(fs->ctx, path) && (st = fs->remove(fs->ctx, path)))
        return st;
    return fs->rename(fs->ctx, partial, leaf_of(path));
}

bool report_file_is_report(const char *leaf)
{
    size_t n = str_len(leaf);
    return (n > 5 && str_eq(leaf + n - 5, ".json")) || (n > 4 && str_eq(leaf + n - 4, ".txt"));
}
