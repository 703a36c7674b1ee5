// Unit driver for the harness runtime (templates/harness/cpp_runtime.hpp): reads a type name on line 1
// and a LeetCode value on line 2, reads the value as that C++ type with cpbot_lc::read_arg, and prints
// it back with cpbot_lc::show. Compiled after the runtime by tests/harness/test_harness_runtime_cpp.py.
template <class T>
void roundtrip(const std::string& line) {
    T value = cpbot_lc::read_arg<T>(line, "line 2 (value)");
    std::cout << cpbot_lc::show(value) << "\n";
}

int main() {
    std::string type, line;
    std::getline(std::cin, type);
    std::getline(std::cin, line);
    if (type == "integer") roundtrip<int>(line);
    else if (type == "long") roundtrip<long long>(line);
    else if (type == "double") roundtrip<double>(line);
    else if (type == "boolean") roundtrip<bool>(line);
    else if (type == "string") roundtrip<std::string>(line);
    else if (type == "character") roundtrip<char>(line);
    else if (type == "integer[]") roundtrip<std::vector<int>>(line);
    else if (type == "integer[][]") roundtrip<std::vector<std::vector<int>>>(line);
    else if (type == "boolean[]") roundtrip<std::vector<bool>>(line);
    else if (type == "string[]") roundtrip<std::vector<std::string>>(line);
    else if (type == "TreeNode") roundtrip<TreeNode*>(line);
    else if (type == "ListNode") roundtrip<ListNode*>(line);
    else if (type == "ListNode[]") roundtrip<std::vector<ListNode*>>(line);
    else return 2;
    return 0;
}
