# tlbscope-report: reads, checks, shows and compares the JSON reports tlbscope writes
# (schema in reports/SCHEMA.md). C11 and jansson.
#   Debian, Ubuntu: apt-get install gcc make libjansson-dev
#   Fedora:         dnf install gcc make jansson-devel
#
#   make            ./tlbscope-report
#   make static     ./tlbscope-report-static (needs the static libjansson.a)
CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
TOOL_FLAGS := -std=c11 -D_DEFAULT_SOURCE -I. -Ireports/tool
SRCS := $(sort $(wildcard reports/tool/*.c core/*.c core/exp/*.c))
OBJS := $(SRCS:.c=.o)

tlbscope-report: $(OBJS)
	$(CC) $(LDFLAGS) $(OBJS) -o $@ -ljansson -lm

%.o: %.c $(wildcard reports/tool/*.h core/*.h core/exp/*.h)
	$(CC) $(TOOL_FLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

static: tlbscope-report-static
tlbscope-report-static: $(SRCS)
	$(CC) $(TOOL_FLAGS) $(CPPFLAGS) $(CFLAGS) -static $(LDFLAGS) $(SRCS) -o $@ -ljansson -lm

clean:
	rm -f $(OBJS) tlbscope-report tlbscope-report-static

.PHONY: static clean
