/*
 * runtime/core/lexicon.h - the words of OpenCL C, for checking the names a
 * user gives: captures, indices, struct types and their members.
 */
#ifndef AMP_CORE_LEXICON_H
#define AMP_CORE_LEXICON_H

#include <stddef.h>

/* Nonzero when s is a C identifier. */
int amp__lexicon_is_identifier(const char *s);

/* Nonzero when s is a keyword or built-in type name of OpenCL C (int,
 * global, uint, float4, ...) or tile_static: an identifier a kernel cannot
 * use as the name of a variable. */
int amp__lexicon_is_keyword(const char *s);

/* Nonzero when the length bytes at s are a word OpenCL C takes as a type or
 * qualifier and C and C++ leave a free name (half, uint, float4, kernel,
 * constant, sampler_t, ...): a kernel body may declare one, which the
 * generated kernel must then call by another name. */
int amp__lexicon_is_opencl_only(const char *s, size_t length);

/* Nonzero when s names one of OpenCL C's built-in functions (sqrt, mix,
 * clamp, ...): a name a helper function cannot take. */
int amp__lexicon_is_builtin_function(const char *s);

#endif
