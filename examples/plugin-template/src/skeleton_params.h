/* The params of the skeleton plugin, in one place. The plugin's params struct and the schema rigor
 * checks YAML against (src/skeleton.c) and the unit test's points (tests/test_skeleton.c) are all
 * built from this list, and the config names no param, so adding, renaming or removing an entry
 * here needs no other edit than the kernel's own uses of the field.
 *
 * One entry per param: X(TYPE, name, default, min, max, help). TYPE is UINT, INT, SIZE (bytes),
 * DOUBLE or BOOL; default, min and max are C literals of that type (a BOOL's min and max are
 * ignored: write 0 and 1). The schema gets them as text, the unit test as values. */
#ifndef SKELETON_PARAMS_H
#define SKELETON_PARAMS_H

#include <stdbool.h>
#include <stdint.h>

#define SKELETON_PARAMS(X)                                                                         \
  X(UINT, elements, 1000000, 1, 100000000,                                                         \
    "array length: one operation reads this many doubles and writes as many")                      \
  X(DOUBLE, scale, 3.0, -1000000.0, 1000000.0, "the factor each element is multiplied by")

/* The C type of each TYPE, as rigor stores it at the field's offset. */
#define SKELETON_CTYPE_UINT   uint64_t
#define SKELETON_CTYPE_INT    int64_t
#define SKELETON_CTYPE_SIZE   uint64_t
#define SKELETON_CTYPE_DOUBLE double
#define SKELETON_CTYPE_BOOL   bool

#define SKELETON_FIELD(kind, field, dflt, lo, hi, text) SKELETON_CTYPE_##kind field;
typedef struct skeleton_params {
  SKELETON_PARAMS(SKELETON_FIELD)
} skeleton_params_t;

/* Each param at its default, as a designated initializer: {SKELETON_PARAMS(SKELETON_DEFAULT)}. */
#define SKELETON_DEFAULT(kind, field, dflt, lo, hi, text) .field = dflt,

#endif
