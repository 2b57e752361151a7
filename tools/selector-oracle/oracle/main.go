// Command oracle parses label and field selectors with k8s.io/apimachinery's labels.Parse and
// fields.ParseSelector (tools/selector-oracle/README.md): one JSON line per case on stdin
// ({"kind":"label"|"field","selector":"<text>","labels":{...}}), one JSON line on stdout: the
// requirements ({"key","op","values"}, in the order the selector keeps them) or the error, and
// for a label selector given labels whether it matches them.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/validation"
)

type testCase struct {
	Kind     string            `json:"kind"`
	Selector string            `json:"selector"`
	Labels   map[string]string `json:"labels"`
}

type requirement struct {
	Key    string   `json:"key"`
	Op     string   `json:"op"`
	Values []string `json:"values"`
}

type result struct {
	Requirements []requirement `json:"requirements,omitempty"`
	Error        *string       `json:"error,omitempty"`
	String       string        `json:"string"`
	Matches      *bool         `json:"matches,omitempty"`
	// For kind "names": each check's messages for the selector text taken as a name.
	Names map[string][]string `json:"names,omitempty"`
}

func run(tc testCase) (res result) {
	defer func() {
		if p := recover(); p != nil {
			s := fmt.Sprintf("panic: %v", p)
			res = result{Error: &s}
		}
	}()
	switch tc.Kind {
	case "names":
		return result{Names: map[string][]string{
			"dns1123Label":     validation.IsDNS1123Label(tc.Selector),
			"dns1123Subdomain": validation.IsDNS1123Subdomain(tc.Selector),
			"qualifiedName":    validation.IsQualifiedName(tc.Selector),
			"labelValue":       validation.IsValidLabelValue(tc.Selector),
		}}
	case "label":
		sel, err := labels.Parse(tc.Selector)
		if err != nil {
			s := err.Error()
			return result{Error: &s}
		}
		reqs, _ := sel.Requirements()
		out := result{Requirements: []requirement{}, String: sel.String()}
		for _, r := range reqs {
			vals := r.Values().List()
			out.Requirements = append(out.Requirements, requirement{Key: r.Key(), Op: string(r.Operator()), Values: vals})
		}
		if tc.Labels != nil {
			m := sel.Matches(labels.Set(tc.Labels))
			out.Matches = &m
		}
		return out
	default:
		sel, err := fields.ParseSelector(tc.Selector)
		if err != nil {
			s := err.Error()
			return result{Error: &s}
		}
		out := result{Requirements: []requirement{}, String: sel.String()}
		for _, r := range sel.Requirements() {
			out.Requirements = append(out.Requirements, requirement{Key: r.Field, Op: string(r.Operator), Values: []string{r.Value}})
		}
		return out
	}
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for in.Scan() {
		var tc testCase
		var res interface{}
		if err := json.Unmarshal(in.Bytes(), &tc); err != nil {
			res = map[string]string{"fatal": err.Error()}
		} else {
			res = run(tc)
		}
		b, _ := json.Marshal(res)
		w.Write(b)
		w.WriteByte('\n')
		w.Flush()
	}
}
