/* cub/cub.cuh on the CPU backend: the CUB that teaching code uses (cudawb_cub.cuh says how it is built),
   and the rest of CUB's names, refused at the program's line (cudawb_unsupported.cuh). The other headers
   of CUB under this folder refuse to be included, each with a message naming it. */
#ifndef CUDAWB_CUB_CUB_CUH
#define CUDAWB_CUB_CUB_CUH
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#include <cub/warp/warp_scan.cuh>
#include <cub/cudawb_unsupported.cuh>
#endif
