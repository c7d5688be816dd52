// cudapp: turns a preprocessed CUDA translation unit (g++ -E output) into plain C++ for the CPU backend.
//
// It works on tokens, never on raw text, so strings, character literals and directives are left alone,
// and it never adds or removes a newline inside user code, so every line keeps its number (the linemarkers
// written by g++ -E are kept, and the few lines we add are followed by a linemarker that restores it).
// What it does:
//   k<<<grid, block, shmem, stream>>>(args)  ->  cudawb::launch(...)(args)        (see include/cudawb/launch.h)
//   __global__/__device__/__host__/__constant__/__managed__ -> removed (everything is host code here)
//   __shared__ -> static __thread (one copy per worker thread = per running block)
//   extern __shared__ T a[]; -> T *const a = cudawb::dynamic_shared(); (the running worker's dynamic buffer)
//   each use of a __shared__ variable in device code -> wrapped in cudawb::sh(...) for the memory and race
//   checkers (include/cudawb/shared_check.h; see instrument_shared)
//   a kernel that reaches no barrier or warp primitive: its body runs a row of threads per call (lane_loop)
//   in device functions: printf -> cudawb_printf, __assert_fail -> cudawb_assert_fail; warnings nvcc's
//   device compiler does not give (sign-compare, unused-parameter) are switched off around them; device
//   features we cannot emulate are rejected with a message at the student's line.
// Usage: cudapp < in.ii > out.ii   (exit status 1 after an error message on stderr)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

enum Kind { IDENT, NUMBER, STRING, CHAR, PUNCT, DIRECTIVE };

struct Token {
    Kind kind;
    size_t pos, len;
    int line;     // line in the user's file (from linemarkers)
    int file;     // index into files
    bool space;   // whitespace before it
};

static std::string src;
static std::vector<Token> toks;
static std::vector<std::string> files;
static std::vector<bool> file_is_system;

static std::string text(const Token &t) { return src.substr(t.pos, t.len); }
static bool is(size_t i, const char *s) {
    return i < toks.size() && toks[i].len == strlen(s) && src.compare(toks[i].pos, toks[i].len, s) == 0;
}
static bool ident_start(char c) { return c == '_' || c == '$' || ((c | 32) >= 'a' && (c | 32) <= 'z'); }
static bool ident_char(char c) { return ident_start(c) || (c >= '0' && c <= '9'); }

// Reads a linemarker "# 12 "file" 1 3" and updates the current position.
static void linemarker(size_t p, size_t end, int *line, int *file) {
    while (p < end && (src[p] == '#' || src[p] == ' ')) p++;
    if (src.compare(p, 4, "line") == 0) p += 4;
    while (p < end && src[p] == ' ') p++;
    if (p >= end || src[p] < '0' || src[p] > '9') return;
    int n = atoi(src.c_str() + p);
    while (p < end && src[p] != '"') p++;
    if (p >= end) { *line = n - 1; return; }
    size_t q = p + 1;
    std::string name;
    while (q < end && src[q] != '"') { if (src[q] == '\\') q++; name += src[q++]; }
    bool sys = src.find(" 3", q) < end;
    size_t k = 0;
    while (k < files.size() && files[k] != name) k++;
    if (k == files.size()) { files.push_back(name); file_is_system.push_back(sys); }
    *file = (int)k;
    *line = n - 1;  // the newline ending the marker moves to n
}

static void lex() {
    size_t p = 0, n = src.size();
    int line = 1, file = 0;
    files.push_back("<stdin>");
    file_is_system.push_back(false);
    bool at_line_start = true, space = false;
    while (p < n) {
        char c = src[p];
        if (c == '\n') { line++; p++; at_line_start = true; space = true; continue; }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') { p++; space = true; continue; }
        if (c == '\\' && p + 1 < n && src[p + 1] == '\n') { p += 2; line++; continue; }
        Token t = {PUNCT, p, 1, line, file, space};
        space = false;
        if (c == '#' && at_line_start) {  // a directive: linemarker or pragma, up to the end of the line
            size_t e = p;
            while (e < n && src[e] != '\n') e++;
            t.kind = DIRECTIVE;
            t.len = e - p;
            toks.push_back(t);
            linemarker(p, e, &line, &file);
            p = e;
            continue;
        }
        at_line_start = false;
        if (c == '/' && p + 1 < n && src[p + 1] == '/') {  // comments survive only with -C
            while (p < n && src[p] != '\n') p++;
            space = true;
            continue;
        }
        if (c == '/' && p + 1 < n && src[p + 1] == '*') {
            p += 2;
            while (p + 1 < n && !(src[p] == '*' && src[p + 1] == '/')) { if (src[p] == '\n') line++; p++; }
            p += 2;
            space = true;
            continue;
        }
        size_t q = p;
        if (ident_start(c)) {
            while (q < n && ident_char(src[q])) q++;
            // string prefixes (u8"", L'', R"(...)")
            if (q < n && (src[q] == '"' || src[q] == '\'')) {
                std::string pre = src.substr(p, q - p);
                if (pre == "R" || pre == "u8R" || pre == "uR" || pre == "UR" || pre == "LR") {
                    size_t d = q + 1;
                    std::string delim;
                    while (d < n && src[d] != '(') delim += src[d++];
                    std::string close = ")" + delim + "\"";
                    size_t e = src.find(close, d);
                    e = e == std::string::npos ? n : e + close.size();
                    for (size_t k = q; k < e; k++) if (src[k] == '\n') line++;
                    t.kind = STRING; t.len = e - p; toks.push_back(t); p = e;
                    continue;
                }
                if (pre == "u8" || pre == "u" || pre == "U" || pre == "L") c = src[q];
                else { t.kind = IDENT; t.len = q - p; toks.push_back(t); p = q; continue; }
            } else {
                t.kind = IDENT; t.len = q - p; toks.push_back(t); p = q; continue;
            }
        }
        if (c == '"' || c == '\'') {
            char quote = c;
            while (q < n && src[q] != quote) q++;
            q++;
            while (q < n && src[q] != quote && src[q] != '\n') { if (src[q] == '\\') q++; q++; }
            t.kind = quote == '"' ? STRING : CHAR;
            t.len = q + 1 - p;
            toks.push_back(t);
            p = q + 1;
            continue;
        }
        if ((c >= '0' && c <= '9') || (c == '.' && p + 1 < n && src[p + 1] >= '0' && src[p + 1] <= '9')) {
            while (q < n && (ident_char(src[q]) || src[q] == '.' || src[q] == '\'' ||
                             ((src[q] == '+' || src[q] == '-') && (src[q - 1] | 32) == 'e') ||
                             ((src[q] == '+' || src[q] == '-') && (src[q - 1] | 32) == 'p')))
                q++;
            t.kind = NUMBER; t.len = q - p; toks.push_back(t); p = q;
            continue;
        }
        if (c == ':' && p + 1 < n && src[p + 1] == ':') t.len = 2;
        if (c == '-' && p + 1 < n && src[p + 1] == '>') t.len = 2;
        toks.push_back(t);
        p += t.len;
    }
}

