// Command oracle applies strategic merge patches to core/v1 Events as kube-apiserver does,
// with k8s.io/apimachinery's strategicpatch.StrategicMergeMapPatch and the patch strategies of
// k8s.io/api's Event and ObjectMeta (tools/smp-oracle/README.md): one JSON line per case on stdin
// ({"doc":"<text>","patch":"<text>"}), one JSON line of result on stdout.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/util/strategicpatch"
	kjson "sigs.k8s.io/json"
)

// The Go types' shapes as k8s.io/api declares them; only their kinds and patch tags matter here.
type Time struct{ s string }
type MicroTime struct{ s string }
type FieldsV1 struct{ Raw []byte }

type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}

type OwnerReference struct {
	APIVersion         string `json:"apiVersion"`
	Kind               string `json:"kind"`
	Name               string `json:"name"`
	UID                string `json:"uid"`
	Controller         *bool  `json:"controller,omitempty"`
	BlockOwnerDeletion *bool  `json:"blockOwnerDeletion,omitempty"`
}

type ManagedFieldsEntry struct {
	Manager     string    `json:"manager,omitempty"`
	Operation   string    `json:"operation,omitempty"`
	APIVersion  string    `json:"apiVersion,omitempty"`
	Time        *Time     `json:"time,omitempty"`
	FieldsType  string    `json:"fieldsType,omitempty"`
	FieldsV1    *FieldsV1 `json:"fieldsV1,omitempty"`
	Subresource string    `json:"subresource,omitempty"`
}

type ObjectMeta struct {
	Name                       string               `json:"name,omitempty"`
	GenerateName               string               `json:"generateName,omitempty"`
	Namespace                  string               `json:"namespace,omitempty"`
	SelfLink                   string               `json:"selfLink,omitempty"`
	UID                        string               `json:"uid,omitempty"`
	ResourceVersion            string               `json:"resourceVersion,omitempty"`
	Generation                 int64                `json:"generation,omitempty"`
	CreationTimestamp          Time                 `json:"creationTimestamp,omitempty"`
	DeletionTimestamp          *Time                `json:"deletionTimestamp,omitempty"`
	DeletionGracePeriodSeconds *int64               `json:"deletionGracePeriodSeconds,omitempty"`
	Labels                     map[string]string    `json:"labels,omitempty"`
	Annotations                map[string]string    `json:"annotations,omitempty"`
	OwnerReferences            []OwnerReference     `json:"ownerReferences,omitempty" patchStrategy:"merge" patchMergeKey:"uid"`
	Finalizers                 []string             `json:"finalizers,omitempty" patchStrategy:"merge"`
	ManagedFields              []ManagedFieldsEntry `json:"managedFields,omitempty"`
}

type ObjectReference struct {
	Kind            string `json:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty"`
	Name            string `json:"name,omitempty"`
	UID             string `json:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty"`
}

type EventSource struct {
	Component string `json:"component,omitempty"`
	Host      string `json:"host,omitempty"`
}

type EventSeries struct {
	Count            int32     `json:"count,omitempty"`
	LastObservedTime MicroTime `json:"lastObservedTime,omitempty"`
}

// Event is core/v1's.
type Event struct {
	TypeMeta            `json:",inline"`
	ObjectMeta          `json:"metadata"`
	InvolvedObject      ObjectReference  `json:"involvedObject"`
	Reason              string           `json:"reason,omitempty"`
	Message             string           `json:"message,omitempty"`
	Source              EventSource      `json:"source,omitempty"`
	FirstTimestamp      Time             `json:"firstTimestamp,omitempty"`
	LastTimestamp       Time             `json:"lastTimestamp,omitempty"`
	Count               int32            `json:"count,omitempty"`
	Type                string           `json:"type,omitempty"`
	EventTime           MicroTime        `json:"eventTime,omitempty"`
	Series              *EventSeries     `json:"series,omitempty"`
	Action              string           `json:"action,omitempty"`
	Related             *ObjectReference `json:"related,omitempty"`
	ReportingController string           `json:"reportingComponent"`
	ReportingInstance   string           `json:"reportingInstance"`
}

type testCase struct {
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
	fail := func(err error) result { s := err.Error(); return result{Error: &s} }
	var doc map[string]interface{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(tc.Doc), &doc); err != nil {
		return fail(fmt.Errorf("doc: %v", err))
	}
	// As kube-apiserver's strategicPatchObject reads the patch under fieldValidation=Ignore.
	patch := map[string]interface{}{}
	if err := kjson.UnmarshalCaseSensitivePreserveInts([]byte(tc.Patch), &patch); err != nil {
		s := "bad request: " + err.Error()
		return result{Error: &s}
	}
	out, err := strategicpatch.StrategicMergeMapPatch(doc, patch, &Event{})
	if err != nil {
		return fail(err)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fail(err)
	}
	s := string(b)
	return result{Result: &s}
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
