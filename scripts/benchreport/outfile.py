"""The one rule of every file bench writes, for bench report (host/outfile.h is the same rule
for bench's C writers, and tests/outputs/outputs_test.py holds both to the same cases):

- an output is never one of the run's inputs (the same device and inode, through any link), nor
  another output of the same run;
- every output and every input is checked before any work: a refusal names the option, the path
  and why, and nothing is created;
- a device node, a FIFO or a socket is written as a stream and kept; a symbolic link is kept and
  its target replaced; a folder, a dangling link, a name ending in '/' and '' are refused;
- a file appears whole or not at all: its data goes to an unnamed file in the target's folder
  (Linux's O_TMPFILE), linked into place once complete, so that a killed process leaves nothing
  behind; where the filesystem has no O_TMPFILE, a named temporary NAME.tmp.HOST.PID.XXXXXXXX
  takes its place, removed on every exit and by every signal the report catches (report.py); one
  a process killed by SIGKILL left is removed by the next writer of NAME on that host.
"""
import errno
import os
import socket
import stat
import tempfile

HOST = (os.uname().nodename or "host").replace("/", "-").replace(".", "-")

FORCE_NAMED = False   # tests: named temporaries, as on a filesystem without O_TMPFILE
_named = set()        # the named temporaries that exist now


class Refused(Exception):
    """An output or input refused before any work: the message names the path and why."""


def remove_named():
    """Unlinks every named temporary file that exists now (on a signal, or any early exit)."""
    for path in list(_named):
        try:
            os.unlink(path)
        except OSError:
            pass
        _named.discard(path)


def _named_fd(path):
    """The descriptor a path names as such ('-', /dev/stdout, /dev/fd/N), or None."""
    if path in ("-", "/dev/stdout"):
        return 1
    if path == "/dev/stderr":
        return 2
    for d in ("/dev/fd/", "/proc/self/fd/"):
        if path.startswith(d) and path[len(d):].isdigit():
            return int(path[len(d):])
    return None


def _resolve_new(path):
    folder, base = os.path.split(path)
    return os.path.join(os.path.realpath(folder or "."), base)


class _Ident:
    """Where a path leads: (device, inode) where it exists, else its resolved name."""

    def __init__(self, path):
        fd = _named_fd(path)
        self.named_fd = fd is not None
        try:
            st = os.fstat(fd) if fd is not None else os.stat(path)
            self.key, self.kind = (st.st_dev, st.st_ino), stat.S_IFMT(st.st_mode)
        except OSError:
            self.key, self.kind = _resolve_new(path), None


def same_file(a, b):
    """True when a and b name the same file (the rule of host/outfile.c, outf_same_file)."""
    return bool(a) and bool(b) and _Ident(a).key == _Ident(b).key


class Files:
    """The inputs and outputs of one run, each checked against the others."""

    def __init__(self):
        self.files = []   # (ident, is_output, label, path)

    def _clash(self, ident, output):
        for other, other_out, label, path in self.files:
            if (not output and not other_out) or other.key != ident.key:
                continue
            if ident.kind == stat.S_IFCHR and not (ident.named_fd and other.named_fd):
                continue
            return other_out, label, path
        return None

    def input(self, what, path):
        """Registers an input (what: its name in messages); Refused where it cannot be read or
        is the file an output writes."""
        if not path:
            raise Refused("'' (an empty file name): cannot read: an empty name names no file")
        try:
            st = os.stat(path)
            os.close(os.open(path, os.O_RDONLY | os.O_NONBLOCK))
        except OSError as e:
            raise Refused(f"{path}: cannot read: {e.strerror}") from None
        if stat.S_ISDIR(st.st_mode):
            raise Refused(f"{path}: cannot read: it is a directory, not a file")
        ident = _Ident(path)
        c = self._clash(ident, False)
        if c:
            raise Refused(f"{path} ({what}): cannot read: it is the file {c[1]} '{c[2]}' writes "
                          "(an output never replaces an input): give the output another name")
        self.files.append((ident, False, what, path))

    def output(self, opt, path):
        """Reserves the output opt names ('-o'): an Output, or Refused naming why."""
        if not path:
            raise Refused(f"{opt} cannot write '': an empty name names no file")
        ident = _Ident(path)
        c = self._clash(ident, True)
        if c:
            why = (f"it is the same file as {c[1]} '{c[2]}' (two outputs of one run would write "
                   "one file): give each its own" if c[0] else
                   f"it is {c[1]} '{c[2]}', an input of this command (an output never replaces "
                   "an input): give another file")
            raise Refused(f"{opt} cannot write '{path}': {why}")
        out = Output(opt, path)
        self.files.append((ident, True, opt, path))
        out.forget = lambda: self.files.remove((ident, True, opt, path))
        return out


