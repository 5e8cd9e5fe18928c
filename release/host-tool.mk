# tlbscope-report: reads, checks, shows and compares the JSON reports tlbscope writes
# (schema in reports/SCHEMA.md). C11 and jansson.
#   Debian, Ubuntu: apt-get install gcc make libjansson-dev
#   Fedora:         dnf install gcc make jansson-devel
#
#   make            ./tlbscope-report
#   make static     ./tlbscope-report-static (needs the static libjansson.a)
#   make install [PREFIX=~/.local]   the tool, its man page and its bash completion
CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
PREFIX ?= $(HOME)/.local
# VERSION (written by make dist): the release's version and commit, for --version
RELEASE := $(shell cat VERSION 2>/dev/null)
TOOL_FLAGS := -std=c11 -D_DEFAULT_SOURCE -I. -Ireports/tool \
	$(if $(RELEASE),-DTLBSCOPE_VERSION='"$(word 1,$(RELEASE))"' -DTLBSCOPE_COMMIT='"$(word 2,$(RELEASE))"')
SRCS := $(sort $(filter-out reports/tool/fleet/%,$(wildcard reports/tool/*/*.c)) $(wildcard core/*/*.c))
OBJS := $(SRCS:.c=.o)

tlbscope-report: $(OBJS)
	$(CC) $(LDFLAGS) $(OBJS) -o $@ -ljansson -lm

%.o: %.c $(wildcard reports/tool/*/*.h core/*.h core/*/*.h VERSION)
	$(CC) $(TOOL_FLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

static: tlbscope-report-static
tlbscope-report-static: $(SRCS)
	$(CC) $(TOOL_FLAGS) $(CPPFLAGS) $(CFLAGS) -static $(LDFLAGS) $(SRCS) -o $@ -ljansson -lm

# the man page and the completion from this build's own --help (gen-man.sh, gen-completion.sh)
tlbscope-report.1: tlbscope-report gen-man.sh
	./gen-man.sh ./tlbscope-report '$(word 1,$(RELEASE))' >$@
tlbscope-report.bash-completion: tlbscope-report gen-completion.sh
	./gen-completion.sh ./tlbscope-report >$@

install: tlbscope-report tlbscope-report.1 tlbscope-report.bash-completion
	install -D -m 755 tlbscope-report '$(PREFIX)/bin/tlbscope-report'
	install -D -m 644 tlbscope-report.1 '$(PREFIX)/share/man/man1/tlbscope-report.1'
	install -D -m 644 tlbscope-report.bash-completion \
		'$(PREFIX)/share/bash-completion/completions/tlbscope-report'

clean:
	rm -f $(OBJS) tlbscope-report tlbscope-report-static tlbscope-report.1 \
		tlbscope-report.bash-completion

.PHONY: static install clean
