#!/usr/bin/env python3
"""Scans at a fixed rate against the check-in desk (issue 33 item 3), open loop.

    check_in_scans.py URL COOKIE CODES_FILE RATE SECONDS [UNKNOWN_SHARE]

Sends RATE scans a second for SECONDS, each at its own scheduled moment whatever the earlier
ones do (so a slow answer cannot hide the ones queued behind it), from a pool of kept-alive
connections: `POST URL` with `{"code": ...}` as the desk's island sends it, the code drawn at
random from CODES_FILE (one a line; a drawn code may repeat, which answers "already") or, for
UNKNOWN_SHARE of the scans (default 0.05), a code no ticket has. Prints one line: the answers
by result, and p50 / p90 / p99 / max milliseconds from sending to the whole answer. Loopback
only; bounded by SECONDS.
"""
import http.client
import json
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit


def main() -> None:
    url, cookie, codes_file, rate, seconds = sys.argv[1:6]
    unknown_share = float(sys.argv[6]) if len(sys.argv) > 6 else 0.05
    rate, seconds = float(rate), float(seconds)
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit("check_in_scans.py: loopback only")
    codes = [line.strip() for line in open(codes_file) if line.strip()]
    rng = random.Random(33)
    total = int(rate * seconds)
    plan = ["Z" * 26 if rng.random() < unknown_share else rng.choice(codes) for _ in range(total)]
    local = threading.local()
    results: list[tuple[float, str]] = []
    lock = threading.Lock()
    origin = f"{parts.scheme}://{parts.netloc}"

    def scan(code: str) -> None:
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        body = json.dumps({"code": code})
        headers = {"Content-Type": "application/json", "Accept": "application/json", "Origin": origin, "Cookie": cookie}
        started = time.perf_counter()
        try:
            conn.request("POST", parts.path, body, headers)
            answer = conn.getresponse()
            data = answer.read()
            took = (time.perf_counter() - started) * 1000
            result = json.loads(data).get("result", f"status {answer.status}") if answer.status == 200 else f"status {answer.status}"
        except Exception as err:  # a failed scan is counted, not hidden
            local.conn = None
            took, result = (time.perf_counter() - started) * 1000, f"error {type(err).__name__}"
        with lock:
            results.append((took, result))

    start = time.perf_counter() + 0.2
    with ThreadPoolExecutor(max_workers=16) as pool:
        for i, code in enumerate(plan):
            delay = start + i / rate - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            pool.submit(scan, code)
    times = sorted(t for t, _ in results)
    counts: dict[str, int] = {}
    for _, result in results:
        counts[result] = counts.get(result, 0) + 1

    def pct(p: float) -> float:
        return times[min(len(times) - 1, int(round(p / 100 * len(times) + 0.5)) - 1)]

    summary = " ".join(f"{k}={v}" for k, v in sorted(counts.items()))
    print(f"scans={len(times)} {summary} p50={pct(50):.2f} p90={pct(90):.2f} p99={pct(99):.2f} max={times[-1]:.2f}")


if __name__ == "__main__":
    main()
