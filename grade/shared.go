package grade

import (
	"fmt"
	"sync"

	"github.com/warplab/warplab/gpu"
	"github.com/warplab/warplab/labs"
)

// A shared check splits an exercise's check into the part that does not
// depend on the answer (a re-run of the lab's experiment, the same for
// every student on the simulator) and the judging of one answer against
// it, so a batch re-runs the experiment once per check instead of once
// per student: an exercise that sets labs.Exercise's Prepare and Judge.
// The judged feedback is the exercise's Check's.

// reference is the memoised answer-independent part of one check under
// one variant's settings.
type reference struct {
	once sync.Once
	ref  any
	err  error
}

// sharedFeedback judges answer against check i's shared re-run under
// settings s (named by variant, "" for the key's own): the re-run happens
// once per check and variant in a batch.
func (k *Key) sharedFeedback(i int, variant string, s labs.Settings, answer any) (labs.Feedback, bool) {
	if k.ex.Prepare == nil || k.ex.Judge == nil {
		return labs.Feedback{}, false
	}
	v, _ := k.refs.LoadOrStore(fmt.Sprintf("%d\x00%s", i, variant), &reference{})
	r := v.(*reference)
	r.once.Do(func() {
		dev, err := gpu.Open(k.Device)
		if err != nil {
			r.err = err
			return
		}
		defer dev.Close()
		r.ref, r.err = k.ex.Prepare(dev, s)
	})
	if r.err != nil {
		f := labs.Feedback{Exercise: k.ex.Title}
		f.Failf("re-run", "the experiment could not run again, so nothing was checked: %v", r.err)
		return f, true
	}
	return k.ex.Judge(r.ref, answer), true
}
