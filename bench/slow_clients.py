"""Targets of issue 11, measured against a running binary on loopback only.

slow   2,000 slow connections from 127.0.0.2 (a request line, then a byte now and then) against
       a server whose open-file limit is 1,024; meanwhile 127.0.0.3 asks /api/health every
       100 ms. Reports the share of those answered within 2 s, the server's peak resident
       memory, and how long its open files take to come back to normal after the slow
       clients leave.
crash  kill -9 during 24 concurrent uploads and a 150-message burst, restart, and count
       orphan papers, temp files, rows without their file, unsent mail, duplicated and
       truncated .eml files. Three rounds.

Run through bench/slow-clients.sh, which starts and stops the server by its pid.
"""

import asyncio
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

ORIGIN = "http://127.0.0.1:3000"


def start(binary, data, port, extra_env=None, nofile=None):
    env = dict(os.environ)
    env.update({
        "LISTEN_ADDR": f"127.0.0.1:{port}",
        "DATA_DIR": data,
        "DATABASE_URL": f"sqlite://{data}/conference.db",
        "PUBLIC_URL": ORIGIN,
        "RATE_LIMIT_PER_MINUTE": "1000000",
        "RUST_LOG": "warn",
    })
    env.pop("SMTP_URL", None)
    env.update(extra_env or {})

    def limit():
        if nofile:
            import resource
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

    return subprocess.Popen([binary, "serve"], env=env, preexec_fn=limit,
                            stdout=subprocess.DEVNULL, stderr=open(os.path.join(data, "server.log"), "ab"))


async def http(port, method, path, body=b"", content_type="application/json", source="127.0.0.1", chunk_pause=0.0):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: {ORIGIN}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()
    writer.write(head)
    for i in range(0, len(body), 32 * 1024):
        writer.write(body[i:i + 32 * 1024])
        await writer.drain()
        if chunk_pause:
            await asyncio.sleep(chunk_pause)
    data = await reader.read()
    writer.close()
    return int(data[9:12]) if len(data) >= 12 else 0


async def wait_ready(port, proc, patience=60):
    deadline = time.time() + patience
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit("server exited during start-up")
        try:
            if await asyncio.wait_for(http(port, "GET", "/api/health"), 2) == 200:
                return
        except (OSError, asyncio.TimeoutError):
            pass
        await asyncio.sleep(0.1)
    raise SystemExit("server did not answer")


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


async def slow(binary, data, port, count=2000, seconds=60):
    proc = start(binary, data, port, nofile=1024)
    try:
        await wait_ready(port, proc)
        baseline = open_files(proc.pid)
        stop = asyncio.Event()
        peak = {"rss": rss_kib(proc.pid), "fds": baseline}

        async def slow_client(i):
            while not stop.is_set():
                try:
                    _, w = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.2", 0))
                    w.write(b"POST /api/contact HTTP/1.1\r\nHost: x\r\n")
                    while not stop.is_set() and not w.is_closing():
                        await asyncio.sleep(5)
                        w.write(b"X")
                        await w.drain()
                except (OSError, ConnectionError):
                    await asyncio.sleep(0.5)
                finally:
                    try:
                        w.close()
                    except Exception:
                        pass

        latencies = []

        async def prober():
            while not stop.is_set():
                t = time.time()
                try:
                    status = await asyncio.wait_for(http(port, "GET", "/api/health", source="127.0.0.3"), 2)
                    latencies.append(time.time() - t if status == 200 else 99)
                except (OSError, asyncio.TimeoutError):
                    latencies.append(99)
                await asyncio.sleep(0.1)

        async def sampler():
            while not stop.is_set():
                peak["rss"] = max(peak["rss"], rss_kib(proc.pid))
                peak["fds"] = max(peak["fds"], open_files(proc.pid))
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(slow_client(i)) for i in range(count)]
        tasks += [asyncio.create_task(prober()), asyncio.create_task(sampler())]
        await asyncio.sleep(seconds)
        stop.set()
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        left = time.time()
        while open_files(proc.pid) > baseline + 2 and time.time() - left < 60:
            await asyncio.sleep(0.2)
        recovered = time.time() - left
        within = sum(1 for l in latencies if l <= 2) / max(1, len(latencies))
        print(json.dumps({
            "slow_connections": count, "seconds": seconds, "probes": len(latencies),
            "probes_within_2s": round(within * 100, 1), "peak_rss_mib": round(peak["rss"] / 1024, 1),
            "open_files_baseline": baseline, "open_files_peak": peak["fds"],
            "open_files_back_after_s": round(recovered, 1),
        }))
    finally:
        proc.kill()
        proc.wait()


