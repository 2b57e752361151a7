// Command oracle resolves requests as kube-apiserver's RequestInfoFactory does (its
// NewRequestInfo, with the "api" and "apis" prefixes), after Go's net/http has read the request
// target (url.ParseRequestURI) (tools/request-info-oracle/README.md): one JSON line per case on stdin
// ({"method","target"}), one JSON line on stdout: the RequestInfo, or the refusal.
package main

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"os"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/endpoints/request"
)

type testCase struct {
	Method string `json:"method"`
	Target string `json:"target"`
}

func main() {
	factory := &request.RequestInfoFactory{APIPrefixes: sets.NewString("api", "apis"), GrouplessAPIPrefixes: sets.NewString("api")}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 64<<20)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for in.Scan() {
		var tc testCase
		var res interface{}
		if err := json.Unmarshal(in.Bytes(), &tc); err != nil {
			res = map[string]string{"fatal": err.Error()}
		} else if u, err := url.ParseRequestURI(tc.Target); err != nil {
			res = map[string]string{"refused": err.Error()}
		} else {
			info, err := factory.NewRequestInfo(&http.Request{Method: tc.Method, URL: u})
			out := map[string]interface{}{"info": info}
			if err != nil {
				out["error"] = err.Error()
			}
			res = out
		}
		b, _ := json.Marshal(res)
		w.Write(b)
		w.WriteByte('\n')
		w.Flush()
	}
}
