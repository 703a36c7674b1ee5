/*
 * cpbot sandbox launcher: a small fork server that runs untrusted programs for the judge.
 *
 * Started once per judge slot with a SOCK_SEQPACKET socket (fd given by --sock). At start it enters new
 * user (as a normal user), mount, network, IPC, UTS and PID namespaces, becomes pid 1 of that PID
 * namespace, and builds a minimal root from an allowlist on a tmpfs (the mount point given by --root):
 * /usr and the /bin, /lib... links or dirs, a trimmed /etc, /dev with null, zero, random and urandom,
 * the --ro paths (the judge's staged programs, an interpreter's prefix, a user's include dir), an empty
 * /proc, /box and /dev/shm. It then pivots into that root and says what it achieved in a "ready" message.
 *
 * Every run has an init in fresh PID, mount and IPC namespaces, made before its request arrives (and a
 * network namespace of its own, made at its first socket: see "Network"): it mounts a private /proc, a
 * size-capped tmpfs at /box (the run's work dir, new for every run) and a small one at /dev/shm (the
 * only other writable place), joins the run's cgroups (as root; see "Accounting"), installs the seccomp
 * filters (no new namespaces, no mounts, no file locks; sockets through the net helper) and waits.
 * Given a request it copies the requested files in, forks the program (a session of its own, rlimits,
 * no new privileges, as root the uid of nobody), watches the CPU time of all the run's processes and
 * the wall time, kills the whole namespace at a limit, kills and reaps until no process of the run is
 * left, copies the requested files out and reports. Requests may be queued: runs are strictly one
 * after another, replies come in request order.
 * Python's own wait4 would report the judge's memory, and bubblewrap hides the child's CPU time:
 * measuring here, in the program's parent, avoids both.
 *
 * Request: one message of NUL-terminated "key=value" strings (cwd, cpu_ms, wall_ms, as_kb, fsize, nproc,
 * box_kb, env (repeated), arg (repeated), put=NAME and get=NAME (repeated)) with fds attached: stdin,
 * stdout, stderr, then one per put (read from offset 0 into /box/NAME before the run) and one per get
 * (/box/NAME written into it after the run), in the order of the items.
 * Reply: one text message "status=... code=... sig=... utime_us=... stime_us=... maxrss_kb=...
 * wall_us=... killed=... exec_errno=... got=MASK wait_us=... all_cpu_us=... all_peak_kb=... procs=...
 * forks_refused=... acct=cgroup|sampled" (utime/stime/maxrss: the program's own; all_*: every process
 * of the run; wait_us: at a wall kill, time runnable but waiting for a CPU, -1 otherwise).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <ftw.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sendfile.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_MSG 65536
#define MAX_ITEMS 512
#define MAX_FDS 32
#define MAX_RO 64
#define NOBODY 65534
#define BOX "/box"
#define DEFAULT_BOX_KB (256L * 1024)
#define RUN_NOFILE 64
#define SHM_KB (64L * 1024)
#define BOX_REMOUNT_FLAGS (MS_REMOUNT | MS_NOSUID | MS_NODEV)
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the seccomp filter reads the low word of a syscall argument first"
#endif

/* mount_setattr(2), declared here to avoid the glibc/kernel header clash. */
struct cp_mount_attr { uint64_t attr_set, attr_clr, propagation, userns_fd; };
#define CP_ATTR_RDONLY 0x00000001ULL
#define CP_ATTR_NOSUID 0x00000002ULL
#define CP_ATTR_NODEV 0x00000004ULL
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#define CLOSE_RANGE_CLOEXEC_FLAG 4
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080
#endif

static int SOCK_FD = 3;
static int use_pidns = 0;      /* each run in its own PID namespace */
static int use_mountns = 0;    /* each run in its own mount namespace (private /proc, tmpfs /box) */
static int use_ipcns = 0;      /* each run in its own IPC namespace */
static int use_netns = 0;      /* each run in its own network namespace (abstract sockets, loopback) */
static int lazy_netns = 0;     /* ... made by the net helper at the run's first socket (see "Network") */
static int NET_FD = -1;        /* the server's end of its socket to the net helper, inherited by inits */
static int addfd_send = 0;     /* the kernel answers and adds an fd at once (SECCOMP_ADDFD_FLAG_SEND, 5.14) */
static int allowlist_root = 0; /* the server lives in the minimal root */
static int use_seccomp = 0;
static int drop_to_nobody = 0;
static int program_cpu = -1; /* the CPU programs are pinned to (-1: any); the server keeps off it */
static long online_cpus = 1;  /* read at start: /sys is not in the root afterwards */
static uid_t run_uid;
static gid_t run_gid;
static const char *box = BOX; /* the run's work dir as the program sees it */
static char iso[768] = "";

static void note(const char *key, const char *value) {
    size_t n = strlen(iso);
    snprintf(iso + n, sizeof iso - n, "%s%s=%s", n ? " " : "", key, value);
}

static void note_failure(const char *key, const char *what) {
    char why[128];
    snprintf(why, sizeof why, "none(%s:%s)", what, strerror(errno));
    for (char *p = why; *p; p++)
        if (*p == ' ') *p = '_';
    note(key, why);
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

static int set_mount_attr(const char *path, unsigned flags, uint64_t set, uint64_t clr) {
    struct cp_mount_attr attr = {set, clr, 0, 0};
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &attr, sizeof attr);
}

static long raw_clone(unsigned long flags) {
    return syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
}

/* mkdir -p, relative to the current directory (the new root while it is being built). */
static int make_dirs(const char *path, mode_t mode) {
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", path);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buf, mode) < 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    return (mkdir(buf, mode) < 0 && errno != EEXIST) ? -1 : 0;
}

/* Bind host path `src` (absolute) to the same place in the new root (cwd), read-only unless `writable`. */
static int bind_same(const char *src, int writable, int allow_dev) {
    struct stat st;
    char dst[4096];
    if (lstat(src, &st) < 0) return -1;
    snprintf(dst, sizeof dst, ".%s", src);
    if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t n = readlink(src, target, sizeof target - 1);
        if (n < 0) return -1;
        target[n] = 0;
        char *slash = strrchr(dst, '/');
        *slash = 0;
        if (make_dirs(dst, 0755) < 0) return -1;
        *slash = '/';
        return (symlink(target, dst) < 0 && errno != EEXIST) ? -1 : 0;
    }
    if (S_ISDIR(st.st_mode)) {
        if (make_dirs(dst, 0755) < 0) return -1;
    } else {
        char *slash = strrchr(dst, '/');
        *slash = 0;
        if (make_dirs(dst, 0755) < 0) return -1;
        *slash = '/';
        int fd = open(dst, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0) return -1;
        close(fd);
    }
    if (mount(src, dst, NULL, MS_BIND | MS_REC, NULL) < 0) return -1;
    uint64_t set = CP_ATTR_NOSUID | (writable ? 0 : CP_ATTR_RDONLY) | (allow_dev ? 0 : CP_ATTR_NODEV);
    return set_mount_attr(dst, AT_RECURSIVE, set, 0);
}

static void passwd_line(char *buf, size_t size, uid_t uid, gid_t gid, const char *name) {
    size_t n = strlen(buf);
    snprintf(buf + n, size - n, "%s:x:%u:%u::" BOX ":/usr/sbin/nologin\n", name, uid, gid);
}

/* Build the minimal root on a tmpfs mounted at `root` and pivot into it. 0 on success. */
static int build_root(const char *root, char **ro, int nro) {
    static const char *top[] = {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr"};
    static const char *etc[] = {"/etc/ld.so.cache", "/etc/alternatives", "/etc/localtime", "/etc/hosts"};
    static const char *dev[] = {"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom"};
    if (mount("cpbot-root", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,nr_inodes=4096,mode=0755") < 0) return -1;
    if (chdir(root) < 0) return -1;
    for (size_t i = 0; i < sizeof top / sizeof *top; i++)
        if (access(top[i], F_OK) == 0 && bind_same(top[i], 0, 0) < 0) return -1;
    if (make_dirs("etc", 0755) < 0) return -1;
    for (size_t i = 0; i < sizeof etc / sizeof *etc; i++)
        if (access(etc[i], F_OK) == 0 && bind_same(etc[i], 0, 0) < 0) return -1;
    char users[512] = "";
    passwd_line(users, sizeof users, 0, 0, "root");
    if (run_uid != 0 && run_uid != NOBODY) passwd_line(users, sizeof users, run_uid, run_gid, "judge");
    passwd_line(users, sizeof users, NOBODY, NOBODY, "nobody");
    char groups[256];
    if (run_gid && run_gid != NOBODY)
        snprintf(groups, sizeof groups, "root:x:0:\njudge:x:%u:\nnogroup:x:%u:\n", run_gid, NOBODY);
    else
        snprintf(groups, sizeof groups, "root:x:0:\nnogroup:x:%u:\n", NOBODY);
    if (write_file("etc/passwd", users) < 0 || write_file("etc/group", groups) < 0) return -1;
    for (size_t i = 0; i < sizeof dev / sizeof *dev; i++)
        if (bind_same(dev[i], 0, 1) < 0) return -1;
    if (mkdir("dev/shm", 0755) < 0) return -1; /* every run mounts its own there */
    if (symlink("/proc/self/fd", "dev/fd") < 0 || symlink("/proc/self/fd/0", "dev/stdin") < 0
        || symlink("/proc/self/fd/1", "dev/stdout") < 0 || symlink("/proc/self/fd/2", "dev/stderr") < 0)
        return -1;
    if (mkdir("proc", 0555) < 0 || mkdir("box", 0755) < 0) return -1;
    for (int i = 0; i < nro; i++)
        if (bind_same(ro[i], 0, 0) < 0) return -1;
    /* /tmp is the run's box, unless a --ro path lives under /tmp (then it is that path's stub dir) */
    if (symlink(BOX, "tmp") < 0 && errno != EEXIST) return -1;
    /* A proc of this PID namespace (the server and its runs only); every run covers it with its own.
     * In a user namespace a new proc may only be mounted where one is already visible. */
    if (mount("proc", "proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) return -1;
    if (syscall(SYS_pivot_root, ".", ".") < 0) return -1;
    if (umount2(".", MNT_DETACH) < 0) return -1;
    if (chdir("/") < 0) return -1;
    return set_mount_attr("/", 0, CP_ATTR_RDONLY | CP_ATTR_NOSUID | CP_ATTR_NODEV, 0);
}

/* The seccomp filter every program runs under: no new namespaces, no mounts, no kernel keyrings. */
#if defined(__x86_64__)
#define CP_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define CP_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

#ifdef CP_AUDIT_ARCH
#define NS_FLAGS (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID \
                  | CLONE_NEWNET | CLONE_NEWTIME)
#define DENY_WITH(nr, err) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))
#define DENY(nr) DENY_WITH(nr, EPERM)
/* fcntl commands that lock or watch a file: every run sees the same /usr, libc and staged programs, and a
 * lock (or a watch) on one of them is a channel to the other runs and visible on the host. The filter
 * cannot see which file an fd is, so a run takes no lock at all (ENOLCK, as when the kernel has none). */
#define FCNTL_DENIED 9 /* F_GETLK F_SETLK F_SETLKW F_OFD_GETLK F_OFD_SETLK F_OFD_SETLKW F_SETLEASE F_GETLEASE F_NOTIFY */
static struct sock_filter FILTER[] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, CP_AUDIT_ARCH, 1, 0),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM), /* another ABI (int 0x80) */
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __x86_64__
    BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1), /* x32 */
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
#endif
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, NS_FLAGS, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    /* clone3 passes its flags in memory a filter cannot read: ENOSYS makes libc fall back to clone */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 435, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
    /* mount: only the init's remount of its own box to the request's size; a program has no right to
     * mount anything anyway (no capabilities, no new user namespace), this is the second wall */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_mount, 0, 6),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3])),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, BOX_REMOUNT_FLAGS, 0, 3),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[3]) + 4),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    /* fcntl: the lock and watch commands (the low word of the command; the kernel reads an int) */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 0, 2 * FCNTL_DENIED + 2),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
    DENY_WITH(5, ENOLCK), DENY_WITH(6, ENOLCK), DENY_WITH(7, ENOLCK), DENY_WITH(36, ENOLCK),
    DENY_WITH(37, ENOLCK), DENY_WITH(38, ENOLCK), DENY_WITH(1024, ENOLCK), DENY_WITH(1025, ENOLCK),
    DENY_WITH(1026, ENOLCK),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    DENY_WITH(SYS_flock, ENOLCK), DENY(SYS_inotify_init1), DENY(SYS_fanotify_init),
