#!/usr/bin/env python3
"""The language server's memory with many dense documents open, and after they close
(BENCHMARKS.md, "Dense documents: the budget holds, and memory goes back").

Starts `cmg lsp`, opens COUNT copies of a 24 KB file that declares 3 million edges in
one group product (`0 -- 1 -- 2` and `{3 … 699} -- {700 … 4989}`), waits until each is
published, and reads the resident size at the peak (VmHWM) and once the copies are
open; then closes them all and reads it 3 s later, then opens one copy again and reads
it 3 s later.

    python3 benches/dense_documents.py PATH_TO_CMG COUNT [BUDGET_MIB]
    python3 benches/dense_documents.py target/release/cmg 48
"""

import json
import subprocess
import sys
import threading
import time


def main():
    binary, count = sys.argv[1], int(sys.argv[2])
    budget = int(sys.argv[3]) if len(sys.argv) > 3 else None
    settings = {"solver": {"maxMemoryMiB": budget}} if budget else {}
    text = (
        "0 -- 1 -- 2\n{"
        + " ".join(map(str, range(3, 700)))
        + "} -- {"
        + " ".join(map(str, range(700, 4990)))
        + "}\n"
    )
    server = subprocess.Popen([binary, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    lock = threading.Lock()
    published = set()

    def send(message):
        body = json.dumps(message).encode()
        with lock:
            server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            server.stdin.flush()

    def read():
        while True:
            length = None
            while True:
                line = server.stdout.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.startswith(b"Content-Length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(server.stdout.read(length))
            if "id" in message and "method" in message:
                answer = [settings] if message["method"] == "workspace/configuration" else None
                send({"jsonrpc": "2.0", "id": message["id"], "result": answer})
            elif message.get("method") == "textDocument/publishDiagnostics":
                if message["params"].get("version") == 1:
                    published.add(message["params"]["uri"])

    def resident(key):
        with open(f"/proc/{server.pid}/status") as status:
            for line in status:
                if line.startswith(key):
                    return int(line.split()[1]) // 1024

    def notify(method, params):
        send({"jsonrpc": "2.0", "method": method, "params": params})

    def open_copy(uri):
        document = {"uri": uri, "languageId": "cmg", "version": 1, "text": text}
        notify("textDocument/didOpen", {"textDocument": document})

    threading.Thread(target=read, daemon=True).start()
    initialize = {"processId": None, "rootUri": None, "initializationOptions": settings,
                  "capabilities": {"workspace": {"configuration": True}}}
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": initialize})
    notify("initialized", {})
    uris = [f"file:///dense/copy{i}.cmg" for i in range(count)]
    start = time.time()
    for uri in uris:
        open_copy(uri)
    while len(published) < count and time.time() - start < 300:
        time.sleep(0.1)
    took = time.time() - start
    time.sleep(1)
    peak, opened = resident("VmHWM"), resident("VmRSS")
    for uri in uris:
        notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    time.sleep(3)
    closed = resident("VmRSS")
    open_copy(uris[0])
    time.sleep(3)
    again = resident("VmRSS")
    print(f"{count} copies, budget {budget or 768} MiB: {len(published)} published in "
          f"{took:.1f} s; peak {peak} MiB, {opened} MiB open, {closed} MiB closed, "
          f"{again} MiB with one open again")
    send({"jsonrpc": "2.0", "id": 1, "method": "shutdown"})
    notify("exit", None)
    server.wait(timeout=20)


if __name__ == "__main__":
    main()
