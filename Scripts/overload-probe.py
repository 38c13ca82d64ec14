#!/usr/bin/env python3
"""Probes of Scripts/overload, and its report.

Probe mode: for --seconds, on keep-alive connections of their own, asks /healthz every
20 ms and a Dark Sky forecast at a random point (with the probe's own key, so that the
per-client cap never refuses it and an answer is admitted or shed by the global cap alone)
every 20 ms, recording each answer's status, latency and Retry-After; reads the server's
resident memory every 250 ms. Writes it all to --out as JSON. Every loop ends at the
deadline; every request has a 10 s timeout.

Report mode (--report): reads both phases' probes and wrk's output from --work, prints the
figures and exits 1 when a functional check fails (a shed without Retry-After, a 5xx other
than a shed 503, any other unexpected status, /healthz not 200), never on a timing figure.
"""

import argparse
import http.client
import json
import random
import re
import sys
import threading
import time


def ask(port, target, deadline, period, samples):
    """Asks for target() every period seconds until deadline, one connection kept alive."""
    connection = None
    next_time = time.monotonic()
    while time.monotonic() < deadline:
        if connection is None:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        start = time.perf_counter()
        try:
            connection.request("GET", target())
            response = connection.getresponse()
            response.read()
            elapsed = (time.perf_counter() - start) * 1000
            samples.append((response.status, elapsed, response.getheader("Retry-After") is not None))
            if response.getheader("Connection", "").lower() == "close":
                connection.close()
                connection = None
        except (OSError, http.client.HTTPException) as error:
            samples.append((0, (time.perf_counter() - start) * 1000, False))
            print(f"probe: {target()}: {error}", file=sys.stderr)
            connection.close()
            connection = None
        next_time += period
        time.sleep(max(0.0, next_time - time.monotonic()))
    if connection is not None:
        connection.close()


def watch_memory(pid, deadline, samples):
    """The server's VmRSS in MB every 250 ms until deadline."""
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        samples.append(int(line.split()[1]) / 1024)
        except OSError:
            samples.append(-1)
        time.sleep(0.25)


