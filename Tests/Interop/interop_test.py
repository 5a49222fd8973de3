#!/usr/bin/env python3
"""Interop checks against the RollboardNet EchoServer over wss://, with Python's websockets (a strict
RFC 6455/7692 client we did not write) and the openssl command line.

usage: interop_test.py PORT CERTIFICATE_PEM
(the server runs with --max-message-bytes 65536 --client-context-takeover)
Prints one line per check and 'N passed, N failed'; exits non-zero on any failure.
"""
import asyncio
import os
import ssl
import subprocess
import sys

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory

PORT = int(sys.argv[1])
CERTIFICATE = sys.argv[2]
URL = f"wss://localhost:{PORT}/echo"
LIMIT = 65536
RESULTS = []


def tls_context():
    context = ssl.create_default_context(cafile=CERTIFICATE)
    context.check_hostname = True
    return context


def check(name, condition, detail=""):
    RESULTS.append(bool(condition))
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else f" ({detail})"))


async def echo_round_trips(ws):
    texts = ["hello", "héllo wörld ✓", '{"type":"frame","seq":1,"tiles":{"revenue":{"digits":[1,2,3.25]}}}' * 50]
    for text in texts:
        await ws.send(text)
        if await ws.recv() != text:
            return False
    payload = bytes(range(256)) * 40
    await ws.send(payload)
    return await ws.recv() == payload


async def echo_case(name, extensions, expect_header):
    try:
        async with connect(URL, ssl=tls_context(), extensions=extensions, compression=None if extensions is None else "deflate") as ws:
            header = ws.response.headers.get("Sec-WebSocket-Extensions", "")
            check(f"{name}: negotiated '{header}'", expect_header(header), header)
            ok = await echo_round_trips(ws)
            check(f"{name}: text and binary echo", ok)
            await ws.close()
            check(f"{name}: clean close 1000", ws.close_code == 1000, ws.close_code)
    except Exception as error:  # noqa: BLE001 - any failure is a failed check
        check(f"{name}: connection", False, repr(error))


async def close_code_case(name, send, expected):
    try:
        async with connect(URL, ssl=tls_context(), compression=None, max_size=None) as ws:
            await send(ws)
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            except ConnectionClosed:
                pass
            check(f"{name}: server closes with {expected}", ws.close_code == expected, ws.close_code)
    except Exception as error:  # noqa: BLE001
        check(f"{name}: connection", False, repr(error))


async def send_invalid_utf8(ws):
    async with ws.send_context():
        ws.protocol.send_text(b"valid then \xc3\x28 invalid")


async def send_oversized(ws):
    await ws.send("x" * (LIMIT + 1))


async def main():
    await echo_case("no deflate", None, lambda h: h == "")
    await echo_case(
        "deflate with client context takeover",
        [ClientPerMessageDeflateFactory()],
        lambda h: h.startswith("permessage-deflate") and "client_no_context_takeover" not in h,
    )
    await echo_case(
        "deflate without context takeover",
        [ClientPerMessageDeflateFactory(server_no_context_takeover=True, client_no_context_takeover=True)],
        lambda h: "server_no_context_takeover" in h and "client_no_context_takeover" in h,
    )
    await echo_case(
        "deflate with small windows",
        [ClientPerMessageDeflateFactory(server_max_window_bits=10, client_max_window_bits=10)],
        lambda h: "server_max_window_bits=10" in h,
    )
    await close_code_case("invalid UTF-8", send_invalid_utf8, 1007)
    await close_code_case("message over the limit", send_oversized, 1009)


def s_client(*arguments):
    process = subprocess.run(
        ["openssl", "s_client", "-connect", f"127.0.0.1:{PORT}", "-servername", "localhost", *arguments],
        input=b"", capture_output=True, timeout=20,
    )
    return process.returncode, (process.stdout + process.stderr).decode(errors="replace")


def openssl_checks():
    code, output = s_client("-alpn", "http/1.1")
    check("openssl s_client: TLS 1.3 negotiated", code == 0 and "TLSv1.3" in output, output[-400:])
    check("openssl s_client: ALPN http/1.1", "ALPN protocol: http/1.1" in output, output[-400:])
    code, output = s_client("-tls1_2")
    check(
        "openssl s_client -tls1_2: ECDHE with an AEAD cipher",
        code == 0 and "ECDHE" in output and ("GCM" in output or "CHACHA20" in output),
        output[-400:],
    )
    code, output = s_client("-tls1_1", "-cipher", "DEFAULT:@SECLEVEL=0")
    check("openssl s_client -tls1_1: refused", code != 0 and ("Cipher is (NONE)" in output or "alert" in output), output[-400:])


if __name__ == "__main__":
    asyncio.run(main())
    openssl_checks()
    failed = RESULTS.count(False)
    print(f"interop: {len(RESULTS) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)
