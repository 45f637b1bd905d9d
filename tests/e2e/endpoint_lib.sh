# Shared by the endpoint tests (source after common.sh): start_endpoint
# starts `lpx endpoint` on tiny-llama (lpx3, context 64, its table cached in
# $tmp/cache) on a free loopback port with the extra options given, waits for
# its listening line and sets $port and $pid; stop_endpoint sends SIGTERM and
# waits, setting $status. The server is killed on exit if still running.
endpoint_core=(--model tiny-llama --chip lpx3 --context 64 --cache-dir "$tmp/cache")
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
start_endpoint() {
  "$lpx" endpoint "${endpoint_core[@]}" --listen 127.0.0.1:0 "$@" \
    >"$tmp/endpoint.log" 2>&1 &
  pid=$!
  for _ in $(seq 200); do
    port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$tmp/endpoint.log" |
           grep -o '[0-9]*$')
    [ -n "$port" ] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  die "lpx endpoint did not start: $(head -3 "$tmp/endpoint.log")"
}
stop_endpoint() {
  kill -TERM "$pid"
  wait "$pid"
  status=$?
  pid=""
}
