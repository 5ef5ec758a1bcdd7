/* Checkpoint files written and read by every rank (MPI-IO). Version 2 (written):
 *   feastc-checkpoint 2
 *   byte_order little
 *   KEY VALUE
 *   array NAME COUNT       (rank 0's arrays, held whole)
 *   field NAME COUNT       (arrays in the global node numbering: each rank writes the
 *   data                    values of the nodes it owns at their place, in one collective write)
 *   <the arrays' values, then the fields', doubles in native byte order>
 *   checksum HHHHHHHHHHHHHHHH
 * The checksum is FNV-1a 64 of the header (up to and including "data\n") plus, modulo
 * 2^64, one mixed term per value of the array at table position a and index i: a sum
 * every rank adds its part to, so that no rank holds more than its share of a field.
 * Reading: rank 0 verifies the whole file in pieces (format, sizes, checksum) before any
 * rank uses it; every rank then holds the header and the arrays; a field's values stay in
 * the file until feast_checkpoint_field reads those a rank needs. Version 1 files (one
 * FNV-1a over all bytes, every array held whole, written before version 2) are read as
 * they were: every rank holds every value. */
#include "feast/base/atomic.h"
#include "feast/base/error.h"
#include "feast/base/hash.h"
#include "feast/io/checkpoint_private.h"
#include "feast/parallel/domain.h"
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAGIC1 "feastc-checkpoint 1\n"
#define MAGIC2 "feastc-checkpoint 2\n"
enum {
  MAGIC_LEN = 20,   /* both magic lines */
  TRAILER_LEN = 26, /* "checksum " + 16 hex digits + "\n" */
  CHUNK = 1 << 17   /* doubles per piece of the verifying read */
};

static const char *byte_order(void) {
  const uint16_t one = 1;
  return *(const unsigned char *)&one ? "little" : "big";
}

/* ------------------------------------------------------------------------ checksum */

