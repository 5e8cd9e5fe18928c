/*
 * File access on the volume tlbscope was loaded from (the USB stick).
 * Paths are ASCII with backslashes, e.g. "\\tlbscope\\reports\\x.json".
 */
#ifndef TLBSCOPE_EFI_VOLUME_H
#define TLBSCOPE_EFI_VOLUME_H

#include "efi/efi_util.h"

struct volume {
    EFI_FILE_HANDLE root;
};

EFI_STATUS volume_open_boot(EFI_HANDLE image, struct volume *v);
void volume_close(struct volume *v);
/* Creates one directory level; success when it already exists. */
EFI_STATUS volume_mkdir(struct volume *v, const char *path);
bool volume_exists(struct volume *v, const char *path);
/* Reads a whole file (at most max bytes) into a pool buffer the caller frees with mem_free. */
EFI_STATUS volume_read(struct volume *v, const char *path, size_t max, char **data, size_t *len);
/*
 * Writes a new file: refuses to replace an existing one (EFI_ACCESS_DENIED),
 * flushes, closes, reads the file back and compares it. A partial file left
 * by a full volume is deleted again.
 */
EFI_STATUS volume_write_new(struct volume *v, const char *path, const char *data, size_t len);
/* Replaces a small file in place (the run counter). */
EFI_STATUS volume_rewrite(struct volume *v, const char *path, const char *data, size_t len);
/* Deletes a file. */
EFI_STATUS volume_delete(struct volume *v, const char *path);
/* Renames a file to `leaf` in its folder (EFI_FILE_PROTOCOL.SetInfo with a new FileName). */
EFI_STATUS volume_rename(struct volume *v, const char *path, const char *leaf);

#endif
