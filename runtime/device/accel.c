/*
 * runtime/device/accel.c - enumerating OpenCL devices as accelerators (CPU devices
 * split into sub-devices under AMP_SPLIT_CPU), and choosing the default
 * one. Contexts and queues are queue.c's.
 */
#include "device/accel.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/env.h"
#include "core/error.h"
#include "core/handle.h"
#include "core/lock.h"
#include "core/strbuf.h"
#include "core/testing.h"
#include "device/ending.h"
#include "device/oclcheck.h"
#include "device/profile.h"

static amp_accelerator **accs;
static size_t acc_count;
static int acc_ready;
static amp_accelerator *acc_chosen; /* the default, once chosen */
/* Whether the default has been used (asked for, or used by a kernel or a
 * view): from then on it is fixed. A choice made by
 * amp_accelerator_set_default alone may still be changed, as in C++ AMP. */
static int acc_default_used;

static const char install_hint[] =
    "No OpenCL device was found. Install an OpenCL driver: on Debian or Ubuntu,"
    " `apt-get install pocl-opencl-icd ocl-icd-opencl-dev` gives a CPU device that always"
    " works; for a GPU, install its vendor's OpenCL driver (and check that a file in"
    " /etc/OpenCL/vendors names it). Where one is installed, it may have failed to start:"
    " `clinfo` says whether it lists a device, and PoCL lists none when it cannot write its"
    " cache (set POCL_CACHE_DIR to a folder that can be written).";

/* clGetDeviceInfo or clGetPlatformInfo, for info_string. */
typedef cl_int (*info_query)(const void *object, cl_uint what, size_t size, void *value,
                             size_t *size_ret);

static cl_int device_info(const void *object, cl_uint what, size_t size, void *value,
                          size_t *size_ret)
{
    return amp__clapi.GetDeviceInfo((cl_device_id)object, what, size, value, size_ret);
}

static cl_int platform_info(const void *object, cl_uint what, size_t size, void *value,
                            size_t *size_ret)
{
    return amp__clapi.GetPlatformInfo((cl_platform_id)object, what, size, value, size_ret);
}

/* A string property of a device or platform, malloc'ed; "" when the query
 * fails, so that a strange driver cannot stop enumeration. */
static char *info_string(info_query query, const void *object, cl_uint what)
{
    size_t size = 0;
    if (query(object, what, 0, NULL, &size) != CL_SUCCESS || size == 0)
        return calloc(1, 1);
    char *s = calloc(1, size + 1);
    if (s && query(object, what, size, s, NULL) != CL_SUCCESS)
        s[0] = '\0';
    return s;
}

static char *device_string(cl_device_id dev, cl_device_info what)
{
    return info_string(device_info, dev, what);
}

static char *platform_string(cl_platform_id p, cl_platform_info what)
{
    return info_string(platform_info, p, what);
}

static void acc_free(amp_accelerator *a)
{
    if (!a)
        return;
    /* A sub-device is not released: split_device() keeps it for the
     * process. Its queues and context are gone already
     * (amp__queue_shutdown). */
    free(a->name);
    free(a->platform_name);
    free(a->path);
    free(a->version);
    free(a->also_known_as);
    amp__handle_free(a);
}

/* OpenCL 2.0's CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, which the 1.2 headers
 * the library builds with do not name. */
#define ACC_MAX_READ_WRITE_IMAGE_ARGS 0x104C

/* The OpenCL C in which kernels may read and write one image, as a build
 * option, or NULL: a device of OpenCL 2.0 or later that takes read-write
 * image arguments (optional in 3.0; a 1.2 device does not know the query,
 * which then fails). */
