#!/usr/bin/env bash
# `lpx endpoint` driven with curl: a streamed chat completion (SSE chunks,
# finish_reason, usage, [DONE]), a whole completion whose text is the tokens
# `lpx decode --run` generates greedily for the same prompt ids, /v1/models,
# /health, the simulated-response marks, 429 with Retry-After when the
# admission queue has no place, bad options in one line with exit 2, and
# SIGTERM ending the server with exit 0 after its open stream finished.
# A few seconds.
source "$(dirname "$0")/common.sh" "$1"
source "$(dirname "$0")/endpoint_lib.sh"
python=/usr/bin/python3
command -v curl >/dev/null || { echo "no curl"; exit 77; }

start_endpoint --time-scale 0.01
url="http://127.0.0.1:$port"

# A streamed chat completion of 6 tokens.
curl -sN -D "$tmp/stream.h" "$url/v1/chat/completions" -d '{"model": "tiny-llama",
  "messages": [{"role": "user", "content": "Hello"}], "max_tokens": 6,
  "stream": true, "stream_options": {"include_usage": true}}' >"$tmp/stream.txt"
check "stream: status 200, text/event-stream" \
  "grep -q '^HTTP/1.1 200' '$tmp/stream.h' && grep -qi '^Content-Type: text/event-stream' '$tmp/stream.h'"
check "stream: X-Lpx-Simulated header" "grep -qi '^X-Lpx-Simulated: true' '$tmp/stream.h'"
check "stream: 6 token chunks, a finish chunk, usage, [DONE]" "$python - '$tmp/stream.txt' <<'PY'
import json, sys
events = [e for e in open(sys.argv[1]).read().split('\n\n') if e]
assert all(e.startswith('data: ') for e in events), events
assert events[-1] == 'data: [DONE]', events[-1]
chunks = [json.loads(e[6:]) for e in events[:-1]]
assert all(c['system_fingerprint'] == 'lpx-simulated' for c in chunks)
assert all(c['object'] == 'chat.completion.chunk' for c in chunks)
tokens = [c for c in chunks if c['choices'] and 'content' in c['choices'][0]['delta']]
assert len(tokens) == 6, len(tokens)
assert tokens[0]['choices'][0]['delta']['role'] == 'assistant'
assert chunks[6]['choices'][0]['finish_reason'] == 'length'
# 'user: Hello\n' is 12 bytes: 12 prompt tokens.
assert chunks[7]['usage'] == {'prompt_tokens': 12, 'completion_tokens': 6, 'total_tokens': 18}, chunks[7]
assert len({c['id'] for c in chunks}) == 1
PY"

# A whole completion: the text is the greedy tokens of the CPU runtime.
curl -s -D "$tmp/whole.h" "$url/v1/completions" \
  -d '{"model": "tiny-llama", "prompt": "Hello", "max_tokens": 8}' >"$tmp/whole.json"
"$lpx" decode --run --model tiny-llama --chip lpx3 --context 64 \
  --prompt-ids 72,101,108,108,111 --tokens 8 >"$tmp/run.txt" ||
  fail "lpx decode --run"
check "whole: the text is lpx decode --run's greedy ids, read as Latin-1" "$python - '$tmp/whole.json' '$tmp/run.txt' <<'PY'
import json, sys
body = json.load(open(sys.argv[1]))
ids = [int(i) for i in open(sys.argv[2]).read().split('\n')[1].split(',')]
choice = body['choices'][0]
assert choice['text'] == ''.join(chr(i) for i in ids), (choice['text'], ids)
assert choice['finish_reason'] == 'length'
assert body['usage'] == {'prompt_tokens': 5, 'completion_tokens': 8, 'total_tokens': 13}
assert body['object'] == 'text_completion' and body['system_fingerprint'] == 'lpx-simulated'
PY"
check "whole: X-Lpx-Content: greedy" "grep -qi '^X-Lpx-Content: greedy' '$tmp/whole.h'"

