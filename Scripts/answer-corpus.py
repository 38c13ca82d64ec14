#!/usr/bin/env python3
"""Asks two running nwpcube servers the same corpus of requests and compares the answers.

Used by Scripts/answer-corpus, which builds the store and starts both servers: one from the
build before a change, one from the build after it. A refactoring of the API faces must not
change a byte that a client sees, so each request goes to both servers back to back and
their status, Content-Type and body must be equal; only `generationtime_ms` (the time the
answer took) is left out of the comparison. An answer that depends on the current time
(OpenWeatherMap's forecast, Dark Sky without a time, alerts) is asked again of both when
the two differ, in case an hour or quarter hour turned between them.

usage: answer-corpus.py OLD_URL NEW_URL [--list] [--out DIR]
Exits 1 when any answer differs, and prints each difference with its request.
"""

import argparse
import json
import os
import random
import re
import sys
import time
import urllib.error
import urllib.request

GENERATION_TIME = re.compile(rb'"generationtime_ms"\s*:\s*-?[0-9.eE+-]+')

# Points inside the sample domain (Portugal and Spain), one outside it, and one whose
# longitude has the wrong sign (the hint about east-positive longitudes).
POINTS = [
    (38.7223, -9.1393),  # Lisbon
    (41.1579, -8.6291),  # Porto
    (38.5667, -7.9),  # Évora
    (37.0194, -7.9304),  # Faro
    (40.2033, -8.4103),  # Coimbra
    (39.4699, -0.3763),  # Valencia, near the domain's east edge
    (42.2406, -8.7207),  # Vigo
    (38.1294, -8.9341),  # the coast, where the nearest cell is sea
]
OUTSIDE = (51.5072, -0.1276)  # London
MIRRORED = (38.1294, 8.9341)


