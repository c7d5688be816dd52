// Appended to lesson 01's solution with its cudaFree(d_data) taken out (tests/hostile.bats): the leak alone,
// with nothing else, for comparison with a case that leaks the same and also tries to hide it.