static uint64_t mix64(uint64_t z) { /* splitmix64's finaliser */
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* the term of value x at index i of the array at table position a */
static uint64_t value_term(int a, int64_t i, double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  return mix64(bits ^ mix64(0x9e3779b97f4a7c15ULL * (uint64_t)(a + 1) + (uint64_t)i));
}

static uint64_t array_terms(int a, const int64_t *gid, const double *x, int64_t count) {
  uint64_t sum = 0;
  for (int64_t k = 0; k < count; k++) sum += value_term(a, gid ? gid[k] : k, x[k]);
  return sum;
}

/* every rank's status agreed (feast_status_agree), naming what and path */
static int agree(MPI_Comm comm, int st, const char *what, const char *path) {
  char text[4200];
  snprintf(text, sizeof text, "%s %s", what, path);
  return feast_status_agree(comm, st, text);
}

/* an MPI-IO call's result (the first error kept in *st) */
static void io_call(int rc, const char *what, const char *path, int *st) {
  if (rc == MPI_SUCCESS || *st) return;
  char msg[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, msg, &len);
  *st = feast_error_set(FEAST_ERR_FILE, __FILE__, __LINE__, "cannot %s the checkpoint %s: %s", what, path, msg);
}

/* a file type of the ascending global ids gid[0..count): one block per run of
 * consecutive ids, displacements in bytes from the field's first value */
static int runs_type(const int64_t *gid, int64_t count, MPI_Datatype *type) {
  int64_t runs = 0;
  for (int64_t k = 0; k < count; k++) runs += k == 0 || gid[k] != gid[k - 1] + 1;
  FEAST_CHECK(runs < 2147483647 && count < 2147483647, FEAST_ERR_LIMIT, "checkpoint field: too many values on a rank");
  int *len;
  MPI_Aint *disp;
  FEAST_CALL(FEAST_ALLOC(runs + 1, &len));
  int st = FEAST_ALLOC(runs + 1, &disp);
  int64_t r = -1;
  for (int64_t k = 0; !st && k < count; k++) {
    if (k == 0 || gid[k] != gid[k - 1] + 1) disp[++r] = (MPI_Aint)(gid[k] * (int64_t)sizeof(double)), len[r] = 0;
    len[r]++;
  }
  if (!st && (MPI_Type_create_hindexed((int)runs, len, disp, MPI_DOUBLE, type) != MPI_SUCCESS ||
              MPI_Type_commit(type) != MPI_SUCCESS))
    st = feast_error_set(FEAST_ERR_MPI, __FILE__, __LINE__, "checkpoint field: no MPI file type");
  free(len);
  free(disp);
  return st;
}

/* the values of the ascending ids gid[0..count) of the field at byte offset of the file
 * fh: written from x or read into x (collective) */
static void field_io(MPI_File fh, MPI_Offset offset, const int64_t *gid, int64_t count, double *x, int write,
                     const char *path, int *st) {
  MPI_Datatype type = MPI_DATATYPE_NULL;
  int made = runs_type(gid, count, &type);
  if (made && !*st) *st = made;
  if (made) type = MPI_DOUBLE; /* still take part in the collective calls, with nothing */
  io_call(MPI_File_set_view(fh, offset, MPI_DOUBLE, type, "native", MPI_INFO_NULL), "position in", path, st);
  const int n = made ? 0 : (int)count;
  if (write) io_call(MPI_File_write_all(fh, x, n, MPI_DOUBLE, MPI_STATUS_IGNORE), "write", path, st);
  else io_call(MPI_File_read_all(fh, x, n, MPI_DOUBLE, MPI_STATUS_IGNORE), "read", path, st);
  if (!made) MPI_Type_free(&type);
}

/* ------------------------------------------------------------------------ writing */

/* rank 0: magic, byte order, key lines, the arrays' lines, the fields' lines, "data" */
static int build_head(const FeastCheckpoint *ck, char **text, size_t *len) {
  size_t cap = MAGIC_LEN + 32 + ck->header_len + (size_t)ck->narrays * (CK_MAX_NAME + 40) + 8;
  FEAST_CALL(FEAST_ALLOC(cap, text));
  size_t n = (size_t)snprintf(*text, cap, "%sbyte_order %s\n", MAGIC2, byte_order());
  if (ck->header_len) memcpy(*text + n, ck->header, ck->header_len), n += ck->header_len;
  for (int field = 0; field < 2; field++)
    for (int i = 0; i < ck->narrays; i++)
      if (ck->arrays[i].field == field)
        n += (size_t)snprintf(*text + n, cap - n, "%s %s %" PRId64 "\n", field ? "field" : "array", ck->arrays[i].name,
                              ck->arrays[i].n);
  n += (size_t)snprintf(*text + n, cap - n, "data\n");
  *len = n;
  return 0;
}

/* the layout every rank needs: the table position of the first field, the byte offset of
 * its values, and a fingerprint of the fields' names and sizes (the same on every rank) */
typedef struct {
  int64_t first_field, fields_offset;
  uint64_t fields_print;
} Layout;

static Layout local_layout(const FeastCheckpoint *ck, size_t head_len) {
  Layout l = {0, (int64_t)head_len, FEAST_FNV_OFFSET};
  for (int i = 0; i < ck->narrays; i++) {
    const CkArray *a = &ck->arrays[i];
    if (!a->field) l.first_field++, l.fields_offset += a->n * (int64_t)sizeof(double);
    else l.fields_print = feast_fnv1a64(feast_fnv1a64(l.fields_print, a->name, strlen(a->name)), &a->n, sizeof a->n);
  }
  return l;
}

/* every field's parts together hold each node once: the counts over all ranks */
static int check_counts(const FeastCheckpoint *ck, MPI_Comm comm, const char *path) {
  int64_t mine = 0, all = 0, want = 0;
  for (int i = 0; i < ck->narrays; i++)
    if (ck->arrays[i].field) mine += ck->arrays[i].count, want += ck->arrays[i].n;
  FEAST_MPI_CALL(MPI_Allreduce(&mine, &all, 1, MPI_INT64_T, MPI_SUM, comm));
  FEAST_CHECK(all == want, FEAST_ERR_ARG, "checkpoint %s: the ranks' parts of the fields hold %" PRId64
              " values, the fields have %" PRId64, path, all, want);
  return 0;
}

/* rank 0: the header and the arrays at the start of the file */
static void write_head(MPI_File fh, const FeastCheckpoint *ck, const char *head, size_t head_len, const char *path,
                       int *st) {
  MPI_Offset at = (MPI_Offset)head_len;
  io_call(MPI_File_write_at(fh, 0, head, (int)head_len, MPI_BYTE, MPI_STATUS_IGNORE), "write", path, st);
  for (int i = 0; i < ck->narrays; i++) {
    const CkArray *a = &ck->arrays[i];
    if (a->field) continue;
    io_call(MPI_File_write_at(fh, at, a->x, (int)a->n, MPI_DOUBLE, MPI_STATUS_IGNORE), "write", path, st);
    at += a->n * (MPI_Offset)sizeof(double);
  }
}

/* every rank's parts of the fields, the checksum's sum on rank 0 and its line at the end */
static void write_fields(MPI_File fh, const FeastCheckpoint *ck, const Layout *l, uint64_t sum, MPI_Comm comm,
                         const char *path, int *st) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Offset at = l->fields_offset;
  int a = (int)l->first_field;
  for (int i = 0; i < ck->narrays; i++) {
    const CkArray *f = &ck->arrays[i];
    if (!f->field) continue;
    field_io(fh, at, f->gid, f->count, f->x, 1, path, st);
    sum += array_terms(a++, f->gid, f->x, f->count);
    at += f->n * (MPI_Offset)sizeof(double);
  }
  uint64_t total = 0;
  io_call(MPI_Reduce(&sum, &total, 1, MPI_UINT64_T, MPI_SUM, 0, comm),
          "sum the checksum of", path, st);
  io_call(MPI_File_set_view(fh, 0, MPI_BYTE, MPI_BYTE, "native", MPI_INFO_NULL), "position in", path, st);
  if (rank == 0) {
    char line[TRAILER_LEN + 1];
    snprintf(line, sizeof line, "checksum %016" PRIx64 "\n", total);
    io_call(MPI_File_write_at(fh, at, line, TRAILER_LEN, MPI_BYTE, MPI_STATUS_IGNORE), "write", path, st);
  }
}

