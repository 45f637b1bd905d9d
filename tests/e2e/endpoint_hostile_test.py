#!/usr/bin/env python3
"""`lpx endpoint` under hostile input, over raw sockets: malformed and
truncated JSON, unknown fields, wrong types, deep nesting, invalid UTF-8, an
oversized body, too many headers, a long header line, a long URI, wrong methods, unknown paths,
requests cut off in their headers or body, garbage instead of HTTP. Every
answer must be a 4xx with an OpenAI-style error object (the library's own
refusals included) and the server must still answer /health after each, and
exit 0 on SIGTERM. Then --threads 1: a connection beyond the one served and
the one waiting gets 503 at once. A few seconds.

usage: endpoint_hostile_test.py LPX"""
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time

lpx = sys.argv[1]
tmp = tempfile.mkdtemp()
failures = 0
passed = 0


def check(name, cond, detail=""):
    global failures, passed
    if cond:
        passed += 1
        print("ok  ", name)
    else:
        failures += 1
        print("FAIL", name, detail)


def start(extra):
    """Starts lpx endpoint with `extra` options: (process, port)."""
    log = open(os.path.join(tmp, "endpoint.log"), "w+")
    proc = subprocess.Popen(
        [lpx, "endpoint", "--model", "tiny-llama", "--chip", "lpx3", "--context",
         "64", "--cache-dir", os.path.join(tmp, "cache"), "--listen",
         "127.0.0.1:0"] + extra, stdout=log, stderr=subprocess.STDOUT)
    for _ in range(200):
        log.seek(0)
        m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", log.read())
        if m:
            return proc, int(m.group(1))
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    log.seek(0)
    print("FAIL lpx endpoint did not start:", log.read()[:300])
    proc.kill()
    sys.exit(1)


server, port = start(["--time-scale", "10", "--max-body", "65536"])


