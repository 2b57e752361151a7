// Command renderer renders a Helm chart's templates offline, for the chart tests: Go's
// text/template with sprig and the functions Helm adds (include, tpl, required, toYaml,
// fromYaml, toJson, fromJson, lookup), Helm's values coalescing and values.schema.json
// validation (gojsonschema, as Helm 3 does). It prints one JSON object: the rendered
// manifests by template name and the rendered NOTES.txt. It is not Helm: no hooks, no
// subcharts, no CRDs directory, no post-renderers.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/ioutil"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig"
	"github.com/xeipuuv/gojsonschema"
	"sigs.k8s.io/yaml"
)

type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

type chartMeta struct {
	Name        string `json:"name"`
	Version     string `json:"version"`
	AppVersion  string `json:"appVersion"`
	Description string `json:"description"`
	Type        string `json:"type"`
	KubeVersion string `json:"kubeVersion"`
}

// Chart mirrors the fields of Helm's .Chart that charts read.
type Chart struct {
	Name, Version, AppVersion, Description, Type, KubeVersion string
}

// Release mirrors Helm's .Release for `helm install`.
type Release struct {
	Name, Namespace, Service string
	IsInstall, IsUpgrade     bool
	Revision                 int
}

// VersionSet is Helm's .Capabilities.APIVersions.
type VersionSet []string

// Has tells whether the cluster offers an apiVersion ("group/version") or a resource ("group/version/Kind").
func (v VersionSet) Has(s string) bool {
	for _, x := range v {
		if x == s {
			return true
		}
	}
	return false
}

// KubeVersion is Helm's .Capabilities.KubeVersion.
type KubeVersion struct{ Version, Major, Minor string }

// String is the version, as Helm prints it.
func (k KubeVersion) String() string { return k.Version }

// GitVersion is Helm's deprecated alias of Version.
func (k KubeVersion) GitVersion() string { return k.Version }

// Capabilities is Helm's .Capabilities.
type Capabilities struct {
	APIVersions VersionSet
	KubeVersion KubeVersion
}

// Files is Helm's .Files (the chart's non-template files).
type Files map[string][]byte

// Get returns a file's content, or "" when absent.
func (f Files) Get(name string) string { return string(f[name]) }

// GetBytes returns a file's content.
func (f Files) GetBytes(name string) []byte { return f[name] }

// TemplateInfo is Helm's .Template.
type TemplateInfo struct{ Name, BasePath string }

// Helm's default API versions (chartutil.DefaultVersionSet for the Kubernetes versions it knows).
var defaultAPIVersions = []string{
	"v1", "apps/v1", "batch/v1", "policy/v1", "autoscaling/v2", "networking.k8s.io/v1",
	"rbac.authorization.k8s.io/v1", "coordination.k8s.io/v1", "events.k8s.io/v1",
	"authentication.k8s.io/v1", "authorization.k8s.io/v1", "storage.k8s.io/v1",
	"apiextensions.k8s.io/v1", "admissionregistration.k8s.io/v1", "scheduling.k8s.io/v1",
	"discovery.k8s.io/v1", "certificates.k8s.io/v1", "node.k8s.io/v1",
}

func main() {
	var valueFiles, apiVersions listFlag
	chartDir := flag.String("chart", "", "chart directory")
	name := flag.String("name", "release", "release name")
	namespace := flag.String("namespace", "default", "release namespace")
	lookupFile := flag.String("lookup", "", "JSON list of objects that lookup finds (default: none, as helm template)")
	kubeVersion := flag.String("kube-version", "v1.31.0", "Kubernetes version of .Capabilities")
	strict := flag.Bool("strict", false, "a missing map key is an error (as helm lint --strict)")
	flag.Var(&valueFiles, "f", "values file (YAML or JSON), repeatable; later files win")
	flag.Var(&apiVersions, "api-versions", "extra API versions for .Capabilities.APIVersions, repeatable")
	flag.Parse()
	out, err := render(*chartDir, *name, *namespace, valueFiles, apiVersions, *lookupFile, *kubeVersion, *strict)
	if err != nil {
		fmt.Fprintln(os.Stderr, "Error:", err)
		os.Exit(1)
	}
	os.Stdout.Write(out)
}

