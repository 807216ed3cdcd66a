#!/usr/bin/env python3
"""The load of bench/worst-hour.sh (issue 40 item 4): every kind of visitor at once, open loop.

    worst_hour.py sign-in CONFIG      signs the desks and reviewers in; writes their cookies
    worst_hour.py load CONFIG         the load; writes its figures (JSON) and prints a table
    worst_hour.py account CONFIG      counts what the load sent against the database and sink

CONFIG is a JSON file the shell script writes (its keys are read below). `load` runs every
route at once for `duration` seconds, each request at its own scheduled moment whatever the
earlier ones do (open loop: a slow answer cannot hide the ones queued behind it), on kept-alive
connections, one pool a route:

- pages: GET /schedule and the talk pages, in turn (`Accept-Encoding: br, gzip`), expecting 200;
- pay: POST /api/ccavenue-initiate (JSON, the site's Origin) expecting 201, then at once the
  gateway's answer, POST /api/ccavenue-handle with an `encResp` encrypted with the TEST working
  key (AES-128-CBC, key MD5(working key), IV 0x00..0x0f, PKCS#7, hex: DESIGN.md section 6;
  the order's amount and currency are read back from its `encRequest`), expecting 303;
- check-in: POST /organiser/check-in (JSON) from the desk sessions in turn, the tickets' codes
  in order (past the last one they come round again and answer "already"), expecting 200 with
  a result of valid or already;
- upload: POST /api/paper-submission, multipart as the form sends it, a PDF of `paper_bytes`,
  expecting 201;
- review: GET /review and the reviewer's assigned papers' pages, the reviewers in turn,
  expecting 200.

Latency is from sending to the whole answer read. The generator checks itself: how late each
request left against its schedule (p99, max) and its own CPU time over the run. Loopback only;
bounded by the schedule (count) and by `duration` plus a 15 s drain (time).
"""
import asyncio
import hashlib
import json
import os
import re
import sqlite3
import sys
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import aiohttp
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

IV = bytes(range(16))
TIMEOUT_S = 10.0
BOUNDARY = "----worst-hour-7MA4YWxkTrZu0gW"


def cipher(working_key: str) -> Cipher:
    return Cipher(algorithms.AES(hashlib.md5(working_key.encode()).digest()), modes.CBC(IV))


def encrypt(plain: str, working_key: str) -> str:
    padder = padding.PKCS7(128).padder()
    data = padder.update(plain.encode()) + padder.finalize()
    enc = cipher(working_key).encryptor()
    return (enc.update(data) + enc.finalize()).hex()


def decrypt(hex_text: str, working_key: str) -> str:
    dec = cipher(working_key).decryptor()
    data = dec.update(bytes.fromhex(hex_text)) + dec.finalize()
    unpadder = padding.PKCS7(128).unpadder()
    return (unpadder.update(data) + unpadder.finalize()).decode()


def loopback(url: str) -> None:
    if urlsplit(url).hostname not in ("127.0.0.1", "localhost", "::1"):
        sys.exit(f"worst_hour.py: loopback only, not {url}")


# ---------------------------------------------------------------------------------------
# Signing in: ask for the link, read it from the sink's mail to that address, confirm it.


def mailed_link(sink: str, address: str, pattern: str, seen: set[str], deadline: float) -> str:
    while time.time() < deadline:
        for name in sorted(os.listdir(sink)):
            if not name.endswith(".eml") or name in seen:
                continue
            with open(os.path.join(sink, name), "rb") as f:
                text = f.read().decode("utf-8", "replace")
            first = text.split("\r\n", 1)[0]
            if address.lower() not in first.lower():
                continue
            joined = re.sub(r"=\r?\n", "", text)
            found = re.search(pattern, joined)
            if found:
                seen.add(name)
                return found.group(0)
        time.sleep(0.1)
    sys.exit(f"worst_hour.py: no sign-in mail to {address} in the sink within 60 s")


