#!/usr/bin/env bash
# A throw-away PostgreSQL server for the fleet database's tests and bench
# (tests/checks/fleetdb.sh, scripts/bench-fleetdb.sh). Source it, then:
#   pg_temp_start DIR    initdb in DIR/data, start on a free local port; sets PG_TEMP_URI
#                        (postgresql://fleet@127.0.0.1:PORT/fleet); returns 1 with the
#                        reason in PG_TEMP_WHY when no server could be had
#   pg_temp_stop         stops it (fast, then immediate, then the postmaster's PID) and
#                        removes DIR/data; safe to call twice, and from a trap
# The server binaries come from Debian's `postgresql` (/usr/lib/postgresql/*/bin).
# initdb refuses to run as root, so under root the server runs as the `postgres`
# user (or `nobody`). Durability is off (fsync): the data is thrown away anyway.
PG_TEMP_URI= PG_TEMP_WHY= PG_TEMP_DIR= PG_TEMP_BIN= PG_TEMP_USER=

pg_temp_bin() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ] && { echo "$d"; return 0; }
    done
    return 1
}

# pg_temp_as CMD...: as the server's user
pg_temp_as() {
    if [ -n "$PG_TEMP_USER" ]; then runuser -u "$PG_TEMP_USER" -- "$@"; else "$@"; fi
}

# a port nothing listens on (the kernel's choice of a free ephemeral port)
pg_temp_free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pg_temp_start() {
    local dir=$1 port try
    PG_TEMP_DIR=$dir/data
    if ! PG_TEMP_BIN=$(pg_temp_bin); then
        PG_TEMP_WHY="no PostgreSQL server (Debian package postgresql: scripts/deps.sh test)"
        return 1
    fi
    PG_TEMP_USER=
    if [ "$(id -u)" = 0 ]; then
        PG_TEMP_USER=$(id -u postgres >/dev/null 2>&1 && echo postgres || echo nobody)
    fi
    rm -rf "$PG_TEMP_DIR" && mkdir -p "$PG_TEMP_DIR" && chmod 700 "$PG_TEMP_DIR"
    [ -n "$PG_TEMP_USER" ] && chown "$PG_TEMP_USER" "$PG_TEMP_DIR"
    if ! (cd / && pg_temp_as timeout 120 "$PG_TEMP_BIN/initdb" -D "$PG_TEMP_DIR" -U fleet \
              --auth=trust --no-sync -E UTF8 --locale=C >"$dir/initdb.log" 2>&1); then
        PG_TEMP_WHY="initdb failed (see $dir/initdb.log)"
        return 1
    fi
    # a free port can be taken between the choice and the start: try a few
    for try in 1 2 3; do
        port=$(pg_temp_free_port) || break
        if (cd / && pg_temp_as timeout 60 "$PG_TEMP_BIN/pg_ctl" -D "$PG_TEMP_DIR" -w -t 30 \
                -l "$PG_TEMP_DIR/server.log" -o "-p $port -k $PG_TEMP_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
                start >>"$dir/pg_ctl.log" 2>&1); then
            PG_TEMP_URI="postgresql://fleet@127.0.0.1:$port/fleet"
            if (cd / && pg_temp_as timeout 30 "$PG_TEMP_BIN/createdb" -h 127.0.0.1 -p "$port" -U fleet fleet \
                    >>"$dir/pg_ctl.log" 2>&1); then
                return 0
            fi
            PG_TEMP_WHY="createdb failed (see $dir/pg_ctl.log)"
            pg_temp_stop
            return 1
        fi
    done
    cp "$PG_TEMP_DIR/server.log" "$dir/server.log" 2>/dev/null
    PG_TEMP_WHY="the server did not start (see $dir/pg_ctl.log, $dir/server.log)"
    pg_temp_stop
    return 1
}

pg_temp_stop() {
    local pid
    [ -n "$PG_TEMP_DIR" ] && [ -d "$PG_TEMP_DIR" ] || return 0
    if [ -f "$PG_TEMP_DIR/postmaster.pid" ]; then
        (cd / && pg_temp_as timeout 40 "$PG_TEMP_BIN/pg_ctl" -D "$PG_TEMP_DIR" -w -t 30 -m fast stop) >/dev/null 2>&1 ||
            (cd / && pg_temp_as timeout 20 "$PG_TEMP_BIN/pg_ctl" -D "$PG_TEMP_DIR" -w -t 15 -m immediate stop) >/dev/null 2>&1
        # still there: the postmaster's own PID (first line of postmaster.pid), this server only
        if [ -f "$PG_TEMP_DIR/postmaster.pid" ]; then
            pid=$(head -n1 "$PG_TEMP_DIR/postmaster.pid" 2>/dev/null)
            [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
        fi
    fi
    rm -rf "$PG_TEMP_DIR"
    PG_TEMP_DIR= PG_TEMP_URI=
}
