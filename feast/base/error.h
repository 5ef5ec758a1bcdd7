/* Error handling: every function returns a status (0 = success). The first error
 * message is kept with the source location where it was raised; callers propagate the
 * code with FEAST_CALL. Messages name the user's file/line/key, never only ours. */
#ifndef FEAST_ERROR_H
#define FEAST_ERROR_H
#include <stddef.h>
#include <stdint.h>

typedef enum {
  FEAST_SUCCESS = 0,
  FEAST_ERR_ARG,           /* bad argument to a library function (a bug or bad usage) */
  FEAST_ERR_USAGE,         /* bad command line */
  FEAST_ERR_FILE,          /* a file cannot be opened, read or written */
  FEAST_ERR_CONFIG,        /* a config key/value is invalid */
  FEAST_ERR_MESH,          /* a mesh file is malformed or the mesh is invalid */
  FEAST_ERR_MEM,           /* an allocation failed */
  FEAST_ERR_LIMIT,         /* a size or memory limit would be exceeded */
  FEAST_ERR_NOT_CONVERGED, /* a solver stopped without reaching its tolerance */
  FEAST_ERR_SOLVER,        /* a solver failed (singular matrix, breakdown) */
  FEAST_ERR_MPI,           /* an MPI call failed */
  FEAST_ERR_CUDA,          /* a CUDA call failed */
  FEAST_ERR_UNSUPPORTED,   /* a feature or backend is not available in this build */
  FEAST_ERR_INTERNAL,      /* an invariant broke: a bug */
  FEAST_ERR_INTERRUPTED    /* stopped by SIGTERM/SIGINT at a safe point (checkpoint written) */
} FeastStatus;

/* Process exit codes documented in the README. */
enum {
  FEAST_EXIT_OK = 0,
  FEAST_EXIT_INPUT = 1,         /* bad command line, config, mesh or file */
  FEAST_EXIT_NOT_CONVERGED = 2, /* solver stopped: max_iterations, diverged, nan */
  FEAST_EXIT_LIMIT = 3,         /* the run would exceed a memory/size limit */
  FEAST_EXIT_RUNTIME = 4,       /* MPI, CUDA, UMFPACK, out of memory, internal error */
  FEAST_EXIT_UNSUPPORTED = 5,   /* the feature/backend is not available in this build */
  FEAST_EXIT_INTERRUPTED = 6    /* SIGTERM/SIGINT: stopped after a step, checkpoint complete */
};

int feast_error_set(int code, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const char *feast_error_message(void); /* the user-facing message, "" if none */
const char *feast_error_where(void);   /* source location where it was raised */
int feast_error_code(void);
void feast_error_clear(void);
int feast_exit_code(int status);       /* status -> documented process exit code */
const char *feast_status_name(int status);

/* raise an error with a message and return its code from the current function */
#define FEAST_ERROR(code, ...) return feast_error_set((code), __FILE__, __LINE__, __VA_ARGS__)
/* raise an error unless cond holds */
#define FEAST_CHECK(cond, code, ...)                                                           \
  do {                                                                                         \
    if (!(cond)) FEAST_ERROR(code, __VA_ARGS__);                                               \
  } while (0)
/* propagate a failing status */
#define FEAST_CALL(expr)                                                                       \
  do {                                                                                         \
    int feast_call_status_ = (expr);                                                           \
    if (feast_call_status_) return feast_call_status_;                                         \
  } while (0)
/* check an MPI call */
#define FEAST_MPI_CALL(expr)                                                                   \
  do {                                                                                         \
    int feast_mpi_status_ = (expr);                                                            \
    if (feast_mpi_status_ != 0)                                                                \
      FEAST_ERROR(FEAST_ERR_MPI, "MPI call failed (%d): %s", feast_mpi_status_, #expr);        \
  } while (0)

/* Memory: overflow-checked, zero-initialised allocation; *ptr is NULL on failure. */
int feast_calloc(size_t count, size_t size, void *ptr);
/* fresh memory of at least 128 KiB faulted in at once (feast_calloc does it) */
void feast_prefault(void *block, size_t bytes);
#define FEAST_ALLOC(count, ptr) feast_calloc((size_t)(count), sizeof(**(ptr)), (ptr))
void feast_free(void *ptr); /* frees *(void**)ptr and sets it to NULL */
/* a*b with overflow check (nonnegative operands): returns 0 and sets *out, or -1 */
int feast_mul_i64(int64_t a, int64_t b, int64_t *out);
int feast_add_i64(int64_t a, int64_t b, int64_t *out);
#endif
