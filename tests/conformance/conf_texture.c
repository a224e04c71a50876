/*
 * tests/conformance/conf_texture.c - C++ AMP 1.2, chapter 10, the textures
 * of concurrency::graphics: 10.1 texture<T, N>, 10.2
 * writeonly_texture_view<T, N>, 10.3 sampler, 10.4 texture_view<T, N>, 10.5
 * texture_view<const T, N>, 10.6 copying textures, 10.7 norm and unorm.
 *
 * Each test is named after the section it comes from, and checks every
 * texel a kernel reads or writes against the value the section gives:
 * each format (8, 16 and 32 bits; int, uint, float, norm, unorm; 1, 2 and
 * 4 channels), reads, writes (with the format's conversion), sampling in
 * each address mode and filter, gathers, and copies on the device in each
 * direction, with the ledger's count of them. Host data is laid out as the
 * format stores it (C++ AMP's texture(extent, source, src_byte_size,
 * bits_per_scalar_element)). Where a device cannot do what a section
 * describes (read-write images, OpenCL 2.0), the test checks that the
 * library says so, and skips.
 */
#include <math.h>
#include <stdint.h>

#include "conf_util.h"

enum { ROWS = 6, COLS = 5, N = ROWS * COLS };

/* ---- Helpers ---- */

/* Whether st is the library's refusal of a format the device has no
 * image of (NVIDIA's has no 1D image of 8-bit norm, for one), said as
 * such: C++ AMP's format, which this device cannot hold. */
static int device_lacks_format(amp_status st)
{
    if (st != AMP_ERROR_UNSUPPORTED_FEATURE || !strstr(amp_last_error(), " has no "))
        return 0;
    print_message("[  NOTE    ] %s\n", amp_last_error());
    return 1;
}

/* A texture of bits per channel, made from raw host data; a skip where
 * the device has no image of that format. */
static amp_texture *texture_of(amp_elem_type type, int channels, amp_extent e, unsigned bits,
                               const void *data, size_t bytes)
{
    amp_texture *t = NULL;
    amp_status st = amp_texture_create_bits(type, channels, e, bits, data, bytes, NULL, &t);
    if (device_lacks_format(st))
        skip();
    assert_amp_ok(st);
    return t;
}

/* A texture of 16-bit floats, or a skip where the device reads them wrong
 * and the library refuses them, saying so (PoCL 3.1). */
static amp_texture *half_texture(int channels, amp_extent e, const void *data, size_t bytes)
{
    amp_texture *t = NULL;
    amp_status st = amp_texture_create_bits(AMP_FLOAT, channels, e, 16, data, bytes, NULL, &t);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
        assert_non_null(strstr(amp_last_error(), "read wrong values from images of 16-bit floats"));
        print_message("[  NOTE    ] %s\n", amp_last_error());
        skip();
    }
    assert_amp_ok(st);
    return t;
}

/* The device's transfers, by direction, since the last reset. */
static amp_transfer_stats ledger_now(void)
{
    amp_transfer_stats s;
    assert_amp_ok(amp_transfer_get_stats(&s));
    return s;
}

