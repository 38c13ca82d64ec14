"""Checks nwpcube's /v1/forecast with Open-Meteo's own Python SDK, `openmeteo-requests`
(with `openmeteo-sdk`), which asks for `format=flatbuffers`.

Run by Scripts/client-check inside a throwaway virtual environment. The code below is the
code Open-Meteo's documentation generates for Python (a cached, retrying session; the
client's `weather_api`; pandas frames from each block's `Time`, `TimeEnd` and `Interval`),
unchanged but for the URL: the client sends its lists as repeated keys, and POSTs a form
when asked to. Every value it reads is compared with nwpcube's JSON answer to the same
request, fetched separately with `timeformat=unixtime`.

Usage: client-check-openmeteo-requests.py BASE_URL
"""

import datetime
import importlib.metadata
import math
import sys

import numpy as np
import openmeteo_requests
import pandas as pd
import requests
import requests_cache
from retry_requests import retry

BASE = sys.argv[1].rstrip("/")
url = f"{BASE}/v1/forecast"

# As the documentation's generator writes it.
cache_session = requests_cache.CachedSession(backend="memory", expire_after=3600)
retry_session = retry(cache_session, retries=5, backoff_factor=0.2)
openmeteo = openmeteo_requests.Client(session=retry_session)

HOURLY = ["temperature_2m", "relative_humidity_2m", "precipitation", "rain", "weather_code", "wind_speed_10m",
          "wind_direction_10m", "cloud_cover", "is_day"]
DAILY = ["weather_code", "temperature_2m_max", "temperature_2m_min", "sunrise", "sunset", "daylight_duration",
         "precipitation_sum", "wind_speed_10m_max", "wind_direction_10m_dominant"]
CURRENT = ["temperature_2m", "relative_humidity_2m", "is_day", "precipitation", "weather_code", "wind_speed_10m"]
MINUTELY = ["temperature_2m", "precipitation", "wind_speed_10m"]
# Lisbon and Porto, inside the sample run's domain.
LATITUDES = [38.7223, 41.1579]
LONGITUDES = [-9.1393, -8.6291]

failures = []
checked = 0


def check(condition, what):
    global checked
    checked += 1
    if not condition:
        failures.append(what)
        print(f"FAIL {what}")


def same(value, expected):
    """A 32-bit value read from FlatBuffers against a JSON number (None for null)."""
    if expected is None:
        return math.isnan(value)
    return np.float32(expected) == np.float32(value)


def times(block):
    """The block's times as the generated code makes them."""
    return pd.date_range(
        start=pd.to_datetime(block.Time(), unit="s", utc=True),
        end=pd.to_datetime(block.TimeEnd(), unit="s", utc=True),
        freq=pd.Timedelta(seconds=block.Interval()),
        inclusive="left",
    )


