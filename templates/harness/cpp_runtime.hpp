// cpbot LeetCode harness runtime: reads LeetCode values, builds arguments, prints results.
// Embedded into each generated program before the solution; everything lives in namespace
// cpbot_lc so the solution's own names never clash with it. Exit codes: 3 = malformed test input,
// 1 = the solution's result cannot be printed.
#include <unistd.h>

namespace cpbot_lc {

struct Value {
    enum Kind { Null, Bool, Number, String, Array } kind = Null;
    bool flag = false;
    std::string text;  // a number's literal or a string's decoded characters
    std::vector<Value> items;
};

// Where a value came from, for error messages: "line 2 (parameter nums: integer[])" + "[3][0]".
struct Where {
    const char* origin;
    std::vector<long long> path;
    std::string describe() const {
        std::string s = origin;
        if (!path.empty()) {
            s += ", element ";
            for (long long i : path) s += "[" + std::to_string(i) + "]";
        }
        return s;
    }
};

[[noreturn]] inline void bad_input(const std::string& where, const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "cpbot-harness: bad input: %s: %s\n", where.c_str(), message.c_str());
    std::exit(3);
}

[[noreturn]] inline void bad_input(const Where& where, const std::string& message) {
    bad_input(where.describe(), message);
}

[[noreturn]] inline void bad_result(const std::string& message) {
    std::fflush(stdout);
    std::fprintf(stderr, "cpbot-harness: %s\n", message.c_str());
    std::exit(1);
}

inline std::string clip(const std::string& s) { return s.size() <= 40 ? s : s.substr(0, 37) + "..."; }

class Parser {
  public:
    Parser(const std::string& text, const std::string& where) : s_(text), where_(where) {}

    Value parse_all() {
        skip();
        if (pos_ == s_.size()) fail("the line is empty");
        Value v = parse();
        skip();
        if (pos_ != s_.size()) fail("unexpected '" + clip(s_.substr(pos_)) + "' after the value");
        return v;
    }

  private:
    const std::string& s_;
    std::string where_;
    size_t pos_ = 0;

