/* The command line: messages, strict value parsers and the one option loop. */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cli_cmd = "bench";
const char *cli_where = "";
int cli_argc;
char **cli_argv;
const char *const *cli_commands;

bool cli_is_command(const char *name)
{
	for (size_t i = 0; cli_commands && cli_commands[i]; i++)
		if (strcmp(cli_commands[i], name) == 0)
			return true;
	return false;
}

void cli_close_stdout(void)
{
	int e = fflush(stdout) != 0 ? errno : 0;
	bool bad = e || ferror(stdout);

	if (fclose(stdout) != 0 && !bad) {
		e = errno;
		bad = true;
	}
	if (!bad)
		return;
	fprintf(stderr, "bench%s%s: cannot write the standard output%s%s: what it printed is lost\n",
		strcmp(cli_cmd, "bench") ? " " : "", strcmp(cli_cmd, "bench") ? cli_cmd : "",
		e ? ": " : "", e ? strerror(e) : "");
	_exit(EXIT_FAIL);
}

/* The length of the UTF-8 sequence at s (at most n bytes), 0 where it is not a valid one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t len = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (!len || len > n)
		return 0;
	for (size_t i = 1; i < len; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] >= 0x90))
		return 0;   /* overlong, a surrogate, beyond U+10FFFF */
	return len;
}

void cli_put_escaped(FILE *f, const char *text)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t n = strlen(text);

	for (size_t i = 0; i < n;) {
		size_t len = s[i] >= 0x80 ? utf8_len(s + i, n - i) : 1;
		if (s[i] >= 0x80 && len) {
			fwrite(s + i, 1, len, f);
			i += len;
			continue;
		}
		if ((s[i] >= 0x20 && s[i] < 0x7f) || s[i] == '\n' || s[i] == '\t')
			fputc(s[i], f);
		else
			fprintf(f, "\\x%02x", s[i]);
		i++;
	}
}

/* "bench CMD WHERE: " then the message, its bytes escaped where they are not text. */
static void message(const char *lead, const char *fmt, va_list ap)
{
	char *text = NULL;

	fprintf(stderr, "bench %s%s: %s", cli_cmd, cli_where, lead);
	if (vasprintf(&text, fmt, ap) < 0) {
		fputs(fmt, stderr);
		return;
	}
	cli_put_escaped(stderr, text);
	free(text);
}

noreturn void cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("usage: ", fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'bench %s --help')\n", cli_cmd);
	exit(EXIT_USAGE);
}

noreturn void cli_die(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message("", fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(code);
}

uint64_t cli_u64(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	char err[512];
	uint64_t v;

	if (!parse_u64(arg, min, max, &v, err, sizeof(err)))
		cli_usage_error("--%s %s", opt, err);
	return v;
}

uint64_t cli_size(const char *opt, const char *arg, uint64_t min, uint64_t max)
{
	char err[512];
	uint64_t v;

	if (!parse_size(arg, min, max, &v, err, sizeof(err)))
		cli_usage_error("--%s %s", opt, err);
	return v;
}

void cli_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r)
{
	char err[512];

	range_free(r);
	if (!range_parse(arg, min, max, r, err, sizeof(err)))
		cli_usage_error("--%s %s", opt, err);
}

void cli_size_range(const char *opt, const char *arg, uint64_t min, uint64_t max, struct range *r)
{
	char err[512];

	range_free(r);
	if (!range_parse_sizes(arg, min, max, r, err, sizeof(err)))
		cli_usage_error("--%s %s", opt, err);
}

static void names_list(const char *const *names, size_t n, char *list, size_t len)
{
	list[0] = '\0';
	for (size_t i = 0; i < n; i++)
		snprintf(list + strlen(list), len - strlen(list), "%s%s", i ? ", " : "", names[i]);
}

