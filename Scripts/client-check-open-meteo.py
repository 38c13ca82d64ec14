"""Checks nwpcube's /v1/forecast and /v1/search with a real Open-Meteo client.

Run by Scripts/client-check inside a throwaway virtual environment that has the PyPI
package `open-meteo` (the asynchronous client Home Assistant uses). The client's base
URLs are fixed to Open-Meteo's hosts, so its one request method is wrapped to send the
same path and query to the local server instead. Everything else is the client's own:
the parameters it sends, the models it parses with, the errors it raises.

Usage: client-check-open-meteo.py BASE_URL
"""

import asyncio
import dataclasses
import datetime
import importlib.metadata
import math
import sys
import typing

from yarl import URL

from open_meteo import OpenMeteo, OpenMeteoResponseError
from open_meteo.models import DailyParameters, HourlyParameters, WindSpeedUnit, TemperatureUnit

BASE = URL(sys.argv[1])

# The Open-Meteo variables nwpcube derives (shared/CLIENTS.md §1), by the client's names.
HOURLY = [
    "temperature_2m", "relative_humidity_2m", "dew_point_2m", "apparent_temperature",
    "precipitation_probability", "precipitation", "rain", "showers", "snowfall", "weather_code",
    "pressure_msl", "surface_pressure", "cloud_cover", "cloud_cover_low", "cloud_cover_mid",
    "cloud_cover_high", "visibility", "wind_speed_10m", "wind_direction_10m", "wind_gusts_10m",
    "shortwave_radiation", "is_day",
]
DAILY = [
    "weather_code", "temperature_2m_max", "temperature_2m_min", "apparent_temperature_max",
    "apparent_temperature_min", "sunrise", "sunset", "daylight_duration", "precipitation_sum",
    "rain_sum", "showers_sum", "snowfall_sum", "precipitation_hours", "precipitation_probability_max",
    "wind_speed_10m_max", "wind_gusts_10m_max", "wind_direction_10m_dominant",
    "shortwave_radiation_sum",
]
# Points inside the sample run's domain: Lisbon, Porto, Évora, Faro, Bragança.
POINTS = [(38.7223, -9.1393), (41.1579, -8.6291), (38.5714, -7.9135), (37.0194, -7.9322), (41.8061, -6.7567)]

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL {what}")


class LocalOpenMeteo(OpenMeteo):
    """The client with its hosts replaced by the local server."""

    async def _request(self, url):
        local = BASE.with_path(url.path).with_query(url.query)
        return await super()._request(local)


def parameter(enum, name):
    """The client's enum member for a name: proves the client itself knows the variable."""
    return enum(name)


def expected_type(cls, field):
    hints = typing.get_type_hints(cls)
    return hints[field]


def conforms(value, hint):
    """Whether a parsed value has the type the client's model declares (None allowed)."""
    if value is None:
        return True
    args = typing.get_args(hint)
    types = [a for a in args if a is not type(None)] or [hint]
    for t in types:
        origin = typing.get_origin(t)
        if origin is list:
            return isinstance(value, list)
        if t is float and isinstance(value, (int, float)):
            return True
        if isinstance(t, type) and isinstance(value, t):
            return True
    return False


def check_section(section, units, names, count, label):
    check(section is not None, f"{label}: section parsed")
    if section is None:
        return
    for name in names:
        values = getattr(section, name, None)
        check(values is not None, f"{label}: {name} parsed")
        if values is None:
            continue
        hint = expected_type(type(section), name)
        if isinstance(values, list):
            check(len(values) == count, f"{label}: {name} has {len(values)} values, expected {count}")
            inner = typing.get_args([a for a in typing.get_args(hint) if a is not type(None)][0])[0]
            missing = sum(v is None for v in values)
            check(missing == 0, f"{label}: {name} has {missing} nulls")
            bad = [v for v in values if not conforms(v, inner)]
            check(not bad, f"{label}: {name} values of the wrong type, e.g. {bad[:3]} for {inner}")
            numbers = [v for v in values if isinstance(v, float)]
            check(all(math.isfinite(v) for v in numbers), f"{label}: {name} finite")
        else:
            check(conforms(values, hint), f"{label}: {name} = {values!r} is not {hint}")
        # Open-Meteo labels is_day with an empty unit; every other variable has one.
        unit = getattr(units, name, None)
        check(unit is not None and (unit != "" or name == "is_day"), f"{label}: unit of {name}: {unit!r}")


