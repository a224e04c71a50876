/*
 * amp/accelerator_set.h - several accelerators as one target of a launch.
 *
 * A set holds accelerator views of different accelerators, each with a
 * weight: its share of the work. A launch over a set
 * (AMP_PARALLEL_FOR_EACH_ON(set, ...)) is split across them when the runtime can
 * prove that the parts write apart: the domain is cut in whole tiles (rows
 * of tiles along dimension 0, the slowest; rows of an untiled domain), in
 * proportion to the weights, and the parts run at the same time, one on
 * each accelerator. Otherwise the launch runs whole on the view of the
 * largest weight, and AMP_TRACE=kernels says why.
 *
 * A launch is split when every view the kernel writes is used only at the
 * thread's own index (c(idx) = ..., c[t_idx] += ..., c(idx[0], idx[1]),
 * c(t_idx.global)) or only at its tile's (c(t_idx.tile)): then each part
 * writes its own rows, and a view only read is made current whole on every
 * accelerator. Anything else runs whole: an element written or read at a
 * computed index, an atomic or a pointer to an element, a view given to a
 * helper, a section or another view of a written view's data, an array or
 * a texture (they live on one accelerator), AMP_CHECK. docs/accelerators.md
 * has the whole list.
 *
 * Views keep their lazy copies per accelerator: after a split launch each
 * accelerator holds the current copy of the rows it wrote; a later launch
 * with the same split moves nothing; a read on the host gathers only the
 * parts the host lacks; a new split moves only the rows that change hands
 * (through host memory). The ledger (amp/transfer.h) counts every move.
 *
 * AMP_SPLIT_CPU=N (amp/accelerator.h) makes a set of N accelerators out of
 * one CPU, on any machine.
 */
#ifndef AMP_ACCELERATOR_SET_H
#define AMP_ACCELERATOR_SET_H

#include <stddef.h>
#include <stdint.h>

#include "accelerator.h"
#include "kernel.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct amp_accelerator_set amp_accelerator_set;

/*
 * Make a set of count accelerator views, each of a different accelerator,
 * and store it in *out. weights (count values, or NULL) gives each view's
 * share of a split launch: any non-negative numbers, not all zero (a view
 * of weight 0 gets no part). NULL weighs each accelerator by its compute
 * units times its clock (CL_DEVICE_MAX_COMPUTE_UNITS x
 * CL_DEVICE_MAX_CLOCK_FREQUENCY): a start, which
 * amp_accelerator_set_set_weights() replaces with what the program
 * measures. views NULL with count 0 makes the set of every accelerator of
 * the default accelerator's kind (every GPU; every part of the CPU under
 * AMP_SPLIT_CPU), with their default views.
 *
 * The set holds a reference to each created view (released with the set),
 * and the caller owns the set: release it with
 * amp_accelerator_set_release(). amp_shutdown() ends the views, and a set
 * made before it refuses launches (AMP_ERROR_INVALID_ARGUMENT).
 *
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL out, views NULL with a
 * count or a count of 0 with views, a NULL, released or foreign view, two
 * views of one accelerator, a negative, infinite or NaN weight, or weights
 * that are all zero; AMP_ERROR_ACCELERATOR_VIEW_REMOVED for a view of a
 * lost accelerator (with NULL views: when every accelerator of the
 * default's kind was lost); AMP_ERROR_NO_DEVICE when there is no accelerator;
 * AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp_accelerator_set_create(amp_accelerator_view *const *views, size_t count,
                                      const double *weights, amp_accelerator_set **out);

/*
 * Release the set and its references to its views (a view the caller also
 * holds stays). Work queued over the set is left to finish. NULL is a
 * no-op. Returns AMP_ERROR_INVALID_ARGUMENT for a set already released or
 * a pointer the library did not make.
 */
amp_status amp_accelerator_set_release(amp_accelerator_set *set);

/* How many views the set has; 0 for NULL or a released set. */
size_t amp_accelerator_set_size(const amp_accelerator_set *set);

/*
 * Store view i (0 .. size-1) of the set in *out; the set keeps its
 * reference. Returns AMP_ERROR_INVALID_ARGUMENT for a NULL out, a NULL or
 * released set, or i out of range.
 */
amp_status amp_accelerator_set_get_view(const amp_accelerator_set *set, size_t i,
                                        amp_accelerator_view **out);

/*
 * Store the set's weights, one per view in the set's order, in weights
 * (size values). Returns AMP_ERROR_INVALID_ARGUMENT for a NULL argument or
 * a released set.
 */
amp_status amp_accelerator_set_get_weights(const amp_accelerator_set *set, double *weights);

/*
 * Give the views new weights (size values, as amp_accelerator_set_create
 * takes them), for example each accelerator's measured speed. Launches
 * after it are split by them; a view's data moves only where its rows
 * change hands. Returns AMP_ERROR_INVALID_ARGUMENT, with the weights as
 * they were, for a NULL argument, a released set, or weights the create
 * call refuses.
 */
amp_status amp_accelerator_set_set_weights(amp_accelerator_set *set, const double *weights);

/*
 * How a launch over the set splits units (rows, or rows of tiles) among
 * its views: view k gets units starts[k] to starts[k + 1] - 1, with
 * starts[0] = 0 and starts[size] = units (size + 1 values), in proportion
 * to the weights; the same units always split the same way. For work the
 * runtime cannot split by itself (a kernel that writes at computed
 * indices): give each view a section of that many rows, and launch on it.
 * Returns AMP_ERROR_INVALID_ARGUMENT for a NULL argument, a released set
 * or negative units.
 */
amp_status amp_accelerator_set_partition(const amp_accelerator_set *set, int64_t units,
                                         int64_t *starts);

/* The function above that makes a handle, as a macro that also records the
 * caller's file and line for the leak report (AMP__MADE_AT, amp/status.h). */
#define amp_accelerator_set_create(...) AMP__MADE_AT(amp_accelerator_set_create, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
