/*
 * Reading a zebin (zebin.h). The ELF section table is walked by hand (readelf refuses
 * machine 0xcd); `.ze_info` is read as the block YAML compute-runtime writes and reads
 * (shared/source/device_binary_format/zebin: "kernels:", a list of "- name:" entries with
 * execution_env and per_thread_memory_buffers maps), line by line and by indentation.
 */
#include "zebin.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- ELF ---- */

static uint64_t rd(const uint8_t *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

struct elf_sec {
	const char *name;
	const uint8_t *data;
	size_t size;
};

/* The sections of a 64-bit little-endian ELF; false with a message. */
static bool elf_sections(const uint8_t *d, size_t size, struct elf_sec **out, size_t *n, char *err,
			 size_t len)
{
	uint64_t shoff;
	size_t shent, shnum, shstr;
	const uint8_t *strtab;
	size_t strsize;

	if (size < 64 || memcmp(d, "\x7f" "ELF", 4) != 0 || d[4] != 2 || d[5] != 1) {
		snprintf(err, len, "not a 64-bit little-endian ELF file");
		return false;
	}
	shoff = rd(d + 0x28, 8);
	shent = (size_t)rd(d + 0x3a, 2);
	shnum = (size_t)rd(d + 0x3c, 2);
	shstr = (size_t)rd(d + 0x3e, 2);
	if (shent < 64 || shnum == 0 || shstr >= shnum || shoff > size ||
	    (size - shoff) / shent < shnum) {
		snprintf(err, len, "a section table beyond the file (%zu sections at %llu)", shnum,
			 (unsigned long long)shoff);
		return false;
	}
	const uint8_t *sh = d + shoff + shstr * shent;
	uint64_t so = rd(sh + 0x18, 8), ss = rd(sh + 0x20, 8);
	if (so > size || ss > size - so) {
		snprintf(err, len, "the section names lie beyond the file");
		return false;
	}
	strtab = d + so;
	strsize = (size_t)ss;
	*out = calloc(shnum, sizeof(**out));
	if (!*out) {
		snprintf(err, len, "out of host memory");
		return false;
	}
	for (size_t i = 0; i < shnum; i++) {
		const uint8_t *h = d + shoff + i * shent;
		uint64_t nm = rd(h, 4), off = rd(h + 0x18, 8), sz = rd(h + 0x20, 8);
		uint32_t type = (uint32_t)rd(h + 4, 4);
		if (nm >= strsize || !memchr(strtab + nm, '\0', strsize - nm) ||
		    (type != 8 /* SHT_NOBITS */ && (off > size || sz > size - off))) {
			snprintf(err, len, "section %zu lies beyond the file", i);
			free(*out);
			return false;
		}
		(*out)[i] = (struct elf_sec){ (const char *)strtab + nm, type == 8 ? NULL : d + off,
					      type == 8 ? 0 : (size_t)sz };
	}
	*n = shnum;
	return true;
}

/* ---- .text: instructions ---- */

/*
 * Gen12+ instructions are 16 bytes, or 8 when compacted (bit 29 of the first dword, CmptCtrl).
 * The compiler pads a kernel after its end-of-thread send with zero words ("illegal" to
 * iga64). Counted: the instructions before that padding, the nop that ends the code among
 * them, as IGC counts them (//.instCount of its shader dumps, checked on the suite's kernels
 * for tgllp, acm-g10 and pvc: docs/compile.md).
 */
static unsigned count_instructions(const uint8_t *t, size_t n)
{
	static const uint8_t zero[16];
	unsigned count = 0;
	size_t i = 0;

	while (i + 8 <= n) {
		uint32_t w = (uint32_t)rd(t + i, 4);
		size_t step = (w >> 29 & 1u) ? 8 : 16;
		if (i + step > n || memcmp(t + i, zero, step) == 0)
			break;
		count++;
		i += step;
	}
	return count;
}

/* ---- .ze_info ---- */

/* One line of block YAML: its indent (a "- " counted as indent), key and value. */
struct yline {
	size_t indent;
	bool item;             /* began with "- " */
	char key[64];
	char value[128];
};

static bool yaml_line(const char *s, size_t n, struct yline *l)
{
	size_t i = 0, k;

	memset(l, 0, sizeof(*l));
	while (i < n && s[i] == ' ')
		i++;
	if (i + 1 < n && s[i] == '-' && s[i + 1] == ' ') {
		l->item = true;
		i += 2;
		while (i < n && s[i] == ' ')
			i++;
	}
	l->indent = i;
	for (k = i; k < n && s[k] != ':'; k++)
		;
	if (k == n || k == i || k - i >= sizeof(l->key))
		return false;
	memcpy(l->key, s + i, k - i);
	for (k++; k < n && s[k] == ' '; k++)
		;
	size_t vl = n - k;
	while (vl && (s[k + vl - 1] == ' ' || s[k + vl - 1] == '\r'))
		vl--;
	if (vl && s[k] == '\'' && s[k + vl - 1] == '\'' && vl >= 2) {
		k++;
		vl -= 2;
	}
	snprintf(l->value, sizeof(l->value), "%.*s", (int)vl, s + k);
	return true;
}

static uint64_t num(const char *v)
{
	return strtoull(v, NULL, 0);
}

/* The state of the walk through the kernels list. */
struct ywalk {
	struct zebin *z;
	struct zebin_kernel *k;      /* the kernel being read */
	char block[64];              /* its map being read: execution_env, per_thread_... */
	/* the per-thread memory buffer being read */
	char type[32], usage[32];
	uint64_t size, slot;
	bool simt, in_buf;
};

/* Ends a per_thread_memory_buffers entry: scratch slot 0, or private memory in global. */
static void end_buffer(struct ywalk *w)
{
	if (w->in_buf && w->k) {
		if (strcmp(w->type, "scratch") == 0 && w->slot == 0) {
			w->k->scratch = w->size;
			memcpy(w->k->scratch_usage, w->usage, sizeof(w->usage));
		} else if (strcmp(w->type, "global") == 0 && strcmp(w->usage, "private_space") == 0) {
			w->k->private_mem = w->simt ? w->size * w->k->simd : w->size;
		}
	}
	w->in_buf = false;
	w->type[0] = w->usage[0] = '\0';
	w->size = w->slot = 0;
	w->simt = false;
}

static bool new_kernel(struct ywalk *w, const char *name)
{
	struct zebin_kernel *v = realloc(w->z->k, (w->z->n + 1) * sizeof(*v));

	if (!v)
		return false;
	w->z->k = v;
	w->k = &v[w->z->n++];
	memset(w->k, 0, sizeof(*w->k));
	snprintf(w->k->name, sizeof(w->k->name), "%.127s", name);
	w->block[0] = '\0';
	return true;
}

/* One line inside "kernels:". */
static bool kernel_line(struct ywalk *w, const struct yline *l)
{
	if (l->item && l->indent == 4 && strcmp(l->key, "name") == 0) {
		end_buffer(w);
		return new_kernel(w, l->value);
	}
	if (!w->k)
		return true;
	if (l->indent == 4) {   /* a map of the kernel */
		end_buffer(w);
		snprintf(w->block, sizeof(w->block), "%s", l->key);
		return true;
	}
	if (strcmp(w->block, "execution_env") == 0) {
		if (strcmp(l->key, "simd_size") == 0)
			w->k->simd = (unsigned)num(l->value);
		else if (strcmp(l->key, "grf_count") == 0)
			w->k->grf = (unsigned)num(l->value);
		else if (strcmp(l->key, "barrier_count") == 0)
			w->k->barriers = (unsigned)num(l->value);
		else if (strcmp(l->key, "slm_size") == 0)
			w->k->slm = num(l->value);
	} else if (strcmp(w->block, "user_attributes") == 0) {
		if (strcmp(l->key, "intel_reqd_sub_group_size") == 0)
			w->k->required_sg = (unsigned)num(l->value);
	} else if (strcmp(w->block, "per_thread_memory_buffers") == 0) {
		if (l->item)
			end_buffer(w);
		w->in_buf = true;
		if (strcmp(l->key, "type") == 0)
			snprintf(w->type, sizeof(w->type), "%.31s", l->value);
		else if (strcmp(l->key, "usage") == 0)
			snprintf(w->usage, sizeof(w->usage), "%.31s", l->value);
		else if (strcmp(l->key, "size") == 0)
			w->size = num(l->value);
		else if (strcmp(l->key, "slot") == 0)
			w->slot = num(l->value);
		else if (strcmp(l->key, "is_simt_thread") == 0)
			w->simt = strcmp(l->value, "true") == 0;
	}
	return true;
}

static bool parse_ze_info(const char *t, size_t n, struct zebin *z, char *err, size_t len)
{
	struct ywalk w = { .z = z };
	bool in_kernels = false;

	for (size_t i = 0; i < n;) {
		const char *eol = memchr(t + i, '\n', n - i);
		size_t ln = eol ? (size_t)(eol - (t + i)) : n - i;
		struct yline l;
		if (yaml_line(t + i, ln, &l)) {
			if (l.indent == 0 && !l.item) {
				end_buffer(&w);
				in_kernels = strcmp(l.key, "kernels") == 0;
				w.k = NULL;
				if (strcmp(l.key, "version") == 0)
					snprintf(z->version, sizeof(z->version), "%.15s", l.value);
			} else if (in_kernels && !kernel_line(&w, &l)) {
				snprintf(err, len, "out of host memory");
				return false;
			}
		}
		i += ln + 1;
	}
	end_buffer(&w);
	if (!z->n) {
		snprintf(err, len, ".ze_info lists no kernel");
		return false;
	}
	return true;
}

/* ---- the file ---- */

bool zebin_parse(const uint8_t *data, size_t size, struct zebin *z, char *err, size_t len)
{
	struct elf_sec *s = NULL;
	size_t n = 0;
	const struct elf_sec *info = NULL;
	bool ok;

	memset(z, 0, sizeof(*z));
	if (!elf_sections(data, size, &s, &n, err, len))
		return false;
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].name, ".ze_info") == 0)
			info = &s[i];
	if (!info) {
		snprintf(err, len, "no .ze_info section (not a zebin: ocloc -format zebin makes one)");
		free(s);
		return false;
	}
	ok = parse_ze_info((const char *)info->data, info->size, z, err, len);
	for (size_t i = 0; ok && i < n; i++) {
		if (strncmp(s[i].name, ".text.", 6) != 0)
			continue;
		for (size_t k = 0; k < z->n; k++)
			if (strcmp(z->k[k].name, s[i].name + 6) == 0) {
				z->k[k].text_bytes = s[i].size;
				z->k[k].instructions = count_instructions(s[i].data, s[i].size);
			}
	}
	free(s);
	if (!ok)
		zebin_free(z);
	return ok;
}

bool zebin_read(const char *path, struct zebin *z, char *err, size_t len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;
	bool ok = false;
	char why[256];

	memset(z, 0, sizeof(*z));
	if (!f) {
		snprintf(err, len, "%s: %s", path, strerror(errno));
		return false;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)size)) && fread(buf, 1, (size_t)size, f) == (size_t)size)
		ok = zebin_parse(buf, (size_t)size, z, why, sizeof(why));
	else
		snprintf(why, sizeof(why), "cannot read it");
	if (!ok)
		snprintf(err, len, "%s: %s", path, why);
	free(buf);
	fclose(f);
	return ok;
}

void zebin_free(struct zebin *z)
{
	free(z->k);
	memset(z, 0, sizeof(*z));
}

const struct zebin_kernel *zebin_find(const struct zebin *z, const char *name)
{
	for (size_t i = 0; i < z->n; i++)
		if (strcmp(z->k[i].name, name) == 0)
			return &z->k[i];
	return NULL;
}
