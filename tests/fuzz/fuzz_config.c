/* libFuzzer harness for the INI config parser: the input up to a line "%%" is the config
 * file, each later line a command-line override "section.key=value". Then every key of
 * the schema (the core's, ScaRC's and the Navier-Stokes library's; not the application's
 * problem.type, whose choices come from the problem registry) is read back with its
 * getter, as feastc does. */
#include "feast/config/config.h"
#include "navier_stokes/ns_keys.h"
#include "scarc/scarc_keys.h"
#include "fuzz_common.h"

static void read_all(const FeastConfig *cfg, const char *section, const FeastKeySpec *k) {
  char name[256], buf[64], big[4096];
  snprintf(name, sizeof name, "%s.%s", section, k->key);
  long i;
  double r, r2[2];
  const char *s;
  int e;
  feast_error_clear();
  int st = 0;
  switch (k->type) {
  case FEAST_KEY_INT: st = feast_config_get_int(cfg, name, &i); break;
  case FEAST_KEY_REAL:
    st = feast_config_get_real(cfg, name, &r);
    if (!st && !(r >= k->min && r <= k->max)) {
      fprintf(stderr, "fuzz: %s = %g outside [%g, %g]\n", name, r, k->min, k->max);
      abort();
    }
    break;
  case FEAST_KEY_STRING: st = feast_config_get_string(cfg, name, &s); break;
  case FEAST_KEY_ENUM: st = feast_config_get_enum(cfg, name, &e); break;
  case FEAST_KEY_PATH:
    st = feast_config_get_path(cfg, name, buf, sizeof buf); /* small buffer: must not overflow */
    feast_error_clear();
    st = feast_config_get_path(cfg, name, big, sizeof big);
    break;
  case FEAST_KEY_REAL2: st = feast_config_get_real2(cfg, name, r2); break;
  }
  (void)st; /* keys without default may be unset: an error, not a crash */
  (void)feast_config_is_set(cfg, name);
  const char *o = feast_config_origin(cfg, name);
  if (o) (void)strlen(o);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fuzz_quiet();
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char sep[] = "\n%%\n";
  size_t flen = size;
  for (size_t i = 0; i + 4 <= size; i++)
    if (memcmp(data + i, sep, 4) == 0) {
      flen = i + 1;
      break;
    }
  const char *path = fuzz_temp_path(".ini");
  if (fuzz_write(path, data, flen)) return 0;
  feast_error_clear();
  FeastConfig *cfg = NULL;
  if (feast_config_create(&cfg) || feast_config_add_keys(cfg, scarc_config_keys()) ||
      feast_config_add_keys(cfg, ns_config_keys()))
    abort();
  int st = feast_config_read(cfg, path);
  fuzz_check_error(st);
  /* overrides: the rest, line by line (NUL-terminated copies) */
  size_t pos = flen + 3 < size ? flen + 3 : size;
  while (!st && pos < size) {
    size_t end = pos;
    while (end < size && data[end] != '\n') end++;
    char *line = malloc(end - pos + 1);
    memcpy(line, data + pos, end - pos);
    line[end - pos] = 0;
    feast_error_clear();
    int ost = feast_config_override(cfg, line);
    fuzz_check_error(ost);
    free(line);
    pos = end + 1;
  }
  for (int k = 0; k < feast_config_key_count(cfg); k++) {
    const FeastKeySpec *spec = feast_config_key_spec(cfg, k);
    size_t sl = strlen(spec->section);
    if (sl >= 2 && strcmp(spec->section + sl - 2, ".*") == 0) {
      int count = 0;
      const char *const *names = NULL;
      char prefix[128];
      snprintf(prefix, sizeof prefix, "%.*s.", (int)(sl - 2), spec->section);
      feast_error_clear();
      if (feast_config_sections(cfg, prefix, &count, &names) == 0)
        for (int s = 0; s < count; s++) read_all(cfg, names[s], spec);
    } else {
      read_all(cfg, spec->section, spec);
    }
  }
  (void)strlen(feast_config_path(cfg));
  feast_config_destroy(&cfg);
  if (cfg) abort(); /* destroy nulls the handle */
  feast_error_clear();
  unlink(path);
  return 0;
}
