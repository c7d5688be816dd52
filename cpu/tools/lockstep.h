// lockstep.h (part of cudapp.cpp): a second copy of a kernel's body whose GPU threads run together, as the
// lanes of a warp do, so that g++ can vectorize across them (issue 13, "Speed").
//
// The body is parsed into statements (not expressions). Each run of simple statements becomes a loop over the
// lanes, and the kernel's control flow runs once for all of them:
//   * a local variable becomes an array with an element per lane, bound by name in each lane loop
//     (auto &sum = cudawb_v3[cudawb_l]), unless it never changes and its initializer only computes from
//     indices, parameters and such variables (no memory, no calls): then each lane loop computes it again
//     (so g++ sees col = blockIdx.x * blockDim.x + lane, and loads b[k * n + col] as one vector), or, when it
//     does not depend on the thread, it is declared once, as written;
//   * a loop whose variables are declared in its header, depend on no thread and are changed only by its step,
//     with no break or continue of its own, runs once for all lanes (the lane loops are moved inside it);
//     an `if` that depends on the thread keeps a mask per lane (a return clears the lane from every mask);
//   * any other loop (a grid-stride loop, a while per thread) runs whole in one lane loop, each lane its own
//     loop as written: masks at each step would cost more than the step;
//   * a __syncthreads() that every lane of the block reaches together is a call to the barrier: the runtime
//     then runs each warp's lockstep copy as a fiber (src/fiber.cpp), 32 lanes, so warps still race as on a GPU.
// A barrier-free kernel's lane group is its whole block (the threads of a block share what they read: the
// naive matrix multiply reads each row of B once per block instead of once per warp).
//
// The copy runs only where the runtime sets cudawb_lockstep: never under the checkers or a shuffled order,
// which need a hook per thread, and they run the original body, which also gives every warning. The copy's
// lines are marked as a system header (no warnings); if it does not compile, bin/nvcc-cpu builds the file
// again without it (CUDAWB_LOCKSTEP=0), so a kernel this transformation cannot handle loses only speed.
// What makes a kernel keep only its original body: a construct not handled outside such loops' braces (switch,
// goto, labels, lambdas, references, static, volatile or auto-typed locals, arrays with initializers, a
// name declared again in an inner scope), a barrier inside a branch or loop that depends on the thread, or
// warp primitives.
// A kernel without barriers is copied only if it has a loop that runs for all lanes: the row loop
// (lane_loop) already serves straight-line kernels well.