void cli_names(const char *opt, const char *arg, const char *const *names, size_t n, bool *flags)
{
	char *copy = strdup(arg), *save = NULL;
	char list[512];
	bool any = false;

	if (!copy)
		cli_die(EXIT_FAIL, "out of host memory");
	names_list(names, n, list, sizeof(list));
	memset(flags, 0, n * sizeof(*flags));
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		bool all = strcmp(t, "all") == 0, found = all;
		for (size_t i = 0; i < n; i++)
			if (all || strcmp(t, names[i]) == 0)
				flags[i] = found = true;
		if (!found)
			cli_usage_error("--%s '%s' is not one of: %s, all", opt, t, list);
		any = true;
	}
	free(copy);
	if (!any)
		cli_usage_error("--%s '%s' names nothing: allowed %s, all", opt, arg, list);
}

double cli_real(const char *opt, const char *arg, double min, double max)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || *end || errno || !isfinite(v) || v < min || v > max)
		cli_usage_error("--%s '%s' is not a number in %g..%g", opt, arg, min, max);
	return v;
}

unsigned cli_choice(const char *opt, const char *arg, const char *const *names, size_t n)
{
	char list[512];

	for (size_t i = 0; i < n; i++)
		if (strcmp(arg, names[i]) == 0)
			return (unsigned)i;
	names_list(names, n, list, sizeof(list));
	cli_usage_error("--%s '%s' is not one of: %s", opt, arg, list);
}

/* Stores one option's value at its offset. */
static void store(const struct cli_opt *o, void *base, const char *arg)
{
	char *at = (char *)base + o->off;

	switch (o->kind) {
	case CLI_FLAG: *(bool *)at = true; break;
	case CLI_STR: *(const char **)at = arg; break;
	case CLI_U64: *(uint64_t *)at = cli_u64(o->name, arg, o->min, o->max); break;
	case CLI_UINT: *(unsigned *)at = (unsigned)cli_u64(o->name, arg, o->min, o->max); break;
	case CLI_SIZE: *(uint64_t *)at = cli_size(o->name, arg, o->min, o->max); break;
	case CLI_RANGE: cli_range(o->name, arg, o->min, o->max, (struct range *)at); break;
	case CLI_SIZE_RANGE: cli_size_range(o->name, arg, o->min, o->max, (struct range *)at); break;
	case CLI_NAMES: cli_names(o->name, arg, o->names, o->n_names, (bool *)at); break;
	case CLI_CHOICE: *(unsigned *)at = cli_choice(o->name, arg, o->names, o->n_names); break;
	case CLI_SG:
		*(unsigned *)at = strcmp(arg, "auto") == 0 ? 0 : (unsigned)cli_u64(o->name, arg, 1, 1024);
		break;
	case CLI_FN: o->fn(base, arg); break;
	case CLI_END: break;
	}
}

void cli_set_defaults(const struct cli_opt *opts, void *base)
{
	for (size_t i = 0; opts[i].kind != CLI_END; i++)
		if (opts[i].def)
			store(&opts[i], base, opts[i].def);
}

/* Option ids: 0x1000 + set * 256 + index. */
static int opt_id(size_t s, size_t i)
{
	return (int)(0x1000 + s * 256 + i);
}

/* Builds getopt_long's table and short options ("+:h" and the one-letter aliases). */
static size_t long_options(const struct cli_set *sets, size_t n_sets, struct option *lo,
			   char *shorts, size_t len)
{
	size_t n = 0, ns = strlen(strcpy(shorts, "+:h"));

	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; sets[s].opts[i].kind != CLI_END; i++) {
			const struct cli_opt *o = &sets[s].opts[i];
			if (n + 2 >= CLI_MAX_OPTS || ns + 3 >= len)
				cli_die(EXIT_FAIL, "bench bug: more than %d options", CLI_MAX_OPTS);
			lo[n++] = (struct option){ o->name, o->kind == CLI_FLAG ? no_argument
									 : required_argument,
						   NULL, opt_id(s, i) };
			if (o->short_name) {
				shorts[ns++] = o->short_name;
				if (o->kind != CLI_FLAG)
					shorts[ns++] = ':';
				shorts[ns] = '\0';
			}
		}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n] = (struct option){ 0 };
	return n;
}

