package grade

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/warplab/warplab/labs"
)

// The platforms' results.json formats, written from their documentation:
// Gradescope's autograder specification (gradescope-autograders docs,
// "Autograder Specifications", Output format) and PrairieLearn's external
// grading documentation (grading results). A field is a name, a JSON type
// and, for enumerations, the values allowed.

type field struct {
	typ    string // "number", "string", "boolean", "object", "array"
	values []string
	item   map[string]field // an array's objects' fields
	// required: a results.json without it is wrong.
	required bool
}

var visibilities = []string{"hidden", "after_due_date", "after_published", "visible"}

// gradescopeSchema: score is optional when every test has one; tests are
// objects with score, max_score, status (passed or failed), name, output,
// visibility and the formatting and tag fields.
var gradescopeSchema = map[string]field{
	"score":              {typ: "number"},
	"execution_time":     {typ: "number"},
	"output":             {typ: "string"},
	"output_format":      {typ: "string", values: []string{"text", "html", "simple_format", "md", "ansi"}},
	"test_output_format": {typ: "string", values: []string{"text", "html", "simple_format", "md", "ansi"}},
	"test_name_format":   {typ: "string", values: []string{"text", "html", "simple_format", "md", "ansi"}},
	"visibility":         {typ: "string", values: visibilities},
	"stdout_visibility":  {typ: "string", values: visibilities},
	"extra_data":         {typ: "object"},
	"leaderboard":        {typ: "array"},
	"tests": {typ: "array", item: map[string]field{
		"score":         {typ: "number"},
		"max_score":     {typ: "number"},
		"status":        {typ: "string", values: []string{"passed", "failed"}},
		"name":          {typ: "string"},
		"name_format":   {typ: "string", values: []string{"text", "html", "simple_format", "md", "ansi"}},
		"number":        {typ: "string"},
		"output":        {typ: "string"},
		"output_format": {typ: "string", values: []string{"text", "html", "simple_format", "md", "ansi"}},
		"tags":          {typ: "array"},
		"visibility":    {typ: "string", values: visibilities},
		"extra_data":    {typ: "object"},
	}},
}

// prairieLearnSchema: gradable (false: not counted as an attempt, with
// format_errors, a list of messages), score a fraction in 0..1, message
// and output, images, and tests with a name and points of max_points.
var prairieLearnSchema = map[string]field{
	"gradable":      {typ: "boolean"},
	"score":         {typ: "number"},
	"message":       {typ: "string"},
	"output":        {typ: "string"},
	"format_errors": {typ: "array"},
	"images":        {typ: "array"},
	"tests": {typ: "array", item: map[string]field{
		"name":        {typ: "string", required: true},
		"description": {typ: "string"},
		"points":      {typ: "number"},
		"max_points":  {typ: "number"},
		"message":     {typ: "string"},
		"output":      {typ: "string"},
		"images":      {typ: "array"},
	}},
}

func jsonType(v any) string {
	switch v.(type) {
	case float64:
		return "number"
	case string:
		return "string"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// validate checks obj against schema: no unknown field, each of its
// type and values, required fields present.
func validate(where string, obj map[string]any, schema map[string]field) []string {
	var errs []string
	var keys []string
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		f, ok := schema[k]
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: unknown field %q", where, k))
			continue
		}
		v := obj[k]
		if got := jsonType(v); got != f.typ {
			errs = append(errs, fmt.Sprintf("%s.%s: a %s, want a %s", where, k, got, f.typ))
			continue
		}
		if f.values != nil {
			ok := false
			for _, x := range f.values {
				ok = ok || v == x
			}
			if !ok {
				errs = append(errs, fmt.Sprintf("%s.%s: %q, want one of %s", where, k, v, strings.Join(f.values, ", ")))
			}
		}
		if f.item != nil {
			for i, it := range v.([]any) {
				m, ok := it.(map[string]any)
				if !ok {
					errs = append(errs, fmt.Sprintf("%s.%s[%d]: not an object", where, k, i))
					continue
				}
				errs = append(errs, validate(fmt.Sprintf("%s.%s[%d]", where, k, i), m, f.item)...)
			}
		}
	}
	for k, f := range schema {
		if _, ok := obj[k]; f.required && !ok {
			errs = append(errs, fmt.Sprintf("%s: no field %q", where, k))
		}
	}
	return errs
}