/* Whether |got - want| <= tolerance, failing with the name otherwise. */
#define assert_near(got, want, tolerance)                                                          \
    do {                                                                                           \
        double g_ = (got), w_ = (want);                                                            \
        if (!(fabs(g_ - w_) <= (tolerance)))                                                       \
            fail_msg("%s is %g, not %g (within %g)", #got, g_, w_, (double)(tolerance));           \
    } while (0)

/* The kernel did not compile, and the message names what it misses. */
#define assert_build_fails(call, text) assert_amp_fails(call, AMP_ERROR_KERNEL_BUILD, text)

/* ---- 10.1 texture<T, N> ---- */

/* 10.1: texture<int, 2>, 32 bits: t[idx], t(i, j) and t.get(idx) read the
 * texel at the index, row i and column j. */
static void texture_10_1_int_texels_read_by_index(void **state)
{
    (void)state;
    int data[N], out[N * 3];
    iota(data, N, -7);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(N, 3), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(t, o, AMP_CONST(COLS)), {
        int k = idx[0] * COLS + idx[1];
        o(k, 0) = t[idx];
        o(k, 1) = t(idx[0], idx[1]);
        o(k, 2) = t.get(idx);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < N; k++)
        for (int j = 0; j < 3; j++)
            assert_int_equal(out[k * 3 + j], data[k]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<uint_2, 1>: two channels of 32 bits, read as a uint_2. */
static void texture_10_1_uint_2_texels(void **state)
{
    (void)state;
    unsigned data[2 * N], out[2 * N];
    for (int i = 0; i < 2 * N; i++)
        data[i] = 0xF0000000u + (unsigned)i * 3u;
    amp_texture *t = texture_of(AMP_UINT, 2, amp_extent_1d(N), 32, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_1d(2 * N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), {
        uint_2 v = t[idx];
        o[idx * 2] = v.x;
        o[idx * 2 + 1] = v.y;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 2 * N; i++)
        assert_int_equal(out[i], data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<float_4, 3>: four channels of 32 bits, rank 3. */
static void texture_10_1_float_4_texels_of_rank_3(void **state)
{
    (void)state;
    enum { D = 2, H = 3, W = 4, M = D * H * W };
    float data[4 * M], out[4 * M];
    for (int i = 0; i < 4 * M; i++)
        data[i] = (float)i * 0.25f - 3.0f;
    amp_texture *t = texture_of(AMP_FLOAT, 4, amp_extent_3d(D, H, W), 32, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4 * M), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(D, H, W), idx,
                                        AMP_CAPTURE(t, o, AMP_CONST(H), AMP_CONST(W)), {
        int k = (idx[0] * H + idx[1]) * W + idx[2];
        float_4 v = t(idx[0], idx[1], idx[2]);
        o[k * 4] = v.x;
        o[k * 4 + 1] = v.y;
        o[k * 4 + 2] = v.z;
        o[k * 4 + 3] = v.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 4 * M; i++)
        assert_true(out[i] == data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* A kernel that reads each texel's first channel of an int texture as int. */
static amp_status int_channel_0(amp_texture *t, amp_array_view *o)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), { o[idx] = t[idx]; });
}

/* 10.1: bits_per_scalar_element 8 for int: each value a signed byte, read
 * as the int it stands for. */
static void texture_10_1_int_of_8_bits(void **state)
{
    (void)state;
    int8_t data[N];
    int out[N];
    for (int i = 0; i < N; i++)
        data[i] = (int8_t)(i * 9 - 128);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_1d(N), 8, data, sizeof data);
    assert_int_equal(amp_texture_get_bits(t), 8);
    assert_int_equal(amp_texture_get_bytes(t), N);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(int_channel_0(t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: bits_per_scalar_element 16 for int: signed 16-bit values. */
static void texture_10_1_int_of_16_bits(void **state)
{
    (void)state;
    int16_t data[N];
    int out[N];
    for (int i = 0; i < N; i++)
        data[i] = (int16_t)(i * 2000 - 32768);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_1d(N), 16, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(int_channel_0(t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<uint_4, 2> of 8 bits (the Cartoonizer's pixels): four
 * unsigned bytes a texel. */
static void texture_10_1_uint_4_of_8_bits(void **state)
{
    (void)state;
    uint8_t data[4 * N];
    unsigned out[4 * N];
    for (int i = 0; i < 4 * N; i++)
        data[i] = (uint8_t)(255 - i * 2);
    amp_texture *t = texture_of(AMP_UINT, 4, amp_extent_2d(ROWS, COLS), 8, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_2d(N, 4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(t, o, AMP_CONST(COLS)), {
        uint_4 p = t[idx];
        int k = idx[0] * COLS + idx[1];
        o(k, 0) = p.r;
        o(k, 1) = p.g;
        o(k, 2) = p.b;
        o(k, 3) = p.a;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 4 * N; i++)
        assert_int_equal(out[i], data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<uint_2, 1> of 16 bits. */
static void texture_10_1_uint_2_of_16_bits(void **state)
{
    (void)state;
    uint16_t data[2 * N];
    unsigned out[2 * N];
    for (int i = 0; i < 2 * N; i++)
        data[i] = (uint16_t)(65535 - i * 1000);
    amp_texture *t = texture_of(AMP_UINT, 2, amp_extent_1d(N), 16, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_UINT, amp_extent_1d(2 * N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), {
        uint_2 v = t[idx];
        o[idx * 2] = v.x;
        o[idx * 2 + 1] = v.y;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 2 * N; i++)
        assert_int_equal(out[i], data[i]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* A kernel that reads each texel's first channel of a float-like texture. */
static amp_status float_channel_0(amp_texture *t, amp_array_view *o)
{
    return AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), { o[idx] = t[idx]; });
}

/* 10.1: bits_per_scalar_element 16 for float: IEEE half floats, read as
 * the floats they are. */
static void texture_10_1_float_of_16_bits(void **state)
{
    (void)state;
    /* 1.5, -2.25, 0.5, 65504 (the largest half), 2^-14 (the smallest
     * normal), -0, ... */
    static const uint16_t halves[6] = {0x3E00, 0xC080, 0x3800, 0x7BFF, 0x0400, 0x8000};
    static const float values[6] = {1.5f, -2.25f, 0.5f, 65504.0f, 6.103515625e-05f, -0.0f};
    uint16_t data[N];
    float out[N];
    for (int i = 0; i < N; i++)
        data[i] = halves[i % 6];
    amp_texture *t = half_texture(1, amp_extent_1d(N), data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &o));
    assert_amp_ok(float_channel_0(t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_true(out[i] == values[i % 6]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1 and 10.7: texture<norm, 1> of 8 bits: v / 127, and -128 is -1. */
static void texture_10_1_norm_of_8_bits(void **state)
{
    (void)state;
    int8_t data[N];
    float out[N];
    for (int i = 0; i < N; i++)
        data[i] = (int8_t)(i * 9 - 128);
    amp_texture *t = texture_of(AMP_NORM, 1, amp_extent_1d(N), 8, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &o));
    assert_amp_ok(float_channel_0(t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_near(out[i], data[i] < -127 ? -1.0 : data[i] / 127.0, 1e-6);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<norm_2, 1> of 16 bits (the default width of norm). */
static void texture_10_1_norm_2_of_16_bits(void **state)
{
    (void)state;
    int16_t data[2 * N];
    float out[2 * N];
    for (int i = 0; i < 2 * N; i++)
        data[i] = (int16_t)(i * 2100 - 32767);
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_NORM, 2, amp_extent_1d(N), data, NULL, &t));
    assert_int_equal(amp_texture_get_bits(t), 16);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2 * N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), {
        norm_2 v = t[idx];
        o[idx * 2] = v.x;
        o[idx * 2 + 1] = v.y;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 2 * N; i++)
        assert_near(out[i], data[i] / 32767.0, 1e-6);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<unorm_4, 2> of 8 bits: each byte v is v / 255. */
static void texture_10_1_unorm_4_of_8_bits(void **state)
{
    (void)state;
    uint8_t data[4 * N];
    float out[4 * N];
    for (int i = 0; i < 4 * N; i++)
        data[i] = (uint8_t)(i * 17 % 256);
    amp_texture *t = texture_of(AMP_UNORM, 4, amp_extent_2d(ROWS, COLS), 8, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(N, 4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(t, o, AMP_CONST(COLS)), {
        unorm_4 p = t[idx];
        int k = idx[0] * COLS + idx[1];
        o(k, 0) = p.x;
        o(k, 1) = p.y;
        o(k, 2) = p.z;
        o(k, 3) = p.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < 4 * N; i++)
        assert_near(out[i], data[i] / 255.0, 1e-6);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture<unorm, 1> of 16 bits: v / 65535. */
static void texture_10_1_unorm_of_16_bits(void **state)
{
    (void)state;
    uint16_t data[N];
    float out[N];
    for (int i = 0; i < N; i++)
        data[i] = (uint16_t)(i * 2259);
    amp_texture *t = texture_of(AMP_UNORM, 1, amp_extent_1d(N), 16, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &o));
    assert_amp_ok(float_channel_0(t, o));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_near(out[i], data[i] / 65535.0, 1e-6);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: texture(extent) without data, whose texels kernels then write,
 * reads 0 here (C++ AMP leaves it to the implementation). */
static void texture_10_1_texture_without_data_is_zero(void **state)
{
    (void)state;
    int out[N];
    memset(out, 0x55, sizeof out);
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_INT, 4, amp_extent_1d(N), NULL, NULL, &t));
    int back[4 * N];
    memset(back, 0x55, sizeof back);
    assert_amp_ok(amp_texture_copy_to_host(t, back, sizeof back));
    for (int i = 0; i < 4 * N; i++)
        assert_int_equal(back[i], 0);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(t, o), {
        int_4 v = t[idx];
        o[idx] = v.x | v.y | v.z | v.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 0);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: bits_per_scalar_element, get_bits_per_scalar_element(): the
 * defaults (32 for int, uint and float; 16 for norm and unorm) and what
 * each type takes (16-bit floats in the tests of their own). */
static void texture_10_1_bits_per_scalar_element(void **state)
{
    (void)state;
    static const struct {
        amp_elem_type type;
        unsigned default_bits, ok[3], bad;
    } rows[] = {{AMP_INT, 32, {8, 16, 32}, 24},
                {AMP_UINT, 32, {8, 16, 32}, 64},
                {AMP_FLOAT, 32, {32, 32, 32}, 8},
                {AMP_NORM, 16, {8, 16, 16}, 32},
                {AMP_UNORM, 16, {8, 16, 16}, 32}};
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        amp_texture *t;
        assert_amp_ok(amp_texture_create(rows[r].type, 1, amp_extent_1d(4), NULL, NULL, &t));
        assert_int_equal(amp_texture_get_bits(t), rows[r].default_bits);
        assert_int_equal(amp_texture_get_bytes(t), 4 * rows[r].default_bits / 8);
        assert_amp_ok(amp_texture_release(t));
        for (int k = 0; k < 3; k++) {
            amp_status st = amp_texture_create_bits(rows[r].type, 4, amp_extent_1d(4),
                                                    rows[r].ok[k], NULL, 0, NULL, &t);
            if (device_lacks_format(st))
                continue;
            assert_amp_ok(st);
            assert_int_equal(amp_texture_get_bits(t), rows[r].ok[k]);
            assert_int_equal(amp_texture_get_bytes(t), 16 * rows[r].ok[k] / 8);
            assert_amp_ok(amp_texture_release(t));
        }
        assert_amp_fails(amp_texture_create_bits(rows[r].type, 1, amp_extent_1d(4), rows[r].bad,
                                                 NULL, 0, NULL, &t),
                         AMP_ERROR_INVALID_ARGUMENT, "bits per scalar element");
    }
}

/* 10.1: get_extent(), get_accelerator_view() and data_length. */
static void texture_10_1_extent_view_and_data_length(void **state)
{
    (void)state;
    amp_accelerator_view *av;
    assert_amp_ok(amp_accelerator_create_view(NULL, AMP_QUEUING_AUTOMATIC, &av));
    amp_texture *t;
    assert_amp_ok(amp_texture_create_bits(AMP_UINT, 4, amp_extent_3d(2, 3, 4), 8, NULL, 0, av, &t));
    amp_extent e = amp_texture_get_extent(t);
    assert_int_equal(e.rank, 3);
    assert_int_equal(e.dims[0], 2);
    assert_int_equal(e.dims[1], 3);
    assert_int_equal(e.dims[2], 4);
    assert_ptr_equal(amp_texture_get_accelerator_view(t), av);
    assert_int_equal(amp_texture_get_bytes(t), 2 * 3 * 4 * 4);
    assert_int_equal(amp_texture_get_type(t), AMP_UINT);
    assert_int_equal(amp_texture_get_channels(t), 4);
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(amp_accelerator_view_release(av));
}

/* 10.1: t.extent and t.get_extent() in a kernel; an index outside reads
 * 0 (here; C++ AMP leaves it undefined). */
static void texture_10_1_extent_in_a_kernel_and_reads_outside(void **state)
{
    (void)state;
    int data[N], out[4];
    iota(data, N, 1);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, data, sizeof data);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                        AMP_CAPTURE(t, o, AMP_CONST(ROWS), AMP_CONST(COLS)), {
        o[0] = t.extent[0];
        o[1] = t.get_extent()[1];
        o[2] = t(-1, 0) + t(0, COLS);
        o[3] = t[index<2>(ROWS, 0)];
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(out[0], ROWS);
    assert_int_equal(out[1], COLS);
    assert_int_equal(out[2], 0);
    assert_int_equal(out[3], 0);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* ---- 10.2 writeonly_texture_view<T, N> ---- */

/* A texture of type and bits with a view that writes it. */
static amp_texture *writable(amp_elem_type type, int channels, amp_extent e, unsigned bits,
                             amp_texture_view **w)
{
    amp_texture *t = texture_of(type, channels, e, bits, NULL, 0);
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, w));
    assert_int_equal(amp_texture_get_access(*w), AMP_TEXTURE_WRITE);
    return t;
}

static void release_pair(amp_texture *t, amp_texture_view *w)
{
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.2: set(index, value) writes each texel of an int texture, read back
 * by a copy. */
static void writeonly_texture_view_10_2_set_writes_each_texel(void **state)
{
    (void)state;
    int out[N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(w, AMP_CONST(COLS)),
                                        { w.set(idx, idx[0] * COLS + idx[1] - 9); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], i - 9);
    release_pair(t, w);
}

/* 10.2: writeonly_texture_view<uint_4, 2> of 8 bits, the Cartoonizer's
 * output: each channel a byte. */
static void writeonly_texture_view_10_2_uint_4_of_8_bits(void **state)
{
    (void)state;
    uint8_t out[4 * N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_UINT, 4, amp_extent_2d(ROWS, COLS), 8, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(w, AMP_CONST(COLS)), {
        uint k = idx[0] * COLS + idx[1];
        uint_4 p;
        p.r = k;
        p.g = k * 2u;
        p.b = 255u - k;
        p.a = 0xFFu;
        w.set(idx, p);
    }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int k = 0; k < N; k++) {
        assert_int_equal(out[4 * k], k);
        assert_int_equal(out[4 * k + 1], 2 * k);
        assert_int_equal(out[4 * k + 2], 255 - k);
        assert_int_equal(out[4 * k + 3], 255);
    }
    release_pair(t, w);
}

/* 10.2: a value past an 8-bit int's range is saturated as it is stored. */
static void writeonly_texture_view_10_2_int_of_8_bits_saturates(void **state)
{
    (void)state;
    static const int values[6] = {300, -300, 127, -128, 5, -1};
    static const int8_t stored[6] = {127, -128, 127, -128, 5, -1};
    int8_t out[6];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_INT, 1, amp_extent_1d(6), 8, &w);
    amp_array_view *v;
    int in[6];
    memcpy(in, values, sizeof in);
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(6), in, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(6), idx, AMP_CAPTURE(w, v),
                                        { w.set(idx, v[idx]); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int i = 0; i < 6; i++)
        assert_int_equal(out[i], stored[i]);
    assert_amp_ok(amp_array_view_release(v));
    release_pair(t, w);
}

/* 10.2: a uint of 16 bits past 65535 is saturated. */
static void writeonly_texture_view_10_2_uint_of_16_bits_saturates(void **state)
{
    (void)state;
    uint16_t out[4];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_UINT, 1, amp_extent_1d(4), 16, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(w),
                                        { w.set(idx, (uint)idx * 40000u); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 40000);
    assert_int_equal(out[2], 65535);
    assert_int_equal(out[3], 65535);
    release_pair(t, w);
}

/* 10.2 and 10.7: a unorm texel stores its value clamped to [0, 1], as
 * v * 255 rounded. */
static void writeonly_texture_view_10_2_unorm_of_8_bits_clamps(void **state)
{
    (void)state;
    uint8_t out[4 * 2];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_UNORM, 4, amp_extent_1d(2), 8, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(w), {
        w.set(0, unorm_4(1.5f, -0.5f, 0.2f, 1.0f));
        w.set(1, float_4(0.0f, 0.6f, 2.0f, -3.0f));
    }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    static const uint8_t want[8] = {255, 0, 51, 255, 0, 153, 255, 0};
    assert_memory_equal(out, want, sizeof want);
    release_pair(t, w);
}

/* 10.2 and 10.7: a norm texel stores its value clamped to [-1, 1], as
 * v * 127 rounded. */
static void writeonly_texture_view_10_2_norm_of_8_bits_clamps(void **state)
{
    (void)state;
    int8_t out[4];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_NORM, 1, amp_extent_1d(4), 8, &w);
    amp_array_view *v;
    float in[4] = {-2.0f, 2.0f, 0.5f, -0.25f};
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(4), in, &v));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(4), idx, AMP_CAPTURE(w, v),
                                        { w.set(idx, v[idx]); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_int_equal(out[0], -127);
    assert_int_equal(out[1], 127);
    assert_int_equal(out[2], 64);
    assert_int_equal(out[3], -32);
    assert_amp_ok(amp_array_view_release(v));
    release_pair(t, w);
}

/* 10.2: a float texture of 16 bits stores each value as a half, rounded
 * to the nearest. */
static void writeonly_texture_view_10_2_float_of_16_bits_rounds_to_half(void **state)
{
    (void)state;
    uint16_t out[2 * 3];
    amp_texture_view *w;
    amp_texture *t = half_texture(2, amp_extent_1d(3), NULL, 0);
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(w), {
        w.set(0, float_2(1.0f / 3.0f, -2.25f));
        w.set(1, float_2(65504.0f, 0.5f));
        w.set(2, float_2(1.5f, -0.0f));
    }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    static const uint16_t want[6] = {0x3555, 0xC080, 0x7BFF, 0x3800, 0x3E00, 0x8000};
    assert_memory_equal(out, want, sizeof want);
    release_pair(t, w);
}

/* 10.2: writes of rank 1 and rank 3 textures. */
static void writeonly_texture_view_10_2_rank_1_and_rank_3(void **state)
{
    (void)state;
    enum { D = 3, H = 4, W = 5, M = D * H * W };
    float out1[M], out3[M];
    amp_texture_view *w1, *w3 = NULL;
    amp_texture *t1 = writable(AMP_FLOAT, 1, amp_extent_1d(M), 32, &w1);
    amp_texture *t3 = texture_of(AMP_FLOAT, 1, amp_extent_3d(D, H, W), 32, NULL, 0);
    amp_status made = amp_texture_view_create(t3, AMP_TEXTURE_WRITE, &w3);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(M), idx, AMP_CAPTURE(w1),
                                        { w1.set(idx, idx * 0.5f); }));
    assert_amp_ok(amp_texture_copy_to_host(t1, out1, sizeof out1));
    for (int i = 0; i < M; i++)
        assert_true(out1[i] == i * 0.5f);
    release_pair(t1, w1);
    if (made == AMP_ERROR_UNSUPPORTED_FEATURE) {
        /* A device without cl_khr_3d_image_writes says so. */
        assert_non_null(strstr(amp_last_error(), "cl_khr_3d_image_writes"));
        assert_amp_ok(amp_texture_release(t3));
        skip();
    }
    assert_amp_ok(made);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_3d(D, H, W), idx,
                                        AMP_CAPTURE(w3, AMP_CONST(H), AMP_CONST(W)), {
        w3.set(idx, (float)((idx[0] * H + idx[1]) * W + idx[2]) - 0.25f);
    }));
    assert_amp_ok(amp_texture_copy_to_host(t3, out3, sizeof out3));
    for (int i = 0; i < M; i++)
        assert_true(out3[i] == (float)i - 0.25f);
    release_pair(t3, w3);
}

/* 10.2: a write outside the texture is dropped (Direct3D's rule; C++ AMP
 * leaves it undefined); the texels inside are as written. */
static void writeonly_texture_view_10_2_set_outside_is_dropped(void **state)
{
    (void)state;
    int out[N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS + 2, COLS + 2), idx,
                                        AMP_CAPTURE(w), { w.set(idx - index<2>(1, 1), 7); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 7);
    release_pair(t, w);
}

/* 10.2: a writeonly_texture_view is not read: a read does not compile. */
static void writeonly_texture_view_10_2_read_does_not_compile(void **state)
{
    (void)state;
    int out[N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_INT, 1, amp_extent_1d(N), 32, &w);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(w, o),
                                             { o[idx] = w[idx]; }),
                       "amp_read_needs_a_texture_view_that_reads");
    assert_amp_ok(amp_array_view_release(o));
    release_pair(t, w);
}

/* 10.2: two channels of float (stored in four where the device lacks
 * two-channel formats): set(idx, float_2) keeps both. */
static void writeonly_texture_view_10_2_float_2_texels(void **state)
{
    (void)state;
    float out[2 * N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_FLOAT, 2, amp_extent_1d(N), 32, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(w),
                                        { w.set(idx, float_2(idx * 1.5f, -idx)); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int i = 0; i < N; i++) {
        assert_true(out[2 * i] == i * 1.5f);
        assert_true(out[2 * i + 1] == (float)-i);
    }
    release_pair(t, w);
}

/* A restrict(amp) function that takes a writeonly_texture_view, as the
 * Cartoonizer's SimplifyIndex does. */
AMP_FUNCTION(void, paint, (const writeonly_texture_view<uint_4, 2> & dst, index<2> idx, uint v), {
    dst.set(idx, uint_4(v, v + 1u, v + 2u, 255u));
});

/* 10.2: a writeonly_texture_view given to a restrict(amp) function. */
static void writeonly_texture_view_10_2_in_a_function(void **state)
{
    (void)state;
    uint8_t out[4 * N];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_UINT, 4, amp_extent_2d(ROWS, COLS), 8, &w);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx,
                                        AMP_CAPTURE(paint, w, AMP_CONST(COLS)),
                                        { paint(w, idx, (uint)(idx[0] * COLS + idx[1])); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int k = 0; k < N; k++) {
        assert_int_equal(out[4 * k], k);
        assert_int_equal(out[4 * k + 1], k + 1);
        assert_int_equal(out[4 * k + 2], k + 2);
        assert_int_equal(out[4 * k + 3], 255);
    }
    release_pair(t, w);
}

/* ---- 10.3 sampler ---- */

/* A rank-1 texture of 4 floats, 4, 12, 20, 28: texel k at [k/4, (k+1)/4). */
static const float ramp[4] = {4.0f, 12.0f, 20.0f, 28.0f};

/* The texture sampled with s at each of n coordinates. */
static void sample_ramp(amp_sampler s, const float *at, float *got, int n)
{
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), ramp, NULL, &t));
    static float coords[8];
    memcpy(coords, at, (size_t)n * sizeof *at);
    amp_array_view *c, *o;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(n), coords, &c));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(n), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(n), idx, AMP_CAPTURE(t, c, o, AMP_SAMPLER(s)),
                                        { o[idx] = t.sample(s, c[idx]); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_amp_ok(amp_array_view_release(c));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* Devices filter with weights of 8 bits or more: 1/256 of a step. */
#define FILTERED 0.05

/* 10.3: filter_point takes the texel the coordinate falls in. */
static void sampler_10_3_point_filter_takes_the_nearest_texel(void **state)
{
    (void)state;
    const float at[4] = {0.1f, 0.3f, 0.55f, 0.99f};
    float got[4];
    sample_ramp(amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_CLAMP), at, got, 4);
    for (int k = 0; k < 4; k++)
        assert_true(got[k] == ramp[k]);
}

/* 10.3: filter_linear blends the two texels whose centers are nearest. */
static void sampler_10_3_linear_filter_blends_the_nearest_texels(void **state)
{
    (void)state;
    /* Texel centers are at 0.125, 0.375, 0.625, 0.875. */
    const float at[4] = {0.375f, 0.5f, 0.5625f, 0.625f};
    float got[4];
    sample_ramp(amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP), at, got, 4);
    assert_near(got[0], 12.0, FILTERED);
    assert_near(got[1], 16.0, FILTERED);
    assert_near(got[2], 18.0, FILTERED);
    assert_near(got[3], 20.0, FILTERED);
}

/* 10.3: address_wrap repeats the texture: past 1 is from 0 again, and a
 * linear sample at an edge blends the last texel with the first. */
static void sampler_10_3_address_wrap(void **state)
{
    (void)state;
    const float at[3] = {1.125f, -0.125f, 1.0f};
    float point[3], linear[3];
    sample_ramp(amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_WRAP), at, point, 3);
    sample_ramp(amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_WRAP), at, linear, 3);
    assert_true(point[0] == 4.0f);
    assert_true(point[1] == 28.0f);
    assert_near(linear[2], 16.0, FILTERED);
}

/* 10.3: address_mirror reflects the texture at each edge. */
static void sampler_10_3_address_mirror(void **state)
{
    (void)state;
    const float at[3] = {1.125f, -0.125f, 1.0f};
    float point[3], linear[3];
    sample_ramp(amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_MIRROR), at, point, 3);
    sample_ramp(amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_MIRROR), at, linear, 3);
    assert_true(point[0] == 28.0f);
    assert_true(point[1] == 4.0f);
    assert_near(linear[2], 28.0, FILTERED);
}

/* 10.3: address_clamp gives the edge texel past each edge. */
static void sampler_10_3_address_clamp(void **state)
{
    (void)state;
    const float at[3] = {1.5f, -0.5f, 1.0f};
    float point[3], linear[3];
    sample_ramp(amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_CLAMP), at, point, 3);
    sample_ramp(amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP), at, linear, 3);
    assert_true(point[0] == 28.0f);
    assert_true(point[1] == 4.0f);
    assert_near(linear[2], 28.0, FILTERED);
}

