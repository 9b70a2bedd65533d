package nbtest

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A failing cell is reported with its source and its error output.
func TestExecuteReportsFailedCell(t *testing.T) {
	env := Setup(t)
	nb, err := env.execute(t, "testdata/fail.ipynb")
	var cellErr CellError
	if !errors.As(err, &cellErr) {
		t.Fatalf("executing testdata/fail.ipynb: error %v, want a CellError", err)
	}
	if cellErr.Index != 2 {
		t.Errorf("failed cell index = %d, want 2", cellErr.Index)
	}
	msg := err.Error()
	for _, want := range []string{
		"1 cell(s) failed",
		`var unused int = "not an int"`, // the cell's source
		"cannot use",                    // the compiler's error, in plain text (-raw_error)
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("error report lacks %q:\n%s", want, msg)
		}
	}
	if got := nb.Cells[3].Outputs; len(got) != 1 || got[0].Text != "later cells run too\n" {
		t.Errorf("the cell after the failed one has outputs %+v, want its line", got)
	}
}

func TestParseNotebook(t *testing.T) {
	nb, err := ParseNotebook([]byte(`{
 "nbformat": 4, "nbformat_minor": 5, "metadata": {},
 "cells": [
  {"cell_type": "markdown", "id": "m", "metadata": {}, "source": "# Title"},
  {"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": 1, "source": ["%%\n", "fmt.Println(1)"],
   "outputs": [
    {"output_type": "stream", "name": "stdout", "text": ["1\n", "2\n"]},
    {"output_type": "display_data", "metadata": {}, "data": {"text/html": ["<b>", "x</b>"], "text/plain": "x", "image/png": "iVBORw0KGgo=\n"}}
   ]},
  {"cell_type": "code", "id": "c2", "metadata": {}, "execution_count": 2, "source": "bad",
   "outputs": [
    {"output_type": "stream", "name": "stderr", "text": "./main.go:1: oops\n"},
    {"output_type": "error", "ename": "ERROR", "evalue": "exit status 1", "traceback": ["exit status 1"]}
   ]}
 ]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 3 || nb.Cells[1].Source != "%%\nfmt.Println(1)" {
		t.Fatalf("cells = %+v", nb.Cells)
	}
	if got := nb.Cells[1].Outputs[0].Text; got != "1\n2\n" {
		t.Errorf("stream text = %q", got)
	}
	if got := nb.Find("text/html", "<b>x</b>"); len(got) != 1 {
		t.Errorf("Find(text/html, <b>x</b>) = %d outputs, want 1", len(got))
	}
	if pngs, err := nb.PNGs(); err != nil || len(pngs) != 1 || string(pngs[0][1:4]) != "PNG" {
		t.Errorf("PNGs() = %q, %v", pngs, err)
	}
	errs := nb.Errors()
	if len(errs) != 1 || errs[0].Index != 2 {
		t.Fatalf("Errors() = %+v, want cell 2", errs)
	}
	want := "cell 2 (id c2) failed.\n--- source:\nbad\n--- output:\n./main.go:1: oops\nERROR: exit status 1\n"
	if got := errs[0].Error(); got != want {
		t.Errorf("CellError:\n got %q\nwant %q", got, want)
	}
	if _, err := ParseNotebook([]byte(`{"nbformat": 3, "cells": []}`)); err == nil {
		t.Error("nbformat 3: no error")
	}
}

// A notebook over its limit fails with a message that names it, its time
// and the limit; one within it, or with no limit, passes.
func TestCheckDuration(t *testing.T) {
	for _, c := range []struct {
		took, limit time.Duration
		want        string
	}{
		{89 * time.Second, 0, ""},
		{90 * time.Second, 0, ""},
		{91 * time.Second, 0, "nbtest: slow.ipynb took 1m31s to run, over the 1m30s a whole notebook may take"},
		{11 * time.Second, 10 * time.Second, "took 11s to run, over the 10s"},
		{time.Hour, -1, ""},
	} {
		err := checkDuration("slow.ipynb", c.took, c.limit)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("took %v, limit %v: %v, want no error", c.took, c.limit, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("took %v, limit %v: error %v, want one containing %q", c.took, c.limit, err, c.want)
		}
	}
}
