/*
 * runtime/data/struct_type.c - registering plain structs as element types, and
 * checking that the host lays them out as OpenCL C does.
 *
 * OpenCL C aligns int, uint and float to 4 bytes and double to 8, and lays
 * a struct out as C does: each member at the next multiple of its
 * alignment, the size a multiple of the largest. x86-64 and AArch64 hosts
 * do the same; a 32-bit x86 host aligns double to 4 inside structs, and
 * such a struct is refused rather than copied to the device wrong. The
 * check compares the offsets the host compiler chose (offsetof, recorded by
 * AMP_STRUCT) with the ones OpenCL C will choose, so no kernel is needed.
 */
#include "data/struct_type.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/elem.h"
#include "core/error.h"
#include "core/lock.h"
#include "core/lexicon.h"
#include "core/strbuf.h"

typedef struct st_entry {
    const amp_struct_desc *desc;
    char *cl_source;
    int has_double;
} st_entry;

static st_entry entries[AMP_MAX_STRUCT_TYPES];
static atomic_int entry_count; /* entries[0 .. entry_count-1] are complete */

static const st_entry *entry_of(amp_elem_type type)
{
    int i = (int)type - ST_FIRST_TYPE;
    if (i < 0 || i >= atomic_load(&entry_count))
        return NULL;
    return &entries[i];
}

size_t amp__st_size(amp_elem_type type)
{
    const st_entry *e = entry_of(type);
    return e ? e->desc->size : 0;
}

const char *amp__st_name(amp_elem_type type)
{
    const st_entry *e = entry_of(type);
    return e ? e->desc->name : NULL;
}

const char *amp__st_cl_source(amp_elem_type type)
{
    const st_entry *e = entry_of(type);
    return e ? e->cl_source : NULL;
}

int amp__st_has_double(amp_elem_type type)
{
    const st_entry *e = entry_of(type);
    return e ? e->has_double : 0;
}

amp_elem_type amp__st_find(const char *name)
{
    int n = atomic_load(&entry_count);
    for (int i = 0; name && i < n; i++)
        if (strcmp(entries[i].desc->name, name) == 0)
            return (amp_elem_type)(ST_FIRST_TYPE + i);
    return (amp_elem_type)0;
}

amp_elem_type amp__st_vector_named(const char *type)
{
    static const char *const scalars[] = {"int", "uint", "float", "double"};
    const char *s = strncmp(type, "amp_", 4) == 0 ? type + 4 : type;
    for (int k = 0; k < 4; k++) {
        size_t n = strlen(scalars[k]);
        if (strncmp(s, scalars[k], n) != 0 || s[n] != '_' || s[n + 1] < '2' || s[n + 1] > '4' ||
            s[n + 2] != '\0')
            continue;
        return amp__elem_of((amp_elem_type)(AMP_INT + k), s[n + 1] - '0');
    }
    return (amp_elem_type)0;
}

const amp_struct_desc *amp_struct_of(amp_elem_type type)
{
    const st_entry *e = entry_of(type);
    return e ? e->desc : NULL;
}

/* The OpenCL C spelling, size and alignment of a member type, or NULL for
 * a type whose layout could differ between host and device. A short vector
 * of 2 or 4 values is OpenCL's (aligned to its size); one of 3 is laid out
 * as C++ AMP lays it out, 12 or 24 bytes aligned as its values
 * (amp_packed_float3 in kernels, where float3 would take 16 or 32). */
static const char *cl_member_type(const char *type, size_t *size, size_t *align)
{
    static const struct {
        const char *host, *cl;
        size_t size;
    } types[] = {{"int", "int", 4},
                 {"unsigned", "uint", 4},
                 {"unsigned int", "uint", 4},
                 {"float", "float", 4},
                 {"double", "double", 8}};
    static const char *const vectors[] = {
        "int2",   "amp_packed_int3",   "int4",   "uint2",   "amp_packed_uint3",   "uint4",
        "float2", "amp_packed_float3", "float4", "double2", "amp_packed_double3", "double4"};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(type, types[i].host) == 0) {
            *size = *align = types[i].size;
            return types[i].cl;
        }
    amp_elem_type v = amp__st_vector_named(type);
    if (!v)
        return NULL;
    int lanes = amp__elem_lanes(v);
    size_t scalar = amp__elem_scalar_size(v);
    *size = (size_t)lanes * scalar;
    *align = lanes == 3 ? scalar : *size;
    return vectors[v - AMP_INT_2];
}

