#include "feast/parallel/exchange.h"
#include "feast/base/commstat.h"
#include "feast/base/error.h"
#include "feast/base/log.h"
#include <stdlib.h>
#include <string.h>

struct FeastExchangeBuilder {
  int nmacros, rank;
  const int *owner;
  int nitems, cap_items;
  int *item_ptr; /* nitems+1 */
  int nslots, cap_slots;
  int *slot_macro, *slot_array;
  long *slot_index;
};

struct FeastExchange {
  MPI_Comm comm;
  int nitems;
  int *item_ptr;       /* slots of item i: item_ptr[i] .. item_ptr[i+1]-1 */
  int *slot_macro;     /* global macro id */
  int *slot_array;     /* array id for local slots, -1 for remote */
  long *slot_index;
  double *slot_value;
  int nlocal_slots;
  int *local_slot;     /* the slots of local macros, in slot order */
  int nnbr;
  int *nbr_rank;
  int *send_ptr, *send_slot, *recv_ptr, *recv_slot; /* per neighbour, into slots */
  double *send_buf, *recv_buf;
  MPI_Request *requests;
};

static int grow(void *ptr, int *cap, int need, size_t size) {
  if (need <= *cap) return 0;
  int ncap = *cap ? 2 * *cap : 256;
  while (ncap < need) ncap *= 2;
  void *p = realloc(*(void **)ptr, (size_t)ncap * size);
  FEAST_CHECK(p, FEAST_ERR_MEM, "out of memory building the interface exchange");
  *(void **)ptr = p;
  *cap = ncap;
  return 0;
}

int feast_exchange_builder_create(int nmacros, const int *owner, int rank,
                                  FeastExchangeBuilder **b) {
  FEAST_CALL(FEAST_ALLOC(1, b));
  (*b)->nmacros = nmacros;
  (*b)->owner = owner;
  (*b)->rank = rank;
  FEAST_CALL(FEAST_ALLOC(1, &(*b)->item_ptr)); /* item_ptr[0] = 0 */
  (*b)->cap_items = 1;
  return 0;
}

int feast_exchange_builder_item(FeastExchangeBuilder *b) {
  FEAST_CALL(grow(&b->item_ptr, &b->cap_items, b->nitems + 2, sizeof(int)));
  b->nitems++;
  b->item_ptr[b->nitems] = b->nslots;
  return 0;
}

int feast_exchange_builder_slot(FeastExchangeBuilder *b, int macro, int array, long index) {
  FEAST_CHECK(b->nitems > 0 && macro >= 0 && macro < b->nmacros, FEAST_ERR_INTERNAL,
              "exchange slot for macro %d outside an item", macro);
  int need = b->nslots + 1, c1 = b->cap_slots, c2 = b->cap_slots, c3 = b->cap_slots;
  FEAST_CALL(grow(&b->slot_macro, &c1, need, sizeof(int)));
  FEAST_CALL(grow(&b->slot_array, &c2, need, sizeof(int)));
  FEAST_CALL(grow(&b->slot_index, &c3, need, sizeof(long)));
  b->cap_slots = c1;
  int local = b->owner[macro] == b->rank;
  b->slot_macro[b->nslots] = macro;
  b->slot_array[b->nslots] = local ? array : -1;
  b->slot_index[b->nslots] = local ? index : -1;
  b->nslots++;
  b->item_ptr[b->nitems] = b->nslots;
  return 0;
}

static void builder_free(FeastExchangeBuilder **b) {
  if (!*b) return;
  free((*b)->item_ptr);
  free((*b)->slot_macro);
  free((*b)->slot_array);
  free((*b)->slot_index);
  feast_free(b);
}

/* For each neighbour rank r: walk the items in order; where an item is held here and
 * on r, we send our slots of it and receive r's slots of it (same order on both sides). */
