// Package grade grades a class's submitted notebooks against an
// instructor's key, and writes the results in the formats course
// platforms load: Gradescope's and PrairieLearn's results.json, a CSV
// gradebook and Markdown feedback per student.
//
// # Keys
//
// A Key (LoadKey, a TOML file, see KeyTemplate) names the lab, the
// simulator the checks run on, the wall-clock limit of one submission,
// settings every check starts from (instruction and time budgets), and
// the checks: each runs the exercise's Check once under its own settings
// (the notebook's visible check; hidden ones at other sizes, seeds,
// tolerances), with the points of each part of the feedback and a
// visibility (visible, hidden, after_due_date, after_published: the terms
// of Gradescope, which shows each as it says; PrairieLearn and Markdown
// feedback show at once, so there the last three show only passed or
// failed). A key gives points only to parts the exercise's check reports
// (labs.Exercise.Parts); KeyTemplate proposes them. Keys live apart from
// the student material: grade/keys holds the course's, and neither the
// notebooks nor the student image contain them.
//
// # Answers
//
// ReadAnswerCell streams a notebook's JSON and keeps only the one cell
// tagged "answer" (at most MaxAnswerBytes), skipping outputs without
// holding them, so a Run-All notebook with megabytes of charts is read
// up to MaxNotebookBytes; ParseAnswer
// reads its `var answer = LITERAL` with go/parser and builds the value by
// reflection on the exercise's answer type, accepting only literals:
// numbers, strings (a kernel is a raw string), booleans, composite
// literals of the answer's types, maps, slices and the labs' named
// constants (atomics.Tree). An import, a call, a closure or any other
// declaration is refused with its line. Student Go is never compiled or
// run; student CUDA runs only on the simulator, under the key's budgets.
//
// # Collection
//
// FindSubmission names a submission from the platform's metadata
// (Gradescope's submission_metadata.json, PrairieLearn's data.json) or
// its file or folder. A notebook is opened without blocking and without
// following a symbolic link out of its folder, and must be a regular
// file: a FIFO, /dev/zero or another student's notebook is refused, and
// the batch goes on. Kernels compile under cudac's default include
// policy: no file is read. Write names each output uniquely and stably
// (OutputNames), escapes gradebook cells a spreadsheet would run, writes
// every student's result even when one fails, and writes instructor.csv,
// every test's full message, hidden checks' included.
//
// # Grading
//
// Grade grades one submission and never fails: a submission that cannot
// be graded (malformed, binary or huge file, no answer cell or two, code
// instead of a literal) is a Result with Gradable false and the reason; a
// kernel that does not compile, faults, races or runs past its budget
// scores what its parts earn. A panic is recovered at the submission and
// reported. Batch grades with N workers; the results do not depend on N
// or on the order, because every check runs on a fresh simulator with
// the key's seeds.
//
// # Variants
//
// An exercise with variants (labs.Exercise.Variant) gives each student
// other parameters: sizes and seeds of a kernel's checks, a budget and
// rung (counters), item costs (queue), the sweep's largest size (Day
// 26). The variant is labs.VariantFor(lab, course, student): Grade
// derives it from Submission.Student, the identity the platform gives,
// and the key's course, never from the notebook, so a notebook copied
// from another student is checked against the submitter's variant. Each
// check's settings are the exercise's defaults, then the variant's, then
// the key's and the check's: a hidden check varies sizes and seeds on top
// of the variant. A shared re-run (Day 26) runs once per check and
// variant in a batch.
//
// # Scoring
//
// The kernel checks (labs/kernelcheck) give the parts after correct (no
// race, contention, speed, reproducible) only to a correct kernel, and
// contention and speed only to a race-free one; "faster than the
// baseline" wants the lesson's margin over the lab's baseline kernel in
// modelled time, so a serial kernel fails it. A kernel close to the lab's
// own kernels (normalised tokens, kernelcheck.Similarity) earns what a
// right kernel earns and is flagged for the instructor (Result.Flags, the
// gradebook's flags column), never penalised automatically: the checker
// judges what a kernel does, and a copy of a kernel the lab shows is a
// question for the instructor, not for a threshold. Feedback says right
// or wrong and which hint to read, never the expected number.
//
// Prose (Why, justified, the Day 26 sentence: the exercise's Prose) is
// never scored automatically: a key gives it manual points, which show as
// pending ("N pending manual grading") with the student's text.
// WriteManual writes every student's prose in a CSV sheet (`warplab grade`
// writes it as manual.csv); ReadMarks and ApplyMarks import the
// instructor's filled-in points (`warplab grade --manual marks.csv`).
//
// # Speed
//
// BenchmarkClass grades a generated class of 200 histogram submissions
// (92 with a kernel to run, 108 refused) with 2 workers; docs/speed.md
// records its times and memory. Day 26 re-runs the block-size sweep once per check and batch,
// not per student (about 40 s at the default sizes), then judges each
// answer against it.
package grade
