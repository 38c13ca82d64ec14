/* ecCodes' own decode of every message of the files given: what `nwpcube ingest` of a
   GRIB run is measured against. Each message is read, its handle made and its values
   decoded as doubles, one at a time, as a minimal program using ecCodes would.

   cc -O2 -o decode decode.c -leccodes
   ./decode FILE…                          (prints the messages and the values' sum) */
#include <eccodes.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  long messages = 0;
  double sum = 0;
  double *values = NULL;
  size_t capacity = 0;
  for (int a = 1; a < argc; a++) {
    FILE *in = fopen(argv[a], "rb");
    if (!in) { perror(argv[a]); return 1; }
    int status = 0;
    codes_handle *h;
    while ((h = codes_handle_new_from_file(NULL, in, PRODUCT_GRIB, &status)) != NULL) {
      size_t count = 0;
      codes_get_size(h, "values", &count);
      if (count > capacity) {
        free(values);
        values = malloc(count * sizeof *values);
        capacity = count;
      }
      if (codes_get_double_array(h, "values", values, &count)) { fprintf(stderr, "decode failed\n"); return 1; }
      for (size_t k = 0; k < count; k += 997) sum += values[k];
      messages++;
      codes_handle_delete(h);
    }
    fclose(in);
  }
  printf("%ld messages, checksum %g\n", messages, sum);
  free(values);
  return 0;
}
