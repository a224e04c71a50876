/* Atomics, as C++ AMP names them: on int and unsigned in __global or
   tile_static memory, returning the old value; atomic_exchange also takes
   float. Some OpenCL headers define these names for OpenCL 2.0: ours win. */
/* OpenCL's atomics take a pointer to any element with only a warning,
   and would change the first bytes of a struct: the operand's type is
   checked (the overloads are declared only, for sizeof), and any other
   element stops the build with an error that names it, on its line: its
   overload's type is incomplete. (Not an array bound of a struct: an
   operand such as &m(i, j) holds a vector made of variables, which is no
   constant there.) */
struct atomic_on_an_element_that_is_not_int_unsigned_or_float;
char __attribute__((overloadable)) amp_atomic_operand(volatile __global int *);
char __attribute__((overloadable)) amp_atomic_operand(volatile __global uint *);
char __attribute__((overloadable)) amp_atomic_operand(volatile __local int *);
char __attribute__((overloadable)) amp_atomic_operand(volatile __local uint *);
char __attribute__((overloadable)) amp_atomic_operand(volatile __global float *);
char __attribute__((overloadable)) amp_atomic_operand(volatile __local float *);
struct atomic_on_an_element_that_is_not_int_unsigned_or_float __attribute__((overloadable))
amp_atomic_operand(const volatile __global void *);
struct atomic_on_an_element_that_is_not_int_unsigned_or_float __attribute__((overloadable))
amp_atomic_operand(const volatile __local void *);
#define AMP_ATOMIC_OPERAND(p) ((void)sizeof(amp_atomic_operand(p)), (p))
/* The same for the operations that take integers only: C++ AMP's
   atomic_fetch_add ... of a float does not exist, and OpenCL's would be an
   ambiguous call. */
struct atomic_on_a_float_is_atomic_exchange_only;
char __attribute__((overloadable)) amp_atomic_integer(volatile __global int *);
char __attribute__((overloadable)) amp_atomic_integer(volatile __global uint *);
char __attribute__((overloadable)) amp_atomic_integer(volatile __local int *);
char __attribute__((overloadable)) amp_atomic_integer(volatile __local uint *);
struct atomic_on_a_float_is_atomic_exchange_only __attribute__((overloadable))
amp_atomic_integer(volatile __global float *);
struct atomic_on_a_float_is_atomic_exchange_only __attribute__((overloadable))
amp_atomic_integer(volatile __local float *);
char __attribute__((overloadable)) amp_atomic_integer(const volatile __global void *);
char __attribute__((overloadable)) amp_atomic_integer(const volatile __local void *);
#define AMP_ATOMIC_INTEGER(p) ((void)sizeof(amp_atomic_integer(p)), AMP_ATOMIC_OPERAND(p))

#undef atomic_fetch_add
#define atomic_fetch_add(p, v) atomic_add(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_sub
#define atomic_fetch_sub(p, v) atomic_sub(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_inc
#define atomic_fetch_inc(p) atomic_inc(AMP_ATOMIC_INTEGER(p))

#undef atomic_fetch_dec
#define atomic_fetch_dec(p) atomic_dec(AMP_ATOMIC_INTEGER(p))

#undef atomic_fetch_max
#define atomic_fetch_max(p, v) atomic_max(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_min
#define atomic_fetch_min(p, v) atomic_min(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_and
#define atomic_fetch_and(p, v) atomic_and(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_or
#define atomic_fetch_or(p, v) atomic_or(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_fetch_xor
#define atomic_fetch_xor(p, v) atomic_xor(AMP_ATOMIC_INTEGER(p), (v))

#undef atomic_exchange
#define atomic_exchange(p, v) atomic_xchg(AMP_ATOMIC_OPERAND(p), (v))

/* Swap in v if *p equals *expected; else store *p's value in *expected.
   Returns whether it swapped. expected must point at a private variable. */
bool amp_compare_exchange_result(__private int *expected, int old)
{
    bool swapped = old == *expected;
    *expected = old;
    return swapped;
}
#undef atomic_compare_exchange
#define atomic_compare_exchange(p, expected, v) \
    amp_compare_exchange_result((__private int *)(expected), \
                                (int)atomic_cmpxchg(AMP_ATOMIC_OPERAND(p), *(expected), (v)))