def corpus(today, june="2026-06-20"):
    """Every request of the corpus, as path-and-query strings, in a fixed order."""
    rng = random.Random(20261127)
    requests = []
    add = requests.append

    # The legacy endpoints: UTC hours and days of the June run.
    for lat, lon in POINTS:
        add(f"/QuickPrevByDate.php?lat={lat}&lon={lon}&date=20260621_12")
        add(f"/MedianPrevByDays.php?lat={lat}&lon={lon}&date=20260620&days=2")
    for metric in ["temp", "hum", "rain", "cloud", "wind_vel", "wind_dir", "atm_press"]:
        add(f"/PrevByDateAndMetric.php?lat=38.7223&lon=-9.1393&metric={metric}&date=20260621")
        add(f"/PrevForNextHoursByMetric.php?lat=41.1579&lon=-8.6291&metric={metric}&date=20260620_06")
    for bad in [
        "/QuickPrevByDate.php?lat=38.1294&lon=8.9341&date=20260621_12",
        "/QuickPrevByDate.php?lat=38.7&lon=-9.1&date=2026062112",
        "/QuickPrevByDate.php?lat=38.7&lon=-9.1&date=20260621_12&lat=38.8",
        "/QuickPrevByDate.php?lat=95&lon=-9.1&date=20260621_12",
        "/MedianPrevByDays.php?lat=38.7&lon=-9.1&date=20260620&days=8",
        "/PrevByDateAndMetric.php?lat=38.7&lon=-9.1&metric=snow_depth&date=20260621",
        "/PrevByDateAndMetric.php?lat=38.7&lon=-9.1&metric=temp&date=20300101",
        "/PrevForNextHoursByMetric.php?lat=38.7&lon=-9.1&metric=temp",
    ]:
        add(bad)

    # Open-Meteo's /v1/forecast over the June run: blocks, names, units, zones, formats.
    hourly_sets = [
        "temperature_2m,precipitation",
        "temperature_2m,relative_humidity_2m,dew_point_2m,apparent_temperature,precipitation,rain,showers,snowfall",
        "weather_code,cloud_cover,cloud_cover_low,cloud_cover_mid,cloud_cover_high,visibility,is_day",
        "wind_speed_10m,wind_direction_10m,wind_gusts_10m,pressure_msl,surface_pressure,shortwave_radiation",
        "precipitation_probability,temp,rain,wind_vel",
    ]
    daily_sets = [
        "temperature_2m_max,temperature_2m_min,precipitation_sum",
        "weather_code,sunrise,sunset,daylight_duration,precipitation_hours,wind_speed_10m_max,wind_direction_10m_dominant",
        "apparent_temperature_max,apparent_temperature_min,precipitation_probability_max,wind_gusts_10m_max,showers_sum,snowfall_sum",
        "temp_max,temp_min,rain_sum",
    ]
    zones = ["GMT", "Europe/Lisbon", "America/New_York", "Asia/Kolkata", "auto"]
    base = f"start_date={june}&end_date=2026-06-22"
    for k, (lat, lon) in enumerate(POINTS):
        hourly = hourly_sets[k % len(hourly_sets)]
        daily = daily_sets[k % len(daily_sets)]
        zone = zones[k % len(zones)]
        add(f"/v1/forecast?latitude={lat}&longitude={lon}&hourly={hourly}&{base}&timezone={zone}")
        add(f"/v1/forecast?latitude={lat}&longitude={lon}&daily={daily}&{base}&timezone={zone}")
        add(f"/v1/forecast?latitude={lat}&longitude={lon}&hourly={hourly}&daily={daily}&{base}&format=csv")
    for hourly in hourly_sets:
        add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly={hourly}&{base}&timeformat=unixtime")
        # Quarter hours from now, answered by the run of today.
        add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&minutely_15={hourly}&forecast_minutely_15=16&past_minutely_15=4")
    for units in [
        "temperature_unit=fahrenheit",
        "wind_speed_unit=ms",
        "wind_speed_unit=mph&precipitation_unit=inch",
        "wind_speed_unit=kn&temperature_unit=kelvin",
        "units=us",
        "pressure_unit=inHg&visibility_unit=mi",
    ]:
        add(f"/v1/forecast?latitude=41.1579&longitude=-8.6291&hourly={hourly_sets[1]},{hourly_sets[3]}&daily={daily_sets[0]}&{base}&{units}")
    for cells in ["cell_selection=land", "cell_selection=sea", "cell_selection=nearest", "elevation=120", "elevation=nan", "method=bilinear"]:
        add(f"/v1/forecast?latitude=38.1294&longitude=-8.9341&hourly=temperature_2m,precipitation&{base}&{cells}")
    add(f"/v1/forecast?latitude=38.7223,41.1579,37.0194&longitude=-9.1393,-8.6291,-7.9304&hourly=temperature_2m&{base}")
    add(f"/v1/forecast?latitude=38.7223,41.1579&longitude=-9.1393,-8.6291&daily=temperature_2m_max&{base}&format=csv")
    add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&start_hour=2026-06-20T05:00&end_hour=2026-06-20T09:00")
    add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&current=temperature_2m,weather_code,wind_speed_10m,precipitation&{base}")
    add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temperature_2m&models=wrf/d01&{base}")
    add(f"/v1/forecast?latitude=38.7223&longitude=-9.1393&hourly=temp&domain=d01&{base}")
    for bad in [
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=uv_index&{base}",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&forecast_day=3",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&wind_speed_unit=knots",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&forecast_days=17",
        f"/v1/forecast?latitude=38.7,41.1&longitude=-9.1&hourly=temperature_2m&{base}",
        f"/v1/forecast?latitude={OUTSIDE[0]}&longitude={OUTSIDE[1]}&hourly=temperature_2m&{base}",
        f"/v1/forecast?latitude={MIRRORED[0]}&longitude={MIRRORED[1]}&hourly=temperature_2m&{base}",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&start_date=2030-01-01&end_date=2030-01-02",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&timezone=Mars/Olympus",
        f"/v1/forecast?latitude=38.7&longitude=-9.1&hourly=temperature_2m&start_date=2026-06-22&end_date=2026-06-20",
        "/v1/forecast?longitude=-9.1&hourly=temperature_2m",
        "/v1/forecast?latitude=abc&longitude=-9.1&hourly=temperature_2m",
    ]:
        add(bad)

    # Places.
    for name in ["evora", "lisb", "Porto", "São", "sao", "zzzz", "a"]:
        add(f"/v1/search?name={urllib.request.quote(name)}&count=3")
    add("/v1/search?name=ma&count=0")

    # OpenWeatherMap over the run that covers today.
    for lat, lon in POINTS[:5]:
        for units in ["standard", "metric", "imperial"]:
            add(f"/data/2.5/forecast?lat={lat}&lon={lon}&units={units}&cnt=8")
            add(f"/data/2.5/weather?lat={lat}&lon={lon}&units={units}")
    for place in ["q=Lisboa,PT", "q=Porto", "id=2267057", "q=Atlantis", "id=1"]:
        add(f"/data/2.5/forecast?{place}&units=metric&cnt=3")
        add(f"/data/2.5/weather?{place}")
    for bad in ["lat=38.7&units=metric", "lat=38.7&lon=-9.1&cnt=41", "lat=38.7&lon=-9.1&units=kelvin", f"lat={OUTSIDE[0]}&lon={OUTSIDE[1]}"]:
        add(f"/data/2.5/forecast?{bad}")

    # Dark Sky: Time Machine in June (deterministic) and forecasts from now.
    for lat, lon in POINTS:
        for units in ["us", "si", "ca", "uk2"]:
            add(f"/forecast/KEY/{lat},{lon},2026-06-20T15:00:00Z?units={units}")
    for exclude in ["minutely", "hourly,daily", "currently,minutely,hourly", "alerts,flags"]:
        add(f"/forecast/KEY/38.7223,-9.1393,1781960400?exclude={exclude}&units=si")
    for lat, lon in POINTS[:4]:
        add(f"/forecast/KEY/{lat},{lon}?units=si")
        add(f"/forecast/KEY/{lat},{lon}?units=auto&extend=hourly")
    for bad in ["38.7,-9.1,2030-01-01T00:00:00", "1,2,3,4", "abc,-9.1", f"{OUTSIDE[0]},{OUTSIDE[1]}", f"{MIRRORED[0]},{MIRRORED[1]}"]:
        add(f"/forecast/KEY/{bad}")
    add("/forecast/KEY/38.7,-9.1?units=metric")

    # Warnings, JSON and CAP, from now.
    for lat, lon in POINTS[:4]:
        add(f"/v1/alerts?latitude={lat}&longitude={lon}")
        add(f"/v1/alerts.cap?latitude={lat}&longitude={lon}")
    add("/v1/alerts?latitude=38.7")
    add(f"/v1/alerts?latitude={OUTSIDE[0]}&longitude={OUTSIDE[1]}")

    # Meteograms, tiles, legends, domains, runs and the rest.
    for lat, lon in POINTS[:3]:
        add(f"/v1/meteogram.svg?latitude={lat}&longitude={lon}&start_date={june}&days=2&timezone=Europe/Lisbon")
    add(f"/v1/meteogram.svg?latitude=38.7&longitude=-9.1&start_date={june}&units=imperial")
    add("/v1/meteogram.svg?latitude=38.7&longitude=-9.1&days=9")
    for metric in ["temp", "rain", "wind_vel", "cloud", "atm_press", "land"]:
        add(f"/v1/tiles/{metric}/2026-06-21T12:00Z/7/60/49.png")
        add(f"/v1/legend/{metric}.svg")
    for bad in ["/v1/tiles/temp/2026-06-21T12:00Z/19/0/0.png", "/v1/tiles/nope/2026-06-21T12:00Z/7/60/49.png", "/v1/tiles/temp/2030-01-01T00:00Z/7/60/49.png"]:
        add(bad)
    add("/v1/domains?time=2026-06-21T12:00Z")
    add("/v1/runs")
    add("/healthz")
    add("/nowhere")
    add("/static/app.js")
    add("/static/nothing.js")
    add("/openapi.yaml")

    # A few random points and hours over the June run, for breadth.
    for _ in range(80):
        lat = round(rng.uniform(37.0, 42.0), 4)
        lon = round(rng.uniform(-9.3, -2.0), 4)
        day = rng.choice(["2026-06-20", "2026-06-21", "2026-06-22"])
        which = rng.randrange(3)
        if which == 0:
            add(f"/v1/forecast?latitude={lat}&longitude={lon}&hourly={rng.choice(hourly_sets)}&start_date={day}&end_date={day}")
        elif which == 1:
            add(f"/forecast/KEY/{lat},{lon},{day}T{rng.randrange(24):02d}:00:00Z?units=si")
        else:
            add(f"/QuickPrevByDate.php?lat={lat}&lon={lon}&date={day.replace('-', '')}_{rng.randrange(24):02d}")
    return requests