static const char *read_write_images(const amp_accelerator *a, const char *version)
{
    cl_uint n = 0;
    int major = 0, minor = 0;
    if (amp__clapi.GetDeviceInfo(a->device, ACC_MAX_READ_WRITE_IMAGE_ARGS, sizeof n, &n, NULL) !=
            CL_SUCCESS ||
        n == 0 || !version || sscanf(version, "OpenCL %d.%d", &major, &minor) != 2)
        return NULL;
    return major >= 3 ? "-cl-std=CL3.0" : major == 2 ? "-cl-std=CL2.0" : NULL;
}

/* "OpenCL 1.0 ..." and older lack the 32-bit atomics in the core. */
static int has_atomics(const char *version, const char *extensions)
{
    int major = 0, minor = 0;
    if (version && sscanf(version, "OpenCL %d.%d", &major, &minor) == 2 &&
        (major > 1 || (major == 1 && minor >= 1)))
        return 1;
    return extensions && strstr(extensions, "cl_khr_global_int32_base_atomics") &&
           strstr(extensions, "cl_khr_local_int32_base_atomics");
}

/* The platform's other names, which AMP_DEVICE also matches: its vendor,
 * its version (PoCL's names PoCL, while its platform is "Portable Computing
 * Language") and the suffix of its ICD ("POCL", "NV"). */
static char *platform_aliases(cl_platform_id p)
{
    char *vendor = platform_string(p, CL_PLATFORM_VENDOR);
    char *version = platform_string(p, CL_PLATFORM_VERSION);
    char *suffix = platform_string(p, 0x0920 /* CL_PLATFORM_ICD_SUFFIX_KHR, cl_ext.h */);
    strbuf sb = STRBUF_INIT;
    amp__sb_printf(&sb, "%s / %s / %s", vendor ? vendor : "", version ? version : "",
                   suffix ? suffix : "");
    free(suffix);
    free(version);
    free(vendor);
    return amp__sb_take(&sb);
}

/* Read the device's limits; a failure is reported, not taken as a limit of
 * 0 that would stay until amp_shutdown(). Every device answers these
 * (OpenCL 1.2). */
static cl_int read_limits(amp_accelerator *a, const char *dev_version, const char *extensions)
{
    cl_ulong gmem = 0, lmem = 0, max_alloc = 0;
    cl_device_fp_config fp64 = 0;
    cl_int rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_TYPE, sizeof a->type, &a->type, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem,
                                      NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem,
                                      NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc,
                                      &max_alloc, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_WORK_GROUP_SIZE,
                                      sizeof a->max_work_group, &a->max_work_group, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_COMPUTE_UNITS,
                                      sizeof a->compute_units, &a->compute_units, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_WORK_ITEM_SIZES,
                                      sizeof a->max_work_item, a->max_work_item, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_MAX_PARAMETER_SIZE,
                                      sizeof a->max_arg_bytes, &a->max_arg_bytes, NULL);
    if (rc == CL_SUCCESS)
        rc = amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_ADDRESS_BITS, sizeof a->address_bits,
                                      &a->address_bits, NULL);
    amp__clapi.GetDeviceInfo(a->device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64, &fp64, NULL);
    a->global_mem = gmem;
    a->local_mem = lmem;
    a->max_alloc = max_alloc ? max_alloc : gmem;
    /* Some drivers report no CL_DEVICE_DOUBLE_FP_CONFIG but list the
     * extension; either one is enough. */
    a->fp64 = fp64 != 0 || (extensions && strstr(extensions, "cl_khr_fp64"));
    a->atomics = has_atomics(dev_version, extensions);
    a->image3d_writes = extensions && strstr(extensions, "cl_khr_3d_image_writes");
    a->rw_images_std = read_write_images(a, dev_version);
    if (a->address_bits == 0)
        a->address_bits = 32;
    for (int d = 0; d < 3; d++)
        if (a->max_work_item[d] == 0)
            a->max_work_item[d] = 1;
    if (a->max_work_group == 0)
        a->max_work_group = 1;
    if (a->compute_units == 0)
        a->compute_units = 1;
    /* OpenCL's minimum for a full profile device. */
    if (a->max_arg_bytes == 0)
        a->max_arg_bytes = 1024;
    return rc;
}