/* the file at path (the temporary one) written by every rank; the status agreed */
static int write_file(const FeastCheckpoint *ck, MPI_Comm comm, const char *path, const char *head, size_t head_len,
                      const Layout *l, uint64_t sum) {
  int rank, st = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_File fh;
  io_call(MPI_File_open(comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh), "create", path, &st);
  FEAST_CALL(agree(comm, st, "writing the checkpoint", path));
  io_call(MPI_File_set_size(fh, 0), "truncate", path, &st);
  if (rank == 0) write_head(fh, ck, head, head_len, path, &st);
  write_fields(fh, ck, l, sum, comm, path, &st);
  io_call(MPI_File_sync(fh), "flush", path, &st);
  io_call(MPI_File_close(&fh), "close", path, &st);
  return agree(comm, st, "writing the checkpoint", path);
}

int feast_checkpoint_write(const FeastCheckpoint *ck, MPI_Comm comm, const char *path) {
  int rank;
  FEAST_MPI_CALL(MPI_Comm_rank(comm, &rank));
  char *head = NULL, *tmp = NULL;
  size_t head_len = 0;
  int st = rank == 0 ? build_head(ck, &head, &head_len) : 0;
  Layout root = local_layout(ck, head_len);
  const uint64_t fields_print = root.fields_print;
  FEAST_MPI_CALL(MPI_Bcast(&root, sizeof root, MPI_BYTE, 0, comm));
  if (!st && root.fields_print != fields_print)
    st = feast_error_set(FEAST_ERR_ARG, __FILE__, __LINE__, "checkpoint %s: this rank's fields are not rank 0's", path);
  if (!st) st = FEAST_ALLOC(strlen(path) + sizeof FEAST_ATOMIC_SUFFIX, &tmp);
  if (!st) sprintf(tmp, "%s%s", path, FEAST_ATOMIC_SUFFIX);
  st = agree(comm, st, "writing the checkpoint", path);
  if (!st) st = check_counts(ck, comm, path);
  uint64_t sum = 0;
  if (rank == 0) {
    sum = feast_fnv1a64(FEAST_FNV_OFFSET, head, head_len);
    for (int i = 0, a = 0; i < ck->narrays; i++)
      if (!ck->arrays[i].field) sum += array_terms(a++, NULL, ck->arrays[i].x, ck->arrays[i].n);
  }
  if (!st) st = write_file(ck, comm, tmp, head, head_len, &root, sum);
  if (!st) st = agree(comm, rank == 0 ? feast_commit_atomic(tmp, path, "checkpoint") : 0, "writing the checkpoint", path);
  free(head);
  free(tmp);
  return st;
}

