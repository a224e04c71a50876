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