// validateGradescope adds the rules beside the types: a score at the top
// or on every test, and a test's score within 0..max_score.
func validateGradescope(v map[string]any) []string {
	errs := validate("results", v, gradescopeSchema)
	tests, _ := v["tests"].([]any)
	if _, ok := v["score"]; !ok {
		for i, t := range tests {
			if _, ok := t.(map[string]any)["score"]; !ok {
				errs = append(errs, fmt.Sprintf("results: no score, and test %d has none", i))
			}
		}
	}
	return errs
}

// validatePrairieLearn adds: a gradable result's score in 0..1; an
// ungradable one says why in format_errors, a list of strings.
func validatePrairieLearn(v map[string]any) []string {
	errs := validate("results", v, prairieLearnSchema)
	gradable, ok := v["gradable"].(bool)
	if !ok || gradable {
		s, ok := v["score"].(float64)
		if !ok || s < 0 || s > 1 {
			errs = append(errs, fmt.Sprintf("results: a gradable result's score %v is not in 0..1", v["score"]))
		}
		return errs
	}
	fe, _ := v["format_errors"].([]any)
	if len(fe) == 0 {
		errs = append(errs, "results: an ungradable result without format_errors")
	}
	for i, e := range fe {
		if _, ok := e.(string); !ok {
			errs = append(errs, fmt.Sprintf("results.format_errors[%d]: not a string", i))
		}
	}
	return errs
}

// schemaResults are results of every kind: graded with every
// visibility, refused, and empty.
func schemaResults() []Result {
	rs := sampleResults()
	rs = append(rs,
		Result{Student: "empty", Gradable: true, MaxScore: 0, Message: "0 of 0 points"},
		Result{Student: "slow", Gradable: true, Score: 1, MaxScore: 2, Elapsed: 2 * time.Second, Message: "1 of 2 points", Tests: []Test{
			{Name: "v: a", Check: "v", Part: "a", Verdict: labs.Unanswered, MaxPoints: 1, Visibility: labs.Visible, Message: "not answered", Detail: "not answered"},
			{Name: "v: b", Check: "v", Part: "b", Verdict: labs.Pass, Points: 1, MaxPoints: 1, Visibility: labs.AfterPublished, Message: "ok", Detail: "ok"},
		}},
	)
	return rs
}

func TestPlatformSchemas(t *testing.T) {
	for _, r := range schemaResults() {
		for name, out := range map[string]struct {
			v        any
			validate func(map[string]any) []string
		}{
			"gradescope":   {Gradescope(r), validateGradescope},
			"prairielearn": {PrairieLearn(r), validatePrairieLearn},
		} {
			data, err := json.Marshal(out.v)
			if err != nil {
				t.Fatal(err)
			}
			var v map[string]any
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			if errs := out.validate(v); len(errs) > 0 {
				t.Errorf("%s, %s: %s\n%s", name, r.Student, strings.Join(errs, "; "), data)
			}
		}
	}
	data, _ := json.Marshal(GradescopeFallback())
	var v map[string]any
	json.Unmarshal(data, &v)
	if errs := validateGradescope(v); len(errs) > 0 || v["score"] != 0.0 {
		t.Errorf("the fallback: %v %s", errs, data)
	}
	// The checker finds what it is for.
	bad := map[string]any{"score": "3", "tests": []any{map[string]any{"status": "ok", "visibility": "later", "nme": "x"}}}
	if errs := validateGradescope(bad); len(errs) != 4 {
		t.Errorf("a wrong Gradescope result: %d errors %q, want 4", len(errs), errs)
	}
	badPL := map[string]any{"gradable": false, "score": 2.0, "tests": []any{map[string]any{"points": 1.0}}}
	if errs := validatePrairieLearn(badPL); len(errs) != 2 {
		t.Errorf("a wrong PrairieLearn result: %d errors %q, want 2", len(errs), errs)
	}
}