def compare(label, params, method):
    responses = openmeteo.weather_api(url, params=params, method=method)
    json_params = {key: (",".join(map(str, value)) if isinstance(value, list) else value)
                   for key, value in params.items()}
    json_params["timeformat"] = "unixtime"
    answer = requests.get(url, params=json_params, timeout=60)
    check(answer.status_code == 200, f"{label}: JSON status {answer.status_code} {answer.text[:200]}")
    documents = answer.json()
    if isinstance(documents, dict):
        documents = [documents]
    check(len(responses) == len(documents) == len(LATITUDES), f"{label}: {len(responses)} messages")
    for index, (response, document) in enumerate(zip(responses, documents)):
        where = f"{label} location {index}"
        # As the generated code prints them.
        print(f"{where}: Coordinates {response.Latitude()}°N {response.Longitude()}°E, "
              f"Elevation {response.Elevation()} m asl, Timezone {response.Timezone()} "
              f"{response.TimezoneAbbreviation()}, Timezone difference to GMT+0 {response.UtcOffsetSeconds()} s")
        check(response.LocationId() == index, f"{where}: location_id {response.LocationId()}")
        check(same(response.Latitude(), document["latitude"]), f"{where}: latitude")
        check(same(response.Longitude(), document["longitude"]), f"{where}: longitude")
        check(same(response.Elevation(), document["elevation"]), f"{where}: elevation")
        check(response.UtcOffsetSeconds() == document["utc_offset_seconds"], f"{where}: utc_offset_seconds")
        check(response.Timezone().decode() == document["timezone"], f"{where}: timezone")
        check(response.TimezoneAbbreviation().decode() == document["timezone_abbreviation"],
              f"{where}: timezone_abbreviation")

        current = response.Current()
        check(current.Time() == document["current"]["time"], f"{where}: current time")
        for position, name in enumerate(CURRENT):
            value = current.Variables(position).Value()
            check(same(value, document["current"][name]), f"{where}: current {name} {value} vs {document['current'][name]}")

        for block_name, block, names in (("hourly", response.Hourly(), HOURLY),
                                         ("minutely_15", response.Minutely15(), MINUTELY)):
            frame = {"date": times(block)}
            for position, name in enumerate(names):
                frame[name] = block.Variables(position).ValuesAsNumpy()
            frame = pd.DataFrame(data=frame)
            expected_times = [datetime.datetime.fromtimestamp(t, datetime.timezone.utc)
                              for t in document[block_name]["time"]]
            check(list(frame["date"]) == expected_times, f"{where}: {block_name} times")
            for name in names:
                values = list(frame[name])
                expected = document[block_name][name]
                check(len(values) == len(expected) and all(same(v, e) for v, e in zip(values, expected)),
                      f"{where}: {block_name} {name}")

        daily = response.Daily()
        frame = {"date": times(daily)}
        for position, name in enumerate(DAILY):
            variable = daily.Variables(position)
            frame[name] = variable.ValuesInt64AsNumpy() if name in ("sunrise", "sunset") else variable.ValuesAsNumpy()
        frame = pd.DataFrame(data=frame)
        check(len(frame) == len(document["daily"]["time"]), f"{where}: {len(frame)} days")
        check([int(t.timestamp()) for t in frame["date"]] == document["daily"]["time"], f"{where}: daily times")
        for name in DAILY:
            values = list(frame[name])
            expected = document["daily"][name]
            if name in ("sunrise", "sunset"):
                check([int(v) for v in values] == [e if e is not None else 2**63 - 1 for e in expected],
                      f"{where}: daily {name}")
            else:
                check(all(same(v, e) for v, e in zip(values, expected)) and len(values) == len(expected),
                      f"{where}: daily {name}")
    print(f"{label}: {len(responses)} locations read and compared")


base = {
    "latitude": LATITUDES,
    "longitude": LONGITUDES,
    "hourly": HOURLY,
    "daily": DAILY,
    "current": CURRENT,
    "minutely_15": MINUTELY,
    "timezone": "Europe/Lisbon",
}
today = datetime.datetime.now(datetime.timezone.utc).date()
for method in ("GET", "POST"):
    compare(f"{method} forecast_days=3 past_days=1", {**base, "forecast_days": 3, "past_days": 1}, method)
    compare(f"{method} start_date/end_date",
            {**base, "start_date": str(today), "end_date": str(today + datetime.timedelta(days=2))}, method)

# An error reaches the client as Open-Meteo's does: a 400 with its JSON reason.
try:
    openmeteo.weather_api(url, params={**base, "hourly": ["temperature_2m", "rainbow"]})
    check(False, "an unknown variable was not refused")
except openmeteo_requests.OpenMeteoRequestsError as error:
    check("rainbow" in str(error), f"the refusal names the variable: {error}")

versions = ", ".join(f"{p} {importlib.metadata.version(p)}"
                     for p in ("openmeteo-requests", "openmeteo-sdk", "requests-cache", "retry-requests", "pandas"))
if failures:
    print(f"client-check openmeteo-requests: {len(failures)} of {checked} checks FAILED ({versions})")
    sys.exit(1)
print(f"client-check openmeteo-requests: all {checked} checks passed ({versions})")
