// Command warplab runs warplab's kernels, labs and tools from a terminal,
// on the simulator or a real GPU:
//
//	warplab run FILE.cu --kernel NAME --grid X --block X [flags]   run one kernel
//	warplab lab list               list the labs: what each teaches, how long it runs
//	warplab lab NAME [--set KEY=VALUE ...] [flags]   run a lab's experiments and print its tables
//	warplab devices [--json]       list the devices of every backend, and why any is unusable
//	warplab fidelity [flags]       compare the simulator's modelled times with measured GPUs
//	warplab sass FILE.cu --kernel NAME [flags]   print a kernel's GPU machine code
//	warplab help [COMMAND [ARG]]   list the commands, one command's flags, or a lab's options
//
// run and lab take --device SPEC ("sim:t4",
// "sim:h200?seed=7", "cuda", "cuda:1"; default: WARPLAB_DEVICE, else a GPU
// if one is usable, else sim:t4). A command exits with status 1 when it
// fails and 2 on a usage error (an unknown lab or lab option, a bad
// value). Run "warplab help COMMAND" for a command's flags and "warplab
// help lab NAME" (or "warplab lab NAME --help") for a lab's options.
package main