/* ------------------------------------------------------------------------ reading */

/* header lines up to "data" from f (after the magic line), into ck; *fnv chained over
 * every byte read, *len their count */
static int parse_head(FILE *f, FeastCheckpoint *ck, uint64_t *fnv, size_t *len) {
  char line[CK_MAX_LINE + 2];
  for (;;) {
    if (!fgets(line, sizeof line, f)) FEAST_ERROR(FEAST_ERR_FILE, "checkpoint %s: malformed header (no 'data' line)", ck->path);
    size_t n = strlen(line);
    FEAST_CHECK(n > 0 && line[n - 1] == '\n', FEAST_ERR_FILE, "checkpoint %s: malformed header (a line too long)",
                ck->path);
    *fnv = feast_fnv1a64(*fnv, line, n), *len += n;
    line[n - 1] = 0;
    if (strcmp(line, "data") == 0) return 0;
    char kind[8], name[CK_MAX_NAME], extra;
    long long count;
    if (strncmp(line, "array ", 6) == 0 || strncmp(line, "field ", 6) == 0) {
      FEAST_CHECK(sscanf(line, "%7s %63s %lld %c", kind, name, &count, &extra) == 3 && count >= 0 && count < (1LL << 40),
                  FEAST_ERR_FILE, "checkpoint %s: malformed line '%.80s'", ck->path, line);
      CkArray *a;
      FEAST_CALL(ck_push_array(ck, name, count, line[0] == 'f', &a));
      continue;
    }
    char *sp = strchr(line, ' ');
    FEAST_CHECK(sp && sp != line, FEAST_ERR_FILE, "checkpoint %s: malformed header line '%.80s'", ck->path, line);
    *sp = 0;
    FEAST_CALL(ck_append_line(ck, line, sp + 1));
  }
}

/* the file's size, its magic line's version (1, 2; 0: none) */
static int open_file(const char *path, const char *shown, FILE **f, long *size, int *version) {
  *f = fopen(path, "rb");
  FEAST_CHECK(*f, FEAST_ERR_FILE, "%s %s: cannot open the checkpoint: %s", shown, path, strerror(errno));
  struct stat st_file;
  char magic[MAGIC_LEN];
  *size = -1;
  if (fstat(fileno(*f), &st_file) == 0 && S_ISREG(st_file.st_mode)) *size = (long)st_file.st_size;
  *version = 0;
  if (*size >= MAGIC_LEN && fread(magic, 1, MAGIC_LEN, *f) == MAGIC_LEN)
    *version = memcmp(magic, MAGIC1, MAGIC_LEN) == 0 ? 1 : memcmp(magic, MAGIC2, MAGIC_LEN) == 0 ? 2 : 0;
  if (*size >= 0 && *version) return 0;
  fclose(*f), *f = NULL;
  FEAST_CHECK(*size >= 0, FEAST_ERR_FILE, "%s %s: cannot read the checkpoint (not a regular file)", shown, path);
  FEAST_ERROR(FEAST_ERR_FILE, "%s %s: not a feastc checkpoint (it does not start with '%.*s')", shown, path,
              MAGIC_LEN - 1, MAGIC2);
}

/* the trailer's checksum from f (at its place) */
static int read_trailer(FILE *f, const char *shown, const char *path, uint64_t *stored) {
  char trailer[TRAILER_LEN + 1] = {0}, *end = NULL;
  int ok = fread(trailer, 1, TRAILER_LEN, f) == TRAILER_LEN && memcmp(trailer, "checksum ", 9) == 0 &&
           trailer[TRAILER_LEN - 1] == '\n';
  if (ok) trailer[TRAILER_LEN - 1] = 0, *stored = strtoull(trailer + 9, &end, 16), ok = end == trailer + 25;
  FEAST_CHECK(ok, FEAST_ERR_FILE, "%s %s: the checkpoint is truncated or damaged (no checksum at its end)", shown, path);
  return 0;
}

