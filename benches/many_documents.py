#!/usr/bin/env python3
"""The language server's peak memory with many open documents (BENCHMARKS.md, "The
server's memory across documents").

Starts `cmg lsp`, opens COUNT documents of the same text (a 17 KB graph of 1 400 random
edges among 2 700 node ids), waits until each has been published, asks one hover of
the first (evicted) document, and prints the process's peak resident size (VmHWM).

    python3 benches/many_documents.py COUNT SETTINGS_JSON PATH_TO_CMG
    python3 benches/many_documents.py 1000 '{"solver":{"maxNodes":0}}' target/release/cmg
"""

import json
import random
import subprocess
import sys
import threading
import time


def main():
    count, settings, binary = int(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
    server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(message):
        body = json.dumps(message).encode()
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    published, done = set(), threading.Event()

    def read():
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = server.stdout.read(1)
                if not byte:
                    return
                header += byte
            length = int(header.split(b"Content-Length: ")[1].split(b"\r\n")[0])
            message = json.loads(server.stdout.read(length))
            if message.get("method") == "textDocument/publishDiagnostics":
                published.add(message["params"]["uri"])
                if len(published) >= count:
                    done.set()
            if message.get("id") == 2:
                done.set()

    threading.Thread(target=read, daemon=True).start()
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": None, "capabilities": {},
        "initializationOptions": settings}})
    time.sleep(0.5)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    rng = random.Random(1)
    text = "0 -- 1 -- 2\n" + "".join(
        f"{rng.randrange(2700)} -- {rng.randrange(2700)}\n" for _ in range(1400))
    start = time.time()
    for i in range(count):
        send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": f"file:///d{i}.cmg", "languageId": "cmg", "version": 1, "text": text}}})
    done.wait(3600)
    elapsed = time.time() - start
    done.clear()
    send({"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {
        "textDocument": {"uri": "file:///d0.cmg"}, "position": {"line": 0, "character": 0}}})
    answered = done.wait(60)
    status = open(f"/proc/{server.pid}/status").read()
    peak = next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM"))
    load = open("/proc/loadavg").read().split()[:3]
    print(f"{count} documents of {len(text)} bytes, settings {json.dumps(settings)}: "
          f"{len(published)} published in {elapsed:.1f} s, hover answered: {answered}, "
          f"VmHWM {int(peak) // 1024} MiB, load {' '.join(load)}")
    server.kill()


main()
