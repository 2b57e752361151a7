package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
)

// exchange is one request and what answered it, as seen under client-go's decoding: the
// response's Content-Type and, for a body that is not a stream, the kind it carries
// (protobuf: the runtime.Unknown envelope's typeMeta; JSON: apiVersion and kind).
type exchange struct {
	agent, method, path, accept, ctype, kind, proto string
	code                                            int
}

type wireLog struct {
	mu  sync.Mutex
	all []exchange
}

var wire = &wireLog{}

func (w *wireLog) mark() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.all)
}

func (w *wireLog) since(i int) []exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]exchange(nil), w.all[i:]...)
}

type recordingTransport struct{ next http.RoundTripper }

func (t *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	e := exchange{agent: req.Header.Get("User-Agent"), method: req.Method, path: req.URL.Path, accept: req.Header.Get("Accept"),
		ctype: resp.Header.Get("Content-Type"), code: resp.StatusCode, proto: resp.Proto}
	if req.URL.Query().Get("watch") == "true" || req.URL.Query().Get("watch") == "1" {
		e.method = "WATCH"
	}
	if e.method != "WATCH" && !strings.Contains(e.ctype, "stream=watch") && resp.Body != nil {
		body, rerr := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(body))
		if rerr == nil {
			e.kind = kindOf(e.ctype, body)
		}
	}
	wire.mu.Lock()
	wire.all = append(wire.all, e)
	wire.mu.Unlock()
	return resp, nil
}

func kindOf(ctype string, body []byte) string {
	switch {
	case strings.HasPrefix(ctype, protobuf):
		if len(body) < 4 || string(body[:4]) != "k8s\x00" {
			return "?(no k8s\\0 prefix)"
		}
		var u runtime.Unknown
		if err := u.Unmarshal(body[4:]); err != nil {
			return "?(" + err.Error() + ")"
		}
		return u.APIVersion + "/" + u.Kind
	case strings.HasPrefix(ctype, "application/json"):
		var tm struct{ APIVersion, Kind string }
		if err := json.Unmarshal(body, &tm); err != nil {
			return "?(" + err.Error() + ")"
		}
		return tm.APIVersion + "/" + tm.Kind
	}
	return ""
}

// summarize counts the exchanges by agent, method, status, content type and kind.
func summarize(ex []exchange) []string {
	n := map[string]int{}
	for _, e := range ex {
		n[fmt.Sprintf("%s %s %s %d %s %s", e.proto, e.agent, e.method, e.code, e.ctype, e.kind)]++
	}
	var out []string
	for k, v := range n {
		out = append(out, fmt.Sprintf("%3d× %s", v, k))
	}
	sort.Strings(out)
	return out
}

// checkWire fails every successful answer to agent that is not in the wanted media type.
func checkWire(c *checker, ex []exchange, agent string, want func(e exchange) (bool, string)) {
	for _, s := range summarize(ex) {
		c.okf("wire: %s", s)
	}
	seen := map[string]bool{}
	for _, e := range ex {
		if e.agent != agent || e.code >= 300 {
			continue
		}
		if ok, why := want(e); !ok {
			k := e.method + " " + e.ctype + " " + e.kind + " " + why
			if !seen[k] {
				seen[k] = true
				c.failf("wire: %s %s (Accept %q) answered %d %q kind %q: %s", e.method, e.path, e.accept, e.code, e.ctype, e.kind, why)
			}
		}
	}
}
