/* Writes a synthetic GFS-like GRIB2 run for measuring `nwpcube ingest` against ecCodes'
   own decode: a regular 0.25° global grid (1440 × 721, north to south, 0–360), one file
   per 3-hourly step, each with 2 m temperature and relative humidity, 10 m wind, sea-level
   and surface pressure, total cloud and precipitation accumulated with GFS's 6-hour reset.
   Fields are smooth patterns with noise, packed at 16 bits: simple packing by default, or
   the packing named (grid_complex_spatial_differencing is what NCEP's GFS writes).

   cc -O2 -o make_run make_run.c -leccodes -lm
   ./make_run DIRECTORY STEPS [PACKING]  (steps 3, 6, … 3·STEPS hours) */
#include <eccodes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define NI 1440
#define NJ 721

static const char *packing = "grid_simple";

static void check(int status, const char *what) {
  if (status) {
    fprintf(stderr, "%s: %s\n", what, codes_get_error_message(status));
    exit(1);
  }
}

static void field(FILE *out, int step, int d, int c, int n, long surface, long height, const char *range, int accum,
                  double (*value)(double, double, int)) {
  codes_handle *h = codes_grib_handle_new_from_samples(NULL, "regular_ll_sfc_grib2");
  if (!h) { fprintf(stderr, "no sample\n"); exit(1); }
  check(codes_set_long(h, "centre", 7), "centre");
  check(codes_set_long(h, "dataDate", 20240501), "dataDate");
  check(codes_set_long(h, "dataTime", 0), "dataTime");
  if (accum) check(codes_set_long(h, "productDefinitionTemplateNumber", 8), "pdt");
  check(codes_set_long(h, "discipline", d), "discipline");
  check(codes_set_long(h, "parameterCategory", c), "category");
  check(codes_set_long(h, "parameterNumber", n), "number");
  check(codes_set_long(h, "typeOfFirstFixedSurface", surface), "surface");
  if (surface == 103) {
    check(codes_set_long(h, "scaleFactorOfFirstFixedSurface", 0), "scale");
    check(codes_set_long(h, "scaledValueOfFirstFixedSurface", height), "height");
  }
  if (accum) check(codes_set_long(h, "typeOfStatisticalProcessing", 1), "accum");
  check(codes_set_string(h, "stepUnits", "h", &(size_t){1}), "stepUnits");
  char instant[16];
  snprintf(instant, sizeof instant, "%d", 3 * step);
  size_t length = 0;
  check(codes_set_string(h, "stepRange", accum ? range : instant, &length), "stepRange");
  check(codes_set_long(h, "Ni", NI), "Ni");
  check(codes_set_long(h, "Nj", NJ), "Nj");
  check(codes_set_double(h, "latitudeOfFirstGridPointInDegrees", 90), "lat1");
  check(codes_set_double(h, "longitudeOfFirstGridPointInDegrees", 0), "lon1");
  check(codes_set_double(h, "latitudeOfLastGridPointInDegrees", -90), "lat2");
  check(codes_set_double(h, "longitudeOfLastGridPointInDegrees", 359.75), "lon2");
  check(codes_set_double(h, "iDirectionIncrementInDegrees", 0.25), "di");
  check(codes_set_double(h, "jDirectionIncrementInDegrees", 0.25), "dj");
  check(codes_set_long(h, "jScansPositively", 0), "scan");
  check(codes_set_long(h, "bitsPerValue", 16), "bits");
  static double values[NI * NJ];
  /* An accumulation is the sum of its 3-hour intervals' amounts, so that the windows agree. */
  int intervals = accum ? (3 * step % 6 ? 1 : 2) : 1;
  for (int j = 0; j < NJ; j++)
    for (int i = 0; i < NI; i++) {
      values[j * NI + i] = 0;
      for (int k = 0; k < intervals; k++) values[j * NI + i] += value(90 - 0.25 * j, 0.25 * i, step - k);
    }
  check(codes_set_double_array(h, "values", values, NI * NJ), "values");
  /* Repacked once the grid has its values (ecCodes refuses a packing of the sample's). */
  size_t packingLength = 0;
  check(codes_set_string(h, "packingType", packing, &packingLength), "packingType");
  const void *message;
  size_t size;
  check(codes_get_message(h, &message, &size), "message");
  fwrite(message, 1, size, out);
  codes_handle_delete(h);
}

static double noise(double lat, double lon) { return sin(lat * 12.9898 + lon * 78.233) * 0.5; }
static double temperature(double lat, double lon, int step) {
  return 288 - 30 * sin(lat * M_PI / 180) * sin(lat * M_PI / 180) + 5 * sin((lon + 15 * step) * M_PI / 180) + noise(lat, lon);
}
static double humidity(double lat, double lon, int step) { return 60 + 30 * sin((lat + lon + step) * M_PI / 90); }
static double eastward(double lat, double lon, int step) { return 10 * cos(lat * M_PI / 60) + noise(lat, lon + step); }
static double northward(double lat, double lon, int step) { return 5 * sin((lon + step) * M_PI / 45); }
static double sealevel(double lat, double lon, int step) { return 101325 + 1500 * sin((lat * 3 + lon + step) * M_PI / 180); }
static double surface(double lat, double lon, int step) { return sealevel(lat, lon, step) - 3000 * fabs(sin(lon * M_PI / 30)); }
static double cloud(double lat, double lon, int step) { return 50 + 50 * sin((lat * 2 - lon + 7 * step) * M_PI / 180); }
static double rain(double lat, double lon, int step) {
  double r = 3 * sin((lat * 4 + lon * 2 + 10 * step) * M_PI / 180);
  return (r > 0 ? r : 0) * (1 + (step % 2));
}

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) { fprintf(stderr, "usage: make_run DIRECTORY STEPS [PACKING]\n"); return 2; }
  int steps = atoi(argv[2]);
  if (argc == 4) packing = argv[3];
  for (int s = 1; s <= steps; s++) {
    int hour = 3 * s;
    char path[4096], range[32];
    snprintf(path, sizeof path, "%s/gfs.t00z.pgrb2.0p25.f%03d", argv[1], hour);
    FILE *out = fopen(path, "wb");
    if (!out) { perror(path); return 1; }
    field(out, s, 0, 3, 1, 101, 0, "", 0, sealevel);
    field(out, s, 0, 0, 0, 103, 2, "", 0, temperature);
    field(out, s, 0, 1, 1, 103, 2, "", 0, humidity);
    field(out, s, 0, 2, 2, 103, 10, "", 0, eastward);
    field(out, s, 0, 2, 3, 103, 10, "", 0, northward);
    field(out, s, 0, 3, 0, 1, 0, "", 0, surface);
    field(out, s, 0, 6, 1, 10, 0, "", 0, cloud);
    /* GFS resets its accumulation every 6 h: 0–3, 0–6, 6–9, 6–12 … */
    snprintf(range, sizeof range, "%d-%d", hour % 6 ? hour - 3 : hour - 6, hour);
    field(out, s, 0, 1, 8, 1, 0, range, 1, rain);
    fclose(out);
  }
  return 0;
}
