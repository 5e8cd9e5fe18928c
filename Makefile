# tlbscope: `make run` boots the tool under QEMU+OVMF, `make test` runs every test.
# Both install the Debian packages they need (scripts/deps.sh).

# The one place the version is written: the VERSION file. It goes into the banner, the
# report (generator.version), the .sbat section and the release's file names; the commit
# (generator.commit, the banner) ends in -dirty when the tree has uncommitted changes.
VERSION := $(strip $(file < VERSION))
ifeq ($(VERSION),)
$(error the VERSION file is missing or empty)
endif
COMMIT  := $(shell git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)$(shell git diff --quiet HEAD -- 2>/dev/null || echo -dirty)
BUILD   := build
# The architecture built: arch/$(ARCH)/ implements the architecture interface that core/ and
# efi/ reach as "asm/NAME.h" through ARCH_INC (docs/architecture.md). x86 (default), or aarch64
# (issue 27: arch/arm64/, built by arch/arm64/arm64.mk into build/aarch64/).
ARCH    ?= x86
ARCH_INC := -Iarch/$(ARCH)/include

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wno-unused-parameter
DEFS := -DTLBSCOPE_VERSION='"$(VERSION)"' -DTLBSCOPE_COMMIT='"$(COMMIT)"'
# V=1 shows the full command lines
Q := $(if $(V),,@)

# ARCH=aarch64 (issue 27): the aarch64 app, built by its own rules (arch/arm64/arm64.mk)
ifeq ($(ARCH),aarch64)
include arch/arm64/arm64.mk
else

# ---- gnu-efi (Debian 3.0.15 paths; override for another install) ----
EFI_INC  ?= /usr/include/efi
EFI_LIB  ?= /usr/lib
EFI_CRT0 ?= $(EFI_LIB)/crt0-efi-x86_64.o
EFI_LDS  ?= $(EFI_LIB)/elf_x86_64_efi.lds

ifeq ($(origin CC),default)
CC := gcc
endif
HOST_CC ?= gcc
LD      := ld
OBJCOPY := objcopy

# Freestanding UEFI code: no red zone (interrupt handlers share the stack),
# general registers only (handlers do not save SSE state), SysV ABI inside,
# ms_abi only where firmware calls us or we call it (see efi/mp_protocol.h).
EFI_CFLAGS := -std=c11 -O2 -g0 $(WARN) $(DEFS) -I. $(ARCH_INC) -isystem $(EFI_INC) -isystem $(EFI_INC)/x86_64 \
	-ffreestanding -fno-stack-protector -fno-stack-check -fpic -fshort-wchar \
	-mno-red-zone -maccumulate-outgoing-args -mgeneral-regs-only -fno-strict-aliasing \
	-fno-builtin -DEFI_FUNCTION_WRAPPER -DTLBSCOPE_EFI
EFI_ASFLAGS := -fpic -I. $(ARCH_INC) -DTLBSCOPE_EFI
# a test image's extra defines (tests/qemu/ring3.sh builds one with -DTLBSCOPE_MUTANT=178)
EFI_CFLAGS += $(X86_EXTRA_CFLAGS)

