package engine

import "github.com/warplab/warplab/gpu/driver"

// addCounters adds the additive counters of s to d. (ResidentBlocksPerSM
// and Waves describe the launch and are set once.)
func addCounters(d, s *driver.Counters) {
	d.Blocks += s.Blocks
	d.Warps += s.Warps
	d.Threads += s.Threads
	d.WarpInstructions += s.WarpInstructions
	d.ThreadInstructions += s.ThreadInstructions
	d.ByClass.Int += s.ByClass.Int
	d.ByClass.FP32 += s.ByClass.FP32
	d.ByClass.FP64 += s.ByClass.FP64
	d.ByClass.SFU += s.ByClass.SFU
	d.ByClass.Convert += s.ByClass.Convert
	d.ByClass.Memory += s.ByClass.Memory
	d.ByClass.Atomic += s.ByClass.Atomic
	d.ByClass.Warp += s.ByClass.Warp
	d.ByClass.Control += s.ByClass.Control
	d.ByClass.Sync += s.ByClass.Sync
	d.GlobalLoadRequests += s.GlobalLoadRequests
	d.GlobalLoadSectors += s.GlobalLoadSectors
	d.GlobalLoadBytes += s.GlobalLoadBytes
	d.GlobalStoreRequests += s.GlobalStoreRequests
	d.GlobalStoreSectors += s.GlobalStoreSectors
	d.DRAMBytes += s.DRAMBytes
	d.L2Sectors += s.L2Sectors
	d.L2Hits += s.L2Hits
	d.L2Slices += s.L2Slices
	d.L2HotSliceSectors += s.L2HotSliceSectors
	d.GlobalStoreBytes += s.GlobalStoreBytes
	d.SharedLoadRequests += s.SharedLoadRequests
	d.SharedStoreRequests += s.SharedStoreRequests
	d.SharedBankConflicts += s.SharedBankConflicts
	d.LocalLoadRequests += s.LocalLoadRequests
	d.LocalStoreRequests += s.LocalStoreRequests
	d.GlobalAtomicRequests += s.GlobalAtomicRequests
	d.GlobalAtomicOps += s.GlobalAtomicOps
	d.GlobalAtomicIssued += s.GlobalAtomicIssued
	d.GlobalAtomicAggregated += s.GlobalAtomicAggregated
	d.GlobalAtomicAggregatedUsed += s.GlobalAtomicAggregatedUsed
	d.GlobalAtomicAddresses += s.GlobalAtomicAddresses
	d.GlobalAtomicLines += s.GlobalAtomicLines
	d.GlobalAtomicMaxChain += s.GlobalAtomicMaxChain
	d.GlobalAtomicMaxLine += s.GlobalAtomicMaxLine
	d.GlobalFloatAtomicOps += s.GlobalFloatAtomicOps
	d.SharedAtomicRequests += s.SharedAtomicRequests
	d.SharedAtomicOps += s.SharedAtomicOps
	d.SharedAtomicConflicts += s.SharedAtomicConflicts
	d.SharedCASRetries += s.SharedCASRetries
	d.CASFailures += s.CASFailures
	d.Shuffles += s.Shuffles
	d.Votes += s.Votes
	d.Barriers += s.Barriers
	d.BarrierWaitCycles += s.BarrierWaitCycles
	d.SyncWarps += s.SyncWarps
	d.Fences += s.Fences
	d.Printfs += s.Printfs
}
