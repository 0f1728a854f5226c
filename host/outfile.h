/*
 * The one rule of every file bench writes (results documents, CSV, JUnit, Markdown, LNT
 * reports, bench report's page and PNGs, which its Python renderer hands back to be written
 * here), written once for every writer:
 *   - an output is never one of the run's inputs (the same device and inode, through any link),
 *     nor another output of the same run (a name given twice, two links to one file);
 *   - every output and every input is checked before any work: a refusal is an exit 2 naming
 *     the option, the path and why, and nothing is created;
 *   - a device node, a FIFO or a socket is written as a stream and kept; a symbolic link is
 *     kept and its target replaced; a folder, a dangling link, a name ending in '/' and ""
 *     are refused;
 *   - a file appears whole or not at all: its data goes to an unnamed file in the target's
 *     folder (Linux's O_TMPFILE), linked into place once complete, so that a process killed
 *     by any signal, SIGKILL and a crashing driver included, leaves nothing behind. Where the
 *     folder's filesystem has no O_TMPFILE (NFS, some FUSE), a named temporary
 *     NAME.tmp.HOST.PID.XXXXXX takes its place, removed on every exit and by every signal that
 *     can be caught; one that a process killed by SIGKILL left is removed by the next writer of
 *     NAME on that host, once no process PID runs there.
 */
#ifndef BENCH_OUTFILE_H
#define BENCH_OUTFILE_H

#include <stdbool.h>
#include <stddef.h>

/* The most named temporary files (filesystems without O_TMPFILE) one process holds at once;
 * the inputs and outputs a process registers are not limited. */
#define OUTF_MAX 64

/*
 * An output file reserved before any work runs. What its path names decides how it is written:
 *   - a regular file, or a path that does not exist yet: an unnamed file in the destination's
 *     folder (a named temporary where the filesystem has none), filled and synced at
 *     commit and linked (renamed) over the destination; through a symbolic link, the link's
 *     target is replaced and the link stays; an existing file's permissions are kept, a new
 *     one's follow the umask;
 *   - "-" and "/dev/stdout": standard output, written as a stream (nothing created); likewise
 *     /dev/stderr, and /dev/fd/N or /proc/self/fd/N: descriptor N as it is (not reopened);
 *   - a character device, FIFO or socket (/dev/null, a pipe): opened (a socket: connected) at
 *     open, written as a stream at commit, never replaced;
 *   - a directory, a block device, a dangling link, a folder name ("x/") or "": refused.
 */
struct outf {
	char *path;     /* as given, for messages */
	char *dest;     /* the file linked into place: the path with every link resolved; NULL: a stream */
	char *tmp;      /* a named temporary beside dest (no O_TMPFILE there); NULL: none */
	int fd;         /* -1 when closed */
	bool stream;    /* written in place: stdout, a device, a FIFO or a socket */
	bool own_fd;    /* fd was opened here (false for a descriptor named by the path) */
	bool unnamed;   /* fd is an O_TMPFILE file, linked into place at commit */
	unsigned mode;  /* permissions the committed file gets */
	int slot;       /* its entry among the reserved outputs (outfile.c), -1: none */
};

/* A struct outf that holds nothing (what outf_abort leaves): an initializer, and a value. */
#define OUTF_INIT { .fd = -1, .slot = -1 }
#define OUTF_NONE ((struct outf)OUTF_INIT)

/*
 * Registers an input of this run (what: its name in messages, "BASE", "--baseline", "the
 * suite"), checked before any work: false with "PATH: cannot read: why" in err where it
 * cannot be read (missing, a folder, a loop of links, no permission: the system's reason), or
 * is the file an output reserved already writes. Inputs stay registered for the process's life.
 */
bool outf_input(const char *what, const char *path, char *err, size_t errlen);
/*
 * Reserves path for the output opt names ("--json"); false with "cannot write 'PATH': why"
 * (see struct outf), which names the input or the other output it would replace where it is
 * one of them.
 */
bool outf_open(struct outf *o, const char *opt, const char *path, char *err, size_t errlen);
/*
 * Writes len bytes; a file is synced and linked (renamed) into place, a stream is written
 * whole (a full device or a closed pipe fails with the system's reason). Frees o either way.
 */
bool outf_commit(struct outf *o, const char *data, size_t len, char *err, size_t errlen);
/* Drops what was reserved (on failure paths). Safe on OUTF_NONE or a committed struct. */
void outf_abort(struct outf *o);
/*
 * Unlinks every named temporary file reserved now, with nothing but unlink() on paths stored
 * at open: async-signal-safe, for a signal handler or a watchdog ending the process. The
 * structs stay valid (a later outf_abort is harmless).
 */
void outf_abort_all_signal(void);
/*
 * A scratch folder TMPDIR/PREFIX-XXXXXX (/tmp without TMPDIR) for files handed to another
 * program, its path into dir; names (NULL-ended, at most 8) the files it may hold. It is
 * removed, those files first, by outf_scratch_remove, at exit, by outf_abort_all_signal and by
 * a signal that ends the process, so that no error or interrupt leaves it behind. One at a
 * time; false with err written where it cannot be made.
 */
bool outf_scratch_make(const char *prefix, const char *const *names, char *dir, size_t len,
		       char *err, size_t errlen);
/* Removes the scratch folder and its files, if one exists. */
void outf_scratch_remove(void);
/*
 * True when a and b name the same file: the same device and inode where both exist ("-" is
 * standard output, /dev/fd/N descriptor N), else the same path once the folder is resolved with
 * realpath. False when either is "" or NULL.
 */
bool outf_same_file(const char *a, const char *b);
/*
 * Makes the folder dir and every missing folder above it, as `mkdir -p` does (an existing
 * folder is fine); false with "cannot make the folder 'DIR': why" naming the part that failed.
 */
bool outf_mkdirs(const char *dir, char *err, size_t errlen);
/*
 * For tests: named temporaries instead of O_TMPFILE, as on a filesystem without it, so that
 * both ways of writing are tried on this machine. BENCH_OUTFILE_NAMED set in the environment
 * does the same for a whole command (tests/outputs/outputs_test.py, report-named).
 */
void outf_force_named(bool on);

/* Writes all len bytes to fd, again after EINTR; false with errno set (EIO for a 0 write). */
bool outfile_write_all(int fd, const void *buf, size_t len);

#endif
