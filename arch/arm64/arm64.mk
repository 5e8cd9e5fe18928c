# aarch64 build (issue 27), included by the Makefile when ARCH=aarch64:
#   make ARCH=aarch64            build/aarch64/BOOTAA64.EFI
#   make image ARCH=aarch64      build/aarch64/tlbscope.img (FAT16, \EFI\BOOT\BOOTAA64.EFI)
#   make run ARCH=aarch64 [SMP=4 VIRT=1 GIC=2 NET=1 ARGS='k=v ...']   boot it under qemu-system-aarch64 + AAVMF
#   make test ARCH=aarch64       the aarch64 test steps only (tests/qemu/aarch64.sh)
#   make sign ARCH=aarch64 [KEY=db.key CERT=db.crt KEY_PASS=...]
#                                build/aarch64/BOOTAA64-signed.efi (x86's signing: release/sign.mk)
#   make image ARCH=aarch64 SIGNED=1   build/aarch64/tlbscope-signed.img, carrying it
#
# clang's Windows/ARM64 target + lld-link produce a PE32+ EFI application
# directly (real base relocations, NX_COMPAT): no gnu-efi, no cross sysroot, no
# dpkg multiarch. Our own UEFI definitions (efi/arm64/include/efi.h, found as <efi.h>
# as gnu-efi's is on x86, so the shared UEFI glue of efi/shared.mk builds here too). On this LLP64
# target `long` is 32 bits: the code uses uint64_t and %ll.
#   -mgeneral-regs-only: secondaries start with FP/SIMD trapped (CPACR_EL1.FPEN
#     reset value), and the compiler must never use q registers behind our back
#   -mno-stack-arg-probe: no __chkstk calls (no Windows runtime here)
A64_BUILD := $(BUILD)/aarch64
A64_CC := clang
A64_LD := lld-link
A64_TARGET := --target=aarch64-unknown-windows
A64_CFLAGS := $(A64_TARGET) -std=c11 -O2 $(WARN) $(DEFS) -I. -Iarch/arm64/include -Iefi/arm64/include -ffreestanding -fno-builtin \
	-fno-stack-protector -mno-stack-arg-probe -mgeneral-regs-only -fshort-wchar -DTLBSCOPE_EFI -DTLBSCOPE_AARCH64 \
	$(A64_EXTRA_CFLAGS)
A64_LDFLAGS := /subsystem:efi_application /entry:efi_main /nodefaultlib /machine:arm64 /debug:none

