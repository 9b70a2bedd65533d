package grade

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// MaxNotebookBytes is the largest notebook file the grader reads, 64 MiB.
// The reader streams it and keeps no output (a Run-All notebook carries
// about 1 MB of chart library per chart), so only this bound and
// MaxAnswerBytes limit what a submission costs.
const MaxNotebookBytes = 64 << 20

// MaxAnswerBytes is the largest answer cell the grader reads, 1 MiB: some
// hundred times a lab's answer with its kernel.
const MaxAnswerBytes = 1 << 20

// AnswerTag is the cell tag that marks a notebook's answer cell.
const AnswerTag = "answer"

// AnswerCell returns the source of the one cell of the notebook data
// tagged "answer". Data that is not a notebook, is too large or binary,
// or has no answer cell or more than one is a Refusal.
func AnswerCell(data []byte) (string, error) {
	return ReadAnswerCell(strings.NewReader(string(data)))
}

// ReadAnswerCell is AnswerCell on a stream: it reads the notebook's JSON
// token by token, keeps each cell's tags, type and source (up to
// MaxAnswerBytes) and skips everything else, outputs included, without
// holding it. A stream of more than MaxNotebookBytes is refused.
func ReadAnswerCell(r io.Reader) (string, error) {
	return readAnswerCell(r, MaxNotebookBytes)
}

// readAnswerCell is ReadAnswerCell with the file's bound as a parameter,
// so tests need not write 64 MiB.
func readAnswerCell(r io.Reader, limit int64) (string, error) {
	cr := &checkedReader{r: r, left: limit}
	dec := json.NewDecoder(cr)
	nb := nbReader{dec: dec}
	src, err := nb.read()
	switch {
	case cr.binary:
		return "", refusef("the file is binary, not a notebook (not UTF-8 JSON)")
	case cr.over:
		return "", refusef("the notebook is more than %d bytes (%d MiB), the most the grader reads", limit, limit>>20)
	case cr.err != nil:
		return "", refusef("cannot read the submission: %v", cr.err)
	}
	return src, err
}

// checkedReader counts bytes against a bound and checks that they are
// UTF-8 without NUL, as it passes them on.
type checkedReader struct {
	r    io.Reader
	left int64
	// tail holds the last bytes of a rune cut by a read.
	tail         []byte
	over, binary bool
	err          error
}

