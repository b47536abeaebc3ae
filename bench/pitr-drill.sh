#!/usr/bin/env bash
# Point-in-time recovery drill for a PostgreSQL server (docs/operations.md, "Backup and restore"):
# a throwaway cluster of its own (initdb in a temporary folder, another port; the shared server is
# never touched) with WAL archiving on; a base backup (pg_basebackup) while rows are written;
# more rows; a recovery target time; more rows after it; then the base backup restored with the
# archived WAL up to that time. It passes when the restored cluster holds exactly the rows
# committed before the target: those of the base backup and those after it, none later.
#   bash bench/pitr-drill.sh            (as root it runs PostgreSQL's tools as the postgres user)
# Env: PITR_PORT (55432), PG_BIN (/usr/lib/postgresql/15/bin).
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
PORT=${PITR_PORT:-55432}
RESTORED_PORT=$((PORT + 1))
DIR=$(mktemp -d /tmp/attesta-pitr-XXXXXX)
chmod 755 "$DIR"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" = 0 ] && chown postgres "$DIR"
cleanup() {
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/data" -m immediate stop >/dev/null 2>&1 || true
  as_pg "$PG_BIN/pg_ctl" -D "$DIR/restored" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$DIR"
}
trap cleanup EXIT
psql_at() { as_pg psql -X -q -At -h 127.0.0.1 -p "$1" -U postgres -d drill -c "$2"; }

as_pg "$PG_BIN/initdb" -D "$DIR/data" -U postgres --auth=trust >/dev/null
as_pg mkdir "$DIR/wal"
cat >>"$DIR/data/postgresql.conf" <<EOF
port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = '$DIR'
wal_level = replica
archive_mode = on
archive_command = 'test ! -f $DIR/wal/%f && cp %p $DIR/wal/%f'
EOF
as_pg "$PG_BIN/pg_ctl" -D "$DIR/data" -l "$DIR/data.log" -w start >/dev/null
as_pg psql -X -q -h 127.0.0.1 -p "$PORT" -U postgres -d postgres -c 'create database drill'
psql_at "$PORT" 'create table answers (id serial primary key, phase text, at timestamptz default clock_timestamp())'
psql_at "$PORT" "insert into answers (phase) select 'before base backup' from generate_series(1, 1000)"

as_pg "$PG_BIN/pg_basebackup" -h 127.0.0.1 -p "$PORT" -U postgres -D "$DIR/base" -X stream -c fast
psql_at "$PORT" "insert into answers (phase) select 'after base backup' from generate_series(1, 500)"
sleep 1
TARGET=$(psql_at "$PORT" 'select clock_timestamp()')
sleep 1
psql_at "$PORT" "insert into answers (phase) select 'after the target' from generate_series(1, 200)"
# The WAL of the last transactions reaches the archive when its segment is full or switched.
psql_at "$PORT" 'select pg_switch_wal()' >/dev/null
for _ in $(seq 1 50); do
  [ "$(psql_at "$PORT" 'select archived_count > 0 and last_failed_wal is null from pg_stat_archiver')" = t ] && break
  sleep 0.2
done
sleep 1
as_pg "$PG_BIN/pg_ctl" -D "$DIR/data" -m fast stop >/dev/null

# Restore: the base backup, the archived WAL replayed up to the target time, then promoted.
as_pg cp -a "$DIR/base" "$DIR/restored"
cat >>"$DIR/restored/postgresql.conf" <<EOF
port = $RESTORED_PORT
archive_mode = off
restore_command = 'cp $DIR/wal/%f %p'
recovery_target_time = '$TARGET'
recovery_target_action = 'promote'
EOF
as_pg touch "$DIR/restored/recovery.signal"
as_pg "$PG_BIN/pg_ctl" -D "$DIR/restored" -l "$DIR/restored.log" -w -t 120 start >/dev/null
for _ in $(seq 1 100); do
  [ "$(psql_at "$RESTORED_PORT" 'select pg_is_in_recovery()')" = f ] && break
  sleep 0.2
done
COUNTS=$(psql_at "$RESTORED_PORT" "select string_agg(phase || ': ' || n, ', ' order by phase) from (select phase, count(*) n from answers group by phase) s")
echo "recovery target: $TARGET"
echo "restored: $COUNTS"
if [ "$COUNTS" = "after base backup: 500, before base backup: 1000" ]; then
  echo "PITR drill passed: every row committed before the target is back, none after it"
else
  echo "PITR drill FAILED"
  tail -20 "$DIR/restored.log"
  exit 1
fi
