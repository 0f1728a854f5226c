/*
 * A driver that is registered yet gave no platform: the hint a message adds where the reason is
 * known. PoCL (3.x) drops its platform when it cannot make its kernel cache folder
 * (POCL_CACHE_DIR, else $XDG_CACHE_HOME/pocl, else $HOME/.cache/pocl): a read-only or missing
 * HOME, seen with HOME=/proc, where `bench info` lists Intel's CPU runtime alone.
 */
#include "dev.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The library a driver file names (its first line) where it names PoCL's, into lib. */
static bool names_pocl(const char *icd, char *lib, size_t len)
{
	FILE *f = fopen(icd, "r");
	bool pocl = false;

	if (f && fgets(lib, (int)len, f)) {
		lib[strcspn(lib, "\r\n")] = '\0';
		pocl = strstr(lib, "pocl") != NULL;
	}
	if (f)
		fclose(f);
	return pocl;
}

/* Whether the ICD loader's registry (OCL_ICD_VENDORS: a folder or one file) names PoCL. */
static bool pocl_registered(char *lib, size_t len)
{
	const char *reg = getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "/etc/OpenCL/vendors";
	struct stat st;
	struct dirent *e;
	bool found = false;
	DIR *d;

	if (stat(reg, &st) != 0)
		return false;
	if (!S_ISDIR(st.st_mode))
		return names_pocl(reg, lib, len);
	if (!(d = opendir(reg)))
		return false;
	while (!found && (e = readdir(d))) {
		char path[4096];
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".icd") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", reg, e->d_name);
		found = names_pocl(path, lib, len);
	}
	closedir(d);
	return found;
}

void dev_lost_hint(const struct dev_list *l, char *buf, size_t len)
{
	char lib[1024];
	const char *home = getenv("HOME"), *xdg = getenv("XDG_CACHE_HOME");

	buf[0] = '\0';
	for (unsigned i = 0; i < l->n; i++)
		if (strstr(l->d[i].platform_name, "Portable Computing Language"))
			return;
	if (getenv("POCL_CACHE_DIR") || !pocl_registered(lib, sizeof(lib)))
		return;
	snprintf(buf, len, "\nPoCL is registered (%s) yet gave no device: it needs a kernel cache "
		 "folder it can make, $XDG_CACHE_HOME/pocl or $HOME/.cache/pocl (XDG_CACHE_HOME %s%s%s, "
		 "HOME %s%s%s): where HOME is read-only, set POCL_CACHE_DIR to a writable folder",
		 lib, xdg ? "'" : "", xdg ? xdg : "unset", xdg ? "'" : "", home ? "'" : "",
		 home ? home : "unset", home ? "'" : "");
}
