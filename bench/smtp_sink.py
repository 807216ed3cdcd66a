#!/usr/bin/env python3
"""A local SMTP sink for the benchmarks (issue 40 item 4): takes every mail, keeps it.

    smtp_sink.py PORT DIR

Listens on 127.0.0.1:PORT (loopback only) and speaks enough of RFC 5321 for lettre's SMTP
transport (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no AUTH). Every message
is written to DIR/<n>.eml (a temp name, then renamed, so a reader never sees half of one),
with an `X-Sink-Rcpt:` line naming its envelope recipients first. The number of messages is
the number of .eml files. Runs until SIGTERM or SIGINT.
"""
import asyncio
import itertools
import os
import signal
import sys

counter = itertools.count(1)


async def session(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, folder: str) -> None:
    def reply(line: str) -> None:
        writer.write(line.encode() + b"\r\n")

    rcpts: list[str] = []
    reply("220 localhost bench sink")
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            verb = line[:4].decode("ascii", "replace").upper()
            if verb == "EHLO":
                reply("250-localhost\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 SIZE 104857600")
            elif verb == "HELO":
                reply("250 localhost")
            elif verb == "MAIL":
                rcpts = []
                reply("250 2.1.0 OK")
            elif verb == "RCPT":
                rcpts.append(line.decode("utf-8", "replace").split(":", 1)[1].strip().strip("<>"))
                reply("250 2.1.5 OK")
            elif verb == "DATA":
                reply("354 End data with <CR><LF>.<CR><LF>")
                await writer.drain()
                chunks = []
                while True:
                    data = await reader.readline()
                    if not data or data in (b".\r\n", b".\n"):
                        break
                    chunks.append(data[1:] if data.startswith(b"..") else data)
                n = next(counter)
                tmp = os.path.join(folder, f".{n}.tmp")
                with open(tmp, "wb") as f:
                    f.write(("X-Sink-Rcpt: " + ", ".join(rcpts) + "\r\n").encode())
                    f.writelines(chunks)
                os.rename(tmp, os.path.join(folder, f"{n}.eml"))
                reply("250 2.0.0 Queued")
            elif verb == "RSET":
                rcpts = []
                reply("250 2.0.0 OK")
            elif verb == "NOOP":
                reply("250 2.0.0 OK")
            elif verb == "QUIT":
                reply("221 2.0.0 Bye")
                await writer.drain()
                break
            else:
                reply("502 5.5.2 Command not implemented")
            await writer.drain()
    except (ConnectionError, asyncio.IncompleteReadError):
        pass
    finally:
        writer.close()


async def main() -> None:
    port, folder = int(sys.argv[1]), sys.argv[2]
    os.makedirs(folder, exist_ok=True)
    server = await asyncio.start_server(lambda r, w: session(r, w, folder), "127.0.0.1", port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    async with server:
        await stop.wait()


if __name__ == "__main__":
    asyncio.run(main())
