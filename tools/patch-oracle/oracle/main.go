// Command oracle applies JSON patches and JSON merge patches as kube-apiserver does, with
// gopkg.in/evanphx/json-patch.v4 (tools/patch-oracle/README.md): one JSON line per case on stdin
// ({"kind":"json"|"merge","doc":"<text>","patch":"<text>"}), one JSON line of result on stdout
// ({"result":"<text>"} or {"error":"<text>"}).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	jsonpatch "gopkg.in/evanphx/json-patch.v4"
)

type testCase struct {
	Kind  string `json:"kind"`
	Doc   string `json:"doc"`
	Patch string `json:"patch"`
}

type result struct {
	Result *string `json:"result,omitempty"`
	Error  *string `json:"error,omitempty"`
}

func run(tc testCase) (res result) {
	defer func() {
		if p := recover(); p != nil {
			s := fmt.Sprintf("panic: %v", p)
			res = result{Error: &s}
		}
	}()
	var out []byte
	var err error
	switch tc.Kind {
	case "json":
		var p jsonpatch.Patch
		p, err = jsonpatch.DecodePatch([]byte(tc.Patch))
		if err == nil {
			out, err = p.Apply([]byte(tc.Doc))
		}
	case "merge":
		out, err = jsonpatch.MergePatch([]byte(tc.Doc), []byte(tc.Patch))
	}
	if err != nil {
		s := err.Error()
		return result{Error: &s}
	}
	s := string(out)
	return result{Result: &s}
}

func main() {
	// kube-apiserver's JSONPatchMaxCopyBytes (genericapiserver's default, 3 MiB).
	jsonpatch.AccumulatedCopySizeLimit = 3 * 1024 * 1024
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