#ifdef SYS_inotify_init
    DENY(SYS_inotify_init),
#endif
    DENY(SYS_unshare), DENY(SYS_setns), DENY(SYS_umount2), DENY(SYS_pivot_root),
    DENY(SYS_chroot), DENY(SYS_keyctl), DENY(SYS_add_key), DENY(SYS_request_key), DENY(SYS_bpf),
    DENY(SYS_perf_event_open), DENY(SYS_userfaultfd), DENY(425) /* io_uring_setup */,
    DENY(428) /* open_tree */, DENY(429) /* move_mount */, DENY(430) /* fsopen */, DENY(431) /* fsconfig */,
    DENY(432) /* fsmount */, DENY(433) /* fspick */, DENY(442) /* mount_setattr */,
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* Stacked on FILTER where no cgroup counts the runs (a normal user): what samples of the run's processes
 * cannot see is refused. A memfd's memory is in no process's RSS; bigger socket or pipe buffers hold
 * memory in the kernel (the default ones, times the run's open-file limit, stay small). Still unseen there:
 * the CPU time of children the kernel reaps itself (their parent ignores SIGCHLD or sets SA_NOCLDWAIT)
 * past the last sample; refusing SIGCHLD actions would break every shell's `wait`. */
#define LOAD(field) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, field))
static struct sock_filter SAMPLED_FILTER[] = {
    LOAD(nr), DENY(SYS_memfd_create),
    /* setsockopt(fd, SOL_SOCKET, SO_SNDBUF | SO_RCVBUF | SO_SNDBUFFORCE | SO_RCVBUFFORCE, ...) */
    LOAD(nr),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_setsockopt, 0, 9),
    LOAD(args[1]),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOL_SOCKET, 0, 6),
    LOAD(args[2]),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SO_SNDBUF, 3, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SO_RCVBUF, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SO_SNDBUFFORCE, 1, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SO_RCVBUFFORCE, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    /* fcntl(fd, F_SETPIPE_SZ, ...) */
    LOAD(nr),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_fcntl, 0, 3),
    LOAD(args[1]),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 1031 /* F_SETPIPE_SZ */, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

/* Stacked last where a run's network namespace is made at its first socket: every socket a run makes
 * (socket, socketpair; accept takes one of these) goes to the net helper through the listener this
 * filter returns, so nothing of a run ever lives in the namespace the runs share. So does every change
 * of CPU affinity (see answer_affinity_call). */
static struct sock_filter NET_FILTER[] = {
    LOAD(nr),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_socketpair, 1, 0),
    /* and the helper keeps a program on its slot's CPU: it narrows every affinity a program asks for */
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_sched_setaffinity, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static int use_cgroups = 0;

static int install_filter(void) {
    struct sock_fprog prog = {(unsigned short)(sizeof FILTER / sizeof *FILTER), FILTER};
    struct sock_fprog sampled = {(unsigned short)(sizeof SAMPLED_FILTER / sizeof *SAMPLED_FILTER), SAMPLED_FILTER};
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0) return -1;
    return use_cgroups ? 0 : prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &sampled, 0, 0);
}

/* The network filter, on this process; the listener fd its socket calls wait on, or -1. */
static int install_net_filter(void) {
    struct sock_fprog prog = {(unsigned short)(sizeof NET_FILTER / sizeof *NET_FILTER), NET_FILTER};
    return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}
#else
static int install_filter(void) {
    errno = ENOSYS;
    return -1;
}

static int install_net_filter(void) {
    errno = ENOSYS;
    return -1;
}
#endif

/* Whether a child can install the filter and is then refused a user namespace. */
static int seccomp_works(void) {
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        if (install_filter() < 0) _exit(1);
        _exit(unshare(CLONE_NEWUSER) < 0 && errno == EPERM ? 0 : 2);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) return 0;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Whether a child can enter new namespaces of these kinds (the runs will need to). */