// Index of the token closing the bracket opened at i ((, [, {), or toks.size().
static size_t match(size_t i) {
    const char *open = "([{", *close = ")]}";
    int depth = 0;
    for (size_t k = i; k < toks.size(); k++) {
        if (toks[k].kind != PUNCT) continue;
        char c = src[toks[k].pos];
        if (strchr(open, c)) depth++;
        else if (strchr(close, c) && --depth == 0) return k;
    }
    return toks.size();
}

// Index of the bracket opening the one that closes at i, scanning backwards.
static size_t match_back(size_t i) {
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        if (toks[k].kind != PUNCT) continue;
        char c = src[toks[k].pos];
        if (strchr(")]}", c)) depth++;
        else if (strchr("([{", c) && --depth == 0) return k;
    }
    return 0;
}

struct Edit { std::string insert_before; bool drop; std::string replace; std::string insert_after; };
static std::vector<Edit> edits;
static std::vector<size_t> depth_at;
static int errors;

static void error_at(size_t i, const std::string &msg) {
    fprintf(stderr, "%s:%d: error: %s\n", files[toks[i].file].c_str(), toks[i].line, msg.c_str());
    errors++;
}

// Names whose use makes a kernel run under the general fiber scheduler: warp primitives meet the lanes of a
// warp (src/warp.cpp), cooperative groups' syncs and tiles are built on them (include/cooperative_groups.h).
// Group types also count in a device function's parameter list (a tile passed in); the member functions
// of a group count only after ".", "->" or "::" (g.sync(), cg::reduce), where a common name such as "all"
// or "reduce" is most likely a group's (a wrong guess costs only speed).
static bool warp_level(size_t k, bool in_body) {
    static const std::set<std::string> names = {
        "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__ballot_sync", "__any_sync",
        "__all_sync", "__activemask", "__syncwarp", "__match_any_sync", "__match_all_sync", "__reduce_add_sync",
        "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync", "__reduce_or_sync", "__reduce_xor_sync",
        "cooperative_groups", "this_thread_block", "tiled_partition", "coalesced_threads", "this_grid",
        "labeled_partition"};
    static const std::set<std::string> types = {"thread_block", "thread_block_tile", "thread_group",
                                                "coalesced_group", "grid_group"};
    static const std::set<std::string> members = {"sync", "shfl", "shfl_up", "shfl_down", "shfl_xor", "any",
                                                  "all", "ballot", "match_any", "match_all", "reduce"};
    std::string id = text(toks[k]);
    if (types.count(id)) return true;
    if (!in_body) return false;
    if (names.count(id)) return true;
    return members.count(id) && k > 0 && (is(k - 1, ".") || is(k - 1, "->") || is(k - 1, "::"));
}

// Does the identifier at k name something whose waits make a thread sleep until other threads of its block
// arrive: a cuda::barrier, a block-scope cuda::pipeline (its shared state, or the scope in its type)? Such a
// kernel runs under the general fiber scheduler, as one with cooperative groups does (cudawb/async.h). A
// thread-scope pipeline waits for nothing (its copies are done at the call) and keeps the faster schedulers.
static bool block_wait(size_t k) {
    static const std::set<std::string> names = {"pipeline_shared_state", "thread_scope_block",
                                                "thread_scope_device", "thread_scope_system"};
    std::string id = text(toks[k]);
    if (names.count(id)) return true;
    return id == "barrier" && k > 0 && is(k - 1, "::") && k > 1 && is(k - 2, "cuda");
}

// Device features with no CPU emulation: rejected at compile time, never a wrong answer.
static const char *unsupported(const std::string &id) {
    // the pre-CUDA-9 forms without a mask: nvcc 13 no longer accepts them for sm_70 and later
    static const char *old_warp[] = {"__shfl", "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot", "__any",
                                     "__all", nullptr};
    for (int k = 0; old_warp[k]; k++)
        if (id == old_warp[k]) return "is a warp primitive CUDA removed (use its _sync form with a mask)";
    static const char *tex[] = {"tex1D", "tex2D", "tex3D", "texCubemap", "surf1D", "surf2D", "surf3D", "surfCubemap",
                                "tex1Dfetch", nullptr};
    for (int k = 0; tex[k]; k++)
        if (id.compare(0, strlen(tex[k]), tex[k]) == 0) return "is texture/surface memory";
    if (id == "asm" || id == "__asm__" || id == "__asm" || id == "__prof_trigger") return "is not emulated";
    return nullptr;
}

