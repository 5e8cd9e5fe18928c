# efi/sbat.csv with the version from VERSION filled in: the one source of both apps'
# .sbat sections (efi/sbat.S, assembled as ELF for x86's objcopy route and as COFF for
# the aarch64 app's lld-link). Included by the Makefile and arch/arm64/arm64.mk.
SBAT_CSV := $(BUILD)/sbat.csv
$(SBAT_CSV): efi/sbat.csv VERSION
	@mkdir -p $(dir $@)
	$(Q)sed 's/@VERSION@/$(VERSION)/g' efi/sbat.csv > $@
