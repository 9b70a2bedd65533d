package profiles

// Compute-capability limits are from the CUDA C++ Programming Guide's table
// "Technical Specifications per Compute Capability"; sizes and bandwidths
// from NVIDIA's datasheets; measured figures from
// shared/reference/measurements.md and testdata/.

const ccTable = Guide + "Technical Specifications per Compute Capability"

func init() {
	register(&Profile{
		Name: "t4", Device: "Tesla T4", Arch: "sm_75",
		SMs: 40, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 1024, MaxBlocksPerSM: 16, MaxWarpsPerSM: 32,
		SharedPerSM: 64 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		ClockMHz: 1590, MemoryBytes: 16 << 30, DRAMGBps: 320, L2Bytes: 4 << 20,
		Sources: map[string]string{
			"SMs":                Datasheet + "NVIDIA T4 (TU104, 40 SMs, 2560 CUDA cores); seed 002 prints SMs: 40",
			"MaxThreadsPerBlock": ccTable + ", 7.5",
			"MaxThreadsPerSM":    ccTable + ", 7.5",
			"MaxBlocksPerSM":     ccTable + ", 7.5",
			"MaxWarpsPerSM":      ccTable + ", 7.5",
			"SharedPerSM":        ccTable + ", 7.5 (64 KB)",
			"SharedPerBlock":     ccTable + ", 48 KB without opt-in",
			"RegsPerSM":          ccTable + ", 7.5",
			"ClockMHz":           Datasheet + "NVIDIA T4 boost clock 1590 MHz",
			"MemoryBytes":        Datasheet + "NVIDIA T4, 16 GB GDDR6",
			"DRAMGBps":           Datasheet + "NVIDIA T4, 320 GB/s",
			"L2Bytes":            Datasheet + "Turing TU104, 4 MB L2",
		},
	})
	register(&Profile{
		Name: "h200", Device: "NVIDIA H200", Arch: "sm_90",
		SMs: 132, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, MaxWarpsPerSM: 64,
		SharedPerSM: 228 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		ClockMHz: 1980, MemoryBytes: 141 << 30, DRAMGBps: 4800, L2Bytes: 60 << 20,
		Sources: map[string]string{
			"SMs":                Measured + "132 multiprocessors reported on the project's H200 (measurements.md)",
			"MaxThreadsPerBlock": ccTable + ", 9.0",
			"MaxThreadsPerSM":    ccTable + ", 9.0",
			"MaxBlocksPerSM":     ccTable + ", 9.0",
			"MaxWarpsPerSM":      ccTable + ", 9.0",
			"SharedPerSM":        ccTable + ", 9.0 (228 KB)",
			"SharedPerBlock":     ccTable + ", 48 KB without opt-in",
			"RegsPerSM":          ccTable + ", 9.0",
			"ClockMHz":           Measured + "1980 MHz under load (measurements.md)",
			"MemoryBytes":        Datasheet + "NVIDIA H200, 141 GB HBM3e",
			"DRAMGBps":           Datasheet + "NVIDIA H200, 4.8 TB/s",
			"L2Bytes":            Measured + "60 MiB L2 reported (measurements.md)",
		},
	})
	register(&Profile{
		Name: "a100", Device: "NVIDIA A100-SXM4-80GB", Arch: "sm_80",
		SMs: 108, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32, MaxWarpsPerSM: 64,
		SharedPerSM: 164 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		ClockMHz: 1410, MemoryBytes: 80 << 30, DRAMGBps: 2039, L2Bytes: 40 << 20,
		Sources: map[string]string{
			"SMs":                Datasheet + "NVIDIA A100 Tensor Core GPU architecture whitepaper: 108 SMs",
			"MaxThreadsPerBlock": ccTable + ", 8.0",
			"MaxThreadsPerSM":    ccTable + ", 8.0",
			"MaxBlocksPerSM":     ccTable + ", 8.0",
			"MaxWarpsPerSM":      ccTable + ", 8.0",
			"SharedPerSM":        ccTable + ", 8.0 (164 KB)",
			"SharedPerBlock":     ccTable + ", 48 KB without opt-in",
			"RegsPerSM":          ccTable + ", 8.0",
			"ClockMHz":           Datasheet + "A100 boost clock 1410 MHz",
			"MemoryBytes":        Datasheet + "A100 80GB SXM",
			"DRAMGBps":           Datasheet + "A100 80GB SXM, 2039 GB/s",
			"L2Bytes":            Datasheet + "A100 whitepaper, 40 MB L2",
		},
	})
	register(&Profile{
		Name: "l4", Device: "NVIDIA L4", Arch: "sm_89",
		SMs: 58, MaxThreadsPerBlock: 1024, MaxThreadsPerSM: 1536, MaxBlocksPerSM: 24, MaxWarpsPerSM: 48,
		SharedPerSM: 100 << 10, SharedPerBlock: 48 << 10, RegsPerSM: 65536,
		ClockMHz: 2040, MemoryBytes: 24 << 30, DRAMGBps: 300, L2Bytes: 48 << 20,
		Sources: map[string]string{
			"SMs":                Datasheet + "NVIDIA L4 (AD104, 58 SMs, 7424 CUDA cores)",
			"MaxThreadsPerBlock": ccTable + ", 8.9",
			"MaxThreadsPerSM":    ccTable + ", 8.9",
			"MaxBlocksPerSM":     ccTable + ", 8.9",
			"MaxWarpsPerSM":      ccTable + ", 8.9",
			"SharedPerSM":        ccTable + ", 8.9 (100 KB)",
			"SharedPerBlock":     ccTable + ", 48 KB without opt-in",
			"RegsPerSM":          ccTable + ", 8.9",
			"ClockMHz":           Datasheet + "NVIDIA L4 boost clock 2040 MHz",
			"MemoryBytes":        Datasheet + "NVIDIA L4, 24 GB GDDR6",
			"DRAMGBps":           Datasheet + "NVIDIA L4, 300 GB/s",
			"L2Bytes":            Datasheet + "NVIDIA Ada whitepaper, AD104 48 MB L2",
		},
	})
}
