/*
 * amp/struct_type.h - plain structs as element types of views and arrays
 * (C++ AMP's array_view<particle, 1> of a struct of int, unsigned, float
 * and double members).
 *
 * One macro at file scope declares the C type and describes it for the
 * kernel generator, from the same tokens:
 *
 *     AMP_STRUCT(particle, (float, x), (float, y), (int, id));
 *
 * is `typedef struct particle { float x; float y; int id; } particle;`
 * plus a description of its members. Register it once to get an element
 * type, then use that type like AMP_INT:
 *
 *     amp_elem_type particle_type;
 *     amp_struct_register(AMP_STRUCT_DESC(particle), &particle_type);
 *     amp_array_view_create(particle_type, amp_extent_1d(n), particles, &v);
 *     AMP_PARALLEL_FOR_EACH(e, idx, AMP_CAPTURE(v), { v(idx).x += v(idx).y; });
 *
 * A kernel that captures such a view gets the same typedef in OpenCL C,
 * and v(i).member reads and writes members. The layout must be the same on
 * the host and on the device, byte for byte: registration checks that each
 * member sits where OpenCL C puts it (each member aligned to its own size,
 * the struct to its largest member) and refuses the type otherwise.
 */
#ifndef AMP_STRUCT_TYPE_H
#define AMP_STRUCT_TYPE_H

#include <stddef.h>

#include "array_view.h"
#include "limits.h"
#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One member, as AMP_STRUCT describes it. */
typedef struct amp_struct_member {
    const char *type; /* as written: "int", "unsigned", "float", "double", or a short
                         vector of them ("float_3", "amp_int_2", amp/short_vector.h) */
    const char *name;
    size_t offset; /* offsetof on the host */
    size_t size;   /* sizeof on the host (of the whole array, for an array) */
    int count;     /* an array member's length; 0 for a single value */
} amp_struct_member;

/* A struct type, as AMP_STRUCT describes it. */
typedef struct amp_struct_desc {
    const char *name;
    size_t size; /* sizeof on the host */
    int nmembers;
    const amp_struct_member *members;
} amp_struct_desc;

/*
 * Register the struct that desc describes as an element type, and store
 * the type in *out. Registering the same description again gives the same
 * type. The type lives until the process ends; desc must too (the
 * AMP_STRUCT_DESC of a file-scope AMP_STRUCT does).
 *
 * Returns AMP_OK, or AMP_ERROR_INVALID_ARGUMENT (the message names the
 * member) for a NULL argument, a name that is not an identifier, a struct
 * or member named like a keyword or built-in type of OpenCL C (half,
 * kernel; a struct's name starting with amp_ or AMP_ too), two members of
 * one name, no members or more than AMP_MAX_STRUCT_MEMBERS, a member
 * whose type is not
 * int, unsigned, float or double, a member whose host offset or the
 * struct's host size differs from OpenCL C's layout, another struct
 * already registered under the same name, or AMP_MAX_STRUCT_TYPES
 * registered already; or AMP_ERROR_OUT_OF_MEMORY.
 */
amp_status amp_struct_register(const amp_struct_desc *desc, amp_elem_type *out);

/* The description of a registered struct element type, or NULL for any
 * other type. */
const amp_struct_desc *amp_struct_of(amp_elem_type type);

/* AMP_STRUCT(name, (type, member), (type, member, count), ...): at file
 * scope, the typedef and its description (a static object, one per
 * translation unit). (float, w, 4) is a member float w[4]; a type is int,
 * unsigned, float, double or a short vector of them (float_3, amp_float_3). */
