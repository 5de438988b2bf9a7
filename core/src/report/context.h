/* What a report stands on, read from the experiment record (never measured again): host, CPU
 * and its cores, kernel, rigor's version and git hash, the date, the config's hash and file,
 * the plugin and its version, and the environment checks that warned when the experiment ran,
 * as Google Benchmark's console header gives them. */
#ifndef RIGOR_CONTEXT_H
#define RIGOR_CONTEXT_H

#include <jansson.h>

#include "analysis.h"
#include "document.h"
#include "table.h"

/* {host, cpu_model, cores, threads, kernel, rigor_version, rigor_git, created, config_hash,
 * config_file, results, plugin, plugin_version, warnings: [{check, detail, advice}]}, members
 * null where the record lacks them (docs/results-format.md). */
json_t *rigor_context_json(const rigor_exp_analysis_t *e);
/* The table "context": one row per field, one value column per context (BASE and CAND in a
 * comparison; `sides` names them, and is unused for one). */
rigor_table_t *rigor_context_table(const json_t *const *ctx, const char *const *sides, size_t n);
/* "load: 1-minute load average 6.02 (warning at 1.0)", prefixed with "SIDE: " when side is not
 * NULL. */
json_t *rigor_context_warning_lines(const json_t *ctx, const char *side);
/* The context of e as a document part. */
void rigor_context_doc(rigor_doc_t *doc, const rigor_exp_analysis_t *e);

#endif
