/* Files on the boot volume: see volume.h. */
#include "efi/arm64/volume.h"

/* 9.1 EFI_LOADED_IMAGE_PROTOCOL_GUID, 13.4 EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID */
static const efi_guid loaded_image_guid = { 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };
static const efi_guid sfs_guid = { 0x964e5b22, 0x6459, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } };

static efi_file *root;

bool vol_open(efi_boot_services *bs, efi_handle image)
{
    efi_loaded_image *li = 0;
    efi_sfs *fs = 0;
    if (EFI_ERROR(bs->handle_protocol(image, &loaded_image_guid, (void **)&li)) || !li)
        return false;
    if (EFI_ERROR(bs->handle_protocol(li->device_handle, &sfs_guid, (void **)&fs)) || !fs)
        return false;
    return !EFI_ERROR(fs->open_volume(fs, &root));
}

static void to_ucs2(const char *s, char16 *out, size_t cap)
{
    size_t i = 0;
    for (; s[i] && i + 1 < cap; i++)
        out[i] = (unsigned char)s[i];
    out[i] = 0;
}

static efi_status open_path(const char *path, uint64_t mode, uint64_t attrs, efi_file **f)
{
    char16 name[160];
    if (!root)
        return EFI_ERROR_BIT | 14; /* EFI_NOT_FOUND */
    to_ucs2(path, name, sizeof(name) / sizeof(name[0]));
    return root->open(root, f, name, mode, attrs);
}

bool vol_exists(const char *path)
{
    efi_file *f;
    if (EFI_ERROR(open_path(path, EFI_FILE_MODE_READ, 0, &f)))
        return false;
    f->close(f);
    return true;
}

efi_status vol_mkdir(const char *path)
{
    efi_file *f;
    efi_status st = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE,
                              EFI_FILE_DIRECTORY, &f);
    if (!EFI_ERROR(st))
        f->close(f);
    return st;
}

efi_status vol_write(const char *path, const void *data, size_t len)
{
    efi_file *f;
    uint64_t n = len;
    efi_status st;
    /* an existing file is deleted first: CREATE opens it without truncating */
    if (!EFI_ERROR(open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0, &f)))
        f->delete_file(f);
    st = open_path(path, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0, &f);
    if (EFI_ERROR(st))
        return st;
    st = f->write(f, &n, data);
    if (!EFI_ERROR(st) && n != len)
        st = EFI_ERROR_BIT | 7; /* EFI_DEVICE_ERROR: a short write */
    if (!EFI_ERROR(st))
        st = f->flush(f);
    f->close(f);
    return st;
}

size_t vol_read(const char *path, char *buf, size_t cap)
{
    efi_file *f;
    uint64_t n = cap - 1;
    buf[0] = 0;
    if (EFI_ERROR(open_path(path, EFI_FILE_MODE_READ, 0, &f)))
        return 0;
    if (EFI_ERROR(f->read(f, &n, buf)))
        n = 0;
    f->close(f);
    buf[n] = 0;
    return (size_t)n;
}