static int can_clone(unsigned long flags) {
    long pid = raw_clone(flags);
    if (pid == 0) _exit(0);
    if (pid < 0) return 0;
    int status = 0;
    waitpid((pid_t)pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* Wait for a child to exit and leave with its status (the child carries on as the server). */
static void become_child(pid_t child) {
    int status = 0;
    close(SOCK_FD);
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

/* As root: carry on in a new user namespace mapping every uid to itself. Its map can only be written
 * from the parent namespace, so a child enters it and this process writes the map; 1 when it worked
 * (this process then only waits), 0 when it did not (this process carries on without it). */
static int enter_identity_userns(void) {
    int entered[2], mapped[2];
    if (pipe2(entered, O_CLOEXEC) < 0 || pipe2(mapped, O_CLOEXEC) < 0) return 0;
    pid_t child = fork();
    if (child < 0) return 0;
    char c = 0;
    if (child == 0) {
        close(entered[0]);
        close(mapped[1]);
        c = unshare(CLONE_NEWUSER) == 0 ? 'u' : 'x';
        if (write(entered[1], &c, 1) != 1 || c != 'u') _exit(0);
        if (read(mapped[0], &c, 1) != 1 || c != 'm') _exit(0); /* no map: the parent carries on */
        close(entered[1]);
        close(mapped[0]);
        return 1;
    }
    close(entered[1]);
    close(mapped[0]);
    int ok = read(entered[0], &c, 1) == 1 && c == 'u';
    if (ok) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%d/uid_map", child);
        ok = write_file(path, "0 0 4294967295") == 0;
        snprintf(path, sizeof path, "/proc/%d/gid_map", child);
        ok = ok && write_file(path, "0 0 4294967295") == 0;
    }
    c = ok ? 'm' : 'x';
    ssize_t w = write(mapped[1], &c, 1);
    close(entered[0]);
    close(mapped[1]);
    if (ok && w == 1) become_child(child);
    waitpid(child, NULL, 0);
    return 0;
}

/* How far a run's process limit is its own: per slot in a user namespace, except that a normal user's
 * processes of every judge also share that user's hard limit, which no unprivileged process can lift. */
static void note_fork_limit(int own_userns) {
    struct rlimit nproc;
    char text[96];
    if (!own_userns) {
        note("fork_limit", "rlimit-nproc(shared-by-all-processes-of-the-user)");
    } else if (geteuid() != 0 && getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_max != RLIM_INFINITY) {
        snprintf(text, sizeof text, "rlimit-nproc-per-slot(all-judges-of-the-user-share:%lu)", (unsigned long)nproc.rlim_max);
        note("fork_limit", text);
    } else {
        note("fork_limit", "rlimit-nproc-per-slot");
    }
}

static int net_listener_works(void);
static int start_net_helper(void);

/* Isolate the server once; every run inherits this and adds its own PID, mount and IPC namespaces. */
static void isolate(const char *root, char **ro, int nro, char **hide, int nhide, int namespaces) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    int ns = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
    int ok, own_userns = uid != 0;
    char map[64];

    if (!namespaces) {
        /* as on a machine that refuses them (--no-namespaces: to test the fallback) */
        ok = own_userns = 0;
    } else if (uid == 0) {
        /* A user namespace mapping every uid to itself: nothing changes for files, but RLIMIT_NPROC is
         * counted per (user namespace, uid), so programs of other judges running as nobody on this
         * machine no longer use up this slot's fork limit. Without one, the host's nobody count it is. */
        own_userns = enter_identity_userns();
        ok = unshare(ns) == 0;
    } else {
        /* A normal user gets the rights to make namespaces from a user namespace mapping itself. Its
         * processes count against a limit of their own there (the run's RLIMIT_NPROC), and against the
         * user's as a whole as well: up to the soft limit in force when the namespace is made, so it is
         * raised to the hard one first (else a fork storm in one judge's run, well within its own
         * limit, could use up what a low soft limit leaves the user and starve another judge's run). */
        struct rlimit nproc;
        if (getrlimit(RLIMIT_NPROC, &nproc) == 0 && nproc.rlim_cur < nproc.rlim_max) {
            nproc.rlim_cur = nproc.rlim_max;
            setrlimit(RLIMIT_NPROC, &nproc);
        }
        ok = unshare(CLONE_NEWUSER | ns) == 0;
        own_userns = ok;
        if (ok) {
            write_file("/proc/self/setgroups", "deny");
            snprintf(map, sizeof map, "%u %u 1", uid, uid);
            ok = write_file("/proc/self/uid_map", map) == 0;
            snprintf(map, sizeof map, "%u %u 1", gid, gid);
            ok = ok && write_file("/proc/self/gid_map", map) == 0;
        }
    }
    drop_to_nobody = uid == 0;
    run_uid = drop_to_nobody ? NOBODY : uid;
    run_gid = drop_to_nobody ? NOBODY : gid;
    note("user", drop_to_nobody ? "nobody" : "self");
    if (!ok) {
        if (namespaces) {
            note_failure("network", "unshare");
            note_failure("root", "unshare");
        } else {
            note("network", "none(disabled)");
            note("root", "none(disabled)");
        }
        box = root;
    } else {
        /* The server becomes pid 1 of a PID namespace of its own: its /proc then shows nothing else. */
        if (unshare(CLONE_NEWPID) == 0) {
            pid_t child = fork();
            if (child > 0) become_child(child);
            if (child < 0) _exit(1);
        }
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
            note_failure("root", "mount-private");
            box = root;
        } else if (getpid() == 1 && build_root(root, ro, nro) == 0) {
            allowlist_root = 1;
            note("root", "allowlist");
        } else {
            /* Honest fallback: the host's tree read-only except the slot's dir, cpbot's own dirs hidden. */
            note_failure("root", getpid() == 1 ? "build" : "pid-namespace");
            box = root;
            if (chdir("/") < 0) _exit(1);
            int fs = mount(root, root, NULL, MS_BIND | MS_REC, NULL) == 0
                     && set_mount_attr("/", AT_RECURSIVE, CP_ATTR_RDONLY | CP_ATTR_NOSUID, 0) == 0
                     && set_mount_attr(root, AT_RECURSIVE, 0, CP_ATTR_RDONLY) == 0;
            note("filesystem", fs ? "host-read-only-except-workdir" : "none(mount-failed)");
            for (int i = 0; fs && i < nhide; i++) {
                struct stat st;
                if (stat(hide[i], &st) == 0 && S_ISDIR(st.st_mode))
                    mount("none", hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k");
            }
        }
    }
    use_pidns = namespaces && can_clone(CLONE_NEWPID);
    use_ipcns = ok && can_clone(CLONE_NEWIPC);
    use_mountns = ok && can_clone(CLONE_NEWNS);
    use_netns = ok && can_clone(CLONE_NEWNET);
    use_seccomp = seccomp_works();
    if (use_netns && use_seccomp && use_pidns && allowlist_root) {
        /* the helper reads /proc/PID/mem of a run's process: this root's /proc is of its PID namespace */
        int works = net_listener_works();
        addfd_send = works == 2;
        lazy_netns = works > 0 && start_net_helper() == 0;
    }
    if (ok)
        note("network", !use_netns ? "namespace-per-slot" : lazy_netns ? "namespace-per-run(on-first-socket)" : "namespace-per-run");
    note("processes", use_pidns ? "pid-namespace" : "process-group");
    note("session", "own-per-run");
    note("proc", allowlist_root && use_pidns && use_mountns ? "private" : "none(host-proc)");
    note("sys", allowlist_root ? "absent" : "host");
    note("dev", allowlist_root ? "minimal" : "host");
    note("ipc", use_ipcns ? "private-per-run" : ok ? "private-per-slot" : "host");
    if (use_seccomp) {
        note("nested_userns", "blocked(seccomp)");
        note("file_locks", "refused(seccomp)");
    } else {
        note_failure("nested_userns", "seccomp");
        note_failure("file_locks", "seccomp");
    }
    note_fork_limit(own_userns);
    /* a run asking for another CPU gets none but its own (the net helper narrows its affinity) */
    note("cpu", program_cpu < 0 ? "any" : lazy_netns ? "one-per-slot(contained)" : "one-per-slot(run-may-widen)");
    note("workdir", allowlist_root && use_mountns ? "tmpfs-per-run" : "shared-dir-emptied-per-run");
    note("shm", allowlist_root && use_mountns ? "tmpfs-per-run" : allowlist_root ? "none" : "host");
    note("box", box);
}

struct request {
    char *cwd;
    long cpu_ms, wall_ms, as_kb, fsize, nproc, box_kb;
    char *argv[MAX_ITEMS];
    char *envp[MAX_ITEMS];
    char *files[MAX_FDS]; /* put/get names, in fd order after the three standard streams */
    int is_get[MAX_FDS];
    int nfiles;
    int fds[MAX_FDS];
    int warm; /* a Python program the warm interpreter may run (see warm_start_program) */
};

static int valid_name(const char *name) {
    return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static int parse_request(char *buf, size_t len, struct request *rq) {
    int na = 0, ne = 0;
    rq->cwd = NULL;
    rq->nfiles = 0;
    rq->warm = 0;
    rq->cpu_ms = rq->wall_ms = rq->as_kb = rq->fsize = rq->nproc = rq->box_kb = 0;
    for (size_t i = 0; i < len;) {
        char *item = buf + i;
        size_t n = strnlen(item, len - i);
        if (n == len - i) return -1; /* not NUL-terminated */
        i += n + 1;
        char *eq = strchr(item, '=');
        if (!eq) return -1;
        *eq = 0;
        char *v = eq + 1;
        if (!strcmp(item, "cwd")) rq->cwd = v;
        else if (!strcmp(item, "cpu_ms")) rq->cpu_ms = atol(v);
        else if (!strcmp(item, "wall_ms")) rq->wall_ms = atol(v);
        else if (!strcmp(item, "as_kb")) rq->as_kb = atol(v);
        else if (!strcmp(item, "fsize")) rq->fsize = atol(v);
        else if (!strcmp(item, "nproc")) rq->nproc = atol(v);
        else if (!strcmp(item, "box_kb")) rq->box_kb = atol(v);
        else if (!strcmp(item, "warm")) rq->warm = atoi(v) != 0;
        else if (!strcmp(item, "arg") && na < MAX_ITEMS - 1) rq->argv[na++] = v;
        else if (!strcmp(item, "env") && ne < MAX_ITEMS - 1) rq->envp[ne++] = v;
        else if ((!strcmp(item, "put") || !strcmp(item, "get")) && rq->nfiles < MAX_FDS - 3 && valid_name(v)) {
            rq->is_get[rq->nfiles] = item[0] == 'g';
            rq->files[rq->nfiles++] = v;
        } else return -1;
    }
    rq->argv[na] = NULL;
    rq->envp[ne] = NULL;
    return na > 0 ? 0 : -1;
}

static void set_limit(int resource, long value) {
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    if (value < 0) rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
    setrlimit(resource, &rl);
}

/* In the program's process, before it runs: its streams, work dir, limits and user (the seccomp filter
 * and no-new-privileges come from the init). Only system calls (a vfork child may run it). -1 on failure. */
static int enter_program(struct request *rq) {
    /* A session and process group of its own: kill(0), kill(-pgid), SIGSTOP to the group and
     * setpriority(PRIO_PGRP) reach only this run, never the judge or another slot. */
    setsid();
    if (dup2(rq->fds[0], 0) < 0 || dup2(rq->fds[1], 1) < 0 || dup2(rq->fds[2], 2) < 0) return -1;
    if (chdir(rq->cwd ? rq->cwd : box) < 0) return -1;
    set_limit(RLIMIT_STACK, -1);
    set_limit(RLIMIT_CORE, 0);
    /* open files (and fds in flight over unix sockets, counted against the same limit): bounds the
     * kernel memory a run can hold in pipe and socket buffers */
    set_limit(RLIMIT_NOFILE, RUN_NOFILE);
    if (rq->as_kb > 0) set_limit(RLIMIT_AS, rq->as_kb * 1024);
    if (rq->fsize > 0) set_limit(RLIMIT_FSIZE, rq->fsize);
    if (rq->nproc > 0) set_limit(RLIMIT_NPROC, rq->nproc);
    if (rq->cpu_ms > 0) {
        /* A backstop only: init kills on the measured CPU time long before this. */
        struct rlimit rl = {(rlim_t)(rq->cpu_ms / 1000 + 2), (rlim_t)(rq->cpu_ms / 1000 + 3)};
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (drop_to_nobody) {
        if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0) return -1;
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    return 0;
}

/* In the program's process (a vfork child: it only makes system calls and sets *exec_errno), between
 * fork and exec. Never returns. */
static void exec_program(struct request *rq, volatile int *exec_errno) {
    /* the launcher ignores SIGPIPE (and a warm Python server SIGXFSZ too): a program gets the defaults */
    signal(SIGPIPE, SIG_DFL);
    signal(SIGXFSZ, SIG_DFL);
    if (enter_program(rq) == 0) {
        /* Everything past stderr closes at exec. */
        syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC_FLAG);
        execve(rq->argv[0], rq->argv, rq->envp);
    }
    *exec_errno = errno ? errno : EINVAL;
    _exit(127);
}

/* ---- Warm Python: the launcher as a library inside a Python interpreter (judge/sandbox/warm_python.py).
 * That interpreter imports the usual modules once, then runs this launcher's server. An init then starts a
 * Python program of a request marked `warm` by forking itself instead of exec'ing a new interpreter: the
 * child takes the run's streams, work dir, limits and user like any program, drops every capability and
 * every fd past stderr, and returns into the interpreter (launcher_main returns 1), which runs the
 * program as __main__ in fresh module globals. The child was never anything but the pristine server,
 * so nothing of another run is in it; its CPU time and memory are its own from the fork. */
static int warm_server = 0;    /* built as the library and started by warm_python.py */
static jmp_buf warm_return;    /* launcher_main's frame, where a warm program's process goes back */
/* a warm program's request, packed as "NARGS\0NENV\0" then its arguments and environment, each
 * NUL-terminated: read by warm_python.py straight from here */
char launcher_warm_request[MAX_MSG + 32];
size_t launcher_warm_request_size;
const size_t launcher_warm_request_capacity = sizeof launcher_warm_request;
static char *warm_environ[MAX_ITEMS];
#define WARM_GO_FD 3           /* the program's process reads one byte here when its turn comes */
static pid_t warm_pid = -1;    /* in an init: its program's process, forked ahead of its turn */
static int warm_go = -1;       /* the write end of that process's go pipe */

static void pin_to_program_cpu(pid_t pid);
static void leave_program_cpu_of(pid_t pid);
static void leave_program_cpu(void);
static int listen_for_run(void);

static int drop_capabilities(void) {
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memset(data, 0, sizeof data);
    prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    return (int)syscall(SYS_capset, &head, data);
}

/* Pack the request's arguments and environment into launcher_warm_request, and make the environment the
 * process's C environment (what getenv and child processes see), as execve would have: the interpreter
 * then only rebuilds os.environ. One copy, rather than a Python call per string. */
static void warm_keep_request(struct request *rq) {
    int na = 0, ne = 0;
    while (rq->argv[na]) na++;
    while (rq->envp[ne]) ne++;
    size_t at = (size_t)snprintf(launcher_warm_request, sizeof launcher_warm_request, "%d%c%d", na, 0, ne) + 1;
    for (int i = 0; i < na + ne; i++) {
        const char *item = i < na ? rq->argv[i] : rq->envp[i - na];
        size_t n = strlen(item) + 1; /* fits: the items came in one message of at most MAX_MSG */
        memcpy(launcher_warm_request + at, item, n);
        if (i >= na) warm_environ[i - na] = launcher_warm_request + at;
        at += n;
    }
    warm_environ[ne] = NULL;
    environ = warm_environ;
    launcher_warm_request_size = at;
}

/* In a fork of the init (not a vfork: it goes on as Python), made while the run before goes: it gets
 * ready (its Python side too) and waits for the byte on WARM_GO_FD. Never returns. */
static void warm_start_program(struct request *rq, int go) {
    /* its own sockets and affinity through the net helper (the init, which pins it at its turn, is not) */
    if (lazy_netns && listen_for_run() < 0) _exit(127);
    if (enter_program(rq) < 0 || drop_capabilities() < 0) _exit(127);
    /* dumpable as an exec'd program of the run's user is (the uid change made it not): the net helper
     * reads and writes its memory for a socketpair or an affinity, as it does an exec'd program's */
    prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
    if (go != WARM_GO_FD && dup2(go, WARM_GO_FD) < 0) _exit(127);
    /* Python keeps no fd of its own open; past stderr are the judge's socket and the launcher's pipes */
    syscall(SYS_close_range, WARM_GO_FD + 1, ~0U, 0);
    /* the request lives in this frame, which the interpreter's next calls overwrite: keep it */
    warm_keep_request(rq);
    longjmp(warm_return, 1);
}

/* Fork the warm program's process ahead of its turn (run_init releases it). -1 on failure. */
static int warm_fork_ahead(struct request *rq) {
    int go[2];
    if (pipe2(go, O_CLOEXEC) < 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(go[1]);
        warm_start_program(rq, go[0]);
    }
    close(go[0]);
    if (pid < 0) {
        close(go[1]);
        return -1;
    }
    /* It gets ready beside the run before, not on its CPU; pinned there at its turn. Moved from here, not
     * by itself: a process not yet scheduled when its turn comes would move itself off after the pin. */
    leave_program_cpu_of(pid);
    warm_pid = pid;
    warm_go = go[1];
    return 0;
}

static long elapsed_us(const struct timespec *a, const struct timespec *b) {
    return (b->tv_sec - a->tv_sec) * 1000000L + (b->tv_nsec - a->tv_nsec) / 1000;
}

static void kill_all(pid_t pid) {
    if (use_pidns) kill(-1, SIGKILL); /* from pid 1: everything in the namespace */
    else kill(-pid, SIGKILL);
}

/* Without a PID namespace: kill every child of this init (the program, and the orphans it left, which
 * come here as this init is their subreaper), with their process groups. */
static void kill_children(void) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)syscall(SYS_gettid));
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return;
    buf[n] = 0;
    for (char *p = buf, *end; *p; p = end) {
        long child = strtol(p, &end, 10);
        if (end == p) break;
        kill((pid_t)-child, SIGKILL);
        kill((pid_t)child, SIGKILL);
    }
}

/* Kill and reap until nothing of the run is left: every process of the run's PID namespace has
 * this init as its parent once its own is gone, so no child left means no process left. Only then
 * is the reply sent: a killed process that still held a socket, a lock or a process-count entry
 * would otherwise reach into the next run. */
static void reap_all(pid_t pid) {
    for (;;) {
        kill_all(pid);
        if (!use_pidns) kill_children();
        if (waitpid(-1, NULL, __WALL) < 0 && errno == ECHILD) return;
    }
}

static int copy_fd(int from, int to) {
    off_t off = 0;
    struct stat st;
    if (fstat(from, &st) < 0) return -1;
    while (off < st.st_size) {
        ssize_t n = sendfile(to, from, &off, (size_t)(st.st_size - off));
        if (n <= 0) return -1;
    }
    return 0;
}

/* Copy the put files into the box before the run; -1 with errno on failure. */
static int put_files(struct request *rq) {
    for (int i = 0; i < rq->nfiles; i++) {
        if (rq->is_get[i]) continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", box, rq->files[i]);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd < 0) return -1;
        int r = copy_fd(rq->fds[3 + i], fd) == 0 && fchown(fd, run_uid, run_gid) == 0 ? 0 : -1;
        close(fd);
        if (r < 0) return -1;
    }
    return 0;
}

/* Copy the get files out after the run; a bit per file that was there (a regular file, no link). */
static unsigned get_files(struct request *rq) {
    unsigned got = 0;
    for (int i = 0; i < rq->nfiles; i++) {
        if (!rq->is_get[i]) continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", box, rq->files[i]);
        int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
        if (fd < 0) continue;
        int out = rq->fds[3 + i];
        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && ftruncate(out, 0) == 0 && copy_fd(fd, out) == 0)
            got |= 1u << i;
        close(fd);
    }
    return got;
}

static int open_up(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)ftw;
    if (type == FTW_D || type == FTW_DNR) chmod(path, 0700);
    return 0;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)type;
    if (ftw->level > 0) remove(path);
    return 0;
}