    [[noreturn]] void fail(const std::string& message) {
        bad_input(where_, message + " (column " + std::to_string(pos_ + 1) + ")");
    }
    void skip() {
        while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\r')) ++pos_;
    }
    bool word(const char* w) {
        size_t n = std::strlen(w);
        if (s_.compare(pos_, n, w) != 0) return false;
        pos_ += n;
        return true;
    }
    Value parse() {
        skip();
        if (pos_ >= s_.size()) fail("expected a value at the end");
        Value v;
        char c = s_[pos_];
        if (c == '[') {
            ++pos_;
            v.kind = Value::Array;
            skip();
            if (pos_ < s_.size() && s_[pos_] == ']') {
                ++pos_;
                return v;
            }
            while (true) {
                v.items.push_back(parse());
                skip();
                if (pos_ < s_.size() && s_[pos_] == ',') {
                    ++pos_;
                } else if (pos_ < s_.size() && s_[pos_] == ']') {
                    ++pos_;
                    return v;
                } else {
                    fail("expected ',' or ']'");
                }
            }
        }
        if (c == '"') return parse_string();
        if (word("null")) return v;
        if (word("true") || word("false")) {
            v.kind = Value::Bool;
            v.flag = s_[pos_ - 1] == 'e' && s_[pos_ - 4] == 't';
            return v;
        }
        size_t start = pos_;
        if (word("-Infinity") || word("Infinity") || word("NaN")) {
            v.kind = Value::Number;
            v.text = s_.substr(start, pos_ - start);
            return v;
        }
        while (pos_ < s_.size() && (std::isdigit((unsigned char)s_[pos_]) || std::strchr("+-.eE", s_[pos_]))) ++pos_;
        if (pos_ == start) fail("expected a value, found '" + clip(s_.substr(pos_)) + "'");
        v.kind = Value::Number;
        v.text = s_.substr(start, pos_ - start);
        return v;
    }
    Value parse_string() {
        Value v;
        v.kind = Value::String;
        size_t start = pos_++;
        while (true) {
            if (pos_ >= s_.size()) {
                pos_ = start;
                fail("unterminated string");
            }
            char c = s_[pos_++];
            if (c == '"') return v;
            if (c != '\\') {
                v.text += c;
                continue;
            }
            if (pos_ >= s_.size()) fail("unterminated escape");
            char e = s_[pos_++];
            switch (e) {
                case 'n': v.text += '\n'; break;
                case 't': v.text += '\t'; break;
                case 'r': v.text += '\r'; break;
                case 'b': v.text += '\b'; break;
                case 'f': v.text += '\f'; break;
                case 'u': append_code_point(v.text); break;
                default: v.text += e;
            }
        }
    }
    void append_code_point(std::string& out) {
        if (pos_ + 4 > s_.size()) fail("bad \\u escape");
        unsigned cp = std::stoul(s_.substr(pos_, 4), nullptr, 16);
        pos_ += 4;
        if (cp >= 0xD800 && cp < 0xDC00 && s_.compare(pos_, 2, "\\u") == 0 && pos_ + 6 <= s_.size()) {
            unsigned low = std::stoul(s_.substr(pos_ + 2, 4), nullptr, 16);
            pos_ += 6;
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        if (cp < 0x80) {
            out += char(cp);
        } else if (cp < 0x800) {
            out += char(0xC0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            out += char(0xE0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        } else {
            out += char(0xF0 | (cp >> 18));
            out += char(0x80 | ((cp >> 12) & 0x3F));
            out += char(0x80 | ((cp >> 6) & 0x3F));
            out += char(0x80 | (cp & 0x3F));
        }
    }
};

inline Value parse_line(const std::string& line, const std::string& where) { return Parser(line, where).parse_all(); }

// ---- values to arguments ------------------------------------------------------------------------

inline const char* kind_name(const Value& v) {
    switch (v.kind) {
        case Value::Null: return "null";
        case Value::Bool: return "a boolean";
        case Value::Number: return "a number";
        case Value::String: return "a string";
        default: return "an array";
    }
}

inline long long to_integer(const Value& v, Where& w, long long lo, long long hi, const char* what) {
    if (v.kind != Value::Number) bad_input(w, std::string("expected ") + what + ", got " + kind_name(v));
    errno = 0;
    char* end = nullptr;
    long long x = std::strtoll(v.text.c_str(), &end, 10);
    if (*end != '\0') bad_input(w, std::string("expected ") + what + ", got " + v.text);
    if (errno == ERANGE || x < lo || x > hi) bad_input(w, v.text + " does not fit in " + what);
    return x;
}

template <class T, class = void>
struct HasNext : std::false_type {};
template <class T>
struct HasNext<T, std::void_t<decltype(std::declval<T&>().next)>> : std::true_type {};

template <class T>
struct From;

template <>
struct From<int> {
    static int get(const Value& v, Where& w) { return (int)to_integer(v, w, INT_MIN, INT_MAX, "an integer"); }
};
template <>
struct From<long long> {
    static long long get(const Value& v, Where& w) { return to_integer(v, w, LLONG_MIN, LLONG_MAX, "a long"); }
};
template <>
struct From<double> {
    static double get(const Value& v, Where& w) {
        if (v.kind != Value::Number) bad_input(w, std::string("expected a number, got ") + kind_name(v));
        if (v.text == "Infinity") return HUGE_VAL;
        if (v.text == "-Infinity") return -HUGE_VAL;
        if (v.text == "NaN") return std::nan("");
        char* end = nullptr;
        double x = std::strtod(v.text.c_str(), &end);
        if (*end != '\0') bad_input(w, "expected a number, got " + v.text);
        return x;
    }
};
template <>
struct From<bool> {
    static bool get(const Value& v, Where& w) {
        if (v.kind != Value::Bool) bad_input(w, std::string("expected true or false, got ") + kind_name(v));
        return v.flag;
    }
};
template <>
struct From<std::string> {
    static std::string get(const Value& v, Where& w) {
        if (v.kind != Value::String) bad_input(w, std::string("expected a string, got ") + kind_name(v));
        return v.text;
    }
};
template <>
struct From<char> {
    static char get(const Value& v, Where& w) {
        if (v.kind != Value::String || v.text.size() != 1)
            bad_input(w, std::string("expected one character, got ") + (v.kind == Value::String ? "\"" + clip(v.text) + "\"" : kind_name(v)));
        return v.text[0];
    }
};
template <class T>
struct From<std::vector<T>> {
    static std::vector<T> get(const Value& v, Where& w) {
        if (v.kind != Value::Array) bad_input(w, std::string("expected an array, got ") + kind_name(v));
        std::vector<T> out;
        out.reserve(v.items.size());
        for (size_t i = 0; i < v.items.size(); ++i) {
            w.path.push_back((long long)i);
            out.push_back(From<T>::get(v.items[i], w));
            w.path.pop_back();
        }
        return out;
    }
};
// Node types are templates on the node struct, so a solution may define ListNode/TreeNode itself.
template <class N>
struct From<N*> {
    static N* get(const Value& v, Where& w) {
        if (v.kind != Value::Array) bad_input(w, std::string("expected an array, got ") + kind_name(v));
        if constexpr (HasNext<N>::value) {
            N* head = nullptr;
            for (size_t i = v.items.size(); i-- > 0;) {
                w.path.push_back((long long)i);
                N* node = new N(From<int>::get(v.items[i], w));
                w.path.pop_back();
                node->next = head;
                head = node;
            }
            return head;
        } else {
            if (v.items.empty() || v.items[0].kind == Value::Null) return nullptr;
            auto make = [&](size_t i) {
                w.path.push_back((long long)i);
                N* node = new N(From<int>::get(v.items[i], w));
                w.path.pop_back();
                return node;
            };
            N* root = make(0);
            std::vector<N*> queue{root};
            size_t taken = 0, i = 1;
            while (i < v.items.size()) {
                if (taken == queue.size()) {
                    // trailing nulls past the last node are harmless; a value there has no parent
                    while (i < v.items.size() && v.items[i].kind == Value::Null) ++i;
                    if (i == v.items.size()) break;
                    bad_input(w, "value " + v.items[i].text + " at position " + std::to_string(i) +
                                     " has no parent in level order");
                }
                N* node = queue[taken++];
                if (v.items[i].kind != Value::Null) queue.push_back(node->left = make(i));
                ++i;
                if (i < v.items.size() && v.items[i].kind != Value::Null) queue.push_back(node->right = make(i));
                ++i;
            }
            return root;
        }
    }
};

template <class T>
T arg(const Value& v, const char* origin, std::vector<long long> path = {}) {
    Where w{origin, std::move(path)};
    return From<T>::get(v, w);
}

template <class T>
T read_arg(const std::string& line, const char* origin) {
    return arg<T>(parse_line(line, origin), origin);
}

// ---- results to text ----------------------------------------------------------------------------

inline void put(std::string& o, bool b) { o += b ? "true" : "false"; }
inline void put(std::string& o, char c) {
    std::string s(1, c);
    o += '"';
    if (c == '"' || c == '\\') o += '\\';
    o += s;
    o += '"';
}
inline void put(std::string& o, const std::string& s) {
    o += '"';
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            o += '\\';
            o += char(c);
        } else if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            o += buf;
        } else {
            o += char(c);
        }
    }
    o += '"';
}
inline void put(std::string& o, const char* s) { put(o, std::string(s)); }
inline void put(std::string& o, double d) {
    if (std::isnan(d)) {
        o += "NaN";
    } else if (std::isinf(d)) {
        o += d > 0 ? "Infinity" : "-Infinity";
    } else {
        char buf[64];
        auto r = std::to_chars(buf, buf + sizeof buf, d);
        o.append(buf, r.ptr);
    }
}
inline void put(std::string& o, float f) { put(o, (double)f); }
inline void put(std::string& o, long double d) { put(o, (double)d); }
template <class T>
std::enable_if_t<std::is_integral_v<T>> put(std::string& o, T x) {
    o += std::to_string(x);
}
template <class N>
void put(std::string& o, N* node);
template <class T>
void put(std::string& o, const std::vector<T>& v);
inline void put(std::string& o, const std::vector<bool>& v) {
    o += '[';
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) o += ',';
        put(o, (bool)v[i]);
    }
    o += ']';
}
template <class T>
void put(std::string& o, const std::vector<T>& v) {
    o += '[';
    for (size_t i = 0; i < v.size(); ++i) {
        if (i) o += ',';
        put(o, v[i]);
    }
    o += ']';
}
template <class N>
void put(std::string& o, N* node) {
    if constexpr (HasNext<N>::value) {
        o += '[';
        std::unordered_set<const N*> seen;
        for (bool first = true; node; node = node->next, first = false) {
            if (!seen.insert(node).second) bad_result("the returned linked list has a cycle");
            if (!first) o += ',';
            put(o, node->val);
        }
        o += ']';
    } else {
        std::vector<std::string> out;
        std::vector<N*> queue{node};
        std::unordered_set<const N*> seen;
        for (size_t taken = 0; taken < queue.size(); ++taken) {
            N* n = queue[taken];
            if (!n) {
                out.push_back("null");
                continue;
            }
            if (!seen.insert(n).second) bad_result("the returned tree has a cycle or a shared node");
            std::string s;
            put(s, n->val);
            out.push_back(s);
            queue.push_back(n->left);
            queue.push_back(n->right);
        }
        while (!out.empty() && out.back() == "null") out.pop_back();
        o += '[';
        for (size_t i = 0; i < out.size(); ++i) {
            if (i) o += ',';
            o += out[i];
        }
        o += ']';
    }
}