/* The option id of a one-letter alias (0: none). */
static int short_id(const struct cli_set *sets, size_t n_sets, int c)
{
	for (size_t s = 0; s < n_sets; s++)
		for (size_t i = 0; sets[s].opts[i].kind != CLI_END; i++)
			if (sets[s].opts[i].short_name == c)
				return opt_id(s, i);
	return 0;
}

/* Keeps an operand, or refuses it where the command takes none. */
static void operand(struct cli_operands *ops, const char *arg, int argc)
{
	if (!ops)
		cli_usage_error("unexpected argument '%s'", arg);
	if (!ops->v && !(ops->v = calloc((size_t)argc, sizeof(*ops->v))))
		cli_die(EXIT_FAIL, "out of host memory");
	ops->v[ops->n++] = arg;
}

/* What getopt refused in argument o: a value missing, a value given to a flag, an unknown name. */
noreturn static void bad_option(int c, const char *o, const struct option *lo)
{
	const char *eq = strchr(o, '=');

	if (c == ':')
		cli_usage_error("option '%s' needs a value", o);
	for (size_t i = 0; eq && strncmp(o, "--", 2) == 0 && lo[i].name; i++)
		if (lo[i].has_arg == no_argument && strlen(lo[i].name) == (size_t)(eq - o - 2) &&
		    strncmp(lo[i].name, o + 2, strlen(lo[i].name)) == 0)
			cli_usage_error("option '--%s' takes no value (got '%s')", lo[i].name, o);
	cli_usage_error("unknown option '%s'", o);
}

void cli_parse_operands(int argc, char **argv, const struct cli_set *sets, size_t n_sets,
			void (*usage)(FILE *f), struct cli_operands *ops)
{
	struct option lo[CLI_MAX_OPTS];
	char shorts[3 * CLI_MAX_OPTS + 4];
	int c;

	long_options(sets, n_sets, lo, shorts, sizeof(shorts));
	for (size_t k = 0; k < n_sets; k++)   /* the defaults first, parsed as if given */
		cli_set_defaults(sets[k].opts, sets[k].base);
	opterr = 0;
	optind = 0;   /* glibc: 0 re-initialises, so a process may parse several lists (a suite) */
	for (;;) {
		c = getopt_long(argc, argv, shorts, lo, NULL);
		if (c == -1) {
			/* an operand stops getopt ('+'); take it and go on, unless "--" came first */
			if (optind >= argc)
				break;
			if (strcmp(argv[optind - 1], "--") == 0) {
				while (optind < argc)
					operand(ops, argv[optind++], argc);
				break;
			}
			operand(ops, argv[optind++], argc);
			continue;
		}
		if (c == 'h') {
			usage(stdout);
			exit(EXIT_OK);
		}
		if (c == '?' || c == ':')
			bad_option(c, argv[optind - 1], lo);
		if (c < 0x1000)
			c = short_id(sets, n_sets, c);
		size_t s = (size_t)(c - 0x1000) / 256, i = (size_t)(c - 0x1000) % 256;
		store(&sets[s].opts[i], sets[s].base, optarg);
		if (sets[s].given)
			sets[s].given[i] = true;
	}
}

/*
 * n in the form the option takes: a size with its binary suffix where it has one, a large
 * power of two (or one less) as 2^k.
 */