static int build_neighbours(FeastExchange *ex, const int *owner, int rank, int nranks) {
  int *count_send, *count_recv;
  FEAST_CALL(FEAST_ALLOC(nranks, &count_send));
  FEAST_CALL(FEAST_ALLOC(nranks, &count_recv));
  int *seen;
  FEAST_CALL(FEAST_ALLOC(nranks, &seen));
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) {
      ex->nnbr = 0;
      for (int r = 0; r < nranks; r++)
        if (count_send[r] || count_recv[r]) ex->nnbr++;
      FEAST_CALL(FEAST_ALLOC(ex->nnbr, &ex->nbr_rank));
      FEAST_CALL(FEAST_ALLOC(ex->nnbr + 1, &ex->send_ptr));
      FEAST_CALL(FEAST_ALLOC(ex->nnbr + 1, &ex->recv_ptr));
      for (int r = 0, q = 0; r < nranks; r++) {
        if (!(count_send[r] || count_recv[r])) continue;
        ex->nbr_rank[q] = r;
        ex->send_ptr[q + 1] = ex->send_ptr[q] + count_send[r];
        ex->recv_ptr[q + 1] = ex->recv_ptr[q] + count_recv[r];
        q++;
      }
      FEAST_CALL(FEAST_ALLOC(ex->send_ptr[ex->nnbr] + 1, &ex->send_slot));
      FEAST_CALL(FEAST_ALLOC(ex->recv_ptr[ex->nnbr] + 1, &ex->recv_slot));
      FEAST_CALL(FEAST_ALLOC(ex->send_ptr[ex->nnbr] + 1, &ex->send_buf));
      FEAST_CALL(FEAST_ALLOC(ex->recv_ptr[ex->nnbr] + 1, &ex->recv_buf));
      FEAST_CALL(FEAST_ALLOC(2 * ex->nnbr + 1, &ex->requests));
      memset(count_send, 0, sizeof(int) * nranks);
      memset(count_recv, 0, sizeof(int) * nranks);
    }
    int *nbr_of = seen; /* rank -> neighbour index (pass 1) */
    if (pass == 1)
      for (int q = 0; q < ex->nnbr; q++) nbr_of[ex->nbr_rank[q]] = q;
    for (int it = 0; it < ex->nitems; it++) {
      int s0 = ex->item_ptr[it], s1 = ex->item_ptr[it + 1];
      for (int s = s0; s < s1; s++) {
        int r = owner[ex->slot_macro[s]];
        if (r == rank) continue;
        /* first slot of rank r in this item: handle r once per item */
        int first = 1;
        for (int t = s0; t < s; t++)
          if (owner[ex->slot_macro[t]] == r) first = 0;
        if (!first) continue;
        for (int t = s0; t < s1; t++) {
          int rt = owner[ex->slot_macro[t]];
          if (rt == rank) {
            if (pass == 1) ex->send_slot[ex->send_ptr[nbr_of[r]] + count_send[r]] = t;
            count_send[r]++;
          } else if (rt == r) {
            if (pass == 1) ex->recv_slot[ex->recv_ptr[nbr_of[r]] + count_recv[r]] = t;
            count_recv[r]++;
          }
        }
      }
    }
  }
  free(count_send);
  free(count_recv);
  free(seen);
  return 0;
}

int feast_exchange_create(FeastExchangeBuilder **bp, MPI_Comm comm, FeastExchange **exp) {
  FeastExchangeBuilder *b = *bp;
  FeastExchange *ex;
  FEAST_CALL(FEAST_ALLOC(1, &ex));
  ex->comm = comm;
  ex->nitems = b->nitems;
  ex->item_ptr = b->item_ptr;
  ex->slot_macro = b->slot_macro;
  ex->slot_array = b->slot_array;
  ex->slot_index = b->slot_index;
  b->item_ptr = NULL;
  b->slot_macro = b->slot_array = NULL;
  b->slot_index = NULL;
  int nranks;
  MPI_Comm_size(comm, &nranks);
  FEAST_CALL(FEAST_ALLOC(b->nslots + 1, &ex->slot_value));
  FEAST_CALL(FEAST_ALLOC(b->nslots + 1, &ex->local_slot));
  for (int s = 0; s < b->nslots; s++)
    if (ex->slot_array[s] >= 0) ex->local_slot[ex->nlocal_slots++] = s;
  FEAST_CALL(build_neighbours(ex, b->owner, b->rank, nranks));
  builder_free(bp);
  *exp = ex;
  return 0;
}

void feast_exchange_destroy(FeastExchange **exp) {
  FeastExchange *ex = *exp;
  if (!ex) return;
  free(ex->item_ptr);
  free(ex->slot_macro);
  free(ex->slot_array);
  free(ex->slot_index);
  free(ex->slot_value);
  free(ex->nbr_rank);
  free(ex->send_ptr);
  free(ex->recv_ptr);
  free(ex->send_slot);
  free(ex->recv_slot);
  free(ex->local_slot);
  free(ex->send_buf);
  free(ex->recv_buf);
  free(ex->requests);
  feast_free(exp);
}

/* post the messages of the values in slot_value (the local slots set) */
static int post_messages(FeastExchange *ex) {
  int nreq = 0;
  for (int q = 0; q < ex->nnbr; q++) {
    int n = ex->recv_ptr[q + 1] - ex->recv_ptr[q];
    FEAST_MPI_CALL(MPI_Irecv(ex->recv_buf + ex->recv_ptr[q], n, MPI_DOUBLE, ex->nbr_rank[q], 7301,
                             ex->comm, &ex->requests[nreq++]));
  }
  for (int q = 0; q < ex->nnbr; q++) {
    for (int t = ex->send_ptr[q]; t < ex->send_ptr[q + 1]; t++)
      ex->send_buf[t] = ex->slot_value[ex->send_slot[t]];
    int n = ex->send_ptr[q + 1] - ex->send_ptr[q];
    FEAST_MPI_CALL(MPI_Isend(ex->send_buf + ex->send_ptr[q], n, MPI_DOUBLE, ex->nbr_rank[q], 7301,
                             ex->comm, &ex->requests[nreq++]));
  }
  return 0;
}

