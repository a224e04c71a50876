/* AMP_CHECK: every view access is tested against the view's own extent (a
   section's, not its parent's), with each index computed once. One
   outside it is described in amp_check_record (the first at each line
   and view: site, rank, index as low and high words, extent, thread) and
   lands past the end of the view's device buffer, where the simulator
   reports it at its line. In a padded domain a thread past the original
   extent is sent to the sink instead, as without AMP_CHECK: only its
   writes are reported, as the race they make there. */
long amp_check_outside(__global int *record, int site, const int *extent, int rank,
                       long spare, int size, int past_extent, const long *index,
                       const int *thread, int thread_rank)
{
    site += past_extent;
    for (int n = 0; n < CG_CHECK_SLOTS; n++) {
        __global int *slot = record + (site + n) % CG_CHECK_SLOTS * CG_CHECK_WORDS;
        int old = atomic_cmpxchg(&slot[CG_REC_SITE], 0, site);
        if (old == site)
            break;
        if (old != 0)
            continue;
        slot[CG_REC_RANK] = rank;
        for (int d = 0; d < AMP_MAX_RANK; d++) {
            slot[CG_REC_INDEX + 2 * d] = d < rank ? (int)index[d] : 0;
            slot[CG_REC_INDEX_HIGH + 2 * d] = d < rank ? (int)(index[d] >> 32) : 0;
            slot[CG_REC_EXTENT + d] = d < rank ? extent[d] : 0;
        }
        for (int d = 0; d < thread_rank; d++)
            slot[CG_REC_THREAD + d] = thread[d];
        break;
    }
    if (past_extent)
        return -1; /* the sink, a buffer of its own */
    /* Past the data and the CG_SPARE_BYTES spare bytes after it, whatever the size. */
    return spare + CG_SPARE_BYTES / size + 2;
}
#define AMP_CHECK_ARGS \
    __global int *record, int site, const int *extent, long spare, int size, int past_extent, \
    const int *thread, int thread_rank
long amp_checked_1(AMP_CHECK_ARGS, long i)
{
    if (i >= 0 && i < extent[0])
        return i;
    long index[1] = {i};
    return amp_check_outside(record, site, extent, 1, spare, size, past_extent, index,
                             thread, thread_rank);
}
long amp_checked_2(AMP_CHECK_ARGS, long stride0, int2 x)
{
    if (x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1])
        return x.s0 * stride0 + x.s1;
    long index[2] = {x.s0, x.s1};
    return amp_check_outside(record, site, extent, 2, spare, size, past_extent, index,
                             thread, thread_rank);
}
long amp_checked_3(AMP_CHECK_ARGS, long stride0, long stride1, int3 x)
{
    if (x.s0 >= 0 && x.s0 < extent[0] && x.s1 >= 0 && x.s1 < extent[1] && x.s2 >= 0 &&
        x.s2 < extent[2])
        return x.s0 * stride0 + x.s1 * stride1 + x.s2;
    long index[3] = {x.s0, x.s1, x.s2};
    return amp_check_outside(record, site, extent, 3, spare, size, past_extent, index,
                             thread, thread_rank);
}
#define AMP_CHECK_SITE(v) amp_check_record, (__LINE__ * AMP_MAX_CAPTURES + AMP_VIEW_##v) * 2 + 1, v##_extent, \
    (long)amp_##v##_spare, (int)sizeof(*amp_##v##_ptr), amp_past_extent, amp_thread_index, \
    (int)(sizeof amp_thread_index / sizeof amp_thread_index[0])
#undef AMP_OFFSET_1
#undef AMP_OFFSET_2
#undef AMP_OFFSET_3
#define AMP_OFFSET_1(v, i) amp_checked_1(AMP_CHECK_SITE(v), i)
#define AMP_OFFSET_2(v, x) amp_checked_2(AMP_CHECK_SITE(v), amp_##v##_stride0, x)
#define AMP_OFFSET_3(v, x) \
    amp_checked_3(AMP_CHECK_SITE(v), amp_##v##_stride0, amp_##v##_stride1, x)
