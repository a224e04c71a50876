/*
 * runtime/device/accel_set.c - sets of accelerator views: made, checked,
 * weighed, released; and how a number of rows splits among their views.
 * The launch over a set is the api layer's (api/dispatch_set.c).
 *
 * amp_accelerator_set_create is defined as (name): amp/accelerator_set.h
 * also makes it a macro that records the caller's line for the leak report
 * (AMP_LEAKS).
 */
#include "device/accel_set.h"

#include <math.h> /* isfinite, a macro */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "device/accel.h"

/* ---- Weights ---- */

static amp_status check_weights(const char *fn, const double *weights, size_t n)
{
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        if (!isfinite(weights[k]) || weights[k] < 0)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: weight %zu is %g; a weight is a finite number >= 0 (the"
                                " view's share of a split launch).",
                                fn, k, weights[k]);
        sum += weights[k];
    }
    if (!(sum > 0) || !isfinite(sum))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the %zu weights add up to %g; give at least one view a weight"
                            " above 0, and all of them together a finite sum.",
                            fn, n, sum);
    return AMP_OK;
}

/* A start for an accelerator's share: its compute units times their clock,
 * in MHz (1 where the device does not say). */
static double default_weight(const amp_accelerator *acc)
{
    cl_uint mhz = 0;
    if (amp__clapi.GetDeviceInfo(acc->device, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof mhz, &mhz,
                                 NULL) != CL_SUCCESS ||
        mhz == 0)
        mhz = 1;
    return (double)acc->compute_units * mhz;
}

static void set_weights(amp_accelerator_set *set, const double *weights)
{
    set->heaviest = 0;
    for (size_t k = 0; k < set->count; k++) {
        set->members[k].weight = weights ? weights[k] : default_weight(set->members[k].view->acc);
        if (set->members[k].weight > set->members[set->heaviest].weight)
            set->heaviest = k;
    }
    /* A new split: say it again. */
    memset(set->traced_site, 0, sizeof set->traced_site);
}

void amp__set_split(const set_member *members, size_t n, int64_t units, int64_t *starts)
{
    double total = 0, before = 0;
    for (size_t k = 0; k < n; k++)
        total += members[k].weight;
    starts[0] = 0;
    for (size_t k = 0; k < n; k++) {
        before += members[k].weight;
        /* Rounded at each boundary from the start: the parts add up to
         * units, and equal weights give parts that differ by one at most. */
        int64_t at = k + 1 == n ? units : (int64_t)((double)units * (before / total) + 0.5);
        starts[k + 1] = at < starts[k] ? starts[k] : at > units ? units : at;
    }
}

/* ---- Checks ---- */

int amp__set_is_live(const amp_accelerator_set *set)
{
    static const amp_accelerator_set *known;
    static uint64_t ended;
    if (set && set == known && ended == amp__handle_ended())
        return 1;
    if (!amp__handle_is(set, HD_ACCELERATOR_SET))
        return 0;
    known = set;
    ended = amp__handle_ended();
    return 1;
}

amp_status amp__set_check(const char *fn, const amp_accelerator_set *set)
{
    LOCK_ASSERT_HELD();
    amp_status st = amp__handle_check(fn, set, HD_ACCELERATOR_SET);
    for (size_t k = 0; st == AMP_OK && k < set->count; k++)
        if (!amp__queue_is_live(set->members[k].view))
            st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                              "%s: view %zu of the accelerator set was ended by amp_shutdown(),"
                              " which ends every accelerator view. Make the set again from views"
                              " of now.",
                              fn, k);
        else
            st = amp__queue_check(fn, set->members[k].view);
    return st;
}

int amp__set_trace_due(amp_accelerator_set *set, const void *site, uint64_t what)
{
    for (unsigned i = 0; i < SET_TRACED; i++)
        if (set->traced_site[i] == site) {
            if (set->traced_what[i] == what)
                return 0;
            set->traced_what[i] = what;
            return 1;
        }
    unsigned i = set->traced_next++ % SET_TRACED;
    set->traced_site[i] = site;
    set->traced_what[i] = what;
    return 1;
}

/* ---- Making a set ---- */

/* The default views of every accelerator of the default's kind. */
static amp_status every_of_default_kind(amp_accelerator_view **views, size_t *n)
{
    amp_accelerator *def = NULL;
    amp_status st = amp__acc_default(&def);
    const cl_device_type kinds = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                 CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
    *n = 0;
    for (size_t i = 0; st == AMP_OK && i < amp__acc_listed(); i++) {
        amp_accelerator *acc = amp__acc_at(i);
        if ((acc->type & kinds) != (def->type & kinds) || acc->removed)
            continue;
        st = amp__queue_default_view(acc, &views[*n]);
        if (st == AMP_OK)
            (*n)++;
    }
    return st;
}

