package labs

import (
	"fmt"
	"hash/fnv"
	"os"
	"sort"
	"strings"

	"github.com/warplab/warplab/gpu"
)

// Variant is one student's version of an exercise: the settings that
// differ from the notebook's defaults and what they mean in words.
type Variant struct {
	// Seed is the variant seed the settings were drawn from.
	Seed uint64
	// Settings are option values by option name, as text ("sizes":
	// "1000,40961").
	Settings map[string]string
	// About describes the parameters for the notebook: "a budget of 512
	// bytes, slices picked by lane".
	About string
}

// CourseEnv is the environment variable that names the course in a
// notebook (its term, say), so that a course can change every student's
// variant from one term to the next; the instructor's key names the same
// course.
const CourseEnv = "WARPLAB_COURSE"

// VariantFor returns the variant seed of a student's exercise in lab,
// for a course (empty for none): a hash of the three, so the notebook and
// the grader derive the same seed from the same identity, and another
// student's identity gives another seed. Identities are compared without
// surrounding space and case.
func VariantFor(lab, course, student string) uint64 {
	h := fnv.New64a()
	for _, s := range []string{lab, course, strings.ToLower(strings.TrimSpace(student))} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	// Mix the bits: FNV's low bits vary little between close names.
	x := h.Sum64()
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return x
}

// Pick returns one of choices for a variant seed, taking the seed's bits
// from position shift: Pick(seed, 0, a) and Pick(seed, 8, b) choose
// independently for up to 256 choices each.
func Pick[T any](seed uint64, shift uint, choices ...T) T {
	return choices[(seed>>shift)%uint64(len(choices))]
}

// Identity returns a student's identity in a notebook: name, the
// notebook's student cell, when it is set, else JUPYTERHUB_USER. The
// grader does not use it: it takes the identity the course platform
// gives.
func Identity(name string) string {
	if n := strings.TrimSpace(name); n != "" {
		return n
	}
	return os.Getenv("JUPYTERHUB_USER")
}

// StudentVariant returns a student's variant of exercise e in lab, for the
// course named by WARPLAB_COURSE in the environment: what a notebook
// shows and checks with. An exercise without variants gives a variant
// with no settings.
func StudentVariant(lab string, e *Exercise, student string) Variant {
	return e.VariantOf(lab, os.Getenv(CourseEnv), Identity(student))
}

// StudentConfig resolves a student's variant of e (StudentVariant) into
// the exercise's own configuration with from, the function the check
// uses on its settings: what a notebook shows and checks. It returns
// fallback, the exercise's defaults, when the variant's settings do not
// resolve.
func StudentConfig[C any](lab string, e *Exercise, student string, from func(Settings) (C, error), fallback C) C {
	s, err := Resolve(lab+" exercise", e.Options, StudentVariant(lab, e, student).Settings)
	if err != nil {
		return fallback
	}
	c, err := from(s)
	if err != nil {
		return fallback
	}
	return c
}

// VariantOf returns a student's variant of e in lab for course.
func (e *Exercise) VariantOf(lab, course, student string) Variant {
	seed := VariantFor(lab, course, student)
	if e == nil || e.Variant == nil {
		return Variant{Seed: seed}
	}
	v := e.Variant(seed)
	v.Seed = seed
	return v
}

// String returns the variant's settings in a stable order, "name=value"
// separated by spaces.
func (v Variant) String() string {
	names := make([]string, 0, len(v.Settings))
	for n := range v.Settings {
		names = append(names, n)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s=%s", n, v.Settings[n])
	}
	return strings.Join(parts, " ")
}

// CheckVariant checks an answer the way the notebook's check cell does
// for a student: under the student's variant of the exercise in lab (see
// StudentVariant), with every other setting at its default.
func (e *Exercise) CheckVariant(dev *gpu.Device, lab, student string, answer any) Feedback {
	v := StudentVariant(lab, e, student)
	s, err := Resolve(lab+" exercise", e.Options, v.Settings)
	if err != nil {
		f := Feedback{Exercise: e.Title}
		f.Failf("settings", "the variant's settings are wrong (not your answer): %v", err)
		return f
	}
	return e.Check(dev, answer, s)
}
