#!/usr/bin/env python3
"""The scale benchmark's helper (Benchmarks/scale): its deterministic inputs and measurements.

Subcommands:
  wrf DIR      a WRF-like 800 x 700 run at 3 km on a Lambert conformal grid, one wrfout
               file per hour (classic 64-bit offset, as WRF writes), the variables and
               attributes the bundled sample run has (Sources/SampleRun), 5 model levels.
  cf DIR       a global 0.25 degree CF run (1440 x 721, latitudes -90..90, longitudes
               0..359.75), one uncompressed classic file per hour, ERA5 short names with
               standard_name and CF units.
  shift DIR H  sets the CF files' time axis to start H hours after the generated run's
               start (the values only, in place), so that one input makes distinct runs.
  dropcache F  posix_fadvise(DONTNEED) over each file given, after fsync: the next read
               comes from the disk.
  measure OUT -- CMD...
               runs CMD and writes its wall time, CPU time, peak RSS (GNU time) and the bytes it wrote
               (write_bytes and cancelled_write_bytes of /proc/self/io, which the kernel adds
               from a reaped child to its parent) as JSON to OUT.
  health URL PID TIMEOUT
               polls URL until it answers 200; prints the seconds from the process's start
               (read from /proc) and its VmRSS in KiB then, as JSON.
  requests URL N
               N sequential GETs on one keep-alive connection; prints median and p99 ms.
  report DIR   gathers the files Benchmarks/scale wrote under DIR into results.json and a
               Markdown table, results.md.

Every field is a smooth function of place and time plus seeded noise, so a run is the
same on every machine; the values stay inside the ingest's plausible ranges
(Sources/Ingest/InputRange.swift). This is a benchmark's generator, not product code.
"""

import http.client
import json
import math
import os
import resource
import subprocess
import sys
import time
import urllib.parse

# numpy is imported by the generators only: `measure` forks this process, and the fork's
# resident size counts in the child's peak RSS that getrusage reports.
np = None

RUN_START = (2026, 6, 20, 0)
EARTH_RADIUS = 6_370_000.0  # WRF's sphere, as Sources/GridGeometry/LambertConformal.swift
G = 9.81


def _smooth_noise(rng, shape, scale):
    """Smooth random field: a few random sinusoids of wavelength about `scale` cells."""
    h, w = shape
    y = np.arange(h, dtype=np.float32)[:, None]
    x = np.arange(w, dtype=np.float32)[None, :]
    out = np.zeros(shape, dtype=np.float32)
    for _ in range(6):
        kx, ky = rng.normal(0, 2 * math.pi / scale, 2)
        phase = rng.uniform(0, 2 * math.pi)
        out += np.cos(kx * x + ky * y + phase).astype(np.float32)
    return out / 6


# ---------------------------------------------------------------- WRF


def _lambert(width, height, dx, cen_lat, cen_lon, truelat1, truelat2, stand_lon):
    """Latitudes and longitudes of a grid centred on (cen_lat, cen_lon), WRF's Lambert."""
    p1, p2 = math.radians(truelat1), math.radians(truelat2)
    n = (math.log(math.cos(p1)) - math.log(math.cos(p2))) / (
        math.log(math.tan(math.pi / 4 + p2 / 2)) - math.log(math.tan(math.pi / 4 + p1 / 2))
    )
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n

    def rho(lat):
        return EARTH_RADIUS * f / np.tan(np.pi / 4 + np.radians(lat) / 2) ** n

    theta_c = n * math.radians(cen_lon - stand_lon)
    r_c = float(rho(cen_lat))
    xc, yc = r_c * math.sin(theta_c), -r_c * math.cos(theta_c)
    i = np.arange(width, dtype=np.float64)[None, :]
    j = np.arange(height, dtype=np.float64)[:, None]
    x = xc + (i - (width - 1) / 2) * dx
    y = yc + (j - (height - 1) / 2) * dx
    r = np.sign(n) * np.sqrt(x * x + y * y)
    lon = stand_lon + np.degrees(np.arctan2(x, -y)) / n
    lat = np.degrees(2 * np.arctan((EARTH_RADIUS * f / r) ** (1 / n)) - np.pi / 2)
    return lat, lon, n