/* 10.3: address_border gives the border color past each edge: 0, C++
 * AMP's default (the only one OpenCL has). */
static void sampler_10_3_address_border_is_zero(void **state)
{
    (void)state;
    const float at[4] = {1.5f, -0.5f, 1.0f, 0.375f};
    float point[4], linear[4];
    sample_ramp(amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_BORDER), at, point, 4);
    sample_ramp(amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_BORDER), at, linear, 4);
    assert_true(point[0] == 0.0f);
    assert_true(point[1] == 0.0f);
    assert_true(point[3] == 12.0f);
    assert_near(linear[2], 14.0, FILTERED);
}

/* 10.3 and 10.5: sample<filter_mode, address_mode>(coord) takes the modes
 * as template arguments. */
static void sampler_10_3_modes_as_template_arguments(void **state)
{
    (void)state;
    float got[4];
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), ramp, NULL, &t));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o), {
        o[0] = t.sample<filter_point, address_wrap>(1.125f);
        o[1] = t.sample<filter_linear, address_mirror>(1.0f);
        o[2] = t.sample<filter_point, address_border>(-0.5f);
        o[3] = t.sample<filter_linear, address_clamp>(0.5f);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_true(got[0] == 4.0f);
    assert_near(got[1], 28.0, FILTERED);
    assert_true(got[2] == 0.0f);
    assert_near(got[3], 16.0, FILTERED);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.3 and 10.5: the modes' template arguments have defaults,
 * filter_linear and address_clamp, as C++ AMP declares them: sample(coord),
 * sample<>(coord), sample<filter_point>(coord) and gather_red(coord) take
 * them. */
static void sampler_10_3_modes_not_written_are_the_defaults(void **state)
{
    (void)state;
    float got[8];
    const float texels[2 * 2] = {1, 2, 3, 4};
    amp_texture *t, *square;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), ramp, NULL, &t));
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 2), texels, NULL, &square));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, square, o), {
        o[0] = t.sample(0.5f);
        o[1] = t.sample<>(0.5f);
        o[2] = t.sample<filter_point>(0.3f);
        o[3] = t.sample(-0.5f); /* clamped to the first texel */
        float_4 g = square.gather_red(float_2(0.0f, 0.0f));
        o[4] = g.x;
        o[5] = g.y;
        o[6] = g.z;
        o[7] = g.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_near(got[0], 16.0, FILTERED);
    assert_near(got[1], 16.0, FILTERED);
    assert_true(got[2] == ramp[1]);
    assert_true(got[3] == ramp[0]);
    for (int k = 0; k < 4; k++)
        assert_true(got[4 + k] == 1.0f); /* clamped, as gather_red<address_clamp> */
    /* A level of detail (10.3): a texture of one level samples that level
     * at every level of detail, as C++ AMP clamps it; the level's expression
     * is evaluated. */
    memset(got, 0, sizeof got);
    amp_sampler s = amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_WRAP);
    assert_amp_ok(
        AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o, AMP_SAMPLER(s)), {
            float level = 0.0f;
            o[0] = t.sample<filter_point, address_clamp>(0.3f, 0.0f);
            o[1] = t.sample<filter_point>(0.3f, level++);
            o[2] = t.sample<>(0.5f, 3.5f);
            o[3] = level;
            o[4] = t.sample(s, 1.3f, 2.0f);
            o[5] = t.sample(0.5f, 1.0f); /* the default modes, and a level */
        }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_true(got[0] == ramp[1]);
    assert_true(got[1] == ramp[1]);
    assert_near(got[2], 16.0, FILTERED);
    assert_true(got[3] == 1.0f);
    assert_true(got[4] == ramp[1]);
    assert_near(got[5], 16.0, FILTERED);
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o), {
        o[0] = t.sample<filter_point, address_clamp>(0.5f, 0.0f, 1.0f);
    }),
                       "sample takes the coordinates and a level of detail, and 3 values are"
                       " given");
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(square));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.1: a texel of a texture of vectors is a vector: t[idx] == float_4(...)
 * compares whole vectors, as C++ AMP's operator== does. */
