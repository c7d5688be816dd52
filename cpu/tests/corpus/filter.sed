# filter.sed: what differs from run to run, or from machine to machine, in a sample's output, made the same on
# both sides before the CPU backend's output is compared with the H200's (run.sh).
# Lines that report a time, a rate or a clock: their numbers.
/[Tt]ime\|[Ee]lapsed\|[Tt]hroughput\|[Pp]erformance\|[Bb]andwidth\|GB\/s\|MB\/s\|[GM][Ff]lop\|msec\|ms\b\|[Cc]lock\|[Ss]peed\|[Ss]peedup\|iterations while waiting/s/-\?[0-9][0-9.eE+-]*/N/g
# Addresses.
s/0x[0-9a-fA-F]\{6,\}/0xADDR/g
# The program's own path (argv[0]), in a folder mktemp named.
s|/tmp/tmp\.[A-Za-z0-9]*/|./|g
# The device's name: the CPU backend names itself, it does not pass for the H200 (its properties are the H200's).
s/NVIDIA H200\|CUDA Memory Workbook CPU backend/DEVICE/g
# The machine's kernel release (simpleAssert prints it).
s/^\(OS_System_Type\.release = \).*/\1RELEASE/
# simpleStreams' table of times (ms), a line per measurement.
/^\(memcopy\|kernel\|non-streamed\|[0-9]* streams\):/s/-\?[0-9][0-9.eE+-]*/N/g
# UnifiedMemoryStreams: which OpenMP thread ran a task (a dynamic schedule), and the task's size and so where
# it ran (drawn from a seed the program takes from the clock).
s/^\(Task \[[0-9]*\]\), thread \[[0-9]*\] executing on [a-z]* ([0-9]*)$/\1, thread [T] executing on H (N)/
