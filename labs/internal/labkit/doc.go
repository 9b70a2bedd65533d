// Package labkit is what warplab's lab packages share: a Runner that runs
// a lab's independent launches on a device (concurrently on simulated
// devices, sequentially on a GPU), progress reports, the simulator profile
// that predicts a given GPU, the float helpers the labs' checks use, and
// the plumbing of the lab contract that every lab writes the same way.
//
// # Running launches
//
// A lab describes its experiment as Jobs: each makes a known number of
// launches and stores what it measures in a slot of its own. A Runner
// decides where they run:
//
//   - On the simulator (a device whose timing is modelled and whose
//     atomics are seeded), every job runs on a fresh simulated device
//     opened from the lab's device spec, with the seed that launch would
//     have had had the jobs run one after another on one device: the seed
//     of the device's spec, plus the launches of the jobs before it. Jobs
//     then run on runtime.GOMAXPROCS(0) goroutines. Since a simulated
//     launch is a pure function of its inputs and seed, the results are
//     the same as a sequential run, and the same every time the experiment
//     runs with the same spec: only the wall time changes.
//   - On a GPU, jobs run one after another on the device itself, sharing
//     compiled modules and input buffers through the Session cache.
//
// The device passed to NewRunner is used as is on a GPU; on the simulator
// it only supplies the spec, and its own launch count is not used, so
// that an experiment replays exactly whatever ran on the device before.
//
// # The lab contract's plumbing
//
// A lab declares its options once, as a tagged struct (labs.Define); an
// exercise's options write a list default with JoinInts and read their
// whole numbers with ReadInts; a lab report's String is ReportText (the tables, then "NAME lab on DEVICE: 6.2 s").
//
// # Measured beside predicted
//
// A cell of an experiment is made by Runner.LaunchJobs: its warm-ups and
// timed launches, a job each on the simulator, one job on a GPU.
// TimingSource says where a table's times come from. On a GPU a lab's
// sweep runs again on the simulator that OpenPrediction opens for its
// "predict" setting (whose usage is PredictUsage), and RatioCell shows each prediction
// over its measurement, highlighted outside the ±30% of Within30. A lab
// that sets committed H200 measurements beside the model reads them with
// ReadEvidence and runs the model that OpenModel opens.
package labkit
