/*
 * The few UEFI definitions the aarch64 app uses, written from the UEFI 2.10
 * specification (4 "EFI System Table", 7 "Services - Boot Services", 9.1
 * "EFI Loaded Image Protocol", 12.4 "Simple Text Output Protocol", 13.4
 * "Simple File System Protocol", 13.5 "File Protocol"). Only the layout
 * matters: every member before the last one we call must be present so the
 * offsets are right. The x86 build uses gnu-efi's headers instead; this one
 * lets the aarch64 build need no gnu-efi sysroot at all.
 *
 * AArch64 calling convention (UEFI 2.10, 2.3.6): AAPCS64, x18 reserved. The
 * Windows/ARM64 target clang builds us for uses the same register convention
 * and also keeps x18 free, so EFIAPI is empty here.
 */
#ifndef TLBSCOPE_EFI_ARM64_UEFI_H
#define TLBSCOPE_EFI_ARM64_UEFI_H

#include <stdint.h>

typedef uint64_t efi_status;
typedef void *efi_handle;
typedef uint16_t char16;

#define EFI_SUCCESS 0
#define EFI_ERROR_BIT (1ull << 63)
#define EFI_ERROR(s) (((s) & EFI_ERROR_BIT) != 0)

#define TPL_HIGH_LEVEL 31

/* EFI_ALLOCATE_TYPE / EFI_MEMORY_TYPE values we use (7.2) */
#define EFI_ALLOCATE_ANY_PAGES 0
#define EFI_LOADER_DATA 2

typedef struct {
    uint32_t data1;
    uint16_t data2;
    uint16_t data3;
    uint8_t data4[8];
} efi_guid;

typedef struct {
    uint64_t signature;
    uint32_t revision;
    uint32_t header_size;
    uint32_t crc32;
    uint32_t reserved;
} efi_table_header;

typedef struct efi_text_out efi_text_out;
struct efi_text_out {
    efi_status (*reset)(efi_text_out *self, uint8_t extended);
    efi_status (*output_string)(efi_text_out *self, const char16 *s);
};

typedef void *efi_fn; /* a service we never call: only its slot matters */

typedef struct {
    efi_table_header hdr;
    uint64_t (*raise_tpl)(uint64_t new_tpl);
    void (*restore_tpl)(uint64_t old_tpl);
    efi_status (*allocate_pages)(uint32_t type, uint32_t mem_type, uint64_t pages, uint64_t *addr);
    efi_status (*free_pages)(uint64_t addr, uint64_t pages);
    efi_fn get_memory_map;
    efi_status (*allocate_pool)(uint32_t mem_type, uint64_t size, void **buf);
    efi_status (*free_pool)(void *buf);
    efi_fn create_event, set_timer, wait_for_event, signal_event, close_event, check_event;
    efi_fn install_protocol_interface, reinstall_protocol_interface, uninstall_protocol_interface;
    efi_status (*handle_protocol)(efi_handle h, const efi_guid *protocol, void **iface);
    efi_fn reserved, register_protocol_notify, locate_handle;
    efi_fn locate_device_path, install_configuration_table;
    efi_fn load_image, start_image, exit, unload_image, exit_boot_services;
    efi_fn get_next_monotonic_count;
    efi_status (*stall)(uint64_t microseconds);
    efi_status (*set_watchdog_timer)(uint64_t timeout, uint64_t code, uint64_t size, char16 *data);
} efi_boot_services;

typedef struct {
    uint16_t year;
    uint8_t month, day, hour, minute, second, pad1;
    uint32_t nanosecond;
    int16_t time_zone;
    uint8_t daylight, pad2;
} efi_time;

typedef struct {
    efi_table_header hdr;
    efi_status (*get_time)(efi_time *time, void *capabilities);
} efi_runtime_services;

typedef struct {
    efi_guid vendor_guid;
    void *vendor_table;
} efi_configuration_table;

typedef struct {
    efi_table_header hdr;
    char16 *firmware_vendor;
    uint32_t firmware_revision;
    efi_handle console_in_handle;
    void *con_in;
    efi_handle console_out_handle;
    efi_text_out *con_out;
    efi_handle standard_error_handle;
    efi_text_out *std_err;
    efi_runtime_services *runtime_services;
    efi_boot_services *boot_services;
    uint64_t number_of_table_entries;
    efi_configuration_table *configuration_table;
} efi_system_table;

/* 9.1: up to LoadOptions: the volume we were loaded from, and the load options
 * (the UEFI shell's command line as UCS-2) */
typedef struct {
    uint32_t revision;
    efi_handle parent_handle;
    efi_system_table *system_table;
    efi_handle device_handle;
    void *file_path;
    void *reserved;
    uint32_t load_options_size;
    void *load_options;
} efi_loaded_image;

/* 13.5 File Protocol */
#define EFI_FILE_MODE_READ 0x1ull
#define EFI_FILE_MODE_WRITE 0x2ull
#define EFI_FILE_MODE_CREATE 0x8000000000000000ull
#define EFI_FILE_DIRECTORY 0x10ull

typedef struct efi_file efi_file;
struct efi_file {
    uint64_t revision;
    efi_status (*open)(efi_file *self, efi_file **out, const char16 *name, uint64_t mode, uint64_t attrs);
    efi_status (*close)(efi_file *self);
    efi_status (*delete_file)(efi_file *self);
    efi_status (*read)(efi_file *self, uint64_t *size, void *buf);
    efi_status (*write)(efi_file *self, uint64_t *size, const void *buf);
    efi_fn get_position, set_position, get_info, set_info;
    efi_status (*flush)(efi_file *self);
};

/* 13.4 Simple File System Protocol */
typedef struct efi_sfs efi_sfs;
struct efi_sfs {
    uint64_t revision;
    efi_status (*open_volume)(efi_sfs *self, efi_file **root);
};

#endif
