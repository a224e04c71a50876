/*
 * runtime/accel.c - enumerating OpenCL devices as accelerators, choosing the
 * default one, and making contexts and queues on first use.
 */
#include "accel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "oclcheck.h"
#include "runtime.h"
#include "strbuf.h"

static amp_accelerator **accs;
static size_t acc_count;
static int acc_ready;
static amp_accelerator *acc_chosen; /* the default, once chosen */

static const char install_hint[] =
    "No OpenCL device was found. Install an OpenCL driver: on Debian or Ubuntu,"
    " `apt-get install pocl-opencl-icd ocl-icd-opencl-dev` gives a CPU device that always"
    " works; for a GPU, install its vendor's OpenCL driver (and check that a file in"
    " /etc/OpenCL/vendors names it).";

/* A string property of a device or platform, malloc'ed; "" when the query
 * fails, so that a strange driver cannot stop enumeration. */
static char *device_string(cl_device_id dev, cl_device_info what)
{
    size_t size = 0;
    if (clapi.GetDeviceInfo(dev, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return calloc(1, 1);
    char *s = calloc(1, size + 1);
    if (s && clapi.GetDeviceInfo(dev, what, size, s, NULL) != CL_SUCCESS)
        s[0] = '\0';
    return s;
}

static char *platform_string(cl_platform_id p, cl_platform_info what)
{
    size_t size = 0;
    if (clapi.GetPlatformInfo(p, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return calloc(1, 1);
    char *s = calloc(1, size + 1);
    if (s && clapi.GetPlatformInfo(p, what, size, s, NULL) != CL_SUCCESS)
        s[0] = '\0';
    return s;
}

static void acc_free(amp_accelerator *a)
{
    if (!a)
        return;
    if (a->default_view) {
        if (a->default_view->queue)
            clapi.ReleaseCommandQueue(a->default_view->queue);
        free(a->default_view);
    }
    if (a->context)
        clapi.ReleaseContext(a->context);
    free(a->name);
    free(a->platform_name);
    free(a->path);
    free(a->version);
    free(a);
}

static amp_status acc_describe(amp_accelerator *a, size_t pi)
{
    char *dev_version = device_string(a->device, CL_DEVICE_VERSION);
    char *drv_version = device_string(a->device, CL_DRIVER_VERSION);
    char *extensions = device_string(a->device, CL_DEVICE_EXTENSIONS);
    a->name = device_string(a->device, CL_DEVICE_NAME);
    a->platform_name = platform_string(a->platform, CL_PLATFORM_NAME);
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "opencl:%zu/%zu", pi, a->index);
    a->path = sb_take(&sb);
    sb_printf(&sb, "%s, driver %s", dev_version ? dev_version : "",
              drv_version ? drv_version : "");
    a->version = sb_take(&sb);

    cl_ulong gmem = 0, lmem = 0;
    cl_device_fp_config fp64 = 0;
    /* Every device answers these (OpenCL 1.2); a failure is reported, not
     * taken as a limit of 0 that would stay until amp_shutdown(). */
    cl_int rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_TYPE, sizeof a->type, &a->type, NULL);
    if (rc == CL_SUCCESS)
        rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    if (rc == CL_SUCCESS)
        rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    if (rc == CL_SUCCESS)
        rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                 sizeof a->max_work_group, &a->max_work_group, NULL);
    if (rc == CL_SUCCESS)
        rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                 sizeof a->max_work_item, a->max_work_item, NULL);
    if (rc == CL_SUCCESS)
        rc = clapi.GetDeviceInfo(a->device, CL_DEVICE_ADDRESS_BITS, sizeof a->address_bits,
                                 &a->address_bits, NULL);
    clapi.GetDeviceInfo(a->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    a->global_mem = gmem;
    a->local_mem = lmem;
    /* Some drivers report no CL_DEVICE_DOUBLE_FP_CONFIG but list the
     * extension; either one is enough. */
    a->fp64 = fp64 != 0 || (extensions && strstr(extensions, "cl_khr_fp64"));
    if (a->address_bits == 0)
        a->address_bits = 32;
    for (int d = 0; d < 3; d++)
        if (a->max_work_item[d] == 0)
            a->max_work_item[d] = 1;
    if (a->max_work_group == 0)
        a->max_work_group = 1;

    free(dev_version);
    free(drv_version);
    free(extensions);
    if (!a->name || !a->platform_name || !a->path || !a->version)
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
    if (rc != CL_SUCCESS)
        return err_cl(rc, "clGetDeviceInfo", "Reading the limits of an OpenCL device");
    return AMP_OK;
}

amp_status acc_init(void)
{
    if (acc_ready)
        return acc_count ? AMP_OK : err_set(AMP_ERROR_NO_DEVICE, "%s", install_hint);

    /* AMP_CHECK runs every kernel on Oclgrind: its runtime must take the
     * place of the loader's before the first OpenCL call. */
    if (ock_requested() && !ock_installed()) {
        amp_status st = ock_install();
        if (st != AMP_OK)
            return st;
        if (rt_trace_kernels())
            fprintf(stderr, "[amp] AMP_CHECK: kernels run on Oclgrind, with its race and"
                            " bounds checks\n");
    }

    cl_uint nplat = 0;
    cl_int rc = clapi.GetPlatformIDs(0, NULL, &nplat);
    if (rc == CL_PLATFORM_NOT_FOUND_KHR || (rc == CL_SUCCESS && nplat == 0)) {
        acc_ready = 1;
        return err_set(AMP_ERROR_NO_DEVICE, "%s", install_hint);
    }
    if (rc != CL_SUCCESS)
        return err_cl(rc, "clGetPlatformIDs", "Listing OpenCL platforms");
    cl_platform_id *plats = calloc(nplat, sizeof *plats);
    if (!plats)
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
    rc = clapi.GetPlatformIDs(nplat, plats, NULL);
    if (rc != CL_SUCCESS) {
        free(plats);
        return err_cl(rc, "clGetPlatformIDs", "Listing OpenCL platforms");
    }

    amp_status status = AMP_OK;
    for (cl_uint p = 0; p < nplat && status == AMP_OK; p++) {
        cl_uint ndev = 0;
        /* A platform with no devices answers CL_DEVICE_NOT_FOUND: skip it.
         * Any other failure is reported, and the next call lists again. */
        rc = clapi.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
        if (rc == CL_DEVICE_NOT_FOUND || (rc == CL_SUCCESS && ndev == 0))
            continue;
        if (rc != CL_SUCCESS) {
            status = err_cl(rc, "clGetDeviceIDs", "Listing OpenCL devices");
            break;
        }
        cl_device_id *devs = calloc(ndev, sizeof *devs);
        amp_accelerator **grown = realloc(accs, (acc_count + ndev) * sizeof *accs);
        if (!devs || !grown) {
            free(devs);
            if (grown)
                accs = grown;
            status = err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
            break;
        }
        accs = grown;
        rc = clapi.GetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
        if (rc != CL_SUCCESS) {
            free(devs);
            status = err_cl(rc, "clGetDeviceIDs", "Listing OpenCL devices");
            break;
        }
        for (cl_uint d = 0; d < ndev && status == AMP_OK; d++) {
            amp_accelerator *a = calloc(1, sizeof *a);
            if (!a) {
                status = err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
                break;
            }
            a->index = acc_count;
            a->platform = plats[p];
            a->device = devs[d];
            accs[acc_count++] = a;
            status = acc_describe(a, p);
        }
        free(devs);
    }
    free(plats);

    if (status != AMP_OK) {
        acc_shutdown(); /* try again from scratch on the next call */
        return status;
    }
    acc_ready = 1;
    if (acc_count == 0)
        return err_set(AMP_ERROR_NO_DEVICE, "%s", install_hint);
    return AMP_OK;
}

/* Case-insensitive substring search. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] &&
               tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

static void list_devices(strbuf *sb)
{
    for (size_t i = 0; i < acc_count; i++)
        sb_printf(sb, "\n  %zu: %s / %s", i, accs[i]->platform_name, accs[i]->name);
}

/* The accelerator AMP_DEVICE names: an index, or a substring of
 * "platform / device". */
static amp_status acc_from_env(const char *want, amp_accelerator **out)
{
    char *end = NULL;
    unsigned long idx = strtoul(want, &end, 10);
    int numeric = end != want && *end == '\0';
    if (numeric && idx < acc_count) {
        *out = accs[idx];
        return AMP_OK;
    }
    if (!numeric) {
        for (size_t i = 0; i < acc_count; i++) {
            strbuf sb = STRBUF_INIT;
            sb_printf(&sb, "%s / %s", accs[i]->platform_name, accs[i]->name);
            int match = !sb_failed(&sb) && contains_nocase(sb.data, want);
            sb_free(&sb);
            if (match) {
                *out = accs[i];
                return AMP_OK;
            }
        }
    }
    strbuf sb = STRBUF_INIT;
    list_devices(&sb);
    amp_status st = err_set(AMP_ERROR_NO_DEVICE,
                            "AMP_DEVICE=\"%s\" matches no device. Give an index or a part of a"
                            " name from this list:%s",
                            want, sb.data ? sb.data : "");
    sb_free(&sb);
    return st;
}

/* Why acc_chosen was chosen, for amp-info and messages. */
static char chosen_reason[160];

amp_status acc_default(amp_accelerator **out)
{
    if (acc_chosen) {
        *out = acc_chosen;
        return AMP_OK;
    }
    amp_status st = acc_init();
    if (st != AMP_OK)
        return st;
    const char *want = getenv("AMP_DEVICE");
    /* Under AMP_CHECK the only device is the simulator's. */
    if (want && want[0] && !ock_installed()) {
        st = acc_from_env(want, &acc_chosen);
        if (st != AMP_OK)
            return st;
        snprintf(chosen_reason, sizeof chosen_reason, "AMP_DEVICE=%s", want);
    } else if (ock_installed()) {
        acc_chosen = accs[0];
        snprintf(chosen_reason, sizeof chosen_reason, "AMP_CHECK: the simulator");
    } else {
        /* The first GPU; else the first CPU device; else whatever is there. */
        for (size_t i = 0; i < acc_count && !acc_chosen; i++)
            if (accs[i]->type & CL_DEVICE_TYPE_GPU)
                acc_chosen = accs[i];
        for (size_t i = 0; i < acc_count && !acc_chosen; i++)
            if (accs[i]->type & CL_DEVICE_TYPE_CPU)
                acc_chosen = accs[i];
        if (!acc_chosen)
            acc_chosen = accs[0];
        snprintf(chosen_reason, sizeof chosen_reason, "%s",
                 acc_chosen->type & CL_DEVICE_TYPE_GPU ? "the first GPU"
                 : acc_chosen->type & CL_DEVICE_TYPE_CPU
                     ? "no GPU, so the first CPU device"
                     : "no GPU or CPU device, so the first device");
    }
    *out = acc_chosen;
    return AMP_OK;
}

static void CL_CALLBACK context_notify(const char *msg, const void *info, size_t n, void *user)
{
    if (ock_installed())
        ock_context_notify(msg, info, n, user);
    if (rt_trace_kernels())
        fprintf(stderr, "[amp] OpenCL: %s\n", msg);
}

amp_status acc_default_view(amp_accelerator *acc, amp_accelerator_view **out)
{
    if (acc->default_view) {
        *out = acc->default_view;
        return AMP_OK;
    }
    cl_int rc = CL_SUCCESS;
    if (!acc->context) {
        acc->context = clapi.CreateContext(NULL, 1, &acc->device, context_notify, NULL, &rc);
        if (!acc->context)
            return err_cl(rc, "clCreateContext", acc->name);
    }
    amp_accelerator_view *v = calloc(1, sizeof *v);
    if (!v)
        return err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory making a queue.");
    v->acc = acc;
    v->queue = clapi.CreateCommandQueue(acc->context, acc->device, 0, &rc);
    if (!v->queue) {
        free(v);
        return err_cl(rc, "clCreateCommandQueue", acc->name);
    }
    acc->default_view = v;
    *out = v;
    return AMP_OK;
}

amp_status acc_resolve_view(amp_accelerator_view *av, amp_accelerator_view **out)
{
    if (av) {
        *out = av;
        return AMP_OK;
    }
    amp_accelerator *acc = NULL;
    amp_status st = acc_default(&acc);
    if (st != AMP_OK)
        return st;
    return acc_default_view(acc, out);
}

void acc_shutdown(void)
{
    for (size_t i = 0; i < acc_count; i++)
        acc_free(accs[i]);
    free(accs);
    accs = NULL;
    acc_count = 0;
    acc_ready = 0;
    acc_chosen = NULL;
    chosen_reason[0] = '\0';
}

/* ---- Public API ---- */

amp_status amp_accelerator_count(size_t *count)
{
    if (!count)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_count: count is NULL.");
    rt_lock();
    amp_status st = acc_init();
    *count = st == AMP_OK ? acc_count : 0;
    rt_unlock();
    return st;
}

amp_status amp_accelerator_get(size_t index, amp_accelerator **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_get: out is NULL.");
    *out = NULL;
    rt_lock();
    amp_status st = acc_init();
    if (st == AMP_OK && index >= acc_count)
        st = err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "amp_accelerator_get: index %zu is out of range; there are %zu devices.",
                     index, acc_count);
    if (st == AMP_OK)
        *out = accs[index];
    rt_unlock();
    return st;
}