static void texture_10_1_texels_of_vectors_compare_whole(void **state)
{
    (void)state;
    const float texels[2 * 4] = {1, 2, 3, 4, 1, 2, 3, 5};
    int got[4] = {-1, -1, -1, -1};
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 4, amp_extent_1d(2), texels, NULL, &t));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(4), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(t, o), {
        o[idx[0]] = t[idx] == float_4(1.0f, 2.0f, 3.0f, 4.0f) ? 1 : 0;
        o[idx[0] + 2] = t.get(idx) != float_4(1.0f, 2.0f, 3.0f, 4.0f);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(got[0], 1);
    assert_int_equal(got[1], 0);
    assert_int_equal(got[2], 0);
    assert_int_equal(got[3], 1);
    /* A unorm_4 texel is a float_4 too. */
    const uint8_t halves[2 * 4] = {128, 128, 128, 128, 128, 128, 128, 0};
    amp_texture *u = texture_of(AMP_UNORM, 4, amp_extent_1d(2), 8, halves, sizeof halves);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(2), idx, AMP_CAPTURE(u, o), {
        float_4 low = float_4(0.4f);
        o[idx[0]] = all(u[idx] > low) && u[idx] != float_4(0.0f);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_int_equal(got[0], 1);
    assert_int_equal(got[1], 0);
    assert_amp_ok(amp_texture_release(u));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.3: a sampler of modes outside C++ AMP's does not compile, and says
 * why. */
static void sampler_10_3_modes_outside_the_enums_do_not_compile(void **state)
{
    (void)state;
    float got[1];
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_1d(4), ramp, NULL, &t));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), got, &o));
    amp_sampler bad = amp_sampler_make(AMP_FILTER_LINEAR, (amp_address_mode)9);
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                             AMP_CAPTURE(t, o, AMP_SAMPLER(bad)),
                                             { o[0] = t.sample(bad, 0.5f); }),
                       "amp_sampler_modes_are_not_amp_filter_mode_and_amp_address_mode_values");
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.3: a linear sample of a rank-2 texture blends four texels; the
 * coordinate's x runs along a row. */