async def main():
    async with LocalOpenMeteo() as client:
        # Every variable the client knows by these names: a typo here would be a ValueError.
        hourly = [parameter(HourlyParameters, n) for n in HOURLY]
        daily = [parameter(DailyParameters, n) for n in DAILY]
        for latitude, longitude in POINTS:
            label = f"({latitude}, {longitude})"
            forecast = await client.forecast(
                latitude=latitude, longitude=longitude, timezone="Europe/Lisbon", current=hourly,
                hourly=hourly, daily=daily, forecast_days=3)
            check(isinstance(forecast.elevation, float), f"{label}: elevation is a number")
            check(forecast.timezone == "Europe/Lisbon", f"{label}: timezone {forecast.timezone}")
            check(forecast.timezone_abbreviation in ("WET", "WEST"), f"{label}: abbreviation {forecast.timezone_abbreviation}")
            check(forecast.utc_offset_seconds in (0, 3600), f"{label}: offset {forecast.utc_offset_seconds}")
            check(forecast.hourly is not None and len(forecast.hourly.time) == 72, f"{label}: 72 hours")
            if forecast.hourly is not None:
                times = forecast.hourly.time
                check(all(isinstance(t, datetime.datetime) for t in times), f"{label}: hourly times parse")
                check(times[0].hour == 0 and times[0].minute == 0, f"{label}: starts at local midnight, {times[0]}")
            check_section(forecast.hourly, forecast.hourly_units, HOURLY, 72, f"{label} hourly")
            check_section(forecast.daily, forecast.daily_units, DAILY, 3, f"{label} daily")
            check_section(forecast.current, forecast.current_units, HOURLY, None, f"{label} current")
            if forecast.current is not None:
                check(forecast.current.interval == 900, f"{label}: current interval {forecast.current.interval}")
            if forecast.daily is not None:
                check(all(isinstance(t, datetime.date) for t in forecast.daily.time), f"{label}: daily dates parse")

        # Units: the same hours in Fahrenheit and m/s agree with Celsius and km/h.
        lat, lon = POINTS[0]
        base = await client.forecast(latitude=lat, longitude=lon, hourly=hourly[:1] + [HourlyParameters("wind_speed_10m")], forecast_days=1)
        other = await client.forecast(
            latitude=lat, longitude=lon, hourly=hourly[:1] + [HourlyParameters("wind_speed_10m")], forecast_days=1,
            temperature_unit=TemperatureUnit.FAHRENHEIT, wind_speed_unit=WindSpeedUnit.METERS_PER_SECOND)
        for c, f in zip(base.hourly.temperature_2m, other.hourly.temperature_2m):
            check(abs(c * 9 / 5 + 32 - f) <= 0.2, f"fahrenheit: {c} °C vs {f} °F")
        for k, m in zip(base.hourly.wind_speed_10m, other.hourly.wind_speed_10m):
            check(abs(k / 3.6 - m) <= 0.1, f"wind: {k} km/h vs {m} m/s")
        check(base.hourly_units.wind_speed_10m == "km/h", f"default wind unit {base.hourly_units.wind_speed_10m}")

        # The point's own zone.
        auto = await client.forecast(latitude=lat, longitude=lon, timezone="auto", hourly=hourly[:1], forecast_days=1)
        check(auto.timezone == "Europe/Lisbon", f"timezone=auto gives {auto.timezone}")

        # A variable nwpcube cannot derive: the client raises the API's reason.
        try:
            await client.forecast(latitude=lat, longitude=lon, hourly=[HourlyParameters("soil_moisture_0_to_1cm")])
            check(False, "an underivable variable is refused")
        except OpenMeteoResponseError as error:
            check("soil_moisture_0_to_1cm" in str(error), f"the refusal names the variable: {error}")

        # Places by name, with GeoNames' ids.
        for name, geonames_id in [("lisboa", 2267057), ("Lisbon", 2267057), ("evora", 2268406), ("porto", 2735943)]:
            found = await client.geocoding(name=name, count=5)
            ids = [r.geo_id for r in (found.results or [])]
            check(ids[:1] == [geonames_id], f"search {name!r}: {ids[:3]}, expected {geonames_id} first")
        nothing = await client.geocoding(name="zzzzqqq")
        check(not nothing.results, "a name matching nothing gives no results")

    print(f"client-check (open-meteo {importlib.metadata.version('open-meteo')}): "
          f"{len(failures)} failure(s)")
    return 1 if failures else 0


sys.exit(asyncio.run(main()))
