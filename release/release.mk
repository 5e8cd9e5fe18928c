# Releases: a signed binary (make sign), the image that carries it (make image
# SIGNED=1), the release archive (make dist) and writing a USB stick (make usb).
# Included by the Makefile, which defines VERSION, COMMIT, SIGNED, SIGNED_EFI,
# SIGNED_IMG and IMAGE_OUT.
#
#   make sign                          signs with a TEST key generated once in build/keys/
#   make sign KEY=db.key CERT=db.crt   signs with your key (KEY_PASS=... if it is
#                                      passphrase-protected and there is no terminal)
#   make image SIGNED=1                build/tlbscope-signed.img
#   make dist [SIGNED=1]               build/dist/tlbscope-VERSION.tar.gz, .zip, SHA256SUMS
#   make usb DEV=/dev/sdX [YES=1]      writes the image to a stick after checking the device

DEV ?=
YES ?=
# a dirty tree's release is named as such (the commit in BUILDINFO and the banner says which)
DIST_VERSION := $(VERSION)$(if $(filter %-dirty,$(COMMIT)),-dirty)
DIST_NAME := tlbscope-$(DIST_VERSION)
DIST_DIR ?= $(BUILD)/dist
USB_IMAGE ?= $(IMAGE_OUT)

# make sign (release/sign.mk, shared with the aarch64 app): $(SIGNED_EFI) from this
SIGN_IN := $(BUILD)/tlbscope.efi
include release/sign.mk

$(SIGNED_IMG): $(SIGNED_EFI) startup.nsh $(BUILD)/tlbscope.cfg scripts/mkimage.sh
	$(Q)scripts/mkimage.sh $@ $(SIGNED_EFI) 64 $(BUILD)/tlbscope.cfg

# The stick's tlbscope.cfg, written from the key table in core/run/config_keys.c by a host build of
# that file (release/gen-cfg.c): every key, its values, default and help, never hand-kept.
$(BUILD)/host/gen-cfg: release/gen-cfg.c $(BUILD)/host/libtlbscope.a
	@mkdir -p $(dir $@)
	$(Q)$(HOST_CC) $(HOST_CFLAGS) $< $(BUILD)/host/libtlbscope.a -o $@ -ljansson -pthread
$(BUILD)/tlbscope.cfg: $(BUILD)/host/gen-cfg
	$(Q)$< >$@.tmp && mv $@.tmp $@

# tlbscope-report's man page and bash completion, from its own --help at every build (so an
# option added to the help is in both); make tool builds them, make dist ships them
TOOL_MAN := $(BUILD)/tlbscope-report.1
TOOL_COMPLETION := $(BUILD)/tlbscope-report.bash-completion
tool: $(TOOL_MAN) $(TOOL_COMPLETION)
$(TOOL_MAN): $(BUILD)/tlbscope-report release/gen-man.sh
	$(Q)release/gen-man.sh $< '$(VERSION)' >$@.tmp && mv $@.tmp $@
$(TOOL_COMPLETION): $(BUILD)/tlbscope-report release/gen-completion.sh
	$(Q)release/gen-completion.sh $< >$@.tmp && mv $@.tmp $@

# the archive's: from the tool as the archive ships it (the fleet database on SQLite files)
DIST_MAN := $(BUILD)/release/tlbscope-report.1
DIST_COMPLETION := $(BUILD)/release/tlbscope-report.bash-completion
$(DIST_MAN): $(BUILD)/host/tlbscope-report-release release/gen-man.sh
	@mkdir -p $(dir $@)
	$(Q)release/gen-man.sh $< '$(VERSION)' >$@.tmp && mv $@.tmp $@
$(DIST_COMPLETION): $(BUILD)/host/tlbscope-report-release release/gen-completion.sh
	@mkdir -p $(dir $@)
	$(Q)release/gen-completion.sh $< >$@.tmp && mv $@.tmp $@

# the aarch64 app goes into the stick's tree as \EFI\BOOT\BOOTAA64.EFI (issue 27)
DIST_A64_EFI := $(BUILD)/aarch64/BOOTAA64.EFI
dist: deps $(IMAGE_OUT) $(DIST_MAN) $(DIST_COMPLETION)
	@scripts/deps.sh aarch64
	$(Q)$(MAKE) --no-print-directory ARCH=aarch64 BUILD='$(BUILD)' efi
	$(Q)TLBSCOPE_A64_EFI='$(DIST_A64_EFI)' TOOL_MAN='$(DIST_MAN)' TOOL_COMPLETION='$(DIST_COMPLETION)' TLBSCOPE_TOOL_SRCS='$(TOOL_MAIN_SRC) $(TOOL_LIB_SRCS) $(TOOL_CORE_SRCS) $(FLEET_SRCS) reports/tool/fleet/fdb_nopg.c' HOST_CC='$(HOST_CC)' \
		scripts/dist.sh '$(DIST_DIR)' '$(DIST_NAME)' '$(VERSION)' '$(COMMIT)' '$(IMAGE_OUT)' \
		'$(if $(filter $(SIGNED_IMG),$(IMAGE_OUT)),$(SIGN_CERT))'

usb: deps $(USB_IMAGE)
	$(Q)YES='$(YES)' scripts/usb-write.sh '$(DEV)' '$(USB_IMAGE)'

# for scripts and tests: what this tree would build and release
version:
	@echo 'version $(VERSION)'
	@echo 'commit $(COMMIT)'
	@echo 'release $(DIST_NAME)'