// nvcc's `#pragma unroll [N]` and `#pragma nounroll` in device code: g++'s own spelling (`#pragma GCC unroll N`;
// without a count, dropped: g++ has no "as much as possible", and -Wall would warn of an unknown pragma
// where nvcc says nothing).
static void unroll_pragma(size_t k) {
    std::string t = text(toks[k]);
    size_t p = t.find_first_not_of("# \t");
    if (p == std::string::npos || t.compare(p, 6, "pragma") != 0) return;
    p = t.find_first_not_of(" \t", p + 6);
    if (p == std::string::npos) return;
    if (t.compare(p, 8, "nounroll") == 0) { edits[k].replace = "#pragma GCC unroll 1"; return; }
    if (t.compare(p, 6, "unroll") != 0) return;
    std::string count = t.substr(p + 6);
    count.erase(0, count.find_first_not_of(" \t"));
    while (!count.empty() && (count.back() == ' ' || count.back() == '\t' || count.back() == '\r')) count.pop_back();
    bool number = !count.empty() && count.find_first_not_of("0123456789") == std::string::npos;
    if (number && count != "0") edits[k].replace = "#pragma GCC unroll " + count;
    else edits[k].drop = true;
}

struct DeviceFn { size_t decl_start, body_open, body_close; std::string name; bool global, is_template; };

// After a kernel's definition, on its closing line: its registration by address, so that cudaLaunchKernel
// and cudaLaunchCooperativeKernel can launch it from a void ** argument array (include/cudawb/launch.h).
// A constructor of its own, cudawb_reg_N, not a global's initializer: the grader's policy (grader/policy/)
// tells it by that name from a student's constructor, which a shared _GLOBAL__sub_I_ function would hide.
// The function type is spelled from the parameter list (an overloaded kernel stays unambiguous), without
// default arguments; template kernels have no single address and are not registered.
static std::string registration(const DeviceFn &f, std::map<std::string, bool> &barrier,
                                std::map<std::string, bool> &warp, std::map<std::string, bool> &lanes,
                                std::map<std::string, int> &lockstep_flags) {
    if (!f.global || f.is_template || f.name.empty()) return "";
    size_t open = f.decl_start;
    while (open < f.body_open && !(is(open, "(") && toks[open - 1].kind == IDENT && text(toks[open - 1]) == f.name))
        open++;
    if (open >= f.body_open) return "";
    size_t close = match(open);
    std::string params;
    int depth = 0;
    bool skipping = false;
    for (size_t m = open + 1; m < close; m++) {
        if (is(m, "(") || is(m, "[") || is(m, "{")) depth++;
        if (is(m, ")") || is(m, "]") || is(m, "}")) depth--;
        if (depth == 0 && is(m, "=")) skipping = true;
        if (depth == 0 && is(m, ",")) skipping = false;
        if (!skipping) params += (toks[m].space ? " " : "") + text(toks[m]);
    }
    static int count;
    int flags = (barrier[f.name] ? 1 : 0) | (warp[f.name] ? 2 : 0) | (lanes[f.name] ? 8 : 0) | lockstep_flags[f.name];
    return " __attribute__((constructor)) static void cudawb_reg_" + std::to_string(count++) + "(void) { "
           "cudawb::register_by_args(static_cast<void (*)(" + params + ")>(" + f.name + "), \"" + f.name + "\", " +
           std::to_string(flags) + "); }";
}

// Speed: a kernel that can reach neither a barrier nor a warp primitive runs a whole row of its block's threads
// (threadIdx.x from threadIdx.x to threadIdx.x + cudawb_lanes - 1, set by the runtime: the row's width in the
// plain loop, 1 where each thread needs its own hooks: shuffled order, memory checker) in one call. Its body
// becomes a lambda called in a loop, its threadIdx a local copy (cudawb_tid: the body's own threadIdx tokens
// are renamed, so that nothing shadows the global one under -Wshadow), so that g++ keeps the thread's index
// in a register, hoists what the threads share, and inlines the whole row into one function. The lambda takes
// the arguments by value: a thread that changes its copy must not change the next thread's. The global
// threadIdx is still set for each thread, for device functions, assert and the fault handler. All on the
// body's own lines (the opening and closing brace's): no line number moves.
static bool lane_loop_ok(const DeviceFn &f, std::map<std::string, bool> &barrier, std::map<std::string, bool> &warp) {
    return f.global && !f.name.empty() && !barrier[f.name] && !warp[f.name];
}
static void lane_loop(const DeviceFn &f) {
    edits[f.body_open].insert_after +=
        " for (unsigned cudawb_tx = threadIdx.x, cudawb_tn = cudawb_tx + cudawb_lanes; cudawb_tx < cudawb_tn;"
        " cudawb_tx++) [=]() mutable __attribute__((always_inline)) { threadIdx.x = cudawb_tx;"
        " const uint3 cudawb_tid __attribute__((unused)) = {cudawb_tx, threadIdx.y, threadIdx.z};";
    edits[f.body_close].insert_before += " }(); ";
    for (size_t k = f.body_open + 1; k < f.body_close; k++)
        if (is(k, "threadIdx") && !is(k - 1, ".") && !is(k - 1, "->") && !is(k - 1, "::"))
            edits[k].replace = "cudawb_tid";
}

#include "lockstep.h"

// ---- shared-memory accesses, for the checkers (include/cudawb/shared_check.h) ----
// Each use of a __shared__ variable in device code is wrapped so that, under the memory checker or the race
// checker, the runtime sees the address, size and kind of the access and its line:
//   s[i][j] += v   ->   (*cudawb::sh(__builtin_addressof(s[i][j]), cudawb::sh_extent(s), cudawb::SH_RMW,
//                                    "file.cu", 12)) += v
// An array is wrapped with as many subscripts as it was declared with (a further one would index through an
// element that is a pointer), a scalar alone, then its members (s[i].x: the member x); so are the subscripts
// of a pointer a device function initialises from a shared variable and never assigns again (float *p = s + 8:
// bounded by s), and of volatile pointers. Not seen: other pointers to shared memory (a parameter), which the
// tokens alone cannot tell from pointers to global memory.
// pointer: a volatile pointer; of: the shared variable an alias points into; fn: the function whose parameter
// or local it is (-1: visible by position)
struct SharedVar {
    std::string name;
    int dims;
    bool dynamic;
    size_t decl, decl_end;
    bool pointer;
    long fn;
    std::string of;
};
static std::vector<SharedVar> shared_vars;