/* Without a per-run tmpfs, empty the shared work dir (a program may leave dirs without permissions). */
static void reset_box(void) {
    pid_t pid = fork();
    if (pid == 0) {
        /* first make every dir searchable and writable, then remove depth-first */
        nftw(box, open_up, 32, FTW_PHYS);
        nftw(box, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
        _exit(0);
    }
    if (pid > 0) waitpid(pid, NULL, 0);
    chmod(box, 0700);
    if (chown(box, run_uid, run_gid) < 0) {
    }
}

/* Per-run mounts, inside the run's own mount namespace: a private /proc and a fresh, capped /box.
 * Done before the request arrives (the init is started ahead), so they cost the judge no time. */
static int mount_run(char *why, size_t whysize) {
    if (!(allowlist_root && use_mountns)) return 0;
    if (use_pidns && mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0) {
        snprintf(why, whysize, "mount-proc:%d", errno);
        return -1;
    }
    char opts[128];
    snprintf(opts, sizeof opts, "size=%ldk,nr_inodes=65536,mode=0700,uid=%u,gid=%u", DEFAULT_BOX_KB, run_uid, run_gid);
    if (mount("cpbot-box", BOX, "tmpfs", MS_NOSUID | MS_NODEV, opts) < 0) {
        snprintf(why, whysize, "mount-box:%d", errno);
        return -1;
    }
    /* POSIX shared memory and named semaphores (Python's multiprocessing needs them), gone with the run */
    snprintf(opts, sizeof opts, "size=%ldk,nr_inodes=1024,mode=1777", SHM_KB);
    if (mount("cpbot-shm", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, opts) < 0) {
        snprintf(why, whysize, "mount-shm:%d", errno);
        return -1;
    }
    return 0;
}

/* After the request: the box's own cap (when not the default) and the files it asked for. */
static int prepare_run(struct request *rq, char *why, size_t whysize) {
    if (allowlist_root && use_mountns && rq->box_kb > 0 && rq->box_kb != DEFAULT_BOX_KB) {
        char opts[64];
        snprintf(opts, sizeof opts, "size=%ldk", rq->box_kb);
        if (mount(NULL, BOX, NULL, BOX_REMOUNT_FLAGS, opts) < 0) {
            snprintf(why, whysize, "resize-box:%d", errno);
            return -1;
        }
    }
    if (put_files(rq) < 0) {
        snprintf(why, whysize, "put-files:%d", errno);
        return -1;
    }
    return 0;
}

/* ---- Accounting: CPU time and memory of every process of a run ----
 *
 * As root, each run has cgroups of its own (cgroup v1 cpuacct, memory and pids, nested under the
 * judge's own): CPU time and peak memory of all its processes, children never waited for included
 * (and memfds, pipes, the page cache it fills), and a pids limit. A slot keeps a ring of run cgroups
 * under a dir of its own and reuses them: making and removing a cgroup per run cost about 0.6 ms,
 * joining one costs about 0.15 ms, done by the init ahead of its turn. Where no cgroup can be had
 * (a normal user), the init samples every process of the run's PID namespace instead, and counts
 * the CPU time of all of them exactly at the end (all were its children or reaped by it). */
#define NCG 3
#define WALL_STRETCH 4
#define CG_RING 16
enum { CG_CPU, CG_MEM, CG_PIDS };
static const char *CG_CONTROLLERS[NCG] = {"cpuacct", "memory", "pids"};
static int cg_slot[NCG] = {-1, -1, -1}; /* this slot's dir in each hierarchy */
static int cg_run[NCG][CG_RING];         /* its run dirs, made and opened once (an init joins one) */
static char cg_slot_name[32];

/* The sampled memory's reference (see processes_kb): each process's resident kB at the last walk or lone
 * sample, by pid, and the run's memory then. */
#define MAX_TRACKED 4096
struct tracked { int pid; long kb; };
static struct tracked tracked[MAX_TRACKED];
static int tracked_n;
static long tracked_total_kb;

struct accounting {
    int cpu_fd, peak_fd, usage_fd, limit_fd, pids_max_fd, pids_events_fd;
    long cpu_base_ns, cpu_end_ns, mem_base, forks_refused_base;
    int stdout_fd, stderr_fd; /* copies of the output files (the run's own are closed once it starts) */
    long stdout_base, stderr_base;
    struct rusage children_base;
    long warm_before_us; /* a warm program's CPU time before its turn, in the samples but not its own */
    long sampled_cpu_ticks, sampled_peak_kb;
    long unmapped_base_kb; /* what the work dir, /dev/shm and System V memory held at the start */
    int procs_peak;
    struct timespec sampling_since; /* the program's start, for the walks' budget */
    long sampling_ns, walks_ns;     /* CPU time of all sampling, and of the PSS walks in it */
    int walks;
};

static long read_long_fd(int fd) {
    char buf[64];
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return -1;
    buf[n] = 0;
    return atol(buf);
}

static int write_text_at(int dir, const char *name, const char *text) {
    int fd = openat(dir, name, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = write(fd, text, strlen(text));
    close(fd);
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* The dir of this process's cgroup in one v1 hierarchy, or -1. */
static int open_own_cgroup(const char *controller) {
    char line[1024], path[1200];
    FILE *f = fopen("/proc/self/cgroup", "re");
    if (!f) return -1;
    int fd = -1;
    while (fd < 0 && fgets(line, sizeof line, f)) {
        char *names = strchr(line, ':'), *rel = names ? strchr(names + 1, ':') : NULL;
        if (!rel) continue;
        *rel++ = 0;
        rel[strcspn(rel, "\n")] = 0;
        for (char *tok = strtok(names + 1, ","); tok; tok = strtok(NULL, ","))
            if (!strcmp(tok, controller)) {
                snprintf(path, sizeof path, "/sys/fs/cgroup/%s%s", controller, rel);
                fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                break;
            }
    }
    fclose(f);
    return fd;
}

/* Remove a slot dir and its run dirs (empty cgroups; a v1 cgroup dir is removed with rmdir, its control
 * files with it). */
static void remove_cgroup_tree(int parent, const char *name) {
    int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (dir) {
        struct dirent *e;
        while ((e = readdir(dir)) != NULL)
            if (e->d_type == DT_DIR && strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
                unlinkat(fd, e->d_name, AT_REMOVEDIR);
        closedir(dir);
    } else if (fd >= 0) {
        close(fd);
    }
    unlinkat(parent, name, AT_REMOVEDIR);
}

/* The slot dirs of launchers that died without removing theirs (killed: a Ctrl-C, a judge killed), next
 * to this one's; a dir still holding a process is not empty and stays. */
static void remove_dead_slots(int parent) {
    int fd = dup(parent);
    DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
    if (!dir) {
        if (fd >= 0) close(fd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        char *end;
        if (strncmp(e->d_name, "cpbot-", 6) != 0) continue;
        long pid = strtol(e->d_name + 6, &end, 10);
        if (*end || pid <= 0 || !(kill((pid_t)pid, 0) < 0 && errno == ESRCH)) continue;
        remove_cgroup_tree(parent, e->d_name);
    }
    closedir(dir);
}

/* As root, before the namespaces: this slot's cgroup dir in each hierarchy (all or none). */
static void setup_cgroups(void) {
    if (geteuid() != 0) return;
    snprintf(cg_slot_name, sizeof cg_slot_name, "cpbot-%d", (int)getpid());
    int ok = 1;
    for (int k = 0; k < NCG && ok; k++) {
        int own = open_own_cgroup(CG_CONTROLLERS[k]);
        if (own >= 0) remove_dead_slots(own);
        ok = own >= 0 && mkdirat(own, cg_slot_name, 0755) == 0
             && (cg_slot[k] = openat(own, cg_slot_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0;
        if (own >= 0) close(own);
    }
    /* the ring of run dirs, made and opened here once: making (or finding) and opening them cost every
     * init about 0.06 ms more */
    for (int k = 0; k < NCG; k++)
        for (int i = 0; i < CG_RING; i++) {
            char run[16];
            snprintf(run, sizeof run, "r%d", i);
            cg_run[k][i] = -1;
            if (ok && mkdirat(cg_slot[k], run, 0755) == 0)
                cg_run[k][i] = openat(cg_slot[k], run, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            ok = ok && cg_run[k][i] >= 0;
        }
    if (!ok) {
        for (int k = 0; k < NCG; k++) {
            for (int i = 0; i < CG_RING; i++)
                if (cg_run[k][i] >= 0) close(cg_run[k][i]);
            if (cg_slot[k] >= 0) close(cg_slot[k]);
            cg_slot[k] = -1;
        }
        return;
    }
    use_cgroups = 1;
}

/* Sampling needs the run's own /proc (a PID namespace and a private mount of it). */
static int can_sample(void) {
    return use_pidns && allowlist_root && use_mountns;
}

static void note_accounting(void) {
    if (use_cgroups) note("accounting", "cgroup-v1(cpuacct,memory,pids)-per-run");
    else if (can_sample()) note("accounting", geteuid() == 0 ? "sampled(pid-namespace,no-cgroup)" : "sampled(pid-namespace,not-root)");
    else note("accounting", "none(program-only)");
}

/* When the server ends: its run cgroups and its slot dirs (every init has been reaped). */
static void remove_cgroups(void) {
    if (!use_cgroups) return;
    for (int k = 0; k < NCG; k++) {
        for (int i = 0; i < CG_RING; i++) close(cg_run[k][i]);
        int parent = openat(cg_slot[k], "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (parent >= 0) {
            remove_cgroup_tree(parent, cg_slot_name);
            close(parent);
        }
    }
}

static void init_accounting(struct accounting *acct) {
    memset(acct, 0, sizeof *acct);
    acct->cpu_fd = acct->peak_fd = acct->usage_fd = acct->limit_fd = acct->pids_max_fd = acct->pids_events_fd = -1;
    acct->stdout_fd = acct->stderr_fd = -1;
}

/* In the init, ahead of its request: join run cgroup `seq` of the ring and open what it reads. */
static int join_run_cgroups(long seq, struct accounting *acct) {
    if (!use_cgroups) return 0;
    int dirs[NCG];
    for (int k = 0; k < NCG; k++) {
        dirs[k] = cg_run[k][seq % CG_RING];
        /* "0" to `tasks` moves only this (single-threaded) init, and so skips the kernel's global
         * threadgroup lock that a write to cgroup.procs takes (which also holds up every fork meanwhile) */
        if (write_text_at(dirs[k], "tasks", "0") < 0) return -1;
    }
    acct->cpu_fd = openat(dirs[CG_CPU], "cpuacct.usage", O_RDONLY | O_CLOEXEC);
    acct->peak_fd = openat(dirs[CG_MEM], "memory.max_usage_in_bytes", O_RDWR | O_CLOEXEC);
    acct->usage_fd = openat(dirs[CG_MEM], "memory.usage_in_bytes", O_RDONLY | O_CLOEXEC);
    acct->limit_fd = openat(dirs[CG_MEM], "memory.limit_in_bytes", O_WRONLY | O_CLOEXEC);
    acct->pids_max_fd = openat(dirs[CG_PIDS], "pids.max", O_WRONLY | O_CLOEXEC);
    acct->pids_events_fd = openat(dirs[CG_PIDS], "pids.events", O_RDONLY | O_CLOEXEC);
    return acct->cpu_fd >= 0 && acct->peak_fd >= 0 && acct->usage_fd >= 0 && acct->limit_fd >= 0
                   && acct->pids_max_fd >= 0 && acct->pids_events_fd >= 0
               ? 0
               : -1;
}

/* The run's own limits on all its processes together: processes, and memory as a backstop (the
 * address-space cap of one process, for all of them; the verdict is decided on the peak). */
static int limit_run_cgroups(const struct request *rq, const struct accounting *acct) {
    if (!use_cgroups) return 0;
    char text[32];
    if (rq->nproc > 0) snprintf(text, sizeof text, "%ld", rq->nproc);
    else snprintf(text, sizeof text, "max");
    if (pwrite(acct->pids_max_fd, text, strlen(text), 0) < 0) return -1;
    if (rq->as_kb > 0) snprintf(text, sizeof text, "%ld", rq->as_kb * 1024);
    else snprintf(text, sizeof text, "-1");
    return pwrite(acct->limit_fd, text, strlen(text), 0) < 0 ? -1 : 0;
}

static long forks_refused(const struct accounting *acct) {
    char buf[128];
    ssize_t n = pread(acct->pids_events_fd, buf, sizeof buf - 1, 0);
    if (n <= 0) return 0;
    buf[n] = 0;
    char *max = strstr(buf, "max ");
    return max ? atol(max + 4) : 0;
}

static long file_size(int fd) {
    struct stat st;
    return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? (long)st.st_size : 0;
}

/* A copy of an output fd that is a file (a memfd): its size at the end is what the program wrote. */
static int keep_output_file(int fd) {
    struct stat st;
    return use_cgroups && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fcntl(fd, F_DUPFD_CLOEXEC, 3) : -1;
}

/* Memory of the run in no process's RSS (kB), where no cgroup counts it: files in its own tmpfs work dir
 * and /dev/shm, and System V shared memory of its own IPC namespace that no process has attached (an
 * attached segment is in the RSS of the processes that attach it). */
static long unmapped_kb(void) {
    static const char *dirs[] = {BOX, "/dev/shm"};
    long kb = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        struct statfs fs;
        if (statfs(dirs[i], &fs) == 0) kb += (long)((fs.f_blocks - fs.f_bfree) * (unsigned long)fs.f_bsize / 1024);
    }
    FILE *f = fopen("/proc/sysvipc/shm", "re");
    if (!f) return kb;
    char line[512];
    unsigned long nattch, rss;
    /* key shmid perms size cpid lpid nattch uid gid cuid cgid atime dtime ctime rss swap */
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "%*d %*d %*o %*u %*d %*d %lu %*u %*u %*u %*u %*u %*u %*u %lu", &nattch, &rss) == 2
            && nattch == 0)
            kb += (long)(rss / 1024);
    fclose(f);
    return kb;
}

/* Just before the program starts: the baselines every figure is measured from. */
static void start_accounting(const struct request *rq, struct accounting *acct) {
    acct->sampled_cpu_ticks = acct->sampled_peak_kb = 0;
    acct->warm_before_us = 0;
    acct->procs_peak = 0;
    acct->sampling_ns = acct->walks_ns = 0;
    acct->walks = 0;
    tracked_n = 0;
    tracked_total_kb = 0;
    acct->stdout_fd = keep_output_file(rq->fds[1]);
    acct->stderr_fd = keep_output_file(rq->fds[2]);
    acct->stdout_base = file_size(acct->stdout_fd);
    acct->stderr_base = file_size(acct->stderr_fd);
    getrusage(RUSAGE_CHILDREN, &acct->children_base);
    if (!use_cgroups) {
        acct->unmapped_base_kb = can_sample() ? unmapped_kb() : 0; /* the files put in for it */
        return;
    }
    if (pwrite(acct->peak_fd, "0", 1, 0) < 0) { /* the peak restarts from the usage now */
    }
    acct->mem_base = read_long_fd(acct->usage_fd);
    /* The kernel charges a running task's CPU time to its cgroup only at a tick or a switch: reading its
     * own clock charges what this init used so far (taking the request), which would else land after
     * the baseline and count as the run's. */
    struct timespec own;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &own);
    acct->cpu_base_ns = read_long_fd(acct->cpu_fd);
    acct->forks_refused_base = forks_refused(acct);
}

/* The run's memory where no cgroup counts it, from samples of its processes. Summing their resident sizes
 * would charge a page that processes share (a fork's copy-on-write pages, a library) once per process: a
 * program that touches 64 MB and forks 100 children would count 6.4 GB. Each page is counted once instead,
 * split among the processes that map it: the proportional set size (Pss in /proc/PID/smaps_rollup).
 * Reading it walks a process's page tables (about 4 ms for 64 MB on a loaded machine), so:
 *  - a lone process shares with no other process of the run: its resident size is its share;
 *  - with several, a walk is taken only when the summed resident sizes (an upper bound) pass the peak so
 *    far, and only while the walks took at most 1/WALK_SHARE of the run's wall time, and always at the
 *    end while processes are left;
 *  - between walks, the run's memory is that of the last walk (or lone sample) plus what each process has
 *    grown since (a process born since then from its first sight: a fork starts out sharing everything),
 *    and at most the summed resident sizes.
 *    What this misses (a copy-on-write page written without growing, a child that allocates before it is
 *    first seen) the next walk finds. */
#define WALK_SHARE 20

static int by_pid(const void *a, const void *b) {
    return ((const struct tracked *)a)->pid - ((const struct tracked *)b)->pid;
}

static long thread_cpu_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

/* The proportional set size of one process (kB): its resident size where it cannot be read, nothing
 * once it is gone. */
static long pss_kb(int pid, long rss_kb) {
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/smaps_rollup", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return errno == ENOENT || errno == ESRCH ? 0 : rss_kb;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return n == 0 ? 0 : rss_kb;
    buf[n] = 0;
    char *line = strstr(buf, "\nPss:");
    return line ? atol(line + 5) : rss_kb;
}

/* The run's memory in its processes (kB) from this sample's resident sizes (`now`, sorted by pid). */
static long processes_kb(struct accounting *acct, struct tracked *now, int n, long rss_kb, int final) {
    if (n <= 1 || tracked_n == 0) { /* a lone process (or the first sample): a reference of its own */
        memcpy(tracked, now, n * sizeof *now);
        tracked_n = n;
        tracked_total_kb = rss_kb;
        if (n <= 1) return rss_kb;
    }
    struct timespec wall;
    clock_gettime(CLOCK_MONOTONIC, &wall);
    long budget_ns = elapsed_us(&acct->sampling_since, &wall) * (1000 / WALK_SHARE);
    if (rss_kb > acct->sampled_peak_kb && (final || acct->walks_ns <= budget_ns)) {
        long started = thread_cpu_ns(), total = 0;
        for (int i = 0; i < n; i++) total += pss_kb(now[i].pid, now[i].kb);
        acct->walks_ns += thread_cpu_ns() - started;
        acct->walks++;
        memcpy(tracked, now, n * sizeof *now);
        tracked_n = n;
        tracked_total_kb = total;
        return total;
    }
    /* growth since the reference; both lists are sorted by pid */
    long grown = 0;
    static struct tracked merged[MAX_TRACKED];
    int j = 0;
    for (int i = 0; i < n; i++) {
        while (j < tracked_n && tracked[j].pid < now[i].pid) j++;
        long base = j < tracked_n && tracked[j].pid == now[i].pid ? tracked[j].kb : now[i].kb;
        if (now[i].kb > base) grown += now[i].kb - base;
        merged[i] = (struct tracked){now[i].pid, base};
    }
    memcpy(tracked, merged, n * sizeof *merged); /* the newly born join with their first sight */
    tracked_n = n;
    /* never past the summed resident sizes: a process gone since the reference still has its share in it */
    long kb = tracked_total_kb + grown;
    return kb < rss_kb ? kb : rss_kb;
}

/* Every process of the run but its init, from the run's own /proc: CPU ticks (with their waited-for
 * children's), memory (see above), and how many there are; and the run's memory outside them. `final`:
 * the last sample, after the program ended. */
static void sample_processes(struct accounting *acct, int final) {
    if (!can_sample()) return;
    long started = thread_cpu_ns();
    DIR *proc = opendir("/proc");
    if (!proc) return;
    static struct tracked now[MAX_TRACKED];
    long ticks = 0, rss_pages = 0, untracked_pages = 0;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(proc))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strcmp(e->d_name, "1")) continue;
        char path[300], buf[1024];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0) continue;
        buf[n] = 0;
        char *p = strrchr(buf, ')'); /* the name may hold spaces */
        if (!p) continue;
        /* fields after the name: state(3) ... utime(14) stime(15) cutime(16) cstime(17) ... rss(24) */
        long f[22] = {0};
        int i = 0;
        for (char *tok = strtok(p + 2, " "); tok && i < 22; tok = strtok(NULL, " ")) f[i++] = atol(tok);
        ticks += f[11] + f[12] + f[13] + f[14];
        rss_pages += f[21];
        if (count < MAX_TRACKED) now[count] = (struct tracked){atoi(e->d_name), f[21] * (sysconf(_SC_PAGESIZE) / 1024)};
        else untracked_pages += f[21]; /* more processes than tracked: counted whole */
        count++;
    }
    closedir(proc);
    acct->sampled_cpu_ticks = ticks;
    long page_kb = sysconf(_SC_PAGESIZE) / 1024, n = count < MAX_TRACKED ? count : MAX_TRACKED;
    qsort(now, n, sizeof *now, by_pid);
    long kb = processes_kb(acct, now, (int)n, (rss_pages - untracked_pages) * page_kb, final)
              + untracked_pages * page_kb + unmapped_kb() - acct->unmapped_base_kb;
    if (kb > acct->sampled_peak_kb) acct->sampled_peak_kb = kb;
    if (count > acct->procs_peak) acct->procs_peak = count;
    acct->sampling_ns += thread_cpu_ns() - started;
}

