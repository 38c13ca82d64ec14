"""Checks nwpcube's Dark Sky route with a real Dark Sky client.

Run by Scripts/client-check inside a throwaway virtual environment that has the PyPI
package `pirateweather` (Pirate Weather's maintained Python client; Pirate Weather
serves Dark Sky's API). The client's hosts are fixed in an enumeration, so its one URL
method is wrapped to put the local server's base URL in place of the host; everything
else is the client's own: the path and query it builds, the units and exclusions it
sends, the classes it parses the answer into.

Every field the client exposes (currently, minutely, hourly, daily, alerts, flags, and
the top-level ones) is compared with the server's own JSON for the same request, for
requests with and without units, extend and exclude, and a Time Machine request. For a
forecast from now, that JSON is the body the client itself received (recorded by a hook
on its HTTP session): `currently` is the request's second, so a second request would
describe another instant. A Time Machine answer names its instant, so it is fetched again
independently and must agree.

Usage: client-check-darksky.py BASE_URL
"""

import datetime
import importlib.metadata
import json
import sys
import urllib.request

from pirate_weather.api import PirateWeather, PirateWeatherApiVersion
from pirate_weather.exceptions import PirateWeatherException
from pirate_weather.forecast import (
    Alert, CurrentlyForecast, DailyForecastItem, Flags, HourlyForecastItem, MinutelyForecastItem,
)
from pirate_weather.types.units import Units
from pirate_weather.types.weather import Weather

BASE = sys.argv[1].rstrip("/")
KEY = "client-check"
# Points inside the sample run's domain: Lisbon, Porto, Évora.
POINTS = [(38.7223, -9.1393), (41.1579, -8.6291), (38.5714, -7.9135)]

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL {what}")


class LocalPirateWeather(PirateWeather):
    """The client with its hosts replaced by the local server, and the last answer's body
    and URL recorded as the client's HTTP session received them."""

    def __init__(self, key):
        super().__init__(key)
        self.received = None
        self.request_manager.session.hooks["response"].append(self.record)

    def record(self, response, *args, **kwargs):
        self.received = (response.url, json.loads(response.content))

    def get_url(self, latitude, longitude, time=None, api_version=PirateWeatherApiVersion.BASE, **params):
        url = super().get_url(latitude, longitude, time, api_version, **params)
        return BASE + "/forecast" + url[len(api_version.value):]


def server_json(latitude, longitude, time=None, **query):
    """The server's own answer to the request the client makes."""
    location = f"{latitude},{longitude}" + (f",{time}" if time is not None else "")
    pairs = "&".join(f"{name}={value}" for name, value in query.items() if value is not None)
    url = f"{BASE}/forecast/{KEY}/{location}" + (f"?{pairs}" if pairs else "")
    with urllib.request.urlopen(url) as response:
        return json.load(response)


def received(client, *parts):
    """The body the client's last request got, after checking that its URL asked for
    `parts` (e.g. `units=si`)."""
    url, body = client.received
    for part in parts:
        check(part in url.replace("%2C", ","), f"the client's URL {url} lacks {part}")
    return body


def api_name(field):
    """Dark Sky's key for a client attribute: camelCase, `__` for a hyphen."""
    if field == "precipAccumulation":
        return field
    words = "-".join(field.split("__")).split("_")
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])


def fields(cls):
    return [name for name in getattr(cls, "__annotations__", {}) if name not in ("data", "sources_class")]


def compare(item, cls, expected, label):
    """Every field the client class exposes against the server's JSON object."""
    for field in fields(cls):
        got = getattr(item, field, None)
        want = expected.get(api_name(field))
        check(got == want, f"{label}.{field}: client {got!r}, server {want!r}")


# What nwpcube gives in each block (shared/CLIENTS.md §3): the client must see every one.
CURRENT = [
    "time", "summary", "icon", "precip_intensity", "precip_probability", "temperature", "apparent_temperature",
    "dew_point", "humidity", "pressure", "wind_speed", "wind_gust", "wind_bearing", "cloud_cover", "uv_index",
    "visibility",
]
DAILY = [
    "time", "summary", "icon", "sunrise_time", "sunset_time", "moon_phase", "precip_intensity",
    "precip_intensity_max", "precip_intensity_max_time", "precip_probability", "temperature_high",
    "temperature_high_time", "temperature_low", "temperature_low_time", "apparent_temperature_high",
    "apparent_temperature_low", "dew_point", "humidity", "pressure", "wind_speed", "wind_gust", "wind_gust_time",
    "wind_bearing", "cloud_cover", "uv_index", "visibility", "temperature_min", "temperature_min_time",
    "temperature_max", "temperature_max_time",
]
ICONS = {
    "clear-day", "clear-night", "rain", "snow", "sleet", "wind", "fog", "cloudy", "partly-cloudy-day",
    "partly-cloudy-night",
}


