package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"

	"github.com/munnerz/goautoneg"
)

type clause struct {
	Type    string            `json:"type"`
	SubType string            `json:"subType"`
	Q       string            `json:"q"`
	Params  map[string]string `json:"params"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	for sc.Scan() {
		var h string
		json.Unmarshal(sc.Bytes(), &h)
		out := []clause{}
		for _, c := range goautoneg.ParseAccept(h) {
			q := "nan"
			if !math.IsNaN(c.Q) {
				b, _ := json.Marshal(c.Q)
				q = string(b)
				if math.IsInf(c.Q, 1) { q = "inf" }
				if math.IsInf(c.Q, -1) { q = "-inf" }
			}
			p := c.Params
			if p == nil { p = map[string]string{} }
			out = append(out, clause{c.Type, c.SubType, q, p})
		}
		enc.Encode(out)
		w.Flush()
	}
}