static long rusage_us(const struct rusage *r) {
    return (r->ru_utime.tv_sec + r->ru_stime.tv_sec) * 1000000L + r->ru_utime.tv_usec + r->ru_stime.tv_usec;
}

/* CPU time of all the run's processes so far (microseconds), for the limit while it runs. */
static long run_cpu_us(struct accounting *acct) {
    if (use_cgroups) return (read_long_fd(acct->cpu_fd) - acct->cpu_base_ns) / 1000;
    sample_processes(acct, 0);
    struct rusage now;
    getrusage(RUSAGE_CHILDREN, &now);
    return acct->sampled_cpu_ticks * (1000000L / sysconf(_SC_CLK_TCK)) + rusage_us(&now)
           - rusage_us(&acct->children_base) - acct->warm_before_us;
}

/* How long the run's threads were runnable but waiting for a CPU (microseconds), from schedstat:
 * tells a program starved by a busy machine from one that sleeps. */
static long run_wait_us(void) {
    if (!use_pidns || !allowlist_root || !use_mountns) return -1;
    DIR *proc = opendir("/proc");
    if (!proc) return -1;
    long total = 0;
    struct dirent *e;
    while ((e = readdir(proc))) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9' || !strcmp(e->d_name, "1")) continue;
        char path[300];
        snprintf(path, sizeof path, "/proc/%s/task", e->d_name);
        DIR *tasks = opendir(path);
        if (!tasks) continue;
        struct dirent *t;
        while ((t = readdir(tasks))) {
            if (t->d_name[0] == '.') continue;
            char spath[600], buf[128];
            snprintf(spath, sizeof spath, "/proc/%s/task/%s/schedstat", e->d_name, t->d_name);
            int fd = open(spath, O_RDONLY | O_CLOEXEC);
            if (fd < 0) continue;
            ssize_t n = read(fd, buf, sizeof buf - 1);
            close(fd);
            if (n <= 0) continue;
            buf[n] = 0;
            unsigned long long run_ns = 0, wait_ns = 0;
            if (sscanf(buf, "%llu %llu", &run_ns, &wait_ns) == 2) total += (long)(wait_ns / 1000);
        }
        closedir(tasks);
    }
    closedir(proc);
    return total;
}

/* After every process of the run is gone: the totals for the reply. */
static void finish_accounting(struct accounting *acct, char *out, size_t size) {
    struct rusage now;
    getrusage(RUSAGE_CHILDREN, &now);
    long cpu_us = rusage_us(&now) - rusage_us(&acct->children_base) - acct->warm_before_us;
    long peak_kb = acct->sampled_peak_kb, refused = -1;
    if (use_cgroups) {
        cpu_us = (acct->cpu_end_ns - acct->cpu_base_ns) / 1000;
        /* what the program wrote to the judge's output files sits in memory it was charged for: not its own */
        long written = file_size(acct->stdout_fd) - acct->stdout_base + file_size(acct->stderr_fd) - acct->stderr_base;
        peak_kb = (read_long_fd(acct->peak_fd) - acct->mem_base - written) / 1024;
        refused = forks_refused(acct) - acct->forks_refused_base;
    }
    snprintf(out, size, " all_cpu_us=%ld all_peak_kb=%ld procs=%d forks_refused=%ld acct=%s sampling_us=%ld walks=%d walks_us=%ld",
             cpu_us, peak_kb < 0 ? 0 : peak_kb, acct->procs_peak, refused, use_cgroups ? "cgroup" : "sampled",
             acct->sampling_ns / 1000, acct->walks, acct->walks_ns / 1000);
}

static void close_accounting(struct accounting *acct) {
    int fds[] = {acct->cpu_fd,         acct->peak_fd,        acct->usage_fd,  acct->limit_fd,
                 acct->pids_max_fd,    acct->pids_events_fd, acct->stdout_fd, acct->stderr_fd};
    for (size_t i = 0; i < sizeof fds / sizeof *fds; i++)
        if (fds[i] >= 0) close(fds[i]);
}

/* Pin an init, sleeping until its turn, to the programs' CPU: it wakes there, next to the run before
 * it, with no migration on the way to its program. */
static void pin_to_program_cpu(pid_t pid) {
    if (program_cpu < 0) return;
    cpu_set_t set;
    if (pid == 0 && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1
        && CPU_ISSET(program_cpu, &set))
        return;
    CPU_ZERO(&set);
    CPU_SET(program_cpu, &set);
    sched_setaffinity(pid, sizeof set, &set); /* inherited by the program */
}

/* Move a process (0: this one) off the programs' CPU (when there is another to go to). */
static void leave_program_cpu_of(pid_t pid) {
    cpu_set_t set;
    if (program_cpu < 0) return;
    CPU_ZERO(&set);
    for (long c = 0; c < online_cpus && c < CPU_SETSIZE; c++)
        if (c != program_cpu) CPU_SET(c, &set);
    if (CPU_COUNT(&set) > 0) sched_setaffinity(pid, sizeof set, &set);
}

