/*
 * bench validate's expectations and verdicts. Two sources feed one table of expectations per
 * check: the known issues (a JSON file of entries with their reasons and links, globs over
 * checks and devices: results/known-issues/README.md), the project's one record of why a driver
 * fails a check; and Mesa's form of a board's state, as deqp-runner reads it: a baseline of
 * NAME,STATUS lines, and files of regular expressions for flaky checks and checks to skip.
 * Where both name a check, the baseline's status decides and the known issue gives the reason;
 * nothing is copied from one to the other.
 */
#include "validate.h"
#include "jsonfile.h"
#include "paths.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the verdicts ---- */

static const struct {
	const char *word;        /* the summary table's */
	const char *mesa;        /* deqp-runner's status */
	bool unexpected;         /* fails the run */
} verdicts[VAL_V_COUNT] = {
	[VAL_V_PASS] = { "pass", "Pass", false },
	[VAL_V_FAIL] = { "FAIL", "Fail", true },
	[VAL_V_CRASH] = { "CRASH", "Crash", true },
	[VAL_V_TIMEOUT] = { "TIMEOUT", "Timeout", true },
	[VAL_V_SKIP] = { "skip", "Skip", false },
	[VAL_V_KNOWN] = { "known", "ExpectedFail", false },
	[VAL_V_FIXED] = { "fixed", "Pass", false },
	[VAL_V_BEYOND_WORKS] = { "beyond: works", "Pass", false },
	[VAL_V_BEYOND_FAIL] = { "beyond: fails", "ExpectedFail", false },
	[VAL_V_UNEXPECTED_PASS] = { "UNEXPECTED PASS", "UnexpectedImprovement(Pass)", true },
	[VAL_V_IMPROVED_FAIL] = { "IMPROVED: FAIL", "UnexpectedImprovement(Fail)", true },
	[VAL_V_IMPROVED_SKIP] = { "IMPROVED: SKIP", "UnexpectedImprovement(Skip)", true },
	[VAL_V_FLAKE] = { "flake", "Flake", false },
	[VAL_V_KNOWN_FLAKE] = { "known flake", "KnownFlake", false },
	[VAL_V_MISSING] = { "MISSING", "Missing", true },
};

/* every status a verdict writes (Mesa's deqp-runner, src/runner_results.rs, RunnerStatus) */
const char *const val_statuses[VAL_N_STATUSES] = {
	"Pass", "Fail", "Crash", "Timeout", "Skip", "ExpectedFail", "UnexpectedImprovement(Pass)",
	"UnexpectedImprovement(Fail)", "UnexpectedImprovement(Skip)", "Flake", "KnownFlake", "Missing",
};

static const char *const res_names[] = { "Pass", "Fail", "Skip", "Crash", "Timeout", "Missing" };

bool val_unexpected(enum val_verdict v)
{
	return verdicts[v].unexpected;
}

const char *val_verdict_word(enum val_verdict v)
{
	return verdicts[v].word;
}

const char *val_res_name(enum val_res r)
{
	return res_names[r];
}

const char *val_mesa_status(const struct val_check *c)
{
	/* a known issue of an under-declared capability that works: it passed */
	if (c->verdict == VAL_V_KNOWN && c->res == VAL_PASS)
		return "Pass";
	return verdicts[c->verdict].mesa;
}

static bool failed(enum val_res r)
{
	return r == VAL_FAIL || r == VAL_CRASH || r == VAL_TIMEOUT;
}

/* A run's status as a verdict where nothing is expected of it. */
static const enum val_verdict plain[] = { VAL_V_PASS, VAL_V_FAIL, VAL_V_SKIP, VAL_V_CRASH,
					  VAL_V_TIMEOUT, VAL_V_MISSING };

/* The verdict a known-issues entry gives (the rules of results/known-issues/README.md). */
static enum val_verdict judge_known(const struct val_check *c)
{
	const struct val_known *k = c->known;

