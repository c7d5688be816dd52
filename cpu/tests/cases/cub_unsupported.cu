// compile time: the parts of CUB the CPU backend does not emulate (here cub::BlockLoad and
// cub::DeviceRadixSort) are refused at the program's line with the backend's own message naming them.
// test-compile-fails: cub::BlockLoad is not emulated by the CPU backend
// test-gpu: skip (nvcc compiles all of CUB)
#include <cub/cub.cuh>

__global__ void load(const int *in, int *out)
{
    typedef cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_DIRECT> Load;
    __shared__ typename Load::TempStorage tmp;
    int items[4];
    Load(tmp).Load(in, items);
    out[threadIdx.x] = items[0];
}

int main(void)
{
    size_t bytes = 0;
    int *keys = 0;
    cub::DeviceRadixSort::SortKeys(nullptr, bytes, keys, keys, 10);
    return 0;
}
