package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	_ "github.com/warplab/warplab/cudarun"
	_ "github.com/warplab/warplab/gpusim"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

func register(c *command) { commands[c.name] = c }

// errUsage marks an error whose message already says how to use the command.
var errUsage = errors.New("usage")

// usageError is an error in a command's arguments: Main prints it and
// exits with status 2, as for a bad flag.
type usageError struct{ msg string }

func (e usageError) Error() string        { return e.msg }
func (e usageError) Is(target error) bool { return target == errUsage }

// usagef returns a usageError.
func usagef(format string, args ...any) error {
	return usageError{fmt.Sprintf(format, args...)}
}

func main() {
	os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr))
}

// Main runs warplab with args and returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, ok := commands[args[1]]; ok {
				// "help lab day26" is "lab day26 -h". A bare errUsage
				// is the flag package's answer to -h: usage printed.
				err := c.run(append(args[2:], "-h"), stdout, stderr)
				if err == errUsage {
					return 0
				}
				return exitStatus(c, err, stderr)
			}
			fmt.Fprintf(stderr, "warplab help: unknown command %q\n", args[1])
			usage(stderr)
			return 2
		}
		usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "warplab: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	return exitStatus(c, c.run(args[1:], stdout, stderr), stderr)
}

// exitStatus prints the error of command c, if any, and returns the exit
// status: 0, 2 for an error in the arguments, 1 for any other.
func exitStatus(c *command, err error, stderr io.Writer) int {
	var ue usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "warplab %s: %s\n", c.name, ue.msg)
		return 2
	case errors.Is(err, errUsage):
		// The flag package has printed the error and the usage.
		return 2
	}
	fmt.Fprintf(stderr, "warplab %s: %v\n", c.name, err)
	return 1
}

// newFlags returns the flag set of command name: errors go to stderr, and
// -h prints usage followed by the flags.
func newFlags(name, usage string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseInterleaved parses args into fs, accepting positional arguments
// before, between or after the flags, and returns the positional ones.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, errUsage
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "warplab: GPU contention labs on a simulator or a real GPU")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	var names []string
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "warplab help COMMAND" for a command's flags, "warplab help lab NAME" for a lab's options.`)
}
