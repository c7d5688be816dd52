// Lesson 06: pitched 2-D and 3-D memory: rows padded to the GPU's liking, and
// copies that keep them.
//
//   pitched [W [H]]          an image of W x H floats (default 1000 x 300): in through
//                            cudaMemcpy2D, through a 2-D kernel into a second pitched
//                            image, and back, checked
//   pitched --volume W H D   a volume of W x H x D floats: cudaMalloc3D, cudaMemcpy3D,
//                            cudaMemset3D
//   pitched --probe          what pitches the runtime picks, and what 2-D and 3-D calls
//                            return at their edges
//
// Exit status: 0 success, 1 a CUDA call failed (the out-of-memory contract),
// 2 a usage error.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime.h>

#include "pitched.cuh"

// region: failed
// The out-of-memory contract's one line on stderr: which call failed, on what size, and
// why. Returns 1 when err is an error, so that a call and its check fit in one condition.
static int failed(const char *call, size_t width_bytes, size_t height, cudaError_t err)
{
    if (err == cudaSuccess)
        return 0;
    if (width_bytes > 0)
        fprintf(stderr, "error: %s of %zu x %zu bytes failed: %s\n", call, width_bytes,
                height, cudaGetErrorString(err));
    else
        fprintf(stderr, "error: %s failed: %s\n", call, cudaGetErrorString(err));
    return 1;
}
// end region: failed

// The image's values: small whole numbers, exact in a float, different from row to row
// and column to column, so that a row shifted by its padding shows.
static float value_at(size_t x, size_t y) { return (float)((x * 3 + y) % 11); }

// region: kernel
// out(x, y) += 2 * in(x, y) + y, one thread per element. Rows are pitch bytes apart,
// not width floats: a row starts at (char *)base + y * pitch, and only then is it
// indexed in floats.
__global__ void brighten(const float *in, size_t in_pitch, float *out, size_t out_pitch,
                         size_t width, size_t height)
{
    size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height)
        return;
    const float *in_row = (const float *)((const char *)in + y * in_pitch);
    float *out_row = (float *)((char *)out + y * out_pitch);
    out_row[x] += 2.0f * in_row[x] + (float)y;
}
// end region: kernel

// A 2-D grid of 32 x 8 blocks over width x height: the last column and row of blocks are
// partial, and the kernel's bounds check leaves their extra threads idle.
static dim3 grid_for(size_t width, size_t height, dim3 block)
{
    // region: grid
    return dim3((unsigned int)((width + block.x - 1) / block.x),
                (unsigned int)((height + block.y - 1) / block.y));
    // end region: grid
}

static int run(size_t width, size_t height)
{
    // region: declarations
    float *h_img = NULL;               // width x height floats on the host, rows
                                       // back to back
    float *d_in = NULL, *d_out = NULL; // the same on the device, each row padded
                                       // to its pitch
    size_t in_pitch = 0, out_pitch = 0, row_bytes = width * sizeof(float), good = 0;
    double sum = 0.0;
    dim3 block(32, 8);
    int status = 1;
    // end region: declarations

    // region: allocate
    // The width is in bytes, the height in rows; the runtime picks the pitch, the
    // padded row's bytes.
    if (failed("cudaMallocPitch", row_bytes,
               height, cudaMallocPitch((void **)&d_in, &in_pitch, row_bytes, height)) ||
        failed("cudaMallocPitch", row_bytes,
               height, cudaMallocPitch((void **)&d_out, &out_pitch, row_bytes, height)))
        goto cleanup;
    printf("pitch: %zu bytes for rows of %zu bytes\n", in_pitch, row_bytes);
    // end region: allocate

    h_img = (float *)malloc(row_bytes * height);
    if (h_img == NULL) {
        fprintf(stderr, "error: malloc of %zu x %zu bytes failed\n", row_bytes, height);
        goto cleanup;
    }
    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++)
            h_img[y * width + x] = value_at(x, y);

    // region: copy-in
    // Each side's pitch, then the width of a row in bytes (not the pitch: the padding is
    // not data) and the number of rows. On the host the rows are back to back: their
    // pitch is row_bytes.
    if (failed("cudaMemcpy2D", row_bytes, height,
               cudaMemcpy2D(d_in, in_pitch, h_img, row_bytes, row_bytes, height,
                            cudaMemcpyHostToDevice)))
        goto cleanup;
    // end region: copy-in

    // region: clear
    // The kernel adds to out: it must start at zero, padding or not, row by row.
    if (failed("cudaMemset2D", row_bytes,
               height, cudaMemset2D(d_out, out_pitch, 0, row_bytes, height)))
        goto cleanup;
    // end region: clear

    brighten<<<grid_for(width, height, block), block>>>(d_in, in_pitch, d_out, out_pitch,
                                                        width, height);
    if (failed("kernel launch", 0, 0, cudaGetLastError()))
        goto cleanup;

    // region: copy-out
    if (failed("cudaMemcpy2D", row_bytes, height,
               cudaMemcpy2D(h_img, row_bytes, d_out, out_pitch, row_bytes, height,
                            cudaMemcpyDeviceToHost)))
        goto cleanup;
    // end region: copy-out

    for (size_t y = 0; y < height; y++)
        for (size_t x = 0; x < width; x++) {
            float v = h_img[y * width + x];
            good += v == 2.0f * value_at(x, y) + (float)y;
            sum += v;
        }
    printf("image checked: %zu of %zu elements as expected\n", good, width * height);
    printf("sum of the image: %.0f\n", sum);
    status = 0; // wrong values are reported above: exit status 1 means a CUDA call failed

    // region: cleanup
