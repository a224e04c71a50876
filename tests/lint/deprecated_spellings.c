/* Each deprecated spelling of the API in a case of its own, and the
 * spellings to use in none (test deprecation_warnings,
 * tests/lint/CMakeLists.txt): compiled, never run. */
#include <amp/amp.h>

int main(void)
{
    int data[8] = {0};
    amp_array_view *v = NULL;
    amp_accelerator_view *av = NULL;
    amp_tiled_extent tiles = amp_extent_tile_1d(amp_extent_1d(8), 4);
    amp_array *a = NULL;
    amp_status st = amp_array_view_create(AMP_INT, amp_extent_1d(8), data, &v);
#if defined(CASE_TILED)
    st = AMP_PARALLEL_FOR_EACH_TILED(tiles, t, AMP_CAPTURE(v), { v(t) = 1; });
#elif defined(CASE_TILED_ON)
    st = AMP_PARALLEL_FOR_EACH_TILED_ON(av, tiles, t, AMP_CAPTURE(v), { v(t) = 1; });
#elif defined(CASE_DATA_ARRAY)
    st = amp_copy(amp_data_array(a), amp_data_of(v));
#elif defined(CASE_DATA_VIEW)
    st = amp_copy(amp_data_of(a), amp_data_view(v));
#elif defined(CASE_DATA_HOST)
    st = amp_copy(amp_data_host(data), amp_data_of(v));
#elif defined(CASE_GET_TRANSFERS)
    amp_transfer_stats s;
    st = amp_get_transfers(&s);
#elif defined(CASE_RESET_TRANSFERS)
    amp_reset_transfers();
#elif defined(CASE_GET_KERNEL_STATS)
    amp_kernel_stats k;
    st = amp_get_kernel_stats(&k);
#elif defined(CASE_GET_PROFILE)
    size_t n;
    st = amp_get_profile(NULL, 0, &n);
#elif defined(CASE_RESET_PROFILE)
    amp_reset_profile();
#elif defined(CASE_PROFILE_ENABLED)
    st = (amp_status)amp_profile_enabled();
#elif defined(CASE_ELEM_SIZE)
    st = (amp_status)amp_elem_size(AMP_INT);
#elif defined(CASE_DEFAULT_REASON)
    st = (amp_status)(amp_accelerator_default_reason() != NULL);
#else
    amp_transfer_stats s;
    amp_kernel_stats k;
    size_t n;
    st = amp_transfer_get_stats(&s);
    amp_transfer_reset_stats();
    st = amp_kernel_get_stats(&k);
    st = amp_profile_get_entries(NULL, 0, &n);
    amp_profile_reset_entries();
    st = (amp_status)amp_profile_is_enabled();
    st = (amp_status)amp_elem_type_size(AMP_INT);
    st = (amp_status)(amp_accelerator_get_default_reason() != NULL);
    st = AMP_COPY(a, v);
    st = AMP_COPY(data, v);
    st = amp_copy(amp_data_of(a), amp_data_of(v));
    st = AMP_PARALLEL_FOR_EACH(tiles, t, AMP_CAPTURE(v), { v(t) = 1; });
    st = AMP_PARALLEL_FOR_EACH_ON(av, tiles, t, AMP_CAPTURE(v), { v(t) = 1; });
    st = AMP_PARALLEL_FOR_EACH(amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) = 1; });
    st = AMP_PARALLEL_FOR_EACH_ON(av, amp_extent_1d(8), i, AMP_CAPTURE(v), { v(i) = 1; });
#endif
    (void)a;
    (void)av;
    (void)tiles;
    return st == AMP_OK ? 0 : 1;
}
