package aggregation

// compilerSASS is the part of the machine code that nvcc (CUDA 13.0,
// sm_90) makes of `out[i] = atomicAdd(c, 1u)`, the atomic of
// compactAtomic, as the project recorded it on an H200 with cuobjdump:
// the lines of the warp-aggregated atomic, in program order.
const compilerSASS = `VOTEU.ANY UR7, UPT, PT ;                              the active lanes
FLO.U32 R6, UR7 ;                                     the lowest of them: the leader
POPC R9, UR7 ;                                        how many lanes: the warp's total
@P0 ATOMG.E.ADD.STRONG.GPU PT, R9, desc[UR4][R2.64], R9 ;   one atomic, by the leader, adding the total
POPC R11, R8 ;                                        each lane: active lanes below it
SHFL.IDX PT, R6, R9, R6, 0x1f ;                       the leader's old value, to every lane
`

// CompilerSASS returns the machine code that nvcc makes of compactAtomic's
// atomicAdd(c, 1u), recorded on an H200 (CUDA 13.0, sm_90): a vote of the
// active lanes, one ATOMG.E.ADD issued by the lowest of them for the whole
// warp, and a shuffle and a population count that give each lane its own
// ticket. With the CUDA toolkit installed, `warplab sass
// labs/aggregation/kernels/counter.cu --kernel compactAtomic` prints it
// for your own GPU.
func CompilerSASS() string { return compilerSASS }