def exchange(raw, close_after_send=False, timeout=5):
    """Sends raw bytes, returns (status, headers, body) or None if closed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    try:
        s.sendall(raw)
        if close_after_send:
            s.shutdown(socket.SHUT_WR)
        data = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (ConnectionResetError, socket.timeout):
                break
            if not chunk:
                break
            data += chunk
            head, sep, rest = data.partition(b"\r\n\r\n")
            if sep:
                m = re.search(rb"(?i)content-length: *(\d+)", head)
                if m and len(rest) >= int(m.group(1)):
                    break
    finally:
        s.close()
    if not data:
        return None
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    return status, lines[1:], body


def request(method, path, body=b"", headers=(), length=None):
    if isinstance(body, str):
        body = body.encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
    for h in headers:
        head += h + "\r\n"
    head += f"Content-Length: {len(body) if length is None else length}\r\n\r\n"
    return exchange(head.encode() + body)


def alive():
    r = request("GET", "/health")
    return r is not None and r[0] == 200


def expect_error(name, result, status, param=None):
    ok = result is not None and result[0] == status
    detail = "" if result is None else f"status {result[0]} {result[2][:200]!r}"
    if ok:
        try:
            err = json.loads(result[2])["error"]
            ok = isinstance(err["message"], str) and err["message"] and \
                "type" in err and "param" in err and "code" in err
            if param is not None:
                ok = ok and err["param"] == param
        except (ValueError, KeyError, TypeError):
            ok = False
    check(f"{name}: {status} with an error object", ok, detail)
    check(f"{name}: the server still answers", alive())


chat = "/v1/chat/completions"
good = {"model": "tiny-llama", "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 2}


def with_(**kw):
    b = dict(good)
    b.update(kw)
    return json.dumps(b)


expect_error("malformed JSON", request("POST", chat, '{"model": "tiny-llama",'), 400)
expect_error("not an object", request("POST", chat, '[1, 2]'), 400)
expect_error("empty body", request("POST", chat, ''), 400)
expect_error("unknown field", request("POST", chat, with_(temperture=1)), 400, "temperture")
expect_error("unknown message field", request(
    "POST", chat, with_(messages=[{"role": "user", "content": "x", "mood": 1}])), 400,
    "messages[0].mood")
expect_error("max_tokens a string", request("POST", chat, with_(max_tokens="5")), 400, "max_tokens")
expect_error("max_tokens 0", request("POST", chat, with_(max_tokens=0)), 400, "max_tokens")
expect_error("stream a string", request("POST", chat, with_(stream="yes")), 400, "stream")
expect_error("messages an object", request("POST", chat, with_(messages={"a": 1})), 400, "messages")
expect_error("no messages", request("POST", chat, '{"model": "tiny-llama"}'), 400, "messages")
expect_error("a bad role", request(
    "POST", chat, with_(messages=[{"role": "wizard", "content": "x"}])), 400)
expect_error("content a number", request(
    "POST", chat, with_(messages=[{"role": "user", "content": 5}])), 400)
expect_error("n 2", request("POST", chat, with_(n=2)), 400, "n")
expect_error("no model", request("POST", "/v1/completions", '{"prompt": "x"}'), 400, "model")
expect_error("prompt a list of numbers", request(
    "POST", "/v1/completions", '{"model": "tiny-llama", "prompt": [1, 2]}'), 400, "prompt")
expect_error("a prompt longer than the context", request(
    "POST", "/v1/completions", json.dumps({"model": "tiny-llama", "prompt": "x" * 100})), 400)
expect_error("deep nesting", request("POST", chat, "[" * 30000 + "]" * 30000), 400)
expect_error("invalid UTF-8", request(
    "POST", "/v1/completions", b'{"model": "tiny-llama", "prompt": "\xff\xfe"}'), 400)
expect_error("a body over --max-body", request("POST", chat, "x" * 70000), 413)
expect_error("100 headers", request(
    "POST", chat, with_(), headers=[f"X-H{i}: {i}" for i in range(100)]), 431)
expect_error("a 10,000-byte header line", request(
    "GET", "/health", headers=["X-Big: " + "a" * 10000]), 400)
expect_error("a 10,000-byte URI", request("GET", "/health?" + "a" * 10000), 414)
expect_error("GET on completions", request("GET", chat), 405)
expect_error("DELETE on models", request("DELETE", "/v1/models"), 405)
expect_error("an unknown path", request("GET", "/v1/engines"), 404)

# Cut off: headers half sent, a body shorter than its Content-Length,
# garbage instead of a request line. None may crash the server.
r = exchange(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Le",
             close_after_send=True)
check("headers cut off: no crash", alive())
r = exchange(b"POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n"
             b'{"model": "tiny', close_after_send=True)
check("body cut off: no 200", r is None or r[0] >= 400, str(r and r[0]))
check("body cut off: no crash", alive())
r = exchange(b"\x00\x01\x02garbage\r\n\r\n", close_after_send=True)
check("garbage: 400 or closed", r is None or r[0] == 400, str(r and r[0]))
check("garbage: no crash", alive())
# A streamed request whose client leaves after the first chunk.
s = socket.create_connection(("127.0.0.1", port))
body = with_(stream=True, max_tokens=20).encode()
s.sendall(b"POST " + chat.encode() + b" HTTP/1.1\r\nHost: x\r\nContent-Length: " +
          str(len(body)).encode() + b"\r\n\r\n" + body)
s.recv(100)
s.close()
check("a client leaving mid-stream: no crash", alive())
r = request("POST", chat, with_())
check("a good request still completes", r is not None and r[0] == 200 and
      json.loads(r[2])["choices"][0]["finish_reason"] == "length")



def stop(proc, name):
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = None
    check(f"{name}SIGTERM: exit 0", code == 0, str(code))


stop(server, "")

# Bounded connections: --threads 1 serves one connection and keeps one
# place; a third connection meanwhile gets 503 at once, the waiting one is
# served when the first leaves. Slowed down (a 20-token stream takes about
# half a second) so the first is still streaming.
server, port = start(["--threads", "1", "--time-scale", "0.001"])
a = socket.create_connection(("127.0.0.1", port))
body = with_(stream=True, max_tokens=20).encode()
a.sendall(b"POST " + chat.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
          b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
first = a.recv(100)
b = socket.create_connection(("127.0.0.1", port))
body = with_(max_tokens=1).encode()
b.sendall(b"POST " + chat.encode() + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
          b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
time.sleep(0.1)
t0 = time.monotonic()
r = request("GET", "/health")
check("a connection beyond --threads and its places: 503 at once",
      r is not None and r[0] == 503 and time.monotonic() - t0 < 0.3 and
      "error" in json.loads(r[2]), str(r and r[0]))
rest = b""
while chunk := a.recv(65536):
    rest += chunk
a.close()
check("the first connection's stream completed", first.startswith(b"HTTP/1.1 200") and
      b"data: [DONE]" in rest)
got = b""
while chunk := b.recv(65536):
    got += chunk
b.close()
check("the waiting connection was served after it", got.startswith(b"HTTP/1.1 200"))
stop(server, "--threads 1: ")
print(f"{passed} passed, {failures} failed")
sys.exit(1 if failures or not passed else 0)
