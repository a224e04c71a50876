/*
 * runtime/kernel/buildlog.h - the message of a kernel that did not compile: the
 * compiler's diagnostics at the user's own file and line, as a C compiler
 * prints them, then the raw build log, then the numbered generated source.
 * The same map from generated lines to the user's lines serves AMP_CHECK's
 * reports (checkrun.c).
 */
#ifndef AMP_KERNEL_BUILDLOG_H
#define AMP_KERNEL_BUILDLOG_H

#include "amp/kernel.h"
#include "kernel/codegen.h"
#include "kernel/lexer.h"
#include "core/strbuf.h"

/* Where the lines of a generated kernel's body came from in the user's
 * file. Open with amp__bl_map_open(), close with amp__bl_map_close(). */
typedef struct bl_source_map {
    const cg_kernel *gen;
    const amp_kernel_source *src;
    const char *file_text; /* the text src->file names, or NULL if unreadable */
    char *owned_text;
    lex_pos *pos; /* where each body token is in file_text */
    size_t placed;
} bl_source_map;

/* Prepare the map of gen's body to src's file (reads the file). Returns 1
 * when lines can be mapped; 0 when not (the file cannot be read or no
 * longer holds the body). Either way, call amp__bl_map_close(). */
int amp__bl_map_open(bl_source_map *map, const cg_kernel *gen, const amp_kernel_source *src);

/* Move (gen_line, gen_column) of the generated source to the user's file:
 * *line and *column, 1-based. where is the file name the tool reported (for
 * a driver that honoured the #line of a kernel file), may be NULL. Returns
 * 0 when the position is outside the body. */
int amp__bl_map_find(const bl_source_map *map, const char *where, size_t where_length, int gen_line,
                int gen_column, int *line, int *column);

/* Append "file:line:col: severity: message", the user's line and a caret
 * under column, as a C compiler prints a diagnostic. */
void amp__bl_print_at(strbuf *out, const bl_source_map *map, int line, int column,
                 const char *severity, const char *message, size_t message_length);

void amp__bl_map_close(bl_source_map *map);

/* Append to out the diagnostics of log that point into the body of gen,
 * moved to src's file and line, each with the offending line and a caret.
 * Returns how many were mapped (0 when none could be, for example when the
 * source file cannot be read). */
int amp__bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                       const amp_kernel_source *src);

/* Append source with a line number before each line. */
void amp__bl_number_lines(strbuf *out, const char *source);

#endif
