/*
 * tests/reliability/under_lsan.c - a program of a user's, built with
 * -fsanitize=address over the library built without it (under_lsan.cmake):
 * the README's first example, views released, no amp_shutdown(). What the
 * library still holds at exit (the accelerator, its names, the default
 * view) is reachable from its handles, which live in memory the library
 * maps itself: LeakSanitizer must be told to look there, or it reports
 * them as leaks.
 */
#include <stdio.h>

#include <amp/amp.h>

int main(void)
{
    int a_matrix[] = {1, 4, 2, 5, 3, 6};
    int b_matrix[] = {7, 8, 9, 10, 11, 12};
    int product_matrix[9] = {0};
    amp_array_view *a = NULL, *b = NULL, *product = NULL;
    amp_status st = amp_array_view_create(AMP_INT, amp_extent_2d(3, 2), a_matrix, &a);
    if (st == AMP_OK)
        st = amp_array_view_create(AMP_INT, amp_extent_2d(2, 3), b_matrix, &b);
    if (st == AMP_OK)
        st = amp_array_view_create(AMP_INT, amp_extent_2d(3, 3), product_matrix, &product);
    if (st == AMP_OK)
        st = AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(product), idx,
                                   AMP_CAPTURE(a, b, product), {
            for (int inner = 0; inner < 2; inner++)
                product(idx) += a(idx[0], inner) * b(inner, idx[1]);
        });
    if (st == AMP_OK)
        st = amp_array_view_synchronize(product);
    amp_array_view_release(a);
    amp_array_view_release(b);
    amp_array_view_release(product);
    if (st != AMP_OK) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    printf("%d %d %d\n", product_matrix[0], product_matrix[4], product_matrix[8]);
    return product_matrix[0] == 47 && product_matrix[4] == 71 && product_matrix[8] == 99 ? 0 : 1;
}
