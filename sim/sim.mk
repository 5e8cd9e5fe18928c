# tlbscope-sim: the tool on the strict TLB model (sim/). Its library is part of
# the host library (tests/tests.mk: SIM_LIB_SRCS); main.c is the CLI.
SIM_MAIN := sim/main.c

.PHONY: sim
sim: $(BUILD)/tlbscope-sim

$(BUILD)/tlbscope-sim: $(SIM_MAIN) $(BUILD)/host/libtlbscope.a
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LD    $@")
	$(Q)$(HOST_CC) $(HOST_CFLAGS) -O2 $(SIM_MAIN) $(BUILD)/host/libtlbscope.a -o $@ -pthread