def paper(n):
    b = "benchboundary"
    out = b""
    for name, value in [("paperType", "Full Paper"), ("authorName", "Ana Cruz"), ("number", "+639171234567"),
                        ("email", f"author{n}@example.org"), ("country", "Philippines"),
                        ("coAuthorName", "Ben Reyes"), ("paperTitle", f"Paper {n}"), ("department", "Engineering"),
                        ("universityOrganization", "University of Manila"), ("presentationType", "Oral"),
                        ("message", "Bench"), ("conferenceSource", "linkedin")]:
        out += f"--{b}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n".encode()
    out += (f"--{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"p{n}.pdf\"\r\n"
            "Content-Type: application/pdf\r\n\r\n").encode()
    out += b"%PDF-1.4\n%" + b"x" * (2 * 1024 * 1024) + b"\ntrailer\n<< >>\n%%EOF\n"
    out += f"\r\n--{b}--\r\n".encode()
    return f"multipart/form-data; boundary={b}", out


async def crash(binary, data, port, rounds=3):
    env = {"BODY_TIMEOUT_SECS": "2", "ORPHAN_GRACE_SECS": "0", "MAIL_LEASE_SECS": "5"}
    results = []
    for r in range(rounds):
        proc = start(binary, data, port, env)
        await wait_ready(port, proc)
        answered = [0]
        uploaded = [0]

        async def upload(n):
            ct, body = paper(r * 100 + n)
            try:
                # Staggered, so some are done and others under way at the kill.
                await http(port, "POST", "/api/paper-submission", body, ct, chunk_pause=0.005 * (1 + n % 4))
                uploaded[0] += 1
            except OSError:
                pass

        async def message(n):
            body = json.dumps({"name": "Ana Cruz", "number": "+639171234567", "email": "ana@example.org",
                               "country": "Philippines", "message": f"round {r} message {n}"}).encode()
            try:
                await http(port, "POST", "/api/contact", body)
                answered[0] += 1
            except OSError:
                pass

        tasks = [asyncio.create_task(upload(n)) for n in range(24)]
        tasks += [asyncio.create_task(message(n)) for n in range(150)]
        deadline = time.time() + 30
        while (uploaded[0] < 6 or answered[0] < 60) and time.time() < deadline:
            await asyncio.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.sleep(3)  # temp files count as abandoned after the body timeout + 1 s
        proc = start(binary, data, port, env)
        await wait_ready(port, proc)
        db = sqlite3.connect(f"{data}/conference.db")
        deadline = time.time() + 60
        while db.execute("SELECT COUNT(*) FROM outbox WHERE status <> 'sent'").fetchone()[0] and time.time() < deadline:
            await asyncio.sleep(0.5)
        rows = dict(db.execute("SELECT file_path, file_size FROM submissions").fetchall())
        papers = os.listdir(f"{data}/papers") if os.path.isdir(f"{data}/papers") else []
        temp = [p for p in papers if p.startswith(".")] + [m for m in os.listdir(f"{data}/mail") if m.startswith(".")]
        orphans = [p for p in papers if not p.startswith(".") and f"papers/{p}" not in rows]
        missing = [p for p, size in rows.items()
                   if not os.path.exists(f"{data}/{p}") or os.path.getsize(f"{data}/{p}") != size]
        ids = [i for (i,) in db.execute("SELECT id FROM outbox").fetchall()]
        emls = [m for m in os.listdir(f"{data}/mail") if m.endswith(".eml")]
        unsent = db.execute("SELECT COUNT(*) FROM outbox WHERE status <> 'sent'").fetchone()[0]
        duplicated = len(emls) - len(set(emls)) + len([m for m in emls if m not in {f"outbox-{i}.eml" for i in ids}])
        truncated = 0
        for m in emls:
            with open(f"{data}/mail/{m}", "rb") as f:
                if not f.read().rstrip().endswith(b"--"):
                    truncated += 1
        results.append({"round": r, "orphan_files": len(orphans), "temp_files": len(temp),
                        "rows_without_file": len(missing), "unsent_mail": unsent,
                        "duplicated_eml": duplicated, "truncated_eml": truncated,
                        "messages": db.execute("SELECT COUNT(*) FROM messages").fetchone()[0],
                        "submissions": len(rows)})
        db.close()
        proc.kill()
        proc.wait()
    for r in results:
        print(json.dumps(r))


if __name__ == "__main__":
    mode, binary, data, port = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    asyncio.run(slow(binary, data, port) if mode == "slow" else crash(binary, data, port))