/* Read what the accelerator is. pi and di are the platform's and the
 * device's index on it, for the device path; part (1 .. parts) numbers a
 * sub-device, 0 a whole device. */
static amp_status acc_describe(amp_accelerator *a, size_t pi, size_t di, unsigned part,
                               unsigned parts)
{
    char *dev_version = device_string(a->device, CL_DEVICE_VERSION);
    char *drv_version = device_string(a->device, CL_DRIVER_VERSION);
    char *extensions = device_string(a->device, CL_DEVICE_EXTENSIONS);
    char *name = device_string(a->device, CL_DEVICE_NAME);
    a->platform_name = platform_string(a->platform, CL_PLATFORM_NAME);
    a->also_known_as = platform_aliases(a->platform);
    strbuf sb = STRBUF_INIT;
    /* A part's name says which part, so that messages, amp-info and
     * AMP_DEVICE tell the parts apart. */
    if (part)
        amp__sb_printf(&sb, "%s (part %u of %u)", name ? name : "", part, parts);
    else
        amp__sb_printf(&sb, "%s", name ? name : "");
    a->name = amp__sb_take(&sb);
    if (part)
        amp__sb_printf(&sb, "opencl:%zu/%zu.%u", pi, di, part - 1);
    else
        amp__sb_printf(&sb, "opencl:%zu/%zu", pi, di);
    a->path = amp__sb_take(&sb);
    amp__sb_printf(&sb, "%s, driver %s", dev_version ? dev_version : "",
                   drv_version ? drv_version : "");
    a->version = amp__sb_take(&sb);
    cl_int rc = read_limits(a, dev_version, extensions);

    free(name);
    free(extensions);
    free(drv_version);
    free(dev_version);
    if (!a->name || !a->platform_name || !a->path || !a->version || !a->also_known_as)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetDeviceInfo", "Reading the limits of an OpenCL device");
    return AMP_OK;
}

/* AMP_SPLIT_CPU: into how many parts each CPU device is split; 0: none. */
static amp_status split_request(unsigned *parts)
{
    const char *v = amp__env_split_cpu();
    *parts = 0;
    if (!v || !v[0] || amp__ock_installed())
        return AMP_OK;
    char *end = NULL;
    unsigned long n = strtoul(v, &end, 10);
    if (end == v || *end != '\0' || n > 1024)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "AMP_SPLIT_CPU=\"%s\" is not a number of parts. Give 2 or more to split"
                            " each CPU device into that many accelerators, or unset it.",
                            v);
    *parts = n >= 2 ? (unsigned)n : 0;
    return AMP_OK;
}

/* Sub-devices made so far, kept for the life of the process and reused by
 * every later listing (after amp_shutdown()), never released: PoCL 3.1
 * frees a released sub-device while its worker threads may still finish a
 * command of it, and crashes there (seen as a segfault in POclReleaseEvent,
 * about 1 run in 40 of tests/device/test_queues). A process splits few devices. */
typedef struct split_parts {
    cl_device_id parent;
    unsigned parts;
    cl_device_id *subs;
    struct split_parts *next;
} split_parts;
static split_parts *splits;

/* Split a CPU device into parts sub-devices of equal compute units, stored
 * in subs (parts entries), or find the ones made before. */
