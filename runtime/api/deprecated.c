/*
 * runtime/api/deprecated.c - the deprecated spellings of public functions
 * (docs/api.md, "Deprecated spellings"), each a call of the spelling to
 * use, in one place until they go. They are functions of the library, not
 * macros, so that code built against a header that declared them links
 * and runs as before.
 */
#include "amp/amp.h"

const char *amp_accelerator_default_reason(void)
{
    return amp_accelerator_get_default_reason();
}

size_t amp_elem_size(amp_elem_type type)
{
    return amp_elem_type_size(type);
}

amp_status amp_get_kernel_stats(amp_kernel_stats *out)
{
    return amp_kernel_get_stats(out);
}

int amp_profile_enabled(void)
{
    return amp_profile_is_enabled();
}

amp_status amp_get_profile(amp_profile_entry *entries, size_t capacity, size_t *count)
{
    return amp_profile_get_entries(entries, capacity, count);
}

void amp_reset_profile(void)
{
    amp_profile_reset_entries();
}

amp_status amp_get_transfers(amp_transfer_stats *out)
{
    return amp_transfer_get_stats(out);
}

void amp_reset_transfers(void)
{
    amp_transfer_reset_stats();
}