/* the local slots' values from arrays (NULL: from values[t], t-th local slot), then the
 * messages posted */
static int begin(FeastExchange *ex, double *const *arrays, const double *values) {
  feast_comm_count_exchange();
  feast_timer_start(FEAST_T_COMM);
  feast_timer_start(FEAST_T_EXCHANGE_WAIT);
  for (int t = 0; t < ex->nlocal_slots; t++) {
    const int s = ex->local_slot[t];
    ex->slot_value[s] = arrays ? arrays[ex->slot_array[s]][ex->slot_index[s]] : values[t];
  }
  const int st = post_messages(ex);
  feast_timer_stop(FEAST_T_EXCHANGE_WAIT);
  feast_timer_stop(FEAST_T_COMM);
  return st;
}

/* the messages waited for, each item summed in ascending macro order into its local
 * slots, which are then written to arrays (NULL: to values[t], t-th local slot) */
static int end(FeastExchange *ex, double *const *arrays, double *values) {
  feast_timer_start(FEAST_T_COMM);
  feast_timer_start(FEAST_T_EXCHANGE_WAIT);
  FEAST_MPI_CALL(MPI_Waitall(2 * ex->nnbr, ex->requests, MPI_STATUSES_IGNORE));
  for (int t = 0; t < ex->recv_ptr[ex->nnbr]; t++) ex->slot_value[ex->recv_slot[t]] = ex->recv_buf[t];
  for (int it = 0; it < ex->nitems; it++) {
    double sum = 0.0;
    for (int s = ex->item_ptr[it]; s < ex->item_ptr[it + 1]; s++) sum += ex->slot_value[s];
    for (int s = ex->item_ptr[it]; s < ex->item_ptr[it + 1]; s++) ex->slot_value[s] = sum;
  }
  for (int t = 0; t < ex->nlocal_slots; t++) {
    const int s = ex->local_slot[t];
    if (arrays) arrays[ex->slot_array[s]][ex->slot_index[s]] = ex->slot_value[s];
    else values[t] = ex->slot_value[s];
  }
  feast_timer_stop(FEAST_T_EXCHANGE_WAIT);
  feast_timer_stop(FEAST_T_COMM);
  return 0;
}

int feast_exchange_begin(FeastExchange *ex, double *const *arrays) { return begin(ex, arrays, NULL); }
int feast_exchange_end(FeastExchange *ex, double *const *arrays) { return end(ex, arrays, NULL); }
int feast_exchange_sum(FeastExchange *ex, double *const *arrays) {
  FEAST_CALL(begin(ex, arrays, NULL));
  return end(ex, arrays, NULL);
}
int feast_exchange_sum_values(FeastExchange *ex, double *values) {
  FEAST_CALL(begin(ex, NULL, values));
  return end(ex, NULL, values);
}

int feast_exchange_local_slots(const FeastExchange *ex, int *array, long *index) {
  for (int t = 0; (array || index) && t < ex->nlocal_slots; t++) {
    if (array) array[t] = ex->slot_array[ex->local_slot[t]];
    if (index) index[t] = ex->slot_index[ex->local_slot[t]];
  }
  return ex->nlocal_slots;
}

void feast_exchange_local_items(const FeastExchange *ex, int *item, unsigned char *remote) {
  for (int it = 0, t = 0; it < ex->nitems; it++) {
    unsigned char r = 0;
    for (int s = ex->item_ptr[it]; s < ex->item_ptr[it + 1]; s++) r |= ex->slot_array[s] < 0;
    for (int s = ex->item_ptr[it]; s < ex->item_ptr[it + 1]; s++)
      if (ex->slot_array[s] >= 0) item[t] = it, remote[t++] = r;
  }
}

int feast_exchange_nitems(const FeastExchange *ex) { return ex->nitems; }

void feast_exchange_foreach_local(const FeastExchange *ex,
                                  void (*fn)(void *, int, long, int, int), void *ctx) {
  for (int it = 0; it < ex->nitems; it++) {
    int s0 = ex->item_ptr[it], s1 = ex->item_ptr[it + 1];
    for (int s = s0; s < s1; s++)
      if (ex->slot_array[s] >= 0)
        fn(ctx, ex->slot_array[s], ex->slot_index[s], s1 - s0, ex->slot_macro[s0]);
  }
}
