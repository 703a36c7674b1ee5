"""The roles strategies compose: one small module each, typed inputs, typed outputs.

Roles that ask a model take any `agents.llm.ChatModel` (an `LLMClient`, or a `BoundLLM` charged to a
solve's budget and tracer) and return envelope payloads; the caller wraps them with
`Envelope.wrap(payload, task_id=, iteration=, sender=module.ROLE)` and sends them to the tracer.
Deterministic roles never call a model.

- `selector.select_algorithms(model, problem)` -> `Selection` (branches of tags from `selector.TAGS`)
- `knowledge.retrieve(problem, tags)` -> `list[Note]` (BM25 over `templates/knowledge/*.md`; no model)
- `planner.plan(model, problem, language=)` / `planner.replan(model, problem, previous, feedback, language=)` -> `Plan`
- `pruner.prune(plan, problem, language=)` -> `PruneDecision` (no model)
- `stdio.pick_template(problem, language)` -> `StdioTemplate`; `stdio.skeleton_for` -> one or None (no model)
- `coder.write_code(model, problem, plan, language=)` / `coder.revise_code(model, problem, attempt, change)`
  -> `CodeAttempt`
- `debugger.debug(model, problem, attempt, report)` -> `CodeAttempt` (STD-IO / runtime / wrong-answer blocks);
  `debugger.trace_debug(model, problem, attempt, test)` -> (`CodeAttempt`, `TraceRun`)
- `checker.check(model, problem, attempt, report)` -> `CheckerDecision` (PASS / FIX / RETHINK)
- `analyst.analyse(profile)` -> `Analysis` (`ComplexityVerdict` and a `Patch` for the coder or the planner);
  `analyst.profile_attempt(attempt, generator, problem)` -> `ProfileReport`
- `testgen.generate_tests(model, problem)` -> `GeneratedSuite` (`GeneratedTests`, generator, brute force)
- `optimizer.propose_optimization(model, problem, attempt)` -> `CodeAttempt | None`;
  `optimizer.keep_if_passing(original, candidate, problem)` -> `OptimizeOutcome`
- `stresser.stress_attempt(solution, brute, generator, problem)` -> `StressReport` (no model)
- `blocks.read_chain(text, language)` -> `BlockChain` (blocks with unit tests); `blocks.run_unit_test(chain,
  name, problem)` -> `JudgeReport` (no model)
- `blockchain.plan_from_example` / `plan_from_question` -> `BlockChain`; `blockchain.propose_block_change`
  -> `CodeBlock | None`; `blockchain.simplify` -> `BlockChain | None`; `blockchain.debug_chain` -> (`BlockChain`,
  diagnosis) (BlockChain Coder's agents)

`constraints.problem_bounds(problem)` reads the statement's bounds for the pruner, planner and analyst.
"""
