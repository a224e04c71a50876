/*
 * runtime/translate/cl.h - the static OpenCL C of generated kernels. Each
 * piece is written as a file of runtime/translate/cl/, where clang checks
 * it (the test cl_syntax), and embedded at build time
 * (cmake/EmbedText.cmake): the file's text, NUL-terminated.
 */
#ifndef AMP_TRANSLATE_CL_H
#define AMP_TRANSLATE_CL_H

/* The prelude of every kernel (vocabulary.c). */
extern const char amp__cl_prelude[];

/* The vocabulary a kernel gets for the names it uses (vocabulary.c): each
 * a heading, a blank line, then entries that each end with the #define of
 * the name it gives. */
extern const char amp__cl_atomics[];
extern const char amp__cl_fences[];
extern const char amp__cl_fast_math[];
extern const char amp__cl_precise_math[];
extern const char amp__cl_short_vectors[];
extern const char amp__cl_norm[];

/* The accessors (accessors.c): of textures; of AMP_CHECK, where the
 * record's layout is written as the names of spec.h's constants
 * (CG_CHECK_SLOTS ...), which accessors.c replaces with their values; of
 * a padded domain. */
extern const char amp__cl_textures[];
extern const char amp__cl_checked[];
extern const char amp__cl_guarded[];

#endif
