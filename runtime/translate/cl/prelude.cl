/* ---- C++ AMP's kernel vocabulary in OpenCL C ---- */

/* tile_static: memory shared by the threads of one tile. */
#define tile_static __local

/* Every captured view's pointer and extent are set up, whether the body
   uses them or not: no warning for those it does not. */
#define AMP_MAYBE_UNUSED __attribute__((unused))

/* global and local are OpenCL C keywords; renaming them lets the tiled
   index have members of those names, as in C++ AMP. Write __global and
   __local for the address spaces. */
#define global amp_global
#define local amp_local

/* The barrier. C has no member functions, so t_idx.barrier.wait() expands
   to an assignment to a dummy member of a comma expression that calls
   barrier() right there, on the body's own line (where a checker's
   report of a barrier not every thread reaches should point). */
typedef struct amp_tile_barrier {
    int done;
} amp_tile_barrier;
#define wait() done = (barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), 1)
#define wait_with_all_memory_fence() done = (barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE), 1)
#define wait_with_global_memory_fence() done = (barrier(CLK_GLOBAL_MEM_FENCE), 1)
#define wait_with_tile_static_memory_fence() done = (barrier(CLK_LOCAL_MEM_FENCE), 1)

/* index<N> and extent<N>: an int for rank 1, int vectors for ranks 2 to 4,
   int8 for ranks 5 to 8 (with unused lanes). + - * / work on them as on
   C++ AMP's; the body's == and contains() become the functions below. */
typedef int amp_index_1;
typedef int amp_extent_1;
typedef int2 amp_index_2;
typedef int2 amp_extent_2;
typedef int3 amp_index_3;
typedef int3 amp_extent_3;
typedef int4 amp_index_4;
typedef int4 amp_extent_4;
typedef int8 amp_index_5;
typedef int8 amp_extent_5;
typedef int8 amp_index_6;
typedef int8 amp_extent_6;
typedef int8 amp_index_7;
typedef int8 amp_extent_7;
typedef int8 amp_index_8;
typedef int8 amp_extent_8;

/* Element access: v(i), v(i, j), v(i, j, k), or v(index), where an index
   (index<N>, idx, t_idx.global) is an int for rank 1 and an int vector
   for ranks 2 to 4 (int8 up to rank 8). A rank-1 view's one argument is an
   integer of any width; the overloads of amp_index_1 take each. */
int __attribute__((overloadable)) amp_to_index_1(int i) { return i; }
uint __attribute__((overloadable)) amp_to_index_1(uint i) { return i; }
long __attribute__((overloadable)) amp_to_index_1(long i) { return i; }
ulong __attribute__((overloadable)) amp_to_index_1(ulong i) { return i; }
int __attribute__((overloadable)) amp_to_index_1(const int *index) { return index[0]; }
int2 __attribute__((overloadable)) amp_to_index_2(int2 index) { return index; }
int2 __attribute__((overloadable)) amp_to_index_2(const int *index) { return (int2)(index[0], index[1]); }
int3 __attribute__((overloadable)) amp_to_index_3(int3 index) { return index; }
int3 __attribute__((overloadable)) amp_to_index_3(const int *index) { return (int3)(index[0], index[1], index[2]); }
/* An index must have its view's rank: the overloads below (declared only,
   for sizeof) take an index of that rank, and another stops the build with
   an error that names the function, on the line of the access. An array
   of ints is taken as an index of any rank. One integer, which OpenCL
   would widen to a vector, gives an incomplete type, whose sizeof is an
   error that names it. */
#define AMP_RANK_TAKES(n, vector) \
    char __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(vector); \
    char __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(const int *); \
    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \
        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(int); \
    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \
        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(uint); \
    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \
        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(long); \
    struct view_of_rank_##n##_given_an_index_of_another_rank_or_one_integer \
        __attribute__((overloadable)) view_of_rank_##n##_given_an_index_of_another_rank(ulong);