def check_forecast(forecast, expected, label, hours=None):
    check(forecast.latitude == expected["latitude"] and forecast.longitude == expected["longitude"], f"{label} point")
    check(forecast.timezone == expected["timezone"] and forecast.offset == expected["offset"], f"{label} zone")
    if "currently" in expected:
        compare(forecast.currently, CurrentlyForecast, expected["currently"], f"{label} currently")
        for field in CURRENT:
            check(getattr(forecast.currently, field) is not None, f"{label} currently.{field} missing")
        check(forecast.currently.icon in ICONS, f"{label} currently.icon {forecast.currently.icon}")
    for block, cls in (("minutely", MinutelyForecastItem), ("hourly", HourlyForecastItem), ("daily", DailyForecastItem)):
        parsed = getattr(forecast, block)
        if block not in expected:
            check(len(parsed.data) == 0, f"{label} {block} should be excluded")
            continue
        check(parsed.summary == expected[block]["summary"] and parsed.icon == expected[block]["icon"], f"{label} {block}")
        check(parsed.icon in ICONS, f"{label} {block}.icon {parsed.icon}")
        data = expected[block]["data"]
        check(len(parsed.data) == len(data) and len(data) > 0, f"{label} {block}: {len(parsed.data)} of {len(data)}")
        for index, (item, want) in enumerate(zip(parsed.data, data)):
            compare(item, cls, want, f"{label} {block}[{index}]")
            if block == "daily":
                for field in DAILY:
                    check(getattr(item, field) is not None, f"{label} daily[{index}].{field} missing")
    if "minutely" in expected:
        check(len(forecast.minutely.data) == 61, f"{label} minutely has {len(forecast.minutely.data)} minutes")
    if hours is not None:
        check(len(forecast.hourly.data) == hours, f"{label} hourly has {len(forecast.hourly.data)}, not {hours}")
    check(len(forecast.alerts) == len(expected.get("alerts", [])), f"{label} alerts")
    for index, (alert, want) in enumerate(zip(forecast.alerts, expected.get("alerts", []))):
        compare(alert, Alert, want, f"{label} alerts[{index}]")
    if "flags" in expected:
        compare(forecast.flags, Flags, expected["flags"], f"{label} flags")
        check(forecast.flags.nearest__station == 0, f"{label} flags.nearest-station")


def main():
    version = importlib.metadata.version("pirateweather")
    client = LocalPirateWeather(KEY)
    requests_made = 0
    for latitude, longitude in POINTS:
        # The client's default: units=auto (si in Portugal), every block.
        forecast = client.get_forecast(latitude, longitude)
        expected = received(client, "units=auto")
        check_forecast(forecast, expected, f"{latitude},{longitude} auto", hours=48)
        check(forecast.flags.units == "si", f"auto in Portugal gave {forecast.flags.units}")
        requests_made += 1
        # Noon UTC today, inside the runs, for the Time Machine requests.
        noon = datetime.datetime.now(datetime.timezone.utc).replace(hour=12, minute=0, second=0, microsecond=0)
        si_past = client.get_time_machine_forecast(latitude, longitude, noon, values_units=Units.SI)
        requests_made += 1
        for units, name in ((Units.US, "us"), (Units.SI, "si"), (Units.CA, "ca"), (Units.UK, "uk2")):
            forecast = client.get_forecast(latitude, longitude, values_units=units, extend=True)
            expected = received(client, f"units={units.value}", "extend=hourly")
            check_forecast(forecast, expected, f"{latitude},{longitude} {name} extend")
            check(forecast.flags.units == name, f"{name}: flags.units {forecast.flags.units}")
            check(48 < len(forecast.hourly.data) <= 168, f"extend gave {len(forecast.hourly.data)} hours")
            # The same instant in two unit systems, through the client: exact factors. A
            # Time Machine time names the instant (`currently` from now is the request's
            # second, so two requests would describe two instants); the tolerance is the two
            # answers' rounding to 0.01, the SI one scaled by the factor.
            past = client.get_time_machine_forecast(latitude, longitude, noon, values_units=units)
            c, got = si_past.currently.temperature, past.currently.temperature
            want = c * 1.8 + 32 if name == "us" else c
            check(abs(got - want) <= 0.005 * 1.8 + 0.005 + 1e-9, f"{name} temperature {got} for {c} °C")
            ms, wind = si_past.currently.wind_speed, past.currently.wind_speed
            factor = {"us": 1 / 0.44704, "si": 1, "ca": 3.6, "uk2": 1 / 0.44704}[name]
            check(abs(wind - ms * factor) <= 0.005 * factor + 0.005 + 1e-9, f"{name} wind {wind} for {ms} m/s")
            requests_made += 2
        excluded = client.get_forecast(latitude, longitude, exclude=[Weather.MINUTELY, Weather.HOURLY])
        expected = received(client, "exclude=minutely")
        check("hourly" not in expected and "minutely" not in expected, "exclude kept blocks")
        check_forecast(excluded, expected, f"{latitude},{longitude} exclude")
        requests_made += 1
        # Time Machine, with the client's default units.
        past = client.get_time_machine_forecast(latitude, longitude, noon)
        expected = server_json(latitude, longitude, int(noon.timestamp()), lang="en", units="auto")
        check_forecast(past, expected, f"{latitude},{longitude} time machine")
        check(past.currently.time == int(noon.timestamp()), "time machine currently.time")
        check(len(past.daily.data) == 1, "time machine daily has one day")
        requests_made += 1
    # A time outside every run: the client raises its error with Dark Sky's shape.
    try:
        client.get_time_machine_forecast(38.7223, -9.1393, datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc))
        check(False, "a time outside every run was answered")
    except PirateWeatherException as error:
        text = str(error)
        check("400" in text and "outside every run" in text, f"time machine error: {text}")
    requests_made += 1
    if failures:
        print(f"client-check: pirateweather {version}: {len(failures)} failures")
        sys.exit(1)
    print(f"client-check: pirateweather {version}: {requests_made} requests, every field agrees with the server")


main()