#define AMP_STRUCT(name, ...)                                                                      \
    typedef struct name {                                                                          \
        AMP__SMAP(AMP__STRUCT_FIELD, name, __VA_ARGS__)                                            \
    } name;                                                                                        \
    static const amp_struct_member amp__struct_members_##name[] = {                                \
        AMP__SMAP(AMP__STRUCT_ROW, name, __VA_ARGS__)};                                            \
    AMP__MAYBE_UNUSED static const amp_struct_desc amp__struct_desc_##name = {                     \
        #name, sizeof(name),                                                                       \
        (int)(sizeof amp__struct_members_##name / sizeof amp__struct_members_##name[0]),           \
        amp__struct_members_##name}

/* The description AMP_STRUCT(name, ...) made. */
#define AMP_STRUCT_DESC(name) (&amp__struct_desc_##name)

/* ---- Deprecated spellings (docs/api.md, "Deprecated spellings") ---- */

/* Deprecated: AMP_MAX_STRUCT_MEMBERS (amp/limits.h). */
#define AMP_STRUCT_MAX_MEMBERS AMP_MAX_STRUCT_MEMBERS

/* ---- Internals of AMP_STRUCT ---- */

/* A file may declare a struct and never register it. */
#if defined(__GNUC__)
#define AMP__MAYBE_UNUSED __attribute__((unused))
#else
#define AMP__MAYBE_UNUSED
#endif

#define AMP__STRIP(...) __VA_ARGS__
/* A member is (type, member) or (type, member, count): with the struct's
 * name before them, 3 or 4 arguments. */
#define AMP__STRUCT_FIELD(s, m) AMP__STRUCT_FIELD_(s, AMP__STRIP m)
#define AMP__STRUCT_FIELD_(...) AMP__SCAT(AMP__STRUCT_FIELD, AMP__SCOUNT(__VA_ARGS__))(__VA_ARGS__)
#define AMP__STRUCT_FIELD3(s, type, member) type member;
#define AMP__STRUCT_FIELD4(s, type, member, count) type member[count];
#define AMP__STRUCT_ROW(s, m) AMP__STRUCT_ROW_(s, AMP__STRIP m)
#define AMP__STRUCT_ROW_(...) AMP__SCAT(AMP__STRUCT_ROW, AMP__SCOUNT(__VA_ARGS__))(__VA_ARGS__)
#define AMP__STRUCT_ROW3(s, type, member)                                                          \
    {#type, #member, offsetof(s, member), sizeof(((s *)0)->member), 0},
#define AMP__STRUCT_ROW4(s, type, member, count)                                                   \
    {#type, #member, offsetof(s, member), sizeof(((s *)0)->member), count},

/* f(a, x) for each x, with nothing between. */
#define AMP__SCOUNT(...)                                                                           \
    AMP__SCOUNT_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
#define AMP__SCOUNT_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12, _13, _14, _15, _16, n,     \
                     ...)                                                                          \
    n
#define AMP__SCAT(a, b) AMP__SCAT_(a, b)
#define AMP__SCAT_(a, b) a##b
#define AMP__SMAP(f, a, ...) AMP__SCAT(AMP__SMAP_, AMP__SCOUNT(__VA_ARGS__))(f, a, __VA_ARGS__)
#define AMP__SMAP_1(f, a, x) f(a, x)
#define AMP__SMAP_2(f, a, x, ...) f(a, x) AMP__SMAP_1(f, a, __VA_ARGS__)
#define AMP__SMAP_3(f, a, x, ...) f(a, x) AMP__SMAP_2(f, a, __VA_ARGS__)
#define AMP__SMAP_4(f, a, x, ...) f(a, x) AMP__SMAP_3(f, a, __VA_ARGS__)
#define AMP__SMAP_5(f, a, x, ...) f(a, x) AMP__SMAP_4(f, a, __VA_ARGS__)
#define AMP__SMAP_6(f, a, x, ...) f(a, x) AMP__SMAP_5(f, a, __VA_ARGS__)
#define AMP__SMAP_7(f, a, x, ...) f(a, x) AMP__SMAP_6(f, a, __VA_ARGS__)
#define AMP__SMAP_8(f, a, x, ...) f(a, x) AMP__SMAP_7(f, a, __VA_ARGS__)
#define AMP__SMAP_9(f, a, x, ...) f(a, x) AMP__SMAP_8(f, a, __VA_ARGS__)
#define AMP__SMAP_10(f, a, x, ...) f(a, x) AMP__SMAP_9(f, a, __VA_ARGS__)
#define AMP__SMAP_11(f, a, x, ...) f(a, x) AMP__SMAP_10(f, a, __VA_ARGS__)
#define AMP__SMAP_12(f, a, x, ...) f(a, x) AMP__SMAP_11(f, a, __VA_ARGS__)
#define AMP__SMAP_13(f, a, x, ...) f(a, x) AMP__SMAP_12(f, a, __VA_ARGS__)
#define AMP__SMAP_14(f, a, x, ...) f(a, x) AMP__SMAP_13(f, a, __VA_ARGS__)
#define AMP__SMAP_15(f, a, x, ...) f(a, x) AMP__SMAP_14(f, a, __VA_ARGS__)
#define AMP__SMAP_16(f, a, x, ...) f(a, x) AMP__SMAP_15(f, a, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
