/*
 * runtime/kernel/kernel_file.h - kernel bodies loaded from .cl files
 * (amp_kernel_source_load): handles of the registry, told apart from the
 * sources AMP_KERNEL_SOURCE makes at a call site, which are not.
 */
#ifndef AMP_KERNEL_KERNEL_FILE_H
#define AMP_KERNEL_KERNEL_FILE_H

#include "amp/kernel.h"

/* Whether a kernel can be made from k, as the call fn sees it: a source
 * loaded from a file that was released, or a handle of another kind, is
 * refused by the registry (k is never read); a source the library did not
 * make (AMP_KERNEL_SOURCE's, at its call site) must have its file, index
 * name and body. Expects the runtime lock. */
amp_status amp__kfile_check(const char *fn, const amp_kernel_source *k);

#endif