static void sampler_10_3_bilinear_of_rank_2(void **state)
{
    (void)state;
    const float texels[2 * 4] = {0, 8, 16, 24, 40, 48, 56, 64};
    float got[3];
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 4), texels, NULL, &t));
    amp_array_view *o;
    amp_sampler s = amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP);
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(3), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o, AMP_SAMPLER(s)), {
        o[0] = t.sample(s, float_2(0.5f, 0.5f));
        o[1] = t.sample(s, float_2(0.125f, 0.25f));
        o[2] = t.sample(s, float_2(0.375f, 0.75f));
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_near(got[0], (8 + 16 + 48 + 56) / 4.0, FILTERED);
    assert_near(got[1], 0.0, FILTERED);
    assert_near(got[2], 48.0, FILTERED);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.3: a linear sample of a rank-3 texture at its center blends all
 * eight texels; float_4 texels blend channel by channel. */
static void sampler_10_3_trilinear_of_rank_3_float_4(void **state)
{
    (void)state;
    float texels[8 * 4], got[4];
    for (int i = 0; i < 8; i++)
        for (int c = 0; c < 4; c++)
            texels[i * 4 + c] = (float)(i * (c + 1));
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 4, amp_extent_3d(2, 2, 2), texels, NULL, &t));
    amp_array_view *o;
    amp_sampler s = amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP);
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(4), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o, AMP_SAMPLER(s)), {
        float_4 v = t.sample(s, float_3(0.5f, 0.5f, 0.5f));
        o[0] = v.x;
        o[1] = v.y;
        o[2] = v.z;
        o[3] = v.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int c = 0; c < 4; c++)
        assert_near(got[c], 3.5 * (c + 1), FILTERED * (c + 1));
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.3 and 10.7: a unorm texture samples as the floats its texels stand
 * for. */
static void sampler_10_3_unorm_texture_samples_as_floats(void **state)
{
    (void)state;
    const uint8_t texels[4] = {0, 51, 102, 255};
    float got[2];
    amp_texture *t = texture_of(AMP_UNORM, 1, amp_extent_1d(4), 8, texels, sizeof texels);
    amp_array_view *o;
    amp_sampler point = amp_sampler_make(AMP_FILTER_POINT, AMP_ADDRESS_CLAMP);
    amp_sampler linear = amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP);
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(2), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx,
                                        AMP_CAPTURE(t, o, AMP_SAMPLER(point), AMP_SAMPLER(linear)), {
        o[0] = t.sample(point, 0.3f);
        o[1] = t.sample(linear, 0.5f);
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_near(got[0], 0.2, 1e-6);
    assert_near(got[1], 0.3, 0.01);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* ---- 10.4 texture_view<T, N> ---- */

/* A view of t that kernels read and write, or a skip where the device has
 * no read-write images (and says so). */
static amp_texture_view *read_write_view(amp_texture *t)
{
    amp_texture_view *v = NULL;
    amp_status st = amp_texture_view_create(t, AMP_TEXTURE_READ_WRITE, &v);
    if (st == AMP_ERROR_UNSUPPORTED_FEATURE) {
        assert_non_null(strstr(amp_last_error(), "has no read-write images"));
        assert_amp_ok(amp_texture_release(t));
        print_message("[  NOTE    ] %s\n", amp_last_error());
        skip();
    }
    assert_amp_ok(st);
    assert_int_equal(amp_texture_get_access(v), AMP_TEXTURE_READ_WRITE);
    return v;
}

/* 10.4: a texture_view<int, 2> of one 32-bit channel is read and written
 * in one kernel. */
static void texture_view_10_4_reads_and_writes_one_32_bit_channel(void **state)
{
    (void)state;
    int data[N], out[N];
    iota(data, N, 3);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, data, sizeof data);
    amp_texture_view *v = read_write_view(t);
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_2d(ROWS, COLS), idx, AMP_CAPTURE(v),
                                        { v.set(idx, v[idx] * 10 + v.get(idx)); }));
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], data[i] * 11);
    release_pair(t, v);
}

/* 10.4: a thread reads back what it wrote in the same kernel. */
static void texture_view_10_4_a_thread_reads_its_own_write(void **state)
{
    (void)state;
    float out[N];
    amp_texture *t = texture_of(AMP_FLOAT, 1, amp_extent_1d(N), 32, NULL, 0);
    amp_texture_view *v = read_write_view(t);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(v, o), {
        v.set(idx, idx * 2.5f);
        o[idx] = v[idx] + 1.0f;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_true(out[i] == i * 2.5f + 1.0f);
    assert_amp_ok(amp_array_view_release(o));
    release_pair(t, v);
}

/* 10.4: read and write in one kernel only of one 32-bit int, uint or
 * float channel; other texels are written through a view that only
 * writes. */
static void texture_view_10_4_read_write_takes_one_32_bit_channel(void **state)
{
    (void)state;
    amp_texture *four = texture_of(AMP_UINT, 4, amp_extent_1d(4), 8, NULL, 0);
    amp_texture *small = texture_of(AMP_INT, 1, amp_extent_1d(4), 16, NULL, 0);
    amp_texture *unorm = texture_of(AMP_UNORM, 1, amp_extent_1d(4), 16, NULL, 0);
    amp_texture_view *v = NULL;
    assert_amp_fails(amp_texture_view_create(four, AMP_TEXTURE_READ_WRITE, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "4 channels of 8-bit uint");
    assert_amp_fails(amp_texture_view_create(small, AMP_TEXTURE_READ_WRITE, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "1 channel of 16-bit int");
    assert_amp_fails(amp_texture_view_create(unorm, AMP_TEXTURE_READ_WRITE, &v),
                     AMP_ERROR_INVALID_ARGUMENT, "AMP_TEXTURE_WRITE view");
    assert_null(v);
    assert_amp_ok(amp_texture_view_create(four, AMP_TEXTURE_WRITE, &v));
    assert_amp_ok(amp_texture_view_release(v));
    assert_amp_ok(amp_texture_release(four));
    assert_amp_ok(amp_texture_release(small));
    assert_amp_ok(amp_texture_release(unorm));
}

/* 10.4: a view of a view views the same texture; the texture may go
 * first, and its views keep its texels. */
static void texture_view_10_4_views_share_the_texture(void **state)
{
    (void)state;
    int out[N];
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_1d(N), 32, NULL, 0);
    amp_texture_view *w, *r;
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_WRITE, &w));
    assert_amp_ok(amp_texture_view_create(w, AMP_TEXTURE_READ, &r));
    assert_amp_ok(amp_texture_release(t));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(w),
                                        { w.set(idx, 100 - idx); }));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(r, o),
                                        { o[idx] = r[idx]; }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_int_equal(out[i], 100 - i);
    assert_int_equal(amp_texture_get_extent(r).dims[0], N);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_view_release(w));
    assert_amp_ok(amp_texture_view_release(r));
}

/* ---- 10.5 texture_view<const T, N> ---- */

/* 10.5: a view that reads: t[idx] and sampling; set does not compile. */
static void texture_view_const_10_5_reads_and_does_not_write(void **state)
{
    (void)state;
    float data[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = i * 0.5f;
    amp_texture *t = texture_of(AMP_FLOAT, 1, amp_extent_1d(N), 32, data, sizeof data);
    amp_texture_view *r;
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_READ, &r));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(N), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(r, o),
                                        { o[idx] = r[idx] + r.get(idx); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int i = 0; i < N; i++)
        assert_true(out[i] == 2 * data[i]);
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(N), idx, AMP_CAPTURE(r),
                                             { r.set(idx, 1.0f); }),
                       "amp_set_needs_a_texture_view_that_writes");
    assert_amp_ok(amp_array_view_release(o));
    release_pair(t, r);
}

/* 10.5: gather_red, gather_green, gather_blue and gather_alpha give one
 * channel of the four texels a linear sample blends, in Direct3D's order:
 * (u0, v1), (u1, v1), (u1, v0), (u0, v0). */
