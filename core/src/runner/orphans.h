/* Processes a run leaves behind. A run's grandchild that calls setsid() escapes its process
 * group; as a child subreaper rigor inherits it when its parent dies, and kills it after the run.
 */
#ifndef RIGOR_ORPHANS_H
#define RIGOR_ORPHANS_H

/* Makes this process the reaper of its orphaned descendants (PR_SET_CHILD_SUBREAPER). */
void rigor_orphans_adopt(void);
/* Kills (SIGKILL) and reaps every child of this process that is still there; returns how many.
 * Call it when no child should be left: after a run and its noise burners are gone. */
int rigor_orphans_reap(void);

#endif