func readYAMLMap(file string) (map[string]interface{}, error) {
	data, err := ioutil.ReadFile(file)
	if err != nil {
		return nil, err
	}
	m := map[string]interface{}{}
	if err := yaml.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	if m == nil {
		m = map[string]interface{}{}
	}
	return m, nil
}

// coalesce merges src (user values) over dst (chart defaults) as Helm does: maps merge
// key by key, anything else replaces, and a null removes the key.
func coalesce(dst, src map[string]interface{}) map[string]interface{} {
	out := map[string]interface{}{}
	for k, v := range dst {
		out[k] = v
	}
	for k, v := range src {
		if v == nil {
			delete(out, k)
			continue
		}
		sm, sok := v.(map[string]interface{})
		dm, dok := out[k].(map[string]interface{})
		if sok && dok {
			out[k] = coalesce(dm, sm)
		} else {
			out[k] = v
		}
	}
	return out
}

func validateSchema(schemaFile string, values map[string]interface{}) error {
	schema, err := ioutil.ReadFile(schemaFile)
	if err != nil {
		if os.IsNotExist(err) {
			return nil
		}
		return err
	}
	res, err := gojsonschema.Validate(gojsonschema.NewBytesLoader(schema), gojsonschema.NewGoLoader(values))
	if err != nil {
		return fmt.Errorf("values.schema.json: %v", err)
	}
	if res.Valid() {
		return nil
	}
	var b strings.Builder
	for _, e := range res.Errors() {
		fmt.Fprintf(&b, "- %s\n", e)
	}
	return fmt.Errorf("values don't meet the specifications of the schema(s) in the following chart(s):\n%s", b.String())
}

func toYAML(v interface{}) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func fromYAML(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func fromYAMLArray(s string) []interface{} {
	a := []interface{}{}
	if err := yaml.Unmarshal([]byte(s), &a); err != nil {
		a = []interface{}{err.Error()}
	}
	return a
}

func toJSON(v interface{}) string {
	data, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(data)
}

func fromJSON(s string) map[string]interface{} {
	m := map[string]interface{}{}
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		m["Error"] = err.Error()
	}
	return m
}

func required(msg string, v interface{}) (interface{}, error) {
	if v == nil {
		return v, errors.New(msg)
	}
	if s, ok := v.(string); ok && s == "" {
		return v, errors.New(msg)
	}
	return v, nil
}

type lookupObject = map[string]interface{}

// lookupFunc answers Helm's lookup from a fixed list: an empty map when nothing matches (as
// helm template does), the object for a name, or {items: [...]} for name "".
func lookupFunc(objects []lookupObject) func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
	return func(apiVersion, kind, namespace, name string) (map[string]interface{}, error) {
		var items []interface{}
		for _, o := range objects {
			md, _ := o["metadata"].(map[string]interface{})
			if o["apiVersion"] != apiVersion || o["kind"] != kind {
				continue
			}
			if namespace != "" && md["namespace"] != namespace {
				continue
			}
			if name != "" {
				if md["name"] == name {
					return o, nil
				}
				continue
			}
			items = append(items, o)
		}
		if name == "" && items != nil {
			return map[string]interface{}{"items": items}, nil
		}
		return map[string]interface{}{}, nil
	}
}

