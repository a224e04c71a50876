/*
 * A program with functions of its own named as the library's internals are
 * named inside it (sha256, err_set, sb_append, coh_device_ready, ...): it
 * links with libamp.a and runs a kernel, since every internal symbol of the
 * library carries the reserved amp__ prefix.
 */
#include <stdio.h>

#include <amp/amp.h>

/* Each of these would be a duplicate definition if the library's were
 * not prefixed. */
int sha256(int x) { return x + 1; }
int err_set(int x) { return x + 2; }
int sb_append(int x) { return x + 3; }
int coh_device_ready(int x) { return x + 4; }
int kc_get(int x) { return x + 5; }
int rg_add(int x) { return x + 6; }
int clapi = 7;
int lock_acquire(int x) { return x + 8; }

int main(void)
{
    int data[4] = {1, 2, 3, 4};
    amp_array_view *v;
    amp_status st = amp_array_view_create(AMP_INT, amp_extent_1d(4), data, &v);
    if (st == AMP_OK)
        st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), i, AMP_CAPTURE(v), { v(i) *= 10; });
    if (st == AMP_OK)
        st = amp_array_view_release(v);
    if (st != AMP_OK) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    int own = sha256(0) + err_set(0) + sb_append(0) + coh_device_ready(0) + kc_get(0) + rg_add(0) +
              clapi + lock_acquire(0);
    printf("%d %d %d %d, own functions %d\n", data[0], data[1], data[2], data[3], own);
    return own == 36 && data[3] == 40 ? 0 : 1;
}
