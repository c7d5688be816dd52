/* cub/util_allocator.cuh on the CPU backend: not emulated (cub/cub.cuh says what is). */
#error "cub/util_allocator.cuh is not emulated by the CPU backend: include <cub/cub.cuh> for BlockReduce, BlockScan, WarpReduce, WarpScan, DeviceReduce and DeviceScan"
