// Package labs is the contract every warplab lab implements, the registry
// that the command line, the notebooks and the class grader find labs in,
// and the shared language of exercise feedback.
//
// # Labs
//
// A lab is a Go package under labs/ (labs/atomics is Day 26) that a
// notebook imports. Besides its own typed experiments, tables and charts,
// it registers a Lab in init:
//
//   - Info: the name `warplab lab NAME` takes, the title, what it teaches,
//     the course documents it comes from, its notebook, the wall time of
//     its headless run on the simulator, and its Exercise.
//   - Options: the settings its run accepts, with defaults, kinds and
//     bounds ("sizes", "block-size"). They are set by name, so the
//     command line needs no per-lab flags (`--set sizes=4096,65536`) and
//     an instructor's key can change them for a hidden check.
//   - Run: every experiment, as the notebook runs them, returning a Report
//     of tables and figures and the wall time it took.
//
// Package labs/all imports every lab, so a program that wants them all
// (cmd/warplab, the grader) imports it for its side effect, the way
// image/png registers a decoder.
//
// # Settings
//
// Resolve checks a map of settings against a list of Options: an unknown
// name is an error that lists the known ones; a value is parsed as its
// option's Kind and checked against its bounds before anything runs, so
// that `--set sizes=10000000000` is refused with the option's name instead
// of exhausting the host's memory. An option's Valid function checks what
// a range cannot ("a power of two"), also before anything runs. An Int
// option with an empty Default may stay empty, and Settings.Int then
// returns 0: the lab's own choice, which may depend on the device ("10
// timed runs on a GPU, 1 on the simulator").
//
// # Exercises and feedback
//
// An Exercise names the answer variable and its Go type, the check's own
// Options (sizes, seeds, tolerances: what a hidden check varies), and a
// Check function. Check returns Feedback: named Parts, each with a Verdict
// (Pass, Fail, Unanswered or a Note), a message, the hint to read, points
// and a Visibility. The notebook shows Feedback as HTML, the command line
// as text, and the grader turns the same parts into a platform's results.
// A check that cannot judge the answer (its re-run failed) says so in a
// failing part rather than returning an error, so that every answer gets
// feedback.
//
// # Adding a lab
//
// labs/atomics (Day 26) is the reference; a new lab copies its shape:
//
//  1. A package labs/NAME with typed experiments (Sweep(dev, opts)) whose
//     options structs take a Progress, and tables that render themselves;
//     its kernels embedded and shown as a Source (ReadSource). What every
//     lab's experiments share (running launches, predicting a GPU's
//     times, reading committed measurements) is in labs/internal/labkit.
//  2. The Lab, declared once with Define and registered in init: Info
//     with the course documents cited by title, the options as a struct
//     whose tags give each one's name, bound and usage and whose Defaults
//     value gives its default, and a Run that maps that struct onto the
//     experiments' options and returns a Report whose Elapsed is a field
//     of the report and whose String is labkit.ReportText.
//  3. An Exercise whose Check returns Feedback built with Passf, Failf and
//     Add, never a lab-specific feedback type; an exercise whose answer
//     is a student kernel is a kernelcheck.Exercise.
//  4. A test that calls labtest.RunAll, the labs' conformance suite, and
//     a BenchmarkHeadless that runs the lab through Run with its defaults
//     on the simulator; its ns/op on the development machine is
//     Info.SimWallTime.
//  5. Its import in labs/all and its notebook under notebooks/.
//
// docs/lab-author-guide.md walks through it.
//
// No exported package variables: defaults are constants or functions.
package labs
