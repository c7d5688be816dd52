/* thrust/future.h on the CPU backend (also reached from thrust/event.h and thrust/async/): refused. */
#error "thrust::async, thrust::future and thrust::event are not emulated by the CPU backend: use the synchronous algorithms (thrust::cuda::par.on(stream) runs one on a stream)"
