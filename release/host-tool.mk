# tlbscope-report: reads, checks, shows and compares the JSON reports tlbscope writes
# (schema in reports/SCHEMA.md). C11 and jansson; the fleet database (import, atlas, query:
# docs/fleet.md) with SQLite where its header is found, and PostgreSQL too with PG=1.
#   Debian, Ubuntu: apt-get install gcc make libjansson-dev libsqlite3-dev [libpq-dev]
#   Fedora:         dnf install gcc make jansson-devel sqlite-devel [libpq-devel]
#
#   make [PG=1]     ./tlbscope-report
#   make static     ./tlbscope-report-static (needs the static libjansson.a, and libsqlite3.a
#                   for the fleet database; never PostgreSQL: a static libpq is not practical)
#   make install [PREFIX=~/.local]   the tool, its man page and its bash completion
#   SQLITE=0        without the fleet database (import, atlas and query then say so)
CC ?= cc
CFLAGS ?= -O2 -g -Wall -Wextra
PREFIX ?= $(HOME)/.local
# VERSION (written by make dist): the release's version and commit, for --version
RELEASE := $(shell cat VERSION 2>/dev/null)
TOOL_FLAGS := -std=c11 -D_DEFAULT_SOURCE -I. -Ireports/tool \
	$(if $(RELEASE),-DTLBSCOPE_VERSION='"$(word 1,$(RELEASE))"' -DTLBSCOPE_COMMIT='"$(word 2,$(RELEASE))"')
# SQLite: built in when its header is there (SQLITE=1 or 0 decides); PostgreSQL on request
SQLITE ?= $(shell printf '\043include <sqlite3.h>\n' | $(CC) -E -x c - >/dev/null 2>&1 && echo 1 || echo 0)
PG ?= 0
PG_CFLAGS := $(if $(filter 1,$(PG)),$(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql))
BASE_SRCS := $(sort $(filter-out reports/tool/fleet/%,$(wildcard reports/tool/*/*.c)) $(wildcard core/*/*.c))
FLEET_SRCS := $(filter-out reports/tool/fleet/fdb_pg.c reports/tool/fleet/fdb_nopg.c,$(wildcard reports/tool/fleet/*.c))
ifeq ($(SQLITE),1)
TOOL_FLAGS += -DTLBSCOPE_FLEETDB $(PG_CFLAGS)
SRCS := $(BASE_SRCS) $(FLEET_SRCS) reports/tool/fleet/$(if $(filter 1,$(PG)),fdb_pg.c,fdb_nopg.c)
DB_LIBS := -lsqlite3 $(if $(filter 1,$(PG)),-lpq)
STATIC_SRCS := $(BASE_SRCS) $(FLEET_SRCS) reports/tool/fleet/fdb_nopg.c
STATIC_LIBS := -lsqlite3 -lpthread -ldl
else
SRCS := $(BASE_SRCS)
STATIC_SRCS := $(BASE_SRCS)
endif
OBJS := $(SRCS:.c=.o)

tlbscope-report: $(OBJS)
	$(CC) $(LDFLAGS) $(OBJS) -o $@ -ljansson $(DB_LIBS) -lm

%.o: %.c $(wildcard reports/tool/*/*.h core/*.h core/*/*.h VERSION)
	$(CC) $(TOOL_FLAGS) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

static: tlbscope-report-static
tlbscope-report-static: $(STATIC_SRCS)
	$(CC) $(filter-out $(PG_CFLAGS),$(TOOL_FLAGS)) $(CPPFLAGS) $(CFLAGS) -static $(LDFLAGS) \
		$(STATIC_SRCS) -o $@ -ljansson $(STATIC_LIBS) -lm

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
