package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"sigs.k8s.io/yaml"
)

// out answers a YAML text (the default mode): YAMLToJSON's output or error, and
// YAMLToJSONStrict's error.
type out struct {
	JSON      *string `json:"json"`
	Err       *string `json:"err"`
	StrictErr *string `json:"strictErr"`
}

// yamlOut answers a {"json2yaml": "<JSON text>"} line: JSONToYAML's output or error. With
// "escapeControls": true, the characters goyaml's reader refuses raw (DEL, the C1 controls but
// NEL, U+FFFE, U+FFFF: "control characters are not allowed") are first written as \u escapes,
// which it reads, so that the answer is what goyaml's emitter writes for the same value.
type yamlOut struct {
	YAML *string `json:"yaml"`
	Err  *string `json:"err"`
}

type request struct {
	JSON2YAML      *string `json:"json2yaml"`
	EscapeControls bool    `json:"escapeControls"`
}

// refusedRaw is whether goyaml's reader (yaml_parser_update_buffer) refuses a character raw.
func refusedRaw(r rune) bool {
	return r == 0x7f || (r >= 0x80 && r <= 0x9f && r != 0x85) || r == 0xfffe || r == 0xffff
}

// escapeControls writes each character goyaml's reader refuses raw as a JSON \u escape (they
// can stand only inside strings in a JSON text).
func escapeControls(text string) string {
	var b strings.Builder
	for _, r := range text {
		if refusedRaw(r) {
			fmt.Fprintf(&b, "\\u%04x", r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) > 0 && line[0] == '{' {
			enc.Encode(json2yaml(line))
			w.Flush()
			continue
		}
		var doc string
		var o out
		if err := json.Unmarshal(line, &doc); err != nil {
			s := "bad input line: " + err.Error()
			o.Err = &s
		} else {
			j, err := yaml.YAMLToJSON([]byte(doc))
			if err != nil {
				s := err.Error()
				o.Err = &s
			} else {
				s := string(j)
				o.JSON = &s
			}
			if _, err := yaml.YAMLToJSONStrict([]byte(doc)); err != nil {
				s := err.Error()
				o.StrictErr = &s
			}
		}
		enc.Encode(o)
		w.Flush()
	}
}

func json2yaml(line []byte) (o yamlOut) {
	var req request
	if err := json.Unmarshal(line, &req); err != nil || req.JSON2YAML == nil {
		s := "bad input line: want {\"json2yaml\": \"<JSON text>\"}"
		if err != nil {
			s = "bad input line: " + err.Error()
		}
		o.Err = &s
		return o
	}
	text := *req.JSON2YAML
	if req.EscapeControls {
		text = escapeControls(text)
	}
	y, err := yaml.JSONToYAML([]byte(text))
	if err != nil {
		s := err.Error()
		o.Err = &s
		return o
	}
	s := string(y)
	o.YAML = &s
	return o
}