/* the byte order and the data's size against the file's */
static int check_sizes(const FeastCheckpoint *ck, size_t head_len, long size, const char *shown) {
  const char *order = feast_checkpoint_get(ck, "byte_order");
  FEAST_CHECK(order && strcmp(order, byte_order()) == 0, FEAST_ERR_FILE, "%s %s: byte order %s, this machine's is %s",
              shown, ck->path, order ? order : "(none)", byte_order());
  int64_t data = 0;
  for (int i = 0; i < ck->narrays; i++) data += ck->arrays[i].n * (int64_t)sizeof(double);
  const int64_t have = (int64_t)size - (int64_t)head_len - TRAILER_LEN;
  FEAST_CHECK(have == data, FEAST_ERR_FILE, "%s %s: the checkpoint is truncated or damaged: %" PRId64
              " bytes of data, the header declares %" PRId64, shown, ck->path, have, data);
  return 0;
}

/* the values of array a (table position ia) from f: held (an array, or any array of a
 * version 1 file), or passed (a version 2 field: its offset kept) and, with verify, summed
 * in pieces */
static int load_values(FILE *f, CkArray *a, int ia, int version, int verify, uint64_t *fnv, uint64_t *sum,
                       double *piece) {
  if (version == 1 || !a->field) {
    if (fread(a->x, sizeof(double), (size_t)a->n, f) != (size_t)a->n) return FEAST_ERR_FILE;
    if (version == 1) *fnv = feast_fnv1a64(*fnv, a->x, (size_t)a->n * sizeof(double));
    else *sum += array_terms(ia, NULL, a->x, a->n);
    return 0;
  }
  a->offset = (int64_t)ftell(f);
  if (!verify) return fseek(f, (long)(a->n * (int64_t)sizeof(double)), SEEK_CUR) == 0 ? 0 : FEAST_ERR_FILE;
  for (int64_t i = 0; i < a->n; i += CHUNK) {
    const size_t m = (size_t)(a->n - i < CHUNK ? a->n - i : CHUNK);
    if (fread(piece, sizeof(double), m, f) != m) return FEAST_ERR_FILE;
    for (size_t k = 0; k < m; k++) *sum += value_term(ia, i + (int64_t)k, piece[k]);
  }
  return 0;
}

/* the file into ck: header, arrays (fields of version 2 left in the file); with verify
 * the checksum over every byte */
static int load(FILE *f, long size, int version, int verify, const char *shown, FeastCheckpoint *ck) {
  uint64_t fnv = feast_fnv1a64(FEAST_FNV_OFFSET, version == 1 ? MAGIC1 : MAGIC2, MAGIC_LEN), sum = 0, stored = 0;
  size_t head_len = MAGIC_LEN;
  FEAST_CALL(parse_head(f, ck, &fnv, &head_len));
  FEAST_CALL(check_sizes(ck, head_len, size, shown));
  double *piece = NULL;
  FEAST_CALL(verify ? FEAST_ALLOC(CHUNK, &piece) : 0);
  int st = 0;
  for (int i = 0; i < ck->narrays && !st; i++) st = load_values(f, &ck->arrays[i], i, version, verify, &fnv, &sum, piece);
  free(piece);
  FEAST_CHECK(!st, FEAST_ERR_FILE, "%s %s: cannot read the checkpoint's data: %s", shown, ck->path, strerror(errno));
  FEAST_CALL(read_trailer(f, shown, ck->path, &stored));
  const uint64_t computed = version == 1 ? fnv : fnv + sum;
  FEAST_CHECK(!verify || computed == stored, FEAST_ERR_FILE,
              "%s %s: the checkpoint is damaged: checksum %016" PRIx64 " stored, %016" PRIx64 " computed", shown,
              ck->path, stored, computed);
  return 0;
}

/* one rank's read of path into a new *ck */
static int read_rank(const char *path, const char *shown, int verify, FeastCheckpoint **ck) {
  FILE *f = NULL;
  long size = 0;
  int version;
  *ck = NULL;
  FEAST_CALL(open_file(path, shown, &f, &size, &version));
  int st = feast_checkpoint_create(ck);
  if (!st) (*ck)->path = strdup(path);
  if (!st && !(*ck)->path) st = feast_error_set(FEAST_ERR_MEM, __FILE__, __LINE__, "out of memory");
  if (!st) st = load(f, size, version, verify || version == 1, shown, *ck);
  fclose(f);
  if (st) feast_checkpoint_destroy(ck);
  return st;
}