static void leave_program_cpu(void) {
    cpu_set_t now; /* already off it: nothing to ask (an init's call goes through the net helper) */
    if (program_cpu >= 0 && sched_getaffinity(0, sizeof now, &now) == 0 && !CPU_ISSET(program_cpu, &now)) return;
    leave_program_cpu_of(0);
}

/* The turn of a run, passed on a pipe from the init of the run before (the baton): one byte once
 * nothing of that run is left (this program may start), a second once it has replied (this run may
 * reply: replies stay in request order). On a second pipe, the other way, a run waiting for its turn
 * says so: the run before then leaves the programs' CPU to the next program before it reads its totals
 * and replies (else it replies from there, where it is quickest). -1: no run before. */
struct handover {
    int after;   /* read end of the run before's baton */
    int waiting; /* write end of its pipe that says the next run waits */
};

struct turn {
    struct handover before;
    int baton;        /* write end of this run's own baton */
    int next_waiting; /* read end of its pipe that says the next run waits */
};

static void await_mark(int fd) {
    char mark;
    ssize_t n;
    if (fd < 0) return;
    do n = read(fd, &mark, 1);
    while (n < 0 && errno == EINTR);
}

/* Whether the mark awaited on `fd` is there already. */
static int mark_ready(int fd) {
    struct pollfd p = {fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0;
}

static void pass_mark(int fd) {
    if (write(fd, "d", 1) != 1) {
    }
}

/* Send the reply in its turn (after the run before's), then let the next run reply. */
static void reply_in_turn(const struct turn *turn, int report_fd, const char *text) {
    await_mark(turn->before.after);
    send(report_fd, text, strlen(text), MSG_NOSIGNAL);
    pass_mark(turn->baton);
}

/* Whether a process of the run besides this init is left (alive or not yet reaped). */
static int run_has_processes(void) {
    siginfo_t si;
    return waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT | __WALL) == 0;
}

/* The init of one run: start the program, watch it, report on the judge's socket. Its turn to start
 * has come; the accounting baselines of a program it execs are taken (see init_main). */
static void run_init(struct request *rq, struct accounting *acct, int report_fd, const struct turn *turn) {
    struct timespec t0, now;
    /* pinned while it slept; if its turn came first, it pins itself */
    pin_to_program_cpu(0);
    /* vfork: no copy of this process, and it resumes only once the program is running (or failed) */
    volatile int exec_errno = 0;
    long before_us = 0; /* a warm program's CPU time before its turn: not its own */
    pid_t pid;
    if (warm_pid > 0) {
        clockid_t clock;
        struct timespec used;
        pid = warm_pid;
        pin_to_program_cpu(pid);
        if (clock_getcpuclockid(pid, &clock) == 0 && clock_gettime(clock, &used) == 0)
            before_us = used.tv_sec * 1000000L + used.tv_nsec / 1000;
        start_accounting(rq, acct); /* its cgroup's CPU and memory so far are in the baselines */
        acct->warm_before_us = before_us;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        if (write(warm_go, "g", 1) != 1) {
        }
        close(warm_go);
    } else {
        clock_gettime(CLOCK_MONOTONIC, &t0);
        pid = vfork();
    }
    if (pid < 0) {
        char out[64];
        snprintf(out, sizeof out, "status=error msg=fork:%d", errno);
        pass_mark(turn->baton);
        reply_in_turn(turn, report_fd, out);
        return;
    }
    if (pid == 0) exec_program(rq, &exec_errno);
    acct->sampling_since = t0; /* the walks' budget counts from the program's start, not the wait for its turn */
    close(rq->fds[0]);
    close(rq->fds[1]);
    close(rq->fds[2]);

    const char *killed = "none";
    long wait_us = -1, waited_grace_us = 0;
    int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
    clockid_t cpu_clock;
    int have_clock = clock_getcpuclockid(pid, &cpu_clock) == 0;
    for (;;) {
        if (pidfd >= 0) {
            struct pollfd p = {pidfd, POLLIN, 0};
            if (poll(&p, 1, 10) > 0) break;
        } else {
            siginfo_t si = {0};
            usleep(10000);
            if (waitid(P_PID, pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 && si.si_pid == pid) break;
        }
        clock_gettime(CLOCK_MONOTONIC, &now);
        long wall_us = elapsed_us(&t0, &now);
        if (rq->wall_ms > 0 && wall_us > rq->wall_ms * 1000L + waited_grace_us) {
            /* The wall limit is for programs that sleep or block: time spent runnable but waiting for a
             * CPU a busy machine did not give does not count (up to WALL_STRETCH times the limit). */
            wait_us = run_wait_us();
            if (wait_us > waited_grace_us && wall_us < WALL_STRETCH * rq->wall_ms * 1000L) {
                waited_grace_us = wait_us;
                continue;
            }
            killed = "wall";
            kill_all(pid);
            break;
        }
        /* the CPU time of every process of the run, the program's own exactly */
        struct timespec cpu;
        long own_ms = have_clock && clock_gettime(cpu_clock, &cpu) == 0 ? cpu.tv_sec * 1000L + cpu.tv_nsec / 1000000 : 0;
        own_ms -= before_us / 1000;
        long all_ms = run_cpu_us(acct) / 1000;
        if (rq->cpu_ms > 0 && (own_ms > rq->cpu_ms || all_ms > rq->cpu_ms)) {
            killed = "cpu";
            kill_all(pid);
            break;
        }
    }
    struct rusage ru;
    int status = 0;
    while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
    }
    clock_gettime(CLOCK_MONOTONIC, &now);
    /* No process outlives the run: kill and reap the rest before the next run starts. What is left is
     * sampled first (with cgroups only for the count of processes left, so only when there are any).
     * In a PID namespace every process of the run is this init's child once its parent is gone: no
     * child left is no process left, and nothing to kill (kill(-1) walks every process of the host). */
    int left = run_has_processes();
    if (!use_cgroups || left) sample_processes(acct, 1);
    if (left || !use_pidns) reap_all(pid);
    /* the CPU count ends here, as the last process is gone: the init's own work from here (and the
     * switches to another CPU that would charge it) is not the run's */
    if (use_cgroups) acct->cpu_end_ns = read_long_fd(acct->cpu_fd);
    int next_waiting = mark_ready(turn->next_waiting);
    int own_box = allowlist_root && use_mountns;
    unsigned got = own_box ? 0 : get_files(rq);
    if (!own_box) reset_box(); /* the work dir every run shares: empty before the next one */
    /* Nothing of this run is left: the next program may start now (the judge has it queued), before
     * this init reads its totals and replies. */
    pass_mark(turn->baton);
    if (next_waiting) leave_program_cpu();
    char totals[256];
    finish_accounting(acct, totals, sizeof totals);
    if (own_box) got = get_files(rq);
    /* Close every file fd before replying: a written binary still open here could not be executed
     * (ETXTBSY) by the judge's next run. */
    for (int i = 0; i < rq->nfiles; i++) close(rq->fds[3 + i]);
    long utime = ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec;
    long stime = ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
    long from_user = before_us < utime ? before_us : utime; /* the time before its turn, taken off */
    utime -= from_user;
    stime = stime > before_us - from_user ? stime - (before_us - from_user) : 0;
    char out[1024];
    snprintf(out, sizeof out,
             "status=%s code=%d sig=%d utime_us=%ld stime_us=%ld maxrss_kb=%ld wall_us=%ld killed=%s "
             "exec_errno=%d got=%u wait_us=%ld%s",
             exec_errno ? "exec_failed" : WIFSIGNALED(status) ? "signaled" : "exited",
             WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
             utime, stime, ru.ru_maxrss, elapsed_us(&t0, &now), killed, exec_errno, got, wait_us, totals);
    /* Reply from here rather than through the server: namespace teardown and the server's waitpid
     * then happen while the judge is already checking the output. */
    reply_in_turn(turn, report_fd, out);
}

/* ---- Network: a run's own network namespace, made at its first socket ----
 *
 * Making a network namespace costs the kernel about 0.6 ms of CPU (and as much again to tear it down),
 * every run, while most programs never open a socket. So the runs of a slot share the slot's namespace,
 * in which they can do nothing: every socket and socketpair call of a run stops at a seccomp listener
 * (NET_FILTER) that the net helper, a process of the server outside every filter, answers. At a run's
 * first socket the helper makes that run a namespace of its own (loopback up at its first non-unix
 * socket), makes the socket there with the program's rights (the run's user, no capabilities) and puts
 * it into the program's fd table (SECCOMP_IOCTL_NOTIF_ADDFD); later sockets of the run go to the same
 * namespace, which dies with the run. Without a socket no process can change the shared namespace: no
 * packet can be sent or received, no name bound, no address, route or sysctl set (/proc/sys/net needs
 * the namespace's root), and only the server and the helper's one socket pair live there. What a run
 * sees of it (/proc/net: a loopback that is down, zero counters, that socket pair) is the same for every
 * run of the slot. */
#define NET_RUNS 32 /* runs the helper keeps a listener of: more than can be in flight at once */

struct net_run {
    int listener, netns; /* netns: -1 until the run's first socket */
    int loopback_up;
};

/* Whether a run's socket calls can be answered by a listener: 2 with SECCOMP_ADDFD_FLAG_SEND, 1 with
 * ADDFD alone, 0 not at all. Asked of a notification that does not exist (ENOENT: the call is known). */
static int net_listener_works(void) {
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
        int fd = install_net_filter();
        if (fd < 0) _exit(0);
        struct seccomp_notif_addfd add = {0, SECCOMP_ADDFD_FLAG_SEND, (uint32_t)fd, 0, 0};
        if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0 && errno == ENOENT) _exit(2);
        add.flags = 0;
        _exit(ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0 && errno == ENOENT ? 1 : 0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status)) return 0;
    return WEXITSTATUS(status);
}

static int send_listener(int listener);

/* The network filter on this process (and so on the program it starts), its listener given to the
 * helper. Done once the request is in (the run before may still be going): by the init for a program it
 * execs, by a warm program's process for itself, so that the init's own moves on and off the programs'
 * CPU do not wait for the helper. */
static int listen_for_run(void) {
    int listener = install_net_filter();
    if (listener < 0) return -1;
    int r = send_listener(listener);
    close(listener);
    return r;
}

/* Hand a run's listener to the helper. */
static int send_listener(int listener) {
    char mark = 'l', cbuf[CMSG_SPACE(sizeof(int))];
    struct iovec iov = {&mark, 1};
    struct msghdr msg = {0};
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = cbuf;
    msg.msg_controllen = sizeof cbuf;
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &listener, sizeof(int));
    return sendmsg(NET_FD, &msg, MSG_NOSIGNAL) == 1 ? 0 : -1;
}

static struct __user_cap_data_struct net_caps[_LINUX_CAPABILITY_U32S_3];

/* The helper takes the program's rights (the run's user, no effective capability) to make a socket,
 * and back its own afterwards: a socket keeps the rights of its maker (f_cred), which some checks read. */
static void as_program(int on) {
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
    memcpy(data, net_caps, sizeof data);
    if (on) {
        /* as root, the uid change itself clears the effective set; then a normal user's goes */
        if (setegid(run_gid) < 0 || seteuid(run_uid) < 0) _exit(1);
        for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) data[i].effective = 0;
        syscall(SYS_capset, &head, data);
    } else {
        if (seteuid(0) < 0 && geteuid() != run_uid) _exit(1);
        if (setegid(0) < 0 && getegid() != run_gid) _exit(1);
        syscall(SYS_capset, &head, data);
    }
}

static void bring_loopback_up(void) {
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    strcpy(ifr.ifr_name, "lo");
    if (s >= 0 && ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
        ifr.ifr_flags |= IFF_UP;
        ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    if (s >= 0) close(s);
}

/* Into the run's namespace, made now at its first socket; 0 or an errno. `here`: the run whose
 * namespace the helper is in (NULL: the shared one). */
static int enter_run_netns(struct net_run *run, struct net_run **here, int domain) {
    if (run->netns < 0) {
        if (unshare(CLONE_NEWNET) < 0) return errno;
        *here = run;
        run->netns = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
        if (run->netns < 0) return errno;
    } else if (*here != run) {
        if (setns(run->netns, CLONE_NEWNET) < 0) return errno;
        *here = run;
    }
    if (domain != AF_UNIX && !run->loopback_up) {
        bring_loopback_up();
        run->loopback_up = 1;
    }
    return 0;
}

/* Put `fd` into the program's fd table; its number there, or -1. With `answer`, the call returns it. */
static int add_fd(int listener, uint64_t id, int fd, int cloexec, int answer) {
    struct seccomp_notif_addfd add = {id, answer && addfd_send ? SECCOMP_ADDFD_FLAG_SEND : 0, (uint32_t)fd, 0,
                                      cloexec ? O_CLOEXEC : 0};
    int remote = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
    if (remote >= 0 && answer && !addfd_send) {
        struct seccomp_notif_resp resp = {id, remote, 0, 0};
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
    }
    return remote;
}

/* Write the two fd numbers of a socketpair where the program asked; 0 or an errno. */
static int write_pair(int listener, const struct seccomp_notif *req, const int *remote) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%u/mem", req->pid);
    int mem = open(path, O_WRONLY | O_CLOEXEC);
    if (mem < 0) return errno;
    int err = 0;
    /* still the process that asked (its memory, not that of a process given its pid since) */
    if (ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) err = errno;
    else if (pwrite(mem, remote, 2 * sizeof(int), (off_t)req->data.args[3]) != 2 * sizeof(int)) err = EFAULT;
    close(mem);
    return err;
}