/* Check every member and the size against OpenCL C's layout. */
static amp_status check_layout(const char *fn, const amp_struct_desc *d, int *has_double)
{
    if (!d->name)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: desc->name is NULL.", fn);
    if (!amp__lexicon_is_identifier(d->name))
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the struct's name '%s' is not an identifier.", fn, d->name);
    /* Kernels name the type as it is: a keyword or a name of the library's
     * would not compile there (nor be told from AMP_FLOAT's "float"). */
    if (amp__lexicon_is_keyword(d->name) || strncmp(d->name, "amp_", 4) == 0 ||
        strncmp(d->name, "AMP_", 4) == 0)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: the struct's name '%s' is a keyword or built-in type of OpenCL"
                            " C, or a name of the library's (amp_, AMP_); rename the struct.",
                            fn, d->name);
    if (d->nmembers < 1 || d->nmembers > AMP_MAX_STRUCT_MEMBERS)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: struct %s has %d members; it must have 1 to %d.", fn, d->name,
                            d->nmembers, AMP_MAX_STRUCT_MEMBERS);
    if (!d->members)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: struct %s has %d members, and desc->members is NULL.", fn, d->name,
                            d->nmembers);
    size_t offset = 0, struct_align = 1;
    *has_double = 0;
    for (int i = 0; i < d->nmembers; i++) {
        const amp_struct_member *m = &d->members[i];
        size_t size = 0;
        if (!m->name)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: member %d of struct %s has a NULL name.", fn, i, d->name);
        if (!amp__lexicon_is_identifier(m->name))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: member %d of struct %s has the name '%s', not an identifier.",
                                fn, i, d->name, m->name);
        if (amp__lexicon_is_keyword(m->name) && strcmp(m->name, "global") != 0 &&
            strcmp(m->name, "local") != 0)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: member '%s' of struct %s is named like a keyword or built-in"
                                " type of OpenCL C, which a kernel cannot use as a member;"
                                " rename it.",
                                fn, m->name, d->name);
        for (int k = 0; k < i; k++)
            if (d->members[k].name && strcmp(d->members[k].name, m->name) == 0)
                return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                    "%s: struct %s has two members named '%s'.", fn, d->name,
                                    m->name);
        if (!m->type)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: member '%s' of struct %s has a NULL type.", fn, m->name,
                                d->name);
        size_t align = 0;
        if (!cl_member_type(m->type, &size, &align))
            return amp__err_set(
                AMP_ERROR_INVALID_ARGUMENT,
                "%s: member '%s' of struct %s is of type '%s'. Members of element"
                " structs are int, unsigned, float or double, or their short vectors"
                " (float_3, amp_int_2 ...), whose layout is the same on the host and in"
                " OpenCL C.",
                fn, m->name, d->name, m->type);
        if (m->count < 0 || (size_t)m->count > 65536)
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: member '%s' of struct %s is an array of %d; it must have 1"
                                " to 65536 elements.",
                                fn, m->name, d->name, m->count);
        if (m->count > 0)
            size *= (size_t)m->count;
        offset = (offset + align - 1) / align * align;
        if (m->size != size || m->offset != offset)
            return amp__err_set(
                AMP_ERROR_INVALID_ARGUMENT,
                "%s: member '%s' of struct %s is %zu bytes at byte %zu on the host, and"
                " %zu bytes at byte %zu in OpenCL C. The host compiler lays the struct"
                " out differently from the device; reorder the members, largest"
                " first, or pass them as separate views.",
                fn, m->name, d->name, m->size, m->offset, size, offset);
        offset += size;
        if (align > struct_align)
            struct_align = align;
        *has_double |= strstr(m->type, "double") != NULL;
    }
    size_t total = (offset + struct_align - 1) / struct_align * struct_align;
    /* OpenCL C rounds the struct up to its largest member's alignment (32
     * bytes for a double_4), where the host's vectors may align less: the
     * members match, the ends do not. Members that fill the rest on the
     * host make both the same. */
    if (d->size < total && (total - d->size) % 4 == 0)
        return amp__err_set(
            AMP_ERROR_INVALID_ARGUMENT,
            "%s: struct %s is %zu bytes on the host and %zu in OpenCL C, which rounds a"
            " struct up to its largest alignment (%zu bytes). Fill the last %zu bytes on the"
            " host with a member of its own, (int, pad, %zu) at the end of AMP_STRUCT, so"
            " that both are %zu bytes.",
            fn, d->name, d->size, total, struct_align, total - d->size, (total - d->size) / 4,
            total);
    if (d->size != total)
        return amp__err_set(
            AMP_ERROR_INVALID_ARGUMENT,
            "%s: struct %s is %zu bytes on the host and %zu in OpenCL C. Reorder the"
            " members, largest first.",
            fn, d->name, d->size, total);
    return AMP_OK;
}

