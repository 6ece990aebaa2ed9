package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Exit codes.
const (
	exitOK     = 0
	exitIssues = 1
	exitUsage  = 2
)

// defaultMaxBytes is the servers' request body limit, which is also
// dmn/validate.MaxDocumentBytes: a file the explorer would refuse is
// refused here too.
const defaultMaxBytes = 10 << 20

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usageText = `usage: regelkit-validate dmn|shacl [flags] FILE... (flags may also follow the files; -- ends them)

  dmn    validate DMN XML models (structure, decision tables, CPRMV
         attributes, decision requirements, metadata)
  shacl  validate RDF files (Turtle, TriG, N-Triples, RDF/XML, JSON-LD by
         extension; anything else is read as Turtle) against the CPSV-AP
         3.2.0, CPRMV 0.4.1 and custom publishing SHACL layers

exit status: 0 no issue at or above -fail-on, 1 such issues, 2 usage or I/O error

flags:
`

// options are the parsed flags of one run.
type options struct {
	format   string
	failOn   string
	maxBytes int64
	timeout  time.Duration
}

// run is the whole command with its streams made explicit, so tests call
// it directly; it returns the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usageText)
		newFlagSet(stderr, &options{}).PrintDefaults()
		return exitUsage
	}
	kind := args[0]
	var opt options
	fs := newFlagSet(stderr, &opt)
	if kind == "-h" || kind == "-help" || kind == "--help" {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
		return exitUsage
	}
	if kind != kindDMN && kind != kindSHACL {
		fmt.Fprintf(stderr, "regelkit-validate: unknown command %q: want dmn or shacl\n", kind)
		return exitUsage
	}
	files, err := parseInterspersed(fs, args[1:])
	if err != nil {
		return exitUsage // flag has printed the error and the defaults
	}
	if err := opt.check(); err != nil {
		fmt.Fprintf(stderr, "regelkit-validate: %v\n", err)
		return exitUsage
	}
	if len(files) == 0 {
		fmt.Fprintf(stderr, "regelkit-validate: %s: no files given\n", kind)
		return exitUsage
	}

	var v validator
	switch kind {
	case kindDMN:
		v = dmnValidator{}
	default:
		sv, err := newSHACLValidator(opt.timeout)
		if err != nil {
			fmt.Fprintf(stderr, "regelkit-validate: loading the SHACL shapes: %v\n", err)
			return exitUsage
		}
		v = sv
	}

	ioFailed := false
	var results []fileResult
	for _, name := range files {
		data, err := readBounded(name, opt.maxBytes)
		if err != nil {
			fmt.Fprintf(stderr, "regelkit-validate: %v\n", err)
			ioFailed = true
			continue
		}
		results = append(results, v.validate(context.Background(), name, data))
	}

	if err := write(stdout, opt.format, kind, results); err != nil {
		fmt.Fprintf(stderr, "regelkit-validate: writing the report: %v\n", err)
		return exitUsage
	}
	switch {
	case ioFailed:
		return exitUsage
	case failing(results, opt.failOn):
		return exitIssues
	}
	return exitOK
}

func newFlagSet(stderr io.Writer, opt *options) *flag.FlagSet {
	fs := flag.NewFlagSet("regelkit-validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, usageText)
		fs.PrintDefaults()
	}
	fs.StringVar(&opt.format, "format", "human", "output format: human, json or sarif (SARIF 2.1.0)")
	fs.StringVar(&opt.failOn, "fail-on", "error", "lowest severity that makes the exit status 1: error, warning, info or none")
	fs.Int64Var(&opt.maxBytes, "max-bytes", defaultMaxBytes, "largest file read, in bytes; a larger file is an I/O error (exit 2)")
	fs.DurationVar(&opt.timeout, "timeout", 60*time.Second, "wall time of the SHACL validation of one file")
	return fs
}

// parseInterspersed parses flags wherever they stand among the files, as
// CI scripts append flags after a glob; "--" ends the flags, so a file
// named "-x" can still be given.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var files []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		consumed := len(args) - fs.NArg()
		if consumed > 0 && args[consumed-1] == "--" {
			return append(files, fs.Args()...), nil
		}
		if fs.NArg() == 0 {
			return files, nil
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func (o *options) check() error {
	switch o.format {
	case "human", "json", "sarif":
	default:
		return fmt.Errorf("-format %q: want human, json or sarif", o.format)
	}
	if _, ok := severityRank[o.failOn]; !ok && o.failOn != "none" {
		return fmt.Errorf("-fail-on %q: want error, warning, info or none", o.failOn)
	}
	if o.maxBytes <= 0 {
		return fmt.Errorf("-max-bytes %d: want a positive number of bytes", o.maxBytes)
	}
	if o.maxBytes > defaultMaxBytes*10 {
		return fmt.Errorf("-max-bytes %d: at most %d", o.maxBytes, defaultMaxBytes*10)
	}
	if o.timeout <= 0 {
		return fmt.Errorf("-timeout %v: want a positive duration", o.timeout)
	}
	return nil
}

// errTooLarge marks a file over -max-bytes.
var errTooLarge = errors.New("file too large")

// readBounded reads at most max bytes of a file; a longer file is refused
// without reading the rest, so a huge or endless input (a FIFO, /dev/zero)
// costs no more than max bytes of memory.
func readBounded(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: %w: more than %d bytes (-max-bytes)", name, errTooLarge, limit)
	}
	return data, nil
}

// failing reports whether an issue reaches the fail-on severity.
func failing(results []fileResult, failOn string) bool {
	threshold, ok := severityRank[failOn]
	if !ok { // "none"
		return false
	}
	for _, r := range results {
		for _, f := range r.Findings {
			if severityRank[f.Severity] >= threshold {
				return true
			}
		}
	}
	return false
}
