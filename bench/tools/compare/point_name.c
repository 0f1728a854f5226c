/*
 * A point's name across runs (benchmark.variant/param=value/...): the test name of LNT's
 * submissions and the column of Otava's CSV (bench export, bench history).
 */
#include "compare.h"

#include <stdio.h>
#include <string.h>

/* A params value that belongs in a test name: a number, a boolean, or a short word. */
static bool name_value(json_t *v, char *buf, size_t len)
{
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else if (json_is_string(v) && strlen(json_string_value(v)) < 40 &&
		 strspn(json_string_value(v), "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					      "0123456789_.:+-") == strlen(json_string_value(v)))
		snprintf(buf, len, "%s", json_string_value(v));
	else
		return false;   /* null, objects, descriptions ("required (...)") */
	return true;
}

/*
 * benchmark.variant/param=value/...: the params compare matches on, in their order, after the
 * device (and alone or at once) of a point of a run on several devices.
 */
void export_test_name(const struct cmp_point *p, char *buf, size_t len)
{
	json_t *var = json_object_get(p->params, "variant"), *v;
	const char *k;
	char val[64];
	size_t at;

	at = (size_t)snprintf(buf, len, "%s", p->bench);
	if (var && name_value(var, val, sizeof(val)))
		at += (size_t)snprintf(buf + at, len - at, ".%s", val);
	if (p->device) {   /* a run on several devices: the device, and alone or at once */
		char slug[256];
		cmp_slug(p->device, slug, sizeof(slug));
		at += (size_t)snprintf(buf + at, len - at, "/device=%s", slug);
		at = at < len ? at : len - 1;
	}
	if (p->concurrent >= 0 && at + 20 < len)
		at += (size_t)snprintf(buf + at, len - at, "/concurrent=%s", p->concurrent ? "true" : "false");
	json_object_foreach(p->params, k, v) {
		bool skip = strcmp(k, "variant") == 0 || !name_value(v, val, sizeof(val));
		for (size_t i = 0; !skip && cmp_ignored_params[i].key; i++)
			skip = strcmp(k, cmp_ignored_params[i].key) == 0;
		if (!skip && at + strlen(k) + strlen(val) + 3 < len)
			at += (size_t)snprintf(buf + at, len - at, "/%s=%s", k, val);
	}
}