template <class T>
std::string show(const T& x) {
    std::string o;
    put(o, x);
    return o;
}

// ---- input lines and the output channel -----------------------------------------------------------

// The solution's own prints go to stderr; only the judged value reaches the real stdout.
class Output {
  public:
    Output() {
        std::fflush(stdout);
        fd_ = ::dup(1);
        ::dup2(2, 1);
    }
    void emit(const std::string& text) {
        std::cout.flush();
        std::fflush(stdout);
        std::string s = text + "\n";
        size_t done = 0;
        while (done < s.size()) {
            ssize_t n = ::write(fd_, s.data() + done, s.size() - done);
            if (n <= 0) bad_result("cannot write the result");
            done += (size_t)n;
        }
    }

  private:
    int fd_;
};

inline std::vector<std::string> input_lines(size_t count, const std::string& what) {
    std::string all;
    char buf[1 << 16];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, stdin)) > 0) all.append(buf, n);
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= all.size()) {
        size_t end = all.find('\n', start);
        if (end == std::string::npos) end = all.size();
        std::string line = all.substr(start, end - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
        start = end + 1;
    }
    while (!lines.empty() && lines.back().find_first_not_of(" \t\r") == std::string::npos) lines.pop_back();
    if (lines.size() != count)
        bad_input("input", "expected " + std::to_string(count) + (count == 1 ? " line (" : " lines (") + what +
                               "), got " + std::to_string(lines.size()));
    return lines;
}