/* The last pid of a task's NSpid line (its pid in its own PID namespace), or -1. */
static long own_ns_pid(const char *status_path) {
    char buf[2048];
    int fd = open(status_path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    char *line = strstr(buf, "\nNSpid:");
    if (!line) return -1;
    char *end = strchr(line + 1, '\n');
    if (end) *end = 0;
    char *last = strrchr(line, '\t');
    return last ? atol(last + 1) : -1;
}

/* The thread (in the helper's PID namespace) that `wanted` names in the PID namespace of thread `caller`;
 * -1 when there is none. */
static pid_t thread_of_run(pid_t caller, long wanted) {
    char path[300], ns[64], other[64];
    snprintf(path, sizeof path, "/proc/%d/ns/pid", caller);
    ssize_t len = readlink(path, ns, sizeof ns);
    DIR *proc = len > 0 ? opendir("/proc") : NULL;
    if (!proc) return -1;
    pid_t found = -1;
    struct dirent *e;
    while (found < 0 && (e = readdir(proc))) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;
        snprintf(path, sizeof path, "/proc/%s/ns/pid", e->d_name);
        if (readlink(path, other, sizeof other) != len || memcmp(ns, other, (size_t)len) != 0) continue;
        snprintf(path, sizeof path, "/proc/%s/task", e->d_name);
        DIR *tasks = opendir(path);
        struct dirent *t;
        while (tasks && found < 0 && (t = readdir(tasks))) {
            if (t->d_name[0] == '.') continue;
            char status[600];
            snprintf(status, sizeof status, "/proc/%s/task/%s/status", e->d_name, t->d_name);
            if (own_ns_pid(status) == wanted) found = (pid_t)atol(t->d_name);
        }
        if (tasks) closedir(tasks);
    }
    closedir(proc);
    return found;
}

/* Answer a sched_setaffinity of a run. Its init (pid 1 there) moves itself and a warm program's process
 * on and off the programs' CPU: its call goes through as asked. A program's is done by the helper with
 * the mask cut down to the programs' CPU (as a cpuset would; none left: EINVAL), so a run never spreads
 * to the CPU of another slot, whatever it asks. */
static void answer_affinity_call(int listener, const struct seccomp_notif *req) {
    struct seccomp_notif_resp resp = {req->id, 0, 0, 0};
    char path[64];
    snprintf(path, sizeof path, "/proc/%u/status", req->pid);
    if (program_cpu < 0 || own_ns_pid(path) == 1) {
        resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
        ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
        return;
    }
    cpu_set_t asked, allowed;
    CPU_ZERO(&asked);
    CPU_ZERO(&allowed);
    size_t size = req->data.args[1] < sizeof asked ? (size_t)req->data.args[1] : sizeof asked;
    snprintf(path, sizeof path, "/proc/%u/mem", req->pid);
    int mem = open(path, O_RDONLY | O_CLOEXEC), err = 0;
    if (mem < 0 || ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) err = ESRCH;
    else if (pread(mem, &asked, size, (off_t)req->data.args[2]) != (ssize_t)size) err = EFAULT;
    if (mem >= 0) close(mem);
    pid_t target = (pid_t)req->data.args[0] == 0 ? (pid_t)req->pid : thread_of_run((pid_t)req->pid, (long)(pid_t)req->data.args[0]);
    if (!err && target < 0) err = ESRCH;
    if (!err && CPU_ISSET(program_cpu, &asked)) CPU_SET(program_cpu, &allowed);
    if (!err && CPU_COUNT(&allowed) == 0) err = EINVAL;
    if (!err && sched_setaffinity(target, sizeof allowed, &allowed) < 0) err = errno;
    resp.error = -err;
    ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/* Answer one call of a run. */
static void answer_call(struct net_run *run, struct net_run **here) {
    struct seccomp_notif req;
    memset(&req, 0, sizeof req);
    if (ioctl(run->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) return; /* the caller is gone */
    if (req.data.nr == SYS_sched_setaffinity) {
        answer_affinity_call(run->listener, &req);
        return;
    }
    int domain = (int)req.data.args[0], type = (int)req.data.args[1], protocol = (int)req.data.args[2];
    int pair = req.data.nr == SYS_socketpair, fds[2] = {-1, -1};
    int err = enter_run_netns(run, here, domain);
    if (!err) {
        as_program(1);
        if ((pair ? socketpair(domain, type, protocol, fds) : (fds[0] = socket(domain, type, protocol))) < 0) err = errno;
        as_program(0);
    }
    int cloexec = (type & SOCK_CLOEXEC) != 0;
    if (!err && !pair && add_fd(run->listener, req.id, fds[0], cloexec, 1) < 0) err = errno;
    if (!err && pair) {
        int remote[2] = {add_fd(run->listener, req.id, fds[0], cloexec, 0), -1};
        if (remote[0] >= 0) remote[1] = add_fd(run->listener, req.id, fds[1], cloexec, 0);
        err = remote[1] < 0 ? errno : write_pair(run->listener, &req, remote);
        if (!err) {
            struct seccomp_notif_resp resp = {req.id, 0, 0, 0};
            ioctl(run->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
        }
    }
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) close(fds[i]);
    if (err) {
        struct seccomp_notif_resp resp = {req.id, 0, -err, 0};
        ioctl(run->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
    }
}

/* One message on `sock` into buf (NUL room kept) and the fds that came with it (past MAX_FDS closed); the
 * length (<= 0: the other end went away). */
static ssize_t receive(int sock, char *buf, size_t size, int *fds, int *nfds) {
    char cbuf[CMSG_SPACE(sizeof(int) * MAX_FDS)];
    struct iovec iov = {buf, size - 1};
    struct msghdr msg = {0};
    ssize_t len;
    msg.msg_iov = &iov;
    msg.msg_iovlen = 1;
    msg.msg_control = cbuf;
    msg.msg_controllen = sizeof cbuf;
    do len = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
    while (len < 0 && errno == EINTR);
    *nfds = 0;
    if (len <= 0) return len;
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
            int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
            for (int i = 0; i < k; i++) {
                int fd;
                memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                if (*nfds < MAX_FDS) fds[(*nfds)++] = fd;
                else close(fd);
            }
        }
    }
    return len;
}

/* The net helper: takes every init's listener and answers its run's socket calls until the server ends.
 * A run's listener hangs up once its last process is gone; its namespace goes with it. */
static void net_helper(int sock) {
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    struct __user_cap_header_struct head = {_LINUX_CAPABILITY_VERSION_3, 0};
    if (syscall(SYS_capget, &head, net_caps) < 0) _exit(1);
    int shared = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    struct net_run runs[NET_RUNS], *here = NULL;
    struct pollfd polls[NET_RUNS + 1];
    int nruns = 0;
    for (;;) {
        polls[0] = (struct pollfd){sock, POLLIN, 0};
        for (int i = 0; i < nruns; i++) polls[i + 1] = (struct pollfd){runs[i].listener, POLLIN, 0};
        if (poll(polls, (nfds_t)nruns + 1, -1) < 0) {
            if (errno == EINTR) continue;
            _exit(1);
        }
        for (int i = nruns - 1; i >= 0; i--) {
            short ev = polls[i + 1].revents;
            if (ev & POLLIN) answer_call(&runs[i], &here);
            else if (ev & (POLLHUP | POLLERR | POLLNVAL)) {
                if (here == &runs[i]) { /* out of it, so that it can go */
                    if (setns(shared, CLONE_NEWNET) < 0) _exit(1);
                    here = NULL;
                }
                close(runs[i].listener);
                if (runs[i].netns >= 0) close(runs[i].netns);
                runs[i] = runs[--nruns];
                if (here == &runs[nruns]) here = &runs[i];
            }
        }
        if (polls[0].revents) {
            int fds[MAX_FDS], nfds;
            char mark[2];
            if (receive(sock, mark, sizeof mark, fds, &nfds) <= 0) _exit(0); /* the server is gone */
            for (int i = 0; i < nfds; i++) {
                /* no room (never, with at most MAX_BUSY runs in flight): its socket calls fail (ENOSYS) */
                if (nruns == NET_RUNS) close(fds[i]);
                else runs[nruns++] = (struct net_run){fds[i], -1, 0};
            }
        }
    }
}

/* Start the net helper, before the first init; -1 when it could not be. */
static int start_net_helper(void) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, pair) < 0) return -1;
    pid_t pid = fork();
    if (pid == 0) {
        close(pair[0]);
        close(SOCK_FD);
        leave_program_cpu();
        net_helper(pair[1]);
    }
    close(pair[1]);
    if (pid < 0) {
        close(pair[0]);
        return -1;
    }
    NET_FD = pair[0];
    return 0;
}

static void reply(const char *text) {
    send(SOCK_FD, text, strlen(text), MSG_NOSIGNAL);
}


#define INIT_JUDGE_GONE 3

/* The init of the next run, started before its request: mounts and filter first, then it says it is
 * ready ('w' on `taken`: the server pins it to the programs' CPU while it sleeps), takes its request
 * ('r') and stages its files (off that CPU while the run before goes there), says it waits and waits for
 * its turn there: the baton of the run before it (see struct turn). It marks its own `baton` once
 * nothing of its run is left, and again once it has replied. */
static void init_main(int taken, struct handover before, int baton, int next_waiting, long seq) {
    int after = before.after;
    static char buf[MAX_MSG];
    struct request rq;
    int fds[MAX_FDS], nfds;
    char why[64] = "";
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* without a PID namespace, the orphans a program leaves come here to be killed and reaped */
    if (!use_pidns) prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    int ready = mount_run(why, sizeof why);
    struct accounting acct;
    init_accounting(&acct);
    if (ready == 0 && join_run_cgroups(seq, &acct) < 0) {
        snprintf(why, sizeof why, "cgroup:%d", errno);
        ready = -1;
    }
    /* Installed here, ahead of the request, and inherited by the program: compiling the filter at
     * every fork cost each run about 0.1 ms. */
    if (ready == 0 && use_seccomp && (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || install_filter() < 0)) {
        snprintf(why, sizeof why, "seccomp:%d", errno);
        ready = -1;
    }
    /* ready: the server pins it to the programs' CPU while it sleeps (no migration) */
    if (write(taken, "w", 1) != 1) {
    }
    ssize_t len = receive(SOCK_FD, buf, sizeof buf, fds, &nfds);
    if (len <= 0) _exit(INIT_JUDGE_GONE);
    if (write(taken, "r", 1) != 1) {
    }
    close(taken);
    /* The request is read and its files are in place while the run before may still be going: then on
     * another CPU than the program running, and back to sleep here until its turn. When that run is
     * over already (the judge sends one run at a time), here at once. */
    int run_before_going = after >= 0 && !mark_ready(after);
    if (run_before_going) leave_program_cpu();
    const char *error = NULL;
    char out[96];
    if (nfds < 3 || parse_request(buf, (size_t)len, &rq) < 0 || nfds != 3 + rq.nfiles) {
        error = "bad-request";
    } else {
        memcpy(rq.fds, fds, sizeof(int) * (size_t)nfds);
        if (ready < 0 || prepare_run(&rq, why, sizeof why) < 0) error = why;
        else if (limit_run_cgroups(&rq, &acct) < 0) error = "cgroup-limits";
        else if (lazy_netns && !(rq.warm && warm_server) && listen_for_run() < 0) error = "net-listener";
        else if (rq.warm && warm_server && warm_fork_ahead(&rq) < 0) error = "fork";
    }
    if (NET_FD >= 0) close(NET_FD);
    if (error)
        for (int i = 0; i < nfds; i++) close(fds[i]);
    /* The baselines of a program it execs: nothing of the run has started yet (a warm program's
     * process has: its baselines are taken at its turn). */
    else if (!(rq.warm && warm_server)) start_accounting(&rq, &acct);
    if (run_before_going) pin_to_program_cpu(0);
    /* ... and the program starts the moment nothing of the run before is left (or the server has
     * answered for it). */
    struct turn turn = {before, baton, next_waiting};
    if (before.waiting >= 0 && write(before.waiting, "q", 1) != 1) {
    }
    await_mark(after);
    if (error) {
        snprintf(out, sizeof out, "status=error msg=%s", error);
        pass_mark(baton);
        reply_in_turn(&turn, SOCK_FD, out);
    } else {
        run_init(&rq, &acct, SOCK_FD, &turn);
    }
    close_accounting(&acct);
    /* Replied. What is left of this run, its exit and the teardown of its namespaces, is kernel work
     * that nothing preempts on most kernels (about 0.1 ms): it is done on another CPU, at the lowest
     * priority, while the next program runs. */
    leave_program_cpu();
    setpriority(PRIO_PROCESS, 0, 19);
    _exit(0);
}

