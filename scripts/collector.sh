#!/usr/bin/env bash
# The report collector (reports/collector/nginx.conf.in) on this machine, for
# the network tests and `make run NETBOOT=...`:
#   scripts/collector.sh start DIR [PORT]   prints the port (a free one when not given);
#                                           DIR/www/ serves the boot files, DIR/www/reports/
#                                           receives the uploads
#   scripts/collector.sh stop DIR           stops the nginx started for DIR
# It listens on 127.0.0.1 only: QEMU's user network takes the guest's
# connections to 10.0.2.2 there, so 127.0.0.1 is what it allows
# (COLLECTOR_ALLOW: other geo lines, for the tests of the allow-list).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cmd=${1:-}; dir=${2:-}
[ -n "$cmd" ] && [ -n "$dir" ] || { echo "usage: collector.sh start DIR [PORT] | stop DIR" >&2; exit 2; }

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case "$cmd" in
start)
    command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || {
        echo "collector.sh: nginx is not installed (scripts/deps.sh test)" >&2; exit 1; }
    mkdir -p "$dir/www/reports" "$dir/tmp"
    dir=$(cd "$dir" && pwd)
    port=${3:-$(free_port)}
    user=""
    [ "$(id -u)" = 0 ] && user="user root;"   # the workers write into DIR, which root owns
    allow=${COLLECTOR_ALLOW:-127.0.0.1 1;}
    sed -e "s|@DIR@|$dir|g" -e "s|@LISTEN@|127.0.0.1:$port|g" -e "s|@USER@|$user|g" \
        -e "s|@ALLOW@|$allow|g" \
        "$here/reports/collector/nginx.conf.in" > "$dir/nginx.conf"
    PATH=$PATH:/usr/sbin nginx -p "$dir" -c "$dir/nginx.conf" -e "$dir/error.log" 2>>"$dir/error.log" || {
        echo "collector.sh: nginx did not start:" >&2; tail -n 5 "$dir/error.log" >&2; exit 1; }
    # ready when the port answers (bounded: 5 s)
    for _ in $(seq 50); do
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; exit 0; fi
        sleep 0.1
    done
    echo "collector.sh: nginx started but port $port does not answer" >&2
    exit 1
    ;;
stop)
    [ -f "$dir/nginx.pid" ] || exit 0
    pid=$(cat "$dir/nginx.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || { rm -f "$dir/nginx.pid"; exit 0; }; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
    ;;
*)
    echo "collector.sh: unknown command $cmd (start, stop)" >&2; exit 2 ;;
esac