// The operations of a design problem: names on line 1, argument lists on line 2, checked together.
struct Calls {
    std::vector<std::string> ops;
    std::vector<Value> args;
};

inline Calls design_calls(const std::vector<std::string>& lines, const std::string& class_name) {
    Calls calls;
    Value ops = parse_line(lines[0], "line 1 (operations)");
    calls.ops = arg<std::vector<std::string>>(ops, "line 1 (operations)");
    Value args = parse_line(lines[1], "line 2 (arguments)");
    if (args.kind != Value::Array) bad_input("line 2 (arguments)", std::string("expected an array, got ") + kind_name(args));
    for (size_t i = 0; i < args.items.size(); ++i)
        if (args.items[i].kind != Value::Array)
            bad_input("line 2 (arguments), element [" + std::to_string(i) + "]", "expected an array of arguments");
    calls.args = args.items;
    if (calls.ops.size() != calls.args.size())
        bad_input("line 2 (arguments)", "has " + std::to_string(calls.args.size()) + " argument lists for " +
                                            std::to_string(calls.ops.size()) + " operations");
    if (calls.ops.empty() || calls.ops[0] != class_name)
        bad_input("line 1 (operations)", "the first operation must be " + class_name + ", got " +
                                             (calls.ops.empty() ? std::string("nothing") : calls.ops[0]));
    return calls;
}

[[noreturn]] inline void unknown_method(const Calls& calls, size_t i, const std::string& known) {
    bad_input("line 1 (operations), element [" + std::to_string(i) + "]",
              "unknown method " + calls.ops[i] + " (the class has: " + known + ")");
}

inline void expect_args(const Calls& calls, size_t i, size_t count) {
    if (calls.args[i].items.size() != count)
        bad_input("line 2 (arguments), operation " + std::to_string(i) + " (" + calls.ops[i] + ")",
                  "takes " + std::to_string(count) + " arguments, got " + std::to_string(calls.args[i].items.size()));
}

inline std::string join_results(const std::vector<std::string>& parts) {
    std::string o = "[";
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) o += ',';
        o += parts[i];
    }
    return o + "]";
}

}  // namespace cpbot_lc
