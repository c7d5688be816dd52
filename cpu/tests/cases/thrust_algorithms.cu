// fact: Thrust's algorithms on device_vectors, each compared with a plain C loop over the same host data: reduce,
// transform (with a __host__ __device__ functor), sort, sort_by_key, inclusive_scan, exclusive_scan, copy,
// fill, sequence, count, min_element, max_element, transform_reduce, unique, gather, scatter.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/extrema.h>
#include <thrust/fill.h>
#include <thrust/functional.h>
#include <thrust/gather.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/scatter.h>
#include <thrust/sequence.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/transform_reduce.h>
#include <thrust/unique.h>
#include <stdlib.h>
#include "check.h"

struct axpy {  // exact in float for these small integers, so the GPU's fused multiply-add gives the same
    float a;
    __host__ __device__ float operator()(float x, float y) const { return a * x + y; }
};
struct larger {
    __host__ __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};
struct point {
    int x, y;
};
struct by_x {  // the algorithm moves whole structs through temporaries of its own
    __host__ __device__ bool operator()(const point &a, const point &b) const { return a.x < b.x; }
};
struct square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

/* how many of the n device elements differ from want[] */
template <class V, class T> static int differences(const V &d, const T *want, int n)
{
    thrust::host_vector<T> got = d;
    int wrong = (int)got.size() != n;
    for (int i = 0; i < n && i < (int)got.size(); i++) wrong += got[i] != want[i];
    return wrong;
}