static void texture_view_const_10_5_gather_each_channel(void **state)
{
    (void)state;
    enum { H = 2, W = 3 };
    float texels[H * W * 4], got[4][4];
    for (int i = 0; i < H * W; i++)
        for (int c = 0; c < 4; c++)
            texels[i * 4 + c] = (float)(i + 1) * (c == 0 ? 1 : c == 1 ? 10 : c == 2 ? 100 : 1000);
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 4, amp_extent_2d(H, W), texels, NULL, &t));
    amp_array_view *o;
    amp_sampler s = amp_sampler_make(AMP_FILTER_LINEAR, AMP_ADDRESS_CLAMP);
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(4, 4), &got[0][0], &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o, AMP_SAMPLER(s)), {
        float_2 at = float_2(0.5f, 0.5f);
        float_4 q[4];
        q[0] = t.gather_red(s, at);
        q[1] = t.gather_green(s, at);
        q[2] = t.gather_blue(s, at);
        q[3] = t.gather_alpha(s, at);
        for (int c = 0; c < 4; c++) {
            o(c, 0) = q[c].x;
            o(c, 1) = q[c].y;
            o(c, 2) = q[c].z;
            o(c, 3) = q[c].w;
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    /* At (0.5, 0.5) of 3 x 2 texels: u0 = 1, u1 = 2, v0 = 0, v1 = 1. */
    const int order[4] = {1 * W + 1, 1 * W + 2, 0 * W + 2, 0 * W + 1};
    for (int c = 0; c < 4; c++)
        for (int k = 0; k < 4; k++)
            assert_true(got[c][k] == texels[order[k] * 4 + c]);
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.5: gather_red<address_mode>(coord) takes the address mode as a
 * template argument; a gather at an edge wraps or clamps by it. */
static void texture_view_const_10_5_gather_with_an_address_mode(void **state)
{
    (void)state;
    const float texels[2 * 2] = {1, 2, 3, 4};
    float got[8];
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 2), texels, NULL, &t));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), got, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o), {
        float_4 w = t.gather_red<address_wrap>(float_2(0.0f, 0.0f));
        float_4 c = t.gather_red<address_clamp>(float_2(0.0f, 0.0f));
        o[0] = w.x;
        o[1] = w.y;
        o[2] = w.z;
        o[3] = w.w;
        o[4] = c.x;
        o[5] = c.y;
        o[6] = c.z;
        o[7] = c.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    /* u0 = v0 = -1: wrapped to 1; clamped to 0. */
    const float wrapped[4] = {2, 1, 3, 4}, clamped[4] = {1, 1, 1, 1};
    for (int k = 0; k < 4; k++) {
        assert_true(got[k] == wrapped[k]);
        assert_true(got[4 + k] == clamped[k]);
    }
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.5: sample and gather take textures of floats, norms and unorms; one
 * of int does not compile, and says so. */
static void texture_view_const_10_5_sampling_an_int_texture_does_not_compile(void **state)
{
    (void)state;
    float out[1];
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(2, 2), 32, NULL, 0);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), out, &o));
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o), {
        o[0] = t.sample<filter_point, address_clamp>(float_2(0.5f, 0.5f));
    }), "amp_sample_needs_a_float_texture");
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(t, o), {
        o[0] = t.gather_red<address_clamp>(float_2(0.5f, 0.5f)).x;
    }), "amp_sample_needs_a_float_texture");
    assert_amp_ok(amp_array_view_release(o));
    assert_amp_ok(amp_texture_release(t));
}

/* A restrict(amp) function that takes a texture_view<const float, 2> and
 * samples it. */
AMP_FUNCTION(float, blend, (const texture_view<const float, 2> & t, float_2 at), {
    return t.sample<filter_linear, address_clamp>(at) + t[index<2>(0, 0)];
});

/* 10.5: a texture_view<const T, N> given to a restrict(amp) function. */
static void texture_view_const_10_5_in_a_function(void **state)
{
    (void)state;
    const float texels[2 * 2] = {2, 4, 6, 8};
    float out[1];
    amp_texture *t;
    assert_amp_ok(amp_texture_create(AMP_FLOAT, 1, amp_extent_2d(2, 2), texels, NULL, &t));
    amp_texture_view *r;
    assert_amp_ok(amp_texture_view_create(t, AMP_TEXTURE_READ, &r));
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(blend, r, o),
                                        { o[0] = blend(r, float_2(0.5f, 0.5f)); }));
    assert_amp_ok(amp_array_view_synchronize(o));
    assert_near(out[0], 5.0 + 2.0, FILTERED);
    assert_amp_ok(amp_array_view_release(o));
    release_pair(t, r);
}

/* 10.5: a view that only writes given to a function that reads is refused
 * at the call, naming the parameter's type to declare. */
static void texture_view_const_10_5_a_write_view_is_not_a_read_parameter(void **state)
{
    (void)state;
    float out[1];
    amp_texture_view *w;
    amp_texture *t = writable(AMP_FLOAT, 1, amp_extent_2d(2, 2), 32, &w);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(1), out, &o));
    assert_build_fails(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(blend, w, o),
                                             { o[0] = blend(w, float_2(0.5f, 0.5f)); }),
                       "declare it writeonly_texture_view<float, 2>");
    assert_amp_ok(amp_array_view_release(o));
    release_pair(t, w);
}

/* ---- 10.6 Copying textures ---- */

/* 10.6: copy(src, dst) between textures of one accelerator moves the
 * texels on the device: one transfer there, none through the host. */
static void copy_10_6_texture_to_texture_on_the_device(void **state)
{
    (void)state;
    uint8_t data[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++)
        data[i] = (uint8_t)(i * 5);
    amp_texture *a = texture_of(AMP_UNORM, 4, amp_extent_2d(ROWS, COLS), 8, data, sizeof data);
    amp_texture *b = texture_of(AMP_UNORM, 4, amp_extent_2d(ROWS, COLS), 8, NULL, 0);
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy(a, b));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.count[AMP_ON_DEVICE][AMP_REASON_COPY], 1);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_amp_ok(amp_texture_copy_to_host(b, out, sizeof out));
    assert_memory_equal(out, data, sizeof data);
    assert_amp_ok(amp_texture_release(a));
    assert_amp_ok(amp_texture_release(b));
}

/* 10.6: copy(src, src_offset, dst, dst_offset, copy_extent): a box of
 * texels, the rest of dst as it was. */
static void copy_10_6_a_box_of_texels(void **state)
{
    (void)state;
    int data[N], out[N];
    iota(data, N, 0);
    amp_texture *a = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, data, sizeof data);
    amp_texture *b = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, NULL, 0);
    assert_amp_ok(amp_texture_copy_section(a, amp_index_2d(1, 2), b, amp_index_2d(3, 0),
                                           amp_extent_2d(2, 3)));
    assert_amp_ok(amp_texture_copy_to_host(b, out, sizeof out));
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++) {
            int inside = r >= 3 && r < 5 && c < 3;
            assert_int_equal(out[r * COLS + c], inside ? data[(r - 2) * COLS + c + 2] : 0);
        }
    assert_amp_fails(amp_texture_copy_section(a, amp_index_2d(5, 0), b, amp_index_2d(0, 0),
                                              amp_extent_2d(2, 1)),
                     AMP_ERROR_INVALID_ARGUMENT, "does not fit in the source texture");
    assert_amp_ok(amp_texture_release(a));
    assert_amp_ok(amp_texture_release(b));
}

/* 10.6: a texture into an array of its accelerator: on the device, each
 * element a texel (a uint_4 of 8 bits is one uint). */
static void copy_10_6_texture_to_array_on_the_device(void **state)
{
    (void)state;
    uint8_t data[4 * N];
    unsigned out[N];
    for (int i = 0; i < 4 * N; i++)
        data[i] = (uint8_t)(i * 3 + 1);
    amp_texture *t = texture_of(AMP_UINT, 4, amp_extent_2d(ROWS, COLS), 8, data, sizeof data);
    amp_array *a;
    assert_amp_ok(amp_array_create(AMP_UINT, amp_extent_2d(ROWS, COLS), NULL, &a));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy_to(t, amp_data_of(a)));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_amp_ok(AMP_COPY(a, out));
    assert_memory_equal(out, data, sizeof out);
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.6: an array into a texture, on the device. */
static void copy_10_6_array_to_texture_on_the_device(void **state)
{
    (void)state;
    float data[N], out[N];
    for (int i = 0; i < N; i++)
        data[i] = i * -1.25f;
    amp_array *a;
    assert_amp_ok(amp_array_create_from_host(AMP_FLOAT, amp_extent_1d(N), data, NULL, &a));
    amp_texture *t = texture_of(AMP_FLOAT, 1, amp_extent_2d(ROWS, COLS), 32, NULL, 0);
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy_from(amp_data_of(a), t));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_memory_equal(out, data, sizeof out);
    assert_amp_ok(amp_array_release(a));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.6: a texture into a view of host memory: copied to the view's device
 * memory, then brought to the host by the view, once. */
