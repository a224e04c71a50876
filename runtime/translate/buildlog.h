/*
 * runtime/translate/buildlog.h - the message of a kernel that did not compile: the
 * compiler's diagnostics at the user's own file and line, as a C compiler
 * prints them, then the raw build log, then the numbered generated source.
 * The same map from generated lines to the user's lines serves AMP_CHECK's
 * reports (checkrun.c).
 */
#ifndef AMP_TRANSLATE_BUILDLOG_H
#define AMP_TRANSLATE_BUILDLOG_H

#include "amp/kernel.h"
#include "translate/translate.h"
#include "translate/lexer.h"
#include "core/strbuf.h"

/* One text of the user's in their file: the body, or a helper function. */
typedef struct bl_text {
    const char *file;
    const char *file_text; /* the text of file, or NULL if unreadable */
    char *owned_text;
    const cg_text *gen; /* where its tokens went in the generated source */
    lex_pos *pos;       /* where each of its tokens is in file_text */
    size_t placed;
} bl_text;

/* Where the lines of a generated kernel came from in the user's files.
 * Open with amp__bl_map_open(), close with amp__bl_map_close(). */
typedef struct bl_source_map {
    const cg_kernel *gen;
    const amp_kernel_source *src;
    int ntexts;
    bl_text texts[1 + AMP_MAX_CAPTURES];
    int body;          /* which text is the body; -1 when it could not be found */
    cg_text site_body; /* the body's text, at this call site's file and line */
} bl_source_map;

/* A place in one of the map's texts: its file's 1-based line and column. */
typedef struct bl_place {
    int text;
    int line;
    int column;
} bl_place;

/* Prepare the map of gen's body and helpers to src's file and theirs (reads
 * the files). Returns 1 when any lines can be mapped; 0 when none can (the
 * files cannot be read or no longer hold the texts). Either way, call
 * amp__bl_map_close(). */
int amp__bl_map_open(bl_source_map *map, const cg_kernel *gen, const amp_kernel_source *src);

/* Move (gen_line, gen_column) of the generated source to the user's file:
 * *at. where is the file name the tool reported (for a driver that
 * honoured the #line of a kernel file), may be NULL. Returns 0 when the
 * position is outside the user's texts. */
int amp__bl_map_find(const bl_source_map *map, const char *where, size_t where_length, int gen_line,
                     int gen_column, bl_place *at);

/* The text of the file a place is in, or NULL. */
const char *amp__bl_file_text(const bl_source_map *map, const bl_place *at);

/* The barriers written on the lines strictly between a's and b's (of one
 * text; a before b): BL_NO_BARRIER, or BL_FULL_BARRIER where one waits
 * with a fence on tile_static memory (wait(), wait_with_all_memory_fence,
 * wait_with_tile_static_memory_fence), else BL_GLOBAL_FENCE_ONLY where
 * one waits with wait_with_global_memory_fence; *line: that barrier's
 * line. Read from the text as written (a helper that waits is not seen). */
enum { BL_NO_BARRIER, BL_FULL_BARRIER, BL_GLOBAL_FENCE_ONLY };
int amp__bl_barrier_between(const bl_source_map *map, const bl_place *a, const bl_place *b,
                            int *line);

/* Append "file:line:col: severity: message", the user's line and a caret
 * under column, as a C compiler prints a diagnostic. */
void amp__bl_print_at(strbuf *out, const bl_source_map *map, const bl_place *at,
                      const char *severity, const char *message, size_t message_length);

void amp__bl_map_close(bl_source_map *map);

/* Append to out the diagnostics of log that point into the body of gen,
 * moved to src's file and line, each with the offending line and a caret;
 * a linker's report of a function nothing defines, which names no line,
 * at the first call of it in the user's text. Returns how many were mapped
 * (0 when none could be, for example when the source file cannot be
 * read). */
int amp__bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                            const amp_kernel_source *src);

/* Append source with a line number before each line. */
void amp__bl_number_lines(strbuf *out, const char *source);

#endif
