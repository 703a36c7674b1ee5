/*
 * cpbot sandbox launcher: a small fork server that runs untrusted programs for the judge.
 *
 * Started once per judge slot with a SOCK_SEQPACKET socket (fd given by --sock). At start it isolates itself
 * (network, mount, IPC and UTS namespaces; everything read-only except its work dir) and sends a
 * "ready" message saying what it achieved. Then, per request, it starts an init process in a fresh
 * PID namespace, which forks the program with rlimits and (as root) the uid of nobody, watches its
 * CPU and wall time, kills the whole namespace on a limit, and reports the program's own rusage.
 * Python's own wait4 would report the judge's memory, and bubblewrap hides the child's CPU time:
 * measuring here, in the program's parent, avoids both.
 *
 * Request: one message of NUL-terminated "key=value" strings (cwd, cpu_ms, wall_ms, as_kb,
 * fsize, nproc, env (repeated), arg (repeated)) with three fds attached (stdin, stdout, stderr).
 * Reply: one text message "status=... code=... sig=... utime_us=... stime_us=... maxrss_kb=...
 * wall_us=... killed=... exec_errno=...".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_MSG 65536
#define MAX_ITEMS 512
#define NOBODY 65534

/* mount_setattr(2), declared here to avoid the glibc/kernel header clash. */
struct cp_mount_attr { uint64_t attr_set, attr_clr, propagation, userns_fd; };
#define CP_ATTR_RDONLY 0x00000001ULL
#define CP_ATTR_NOSUID 0x00000002ULL
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

static int SOCK_FD = 3;
static int use_pidns = 0;
static int drop_to_nobody = 0;
static char iso[512] = "";

static void note(const char *key, const char *value) {
    size_t n = strlen(iso);
    snprintf(iso + n, sizeof iso - n, "%s%s=%s", n ? " " : "", key, value);
}

static int write_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
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

