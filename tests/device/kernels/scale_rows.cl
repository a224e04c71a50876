// A kernel body in a file: the statements of the body, at kernel scope.
// tile_static declarations are legal here as they are, and preprocessor
// directives work as in any C file.
tile_static float row_total[TS];

#define SCALE 2.0f
#if TS > 1
row_total[t_idx.local[0]] = in(t_idx.global[0]);
#else
#error "TS must be more than 1"
#endif
t_idx.barrier.wait();

#pragma unroll
for (int i = 0; i < 1; i++) {
    if (t_idx.local[0] == 0) {
        float total = 0.0f;
        for (int k = 0; k < TS; k++)
            total += row_total[k];
        out(t_idx.tile[0]) = total * SCALE;
    }
}
