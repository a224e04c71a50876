/* Textures. t(i), t(i, j), t(i, j, k), t[idx], t(idx) and t.get(idx) read
   the texel at an integer index, 0 outside the texture; t.set(idx, value)
   writes one (a write outside the texture is dropped, as Direct3D drops
   it); t.sample(s, coord) samples a texture of floats, norms or unorms at
   normalized coordinates (0 to 1 across each side, x across a row) as the
   captured sampler s says (s a number, filter * 16 + address), and
   t.sample<filter_linear, address_wrap>(coord) as the modes say;
   t.gather_red(s, coord) gives the four texels a linear sample of a rank-2
   texture blends (lower left, lower right, upper right, upper left), one
   channel each. amp_sample(t, x[, y[, z]]) is t.sample with linear filtering
   and clamping at the edges. A read gives the scalar of a one-channel
   texture and a vector for two or four channels. A texel is a value, not a
   place: assigning to one does not compile. */
__constant sampler_t amp_texel_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t amp_linear_sampler =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
#define amp_sample(t, ...) AMP_SAMPLE_##t(__VA_ARGS__)
/* Images are indexed (x, y, z): x is C++ AMP's last dimension. */
#define AMP_TEXEL_1(t, i) AMP_READ_##t((int)amp_to_index_1(i))
#define AMP_TEXEL_2_AT(t, i, j) AMP_READ_##t((int2)((j), (i)))
#define AMP_TEXEL_2_INDEXED(t, ix) AMP_READ_##t(AMP_IMAGE_COORD_2(ix))
#define AMP_TEXEL_3_AT(t, i, j, k) AMP_READ_##t((int4)((k), (j), (i), 0))
#define AMP_TEXEL_3_INDEXED(t, ix) AMP_READ_##t(AMP_IMAGE_COORD_3(ix))
#define AMP_TEXEL_2(t, ...) \
    AMP_PICK2(__VA_ARGS__, AMP_TEXEL_2_AT, AMP_TEXEL_2_INDEXED, )(t, __VA_ARGS__)
#define AMP_TEXEL_3(t, ...) \
    AMP_PICK3(__VA_ARGS__, AMP_TEXEL_3_AT, AMP_TEXEL_3_TAKES_1_OR_3, AMP_TEXEL_3_INDEXED, )(t, __VA_ARGS__)
/* A whole index (an int for rank 1) as an image's coordinates. */
#define AMP_IMAGE_COORD_1(ix) ((int)amp_to_index_1(ix))
#define AMP_IMAGE_COORD_2(ix) (amp_to_index_2(AMP_INDEX_OF_RANK(ix, 2)).yx)
#define AMP_IMAGE_COORD_3(ix) ((int4)(amp_to_index_3(AMP_INDEX_OF_RANK(ix, 3)).zyx, 0))
/* C++ AMP's coordinates of a sample: float, float_2, float_3. */
#define AMP_SAMPLE_COORD_1(c) ((float)(c))
#define AMP_SAMPLE_COORD_2(c) ((float2)(c))
#define AMP_SAMPLE_COORD_3(c) ((float4)((float3)(c), 0.0f))

/* The samplers, by filter * 16 + address (amp/texture.h's codes), and by
   C++ AMP's names of the modes. address_border gives 0 outside. */
#define AMP_TEX_CAT(a, b) AMP_TEX_CAT_(a, b)
#define AMP_TEX_CAT_(a, b) a##b
#define AMP_SAMPLER_OF(s) AMP_TEX_CAT(amp_sampler_, s)
#define AMP_POINT_SAMPLER_OF(s) AMP_TEX_CAT(amp_point_of_, s)
#define AMP_SAMPLER_PAIR(filter, address) filter##_##address
/* C++ AMP's level of detail of a sample: a texture here has one level,
   which every level of detail samples. */
