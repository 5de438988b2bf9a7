/* The largest experiment rigor builds, and so the largest index a results file may hold: the
 * config loader refuses more, and the results reader takes anything larger for damage. */
#ifndef RIGOR_BOUNDS_H
#define RIGOR_BOUNDS_H

#define RIGOR_MAX_VARIANTS 100000   /* matrix cells of one experiment */
#define RIGOR_MAX_ARMS     64       /* levels of an interleaved axis: instances in one process */
#define RIGOR_MAX_RUNS     10000000 /* variants x blocks */
#define RIGOR_MAX_POINTS   100000   /* sweep points, and values of one range */

#endif