// The names declared by "__shared__ ... ;" (tokens i..end): "float a[32], b[8][8]" gives a (1), b (2).
static void shared_declarators(size_t i, size_t end, bool dynamic) {
    size_t j = i + 1;
    while (j < end) {
        std::string name;
        int angle = 0;
        size_t stop = j;
        for (; stop < end; stop++) {
            if (is(stop, "(")) { stop = match(stop); continue; }
            if (is(stop, "<")) angle++;
            if (is(stop, ">") && angle > 0) angle--;
            if (angle == 0 && (is(stop, "[") || is(stop, "=") || is(stop, ","))) break;
            if (toks[stop].kind == IDENT && angle == 0) name = text(toks[stop]);
        }
        int dims = 0;
        size_t e = stop;
        while (e < end && is(e, "[")) { dims++; e = match(e) + 1; }
        if (!name.empty() && name != "__attribute__")
            shared_vars.push_back(SharedVar{name, dims, dynamic, i, end, false, -1, ""});
        while (e < end && !is(e, ",")) { if (is(e, "(") || is(e, "[") || is(e, "{")) e = match(e); e++; }
        j = e + 1;
    }
}

// Volatile pointers in device functions ("volatile float *s", a parameter or a local): in CUDA they point to
// shared memory read by warp-synchronous code (the unrolled last warp of a reduction), so their subscripts are
// wrapped too; the runtime finds which shared variable the address is in (src/racecheck.cpp).
static void volatile_pointers(const std::vector<DeviceFn> &fns) {
    for (size_t n = 0; n < fns.size(); n++) {
        const DeviceFn &f = fns[n];
        for (size_t k = f.decl_start; k < f.body_close; k++) {
            if (!is(k, "volatile")) continue;
            size_t m = k + 1;
            while (m < f.body_close && (toks[m].kind == IDENT || is(m, "::"))) m++;
            if (is(m, "*") && toks[m + 1].kind == IDENT && !is(m + 2, "("))
                shared_vars.push_back(SharedVar{text(toks[m + 1]), 1, false, k, m + 1, true, (long)n, ""});
        }
    }
}

// The shared variable (or alias, or volatile pointer) the name at token k of function fi means: one of the
// function's own declared before k, else one at namespace scope.
static const SharedVar *lookup(const std::vector<DeviceFn> &fns, size_t fi, size_t k) {
    const DeviceFn &f = fns[fi];
    const SharedVar *v = nullptr;
    for (const SharedVar &c : shared_vars) {
        if (c.name.size() != toks[k].len || text(toks[k]) != c.name || c.decl_end >= k) continue;
        if (c.fn >= 0) {
            if (c.fn == (long)fi) v = &c;
            continue;
        }
        bool local = c.decl > f.body_open && c.decl < f.body_close;
        bool in_fn = false;
        for (const DeviceFn &g : fns) in_fn |= c.decl > g.body_open && c.decl < g.body_close;
        if (local) v = &c;
        else if (!in_fn && !v) v = &c;
    }
    if (v && (is(k - 1, ".") || is(k - 1, "->") || is(k - 1, "::") || is(k + 1, "::"))) return nullptr;  // a member
    return v;
}

// "T *p = s + n;" in a device function, s a shared variable (or another alias), p never assigned again: p's
// subscripts are accesses of s.
static void alias_pointers(const std::vector<DeviceFn> &fns) {
    for (size_t n = 0; n < fns.size(); n++) {
        const DeviceFn &f = fns[n];
        for (size_t k = f.body_open + 1; k + 3 < f.body_close; k++) {
            if (!is(k, "*") || toks[k + 1].kind != IDENT || !is(k + 2, "=") || is(k + 3, "=") ||
                (toks[k - 1].kind != IDENT && !is(k - 1, ">") && !is(k - 1, ",")))
                continue;
            // the initialiser, up to the ; or , that ends it: the first shared name in it is the source
            const SharedVar *source = nullptr;
            size_t end = k + 3;
            for (int depth = 0; end < f.body_close && (depth > 0 || (!is(end, ";") && !is(end, ","))); end++) {
                depth += is(end, "(") || is(end, "[") ? 1 : is(end, ")") || is(end, "]") ? -1 : 0;
                const SharedVar *c = toks[end].kind == IDENT && !source ? lookup(fns, n, end) : nullptr;
                if (c && !c->pointer) source = c;
            }
            if (!source) continue;
            std::string name = text(toks[k + 1]);
            bool assigned = false;
            for (size_t m = end; m + 1 < f.body_close && !assigned; m++)
                assigned = toks[m].kind == IDENT && text(toks[m]) == name && is(m + 1, "=") && !is(m + 2, "=") &&
                           !is(m - 1, ".") && !is(m - 1, "->");
            if (!assigned)
                shared_vars.push_back(SharedVar{name, 1, source->dynamic, k, end, false, (long)n,
                                                source->of.empty() ? source->name : source->of});
        }
    }
}

