"""The sandbox: every untrusted run (solutions, compilers, checkers, generators) goes through here."""

from cpbot.judge.sandbox.pool import RunLimits, RunResult, Sandbox, Slot, default_sandbox

__all__ = ["RunLimits", "RunResult", "Sandbox", "Slot", "default_sandbox"]