/* Two descriptions of the same struct, as two files that include one
 * AMP_STRUCT each make. */
static int same_struct(const amp_struct_desc *a, const amp_struct_desc *b)
{
    if (strcmp(a->name, b->name) != 0 || a->size != b->size || a->nmembers != b->nmembers)
        return 0;
    for (int i = 0; i < a->nmembers; i++)
        if (strcmp(a->members[i].type, b->members[i].type) != 0 ||
            strcmp(a->members[i].name, b->members[i].name) != 0 ||
            a->members[i].offset != b->members[i].offset ||
            a->members[i].count != b->members[i].count)
            return 0;
    return 1;
}

static char *cl_definition(const amp_struct_desc *d)
{
    strbuf sb = STRBUF_INIT;
    amp__sb_printf(&sb, "typedef struct %s {\n", d->name);
    for (int i = 0; i < d->nmembers; i++) {
        size_t size, align;
        amp__sb_printf(&sb, "    %s %s", cl_member_type(d->members[i].type, &size, &align),
                       d->members[i].name);
        if (d->members[i].count > 0)
            amp__sb_printf(&sb, "[%d]", d->members[i].count);
        amp__sb_append(&sb, ";\n");
    }
    amp__sb_printf(&sb, "} %s;\n", d->name);
    return amp__sb_take(&sb);
}

/* The type of desc: the one registered before for it (or for the same
 * struct from another file), or a new entry. */
static amp_status register_locked(const char *fn, const amp_struct_desc *desc, int has_double,
                                  amp_elem_type *out)
{
    int n = atomic_load(&entry_count);
    for (int i = 0; i < n; i++) {
        if (entries[i].desc != desc && strcmp(entries[i].desc->name, desc->name) != 0)
            continue;
        if (entries[i].desc != desc && !same_struct(entries[i].desc, desc))
            return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                                "%s: another struct named %s, with other members, is registered"
                                " already. Kernels know element structs by name: give this one"
                                " another.",
                                fn, desc->name);
        *out = (amp_elem_type)(ST_FIRST_TYPE + i);
        return AMP_OK;
    }
    if (n == AMP_MAX_STRUCT_TYPES)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT,
                            "%s: %d struct types are registered, the most a process may have"
                            " (AMP_MAX_STRUCT_TYPES).",
                            fn, AMP_MAX_STRUCT_TYPES);
    char *source = cl_definition(desc);
    if (!source)
        return amp__err_set(AMP_ERROR_OUT_OF_MEMORY, "%s: out of host memory.", fn);
    entries[n].desc = desc;
    entries[n].cl_source = source;
    entries[n].has_double = has_double;
    atomic_store(&entry_count, n + 1);
    *out = (amp_elem_type)(ST_FIRST_TYPE + n);
    return AMP_OK;
}

amp_status amp_struct_register(const amp_struct_desc *desc, amp_elem_type *out)
{
    static const char fn[] = "amp_struct_register";
    if (!desc || !out)
        return amp__err_set(AMP_ERROR_INVALID_ARGUMENT, "%s: %s is NULL.", fn,
                            desc ? "out" : "desc");
    int has_double = 0;
    amp_status st = check_layout(fn, desc, &has_double);
    if (st != AMP_OK)
        return st;
    amp__lock_acquire();
    st = register_locked(fn, desc, has_double, out);
    amp__lock_release();
    return st;
}