/* Isolate the server itself once; every program it starts inherits this. */
static void isolate(const char *workdir, char **hide, int nhide) {
    uid_t uid = geteuid();
    gid_t gid = getegid();
    int ns = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;
    int ok;
    char map[64];

    if (uid == 0) {
        ok = unshare(ns) == 0;
    } else {
        /* A normal user gets the rights to make namespaces from a user namespace mapping itself. */
        ok = unshare(CLONE_NEWUSER | ns) == 0;
        if (ok) {
            write_file("/proc/self/setgroups", "deny");
            snprintf(map, sizeof map, "%u %u 1", uid, uid);
            ok = write_file("/proc/self/uid_map", map) == 0;
            snprintf(map, sizeof map, "%u %u 1", gid, gid);
            ok = ok && write_file("/proc/self/gid_map", map) == 0;
        }
    }
    if (!ok) {
        char why[96];
        snprintf(why, sizeof why, "none(unshare:%s)", strerror(errno));
        for (char *p = why; *p; p++)
            if (*p == ' ') *p = '_';
        note("network", why);
        note("filesystem", why);
    } else {
        note("network", "namespace");
        int fs = mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0
                 && mount(workdir, workdir, NULL, MS_BIND | MS_REC, NULL) == 0
                 && set_mount_attr("/", AT_RECURSIVE, CP_ATTR_RDONLY | CP_ATTR_NOSUID, 0) == 0
                 && set_mount_attr(workdir, AT_RECURSIVE, 0, CP_ATTR_RDONLY) == 0;
        note("filesystem", fs ? "read-only-except-workdir" : "none(mount-failed)");
        for (int i = 0; fs && i < nhide; i++) {
            /* Hide cpbot's own config and data (credentials) from programs. */
            struct stat st;
            if (stat(hide[i], &st) == 0 && S_ISDIR(st.st_mode))
                mount("none", hide[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k");
        }
    }

    long pid = raw_clone(CLONE_NEWPID);
    if (pid == 0) _exit(0);
    if (pid > 0) {
        waitpid((pid_t)pid, NULL, 0);
        use_pidns = 1;
    }
    note("processes", use_pidns ? "pid-namespace" : "process-group");
    drop_to_nobody = uid == 0;
    note("user", drop_to_nobody ? "nobody" : "self");
    note("fork_limit", "rlimit-nproc");
}

struct request {
    char *cwd;
    long cpu_ms, wall_ms, as_kb, fsize, nproc;
    char *argv[MAX_ITEMS];
    char *envp[MAX_ITEMS];
    int fds[3];
};

static int parse_request(char *buf, size_t len, struct request *rq) {
    int na = 0, ne = 0;
    rq->cwd = NULL;
    rq->cpu_ms = rq->wall_ms = rq->as_kb = rq->fsize = rq->nproc = 0;
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
        else if (!strcmp(item, "arg") && na < MAX_ITEMS - 1) rq->argv[na++] = v;
        else if (!strcmp(item, "env") && ne < MAX_ITEMS - 1) rq->envp[ne++] = v;
        else return -1;
    }
    rq->argv[na] = NULL;
    rq->envp[ne] = NULL;
    return (na > 0 && rq->cwd) ? 0 : -1;
}

static void set_limit(int resource, long value) {
    struct rlimit rl = {(rlim_t)value, (rlim_t)value};
    if (value < 0) rl.rlim_cur = rl.rlim_max = RLIM_INFINITY;
    setrlimit(resource, &rl);
}

/* In the program's process, between fork and exec. Never returns. */
static void exec_program(struct request *rq, int errfd) {
    if (!use_pidns) setpgid(0, 0);
    if (dup2(rq->fds[0], 0) < 0 || dup2(rq->fds[1], 1) < 0 || dup2(rq->fds[2], 2) < 0) goto fail;
    /* Everything past stderr closes at exec, errfd included (it is how exec failure is told). */
    syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC_FLAG);
    if (chdir(rq->cwd) < 0) goto fail;
    set_limit(RLIMIT_STACK, -1);
    set_limit(RLIMIT_CORE, 0);
    if (rq->as_kb > 0) set_limit(RLIMIT_AS, rq->as_kb * 1024);
    if (rq->fsize > 0) set_limit(RLIMIT_FSIZE, rq->fsize);
    if (rq->nproc > 0) set_limit(RLIMIT_NPROC, rq->nproc);
    if (rq->cpu_ms > 0) {
        /* A backstop only: init kills on the measured CPU time long before this. */
        struct rlimit rl = {(rlim_t)(rq->cpu_ms / 1000 + 2), (rlim_t)(rq->cpu_ms / 1000 + 3)};
        setrlimit(RLIMIT_CPU, &rl);
    }
    if (drop_to_nobody) {
        if (setgroups(0, NULL) < 0 || setgid(NOBODY) < 0 || setuid(NOBODY) < 0) goto fail;
    }
    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    execve(rq->argv[0], rq->argv, rq->envp);
fail:;
    int e = errno;
    ssize_t w = write(errfd, &e, sizeof e);
    (void)w;
    _exit(127);
}

static long elapsed_us(const struct timespec *a, const struct timespec *b) {
    return (b->tv_sec - a->tv_sec) * 1000000L + (b->tv_nsec - a->tv_nsec) / 1000;
}

static void kill_all(pid_t pid) {
    if (use_pidns) kill(-1, SIGKILL); /* from pid 1: everything in the namespace */
    else kill(-pid, SIGKILL);
}