static void instrument_shared(const std::vector<DeviceFn> &fns) {
    static const std::set<std::string> before_ok = {"return", "case", "else", "do"};
    volatile_pointers(fns);
    alias_pointers(fns);
    for (size_t fi = 0; fi < fns.size(); fi++) {
        const DeviceFn &f = fns[fi];
        for (size_t k = f.body_open + 1; k < f.body_close; k++) {
            if (toks[k].kind != IDENT) continue;
            const SharedVar *v = lookup(fns, fi, k);
            // not ours: another name, or a declaration of another variable with the same name
            if (!v || (toks[k - 1].kind == IDENT && !before_ok.count(text(toks[k - 1])))) continue;
            size_t e = k;
            if (v->dims > 0) {
                if (!is(k + 1, "[")) continue;  // the array itself (passed on, or decaying to a pointer)
                e = match(k + 1);
                for (int n = 1; n < v->dims && is(e + 1, "["); n++) e = match(e + 1);
            }
            // a member of an element (or of a struct): the member itself, so that threads writing different
            // members do not race; a member array or a method call ends the access
            while (is(e + 1, ".") && toks[e + 2].kind == IDENT && !is(e + 3, "(") && !is(e + 3, "<")) e += 2;
            const char *kind = "cudawb::SH_READ";
            bool unary_amp = is(k - 1, "&") && !(toks[k - 2].kind == IDENT && !before_ok.count(text(toks[k - 2]))) &&
                             toks[k - 2].kind != NUMBER && !is(k - 2, ")") && !is(k - 2, "]");
            if (unary_amp) {
                // its address: no access yet, unless it is an atomic's target
                if (!(is(k - 2, "(") && toks[k - 3].kind == IDENT && text(toks[k - 3]).compare(0, 6, "atomic") == 0))
                    continue;
                kind = "cudawb::SH_ATOMIC";
            } else {
                size_t t = e + 1;  // past member accesses, to the operator that says read or write
                while ((is(t, ".") && toks[t + 1].kind == IDENT) || is(t, "[")) t = is(t, "[") ? match(t) + 1 : t + 2;
                bool pre = (is(k - 1, "+") && is(k - 2, "+")) || (is(k - 1, "-") && is(k - 2, "-"));
                bool post = (is(t, "+") && is(t + 1, "+")) || (is(t, "-") && is(t + 1, "-"));
                bool compound = (is(t + 1, "=") && !toks[t + 1].space && toks[t].kind == PUNCT &&
                                 strchr("+-*/%&|^", src[toks[t].pos])) ||
                                ((is(t, "<") || is(t, ">")) && is(t + 1, src[toks[t].pos] == '<' ? "<" : ">") &&
                                 is(t + 2, "="));
                if (pre || post || compound) kind = "cudawb::SH_RMW";
                else if (is(t, "=") && !is(t + 1, "=")) kind = "cudawb::SH_WRITE";
            }
            std::string file;
            for (char c : files[toks[k].file]) { if (c == '"' || c == '\\') file += '\\'; file += c; }
            edits[k].insert_before += "(*cudawb::sh(__builtin_addressof(";
            std::string span = v->pointer ? "cudawb::sh_span{0, cudawb::SH_POINTER}"
                                          : "cudawb::" + std::string(v->dynamic ? "sh_dynamic(" : "sh_extent(") +
                                                (v->of.empty() ? v->name : v->of) + ")";
            edits[e].insert_after = "), " + span + ", " + kind + ", \"" + file + "\", " +
                                    std::to_string(toks[k].line) + "))" + edits[e].insert_after;
        }
    }
}

// A kernel's default arguments: a launch that leaves them out gets them written in (the typed launch passes
// the kernel's full parameter list, as cudaLaunchKernel's argument array does). Name -> each parameter's
// default ("" for none); a name declared twice with different defaults (overloads) is left out.
static std::map<std::string, std::vector<std::string>> kernel_defaults;
static std::set<std::string> ambiguous_defaults;

// The parameter list of the kernel declared in tokens [from, to): its first "(" after an identifier.
static void note_defaults(size_t from, size_t to) {
    size_t open = from;
    while (open < to && !(is(open, "(") && toks[open - 1].kind == IDENT)) open++;
    if (open >= to) return;
    std::string name = text(toks[open - 1]);
    size_t close = match(open);
    std::vector<std::string> defaults(1);
    bool any = false, in_default = false;
    int depth = 0;
    for (size_t m = open + 1; m < close; m++) {
        if (is(m, "(") || is(m, "[") || is(m, "{")) depth++;
        if (is(m, ")") || is(m, "]") || is(m, "}")) depth--;
        if (depth == 0 && is(m, ",")) { defaults.emplace_back(); in_default = false; continue; }
        if (depth == 0 && !in_default && is(m, "=")) { in_default = any = true; continue; }
        // (a macro of a system header, NULL, comes between linemarkers: not part of the expression)
        if (in_default && toks[m].kind != DIRECTIVE) defaults.back() += (toks[m].space ? " " : "") + text(toks[m]);
    }
    if (!any) return;
    auto it = kernel_defaults.find(name);
    if (it != kernel_defaults.end() && it->second != defaults) ambiguous_defaults.insert(name);
    kernel_defaults[name] = defaults;
}

// At a launch of a kernel with defaults: the ones its arguments (open..close) leave out, appended.
static void fill_defaults(const std::string &kernel, size_t open, size_t close) {
    auto it = kernel_defaults.find(kernel);
    if (it == kernel_defaults.end() || ambiguous_defaults.count(kernel)) return;
    size_t given = close > open + 1 ? 1 : 0;
    int depth = 0;
    for (size_t m = open + 1; m < close; m++) {
        if (is(m, "(") || is(m, "[") || is(m, "{")) depth++;
        if (is(m, ")") || is(m, "]") || is(m, "}")) depth--;
        if (depth == 0 && is(m, ",")) given++;
    }
    const std::vector<std::string> &d = it->second;
    for (size_t n = given; n < d.size() && !d[n].empty(); n++)
        edits[close].insert_before += (n ? ", " : "") + d[n];
}

