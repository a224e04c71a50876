/*
 * runtime/buildlog.h - the message of a kernel that did not compile: the
 * compiler's diagnostics at the user's own file and line, as a C compiler
 * prints them, then the raw build log, then the numbered generated source.
 */
#ifndef RT_BUILDLOG_H
#define RT_BUILDLOG_H

#include "amp/kernel.h"
#include "codegen.h"
#include "strbuf.h"

/* Append to out the diagnostics of log that point into the body of gen,
 * moved to src's file and line, each with the offending line and a caret.
 * Returns how many were mapped (0 when none could be, for example when the
 * source file cannot be read). */
int bl_map_diagnostics(strbuf *out, const char *log, const cg_kernel *gen,
                       const amp_kernel_source *src);

/* Append source with a line number before each line. */
void bl_number_lines(strbuf *out, const char *source);

#endif
