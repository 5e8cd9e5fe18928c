#!/usr/bin/env bash
# scripts/deps.sh while another process holds the package manager's lock
# (unattended-upgrades on a freshly booted cloud machine): it must wait, say
# so, and go on once the lock is free; give up after its bounded wait with a
# message naming the holder; and fail at once on any other apt-get failure.
# Nothing real is touched: apt-get, dpkg-query and sudo are stand-ins on PATH,
# the "lock" is a file a stand-in holder keeps flock'ed, the APT tree and the
# release are scratch files (TLBSCOPE_APT_ETC, TLBSCOPE_OS_RELEASE). Prints
# TAP lines for tests/run-all.sh.
source "$(dirname "$0")/lib.sh"
base=$(mktemp -d "${TMPDIR:-/tmp}/tlbscope-deps-lock.XXXXXX") || exit 1
holder=""
trap '[ -n "$holder" ] && kill "$holder" 2>/dev/null; [ -n "${KEEP:-}" ] || rm -rf "$base"' EXIT
bin=$base/bin lock=$base/lock-frontend
mkdir -p "$bin" "$base/apt/sources.list.d"
echo VERSION_CODENAME=trixie >"$base/os-release"
# every package missing; sudo runs the command as it is
printf '#!/bin/sh\nexit 1\n' >"$bin/dpkg-query"
printf '#!/bin/sh\nexec "$@"\n' >"$bin/sudo"
# apt-get as apt behaves: exit 100 with its message while the lock is taken; FAKE_APT_FAIL
# makes it fail otherwise; every call that ran is logged
cat >"$bin/apt-get" <<'EOS'
#!/bin/sh
if ! flock -n "$FAKE_LOCK" true; then
    echo "E: Could not get lock $FAKE_LOCK. It is held by process $(cat "$FAKE_LOCK.pid") (unattended-upgr)" >&2
    echo "E: Unable to acquire the dpkg frontend lock ($FAKE_LOCK), is another process using it?" >&2
    exit 100
fi
[ -n "${FAKE_APT_FAIL:-}" ] && { echo "E: Unable to locate package nosuch" >&2; exit 100; }
echo "$*" >>"$FAKE_LOG"
EOS
chmod +x "$bin"/*
# hold_lock SECONDS: a background holder of the lock for that long
hold_lock() {
    # one process that takes the lock and then becomes the sleep: killing it frees the lock
    rm -f "$lock.pid"
    ( exec 9>"$lock"; flock 9; echo "$BASHPID" >"$lock.pid"; exec sleep "$1" ) &
    holder=$!
    for _ in $(seq 50); do [ -s "$lock.pid" ] && break; sleep 0.1; done
}
# deps NAME [VAR=value...]: scripts/deps.sh build with the stand-ins; output in $base/NAME.out
deps() {
    local name=$1; shift
    : >"$base/$name.log"
    env PATH="$bin:$PATH" FAKE_LOCK="$lock" FAKE_LOG="$base/$name.log" TLBSCOPE_APT_ETC="$base/apt" \
        TLBSCOPE_OS_RELEASE="$base/os-release" TLBSCOPE_APT_LOCK_POLL=0.2 "$@" \
        timeout 60 scripts/deps.sh build >"$base/$name.out" 2>&1
    echo $? >"$base/$name.rc"
}
out_has() { grep -q -- "$2" "$base/$1.out"; }

# held for 2 s: waited for, then installed
hold_lock 2
t0=$SECONDS
deps released
check "lock held 2 s: deps.sh waits, then installs (exit 0)" test "$(cat "$base/released.rc")" = 0
check "lock held 2 s: it says it is waiting, and for whom" \
    out_has released "waiting for the package manager's lock, held by process [0-9]* (unattended-upgr)"
check "lock held 2 s: apt-get update and install ran once the lock was free" \
    test "$(cut -d' ' -f1 "$base/released.log" | tr '\n' ' ')" = "update install "
wait "$holder" 2>/dev/null; holder=""

# held past the bounded wait: given up, saying so
hold_lock 30
deps timeout TLBSCOPE_APT_LOCK_TIMEOUT=1
check "lock held past TLBSCOPE_APT_LOCK_TIMEOUT=1: deps.sh gives up (exit 100), nothing run" \
    test "$(cat "$base/timeout.rc")/$(wc -l <"$base/timeout.log")" = "100/0"
check "lock held past the wait: the message names the holder and the limit" \
    out_has timeout "lock is still taken (held by process [0-9]* (unattended-upgr)) after 1 s"
check "lock held past the wait: it gave up within seconds, not at the 60 s guard" \
    test $((SECONDS - t0)) -lt 40
kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""

# another failure: no waiting at all
deps other FAKE_APT_FAIL=1
check "apt-get failing for another reason: deps.sh fails at once with its message, no wait" \
    eval 'test "$(cat "$base/other.rc")" = 100 && out_has other "Unable to locate package" &&
          ! out_has other waiting'
exit 0
