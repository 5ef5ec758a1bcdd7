#include "feast/io/summary.h"
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct FeastSummary {
  cJSON *root;
};

#define TIMINGS_SECTION "timings"

int feast_summary_create(FeastSummary **s) {
  FEAST_CHECK(s, FEAST_ERR_ARG, "summary_create: NULL output pointer");
  FEAST_CALL(FEAST_ALLOC(1, s));
  (*s)->root = cJSON_CreateObject();
  if (!(*s)->root) {
    feast_free(s);
    FEAST_ERROR(FEAST_ERR_MEM, "out of memory creating the JSON summary");
  }
  return 0;
}

void feast_summary_destroy(FeastSummary **s) {
  if (!s || !*s) return;
  cJSON_Delete((*s)->root);
  feast_free(s);
}

/* obj[key] = item (replacing an existing value); takes ownership of item */
static int put(cJSON *obj, const char *key, cJSON *item) {
  FEAST_CHECK(item, FEAST_ERR_MEM, "out of memory in the JSON summary (key \"%s\")", key);
  int ok = cJSON_GetObjectItemCaseSensitive(obj, key)
               ? cJSON_ReplaceItemInObjectCaseSensitive(obj, key, item)
               : cJSON_AddItemToObject(obj, key, item);
  if (!ok) cJSON_Delete(item);
  FEAST_CHECK(ok, FEAST_ERR_MEM, "out of memory in the JSON summary (key \"%s\")", key);
  return 0;
}

/* the object that holds key: the root, or root[section] (created on first use); a
 * section "a.b" is root["a"]["b"] */
static int target(FeastSummary *s, const char *section, cJSON **obj) {
  *obj = s->root;
  if (!section) return 0;
  FEAST_CHECK(*section, FEAST_ERR_ARG, "summary: empty section name");
  for (const char *p = section; *p;) {
    const char *dot = strchr(p, '.');
    const size_t len = dot ? (size_t)(dot - p) : strlen(p);
    char name[64];
    FEAST_CHECK(len > 0 && len < sizeof name, FEAST_ERR_ARG, "summary: bad section name \"%s\"", section);
    memcpy(name, p, len);
    name[len] = 0;
    cJSON *parent = *obj;
    *obj = cJSON_GetObjectItemCaseSensitive(parent, name);
    if (*obj) {
      FEAST_CHECK(cJSON_IsObject(*obj), FEAST_ERR_ARG,
                  "summary: \"%s\" is a value, it cannot also be a section", name);
    } else {
      *obj = cJSON_CreateObject();
      FEAST_CALL(put(parent, name, *obj));
    }
    p += len + (dot ? 1 : 0);
    FEAST_CHECK(!dot || *p, FEAST_ERR_ARG, "summary: bad section name \"%s\"", section);
  }
  return 0;
}

/* the one place every setter goes through: checks, then [section.]key = item */
static int set_item(FeastSummary *s, const char *section, const char *key, cJSON *item) {
  cJSON *obj = NULL;
  int status = 0;
  if (!s || !key || !*key)
    status = feast_error_set(FEAST_ERR_ARG, __FILE__, __LINE__, "summary: no object or empty key");
  if (!status) status = target(s, section, &obj);
  if (status) {
    cJSON_Delete(item);
    return status;
  }
  return put(obj, key, item);
}

static cJSON *real_item(double v) { return isfinite(v) ? cJSON_CreateNumber(v) : cJSON_CreateNull(); }

static cJSON *string_item(const char *v) { return v ? cJSON_CreateString(v) : cJSON_CreateNull(); }

int feast_summary_set_string(FeastSummary *s, const char *key, const char *value) {
  return set_item(s, NULL, key, string_item(value));
}
int feast_summary_set_int(FeastSummary *s, const char *key, long value) {
  return set_item(s, NULL, key, cJSON_CreateNumber((double)value));
}
int feast_summary_set_real(FeastSummary *s, const char *key, double value) {
  return set_item(s, NULL, key, real_item(value));
}
int feast_summary_set_bool(FeastSummary *s, const char *key, int value) {
  return set_item(s, NULL, key, cJSON_CreateBool(value != 0));
}
int feast_summary_set_real_array(FeastSummary *s, const char *key, const double *values, int n) {
  cJSON *a = cJSON_CreateArray();
  for (int i = 0; a && i < n; i++) {
    cJSON *v = real_item(values[i]);
    if (!v || !cJSON_AddItemToArray(a, v)) {
      cJSON_Delete(v);
      cJSON_Delete(a);
      a = NULL;
    }
  }
  return set_item(s, NULL, key, a);
}
int feast_summary_set_timing(FeastSummary *s, const char *name, double seconds) {
  return set_item(s, TIMINGS_SECTION, name, real_item(seconds));
}
int feast_summary_set_section_string(FeastSummary *s, const char *section, const char *key,
                                     const char *value) {
  return set_item(s, section, key, string_item(value));
}
int feast_summary_set_section_int(FeastSummary *s, const char *section, const char *key,
                                  long value) {
  return set_item(s, section, key, cJSON_CreateNumber((double)value));
}
int feast_summary_set_section_real(FeastSummary *s, const char *section, const char *key,
                                   double value) {
  return set_item(s, section, key, real_item(value));
}
int feast_summary_set_section_bool(FeastSummary *s, const char *section, const char *key,
                                   int value) {
  return set_item(s, section, key, cJSON_CreateBool(value != 0));
}

int feast_summary_write(const FeastSummary *s, const char *path) {
  FEAST_CHECK(s && path && *path, FEAST_ERR_ARG, "summary_write: no summary or empty path");
  char *text = cJSON_Print(s->root);
  FEAST_CHECK(text, FEAST_ERR_MEM, "out of memory printing the JSON summary %s", path);
  const size_t len = strlen(text);
  int status = 0;
  char *withnl = malloc(len + 2);
  if (!withnl) status = feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__, "out of memory writing %s", path);
  if (!status) {
    memcpy(withnl, text, len);
    withnl[len] = '\n';
    withnl[len + 1] = 0;
    status = feast_write_atomic(path, "JSON summary", withnl, len + 1);
  }
  free(withnl);
  cJSON_free(text);
  return status;
}

int feast_summary_get_number(const FeastSummary *s, const char *key, double *value) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(s->root, key);
  if (!cJSON_IsNumber(item)) return 0;
  *value = item->valuedouble;
  return 1;
}