char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(int);
char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(uint);
char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(long);
char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(ulong);
char __attribute__((overloadable)) view_of_rank_1_given_an_index_of_another_rank(const int *);
AMP_RANK_TAKES(2, int2)
AMP_RANK_TAKES(3, int3)
/* A float index (or a float vector of the rank's lanes) would be
   ambiguous among the integers above: its own overload names what is
   wrong. */
struct a_view_index_is_made_of_integers_not_floats;
#define AMP_RANK_REFUSES(n, scalar, vector) \
    struct a_view_index_is_made_of_integers_not_floats __attribute__((overloadable)) \
        view_of_rank_##n##_given_an_index_of_another_rank(scalar); \
    struct a_view_index_is_made_of_integers_not_floats __attribute__((overloadable)) \
        view_of_rank_##n##_given_an_index_of_another_rank(vector);
AMP_RANK_REFUSES(1, float, float)
AMP_RANK_REFUSES(2, float, float2)
AMP_RANK_REFUSES(3, float, float3)
#ifdef cl_khr_fp64
AMP_RANK_REFUSES(1, double, double)
AMP_RANK_REFUSES(2, double, double2)
AMP_RANK_REFUSES(3, double, double3)
#endif
#define AMP_INDEX_OF_RANK(ix, n) \
    ((void)sizeof(view_of_rank_##n##_given_an_index_of_another_rank(ix)), (ix))
#define AMP_INDEX_1(i) AMP_INDEX_OF_RANK(i, 1)
/* An element is AMP_PLACE(view, offset): the element itself, except in
   padded domains, where an access outside the view lands on a sink. The
   offset of an index is computed once, by a function. */
#define AMP_PLACE(v, offset) amp_##v##_ptr[offset]
amp_off_t amp_offset_2(int2 x, amp_off_t stride0) { return (amp_off_t)x.s0 * stride0 + x.s1; }
amp_off_t amp_offset_3(int3 x, amp_off_t stride0, amp_off_t stride1)
{
    return (amp_off_t)x.s0 * stride0 + (amp_off_t)x.s1 * stride1 + x.s2;
}
#define AMP_OFFSET_1(v, i) ((amp_off_t)(i))
#define AMP_OFFSET_2(v, x) amp_offset_2(x, amp_##v##_stride0)
#define AMP_OFFSET_3(v, x) amp_offset_3(x, amp_##v##_stride0, amp_##v##_stride1)
#define AMP_PICK2(_1, _2, which, ...) which
#define AMP_PICK3(_1, _2, _3, which, ...) which
#define AMP_ELEMENT_1(v, i) AMP_PLACE(v, AMP_OFFSET_1(v, amp_to_index_1(i)))
#define AMP_ELEMENT_2(v, i, j) AMP_PLACE(v, AMP_OFFSET_2(v, (int2)((i), (j))))
#define AMP_ELEMENT_3(v, i, j, k) AMP_PLACE(v, AMP_OFFSET_3(v, (int3)((i), (j), (k))))
/* The elements of a view the kernel only reads are values, not places. */
#define AMP_READ_ONLY(element) ((void)0, (element))
#define AMP_INDEXED_2(v, ix) AMP_PLACE(v, AMP_OFFSET_2(v, amp_to_index_2(AMP_INDEX_OF_RANK(ix, 2))))
#define AMP_INDEXED_3(v, ix) AMP_PLACE(v, AMP_OFFSET_3(v, amp_to_index_3(AMP_INDEX_OF_RANK(ix, 3))))
#define AMP_ACCESS_1(v, ...) AMP_ELEMENT_1(v, AMP_INDEX_1(__VA_ARGS__))
#define AMP_ACCESS_2(v, ...) AMP_PICK2(__VA_ARGS__, AMP_ELEMENT_2, AMP_INDEXED_2, )(v, __VA_ARGS__)
#define AMP_ACCESS_3(v, ...) \
    AMP_PICK3(__VA_ARGS__, AMP_ELEMENT_3, AMP_ACCESS_3_TAKES_1_OR_3, AMP_INDEXED_3, )(v, __VA_ARGS__)
