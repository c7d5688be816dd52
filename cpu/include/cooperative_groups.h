/* cooperative_groups.h on the CPU backend: cooperative groups are not emulated yet, so a program that uses
   them is refused here, at its #include, with what to do instead: run it on a GPU. */
#error "cooperative groups are not emulated by the CPU backend: this program needs a real GPU (BACKEND=gpu)"