cleanup:
    free(h_img);
    cudaFree(d_out);
    cudaFree(d_in);
    return status;
    // end region: cleanup
}

// A volume through 3-D pitched memory: in, add each slice's number on the GPU,
// out; then cleared.
static int volume(size_t width, size_t height, size_t depth)
{
    float *h_vol = NULL;
    struct cudaPitchedPtr d_vol = make_cudaPitchedPtr(NULL, 0, 0, 0);
    // Width in bytes.
    struct cudaExtent extent = make_cudaExtent(width * sizeof(float), height, depth);
    struct cudaMemcpy3DParms copy;
    size_t n = width * height * depth, good = 0, zeros = 0;
    dim3 block(32, 8);
    int status = 1;

    // region: malloc3d
    if (failed("cudaMalloc3D", extent.width,
               height * depth, cudaMalloc3D(&d_vol, extent)))
        goto cleanup;
    printf("volume pitch: %zu bytes, %zu rows a slice\n", d_vol.pitch, d_vol.ysize);
    // end region: malloc3d

    h_vol = (float *)malloc(n * sizeof(float));
    if (h_vol == NULL) {
        fprintf(stderr, "error: malloc of %zu x %zu bytes failed\n", extent.width,
                height * depth);
        goto cleanup;
    }
    for (size_t i = 0; i < n; i++)
        h_vol[i] = value_at(i % width, i / width);

    // region: copy3d-in
    // One description of the copy: both sides as pitched pointers (the host's pitch is
    // its row's bytes), the extent, the kind. Positions left at 0: the whole volume.
    memset(&copy, 0, sizeof(copy));
    copy.srcPtr = make_cudaPitchedPtr(h_vol, extent.width, width, height);
    copy.dstPtr = d_vol;
    copy.extent = extent;
    copy.kind = cudaMemcpyHostToDevice;
    if (failed("cudaMemcpy3D", extent.width, height * depth, cudaMemcpy3D(&copy)))
        goto cleanup;
    // end region: copy3d-in

    add_slice_number<<<grid_for(width, height, block), block>>>(d_vol, width, height,
                                                                depth);
    if (failed("kernel launch", 0, 0, cudaGetLastError()))
        goto cleanup;

    // region: copy3d-out
    copy.srcPtr = d_vol;
    copy.dstPtr = make_cudaPitchedPtr(h_vol, extent.width, width, height);
    copy.kind = cudaMemcpyDeviceToHost;
    if (failed("cudaMemcpy3D", extent.width, height * depth, cudaMemcpy3D(&copy)))
        goto cleanup;
    // end region: copy3d-out
    for (size_t i = 0; i < n; i++)
        good += h_vol[i] ==
                value_at(i % width, i / width) + (float)(i / (width * height));
    printf("volume checked: %zu of %zu elements as expected\n", good, n);

    // region: memset3d
    if (failed("cudaMemset3D", extent.width,
               height * depth, cudaMemset3D(d_vol, 0, extent)) ||
        failed("cudaMemcpy3D", extent.width, height * depth, cudaMemcpy3D(&copy)))
        goto cleanup;
    // end region: memset3d
    for (size_t i = 0; i < n; i++)
        zeros += h_vol[i] == 0.0f;
    printf("volume cleared: %zu of %zu elements are 0\n", zeros, n);
    status = 0;

cleanup:
    free(h_vol);
    cudaFree(d_vol.ptr);
    return status;
}