namespace lockstep {

enum Cls { REMAT, UNIFORM, VARYING };
struct Var {
    std::string name;
    Cls cls;
    size_t ds_b, ds_e;      // declaration specifiers
    size_t dr_b, dr_e;      // declarator: pointer operators, name, array bounds
    size_t in_b, in_e;      // initializer (without '=' or the brackets), empty if none
    char init_kind;         // '=', '{', '(' or 0
    bool is_array, top_const, param;
    bool pointer = false;   // a parameter declared as a pointer (global memory)
    int id;
};

enum Kind { SIMPLE, DECL, BLOCK, IF, FOR, WHILE, DO, RETURN, BREAK, CONTINUE, SYNC, EMPTY, PLAIN };
struct Stmt {
    Kind k;
    size_t b = 0, e = 0;                  // tokens [b, e), e after the ';' or '}'
    size_t c_b = 0, c_e = 0;              // condition
    size_t s_b = 0, s_e = 0;              // step (for)
    std::vector<Stmt> kids;               // BLOCK: its statements; IF: then[, else]; loops: [init,] body
    bool has_init = false;
    std::vector<int> vars;                // DECL: what it declares
    bool plain_loop = false, plain_if = false;
    bool opaque = false;                  // a loop body not parsed: run whole per lane, as written
};

struct Fail {};

static std::vector<Var> vars;
static std::vector<std::vector<int>> scopes;   // visible variables, innermost last
static size_t body_b, body_e;
static bool has_return, has_sync, has_plain_loop;
static std::set<std::string> tid_users;         // device functions that read threadIdx (directly or not)
static std::set<std::string> sync_users;        // ... that reach __syncthreads: a lane loop cannot call them

// CUDAWB_LOCKSTEP_DEBUG=1: say on stderr why a kernel keeps only its original body (the line in this file)
static void fail(int why = __builtin_LINE()) {
    if (getenv("CUDAWB_LOCKSTEP_DEBUG")) fprintf(stderr, "cudapp: no lockstep copy (lockstep.h:%d)\n", why);
    throw Fail();
}

static int lookup(const std::string &n) {
    for (size_t s = scopes.size(); s-- > 0;)
        for (int v : scopes[s])
            if (vars[v].name == n) return v;
    return -1;
}

static bool one_of(size_t i, std::initializer_list<const char *> l) {
    for (const char *s : l) if (is(i, s)) return true;
    return false;
}

// functions known to take their arguments by value and to have no side effect on them
static bool pure_fn(const std::string &n) {
    static const std::set<std::string> names = {
        "min", "max", "umin", "umax", "llmin", "llmax", "abs", "labs", "llabs", "fabs", "fabsf", "fminf", "fmaxf",
        "fmin", "fmax", "sqrt", "sqrtf", "rsqrtf", "rsqrt", "exp", "expf", "__expf", "exp2f", "log", "logf",
        "__logf", "log2f", "log10f", "sin", "sinf", "__sinf", "cos", "cosf", "__cosf", "tan", "tanf", "tanhf",
        "tanh", "pow", "powf", "__powf", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "truncf", "trunc",
        "fmaf", "fma", "__fmaf_rn", "__fadd_rn", "__fmul_rn", "__mul24", "__umul24", "__popc", "__popcll", "__clz",
        "__clzll", "__ffs", "__ffsll", "__brev", "__brevll", "__mulhi", "__umulhi", "__float2int_rn",
        "__int2float_rn", "__saturatef", "copysignf", "erff", "cbrtf", "hypotf", "atan2f", "atanf", "asinf",
        "acosf", "expm1f", "log1pf", "sinhf", "coshf", "__fdividef", "make_float2", "make_float3", "make_float4",
        "make_int2", "make_int3", "make_int4", "make_uint2", "make_uint3", "make_uint4", "make_double2",
        "dim3", "static_cast", "float", "int", "unsigned", "double", "long", "short", "char", "bool", "size_t"};
    return names.count(n) > 0;
}
static bool type_word(size_t i) {
    return one_of(i, {"int", "unsigned", "signed", "float", "double", "char", "short", "long", "bool", "void",
                      "const", "volatile", "size_t", "auto", "constexpr", "register", "__restrict__", "typename",
                      "struct", "uint3", "dim3", "int2", "int3", "int4", "float2", "float3", "float4", "uint2",
                      "uint4", "double2", "double3", "double4", "int64_t", "uint64_t", "int32_t", "uint32_t",
                      "ptrdiff_t", "uintptr_t"});
}
static bool builtin_index(size_t i) {
    return one_of(i, {"threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"});
}
static bool member_pos(size_t i) { return i > 0 && (is(i - 1, ".") || is(i - 1, "->") || is(i - 1, "::")); }

// '(' enclosing token k (or SIZE_MAX)
static size_t enclosing_paren(size_t k) {
    int depth = 0;
    for (size_t m = k; m-- > body_b;) {
        if (is(m, ")") || is(m, "]") || is(m, "}")) depth++;
        else if (is(m, "(") || is(m, "[") || is(m, "{")) {
            if (depth == 0) return is(m, "(") ? m : SIZE_MAX;
            depth--;
        }
        else if (depth == 0 && is(m, ";")) return SIZE_MAX;
    }
    return SIZE_MAX;
}

// Whether name n may change in tokens [b, e): assigned, incremented, its address taken, or passed to a
// function that might take it by reference. Array elements count for arrays only (arr: true).
static bool modified_in(const std::string &n, size_t b, size_t e, bool arr) {
    for (size_t k = b; k < e; k++) {
        if (toks[k].kind != IDENT || text(toks[k]) != n || member_pos(k)) continue;
        if (k >= 2 && ((is(k - 1, "+") && is(k - 2, "+")) || (is(k - 1, "-") && is(k - 2, "-"))) &&
            !toks[k - 1].space)
            return true;
        if (k >= 1 && is(k - 1, "&") && !(k >= 2 && is(k - 2, "&")) &&
            !(k >= 2 && (toks[k - 2].kind == IDENT || toks[k - 2].kind == NUMBER || is(k - 2, ")") || is(k - 2, "]"))))
            return true;
        size_t j = k + 1;
        while (j < e) {
            if (is(j, ".") && j + 1 < e && toks[j + 1].kind == IDENT) { j += 2; continue; }
            if (arr && is(j, "[")) { j = match(j) + 1; continue; }
            break;
        }
        if (is(j, "=") && !is(j + 1, "=")) return true;
        if (one_of(j, {"+", "-", "*", "/", "%", "&", "|", "^"}) && is(j + 1, "=") && !toks[j + 1].space &&
            !is(j + 2, "="))
            return true;
        if ((is(j, "+") && is(j + 1, "+")) || (is(j, "-") && is(j + 1, "-"))) return true;
        if ((is(j, "<") && is(j + 1, "<") && is(j + 2, "=")) || (is(j, ">") && is(j + 1, ">") && is(j + 2, "=")))
            return true;
        if ((is(k - 1, "(") || is(k - 1, ",")) && (is(k + 1, ")") || is(k + 1, ","))) {
            size_t p = enclosing_paren(k);
            if (p != SIZE_MAX && p > 0 && toks[p - 1].kind == IDENT && !pure_fn(text(toks[p - 1])) &&
                !one_of(p - 1, {"if", "while", "for", "switch", "return", "sizeof", "printf", "cudawb_printf"}))
                return true;
        }
    }
    return false;
}

// An expression computed from indices, parameters and unchanging locals only: no memory access, no call
// but pure_fn's, no side effect. *tid: whether it depends on the thread.
static bool pure_expr(size_t b, size_t e, bool *tid) {
    *tid = false;
    for (size_t k = b; k < e; k++) {
        const Token &t = toks[k];
        if (t.kind == NUMBER || t.kind == CHAR) continue;
        if (t.kind == STRING || t.kind == DIRECTIVE) return false;
        if (t.kind == IDENT) {
            if (member_pos(k)) { if (is(k - 1, "->")) return false; continue; }
            if (builtin_index(k)) { if (is(k, "threadIdx")) *tid = true; continue; }
            if (type_word(k) || is(k, "sizeof") || is(k, "true") || is(k, "false")) continue;
            if (is(k + 1, "(") || (is(k + 1, "<") && is(k, "static_cast"))) { if (pure_fn(text(t))) continue; return false; }
            int v = lookup(text(t));
            if (v < 0 || vars[v].cls == VARYING) return false;
            if (vars[v].cls == REMAT) *tid = true;
            continue;
        }
        // punctuation: no subscript, dereference, address, assignment, increment or comma sequence
        if (one_of(k, {"[", "->", "{", ";"})) return false;
        if (is(k, "=") && !(k > b && one_of(k - 1, {"=", "!", "<", ">"})) && !is(k + 1, "=")) return false;
        if (is(k, "=") && k > b + 1 && one_of(k - 1, {"<", ">"}) && one_of(k - 2, {"<", ">"})) return false;
        if ((is(k, "+") && is(k + 1, "+")) || (is(k, "-") && is(k + 1, "-"))) return false;
        if (is(k, "&") && (is(k + 1, "&") || (k > b && is(k - 1, "&")))) continue;  // &&
        if ((is(k, "*") || is(k, "&")) &&
            (k == b || !(toks[k - 1].kind == IDENT || toks[k - 1].kind == NUMBER || is(k - 1, ")") || is(k - 1, "]"))))
            return false;
    }
    return true;
}

// ---- parsing ----
static size_t stmt_end(size_t i, size_t e) {  // index after the ';' ending a simple statement
    for (size_t k = i; k < e; k++) {
        if (is(k, "(") || is(k, "[") || is(k, "{")) { k = match(k); continue; }
        if (is(k, ";")) return k + 1;
    }
    fail();
    return e;
}

static Stmt parse_stmt(size_t i, size_t e, size_t *next);

static std::vector<Stmt> parse_list(size_t b, size_t e) {
    std::vector<Stmt> out;
    for (size_t i = b; i < e;) {
        if (toks[i].kind == DIRECTIVE) { i++; continue; }  // a line marker or #pragma between statements
        size_t n;
        out.push_back(parse_stmt(i, e, &n));
        i = n;
    }
    return out;
}

// a declaration statement [b, s) (s: its ';'): declares variables in the current scope
static void parse_decl(size_t b, size_t s, Stmt &st) {
    size_t k = b;
    // the declaration specifiers: keywords and a (qualified, templated) type name, up to the first declarator
    size_t ds_e = b;
    {
        size_t j = b;
        bool named = false;
        while (j < s) {
            if (type_word(j)) {
                if (!is(j, "const") && !is(j, "volatile") && !is(j, "constexpr") && !is(j, "register") &&
                    !is(j, "typename") && !is(j, "struct"))
                    named = true;
                j++;
                continue;
            }
            if (toks[j].kind == IDENT && !named) {
                named = true;
                j++;
                while (j < s && (is(j, "::") || is(j, "<"))) {
                    if (is(j, "<")) {
                        int d = 0;
                        for (; j < s; j++) { if (is(j, "<")) d++; if (is(j, ">") && --d == 0) break; }
                        j++;
                    } else j += 2;
                }
                continue;
            }
            break;
        }
        ds_e = j;
        if (!named) fail();
    }
    bool ds_const = false, ds_volatile = false;
    for (size_t j = b; j < ds_e; j++) {
        if (is(j, "static") || is(j, "extern") || is(j, "register")) fail();
        if (is(j, "const") || is(j, "constexpr")) ds_const = true;
        if (is(j, "volatile")) ds_volatile = true;  // of what a pointer points to (volatile float *s): fine
    }
    k = ds_e;
    while (k < s) {
        size_t dr_b = k;
        bool ptr = false, top_const = ds_const;
        while (k < s && one_of(k, {"*", "&", "const", "__restrict__", "volatile"})) {
            if (is(k, "&")) fail();  // references
            if (is(k, "*")) { ptr = true; top_const = false; }
            if (is(k, "const")) top_const = true;
            if (is(k, "volatile")) fail();
            k++;
        }
        if (k >= s || toks[k].kind != IDENT) fail();
        if (ds_volatile && !ptr) fail();  // a volatile variable itself
        Var v;
        v.name = text(toks[k]);
        if (lookup(v.name) >= 0) fail();  // a name declared again in an inner scope
        k++;
        v.is_array = false;
        while (k < s && is(k, "[")) { v.is_array = true; k = match(k) + 1; }
        if (k < s && is(k, "(")) fail();  // a function declaration, or direct initialization: not handled
        v.ds_b = b; v.ds_e = ds_e; v.dr_b = dr_b; v.dr_e = k;
        v.init_kind = 0;
        v.in_b = v.in_e = k;
        if (k < s && (is(k, "=") || is(k, "{"))) {
            v.init_kind = is(k, "=") ? '=' : '{';
            size_t j = is(k, "{") ? k : k + 1;
            if (is(k, "{")) { v.in_b = k + 1; v.in_e = match(k); j = v.in_e + 1; }
            else {
                v.in_b = j;
                while (j < s && !is(j, ",")) { if (is(j, "(") || is(j, "[") || is(j, "{")) j = match(j); j++; }
                v.in_e = j;
            }
            k = j;
        }
        (void)ptr;
        v.top_const = top_const;
        v.param = false;
        // what kind of variable: recomputed, uniform or one per lane
        bool tid = false;
        bool changes = modified_in(v.name, k, body_e, v.is_array);
        if (v.init_kind == '=' && !v.is_array && !changes && pure_expr(v.in_b, v.in_e, &tid))
            v.cls = tid ? REMAT : UNIFORM;
        else
            v.cls = VARYING;
        if (v.cls == VARYING && v.is_array && v.init_kind) fail();
        for (size_t j = b; j < ds_e && v.cls == VARYING; j++)
            if (is(j, "auto")) fail();  // no type to make its per-lane array from
        v.id = (int)vars.size();
        vars.push_back(v);
        scopes.back().push_back(v.id);
        st.vars.push_back(v.id);
        if (k < s && is(k, ",")) { k++; continue; }
        if (k != s) fail();
        break;
    }
}

static bool is_decl(size_t b, size_t s) {
    if (type_word(b)) return true;
    if (toks[b].kind != IDENT || builtin_index(b) || lookup(text(toks[b])) >= 0) return false;
    size_t j = b + 1;
    while (j + 1 < s && is(j, "::") && toks[j + 1].kind == IDENT) j += 2;
    if (is(j, "<")) {  // template arguments
        int d = 0;
        for (; j < s; j++) { if (is(j, "<")) d++; if (is(j, ">") && --d == 0) break; if (is(j, ";")) return false; }
        j++;
    }
    while (j < s && (is(j, "*") || is(j, "const"))) j++;
    return j < s && toks[j].kind == IDENT && one_of(j + 1, {"=", ";", ",", "[", "{"});
}

// A loop's body. A body in braces that cannot be parsed makes the loop opaque: it can still run whole per
// lane, as written (below, "regions"), if no barrier is in it.
static Stmt loop_body(size_t i, size_t e, size_t *next, Stmt &loop) {
    size_t depth = scopes.size(), nvars = vars.size();
    try {
        return parse_stmt(i, e, next);
    } catch (Fail &) {
        if (!is(i, "{")) throw;
        scopes.resize(depth);
        vars.resize(nvars);
        loop.opaque = true;
        Stmt body;
        body.k = EMPTY;
        body.b = i;
        *next = body.e = match(i) + 1;
        for (size_t k = i; k < body.e; k++)
            if (toks[k].kind == IDENT && text(toks[k]).compare(0, 13, "__syncthreads") == 0) throw;
        return body;
    }
}

static Stmt parse_stmt(size_t i, size_t e, size_t *next) {
    Stmt st;
    // a statement may begin with line markers (a macro from a system header: `if (x) assert(y);`), or a
    // #pragma unroll before a loop: they belong to it, not in its place
    while (i < e && toks[i].kind == DIRECTIVE) i++;
    st.b = i;
    if (i >= e) fail();
    if (is(i, "{")) {
        size_t c = match(i);
        scopes.emplace_back();
        st.k = BLOCK;
        st.kids = parse_list(i + 1, c);
        scopes.pop_back();
        *next = st.e = c + 1;
        return st;
    }
    if (is(i, ";")) { st.k = EMPTY; *next = st.e = i + 1; return st; }
    if (is(i, "if")) {
        if (!is(i + 1, "(")) fail();
        st.k = IF;
        st.c_b = i + 2; st.c_e = match(i + 1);
        size_t n;
        scopes.emplace_back();
        st.kids.push_back(parse_stmt(st.c_e + 1, e, &n));
        scopes.pop_back();
        if (n < e && is(n, "else")) {
            scopes.emplace_back();
            st.kids.push_back(parse_stmt(n + 1, e, &n));
            scopes.pop_back();
        }
        *next = st.e = n;
        return st;
    }
    if (is(i, "for")) {
        if (!is(i + 1, "(")) fail();
        size_t p = match(i + 1), s1 = 0, s2 = 0;
        for (size_t k = i + 2; k < p; k++) {
            if (is(k, "(") || is(k, "[") || is(k, "{")) { k = match(k); continue; }
            if (is(k, ";")) { if (!s1) s1 = k; else if (!s2) s2 = k; else fail(); }
        }
        if (!s1 || !s2) fail();  // a range for
        st.k = FOR;
        scopes.emplace_back();
        if (s1 > i + 2) {
            st.has_init = true;
            Stmt init;
            init.b = i + 2; init.e = s1 + 1;
            if (is_decl(i + 2, s1)) { init.k = DECL; parse_decl(i + 2, s1, init); }
            else init.k = SIMPLE;
            st.kids.push_back(init);
        }
        st.c_b = s1 + 1; st.c_e = s2;
        st.s_b = s2 + 1; st.s_e = p;
        size_t n;
        st.kids.push_back(loop_body(p + 1, e, &n, st));
        scopes.pop_back();
        *next = st.e = n;
        return st;
    }
    if (is(i, "while")) {
        if (!is(i + 1, "(")) fail();
        st.k = WHILE;
        st.c_b = i + 2; st.c_e = match(i + 1);
        for (size_t k = st.c_b; k < st.c_e; k++) if (is(k, ";")) fail();
        size_t n;
        scopes.emplace_back();
        st.kids.push_back(loop_body(st.c_e + 1, e, &n, st));
        scopes.pop_back();
        *next = st.e = n;
        return st;
    }
    if (is(i, "do")) {
        st.k = DO;
        size_t n;
        scopes.emplace_back();
        st.kids.push_back(loop_body(i + 1, e, &n, st));
        scopes.pop_back();
        if (!is(n, "while") || !is(n + 1, "(")) fail();
        st.c_b = n + 2; st.c_e = match(n + 1);
        if (!is(st.c_e + 1, ";")) fail();
        *next = st.e = st.c_e + 2;
        return st;
    }
    if (is(i, "return")) {
        if (!is(i + 1, ";")) fail();
        st.k = RETURN; has_return = true;
        *next = st.e = i + 2;
        return st;
    }
    if (is(i, "break") || is(i, "continue")) {
        if (!is(i + 1, ";")) fail();
        st.k = is(i, "break") ? BREAK : CONTINUE;
        *next = st.e = i + 2;
        return st;
    }
    if (one_of(i, {"switch", "goto", "case", "default", "try", "asm", "__asm__", "__asm", "static", "typedef",
                   "using", "struct", "class", "union", "enum", "template", "namespace", "else", "extern",
                   "thread_local", "__thread"}))
        fail();
    if (toks[i].kind == IDENT && is(i + 1, ":")) fail();  // a label
    size_t s = stmt_end(i, e);
    st.e = s;
    *next = s;
    for (size_t k = i; k < s; k++) {
        if (is(k, "__shared__")) { st.k = PLAIN; return st; }
        if (toks[k].kind == IDENT && text(toks[k]).compare(0, 13, "__syncthreads") == 0) {
            if (k == i && is(i, "__syncthreads") && is(i + 1, "(") && is(i + 2, ")") && is(i + 3, ";")) {
                st.k = SYNC; has_sync = true; return st;
            }
            fail();
        }
        // a lambda: '[' where an expression starts
        if (is(k, "[") && (k == i || !(toks[k - 1].kind == IDENT || is(k - 1, ")") || is(k - 1, "]"))))
            fail();
    }
    if (is_decl(i, s - 1)) { st.k = DECL; parse_decl(i, s - 1, st); }
    else st.k = SIMPLE;
    return st;
}

// ---- classification of loops and branches ----
static bool own_break_or_continue(const Stmt &st) {  // in the loop body st, not inside a nested loop
    if (st.k == BREAK || st.k == CONTINUE) return true;
    if (st.k == FOR || st.k == WHILE || st.k == DO) return false;
    for (auto &k : st.kids) if (own_break_or_continue(k)) return true;
    return false;
}
static bool contains(const Stmt &st, Kind kind) {
    if (st.k == kind) return true;
    if (st.opaque && kind == RETURN)
        for (size_t k = st.b; k < st.e; k++) if (is(k, "return")) return true;
    for (auto &k : st.kids) if (contains(k, kind)) return true;
    return false;
}

// scope-aware second pass: decides plain (all-lanes) loops and ifs; scopes are rebuilt as in parsing
static void classify(Stmt &st) {
    auto push = [&](const Stmt &d) { for (int v : d.vars) scopes.back().push_back(v); };
    switch (st.k) {
    case DECL: push(st); break;
    case BLOCK:
        scopes.emplace_back();
        for (auto &k : st.kids) classify(k);
        scopes.pop_back();
        break;
    case IF: {
        bool tid;
        st.plain_if = pure_expr(st.c_b, st.c_e, &tid) && !tid;
        for (auto &k : st.kids) { scopes.emplace_back(); classify(k); scopes.pop_back(); }
        break;
    }
    case FOR: case WHILE: case DO: {
        scopes.emplace_back();
        Stmt &body = st.kids.back();
        bool plain = st.k == FOR && !st.opaque && st.has_init && st.kids[0].k == DECL && !own_break_or_continue(body);
        if (plain) {
            Stmt &init = st.kids[0];
            for (int v : init.vars) {
                Var &var = vars[v];
                bool tid;
                if (var.is_array || var.init_kind != '=' || !pure_expr(var.in_b, var.in_e, &tid) || tid ||
                    modified_in(var.name, body.b, body.e, false))
                    plain = false;
            }
            if (plain) {
                // the loop's variables count as uniform in its condition, step and body
                std::vector<Cls> was;
                for (int v : init.vars) { was.push_back(vars[v].cls); vars[v].cls = UNIFORM; }
                push(init);
                bool t1, t2;
                bool ok = pure_expr(st.c_b, st.c_e, &t1) && !t1;
                // the step may assign the loop's variables (k++, k += 16, s >>= 1) and nothing else
                for (size_t k = st.s_b; k < st.s_e && ok; k++)
                    if (toks[k].kind == IDENT && !member_pos(k) && !builtin_index(k) && !type_word(k)) {
                        int v = lookup(text(toks[k]));
                        if (v < 0 || vars[v].cls == VARYING || vars[v].cls == REMAT) ok = false;
                    } else if (is(k, "[") || is(k, "->") || is(k, "(")) ok = false;
                (void)t2;
                if (!ok) {
                    size_t i = 0;
                    for (int v : init.vars) vars[v].cls = was[i++];
                    plain = false;
                    scopes.back().clear();
                }
            }
        }
        st.plain_loop = plain;
        if (plain) has_plain_loop = true;
        if (!plain && st.has_init) push(st.kids[0]);
        classify(body);
        scopes.pop_back();
        break;
    }
    default: break;
    }
}

// ---- generation ----
struct Mask { int id; bool dynamic; };
struct Ctx {
    Mask m;
    std::vector<int> chain;  // dynamic masks from the kernel's down to m (a return clears them all)
    bool divergent = false;
    std::string loop_var, loop_next;  // the innermost loop all lanes run: its variable and its next value
};
static int next_mask;
static std::string out;
static int group;  // lanes per group: 32 (a warp) or 1024 (a block)

// user tokens [b, e), edits applied, after a line marker; in_lambda: the kernel's `return;` becomes
// `return true;` (a region run per lane inside a lambda, below)
static std::string rendered(size_t b, size_t e, bool in_lambda = false, const std::string &var = "",
                            const std::string &value = "") {
    if (b >= e) return "";
    std::string s;
    char mark[600];
    snprintf(mark, sizeof mark, "\n# %d \"%s\" 3\n", toks[b].line, files[toks[b].file].c_str());
    s += mark;
    for (size_t i = b; i < e; i++) {
        if (i > b) s += src.substr(toks[i - 1].pos + toks[i - 1].len, toks[i].pos - toks[i - 1].pos - toks[i - 1].len);
        const Edit &ed = edits[i];
        s += ed.insert_before;
        if (toks[i].kind == DIRECTIVE && text(toks[i]).find('"') != std::string::npos &&
            text(toks[i]).find("\" 3") == std::string::npos)
            s += text(toks[i]) + " 3";  // a line marker back into the user's file: the copy's stays a system header's
        else if (in_lambda && is(i, "return") && is(i + 1, ";")) s += "return true";
        else if (!var.empty() && toks[i].kind == IDENT && !member_pos(i) && text(toks[i]) == var) s += value;
        else if (is(i, "threadIdx") && !member_pos(i)) s += "cudawb_tid";
        else if (!ed.replace.empty()) s += ed.replace == "cudawb_tid" ? "cudawb_tid" : ed.replace;
        else if (!ed.drop) s += text(toks[i]);
        s += ed.insert_after;
    }
    return s;
}
// A thread's global index as the whole initializer of a variable that is not `auto` (int col = blockIdx.x *
// blockDim.x + threadIdx.x; int t = threadIdx.x): computed in int arithmetic from the block's offset and the
// lane (cudawb_g[xyz] + lane). Its value is the same: the copy runs only when every index of the grid fits
// in an int (cudawb::ls_int_grid), and a conversion depends on the value alone. g++ cannot see that the
// unsigned sum grows with the lane without wrapping, and would load b[k * n + col] lane by lane.
static bool dim_at(size_t k, const char *var, char *d) {
    if (!is(k, var) || !is(k + 1, ".") || k + 2 >= toks.size()) return false;
    std::string m = text(toks[k + 2]);
    if (m != "x" && m != "y" && m != "z") return false;
    if (*d && *d != m[0]) return false;
    *d = m[0];
    return true;
}
static bool product_at(size_t k, char *d) {  // blockIdx.D * blockDim.D or blockDim.D * blockIdx.D: 7 tokens
    return is(k + 3, "*") && ((dim_at(k, "blockIdx", d) && dim_at(k + 4, "blockDim", d)) ||
                              (dim_at(k, "blockDim", d) && dim_at(k + 4, "blockIdx", d)));
}
static std::string init_text(const Var &x) {
    std::string plain = rendered(x.in_b, x.in_e);
    for (size_t j = x.ds_b; j < x.ds_e; j++) if (is(j, "auto") || is(j, "decltype")) return plain;
    size_t b = x.in_b, e = x.in_e;
    while (e > b + 1 && is(b, "(") && match(b) == e - 1) { b++; e--; }
    char d = 0;
    bool ok = false;
    if (e - b == 3) ok = dim_at(b, "threadIdx", &d);
    else if (e - b == 11 || e - b == 13) {
        size_t p = b, t = b;  // the product's first token, the thread index's
        bool paren = e - b == 13;
        if (dim_at(b, "threadIdx", &d) && is(b + 3, "+")) { p = b + 4 + paren; t = b; }
        else { p = b + paren; t = e - 3; ok = is(t - 1, "+"); }
        if (paren && !(is(p - 1, "(") && is(p + 7, ")"))) return plain;
        ok = (t == b || ok) && product_at(p, &d) && dim_at(t, "threadIdx", &d);
        if (t == b && !is(b + 3, "+")) ok = false;
        if (ok) return std::string(" cudawb_g") + d + " + " + (d == 'x' ? "cudawb_x" : std::string("(int)cudawb_tid.") + d);
        return plain;
    }
    if (ok) return std::string(" ") + (d == 'x' ? "cudawb_x" : std::string("(int)cudawb_tid.") + d);
    return plain;
}

static std::string M(int id) { return "cudawb_m" + std::to_string(id); }
static std::string F(int id) { return "cudawb_f" + std::to_string(id); }
static std::string A(int id) { return "cudawb_a" + std::to_string(id); }
static std::string V(int id) { return "cudawb_v" + std::to_string(id); }

static void names_in(size_t b, size_t e, std::set<std::string> &s) {
    for (size_t k = b; k < e; k++)
        if (toks[k].kind == IDENT && !member_pos(k)) s.insert(text(toks[k]));
}

// the declarations a lane loop needs: bindings of per-lane variables, recomputed ones (with what they need)
static std::string lane_prelude(const std::set<std::string> &used, const std::set<int> &declared_here) {
    std::set<int> need;
    std::vector<int> work;
    for (auto &n : used) { int v = lookup(n); if (v >= 0 && !declared_here.count(v)) work.push_back(v); }
    while (!work.empty()) {
        int v = work.back();
        work.pop_back();
        if (!need.insert(v).second) continue;
        if (vars[v].cls == REMAT) {
            std::set<std::string> deps;
            names_in(vars[v].in_b, vars[v].in_e, deps);
            for (auto &n : deps) { int d = lookup(n); if (d >= 0) work.push_back(d); }
        }
    }
    std::string s;
    for (int v : need) {  // in declaration order (ids grow)
        const Var &x = vars[v];
        if (x.cls == VARYING) s += std::string(x.top_const ? " const" : "") + " auto &" + x.name + " = " + V(v) +
                                   "[cudawb_l];";
        else if (x.cls == REMAT)
            s += rendered(x.ds_b, x.ds_e) + " " + rendered(x.dr_b, x.dr_e) + " = " + init_text(x) + ";";
    }
    return s;
}

// a loop over the lanes of mask m running code (its uses: the names it mentions)
static void lanes(const Ctx &c, const std::string &code, const std::set<std::string> &used,
                  const std::set<int> &declared_here = {}) {
    bool sets_tid = false;
    for (auto &n : used)
        if (tid_users.count(n) || n == "cudawb_assert_fail" || n == "__assert_fail" || n == "assert") sets_tid = true;
    std::string body = lane_prelude(used, declared_here);
    if (sets_tid) body = " threadIdx = cudawb_tid;" + body;
    auto loop = [&](bool masked) {
        // x0 >= 0 tells g++ that threadIdx.x (an unsigned made from the int x) grows with x without wrapping:
        // tb[k][threadIdx.x] is then one vector load, not four scalar ones
        out += "\nfor (int cudawb_s = 0; cudawb_s < cudawb_ns; cudawb_s++) { const cudawb::ls_seg cudawb_g ="
               " cudawb_sg[cudawb_s]; if (cudawb_g.x0 < 0 || cudawb_g.x1 > 1024) __builtin_unreachable();"
               "\n#pragma GCC ivdep\nfor (int cudawb_x = cudawb_g.x0; cudawb_x < cudawb_g.x1;"
               " cudawb_x++) { const int cudawb_l = cudawb_g.d + cudawb_x;";
        if (masked) out += " if (!" + M(c.m.id) + "[cudawb_l]) continue;";
        out += " const uint3 cudawb_tid __attribute__((unused)) = {(unsigned)cudawb_x, cudawb_g.y, cudawb_g.z};";
        out += body + " {" + code + "\n} } }";
    };
    if (!c.m.dynamic) { loop(false); return; }
    out += "\nif (" + F(c.m.id) + ") {";
    loop(false);
    out += "\n} else {";
    loop(true);
    out += "\n}";
}

static void flags(int id) {
    out += "\ncudawb::ls_flags(" + M(id) + ", cudawb_cnt, &" + F(id) + ", &" + A(id) + ");";
}
static void refresh(const Ctx &c) { for (int id : c.chain) flags(id); }
static int new_mask() {
    int id = next_mask++;
    // not cleared: every lane below the group's count is written before it is read (no 1 KiB memset per block)
    out += "\nbool " + M(id) + "[" + std::to_string(group) + "]; bool " + F(id) + " = false, " + A(id) +
           " = false; (void)" + F(id) + "; (void)" + A(id) + ";";
    return id;
}
// storage for the per-lane variables a declaration introduces
static void storage(const Stmt &d) {
    for (int v : d.vars) {
        const Var &x = vars[v];
        if (x.cls != VARYING) continue;
        std::string t = "cudawb_t" + std::to_string(v);
        out += "\nstruct " + t + "_s {" + rendered(x.ds_b, x.ds_e) + " " + rendered(x.dr_b, x.dr_e) +
               ";\n}; typedef std::remove_cv_t<decltype(" + t + "_s::" + x.name + ")> " + t + "; " + t + " " + V(v) +
               "[" + std::to_string(group) + "];";
    }
}

// the code a declaration runs in a lane loop: recomputed ones as written, per-lane ones assigned
static std::string decl_code(const Stmt &d, std::set<int> &declared) {
    std::string s;
    for (int v : d.vars) {
        const Var &x = vars[v];
        declared.insert(v);
        if (x.cls == REMAT) {
            s += rendered(x.ds_b, x.ds_e) + " " + rendered(x.dr_b, x.dr_e) + " = " + init_text(x) + ";";
        } else if (x.cls == VARYING && x.init_kind) {
            // declared in this lane loop's prelude? no: bound here
            s += " auto &" + x.name + " = " + V(v) + "[cudawb_l]; " + x.name + " = " +
                 (x.init_kind == '{' ? "{" : "") + init_text(x) + (x.init_kind == '{' ? "}" : "") + ";";
        } else if (x.cls == VARYING) {
            s += " auto &" + x.name + " = " + V(v) + "[cudawb_l];";
        }
    }
    return s;
}

// A short loop all lanes run (a bound of at most 64 in its condition: the tile loop of a tiled multiply) whose
// body only reads memory and changes only variables of its own thread runs whole per lane, as one lane loop:
// no lane sees another's work, so the order cannot matter, and g++ vectorizes the lane loop around it with
// the sums in registers. A long loop (k < n) stays outside its lane loops: the lanes then share each row of B.
static bool writes_only_locals(size_t b, size_t e) {
    auto local = [&](size_t t) {
        if (toks[t].kind != IDENT || member_pos(t)) return false;
        std::string n = text(toks[t]);
        if (lookup(n) >= 0) return true;
        for (auto &v : vars) if (v.name == n && v.dr_b >= b && v.dr_e <= e) return true;  // declared inside
        return false;
    };
    for (size_t k = b; k < e; k++) {
        if (toks[k].kind == IDENT && is(k + 1, "(") && !pure_fn(text(toks[k])) &&
            !one_of(k, {"for", "if", "while", "sizeof", "return"}))
            return false;
        bool incdec = (is(k, "+") && is(k + 1, "+")) || (is(k, "-") && is(k + 1, "-"));
        if (incdec) {
            if (!(k > b && local(k - 1)) && !(k + 2 < e && local(k + 2))) return false;
            k++;
            continue;
        }
        if (!is(k, "=") || is(k + 1, "=") || (k > b && one_of(k - 1, {"=", "!"}))) continue;
        size_t t = k - 1;  // the target, before `=` or before a compound operator's sign
        if (is(t, "<") || is(t, ">")) {
            if (t > b && is(t - 1, text(toks[t]).c_str())) t -= 2;  // <<=, >>=
            else continue;                                         // <=, >=
        } else if (one_of(t, {"+", "-", "*", "/", "%", "&", "|", "^"})) t--;
        if (!local(t) || (t > b && one_of(t - 1, {"]", ".", "->", "*"}))) return false;  // not p[i] =, *p =
    }
    return true;
}
static bool short_loop(const Stmt &st) {
    // <var> < N or <= N, N a literal of at most 64
    size_t c = st.c_b;
    if (st.c_e - c != 3 && st.c_e - c != 4) return false;
    if (toks[c].kind != IDENT || !is(c + 1, "<")) return false;
    size_t num = st.c_e - c == 4 ? (is(c + 2, "=") ? c + 3 : 0) : c + 2;
    if (!num || toks[num].kind != NUMBER) return false;
    long v = strtol(text(toks[num]).c_str(), nullptr, 0);
    return v > 0 && v <= 64;
}

// Prefetches for the next step of the loop all lanes run, in a statement that uses shared memory (a tile
// loaded from global memory): for each read p[E] of a pointer parameter whose subscript computes from the
// loop's variable without side effects, the address p[E] will have one step later. The tiled multiply's rows
// of B lie n floats apart, a stride no hardware prefetcher follows: each warp waited for memory at every tile
// (half the time at 4096, one worker: 33 s, 18 s with them), where a GPU has other warps to run. Not in other
// statements: a prefetch in a lane loop keeps g++ from vectorizing it (the naive multiply: 4x slower).
static std::string prefetches(size_t b, size_t e, const Ctx &c) {
    if (c.loop_var.empty()) return "";
    std::string s;
    for (size_t k = b; k + 1 < e; k++) {
        if (toks[k].kind != IDENT || member_pos(k) || !is(k + 1, "[")) continue;
        int v = lookup(text(toks[k]));
        if (v < 0 || !vars[v].param || !vars[v].pointer || vars[v].cls != UNIFORM) continue;
        size_t close = match(k + 1);
        bool tid, uses = false;
        for (size_t j = k + 2; j < close; j++) if (toks[j].kind == IDENT && text(toks[j]) == c.loop_var) uses = true;
        if (!uses || close >= e || !pure_expr(k + 2, close, &tid)) continue;
        s += " __builtin_prefetch(&" + text(toks[k]) + "[" + rendered(k + 2, close, false, c.loop_var, c.loop_next) +
             "]);";
    }
    return s;
}

static void gen(const Stmt &st, Ctx c);

// Names of __shared__ variables (any scope) and volatile locals: a statement that uses one runs in a lane loop
// of its own, so that the lanes of a warp take turns statement by statement, as a GPU's converged warp does
// (warp-synchronous code: vs[tid] += vs[tid + 16]; vs[tid] += vs[tid + 8]; ...). Elsewhere a run of
// statements is one lane loop, each lane running the whole run in turn: values stay in registers.
static std::set<std::string> shared_names;
static void find_shared_names() {
    static bool done;
    if (done) return;
    done = true;
    for (size_t i = 0; i < toks.size(); i++) {
        if (!is(i, "__shared__")) continue;
        for (size_t k = i + 1; k < toks.size() && !is(k, ";"); k++) {
            if (is(k, "[") || is(k, "(") || is(k, "{")) { k = match(k); continue; }
            if (toks[k].kind == IDENT && one_of(k + 1, {"[", ";", ",", "="})) shared_names.insert(text(toks[k]));
        }
    }
}
static bool touches_shared(const Stmt &t) {
    for (size_t k = t.b; k < t.e; k++) {
        if (toks[k].kind != IDENT || member_pos(k)) continue;
        std::string n = text(toks[k]);
        if (shared_names.count(n)) return true;
        int v = lookup(n);
        if (v >= 0 && !vars[v].param)
            for (size_t j = vars[v].ds_b; j < vars[v].ds_e; j++) if (is(j, "volatile")) return true;
    }
    return false;
}

static void gen_list(const std::vector<Stmt> &list, const Ctx &c) {
    for (size_t i = 0; i < list.size();) {
        const Stmt &s = list[i];
        if (s.k == SIMPLE || (s.k == DECL)) {
            // a run of simple statements and declarations: uniform declarations go first, as written (they
            // depend only on what is declared before the run)
            size_t j = i;
            std::string code;
            std::set<std::string> used;
            std::set<int> declared;
            while (j < list.size() && (list[j].k == SIMPLE || list[j].k == DECL)) {
                const Stmt &t = list[j];
                bool alone = touches_shared(t);
                if (alone && !code.empty()) break;
                if (t.k == DECL) {
                    bool all_uniform = true;
                    for (int v : t.vars) if (vars[v].cls != UNIFORM) all_uniform = false;
                    if (all_uniform) {
                        if (!code.empty()) break;
                        out += rendered(t.b, t.e);
                        for (int v : t.vars) scopes.back().push_back(v);
                        j++;
                        i = j;
                        continue;
                    }
                    storage(t);
                    for (int v : t.vars) {
                        if (vars[v].cls == UNIFORM) {
                            out += rendered(vars[v].ds_b, vars[v].ds_e) + " " + rendered(vars[v].dr_b, vars[v].dr_e) +
                                   " = " + rendered(vars[v].in_b, vars[v].in_e) + ";";
                            scopes.back().push_back(v);
                        }
                    }
                    code += decl_code(t, declared);
                    names_in(t.b, t.e, used);
                    for (int v : t.vars) if (vars[v].cls != UNIFORM) scopes.back().push_back(v);
                } else {
                    code += (alone ? prefetches(t.b, t.e, c) : "") + rendered(t.b, t.e);
                    names_in(t.b, t.e, used);
                }
                j++;
                if (alone) break;
            }
            if (!code.empty()) lanes(c, code, used, declared);
            i = j;
            continue;
        }
        gen(s, c);
        if (contains(s, RETURN) || contains(s, BREAK) || contains(s, CONTINUE)) refresh(c);
        i++;
    }
}

static void clear_lanes(const Ctx &c, const std::vector<int> &which) {
    std::string code;
    for (int id : which) code += " " + M(id) + "[cudawb_l] = false;";
    lanes(c, code, {});
}

static void gen(const Stmt &st, Ctx c) {
    switch (st.k) {
    case EMPTY: break;
    case PLAIN: out += rendered(st.b, st.e); break;
    case SYNC:
        if (c.divergent) fail();
        out += rendered(st.b, st.e);
        break;
    case BLOCK:
        out += "\n{";
        scopes.emplace_back();
        gen_list(st.kids, c);
        scopes.pop_back();
        out += "\n}";
        break;
    case RETURN: clear_lanes(c, c.chain); break;
    case BREAK: case CONTINUE: fail(); break;  // only in loops run whole per lane (regions)
    case IF: {
        if (st.plain_if) {
            out += "\nif (" + rendered(st.c_b, st.c_e) + ") {";
            scopes.emplace_back(); gen(st.kids[0], c); scopes.pop_back();
            out += "\n}";
            if (st.kids.size() > 1) {
                out += " else {";
                scopes.emplace_back(); gen(st.kids[1], c); scopes.pop_back();
                out += "\n}";
            }
            break;
        }
        out += "\n{";
        int t = new_mask(), f = st.kids.size() > 1 ? new_mask() : -1;
        std::set<std::string> used;
        names_in(st.c_b, st.c_e, used);
        // every lane writes both masks; the condition is evaluated only for the lanes of the enclosing mask
        // (what a lane loop computes besides is free of side effects: bindings, recomputed indices)
        std::string in = c.m.dynamic ? M(c.m.id) + "[cudawb_l]" : "true";
        std::string code = " const bool cudawb_c = " + in + " && (" + rendered(st.c_b, st.c_e) + "); " + M(t) +
                           "[cudawb_l] = cudawb_c;";
        if (f >= 0) code += " " + M(f) + "[cudawb_l] = " + in + " && !cudawb_c;";
        Ctx all = c;
        all.m = Mask{0, false};
        lanes(all, code, used);
        flags(t);
        if (f >= 0) flags(f);
        for (int branch = 0; branch < (int)st.kids.size(); branch++) {
            int id = branch ? f : t;
            Ctx d = c;
            d.m = Mask{id, true};
            d.chain.push_back(id);
            d.divergent = true;
            out += "\nif (" + A(id) + ") {";
            scopes.emplace_back(); gen(st.kids[branch], d); scopes.pop_back();
            out += "\n}";
        }
        out += "\n}";
        break;
    }
    case FOR: case WHILE: case DO: {
        out += "\n{";
        scopes.emplace_back();
        const Stmt &body = st.kids.back();
        if (!st.plain_loop && !contains(st, SYNC)) {
            // a loop whose length depends on the thread, with no barrier: each lane runs it whole, as written
            // (a grid-stride loop keeps its index and sum in registers; masks would cost more per step than
            // the step itself). A `return` in it leaves the lambda, then the lane is cleared from the masks.
            std::set<std::string> used;
            names_in(st.b, st.e, used);
            std::string code = rendered(st.b, st.e, contains(st, RETURN));
            if (contains(st, RETURN)) {
                code = " if ([&]() -> bool {" + code + "\nreturn false; }()) {";
                for (int id : c.chain) code += " " + M(id) + "[cudawb_l] = false;";
                code += " }";
            }
            lanes(c, code, used);
        } else if (st.plain_loop && short_loop(st) && !contains(st, SYNC) && !contains(st, RETURN) &&
                   !contains(st, IF) && writes_only_locals(st.b, st.e)) {
            std::set<std::string> used;
            names_in(st.b, st.e, used);
            lanes(c, rendered(st.b, st.e), used);
        } else if (st.plain_loop) {
            const Stmt &init = st.kids[0];
            for (int v : init.vars) scopes.back().push_back(v);
            out += "\nfor (" + rendered(init.b, init.e) + rendered(st.c_b, st.c_e) + ";" + rendered(st.s_b, st.s_e) +
                   ") {";
            if (contains(body, RETURN) && c.m.dynamic) out += "\nif (!" + A(c.m.id) + ") break;";
            Ctx in = c;
            in.loop_var.clear();
            if (init.vars.size() == 1) {  // the next value, from a step k++, ++k or k += C
                const std::string &v = vars[init.vars[0]].name;
                size_t a = st.s_b, z = st.s_e;
                if (z - a == 3 && text(toks[a]) == v && is(a + 1, "+") && is(a + 2, "+")) in.loop_next = "(" + v + " + 1)";
                else if (z - a == 3 && text(toks[a + 2]) == v && is(a, "+") && is(a + 1, "+")) in.loop_next = "(" + v + " + 1)";
                else if (z - a == 4 && text(toks[a]) == v && is(a + 1, "+") && is(a + 2, "=") && toks[a + 3].kind == NUMBER)
                    in.loop_next = "(" + v + " + " + text(toks[a + 3]) + ")";
                if (!in.loop_next.empty()) in.loop_var = v;
            }
            scopes.emplace_back(); gen(body, in); scopes.pop_back();
            out += "\n}";
        } else {
            fail();  // a barrier in a loop whose length depends on the thread
        }
        scopes.pop_back();
        out += "\n}";
        break;
    }
    case SIMPLE: case DECL: gen_list({st}, c); break;
    }
}

// Builds the lockstep copy of kernel f, or returns "" when the kernel keeps only its original body.
// *flags_out: the launch flags the copy needs (launch_lockstep, and launch_lockstep_block for a block group).
static std::string copy(const DeviceFn &f, bool barrier, bool warp, int *flags_out) {
    *flags_out = 0;
    if (!f.global || f.name.empty() || warp || f.body_close >= toks.size()) return "";
    vars.clear(); scopes.clear(); out.clear();
    has_return = has_sync = has_plain_loop = false;
    next_mask = 0;
    body_b = f.body_open + 1;
    body_e = f.body_close;
    try {
        // parameters: uniform unless the body changes them (then one copy per lane)
        scopes.emplace_back();
        size_t open = f.decl_start;
        while (open < f.body_open && !(is(open, "(") && toks[open - 1].kind == IDENT && text(toks[open - 1]) == f.name))
            open++;
        if (open >= f.body_open) fail();
        size_t close = match(open);
        for (size_t k = open + 1; k < close; k++) {
            if (is(k, "(") || is(k, "[") || is(k, "<")) { if (!is(k, "<")) k = match(k); continue; }
            if (toks[k].kind == IDENT && (is(k + 1, ",") || k + 1 == close || is(k + 1, "[") || is(k + 1, "="))) {
                Var v;
                v.name = text(toks[k]);
                v.param = true;
                for (size_t q = k; q-- > open + 1 && !is(q, ",");) if (is(q, "*")) v.pointer = true;
                v.is_array = false;
                v.top_const = false;
                v.init_kind = 0;
                v.ds_b = v.ds_e = v.dr_b = v.dr_e = v.in_b = v.in_e = k;
                v.cls = modified_in(v.name, body_b, body_e, false) ? VARYING : UNIFORM;
                v.id = (int)vars.size();
                vars.push_back(v);
                scopes.back().push_back(v.id);
                    }
        }
        for (size_t k = body_b; k < body_e; k++)
            if (toks[k].kind == IDENT && is(k + 1, "(") && sync_users.count(text(toks[k]))) fail();
        find_shared_names();
        scopes.emplace_back();
        std::vector<Stmt> body = parse_list(body_b, body_e);
        if (!barrier && has_sync) fail();
        // second pass with fresh scopes: loops and branches
        size_t nparams = scopes[0].size();
        std::vector<int> params = scopes[0];
        scopes.clear();
        scopes.push_back(params);
        scopes.emplace_back();
        for (auto &s : body) classify(s);
        if (!barrier && !has_plain_loop) {
            if (getenv("CUDAWB_LOCKSTEP_DEBUG")) fprintf(stderr, "cudapp: %s: no loop for all lanes\n", f.name.c_str());
            return "";
        }
        // a barrier-free kernel's group is its block, unless a per-lane array would make a large stack frame
        // (float buf[1024] x 1024 lanes): then it runs warp after warp
        bool lane_arrays = false;
        for (auto &v : vars) if (v.cls == VARYING && v.is_array) lane_arrays = true;
        group = barrier || lane_arrays ? 32 : 1024;
        // generation
        scopes.clear();
        scopes.push_back(params);
        scopes.emplace_back();
        char mark[600];  // the copy's own code is a system header's too: no warnings (g++ says why not)
        snprintf(mark, sizeof mark, "\n# %d \"%s\" 3\n", toks[f.body_open].line, files[toks[f.body_open].file].c_str());
        out += mark;
        out += "if (cudawb_lockstep && cudawb::ls_int_grid()) { const int cudawb_gx = (int)(blockIdx.x * blockDim.x),"
               " cudawb_gy = (int)(blockIdx.y * blockDim.y), cudawb_gz = (int)(blockIdx.z * blockDim.z);"
               " (void)cudawb_gx; (void)cudawb_gy; (void)cudawb_gz; int cudawb_cnt; cudawb::ls_seg cudawb_sg[" + std::to_string(group + 1) +
               "]; const int cudawb_ns = cudawb::ls_segments(" + std::to_string(group) +
               ", cudawb_sg, &cudawb_cnt); (void)cudawb_ns;";
        for (size_t p = 0; p < nparams; p++) {  // parameters the body changes: one copy per lane
            const Var &x = vars[params[p]];
            if (x.cls != VARYING) continue;
            out += "\nstd::remove_cv_t<decltype(" + x.name + ")> " + V(x.id) + "[" + std::to_string(group) +
                   "]; for (int cudawb_i = 0; cudawb_i < cudawb_cnt; cudawb_i++) " + V(x.id) + "[cudawb_i] = " +
                   x.name + ";";
        }
        Ctx c;
        c.m = Mask{0, false};
        if (has_return) {
            int id = new_mask();
            c.m = Mask{id, true};
            out += "\nfor (int cudawb_i = 0; cudawb_i < cudawb_cnt; cudawb_i++) " + M(id) + "[cudawb_i] = true;";
            flags(id);
            c.chain.push_back(id);
        }
        gen_list(body, c);
        out += "\nreturn; }";
    } catch (Fail &) {
        return "";
    }
    *flags_out = group == 32 ? 16 : 16 | 32;
    return out;
}

} // namespace lockstep