static amp_status make_set(const char *fn, amp_accelerator_view *const *views, size_t count,
                           const double *weights, amp_accelerator_set **out)
{
    amp_accelerator_view **all = NULL;
    amp_status st = AMP_OK;
    if (!views) {
        st = amp__acc_init();
        if (st == AMP_OK && !(all = calloc(amp__acc_listed() + 1, sizeof *all)))
            st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
        if (st == AMP_OK)
            st = every_of_default_kind(all, &count);
        if (st == AMP_OK && count == 0)
            st = amp__err_set(AMP_ERROR_ACCELERATOR_VIEW_REMOVED,
                              "%s: every accelerator of the default's kind was removed (a lost"
                              " device). Call amp_shutdown() and start again.",
                              fn);
        views = all;
    }
    for (size_t k = 0; st == AMP_OK && k < count; k++) {
        if (!views[k]) {
            st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                              "%s: view %zu is NULL; give the views of the set themselves (a"
                              " default view from amp_accelerator_get_default_view()).",
                              fn, k);
            break;
        }
        st = amp__queue_check(fn, views[k]);
        for (size_t j = 0; st == AMP_OK && j < k; j++)
            if (views[j]->acc == views[k]->acc)
                st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                  "%s: views %zu and %zu are both of %s; a set splits work"
                                  " across accelerators, so give one view of each.",
                                  fn, j, k, views[k]->acc->name);
    }
    if (st == AMP_OK && weights)
        st = check_weights(fn, weights, count);
    amp_accelerator_set *set = NULL;
    if (st == AMP_OK &&
        !(set = amp__handle_alloc(HD_ACCELERATOR_SET, sizeof *set + count * sizeof set->members[0],
                                  HD_CALLER)))
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    if (st == AMP_OK) {
        set->count = count;
        for (size_t k = 0; k < count; k++) {
            set->members[k].view = views[k];
            amp__queue_retain(views[k]);
        }
        set_weights(set, weights);
        *out = set;
    }
    free(all);
    return st;
}

amp_status(amp_accelerator_set_create)(amp_accelerator_view *const *views, size_t count,
                                       const double *weights, amp_accelerator_set **out)
{
    static const char fn[] = "amp_accelerator_set_create";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    if (!views != !count)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %s with a count of %zu; give count views, or NULL and 0 for"
                            " every accelerator of the default's kind.",
                            fn, views ? "views" : "NULL views", count);
    if (weights && !views)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: weights without views; the set of every accelerator takes its"
                            " weights from amp_accelerator_set_set_weights().",
                            fn);
    amp__lock_acquire();
    amp_status st = make_set(fn, views, count, weights, out);
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_set_release(amp_accelerator_set *set)
{
    if (!set)
        return AMP_OK;
    amp__lock_acquire();
    amp_status st = amp__handle_check("amp_accelerator_set_release", set, HD_ACCELERATOR_SET);
    if (st == AMP_OK) {
        /* After amp_shutdown() the views are gone, and nothing is held. */
        for (size_t k = 0; k < set->count; k++)
            amp__queue_release(set->members[k].view);
        amp__handle_free(set);
    }
    amp__lock_release();
    return st;
}

size_t amp_accelerator_set_size(const amp_accelerator_set *set)
{
    amp__lock_acquire();
    size_t n = amp__handle_is(set, HD_ACCELERATOR_SET) ? set->count : 0;
    amp__lock_release();
    return n;
}

amp_status amp_accelerator_set_get_view(const amp_accelerator_set *set, size_t i,
                                        amp_accelerator_view **out)
{
    static const char fn[] = "amp_accelerator_set_get_view";
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: out is NULL.", fn);
    *out = NULL;
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, set, HD_ACCELERATOR_SET);
    if (st == AMP_OK && i >= set->count)
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "%s: view %zu of a set of %zu; they are 0 to %zu.", fn, i, set->count,
                          set->count - 1);
    if (st == AMP_OK)
        *out = set->members[i].view;
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_set_get_weights(const amp_accelerator_set *set, double *weights)
{
    static const char fn[] = "amp_accelerator_set_get_weights";
    if (!weights)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: weights is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, set, HD_ACCELERATOR_SET);
    for (size_t k = 0; st == AMP_OK && k < set->count; k++)
        weights[k] = set->members[k].weight;
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_set_set_weights(amp_accelerator_set *set, const double *weights)
{
    static const char fn[] = "amp_accelerator_set_set_weights";
    if (!weights)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: weights is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, set, HD_ACCELERATOR_SET);
    if (st == AMP_OK)
        st = check_weights(fn, weights, set->count);
    if (st == AMP_OK)
        set_weights(set, weights);
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_set_partition(const amp_accelerator_set *set, int64_t units,
                                         int64_t *starts)
{
    static const char fn[] = "amp_accelerator_set_partition";
    if (!starts)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: starts is NULL.", fn);
    if (units < 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: %lld units; split 0 or more.", fn,
                            (long long)units);
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, set, HD_ACCELERATOR_SET);
    if (st == AMP_OK)
        amp__set_split(set->members, set->count, units, starts);
    amp__lock_release();
    return st;
}