static amp_status split_device(cl_device_id dev, unsigned parts, cl_device_id *subs)
{
    for (split_parts *s = splits; s; s = s->next)
        if (s->parent == dev && s->parts == parts) {
            memcpy(subs, s->subs, parts * sizeof *subs);
            return AMP_OK;
        }
    cl_uint units = 0;
    amp__clapi.GetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
    char *name = device_string(dev, CL_DEVICE_NAME);
    amp_status st = AMP_OK;
    cl_uint made = 0;
    cl_device_id *all = NULL;
    split_parts *kept = NULL;
    if (units < parts) {
        st = amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "AMP_SPLIT_CPU=%u: %s has %u compute units, so it splits into at most %u"
                          " parts. Ask for fewer, or unset AMP_SPLIT_CPU.",
                          parts, name ? name : "the CPU device", units, units);
        goto done;
    }
    const cl_device_partition_property props[] = {CL_DEVICE_PARTITION_EQUALLY,
                                                  (cl_device_partition_property)(units / parts), 0};
    cl_int rc = amp__clapi.CreateSubDevices(dev, props, 0, NULL, &made);
    if (rc == CL_SUCCESS && made < parts)
        rc = CL_DEVICE_PARTITION_FAILED;
    if (rc == CL_SUCCESS &&
        (!(all = calloc(made, sizeof *all)) || !(kept = calloc(1, sizeof *kept)) ||
         !(kept->subs = calloc(parts, sizeof *kept->subs)))) {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
        goto done;
    }
    if (rc == CL_SUCCESS)
        rc = amp__clapi.CreateSubDevices(dev, props, made, all, NULL);
    if (rc != CL_SUCCESS) {
        st = amp__err_set(AMP_ERROR_UNSUPPORTED_FEATURE,
                          "AMP_SPLIT_CPU=%u: %s cannot be split into %u sub-devices:"
                          " clCreateSubDevices(CL_DEVICE_PARTITION_EQUALLY) failed with %s (%d)."
                          " Unset AMP_SPLIT_CPU.",
                          parts, name ? name : "the CPU device", parts, amp__err_cl_name(rc),
                          (int)rc);
        goto done;
    }
    /* Units that do not divide evenly make one more, smaller part: not
     * listed, so that the parts are alike. */
    for (cl_uint i = 0; i < made; i++) {
        if (i < parts)
            subs[i] = kept->subs[i] = all[i];
        else
            amp__clapi.ReleaseDevice(all[i]);
    }
    kept->parent = dev;
    kept->parts = parts;
    kept->next = splits;
    splits = kept;
    kept = NULL;
done:
    if (kept)
        free(kept->subs);
    free(kept);
    free(all);
    free(name);
    return st;
}

/* Add one accelerator for dev (a sub-device when part > 0). */
static amp_status add_accelerator(cl_platform_id plat, cl_device_id dev, size_t pi, size_t di,
                                  unsigned part, unsigned parts)
{
    amp_accelerator *a = amp__handle_alloc(HD_ACCELERATOR, sizeof *a, HD_LIBRARY);
    if (!a)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
    a->index = acc_count;
    a->platform = plat;
    a->device = dev;
    a->sub_device = part > 0;
    accs[acc_count++] = a;
    return acc_describe(a, pi, di, part, parts);
}

/* Add the accelerators of platform p (index pi): one per device, or per
 * part of a CPU device split into parts. A platform with no devices
 * answers CL_DEVICE_NOT_FOUND: it adds none. */
static amp_status add_platform(cl_platform_id p, size_t pi, unsigned parts)
{
    cl_uint ndev = 0;
    cl_int rc = amp__clapi.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, NULL, &ndev);
    if (rc == CL_DEVICE_NOT_FOUND || (rc == CL_SUCCESS && ndev == 0))
        return AMP_OK;
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetDeviceIDs", "Listing OpenCL devices");
    amp_status st = AMP_OK;
    size_t most = (size_t)ndev * (parts ? parts : 1);
    cl_device_id *devs = calloc(ndev, sizeof *devs);
    cl_device_id *subs = parts ? calloc(parts, sizeof *subs) : NULL;
    amp_accelerator **grown = realloc(accs, (acc_count + most) * sizeof *accs);
    if (grown)
        accs = grown;
    if (!devs || !grown || (parts && !subs)) {
        st = amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
        goto done;
    }
    rc = amp__clapi.GetDeviceIDs(p, CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
    if (rc != CL_SUCCESS) {
        st = amp__err_cl(rc, "clGetDeviceIDs", "Listing OpenCL devices");
        goto done;
    }
    for (cl_uint d = 0; d < ndev && st == AMP_OK; d++) {
        cl_device_type type = 0;
        amp__clapi.GetDeviceInfo(devs[d], CL_DEVICE_TYPE, sizeof type, &type, NULL);
        if (!parts || !(type & CL_DEVICE_TYPE_CPU)) {
            st = add_accelerator(p, devs[d], pi, d, 0, 0);
            continue;
        }
        st = split_device(devs[d], parts, subs);
        for (unsigned k = 0; k < parts && st == AMP_OK; k++)
            st = add_accelerator(p, subs[k], pi, d, k + 1, parts);
    }
done:
    free(subs);
    free(devs);
    return st;
}

