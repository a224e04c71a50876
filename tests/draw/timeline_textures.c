/*
 * tests/draw/timeline_textures.c - textures made one after another, each
 * read by a kernel and released, for the timeline's texture ids
 * (test_runs.py). A texture's record was kept by its address after its
 * release, and the C library gives the next one the same address: the
 * timeline called every later texture by the first one's id. Makes COUNT
 * (argv[1], default 3) textures of 8 x 8 ints, the texture k holding k;
 * prints "ok" and returns 0 when every kernel read its own texture.
 */
#include <stdio.h>
#include <stdlib.h>

#include <amp/amp.h>

#define SIDE 8

int main(int argc, char **argv)
{
    int count = argc > 1 ? atoi(argv[1]) : 3;
    int texels[SIDE * SIDE], out[SIDE * SIDE];
    for (int k = 0; k < count; k++) {
        for (int i = 0; i < SIDE * SIDE; i++)
            texels[i] = k;
        amp_texture *t;
        amp_array_view *o;
        if (amp_texture_create(AMP_INT, 1, amp_extent_2d(SIDE, SIDE), texels, NULL, &t) != AMP_OK ||
            amp_array_view_create(AMP_INT, amp_extent_2d(SIDE, SIDE), out, &o) != AMP_OK ||
            AMP_PARALLEL_FOR_EACH(amp_extent_2d(SIDE, SIDE), idx, AMP_CAPTURE(t, o),
                                  { o[idx] = t[idx] + 1; }) != AMP_OK ||
            amp_array_view_release(o) != AMP_OK || amp_texture_release(t) != AMP_OK) {
            printf("%s\n", amp_last_error());
            return 1;
        }
        for (int i = 0; i < SIDE * SIDE; i++)
            if (out[i] != k + 1) {
                printf("texture %d: element %d is %d, not %d\n", k, i, out[i], k + 1);
                return 1;
            }
    }
    amp_shutdown();
    printf("ok\n");
    return 0;
}