	if (!k->beyond_works)
		return c->res == VAL_PASS ? VAL_V_FIXED : VAL_V_KNOWN;
	/* the driver declares less than works: known while it works beyond, fixed once declared */
	if (c->res == VAL_PASS)
		return c->beyond ? VAL_V_KNOWN : VAL_V_FIXED;
	return c->beyond ? VAL_V_BEYOND_FAIL : plain[c->res];
}

/*
 * A result against the baseline's line, as deqp-runner judges it (RunnerStatus::with_baseline in
 * Mesa's deqp-runner, src/runner_results.rs): the failure expected is ExpectedFail; a Fail where a
 * Crash or Timeout was expected, and a pass or a skip where any failure or Missing was, are
 * improvements that fail the run until the baseline is updated; ExpectedFail (a results.csv fed
 * back) expects a Fail or a Crash, and its pass is a plain Pass.
 */
static enum val_verdict judge_base(const struct val_check *c)
{
	enum val_base_exp b = c->base->exp;
	bool failure = b != VAL_BASE_XFAIL;   /* Fail, Crash, Timeout or Missing */

	switch (c->res) {
	case VAL_PASS:
		return failure ? VAL_V_UNEXPECTED_PASS : VAL_V_PASS;
	case VAL_SKIP:
		return failure ? VAL_V_IMPROVED_SKIP : VAL_V_SKIP;
	case VAL_FAIL:
		return b == VAL_BASE_FAIL || b == VAL_BASE_XFAIL ? VAL_V_KNOWN
		       : b == VAL_BASE_CRASH || b == VAL_BASE_TIMEOUT ? VAL_V_IMPROVED_FAIL : VAL_V_FAIL;
	case VAL_CRASH:
		return b == VAL_BASE_CRASH || b == VAL_BASE_XFAIL ? VAL_V_KNOWN : VAL_V_CRASH;
	case VAL_TIMEOUT:
		return b == VAL_BASE_TIMEOUT ? VAL_V_KNOWN : VAL_V_TIMEOUT;
	case VAL_MISSING:
		return VAL_V_MISSING;   /* val_judge says so before any expectation */
	}
	return VAL_V_FAIL;   /* not reached: every result is a case above */
}

/*
 * Missing is deqp-runner's word for a test that got no result: TestCommand::process_caselist
 * (src/lib.rs) gives it to the tests left of a caselist whose run yielded no result at all, and
 * never judges it against the baseline (src/runner_results.rs: with_baseline cannot see it), so
 * a Missing fails the run whatever the baseline, the known issues or --flakes say.
 */
enum val_verdict val_judge(const struct val_check *c)
{
	if (c->res == VAL_MISSING)
		return VAL_V_MISSING;
	if (c->base && !c->skip_re)
		return judge_base(c);
	if (c->res == VAL_SKIP)
		return VAL_V_SKIP;
	if (c->known)
		return judge_known(c);
	if (c->beyond)   /* not declared: never a failure of the specification */
		return failed(c->res) ? VAL_V_BEYOND_FAIL : VAL_V_BEYOND_WORKS;
	return plain[c->res];
}

/* ---- known issues ---- */

/* The members of a known-issues file (results/schema/known-issues.schema.json). */
static const char *const known_top[] = { "kind", "schema_version", "issues", NULL };
static const char *const known_entry[] = { "check", "reason", "driver", "device", "platform", "link",
					   "expect", NULL };

