/* A plugin's capabilities (rigor_plugin_t.capabilities): declared by the plugin, or inferred from
 * its hooks when it declares none, and held against its hooks either way. */
#ifndef RIGOR_CAPABILITIES_H
#define RIGOR_CAPABILITIES_H

#include <stddef.h>
#include <stdint.h>

#include "rigor/plugin.h"

/* What the hooks present in `d` can do, without RIGOR_CAP_DECLARED. */
uint32_t rigor_caps_inferred(const rigor_plugin_t *d);

/* Settles d->capabilities: inferred when 0, else checked against the hooks. Returns 0, or
 * RIGOR_EABI with err naming the capability and the hook that disagree. */
int rigor_caps_settle(rigor_plugin_t *d, const char *file, char *err, size_t errlen);

/* The capabilities as words ("asynchronous, validates"), "none" for none, into out. */
void rigor_caps_describe(uint32_t caps, char *out, size_t cap);

#endif