static void copy_10_6_texture_to_a_view(void **state)
{
    (void)state;
    int data[N], out[N];
    iota(data, N, 40);
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, data, sizeof data);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, COLS), out, &v));
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy_to(t, amp_data_of(v)));
    assert_amp_ok(amp_array_view_synchronize(v));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.device_copies, 1);
    assert_int_equal(s.uploads, 0);
    assert_int_equal(s.downloads, 1);
    assert_ints(out, data, N);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.6: a view of host memory into a texture: uploaded once, copied on the
 * device. */
static void copy_10_6_a_view_to_a_texture(void **state)
{
    (void)state;
    int data[N], out[N];
    iota(data, N, -20);
    amp_array_view *v;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_1d(N), data, &v));
    amp_texture *t = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, NULL, 0);
    amp_transfer_reset_stats();
    assert_amp_ok(amp_texture_copy_from(amp_data_of(v), t));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.uploads, 1);
    assert_int_equal(s.device_copies, 1);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_ints(out, data, N);
    assert_amp_ok(amp_array_view_release(v));
    assert_amp_ok(amp_texture_release(t));
}

/* 10.6: copy(texture, dst, size) and copy(src, size, texture): the texels
 * as the format stores them. */
static void copy_10_6_to_and_from_host_memory_as_stored(void **state)
{
    (void)state;
    int16_t data[2 * N], out[2 * N];
    for (int i = 0; i < 2 * N; i++)
        data[i] = (int16_t)(i * 1000 - 30000);
    amp_texture *t = texture_of(AMP_INT, 2, amp_extent_2d(ROWS, COLS), 16, NULL, 0);
    assert_amp_ok(amp_texture_copy_from(amp_data_of(data), t));
    assert_amp_ok(amp_texture_copy_to(t, amp_data_of(out)));
    assert_memory_equal(out, data, sizeof data);
    memset(out, 0, sizeof out);
    assert_amp_ok(amp_texture_copy_to_host(t, out, sizeof out));
    assert_memory_equal(out, data, sizeof data);
    assert_amp_fails(amp_texture_copy_to_host(t, out, sizeof out - 2), AMP_ERROR_INVALID_ARGUMENT,
                     "the texture 120");
    assert_amp_ok(amp_texture_release(t));
}

/* 10.6: copy_async between textures; the completion is done when the copy
 * has run, and the ends may be released before. */
static void copy_10_6_async_texture_to_texture(void **state)
{
    (void)state;
    float data[4 * N], out[4 * N];
    for (int i = 0; i < 4 * N; i++)
        data[i] = i * 0.75f;
    amp_texture *a = texture_of(AMP_FLOAT, 4, amp_extent_1d(N), 32, data, sizeof data);
    amp_texture *b = texture_of(AMP_FLOAT, 4, amp_extent_1d(N), 32, NULL, 0);
    amp_texture_view *keep;
    assert_amp_ok(amp_texture_view_create(b, AMP_TEXTURE_READ, &keep));
    amp_completion *done;
    assert_amp_ok(amp_texture_copy_async(a, b, &done));
    assert_amp_ok(amp_texture_release(a));
    assert_amp_ok(amp_texture_release(b));
    assert_amp_ok(amp_completion_wait(done));
    assert_amp_ok(amp_completion_release(done));
    assert_amp_ok(amp_texture_copy_to_host(keep, out, sizeof out));
    assert_memory_equal(out, data, sizeof data);
    assert_amp_ok(amp_texture_view_release(keep));
}

/* 10.6: copy_async from a texture to an array and back to another
 * texture, each on the device. */
static void copy_10_6_async_through_an_array(void **state)
{
    (void)state;
    int data[N], out[N];
    iota(data, N, 7);
    amp_texture *a = texture_of(AMP_INT, 1, amp_extent_1d(N), 32, data, sizeof data);
    amp_texture *b = texture_of(AMP_INT, 1, amp_extent_1d(N), 32, NULL, 0);
    amp_array *arr;
    assert_amp_ok(amp_array_create(AMP_INT, amp_extent_1d(N), NULL, &arr));
    amp_transfer_reset_stats();
    amp_completion *to, *from;
    assert_amp_ok(amp_texture_copy_to_async(a, amp_data_of(arr), &to));
    assert_amp_ok(amp_completion_wait(to));
    assert_amp_ok(amp_texture_copy_from_async(amp_data_of(arr), b, &from));
    assert_amp_ok(amp_array_release(arr));
    assert_amp_ok(amp_completion_wait(from));
    amp_transfer_stats s = ledger_now();
    assert_int_equal(s.device_copies, 2);
    assert_int_equal(s.uploads + s.downloads, 0);
    assert_amp_ok(amp_texture_copy_to_host(b, out, sizeof out));
    assert_ints(out, data, N);
    assert_amp_ok(amp_completion_release(to));
    assert_amp_ok(amp_completion_release(from));
    assert_amp_ok(amp_texture_release(a));
    assert_amp_ok(amp_texture_release(b));
}

/* 10.6: textures of other shapes or formats, a destination view that is
 * const or not contiguous, are refused by name. */
static void copy_10_6_mismatched_ends_are_refused(void **state)
{
    (void)state;
    int host[2 * N];
    amp_texture *a = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 32, NULL, 0);
    amp_texture *other_bits = texture_of(AMP_INT, 1, amp_extent_2d(ROWS, COLS), 16, NULL, 0);
    amp_texture *other_extent = texture_of(AMP_INT, 1, amp_extent_2d(COLS, ROWS), 32, NULL, 0);
    assert_amp_fails(amp_texture_copy(a, other_bits), AMP_ERROR_INVALID_ARGUMENT,
                     "1 channel of 32-bit int and the destination 1 channel of 16-bit int");
    assert_amp_fails(amp_texture_copy(a, other_extent), AMP_ERROR_INVALID_ARGUMENT,
                     "they must be equal");
    assert_amp_fails(amp_texture_copy(a, a), AMP_ERROR_INVALID_ARGUMENT, "the same texture");
    amp_array_view *wide, *part, *constant;
    assert_amp_ok(amp_array_view_create(AMP_INT, amp_extent_2d(ROWS, 2 * COLS), host, &wide));
    assert_amp_ok(amp_array_view_section(wide, amp_index_2d(0, 0), amp_extent_2d(ROWS, COLS),
                                         &part));
    assert_amp_ok(amp_array_view_create_const(AMP_INT, amp_extent_1d(N), host, &constant));
    assert_amp_fails(amp_texture_copy_to(a, amp_data_of(wide)), AMP_ERROR_INVALID_ARGUMENT,
                     "holds 240 bytes and the texture 120");
    assert_amp_fails(amp_texture_copy_to(a, amp_data_of(part)), AMP_ERROR_INVALID_ARGUMENT,
                     "not one contiguous run");
    assert_amp_fails(amp_texture_copy_to(a, amp_data_of(constant)), AMP_ERROR_INVALID_ARGUMENT,
                     "const");
    assert_amp_ok(amp_array_view_release(part));
    assert_amp_ok(amp_array_view_release(wide));
    assert_amp_ok(amp_array_view_release(constant));
    assert_amp_ok(amp_texture_release(a));
    assert_amp_ok(amp_texture_release(other_bits));
    assert_amp_ok(amp_texture_release(other_extent));
}

/* ---- 10.7 norm and unorm ---- */

/* 10.7: norm(x) and unorm(x) clamp to [-1, 1] and [0, 1]; an infinity
 * gives the end of the range. */
