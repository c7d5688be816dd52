// fact: Error names and strings are CUDA 13's (cudaGetErrorName / cudaGetErrorString), for the codes the
// facts file uses, and "unrecognized error code" for a code that does not exist.
#include <string.h>
#include "check.h"

static void check_error(int code, const char *name, const char *text)
{
    char fact[256];
    snprintf(fact, sizeof fact, "%d is %s \"%s\"", code, name, text);
    check(fact, strcmp(cudaGetErrorName((cudaError_t)code), name) == 0 &&
                    strcmp(cudaGetErrorString((cudaError_t)code), text) == 0, 1);
}

int main(void)
{
    check_error(0, "cudaSuccess", "no error");
    check_error(1, "cudaErrorInvalidValue", "invalid argument");
    check_error(2, "cudaErrorMemoryAllocation", "out of memory");
    check_error(9, "cudaErrorInvalidConfiguration", "invalid configuration argument");
    check_error(12, "cudaErrorInvalidPitchValue", "invalid pitch argument");
    check_error(21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy");
    check_error(35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version");
    check_error(46, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable");
    check_error(100, "cudaErrorNoDevice", "no CUDA-capable device is detected");
    check_error(101, "cudaErrorInvalidDevice", "invalid device ordinal");
    check_error(209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device");
    check_error(400, "cudaErrorInvalidResourceHandle", "invalid resource handle");
    check_error(700, "cudaErrorIllegalAddress", "an illegal memory access was encountered");
    check_error(710, "cudaErrorAssert", "device-side assert triggered");
    check_error(719, "cudaErrorLaunchFailure", "unspecified launch failure");
    check("an unknown code's name is \"unrecognized error code\"",
          strcmp(cudaGetErrorName((cudaError_t)12345), "unrecognized error code"), 0);
    check("an unknown code's string is \"unrecognized error code\"",
          strcmp(cudaGetErrorString((cudaError_t)12345), "unrecognized error code"), 0);
    check("cudaErrorInvalidPitchValue is 12", cudaErrorInvalidPitchValue, 12);
    check("cudaErrorInvalidMemcpyDirection is 21", cudaErrorInvalidMemcpyDirection, 21);
    check("cudaErrorIllegalAddress is 700", cudaErrorIllegalAddress, 700);
    check("cudaErrorAssert is 710", cudaErrorAssert, 710);
    return 0;
}
