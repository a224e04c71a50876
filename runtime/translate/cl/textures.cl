/* Textures (read only). t(i), t(i, j), t(i, j, k) or t(index) read the texel
   at an integer index, 0 outside the texture; amp_sample(t, x[, y[, z]])
   samples a float texture at normalized coordinates (0 to 1 across each
   side, x across a row), filtering linearly between texels and clamping at
   the edges. Both give the scalar of a one-channel texture and a vector for
   two or four channels. A texel is a value, not a place: assigning to one
   does not compile. */
__constant sampler_t amp_texel_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t amp_linear_sampler =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
#define amp_sample(t, ...) AMP_SAMPLE_##t(__VA_ARGS__)
/* Images are indexed (x, y, z): x is C++ AMP's last dimension. */
#define AMP_TEXEL_1(t, i) AMP_READ_##t((int)amp_to_index_1(i))
#define AMP_TEXEL_2_AT(t, i, j) AMP_READ_##t((int2)((j), (i)))
#define AMP_TEXEL_2_INDEXED(t, ix) AMP_READ_##t(amp_to_index_2(AMP_INDEX_OF_RANK(ix, 2)).yx)
#define AMP_TEXEL_3_AT(t, i, j, k) AMP_READ_##t((int4)((k), (j), (i), 0))
#define AMP_TEXEL_3_INDEXED(t, ix) \
    AMP_READ_##t((int4)(amp_to_index_3(AMP_INDEX_OF_RANK(ix, 3)).zyx, 0))
#define AMP_TEXEL_2(t, ...) \
    AMP_PICK2(__VA_ARGS__, AMP_TEXEL_2_AT, AMP_TEXEL_2_INDEXED, )(t, __VA_ARGS__)
#define AMP_TEXEL_3(t, ...) \
    AMP_PICK3(__VA_ARGS__, AMP_TEXEL_3_AT, AMP_TEXEL_3_TAKES_1_OR_3, AMP_TEXEL_3_INDEXED, )(t, __VA_ARGS__)
