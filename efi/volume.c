#include "efi/volume.h"

#include "core/lib/mem.h"

#define PATH_MAX_CHARS 256

EFI_STATUS volume_open_boot(EFI_HANDLE image, struct volume *v)
{
    EFI_LOADED_IMAGE *loaded = NULL;
    EFI_FILE_IO_INTERFACE *fs = NULL;
    EFI_STATUS st;
    v->root = NULL;
    st = uefi_call_wrapper(BS->HandleProtocol, 3, image, &LoadedImageProtocol, (void **)&loaded);
    if (EFI_ERROR(st))
        return st;
    st = uefi_call_wrapper(BS->HandleProtocol, 3, loaded->DeviceHandle, &FileSystemProtocol,
                           (void **)&fs);
    if (EFI_ERROR(st))
        return st;
    return uefi_call_wrapper(fs->OpenVolume, 2, fs, &v->root);
}

void volume_close(struct volume *v)
{
    if (v->root)
        uefi_call_wrapper(v->root->Close, 1, v->root);
    v->root = NULL;
}

static EFI_STATUS open_path(struct volume *v, const char *path, UINT64 mode, UINT64 attrs,
                            EFI_FILE_HANDLE *out)
{
    CHAR16 wpath[PATH_MAX_CHARS];
    if (!v->root)
        return EFI_NOT_READY;
    ascii_to_ucs2(wpath, PATH_MAX_CHARS, path);
    return uefi_call_wrapper(v->root->Open, 5, v->root, out, wpath, mode, attrs);
}

EFI_STATUS volume_mkdir(struct volume *v, const char *path)
{
    EFI_FILE_HANDLE dir;
    EFI_STATUS st = open_path(v, path, EFI_FILE_MODE_READ, 0, &dir);
    if (!EFI_ERROR(st)) {
        uefi_call_wrapper(dir->Close, 1, dir);
        return EFI_SUCCESS;
    }
    st = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                   EFI_FILE_DIRECTORY, &dir);
    if (!EFI_ERROR(st))
        uefi_call_wrapper(dir->Close, 1, dir);
    return st;
}

bool volume_exists(struct volume *v, const char *path)
{
    EFI_FILE_HANDLE f;
    if (EFI_ERROR(open_path(v, path, EFI_FILE_MODE_READ, 0, &f)))
        return false;
    uefi_call_wrapper(f->Close, 1, f);
    return true;
}

static EFI_STATUS read_all(EFI_FILE_HANDLE f, size_t max, char **data, size_t *len)
{
    size_t cap = 4096, used = 0;
    char *buf = mem_alloc(cap + 1);
    if (!buf)
        return EFI_OUT_OF_RESOURCES;
    for (;;) {
        UINTN chunk = cap - used;
        EFI_STATUS st = uefi_call_wrapper(f->Read, 3, f, &chunk, buf + used);
        if (EFI_ERROR(st)) {
            mem_free(buf);
            return st;
        }
        if (chunk == 0)
            break;
        used += chunk;
        if (used > max) {
            mem_free(buf);
            return EFI_BAD_BUFFER_SIZE;
        }
        if (used == cap) {
            char *grown = mem_alloc(cap * 2 + 1);
            if (!grown) {
                mem_free(buf);
                return EFI_OUT_OF_RESOURCES;
            }
            mem_copy(grown, buf, used);
            mem_free(buf);
            buf = grown;
            cap *= 2;
        }
    }
    buf[used] = 0;
    *data = buf;
    *len = used;
    return EFI_SUCCESS;
}

EFI_STATUS volume_read(struct volume *v, const char *path, size_t max, char **data, size_t *len)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS st = open_path(v, path, EFI_FILE_MODE_READ, 0, &f);
    if (EFI_ERROR(st))
        return st;
    st = read_all(f, max, data, len);
    uefi_call_wrapper(f->Close, 1, f);
    return st;
}

