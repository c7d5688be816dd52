/* cub/util_temporary_storage.cuh on the CPU backend: not emulated (cub/cub.cuh says what is). */
#error "cub/util_temporary_storage.cuh is not emulated by the CPU backend: include <cub/cub.cuh> for BlockReduce, BlockScan, WarpReduce, WarpScan, DeviceReduce and DeviceScan"
