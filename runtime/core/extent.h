/*
 * runtime/core/extent.h - what the runtime says of an extent in its
 * messages (the values themselves are amp/extent.h's).
 */
#ifndef AMP_CORE_EXTENT_H
#define AMP_CORE_EXTENT_H

/* For a message that refuses an extent's rank: where a rank of 0 comes
 * from, as a clause to append (" (...)"), or "" for any other rank. A
 * program that asked amp_extent_nd() for rank 9 is told rank 0. */
const char *amp__extent_rank_note(int rank);

#endif
