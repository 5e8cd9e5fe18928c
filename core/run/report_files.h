/*
 * The report's files on the stick (issue 35): names, and how one is written
 * so that a power loss (or a pulled stick) never leaves a truncated file
 * under a report's name. Each file is first written whole as NAME.partial,
 * flushed and read back, then renamed: a cut leaves the earlier files and at
 * most a file whose name says it is partial. The app's volume code
 * (efi/volume.c) supplies the operations; the host tests a file system that
 * loses power after any of them (tests/host/test_stick_files.c).
 *
 *   \tlbscope\reports\BASE.json, BASE.txt   the report and its summary
 *   \tlbscope\reports\BASE.upload           upload=: the upload's outcome
 *   ... .partial                            being written (or cut short)
 * BASE is run_report_basename(), with "-N" when a name was taken (a wrong
 * clock, a reset counter): nothing is ever overwritten but the outcome file.
 */
#ifndef TLBSCOPE_CORE_RUN_REPORT_FILES_H
#define TLBSCOPE_CORE_RUN_REPORT_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define REPORT_DIR "\\tlbscope\\reports"
#define REPORT_PARTIAL_EXT ".partial"
#define REPORT_OUTCOME_EXT ".upload"
#define REPORT_NAME_TRIES 100 /* BASE, BASE-1 ... BASE-99 */
#define REPORT_PATH_MAX 192

/* File operations, each returning 0 or the volume's error (an EFI_STATUS in the app). */
struct report_fs {
    void *ctx;
    bool (*exists)(void *ctx, const char *path);
    /* creates `path` (it must not exist), writes, flushes, reads back and compares */
    uint64_t (*write_new)(void *ctx, const char *path, const void *data, size_t len);
    /* renames `path` to `leaf` in the same folder (`leaf` must not exist) */
    uint64_t (*rename)(void *ctx, const char *path, const char *leaf);
    uint64_t (*remove)(void *ctx, const char *path);
};

/* REPORT_DIR\base[-attempt]ext (attempt 0: no suffix); false when it does not fit. */
bool report_file_path(const char *base, unsigned attempt, const char *ext, char *out,
                      size_t cap);
/* The first BASE[-N] none of whose files, nor their partial ones, exists; false if none is free. */
bool report_file_pick(const struct report_fs *fs, const char *base, char *out, size_t cap);
/*
 * Writes `path` through path.partial and a rename (`replace`: an existing
 * file of that name is deleted just before the rename; else it must not
 * exist). 0, or the first failing operation's error; a partial file that
 * could not be completed is deleted.
 */
uint64_t report_file_commit(const struct report_fs *fs, const char *path, const void *data,
                            size_t len, bool replace);
/* Whether a name in REPORT_DIR is a report or its summary (.json, .txt; not partial). */
bool report_file_is_report(const char *leaf);

#endif