/* List every platform's accelerators. */
static amp_status list_accelerators(unsigned parts)
{
    cl_uint nplat = 0;
    cl_int rc = amp__clapi.GetPlatformIDs(0, NULL, &nplat);
    if (rc == CL_PLATFORM_NOT_FOUND_KHR || (rc == CL_SUCCESS && nplat == 0))
        return AMP_OK;
    if (rc != CL_SUCCESS)
        return amp__err_cl(rc, "clGetPlatformIDs", "Listing OpenCL platforms");
    cl_platform_id *plats = calloc(nplat, sizeof *plats);
    if (!plats)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "Out of host memory while listing devices.");
    amp_status st = AMP_OK;
    rc = amp__clapi.GetPlatformIDs(nplat, plats, NULL);
    if (rc != CL_SUCCESS)
        st = amp__err_cl(rc, "clGetPlatformIDs", "Listing OpenCL platforms");
    /* Any failure but an empty platform is reported, and the next call
     * lists again. */
    for (cl_uint p = 0; p < nplat && st == AMP_OK; p++)
        st = add_platform(plats[p], p, parts);
    free(plats);
    return st;
}

/* OpenCL does not survive fork(): in a child of a process that had started
 * it, every OpenCL call fails at once with a message that says so, where it
 * would wait for a thread that the child does not have. */
static void opencl_gone_in_child(void)
{
    amp__clapi_disable_after_fork();
}

static void watch_fork(void)
{
    pthread_atfork(NULL, NULL, opencl_gone_in_child);
}

amp_status amp__acc_init(void)
{
    LOCK_ASSERT_HELD();
    if (acc_ready)
        return acc_count ? AMP_OK : amp__err_set(AMP_ERROR_NO_DEVICE, "%s", install_hint);
    if (amp__end_begun())
        return amp__end_refused("The accelerators are not listed (amp_shutdown() released them)",
                                "listing them now could crash inside an OpenCL implementation"
                                " whose exit handlers have run");

    /* AMP_CHECK runs every kernel on Oclgrind: its runtime must take the
     * place of the loader's before the first OpenCL call. */
    if (amp__ock_requested() && !amp__ock_installed()) {
        amp_status st = amp__ock_install();
        if (st != AMP_OK)
            return st;
        if (amp__env_trace_kernels())
            fprintf(stderr, "[amp] AMP_CHECK: kernels run on Oclgrind, with its race and"
                            " bounds checks\n");
    }

    static pthread_once_t fork_watched = PTHREAD_ONCE_INIT;
    pthread_once(&fork_watched, watch_fork);

    unsigned parts = 0;
    amp_status st = split_request(&parts);
    if (st != AMP_OK)
        return st;
    amp__prof_configure();
    /* Listing loads the OpenCL implementations, which register exit
     * handlers of their own (device/ending.h). */
    int first = amp__end_begin(END_LISTED, NULL);
    st = list_accelerators(parts);
    amp__end_done(END_LISTED, NULL, first);
    if (st != AMP_OK) {
        amp__acc_shutdown(); /* try again from scratch on the next call */
        return st;
    }
    acc_ready = 1;
    if (acc_count == 0)
        return amp__err_set(AMP_ERROR_NO_DEVICE, "%s", install_hint);
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
        amp__sb_printf(sb, "\n  %zu: %s / %s", i, accs[i]->platform_name, accs[i]->name);
}