static void number_str(const struct cli_opt *o, uint64_t n, char *buf, size_t len)
{
	static const char *const sfx[] = { "Ki", "Mi", "Gi", "Ti" };
	unsigned k = 0;

	if (o->kind == CLI_SIZE || o->kind == CLI_SIZE_RANGE)
		while (k < 4 && n >= 1024 && n % 1024 == 0) {
			n /= 1024;
			k++;
		}
	if (k) {
		snprintf(buf, len, "%llu%s", (unsigned long long)n, sfx[k - 1]);
		return;
	}
	for (unsigned e = 20; e < 64; e++)
		if (n == 1ull << e || n == (1ull << e) - 1) {
			snprintf(buf, len, "2^%u%s", e, n == 1ull << e ? "" : "-1");
			return;
		}
	snprintf(buf, len, n == UINT64_MAX ? "2^64-1" : "%llu", (unsigned long long)n);
}

void cli_opt_facts(const struct cli_opt *o, char *buf, size_t len)
{
	char lo[32], hi[32];
	size_t off = 0;
	bool ranged = o->kind == CLI_U64 || o->kind == CLI_UINT || o->kind == CLI_SIZE ||
		      o->kind == CLI_RANGE || o->kind == CLI_SIZE_RANGE;

	buf[0] = '\0';
	if (ranged && o->max) {
		number_str(o, o->min, lo, sizeof(lo));
		number_str(o, o->max, hi, sizeof(hi));
		off += (size_t)snprintf(buf, len, "%s..%s", lo, hi);
	}
	if ((o->def || o->def_note) && off < len)
		snprintf(buf + off, len - off, "%sdefault %s", off ? ", " : "", o->def ? o->def : o->def_note);
}

/* The help column: options' words start at column 18 and end by column 80. */
#define HELP_WIDTH 62

/* Prints text after `used` columns of the current help line, wrapped at spaces. */
static void print_wrapped(FILE *f, const char *text, size_t used)
{
	while (*text) {
		size_t room = used < HELP_WIDTH ? HELP_WIDTH - used : 0, n = strlen(text);
		if (n > room) {
			const char *cut = text + room;
			while (cut > text && *cut != ' ')
				cut--;
			if (cut == text && used) {   /* nothing fits: the next line */
				fprintf(f, "\n  %-15s ", "");
				used = 0;
				continue;
			}
			n = cut > text ? (size_t)(cut - text) : n;
		}
		fprintf(f, "%.*s", (int)n, text);
		text += n;
		while (*text == ' ')
			text++;
		if (*text)
			fprintf(f, "\n  %-15s ", "");
		used = 0;
	}
}

void cli_print_opts(FILE *f, const struct cli_opt *opts)
{
	for (size_t i = 0; opts[i].kind != CLI_END; i++) {
		char lead[64], facts[512], paren[520];
		const char *h = opts[i].help;
		char alias[8] = "";

		if (!h)
			continue;
		if (opts[i].short_name)
			snprintf(alias, sizeof(alias), "-%c, ", opts[i].short_name);
		snprintf(lead, sizeof(lead), "%s--%s%s%s", alias, opts[i].name, opts[i].metavar ? " " : "",
			 opts[i].metavar ? opts[i].metavar : "");
		if (strlen(lead) > 15)
			fprintf(f, "  %s\n  %-15s ", lead, "");
		else
			fprintf(f, "  %-15s ", lead);
		for (const char *nl; (nl = strchr(h, '\n')); h = nl + 1)
			fprintf(f, "%.*s\n  %-15s ", (int)(nl - h), h, "");
		fprintf(f, "%s", h);
		cli_opt_facts(&opts[i], facts, sizeof(facts));
		if (facts[0]) {
			snprintf(paren, sizeof(paren), "(%s)", facts);
			if (strlen(h) + 1 + strlen(paren) <= HELP_WIDTH) {
				fprintf(f, " %s", paren);
			} else {
				fprintf(f, "\n  %-15s ", "");
				print_wrapped(f, paren, 0);
			}
		}
		fputc('\n', f);
	}
}

bool cli_given(const struct cli_set *s, const char *name)
{
	for (size_t i = 0; s->opts[i].kind != CLI_END; i++)
		if (strcmp(s->opts[i].name, name) == 0)
			return s->given && s->given[i];
	return false;
}