#define AMP_AT_LEVEL_OF_DETAIL(texel, level) ((void)(level), (texel))
#define AMP_SAMPLER_ADDRESS(address) filter_point_##address
__constant sampler_t amp_sampler_1 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t amp_sampler_2 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_NEAREST;
__constant sampler_t amp_sampler_3 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
__constant sampler_t amp_sampler_4 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
__constant sampler_t amp_sampler_17 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t amp_sampler_18 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;
__constant sampler_t amp_sampler_19 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;
__constant sampler_t amp_sampler_20 =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP | CLK_FILTER_LINEAR;
#define amp_sampler_0 amp_sampler_modes_are_not_amp_filter_mode_and_amp_address_mode_values
#define amp_sampler_filter_point_address_wrap amp_sampler_1
#define amp_sampler_filter_point_address_mirror amp_sampler_2
#define amp_sampler_filter_point_address_clamp amp_sampler_3
#define amp_sampler_filter_point_address_border amp_sampler_4
#define amp_sampler_filter_linear_address_wrap amp_sampler_17
#define amp_sampler_filter_linear_address_mirror amp_sampler_18
#define amp_sampler_filter_linear_address_clamp amp_sampler_19
#define amp_sampler_filter_linear_address_border amp_sampler_20
/* A gather reads texels whole: the point sampler of the same address. */
#define amp_point_of_0 amp_sampler_modes_are_not_amp_filter_mode_and_amp_address_mode_values
#define amp_point_of_1 amp_sampler_1
#define amp_point_of_2 amp_sampler_2
#define amp_point_of_3 amp_sampler_3
#define amp_point_of_4 amp_sampler_4
#define amp_point_of_17 amp_sampler_1
#define amp_point_of_18 amp_sampler_2
#define amp_point_of_19 amp_sampler_3
#define amp_point_of_20 amp_sampler_4
#define amp_point_of_filter_point_address_wrap amp_sampler_1
#define amp_point_of_filter_point_address_mirror amp_sampler_2
#define amp_point_of_filter_point_address_clamp amp_sampler_3
#define amp_point_of_filter_point_address_border amp_sampler_4

/* One channel of texel v: 0 red, 1 green, 2 blue, 3 alpha. */
float amp_channel(float4 v, int channel)
{
    return channel == 0 ? v.x : channel == 1 ? v.y : channel == 2 ? v.z : v.w;
}

/* The four texels a linear sample at coord blends, each texel's channel,
   in Direct3D's order: (u0, v1), (u1, v1), (u1, v0), (u0, v0). Each is
   read at its center, through the address mode of point sampler s. */
float4 amp_gather(__read_only image2d_t image, sampler_t s, float2 coord, int channel)
{
    float2 size = (float2)((float)get_image_width(image), (float)get_image_height(image));
    float2 base = floor(coord * size - 0.5f);
    float2 c0 = (base + 0.5f) / size, c1 = (base + 1.5f) / size;
    return (float4)(amp_channel(read_imagef(image, s, (float2)(c0.x, c1.y)), channel),
                    amp_channel(read_imagef(image, s, c1), channel),
                    amp_channel(read_imagef(image, s, (float2)(c1.x, c0.y)), channel),
                    amp_channel(read_imagef(image, s, c0), channel));
}

/* A texel written at coordinates c (image order) when they are inside the
   image; dropped outside, as Direct3D drops it (OpenCL leaves a write
   there undefined). value is the texel's four channels; the format keeps
   those it has, converted as it stores them. */
#define AMP_INSIDE_1(image, c) ((c) >= 0 && (c) < get_image_width(image))
#define AMP_INSIDE_2(image, c) \
    ((c).x >= 0 && (c).y >= 0 && (c).x < get_image_width(image) && (c).y < get_image_height(image))
void __attribute__((overloadable)) amp_store(__write_only image1d_t image, int c, float4 value)
{
    if (AMP_INSIDE_1(image, c))
        write_imagef(image, c, value);
}
void __attribute__((overloadable)) amp_store(__write_only image1d_t image, int c, int4 value)
{
    if (AMP_INSIDE_1(image, c))
        write_imagei(image, c, value);
}
void __attribute__((overloadable)) amp_store(__write_only image1d_t image, int c, uint4 value)
{
    if (AMP_INSIDE_1(image, c))
        write_imageui(image, c, value);
}
void __attribute__((overloadable)) amp_store(__write_only image2d_t image, int2 c, float4 value)
{
    if (AMP_INSIDE_2(image, c))
        write_imagef(image, c, value);
}
void __attribute__((overloadable)) amp_store(__write_only image2d_t image, int2 c, int4 value)
{
    if (AMP_INSIDE_2(image, c))
        write_imagei(image, c, value);
}
void __attribute__((overloadable)) amp_store(__write_only image2d_t image, int2 c, uint4 value)
{
    if (AMP_INSIDE_2(image, c))
        write_imageui(image, c, value);
}
/* Texel i of a rank-1 texture of n texels kept in the rows of a 2D image. */
#define AMP_FOLDED(image, i) ((int2)((i) % get_image_width(image), (i) / get_image_width(image)))
void __attribute__((overloadable)) amp_store_folded(__write_only image2d_t image, int i, int n,
                                                    float4 value)
{
    if ((uint)i < (uint)n)
        write_imagef(image, AMP_FOLDED(image, i), value);
}
void __attribute__((overloadable)) amp_store_folded(__write_only image2d_t image, int i, int n,
                                                    int4 value)
{
    if ((uint)i < (uint)n)
        write_imagei(image, AMP_FOLDED(image, i), value);
}
void __attribute__((overloadable)) amp_store_folded(__write_only image2d_t image, int i, int n,
                                                    uint4 value)
{
    if ((uint)i < (uint)n)
        write_imageui(image, AMP_FOLDED(image, i), value);
}
