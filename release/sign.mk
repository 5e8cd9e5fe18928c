# Secure Boot signing, for both apps: the x86 app (release/release.mk) and the
# aarch64 app (arch/arm64/arm64.mk) include this with
#   SIGN_IN     the binary to sign (build/tlbscope.efi, build/aarch64/BOOTAA64.EFI)
#   SIGNED_EFI  the signed copy    (build/tlbscope-signed.efi, build/aarch64/BOOTAA64-signed.efi)
# and get `make sign` with one key and one script (scripts/sign.sh: sbsign, then
# sbverify): KEY=db.key CERT=db.crt [KEY_PASS=...], or neither for the TEST key
# generated once in build/keys/ (shared by both apps, so one enrolled test
# certificate boots either).

KEY ?=
CERT ?=
KEY_PASS ?=
TEST_KEY_DIR := $(BUILD)/keys
TEST_CERT := $(TEST_KEY_DIR)/TEST-KEY-tlbscope-db.crt
SIGN_CERT := $(if $(KEY)$(CERT),$(CERT),$(TEST_CERT))

# What was signed with which key: a different KEY/CERT re-signs.
$(SIGNED_EFI).stamp: FORCE
	@mkdir -p $(dir $@)
	@echo '$(abspath $(KEY)) $(abspath $(CERT))' | cmp -s - $@ || echo '$(abspath $(KEY)) $(abspath $(CERT))' > $@

$(TEST_CERT):
	$(Q)scripts/sign.sh --test-key $(TEST_KEY_DIR)

$(SIGNED_EFI): $(SIGN_IN) $(SIGNED_EFI).stamp $(if $(KEY)$(CERT),$(wildcard $(KEY) $(CERT)),$(TEST_CERT))
	$(Q)TLBSCOPE_KEY_PASS='$(KEY_PASS)' scripts/sign.sh $< $@ '$(KEY)' '$(CERT)' $(TEST_KEY_DIR)

# sbverify checks the signed file every time, against the certificate it was signed with
.PHONY: sign
sign: deps $(SIGNED_EFI)
	$(Q)scripts/sign.sh --verify $(SIGNED_EFI) '$(SIGN_CERT)'
