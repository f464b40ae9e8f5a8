#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the PostgreSQL store's tests, from Debian's packages.
#   .ci/postgres.sh start DIR   installs PostgreSQL if needed, creates a cluster in DIR as the user
#                               'modelkitpg' (PostgreSQL refuses to run as root), starts it on a free
#                               loopback port and prints the URL to use as MODELKIT_POSTGRES_URL
#   .ci/postgres.sh stop DIR    stops it
#   .ci/postgres.sh resume DIR  starts it again on the same port (the store tests of a server
#                               that goes away and comes back)
#   PG_SSL=1 .ci/postgres.sh start DIR   the same, with TLS on: a self-signed certificate for
#                               127.0.0.1 in DIR/server.crt (a client trusts it through sslrootcert)
set -euo pipefail
command=${1:?usage: .ci/postgres.sh start|stop|resume DIR}
dir=${2:?usage: .ci/postgres.sh start|stop|resume DIR}

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    apt-get update -qq >&2 && apt-get install -y -qq postgresql >&2
fi
bin=$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | sort -V | tail -1)")
user=modelkitpg
as_user() {
    if [ "$(id -u)" = 0 ]; then su "$user" -s /bin/sh -c "$1"; else sh -c "$1"; fi
}

# Starts the cluster in $dir on port $1 with the server options $2, waiting until it accepts connections.
start_server() {
    as_user "'$bin/pg_ctl' -D '$dir/data' -l '$dir/server.log' -w -o \"-p $1 -k '$dir' -c listen_addresses=127.0.0.1 -c max_connections=400 $2\" start >/dev/null"
}

case "$command" in
start)
    if [ "$(id -u)" = 0 ] && ! id "$user" >/dev/null 2>&1; then
        useradd --system --no-create-home --shell /usr/sbin/nologin "$user"
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown "$user" "$dir"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    echo "$port" >"$dir/port"
    as_user "'$bin/initdb' -D '$dir/data' -A trust -U modelkit -E UTF8 --locale=C.UTF-8 >'$dir/initdb.log' 2>&1"
    options="-c fsync=off"
    if [ "${PG_SSL:-0}" = 1 ]; then
        openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 \
            -keyout "$dir/server.key" -out "$dir/server.crt" >/dev/null 2>&1
        cp "$dir/server.crt" "$dir/server.key" "$dir/data/"
        [ "$(id -u)" = 0 ] && chown "$user" "$dir/data/server.crt" "$dir/data/server.key"
        chmod 600 "$dir/data/server.key"
        options="$options -c ssl=on"
    fi
    echo "$options" >"$dir/options"
    start_server "$port" "$options"
    as_user "'$bin/createdb' -h 127.0.0.1 -p $port -U modelkit modelkit"
    echo "postgres://modelkit@127.0.0.1:$port/modelkit?sslmode=disable"
    ;;
resume)
    start_server "$(cat "$dir/port")" "$(cat "$dir/options")"
    ;;
stop)
    as_user "'$bin/pg_ctl' -D '$dir/data' -m fast -w stop >/dev/null" || true
    ;;
*)
    echo "usage: .ci/postgres.sh start|stop|resume DIR" >&2
    exit 2
    ;;
esac