int feast_checkpoint_read(const char *path, const char *shown, MPI_Comm comm, FeastCheckpoint **ck) {
  int rank;
  *ck = NULL;
  FEAST_MPI_CALL(MPI_Comm_rank(comm, &rank));
  int st = rank == 0 ? read_rank(path, shown, 1, ck) : 0;
  int verified = st;
  FEAST_MPI_CALL(MPI_Bcast(&verified, 1, MPI_INT, 0, comm));
  if (verified) {
    FEAST_CHECK(rank == 0, verified, "%s %s: the checkpoint cannot be used (rank 0 found why)", shown, path);
    return st;
  }
  if (rank != 0) st = read_rank(path, shown, 0, ck);
  st = agree(comm, st, "reading the checkpoint", path);
  if (st) feast_checkpoint_destroy(ck);
  return st;
}

/* ------------------------------------------------------------------------ fields */

/* the distinct ids of gid[0..count), ascending (uniq, *nuniq of them), and where each
 * id went (at[k]) */
typedef struct {
  int64_t gid, k;
} IdAt;

static int by_id(const void *a, const void *b) {
  const int64_t p = ((const IdAt *)a)->gid, q = ((const IdAt *)b)->gid;
  return (p > q) - (p < q);
}

static int distinct_ids(const int64_t *gid, int64_t count, int64_t *uniq, int64_t *at, int64_t *nuniq) {
  IdAt *e;
  FEAST_CALL(FEAST_ALLOC(count + 1, &e));
  for (int64_t k = 0; k < count; k++) e[k] = (IdAt){gid[k], k};
  qsort(e, (size_t)count, sizeof *e, by_id);
  int64_t u = 0;
  for (int64_t k = 0; k < count; k++) {
    if (k == 0 || e[k].gid != e[k - 1].gid) uniq[u++] = e[k].gid;
    at[e[k].k] = u - 1;
  }
  *nuniq = u;
  free(e);
  return 0;
}

/* a version 2 field's values at gid (collective over the reading ranks) */
static int read_field(const FeastCheckpoint *ck, MPI_Comm comm, const CkArray *a, int64_t count, const int64_t *gid,
                      double *x) {
  int64_t *uniq = NULL, *at = NULL, nuniq = 0;
  double *vals = NULL;
  int st = FEAST_ALLOC(count + 1, &uniq);
  if (!st) st = FEAST_ALLOC(count + 1, &at);
  if (!st) st = FEAST_ALLOC(count + 1, &vals);
  if (!st) st = distinct_ids(gid, count, uniq, at, &nuniq);
  st = agree(comm, st, "reading the checkpoint", ck->path);
  MPI_File fh;
  if (!st) io_call(MPI_File_open(comm, ck->path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh), "open", ck->path, &st);
  if (!st) st = agree(comm, st, "reading the checkpoint", ck->path);
  if (!st) {
    field_io(fh, (MPI_Offset)a->offset, uniq, nuniq, vals, 0, ck->path, &st);
    io_call(MPI_File_close(&fh), "close", ck->path, &st);
    st = agree(comm, st, "reading the checkpoint", ck->path);
  }
  for (int64_t k = 0; !st && k < count; k++) x[k] = vals[at[k]];
  free(uniq), free(at), free(vals);
  return st;
}

int feast_checkpoint_field(const FeastCheckpoint *ck, MPI_Comm comm, const char *name, int64_t nglobal, int64_t count,
                           const int64_t *gid, double *x) {
  const CkArray *a = NULL;
  for (int i = 0; i < ck->narrays && !a; i++)
    if (strcmp(ck->arrays[i].name, name) == 0) a = &ck->arrays[i];
  FEAST_CHECK(a, FEAST_ERR_FILE, "checkpoint %s: no field '%s'", feast_checkpoint_path(ck), name);
  FEAST_CHECK(a->n == nglobal, FEAST_ERR_FILE, "checkpoint %s: field %s has %" PRId64 " values, expected %" PRId64,
              feast_checkpoint_path(ck), name, a->n, nglobal);
  for (int64_t k = 0; k < count; k++)
    FEAST_CHECK(gid[k] >= 0 && gid[k] < nglobal, FEAST_ERR_ARG, "checkpoint field %s: global id %" PRId64 " out of range",
                name, gid[k]);
  if (a->field && !a->x) return read_field(ck, comm, a, count, gid, x);
  for (int64_t k = 0; k < count; k++) x[k] = a->x[gid[k]]; /* a version 1 file's */
  return 0;
}
