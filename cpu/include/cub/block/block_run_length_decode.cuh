/* cub/block/block_run_length_decode.cuh on the CPU backend: not emulated (cub/cub.cuh says what is). */
#error "cub/block/block_run_length_decode.cuh is not emulated by the CPU backend: include <cub/cub.cuh> for BlockReduce, BlockScan, WarpReduce, WarpScan, DeviceReduce and DeviceScan"