amp_status amp_accelerator_get_default(amp_accelerator **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_get_default: out is NULL.");
    *out = NULL;
    rt_lock();
    amp_status st = acc_default(out);
    rt_unlock();
    return st;
}

amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info)
{
    if (!acc || !info)
        return err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_accelerator_get_info: the accelerator and info must not be NULL.");
    info->description = acc->name;
    info->device_path = acc->path;
    info->platform = acc->platform_name;
    info->version = acc->version;
    info->dedicated_memory = acc->global_mem;
    info->tile_static_size = acc->local_mem;
    info->max_tile_size = acc->max_work_group;
    info->supports_double = acc->fp64;
    info->is_emulated = (acc->type & CL_DEVICE_TYPE_CPU) != 0;
    rt_lock();
    info->is_default = acc_chosen == acc;
    rt_unlock();
    return AMP_OK;
}

amp_status amp_accelerator_get_default_view(amp_accelerator *acc, amp_accelerator_view **out)
{
    if (!out)
        return err_set(AMP_ERROR_INVALID_ARGUMENT,
                       "amp_accelerator_get_default_view: out is NULL.");
    *out = NULL;
    rt_lock();
    amp_status st = AMP_OK;
    if (!acc)
        st = acc_default(&acc);
    if (st == AMP_OK)
        st = acc_default_view(acc, out);
    rt_unlock();
    return st;
}