async def sign_in(cfg: dict) -> None:
    url = cfg["url"]
    seen: set[str] = set()
    cookies: dict[str, list[str]] = {"desks": [], "reviewers": []}
    jar = aiohttp.DummyCookieJar()
    async with aiohttp.ClientSession(cookie_jar=jar) as http:
        for kind, ask, link_re in (
            ("desks", "/organiser/check-in/sign-in", r"/organiser/check-in/sign-in/[A-Za-z0-9_-]{43}"),
            ("reviewers", "/review/sign-in", r"/review/sign-in/[A-Za-z0-9_-]{43}"),
        ):
            # Every link asked for first: the outbox sends them in its own time.
            for address in cfg[kind]:
                async with http.post(url + ask, data={"email": address}, headers={"Origin": url},
                                     allow_redirects=False) as r:
                    await r.read()
                    if r.status >= 400:
                        sys.exit(f"worst_hour.py: asking a link for {address} answered {r.status}")
            for address in cfg[kind]:
                link = mailed_link(cfg["sink"], address, link_re, seen, time.time() + 60)
                async with http.post(url + link, headers={"Origin": url}, allow_redirects=False) as r:
                    await r.read()
                    got = [c for c in r.headers.getall("Set-Cookie", []) if re.match(r"[^=]*session=", c)]
                    if not got:
                        sys.exit(f"worst_hour.py: {address}'s link gave no session cookie ({r.status})")
                    cookies[kind].append(got[0].split(";", 1)[0])
    with open(cfg["cookies"], "w") as f:
        json.dump(cookies, f)


# ---------------------------------------------------------------------------------------
# The load


class Route:
    def __init__(self, name: str, rate: float):
        self.name, self.rate = name, rate
        self.times: list[float] = []  # ms, answers with the expected status
        self.all_times: list[float] = []
        self.lag: list[float] = []  # ms late against the schedule
        self.statuses: dict[str, int] = {}
        self.errors = 0
        self.sent = 0
        self.slow: list[tuple[float, float]] = []  # (seconds into the run, ms) of answers over 50 ms

    def record(self, took_ms: float, outcome: str, ok: bool) -> None:
        self.all_times.append(took_ms)
        self.statuses[outcome] = self.statuses.get(outcome, 0) + 1
        if ok:
            self.times.append(took_ms)
        else:
            self.errors += 1


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100 * len(s) + 0.5)) - 1))]


async def timed(route: Route, http: aiohttp.ClientSession, method: str, url: str, expect: tuple, **kw):
    """One request; records it on `route`; returns (status, body) or None on error."""
    started = time.perf_counter()
    try:
        return await _timed(route, http, method, url, expect, started, **kw)
    finally:
        took = (time.perf_counter() - started) * 1000
        if took > 50:
            route.slow.append((started - RUN_START[0], took))


RUN_START = [0.0]


async def _timed(route: Route, http: aiohttp.ClientSession, method: str, url: str, expect: tuple, started: float, **kw):
    try:
        async with http.request(method, url, allow_redirects=False, **kw) as r:
            body = await r.read()
            took = (time.perf_counter() - started) * 1000
            ok = r.status in expect
            route.record(took, str(r.status), ok)
            return r.status, body
    except Exception as err:  # a failed request is counted, not hidden
        route.record((time.perf_counter() - started) * 1000, type(err).__name__, False)
        return None