def fetch(base, path, method="GET"):
    # One Host for both servers: answers that link to themselves (alerts' `cap`) name it.
    request = urllib.request.Request(base + path, method=method, headers={"Host": "nwpcube.test"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers.get("Content-Type", ""), error.read()


def comparable(answer):
    status, kind, body = answer
    return status, kind, GENERATION_TIME.sub(b'"generationtime_ms":0', body)


def family(path):
    if path.startswith("/v1/forecast"):
        return "open-meteo"
    if path.startswith("/v1/search"):
        return "search"
    if path.startswith("/data/2.5"):
        return "openweathermap"
    if path.startswith("/forecast/"):
        return "darksky"
    if path.startswith("/v1/alerts"):
        return "alerts"
    if path.endswith(".php") or ".php?" in path:
        return "legacy"
    return "other"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--out", help="write both bodies of each differing request here")
    args = parser.parse_args()
    today = time.strftime("%Y-%m-%d", time.gmtime())
    requests = corpus(today)
    requests.append("POST /healthz")
    counts, differences = {}, []
    for entry in requests:
        method, path = entry.split(" ", 1) if entry.startswith("POST ") else ("GET", entry)
        old, new = comparable(fetch(args.old, path, method)), comparable(fetch(args.new, path, method))
        if old != new:
            # The clock may have turned an hour or a quarter between the two: ask again.
            old, new = comparable(fetch(args.old, path, method)), comparable(fetch(args.new, path, method))
        name = family(path)
        same, total, statuses = counts.get(name, (0, 0, {}))
        statuses[old[0]] = statuses.get(old[0], 0) + 1
        counts[name] = (same + (old == new), total + 1, statuses)
        if old != new:
            differences.append((entry, old, new))
    for name, (same, total, statuses) in sorted(counts.items()):
        print(f"{name:15} {same:4} of {total:4} identical; statuses {dict(sorted(statuses.items()))}")
    print(f"{len(requests)} requests, {len(differences)} differ")
    for number, (entry, old, new) in enumerate(differences):
        print(f"\n--- {entry}")
        if old[:2] != new[:2]:
            print(f"    status/type: old {old[:2]}, new {new[:2]}")
        a, b = old[2], new[2]
        at = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
        print(f"    bodies differ at byte {at} (old {len(a)} bytes, new {len(b)} bytes)")
        print(f"    old: {a[max(0, at - 80):at + 120]!r}")
        print(f"    new: {b[max(0, at - 80):at + 120]!r}")
        if args.out:
            os.makedirs(args.out, exist_ok=True)
            for side, body in (("old", a), ("new", b)):
                with open(os.path.join(args.out, f"{number:03d}.{side}"), "wb") as file:
                    file.write(body)
    if len(requests) < 300:
        print(f"answer-corpus: only {len(requests)} requests; the corpus must hold at least 300", file=sys.stderr)
        return 1
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