int main() {
    // Read stdin whole.
    char buf[1 << 16];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0) src.append(buf, got);
    lex();
    edits.resize(toks.size() + 1);
    depth_at.resize(toks.size() + 1);
    for (size_t i = 0, d = 0; i < toks.size(); i++) {  // brace depth: 0 at namespace scope (roughly)
        if (is(i, "}") && d > 0) d--;
        depth_at[i] = d;
        if (is(i, "{")) d++;
    }

    // 1. Find __global__/__device__ functions and qualified variables.
    std::vector<DeviceFn> fns;
    std::set<std::string> template_kernels, declared_only;
    for (size_t i = 0; i < toks.size(); i++) {
        if (toks[i].kind != IDENT) continue;
        bool g = is(i, "__global__"), d = is(i, "__device__"), h = is(i, "__host__");
        if (is(i, "__constant__") || is(i, "__managed__")) { edits[i].drop = true; continue; }
        // __noinline__ (libstdc++ also writes __attribute__((__noinline__)), so it cannot be a macro)
        if (is(i, "__noinline__")) {
            if (!(i >= 2 && is(i - 1, "(") && is(i - 2, "("))) edits[i].replace = "__attribute__((noinline))";
            continue;
        }
        if (is(i, "__shared__")) {
            // the qualifier may follow the type ("extern double __shared__ s[];", as nvcc allows): the
            // storage class is looked for from the declaration's start, and __thread goes right after it
            size_t start = i, storage = 0;
            while (start > 0 && toks[start - 1].kind != DIRECTIVE && !is(start - 1, ";") && !is(start - 1, "{") &&
                   !is(start - 1, "}"))
                start--;
            for (size_t m = start; m < i; m++)
                if (is(m, "extern") || is(m, "static")) storage = m + 1;
            bool ext = storage && is(storage - 1, "extern"), stat = storage && is(storage - 1, "static");
            size_t k = i;
            while (k < toks.size() && !is(k, ";")) k++;
            shared_declarators(i, k, ext);
            if (ext && depth_at[i] > 0 && k < toks.size() && is(k - 1, "]") && is(k - 2, "[") &&
                toks[k - 3].kind == IDENT) {
                // in a function: a const pointer to the running worker's dynamic buffer (an asm label on a
                // block-scope extern is lost by g++ in some template instantiations)
                edits[storage - 1].drop = edits[i].drop = true;
                edits[k - 3].insert_before += "*const ";
                edits[k - 3].insert_after += " __attribute__((unused))";
                edits[k - 2].drop = edits[k - 1].drop = true;
                edits[k].insert_before += " = cudawb::dynamic_shared()";
            } else if (ext) {
                // at namespace scope: every such array names the per-worker buffer itself
                edits[i].drop = true;
                edits[storage - 1].insert_after += " __thread";
                if (k < toks.size()) edits[k].insert_before = " __asm__(\"cudawb_dynsmem\")";
            } else if (stat) {
                edits[i].drop = true;
                edits[storage - 1].insert_after += " __thread";
            } else {
                // after a leading alignas (nvcc takes "__shared__ alignas(16) float a[...]"): g++ wants
                // standard attributes ahead of the storage class
                size_t at = start;
                while (at < k && (is(at, "__shared__") || (is(at, "alignas") && is(at + 1, "("))))
                    at = is(at, "alignas") ? match(at + 1) + 1 : at + 1;
                edits[i].drop = true;
                edits[at].insert_before += "static __thread ";
            }
            continue;
        }
        if (!g && !d && !h) continue;
        edits[i].drop = true;
        // an extended lambda, [=] __host__ __device__ (...) {...}: plain C++ here (but not [[attribute]] __device__)
        if (i > 0 && is(i - 1, "]") && !is(match_back(i - 1) + 1, "[")) {
            while (i + 1 < toks.size() && (is(i + 1, "__device__") || is(i + 1, "__host__"))) edits[++i].drop = true;
            continue;
        }
        // Skip the other qualifiers of the same declaration, then decide: function body or not?
        size_t k = i + 1;
        bool paren = false, any_global = g, any_device = g || d;
        for (; k < toks.size(); k++) {
            if (is(k, "__global__") || is(k, "__device__") || is(k, "__host__")) {
                edits[k].drop = true;
                any_global |= is(k, "__global__");
                any_device |= !is(k, "__host__");
                continue;
            }
            if (is(k, "(") || is(k, "[")) { if (is(k, "(")) paren = true; k = match(k); continue; }
            if (is(k, ";") || is(k, "=") || is(k, "{") || is(k, "}")) break;
        }
        if (k < toks.size() && is(k, "{") && paren && any_device) {
            DeviceFn f;
            f.global = any_global;
            f.body_open = k;
            f.body_close = match(k);
            // name: identifier before the first top-level "(" after the qualifiers
            for (size_t m = i + 1; m < k; m++)
                if (is(m, "(")) { if (m > 0 && toks[m - 1].kind == IDENT) f.name = text(toks[m - 1]); break; }
            // start of the declaration (for the diagnostic pragmas): after the previous ; { } or access label
            size_t s = i;
            while (s > 0) {
                size_t b = s - 1;
                if (toks[b].kind == DIRECTIVE || is(b, ";") || is(b, "{") || is(b, "}")) break;
                if (is(b, ":") && b > 0 && (is(b - 1, "public") || is(b - 1, "private") || is(b - 1, "protected")))
                    break;
                if (is(b, ")") || is(b, "]")) { s = match_back(b); continue; }
                s = b;
            }
            f.decl_start = s;
            f.is_template = is(s, "template");
            if (f.global && f.is_template) template_kernels.insert(f.name);
            if (f.global) note_defaults(i, k);
            fns.push_back(f);
            i = k;  // qualifiers inside the body (none legal) are not looked at
        }
        if (k < toks.size() && is(k, ";") && paren && any_device) {
            // a prototype: the body is in another file, so what it does is unknown here
            if (any_global) note_defaults(i, k);
            for (size_t m = i + 1; m < k; m++)
                if (is(m, "(")) { if (toks[m - 1].kind == IDENT) declared_only.insert(text(toks[m - 1])); break; }
        }
    }

    // 2. Inside device function bodies: renames, unsupported features, which functions reach __syncthreads.
    std::map<std::string, bool> barrier;           // function name -> uses a barrier (directly or not)
    std::map<std::string, bool> warp;              // ... warp primitives or cooperative groups
    std::map<std::string, std::set<std::string>> calls;
    std::set<std::string> device_names;
    for (auto &f : fns) device_names.insert(f.name);
    for (auto &f : fns) {
        for (size_t k = f.decl_start; k < f.body_open; k++)
            if (toks[k].kind == IDENT && (warp_level(k, false) || block_wait(k)))
                warp[f.name] = barrier[f.name] = true;
        for (size_t k = f.body_open + 1; k < f.body_close; k++) {
            if (toks[k].kind == DIRECTIVE) { unroll_pragma(k); continue; }
            if (toks[k].kind != IDENT) continue;
            std::string id = text(toks[k]);
            if (id == "printf" && is(k + 1, "(")) edits[k].replace = "cudawb_printf";
            else if (id == "__assert_fail") edits[k].replace = "cudawb_assert_fail";
            else if (id.compare(0, 13, "__syncthreads") == 0) barrier[f.name] = true;
            else if (warp_level(k, true) || block_wait(k)) warp[f.name] = barrier[f.name] = true;
            else if (device_names.count(id) && id != f.name) calls[f.name].insert(id);
            else if (declared_only.count(id) && is(k + 1, "(")) warp[f.name] = barrier[f.name] = true;  // may sync
            const char *why = unsupported(id);
            if (why)
                error_at(k, "'" + id + "' " + why + ", which the CPU backend does not support (see cpu/README.md)");
        }
    }
    for (auto *uses : {&barrier, &warp})
        for (bool changed = true; changed;) {
            changed = false;
            for (auto &c : calls)
                if (!(*uses)[c.first])
                    for (auto &callee : c.second)
                        if ((*uses)[callee]) { (*uses)[c.first] = true; changed = true; break; }
        }

    // 3a. Barrier-free kernels run a row of threads per call (lane_loop). A name counts as such only if every
    // kernel of that name does (overloads), as the launch's flags are chosen by name.
    std::map<std::string, bool> lanes;
    for (auto &f : fns)
        if (f.global) lanes[f.name] = lanes.count(f.name) ? lanes[f.name] && lane_loop_ok(f, barrier, warp)
                                                          : lane_loop_ok(f, barrier, warp);
    for (auto &f : fns)
        if (f.global && lanes[f.name] && f.body_close < toks.size()) lane_loop(f);

    // 3b. Kernels that gain from running their threads together get a lockstep copy of their body (lockstep.h),
    // first in the body, ahead of the row loop; CUDAWB_LOCKSTEP=0 (bin/nvcc-cpu's second try) makes none.
    // As with the row loop, a name counts only if every kernel of that name has a copy.
    std::map<std::string, int> lockstep_flags;
    {
        for (auto &f : fns)
            if (!f.global)
                for (size_t k = f.body_open + 1; k < f.body_close && k < toks.size(); k++)
                    if (is(k, "threadIdx")) lockstep::tid_users.insert(f.name);
        for (bool changed = true; changed;) {
            changed = false;
            for (auto &c : calls)
                if (!lockstep::tid_users.count(c.first))
                    for (auto &callee : c.second)
                        if (lockstep::tid_users.count(callee)) { lockstep::tid_users.insert(c.first); changed = true; break; }
        }
        for (auto &f : fns)
            if (!f.global && barrier[f.name]) lockstep::sync_users.insert(f.name);
        const char *env = getenv("CUDAWB_LOCKSTEP");
        bool on = !(env && strcmp(env, "0") == 0);
        std::map<std::string, std::string> copies;
        std::map<const DeviceFn *, std::string> made;
        for (auto &f : fns) {
            if (!f.global) continue;
            int fl = 0;
            std::string c = on ? lockstep::copy(f, barrier[f.name], warp[f.name], &fl) : "";
            lockstep_flags[f.name] = lockstep_flags.count(f.name) ? (lockstep_flags[f.name] & fl) : fl;
            if (!c.empty()) made[&f] = c;
        }
        for (auto &m : made) {
            const DeviceFn &f = *m.first;
            if (!lockstep_flags[f.name]) continue;
            const Token &t = toks[f.body_open];
            char mark[600];
            snprintf(mark, sizeof mark, "\n# %d \"%s\"%s\n", t.line, files[t.file].c_str(),
                     file_is_system[t.file] ? " 3" : "");
            edits[f.body_open].insert_after = m.second + mark + edits[f.body_open].insert_after;
        }
    }

    // 3. Diagnostics pragmas around device functions (kept on their own lines, then the line number restored),
    // and g++'s dynamic vectorizer cost model for them alone: their lane loops (lockstep.h, lane_loop) run a
    // number of threads known only at run time, which -O2's default model never vectorizes; the student's
    // host code keeps the options it was given (a plain C loop beside the kernels is compiled as plain C).
    for (auto &f : fns) {
        const Token &a = toks[f.decl_start], &b = toks[f.body_close < toks.size() ? f.body_close : toks.size() - 1];
        char mark[600];
        snprintf(mark, sizeof mark, "\n# %d \"%s\"%s\n", a.line, files[a.file].c_str(),
                 file_is_system[a.file] ? " 3" : "");
        // (#pragma GCC optimize is allowed at namespace scope only: not for a member function, or a function in
        // a namespace, which brace depth cannot tell from a class)
        bool top = depth_at[f.decl_start] == 0;
        edits[f.decl_start].insert_before +=
            std::string(top ? "\n#pragma GCC push_options\n#pragma GCC optimize (\"vect-cost-model=dynamic\")" : "") +
            std::string("\n#pragma GCC diagnostic push\n#pragma GCC diagnostic ignored \"-Wsign-compare\"\n"
                        "#pragma GCC diagnostic ignored \"-Wunused-parameter\"\n"
                        "#pragma GCC diagnostic ignored \"-Wunused-function\"") + mark;
        snprintf(mark, sizeof mark, "\n#pragma GCC diagnostic pop%s\n# %d \"%s\"%s\n",
                 top ? "\n#pragma GCC pop_options" : "", b.line, files[b.file].c_str(),
                 file_is_system[b.file] ? " 3" : "");
        if (f.body_close < toks.size()) edits[f.body_close].insert_after += registration(f, barrier, warp, lanes, lockstep_flags) + mark;
    }

    instrument_shared(fns);

    // 4. Kernel launches.
    for (size_t i = 0; i + 2 < toks.size(); i++) {
        // "<<<", or "<< <" as clang-format spaces it (nvcc accepts both; "<< <" is no other C++)
        if (!(is(i, "<") && is(i + 1, "<") && is(i + 2, "<") && !toks[i + 1].space)) continue;
        if (i > 0 && is(i - 1, "operator")) continue;
        // the launch configuration ends at ">>>" at bracket depth 0
        size_t e = i + 3;
        int depth = 0;
        for (; e + 2 < toks.size(); e++) {
            if (is(e, "(") || is(e, "[") || is(e, "{")) depth++;
            else if (is(e, ")") || is(e, "]") || is(e, "}")) depth--;
            else if (depth == 0 && is(e, ">") && is(e + 1, ">") && is(e + 2, ">") && !toks[e + 1].space)
                break;  // ">>>" or ">> >"
        }
        if (e + 3 >= toks.size() || !is(e + 3, "(")) { error_at(i, "cannot parse this kernel launch"); continue; }
        // the callee: ident, ns::ident, ident<targs>, (expr)
        size_t s = i;
        bool explicit_targs = false;
        for (;;) {
            if (s == 0) break;
            size_t b = s - 1;
            if (is(b, ">")) {  // template arguments; parenthesized ones may hold < and >
                int d = 0;
                size_t m = b + 1;
                while (m-- > 0) {
                    if (is(m, ")") || is(m, "]")) { m = match_back(m); continue; }
                    if (is(m, ";") || is(m, "{") || is(m, "}") || m == 0) { m = b + 1; break; }
                    if (is(m, ">")) d++;
                    else if (is(m, "<") && --d == 0) break;
                }
                if (m == b + 1) break;  // not template arguments after all
                explicit_targs = true;
                s = m;
                continue;
            }
            if (is(b, ")")) { s = match_back(b); break; }
            if (toks[b].kind == IDENT) {
                s = b;
                if (s >= 2 && is(s - 1, "::") && toks[s - 2].kind == IDENT) { s--; continue; }
                if (s >= 1 && is(s - 1, "::")) s--;
                break;
            }
            break;
        }
        if (s == i || i - s > 200) { error_at(i, "cannot find the kernel of this launch"); continue; }
        std::string callee;
        for (size_t m = s; m < i; m++) callee += (m > s && toks[m].space ? " " : "") + text(toks[m]);
        std::string last = callee;
        size_t lt = last.find('<');
        if (lt != std::string::npos) last = last.substr(0, lt);
        size_t cc = last.rfind("::");
        if (cc != std::string::npos) last = last.substr(cc + 2);
        bool known = device_names.count(last) > 0;
        int flags = !known ? 3 : (barrier[last] ? 1 : 0) | (warp[last] ? 2 : 0) | (lanes[last] ? 8 : 0) |
                                     lockstep_flags[last];
        std::string quoted;
        for (char c : callee) { if (c == '"' || c == '\\') quoted += '\\'; quoted += c; }
        // typed form (arguments converted to the kernel's parameter types once, at launch) unless the
        // kernel is a template whose arguments are deduced from the launch arguments
        bool generic = template_kernels.count(last) && !explicit_targs;
        edits[s].insert_before += generic ? "cudawb::launch_generic(" : "cudawb::launch(";
        if (!generic) {
            // "k" appears twice: as the typed pointer and inside the lambda that calls it directly
            edits[i - 1].insert_after += ", [=](auto... cudawb_a) { " + callee + "(cudawb_a...); }";
        } else {
            edits[s].insert_before += "[=](auto... cudawb_a) { ";
            edits[i - 1].insert_after += "(cudawb_a...); }";
        }
        edits[i].replace = ", \"" + quoted + "\", " + std::to_string(flags) + ", ";
        edits[i + 1].drop = edits[i + 2].drop = true;
        edits[e].replace = ")";
        edits[e + 1].drop = edits[e + 2].drop = true;
        if (!generic) fill_defaults(last, e + 3, match(e + 3));
        i = e + 2;
    }
    if (errors) return 1;

    // 5. Write out: original text between tokens (keeps every newline), with the edits applied.
    size_t p = 0;
    for (size_t i = 0; i < toks.size(); i++) {
        const Token &t = toks[i];
        fwrite(src.data() + p, 1, t.pos - p, stdout);
        const Edit &e = edits[i];
        fputs(e.insert_before.c_str(), stdout);
        if (!e.replace.empty()) fputs(e.replace.c_str(), stdout);
        else if (!e.drop) fwrite(src.data() + t.pos, 1, t.len, stdout);
        fputs(e.insert_after.c_str(), stdout);
        p = t.pos + t.len;
    }
    fwrite(src.data() + p, 1, src.size() - p, stdout);
    return 0;
}
