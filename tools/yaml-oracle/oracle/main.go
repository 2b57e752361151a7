package main

import (
	"bufio"
	"encoding/json"
	"os"

	"sigs.k8s.io/yaml"
)

// out answers a YAML text (the default mode): YAMLToJSON's output or error, and
// YAMLToJSONStrict's error.
type out struct {
	JSON      *string `json:"json"`
	Err       *string `json:"err"`
	StrictErr *string `json:"strictErr"`
}

// yamlOut answers a {"json2yaml": "<JSON text>"} line: JSONToYAML's output or error.
type yamlOut struct {
	YAML *string `json:"yaml"`
	Err  *string `json:"err"`
}

type request struct {
	JSON2YAML *string `json:"json2yaml"`
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
	y, err := yaml.JSONToYAML([]byte(*req.JSON2YAML))
	if err != nil {
		s := err.Error()
		o.Err = &s
		return o
	}
	s := string(y)
	o.YAML = &s
	return o
}
