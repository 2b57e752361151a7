// Command oracle runs structured-merge-diff's merge.Updater over cases read as JSON lines on
// stdin and writes one JSON line of results per case (tools/smd-oracle/README.md).
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

type op struct {
	Op         string          `json:"op"`
	Manager    string          `json:"manager"`
	APIVersion string          `json:"apiVersion"`
	Object     json.RawMessage `json:"object"`
}

type managerIn struct {
	APIVersion string          `json:"apiVersion"`
	Applied    bool            `json:"applied"`
	Fields     json.RawMessage `json:"fields"`
}

type testCase struct {
	Schema   string               `json:"schema"`
	Type     string               `json:"type"`
	// Types, when set, names the type of each API version; the converter renames the top-level
	// field "s" to "s" + version (except at v1), and any other version is a missing one.
	Types    map[string]string    `json:"types"`
	Managers map[string]managerIn `json:"managers"`
	Ops      []op                 `json:"ops"`
}

type managerOut struct {
	APIVersion string          `json:"apiVersion"`
	Applied    bool            `json:"applied"`
	Fields     json.RawMessage `json:"fields"`
}

type opOut struct {
	Error     string      `json:"error,omitempty"`
	Conflicts []string    `json:"conflicts,omitempty"`
	Live      interface{} `json:"live"`
	Managers  map[string]managerOut `json:"managers"`
	Noop      bool        `json:"noop,omitempty"`
}

type converter struct{}

func (converter) Convert(v *typed.TypedValue, _ fieldpath.APIVersion) (*typed.TypedValue, error) {
	return v, nil
}
func (converter) IsMissingVersionError(error) bool { return false }

var errMissingVersion = errors.New("missing version")

type renamingConverter struct {
	parser *typed.Parser
	types  map[string]string
}

func fieldOf(version string) string {
	if version == "v1" {
		return "s"
	}
	return "s" + version
}

func (c renamingConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	name, ok := c.types[string(version)]
	if !ok {
		return nil, errMissingVersion
	}
	u := v.AsValue().Unstructured()
	if m, ok := u.(map[string]interface{}); ok {
		out := map[string]interface{}{}
		for k, e := range m {
			renamed := k
			for from := range c.types {
				if k == fieldOf(from) {
					renamed = fieldOf(string(version))
				}
			}
			out[renamed] = e
		}
		u = out
	}
	return c.parser.Type(name).FromUnstructured(u, typed.AllowDuplicates)
}
func (renamingConverter) IsMissingVersionError(err error) bool { return err == errMissingVersion }

func decodeJSON(raw []byte) (interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return fixNumbers(v), nil
}

func fixNumbers(v interface{}) interface{} {
	switch t := v.(type) {
	case map[string]interface{}:
		for k, e := range t {
			t[k] = fixNumbers(e)
		}
	case []interface{}:
		for i, e := range t {
			t[i] = fixNumbers(e)
		}
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	}
	return v
}

func managersOut(m fieldpath.ManagedFields) map[string]managerOut {
	out := map[string]managerOut{}
	for name, vs := range m {
		b, err := vs.Set().ToJSON()
		if err != nil {
			b = []byte(fmt.Sprintf("%q", err.Error()))
		}
		out[name] = managerOut{APIVersion: string(vs.APIVersion()), Applied: vs.Applied(), Fields: b}
	}
	return out
}

func run(tc testCase) ([]opOut, error) {
	parser, err := typed.NewParser(typed.YAMLObject(tc.Schema))
	if err != nil {
		return nil, fmt.Errorf("schema: %v", err)
	}
	pt := parser.Type(tc.Type)
	var conv merge.Converter = converter{}
	if tc.Types != nil {
		conv = renamingConverter{parser, tc.Types}
	}
	typeOf := func(version fieldpath.APIVersion) typed.ParseableType {
		if tc.Types != nil {
			if name, ok := tc.Types[string(version)]; ok {
				return parser.Type(name)
			}
		}
		return pt
	}
	updater := (&merge.UpdaterBuilder{Converter: conv}).BuildUpdater()
	live, err := pt.FromUnstructured(nil)
	if err != nil {
		return nil, fmt.Errorf("empty: %v", err)
	}
	managers := fieldpath.ManagedFields{}
	for name, m := range tc.Managers {
		s := fieldpath.NewSet()
		if err := s.FromJSON(bytes.NewReader(m.Fields)); err != nil {
			return nil, fmt.Errorf("managers: %v", err)
		}
		managers[name] = fieldpath.NewVersionedSet(s, fieldpath.APIVersion(m.APIVersion), m.Applied)
	}
	var outs []opOut
	for _, o := range tc.Ops {
		out := opOut{}
		obj, err := decodeJSON(o.Object)
		if err != nil {
			return nil, err
		}
		version := fieldpath.APIVersion(o.APIVersion)
		if version == "" {
			version = "v1"
		}
		var tv *typed.TypedValue
		if o.Op == "update" {
			tv, err = typeOf(version).FromUnstructured(obj, typed.AllowDuplicates)
		} else {
			tv, err = typeOf(version).FromUnstructured(obj)
		}
		var converted *typed.TypedValue
		if err == nil {
			converted, err = conv.Convert(live, version)
			if err != nil {
				err = fmt.Errorf("convert: %v", err)
			}
		}
		if err != nil {
			out.Error = "invalid: " + err.Error()
		} else if live = converted; o.Op == "update" {
			nl, nm, err := updater.Update(live, tv, version, managers, o.Manager)
			if err != nil {
				out.Error = err.Error()
			} else {
				live, managers = nl, nm
			}
		} else {
			nl, nm, err := updater.Apply(live, tv, version, managers, o.Manager, o.Op == "forceApply")
			if err != nil {
				var c merge.Conflicts
				if errors.As(err, &c) {
					for _, x := range c {
						out.Conflicts = append(out.Conflicts, x.Manager+" "+x.Path.String())
					}
					sort.Strings(out.Conflicts)
					out.Error = "conflicts"
				} else {
					out.Error = err.Error()
				}
			} else {
				managers = nm
				if nl != nil {
					live = nl
				} else {
					out.Noop = true
				}
			}
		}
		out.Live = live.AsValue().Unstructured()
		out.Managers = managersOut(managers)
		outs = append(outs, out)
	}
	return outs, nil
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
		} else if outs, err := run(tc); err != nil {
			res = map[string]string{"fatal": err.Error()}
		} else {
			res = map[string]interface{}{"ops": outs}
		}
		b, _ := json.Marshal(res)
		w.Write(b)
		w.WriteByte('\n')
		w.Flush()
	}
}
