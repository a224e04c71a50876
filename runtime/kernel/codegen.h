/*
 * runtime/kernel/codegen.h - a kernel's OpenCL C source for a call: the
 * translator (translate.h), given what the data layer's registries know
 * (registered struct types, how textures are kept, the spare bytes of
 * device buffers).
 */
#ifndef AMP_KERNEL_CODEGEN_H
#define AMP_KERNEL_CODEGEN_H

#include <stdint.h>

#include "translate/spec.h"
#include "translate/translate.h"

/*
 * Generate the source of spec's kernel, called name (amp__translate()).
 * Views of force_written (bit i: capture i) are passed writable whatever
 * the write analysis says. On success the caller releases out with
 * amp__cg_kernel_free(). Returns amp__translate()'s statuses.
 */
amp_status amp__cg_generate(const cg_spec *spec, const char *name, uint32_t force_written,
                            cg_kernel *out);

void amp__cg_kernel_free(cg_kernel *k);

#endif