/* The init of one run: start the program, watch it, report on the judge's socket. */
static void run_init(struct request *rq, int report_fd) {
    struct timespec t0, now;
    int errpipe[2];
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (pipe2(errpipe, O_CLOEXEC) < 0) _exit(1);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid_t pid = fork();
    if (pid < 0) {
        char out[64];
        snprintf(out, sizeof out, "status=error msg=fork:%d", errno);
        send(report_fd, out, strlen(out), MSG_NOSIGNAL);
        _exit(0); /* reported */
    }
    if (pid == 0) exec_program(rq, errpipe[1]);
    close(errpipe[1]);
    close(rq->fds[0]);
    close(rq->fds[1]);
    close(rq->fds[2]);

    int exec_errno = 0;
    if (read(errpipe[0], &exec_errno, sizeof exec_errno) != sizeof exec_errno) exec_errno = 0;
    close(errpipe[0]);

    const char *killed = "none";
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
        if (rq->wall_ms > 0 && elapsed_us(&t0, &now) > rq->wall_ms * 1000L) {
            killed = "wall";
            kill_all(pid);
            break;
        }
        struct timespec cpu;
        if (rq->cpu_ms > 0 && have_clock && clock_gettime(cpu_clock, &cpu) == 0
            && cpu.tv_sec * 1000L + cpu.tv_nsec / 1000000 > rq->cpu_ms) {
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
    /* No process outlives the verdict: kill the rest before reporting. */
    kill_all(pid);
    long utime = ru.ru_utime.tv_sec * 1000000L + ru.ru_utime.tv_usec;
    long stime = ru.ru_stime.tv_sec * 1000000L + ru.ru_stime.tv_usec;
    char out[1024];
    snprintf(out, sizeof out,
            "status=%s code=%d sig=%d utime_us=%ld stime_us=%ld maxrss_kb=%ld wall_us=%ld killed=%s "
            "exec_errno=%d",
            exec_errno ? "exec_failed" : WIFSIGNALED(status) ? "signaled" : "exited",
            WIFEXITED(status) ? WEXITSTATUS(status) : -1, WIFSIGNALED(status) ? WTERMSIG(status) : 0,
            utime, stime, ru.ru_maxrss, elapsed_us(&t0, &now), killed, exec_errno);
    /* Reply from here rather than through the server: namespace teardown and the server's waitpid
     * then happen while the judge is already checking the output. */
    send(report_fd, out, strlen(out), MSG_NOSIGNAL);
}

static void reply(const char *text) {
    send(SOCK_FD, text, strlen(text), MSG_NOSIGNAL);
}

static void serve_one(char *buf, ssize_t len, int *fds, int nfds) {
    struct request rq;
    char out[128];
    if (nfds != 3 || parse_request(buf, (size_t)len, &rq) < 0) {
        for (int i = 0; i < nfds; i++) close(fds[i]);
        reply("status=error msg=bad-request");
        return;
    }
    memcpy(rq.fds, fds, sizeof rq.fds);
    long pid = use_pidns ? raw_clone(CLONE_NEWPID) : fork();
    if (pid == 0) {
        run_init(&rq, SOCK_FD);
        _exit(0);
    }
    for (int i = 0; i < 3; i++) close(fds[i]);
    if (pid < 0) {
        snprintf(out, sizeof out, "status=error msg=clone:%d", errno);
        reply(out);
        return;
    }
    int status = 0;
    while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR) {
    }
    /* init replies itself; if it died before that, say so (the judge then reads two replies
     * at most once: a dead init never sent its own). */
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0)) reply("status=error msg=init-died");
}

int main(int argc, char **argv) {
    const char *workdir = NULL;
    char *hide[16];
    int nhide = 0, cpu = -1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--workdir") && i + 1 < argc) workdir = argv[++i];
        else if (!strcmp(argv[i], "--hide") && i + 1 < argc && nhide < 16) hide[nhide++] = argv[++i];
        else if (!strcmp(argv[i], "--cpu") && i + 1 < argc) cpu = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sock") && i + 1 < argc) SOCK_FD = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--version")) {
            puts("cpbot-launcher 1");
            return 0;
        }
    }
    if (!workdir) {
        fprintf(stderr, "usage: launcher --workdir DIR --sock FD [--hide DIR]... [--cpu N]\n");
        return 2;
    }
    /* No PR_SET_PDEATHSIG here: it fires when the *thread* that started us ends, and the judge may
       start its sandbox from a short-lived worker thread. The judge's death closes our socket instead
       (recvmsg returns 0 below); a run in progress still ends at its own limits. */
    signal(SIGPIPE, SIG_IGN);
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        sched_setaffinity(0, sizeof set, &set);
    }
    isolate(workdir, hide, nhide);
    char ready[600];
    snprintf(ready, sizeof ready, "ready %s", iso);
    reply(ready);

    static char buf[MAX_MSG];
    for (;;) {
        char cbuf[CMSG_SPACE(sizeof(int) * 3)];
        struct iovec iov = {buf, sizeof buf - 1};
        struct msghdr msg = {0};
        msg.msg_iov = &iov;
        msg.msg_iovlen = 1;
        msg.msg_control = cbuf;
        msg.msg_controllen = sizeof cbuf;
        ssize_t len = recvmsg(SOCK_FD, &msg, MSG_CMSG_CLOEXEC);
        if (len < 0 && errno == EINTR) continue;
        if (len <= 0) return 0; /* the judge went away */
        int fds[3], nfds = 0;
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
            if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
                int k = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
                for (int i = 0; i < k; i++) {
                    int fd;
                    memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
                    if (nfds < 3) fds[nfds++] = fd;
                    else close(fd);
                }
            }
        }
        serve_one(buf, len, fds, nfds);
    }
}
