/* A padded domain: an access outside the view's extent (as a thread past
   the original extent makes) lands on the sink, a small buffer of its
   own, so it never touches the view's memory or the memory around it:
   a write there is dropped, a read gives an unspecified value. Any
   thread may still read or write any element inside the view. Each
   index is computed once. */
long amp_guard_1(long i, const int *extent)
{
    return i >= 0 && i < extent[0] ? i : -1;
}
long amp_guard_2(int2 x, const int *extent, long stride0)
{
    return x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1]
        ? x.s0 * stride0 + x.s1 : -1;
}
long amp_guard_3(int3 x, const int *extent, long stride0, long stride1)
{
    return x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1] && x.s2 >= 0 &&
            x.s2 < extent[2]
        ? x.s0 * stride0 + x.s1 * stride1 + x.s2 : -1;
}
#undef AMP_PLACE
#define AMP_PLACE(v, offset) amp_at_##v(amp_##v##_ptr, amp_##v##_sink, offset)[0]
#undef AMP_OFFSET_1
#undef AMP_OFFSET_2
#undef AMP_OFFSET_3
#define AMP_OFFSET_1(v, i) amp_guard_1(i, v##_extent)
#define AMP_OFFSET_2(v, x) amp_guard_2(x, v##_extent, amp_##v##_stride0)
#define AMP_OFFSET_3(v, x) amp_guard_3(x, v##_extent, amp_##v##_stride0, amp_##v##_stride1)
