#!/usr/bin/env python3
"""A scripted upstream for Rollboard's sources: well-behaved and hostile answers over HTTP and HTTPS, stdlib only.

    python3 upstream.py --port P [--host H] [--tls-port Q --tls-dir DIR]

With --tls-dir it makes a self-signed certificate for 127.0.0.1 there (cert.pem, key.pem; openssl) that no system
store trusts. Paths:

    /json            {"data":{"visitors":[17,42.5]},"name":"wall","flag":true}
    /value           {"value":V}: V set by POST /set?v=V (starts at 1), or 503 after POST /fail?on=1 (until
                     /fail?on=0); counts its requests
    /metrics         Prometheus text: fixture_value V (the value /set sets)
    /board           {"data":[{"login":"ada","count":V},{"login":"bob","count":2}]}: a leaderboard's items (V as /set sets)
    /count           how many times /value was asked, and its last Authorization header: {"count":N,"authorization":…}
    /gzip            the /json body gzip-encoded, 406 unless the request accepts gzip
    /status/N        status N with a small JSON body
    /endless         200, chunked, megabytes of digits that never end
    /big             200, a 50 MB body with its Content-Length
    /trickle         200, one byte a second, for an hour
    /hang            200 and headers, then nothing
    /loop            302 to itself
    /to-file         302 to file:///etc/passwd
    /invalid-json    {"value": 3,
    /invalid-utf8    {"value": "\\xff\\xfe"}
    /echo-headers    the request's headers as a JSON object
    /redirect?to=URL 302 to URL (percent-encoded); /redirect307?to=URL the same with 307
    /seen            every request so far but /seen's own, as [{"method","path","headers"}] (lower-case names)

Asked as an HTTP proxy (an absolute URL in the request line), it serves that URL's path.
"""

import argparse
import gzip
import http.server
import json
import os
import ssl
import subprocess
import threading
import time
import urllib.parse

JSON_BODY = json.dumps({"data": {"visitors": [17, 42.5]}, "name": "wall", "flag": True}).encode()


class State:
    lock = threading.Lock()
    value = 1.0
    count = 0
    authorization = None
    failing = False
    seen = []


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send_body(self, status, body, content_type="application/json", extra=()):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in extra:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        if self.path.startswith("/set?v="):
            with State.lock:
                State.value = float(self.path.split("=", 1)[1])
            self.send_body(200, b"{}")
        elif self.path.startswith("/fail?on="):
            with State.lock:
                State.failing = self.path.endswith("=1")
            self.send_body(200, b"{}")
        else:
            self.do_GET()

    def do_GET(self):
        try:
            self.route()
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError):
            pass

    def route(self):
        path = self.path
        if path != "/seen":
            with State.lock:
                State.seen.append({"method": self.command, "path": path,
                                   "headers": {k.lower(): v for k, v in self.headers.items()}})
        # A request through this server as an HTTP proxy names the whole URL: serve its path.
        if path.startswith("http://"):
            path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else "/"
        if path == "/json":
            self.send_body(200, JSON_BODY)
        elif path.split("?", 1)[0] == "/value":
            with State.lock:
                State.count += 1
                State.authorization = self.headers.get("Authorization")
                value = State.value
                failing = State.failing
            if failing:
                self.send_body(503, b'{"error":"failing as asked"}')
            else:
                self.send_body(200, json.dumps({"value": value}).encode())
        elif path == "/board":
            with State.lock:
                value = State.value
            self.send_body(200, json.dumps({"data": [{"login": "ada", "count": value}, {"login": "bob", "count": 2}]})
                           .encode())
        elif path == "/metrics":
            with State.lock:
                value = State.value
            self.send_body(200, f"# TYPE fixture_value gauge\nfixture_value {value}\n".encode(),
                           content_type="text/plain; version=0.0.4")
        elif path == "/count":
            with State.lock:
                answer = {"count": State.count, "authorization": State.authorization}
            self.send_body(200, json.dumps(answer).encode())
        elif path == "/gzip":
            if "gzip" not in self.headers.get("Accept-Encoding", ""):
                self.send_body(406, b'{"error":"gzip only"}')
            else:
                self.send_body(200, gzip.compress(JSON_BODY), extra=[("Content-Encoding", "gzip")])
        elif path.startswith("/status/"):
            self.send_body(int(path.split("/")[2]), b'{"error":"as asked"}')
        elif path == "/endless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"1" * 65536
            framed = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
            for _ in range(100_000):
                self.wfile.write(framed)
        elif path == "/big":
            size = 50 * 1024 * 1024
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            chunk = b"9" * 65536
            for _ in range(size // len(chunk)):
                self.wfile.write(chunk)
        elif path == "/trickle":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "3600")
            self.end_headers()
            for _ in range(3600):
                self.wfile.write(b" ")
                self.wfile.flush()
                time.sleep(1)
        elif path == "/hang":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.flush()
            time.sleep(3600)
        elif path == "/loop":
            self.send_body(302, b"", extra=[("Location", "/loop")])
        elif path == "/to-file":
            self.send_body(302, b"", extra=[("Location", "file:///etc/passwd")])
        elif path == "/invalid-json":
            self.send_body(200, b'{"value": 3,')
        elif path == "/invalid-utf8":
            self.send_body(200, b'{"value": "\xff\xfe"}')
        elif path == "/seen":
            with State.lock:
                answer = list(State.seen)
            self.send_body(200, json.dumps(answer).encode())
        elif path.startswith("/redirect?to=") or path.startswith("/redirect307?to="):
            status = 307 if path.startswith("/redirect307") else 302
            target = urllib.parse.unquote(path.split("?to=", 1)[1])
            self.send_body(status, b"", extra=[("Location", target)])
        elif path == "/echo-headers":
            self.send_body(200, json.dumps({k.lower(): v for k, v in self.headers.items()}).encode())
        else:
            self.send_body(404, b'{"error":"no such fixture"}')


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_certificate(folder):
    os.makedirs(folder, exist_ok=True)
    cert, key = os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem")
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
         "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return cert, key


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1", help="a loopback address to listen on (127.0.0.2 is another host)")
    parser.add_argument("--tls-port", type=int)
    parser.add_argument("--tls-dir")
    arguments = parser.parse_args()
    assert arguments.host.startswith("127."), "loopback only"
    servers = [Server((arguments.host, arguments.port), Handler)]
    if arguments.tls_port:
        cert, key = make_certificate(arguments.tls_dir)
        secure = Server(("127.0.0.1", arguments.tls_port), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(cert, key)
        secure.socket = context.wrap_socket(secure.socket, server_side=True)
        servers.append(secure)
    for server in servers[1:]:
        threading.Thread(target=server.serve_forever, daemon=True).start()
    servers[0].serve_forever()


if __name__ == "__main__":
    main()