func render(chartDir, name, namespace string, valueFiles, extraAPIVersions []string, lookupFile, kubeVersion string, strict bool) ([]byte, error) {
	metaData, err := ioutil.ReadFile(filepath.Join(chartDir, "Chart.yaml"))
	if err != nil {
		return nil, err
	}
	var meta chartMeta
	if err := yaml.Unmarshal(metaData, &meta); err != nil {
		return nil, fmt.Errorf("Chart.yaml: %v", err)
	}
	values, err := readYAMLMap(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		return nil, err
	}
	for _, f := range valueFiles {
		user, err := readYAMLMap(f)
		if err != nil {
			return nil, err
		}
		values = coalesce(values, user)
	}
	if err := validateSchema(filepath.Join(chartDir, "values.schema.json"), values); err != nil {
		return nil, err
	}
	var lookups []lookupObject
	if lookupFile != "" {
		data, err := ioutil.ReadFile(lookupFile)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(data, &lookups); err != nil {
			return nil, fmt.Errorf("%s: %v", lookupFile, err)
		}
	}

	files := Files{}
	var templateNames []string
	err = filepath.Walk(chartDir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(chartDir, p)
		rel = filepath.ToSlash(rel)
		data, err := ioutil.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasPrefix(rel, "templates/") {
			templateNames = append(templateNames, rel)
		}
		files[rel] = data
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(templateNames)

	major, minor := "1", "31"
	if parts := strings.SplitN(strings.TrimPrefix(kubeVersion, "v"), ".", 3); len(parts) >= 2 {
		major, minor = parts[0], parts[1]
	}
	top := map[string]interface{}{
		"Values":  values,
		"Chart":   Chart{meta.Name, meta.Version, meta.AppVersion, meta.Description, meta.Type, meta.KubeVersion},
		"Release": Release{Name: name, Namespace: namespace, Service: "Helm", IsInstall: true, Revision: 1},
		"Capabilities": Capabilities{
			APIVersions: append(append(VersionSet{}, defaultAPIVersions...), extraAPIVersions...),
			KubeVersion: KubeVersion{kubeVersion, major, minor},
		},
		"Files": files,
	}

	t := template.New("gotpl")
	if strict {
		t.Option("missingkey=error")
	} else {
		t.Option("missingkey=zero")
	}
	funcs := sprig.TxtFuncMap()
	delete(funcs, "env")
	delete(funcs, "expandenv")
	includedNames := map[string]int{}
	funcs["include"] = func(name string, data interface{}) (string, error) {
		if includedNames[name] > 1000 {
			return "", fmt.Errorf("rendering template has a nested reference name: %s", name)
		}
		includedNames[name]++
		defer func() { includedNames[name]-- }()
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, name, data); err != nil {
			return "", err
		}
		return buf.String(), nil
	}
	funcs["tpl"] = func(text string, data interface{}) (string, error) {
		clone, err := t.Clone()
		if err != nil {
			return "", err
		}
		parsed, err := clone.New("tpl").Parse(text)
		if err != nil {
			return "", fmt.Errorf("cannot parse template %q: %v", text, err)
		}
		var buf bytes.Buffer
		if err := parsed.Execute(&buf, data); err != nil {
			return "", fmt.Errorf("error during tpl function execution for %q: %v", text, err)
		}
		return strings.ReplaceAll(buf.String(), "<no value>", ""), nil
	}
	funcs["required"] = required
	funcs["toYaml"] = toYAML
	funcs["fromYaml"] = fromYAML
	funcs["fromYamlArray"] = fromYAMLArray
	funcs["toJson"] = toJSON
	funcs["fromJson"] = fromJSON
	funcs["lookup"] = lookupFunc(lookups)
	t.Funcs(funcs)

	for _, n := range templateNames {
		if _, err := t.New(meta.Name + "/" + n).Parse(string(files[n])); err != nil {
			return nil, err
		}
	}

	manifests := map[string]string{}
	notes := ""
	for _, n := range templateNames {
		base := path.Base(n)
		if strings.HasPrefix(base, "_") {
			continue
		}
		full := meta.Name + "/" + n
		data := map[string]interface{}{}
		for k, v := range top {
			data[k] = v
		}
		data["Template"] = TemplateInfo{Name: full, BasePath: meta.Name + "/templates"}
		var buf bytes.Buffer
		if err := t.ExecuteTemplate(&buf, full, data); err != nil {
			return nil, err
		}
		text := strings.ReplaceAll(buf.String(), "<no value>", "")
		if base == "NOTES.txt" {
			notes = text
			continue
		}
		if strings.HasSuffix(base, ".txt") {
			continue
		}
		manifests[full] = text
	}
	return json.Marshal(map[string]interface{}{"manifests": manifests, "notes": notes, "values": values})
}