async def load(cfg: dict) -> None:
    url = cfg["url"]
    loopback(url)
    duration = float(cfg["duration"])
    rates = cfg["rates"]
    with open(cfg["cookies"]) if cfg.get("cookies") and os.path.exists(cfg["cookies"]) else open(os.devnull) as f:
        text = f.read()
    cookies = json.loads(text) if text else {"desks": [], "reviewers": []}
    codes = [line.strip() for line in open(cfg["codes"])] if cfg.get("codes") else []
    key = cfg.get("working_key", "")
    pages = cfg["pages"]
    review_paths = cfg.get("review_paths", {})
    routes = {name: Route(name, rate) for name, rate in rates.items() if rate > 0}
    if "pay" in routes:
        routes["pay answer"] = Route("pay answer", rates["pay"])
    outcomes = {"orders_initiated": [], "orders_answered": [], "checked_valid": 0, "checked_already": 0,
                "uploads_created": [], "check_in_results": {}}
    pdf_head = b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n%"
    pdf_tail = b"\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"
    pdf = pdf_head + b"x" * (int(cfg.get("paper_bytes", 1 << 20)) - len(pdf_head) - len(pdf_tail)) + pdf_tail
    run = cfg.get("run", "wh")

    def session() -> aiohttp.ClientSession:
        return aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=200, force_close=False, enable_cleanup_closed=True),
            cookie_jar=aiohttp.DummyCookieJar(), auto_decompress=False,
            timeout=aiohttp.ClientTimeout(total=TIMEOUT_S))

    sessions = {name: session() for name in routes}

    async def page(i: int) -> None:
        path = pages[i % len(pages)]
        await timed(routes["pages"], sessions["pages"], "GET", url + path, (200,),
                    headers={"Accept-Encoding": "br, gzip", "Accept": "text/html"})

    async def pay(i: int) -> None:
        body = {"plan": cfg.get("plan", "listener-physical"), "name": f"Payer {run} {i}",
                "email": f"payer.{run}.{i}@example.org", "phone": "+63 2 8765 4390", "address": "77 Orchard Lane",
                "city": "Manila", "state": "Metro Manila", "zip": "1000", "country": "Philippines"}
        got = await timed(routes["pay"], sessions["pay"], "POST", url + "/api/ccavenue-initiate", (201,),
                          json=body, headers={"Origin": url, "Accept": "application/json", "Accept-Encoding": "identity"})
        if not got or got[0] != 201:
            return
        initiated = json.loads(got[1])
        order = initiated["orderId"]
        outcomes["orders_initiated"].append(order)
        request = dict(parse_qsl(decrypt(initiated["encRequest"], key)))
        answer = {"order_id": order, "tracking_id": f"3100{i:08d}", "bank_ref_no": f"BRN{i:06d}",
                  "order_status": "Success", "failure_message": "", "payment_mode": "Credit Card",
                  "card_name": "Visa", "status_code": "0", "status_message": "Approved",
                  "currency": request["currency"], "amount": request["amount"],
                  "trans_date": time.strftime("%d/%m/%Y %H:%M:%S", time.gmtime()),
                  "billing_name": body["name"], "billing_email": body["email"]}
        form = urlencode({"encResp": encrypt(urlencode(answer), key), "orderNo": order})
        routes["pay answer"].sent += 1
        got = await timed(routes["pay answer"], sessions["pay answer"], "POST", url + "/api/ccavenue-handle", (303,),
                          data=form, headers={"Content-Type": "application/x-www-form-urlencoded", "Accept-Encoding": "identity"})
        if got and got[0] == 303:
            outcomes["orders_answered"].append(order)

    async def check_in(i: int) -> None:
        desks = cookies["desks"]
        code = codes[i % len(codes)]
        route = routes["check-in"]
        got = await timed(route, sessions["check-in"], "POST", url + "/organiser/check-in", (200,),
                          json={"code": code},
                          headers={"Origin": url, "Accept": "application/json", "Accept-Encoding": "identity",
                                   "Cookie": desks[i % len(desks)]})
        if got and got[0] == 200:
            result = json.loads(got[1]).get("result", "?")
            outcomes["check_in_results"][result] = outcomes["check_in_results"].get(result, 0) + 1
            if result not in ("valid", "already"):
                # The answer came but said something else: an error of this route.
                route.errors += 1
                route.times.pop()

    async def upload(i: int) -> None:
        fields = [("authorName", f"Author {run} {i}"), ("coAuthorName", "Ben Reyes, Carla Santos"),
                  ("number", "+639171234567"), ("email", f"author.{run}.{i}@example.org"), ("country", "Philippines"),
                  ("paperTitle", f"Worst hour paper {run} {i}"), ("department", "Electrical Engineering"),
                  ("universityOrganization", "University of Manila"), ("paperType", "Full Paper"),
                  ("presentationType", "Oral"), ("conferenceSource", "linkedin"),
                  ("message", "Corresponding author: the bench.\nKeywords: load, hour.")]
        head = b"".join(
            f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode() for k, v in fields)
        head += (f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="paper-{i}.pdf"\r\n'
                 f"Content-Type: application/pdf\r\n\r\n").encode()
        body = head + pdf + f"\r\n--{BOUNDARY}--\r\n".encode()
        got = await timed(routes["upload"], sessions["upload"], "POST", url + "/api/paper-submission", (201,),
                          data=body, headers={"Origin": url, "Accept": "application/json", "Accept-Encoding": "identity",
                                              "Content-Type": f"multipart/form-data; boundary={BOUNDARY}"})
        if got and got[0] == 201:
            outcomes["uploads_created"].append(i)

    async def review(i: int) -> None:
        reviewers = cookies["reviewers"]
        who = i % len(reviewers)
        paths = ["/review"] + review_paths.get(str(who), [])
        path = paths[(i // len(reviewers)) % len(paths)]
        await timed(routes["review"], sessions["review"], "GET", url + path, (200,),
                    headers={"Cookie": reviewers[who], "Accept": "text/html", "Accept-Encoding": "br, gzip"})

    work = {"pages": page, "pay": pay, "check-in": check_in, "upload": upload, "review": review}
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.5
    tasks: set[asyncio.Task] = set()

    async def schedule(name: str) -> None:
        route = routes[name]
        for i in range(int(route.rate * duration)):
            at = start + i / route.rate
            delay = at - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            route.lag.append((loop.time() - at) * 1000)
            route.sent += 1
            task = asyncio.create_task(work[name](i))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    cpu0, wall0 = os.times(), time.perf_counter()
    RUN_START[0] = wall0 + 0.5
    await asyncio.gather(*(schedule(name) for name in work if name in routes))
    sent_until = time.perf_counter()
    # Drain: what is in flight gets its answer or its timeout (bounded).
    if tasks:
        await asyncio.wait(set(tasks), timeout=TIMEOUT_S + 5)
    cpu1, wall1 = os.times(), time.perf_counter()
    for s in sessions.values():
        await s.close()
    elapsed = sent_until - wall0 - 0.5
    figures = {"duration": duration, "elapsed": elapsed,
               "generator_cpu_share": ((cpu1.user + cpu1.system) - (cpu0.user + cpu0.system)) / (wall1 - wall0),
               "routes": {}, "outcomes": {"orders_initiated": len(outcomes["orders_initiated"]),
                                          "orders_answered": len(outcomes["orders_answered"]),
                                          "uploads_created": len(outcomes["uploads_created"]),
                                          "check_in_results": outcomes["check_in_results"]}}
    print(f"{'route':<11} {'target/s':>8} {'sent/s':>7} {'answered':>8} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>8} "
          f"{'errors':>6} {'late p99':>8} {'late max':>8}  statuses")
    for name, r in routes.items():
        answered = len(r.all_times)
        row = {"target_rate": r.rate, "sent": r.sent, "sent_rate": r.sent / elapsed if elapsed > 0 else 0,
               "answered": answered, "ok": len(r.times), "errors": r.errors + (r.sent - answered),
               "p50": pct(r.times, 50), "p99": pct(r.times, 99), "max": max(r.times) if r.times else float("nan"),
               "lag_p99": pct(r.lag, 99), "lag_max": max(r.lag) if r.lag else float("nan"), "statuses": r.statuses}
        figures["routes"][name] = row
        print(f"{name:<11} {r.rate:>8g} {row['sent_rate']:>7.1f} {answered:>8} {row['p50']:>7.2f} {row['p99']:>7.2f} "
              f"{row['max']:>8.2f} {row['errors']:>6} {row['lag_p99']:>8.2f} {row['lag_max']:>8.2f}  "
              + " ".join(f"{k}={v}" for k, v in sorted(r.statuses.items())))
    for name, r in routes.items():
        if r.slow:
            buckets: dict[int, int] = {}
            for at, _ in r.slow:
                buckets[int(at // 10) * 10] = buckets.get(int(at // 10) * 10, 0) + 1
            print(f"  {name}: {len(r.slow)} answers over 50 ms, by 10 s of the run: "
                  + " ".join(f"{k}s:{v}" for k, v in sorted(buckets.items())))
    print(f"generator: {figures['generator_cpu_share'] * 100:.0f}% of its core over the run; "
          f"schedule sent over {elapsed:.1f} s for {duration:g} s planned")
    with open(cfg["figures"], "w") as f:
        json.dump(figures, f)


# ---------------------------------------------------------------------------------------
# Accounting: what the load was told was done, against the database and the sink


def account(cfg: dict) -> None:
    with open(cfg["figures"]) as f:
        figures = json.load(f)
    out = figures["outcomes"]
    db = sqlite3.connect(f"file:{cfg['db']}?mode=ro", uri=True, timeout=10)
    one = lambda q: db.execute(q).fetchone()[0]  # noqa: E731
    base = cfg["baseline"]
    differences = []

    def line(what: str, told: int, stored: int, note: str = "") -> None:
        same = "ok" if told == stored else "DIFFERENT"
        if told != stored:
            differences.append(what)
        print(f"{what:<34} told {told:>7}  stored {stored:>7}  {same}{note}")

    paid = one("SELECT COUNT(*) FROM orders WHERE order_id LIKE 'ORD%' AND order_id NOT LIKE 'ORDBENCH%' AND status = 'success'")
    line("orders initiated (201)", out["orders_initiated"], one("SELECT COUNT(*) FROM orders") - base["orders"])
    line("orders paid (answer 303)", out["orders_answered"], paid)
    line("tickets of the paid orders", paid, one("SELECT COUNT(*) FROM tickets") - base["tickets"])
    line("receipts of the paid orders", paid, one("SELECT COUNT(*) FROM receipts") - base["receipts"])
    valid = out["check_in_results"].get("valid", 0)
    line("check-ins (answered valid)", valid, one("SELECT COUNT(*) FROM check_ins") - base["check_ins"])
    line("check-ins' audit entries", valid,
         one("SELECT COUNT(*) FROM audit_log WHERE action = 'ticket.checked_in'") - base["checked_audit"])
    created = out["uploads_created"]
    line("submissions (answered 201)", created, one("SELECT COUNT(*) FROM submissions") - base["submissions"])
    papers = os.path.join(cfg["data_dir"], "papers")
    files = len([n for n in os.listdir(papers) if not n.startswith(".")]) if os.path.isdir(papers) else 0
    line("papers' files in DATA_DIR/papers", created, files - base["paper_files"])
    temp = len([n for n in os.listdir(papers) if n.startswith(".upload-")]) if os.path.isdir(papers) else 0
    outbox = dict(db.execute("SELECT status, COUNT(*) FROM outbox GROUP BY status").fetchall())
    sink = len([n for n in os.listdir(cfg["sink"]) if n.endswith(".eml")])
    stored_mail = sum(outbox.values())
    print(f"{'mails':<34} stored {stored_mail:>7} (outbox: "
          + ", ".join(f"{k} {v}" for k, v in sorted(outbox.items())) + f")  mailed {sink:>7} (sink)")
    if outbox.get("sent", 0) != sink:
        differences.append("mails sent by the outbox vs received by the sink")
        print(f"  DIFFERENT: the outbox marked {outbox.get('sent', 0)} sent, the sink holds {sink}")
    if outbox.get("pending", 0) or outbox.get("failed", 0):
        differences.append("mails not sent")
        print(f"  NOT SENT: {outbox.get('pending', 0)} pending, {outbox.get('failed', 0)} failed")
    if temp:
        print(f"  {temp} upload temp files left in DATA_DIR/papers")
    print("nothing lost" if not differences else "differences: " + "; ".join(differences))


def baseline(cfg: dict) -> None:
    db = sqlite3.connect(f"file:{cfg['db']}?mode=ro", uri=True, timeout=10)
    one = lambda q: db.execute(q).fetchone()[0]  # noqa: E731
    papers = os.path.join(cfg["data_dir"], "papers")
    counts = {"orders": one("SELECT COUNT(*) FROM orders"), "tickets": one("SELECT COUNT(*) FROM tickets"),
              "receipts": one("SELECT COUNT(*) FROM receipts"), "check_ins": one("SELECT COUNT(*) FROM check_ins"),
              "checked_audit": one("SELECT COUNT(*) FROM audit_log WHERE action = 'ticket.checked_in'"),
              "submissions": one("SELECT COUNT(*) FROM submissions"),
              "paper_files": len([n for n in os.listdir(papers) if not n.startswith(".")]) if os.path.isdir(papers) else 0}
    cfg["baseline"] = counts
    with open(sys.argv[2], "w") as f:
        json.dump(cfg, f)


if __name__ == "__main__":
    command, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        config = json.load(f)
    loopback(config["url"])
    if command == "sign-in":
        asyncio.run(sign_in(config))
    elif command == "load":
        asyncio.run(load(config))
    elif command == "baseline":
        baseline(config)
    elif command == "account":
        account(config)
    else:
        sys.exit(f"worst_hour.py: unknown command {command}")