noreturn static void known_bad(const char *path, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void known_bad(const char *path, const char *at, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cli_usage_error("--known-issues %s: %s%s%s", path, at ? at : "", at ? ": " : "", msg);
}

/* A string member of entry i: a non-empty one where present (required: it must be). */
static const char *member(json_t *e, const char *path, size_t i, const char *key, bool required)
{
	json_t *m = json_object_get(e, key);
	char at[64];

	snprintf(at, sizeof(at), "issues[%zu].%s", i, key);
	if (!m && !required)
		return NULL;
	if (!m)
		known_bad(path, at, "missing");
	if (!json_is_string(m) || !json_string_length(m))
		known_bad(path, at, "%s", json_is_string(m) ? "empty: say what it is" : "is not a string");
	return json_string_value(m);
}

/* kind, schema_version and issues: the file's head, strictly. */
static json_t *known_head(const char *path, json_t *doc)
{
	char err[1024];
	json_t *kind = json_object_get(doc, "kind"), *ver = json_object_get(doc, "schema_version");
	json_t *issues = json_object_get(doc, "issues");

	if (!json_is_object(doc))
		known_bad(path, NULL, "not an object with an \"issues\" array");
	if (!jf_members(doc, known_top, err, sizeof(err)))
		known_bad(path, "(top level)", "%s", err);
	if (!json_is_string(kind) || strcmp(json_string_value(kind), "known-issues") != 0)
		known_bad(path, "kind", "%s: a known-issues file says \"kind\": \"known-issues\"",
			  kind ? "not \"known-issues\"" : "missing");
	if (!json_is_integer(ver) || json_integer_value(ver) != 1)
		known_bad(path, "schema_version", "%s: this bench reads known-issues files of version 1",
			  ver ? "not 1" : "missing");
	if (!json_is_array(issues))
		known_bad(path, "issues", "%s", issues ? "is not an array" : "missing");
	return issues;
}

/* The known-issues files of folder dir, as names ("nvidia, oclgrind"). */
static void known_names(const char *dir, char *out, size_t len)
{
	struct dirent **e = NULL;
	int n = scandir(dir, &e, NULL, alphasort);
	size_t used = 0;

	snprintf(out, len, "none");
	for (int i = 0; i < n; i++) {
		size_t l = strlen(e[i]->d_name);
		if (l > 5 && strcmp(e[i]->d_name + l - 5, ".json") == 0 && used < len)
			used += (size_t)snprintf(out + used, len - used, "%s%.*s", used ? ", " : "",
						 (int)(l - 5), e[i]->d_name);
		free(e[i]);
	}
	free(e);
}

const char *val_known_path(const char *spec, char *buf, size_t len)
{
	char dir[4096], names[1024];
	size_t l = strlen(spec);

	if (access(spec, F_OK) == 0 || strchr(spec, '/') || !paths_dir(PATHS_KNOWN_ISSUES, dir, sizeof(dir)))
		return spec;
	snprintf(buf, len, "%s/%s%s", dir, spec, l > 5 && strcmp(spec + l - 5, ".json") == 0 ? "" : ".json");
	if (access(buf, F_OK) == 0)
		return buf;
	known_names(dir, names, sizeof(names));
	cli_usage_error("--known-issues '%s': no such file, nor a known-issues file of that name in %s "
			"(there: %s)", spec, dir, names);
}

/* Entry i of the issues: its members, strictly. */
static void known_entry_load(struct val_known *k, json_t *e, const char *path, size_t i)
{
	char err[1024], at[64];

	snprintf(at, sizeof(at), "issues[%zu]", i);
	if (!json_is_object(e))
		known_bad(path, at, "not an object");
	if (!jf_members(e, known_entry, err, sizeof(err)))
		known_bad(path, at, "%s", err);
	memset(k, 0, sizeof(*k));
	k->check = member(e, path, i, "check", true);
	k->reason = member(e, path, i, "reason", true);
	k->driver = member(e, path, i, "driver", false);
	k->device = member(e, path, i, "device", false);
	k->platform = member(e, path, i, "platform", false);
	k->link = member(e, path, i, "link", false);
	const char *expect = member(e, path, i, "expect", false);
	if (expect && strcmp(expect, "fail") != 0 && strcmp(expect, "beyond-works") != 0)
		known_bad(path, at, "expect: '%s' is not fail or beyond-works", expect);
	k->beyond_works = expect && strcmp(expect, "beyond-works") == 0;
}

void val_known_load(struct val_ctx *v, const char *spec)
{
	char buf[4200], err[1024];
	const char *path = val_known_path(spec, buf, sizeof(buf));
	json_t *doc, *issues;

	if (!(doc = jf_load(path, err, sizeof(err))))
		known_bad(path, NULL, "%s", err);
	issues = known_head(path, doc);
	v->known_doc = doc;
	v->n_known = json_array_size(issues);
	v->known = bench_alloc((v->n_known ? v->n_known : 1) * sizeof(*v->known));
	for (size_t i = 0; i < v->n_known; i++)
		known_entry_load(&v->known[i], json_array_get(issues, i), path, i);
}

static bool matches(const char *pattern, const char *s, int flags)
{
	return !pattern || fnmatch(pattern, s, flags) == 0;
}

bool val_known_for_device(const struct val_known *k, const struct dev_info *d)
{
	return matches(k->driver, d->driver, 0) && matches(k->device, d->name, FNM_CASEFOLD) &&
	       matches(k->platform, d->platform_name, FNM_CASEFOLD);
}

/* ---- files of lines ---- */

char *val_line_next(FILE *f, const char *opt, const char *path, char **buf, size_t *cap,
		    unsigned *line)
{
	ssize_t n;
	char *s;

	errno = 0;
	n = getline(buf, cap, f);
	if (n < 0 && ferror(f))
		cli_usage_error("--%s %s: cannot read after line %u: %s", opt, path, *line,
				strerror(errno ? errno : EIO));
	if (n < 0)
		return NULL;
	(*line)++;
	if (memchr(*buf, '\0', (size_t)n))
		cli_usage_error("--%s %s: line %u: a NUL byte: not a text file of lines", opt, path,
				*line);
	s = *buf;
	while (n && ((*buf)[n - 1] == '\n' || (*buf)[n - 1] == '\r' || (*buf)[n - 1] == ' ' ||
		     (*buf)[n - 1] == '\t'))
		(*buf)[--n] = '\0';
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

FILE *val_lines_open(const char *opt, const char *path)
{
	FILE *f = fopen(path, "r");

	if (!f)
		cli_usage_error("--%s %s: cannot read: %s", opt, path, strerror(errno));
	return f;
}

/* ---- the baseline ---- */

/*
 * deqp-runner's status names (RunnerStatus in Mesa's deqp-runner, src/runner_results.rs: what its
 * results.csv and failures.csv hold, and what it reads as a baseline), and what each expects of a
 * check here; -1: nothing (a pass, a skip, a flake, an improvement already reported). bench's
 * own older name UnexpectedPass reads as the improvement it was.
 */
static const struct {
	const char *name;
	int exp;
} base_names[] = {
	{ "Fail", VAL_BASE_FAIL }, { "Crash", VAL_BASE_CRASH }, { "Timeout", VAL_BASE_TIMEOUT },
	{ "Missing", VAL_BASE_MISSING }, { "ExpectedFail", VAL_BASE_XFAIL },
	{ "Pass", -1 }, { "Skip", -1 }, { "Warn", -1 }, { "Flake", -1 }, { "KnownFlake", -1 },
	{ "UnexpectedImprovement(Pass)", -1 }, { "UnexpectedImprovement(Fail)", -1 },
	{ "UnexpectedImprovement(Skip)", -1 }, { "UnexpectedImprovement(Warn)", -1 },
	{ "UnexpectedImprovement(Crash)", -1 }, { "UnexpectedImprovement(Timeout)", -1 },
	{ "UnexpectedPass", -1 },
};

/* A baseline line's status: its index in base_names, or exit 2 naming the value and the allowed. */
static size_t base_status(const char *path, unsigned line, const char *s)
{
	for (size_t i = 0; i < sizeof(base_names) / sizeof(base_names[0]); i++)
		if (strcmp(s, base_names[i].name) == 0)
			return i;
	cli_usage_error("--baseline %s: line %u: status '%s' is not one of deqp-runner's: Fail, Crash, "
			"Timeout, Missing, ExpectedFail (a failure expected), Pass, Skip, Warn, Flake, "
			"KnownFlake, UnexpectedImprovement(Pass|Fail|Skip|Warn|Crash|Timeout) (nothing "
			"expected)", path, line, s);
}

static void base_add(struct val_ctx *v, const char *path, unsigned line, char *name, size_t st)
{
	for (size_t i = 0; i < v->n_base; i++)
		if (strcmp(v->base[i].name, name) == 0)
			cli_usage_error("--baseline %s: line %u: '%s' again (first on line %u)", path, line,
					name, v->base[i].line);
	struct val_base *b = bench_push(&v->base, &v->n_base, &v->cap_base, sizeof(*b), 64);
	b->name = strdup(name);
	b->exp = (enum val_base_exp)base_names[st].exp;
	b->status = base_names[st].name;
	b->line = line;
	if (!b->name)
		cli_die(EXIT_FAIL, "out of memory");
}

void val_base_load(struct val_ctx *v, const char *path)
{
	FILE *f = val_lines_open("baseline", path);
	char *buf = NULL, *s;
	size_t cap = 0;
	unsigned line = 0;

	while ((s = val_line_next(f, "baseline", path, &buf, &cap, &line))) {
		if (!*s || *s == '#')
			continue;
		char *name = strtok(s, ","), *status = strtok(NULL, ","), *secs = strtok(NULL, ",");
		if (!status || strtok(NULL, ",") || (secs && !*secs))
			cli_usage_error("--baseline %s: line %u: '%s' is not NAME,STATUS (or deqp-runner's "
					"NAME,STATUS,SECONDS)", path, line, s);
		size_t st = base_status(path, line, status);
		if (base_names[st].exp >= 0)
			base_add(v, path, line, name, st);
	}
	free(buf);
	fclose(f);
}

/* ---- regular expressions ---- */

void val_regexes_load(struct val_regexes *r, const char *opt, const char *path)
{
	FILE *f = val_lines_open(opt, path);
	char *buf = NULL, *s, msg[256];
	size_t cap = 0, rcap = 0, scap = 0, n_src = 0;
	unsigned line = 0;

	r->path = path;
	while ((s = val_line_next(f, opt, path, &buf, &cap, &line))) {
		if (!*s || *s == '#')
			continue;
		regex_t *re = bench_push(&r->re, &r->n, &rcap, sizeof(*re), 16);
		int err = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
		if (err) {
			regerror(err, re, msg, sizeof(msg));
			cli_usage_error("--%s %s: line %u: '%s' is not a POSIX extended regular expression: %s",
					opt, path, line, s, msg);
		}
		char **src = bench_push(&r->src, &n_src, &scap, sizeof(*src), 16);
		*src = strdup(s);
	}
	free(buf);
	fclose(f);
}

const char *val_regexes_match(const struct val_regexes *r, const char *s)
{
	for (size_t i = 0; i < r->n; i++)
		if (regexec(&r->re[i], s, 0, NULL, 0) == 0)
			return r->src[i];
	return NULL;
}

static void regexes_free(struct val_regexes *r)
{
	for (size_t i = 0; i < r->n; i++) {
		regfree(&r->re[i]);
		free(r->src[i]);
	}
	free(r->re);
	free(r->src);
	memset(r, 0, sizeof(*r));
}

void val_expect_free(struct val_ctx *v)
{
	for (size_t i = 0; i < v->n_base; i++)
		free(v->base[i].name);
	free(v->base);
	free(v->known);
	json_decref(v->known_doc);
	regexes_free(&v->flakes);
	regexes_free(&v->skips);
}

void val_expect_find(struct val_ctx *v, struct val_check *c)
{
	c->known = NULL;
	for (size_t i = 0; i < v->n_known && !c->known; i++)
		if (val_known_for_device(&v->known[i], v->dev) && matches(v->known[i].check, c->id, 0))
			c->known = &v->known[i];
	c->base = NULL;
	for (size_t i = 0; i < v->n_base && !c->base; i++)
		if (strcmp(v->base[i].name, c->id) == 0)
			c->base = &v->base[i];
	c->flake_re = val_regexes_match(&v->flakes, c->id);
	c->skip_re = val_regexes_match(&v->skips, c->id);
}