/* The first accelerator whose "platform / device" name holds want, or,
 * when none does, whose platform's vendor, version or ICD suffix holds it,
 * ignoring case; NULL when none. */
static amp_accelerator *acc_named(const char *want)
{
    for (int aliases = 0; aliases < 2; aliases++)
        for (size_t i = 0; i < acc_count; i++) {
            strbuf sb = STRBUF_INIT;
            if (aliases)
                amp__sb_append(&sb, accs[i]->also_known_as);
            else
                amp__sb_printf(&sb, "%s / %s", accs[i]->platform_name, accs[i]->name);
            int match = !amp__sb_failed(&sb) && contains_nocase(sb.data, want);
            amp__sb_free(&sb);
            if (match)
                return accs[i];
        }
    return NULL;
}

/* The accelerator AMP_DEVICE names: an index, or part of a name. */
static amp_status acc_from_env(const char *want, amp_accelerator **out)
{
    char *end = NULL;
    unsigned long idx = strtoul(want, &end, 10);
    int numeric = end != want && *end == '\0';
    if (numeric && idx < acc_count) {
        *out = accs[idx];
        return AMP_OK;
    }
    if (!numeric && (*out = acc_named(want)) != NULL)
        return AMP_OK;
    strbuf sb = STRBUF_INIT;
    list_devices(&sb);
    amp_status st = amp__err_set(AMP_ERROR_NO_DEVICE,
                                 "AMP_DEVICE=\"%s\" matches no device. Give an index, or a part"
                                 " of a name (platform, device, vendor or version) from this"
                                 " list:%s",
                                 want, sb.data ? sb.data : "");
    amp__sb_free(&sb);
    return st;
}

/* Why acc_chosen was chosen, for amp-info and messages. */
static char chosen_reason[160];