EFI_STATUS volume_write_new(struct volume *v, const char *path, const char *data, size_t len)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS st;
    UINTN written = len;
    char *back = NULL;
    size_t back_len = 0;

    if (volume_exists(v, path))
        return EFI_ACCESS_DENIED;
    st = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0, &f);
    if (EFI_ERROR(st))
        return st;
    st = uefi_call_wrapper(f->Write, 3, f, &written, (void *)data);
    if (!EFI_ERROR(st) && written != len)
        st = EFI_VOLUME_FULL;
    if (!EFI_ERROR(st))
        st = uefi_call_wrapper(f->Flush, 1, f);
    if (EFI_ERROR(st)) {
        /* never leave a truncated report behind; Delete also closes */
        uefi_call_wrapper(f->Delete, 1, f);
        return st;
    }
    st = uefi_call_wrapper(f->Close, 1, f);
    if (EFI_ERROR(st))
        return st;
    st = volume_read(v, path, len + 1, &back, &back_len);
    if (EFI_ERROR(st))
        return st;
    if (back_len != len || mem_cmp(back, data, len) != 0)
        st = EFI_VOLUME_CORRUPTED;
    mem_free(back);
    return st;
}

EFI_STATUS volume_rewrite(struct volume *v, const char *path, const char *data, size_t len)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS st;
    UINTN written = len;
    st = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0, &f);
    if (EFI_ERROR(st))
        return st;
    st = uefi_call_wrapper(f->SetPosition, 2, f, 0);
    if (!EFI_ERROR(st))
        st = uefi_call_wrapper(f->Write, 3, f, &written, (void *)data);
    if (!EFI_ERROR(st) && written != len)
        st = EFI_VOLUME_FULL;
    if (!EFI_ERROR(st))
        st = uefi_call_wrapper(f->Flush, 1, f);
    uefi_call_wrapper(f->Close, 1, f);
    return st;
}

EFI_STATUS volume_delete(struct volume *v, const char *path)
{
    EFI_FILE_HANDLE f;
    EFI_STATUS st = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
    if (EFI_ERROR(st))
        return st;
    /* Delete closes the handle; a warning status means it could not be deleted */
    st = uefi_call_wrapper(f->Delete, 1, f);
    return st == EFI_WARN_DELETE_FAILURE ? EFI_ACCESS_DENIED : st;
}

/*
 * The file's EFI_FILE_INFO (13.5.16) in a mem_alloc buffer: GetInfo says how
 * big it is when asked with none (EFI_BUFFER_TOO_SMALL), then fills one.
 */
static EFI_FILE_INFO *file_info(EFI_FILE_HANDLE f)
{
    UINTN size = 0;
    EFI_FILE_INFO *info;
    if (uefi_call_wrapper(f->GetInfo, 4, f, &GenericFileInfo, &size, NULL) != EFI_BUFFER_TOO_SMALL ||
        size < SIZE_OF_EFI_FILE_INFO || !(info = mem_alloc(size)))
        return NULL;
    if (EFI_ERROR(uefi_call_wrapper(f->GetInfo, 4, f, &GenericFileInfo, &size, info))) {
        mem_free(info);
        return NULL;
    }
    return info;
}

/*
 * UEFI renames with SetInfo: the file's EFI_FILE_INFO with another FileName
 * (UEFI 2.10, 13.5.16); a name without a leading '\' stays in the file's folder.
 */
EFI_STATUS volume_rename(struct volume *v, const char *path, const char *leaf)
{
    EFI_FILE_HANDLE f;
    EFI_FILE_INFO *old, *info;
    UINTN leaf_chars = str_len(leaf) + 1, size;
    EFI_STATUS st;
    if (leaf_chars > PATH_MAX_CHARS)
        return EFI_INVALID_PARAMETER;
    st = open_path(v, path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f);
    if (EFI_ERROR(st))
        return st;
    if (!(old = file_info(f))) {
        uefi_call_wrapper(f->Close, 1, f);
        return EFI_DEVICE_ERROR;
    }
    size = SIZE_OF_EFI_FILE_INFO + leaf_chars * sizeof(CHAR16);
    if (!(info = mem_zalloc(size))) {
        mem_free(old);
        uefi_call_wrapper(f->Close, 1, f);
        return EFI_OUT_OF_RESOURCES;
    }
    mem_copy(info, old, SIZE_OF_EFI_FILE_INFO);
    info->Size = size;
    ascii_to_ucs2(info->FileName, leaf_chars, leaf);
    st = uefi_call_wrapper(f->SetInfo, 4, f, &GenericFileInfo, size, info);
    mem_free(info);
    mem_free(old);
    if (!EFI_ERROR(st))
        st = uefi_call_wrapper(f->Flush, 1, f);
    uefi_call_wrapper(f->Close, 1, f);
    return st;
}
