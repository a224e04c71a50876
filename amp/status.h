/*
 * amp/status.h - status codes and the last-error message.
 *
 * Every function of the library that can fail returns an amp_status. C++ AMP
 * reported the same failures as exceptions; each exception class has a status
 * here (see docs/porting.md for the mapping). When a call fails, a message
 * that says what went wrong and what to do about it is kept for the calling
 * thread and can be read with amp_last_error().
 */
#ifndef AMP_STATUS_H
#define AMP_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum amp_status {
    /* The call did what it was asked. */
    AMP_OK = 0,
    /* A NULL or released handle, a NULL pointer, a rank or element type
     * that does not fit the call. A "released" handle, in the comments of
     * the functions, is any pointer that is not a live handle of the kind
     * the call takes: one released, one made up or never the library's, one
     * of another kind; the library never reads through such a pointer, and
     * the message says which it is and what to do. */
    AMP_ERROR_INVALID_ARGUMENT = -1,
    /* C++ AMP's invalid_compute_domain: an extent with a dimension <= 0, an
     * extent that its tile does not divide, or more threads than the device
     * can index. */
    AMP_ERROR_INVALID_COMPUTE_DOMAIN = -2,
    /* C++ AMP's out_of_memory: the device or the host could not allocate. */
    AMP_ERROR_OUT_OF_MEMORY = -3,
    /* C++ AMP's unsupported_feature: the device lacks what the call needs
     * (double precision, images, atomics). */
    AMP_ERROR_UNSUPPORTED_FEATURE = -4,
    /* C++ AMP's runtime_exception: an OpenCL call failed for a reason that
     * has no status of its own. The message names the call and its error. */
    AMP_ERROR_RUNTIME = -5,
    /* C++ AMP's accelerator_view_removed: the device was lost, or a kernel
     * was aborted. */
    AMP_ERROR_ACCELERATOR_VIEW_REMOVED = -6,
    /* A generated kernel failed to compile. The message holds the build log
     * and the numbered generated source. */
    AMP_ERROR_KERNEL_BUILD = -7,
    /* No OpenCL device was found, or AMP_DEVICE matched none. */
    AMP_ERROR_NO_DEVICE = -8,
    /* The request exceeds a limit of the device: a tile over its maximum
     * work-group size, tile_static memory over its local memory, too many
     * kernel arguments. */
    AMP_ERROR_DEVICE_LIMIT = -9,
    /* The call is valid, but not in the state the runtime is in (for
     * example choosing the default accelerator after it was used). */
    AMP_ERROR_INVALID_OPERATION = -10,
    /* AMP_CHECK is on and the kernel ran with a data race, a barrier that
     * not every thread of a tile reached, or an access outside a view or
     * tile_static array. The message (also printed on stderr) gives each
     * at the user's file and line. */
    AMP_ERROR_KERNEL_CHECK = -11
} amp_status;

/*
 * The name of a status, such as "AMP_ERROR_INVALID_COMPUTE_DOMAIN".
 * Returns a static string; an unknown value gives "AMP_STATUS_UNKNOWN".
 */
const char *amp_status_name(amp_status status);

/*
 * The message of the last call that failed on this thread, or "" when none
 * has. The string belongs to the library and stays valid until the next
 * failing call on the same thread. A successful call does not clear it.
 */
const char *amp_last_error(void);

/*
 * Forget this thread's last error, so that amp_last_error() returns "".
 */
void amp_clear_error(void);

/* A function to call when a call of the library fails. */
typedef void (*amp_error_callback)(amp_status status, const char *message, void *user_data);

/*
 * Have fn(status, message, user_data) called whenever a call of the library
 * fails, for programs that prefer one place to report errors to checking
 * every status. NULL switches it off. It is called once per failed call, on
 * the thread that made the call, after the library has released its lock:
 * it may call the library, and message (the thread's amp_last_error()) is
 * valid until that thread's next failed call. A failure of an asynchronous
 * operation (amp/completion.h) is reported by amp_completion_wait(), on the
 * waiting thread. The status is still returned as usual. One callback for
 * the process; setting it is not ordered with failures on other threads
 * that happen at the same time.
 */
void amp_set_error_callback(amp_error_callback fn, void *user_data);

/*
 * Internal: marks a deprecated spelling, naming the one to use, so that a
 * program that still uses it is told at compile time (GCC and clang; turn
 * it off with -Wno-deprecated-declarations). Every deprecated spelling
 * keeps working, and docs/api.md lists them ("Deprecated spellings").
 */
#if defined(__GNUC__) || defined(__clang__)
#define AMP__DEPRECATED(use) __attribute__((deprecated("use " use)))
#else
#define AMP__DEPRECATED(use)
#endif

/*
 * Internal, for the leak report (AMP_LEAKS=1 lists at exit every handle
 * the program made and never released, with the file and line that made
 * it). Each function that makes a handle is also a function-like macro of
 * the same name, defined after its declaration with AMP__MADE_AT: it tells
 * the library the caller's __FILE__ and __LINE__, then calls the function.
 * The function itself is unchanged: &amp_array_view_create and
 * (amp_array_view_create)(...) call it without the macro, and the handles
 * they make are listed without a line.
 */
void amp__handle_site(const char *file, int line, const char *call);
amp_status amp__handle_site_end(amp_status status);
#define AMP__MADE_AT(name, ...)                                                                    \
    (amp__handle_site(__FILE__, __LINE__, #name), amp__handle_site_end(name(__VA_ARGS__)))
/* The same for a call that wraps host memory, which also tells the library
 * the scalar type the caller's data pointer points to (an amp_elem_type, 0
 * where it is no int, unsigned, float or double), so that a view of another
 * type over it is refused before it reads or writes past the array. */
void amp__handle_site_data(int data_type);
#define AMP__MADE_OVER(name, data_type, ...)                                                       \
    (amp__handle_site(__FILE__, __LINE__, #name), amp__handle_site_data(data_type),                \
     amp__handle_site_end(name(__VA_ARGS__)))

#ifdef __cplusplus
}
#endif

#endif
