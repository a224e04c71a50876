/*
 * runtime/translate/vocabulary.h - C++ AMP's in-kernel vocabulary, spelled in OpenCL
 * C: the prelude every kernel gets, and the entries (atomics, free fences,
 * fast_math and precise_math) that a kernel gets only when it uses them, so
 * that generated kernels stay short enough to read.
 */
#ifndef AMP_TRANSLATE_VOCABULARY_H
#define AMP_TRANSLATE_VOCABULARY_H

#include <stddef.h>
#include <stdint.h>

#include "core/strbuf.h"

/* The prelude of every kernel: tile_static, global/local, the barrier and
 * the element accessors. */
const char *amp__vocab_prelude(void);

/* Append the definitions of the entries that any of the texts (a body and
 * its helpers) uses, each once, with a comment heading each group. Returns
 * the number of entries appended. */
int amp__vocab_append_used(strbuf *out, size_t ntexts, const char *const *texts,
                           const size_t *lengths);

/* Nonzero when name[0 .. length) is a name of amp/short_vector.h that
 * kernels have too, for code written for both sides: a type (amp_float_3)
 * or a function (amp_float_3_add, amp_int_2_from_float_2 ...). */
int amp__vocab_is_vector_name(const char *name, size_t length);

/* Append the definitions of the names of amp/short_vector.h (above) that
 * any of the texts uses, each once. */
void amp__vocab_append_vector_names(strbuf *out, size_t ntexts, const char *const *texts,
                                    const size_t *lengths);

/* Append the functions through which a body compares indices and asks an
 * extent (amp_equal_N, amp_contains_N, amp_size_N, amp_extent_of_N), for
 * each rank N whose bit is set in ranks. */
void amp__vocab_append_index_functions(strbuf *out, uint32_t ranks);

/* Append element access for views of rank n (4 to 8), as the prelude has
 * it for ranks 1 to 3: AMP_ACCESS_n, AMP_OFFSET_n and what they use. */
void amp__vocab_append_access_rank(strbuf *out, int n);

/* Nonzero when the generated kernel itself uses the identifier name[0 ..
 * length) outside the body: the prelude's, the vocabulary's, or the index
 * set-up's names. A body's moved tile_static declaration does not keep
 * such a name, and AMP_DEFINE may not redefine one. */
int amp__vocab_reserves(const char *name, size_t length);

#endif
