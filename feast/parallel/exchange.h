/* Interface exchange: values that several macros hold for the same global entity (a
 * node on a macro edge or corner, or a matrix coupling along a shared edge) are summed
 * over all macros holding them, on this rank and on others, in ascending global macro
 * order. The summation order is fixed by the mesh, not by the partition, so results
 * are bitwise identical on any number of ranks. One non-blocking message per
 * neighbour rank and exchange. */
#ifndef FEAST_EXCHANGE_H
#define FEAST_EXCHANGE_H
#include <mpi.h>

typedef struct FeastExchange FeastExchange;

/* Builder: items in a global order every rank agrees on; each item lists the macros
 * holding it (ascending) and, for local macros, which array and index hold the value. */
typedef struct FeastExchangeBuilder FeastExchangeBuilder;
int feast_exchange_builder_create(int nmacros, const int *owner, int rank,
                                  FeastExchangeBuilder **b);
/* start a new item */
int feast_exchange_builder_item(FeastExchangeBuilder *b);
/* add a holder of the current item: macro (global id, ascending order), and where the
 * value lives if the macro is local (array id, index; ignored for remote macros) */
int feast_exchange_builder_slot(FeastExchangeBuilder *b, int macro, int array, long index);
/* finish: the builder is consumed */
int feast_exchange_create(FeastExchangeBuilder **b, MPI_Comm comm, FeastExchange **ex);
void feast_exchange_destroy(FeastExchange **ex);

/* arrays[a][index] <- sum over all holders of the item (arrays indexed by array id) */
int feast_exchange_sum(FeastExchange *ex, double *const *arrays);
/* the same in two halves, to overlap the messages with work: begin reads the local
 * values of the items and posts the messages; end waits and writes the sums. Between
 * them the caller must not change the arrays at any slot (it may write elsewhere); one
 * exchange in flight per FeastExchange. */
int feast_exchange_begin(FeastExchange *ex, double *const *arrays);
int feast_exchange_end(FeastExchange *ex, double *const *arrays);
/* the same on the values of the local slots alone (values[t]: the t-th local slot's, in
 * the order of feast_exchange_local_slots), for arrays the caller keeps elsewhere (device
 * memory): values[t] <- the sum of its item */
int feast_exchange_sum_values(FeastExchange *ex, double *values);
/* the number of local slots (holders on this rank's macros); array[t], index[t] (where
 * not NULL) <- where the t-th of them lives, in the order feast_exchange_sum_values uses */
int feast_exchange_local_slots(const FeastExchange *ex, int *array, long *index);
/* per local slot t (the order of feast_exchange_local_slots): item[t] <- its item (items
 * in ascending order, a local slot's values summed in slot order), remote[t] <- 1 if the
 * item has a holder on another rank, 0 if every holder is a macro of this rank */
void feast_exchange_local_items(const FeastExchange *ex, int *item, unsigned char *remote);
/* number of items, and per item the number of holders / the first (owning) macro */
int feast_exchange_nitems(const FeastExchange *ex);
/* visit every local slot: fn(ctx, array, index, holders, owner_macro) */
void feast_exchange_foreach_local(const FeastExchange *ex,
                                  void (*fn)(void *ctx, int array, long index, int holders,
                                             int owner_macro),
                                  void *ctx);
#endif
