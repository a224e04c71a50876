/*
 * amp-info: every OpenCL device this library can use, as an accelerator,
 * with what a kernel author needs to know of it, and which one is the
 * default and why (C++ AMP's accelerator::get_all, in a command).
 *
 *   amp-info                     list them
 *   AMP_DEVICE=pocl amp-info     see what AMP_DEVICE picks
 *   AMP_SPLIT_CPU=2 amp-info     the CPU device as two accelerators
 */
#include <stdio.h>

#include <amp/amp.h>

static void print_size(const char *label, unsigned long long bytes)
{
    if (bytes >= (1ull << 30))
        printf("    %-22s %.1f GiB\n", label, (double)bytes / (double)(1ull << 30));
    else if (bytes >= (1ull << 20))
        printf("    %-22s %.1f MiB\n", label, (double)bytes / (double)(1ull << 20));
    else
        printf("    %-22s %llu KiB\n", label, bytes >> 10);
}

int main(void)
{
    size_t count = 0;
    amp_status st = amp_accelerator_count(&count);
    if (st != AMP_OK) {
        fprintf(stderr, "amp-info: %s: %s\n", amp_status_name(st), amp_last_error());
        return 1;
    }
    /* Choose the default first, so that it can be marked. */
    amp_accelerator *def = NULL;
    amp_status def_st = amp_accelerator_get_default(&def);
    printf("%zu accelerator%s (amp %s):\n", count, count == 1 ? "" : "s", amp_version());
    size_t def_index = count;
    for (size_t i = 0; i < count; i++) {
        amp_accelerator *acc;
        amp_accelerator_info info;
        if (amp_accelerator_get(i, &acc) != AMP_OK ||
            amp_accelerator_get_info(acc, &info) != AMP_OK)
            continue;
        if (acc == def)
            def_index = i;
        printf("\n%zu: %s%s\n", i, info.description, acc == def ? "  [default]" : "");
        printf("    %-22s %s\n", "device path", info.device_path);
        printf("    %-22s %s\n", "platform", info.platform);
        printf("    %-22s %s\n", "version", info.version);
        print_size("dedicated memory", info.dedicated_memory);
        print_size("largest allocation", info.max_allocation);
        print_size("tile_static memory", info.tile_static_size);
        printf("    %-22s %zu threads\n", "largest tile", info.max_tile_size);
        printf("    %-22s %s\n", "double precision", info.supports_double ? "yes" : "no");
        printf("    %-22s %s\n", "atomics", info.supports_atomics ? "yes" : "no");
        printf("    %-22s %s\n", "emulated (CPU)", info.is_emulated ? "yes" : "no");
    }
    if (def_st == AMP_OK)
        printf("\ndefault: %zu, because %s (AMP_DEVICE=<index or name> picks another).\n",
               def_index, amp_accelerator_get_default_reason());
    else
        printf("\nno default: %s\n", amp_last_error());
    amp_shutdown();
    return 0;
}