amp_status amp__acc_default(amp_accelerator **out)
{
    LOCK_ASSERT_HELD();
    if (acc_chosen) {
        acc_default_used = 1;
        *out = acc_chosen;
        return AMP_OK;
    }
    amp_status st = amp__acc_init();
    if (st != AMP_OK)
        return st;
    const char *want = amp__env_device();
    /* Under AMP_CHECK the only device is the simulator's. */
    if (want && want[0] && !amp__ock_installed()) {
        st = acc_from_env(want, &acc_chosen);
        if (st != AMP_OK)
            return st;
        snprintf(chosen_reason, sizeof chosen_reason, "AMP_DEVICE=%s", want);
    } else if (amp__ock_installed()) {
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
    acc_default_used = 1;
    *out = acc_chosen;
    return AMP_OK;
}

amp_status amp__acc_resolve(const char *fn, amp_accelerator *acc, amp_accelerator **out)
{
    LOCK_ASSERT_HELD();
    if (!acc)
        return amp__acc_default(out);
    amp_status st = amp__handle_check(fn, acc, HD_ACCELERATOR);
    if (st == AMP_OK)
        *out = acc;
    return st;
}

size_t amp__acc_listed(void)
{
    LOCK_ASSERT_HELD();
    return acc_count;
}

amp_accelerator *amp__acc_at(size_t i)
{
    LOCK_ASSERT_HELD();
    return accs[i];
}

void amp__acc_shutdown(void)
{
    LOCK_ASSERT_HELD();
    for (size_t i = 0; i < acc_count; i++)
        acc_free(accs[i]);
    free(accs);
    accs = NULL;
    acc_count = 0;
    acc_ready = 0;
    acc_chosen = NULL;
    acc_default_used = 0;
    chosen_reason[0] = '\0';
    amp__prof_unconfigure();
}

/* ---- Public API ---- */

amp_status amp_accelerator_count(size_t *count)
{
    if (!count)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_count: count is NULL.");
    amp__lock_acquire();
    amp_status st = amp__acc_init();
    *count = st == AMP_OK ? acc_count : 0;
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_get(size_t index, amp_accelerator **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "amp_accelerator_get: out is NULL.");
    *out = NULL;
    amp__lock_acquire();
    amp_status st = amp__acc_init();
    if (st == AMP_OK && index >= acc_count)
        st = amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                          "amp_accelerator_get: index %zu is out of range; there are %zu"
                          " devices.",
                          index, acc_count);
    if (st == AMP_OK)
        *out = accs[index];
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_get_default(amp_accelerator **out)
{
    if (!out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "amp_accelerator_get_default: out is NULL.");
    *out = NULL;
    amp__lock_acquire();
    amp_status st = amp__acc_default(out);
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_get_info(const amp_accelerator *acc, amp_accelerator_info *info)
{
    static const char fn[] = "amp_accelerator_get_info";
    if (!info)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: info is NULL.", fn);
    amp__lock_acquire();
    amp_status st = amp__handle_check(fn, acc, HD_ACCELERATOR);
    if (st == AMP_OK) {
        info->description = acc->name;
        info->device_path = acc->path;
        info->platform = acc->platform_name;
        info->version = acc->version;
        info->dedicated_memory = acc->global_mem;
        info->tile_static_size = acc->local_mem;
        info->max_tile_size = acc->max_work_group;
        info->compute_units = acc->compute_units;
        info->max_allocation = acc->max_alloc;
        info->supports_double = acc->fp64;
        info->supports_atomics = acc->atomics;
        info->is_emulated = (acc->type & CL_DEVICE_TYPE_CPU) != 0;
        info->is_default = acc_chosen == acc;
    }
    amp__lock_release();
    return st;
}

amp_status amp_accelerator_set_default(amp_accelerator *acc)
{
    static const char fn[] = "amp_accelerator_set_default";
    amp__lock_acquire();
    /* The devices first: a handle from before amp_shutdown() is released,
     * whether or not they were listed again since. */
    amp_status st = amp__acc_init();
    if (st == AMP_OK)
        st = amp__handle_check(fn, acc, HD_ACCELERATOR);
    if (st == AMP_OK && acc_default_used && acc_chosen != acc)
        st = amp__err_set(AMP_ERROR_INVALID_OPERATION,
                          "%s: the default accelerator is already %s (%s), and it has been"
                          " used. As in C++ AMP, set the default before anything uses it:"
                          " before the first kernel, view or default query.",
                          fn, acc_chosen->name, chosen_reason);
    else if (st == AMP_OK && acc_chosen != acc) {
        acc_chosen = acc;
        snprintf(chosen_reason, sizeof chosen_reason, "set by amp_accelerator_set_default");
    }
    amp__lock_release();
    return st;
}

const char *amp_accelerator_get_default_reason(void)
{
    /* The buffer is written once, when the default is chosen, and then
     * stays until amp_shutdown(): hand it out only after that write, which
     * the lock orders before this read. */
    amp__lock_acquire();
    const char *reason = acc_chosen ? chosen_reason : "";
    amp__lock_release();
    return reason;
}

/* ---- Hooks for tests (core/testing.h) ---- */

test_device_caps amp__test_device_caps(const amp_accelerator *acc)
{
    return (test_device_caps){acc->fp64, acc->atomics, acc->address_bits, acc->max_arg_bytes};
}

void amp__test_set_device_caps(amp_accelerator *acc, test_device_caps caps)
{
    acc->fp64 = caps.fp64;
    acc->atomics = caps.atomics;
    acc->address_bits = caps.address_bits;
    acc->max_arg_bytes = caps.max_arg_bytes;
}