def wrf(out, width=800, height=700, hours=25, dx=3000.0, levels=5):
    os.makedirs(out, exist_ok=True)
    import netCDF4

    cen_lat, cen_lon, t1, t2, slon = 40.0, -4.0, 30.0, 60.0, -4.0
    lat, lon, cone = _lambert(width, height, dx, cen_lat, cen_lon, t1, t2, slon)
    rng = np.random.default_rng(29)
    shape = (height, width)
    relief = np.clip(_smooth_noise(rng, shape, 120) * 1800 + 300, 0, 2500).astype(np.float32)
    land = (relief > 120).astype(np.float32)
    hgt = np.where(land > 0, relief, 0).astype(np.float32)
    alpha = np.radians((lon - slon) * cone)
    cosa, sina = np.cos(alpha).astype(np.float32), np.sin(alpha).astype(np.float32)
    warm = _smooth_noise(rng, shape, 200)
    moist = _smooth_noise(rng, shape, 150)
    storm_a = _smooth_noise(rng, shape, 60)
    storm_b = _smooth_noise(rng, shape, 90)
    eta = np.array([0.99, 0.93, 0.8, 0.6, 0.35][:levels], dtype=np.float32)
    eta_stag = np.concatenate([[1.0], (eta[:-1] + eta[1:]) / 2, [0.2]]).astype(np.float32)
    ptop = 5000.0
    rainc = np.zeros(shape, np.float32)
    rainnc = np.zeros(shape, np.float32)
    rainsh = np.zeros(shape, np.float32)
    snownc = np.zeros(shape, np.float32)
    y0, m0, d0, h0 = RUN_START
    for hour in range(hours):
        hh = h0 + hour
        day = d0 + hh // 24
        stamp = f"{y0:04d}-{m0:02d}-{day:02d}_{hh % 24:02d}:00:00"
        path = os.path.join(out, f"wrfout_d01_{stamp}")
        tmp = path + ".part"
        phase = 2 * math.pi * hour / 24
        # Diurnal cycle by local solar time: warmest about 15 h.
        solar = np.cos(phase + np.radians(lon) - math.radians(15 * 15)).astype(np.float32)
        t2f = (293 + 6 * warm + 5 * solar - 0.0065 * hgt).astype(np.float32)
        psfc = (101_300 * np.exp(-hgt / 8400) + 300 * warm).astype(np.float32)
        q2 = np.clip(0.006 + 0.002 * moist, 0.001, 0.02).astype(np.float32)
        u10 = (6 * np.cos(phase / 2) + 5 * storm_b).astype(np.float32)
        v10 = (4 * np.sin(phase / 3) + 5 * storm_a).astype(np.float32)
        shift = hour * 2  # rain moves east by 2 cells an hour
        band = np.roll(storm_a, shift, axis=1) + 0.5 * np.roll(storm_b, shift // 2, axis=0)
        rate = np.clip(band - 0.35, 0, None) * 12
        rainnc += (0.7 * rate).astype(np.float32)
        rainc += (0.3 * rate * (solar > 0)).astype(np.float32)
        rainsh += (0.05 * rate).astype(np.float32)
        snownc += np.where(t2f < 273.15, 0.5 * rate, 0).astype(np.float32)
        # Kept files are skipped only here: the accumulations above must include their hours.
        if os.path.exists(path):
            continue
        sw = np.clip(900 * solar, 0, None) * (1 - np.clip(band, 0, 0.8))
        pblh = np.clip(300 + 1200 * np.clip(solar, 0, None) + 200 * warm, 50, 3000).astype(np.float32)
        with netCDF4.Dataset(tmp, "w", format="NETCDF3_64BIT_OFFSET") as f:
            f.createDimension("Time", None)
            f.createDimension("DateStrLen", 19)
            f.createDimension("west_east", width)
            f.createDimension("south_north", height)
            f.createDimension("bottom_top", levels)
            f.createDimension("bottom_top_stag", levels + 1)
            f.createDimension("west_east_stag", width + 1)
            f.createDimension("south_north_stag", height + 1)
            attrs = {
                "TITLE": " OUTPUT FROM WRF V4.4 MODEL",
                "START_DATE": "2026-06-20_00:00:00",
                "SIMULATION_START_DATE": "2026-06-20_00:00:00",
                "WEST-EAST_GRID_DIMENSION": np.int32(width + 1),
                "SOUTH-NORTH_GRID_DIMENSION": np.int32(height + 1),
                "BOTTOM-TOP_GRID_DIMENSION": np.int32(levels + 1),
                "DX": np.float32(dx),
                "DY": np.float32(dx),
                "GRIDTYPE": "C",
                "BUCKET_MM": np.float32(-1),
                "GRID_ID": np.int32(1),
                "PARENT_ID": np.int32(0),
                "CEN_LAT": np.float32(cen_lat),
                "CEN_LON": np.float32(cen_lon),
                "TRUELAT1": np.float32(t1),
                "TRUELAT2": np.float32(t2),
                "MOAD_CEN_LAT": np.float32(cen_lat),
                "STAND_LON": np.float32(slon),
                "POLE_LAT": np.float32(90),
                "POLE_LON": np.float32(0),
                "MAP_PROJ": np.int32(1),
                "MAP_PROJ_CHAR": "Lambert Conformal",
            }
            f.setncatts(attrs)
            times = f.createVariable("Times", "S1", ("Time", "DateStrLen"))
            times[0, :] = np.array(list(stamp), dtype="S1")
            xtime = f.createVariable("XTIME", "f4", ("Time",))
            xtime.units = "minutes since 2026-06-20 00:00:00"
            xtime.description = xtime.units
            xtime[0] = hour * 60.0
            two_d = [
                ("XLAT", lat.astype(np.float32), "degree_north"),
                ("XLONG", lon.astype(np.float32), "degree_east"),
                ("PBLH", pblh, "m"),
                ("Q2", q2, "kg kg-1"),
                ("T2", t2f, "K"),
                ("PSFC", psfc, "Pa"),
                ("U10", u10, "m s-1"),
                ("V10", v10, "m s-1"),
                ("LANDMASK", land, ""),
                ("HGT", hgt, "m"),
                ("RAINC", rainc, "mm"),
                ("RAINSH", rainsh, "mm"),
                ("RAINNC", rainnc, "mm"),
                ("SNOWNC", snownc, "mm"),
                ("SWDOWN", sw.astype(np.float32), "W m-2"),
                ("COSALPHA", cosa, ""),
                ("SINALPHA", sina, ""),
            ]
            pb = (eta[:, None, None] * (psfc - ptop) + ptop).astype(np.float32)
            pert = (50 * warm)[None].astype(np.float32) * np.ones((levels, 1, 1), np.float32)
            p = pb + pert
            t_level = t2f[None] - 0.0065 * (8400 * np.log(psfc[None] / p))
            theta = t_level * (100_000 / p) ** 0.2857
            qv = np.clip(q2[None] * eta[:, None, None] ** 3, 1e-6, 0.05).astype(np.float32)
            wet = np.clip(band, 0, 1)[None] * np.exp(-((eta[:, None, None] - 0.75) ** 2) / 0.05)
            qcloud = (0.0008 * wet).astype(np.float32)
            qrain = (0.0005 * wet * (rate[None] > 0)).astype(np.float32)
            cold = (eta < 0.65)[:, None, None]
            qice = (0.0002 * wet * cold).astype(np.float32)
            qsnow = (0.0003 * wet * cold).astype(np.float32)
            cldfra = np.clip(wet * 1.5, 0, 1).astype(np.float32)
            three_d = [
                ("P", pert, "Pa"),
                ("PB", pb, "Pa"),
                ("T", (theta - 300).astype(np.float32), "K"),
                ("QVAPOR", qv, "kg kg-1"),
                ("QCLOUD", qcloud, "kg kg-1"),
                ("QRAIN", qrain, "kg kg-1"),
                ("QICE", qice, "kg kg-1"),
                ("QSNOW", qsnow, "kg kg-1"),
                ("CLDFRA", cldfra, ""),
            ]
            for name, data, units in two_d[:2]:
                v = f.createVariable(name, "f4", ("Time", "south_north", "west_east"))
                v.units = units
                v.MemoryOrder = "XY "
                v[0] = data
            for name, data, units in three_d:
                v = f.createVariable(name, "f4", ("Time", "bottom_top", "south_north", "west_east"))
                v.units = units
                v.MemoryOrder = "XYZ"
                v[0] = data
            grow = (1 + 0.4 * (1 - eta))[:, None, None]
            uu = f.createVariable("U", "f4", ("Time", "bottom_top", "south_north", "west_east_stag"))
            uu.units, uu.stagger = "m s-1", "X"
            ue = np.concatenate([u10, u10[:, -1:]], axis=1)
            uu[0] = (ue[None] * grow).astype(np.float32)
            vv = f.createVariable("V", "f4", ("Time", "bottom_top", "south_north_stag", "west_east"))
            vv.units, vv.stagger = "m s-1", "Y"
            ve = np.concatenate([v10, v10[-1:, :]], axis=0)
            vv[0] = (ve[None] * grow).astype(np.float32)
            z_stag = hgt[None] + (8400 * np.log(1 / eta_stag))[:, None, None]
            ph = f.createVariable("PH", "f4", ("Time", "bottom_top_stag", "south_north", "west_east"))
            ph.units, ph.stagger = "m2 s-2", "Z"
            ph[0] = (G * 20 * warm)[None].astype(np.float32) * np.ones((levels + 1, 1, 1), np.float32)
            phb = f.createVariable("PHB", "f4", ("Time", "bottom_top_stag", "south_north", "west_east"))
            phb.units, phb.stagger = "m2 s-2", "Z"
            phb[0] = (G * z_stag).astype(np.float32)
            for name, data, units in two_d[2:]:
                v = f.createVariable(name, "f4", ("Time", "south_north", "west_east"))
                v.units = units
                v.MemoryOrder = "XY "
                v[0] = data
        os.replace(tmp, path)
        print(f"wrote {path}", file=sys.stderr)


# ---------------------------------------------------------------- CF


def cf(out, hours=121):
    os.makedirs(out, exist_ok=True)
    import netCDF4

    nlat, nlon = 721, 1440
    lat = np.linspace(-90, 90, nlat, dtype=np.float64)
    lon = np.arange(nlon, dtype=np.float64) * 0.25
    rng = np.random.default_rng(2029)
    shape = (nlat, nlon)
    latg = np.radians(lat)[:, None].astype(np.float32)
    long_ = np.radians(lon)[None, :].astype(np.float32)
    coslat = np.cos(latg)
    relief = np.clip(_smooth_noise(rng, shape, 80) * 2500 + 100, 0, 5000).astype(np.float32)
    lsm = (relief > 150).astype(np.float32)
    orog = np.where(lsm > 0, relief, 0).astype(np.float32)
    warm = _smooth_noise(rng, shape, 120)
    moist = _smooth_noise(rng, shape, 100)
    storm_a = _smooth_noise(rng, shape, 40)
    storm_b = _smooth_noise(rng, shape, 70)
    base_t = (250 + 50 * coslat**2 - 0.0065 * orog + 4 * warm).astype(np.float32)
    units = "hours since 2026-06-20 00:00:00"
    quantities = [
        ("t2m", "air_temperature", "K", 2.0),
        ("d2m", "dew_point_temperature", "K", 2.0),
        ("u10", "eastward_wind", "m s-1", 10.0),
        ("v10", "northward_wind", "m s-1", 10.0),
        ("msl", "air_pressure_at_mean_sea_level", "Pa", None),
        ("sp", "surface_air_pressure", "Pa", None),
        ("tp", "precipitation_amount", "m", None),
        ("tcc", "cloud_area_fraction", "1", None),
        ("ssrd", "surface_downwelling_shortwave_flux_in_air", "W m-2", None),
    ]
    for hour in range(hours):
        path = os.path.join(out, f"global_{hour:03d}.nc")
        if os.path.exists(path):
            continue
        tmp = path + ".part"
        phase = 2 * math.pi * hour / 24
        solar = (coslat * np.cos(phase + long_ - math.pi)).astype(np.float32)
        shift = hour * 3  # weather moves east by 3 cells (0.75 degree) an hour
        band = np.roll(storm_a, shift, axis=1) + 0.5 * np.roll(storm_b, shift, axis=1)
        t2m = base_t + 5 * solar
        d2m = t2m - np.clip(6 - 5 * moist, 0.5, None)
        u10 = 8 * np.cos(3 * latg) + 4 * band
        v10 = 5 * np.roll(storm_b, shift, axis=1) * coslat
        msl = 101_300 + 1500 * np.roll(warm, shift, axis=1)
        sp = msl * np.exp(-orog / 8400)
        tp = np.clip(band - 0.3, 0, None) * 0.004 * (0.3 + coslat)  # metres in the hour
        tcc = np.clip(0.3 + band, 0, 1)
        ssrd = np.clip(1000 * solar, 0, None) * (1 - 0.7 * tcc)
        values = [t2m, d2m, u10, v10, msl, sp, tp, tcc, ssrd]
        with netCDF4.Dataset(tmp, "w", format="NETCDF3_64BIT_OFFSET") as f:
            f.Conventions = "CF-1.7"
            f.title = "nwpcube scale benchmark: synthetic global 0.25 degree run"
            f.createDimension("time", None)
            f.createDimension("latitude", nlat)
            f.createDimension("longitude", nlon)
            t = f.createVariable("time", "f8", ("time",))
            t.units, t.standard_name, t.calendar = units, "time", "gregorian"
            # The run's start, so that `shift` can make distinct runs of one input.
            r = f.createVariable("forecast_reference_time", "f8", ())
            r.units, r.standard_name = units, "forecast_reference_time"
            la = f.createVariable("latitude", "f4", ("latitude",))
            la.units, la.standard_name = "degrees_north", "latitude"
            lo = f.createVariable("longitude", "f4", ("longitude",))
            lo.units, lo.standard_name = "degrees_east", "longitude"
            for name, std, unit, height in quantities:
                v = f.createVariable(name, "f4", ("time", "latitude", "longitude"))
                v.units, v.standard_name = unit, std
                if name == "tp":
                    v.cell_methods = "time: sum (interval: 1 hour)"
            for name, std, unit in [("orog", "surface_altitude", "m"), ("lsm", "land_binary_mask", "1")]:
                v = f.createVariable(name, "f4", ("latitude", "longitude"))
                v.units, v.standard_name = unit, std
            t[0] = float(hour)
            r.assignValue(0.0)
            la[:] = lat
            lo[:] = lon
            for (name, _, _, _), data in zip(quantities, values):
                f.variables[name][0] = data.astype(np.float32)
            f.variables["orog"][:] = orog
            f.variables["lsm"][:] = lsm
        os.replace(tmp, path)
        print(f"wrote {path}", file=sys.stderr)


def shift(out, hours):
    import netCDF4

    names = sorted(n for n in os.listdir(out) if n.startswith("global_") and n.endswith(".nc"))
    for name in names:
        step = int(name[len("global_") : -len(".nc")])
        with netCDF4.Dataset(os.path.join(out, name), "r+") as f:
            f.variables["time"][0] = float(hours + step)
            f.variables["forecast_reference_time"].assignValue(float(hours))


# ---------------------------------------------------------------- helpers


def dropcache(paths):
    for path in paths:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def _io():
    fields = {}
    with open("/proc/self/io") as f:
        for line in f:
            key, value = line.split(":")
            fields[key] = int(value)
    return fields


def measure(out, command):
    before = _io()
    start = time.monotonic()
    # GNU time reports the command's own peak RSS: this Python process's fork would
    # otherwise set a floor of its size under getrusage's figure.
    rss_file = out + ".rss"
    child = subprocess.run(
        ["/usr/bin/time", "-f", "%M", "-o", rss_file] + command,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    wall = time.monotonic() - start
    after = _io()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(rss_file) as f:
        rss = int(f.read().split()[-1])
    os.remove(rss_file)
    result = {
        "command": command,
        "status": child.returncode,
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "max_rss_kib": rss,
        "write_bytes": after["write_bytes"] - before["write_bytes"],
        "cancelled_write_bytes": after["cancelled_write_bytes"] - before["cancelled_write_bytes"],
        "stdout": child.stdout[-4000:],
        "stderr": child.stderr[-4000:],
    }
    with open(out, "w") as f:
        json.dump(result, f, indent=1)
    return child.returncode


def _start_seconds(pid):
    """Seconds since the process started, from /proc/PID/stat's start time in ticks."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[19])
    with open("/proc/uptime") as f:
        uptime = float(f.read().split()[0])
    return uptime - ticks / os.sysconf("SC_CLK_TCK")


def _rss(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return None


def health(url, pid, timeout):
    deadline = time.monotonic() + timeout
    parts = urllib.parse.urlsplit(url)
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=2)
            conn.request("GET", parts.path)
            status = conn.getresponse().status
            conn.close()
            if status == 200:
                # Uptime's resolution is 10 ms: the clock ticks of /proc/PID/stat.
                print(json.dumps({"start_s": _start_seconds(pid), "rss_kib": _rss(pid)}))
                return 0
        except OSError:
            pass
        time.sleep(0.002)
    print(json.dumps({"start_s": None, "rss_kib": _rss(pid), "error": f"no 200 from {url} in {timeout} s"}))
    return 1


def requests(url, count):
    parts = urllib.parse.urlsplit(url)
    target = parts.path + ("?" + parts.query if parts.query else "")
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    times = []
    for _ in range(count):
        start = time.perf_counter()
        conn.request("GET", target)
        response = conn.getresponse()
        response.read()
        times.append((time.perf_counter() - start) * 1000)
        if response.status != 200:
            print(json.dumps({"error": f"status {response.status} from {url}"}))
            return 1
    times.sort()
    print(json.dumps({"p50_ms": times[len(times) // 2], "p99_ms": times[int(len(times) * 0.99)]}))
    return 0


def _load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def _number(path):
    try:
        with open(path) as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _median(values):
    values = sorted(v for v in values if v is not None)
    if not values:
        return None
    mid = len(values) // 2
    return values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2


def _rounds(directory, prefix):
    names = sorted(n for n in os.listdir(directory) if n.startswith(prefix) and n.endswith(".json"))
    return [x for x in (_load(os.path.join(directory, n)) for n in names) if x]


def _bench(rounds):
    kinds = sorted({k for r in rounds for k in r})
    return {
        k: {q: _median([r[k].get(q) for r in rounds if k in r]) for q in ("p50_ns", "p99_ns")} for k in kinds
    }


def _ingest_rounds(directory, prefix):
    """The ingest's rounds (ingest-N.json; ingest.json in results of one round), the
    first failed one alone if any failed, and their medians otherwise."""
    rounds = _rounds(directory, f"{prefix}ingest-") or [
        x for x in [_load(os.path.join(directory, f"{prefix}ingest.json"))] if x
    ]
    if not rounds:
        return None
    failed = [r for r in rounds if r["status"] != 0]
    if failed:
        return failed[0]
    merged = dict(rounds[0])
    for key in ("wall_s", "cpu_s", "max_rss_kib", "write_bytes", "cancelled_write_bytes"):
        merged[key] = _median([r[key] for r in rounds])
    merged["rounds_wall_s"] = [r["wall_s"] for r in rounds]
    return merged


def _side(directory, prefix):
    ingest = _ingest_rounds(directory, prefix)
    cube = _number(os.path.join(directory, f"{prefix}cube-bytes"))
    query = []
    try:
        with open(os.path.join(directory, f"{prefix}query-us.txt")) as f:
            query = [int(line) / 1000 for line in f if line.strip()]
    except OSError:
        pass
    forecast = _rounds(directory, f"{prefix}forecast-")
    result = {
        "bench": _bench(_rounds(directory, f"{prefix}bench-")),
        "query_ms_median": _median(query),
        "query_ms_all": query,
        "forecast_p50_ms": _median([r.get("p50_ms") for r in forecast]),
        "forecast_p99_ms": _median([r.get("p99_ms") for r in forecast]),
        "cube_bytes": cube,
    }
    if ingest:
        result["ingest"] = {
            k: ingest[k]
            for k in ("status", "wall_s", "cpu_s", "max_rss_kib", "write_bytes", "cancelled_write_bytes", "rounds_wall_s")
            if k in ingest
        }
        if ingest["status"] != 0:
            errors = [line for line in ingest["stderr"].splitlines() if line.startswith("Error")]
            result["ingest"]["error"] = errors[-1] if errors else ingest["stderr"][-300:]
        if cube:
            result["written_per_cube"] = ingest["write_bytes"] / cube
    return result


def _fmt(value, digits=1):
    return "–" if value is None else f"{value:,.{digits}f}"


def report(directory):
    sizes = {}
    for size in ("9km", "3km", "global25", "global121"):
        d = os.path.join(directory, size)
        if not os.path.isdir(d):
            continue
        entry = {"input_files": _number(os.path.join(d, "input-files")), "input_bytes": _number(os.path.join(d, "input-bytes"))}
        entry["this"] = _side(d, "")
        if os.path.exists(os.path.join(d, "baseline-cube-bytes")):
            entry["baseline"] = _side(d, "baseline-")
        ncrcat = _rounds(d, "ncrcat-") or [x for x in [_load(os.path.join(d, "ncrcat.json"))] if x]
        if ncrcat:
            entry["ncrcat_wall_s"] = _median([r["wall_s"] for r in ncrcat])
            entry["ncrcat_rounds_wall_s"] = [r["wall_s"] for r in ncrcat]
            ingest = entry["this"].get("ingest")
            if ingest:
                entry["ingest_per_ncrcat"] = ingest["wall_s"] / entry["ncrcat_wall_s"]
        sizes[size] = entry
    serve = {}
    d = os.path.join(directory, "serve8")
    if os.path.isdir(d):
        for label in ("this", "baseline"):
            warm, cold = _rounds(d, f"{label}-warm-"), _rounds(d, f"{label}-cold-")
            if not warm and not cold:
                continue
            serve[label] = {
                "store_bytes": _number(os.path.join(d, f"{label}-store-bytes")),
                "warm_start_s": _median([r.get("start_s") for r in warm]),
                "warm_rss_kib": _median([r.get("rss_kib") for r in warm]),
                "cold_start_s": _median([r.get("start_s") for r in cold]),
                "cold_rss_kib": _median([r.get("rss_kib") for r in cold]),
                "all": {"warm": warm, "cold": cold},
            }
    result = {"sizes": sizes, "serve8": serve}
    with open(os.path.join(directory, "results.json"), "w") as f:
        json.dump(result, f, indent=1)

    lines = [
        "| size | input | ingest s | CPU s | peak RSS MiB | written GB | cube GB | written / cube | ncrcat s | ingest / ncrcat | nearest p50 / p99 ns | query ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    failures = []
    for size, e in sizes.items():
        t = e["this"]
        i = t.get("ingest", {})
        if i.get("error"):
            failures.append(f"- {size}: ingest failed after {_fmt(i.get('wall_s'))} s: {i['error']}")
            continue
        near = t["bench"].get("nearest", {})
        lines.append(
            f"| {size} | {e['input_files']} files, {_fmt((e['input_bytes'] or 0) / 1e9, 2)} GB"
            f" | {_fmt(i.get('wall_s'))} | {_fmt(i.get('cpu_s'))} | {_fmt((i.get('max_rss_kib') or 0) / 1024, 0)}"
            f" | {_fmt((i.get('write_bytes') or 0) / 1e9, 2)} | {_fmt((t['cube_bytes'] or 0) / 1e9, 3)}"
            f" | {_fmt(t.get('written_per_cube'), 2)} | {_fmt(e.get('ncrcat_wall_s'))} | {_fmt(e.get('ingest_per_ncrcat'), 2)}"
            f" | {_fmt(near.get('p50_ns'), 0)} / {_fmt(near.get('p99_ns'), 0)} | {_fmt(t['query_ms_median'])} |"
        )
    lines += [""] + failures if failures else []
    if any("baseline" in e for e in sizes.values()):
        lines += [
            "",
            "Side by side (this build / baseline; medians of the rounds):",
            "",
            "| size | kind | p50 ns | p99 ns |",
            "|---|---|---|---|",
        ]
        for size, e in sizes.items():
            if "baseline" not in e:
                continue
            t, b = e["this"], e["baseline"]
            for kind in t["bench"]:
                x, y = t["bench"][kind], b["bench"].get(kind, {})
                lines.append(
                    f"| {size} | {kind} | {_fmt(x['p50_ns'], 0)} / {_fmt(y.get('p50_ns'), 0)} | {_fmt(x['p99_ns'], 0)} / {_fmt(y.get('p99_ns'), 0)} |"
                )
            lines.append(
                f"| {size} | /v1/forecast (ms) | {_fmt(t['forecast_p50_ms'], 3)} / {_fmt(b['forecast_p50_ms'], 3)} | {_fmt(t['forecast_p99_ms'], 3)} / {_fmt(b['forecast_p99_ms'], 3)} |"
            )
            bi = b.get("ingest", {})
            lines.append(
                f"| {size} | ingest s, RSS MiB, written GB (baseline) | {_fmt(bi.get('wall_s'))}, {_fmt((bi.get('max_rss_kib') or 0) / 1024, 0)}, {_fmt((bi.get('write_bytes') or 0) / 1e9, 2)} | query {_fmt(b['query_ms_median'])} ms |"
            )
    if serve:
        lines += ["", "| serve, 8 global runs | store GB | warm start s | warm RSS MiB | cold start s | cold RSS MiB |", "|---|---|---|---|---|---|"]
        for label, s in serve.items():
            lines.append(
                f"| {label} | {_fmt((s['store_bytes'] or 0) / 1e9, 2)} | {_fmt(s['warm_start_s'], 2)} | {_fmt((s['warm_rss_kib'] or 0) / 1024, 0)}"
                f" | {_fmt(s['cold_start_s'], 2)} | {_fmt((s['cold_rss_kib'] or 0) / 1024, 0)} |"
            )
    with open(os.path.join(directory, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def main(argv):
    command = argv[1] if len(argv) > 1 else ""
    global np
    if command in ("wrf", "cf"):
        import numpy

        np = numpy
    if command == "wrf":
        wrf(argv[2])
    elif command == "cf":
        cf(argv[2], hours=int(argv[3]) if len(argv) > 3 else 121)
    elif command == "shift":
        shift(argv[2], int(argv[3]))
    elif command == "dropcache":
        dropcache(argv[2:])
    elif command == "measure":
        assert argv[3] == "--"
        return measure(argv[2], argv[4:])
    elif command == "health":
        return health(argv[2], int(argv[3]), float(argv[4]))
    elif command == "requests":
        return requests(argv[2], int(argv[3]))
    elif command == "report":
        report(argv[2])
    else:
        print(__doc__, file=sys.stderr)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
