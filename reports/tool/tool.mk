# Host tool: build/tlbscope-report (C11 + jansson). Sources in reports/tool/.
TOOL_SRCS := $(sort $(wildcard reports/tool/*.c))
TOOL_CFLAGS := -std=c11 -O2 -g $(WARN) -D_DEFAULT_SOURCE -I. -Ireports/tool
TOOL_OBJS := $(patsubst %.c,$(BUILD)/host/%.o,$(TOOL_SRCS))

tool: $(BUILD)/tlbscope-report

$(BUILD)/host/reports/tool/%.o: reports/tool/%.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  HOSTCC $<")
	$(Q)$(HOST_CC) $(TOOL_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/tlbscope-report: $(TOOL_OBJS)
	$(Q)$(HOST_CC) $(TOOL_OBJS) -o $@ -ljansson
