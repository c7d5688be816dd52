/* thrust/extrema.h on the CPU backend: Thrust is not emulated, so a program that includes it is refused here. */
#error "Thrust is not emulated by the CPU backend: this program needs a real GPU (BACKEND=gpu)"
