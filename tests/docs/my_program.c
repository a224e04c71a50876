/* The program the README's "Your own program" commands build
 * (scripts/docs/readme-build.sh): the README's first example, whole. */
#include <stdio.h>

#include <amp/amp.h>

int main(void)
{
    int aMatrix[] = {1, 4, 2, 5, 3, 6};
    int bMatrix[] = {7, 8, 9, 10, 11, 12};
    int productMatrix[9] = {0};

    amp_array_view *a, *b, *product;
    amp_array_view_create(AMP_INT, amp_extent_2d(3, 2), aMatrix, &a);
    amp_array_view_create(AMP_INT, amp_extent_2d(2, 3), bMatrix, &b);
    amp_array_view_create(AMP_INT, amp_extent_2d(3, 3), productMatrix, &product);

    amp_status status = AMP_PARALLEL_FOR_EACH(amp_array_view_get_extent(product), idx,
                                              AMP_CAPTURE(a, b, product), {
        for (int inner = 0; inner < 2; inner++)
            product(idx) += a(idx[0], inner) * b(inner, idx[1]);
    });
    if (status != AMP_OK) {
        fprintf(stderr, "%s\n", amp_last_error());
        return 1;
    }
    amp_array_view_synchronize(product);
    for (int i = 0; i < 9; i++)
        printf("%d%c", productMatrix[i], i % 3 == 2 ? '\n' : ' ');
    amp_array_view_release(a);
    amp_array_view_release(b);
    amp_array_view_release(product);
    return productMatrix[0] == 47 && productMatrix[4] == 71 && productMatrix[8] == 99 ? 0 : 1;
}
