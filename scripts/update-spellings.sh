#!/usr/bin/env bash
# Rewrite the deprecated spellings of the API (docs/api.md, "Deprecated
# spellings") to the ones to use, in place, in the C files and documents
# given. A line aligned under the parenthesis of a macro whose name got
# shorter keeps its column: format the files afterwards. The test
# deprecation_warnings runs it on a file of every deprecated spelling.
#   scripts/update-spellings.sh FILE...
set -euo pipefail
if [ $# -eq 0 ]; then
    echo "usage: $0 FILE..." >&2
    exit 2
fi
sed -i -E \
    -e 's/\bAMP_PARALLEL_FOR_EACH_TILED_ON\(/AMP_PARALLEL_FOR_EACH_ON(/g' \
    -e 's/\bAMP_PARALLEL_FOR_EACH_TILED\(/AMP_PARALLEL_FOR_EACH(/g' \
    -e 's/\bamp_data_(array|view|host)\(/amp_data_of(/g' \
    -e 's/\bamp_get_transfers\b/amp_transfer_get_stats/g' \
    -e 's/\bamp_reset_transfers\b/amp_transfer_reset_stats/g' \
    -e 's/\bamp_get_kernel_stats\b/amp_kernel_get_stats/g' \
    -e 's/\bamp_get_profile\b/amp_profile_get_entries/g' \
    -e 's/\bamp_reset_profile\b/amp_profile_reset_entries/g' \
    -e 's/\bamp_profile_enabled\b/amp_profile_is_enabled/g' \
    -e 's/\bamp_elem_size\b/amp_elem_type_size/g' \
    -e 's/\bamp_accelerator_default_reason\b/amp_accelerator_get_default_reason/g' \
    -e 's/\bAMP_STRUCT_MAX_MEMBERS\b/AMP_MAX_STRUCT_MEMBERS/g' \
    "$@"