# Without max_tokens: --default-max-tokens (16) tokens, finish_reason stop.
curl -s "$url/v1/chat/completions" -d '{"model": "tiny-llama",
  "messages": [{"role": "user", "content": "Hi"}]}' >"$tmp/default.json"
check "no max_tokens: 16 tokens, finish_reason stop" "$python -c '
import json; b = json.load(open(\"$tmp/default.json\"))
assert b[\"choices\"][0][\"finish_reason\"] == \"stop\" and b[\"usage\"][\"completion_tokens\"] == 16
assert b[\"choices\"][0][\"message\"][\"role\"] == \"assistant\"'"

curl -s "$url/v1/models" >"$tmp/models.json"
check "/v1/models lists tiny-llama" "$python -c '
import json; b = json.load(open(\"$tmp/models.json\"))
assert b[\"object\"] == \"list\" and [m[\"id\"] for m in b[\"data\"]] == [\"tiny-llama\"]'"
curl -s "$url/health" >"$tmp/health.json"
check "/health is ok" "$python -c '
import json; b = json.load(open(\"$tmp/health.json\"))
assert b[\"status\"] == \"ok\" and b[\"content\"] == \"greedy\" and b[\"time_scale\"] == 0.01'"
code=$(curl -s -o "$tmp/wrong.json" -w '%{http_code}' "$url/v1/chat/completions" \
  -d '{"model": "gpt-4", "messages": [{"role": "user", "content": "x"}]}')
check "another model's name: 404 model_not_found" \
  "[ $code = 404 ] && grep -q model_not_found '$tmp/wrong.json'"

# SIGTERM while a stream is open: the stream finishes, the server exits 0.
curl -sN "$url/v1/completions" -d '{"model": "tiny-llama", "prompt": "Hello",
  "max_tokens": 16, "stream": true}' >"$tmp/late.txt" &
client=$!
for _ in $(seq 100); do [ -s "$tmp/late.txt" ] && break; sleep 0.05; done
stop_endpoint
wait "$client"
check "SIGTERM: exit 0" "[ $status = 0 ]"
check "SIGTERM: the open stream was under way, and ended with 16 tokens and [DONE]" \
  "[ \$(grep -c '\"finish_reason\":null' '$tmp/late.txt') = 16 ] && grep -q '^data: \[DONE\]' '$tmp/late.txt'"

# A queue of no places and batches of 1, slowed down a thousandfold (a
# request of 16 tokens takes about 0.4 s of wall time): the second request,
# sent while the first runs, is refused with 429 and Retry-After.
start_endpoint --time-scale 0.001 --queue 0 --max-batch 1
url="http://127.0.0.1:$port"
curl -s "$url/v1/completions" -d '{"model": "tiny-llama", "prompt": "Hello",
  "max_tokens": 16}' >"$tmp/first.json" &
client=$!
sleep 0.1
code=$(curl -s -D "$tmp/429.h" -o "$tmp/429.json" -w '%{http_code}' \
  "$url/v1/completions" -d '{"model": "tiny-llama", "prompt": "Hello", "max_tokens": 4}')
wait "$client"
check "full queue: 429" "[ $code = 429 ]"
check "429: Retry-After and an error object" \
  "grep -qi '^Retry-After: 1' '$tmp/429.h' && grep -q rate_limit_exceeded '$tmp/429.json'"
check "the first request completed" "grep -q '\"finish_reason\":\"length\"' '$tmp/first.json'"
stop_endpoint

# Bad options: one line, exit 2.
for bad in "--time-scale 0" "--time-scale x" "--listen nowhere" "--listen 127.0.0.1:70000" \
           "--max-batch 0" "--policy fifo" "--content poem" "--queue -2"; do
  # shellcheck disable=SC2086
  "$lpx" endpoint "${endpoint_core[@]}" $bad >"$tmp/bad.out" 2>"$tmp/bad.err"
  code=$?
  check "bad option '$bad': exit 2, one line" \
    "[ $code = 2 ] && [ \$(wc -l <'$tmp/bad.err') = 1 ] && [ ! -s '$tmp/bad.out' ]"
done
finish
