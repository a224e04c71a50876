/* A header with the gaps scripts/check/api-index.sh must find (test
 * api_index_catches_gaps, tests/lint/CMakeLists.txt). */

/* Documented and listed. */
int amp_listed(int x);

/* Documented, for a group of two, both listed. */
int amp_group_first(void);
int amp_group_second(void);

int amp_no_comment(void);

/* Documented, but missing from the index. */
void amp_not_listed(const char *name,
                    int flags);

typedef struct amp_thing {
    int field; /* a field's comment is no function's */
} amp_thing;
int amp_after_struct(void);

/* Internal names are left out. */
int amp__internal(void);

/* A public macro must be listed too. */
#define AMP_UNLISTED_MACRO(x) (x)

/* Deprecated: amp_listed(). Listed among the deprecated spellings. */
AMP__DEPRECATED("amp_listed") int amp_old_listed(int x);

/* Deprecated: amp_listed(), but the compiler is not told. */
int amp_old_unmarked(int x);

/* The compiler is told, but the comment does not say so. */
AMP__DEPRECATED("amp_listed")
int amp_marked_only(int x);

/* Deprecated: amp_listed(). Listed among the current spellings. */
AMP__DEPRECATED("amp_listed") int amp_old_among_current(int x);

/* Current, but listed only among the deprecated spellings. */
int amp_current_among_old(void);
