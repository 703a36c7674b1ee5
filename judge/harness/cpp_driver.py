"""The C++ driver: the solution's source, unchanged, between the runtime and a generated `main`.

Layout of the program: `bits/stdc++.h` and `using namespace std` (LeetCode's preamble, and first
so a precompiled header applies), the ListNode/TreeNode structs unless the solution declares its
own, the runtime (`templates/harness/cpp_runtime.hpp`, all in namespace `cpbot_lc`), then the
solution under `#line 1 "solution.cpp"` so compiler messages point at its own lines, then `main`.
"""

from __future__ import annotations

import json
import re

from cpbot.judge.harness.signature import Call, Parsed
from cpbot.judge.harness.templates import fill, template
from cpbot.judge.harness.types import LcType

_CPP_SCALARS = {
    "integer": "int",
    "long": "long long",
    "double": "double",
    "boolean": "bool",
    "string": "std::string",
    "character": "char",
    "TreeNode": "TreeNode*",
    "ListNode": "ListNode*",
    "void": "void",
}

_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)


def build(source: str, parsed: Parsed) -> str:
    """A complete C++17 program that runs `source` on one LeetCode test case from stdin."""
    code = _COMMENTS.sub(" ", source)
    nodes = [
        template(name)
        for name, node in (("cpp_list_node.hpp", "ListNode"), ("cpp_tree_node.hpp", "TreeNode"))
        if not re.search(rf"\b(?:struct|class)\s+{node}\s*[{{:]", code)
    ]
    main = _design_main(parsed) if parsed.kind == "design" else _function_main(parsed)
    return fill(
        template("cpp_driver.cpp.tmpl"),
        nodes="".join(nodes),
        runtime=template("cpp_runtime.hpp"),
        source=source if source.endswith("\n") else source + "\n",
        main=main,
    )


def cpp_type(t: LcType) -> str:
    """The C++ type LeetCode uses for `t` (`integer[][]` is `std::vector<std::vector<int>>`)."""
    if t.elem is not None:
        return f"std::vector<{cpp_type(t.elem)}>"
    return _CPP_SCALARS[t.kind]


def _lit(text: str) -> str:
    """A C++ string literal (JSON escaping is valid C++ for the ASCII names used here)."""
    return json.dumps(text)


def _function_main(parsed: Parsed) -> str:
    m = parsed.method
    names = ", ".join(name for name, _ in m.params)
    what = f"one per parameter: {names}" if m.params else "no parameters"
    lines = [
        "signed main() {",
        "    cpbot_lc::Output cpbot_out;",
        f"    std::vector<std::string> cpbot_lines = cpbot_lc::input_lines({len(m.params)}, {_lit(what)});",
    ]
    for i, (name, t) in enumerate(m.params):
        origin = f"line {i + 1} (parameter {name}: {t})"
        lines.append(f"    auto cpbot_a{i} = cpbot_lc::read_arg<{cpp_type(t)}>(cpbot_lines[{i}], {_lit(origin)});")
    lines.append(f"    {parsed.class_name}* cpbot_sol = new {parsed.class_name}();")
    args = ", ".join(f"cpbot_a{i}" for i in range(len(m.params)))
    call = f"cpbot_sol->{m.name}({args})"
    if m.ret.is_void:
        judged = "cpbot_lc::show(cpbot_a0)" if m.params else '"null"'
        lines += [f"    {call};", f"    cpbot_out.emit({judged});"]
    else:
        lines += [f"    auto cpbot_r = {call};", "    cpbot_out.emit(cpbot_lc::show(cpbot_r));"]
    lines += ["    return 0;", "}", ""]
    return "\n".join(lines)


def _design_main(parsed: Parsed) -> str:
    known = ", ".join(m.name for m in parsed.methods)
    ctor = parsed.constructor
    assert ctor is not None  # parse_signature gives design problems a constructor
    lines = [
        "signed main() {",
        "    cpbot_lc::Output cpbot_out;",
        '    std::vector<std::string> cpbot_lines = cpbot_lc::input_lines(2, "the operations, then their arguments");',
        f"    cpbot_lc::Calls cpbot_calls = cpbot_lc::design_calls(cpbot_lines, {_lit(parsed.class_name)});",
        f"    cpbot_lc::expect_args(cpbot_calls, 0, {len(ctor.params)});",
        "    for (size_t cpbot_i = 1; cpbot_i < cpbot_calls.ops.size(); ++cpbot_i) {",
        "        const std::string& cpbot_op = cpbot_calls.ops[cpbot_i];",
    ]
    for k, m in enumerate(parsed.methods):
        keyword = "if" if k == 0 else "} else if"
        lines += [
            f"        {keyword} (cpbot_op == {_lit(m.name)}) {{",
            f"            cpbot_lc::expect_args(cpbot_calls, cpbot_i, {len(m.params)});",
        ]
    lines += [
        "        } else {",
        f"            cpbot_lc::unknown_method(cpbot_calls, cpbot_i, {_lit(known)});",
        "        }",
        "    }",
        "    std::vector<std::string> cpbot_results;",
        "    cpbot_results.reserve(cpbot_calls.ops.size());",
        f"    {parsed.class_name}* cpbot_obj = nullptr;",
        "    {",
        "        const std::vector<cpbot_lc::Value>& cpbot_v = cpbot_calls.args[0].items;",
        *_arg_lines(ctor, "0", "        "),
        f"        cpbot_obj = new {parsed.class_name}({_arg_names(ctor)});",
        "    }",
        '    cpbot_results.push_back("null");',
        "    for (size_t cpbot_i = 1; cpbot_i < cpbot_calls.ops.size(); ++cpbot_i) {",
        "        const std::string& cpbot_op = cpbot_calls.ops[cpbot_i];",
        "        const std::vector<cpbot_lc::Value>& cpbot_v = cpbot_calls.args[cpbot_i].items;",
    ]
    for k, m in enumerate(parsed.methods):
        keyword = "if" if k == 0 else "} else if"
        lines.append(f"        {keyword} (cpbot_op == {_lit(m.name)}) {{")
        lines += _arg_lines(m, "cpbot_i", "            ")
        call = f"cpbot_obj->{m.name}({_arg_names(m)})"
        if m.ret.is_void:
            lines += [f"            {call};", '            cpbot_results.push_back("null");']
        else:
            lines += [
                f"            auto cpbot_r = {call};",
                "            cpbot_results.push_back(cpbot_lc::show(cpbot_r));",
            ]
    lines += [
        "        }",
        "    }",
        "    cpbot_out.emit(cpbot_lc::join_results(cpbot_results));",
        "    return 0;",
        "}",
        "",
    ]
    return "\n".join(lines)


def _arg_lines(call: Call, index: str, indent: str) -> list[str]:
    out = []
    for j, (name, t) in enumerate(call.params):
        origin = f"line 2 (argument {name} of {call.name}: {t})"
        out.append(
            f"{indent}auto cpbot_p{j} = cpbot_lc::arg<{cpp_type(t)}>(cpbot_v[{j}], {_lit(origin)}, "
            f"{{(long long){index}, {j}}});"
        )
    return out


def _arg_names(call: Call) -> str:
    return ", ".join(f"cpbot_p{j}" for j in range(len(call.params)))