class Output:
    """An output file reserved before any work (see the module's rule)."""

    def __init__(self, opt, path):
        self.opt, self.path = opt, path
        self.fd, self.dest, self.tmp, self.stream, self.own_fd = None, None, None, False, True
        self.unnamed, self.mode = False, 0o666 & ~_umask()
        self.forget = lambda: None
        try:
            self._open()
        except OSError as e:
            missing = e.errno in (errno.ENOENT, errno.ENOTDIR) and self.dest
            self.abort()
            where = f" (the folder '{os.path.dirname(path) or '.'}')" if missing else ""
            raise Refused(f"{opt} cannot write '{path}': {e.strerror}{where}") from None

    def _refuse(self, why):
        self.abort()
        raise Refused(f"{self.opt} cannot write '{self.path}': {why}")

    def _open(self):
        fd = _named_fd(self.path)
        if fd is not None:
            os.fstat(fd)
            self.fd, self.stream, self.own_fd = fd, True, False
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            if os.path.islink(self.path):
                self._refuse("it is a symbolic link to a missing file")
            if self.path.endswith("/"):
                self._refuse("a name ending in '/' names a folder; give a file name")
            return self._open_file(_resolve_new(self.path))
        if stat.S_ISREG(st.st_mode):
            self.mode = stat.S_IMODE(st.st_mode)   # the replacement keeps its permissions
            return self._open_file(os.path.realpath(self.path))
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            self.fd, self.stream = os.open(self.path, os.O_WRONLY | os.O_NOCTTY | os.O_CLOEXEC), True
            return
        if stat.S_ISSOCK(st.st_mode):
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(self.path)
            self.fd, self.stream = s.detach(), True
            return
        self._refuse("it is a directory; give a file name" if stat.S_ISDIR(st.st_mode) else
                     "it is a block device, which a report would overwrite; give a file name"
                     if stat.S_ISBLK(st.st_mode) else "it is not a file, device, FIFO or socket")

    def _open_file(self, dest):
        self.dest = dest
        folder = os.path.dirname(dest)
        _sweep_stale(dest)
        if not FORCE_NAMED:
            try:
                self.fd, self.unnamed = os.open(folder, os.O_TMPFILE | os.O_WRONLY | os.O_CLOEXEC,
                                                0o600), True
                return
            except OSError as e:
                if e.errno not in (errno.EOPNOTSUPP, errno.EISDIR, errno.EINVAL):
                    raise
        self.fd, self.tmp = tempfile.mkstemp(
            prefix=f"{os.path.basename(dest)}.tmp.{HOST}.{os.getpid()}.", dir=folder)
        _named.add(self.tmp)

    def _link(self):
        """The unnamed file as dest: linkat(AT_SYMLINK_FOLLOW) of /proc/self/fd/N, which
        os.link does only when given a folder descriptor; where dest exists, under a free name
        beside it (a signal in between removes it), then renamed over it."""
        procfd = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        try:
            def link(to):
                os.link(str(self.fd), to, src_dir_fd=procfd, follow_symlinks=True)
            try:
                return link(self.dest)
            except FileExistsError:
                pass
            for k in range(100):
                self.tmp = f"{self.dest}.tmp.{HOST}.{os.getpid()}.{k}"
                _named.add(self.tmp)
                try:
                    link(self.tmp)
                except FileExistsError:
                    _named.discard(self.tmp)
                    self.tmp = None
                    continue
                os.replace(self.tmp, self.dest)
                _named.discard(self.tmp)
                self.tmp = None
                return None
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST))
        finally:
            os.close(procfd)

    def commit(self, data):
        """Writes data (bytes) whole: a file synced and linked into place, a stream written."""
        try:
            if not self.own_fd:
                import sys
                sys.stdout.flush()   # what was printed comes first
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
            if not self.stream:
                os.fchmod(self.fd, self.mode)
                os.fsync(self.fd)
            if self.unnamed:
                self._link()
            elif self.tmp:
                os.replace(self.tmp, self.dest)
                _named.discard(self.tmp)
                self.tmp = None
        except OSError as e:
            self.abort()
            raise OSError(e.errno, f"cannot write '{self.path}': {e.strerror}") from None
        self.abort()

    def abort(self):
        """Drops what was reserved; harmless after commit or a refusal."""
        if self.fd is not None and self.own_fd:
            os.close(self.fd)
        self.fd = None
        if self.tmp:
            try:
                os.unlink(self.tmp)
            except OSError:
                pass
            _named.discard(self.tmp)
            self.tmp = None
        self.forget()
        self.forget = lambda: None


def _sweep_stale(dest):
    """Removes dest.tmp.HOST.PID.* left by a process of this host that no longer runs (killed
    where nothing could be caught); another host's, a running process's and other names stay."""
    folder, base = os.path.split(dest)
    prefix = f"{base}.tmp.{HOST}."
    try:
        names = os.listdir(folder or ".")
    except OSError:
        return
    for name in names:
        pid, dot, _ = name[len(prefix):].partition(".")
        if not name.startswith(prefix) or not pid.isdigit() or not dot or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            continue
        except ProcessLookupError:
            pass
        except OSError:
            continue
        try:
            os.unlink(os.path.join(folder, name))
        except OSError:
            pass


def _umask():
    """The process's umask, read without changing it."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except OSError:
        pass
    return 0o022