// One answer of the probe: the question, then the error code's name.
static void answer(const char *question, cudaError_t err)
{
    printf("%s: %s\n", question, cudaGetErrorName(err));
}

// Prints the pitch the runtime picks for rows of bytes bytes.
static int pitch_for(size_t bytes)
{
    void *p = NULL;
    size_t pitch = 0;
    if (failed("cudaMallocPitch", bytes, 1, cudaMallocPitch(&p, &pitch, bytes, 1)))
        return 1;
    printf("pitch for a row of %zu bytes: %zu\n", bytes, pitch);
    cudaFree(p);
    return 0;
}

// Asks the runtime about the edges of pitched memory and prints what it answers.
static int probe(void)
{
    // h: room for 3 slices, more than any copy below asks.
    float *d = NULL, *other = NULL, h[64 * 4 * 3];
    size_t pitch = 0;
    struct cudaPitchedPtr v = make_cudaPitchedPtr(NULL, 0, 0, 0);
    struct cudaMemcpy3DParms copy;
    cudaError_t err;
    int status = 1;

    if (pitch_for(1) || pitch_for(513) || pitch_for(1200) || pitch_for(4004))
        return 1;
    // A pitched buffer of 4 rows of 64 floats, and a volume of 2 slices of them.
    if (failed("cudaMallocPitch", 256, 4, cudaMallocPitch((void **)&d, &pitch, 256, 4)) ||
        failed("cudaMalloc3D", 256, 8, cudaMalloc3D(&v, make_cudaExtent(256, 4, 2))))
        goto cleanup;
    memset(h, 0, sizeof(h));
    // region: probe
    answer("cudaMallocPitch with a NULL pitch pointer",
           cudaMallocPitch((void **)&other, NULL, 256, 4));
    answer("cudaMemset2D of rows wider than the pitch",
           cudaMemset2D(d, pitch, 0, pitch + 4, 4));
    answer("cudaMemset2D of one row past the last", cudaMemset2D(d, pitch, 0, 256, 5));
    answer("cudaMemcpy2D to the host named HostToDevice",
           cudaMemcpy2D(h, 256, d, pitch, 256, 4, cudaMemcpyHostToDevice));
    memset(&copy, 0, sizeof(copy));
    copy.srcPtr = v;
    copy.dstPtr = make_cudaPitchedPtr(h, 256, 64, 4);
    copy.extent = make_cudaExtent(v.pitch + 4, 4, 1);
    copy.kind = cudaMemcpyDeviceToHost;
    answer("cudaMemcpy3D of rows wider than the pitch", cudaMemcpy3D(&copy));
    copy.extent = make_cudaExtent(256, 4, 3);
    answer("cudaMemcpy3D of one slice past the last", cudaMemcpy3D(&copy));
    // Each failed call also set the last error; cudaGetLastError returns it
    // once and clears it.
    err = cudaGetLastError();
    printf("cudaGetLastError: %s, then %s\n", cudaGetErrorName(err),
           cudaGetErrorName(cudaGetLastError()));
    // end region: probe
    status = 0;

cleanup:
    cudaFree(other);
    cudaFree(v.ptr);
    cudaFree(d);
    return status;
}

// A count from text: at least 1, at most max; 0 when it is not one.
static size_t parse_count(const char *text, size_t max)
{
    char *end = NULL;
    size_t n = strtoull(text, &end, 10);
    if (*text == '\0' || *text == '-' || *end != '\0' || n > max)
        return 0;
    return n;
}

int main(int argc, char **argv)
{
    // W x H x D must not overflow a size_t.
    size_t limit = SIZE_MAX / sizeof(float) / 65536;
    size_t w = 1000, h = 300, d = 0;

    if (argc == 2 && strcmp(argv[1], "--probe") == 0)
        return probe();
    if (argc == 5 && strcmp(argv[1], "--volume") == 0) {
        w = parse_count(argv[2], 65536), h = parse_count(argv[3], 65536),
            d = parse_count(argv[4], 65536);
        if (w && h && d)
            return volume(w, h, d);
    } else if (argc <= 3) {
        if (argc >= 2)
            w = parse_count(argv[1], limit);
        if (argc == 3)
            h = parse_count(argv[2], 65536);
        if (w && h)
            return run(w, h);
    }
    fprintf(stderr,
            "usage: %s [W [H]] | --volume W H D | --probe   "
            "(W, H, D: counts, at least 1)\n",
            argv[0]);
    return 2;
}
