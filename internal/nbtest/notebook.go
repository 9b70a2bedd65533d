package nbtest

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Notebook is a parsed .ipynb file (nbformat 4).
type Notebook struct {
	// Path is the file the notebook was read from.
	Path  string
	Cells []Cell
}

// Cell is one notebook cell.
type Cell struct {
	ID string
	// Type is "code", "markdown" or "raw".
	Type    string
	Source  string
	Outputs []Output
}

// Output is one output of a code cell.
type Output struct {
	// Type is "stream", "display_data", "execute_result" or "error".
	Type string
	// Name is the stream's name, "stdout" or "stderr", for a stream.
	Name string
	// Text is a stream's text.
	Text string
	// Data maps a MIME type to the content, for display data and
	// execute results: text as is, binary types (image/png) in base64.
	Data map[string]string
	// EName, EValue and Traceback describe an error output.
	EName, EValue string
	Traceback     []string
}

// ReadNotebook reads and parses the notebook file at path.
func ReadNotebook(path string) (*Notebook, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("nbtest: reading notebook: %w", err)
	}
	nb, err := ParseNotebook(b)
	if err != nil {
		return nil, fmt.Errorf("nbtest: %s: %w", path, err)
	}
	nb.Path = path
	return nb, nil
}

// multiline is nbformat's text: a string or a list of strings to join.
type multiline string

func (m *multiline) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*m = multiline(s)
		return nil
	}
	var lines []string
	if err := json.Unmarshal(b, &lines); err != nil {
		return err
	}
	*m = multiline(strings.Join(lines, ""))
	return nil
}

// ParseNotebook parses the JSON of a notebook.
func ParseNotebook(data []byte) (*Notebook, error) {
	var raw struct {
		NBFormat int `json:"nbformat"`
		Cells    []struct {
			ID       string    `json:"id"`
			CellType string    `json:"cell_type"`
			Source   multiline `json:"source"`
			Outputs  []struct {
				OutputType string               `json:"output_type"`
				Name       string               `json:"name"`
				Text       multiline            `json:"text"`
				Data       map[string]multiline `json:"data"`
				EName      string               `json:"ename"`
				EValue     string               `json:"evalue"`
				Traceback  []string             `json:"traceback"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("parsing notebook JSON: %w", err)
	}
	if raw.NBFormat != 4 {
		return nil, fmt.Errorf("nbformat %d, want 4", raw.NBFormat)
	}
	nb := &Notebook{}
	for _, c := range raw.Cells {
		cell := Cell{ID: c.ID, Type: c.CellType, Source: string(c.Source)}
		for _, o := range c.Outputs {
			out := Output{
				Type: o.OutputType, Name: o.Name, Text: string(o.Text),
				EName: o.EName, EValue: o.EValue, Traceback: o.Traceback,
			}
			if len(o.Data) > 0 {
				out.Data = make(map[string]string, len(o.Data))
				for mime, v := range o.Data {
					out.Data[mime] = string(v)
				}
			}
			cell.Outputs = append(cell.Outputs, out)
		}
		nb.Cells = append(nb.Cells, cell)
	}
	return nb, nil
}

// Outputs returns the outputs of all cells, in order.
func (nb *Notebook) Outputs() []Output {
	var outs []Output
	for _, c := range nb.Cells {
		outs = append(outs, c.Outputs...)
	}
	return outs
}

// Find returns the outputs that have content of the given MIME type
// ("text/html", "image/png", ...) containing substr.
func (nb *Notebook) Find(mime, substr string) []Output {
	var found []Output
	for _, o := range nb.Outputs() {
		if s, ok := o.Data[mime]; ok && strings.Contains(s, substr) {
			found = append(found, o)
		}
	}
	return found
}

// PNGs returns the decoded bytes of every image/png output.
func (nb *Notebook) PNGs() ([][]byte, error) {
	var pngs [][]byte
	for _, o := range nb.Outputs() {
		s, ok := o.Data["image/png"]
		if !ok {
			continue
		}
		b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("nbtest: decoding an image/png output: %w", err)
		}
		pngs = append(pngs, b)
	}
	return pngs, nil
}

// CellError is a code cell that failed: it has an error output.
type CellError struct {
	// Index is the cell's position in the notebook, from 0.
	Index int
	Cell  Cell
}

// Errors returns the code cells that have an error output.
func (nb *Notebook) Errors() []CellError {
	var errs []CellError
	for i, c := range nb.Cells {
		for _, o := range c.Outputs {
			if o.Type == "error" {
				errs = append(errs, CellError{Index: i, Cell: c})
				break
			}
		}
	}
	return errs
}

// Error describes the failed cell: its source, then what it wrote to its
// streams and its error.
func (e CellError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "cell %d", e.Index)
	if e.Cell.ID != "" {
		fmt.Fprintf(&b, " (id %s)", e.Cell.ID)
	}
	b.WriteString(" failed.\n--- source:\n" + strings.TrimRight(e.Cell.Source, "\n") + "\n--- output:\n")
	for _, o := range e.Cell.Outputs {
		switch o.Type {
		case "stream":
			b.WriteString(o.Text)
		case "error":
			fmt.Fprintf(&b, "%s: %s\n", o.EName, o.EValue)
			for _, line := range o.Traceback {
				if line != o.EValue {
					b.WriteString(line + "\n")
				}
			}
		default:
			if s, ok := o.Data["text/plain"]; ok {
				b.WriteString(s + "\n")
			}
		}
	}
	return b.String()
}
