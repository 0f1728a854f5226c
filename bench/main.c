/*
 * bench: GPU thread-mapping and occupancy benchmarks. One command: the measurement rows
 * (bench/measure/rows.c) and the tools that work on them and their results (bench/tools/, in
 * wings; listed by meson.build's bench_tools).
 */
#include "rows.h"
#include "tool.h"
#include "results.h"
#include "build_info.h"
#include "tools_list.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int list_main(void *opts);

struct list_opts {
	bool json;
};

static const struct cli_opt list_cli[] = {
	{ "json", NULL, CLI_FLAG, offsetof(struct list_opts, json),
	  .help = "every command's facts as JSON: its synopsis, its options and the\n"
		  "shared ones with their ranges, defaults and values; a row's benchmark,\n"
		  "params, checks and builds" },
	{ 0 } };

static const struct bench_tool list_tool = {
	.cmd = {
		.name = "list",
		.summary = "list the subcommands",
		.synopsis = "usage: bench list [--json]\n  Lists the subcommands with a line each.\n",
		.opts = list_cli,
		.opts_size = sizeof(struct list_opts),
	},
	.main = list_main,
};

/* The tools that describe the device, listed before the rows; then those that work on results
 * (tools_list.h, generated from meson.build's bench_tools). */
#define DECLARE(n) extern const struct bench_tool n##_tool;
BENCH_DEVICE_TOOLS(DECLARE)
BENCH_TOOLS(DECLARE)
#define ENTRY(n) &n##_tool,
static const struct bench_tool *const tools[] = { &list_tool, BENCH_DEVICE_TOOLS(ENTRY)
						   BENCH_TOOLS(ENTRY) };
#define N_TOOLS (sizeof(tools) / sizeof(tools[0]))
#define ONE(n) + 1
#define N_FIRST_TOOLS (1 BENCH_DEVICE_TOOLS(ONE))   /* list and the device tools */

static const struct bench_tool *tool_find(const char *name)
{
	for (size_t i = 0; i < N_TOOLS; i++)
		if (strcmp(name, tools[i]->cmd.name) == 0)
			return tools[i];
	return NULL;
}

/* Every command, a line each: the tools that describe the device, the rows, the other tools. */
static void list_commands(FILE *f, const char *indent)
{
	const struct bench_row *row;

	for (size_t i = 0; i < N_FIRST_TOOLS; i++)
		fprintf(f, "%s%-12s %s\n", indent, tools[i]->cmd.name, tools[i]->cmd.summary);
	for (size_t i = 0; (row = bench_row_at(i)); i++)
		fprintf(f, "%s%-12s %s\n", indent, row->cmd.name, row->cmd.summary);
	for (size_t i = N_FIRST_TOOLS; i < N_TOOLS; i++)
		fprintf(f, "%s%-12s %s\n", indent, tools[i]->cmd.name, tools[i]->cmd.summary);
}

/* The values an option of a list of names takes ("all" too for a subset), else null. */
static json_t *names_json(const struct cli_opt *o)
{
	json_t *a;

	if (!o->names)
		return json_null();
	a = json_array();
	for (size_t i = 0; i < o->n_names; i++)
		json_array_append_new(a, json_string(o->names[i]));
	if (o->kind == CLI_NAMES)
		json_array_append_new(a, json_string("all"));
	return a;
}

/* The options of a table: each one's spelling, kind, range, default, values and help. */
static json_t *opts_json(const struct cli_opt *opts)
{
	static const char *const kinds[] = { "end", "flag", "string", "u64", "uint", "size", "range",
					     "size-range", "names", "choice", "sg", "custom" };
	json_t *a = json_array();

	for (size_t i = 0; opts && opts[i].kind != CLI_END; i++) {
		const struct cli_opt *o = &opts[i];
		char facts[512], alias[2] = { o->short_name, '\0' };
		cli_opt_facts(o, facts, sizeof(facts));
		json_array_append_new(a, json_pack("{s:s, s:o, s:s, s:I, s:I, s:o, s:o, s:o, s:s, s:o, s:o}",
			"name", o->name, "metavar", o->metavar ? json_string(o->metavar) : json_null(),
			"kind", kinds[o->kind], "min", (json_int_t)o->min, "max", (json_int_t)o->max,
			"default", o->def ? json_string(o->def) : json_null(),
			"default_note", o->def_note ? json_string(o->def_note) : json_null(),
			"help", o->help ? json_string(o->help) : json_null(), "facts", facts,
			"short", o->short_name ? json_string(alias) : json_null(), "names", names_json(o)));
	}
	return a;
}

