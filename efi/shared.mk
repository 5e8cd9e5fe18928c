# The UEFI glue that is not about the ISA, which both apps build: the x86 app with
# gnu-efi's headers, the aarch64 app with its own (efi/arm64/include/efi.h, the
# specification's names). The volume, the console, the configuration file and load
# options, the report files (with the run counter, .partial names, read-back, and the
# console copy when the stick fails), network boot (PXE/TFTP or UEFI HTTP boot: how the
# image came, tlbscope.cfg from the boot server), the upload of the report to a collector (upload=URL:
# HTTP PUT through the firmware's HTTP protocol, after the report is safe), and the status
# names they print, random bytes (the report name's tag, efi/random.c), and the Secure Boot
# state (efi/secure_boot.c: the SecureBoot and SetupMode variables). Each app provides
# efi/clock.h's clock_ms() and efi/random.h's arch_random64() and arch_cycles().
EFI_SHARED_SRCS := efi/efi_util.c efi/volume.c efi/console.c efi/config_file.c efi/report_out.c \
	efi/upload.c efi/http_client.c efi/random.c efi/netboot.c efi/secure_boot.c
# what of core/ they use beyond the aarch64 app's own list (arch/arm64/core_srcs.mk)
EFI_SHARED_CORE_SRCS := core/run/report_files.c core/lib/crc.c core/lib/http_length.c \
	core/run/config_pin.c