def probe(arguments):
    deadline = time.monotonic() + arguments.seconds
    rng = random.Random(7)

    def darksky():
        return (
            f"/forecast/{arguments.key}/{37 + 5 * rng.random():.4f},{-9 + 7 * rng.random():.4f}?units=si"
        )

    health, forecast, memory = [], [], []
    threads = [
        threading.Thread(target=ask, args=(arguments.port, lambda: "/healthz", deadline, 0.02, health)),
        threading.Thread(target=ask, args=(arguments.port, darksky, deadline, 0.02, forecast)),
        threading.Thread(target=watch_memory, args=(arguments.pid, deadline, memory)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(arguments.seconds + 30)
    with open(arguments.out, "w") as out:
        json.dump({"health": health, "forecast": forecast, "memory_mb": memory}, out)


def percentile(values, share):
    """The nearest-rank percentile of values; nan when there are none."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(share * len(ordered) + 0.5)) - 1))]


def read_wrk(path):
    """wrk's requests/s, p99 (ms), statuses, sheds without Retry-After and socket errors."""
    text = open(path).read()
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
    match = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
    p99 = float(match.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[match.group(2)] if match else float("nan")
    statuses = {int(s): int(c) for s, c in re.findall(r"^status (\d+) (\d+)$", text, re.M)}
    unmarked = int(re.search(r"^unmarked (\d+)$", text, re.M).group(1))
    errors = re.search(r"Socket errors:.*", text)
    return rate, p99, statuses, unmarked, errors.group(0) if errors else "none"


def report(arguments):
    failures = []
    rows = {}
    for phase in ["capacity", "overload"]:
        data = json.load(open(f"{arguments.work}/probe-{phase}.json"))
        rate, wrk_p99, statuses, unmarked, errors = read_wrk(f"{arguments.work}/wrk-{phase}.txt")
        admitted = [latency for status, latency, _ in data["forecast"] if status == 200]
        health = [latency for _, latency, _ in data["health"]]
        probe_statuses = {}
        for status, _, _ in data["forecast"]:
            probe_statuses[status] = probe_statuses.get(status, 0) + 1
        rows[phase] = {
            "rate": rate, "wrk_p99": wrk_p99, "statuses": statuses, "errors": errors,
            "admitted": len(admitted), "admitted_p50": percentile(admitted, 0.5),
            "admitted_p99": percentile(admitted, 0.99), "probe_statuses": probe_statuses,
            "health_p99": percentile(health, 0.99), "health_max": max(health, default=float("nan")),
            "health_count": len(health), "rss_max": max(data["memory_mb"], default=float("nan")),
        }
        if unmarked:
            failures.append(f"{phase}: {unmarked} sheds without Retry-After (wrk)")
        for status, count in statuses.items():
            if status not in (200, 429, 503):
                failures.append(f"{phase}: {count} answers {status} (wrk)")
        for status, latency, retry in data["forecast"]:
            if status in (429, 503) and not retry:
                failures.append(f"{phase}: a probe's {status} without Retry-After")
            if status not in (200, 429, 503):
                failures.append(f"{phase}: a probe's forecast answered {status}")
        bad_health = [status for status, _, _ in data["health"] if status != 200]
        if bad_health:
            failures.append(f"{phase}: /healthz answered {sorted(set(bad_health))} {len(bad_health)} times")
        if not data["health"]:
            failures.append(f"{phase}: no /healthz probe answered")
        if -1 in data["memory_mb"]:
            failures.append(f"{phase}: the server's memory could not be read (did it die?)")

    capacity, overload = rows["capacity"], rows["overload"]
    print()
    print(
        f"Dark Sky forecast, random point, 8 keys; server pinned to core 0 with --max-requests "
        f"{arguments.capacity} (per-client cap {max(arguments.capacity // 2, 1)}); wrk -t1 closed-loop and the probes on core 1"
    )
    print()
    print("| figure | at capacity | 10 × capacity | target |")
    print("|---|---|---|---|")
    print(f"| wrk connections (+ 2 probes) | {max(arguments.capacity - 2, 1)} | {10 * arguments.capacity} | |")
    print(f"| answers/s (all statuses) | {capacity['rate']:,.0f} | {overload['rate']:,.0f} | |")
    for phase in (capacity, overload):
        phase["admitted_rate"] = phase["rate"] * phase["statuses"].get(200, 0) / max(sum(phase["statuses"].values()), 1)
    print(f"| admitted (200) answers/s | {capacity['admitted_rate']:,.0f} | {overload['admitted_rate']:,.0f} | |")
    for label, key in [("wrk statuses", "statuses"), ("probe statuses", "probe_statuses")]:
        cells = [", ".join(f"{s}: {c:,}" for s, c in sorted(phase[key].items())) for phase in (capacity, overload)]
        print(f"| {label} | {cells[0]} | {cells[1]} | |")
    ratio = overload["admitted_p99"] / capacity["admitted_p99"]
    print(
        f"| admitted probe p50 / p99 | {capacity['admitted_p50']:.1f} / {capacity['admitted_p99']:.1f} ms "
        f"({capacity['admitted']}) | {overload['admitted_p50']:.1f} / {overload['admitted_p99']:.1f} ms "
        f"({overload['admitted']}) | p99 ≤ 2 × at capacity: {ratio:.2f} × |"
    )
    print(f"| wrk p99, every status | {capacity['wrk_p99']:.1f} ms | {overload['wrk_p99']:.1f} ms | |")
    print(
        f"| /healthz p99 / worst ({capacity['health_count']} and {overload['health_count']} probes) | "
        f"{capacity['health_p99']:.1f} / {capacity['health_max']:.1f} ms | "
        f"{overload['health_p99']:.1f} / {overload['health_max']:.1f} ms | ≤ 50 ms |"
    )
    print(
        f"| server peak RSS | {capacity['rss_max']:.0f} MB | {overload['rss_max']:.0f} MB | "
        f"< {arguments.bound_mb} MB |"
    )
    print(f"| wrk socket errors | {capacity['errors']} | {overload['errors']} | |")
    print()
    timing = []
    if ratio > 2:
        timing.append(f"admitted p99 {ratio:.2f} × at capacity (target 2 ×)")
    if max(capacity["health_max"], overload["health_max"]) > 50:
        timing.append("a /healthz answer took over 50 ms")
    if max(capacity["rss_max"], overload["rss_max"]) >= arguments.bound_mb:
        timing.append(f"peak RSS over {arguments.bound_mb} MB")
    for line in timing:
        print(f"target missed (not a failure of this script): {line}")
    for line in failures:
        print(f"FAILED: {line}")
    if not failures:
        print("functional checks passed: every shed had Retry-After, no other 5xx, /healthz always 200")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--work")
    parser.add_argument("--bound-mb", type=float, default=512)
    parser.add_argument("--capacity", type=int, default=32)
    parser.add_argument("--port", type=int)
    parser.add_argument("--pid", type=int)
    parser.add_argument("--key")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--out")
    arguments = parser.parse_args()
    if arguments.report:
        return report(arguments)
    if not (0 < arguments.seconds <= 600):
        parser.error("--seconds must be in (0, 600]")
    probe(arguments)
    return 0


if __name__ == "__main__":
    sys.exit(main())
