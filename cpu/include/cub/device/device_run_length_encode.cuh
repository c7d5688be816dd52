/* cub/device/device_run_length_encode.cuh on the CPU backend: not emulated (cub/cub.cuh says what is). */
#error "cub/device/device_run_length_encode.cuh is not emulated by the CPU backend: include <cub/cub.cuh> for BlockReduce, BlockScan, WarpReduce, WarpScan, DeviceReduce and DeviceScan"