/* Start the init of the next run, to follow the run `before` hands over (-1s: none). Its pid; in *taken
 * the pipe it marks when it is ready and when it takes a request, in *next what it hands over to the run
 * after it (see struct turn), and in *baton_out its baton's write end, kept by the server to pass the
 * turn for it should it die. */
static long spawn_init(unsigned long flags, struct handover before, long seq, int *taken, struct handover *next,
                       int *baton_out) {
    int t[2] = {-1, -1}, b[2] = {-1, -1}, w[2] = {-1, -1};
    if (pipe2(t, O_CLOEXEC) < 0 || pipe2(b, O_CLOEXEC) < 0 || pipe2(w, O_CLOEXEC) < 0) {
        int e = errno;
        int *ends[] = {t, b, w};
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 2; k++)
                if (ends[i][k] >= 0) close(ends[i][k]);
        errno = e;
        return -1;
    }
    long pid = flags ? raw_clone(flags) : fork();
    if (pid == 0) {
        close(t[0]);
        close(b[0]);
        close(w[1]);
        init_main(t[1], before, b[1], w[0], seq);
    }
    int e = errno;
    close(t[1]);
    close(w[0]);
    if (pid < 0) {
        close(t[0]);
        close(b[0]);
        close(b[1]);
        close(w[1]);
        errno = e;
        return -1;
    }
    *taken = t[0];
    *next = (struct handover){b[0], w[1]};
    *baton_out = b[1];
    return pid;
}

#define MAX_BUSY 6 /* inits holding a request, or ended with their teardown lagging: past that the server waits */

struct busy_init {
    pid_t pid;
    int baton; /* the write end of its baton */
};

/* Reap the inits that took a request and have ended, in request order; then, unless `keep` < 0, wait
 * for the oldest until at most `keep` are left. An init replies itself and passes the turn; for one
 * that died first the server does both, so the judge never waits forever and replies stay in order. */
static void reap(struct busy_init *busy, int *nbusy, int keep) {
    while (*nbusy > 0) {
        int block = keep >= 0 && *nbusy > keep;
        int status = 0;
        pid_t r;
        do r = waitpid(busy[0].pid, &status, block ? 0 : WNOHANG);
        while (r < 0 && errno == EINTR);
        if (r == 0) return;
        if (r == busy[0].pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
            /* both marks of its baton (see struct turn), whichever it had made: the extra one is never read */
            reply("status=error msg=init-died");
            if (write(busy[0].baton, "dd", 2) != 2) {
            }
        }
        close(busy[0].baton);
        memmove(busy, busy + 1, sizeof *busy * (size_t)(*nbusy - 1));
        --*nbusy;
    }
}

/* The next mark an init writes on its `taken` pipe (0 when it ended first), reaping ended runs meanwhile. */
static char next_mark(int taken, struct busy_init *busy, int *nbusy) {
    struct pollfd p = {taken, POLLIN, 0};
    for (;;) {
        int r = poll(&p, 1, *nbusy ? 10 : -1);
        if (*nbusy) reap(busy, nbusy, -1);
        if (r > 0 || (r < 0 && errno != EINTR)) break;
    }
    char mark = 0;
    ssize_t n;
    do n = read(taken, &mark, 1);
    while (n < 0 && errno == EINTR);
    return n == 1 ? mark : 0;
}

static void close_handover(struct handover *h) {
    if (h->after >= 0) close(h->after);
    if (h->waiting >= 0) close(h->waiting);
    *h = (struct handover){-1, -1};
}

/* Wait until every run has ended and been answered for, and forget the last baton: the next init
 * starts afresh (after an init that could not be made, or that ended before its request). */
static void start_afresh(struct busy_init *busy, int *nbusy, struct handover *last) {
    reap(busy, nbusy, 0);
    close_handover(last);
}

/* The judge is gone: end the runs still going (their namespaces die with their inits) and wait for them. */
static int stop_runs(struct busy_init *busy, int nbusy) {
    for (int i = 0; i < nbusy; i++) kill(busy[i].pid, SIGKILL);
    for (int i = 0; i < nbusy; i++)
        while (waitpid(busy[i].pid, NULL, 0) < 0 && errno == EINTR) {
        }
    return 0;
}

/* The server: keep the next run's init ready. It is started as soon as the last one takes its request,
 * so namespaces and mounts are made, and the last run's torn down, while a program runs and the judge
 * checks the output before; the batons keep runs one after another. The server keeps off the
 * programs' CPU; at worst its work costs a program wall time, never CPU time. */
static int serve(void) {
    unsigned long flags = (use_pidns ? CLONE_NEWPID : 0) | (use_mountns ? CLONE_NEWNS : 0)
                          | (use_ipcns ? CLONE_NEWIPC : 0) | (use_netns && !lazy_netns ? CLONE_NEWNET : 0);
    struct busy_init busy[MAX_BUSY];
    int nbusy = 0;
    struct handover last = {-1, -1}; /* of the last init made, for the next */
    long seq = 0;
    leave_program_cpu();
    for (;;) {
        reap(busy, &nbusy, MAX_BUSY - 1);
        int taken, baton_out;
        struct handover next;
        long pid = spawn_init(flags, last, seq++, &taken, &next, &baton_out);
        if (pid < 0) {
            /* no init: once every run has ended, answer the next request with the reason, then retry */
            static char buf[MAX_MSG];
            int fds[MAX_FDS], nfds;
            char out[64];
            int e = errno;
            start_afresh(busy, &nbusy, &last);
            if (receive(SOCK_FD, buf, sizeof buf, fds, &nfds) <= 0) return 0;
            for (int i = 0; i < nfds; i++) close(fds[i]);
            snprintf(out, sizeof out, "status=error msg=clone:%d", e);
            reply(out);
            continue;
        }
        close_handover(&last);
        last = next;
        /* it says when it is ready ('w'), then when it takes a request ('r'); nothing: it ended */
        char mark = next_mark(taken, busy, &nbusy);
        if (mark == 'w') {
            pin_to_program_cpu((pid_t)pid);
            mark = next_mark(taken, busy, &nbusy);
        }
        int took_request = mark == 'r';
        close(taken);
        if (took_request) {
            busy[nbusy++] = (struct busy_init){(pid_t)pid, baton_out};
            continue;
        }
        close(baton_out);
        int status = 0;
        while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR) {
        }
        if (WIFEXITED(status) && WEXITSTATUS(status) == INIT_JUDGE_GONE) return stop_runs(busy, nbusy);
        start_afresh(busy, &nbusy, &last); /* it ended before its request */
    }
}

static int launcher(int argc, char **argv) {
    const char *root = NULL;
    char *hide[16], *ro[MAX_RO];
    int nhide = 0, nro = 0, cpu = -1, namespaces = 1, cgroups = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--root") && i + 1 < argc) root = argv[++i];
        else if (!strcmp(argv[i], "--hide") && i + 1 < argc && nhide < 16) hide[nhide++] = argv[++i];
        else if (!strcmp(argv[i], "--ro") && i + 1 < argc && nro < MAX_RO) ro[nro++] = argv[++i];
        else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) cpu = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sock") && i + 1 < argc) SOCK_FD = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--no-namespaces")) namespaces = 0;
        else if (!strcmp(argv[i], "--no-cgroups")) cgroups = 0;
        else if (!strcmp(argv[i], "--version")) {
            puts("cpbot-launcher 2");
            return 0;
        }
    }
    if (!root || root[0] != '/') {
        fprintf(stderr, "usage: launcher --root DIR --sock FD [--ro PATH]... [--hide DIR]... [--cpu N] [--no-namespaces] [--no-cgroups]\n");
        return 2;
    }
    for (int i = 0; i < nro; i++)
        if (ro[i][0] != '/') {
            fprintf(stderr, "launcher: --ro needs an absolute path: %s\n", ro[i]);
            return 2;
        }
    /* No PR_SET_PDEATHSIG here: it fires when the *thread* that started us ends, and the judge may
       start its sandbox from a short-lived worker thread. The judge's death closes our socket instead
       (recvmsg returns 0 below); a run in progress still ends at its own limits. */
    signal(SIGPIPE, SIG_IGN);
    program_cpu = cpu;
    online_cpus = sysconf(_SC_NPROCESSORS_ONLN);
    if (cgroups) setup_cgroups(); /* before the namespaces: /sys is not in the minimal root */
    isolate(root, ro, nro, hide, nhide, namespaces);
    note_accounting();
    char ready[900];
    snprintf(ready, sizeof ready, "ready %s", iso);
    reply(ready);
    int rc = serve();
    remove_cgroups();
    return rc;
}

#ifdef CPBOT_LAUNCHER_LIBRARY
#include <dlfcn.h>

/* The server inside a warm Python interpreter: 0 when the judge went away, 1 in a warm program's
 * process (the interpreter then runs the program; launcher_warm_request holds its request). */
static void (*after_fork)(void);
/* the interpreter's functions launcher_changed_globals reads a dict with (resolved with after_fork) */
typedef long py_ssize;
static int (*dict_next)(void *, py_ssize *, void **, void **);
static void *(*dict_get)(void *, void *);
static void *(*list_new)(py_ssize);
static int (*list_append)(void *, void *);
static void (*decref)(void *);
static void *str_type;

int launcher_main(int argc, char **argv) {
    /* the interpreter's own after-fork work (what os.fork runs in a child), called from here: through
     * ctypes it would cost the program's process a few dozen more pages of the server */
    after_fork = (void (*)(void))dlsym(RTLD_DEFAULT, "PyOS_AfterFork_Child");
    dict_next = (int (*)(void *, py_ssize *, void **, void **))dlsym(RTLD_DEFAULT, "PyDict_Next");
    dict_get = (void *(*)(void *, void *))dlsym(RTLD_DEFAULT, "PyDict_GetItem");
    list_new = (void *(*)(py_ssize))dlsym(RTLD_DEFAULT, "PyList_New");
    list_append = (int (*)(void *, void *))dlsym(RTLD_DEFAULT, "PyList_Append");
    decref = (void (*)(void *))dlsym(RTLD_DEFAULT, "Py_DecRef");
    str_type = dlsym(RTLD_DEFAULT, "PyUnicode_Type");
    if (!after_fork || !dict_next || !dict_get || !list_new || !list_append || !decref || !str_type) return -1;
    if (setjmp(warm_return)) {
        after_fork();
        return 1;
    }
    warm_server = 1;
    return launcher(argc, argv);
}

/* The names of a prelude's `__main__` (`globals`) a program made or changed: those not bound, under a str
 * key, to the very object the prelude left there (`prelude`, the server's copy of that dict), in the dict's
 * order; a new list. Read with borrowed references: the prelude's entries, some 600 objects of the server,
 * are never incref'd, so a program's process does not copy the pages they lie on to drop its globals.
 * NULL with an exception set on failure. Called through ctypes, the GIL held. */
void *launcher_changed_globals(void *globals, void *prelude) {
    void *changed = list_new(0);
    if (!changed) return NULL;
    py_ssize pos = 0;
    void *key, *value;
    while (dict_next(globals, &pos, &key, &value)) {
        /* exact str keys only: looking another key up could run the program's __hash__ or __eq__ */
        void *type = ((void **)key)[1]; /* ob_type, after ob_refcnt */
        if (type == str_type && dict_get(prelude, key) == value) continue;
        if (list_append(changed, key) < 0) {
            decref(changed);
            return NULL;
        }
    }
    return changed;
}
#else
int main(int argc, char **argv) {
    return launcher(argc, argv);
}
#endif
