/*
 * runtime/data/struct_type.h - the registry of struct element types
 * (amp/struct_type.h): their sizes and names for views and copies, and
 * their OpenCL C definitions for the kernel generator.
 *
 * Struct types are numbered from ST_FIRST_TYPE, past the built-in element
 * types. Entries are only ever added, and each is complete before the
 * count that makes it visible is raised, so the lookups below take no lock
 * (amp_elem_type_size() is called both with and without the runtime lock held).
 */
#ifndef AMP_DATA_STRUCT_TYPE_H
#define AMP_DATA_STRUCT_TYPE_H

#include <stddef.h>

#include "amp/struct_type.h"

/* The first struct element type. */
#define ST_FIRST_TYPE 64

/* A struct type's size in bytes, or 0 when type is not a registered struct. */
size_t amp__st_size(amp_elem_type type);

/* A struct type's name, or NULL when type is not a registered struct. */
const char *amp__st_name(amp_elem_type type);

/* A struct type's definition in OpenCL C ("typedef struct p { ... } p;\n"),
 * or NULL. */
const char *amp__st_cl_source(amp_elem_type type);

/* Nonzero when the struct type has a double member. */
int amp__st_has_double(amp_elem_type type);

#endif
