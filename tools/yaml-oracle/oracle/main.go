package main

import (
	"bufio"
	"encoding/json"
	"os"

	"sigs.k8s.io/yaml"
)

type out struct {
	JSON      *string `json:"json"`
	Err       *string `json:"err"`
	StrictErr *string `json:"strictErr"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		var doc string
		var o out
		if err := json.Unmarshal(sc.Bytes(), &doc); err != nil {
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
