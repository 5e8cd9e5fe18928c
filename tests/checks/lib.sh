# TAP helpers for tests/checks/*.sh (sourced, not run; tests/run-all.sh skips
# lib.sh): ok, not_ok and check print numbered TAP lines.
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $*"; }
check() { # description, command...
    local d=$1; shift
    if "$@"; then ok "$d"; else not_ok "$d"; fi
}
