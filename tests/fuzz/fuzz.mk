# libFuzzer targets (clang). Each tests/fuzz/fuzz_NAME.c defines
# LLVMFuzzerTestOneInput; FUZZ_LIBS_NAME names what it links besides it.
# `make fuzz` builds them all; tests/checks/fuzz.sh runs each for a bounded time.
FUZZ_CC := clang
FUZZ_CFLAGS := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I. $(ARCH_INC) -DTLBSCOPE_HOST -D_DEFAULT_SOURCE $(DEFS)
FUZZ_SRCS := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))

# host library sources (no objects shared with the gcc builds: different sanitizers)
FUZZ_CORE_SRCS := $(HOST_LIB_SRCS) $(SIM_ASM)

.PHONY: fuzz
fuzz: $(FUZZ_BINS)

$(BUILD)/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_CORE_SRCS) $(TOOL_LIB_SRCS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $< $(FUZZ_CORE_SRCS) $(TOOL_LIB_SRCS) -o $@ -ljansson -lm -pthread

# A target that needs only its own file of core/lib links just that (a second or so to
# build, where the whole host library takes a minute of CPU per target).
FUZZ_SMALL_SRCS_fuzz_http_length := core/lib/http_length.c
$(BUILD)/fuzz/fuzz_http_length: tests/fuzz/fuzz_http_length.c $(FUZZ_SMALL_SRCS_fuzz_http_length)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) $^ -o $@

# The atlas (issue 35) links the tool library and the fleet database's SQLite half (no
# libpq: fdb_nopg.c stands in, as in the release's build), not the app's host library.
FUZZ_ATLAS_SRCS := $(TOOL_LIB_SRCS) $(TOOL_CORE_SRCS) \
	$(filter-out reports/tool/fleet/fdb_pg.c,$(sort $(wildcard reports/tool/fleet/*.c)))
$(BUILD)/fuzz/fuzz_atlas: tests/fuzz/fuzz_atlas.c $(FUZZ_ATLAS_SRCS)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  FUZZ  $@")
	$(Q)$(FUZZ_CC) $(FUZZ_CFLAGS) -Ireports/tool $^ -o $@ -lsqlite3 -ljansson -lm
