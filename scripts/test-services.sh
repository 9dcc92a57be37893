# Sourced by `./run test`: the services the test suite needs beyond Python packages.
#   - Debian's chromium-headless-shell, for the end-to-end browser tests (Playwright
#     cannot download browsers here; tests/server/conftest.py says why the shell), and its
#     chromium, for the screenshots of scripts/gallery.py;
#   - a PostgreSQL server with a test database, for the storage tests
#     (exported as ATOUT_TEST_POSTGRES_URL).
# Installed with apt when missing and when we may (root with apt-get, as on CI);
# otherwise those tests are skipped, and we say so.
_atout_can_install() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

if ! command -v chromium >/dev/null || ! command -v chromium-headless-shell >/dev/null \
    || ! command -v pg_ctlcluster >/dev/null; then
    if _atout_can_install; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -q
        apt-get install -y -q chromium chromium-headless-shell postgresql
    else
        echo "note: chromium or PostgreSQL is missing and cannot be installed here (needs root and apt-get):" \
             "the browser and PostgreSQL tests will be skipped" >&2
    fi
fi

if [ -z "${ATOUT_TEST_POSTGRES_URL:-}" ] && command -v pg_lsclusters >/dev/null && _atout_can_install; then
    if [ -z "$(pg_lsclusters -h)" ]; then
        pg_createcluster "$(ls /usr/lib/postgresql | sort -V | tail -1)" main
    fi
    read -r pg_version pg_cluster pg_port _ < <(pg_lsclusters -h | head -1)
    pg_ctlcluster "$pg_version" "$pg_cluster" start >/dev/null 2>&1 || true
    for _ in $(seq 60); do pg_isready -q -h 127.0.0.1 -p "$pg_port" && break; sleep 0.5; done
    pg_sql() { su postgres -c "psql -p $pg_port -tAc \"$1\""; }
    pg_sql "SELECT 1 FROM pg_roles WHERE rolname='atout'" | grep -q 1 \
        || pg_sql "CREATE USER atout WITH PASSWORD 'atout'"
    pg_sql "SELECT 1 FROM pg_database WHERE datname='atout_test'" | grep -q 1 \
        || pg_sql "CREATE DATABASE atout_test OWNER atout"
    export ATOUT_TEST_POSTGRES_URL="postgresql://atout:atout@127.0.0.1:$pg_port/atout_test"
fi