func (c *checkedReader) Read(p []byte) (int, error) {
	if c.over || c.binary || c.err != nil {
		return 0, errStop
	}
	if int64(len(p)) > c.left+1 {
		p = p[:c.left+1]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if c.left < 0 {
		c.over = true
		return 0, errStop
	}
	if !c.valid(p[:n], err == io.EOF) {
		c.binary = true
		return 0, errStop
	}
	if err != nil && err != io.EOF {
		c.err = err
		return 0, errStop
	}
	return n, err
}

// valid checks a chunk, carrying a rune cut at its end to the next.
func (c *checkedReader) valid(b []byte, last bool) bool {
	buf := append(c.tail, b...)
	c.tail = nil
	end := len(buf)
	if !last {
		// Keep up to 3 bytes of an incomplete rune for the next chunk.
		for i := len(buf) - 1; i >= 0 && i >= len(buf)-3; i-- {
			if utf8.RuneStart(buf[i]) {
				if !utf8.FullRune(buf[i:]) {
					end = i
				}
				break
			}
		}
	}
	for _, x := range buf[:end] {
		if x == 0 {
			return false
		}
	}
	if !utf8.Valid(buf[:end]) {
		return false
	}
	c.tail = append([]byte(nil), buf[end:]...)
	return true
}

var errStop = errors.New("grade: reading stopped")

// nbReader walks a notebook's JSON.
type nbReader struct {
	dec *json.Decoder
}

// badJSON is the refusal for JSON the reader cannot follow.
func badJSON(err error) error {
	return refusef("the notebook is not valid JSON: %v", err)
}

func (n *nbReader) read() (string, error) {
	if err := n.expect(json.Delim('{'), "a JSON object"); err != nil {
		return "", err
	}
	var found []string
	sawCells := false
	for n.dec.More() {
		key, err := n.key()
		if err != nil {
			return "", err
		}
		if key != "cells" || sawCells {
			if err := n.skip(); err != nil {
				return "", err
			}
			continue
		}
		sawCells = true
		if err := n.expect(json.Delim('['), "a list of cells"); err != nil {
			return "", err
		}
		for i := 1; n.dec.More(); i++ {
			c, err := n.cell()
			if err != nil {
				return "", err
			}
			if !c.tagged {
				continue
			}
			switch {
			case c.cellType != "code":
				return "", refusef("cell %d is tagged %q but is a %s cell, not code", i, AnswerTag, c.cellType)
			case c.badSource:
				return "", refusef("cell %d: its source is neither text nor a list of lines", i)
			case c.tooLarge:
				return "", refusef("cell %d, the answer cell, is more than %d bytes (%d KiB), the most the grader reads", i, MaxAnswerBytes, MaxAnswerBytes>>10)
			}
			found = append(found, c.source.String())
		}
		if _, err := n.dec.Token(); err != nil { // ]
			return "", badJSON(err)
		}
	}
	if _, err := n.dec.Token(); err != nil { // }
		return "", badJSON(err)
	}
	if _, err := n.dec.Token(); err != io.EOF {
		return "", refusef("the notebook is not valid JSON: text after the notebook's object")
	}
	switch len(found) {
	case 0:
		return "", refusef("no cell is tagged %q: keep the notebook's answer cell and its tag", AnswerTag)
	case 1:
		return found[0], nil
	}
	return "", refusef("%d cells are tagged %q, want exactly one", len(found), AnswerTag)
}

// nbCell is what the grader keeps of a cell.
type nbCell struct {
	cellType            string
	tagged              bool
	source              strings.Builder
	tooLarge, badSource bool
}

func (n *nbReader) cell() (*nbCell, error) {
	c := &nbCell{}
	if err := n.expect(json.Delim('{'), "a cell object"); err != nil {
		return nil, err
	}
	for n.dec.More() {
		key, err := n.key()
		if err != nil {
			return nil, err
		}
		switch key {
		case "cell_type":
			tok, err := n.dec.Token()
			if err != nil {
				return nil, badJSON(err)
			}
			s, _ := tok.(string)
			c.cellType = s
			if len(c.cellType) > 64 {
				c.cellType = c.cellType[:64]
			}
			if d, ok := tok.(json.Delim); ok {
				if err := n.skipRest(d); err != nil {
					return nil, err
				}
			}
		case "metadata":
			if err := n.metadata(c); err != nil {
				return nil, err
			}
		case "source":
			if err := n.source(c); err != nil {
				return nil, err
			}
		default: // outputs, attachments, id, execution_count
			if err := n.skip(); err != nil {
				return nil, err
			}
		}
	}
	if _, err := n.dec.Token(); err != nil { // }
		return nil, badJSON(err)
	}
	return c, nil
}

// metadata reads a cell's metadata for its tags.
func (n *nbReader) metadata(c *nbCell) error {
	tok, err := n.dec.Token()
	if err != nil {
		return badJSON(err)
	}
	if tok != json.Delim('{') {
		if d, ok := tok.(json.Delim); ok {
			return n.skipRest(d)
		}
		return nil
	}
	for n.dec.More() {
		key, err := n.key()
		if err != nil {
			return err
		}
		if key != "tags" {
			if err := n.skip(); err != nil {
				return err
			}
			continue
		}
		tok, err := n.dec.Token()
		if err != nil {
			return badJSON(err)
		}
		d, ok := tok.(json.Delim)
		if !ok {
			continue
		}
		if d != json.Delim('[') {
			if err := n.skipRest(d); err != nil {
				return err
			}
			continue
		}
		for n.dec.More() {
			tok, err := n.dec.Token()
			if err != nil {
				return badJSON(err)
			}
			if tok == AnswerTag {
				c.tagged = true
			}
			if d, ok := tok.(json.Delim); ok {
				if err := n.skipRest(d); err != nil {
					return err
				}
			}
		}
		if _, err := n.dec.Token(); err != nil {
			return badJSON(err)
		}
	}
	if _, err := n.dec.Token(); err != nil {
		return badJSON(err)
	}
	return nil
}

// source reads a cell's source, a string or a list of strings, keeping
// at most MaxAnswerBytes of it.
func (n *nbReader) source(c *nbCell) error {
	add := func(s string) {
		if c.tooLarge {
			return
		}
		if c.source.Len()+len(s) > MaxAnswerBytes {
			c.tooLarge = true
			c.source.Reset()
			return
		}
		c.source.WriteString(s)
	}
	tok, err := n.dec.Token()
	if err != nil {
		return badJSON(err)
	}
	switch t := tok.(type) {
	case string:
		add(t)
		return nil
	case json.Delim:
		if t != json.Delim('[') {
			c.badSource = true
			return n.skipRest(t)
		}
		for n.dec.More() {
			tok, err := n.dec.Token()
			if err != nil {
				return badJSON(err)
			}
			switch t := tok.(type) {
			case string:
				add(t)
			case json.Delim:
				c.badSource = true
				if err := n.skipRest(t); err != nil {
					return err
				}
			default:
				c.badSource = true
			}
		}
		if _, err := n.dec.Token(); err != nil {
			return badJSON(err)
		}
		return nil
	}
	c.badSource = true
	return nil
}

// key reads an object's key.
func (n *nbReader) key() (string, error) {
	tok, err := n.dec.Token()
	if err != nil {
		return "", badJSON(err)
	}
	s, ok := tok.(string)
	if !ok {
		return "", refusef("the notebook is not valid JSON: %v where a key belongs", tok)
	}
	return s, nil
}

// expect reads a delimiter, else refuses the notebook: what says what
// belonged there.
func (n *nbReader) expect(d json.Delim, what string) error {
	tok, err := n.dec.Token()
	if err != nil {
		return badJSON(err)
	}
	if tok != d {
		return refusef("the notebook is not a notebook: %s belongs where the file has %s", what, describe(tok))
	}
	return nil
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return fmt.Sprintf("%q", t.String())
	case string:
		return "a string"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", tok)
}

// skip skips one value, token by token, holding none of it.
func (n *nbReader) skip() error {
	tok, err := n.dec.Token()
	if err != nil {
		return badJSON(err)
	}
	if d, ok := tok.(json.Delim); ok {
		return n.skipRest(d)
	}
	return nil
}

// skipRest skips to the end of the object or array opened by d. A
// closing delimiter where a value belongs cannot happen: Token checks the
// JSON's syntax.
func (n *nbReader) skipRest(d json.Delim) error {
	if d != '{' && d != '[' {
		return refusef("the notebook is not valid JSON: %q where a value belongs", d.String())
	}
	depth := 1
	for depth > 0 {
		tok, err := n.dec.Token()
		if err != nil {
			return badJSON(err)
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}
