// lockstep_gen: writes a CUDA program of random kernels that the CPU backend can run both ways, its threads
// together (the lockstep copy, cpu/tools/lockstep.h) and one after another (CUDAWB_LOCKSTEP=0); the two runs
// must print the same (cpu/tests/fuzz/lockstep.sh). Each kernel is free of races by construction: a thread
// writes only its own output element, and shared memory only between barriers every thread reaches; all
// arithmetic is unsigned, every loop bounded. What varies: branches on the thread or on uniform values, loops
// all threads run (their index used inside), loops whose length depends on the thread (with break, continue,
// return), early returns, barriers in loops, a changed parameter, per-thread arrays.
// Usage: lockstep_gen SEED KERNELS > prog.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

static unsigned long long state;
static unsigned rnd(unsigned n) {  // xorshift: the same seed writes the same program
    state ^= state << 13; state ^= state >> 7; state ^= state << 17;
    return (unsigned)(state % n);
}

struct Gen {
    std::string out;
    std::vector<std::string> uniforms;  // loop indices in scope, uniform
    int depth = 0, counter = 0, ifs = 0;  // ifs: branches around this point (no barrier inside one)
    bool barriers = false, in_region = false;
    bool has_array = false, flat = false;

    void line(const std::string &s) { out += std::string(2 * (depth + 1), ' ') + s + "\n"; }
    std::string value() {
        switch (rnd(9)) {
        case 0: return "acc";
        case 1: return "t";
        case 2: return "gid";
        case 3: return "p";
        case 4: return "in[(acc + " + std::to_string(rnd(50)) + "u) % n]";
        case 5: return uniforms.empty() ? "3u" : "(unsigned)" + uniforms[rnd(uniforms.size())];
        case 6: return has_array ? "arr[" + std::string(rnd(2) ? "t % 4" : "acc % 4") + "]" : "7u";
        case 7: return "(acc >> " + std::to_string(1 + rnd(4)) + ")";
        default: return std::to_string(rnd(100)) + "u";
        }
    }
    std::string cond() {
        switch (rnd(6)) {
        case 0: return "(acc & " + std::to_string(1 + rnd(7)) + "u) == " + std::to_string(rnd(3)) + "u";
        case 1: return "t < " + std::to_string(rnd(100)) + "u";
        case 2: return "gid % 3u == " + std::to_string(rnd(3)) + "u";
        case 3: return "p > " + std::to_string(rnd(10)) + "u";  // uniform
        case 4: return uniforms.empty() ? "acc % 2u == 0u" : uniforms[rnd(uniforms.size())] + " % 2 == 0";
        default: return value() + " < " + value();
        }
    }
    void assign() {
        static const char *ops[] = {"+", "-", "^", "*"};
        if (has_array && rnd(4) == 0)
            line("arr[" + std::string(rnd(2) ? "acc" : "t") + " % 4u] = " + value() + " & 0xFFFFu;");
        else if (rnd(6) == 0) line("p = p + (acc & 3u);");
        else line(std::string("acc = (acc ") + ops[rnd(4)] + " " + value() + ") & 0xFFFFFu;");
    }
    void block(int budget) {
        int n = 1 + rnd(3);
        for (int i = 0; i < n && budget > 0; i++) stmt(budget - 1);
    }
    void stmt(int budget) {
        unsigned kind = budget <= 0 ? 0 : rnd(9);
        if (kind == 0 || kind == 1) { assign(); return; }
        if (kind == 2) {
            line("if (" + cond() + ") {");
            ifs++;
            depth++; block(budget); depth--;
            if (rnd(2)) { line("} else {"); depth++; block(budget); depth--; }
            ifs--;
            line("}");
            return;
        }
        if (kind == 3 || kind == 4) {  // a loop all threads run
            std::string k = "k" + std::to_string(counter++);
            line("for (int " + k + " = 0; " + k + " < " + std::to_string(1 + rnd(4)) + "; " + k + "++) {");
            uniforms.push_back(k);
            depth++; block(budget);
            if (barriers && !in_region && ifs == 0 && rnd(2)) barrier_exchange();
            depth--;
            uniforms.pop_back();
            line("}");
            return;
        }
        if (kind == 5 && !barriers) {  // a loop whose length depends on the thread
            std::string j = "j" + std::to_string(counter++);
            bool was = in_region;
            in_region = true;
            line("for (unsigned " + j + " = 0; " + j + " < t % 5u + 1u; " + j + "++) {");
            depth++;
            if (rnd(3) == 0) line("if ((acc + " + j + ") % 7u == 0u) continue;");
            block(budget);
            if (rnd(3) == 0) line("if (acc % 5u == 1u) break;");
            if (rnd(4) == 0) line("if (acc % 13u == 3u) { out[gid] = acc + 1000000u; return; }");
            depth--;
            line("}");
            in_region = was;
            return;
        }
        if (kind == 6 && !barriers) {
            std::string g = "g" + std::to_string(counter++);
            line("unsigned " + g + " = 0;");
            line("while (acc % 7u != 0u && " + g + " < 4u) {");
            depth++; line(g + "++;"); block(budget); depth--;
            line("}");
            return;
        }
        if (kind == 7 && !barriers && !in_region) {
            line("if (acc % 11u == " + std::to_string(rnd(11)) + "u) { out[gid] = acc ^ 0x55u; return; }");
            return;
        }
        assign();
    }
    // threads swap values through shared memory between two barriers every thread reaches
    void barrier_exchange() {
        line("sh[t] = acc;");
        line("__syncthreads();");
        line("acc = (acc + sh[(t + " + std::to_string(1 + rnd(40)) + "u) % (blockDim.x * blockDim.y)]) & 0xFFFFFu;");
        line("__syncthreads();");
    }
    std::string kernel(int id) {
        out.clear();
        counter = 0;
        barriers = rnd(3) == 0;
        has_array = rnd(3) == 0;
        out += "__global__ void k" + std::to_string(id) + "(const unsigned *in, unsigned *out, unsigned n, unsigned p)\n{\n";
        if (barriers) line("__shared__ unsigned sh[256];");
        flat = !rnd(2);
        if (!flat) {  // the index as 1-D code writes it (and the lockstep copy computes in int arithmetic)
            line("unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;");
            line("unsigned t = threadIdx.x;");
        } else {  // flat indices, for blocks of several rows
            line("unsigned t = threadIdx.x + blockDim.x * threadIdx.y;");
            line("unsigned gid = blockIdx.x * blockDim.x * blockDim.y + t;");
        }
        line("unsigned acc = in[gid % n];");
        if (has_array) line("unsigned arr[4]; arr[0] = acc; arr[1] = t; arr[2] = p; arr[3] = gid;");
        // the first statement is a loop all threads run, so that the kernel gets a lockstep copy
        std::string k = "k" + std::to_string(counter++);
        line("for (int " + k + " = 0; " + k + " < 3; " + k + "++) {");
        uniforms.push_back(k);
        depth++; block(4);
        if (barriers) barrier_exchange();
        depth--;
        uniforms.pop_back();
        line("}");
        for (int i = 0; i < 3; i++) stmt(3);
        line("out[gid] = acc;");
        out += "}\nstatic const bool k" + std::to_string(id) + "_flat = " + (flat ? "true" : "false") + ";\n\n";
        return out;
    }
};

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: lockstep_gen SEED KERNELS\n"); return 2; }
    state = strtoull(argv[1], nullptr, 10) * 0x9E3779B97F4A7C15ull | 1;
    int kernels = atoi(argv[2]);
    printf("// generated by cpu/tests/fuzz/lockstep_gen %s %d\n#include <stdio.h>\n\n", argv[1], kernels);
    Gen g;
    for (int i = 0; i < kernels; i++) fputs(g.kernel(i).c_str(), stdout);
    // 1-D blocks for kernels that index by threadIdx.x alone; rows of 40, 12, 20 and 10 threads for the others
    // (a warp then spans rows, which the lockstep copy walks as runs of consecutive x)
    printf("int main(void)\n{\n  const unsigned blocks[] = {40, 96, 128, 256};\n"
           "  const dim3 shapes[] = {dim3(40, 1), dim3(12, 8), dim3(20, 6), dim3(10, 25)};\n  unsigned *in, *out;\n"
           "  cudaMallocManaged(&in, 4096 * sizeof(unsigned));\n  cudaMallocManaged(&out, 4096 * sizeof(unsigned));\n"
           "  for (unsigned i = 0; i < 4096; i++) in[i] = (i * 2654435761u) >> 12;\n");
    for (int i = 0; i < kernels; i++) {
        printf("  for (int b = 0; b < 4; b++) {\n    for (unsigned i = 0; i < 4096; i++) out[i] = 0;\n");
        printf("    dim3 shape = k%d_flat ? shapes[b] : dim3(blocks[b]);\n", i);
        printf("    k%d<<<3, shape>>>(in, out, 4096u, %uu);\n", i, rnd(10));
        printf("    cudaError_t e = cudaDeviceSynchronize();\n    unsigned long long sum = 0;\n"
               "    for (unsigned i = 0; i < 4096; i++) sum = sum * 31 + out[i];\n"
               "    printf(\"k%d block %%ux%%u: %%s %%llu\\n\", shape.x, shape.y, cudaGetErrorName(e), sum);\n  }\n", i);
    }
    printf("  return 0;\n}\n");
    return 0;
}