static void norm_10_7_construction_clamps(void **state)
{
    (void)state;
    float in[6] = {2.0f, -3.0f, 0.25f, -0.5f, INFINITY, -INFINITY};
    float out[12];
    amp_array_view *i, *o;
    assert_amp_ok(amp_array_view_create_const(AMP_FLOAT, amp_extent_1d(6), in, &i));
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_2d(6, 2), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(6), idx, AMP_CAPTURE(i, o), {
        norm n = norm(i[idx]);
        unorm u = unorm(i[idx]);
        o(idx, 0) = n;
        o(idx, 1) = u;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    const float norms[6] = {1, -1, 0.25f, -0.5f, 1, -1}, unorms[6] = {1, 0, 0.25f, 0, 1, 0};
    for (int k = 0; k < 6; k++) {
        assert_true(out[2 * k] == norms[k]);
        assert_true(out[2 * k + 1] == unorms[k]);
    }
    assert_amp_ok(amp_array_view_release(i));
    assert_amp_ok(amp_array_view_release(o));
}

/* 10.7: norm() and unorm() and their short vectors are 0 when default
 * constructed (each round reads the values before writing them). */
static void norm_10_7_default_construction_is_zero(void **state)
{
    (void)state;
    enum { THREADS = 16, ROUNDS = 4 };
    static float out[THREADS * ROUNDS];
    memset(out, 0x55, sizeof out);
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(THREADS * ROUNDS), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(THREADS), idx,
                                        AMP_CAPTURE(o, AMP_CONST(ROUNDS)), {
        for (int k = 0; k < ROUNDS; k++) {
            norm n;
            unorm u;
            norm_2 n2;
            unorm_4 u4;
            norm_4 arr[2];
            o[idx * ROUNDS + k] = n + u + n2.x + n2.y + u4.x + u4.y + u4.z + u4.w + arr[1].w +
                                  unorm() + norm_3().z;
            n = norm(1.0f);
            u = unorm(0.5f);
            n2 = norm_2(0.5f, 0.5f);
            u4 = unorm_4(1.0f);
            arr[1] = norm_4(1.0f);
            o[idx * ROUNDS + k] += 0.0f * (n + u + n2.x + u4.x + arr[1].w);
        }
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    for (int k = 0; k < THREADS * ROUNDS; k++)
        assert_true(out[k] == 0.0f);
    assert_amp_ok(amp_array_view_release(o));
}

/* 10.7: a short vector of norms or unorms clamps each component. */
static void norm_10_7_short_vectors_clamp_each_component(void **state)
{
    (void)state;
    float out[8];
    amp_array_view *o;
    assert_amp_ok(amp_array_view_create(AMP_FLOAT, amp_extent_1d(8), out, &o));
    assert_amp_ok(AMP_PARALLEL_FOR_EACH(amp_extent_1d(1), idx, AMP_CAPTURE(o), {
        unorm_4 u = unorm_4(1.5f, -0.5f, 0.5f, 1.0f);
        norm_4 n = norm_4(float_4(-7.0f, 7.0f, -0.125f, 0.0f));
        o[0] = u.x;
        o[1] = u.y;
        o[2] = u.z;
        o[3] = u.w;
        o[4] = n.x;
        o[5] = n.y;
        o[6] = n.z;
        o[7] = n.w;
    }));
    assert_amp_ok(amp_array_view_synchronize(o));
    const float want[8] = {1, 0, 0.5f, 1, -1, 1, -0.125f, 0};
    for (int k = 0; k < 8; k++)
        assert_true(out[k] == want[k]);
    assert_amp_ok(amp_array_view_release(o));
}

/* 10.7: norm and unorm on the host, with C++ AMP's clamping operators. */
static void norm_10_7_on_the_host(void **state)
{
    (void)state;
    assert_true(amp_norm_make(2.0f) == 1.0f);
    assert_true(amp_norm_make(-INFINITY) == -1.0f);
    assert_true(amp_unorm_make(-0.5f) == 0.0f);
    assert_true(amp_unorm_make(0.75f) == 0.75f);
    assert_true(amp_norm_add(amp_norm_make(0.75f), amp_norm_make(0.5f)) == 1.0f);
    assert_true(amp_norm_sub(amp_norm_make(-0.75f), amp_norm_make(0.5f)) == -1.0f);
    assert_true(amp_norm_mul(amp_norm_make(-0.5f), amp_norm_make(0.5f)) == -0.25f);
    assert_true(amp_norm_div(amp_norm_make(0.5f), amp_norm_make(0.25f)) == 1.0f);
    assert_true(amp_unorm_add(amp_unorm_make(0.75f), amp_unorm_make(0.5f)) == 1.0f);
    assert_true(amp_unorm_sub(amp_unorm_make(0.25f), amp_unorm_make(0.5f)) == 0.0f);
    assert_true(amp_unorm_mul(amp_unorm_make(0.5f), amp_unorm_make(0.5f)) == 0.25f);
    assert_true(amp_unorm_div(amp_unorm_make(0.5f), amp_unorm_make(0.25f)) == 1.0f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(texture_10_1_int_texels_read_by_index),
        cmocka_unit_test(texture_10_1_uint_2_texels),
        cmocka_unit_test(texture_10_1_float_4_texels_of_rank_3),
        cmocka_unit_test(texture_10_1_int_of_8_bits),
        cmocka_unit_test(texture_10_1_int_of_16_bits),
        cmocka_unit_test(texture_10_1_uint_4_of_8_bits),
        cmocka_unit_test(texture_10_1_uint_2_of_16_bits),
        cmocka_unit_test(texture_10_1_float_of_16_bits),
        cmocka_unit_test(texture_10_1_norm_of_8_bits),
        cmocka_unit_test(texture_10_1_norm_2_of_16_bits),
        cmocka_unit_test(texture_10_1_unorm_4_of_8_bits),
        cmocka_unit_test(texture_10_1_unorm_of_16_bits),
        cmocka_unit_test(texture_10_1_texture_without_data_is_zero),
        cmocka_unit_test(texture_10_1_bits_per_scalar_element),
        cmocka_unit_test(texture_10_1_extent_view_and_data_length),
        cmocka_unit_test(texture_10_1_extent_in_a_kernel_and_reads_outside),
        cmocka_unit_test(writeonly_texture_view_10_2_set_writes_each_texel),
        cmocka_unit_test(writeonly_texture_view_10_2_uint_4_of_8_bits),
        cmocka_unit_test(writeonly_texture_view_10_2_int_of_8_bits_saturates),
        cmocka_unit_test(writeonly_texture_view_10_2_uint_of_16_bits_saturates),
        cmocka_unit_test(writeonly_texture_view_10_2_unorm_of_8_bits_clamps),
        cmocka_unit_test(writeonly_texture_view_10_2_norm_of_8_bits_clamps),
        cmocka_unit_test(writeonly_texture_view_10_2_float_of_16_bits_rounds_to_half),
        cmocka_unit_test(writeonly_texture_view_10_2_rank_1_and_rank_3),
        cmocka_unit_test(writeonly_texture_view_10_2_set_outside_is_dropped),
        cmocka_unit_test(writeonly_texture_view_10_2_read_does_not_compile),
        cmocka_unit_test(writeonly_texture_view_10_2_float_2_texels),
        cmocka_unit_test(writeonly_texture_view_10_2_in_a_function),
        cmocka_unit_test(sampler_10_3_point_filter_takes_the_nearest_texel),
        cmocka_unit_test(sampler_10_3_linear_filter_blends_the_nearest_texels),
        cmocka_unit_test(sampler_10_3_address_wrap),
        cmocka_unit_test(sampler_10_3_address_mirror),
        cmocka_unit_test(sampler_10_3_address_clamp),
        cmocka_unit_test(sampler_10_3_address_border_is_zero),
        cmocka_unit_test(sampler_10_3_modes_as_template_arguments),
        cmocka_unit_test(sampler_10_3_modes_not_written_are_the_defaults),
        cmocka_unit_test(texture_10_1_texels_of_vectors_compare_whole),
        cmocka_unit_test(sampler_10_3_modes_outside_the_enums_do_not_compile),
        cmocka_unit_test(sampler_10_3_bilinear_of_rank_2),
        cmocka_unit_test(sampler_10_3_trilinear_of_rank_3_float_4),
        cmocka_unit_test(sampler_10_3_unorm_texture_samples_as_floats),
        cmocka_unit_test(texture_view_10_4_reads_and_writes_one_32_bit_channel),
        cmocka_unit_test(texture_view_10_4_a_thread_reads_its_own_write),
        cmocka_unit_test(texture_view_10_4_read_write_takes_one_32_bit_channel),
        cmocka_unit_test(texture_view_10_4_views_share_the_texture),
        cmocka_unit_test(texture_view_const_10_5_reads_and_does_not_write),
        cmocka_unit_test(texture_view_const_10_5_gather_each_channel),
        cmocka_unit_test(texture_view_const_10_5_gather_with_an_address_mode),
        cmocka_unit_test(texture_view_const_10_5_sampling_an_int_texture_does_not_compile),
        cmocka_unit_test(texture_view_const_10_5_in_a_function),
        cmocka_unit_test(texture_view_const_10_5_a_write_view_is_not_a_read_parameter),
        cmocka_unit_test(copy_10_6_texture_to_texture_on_the_device),
        cmocka_unit_test(copy_10_6_a_box_of_texels),
        cmocka_unit_test(copy_10_6_texture_to_array_on_the_device),
        cmocka_unit_test(copy_10_6_array_to_texture_on_the_device),
        cmocka_unit_test(copy_10_6_texture_to_a_view),
        cmocka_unit_test(copy_10_6_a_view_to_a_texture),
        cmocka_unit_test(copy_10_6_to_and_from_host_memory_as_stored),
        cmocka_unit_test(copy_10_6_async_texture_to_texture),
        cmocka_unit_test(copy_10_6_async_through_an_array),
        cmocka_unit_test(copy_10_6_mismatched_ends_are_refused),
        cmocka_unit_test(norm_10_7_construction_clamps),
        cmocka_unit_test(norm_10_7_default_construction_is_zero),
        cmocka_unit_test(norm_10_7_short_vectors_clamp_each_component),
        cmocka_unit_test(norm_10_7_on_the_host),
    };
    return cmocka_run_group_tests(tests, NULL, shutdown_library);
}