/* The shared tables a command's usage lists after its own, into {"sub-groups": [], ...}. */
static void shared_json(const struct cli_opt *opts, const char *group, void *arg)
{
	json_object_set_new(arg, group, opts_json(opts));
}

/* What a command's table says of it (a row's too: its benchmark, params, checks, builds). */
static json_t *cmd_json(const struct bench_cmd *c, const struct bench_row *row)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s, s:b, s:b, s:b, s:o, s:{}}", "name", c->name,
			      "kind", row ? "row" : "tool", "summary", c->summary, "synopsis",
			      c->synopsis, "device", (c->flags & BENCH_DEVICE) != 0, "sub_groups",
			      (c->flags & BENCH_SG) != 0, "operands", (c->flags & BENCH_OPERANDS) != 0,
			      "options", opts_json(c->opts), "shared_options");
	json_t *params = json_array();

	bench_usage_shared(c, shared_json, json_object_get(o, "shared_options"));
	if (!row)
		return o;
	for (const struct bench_param *d = row->params; d && d->name; d++) {
		json_t *names = json_array();
		for (size_t k = 0; k < d->n_names; k++)
			json_array_append_new(names, json_string(d->names[k]));
		json_array_append_new(params, json_pack("{s:s, s:b, s:s, s:s?, s:s?, s:o}", "name",
							d->name, "optional", d->optional, "type",
							bench_ptype_names[d->type], "unit", d->unit,
							"help", d->help, "names", names));
	}
	json_object_set_new(o, "benchmark", json_string(row->benchmark ? row->benchmark : c->name));
	json_object_set_new(o, "params", params);
	json_object_set_new(o, "checks", json_boolean(row->checks != NULL));
	json_object_set_new(o, "builds", json_boolean(row->builds != NULL));
	json_object_set_new(o, "cold", json_boolean(c->flags & BENCH_COLD));
	return o;
}

static int list_main(void *opts)
{
	const struct list_opts *o = opts;
	const struct bench_row *row;
	json_t *a;

	if (!o->json) {
		list_commands(stdout, "");
		return EXIT_OK;
	}
	a = json_array();
	for (size_t i = 0; i < N_TOOLS; i++)
		json_array_append_new(a, cmd_json(&tools[i]->cmd, NULL));
	for (size_t i = 0; (row = bench_row_at(i)); i++)
		json_array_append_new(a, cmd_json(&row->cmd, row));
	json_dumpf(a, stdout, JSON_INDENT(1));
	putchar('\n');
	json_decref(a);
	return EXIT_OK;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: bench [--help|--version] <command> [options]\n\ncommands:\n");
	list_commands(f, "  ");
	fprintf(f, "\n'bench <command> --help' describes each command's options.\n"
		   "Exit codes: 0 ok, 1 a point or check failed, 2 bad usage, 77 no capable device.\n");
}

/* Every command's name, for messages that say what exists (cli_commands). */
static void name_commands(void)
{
	const struct bench_row *row;
	size_t n_rows = 0, n = 0;
	const char **names;

	while (bench_row_at(n_rows))
		n_rows++;
	names = bench_alloc((N_TOOLS + n_rows + 1) * sizeof(*names));
	for (size_t i = 0; i < N_TOOLS; i++)
		names[n++] = tools[i]->cmd.name;
	for (size_t i = 0; (row = bench_row_at(i)); i++)
		names[n++] = row->cmd.name;
	names[n] = NULL;
	cli_commands = names;   /* for the process's life */
}

int main(int argc, char **argv)
{
	const struct bench_row *row;
	const struct bench_tool *tool;

	atexit(cli_close_stdout);   /* registered first: it runs last */
	name_commands();
	cli_argc = argc;
	cli_argv = argv;
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		build_info_print(stdout);
		return EXIT_OK;
	}
	cli_cmd = argv[1];   /* an alias's messages (and the resolving's own) name the command as typed */
	if ((row = bench_row_resolve(argc - 1, argv + 1))) {
		return bench_row_main(row, argc - 1, argv + 1);
	}
	if ((tool = tool_find(argv[1]))) {
		cli_cmd = tool->cmd.name;
		return bench_tool_main(tool, argc - 1, argv + 1);
	}
	fprintf(stderr, "bench: usage: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
