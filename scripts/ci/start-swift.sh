#!/usr/bin/env bash
# Starts a single-node OpenStack Swift with its S3 API (the s3api middleware) on 127.0.0.1, for
# the tests that need a real S3 server (test/helpers/s3.ts). Idempotent: installs the Debian
# packages when they are missing, writes its settings, rings and data under one folder, starts
# memcached and the four Swift servers that are not already listening, and waits until the S3
# API answers. Does nothing when everything already runs.
#
#   scripts/ci/start-swift.sh          start (or check) the server
#   scripts/ci/start-swift.sh --stop   stop the servers this folder started
#
# S3 answers at http://127.0.0.1:$SWIFT_S3_PORT (8480) with access key `test:tester` and secret
# `testing` (tempauth's test account). The folder is $SWIFT_TEST_DIR (/var/tmp/sound-catalog-swift).
set -euo pipefail

dir=${SWIFT_TEST_DIR:-/var/tmp/sound-catalog-swift}
s3_port=${SWIFT_S3_PORT:-8480}
memcached_port=11211
object_port=6200 container_port=6201 account_port=6202
# Swift's scripts start with /usr/bin/python3, but another python3 may come first on PATH.
python=/usr/bin/python3

listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if [ "${1:-}" = --stop ]; then
  for name in proxy account container object memcached; do
    if [ -f "$dir/run/$name.pid" ]; then
      kill "$(cat "$dir/run/$name.pid")" 2>/dev/null || true
      rm -f "$dir/run/$name.pid"
    fi
  done
  # A later start skips a port that still listens: wait until the servers have let go of theirs.
  for _ in $(seq 1 40); do
    listening "$s3_port" || listening "$object_port" || listening "$container_port" || listening "$account_port" ||
      exit 0
    sleep 0.25
  done
  echo "some Swift server still listens after 10 s" >&2
  exit 1
fi

# The S3 API answers a wrongly signed request with its own XML error (an unsigned one goes on to
# Swift's own API), and tempauth's account answers once the account server is up: both together
# mean the whole chain is ready.
ready() {
  curl -s -m 2 -H 'Authorization: AWS test:tester:wrong' -H "Date: $(date -uR)" \
    "http://127.0.0.1:$s3_port/" | grep -q '<Code>SignatureDoesNotMatch</Code>' || return 1
  local token
  token=$(curl -s -m 2 -D - -o /dev/null -H 'X-Auth-User: test:tester' -H 'X-Auth-Key: testing' \
    "http://127.0.0.1:$s3_port/auth/v1.0" | tr -d '\r' | sed -n 's/^[Xx]-[Aa]uth-[Tt]oken: //p')
  [ -n "$token" ] || return 1
  curl -s -m 2 -o /dev/null -w '%{http_code}' -I -H "X-Auth-Token: $token" \
    "http://127.0.0.1:$s3_port/v1/AUTH_test" | grep -q '^2'
}

if ready; then
  echo "Swift's S3 API already answers at http://127.0.0.1:$s3_port"
  exit 0
fi

packages=(swift swift-proxy swift-object swift-container swift-account python3-swift memcached)
if ! [ -x /usr/bin/swift-proxy-server ] || ! [ -x /usr/bin/swift-object-server ] \
  || ! [ -x /usr/bin/swift-container-server ] || ! [ -x /usr/bin/swift-account-server ] \
  || ! [ -x /usr/bin/memcached ]; then
  echo "installing ${packages[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
fi

mkdir -p "$dir/srv/d1" "$dir/run" "$dir/log"

# swift.conf: the hash salt only has to stay the same for the life of this folder's data.
if ! [ -f "$dir/swift.conf" ]; then
  cat >"$dir/swift.conf" <<EOF
[swift-hash]
swift_hash_path_prefix = sound-catalog-tests
swift_hash_path_suffix = sound-catalog-tests

[storage-policy:0]
name = Policy-0
default = yes
EOF
fi

# One server settings file per kind; every one reads swift.conf and the rings from this folder.
write_backend() { # kind port
  cat >"$dir/$1-server.conf" <<EOF
[DEFAULT]
swift_dir = $dir
devices = $dir/srv
mount_check = false
bind_ip = 127.0.0.1
bind_port = $2
workers = 1
user = $(id -un)
log_name = $1-server

[pipeline:main]
pipeline = $1-server

[app:$1-server]
use = egg:swift#$1
EOF
}
write_backend object "$object_port"
write_backend container "$container_port"
write_backend account "$account_port"

cat >"$dir/proxy-server.conf" <<EOF
[DEFAULT]
swift_dir = $dir
bind_ip = 127.0.0.1
bind_port = $s3_port
workers = 1
user = $(id -un)
log_name = proxy-server

[pipeline:main]
pipeline = catch_errors gatekeeper healthcheck proxy-logging cache listing_formats s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:s3api]
use = egg:swift#s3api
location = us-east-1

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:$memcached_port

[filter:catch_errors]
use = egg:swift#catch_errors
[filter:gatekeeper]
use = egg:swift#gatekeeper
[filter:healthcheck]
use = egg:swift#healthcheck
[filter:proxy-logging]
use = egg:swift#proxy_logging
[filter:listing_formats]
use = egg:swift#listing_formats
[filter:copy]
use = egg:swift#copy
[filter:slo]
use = egg:swift#slo
[filter:dlo]
use = egg:swift#dlo
EOF

# Rings: one replica on one device each, made once.
for kind in object container account; do
  if ! [ -f "$dir/$kind.ring.gz" ]; then
    port_var=${kind}_port
    (cd "$dir" && $python /usr/bin/swift-ring-builder "$kind.builder" create 8 1 1 >/dev/null \
      && $python /usr/bin/swift-ring-builder "$kind.builder" add "r1z1-127.0.0.1:${!port_var}/d1" 100 >/dev/null \
      && $python /usr/bin/swift-ring-builder "$kind.builder" rebalance >/dev/null)
  fi
done

start() { # name port command...
  local name=$1 port=$2
  shift 2
  if listening "$port"; then return; fi
  nohup "$@" >"$dir/log/$name.log" 2>&1 &
  echo $! >"$dir/run/$name.pid"
}
start memcached "$memcached_port" /usr/bin/memcached -u "$(id -un)" -l 127.0.0.1 -p "$memcached_port" -m 32
start object "$object_port" $python /usr/bin/swift-object-server "$dir/object-server.conf" --verbose
start container "$container_port" $python /usr/bin/swift-container-server "$dir/container-server.conf" --verbose
start account "$account_port" $python /usr/bin/swift-account-server "$dir/account-server.conf" --verbose
start proxy "$s3_port" $python /usr/bin/swift-proxy-server "$dir/proxy-server.conf" --verbose

deadline=$((SECONDS + 120))
while [ "$SECONDS" -lt "$deadline" ]; do
  if ready; then
    echo "Swift's S3 API answers at http://127.0.0.1:$s3_port (settings and data in $dir)"
    exit 0
  fi
  sleep 0.25
done
echo "Swift's S3 API did not answer at http://127.0.0.1:$s3_port within 120 s; logs in $dir/log:" >&2
tail -n 5 "$dir"/log/*.log >&2
exit 1
