/* kernel_info.c (GPU only): a kernel's name and its parameters' sizes, for the trace's launch records.
 * Asked of the driver (cuFuncGetName, cuFuncGetParamInfo through the handle cudaGetFuncBySymbol gives),
 * not of the runtime: a runtime query past the last parameter would set the program's last error. The
 * CPU backend answers the same question from its own launch registry (cpu/src/launch.cpp). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cuda_runtime_api.h>

#include "trace.h"

#define MAX_KERNELS 256
#define MAX_PARAMS 32

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef int (*get_name_fn)(const char **name, void *func);
typedef int (*get_param_fn)(void *func, size_t index, size_t *offset, size_t *size);
typedef int (*get_count_fn)(void *func, size_t *count);

/* The handles nvcc's launch code gets from __cudaGetKernel, and the kernel (host stub) each stands for. */
static struct {
    cudaKernel_t handle;
    const void *func;
} handles[MAX_KERNELS];
static int nhandles;

cudaError_t __real___cudaGetKernel(cudaKernel_t *kernel, const void *func);
cudaError_t __wrap___cudaGetKernel(cudaKernel_t *kernel, const void *func)
{
    cudaError_t err = __real___cudaGetKernel(kernel, func);
    if (err == cudaSuccess && kernel != NULL) {
        pthread_mutex_lock(&lock);
        if (nhandles < MAX_KERNELS) {
            handles[nhandles].handle = *kernel;
            handles[nhandles++].func = func;
        }
        pthread_mutex_unlock(&lock);
    }
    return err;
}

const void *tr_kernel_func(cudaKernel_t kernel)
{
    const void *func = (const void *)kernel;
    int i;
    pthread_mutex_lock(&lock);
    for (i = 0; i < nhandles; i++)
        if (handles[i].handle == kernel)
            func = handles[i].func;
    pthread_mutex_unlock(&lock);
    return func;
}

struct kernel {
    const void *func;
    char name[128];
    int nparams;
    size_t sizes[MAX_PARAMS];
};

static struct kernel kernels[MAX_KERNELS];
static int nkernels;

/* The identifier of a mangled name (the Itanium C++ ABI's): _Z4fillPfmf -> fill, _ZL4fillPf (a static kernel)
 * -> fill, _ZN2ns4stepEv -> step, _Z4fillIfEvPT_ -> fill, _Z16add_slice_number14cudaPitchedPtriii ->
 * add_slice_number. Only a nested name (N...E) holds more than one identifier, the last being the function's;
 * what follows a plain one is its template arguments or its parameters' types. */
static void plain_name(const char *mangled, char *out, size_t size)
{
    const char *p = mangled;
    const char *last = NULL;
    size_t last_len = 0;
    int nested;
    if (strncmp(p, "_Z", 2) != 0) {
        snprintf(out, size, "%s", mangled);
        return;
    }
    p += 2;
    if (*p == 'L') /* internal linkage */
        p++;
    nested = *p == 'N';
    if (nested)
        p++;
    while (*p >= '0' && *p <= '9') {
        size_t n = strtoul(p, (char **)&p, 10);
        if (strlen(p) < n)
            break;
        last = p;
        last_len = n;
        p += n;
        if (!nested)
            break;
    }
    if (last == NULL)
        snprintf(out, size, "%s", mangled);
    else
        snprintf(out, size, "%.*s", (int)last_len, last);
}

static void ask_driver(struct kernel *k)
{
    static get_name_fn get_name;
    static get_param_fn get_param;
    static get_count_fn get_count;
    static int looked, tool_attached;
    size_t count = 0;
    cudaFunction_t f = NULL;
    const char *mangled = NULL;
    size_t offset, size;
    void *lib;

    if (!looked) {
        looked = 1;
        lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        if (lib != NULL) {
            get_name = (get_name_fn)dlsym(lib, "cuFuncGetName");
            get_param = (get_param_fn)dlsym(lib, "cuFuncGetParamInfo");
            get_count = (get_count_fn)dlsym(lib, "cuFuncGetParamCount");
        }
        /* compute-sanitizer reports every failing driver call: without cuFuncGetParamCount, the count is
           found by asking past the last parameter, which only happens when no tool is attached */
        tool_attached = getenv("CUDA_INJECTION64_PATH") != NULL;
    }
    snprintf(k->name, sizeof k->name, "?");
    if (cudaGetFuncBySymbol(&f, k->func) != cudaSuccess || f == NULL)
        return;
    if (get_name != NULL && get_name(&mangled, (void *)f) == 0 && mangled != NULL)
        plain_name(mangled, k->name, sizeof k->name);
    if (get_param == NULL)
        return;
    if (get_count != NULL && get_count((void *)f, &count) == 0) {
        while ((size_t)k->nparams < count && k->nparams < MAX_PARAMS &&
               get_param((void *)f, (size_t)k->nparams, &offset, &size) == 0)
            k->sizes[k->nparams++] = size;
    } else if (!tool_attached && !tr_setting_no_kernel_args()) {
        while (k->nparams < MAX_PARAMS && get_param((void *)f, (size_t)k->nparams, &offset, &size) == 0)
            k->sizes[k->nparams++] = size;
    }
}

int tr_kernel_info(const void *func, const char **name, size_t *sizes, int max)
{
    struct kernel *k = NULL;
    int i;
    pthread_mutex_lock(&lock);
    for (i = 0; i < nkernels; i++)
        if (kernels[i].func == func)
            k = &kernels[i];
    if (k == NULL && nkernels < MAX_KERNELS) {
        k = &kernels[nkernels++];
        memset(k, 0, sizeof *k);
        k->func = func;
        ask_driver(k);
    }
    pthread_mutex_unlock(&lock);
    if (k == NULL)
        return 0;
    *name = k->name;
    for (i = 0; i < k->nparams && i < max; i++)
        sizes[i] = k->sizes[i];
    return i;
}