# core/*/*_arm64.c: the aarch64 run's own files, built only into the aarch64 app (arch/arm64/arm64.mk)
CORE_SRCS := $(sort $(filter-out %_arm64.c,$(wildcard core/*/*.c)))
ARCH_SRCS := $(sort $(wildcard arch/$(ARCH)/*.c))
ARCH_ASM  := $(sort $(wildcard arch/$(ARCH)/*.S))
EFI_SRCS  := $(sort $(wildcard efi/*.c))

EFI_OBJS := $(patsubst %.c,$(BUILD)/efi/%.o,$(EFI_SRCS) $(CORE_SRCS) $(ARCH_SRCS)) \
            $(patsubst %.S,$(BUILD)/efi/%.o,$(ARCH_ASM))

.PHONY: all efi tool sim image run test check test-full bench fuzz deps clean help sign dist usb version samples
all: deps efi tool sim

help:
	@echo "make run   [SMP=4 CPU=max MEM=512 ARGS='k=v ...' QEMU=... QEMU_EXTRA=...]  boot under QEMU+OVMF"
	@echo "make run NETBOOT=tftp|http  boot over the network; the report is uploaded to a local collector"
	@echo "make test  host unit tests + QEMU integration tests (the whole suite, CI)"
	@echo "make check  the edit loop: host tests, two model shapes, one QEMU boot per arch (~3 min)"
	@echo "make image build/tlbscope.img for a USB stick;  make bench;  make fuzz;  make test-full"
	@echo "make samples [ONLY='NAME ...']  reports/samples again from real runs at the current schema"
	@echo "make sign  [KEY=db.key CERT=db.crt KEY_PASS=...]  build/tlbscope-signed.efi (no KEY: a generated TEST key in build/keys/)"
	@echo "make image SIGNED=1   build/tlbscope-signed.img, carrying the signed binary"
	@echo "make tool  build/tlbscope-report, its man page (.1) and bash completion, from its --help"
	@echo "make dist  [SIGNED=1 ...]  build/dist/tlbscope-$(DIST_VERSION).tar.gz and .zip (QUICKSTART.md inside)"
	@echo "make usb DEV=/dev/sdX [YES=1] [SIGNED=1]  write the image to a USB stick, after checks"

deps:
	@scripts/deps.sh build

efi: $(BUILD)/tlbscope.efi

$(BUILD)/efi/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC    $<")
	$(Q)$(CC) $(EFI_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/efi/%.o: %.S
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  AS    $<")
	$(Q)$(CC) $(EFI_ASFLAGS) -MMD -MP -c $< -o $@

# The version and commit id are compiled into the banner and the report: rebuild what uses them.
$(BUILD)/commit.stamp: FORCE
	@mkdir -p $(BUILD)
	@echo '$(VERSION) $(COMMIT)' | cmp -s - $@ || echo '$(VERSION) $(COMMIT)' > $@
$(BUILD)/efi/efi/main.o $(BUILD)/efi/core/report/report_json.o $(BUILD)/efi/core/report/report_doc.o \
    $(BUILD)/efi/core/report/summary_text.o: $(BUILD)/commit.stamp
FORCE:

# build/sbat.csv (efi/sbat.mk) into the .sbat section
include efi/sbat.mk
$(BUILD)/sbat.o: $(SBAT_CSV) efi/sbat.S
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(EFI_ASFLAGS) -DSBAT_CSV='"$(SBAT_CSV)"' -c efi/sbat.S -o $@

$(BUILD)/tlbscope.so: $(EFI_OBJS) $(BUILD)/sbat.o
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(LD) -nostdlib -znocombreloc -T $(EFI_LDS) -shared -Bsymbolic -L$(EFI_LIB) \
		$(EFI_CRT0) $(EFI_OBJS) $(BUILD)/sbat.o -o $@ -lefi -lgnuefi

$(BUILD)/tlbscope.efi: $(BUILD)/tlbscope.so
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .dynamic -j .dynsym -j .rel -j .rela \
		-j '.rel.*' -j '.rela.*' -j .reloc -j .sbat --target efi-app-x86_64 --subsystem=10 $< $@
	@echo "built $@ ($(VERSION), $(COMMIT))"

# SIGNED=1: build/tlbscope-signed.img, carrying build/tlbscope-signed.efi (make sign)
SIGNED ?=
SIGNED_EFI ?= $(BUILD)/tlbscope-signed.efi
SIGNED_IMG ?= $(BUILD)/tlbscope-signed.img
IMAGE_OUT := $(if $(filter-out 0 no,$(SIGNED)),$(SIGNED_IMG),$(BUILD)/tlbscope.img)
image: deps $(IMAGE_OUT)
$(BUILD)/tlbscope.img: $(BUILD)/tlbscope.efi startup.nsh $(BUILD)/tlbscope.cfg scripts/mkimage.sh
	$(Q)scripts/mkimage.sh $@ $(BUILD)/tlbscope.efi 64 $(BUILD)/tlbscope.cfg

# ---- QEMU run ----
SMP  ?= 4
CPU  ?= max
MEM  ?= 512
ARGS ?=
QEMU ?= qemu-system-x86_64
QEMU_EXTRA ?=
RUN_TIMEOUT ?= 900
# tftp|http: PXE/TFTP or UEFI HTTP boot instead of the stick, uploading to a collector
# (nginx, reports/collector/) started for the run; the reports land in reports/runs/uploaded/
NETBOOT ?=

run: deps $(BUILD)/tlbscope.img tool
	@scripts/deps.sh $(if $(NETBOOT),net,run)
	@SMP='$(SMP)' CPU='$(CPU)' MEM='$(MEM)' ARGS='$(ARGS)' QEMU='$(QEMU)' QEMU_EXTRA='$(QEMU_EXTRA)' \
		NETBOOT='$(NETBOOT)' TIMEOUT='$(RUN_TIMEOUT)' scripts/qemu-run.sh --interactive

include reports/tool/tool.mk
include release/release.mk
include tests/tests.mk
include sim/sim.mk

# Every sample report again from real runs of this build (QEMU x86 and aarch64, Bochs, the
# model's 8 profiles), at the current schema version: about an hour on 2 cores.
# ONLY='NAME ...' makes those only (scripts/make-samples.sh --list).
ONLY ?=
samples: deps image tool sim
	@scripts/make-samples.sh $(ONLY)

clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)

# The default profile three times under QEMU: wall time and per-experiment durations (median);
# then the tool's own overhead: IPI round trip (halted and spinning targets) and the one-page
# shootdown p50 at SMP=2 and 4, median of three launches each (scripts/bench-overhead.sh);
# then the fleet database's import time per report at 100 and 1,000 reports, SQLite and
# PostgreSQL (scripts/bench-fleetdb.sh).
# Performance targets live here, never in `make test`.
bench: deps $(BUILD)/tlbscope.img tool
	@scripts/deps.sh run
	@SMP='$(SMP)' scripts/bench.sh
	@scripts/bench-overhead.sh
	@scripts/bench-fleetdb.sh

endif # ARCH