# the app's own folders and what of core/ it uses (arch/arm64/core_srcs.mk)
include arch/arm64/core_srcs.mk
include efi/shared.mk
A64_SRCS := $(sort $(wildcard arch/arm64/*.c efi/arm64/*.c) $(EFI_SHARED_SRCS) $(A64_CORE_SRCS) $(EFI_SHARED_CORE_SRCS))
A64_ASM := $(sort $(wildcard arch/arm64/*.S))
A64_OBJS := $(patsubst %.c,$(A64_BUILD)/obj/%.o,$(A64_SRCS)) $(patsubst %.S,$(A64_BUILD)/obj/%.o,$(A64_ASM))
A64_EFI := $(A64_BUILD)/BOOTAA64.EFI
A64_IMG := $(A64_BUILD)/tlbscope.img
# SIGNED=1: the image carries the signed binary (make sign ARCH=aarch64)
SIGNED ?=
SIGNED_EFI ?= $(A64_BUILD)/BOOTAA64-signed.efi
SIGNED_IMG ?= $(A64_BUILD)/tlbscope-signed.img
A64_IMAGE_OUT := $(if $(filter-out 0 no,$(SIGNED)),$(SIGNED_IMG),$(A64_IMG))

.PHONY: all efi image run test deps clean help sign
all: $(A64_EFI)
efi: $(A64_EFI)

help:
	@echo "make ARCH=aarch64        build/aarch64/BOOTAA64.EFI"
	@echo "make image ARCH=aarch64  build/aarch64/tlbscope.img (FAT16 ESP for a USB stick or QEMU)"
	@echo "make run ARCH=aarch64 [SMP=4 VIRT=1 GIC=2 MEM=512 NET=1 ARGS='k=v ...']  boot under qemu-system-aarch64 -M virt,gic-version=3 (GIC=2: 2) + AAVMF (NET=1: a NIC, for upload=)"
	@echo "make test ARCH=aarch64   tests/qemu/aarch64.sh"
	@echo "make sign ARCH=aarch64 [KEY=db.key CERT=db.crt KEY_PASS=...]  build/aarch64/BOOTAA64-signed.efi (no KEY: the TEST key in build/keys/)"
	@echo "make image ARCH=aarch64 SIGNED=1   build/aarch64/tlbscope-signed.img, carrying the signed binary"

deps:
	@scripts/deps.sh aarch64

$(A64_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC64  $<")
	$(Q)$(A64_CC) $(A64_CFLAGS) -MMD -MP -c $< -o $@

$(A64_BUILD)/obj/%.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS64  $<")
	$(Q)$(A64_CC) $(A64_TARGET) -I. -Iarch/arm64/include -MMD -MP -c $< -o $@

# the version and commit go into the report: rebuild what prints them
$(A64_BUILD)/obj/efi/arm64/main.o $(A64_BUILD)/obj/core/report/report_arm64.o $(A64_BUILD)/obj/core/report/report_doc.o $(A64_BUILD)/obj/core/report/summary_text.o: $(BUILD)/commit.stamp

# the .sbat section shim checks (efi/sbat.S, from build/sbat.csv as on x86), as COFF
include efi/sbat.mk
A64_SBAT := $(A64_BUILD)/obj/efi/sbat.o
$(A64_SBAT): $(SBAT_CSV) efi/sbat.S
	@mkdir -p $(dir $@)
	$(Q)$(A64_CC) $(A64_TARGET) -DSBAT_CSV='"$(SBAT_CSV)"' -c efi/sbat.S -o $@

$(A64_EFI): $(A64_OBJS) $(A64_SBAT)
	@$(if $(Q),echo "  LD64  $@")
	$(Q)$(A64_LD) $(A64_LDFLAGS) /out:$@ $(A64_OBJS) $(A64_SBAT)
	@echo "built $@ ($(VERSION), $(COMMIT))"

# make sign ARCH=aarch64: x86's rules, key and script (release/sign.mk)
SIGN_IN := $(A64_EFI)
include release/sign.mk

image: $(A64_IMAGE_OUT)
$(A64_IMG): $(A64_EFI) scripts/mkimage-aarch64.sh
	$(Q)scripts/mkimage-aarch64.sh $@ $(A64_EFI)
$(SIGNED_IMG): $(SIGNED_EFI) scripts/mkimage-aarch64.sh
	$(Q)scripts/mkimage-aarch64.sh $@ $(SIGNED_EFI)

SMP ?= 4
MEM ?= 512
VIRT ?= 0
NET ?= 0
RUN_TIMEOUT ?= 300
# the reports of `make run ARCH=aarch64` are copied out of the image to here
A64_REPORTS ?= reports/runs/aarch64

run: deps $(A64_IMG)
	@scripts/deps.sh aarch64
	@SMP='$(SMP)' MEM='$(MEM)' VIRT='$(VIRT)' GIC='$(GIC)' NET='$(NET)' TIMEOUT='$(RUN_TIMEOUT)' OUT='$(A64_REPORTS)' SHOW=1 \
		ARGS='$(ARGS)' LATEST=reports/runs scripts/qemu-run-aarch64.sh $(A64_IMG)

test:
	@scripts/deps.sh aarch64
	@TESTS=qemu/aarch64 tests/run-all.sh

$(BUILD)/commit.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION) $(COMMIT)' | cmp -s - $@ || echo '$(VERSION) $(COMMIT)' > $@
FORCE:

clean:
	rm -rf $(A64_BUILD)

-include $(shell find $(A64_BUILD) -name '*.d' -type f 2>/dev/null)