amp_accelerator *amp_accelerator_view_get_accelerator(const amp_accelerator_view *view)
{
    return view ? view->acc : NULL;
}

amp_status amp_accelerator_view_wait(amp_accelerator_view *view)
{
    if (!view)
        return err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_view_wait: view is NULL.");
    rt_lock();
    cl_int rc = clapi.Finish(view->queue);
    amp_status st = rc == CL_SUCCESS ? AMP_OK : err_cl(rc, "clFinish", "Waiting for the queue");
    rt_unlock();
    return st;
}

amp_status amp_accelerator_set_default(amp_accelerator *acc)
{
    rt_lock();
    amp_status st = acc_init();
    int known = 0;
    for (size_t i = 0; st == AMP_OK && i < acc_count; i++)
        known |= accs[i] == acc;
    if (st == AMP_OK && !known)
        st = err_set(AMP_ERROR_INVALID_ARGUMENT,
                     "amp_accelerator_set_default: %s is not an accelerator from"
                     " amp_accelerator_get().",
                     acc ? "the handle" : "NULL");
    else if (st == AMP_OK && acc_chosen && acc_chosen != acc)
        st = err_set(AMP_ERROR_INVALID_OPERATION,
                     "amp_accelerator_set_default: the default accelerator is already %s (%s),"
                     " and it has been used. As in C++ AMP, set the default before anything"
                     " uses it: before the first kernel, view or default query.",
                     acc_chosen->name, chosen_reason);
    else if (st == AMP_OK && !acc_chosen) {
        acc_chosen = acc;
        snprintf(chosen_reason, sizeof chosen_reason, "set by amp_accelerator_set_default");
    }
    rt_unlock();
    return st;
}

const char *amp_accelerator_default_reason(void)
{
    return chosen_reason;
}