int main(void)
{
    const int n = 5000;
    thrust::host_vector<int> h(n);
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        h[i] = (int)(seed >> 16) % 1000 - 500;
    }
    thrust::device_vector<int> d = h;
    int *want = (int *)malloc(n * sizeof(int)), *keys_want = (int *)malloc(n * sizeof(int));

    long long sum = 0;
    for (int i = 0; i < n; i++) sum += h[i];
    check("reduce: the sum", thrust::reduce(d.begin(), d.end(), 0LL), sum);
    int mx = h[0];
    for (int i = 1; i < n; i++) mx = h[i] > mx ? h[i] : mx;
    check("reduce with a functor (the maximum)", thrust::reduce(d.begin(), d.end(), -1000, larger()), mx);

    thrust::device_vector<float> x(n), y(n), r(n);
    thrust::host_vector<float> hx(n), hy(n), hr(n);
    for (int i = 0; i < n; i++) hx[i] = (float)(i % 100), hy[i] = (float)h[i], hr[i] = 3.0f * hx[i] + hy[i];
    x = hx;
    y = hy;
    thrust::transform(x.begin(), x.end(), y.begin(), r.begin(), axpy{3.0f});
    check("transform with a functor (3x + y)", differences(r, hr.data(), n), 0);
    thrust::transform(d.begin(), d.end(), d.begin(), thrust::negate<int>());
    for (int i = 0; i < n; i++) want[i] = -h[i];
    check("transform in place with thrust::negate", differences(d, want, n), 0);

    long long squares = 0;
    for (int i = 0; i < n; i++) squares += (long long)h[i] * h[i];
    check("transform_reduce: the sum of squares",
          thrust::transform_reduce(d.begin(), d.end(), square(), 0LL, thrust::plus<long long>()), squares);

    int sevens = 0, min_at = 0, max_at = 0;
    for (int i = 0; i < n; i++) {
        sevens += -h[i] == 7;
        if (-h[i] < -h[min_at]) min_at = i;
        if (-h[i] > -h[max_at]) max_at = i;
    }
    check("count of 7", thrust::count(d.begin(), d.end(), 7), sevens);
    check("min_element's position", thrust::min_element(d.begin(), d.end()) - d.begin(), min_at);
    check("max_element's position", thrust::max_element(d.begin(), d.end()) - d.begin(), max_at);

    d = h;
    thrust::sort(d.begin(), d.end());
    for (int i = 0; i < n; i++) want[i] = h[i];
    qsort(want, n, sizeof(int), [](const void *a, const void *b) { return *(const int *)a - *(const int *)b; });
    check("sort", differences(d, want, n), 0);

    const int np = 300;
    thrust::host_vector<point> hp(np);
    for (int i = 0; i < np; i++) hp[i].x = (i * 131) % np, hp[i].y = i;
    thrust::device_vector<point> dp = hp;
    thrust::sort(dp.begin(), dp.end(), by_x());
    thrust::host_vector<point> sorted = dp;
    int misplaced = 0;
    for (int i = 0; i < np; i++) misplaced += sorted[i].x != i || sorted[i].y != (i * 71) % np;  // 71 * 131 = 1 (mod 300)
    check("sort of structs with a comparator functor", misplaced, 0);

    int kept = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || want[i] != want[kept - 1]) want[kept++] = want[i];
    thrust::device_vector<int>::iterator end = thrust::unique(d.begin(), d.end());
    check("unique keeps one of each", end - d.begin(), kept);
    d.resize(end - d.begin());
    check("unique's values", differences(d, want, kept), 0);

    thrust::device_vector<int> keys = h, vals(n);
    thrust::sequence(vals.begin(), vals.end());
    for (int i = 0; i < n; i++) want[i] = i;
    check("sequence 0, 1, 2, ...", differences(vals, want, n), 0);
    thrust::sequence(vals.begin(), vals.end(), 10, 3);
    for (int i = 0; i < n; i++) want[i] = 10 + 3 * i;
    check("sequence 10, 13, 16, ...", differences(vals, want, n), 0);
    thrust::sequence(vals.begin(), vals.end());
    thrust::stable_sort_by_key(keys.begin(), keys.end(), vals.begin());
    int m = 0;  // the stable order by key, by counting sort over the keys' range
    for (int k = -500; k < 500; k++)
        for (int i = 0; i < n; i++)
            if (h[i] == k) keys_want[m] = k, want[m++] = i;
    check("stable_sort_by_key: the keys", differences(keys, keys_want, n), 0);
    check("stable_sort_by_key: the values follow", differences(vals, want, n), 0);
    keys = h;
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    check("sort_by_key: the keys", differences(keys, keys_want, n), 0);

    d = h;
    thrust::inclusive_scan(d.begin(), d.end(), d.begin());
    for (int i = 0, acc = 0; i < n; i++) acc += h[i], want[i] = acc;
    check("inclusive_scan in place", differences(d, want, n), 0);
    d = h;
    thrust::device_vector<int> out(n);
    thrust::exclusive_scan(d.begin(), d.end(), out.begin(), 100);
    for (int i = 0, acc = 100; i < n; i++) want[i] = acc, acc += h[i];
    check("exclusive_scan with an initial value", differences(out, want, n), 0);

    thrust::fill(out.begin(), out.begin() + 10, 7);
    for (int i = 0; i < 10; i++) want[i] = 7;
    check("fill", differences(thrust::device_vector<int>(out.begin(), out.begin() + 10), want, 10), 0);
    thrust::copy(d.begin() + 100, d.begin() + 200, out.begin());
    for (int i = 0; i < 100; i++) want[i] = h[100 + i];
    check("copy between device_vectors", differences(thrust::device_vector<int>(out.begin(), out.begin() + 100), want, 100), 0);

    thrust::device_vector<int> map(n), gathered(n), scattered(n);
    for (int i = 0; i < n; i++) want[i] = (i * 7919) % n;  // a permutation (7919 is prime, n = 5000)
    thrust::copy(want, want + n, map.begin());
    thrust::gather(map.begin(), map.end(), d.begin(), gathered.begin());
    for (int i = 0; i < n; i++) keys_want[i] = h[want[i]];
    check("gather: out[i] = in[map[i]]", differences(gathered, keys_want, n), 0);
    thrust::scatter(d.begin(), d.end(), map.begin(), scattered.begin());
    for (int i = 0; i < n; i++) keys_want[want[i]] = h[i];
    check("scatter: out[map[i]] = in[i]", differences(scattered, keys_want, n), 0);
    free(want);
    free(keys_want);
    return 0;
}
