"""Runs queued in one slot: one after another, replies in order, each with its own fresh namespaces."""

from __future__ import annotations

import os
import signal

import pytest

from cpbot.judge.sandbox import RunLimits
from tests.judge.slot_support import parent_pid, processes_with

LIMITS = RunLimits(cpu_ms=5000, wall_ms=10000)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_queued_runs_never_overlap_and_reply_in_order(sandbox):
    # all three write to one pipe: if a run started before the last one ended, the marks would interleave
    read_end, write_end = os.pipe()
    script = "echo {n}-start; sleep 0.2; echo {n}-end; exit {n}"
    with sandbox.slot() as slot:
        for n in (1, 2, 3):
            slot.start(["/bin/sh", "-c", script.format(n=n)], stdin=None, stdout=write_end, stderr=2, limits=LIMITS)
        results = [slot.wait() for _ in range(3)]
    os.close(write_end)
    marks = _read_all(read_end).decode().split()
    os.close(read_end)
    assert marks == ["1-start", "1-end", "2-start", "2-end", "3-start", "3-end"]
    assert [r.exit_code for r in results] == [1, 2, 3]


def test_replies_stay_in_order_when_the_next_run_ends_while_the_last_one_still_copies_out(sandbox):
    # the next run starts as soon as the first one's processes are gone, while the first one's init still
    # copies its 64 MB file out: the quick second run must not answer first
    big, out = os.memfd_create("big"), os.memfd_create("out")
    write_big = "head -c 67108864 /dev/zero > big; exit 5"
    try:
        with sandbox.slot() as slot:
            slot.start(
                ["/bin/sh", "-c", write_big], stdin=None, stdout=out, stderr=out, limits=LIMITS, collect={"big": big}
            )
            slot.start(["/bin/sh", "-c", "exit 6"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            first, second = slot.wait(), slot.wait()
        assert (first.exit_code, first.collected) == (5, ["big"]) and os.fstat(big).st_size == 64 << 20
        assert (second.exit_code, second.collected) == (6, [])
    finally:
        os.close(big)
        os.close(out)


def test_a_failed_run_in_the_queue_does_not_disturb_the_next(sandbox):
    out = os.memfd_create("out")
    try:
        with sandbox.slot() as slot:
            slot.start(["/nonexistent/program"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            slot.start(["/bin/sh", "-c", "echo fine"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            missing, fine = slot.wait(), slot.wait()
        assert missing.status == "exec_failed" and missing.exec_errno != 0
        assert fine.ok and os.pread(out, 100, 0) == b"fine\n"
    finally:
        os.close(out)


def test_queued_runs_each_get_a_fresh_work_dir_and_ipc_namespace(sandbox):
    out = os.memfd_create("out")
    leave = "touch left-behind; ipcmk -M 4096 >/dev/null; echo left"
    look = "ls -A; ipcs -m | grep -c '^0x' || true"
    try:
        with sandbox.slot() as slot:
            slot.start(["/bin/sh", "-c", leave], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            later = os.memfd_create("later")
            slot.start(["/bin/sh", "-c", look], stdin=None, stdout=later, stderr=later, limits=LIMITS)
            first, second = slot.wait(), slot.wait()
        assert first.ok and second.ok
        assert os.pread(later, 4096, 0).decode().split() == ["0"]
        os.close(later)
    finally:
        os.close(out)


def test_a_program_writing_to_a_closed_pipe_dies_of_sigpipe(sandbox):
    # the launcher itself ignores SIGPIPE; a program must get the default, as on a real judge
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        with sandbox.slot() as slot:
            result = slot.run(["/usr/bin/yes"], stdin=None, stdout=write_end, stderr=2, limits=LIMITS)
    finally:
        os.close(write_end)
    assert result.status == "signaled" and result.signal == signal.SIGPIPE


def test_a_program_cannot_remount_its_work_dir_bigger(sandbox):
    # the filter lets the launcher resize the work dir before a run; a program trying the same is refused
    code = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "flags = 32 | 2 | 4  # MS_REMOUNT | MS_NOSUID | MS_NODEV\n"
        "r = libc.mount(None, b'/box', None, flags, b'size=8g')\n"
        "st = os.statvfs('/box')\n"
        "print(r, ctypes.get_errno(), st.f_blocks * st.f_frsize // (1 << 20))\n"
    )
    out = os.memfd_create("out")
    try:
        with sandbox.slot() as slot:
            result = slot.run(["/usr/bin/python3", "-c", code], stdin=None, stdout=out, stderr=out, limits=LIMITS)
        reply = os.pread(out, 4096, 0).decode().split()
    finally:
        os.close(out)
    assert result.ok, reply
    assert reply[:2] == ["-1", "1"]  # EPERM
    assert int(reply[2]) == LIMITS.workdir_mb


def test_a_run_asking_for_a_bigger_work_dir_gets_it_and_the_next_gets_the_default_again(sandbox):
    # the launcher resizes the run's tmpfs after the request, under the filter it installed beforehand
    look = "df -m /box | tail -1 | awk '{print $2}'"
    sizes = []
    with sandbox.slot() as slot:
        for mb in (LIMITS.workdir_mb * 2, LIMITS.workdir_mb):
            out = os.memfd_create("out")
            limits = LIMITS.model_copy(update={"workdir_mb": mb})
            result = slot.run(["/bin/sh", "-c", look], stdin=None, stdout=out, stderr=out, limits=limits)
            assert result.ok, os.pread(out, 4096, 0)
            sizes.append(int(os.pread(out, 4096, 0)))
            os.close(out)
    assert sizes == [LIMITS.workdir_mb * 2, LIMITS.workdir_mb]


def test_each_run_has_a_dev_shm_of_its_own(sandbox):
    # Python's multiprocessing takes its locks from /dev/shm; what a run leaves there is gone with it
    code = (
        "import multiprocessing, os\n"
        "lock = multiprocessing.Lock()\n"
        "with lock: pass\n"
        "print(sorted(os.listdir('/dev/shm')))\n"
        "open('/dev/shm/left-behind', 'w').write('x')\n"
    )
    outputs = []
    with sandbox.slot() as slot:
        for _ in range(2):
            out = os.memfd_create("out")
            result = slot.run(["/usr/bin/python3", "-c", code], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            outputs.append(os.pread(out, 4096, 0).decode().strip())
            os.close(out)
            assert result.ok, outputs[-1]
    assert outputs == ["[]", "[]"]
    assert sandbox.isolation["shm"] == "tmpfs-per-run"


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="slots are pinned only when there is a core for each")
def test_every_queued_program_runs_on_its_slots_own_cpu():
    from cpbot.judge.sandbox import Sandbox

    seen = []
    with Sandbox(2) as sandbox:
        for _ in range(2):  # the pool lends its two slots in turn
            with sandbox.slot() as slot:
                outs = [os.memfd_create("out") for _ in range(4)]
                for out in outs:
                    script = "grep Cpus_allowed_list /proc/self/status"
                    slot.start(["/bin/sh", "-c", script], stdin=None, stdout=out, stderr=out, limits=LIMITS)
                assert all(slot.wait().ok for _ in outs)
                seen.append({os.pread(out, 200, 0).decode().split()[-1] for out in outs})
                for out in outs:
                    os.close(out)
    assert all(len(cpus) == 1 for cpus in seen)
    assert sorted(cpus.pop() for cpus in seen) == ["0", "1"]


def test_a_run_whose_init_is_killed_is_answered_for_and_the_queued_run_still_runs(sandbox):
    out = os.memfd_create("out")
    duration = "7.3131"  # marks the program: /proc shows its arguments NUL-separated
    try:
        with sandbox.slot() as slot:
            slot.start(["/bin/sleep", duration], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            slot.start(["/bin/sh", "-c", "echo after"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
            init = None
            for _ in range(2000):  # until the first program is up (each try is a quick /proc walk)
                programs = processes_with(duration)
                init = parent_pid(programs[0]) if programs else None
                if init:
                    break
            assert init, "the first program never started"
            os.kill(init, signal.SIGKILL)
            killed, after = slot.wait(), slot.wait()
        assert killed.status == "error" and "init-died" in killed.message
        assert after.ok and os.pread(out, 100, 0) == b"after\n"
    finally:
        os.close(out)


def test_a_run_left_queued_by_one_borrower_never_answers_the_next(sandbox):
    out = os.memfd_create("out")
    try:
        with sandbox.slots(2) as first:
            first[0].start(["/bin/sh", "-c", "exit 3"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
        with sandbox.slots(2) as second:
            same = next(slot for slot in second if slot is first[0])
            result = same.run(["/bin/sh", "-c", "exit 7"], stdin=None, stdout=out, stderr=out, limits=LIMITS)
        assert result.exit_code == 7
    finally:
        os.close(out)


def test_a_reply_becomes_the_same_run_result_as_validating_its_fields_would_give():
    from cpbot.judge.sandbox.pool import RunResult, parse_reply

    reply = (
        "status=signaled code=-1 sig=9 utime_us=1500 stime_us=500 maxrss_kb=900 wall_us=7000 killed=cpu "
        "exec_errno=0 got=2 wait_us=40 all_cpu_us=2500 all_peak_kb=1200 procs=3 forks_refused=0 acct=cgroup"
    )
    parsed = parse_reply(reply, [("a.txt", 0), ("b.txt", 1)])  # type: ignore[list-item]
    assert parsed == RunResult.model_validate(parsed.model_dump())
    assert (parsed.status, parsed.exit_code, parsed.signal, parsed.killed) == ("signaled", None, 9, "cpu")
    assert (parsed.cpu_ms, parsed.own_cpu_ms, parsed.peak_kb, parsed.collected) == (2.5, 2.0, 1200, ["b.txt"])
    not_understood = parse_reply(reply.replace("status=signaled", "status=vanished"))
    assert not_understood.status == "error" and "not understood" in not_understood.message
