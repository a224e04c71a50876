/*
 * runtime/core/lexicon.c - the words of OpenCL C: which strings are
 * identifiers, and which identifiers a kernel cannot take as names.
 */
#include "core/lexicon.h"

#include <ctype.h>
#include <string.h>

int amp__lexicon_is_identifier(const char *s)
{
    if (!s || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (const char *p = s + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return 0;
    return 1;
}

/* The words of OpenCL C that are not free names: C99's keywords, OpenCL
 * C's qualifiers and built-in types (scalar and vector), and the kernel
 * vocabulary's own tile_static. A capture or an index named like one of
 * them makes a kernel that fails to compile with a message about something
 * else. */
int amp__lexicon_is_keyword(const char *s)
{
    static const char *const words[] = {
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else",
        "enum", "extern", "float", "for", "goto", "if", "inline", "int", "long", "register",
        "restrict", "return", "short", "signed", "sizeof", "static", "struct", "switch",
        "typedef", "union", "unsigned", "void", "volatile", "while", "_Bool", "_Complex",
        "_Imaginary", "bool", "true", "false", "uchar", "ushort", "uint", "ulong", "half",
        "size_t", "ptrdiff_t", "intptr_t", "uintptr_t", "image1d_t", "image1d_array_t",
        "image1d_buffer_t", "image2d_t", "image2d_array_t", "image3d_t", "sampler_t", "event_t",
        "__global", "global", "__local", "local", "__constant", "constant", "__private",
        "private", "__kernel", "kernel", "__read_only", "read_only", "__write_only",
        "write_only", "__read_write", "read_write", "tile_static"};
    static const char *const vector_bases[] = {"char", "uchar", "short", "ushort", "int",
                                               "uint", "long", "ulong", "float", "double",
                                               "half", "bool"};
    if (!s)
        return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(s, words[i]) == 0)
            return 1;
    /* Vector types: a scalar type and 2, 3, 4, 8 or 16 lanes. */
    for (size_t i = 0; i < sizeof vector_bases / sizeof vector_bases[0]; i++) {
        size_t n = strlen(vector_bases[i]);
        if (strncmp(s, vector_bases[i], n) != 0)
            continue;
        const char *lanes = s + n;
        if (strcmp(lanes, "2") == 0 || strcmp(lanes, "3") == 0 || strcmp(lanes, "4") == 0 ||
            strcmp(lanes, "8") == 0 || strcmp(lanes, "16") == 0)
            return 1;
    }
    return 0;
}
